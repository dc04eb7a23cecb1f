//! A LangGraph server on the wire (the LangGraph Platform API, as `@langchain/langgraph-sdk`
//! speaks it): a turn is a run streamed on the conversation's thread, a card is an interrupt,
//! an answer resumes the run.
//!
//! Each conversation runs in one server thread whose id is derived from the conversation's
//! id ([`thread_id`]), so a reload, another tab or another device finds the same thread; the
//! first run creates it (`if_not_exists: "create"`). A turn is
//! `POST /threads/{thread}/runs/stream` with the person's message as input and the stream
//! modes `messages-tuple` (the model's text as it is written, tool calls and tool results),
//! `values` and `updates` (interrupts, under `__interrupt__`); a run that does not stream is
//! `POST /threads/{thread}/runs/wait`. Stop drops the request and cancels the run as the
//! SDK's `useStream` does (`POST /threads/{thread}/runs/{run}/cancel?action=interrupt`, the
//! run's id read from the stream's `metadata` event); every run also asks
//! `on_disconnect: "cancel"`, for a page that closes mid-run. The assistant (or graph) is the
//! conversation's agent: the configured agent id, else `agent`.
//!
//! An interrupt becomes a card whose id is the interrupt's id:
//! - a human interrupt (`{action_request: {action, args}, config: {allow_accept, allow_edit,
//!   allow_respond, allow_ignore}, description}`, alone or as the first of a list, as Agent
//!   Inbox reads it) that can be accepted or edited → an approval card (`toolName = action`,
//!   `args`, `summary = description`, arguments editable only with `allow_edit`, declined as
//!   `allow_respond` and `allow_ignore` say); approving sends `accept` (or `edit` with the
//!   edited arguments), declining sends `response` with the person's reason, or `ignore`
//!   without one;
//! - a human interrupt that can only be answered in words → a question card whose answer is
//!   sent as `response` (skippable, as `ignore`, when `allow_ignore`);
//! - any other `interrupt(value)` → a question card showing the value; the answer's text is
//!   the resume value.
//!
//! The answer resumes the thread with `command: {resume: {<interrupt id>: value}}` (a list
//! of one response when the interrupt was a list). The interrupts of one run (parallel nodes)
//! are resumed together: the answers wait for each other and go out in one resume map, one
//! entry per interrupt id, which is how langgraph resumes several interrupts in one run.
//!
//! The conversation is kept in the page like every backend's, with the cards' answers, and
//! read from the thread's state on the server (`GET /threads/{thread}/state`, as `useStream`
//! loads a thread) each time it is opened ([`state`]): with an empty store, on another
//! device or in another tab the messages and the waiting interrupts come from the server.

mod decoder;
pub mod state;

use serde_json::{json, Map, Value};

use super::backend::{AnswerCall, Backend, Capabilities, ReadError, Refusal, SendCall, WireCall};
use super::reply::{error_envelope, Delta, Reply, ReplyDecoder, WireFile};
use super::threads::{reply_listing, Thread};
use super::TransportOptions;

pub use self::decoder::Decoder;

/// The assistant asked when none is configured (the graph id LangGraph's templates use).
pub const DEFAULT_ASSISTANT: &str = "agent";
/// The key on a card's stored action that says how its interrupt is resumed.
pub const INTERRUPT_KEY: &str = "langgraph";
/// What a run streams: the model's messages, the state, and the updates that carry
/// interrupts.
pub const STREAM_MODE: [&str; 3] = ["messages-tuple", "values", "updates"];

/// The server thread of a conversation: its id when it already is a UUID, else a UUID
/// (version 8, "custom") made from two FNV-1a hashes of it, the same everywhere.
pub fn thread_id(conversation_id: &str) -> String {
    if is_uuid(conversation_id) {
        return conversation_id.to_ascii_lowercase();
    }
    let hash = |seed: u64| {
        conversation_id.bytes().fold(seed, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        })
    };
    let high = (hash(0xcbf2_9ce4_8422_2325) & !0xf000) | 0x8000;
    let low = (hash(0x8422_2325_cbf2_9ce4) & !(0b11 << 62)) | (0b10 << 62);
    let hex = format!("{high:016x}{low:016x}");
    format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

fn is_uuid(text: &str) -> bool {
    text.len() == 36
        && text.char_indices().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => c == '-',
            _ => c.is_ascii_hexdigit(),
        })
}

