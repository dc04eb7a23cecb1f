//! Serde types for every JSON shape of the wire contract (PROTOCOL §2–§11).
//!
//! Reading is deliberately forgiving: unknown fields are ignored, `null` stands for "absent"
//! in every optional field, values of the wrong type in optional fields are treated as absent,
//! and bad entries inside a list are dropped (or, for pending actions of an unknown type, kept
//! as [`ActionKind::Unknown`]) instead of failing the whole response. A conversation must
//! still load when one action in it is odd. Writing always uses the canonical camelCase form
//! the reference server speaks.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use super::error::{excerpt, DecodeError, ProtocolError};
use super::time::{format_iso, parse_timestamp, Millis};

// ---------------------------------------------------------------------------------------------
// Value helpers shared by the hand-written readers
// ---------------------------------------------------------------------------------------------

/// An id: a non-empty string, or a number written in decimal.
fn id_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A string value (empty allowed).
fn str_of(v: &Value) -> Option<String> {
    v.as_str().map(str::to_owned)
}

/// A boolean value.
fn bool_of(v: &Value) -> Option<bool> {
    v.as_bool()
}

/// A non-negative whole number; finite non-negative floats are rounded down.
fn u64_of(v: &Value) -> Option<u64> {
    let n = v.as_number()?;
    if let Some(u) = n.as_u64() {
        return Some(u);
    }
    let f = n.as_f64()?;
    (f.is_finite() && f >= 0.0 && f < u64::MAX as f64).then_some(f as u64)
}

/// A whole number, also from an integral float or a decimal string.
fn i64_of(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => n.as_i64().or_else(|| {
            let f = n.as_f64()?;
            (f.is_finite() && f.fract() == 0.0 && f.abs() < i64::MAX as f64).then_some(f as i64)
        }),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// A finite number.
fn f64_of(v: &Value) -> Option<f64> {
    v.as_f64().filter(|f| f.is_finite())
}

/// A string, or a number written in decimal; anything else (or absent) is `""`.
fn string_or_empty(v: Option<&Value>) -> String {
    v.and_then(|v| str_of(v).or_else(|| id_of(v)))
        .unwrap_or_default()
}

/// An object's entries; anything else (or absent) is empty.
fn object_or_empty(v: Option<&Value>) -> Map<String, Value> {
    v.and_then(Value::as_object).cloned().unwrap_or_default()
}

/// `Deserialize` for a type with a hand-written `from_json(&Value) -> Option<Self>` (D50):
/// the input is read into a [`Value`] and handed to the reader, so the type costs one small
/// function instead of serde's derived visitor, field enum and (for `flatten`) buffering
/// (13 types: -17 KB gzip of wasm). `$expected` is the error when the reader refuses the value.
macro_rules! by_hand {
    ($ty:ident, $expected:literal) => {
        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                $ty::from_json(&Value::deserialize(d)?).ok_or_else(|| D::Error::custom($expected))
            }
        }
    };
}

/// The first of `keys` present in `obj` with a non-`null` value.
fn field<'a>(obj: &'a Map<String, Value>, keys: &[&str]) -> Option<&'a Value> {
    keys.iter()
        .find_map(|k| obj.get(*k).filter(|v| !v.is_null()))
}

/// Arguments that may arrive as an object or as a JSON string (`arguments` in the OpenAI and
/// docs forms). A string that is not JSON is kept as a string; `null`/absent gives `{}`.
fn args_value(v: Option<&Value>) -> Value {
    match v {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(Value::String(s)) => {
            if s.trim().is_empty() {
                Value::Object(Map::new())
            } else {
                serde_json::from_str(s).unwrap_or_else(|_| Value::String(s.clone()))
            }
        }
        Some(other) => other.clone(),
    }
}

/// Lower-cases a type tag and spells it with underscores (`Tool-Approval` → `tool_approval`).
fn normalise_tag(s: &str) -> String {
    s.trim().to_ascii_lowercase().replace(['-', ' '], "_")
}

/// Parses every element of an array with `parse`, dropping the ones it refuses.
/// A non-array gives an empty list.
fn list_of<T>(v: Option<&Value>, parse: impl Fn(&Value) -> Option<T>) -> Vec<T> {
    v.and_then(Value::as_array)
        .map(|a| a.iter().filter_map(parse).collect())
        .unwrap_or_default()
}

/// Deserialises `T` from a borrowed value, `None` on failure.
fn from_json<T: DeserializeOwned>(v: &Value) -> Option<T> {
    T::deserialize(v).ok()
}

/// `deserialize_with` adapters that never fail on a wrong-typed optional field.
mod lenient {
    use serde::de::DeserializeOwned;
    use serde::{Deserialize, Deserializer};
    use serde_json::{Map, Value};

    use super::{bool_of, from_json, id_of, str_of};

    /// Optional id-like string (number accepted).
    pub(super) fn opt_id<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
        Ok(id_of(&Value::deserialize(d)?))
    }

    /// A string or numeric id; anything else becomes `""`.
    pub(super) fn string<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
        let v = Value::deserialize(d)?;
        Ok(str_of(&v).or_else(|| id_of(&v)).unwrap_or_default())
    }

    /// Optional string; non-strings become `None`.
    pub(super) fn opt_string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
        Ok(str_of(&Value::deserialize(d)?))
    }

    /// Boolean defaulting to `false`.
    pub(super) fn bool_or_false<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
        Ok(bool_of(&Value::deserialize(d)?).unwrap_or(false))
    }

    /// Object defaulting to empty.
    pub(super) fn map<'de, D: Deserializer<'de>>(d: D) -> Result<Map<String, Value>, D::Error> {
        Ok(match Value::deserialize(d)? {
            Value::Object(m) => m,
            _ => Map::new(),
        })
    }

    /// Optional object.
    pub(super) fn opt_map<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Map<String, Value>>, D::Error> {
        Ok(match Value::deserialize(d)? {
            Value::Object(m) => Some(m),
            _ => None,
        })
    }

    /// A list whose unreadable elements are dropped; a non-list is empty.
    pub(super) fn list<'de, D: Deserializer<'de>, T: DeserializeOwned>(
        d: D,
    ) -> Result<Vec<T>, D::Error> {
        Ok(match Value::deserialize(d)? {
            Value::Array(a) => a.iter().filter_map(from_json).collect(),
            _ => Vec::new(),
        })
    }
}

/// Parses a response body of `endpoint` into `T`.
///
/// An empty (or all-whitespace) body is [`ProtocolError::EmptyBody`]; use
/// [`decode_optional_body`] where 204 / empty means "success, no value" (C23).
///
/// # Errors
/// [`ProtocolError`] when the body is empty or not JSON of the expected shape.
pub fn decode_body<T: DeserializeOwned>(endpoint: &str, body: &str) -> Result<T, ProtocolError> {
    if body.trim().is_empty() {
        return Err(ProtocolError::EmptyBody {
            endpoint: endpoint.to_owned(),
        });
    }
    json_text(body).map_err(|e| ProtocolError::bad_body(endpoint, &e))
}

/// Parses JSON text into `T` through a [`Value`]. Every wire type is then deserialised from
/// `&Value` only, the same path the SSE events take, instead of from `&str` as well: serde
/// instantiates each type's visitor once per input kind (D38; measured: a few KB of gzip).
///
/// # Errors
/// The text is not JSON, or not of `T`'s shape.
pub fn json_text<T: DeserializeOwned>(text: &str) -> Result<T, serde_json::Error> {
    let value: Value = super::lenient::parse(text)?;
    T::deserialize(&value)
}

/// Like [`decode_body`], but an empty body is `Ok(None)` (C23: 204 or empty 2xx = success).
///
/// # Errors
/// [`ProtocolError::BadBody`] when a non-empty body is not JSON of the expected shape.
pub fn decode_optional_body<T: DeserializeOwned>(
    endpoint: &str,
    body: &str,
) -> Result<Option<T>, ProtocolError> {
    if body.trim().is_empty() {
        return Ok(None);
    }
    json_text(body)
        .map(Some)
        .map_err(|e| ProtocolError::bad_body(endpoint, &e))
}

// ---------------------------------------------------------------------------------------------
// Agents (§4, E1/E2)
// ---------------------------------------------------------------------------------------------

/// One agent the server offers (E1 list entry, E2 body).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AgentInfo {
    /// Agent id, used as `agentId` in requests.
    pub id: String,
    /// Display name; may be empty on odd servers, see [`AgentInfo::display_name`].
    pub name: String,
    /// One-line description for the agent picker.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Free-form version string.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Free-form settings; the keys the client reads have typed getters.
    #[serde(skip_serializing_if = "AgentMetadata::is_empty")]
    pub metadata: AgentMetadata,
    /// Feature flags (0.4.0, C16).
    #[serde(skip_serializing_if = "AgentCapabilities::is_empty")]
    pub capabilities: AgentCapabilities,
}

