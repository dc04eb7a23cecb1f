//! The results of a turn, read back: streamed (SSE whose `data` is a JSON-RPC response) or
//! whole, in either version.
//!
//! A2A 1.0 wraps each result in the name of its type (`{task}`, `{message}`,
//! `{statusUpdate}`, `{artifactUpdate}`), spells states `TASK_STATE_INPUT_REQUIRED` and roles
//! `ROLE_AGENT`, and gives parts no `kind` (a text part is `{text}`, a data part `{data}`).
//! A2A 0.3 names the type in `kind` (`task`, `message`, `status-update`,
//! `artifact-update`), spells states `input-required` and roles `agent`, and gives every part
//! its `kind`. Both are read into one model, so one reader serves both and a server that mixes
//! them is still read.
//!
//! Results are messages (agent text), tasks (artifacts, status), artifact updates (replace,
//! or append) and status updates; the answer shown is the artifacts' text, else the
//! messages'. `input-required` / `auth-required` end the turn with the task kept open, and
//! what it waits on becomes a card: the actions its status message names in a data part
//! (`pendingActions`), else one free-text question asking the status message's text. That
//! text is drawn once, by the card, not also as the reply's text. `failed`, `rejected` and
//! `canceled` end it with an error in the agent's words.

use serde_json::{json, Map, Value};

use super::super::reply::{drain_frames, Delta, Failure, FailureKind, Reply};
use super::{CONTEXT_KEY, TASK_KEY};
use crate::sse::SseFrameDecoder;

/// Reads the results of one turn.
#[derive(Debug, Default)]
pub struct Decoder {
    frames: SseFrameDecoder,
    artifacts: Vec<(String, String)>,
    message_text: String,
    status_text: String,
    context_id: Option<String>,
    task_id: Option<String>,
    /// The task's state, in 0.3's spelling (`input-required`).
    state: Option<String>,
    /// Actions the last status message names in a data part (`pendingActions`).
    status_actions: Option<Value>,
    /// The id of the last status message (the id of the card it becomes).
    status_message_id: Option<String>,
    /// The answer as streamed so far.
    shown: String,
    failed: bool,
}

impl Decoder {
    /// A decoder at the start of a turn.
    pub fn new() -> Decoder {
        Decoder::default()
    }

