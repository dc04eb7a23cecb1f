//! Requests and responses.

use super::*;

/// One file sent inline with a message: raw base64 content, no `data:` prefix.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UploadFile {
    /// File name.
    #[serde(default, deserialize_with = "lenient::string")]
    pub name: String,
    /// Base64 content.
    #[serde(default, deserialize_with = "lenient::string")]
    pub content: String,
    /// MIME type.
    #[serde(default, deserialize_with = "lenient::string")]
    pub mime_type: String,
}

/// `POST /conversations/:id/messages` request body. The client always sends `stream`; `streaming`
/// is read as an alias.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SendMessageRequest {
    /// The user's text (non-empty).
    #[serde(default, deserialize_with = "lenient::string")]
    pub message: String,
    /// Inline files; omitted from the body when empty.
    #[serde(
        default,
        deserialize_with = "lenient::list",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub files: Vec<UploadFile>,
    /// Free-form metadata; omitted when `None`.
    #[serde(
        default,
        deserialize_with = "lenient::opt_map",
        skip_serializing_if = "Option::is_none"
    )]
    pub metadata: Option<Map<String, Value>>,
    /// `true` asks for an SSE answer.
    #[serde(
        default,
        alias = "streaming",
        deserialize_with = "lenient::bool_or_false"
    )]
    pub stream: bool,
}

/// Outcome of a turn.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TurnStatus {
    /// `completed`: the turn finished.
    Completed,
    /// `requires_action`: the turn waits on pending actions (Cogitator `paused` reads the same).
    RequiresAction,
    /// `running`: the continuation still executes; refetch later.
    Running,
    /// Anything else, as sent.
    Other(String),
}

impl TurnStatus {
    /// The wire spelling.
    #[must_use]
    pub fn as_str(&self) -> &str {
        match self {
            TurnStatus::Completed => "completed",
            TurnStatus::RequiresAction => "requires_action",
            TurnStatus::Running => "running",
            TurnStatus::Other(s) => s,
        }
    }

    /// Reads a status (case and `-`/`_` ignored); unknown strings become [`TurnStatus::Other`].
    #[must_use]
    pub fn parse(s: &str) -> TurnStatus {
        match normalise_tag(s).as_str() {
            "completed" | "complete" => TurnStatus::Completed,
            "requires_action" | "paused" => TurnStatus::RequiresAction,
            "running" | "in_progress" => TurnStatus::Running,
            _ => TurnStatus::Other(s.to_owned()),
        }
    }

    /// Reads a status from JSON; non-strings give `None`.
    #[must_use]
    pub fn from_json(v: &Value) -> Option<TurnStatus> {
        v.as_str().map(TurnStatus::parse)
    }
}

impl Serialize for TurnStatus {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for TurnStatus {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        TurnStatus::from_json(&Value::deserialize(d)?)
            .ok_or_else(|| D::Error::custom("turn status must be a string"))
    }
}

/// `POST /conversations/:id/messages` JSON answer (`stream: false`, with the extension fields
/// `status` and `pendingActions`).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SendMessageResponse {
    /// The stored user message (replaces the optimistic one). Required: a body without a
    /// readable one is a [`ProtocolError`].
    pub message: Message,
    /// The stored assistant message. Required like `message`.
    pub response: Message,
    /// Generated title (first exchange only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conversation_title: Option<String>,
    /// Token counts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    /// Turn outcome (an extension of the agent server's answer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<TurnStatus>,
    /// Open actions after the turn (an extension of the agent server's answer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending_actions: Option<Vec<PendingAction>>,
}

