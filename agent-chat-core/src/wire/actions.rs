//! Pending actions.

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

/// Where a decided tool call stands on the server (versioned action records).
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

    /// Reads only the seven words of the approval guide's `ApprovalStatus` (case and `-`/`_`
    /// ignored): the test for a record of the guide's own shape, where a looser word such as
    /// `pending` could belong to anything.
    #[must_use]
    pub fn parse_guide_word(s: &str) -> Option<ExecutionStatus> {
        match normalise_tag(s).as_str() {
            "pending_approval" | "approved" | "rejected" | "executing" | "completed" | "failed"
            | "expired" => ExecutionStatus::parse(s),
            _ => None,
        }
    }

    /// The guide's spelling.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            ExecutionStatus::PendingApproval => "pending_approval",
            ExecutionStatus::Approved => "approved",
            ExecutionStatus::Rejected => "rejected",
            ExecutionStatus::Executing => "executing",
            ExecutionStatus::Completed => "completed",
            ExecutionStatus::Failed => "failed",
            ExecutionStatus::Expired => "expired",
        }
    }

    /// Whether it says the call was allowed (approved, executing, completed or failed).
    #[must_use]
    pub const fn was_allowed(self) -> bool {
        matches!(
            self,
            ExecutionStatus::Approved
                | ExecutionStatus::Executing
                | ExecutionStatus::Completed
                | ExecutionStatus::Failed
        )
    }
}

/// Keys of an action record that describe the record itself, not the operation: everything
/// else on a record of the approval guide's shape (`{"type":"send_email","recipient":…}`) is
/// an argument of the operation.
const RECORD_KEYS: &[&str] = &[
    "id",
    "type",
    "kind",
    "status",
    "version",
    "createdAt",
    "requestedAt",
    "expiresAt",
    "resolution",
    "resolvedBy",
    "resolvedAt",
    "messageId",
    "toolCallId",
    "executionStatus",
    "executionResult",
    "executionError",
    "sideEffects",
    "title",
    "summary",
    "description",
    "argsSchema",
    "args_schema",
    "inputSchema",
    "toolName",
    "tool_name",
    "history",
    "transitions",
    "decisionKey",
    "readOnlyArgs",
    "executionStartedAt",
    "executionEndedAt",
    "completedAt",
    "finishedAt",
];

/// The arguments of a guide-shaped record: its `args`/`arguments` when given, else every field
/// that is not about the record itself.
fn record_args(obj: &Map<String, Value>) -> Value {
    if let Some(a) = field(obj, &["args", "arguments"]) {
        return args_value(Some(a));
    }
    Value::Object(
        obj.iter()
            .filter(|(k, v)| !RECORD_KEYS.contains(&k.as_str()) && !v.is_null())
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
    )
}

/// Something the agent waits on: an approval, a question, or a client-side tool.
///
/// Reading never fails for an unknown `type`/`kind` (it becomes [`ActionKind::Unknown`]); it
/// fails only when the entry is not an object or has no `id`, and lists drop such entries.
#[derive(Debug, PartialEq)]
pub struct PendingAction {
    /// Action id, used in `POST /conversations/:cid/actions/:aid`.
    pub id: String,
    /// What is asked, with its kind-specific fields.
    pub kind: ActionKind,
    /// Where it stands (absent/unknown → [`ActionStatus::Pending`]).
    pub status: ActionStatus,
    /// Deadline (ISO string or epoch ms on the wire).
    pub expires_at: Option<Millis>,
    /// How it was settled (settled entries). A missing resolution `type` is inferred, see
    /// [`Resolution::from_json`].
    pub resolution: Option<Resolution>,
    /// Who settled it; [`RESOLVED_BY_TIMEOUT`] means the server expired it.
    pub resolved_by: Option<String>,
    /// Assistant message the card sits under; default: the last assistant message.
    pub message_id: Option<String>,
    /// Tool call this action belongs to.
    pub tool_call_id: Option<String>,
    /// Creation time (`createdAt`, or SDK `requestedAt`).
    pub created_at: Option<Millis>,
    /// Record version to echo back in `POST /conversations/:cid/actions/:aid`.
    pub version: Option<i64>,
    /// Execution progress after approval: `pending_approval`, `approved`, `executing`,
    /// `completed`, `rejected`, `expired`, `failed`, as sent; read it with
    /// [`PendingAction::execution`].
    pub execution_status: Option<String>,
    /// When it was settled (`resolvedAt`), for the receipt.
    pub resolved_at: Option<Millis>,
    /// What the tool returned once it ran (`executionResult`), for the receipt.
    pub execution_result: Option<Value>,
    /// Why the tool failed (`executionError`: a string or `{ message }`).
    pub execution_error: Option<String>,
    /// Cogitator `sideEffects`, kept for display.
    pub side_effects: Option<Value>,
    /// The record's own `status` in the approval guide's words (`approved`, `rejected`,
    /// `executing`, `completed`, `failed`, `expired`), kept because [`ActionStatus`] folds them
    /// into "resolved": a record that says no more than its status still reads its stage.
    pub stage: Option<ExecutionStatus>,
    /// When the tool started (`executionStartedAt`); filled in by the page when it saw the
    /// start itself and the server did not say.
    pub execution_started_at: Option<Millis>,
    /// When the tool finished (`executionEndedAt`, or `completedAt` / `finishedAt`); filled
    /// in like [`PendingAction::execution_started_at`].
    pub execution_ended_at: Option<Millis>,
    /// The record's transition history as the server keeps it (`history`, or `transitions`),
    /// oldest first; entries without a status are dropped.
    pub history: Vec<Transition>,
}

