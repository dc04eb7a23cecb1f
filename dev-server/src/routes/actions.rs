//! E14 `POST /conversations/:cid/actions/:aid`: answer an approval or a question (PROTOCOL §9.5).

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use axum::Json;
use chrono::Utc;
use serde_json::{json, Map, Value};

use super::{denies, json_body, magic_refusal, Caller};
use crate::error::ApiError;
use crate::store::{ActionRecord, ActionStatus, AnswerFault, ReceivedResolution};
use crate::turn::{BusyGuard, Trigger, Turn};
use crate::{sse, AppState};

/// E14 handler. Every request, accepted or refused, is logged for `GET /_dev/resolutions`
/// in arrival order, with the status it was answered with. A fault armed with
/// `POST /_dev/next-answer` is used up by the conversation's next request.
pub async fn resolve(
    State(app): State<AppState>,
    caller: Caller,
    Path((conversation_id, action_id)): Path<(String, String)>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let posted = body
        .as_ref()
        .ok()
        .and_then(|b| serde_json::from_slice::<Value>(b).ok());
    let field = |key: &str| {
        posted
            .as_ref()
            .and_then(|v| v.get(key).cloned())
            .unwrap_or(Value::Null)
    };
    let slot = app.lock().record_received(ReceivedResolution {
        conversation_id: conversation_id.clone(),
        action_id: action_id.clone(),
        user_id: caller.user.clone(),
        resolution: field("resolution"),
        version: field("version"),
        decision_key: field("decisionKey"),
        status: None,
    });
    let fault = app
        .lock()
        .take_answer_fault(&conversation_id)
        .unwrap_or_default();
    let refused = fault.refuse.and_then(ApiError::answer_refusal);
    let response = match refused {
        Some(refusal) => refusal.into_response(),
        None => match resolve_inner(app.clone(), caller, conversation_id, action_id, body, fault)
            .await
        {
            Ok(r) => r,
            Err(e) => e.into_response(),
        },
    };
    app.lock()
        .set_received_status(slot, response.status().as_u16());
    response
}

/// True when an answer counts as given (non-empty string, array, or SDK `{ values, freeText }`).
fn answered(v: &Value) -> bool {
    match v {
        Value::String(s) => !s.trim().is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => {
            o.get("values")
                .and_then(Value::as_array)
                .is_some_and(|a| !a.is_empty())
                || o.get("freeText")
                    .and_then(Value::as_str)
                    .is_some_and(|s| !s.trim().is_empty())
        }
        _ => false,
    }
}

