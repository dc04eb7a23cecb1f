//! A running chat follows its switches and limits (issue 17): `Command::SetOptions` changes
//! what a host may flip at any time without starting the session over. Cards already drawn
//! become answerable or read-only at once, the next message is sent as `streaming` says now,
//! the composer mode and the upload limits apply from then on, and switching the history on
//! loads it. A reply that is streaming keeps streaming.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use agent_chat_ui::core::{
    ChatError, Command, ComposerMode, ComposerState, FileMeta, Method, Resolution, ResolveRefusal,
    SessionConfig, SessionEvent, SessionOptions, Shown,
};
use common::{frame, Harness, AGENTS, CONV, EMPTY_LIST};

const APPROVAL: &str =
    r#"{"id":"act_1","type":"tool_approval","toolName":"send_email","args":{"to":"a@b.co"}}"#;

/// A chat paused on [`APPROVAL`] in `conv_1`.
fn paused(config: SessionConfig) -> Harness {
    let mut h = Harness::new(config);
    h.cmd(Command::Start);
    h.answer(Method::Get, "/agents", 200, AGENTS);
    if h.requests
        .iter()
        .any(|r| r.path.starts_with("/conversations?"))
    {
        h.answer(Method::Get, "/conversations?", 200, EMPTY_LIST);
    }
    h.cmd(Command::Send("please do it".into()));
    h.answer(Method::Post, "/conversations", 201, CONV);
    h.chunk(0, &frame(r#"{"type":"stream.start","timestamp":1,"conversationId":"conv_1","messageId":"msg_u"}"#));
    h.chunk(0, &frame(&format!(r#"{{"type":"stream.action_required","timestamp":2,"conversationId":"conv_1","action":{APPROVAL}}}"#)));
    h.chunk(0, &frame(&format!(r#"{{"type":"stream.done","timestamp":3,"conversationId":"conv_1","messageId":"msg_a1","content":"I need approval first.","status":"requires_action","pendingActions":[{APPROVAL}]}}"#)));
    h.close(0, None);
    h
}

fn shown(h: &Harness) -> Shown {
    Shown::of(&h.s.cards()[0].action)
}

fn answers_posted(h: &Harness) -> usize {
    h.streams
        .iter()
        .chain(&h.requests)
        .filter(|r| r.path.contains("/actions/"))
        .count()
}

fn refusals(h: &Harness) -> Vec<ResolveRefusal> {
    h.events
        .iter()
        .filter_map(|e| match e {
            SessionEvent::ResolveRefused { reason, .. } => Some(reason.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn i17_approvals_switched_on_make_a_drawn_card_answerable() {
    let mut h = paused(SessionConfig {
        enable_tool_approvals: false,
        ..SessionConfig::default()
    });
    let card = h.s.cards()[0].clone();
    assert!(!h.s.can_resolve(&card), "read-only while approvals are off");
    let before = h.s.revisions();
    h.cmd(Command::SetOptions(SessionOptions {
        enable_tool_approvals: true,
        ..h.s.options()
    }));
    assert!(
        h.s.revisions().actions > before.actions,
        "the cards are republished"
    );
    let card = h.s.cards()[0].clone();
    assert!(h.s.can_resolve(&card), "answerable now (F175)");
    h.cmd(Command::Resolve {
        shown: shown(&h),
        resolution: Resolution::allow(),
    });
    assert_eq!(answers_posted(&h), 1, "the answer went out");
}

#[test]
fn i17_approvals_switched_off_make_the_gate_refuse_an_answer() {
    let mut h = paused(SessionConfig::default());
    h.cmd(Command::SetOptions(SessionOptions {
        enable_tool_approvals: false,
        ..h.s.options()
    }));
    h.cmd(Command::Resolve {
        shown: shown(&h),
        resolution: Resolution::allow(),
    });
    assert_eq!(answers_posted(&h), 0);
    assert_eq!(refusals(&h), vec![ResolveRefusal::ReadOnly]);
}

#[test]
fn i17_the_composer_mode_follows_the_option() {
    let mut h = paused(SessionConfig::default());
    assert!(
        h.s.composer_state().is_blocked(),
        "block mode closes the composer"
    );
    assert!(!h.s.can_send());
    h.cmd(Command::SetOptions(SessionOptions {
        composer_mode: ComposerMode::Cancel,
        ..h.s.options()
    }));
    assert_eq!(h.s.composer_mode(), ComposerMode::Cancel);
    assert_eq!(h.s.composer_state(), ComposerState::Cancel);
    assert!(h.s.can_send(), "a message may cancel the action now (F179)");
}

#[test]
fn i17_streaming_switched_off_sends_the_next_message_as_one_reply() {
    let mut h = Harness::started_with_agent(SessionConfig::default());
    let before = h.s.revisions();
    h.cmd(Command::SetOptions(SessionOptions {
        streaming: false,
        ..h.s.options()
    }));
    assert!(h.s.revisions().status > before.status);
    h.cmd(Command::Send("hello".into()));
    h.answer(Method::Post, "/conversations", 201, CONV);
    assert!(h.streams.is_empty(), "no stream was opened (F5)");
    let send = h
        .requests
        .iter()
        .find(|r| r.path.ends_with("/messages"))
        .expect("the message was sent");
    let body: serde_json::Value = serde_json::from_str(send.body.as_deref().unwrap()).unwrap();
    assert_eq!(body["stream"], serde_json::json!(false));
}

#[test]
fn i17_uploads_switched_off_refuse_the_next_file_and_keep_the_attached_one() {
    let mut h = Harness::started_with_agent(SessionConfig::default());
    let file = |name: &str| FileMeta {
        name: name.into(),
        mime_type: "text/plain".into(),
        size: 10,
    };
    h.cmd(Command::AddFiles(vec![file("a.txt")]));
    assert_eq!(h.s.pending_files().len(), 1);
    let mut opts = h.s.options();
    opts.uploads.enabled = false;
    h.cmd(Command::SetOptions(opts));
    assert!(!h.s.upload_limits().enabled);
    h.cmd(Command::AddFiles(vec![file("b.txt")]));
    assert_eq!(h.s.pending_files().len(), 1, "what was attached stays");
    assert!(
        h.events
            .iter()
            .any(|e| matches!(e, SessionEvent::Error(ChatError::Files(_)))),
        "the refused file is reported: {:?}",
        h.events
    );
}

#[test]
fn i17_history_switched_on_is_loaded_once() {
    let mut h = Harness::new(SessionConfig {
        show_history: false,
        ..SessionConfig::default()
    });
    h.cmd(Command::Start);
    h.answer(Method::Get, "/agents", 200, AGENTS);
    let lists = |h: &Harness| {
        h.requests
            .iter()
            .filter(|r| r.path.starts_with("/conversations?"))
            .count()
    };
    assert_eq!(lists(&h), 0, "no history while it is off (F22)");
    h.cmd(Command::SetOptions(SessionOptions {
        show_history: true,
        ..h.s.options()
    }));
    assert_eq!(lists(&h), 1, "switched on: the history is asked for");
    // The same options again change nothing and ask for nothing.
    let before = h.s.revisions();
    h.cmd(Command::SetOptions(SessionOptions {
        show_history: true,
        ..h.s.options()
    }));
    assert_eq!(lists(&h), 1);
    assert_eq!(h.s.revisions(), before, "an unchanged option is no change");
}

#[test]
fn i17_a_streaming_reply_keeps_streaming_through_an_option_change() {
    let mut h = Harness::started_with_agent(SessionConfig::default());
    h.cmd(Command::Send("hello".into()));
    h.answer(Method::Post, "/conversations", 201, CONV);
    h.chunk(0, &frame(r#"{"type":"stream.start","timestamp":1,"conversationId":"conv_1","messageId":"msg_u"}"#));
    h.chunk(
        0,
        &frame(r#"{"type":"stream.text","timestamp":2,"text":"Hel"}"#),
    );
    h.cmd(Command::SetOptions(SessionOptions {
        streaming: false,
        enable_questions: false,
        ..h.s.options()
    }));
    assert!(h.aborted.is_empty(), "nothing was aborted");
    h.chunk(
        0,
        &frame(r#"{"type":"stream.text","timestamp":3,"text":"lo"}"#),
    );
    h.chunk(0, &frame(r#"{"type":"stream.done","timestamp":4,"conversationId":"conv_1","messageId":"msg_a1","content":"Hello"}"#));
    h.close(0, None);
    assert_eq!(
        h.s.messages()
            .last()
            .map(|m| m.content.display_text().into_owned())
            .as_deref(),
        Some("Hello")
    );
}
