//! Issue 15: an A2A agent behind the gateway. The agent card names the one agent; a send is
//! JSON-RPC `message/stream` (or `message/send`) at the base URL, in the conversation's
//! context and open task; results (tasks, artifact and status updates, messages) are read
//! back as `stream.*` frames. `input-required` ends the turn with the task kept, so the next
//! message continues it. Recorded fixtures, split at every byte; no browser.
//!
//! Issue 39: A2A 1.0 as the `@a2a-js/sdk` server speaks it by default (its own type
//! serializers' output: results wrapped by type, `TASK_STATE_*`, `ROLE_*`, parts without
//! `kind`), the `A2A-Version` header, the card where the SDK's client finds it; the 0.3 tests
//! above and below run against a 0.3 card (a top-level `url`), whose wire is kept.
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::transport::a2a::{self, Decoder, CONTEXT_KEY, TASK_KEY};
use agent_chat_ui::core::transport::reply::Delta;
use agent_chat_ui::core::transport::TransportKind;
use agent_chat_ui::core::{ChatError, Command, HttpResponse, Input, Method, Run};
use serde_json::{json, Value};

use crate::common::link;
use link::{text_of, Link};

const CARD: &str = r#"{"name":"Travel Agent","description":"Books trips","url":"http://agent.test/a2a","version":"1.0.0","capabilities":{"streaming":true}}"#;

/// One SSE frame whose data is a JSON-RPC response carrying `result`.
fn rpc(result: Value) -> String {
    format!(
        "data: {}\n\n",
        json!({"jsonrpc": "2.0", "id": 1, "result": result})
    )
}

/// A task that works, streams an artifact in two appended pieces and completes.
fn completed_task() -> String {
    [
        rpc(json!({"kind": "task", "id": "task_1", "contextId": "ctx_1",
                   "status": {"state": "submitted"}})),
        rpc(json!({"kind": "status-update", "taskId": "task_1", "contextId": "ctx_1",
                   "status": {"state": "working", "message": {"kind": "message", "role": "agent",
                   "parts": [{"kind": "text", "text": "Looking…"}]}}, "final": false})),
        rpc(json!({"kind": "artifact-update", "taskId": "task_1", "contextId": "ctx_1",
                   "artifact": {"artifactId": "a1", "parts": [{"kind": "text", "text": "Flights to "}]}})),
        rpc(json!({"kind": "artifact-update", "taskId": "task_1", "contextId": "ctx_1", "append": true,
                   "artifact": {"artifactId": "a1", "parts": [{"kind": "text", "text": "Izmir: 3 found."}]}})),
        rpc(json!({"kind": "status-update", "taskId": "task_1", "contextId": "ctx_1",
                   "status": {"state": "completed"}, "final": true})),
    ]
    .concat()
}

#[test]
fn i15_a2a_results_read_the_same_split_at_every_byte() {
    let stream = completed_task();
    let bytes = stream.as_bytes();
    let mut whole = Decoder::new();
    let mut expected = whole.push(bytes);
    expected.extend(whole.finish());
    let ending = whole.ending();
    // Artifact text wins over the status text that came first.
    assert_eq!(ending.content, "Flights to Izmir: 3 found.");
    assert_eq!(ending.keep[CONTEXT_KEY], "ctx_1");
    assert_eq!(
        ending.keep[TASK_KEY],
        Value::Null,
        "a completed task is closed"
    );
    assert!(!expected.iter().any(|d| matches!(d, Delta::Error(_))));
    // The status text is progress: only the artifact streams.
    assert_eq!(text_of(&expected), "Flights to Izmir: 3 found.");
    for cut in 1..bytes.len() {
        let mut d = Decoder::new();
        let mut got = d.push(&bytes[..cut]);
        got.extend(d.push(&bytes[cut..]));
        got.extend(d.finish());
        assert_eq!(got, expected, "split at {cut}");
        assert_eq!(d.ending(), ending, "split at {cut}");
    }
}

