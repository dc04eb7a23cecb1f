//! A scripted A2A agent (issue 15): JSON-RPC 2.0 at `POST /a2a` and its card at
//! `GET /a2a/.well-known/agent-card.json`, on the same port as the agent server
//! (`?transport=a2a&baseUrl=/a2a`). Deterministic and stateless: a message that asks to book
//! is answered with a task that waits for input ("Which date?"); the reply, sent with that
//! task's id, completes it with an artifact streamed in two appended pieces; anything else
//! gets a message echoing it. `message/stream` answers as SSE whose `data` is a JSON-RPC
//! response; `message/send` answers whole. A question in its card is answered the same way,
//! by a message on the task (the chat sends no action-endpoint body to A2A).

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

/// `GET /a2a/.well-known/agent-card.json`.
pub async fn card() -> Response {
    axum::Json(json!({
        "name": "Travel Agent", "description": "Books trips (scripted)", "version": "1.0.0",
        "url": "/a2a", "protocolVersion": "0.3.0",
        "capabilities": { "streaming": true },
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
        "skills": [{ "id": "book", "name": "Book a trip", "description": "Finds flights",
                     "tags": ["travel"] }]
    }))
    .into_response()
}

/// `POST /a2a`.
pub async fn rpc(body: Bytes) -> Response {
    let request: Value = match serde_json::from_slice(&body) {
        Ok(v) => v,
        Err(e) => return error(Value::Null, -32700, &format!("Parse error: {e}")),
    };
    let id = request["id"].clone();
    let method = request["method"].as_str().unwrap_or_default();
    if !matches!(method, "message/send" | "message/stream") {
        return error(id, -32601, &format!("Method not found: {method}"));
    }
    let message = &request["params"]["message"];
    let Some(parts) = message["parts"].as_array() else {
        return error(
            id,
            -32602,
            "Invalid params: params.message.parts is required",
        );
    };
    let text: String = parts
        .iter()
        .filter(|p| p["kind"] == "text")
        .filter_map(|p| p["text"].as_str())
        .collect();
    let context = message["contextId"]
        .as_str()
        .map_or_else(|| "ctx_scripted".to_owned(), str::to_owned);
    let results = match message["taskId"].as_str() {
        Some(task) => completed(task, &context, &text),
        None if text.to_lowercase().contains("book") => waiting(&context),
        None => vec![
            json!({ "kind": "message", "role": "agent", "messageId": "m_echo",
            "contextId": context,
            "parts": [{ "kind": "text", "text": format!("You said: {text}") }] }),
        ],
    };
    answer_results(id, &results, method == "message/stream")
}

/// The results of a turn as JSON-RPC responses: streamed (SSE) or whole (the last state).
fn answer_results(id: Value, results: &[Value], streamed: bool) -> Response {
    if streamed {
        let frames: String = results
            .iter()
            .map(|r| {
                format!(
                    "data: {}\n\n",
                    json!({ "jsonrpc": "2.0", "id": id, "result": r })
                )
            })
            .collect();
        let mut res = Response::new(Body::from(frames));
        res.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/event-stream"),
        );
        res
    } else {
        // Whole: the last state of the task (or the message).
        let result = results.last().cloned().unwrap_or(Value::Null);
        let result = if result["kind"] == "status-update" {
            let mut task = json!({ "kind": "task", "id": result["taskId"],
                                   "contextId": result["contextId"], "status": result["status"] });
            // Appended pieces are one artifact, as a task holds them.
            let mut artifacts: Vec<Value> = Vec::new();
            for update in results.iter().filter(|r| r["kind"] == "artifact-update") {
                let text = update["artifact"]["parts"][0]["text"]
                    .as_str()
                    .unwrap_or_default();
                match artifacts.last_mut() {
                    Some(known) if update["append"] == true => {
                        let joined = format!(
                            "{}{text}",
                            known["parts"][0]["text"].as_str().unwrap_or_default()
                        );
                        known["parts"][0]["text"] = Value::from(joined);
                    }
                    _ => artifacts.push(update["artifact"].clone()),
                }
            }
            if !artifacts.is_empty() {
                task["artifacts"] = Value::from(artifacts);
            }
            task
        } else {
            result
        };
        axum::Json(json!({ "jsonrpc": "2.0", "id": id, "result": result })).into_response()
    }
}

fn waiting(context: &str) -> Vec<Value> {
    vec![
        json!({ "kind": "task", "id": "task_booking", "contextId": context,
                "status": { "state": "working" } }),
        json!({ "kind": "status-update", "taskId": "task_booking", "contextId": context,
                "final": true, "status": { "state": "input-required", "message": {
                    "kind": "message", "role": "agent", "messageId": "m_ask",
                    "parts": [{ "kind": "text", "text": "Which date?" }] } } }),
    ]
}

fn completed(task: &str, context: &str, text: &str) -> Vec<Value> {
    vec![
        json!({ "kind": "status-update", "taskId": task, "contextId": context, "final": false,
                "status": { "state": "working" } }),
        json!({ "kind": "artifact-update", "taskId": task, "contextId": context,
                "artifact": { "artifactId": "flights", "parts": [{ "kind": "text",
                    "text": format!("Booked for {text}: ") }] } }),
        json!({ "kind": "artifact-update", "taskId": task, "contextId": context, "append": true,
                "artifact": { "artifactId": "flights", "parts": [{ "kind": "text",
                    "text": "flight TK2410 to Izmir." }] } }),
        json!({ "kind": "status-update", "taskId": task, "contextId": context, "final": true,
                "status": { "state": "completed" } }),
    ]
}

fn error(id: Value, code: i64, message: &str) -> Response {
    axum::Json(json!({ "jsonrpc": "2.0", "id": id,
                       "error": { "code": code, "message": message } }))
    .into_response()
}
