//! Issue 39: a LangGraph server behind the gateway. A send runs
//! `POST /threads/:thread/runs/stream` on the conversation's thread; the model's text streams
//! from `messages` events; an interrupt in the human-interrupt shape draws an approval card
//! whose buttons follow its `config`, a plain `interrupt(value)` a question card; each answer
//! resumes the run with the exact value Agent Inbox sends. The fixtures were recorded from
//! `@langchain/langgraph-api`'s own server (test-servers/langgraph.mjs) and are read split at
//! every byte; no browser.
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::transport::failure::{Failure, FailureKind, Refusal};
use agent_chat_ui::core::transport::langgraph::{
    self, card, resume_value, thread_id, Decoder, Refused,
};
use agent_chat_ui::core::transport::reply::{Delta, Reply};
use agent_chat_ui::core::transport::TransportKind;
use agent_chat_ui::core::{
    ActionKind, CardState, ChatError, Command, Decline, HttpResponse, Input, Method, Outcome,
    Resolution, ResolveRefusal, Run, Shown,
};
use serde_json::{json, Value};

use crate::common::link;
use link::Link;

const REPLY: &str = include_str!("../fixtures/langgraph/reply.sse");
const HUMAN: &str = include_str!("../fixtures/langgraph/human_interrupt.sse");
const PLAIN: &str = include_str!("../fixtures/langgraph/plain_interrupt.sse");
const RESUMED: &str = include_str!("../fixtures/langgraph/resumed_edit.sse");
const NOTHING: &str = include_str!("../fixtures/langgraph/resumed_nothing.sse");
const ERROR: &str = include_str!("../fixtures/langgraph/error.sse");
const WAIT: &str = include_str!("../fixtures/langgraph/wait_interrupt.json");
/// `GET /threads/:thread/state` while the human interrupt waits, and after it was accepted.
const STATE_WAITING: &str = include_str!("../fixtures/langgraph/state_waiting.json");
const STATE_DONE: &str = include_str!("../fixtures/langgraph/state_done.json");
/// The interrupt id in the state fixtures, and the one in `HUMAN`.
const STATE_INTERRUPT: &str = "71abd97327f1be525d3fa052da632674";
const HUMAN_INTERRUPT: &str = "f609b982b52c2c15c1f0423b62a894a9";

