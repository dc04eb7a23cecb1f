//! Message-level parity in the core: `retry()` (F152), sources carried by `stream.done`
//! (F77), tool-step labels kept on the finished message (F116), and the http(s)-only rule
//! for citation addresses (D32).
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::url::safe_web_href;
use agent_chat_ui::core::{Command, Method, Role, Run, SessionConfig};
use serde_json::json;

use crate::common;

use common::{frame, Harness, CONV};

/// A harness whose conversation `conv_1` holds one exchange: "hello" → "You said: hello".
fn after_one_exchange() -> Harness {
    let mut h = Harness::started_with_agent(SessionConfig::default());
    h.cmd(Command::Send("hello".into()));
    h.answer(Method::Post, "/conversations", 201, CONV);
    h.chunk(0, &frame(r#"{"type":"stream.start","timestamp":1,"conversationId":"conv_1","messageId":"msg_u"}"#));
    h.chunk(0, &frame(r#"{"type":"stream.done","timestamp":4,"conversationId":"conv_1","messageId":"msg_a","content":"You said: hello"}"#));
    h.close(0, None);
    assert_eq!(h.s.run(), Run::Idle);
    h
}

#[test]
fn f152_retry_drops_the_trailing_reply_and_resends_the_last_text() {
    let mut h = after_one_exchange();
    assert_eq!(h.s.messages().len(), 2);
    h.cmd(Command::Retry);
    // The old reply is gone, the text goes out again as a new user message.
    let roles: Vec<Role> = h.s.messages().iter().map(|m| m.role.clone()).collect();
    assert_eq!(roles, vec![Role::User, Role::User]);
    assert_eq!(h.s.messages()[1].content.display_text(), "hello");
    assert_eq!(h.s.run(), Run::Streaming);
    assert_eq!(h.streams.len(), 2);
    let body: serde_json::Value =
        serde_json::from_str(h.streams[1].body.as_deref().unwrap()).unwrap();
    assert_eq!(body, json!({ "message": "hello", "stream": true }));
}

#[test]
fn f152_retry_keeps_a_trailing_user_message_and_does_nothing_while_streaming() {
    let mut h = after_one_exchange();
    h.cmd(Command::Send("second".into()));
    assert_eq!(h.s.run(), Run::Streaming);
    // Streaming: nothing can be sent, so retry is ignored.
    h.cmd(Command::Retry);
    assert_eq!(h.streams.len(), 2);
    assert_eq!(h.s.messages().len(), 3);
    // The reply fails before anything arrived: the user message stays last, retry resends it
    // without dropping anything.
    h.chunk(1, &frame(r#"{"type":"stream.start","timestamp":1,"conversationId":"conv_1","messageId":"msg_u2"}"#));
    h.chunk(
        1,
        &frame(r#"{"type":"stream.error","timestamp":2,"error":"boom"}"#),
    );
    h.close(1, None);
    assert_eq!(h.s.run(), Run::Idle);
    let before = h.s.messages().len();
    h.cmd(Command::Retry);
    assert_eq!(h.s.messages().len(), before + 1);
    assert_eq!(
        h.s.messages().last().unwrap().content.display_text(),
        "second"
    );
    assert_eq!(h.streams.len(), 3);
}

#[test]
fn f152_retry_without_any_user_message_is_ignored() {
    let mut h = Harness::started_with_agent(SessionConfig::default());
    h.cmd(Command::Retry);
    assert!(h.s.messages().is_empty());
    assert!(h.streams.is_empty());
    assert!(h.requests.iter().all(|r| r.method != Method::Post));
}

#[test]
fn f77_citations_of_stream_done_are_on_the_final_message() {
    let mut h = Harness::started_with_agent(SessionConfig::default());
    h.cmd(Command::Send("sources please".into()));
    h.answer(Method::Post, "/conversations", 201, CONV);
    h.chunk(
        0,
        &frame(r#"{"type":"stream.text","timestamp":2,"text":"Here."}"#),
    );
    h.chunk(0, &frame(r#"{"type":"stream.done","timestamp":4,"conversationId":"conv_1","messageId":"msg_a","content":"Here.","citations":[{"id":"c1","title":"Rust","link":"https://www.rust-lang.org/"},{"description":"untitled"}]}"#));
    let last = h.s.messages().last().unwrap();
    assert_eq!(last.citations.len(), 2);
    assert_eq!(last.citations[0].title.as_deref(), Some("Rust"));
    assert_eq!(
        last.citations[0].link.as_deref(),
        Some("https://www.rust-lang.org/")
    );
    assert_eq!(last.citations[1].title, None);
    assert_eq!(last.citations[1].description.as_deref(), Some("untitled"));
}

#[test]
fn f116_streamed_reasoning_and_display_name_stay_on_the_finished_steps() {
    let mut h = Harness::started_with_agent(SessionConfig::default());
    h.cmd(Command::Send("x".into()));
    h.answer(Method::Post, "/conversations", 201, CONV);
    h.chunk(0, &frame(r#"{"type":"stream.tool_call","timestamp":2,"toolName":"web_search","toolCallId":"call_1","args":{"q":"rust"},"reasoning":"Looking up the docs","displayName":"Search"}"#));
    h.chunk(0, &frame(r#"{"type":"stream.tool_call","timestamp":3,"toolName":"count_words","toolCallId":"call_2","args":{}}"#));
    h.chunk(0, &frame(r#"{"type":"stream.done","timestamp":4,"conversationId":"conv_1","messageId":"msg_a","content":"ok"}"#));
    let details = h.s.messages().last().unwrap().tool_call_details();
    assert_eq!(details.len(), 2);
    assert_eq!(details[0].reasoning.as_deref(), Some("Looking up the docs"));
    assert_eq!(details[0].display_name.as_deref(), Some("Search"));
    assert_eq!(details[1].reasoning, None);
    assert_eq!(details[1].display_name, None);
}

#[test]
fn d32_citation_addresses_must_be_absolute_http_or_https() {
    assert_eq!(
        safe_web_href(" https://example.com/a "),
        Some("https://example.com/a".into())
    );
    assert_eq!(
        safe_web_href("HTTP://example.com"),
        Some("HTTP://example.com".into())
    );
    for bad in [
        "javascript:alert(1)",
        "java\tscript:alert(1)",
        "data:text/html,x",
        "mailto:a@b.c",
        "/relative/path",
        "//host/x",
        "example.com",
        "https:",
        "https://",
        "",
    ] {
        assert_eq!(safe_web_href(bad), None, "{bad:?}");
    }
}