/// Starts a chat over A2A: the card is asked for once and names the agent.
fn started(card: Result<(u16, &str), ()>) -> Link {
    let mut l = Link::new(TransportKind::A2a, vec![]);
    l.cmd(Command::Start);
    let req = l.last_wire();
    assert_eq!(req.method, Method::Get);
    assert_eq!(req.path, a2a::CARD_PATH);
    let result = match card {
        Ok((status, body)) => Ok(HttpResponse {
            status,
            body: body.into(),
            date: None,
            retry_after: None,
        }),
        Err(()) => Err(agent_chat_ui::core::TransportError::Network(
            "offline".into(),
        )),
    };
    l.wire_input(Input::Response { id: req.id, result });
    l
}

#[test]
fn i15_a_turn_over_a2a_keeps_the_context_and_continues_a_task_that_waits_for_input() {
    let mut l = started(Ok((200, CARD)));
    assert_eq!(l.session.agents()[0].name, "Travel Agent");
    l.cmd(Command::Send("Book me a flight".into()));
    let (req, streamed) = l.wire.last().unwrap().clone();
    assert!(streamed);
    assert_eq!(req.path, a2a::RPC_PATH, "JSON-RPC at the base URL");
    let body: Value = serde_json::from_str(req.body.as_deref().unwrap()).unwrap();
    assert_eq!(body["jsonrpc"], "2.0");
    assert_eq!(body["method"], "message/stream");
    let message = &body["params"]["message"];
    assert_eq!(message["role"], "user");
    assert_eq!(
        message["parts"],
        json!([{"kind": "text", "text": "Book me a flight"}])
    );
    assert!(message.get("contextId").is_none());
    // The agent asks back: the turn ends with its question, the task stays open.
    l.stream(&[
        rpc(json!({"kind": "task", "id": "task_7", "contextId": "ctx_7", "status": {"state": "working"}})),
        rpc(json!({"kind": "status-update", "taskId": "task_7", "contextId": "ctx_7", "final": true,
                   "status": {"state": "input-required", "message": {"kind": "message", "role": "agent",
                   "parts": [{"kind": "text", "text": "Which date?"}]}}})),
    ]
    .concat());
    // The question is a card the composer answers (issue 39: answerable without an action
    // URL, by a message on the task), drawn once: the reply itself carries no copy of it.
    assert_eq!(l.session.run(), Run::AwaitingAction);
    assert_eq!(l.session.cards().len(), 1);
    assert!(matches!(
        l.session.composer_state(),
        agent_chat_ui::core::ComposerState::Answer { .. }
    ));
    assert_eq!(
        l.session.messages().last().unwrap().content.display_text(),
        ""
    );
    let kept = &l.threads()[0].conversation["metadata"];
    assert_eq!(kept[TASK_KEY], "task_7");
    // The reply continues the task in its context.
    l.cmd(Command::Send("Friday".into()));
    let body: Value = serde_json::from_str(l.last_wire().body.as_deref().unwrap()).unwrap();
    assert_eq!(body["params"]["message"]["taskId"], "task_7");
    assert_eq!(body["params"]["message"]["contextId"], "ctx_7");
    l.stream(
        &completed_task()
            .replace("task_1", "task_7")
            .replace("ctx_1", "ctx_7"),
    );
    assert_eq!(
        l.session.messages().last().unwrap().content.display_text(),
        "Flights to Izmir: 3 found."
    );
    let kept = &l.threads()[0].conversation["metadata"];
    assert_eq!(kept[CONTEXT_KEY], "ctx_7");
    assert!(kept.get(TASK_KEY).is_none(), "the completed task is closed");
    assert!(
        l.session.config().can_resolve,
        "answered by a message: no action URL needed (issue 39)"
    );
}