/// The path of a run on `thread`: streamed, or waited for whole.
pub fn run_path(thread: &str, stream: bool) -> String {
    let verb = if stream { "stream" } else { "wait" };
    format!("/threads/{}/runs/{verb}", crate::encode(thread))
}

/// The path that cancels the run `run` on `thread`, keeping what it wrote (`interrupt`, the
/// SDK's default action).
pub fn cancel_path(thread: &str, run: &str) -> String {
    format!(
        "/threads/{}/runs/{}/cancel?action=interrupt",
        crate::encode(thread),
        crate::encode(run)
    )
}

fn run_body(assistant: &str, stream: bool) -> Value {
    let mut body = json!({ "assistant_id": assistant, "on_disconnect": "cancel" });
    if stream {
        body["stream_mode"] = json!(STREAM_MODE);
    }
    body
}

/// The body of a turn: the person's message (images as `image_url` parts, other files named
/// in the text) on a thread created when it does not exist yet.
pub fn send_body(assistant: &str, text: &str, files: &[WireFile], stream: bool) -> Value {
    let mut words = text.to_owned();
    let mut images = Vec::new();
    for f in files {
        if f.mime_type.starts_with("image/") {
            let url = format!("data:{};base64,{}", f.mime_type, f.content);
            images.push(json!({ "type": "image_url", "image_url": { "url": url } }));
        } else {
            words.push_str(&format!("\n[Attached file: {}]", f.name));
        }
    }
    let content = if images.is_empty() {
        Value::from(words)
    } else {
        let mut parts = vec![json!({ "type": "text", "text": words })];
        parts.extend(images);
        Value::Array(parts)
    };
    let mut body = run_body(assistant, stream);
    body["input"] = json!({ "messages": [{ "type": "human", "content": content }] });
    body["if_not_exists"] = Value::from("create");
    body
}

/// The body that resumes the interrupts of one run together: each interrupt's id with its
/// value (`Command({resume: {id: value, …}})`, which langgraph reads by interrupt id).
pub fn resume_body(assistant: &str, resume: Map<String, Value>, stream: bool) -> Value {
    let mut body = run_body(assistant, stream);
    body["command"] = json!({ "resume": resume });
    body
}

/// The answers kept, not sent yet, for the other interrupts of the run that asked `action_id`
/// (the cards of the reply that waits on it, answered before it): each card with its answer.
fn held_answers<'a>(thread: &'a Thread, action_id: &str) -> Vec<(&'a Value, &'a Value)> {
    let Some(message) = reply_listing(&thread.messages, action_id) else {
        return Vec::new();
    };
    message["metadata"]["pendingActions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|a| a["id"] != action_id && a.get(INTERRUPT_KEY).is_some())
        .filter_map(|a| {
            let kept = &message["actionStates"][a["id"].as_str()?];
            (kept["status"] == "resolved" && !kept["resolution"].is_null())
                .then_some((a, &kept["resolution"]))
        })
        .collect()
}

/// The permissions of a human interrupt (`config`); a missing one is not given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Allowed {
    /// `allow_accept`: approve as proposed.
    pub accept: bool,
    /// `allow_edit`: approve with edited arguments.
    pub edit: bool,
    /// `allow_respond`: answer in words.
    pub respond: bool,
    /// `allow_ignore`: decline without words.
    pub ignore: bool,
}

impl Allowed {
    fn read(config: &Value) -> Allowed {
        let flag = |name: &str| config[name].as_bool().unwrap_or(false);
        Allowed {
            accept: flag("allow_accept"),
            edit: flag("allow_edit"),
            respond: flag("allow_respond"),
            ignore: flag("allow_ignore"),
        }
    }

    fn to_value(self) -> Value {
        json!({ "allow_accept": self.accept, "allow_edit": self.edit,
                "allow_respond": self.respond, "allow_ignore": self.ignore })
    }
}

/// The human interrupt `value` holds (alone, or first of a list): the request, its
/// permissions, and whether it came in a list.
fn human_request(value: &Value) -> Option<(&Value, Allowed, bool)> {
    let (request, list) = match value {
        Value::Array(items) => (items.first()?, true),
        other => (other, false),
    };
    let action = &request["action_request"];
    action["action"].as_str()?;
    request["config"].as_object()?;
    Some((request, Allowed::read(&request["config"]), list))
}