/// Validates a resolution against the action and returns its normalised form (400 on problems).
pub fn normalise_resolution(action: &ActionRecord, resolution: &Value) -> Result<Value, ApiError> {
    let r = resolution
        .as_object()
        .ok_or_else(|| ApiError::validation("resolution is required"))?;
    if let Some(t) = r.get("type") {
        if t.as_str() != Some(action.kind.as_str()) {
            return Err(ApiError::validation(format!(
                "resolution.type must be {} for this action",
                action.kind
            )));
        }
    }
    let mut out = Map::new();
    out.insert("type".into(), json!(action.kind));
    if action.kind == "client_tool" {
        return client_tool_resolution(r, out);
    }
    if action.kind == "tool_approval" {
        let decision = r
            .get("decision")
            .and_then(Value::as_str)
            .filter(|d| *d == "allow" || *d == "deny")
            .ok_or_else(|| ApiError::validation("resolution.decision must be allow or deny"))?;
        out.insert("decision".into(), json!(decision));
        if decision == "allow" {
            match r.get("approvedArgs") {
                None | Some(Value::Null) => {}
                Some(args @ Value::Object(_)) => {
                    if let Some(schema) = action.body.get("argsSchema") {
                        let problems = crate::schema::validate(schema, args);
                        if !problems.is_empty() {
                            return Err(ApiError::validation(format!(
                                "approvedArgs do not match the tool's schema: {}",
                                problems.join("; ")
                            ))
                            .with_details(json!({ "problems": problems })));
                        }
                    }
                    // An "edit" equal to the proposal (key order ignored) is not an edit.
                    if Some(args) != action.body.get("args") {
                        out.insert("approvedArgs".into(), args.clone());
                    }
                }
                Some(_) => {
                    return Err(ApiError::validation(
                        "resolution.approvedArgs must be an object",
                    ))
                }
            }
            if r.get("rememberForSession") == Some(&json!(true)) {
                out.insert("rememberForSession".into(), json!(true));
            }
        } else if let Some(c) = r.get("comment").and_then(Value::as_str) {
            if !c.trim().is_empty() {
                out.insert("comment".into(), json!(c));
            }
        }
        return Ok(Value::Object(out));
    }
    // user_question
    if r.get("cancelled") == Some(&json!(true)) {
        out.insert("answers".into(), json!({}));
        out.insert("cancelled".into(), json!(true));
        return Ok(Value::Object(out));
    }
    let answers = r
        .get("answers")
        .and_then(Value::as_object)
        .ok_or_else(|| ApiError::validation("resolution.answers must be an object"))?;
    for q in action.body["questions"].as_array().into_iter().flatten() {
        let key = q["question"].as_str().unwrap_or("");
        let required = q.get("required") != Some(&json!(false));
        let answer = answers.get(key);
        if required && !answer.is_some_and(answered) {
            return Err(ApiError::validation(format!(
                "An answer is required for: {key}"
            )));
        }
        let closed = q.get("allowFreeText") == Some(&json!(false));
        if let (true, Some(Value::String(s)), Some(options)) =
            (closed, answer, q["options"].as_array())
        {
            let known = options
                .iter()
                .any(|o| o["value"].as_str().or_else(|| o["label"].as_str()) == Some(s.as_str()));
            if !known {
                return Err(ApiError::validation(format!(
                    "\"{s}\" is not an option of: {key}"
                )));
            }
        }
    }
    out.insert("answers".into(), Value::Object(answers.clone()));
    Ok(Value::Object(out))
}

/// A `client_tool` resolution (PROTOCOL §9.2, C10): exactly one of `result` (any JSON value
/// but `null`, kept as posted) or `error` (a non-empty string, or an object with a non-empty
/// string `message`, normalised to that string).
fn client_tool_resolution(
    r: &Map<String, Value>,
    mut out: Map<String, Value>,
) -> Result<Value, ApiError> {
    let result = r.get("result").filter(|v| !v.is_null());
    let error = r.get("error").filter(|v| !v.is_null());
    match (result, error) {
        (Some(_), Some(_)) => Err(ApiError::validation(
            "resolution must have either result or error, not both",
        )),
        (Some(result), None) => {
            out.insert("result".into(), result.clone());
            Ok(Value::Object(out))
        }
        (None, Some(error)) => {
            let text = error
                .as_str()
                .or_else(|| error.get("message").and_then(Value::as_str))
                .filter(|t| !t.trim().is_empty())
                .ok_or_else(|| {
                    ApiError::validation("resolution.error must be a non-empty string")
                })?;
            out.insert("error".into(), json!(text));
            Ok(Value::Object(out))
        }
        (None, None) => Err(ApiError::validation(
            "resolution.result or resolution.error is required",
        )),
    }
}

/// Replays the outcome of an already accepted answer with the same `decisionKey`.
fn replay(app: &AppState, action: &ActionRecord, stream: bool) -> Response {
    let store = app.lock();
    let continuation = action.continuation_message_id.as_ref().and_then(|mid| {
        store
            .conversation(&action.conversation_id)
            .and_then(|e| e.messages.iter().find(|m| &m.id == mid).cloned())
    });
    let pending: Vec<Value> = continuation
        .as_ref()
        .map(|m| {
            store
                .open_actions(&action.conversation_id)
                .into_iter()
                .filter(|a| a.message_id == m.id)
                .map(ActionRecord::to_json)
                .collect()
        })
        .unwrap_or_default();
    drop(store);
    let status = match (&continuation, pending.is_empty()) {
        (None, _) => "running",
        (Some(_), true) => "completed",
        (Some(_), false) => "requires_action",
    };
    if stream {
        let (tx, rx) = sse::channel();
        let _ = tx.send(sse::event(
            "stream.action_resolved",
            json!({
                "conversationId": action.conversation_id,
                "actionId": action.id,
                "status": action.status.as_str(),
                "resolution": action.resolution,
                "resolvedBy": action.resolved_by,
            }),
        ));
        if let Some(m) = &continuation {
            let mut done = json!({
                "conversationId": action.conversation_id,
                "messageId": m.id,
                "content": m.content,
                "status": status,
            });
            if let (Some(obj), false) = (done.as_object_mut(), pending.is_empty()) {
                obj.insert("pendingActions".into(), json!(pending));
            }
            let _ = tx.send(sse::event("stream.done", done));
        }
        return sse::response(rx);
    }
    let mut body = json!({ "action": action.to_json(), "status": status });
    if let Some(obj) = body.as_object_mut() {
        if let Some(m) = continuation {
            obj.insert("message".into(), json!(m));
        }
        if !pending.is_empty() {
            obj.insert("pendingActions".into(), json!(pending));
        }
    }
    Json(body).into_response()
}

