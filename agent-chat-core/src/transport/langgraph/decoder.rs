//! A run's answer read back: the model's text as it is written, tool calls and their
//! results, interrupts as cards, errors in the server's words, and the run's id (what Stop
//! cancels).

use serde_json::{json, Value};

use super::card;
use crate::lenient;
use crate::sse::SseFrameDecoder;
use crate::transport::reply::{
    content_text, drain_frames, push_whole_or_stream, Delta, Failure, FailureKind, Reply, ToolCall,
};

/// Reads a run's answer, streamed (SSE) or whole (the final state of `runs/wait`, or an
/// error object), split anywhere.
#[derive(Debug, Default)]
pub struct Decoder {
    frames: SseFrameDecoder,
    /// `Some(true)` once the body is known to be one JSON object, `Some(false)` for SSE.
    pub(super) whole: Option<bool>,
    /// Bytes held until the kind of body is known, then the whole body.
    body: Vec<u8>,
    reply: Reply,
    /// Text shown so far per message id, and how many pieces it came in.
    texts: Vec<(String, String, usize)>,
    /// The cards of the interrupts seen (one per interrupt id).
    cards: Vec<Value>,
    /// Whether a node ran (an update came): a resume in which nothing ran had nothing to
    /// answer.
    ran: bool,
    /// Whether the stream said anything at all.
    spoke: bool,
    failed: bool,
}

impl Decoder {
    /// A decoder at the start of a run.
    pub fn new() -> Decoder {
        Decoder::default()
    }

