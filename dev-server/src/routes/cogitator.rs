//! A scripted Cogitator server (seed 001, issue 15) under `/cogitator`, on the same port as
//! the agent server (`?transport=cogitator&baseUrl=/cogitator`), with the paths and shapes of
//! Cogitator's server adapters: `GET /agents`, `POST /agents/:name/run` (JSON),
//! `POST /agents/:name/stream` (SSE events with a `type`, then `[DONE]`) and
//! `POST /agents/:name/resume` (`{threadId, decisions?, defaultDecision?}`, answered like
//! `/run`). Errors are `{error: {message, code}}`.
//!
//! One agent, `support`, deterministic: a message that asks for a refund looks the order up
//! (a tool call with its result) and pauses for approval of `refund` (`pendingApprovals` with
//! a description and `sideEffects`); "both" asks for two refunds in one turn. A resume that
//! leaves a call without a decision answers `paused` with the rest; once every call is
//! decided the run completes and says what was done. A new message on a paused thread
//! declines its calls ("the user moved on", PROTOCOL C31). A message that mentions "fail"
//! ends with the server's error; anything else is echoed. Paused runs are kept per server
//! (in memory), with the caller (`x-user-id`) who may resume them.
//!
//! A streamed refund announces the pause with an `approval-required` event and repeats the
//! waiting calls in `finish`; a message that mentions "quietly" leaves them out of `finish`
//! (its `status` still says `paused`), as a server that announces them once does.
//!
//! For the browser journeys, what a page cannot cause or see by itself (under `/_dev`, outside
//! Cogitator's paths): `GET /_dev/resumes` lists every resume request as received (its body,
//! and the status and code it was answered with); `POST /_dev/handover` `{user}` gives every
//! paused run to another user (so a resume is `THREAD_ACCESS_DENIED`); `POST /_dev/forget`
//! drops every paused run (resumed elsewhere, or lost: a resume is `RUN_NOT_PAUSED`).

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde_json::{json, Value};

use super::USER_HEADER;

/// The agent's name.
pub const AGENT: &str = "support";

/// A call waiting for approval.
#[derive(Clone, Debug)]
struct Call {
    id: String,
    order: &'static str,
    amount: u32,
}

impl Call {
    fn approval(&self) -> Value {
        json!({ "toolCallId": self.id, "toolName": "refund",
                "arguments": { "order": self.order, "amount": self.amount },
                "description": format!("Refund {} EUR for order {}", self.amount, self.order),
                "sideEffects": ["payment", "email to the customer"] })
    }
}

/// A run paused on a thread.
#[derive(Debug)]
struct Paused {
    user: Option<String>,
    calls: Vec<Call>,
    /// Decided so far: approved, and the reason of a refusal.
    decided: BTreeMap<String, (bool, Option<String>)>,
}

/// The paused runs of one server, by thread; how many runs paused (call ids count them,
/// so every call of a thread has its own id, as a model's ids do); and every resume request
/// received, for `GET /_dev/resumes`.
#[derive(Clone, Debug, Default)]
pub struct Runs(
    Arc<Mutex<HashMap<String, Paused>>>,
    Arc<AtomicU64>,
    Arc<Mutex<Vec<Value>>>,
);

/// The routes, to be nested under `/cogitator`.
pub fn router() -> Router {
    Router::new()
        .route("/agents", get(agents))
        .route("/agents/{name}/run", post(run))
        .route("/agents/{name}/stream", post(stream))
        .route("/agents/{name}/resume", post(resume))
        .route("/_dev/resumes", get(resumes))
        .route("/_dev/handover", post(handover))
        .route("/_dev/forget", post(forget))
        .with_state(Runs::default())
}

fn error(status: StatusCode, code: &'static str, message: &str) -> Response {
    let mut res = (
        status,
        axum::Json(json!({ "error": { "message": message, "code": code } })),
    )
        .into_response();
    res.extensions_mut().insert(ErrorCode(code));
    res
}

fn refuse(status: StatusCode, code: &'static str, message: &str) -> Box<Response> {
    Box::new(error(status, code, message))
}

