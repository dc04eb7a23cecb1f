//! A request not sent on to another origin (a redirect the browser did not follow, or an
//! address outside the configured origins): the server did not take it, so the session says
//! so in its own words at once, keeps what the person wrote and asks nothing more.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use agent_chat_ui::core::{
    CardState, Catalog, ChatError, Command, ErrorContext, Input, Method, Resolution, SessionConfig,
    Shown, TransportError,
};
use common::{frame, Harness, CONV, EMPTY_LIST};

const APPROVAL: &str =
    r#"{"id":"act_1","type":"tool_approval","toolName":"send_email","args":{"to":"a@b.co"}}"#;

#[test]
fn issue_38_a_send_not_sent_elsewhere_keeps_the_draft_and_looks_no_further() {
    let mut h = Harness::started_with_agent(SessionConfig::default());
    h.cmd(Command::Send("my secret plan".into()));
    h.answer(Method::Post, "/conversations", 201, CONV);
    let id = h.streams[0].id;
    let before = h.requests.len() + h.streams.len();
    h.feed(Input::Response {
        id,
        result: Err(TransportError::OtherOrigin),
    });
    assert_eq!(
        h.s.error(),
        Some(&ChatError::OtherOrigin {
            context: ErrorContext::Send
        })
    );
    assert_eq!(h.drafts(), vec!["my secret plan".to_owned()]);
    assert!(h.s.messages().is_empty());
    // Unlike a network failure, nothing is asked to find out whether the server took it.
    assert_eq!(h.requests.len() + h.streams.len(), before);
}

#[test]
fn issue_38_an_answer_not_sent_elsewhere_puts_the_card_back_with_the_error() {
    let mut h = Harness::new(SessionConfig::default());
    h.cmd(Command::Start);
    h.answer(
        Method::Get,
        "/agents",
        200,
        r#"{"agents":[{"id":"ops","name":"Ops"}]}"#,
    );
    h.answer(Method::Get, "/conversations?", 200, EMPTY_LIST);
    h.cmd(Command::Send("email Bob".into()));
    h.answer(Method::Post, "/conversations", 201, CONV);
    h.chunk(
        0,
        &frame(&format!(
            r#"{{"type":"stream.done","timestamp":3,"conversationId":"conv_1","messageId":"msg_a1","content":"Approve?","status":"requires_action","pendingActions":[{APPROVAL}]}}"#
        )),
    );
    h.close(0, None);
    let card = |h: &Harness| {
        h.s.cards()
            .iter()
            .find(|c| c.action.id == "act_1")
            .expect("card")
            .clone()
    };
    h.cmd(Command::Resolve {
        shown: Shown::of(&card(&h).action),
        resolution: Resolution::allow(),
    });
    let id = h.streams[1].id;
    let before = h.requests.len() + h.streams.len();
    h.feed(Input::Response {
        id,
        result: Err(TransportError::OtherOrigin),
    });
    assert_eq!(card(&h).state, CardState::Waiting);
    assert!(matches!(h.s.error(), Some(ChatError::OtherOrigin { .. })));
    assert_eq!(h.requests.len() + h.streams.len(), before);
}

#[test]
fn issue_38_the_other_origin_error_reads_in_every_language() {
    let error = ChatError::OtherOrigin {
        context: ErrorContext::Send,
    };
    let mut seen = Vec::new();
    for lang in ["en", "tr", "ar"] {
        let text = error.describe(&Catalog::new(lang));
        assert!(
            !text.is_empty() && !text.contains("chat-error"),
            "{lang}: {text}"
        );
        seen.push(text);
    }
    seen.dedup();
    assert_eq!(seen.len(), 3, "each language its own words: {seen:?}");
    assert_eq!(
        ChatError::from_transport(ErrorContext::Send, &TransportError::OtherOrigin),
        error
    );
}
