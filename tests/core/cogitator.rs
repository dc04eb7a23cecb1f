//! Issue 15, seed 001: a Cogitator server behind the gateway (PROTOCOL §11.1, C31). The agents
//! come from `GET /agents`; a send runs `POST /agents/:name/stream` (or `/run`) in the
//! conversation's thread; a run that pauses (`status: "paused"`, `pendingApprovals`) draws
//! answerable cards with their side effects; a new message declines the waiting calls
//! (composer mode cancel); controls the dialect cannot express are not offered. Recorded
//! fixtures, split at every byte (C22); no browser.
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::transport::cogitator::{self, Decoder, THREAD_KEY};
use agent_chat_ui::core::transport::reply::Delta;
use agent_chat_ui::core::transport::TransportKind;
use agent_chat_ui::core::{
    ActionKind, CardState, ChatError, Command, ComposerMode, ComposerState, HttpResponse, Input,
    Method, Outcome, Resolution, Run,
};
use serde_json::{json, Value};

use crate::common::cogitator as fixtures;
use crate::common::link;
use fixtures::*;
use link::{text_of, Link};

/// Every way of cutting `bytes` in two reads the same deltas and leaves the same reply.
fn same_at_every_byte(bytes: &[u8]) -> (Vec<Delta>, agent_chat_ui::core::transport::reply::Reply) {
    let mut whole = Decoder::new();
    let mut expected = whole.push(bytes);
    expected.extend(whole.finish());
    let ending = whole.ending();
    for cut in 1..bytes.len() {
        let mut d = Decoder::new();
        let mut got = d.push(&bytes[..cut]);
        got.extend(d.push(&bytes[cut..]));
        got.extend(d.finish());
        assert_eq!(got, expected, "split at {cut}");
        assert_eq!(d.ending(), ending, "split at {cut}");
    }
    (expected, ending)
}

#[test]
fn i15_c31_a_paused_cogitator_stream_reads_the_same_split_at_every_byte() {
    let stream = paused_stream("conv_1", &[approval("call_1", "A-1")]);
    let (deltas, ending) = same_at_every_byte(stream.as_bytes());
    assert_eq!(text_of(&deltas), "Let me look up the order.");
    assert!(!deltas.iter().any(|d| matches!(d, Delta::Error(_))));
    // C22: the unreadable frame is skipped for the log, and the reply goes on.
    assert_eq!(
        deltas
            .iter()
            .filter(|d| matches!(d, Delta::Skipped(_)))
            .count(),
        1
    );
    assert_eq!(ending.tool_calls.len(), 1);
    assert_eq!(ending.tool_calls[0].name, "lookup_order");
    assert_eq!(ending.tool_calls[0].args, json!({"order": "A-1"}));
    assert_eq!(ending.usage.as_ref().unwrap()["totalTokens"], 20);
    assert_eq!(ending.keep[THREAD_KEY], "conv_1");
    let actions = ending.pending_actions.expect("a paused run waits");
    assert_eq!(
        actions,
        json!([{ "id": "call_1", "type": "tool_approval", "status": "pending",
                 "toolCallId": "call_1", "toolName": "refund",
                 "args": { "order": "A-1", "amount": 40 },
                 "summary": "Refund 40 EUR for order A-1",
                 "sideEffects": ["payment", "email to the customer"] }])
    );
}

