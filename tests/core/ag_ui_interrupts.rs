//! Issue 39: AG-UI interrupts beyond one tool approval. An interrupt bound to no tool call is a
//! question card drawn from its `responseSchema` (its message kept as text), and its answer is
//! the payload the schema describes, typed and checked before anything is sent; a skip is a
//! `cancelled` entry without payload. Several interrupts of one run are answered in ONE resume
//! (the protocol takes no partial resume): the first answers are kept, the last sends them all.
//! No browser.
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::transport::ag_ui::{self, question_entry, AnswerRefusal, Decoder};
use agent_chat_ui::core::transport::TransportKind;
use agent_chat_ui::core::{
    ActionKind, AnswerValue, CardState, Command, Decision, Outcome, Resolution, Run, Shown,
};
use serde_json::{json, Value};
use std::collections::BTreeMap;

use crate::common::link;
use link::Link;

/// `now` of the links: 2025-11-24T16:00:00Z.
const NOW: u64 = 1_764_000_000_000;

fn sse(events: &[Value]) -> String {
    events.iter().map(|e| format!("data: {e}\n\n")).collect()
}

/// What the filing interrupt asks for (as `test-servers/ag-ui.mjs` asks it).
fn filing_schema() -> Value {
    json!({ "type": "object",
            "properties": {
                "quarter": { "type": "string", "title": "Quarter", "description": "Which quarter?",
                             "enum": ["Q1", "Q2", "Q3", "Q4"] },
                "year": { "type": "integer", "title": "Year", "description": "Which year?",
                          "minimum": 2000 } },
            "required": ["quarter", "year"], "additionalProperties": false })
}

/// A run that ends asking for the filing's details, bound to no tool call.
fn filing_run(thread: &str) -> String {
    sse(&[
        json!({"type": "RUN_STARTED", "threadId": thread, "runId": "r1"}),
        json!({"type": "RUN_FINISHED", "threadId": thread, "runId": "r1",
               "outcome": {"type": "interrupt", "interrupts": [{
                   "id": "int_f", "reason": "input_required",
                   "message": "Which filing? <b>Quarterly</b> only",
                   "responseSchema": filing_schema(),
                   "expiresAt": "2025-11-24T16:30:00Z" }]}}),
    ])
}

/// A run that proposes two deletions and waits on both.
fn two_interrupts_run(thread: &str) -> String {
    let mut events = vec![json!({"type": "RUN_STARTED", "threadId": thread, "runId": "r1"})];
    let mut interrupts = Vec::new();
    for (n, path) in ["/tmp/a.txt", "/tmp/b.txt"].iter().enumerate() {
        let call = format!("call_{n}");
        events.push(json!({"type": "TOOL_CALL_START", "toolCallId": call,
                           "toolCallName": "delete_file"}));
        events.push(json!({"type": "TOOL_CALL_ARGS", "toolCallId": call,
                           "delta": json!({"path": path}).to_string()}));
        events.push(json!({"type": "TOOL_CALL_END", "toolCallId": call}));
        interrupts.push(json!({"id": format!("int_{n}"), "reason": "tool_call",
                               "toolCallId": call, "message": format!("Delete {path}?")}));
    }
    events.push(
        json!({"type": "RUN_FINISHED", "threadId": thread, "runId": "r1",
                       "outcome": {"type": "interrupt", "interrupts": interrupts}}),
    );
    sse(&events)
}

fn started() -> Link {
    let mut l = Link::new(TransportKind::AgUi, vec![]);
    l.now = NOW;
    l.cmd(Command::Start);
    l
}

fn body_of(l: &Link) -> Value {
    serde_json::from_str(l.last_wire().body.as_deref().unwrap()).unwrap()
}

/// A chat whose first turn ended with `run` (given the conversation id).
fn waiting(run: fn(&str) -> String) -> Link {
    let mut l = started();
    l.cmd(Command::Send("Go".into()));
    let conversation = l.session.conversation().unwrap().id.clone();
    l.stream(&run(&conversation));
    assert_eq!(l.session.run(), Run::AwaitingAction);
    l
}

fn shown(l: &Link, id: &str) -> Shown {
    let card = l
        .session
        .cards()
        .iter()
        .find(|c| c.action.id == id)
        .unwrap()
        .clone();
    Shown::of(&card.action)
}

fn state_of(l: &Link, id: &str) -> CardState {
    l.session
        .cards()
        .iter()
        .find(|c| c.action.id == id)
        .unwrap()
        .state
        .clone()
}