    /// Feeds bytes as they arrived; returns what they completed.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<Delta> {
        if push_whole_or_stream(&mut self.whole, &mut self.body, &mut self.frames, bytes) {
            self.drain(false)
        } else {
            Vec::new()
        }
    }

    /// The body ended: reads what was left (a whole answer is read only now).
    pub fn finish(&mut self) -> Vec<Delta> {
        let mut out = match self.whole {
            Some(true) => self.read_state(),
            Some(false) => self.drain(true),
            None => Vec::new(),
        };
        if self.whole == Some(false) && self.spoke && !self.ran && !self.failed {
            self.fail(&mut out, Failure::new(FailureKind::NothingWaited, None));
        }
        out
    }

    /// What the run left: its tool calls and their results, and the interrupts it waits on.
    pub fn ending(&self) -> Reply {
        let mut reply = self.reply.clone();
        reply.pending_actions = (!self.cards.is_empty()).then(|| Value::from(self.cards.clone()));
        reply
    }

    fn read_state(&mut self) -> Vec<Delta> {
        let body = String::from_utf8_lossy(&std::mem::take(&mut self.body)).into_owned();
        let mut out = Vec::new();
        let value = match lenient::parse(&body) {
            Ok(value) if value.is_object() => value,
            Ok(_) => return vec![Delta::Skipped("an answer that is not an object".into())],
            Err(e) => return vec![Delta::Skipped(format!("unreadable answer: {e}"))],
        };
        if value.get("messages").is_none() && value.get("__interrupt__").is_none() {
            if let Some(words) = error_words(&value) {
                let failure = Failure::new(FailureKind::AgentError, Some(&words));
                self.fail(&mut out, failure);
                return out;
            }
        }
        let messages = value["messages"].as_array().cloned().unwrap_or_default();
        let start = messages
            .iter()
            .rposition(|m| matches!(m["type"].as_str(), Some("human" | "HumanMessage")))
            .map_or(0, |i| i + 1);
        for message in &messages[start..] {
            self.message(message, false, &mut Vec::new());
        }
        let text: String = messages[start..]
            .iter()
            .filter(|m| is_ai(m))
            .map(|m| content_text(&m["content"]))
            .collect();
        if !text.is_empty() {
            self.reply.content = text.clone();
            out.push(Delta::Text(text));
        }
        self.interrupts(&value["__interrupt__"]);
        out
    }

    fn drain(&mut self, end: bool) -> Vec<Delta> {
        let mut frames = std::mem::take(&mut self.frames);
        let out = drain_frames(&mut frames, end, |frame, out| {
            self.event(frame.event.as_deref().unwrap_or("message"), &frame.data, out);
        });
        self.frames = frames;
        out
    }

    fn event(&mut self, name: &str, data: &str, out: &mut Vec<Delta>) {
        // A subgraph's events are named `<mode>|<namespace>`.
        let name = name.split('|').next().unwrap_or_default();
        let value = match lenient::parse(data.trim()) {
            Ok(v) => v,
            Err(e) => return out.push(Delta::Skipped(format!("unreadable {name} event: {e}"))),
        };
        self.spoke = true;
        match name {
            "messages" => match &value {
                Value::Array(items) if items.first().is_some_and(|m| m.get("type").is_some()) => {
                    self.message(&items[0], false, out);
                }
                _ => {}
            },
            "messages/partial" => {
                for message in value.as_array().into_iter().flatten() {
                    self.message(message, true, out);
                }
            }
            "messages/complete" => {
                for message in value.as_array().into_iter().flatten() {
                    self.message(message, true, out);
                }
            }
            "metadata" => {
                if let Some(run) = value["run_id"].as_str().filter(|r| !r.is_empty()) {
                    self.reply.running = Some(run.to_owned());
                }
            }
            "updates" => {
                self.ran = true;
                self.interrupts(&value["__interrupt__"]);
            }
            "values" => self.interrupts(&value["__interrupt__"]),
            "error" => {
                let words = error_words(&value);
                self.fail(out, Failure::new(FailureKind::AgentError, words.as_deref()));
            }
            _ => {}
        }
    }

    /// One message of the run: an AI message's text (a piece of it, or, `cumulative`, all of
    /// it so far) and tool calls; a tool message's result.
    fn message(&mut self, message: &Value, cumulative: bool, out: &mut Vec<Delta>) {
        if matches!(message["type"].as_str(), Some("tool" | "ToolMessage")) {
            let id = message["tool_call_id"].as_str().unwrap_or_default().to_owned();
            if id.is_empty() || self.reply.results.contains_key(&id) {
                return;
            }
            let result = match &message["content"] {
                Value::String(s) => Value::from(s.as_str()),
                Value::Null => Value::from(""),
                other => other.clone(),
            };
            let name = message["name"].as_str().unwrap_or_default().to_owned();
            self.reply.results.insert(id.clone(), result.clone());
            self.ran = true;
            return out.push(Delta::ToolFinished { id, name, result });
        }
        if !is_ai(message) {
            return;
        }
        self.ran = true;
        let id = message["id"].as_str().unwrap_or_default().to_owned();
        let text = content_text(&message["content"]);
        let piece = self.piece(&id, text, cumulative);
        if !piece.is_empty() && !self.failed {
            out.push(Delta::Text(piece));
        }
        for call in message["tool_calls"].as_array().into_iter().flatten() {
            let (Some(call_id), Some(name)) = (
                call["id"].as_str().filter(|i| !i.is_empty()),
                call["name"].as_str().filter(|n| !n.is_empty()),
            ) else {
                continue;
            };
            if self.reply.tool_calls.iter().any(|c| c.id == call_id) {
                continue;
            }
            let args = match &call["args"] {
                Value::Object(_) => call["args"].clone(),
                _ => json!({}),
            };
            let call = ToolCall {
                id: call_id.to_owned(),
                name: name.to_owned(),
                args,
            };
            self.reply.tool_calls.push(call.clone());
            self.reply.calls_streamed = true;
            out.push(Delta::ToolStarted(call));
        }
    }

    /// The new text of message `id`: a piece as it came (unless it repeats the whole message
    /// after its pieces, as a node's output does), or what a cumulative text adds.
    fn piece(&mut self, id: &str, text: String, cumulative: bool) -> String {
        let pos = match self.texts.iter().position(|(known, _, _)| known == id) {
            Some(pos) => pos,
            None => {
                self.texts.push((id.to_owned(), String::new(), 0));
                self.texts.len() - 1
            }
        };
        let (_, shown, pieces) = &mut self.texts[pos];
        let new = if cumulative {
            match text.strip_prefix(shown.as_str()) {
                Some(rest) => rest.to_owned(),
                None => return String::new(),
            }
        } else if *pieces >= 2 && text == *shown {
            return String::new();
        } else {
            text
        };
        if !new.is_empty() {
            shown.push_str(&new);
            *pieces += 1;
        }
        new
    }

    fn interrupts(&mut self, list: &Value) {
        for interrupt in list.as_array().into_iter().flatten() {
            let Some(card) = card(interrupt) else {
                continue;
            };
            self.ran = true;
            if !self.cards.iter().any(|c| c["id"] == card["id"]) {
                self.cards.push(card);
            }
        }
    }

    fn fail(&mut self, out: &mut Vec<Delta>, failure: Failure) {
        if !self.failed {
            self.failed = true;
            out.push(Delta::Error(failure));
        }
    }
}

fn is_ai(message: &Value) -> bool {
    matches!(
        message["type"].as_str(),
        Some("ai" | "AIMessageChunk" | "AIMessage")
    )
}

/// The words of a LangGraph error object (`{error, message}`), or of a string.
fn error_words(value: &Value) -> Option<String> {
    value["message"]
        .as_str()
        .or_else(|| value["error"]["message"].as_str())
        .or_else(|| value["error"].as_str())
        .or_else(|| value.as_str())
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .map(str::to_owned)
}

impl Decoder {
    /// Reads a whole body at once.
    pub fn read_whole(&mut self, body: &str) -> Vec<Delta> {
        let mut out = self.push(body.as_bytes());
        out.extend(self.finish());
        out
    }
}

crate::transport::reply::reply_decoder!(Decoder, whole);