impl AgentInfo {
    /// Reads one agent: an object with an id; every other field is optional and a value of
    /// the wrong type counts as absent. `None` otherwise.
    #[must_use]
    pub fn from_json(v: &Value) -> Option<AgentInfo> {
        let obj = v.as_object()?;
        Some(AgentInfo {
            id: obj.get("id").and_then(id_of)?,
            name: string_or_empty(obj.get("name")),
            description: obj.get("description").and_then(str_of),
            version: obj.get("version").and_then(str_of),
            metadata: AgentMetadata {
                raw: object_or_empty(obj.get("metadata")),
            },
            capabilities: AgentCapabilities::from_raw(object_or_empty(obj.get("capabilities"))),
        })
    }
}
by_hand!(AgentInfo, "an agent object with an id");

impl AgentInfo {
    /// The name to show: `name`, or the id when the name is empty.
    #[must_use]
    pub fn display_name(&self) -> &str {
        if self.name.is_empty() {
            &self.id
        } else {
            &self.name
        }
    }
}

/// How the composer behaves while a person-facing action is open (§9.8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ComposerMode {
    /// Sending is blocked until the action is settled (server policy `block`, the default).
    #[default]
    Block,
    /// Sending cancels the open actions (server policy `cancel`).
    Cancel,
}

impl ComposerMode {
    /// The wire spelling: `block` or `cancel`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            ComposerMode::Block => "block",
            ComposerMode::Cancel => "cancel",
        }
    }

    /// Reads `block` / `cancel` (ASCII case and surrounding spaces ignored); else `None`.
    #[must_use]
    pub fn parse(s: &str) -> Option<ComposerMode> {
        let s = s.trim();
        if s.eq_ignore_ascii_case("block") {
            Some(ComposerMode::Block)
        } else if s.eq_ignore_ascii_case("cancel") {
            Some(ComposerMode::Cancel)
        } else {
            None
        }
    }
}

/// An agent's free-form `metadata`, kept whole, with typed getters for the keys the client
/// reads (§4, C16). A getter returns `None` whenever the value is unusable, so the prop applies.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AgentMetadata {
    /// Every key as sent.
    pub raw: Map<String, Value>,
}

impl AgentMetadata {
    /// Whether no keys were sent.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.raw.is_empty()
    }

    /// Any key, as sent.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.raw.get(key)
    }

    /// `enableFileUpload` when it is a boolean.
    #[must_use]
    pub fn enable_file_upload(&self) -> Option<bool> {
        self.raw.get("enableFileUpload").and_then(bool_of)
    }

    /// `pendingActionComposerMode` when it is `"block"` or `"cancel"` (case-insensitive).
    #[must_use]
    pub fn pending_action_composer_mode(&self) -> Option<ComposerMode> {
        self.raw
            .get("pendingActionComposerMode")
            .and_then(Value::as_str)
            .and_then(ComposerMode::parse)
    }

    /// `allowedFileTypes`: the string entries of a list (a comma-separated string is also
    /// read). `None` when absent or not a list/string.
    #[must_use]
    pub fn allowed_file_types(&self) -> Option<Vec<String>> {
        match self.raw.get("allowedFileTypes")? {
            Value::Array(a) => Some(
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect(),
            ),
            Value::String(s) => Some(
                s.split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect(),
            ),
            _ => None,
        }
    }

    /// `maxFileSize` in bytes when it is a non-negative number.
    #[must_use]
    pub fn max_file_size(&self) -> Option<u64> {
        self.raw.get("maxFileSize").and_then(u64_of)
    }

    /// `maxFiles` when it is a non-negative number (capped at `u32::MAX`).
    #[must_use]
    pub fn max_files(&self) -> Option<u32> {
        self.raw
            .get("maxFiles")
            .and_then(u64_of)
            .map(|n| u32::try_from(n).unwrap_or(u32::MAX))
    }
}

impl Serialize for AgentMetadata {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.raw.serialize(s)
    }
}

impl<'de> Deserialize<'de> for AgentMetadata {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(AgentMetadata {
            raw: lenient::map(d)?,
        })
    }
}

/// An agent's `capabilities` (0.4.0, §4). Unusable values are ignored, never an error.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AgentCapabilities {
    /// `approvalArgsEdit` when it is a boolean; `None` lets the `allowArgumentEdit` prop apply.
    pub approval_args_edit: Option<bool>,
    /// `approvalRemember` when it is a boolean: `false` hides "don't ask again" on approval
    /// cards (a backend that cannot remember a tool for the chat, PROTOCOL §11.1).
    pub approval_remember: Option<bool>,
    /// Every key as sent.
    pub raw: Map<String, Value>,
}

impl AgentCapabilities {
    /// Whether no keys were sent.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.raw.is_empty()
    }
}

impl Serialize for AgentCapabilities {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut raw = self.raw.clone();
        if let Some(b) = self.approval_args_edit {
            raw.insert("approvalArgsEdit".into(), Value::Bool(b));
        }
        if let Some(b) = self.approval_remember {
            raw.insert("approvalRemember".into(), Value::Bool(b));
        }
        raw.serialize(s)
    }
}

impl AgentCapabilities {
    /// The capabilities of a `capabilities` object, every key kept.
    #[must_use]
    pub fn from_raw(raw: Map<String, Value>) -> AgentCapabilities {
        AgentCapabilities {
            approval_args_edit: raw.get("approvalArgsEdit").and_then(bool_of),
            approval_remember: raw.get("approvalRemember").and_then(bool_of),
            raw,
        }
    }
}

impl<'de> Deserialize<'de> for AgentCapabilities {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(AgentCapabilities::from_raw(lenient::map(d)?))
    }
}

/// E1 body: `{ agents }`. Unreadable entries are dropped.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct AgentList {
    /// The agents, in server order.
    pub agents: Vec<AgentInfo>,
}

impl AgentList {
    /// Reads an E1 body; `None` when it is not an object.
    #[must_use]
    pub fn from_json(v: &Value) -> Option<AgentList> {
        let obj = v.as_object()?;
        Some(AgentList {
            agents: list_of(obj.get("agents"), AgentInfo::from_json),
        })
    }
}
by_hand!(AgentList, "an object with agents");

// ---------------------------------------------------------------------------------------------
// Conversations (§4, E3–E6)
// ---------------------------------------------------------------------------------------------

/// A stored conversation (E4, E5, E6 bodies).
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
        serialize_with = "super::time::opt_iso::serialize",
        skip_serializing_if = "Option::is_none"
    )]
    pub created_at: Option<Millis>,
    /// Last update time.
    #[serde(
        serialize_with = "super::time::opt_iso::serialize",
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

/// One row of the history list (E3): a [`Conversation`] plus the agent's name.
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

/// E3 body: one page of the history list.
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
    /// Reads an E3 body; `None` when it is not an object.
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

/// E4 body `{ conversation }`; also reads a bare [`Conversation`] (E6 is bare, docs wrap it; C23, X5).
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
    /// Parses an E4/E6 body (wrapped or bare) straight to the conversation.
    ///
    /// # Errors
    /// [`ProtocolError`] when the body is empty or holds no readable conversation.
    pub fn parse(endpoint: &str, body: &str) -> Result<Conversation, ProtocolError> {
        decode_body::<ConversationEnvelope>(endpoint, body).map(|e| e.conversation)
    }
}

/// E10 body `{ file }`; also reads a bare [`FileRecord`] (E11 is bare; C23, X5).
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

/// E5 body: the conversation, its messages and (extension, §9.6) the open actions.
///
/// Also reads the docs variant with `messages` nested inside `conversation` (X6) and a bare
/// conversation object carrying `messages`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConversationWithMessages {
    /// The conversation.
    pub conversation: Conversation,
    /// Up to the first 100 messages, oldest first. Unreadable messages are dropped.
    pub messages: Vec<Message>,
    /// Top-level `pendingActions`. `None` when the key is absent or `null` — then the client
    /// falls back to the last assistant message's `metadata.pendingActions` (§9.6 step 1).
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
    /// Reads an E5 body from its parsed JSON, borrowing it: a long conversation's tree is not
    /// copied first, as deserializing from a `&Value` would (issue 18).
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
fn pending_actions_of(v: Option<&Value>) -> Option<Vec<PendingAction>> {
    v.filter(|v| v.is_array())
        .map(|v| list_of(Some(v), PendingAction::from_json))
}

/// E8 body: one page of messages.
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
    /// Reads an E8 body; `None` when it is not an object.
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

// ---------------------------------------------------------------------------------------------
// Messages (§4, §7)
// ---------------------------------------------------------------------------------------------

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

/// A message body: plain text or a list of parts (§4).
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

