//! Every answer passes the core's gate (issue 13), whoever sends it: the built-in cards, the
//! `render_*` slots, `ChatStore::resolve_action`, the custom element. Session-level rules:
//! a request that changed under the same id, late answers, invalid arguments, read-only
//! cards, a second answer while one is on its way, and what the composer and focus do.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use agent_chat_ui::core::{
    CardState, ChatError, Command, ComposerMode, ComposerState, Decision, HttpResponse, Input,
    Method, Millis, Outcome, PendingAction, Resolution, ResolveRefusal, SessionConfig,
    SessionEvent, Shown,
};
use common::{frame, Harness, CONV, EMPTY_LIST};
use serde_json::{json, Value};

const APPROVAL: &str = r#"{"id":"act_1","type":"tool_approval","toolName":"send_email","version":1,"args":{"to":"a@b.co"},"argsSchema":{"type":"object","properties":{"to":{"type":"string","minLength":3}},"required":["to"]}}"#;
const CHANGED: &str = r#"{"id":"act_1","type":"tool_approval","toolName":"send_email","version":2,"args":{"to":"evil@x.co"},"argsSchema":{"type":"object","properties":{"to":{"type":"string","minLength":3}},"required":["to"]}}"#;

/// A chat that has sent "please do it" in a new conversation; its reply is stream 0.
fn sent_with(config: SessionConfig) -> Harness {
    let mut h = Harness::new(config);
    h.cmd(Command::Start);
    h.answer(
        Method::Get,
        "/agents",
        200,
        r#"{"agents":[{"id":"ops","name":"Ops"}]}"#,
    );
    if h.requests
        .iter()
        .any(|r| r.path.starts_with("/conversations?"))
    {
        h.answer(Method::Get, "/conversations?", 200, EMPTY_LIST);
    }
    h.cmd(Command::Send("please do it".into()));
    h.answer(Method::Post, "/conversations", 201, CONV);
    h
}

