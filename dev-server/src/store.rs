//! In-memory storage: conversations with their messages, uploaded files, pending actions and
//! the per-conversation "busy" flags.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use serde_json::{json, Value};
use tokio::sync::mpsc::WeakUnboundedSender;

use crate::model::{now_iso, Conversation, FileRecord, Message};
use crate::sse::EventSender;

/// A conversation plus its messages (oldest first).
#[derive(Debug, Clone)]
pub struct ConversationEntry {
    /// The conversation as sent on the wire.
    pub conversation: Conversation,
    /// Creation order (listing is newest-created first).
    pub seq: u64,
    /// Messages, oldest first.
    pub messages: Vec<Message>,
}

/// An uploaded file and its bytes.
#[derive(Debug, Clone)]
pub struct FileEntry {
    /// Metadata as sent on the wire.
    pub record: FileRecord,
    /// Decoded content.
    pub bytes: Vec<u8>,
}

/// An action's status and the `resolvedBy` of one the server denied at its deadline are the
/// chat's own wire vocabulary.
pub use agent_chat_core::wire::{ActionStatus, RESOLVED_BY_TIMEOUT as TIMEOUT_RESOLVER};

/// A pending (or settled) action raised by an agent turn.
#[derive(Debug, Clone)]
pub struct ActionRecord {
    /// `act_…` id.
    pub id: String,
    /// Conversation the action belongs to.
    pub conversation_id: String,
    /// Assistant message the card sits under (the paused turn's message).
    pub message_id: String,
    /// Agent that raised it (decides the continuation).
    pub agent_id: String,
    /// `tool_approval`, `user_question` or `client_tool`.
    pub kind: String,
    /// The action's own fields (id, type, toolName, args, argsSchema, questions, expiresAt, …).
    pub body: Value,
    /// Current status.
    pub status: ActionStatus,
    /// Deadline, if any.
    pub expires_at: Option<DateTime<Utc>>,
    /// Record version (seed 004): 1 when raised, changed only by `POST /_dev/reissue`.
    pub version: u64,
    /// The settling resolution.
    pub resolution: Option<Value>,
    /// Who settled it (`user:<id>`, `user`, `system:timeout`).
    pub resolved_by: Option<String>,
    /// `decisionKey` of the accepted answer, for idempotent retries.
    pub decision_key: Option<String>,
    /// seed 004 execution status of tool approvals.
    pub execution_status: Option<String>,
    /// What the tool returned (`executionResult`).
    pub execution_result: Option<Value>,
    /// Why the tool failed (`executionError`).
    pub execution_error: Option<String>,
    /// When it was settled (`resolvedAt`).
    pub resolved_at: Option<DateTime<Utc>>,
    /// Id of the assistant message that continued the turn after the answer.
    pub continuation_message_id: Option<String>,
    /// Creation order.
    pub seq: u64,
}

impl ActionRecord {
    /// True for kinds a person answers (they block the composer).
    pub fn is_person_facing(&self) -> bool {
        self.kind == "tool_approval" || self.kind == "user_question"
    }

    /// True when the action was denied by the server at its deadline (or lapsed).
    pub fn is_timed_out(&self) -> bool {
        self.status == ActionStatus::Expired
            || self.resolved_by.as_deref() == Some(TIMEOUT_RESOLVER)
    }

    /// The action as a wire `PendingAction` (with status, resolution, resolvedBy once settled).
    pub fn to_json(&self) -> Value {
        let mut v = self.body.clone();
        if let Some(obj) = v.as_object_mut() {
            obj.insert("status".into(), json!(self.status.as_str()));
            obj.insert("version".into(), json!(self.version));
            if let Some(r) = &self.resolution {
                obj.insert("resolution".into(), r.clone());
            }
            if let Some(by) = &self.resolved_by {
                obj.insert("resolvedBy".into(), json!(by));
            }
            if let Some(es) = &self.execution_status {
                obj.insert("executionStatus".into(), json!(es));
            }
            if let Some(r) = &self.execution_result {
                obj.insert("executionResult".into(), r.clone());
            }
            if let Some(e) = &self.execution_error {
                obj.insert("executionError".into(), json!(e));
            }
            if let Some(at) = &self.resolved_at {
                obj.insert("resolvedAt".into(), json!(crate::model::iso(*at)));
            }
        }
        v
    }
}

