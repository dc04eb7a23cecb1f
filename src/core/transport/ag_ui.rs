//! An AG-UI agent on the wire (the Agent User Interaction Protocol, `@ag-ui/core` 1.0): the
//! run input a turn posts, the event stream read back, and the next run that answers a card.
//!
//! The agent is the base URL itself: every turn is `POST` of a `RunAgentInput`
//! (`threadId` = the conversation's id, a fresh `runId`, the `state` the last run left,
//! the whole conversation as AG-UI `messages`, the page's one frontend tool in `tools`,
//! empty `context` and `forwardedProps`), answered by an SSE stream whose `data` is one
//! event (`@ag-ui/encoder`). Text arrives as `TEXT_MESSAGE_*` (or `_CHUNK`), tool steps as
//! `TOOL_CALL_*` (or `_CHUNK`) with `TOOL_CALL_RESULT`, the agent's state as
//! `STATE_SNAPSHOT` / `STATE_DELTA` (kept with the conversation and sent back on the next
//! run), a failure as `RUN_ERROR` in the agent's words. Steps, custom, raw, activity,
//! reasoning and message snapshots carry nothing the chat shows and are passed over.
//!
//! A person is asked in two ways, and both become approval cards:
//! - an interrupt: `RUN_FINISHED` whose `outcome` is `{type: "interrupt", interrupts}`.
//!   Each interrupt is a card (`id` = the interrupt's, the tool and arguments of the call its
//!   `toolCallId` names, `message` as the summary, `responseSchema` as the arguments'
//!   schema, `expiresAt` as the deadline). The answer is the next run with one `resume`
//!   entry: approved → `{status: "resolved", payload: <the arguments as approved>}`,
//!   declined → `{status: "cancelled", payload: {reason}}`. An answer after `expiresAt` is
//!   refused here ([`check_deadline`]), before anything is sent.
//! - a frontend tool: the page declares [`CONFIRM_TOOL`]; a call to it that the run leaves
//!   without a result (or that `pendingToolCallIds` names) is a card, and the answer is the
//!   next run with a `tool` message for the call (`{approved, arguments?, reason?}`).
//!
//! A new message leaves the open cards behind: the run it starts cancels the open
//! interrupts in `resume` and answers the open confirmations as declined.

use serde_json::{json, Value};

use super::backend::{
    refusal, settle_waiting, AnswerCall, Backend, Capabilities, ReadError, SendCall, WireCall,
};
use super::reply::{
    content_text, drain_frames, parse_arguments, Delta, Reply, ReplyDecoder, ToolCall,
};
use super::threads::Thread;
use super::TransportOptions;
use crate::core::sse::SseFrameDecoder;
use crate::core::time::{parse_timestamp, Millis};
use crate::core::lenient;

/// The name of the frontend tool the page declares: the agent calls it to have the person
/// confirm an action, and the answer comes back as the call's `tool` message.
pub const CONFIRM_TOOL: &str = "confirm_action";
/// The conversation metadata key of the agent's state (`STATE_SNAPSHOT` / `STATE_DELTA`),
/// sent back as the next run's `state`.
pub const STATE_KEY: &str = "agUiState";
/// The field of a stored card that says where its answer goes: `interrupt` (a resume
/// entry) or `tool` (a `tool` message).
pub const SOURCE_KEY: &str = "agUiSource";
/// The reason sent with a decline that carries no comment of the person's.
pub const DECLINED: &str = "Declined by the user.";
/// The reason sent for a card the person left behind by sending a new message.
pub const LEFT_BEHIND: &str = "The user sent a new message instead.";

/// The frontend tools of every run: [`CONFIRM_TOOL`], whose arguments are the action to
/// confirm (a `message` for the person, anything else is shown and can be edited).
pub fn tools() -> Value {
    json!([{
        "name": CONFIRM_TOOL,
        "description": "Ask the user to confirm an action before it is taken. The result is \
            {approved: boolean, arguments?: object, reason?: string}: the arguments as the \
            user approved them (possibly edited), or why they declined.",
        "parameters": {
            "type": "object",
            "properties": { "message": { "type": "string",
                                          "description": "What the user is asked to confirm." } },
            "additionalProperties": true
        }
    }])
}