/// The words a plain interrupt's value is shown with: a string as it is; an object's
/// `question`, `message`, `description` or `text`; anything else as JSON.
fn plain_text(value: &Value) -> String {
    if let Some(text) = value.as_str() {
        return text.to_owned();
    }
    ["question", "message", "description", "text"]
        .iter()
        .find_map(|k| value[*k].as_str().filter(|t| !t.trim().is_empty()))
        .map(str::to_owned)
        .unwrap_or_else(|| serde_json::to_string_pretty(value).unwrap_or_default())
}

/// The card of one interrupt (`{id, value}`), in the agent server's pending-action shape,
/// with how it is resumed kept under [`INTERRUPT_KEY`]; `None` without an id.
pub fn card(interrupt: &Value) -> Option<Value> {
    let id = interrupt["id"].as_str().filter(|id| !id.is_empty())?;
    let value = &interrupt["value"];
    let Some((request, allowed, list)) = human_request(value) else {
        let question = plain_text(value);
        let question = if question.trim().is_empty() {
            "?".to_owned()
        } else {
            question
        };
        return Some(json!({ "id": id, "type": "user_question", "status": "pending",
            "questions": [{ "question": question, "allowFreeText": true }],
            INTERRUPT_KEY: { "interrupt": id, "plain": true } }));
    };
    let action = &request["action_request"];
    let name = action["action"].as_str().unwrap_or_default();
    let args = match &action["args"] {
        Value::Object(_) => action["args"].clone(),
        _ => json!({}),
    };
    let description = request["description"]
        .as_str()
        .map(str::trim)
        .filter(|d| !d.is_empty());
    let how = json!({ "interrupt": id, "list": list, "action": name,
                      "config": allowed.to_value() });
    if allowed.accept || allowed.edit {
        let decline = match (allowed.respond, allowed.ignore) {
            (true, true) => "any",
            (true, false) => "reason",
            (false, true) => "silent",
            (false, false) => "never",
        };
        let mut card = json!({ "id": id, "type": "tool_approval", "status": "pending",
            "toolName": name, "args": args, "argsEditable": allowed.edit,
            "decline": decline, INTERRUPT_KEY: how });
        if let Some(d) = description {
            card["summary"] = Value::from(d);
        }
        let schema = ["args_schema", "argsSchema"]
            .iter()
            .map(|k| &action[*k])
            .chain(["args_schema", "argsSchema"].iter().map(|k| &request[*k]))
            .find(|s| s.is_object());
        if let Some(schema) = schema {
            card["argsSchema"] = schema.clone();
        }
        return Some(card);
    }
    let question = match description {
        Some(d) => d.to_owned(),
        None => format!("{name} {}", serde_json::to_string(&args).unwrap_or_default()),
    };
    Some(json!({ "id": id, "type": "user_question", "status": "pending",
        "questions": [{ "question": question, "header": name, "allowFreeText": true,
                        "required": !allowed.ignore }],
        INTERRUPT_KEY: how }))
}

/// Why an answer cannot resume its interrupt (the person's card said what it allows, so this
/// only happens to an answer the card did not offer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// The stored card has no interrupt to resume.
    NotAnInterrupt,
    /// The interrupt does not allow this answer (the server's `config`): which refusal.
    NotAllowed(Refusal),
    /// The answer is not one this card takes.
    Unreadable,
}

impl Refused {
    /// The refusal the gateway answers with (the page says it in the person's language).
    #[must_use]
    pub fn refusal(&self) -> Refusal {
        match self {
            Refused::NotAnInterrupt => Refusal::NotAnswerable,
            Refused::NotAllowed(why) => *why,
            Refused::Unreadable => Refusal::DoesNotFit,
        }
    }
}

/// The first answer of a question card's `answers` as text (a list joined by `, `).
fn answer_text(resolution: &Value) -> Option<String> {
    let answers = resolution["answers"].as_object()?;
    let text = match answers.values().next()? {
        Value::String(s) => s.clone(),
        Value::Array(items) => items
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(", "),
        other => other.to_string(),
    };
    (!text.trim().is_empty()).then_some(text)
}

