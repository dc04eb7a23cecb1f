//! The langgraph backend's run decoder, whole-state reader and resume mapping never panic,
//! whatever the server sends, and however the body is chunked.
//!
//! Input layout: byte 0 is where the body is split into two chunks (scaled to its length),
//! the rest is the body; the same bytes are also read as one whole reply, and every card the
//! run left is answered with each kind of answer.

#![no_main]

use agent_chat_core::transport::langgraph;
use libfuzzer_sys::fuzz_target;
use serde_json::json;

fuzz_target!(|data: &[u8]| {
    let Some((&split, body)) = data.split_first() else {
        return;
    };
    let at = body.len() * usize::from(split) / 255;
    let mut decoder = langgraph::Decoder::new();
    let _ = decoder.push(&body[..at]);
    let _ = decoder.push(&body[at..]);
    let _ = decoder.finish();
    let ending = decoder.ending();
    let text = String::from_utf8_lossy(body);
    let _ = langgraph::Decoder::new().read_whole(&text);
    // The thread's state read back, alone and against a page's copy.
    if let Some(thread) = langgraph::state::read("conv", "agent", None, &text, "now") {
        let _ = langgraph::state::read("conv", "agent", Some(&thread), &text, "now");
    }
    let answers = [
        json!({"decision": "allow"}),
        json!({"decision": "allow", "approvedArgs": {"x": 1}}),
        json!({"decision": "deny", "comment": "no"}),
        json!({"decision": "deny"}),
        json!({"answers": {"q": "a"}}),
        json!({"answers": {}, "cancelled": true}),
    ];
    for card in ending.pending_actions.iter().filter_map(|p| p.as_array()).flatten() {
        for answer in &answers {
            let _ = langgraph::resume_value(card, answer);
        }
    }
});
