//! Seed 004's edit policy per value: an argument the schema marks `readOnly: true`, or the
//! server lists in `readOnlyArgs`, cannot be changed in the form, blocks Approve with its
//! reason when the JSON editor changes it, and is refused by the answer gate whoever built
//! the answer. No browser.
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::{
    check_resolve, ActionCard, ApprovalDraft, CardState, Decision, Millis, PendingAction,
    ProblemKind, Resolution, ResolveContext, ResolveRefusal, Shown,
};
use serde_json::{json, Value};

use crate::common;

const OPEN: ResolveContext = ResolveContext {
    now: Millis(1_000),
    may_answer: true,
    backend_edits: true,
    backend_remembers: true,
    busy: false,
};

fn action(v: Value) -> PendingAction {
    PendingAction::from_json(&v).unwrap()
}

/// An email whose recipient the schema keeps as proposed.
fn schema_locked() -> PendingAction {
    action(json!({
        "id":"act_1","type":"tool_approval","toolName":"send_email",
        "args":{"recipient":"alex@example.com","subject":"Hi"},
        "argsSchema":{"type":"object","properties":{
            "recipient":{"type":"string","readOnly":true},"subject":{"type":"string"}}}
    }))
}

/// A refund whose order the server's list keeps as proposed.
fn listed_locked() -> PendingAction {
    action(json!({
        "id":"act_2","type":"tool_approval","toolName":"refund",
        "args":{"order":"A-1","amount":120},"readOnlyArgs":["order"],
        "argsSchema":{"type":"object","properties":{"order":{"type":"string"},"amount":{"type":"number"}}}
    }))
}

fn allow(args: Value) -> Resolution {
    Resolution::ToolApproval {
        decision: Decision::Allow,
        approved_args: Some(args),
        remember_for_session: false,
        comment: None,
    }
}

#[test]
fn issue35_a_read_only_value_is_not_changed_by_the_form() {
    for (a, name) in [(schema_locked(), "recipient"), (listed_locked(), "order")] {
        let mut d = ApprovalDraft::new(&a, true).unwrap();
        let field = d
            .fields()
            .unwrap()
            .iter()
            .find(|f| f.name == name)
            .unwrap()
            .clone();
        assert!(field.read_only, "{name} is offered for editing");
        let before = d.text().to_owned();
        d.set_field(name, "someone@else.com");
        assert_eq!(d.text(), before, "{name} was changed through the form");
    }
}

#[test]
fn issue35_a_read_only_value_changed_in_the_json_editor_blocks_approve_with_its_reason() {
    for (a, edit, path) in [
        (
            schema_locked(),
            json!({"recipient":"eve@example.com","subject":"Hi"}),
            "/recipient",
        ),
        (
            listed_locked(),
            json!({"order":"A-2","amount":120}),
            "/order",
        ),
        // Removing it is a change too.
        (listed_locked(), json!({"amount":120}), "/order"),
    ] {
        let mut d = ApprovalDraft::new(&a, true).unwrap();
        d.set_text(edit.to_string());
        let locked: Vec<_> = d
            .problems()
            .iter()
            .filter(|p| p.kind == ProblemKind::ReadOnly)
            .collect();
        assert_eq!(locked.len(), 1, "{edit}: {:?}", d.problems());
        assert_eq!(locked[0].path, path);
        assert!(!d.can_approve(Millis(0), &CardState::Waiting, false, false));
        assert_eq!(d.approve(), None, "{edit}");
    }
    // Changing only what may change is an edit like any other.
    let mut d = ApprovalDraft::new(&schema_locked(), true).unwrap();
    d.set_text(json!({"recipient":"alex@example.com","subject":"Hello"}).to_string());
    assert!(d.problems().is_empty(), "{:?}", d.problems());
    assert!(d.can_approve(Millis(0), &CardState::Waiting, false, false));
}

#[test]
fn issue35_the_gate_refuses_a_changed_read_only_value_whoever_built_the_answer() {
    for (a, bad, good) in [
        (
            schema_locked(),
            json!({"recipient":"eve@example.com","subject":"Hi"}),
            json!({"recipient":"alex@example.com","subject":"Hello"}),
        ),
        (
            listed_locked(),
            json!({"order":"A-2","amount":120}),
            json!({"order":"A-1","amount":80}),
        ),
    ] {
        let card = ActionCard::new(a.clone(), CardState::Waiting, None, false);
        let shown = Shown::of(&a);
        match check_resolve(Some(&card), &shown, &allow(bad.clone()), OPEN) {
            Err(ResolveRefusal::ReadOnlyValue(problems)) => {
                assert_eq!(problems.len(), 1, "{bad}");
                assert_eq!(problems[0].kind, ProblemKind::ReadOnly);
            }
            other => panic!("{bad} was not refused as read-only: {other:?}"),
        }
        let sent = check_resolve(Some(&card), &shown, &allow(good.clone()), OPEN).unwrap();
        assert_eq!(sent, allow(good));
    }
}