/// The resume value of `resolution` for the stored card `action`: its
/// interrupt id and the value (see the module docs).
pub fn resume_value(action: &Value, resolution: &Value) -> Result<(String, Value), Refused> {
    let how = &action[INTERRUPT_KEY];
    let id = how["interrupt"]
        .as_str()
        .filter(|id| !id.is_empty())
        .ok_or(Refused::NotAnInterrupt)?
        .to_owned();
    if how["plain"] == true {
        if resolution["cancelled"] == true {
            return Err(Refused::NotAllowed(Refusal::AnswerRequired));
        }
        let text = answer_text(resolution).ok_or(Refused::Unreadable)?;
        return Ok((id, Value::from(text)));
    }
    let allowed = Allowed::read(&how["config"]);
    let name = how["action"].as_str().unwrap_or_default();
    let response = if action["type"] == "tool_approval" {
        approval_response(action, name, allowed, resolution)?
    } else if resolution["cancelled"] == true {
        ignore(allowed)?
    } else {
        let text = answer_text(resolution).ok_or(Refused::Unreadable)?;
        respond(allowed, text)?
    };
    let value = if how["list"] == true {
        json!([response])
    } else {
        response
    };
    Ok((id, value))
}

fn ignore(allowed: Allowed) -> Result<Value, Refused> {
    if !allowed.ignore {
        return Err(Refused::NotAllowed(Refusal::SkipNotTaken));
    }
    Ok(json!({ "type": "ignore", "args": null }))
}

fn respond(allowed: Allowed, text: String) -> Result<Value, Refused> {
    if !allowed.respond {
        return Err(Refused::NotAllowed(Refusal::TextNotTaken));
    }
    Ok(json!({ "type": "response", "args": text }))
}

fn approval_response(
    action: &Value,
    name: &str,
    allowed: Allowed,
    resolution: &Value,
) -> Result<Value, Refused> {
    let allow = match resolution["decision"].as_str() {
        Some("allow") => true,
        Some("deny") => false,
        _ => resolution["approved"].as_bool().ok_or(Refused::Unreadable)?,
    };
    if !allow {
        let reason = resolution["comment"]
            .as_str()
            .or_else(|| resolution["reason"].as_str())
            .map(str::trim)
            .filter(|r| !r.is_empty());
        return match (reason, allowed.respond, allowed.ignore) {
            (_, false, false) => Err(Refused::NotAllowed(Refusal::DeclineNotTaken)),
            (Some(reason), true, _) => respond(allowed, reason.to_owned()),
            (Some(_), false, true) => Err(Refused::NotAllowed(Refusal::ReasonNotTaken)),
            (None, _, true) => ignore(allowed),
            (None, true, false) => Err(Refused::NotAllowed(Refusal::ReasonRequired)),
        };
    }
    match &resolution["approvedArgs"] {
        Value::Object(_) if allowed.edit => Ok(json!({ "type": "edit",
            "args": { "action": name, "args": resolution["approvedArgs"] } })),
        Value::Object(_) => Err(Refused::NotAllowed(Refusal::EditNotTaken)),
        _ if allowed.accept => Ok(json!({ "type": "accept",
            "args": { "action": name, "args": action["args"] } })),
        _ if allowed.edit => Ok(json!({ "type": "edit",
            "args": { "action": name, "args": action["args"] } })),
        _ => Err(Refused::NotAllowed(Refusal::ApproveNotTaken)),
    }
}

/// A refused request in the agent server's words: LangGraph's `{error, message}` (or its
/// plain-text answer); an answer to a thread the server does not know says nothing waits.
pub fn refusal_envelope(status: u16, body: &str, answering: bool) -> String {
    let parsed: Option<Value> = serde_json::from_str(body).ok();
    let message = parsed
        .as_ref()
        .and_then(|v| v["message"].as_str().or_else(|| v["detail"].as_str()))
        .filter(|m| !m.trim().is_empty());
    let Some(message) = message else {
        return error_envelope(status, body);
    };
    let code = if answering && status == 404 {
        "action_not_pending".to_owned()
    } else {
        parsed
            .as_ref()
            .and_then(|v| v["error"].as_str())
            .unwrap_or("langgraph_error")
            .to_owned()
    };
    json!({ "error": { "code": code, "message": message } }).to_string()
}

/// What LangGraph can do: conversations in the page, each on a server thread; interrupts
/// answered by resuming the run, never remembered for the chat.
pub const CAPABILITIES: Capabilities = Capabilities {
    names: &["langgraph"],
    named_by_page: true,
    keeps_threads: true,
    can_resolve: true,
    answers_at_action_url: false,
    remembers: false,
    runs_in_page: false,
    storage_tag: Some("langgraph"),
};

