//! What every stateless backend's reply comes down to: text pieces, tool calls,
//! usage, sources, and the errors in the agent server's words. Chat Completions and Responses
//! read their wires into these; `stateless` turns them into `stream.*` frames.

use serde_json::{json, Map, Value};

pub use super::failure::{Failure, FailureKind};
use crate::sse::{SseFrame, SseFrameDecoder};

/// Reads every whole frame `frames` holds (and, at the `end` of the body, what is left),
/// handing each to `each`; a frame that cannot be read is skipped for the log.
pub(super) fn drain_frames(
    frames: &mut SseFrameDecoder,
    end: bool,
    mut each: impl FnMut(&SseFrame, &mut Vec<Delta>),
) -> Vec<Delta> {
    let mut out = Vec::new();
    loop {
        let frame = match frames.next_frame() {
            Some(f) => f,
            None if end => match frames.finish() {
                Some(f) => f,
                None => break,
            },
            None => break,
        };
        match frame {
            Ok(frame) => each(&frame, &mut out),
            Err(e) => out.push(Delta::Skipped(e.to_string())),
        }
    }
    out
}

/// Where a chained reply's id ([`Reply::response_id`]) is kept: in the conversation's
/// metadata, so a reload goes on chaining.
pub const CHAIN_KEY: &str = "previousResponseId";

/// One file of the person's message, as the session sent it (raw base64 content).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireFile {
    /// File name.
    pub name: String,
    /// MIME type.
    pub mime_type: String,
    /// Raw base64 content.
    pub content: String,
}

/// The text of a stored message's `content` (a string, or the `text` parts of a list).
pub fn content_text(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p["text"].as_str())
            .collect::<Vec<_>>()
            .join(""),
        _ => String::new(),
    }
}

/// A tool call the model asked for: shown, never run here.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolCall {
    /// The call id (`call_…`; made up from the index when the server gave none).
    pub id: String,
    /// The function name.
    pub name: String,
    /// The arguments: the JSON the model wrote, or `{arguments: "<text>"}` when it is not
    /// JSON.
    pub args: Value,
}

/// What one piece of a streamed reply means for the turn.
#[derive(Clone, Debug, PartialEq)]
pub enum Delta {
    /// More text of the answer.
    Text(String),
    /// The server reported an error inside the stream; the turn fails, in the server's words
    /// when it gave some.
    Error(Failure),
    /// A frame that could not be read; skipped, for the developer's log only.
    Skipped(String),
    /// A tool started (an in-page agent reports it at once): shown while the turn runs.
    ToolStarted(ToolCall),
    /// A tool finished with this result (a failed tool: `{error}`).
    ToolFinished {
        /// The call id.
        id: String,
        /// The tool's name.
        name: String,
        /// What it returned.
        result: Value,
    },
    /// A call that a card asked about ran (or failed): the card's execution stage, read by
    /// the call id, so "Approved" becomes "Completed" or "Failed" (a call no card asked about
    /// is passed over).
    Executed {
        /// The call id.
        tool_call_id: String,
        /// What it returned, when it ran.
        result: Option<Value>,
        /// Why it failed, when it failed: the server's words (empty when it gave none; the
        /// card then reads "Failed" alone).
        error: Option<String>,
    },
}

/// A whole reply, or what a streamed one leaves when it is over.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reply {
    /// The answer's text (of a streamed reply: the final text the server stated, empty when
    /// it only streamed pieces).
    pub content: String,
    /// The tool calls it asked for.
    pub tool_calls: Vec<ToolCall>,
    /// Whether the tool calls were already shown while streaming
    /// ([`Delta::ToolStarted`]), so the end does not announce them again.
    pub calls_streamed: bool,
    /// The tool calls' results by call id, kept on the stored message.
    pub results: Map<String, Value>,
    /// Token counts, as agent-server `usage`.
    pub usage: Option<Value>,
    /// Sources, as agent-server citations (`{id, title, link}`).
    pub citations: Vec<Value>,
    /// Actions the backend waits on (Console `requires_action`), as the agent
    /// server's `pendingActions`.
    pub pending_actions: Option<Value>,
    /// The backend's id of this reply, for chaining the next turn to it (Responses).
    pub response_id: Option<String>,
    /// Values to keep in the conversation's metadata for the next turn (A2A's context and
    /// open task); `null` removes one.
    pub keep: Map<String, Value>,
    /// Values to keep in the stored reply's own metadata: the backend's record of the
    /// message, for the requests of later turns (the AI SDK's message parts).
    pub message_metadata: Map<String, Value>,
    /// The server's id of the work this reply comes from (a LangGraph run, an A2A task),
    /// once the stream named it: what Stop asks the server to cancel.
    pub running: Option<String>,
}

/// The server's words in an error object (`{message, code, type}`) or string, when it
/// has some.
pub fn error_words(err: &Value) -> Option<&str> {
    err["message"]
        .as_str()
        .or_else(|| err.as_str())
        .map(str::trim)
        .filter(|w| !w.is_empty())
}

