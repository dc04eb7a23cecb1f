//! Approvals and questions in the Session: every rule of seed 000 (spec/000) and PROTOCOL §9,
//! each in its own test named after it. No browser; fake responses and recorded frames.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use agent_chat_ui::core::{
    approval_resolution, composer_state, restore_cards, ActionCard, AnswerValue, CardState,
    ChatError, Command, ComposerMode, ComposerState, Decision, HttpResponse, Input, Message,
    Method, Millis, Outcome, PendingAction, Resolution, Run, SessionConfig, SessionEvent, Shown,
};
use common::{frame, Harness, CONV, EMPTY_LIST};
use serde_json::json;

const APPROVAL: &str = r#"{"id":"act_1","type":"tool_approval","toolName":"send_email","args":{"to":"a@b.co","subject":"Hi"},"argsSchema":{"type":"object"}}"#;
const QUESTION: &str = r#"{"id":"q_1","type":"user_question","questions":[{"question":"Which env?","placeholder":"e.g. staging"}]}"#;

fn agents(metadata: &str, capabilities: &str) -> String {
    format!(
        r#"{{"agents":[{{"id":"ops","name":"Ops","metadata":{metadata},"capabilities":{capabilities}}}]}}"#
    )
}

/// A chat whose first turn paused with `action` (streamed `action_required` + paused `done`).
fn paused_with(config: SessionConfig, agent_list: &str, action: &str) -> Harness {
    let mut h = Harness::new(config);
    h.cmd(Command::Start);
    h.answer(Method::Get, "/agents", 200, agent_list);
    h.answer(Method::Get, "/conversations?", 200, EMPTY_LIST);
    h.cmd(Command::Send("please do it".into()));
    h.answer(Method::Post, "/conversations", 201, CONV);
    h.chunk(0, &frame(r#"{"type":"stream.start","timestamp":1,"conversationId":"conv_1","messageId":"msg_u"}"#));
    h.chunk(
        0,
        &frame(&format!(
            r#"{{"type":"stream.action_required","timestamp":2,"conversationId":"conv_1","action":{action}}}"#
        )),
    );
    h.chunk(
        0,
        &frame(&format!(
            r#"{{"type":"stream.done","timestamp":3,"conversationId":"conv_1","messageId":"msg_a1","content":"I need approval first.","status":"requires_action","pendingActions":[{action}]}}"#
        )),
    );
    h.close(0, None);
    h
}

fn paused(action: &str) -> Harness {
    paused_with(SessionConfig::default(), &agents("{}", "{}"), action)
}

fn card<'a>(h: &'a Harness, id: &str) -> &'a ActionCard {
    h.s.cards()
        .iter()
        .find(|c| c.action.id == id)
        .expect("card exists")
}

/// What the card `id` draws now, as a person answering it saw it.
fn shown(h: &Harness, id: &str) -> Shown {
    Shown::of(&card(h, id).action)
}

