//! The AG-UI backend's event-stream decoder, its whole-reply reader and its state patches
//! never panic, whatever the agent sends, and however the body is chunked.
//!
//! Input layout: byte 0 is where the body is split into two chunks (scaled to its length),
//! the rest is the body; the same bytes are also read as one whole reply and as a JSON Patch.

#![no_main]

use agent_chat_core::transport::ag_ui;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&split, body)) = data.split_first() else {
        return;
    };
    let at = body.len() * usize::from(split) / 255;
    let mut decoder = ag_ui::Decoder::new();
    let _ = decoder.push(&body[..at]);
    let _ = decoder.push(&body[at..]);
    let _ = decoder.finish();
    let _ = decoder.ending();
    let text = String::from_utf8_lossy(body);
    let _ = ag_ui::read_reply(&text);
    if let Ok(patch) = serde_json::from_str(&text) {
        let mut doc = serde_json::json!({ "a": [1, { "b": 2 }] });
        let _ = ag_ui::apply_patch(&mut doc, &patch);
    }
});
