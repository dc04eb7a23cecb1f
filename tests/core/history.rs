//! History commands in the sans-IO core: rename (E6) and delete (E7), optimistic with rollback.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use agent_chat_ui::core::{
    Catalog, ChatError, Command, ErrorContext, Input, Method, SessionConfig, SessionEvent,
    TransportError,
};
use common::{frame, Harness, AGENTS, CONV};

const LIST: &str = r#"{"conversations":[
  {"id":"c1","agentId":"echo","title":"Trip to Rome"},
  {"id":"c2","agentId":"echo"},
  {"id":"c3","agentId":"echo","title":"Budget"}],
  "total":3,"limit":20,"offset":0,"hasMore":false}"#;

fn listed() -> Harness {
    let mut h = Harness::new(SessionConfig::default());
    h.cmd(Command::Start);
    h.answer(Method::Get, "/agents", 200, AGENTS);
    h.answer(Method::Get, "/conversations?", 200, LIST);
    h
}

fn titles(h: &Harness) -> Vec<(String, Option<String>)> {
    h.s.history()
        .iter()
        .map(|c| (c.id.clone(), c.title.clone()))
        .collect()
}

fn ids(h: &Harness) -> Vec<String> {
    h.s.history().iter().map(|c| c.id.clone()).collect()
}

fn rename(h: &mut Harness, id: &str, title: &str) {
    h.cmd(Command::RenameConversation {
        id: id.into(),
        title: title.into(),
    });
}