fn api_error(status: u16, code: &str) -> HttpResponse {
    HttpResponse {
        status,
        body: format!(r#"{{"error":{{"code":"{code}","message":"server says {code}"}}}}"#),
        date: None,
        retry_after: None,
    }
}

#[test]
fn f181_a_paused_turn_shows_a_waiting_card_under_its_message_and_tells_the_host() {
    let h = paused(APPROVAL);
    let c = card(&h, "act_1");
    assert_eq!(c.state, CardState::Waiting);
    assert_eq!(
        c.message_id.as_deref(),
        Some("msg_a1"),
        "C11: under the paused assistant message"
    );
    assert!(!c.restored, "arrived live: announced and focused");
    let required: Vec<_> = h
        .events
        .iter()
        .filter(|e| matches!(e, SessionEvent::ActionRequired(_)))
        .collect();
    assert_eq!(
        required.len(),
        1,
        "deduped by id across action_required and done"
    );
    assert_eq!(h.s.run(), Run::AwaitingAction);
    assert!(h.s.awaiting_action());
}

#[test]
fn c10_client_tool_draws_no_card_and_does_not_close_the_composer() {
    let h = paused(r#"{"id":"ct_1","type":"client_tool","toolName":"open_tab","args":{}}"#);
    assert!(!h.s.awaiting_action());
    assert_eq!(h.s.composer_state(), ComposerState::Normal);
    assert!(h.s.can_send());
    assert!(!h
        .events
        .iter()
        .any(|e| matches!(e, SessionEvent::ActionRequired(_))));
    assert_eq!(
        h.s.pending_actions().count(),
        1,
        "still listed for the host page (F187)"
    );
}

#[test]
fn f193_composer_blocked_in_block_mode_while_an_approval_waits() {
    let h = paused(APPROVAL);
    assert_eq!(h.s.composer_state(), ComposerState::Blocked);
    assert!(!h.s.can_send());
}

#[test]
fn f179_agent_composer_mode_wins_over_the_prop() {
    let h = paused_with(
        SessionConfig {
            composer_mode: ComposerMode::Block,
            ..Default::default()
        },
        &agents(r#"{"pendingActionComposerMode":"cancel"}"#, "{}"),
        APPROVAL,
    );
    assert_eq!(h.s.composer_mode(), ComposerMode::Cancel);
    assert_eq!(h.s.composer_state(), ComposerState::Cancel);
    assert!(h.s.can_send());
    // An unusable agent value is ignored and the prop applies.
    let h = paused_with(
        SessionConfig {
            composer_mode: ComposerMode::Cancel,
            ..Default::default()
        },
        &agents(r#"{"pendingActionComposerMode":"sometimes"}"#, "{}"),
        APPROVAL,
    );
    assert_eq!(h.s.composer_state(), ComposerState::Cancel);
}

#[test]
fn f177_agent_capability_wins_over_the_argument_edit_prop() {
    let h = paused_with(
        SessionConfig::default(),
        &agents("{}", r#"{"approvalArgsEdit":true}"#),
        APPROVAL,
    );
    assert!(h.s.argument_edit_allowed());
    let h = paused_with(
        SessionConfig {
            allow_argument_edit: true,
            ..Default::default()
        },
        &agents("{}", r#"{"approvalArgsEdit":false}"#),
        APPROVAL,
    );
    assert!(!h.s.argument_edit_allowed());
    let h = paused_with(
        SessionConfig {
            allow_argument_edit: true,
            ..Default::default()
        },
        &agents("{}", r#"{"approvalArgsEdit":"yes"}"#),
        APPROVAL,
    );
    assert!(
        h.s.argument_edit_allowed(),
        "unusable value ignored, prop applies"
    );
}

#[test]
fn c35_single_option_less_question_is_answered_from_the_composer_and_beats_block() {
    let mut h = paused(QUESTION);
    match h.s.composer_state() {
        ComposerState::Answer {
            action_id,
            question,
        } => {
            assert_eq!(action_id, "q_1");
            assert_eq!(question.placeholder.as_deref(), Some("e.g. staging"));
        }
        other => panic!("expected answer mode, got {other:?}"),
    }
    assert!(h.s.can_send());
    h.cmd(Command::Send("staging".into()));
    assert_eq!(card(&h, "q_1").state, CardState::Sending);
    assert_eq!(h.streams.len(), 2);
    assert_eq!(h.streams[1].path, "/conversations/conv_1/actions/q_1");
    let mut body: serde_json::Value =
        serde_json::from_str(h.streams[1].body.as_deref().unwrap()).unwrap();
    // Every decision carries its idempotency key (issue 14).
    let key = body["decisionKey"].take();
    assert_eq!(key.as_str().map(str::len), Some(36), "{key}");
    body.as_object_mut().unwrap().remove("decisionKey");
    assert_eq!(
        body,
        json!({"resolution": {"type": "user_question", "answers": {"Which env?": "staging"}}, "stream": true})
    );
    assert!(
        !h.s.messages()
            .iter()
            .any(|m| m.content.display_text() == "staging"),
        "an answer is not a new user message"
    );
}

#[test]
fn c35_a_question_with_options_or_two_questions_does_not_take_the_composer() {
    let with_options = paused(
        r#"{"id":"q_2","type":"user_question","questions":[{"question":"Plan?","options":[{"label":"Free"},{"label":"Pro"}]}]}"#,
    );
    assert_eq!(with_options.s.composer_state(), ComposerState::Blocked);
    let two = paused(
        r#"{"id":"q_3","type":"user_question","questions":[{"question":"A?"},{"question":"B?"}]}"#,
    );
    assert_eq!(two.s.composer_state(), ComposerState::Blocked);
    // Questions disabled: the card is read-only, so the composer cannot answer either, and
    // it says the answer is awaited in another app (issue 13), still `blocked` on the wire.
    let disabled = paused_with(
        SessionConfig {
            enable_questions: false,
            ..Default::default()
        },
        &agents("{}", "{}"),
        QUESTION,
    );
    assert_eq!(disabled.s.composer_state(), ComposerState::WaitingElsewhere);
    assert_eq!(disabled.s.composer_state().as_str(), "blocked");
    assert!(!disabled.s.can_send());
}

#[test]
fn f180_accepted_answer_settles_the_card_records_it_and_continues_in_a_new_message() {
    let mut h = paused(APPROVAL);
    h.cmd(Command::Resolve {
        shown: shown(&h, "act_1"),
        resolution: Resolution::allow(),
    });
    assert_eq!(card(&h, "act_1").state, CardState::Sending);
    assert!(h.s.is_resolving_action());
    assert!(!h.s.can_send());
    h.chunk(1, &frame(r#"{"type":"stream.action_resolved","timestamp":5,"conversationId":"conv_1","actionId":"act_1","status":"resolved","resolution":{"decision":"allow"}}"#));
    assert_eq!(
        card(&h, "act_1").state,
        CardState::Settled(Outcome::Approved { remembered: false })
    );
    assert!(h.events.iter().any(
        |e| matches!(e, SessionEvent::ActionResolved { action_id, .. } if action_id == "act_1")
    ));
    let paused_msg = h.s.messages().iter().find(|m| m.id == "msg_a1").unwrap();
    assert!(
        paused_msg.action_states.contains_key("act_1"),
        "actionStates recorded (§9.6 source 1)"
    );
    h.chunk(
        1,
        &frame(r#"{"type":"stream.text","timestamp":6,"text":"Email sent."}"#),
    );
    h.chunk(1, &frame(r#"{"type":"stream.done","timestamp":7,"conversationId":"conv_1","messageId":"msg_a2","content":"Email sent.","status":"completed"}"#));
    h.close(1, None);
    assert_eq!(h.s.messages().last().unwrap().id, "msg_a2");
    assert_eq!(h.s.run(), Run::Idle);
    assert_eq!(h.s.composer_state(), ComposerState::Normal);
}

#[test]
fn seed000_remember_for_session_is_sent_and_read_back() {
    let mut h = paused(APPROVAL);
    let resolution = approval_resolution(
        true,
        &json!({"to":"a@b.co","subject":"Hi"}),
        None,
        true,
        None,
    );
    h.cmd(Command::Resolve {
        shown: shown(&h, "act_1"),
        resolution,
    });
    let body: serde_json::Value =
        serde_json::from_str(h.streams[1].body.as_deref().unwrap()).unwrap();
    assert_eq!(body["resolution"]["rememberForSession"], json!(true));
    h.chunk(1, &frame(r#"{"type":"stream.action_resolved","timestamp":5,"actionId":"act_1","status":"resolved","resolution":{"decision":"allow","rememberForSession":true}}"#));
    assert_eq!(
        card(&h, "act_1").state,
        CardState::Settled(Outcome::Approved { remembered: true })
    );
}

#[test]
fn seed000_approved_args_only_when_the_edit_really_differs() {
    let proposed = json!({"to": "a@b.co", "subject": "Hi", "n": 1});
    let reordered = json!({"n": 1.0, "subject": "Hi", "to": "a@b.co"});
    let same = approval_resolution(true, &proposed, Some(&reordered), false, None);
    assert!(
        matches!(
            same,
            Resolution::ToolApproval {
                approved_args: None,
                ..
            }
        ),
        "reordered is not an edit"
    );
    let edited = json!({"to": "c@d.co", "subject": "Hi", "n": 1});
    let changed = approval_resolution(true, &proposed, Some(&edited), false, None);
    assert!(
        matches!(changed, Resolution::ToolApproval { approved_args: Some(ref a), .. } if *a == edited)
    );
    let denied = approval_resolution(
        false,
        &proposed,
        Some(&edited),
        true,
        Some("wrong recipient".into()),
    );
    match denied {
        Resolution::ToolApproval {
            decision,
            approved_args,
            remember_for_session,
            comment,
        } => {
            assert_eq!(decision, Decision::Deny);
            assert_eq!(approved_args, None, "deny ignores the edit");
            assert!(!remember_for_session, "remember only with allow");
            assert_eq!(comment.as_deref(), Some("wrong recipient"));
        }
        other => panic!("{other:?}"),
    }
}

fn expiring(at: u64) -> String {
    format!(
        r#"{{"id":"act_9","type":"tool_approval","toolName":"restart","args":{{}},"expiresAt":{at}}}"#
    )
}

#[test]
fn seed000_deadline_expires_the_card_frees_the_composer_and_refetches_after_1500ms() {
    let mut h = paused(&expiring(60_000));
    assert_eq!(h.s.poll_timeout(), Some(Millis(60_000)));
    h.now = 60_000;
    h.feed(Input::Timeout);
    assert_eq!(
        card(&h, "act_9").state,
        CardState::Settled(Outcome::Expired)
    );
    assert_eq!(h.s.composer_state(), ComposerState::Normal);
    assert!(h.s.can_send());
    assert_eq!(h.s.poll_timeout(), Some(Millis(61_500)));
    assert!(!h.requests.iter().any(|r| r.path == "/conversations/conv_1"));
    h.now = 61_500;
    h.feed(Input::Timeout);
    // The server carried on (auto-deny by timeout) and says so in the message; the card must
    // stay Expired and the continuation shows.
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        r#"{"conversation":{"id":"conv_1","agentId":"ops"},"messages":[
            {"id":"msg_u","role":"user","content":"please do it"},
            {"id":"msg_a1","role":"assistant","content":"I need approval first.","metadata":{"pendingActions":[
              {"id":"act_9","type":"tool_approval","toolName":"restart","status":"resolved","resolution":{"decision":"deny"}}]}},
            {"id":"msg_a2","role":"assistant","content":"The request expired, so I did not run it."}],
          "pendingActions":[]}"#,
    );
    assert_eq!(
        card(&h, "act_9").state,
        CardState::Settled(Outcome::Expired),
        "never turns Denied/Answered"
    );
    assert_eq!(h.s.messages().last().unwrap().id, "msg_a2");
}

#[test]
fn c32_no_expiry_while_an_answer_is_in_flight() {
    let mut h = paused(&expiring(60_000));
    h.cmd(Command::Resolve {
        shown: shown(&h, "act_9"),
        resolution: Resolution::allow(),
    });
    h.now = 70_000;
    h.feed(Input::Timeout);
    assert_eq!(card(&h, "act_9").state, CardState::Sending);
}

fn refused(code: &str, status: u16) -> Harness {
    let mut h = paused(APPROVAL);
    h.cmd(Command::Resolve {
        shown: shown(&h, "act_1"),
        resolution: Resolution::allow(),
    });
    let id = h.streams[1].id;
    h.feed(Input::Response {
        id,
        result: Ok(api_error(status, code)),
    });
    h
}

#[test]
fn seed000_action_expired_refusal_reads_expired_releases_the_composer_and_refetches() {
    let h = refused("ACTION_EXPIRED", 410);
    assert_eq!(
        card(&h, "act_1").state,
        CardState::Settled(Outcome::Expired)
    );
    assert_eq!(h.s.composer_state(), ComposerState::Normal);
    assert_eq!(
        h.s.error().and_then(ChatError::code),
        Some("action_expired")
    );
    assert_eq!(h.s.poll_timeout(), Some(Millis(h.now + 1_500)));
}

#[test]
fn seed000_action_cancelled_refusal_reads_cancelled() {
    let h = refused("action_cancelled", 409);
    assert_eq!(
        card(&h, "act_1").state,
        CardState::Settled(Outcome::Cancelled)
    );
    assert!(h.s.can_send());
    assert!(h.s.error().is_some());
}

#[test]
fn seed000_action_not_pending_refusal_reads_answered() {
    let h = refused("action_not_pending", 409);
    assert_eq!(
        card(&h, "act_1").state,
        CardState::Settled(Outcome::answered())
    );
    assert!(h.s.can_send());
    assert!(h.s.error().is_some());
}

#[test]
fn seed000_action_forbidden_and_other_errors_put_the_card_back_to_waiting() {
    // A 5xx may have been taken: that card checks instead (tests/core/execution.rs).
    for (code, status) in [
        ("action_forbidden", 403),
        ("rate_limited", 429),
        ("something_new", 400),
    ] {
        let h = refused(code, status);
        assert_eq!(card(&h, "act_1").state, CardState::Waiting, "{code}");
        assert_eq!(h.s.composer_state(), ComposerState::Blocked, "{code}");
        assert_eq!(h.s.error().and_then(ChatError::code), Some(code), "{code}");
    }
}

#[test]
fn c34_busy_answer_goes_back_to_waiting_and_refetches() {
    let h = refused("conversation_busy", 409);
    assert_eq!(card(&h, "act_1").state, CardState::Waiting);
    assert!(h.requests.iter().any(|r| r.path == "/conversations/conv_1"));
}

#[test]
fn f197_a_refused_composer_answer_keeps_the_typed_text() {
    let mut h = paused(QUESTION);
    h.cmd(Command::Send("production".into()));
    let id = h.streams[1].id;
    h.feed(Input::Response {
        id,
        result: Ok(api_error(422, "guardrail_blocked")),
    });
    assert_eq!(h.drafts(), vec!["production".to_owned()]);
    assert_eq!(card(&h, "q_1").state, CardState::Waiting);
}

#[test]
fn seed000_cancel_mode_message_cancels_the_waiting_card_once_accepted() {
    let mut h = paused_with(
        SessionConfig::default(),
        &agents(r#"{"pendingActionComposerMode":"cancel"}"#, "{}"),
        APPROVAL,
    );
    h.cmd(Command::Send("never mind, do something else".into()));
    assert_eq!(
        card(&h, "act_1").state,
        CardState::Waiting,
        "not before the server took it"
    );
    h.chunk(1, &frame(r#"{"type":"stream.action_resolved","timestamp":5,"actionId":"act_1","status":"cancelled"}"#));
    h.chunk(1, &frame(r#"{"type":"stream.start","timestamp":6,"conversationId":"conv_1","messageId":"msg_u2"}"#));
    assert_eq!(
        card(&h, "act_1").state,
        CardState::Settled(Outcome::Cancelled)
    );
}

#[test]
fn seed000_cancel_mode_refused_message_keeps_the_card_and_the_draft() {
    let mut h = paused_with(
        SessionConfig::default(),
        &agents(r#"{"pendingActionComposerMode":"cancel"}"#, "{}"),
        APPROVAL,
    );
    h.cmd(Command::Send("something else".into()));
    let id = h.streams[1].id;
    h.feed(Input::Response {
        id,
        result: Ok(api_error(409, "PENDING_ACTION")),
    });
    assert_eq!(card(&h, "act_1").state, CardState::Waiting);
    assert_eq!(h.drafts(), vec!["something else".to_owned()]);
    assert!(
        h.requests.iter().any(|r| r.path == "/conversations/conv_1"),
        "refetch (§9.9)"
    );
}

#[test]
fn c17_answer_taken_but_stream_cut_is_looked_up_not_failed() {
    let mut h = paused(APPROVAL);
    h.cmd(Command::Resolve {
        shown: shown(&h, "act_1"),
        resolution: Resolution::allow(),
    });
    h.close(1, None);
    assert!(h.s.error().is_none());
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        r#"{"conversation":{"id":"conv_1","agentId":"ops"},"messages":[
            {"id":"msg_u","role":"user","content":"please do it"},
            {"id":"msg_a1","role":"assistant","content":"I need approval first."},
            {"id":"msg_a2","role":"assistant","content":"Email sent."}],"pendingActions":[]}"#,
    );
    assert!(h.s.error().is_none());
    assert_eq!(
        card(&h, "act_1").state,
        CardState::Settled(Outcome::Approved { remembered: false })
    );
    assert_eq!(h.s.messages().last().unwrap().id, "msg_a2");
}

#[test]
fn c17_answer_never_taken_goes_back_to_waiting_with_the_error() {
    let mut h = paused(APPROVAL);
    h.cmd(Command::Resolve {
        shown: shown(&h, "act_1"),
        resolution: Resolution::allow(),
    });
    let id = h.streams[1].id;
    h.feed(Input::Response {
        id,
        result: Err(agent_chat_ui::core::TransportError::Network(
            "offline".into(),
        )),
    });
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        &format!(r#"{{"conversation":{{"id":"conv_1","agentId":"ops"}},"messages":[],"pendingActions":[{APPROVAL}]}}"#),
    );
    assert_eq!(card(&h, "act_1").state, CardState::Waiting);
    assert!(matches!(h.s.error(), Some(ChatError::Network { .. })));
}

// ----- §9.6 history restore ------------------------------------------------------------------

fn msg(json: &str) -> Message {
    serde_json::from_str(json).expect("message json")
}

#[test]
fn s9_6_open_list_is_authoritative_and_the_rest_is_settled_from_the_three_sources_in_order() {
    let mut with_states = msg(
        r#"{"id":"m1","role":"assistant","content":"Done.","metadata":{
            "actionStates":{"a2":{"status":"resolved","resolution":{"decision":"allow"}}},
            "pendingActions":[
              {"id":"a1","type":"tool_approval","toolName":"sandbox_exec","args":{"cmd":"ls"},"status":"resolved",
               "resolution":{"decision":"allow","approvedArgs":{"cmd":"ls -la"},"rememberForSession":true}},
              {"id":"a2","type":"tool_approval","toolName":"web_fetch","status":"resolved","resolution":{"decision":"deny","comment":"not that site"}},
              {"id":"a3","type":"tool_approval","toolName":"slow_tool","status":"expired"},
              {"kind":"user_question","id":"q1","questions":[{"question":"Which env?"}],"status":"resolved","resolution":{"answers":{"Which env?":"staging"}}},
              {"id":"a4","type":"tool_approval","toolName":"email","status":"resolved","resolution":{"decision":"deny"},"resolvedBy":"system:timeout"},
              {"id":"a5","type":"tool_approval","toolName":"mystery"},
              {"id":"a6","type":"tool_approval","toolName":"still_open"}]}}"#,
    );
    // Source 1 (the message's own actionStates) beats source 2 (metadata.actionStates) for a2.
    with_states.action_states.insert(
        "a2".into(),
        serde_json::from_value(
            json!({"status":"resolved","resolution":{"decision":"deny","comment":"not that site"}}),
        )
        .unwrap(),
    );
    let open: Vec<PendingAction> = vec![serde_json::from_value(
        json!({"id":"a6","type":"tool_approval","toolName":"still_open"}),
    )
    .unwrap()];
    let cards = restore_cards(&[with_states], Some(open), &[]);
    let state = |id: &str| {
        cards
            .iter()
            .find(|c| c.action.id == id)
            .map(|c| c.state.clone())
            .unwrap()
    };
    assert_eq!(
        state("a1"),
        CardState::Settled(Outcome::ApprovedEdited {
            args: json!({"cmd":"ls -la"}),
            remembered: true
        })
    );
    assert_eq!(
        state("a2"),
        CardState::Settled(Outcome::Denied {
            comment: Some("not that site".into())
        })
    );
    assert_eq!(state("a3"), CardState::Settled(Outcome::Expired));
    assert_eq!(
        state("q1"),
        CardState::Settled(Outcome::Answered {
            answers: [("Which env?".to_owned(), AnswerValue::One("staging".into()))].into()
        }),
        "kind accepted as type"
    );
    assert_eq!(
        state("a4"),
        CardState::Settled(Outcome::Expired),
        "system:timeout reads Expired, not Denied"
    );
    assert_eq!(
        state("a5"),
        CardState::Settled(Outcome::answered()),
        "not in the open list: settled; nothing known: Answered"
    );
    assert_eq!(state("a6"), CardState::Waiting);
    assert!(
        cards.iter().all(|c| c.restored),
        "C25: restored cards are not announced"
    );
}

#[test]
fn s9_6_without_the_open_list_the_last_assistant_message_decides() {
    let older = msg(
        r#"{"id":"m1","role":"assistant","content":"a","metadata":{"pendingActions":[{"id":"x1","type":"tool_approval","toolName":"t"}]}}"#,
    );
    let last = msg(
        r#"{"id":"m2","role":"assistant","content":"b","metadata":{"pendingActions":[{"id":"x2","type":"tool_approval","toolName":"t"}]}}"#,
    );
    let cards = restore_cards(&[older, last], None, &[]);
    let x1 = cards.iter().find(|c| c.action.id == "x1").unwrap();
    let x2 = cards.iter().find(|c| c.action.id == "x2").unwrap();
    assert_eq!(x1.state, CardState::Settled(Outcome::answered()));
    assert_eq!(x2.state, CardState::Waiting);
    assert_eq!(x2.message_id.as_deref(), Some("m2"));
}

#[test]
fn s9_6_restored_open_cards_are_not_announced_on_load() {
    let mut h = Harness::new(SessionConfig {
        conversation_id: Some("conv_1".into()),
        ..Default::default()
    });
    h.cmd(Command::Start);
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        &format!(r#"{{"conversation":{{"id":"conv_1","agentId":"ops"}},"messages":[{{"id":"m1","role":"assistant","content":"wait"}}],"pendingActions":[{APPROVAL}]}}"#),
    );
    let c = card(&h, "act_1");
    assert!(c.restored);
    assert_eq!(c.state, CardState::Waiting);
    assert_eq!(
        c.message_id.as_deref(),
        Some("m1"),
        "default placement: last assistant message"
    );
    assert!(
        !h.events
            .iter()
            .any(|e| matches!(e, SessionEvent::ActionRequired(_))),
        "C25"
    );
    assert_eq!(h.s.run(), Run::AwaitingAction);
}

#[test]
fn s9_6_locally_cancelled_stays_cancelled_after_a_refetch() {
    let cancelled = ActionCard::new(
        serde_json::from_value(json!({"id":"a1","type":"tool_approval","toolName":"t"})).unwrap(),
        CardState::Settled(Outcome::Cancelled),
        Some("m1".into()),
        false,
    );
    let m = msg(
        r#"{"id":"m1","role":"assistant","content":"x","metadata":{"pendingActions":[{"id":"a1","type":"tool_approval","toolName":"t","status":"resolved"}]}}"#,
    );
    let cards = restore_cards(&[m], Some(vec![]), &[cancelled]);
    assert_eq!(cards[0].state, CardState::Settled(Outcome::Cancelled));
    assert!(!cards[0].restored);
}

#[test]
fn c13_skipped_question_and_server_cancelled_read_differently() {
    let skipped = Outcome::from_settled(
        agent_chat_ui::core::ActionStatus::Resolved,
        Some(&Resolution::UserQuestion {
            answers: Default::default(),
            cancelled: true,
        }),
        None,
        None,
    );
    assert_eq!(skipped, Outcome::Skipped);
    let cancelled = Outcome::from_settled(
        agent_chat_ui::core::ActionStatus::Cancelled,
        None,
        None,
        None,
    );
    assert_eq!(cancelled, Outcome::Cancelled);
}

#[test]
fn f191_composer_state_is_pure_over_cards() {
    let card = |action: &str, state: CardState| {
        ActionCard::new(
            serde_json::from_str(action).expect("action json"),
            state,
            Some("m1".into()),
            false,
        )
    };
    let approval = card(APPROVAL, CardState::Waiting);
    let question = card(QUESTION, CardState::Waiting);
    // Nothing open for a person: normal, whatever the mode.
    for mode in [ComposerMode::Block, ComposerMode::Cancel] {
        assert_eq!(composer_state(&[], mode, true), ComposerState::Normal);
        let settled = card(APPROVAL, CardState::Settled(Outcome::Cancelled));
        assert_eq!(
            composer_state(&[settled], mode, true),
            ComposerState::Normal
        );
        let client_tool = card(CLIENT_TOOL, CardState::Waiting);
        assert_eq!(
            composer_state(&[client_tool], mode, true),
            ComposerState::Normal,
            "C10: the host's own tool does not hold the composer"
        );
    }
    // A waiting approval: the mode decides (F193, F179).
    assert_eq!(
        composer_state(std::slice::from_ref(&approval), ComposerMode::Block, true),
        ComposerState::Blocked
    );
    assert_eq!(
        composer_state(std::slice::from_ref(&approval), ComposerMode::Cancel, true),
        ComposerState::Cancel
    );
    // C35: a lone option-less question is answered from the composer, in either mode...
    for mode in [ComposerMode::Block, ComposerMode::Cancel] {
        match composer_state(std::slice::from_ref(&question), mode, true) {
            ComposerState::Answer {
                action_id,
                question,
            } => {
                assert_eq!(action_id, "q_1");
                assert_eq!(question.question, "Which env?");
            }
            other => panic!("{mode:?}: expected answer mode, got {other:?}"),
        }
    }
    // ...but not when questions cannot be answered, not while its answer is on its way, and
    // not next to another open card.
    assert_eq!(
        composer_state(std::slice::from_ref(&question), ComposerMode::Block, false),
        ComposerState::WaitingElsewhere,
        "nothing here can answer it (issue 13)"
    );
    let sending = card(QUESTION, CardState::Sending);
    assert_eq!(
        composer_state(&[sending], ComposerMode::Block, true),
        ComposerState::Blocked
    );
    assert_eq!(
        composer_state(&[question, approval], ComposerMode::Cancel, true),
        ComposerState::Cancel
    );
}

#[test]
fn c28_countdown_uses_the_largest_whole_unit() {
    use agent_chat_ui::core::{countdown, CountdownUnit};
    assert_eq!(countdown(24 * 3_600_000 - 1), (CountdownUnit::Hours, 23));
    assert_eq!(countdown(3_600_000), (CountdownUnit::Hours, 1));
    assert_eq!(countdown(3_599_000), (CountdownUnit::Minutes, 59));
    assert_eq!(countdown(61_000), (CountdownUnit::Minutes, 1));
    assert_eq!(countdown(59_001), (CountdownUnit::Seconds, 60));
    assert_eq!(countdown(1), (CountdownUnit::Seconds, 1));
    assert_eq!(countdown(0), (CountdownUnit::Seconds, 1));
}

// ----- C10 client_tool: the host page's own tool -----------------------------------------------

const CLIENT_TOOL: &str =
    r#"{"id":"ct_1","type":"client_tool","toolName":"get_selection","args":{"max":10}}"#;

fn client_tool_requests(h: &Harness) -> Vec<PendingAction> {
    h.events
        .iter()
        .filter_map(|e| match e {
            SessionEvent::ClientToolRequested(a) => Some(a.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn c10_a_live_client_tool_is_reported_to_the_host_once_and_never_as_a_card() {
    let h = paused(CLIENT_TOOL);
    let asked = client_tool_requests(&h);
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].id, "ct_1");
    assert!(!h
        .events
        .iter()
        .any(|e| matches!(e, SessionEvent::ActionRequired(_))));
    assert!(!h.s.awaiting_action(), "no person-facing card");
    assert_eq!(
        h.s.composer_state(),
        ComposerState::Normal,
        "the composer stays open"
    );
}

#[test]
fn c10_the_host_answers_a_client_tool_through_e14_with_its_result() {
    let mut h = paused(CLIENT_TOOL);
    h.cmd(Command::Resolve {
        shown: shown(&h, "ct_1"),
        resolution: Resolution::ClientTool {
            result: Some(json!({"text": "hello"})),
            error: None,
        },
    });
    let stream = h
        .streams
        .last()
        .expect("the answer streams the continuation");
    assert_eq!(stream.path, "/conversations/conv_1/actions/ct_1");
    let body: serde_json::Value = serde_json::from_str(stream.body.as_deref().unwrap()).unwrap();
    assert_eq!(
        body["resolution"],
        json!({"type": "client_tool", "result": {"text": "hello"}})
    );
}

#[test]
fn c10_a_client_tool_still_open_in_a_loaded_conversation_is_reported_once() {
    let mut h = Harness::new(SessionConfig {
        conversation_id: Some("conv_1".into()),
        ..SessionConfig::default()
    });
    h.cmd(Command::Start);
    h.answer(Method::Get, "/agents", 200, &agents("{}", "{}"));
    let conv = format!(
        r#"{{"conversation":{{"id":"conv_1","agentId":"ops"}},"messages":[],"pendingActions":[{CLIENT_TOOL}]}}"#
    );
    h.answer(Method::Get, "/conversations/conv_1", 200, &conv);
    assert_eq!(client_tool_requests(&h).len(), 1);
    // A refetch of the same conversation does not ask again.
    h.cmd(Command::OpenConversation("conv_1".into()));
    h.answer(Method::Get, "/conversations/conv_1", 200, &conv);
    assert_eq!(client_tool_requests(&h).len(), 1);
}