/// The answer to an edit that the server re-issued as a new version: streamed, one
/// `stream.action_updated` with the pending record (no continuation: the turn still waits);
/// otherwise `{ action, status: "requires_action", pendingActions: [action] }`.
fn reissued(conversation_id: &str, action: Value, stream: bool) -> Response {
    if stream {
        let (tx, rx) = sse::channel();
        let _ = tx.send(sse::event(
            "stream.action_updated",
            json!({ "conversationId": conversation_id, "action": action }),
        ));
        return sse::response(rx);
    }
    Json(json!({
        "action": action,
        "status": "requires_action",
        "pendingActions": [action],
    }))
    .into_response()
}

/// An answer that passed every check: the action is settled and the conversation is busy.
struct Accepted {
    agent_id: String,
    action: ActionRecord,
    normalised: Value,
    resolved_by: String,
    settled: Value,
    busy: BusyGuard,
}

/// What E14's body said besides the resolution, and how the armed fault treats edits.
struct Posted {
    version: Option<u64>,
    decision_key: Option<String>,
    new_version_on_edit: bool,
}

/// Outcome of the synchronous checks of E14.
enum Answer {
    /// A retry with the `decisionKey` of the accepted answer.
    Replay(Box<ActionRecord>),
    /// Go ahead with the continuation.
    Go(Box<Accepted>),
    /// The edit was answered with a new version of the action to approve (seed 004).
    Reissued(Value),
}

/// Runs the checks that need the store (§9.10 order: 404, action_forbidden, conversation_busy,
/// 404 action, cancelled/expired/not pending, version, validation, magic words) and settles the
/// action.
fn admit(
    app: &AppState,
    caller: &Caller,
    conversation_id: &str,
    action_id: &str,
    resolution: &Value,
    posted: Posted,
) -> Result<Answer, ApiError> {
    let Posted {
        version,
        decision_key,
        new_version_on_edit,
    } = posted;
    let mut store = app.lock();
    store.expire_due(Some(conversation_id), Utc::now());
    let entry = store
        .conversation(conversation_id)
        .ok_or_else(|| ApiError::not_found("Conversation not found"))?;
    if denies(&entry.conversation, caller) {
        return Err(ApiError::action_forbidden());
    }
    let agent_id = entry.conversation.agent_id.clone();
    if store.is_busy(conversation_id) {
        return Err(ApiError::conversation_busy());
    }
    let action = store
        .action(action_id)
        .filter(|a| a.conversation_id == conversation_id)
        .cloned()
        .ok_or_else(|| ApiError::not_found(format!("Action not found: {action_id}")))?;
    match action.status {
        ActionStatus::Pending => {}
        ActionStatus::Cancelled => return Err(ApiError::action_cancelled()),
        _ if action.is_timed_out() => return Err(ApiError::action_expired()),
        _ => {
            if decision_key.is_some() && decision_key == action.decision_key {
                return Ok(Answer::Replay(Box::new(action)));
            }
            return Err(ApiError::action_not_pending());
        }
    }
    if let Some(v) = version {
        if v != action.version {
            return Err(ApiError::version_conflict(action.version));
        }
    }
    let normalised = normalise_resolution(&action, resolution)?;
    if let Some(refusal) = magic_refusal(&normalised.to_string()) {
        return Err(refusal);
    }
    if let (true, Some(edited)) = (new_version_on_edit, normalised.get("approvedArgs")) {
        // Never run an edit on an old approval: the edited call is a new version to approve.
        let reissued = store
            .reissue_action(action_id, Some(edited.clone()), None)
            .map_err(|_| ApiError::action_not_pending())?;
        return Ok(Answer::Reissued(reissued.to_json()));
    }
    let execution = match normalised.get("decision").and_then(Value::as_str) {
        Some("allow") => Some("approved"),
        Some(_) => Some("rejected"),
        None => None,
    };
    let resolved_by = caller.resolver();
    let settled = store
        .settle_action(
            action_id,
            ActionStatus::Resolved,
            Some(normalised.clone()),
            Some(resolved_by.clone()),
            execution,
        )
        .ok_or_else(|| ApiError::not_found(format!("Action not found: {action_id}")))?;
    store.set_decision_key(action_id, decision_key);
    store.try_acquire_busy(conversation_id);
    let busy = BusyGuard::adopt(app, conversation_id);

    Ok(Answer::Go(Box::new(Accepted {
        agent_id,
        action,
        normalised,
        resolved_by,
        settled,
        busy,
    })))
}

