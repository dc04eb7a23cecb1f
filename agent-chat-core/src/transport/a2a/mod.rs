//! A2A (Agent2Agent, JSON-RPC 2.0) on the wire: the agent card, the
//! request a turn sends, and the results read back, in A2A 1.0 (what the reference
//! `@a2a-js/sdk` server speaks by default) and A2A 0.3 (for a server whose card says so).
//!
//! The card ([`card`]) is looked for where the SDK's client looks, names the one agent, the
//! version spoken, the JSON-RPC address (the base URL when it names none on the base URL's
//! origin) and whether it streams. A conversation keeps its `contextId`, and the `taskId` of a
//! task that waits for input, so the next message goes on with it: A2A's own way to answer
//! `input-required`. An answer given in the card is such a message too: its text on the task,
//! nothing else. The results are read by [`Decoder`].
//!
//! 1.0 in short (the SDK's `JsonRpcTransportHandler` and its types): methods `SendMessage` /
//! `SendStreamingMessage`; a message is `{messageId, role: "ROLE_USER", parts: [{text}],
//! contextId?, taskId?}`, a file part `{raw, filename, mediaType}`; each request carries
//! `A2A-Version: 1.0` (without it the server takes the request for 0.3 and refuses it with
//! -32009). 0.3: `message/send` / `message/stream`, `kind` on the message and its parts,
//! `role: "user"`, no header.

pub mod card;
mod decoder;

use serde_json::{json, Value};

use super::backend::{settle_waiting, AnswerCall, Backend, Capabilities, ReadError, SendCall, WireCall};
use super::reply::{Delta, Reply, ReplyDecoder, WireFile};
use super::threads::Thread;
use super::TransportOptions;
use crate::{HttpResponse, TransportError};

pub use self::card::{Card, Version, CARD_PATH};
pub use self::decoder::Decoder;

/// The JSON-RPC endpoint, below the base URL, when the card names none: the base URL itself.
pub const RPC_PATH: &str = "";
/// The conversation metadata key of the A2A context.
pub const CONTEXT_KEY: &str = "a2aContextId";
/// The conversation metadata key of the task that waits for input.
pub const TASK_KEY: &str = "a2aTaskId";
/// The header that names the version a request speaks.
pub const VERSION_HEADER: &str = "A2A-Version";

/// The agent a card describes: `(name, description)`; `None` when it is not a card.
pub fn read_card(body: &str) -> Option<(String, Option<String>)> {
    card::read(body).map(|c| (c.name, c.description))
}

/// A message of the person in `version`'s shape: text first, then files, in the
/// conversation's context and open task, if any.
pub fn message(
    version: Version,
    message_id: &str,
    text: &str,
    files: &[WireFile],
    metadata: &Value,
) -> Value {
    let mut message = match version {
        Version::V1 => {
            let mut parts = vec![json!({ "text": text })];
            for f in files {
                parts.push(json!({ "raw": f.content, "filename": f.name,
                                   "mediaType": f.mime_type }));
            }
            json!({ "messageId": message_id, "role": "ROLE_USER", "parts": parts })
        }
        Version::V03 => {
            let mut parts = vec![json!({ "kind": "text", "text": text })];
            for f in files {
                parts.push(json!({ "kind": "file", "file": {
                    "name": f.name, "mimeType": f.mime_type, "bytes": f.content } }));
            }
            json!({ "kind": "message", "messageId": message_id, "role": "user",
                    "parts": parts })
        }
    };
    if let Some(context) = metadata[CONTEXT_KEY].as_str() {
        message["contextId"] = Value::from(context);
    }
    if let Some(task) = metadata[TASK_KEY].as_str() {
        message["taskId"] = Value::from(task);
    }
    message
}

/// The JSON-RPC request that sends `message`, streamed or whole, in `version`.
pub fn rpc_request(version: Version, id: Value, message: Value, stream: bool) -> Value {
    let method = match (version, stream) {
        (Version::V1, true) => "SendStreamingMessage",
        (Version::V1, false) => "SendMessage",
        (Version::V03, true) => "message/stream",
        (Version::V03, false) => "message/send",
    };
    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": { "message": message } })
}

/// The JSON-RPC request that cancels the task `task`, in `version`.
pub fn cancel_request(version: Version, task: &str) -> Value {
    let method = match version {
        Version::V1 => "CancelTask",
        Version::V03 => "tasks/cancel",
    };
    json!({ "jsonrpc": "2.0", "id": format!("cancel-{task}"), "method": method,
            "params": { "id": task } })
}

