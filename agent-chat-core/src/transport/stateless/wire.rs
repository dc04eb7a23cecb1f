//! What the wire answers to a turn: the backend's reply, streamed or whole, read with its decoder
//! and played back to the session as the agent server's `stream.*` frames or the JSON answer of
//! `POST /conversations/:id/messages`; the reply is stored in the thread, with the title of a first
//! exchange.

use std::collections::VecDeque;

use serde_json::{json, Value};

use super::super::backend::ReadError;
use super::super::reply::{error_envelope, Delta, Failure, FailureKind, Reply, CHAIN_KEY};
use super::super::threads::title_from;
use super::super::GatewayOutput;
use super::{Out, Stateless, WireTurn};
use crate::time::{format_iso, Millis};
use crate::{HttpResponse, Input, TransportError};

impl Stateless {
    /// What the wire answered.
    pub(in crate::transport) fn wire(
        &mut self,
        now: Millis,
        input: Input,
        outputs: &mut VecDeque<GatewayOutput>,
    ) {
        let id = match &input {
            Input::Response { id, .. }
            | Input::StreamChunk { id, .. }
            | Input::StreamClosed { id, .. } => *id,
            _ => return,
        };
        if self.agents_request == Some(id) {
            if let Input::Response { result, .. } = input {
                self.on_agents(result, outputs);
            }
            return;
        }
        if let Some(pos) = self.syncs.iter().position(|s| s.wire == id) {
            if let Input::Response { result, .. } = input {
                self.on_server_thread(now, pos, result, outputs);
            }
            return;
        }
        let Some(pos) = self.turns.iter().position(|t| t.wire == id) else {
            return; // aborted
        };
        match input {
            Input::Response { result, .. } => {
                let turn = self.turns.remove(pos);
                self.on_response(now, turn, result, outputs);
            }
            Input::StreamChunk { bytes, .. } => {
                let deltas = self.turns[pos].decoder.push(&bytes);
                self.on_deltas(now, pos, deltas, outputs);
            }
            Input::StreamClosed { error, .. } => {
                let deltas = self.turns[pos].decoder.finish();
                self.on_deltas(now, pos, deltas, outputs);
                let turn = self.turns.remove(pos);
                self.leave_unreported(now, &turn, true, outputs);
                match error {
                    Some(e) => Out(outputs).close(turn.session, Some(e)),
                    None if turn.failed => {
                        if let Some(failure) = turn.error.clone() {
                            self.keep_failure(now, &turn, &failure, outputs);
                        }
                        Out(outputs).close(turn.session, None)
                    }
                    None => self.finish_stream(now, turn, outputs),
                }
            }
            _ => {}
        }
    }

    fn start(&mut self, now: Millis, pos: usize, outputs: &mut VecDeque<GatewayOutput>) {
        if !self.turns[pos].started && self.turns[pos].answering.is_some() {
            // The backend took the answer: the card settles before its continuation (C7).
            let mut turn = self.turns.remove(pos);
            self.accept_answer(now, &mut turn, outputs);
            self.turns.insert(pos, turn);
        }
        let turn = &mut self.turns[pos];
        if !turn.started {
            turn.started = true;
            for (action_id, status) in std::mem::take(&mut turn.settles) {
                let event = json!({ "type": "stream.action_resolved",
                                    "conversationId": turn.conversation_id,
                                    "actionId": action_id, "status": status });
                Out(outputs).frame(turn.session, now, event);
            }
            let start = json!({ "type": "stream.start", "conversationId": turn.conversation_id,
                                "messageId": turn.user["id"] });
            Out(outputs).frame(turn.session, now, start);
        }
    }

