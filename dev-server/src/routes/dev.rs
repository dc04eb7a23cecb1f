//! Development helpers: `POST /_dev/seed` creates a conversation with many messages;
//! `GET /_dev/resolutions` shows what E14 received, for tests that check the client's requests;
//! `POST /_dev/expire` lets an action lapse now, `POST /_dev/reissue` changes an open action's
//! arguments and version under the same id, `GET /_dev/executions` counts real tool runs, and
//! `POST /_dev/next-answer` arms a refusal, a failing tool, a new version for an edit, a
//! dropped stream or a delay for the next answer, for tests of what a page does when the server
//! knows more than it does; `POST /_dev/history-source` picks where a loaded conversation says
//! how its requests ended; `POST /_dev/chunks` refuses the page's lazy chunks (issue 16).

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use chrono::Utc;
use serde_json::{json, Value};

use super::{json_body, opt_object, opt_string, Caller};
use crate::error::ApiError;
use crate::ids::new_id;
use crate::model::{empty_object, iso, Conversation, Message};
use crate::store::AnswerFault;
use crate::{sse, AppState};

/// Most messages one seed call may create.
pub const MAX_SEED_MESSAGES: u64 = 100_000;

/// `POST /_dev/seed` `{ agentId = "echo", messages = 10, userId?, title?, numbered? }` → 201
/// `{ conversation }` with that many alternating user/assistant messages (user first, one second
/// apart, ending now). With `numbered: true` message *i* (from 1) reads exactly `Message i`, so a
/// test of a long conversation can look for its first and last message. With `whole: true` the
/// conversation is served whole: E5 returns every message instead of the first 100, as a server
/// that does not page would (issue 18's bench); it says so in its metadata (`servedWhole`).
/// With `pageDelayMs: n` every later page of its messages (`GET .../messages` with an offset)
/// is answered `n` ms late, so a test sees the page while an older page is on its way; kept
/// in its metadata (`pageDelayMs`).
pub async fn seed(
    State(app): State<AppState>,
    caller: Caller,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body = json_body(body)?;
    let agent_id = opt_string(&body, "agentId")?
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "echo".to_string());
    if crate::agents::info(&agent_id).is_none() {
        return Err(ApiError::not_found(format!("Agent not found: {agent_id}")));
    }
    let count = match body.get("messages") {
        None | Some(Value::Null) => 10,
        Some(v) => v
            .as_u64()
            .filter(|n| *n <= MAX_SEED_MESSAGES)
            .ok_or_else(|| {
                ApiError::validation(format!(
                    "messages must be an integer between 0 and {MAX_SEED_MESSAGES}"
                ))
            })?,
    };
    let user_id = opt_string(&body, "userId")?
        .filter(|s| !s.is_empty())
        .or(caller.user);
    let numbered = match body.get("numbered") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(ApiError::validation("numbered must be a boolean")),
    };
    let whole = match body.get("whole") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(ApiError::validation("whole must be a boolean")),
    };
    let page_delay_ms = match body.get("pageDelayMs") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_u64()
                .filter(|n| *n <= MAX_ANSWER_DELAY_MS)
                .ok_or_else(|| {
                    ApiError::validation(format!(
                        "pageDelayMs must be an integer between 0 and {MAX_ANSWER_DELAY_MS}"
                    ))
                })?,
        ),
    };
    let title = opt_string(&body, "title")?
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| format!("Seeded conversation ({count} messages)"));
    let now = Utc::now();
    let start = now - chrono::Duration::seconds(i64::try_from(count).unwrap_or(0));
    let conversation = Conversation {
        id: new_id("conv"),
        agent_id,
        user_id,
        title: Some(title),
        metadata: {
            let mut metadata = json!({ "seeded": true });
            if whole {
                metadata["servedWhole"] = Value::Bool(true);
            }
            if let Some(ms) = page_delay_ms {
                metadata["pageDelayMs"] = Value::from(ms);
            }
            metadata
        },
        state: empty_object(),
        created_at: iso(start),
        updated_at: iso(now),
    };
    let mut store = app.lock();
    store.insert_conversation(conversation.clone());
    for i in 0..count {
        let n = i / 2 + 1;
        let at = iso(start + chrono::Duration::seconds(i64::try_from(i + 1).unwrap_or(0)));
        let (role, content) = if numbered {
            let role = if i % 2 == 0 { "user" } else { "assistant" };
            (role, format!("Message {}", i + 1))
        } else if i % 2 == 0 {
            ("user", format!("Seeded message {n}"))
        } else {
            ("assistant", format!("You said: Seeded message {n}"))
        };
        let mut m = Message::new(new_id("msg"), &conversation.id, role, content);
        m.created_at = at.clone();
        m.updated_at = at;
        store.push_message(&conversation.id, m);
    }
    let conversation = store
        .conversation(&conversation.id)
        .map(|e| e.conversation.clone())
        .unwrap_or(conversation);
    Ok((
        StatusCode::CREATED,
        Json(json!({ "conversation": conversation })),
    )
        .into_response())
}