/// The assistant (or graph) asked: the configured agent id, else the model, else
/// [`DEFAULT_ASSISTANT`].
pub fn assistant(options: &TransportOptions) -> String {
    options
        .agent_id
        .clone()
        .or_else(|| options.model.clone())
        .filter(|a| !a.trim().is_empty())
        .unwrap_or_else(|| DEFAULT_ASSISTANT.to_owned())
}

/// LangGraph behind the gateway.
pub fn build(_: &TransportOptions) -> Option<Box<dyn Backend>> {
    Some(Box::new(LangGraph))
}

/// LangGraph as a [`Backend`].
#[derive(Debug, Default)]
pub struct LangGraph;

impl Backend for LangGraph {
    fn capabilities(&self) -> &'static Capabilities {
        &CAPABILITIES
    }

    /// One agent: the configured assistant, else [`DEFAULT_ASSISTANT`]; arguments are
    /// editable card by card (the interrupt says so), never remembered.
    fn agents(&self, options: &TransportOptions) -> Value {
        let id = assistant(options);
        json!({ "agents": [{ "id": id, "name": id,
            "capabilities": { "approvalRemember": false } }] })
    }

    /// The thread's state: what the SDK's `useStream` reads when it loads a thread.
    fn thread_url(&self, conversation_id: &str) -> Option<String> {
        let thread = thread_id(conversation_id);
        Some(format!("/threads/{}/state", crate::encode(&thread)))
    }

    fn thread_read(
        &self,
        options: &TransportOptions,
        conversation_id: &str,
        local: Option<&Thread>,
        body: &str,
        at: &str,
    ) -> Option<Thread> {
        state::read(conversation_id, &assistant(options), local, body, at)
    }

    fn send_request(&self, send: &SendCall<'_>) -> WireCall {
        let thread = send.thread;
        WireCall {
            path: run_path(&thread_id(thread.id()), send.stream),
            body: send_body(&send.model(), send.text, send.files, send.stream),
        }
    }

    /// Resumes the run: this interrupt's answer, with the answers kept for the run's other
    /// interrupts (several interrupts of one run are resumed together, in one run).
    fn answer_request(&self, answer: &AnswerCall<'_>) -> Result<WireCall, (u16, String)> {
        let (interrupt, value) = resume_value(answer.action, answer.resolution)
            .map_err(|why| why.refusal().response())?;
        let thread = answer.thread;
        let mut resume = Map::new();
        for (action, resolution) in held_answers(thread, answer.action_id) {
            if let Ok((id, value)) = resume_value(action, resolution) {
                resume.insert(id, value);
            }
        }
        resume.insert(interrupt, value);
        Ok(WireCall {
            path: run_path(&thread_id(thread.id()), answer.stream),
            body: resume_body(&answer.model(), resume, answer.stream),
        })
    }

    /// The interrupts of one run wait for each other's answers and go out together.
    fn answers_together(&self) -> bool {
        true
    }

    /// Stop cancels the run, as the SDK's `useStream` does:
    /// `POST /threads/{thread}/runs/{run}/cancel?action=interrupt`.
    fn stop_request(&self, thread: &Thread, running: &str) -> Option<WireCall> {
        Some(WireCall {
            path: cancel_path(&thread_id(thread.id()), running),
            body: json!({}),
        })
    }

    fn decoder(&self) -> Box<dyn ReplyDecoder> {
        Box::new(Decoder::new())
    }

    fn read_reply(&self, body: &str) -> Result<Reply, ReadError> {
        let mut decoder = Decoder::new();
        let deltas = decoder.read_whole(body);
        if let Some(words) = deltas.iter().find_map(|d| match d {
            Delta::Error(w) => Some(w.clone()),
            _ => None,
        }) {
            return Err(ReadError::Refused(words));
        }
        if decoder.whole != Some(true) {
            return Err(ReadError::Unreadable("not a LangGraph state".to_owned()));
        }
        Ok(decoder.ending())
    }

    fn refusal(&self, status: u16, body: &str, answering: bool) -> String {
        refusal_envelope(status, body, answering)
    }

    /// The server does not know the thread: nothing waits on it any more.
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
        let entries = messages
            .iter_mut()
            .filter(|m| m["id"] == message_id)
            .filter_map(|m| m["metadata"]["pendingActions"].as_array_mut())
            .flatten()
            .filter(|e| e["id"] == action_id);
        for entry in entries {
            entry["status"] = Value::from("resolved");
        }
        true
    }
}

