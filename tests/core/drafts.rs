//! The card view models and the resolve gate (issue 13): what an approval or question card
//! may send is decided here, natively, never in a component.
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::{
    blocked, check_resolve, edit_allowed, live_focus, may_answer, may_answer_in_list, ActionCard,
    ActionKind, AnswerValue, ApprovalDraft, CardState, Decision, LiveFocus, Millis, Outcome,
    PendingAction, ProblemKind, QuestionDraft, Resolution, ResolveContext, ResolveRefusal, Shown,
};
use serde_json::{json, Value};

fn action(v: Value) -> PendingAction {
    PendingAction::from_json(&v).expect("a valid action")
}

fn approval() -> PendingAction {
    action(json!({
        "id": "act_1", "type": "tool_approval", "toolName": "send_email", "version": 3,
        "args": {"to": "a@b.co", "count": 1},
        "argsSchema": {"type": "object", "required": ["to"], "additionalProperties": false,
            "properties": {"to": {"type": "string", "minLength": 3}, "count": {"type": "integer", "maximum": 5}}},
        "expiresAt": 10_000
    }))
}

fn question(v: Value) -> PendingAction {
    action(json!({"id": "q_1", "type": "user_question", "questions": v}))
}

fn waiting(action: PendingAction) -> ActionCard {
    ActionCard::new(action, CardState::Waiting, None, false)
}

const OPEN: ResolveContext = ResolveContext {
    now: Millis(1_000),
    may_answer: true,
    backend_edits: true,
    backend_remembers: true,
    busy: false,
};

fn allow_with(args: Option<Value>) -> Resolution {
    Resolution::ToolApproval {
        decision: Decision::Allow,
        approved_args: args,
        remember_for_session: false,
        comment: None,
    }
}

// ----- Shown ----------------------------------------------------------------------------------

#[test]
fn i13_a_reordered_but_identical_request_keeps_its_fingerprint() {
    let a = approval();
    let mut b = approval();
    if let ActionKind::ToolApproval(t) = &mut b.kind {
        t.args = json!({"count": 1.0, "to": "a@b.co"});
    }
    assert_eq!(Shown::of(&a), Shown::of(&b));
}

#[test]
fn i13_other_arguments_version_title_or_deadline_are_another_request() {
    let base = Shown::of(&approval());
    let mut args = approval();
    if let ActionKind::ToolApproval(t) = &mut args.kind {
        t.args = json!({"to": "evil@x.co", "count": 1});
    }
    let mut version = approval();
    version.version = Some(4);
    let mut title = approval();
    if let ActionKind::ToolApproval(t) = &mut title.kind {
        t.title = Some("Send a harmless note".into());
    }
    let mut deadline = approval();
    deadline.expires_at = Some(Millis(99_000));
    for (what, changed) in [
        ("args", args),
        ("version", version),
        ("title", title),
        ("deadline", deadline),
    ] {
        assert!(
            !base.matches(&changed),
            "{what} changed but the fingerprint did not tell"
        );
    }
}

#[test]
fn i13_card_revision_counts_changes_of_what_is_drawn_only() {
    let mut card = waiting(approval());
    assert!(
        !card.replace_action(approval()),
        "the same request again is no change"
    );
    assert_eq!(card.revision, 0);
    let mut next = approval();
    next.version = Some(4);
    assert!(card.replace_action(next));
    assert_eq!(card.revision, 1);
    assert!(card.changed());
}

// ----- ApprovalDraft -----------------------------------------------------------------------------

#[test]
fn i13_an_untouched_approval_allows_without_approved_args() {
    let d = ApprovalDraft::new(&approval(), true).expect("an approval");
    assert!(d.problems().is_empty());
    assert!(!d.is_edited());
    assert_eq!(d.approve(), Some(allow_with(None)));
    assert_eq!(d.shown(), &Shown::of(&approval()));
}

