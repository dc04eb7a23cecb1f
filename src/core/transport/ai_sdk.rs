//! A Vercel AI SDK route on the wire: what `useChat` sends and what
//! `streamText(...).toUIMessageStreamResponse()` answers, read as the SDK's own client reads it.
//!
//! The route (the base URL itself, e.g. `/api/chat`) keeps no conversations: every turn sends
//! the whole conversation as the SDK's UI messages (`{id, messages, trigger, messageId?}`, the
//! body of its `DefaultChatTransport`), and the answer is the UI message stream: SSE whose
//! `data` is one JSON chunk with a `type` (`start`, `text-*`, `reasoning-*`, `tool-input-*`,
//! `tool-approval-request`, `tool-output-*`, `start-step` / `finish-step`, `source-*`,
//! `data-*`, `error`, `finish`), then `[DONE]`.
//!
//! So the page keeps the conversations (the thread store), and each stored reply keeps the UI
//! message its stream built ([`MESSAGE_KEY`] in its metadata), from which the next request is
//! made again exactly as `useChat` holds it: an answer's continuation, stored as a reply of its
//! own, continues the message that asked (the SDK appends to it), and the tool outputs it
//! reports update that message's tool parts.
//!
//! A tool marked `needsApproval` stops the turn with `tool-approval-request`: a
//! `tool_approval` card whose id is the approval id. The person's answer is what
//! `addToolApprovalResponse` does: the tool part goes to `approval-responded` with
//! `approval: {id, approved, reason}`, and the conversation is sent again; the server then
//! runs the tool (`tool-output-available` / `-error`, the card's Completed / Failed) or tells
//! the model it was denied, with the reason. Like `useChat`, a turn's answers go together
//! (the server cannot go on while one of its calls has neither result nor answer), and a new
//! message leaves the waiting approvals behind (the server drops them).

use serde_json::{json, Map, Value};

use super::backend::{
    refusal, settle_waiting, AnswerCall, Backend, Capabilities, ReadError, SendCall, WireCall,
};
use super::reply::{drain_frames, Delta, Reply, ReplyDecoder, ToolCall, WireFile};
use super::TransportOptions;
use crate::core::lenient;
use crate::core::sse::SseFrameDecoder;

/// The route is the base URL itself.
pub const PATH: &str = "";
/// The stored reply's metadata key for the UI message its stream built: `{id?, parts,
/// outputs?}` (`outputs`: tool outputs for calls of an earlier message).
pub const MESSAGE_KEY: &str = "aiSdkMessage";
/// What an `error` chunk without words says.
const FAILED: &str = "The agent reported an error.";

/// The request body of a turn (`DefaultChatTransport`): the chat id, the whole conversation
/// as UI messages, `trigger: "submit-message"`, and, for an answer, the id of the message
/// whose approvals it answers.
pub fn request_body(chat_id: &str, messages: Vec<Value>, message_id: Option<&str>) -> Value {
    let mut body = json!({ "id": chat_id, "messages": messages, "trigger": "submit-message" });
    if let Some(id) = message_id {
        body["messageId"] = Value::from(id);
    }
    body
}

/// The person's new message: its files (as data URLs, before the text, as `useChat` puts
/// them) and its text.
pub fn user_message(id: &str, text: &str, files: &[WireFile]) -> Value {
    let mut parts: Vec<Value> = files
        .iter()
        .map(|f| {
            json!({ "type": "file", "mediaType": f.mime_type, "filename": f.name,
                    "url": format!("data:{};base64,{}", f.mime_type, f.content) })
        })
        .collect();
    parts.push(json!({ "type": "text", "text": text }));
    json!({ "id": id, "role": "user", "parts": parts })
}

