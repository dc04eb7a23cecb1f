//! Development helpers: `POST /_dev/seed` creates a conversation with many messages;
//! `GET /_dev/resolutions` shows what E14 received, for tests that check the client's requests.

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use chrono::Utc;
use serde_json::{json, Value};

use super::{json_body, opt_string, Caller};
use crate::error::ApiError;
use crate::ids::new_id;
use crate::model::{empty_object, iso, Conversation, Message};
use crate::AppState;

/// Most messages one seed call may create.
pub const MAX_SEED_MESSAGES: u64 = 100_000;

/// `POST /_dev/seed` `{ agentId = "echo", messages = 10, userId?, title? }` → 201 `{ conversation }`
/// with that many alternating user/assistant messages (user first, one second apart, ending now).
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
        metadata: json!({ "seeded": true }),
        state: empty_object(),
        created_at: iso(start),
        updated_at: iso(now),
    };
    let mut store = app.lock();
    store.insert_conversation(conversation.clone());
    for i in 0..count {
        let n = i / 2 + 1;
        let at = iso(start + chrono::Duration::seconds(i64::try_from(i + 1).unwrap_or(0)));
        let (role, content) = if i % 2 == 0 {
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
