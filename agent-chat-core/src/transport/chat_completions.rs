//! OpenAI Chat Completions (and compatible servers) on the wire:
//! the request a turn sends and the reply read back, streamed or whole. Tool calls are
//! assembled from their streamed pieces; this API never takes answers.

use serde_json::{json, Value};

pub use super::reply::{
    content_text, error_envelope, error_words, Delta, Reply, ToolCall, WireFile,
};
use super::backend::{settle_waiting, Backend, Capabilities, ReadError, SendCall, WireCall};
use super::reply::{drain_frames, parse_arguments, Failure, FailureKind, ReplyDecoder};
use super::threads::Thread;
use super::TransportOptions;
use crate::sse::SseFrameDecoder;

/// The request path below the base URL.
pub const PATH: &str = "/chat/completions";

/// The request body of a turn: the whole history (user and assistant text, oldest first),
/// then the new message, whose image files go as `image_url` parts and other files are named
/// in a text part (their bytes are not sent to a model that may not read them).
pub fn request_body(
    model: &str,
    history: &[Value],
    text: &str,
    files: &[WireFile],
    stream: bool,
) -> Value {
    let mut messages: Vec<Value> = history
        .iter()
        .filter(|m| matches!(m["role"].as_str(), Some("user" | "assistant")))
        .map(|m| json!({ "role": m["role"], "content": content_text(&m["content"]) }))
        .collect();
    let content = if files.is_empty() {
        Value::from(text)
    } else {
        let mut parts = vec![json!({ "type": "text", "text": text })];
        for f in files {
            if f.mime_type.starts_with("image/") {
                parts.push(json!({ "type": "image_url", "image_url": {
                    "url": format!("data:{};base64,{}", f.mime_type, f.content) } }));
            } else {
                parts.push(
                    json!({ "type": "text", "text": format!("[Attached file: {}]", f.name) }),
                );
            }
        }
        Value::Array(parts)
    };
    messages.push(json!({ "role": "user", "content": content }));
    let mut body = json!({ "model": model, "messages": messages, "stream": stream });
    if stream {
        body["stream_options"] = json!({ "include_usage": true });
    }
    body
}

/// Reads a streamed reply (`data:` chunks, `[DONE]`), split anywhere.
#[derive(Debug, Default)]
pub struct StreamDecoder {
    frames: SseFrameDecoder,
    calls: Vec<PartialCall>,
    usage: Option<Value>,
    done: bool,
    /// The last `finish_reason` the server gave.
    finish_reason: Option<String>,
}

#[derive(Debug, Default)]
struct PartialCall {
    index: u64,
    id: Option<String>,
    name: String,
    arguments: String,
}

impl StreamDecoder {
    /// A decoder at the start of a reply.
    pub fn new() -> StreamDecoder {
        StreamDecoder::default()
    }

    /// Feeds bytes as they arrived; returns what they completed.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<Delta> {
        self.frames.push(bytes);
        self.drain(false)
    }

    /// The body ended: reads what was left.
    pub fn finish(&mut self) -> Vec<Delta> {
        self.drain(true)
    }

    /// Whether `[DONE]` arrived.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// The token counts the server reported, as agent-server `usage`.
    pub fn usage(&self) -> Option<Value> {
        self.usage.clone()
    }

    /// The tool calls of the reply so far, in index order.
    pub fn tool_calls(&self) -> Vec<ToolCall> {
        let mut calls: Vec<&PartialCall> = self.calls.iter().collect();
        calls.sort_by_key(|c| c.index);
        calls
            .into_iter()
            .map(|c| ToolCall {
                id: c.id.clone().unwrap_or_else(|| format!("call_{}", c.index)),
                name: c.name.clone(),
                args: parse_arguments(&c.arguments),
            })
            .collect()
    }

    /// What the reply left: its tool calls and usage, and the calls it waits on when it
    /// stopped for them.
    pub fn ending(&self) -> Reply {
        let tool_calls = self.tool_calls();
        Reply {
            pending_actions: waiting_on(self.finish_reason.as_deref(), &tool_calls),
            tool_calls,
            usage: self.usage(),
            ..Reply::default()
        }
    }

    fn drain(&mut self, end: bool) -> Vec<Delta> {
        let mut frames = std::mem::take(&mut self.frames);
        let out = drain_frames(&mut frames, end, |frame, out| self.frame(&frame.data, out));
        self.frames = frames;
        out
    }

    fn frame(&mut self, data: &str, out: &mut Vec<Delta>) {
        if data.trim() == "[DONE]" {
            self.done = true;
            return;
        }
        let chunk: Value = match serde_json::from_str(data) {
            Ok(v) => v,
            Err(e) => return out.push(Delta::Skipped(format!("unreadable chunk: {e}"))),
        };
        if let Some(err) = chunk.get("error").filter(|e| !e.is_null()) {
            return out.push(Delta::Error(Failure::from_error(FailureKind::ModelError, err)));
        }
        if let Some(usage) = chunk.get("usage").filter(|u| u.is_object()) {
            self.usage = Some(usage_of(usage));
        }
        if let Some(reason) = chunk["choices"][0]["finish_reason"].as_str() {
            self.finish_reason = Some(reason.to_owned());
        }
        let delta = &chunk["choices"][0]["delta"];
        if let Some(text) = delta["content"].as_str().filter(|t| !t.is_empty()) {
            out.push(Delta::Text(text.to_owned()));
        }
        for piece in delta["tool_calls"].as_array().into_iter().flatten() {
            let index = piece["index"].as_u64().unwrap_or(0);
            let call = match self.calls.iter_mut().position(|c| c.index == index) {
                Some(i) => &mut self.calls[i],
                None => {
                    self.calls.push(PartialCall {
                        index,
                        ..PartialCall::default()
                    });
                    self.calls.last_mut().expect("just pushed")
                }
            };
            if let Some(id) = piece["id"].as_str() {
                call.id = Some(id.to_owned());
            }
            if let Some(name) = piece["function"]["name"].as_str() {
                call.name.push_str(name);
            }
            if let Some(args) = piece["function"]["arguments"].as_str() {
                call.arguments.push_str(args);
            }
        }
    }
}