/// One part of multi-part content (§4).
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
fn insert_opt_str(m: &mut Map<String, Value>, key: &str, value: Option<&str>) {
    if let Some(v) = value {
        m.insert(key.to_owned(), Value::String(v.to_owned()));
    }
}

/// A stored OpenAI-style tool call (`toolCalls[]`, §7). `arguments` is a JSON **string**.
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

/// A file attached to a message (`files[]`, §4).
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

/// A source reference shown under a message (§4, client-side type).
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

/// Token counts of a turn (§4).
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

/// A stored upload (E10/E11, §4).
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
        serialize_with = "super::time::opt_iso::serialize",
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

/// One step of the tool-call UI, from `metadata.toolCallDetails` (§7).
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
    /// Why the agent called it, when the server said (F116: the label shown first).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<String>,
    /// A friendly label for the call, when the server gave one (F116).
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

/// A settled-action record (`actionStates[actionId]`, §9.6): the client's own record of how an
/// action ended, also accepted from the server and from `metadata.actionStates`.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionStateEntry {
    /// `resolved` | `cancelled` | `expired` (C12); transient `pending`/`sending` read as
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
    v.and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| ActionStateEntry::from_json(v).map(|e| (k.clone(), e)))
                .collect()
        })
        .unwrap_or_default()
}

/// A stored (or locally built) chat message (§4).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
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
    /// The client's settled-action records keyed by action id (§9.6 step 2.1).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub action_states: BTreeMap<String, ActionStateEntry>,
    /// Creation time.
    #[serde(
        serialize_with = "super::time::opt_iso::serialize",
        skip_serializing_if = "Option::is_none"
    )]
    pub created_at: Option<Millis>,
    /// Last update time.
    #[serde(
        serialize_with = "super::time::opt_iso::serialize",
        skip_serializing_if = "Option::is_none"
    )]
    pub updated_at: Option<Millis>,
    /// Local only, never on the wire: this message's turn broke off (its stream failed and the
    /// look at the conversation after it failed too), so it is kept as the page knew it and
    /// drawn as interrupted, with Retry, until a load shows the server's copy (issue 13).
    #[serde(skip)]
    pub interrupted: bool,
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
    /// the way the 0.1.1 client does on `stream.done` (§7).
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

    /// `metadata.pendingActions` (open and settled entries, §9.6): unreadable entries dropped,
    /// unknown types kept as [`ActionKind::Unknown`].
    #[must_use]
    pub fn metadata_pending_actions(&self) -> Vec<PendingAction> {
        list_of(
            self.metadata.get("pendingActions"),
            PendingAction::from_json,
        )
    }

    /// `metadata.actionStates` (§9.6 step 2.2), unreadable entries dropped.
    #[must_use]
    pub fn metadata_action_states(&self) -> BTreeMap<String, ActionStateEntry> {
        action_states_of(self.metadata.get("actionStates"))
    }
}

// ---------------------------------------------------------------------------------------------
// Requests and responses (§5, §9.4, §9.5)
// ---------------------------------------------------------------------------------------------

/// One file sent inline with a message (§5): raw base64 content, no `data:` prefix.
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

/// E9 request body (§5). The client always sends `stream`; `streaming` (X2) is read as an alias.
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
    /// `true` asks for an SSE answer (§6).
    #[serde(
        default,
        alias = "streaming",
        deserialize_with = "lenient::bool_or_false"
    )]
    pub stream: bool,
}

/// Outcome of a turn (§9.3–§9.5).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TurnStatus {
    /// `completed`: the turn finished.
    Completed,
    /// `requires_action`: the turn waits on pending actions (Cogitator `paused` reads the same, C31).
    RequiresAction,
    /// `running`: the continuation still executes; refetch later (§9.9).
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

/// E9 JSON answer (`stream: false`, §5, extension fields §9.4).
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
    /// Turn outcome (extension, C6).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<TurnStatus>,
    /// Open actions after the turn (extension, C6).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending_actions: Option<Vec<PendingAction>>,
}

impl SendMessageResponse {
    /// Reads an E9 JSON answer: `None` unless both `message` and `response` are readable
    /// messages; the other fields are optional.
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

/// E4 request body.
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

/// E6 request body (rename / metadata change).
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

/// E14 request body (§9.5; `version` and `decisionKey` from §11.2, C21).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResolveActionRequest {
    /// The answer; always written with its `type` (C8).
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

/// E14 JSON answer (`stream` false/absent, §9.5, C7).
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
    /// Reads an E14 JSON answer: any object; unreadable fields are absent.
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

// ---------------------------------------------------------------------------------------------
// Pending actions (§9.1, §10, §11)
// ---------------------------------------------------------------------------------------------

/// Where an action stands.
///
/// Reading (see [`ActionStatus::parse`]) maps common synonyms (`approved`, `rejected`,
/// `executed`, `answered`, `canceled`, `timeout`, …) onto these four. On a
/// [`PendingAction`] a missing or unrecognised status reads as [`ActionStatus::Pending`]
/// (open): showing an odd entry as answerable is recoverable (the server refuses with
/// `action_not_pending`), hiding a really open one is not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ActionStatus {
    /// Open: waits for an answer.
    #[default]
    Pending,
    /// Answered / decided.
    Resolved,
    /// Cancelled (e.g. the user moved on in cancel mode).
    Cancelled,
    /// Deadline passed.
    Expired,
}

impl ActionStatus {
    /// The wire spelling.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            ActionStatus::Pending => "pending",
            ActionStatus::Resolved => "resolved",
            ActionStatus::Cancelled => "cancelled",
            ActionStatus::Expired => "expired",
        }
    }

    /// Reads a status or a known synonym (case and `-`/`_` ignored); unknown → `None`.
    #[must_use]
    pub fn parse(s: &str) -> Option<ActionStatus> {
        Some(match normalise_tag(s).as_str() {
            "pending" | "open" | "waiting" | "sending" | "pending_approval" | "requires_action" => {
                ActionStatus::Pending
            }
            "resolved" | "approved" | "rejected" | "denied" | "allowed" | "answered"
            | "executed" | "executing" | "completed" | "failed" | "done" => ActionStatus::Resolved,
            "cancelled" | "canceled" | "skipped" => ActionStatus::Cancelled,
            "expired" | "timeout" | "timed_out" => ActionStatus::Expired,
            _ => return None,
        })
    }

    /// Whether the action still waits for an answer.
    #[must_use]
    pub const fn is_open(self) -> bool {
        matches!(self, ActionStatus::Pending)
    }
}

impl Serialize for ActionStatus {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ActionStatus {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Value::deserialize(d)?
            .as_str()
            .and_then(ActionStatus::parse)
            .unwrap_or_default())
    }
}

/// `who settled it` value meaning the server refused the action itself at its deadline.
pub const RESOLVED_BY_TIMEOUT: &str = "system:timeout";

/// Where a decided tool call stands on the server (seed 004, PROTOCOL §11.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExecutionStatus {
    /// Still waits for a decision (`pending_approval`).
    PendingApproval,
    /// Allowed; the tool has not started yet.
    Approved,
    /// Denied.
    Rejected,
    /// The tool runs.
    Executing,
    /// The tool ran.
    Completed,
    /// The tool failed.
    Failed,
    /// The deadline passed.
    Expired,
}

impl ExecutionStatus {
    /// Reads the wire spelling (case and `-`/`_` ignored); unknown → `None`.
    #[must_use]
    pub fn parse(s: &str) -> Option<ExecutionStatus> {
        Some(match normalise_tag(s).as_str() {
            "pending_approval" | "pending" => ExecutionStatus::PendingApproval,
            "approved" => ExecutionStatus::Approved,
            "rejected" | "denied" => ExecutionStatus::Rejected,
            "executing" | "running" => ExecutionStatus::Executing,
            "completed" | "succeeded" | "done" => ExecutionStatus::Completed,
            "failed" | "error" => ExecutionStatus::Failed,
            "expired" => ExecutionStatus::Expired,
            _ => return None,
        })
    }
}

