//! An agent that runs in the page (an in-process agent), seen from the
//! gateway: the turn it is asked for and the events it reports, as bytes.
//!
//! The core stays sans-IO: a send (or an answer to a card) becomes an ordinary wire request to
//! the internal path [`PATH`], whose body is the turn ([`request_body`], [`resume_body`]). The
//! edge does not fetch it: it hands the turn to the host's agent and feeds each event the agent
//! reports back as one JSON line, so this decoder reads agent events exactly as the other
//! decoders read their servers' frames, split anywhere, and every rule of the session holds.
//!
//! One line per event (compact JSON, `\n`):
//!
//! | `type` | fields | meaning |
//! |---|---|---|
//! | `text` | `text` | more of the answer |
//! | `tool_call` | `id`, `name`, `args` | a tool started (shown at once) |
//! | `tool_result` | `id`, `name`, `result` | it finished (failed: `{error}`) |
//! | `done` | `usage?` | the turn ended |
//! | `pause` | `pendingActions` (chat shapes), `usage?` | it waits on a person |
//! | `error` | `message` | it failed, in the agent's words |
//!
//! A line that cannot be read is skipped for the debug log; an unknown `type` is passed
//! over. The typed side (the SDK's shapes) is [`super::agent_sdk`].

use serde_json::{json, Map, Value};

use super::backend::{AnswerCall, Backend, Capabilities, ReadError, SendCall, WireCall};
use super::reply::{content_text, Delta, Failure, FailureKind, Reply, ReplyDecoder, ToolCall, WireFile};
use super::TransportOptions;

/// The internal path of a turn: never fetched, the edge runs the host's agent instead.
pub const PATH: &str = "/in-process/turn";

/// The turn for a new message: the conversation as the gateway keeps it (stored messages,
/// oldest first, without the new one) and the person's text and file names.
pub fn request_body(
    agent_id: &str,
    conversation_id: &str,
    history: &[Value],
    text: &str,
    files: &[WireFile],
) -> Value {
    // Values built by hand: `json!` of a slice would compile serde's sequence machinery
    // into the element for nothing.
    let names: Vec<Value> = files.iter().map(|f| Value::from(f.name.as_str())).collect();
    let mut turn = turn(agent_id, conversation_id, history);
    turn["message"] = Value::from(text);
    turn["files"] = Value::Array(names);
    turn
}

/// The turn that answers a card: the stored action (chat shape) and the person's resolution,
/// which the edge gives the agent in the SDK's shapes.
pub fn resume_body(
    agent_id: &str,
    conversation_id: &str,
    history: &[Value],
    action: &Value,
    resolution: &Value,
) -> Value {
    let mut turn = turn(agent_id, conversation_id, history);
    turn["resume"] = json!({ "action": action, "resolution": resolution });
    turn
}

/// What every turn carries: whose it is and the conversation so far.
fn turn(agent_id: &str, conversation_id: &str, history: &[Value]) -> Value {
    let mut turn = Map::new();
    turn.insert("agentId".into(), Value::from(agent_id));
    turn.insert("conversationId".into(), Value::from(conversation_id));
    turn.insert("messages".into(), Value::Array(history.to_vec()));
    Value::Object(turn)
}

/// Reads the agent's event lines, split anywhere.
#[derive(Debug, Default)]
pub struct Decoder {
    buffer: Vec<u8>,
    text: String,
    calls: Vec<ToolCall>,
    results: Map<String, Value>,
    usage: Option<Value>,
    pending: Option<Value>,
}

impl Decoder {
    /// A decoder at the start of a turn.
    pub fn new() -> Decoder {
        Decoder::default()
    }

