//! Resolutions.

use super::*;

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

/// One answer of a `user_question` resolution: a string (single choice or free text) or a
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

    /// Reads a string, a list, a scalar, or the SDK form `{ values: [...], freeText }`:
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
pub(super) fn scalar_text(v: &Value) -> Option<String> {
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

/// How an action was (or is to be) answered. Always written with `type`.
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
    /// Result of a `client_tool`.
    ClientTool {
        /// What the tool returned.
        result: Option<Value>,
        /// Why it failed.
        error: Option<String>,
    },
}

impl Resolution {
    /// Whether this answer approves with edited arguments (which the gate checks against the
    /// action's argsSchema).
    pub fn carries_edit(&self) -> bool {
        matches!(
            self,
            Resolution::ToolApproval {
                decision: Decision::Allow,
                approved_args: Some(_),
                ..
            }
        )
    }

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
    /// `hint` (the owning action's type). `None` when no kind can be found or a
    /// tool_approval has no readable decision.
    ///
    /// SDK spellings are accepted: `approved: bool` for the decision, `reason` for the comment,
    /// and `{ values, freeText }` answers.
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
            "user_question" => Some(Resolution::UserQuestion {
                answers: map_of(obj.get("answers"), AnswerValue::from_json),
                cancelled: obj.get("cancelled").and_then(bool_of).unwrap_or(false),
            }),
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

    /// The canonical JSON form, always with `type`.
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
