//! Stream events.

use super::*;

/// One server-sent event of a message or resolve stream.
///
/// The event's `timestamp` travels beside it in [`TimedEvent`] (the session works on its own clock,
/// so variants stay lean). Docs variants are read too: `event:` names,
/// `id`/`name`/`arguments` tool events and a done event carrying `message`. Type names are read
/// with or without the `stream.` prefix.
// Events are decoded one at a time and moved straight into the session, so the size of the
// `ActionRequired` variant costs nothing; boxing it would only make matching clumsier.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum StreamEvent {
    /// `stream.start`: the user message was stored.
    Start {
        /// Conversation id.
        conversation_id: Option<String>,
        /// Id of the stored **user** message (not to be relied on in resolve streams: servers
        /// differ).
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
        /// Code, lower-cased like [`crate::error::ApiError::code`].
        code: Option<String>,
    },
    /// `stream.done`: the turn ended (possibly paused).
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
    /// `stream.action_required`: an action now waits.
    ActionRequired {
        /// Conversation id.
        conversation_id: Option<String>,
        /// Assistant message the card belongs under, when already stored.
        message_id: Option<String>,
        /// The action.
        action: PendingAction,
    },
    /// `stream.action_resolved`: an action was settled.
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
    /// `stream.action_updated`: the server's record of an action changed (its execution
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
    /// Parses one frame's `data`. The type is the JSON `type`, else `event_name`
    /// (the frame's `event:` line).
    ///
    /// # Errors
    /// [`DecodeError::MalformedJson`] when `data` is not JSON, [`DecodeError::MissingType`] when
    /// neither source names a type, [`DecodeError::InvalidShape`] when a known type lacks what
    /// it cannot do without. An unknown type is `Ok(StreamEvent::Unknown)`.
    pub fn parse(data: &str, event_name: Option<&str>) -> Result<StreamEvent, DecodeError> {
        // C22: what the grammar allows but serde_json refuses is read as far as it can be.
        let value: Value =
            crate::lenient::parse(data).map_err(|e| DecodeError::malformed(&e, data))?;
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
    /// without one is a cut stream.
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

/// Builds a `stream.done` event from flat fields, falling back to a nested `message`.
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

/// A [`StreamEvent`] with the `timestamp` its frame carried (epoch ms).
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
            crate::lenient::parse(data).map_err(|e| DecodeError::malformed(&e, data))?;
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