#[test]
fn i15_without_a_card_the_configured_agent_is_listed_and_the_failure_logged() {
    let l = started(Err(()));
    assert_eq!(l.session.agents().len(), 1);
    assert_eq!(l.session.agents()[0].id, "gpt-test", "the configured model");
    assert!(
        l.logs.iter().any(|g| g.contains("agent card")),
        "{:?}",
        l.logs
    );
    let l = started(Ok((200, "<html>not a card</html>")));
    assert_eq!(l.session.agents()[0].name, "gpt-test");
}

#[test]
fn i15_a_failed_task_and_a_json_rpc_error_end_the_turn_with_the_agents_wording() {
    let mut l = started(Ok((200, CARD)));
    l.cmd(Command::Send("Book".into()));
    l.stream(&rpc(
        json!({"kind": "status-update", "taskId": "t", "contextId": "c", "final": true,
        "status": {"state": "failed", "message": {"kind": "message", "role": "agent",
        "parts": [{"kind": "text", "text": "No flights today"}]}}}),
    ));
    assert!(
        matches!(l.session.error(), Some(ChatError::Stream { message, .. }) if message.contains("No flights today")),
        "got {:?}",
        l.session.error()
    );
    let mut d = Decoder::new();
    let out = d.push(
        b"data: {\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32001,\"message\":\"Task not found\"}}\n\ndata: {oops\n\n",
    );
    assert_eq!(
        out[0],
        Delta::Error(agent_chat_ui::core::transport::failure::Failure::new(
            agent_chat_ui::core::transport::failure::FailureKind::AgentError,
            Some("Task not found")
        ))
    );
    assert!(matches!(out[1], Delta::Skipped(_)));
    assert!(!out.iter().any(|d| matches!(d, Delta::Text(_))));
}

#[test]
fn i15_message_send_is_read_whole() {
    let mut l = started(Ok((200, CARD)));
    l.without_streaming();
    l.cmd(Command::Send("Hi".into()));
    let (req, streamed) = l.wire.last().unwrap().clone();
    assert!(!streamed);
    let body: Value = serde_json::from_str(req.body.as_deref().unwrap()).unwrap();
    assert_eq!(body["method"], "message/send");
    let reply = json!({"jsonrpc": "2.0", "id": body["id"], "result": {"kind": "message",
        "role": "agent", "messageId": "m1", "contextId": "ctx_9",
        "parts": [{"kind": "text", "text": "Hello, traveller"}]}});
    l.wire_input(Input::Response {
        id: req.id,
        result: Ok(HttpResponse {
            status: 200,
            body: reply.to_string(),
            date: None,
            retry_after: None,
        }),
    });
    assert_eq!(
        l.session.messages().last().unwrap().content.display_text(),
        "Hello, traveller"
    );
    assert_eq!(
        l.threads()[0].conversation["metadata"][CONTEXT_KEY],
        "ctx_9"
    );
}

// ---- Issue 39: A2A 1.0 ----------------------------------------------------------------------

/// A card as the SDK's `agentCardHandler` serves it (`AgentCard.toJSON`): the JSON-RPC
/// interface on the base URL's origin.
const CARD_1_0: &str = r#"{"name":"Travel Agent","description":"Books trips","supportedInterfaces":[{"url":"http://agent.test/a2a/jsonrpc","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],"version":"1.0.0","capabilities":{"streaming":true},"defaultInputModes":["text"],"defaultOutputModes":["text"],"skills":[]}"#;

const BASE: &str = "http://agent.test/a2a";

/// One 1.0 SSE frame: a JSON-RPC response whose result is a `StreamResponse`.
fn rpc1(result: Value) -> String {
    format!(
        "data: {}\n\n",
        json!({"jsonrpc": "2.0", "id": 1, "result": result})
    )
}

