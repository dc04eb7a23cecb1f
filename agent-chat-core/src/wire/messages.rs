//! Messages.

use super::*;

/// Who wrote a message.
///
/// An unknown role string is kept as [`Role::Other`] (never an error); a missing or
/// non-string role reads as `Other("")`. The UI decides how to draw those.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// The person using the chat.
    User,
    /// The agent.
    Assistant,
    /// System prompt or notice.
    System,
    /// A tool result (`toolCallId` names the call).
    Tool,
    /// Any other role, as sent.
    Other(String),
}

impl Default for Role {
    fn default() -> Self {
        Role::Other(String::new())
    }
}

impl Role {
    /// The wire spelling.
    #[must_use]
    pub fn as_str(&self) -> &str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::System => "system",
            Role::Tool => "tool",
            Role::Other(s) => s,
        }
    }

    /// Reads a role (ASCII case ignored); unknown strings become [`Role::Other`].
    #[must_use]
    pub fn parse(s: &str) -> Role {
        match s.trim().to_ascii_lowercase().as_str() {
            "user" => Role::User,
            "assistant" => Role::Assistant,
            "system" => Role::System,
            "tool" => Role::Tool,
            _ => Role::Other(s.to_owned()),
        }
    }
}

impl Serialize for Role {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Role {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Value::deserialize(d)?
            .as_str()
            .map(Role::parse)
            .unwrap_or_default())
    }
}

/// A message body: plain text or a list of parts.
///
/// `null`/absent reads as empty text; a single part object reads as a one-part list.
#[derive(Clone, Debug, PartialEq)]
pub enum MessageContent {
    /// Plain text.
    Text(String),
    /// Multi-part content.
    Parts(Vec<ContentPart>),
}

impl Default for MessageContent {
    fn default() -> Self {
        MessageContent::Text(String::new())
    }
}

impl From<String> for MessageContent {
    fn from(s: String) -> Self {
        MessageContent::Text(s)
    }
}

impl From<&str> for MessageContent {
    fn from(s: &str) -> Self {
        MessageContent::Text(s.to_owned())
    }
}

impl MessageContent {
    /// The text to display: the string itself, or the concatenated `text` parts.
    #[must_use]
    pub fn display_text(&self) -> Cow<'_, str> {
        match self {
            MessageContent::Text(s) => Cow::Borrowed(s),
            MessageContent::Parts(parts) => {
                let mut texts = parts.iter().filter_map(|p| match p {
                    ContentPart::Text { text } => Some(text.as_str()),
                    _ => None,
                });
                match (texts.next(), texts.next()) {
                    (None, _) => Cow::Borrowed(""),
                    (Some(one), None) => Cow::Borrowed(one),
                    (Some(a), Some(b)) => {
                        let mut s = String::from(a);
                        s.push_str(b);
                        texts.for_each(|t| s.push_str(t));
                        Cow::Owned(s)
                    }
                }
            }
        }
    }

    /// Whether there is nothing to display.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        match self {
            MessageContent::Text(s) => s.is_empty(),
            MessageContent::Parts(p) => p.is_empty(),
        }
    }

    /// Reads text, a part list or a single part; other scalars are written as text.
    #[must_use]
    pub fn from_json(v: &Value) -> MessageContent {
        match v {
            Value::String(s) => MessageContent::Text(s.clone()),
            Value::Array(a) => {
                MessageContent::Parts(a.iter().map(ContentPart::from_json).collect())
            }
            Value::Object(_) => MessageContent::Parts(vec![ContentPart::from_json(v)]),
            Value::Null => MessageContent::default(),
            Value::Bool(_) | Value::Number(_) => MessageContent::Text(v.to_string()),
        }
    }
}

impl Serialize for MessageContent {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            MessageContent::Text(t) => s.serialize_str(t),
            MessageContent::Parts(p) => p.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for MessageContent {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(MessageContent::from_json(&Value::deserialize(d)?))
    }
}

/// One part of multi-part content.
#[derive(Clone, Debug, PartialEq)]
pub enum ContentPart {
    /// `{ type: "text", text }`.
    Text {
        /// The text.
        text: String,
    },
    /// `{ type: "image_url", image_url: { url, detail? } }` (a bare URL string is also read).
    ImageUrl {
        /// Image address (may be a `data:` URL).
        url: String,
        /// Resolution hint, as sent.
        detail: Option<String>,
    },
    /// `{ type: "file", file: { id, name, mimeType, url? } }`.
    File {
        /// File id.
        id: Option<String>,
        /// File name.
        name: Option<String>,
        /// MIME type.
        mime_type: Option<String>,
        /// Download address.
        url: Option<String>,
    },
    /// Any other part (or a known type with an unusable shape), kept as sent.
    Other(Value),
}

