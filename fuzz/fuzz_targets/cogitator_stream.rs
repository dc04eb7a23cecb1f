//! The cogitator backend's stream decoder and whole-reply reader never panic, whatever the
//! server sends, and however the body is chunked.
//!
//! Input layout: byte 0 is where the body is split into two chunks (scaled to its length),
//! the rest is the body; the same bytes are also read as one whole reply.

#![no_main]

use agent_chat_core::transport::cogitator;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&split, body)) = data.split_first() else {
        return;
    };
    let at = body.len() * usize::from(split) / 255;
    let mut decoder = cogitator::Decoder::new();
    let _ = decoder.push(&body[..at]);
    let _ = decoder.push(&body[at..]);
    let _ = decoder.finish();
    let _ = decoder.ending();
    let text = String::from_utf8_lossy(body);
    let _ = cogitator::read_reply(&text);
});
