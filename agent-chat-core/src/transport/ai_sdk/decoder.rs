//! Reading the UI message stream, split anywhere, as `processUIMessageStream` reads it: the
//! text, the tool steps, the approvals the turn stops on, the outputs of calls, and the
//! message it built.

use serde_json::{json, Map, Value};

use super::super::backend::ReadError;
use super::super::reply::{drain_frames, Delta, Failure, FailureKind, Reply, ToolCall};
use super::request::{apply_output, is_tool_part, tool_name};
use super::MESSAGE_KEY;
use crate::lenient;
use crate::sse::SseFrameDecoder;

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
            "error" if !self.failed => {
                self.failed = true;
                let words = chunk["errorText"].as_str();
                out.push(Delta::Error(Failure::new(FailureKind::AgentError, words)));
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
                let error = chunk["errorText"].as_str().unwrap_or_default().trim().to_owned();
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
                let error = chunk["errorText"].as_str().unwrap_or_default().trim().to_owned();
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
        Delta::Error(failure) => Some(failure),
        _ => None,
    }) {
        Some(failure) => Err(ReadError::Refused(failure)),
        None => Ok(decoder.ending()),
    }
}