/// Seed 001 row 11: a server that announces the pause only with `approval-required` (its
/// `finish` says `paused`, or nothing of the status, without repeating the calls) pauses the
/// run on those calls all the same, at every byte split.
#[test]
fn i35_s001_row11_an_approval_required_event_alone_pauses_the_run_at_every_byte() {
    let approvals = [approval("call_1", "A-1")];
    for finish in [
        json!({"type": "finish", "messageId": "msg_1", "threadId": "conv_1", "status": "paused"}),
        json!({"type": "finish", "messageId": "msg_1", "threadId": "conv_1"}),
    ] {
        let events = [
            json!({"type": "start", "messageId": "msg_1", "threadId": "conv_1"}),
            json!({"type": "text-delta", "id": "txt_1", "delta": "Let me look."}),
            json!({"type": "approval-required", "threadId": "conv_1", "approvals": approvals}),
            finish,
        ];
        let mut text: String = events.iter().map(|e| format!("data: {e}\n\n")).collect();
        text.push_str("data: [DONE]\n\n");
        let (deltas, ending) = same_at_every_byte(text.as_bytes());
        assert_eq!(text_of(&deltas), "Let me look.");
        let actions = ending.pending_actions.expect("the run waits");
        assert_eq!(actions[0]["id"], "call_1");
        assert_eq!(actions[0]["summary"], "Refund 40 EUR for order A-1");
    }
}

#[test]
fn i15_c31_a_whole_run_answer_reads_the_same_split_at_every_byte() {
    let body = json!({ "output": "Let me look up the order.", "threadId": "conv_2",
        "usage": {"inputTokens": 1, "outputTokens": 2, "totalTokens": 3},
        "toolCalls": [{"id": "tool_lookup", "name": "lookup_order", "arguments": {"order": "A-1"}}],
        "status": "paused", "traceId": "t",
        "pendingApprovals": [approval("call_1", "A-1"), approval("call_2", "A-2"),
                             {"toolName": "no_id"}] })
    .to_string();
    // A server that answers whole on the streaming path is read the same.
    let (deltas, ending) = same_at_every_byte(format!("\n{body}").as_bytes());
    assert_eq!(text_of(&deltas), "Let me look up the order.");
    assert_eq!(ending.content, "Let me look up the order.");
    assert_eq!(ending.tool_calls[0].args, json!({"order": "A-1"}));
    let ids: Vec<&str> = ending
        .pending_actions
        .as_ref()
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        ["call_1", "call_2"],
        "an approval without a call id cannot be answered"
    );
    let read = cogitator::read_reply(&body).unwrap();
    assert_eq!(read.content, ending.content);
    assert_eq!(read.pending_actions, ending.pending_actions);
    assert!(cogitator::read_reply("[1]").is_err());
    assert_eq!(
        cogitator::read_reply(r#"{"error":{"message":"Nope","code":"X"}}"#),
        Err("Nope".to_owned())
    );
}

#[test]
fn i15_c31_a_run_that_pauses_draws_answerable_cards_without_what_the_dialect_cannot_say() {
    let mut l = started();
    assert_eq!(l.session.agents()[0].id, "support");
    assert_eq!(
        l.session.agents()[0].description.as_deref(),
        Some("Refunds orders")
    );
    l.cmd(Command::Send("Refund order A-1".into()));
    let (req, streamed) = l.wire.last().unwrap().clone();
    assert!(streamed);
    assert_eq!(req.path, "/agents/support/stream");
    let conversation = l.session.conversation().unwrap().id.clone();
    assert_eq!(
        body_of(&l),
        json!({"input": "Refund order A-1", "threadId": conversation}),
        "the thread is the conversation"
    );
    l.stream(&paused_stream(&conversation, &[approval("call_1", "A-1")]));
    assert_eq!(
        l.session.run(),
        Run::AwaitingAction,
        "the turn waits on the card"
    );
    let last = l.session.messages().last().unwrap().clone();
    assert_eq!(last.content.display_text(), "Let me look up the order.");
    assert_eq!(last.tool_call_details()[0].name, "lookup_order");
    let cards = l.session.cards();
    assert_eq!(cards.len(), 1);
    let card = &cards[0];
    assert_eq!(card.action.id, "call_1");
    match &card.action.kind {
        ActionKind::ToolApproval(t) => {
            assert_eq!(t.tool_name, "refund");
            assert_eq!(t.args, json!({"order": "A-1", "amount": 40}));
            assert_eq!(t.summary.as_deref(), Some("Refund 40 EUR for order A-1"));
        }
        other => panic!("expected a tool approval, got {other:?}"),
    }
    assert_eq!(
        card.action.side_effects,
        Some(json!(["payment", "email to the customer"]))
    );
    assert!(l.session.can_resolve(card), "Cogitator takes answers");
    // §11.1: a new message declines, and what the dialect cannot say is not offered.
    assert_eq!(l.session.composer_mode(), ComposerMode::Cancel);
    assert_eq!(l.session.composer_state(), ComposerState::Cancel);
    assert!(l.session.can_send());
    assert!(!l.session.argument_edit_allowed());
    assert!(!l.session.remember_allowed());
    assert!(card.action.expires_at.is_none());
    // Kept with the reply, so a reload shows the card again.
    let t = &l.threads()[0];
    assert_eq!(
        t.messages[1]["metadata"]["pendingActions"][0]["id"],
        "call_1"
    );
}