/// Something the agent waits on: an approval, a question, or a client-side tool (§9.1).
///
/// Reading never fails for an unknown `type`/`kind` (it becomes [`ActionKind::Unknown`]); it
/// fails only when the entry is not an object or has no `id`, and lists drop such entries.
#[derive(Clone, Debug, PartialEq)]
pub struct PendingAction {
    /// Action id, used in E14.
    pub id: String,
    /// What is asked, with its kind-specific fields.
    pub kind: ActionKind,
    /// Where it stands (absent/unknown → [`ActionStatus::Pending`]).
    pub status: ActionStatus,
    /// Deadline (ISO string or epoch ms on the wire, C30).
    pub expires_at: Option<Millis>,
    /// How it was settled (settled entries). A missing resolution `type` is inferred, see
    /// [`Resolution::from_json`].
    pub resolution: Option<Resolution>,
    /// Who settled it; [`RESOLVED_BY_TIMEOUT`] means the server expired it.
    pub resolved_by: Option<String>,
    /// Assistant message the card sits under (C11); default: the last assistant message.
    pub message_id: Option<String>,
    /// Tool call this action belongs to.
    pub tool_call_id: Option<String>,
    /// Creation time (`createdAt`, or SDK `requestedAt`).
    pub created_at: Option<Millis>,
    /// Record version to echo back in E14 (§11.2).
    pub version: Option<i64>,
    /// Execution progress after approval (§11.2): `pending_approval`, `approved`, `executing`,
    /// `completed`, `rejected`, `expired`, `failed`, as sent; read it with
    /// [`PendingAction::execution`].
    pub execution_status: Option<String>,
    /// When it was settled (`resolvedAt`), for the receipt (issue 14).
    pub resolved_at: Option<Millis>,
    /// What the tool returned once it ran (`executionResult`), for the receipt (issue 14, C42).
    pub execution_result: Option<Value>,
    /// Why the tool failed (`executionError`: a string or `{ message }`) (issue 14, C42).
    pub execution_error: Option<String>,
    /// Cogitator `sideEffects`, kept for display (§11.1).
    pub side_effects: Option<Value>,
}

/// The kind-specific part of a [`PendingAction`]. The wire tag is `type`, or `kind` (Console).
#[derive(Clone, Debug, PartialEq)]
pub enum ActionKind {
    /// `tool_approval`: allow or deny one tool call.
    ToolApproval(ToolApproval),
    /// `user_question`: one or more questions for the person.
    UserQuestion(UserQuestion),
    /// `client_tool` (C10): for the host page, not for a person.
    ClientTool {
        /// Tool to run.
        tool_name: String,
        /// Its arguments (default `{}`).
        args: Value,
    },
    /// Any other type, as sent (empty when the entry had no tag). The client ignores it.
    Unknown(String),
}

impl ActionKind {
    /// The wire tag: `tool_approval`, `user_question`, `client_tool`, or the unknown one.
    #[must_use]
    pub fn type_name(&self) -> &str {
        match self {
            ActionKind::ToolApproval(_) => "tool_approval",
            ActionKind::UserQuestion(_) => "user_question",
            ActionKind::ClientTool { .. } => "client_tool",
            ActionKind::Unknown(s) => s,
        }
    }

    /// Whether a person answers it (approval or question): only these draw a card and close
    /// the composer.
    #[must_use]
    pub const fn is_person_facing(&self) -> bool {
        matches!(
            self,
            ActionKind::ToolApproval(_) | ActionKind::UserQuestion(_)
        )
    }
}

/// Fields of a `tool_approval` action (§9.1).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ToolApproval {
    /// Tool to run (`toolName`; `tool_name`/`name` also read). Empty if the server omitted it.
    pub tool_name: String,
    /// Proposed arguments (default `{}`; a JSON-string form is parsed).
    pub args: Value,
    /// JSON Schema of the arguments: first present of `argsSchema`, `args_schema`, `inputSchema`.
    pub args_schema: Option<Value>,
    /// Heading shown instead of the tool name.
    pub title: Option<String>,
    /// Line shown under the tool name (`summary`, or Cogitator `description`).
    pub summary: Option<String>,
}

/// Fields of a `user_question` action (§9.1).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UserQuestion {
    /// The questions (entries without question text are dropped).
    pub questions: Vec<Question>,
    /// Action-level `allowFreeText` (SDK snapshot, C14); a question's own value wins.
    pub allow_free_text: Option<bool>,
}

/// One question of a `user_question` action (§9.1).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Question {
    /// Full text; also the key of its answer.
    pub question: String,
    /// Short chip above the question.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub header: Option<String>,
    /// Choices (may be empty).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<QuestionOption>,
    /// Checkboxes instead of a single choice.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub multi_select: bool,
    /// Question-level `allowFreeText` as sent; see [`Question::offers_free_text`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allow_free_text: Option<bool>,
    /// Hint in the free-text field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placeholder: Option<String>,
    /// `false` = optional (default `true`).
    pub required: bool,
}

impl Question {
    /// A required free-text question with only its text set.
    #[must_use]
    pub fn new(question: impl Into<String>) -> Question {
        Question {
            question: question.into(),
            header: None,
            options: Vec::new(),
            multi_select: false,
            allow_free_text: None,
            placeholder: None,
            required: true,
        }
    }

    /// Whether a free-text field is offered (C14): always when there are no options;
    /// otherwise unless `allowFreeText` is `false`, the question's value winning over the
    /// action-level one.
    #[must_use]
    pub fn offers_free_text(&self, action_level: Option<bool>) -> bool {
        self.options.is_empty() || self.allow_free_text.or(action_level).unwrap_or(true)
    }

    /// Reads a question object (or a bare string as the question text); `None` without text.
    #[must_use]
    pub fn from_json(v: &Value) -> Option<Question> {
        if let Value::String(s) = v {
            return (!s.is_empty()).then(|| Question::new(s.clone()));
        }
        let obj = v.as_object()?;
        let question = field(obj, &["question", "text"])
            .and_then(str_of)
            .filter(|s| !s.is_empty())?;
        Some(Question {
            question,
            header: obj.get("header").and_then(str_of),
            options: list_of(obj.get("options"), QuestionOption::from_json),
            multi_select: obj.get("multiSelect").and_then(bool_of).unwrap_or(false),
            allow_free_text: obj.get("allowFreeText").and_then(bool_of),
            placeholder: obj.get("placeholder").and_then(str_of),
            required: obj.get("required").and_then(bool_of).unwrap_or(true),
        })
    }
}

impl<'de> Deserialize<'de> for Question {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Question::from_json(&Value::deserialize(d)?)
            .ok_or_else(|| D::Error::custom("question without text"))
    }
}

/// One choice of a [`Question`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct QuestionOption {
    /// Text on the choice.
    pub label: String,
    /// Value sent in the answer (defaults to `label`).
    pub value: String,
    /// Longer explanation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Code/text shown collapsed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preview: Option<String>,
}

impl QuestionOption {
    /// Reads an option object (or a bare string/number as label and value); `None` when it has
    /// neither label nor value.
    #[must_use]
    pub fn from_json(v: &Value) -> Option<QuestionOption> {
        if let Some(s) = id_of(v) {
            return Some(QuestionOption {
                label: s.clone(),
                value: s,
                description: None,
                preview: None,
            });
        }
        let obj = v.as_object()?;
        let label = obj.get("label").and_then(str_of).filter(|s| !s.is_empty());
        let value = obj.get("value").and_then(id_of);
        let (label, value) = match (label, value) {
            (Some(l), Some(v)) => (l, v),
            (Some(l), None) => (l.clone(), l),
            (None, Some(v)) => (v.clone(), v),
            (None, None) => return None,
        };
        Some(QuestionOption {
            label,
            value,
            description: obj.get("description").and_then(str_of),
            preview: obj.get("preview").and_then(|p| match p {
                Value::String(s) => Some(s.clone()),
                Value::Null => None,
                other => Some(other.to_string()),
            }),
        })
    }
}

impl<'de> Deserialize<'de> for QuestionOption {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        QuestionOption::from_json(&Value::deserialize(d)?)
            .ok_or_else(|| D::Error::custom("option without label or value"))
    }
}

impl PendingAction {
    /// Whether it still waits for an answer.
    #[must_use]
    pub const fn is_open(&self) -> bool {
        self.status.is_open()
    }

    /// Whether the server settled it at its deadline (`resolvedBy: "system:timeout"`).
    #[must_use]
    pub fn is_timed_out(&self) -> bool {
        self.resolved_by.as_deref() == Some(RESOLVED_BY_TIMEOUT)
    }

    /// A new open action of `kind`, all optional fields empty.
    #[must_use]
    pub fn new(id: impl Into<String>, kind: ActionKind) -> PendingAction {
        PendingAction {
            id: id.into(),
            kind,
            status: ActionStatus::Pending,
            expires_at: None,
            resolution: None,
            resolved_by: None,
            message_id: None,
            tool_call_id: None,
            created_at: None,
            version: None,
            execution_status: None,
            resolved_at: None,
            execution_result: None,
            execution_error: None,
            side_effects: None,
        }
    }

    /// The execution stage the server reports (§11.2), `None` when it reports none or one this
    /// client does not know.
    #[must_use]
    pub fn execution(&self) -> Option<ExecutionStatus> {
        self.execution_status
            .as_deref()
            .and_then(ExecutionStatus::parse)
    }