fn answers(pairs: &[(&str, &str)]) -> Resolution {
    let answers: BTreeMap<String, AnswerValue> = pairs
        .iter()
        .map(|(q, a)| (q.to_string(), AnswerValue::One(a.to_string())))
        .collect();
    Resolution::UserQuestion {
        answers,
        cancelled: false,
    }
}

#[test]
fn i39_an_interrupt_bound_to_no_call_is_a_question_drawn_from_its_schema() {
    let l = waiting(filing_run);
    let cards = l.session.cards();
    assert_eq!(cards.len(), 1);
    let card = &cards[0];
    let ActionKind::UserQuestion(q) = &card.action.kind else {
        panic!("expected a question card, got {:?}", card.action.kind);
    };
    // The message is text under the heading, markup and all (drawn as text, never HTML).
    assert_eq!(
        q.summary.as_deref(),
        Some("Which filing? <b>Quarterly</b> only")
    );
    let asked: Vec<(&str, Option<&str>, bool, usize)> = q
        .questions
        .iter()
        .map(|x| {
            (
                x.question.as_str(),
                x.header.as_deref(),
                x.required,
                x.options.len(),
            )
        })
        .collect();
    assert_eq!(
        asked,
        [
            ("Which quarter?", Some("Quarter"), true, 4),
            ("Which year?", Some("Year"), true, 0)
        ]
    );
    assert!(
        !q.questions[0].offers_free_text(None),
        "a choice of the enum only"
    );
    // 30 minutes after NOW.
    assert_eq!(card.action.expires_at.map(|m| m.0), Some(NOW + 1_800_000));
    assert!(l.session.can_resolve(card));
}

#[test]
fn i39_a_question_answer_is_the_typed_payload_and_resumes_the_run() {
    let mut l = waiting(filing_run);
    l.cmd(Command::Resolve {
        shown: shown(&l, "int_f"),
        resolution: answers(&[("Which quarter?", "Q2"), ("Which year?", "2026")]),
    });
    assert_eq!(
        body_of(&l)["resume"],
        json!([{"interruptId": "int_f", "status": "resolved",
                "payload": {"quarter": "Q2", "year": 2026}}])
    );
}

#[test]
fn i39_a_question_answer_that_breaks_the_schema_is_refused_before_it_is_sent() {
    let mut l = waiting(filing_run);
    let sent = l.wire.len();
    l.cmd(Command::Resolve {
        shown: shown(&l, "int_f"),
        resolution: answers(&[("Which quarter?", "Q2"), ("Which year?", "1999")]),
    });
    assert_eq!(l.wire.len(), sent, "nothing was sent");
    assert_eq!(state_of(&l, "int_f"), CardState::Waiting);
    let said = format!("{:?}", l.session.error());
    assert!(
        said.contains("Which year?"),
        "the refusal names the question: {said}"
    );
}

#[test]
fn i39_the_question_payload_rules_in_core() {
    let card = |schema: Value, message: &str| {
        let run = sse(&[
            json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r",
            "outcome": {"type": "interrupt", "interrupts": [{
                "id": "i", "reason": "confirmation", "message": message,
                "responseSchema": schema }]}}),
        ]);
        let mut d = Decoder::new();
        d.push(run.as_bytes());
        d.finish();
        d.ending().pending_actions.unwrap()[0].clone()
    };
    let one = |card: &Value, answer: &str| {
        let text = card["questions"][0]["question"]
            .as_str()
            .unwrap()
            .to_owned();
        question_entry(card, &json!({"answers": {text: answer}}))
    };
    // A value schema: one question, its text the message, the payload the typed answer.
    let number = card(json!({"type": "number", "minimum": 0}), "How much?");
    assert_eq!(number["questions"][0]["question"], "How much?");
    assert_eq!(one(&number, "2.5").unwrap()["payload"], json!(2.5));
    // Refused, naming the one question asked.
    assert_eq!(
        one(&number, "-1"),
        Err(AnswerRefusal::BreaksSchema("How much?".into()))
    );
    assert_eq!(
        one(&number, "lots"),
        Err(AnswerRefusal::BreaksSchema("How much?".into()))
    );
    let yes = card(json!({"type": "boolean"}), "Go on?");
    assert_eq!(one(&yes, "true").unwrap()["payload"], json!(true));
    let pick = card(json!({"enum": [1, 2, 3]}), "How many?");
    assert_eq!(pick["questions"][0]["options"].as_array().unwrap().len(), 3);
    assert_eq!(one(&pick, "2").unwrap()["payload"], json!(2));
    // No schema: the words as they are.
    let free = card(Value::Null, "Anything else?");
    assert_eq!(one(&free, "no").unwrap()["payload"], json!("no"));
    // A skip: cancelled, no payload (the protocol asks for none).
    assert_eq!(
        question_entry(&free, &json!({"answers": {}, "cancelled": true})),
        Ok(json!({"interruptId": "i", "status": "cancelled"}))
    );
    // Nothing answered is no answer.
    assert_eq!(
        question_entry(&free, &json!({"answers": {}})),
        Err(AnswerRefusal::NotAnAnswer)
    );
    // An array of an enum: several picked, sent as the list.
    let many = card(
        json!({"type": "object", "properties": {"tags": {"type": "array",
               "items": {"enum": ["a", "b", "c"]}}}}),
        "Which tags?",
    );
    assert_eq!(many["questions"][0]["multiSelect"], true);
    let text = many["questions"][0]["question"]
        .as_str()
        .unwrap()
        .to_owned();
    let entry = question_entry(&many, &json!({"answers": {text: ["a", "c"]}})).unwrap();
    assert_eq!(entry["payload"], json!({"tags": ["a", "c"]}));
}