#[test]
fn issue35_the_servers_list_is_kept_on_the_record() {
    let a = listed_locked();
    let again = PendingAction::from_json(&a.to_json()).unwrap();
    assert_eq!(again, a);
    let agent_chat_ui::core::ActionKind::ToolApproval(t) = &a.kind else {
        panic!("not an approval: {:?}", a.kind);
    };
    assert_eq!(agent_chat_ui::core::draft::read_only_names(t), ["order"]);
}

/// Seed 004 row 12: the host page's per-tool list (`Chat`'s `read_only_args`) locks the listed
/// arguments of that tool's cards, whichever way the card arrived (here a loaded conversation):
/// not in the form, blocked from the JSON editor with the reason, refused by the session's
/// gate. Another tool's cards are not touched, and the list is never written to the record.
#[test]
fn issue35_the_hosts_per_tool_list_locks_those_arguments_of_that_tool() {
    use agent_chat_ui::core::{ActionKind, Command, Method, SessionConfig, SessionEvent};
    let refund = r#"{"id":"act_r","type":"tool_approval","toolName":"refund","args":{"order":"A-1","amount":120},"argsSchema":{"type":"object","properties":{"order":{"type":"string"},"amount":{"type":"number"}}}}"#;
    let other = r#"{"id":"act_o","type":"tool_approval","toolName":"send_email","args":{"amount":1},"argsSchema":{"type":"object","properties":{"amount":{"type":"number"}}}}"#;
    let conv = format!(
        r#"{{"conversation":{{"id":"conv_1","agentId":"echo"}},"messages":[
           {{"id":"m_a","role":"assistant","content":"Two things.","metadata":{{"pendingActions":[{refund},{other}]}}}}],
           "pendingActions":[{refund},{other}]}}"#
    );
    let mut h = common::Harness::new(SessionConfig {
        conversation_id: Some("conv_1".into()),
        show_history: false,
        read_only_args: vec![("refund".to_owned(), vec!["amount".to_owned()])],
        ..SessionConfig::default()
    });
    h.cmd(Command::Start);
    h.answer(Method::Get, "/agents", 200, common::AGENTS);
    h.answer(Method::Get, "/conversations/conv_1", 200, &conv);
    let card = |id: &str| {
        h.s.cards()
            .iter()
            .find(|c| c.action.id == id)
            .unwrap_or_else(|| panic!("{id} drawn"))
            .clone()
    };
    let (r, o) = (card("act_r"), card("act_o"));
    let ActionKind::ToolApproval(t) = &r.action.kind else {
        panic!("not an approval");
    };
    assert_eq!(agent_chat_ui::core::draft::read_only_names(t), ["amount"]);
    assert!(
        !r.action.to_json().to_string().contains("amount\"]"),
        "the host's list is not written to the record: {}",
        r.action.to_json()
    );
    let mut d = ApprovalDraft::new(&r.action, true).unwrap();
    assert!(d
        .fields()
        .unwrap()
        .iter()
        .any(|f| f.name == "amount" && f.read_only));
    d.set_text(json!({"order":"A-1","amount":999}).to_string());
    assert!(d
        .problems()
        .iter()
        .any(|p| p.kind == ProblemKind::ReadOnly && p.path == "/amount"));
    assert_eq!(d.approve(), None);
    let free = ApprovalDraft::new(&o.action, true).unwrap();
    assert!(
        free.fields().unwrap().iter().all(|f| !f.read_only),
        "another tool's arguments stay editable"
    );
    // The session's gate: a host's own answer changing the amount is refused, and nothing sent.
    h.cmd(Command::Resolve {
        shown: Shown::of(&r.action),
        resolution: allow(json!({"order":"A-1","amount":999})),
    });
    assert!(
        h.events.iter().any(|e| matches!(
            e,
            SessionEvent::ResolveRefused {
                reason: ResolveRefusal::ReadOnlyValue(_),
                ..
            }
        )),
        "{:?}",
        h.events
    );
    assert!(!h
        .requests
        .iter()
        .chain(&h.streams)
        .any(|r| r.path.contains("/actions/")));
    // Changing only the order is an edit like any other.
    h.cmd(Command::Resolve {
        shown: Shown::of(&r.action),
        resolution: allow(json!({"order":"A-2","amount":120})),
    });
    assert!(h
        .requests
        .iter()
        .chain(&h.streams)
        .any(|r| r.path.contains("/actions/act_r")));
}