/// An answer to an approval card (`{decision, comment?}` or `{approved, reason?}`): whether
/// it approves, and the reason of a denial; `None` for anything else.
pub fn approval_answer(resolution: &Value) -> Option<(bool, Option<String>)> {
    let approved = match resolution["decision"].as_str() {
        Some(d) => match d.to_ascii_lowercase().as_str() {
            "allow" | "approve" | "approved" => true,
            "deny" | "reject" | "rejected" | "denied" => false,
            _ => return None,
        },
        None => resolution["approved"].as_bool()?,
    };
    let reason = resolution["comment"]
        .as_str()
        .or_else(|| resolution["reason"].as_str())
        .map(str::trim)
        .filter(|r| !r.is_empty() && !approved)
        .map(str::to_owned);
    Some((approved, reason))
}

/// The conversation as `useChat` holds it, from the stored messages: user messages with
/// their text; each run of replies one assistant message (an answer's continuation goes on
/// the message that asked), its tool parts updated by the outputs reported later; and every
/// approval answered here (kept on the stored replies, plus `answer`: the card being answered
/// now, with its resolution) as `approval-responded`.
pub fn ui_messages(history: &[Value], answer: Option<(&str, &Value)>) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    let mut answers: Vec<(String, bool, Option<String>)> = Vec::new();
    let mut in_reply = false;
    for m in history {
        match m["role"].as_str() {
            Some("user") => {
                let text = super::reply::content_text(&m["content"]);
                let id = m["id"].as_str().unwrap_or_default();
                out.push(json!({ "id": id, "role": "user",
                                 "parts": [{ "type": "text", "text": text }] }));
                in_reply = false;
            }
            Some("assistant") => {
                let record = &m["metadata"][MESSAGE_KEY];
                let parts = match record["parts"].as_array() {
                    Some(parts) => parts.clone(),
                    None => {
                        let text = super::reply::content_text(&m["content"]);
                        let text = (!text.is_empty()).then(|| json!({ "type": "text", "text": text }));
                        text.into_iter().collect()
                    }
                };
                match out.last_mut().filter(|_| in_reply) {
                    Some(last) => {
                        if let Some(list) = last["parts"].as_array_mut() {
                            list.extend(parts);
                        }
                    }
                    None => {
                        let id = record["id"].as_str().or_else(|| m["id"].as_str());
                        out.push(json!({ "id": id.unwrap_or_default(), "role": "assistant",
                                         "parts": parts }));
                    }
                }
                if let Some(list) = out.last_mut().and_then(|l| l["parts"].as_array_mut()) {
                    for output in record["outputs"].as_array().into_iter().flatten() {
                        apply_output(list, output);
                    }
                }
                answers.extend(kept_answers(m));
                in_reply = true;
            }
            _ => {}
        }
    }
    if let Some((id, resolution)) = answer {
        if let Some((approved, reason)) = approval_answer(resolution) {
            answers.push((id.to_owned(), approved, reason));
        }
    }
    for message in out.iter_mut().filter(|m| m["role"] == "assistant") {
        for part in message["parts"].as_array_mut().into_iter().flatten() {
            if !part["approval"].is_object() || !part["approval"]["approved"].is_null() {
                continue;
            }
            let id = part["approval"]["id"].as_str().unwrap_or_default();
            if let Some((_, approved, reason)) = answers.iter().find(|(a, _, _)| a == id) {
                // A part its outputs moved on keeps their state, and the answer.
                if part["state"] == "approval-requested" {
                    part["state"] = Value::from("approval-responded");
                }
                part["approval"]["approved"] = Value::from(*approved);
                if let Some(reason) = reason {
                    part["approval"]["reason"] = Value::from(reason.as_str());
                }
            }
        }
    }
    out
}

/// The answers this page kept on a stored reply (`actionStates`, resolved with a
/// resolution).
fn kept_answers(message: &Value) -> Vec<(String, bool, Option<String>)> {
    let Some(states) = message["actionStates"].as_object() else {
        return Vec::new();
    };
    states
        .iter()
        .filter(|(_, s)| s["status"] == "resolved")
        .filter_map(|(id, s)| {
            let (approved, reason) = approval_answer(&s["resolution"])?;
            Some((id.clone(), approved, reason))
        })
        .collect()
}