#[test]
fn i15_c31_a_new_message_declines_the_waiting_calls_and_a_reload_says_so() {
    let mut l = started();
    l.cmd(Command::Send("Refund both orders".into()));
    let conversation = l.session.conversation().unwrap().id.clone();
    l.stream(&paused_stream(
        &conversation,
        &[approval("call_1", "A-1"), approval("call_2", "A-2")],
    ));
    assert_eq!(l.session.cards().len(), 2);
    let before = l.wire.len();
    l.cmd(Command::Send("Never mind, what is my balance?".into()));
    assert_eq!(l.wire.len(), before + 1, "the new message goes out at once");
    assert_eq!(body_of(&l)["input"], "Never mind, what is my balance?");
    l.stream(concat!(
        "data: {\"type\":\"start\",\"messageId\":\"m2\"}\n\n",
        "data: {\"type\":\"text-delta\",\"id\":\"t\",\"delta\":\"It is 0 EUR.\"}\n\n",
        "data: {\"type\":\"finish\",\"messageId\":\"m2\",\"status\":\"completed\"}\n\n",
    ));
    assert!(l
        .session
        .cards()
        .iter()
        .all(|c| c.state == CardState::Settled(Outcome::Cancelled)));
    // The declined calls are recorded on the message they were asked under.
    let stored = l.stored_threads();
    let t = &stored[0];
    assert_eq!(
        t.messages[1]["actionStates"],
        json!({"call_1": {"status": "cancelled"}, "call_2": {"status": "cancelled"}})
    );
    let mut again = Link::new(TransportKind::Cogitator, stored);
    again.cmd(Command::Start);
    let req = again.last_wire();
    again.wire_input(Input::Response {
        id: req.id,
        result: Ok(HttpResponse {
            status: 200,
            body: AGENTS.into(),
            date: None,
            retry_after: None,
        }),
    });
    again.cmd(Command::OpenConversation(conversation));
    assert_eq!(again.session.messages().len(), 4);
    assert_eq!(again.session.cards().len(), 2);
    assert!(again
        .session
        .cards()
        .iter()
        .all(|c| c.state == CardState::Settled(Outcome::Cancelled)));
    assert_eq!(again.session.composer_state(), ComposerState::Normal);
}