fn user_of(headers: &HeaderMap) -> Option<String> {
    headers
        .get(USER_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

/// `GET /cogitator/agents`.
async fn agents() -> Response {
    axum::Json(json!({ "agents": [{ "name": AGENT,
        "description": "Looks up orders and refunds them (scripted)",
        "tools": ["lookup_order", "refund"] }] }))
    .into_response()
}

/// What a run does.
enum Script {
    /// The calls that wait, and whether `finish` leaves them out ("quietly").
    Refund(Vec<Call>, bool),
    Fail,
    Echo(String),
}

/// Reads a run request and starts the run: a paused run on the thread is declined first.
fn start(
    runs: &Runs,
    headers: &HeaderMap,
    name: &str,
    body: &Bytes,
) -> Result<(String, Script), Box<Response>> {
    if name != AGENT {
        let message = format!("Agent '{name}' not found");
        return Err(refuse(StatusCode::NOT_FOUND, "AGENT_NOT_FOUND", &message));
    }
    let request: Value = serde_json::from_slice(body).map_err(|e| {
        refuse(
            StatusCode::BAD_REQUEST,
            "INVALID_INPUT",
            &format!("Invalid JSON: {e}"),
        )
    })?;
    let input = request["input"]
        .as_str()
        .unwrap_or_default()
        .trim()
        .to_owned();
    if input.is_empty() {
        return Err(refuse(
            StatusCode::BAD_REQUEST,
            "INVALID_INPUT",
            "input: must not be empty",
        ));
    }
    let thread = match &request["threadId"] {
        Value::Null => "thread_scripted".to_owned(),
        Value::String(t) if !t.is_empty() => t.clone(),
        _ => {
            let message = "threadId: must be a non-empty string";
            return Err(refuse(StatusCode::BAD_REQUEST, "INVALID_INPUT", message));
        }
    };
    let user = user_of(headers);
    let mut paused = runs.0.lock().expect("runs");
    if let Some(p) = paused.get(&thread) {
        if p.user != user {
            let message = format!("Thread {thread} belongs to another user");
            return Err(refuse(
                StatusCode::FORBIDDEN,
                "THREAD_ACCESS_DENIED",
                &message,
            ));
        }
        // A new message instead of a decision: the waiting calls are declined.
        paused.remove(&thread);
    }
    let lower = input.to_lowercase();
    let script = if lower.contains("fail") {
        Script::Fail
    } else if lower.contains("refund") {
        let n = runs.1.fetch_add(1, Ordering::Relaxed) + 1;
        let mut calls = vec![Call {
            id: format!("call_{n}_refund_a1"),
            order: "A-1",
            amount: 40,
        }];
        if lower.contains("both") {
            calls.push(Call {
                id: format!("call_{n}_refund_a2"),
                order: "A-2",
                amount: 15,
            });
        }
        paused.insert(
            thread.clone(),
            Paused {
                user,
                calls: calls.clone(),
                decided: BTreeMap::new(),
            },
        );
        Script::Refund(calls, lower.contains("quietly"))
    } else {
        Script::Echo(format!("You said: {input}"))
    };
    Ok((thread, script))
}

const LOOKUP_TEXT: &str = "Let me look up the order.";
const FAILURE: &str = "The model provider is unavailable.";

fn usage() -> Value {
    json!({ "inputTokens": 12, "outputTokens": 8, "totalTokens": 20 })
}

fn answer(thread: &str, output: &str, tool_calls: Value, pending: Option<Vec<Value>>) -> Value {
    let mut body = json!({ "output": output, "threadId": thread, "usage": usage(),
        "toolCalls": tool_calls, "status": "completed", "traceId": "trace_scripted" });
    if let Some(pending) = pending {
        body["status"] = Value::from("paused");
        body["pendingApprovals"] = Value::from(pending);
    }
    body
}

fn lookup_call() -> Value {
    json!({ "id": "tool_lookup", "name": "lookup_order", "arguments": { "order": "A-1" } })
}

/// `POST /cogitator/agents/:name/run`.
async fn run(
    State(runs): State<Runs>,
    Path(name): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let (thread, script) = match start(&runs, &headers, &name, &body) {
        Ok(started) => started,
        Err(refused) => return *refused,
    };
    let body = match script {
        Script::Fail => return error(StatusCode::SERVICE_UNAVAILABLE, "LLM_UNAVAILABLE", FAILURE),
        Script::Refund(calls, _) => answer(
            &thread,
            LOOKUP_TEXT,
            json!([lookup_call()]),
            Some(calls.iter().map(Call::approval).collect()),
        ),
        Script::Echo(text) => answer(&thread, &text, json!([]), None),
    };
    axum::Json(body).into_response()
}

fn sse(events: Vec<Value>, done: bool) -> Response {
    let mut text: String = events.iter().map(|e| format!("data: {e}\n\n")).collect();
    if done {
        text.push_str("data: [DONE]\n\n");
    }
    let mut res = Response::new(Body::from(text));
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    res
}

fn text_events(text: &str) -> Vec<Value> {
    let mut events = vec![json!({ "type": "text-start", "id": "txt_1" })];
    for word in text.split_inclusive(' ') {
        events.push(json!({ "type": "text-delta", "id": "txt_1", "delta": word }));
    }
    events.push(json!({ "type": "text-end", "id": "txt_1" }));
    events
}

/// `POST /cogitator/agents/:name/stream`.
async fn stream(
    State(runs): State<Runs>,
    Path(name): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let (thread, script) = match start(&runs, &headers, &name, &body) {
        Ok(started) => started,
        Err(refused) => return *refused,
    };
    let mut events = vec![json!({ "type": "start", "messageId": "msg_run", "threadId": thread })];
    let finish = json!({ "type": "finish", "messageId": "msg_run", "threadId": thread,
                         "usage": usage(), "status": "completed" });
    match script {
        Script::Fail => {
            events.extend(text_events("Looking"));
            events.push(json!({ "type": "error", "message": FAILURE, "code": "LLM_UNAVAILABLE" }));
            return sse(events, false);
        }
        Script::Echo(text) => {
            events.extend(text_events(&text));
            events.push(finish);
        }
        Script::Refund(calls, quietly) => {
            events.extend(text_events(LOOKUP_TEXT));
            events.push(json!({ "type": "tool-call-start", "id": "tool_lookup", "toolName": "lookup_order" }));
            for piece in ["{\"order\":", "\"A-1\"}"] {
                events.push(json!({ "type": "tool-call-delta", "id": "tool_lookup", "argsTextDelta": piece }));
            }
            events.push(json!({ "type": "tool-call-end", "id": "tool_lookup" }));
            events.push(
                json!({ "type": "tool-result", "id": "res_1", "toolCallId": "tool_lookup",
                                "result": { "order": "A-1", "status": "delivered" } }),
            );
            let approvals: Vec<Value> = calls.iter().map(Call::approval).collect();
            events.push(json!({ "type": "approval-required", "threadId": thread,
                                "approvals": approvals }));
            let mut finish = finish;
            finish["status"] = Value::from("paused");
            if !quietly {
                finish["pendingApprovals"] = Value::from(approvals);
            }
            events.push(finish);
        }
    }
    sse(events, true)
}

/// A decision of the wire: `{approved, reason?}`; `None` when it is not one.
fn decision(v: &Value) -> Option<(bool, Option<String>)> {
    let approved = v["approved"].as_bool()?;
    Some((approved, v["reason"].as_str().map(str::to_owned)))
}

/// `POST /cogitator/agents/:name/resume`, logged for `GET /_dev/resumes`.
async fn resume(
    State(runs): State<Runs>,
    Path(name): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let response = decide(&runs, &name, &headers, &body);
    let received = serde_json::from_slice(&body)
        .unwrap_or_else(|_| Value::from(String::from_utf8_lossy(&body).into_owned()));
    let mut entry = json!({ "body": received, "status": response.status().as_u16() });
    if let Some(code) = response.extensions().get::<ErrorCode>() {
        entry["code"] = Value::from(code.0);
    }
    runs.2.lock().expect("resumes").push(entry);
    response
}

/// The code of an error answer, for the resume log.
#[derive(Clone, Copy, Debug)]
struct ErrorCode(&'static str);

/// What a resume request is answered with.
fn decide(runs: &Runs, name: &str, headers: &HeaderMap, body: &Bytes) -> Response {
    if name != AGENT {
        let message = format!("Agent '{name}' not found");
        return error(StatusCode::NOT_FOUND, "AGENT_NOT_FOUND", &message);
    }
    let request: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(e) => {
            return error(
                StatusCode::BAD_REQUEST,
                "INVALID_INPUT",
                &format!("Invalid JSON: {e}"),
            )
        }
    };
    let Some(thread) = request["threadId"].as_str().filter(|t| !t.is_empty()) else {
        return error(
            StatusCode::BAD_REQUEST,
            "INVALID_INPUT",
            "threadId: must be a non-empty string",
        );
    };
    let mut decisions = BTreeMap::new();
    for (id, d) in request["decisions"].as_object().into_iter().flatten() {
        match decision(d) {
            Some(d) => decisions.insert(id.clone(), d),
            None => {
                let message = format!("decisions.{id}.approved: must be a boolean");
                return error(StatusCode::BAD_REQUEST, "INVALID_INPUT", &message);
            }
        };
    }
    let default = match &request["defaultDecision"] {
        Value::Null => None,
        d => match decision(d) {
            Some(d) => Some(d),
            None => {
                let message = "defaultDecision.approved: must be a boolean";
                return error(StatusCode::BAD_REQUEST, "INVALID_INPUT", message);
            }
        },
    };
    let mut paused = runs.0.lock().expect("runs");
    let Some(run) = paused.get_mut(thread) else {
        let message = format!("Thread {thread} has no paused run");
        return error(StatusCode::CONFLICT, "RUN_NOT_PAUSED", &message);
    };
    if run.user != user_of(headers) {
        let message = format!("Thread {thread} belongs to another user");
        return error(StatusCode::FORBIDDEN, "THREAD_ACCESS_DENIED", &message);
    }
    for call in &run.calls {
        if let Some(d) = decisions.get(&call.id).cloned().or_else(|| default.clone()) {
            run.decided.entry(call.id.clone()).or_insert(d);
        }
    }
    let waiting: Vec<Value> = run
        .calls
        .iter()
        .filter(|c| !run.decided.contains_key(&c.id))
        .map(Call::approval)
        .collect();
    if !waiting.is_empty() {
        // Calls without a decision keep the run paused.
        return axum::Json(answer(thread, "", json!([]), Some(waiting))).into_response();
    }
    let run = paused.remove(thread).expect("the run is there");
    let mut said = Vec::new();
    let mut calls = Vec::new();
    for call in &run.calls {
        match run.decided.get(&call.id) {
            Some((true, _)) => {
                said.push(format!(
                    "Refunded {} EUR for order {}.",
                    call.amount, call.order
                ));
                calls.push(json!({ "id": call.id, "name": "refund",
                                   "arguments": { "order": call.order, "amount": call.amount } }));
            }
            Some((false, reason)) => said.push(match reason {
                Some(r) => format!("Did not refund order {} ({r}).", call.order),
                None => format!("Did not refund order {}.", call.order),
            }),
            None => {}
        }
    }
    axum::Json(answer(thread, &said.join(" "), Value::from(calls), None)).into_response()
}

/// `GET /cogitator/_dev/resumes`: every resume request received, oldest first.
async fn resumes(State(runs): State<Runs>) -> Response {
    let list = runs.2.lock().expect("resumes").clone();
    axum::Json(json!({ "resumes": list })).into_response()
}

/// `POST /cogitator/_dev/handover` `{user}`: every paused run now belongs to `user`.
async fn handover(State(runs): State<Runs>, body: Bytes) -> Response {
    let request: Value = serde_json::from_slice(&body).unwrap_or_default();
    let Some(user) = request["user"].as_str().filter(|u| !u.is_empty()) else {
        return error(
            StatusCode::BAD_REQUEST,
            "INVALID_INPUT",
            "user: must be a non-empty string",
        );
    };
    let mut paused = runs.0.lock().expect("runs");
    for run in paused.values_mut() {
        run.user = Some(user.to_owned());
    }
    axum::Json(json!({ "handedOver": paused.len() })).into_response()
}

/// `POST /cogitator/_dev/forget`: every paused run is dropped.
async fn forget(State(runs): State<Runs>) -> Response {
    let mut paused = runs.0.lock().expect("runs");
    let dropped = paused.len();
    paused.clear();
    axum::Json(json!({ "dropped": dropped })).into_response()
}
