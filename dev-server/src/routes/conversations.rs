//! E3–E8: conversation list, create, read, rename, delete and paged messages.

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use chrono::Utc;
use serde_json::{json, Value};

use super::{check_access, int_param, json_body, opt_object, opt_string, Caller};
use crate::error::ApiError;
use crate::ids::new_id;
use crate::model::{empty_object, now_iso, Conversation};
use crate::store::ActionRecord;
use crate::AppState;

/// Default page size of E3.
pub const CONVERSATIONS_LIMIT: usize = 20;
/// Default page size of E8.
pub const MESSAGES_LIMIT: usize = 100;
/// Most messages E5 returns (the first ones, oldest first).
pub const GET_MESSAGES_MAX: usize = 100;

/// E3: `GET /conversations?agentId&userId&limit&offset`, newest-created first, with `agentName`.
/// Without a `userId` query the caller's user filters the list (anonymous callers see all).
pub async fn list(
    State(app): State<AppState>,
    caller: Caller,
    Query(query): Query<HashMap<String, String>>,
) -> Json<Value> {
    let limit = int_param(&query, "limit", CONVERSATIONS_LIMIT);
    let offset = int_param(&query, "offset", 0);
    let agent = query.get("agentId").filter(|s| !s.is_empty());
    let user = query
        .get("userId")
        .filter(|s| !s.is_empty())
        .cloned()
        .or(caller.user);
    let store = app.lock();
    let all: Vec<&Conversation> = store
        .conversations_newest_first()
        .into_iter()
        .map(|e| &e.conversation)
        .filter(|c| agent.is_none_or(|a| &c.agent_id == a))
        .filter(|c| user.as_ref().is_none_or(|u| c.user_id.as_ref() == Some(u)))
        .collect();
    let total = all.len();
    let page: Vec<Value> = all
        .into_iter()
        .skip(offset)
        .take(limit)
        .map(|c| {
            let mut v = json!(c);
            if let (Some(obj), Some(name)) = (v.as_object_mut(), crate::agents::name(&c.agent_id)) {
                obj.insert("agentName".into(), json!(name));
            }
            v
        })
        .collect();
    let has_more = offset + page.len() < total;
    Json(json!({
        "conversations": page, "total": total, "limit": limit, "offset": offset, "hasMore": has_more
    }))
}

/// E4: `POST /conversations` `{ agentId, userId?, title?, metadata? }` → 201 `{ conversation }`.
pub async fn create(
    State(app): State<AppState>,
    caller: Caller,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body = json_body(body)?;
    let agent_id = opt_string(&body, "agentId")
        .ok()
        .flatten()
        .filter(|s| !s.trim().is_empty())
        .ok_or_else(|| ApiError::validation("agentId is required"))?;
    if crate::agents::info(&agent_id).is_none() {
        return Err(ApiError::not_found(format!("Agent not found: {agent_id}")));
    }
    let user_id = opt_string(&body, "userId")?
        .filter(|s| !s.is_empty())
        .or(caller.user);
    let title = opt_string(&body, "title")?.filter(|s| !s.is_empty());
    let metadata = opt_object(&body, "metadata")?.unwrap_or_else(empty_object);
    let now = now_iso();
    let conversation = Conversation {
        id: new_id("conv"),
        agent_id,
        user_id,
        title,
        metadata,
        state: empty_object(),
        created_at: now.clone(),
        updated_at: now,
    };
    app.lock().insert_conversation(conversation.clone());
    Ok((
        StatusCode::CREATED,
        Json(json!({ "conversation": conversation })),
    )
        .into_response())
}

/// Where settled requests of a conversation say how they ended (`POST /_dev/history-source`,
/// kept as `historySource` in its metadata; 3, the list entries, by default).
fn history_source(metadata: &Value) -> u64 {
    metadata
        .get("historySource")
        .and_then(Value::as_u64)
        .unwrap_or(3)
}