/// The conversation's stored messages as AG-UI messages: the person's text, the agent's
/// text with its tool calls, each call's result as a `tool` message (a tool the server ran,
/// or a confirmation the person answered or left behind).
pub fn history(messages: &[Value]) -> Vec<Value> {
    let mut out = Vec::new();
    for m in messages {
        let id = m["id"].as_str().unwrap_or_default();
        match m["role"].as_str() {
            Some("user") => {
                out.push(json!({ "id": id, "role": "user", "content": content_text(&m["content"]) }))
            }
            Some("assistant") => assistant(m, id, &mut out),
            _ => {}
        }
    }
    out
}

fn assistant(m: &Value, id: &str, out: &mut Vec<Value>) {
    let mut message = json!({ "id": id, "role": "assistant" });
    let text = content_text(&m["content"]);
    if !text.is_empty() {
        message["content"] = Value::from(text);
    }
    let calls: Vec<Value> = m["toolCalls"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| {
            let arguments = match &c["arguments"] {
                Value::String(s) => s.clone(),
                Value::Null => "{}".to_owned(),
                other => other.to_string(),
            };
            Some(json!({ "id": c["id"].as_str()?, "type": "function",
                         "function": { "name": c["name"].as_str().unwrap_or_default(),
                                       "arguments": arguments } }))
        })
        .collect();
    if !calls.is_empty() {
        message["toolCalls"] = Value::from(calls.clone());
    }
    out.push(message);
    let details = m["metadata"]["toolCallDetails"].as_array();
    let actions = m["metadata"]["pendingActions"].as_array();
    for call in &calls {
        let call_id = call["id"].as_str().unwrap_or_default();
        let result = details
            .into_iter()
            .flatten()
            .find(|d| d["id"] == call_id)
            .map(|d| &d["result"])
            .filter(|r| !r.is_null());
        let answered = actions
            .into_iter()
            .flatten()
            .find(|a| a["id"] == call_id && a[SOURCE_KEY] == "tool")
            .and_then(|_| m["actionStates"].get(call_id))
            .map(|state| match state.get("resolution") {
                Some(resolution) => tool_content(resolution, &Value::Null),
                None => left_behind(),
            });
        let content = match (result, answered) {
            (_, Some(answer)) => answer.to_string(),
            (Some(Value::String(s)), None) => s.clone(),
            (Some(other), None) => other.to_string(),
            (None, None) => continue,
        };
        out.push(tool_message(call_id, content));
    }
}

fn tool_message(call_id: &str, content: String) -> Value {
    json!({ "id": format!("result_{call_id}"), "role": "tool", "toolCallId": call_id,
            "content": content })
}

fn left_behind() -> Value {
    json!({ "approved": false, "reason": LEFT_BEHIND })
}

/// The cards of the conversation that still wait: `(id, source)` of each open entry.
fn open_cards(messages: &[Value]) -> Vec<(String, String)> {
    let mut open = Vec::new();
    for m in messages {
        for a in m["metadata"]["pendingActions"].as_array().into_iter().flatten() {
            let Some(id) = a["id"].as_str() else { continue };
            let settled = m["actionStates"].get(id).is_some()
                || matches!(a["status"].as_str(), Some("resolved" | "cancelled" | "expired"));
            if !settled {
                let source = a[SOURCE_KEY].as_str().unwrap_or("interrupt").to_owned();
                open.push((id.to_owned(), source));
            }
        }
    }
    open
}

