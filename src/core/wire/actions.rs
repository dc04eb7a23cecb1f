//! Pending actions (§9.1, §10, §11).

use super::*;

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
    /// Whether this one call's arguments may be edited (`argsEditable`), when the server says
    /// so card by card (a LangGraph interrupt's `allow_edit`); it wins over the agent's and
    /// the chat's setting.
    pub args_editable: Option<bool>,
    /// How this one call may be declined (`decline`), when the server says so card by card
    /// (a LangGraph interrupt's `allow_respond` / `allow_ignore`); absent: with or without a
    /// reason.
    pub decline: Option<Decline>,
}

/// How a `tool_approval` may be declined (`decline`: `never`, `silent`, `reason`, `any`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decline {
    /// It cannot be declined: no Deny.
    Never,
    /// Declined without a reason: no reason field.
    Silent,
    /// Declined only with a reason: the field is open and Deny waits for words.
    WithReason,
    /// With or without a reason (the default).
    Any,
}

impl Decline {
    /// Reads `never` / `silent` / `reason` / `any`; `None` for anything else.
    pub fn parse(text: &str) -> Option<Decline> {
        match text {
            "never" => Some(Decline::Never),
            "silent" => Some(Decline::Silent),
            "reason" => Some(Decline::WithReason),
            "any" => Some(Decline::Any),
            _ => None,
        }
    }

    /// Whether a decline with `reason` (trimmed; empty is none) is one this rule takes.
    pub fn takes(self, reason: Option<&str>) -> bool {
        let has_reason = reason.is_some_and(|r| !r.trim().is_empty());
        match self {
            Decline::Never => false,
            Decline::Silent => !has_reason,
            Decline::WithReason => has_reason,
            Decline::Any => true,
        }
    }
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
                args_editable: obj.get("argsEditable").and_then(bool_of),
                decline: obj
                    .get("decline")
                    .and_then(Value::as_str)
                    .and_then(Decline::parse),
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