/// A 1.0 task that works, streams an artifact in two appended pieces and completes, as the
/// SDK's `StreamResponse.toJSON` writes it.
fn completed_task_1_0() -> String {
    [
        rpc1(json!({"task": {"id": "task_1", "contextId": "ctx_1",
                    "status": {"state": "TASK_STATE_SUBMITTED"},
                    "history": [{"messageId": "m0", "role": "ROLE_USER", "parts": [{"text": "Book"}]}]}})),
        rpc1(json!({"statusUpdate": {"taskId": "task_1", "contextId": "ctx_1",
                    "status": {"state": "TASK_STATE_WORKING", "message": {"messageId": "m1",
                    "role": "ROLE_AGENT", "parts": [{"text": "Looking…"}]}}}})),
        rpc1(json!({"artifactUpdate": {"taskId": "task_1", "contextId": "ctx_1",
                    "artifact": {"artifactId": "a1", "parts": [{"text": "Flights to "}]}}})),
        rpc1(json!({"artifactUpdate": {"taskId": "task_1", "contextId": "ctx_1", "append": true,
                    "lastChunk": true,
                    "artifact": {"artifactId": "a1", "parts": [{"text": "Izmir: 3 found."}]}}})),
        rpc1(json!({"statusUpdate": {"taskId": "task_1", "contextId": "ctx_1",
                    "status": {"state": "TASK_STATE_COMPLETED"}}})),
    ]
    .concat()
}

/// A 1.0 task that asks back.
fn asks_1_0(task: &str, context: &str) -> String {
    [
        rpc1(json!({"task": {"id": task, "contextId": context,
                    "status": {"state": "TASK_STATE_WORKING"}}})),
        rpc1(json!({"statusUpdate": {"taskId": task, "contextId": context,
                    "status": {"state": "TASK_STATE_INPUT_REQUIRED", "message": {"messageId": "ask_1",
                    "role": "ROLE_AGENT", "parts": [{"text": "Which date?"}]}}}})),
    ]
    .concat()
}

#[test]
fn i39_a2a_1_0_results_read_the_same_split_at_every_byte() {
    let stream = completed_task_1_0();
    let bytes = stream.as_bytes();
    let mut whole = Decoder::new();
    let mut expected = whole.push(bytes);
    expected.extend(whole.finish());
    let ending = whole.ending();
    assert_eq!(ending.content, "Flights to Izmir: 3 found.");
    assert_eq!(ending.keep[CONTEXT_KEY], "ctx_1");
    assert_eq!(
        ending.keep[TASK_KEY],
        Value::Null,
        "a completed task is closed"
    );
    assert_eq!(text_of(&expected), "Flights to Izmir: 3 found.");
    assert!(!expected
        .iter()
        .any(|d| matches!(d, Delta::Error(_) | Delta::Skipped(_))));
    for cut in 1..bytes.len() {
        let mut d = Decoder::new();
        let mut got = d.push(&bytes[..cut]);
        got.extend(d.push(&bytes[cut..]));
        got.extend(d.finish());
        assert_eq!(got, expected, "split at {cut}");
        assert_eq!(d.ending(), ending, "split at {cut}");
    }
    // Input required, split anywhere: the task stays open and its question is one card.
    let stream = asks_1_0("task_7", "ctx_7");
    let bytes = stream.as_bytes();
    for cut in 1..bytes.len() {
        let mut d = Decoder::new();
        d.push(&bytes[..cut]);
        d.push(&bytes[cut..]);
        d.finish();
        let ending = d.ending();
        assert_eq!(ending.keep[TASK_KEY], "task_7", "split at {cut}");
        assert_eq!(ending.content, "", "the question is drawn by its card only");
        let actions = ending.pending_actions.expect("a question");
        assert_eq!(actions[0]["id"], "ask_1");
        assert_eq!(actions[0]["questions"][0]["question"], "Which date?");
    }
}

fn options_at(base: &str) -> agent_chat_ui::core::transport::TransportOptions {
    agent_chat_ui::core::transport::TransportOptions {
        kind: TransportKind::A2a,
        model: Some("gpt-test".into()),
        base_url: Some(base.into()),
        ..Default::default()
    }
}