impl ContentPart {
    /// Reads a part; anything unrecognised becomes [`ContentPart::Other`].
    #[must_use]
    pub fn from_json(v: &Value) -> ContentPart {
        let Some(obj) = v.as_object() else {
            return match v {
                Value::String(s) => ContentPart::Text { text: s.clone() },
                _ => ContentPart::Other(v.clone()),
            };
        };
        let ty = obj.get("type").and_then(Value::as_str).map(normalise_tag);
        match ty.as_deref() {
            Some("text") => match obj.get("text").and_then(Value::as_str) {
                Some(t) => ContentPart::Text { text: t.to_owned() },
                None => ContentPart::Other(v.clone()),
            },
            Some("image_url") => {
                let img = obj.get("image_url").or_else(|| obj.get("imageUrl"));
                let (url, detail) = match img {
                    Some(Value::String(u)) => (Some(u.clone()), None),
                    Some(Value::Object(o)) => (
                        o.get("url").and_then(str_of),
                        o.get("detail").and_then(str_of),
                    ),
                    _ => (None, None),
                };
                match url {
                    Some(url) => ContentPart::ImageUrl { url, detail },
                    None => ContentPart::Other(v.clone()),
                }
            }
            Some("file") => match obj.get("file").and_then(Value::as_object) {
                Some(f) => ContentPart::File {
                    id: f.get("id").and_then(id_of),
                    name: f.get("name").and_then(str_of),
                    mime_type: field(f, &["mimeType", "mime_type"]).and_then(str_of),
                    url: f.get("url").and_then(str_of),
                },
                None => ContentPart::Other(v.clone()),
            },
            _ => ContentPart::Other(v.clone()),
        }
    }

    /// The canonical JSON form.
    #[must_use]
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        match self {
            ContentPart::Text { text } => {
                m.insert("type".into(), "text".into());
                m.insert("text".into(), text.clone().into());
            }
            ContentPart::ImageUrl { url, detail } => {
                let mut img = Map::new();
                img.insert("url".into(), url.clone().into());
                if let Some(d) = detail {
                    img.insert("detail".into(), d.clone().into());
                }
                m.insert("type".into(), "image_url".into());
                m.insert("image_url".into(), Value::Object(img));
            }
            ContentPart::File {
                id,
                name,
                mime_type,
                url,
            } => {
                let mut f = Map::new();
                insert_opt_str(&mut f, "id", id.as_deref());
                insert_opt_str(&mut f, "name", name.as_deref());
                insert_opt_str(&mut f, "mimeType", mime_type.as_deref());
                insert_opt_str(&mut f, "url", url.as_deref());
                m.insert("type".into(), "file".into());
                m.insert("file".into(), Value::Object(f));
            }
            ContentPart::Other(v) => return v.clone(),
        }
        Value::Object(m)
    }
}

impl Serialize for ContentPart {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

impl<'de> Deserialize<'de> for ContentPart {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(ContentPart::from_json(&Value::deserialize(d)?))
    }
}

/// Inserts `key: value` when `value` is `Some`.
pub(super) fn insert_opt_str(m: &mut Map<String, Value>, key: &str, value: Option<&str>) {
    if let Some(v) = value {
        m.insert(key.to_owned(), Value::String(v.to_owned()));
    }
}

/// A stored OpenAI-style tool call (`toolCalls[]`). `arguments` is a JSON **string**.
///
/// Also reads the nested OpenAI form `{ id, type: "function", function: { name, arguments } }`
/// and an `arguments` object (which is written back as a string).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ToolCallRecord {
    /// Call id (`call_…`); empty if the server omitted it.
    pub id: String,
    /// Tool name.
    pub name: String,
    /// Arguments as a JSON string.
    pub arguments: String,
}

impl ToolCallRecord {
    /// The arguments parsed as JSON; a non-JSON string is returned as a string value and an
    /// empty one as `{}`.
    #[must_use]
    pub fn arguments_value(&self) -> Value {
        args_value(Some(&Value::String(self.arguments.clone())))
    }
}

by_hand!(ToolCallRecord, "tool call must be an object");

