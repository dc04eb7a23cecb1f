//! A2A (Agent2Agent, JSON-RPC 2.0) on the wire (issue 15, TRANSPORTS.md): the agent card, the
//! `message/send` / `message/stream` request a turn sends, and the results read back.
//!
//! The JSON-RPC endpoint is the base URL. The card at `{baseUrl}/.well-known/agent-card.json`
//! names the one agent (its name and description in the picker). A conversation keeps its
//! `contextId`, and the `taskId` of a task that waits for input, so the next message goes on
//! with it (A2A's own way to answer `input-required`). Results are messages (agent text),
//! tasks (artifacts, status), artifact updates (replace, or append) and status updates; the
//! answer shown is the artifacts' text, else the messages', else the status message's.
//! `input-required` / `auth-required` end the turn with the task kept open; `failed`,
//! `rejected` and `canceled` end it with an error.

use serde_json::{json, Map, Value};

use super::backend::{
    fill_action_url, settle_waiting, AnswerCall, Backend, Capabilities, ReadError, SendCall,
    WireCall,
};
use super::reply::{drain_frames, Delta, Reply, ReplyDecoder, WireFile};
use super::threads::Thread;
use super::TransportOptions;
use crate::core::sse::SseFrameDecoder;
use crate::core::{HttpResponse, TransportError};

/// Where the agent card is, below the base URL.
pub const CARD_PATH: &str = "/.well-known/agent-card.json";
/// The JSON-RPC endpoint, below the base URL: the base URL itself.
pub const RPC_PATH: &str = "";
/// The conversation metadata key of the A2A context.
pub const CONTEXT_KEY: &str = "a2aContextId";
/// The conversation metadata key of the task that waits for input.
pub const TASK_KEY: &str = "a2aTaskId";

/// The agent a card describes: `(name, description)`; `None` when it is not a card.
pub fn read_card(body: &str) -> Option<(String, Option<String>)> {
    let card: Value = serde_json::from_str(body).ok()?;
    let name = card["name"].as_str().filter(|n| !n.trim().is_empty())?;
    Some((
        name.to_owned(),
        card["description"].as_str().map(str::to_owned),
    ))
}

/// The JSON-RPC request of a turn: the person's message (text, and files as `file` parts
/// with their bytes), in the conversation's context and open task, if any.
pub fn request_body(
    rpc_id: u64,
    message_id: &str,
    text: &str,
    files: &[WireFile],
    stream: bool,
    metadata: &Value,
) -> Value {
    let mut parts = vec![json!({ "kind": "text", "text": text })];
    for f in files {
        parts.push(json!({ "kind": "file", "file": {
            "name": f.name, "mimeType": f.mime_type, "bytes": f.content } }));
    }
    let mut message = json!({ "kind": "message", "messageId": message_id, "role": "user",
                              "parts": parts });
    if let Some(context) = metadata[CONTEXT_KEY].as_str() {
        message["contextId"] = Value::from(context);
    }
    if let Some(task) = metadata[TASK_KEY].as_str() {
        message["taskId"] = Value::from(task);
    }
    let method = if stream {
        "message/stream"
    } else {
        "message/send"
    };
    json!({ "jsonrpc": "2.0", "id": rpc_id, "method": method,
            "params": { "message": message } })
}

/// Reads the results of a turn, streamed (SSE whose `data` is a JSON-RPC response) or whole.
#[derive(Debug, Default)]
pub struct Decoder {
    frames: SseFrameDecoder,
    artifacts: Vec<(String, String)>,
    message_text: String,
    status_text: String,
    context_id: Option<String>,
    task_id: Option<String>,
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

    /// Reads a whole JSON-RPC response (`message/send`).
    pub fn read_whole(&mut self, body: &str) -> Vec<Delta> {
        let mut out = Vec::new();
        self.rpc(body, &mut out);
        out
    }

