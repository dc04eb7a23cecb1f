//! Issue 14 in the Session (seed 004, PROTOCOL §11.2): "Approved" is not "done" (execution
//! stages), Checking status when the outcome of an answer is unknown, decision keys reused by
//! every retry (also across a reload), a new version after an edit, and the receipt.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use agent_chat_ui::core::{
    ActionCard, CardStage, ChatError, Command, DecidedBy, DecisionKey, Input, Method, Receipt,
    Resolution, ResolveRefusal, SessionConfig, SessionEvent, Shown, TransportError,
};
use common::{frame, Harness, CONV, EMPTY_LIST};
use serde_json::{json, Value};

const AGENTS: &str = r#"{"agents":[{"id":"ops","name":"Ops"}]}"#;
const APPROVAL: &str = r#"{"id":"act_1","type":"tool_approval","toolName":"send_email","args":{"to":"a@b.co","subject":"Hi"},"version":1,"executionStatus":"pending_approval"}"#;
const PLAIN: &str =
    r#"{"id":"act_1","type":"tool_approval","toolName":"send_email","args":{"to":"a@b.co"}}"#;

fn paused_with(config: SessionConfig, action: &str) -> Harness {
    let mut h = Harness::new(config);
    h.cmd(Command::Start);
    h.answer(Method::Get, "/agents", 200, AGENTS);
    h.answer(Method::Get, "/conversations?", 200, EMPTY_LIST);
    h.cmd(Command::Send("email alex".into()));
    h.answer(Method::Post, "/conversations", 201, CONV);
    h.chunk(0, &frame(&format!(
        r#"{{"type":"stream.done","conversationId":"conv_1","messageId":"msg_a1","content":"Approve?","status":"requires_action","pendingActions":[{action}]}}"#
    )));
    h.close(0, None);
    h
}

fn paused(action: &str) -> Harness {
    paused_with(SessionConfig::default(), action)
}

fn card<'a>(h: &'a Harness, id: &str) -> &'a ActionCard {
    h.s.cards()
        .iter()
        .find(|c| c.action.id == id)
        .expect("card exists")
}

fn stage(h: &Harness) -> CardStage {
    CardStage::of(card(h, "act_1"))
}

fn approve(h: &mut Harness, resolution: Resolution) {
    let shown = Shown::of(&card(h, "act_1").action);
    h.cmd(Command::Resolve { shown, resolution });
}

fn body_of(h: &Harness, stream: usize) -> Value {
    serde_json::from_str(h.streams[stream].body.as_deref().expect("body")).expect("json")
}

fn tick(h: &mut Harness, ms: u64) {
    h.now += ms;
    h.feed(Input::Timeout);
}

/// E5 with the action recorded on the paused message as `record`, open when `open`.
fn conversation(record: &str, open: bool) -> String {
    let pending = if open { record } else { "" };
    format!(
        r#"{{"conversation":{{"id":"conv_1","agentId":"ops"}},"messages":[
            {{"id":"msg_u","role":"user","content":"email alex"}},
            {{"id":"msg_a1","role":"assistant","content":"Approve?","metadata":{{"pendingActions":[{record}]}}}}],
            "pendingActions":[{pending}]}}"#
    )
}

fn last_keys(h: &Harness) -> Vec<DecisionKey> {
    h.events
        .iter()
        .rev()
        .find_map(|e| match e {
            SessionEvent::DecisionKeysChanged(k) => Some(k.clone()),
            _ => None,
        })
        .expect("keys were reported")
}