async fn resolve_inner(
    app: AppState,
    caller: Caller,
    conversation_id: String,
    action_id: String,
    body: Result<Bytes, BytesRejection>,
    fault: AnswerFault,
) -> Result<Response, ApiError> {
    let body = json_body(body)?;
    let stream = body.get("stream") == Some(&json!(true));
    let resolution = body
        .get("resolution")
        .filter(|r| r.is_object())
        .cloned()
        .ok_or_else(|| ApiError::validation("resolution is required"))?;
    let version = match body.get("version") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_u64()
                .ok_or_else(|| ApiError::validation("version must be a non-negative integer"))?,
        ),
    };
    let decision_key = body
        .get("decisionKey")
        .and_then(Value::as_str)
        .filter(|k| !k.is_empty())
        .map(str::to_string);

    let admitted = match admit(
        &app,
        &caller,
        &conversation_id,
        &action_id,
        &resolution,
        Posted {
            version,
            decision_key,
            new_version_on_edit: fault.new_version_on_edit,
        },
    )? {
        Answer::Replay(action) => return Ok(replay(&app, &action, stream)),
        Answer::Reissued(action) => return Ok(reissued(&conversation_id, action, stream)),
        Answer::Go(a) => a,
    };
    let Accepted {
        agent_id,
        action,
        normalised,
        resolved_by,
        settled,
        busy,
    } = *admitted;
    if let Some(ms) = fault.delay_ms {
        // Settled and busy, but the page hears nothing yet: its answer is still on its way.
        tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
    }

    let trigger = Trigger::Answer {
        action: Box::new(action),
        resolution: normalised.clone(),
    };
    if stream {
        let (tx, rx) = sse::channel();
        let mut turn = Turn::new(&app, &conversation_id, &agent_id, Some(tx), busy);
        turn.fail_execution_with(fault.fail_execution.clone());
        turn.emit(
            "stream.action_resolved",
            json!({
                "conversationId": conversation_id,
                "actionId": action_id,
                "status": "resolved",
                "resolution": normalised,
                "resolvedBy": resolved_by,
            }),
        );
        turn.emit(
            "stream.start",
            json!({ "conversationId": conversation_id, "messageId": turn.assistant_id }),
        );
        tokio::spawn(crate::turn::run(turn, trigger));
        return Ok(match fault.cut_stream_after {
            Some(n) => sse::response_cut_after(rx, n),
            None => sse::response(rx),
        });
    }

    let mut turn = Turn::new(&app, &conversation_id, &agent_id, None, busy);
    turn.fail_execution_with(fault.fail_execution.clone());
    let outcome = tokio::spawn(crate::turn::run(turn, trigger))
        .await
        .map_err(|e| ApiError::internal(format!("The agent turn crashed: {e}")))??;
    let action_now = app
        .lock()
        .action(&action_id)
        .map(ActionRecord::to_json)
        .unwrap_or(settled);
    let mut reply = json!({
        "action": action_now,
        "status": outcome.status,
        "message": outcome.message,
    });
    if let (Some(obj), false) = (reply.as_object_mut(), outcome.pending_actions.is_empty()) {
        obj.insert("pendingActions".into(), json!(outcome.pending_actions));
    }
    Ok(Json(reply).into_response())
}
