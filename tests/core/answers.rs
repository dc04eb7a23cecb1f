//! Issue 15: cards answered through a backend without conversations of its own. With an
//! action endpoint configured, the Responses (Console, PROTOCOL C20) cards are answerable: the
//! gateway posts the answer there, settles the card once the backend took it, keeps the answer
//! on the stored reply (a reload reads "Answered") and reads the backend's continuation as a
//! new reply. Without one they stay read-only. An A2A task that waits for input is answered
//! the A2A way (issue 39): an ordinary message on the task, action URL or not. Recorded
//! fixtures; no browser.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;

use agent_chat_ui::core::transport::{TransportKind, TransportOptions};
use agent_chat_ui::core::{
    AnswerValue, CardState, Command, ComposerState, HttpResponse, Input, Method, Outcome,
    Resolution, Run, SessionEvent, Shown,
};
use serde_json::{json, Value};

use crate::common::link;
use link::Link;

fn options(kind: TransportKind, action_url: Option<&str>) -> TransportOptions {
    TransportOptions {
        kind,
        model: Some("gpt-test".into()),
        action_url: action_url.map(str::to_owned),
        ..TransportOptions::default()
    }
}

fn body_of(l: &Link) -> Value {
    serde_json::from_str(l.last_wire().body.as_deref().unwrap()).unwrap()
}

fn card_state(l: &Link, id: &str) -> CardState {
    l.session
        .cards()
        .iter()
        .find(|c| c.action.id == id)
        .map(|c| c.state.clone())
        .expect("the card is shown")
}

fn resolve(l: &mut Link, id: &str, resolution: Resolution) {
    let action = l
        .session
        .cards()
        .iter()
        .find(|c| c.action.id == id)
        .expect("the card is shown")
        .action
        .clone();
    l.cmd(Command::Resolve {
        shown: Shown::of(&action),
        resolution,
    });
}

/// A Console response that stops with one approval waiting.
const WAITS: &str = concat!(
    "data: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_9\"}}\n\n",
    "data: {\"type\":\"response.output_text.delta\",\"delta\":\"I need your approval.\"}\n\n",
    "data: {\"type\":\"response.completed\",\"response\":{\"id\":\"resp_9\",\"status\":\"requires_action\",",
    "\"pendingActions\":[{\"id\":\"act_1\",\"kind\":\"tool_approval\",\"status\":\"pending\",",
    "\"toolName\":\"send_email\",\"args\":{\"to\":\"ayse@example.com\"}}]}}\n\n",
);

/// The Console's continuation after the answer: a new response.
const CONTINUES: &str = concat!(
    "data: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_10\"}}\n\n",
    "data: {\"type\":\"response.output_text.delta\",\"delta\":\"Sent the report.\"}\n\n",
    "data: {\"type\":\"response.completed\",\"response\":{\"id\":\"resp_10\",\"status\":\"completed\"}}\n\n",
);

fn waiting_console() -> Link {
    let mut l = Link::with_options(
        options(
            TransportKind::Responses,
            Some("/console/actions/{actionId}"),
        ),
        vec![],
    );
    l.cmd(Command::Start);
    l.cmd(Command::Send("Email the report to Ayşe".into()));
    l.stream(WAITS);
    l
}

#[test]
fn i15_c20_a_console_card_is_answered_at_the_action_endpoint_and_continues() {
    let mut l = waiting_console();
    assert!(
        l.session.config().can_resolve,
        "an action endpoint: answerable"
    );
    let card = l.session.cards()[0].clone();
    assert!(l.session.can_resolve(&card));
    assert_eq!(l.session.composer_state(), ComposerState::Blocked);
    resolve(&mut l, "act_1", Resolution::allow());

    let (req, streamed) = l.wire.last().unwrap().clone();
    assert!(streamed);
    assert_eq!(req.method, Method::Post);
    assert_eq!(req.path, "/console/actions/act_1", "{{actionId}} filled in");
    let body = body_of(&l);
    assert_eq!(body["resolution"]["decision"], "allow");
    assert_eq!(
        body["previous_response_id"], "resp_9",
        "the response that waits"
    );
    assert_eq!(body["model"], "gpt-test");
    assert!(
        body["decisionKey"].is_string(),
        "the decision's key goes along"
    );
    assert_eq!(card_state(&l, "act_1"), CardState::Sending);

    l.stream(CONTINUES);
    assert!(matches!(
        card_state(&l, "act_1"),
        CardState::Settled(Outcome::Approved { .. })
    ));
    assert!(l.events.iter().any(
        |e| matches!(e, SessionEvent::ActionResolved { action_id, .. } if action_id == "act_1")
    ));
    assert_eq!(l.session.run(), Run::Idle);
    let last = l.session.messages().last().unwrap();
    assert_eq!(last.content.display_text(), "Sent the report.");
    assert_eq!(l.session.composer_state(), ComposerState::Normal);

    // Kept: the answer on the reply that waited, the continuation, and the new chain.
    let stored = l.stored_threads();
    let thread = &stored[0];
    assert_eq!(thread.messages.len(), 3);
    assert_eq!(
        thread.messages[1]["actionStates"]["act_1"]["status"],
        "resolved"
    );
    assert_eq!(
        thread.messages[1]["actionStates"]["act_1"]["resolution"]["decision"],
        "allow"
    );
    assert_eq!(
        thread.conversation["metadata"]["previousResponseId"],
        "resp_10"
    );

    // A reload shows the card answered, not waiting.
    let id = thread.id().to_owned();
    let mut again = Link::with_options(
        options(
            TransportKind::Responses,
            Some("/console/actions/{actionId}"),
        ),
        stored,
    );
    again.cmd(Command::Start);
    again.cmd(Command::OpenConversation(id));
    assert!(matches!(
        card_state(&again, "act_1"),
        CardState::Settled(Outcome::Approved { .. })
    ));
    assert_eq!(again.session.composer_state(), ComposerState::Normal);
}

