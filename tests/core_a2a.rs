//! Issue 15: an A2A agent behind the gateway. The agent card names the one agent; a send is
//! JSON-RPC `message/stream` (or `message/send`) at the base URL, in the conversation's
//! context and open task; results (tasks, artifact and status updates, messages) are read
//! back as `stream.*` frames. `input-required` ends the turn with the task kept, so the next
//! message continues it. Recorded fixtures, split at every byte; no browser.
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::transport::a2a::{self, Decoder, CONTEXT_KEY, TASK_KEY};
use agent_chat_ui::core::transport::reply::Delta;
use agent_chat_ui::core::transport::TransportKind;
use agent_chat_ui::core::{ChatError, Command, HttpResponse, Input, Method, Run};
use serde_json::{json, Value};

#[path = "common/link.rs"]
mod link;
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
    // The question is also a read-only card (no action URL, C19) that does not hold the
    // composer: the reply continues the task.
    assert_eq!(l.session.run(), Run::AwaitingAction);
    assert_eq!(l.session.cards().len(), 1);
    assert_eq!(
        l.session.composer_state(),
        agent_chat_ui::core::ComposerState::Normal
    );
    assert_eq!(
        l.session.messages().last().unwrap().content.display_text(),
        "Which date?"
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
    assert!(!l.session.config().can_resolve, "no action URL: read-only");
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
    assert_eq!(out[0], Delta::Error("Task not found".into()));
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
