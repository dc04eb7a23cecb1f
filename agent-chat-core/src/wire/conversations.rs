//! Conversations (listing, creating, reading, updating).

use super::*;

/// A stored conversation (the body of creating, reading and updating one).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Conversation {
    /// Server id (`conv_…`).
    pub id: String,
    /// Agent the conversation belongs to (empty if the server omitted it).
    pub agent_id: String,
    /// Owner, when the server tracks one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_id: Option<String>,
    /// Title, once set or generated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Free-form metadata.
    pub metadata: Map<String, Value>,
    /// Free-form server state, kept as sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<Value>,
    /// Creation time.
    #[serde(
        serialize_with = "crate::time::opt_iso::serialize",
        skip_serializing_if = "Option::is_none"
    )]
    pub created_at: Option<Millis>,
    /// Last update time.
    #[serde(
        serialize_with = "crate::time::opt_iso::serialize",
        skip_serializing_if = "Option::is_none"
    )]
    pub updated_at: Option<Millis>,
}

impl Conversation {
    /// Reads a conversation: an object with an id; every other field is optional and a value
    /// of the wrong type counts as absent. `None` otherwise.
    #[must_use]
    pub fn from_json(v: &Value) -> Option<Conversation> {
        let obj = v.as_object()?;
        Some(Conversation {
            id: obj.get("id").and_then(id_of)?,
            agent_id: string_or_empty(obj.get("agentId")),
            user_id: obj.get("userId").and_then(id_of),
            title: obj.get("title").and_then(str_of),
            metadata: object_or_empty(obj.get("metadata")),
            state: obj.get("state").filter(|s| !s.is_null()).cloned(),
            created_at: obj.get("createdAt").and_then(parse_timestamp),
            updated_at: obj.get("updatedAt").and_then(parse_timestamp),
        })
    }
}
by_hand!(Conversation, "a conversation object with an id");

/// One row of the history list (`GET /conversations`): a [`Conversation`] plus the agent's name.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConversationListItem {
    /// The conversation fields.
    #[serde(flatten)]
    pub conversation: Conversation,
    /// Name of the agent, when the server joined it in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_name: Option<String>,
}

impl ConversationListItem {
    /// Reads a row: a [`Conversation`] object that may also carry `agentName`.
    #[must_use]
    pub fn from_json(v: &Value) -> Option<ConversationListItem> {
        Some(ConversationListItem {
            conversation: Conversation::from_json(v)?,
            agent_name: v.get("agentName").and_then(str_of),
        })
    }
}
by_hand!(ConversationListItem, "a conversation object with an id");

impl std::ops::Deref for ConversationListItem {
    type Target = Conversation;

    fn deref(&self) -> &Conversation {
        &self.conversation
    }
}

/// `GET /conversations` body: one page of the history list.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConversationList {
    /// The rows, newest first in the reference storage. Unreadable rows are dropped.
    pub conversations: Vec<ConversationListItem>,
    /// Total number of conversations matching the query.
    pub total: u64,
    /// Page size used.
    pub limit: u64,
    /// Offset used.
    pub offset: u64,
    /// Whether more rows follow.
    pub has_more: bool,
}

impl ConversationList {
    /// Reads a `GET /conversations` body; `None` when it is not an object.
    #[must_use]
    pub fn from_json(v: &Value) -> Option<ConversationList> {
        let obj = v.as_object()?;
        Some(ConversationList {
            conversations: list_of(obj.get("conversations"), ConversationListItem::from_json),
            total: obj.get("total").and_then(u64_of).unwrap_or(0),
            limit: obj.get("limit").and_then(u64_of).unwrap_or(0),
            offset: obj.get("offset").and_then(u64_of).unwrap_or(0),
            has_more: obj.get("hasMore").and_then(bool_of).unwrap_or(false),
        })
    }
}
by_hand!(ConversationList, "an object with conversations");

/// `POST /conversations` body `{ conversation }`; also reads a bare [`Conversation`]
/// (`PATCH /conversations/:id` is bare, docs wrap it).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConversationEnvelope {
    /// The conversation, wrapped or not on the wire.
    pub conversation: Conversation,
}

impl<'de> Deserialize<'de> for ConversationEnvelope {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        Conversation::from_json(unwrap_key(&v, "conversation"))
            .map(|conversation| ConversationEnvelope { conversation })
            .ok_or_else(|| D::Error::custom("expected a conversation object with an id"))
    }
}

