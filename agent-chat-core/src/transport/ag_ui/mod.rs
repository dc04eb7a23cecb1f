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
//! A person is asked in two ways:
//! - an interrupt: `RUN_FINISHED` whose `outcome` is `{type: "interrupt", interrupts}`.
//!   One that names a tool call is an approval card (`id` = the interrupt's, the tool and
//!   arguments of the call, `message` as the summary, `responseSchema` as the arguments'
//!   schema, `expiresAt` as the deadline); any other is a question card drawn from its
//!   `responseSchema` (see `interrupt.rs`). The answer is the next run with a `resume`
//!   entry: approved → `{status: "resolved", payload: <the arguments as approved>}`,
//!   declined → `{status: "cancelled", payload: {reason}}`, a question's answer → the payload
//!   its schema describes. A run's interrupts are answered in one resume (the protocol takes
//!   no partial one): the answers wait until the last is given. An answer after `expiresAt`
//!   is refused here ([`check_deadline`]), before anything is sent.
//! - a frontend tool: the page declares [`CONFIRM_TOOL`]; a call to it that the run leaves
//!   without a result (or that `pendingToolCallIds` names) is a card, and the answer is the
//!   next run with a `tool` message for the call (`{approved, arguments?, reason?}`).
//!
//! A new message leaves the open cards behind: the run it starts cancels the open
//! interrupts in `resume` and answers the open confirmations as declined.

mod decoder;
mod interrupt;

use serde_json::{json, Value};

pub use self::decoder::{apply_patch, read_reply, Decoder};
pub use self::interrupt::{question_entry, SCHEMA_KEY};

use super::backend::{
    settle_waiting, AnswerCall, Backend, Capabilities, ReadError, Refusal, SendCall, WireCall,
};
use super::reply::{content_text, Reply, ReplyDecoder};
use super::threads::Thread;
use super::TransportOptions;
use crate::time::{parse_timestamp, Millis};

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
/// interrupts cancelled; the answers already given to other interrupts of the same run go
/// with them (every interrupt of a run is answered in one resume).
pub fn send_body(thread: &Thread, message_id: &str, text: &str, file_names: &[&str]) -> Value {
    let mut messages = history(&thread.messages);
    let mut resume = Vec::new();
    for (id, source) in open_cards(&thread.messages) {
        if source == "tool" {
            messages.push(tool_message(&id, left_behind().to_string()));
        } else {
            for entry in held_entries(&thread.messages, &id) {
                if !resume.iter().any(|e: &Value| e["interruptId"] == entry["interruptId"]) {
                    resume.push(entry);
                }
            }
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

/// The cards a stored message waits on.
fn cards(message: &Value) -> impl Iterator<Item = &Value> {
    message["metadata"]["pendingActions"].as_array().into_iter().flatten()
}

/// The answers kept on the reply that asks the interrupt `id` for its other interrupts
/// (held there until the last of them is answered), as resume entries.
fn held_entries(messages: &[Value], id: &str) -> Vec<Value> {
    let Some(reply) = messages.iter().find(|m| cards(m).any(|a| a["id"] == id)) else {
        return Vec::new();
    };
    cards(reply)
        .filter(|a| a["id"] != id && a[SOURCE_KEY] != "tool")
        .filter_map(|a| {
            let state = &reply["actionStates"][a["id"].as_str()?];
            let kept = state["status"] == "resolved" && state["resolution"].is_object();
            kept.then(|| resume_entry(a, &state["resolution"]).ok()).flatten()
        })
        .collect()
}

/// Why an answer to a card is not sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnswerRefusal {
    /// The card's `expiresAt` has passed: the agent takes no answer after it.
    Expired,
    /// The answer to an approval is not an approval or a denial.
    NotAnApproval,
    /// The answer to a question card has no answers and does not skip.
    NotAnAnswer,
    /// The answer breaks the interrupt's `responseSchema`: the text of the question whose
    /// answer is the first that does not fit (the JSON Pointer when no question is its).
    BreaksSchema(String),
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

/// A `POST /conversations/:cid/actions/:aid` resolution read as a decision:
/// `Some((approved, arguments, reason))`, where the arguments are the edited ones when the person
/// edited, else those the card showed, and the reason is the person's comment (else [`DECLINED`])
/// on a denial.
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

/// The resume entry that answers the interrupt card `action` with `resolution`: a question
/// card's payload ([`question_entry`]); an approval's arguments as approved (edited or as
/// proposed) as `resolved`, a denial as `cancelled` with the reason.
fn resume_entry(action: &Value, resolution: &Value) -> Result<Value, AnswerRefusal> {
    if action["type"] == "user_question" {
        return question_entry(action, resolution);
    }
    let (approved, args, reason) =
        decision(action, resolution).ok_or(AnswerRefusal::NotAnApproval)?;
    let id = action["id"].as_str().unwrap_or_default();
    Ok(if approved {
        json!({ "interruptId": id, "status": "resolved", "payload": args })
    } else {
        json!({ "interruptId": id, "status": "cancelled", "payload": { "reason": reason } })
    })
}

/// The run that answers the card `action` with `resolution` at `now`: a `tool` message for a
/// confirmation; for an interrupt, one resume that answers it and every other interrupt of
/// its run (their answers were kept until this last one). Refused after the card's deadline
/// or for an answer that does not fit the card.
pub fn answer_body(
    thread: &Thread,
    action: &Value,
    resolution: &Value,
    run_id: &str,
    now: Millis,
) -> Result<Value, AnswerRefusal> {
    check_deadline(action, now)?;
    let id = action["id"].as_str().unwrap_or_default();
    let mut messages = history(&thread.messages);
    let mut resume = Vec::new();
    if action[SOURCE_KEY] == "tool" {
        decision(action, resolution).ok_or(AnswerRefusal::NotAnApproval)?;
        let content = tool_content(resolution, action).to_string();
        messages.push(tool_message(id, content));
    } else {
        let entry = resume_entry(action, resolution)?;
        resume = held_entries(&thread.messages, id);
        resume.push(entry);
    }
    let state = &thread.conversation["metadata"][STATE_KEY];
    Ok(run_input(thread.id(), run_id, state, messages, resume))
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
            Err(AnswerRefusal::Expired) => Err(Refusal::Expired.response()),
            Err(AnswerRefusal::NotAnApproval) => Err(Refusal::ApproveOrDenyOnly.response()),
            Err(AnswerRefusal::NotAnAnswer) => Err(Refusal::AnswerRequired.response()),
            Err(AnswerRefusal::BreaksSchema(at)) => Err(Refusal::DoesNotFit.response_at(&at)),
        }
    }

    /// Every interrupt of a run is answered in one resume (the protocol takes no partial
    /// resume), and the calls the page confirms go back together too.
    fn answers_together(&self) -> bool {
        true
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