#[test]
fn i13_an_edit_is_checked_and_sent_only_when_it_differs() {
    let mut d = ApprovalDraft::new(&approval(), true).unwrap();
    d.set_text(r#"{"count": 1, "to": "a@b.co"}"#.into());
    assert!(!d.is_edited(), "a reordered object is not an edit");
    assert_eq!(d.approve(), Some(allow_with(None)));

    d.set_text(r#"{"to": "c@d.co", "count": 2}"#.into());
    assert!(d.is_edited());
    assert_eq!(d.changes().len(), 2);
    assert_eq!(
        d.approve(),
        Some(allow_with(Some(json!({"to": "c@d.co", "count": 2}))))
    );

    d.reset();
    assert!(!d.is_edited());
    assert_eq!(d.text(), d.proposal_text());
}

#[test]
fn i13_approve_is_refused_while_the_edit_has_problems() {
    let state = CardState::Waiting;
    for (text, kind) in [
        ("{not json", "invalid-json"),
        ("[1, 2]", "not-object"),
        (r#"{"to": "a@b.co", "count": 9}"#, "maximum"),
        (r#"{"count": 1}"#, "required"),
    ] {
        let mut d = ApprovalDraft::new(&approval(), true).unwrap();
        d.set_text(text.into());
        assert!(!d.problems().is_empty(), "{text}: problems listed");
        let first = format!("{:?}", d.problems()[0].kind)
            .to_lowercase()
            .replace('_', "-");
        assert!(
            first.starts_with(&kind.replace('-', "")),
            "{text}: expected {kind}, got {first}"
        );
        assert!(
            !d.can_approve(OPEN.now, &state, false, false),
            "{text}: Approve disabled"
        );
        assert!(
            d.can_deny(OPEN.now, &state, false, false),
            "{text}: Deny ignores the edit"
        );
        assert_eq!(d.approve(), None);
        assert_eq!(
            d.deny(),
            Resolution::deny(None),
            "Deny carries no arguments"
        );
    }
}

#[test]
fn i13_approve_and_deny_need_a_waiting_answerable_card_in_time() {
    let d = ApprovalDraft::new(&approval(), true).unwrap();
    assert!(d.can_approve(Millis(9_999), &CardState::Waiting, false, false));
    assert!(
        !d.can_approve(Millis(10_000), &CardState::Waiting, false, false),
        "at the deadline"
    );
    assert!(!d.can_deny(Millis(10_000), &CardState::Waiting, false, false));
    assert!(!d.can_approve(OPEN.now, &CardState::Sending, false, false));
    assert!(!d.can_approve(
        OPEN.now,
        &CardState::Settled(Outcome::Expired),
        false,
        false
    ));
    assert!(
        !d.can_approve(OPEN.now, &CardState::Waiting, true, false),
        "read-only"
    );
}

#[test]
fn i13_without_argument_editing_the_text_cannot_change() {
    let mut d = ApprovalDraft::new(&approval(), false).unwrap();
    d.set_text(r#"{"to": "evil@x.co"}"#.into());
    d.set_editing(true);
    assert!(!d.editing());
    assert!(d.fields().is_none());
    assert_eq!(d.approve(), Some(allow_with(None)));
}

#[test]
fn i13_form_fields_write_into_the_text() {
    let mut d = ApprovalDraft::new(&approval(), true).unwrap();
    let names: Vec<_> = d.fields().unwrap().iter().map(|f| f.name.clone()).collect();
    assert_eq!(names, ["count", "to"], "the schema's properties, by name");
    d.set_field("count", "4");
    assert_eq!(d.field_text("count"), "4");
    assert_eq!(
        d.approve(),
        Some(allow_with(Some(json!({"to": "a@b.co", "count": 4}))))
    );
    d.set_field("nope", "x");
    assert_eq!(d.field_text("nope"), "", "unknown fields are ignored");
    d.set_text("{broken".into());
    assert!(!d.fields_enabled());
}

#[test]
fn i13_a_reason_and_remember_follow_what_is_on_screen() {
    let mut d = ApprovalDraft::new(&approval(), true).unwrap();
    d.set_reason("not now".into());
    assert_eq!(
        d.deny(),
        Resolution::deny(None),
        "a closed reason field is not sent"
    );
    d.set_reason_open(true);
    assert_eq!(d.deny(), Resolution::deny(Some("not now".into())));
    d.set_remember(true);
    assert_eq!(
        d.approve(),
        Some(Resolution::ToolApproval {
            decision: Decision::Allow,
            approved_args: None,
            remember_for_session: true,
            comment: None
        })
    );
}

#[test]
fn i13_the_heading_keeps_the_tools_own_name() {
    let d = ApprovalDraft::new(&approval(), false).unwrap();
    assert_eq!(d.heading(), "send_email");
    let mut titled = approval();
    if let ActionKind::ToolApproval(t) = &mut titled.kind {
        t.title = Some("Send the report".into());
    }
    let d = ApprovalDraft::new(&titled, false).unwrap();
    assert_eq!(d.heading(), "Send the report");
    assert_eq!(d.tool_name(), "send_email");
}

#[test]
fn i13_edit_precedence_and_the_may_answer_switch_are_one_rule() {
    assert!(
        edit_allowed(Some(true), Some(false), false),
        "the agent wins"
    );
    assert!(!edit_allowed(None, Some(false), true), "then the list");
    assert!(edit_allowed(None, None, true), "then the prop");
    let kind = approval().kind;
    assert!(may_answer(&kind, true, true, false));
    assert!(!may_answer(&kind, true, false, true));
    assert!(
        !may_answer(&kind, false, true, true),
        "the transport cannot answer"
    );
    assert!(!may_answer(
        &ActionKind::Unknown("x".into()),
        true,
        true,
        true
    ));
    // A message list answers only person-facing cards, and only when it was given `onResolve`.
    assert!(may_answer_in_list(&kind, true, true, true, true));
    assert!(
        !may_answer_in_list(&kind, false, true, true, true),
        "no resolver: read-only"
    );
    let tool = ActionKind::ClientTool {
        tool_name: "t".into(),
        args: json!({}),
    };
    assert!(
        !may_answer_in_list(&tool, true, true, true, true),
        "not a person's card"
    );
}

// ----- QuestionDraft -----------------------------------------------------------------------------

fn lone_choice(extra: Value) -> PendingAction {
    let mut q = json!({"question": "Which env?", "options": ["staging", "prod"]});
    if let (Value::Object(q), Value::Object(extra)) = (&mut q, extra) {
        q.extend(extra);
    }
    question(json!([q]))
}

#[test]
fn i13_a_lone_single_choice_submits_on_pick_also_with_free_text() {
    let mut d = QuestionDraft::new(&lone_choice(json!({"allowFreeText": false}))).unwrap();
    assert!(d.submits_on_pick());
    assert!(!d.offers_send());
    let sent = d.pick(0, "prod").expect("submits at once");
    assert_eq!(
        sent,
        Resolution::UserQuestion {
            answers: [("Which env?".into(), AnswerValue::One("prod".into()))].into(),
            cancelled: false
        }
    );
    let mut free = QuestionDraft::new(&lone_choice(json!({}))).unwrap();
    assert!(
        free.submits_on_pick(),
        "free text does not stop submit-on-pick"
    );
    assert!(free.offers_send(), "the free-text field keeps its own Send");
    assert!(free.pick(0, "staging").is_some());
}

#[test]
fn i13_previews_or_several_questions_need_send() {
    let previews = question(json!([{"question": "Which?", "options": [
        {"label": "A", "preview": "rm -rf /tmp/a"}, {"label": "B"}]}]));
    let mut d = QuestionDraft::new(&previews).unwrap();
    assert!(!d.submits_on_pick());
    assert_eq!(d.pick(0, "A"), None);
    assert!(d.offers_send());
    let two = question(json!([{"question": "One?", "options": ["x"]}, {"question": "Two?"}]));
    let mut d = QuestionDraft::new(&two).unwrap();
    assert_eq!(d.pick(0, "x"), None);
    assert!(!d.ready(), "the second is required");
    d.set_text(1, "answer".into());
    assert!(d.ready());
}

#[test]
fn i13_a_value_that_is_no_option_is_not_picked() {
    let mut d = QuestionDraft::new(&lone_choice(json!({}))).unwrap();
    assert_eq!(d.pick(0, "dev"), None);
    assert!(d.answer(0).unwrap().picked.is_empty());
}

#[test]
fn i13_typed_text_never_silently_replaces_a_picked_option() {
    let two = question(
        json!([{"question": "Env?", "options": ["staging", "prod"]}, {"question": "Why?"}]),
    );
    let mut d = QuestionDraft::new(&two).unwrap();
    d.pick(0, "prod");
    d.set_text(0, "dev".into());
    assert!(
        d.answer(0).unwrap().picked.is_empty(),
        "the radio clears, visibly"
    );
    d.pick(0, "staging");
    assert_eq!(
        d.answer(0).unwrap().text,
        "",
        "picking clears the text, visibly"
    );
    d.set_text(1, "because".into());
    let Resolution::UserQuestion { answers, .. } = d.send() else {
        panic!("a question answer")
    };
    assert_eq!(answers["Env?"], AnswerValue::One("staging".into()));
}

#[test]
fn i13_multi_select_sends_values_and_typed_text() {
    let multi =
        question(json!([{"question": "Which?", "multiSelect": true, "options": ["a", "b", "c"]}]));
    let mut d = QuestionDraft::new(&multi).unwrap();
    d.toggle(0, "a", true);
    d.toggle(0, "c", true);
    d.toggle(0, "a", false);
    d.set_text(0, "z".into());
    let Resolution::UserQuestion { answers, .. } = d.send() else {
        panic!("a question answer")
    };
    assert_eq!(
        answers["Which?"],
        AnswerValue::Many(vec!["c".into(), "z".into()])
    );
}

#[test]
fn i13_skip_only_when_nothing_is_required_and_never_late() {
    let required = QuestionDraft::new(&question(json!([{"question": "Env?"}]))).unwrap();
    assert!(!required.offers_skip());
    let mut optional = question(json!([{"question": "Env?", "required": false}]));
    optional.expires_at = Some(Millis(5_000));
    let d = QuestionDraft::new(&optional).unwrap();
    assert!(d.can_skip(Millis(4_999), &CardState::Waiting, false, false));
    assert!(!d.can_skip(Millis(5_000), &CardState::Waiting, false, false));
    assert!(
        d.can_send(Millis(1), &CardState::Waiting, false, false),
        "nothing required: ready"
    );
    assert!(!d.can_send(Millis(1), &CardState::Sending, false, false));
    assert_eq!(
        d.skip(),
        Resolution::UserQuestion {
            answers: Default::default(),
            cancelled: true
        }
    );
}

// ----- check_resolve ------------------------------------------------------------------------------

#[test]
fn i13_the_gate_refuses_a_card_that_is_gone_settled_sending_or_read_only() {
    let shown = Shown::of(&approval());
    let allow = Resolution::allow();
    assert_eq!(
        check_resolve(None, &shown, &allow, OPEN),
        Err(ResolveRefusal::Unknown)
    );
    let mut card = waiting(approval());
    card.state = CardState::Sending;
    assert_eq!(
        check_resolve(Some(&card), &shown, &allow, OPEN),
        Err(ResolveRefusal::InFlight)
    );
    card.state = CardState::Settled(Outcome::answered());
    assert_eq!(
        check_resolve(Some(&card), &shown, &allow, OPEN),
        Err(ResolveRefusal::Settled)
    );
    let card = waiting(approval());
    let read_only = ResolveContext {
        may_answer: false,
        ..OPEN
    };
    assert_eq!(
        check_resolve(Some(&card), &shown, &allow, read_only),
        Err(ResolveRefusal::ReadOnly)
    );
    let busy = ResolveContext { busy: true, ..OPEN };
    assert_eq!(
        check_resolve(Some(&card), &shown, &allow, busy),
        Err(ResolveRefusal::Busy)
    );
    assert_eq!(check_resolve(Some(&card), &shown, &allow, OPEN), Ok(allow));
}

/// Issue 15 (§11.1): where the backend cannot run edited arguments, an edit is refused (it
/// would be dropped on the wire while the card said it ran); an unchanged copy of the
/// proposal is no edit and passes. Where it cannot remember, "remember" is taken off.
#[test]
fn i15_the_gate_refuses_edits_and_drops_remember_a_backend_cannot_express() {
    let card = waiting(approval());
    let shown = Shown::of(&card.action);
    let plain = ResolveContext {
        backend_edits: false,
        backend_remembers: false,
        ..OPEN
    };
    let edited = Resolution::ToolApproval {
        decision: Decision::Allow,
        approved_args: Some(json!({"to": "x@y.co", "count": 1})),
        remember_for_session: false,
        comment: None,
    };
    assert_eq!(
        check_resolve(Some(&card), &shown, &edited, plain),
        Err(ResolveRefusal::EditNotOffered)
    );
    assert!(check_resolve(Some(&card), &shown, &edited, OPEN).is_ok());
    let same = Resolution::ToolApproval {
        decision: Decision::Allow,
        approved_args: Some(json!({"count": 1, "to": "a@b.co"})),
        remember_for_session: true,
        comment: None,
    };
    assert_eq!(
        check_resolve(Some(&card), &shown, &same, plain),
        Ok(Resolution::allow()),
        "no edit, and no remember"
    );
}

#[test]
fn i13_the_gate_refuses_an_answer_to_a_request_that_changed_since_it_was_drawn() {
    let shown = Shown::of(&approval());
    let mut card = waiting(approval());
    let mut next = approval();
    if let ActionKind::ToolApproval(t) = &mut next.kind {
        t.args = json!({"to": "evil@x.co", "count": 1});
    }
    next.version = Some(4);
    card.replace_action(next.clone());
    assert_eq!(
        check_resolve(Some(&card), &shown, &Resolution::allow(), OPEN),
        Err(ResolveRefusal::Changed)
    );
    assert!(check_resolve(Some(&card), &Shown::of(&next), &Resolution::allow(), OPEN).is_ok());
}

#[test]
fn i13_the_gate_refuses_at_and_after_the_deadline() {
    let card = waiting(approval());
    let shown = Shown::of(&approval());
    for now in [10_000, 10_001] {
        let ctx = ResolveContext {
            now: Millis(now),
            ..OPEN
        };
        assert_eq!(
            check_resolve(Some(&card), &shown, &Resolution::allow(), ctx),
            Err(ResolveRefusal::Expired)
        );
    }
}

#[test]
fn i13_the_gate_checks_approved_args_against_the_schema() {
    let card = waiting(approval());
    let shown = Shown::of(&approval());
    let check = |args: Value| check_resolve(Some(&card), &shown, &allow_with(Some(args)), OPEN);
    assert_eq!(check(json!([1])), Err(ResolveRefusal::NotAnObject));
    match check(json!({"to": "a@b.co", "count": 9})) {
        Err(ResolveRefusal::BreaksSchema(problems)) => {
            assert!(matches!(problems[0].kind, ProblemKind::Maximum { .. }))
        }
        other => panic!("expected BreaksSchema, got {other:?}"),
    }
    assert_eq!(
        check(json!({"count": 1, "to": "a@b.co"})),
        Ok(allow_with(None)),
        "the proposal itself is not an edit"
    );
    assert_eq!(
        check(json!({"to": "x@y.co"})),
        Ok(allow_with(Some(json!({"to": "x@y.co"}))))
    );
    let deny = Resolution::ToolApproval {
        decision: Decision::Deny,
        approved_args: Some(json!({"to": "x@y.co"})),
        remember_for_session: true,
        comment: Some("  ".into()),
    };
    assert_eq!(
        check_resolve(Some(&card), &shown, &deny, OPEN),
        Ok(Resolution::deny(None)),
        "Deny ignores edits"
    );
}

#[test]
fn i13_the_gate_checks_question_answers() {
    let action = question(json!([
        {"question": "Env?", "options": ["staging", "prod"], "allowFreeText": false},
        {"question": "Note?", "required": false}
    ]));
    let card = waiting(action.clone());
    let shown = Shown::of(&action);
    let answer = |pairs: Vec<(&str, AnswerValue)>, cancelled: bool| Resolution::UserQuestion {
        answers: pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect(),
        cancelled,
    };
    let one = |s: &str| AnswerValue::One(s.into());
    let check = |r: Resolution| check_resolve(Some(&card), &shown, &r, OPEN);
    assert!(check(answer(vec![("Env?", one("prod"))], false)).is_ok());
    assert_eq!(
        check(answer(vec![("Env?", one("dev"))], false)),
        Err(ResolveRefusal::NotAnOption)
    );
    assert_eq!(
        check(answer(
            vec![("Other?", one("x")), ("Env?", one("prod"))],
            false
        )),
        Err(ResolveRefusal::NotAnOption)
    );
    assert_eq!(
        check(answer(vec![("Note?", one("hi"))], false)),
        Err(ResolveRefusal::Unanswered)
    );
    assert_eq!(
        check(answer(vec![], true)),
        Err(ResolveRefusal::SkipNotAllowed)
    );
    assert_eq!(
        check(answer(
            vec![(
                "Env?",
                AnswerValue::Many(vec!["prod".into(), "staging".into()])
            )],
            false
        )),
        Err(ResolveRefusal::NotAnOption),
        "a single choice takes one value"
    );
    assert_eq!(check(Resolution::allow()), Err(ResolveRefusal::WrongKind));
}

/// Issue 38: every refusal has its own words in every locale, and the ones a card's state
/// explains (already answered, on its way, a reply still running) say that, not a generic
/// "no longer waiting".
#[test]
fn issue_38_every_refusal_has_banner_text_in_every_locale() {
    let all = [
        ResolveRefusal::Unknown,
        ResolveRefusal::Settled,
        ResolveRefusal::InFlight,
        ResolveRefusal::Busy,
        ResolveRefusal::ReadOnly,
        ResolveRefusal::Changed,
        ResolveRefusal::Expired,
        ResolveRefusal::WrongKind,
        ResolveRefusal::EditNotOffered,
        ResolveRefusal::DeclineNotOffered,
        ResolveRefusal::NotAnObject,
        ResolveRefusal::BreaksSchema(Vec::new()),
        ResolveRefusal::ReadOnlyValue(Vec::new()),
        ResolveRefusal::SkipNotAllowed,
        ResolveRefusal::Unanswered,
        ResolveRefusal::NotAnOption,
    ];
    for lang in ["en", "tr", "ar"] {
        let catalog = agent_chat_ui::core::Catalog::new(lang);
        for r in &all {
            assert!(
                catalog.has(r.fluent_id()),
                "{lang} {}: {} missing",
                r.as_str(),
                r.fluent_id()
            );
        }
    }
    let en = agent_chat_ui::core::Catalog::new("en");
    let words = |r: ResolveRefusal| en.tr(r.fluent_id());
    assert_eq!(
        words(ResolveRefusal::Settled),
        "That request was already answered."
    );
    assert_eq!(
        words(ResolveRefusal::InFlight),
        "Your answer to this request is already on its way."
    );
    assert_eq!(
        words(ResolveRefusal::Busy),
        "The assistant is still replying. You can answer when the reply has finished."
    );
    let distinct: std::collections::BTreeSet<_> = [
        ResolveRefusal::Unknown,
        ResolveRefusal::Settled,
        ResolveRefusal::InFlight,
        ResolveRefusal::Busy,
    ]
    .into_iter()
    .map(words)
    .collect();
    assert_eq!(distinct.len(), 4, "{distinct:?}");
}

/// Issue 38: a card's buttons are offered exactly when the gate would let an answer through
/// (for an answer that keeps the card's rules): `blocked` is the gate's own first half, and the
/// drafts follow it, a streaming reply included.
#[test]
fn issue_38_the_buttons_follow_the_gate_while_a_reply_streams() {
    let shown = Shown::of(&approval());
    let allow = Resolution::allow();
    let states = [
        CardState::Waiting,
        CardState::Sending,
        CardState::Checking,
        CardState::Settled(Outcome::answered()),
    ];
    let d = ApprovalDraft::new(&approval(), true).unwrap();
    for state in &states {
        for busy in [false, true] {
            for read_only in [false, true] {
                for now in [Millis(1_000), Millis(10_000)] {
                    let ctx = ResolveContext {
                        now,
                        may_answer: !read_only,
                        busy,
                        ..OPEN
                    };
                    let mut card = waiting(approval());
                    card.state = state.clone();
                    let gate = check_resolve(Some(&card), &shown, &allow, ctx);
                    let why = blocked(state, Some(Millis(10_000)), ctx);
                    assert_eq!(
                        gate.clone().err(),
                        why,
                        "{state:?} busy {busy} ro {read_only}"
                    );
                    let offered = d.can_approve(now, state, read_only, busy);
                    assert_eq!(
                        offered,
                        gate.is_ok(),
                        "{state:?} busy {busy} ro {read_only}"
                    );
                    assert_eq!(d.can_deny(now, state, read_only, busy), gate.is_ok());
                }
            }
        }
    }
    assert_eq!(
        blocked(
            &CardState::Waiting,
            None,
            ResolveContext { busy: true, ..OPEN }
        ),
        Some(ResolveRefusal::Busy)
    );
    let q =
        QuestionDraft::new(&question(json!([{"question": "Why?", "required": false}]))).unwrap();
    assert!(q.can_skip(OPEN.now, &CardState::Waiting, false, false));
    assert!(q.can_send(OPEN.now, &CardState::Waiting, false, false));
    assert!(!q.can_skip(OPEN.now, &CardState::Waiting, false, true));
    assert!(!q.can_send(OPEN.now, &CardState::Waiting, false, true));
}

#[test]
fn issue_39_a_cards_decline_rule_decides_deny_and_the_reason_field() {
    let with = |decline: &str| {
        action(json!({"id": "a", "type": "tool_approval", "toolName": "t", "decline": decline}))
    };
    // Any (and no rule): Deny, an optional reason, Deny ready at once.
    for a in [with("any"), approval(), with("unknown")] {
        let d = ApprovalDraft::new(&a, false).unwrap();
        assert!(d.deny_offered() && d.reason_optional() && d.deny_ready());
    }
    // Never: no Deny.
    let d = ApprovalDraft::new(&with("never"), false).unwrap();
    assert!(!d.deny_offered());
    // Silent: Deny without the reason's links, and what it sends carries no reason.
    let d = ApprovalDraft::new(&with("silent"), false).unwrap();
    assert!(d.deny_offered() && !d.reason_optional() && d.deny_ready());
    assert_eq!(d.deny(), Resolution::deny(None));
    // With a reason: the field is open, Deny waits for words.
    let mut d = ApprovalDraft::new(&with("reason"), false).unwrap();
    assert!(d.reason_open() && !d.reason_optional() && !d.deny_ready());
    d.set_reason("   ".into());
    assert!(!d.deny_ready(), "blank is no reason");
    d.set_reason("Wrong address".into());
    assert!(d.deny_ready());
    assert_eq!(d.deny(), Resolution::deny(Some("Wrong address".into())));
    // The gate holds the same rule for any caller.
    let ctx = ResolveContext {
        now: Millis(0),
        may_answer: true,
        busy: false,
        backend_edits: true,
        backend_remembers: true,
    };
    let card = waiting(with("reason"));
    let shown = Shown::of(&card.action);
    assert_eq!(
        check_resolve(Some(&card), &shown, &Resolution::deny(None), ctx),
        Err(ResolveRefusal::DeclineNotOffered)
    );
    let card = waiting(with("silent"));
    assert_eq!(
        check_resolve(
            Some(&card),
            &shown_of(&card),
            &Resolution::deny(Some("x".into())),
            ctx
        ),
        Err(ResolveRefusal::DeclineNotOffered)
    );
    let card = waiting(with("never"));
    assert_eq!(
        check_resolve(Some(&card), &shown_of(&card), &Resolution::deny(None), ctx),
        Err(ResolveRefusal::DeclineNotOffered)
    );
}

fn shown_of(card: &ActionCard) -> Shown {
    Shown::of(&card.action)
}

/// Seed 000 "Accessibility": no control that decides is the first thing a key press hits. A
/// lone single-choice question submits on pick, so its options decide: focus lands on their
/// group, not on the first option (where a stray Space or Enter would answer).
#[test]
fn issue35_a_live_card_never_puts_focus_on_a_control_that_decides() {
    assert_eq!(live_focus(&approval()), LiveFocus::Card);
    assert_eq!(
        live_focus(&lone_choice(json!({"allowFreeText": false}))),
        LiveFocus::Options
    );
    assert_eq!(
        live_focus(&lone_choice(json!({}))),
        LiveFocus::Options,
        "the options still decide beside a free-text field"
    );
    let previews = question(json!([{"question": "Which?", "options": [
        {"label": "A", "preview": "rm -rf /tmp/a"}, {"label": "B"}]}]));
    assert_eq!(
        live_focus(&previews),
        LiveFocus::FirstControl,
        "Send decides"
    );
    let two = question(json!([{"question": "One?", "options": ["x"]}, {"question": "Two?"}]));
    assert_eq!(live_focus(&two), LiveFocus::FirstControl);
    let free = question(json!([{"question": "Ticket?"}]));
    assert_eq!(live_focus(&free), LiveFocus::FirstControl);
}