/// One E14 request as the server received it, for `GET /_dev/resolutions`.
#[derive(Debug, Clone)]
pub struct ReceivedResolution {
    /// `:conversationId` of the path.
    pub conversation_id: String,
    /// `:actionId` of the path.
    pub action_id: String,
    /// The caller's user id (`None` = anonymous).
    pub user_id: Option<String>,
    /// The body's `resolution` exactly as posted (`Null` when the body had none or was not JSON).
    pub resolution: Value,
    /// The body's `version` exactly as posted (`Null` when the body had none or was not JSON).
    pub version: Value,
    /// The body's `decisionKey` exactly as posted (`Null` when absent).
    pub decision_key: Value,
    /// HTTP status of the answer; `None` while the request is still being handled (a
    /// non-streaming answer waits for the whole continuation).
    pub status: Option<u16>,
}

impl ReceivedResolution {
    /// Wire form: `{ conversationId, actionId, userId, resolution, version, status }`, plus
    /// `decisionKey` when the body had one.
    pub fn to_json(&self) -> Value {
        json!({
            "conversationId": self.conversation_id,
            "actionId": self.action_id,
            "userId": self.user_id,
            "resolution": self.resolution,
            "version": self.version,
            "status": self.status,
        })
        .as_object()
        .cloned()
        .map(|mut o| {
            if !self.decision_key.is_null() {
                o.insert("decisionKey".into(), self.decision_key.clone());
            }
            Value::Object(o)
        })
        .unwrap_or(Value::Null)
    }
}

/// What happens to the next E14 request of a conversation (`POST /_dev/next-answer`), so tests
/// can reproduce refusals and dropped connections a browser cannot cause on its own.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AnswerFault {
    /// Refuse the request with this §9.10 / §2 code; the action stays as it was.
    pub refuse: Option<&'static str>,
    /// Accepted with `stream: true`: close the stream after this many events while the
    /// continuation goes on and is stored (a running turn, PROTOCOL §9.9).
    pub cut_stream_after: Option<usize>,
    /// Accepted: hold the response back this long after the action was settled (an answer
    /// still on its way when the deadline passes).
    pub delay_ms: Option<u64>,
    /// Accepted approval: the tool fails with this message (`executionStatus: failed`).
    pub fail_execution: Option<String>,
    /// An approval with edited arguments is not settled: the action is re-issued as a new
    /// version with the edited arguments, to be approved itself (seed 004).
    pub new_version_on_edit: bool,
    /// After this answer, the conversation's next E5 is held back this long: the page's
    /// Checking status lasts until its lookup is answered, long enough to be seen.
    pub lookup_delay_ms: Option<u64>,
}

/// The whole in-memory database.
#[derive(Debug, Default)]
pub struct Store {
    conversations: HashMap<String, ConversationEntry>,
    files: HashMap<String, FileEntry>,
    actions: HashMap<String, ActionRecord>,
    busy: HashSet<String>,
    received: Vec<ReceivedResolution>,
    faults: HashMap<String, AnswerFault>,
    /// A delay for the next E5 of a conversation ([`AnswerFault::lookup_delay_ms`]).
    lookup_delays: HashMap<String, u64>,
    /// The stream of each conversation's latest streaming turn; weak, so it never keeps a
    /// response open: it upgrades only while that turn still streams.
    live_streams: HashMap<String, WeakUnboundedSender<Value>>,
    /// How many times each approved tool ran (seed 004: never twice).
    executions: HashMap<String, u32>,
    /// The page's lazy chunks are refused (`POST /_dev/chunks`, issue 16).
    pub chunks_blocked: bool,
    /// While `chunks_blocked`: the parts still served (their `split_<name>.wasm` and every
    /// shared `chunk_*.wasm`); empty refuses every chunk.
    pub chunks_spared: Vec<String>,
    /// Whether the main wasm is served, held back or refused (`POST /_dev/wasm`).
    pub wasm_gate: crate::routes::dev_hold::WasmGate,
    /// Every endpoint answers a redirect to this other origin (`POST /_dev/redirect`).
    pub redirect_to: Option<String>,
    /// Every request answered with that redirect, as `METHOD path?query`, oldest first
    /// (`GET /_dev/redirect`): what the page asked for and was sent elsewhere.
    pub redirected: Vec<String>,
    seq: u64,
}

impl Store {
    /// Next value of the global creation counter.
    pub fn next_seq(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }

    /// Looks a conversation up.
    pub fn conversation(&self, id: &str) -> Option<&ConversationEntry> {
        self.conversations.get(id)
    }