    fn on_deltas(
        &mut self,
        now: Millis,
        pos: usize,
        deltas: Vec<Delta>,
        outputs: &mut VecDeque<GatewayOutput>,
    ) {
        self.start(now, pos, outputs);
        let name = self.backend.capabilities().name();
        let mut executed = Vec::new();
        let turn = &mut self.turns[pos];
        for delta in deltas {
            if turn.failed {
                break;
            }
            match delta {
                Delta::Text(text) => {
                    turn.text.push_str(&text);
                    Out(outputs).frame(
                        turn.session,
                        now,
                        json!({ "type": "stream.text", "text": text }),
                    );
                }
                Delta::Error(failure) => {
                    turn.failed = true;
                    let event = json!({ "type": "stream.error", "error": failure.error_object() });
                    turn.error = Some(failure);
                    Out(outputs).frame(turn.session, now, event);
                }
                Delta::Skipped(why) => outputs.push_back(GatewayOutput::Log(format!(
                    "{name}: skipped a frame: {why}"
                ))),
                Delta::ToolStarted(call) => {
                    let event = json!({ "type": "stream.tool_call", "toolName": call.name,
                                        "toolCallId": call.id, "args": call.args });
                    Out(outputs).frame(turn.session, now, event);
                }
                Delta::ToolFinished { id, name, result } => {
                    let event = json!({ "type": "stream.tool_result", "toolName": name,
                                        "toolCallId": id, "result": result });
                    Out(outputs).frame(turn.session, now, event);
                }
                Delta::Executed {
                    tool_call_id,
                    result,
                    error,
                } => executed.push((tool_call_id, result, error)),
            }
        }
        let (session, conversation_id) = (turn.session, turn.conversation_id.clone());
        for (tool_call_id, result, error) in executed {
            self.record_execution(&conversation_id, &tool_call_id, result, error);
            self.save(&conversation_id, outputs);
            if let Some(event) = self.execution_event(&conversation_id, &tool_call_id) {
                Out(outputs).frame(session, now, event);
            }
        }
    }

    /// Keeps how the call `tool_call_id` ran on the card that asked about it (its entry in
    /// the stored reply's `pendingActions`), so a reload reads the same stage.
    fn record_execution(
        &mut self,
        conversation_id: &str,
        tool_call_id: &str,
        result: Option<Value>,
        error: Option<String>,
    ) {
        let Some(thread) = self.thread_mut(conversation_id) else {
            return;
        };
        let entry = thread
            .messages
            .iter_mut()
            .rev()
            .filter_map(|m| m["metadata"]["pendingActions"].as_array_mut())
            .flatten()
            .find(|a| a["toolCallId"] == tool_call_id && a["type"] == "tool_approval");
        let Some(entry) = entry else {
            return;
        };
        let failed = error.is_some();
        entry["executionStatus"] = Value::from(if failed { "failed" } else { "completed" });
        if let Some(result) = result {
            entry["executionResult"] = result;
        }
        if let Some(error) = error {
            entry["executionError"] = Value::from(error);
        }
    }

    /// `stream.action_updated` for the card that asked about `tool_call_id`: its record as
    /// kept, settled with the answer this page sent.
    pub(super) fn execution_event(
        &self,
        conversation_id: &str,
        tool_call_id: &str,
    ) -> Option<Value> {
        let thread = self.threads.iter().find(|t| t.id() == conversation_id)?;
        thread.messages.iter().rev().find_map(|m| {
            let entry = m["metadata"]["pendingActions"]
                .as_array()?
                .iter()
                .find(|a| a["toolCallId"] == tool_call_id && a["type"] == "tool_approval")?;
            let id = entry["id"].as_str()?;
            let mut record = entry.clone();
            let kept = &m["actionStates"][id];
            record["status"] = match kept["status"].as_str() {
                Some(status) => Value::from(status),
                None => Value::from("resolved"),
            };
            if !kept["resolution"].is_null() {
                record["resolution"] = kept["resolution"].clone();
            }
            Some(
                json!({ "type": "stream.action_updated", "conversationId": conversation_id,
                         "action": record }),
            )
        })
    }

    fn finish_stream(
        &mut self,
        now: Millis,
        mut turn: WireTurn,
        outputs: &mut VecDeque<GatewayOutput>,
    ) {
        let ending = turn.decoder.ending();
        // A server that stated the whole text only at the end (or more than it streamed), or
        // replaced what it streamed (an A2A artifact): `stream.done` carries the final text.
        if !ending.content.is_empty() && ending.content != turn.text {
            if let Some(rest) = ending.content.strip_prefix(turn.text.as_str()) {
                Out(outputs).frame(
                    turn.session,
                    now,
                    json!({ "type": "stream.text", "text": rest }),
                );
            }
            turn.text = ending.content.clone();
        }
        self.finish_frames(now, turn, &ending, outputs);
    }