/// The UI message id of the assistant message that holds the approval `approval_id`.
pub fn message_of(messages: &[Value], approval_id: &str) -> Option<String> {
    messages
        .iter()
        .filter(|m| m["role"] == "assistant")
        .find(|m| {
            m["parts"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|p| p["approval"]["id"] == approval_id)
        })
        .and_then(|m| m["id"].as_str().map(str::to_owned))
}

/// The tool name of a tool part (`tool-<name>`, or a dynamic tool's `toolName`).
fn tool_name(part: &Value) -> Option<&str> {
    match part["type"].as_str()? {
        "dynamic-tool" => part["toolName"].as_str(),
        other => other.strip_prefix("tool-"),
    }
}

fn is_tool_part(part: &Value) -> bool {
    tool_name(part).is_some() && part["toolCallId"].is_string()
}

/// Applies a `tool-output-*` chunk to the latest tool part of its call; `false` when no part
/// has it.
fn apply_output(parts: &mut [Value], chunk: &Value) -> bool {
    let id = &chunk["toolCallId"];
    let Some(part) = parts
        .iter_mut()
        .rev()
        .find(|p| is_tool_part(p) && p["toolCallId"] == *id)
    else {
        return false;
    };
    match chunk["type"].as_str() {
        Some("tool-output-available") => {
            part["state"] = Value::from("output-available");
            part["output"] = chunk["output"].clone();
            if chunk["preliminary"] == true {
                part["preliminary"] = Value::Bool(true);
            } else if let Some(p) = part.as_object_mut() {
                p.remove("preliminary");
            }
        }
        Some("tool-output-error") => {
            part["state"] = Value::from("output-error");
            part["errorText"] = chunk["errorText"].clone();
        }
        Some("tool-output-denied") => part["state"] = Value::from("output-denied"),
        _ => return false,
    }
    if chunk["providerMetadata"].is_object() {
        part["resultProviderMetadata"] = chunk["providerMetadata"].clone();
    }
    true
}

/// Reads a UI message stream, split anywhere: the text, the tool steps, the approvals the
/// turn stops on, the outputs of calls (a card's execution), and the UI message it built.
#[derive(Debug, Default)]
pub struct Decoder {
    frames: SseFrameDecoder,
    text: String,
    message_id: Option<String>,
    parts: Vec<Value>,
    /// Tool outputs for calls of an earlier message (an answer's continuation).
    outputs: Vec<Value>,
    /// Open text and reasoning parts: chunk id → index in `parts`.
    open: Vec<(String, usize)>,
    /// Index in `parts` where the current step began.
    step: usize,
    calls: Vec<ToolCall>,
    results: Map<String, Value>,
    approvals: Vec<Value>,
    citations: Vec<Value>,
    failed: bool,
}

impl Decoder {
    /// A decoder at the start of a reply.
    pub fn new() -> Decoder {
        Decoder::default()
    }