/// `GET /_dev/resolutions?conversationId=` → 200 `{ resolutions: [{ conversationId, actionId,
/// userId, resolution, status }] }`: every E14 request, accepted or refused, in arrival order
/// (only those of `conversationId` when given). `resolution` is the body's `resolution` exactly
/// as posted (`null` if absent or the body was not JSON), `userId` the caller (`null` when
/// anonymous), `status` the HTTP status answered (`null` while the request is still handled).
pub async fn resolutions(
    State(app): State<AppState>,
    Query(query): Query<HashMap<String, String>>,
) -> Json<Value> {
    let filter = query
        .get("conversationId")
        .map(String::as_str)
        .filter(|c| !c.is_empty());
    let list: Vec<Value> = app
        .lock()
        .received(filter)
        .into_iter()
        .map(|r| r.to_json())
        .collect();
    Json(json!({ "resolutions": list }))
}

/// Longest `delayMs` `POST /_dev/next-answer` accepts.
pub const MAX_ANSWER_DELAY_MS: u64 = 60_000;

/// `POST /_dev/expire` `{ actionId }` → 200 `{ action }`: the pending action lapses now, as at
/// its deadline (`resolved`, deny / cancelled answers, `resolvedBy: "system:timeout"`,
/// `executionStatus: "expired"`, the agent's timeout continuation appended), while its
/// advertised `expiresAt` stays as it was, so a page that loaded it still counts down. 404 for
/// an unknown action, 409 `action_not_pending` when it is no longer pending.
pub async fn expire(
    State(app): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let body = json_body(body)?;
    let action_id = opt_string(&body, "actionId")?
        .filter(|s| !s.is_empty())
        .ok_or_else(|| ApiError::validation("actionId is required"))?;
    match app.lock().expire_now(&action_id, Utc::now()) {
        Ok(action) => Ok(Json(json!({ "action": action }))),
        Err(None) => Err(ApiError::not_found(format!(
            "Action not found: {action_id}"
        ))),
        Err(Some(_)) => Err(ApiError::action_not_pending()),
    }
}