    /// The end of a streamed turn: its tool calls (whole only now), the stored reply, and
    /// `stream.done` with the title of a first exchange, the sources and the actions the
    /// backend waits on.
    fn finish_frames(
        &mut self,
        now: Millis,
        turn: WireTurn,
        ending: &Reply,
        outputs: &mut VecDeque<GatewayOutput>,
    ) {
        for call in ending.tool_calls.iter().filter(|_| !ending.calls_streamed) {
            let event = json!({ "type": "stream.tool_call", "toolName": call.name,
                                "toolCallId": call.id, "args": call.args });
            Out(outputs).frame(turn.session, now, event);
        }
        let (assistant, title) = self.store_reply(now, &turn, turn.text.clone(), ending, outputs);
        let mut done = json!({ "type": "stream.done", "conversationId": turn.conversation_id,
                               "messageId": assistant["id"], "content": turn.text });
        if let Some(title) = title {
            done["title"] = Value::from(title);
        }
        if let Some(usage) = &ending.usage {
            done["usage"] = usage.clone();
        }
        if !ending.citations.is_empty() {
            done["citations"] = Value::from(ending.citations.clone());
        }
        if let Some(actions) = &ending.pending_actions {
            done["status"] = Value::from("requires_action");
            done["pendingActions"] = actions.clone();
        }
        Out(outputs).frame(turn.session, now, done);
        Out(outputs).close(turn.session, None);
    }

    fn on_response(
        &mut self,
        now: Millis,
        turn: WireTurn,
        result: Result<HttpResponse, TransportError>,
        outputs: &mut VecDeque<GatewayOutput>,
    ) {
        let resp = match result {
            Ok(resp) => resp,
            Err(e) => {
                return outputs.push_back(GatewayOutput::Session(Input::Response {
                    id: turn.session,
                    result: Err(e),
                }))
            }
        };
        if !(200..300).contains(&resp.status) {
            let body = self
                .backend
                .refusal(resp.status, &resp.body, turn.answering.is_some());
            if let Some(a) = &turn.answering {
                let (message_id, action_id) = (a.message_id.as_str(), a.action_id.as_str());
                let cid = turn.conversation_id.as_str();
                if let Some(pos) = self.threads.iter().position(|t| t.id() == cid) {
                    let messages = &mut self.threads[pos].messages;
                    if self
                        .backend
                        .answer_gone(messages, message_id, action_id, &body)
                    {
                        self.save(cid, outputs);
                    }
                }
            }
            // The server's wait goes with its refusal (too many requests: how long).
            return Out(outputs).refuse(turn.session, resp.status, body, resp.retry_after);
        }
        // A 2xx body that is an error object (`{error: {message}}`, as Cogitator answers a
        // failed run): the server's own words, as for any refusal.
        if has_error_object(&resp.body) {
            return Out(outputs).respond(turn.session, 502, error_envelope(502, &resp.body));
        }
        let read = match self.backend.read_reply(&resp.body) {
            Err(ReadError::Refused(failure)) => {
                self.keep_failure(now, &turn, &failure, outputs);
                let body = json!({ "error": failure.error_object() });
                return Out(outputs).respond(turn.session, 502, body.to_string());
            }
            Err(ReadError::Unreadable(why)) => Err(why),
            Ok(reply) => Ok(reply),
        };
        let reply = match read {
            Ok(reply) => reply,
            Err(why) => {
                outputs.push_back(GatewayOutput::Log(format!(
                    "{}: unreadable reply: {why}",
                    self.backend.capabilities().name()
                )));
                let unreadable = Failure::new(FailureKind::Unreadable, None);
                let body = json!({ "error": unreadable.error_object() });
                return Out(outputs).respond(turn.session, 502, body.to_string());
            }
        };
        let mut turn = turn;
        // A whole 2xx reply: the backend took the answer. A whole reply reports no tool's
        // outcome on its own, so the calls the answer ran read as decided.
        self.accept_answer(now, &mut turn, outputs);
        self.leave_unreported(now, &turn, turn.stream, outputs);
        if turn.stream {
            // A server that ignored `stream: true` and answered whole: the same reply, framed.
            turn.text = reply.content.clone();
            let session = turn.session;
            let start = json!({ "type": "stream.start", "conversationId": turn.conversation_id,
                                "messageId": turn.user["id"] });
            Out(outputs).frame(session, now, start);
            if !reply.content.is_empty() {
                let text = json!({ "type": "stream.text", "text": reply.content });
                Out(outputs).frame(session, now, text);
            }
            return self.finish_frames(now, turn, &reply, outputs);
        }
        let (assistant, title) =
            self.store_reply(now, &turn, reply.content.clone(), &reply, outputs);
        if turn.answering.is_some() {
            let body = self.answer_body(&turn, &assistant, reply.pending_actions.as_ref());
            return Out(outputs).respond(turn.session, 200, body.to_string());
        }
        let mut body = json!({ "message": turn.user, "response": assistant });
        if let Some(title) = title {
            body["conversationTitle"] = Value::from(title);
        }
        if let Some(usage) = reply.usage {
            body["usage"] = usage;
        }
        if let Some(actions) = reply.pending_actions {
            body["status"] = Value::from("requires_action");
            body["pendingActions"] = actions;
        }
        Out(outputs).respond(turn.session, 200, body.to_string());
    }