    /// Feeds bytes as they arrived; returns what they completed.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<Delta> {
        self.frames.push(bytes);
        self.drain(false)
    }

    /// The body ended: reads a last frame without its blank line.
    pub fn finish(&mut self) -> Vec<Delta> {
        self.drain(true)
    }

    /// What the reply left: its text, tool calls (already shown) and results, sources, the
    /// approvals it waits on, and the UI message it built (kept on the stored reply).
    pub fn ending(&self) -> Reply {
        let mut record = Map::new();
        if let Some(id) = &self.message_id {
            record.insert("id".into(), Value::from(id.as_str()));
        }
        record.insert("parts".into(), Value::Array(self.parts.clone()));
        if !self.outputs.is_empty() {
            record.insert("outputs".into(), Value::Array(self.outputs.clone()));
        }
        let mut message_metadata = Map::new();
        message_metadata.insert(MESSAGE_KEY.into(), Value::Object(record));
        Reply {
            content: self.text.clone(),
            tool_calls: self.calls.clone(),
            calls_streamed: true,
            results: self.results.clone(),
            citations: self.citations.clone(),
            pending_actions: (!self.approvals.is_empty())
                .then(|| Value::Array(self.approvals.clone())),
            message_metadata,
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
        let data = data.trim();
        if data.is_empty() || data == "[DONE]" {
            return;
        }
        match lenient::parse(data) {
            Ok(chunk @ Value::Object(_)) => self.chunk(&chunk, out),
            Ok(_) => out.push(Delta::Skipped("a chunk that is not an object".into())),
            Err(e) => out.push(Delta::Skipped(format!("unreadable chunk: {e}"))),
        }
    }

    fn chunk(&mut self, chunk: &Value, out: &mut Vec<Delta>) {
        let kind = chunk["type"].as_str().unwrap_or_default();
        let id = chunk["id"].as_str().unwrap_or_default();
        match kind {
            "start" => {
                if let Some(m) = chunk["messageId"].as_str().filter(|m| !m.is_empty()) {
                    self.message_id = Some(m.to_owned());
                }
            }
            "start-step" => {
                self.step = self.parts.len();
                self.parts.push(json!({ "type": "step-start" }));
            }
            "reset-step" => {
                self.parts.truncate(self.step);
                self.open.clear();
            }
            "text-start" | "reasoning-start" => {
                let kind = if kind == "text-start" { "text" } else { "reasoning" };
                if kind == "text" && !self.text.is_empty() && !self.text.ends_with('\n') {
                    // A new text part of the same reply reads as a new paragraph.
                    self.say("\n\n", out);
                }
                let mut part = json!({ "type": kind, "text": "", "state": "streaming" });
                if chunk["providerMetadata"].is_object() {
                    part["providerMetadata"] = chunk["providerMetadata"].clone();
                }
                self.open.retain(|(known, _)| known != id);
                self.open.push((id.to_owned(), self.parts.len()));
                self.parts.push(part);
            }
            "text-delta" | "reasoning-delta" => {
                let delta = chunk["delta"].as_str().unwrap_or_default();
                let kind = if kind == "text-delta" { "text" } else { "reasoning" };
                let at = self.open_part(id, kind);
                if let Some(text) = self.parts[at]["text"].as_str() {
                    self.parts[at]["text"] = Value::from(format!("{text}{delta}"));
                }
                if kind == "text" && !delta.is_empty() {
                    self.say(delta, out);
                }
            }
            "text-end" | "reasoning-end" => {
                if let Some(pos) = self.open.iter().position(|(known, _)| known == id) {
                    let (_, at) = self.open.remove(pos);
                    self.parts[at]["state"] = Value::from("done");
                    if chunk["citations"].is_array() {
                        self.parts[at]["citations"] = chunk["citations"].clone();
                    }
                }
            }
            "tool-input-start" | "tool-input-delta" | "tool-input-available"
            | "tool-input-error" => self.tool_input(kind, chunk, out),
            "tool-approval-request" => self.approval_request(chunk, out),
            "tool-approval-response" => self.approval_response(chunk),
            "tool-output-available" | "tool-output-error" | "tool-output-denied" => {
                self.tool_output(kind, chunk, out)
            }
            "source-url" => {
                let url = chunk["url"].as_str().unwrap_or_default();
                let title = chunk["title"].as_str().unwrap_or(url);
                self.citations.push(json!({ "id": chunk["sourceId"], "title": title,
                                            "link": url }));
                self.parts.push(chunk.clone());
            }
            "source-document" | "file" | "reasoning-file" | "custom" | "steering-message" => {
                self.parts.push(chunk.clone())
            }
            "error" => {
                let wording = chunk["errorText"]
                    .as_str()
                    .map(str::trim)
                    .filter(|t| !t.is_empty())
                    .unwrap_or(FAILED);
                if !self.failed {
                    self.failed = true;
                    out.push(Delta::Error(wording.to_owned()));
                }
            }
            data if data.starts_with("data-") => self.data_part(chunk),
            // `finish-step`, `finish`, `abort`, `message-metadata` and what a later SDK adds.
            _ => {}
        }
    }

    fn say(&mut self, text: &str, out: &mut Vec<Delta>) {
        if !self.failed {
            self.text.push_str(text);
            out.push(Delta::Text(text.to_owned()));
        }
    }

    /// The open part of chunk `id` (one is opened for a delta whose start never came).
    fn open_part(&mut self, id: &str, kind: &str) -> usize {
        if let Some((_, at)) = self
            .open
            .iter()
            .find(|(known, at)| known == id && self.parts[*at]["type"] == kind)
        {
            return *at;
        }
        self.open.push((id.to_owned(), self.parts.len()));
        self.parts
            .push(json!({ "type": kind, "text": "", "state": "streaming" }));
        self.parts.len() - 1
    }

    /// The tool part of `call` in the current step, made when it is new.
    fn tool_part(&mut self, call: &str, name: &str, dynamic: bool) -> usize {
        if let Some(at) = (self.step..self.parts.len())
            .rev()
            .find(|at| is_tool_part(&self.parts[*at]) && self.parts[*at]["toolCallId"] == call)
        {
            return at;
        }
        let mut part = if dynamic {
            json!({ "type": "dynamic-tool", "toolName": name })
        } else {
            json!({ "type": format!("tool-{name}") })
        };
        part["toolCallId"] = Value::from(call);
        part["state"] = Value::from("input-streaming");
        self.parts.push(part);
        self.parts.len() - 1
    }

    fn tool_input(&mut self, kind: &str, chunk: &Value, out: &mut Vec<Delta>) {
        let Some(call) = chunk["toolCallId"].as_str().filter(|c| !c.is_empty()) else {
            return out.push(Delta::Skipped(format!("{kind} without a toolCallId")));
        };
        let known = self.parts.iter().rev().find(|p| p["toolCallId"] == call);
        let name = chunk["toolName"]
            .as_str()
            .or_else(|| known.and_then(tool_name))
            .unwrap_or_default()
            .to_owned();
        if name.is_empty() {
            return out.push(Delta::Skipped(format!("{kind} of an unknown tool")));
        }
        let at = self.tool_part(call, &name, chunk["dynamic"] == true);
        let part = &mut self.parts[at];
        for key in ["title", "toolMetadata", "providerExecuted"] {
            if !chunk[key].is_null() {
                part[key] = chunk[key].clone();
            }
        }
        match kind {
            "tool-input-start" => {}
            "tool-input-delta" => {
                let piece = chunk["inputTextDelta"].as_str().unwrap_or_default();
                let raw = part["rawInput"].as_str().unwrap_or_default();
                part["rawInput"] = Value::from(format!("{raw}{piece}"));
            }
            "tool-input-available" => {
                part["state"] = Value::from("input-available");
                part["input"] = chunk["input"].clone();
                if let Some(p) = part.as_object_mut() {
                    p.remove("rawInput");
                }
                if chunk["providerMetadata"].is_object() {
                    part["callProviderMetadata"] = chunk["providerMetadata"].clone();
                }
                let args = match &chunk["input"] {
                    Value::Null => json!({}),
                    input => input.clone(),
                };
                let call = ToolCall {
                    id: call.to_owned(),
                    name,
                    args,
                };
                match self.calls.iter_mut().find(|c| c.id == call.id) {
                    Some(known) => *known = call.clone(),
                    None => self.calls.push(call.clone()),
                }
                out.push(Delta::ToolStarted(call));
            }
            _ => {
                let error = chunk["errorText"].as_str().unwrap_or(FAILED).to_owned();
                part["state"] = Value::from("output-error");
                part["input"] = chunk["input"].clone();
                part["errorText"] = Value::from(error.as_str());
                let result = json!({ "error": error });
                self.results.insert(call.to_owned(), result.clone());
                let id = call.to_owned();
                out.push(Delta::ToolFinished { id, name, result });
            }
        }
    }

    fn approval_request(&mut self, chunk: &Value, out: &mut Vec<Delta>) {
        let approval_id = chunk["approvalId"].as_str().filter(|a| !a.is_empty());
        let call = chunk["toolCallId"].as_str().filter(|c| !c.is_empty());
        let (Some(approval_id), Some(call)) = (approval_id, call) else {
            return out.push(Delta::Skipped("an approval request without ids".into()));
        };
        let Some(part) = self
            .parts
            .iter_mut()
            .rev()
            .find(|p| is_tool_part(p) && p["toolCallId"] == call)
        else {
            return out.push(Delta::Skipped("an approval request for no tool call".into()));
        };
        let mut approval = json!({ "id": approval_id });
        for (from, to) in [
            ("approvalDescriptor", "descriptor"),
            ("inputSchemaInput", "inputSchemaInput"),
            ("reason", "requestReason"),
            ("signature", "signature"),
        ] {
            if let Some(value) = chunk.get(from).filter(|v| !v.is_null()) {
                approval[to] = value.clone();
            }
        }
        if chunk["isAutomatic"] == true {
            approval["isAutomatic"] = Value::Bool(true);
        }
        part["state"] = Value::from("approval-requested");
        part["approval"] = approval;
        let args = match &part["input"] {
            Value::Null => json!({}),
            input => input.clone(),
        };
        let mut action = json!({ "id": approval_id, "type": "tool_approval", "status": "pending",
                                 "toolCallId": call, "toolName": tool_name(part),
                                 "args": args });
        if let Some(reason) = chunk["reason"].as_str().filter(|r| !r.trim().is_empty()) {
            action["summary"] = Value::from(reason);
        }
        if let Some(title) = part["title"].as_str() {
            action["title"] = Value::from(title);
        }
        self.approvals.retain(|a| a["id"] != approval_id);
        self.approvals.push(action);
    }

    /// The server decided an approval itself: it no longer waits on the person.
    fn approval_response(&mut self, chunk: &Value) {
        let Some(approval_id) = chunk["approvalId"].as_str() else {
            return;
        };
        self.approvals.retain(|a| a["id"] != approval_id);
        if let Some(part) = self
            .parts
            .iter_mut()
            .rev()
            .find(|p| p["approval"]["id"] == approval_id)
        {
            part["state"] = Value::from("approval-responded");
            part["approval"]["approved"] = Value::Bool(chunk["approved"] == true);
            if let Some(reason) = chunk["reason"].as_str() {
                part["approval"]["reason"] = Value::from(reason);
            }
        }
    }

    fn tool_output(&mut self, kind: &str, chunk: &Value, out: &mut Vec<Delta>) {
        let Some(call) = chunk["toolCallId"].as_str().filter(|c| !c.is_empty()) else {
            return out.push(Delta::Skipped(format!("{kind} without a toolCallId")));
        };
        if !apply_output(&mut self.parts, chunk) {
            self.outputs.push(chunk.clone());
        }
        let name = self
            .parts
            .iter()
            .rev()
            .find(|p| p["toolCallId"] == call)
            .and_then(tool_name)
            .or_else(|| chunk["toolName"].as_str())
            .unwrap_or_default()
            .to_owned();
        let id = call.to_owned();
        match kind {
            "tool-output-available" if chunk["preliminary"] != true => {
                let result = chunk["output"].clone();
                self.results.insert(id.clone(), result.clone());
                out.push(Delta::ToolFinished {
                    id: id.clone(),
                    name,
                    result: result.clone(),
                });
                out.push(Delta::Executed {
                    tool_call_id: id,
                    result: Some(result),
                    error: None,
                });
            }
            "tool-output-error" => {
                let error = chunk["errorText"].as_str().unwrap_or(FAILED).to_owned();
                let result = json!({ "error": error });
                self.results.insert(id.clone(), result.clone());
                out.push(Delta::ToolFinished {
                    id: id.clone(),
                    name,
                    result,
                });
                out.push(Delta::Executed {
                    tool_call_id: id,
                    result: None,
                    error: Some(error),
                });
            }
            _ => {}
        }
    }

    /// A `data-*` part: kept unless transient, replacing the one of the same type and id.
    fn data_part(&mut self, chunk: &Value) {
        if chunk["transient"] == true {
            return;
        }
        let mut part = json!({ "type": chunk["type"], "data": chunk["data"] });
        if chunk["id"].is_string() {
            part["id"] = chunk["id"].clone();
            if let Some(known) = self
                .parts
                .iter_mut()
                .find(|p| p["type"] == chunk["type"] && p["id"] == chunk["id"])
            {
                *known = part;
                return;
            }
        }
        self.parts.push(part);
    }
}

