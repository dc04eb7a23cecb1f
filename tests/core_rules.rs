//! Session rules from issue 13 ("the other rules a person hits"), one test (or a pair) per
//! rule, named `i13_…`: expiry during a stream, the dropped-send match, nothing sent
//! disappears, countdowns on the server's clock. No browser; fake responses and frames.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use agent_chat_ui::core::{CardState, Command, Input, Method, Millis, Outcome, Run, SessionConfig};
use common::{frame, Harness};

/// An approval that expires at `at` (epoch ms, the server's clock).
fn expiring(at: u64) -> String {
    format!(
        r#"{{"id":"act_9","type":"tool_approval","toolName":"restart","args":{{}},"expiresAt":{at}}}"#
    )
}

fn card_state(h: &Harness, id: &str) -> CardState {
    h.s.cards()
        .iter()
        .find(|c| c.action.id == id)
        .map(|c| c.state.clone())
        .expect("card exists")
}

/// A first message sent and its stream opened (conversation `conv_1` created).
fn streaming_first_message(text: &str) -> Harness {
    let mut h = Harness::started_with_agent(SessionConfig::default());
    h.cmd(Command::Send(text.into()));
    h.answer(Method::Post, "/conversations", 201, common::CONV);
    assert_eq!(h.streams.len(), 1, "the send opened its stream");
    h
}

// ----- issue 13: a card that expires locally while a stream is open does not end the turn ----

#[test]
fn i13_expiry_during_stream_keeps_the_turn() {
    let mut h = streaming_first_message("please do it");
    h.chunk(0, &frame(r#"{"type":"stream.start","timestamp":1,"conversationId":"conv_1","messageId":"msg_u"}"#));
    h.chunk(
        0,
        &frame(&format!(
            r#"{{"type":"stream.action_required","timestamp":2,"conversationId":"conv_1","action":{}}}"#,
            expiring(60_000)
        )),
    );
    h.chunk(
        0,
        &frame(r#"{"type":"stream.text","timestamp":3,"text":"Waiting for you"}"#),
    );
    assert_eq!(h.s.poll_timeout(), Some(Millis(60_000)));
    h.now = 60_000;
    h.feed(Input::Timeout);
    assert_eq!(
        card_state(&h, "act_9"),
        CardState::Settled(Outcome::Expired)
    );
    assert_eq!(
        h.s.run(),
        Run::Streaming,
        "the stream still runs: Stop stays"
    );
    assert!(h.s.is_streaming());
    assert!(!h.s.can_send(), "no second send while the reply streams");
    assert!(h.s.streaming().is_some(), "the partial reply stays drawn");

    // The stream goes on and ends normally: only then does the turn end.
    h.chunk(0, &frame(r#"{"type":"stream.done","timestamp":4,"conversationId":"conv_1","messageId":"msg_a1","content":"Waiting for you"}"#));
    h.close(0, None);
    assert_eq!(h.s.run(), Run::Idle);
    assert_eq!(h.s.messages().last().map(|m| m.id.as_str()), Some("msg_a1"));
}

#[test]
fn i13_expiry_of_a_paused_turn_still_ends_it() {
    // The counterpart: with no stream open the expired card releases the turn as before.
    let mut h = streaming_first_message("please do it");
    let action = expiring(60_000);
    h.chunk(
        0,
        &frame(&format!(
            r#"{{"type":"stream.done","timestamp":3,"conversationId":"conv_1","messageId":"msg_a1","content":"I need approval first.","status":"requires_action","pendingActions":[{action}]}}"#
        )),
    );
    h.close(0, None);
    assert_eq!(h.s.run(), Run::AwaitingAction);
    h.now = 60_000;
    h.feed(Input::Timeout);
    assert_eq!(h.s.run(), Run::Idle);
    assert!(h.s.can_send());
}