#[test]
fn i15_c20_a_refused_answer_keeps_the_card_waiting_with_the_servers_wording() {
    let mut l = waiting_console();
    resolve(&mut l, "act_1", Resolution::deny(Some("not now".into())));
    assert_eq!(body_of(&l)["resolution"]["comment"], "not now");
    let id = l.last_wire().id;
    l.wire_input(Input::Response {
        id,
        result: Ok(HttpResponse {
            status: 422,
            body: r#"{"error":{"code":"invalid_resolution","message":"The Console refused it"}}"#
                .into(),
            date: None,
            retry_after: None,
        }),
    });
    assert_eq!(card_state(&l, "act_1"), CardState::Waiting);
    let shown = format!("{:?}", l.session.error());
    assert!(shown.contains("The Console refused it"), "{shown}");
    // Nothing was kept as answered.
    assert!(l.threads()[0].messages[1].get("actionStates").is_none());
}

#[test]
fn i15_c20_an_answer_read_whole_when_not_streaming() {
    let mut l = waiting_console();
    l.without_streaming();
    resolve(&mut l, "act_1", Resolution::allow());
    let (req, streamed) = l.wire.last().unwrap().clone();
    assert!(!streamed);
    assert_eq!(body_of(&l)["stream"], false);
    let reply = json!({"id": "resp_11", "status": "completed", "output": [{"type": "message",
        "role": "assistant", "content": [{"type": "output_text", "text": "Done, sent."}]}]});
    l.wire_input(Input::Response {
        id: req.id,
        result: Ok(HttpResponse {
            status: 200,
            body: reply.to_string(),
            date: None,
            retry_after: None,
        }),
    });
    assert!(matches!(
        card_state(&l, "act_1"),
        CardState::Settled(Outcome::Approved { .. })
    ));
    assert_eq!(
        l.session.messages().last().unwrap().content.display_text(),
        "Done, sent."
    );
}

#[test]
fn i15_f190_without_an_action_endpoint_the_card_stays_read_only_and_nothing_is_sent() {
    let mut l = Link::with_options(options(TransportKind::Responses, None), vec![]);
    l.cmd(Command::Start);
    l.cmd(Command::Send("Email the report".into()));
    l.stream(WAITS);
    let before = l.wire.len();
    resolve(&mut l, "act_1", Resolution::allow());
    assert_eq!(
        l.wire.len(),
        before,
        "the gate refused: nothing reached the wire"
    );
    assert_eq!(card_state(&l, "act_1"), CardState::Waiting);
    assert!(l
        .events
        .iter()
        .any(|e| matches!(e, SessionEvent::ResolveRefused { .. })));
}

/// One SSE frame whose data is a JSON-RPC response carrying `result`.
fn rpc(result: Value) -> String {
    format!(
        "data: {}\n\n",
        json!({"jsonrpc": "2.0", "id": 1, "result": result})
    )
}

fn asks_for_a_date() -> String {
    [
        rpc(json!({"kind": "task", "id": "task_7", "contextId": "ctx_7", "status": {"state": "working"}})),
        rpc(json!({"kind": "status-update", "taskId": "task_7", "contextId": "ctx_7", "final": true,
                   "status": {"state": "input-required", "message": {"kind": "message", "role": "agent",
                   "messageId": "ask_1", "parts": [{"kind": "text", "text": "Which date?"}]}}})),
    ]
    .concat()
}