fn respond(l: &mut Link, status: u16, body: &str) {
    let id = l.last_wire().id;
    l.wire_input(Input::Response {
        id,
        result: Ok(HttpResponse {
            status,
            body: body.into(),
            date: None,
            retry_after: None,
        }),
    });
}

fn version_header(req: &agent_chat_ui::core::HttpRequest) -> Option<&str> {
    req.headers
        .iter()
        .find(|(name, _)| name == a2a::VERSION_HEADER)
        .map(|(_, value)| value.as_str())
}

#[test]
fn i39_the_card_is_looked_for_where_the_sdk_client_finds_it() {
    use a2a::card::candidates;
    assert_eq!(
        candidates(Some("http://h.test/api/a2a")),
        [
            "/.well-known/agent-card.json",
            "http://h.test/api/.well-known/agent-card.json",
            "http://h.test/.well-known/agent-card.json",
        ],
        "below the base URL, beside it (the SDK's relative resolution), the site root"
    );
    assert_eq!(
        candidates(Some("http://h.test/a2a")),
        [
            "/.well-known/agent-card.json",
            "http://h.test/.well-known/agent-card.json"
        ]
    );
    assert_eq!(
        candidates(Some("http://h.test")),
        ["/.well-known/agent-card.json"]
    );
    assert_eq!(
        candidates(Some("https://h.test/agents/travel.json")),
        ["https://h.test/agents/travel.json"],
        "a base URL that is a card's address: only it"
    );
    assert_eq!(candidates(None), ["/.well-known/agent-card.json"]);

    // Through the gateway: below the base URL first (404), then the site root's card, each
    // asked as 1.0 like the SDK's resolver; the agent list waits for the last.
    let mut l = Link::with_options(options_at(BASE), vec![]);
    l.cmd(Command::Start);
    let first = l.last_wire();
    assert_eq!(
        (first.method, first.path.as_str()),
        (Method::Get, a2a::CARD_PATH)
    );
    assert_eq!(version_header(&first), Some("1.0"));
    respond(&mut l, 404, "Not Found");
    assert_eq!(
        l.last_wire().path,
        "http://agent.test/.well-known/agent-card.json"
    );
    assert!(l.session.agents().is_empty(), "the list waits for the card");
    respond(&mut l, 200, CARD_1_0);
    assert_eq!(l.session.agents()[0].name, "Travel Agent");
    assert!(
        l.logs.iter().any(|g| g.contains("looking further")),
        "{:?}",
        l.logs
    );
}

#[test]
fn i39_a_1_0_turn_sends_the_exact_request_to_the_cards_address_with_the_version_header() {
    let mut l = Link::with_options(options_at(BASE), vec![]);
    l.cmd(Command::Start);
    respond(&mut l, 200, CARD_1_0);
    l.cmd(Command::Send("Book me a flight".into()));
    let (req, streamed) = l.wire.last().unwrap().clone();
    assert!(streamed);
    assert_eq!(
        req.path, "http://agent.test/a2a/jsonrpc",
        "the card's JSON-RPC address"
    );
    assert_eq!(version_header(&req), Some("1.0"));
    let body: Value = serde_json::from_str(req.body.as_deref().unwrap()).unwrap();
    let message_id = body["params"]["message"]["messageId"].clone();
    assert!(message_id.as_str().is_some_and(|m| !m.is_empty()));
    assert_eq!(
        body,
        json!({"jsonrpc": "2.0", "id": body["id"], "method": "SendStreamingMessage",
               "params": {"message": {"messageId": message_id, "role": "ROLE_USER",
                                      "parts": [{"text": "Book me a flight"}]}}})
    );
    l.stream(&asks_1_0("task_7", "ctx_7"));
    assert_eq!(l.session.cards().len(), 1, "the question, once");
    assert_eq!(
        l.session.messages().last().unwrap().content.display_text(),
        ""
    );
    // The answer: an ordinary message on the task, nothing else.
    l.cmd(Command::Send("Friday".into()));
    let req = l.last_wire();
    assert_eq!(req.path, "http://agent.test/a2a/jsonrpc");
    assert_eq!(version_header(&req), Some("1.0"));
    let body: Value = serde_json::from_str(req.body.as_deref().unwrap()).unwrap();
    let message = &body["params"]["message"];
    assert_eq!(body["method"], "SendStreamingMessage");
    assert_eq!(
        (message["taskId"].as_str(), message["contextId"].as_str()),
        (Some("task_7"), Some("ctx_7"))
    );
    assert_eq!(message["role"], "ROLE_USER");
    assert_eq!(message["parts"], json!([{"text": "Friday"}]));
    assert_eq!(
        body["params"].as_object().unwrap().len(),
        1,
        "only the message"
    );
    l.stream(
        &completed_task_1_0()
            .replace("task_1", "task_7")
            .replace("ctx_1", "ctx_7"),
    );
    assert_eq!(
        l.session.messages().last().unwrap().content.display_text(),
        "Flights to Izmir: 3 found."
    );
    assert!(l.threads()[0].conversation["metadata"]
        .get(TASK_KEY)
        .is_none());
}