    /// Reads an action; `None` when it is not an object or has no usable `id`. An unknown
    /// type becomes [`ActionKind::Unknown`].
    #[must_use]
    pub fn from_json(v: &Value) -> Option<PendingAction> {
        let obj = v.as_object()?;
        let id = obj.get("id").and_then(id_of)?;
        let tag = field(obj, &["type", "kind"])
            .and_then(Value::as_str)
            .map(normalise_tag)
            .unwrap_or_default();
        let tool_name = || {
            field(obj, &["toolName", "tool_name", "name"])
                .and_then(str_of)
                .unwrap_or_default()
        };
        let kind = match tag.as_str() {
            "tool_approval" => ActionKind::ToolApproval(ToolApproval {
                tool_name: tool_name(),
                args: args_value(field(obj, &["args", "arguments"])),
                args_schema: field(obj, &["argsSchema", "args_schema", "inputSchema"]).cloned(),
                title: obj.get("title").and_then(str_of),
                summary: field(obj, &["summary", "description"]).and_then(str_of),
            }),
            "user_question" => ActionKind::UserQuestion(UserQuestion {
                questions: list_of(obj.get("questions"), Question::from_json),
                allow_free_text: obj.get("allowFreeText").and_then(bool_of),
            }),
            "client_tool" => ActionKind::ClientTool {
                tool_name: tool_name(),
                args: args_value(field(obj, &["args", "arguments"])),
            },
            _ => ActionKind::Unknown(
                field(obj, &["type", "kind"])
                    .and_then(str_of)
                    .unwrap_or_default(),
            ),
        };
        let hint = match &kind {
            ActionKind::Unknown(_) => None,
            k => Some(k.type_name()),
        };
        Some(PendingAction {
            status: obj
                .get("status")
                .and_then(Value::as_str)
                .and_then(ActionStatus::parse)
                .unwrap_or_default(),
            expires_at: obj.get("expiresAt").and_then(parse_timestamp),
            resolution: obj
                .get("resolution")
                .and_then(|r| Resolution::from_json(r, hint)),
            resolved_by: obj.get("resolvedBy").and_then(str_of),
            message_id: obj.get("messageId").and_then(id_of),
            tool_call_id: obj.get("toolCallId").and_then(id_of),
            created_at: field(obj, &["createdAt", "requestedAt"]).and_then(parse_timestamp),
            version: obj.get("version").and_then(i64_of),
            execution_status: obj.get("executionStatus").and_then(str_of),
            resolved_at: obj.get("resolvedAt").and_then(parse_timestamp),
            execution_result: obj.get("executionResult").filter(|v| !v.is_null()).cloned(),
            execution_error: obj.get("executionError").and_then(|e| {
                str_of(e)
                    .or_else(|| e.get("message").and_then(str_of))
                    .filter(|t| !t.trim().is_empty())
            }),
            side_effects: field(obj, &["sideEffects"]).cloned(),
            id,
            kind,
        })
    }

    /// The canonical JSON form (`type` tag, ISO timestamps, resolution with `type`).
    #[must_use]
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("id".into(), self.id.clone().into());
        let tag = self.kind.type_name();
        if !tag.is_empty() {
            m.insert("type".into(), tag.into());
        }
        match &self.kind {
            ActionKind::ToolApproval(t) => {
                m.insert("toolName".into(), t.tool_name.clone().into());
                m.insert("args".into(), t.args.clone());
                if let Some(s) = &t.args_schema {
                    m.insert("argsSchema".into(), s.clone());
                }
                insert_opt_str(&mut m, "title", t.title.as_deref());
                insert_opt_str(&mut m, "summary", t.summary.as_deref());
            }
            ActionKind::UserQuestion(q) => {
                m.insert(
                    "questions".into(),
                    serde_json::to_value(&q.questions).unwrap_or(Value::Null),
                );
                if let Some(b) = q.allow_free_text {
                    m.insert("allowFreeText".into(), b.into());
                }
            }
            ActionKind::ClientTool { tool_name, args } => {
                m.insert("toolName".into(), tool_name.clone().into());
                m.insert("args".into(), args.clone());
            }
            ActionKind::Unknown(_) => {}
        }
        m.insert("status".into(), self.status.as_str().into());
        if let Some(t) = self.expires_at {
            m.insert("expiresAt".into(), format_iso(t).into());
        }
        if let Some(r) = &self.resolution {
            m.insert("resolution".into(), r.to_json());
        }
        insert_opt_str(&mut m, "resolvedBy", self.resolved_by.as_deref());
        insert_opt_str(&mut m, "messageId", self.message_id.as_deref());
        insert_opt_str(&mut m, "toolCallId", self.tool_call_id.as_deref());
        if let Some(t) = self.created_at {
            m.insert("createdAt".into(), format_iso(t).into());
        }
        if let Some(v) = self.version {
            m.insert("version".into(), v.into());
        }
        insert_opt_str(&mut m, "executionStatus", self.execution_status.as_deref());
        if let Some(t) = self.resolved_at {
            m.insert("resolvedAt".into(), format_iso(t).into());
        }
        if let Some(r) = &self.execution_result {
            m.insert("executionResult".into(), r.clone());
        }
        insert_opt_str(&mut m, "executionError", self.execution_error.as_deref());
        if let Some(s) = &self.side_effects {
            m.insert("sideEffects".into(), s.clone());
        }
        Value::Object(m)
    }
}

impl Serialize for PendingAction {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

impl<'de> Deserialize<'de> for PendingAction {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        PendingAction::from_json(&Value::deserialize(d)?)
            .ok_or_else(|| D::Error::custom("pending action must be an object with an `id`"))
    }
}

// ---------------------------------------------------------------------------------------------
// Resolutions (§9.2)
// ---------------------------------------------------------------------------------------------

/// An approval decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// Run the tool.
    Allow,
    /// Do not run it.
    Deny,
}

impl Decision {
    /// The wire spelling.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Decision::Allow => "allow",
            Decision::Deny => "deny",
        }
    }

    /// Reads `allow`/`deny` and common synonyms (`approve(d)`, `reject(ed)`, `denied`, …).
    #[must_use]
    pub fn parse(s: &str) -> Option<Decision> {
        match normalise_tag(s).as_str() {
            "allow" | "allowed" | "approve" | "approved" | "accept" | "accepted" | "yes" => {
                Some(Decision::Allow)
            }
            "deny" | "denied" | "reject" | "rejected" | "decline" | "declined" | "no" => {
                Some(Decision::Deny)
            }
            _ => None,
        }
    }
}

/// One answer of a `user_question` resolution (C9): a string (single choice or free text) or a
/// list (multi-select, typed text appended as one more entry).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum AnswerValue {
    /// Single choice (option `value`) or typed text.
    One(String),
    /// Multi-select values.
    Many(Vec<String>),
}

impl AnswerValue {
    /// The answer's values as a slice (one element for [`AnswerValue::One`]).
    #[must_use]
    pub fn as_slice(&self) -> &[String] {
        match self {
            AnswerValue::One(s) => std::slice::from_ref(s),
            AnswerValue::Many(v) => v,
        }
    }

    /// Reads a string, a list, a scalar, or the SDK form `{ values: [...], freeText }` (C9):
    /// one value and no text → `One`; only text → `One(text)`; otherwise `Many(values + text)`.
    /// `null` and other shapes give `None`.
    #[must_use]
    pub fn from_json(v: &Value) -> Option<AnswerValue> {
        match v {
            Value::String(s) => Some(AnswerValue::One(s.clone())),
            Value::Number(_) | Value::Bool(_) => Some(AnswerValue::One(v.to_string())),
            Value::Array(a) => Some(AnswerValue::Many(
                a.iter().filter_map(scalar_text).collect(),
            )),
            Value::Object(o) => {
                let mut values: Vec<String> = match o.get("values") {
                    Some(Value::Array(a)) => a.iter().filter_map(scalar_text).collect(),
                    Some(other) => scalar_text(other).into_iter().collect(),
                    None => Vec::new(),
                };
                let free = o
                    .get("freeText")
                    .and_then(Value::as_str)
                    .filter(|s| !s.is_empty());
                if !o.contains_key("values") && free.is_none() {
                    return None;
                }
                match (values.len(), free) {
                    (1, None) => values.pop().map(AnswerValue::One),
                    (0, Some(t)) => Some(AnswerValue::One(t.to_owned())),
                    (_, t) => {
                        values.extend(t.map(str::to_owned));
                        Some(AnswerValue::Many(values))
                    }
                }
            }
            Value::Null => None,
        }
    }
}

/// A string, number or boolean written as text.
fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(_) | Value::Bool(_) => Some(v.to_string()),
        _ => None,
    }
}

impl<'de> Deserialize<'de> for AnswerValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        AnswerValue::from_json(&Value::deserialize(d)?)
            .ok_or_else(|| D::Error::custom("unreadable answer"))
    }
}