fn a2a_started(action_url: Option<&str>) -> Link {
    let mut l = Link::with_options(options(TransportKind::A2a, action_url), vec![]);
    l.cmd(Command::Start);
    let card = l.last_wire();
    l.wire_input(Input::Response {
        id: card.id,
        result: Ok(HttpResponse {
            status: 200,
            body: r#"{"name":"Travel Agent"}"#.into(),
            date: None,
            retry_after: None,
        }),
    });
    l.cmd(Command::Send("Book a flight to Izmir".into()));
    l.stream(&asks_for_a_date());
    l
}

fn question_card(l: &Link) -> agent_chat_ui::core::ActionCard {
    let cards = l.session.cards();
    assert_eq!(cards.len(), 1, "the task that waits for input is a card");
    cards[0].clone()
}

#[test]
fn i39_an_a2a_question_is_answered_in_its_card_by_a_message_on_the_task_not_at_the_action_url() {
    // Issue 39 replaced C19's action body: an action URL configured for A2A is not used.
    let mut l = a2a_started(Some("https://agent.test/actions/{actionId}"));
    let card = question_card(&l);
    assert_eq!(card.action.id, "ask_1", "the status message's id");
    assert!(l.session.can_resolve(&card));
    let mut answers = BTreeMap::new();
    answers.insert("Which date?".to_owned(), AnswerValue::One("Friday".into()));
    resolve(
        &mut l,
        "ask_1",
        Resolution::UserQuestion {
            answers,
            cancelled: false,
        },
    );
    let req = l.last_wire();
    assert_eq!(req.path, "", "JSON-RPC at the base URL, as every message");
    let body = body_of(&l);
    assert_eq!(body["method"], "SendStreamingMessage");
    let message = &body["params"]["message"];
    assert_eq!(message["contextId"], "ctx_7", "the agent's context");
    assert_eq!(message["taskId"], "task_7", "on the task that waits");
    assert_eq!(message["role"], "ROLE_USER");
    assert_eq!(
        message["parts"],
        json!([{"text": "Friday"}]),
        "the answer as text, nothing else"
    );
    assert!(body.get("actionId").is_none() && body["params"].get("resolution").is_none());
    l.stream(
        &[
            rpc(json!({"kind": "artifact-update", "taskId": "task_7", "contextId": "ctx_7",
                   "artifact": {"artifactId": "a1", "parts": [{"kind": "text", "text": "Booked for Friday."}]}})),
            rpc(json!({"kind": "status-update", "taskId": "task_7", "contextId": "ctx_7", "final": true,
                   "status": {"state": "completed"}})),
        ]
        .concat(),
    );
    assert!(matches!(
        card_state(&l, "ask_1"),
        CardState::Settled(Outcome::Answered { .. })
    ));
    assert_eq!(
        l.session.messages().last().unwrap().content.display_text(),
        "Booked for Friday."
    );
    let kept = &l.threads()[0].conversation["metadata"];
    assert!(
        kept.get("a2aTaskId").is_none(),
        "the completed task is closed"
    );
}

#[test]
fn i39_without_an_action_url_the_a2a_question_is_answerable_and_a_message_continues_the_task() {
    let mut l = a2a_started(None);
    let card = question_card(&l);
    assert!(
        l.session.can_resolve(&card),
        "answered by a message (issue 39)"
    );
    assert!(
        matches!(l.session.composer_state(), ComposerState::Answer { .. }),
        "the composer answers the one free-text question"
    );
    // The composer's answer is a message on the task, like the card's.
    l.cmd(Command::Send("Friday".into()));
    let body = body_of(&l);
    assert_eq!(body["params"]["message"]["taskId"], "task_7");
    l.stream(&rpc(
        json!({"kind": "status-update", "taskId": "task_7", "contextId": "ctx_7", "final": true,
               "status": {"state": "completed", "message": {"kind": "message", "role": "agent",
               "parts": [{"kind": "text", "text": "Booked."}]}}}),
    ));
    // The message answered the question: the card no longer waits, here and after a reload.
    assert!(matches!(card_state(&l, "ask_1"), CardState::Settled(_)));
    let stored = l.stored_threads();
    assert_eq!(
        stored[0].messages[1]["actionStates"]["ask_1"]["status"],
        "resolved"
    );
    let id = stored[0].id().to_owned();
    let mut again = Link::with_options(options(TransportKind::A2a, None), stored);
    again.cmd(Command::Start);
    again.cmd(Command::OpenConversation(id));
    assert!(matches!(card_state(&again, "ask_1"), CardState::Settled(_)));
}

