//! Seed 004's action record read as the guide writes it: its own `status` is the stage the card
//! reads (approved, rejected, executing, completed, failed, expired), even without a
//! `resolution`, and a record of the guide's shape (`type` `send_email`, `recipient`) is an
//! approval of that operation, not an unknown entry to drop. No browser.
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::{
    restore_cards, ActionKind, CardStage, CardState, ExecutionStatus, Message, Outcome,
    PendingAction,
};
use serde_json::json;

/// The guide's example record, as written in seed 004.
const GUIDE_RECORD: &str = r#"{"id":"act_42","version":3,"status":"pending_approval","type":"send_email","recipient":"alex@example.com"}"#;

fn message_with(actions: &str) -> Message {
    serde_json::from_str(&format!(
        r#"{{"id":"m_a","role":"assistant","content":"Done?","metadata":{{"pendingActions":[{actions}]}}}}"#
    ))
    .unwrap()
}

#[test]
fn issue35_the_guides_example_record_is_an_approval_of_its_operation() {
    let action: PendingAction = serde_json::from_str(GUIDE_RECORD).unwrap();
    let ActionKind::ToolApproval(t) = &action.kind else {
        panic!(
            "the guide's record was not read as an approval: {:?}",
            action.kind
        );
    };
    assert_eq!(t.tool_name, "send_email");
    assert_eq!(t.args, json!({"recipient":"alex@example.com"}));
    assert!(action.is_open());
    assert_eq!(action.version, Some(3));
    assert_eq!(action.stage, Some(ExecutionStatus::PendingApproval));
    // Read back from its own canonical form, it is the same action.
    let again = PendingAction::from_json(&action.to_json()).unwrap();
    assert_eq!(again, action);
    // It waits: restored from the server's list, it is an open card.
    let cards = restore_cards(&[message_with("")], Some(vec![action]), &[]);
    assert_eq!(cards.len(), 1);
    assert_eq!(cards[0].state, CardState::Waiting);
    assert_eq!(CardStage::of(&cards[0]), CardStage::PendingApproval);
}

#[test]
fn issue35_explicit_args_of_a_guide_record_win_over_its_other_fields() {
    let action = PendingAction::from_json(&json!({
        "id":"act_1","status":"pending_approval","type":"refund",
        "args":{"order":"A-1","amount":120},"title":"Refund order A-1","note":"ignored"
    }))
    .unwrap();
    let ActionKind::ToolApproval(t) = &action.kind else {
        panic!("not an approval: {:?}", action.kind);
    };
    assert_eq!(t.args, json!({"order":"A-1","amount":120}));
    assert_eq!(t.title.as_deref(), Some("Refund order A-1"));
}

#[test]
fn issue35_an_unknown_type_without_a_guide_status_is_still_ignored() {
    for v in [
        json!({"id":"x1","type":"file_upload","status":"pending","path":"/a"}),
        json!({"id":"x2","type":"file_upload","path":"/a"}),
        json!({"id":"x3","type":"survey","status":"approved","questions":[]}),
    ] {
        let action = PendingAction::from_json(&v).unwrap();
        assert!(
            matches!(action.kind, ActionKind::Unknown(_)),
            "{v} read as {:?}",
            action.kind
        );
    }
}

#[test]
fn issue35_a_record_without_resolution_reads_its_own_status() {
    let record = |id: &str, status: &str, extra: &str| {
        format!(
            r#"{{"id":"{id}","version":3,"status":"{status}","type":"send_email","recipient":"alex@example.com"{extra}}}"#
        )
    };
    let records = [
        record("s1", "approved", ""),
        record("s2", "rejected", ""),
        record("s3", "executing", ""),
        record("s4", "completed", ""),
        record("s5", "failed", r#","executionError":"SMTP refused""#),
        record("s6", "expired", ""),
        // The same stages on a tool_approval record of this project's own wire.
        r#"{"id":"t1","type":"tool_approval","toolName":"deploy","status":"completed"}"#.into(),
        r#"{"id":"t2","type":"tool_approval","toolName":"deploy","status":"rejected"}"#.into(),
    ];
    let cards = restore_cards(&[message_with(&records.join(","))], Some(vec![]), &[]);
    let stage = |id: &str| {
        CardStage::of(
            cards
                .iter()
                .find(|c| c.action.id == id)
                .unwrap_or_else(|| panic!("{id} was dropped")),
        )
    };
    assert_eq!(stage("s1"), CardStage::Approved { edited: false });
    assert_eq!(stage("s2"), CardStage::Denied);
    assert_eq!(stage("s3"), CardStage::Executing);
    assert_eq!(stage("s4"), CardStage::Completed);
    assert_eq!(
        stage("s5"),
        CardStage::Failed {
            message: Some("SMTP refused".into())
        }
    );
    assert_eq!(stage("s6"), CardStage::Expired);
    assert_eq!(stage("t1"), CardStage::Completed);
    assert_eq!(stage("t2"), CardStage::Denied);
}

#[test]
fn issue35_a_decided_record_listed_among_the_waiting_ones_reads_its_stage() {
    let executing: PendingAction = serde_json::from_str(
        r#"{"id":"act_42","version":3,"status":"executing","type":"send_email","recipient":"alex@example.com"}"#,
    )
    .unwrap();
    let cards = restore_cards(&[message_with("")], Some(vec![executing]), &[]);
    assert_eq!(cards.len(), 1);
    assert_eq!(
        cards[0].state,
        CardState::Settled(Outcome::Approved { remembered: false })
    );
    assert_eq!(CardStage::of(&cards[0]), CardStage::Executing);
}

#[test]
fn issue35_a_resolution_still_wins_over_the_status_word() {
    let o = Outcome::from_settled(
        agent_chat_ui::core::ActionStatus::Resolved,
        Some(&agent_chat_ui::core::Resolution::ToolApproval {
            decision: agent_chat_ui::core::Decision::Deny,
            approved_args: None,
            remember_for_session: false,
            comment: Some("not now".into()),
        }),
        None,
        Some(ExecutionStatus::Approved),
    );
    assert_eq!(
        o,
        Outcome::Denied {
            comment: Some("not now".into())
        }
    );
    // A record that says nothing of how it ended still reads "Answered".
    let plain = Outcome::from_settled(
        agent_chat_ui::core::ActionStatus::Resolved,
        None,
        None,
        None,
    );
    assert_eq!(plain, Outcome::answered());
}