#[test]
fn i15_c31_errors_keep_the_servers_wording() {
    // In the stream: the turn fails with the server's sentence, once.
    let mut d = Decoder::new();
    let mut out = d.push(
        concat!(
            "data: {\"type\":\"text-delta\",\"delta\":\"Look\"}\n\n",
            "data: {\"type\":\"error\",\"message\":\"The model provider is unavailable.\",\"code\":\"LLM_UNAVAILABLE\"}\n\n",
            "data: {\"type\":\"error\",\"message\":\"again\"}\n\n",
        )
        .as_bytes(),
    );
    out.extend(d.finish());
    assert_eq!(
        out,
        [
            Delta::Text("Look".into()),
            Delta::Error(agent_chat_ui::core::transport::failure::Failure::new(
                agent_chat_ui::core::transport::failure::FailureKind::AgentError,
                Some("The model provider is unavailable.")
            ))
        ]
    );

    let mut l = started();
    l.cmd(Command::Send("Hello".into()));
    l.stream("data: {\"type\":\"error\",\"message\":\"Rate limit reached\",\"code\":\"LLM_RATE_LIMITED\"}\n\n");
    assert!(
        matches!(l.session.error(), Some(ChatError::Stream { message, .. }) if message.contains("Rate limit reached")),
        "got {:?}",
        l.session.error()
    );

    // An HTTP refusal of a whole run: the envelope keeps the server's sentence.
    let mut l = started();
    l.without_streaming();
    l.cmd(Command::Send("Hello".into()));
    let (req, streamed) = l.wire.last().unwrap().clone();
    assert!(!streamed);
    assert_eq!(req.path, "/agents/support/run");
    l.wire_input(Input::Response {
        id: req.id,
        result: Ok(HttpResponse {
            status: 503,
            body: r#"{"error":{"message":"The model provider is unavailable.","code":"LLM_UNAVAILABLE"}}"#.into(),
            date: None,
            retry_after: None,
        }),
    });
    let shown = format!("{:?}", l.session.error());
    assert!(
        shown.contains("The model provider is unavailable."),
        "got {shown}"
    );

    // Refusals of a resume, in the agent server's codes (§9.10).
    let forbidden = cogitator::action_error_envelope(
        403,
        r#"{"error":{"message":"Thread t belongs to another user","code":"THREAD_ACCESS_DENIED"}}"#,
    );
    let v: Value = serde_json::from_str(&forbidden).unwrap();
    assert_eq!(v["error"]["code"], "action_forbidden");
    assert_eq!(v["error"]["message"], "Thread t belongs to another user");
    let gone = cogitator::action_error_envelope(
        409,
        r#"{"error":{"message":"Thread t has no paused run","code":"RUN_NOT_PAUSED"}}"#,
    );
    let v: Value = serde_json::from_str(&gone).unwrap();
    assert_eq!(v["error"]["code"], "action_not_pending");
    let other = cogitator::action_error_envelope(500, "upstream broke");
    let v: Value = serde_json::from_str(&other).unwrap();
    assert_eq!(v["error"]["message"], "upstream broke");
}

#[test]
fn issue_38_a_200_answer_that_is_an_error_object_shows_the_servers_words() {
    let mut l = started();
    l.without_streaming();
    l.cmd(Command::Send("Hello".into()));
    let (req, _) = l.wire.last().unwrap().clone();
    l.wire_input(Input::Response {
        id: req.id,
        result: Ok(HttpResponse {
            status: 200,
            body: r#"{"error":{"message":"Your workspace ran out of credits."}}"#.into(),
            date: None,
            retry_after: None,
        }),
    });
    let shown = l
        .session
        .error()
        .map(|e| e.describe(&agent_chat_ui::core::Catalog::new("en")));
    assert_eq!(shown.as_deref(), Some("Your workspace ran out of credits."));
}

#[test]
fn i15_c31_decisions_and_the_resume_body() {
    assert_eq!(
        cogitator::decision(&json!({"decision": "allow"})),
        Some(json!({"approved": true}))
    );
    assert_eq!(
        cogitator::decision(&json!({"decision": "deny", "comment": " Too much "})),
        Some(json!({"approved": false, "reason": "Too much"}))
    );
    assert_eq!(
        cogitator::decision(&json!({"decision": "deny"})),
        Some(json!({"approved": false, "reason": cogitator::DECLINED}))
    );
    assert_eq!(cogitator::decision(&json!({"answers": {}})), None);
    assert_eq!(
        cogitator::resume_body("conv_1", "call_1", json!({"approved": true})),
        json!({"threadId": "conv_1", "decisions": {"call_1": {"approved": true}}})
    );
    assert_eq!(cogitator::resume_path("a b"), "/agents/a%20b/resume");
    assert_eq!(cogitator::run_path("support", false), "/agents/support/run");
    assert_eq!(
        TransportKind::parse("Cogitator"),
        Some(TransportKind::Cogitator)
    );
    assert_eq!(TransportKind::Cogitator.as_str(), "cogitator");
    assert!(TransportKind::Cogitator.can_resolve());
}