/// E5: `{ conversation, messages (first 100, oldest first), pendingActions (open, always present) }`;
/// every message for a conversation seeded `whole` (`POST /_dev/seed`); settled requests in the
/// shape `POST /_dev/history-source` chose.
pub async fn get_one(
    State(app): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let delay = app.lock().take_lookup_delay(&id);
    if let Some(ms) = delay {
        tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
    }
    let mut store = app.lock();
    store.expire_due(Some(&id), Utc::now());
    let entry = store
        .conversation(&id)
        .ok_or_else(|| ApiError::not_found("Conversation not found"))?;
    check_access(&entry.conversation, &caller)?;
    // A conversation seeded `whole` is served like a server that does not page (issue 18).
    let whole = entry.conversation.metadata.get("servedWhole") == Some(&Value::Bool(true));
    let source = history_source(&entry.conversation.metadata);
    let messages: Vec<Value> = entry
        .messages
        .iter()
        .take(if whole { usize::MAX } else { GET_MESSAGES_MAX })
        .map(|m| super::dev::shape_history(json!(m), source))
        .collect();
    let conversation = json!(entry.conversation);
    let pending: Vec<Value> = store
        .open_actions(&id)
        .into_iter()
        .map(ActionRecord::to_json)
        .collect();
    Ok(Json(json!({
        "conversation": conversation, "messages": messages, "pendingActions": pending
    })))
}

/// E6: `PATCH /conversations/:id` `{ title?, metadata? }` → the bare conversation.
/// `title: null` clears the title; `metadata` replaces the metadata object.
pub async fn update(
    State(app): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let body = json_body(body)?;
    let title = opt_string(&body, "title")?;
    let metadata = opt_object(&body, "metadata")?;
    let mut store = app.lock();
    let entry = store
        .conversation_mut(&id)
        .ok_or_else(|| ApiError::not_found("Conversation not found"))?;
    check_access(&entry.conversation, &caller)?;
    if body.contains_key("title") {
        entry.conversation.title = title;
    }
    if let Some(m) = metadata {
        entry.conversation.metadata = m;
    }
    entry.conversation.updated_at = now_iso();
    Ok(Json(json!(entry.conversation)))
}

/// E7: `DELETE /conversations/:id` → 204 with an empty body.
pub async fn delete(
    State(app): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let mut store = app.lock();
    let entry = store
        .conversation(&id)
        .ok_or_else(|| ApiError::not_found("Conversation not found"))?;
    check_access(&entry.conversation, &caller)?;
    store.remove_conversation(&id);
    Ok(StatusCode::NO_CONTENT)
}

/// E8: `GET /conversations/:id/messages?limit&offset&order` →
/// `{ messages, total, limit, offset, hasMore }` (`order=desc` = newest first); a page after
/// the first comes `pageDelayMs` late for a conversation seeded with that delay.
pub async fn messages(
    State(app): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Json<Value>, ApiError> {
    let limit = int_param(&query, "limit", MESSAGES_LIMIT);
    let offset = int_param(&query, "offset", 0);
    let desc = query.get("order").map(String::as_str) == Some("desc");
    if offset > 0 {
        // A conversation seeded with `pageDelayMs` answers its later pages that late.
        let delay = app.lock().conversation(&id).and_then(|entry| {
            entry
                .conversation
                .metadata
                .get("pageDelayMs")
                .and_then(Value::as_u64)
        });
        if let Some(ms) = delay {
            tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
        }
    }
    let mut store = app.lock();
    store.expire_due(Some(&id), Utc::now());
    let entry = store
        .conversation(&id)
        .ok_or_else(|| ApiError::not_found("Conversation not found"))?;
    check_access(&entry.conversation, &caller)?;
    let total = entry.messages.len();
    let source = history_source(&entry.conversation.metadata);
    let ordered: Box<dyn Iterator<Item = _>> = if desc {
        Box::new(entry.messages.iter().rev())
    } else {
        Box::new(entry.messages.iter())
    };
    let page: Vec<Value> = ordered
        .skip(offset)
        .take(limit)
        .map(|m| super::dev::shape_history(json!(m), source))
        .collect();
    let has_more = offset + page.len() < total;
    Ok(Json(json!({
        "messages": page, "total": total, "limit": limit, "offset": offset, "hasMore": has_more
    })))
}