/// `POST /_dev/reissue` `{ actionId, args?, version? }` → 200 `{ action }`: the agent re-issues
/// its open request under the same id, as one that changed its mind: `args` (an object) replaces
/// the arguments (default: kept; only for `tool_approval` and `client_tool`, which have them),
/// `version` (an integer ≥ 1) becomes the action's version (default: the current one + 1; the
/// same version with other arguments is allowed too). Status, deadline and every other field
/// stay; the paused message's `metadata.pendingActions` entry follows, so E5 shows the new
/// action, and from now on E14 checks the new version (another one → 409
/// `action_version_conflict`) and an unedited Approve runs the new arguments.
///
/// While a streaming turn of the conversation is still open (a paused turn's stream has
/// already ended with `stream.done`, so only another turn's can be: a message or an answer,
/// e.g. held by `#slow`, while a `client_tool` action waits), the action is also sent on it as
/// `stream.action_required` with the updated action. Otherwise the page learns of it on its
/// next E5 (e.g. the refetch after `action_version_conflict`).
///
/// 400 without `actionId` or for a bad `args` / `version`, 404 for an unknown action, 409
/// `action_not_pending` when it is no longer pending.
pub async fn reissue(
    State(app): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let body = json_body(body)?;
    let action_id = opt_string(&body, "actionId")?
        .filter(|s| !s.is_empty())
        .ok_or_else(|| ApiError::validation("actionId is required"))?;
    let args = opt_object(&body, "args")?;
    let version = match body.get("version") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_u64()
                .filter(|n| *n >= 1)
                .ok_or_else(|| ApiError::validation("version must be an integer of at least 1"))?,
        ),
    };
    let mut store = app.lock();
    let kind = store
        .action(&action_id)
        .map(|a| a.kind.clone())
        .ok_or_else(|| ApiError::not_found(format!("Action not found: {action_id}")))?;
    if args.is_some() && kind == "user_question" {
        return Err(ApiError::validation(
            "args apply to tool_approval and client_tool actions only",
        ));
    }
    let action = store
        .reissue_action(&action_id, args, version)
        .map_err(|_| ApiError::action_not_pending())?;
    let json = action.to_json();
    if let Some(tx) = store.live_stream(&action.conversation_id) {
        // The turn may end in between: then the page sees the change on its next E5.
        let _ = tx.send(sse::event(
            "stream.action_required",
            json!({
                "conversationId": action.conversation_id,
                "messageId": action.message_id,
                "action": json,
            }),
        ));
    }
    Ok(Json(json!({ "action": json })))
}

/// `POST /_dev/next-answer` `{ conversationId, refuse?, cutStreamAfter?, delayMs? }` → 200
/// `{ armed: { conversationId, refuse, cutStreamAfter, delayMs } }`: what happens to the next
/// E14 request of the conversation (used up by it; arming again replaces it).
///
/// * `refuse`: a code of [`ApiError::INJECTABLE_ANSWER_CODES`]; the request is refused with it
///   (logged in `/_dev/resolutions` with that status) and the action stays as it was.
/// * `cutStreamAfter: n`: an accepted streaming answer's response ends after `n` events, while
///   the continuation goes on and is stored (a dropped connection, PROTOCOL §9.9).
/// * `delayMs`: an accepted answer is settled at once but its response starts only after this
///   long (at most 60 000).
///
/// 400 for an unknown code or a bad number, 404 for an unknown conversation.
pub async fn next_answer(
    State(app): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let body = json_body(body)?;
    let conversation_id = opt_string(&body, "conversationId")?
        .filter(|s| !s.is_empty())
        .ok_or_else(|| ApiError::validation("conversationId is required"))?;
    let refuse = match opt_string(&body, "refuse")? {
        None => None,
        Some(code) => Some(
            ApiError::INJECTABLE_ANSWER_CODES
                .into_iter()
                .find(|c| *c == code)
                .ok_or_else(|| {
                    ApiError::validation(format!(
                        "refuse must be one of {}",
                        ApiError::INJECTABLE_ANSWER_CODES.join(", ")
                    ))
                })?,
        ),
    };
    let number = |key: &str, max: u64| -> Result<Option<u64>, ApiError> {
        match body.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v.as_u64().filter(|n| *n <= max).map(Some).ok_or_else(|| {
                ApiError::validation(format!("{key} must be an integer between 0 and {max}"))
            }),
        }
    };
    let cut_stream_after = number("cutStreamAfter", u64::from(u32::MAX))?
        .map(|n| usize::try_from(n).unwrap_or(usize::MAX));
    let delay_ms = number("delayMs", MAX_ANSWER_DELAY_MS)?;
    let fail_execution = opt_string(&body, "failExecution")?.filter(|s| !s.trim().is_empty());
    let new_version_on_edit = body.get("newVersionOnEdit") == Some(&json!(true));
    let lookup_delay_ms = number("lookupDelayMs", MAX_ANSWER_DELAY_MS)?;
    let fault = AnswerFault {
        refuse,
        cut_stream_after,
        delay_ms,
        fail_execution: fail_execution.clone(),
        new_version_on_edit,
        lookup_delay_ms,
    };
    let mut store = app.lock();
    if store.conversation(&conversation_id).is_none() {
        return Err(ApiError::not_found("Conversation not found"));
    }
    store.arm_answer_fault(&conversation_id, fault);
    Ok(Json(json!({ "armed": {
        "conversationId": conversation_id,
        "refuse": refuse,
        "cutStreamAfter": cut_stream_after,
        "delayMs": delay_ms,
        "failExecution": fail_execution,
        "newVersionOnEdit": new_version_on_edit,
        "lookupDelayMs": lookup_delay_ms,
    } })))
}