impl SendMessageResponse {
    /// Reads a `POST /conversations/:id/messages` JSON answer: `None` unless both `message` and
    /// `response` are readable messages; the other fields are optional.
    #[must_use]
    pub fn from_json(v: &Value) -> Option<SendMessageResponse> {
        let obj = v.as_object()?;
        Some(SendMessageResponse {
            message: Message::from_json(obj.get("message")?)?,
            response: Message::from_json(obj.get("response")?)?,
            conversation_title: obj.get("conversationTitle").and_then(str_of),
            usage: obj.get("usage").and_then(Usage::from_json),
            status: obj.get("status").and_then(TurnStatus::from_json),
            pending_actions: pending_actions_of(obj.get("pendingActions")),
        })
    }
}
by_hand!(
    SendMessageResponse,
    "an object with a readable message and response"
);

/// `POST /conversations` request body.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateConversationRequest {
    /// Agent to talk to.
    #[serde(default, deserialize_with = "lenient::string")]
    pub agent_id: String,
    /// Owner, when known.
    #[serde(
        default,
        deserialize_with = "lenient::opt_id",
        skip_serializing_if = "Option::is_none"
    )]
    pub user_id: Option<String>,
    /// Initial title.
    #[serde(
        default,
        deserialize_with = "lenient::opt_string",
        skip_serializing_if = "Option::is_none"
    )]
    pub title: Option<String>,
    /// Free-form metadata.
    #[serde(
        default,
        deserialize_with = "lenient::opt_map",
        skip_serializing_if = "Option::is_none"
    )]
    pub metadata: Option<Map<String, Value>>,
}

/// `PATCH /conversations/:id` request body (rename / metadata change).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UpdateConversationRequest {
    /// New title.
    #[serde(
        default,
        deserialize_with = "lenient::opt_string",
        skip_serializing_if = "Option::is_none"
    )]
    pub title: Option<String>,
    /// New metadata.
    #[serde(
        default,
        deserialize_with = "lenient::opt_map",
        skip_serializing_if = "Option::is_none"
    )]
    pub metadata: Option<Map<String, Value>>,
}

/// `POST /conversations/:cid/actions/:aid` request body (`version` and `decisionKey` from versioned
/// action records).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResolveActionRequest {
    /// The answer; always written with its `type`.
    pub resolution: Resolution,
    /// `true` asks for an SSE continuation.
    pub stream: bool,
    /// The action's `version`, echoed back when the server sent one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<i64>,
    /// Idempotency key, one per click, reused on retry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision_key: Option<String>,
}

impl<'de> Deserialize<'de> for ResolveActionRequest {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        let obj = v
            .as_object()
            .ok_or_else(|| D::Error::custom("expected an object"))?;
        let resolution = obj
            .get("resolution")
            .and_then(|r| Resolution::from_json(r, None))
            .ok_or_else(|| D::Error::custom("missing or unreadable `resolution`"))?;
        Ok(ResolveActionRequest {
            resolution,
            stream: obj.get("stream").and_then(bool_of).unwrap_or(false),
            version: obj.get("version").and_then(i64_of),
            decision_key: obj.get("decisionKey").and_then(str_of),
        })
    }
}

/// `POST /conversations/:cid/actions/:aid` JSON answer (`stream` false or absent).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResolveActionResponse {
    /// The settled action.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<PendingAction>,
    /// `completed` | `requires_action` | `running`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<TurnStatus>,
    /// The continuation's assistant message, when finished.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<Message>,
    /// Actions open after the continuation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending_actions: Option<Vec<PendingAction>>,
}

impl ResolveActionResponse {
    /// Reads a `POST /conversations/:cid/actions/:aid` JSON answer: any object; unreadable fields
    /// are absent.
    #[must_use]
    pub fn from_json(v: &Value) -> Option<ResolveActionResponse> {
        let obj = v.as_object()?;
        Some(ResolveActionResponse {
            action: obj.get("action").and_then(PendingAction::from_json),
            status: obj.get("status").and_then(TurnStatus::from_json),
            message: obj.get("message").and_then(Message::from_json),
            pending_actions: pending_actions_of(obj.get("pendingActions")),
        })
    }
}
by_hand!(ResolveActionResponse, "an object");
