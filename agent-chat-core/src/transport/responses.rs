//! OpenAI Responses (and the Cognipeer Console client API) on the wire:
//! the request a turn sends and the reply read back, streamed or whole.
//!
//! Turns are chained by default: once a reply has an id, the next turn sends only the new
//! message and `previous_response_id`, and the server keeps the rest. The first turn of a
//! thread (or one whose chain is not known, e.g. a thread from before) resends the history.
//! Tool items of every kind are shown as tool calls; url and file citations become the
//! message's sources. A response that stops with `status: "requires_action"` carries the
//! actions it waits on (`pendingActions`, as the Console names them); they are shown as cards.

use serde_json::{json, Value};

use super::reply::{
    content_text, drain_frames, error_words, parse_arguments, Delta, Failure, FailureKind, Reply,
    ToolCall, WireFile,
};
use super::backend::{
    fill_action_url, AnswerCall, Backend, Capabilities, ReadError, SendCall, WireCall,
};
use super::reply::{ReplyDecoder, CHAIN_KEY};
use super::TransportOptions;
use crate::sse::SseFrameDecoder;

/// The request path below the base URL.
pub const PATH: &str = "/responses";

/// The output item types that are tool calls.
const TOOL_ITEMS: [&str; 6] = [
    "function_call",
    "mcp_call",
    "web_search_call",
    "file_search_call",
    "code_interpreter_call",
    "computer_call",
];

/// The request body of a turn. With `previous` (the last reply's id) only the new message is
/// sent; without it the history (user and assistant text, oldest first) goes first. Image
/// files go as `input_image` parts; other files are named in a text part.
pub fn request_body(
    model: &str,
    history: &[Value],
    text: &str,
    files: &[WireFile],
    stream: bool,
    previous: Option<&str>,
) -> Value {
    let mut input: Vec<Value> = if previous.is_some() {
        Vec::new()
    } else {
        history
            .iter()
            .filter(|m| matches!(m["role"].as_str(), Some("user" | "assistant")))
            .map(|m| json!({ "role": m["role"], "content": content_text(&m["content"]) }))
            .collect()
    };
    let content = if files.is_empty() {
        Value::from(text)
    } else {
        let mut parts = vec![json!({ "type": "input_text", "text": text })];
        for f in files {
            if f.mime_type.starts_with("image/") {
                parts.push(json!({ "type": "input_image",
                    "image_url": format!("data:{};base64,{}", f.mime_type, f.content) }));
            } else {
                parts.push(json!({ "type": "input_text",
                                   "text": format!("[Attached file: {}]", f.name) }));
            }
        }
        Value::Array(parts)
    };
    input.push(json!({ "role": "user", "content": content }));
    let mut body = json!({ "model": model, "input": input, "stream": stream });
    if let Some(previous) = previous {
        body["previous_response_id"] = Value::from(previous);
    }
    body
}

/// Reads a streamed reply (`event:` + `data:` frames, each a JSON event with a `type`), split
/// anywhere. Unknown event types are passed over, as the API asks of clients.
#[derive(Debug, Default)]
pub struct StreamDecoder {
    frames: SseFrameDecoder,
    reply: Reply,
    failed: bool,
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

    /// What the reply left: its tool calls, usage, sources, waiting actions, id and final
    /// text (from `response.completed`).
    pub fn ending(&self) -> Reply {
        self.reply.clone()
    }

    fn drain(&mut self, end: bool) -> Vec<Delta> {
        let mut frames = std::mem::take(&mut self.frames);
        let out = drain_frames(&mut frames, end, |frame, out| {
            self.frame(frame.event.as_deref(), &frame.data, out)
        });
        self.frames = frames;
        out
    }

    fn frame(&mut self, event: Option<&str>, data: &str, out: &mut Vec<Delta>) {
        if data.trim() == "[DONE]" || data.trim().is_empty() {
            return;
        }
        let value: Value = match serde_json::from_str(data) {
            Ok(v) => v,
            Err(e) => return out.push(Delta::Skipped(format!("unreadable event: {e}"))),
        };
        let kind = value["type"].as_str().or(event).unwrap_or_default();
        match kind {
            "response.created" | "response.in_progress" | "response.queued" => {
                self.take_id(&value["response"]);
            }
            "response.output_text.delta" => {
                if let Some(text) = value["delta"].as_str().filter(|t| !t.is_empty()) {
                    out.push(Delta::Text(text.to_owned()));
                }
            }
            "response.output_text.annotation.added" => {
                add_citation(&mut self.reply.citations, &value["annotation"]);
            }
            "response.output_item.added" | "response.output_item.done" => {
                self.take_item(&value["item"]);
            }
            "response.completed" | "response.incomplete" | "response.requires_action" => {
                self.take_response(&value["response"]);
            }
            "response.failed" => {
                self.take_id(&value["response"]);
                let err = &value["response"]["error"];
                self.fail(out, Failure::from_error(FailureKind::Incomplete, err));
            }
            "error" => {
                let err = value
                    .get("error")
                    .filter(|e| e.is_object())
                    .unwrap_or(&value);
                self.fail(out, Failure::from_error(FailureKind::ModelError, err));
            }
            _ => {}
        }
    }