/// How an action was (or is to be) answered (§9.2). Always written with `type` (C8).
#[derive(Clone, Debug, PartialEq)]
pub enum Resolution {
    /// Answer to a `tool_approval`.
    ToolApproval {
        /// Allow or deny.
        decision: Decision,
        /// Edited arguments (only with allow, only when they differ from `args`).
        approved_args: Option<Value>,
        /// "Don't ask again for this tool in this chat" (only with allow).
        remember_for_session: bool,
        /// Deny reason.
        comment: Option<String>,
    },
    /// Answer to a `user_question`.
    UserQuestion {
        /// Question text → answer. Unanswered optional questions are absent.
        answers: BTreeMap<String, AnswerValue>,
        /// `true` = skipped (answers then empty).
        cancelled: bool,
    },
    /// Result of a `client_tool` (C10).
    ClientTool {
        /// What the tool returned.
        result: Option<Value>,
        /// Why it failed.
        error: Option<String>,
    },
}

impl Resolution {
    /// A plain allow.
    #[must_use]
    pub const fn allow() -> Resolution {
        Resolution::ToolApproval {
            decision: Decision::Allow,
            approved_args: None,
            remember_for_session: false,
            comment: None,
        }
    }

    /// A deny with an optional reason.
    #[must_use]
    pub fn deny(comment: Option<String>) -> Resolution {
        Resolution::ToolApproval {
            decision: Decision::Deny,
            approved_args: None,
            remember_for_session: false,
            comment,
        }
    }

    /// A skipped question set (`answers: {}`, `cancelled: true`).
    #[must_use]
    pub const fn skipped() -> Resolution {
        Resolution::UserQuestion {
            answers: BTreeMap::new(),
            cancelled: true,
        }
    }

    /// The `type` tag written on the wire.
    #[must_use]
    pub const fn type_name(&self) -> &'static str {
        match self {
            Resolution::ToolApproval { .. } => "tool_approval",
            Resolution::UserQuestion { .. } => "user_question",
            Resolution::ClientTool { .. } => "client_tool",
        }
    }

    /// Reads a resolution. The kind comes from, in order: the `type` field when it names a
    /// known kind; the fields present (`decision` or boolean `approved` → tool_approval,
    /// `answers` or `cancelled` → user_question, `result` or `error` → client_tool); then
    /// `hint` (the owning action's type, C8). `None` when no kind can be found or a
    /// tool_approval has no readable decision.
    ///
    /// SDK spellings are accepted: `approved: bool` for the decision, `reason` for the comment,
    /// and `{ values, freeText }` answers (C9).
    #[must_use]
    pub fn from_json(v: &Value, hint: Option<&str>) -> Option<Resolution> {
        let obj = v.as_object()?;
        let by_type = obj
            .get("type")
            .and_then(Value::as_str)
            .map(normalise_tag)
            .filter(|t| {
                matches!(
                    t.as_str(),
                    "tool_approval" | "user_question" | "client_tool"
                )
            });
        let by_fields =
            if obj.contains_key("decision") || obj.get("approved").is_some_and(Value::is_boolean) {
                Some("tool_approval")
            } else if obj.contains_key("answers") || obj.contains_key("cancelled") {
                Some("user_question")
            } else if obj.contains_key("result") || obj.contains_key("error") {
                Some("client_tool")
            } else {
                None
            };
        let kind = by_type.as_deref().or(by_fields).or(hint)?;
        match normalise_tag(kind).as_str() {
            "tool_approval" => {
                let decision = obj
                    .get("decision")
                    .and_then(Value::as_str)
                    .and_then(Decision::parse)
                    .or_else(|| {
                        obj.get("approved").and_then(bool_of).map(|b| {
                            if b {
                                Decision::Allow
                            } else {
                                Decision::Deny
                            }
                        })
                    })?;
                Some(Resolution::ToolApproval {
                    decision,
                    approved_args: field(obj, &["approvedArgs", "approved_args"]).cloned(),
                    remember_for_session: obj
                        .get("rememberForSession")
                        .and_then(bool_of)
                        .unwrap_or(false),
                    comment: field(obj, &["comment", "reason"]).and_then(str_of),
                })
            }
            "user_question" => {
                let answers = obj
                    .get("answers")
                    .and_then(Value::as_object)
                    .map(|m| {
                        m.iter()
                            .filter_map(|(k, v)| AnswerValue::from_json(v).map(|a| (k.clone(), a)))
                            .collect()
                    })
                    .unwrap_or_default();
                Some(Resolution::UserQuestion {
                    answers,
                    cancelled: obj.get("cancelled").and_then(bool_of).unwrap_or(false),
                })
            }
            "client_tool" => Some(Resolution::ClientTool {
                result: field(obj, &["result"]).cloned(),
                error: field(obj, &["error"]).map(|e| match e {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                }),
            }),
            _ => None,
        }
    }

    /// The canonical JSON form, always with `type` (C8).
    #[must_use]
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("type".into(), self.type_name().into());
        match self {
            Resolution::ToolApproval {
                decision,
                approved_args,
                remember_for_session,
                comment,
            } => {
                m.insert("decision".into(), decision.as_str().into());
                if let Some(a) = approved_args {
                    m.insert("approvedArgs".into(), a.clone());
                }
                if *remember_for_session {
                    m.insert("rememberForSession".into(), true.into());
                }
                insert_opt_str(&mut m, "comment", comment.as_deref());
            }
            Resolution::UserQuestion { answers, cancelled } => {
                m.insert(
                    "answers".into(),
                    serde_json::to_value(answers).unwrap_or_else(|_| Value::Object(Map::new())),
                );
                if *cancelled {
                    m.insert("cancelled".into(), true.into());
                }
            }
            Resolution::ClientTool { result, error } => {
                if let Some(r) = result {
                    m.insert("result".into(), r.clone());
                }
                insert_opt_str(&mut m, "error", error.as_deref());
            }
        }
        Value::Object(m)
    }
}

impl Serialize for Resolution {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Resolution {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Resolution::from_json(&Value::deserialize(d)?, None)
            .ok_or_else(|| D::Error::custom("unreadable resolution"))
    }
}

// ---------------------------------------------------------------------------------------------
// Stream events (§6, §9.3)
// ---------------------------------------------------------------------------------------------

/// One server-sent event of a message or resolve stream (§6, §9.3).
///
/// The event's `timestamp` travels beside it in [`TimedEvent`] (the session works on its own
/// clock, so variants stay lean). Docs variants are read too (X1, X8): `event:` names, `id`/`name`/`arguments` tool events and a
/// done event carrying `message`. Type names are read with or without the `stream.` prefix.
// Events are decoded one at a time and moved straight into the session, so the size of the
// `ActionRequired` variant costs nothing; boxing it would only make matching clumsier.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum StreamEvent {
    /// `stream.start`: the user message was stored.
    Start {
        /// Conversation id.
        conversation_id: Option<String>,
        /// Id of the stored **user** message (not to be relied on in resolve streams, C33).
        message_id: Option<String>,
    },
    /// `stream.text`: append to the streaming buffer.
    Text {
        /// The chunk (may be empty).
        text: String,
        /// `isFinal` flag (the chunk is still appended).
        is_final: bool,
    },
    /// `stream.thinking`: reasoning text (0.1.1 appends it to the same buffer).
    Thinking {
        /// The chunk.
        thinking: String,
    },
    /// `stream.tool_call`: a tool started.
    ToolCall {
        /// Call id (`toolCallId`, or docs `id`); empty when the server sent none.
        tool_call_id: String,
        /// Tool name (`toolName`, or docs `name`).
        tool_name: String,
        /// Arguments (`args` object, or docs `arguments` JSON string parsed; default `{}`).
        args: Value,
        /// Why the agent called it.
        reasoning: Option<String>,
        /// Friendly tool name.
        display_name: Option<String>,
    },
    /// `stream.tool_result`: a tool finished (failed tools: `{ "error": "…" }`).
    ToolResult {
        /// Call id (`toolCallId`, or docs `id`); empty when the server sent none.
        tool_call_id: String,
        /// Tool name (`toolName`, or docs `name`); empty when the server sent none.
        tool_name: String,
        /// The result (`null` when absent).
        result: Value,
    },
    /// `stream.progress`: a progress line, cleared by the next text.
    Progress {
        /// Stage name.
        stage: Option<String>,
        /// Line to show.
        message: Option<String>,
        /// Completion percentage.
        percent: Option<f64>,
    },
    /// `stream.error`: the turn failed; no assistant message is added.
    Error {
        /// The server's text (empty when it sent none; the UI then shows a generic text).
        error: String,
        /// Code, lower-cased like [`crate::core::error::ApiError::code`].
        code: Option<String>,
    },
    /// `stream.done`: the turn ended (possibly paused, §9.3).
    Done {
        /// Conversation id.
        conversation_id: Option<String>,
        /// Id of the stored **assistant** message.
        message_id: Option<String>,
        /// Full text of the assistant message.
        content: String,
        /// New conversation title.
        title: Option<String>,
        /// Token counts.
        usage: Option<Usage>,
        /// Sources.
        citations: Vec<Citation>,
        /// `completed`, `requires_action`, … (`None` when absent = completed).
        status: Option<TurnStatus>,
        /// All actions open after this turn; `None` when the key is absent.
        pending_actions: Option<Vec<PendingAction>>,
    },
    /// `stream.action_required` (C3): an action now waits.
    ActionRequired {
        /// Conversation id.
        conversation_id: Option<String>,
        /// Assistant message the card belongs under, when already stored.
        message_id: Option<String>,
        /// The action.
        action: PendingAction,
    },
    /// `stream.action_resolved` (C4): an action was settled.
    ActionResolved {
        /// Conversation id.
        conversation_id: Option<String>,
        /// The settled action's id.
        action_id: String,
        /// `resolved` | `cancelled` | `expired` (absent/unknown → resolved).
        status: ActionStatus,
        /// How it was settled.
        resolution: Option<Resolution>,
        /// Who settled it.
        resolved_by: Option<String>,
    },
    /// `stream.action_updated` (C42): the server's record of an action changed (its execution
    /// stage, or a new version of an open action).
    ActionUpdated {
        /// Conversation id.
        conversation_id: Option<String>,
        /// The action as the server now records it.
        action: PendingAction,
    },
    /// Any other event type; the client ignores it.
    Unknown {
        /// The type as sent.
        type_name: String,
    },
}