#[test]
fn i39_several_interrupts_of_a_run_are_answered_in_one_resume() {
    let mut l = waiting(two_interrupts_run);
    assert_eq!(l.session.cards().len(), 2);
    let sent = l.wire.len();
    l.cmd(Command::Resolve {
        shown: shown(&l, "int_0"),
        resolution: Resolution::allow(),
    });
    assert_eq!(
        l.wire.len(),
        sent,
        "one answer of two is kept, not sent alone"
    );
    assert!(matches!(
        state_of(&l, "int_0"),
        CardState::Settled(Outcome::Approved { .. })
    ));
    l.cmd(Command::Resolve {
        shown: shown(&l, "int_1"),
        resolution: Resolution::deny(Some("keep b".into())),
    });
    assert_eq!(l.wire.len(), sent + 1, "the last answer sends them all");
    assert_eq!(
        body_of(&l)["resume"],
        json!([
            {"interruptId": "int_0", "status": "resolved", "payload": {"path": "/tmp/a.txt"}},
            {"interruptId": "int_1", "status": "cancelled", "payload": {"reason": "keep b"}}
        ])
    );
}

#[test]
fn i39_a_new_message_after_one_answer_of_two_still_covers_both() {
    let mut l = waiting(two_interrupts_run);
    l.cmd(Command::Resolve {
        shown: shown(&l, "int_0"),
        resolution: Resolution::ToolApproval {
            decision: Decision::Allow,
            approved_args: None,
            remember_for_session: false,
            comment: None,
        },
    });
    l.cmd(Command::Send("Never mind".into()));
    assert_eq!(
        body_of(&l)["resume"],
        json!([
            {"interruptId": "int_0", "status": "resolved", "payload": {"path": "/tmp/a.txt"}},
            {"interruptId": "int_1", "status": "cancelled",
             "payload": {"reason": ag_ui::LEFT_BEHIND}}
        ])
    );
}

/// Issue 38: the gateway's refusal of an answer that breaks the schema is said in the
/// person's language, with where it breaks (a pointer, in no language) as its second line.
#[test]
fn issue_38_a_schema_refusal_reads_in_the_persons_language_with_where() {
    let mut l = waiting(filing_run);
    let sent = l.wire.len();
    l.cmd(Command::Resolve {
        shown: shown(&l, "int_f"),
        resolution: answers(&[("Which quarter?", "Q2"), ("Which year?", "1999")]),
    });
    assert_eq!(l.wire.len(), sent, "nothing was sent");
    let error = l.session.error().expect("the refusal is shown");
    for (lang, text) in [
        ("en", "Not sent: the answer does not fit what was asked."),
        ("tr", "Gönderilmedi: yanıt istenene uymuyor."),
        ("ar", "لم تُرسل: الإجابة لا تناسب ما طُلب."),
    ] {
        let catalog = agent_chat_ui::core::Catalog::new(lang);
        assert_eq!(error.describe(&catalog), text, "{lang}");
        // Where, as the card asked it, not as a JSON Pointer.
        assert_eq!(
            error.server_detail(&catalog).as_deref(),
            Some("Which year?"),
            "{lang}"
        );
    }
}
