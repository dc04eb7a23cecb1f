//! The core's types whose `Clone` (or `PartialEq`) is written by hand rather than derived, so
//! that one copy is compiled for both crates: a clone keeps every field, and equal means what
//! the derived comparison meant.

use agent_chat_ui::core::actions::{CardState, Outcome};
use agent_chat_ui::core::wire::ExecutionStatus;
use agent_chat_ui::core::{
    ActionKind, ActionStatus, ApiError, ChatError, Chunk, Decision, Decline, ErrorContext,
    FileRejection, Message, Millis, PendingAction, Resolution, ResolveRefusal, ToolApproval,
    Transition, UploadLimits,
};
use serde_json::json;

fn approval() -> ToolApproval {
    ToolApproval {
        tool_name: "deploy".into(),
        args: json!({ "env": "prod" }),
        args_schema: Some(json!({ "type": "object" })),
        title: Some("Deploy".into()),
        summary: Some("Deploys the app".into()),
        read_only_args: vec!["env".into()],
        host_read_only_args: vec!["region".into()],
        args_editable: Some(false),
        decline: Some(Decline::Silent),
    }
}

/// Every field set to something other than its default, so a clone that forgot one differs.
fn record() -> PendingAction {
    PendingAction {
        id: "a1".into(),
        kind: ActionKind::ToolApproval(approval()),
        status: ActionStatus::Resolved,
        expires_at: Some(Millis(5)),
        resolution: Some(Resolution::ToolApproval {
            decision: Decision::Allow,
            approved_args: Some(json!({ "env": "staging" })),
            remember_for_session: true,
            comment: Some("ok".into()),
        }),
        resolved_by: Some("ada".into()),
        message_id: Some("m1".into()),
        tool_call_id: Some("t1".into()),
        created_at: Some(Millis(1)),
        version: Some(3),
        execution_status: Some("completed".into()),
        resolved_at: Some(Millis(2)),
        execution_result: Some(json!({ "url": "https://example.com" })),
        execution_error: Some("none".into()),
        side_effects: Some(json!(["writes"])),
        stage: Some(ExecutionStatus::Completed),
        execution_started_at: Some(Millis(3)),
        execution_ended_at: Some(Millis(4)),
        history: vec![Transition {
            status: "approved".into(),
            at: Some(Millis(2)),
            by: Some("ada".into()),
            version: Some(2),
        }],
    }
}

#[test]
fn d104_a_cloned_pending_action_keeps_every_field() {
    let action = record();
    assert_eq!(action.clone(), action);
    assert_eq!(approval().clone(), approval());
    // The comparison sees a changed field, so the line above can fail.
    let mut other = action.clone();
    other.execution_ended_at = None;
    assert_ne!(other, action);
}

#[test]
fn d104_a_cloned_message_keeps_every_field() {
    let mut message = Message::from_json(&json!({
        "id": "m1",
        "conversationId": "c1",
        "role": "assistant",
        "content": "Hello",
        "toolCallId": "t1",
        "name": "helper",
        "files": [{ "id": "f1", "name": "a.txt", "mimeType": "text/plain", "size": 3 }],
        "citations": [{ "id": "c", "title": "Source" }],
        "metadata": { "k": "v" },
        "actionStates": { "a1": { "status": "resolved" } },
        "createdAt": 1000,
        "updatedAt": 2000,
    }))
    .expect("a message");
    message.interrupted = true;
    assert!(!message.files.is_empty() && !message.citations.is_empty());
    assert!(!message.metadata.is_empty() && !message.action_states.is_empty());
    assert_eq!(message.clone(), message);
    let mut other = message.clone();
    other.interrupted = false;
    assert_ne!(other, message);
}

#[test]
fn d104_a_cloned_chat_error_is_the_same_error() {
    let errors = [
        ChatError::Api {
            context: ErrorContext::Send,
            error: ApiError {
                status: 503,
                code: Some("busy".into()),
                server_message: "Busy".into(),
                retry_after: Some(4),
            },
        },
        ChatError::Stream {
            code: Some("x".into()),
            message: "cut".into(),
        },
        ChatError::Network {
            context: ErrorContext::Delete,
            detail: "offline".into(),
        },
        ChatError::OtherOrigin {
            context: ErrorContext::File,
        },
        ChatError::BadResponse {
            context: ErrorContext::Rename,
            detail: "not JSON".into(),
        },
        ChatError::StreamCut,
        ChatError::NoAgent,
        ChatError::Files(vec![FileRejection::TooLarge {
            name: "big.bin".into(),
            max: 10,
        }]),
        ChatError::Storage { unreadable: 2 },
        ChatError::StorageLoad,
        ChatError::Refused(ResolveRefusal::Busy),
        ChatError::ChunkMissing(Chunk::Cards),
    ];
    for (i, error) in errors.iter().enumerate() {
        assert_eq!(&error.clone(), error);
        for other in &errors[i + 1..] {
            assert_ne!(&other.clone(), error);
        }
    }
}

#[test]
fn d104_cloned_upload_limits_keep_every_field() {
    let limits = UploadLimits {
        enabled: false,
        allowed_types: vec!["image/*".into()],
        agent_types: vec!["text/plain".into()],
        max_file_size: 7,
        max_files: 2,
    };
    assert_eq!(limits.clone(), limits);
    assert_ne!(UploadLimits::default(), limits);
}

#[test]
fn d104_card_states_are_equal_only_when_the_same() {
    let approved = CardState::Settled(Outcome::Approved { remembered: false });
    let states = [
        CardState::Waiting,
        CardState::Sending,
        CardState::Checking,
        approved.clone(),
        CardState::Settled(Outcome::Approved { remembered: true }),
    ];
    for (i, a) in states.iter().enumerate() {
        for (j, b) in states.iter().enumerate() {
            assert_eq!(a == b, i == j, "{a:?} against {b:?}");
        }
    }
    assert_eq!(approved.clone(), approved);
}