#[test]
fn i39_a_card_that_does_not_stream_gets_send_message_read_whole() {
    let mut l = Link::with_options(options_at(BASE), vec![]);
    l.cmd(Command::Start);
    respond(
        &mut l,
        200,
        &CARD_1_0.replace(r#""streaming":true"#, r#""streaming":false"#),
    );
    l.cmd(Command::Send("Hi".into()));
    let body: Value = serde_json::from_str(l.last_wire().body.as_deref().unwrap()).unwrap();
    assert_eq!(body["method"], "SendMessage");
    let reply = json!({"jsonrpc": "2.0", "id": body["id"], "result": {"message": {
        "messageId": "m1", "role": "ROLE_AGENT", "contextId": "ctx_9",
        "parts": [{"text": "Hello, traveller"}]}}});
    // The page asked a stream; the answer is one JSON document, read whole.
    respond(&mut l, 200, &reply.to_string());
    assert_eq!(
        l.session.messages().last().unwrap().content.display_text(),
        "Hello, traveller"
    );
    assert_eq!(
        l.threads()[0].conversation["metadata"][CONTEXT_KEY],
        "ctx_9"
    );
}

#[test]
fn i39_a_0_3_card_keeps_the_0_3_wire_without_a_version_header() {
    let card = r#"{"name":"Old Agent","url":"http://agent.test/a2a/rpc","protocolVersion":"0.3.0","capabilities":{"streaming":true}}"#;
    let mut l = Link::with_options(options_at(BASE), vec![]);
    l.cmd(Command::Start);
    assert_eq!(
        version_header(&l.last_wire()),
        Some("1.0"),
        "the card is asked as 1.0"
    );
    respond(&mut l, 200, card);
    l.cmd(Command::Send("Hi".into()));
    let req = l.last_wire();
    assert_eq!(req.path, "http://agent.test/a2a/rpc");
    assert_eq!(version_header(&req), None, "0.3 sends none");
    let body: Value = serde_json::from_str(req.body.as_deref().unwrap()).unwrap();
    assert_eq!(body["method"], "message/stream");
    assert_eq!(body["params"]["message"]["kind"], "message");
    assert_eq!(body["params"]["message"]["role"], "user");
    assert_eq!(
        body["params"]["message"]["parts"],
        json!([{"kind": "text", "text": "Hi"}])
    );
}

#[test]
fn i39_the_cards_address_is_used_only_on_the_base_urls_origin() {
    use a2a::card::rpc_address;
    let base = Some("https://chat.test/agent");
    assert_eq!(
        rpc_address(Some("https://chat.test/agent/rpc"), base),
        "https://chat.test/agent/rpc"
    );
    assert_eq!(
        rpc_address(Some("/rpc"), base),
        "https://chat.test/rpc",
        "a path on the origin"
    );
    assert_eq!(
        rpc_address(Some("http://localhost:41241/"), base),
        "",
        "elsewhere: the base URL"
    );
    assert_eq!(rpc_address(Some("//evil.test/x"), base), "");
    assert_eq!(rpc_address(None, base), "");
    assert_eq!(
        rpc_address(None, Some("https://chat.test/agents/card.json")),
        "https://chat.test/agents",
        "a card's address names no RPC address: its folder"
    );
}

#[test]
fn i39_a_refusal_reads_in_the_servers_words() {
    // What the SDK answers a request without the 1.0 header, as a 200 JSON body.
    let refusal = r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32009,"message":"The requested A2A protocol version '0.3' is not supported. Supported versions: 1.0","data":[{}]}}"#;
    let mut l = Link::with_options(options_at(BASE), vec![]);
    l.cmd(Command::Start);
    respond(&mut l, 200, CARD_1_0);
    l.cmd(Command::Send("Hi".into()));
    respond(&mut l, 200, refusal);
    let error = format!("{:?}", l.session.error());
    assert!(
        error.contains("protocol version '0.3' is not supported"),
        "{error}"
    );
    assert!(!error.contains("reach"), "{error}");
}

