//! Issue 35, seed 001 row 6: "`defaultDecision` answers every waiting call at once
//! (`{ approved: true }` for 'approve all')". "Approve all" and "Deny all" over Cogitator are
//! one resume: `defaultDecision` when they decide every call the run waits on, and every card
//! of the batch settles from that one request (its own answer, which the session still makes,
//! is answered in the page). A call decided on its own card stays its own resume
//! (tests/core/cogitator.rs). No browser.
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::transport::cogitator::{batch_resume_body, waiting_calls};
use agent_chat_ui::core::transport::TransportKind;
use agent_chat_ui::core::{
    CardState, ChatError, Command, ComposerState, HttpResponse, Input, Outcome, SessionEvent, Shown,
};
use serde_json::{json, Value};

use crate::common::cogitator as fixtures;
use crate::common::link;
use fixtures::*;
use link::Link;

/// "Approve all" (`approve`) or "Deny all" on every card the chat shows.
fn decide_all(l: &mut Link, approve: bool) {
    let shown: Vec<Shown> = l
        .session
        .cards()
        .iter()
        .map(|c| Shown::of(&c.action))
        .collect();
    l.cmd(Command::ResolveAll { shown, approve });
}

/// The ids of the cards the host was told were answered, in order.
fn resolved_events(l: &Link) -> Vec<String> {
    l.events
        .iter()
        .filter_map(|e| match e {
            SessionEvent::ActionResolved { action_id, .. } => Some(action_id.clone()),
            _ => None,
        })
        .collect()
}

const BOTH: &str = "Refunded 40 EUR for order A-1. Refunded 40 EUR for order A-2.";

#[test]
fn i35_s001_row6_approve_all_is_one_resume_with_default_decision() {
    for streaming in [true, false] {
        let (mut l, conversation) =
            paused_on(&[approval("call_1", "A-1"), approval("call_2", "A-2")]);
        if !streaming {
            l.without_streaming();
        }
        let before = l.wire.len();
        decide_all(&mut l, true);
        assert_eq!(
            l.wire.len(),
            before + 1,
            "one resume (streaming {streaming})"
        );
        assert_eq!(
            body_of(&l),
            json!({"threadId": conversation, "defaultDecision": {"approved": true}})
        );
        answer_wire(&mut l, 200, &completed(BOTH));
        assert_eq!(
            l.wire.len(),
            before + 1,
            "the second card needs no request of its own (streaming {streaming})"
        );
        for id in ["call_1", "call_2"] {
            assert_eq!(
                state_of(&l, id),
                CardState::Settled(Outcome::Approved { remembered: false }),
                "{id} (streaming {streaming})"
            );
        }
        assert_eq!(resolved_events(&l), ["call_1", "call_2"]);
        assert_eq!(
            l.session.messages().last().unwrap().content.display_text(),
            BOTH
        );
        assert_eq!(l.session.composer_state(), ComposerState::Normal);
        assert!(l.session.error().is_none());

        // A reload reads both approved: the page kept the answers.
        let mut again = Link::new(TransportKind::Cogitator, l.stored_threads());
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
        for id in ["call_1", "call_2"] {
            assert!(
                matches!(
                    state_of(&again, id),
                    CardState::Settled(Outcome::Approved { .. })
                ),
                "{id} after a reload"
            );
        }
    }
}

#[test]
fn i35_s001_row6_deny_all_is_one_resume_with_default_decision_and_its_reason() {
    let (mut l, conversation) = paused_on(&[
        approval("call_1", "A-1"),
        approval("call_2", "A-2"),
        approval("call_3", "A-3"),
    ]);
    decide_all(&mut l, false);
    assert_eq!(
        body_of(&l),
        json!({"threadId": conversation,
               "defaultDecision": {"approved": false, "reason": "Declined by the user."}})
    );
    let before = l.wire.len();
    answer_wire(&mut l, 200, &completed("I did not refund anything."));
    assert_eq!(l.wire.len(), before);
    for id in ["call_1", "call_2", "call_3"] {
        assert!(
            matches!(state_of(&l, id), CardState::Settled(Outcome::Denied { .. })),
            "{id} is {:?}",
            state_of(&l, id)
        );
    }
}

/// The server refuses the one resume: no card of the batch settles, every one waits again
/// (none reads as decided while the run was not resumed), and nothing more is sent.
#[test]
fn i35_s001_row6_a_refused_approve_all_leaves_every_card_waiting() {
    let (mut l, _) = paused_on(&[approval("call_1", "A-1"), approval("call_2", "A-2")]);
    decide_all(&mut l, true);
    let before = l.wire.len();
    answer_wire(
        &mut l,
        403,
        r#"{"error":{"message":"Thread t belongs to another user","code":"THREAD_ACCESS_DENIED"}}"#,
    );
    assert_eq!(l.wire.len(), before);
    for id in ["call_1", "call_2"] {
        assert_eq!(state_of(&l, id), CardState::Waiting, "{id}");
    }
    assert_eq!(
        l.session.error().and_then(ChatError::code),
        Some("action_forbidden")
    );
    assert!(resolved_events(&l).is_empty());
}