fn paused_with(config: SessionConfig, action: &str) -> Harness {
    let mut h = sent_with(config);
    h.chunk(0, &frame(r#"{"type":"stream.start","timestamp":1,"conversationId":"conv_1","messageId":"msg_u"}"#));
    h.chunk(0, &frame(&format!(r#"{{"type":"stream.action_required","timestamp":2,"conversationId":"conv_1","action":{action}}}"#)));
    h.chunk(0, &frame(&format!(r#"{{"type":"stream.done","timestamp":3,"conversationId":"conv_1","messageId":"msg_a1","content":"I need approval first.","status":"requires_action","pendingActions":[{action}]}}"#)));
    h.close(0, None);
    h
}

fn paused(action: &str) -> Harness {
    paused_with(SessionConfig::default(), action)
}

fn action(json: &str) -> PendingAction {
    PendingAction::from_json(&serde_json::from_str::<Value>(json).unwrap()).unwrap()
}

fn shown(json: &str) -> Shown {
    Shown::of(&action(json))
}

fn resolve(h: &mut Harness, shown: Shown, resolution: Resolution) {
    h.cmd(Command::Resolve { shown, resolution });
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

fn card_state(h: &Harness) -> CardState {
    h.s.cards()
        .iter()
        .find(|c| c.action.id == "act_1")
        .unwrap()
        .state
        .clone()
}

/// The conversation loaded again with `act_1` open as `action`.
fn refetch_with(h: &mut Harness, action: &str) {
    h.cmd(Command::OpenConversation("conv_1".into()));
    let body = format!(
        r#"{{"conversation":{{"id":"conv_1","agentId":"ops"}},"messages":[{{"id":"msg_u","role":"user","content":"please do it"}},{{"id":"msg_a1","role":"assistant","content":"I need approval first."}}],"pendingActions":[{action}]}}"#
    );
    h.answer(Method::Get, "/conversations/conv_1", 200, &body);
}

#[test]
fn i13_a_request_changed_on_reopening_refuses_the_answer_to_what_was_shown_before() {
    let mut h = paused(APPROVAL);
    refetch_with(&mut h, CHANGED);
    let card = h.s.cards().iter().find(|c| c.action.id == "act_1").unwrap();
    assert_eq!(
        card.action.version,
        Some(2),
        "the reopened conversation's request"
    );
    resolve(&mut h, shown(APPROVAL), Resolution::allow());
    assert_eq!(
        answers_posted(&h),
        0,
        "the old request's approval is never posted"
    );
    assert_eq!(refusals(&h), [ResolveRefusal::Changed]);
    assert!(matches!(
        h.s.error(),
        Some(ChatError::Refused(ResolveRefusal::Changed))
    ));
    assert_eq!(
        card_state(&h),
        CardState::Waiting,
        "the card waits for a fresh look"
    );

    resolve(&mut h, shown(CHANGED), Resolution::allow());
    let post = h
        .streams
        .iter()
        .find(|r| r.path.contains("/actions/"))
        .expect("posted");
    let body: Value = serde_json::from_str(post.body.as_deref().unwrap()).unwrap();
    assert_eq!(body["version"], json!(2));
}

#[test]
fn i13_the_same_request_again_is_not_a_change() {
    let mut h = paused(APPROVAL);
    let reordered = APPROVAL.replace(
        r#""version":1,"args":{"to":"a@b.co"}"#,
        r#""args":{"to":"a@b.co"},"version":1"#,
    );
    refetch_with(&mut h, &reordered);
    let card = h.s.cards().iter().find(|c| c.action.id == "act_1").unwrap();
    assert_eq!(card.revision, 0);
    assert!(!h
        .events
        .iter()
        .any(|e| matches!(e, SessionEvent::ActionChanged(_))));
    resolve(&mut h, shown(APPROVAL), Resolution::allow());
    assert_eq!(answers_posted(&h), 1);
}

#[test]
fn i13_a_request_changed_by_a_stream_event_is_redrawn() {
    let mut h = sent_with(SessionConfig::default());
    for a in [APPROVAL, CHANGED] {
        h.chunk(0, &frame(&format!(r#"{{"type":"stream.action_required","timestamp":2,"conversationId":"conv_1","action":{a}}}"#)));
    }
    let card = h.s.cards().iter().find(|c| c.action.id == "act_1").unwrap();
    assert_eq!(card.revision, 1);
    assert_eq!(card.action.version, Some(2));
    let changed = h
        .events
        .iter()
        .filter(|e| matches!(e, SessionEvent::ActionChanged(_)))
        .count();
    assert_eq!(changed, 1);
    let required = h
        .events
        .iter()
        .filter(|e| matches!(e, SessionEvent::ActionRequired(_)))
        .count();
    assert_eq!(required, 1, "one card, announced once as new");
}

#[test]
fn i13_after_action_version_conflict_the_refetched_request_must_be_looked_at_again() {
    let mut h = paused(APPROVAL);
    resolve(&mut h, shown(APPROVAL), Resolution::allow());
    let id = h.streams[1].id;
    h.feed(Input::Response {
        id,
        result: Ok(HttpResponse {
            status: 409,
            body: r#"{"error":{"code":"action_version_conflict","message":"changed"}}"#.into(),
            date: None,
            retry_after: None,
        }),
    });
    assert_eq!(card_state(&h), CardState::Waiting);
    let body = r#"{"conversation":{"id":"conv_1","agentId":"ops"},"messages":[{"id":"msg_u","role":"user","content":"please do it"},{"id":"msg_a1","role":"assistant","content":"I need approval first."}],"pendingActions":[CHANGED]}"#.replace("CHANGED", CHANGED);
    h.answer(Method::Get, "/conversations/conv_1", 200, &body);
    let card = h.s.cards().iter().find(|c| c.action.id == "act_1").unwrap();
    assert_eq!(card.revision, 1);
    // Approve again from the card as it was: the version check must not be defeated.
    resolve(&mut h, shown(APPROVAL), Resolution::allow());
    assert!(
        h.events
            .iter()
            .any(|e| matches!(e, SessionEvent::ActionChanged(a) if a.version == Some(2))),
        "the page is told the request changed (drawn afresh, announced)"
    );
    assert_eq!(
        answers_posted(&h),
        1,
        "only the first, refused, attempt was posted"
    );
    assert_eq!(refusals(&h), [ResolveRefusal::Changed]);
    resolve(&mut h, shown(CHANGED), Resolution::allow());
    assert_eq!(
        answers_posted(&h),
        2,
        "the request on screen now can be approved"
    );
    let last = h
        .streams
        .iter()
        .rev()
        .find(|r| r.path.contains("/actions/"))
        .unwrap();
    let body: Value = serde_json::from_str(last.body.as_deref().unwrap()).unwrap();
    assert_eq!(body["version"], json!(2));
}

#[test]
fn i13_an_answer_past_the_deadline_is_refused_before_the_timer_fires() {
    let expiring = APPROVAL.replace(r#""version":1"#, r#""version":1,"expiresAt":5000"#);
    let mut h = paused(&expiring);
    h.now = 5_000; // the deadline, and no Timeout fed yet
    resolve(&mut h, shown(&expiring), Resolution::allow());
    assert_eq!(answers_posted(&h), 0);
    assert_eq!(refusals(&h), [ResolveRefusal::Expired]);
    assert_eq!(
        card_state(&h),
        CardState::Settled(Outcome::Expired),
        "it reads Expired at once"
    );
    assert_eq!(
        h.s.composer_state(),
        ComposerState::Normal,
        "the composer is free"
    );
    assert!(h
        .events
        .iter()
        .any(|e| matches!(e, SessionEvent::CardsSettled)));
}

#[test]
fn i13_approved_args_that_break_the_schema_or_are_no_object_are_refused() {
    let mut h = paused(APPROVAL);
    let allow = |args: Value| Resolution::ToolApproval {
        decision: Decision::Allow,
        approved_args: Some(args),
        remember_for_session: false,
        comment: None,
    };
    resolve(&mut h, shown(APPROVAL), allow(json!({"to": "x"})));
    resolve(&mut h, shown(APPROVAL), allow(json!("rm -rf /")));
    assert_eq!(answers_posted(&h), 0);
    let r = refusals(&h);
    assert!(matches!(r[0], ResolveRefusal::BreaksSchema(_)), "{r:?}");
    assert_eq!(r[1], ResolveRefusal::NotAnObject);
    assert_eq!(card_state(&h), CardState::Waiting);
}

#[test]
fn i13_a_second_answer_while_the_first_is_on_its_way_is_refused() {
    let mut h = paused(APPROVAL);
    resolve(&mut h, shown(APPROVAL), Resolution::allow());
    resolve(&mut h, shown(APPROVAL), Resolution::deny(None));
    assert_eq!(answers_posted(&h), 1);
    assert_eq!(refusals(&h), [ResolveRefusal::InFlight]);
    // Issue 38: the second click is told why nothing more was sent.
    assert_eq!(
        h.s.error(),
        Some(&agent_chat_ui::core::ChatError::Refused(
            ResolveRefusal::InFlight
        ))
    );
}

#[test]
fn i13_a_read_only_card_cannot_be_answered_and_the_composer_says_elsewhere() {
    let config = SessionConfig {
        enable_tool_approvals: false,
        ..SessionConfig::default()
    };
    let mut h = paused_with(config, APPROVAL);
    assert_eq!(h.s.composer_state(), ComposerState::WaitingElsewhere);
    assert_eq!(h.s.composer_state().as_str(), "blocked");
    assert!(!h.s.can_send());
    resolve(&mut h, shown(APPROVAL), Resolution::allow());
    assert_eq!(answers_posted(&h), 0);
    assert_eq!(refusals(&h), [ResolveRefusal::ReadOnly]);
    let cancel = SessionConfig {
        enable_tool_approvals: false,
        composer_mode: ComposerMode::Cancel,
        ..SessionConfig::default()
    };
    assert_eq!(
        paused_with(cancel, APPROVAL).s.composer_state(),
        ComposerState::Cancel
    );
}

#[test]
fn i13_the_last_card_settling_in_any_way_reports_cards_settled() {
    // Answered.
    let mut h = paused(APPROVAL);
    resolve(&mut h, shown(APPROVAL), Resolution::allow());
    let n = h
        .events
        .iter()
        .filter(|e| matches!(e, SessionEvent::CardsSettled))
        .count();
    assert_eq!(n, 0, "still sending");
    h.chunk(1, &frame(r#"{"type":"stream.action_resolved","timestamp":5,"conversationId":"conv_1","actionId":"act_1","status":"resolved","resolution":{"decision":"allow"}}"#));
    h.chunk(1, &frame(r#"{"type":"stream.done","timestamp":6,"conversationId":"conv_1","messageId":"msg_a2","content":"Sent."}"#));
    h.close(1, None);
    assert!(h
        .events
        .iter()
        .any(|e| matches!(e, SessionEvent::CardsSettled)));
    // Expired by the timer.
    let expiring = APPROVAL.replace(r#""version":1"#, r#""version":1,"expiresAt":5000"#);
    let mut h = paused(&expiring);
    h.now = 6_000;
    h.feed(Input::Timeout);
    assert!(h
        .events
        .iter()
        .any(|e| matches!(e, SessionEvent::CardsSettled)));
    // Answered elsewhere (a refetch without it).
    let mut h = paused(APPROVAL);
    refetch_with(&mut h, "");
    assert!(h
        .events
        .iter()
        .any(|e| matches!(e, SessionEvent::CardsSettled)));
    let _ = Millis(0);
}
