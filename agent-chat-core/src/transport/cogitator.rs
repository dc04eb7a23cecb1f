//! A Cogitator server on the wire: the agent list, the run a
//! turn starts, the resume that answers its cards, and the results read back.
//!
//! The paths are those of Cogitator's server adapters (Express, Koa, Fastify, Hono), below
//! the base URL: `GET /agents` lists the agents (`{agents: [{name, description}]}`),
//! `POST /agents/:name/stream` runs one streaming (SSE whose `data` is a JSON event with a
//! `type`: `start`, `text-delta`, `tool-call-start` / `-delta` / `-end`, `tool-result`,
//! `approval-required`, `error`, `finish`, then `[DONE]`), `POST /agents/:name/run` runs one
//! whole (`{output, threadId, usage, toolCalls, status, pendingApprovals?}`), and
//! `POST /agents/:name/resume` takes decisions (`{threadId, decisions?, defaultDecision?}`)
//! and answers like `/run`. Cogitator's docs do not describe the run endpoint, so these are the
//! configured shape. The thread id is the conversation's id unless the server named
//! another (kept in the conversation's metadata).
//!
//! A run that stops with `status: "paused"` waits on `pendingApprovals`; each one becomes a
//! `tool_approval` card (`id = toolCallId`, `args = arguments`, `summary = description`,
//! `sideEffects` kept for the card's chips).

use serde_json::{json, Map, Value};

use super::reply::{
    drain_frames, error_words, parse_arguments, Delta, Failure, FailureKind, Reply, ToolCall,
    WireFile,
};
use super::backend::{
    AnswerCall, Backend, Capabilities, ReadError, Refusal, SendCall, WireCall,
};
use super::reply::ReplyDecoder;
use super::threads::{reply_listing, Thread};
use super::TransportOptions;
use super::reply::push_whole_or_stream;
use crate::sse::SseFrameDecoder;
use crate::{encode, lenient, HttpResponse, TransportError};

/// A server's agents: name and description.
pub type Agents = Vec<(String, Option<String>)>;

/// The agent list, below the base URL.
pub const AGENTS_PATH: &str = "/agents";
/// The conversation metadata key of the server's thread, when it named one other than the
/// conversation id.
pub const THREAD_KEY: &str = "cogitatorThreadId";
/// The reason sent with a decline that carries no comment of the person's.
pub const DECLINED: &str = "Declined by the user.";

/// The path that runs `agent`: `/agents/:name/stream` when streaming, else `/run`.
pub fn run_path(agent: &str, stream: bool) -> String {
    let verb = if stream { "stream" } else { "run" };
    format!("{AGENTS_PATH}/{}/{verb}", encode(agent))
}

/// The path that resumes `agent`'s paused run.
pub fn resume_path(agent: &str) -> String {
    format!("{AGENTS_PATH}/{}/resume", encode(agent))
}

/// The thread a conversation runs in: the one the server named, else the conversation id.
pub fn thread_id<'a>(conversation_id: &'a str, metadata: &'a Value) -> &'a str {
    metadata[THREAD_KEY]
        .as_str()
        .filter(|t| !t.is_empty())
        .unwrap_or(conversation_id)
}

/// The request body of a turn: the person's text (files are named in it: the run takes
/// text only) in the conversation's thread.
pub fn request_body(thread_id: &str, text: &str, files: &[WireFile]) -> Value {
    let mut input = text.to_owned();
    for f in files {
        input.push_str(&format!("\n[Attached file: {}]", f.name));
    }
    json!({ "input": input, "threadId": thread_id })
}

/// One decision of a resume, from a `POST /conversations/:cid/actions/:aid` resolution
/// (`{decision, comment?}` or `{approved, reason?}`): allow → `{approved: true}`; deny →
/// `{approved: false, reason}` (the person's comment, else [`DECLINED`]). `None` for a resolution
/// that is not an approval.
pub fn decision(resolution: &Value) -> Option<Value> {
    let allow = match resolution["decision"].as_str() {
        Some(d) => match d.to_ascii_lowercase().as_str() {
            "allow" | "approve" | "approved" => true,
            "deny" | "reject" | "rejected" | "denied" => false,
            _ => return None,
        },
        None => resolution["approved"].as_bool()?,
    };
    if allow {
        return Some(json!({ "approved": true }));
    }
    let reason = resolution["comment"]
        .as_str()
        .or_else(|| resolution["reason"].as_str())
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .unwrap_or(DECLINED);
    Some(json!({ "approved": false, "reason": reason }))
}