// Cloned by hand, not derived: a derived `clone` is `#[inline]`, so the UI crate compiled its
// own copy beside this crate's and the element's first download carried both (D104). This
// one is compiled here only; a new field fails to compile until it is added below.
impl Clone for PendingAction {
    fn clone(&self) -> Self {
        PendingAction {
            id: self.id.clone(),
            kind: self.kind.clone(),
            status: self.status,
            expires_at: self.expires_at,
            resolution: self.resolution.clone(),
            resolved_by: self.resolved_by.clone(),
            message_id: self.message_id.clone(),
            tool_call_id: self.tool_call_id.clone(),
            created_at: self.created_at,
            version: self.version,
            execution_status: self.execution_status.clone(),
            resolved_at: self.resolved_at,
            execution_result: self.execution_result.clone(),
            execution_error: self.execution_error.clone(),
            side_effects: self.side_effects.clone(),
            stage: self.stage,
            execution_started_at: self.execution_started_at,
            execution_ended_at: self.execution_ended_at,
            history: self.history.clone(),
        }
    }
}

/// One entry of a record's transition history.
#[derive(Clone, Debug, PartialEq)]
pub struct Transition {
    /// The stage it moved to, as sent (`status`, or `event` / `to`): `pending_approval`,
    /// `edited`, `approved`, `rejected`, `executing`, `completed`, `failed`, `expired`, …
    pub status: String,
    /// When (`at`, or `timestamp` / `time`).
    pub at: Option<Millis>,
    /// Who moved it (`by`, or `actor`).
    pub by: Option<String>,
    /// The record version it concerned.
    pub version: Option<i64>,
}

impl Transition {
    /// Reads one entry; `None` without a status.
    #[must_use]
    pub fn from_json(v: &Value) -> Option<Transition> {
        let obj = v.as_object()?;
        Some(Transition {
            status: field(obj, &["status", "event", "to"])
                .and_then(str_of)
                .filter(|s| !s.trim().is_empty())?,
            at: field(obj, &["at", "timestamp", "time"]).and_then(parse_timestamp),
            by: field(obj, &["by", "actor"]).and_then(str_of),
            version: obj.get("version").and_then(i64_of),
        })
    }

    /// The canonical JSON form.
    #[must_use]
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("status".into(), self.status.clone().into());
        if let Some(t) = self.at {
            m.insert("at".into(), format_iso(t).into());
        }
        insert_opt_str(&mut m, "by", self.by.as_deref());
        if let Some(v) = self.version {
            m.insert("version".into(), v.into());
        }
        Value::Object(m)
    }
}

/// The kind-specific part of a [`PendingAction`]. The wire tag is `type`, or `kind` (Console).
#[derive(Clone, Debug, PartialEq)]
pub enum ActionKind {
    /// `tool_approval`: allow or deny one tool call.
    ToolApproval(ToolApproval),
    /// `user_question`: one or more questions for the person.
    UserQuestion(UserQuestion),
    /// `client_tool`: for the host page, not for a person.
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

/// Fields of a `tool_approval` action.
#[derive(Debug, Default, PartialEq)]
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
    /// Arguments the server's policy does not let the person change (`readOnlyArgs`), besides
    /// the schema's `readOnly` properties.
    pub read_only_args: Vec<String>,
    /// Arguments the host page's policy does not let the person change (`Chat`'s
    /// `read_only_args`, by tool), added by the session; never read from or written to the wire.
    pub host_read_only_args: Vec<String>,
    /// Whether this one call's arguments may be edited (`argsEditable`), when the server says
    /// so card by card (a LangGraph interrupt's `allow_edit`); it wins over the agent's and
    /// the chat's setting.
    pub args_editable: Option<bool>,
    /// How this one call may be declined (`decline`), when the server says so card by card
    /// (a LangGraph interrupt's `allow_respond` / `allow_ignore`); absent: with or without a
    /// reason.
    pub decline: Option<Decline>,
}