/// The JSON-RPC request of a turn in A2A 1.0: the person's message (text, and files with
/// their bytes), in the conversation's context and open task, if any.
pub fn request_body(
    rpc_id: u64,
    message_id: &str,
    text: &str,
    files: &[WireFile],
    stream: bool,
    metadata: &Value,
) -> Value {
    let message = message(Version::V1, message_id, text, files, metadata);
    rpc_request(Version::V1, Value::from(rpc_id), message, stream)
}

/// An answer to a card, as the text of the message that carries it: a question's answers
/// (each question's, `question: answer` when there are several), an approval's decision with
/// its reason.
pub fn answer_text(resolution: &Value) -> String {
    if resolution["cancelled"] == true {
        return "(no answer)".to_owned();
    }
    if let Some(answers) = resolution["answers"].as_object() {
        let one = |a: &Value| match a {
            Value::String(s) => s.clone(),
            Value::Array(list) => list
                .iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(", "),
            other => other.to_string(),
        };
        return match answers.len() {
            1 => answers.values().map(one).collect(),
            _ => answers
                .iter()
                .map(|(q, a)| format!("{q}: {}", one(a)))
                .collect::<Vec<_>>()
                .join("\n"),
        };
    }
    match resolution["decision"].as_str() {
        Some("allow") => "Approved.".to_owned(),
        Some(_) => match resolution["comment"].as_str().filter(|c| !c.trim().is_empty()) {
            Some(reason) => format!("Denied: {reason}"),
            None => "Denied.".to_owned(),
        },
        None => resolution.to_string(),
    }
}

/// What A2A can do: conversations in the page with their context and open task; a task that
/// waits for input is answered by the next message, or in its card, which sends one.
pub const CAPABILITIES: Capabilities = Capabilities {
    names: &["a2a"],
    named_by_page: true,
    keeps_threads: true,
    can_resolve: true,
    answers_at_action_url: false,
    remembers: true,
    runs_in_page: false,
    storage_tag: Some("a2a"),
};

/// A2A behind the gateway.
pub fn build(options: &TransportOptions) -> Option<Box<dyn Backend>> {
    let mut a2a = A2a::new(options.base_url.as_deref());
    if let Some(url) = options.agent_card_url.as_deref() {
        a2a.candidates = vec![card::configured(url, options.base_url.as_deref())];
    }
    Some(Box::new(a2a))
}

/// A2A as a [`Backend`]: its one agent is named by its card, once read; until then it speaks
/// 1.0 at the base URL.
#[derive(Debug, Default)]
pub struct A2a {
    /// Where the card is looked for, in order.
    candidates: Vec<String>,
    /// The candidate asked last.
    asked: usize,
    /// The base URL, absolute, when known.
    base: Option<String>,
    card: Option<Card>,
}

impl A2a {
    /// The backend for the base URL `base` (absolute, as the page resolved it; `None`: only
    /// below the base URL is looked at).
    pub fn new(base: Option<&str>) -> A2a {
        A2a {
            candidates: card::candidates(base),
            asked: 0,
            base: base.map(str::to_owned),
            card: None,
        }
    }

    fn version(&self) -> Version {
        self.card.as_ref().map(|c| c.version).unwrap_or_default()
    }

    /// Where requests go: the card's address, else the base URL.
    fn rpc_path(&self) -> String {
        let url = self.card.as_ref().and_then(|c| c.url.as_deref());
        card::rpc_address(url, self.base.as_deref())
    }

    /// Whether to stream: as asked, unless the card says the agent does not.
    fn streams(&self, asked: bool) -> bool {
        asked && self.card.as_ref().and_then(|c| c.streaming) != Some(false)
    }
}