/// A run input (`RunAgentInput`) for the conversation `thread_id`: the given messages and
/// `resume` entries, the kept state, the frontend tools.
pub fn run_input(
    thread_id: &str,
    run_id: &str,
    state: &Value,
    messages: Vec<Value>,
    resume: Vec<Value>,
) -> Value {
    let mut input = json!({ "threadId": thread_id, "runId": run_id,
        "state": if state.is_null() { json!({}) } else { state.clone() },
        "messages": messages, "tools": tools(), "context": [], "forwardedProps": {} });
    if !resume.is_empty() {
        input["resume"] = Value::from(resume);
    }
    input
}

/// The run a new message starts: the history, the person's message (files named in it:
/// AG-UI text content is sent), the open confirmations answered as declined and the open
/// interrupts cancelled.
pub fn send_body(thread: &Thread, message_id: &str, text: &str, file_names: &[&str]) -> Value {
    let mut messages = history(&thread.messages);
    let mut resume = Vec::new();
    for (id, source) in open_cards(&thread.messages) {
        if source == "tool" {
            messages.push(tool_message(&id, left_behind().to_string()));
        } else {
            resume.push(json!({ "interruptId": id, "status": "cancelled",
                                "payload": { "reason": LEFT_BEHIND } }));
        }
    }
    let mut content = text.to_owned();
    for name in file_names {
        content.push_str(&format!("\n[Attached file: {name}]"));
    }
    messages.push(json!({ "id": message_id, "role": "user", "content": content }));
    let state = &thread.conversation["metadata"][STATE_KEY];
    run_input(thread.id(), &format!("run_{message_id}"), state, messages, resume)
}

/// Why an answer to a card is not sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnswerRefusal {
    /// The card's `expiresAt` has passed: the agent takes no answer after it.
    Expired,
    /// The answer is not an approval or a denial.
    NotAnApproval,
}

/// Whether the card `action` may still be answered at `now` (the server's clock): refused
/// once its `expiresAt` has passed. A card without a deadline, or with one that cannot be
/// read, may be answered.
pub fn check_deadline(action: &Value, now: Millis) -> Result<(), AnswerRefusal> {
    match action.get("expiresAt").and_then(parse_timestamp) {
        Some(deadline) if now >= deadline => Err(AnswerRefusal::Expired),
        _ => Ok(()),
    }
}

/// An E14 resolution read as a decision: `Some((approved, arguments, reason))`, where the
/// arguments are the edited ones when the person edited, else those the card showed, and
/// the reason is the person's comment (else [`DECLINED`]) on a denial.
fn decision(action: &Value, resolution: &Value) -> Option<(bool, Value, Option<String>)> {
    let approved = match resolution["decision"].as_str() {
        Some(d) => match d.to_ascii_lowercase().as_str() {
            "allow" | "approve" | "approved" => true,
            "deny" | "reject" | "rejected" | "denied" => false,
            _ => return None,
        },
        None => resolution["approved"].as_bool()?,
    };
    let args = resolution
        .get("approvedArgs")
        .filter(|a| a.is_object())
        .unwrap_or(&action["args"])
        .clone();
    let reason = (!approved).then(|| {
        resolution["comment"]
            .as_str()
            .or_else(|| resolution["reason"].as_str())
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .unwrap_or(DECLINED)
            .to_owned()
    });
    Some((approved, args, reason))
}

/// The `tool` message content that answers a confirmation: `{approved: true, arguments}` or
/// `{approved: false, reason}`.
fn tool_content(resolution: &Value, action: &Value) -> Value {
    match decision(action, resolution) {
        Some((true, args, _)) if args.is_object() => json!({ "approved": true, "arguments": args }),
        Some((true, _, _)) => json!({ "approved": true }),
        Some((false, _, reason)) => json!({ "approved": false, "reason": reason }),
        None => left_behind(),
    }
}