#[test]
fn i39_a_failed_task_is_kept_with_the_conversation_in_the_agents_words() {
    let mut l = Link::with_options(options_at(BASE), vec![]);
    l.cmd(Command::Start);
    respond(&mut l, 200, CARD_1_0);
    l.cmd(Command::Send("Book".into()));
    l.stream(
        &[
            rpc1(json!({"artifactUpdate": {"taskId": "t", "contextId": "c",
                    "artifact": {"artifactId": "a", "parts": [{"text": "Searching"}]}}})),
            rpc1(json!({"statusUpdate": {"taskId": "t", "contextId": "c",
                    "status": {"state": "TASK_STATE_FAILED", "message": {"messageId": "f",
                    "role": "ROLE_AGENT", "parts": [{"text": "No flights today"}]}}}})),
        ]
        .concat(),
    );
    assert!(
        matches!(l.session.error(), Some(ChatError::Stream { message, .. }) if message.contains("No flights today")),
        "got {:?}",
        l.session.error()
    );
    let stored = l.stored_threads();
    let reply = stored[0].messages.last().unwrap();
    assert_eq!(reply["role"], "assistant");
    assert_eq!(reply["metadata"]["error"], "No flights today");
    assert_eq!(
        reply["content"], "Searching",
        "what it said before it failed"
    );
    // A reload reads it back with the conversation.
    let id = stored[0].id().to_owned();
    let mut again = Link::with_options(options_at(BASE), stored);
    again.cmd(Command::Start);
    again.cmd(Command::OpenConversation(id));
    let last = again.session.messages().last().unwrap().clone();
    assert_eq!(last.metadata["error"], "No flights today");
}