    /// Feeds streamed bytes as they arrived; returns what they completed.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<Delta> {
        self.frames.push(bytes);
        self.drain(false)
    }

    /// The stream ended: reads what was left.
    pub fn finish(&mut self) -> Vec<Delta> {
        self.drain(true)
    }

    /// Reads a whole JSON-RPC response (`SendMessage`, `message/send`).
    pub fn read_whole(&mut self, body: &str) -> Vec<Delta> {
        let mut out = Vec::new();
        self.rpc(body, &mut out);
        out
    }

    /// Whether the task waits for the person (input or authentication).
    fn waits(&self) -> bool {
        matches!(
            self.state.as_deref(),
            Some("input-required" | "auth-required")
        )
    }

    /// What the turn left: the answer's whole text, and the context and open task to keep
    /// for the next message (a task that did not wait for input is closed: `null`).
    pub fn ending(&self) -> Reply {
        let mut keep = Map::new();
        if let Some(context) = &self.context_id {
            keep.insert(CONTEXT_KEY.into(), Value::from(context.as_str()));
        }
        let open = self.waits();
        keep.insert(
            TASK_KEY.into(),
            match (&self.task_id, open) {
                (Some(task), true) => Value::from(task.as_str()),
                _ => Value::Null,
            },
        );
        let pending_actions = match (&self.task_id, open) {
            (Some(task), true) => self.waiting_actions(task),
            _ => None,
        };
        // The status text is the reply's only when no card asks it.
        let content = match (self.answer(), &pending_actions) {
            (answer, _) if !answer.is_empty() => answer,
            (_, Some(_)) if self.status_actions.is_none() => String::new(),
            _ => self.status_text.clone(),
        };
        // A task still at work is what Stop cancels; a finished or waiting one is not.
        let settled = self.waits()
            || matches!(
                self.state.as_deref(),
                Some("completed" | "failed" | "canceled" | "rejected")
            );
        Reply {
            content,
            keep,
            pending_actions,
            running: self.task_id.clone().filter(|_| !settled),
            ..Reply::default()
        }
    }

    /// What a task that waits for input waits on, as the agent server's pending actions:
    /// the actions its status message names in a data part (`pendingActions`, or one
    /// `pendingAction`), else one free-text question asking the status message's text, with
    /// the status message's id as the action's id (the task's, when it has none; a task asks
    /// again under a new message id). No card when the agent said nothing: the composer still
    /// continues the task. The card's heading is the chat's own, localized.
    fn waiting_actions(&self, task: &str) -> Option<Value> {
        if let Some(actions) = &self.status_actions {
            return Some(actions.clone());
        }
        let question = self.status_text.trim();
        let id = self.status_message_id.as_deref().unwrap_or(task);
        (!question.is_empty()).then(|| {
            json!([{ "id": id, "type": "user_question",
                     "questions": [{ "question": question, "allowFreeText": true }] }])
        })
    }

    fn drain(&mut self, end: bool) -> Vec<Delta> {
        let mut frames = std::mem::take(&mut self.frames);
        let out = drain_frames(&mut frames, end, |frame, out| self.rpc(&frame.data, out));
        self.frames = frames;
        out
    }

    fn rpc(&mut self, data: &str, out: &mut Vec<Delta>) {
        if data.trim().is_empty() {
            return;
        }
        let value: Value = match serde_json::from_str(data) {
            Ok(v) => v,
            Err(e) => return out.push(Delta::Skipped(format!("unreadable response: {e}"))),
        };
        if let Some(err) = value.get("error").filter(|e| !e.is_null()) {
            let failure = Failure::new(FailureKind::AgentError, err["message"].as_str());
            return self.fail(out, failure);
        }
        let Some(result) = value.get("result").filter(|r| r.is_object()) else {
            return out.push(Delta::Skipped(
                "a JSON-RPC response without a result".into(),
            ));
        };
        match typed(result) {
            Some((kind, inner)) => self.result(kind, inner, out),
            None => out.push(Delta::Skipped(format!(
                "a result of no known type: {}",
                keys_of(result)
            ))),
        }
    }

    fn result(&mut self, kind: Kind, result: &Value, out: &mut Vec<Delta>) {
        if let Some(context) = result["contextId"].as_str() {
            self.context_id = Some(context.to_owned());
        }
        let task = match kind {
            Kind::Task => result["id"].as_str(),
            _ => result["taskId"].as_str(),
        };
        if let Some(task) = task {
            self.task_id = Some(task.to_owned());
        }
        match kind {
            Kind::Message => {
                if role(&result["role"]) != "user" {
                    self.message_text.push_str(&parts_text(&result["parts"]));
                }
            }
            Kind::Task => {
                for artifact in result["artifacts"].as_array().into_iter().flatten() {
                    self.artifact(artifact, false);
                }
                self.status(&result["status"], out);
            }
            Kind::ArtifactUpdate => {
                let append = result["append"] == true;
                self.artifact(&result["artifact"], append);
            }
            Kind::StatusUpdate => self.status(&result["status"], out),
        }
        self.changed(out);
    }

    fn artifact(&mut self, artifact: &Value, append: bool) {
        let id = artifact["artifactId"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let text = parts_text(&artifact["parts"]);
        match self.artifacts.iter_mut().find(|(known, _)| *known == id) {
            Some((_, known)) if append => known.push_str(&text),
            Some((_, known)) => *known = text,
            None => self.artifacts.push((id, text)),
        }
    }

    fn status(&mut self, status: &Value, out: &mut Vec<Delta>) {
        let Some(state) = status["state"].as_str().map(state_name) else {
            return;
        };
        self.status_actions = data_actions(&status["message"]["parts"]);
        self.status_message_id = status["message"]["messageId"].as_str().map(str::to_owned);
        let text = parts_text(&status["message"]["parts"]);
        if !text.is_empty() {
            self.status_text = text;
        }
        let ended = match state.as_str() {
            "failed" => Some(FailureKind::TaskFailed),
            "rejected" => Some(FailureKind::TaskRejected),
            "canceled" => Some(FailureKind::TaskCanceled),
            _ => None,
        };
        if let Some(kind) = ended {
            let failure = Failure::new(kind, Some(self.status_text.as_str()));
            self.fail(out, failure);
        }
        self.state = Some(state);
    }

    /// The answer so far: the artifacts' text, else the agent messages' (status text is
    /// progress, shown only when the turn ends with nothing else).
    fn answer(&self) -> String {
        let artifacts: String = self
            .artifacts
            .iter()
            .map(|(_, t)| t.as_str())
            .filter(|t| !t.is_empty())
            .collect::<Vec<_>>()
            .join("\n\n");
        if artifacts.is_empty() {
            self.message_text.clone()
        } else {
            artifacts
        }
    }

    /// Streams what the answer grew by; a replaced answer is corrected when the turn ends.
    fn changed(&mut self, out: &mut Vec<Delta>) {
        let best = self.answer();
        if self.failed {
            return;
        }
        if let Some(rest) = best.strip_prefix(self.shown.as_str()) {
            if !rest.is_empty() {
                out.push(Delta::Text(rest.to_owned()));
            }
        }
        self.shown = best;
    }

    fn fail(&mut self, out: &mut Vec<Delta>, failure: Failure) {
        if !self.failed {
            self.failed = true;
            out.push(Delta::Error(failure));
        }
    }
}

