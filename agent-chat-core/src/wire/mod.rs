//! Serde types for every JSON shape of the wire contract.
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

/// `Deserialize` for a type with a hand-written `from_json(&Value) -> Option<Self>`:
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

/// Reads every entry of an object with `parse`, keyed by its name, dropping the ones it
/// refuses. A non-object gives an empty map. Inserted one by one: `collect` into a map sorts
/// a vector first, one more sort compiled into the first download for nothing.
fn map_of<T>(v: Option<&Value>, parse: impl Fn(&Value) -> Option<T>) -> BTreeMap<String, T> {
    let mut map = BTreeMap::new();
    for (key, value) in v.and_then(Value::as_object).into_iter().flatten() {
        if let Some(entry) = parse(value) {
            map.insert(key.clone(), entry);
        }
    }
    map
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
/// [`decode_optional_body`] where 204 / empty means "success, no value".
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
/// instantiates each type's visitor once per input kind (a few KB of gzip).
///
/// # Errors
/// The text is not JSON, or not of `T`'s shape.
pub fn json_text<T: DeserializeOwned>(text: &str) -> Result<T, serde_json::Error> {
    let value: Value = super::lenient::parse(text)?;
    T::deserialize(&value)
}

/// Like [`decode_body`], but an empty body is `Ok(None)` (204 or an empty 2xx is success).
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

// The types, by area of the contract; every one is `wire::Name`. They come after the
// helpers above, whose `by_hand!` macro they use.
mod actions;
mod agents;
mod conversations;
mod events;
mod messages;
mod questions;
mod requests;
mod resolutions;

pub use self::actions::{
    ActionKind, ActionStatus, Decline, ExecutionStatus, PendingAction, ToolApproval, Transition,
    RESOLVED_BY_TIMEOUT,
};
pub use self::agents::{AgentCapabilities, AgentInfo, AgentList, AgentMetadata, ComposerMode};
use self::conversations::pending_actions_of;
pub use self::conversations::{
    Conversation, ConversationEnvelope, ConversationList, ConversationListItem,
    ConversationWithMessages, FileEnvelope, MessagesPage,
};
pub use self::events::{StreamEvent, TimedEvent};
use self::messages::insert_opt_str;
pub use self::messages::{
    ActionStateEntry, Citation, ContentPart, FileAttachment, FileRecord, Message, MessageContent,
    Role, ToolCallDetail, ToolCallRecord, Usage,
};
pub use self::questions::{Question, QuestionOption, UserQuestion};
pub use self::requests::{
    CreateConversationRequest, ResolveActionRequest, ResolveActionResponse, SendMessageRequest,
    SendMessageResponse, TurnStatus, UpdateConversationRequest, UploadFile,
};
use self::resolutions::scalar_text;
pub use self::resolutions::{AnswerValue, Decision, Resolution};