    /// Looks a conversation up for change.
    pub fn conversation_mut(&mut self, id: &str) -> Option<&mut ConversationEntry> {
        self.conversations.get_mut(id)
    }

    /// All conversations, newest-created first.
    pub fn conversations_newest_first(&self) -> Vec<&ConversationEntry> {
        let mut all: Vec<&ConversationEntry> = self.conversations.values().collect();
        all.sort_by_key(|e| std::cmp::Reverse(e.seq));
        all
    }

    /// Inserts a new conversation.
    pub fn insert_conversation(&mut self, conversation: Conversation) {
        let seq = self.next_seq();
        self.conversations.insert(
            conversation.id.clone(),
            ConversationEntry {
                conversation,
                seq,
                messages: Vec::new(),
            },
        );
    }

    /// Deletes a conversation with its messages and actions. Returns false when unknown.
    pub fn remove_conversation(&mut self, id: &str) -> bool {
        let existed = self.conversations.remove(id).is_some();
        self.actions.retain(|_, a| a.conversation_id != id);
        self.live_streams.remove(id);
        existed
    }

    /// Appends a message and bumps the conversation's `updatedAt`.
    pub fn push_message(&mut self, conversation_id: &str, message: Message) -> bool {
        match self.conversations.get_mut(conversation_id) {
            Some(entry) => {
                entry.conversation.updated_at = message.created_at.clone();
                entry.messages.push(message);
                true
            }
            None => false,
        }
    }

    /// Stores an uploaded file.
    pub fn insert_file(&mut self, entry: FileEntry) {
        self.files.insert(entry.record.id.clone(), entry);
    }

    /// Looks an uploaded file up.
    pub fn file(&self, id: &str) -> Option<&FileEntry> {
        self.files.get(id)
    }

    /// Deletes an uploaded file. Returns false when unknown.
    pub fn remove_file(&mut self, id: &str) -> bool {
        self.files.remove(id).is_some()
    }

    /// Registers a new action.
    pub fn insert_action(&mut self, action: ActionRecord) {
        self.actions.insert(action.id.clone(), action);
    }

    /// Looks an action up.
    pub fn action(&self, id: &str) -> Option<&ActionRecord> {
        self.actions.get(id)
    }

    /// Records the id of the continuation message of a settled action.
    pub fn set_continuation(&mut self, action_id: &str, message_id: &str) {
        if let Some(a) = self.actions.get_mut(action_id) {
            a.continuation_message_id = Some(message_id.to_string());
        }
    }

    /// Open actions of a conversation, oldest first.
    pub fn open_actions(&self, conversation_id: &str) -> Vec<&ActionRecord> {
        let mut open: Vec<&ActionRecord> = self
            .actions
            .values()
            .filter(|a| a.conversation_id == conversation_id && a.status == ActionStatus::Pending)
            .collect();
        open.sort_by_key(|a| a.seq);
        open
    }

    /// Settles an action and mirrors the outcome into the paused message's
    /// `metadata.pendingActions` entry (§9.6). Returns the settled action as JSON.
    pub fn settle_action(
        &mut self,
        action_id: &str,
        status: ActionStatus,
        resolution: Option<Value>,
        resolved_by: Option<String>,
        execution_status: Option<&str>,
    ) -> Option<Value> {
        let action = self.actions.get_mut(action_id)?;
        action.status = status;
        action.resolution = resolution;
        action.resolved_by = resolved_by;
        action.resolved_at = Some(Utc::now());
        if action.kind == "tool_approval" {
            action.execution_status = execution_status.map(str::to_string);
        }
        let settled = action.to_json();
        let (conversation_id, message_id) =
            (action.conversation_id.clone(), action.message_id.clone());
        self.update_message_action_entry(&conversation_id, &message_id, action_id, &settled);
        Some(settled)
    }

    /// Updates `executionStatus` of a tool approval (e.g. `completed` once the tool ran).
    pub fn set_execution_status(&mut self, action_id: &str, execution_status: &str) {
        let Some(action) = self.actions.get_mut(action_id) else {
            return;
        };
        if action.kind != "tool_approval" {
            return;
        }
        action.execution_status = Some(execution_status.to_string());
        let settled = action.to_json();
        let (conversation_id, message_id) =
            (action.conversation_id.clone(), action.message_id.clone());
        self.update_message_action_entry(&conversation_id, &message_id, action_id, &settled);
    }