/// A session with `conv_1` open (created by a first message) and listed.
fn with_open_conversation() -> Harness {
    let mut h = Harness::new(SessionConfig::default());
    h.cmd(Command::Start);
    h.answer(Method::Get, "/agents", 200, AGENTS);
    h.answer(Method::Get, "/conversations?", 200, common::EMPTY_LIST);
    h.cmd(Command::Send("hello".into()));
    h.answer(Method::Post, "/conversations", 201, CONV);
    h.chunk(0, &frame(r#"{"type":"stream.done","timestamp":4,"conversationId":"conv_1","messageId":"msg_a","content":"hi"}"#));
    h.answer(
        Method::Get,
        "/conversations?",
        200,
        r#"{"conversations":[{"id":"conv_1","agentId":"echo","title":"hello"},{"id":"c9","agentId":"echo"}],"total":2,"limit":20,"offset":0,"hasMore":false}"#,
    );
    assert_eq!(h.s.conversation().map(|c| c.id.as_str()), Some("conv_1"));
    h
}

// ----- rename ------------------------------------------------------------------------------

#[test]
fn rename_sends_a_patch_with_the_trimmed_title_and_shows_it_at_once() {
    let mut h = listed();
    let before = h.s.revisions().history;
    rename(&mut h, "c2", "  Packing list \n");
    assert_eq!(h.requests.len(), 1);
    let req = &h.requests[0];
    assert_eq!(req.method, Method::Patch);
    assert_eq!(req.path, "/conversations/c2");
    let body: serde_json::Value = serde_json::from_str(req.body.as_deref().unwrap()).unwrap();
    assert_eq!(body, serde_json::json!({ "title": "Packing list" }));
    assert_eq!(
        titles(&h)[1],
        ("c2".into(), Some("Packing list".into())),
        "optimistic title before the server answers"
    );
    assert!(
        h.s.revisions().history > before,
        "the history slice is republished"
    );
}

#[test]
fn rename_ids_are_percent_encoded_in_the_path() {
    let mut h = listed();
    rename(&mut h, "a/b c", "x");
    assert_eq!(h.requests[0].path, "/conversations/a%2Fb%20c");
}

#[test]
fn rename_accepts_the_bare_conversation_of_the_reference_server() {
    let mut h = listed();
    rename(&mut h, "c1", "Rome");
    h.answer(
        Method::Patch,
        "/conversations/c1",
        200,
        r#"{"id":"c1","agentId":"echo","title":"Rome"}"#,
    );
    assert_eq!(titles(&h)[0].1.as_deref(), Some("Rome"));
    assert!(h.s.error().is_none());
}

#[test]
fn rename_accepts_a_wrapped_conversation_and_keeps_the_title_the_server_stored() {
    let mut h = listed();
    rename(&mut h, "c1", "rome");
    h.answer(
        Method::Patch,
        "/conversations/c1",
        200,
        r#"{"conversation":{"id":"c1","agentId":"echo","title":"Rome (normalized)"}}"#,
    );
    assert_eq!(titles(&h)[0].1.as_deref(), Some("Rome (normalized)"));
    assert!(h.s.error().is_none());
}

#[test]
fn rename_with_an_unreadable_success_body_keeps_the_new_title() {
    let mut h = listed();
    rename(&mut h, "c3", "Money");
    h.answer(Method::Patch, "/conversations/c3", 200, r#"{"ok":true}"#);
    assert_eq!(titles(&h)[2].1.as_deref(), Some("Money"));
    assert!(h.s.error().is_none());
}

#[test]
fn a_refused_rename_puts_the_old_title_back_and_says_so() {
    let mut h = listed();
    rename(&mut h, "c1", "Rome");
    h.answer(
        Method::Patch,
        "/conversations/c1",
        403,
        r#"{"error":{"code":"FORBIDDEN","message":"Not yours"}}"#,
    );
    assert_eq!(titles(&h)[0].1.as_deref(), Some("Trip to Rome"));
    let err = h.s.error().expect("the failure is shown");
    assert!(matches!(
        err,
        ChatError::Api {
            context: ErrorContext::Rename,
            ..
        }
    ));
    assert_eq!(
        err.describe(&Catalog::new("en")),
        "Failed to rename conversation"
    );
    assert_eq!(
        err.describe(&Catalog::new("tr")),
        "Sohbet yeniden adlandırılamadı"
    );
    assert!(h
        .events
        .iter()
        .any(|e| matches!(e, SessionEvent::Error(ChatError::Api { .. }))));
}

#[test]
fn a_rename_lost_on_the_network_rolls_back_an_untitled_row_to_untitled() {
    let mut h = listed();
    rename(&mut h, "c2", "Groceries");
    let req = h.requests.remove(0);
    h.feed(Input::Response {
        id: req.id,
        result: Err(TransportError::Network("offline".into())),
    });
    assert_eq!(titles(&h)[1], ("c2".into(), None));
    assert_eq!(
        h.s.error().unwrap().describe(&Catalog::new("en")),
        "Failed to rename conversation"
    );
}

#[test]
fn an_empty_or_blank_title_is_rejected_without_a_request() {
    let mut h = listed();
    rename(&mut h, "c1", "");
    rename(&mut h, "c1", "   \n\t");
    assert!(h.requests.is_empty());
    assert_eq!(titles(&h)[0].1.as_deref(), Some("Trip to Rome"));
}

#[test]
fn an_unchanged_title_sends_nothing() {
    let mut h = listed();
    rename(&mut h, "c1", " Trip to Rome ");
    assert!(h.requests.is_empty());
}

#[test]
fn renaming_the_open_conversation_renames_its_header_too() {
    let mut h = with_open_conversation();
    let status_before = h.s.revisions().status;
    rename(&mut h, "conv_1", "Greetings");
    assert_eq!(
        h.s.conversation().and_then(|c| c.title.as_deref()),
        Some("Greetings")
    );
    assert!(h.s.revisions().status > status_before);
    assert_eq!(titles(&h)[0].1.as_deref(), Some("Greetings"));
    h.answer(
        Method::Patch,
        "/conversations/conv_1",
        500,
        r#"{"error":{"code":"INTERNAL","message":"boom"}}"#,
    );
    assert_eq!(
        h.s.conversation().and_then(|c| c.title.as_deref()),
        Some("hello"),
        "rolled back in the header as well"
    );
    assert_eq!(titles(&h)[0].1.as_deref(), Some("hello"));
}

#[test]
fn a_late_failure_does_not_undo_a_newer_rename() {
    let mut h = listed();
    rename(&mut h, "c1", "First");
    rename(&mut h, "c1", "Second");
    assert_eq!(h.requests.len(), 2);
    h.answer(Method::Patch, "/conversations/c1", 500, "");
    assert_eq!(titles(&h)[0].1.as_deref(), Some("Second"));
    h.answer(
        Method::Patch,
        "/conversations/c1",
        200,
        r#"{"id":"c1","agentId":"echo","title":"Second"}"#,
    );
    assert_eq!(titles(&h)[0].1.as_deref(), Some("Second"));
}

#[test]
fn a_history_refresh_during_a_rename_keeps_the_new_title() {
    let mut h = listed();
    rename(&mut h, "c1", "Rome");
    h.cmd(Command::RefreshHistory);
    h.answer(Method::Get, "/conversations?", 200, LIST);
    assert_eq!(titles(&h)[0].1.as_deref(), Some("Rome"));
}

// ----- delete ------------------------------------------------------------------------------

#[test]
fn delete_sends_delete_and_removes_the_row_at_once() {
    let mut h = listed();
    h.cmd(Command::DeleteConversation("c2".into()));
    assert_eq!(h.requests.len(), 1);
    assert_eq!(h.requests[0].method, Method::Delete);
    assert_eq!(h.requests[0].path, "/conversations/c2");
    assert_eq!(h.requests[0].body, None, "no body on DELETE");
    assert_eq!(ids(&h), ["c1", "c3"]);
}

#[test]
fn delete_answered_with_204_and_an_empty_body_succeeds() {
    let mut h = listed();
    h.cmd(Command::DeleteConversation("c2".into()));
    h.answer(Method::Delete, "/conversations/c2", 204, "");
    assert_eq!(ids(&h), ["c1", "c3"]);
    assert!(h.s.error().is_none());
}

#[test]
fn delete_answered_with_200_success_true_succeeds() {
    let mut h = listed();
    h.cmd(Command::DeleteConversation("c2".into()));
    h.answer(
        Method::Delete,
        "/conversations/c2",
        200,
        r#"{"success":true}"#,
    );
    assert_eq!(ids(&h), ["c1", "c3"]);
    assert!(h.s.error().is_none());
}

#[test]
fn a_refused_delete_puts_the_row_back_where_it_was_and_says_so() {
    let mut h = listed();
    h.cmd(Command::DeleteConversation("c2".into()));
    h.answer(
        Method::Delete,
        "/conversations/c2",
        404,
        r#"{"error":{"code":"NOT_FOUND","message":"Conversation not found"}}"#,
    );
    assert_eq!(ids(&h), ["c1", "c2", "c3"]);
    let err = h.s.error().expect("the failure is shown");
    assert_eq!(
        err.describe(&Catalog::new("en")),
        "Failed to delete conversation"
    );
    assert_eq!(err.describe(&Catalog::new("tr")), "Sohbet silinemedi");
}

#[test]
fn a_delete_lost_on_the_network_puts_the_row_back() {
    let mut h = listed();
    h.cmd(Command::DeleteConversation("c3".into()));
    let req = h.requests.remove(0);
    h.feed(Input::Response {
        id: req.id,
        result: Err(TransportError::Network("offline".into())),
    });
    assert_eq!(ids(&h), ["c1", "c2", "c3"]);
    assert_eq!(
        h.s.error().unwrap().describe(&Catalog::new("en")),
        "Failed to delete conversation"
    );
}

#[test]
fn a_second_click_on_delete_sends_one_request() {
    let mut h = listed();
    h.cmd(Command::DeleteConversation("c1".into()));
    h.cmd(Command::DeleteConversation("c1".into()));
    assert_eq!(h.requests.len(), 1);
}

#[test]
fn a_history_page_arriving_during_a_delete_does_not_bring_the_row_back() {
    let mut h = listed();
    h.cmd(Command::DeleteConversation("c1".into()));
    h.cmd(Command::RefreshHistory);
    h.answer(Method::Get, "/conversations?", 200, LIST);
    assert_eq!(ids(&h), ["c2", "c3"]);
    h.answer(Method::Delete, "/conversations/c1", 204, "");
    assert_eq!(ids(&h), ["c2", "c3"]);
}

#[test]
fn deleting_the_open_conversation_clears_the_chat_once_the_server_agrees() {
    let mut h = with_open_conversation();
    h.cmd(Command::DeleteConversation("conv_1".into()));
    assert_eq!(ids(&h), ["c9"]);
    assert!(
        h.s.conversation().is_some(),
        "still open until the server agrees"
    );
    h.answer(Method::Delete, "/conversations/conv_1", 204, "");
    assert!(h.s.conversation().is_none());
    assert!(h.s.messages().is_empty());
    assert_eq!(
        h.events.last(),
        Some(&SessionEvent::ConversationChanged(None))
    );
}

#[test]
fn a_refused_delete_of_the_open_conversation_keeps_it_open() {
    let mut h = with_open_conversation();
    h.cmd(Command::DeleteConversation("conv_1".into()));
    h.answer(Method::Delete, "/conversations/conv_1", 500, "");
    assert_eq!(ids(&h), ["conv_1", "c9"]);
    assert_eq!(h.s.conversation().map(|c| c.id.as_str()), Some("conv_1"));
    assert_eq!(h.s.messages().len(), 2);
}

#[test]
fn deleting_another_conversation_leaves_the_open_one_alone() {
    let mut h = with_open_conversation();
    h.cmd(Command::DeleteConversation("c9".into()));
    h.answer(Method::Delete, "/conversations/c9", 204, "");
    assert_eq!(ids(&h), ["conv_1"]);
    assert_eq!(h.s.conversation().map(|c| c.id.as_str()), Some("conv_1"));
    assert!(!h.events.contains(&SessionEvent::ConversationChanged(None)));
}