    /// Feeds bytes as they arrived; returns what the whole lines among them say.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<Delta> {
        self.buffer.extend_from_slice(bytes);
        let mut out = Vec::new();
        while let Some(end) = self.buffer.iter().position(|b| *b == b'\n') {
            let line: Vec<u8> = self.buffer.drain(..=end).collect();
            self.line(&line[..end], &mut out);
        }
        out
    }

    /// The turn ended: reads a last line without its newline.
    pub fn finish(&mut self) -> Vec<Delta> {
        let rest = std::mem::take(&mut self.buffer);
        let mut out = Vec::new();
        self.line(&rest, &mut out);
        out
    }

    /// Reads a whole turn (every line at once, the non-streaming send).
    pub fn read_whole(&mut self, body: &str) -> Vec<Delta> {
        let mut out = self.push(body.as_bytes());
        out.extend(self.finish());
        out
    }

    /// What the turn left: its text, its tool calls (already shown) with their results, the
    /// usage, and the actions it waits on.
    pub fn ending(&self) -> Reply {
        Reply {
            content: self.text.clone(),
            tool_calls: self.calls.clone(),
            calls_streamed: true,
            results: self.results.clone(),
            usage: self.usage.clone(),
            pending_actions: self.pending.clone(),
            ..Reply::default()
        }
    }

    fn line(&mut self, line: &[u8], out: &mut Vec<Delta>) {
        let text = String::from_utf8_lossy(line);
        if text.trim().is_empty() {
            return;
        }
        let event: Value = match serde_json::from_str(&text) {
            Ok(v @ Value::Object(_)) => v,
            Ok(_) => return out.push(Delta::Skipped("an event that is not an object".into())),
            Err(e) => return out.push(Delta::Skipped(format!("unreadable event: {e}"))),
        };
        let id = event["id"].as_str().unwrap_or_default().to_owned();
        let name = event["name"].as_str().unwrap_or_default().to_owned();
        match event["type"].as_str().unwrap_or_default() {
            "text" => {
                let text = content_text(&event["text"]);
                if !text.is_empty() {
                    self.text.push_str(&text);
                    out.push(Delta::Text(text));
                }
            }
            "tool_call" => {
                let args = match &event["args"] {
                    Value::Null => json!({}),
                    a => a.clone(),
                };
                let call = ToolCall { id, name, args };
                match self.calls.iter_mut().find(|c| c.id == call.id) {
                    Some(known) => *known = call.clone(),
                    None => self.calls.push(call.clone()),
                }
                out.push(Delta::ToolStarted(call));
            }
            "tool_result" => {
                let result = event["result"].clone();
                self.results.insert(id.clone(), result.clone());
                out.push(Delta::ToolFinished { id, name, result });
            }
            kind @ ("done" | "pause") => {
                if event["usage"].is_object() {
                    self.usage = Some(event["usage"].clone());
                }
                let actions = &event["pendingActions"];
                if kind == "pause" && actions.as_array().is_some_and(|a| !a.is_empty()) {
                    self.pending = Some(actions.clone());
                }
            }
            "error" => {
                let words = event["message"].as_str();
                out.push(Delta::Error(Failure::new(FailureKind::AgentError, words)));
            }
            _ => {}
        }
    }
}

/// What an agent in the page can do: conversations in the page; its pauses are answerable cards,
/// without "remember for this chat" (the agent-sdk resolution has none). Only a Rust host can hand
/// one over, so a page cannot name it.
pub const CAPABILITIES: Capabilities = Capabilities {
    names: &["in-process", "inprocess"],
    named_by_page: false,
    keeps_threads: true,
    can_resolve: true,
    answers_at_action_url: false,
    remembers: false,
    runs_in_page: true,
    storage_tag: Some("in-process"),
};

/// An agent in the page behind the gateway.
pub fn build(_: &TransportOptions) -> Option<Box<dyn Backend>> {
    Some(Box::new(InProcess))
}

/// An agent in the page as a [`Backend`].
#[derive(Debug)]
pub struct InProcess;

impl Backend for InProcess {
    fn capabilities(&self) -> &'static Capabilities {
        &CAPABILITIES
    }

    fn send_request(&self, send: &SendCall<'_>) -> WireCall {
        let thread = send.thread;
        let (agent, history) = (thread.agent_id(), &thread.messages);
        WireCall {
            path: PATH.to_owned(),
            body: request_body(agent, thread.id(), history, send.text, send.files),
        }
    }

    /// A resume turn with the stored action and the answer.
    fn answer_request(&self, answer: &AnswerCall<'_>) -> Result<WireCall, (u16, String)> {
        let thread = answer.thread;
        let (agent, history) = (thread.agent_id(), &thread.messages);
        let resolution = answer.resolution;
        Ok(WireCall {
            path: PATH.to_owned(),
            body: resume_body(agent, thread.id(), history, answer.action, resolution),
        })
    }

    fn decoder(&self) -> Box<dyn ReplyDecoder> {
        Box::new(Decoder::new())
    }

    /// Every line at once: the agent's failure in its words; a line that cannot be read is
    /// skipped, as when streamed.
    fn read_reply(&self, body: &str) -> Result<Reply, ReadError> {
        let mut decoder = Decoder::new();
        let deltas = decoder.read_whole(body);
        match deltas.into_iter().find_map(|d| match d {
            Delta::Error(failure) => Some(failure),
            _ => None,
        }) {
            Some(failure) => Err(ReadError::Refused(failure)),
            None => Ok(decoder.ending()),
        }
    }
}

super::reply::reply_decoder!(Decoder, whole);