#[test]
fn i14_waiting_cards_say_what_they_wait_for() {
    let h = paused(APPROVAL);
    assert_eq!(stage(&h), CardStage::PendingApproval);
    assert_eq!(stage(&h).as_str(), "waiting");
    let q = paused(r#"{"id":"act_1","type":"user_question","questions":[{"question":"Env?"}]}"#);
    assert_eq!(stage(&q), CardStage::WaitingForAnswer);
    assert_eq!(
        stage(&q).fluent_id(),
        "chat-action-stage-waiting-for-answer"
    );
}

#[test]
fn i14_approve_reads_sending_executing_then_completed_with_a_receipt() {
    let mut h = paused(APPROVAL);
    approve(&mut h, Resolution::allow());
    assert_eq!(stage(&h), CardStage::Sending);
    h.chunk(1, &frame(r#"{"type":"stream.action_resolved","actionId":"act_1","status":"resolved","resolution":{"type":"tool_approval","decision":"allow"},"resolvedBy":"user:ada"}"#));
    // Allowed is not done: the server reports execution, so the card says Executing….
    assert_eq!(
        stage(&h),
        CardStage::Executing,
        "{:?} {:?}",
        card(&h, "act_1"),
        h.events
    );
    h.chunk(1, &frame(r#"{"type":"stream.action_updated","action":{"id":"act_1","type":"tool_approval","toolName":"send_email","args":{"to":"a@b.co","subject":"Hi"},"status":"resolved","version":1,"executionStatus":"executing"}}"#));
    assert_eq!(stage(&h), CardStage::Executing);
    h.chunk(1, &frame(r#"{"type":"stream.action_updated","action":{"id":"act_1","type":"tool_approval","toolName":"send_email","args":{"to":"a@b.co","subject":"Hi"},"status":"resolved","version":1,"executionStatus":"completed","executionResult":{"sent":true},"resolvedAt":"2026-12-02T10:00:00Z"}}"#));
    assert_eq!(stage(&h), CardStage::Completed);
    let receipt = Receipt::of(card(&h, "act_1")).expect("a settled card has a receipt");
    assert_eq!(receipt.by, Some(DecidedBy::You));
    assert_eq!(receipt.version, Some(1));
    assert_eq!(receipt.result, Some(json!({"sent": true})));
    assert!(receipt.at.is_some());
    assert_eq!(receipt.changed_args, None);
}

#[test]
fn i14_a_server_that_never_reports_execution_keeps_approved() {
    let mut h = paused(PLAIN);
    approve(&mut h, Resolution::allow());
    h.chunk(
        1,
        &frame(r#"{"type":"stream.action_resolved","actionId":"act_1","status":"resolved"}"#),
    );
    h.chunk(1, &frame(r#"{"type":"stream.done","conversationId":"conv_1","messageId":"msg_a2","content":"Sent."}"#));
    h.close(1, None);
    assert_eq!(stage(&h), CardStage::Approved { edited: false });
    // Nothing to wait for: no look is scheduled.
    let before = h.requests.len();
    tick(&mut h, 60_000);
    assert!(h.requests[before..]
        .iter()
        .all(|r| !r.path.starts_with("/conversations/conv_1")));
}

#[test]
fn i14_a_tool_still_executing_after_the_reply_is_looked_up_until_it_completes() {
    let mut h = paused(APPROVAL);
    approve(&mut h, Resolution::allow());
    h.chunk(
        1,
        &frame(r#"{"type":"stream.action_resolved","actionId":"act_1","status":"resolved"}"#),
    );
    h.chunk(1, &frame(r#"{"type":"stream.done","conversationId":"conv_1","messageId":"msg_a2","content":"Sending…"}"#));
    h.close(1, None);
    assert_eq!(stage(&h), CardStage::Executing);
    tick(&mut h, 1_000);
    let still = r#"{"id":"act_1","type":"tool_approval","toolName":"send_email","args":{"to":"a@b.co","subject":"Hi"},"status":"resolved","version":1,"resolution":{"decision":"allow"},"executionStatus":"executing"}"#;
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        &conversation(still, false),
    );
    assert_eq!(stage(&h), CardStage::Executing);
    // The next look comes later (backoff), then the record says it failed, with why.
    tick(&mut h, 1_000);
    assert!(!h.requests.iter().any(|r| r.path == "/conversations/conv_1"));
    tick(&mut h, 1_000);
    let failed = r#"{"id":"act_1","type":"tool_approval","toolName":"send_email","args":{"to":"a@b.co","subject":"Hi"},"status":"resolved","version":1,"resolution":{"decision":"allow"},"executionStatus":"failed","executionError":{"message":"SMTP refused"}}"#;
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        &conversation(failed, false),
    );
    assert_eq!(
        stage(&h),
        CardStage::Failed {
            message: Some("SMTP refused".into())
        }
    );
    // Settled for good: the looking stops.
    tick(&mut h, 120_000);
    assert!(!h.requests.iter().any(|r| r.path == "/conversations/conv_1"));
}

#[test]
fn i14_an_answer_cut_before_the_server_confirmed_it_checks_and_offers_no_button() {
    let mut h = paused(APPROVAL);
    approve(&mut h, Resolution::allow());
    let key = body_of(&h, 1)["decisionKey"].clone();
    h.close(1, Some(TransportError::Network("reset".into())));
    assert_eq!(stage(&h), CardStage::Checking);
    assert_eq!(stage(&h).as_str(), "checking");
    // No deciding button: the gate refuses another answer while the fate of the first is open.
    approve(&mut h, Resolution::allow());
    assert_eq!(h.streams.len(), 2, "nothing was sent");
    assert!(h.events.iter().any(|e| matches!(
        e,
        SessionEvent::ResolveRefused {
            reason: ResolveRefusal::InFlight,
            ..
        }
    )));
    // The look fails too (still offline): still checking, never Failed, never Waiting.
    let look = h
        .requests
        .iter()
        .position(|r| r.path == "/conversations/conv_1")
        .expect("looked at once");
    let id = h.requests.remove(look).id;
    h.feed(Input::Response {
        id,
        result: Err(TransportError::Network("offline".into())),
    });
    assert_eq!(stage(&h), CardStage::Checking);
    // Back online (the next look is 2 s later): the server had it.
    tick(&mut h, 2_000);
    let taken = r#"{"id":"act_1","type":"tool_approval","toolName":"send_email","args":{"to":"a@b.co","subject":"Hi"},"status":"resolved","version":1,"resolution":{"decision":"allow"},"executionStatus":"completed"}"#;
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        &conversation(taken, false),
    );
    assert_eq!(stage(&h), CardStage::Completed);
    assert_eq!(
        card(&h, "act_1").decided,
        agent_chat_ui::core::Decider::ThisPage
    );
    assert!(h
        .events
        .iter()
        .any(|e| matches!(e, SessionEvent::ActionResolved { .. })));
    assert!(key.is_string());
    // Settled: the key is forgotten.
    assert!(last_keys(&h).is_empty());
}

#[test]
fn i14_a_server_error_checks_and_still_pending_brings_the_buttons_back() {
    let mut h = paused(APPROVAL);
    approve(&mut h, Resolution::allow());
    let first_key = body_of(&h, 1)["decisionKey"].clone();
    let id = h.streams[1].id;
    h.feed(Input::Response {
        id,
        result: Ok(agent_chat_ui::core::HttpResponse::new(
            502,
            r#"{"error":{"code":"bad_gateway","message":"upstream"}}"#,
        )),
    });
    assert_eq!(stage(&h), CardStage::Checking);
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        &conversation(APPROVAL, true),
    );
    assert_eq!(stage(&h), CardStage::PendingApproval);
    assert!(matches!(h.s.error(), Some(ChatError::Network { .. })));
    // The same decision again: the same key, so the server cannot apply it twice.
    approve(&mut h, Resolution::allow());
    assert_eq!(body_of(&h, 2)["decisionKey"], first_key);
}

#[test]
fn i14_refusals_that_were_not_taken_do_not_check() {
    let mut h = paused(APPROVAL);
    approve(&mut h, Resolution::allow());
    let id = h.streams[1].id;
    h.feed(Input::Response {
        id,
        result: Ok(agent_chat_ui::core::HttpResponse::new(
            403,
            r#"{"error":{"code":"action_forbidden","message":"no"}}"#,
        )),
    });
    assert_eq!(stage(&h), CardStage::PendingApproval);
}

#[test]
fn i14_a_decision_keeps_its_key_across_a_reload_and_another_decision_gets_another() {
    let mut h = paused(APPROVAL);
    approve(&mut h, Resolution::allow());
    let key = body_of(&h, 1)["decisionKey"].as_str().unwrap().to_owned();
    let kept = last_keys(&h);
    assert_eq!(kept.len(), 1);
    assert_eq!(kept[0].key, key);
    assert_eq!(kept[0].version, Some(1));

    // The page reloads while the answer's fate is unknown; the edge hands the keys back.
    let config = SessionConfig {
        conversation_id: Some("conv_1".into()),
        decision_keys: kept,
        key_seed: 42,
        ..SessionConfig::default()
    };
    let mut again = Harness::new(config);
    again.cmd(Command::Start);
    again.answer(Method::Get, "/agents", 200, AGENTS);
    again.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        &conversation(APPROVAL, true),
    );
    approve(&mut again, Resolution::allow());
    assert_eq!(body_of(&again, 0)["decisionKey"], json!(key));

    // A different decision (deny) is a new decision with a new key.
    let id = again.streams[0].id;
    again.feed(Input::Response {
        id,
        result: Ok(agent_chat_ui::core::HttpResponse::new(
            400,
            r#"{"error":{"code":"validation_error","message":"x"}}"#,
        )),
    });
    approve(&mut again, Resolution::deny(None));
    let other = body_of(&again, 1)["decisionKey"].clone();
    assert_ne!(other, json!(key));
    assert!(other.is_string());
}

#[test]
fn i14_a_new_version_after_an_edit_must_itself_be_approved_with_the_diff() {
    let mut h = paused(APPROVAL);
    let edited = json!({"to": "alex@example.com", "subject": "Hi"});
    approve(
        &mut h,
        Resolution::ToolApproval {
            decision: agent_chat_ui::core::Decision::Allow,
            approved_args: Some(edited.clone()),
            remember_for_session: false,
            comment: None,
        },
    );
    assert_eq!(body_of(&h, 1)["version"], json!(1));
    // The server answers the edit with version 2 of the same action.
    h.chunk(1, &frame(r#"{"type":"stream.action_updated","action":{"id":"act_1","type":"tool_approval","toolName":"send_email","args":{"to":"alex@example.com","subject":"Hi"},"status":"pending","version":2,"executionStatus":"pending_approval"}}"#));
    h.chunk(1, &frame(r#"{"type":"stream.done","conversationId":"conv_1","messageId":"msg_a2","content":"Please approve the edited email.","status":"requires_action"}"#));
    h.close(1, None);
    let c = card(&h, "act_1");
    assert_eq!(CardStage::of(c), CardStage::PendingApproval);
    assert_eq!(c.action.version, Some(2));
    assert!(c.changed());
    assert_eq!(
        c.first_args,
        Some(json!({"to": "a@b.co", "subject": "Hi"})),
        "the original proposal is kept for the diff"
    );
    assert!(h
        .events
        .iter()
        .any(|e| matches!(e, SessionEvent::ActionChanged(a) if a.version == Some(2))));
    // Approving version 2 sends exactly that payload, as version 2.
    approve(&mut h, Resolution::allow());
    let body = body_of(&h, 2);
    assert_eq!(body["version"], json!(2));
    assert!(body["resolution"].get("approvedArgs").is_none());
    h.chunk(
        2,
        &frame(r#"{"type":"stream.action_resolved","actionId":"act_1","status":"resolved"}"#),
    );
    let receipt = Receipt::of(card(&h, "act_1")).expect("receipt");
    assert_eq!(
        receipt.changed_args,
        Some((json!({"to": "a@b.co", "subject": "Hi"}), edited)),
        "the receipt shows what ran against the original proposal"
    );
}

#[test]
fn i14_settled_by_someone_else_reads_answered_elsewhere_with_who() {
    let mut h = paused(APPROVAL);
    // Another tab says it settled it: the page looks at once.
    h.cmd(Command::SettledElsewhere {
        action_id: "act_1".into(),
    });
    let denied = r#"{"id":"act_1","type":"tool_approval","toolName":"send_email","args":{"to":"a@b.co","subject":"Hi"},"status":"resolved","version":1,"resolution":{"decision":"deny"},"resolvedBy":"user:bob","executionStatus":"rejected"}"#;
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        &conversation(denied, false),
    );
    assert_eq!(stage(&h), CardStage::AnsweredElsewhere);
    let receipt = Receipt::of(card(&h, "act_1")).expect("receipt");
    assert_eq!(receipt.by, Some(DecidedBy::Named("user:bob".into())));
}

/// A page that opens `conv_1` whose paused message records the action as `record`.
fn reopened(record: &str) -> Harness {
    let mut h = Harness::new(SessionConfig {
        conversation_id: Some("conv_1".into()),
        ..SessionConfig::default()
    });
    h.cmd(Command::Start);
    h.answer(Method::Get, "/agents", 200, AGENTS);
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        &conversation(record, false),
    );
    h
}

#[test]
fn i14_history_records_read_their_execution_stage() {
    let done = r#"{"id":"act_1","type":"tool_approval","toolName":"send_email","args":{},"status":"resolved","resolution":{"decision":"allow"},"executionStatus":"completed"}"#;
    assert_eq!(stage(&reopened(done)), CardStage::Completed);
    let rejected = r#"{"id":"act_1","type":"tool_approval","toolName":"send_email","args":{},"status":"resolved","resolution":{"decision":"deny"},"executionStatus":"rejected"}"#;
    assert_eq!(stage(&reopened(rejected)), CardStage::Denied);
}

const SECOND: &str = r#"{"id":"act_2","type":"tool_approval","toolName":"sandbox_exec","args":{"cmd":"ls"},"version":1}"#;

fn paused_with_two() -> Harness {
    let mut h = Harness::new(SessionConfig::default());
    h.cmd(Command::Start);
    h.answer(Method::Get, "/agents", 200, AGENTS);
    h.answer(Method::Get, "/conversations?", 200, EMPTY_LIST);
    h.cmd(Command::Send("restart and list".into()));
    h.answer(Method::Post, "/conversations", 201, CONV);
    h.chunk(0, &frame(&format!(
        r#"{{"type":"stream.done","conversationId":"conv_1","messageId":"msg_a1","content":"Approve both?","status":"requires_action","pendingActions":[{APPROVAL},{SECOND}]}}"#
    )));
    h.close(0, None);
    h
}

fn batch(h: &Harness) -> Vec<Shown> {
    agent_chat_ui::core::approval_batch(
        h.s.cards().iter().map(|c| (c, h.s.can_resolve(c))),
        Some("msg_a1"),
    )
    .into_iter()
    .map(Shown::from)
    .collect()
}

#[test]
fn i14_approve_all_moves_the_cards_together_and_decides_each_once_with_its_own_key() {
    let mut h = paused_with_two();
    let shown = batch(&h);
    assert_eq!(shown.len(), 2);
    h.cmd(Command::ResolveAll {
        shown,
        approve: true,
    });
    assert!(h
        .s
        .cards()
        .iter()
        .all(|c| CardStage::of(c) == CardStage::Sending));
    // One call at a time: the second waits for the first's continuation.
    assert_eq!(h.streams.len(), 2);
    assert_eq!(h.streams[1].path, "/conversations/conv_1/actions/act_1");
    h.chunk(
        1,
        &frame(r#"{"type":"stream.action_resolved","actionId":"act_1","status":"resolved"}"#),
    );
    h.chunk(1, &frame(r#"{"type":"stream.done","conversationId":"conv_1","messageId":"msg_a2","content":"Restarted."}"#));
    assert_eq!(h.streams.len(), 2, "not before the first stream ended");
    h.close(1, None);
    assert_eq!(h.streams.len(), 3);
    assert_eq!(h.streams[2].path, "/conversations/conv_1/actions/act_2");
    let (a, b) = (body_of(&h, 1), body_of(&h, 2));
    assert_eq!(a["resolution"]["decision"], json!("allow"));
    assert_eq!(b["resolution"]["decision"], json!("allow"));
    assert_ne!(a["decisionKey"], b["decisionKey"]);
    h.chunk(
        2,
        &frame(r#"{"type":"stream.action_resolved","actionId":"act_2","status":"resolved"}"#),
    );
    h.chunk(2, &frame(r#"{"type":"stream.done","conversationId":"conv_1","messageId":"msg_a3","content":"Listed."}"#));
    h.close(2, None);
    assert_eq!(h.streams.len(), 3, "each call was sent once");
    assert!(h.s.cards().iter().all(|c| !c.state.is_open()));
}

#[test]
fn i14_approve_all_is_all_or_nothing() {
    let mut h = paused_with_two();
    let mut shown = batch(&h);
    // One card changed since it was drawn: nothing of the batch is sent.
    shown[1].fingerprint ^= 1;
    h.cmd(Command::ResolveAll {
        shown,
        approve: true,
    });
    assert_eq!(h.streams.len(), 1, "nothing was sent");
    assert!(h
        .events
        .iter()
        .any(|e| matches!(e, SessionEvent::ResolveRefused { .. })));
    assert!(h
        .s
        .cards()
        .iter()
        .all(|c| CardStage::of(c) == CardStage::PendingApproval));
    // A batch that is not exactly one turn's waiting calls is refused too.
    let one = vec![batch(&h).remove(0)];
    h.cmd(Command::ResolveAll {
        shown: one,
        approve: false,
    });
    assert_eq!(h.streams.len(), 1, "nothing was sent");
}

#[test]
fn i14_a_refused_call_stops_the_rest_of_the_batch() {
    let mut h = paused_with_two();
    let shown = batch(&h);
    h.cmd(Command::ResolveAll {
        shown,
        approve: false,
    });
    let id = h.streams[1].id;
    h.feed(Input::Response {
        id,
        result: Ok(agent_chat_ui::core::HttpResponse::new(
            403,
            r#"{"error":{"code":"action_forbidden","message":"no"}}"#,
        )),
    });
    assert_eq!(h.streams.len(), 2, "the second call was not sent");
    assert_eq!(CardStage::of(card(&h, "act_2")), CardStage::PendingApproval);
}

#[test]
fn i14_one_call_is_no_batch() {
    let h = paused(APPROVAL);
    assert!(agent_chat_ui::core::approval_batch(
        h.s.cards().iter().map(|c| (c, true)),
        Some("msg_a1")
    )
    .is_empty());
}

#[test]
fn issue35_the_receipt_keeps_each_transition_with_when_execution_started_and_ended() {
    use agent_chat_ui::core::{Millis, StepKind};
    let mut h = paused(APPROVAL);
    approve(&mut h, Resolution::allow());
    h.now = 5_000;
    h.chunk(1, &frame(r#"{"type":"stream.action_resolved","actionId":"act_1","status":"resolved","resolution":{"type":"tool_approval","decision":"allow"}}"#));
    h.now = 7_000;
    h.chunk(1, &frame(r#"{"type":"stream.action_updated","action":{"id":"act_1","type":"tool_approval","toolName":"send_email","args":{"to":"a@b.co","subject":"Hi"},"status":"resolved","version":1,"executionStatus":"executing"}}"#));
    h.now = 9_500;
    h.chunk(1, &frame(r#"{"type":"stream.action_updated","action":{"id":"act_1","type":"tool_approval","toolName":"send_email","args":{"to":"a@b.co","subject":"Hi"},"status":"resolved","version":1,"executionStatus":"completed"}}"#));
    assert_eq!(stage(&h), CardStage::Completed);
    let a = &card(&h, "act_1").action;
    // Executing… began when the decision was taken (the server reports execution), and ended
    // when the page saw it complete: server times, as the page saw them.
    assert_eq!(a.execution_started_at, Some(Millis(5_000)));
    assert_eq!(a.execution_ended_at, Some(Millis(9_500)));
    let steps = Receipt::of(card(&h, "act_1")).unwrap().steps;
    let kinds: Vec<StepKind> = steps.iter().map(|s| s.kind).collect();
    assert_eq!(
        kinds,
        [
            StepKind::Proposed,
            StepKind::Approved,
            StepKind::Executing,
            StepKind::Completed
        ]
    );
    assert_eq!(steps[1].by, Some(DecidedBy::You));
    assert_eq!(steps[1].version, Some(1));
    assert_eq!(steps[1].at, Some(Millis(5_000)));
    assert_eq!(steps[2].at, Some(Millis(5_000)));
    assert_eq!(steps[3].at, Some(Millis(9_500)));
}

#[test]
fn issue35_the_servers_history_is_kept_and_completed_with_what_it_does_not_say() {
    use agent_chat_ui::core::{steps, StepKind};
    let record = r#"{"id":"act_42","type":"send_email","recipient":"alex@example.com","version":3,"status":"completed",
        "createdAt":"2026-12-02T09:00:00Z","executionStartedAt":"2026-12-02T09:05:00Z","executionEndedAt":"2026-12-02T09:05:02Z",
        "history":[{"status":"pending_approval","at":"2026-12-02T09:00:00Z","version":2},
                   {"status":"edited","at":"2026-12-02T09:03:00Z","by":"user:alex","version":3},
                   {"status":"approved","at":"2026-12-02T09:04:00Z","by":"user:alex","version":3},
                   {"event":"mystery"}]}"#;
    let mut h = Harness::opening("conv_1");
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        &conversation(record, false),
    );
    let card = card(&h, "act_42");
    let s = steps(card);
    let kinds: Vec<StepKind> = s.iter().map(|s| s.kind).collect();
    assert_eq!(
        kinds,
        [
            StepKind::Proposed,
            StepKind::Edited,
            StepKind::Approved,
            StepKind::Executing,
            StepKind::Completed
        ],
        "{s:?}"
    );
    let iso = agent_chat_ui::core::parse_timestamp_str;
    assert_eq!(s[1].by, Some(DecidedBy::Named("user:alex".into())));
    assert_eq!(s[2].version, Some(3));
    assert_eq!(s[2].at, iso("2026-12-02T09:04:00Z"));
    assert_eq!(s[3].at, iso("2026-12-02T09:05:00Z"));
    assert_eq!(s[4].at, iso("2026-12-02T09:05:02Z"));
    // Read back from its canonical form, the record keeps its history and times.
    let again = agent_chat_ui::core::PendingAction::from_json(&card.action.to_json()).unwrap();
    assert_eq!(again.history, card.action.history);
    assert_eq!(again.execution_ended_at, card.action.execution_ended_at);
}
