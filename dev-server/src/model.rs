//! Wire data shapes (PROTOCOL §4) and time helpers.

use chrono::{DateTime, SecondsFormat, Utc};
use serde::Serialize;
use serde_json::{Map, Value};

/// A message's attachment and an upload's record are the chat's own wire types, so the
/// reference server writes exactly what the chat reads.
pub use agent_chat_core::wire::{FileAttachment, FileRecord};

/// Current time as an ISO-8601 string with milliseconds, e.g. `2025-05-01T10:00:00.000Z`.
pub fn now_iso() -> String {
    iso(Utc::now())
}

/// Formats a time the way the server serialises `Date`s.
pub fn iso(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// Current time in epoch milliseconds (the `timestamp` of stream events).
pub fn now_ms() -> i64 {
    Utc::now().timestamp_millis()
}

/// An empty JSON object.
pub fn empty_object() -> Value {
    Value::Object(Map::new())
}

/// A conversation (PROTOCOL §4).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Conversation {
    /// `conv_…` id.
    pub id: String,
    /// The agent this conversation talks to.
    pub agent_id: String,
    /// Owner; absent for anonymous conversations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_id: Option<String>,
    /// Title; generated after the first exchange when not given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Free-form metadata (`pendingActionPolicy` is read from here).
    pub metadata: Value,
    /// Server state (`rememberedTools` lives here).
    pub state: Value,
    /// Creation time.
    pub created_at: String,
    /// Last change time.
    pub updated_at: String,
}

/// A stored message (PROTOCOL §4).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Message {
    /// `msg_…` id.
    pub id: String,
    /// Owning conversation.
    pub conversation_id: String,
    /// `user` or `assistant`.
    pub role: String,
    /// Plain-text content.
    pub content: String,
    /// OpenAI-style tool calls `{ id, name, arguments }` (arguments is a JSON string).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_calls: Option<Vec<Value>>,
    /// Attachments (user messages).
    pub files: Vec<FileAttachment>,
    /// Metadata: `toolCallDetails`, `toolCallDurationSeconds`, `pendingActions` (§7, §9.6).
    pub metadata: Value,
    /// Sources `{ id?, title?, image?, description?, link? }` (§4; the `research` agent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub citations: Option<Vec<Value>>,
    /// Creation time.
    pub created_at: String,
    /// Last change time.
    pub updated_at: String,
}

impl Message {
    /// A new message with the current time and empty metadata.
    pub fn new(id: String, conversation_id: &str, role: &str, content: String) -> Self {
        let now = now_iso();
        Self {
            id,
            conversation_id: conversation_id.to_string(),
            role: role.to_string(),
            content,
            tool_calls: None,
            files: Vec::new(),
            metadata: empty_object(),
            citations: None,
            created_at: now.clone(),
            updated_at: now,
        }
    }
}