/// `GET /_dev/executions?actionId=` → 200 `{ actionId, count }`: how many times the tool of
/// an approved action really ran (seed 004: a retry, reload or second tab never runs it twice).
pub async fn executions(
    State(app): State<AppState>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Json<Value>, ApiError> {
    let action_id = query
        .get("actionId")
        .filter(|s| !s.is_empty())
        .ok_or_else(|| ApiError::validation("actionId is required"))?;
    let count = app.lock().executions(action_id);
    Ok(Json(json!({ "actionId": action_id, "count": count })))
}

/// `POST /_dev/history-source` `{ conversationId, source: 1 | 2 | 3 }` → 200
/// `{ conversationId, source }`: how E5 tells how the conversation's settled requests ended
/// (seed 000 "History"). 3 (the default) leaves each settled entry of a message's
/// `metadata.pendingActions` with its `status` and `resolution`; 1 moves those into the
/// message's `actionStates` (`{ [actionId]: { status, resolution, resolvedBy } }`) and 2 into
/// its `metadata.actionStates`, leaving the list entries without them, so a page can only
/// learn the outcome from that source. Kept in the conversation's metadata (`historySource`).
/// 400 without `conversationId` or for another `source`, 404 unknown conversation.
pub async fn history_source(
    State(app): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let body = json_body(body)?;
    let conversation_id = opt_string(&body, "conversationId")?
        .filter(|s| !s.is_empty())
        .ok_or_else(|| ApiError::validation("conversationId is required"))?;
    let source = body
        .get("source")
        .and_then(Value::as_u64)
        .filter(|n| (1..=3).contains(n))
        .ok_or_else(|| ApiError::validation("source must be 1, 2 or 3"))?;
    let mut store = app.lock();
    let entry = store
        .conversation_mut(&conversation_id)
        .ok_or_else(|| ApiError::not_found("Conversation not found"))?;
    let metadata = &mut entry.conversation.metadata;
    match metadata.as_object_mut() {
        Some(obj) => {
            obj.insert("historySource".into(), json!(source));
        }
        None => *metadata = json!({ "historySource": source }),
    }
    Ok(Json(
        json!({ "conversationId": conversation_id, "source": source }),
    ))
}

/// E5's message `m` (JSON) as history source `source` says (see [`history_source`]).
pub fn shape_history(mut m: Value, source: u64) -> Value {
    if source != 1 && source != 2 {
        return m;
    }
    let mut states = serde_json::Map::new();
    if let Some(list) = m
        .pointer_mut("/metadata/pendingActions")
        .and_then(Value::as_array_mut)
    {
        for item in list.iter_mut() {
            let Some(obj) = item.as_object_mut() else {
                continue;
            };
            let settled = matches!(
                obj.get("status").and_then(Value::as_str),
                Some("resolved" | "cancelled" | "expired")
            );
            let Some(id) = obj.get("id").and_then(Value::as_str).map(str::to_owned) else {
                continue;
            };
            if !settled {
                continue;
            }
            let mut record = serde_json::Map::new();
            for key in ["status", "resolution", "resolvedBy"] {
                if let Some(v) = obj.remove(key) {
                    record.insert(key.into(), v);
                }
            }
            states.insert(id, Value::Object(record));
        }
    }
    if states.is_empty() {
        return m;
    }
    let target = if source == 1 {
        m.as_object_mut()
    } else {
        m.get_mut("metadata").and_then(Value::as_object_mut)
    };
    if let Some(obj) = target {
        obj.insert("actionStates".into(), Value::Object(states));
    }
    m
}

/// `POST /_dev/chunks` `{ blocked, except? }` → `{ blocked }`: while `blocked`, the static files
/// of the page's and the element's lazy chunks (`split_*.wasm`, `chunk_*.wasm`) answer 503, as
/// an outage or a stale deploy would, so a journey can check the first screen works without
/// them and a part that needs one says so and retries (issue 16). `except` names parts still
/// served (`["messages"]`): their own file and the shared `chunk_*.wasm` files, so only the
/// other parts fail.
pub async fn chunks(
    State(app): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let body = json_body(body)?;
    let blocked = body
        .get("blocked")
        .and_then(Value::as_bool)
        .ok_or_else(|| ApiError::validation("blocked must be true or false"))?;
    let spared = match body.get("except") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(names)) => names
            .iter()
            .map(|n| n.as_str().map(str::to_owned))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| ApiError::validation("except must be a list of part names"))?,
        Some(_) => return Err(ApiError::validation("except must be a list of part names")),
    };
    let mut state = app.lock();
    state.chunks_blocked = blocked;
    state.chunks_spared = spared;
    Ok(Json(json!({ "blocked": blocked })))
}

