//! A message that has not reached a conversation yet: sent before the agent list arrived (a
//! backend's code may still be loading, D68), or while E4 creates its conversation. It
//! waits for the agent, and Stop, New Chat or opening another conversation give its text
//! back instead of posting it somewhere the person no longer looks (F197, C29).
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use agent_chat_ui::core::{ChatError, Command, Method, Role, Run, SessionConfig, SessionEvent};
use common::{Harness, AGENTS, CONV, EMPTY_LIST};

/// A started session whose agent list has not been answered yet.
fn before_agents() -> Harness {
    let mut h = Harness::new(SessionConfig::default());
    h.cmd(Command::Start);
    h
}

/// A started session with the echo agent, whose first message waits for E4.
fn creating(text: &str) -> Harness {
    let mut h = Harness::started_with_agent(SessionConfig::default());
    h.cmd(Command::Send(text.into()));
    assert!(h.requests.iter().any(|r| r.path == "/conversations"));
    h
}

fn posts_to_conversations(h: &Harness) -> usize {
    h.requests
        .iter()
        .filter(|r| r.method == Method::Post && r.path == "/conversations")
        .count()
}

#[test]
fn f197_a_message_sent_before_the_agent_list_waits_for_it_and_goes_out() {
    let mut h = before_agents();
    h.cmd(Command::Send("hello".into()));
    // Shown as sent, nothing asked of the server yet, and no error.
    assert_eq!(h.s.messages().len(), 1);
    assert_eq!(h.s.messages()[0].role, Role::User);
    assert_eq!(h.s.run(), Run::Streaming);
    assert_eq!(h.s.error(), None);
    assert_eq!(posts_to_conversations(&h), 0);

    h.answer(Method::Get, "/agents", 200, AGENTS);
    let create = h.answer(Method::Post, "/conversations", 201, CONV);
    assert_eq!(create.body.as_deref(), Some(r#"{"agentId":"echo"}"#));
    assert_eq!(h.streams.len(), 1);
    assert_eq!(h.streams[0].path, "/conversations/conv_1/messages");
    assert!(h.streams[0].body.as_deref().unwrap().contains("hello"));
    assert!(h.drafts().is_empty());
}

#[test]
fn f197_a_waiting_message_with_no_agent_listed_is_refused_with_its_draft() {
    let mut h = before_agents();
    h.cmd(Command::Send("hello".into()));
    h.answer(Method::Get, "/agents", 200, r#"{"agents":[]}"#);
    assert_eq!(h.s.error(), Some(&ChatError::NoAgent));
    assert!(h.s.messages().is_empty());
    assert_eq!(h.s.run(), Run::Idle);
    assert_eq!(h.drafts(), vec!["hello".to_owned()]);
    assert_eq!(posts_to_conversations(&h), 0);
}

#[test]
fn f197_stop_before_the_agent_list_gives_the_text_back_and_sends_nothing() {
    let mut h = before_agents();
    h.cmd(Command::Send("hello".into()));
    h.cmd(Command::Stop);
    assert!(h.s.messages().is_empty());
    assert_eq!(h.s.run(), Run::Idle);
    assert_eq!(h.drafts(), vec!["hello".to_owned()]);
    // The list arriving later is the chance to send: nothing goes.
    h.answer(Method::Get, "/agents", 200, AGENTS);
    h.answer(Method::Get, "/conversations?", 200, EMPTY_LIST);
    assert_eq!(posts_to_conversations(&h), 0);
    assert!(h.streams.is_empty());
    assert_eq!(h.s.error(), None);
}

#[test]
fn f197_stop_while_the_conversation_is_created_posts_no_message() {
    let mut h = creating("hello");
    h.cmd(Command::Stop);
    assert!(h.s.messages().is_empty());
    assert_eq!(h.s.run(), Run::Idle);
    assert_eq!(h.drafts(), vec!["hello".to_owned()]);
    // The creation the server was already asked for ends; the chat is that empty conversation.
    h.answer(Method::Post, "/conversations", 201, CONV);
    assert!(h.streams.is_empty());
    assert!(!h.requests.iter().any(|r| r.path.ends_with("/messages")));
    assert_eq!(h.s.conversation().map(|c| c.id.as_str()), Some("conv_1"));
    assert!(h.s.messages().is_empty());
}

#[test]
fn f197_new_chat_while_the_conversation_is_created_keeps_the_text() {
    let mut h = creating("hello");
    h.cmd(Command::NewChat);
    assert!(h.s.messages().is_empty());
    assert_eq!(h.drafts(), vec!["hello".to_owned()]);
    h.answer(Method::Post, "/conversations", 201, CONV);
    assert!(h.streams.is_empty());
    assert!(h.events.contains(&SessionEvent::ConversationCreated(
        h.s.conversation()
            .cloned()
            .expect("the empty conversation is the new chat")
    )));
}

#[test]
fn f197_opening_another_conversation_while_one_is_created_stays_on_it() {
    let mut h = creating("hello");
    h.cmd(Command::OpenConversation("conv_9".into()));
    assert_eq!(h.drafts(), vec!["hello".to_owned()]);
    // E4 answers before E5: the new conversation only joins the history.
    h.answer(Method::Post, "/conversations", 201, CONV);
    assert!(h.streams.is_empty());
    assert!(h.s.conversation().is_none());
    h.answer(
        Method::Get,
        "/conversations/conv_9",
        200,
        r#"{"conversation":{"id":"conv_9","agentId":"echo"},"messages":[{"id":"m1","conversationId":"conv_9","role":"user","content":"earlier"}]}"#,
    );
    assert_eq!(h.s.conversation().map(|c| c.id.as_str()), Some("conv_9"));
    let texts: Vec<String> =
        h.s.messages()
            .iter()
            .map(|m| m.display_text().into_owned())
            .collect();
    assert_eq!(texts, vec!["earlier".to_owned()]);
}