impl ConversationEnvelope {
    /// Parses a `POST /conversations` or `PATCH /conversations/:id` body (wrapped or bare) straight
    /// to the conversation.
    ///
    /// # Errors
    /// [`ProtocolError`] when the body is empty or holds no readable conversation.
    pub fn parse(endpoint: &str, body: &str) -> Result<Conversation, ProtocolError> {
        decode_body::<ConversationEnvelope>(endpoint, body).map(|e| e.conversation)
    }
}

/// `POST /files` body `{ file }`; also reads a bare [`FileRecord`] (`GET /files/:id` is bare, docs
/// wrap it).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FileEnvelope {
    /// The file record, wrapped or not on the wire.
    pub file: FileRecord,
}

impl<'de> Deserialize<'de> for FileEnvelope {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        FileRecord::from_json(unwrap_key(&v, "file"))
            .map(|file| FileEnvelope { file })
            .ok_or_else(|| D::Error::custom("expected a file object with an id"))
    }
}

/// `v[key]` when it is an object, else `v` itself.
fn unwrap_key<'a>(v: &'a Value, key: &str) -> &'a Value {
    match v.get(key) {
        Some(inner @ Value::Object(_)) => inner,
        _ => v,
    }
}

/// `GET /conversations/:id` body: the conversation, its messages and (extension) the open actions.
///
/// Also reads the docs variant with `messages` nested inside `conversation` and a bare
/// conversation object carrying `messages`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConversationWithMessages {
    /// The conversation.
    pub conversation: Conversation,
    /// Up to the first 100 messages, oldest first. Unreadable messages are dropped.
    pub messages: Vec<Message>,
    /// Top-level `pendingActions`. `None` when the key is absent or `null` — then the client
    /// falls back to the last assistant message's `metadata.pendingActions`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending_actions: Option<Vec<PendingAction>>,
}

impl<'de> Deserialize<'de> for ConversationWithMessages {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        ConversationWithMessages::from_value(&v).map_err(D::Error::custom)
    }
}

impl ConversationWithMessages {
    /// Reads a `GET /conversations/:id` body from its parsed JSON, borrowing it: a long
    /// conversation's tree is not copied first, as deserializing from a `&Value` would.
    ///
    /// # Errors
    /// When the body is not an object or its conversation is unreadable.
    pub fn from_value(v: &Value) -> Result<Self, String> {
        let Some(obj) = v.as_object() else {
            return Err("expected an object".to_owned());
        };
        let conv_v = unwrap_key(v, "conversation");
        let conversation = Conversation::from_json(conv_v)
            .ok_or_else(|| "expected a conversation object with an id".to_owned())?;
        let messages_v = obj
            .get("messages")
            .filter(|m| m.is_array())
            .or_else(|| conv_v.get("messages"));
        Ok(ConversationWithMessages {
            conversation,
            messages: list_of(messages_v, Message::from_json),
            pending_actions: pending_actions_of(obj.get("pendingActions")),
        })
    }
}

/// `Some(list)` for an array (bad entries dropped, unknown types kept), else `None`.
pub(super) fn pending_actions_of(v: Option<&Value>) -> Option<Vec<PendingAction>> {
    v.filter(|v| v.is_array())
        .map(|v| list_of(Some(v), PendingAction::from_json))
}

/// `GET /conversations/:id/messages` body: one page of messages.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MessagesPage {
    /// The messages in the requested order. Unreadable messages are dropped.
    pub messages: Vec<Message>,
    /// Total number of messages in the conversation.
    pub total: u64,
    /// Page size used.
    pub limit: u64,
    /// Offset used.
    pub offset: u64,
    /// Whether more messages follow.
    pub has_more: bool,
}

impl MessagesPage {
    /// Reads a `GET /conversations/:id/messages` body; `None` when it is not an object.
    #[must_use]
    pub fn from_json(v: &Value) -> Option<MessagesPage> {
        let obj = v.as_object()?;
        Some(MessagesPage {
            messages: list_of(obj.get("messages"), Message::from_json),
            total: obj.get("total").and_then(u64_of).unwrap_or(0),
            limit: obj.get("limit").and_then(u64_of).unwrap_or(0),
            offset: obj.get("offset").and_then(u64_of).unwrap_or(0),
            has_more: obj.get("hasMore").and_then(bool_of).unwrap_or(false),
        })
    }
}
by_hand!(MessagesPage, "an object with messages");