/// Every way of cutting `bytes` in two reads the same deltas and leaves the same reply.
fn same_at_every_byte(bytes: &[u8]) -> (Vec<Delta>, Reply) {
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

fn text(deltas: &[Delta]) -> String {
    deltas
        .iter()
        .filter_map(|d| match d {
            Delta::Text(t) => Some(t.as_str()),
            _ => None,
        })
        .collect()
}

fn errors(deltas: &[Delta]) -> Vec<Failure> {
    deltas
        .iter()
        .filter_map(|d| match d {
            Delta::Error(e) => Some(e.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn issue_39_a_streamed_reply_reads_once_at_every_byte_split() {
    // The long fixture is cut at every 29th byte (every byte would take minutes for 56 KB);
    // the others at every byte.
    let bytes = REPLY.as_bytes();
    let mut whole = Decoder::new();
    let mut expected = whole.push(bytes);
    expected.extend(whole.finish());
    for cut in (1..bytes.len()).step_by(29) {
        let mut d = Decoder::new();
        let mut got = d.push(&bytes[..cut]);
        got.extend(d.push(&bytes[cut..]));
        got.extend(d.finish());
        assert_eq!(text(&got), text(&expected), "split at {cut}");
    }
    assert_eq!(
        text(&expected),
        "Hello from LangGraph. This reply is streamed piece by piece.",
        "the pieces once, not again when the node's whole message follows"
    );
    assert!(errors(&expected).is_empty());
    assert!(whole.ending().pending_actions.is_none());
}

#[test]
fn issue_39_a_human_interrupt_is_an_approval_card_that_follows_its_config() {
    let (deltas, ending) = same_at_every_byte(HUMAN.as_bytes());
    assert!(
        deltas
            .iter()
            .any(|d| matches!(d, Delta::ToolStarted(c) if c.name == "send_email")),
        "the proposed call is a tool step"
    );
    assert_eq!(text(&deltas), "I will email Ada once you approve.");
    let cards = ending.pending_actions.expect("the run waits");
    let cards = cards.as_array().unwrap();
    assert_eq!(cards.len(), 1, "updates and values name one interrupt");
    let card = &cards[0];
    assert_eq!(card["type"], "tool_approval");
    assert_eq!(card["toolName"], "send_email");
    assert_eq!(
        card["args"],
        json!({"to": "ada@example.com", "subject": "Hello"})
    );
    assert_eq!(card["summary"], "Send an email to ada@example.com");
    assert_eq!(card["argsEditable"], true);
    assert_eq!(card["decline"], "any", "with or without a reason");
    assert_eq!(card["langgraph"]["list"], true);
}

#[test]
fn issue_39_a_plain_interrupt_is_a_question_card() {
    let (_, ending) = same_at_every_byte(PLAIN.as_bytes());
    let cards = ending.pending_actions.unwrap();
    let card = &cards[0];
    assert_eq!(card["type"], "user_question");
    assert_eq!(card["questions"][0]["question"], "Which city should I use?");
    let (id, value) = resume_value(
        card,
        &json!({"answers": {"Which city should I use?": "Paris"}}),
    )
    .unwrap();
    assert_eq!(id, card["id"].as_str().unwrap());
    assert_eq!(
        value,
        json!("Paris"),
        "the answer's text is the resume value"
    );
    assert_eq!(
        resume_value(card, &json!({"answers": {}, "cancelled": true})),
        Err(Refused::NotAllowed(Refusal::AnswerRequired))
    );
}

#[test]
fn issue_39_a_resume_streams_the_tool_result_and_the_reply() {
    let (deltas, ending) = same_at_every_byte(RESUMED.as_bytes());
    assert!(deltas.iter().any(|d| matches!(d,
        Delta::ToolFinished { id, result, .. } if id == "call_email_1" && result == "sent")));
    assert_eq!(text(&deltas), "Email sent to bob@example.com.");
    assert!(ending.pending_actions.is_none());
}

#[test]
fn issue_39_errors_keep_the_servers_words_and_an_answer_nothing_waited_for_says_so() {
    let (deltas, _) = same_at_every_byte(ERROR.as_bytes());
    assert_eq!(
        errors(&deltas),
        vec![Failure::new(
            FailureKind::AgentError,
            Some("The weather service is down.")
        )]
    );
    let (deltas, _) = same_at_every_byte(NOTHING.as_bytes());
    assert_eq!(
        errors(&deltas),
        vec![Failure::new(FailureKind::NothingWaited, None)]
    );
    // A refusal: LangGraph's `{error, message}` and its plain-text answers.
    let envelope = langgraph::refusal_envelope(
        409,
        r#"{"error":"Conflict","message":"Thread is busy"}"#,
        true,
    );
    assert_eq!(
        serde_json::from_str::<Value>(&envelope).unwrap(),
        json!({"error": {"code": "Conflict", "message": "Thread is busy"}})
    );
    let envelope = langgraph::refusal_envelope(404, r#"{"message":"Thread not found"}"#, true);
    assert!(envelope.contains("action_not_pending"), "{envelope}");
    let envelope = langgraph::refusal_envelope(422, "Thread is already running a task.", false);
    assert!(envelope.contains("Thread is already running a task."));
}

#[test]
fn issue_39_a_whole_run_reads_its_interrupt() {
    let backend = langgraph::build(&Default::default()).unwrap();
    let reply = backend.read_reply(WAIT).unwrap();
    assert_eq!(reply.pending_actions.unwrap()[0]["toolName"], "send_email");
    let reply = backend
        .read_reply(
            r#"{"messages":[{"type":"human","content":"hi"},{"type":"ai","content":"Hey"}]}"#,
        )
        .unwrap();
    assert_eq!(reply.content, "Hey");
}

fn human(config: Value, list: bool) -> Value {
    let request = json!({"action_request": {"action": "send_email", "args": {"to": "ada"}},
                         "config": config, "description": "Send it?"});
    let value = if list { json!([request]) } else { request };
    card(&json!({"id": "int_1", "value": value})).unwrap()
}

fn all() -> Value {
    json!({"allow_accept": true, "allow_edit": true, "allow_respond": true, "allow_ignore": true})
}

#[test]
fn issue_39_each_button_resumes_with_agent_inboxs_exact_response() {
    let card = human(all(), true);
    let value = |resolution: Value| resume_value(&card, &resolution).unwrap().1;
    assert_eq!(
        value(json!({"decision": "allow"})),
        json!([{"type": "accept", "args": {"action": "send_email", "args": {"to": "ada"}}}])
    );
    assert_eq!(
        value(json!({"decision": "allow", "approvedArgs": {"to": "bob"}})),
        json!([{"type": "edit", "args": {"action": "send_email", "args": {"to": "bob"}}}])
    );
    assert_eq!(
        value(json!({"decision": "deny", "comment": "  not now "})),
        json!([{"type": "response", "args": "not now"}])
    );
    assert_eq!(
        value(json!({"decision": "deny"})),
        json!([{"type": "ignore", "args": null}])
    );
    // A bare interrupt (not in a list) is answered with a bare response.
    let bare = human(all(), false);
    assert_eq!(
        resume_value(&bare, &json!({"decision": "deny"})).unwrap().1,
        json!({"type": "ignore", "args": null})
    );
}

#[test]
fn issue_39_what_the_config_does_not_allow_is_neither_offered_nor_sent() {
    let only = |k: &str| {
        let mut c = json!({"allow_accept": false, "allow_edit": false, "allow_respond": false,
                           "allow_ignore": false});
        c[k] = json!(true);
        c
    };
    // Accept only: no editor, a decline cannot be sent.
    let card = human(only("allow_accept"), true);
    assert_eq!(card["argsEditable"], false);
    assert_eq!(card["decline"], "never");
    assert_eq!(
        resume_value(
            &card,
            &json!({"decision": "allow", "approvedArgs": {"to": "bob"}})
        ),
        Err(Refused::NotAllowed(Refusal::EditNotTaken))
    );
    assert_eq!(
        resume_value(&card, &json!({"decision": "deny", "comment": "no"})),
        Err(Refused::NotAllowed(Refusal::DeclineNotTaken))
    );
    // Edit only: approving as shown is an edit with the shown arguments.
    let card = human(only("allow_edit"), true);
    assert_eq!(
        resume_value(&card, &json!({"decision": "allow"}))
            .unwrap()
            .1,
        json!([{"type": "edit", "args": {"action": "send_email", "args": {"to": "ada"}}}])
    );
    // Respond only: a question card, required; its answer is a response.
    let card = human(only("allow_respond"), true);
    assert_eq!(card["type"], "user_question");
    assert_eq!(card["questions"][0]["question"], "Send it?");
    assert_eq!(card["questions"][0]["required"], true);
    assert_eq!(
        resume_value(&card, &json!({"answers": {"Send it?": "Later"}}))
            .unwrap()
            .1,
        json!([{"type": "response", "args": "Later"}])
    );
    assert_eq!(
        resume_value(&card, &json!({"answers": {}, "cancelled": true})),
        Err(Refused::NotAllowed(Refusal::SkipNotTaken))
    );
    // Respond and ignore: the question can be skipped, as ignore.
    let mut c = only("allow_respond");
    c["allow_ignore"] = json!(true);
    let card = human(c, true);
    assert_eq!(card["questions"][0]["required"], false);
    assert_eq!(
        resume_value(&card, &json!({"answers": {}, "cancelled": true}))
            .unwrap()
            .1,
        json!([{"type": "ignore", "args": null}])
    );
    // Accept and respond, no ignore: declining needs a reason.
    let mut c = only("allow_accept");
    c["allow_respond"] = json!(true);
    let card = human(c, true);
    assert_eq!(card["decline"], "reason");
    assert_eq!(
        resume_value(&card, &json!({"decision": "deny"})),
        Err(Refused::NotAllowed(Refusal::ReasonRequired))
    );
    // Accept and ignore, no respond: a decline carries no reason.
    let mut c = only("allow_accept");
    c["allow_ignore"] = json!(true);
    let card = human(c, true);
    assert_eq!(card["decline"], "silent");
    assert_eq!(
        resume_value(&card, &json!({"decision": "deny", "comment": "no"})),
        Err(Refused::NotAllowed(Refusal::ReasonNotTaken))
    );
    // A stored action that is not an interrupt.
    assert_eq!(
        resume_value(&json!({"id": "x"}), &json!({"decision": "allow"})),
        Err(Refused::NotAnInterrupt)
    );
}

#[test]
fn issue_39_a_thread_id_is_a_uuid_made_once_per_conversation() {
    let a = thread_id("conv_18f00000000abcdef");
    assert_eq!(
        a,
        thread_id("conv_18f00000000abcdef"),
        "the same everywhere"
    );
    assert_ne!(a, thread_id("conv_18f00000000abcdee"));
    assert_eq!(a.len(), 36);
    assert_eq!(&a[14..15], "8", "version 8: a custom UUID");
    assert!(matches!(&a[19..20], "8" | "9" | "a" | "b"), "RFC variant");
    let uuid = "0F8FAD5B-D9CB-469F-A165-70867728950E";
    assert_eq!(thread_id(uuid), uuid.to_ascii_lowercase());
}

#[test]
fn issue_39_hostile_input_never_panics() {
    let inputs: Vec<String> = vec![
        "event: messages\ndata: [null]\n\n".into(),
        "event: messages\ndata: [{\"type\":\"ai\",\"content\":7,\"tool_calls\":{}}]\n\n".into(),
        "event: messages\ndata: [{\"type\":\"ai\",\"tool_calls\":[{\"id\":5},{}]}]\n\n".into(),
        "event: messages/partial\ndata: {\"a\":1}\n\n".into(),
        "event: messages/partial\ndata: [{\"type\":\"ai\",\"id\":\"m\",\"content\":\"ab\"},\
         {\"type\":\"ai\",\"id\":\"m\",\"content\":\"x\"}]\n\n"
            .into(),
        "event: updates\ndata: {\"__interrupt__\":[1,{\"id\":7},{\"id\":\"i\",\"value\":[]}]}\n\n"
            .into(),
        "event: updates\ndata: {\"__interrupt__\":{\"id\":\"i\"}}\n\n".into(),
        "event: values|sub:1\ndata: [[[[\n\n".into(),
        "event: error\ndata: null\n\n".into(),
        "event: error\ndata: \"boom\"\n\n".into(),
        "{\"messages\":7}".into(),
        "{\"__interrupt__\":[{\"id\":\"x\",\"value\":{\"action_request\":{\"action\":1}}}]}".into(),
        "[1,2]".into(),
        "\u{0}\u{ffff}\n\n\r\r".into(),
        String::from_utf8_lossy(&[0xff, 0xfe, b'{', 0xc3]).into_owned(),
    ];
    for input in &inputs {
        let mut d = Decoder::new();
        let _ = d.read_whole(input);
        let _ = d.ending();
        let backend = langgraph::build(&Default::default()).unwrap();
        let _ = backend.read_reply(input);
    }
    // Interrupt values of every shape make a card or none, never a panic.
    for value in [
        json!(null),
        json!(1),
        json!([]),
        json!({"action_request": null, "config": {}}),
        json!({"action_request": {"action": "x", "args": 3}, "config": {"allow_respond": true}}),
        json!({"question": "  "}),
    ] {
        if let Some(card) = card(&json!({"id": "i", "value": value})) {
            for resolution in [
                json!(null),
                json!({"decision": "allow", "approvedArgs": 3}),
                json!({"answers": {"q": [1, "a"]}}),
                json!({"answers": []}),
            ] {
                let _ = resume_value(&card, &resolution);
            }
        }
    }
    // Bytes as a fuzzer would send them, split everywhere.
    let noise: Vec<u8> = (0..600u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let _ = same_at_every_byte(&[HUMAN.as_bytes(), &noise, PLAIN.as_bytes()].concat());
}

/// The assistant the test chat is configured with (its `model`).
const AGENT: &str = "gpt-test";

#[test]
fn issue_39_the_assistant_is_the_configured_one_else_agent() {
    let backend = langgraph::build(&Default::default()).unwrap();
    assert_eq!(
        backend.agents(&Default::default())["agents"][0]["id"],
        langgraph::DEFAULT_ASSISTANT
    );
}

fn started() -> Link {
    let mut l = Link::new(TransportKind::Langgraph, vec![]);
    l.cmd(Command::Start);
    l
}

fn body_of(l: &Link) -> Value {
    serde_json::from_str(l.last_wire().body.as_deref().unwrap()).unwrap()
}

fn resolve(l: &mut Link, resolution: Resolution) {
    let card = l.session.cards()[0].clone();
    l.cmd(Command::Resolve {
        shown: Shown::of(&card.action),
        resolution,
    });
}

/// Answers the read of `thread`'s state on the server that opening a conversation sends.
fn server_state(l: &mut Link, thread: &str, status: u16, body: &str) {
    let req = l.last_wire();
    assert_eq!(
        (req.method, req.path.as_str()),
        (Method::Get, format!("/threads/{thread}/state").as_str()),
        "the conversation is read from the server's thread"
    );
    l.wire_input(Input::Response {
        id: req.id,
        result: Ok(HttpResponse {
            status,
            body: body.into(),
            date: None,
            retry_after: None,
        }),
    });
}

/// A chat whose first turn waits on the human interrupt; returns it with the server thread.
fn waiting() -> (Link, String, String) {
    let mut l = started();
    assert_eq!(l.session.agents()[0].id, AGENT, "the configured assistant");
    l.cmd(Command::Send("email Ada".into()));
    let (req, streamed) = l.wire.last().unwrap().clone();
    assert!(streamed);
    let conversation = l.session.conversation().unwrap().id.clone();
    let thread = thread_id(&conversation);
    assert_eq!(req.method, Method::Post);
    assert_eq!(req.path, format!("/threads/{thread}/runs/stream"));
    assert_eq!(
        body_of(&l),
        json!({"assistant_id": AGENT, "on_disconnect": "cancel", "if_not_exists": "create",
               "stream_mode": ["messages-tuple", "values", "updates"],
               "input": {"messages": [{"type": "human", "content": "email Ada"}]}})
    );
    l.stream(HUMAN);
    assert_eq!(l.session.run(), Run::AwaitingAction);
    (l, conversation, thread)
}

#[test]
fn issue_39_an_interrupt_waits_as_a_card_and_answering_resumes_the_thread() {
    let (mut l, conversation, thread) = waiting();
    let card = l.session.cards()[0].clone();
    let interrupt = card.action.id.clone();
    match &card.action.kind {
        ActionKind::ToolApproval(t) => {
            assert_eq!(t.tool_name, "send_email");
            assert_eq!(t.args_editable, Some(true), "the interrupt allows edits");
        }
        other => panic!("expected a tool approval, got {other:?}"),
    }
    assert!(l.session.can_resolve(&card));
    assert!(!l.session.remember_allowed());
    // Approve with an edit: the resume carries exactly the edited call.
    resolve(
        &mut l,
        Resolution::from_json(
            &json!({"type": "tool_approval", "decision": "allow",
                    "approvedArgs": {"to": "bob@example.com", "subject": "Hello"}}),
            None,
        )
        .unwrap(),
    );
    let req = l.last_wire();
    assert_eq!(req.path, format!("/threads/{thread}/runs/stream"));
    assert_eq!(
        body_of(&l),
        json!({"assistant_id": AGENT, "on_disconnect": "cancel",
               "stream_mode": ["messages-tuple", "values", "updates"],
               "command": {"resume": {interrupt.as_str(): [{"type": "edit",
                   "args": {"action": "send_email",
                            "args": {"to": "bob@example.com", "subject": "Hello"}}}]}}})
    );
    l.stream(RESUMED);
    assert!(matches!(
        l.session.cards()[0].state,
        CardState::Settled(Outcome::ApprovedEdited { .. })
    ));
    assert_eq!(
        l.session.messages().last().unwrap().content.display_text(),
        "Email sent to bob@example.com."
    );
    // A reload reads the card settled and the reply there.
    let mut again = Link::new(TransportKind::Langgraph, l.stored_threads());
    again.cmd(Command::Start);
    again.cmd(Command::OpenConversation(conversation));
    let done = STATE_DONE.replace("ada@example.com.", "bob@example.com.");
    server_state(&mut again, &thread, 200, &done);
    assert!(matches!(
        again.session.cards()[0].state,
        CardState::Settled(Outcome::ApprovedEdited { .. })
    ));
}

#[test]
fn issue_39_reload_mid_wait_then_answer_and_a_refused_answer_keeps_its_words() {
    let (l, conversation, thread) = waiting();
    let mut again = Link::new(TransportKind::Langgraph, l.stored_threads());
    again.cmd(Command::Start);
    again.cmd(Command::OpenConversation(conversation));
    let waits = STATE_WAITING.replace(STATE_INTERRUPT, HUMAN_INTERRUPT);
    server_state(&mut again, &thread, 200, &waits);
    assert_eq!(again.session.cards().len(), 1);
    assert_eq!(again.session.cards()[0].state, CardState::Waiting);
    resolve(&mut again, Resolution::deny(Some("Not today".into())));
    assert_eq!(
        again.last_wire().path,
        format!("/threads/{thread}/runs/stream")
    );
    let body = body_of(&again);
    let resume = body["command"]["resume"].as_object().unwrap();
    assert_eq!(
        resume.values().next().unwrap(),
        &json!([{"type": "response", "args": "Not today"}])
    );
    // The server refuses (another run is busy on the thread): its words, the card waits.
    let req = again.last_wire();
    again.wire_input(Input::Response {
        id: req.id,
        result: Ok(HttpResponse {
            status: 409,
            body: r#"{"error":"Conflict","message":"Thread is busy."}"#.into(),
            date: None,
            retry_after: None,
        }),
    });
    assert_eq!(again.session.cards()[0].state, CardState::Waiting);
    assert!(
        format!("{:?}", again.session.error()).contains("Thread is busy."),
        "the server's words are shown"
    );
}

#[test]
fn issue_39_the_gate_refuses_an_edit_the_interrupt_does_not_allow() {
    let mut l = started();
    l.cmd(Command::Send("email Ada".into()));
    // The recorded interrupt, with `allow_edit` turned off.
    l.stream(&HUMAN.replace("\"allow_edit\":true", "\"allow_edit\":false"));
    let card = l.session.cards()[0].clone();
    match &card.action.kind {
        ActionKind::ToolApproval(t) => assert_eq!(t.args_editable, Some(false)),
        other => panic!("expected a tool approval, got {other:?}"),
    }
    let before = l.wire.len();
    resolve(
        &mut l,
        Resolution::from_json(
            &json!({"type": "tool_approval", "decision": "allow",
                    "approvedArgs": {"to": "eve@example.com", "subject": "Hello"}}),
            None,
        )
        .unwrap(),
    );
    assert_eq!(l.wire.len(), before, "nothing reached the wire");
    assert_eq!(l.session.cards()[0].state, CardState::Waiting);
    assert!(matches!(
        l.session.error(),
        Some(ChatError::Refused(ResolveRefusal::EditNotOffered))
    ));
    // The plain approval goes out as `accept`.
    resolve(&mut l, Resolution::allow());
    assert_eq!(l.wire.len(), before + 1);
    let resume = body_of(&l)["command"]["resume"].clone();
    assert_eq!(
        resume.as_object().unwrap().values().next().unwrap()[0]["type"],
        "accept"
    );
}

#[test]
fn issue_39_the_gate_keeps_a_decline_to_what_the_interrupt_takes() {
    // `allow_respond` without `allow_ignore`: a decline needs a reason.
    let mut l = started();
    l.cmd(Command::Send("email Ada".into()));
    l.stream(&HUMAN.replace("\"allow_ignore\":true", "\"allow_ignore\":false"));
    match &l.session.cards()[0].action.kind {
        ActionKind::ToolApproval(t) => assert_eq!(t.decline, Some(Decline::WithReason)),
        other => panic!("expected a tool approval, got {other:?}"),
    }
    let before = l.wire.len();
    resolve(&mut l, Resolution::deny(None));
    assert_eq!(l.wire.len(), before, "nothing reached the wire");
    assert!(matches!(
        l.session.error(),
        Some(ChatError::Refused(ResolveRefusal::DeclineNotOffered))
    ));
    resolve(&mut l, Resolution::deny(Some("Wrong address".into())));
    assert_eq!(l.wire.len(), before + 1, "a decline with words goes out");
    let resume = body_of(&l)["command"]["resume"].clone();
    assert_eq!(
        resume.as_object().unwrap().values().next().unwrap(),
        &json!([{"type": "response", "args": "Wrong address"}])
    );
}

/// The first `events` events of a fixture (each ends with a blank line).
fn first_events(fixture: &str, events: usize) -> String {
    fixture
        .split_inclusive("\n\n")
        .take(events)
        .collect::<String>()
}

#[test]
fn issue_39_stop_cancels_the_run_as_the_sdk_does_and_keeps_the_text() {
    let mut l = started();
    l.cmd(Command::Send("hi".into()));
    let stream = l.last_wire();
    let conversation = l.session.conversation().unwrap().id.clone();
    let thread = thread_id(&conversation);
    // The run's id, the state, then two pieces of the model's text: "He".
    l.wire_input(Input::StreamChunk {
        id: stream.id,
        bytes: first_events(REPLY, 4).into_bytes(),
    });
    assert_eq!(l.session.run(), Run::Streaming);
    let drawn = l.session.revisions().streaming;
    l.cmd(Command::Stop);
    assert_ne!(
        l.session.revisions().streaming,
        drawn,
        "views hear that the streaming turn is gone"
    );
    assert_eq!(l.aborted, vec![stream.id], "the stream is dropped at once");
    let cancel = l.last_wire();
    assert_eq!(cancel.method, Method::Post);
    assert_eq!(
        cancel.path,
        format!(
            "/threads/{thread}/runs/01a24741-51df-769c-b4da-d4023cc24697/cancel?action=interrupt"
        )
    );
    assert_ne!(l.session.run(), Run::Streaming);
    assert_eq!(
        l.session.messages().last().unwrap().content.display_text(),
        "He",
        "the text so far stays"
    );
    // Kept in the conversation too: a reload shows it.
    let stored = &l.threads()[0];
    assert_eq!(stored.messages.last().unwrap()["content"], "He");
    // The cancel's answer is not read; the next message goes through.
    l.wire_input(Input::Response {
        id: cancel.id,
        result: Ok(HttpResponse {
            status: 202,
            body: String::new(),
            date: None,
            retry_after: None,
        }),
    });
    l.cmd(Command::Send("hello again".into()));
    assert_eq!(l.last_wire().path, format!("/threads/{thread}/runs/stream"));
    assert_eq!(l.session.run(), Run::Streaming);
}

#[test]
fn issue_39_stop_before_the_run_is_named_only_drops_the_stream() {
    let mut l = started();
    l.cmd(Command::Send("hi".into()));
    let stream = l.last_wire();
    l.cmd(Command::Stop);
    assert_eq!(l.aborted, vec![stream.id]);
    assert_eq!(l.last_wire().id, stream.id, "nothing else was sent");
}

/// One human interrupt of a run, as the server lists it under `__interrupt__`.
fn interrupt(id: &str, action: &str, to: &str) -> Value {
    json!({"id": id, "value": [{"action_request": {"action": action, "args": {"to": to}},
        "config": {"allow_accept": true, "allow_edit": false, "allow_respond": true,
                   "allow_ignore": true},
        "description": format!("{action} to {to}")}]})
}

#[test]
fn issue_39_several_interrupts_of_one_run_are_resumed_together_in_one_run() {
    const A: &str = "0b7e5f0c3a1d4e2f9a8b7c6d5e4f3a2b";
    const B: &str = "1c8f6a1d4b2e5f3a0b9c8d7e6f5a4b3c";
    let mut l = started();
    l.cmd(Command::Send("do both".into()));
    let conversation = l.session.conversation().unwrap().id.clone();
    let thread = thread_id(&conversation);
    let both = json!({"__interrupt__": [interrupt(A, "send_email", "ada"),
                                        interrupt(B, "post_memo", "team")]});
    l.stream(&format!(
        "event: metadata\ndata: {{\"run_id\":\"r1\"}}\n\nevent: updates\ndata: {both}\n\n"
    ));
    assert_eq!(l.session.cards().len(), 2, "one card per interrupt");
    let sent = l.wire.len();
    // The first answer is kept: nothing goes out while the run's other interrupt waits.
    let first = l.session.cards()[0].clone();
    l.cmd(Command::Resolve {
        shown: Shown::of(&first.action),
        resolution: Resolution::from_json(
            &json!({"type": "tool_approval", "decision": "allow"}),
            None,
        )
        .unwrap(),
    });
    assert_eq!(
        l.wire.len(),
        sent,
        "held until the other interrupt is answered"
    );
    assert!(matches!(
        l.session.cards()[0].state,
        CardState::Settled(Outcome::Approved { .. })
    ));
    // The second answer resumes both interrupts in one run, each by its id.
    let second = l.session.cards()[1].clone();
    l.cmd(Command::Resolve {
        shown: Shown::of(&second.action),
        resolution: Resolution::deny(Some("Not the memo".into())),
    });
    assert_eq!(l.wire.len(), sent + 1, "one run for both");
    assert_eq!(l.last_wire().path, format!("/threads/{thread}/runs/stream"));
    assert_eq!(
        body_of(&l)["command"],
        json!({"resume": {
            A: [{"type": "accept", "args": {"action": "send_email", "args": {"to": "ada"}}}],
            B: [{"type": "response", "args": "Not the memo"}]}})
    );
}

#[test]
fn issue_39_an_empty_store_reads_the_conversation_and_its_waiting_interrupt_from_the_server() {
    let (l, conversation, thread) = waiting();
    // Another device (or a cleared store): nothing kept in the page.
    let mut other = Link::new(TransportKind::Langgraph, vec![]);
    other.cmd(Command::Start);
    other.cmd(Command::OpenConversation(conversation.clone()));
    assert!(
        other.session.messages().is_empty(),
        "the open waits for the server"
    );
    server_state(&mut other, &thread, 200, STATE_WAITING);
    let shown: Vec<String> = other
        .session
        .messages()
        .iter()
        .map(|m| m.content.display_text().to_string())
        .collect();
    assert_eq!(shown, ["email Ada", "I will email Ada once you approve."]);
    assert_eq!(other.session.cards().len(), 1);
    let card = other.session.cards()[0].clone();
    assert_eq!(card.state, CardState::Waiting);
    assert_eq!(card.action.id, STATE_INTERRUPT, "the server's interrupt");
    assert!(
        other.threads().iter().any(|t| t.id() == conversation),
        "kept"
    );
    // Answered there: the resume names the server's interrupt.
    resolve(
        &mut other,
        Resolution::from_json(&json!({"type": "tool_approval", "decision": "allow"}), None)
            .unwrap(),
    );
    assert_eq!(
        other.last_wire().path,
        format!("/threads/{thread}/runs/stream")
    );
    assert_eq!(
        body_of(&other)["command"]["resume"][STATE_INTERRUPT],
        json!([{"type": "accept", "args": {"action": "send_email",
                "args": {"to": "ada@example.com", "subject": "Hello"}}}])
    );
    // The first page, reopened after that run: its card no longer waits, the reply is there.
    let mut first = Link::new(TransportKind::Langgraph, l.stored_threads());
    first.cmd(Command::Start);
    first.cmd(Command::OpenConversation(conversation));
    server_state(&mut first, &thread, 200, STATE_DONE);
    assert_eq!(
        first
            .session
            .messages()
            .last()
            .unwrap()
            .content
            .display_text(),
        "Email sent to ada@example.com."
    );
    assert!(first
        .session
        .cards()
        .iter()
        .all(|c| c.state != CardState::Waiting));
}

#[test]
fn issue_39_the_pages_copy_answers_when_the_server_cannot_be_read() {
    let (l, conversation, thread) = waiting();
    for (status, body) in [(404, "Thread not found"), (200, "not json"), (500, "boom")] {
        let mut again = Link::new(TransportKind::Langgraph, l.stored_threads());
        again.cmd(Command::Start);
        again.cmd(Command::OpenConversation(conversation.clone()));
        server_state(&mut again, &thread, status, body);
        assert_eq!(again.session.cards().len(), 1, "{status}");
        assert_eq!(
            again.session.cards()[0].state,
            CardState::Waiting,
            "{status}"
        );
    }
    // A card the server no longer waits on (answered elsewhere) settles.
    let mut again = Link::new(TransportKind::Langgraph, l.stored_threads());
    again.cmd(Command::Start);
    again.cmd(Command::OpenConversation(conversation));
    let elsewhere = STATE_WAITING.replace(STATE_INTERRUPT, "0000aaaa0000aaaa0000aaaa0000aaaa");
    server_state(&mut again, &thread, 200, &elsewhere);
    let states: Vec<bool> = again
        .session
        .cards()
        .iter()
        .map(|c| c.state == CardState::Waiting)
        .collect();
    assert_eq!(
        states,
        [false, true],
        "the old card settled, the server's waits"
    );
}

#[test]
fn issue_39_a_hostile_thread_state_never_panics_and_unreadable_keeps_the_pages_copy() {
    let (l, _, _) = waiting();
    let local = l.threads()[0].clone();
    let bytes = STATE_WAITING.as_bytes();
    for cut in (0..bytes.len()).step_by(7) {
        let text = String::from_utf8_lossy(&bytes[..cut]);
        assert_eq!(
            langgraph::state::read("conv", "agent", Some(&local), &text, "now"),
            None,
            "a state cut at {cut} is not read"
        );
    }
    for odd in [
        r#"{"values": []}"#,
        r#"{"values": {"messages": "no"}, "tasks": {"interrupts": 1}}"#,
        r#"{"values": {"messages": [null, 1, {"type": "ai", "tool_calls": [null, {"id": 2}]}]},
            "tasks": [null, {"interrupts": [null, {"id": 5}, {"id": "x", "value": null}]}],
            "interrupts": "no"}"#,
        r#"{"values": {"messages": [{"type": "human", "content": [{"type": "image_url"}]}]}}"#,
    ] {
        let _ = langgraph::state::read("conv", "agent", Some(&local), odd, "now");
        let _ = langgraph::state::read("conv", "agent", None, odd, "now");
    }
    // An empty state of an unknown thread makes no conversation.
    assert_eq!(
        langgraph::state::read("conv", "agent", None, r#"{"values": {}}"#, "now"),
        None
    );
}