/// The resume body that decides one call. The others of the turn keep waiting (no
/// `defaultDecision`): the server answers `paused` with them, and each is answered from its
/// own card (or all at once by "Approve all": [`batch_resume_body`]).
pub fn resume_body(thread_id: &str, tool_call_id: &str, decision: Value) -> Value {
    let mut decisions = Map::new();
    decisions.insert(tool_call_id.to_owned(), decision);
    json!({ "threadId": thread_id, "decisions": decisions })
}

/// The resume body that decides several calls of one paused run at once ("Approve all",
/// "Deny all"): `decided` are the calls with their decisions, `waiting` every call the run
/// waits on. When the decided calls are all the calls that wait, one decision answers them
/// (`defaultDecision` answers every waiting call at once): the decision most of
/// them share (the first one's on a tie) is `defaultDecision`, and `decisions` names only the
/// calls decided otherwise (left out when there are none). When a waiting call is not among
/// them, no default is sent (it would answer a call the person did not decide): each decided
/// call is named in `decisions`.
pub fn batch_resume_body(thread_id: &str, decided: &[(String, Value)], waiting: &[String]) -> Value {
    let all = waiting
        .iter()
        .all(|w| decided.iter().any(|(id, _)| id == w));
    let default = all
        .then(|| {
            decided
                .iter()
                .map(|(_, d)| d)
                .max_by_key(|d| {
                    let shared = decided.iter().filter(|(_, o)| o == *d).count();
                    let first = decided.iter().position(|(_, o)| o == *d).unwrap_or(0);
                    (shared, std::cmp::Reverse(first))
                })
                .cloned()
        })
        .flatten();
    let mut decisions = Map::new();
    for (id, d) in decided {
        if default.as_ref() != Some(d) {
            decisions.insert(id.clone(), d.clone());
        }
    }
    let mut body = json!({ "threadId": thread_id });
    if let Some(d) = default {
        body["defaultDecision"] = d;
    }
    if !decisions.is_empty() {
        body["decisions"] = Value::Object(decisions);
    }
    body
}