/// One call decided on its own card is its own resume; the run pauses again on the other two,
/// and "Approve all" on those decides every call the run still waits on: `defaultDecision`.
#[test]
fn i35_s001_row6_approve_all_after_one_call_was_decided_alone() {
    let (mut l, conversation) = paused_on(&[
        approval("call_1", "A-1"),
        approval("call_2", "A-2"),
        approval("call_3", "A-3"),
    ]);
    let card = l.session.cards()[0].action.clone();
    l.cmd(Command::Resolve {
        shown: Shown::of(&card),
        resolution: agent_chat_ui::core::Resolution::deny(Some("Not this one".into())),
    });
    assert_eq!(
        body_of(&l),
        json!({"threadId": conversation,
               "decisions": {"call_1": {"approved": false, "reason": "Not this one"}}})
    );
    let still = json!({"output": "", "threadId": conversation, "status": "paused",
        "toolCalls": [], "usage": {"inputTokens": 0, "outputTokens": 0, "totalTokens": 0},
        "pendingApprovals": [approval("call_2", "A-2"), approval("call_3", "A-3")]});
    answer_wire(&mut l, 200, &still.to_string());
    assert!(matches!(
        state_of(&l, "call_1"),
        CardState::Settled(Outcome::Denied { .. })
    ));
    let open: Vec<Shown> = l
        .session
        .cards()
        .iter()
        .filter(|c| c.state == CardState::Waiting)
        .map(|c| Shown::of(&c.action))
        .collect();
    assert_eq!(open.len(), 2);
    l.cmd(Command::ResolveAll {
        shown: open,
        approve: true,
    });
    assert_eq!(
        body_of(&l),
        json!({"threadId": conversation, "defaultDecision": {"approved": true}})
    );
    answer_wire(&mut l, 200, &completed("Refunded orders A-2 and A-3."));
    for id in ["call_2", "call_3"] {
        assert!(
            matches!(
                state_of(&l, id),
                CardState::Settled(Outcome::Approved { .. })
            ),
            "{id}"
        );
    }
}

/// The body itself: a default only when every waiting call is decided; the calls decided
/// otherwise than the default keep their own decision.
#[test]
fn i35_s001_row6_a_default_only_for_every_waiting_call_and_differing_calls_keep_their_own() {
    let yes = json!({"approved": true});
    let no = json!({"approved": false, "reason": "too much"});
    let decided = |list: &[(&str, &Value)]| -> Vec<(String, Value)> {
        list.iter()
            .map(|(id, d)| (id.to_string(), (*d).clone()))
            .collect()
    };
    let waiting: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
    // All the same, all waiting calls: the default alone.
    assert_eq!(
        batch_resume_body(
            "t",
            &decided(&[("a", &yes), ("b", &yes), ("c", &yes)]),
            &waiting
        ),
        json!({"threadId": "t", "defaultDecision": yes})
    );
    // One differs: the default is what most share; the other keeps its own.
    assert_eq!(
        batch_resume_body(
            "t",
            &decided(&[("a", &yes), ("b", &no), ("c", &yes)]),
            &waiting
        ),
        json!({"threadId": "t", "defaultDecision": yes, "decisions": {"b": no}})
    );
    // A tie: the first call's decision is the default.
    assert_eq!(
        batch_resume_body("t", &decided(&[("a", &no), ("b", &yes)]), &waiting[..2]),
        json!({"threadId": "t", "defaultDecision": no, "decisions": {"b": yes}})
    );
    // A waiting call left undecided: no default (it would answer that call too).
    assert_eq!(
        batch_resume_body("t", &decided(&[("a", &yes), ("b", &yes)]), &waiting),
        json!({"threadId": "t", "decisions": {"a": yes, "b": yes}})
    );

    // The calls a stored reply still waits on: pending entries without a kept answer.
    let messages = [
        json!({"id": "m1", "role": "assistant",
               "metadata": {"pendingActions": [{"id": "a"}, {"id": "x", "status": "resolved"}]}}),
        json!({"id": "m2", "role": "assistant",
               "metadata": {"pendingActions": [{"id": "b", "status": "pending"}, {"id": "c"},
                                               {"id": "d"}]},
               "actionStates": {"d": {"status": "resolved"}}}),
    ];
    assert_eq!(waiting_calls(&messages, "a"), ["a"]);
    assert_eq!(waiting_calls(&messages, "c"), ["b", "c"]);
    assert!(waiting_calls(&messages, "zzz").is_empty());
}