    fn fail(&mut self, out: &mut Vec<Delta>, failure: Failure) {
        if !self.failed {
            self.failed = true;
            out.push(Delta::Error(failure));
        }
    }

    fn take_id(&mut self, response: &Value) {
        if let Some(id) = response["id"].as_str().filter(|id| !id.is_empty()) {
            self.reply.response_id = Some(id.to_owned());
        }
    }

    fn take_item(&mut self, item: &Value) {
        let kind = item["type"].as_str().unwrap_or_default();
        if let Some(call) = tool_call(item) {
            match self.reply.tool_calls.iter_mut().find(|c| c.id == call.id) {
                // `added` comes with the name and often no arguments yet; `done` has them.
                Some(known) if item["arguments"].is_string() || kind != "function_call" => {
                    *known = call
                }
                Some(_) => {}
                None => self.reply.tool_calls.push(call),
            }
        } else if kind == "message" {
            for part in item["content"].as_array().into_iter().flatten() {
                for a in part["annotations"].as_array().into_iter().flatten() {
                    add_citation(&mut self.reply.citations, a);
                }
            }
        }
    }

    fn take_response(&mut self, response: &Value) {
        self.take_id(response);
        let whole = read_response(response);
        if !whole.content.is_empty() {
            self.reply.content = whole.content;
        }
        for call in whole.tool_calls {
            match self.reply.tool_calls.iter_mut().find(|c| c.id == call.id) {
                Some(known) => *known = call,
                None => self.reply.tool_calls.push(call),
            }
        }
        for c in whole.citations {
            if !self.reply.citations.iter().any(|k| k["id"] == c["id"]) {
                self.reply.citations.push(c);
            }
        }
        if whole.usage.is_some() {
            self.reply.usage = whole.usage;
        }
        if whole.pending_actions.is_some() {
            self.reply.pending_actions = whole.pending_actions;
        }
    }
}

/// Reads a whole reply (a response object); `Err` says why it is not one, or carries the
/// server's wording of a failed response.
pub fn read_reply(body: &str) -> Result<Reply, String> {
    let value: Value = serde_json::from_str(body).map_err(|e| e.to_string())?;
    if let Some(err) = value.get("error").filter(|e| !e.is_null()) {
        return Err(error_words(err)
            .unwrap_or("an error object without words")
            .to_owned());
    }
    if !value["output"].is_array() && value["status"].as_str().is_none() {
        return Err("no output".to_owned());
    }
    Ok(read_response(&value))
}