impl ToolCallRecord {
    /// Reads one OpenAI-style tool call (flat or with a `function` object); `None` for a
    /// non-object.
    #[must_use]
    pub fn from_json(v: &Value) -> Option<ToolCallRecord> {
        let obj = v.as_object()?;
        let func = obj.get("function").and_then(Value::as_object);
        let pick = |k: &str| obj.get(k).or_else(|| func.and_then(|f| f.get(k)));
        let arguments = match pick("arguments") {
            Some(Value::String(s)) => s.clone(),
            None | Some(Value::Null) => "{}".to_owned(),
            Some(other) => other.to_string(),
        };
        Some(ToolCallRecord {
            id: obj.get("id").and_then(id_of).unwrap_or_default(),
            name: pick("name").and_then(str_of).unwrap_or_default(),
            arguments,
        })
    }
}

/// A file attached to a message (`files[]`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileAttachment {
    /// File id (`file_…`).
    pub id: String,
    /// File name.
    pub name: String,
    /// MIME type.
    pub mime_type: String,
    /// Size in bytes.
    pub size: u64,
    /// Download address.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Storage key on the server.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub storage_key: Option<String>,
}

impl FileAttachment {
    /// Reads one entry of `files[]`: any object (fields of the wrong type count as absent).
    #[must_use]
    pub fn from_json(v: &Value) -> Option<FileAttachment> {
        let obj = v.as_object()?;
        Some(FileAttachment {
            id: string_or_empty(obj.get("id")),
            name: string_or_empty(obj.get("name")),
            mime_type: string_or_empty(obj.get("mimeType")),
            size: obj.get("size").and_then(u64_of).unwrap_or(0),
            url: obj.get("url").and_then(str_of),
            storage_key: obj.get("storageKey").and_then(str_of),
        })
    }
}
by_hand!(FileAttachment, "a file object");

/// A source reference shown under a message (client-side type).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Citation {
    /// Citation id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Image address.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    /// Short description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Link target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
}

impl Citation {
    /// Reads one source: any object (fields of the wrong type count as absent).
    #[must_use]
    pub fn from_json(v: &Value) -> Option<Citation> {
        let obj = v.as_object()?;
        Some(Citation {
            id: obj.get("id").and_then(id_of),
            title: obj.get("title").and_then(str_of),
            image: obj.get("image").and_then(str_of),
            description: obj.get("description").and_then(str_of),
            link: obj.get("link").and_then(str_of),
        })
    }
}
by_hand!(Citation, "a citation object");

/// Token counts of a turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Usage {
    /// Prompt tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u64>,
    /// Completion tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<u64>,
    /// Sum of both.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_tokens: Option<u64>,
}

impl Usage {
    /// Reads token counts: any object (counts that are not non-negative numbers are absent).
    #[must_use]
    pub fn from_json(v: &Value) -> Option<Usage> {
        let obj = v.as_object()?;
        Some(Usage {
            input_tokens: obj.get("inputTokens").and_then(u64_of),
            output_tokens: obj.get("outputTokens").and_then(u64_of),
            total_tokens: obj.get("totalTokens").and_then(u64_of),
        })
    }
}
by_hand!(Usage, "a usage object");

/// A stored upload (`POST /files`, `GET /files/:id`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileRecord {
    /// File id (`file_…`).
    pub id: String,
    /// File name.
    pub name: String,
    /// MIME type.
    pub mime_type: String,
    /// Size in bytes.
    pub size: u64,
    /// Storage key on the server.
    pub storage_key: String,
    /// Conversation it was uploaded for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conversation_id: Option<String>,
    /// Message it belongs to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    /// Free-form metadata.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
    /// Upload time.
    #[serde(
        serialize_with = "crate::time::opt_iso::serialize",
        skip_serializing_if = "Option::is_none"
    )]
    pub created_at: Option<Millis>,
}

impl FileRecord {
    /// Reads a stored upload: an object with an id; every other field is optional and a value
    /// of the wrong type counts as absent. `None` otherwise.
    #[must_use]
    pub fn from_json(v: &Value) -> Option<FileRecord> {
        let obj = v.as_object()?;
        Some(FileRecord {
            id: obj.get("id").and_then(id_of)?,
            name: string_or_empty(obj.get("name")),
            mime_type: string_or_empty(obj.get("mimeType")),
            size: obj.get("size").and_then(u64_of).unwrap_or(0),
            storage_key: string_or_empty(obj.get("storageKey")),
            conversation_id: obj.get("conversationId").and_then(id_of),
            message_id: obj.get("messageId").and_then(id_of),
            metadata: obj.get("metadata").and_then(Value::as_object).cloned(),
            created_at: obj.get("createdAt").and_then(parse_timestamp),
        })
    }
}
by_hand!(FileRecord, "a file object with an id");