/// Reads a whole reply (a send that did not stream gets the same stream, whole): the
/// server's error in its words, or what the reply left.
pub fn read_reply(body: &str) -> Result<Reply, ReadError> {
    let mut decoder = Decoder::new();
    let mut deltas = decoder.push(body.as_bytes());
    deltas.extend(decoder.finish());
    match deltas.into_iter().find_map(|d| match d {
        Delta::Error(wording) => Some(wording),
        _ => None,
    }) {
        Some(wording) => Err(ReadError::Refused(wording)),
        None => Ok(decoder.ending()),
    }
}

/// What an AI SDK route can do: conversations in the page; approvals answered by sending
/// the conversation again, never remembered for the chat.
pub const CAPABILITIES: Capabilities = Capabilities {
    names: &["ai-sdk", "aisdk", "vercel-ai"],
    named_by_page: true,
    keeps_threads: true,
    can_resolve: true,
    answers_at_action_url: false,
    remembers: false,
    runs_in_page: false,
    storage_tag: Some("ai-sdk"),
};

/// An AI SDK route behind the gateway.
pub fn build(_: &TransportOptions) -> Option<Box<dyn Backend>> {
    Some(Box::new(AiSdk))
}

/// An AI SDK route as a [`Backend`].
#[derive(Debug)]
pub struct AiSdk;