// Cloned by hand, not derived: a derived `clone` is `#[inline]`, so the UI crate compiled its
// own copy beside this crate's and the element's first download carried both (D104). This
// one is compiled here only; a new field fails to compile until it is added below.
impl Clone for ToolApproval {
    fn clone(&self) -> Self {
        ToolApproval {
            tool_name: self.tool_name.clone(),
            args: self.args.clone(),
            args_schema: self.args_schema.clone(),
            title: self.title.clone(),
            summary: self.summary.clone(),
            read_only_args: self.read_only_args.clone(),
            host_read_only_args: self.host_read_only_args.clone(),
            args_editable: self.args_editable,
            decline: self.decline,
        }
    }
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
            stage: None,
            execution_started_at: None,
            execution_ended_at: None,
            history: Vec::new(),
        }
    }

    /// The execution stage the server reports, `None` when it reports none or one this
    /// client does not know.
    ///
    /// A record without `executionStatus` whose own `status` says `executing`, `completed` or
    /// `failed` reports that; its `approved` alone reports none (the card reads "Approved").
    #[must_use]
    pub fn execution(&self) -> Option<ExecutionStatus> {
        self.execution_status
            .as_deref()
            .and_then(ExecutionStatus::parse)
            .or(match self.stage {
                Some(
                    s @ (ExecutionStatus::Executing
                    | ExecutionStatus::Completed
                    | ExecutionStatus::Failed),
                ) => Some(s),
                _ => None,
            })
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
                read_only_args: list_of(obj.get("readOnlyArgs"), str_of),
                host_read_only_args: Vec::new(),
                args_editable: obj.get("argsEditable").and_then(bool_of),
                decline: obj
                    .get("decline")
                    .and_then(Value::as_str)
                    .and_then(Decline::parse),
            }),
            "user_question" => ActionKind::UserQuestion(UserQuestion {
                questions: list_of(obj.get("questions"), Question::from_json),
                allow_free_text: obj.get("allowFreeText").and_then(bool_of),
                summary: obj.get("summary").and_then(str_of),
            }),
            "client_tool" => ActionKind::ClientTool {
                tool_name: tool_name(),
                args: args_value(field(obj, &["args", "arguments"])),
            },
            // The approval guide's own record: the operation is its `type`, its status one of
            // the guide's words, its other fields the operation's arguments.
            t if !t.is_empty()
                && !obj.contains_key("questions")
                && obj
                    .get("status")
                    .and_then(Value::as_str)
                    .and_then(ExecutionStatus::parse_guide_word)
                    .is_some() =>
            {
                ActionKind::ToolApproval(ToolApproval {
                    tool_name: field(obj, &["toolName", "tool_name"])
                        .and_then(str_of)
                        .or_else(|| field(obj, &["type", "kind"]).and_then(str_of))
                        .unwrap_or_default(),
                    args: record_args(obj),
                    args_schema: field(obj, &["argsSchema", "args_schema", "inputSchema"]).cloned(),
                    title: obj.get("title").and_then(str_of),
                    summary: field(obj, &["summary", "description"]).and_then(str_of),
                    read_only_args: list_of(obj.get("readOnlyArgs"), str_of),
                    host_read_only_args: Vec::new(),
                    args_editable: obj.get("argsEditable").and_then(bool_of),
                    decline: obj
                        .get("decline")
                        .and_then(Value::as_str)
                        .and_then(Decline::parse),
                })
            }
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
            // A bare `pending` says nothing of the guide's lifecycle (and is what an entry
            // without a status is written back as).
            stage: obj
                .get("status")
                .and_then(Value::as_str)
                .filter(|s| normalise_tag(s) != "pending")
                .and_then(ExecutionStatus::parse),
            execution_started_at: obj.get("executionStartedAt").and_then(parse_timestamp),
            execution_ended_at: field(obj, &["executionEndedAt", "completedAt", "finishedAt"])
                .and_then(parse_timestamp),
            history: list_of(
                field(obj, &["history", "transitions"]),
                Transition::from_json,
            ),
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
                if !t.read_only_args.is_empty() {
                    m.insert("readOnlyArgs".into(), t.read_only_args.clone().into());
                }
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
        let status = match self.stage {
            Some(stage) if ActionStatus::parse(stage.as_str()) == Some(self.status) => {
                stage.as_str()
            }
            _ => self.status.as_str(),
        };
        m.insert("status".into(), status.into());
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
        if let Some(t) = self.execution_started_at {
            m.insert("executionStartedAt".into(), format_iso(t).into());
        }
        if let Some(t) = self.execution_ended_at {
            m.insert("executionEndedAt".into(), format_iso(t).into());
        }
        if !self.history.is_empty() {
            m.insert(
                "history".into(),
                self.history.iter().map(Transition::to_json).collect(),
            );
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