/// One step of the tool-call UI, from `metadata.toolCallDetails`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ToolCallDetail {
    /// Call id (empty if unknown).
    pub id: String,
    /// Tool name.
    pub name: String,
    /// Arguments (a JSON-string form is parsed; absent → `{}`).
    pub args: Value,
    /// Result, when the tool finished.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    /// Why the agent called it, when the server said (the label shown first).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<String>,
    /// A friendly label for the call, when the server gave one.
    #[serde(rename = "displayName", skip_serializing_if = "Option::is_none")]
    pub display_name: Option<String>,
}

impl ToolCallDetail {
    /// Reads one entry; non-objects give `None`.
    #[must_use]
    pub fn from_json(v: &Value) -> Option<ToolCallDetail> {
        let obj = v.as_object()?;
        Some(ToolCallDetail {
            id: field(obj, &["id", "toolCallId"])
                .and_then(id_of)
                .unwrap_or_default(),
            name: field(obj, &["name", "toolName"])
                .and_then(str_of)
                .unwrap_or_default(),
            args: args_value(field(obj, &["args", "arguments"])),
            result: field(obj, &["result"]).cloned(),
            reasoning: field(obj, &["reasoning"])
                .and_then(str_of)
                .filter(|s| !s.trim().is_empty()),
            display_name: field(obj, &["displayName", "display_name"])
                .and_then(str_of)
                .filter(|s| !s.trim().is_empty()),
        })
    }
}

/// A settled-action record (`actionStates[actionId]`): the client's own record of how an
/// action ended, also accepted from the server and from `metadata.actionStates`.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionStateEntry {
    /// `resolved` | `cancelled` | `expired`; transient `pending`/`sending` read as
    /// [`ActionStatus::Pending`]. Missing or unknown reads as [`ActionStatus::Resolved`]:
    /// a record exists only for settled actions.
    pub status: ActionStatus,
    /// How it was resolved, when known.
    pub resolution: Option<Resolution>,
    /// Who settled it (`system:timeout` = expired on the server).
    pub resolved_by: Option<String>,
}

impl ActionStateEntry {
    /// Reads one record; non-objects give `None`.
    #[must_use]
    pub fn from_json(v: &Value) -> Option<ActionStateEntry> {
        let obj = v.as_object()?;
        Some(ActionStateEntry {
            status: obj
                .get("status")
                .and_then(Value::as_str)
                .and_then(ActionStatus::parse)
                .unwrap_or(ActionStatus::Resolved),
            resolution: obj
                .get("resolution")
                .and_then(|r| Resolution::from_json(r, None)),
            resolved_by: obj.get("resolvedBy").and_then(str_of),
        })
    }

    /// The canonical JSON form.
    #[must_use]
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("status".into(), self.status.as_str().into());
        if let Some(r) = &self.resolution {
            m.insert("resolution".into(), r.to_json());
        }
        insert_opt_str(&mut m, "resolvedBy", self.resolved_by.as_deref());
        Value::Object(m)
    }
}

impl Serialize for ActionStateEntry {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

impl<'de> Deserialize<'de> for ActionStateEntry {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        ActionStateEntry::from_json(&Value::deserialize(d)?)
            .ok_or_else(|| D::Error::custom("action state must be an object"))
    }
}

/// Reads an `actionStates` object, dropping unreadable entries.
fn action_states_of(v: Option<&Value>) -> BTreeMap<String, ActionStateEntry> {
    map_of(v, ActionStateEntry::from_json)
}

/// A stored (or locally built) chat message.
#[derive(Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Message {
    /// Server id (`msg_…`) or a client optimistic id.
    pub id: String,
    /// Conversation it belongs to (empty for a local message before the conversation exists).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub conversation_id: String,
    /// Author role.
    pub role: Role,
    /// Body.
    pub content: MessageContent,
    /// OpenAI-style tool calls (unreadable entries dropped).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCallRecord>,
    /// For `role: "tool"`: the call this answers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// For `role: "tool"`: the tool name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Attached files.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<FileAttachment>,
    /// Sources.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub citations: Vec<Citation>,
    /// Free-form metadata (`toolCallDetails`, `pendingActions`, `actionStates`, …).
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub metadata: Map<String, Value>,
    /// The client's settled-action records keyed by action id.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub action_states: BTreeMap<String, ActionStateEntry>,
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
    /// Local only, never on the wire: this message's turn broke off (its stream failed and the
    /// look at the conversation after it failed too), so it is kept as the page knew it and
    /// drawn as interrupted, with Retry, until a load shows the server's copy.
    #[serde(skip)]
    pub interrupted: bool,
}