/// The four types of result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Task,
    Message,
    StatusUpdate,
    ArtifactUpdate,
}

/// A result's type and the object that carries it: 0.3 names it in `kind`, 1.0 wraps the
/// object in the type's name.
fn typed(result: &Value) -> Option<(Kind, &Value)> {
    if let Some(kind) = result["kind"].as_str() {
        let kind = match kind {
            "task" => Kind::Task,
            "message" => Kind::Message,
            "status-update" => Kind::StatusUpdate,
            "artifact-update" => Kind::ArtifactUpdate,
            _ => return None,
        };
        return Some((kind, result));
    }
    [
        ("task", Kind::Task),
        ("message", Kind::Message),
        ("statusUpdate", Kind::StatusUpdate),
        ("artifactUpdate", Kind::ArtifactUpdate),
    ]
    .into_iter()
    .find_map(|(key, kind)| result.get(key).filter(|v| v.is_object()).map(|v| (kind, v)))
}

fn keys_of(value: &Value) -> String {
    value
        .as_object()
        .map(|o| o.keys().cloned().collect::<Vec<_>>().join(", "))
        .unwrap_or_default()
}

/// A state in 0.3's spelling: `TASK_STATE_INPUT_REQUIRED` is `input-required`.
fn state_name(state: &str) -> String {
    state
        .strip_prefix("TASK_STATE_")
        .map(|s| s.to_ascii_lowercase().replace('_', "-"))
        .unwrap_or_else(|| state.to_owned())
}

/// A role in 0.3's spelling: `ROLE_USER` is `user`.
fn role(role: &Value) -> String {
    let role = role.as_str().unwrap_or_default();
    role.strip_prefix("ROLE_")
        .map(str::to_ascii_lowercase)
        .unwrap_or_else(|| role.to_owned())
}

/// Whether a part is of `kind` (`text`, `data`): named so (0.3, or a `type`), or, in 1.0,
/// carrying that field.
fn is_part(part: &Value, kind: &str) -> bool {
    match part["kind"].as_str().or_else(|| part["type"].as_str()) {
        Some(named) => named == kind,
        None => part.get(kind).is_some_and(|v| !v.is_null()),
    }
}

/// The pending actions a message's data part carries (`pendingActions`, or one
/// `pendingAction`), when it carries any.
fn data_actions(parts: &Value) -> Option<Value> {
    parts
        .as_array()?
        .iter()
        .filter(|p| is_part(p, "data"))
        .find_map(|p| {
            let data = &p["data"];
            match (&data["pendingActions"], &data["pendingAction"]) {
                (Value::Array(list), _) if !list.is_empty() => Some(Value::Array(list.clone())),
                (_, one @ Value::Object(_)) => Some(Value::Array(vec![one.clone()])),
                _ => None,
            }
        })
}

/// The text parts of an A2A message or artifact, joined.
fn parts_text(parts: &Value) -> String {
    parts
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| is_part(p, "text"))
        .filter_map(|p| p["text"].as_str())
        .collect::<Vec<_>>()
        .join("")
}

super::super::reply::reply_decoder!(Decoder, whole);
