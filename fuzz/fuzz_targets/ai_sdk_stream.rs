//! The AI SDK backend's stream decoder, whole-reply reader and request builder never panic,
//! whatever the server sends, and however the body is chunked.
//!
//! Input layout: byte 0 is where the body is split into two chunks (scaled to its length),
//! the rest is the body; the same bytes are also read as one whole reply, and the reply's
//! kept message is turned back into the next request's UI messages.

#![no_main]

use agent_chat_core::transport::ai_sdk;
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};

fuzz_target!(|data: &[u8]| {
    let Some((&split, body)) = data.split_first() else {
        return;
    };
    let at = body.len() * usize::from(split) / 255;
    let mut decoder = ai_sdk::Decoder::new();
    let _ = decoder.push(&body[..at]);
    let _ = decoder.push(&body[at..]);
    let _ = decoder.finish();
    let ending = decoder.ending();
    let text = String::from_utf8_lossy(body);
    let _ = ai_sdk::read_reply(&text);
    let stored: Vec<Value> = vec![
        json!({ "id": "u", "role": "user", "content": "hi" }),
        json!({ "id": "a", "role": "assistant", "content": ending.content,
                "metadata": Value::Object(ending.message_metadata.clone()),
                "actionStates": { "x": { "status": "resolved",
                                         "resolution": { "decision": "allow" } } } }),
        json!({ "id": "b", "role": "assistant", "content": "",
                "metadata": Value::Object(ending.message_metadata) }),
    ];
    let messages = ai_sdk::ui_messages(&stored, Some(("y", &json!({ "decision": "deny" }))));
    let _ = ai_sdk::message_of(&messages, "y");
});