/// The run that answers the card `action` with `resolution` at `now`: a resume entry for an
/// interrupt, a `tool` message for a confirmation; refused after the card's deadline or for
/// an answer that is not a decision.
pub fn answer_body(
    thread: &Thread,
    action: &Value,
    resolution: &Value,
    run_id: &str,
    now: Millis,
) -> Result<Value, AnswerRefusal> {
    check_deadline(action, now)?;
    let (approved, args, reason) =
        decision(action, resolution).ok_or(AnswerRefusal::NotAnApproval)?;
    let id = action["id"].as_str().unwrap_or_default();
    let mut messages = history(&thread.messages);
    let mut resume = Vec::new();
    if action[SOURCE_KEY] == "tool" {
        let content = tool_content(resolution, action).to_string();
        messages.push(tool_message(id, content));
    } else if approved {
        resume.push(json!({ "interruptId": id, "status": "resolved", "payload": args }));
    } else {
        resume.push(json!({ "interruptId": id, "status": "cancelled",
                            "payload": { "reason": reason } }));
    }
    let state = &thread.conversation["metadata"][STATE_KEY];
    Ok(run_input(thread.id(), run_id, state, messages, resume))
}

/// Reads one run's event stream, split anywhere.
#[derive(Debug, Default)]
pub struct Decoder {
    frames: SseFrameDecoder,
    reply: Reply,
    /// Calls in the order they started: id, name, arguments text.
    calls: Vec<(String, String, String)>,
    /// The call a `TOOL_CALL_CHUNK` without an id continues.
    last_call: Option<String>,
    /// Interrupts of the run's end.
    interrupts: Vec<Value>,
    /// Calls the run's end names as waiting on the page.
    pending_calls: Option<Vec<String>>,
    state: Option<Value>,
    failed: bool,
}