    /// What the turn left: the answer's whole text, and the context and open task to keep
    /// for the next message (a task that did not wait for input is closed: `null`).
    pub fn ending(&self) -> Reply {
        let mut keep = Map::new();
        if let Some(context) = &self.context_id {
            keep.insert(CONTEXT_KEY.into(), Value::from(context.as_str()));
        }
        let open = matches!(
            self.state.as_deref(),
            Some("input-required" | "auth-required")
        );
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
        Reply {
            content: if self.answer().is_empty() {
                self.status_text.clone()
            } else {
                self.answer()
            },
            keep,
            pending_actions,
            ..Reply::default()
        }
    }

    /// What a task that waits for input waits on, as the agent server's pending actions
    /// (C19): the actions its status message names in a data part (`pendingActions`, or one
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
            let wording = err["message"]
                .as_str()
                .unwrap_or("The agent reported an error.")
                .to_owned();
            return self.fail(out, wording);
        }
        let Some(result) = value.get("result").filter(|r| r.is_object()) else {
            return out.push(Delta::Skipped(
                "a JSON-RPC response without a result".into(),
            ));
        };
        self.result(result, out);
    }

    fn result(&mut self, result: &Value, out: &mut Vec<Delta>) {
        if let Some(context) = result["contextId"].as_str() {
            self.context_id = Some(context.to_owned());
        }
        match result["kind"].as_str().unwrap_or_default() {
            "message" => {
                if let Some(task) = result["taskId"].as_str() {
                    self.task_id = Some(task.to_owned());
                }
                if result["role"] != "user" {
                    self.message_text.push_str(&parts_text(&result["parts"]));
                }
            }
            "task" => {
                if let Some(task) = result["id"].as_str() {
                    self.task_id = Some(task.to_owned());
                }
                for artifact in result["artifacts"].as_array().into_iter().flatten() {
                    self.artifact(artifact, false);
                }
                self.status(&result["status"], out);
            }
            "artifact-update" => {
                if let Some(task) = result["taskId"].as_str() {
                    self.task_id = Some(task.to_owned());
                }
                let append = result["append"] == true;
                self.artifact(&result["artifact"], append);
            }
            "status-update" => {
                if let Some(task) = result["taskId"].as_str() {
                    self.task_id = Some(task.to_owned());
                }
                self.status(&result["status"], out);
            }
            other => out.push(Delta::Skipped(format!("unknown result kind {other:?}"))),
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
        let Some(state) = status["state"].as_str() else {
            return;
        };
        self.state = Some(state.to_owned());
        self.status_actions = data_actions(&status["message"]["parts"]);
        self.status_message_id = status["message"]["messageId"].as_str().map(str::to_owned);
        let text = parts_text(&status["message"]["parts"]);
        if !text.is_empty() {
            self.status_text = text;
        }
        if matches!(state, "failed" | "rejected" | "canceled") {
            let wording = if self.status_text.is_empty() {
                format!("The agent ended the task ({state}).")
            } else {
                self.status_text.clone()
            };
            self.fail(out, wording);
        }
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

    fn fail(&mut self, out: &mut Vec<Delta>, wording: String) {
        if !self.failed {
            self.failed = true;
            out.push(Delta::Error(wording));
        }
    }
}

/// The pending actions a message's data part carries (`pendingActions`, or one
/// `pendingAction`), when it carries any.
fn data_actions(parts: &Value) -> Option<Value> {
    parts
        .as_array()?
        .iter()
        .filter(|p| p["kind"] == "data" || p["type"] == "data")
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
        .filter(|p| p["kind"] == "text" || p["type"] == "text")
        .filter_map(|p| p["text"].as_str())
        .collect::<Vec<_>>()
        .join("")
}

/// What A2A can do: conversations in the page with their context and open task; a task that
/// waits for input is answered by the next message, cards at a configured action endpoint
/// (C19).
pub const CAPABILITIES: Capabilities = Capabilities {
    names: &["a2a"],
    named_by_page: true,
    keeps_threads: true,
    can_resolve: true,
    answers_at_action_url: true,
    remembers: true,
    runs_in_page: false,
    storage_tag: Some("a2a"),
};

/// A2A behind the gateway.
pub fn build(_: &TransportOptions) -> Option<Box<dyn Backend>> {
    Some(Box::new(A2a::default()))
}

/// A2A as a [`Backend`]: its one agent is named by its card, once read.
#[derive(Debug, Default)]
pub struct A2a {
    card: Option<(String, Option<String>)>,
}

impl Backend for A2a {
    fn capabilities(&self) -> &'static Capabilities {
        &CAPABILITIES
    }

    /// The card, until it is read (asked for again after a failure).
    fn agents_request(&self) -> Option<&'static str> {
        self.card.is_none().then_some(CARD_PATH)
    }

    fn agents_read(&mut self, result: &Result<HttpResponse, TransportError>) -> Option<String> {
        self.card = match result {
            Ok(resp) if (200..300).contains(&resp.status) => read_card(&resp.body),
            _ => None,
        };
        if self.card.is_some() {
            return None;
        }
        let why = match result {
            Ok(resp) => format!("answered {}", resp.status),
            Err(e) => e.to_string(),
        };
        Some(format!(
            "a2a: no agent card at {CARD_PATH} ({why}); it is asked for again next time"
        ))
    }

    /// One agent: the card's name and description, else the configured agent id.
    fn agents(&self, options: &TransportOptions) -> Value {
        let id = options.agent();
        let mut agent = json!({ "id": id, "name": id });
        if let Some((name, description)) = &self.card {
            agent["name"] = Value::from(name.as_str());
            if let Some(d) = description {
                agent["description"] = Value::from(d.as_str());
            }
        }
        json!({ "agents": [agent] })
    }

    fn send_request(&self, send: &SendCall<'_>) -> WireCall {
        let metadata = &send.thread.conversation["metadata"];
        let (id, text, files) = (send.message_id, send.text, send.files);
        let body = request_body(send.rpc_id, id, text, files, send.stream, metadata);
        WireCall {
            path: RPC_PATH.to_owned(),
            body,
        }
    }

    /// The message answers the question its task waits on.
    fn on_new_message(&self, thread: &mut Thread, at: &str) -> Vec<(String, &'static str)> {
        settle_waiting(thread, at, "resolved")
    }

    /// `POST {actionUrl}` with `{conversationId, actionId, resolution}`, where
    /// `conversationId` is the A2A context (the page's own id when there is none yet), plus
    /// `taskId`, `stream` and `decisionKey`.
    fn answer_request(&self, answer: &AnswerCall<'_>) -> Result<WireCall, (u16, String)> {
        let metadata = &answer.thread.conversation["metadata"];
        let context = metadata[CONTEXT_KEY]
            .as_str()
            .unwrap_or(answer.thread.id())
            .to_owned();
        let mut body = json!({ "conversationId": context, "actionId": answer.action_id,
                               "resolution": answer.resolution, "stream": answer.stream });
        if let Some(task) = metadata[TASK_KEY].as_str() {
            body["taskId"] = Value::from(task);
        }
        body["decisionKey"] = Value::from(answer.decision_key);
        let path = fill_action_url(answer.action_url(), answer.action_id, &context);
        Ok(WireCall { path, body })
    }

    fn decoder(&self) -> Box<dyn ReplyDecoder> {
        Box::new(Decoder::new())
    }

    /// One JSON document: the agent's failure in its words, or unreadable as a whole.
    fn read_reply(&self, body: &str) -> Result<Reply, ReadError> {
        let mut decoder = Decoder::new();
        let deltas = decoder.read_whole(body);
        if let Some(wording) = deltas.iter().find_map(|d| match d {
            Delta::Error(wording) => Some(wording.clone()),
            _ => None,
        }) {
            return Err(ReadError::Refused(wording));
        }
        match deltas.into_iter().find_map(|d| match d {
            Delta::Skipped(why) => Some(why),
            _ => None,
        }) {
            Some(why) => Err(ReadError::Unreadable(why)),
            None => Ok(decoder.ending()),
        }
    }
}

super::reply::reply_decoder!(Decoder, whole);