impl Backend for A2a {
    fn capabilities(&self) -> &'static Capabilities {
        &CAPABILITIES
    }

    /// The card, until it is read (asked for again after a failure).
    fn agents_request(&self) -> Option<&'static str> {
        self.card.is_none().then_some(CARD_PATH)
    }

    /// The first place to look for the card, while it is not read.
    fn agents_url(&mut self, _: &TransportOptions) -> Option<String> {
        self.asked = 0;
        self.card
            .is_none()
            .then(|| self.candidates.first().cloned())
            .flatten()
    }

    /// The next place to look, after the last one had no card.
    fn agents_next(&mut self) -> Option<String> {
        if self.card.is_some() {
            return None;
        }
        self.asked += 1;
        self.candidates.get(self.asked).cloned()
    }

    fn agents_read(&mut self, result: &Result<HttpResponse, TransportError>) -> Option<String> {
        self.card = match result {
            Ok(resp) if (200..300).contains(&resp.status) => card::read(&resp.body),
            _ => None,
        };
        if self.card.is_some() {
            return None;
        }
        let why = match result {
            Ok(resp) => format!("answered {}", resp.status),
            Err(e) => e.to_string(),
        };
        let at = self.candidates.get(self.asked).map_or(CARD_PATH, String::as_str);
        let then = if self.asked + 1 < self.candidates.len() {
            "looking further"
        } else {
            "it is asked for again next time"
        };
        Some(format!("a2a: no agent card at {at} ({why}); {then}"))
    }

    /// 1.0 names itself on every request, the card's too (as the SDK's client does); 0.3
    /// sends nothing.
    fn wire_headers(&self) -> Vec<(String, String)> {
        match self.version() {
            Version::V1 => vec![(VERSION_HEADER.to_owned(), Version::V1.header().to_owned())],
            Version::V03 => Vec::new(),
        }
    }

    /// One agent: the card's name and description, else the configured agent id.
    fn agents(&self, options: &TransportOptions) -> Value {
        let id = options.agent();
        let mut agent = json!({ "id": id, "name": id });
        if let Some(card) = &self.card {
            agent["name"] = Value::from(card.name.as_str());
            if let Some(d) = &card.description {
                agent["description"] = Value::from(d.as_str());
            }
        }
        json!({ "agents": [agent] })
    }

    fn send_request(&self, send: &SendCall<'_>) -> WireCall {
        let metadata = &send.thread.conversation["metadata"];
        let version = self.version();
        let message = message(version, send.message_id, send.text, send.files, metadata);
        let body = rpc_request(version, Value::from(send.rpc_id), message, self.streams(send.stream));
        WireCall {
            path: self.rpc_path(),
            body,
        }
    }

    /// The message answers the question its task waits on.
    fn on_new_message(&self, thread: &mut Thread, at: &str) -> Vec<(String, &'static str)> {
        settle_waiting(thread, at, "resolved")
    }

    /// An ordinary message on the task that waits: the answer as its text (its id the
    /// decision key, so a repeat is the same message); for an action the agent named in a
    /// data part, the answer also as a data part `{actionId, resolution}` it can read.
    fn answer_request(&self, answer: &AnswerCall<'_>) -> Result<WireCall, (u16, String)> {
        let metadata = &answer.thread.conversation["metadata"];
        let version = self.version();
        let text = answer_text(answer.resolution);
        let mut message = message(version, answer.decision_key, &text, &[], metadata);
        if answer.resolution["answers"].is_null() {
            let data = json!({ "actionId": answer.action_id, "resolution": answer.resolution });
            let part = match version {
                Version::V1 => json!({ "data": data }),
                Version::V03 => json!({ "kind": "data", "data": data }),
            };
            if let Some(parts) = message["parts"].as_array_mut() {
                parts.push(part);
            }
        }
        let id = Value::from(answer.decision_key);
        Ok(WireCall {
            path: self.rpc_path(),
            body: rpc_request(version, id, message, self.streams(answer.stream)),
        })
    }

    /// Stop cancels the task, as the SDK's client does: `CancelTask` (0.3: `tasks/cancel`)
    /// with the task's id.
    fn stop_request(&self, _: &Thread, running: &str) -> Option<WireCall> {
        Some(WireCall {
            path: self.rpc_path(),
            body: cancel_request(self.version(), running),
        })
    }

    fn decoder(&self) -> Box<dyn ReplyDecoder> {
        Box::new(Decoder::new())
    }

    /// A failed task is kept with the conversation, in the agent's words.
    fn keeps_failed_turns(&self) -> bool {
        true
    }

    /// One JSON document: the agent's failure in its words, or unreadable as a whole.
    fn read_reply(&self, body: &str) -> Result<Reply, ReadError> {
        let mut decoder = Decoder::new();
        let deltas = decoder.read_whole(body);
        if let Some(wording) = deltas.iter().find_map(|d| match d {
            Delta::Error(wording) => Some(wording.clone()),
            _ => None,
        }) {
            return Err(ReadError::Refused(wording));
        }
        match deltas.into_iter().find_map(|d| match d {
            Delta::Skipped(why) => Some(why),
            _ => None,
        }) {
            Some(why) => Err(ReadError::Unreadable(why)),
            None => Ok(decoder.ending()),
        }
    }
}