    /// Records what came of running an approved tool (seed 004): `completed` with its result or
    /// `failed` with why, and counts the run (`GET /_dev/executions`). Returns the record.
    pub fn finish_execution(
        &mut self,
        action_id: &str,
        result: Result<Value, String>,
    ) -> Option<Value> {
        let action = self.actions.get_mut(action_id)?;
        match result {
            Ok(r) => {
                action.execution_status = Some("completed".into());
                action.execution_result = Some(r);
            }
            Err(e) => {
                action.execution_status = Some("failed".into());
                action.execution_error = Some(e);
            }
        }
        let record = action.to_json();
        let (conversation_id, message_id) =
            (action.conversation_id.clone(), action.message_id.clone());
        *self.executions.entry(action_id.to_string()).or_default() += 1;
        self.update_message_action_entry(&conversation_id, &message_id, action_id, &record);
        Some(record)
    }

    /// How many times the tool of `action_id` really ran.
    pub fn executions(&self, action_id: &str) -> u32 {
        self.executions.get(action_id).copied().unwrap_or(0)
    }

    /// The record of `action_id` as JSON.
    pub fn action_json(&self, action_id: &str) -> Option<Value> {
        self.actions.get(action_id).map(ActionRecord::to_json)
    }

    /// Records the `decisionKey` of the accepted answer.
    pub fn set_decision_key(&mut self, action_id: &str, key: Option<String>) {
        if let Some(a) = self.actions.get_mut(action_id) {
            a.decision_key = key;
        }
    }

    fn update_message_action_entry(
        &mut self,
        conversation_id: &str,
        message_id: &str,
        action_id: &str,
        settled: &Value,
    ) {
        let Some(entry) = self.conversations.get_mut(conversation_id) else {
            return;
        };
        let Some(message) = entry.messages.iter_mut().find(|m| m.id == message_id) else {
            return;
        };
        let Some(list) = message
            .metadata
            .get_mut("pendingActions")
            .and_then(Value::as_array_mut)
        else {
            return;
        };
        for item in list.iter_mut() {
            if item.get("id").and_then(Value::as_str) == Some(action_id) {
                *item = settled.clone();
            }
        }
        message.updated_at = now_iso();
    }

    /// Denies every due pending action (of one conversation, or all) on the server's behalf:
    /// status `resolved`, `resolvedBy: "system:timeout"`, then appends the agent's continuation
    /// message. Nothing is emitted to any stream. Returns how many actions lapsed.
    pub fn expire_due(&mut self, conversation_id: Option<&str>, now: DateTime<Utc>) -> usize {
        let mut due: Vec<(u64, String)> = self
            .actions
            .values()
            .filter(|a| {
                a.status == ActionStatus::Pending
                    && conversation_id.is_none_or(|c| a.conversation_id == c)
                    && a.expires_at.is_some_and(|t| t <= now)
            })
            .map(|a| (a.seq, a.id.clone()))
            .collect();
        due.sort();
        for (_, id) in &due {
            let Some(action) = self.actions.get(id).cloned() else {
                continue;
            };
            let resolution = if action.kind == "user_question" {
                json!({ "type": "user_question", "answers": {}, "cancelled": true })
            } else if action.kind == "client_tool" {
                json!({ "type": "client_tool", "error": "The request expired." })
            } else {
                json!({ "type": "tool_approval", "decision": "deny" })
            };
            self.settle_action(
                id,
                ActionStatus::Resolved,
                Some(resolution),
                Some(TIMEOUT_RESOLVER.to_string()),
                Some("expired"),
            );
            let text = crate::scripts::timeout_reply(&action);
            let message_id = crate::ids::new_id("msg");
            let message = Message::new(
                message_id.clone(),
                &action.conversation_id,
                "assistant",
                text,
            );
            self.push_message(&action.conversation_id, message);
            self.set_continuation(id, &message_id);
        }
        due.len()
    }

    /// Marks a conversation busy; false when it already is.
    pub fn try_acquire_busy(&mut self, conversation_id: &str) -> bool {
        self.busy.insert(conversation_id.to_string())
    }

    /// True while a turn of the conversation runs.
    pub fn is_busy(&self, conversation_id: &str) -> bool {
        self.busy.contains(conversation_id)
    }

    /// Clears the busy flag.
    pub fn release_busy(&mut self, conversation_id: &str) {
        self.busy.remove(conversation_id);
    }