/// The calls the stored reply that lists `action_id` still waits on: its pending entries
/// with no answer kept.
pub fn waiting_calls(messages: &[Value], action_id: &str) -> Vec<String> {
    let Some(reply) = reply_listing(messages, action_id) else {
        return Vec::new();
    };
    reply["metadata"]["pendingActions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|a| matches!(a["status"].as_str(), None | Some("pending")))
        .filter_map(|a| a["id"].as_str())
        .filter(|id| reply["actionStates"].get(*id).is_none())
        .filter(|id| reply["metadata"]["actionStates"].get(*id).is_none())
        .map(str::to_owned)
        .collect()
}

/// The wire request that answers one card (`POST /conversations/:cid/actions/:aid` → resume):
/// `POST /agents/:name/resume` deciding the call `action_id` in `thread_id`; `None` for a
/// resolution that is not an approval (this dialect has no other kind).
pub fn answer_request(
    agent: &str,
    thread_id: &str,
    action_id: &str,
    resolution: &Value,
) -> Option<(String, Value)> {
    let decision = decision(resolution)?;
    Some((
        resume_path(agent),
        resume_body(thread_id, action_id, decision),
    ))
}

/// A Cogitator error code as the agent server's: `THREAD_ACCESS_DENIED` (another
/// user's run) → `action_forbidden`, `RUN_NOT_PAUSED` (nothing waits any more) →
/// `action_not_pending`; others unchanged.
pub fn action_error_code(code: &str) -> &str {
    match code {
        "THREAD_ACCESS_DENIED" => "action_forbidden",
        "RUN_NOT_PAUSED" => "action_not_pending",
        other => other,
    }
}

/// A refusal of a resume as the agent server's envelope: the server's wording, the code
/// mapped by [`action_error_code`].
pub fn action_error_envelope(status: u16, body: &str) -> String {
    let envelope = super::reply::error_envelope(status, body);
    let mut value: Value = serde_json::from_str(&envelope).unwrap_or_else(|_| json!({}));
    if let Some(code) = value["error"]["code"].as_str().map(str::to_owned) {
        value["error"]["code"] = Value::from(action_error_code(&code));
    }
    value.to_string()
}

/// The agent list the session is given (the agent server's `GET /agents`): the server's agents
/// (else the configured one), each saying what this dialect cannot express: a new message declines
/// the waiting calls (`pendingActionComposerMode: "cancel"`), and arguments cannot be edited nor a
/// tool remembered for the chat (`capabilities.approvalArgsEdit` and `approvalRemember` false).
/// Questions and deadlines never come from this server.
pub fn agent_list(
    options: &TransportOptions,
    listed: Option<&[(String, Option<String>)]>,
) -> Value {
    let configured = [(options.agent(), None)];
    let agents: Vec<Value> = listed
        .unwrap_or(&configured)
        .iter()
        .map(|(name, description)| {
            let mut agent = json!({ "id": name, "name": name,
                "metadata": { "pendingActionComposerMode": "cancel" },
                "capabilities": { "approvalArgsEdit": false, "approvalRemember": false } });
            if let Some(d) = description {
                agent["description"] = Value::from(d.as_str());
            }
            agent
        })
        .collect();
    json!({ "agents": agents })
}

/// Settles, as cancelled, the calls the thread's last assistant message still waits on: a new
/// message declines them (the server does so when the run starts). Recorded in that message's
/// `actionStates` (where a reload reads a card's outcome first), so a reload reads them as
/// cancelled. Returns their ids.
pub fn decline_waiting(messages: &mut [Value]) -> Vec<String> {
    let Some(last) = messages.iter_mut().rev().find(|m| m["role"] == "assistant") else {
        return Vec::new();
    };
    let settled = |id: &str, m: &Value| {
        !m["actionStates"][id].is_null() || !m["metadata"]["actionStates"][id].is_null()
    };
    let open: Vec<String> = last["metadata"]["pendingActions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|a| matches!(a["status"].as_str(), None | Some("pending")))
        .filter_map(|a| a["id"].as_str().map(str::to_owned))
        .filter(|id| !settled(id, last))
        .collect();
    if open.is_empty() {
        return open;
    }
    if !last["actionStates"].is_object() {
        last["actionStates"] = json!({});
    }
    for id in &open {
        last["actionStates"][id.as_str()] = json!({ "status": "cancelled" });
    }
    open
}

/// The agents a `GET /agents` answer lists, or (when it cannot be read) a line for the
/// developer's log; the list is asked for again next time.
pub fn on_agents(
    result: &Result<HttpResponse, TransportError>,
) -> (Option<Agents>, Option<String>) {
    let listed = match result {
        Ok(resp) if (200..300).contains(&resp.status) => read_agents(&resp.body),
        _ => None,
    };
    if listed.is_some() {
        return (listed, None);
    }
    let why = match result {
        Ok(resp) => format!("answered {}", resp.status),
        Err(e) => e.to_string(),
    };
    let log =
        format!("cogitator: no agent list at {AGENTS_PATH} ({why}); asked for again next time");
    (None, Some(log))
}

/// Marks the entry of `action_id` on the stored reply `message_id` as settled, after the
/// server said nothing is paused any more (`RUN_NOT_PAUSED`): the last reply's open entries
/// are what waits, so a refetch would otherwise draw the card open again. No answer is
/// kept: nobody knows what it was.
pub fn settle_entry(messages: &mut [Value], message_id: &str, action_id: &str) {
    let entries = messages
        .iter_mut()
        .filter(|m| m["id"] == message_id)
        .filter_map(|m| m["metadata"]["pendingActions"].as_array_mut())
        .flatten()
        .filter(|e| e["id"] == action_id);
    for entry in entries {
        entry["status"] = Value::from("resolved");
    }
}

/// The agents of a `GET /agents` answer: `(name, description)`; `None` when it is not a
/// list of named agents.
pub fn read_agents(body: &str) -> Option<Agents> {
    let value: Value = serde_json::from_str(body).ok()?;
    let agents: Vec<(String, Option<String>)> = value["agents"]
        .as_array()?
        .iter()
        .filter_map(|a| {
            let name = a["name"].as_str().filter(|n| !n.trim().is_empty())?;
            Some((
                name.to_owned(),
                a["description"].as_str().map(str::to_owned),
            ))
        })
        .collect();
    (!agents.is_empty()).then_some(agents)
}

/// `pendingApprovals` as the agent server's pending actions: `tool_approval` with
/// `id = toolCallId`, `args = arguments`, `summary = description`, `sideEffects` kept. An
/// entry without a `toolCallId` cannot be answered and is left out.
pub fn pending_actions(approvals: &Value) -> Value {
    approvals
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| {
            let id = a["toolCallId"].as_str().filter(|id| !id.is_empty())?;
            let args = match &a["arguments"] {
                Value::Object(_) => a["arguments"].clone(),
                Value::String(text) => parse_arguments(text),
                _ => json!({}),
            };
            let mut action = json!({ "id": id, "type": "tool_approval", "status": "pending",
                                     "toolCallId": id,
                                     "toolName": a["toolName"].as_str().unwrap_or_default(),
                                     "args": args });
            if let Some(d) = a["description"].as_str().filter(|d| !d.trim().is_empty()) {
                action["summary"] = Value::from(d);
            }
            if a["sideEffects"].is_array() {
                action["sideEffects"] = a["sideEffects"].clone();
            }
            Some(action)
        })
        .collect()
}

/// Reads a whole run or resume answer; `Err` says why it is not one, or carries the server's
/// wording of an error object.
pub fn read_reply(body: &str) -> Result<Reply, String> {
    let value = lenient::parse(body).map_err(|e| e.to_string())?;
    if let Some(err) = value.get("error").filter(|e| !e.is_null()) {
        return Err(error_words(err)
            .unwrap_or("an error object without words")
            .to_owned());
    }
    if !value.is_object() || (value.get("output").is_none() && value.get("status").is_none()) {
        return Err("not a run answer".to_owned());
    }
    let mut d = Decoder::new();
    d.answer(&value);
    d.reply.content = value["output"].as_str().unwrap_or_default().to_owned();
    Ok(d.ending())
}

/// Reads what a run or resume answered, streamed (SSE) or whole (one JSON object: the
/// `/run` and `/resume` answer, or a server that ignored streaming), split anywhere.
#[derive(Debug, Default)]
pub struct Decoder {
    frames: SseFrameDecoder,
    /// `Some(true)` once the body is known to be one JSON object, `Some(false)` for SSE.
    whole: Option<bool>,
    /// Bytes held until the kind of body is known, then the whole body.
    body: Vec<u8>,
    reply: Reply,
    /// Streamed tool calls: id, name, arguments text.
    calls: Vec<(String, String, String)>,
    thread: Option<String>,
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
        match self.whole {
            Some(true) => {
                let body = String::from_utf8_lossy(&std::mem::take(&mut self.body)).into_owned();
                let mut out = Vec::new();
                match lenient::parse(&body) {
                    Ok(value) if value.get("error").is_some_and(|e| !e.is_null()) => {
                        let failure = Failure::from_error(FailureKind::AgentError, &value["error"]);
                        self.fail(&mut out, failure);
                    }
                    Ok(value) if value.is_object() => {
                        self.answer(&value);
                        if let Some(text) = value["output"].as_str().filter(|t| !t.is_empty()) {
                            self.reply.content = text.to_owned();
                            out.push(Delta::Text(text.to_owned()));
                        }
                    }
                    Ok(_) => out.push(Delta::Skipped("an answer that is not an object".into())),
                    Err(e) => out.push(Delta::Skipped(format!("unreadable answer: {e}"))),
                }
                out
            }
            Some(false) => self.drain(true),
            None => Vec::new(),
        }
    }

    /// What the run left: its tool calls, usage, the approvals it waits on, and the thread
    /// to keep when the server named one.
    pub fn ending(&self) -> Reply {
        let mut reply = self.reply.clone();
        for (id, name, args) in &self.calls {
            if !reply.tool_calls.iter().any(|c| &c.id == id) {
                reply.tool_calls.push(ToolCall {
                    id: id.clone(),
                    name: name.clone(),
                    args: parse_arguments(args),
                });
            }
        }
        if let Some(thread) = &self.thread {
            reply
                .keep
                .insert(THREAD_KEY.into(), Value::from(thread.as_str()));
        }
        reply
    }

    fn drain(&mut self, end: bool) -> Vec<Delta> {
        let mut frames = std::mem::take(&mut self.frames);
        let out = drain_frames(&mut frames, end, |frame, out| self.event(&frame.data, out));
        self.frames = frames;
        out
    }

    fn event(&mut self, data: &str, out: &mut Vec<Delta>) {
        let data = data.trim();
        if data.is_empty() || data == "[DONE]" {
            return;
        }
        let value = match lenient::parse(data) {
            Ok(v) => v,
            Err(e) => return out.push(Delta::Skipped(format!("unreadable event: {e}"))),
        };
        self.take_thread(&value);
        match value["type"].as_str().unwrap_or_default() {
            "text-delta" => {
                if let Some(text) = value["delta"].as_str().filter(|t| !t.is_empty()) {
                    if !self.failed {
                        out.push(Delta::Text(text.to_owned()));
                    }
                }
            }
            "tool-call-start" => {
                let id = value["id"].as_str().unwrap_or_default().to_owned();
                let name = value["toolName"].as_str().unwrap_or_default().to_owned();
                if !self.calls.iter().any(|(known, _, _)| *known == id) {
                    self.calls.push((id, name, String::new()));
                }
            }
            "tool-call-delta" => {
                let id = value["id"].as_str().unwrap_or_default();
                let piece = value["argsTextDelta"].as_str().unwrap_or_default();
                if let Some((_, _, args)) = self.calls.iter_mut().find(|(known, _, _)| known == id)
                {
                    args.push_str(piece);
                }
            }
            "approval-required" => {
                self.reply.pending_actions = Some(pending_actions(&value["approvals"]));
            }
            "finish" => self.answer(&value),
            "error" => {
                let words = value["message"].as_str();
                self.fail(out, Failure::new(FailureKind::AgentError, words));
            }
            _ => {}
        }
    }

    /// The fields a `finish` event and a whole answer share: thread, usage, tool calls,
    /// status and the approvals a paused run waits on.
    fn answer(&mut self, value: &Value) {
        self.take_thread(value);
        if value["usage"].is_object() {
            let u = &value["usage"];
            self.reply.usage = Some(json!({ "inputTokens": u["inputTokens"],
                "outputTokens": u["outputTokens"], "totalTokens": u["totalTokens"] }));
        }
        for call in value["toolCalls"].as_array().into_iter().flatten() {
            let Some(id) = call["id"].as_str() else {
                continue;
            };
            let args = match &call["arguments"] {
                Value::String(text) => parse_arguments(text),
                Value::Null => json!({}),
                other => other.clone(),
            };
            let call = ToolCall {
                id: id.to_owned(),
                name: call["name"].as_str().unwrap_or_default().to_owned(),
                args,
            };
            match self.reply.tool_calls.iter_mut().find(|c| c.id == call.id) {
                Some(known) => *known = call,
                None => self.reply.tool_calls.push(call),
            }
        }
        if value["status"] == "paused" {
            if value["pendingApprovals"].is_array() {
                self.reply.pending_actions = Some(pending_actions(&value["pendingApprovals"]));
            }
        } else if value["status"] == "completed" {
            self.reply.pending_actions = None;
        }
    }

    fn take_thread(&mut self, value: &Value) {
        if let Some(thread) = value["threadId"].as_str().filter(|t| !t.is_empty()) {
            self.thread = Some(thread.to_owned());
        }
    }

    fn fail(&mut self, out: &mut Vec<Delta>, failure: Failure) {
        if !self.failed {
            self.failed = true;
            out.push(Delta::Error(failure));
        }
    }
}