/// Whether `path` is a lazy chunk of a split build (see [`chunks`]).
pub fn is_chunk_path(path: &str) -> bool {
    let file = path.rsplit('/').next().unwrap_or(path);
    file.ends_with(".wasm") && (file.starts_with("split_") || file.starts_with("chunk_"))
}

/// Whether the chunk file `path` is still served while chunks are blocked: a part named in
/// `spared`, or a shared chunk when some part is spared.
fn is_spared(path: &str, spared: &[String]) -> bool {
    let file = path.rsplit('/').next().unwrap_or(path);
    !spared.is_empty()
        && (file.starts_with("chunk_")
            || spared
                .iter()
                .any(|name| file.strip_prefix("split_") == Some(&format!("{name}.wasm"))))
}

/// Middleware of the static files: 503 for a lazy chunk while `/_dev/chunks` blocks them.
pub async fn refuse_blocked_chunks(
    State(app): State<AppState>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let path = request.uri().path();
    let refused = is_chunk_path(path) && {
        let state = app.lock();
        state.chunks_blocked && !is_spared(path, &state.chunks_spared)
    };
    if refused {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            "chunk blocked (_dev/chunks)",
        )
            .into_response();
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::{is_spared, shape_history};
    use serde_json::json;

    #[test]
    fn sparing_a_part_serves_its_file_and_the_shared_ones_only() {
        let spared = vec!["messages".to_owned()];
        assert!(is_spared("/element/split_messages.wasm", &spared));
        assert!(is_spared("/element/chunk_12.wasm", &spared));
        assert!(!is_spared("/element/split_cards.wasm", &spared));
        assert!(!is_spared("/split_messages_old.wasm", &spared));
        // Nothing spared: every chunk is refused.
        assert!(!is_spared("/element/chunk_12.wasm", &[]));
        assert!(!is_spared("/element/split_messages.wasm", &[]));
    }

    fn message() -> serde_json::Value {
        json!({"id": "m", "role": "assistant", "content": "Done.", "metadata": {"pendingActions": [
            {"id": "a1", "type": "tool_approval", "toolName": "t", "status": "resolved",
             "resolution": {"decision": "deny", "comment": "no"}, "resolvedBy": "user:1"},
            {"id": "a2", "type": "tool_approval", "toolName": "t", "status": "pending"}]}})
    }

    #[test]
    fn history_sources_move_settled_outcomes_and_leave_open_ones() {
        let record = json!({"status": "resolved", "resolution": {"decision": "deny", "comment": "no"},
                            "resolvedBy": "user:1"});
        let bare = json!({"id": "a1", "type": "tool_approval", "toolName": "t"});
        let one = shape_history(message(), 1);
        assert_eq!(one["actionStates"]["a1"], record);
        assert_eq!(one["metadata"]["pendingActions"][0], bare);
        assert_eq!(one["metadata"]["pendingActions"][1]["status"], "pending");
        assert!(one["metadata"].get("actionStates").is_none());
        let two = shape_history(message(), 2);
        assert_eq!(two["metadata"]["actionStates"]["a1"], record);
        assert_eq!(two["metadata"]["pendingActions"][0], bare);
        assert!(two.get("actionStates").is_none());
        assert_eq!(shape_history(message(), 3), message());
    }
}