    /// A turn that failed in the agent's words, kept in the conversation when the backend
    /// keeps failed turns: a reply with what it said so far and `metadata.error`, so a reload
    /// still shows why the task ended.
    fn keep_failure(
        &mut self,
        now: Millis,
        turn: &WireTurn,
        failure: &Failure,
        outputs: &mut VecDeque<GatewayOutput>,
    ) {
        if !self.backend.keeps_failed_turns() {
            return;
        }
        let reply = Reply::default();
        let (message, _) = self.store_reply(now, turn, turn.text.clone(), &reply, outputs);
        let Some(thread) = self.thread_mut(&turn.conversation_id) else {
            return;
        };
        if let Some(stored) = thread
            .messages
            .iter_mut()
            .find(|m| m["id"] == message["id"])
        {
            if !stored["metadata"].is_object() {
                stored["metadata"] = json!({});
            }
            if let Some(metadata) = stored["metadata"].as_object_mut() {
                failure.keep_in(metadata);
            }
        }
        self.save(&turn.conversation_id, outputs);
    }

    /// Stores the assistant's message (with its tool calls, so a reload shows the steps, its
    /// sources and the actions it waits on) and, on the first exchange, the title; keeps the
    /// reply's id for chaining the next turn. Returns the message and the new title.
    pub(super) fn store_reply(
        &mut self,
        now: Millis,
        turn: &WireTurn,
        content: String,
        reply: &Reply,
        outputs: &mut VecDeque<GatewayOutput>,
    ) -> (Value, Option<String>) {
        let calls = &reply.tool_calls;
        let id = self.new_id("msg", now);
        let at = format_iso(now);
        let mut message = json!({ "id": id, "conversationId": turn.conversation_id,
                                  "role": "assistant", "content": content,
                                  "createdAt": at, "updatedAt": at });
        if !calls.is_empty() {
            message["toolCalls"] = calls
                .iter()
                .map(|c| json!({ "id": c.id, "name": c.name, "arguments": c.args.to_string() }))
                .collect();
            message["metadata"] = json!({ "toolCallDetails": calls
                .iter()
                .map(|c| {
                    let mut detail = json!({ "id": c.id, "name": c.name, "args": c.args });
                    if let Some(result) = reply.results.get(&c.id) {
                        detail["result"] = result.clone();
                    }
                    detail
                })
                .collect::<Vec<_>>() });
        }
        if !reply.citations.is_empty() {
            message["citations"] = Value::from(reply.citations.clone());
        }
        if !reply.message_metadata.is_empty() {
            if !message["metadata"].is_object() {
                message["metadata"] = json!({});
            }
            for (key, value) in &reply.message_metadata {
                message["metadata"][key.as_str()] = value.clone();
            }
        }
        if let Some(actions) = &reply.pending_actions {
            if !message["metadata"].is_object() {
                message["metadata"] = json!({});
            }
            message["metadata"]["pendingActions"] = actions.clone();
        }
        let mut title = None;
        if let Some(thread) = self.thread_mut(&turn.conversation_id) {
            if !thread.conversation["metadata"].is_object() {
                thread.conversation["metadata"] = json!({});
            }
            let metadata = &mut thread.conversation["metadata"];
            if let Some(id) = &reply.response_id {
                metadata[CHAIN_KEY] = Value::from(id.as_str());
            }
            for (key, value) in &reply.keep {
                if let Some(m) = metadata.as_object_mut() {
                    if value.is_null() {
                        m.remove(key);
                    } else {
                        m.insert(key.clone(), value.clone());
                    }
                }
            }
            thread.messages.push(message.clone());
            thread.conversation["updatedAt"] = Value::from(at);
            if turn.first && thread.conversation["title"].as_str().is_none() {
                let t = title_from(turn.user["content"].as_str().unwrap_or_default());
                thread.conversation["title"] = Value::from(t.clone());
                title = Some(t);
            }
        }
        self.save(&turn.conversation_id, outputs);
        (message, title)
    }
}

/// Whether `body` is a JSON object whose `error` is an object or a non-empty string.
fn has_error_object(body: &str) -> bool {
    serde_json::from_str::<Value>(body).is_ok_and(|v| match v.get("error") {
        Some(Value::Object(_)) => true,
        Some(Value::String(s)) => !s.is_empty(),
        _ => false,
    })
}