    /// Logs an arriving E14 request (status still unknown); returns its slot for
    /// [`Store::set_received_status`].
    pub fn record_received(&mut self, entry: ReceivedResolution) -> usize {
        self.received.push(entry);
        self.received.len() - 1
    }

    /// Sets the HTTP status the server answered a logged E14 request with.
    pub fn set_received_status(&mut self, slot: usize, status: u16) {
        if let Some(entry) = self.received.get_mut(slot) {
            entry.status = Some(status);
        }
    }

    /// Every logged E14 request in arrival order (of one conversation when given).
    pub fn received(&self, conversation_id: Option<&str>) -> Vec<&ReceivedResolution> {
        self.received
            .iter()
            .filter(|r| conversation_id.is_none_or(|c| r.conversation_id == c))
            .collect()
    }

    /// Arms `fault` for the next E14 request of `conversation_id` (replacing an armed one).
    pub fn arm_answer_fault(&mut self, conversation_id: &str, fault: AnswerFault) {
        self.faults.insert(conversation_id.to_string(), fault);
    }

    /// Takes (disarms) the fault armed for the conversation's next E14 request; its lookup
    /// delay, if any, now waits for the conversation's next E5.
    pub fn take_answer_fault(&mut self, conversation_id: &str) -> Option<AnswerFault> {
        let fault = self.faults.remove(conversation_id)?;
        if let Some(ms) = fault.lookup_delay_ms {
            self.lookup_delays.insert(conversation_id.to_string(), ms);
        }
        Some(fault)
    }

    /// Takes the delay armed for this E5 of the conversation, if any.
    pub fn take_lookup_delay(&mut self, conversation_id: &str) -> Option<u64> {
        self.lookup_delays.remove(conversation_id)
    }

    /// Lets a pending action lapse now, exactly as at its deadline ([`Store::expire_due`]):
    /// settled by `system:timeout`, with the agent's continuation appended. The advertised
    /// `expiresAt` is left as it was, so a client still counts down to it. Returns the settled
    /// action, `Err(None)` when unknown, `Err(Some(status))` when it is no longer pending.
    pub fn expire_now(
        &mut self,
        action_id: &str,
        now: DateTime<Utc>,
    ) -> Result<Value, Option<ActionStatus>> {
        let action = self.actions.get_mut(action_id).ok_or(None)?;
        if action.status != ActionStatus::Pending {
            return Err(Some(action.status));
        }
        action.expires_at = Some(now);
        let conversation_id = action.conversation_id.clone();
        self.expire_due(Some(&conversation_id), now);
        self.actions
            .get(action_id)
            .map(ActionRecord::to_json)
            .ok_or(None)
    }

    /// Remembers the event stream of a streaming turn of the conversation (replacing the
    /// previous turn's), so events that do not come from the turn can reach the page too.
    pub fn set_live_stream(&mut self, conversation_id: &str, sink: &EventSender) {
        self.live_streams
            .insert(conversation_id.to_string(), sink.downgrade());
    }

    /// The conversation's open event stream: `Some` only while a streaming turn still holds it.
    pub fn live_stream(&self, conversation_id: &str) -> Option<EventSender> {
        self.live_streams
            .get(conversation_id)
            .and_then(WeakUnboundedSender::upgrade)
    }

    /// Re-issues a pending action under the same id, as an agent that changed its request:
    /// new `args` when given (else kept), `version` when given (else the current one + 1),
    /// mirrored into the paused message's `metadata.pendingActions` entry. Status, deadline
    /// and everything else stay. Returns the action as it is now, `Err(None)` when unknown,
    /// `Err(Some(status))` when it is no longer pending.
    pub fn reissue_action(
        &mut self,
        action_id: &str,
        args: Option<Value>,
        version: Option<u64>,
    ) -> Result<ActionRecord, Option<ActionStatus>> {
        let action = self.actions.get_mut(action_id).ok_or(None)?;
        if action.status != ActionStatus::Pending {
            return Err(Some(action.status));
        }
        if let (Some(args), Some(body)) = (args, action.body.as_object_mut()) {
            body.insert("args".into(), args);
        }
        action.version = version.unwrap_or(action.version.saturating_add(1));
        let action = action.clone();
        let (conversation_id, message_id) = (&action.conversation_id, &action.message_id);
        self.update_message_action_entry(conversation_id, message_id, action_id, &action.to_json());
        Ok(action)
    }
}