#[test]
fn i39_an_a2a_agent_that_names_its_actions_in_a_data_part_gets_the_answer_as_a_data_part() {
    let mut l = Link::with_options(
        options(TransportKind::A2a, Some("/actions/{actionId}")),
        vec![],
    );
    l.cmd(Command::Start);
    let card = l.last_wire();
    l.wire_input(Input::Response {
        id: card.id,
        result: Err(agent_chat_ui::core::TransportError::Network(
            "offline".into(),
        )),
    });
    l.cmd(Command::Send("Delete the cache".into()));
    l.stream(&rpc(
        json!({"kind": "status-update", "taskId": "t1", "contextId": "c1", "final": true,
               "status": {"state": "input-required", "message": {"kind": "message", "role": "agent",
               "parts": [{"kind": "text", "text": "May I?"},
                         {"kind": "data", "data": {"pendingActions": [{"id": "act_rm",
                          "type": "tool_approval", "toolName": "rm", "args": {"path": "./cache"}}]}}]}}}),
    ));
    let card = question_card(&l);
    assert_eq!(card.action.id, "act_rm");
    resolve(&mut l, "act_rm", Resolution::allow());
    assert_eq!(l.last_wire().path, "", "a message at the base URL");
    let message = &body_of(&l)["params"]["message"];
    assert_eq!(message["taskId"], "t1");
    assert_eq!(message["parts"][0], json!({"text": "Approved."}));
    assert_eq!(message["parts"][1]["data"]["actionId"], "act_rm");
    assert_eq!(
        message["parts"][1]["data"]["resolution"]["decision"],
        "allow"
    );
    // An answer the agent no longer waits for: settled as it says, nothing kept as answered.
    let id = l.last_wire().id;
    l.wire_input(Input::Response {
        id,
        result: Ok(HttpResponse {
            status: 409,
            body: r#"{"error":{"code":"action_not_pending","message":"gone"}}"#.into(),
            date: None,
            retry_after: None,
        }),
    });
    assert!(l.threads()[0].messages[1].get("actionStates").is_none());
}

/// A Chat Completions reply that stops for a tool call (`finish_reason: "tool_calls"`).
const STOPS_FOR_A_CALL: &str = concat!(
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null}}]}\n\n",
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_email\",",
    "\"function\":{\"name\":\"send_email\",\"arguments\":\"{\\\"to\\\":\\\"ayse@example.com\\\"}\"}}]}}]}\n\n",
    "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n",
    "data: [DONE]\n\n",
);

#[test]
fn i15_f190_a_chat_completions_reply_waiting_for_its_tool_call_is_a_read_only_card() {
    let mut l = Link::new(TransportKind::ChatCompletions, vec![]);
    l.cmd(Command::Start);
    l.cmd(Command::Send("Email the report".into()));
    l.stream(STOPS_FOR_A_CALL);
    let cards = l.session.cards();
    assert_eq!(cards.len(), 1, "the call it stopped for is a card");
    assert_eq!(cards[0].action.id, "call_email");
    assert!(!l.session.can_resolve(&cards[0]), "read-only (F190)");
    assert_eq!(l.session.composer_state(), ComposerState::Normal);
    // The person moves on: the call is left behind, here and after a reload.
    l.cmd(Command::Send("Never mind".into()));
    l.stream(
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"OK.\"}}]}\n\ndata: [DONE]\n\n",
    );
    assert_eq!(
        card_state(&l, "call_email"),
        CardState::Settled(Outcome::Cancelled)
    );
    let stored = l.stored_threads();
    assert_eq!(
        stored[0].messages[1]["actionStates"]["call_email"]["status"],
        "cancelled"
    );
    // A reply that finished normally waits on nothing, even with a tool call.
    let mut plain = Link::new(TransportKind::ChatCompletions, vec![]);
    plain.cmd(Command::Start);
    plain.cmd(Command::Send("Email the report".into()));
    plain.stream(&STOPS_FOR_A_CALL.replace("\"tool_calls\"}]", "\"stop\"}]"));
    assert!(plain.session.cards().is_empty());
}

#[test]
fn i15_responses_without_server_state_resend_the_history_and_ask_not_to_store() {
    let mut options = options(TransportKind::Responses, None);
    options.resend_history = true;
    let mut l = Link::with_options(options, vec![]);
    l.cmd(Command::Start);
    l.cmd(Command::Send("Hello".into()));
    assert_eq!(body_of(&l)["store"], false);
    l.stream(CONTINUES);
    l.cmd(Command::Send("And again".into()));
    let body = body_of(&l);
    assert!(
        body.get("previous_response_id").is_none(),
        "not chained: {body}"
    );
    assert_eq!(body["store"], false);
    assert_eq!(
        body["input"],
        json!([
            {"role": "user", "content": "Hello"},
            {"role": "assistant", "content": "Sent the report."},
            {"role": "user", "content": "And again"}
        ]),
        "the whole history"
    );
}
