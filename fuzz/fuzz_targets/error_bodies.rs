//! The readers of a server's refusal never panic, whatever its body and headers: the
//! agent-server envelope every gateway makes of an error body (and Cogitator's and
//! LangGraph's own), the plain-text words of a body, `Retry-After` against the response's
//! `Date`, and a kept reply's failure. An envelope holds only the server's words: a body that
//! is not JSON gives its own text or none, never words the gateway made up.
//!
//! Input layout: byte 0 picks the status (400 + byte % 200), bytes up to the first newline
//! are also read as the `Retry-After` and `Date` headers, the rest is the body.

#![no_main]

use agent_chat_core::transport::failure::FailedTurn;
use agent_chat_core::transport::{cogitator, langgraph, reply};
use agent_chat_core::{parse_http_date, parse_retry_after, plain_text_words, ApiError};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let status = 400 + u16::from(first) % 200;
    let text = String::from_utf8_lossy(rest);
    let text: &str = &text;
    let (header, body) = text.split_once('\n').unwrap_or((text, text));

    let date = parse_http_date(header);
    let _ = parse_retry_after(header, date);
    let _ = parse_retry_after(header, None);

    let is_json = serde_json::from_str::<Value>(body).is_ok();
    let words = plain_text_words(body);
    if let Some(words) = words {
        assert!(body.contains(words), "plain-text words not from the body");
        assert!(!is_json, "a JSON body read as plain text");
    }
    let envelopes = [
        reply::error_envelope(status, body),
        cogitator::action_error_envelope(status, body),
        langgraph::refusal_envelope(status, body, true),
        langgraph::refusal_envelope(status, body, false),
    ];
    for envelope in &envelopes {
        let value: Value = serde_json::from_str(envelope).expect("an envelope is JSON");
        assert!(value["error"].is_object(), "no error object: {envelope}");
        let error = ApiError::from_body(status, envelope);
        let _ = (error.fluent_id(), error.has_server_words());
        if !is_json {
            if let Some(message) = value["error"]["message"].as_str() {
                assert!(
                    body.contains(message),
                    "words not the server's: {message:?} from {body:?}"
                );
            }
        }
    }
    if let Ok(Value::Object(metadata)) = serde_json::from_str::<Value>(body) {
        if let Some(FailedTurn::Words(words)) = FailedTurn::of(&metadata) {
            assert!(!words.trim().is_empty(), "blank words kept as a failure");
        }
    }
});