/// The one shape of every backend's reply reader: bytes in as they arrived, what they
/// completed out, then what the reply left. Each backend's decoder implements it, so the
/// gateway reads every backend's replies the same way.
pub trait ReplyDecoder: std::fmt::Debug {
    /// Feeds bytes as they arrived, split anywhere; returns what they completed.
    fn push(&mut self, bytes: &[u8]) -> Vec<Delta>;

    /// The body ended: reads what was left.
    fn finish(&mut self) -> Vec<Delta>;

    /// What the reply left: its final text, tool calls, usage, sources, waiting actions.
    fn ending(&self) -> Reply;

    /// Reads a whole body at once (a send that did not stream): by default, pushed then
    /// finished.
    fn read_whole(&mut self, body: &str) -> Vec<Delta> {
        let mut out = self.push(body.as_bytes());
        out.extend(self.finish());
        out
    }
}

/// Implements [`ReplyDecoder`] for a decoder whose own `push`, `finish` and `ending` (and,
/// with `whole`, `read_whole`) have that shape.
macro_rules! reply_decoder {
    ($decoder:ty) => {
        impl $crate::transport::reply::ReplyDecoder for $decoder {
            fn push(&mut self, bytes: &[u8]) -> Vec<$crate::transport::reply::Delta> {
                <$decoder>::push(self, bytes)
            }
            fn finish(&mut self) -> Vec<$crate::transport::reply::Delta> {
                <$decoder>::finish(self)
            }
            fn ending(&self) -> $crate::transport::reply::Reply {
                <$decoder>::ending(self)
            }
        }
    };
    ($decoder:ty, whole) => {
        impl $crate::transport::reply::ReplyDecoder for $decoder {
            fn push(&mut self, bytes: &[u8]) -> Vec<$crate::transport::reply::Delta> {
                <$decoder>::push(self, bytes)
            }
            fn finish(&mut self) -> Vec<$crate::transport::reply::Delta> {
                <$decoder>::finish(self)
            }
            fn ending(&self) -> $crate::transport::reply::Reply {
                <$decoder>::ending(self)
            }
            fn read_whole(&mut self, body: &str) -> Vec<$crate::transport::reply::Delta> {
                <$decoder>::read_whole(self, body)
            }
        }
    };
}
pub(super) use reply_decoder;

/// An error response of the server as the agent server's envelope, so the
/// session shows it as it shows any server's refusal: the server's words (its error object's,
/// else a body of plain text, [`crate::error::plain_text_words`]) and code. A body with
/// no words of its own (empty, markup, too long to be a sentence) gives an envelope without a
/// message, so the person reads the page's
/// sentence for the status in their language (too many requests, could not send).
pub fn error_envelope(status: u16, body: &str) -> String {
    let _ = status;
    let parsed: Option<Value> = serde_json::from_str(body).ok();
    let err = parsed.as_ref().and_then(|v| v.get("error"));
    let message = err
        .and_then(error_words)
        .or_else(|| crate::error::plain_text_words(body))
        .map(str::to_owned);
    let code = err
        .and_then(|e| e["code"].as_str().or_else(|| e["type"].as_str()))
        .map(str::to_owned);
    let mut envelope = Map::new();
    if let Some(message) = message {
        envelope.insert("message".into(), Value::from(message));
    }
    if let Some(code) = code {
        envelope.insert("code".into(), Value::from(code));
    }
    json!({ "error": envelope }).to_string()
}

/// A tool call's arguments text as JSON: `{}` when empty, `{arguments: "<text>"}` when it
/// is not JSON.
pub(super) fn parse_arguments(text: &str) -> Value {
    if text.trim().is_empty() {
        return json!({});
    }
    serde_json::from_str(text).unwrap_or_else(|_| json!({ "arguments": text }))
}

/// Feeds `bytes` to a reply that is either one JSON body or an SSE stream, told apart by its
/// first byte that is not blank (`{`: a whole body, kept in `body` until the end; anything
/// else: a stream, fed to `frames`). `whole` is `None` until that byte has come. Returns true
/// when `frames` may hold new frames to drain.
pub(super) fn push_whole_or_stream(
    whole: &mut Option<bool>,
    body: &mut Vec<u8>,
    frames: &mut SseFrameDecoder,
    bytes: &[u8],
) -> bool {
    match *whole {
        Some(true) => {
            body.extend_from_slice(bytes);
            false
        }
        Some(false) => {
            frames.push(bytes);
            true
        }
        None => {
            body.extend_from_slice(bytes);
            let Some(first) = body.iter().find(|b| !b.is_ascii_whitespace()) else {
                return false;
            };
            let is_whole = *first == b'{';
            *whole = Some(is_whole);
            if is_whole {
                return false;
            }
            let held = std::mem::take(body);
            frames.push(&held);
            true
        }
    }
}