/// Reads a whole reply (`choices[0].message`); `Err` says why it is not one.
pub fn read_reply(body: &str) -> Result<Reply, String> {
    let value: Value = serde_json::from_str(body).map_err(|e| e.to_string())?;
    if let Some(err) = value.get("error").filter(|e| !e.is_null()) {
        return Err(error_words(err)
            .unwrap_or("an error object without words")
            .to_owned());
    }
    let message = value["choices"][0]
        .get("message")
        .ok_or("no choices[0].message")?;
    let tool_calls: Vec<ToolCall> = message["tool_calls"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, c)| ToolCall {
            id: c["id"]
                .as_str()
                .map_or_else(|| format!("call_{i}"), str::to_owned),
            name: c["function"]["name"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
            args: parse_arguments(c["function"]["arguments"].as_str().unwrap_or_default()),
        })
        .collect();
    let finish_reason = value["choices"][0]["finish_reason"].as_str();
    Ok(Reply {
        content: content_text(&message["content"]),
        pending_actions: waiting_on(finish_reason, &tool_calls),
        tool_calls,
        usage: value.get("usage").filter(|u| u.is_object()).map(usage_of),
        ..Reply::default()
    })
}

/// A reply that stopped for its tool calls (`finish_reason: "tool_calls"`) waits for
/// another app to run them: each is a read-only approval card ("waiting in another app"),
/// since this API takes no answers. `None` when it did not stop for them.
fn waiting_on(finish_reason: Option<&str>, calls: &[ToolCall]) -> Option<Value> {
    if finish_reason != Some("tool_calls") || calls.is_empty() {
        return None;
    }
    Some(
        calls
            .iter()
            .map(|c| {
                json!({ "id": c.id, "type": "tool_approval", "toolName": c.name,
                        "args": if c.args.is_object() { c.args.clone() } else { json!({}) },
                        "toolCallId": c.id })
            })
            .collect(),
    )
}

fn usage_of(usage: &Value) -> Value {
    json!({
        "inputTokens": usage["prompt_tokens"],
        "outputTokens": usage["completion_tokens"],
        "totalTokens": usage["total_tokens"],
    })
}

/// What Chat Completions can do: conversations in the page, cards shown but never answered.
pub const CAPABILITIES: Capabilities = Capabilities {
    names: &["chat-completions", "chatcompletions", "openai"],
    named_by_page: true,
    keeps_threads: true,
    can_resolve: false,
    answers_at_action_url: false,
    remembers: true,
    runs_in_page: false,
    storage_tag: None,
};

/// Chat Completions behind the gateway.
pub fn build(_: &TransportOptions) -> Option<Box<dyn Backend>> {
    Some(Box::new(ChatCompletions))
}

/// Chat Completions as a [`Backend`].
#[derive(Debug)]
pub struct ChatCompletions;

impl Backend for ChatCompletions {
    fn capabilities(&self) -> &'static Capabilities {
        &CAPABILITIES
    }

    fn send_request(&self, send: &SendCall<'_>) -> WireCall {
        let history = &send.thread.messages;
        let body = request_body(&send.model(), history, send.text, send.files, send.stream);
        WireCall {
            path: PATH.to_owned(),
            body,
        }
    }

    /// The person moved on from calls nobody here can run: they are cancelled.
    fn on_new_message(&self, thread: &mut Thread, at: &str) -> Vec<(String, &'static str)> {
        settle_waiting(thread, at, "cancelled")
    }

    fn decoder(&self) -> Box<dyn ReplyDecoder> {
        Box::new(StreamDecoder::new())
    }

    fn read_reply(&self, body: &str) -> Result<Reply, ReadError> {
        read_reply(body).map_err(ReadError::Unreadable)
    }
}

super::reply::reply_decoder!(StreamDecoder);