fn read_response(response: &Value) -> Reply {
    let mut reply = Reply {
        response_id: response["id"].as_str().map(str::to_owned),
        ..Reply::default()
    };
    let mut text = String::new();
    for item in response["output"].as_array().into_iter().flatten() {
        if let Some(call) = tool_call(item) {
            reply.tool_calls.push(call);
            continue;
        }
        if item["type"] != "message" {
            continue;
        }
        for part in item["content"].as_array().into_iter().flatten() {
            if part["type"] == "output_text" {
                text.push_str(part["text"].as_str().unwrap_or_default());
            }
            for a in part["annotations"].as_array().into_iter().flatten() {
                add_citation(&mut reply.citations, a);
            }
        }
    }
    if text.is_empty() {
        text = response["output_text"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
    }
    reply.content = text;
    let usage = &response["usage"];
    if usage.is_object() {
        reply.usage = Some(json!({
            "inputTokens": usage["input_tokens"],
            "outputTokens": usage["output_tokens"],
            "totalTokens": usage["total_tokens"],
        }));
    }
    if response["status"] == "requires_action" {
        let actions = response
            .get("pendingActions")
            .or_else(|| response.get("pending_actions"))
            .filter(|a| a.is_array());
        reply.pending_actions = actions.map(|a| normalise_actions(a.clone()));
    }
    reply
}

/// Console action objects with the agent server's field names (the Console writes `kind` for
/// `type`, `args_schema` / `inputSchema` for `argsSchema`).
fn normalise_actions(mut actions: Value) -> Value {
    for action in actions.as_array_mut().into_iter().flatten() {
        let Some(obj) = action.as_object_mut() else {
            continue;
        };
        if !obj.contains_key("type") {
            if let Some(kind) = obj.get("kind").cloned() {
                obj.insert("type".into(), kind);
            }
        }
        if !obj.contains_key("argsSchema") {
            if let Some(schema) = obj
                .get("args_schema")
                .or_else(|| obj.get("inputSchema"))
                .cloned()
            {
                obj.insert("argsSchema".into(), schema);
            }
        }
    }
    actions
}

/// A tool output item as a tool call: id = `call_id` or `id`, name = `name` or the item
/// type, arguments from `arguments` (JSON text), `action` or `queries`.
fn tool_call(item: &Value) -> Option<ToolCall> {
    let kind = item["type"].as_str()?;
    if !TOOL_ITEMS.contains(&kind) {
        return None;
    }
    let id = item["call_id"]
        .as_str()
        .or_else(|| item["id"].as_str())
        .unwrap_or(kind)
        .to_owned();
    let name = item["name"].as_str().unwrap_or(kind).to_owned();
    let args = if let Some(text) = item["arguments"].as_str() {
        parse_arguments(text)
    } else if item["action"].is_object() {
        item["action"].clone()
    } else if item["queries"].is_array() {
        json!({ "queries": item["queries"] })
    } else {
        json!({})
    };
    Some(ToolCall { id, name, args })
}

/// Adds a `url_citation` / `file_citation` annotation to `list` as a source, once.
fn add_citation(list: &mut Vec<Value>, annotation: &Value) {
    let citation = match annotation["type"].as_str() {
        Some("url_citation") => {
            let Some(url) = annotation["url"].as_str() else {
                return;
            };
            json!({ "id": url, "title": annotation["title"].as_str().unwrap_or(url), "link": url })
        }
        Some("file_citation") => {
            let Some(file) = annotation["file_id"].as_str() else {
                return;
            };
            let title = annotation["filename"].as_str().unwrap_or(file);
            json!({ "id": file, "title": title })
        }
        _ => return,
    };
    if !list.iter().any(|c| c["id"] == citation["id"]) {
        list.push(citation);
    }
}

/// What Responses can do: conversations in the page chained on the server, cards answered at
/// a configured action endpoint (the Console's).
pub const CAPABILITIES: Capabilities = Capabilities {
    names: &["responses", "openai-responses"],
    named_by_page: true,
    keeps_threads: true,
    can_resolve: true,
    answers_at_action_url: true,
    remembers: true,
    runs_in_page: false,
    storage_tag: Some("responses"),
};

/// Responses behind the gateway.
pub fn build(_: &TransportOptions) -> Option<Box<dyn Backend>> {
    Some(Box::new(Responses))
}

/// Responses as a [`Backend`].
#[derive(Debug)]
pub struct Responses;

impl Backend for Responses {
    fn capabilities(&self) -> &'static Capabilities {
        &CAPABILITIES
    }

    /// Chained by the last reply's id, unless the history is resent (`store: false`).
    fn send_request(&self, send: &SendCall<'_>) -> WireCall {
        let resend = send.options.resend_history;
        let previous = send.thread.conversation["metadata"][CHAIN_KEY]
            .as_str()
            .filter(|_| !resend);
        let history = &send.thread.messages;
        let (text, files) = (send.text, send.files);
        let mut body = request_body(&send.model(), history, text, files, send.stream, previous);
        if resend {
            body["store"] = Value::Bool(false);
        }
        WireCall {
            path: PATH.to_owned(),
            body,
        }
    }

    /// `POST {actionUrl}` with the `POST /conversations/:cid/actions/:aid` body plus the response
    /// that waits and the model.
    fn answer_request(&self, answer: &AnswerCall<'_>) -> Result<WireCall, (u16, String)> {
        let mut body = answer.body.clone();
        body["stream"] = Value::from(answer.stream);
        if let Some(previous) = answer.thread.conversation["metadata"][CHAIN_KEY].as_str() {
            body["previous_response_id"] = Value::from(previous);
        }
        body["model"] = Value::from(answer.model());
        let path = fill_action_url(answer.action_url(), answer.action_id, answer.thread.id());
        Ok(WireCall { path, body })
    }

    fn decoder(&self) -> Box<dyn ReplyDecoder> {
        Box::new(StreamDecoder::new())
    }

    fn read_reply(&self, body: &str) -> Result<Reply, ReadError> {
        read_reply(body).map_err(ReadError::Unreadable)
    }
}

super::reply::reply_decoder!(StreamDecoder);