impl Decoder {
    /// A decoder at the start of a run.
    pub fn new() -> Decoder {
        Decoder::default()
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

    /// What the run left: its tool calls and their results, the cards it waits on, the
    /// state to keep.
    pub fn ending(&self) -> Reply {
        let mut reply = self.reply.clone();
        reply.tool_calls = self
            .calls
            .iter()
            .map(|(id, name, args)| ToolCall {
                id: id.clone(),
                name: name.clone(),
                args: parse_arguments(args),
            })
            .collect();
        let mut cards: Vec<Value> = self.interrupts.iter().map(|i| self.interrupt(i)).collect();
        for call in &reply.tool_calls {
            let waits = match &self.pending_calls {
                Some(ids) => ids.contains(&call.id),
                None => call.name == CONFIRM_TOOL && !reply.results.contains_key(&call.id),
            };
            if waits && !cards.iter().any(|c| c["id"] == call.id.as_str()) {
                cards.push(confirmation(call));
            }
        }
        if !cards.is_empty() && !self.failed {
            reply.pending_actions = Some(Value::from(cards));
        }
        if let Some(state) = &self.state {
            reply.keep.insert(STATE_KEY.into(), state.clone());
        }
        reply
    }

    /// One interrupt as a card: the call it names (tool and arguments), else its reason
    /// and the arguments its metadata proposes.
    fn interrupt(&self, i: &Value) -> Value {
        let id = i["id"].as_str().unwrap_or_default();
        let call_id = i["toolCallId"].as_str().unwrap_or_default();
        let call = self.calls.iter().find(|(c, _, _)| c == call_id);
        let (name, args) = match call {
            Some((_, name, args)) => (name.clone(), parse_arguments(args)),
            None => (
                i["reason"].as_str().unwrap_or("interrupt").to_owned(),
                i["metadata"]["arguments"]
                    .as_object()
                    .map(|o| Value::Object(o.clone()))
                    .unwrap_or_else(|| json!({})),
            ),
        };
        let mut card = json!({ "id": id, "type": "tool_approval", "status": "pending",
                               "toolName": name, "args": args, SOURCE_KEY: "interrupt" });
        if !call_id.is_empty() {
            card["toolCallId"] = Value::from(call_id);
        }
        if let Some(m) = i["message"].as_str().filter(|m| !m.trim().is_empty()) {
            card["summary"] = Value::from(m);
        }
        if i["responseSchema"].is_object() {
            card["argsSchema"] = i["responseSchema"].clone();
        }
        if let Some(at) = i["expiresAt"].as_str() {
            card["expiresAt"] = Value::from(at);
        }
        card
    }

    fn drain(&mut self, end: bool) -> Vec<Delta> {
        let mut frames = std::mem::take(&mut self.frames);
        let out = drain_frames(&mut frames, end, |frame, out| self.event(&frame.data, out));
        self.frames = frames;
        out
    }

    fn event(&mut self, data: &str, out: &mut Vec<Delta>) {
        let data = data.trim();
        if data.is_empty() {
            return;
        }
        let value = match lenient::parse(data) {
            Ok(v) if v.is_object() => v,
            Ok(_) => return out.push(Delta::Skipped("an event that is not an object".into())),
            Err(e) => return out.push(Delta::Skipped(format!("unreadable event: {e}"))),
        };
        let text = |key: &str| value[key].as_str().unwrap_or_default().to_owned();
        match value["type"].as_str().unwrap_or_default() {
            "TEXT_MESSAGE_CONTENT" | "TEXT_MESSAGE_CHUNK" => {
                let delta = text("delta");
                if !delta.is_empty() && !self.failed && value["role"] != "user" {
                    self.reply.content.push_str(&delta);
                    out.push(Delta::Text(delta));
                }
            }
            "TOOL_CALL_START" => self.start_call(text("toolCallId"), text("toolCallName"), out),
            "TOOL_CALL_ARGS" => self.args(&text("toolCallId"), &text("delta")),
            "TOOL_CALL_CHUNK" => {
                let id = value["toolCallId"]
                    .as_str()
                    .map(str::to_owned)
                    .or_else(|| self.last_call.clone())
                    .unwrap_or_default();
                if !self.calls.iter().any(|(c, _, _)| *c == id) {
                    self.start_call(id.clone(), text("toolCallName"), out);
                }
                self.args(&id, &text("delta"));
            }
            "TOOL_CALL_RESULT" => {
                let id = text("toolCallId");
                let result = match &value["content"] {
                    Value::String(s) => lenient::parse(s).unwrap_or_else(|_| Value::from(s.as_str())),
                    other => Value::from(content_text(other)),
                };
                let name = self
                    .calls
                    .iter()
                    .find(|(c, _, _)| *c == id)
                    .map(|(_, n, _)| n.clone())
                    .unwrap_or_default();
                self.reply.results.insert(id.clone(), result.clone());
                out.push(Delta::ToolFinished { id, name, result });
            }
            "STATE_SNAPSHOT" => self.state = Some(value["snapshot"].clone()),
            "STATE_DELTA" => {
                let mut state = self.state.clone().unwrap_or_else(|| json!({}));
                if apply_patch(&mut state, &value["delta"]) {
                    self.state = Some(state);
                } else {
                    out.push(Delta::Skipped("a state delta that does not apply".into()));
                }
            }
            "RUN_ERROR" => {
                let wording = value["message"]
                    .as_str()
                    .filter(|m| !m.trim().is_empty())
                    .unwrap_or("The agent reported an error.")
                    .to_owned();
                if !self.failed {
                    self.failed = true;
                    out.push(Delta::Error(wording));
                }
            }
            "RUN_FINISHED" => self.finished(&value),
            _ => {}
        }
    }

    fn start_call(&mut self, id: String, name: String, out: &mut Vec<Delta>) {
        if id.is_empty() || self.calls.iter().any(|(c, _, _)| *c == id) {
            return;
        }
        self.last_call = Some(id.clone());
        self.calls.push((id.clone(), name.clone(), String::new()));
        out.push(Delta::ToolStarted(ToolCall { id, name, args: json!({}) }));
        self.reply.calls_streamed = true;
    }

    fn args(&mut self, id: &str, delta: &str) {
        if let Some((_, _, args)) = self.calls.iter_mut().find(|(c, _, _)| c == id) {
            args.push_str(delta);
        }
    }

    /// `RUN_FINISHED`: the interrupts of an interrupt outcome (the 1.0 shape, and the
    /// earlier draft's `outcome: "interrupt"` with one `interrupt`), or the calls a success
    /// names as pending.
    fn finished(&mut self, value: &Value) {
        let outcome = &value["outcome"];
        let interrupts: Vec<Value> = match outcome {
            Value::Object(o) if o.get("type").and_then(Value::as_str) == Some("interrupt") => {
                o.get("interrupts").and_then(Value::as_array).cloned().unwrap_or_default()
            }
            Value::String(s) if s == "interrupt" => value.get("interrupt").cloned().into_iter().collect(),
            _ => Vec::new(),
        };
        self.interrupts = interrupts
            .into_iter()
            .filter(|i| i["id"].as_str().is_some_and(|id| !id.is_empty()))
            .collect();
        if let Some(ids) = outcome["pendingToolCallIds"].as_array() {
            self.pending_calls = Some(
                ids.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect(),
            );
        }
    }
}

/// A frontend tool call the person confirms, as a card.
fn confirmation(call: &ToolCall) -> Value {
    let mut card = json!({ "id": call.id, "type": "tool_approval", "status": "pending",
                           "toolCallId": call.id, "toolName": call.name, "args": call.args,
                           SOURCE_KEY: "tool" });
    if let Some(m) = call.args["message"].as_str().filter(|m| !m.trim().is_empty()) {
        card["summary"] = Value::from(m);
    }
    card
}

/// Applies a JSON Patch (`add`, `replace`, `remove`; `test`, `move` and `copy` are not
/// needed for state the chat only keeps and sends back) to `doc`; `false` when an operation
/// does not apply, leaving `doc` as far as it got.
pub fn apply_patch(doc: &mut Value, patch: &Value) -> bool {
    let Some(ops) = patch.as_array() else {
        return false;
    };
    for op in ops {
        let Some(path) = op["path"].as_str() else {
            return false;
        };
        let ok = match op["op"].as_str() {
            Some("add" | "replace") => set(doc, path, op["value"].clone()),
            Some("remove") => remove(doc, path),
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    true
}

fn tokens(path: &str) -> Option<Vec<String>> {
    if path.is_empty() {
        return Some(Vec::new());
    }
    let rest = path.strip_prefix('/')?;
    Some(rest.split('/').map(|t| t.replace("~1", "/").replace("~0", "~")).collect())
}

fn parent<'a>(doc: &'a mut Value, tokens: &[String]) -> Option<&'a mut Value> {
    let mut at = doc;
    for t in tokens {
        at = match at {
            Value::Object(o) => o.get_mut(t)?,
            Value::Array(a) => a.get_mut(t.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(at)
}

fn set(doc: &mut Value, path: &str, value: Value) -> bool {
    let Some(tokens) = tokens(path) else { return false };
    let Some((last, rest)) = tokens.split_last() else {
        *doc = value;
        return true;
    };
    match parent(doc, rest) {
        Some(Value::Object(o)) => {
            o.insert(last.clone(), value);
            true
        }
        Some(Value::Array(a)) if last == "-" => {
            a.push(value);
            true
        }
        Some(Value::Array(a)) => match last.parse::<usize>() {
            Ok(i) if i <= a.len() => {
                a.insert(i, value);
                true
            }
            _ => false,
        },
        _ => false,
    }
}

fn remove(doc: &mut Value, path: &str) -> bool {
    let Some(tokens) = tokens(path) else { return false };
    let Some((last, rest)) = tokens.split_last() else {
        return false;
    };
    match parent(doc, rest) {
        Some(Value::Object(o)) => o.remove(last).is_some(),
        Some(Value::Array(a)) => match last.parse::<usize>() {
            Ok(i) if i < a.len() => {
                a.remove(i);
                true
            }
            _ => false,
        },
        _ => false,
    }
}

/// Reads a whole run (a send that did not stream: the same event stream, read at once).
pub fn read_reply(body: &str) -> Result<Reply, ReadError> {
    let mut d = Decoder::new();
    let deltas = d.read_whole(body);
    if let Some(wording) = deltas.iter().find_map(|x| match x {
        Delta::Error(w) => Some(w.clone()),
        _ => None,
    }) {
        return Err(ReadError::Refused(wording));
    }
    let reply = d.ending();
    let empty = reply.content.is_empty()
        && reply.tool_calls.is_empty()
        && reply.pending_actions.is_none();
    if empty && !body.contains("RUN_FINISHED") {
        return Err(ReadError::Unreadable("not an AG-UI event stream".into()));
    }
    Ok(reply)
}

/// What an AG-UI agent can do: conversations in the page (the protocol keeps none), cards
/// answered by the next run, edited arguments carried, never remembered for the chat.
pub const CAPABILITIES: Capabilities = Capabilities {
    names: &["ag-ui", "agui"],
    named_by_page: true,
    keeps_threads: true,
    can_resolve: true,
    answers_at_action_url: false,
    remembers: false,
    runs_in_page: false,
    storage_tag: Some("ag-ui"),
};

/// An AG-UI agent behind the gateway.
pub fn build(_: &TransportOptions) -> Option<Box<dyn Backend>> {
    Some(Box::new(AgUi))
}

/// An AG-UI agent as a [`Backend`]: one agent, at the base URL.
#[derive(Debug, Default)]
pub struct AgUi;

impl Backend for AgUi {
    fn capabilities(&self) -> &'static Capabilities {
        &CAPABILITIES
    }

    /// The one configured agent: a new message leaves its cards behind (composer mode
    /// `cancel`), edited arguments are carried by the answer, nothing is remembered.
    fn agents(&self, options: &TransportOptions) -> Value {
        let id = options.agent();
        json!({ "agents": [{ "id": id, "name": id,
            "metadata": { "pendingActionComposerMode": "cancel" },
            "capabilities": { "approvalArgsEdit": true, "approvalRemember": false } }] })
    }

    fn send_request(&self, send: &SendCall<'_>) -> WireCall {
        let names: Vec<&str> = send.files.iter().map(|f| f.name.as_str()).collect();
        WireCall {
            path: String::new(),
            body: send_body(send.thread, send.message_id, send.text, &names),
        }
    }

    /// A new message leaves the waiting cards behind (its run cancels them).
    fn on_new_message(&self, thread: &mut Thread, at: &str) -> Vec<(String, &'static str)> {
        settle_waiting(thread, at, "cancelled")
    }

    /// The next run, answering this one card; refused after its deadline.
    fn answer_request(&self, answer: &AnswerCall<'_>) -> Result<WireCall, (u16, String)> {
        let run_id = format!("run_{}", answer.decision_key);
        match answer_body(answer.thread, answer.action, answer.resolution, &run_id, answer.now) {
            Ok(body) => Ok(WireCall {
                path: String::new(),
                body,
            }),
            Err(AnswerRefusal::Expired) => Err(refusal(
                409,
                "action_expired",
                "This request expired; the agent no longer takes an answer.",
            )),
            Err(AnswerRefusal::NotAnApproval) => Err(refusal(
                400,
                "VALIDATION_ERROR",
                "This backend takes only approvals and denials.",
            )),
        }
    }

    fn decoder(&self) -> Box<dyn ReplyDecoder> {
        Box::new(Decoder::new())
    }

    fn read_reply(&self, body: &str) -> Result<Reply, ReadError> {
        read_reply(body)
    }

    /// An expired card is settled so a refetch does not draw it open again.
    fn answer_gone(
        &self,
        messages: &mut [Value],
        message_id: &str,
        action_id: &str,
        envelope: &str,
    ) -> bool {
        if !envelope.contains("\"action_expired\"") {
            return false;
        }
        for m in messages.iter_mut().filter(|m| m["id"] == message_id) {
            for a in m["metadata"]["pendingActions"]
                .as_array_mut()
                .into_iter()
                .flatten()
                .filter(|a| a["id"] == action_id)
            {
                a["status"] = Value::from("expired");
            }
        }
        true
    }
}

super::reply::reply_decoder!(Decoder);
