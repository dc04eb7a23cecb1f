//! E1 `GET /agents` and E2 `GET /agents/:agentId`.

use axum::extract::Path;
use axum::Json;
use serde_json::{json, Value};

use crate::error::ApiError;

/// E1: `{ agents: AgentInfo[] }`.
pub async fn list() -> Json<Value> {
    Json(json!({ "agents": crate::agents::catalog() }))
}

/// E2: the bare `AgentInfo`, or 404.
pub async fn get_one(Path(agent_id): Path<String>) -> Result<Json<Value>, ApiError> {
    crate::agents::info(&agent_id)
        .map(Json)
        .ok_or_else(|| ApiError::not_found(format!("Agent not found: {agent_id}")))
}