impl Backend for AiSdk {
    fn capabilities(&self) -> &'static Capabilities {
        &CAPABILITIES
    }

    /// The configured agent, saying what the protocol cannot: a new message leaves the
    /// waiting approvals behind, and arguments cannot be edited (the server runs the call as
    /// the model wrote it) nor a tool remembered for the chat.
    fn agents(&self, options: &TransportOptions) -> Value {
        let id = options.agent();
        json!({ "agents": [{ "id": id, "name": id,
            "metadata": { "pendingActionComposerMode": "cancel" },
            "capabilities": { "approvalArgsEdit": false, "approvalRemember": false } }] })
    }

    fn send_request(&self, send: &SendCall<'_>) -> WireCall {
        let thread = send.thread;
        let mut messages = ui_messages(&thread.messages, None);
        messages.push(user_message(send.message_id, send.text, send.files));
        WireCall {
            path: PATH.to_owned(),
            body: request_body(thread.id(), messages, None),
        }
    }

    /// A new message leaves the waiting approvals behind (the server drops them).
    fn on_new_message(
        &self,
        thread: &mut super::threads::Thread,
        at: &str,
    ) -> Vec<(String, &'static str)> {
        settle_waiting(thread, at, "cancelled")
    }

    /// The conversation again, with this approval (and the others of its turn, answered
    /// before) responded.
    fn answer_request(&self, answer: &AnswerCall<'_>) -> Result<WireCall, (u16, String)> {
        let resolution = answer.resolution;
        if approval_answer(resolution).is_none() {
            let why = "This backend takes only approvals and denials.";
            return Err(refusal(400, "VALIDATION_ERROR", why));
        }
        if resolution["approvedArgs"].is_object() {
            let why = "This backend runs a tool only with the arguments it proposed.";
            return Err(refusal(400, "VALIDATION_ERROR", why));
        }
        let thread = answer.thread;
        let messages = ui_messages(&thread.messages, Some((answer.action_id, resolution)));
        let message_id = message_of(&messages, answer.action_id);
        Ok(WireCall {
            path: PATH.to_owned(),
            body: request_body(thread.id(), messages, message_id.as_deref()),
        })
    }

    fn answers_together(&self) -> bool {
        true
    }

    fn decoder(&self) -> Box<dyn ReplyDecoder> {
        Box::new(Decoder::new())
    }

    fn read_reply(&self, body: &str) -> Result<Reply, ReadError> {
        read_reply(body)
    }
}

super::reply::reply_decoder!(Decoder);
