//! OpenAI Chat Completions (and compatible servers) on the wire (issue 15, TRANSPORTS.md):
//! the request a turn sends and the reply read back, streamed or whole. Tool calls are
//! assembled from their streamed pieces; this API never takes answers.

use serde_json::{json, Map, Value};

use crate::core::sse::SseFrameDecoder;

/// The request path below the base URL.
pub const PATH: &str = "/chat/completions";

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
    /// The server reported an error inside the stream; the turn fails with this wording.
    Error(String),
    /// A frame that could not be read; skipped, for the developer's log only.
    Skipped(String),
}

/// Reads a streamed reply (`data:` chunks, `[DONE]`), split anywhere.
#[derive(Debug, Default)]
pub struct StreamDecoder {
    frames: SseFrameDecoder,
    calls: Vec<PartialCall>,
    usage: Option<Value>,
    done: bool,
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

    fn drain(&mut self, end: bool) -> Vec<Delta> {
        let mut out = Vec::new();
        loop {
            let frame = match self.frames.next_frame() {
                Some(f) => f,
                None if end => match self.frames.finish() {
                    Some(f) => f,
                    None => break,
                },
                None => break,
            };
            match frame {
                Ok(frame) => self.frame(&frame.data, &mut out),
                Err(e) => out.push(Delta::Skipped(e.to_string())),
            }
        }
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
            return out.push(Delta::Error(error_wording(err)));
        }
        if let Some(usage) = chunk.get("usage").filter(|u| u.is_object()) {
            self.usage = Some(usage_of(usage));
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

/// A whole (not streamed) reply.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// The answer's text.
    pub content: String,
    /// The tool calls it asked for.
    pub tool_calls: Vec<ToolCall>,
    /// Token counts, as agent-server `usage`.
    pub usage: Option<Value>,
}

/// Reads a whole reply (`choices[0].message`); `Err` says why it is not one.
pub fn read_reply(body: &str) -> Result<Reply, String> {
    let value: Value = serde_json::from_str(body).map_err(|e| e.to_string())?;
    if let Some(err) = value.get("error").filter(|e| !e.is_null()) {
        return Err(error_wording(err));
    }
    let message = value["choices"][0]
        .get("message")
        .ok_or("no choices[0].message")?;
    let tool_calls = message["tool_calls"]
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
    Ok(Reply {
        content: content_text(&message["content"]),
        tool_calls,
        usage: value.get("usage").filter(|u| u.is_object()).map(usage_of),
    })
}

/// The server's wording of an error object (`{message, code, type}`) or string.
pub fn error_wording(err: &Value) -> String {
    err["message"]
        .as_str()
        .or_else(|| err.as_str())
        .map(str::to_owned)
        .unwrap_or_else(|| "The model server reported an error.".to_owned())
}

/// An error response of the server as the agent server's envelope (PROTOCOL §2), so the
/// session shows it as it shows any server's refusal.
pub fn error_envelope(status: u16, body: &str) -> String {
    let parsed: Option<Value> = serde_json::from_str(body).ok();
    let err = parsed.as_ref().and_then(|v| v.get("error"));
    let message = err.map(error_wording).unwrap_or_else(|| {
        let text = body.trim();
        if text.is_empty() || text.len() > 300 {
            format!("The model server answered {status}.")
        } else {
            text.to_owned()
        }
    });
    let code = err
        .and_then(|e| e["code"].as_str().or_else(|| e["type"].as_str()))
        .map(str::to_owned);
    let mut envelope = Map::new();
    envelope.insert("message".into(), Value::from(message));
    if let Some(code) = code {
        envelope.insert("code".into(), Value::from(code));
    }
    json!({ "error": envelope }).to_string()
}

fn parse_arguments(text: &str) -> Value {
    if text.trim().is_empty() {
        return json!({});
    }
    serde_json::from_str(text).unwrap_or_else(|_| json!({ "arguments": text }))
}

fn usage_of(usage: &Value) -> Value {
    json!({
        "inputTokens": usage["prompt_tokens"],
        "outputTokens": usage["completion_tokens"],
        "totalTokens": usage["total_tokens"],
    })
}
