//! `createConversation(title?)` (F151): E4 without a message.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use agent_chat_ui::core::{Command, Method, SessionConfig, SessionEvent};
use common::{Harness, CONV, EMPTY_LIST};
use serde_json::Value;

#[test]
fn f151_create_conversation_posts_agent_and_title_and_opens_it() {
    let mut h = Harness::started_with_agent(SessionConfig::default());
    h.cmd(Command::CreateConversation {
        title: Some("  Planning  ".into()),
    });
    let req = h.answer(Method::Post, "/conversations", 201, CONV);
    let body: Value = serde_json::from_str(req.body.as_deref().unwrap()).unwrap();
    assert_eq!(body["agentId"], "echo");
    assert_eq!(body["title"], "Planning", "trimmed");
    assert_eq!(h.s.conversation().map(|c| c.id.as_str()), Some("conv_1"));
    assert!(h
        .events
        .iter()
        .any(|e| matches!(e, SessionEvent::ConversationCreated(c) if c.id == "conv_1")));
    assert!(h
        .events
        .contains(&SessionEvent::ConversationChanged(Some("conv_1".into()))));
    // The history is refreshed quietly so the new conversation shows up.
    h.answer(Method::Get, "/conversations?", 200, EMPTY_LIST);
}

#[test]
fn f151_no_title_sends_none_and_a_refusal_is_an_error_not_a_conversation() {
    let mut h = Harness::started_with_agent(SessionConfig::default());
    h.cmd(Command::CreateConversation { title: None });
    let req = h.answer(
        Method::Post,
        "/conversations",
        404,
        r#"{"error":{"code":"NOT_FOUND","message":"Agent not found"}}"#,
    );
    let body: Value = serde_json::from_str(req.body.as_deref().unwrap()).unwrap();
    assert!(body.get("title").is_none());
    assert!(h.s.conversation().is_none());
    assert!(h.s.error().is_some(), "the refusal is shown");
}

#[test]
fn f151_a_message_sent_meanwhile_keeps_its_own_conversation() {
    let mut h = Harness::started_with_agent(SessionConfig::default());
    h.cmd(Command::CreateConversation { title: None });
    h.cmd(Command::Send("hi".into()));
    // The empty one answers after the message started its own: it is not opened over it, it
    // only joins the history (created, not changed to).
    let empty = h.answer(Method::Post, "/conversations", 201, CONV);
    let body: Value = serde_json::from_str(empty.body.as_deref().unwrap()).unwrap();
    assert!(
        body.get("title").is_none(),
        "the empty one was answered first"
    );
    assert!(h.s.conversation().is_none(), "{:?}", h.s.conversation());
    assert!(h
        .events
        .iter()
        .any(|e| matches!(e, SessionEvent::ConversationCreated(c) if c.id == "conv_1")));
    assert!(!h
        .events
        .contains(&SessionEvent::ConversationChanged(Some("conv_1".into()))));
    assert!(h.s.messages().iter().any(|m| m.display_text() == "hi"));
    // The message's own conversation is the one opened, and the message streams into it.
    h.answer(
        Method::Post,
        "/conversations",
        201,
        &CONV.replace("conv_1", "conv_2"),
    );
    assert_eq!(h.s.conversation().map(|c| c.id.as_str()), Some("conv_2"));
    assert_eq!(h.streams.len(), 1);
    assert_eq!(h.streams[0].path, "/conversations/conv_2/messages");
}