// Cloned by hand, not derived: a derived `clone` is `#[inline]`, so the UI crate compiled its
// own copy beside this crate's and the element's first download carried both (D104). This
// one is compiled here only; a new field fails to compile until it is added below.
impl Clone for Message {
    fn clone(&self) -> Self {
        Message {
            id: self.id.clone(),
            conversation_id: self.conversation_id.clone(),
            role: self.role.clone(),
            content: self.content.clone(),
            tool_calls: self.tool_calls.clone(),
            tool_call_id: self.tool_call_id.clone(),
            name: self.name.clone(),
            files: self.files.clone(),
            citations: self.citations.clone(),
            metadata: self.metadata.clone(),
            action_states: self.action_states.clone(),
            created_at: self.created_at,
            updated_at: self.updated_at,
            interrupted: self.interrupted,
        }
    }
}
by_hand!(Message, "a message object with an id");

impl Message {
    /// Reads a message: an object with an id; every other field is optional, a value of the
    /// wrong type counts as absent and unreadable list entries are dropped. `None` otherwise.
    #[must_use]
    pub fn from_json(v: &Value) -> Option<Message> {
        let obj = v.as_object()?;
        Some(Message {
            id: obj.get("id").and_then(id_of)?,
            conversation_id: string_or_empty(obj.get("conversationId")),
            role: obj
                .get("role")
                .and_then(Value::as_str)
                .map(Role::parse)
                .unwrap_or_default(),
            content: obj
                .get("content")
                .map(MessageContent::from_json)
                .unwrap_or_default(),
            tool_calls: list_of(obj.get("toolCalls"), ToolCallRecord::from_json),
            tool_call_id: obj.get("toolCallId").and_then(id_of),
            name: obj.get("name").and_then(str_of),
            files: list_of(obj.get("files"), FileAttachment::from_json),
            citations: list_of(obj.get("citations"), Citation::from_json),
            metadata: object_or_empty(obj.get("metadata")),
            action_states: action_states_of(obj.get("actionStates")),
            created_at: obj.get("createdAt").and_then(parse_timestamp),
            updated_at: obj.get("updatedAt").and_then(parse_timestamp),
            interrupted: false,
        })
    }

    /// The text to display (see [`MessageContent::display_text`]).
    #[must_use]
    pub fn display_text(&self) -> Cow<'_, str> {
        self.content.display_text()
    }

    /// `metadata.toolCallDetails`, tolerant: a non-list gives an empty list and non-object
    /// entries are skipped.
    #[must_use]
    pub fn tool_call_details(&self) -> Vec<ToolCallDetail> {
        list_of(
            self.metadata.get("toolCallDetails"),
            ToolCallDetail::from_json,
        )
    }

    /// `metadata.toolCallDurationSeconds`, rounded to whole seconds; `None` when absent,
    /// negative or not a number.
    #[must_use]
    pub fn tool_call_duration_seconds(&self) -> Option<u64> {
        let f = self
            .metadata
            .get("toolCallDurationSeconds")
            .and_then(f64_of)?;
        (f >= 0.0 && f < u64::MAX as f64).then(|| f.round() as u64)
    }

    /// Writes `metadata.toolCallDetails` and, when given, `metadata.toolCallDurationSeconds`
    /// the way the 0.1.1 client does on `stream.done`.
    pub fn set_tool_call_details(
        &mut self,
        details: &[ToolCallDetail],
        duration_seconds: Option<u64>,
    ) {
        let list = details
            .iter()
            .map(|d| serde_json::to_value(d).unwrap_or(Value::Null))
            .collect();
        self.metadata
            .insert("toolCallDetails".into(), Value::Array(list));
        if let Some(s) = duration_seconds {
            self.metadata
                .insert("toolCallDurationSeconds".into(), Value::from(s));
        }
    }

    /// `metadata.pendingActions` (open and settled entries): unreadable entries dropped,
    /// unknown types kept as [`ActionKind::Unknown`].
    #[must_use]
    pub fn metadata_pending_actions(&self) -> Vec<PendingAction> {
        list_of(
            self.metadata.get("pendingActions"),
            PendingAction::from_json,
        )
    }

    /// `metadata.actionStates`, unreadable entries dropped.
    #[must_use]
    pub fn metadata_action_states(&self) -> BTreeMap<String, ActionStateEntry> {
        action_states_of(self.metadata.get("actionStates"))
    }
}
