//! Agents (`GET /agents`, `GET /agents/:id`).

use super::*;

/// One agent the server offers (an entry of `GET /agents`, the body of `GET /agents/:id`).
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
    /// Feature flags (agent server 0.4.0 and later).
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

/// How the composer behaves while a person-facing action is open.
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
/// reads. A getter returns `None` whenever the value is unusable, so the prop applies.
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

/// An agent's `capabilities` (0.4.0). Unusable values are ignored, never an error.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AgentCapabilities {
    /// `approvalArgsEdit` when it is a boolean; `None` lets the `allowArgumentEdit` prop apply.
    pub approval_args_edit: Option<bool>,
    /// `approvalRemember` when it is a boolean: `false` hides "don't ask again" on approval
    /// cards (a backend that cannot remember a tool for the chat).
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

/// `GET /agents` body: `{ agents }`. Unreadable entries are dropped.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct AgentList {
    /// The agents, in server order.
    pub agents: Vec<AgentInfo>,
}

impl AgentList {
    /// Reads a `GET /agents` body; `None` when it is not an object.
    #[must_use]
    pub fn from_json(v: &Value) -> Option<AgentList> {
        let obj = v.as_object()?;
        Some(AgentList {
            agents: list_of(obj.get("agents"), AgentInfo::from_json),
        })
    }
}
by_hand!(AgentList, "an object with agents");
