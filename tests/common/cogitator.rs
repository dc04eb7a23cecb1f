//! A chat over Cogitator behind the gateway, paused on refunds, for the Cogitator tests.
#![allow(dead_code)] // each test file uses a different part

use agent_chat_ui::core::transport::TransportKind;
use agent_chat_ui::core::{CardState, Command, HttpResponse, Input, Method, Resolution, Shown};
use serde_json::{json, Value};

use super::link::Link;

pub const AGENTS: &str =
    r#"{"agents":[{"name":"support","description":"Refunds orders","tools":["refund"]}]}"#;

pub fn approval(id: &str, order: &str) -> Value {
    json!({ "toolCallId": id, "toolName": "refund", "arguments": { "order": order, "amount": 40 },
            "description": format!("Refund 40 EUR for order {order}"),
            "sideEffects": ["payment", "email to the customer"] })
}

/// A streamed run that looks an order up and pauses on `approvals`, with a keep-alive
/// comment, a reasoning part this client passes over, and one unreadable frame.
pub fn paused_stream(thread: &str, approvals: &[Value]) -> String {
    let events = [
        json!({"type": "start", "messageId": "msg_1", "threadId": thread}),
        json!({"type": "text-start", "id": "txt_1"}),
        json!({"type": "text-delta", "id": "txt_1", "delta": "Let me "}),
        json!({"type": "reasoning-delta", "id": "r_1", "delta": "the order first"}),
        json!({"type": "text-delta", "id": "txt_1", "delta": "look up the order."}),
        json!({"type": "text-end", "id": "txt_1"}),
        json!({"type": "tool-call-start", "id": "tool_lookup", "toolName": "lookup_order"}),
        json!({"type": "tool-call-delta", "id": "tool_lookup", "argsTextDelta": "{\"order\":"}),
        json!({"type": "tool-call-delta", "id": "tool_lookup", "argsTextDelta": "\"A-1\"}"}),
        json!({"type": "tool-call-end", "id": "tool_lookup"}),
        json!({"type": "tool-result", "id": "res_1", "toolCallId": "tool_lookup",
               "result": {"status": "delivered"}}),
        json!({"type": "approval-required", "threadId": thread, "approvals": approvals}),
        json!({"type": "finish", "messageId": "msg_1", "threadId": thread, "status": "paused",
               "usage": {"inputTokens": 12, "outputTokens": 8, "totalTokens": 20},
               "pendingApprovals": approvals}),
    ];
    let mut text = String::from(": keep-alive\n\n");
    for (i, e) in events.iter().enumerate() {
        text.push_str(&format!("data: {e}\n\n"));
        if i == 3 {
            text.push_str("data: {\"type\":\"text-delta\",\"delta\":\"\\x\"}\n\n");
        }
    }
    text.push_str("data: [DONE]\n\n");
    text
}

/// Starts a chat over Cogitator: the agents are asked for once, then listed.
pub fn started() -> Link {
    let mut l = Link::new(TransportKind::Cogitator, vec![]);
    l.cmd(Command::Start);
    let req = l.last_wire();
    assert_eq!((req.method, req.path.as_str()), (Method::Get, "/agents"));
    l.wire_input(Input::Response {
        id: req.id,
        result: Ok(HttpResponse {
            status: 200,
            body: AGENTS.into(),
            date: None,
            retry_after: None,
        }),
    });
    l
}

pub fn body_of(l: &Link) -> Value {
    serde_json::from_str(l.last_wire().body.as_deref().unwrap()).unwrap()
}

/// Answers the last wire request with `status` and `body`: a streamed request that was taken
/// gets the body as its stream, anything else a whole response (D4).
pub fn answer_wire(l: &mut Link, status: u16, body: &str) {
    let (req, streamed) = l.wire.last().unwrap().clone();
    if streamed && (200..300).contains(&status) {
        l.stream(body);
    } else {
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
}

/// A chat whose first turn paused on `approvals`; returns it with the conversation id.
pub fn paused_on(approvals: &[Value]) -> (Link, String) {
    let mut l = started();
    l.cmd(Command::Send("Refund the orders".into()));
    let conversation = l.session.conversation().unwrap().id.clone();
    l.stream(&paused_stream(&conversation, approvals));
    assert_eq!(l.session.cards().len(), approvals.len());
    (l, conversation)
}

pub fn resolve(l: &mut Link, action_id: &str, resolution: Resolution) {
    let card = l
        .session
        .cards()
        .iter()
        .find(|c| c.action.id == action_id)
        .unwrap()
        .clone();
    l.cmd(Command::Resolve {
        shown: Shown::of(&card.action),
        resolution,
    });
}

pub fn state_of(l: &Link, action_id: &str) -> CardState {
    l.session
        .cards()
        .iter()
        .find(|c| c.action.id == action_id)
        .unwrap()
        .state
        .clone()
}

pub fn completed(output: &str) -> String {
    json!({"output": output, "threadId": "x", "status": "completed", "toolCalls": [],
           "usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2}})
    .to_string()
}