#[test]
fn i15_c31_approving_resumes_the_run_and_its_answer_follows_after_a_reload_too() {
    let (mut l, conversation) = paused_on(&[approval("call_1", "A-1")]);
    resolve(&mut l, "call_1", Resolution::allow());
    let req = l.last_wire();
    assert_eq!(
        (req.method, req.path.as_str()),
        (Method::Post, "/agents/support/resume")
    );
    assert_eq!(
        body_of(&l),
        json!({"threadId": conversation, "decisions": {"call_1": {"approved": true}}})
    );
    answer_wire(&mut l, 200, &completed("Refunded 40 EUR for order A-1."));
    assert_eq!(
        state_of(&l, "call_1"),
        CardState::Settled(Outcome::Approved { remembered: false })
    );
    assert_eq!(
        l.session.messages().last().unwrap().content.display_text(),
        "Refunded 40 EUR for order A-1."
    );
    assert_eq!(l.session.composer_state(), ComposerState::Normal);
    // A reload: the card reads approved, the continuation is there.
    let stored = l.stored_threads();
    let mut again = Link::new(TransportKind::Cogitator, stored);
    again.cmd(Command::Start);
    let agents = again.last_wire();
    again.wire_input(Input::Response {
        id: agents.id,
        result: Ok(HttpResponse {
            status: 200,
            body: AGENTS.into(),
            date: None,
            retry_after: None,
        }),
    });
    again.cmd(Command::OpenConversation(conversation));
    assert!(matches!(
        state_of(&again, "call_1"),
        CardState::Settled(Outcome::Approved { .. })
    ));
    assert_eq!(
        again
            .session
            .messages()
            .last()
            .unwrap()
            .content
            .display_text(),
        "Refunded 40 EUR for order A-1."
    );

    // A deny sends the person's reason.
    let (mut l, conversation) = paused_on(&[approval("call_9", "A-9")]);
    resolve(&mut l, "call_9", Resolution::deny(Some("Too much".into())));
    assert_eq!(
        body_of(&l),
        json!({"threadId": conversation,
               "decisions": {"call_9": {"approved": false, "reason": "Too much"}}})
    );
}

#[test]
/// Each call decided on its own card is its own resume; the server keeps the run paused on
/// the calls without a decision. ("Approve all" is one resume: tests/core/cogitator_batch.rs.)
fn i15_c31_calls_decided_one_by_one_keep_the_run_paused_until_the_last() {
    let (mut l, conversation) = paused_on(&[approval("call_1", "A-1"), approval("call_2", "A-2")]);
    resolve(&mut l, "call_1", Resolution::allow());
    assert_eq!(
        body_of(&l),
        json!({"threadId": conversation, "decisions": {"call_1": {"approved": true}}})
    );
    // The server decides that one and stays paused on the other.
    let still = json!({"output": "", "threadId": conversation, "status": "paused",
        "toolCalls": [], "usage": {"inputTokens": 0, "outputTokens": 0, "totalTokens": 0},
        "pendingApprovals": [approval("call_2", "A-2")]});
    answer_wire(&mut l, 200, &still.to_string());
    assert!(matches!(
        state_of(&l, "call_1"),
        CardState::Settled(Outcome::Approved { .. })
    ));
    assert_eq!(state_of(&l, "call_2"), CardState::Waiting);
    resolve(&mut l, "call_2", Resolution::allow());
    assert_eq!(
        body_of(&l),
        json!({"threadId": conversation, "decisions": {"call_2": {"approved": true}}}),
        "the second call is its own resume"
    );
    // Answered as JSON (the browser hands a 2xx that is not an event stream over whole).
    let id = l.last_wire().id;
    l.wire_input(Input::Response {
        id,
        result: Ok(HttpResponse {
            status: 200,
            body: completed("Refunded 40 EUR for order A-1. Refunded 40 EUR for order A-2."),
            date: None,
            retry_after: None,
        }),
    });
    assert!(matches!(
        state_of(&l, "call_2"),
        CardState::Settled(Outcome::Approved { .. })
    ));
    assert_eq!(
        l.session.messages().last().unwrap().content.display_text(),
        "Refunded 40 EUR for order A-1. Refunded 40 EUR for order A-2."
    );
    assert_eq!(l.session.composer_state(), ComposerState::Normal);
}