/// What Cogitator can do: conversations in the page, each in the server's thread; a paused
/// run's cards answered by resuming it, never remembered for the chat.
pub const CAPABILITIES: Capabilities = Capabilities {
    names: &["cogitator"],
    named_by_page: true,
    keeps_threads: true,
    can_resolve: true,
    answers_at_action_url: false,
    remembers: false,
    runs_in_page: false,
    storage_tag: Some("cogitator"),
};

/// Cogitator behind the gateway.
pub fn build(_: &TransportOptions) -> Option<Box<dyn Backend>> {
    Some(Box::new(Cogitator::default()))
}

/// Cogitator as a [`Backend`]: its agents are the server's list, once read.
#[derive(Debug, Default)]
pub struct Cogitator {
    listed: Option<Agents>,
}

impl Backend for Cogitator {
    fn capabilities(&self) -> &'static Capabilities {
        &CAPABILITIES
    }

    /// The server's list, until it is read (asked for again after a failure).
    fn agents_request(&self) -> Option<&'static str> {
        self.listed.is_none().then_some(AGENTS_PATH)
    }

    fn agents_read(&mut self, result: &Result<HttpResponse, TransportError>) -> Option<String> {
        let (listed, log) = on_agents(result);
        self.listed = listed;
        log
    }

    fn agents(&self, options: &TransportOptions) -> Value {
        agent_list(options, self.listed.as_deref())
    }

    fn send_request(&self, send: &SendCall<'_>) -> WireCall {
        let thread = send.thread;
        let thread_id = thread_id(thread.id(), &thread.conversation["metadata"]);
        WireCall {
            path: run_path(thread.agent_id(), send.stream),
            body: request_body(thread_id, send.text, send.files),
        }
    }

    /// A new message declines the waiting calls.
    fn on_new_message(&self, thread: &mut Thread, _: &str) -> Vec<(String, &'static str)> {
        decline_waiting(&mut thread.messages)
            .into_iter()
            .map(|id| (id, "cancelled"))
            .collect()
    }

    /// `POST /agents/:name/resume` deciding this one call; only approvals and denials.
    fn answer_request(&self, answer: &AnswerCall<'_>) -> Result<WireCall, (u16, String)> {
        let thread = answer.thread;
        let thread_id = thread_id(thread.id(), &thread.conversation["metadata"]);
        let resolution = answer.resolution;
        let refused = || Refusal::ApproveOrDenyOnly.response();
        if !answer.together.is_empty() {
            let d = decision(resolution).ok_or_else(refused)?;
            let decided: Vec<(String, Value)> = std::iter::once(answer.action_id)
                .chain(answer.together.iter().map(String::as_str))
                .map(|id| (id.to_owned(), d.clone()))
                .collect();
            let waiting = waiting_calls(&thread.messages, answer.action_id);
            return Ok(WireCall {
                path: resume_path(thread.agent_id()),
                body: batch_resume_body(thread_id, &decided, &waiting),
            });
        }
        match answer_request(thread.agent_id(), thread_id, answer.action_id, resolution) {
            Some((path, body)) => Ok(WireCall { path, body }),
            None => Err(refused()),
        }
    }

    /// "Approve all" and "Deny all" are one resume: `defaultDecision` when they decide every
    /// call the run waits on.
    fn answers_batches(&self) -> bool {
        true
    }

    fn decoder(&self) -> Box<dyn ReplyDecoder> {
        Box::new(Decoder::new())
    }

    fn read_reply(&self, body: &str) -> Result<Reply, ReadError> {
        read_reply(body).map_err(ReadError::Unreadable)
    }

    /// A refused resume in the agent server's codes.
    fn refusal(&self, status: u16, body: &str, answering: bool) -> String {
        if answering {
            action_error_envelope(status, body)
        } else {
            super::reply::error_envelope(status, body)
        }
    }

    /// `RUN_NOT_PAUSED`: nothing waits on the thread any more. Its entry says so, or the
    /// refetch that follows would draw the card open again (the last reply's open
    /// entries are what waits); no answer is kept (nobody knows what it was).
    fn answer_gone(
        &self,
        messages: &mut [Value],
        message_id: &str,
        action_id: &str,
        envelope: &str,
    ) -> bool {
        if !envelope.contains("\"action_not_pending\"") {
            return false;
        }
        settle_entry(messages, message_id, action_id);
        true
    }
}

super::reply::reply_decoder!(Decoder);