#[test]
fn i39_a_configured_card_url_is_the_only_place_asked() {
    use a2a::card::configured;
    assert_eq!(
        configured("/cards/travel.json", Some("http://h.test/a2a")),
        "http://h.test/cards/travel.json",
        "a site path on the base URL's origin"
    );
    assert_eq!(
        configured(" https://cards.test/t.json ", Some("http://h.test/a2a")),
        "https://cards.test/t.json"
    );
    assert_eq!(
        configured("card.json", Some("http://h.test/a2a")),
        "/card.json"
    );
    assert_eq!(configured("/card.json", None), "/card.json");
    // Read by the options' one reader, by either name.
    let (options, refused) = agent_chat_ui::core::transport::TransportOptions::from_pairs([
        ("transport", "a2a"),
        ("agentCardUrl", "/cards/travel.json"),
    ]);
    assert!(refused.is_empty());
    assert_eq!(
        options.agent_card_url.as_deref(),
        Some("/cards/travel.json")
    );
    let (options, _) = agent_chat_ui::core::transport::TransportOptions::from_pairs([(
        "agent-card-url",
        "/cards/travel.json",
    )]);
    assert_eq!(
        options.agent_card_url.as_deref(),
        Some("/cards/travel.json")
    );

    // Through the gateway: only the configured address is asked, and its card is used.
    let options = agent_chat_ui::core::transport::TransportOptions {
        agent_card_url: Some("/cards/travel.json".into()),
        ..options_at(BASE)
    };
    let mut l = Link::with_options(options, vec![]);
    l.cmd(Command::Start);
    let first = l.last_wire();
    assert_eq!(first.method, Method::Get);
    assert_eq!(first.path, "http://agent.test/cards/travel.json");
    respond(&mut l, 200, CARD_1_0);
    assert_eq!(l.session.agents()[0].name, "Travel Agent");
    assert_eq!(l.wire.len(), 1, "nowhere else was asked");
    l.cmd(Command::Send("Book me a flight".into()));
    assert_eq!(l.last_wire().path, "http://agent.test/a2a/jsonrpc");

    // A card that is not there: the configured address only, then the configured agent.
    let options = agent_chat_ui::core::transport::TransportOptions {
        agent_card_url: Some("/cards/missing.json".into()),
        ..options_at(BASE)
    };
    let mut l = Link::with_options(options, vec![]);
    l.cmd(Command::Start);
    respond(&mut l, 404, "Not Found");
    assert_eq!(l.wire.len(), 1);
    assert_eq!(l.session.agents()[0].name, "gpt-test");
}

#[test]
fn i39_stop_cancels_the_task_as_the_sdk_client_does_and_keeps_the_text() {
    let mut l = Link::with_options(options_at(BASE), vec![]);
    l.cmd(Command::Start);
    respond(&mut l, 200, CARD_1_0);
    l.cmd(Command::Send("Find flights".into()));
    let stream = l.last_wire();
    // The task, then the first piece of its artifact.
    let first: String = completed_task_1_0()
        .split_inclusive("\n\n")
        .take(3)
        .collect();
    l.wire_input(Input::StreamChunk {
        id: stream.id,
        bytes: first.into_bytes(),
    });
    assert_eq!(l.session.run(), Run::Streaming);
    l.cmd(Command::Stop);
    assert_eq!(l.aborted, vec![stream.id], "the stream is dropped at once");
    let cancel = l.last_wire();
    assert_eq!(cancel.method, Method::Post);
    assert_eq!(cancel.path, "http://agent.test/a2a/jsonrpc");
    assert_eq!(version_header(&cancel), Some("1.0"));
    let body: Value = serde_json::from_str(cancel.body.as_deref().unwrap()).unwrap();
    assert_eq!(
        body,
        json!({"jsonrpc": "2.0", "id": "cancel-task_1", "method": "CancelTask",
               "params": {"id": "task_1"}})
    );
    assert_eq!(
        l.session.messages().last().unwrap().content.display_text(),
        "Flights to "
    );
    assert_eq!(
        l.threads()[0].messages.last().unwrap()["content"],
        "Flights to "
    );
    // The next message goes on in the context, on no task.
    l.cmd(Command::Send("Again".into()));
    let body: Value = serde_json::from_str(l.last_wire().body.as_deref().unwrap()).unwrap();
    assert_eq!(body["method"], "SendStreamingMessage");
    assert_eq!(body["params"]["message"]["contextId"], "ctx_1");
    assert!(body["params"]["message"].get("taskId").is_none());

    // 0.3: `tasks/cancel`, no version header.
    assert_eq!(
        a2a::cancel_request(a2a::Version::V03, "t9"),
        json!({"jsonrpc": "2.0", "id": "cancel-t9", "method": "tasks/cancel",
               "params": {"id": "t9"}})
    );
    // A task that already waits for the person is not cancelled by a Stop.
    let mut d = Decoder::new();
    d.push(asks_1_0("task_7", "ctx_7").as_bytes());
    d.finish();
    assert_eq!(d.ending().running, None);
}