#[test]
fn i15_c31_refused_resumes_read_as_the_agent_servers_codes() {
    // Another user's run: forbidden, the card waits again, the server's sentence is kept.
    let (mut l, _) = paused_on(&[approval("call_1", "A-1")]);
    resolve(&mut l, "call_1", Resolution::allow());
    answer_wire(
        &mut l,
        403,
        r#"{"error":{"message":"Thread t belongs to another user","code":"THREAD_ACCESS_DENIED"}}"#,
    );
    assert_eq!(state_of(&l, "call_1"), CardState::Waiting);
    assert_eq!(
        l.session.error().and_then(ChatError::code),
        Some("action_forbidden")
    );
    assert!(format!("{:?}", l.session.error()).contains("belongs to another user"));
    // Nothing paused any more: answered elsewhere.
    let (mut l, _) = paused_on(&[approval("call_1", "A-1")]);
    resolve(&mut l, "call_1", Resolution::allow());
    answer_wire(
        &mut l,
        409,
        r#"{"error":{"message":"Thread t has no paused run","code":"RUN_NOT_PAUSED"}}"#,
    );
    assert_eq!(
        state_of(&l, "call_1"),
        CardState::Settled(Outcome::answered())
    );
    assert!(l.session.can_send());
}

/// The gate, not the card, keeps what this dialect cannot say out of an answer (§11.1):
/// edited arguments would be dropped by the resume (the proposal would run while the card
/// said the edit ran), so an edit from any caller (a slot, the store) is refused and nothing
/// is sent; "remember for this chat" is taken off, so the card never claims it.
#[test]
fn i15_c31_an_edit_is_refused_and_remember_taken_off_where_cogitator_cannot_say_them() {
    let (mut l, _) = paused_on(&[approval("call_1", "A-1")]);
    let before = l.wire.len();
    resolve(
        &mut l,
        "call_1",
        Resolution::ToolApproval {
            decision: agent_chat_ui::core::Decision::Allow,
            approved_args: Some(json!({"order": "A-999"})),
            remember_for_session: false,
            comment: None,
        },
    );
    assert_eq!(l.wire.len(), before, "nothing reached the wire");
    assert_eq!(state_of(&l, "call_1"), CardState::Waiting);
    assert!(matches!(
        l.session.error(),
        Some(ChatError::Refused(
            agent_chat_ui::core::ResolveRefusal::EditNotOffered
        ))
    ));
    resolve(
        &mut l,
        "call_1",
        Resolution::ToolApproval {
            decision: agent_chat_ui::core::Decision::Allow,
            approved_args: None,
            remember_for_session: true,
            comment: None,
        },
    );
    assert_eq!(l.wire.len(), before + 1, "the plain approval goes out");
    answer_wire(&mut l, 200, &completed("Refunded A-1."));
    assert_eq!(
        state_of(&l, "call_1"),
        CardState::Settled(Outcome::Approved { remembered: false }),
        "the card does not claim what the server cannot do"
    );
}