/// The known event kinds, by canonical name.
const EVENT_NAMES: [&str; 11] = [
    "start",
    "text",
    "thinking",
    "tool_call",
    "tool_result",
    "progress",
    "error",
    "done",
    "action_required",
    "action_resolved",
    "action_updated",
];

/// `stream.text` → `text`; `None` for unknown names.
fn canonical_event(type_name: &str) -> Option<&'static str> {
    let t = normalise_tag(type_name);
    let bare = t.strip_prefix("stream.").unwrap_or(&t);
    EVENT_NAMES.iter().copied().find(|n| *n == bare)
}

impl StreamEvent {
    /// Parses one frame's `data` (§6, C22). The type is the JSON `type`, else `event_name`
    /// (the frame's `event:` line).
    ///
    /// # Errors
    /// [`DecodeError::MalformedJson`] when `data` is not JSON, [`DecodeError::MissingType`] when
    /// neither source names a type, [`DecodeError::InvalidShape`] when a known type lacks what
    /// it cannot do without. An unknown type is `Ok(StreamEvent::Unknown)`.
    pub fn parse(data: &str, event_name: Option<&str>) -> Result<StreamEvent, DecodeError> {
        // C22: what the grammar allows but serde_json refuses is read as far as it can be.
        let value: Value =
            super::lenient::parse(data).map_err(|e| DecodeError::malformed(&e, data))?;
        StreamEvent::from_json(&value, event_name).map_err(|e| match e {
            DecodeError::MissingType { .. } => DecodeError::MissingType {
                excerpt: excerpt(data),
            },
            other => other,
        })
    }

    /// Like [`StreamEvent::parse`] for already-parsed JSON.
    ///
    /// # Errors
    /// As [`StreamEvent::parse`], minus the JSON syntax case.
    pub fn from_json(value: &Value, event_name: Option<&str>) -> Result<StreamEvent, DecodeError> {
        let obj = value.as_object();
        let type_name = obj
            .and_then(|o| o.get("type"))
            .and_then(Value::as_str)
            .filter(|t| !t.trim().is_empty())
            .or(event_name.filter(|t| !t.trim().is_empty()))
            .ok_or_else(|| DecodeError::MissingType {
                excerpt: excerpt(&value.to_string()),
            })?;
        let Some(kind) = canonical_event(type_name) else {
            return Ok(StreamEvent::Unknown {
                type_name: type_name.to_owned(),
            });
        };
        let invalid = |reason: &str| DecodeError::InvalidShape {
            event_type: type_name.to_owned(),
            reason: reason.to_owned(),
        };
        let Some(o) = obj else {
            return Err(invalid("data is not a JSON object"));
        };
        let text_field = |keys: &[&str]| -> Result<String, DecodeError> {
            match field(o, keys) {
                None => Ok(String::new()),
                Some(Value::String(s)) => Ok(s.clone()),
                Some(Value::Number(n)) => Ok(n.to_string()),
                Some(_) => Err(invalid(&format!(
                    "`{}` must be a string",
                    keys.first().copied().unwrap_or("text")
                ))),
            }
        };
        let conversation_id = o.get("conversationId").and_then(id_of);
        let message_id = o.get("messageId").and_then(id_of);
        Ok(match kind {
            "start" => StreamEvent::Start {
                conversation_id,
                message_id,
            },
            "text" => StreamEvent::Text {
                text: text_field(&["text"])?,
                is_final: o.get("isFinal").and_then(bool_of).unwrap_or(false),
            },
            "thinking" => StreamEvent::Thinking {
                thinking: text_field(&["thinking", "text"])?,
            },
            "tool_call" => {
                let tool_name = field(o, &["toolName", "name"])
                    .and_then(str_of)
                    .filter(|s| !s.is_empty())
                    .ok_or_else(|| invalid("missing `toolName`"))?;
                StreamEvent::ToolCall {
                    tool_call_id: field(o, &["toolCallId", "id"])
                        .and_then(id_of)
                        .unwrap_or_default(),
                    tool_name,
                    args: args_value(field(o, &["args", "arguments"])),
                    reasoning: o.get("reasoning").and_then(str_of),
                    display_name: o.get("displayName").and_then(str_of),
                }
            }
            "tool_result" => {
                let tool_call_id = field(o, &["toolCallId", "id"])
                    .and_then(id_of)
                    .unwrap_or_default();
                let tool_name = field(o, &["toolName", "name"])
                    .and_then(str_of)
                    .unwrap_or_default();
                if tool_call_id.is_empty() && tool_name.is_empty() {
                    return Err(invalid("missing both `toolCallId` and `toolName`"));
                }
                StreamEvent::ToolResult {
                    tool_call_id,
                    tool_name,
                    result: o.get("result").cloned().unwrap_or(Value::Null),
                }
            }
            "progress" => StreamEvent::Progress {
                stage: o.get("stage").and_then(str_of),
                message: o.get("message").and_then(str_of),
                percent: o.get("percent").and_then(f64_of),
            },
            "error" => {
                let nested = o.get("error").and_then(Value::as_object);
                let error = nested
                    .and_then(|e| e.get("message"))
                    .and_then(str_of)
                    .or_else(|| o.get("error").and_then(str_of))
                    .or_else(|| o.get("message").and_then(str_of))
                    .unwrap_or_default();
                let code = nested
                    .and_then(|e| e.get("code"))
                    .or_else(|| o.get("code"))
                    .and_then(scalar_text)
                    .map(|c| c.trim().to_ascii_lowercase())
                    .filter(|c| !c.is_empty());
                StreamEvent::Error { error, code }
            }
            "done" => done_from(o, conversation_id, message_id, &invalid)?,
            "action_required" => {
                let action = field(o, &["action", "pendingAction"])
                    .and_then(PendingAction::from_json)
                    .ok_or_else(|| invalid("missing or unreadable `action`"))?;
                StreamEvent::ActionRequired {
                    conversation_id,
                    message_id,
                    action,
                }
            }
            "action_updated" => StreamEvent::ActionUpdated {
                conversation_id,
                action: field(o, &["action", "pendingAction"])
                    .and_then(PendingAction::from_json)
                    .ok_or_else(|| invalid("missing or unreadable `action`"))?,
            },
            "action_resolved" => {
                let action = o.get("action").and_then(Value::as_object);
                let from_action = |k: &str| action.and_then(|a| a.get(k));
                let action_id = field(o, &["actionId"])
                    .or_else(|| from_action("id"))
                    .or_else(|| o.get("id"))
                    .and_then(id_of)
                    .ok_or_else(|| invalid("missing `actionId`"))?;
                let hint = from_action("type")
                    .or_else(|| from_action("kind"))
                    .and_then(Value::as_str)
                    .map(normalise_tag);
                StreamEvent::ActionResolved {
                    conversation_id,
                    action_id,
                    status: o
                        .get("status")
                        .or_else(|| from_action("status"))
                        .and_then(Value::as_str)
                        .and_then(ActionStatus::parse)
                        .filter(|s| !s.is_open())
                        .unwrap_or(ActionStatus::Resolved),
                    resolution: o
                        .get("resolution")
                        .or_else(|| from_action("resolution"))
                        .and_then(|r| Resolution::from_json(r, hint.as_deref())),
                    resolved_by: o
                        .get("resolvedBy")
                        .or_else(|| from_action("resolvedBy"))
                        .and_then(str_of),
                }
            }
            _ => StreamEvent::Unknown {
                type_name: type_name.to_owned(),
            },
        })
    }

    /// The wire type name (`stream.text`, …; the unknown one as sent).
    #[must_use]
    pub fn type_name(&self) -> &str {
        match self {
            StreamEvent::Start { .. } => "stream.start",
            StreamEvent::Text { .. } => "stream.text",
            StreamEvent::Thinking { .. } => "stream.thinking",
            StreamEvent::ToolCall { .. } => "stream.tool_call",
            StreamEvent::ToolResult { .. } => "stream.tool_result",
            StreamEvent::Progress { .. } => "stream.progress",
            StreamEvent::Error { .. } => "stream.error",
            StreamEvent::Done { .. } => "stream.done",
            StreamEvent::ActionRequired { .. } => "stream.action_required",
            StreamEvent::ActionResolved { .. } => "stream.action_resolved",
            StreamEvent::ActionUpdated { .. } => "stream.action_updated",
            StreamEvent::Unknown { type_name, .. } => type_name,
        }
    }

    /// Whether the event ends the stream (`stream.done` or `stream.error`); a body that ends
    /// without one is a cut stream (§9.9).
    #[must_use]
    pub const fn is_terminal(&self) -> bool {
        matches!(self, StreamEvent::Done { .. } | StreamEvent::Error { .. })
    }

    /// The canonical JSON form, as the reference server emits it (flat fields and `type`;
    /// see [`TimedEvent::to_json`] for the `timestamp`).
    #[must_use]
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("type".into(), self.type_name().into());
        let mut put = |k: &str, v: Option<Value>| {
            if let Some(v) = v {
                m.insert(k.to_owned(), v);
            }
        };
        let s = |v: &Option<String>| v.clone().map(Value::String);
        let non_empty = |v: &String| (!v.is_empty()).then(|| Value::String(v.clone()));
        match self {
            StreamEvent::Start {
                conversation_id,
                message_id,
                ..
            } => {
                put("conversationId", s(conversation_id));
                put("messageId", s(message_id));
            }
            StreamEvent::Text { text, is_final, .. } => {
                put("text", Some(text.clone().into()));
                put("isFinal", Some((*is_final).into()));
            }
            StreamEvent::Thinking { thinking, .. } => {
                put("thinking", Some(thinking.clone().into()));
            }
            StreamEvent::ToolCall {
                tool_call_id,
                tool_name,
                args,
                reasoning,
                display_name,
                ..
            } => {
                put("toolName", Some(tool_name.clone().into()));
                put("toolCallId", non_empty(tool_call_id));
                put("args", Some(args.clone()));
                put("reasoning", s(reasoning));
                put("displayName", s(display_name));
            }
            StreamEvent::ToolResult {
                tool_call_id,
                tool_name,
                result,
                ..
            } => {
                put("toolName", non_empty(tool_name));
                put("toolCallId", non_empty(tool_call_id));
                put("result", Some(result.clone()));
            }
            StreamEvent::Progress {
                stage,
                message,
                percent,
                ..
            } => {
                put("stage", s(stage));
                put("message", s(message));
                put(
                    "percent",
                    percent
                        .and_then(serde_json::Number::from_f64)
                        .map(Value::Number),
                );
            }
            StreamEvent::Error { error, code, .. } => {
                put("error", Some(error.clone().into()));
                put("code", s(code));
            }
            StreamEvent::Done {
                conversation_id,
                message_id,
                content,
                title,
                usage,
                citations,
                status,
                pending_actions,
                ..
            } => {
                put("conversationId", s(conversation_id));
                put("messageId", s(message_id));
                put("content", Some(content.clone().into()));
                put("title", s(title));
                put("usage", usage.and_then(|u| serde_json::to_value(u).ok()));
                if !citations.is_empty() {
                    put("citations", serde_json::to_value(citations).ok());
                }
                put("status", status.as_ref().map(|t| t.as_str().into()));
                put(
                    "pendingActions",
                    pending_actions
                        .as_ref()
                        .map(|l| Value::Array(l.iter().map(PendingAction::to_json).collect())),
                );
            }
            StreamEvent::ActionRequired {
                conversation_id,
                message_id,
                action,
                ..
            } => {
                put("conversationId", s(conversation_id));
                put("messageId", s(message_id));
                put("action", Some(action.to_json()));
            }
            StreamEvent::ActionResolved {
                conversation_id,
                action_id,
                status,
                resolution,
                resolved_by,
                ..
            } => {
                put("conversationId", s(conversation_id));
                put("actionId", Some(action_id.clone().into()));
                put("status", Some(status.as_str().into()));
                put("resolution", resolution.as_ref().map(Resolution::to_json));
                put("resolvedBy", s(resolved_by));
            }
            StreamEvent::ActionUpdated {
                conversation_id,
                action,
            } => {
                put("conversationId", s(conversation_id));
                put("action", Some(action.to_json()));
            }
            StreamEvent::Unknown { .. } => {}
        }
        Value::Object(m)
    }
}

/// Builds a `stream.done` event from flat fields, falling back to a nested `message` (X1).
fn done_from(
    o: &Map<String, Value>,
    conversation_id: Option<String>,
    message_id: Option<String>,
    invalid: &dyn Fn(&str) -> DecodeError,
) -> Result<StreamEvent, DecodeError> {
    let nested: Option<Message> = o
        .get("message")
        .filter(|m| m.is_object())
        .and_then(from_json);
    let content = match o.get("content") {
        None | Some(Value::Null) => nested
            .as_ref()
            .map(|m| m.display_text().into_owned())
            .unwrap_or_default(),
        Some(v @ (Value::String(_) | Value::Array(_))) => {
            MessageContent::from_json(v).display_text().into_owned()
        }
        Some(_) => return Err(invalid("`content` must be a string")),
    };
    let citations = match o.get("citations") {
        Some(Value::Array(_)) => list_of(o.get("citations"), from_json),
        _ => nested
            .as_ref()
            .map(|m| m.citations.clone())
            .unwrap_or_default(),
    };
    Ok(StreamEvent::Done {
        conversation_id: conversation_id.or_else(|| {
            nested
                .as_ref()
                .map(|m| m.conversation_id.clone())
                .filter(|c| !c.is_empty())
        }),
        message_id: message_id.or_else(|| nested.as_ref().map(|m| m.id.clone())),
        content,
        title: field(o, &["title", "conversationTitle"]).and_then(str_of),
        usage: o.get("usage").and_then(from_json),
        citations,
        status: o.get("status").and_then(TurnStatus::from_json),
        pending_actions: pending_actions_of(o.get("pendingActions")),
    })
}

impl Serialize for StreamEvent {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

/// A [`StreamEvent`] with the `timestamp` its frame carried (epoch ms, §6).
#[derive(Clone, Debug, PartialEq)]
pub struct TimedEvent {
    /// The event.
    pub event: StreamEvent,
    /// The frame's `timestamp` (number or ISO string); `None` when absent or unreadable.
    pub timestamp: Option<Millis>,
}

impl TimedEvent {
    /// Like [`StreamEvent::parse`], keeping the timestamp.
    ///
    /// # Errors
    /// As [`StreamEvent::parse`].
    pub fn parse(data: &str, event_name: Option<&str>) -> Result<TimedEvent, DecodeError> {
        // C22: what the grammar allows but serde_json refuses is read as far as it can be.
        let value: Value =
            super::lenient::parse(data).map_err(|e| DecodeError::malformed(&e, data))?;
        TimedEvent::from_json(&value, event_name).map_err(|e| match e {
            DecodeError::MissingType { .. } => DecodeError::MissingType {
                excerpt: excerpt(data),
            },
            other => other,
        })
    }

    /// Like [`StreamEvent::from_json`], keeping the timestamp.
    ///
    /// # Errors
    /// As [`StreamEvent::from_json`].
    pub fn from_json(value: &Value, event_name: Option<&str>) -> Result<TimedEvent, DecodeError> {
        Ok(TimedEvent {
            event: StreamEvent::from_json(value, event_name)?,
            timestamp: value.get("timestamp").and_then(parse_timestamp),
        })
    }

    /// The canonical JSON form with `timestamp` as epoch ms.
    #[must_use]
    pub fn to_json(&self) -> Value {
        let mut v = self.event.to_json();
        if let (Some(t), Value::Object(m)) = (self.timestamp, &mut v) {
            m.insert("timestamp".into(), t.0.into());
        }
        v
    }
}

impl From<TimedEvent> for StreamEvent {
    fn from(t: TimedEvent) -> StreamEvent {
        t.event
    }
}

impl Serialize for TimedEvent {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}
