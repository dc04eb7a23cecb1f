//! What one backend is to the gateway: its capabilities as data, how a send and an answer
//! become its requests, how its replies are read, and what a new message does to the cards
//! that wait. The gateway's shared code (the thread store, the agent server's endpoints
//! played in the page, turning replies into `stream.*` frames) asks only these questions, so
//! it holds no rule of any one backend.
//!
//! # Adding a backend
//!
//! 1. Write one file (or folder) under `src/transport/` with three public items:
//!    - `CAPABILITIES`: a [`Capabilities`] (its configured names, whether it keeps threads in
//!      the page, takes answers to cards, needs an action endpoint for them, offers
//!      "remember for this chat", runs in the page, and its storage tag);
//!    - `build(&TransportOptions) -> Option<Box<dyn Backend>>`: its [`Backend`] (`None` only
//!      for a backend that needs no gateway, like the agent server);
//!    - the type that implements [`Backend`]; its reply reader implements
//!      [`ReplyDecoder`].
//! 2. Add one line to the `backends!` list in `transport/mod.rs`: the variant of
//!    [`TransportKind`](super::TransportKind) and the module's name.
//!
//! Nothing else changes: the element, the page and `Chat` read its name from the list, the
//! store keeps its threads under its tag, and every session rule holds on it because the
//! gateway plays the agent server for it. A host can also hand the gateway a backend of its
//! own ([`Gateway::with_backend`](super::Gateway::with_backend)), as the recipe's test does.

use serde_json::{json, Value};

pub use super::failure::{Failure, FailureKind, Refusal};
use super::reply::{error_envelope, Reply, ReplyDecoder, WireFile};
use super::threads::Thread;
use super::TransportOptions;
use crate::time::Millis;
use crate::{HttpResponse, TransportError};

/// What a backend can do, as data: read before its code is loaded (the element and the page
/// load the backends other than the agent server on first use), so only data lives here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capabilities {
    /// The names it is configured by (`transport` attribute, `?transport=`); the first is
    /// the one it is written as.
    pub names: &'static [&'static str],
    /// Whether a page or an element may name it (an agent in the page only comes from Rust).
    pub named_by_page: bool,
    /// Whether conversations are kept in the page's thread store (the gateway plays the agent
    /// server); `false` only for a backend that has conversations of its own.
    pub keeps_threads: bool,
    /// Whether it can take answers to cards at all.
    pub can_resolve: bool,
    /// Whether answers go to an action endpoint the host configures (`actionUrl`), without
    /// which its cards are read-only.
    pub answers_at_action_url: bool,
    /// Whether its cards offer "don't ask again for this tool in this chat".
    pub remembers: bool,
    /// Whether its requests are run by an agent in the page instead of fetched.
    pub runs_in_page: bool,
    /// The part of the storage prefix that keeps its threads apart from another backend's at
    /// the same URL; `None` keeps the bare prefix (Chat Completions, which came first).
    pub storage_tag: Option<&'static str>,
}

impl Capabilities {
    /// The name it is written as.
    pub fn name(&self) -> &'static str {
        self.names.first().copied().unwrap_or_default()
    }

    /// Whether cards can be answered with `options`: the backend takes answers and,
    /// where it needs one, an action endpoint is configured.
    pub fn can_resolve_with(&self, options: &TransportOptions) -> bool {
        self.can_resolve
            && (!self.answers_at_action_url
                || options
                    .action_url
                    .as_deref()
                    .is_some_and(|u| !u.trim().is_empty()))
    }

    /// Where its threads are kept in `localStorage` for the server at `base_url`: each
    /// server keeps its own, and so does each backend at one URL (OpenAI's `/v1` serves both
    /// Chat Completions and Responses, whose threads do not mix).
    pub fn storage_prefix(&self, base_url: &str) -> String {
        let prefix = super::threads::DEFAULT_PREFIX;
        match self.storage_tag {
            Some(tag) => format!("{prefix}:{tag}:{base_url}"),
            None => format!("{prefix}:{base_url}"),
        }
    }
}

/// A request for the wire: a path below the base URL (or an absolute URL) and a JSON body,
/// always `POST`.
#[derive(Clone, Debug, PartialEq)]
pub struct WireCall {
    /// Where it goes.
    pub path: String,
    /// What it carries.
    pub body: Value,
}

/// A message the person sent, as the backend is asked for it.
#[derive(Debug)]
pub struct SendCall<'a> {
    /// The chat's configuration.
    pub options: &'a TransportOptions,
    /// The conversation as kept so far, without the new message.
    pub thread: &'a Thread,
    /// The new message's id.
    pub message_id: &'a str,
    /// The person's text.
    pub text: &'a str,
    /// The person's files.
    pub files: &'a [WireFile],
    /// Whether the reply is streamed.
    pub stream: bool,
    /// A number no other wire request of this gateway has (JSON-RPC ids).
    pub rpc_id: u64,
}

impl SendCall<'_> {
    /// The model to ask: the configured one, else the conversation's agent.
    pub fn model(&self) -> String {
        model(self.options, self.thread)
    }
}

/// An answer to a card, as the backend is asked for it.
#[derive(Debug)]
pub struct AnswerCall<'a> {
    /// The chat's configuration.
    pub options: &'a TransportOptions,
    /// The conversation the card is in.
    pub thread: &'a Thread,
    /// The action's id.
    pub action_id: &'a str,
    /// The stored action (chat shape).
    pub action: &'a Value,
    /// The person's answer.
    pub resolution: &'a Value,
    /// The decision's idempotency key.
    pub decision_key: &'a str,
    /// When the answer is sent (the session's clock, which follows the server's), for
    /// deadlines.
    pub now: Millis,
    /// The session's `POST /conversations/:cid/actions/:aid` body as the agent server would get it
    /// (`resolution`, `stream`, `decisionKey`, `version?`).
    pub body: &'a Value,
    /// Whether the continuation is streamed.
    pub stream: bool,
    /// Other cards of the same reply that the person decided with this one ("Approve all",
    /// "Deny all") and that the request is to decide too, with the same answer; empty unless
    /// the backend [answers batches](Backend::answers_batches).
    pub together: &'a [String],
}

impl AnswerCall<'_> {
    /// The model to ask: the configured one, else the conversation's agent.
    pub fn model(&self) -> String {
        model(self.options, self.thread)
    }

    /// The configured action endpoint (empty when there is none).
    pub fn action_url(&self) -> &str {
        self.options.action_url.as_deref().unwrap_or_default()
    }
}

fn model(options: &TransportOptions, thread: &Thread) -> String {
    options
        .model
        .clone()
        .unwrap_or_else(|| thread.agent_id().to_owned())
}

/// Why a whole reply was not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The agent said it failed: its kind, and its words when it gave some (the session
    /// shows them).
    Refused(Failure),
    /// The reply could not be read (the developer's log says why).
    Unreadable(String),
}

/// The refusal of a backend that takes no answers.
pub fn takes_no_answers() -> (u16, String) {
    Refusal::TakesNoAnswers.response()
}

/// One backend behind the gateway. See the module docs for the recipe.
pub trait Backend: std::fmt::Debug {
    /// What it can do.
    fn capabilities(&self) -> &'static Capabilities;

    /// The request that reads the agents it describes, while they are not read (a path
    /// below the base URL, `GET`); `None` when its one agent is the configured one.
    fn agents_request(&self) -> Option<&'static str> {
        None
    }

    /// The answer to [`Backend::agents_request`] (or its failure): kept for
    /// [`Backend::agents`]; returns a line for the developer's log when it was not read.
    fn agents_read(&mut self, result: &Result<HttpResponse, TransportError>) -> Option<String> {
        let _ = result;
        None
    }

    /// Where to read the agents it describes, while they are not read: by default
    /// [`Backend::agents_request`]; a path below the base URL or an absolute URL (`GET`).
    fn agents_url(&mut self, options: &TransportOptions) -> Option<String> {
        let _ = options;
        self.agents_request().map(str::to_owned)
    }

    /// After [`Backend::agents_read`] found nothing: the next place to look, if any (the
    /// session's agent lists wait for it). By default there is none.
    fn agents_next(&mut self) -> Option<String> {
        None
    }

    /// Where the server keeps the conversation `conversation_id`, for a backend whose server
    /// keeps its threads: read (`GET`, a path below the base URL) each time the session opens
    /// the conversation, so a reload, another tab or another device shows what the server
    /// has. By default there is none: the page's copy is the conversation.
    fn thread_url(&self, conversation_id: &str) -> Option<String> {
        let _ = conversation_id;
        None
    }

    /// The conversation `conversation_id` brought in line with the server's answer to
    /// [`Backend::thread_url`] (`body`, a 2xx answer) at `at`: `local` is the page's copy, if
    /// any. `None` when the answer says nothing usable (the page's copy stays as it is).
    fn thread_read(
        &self,
        options: &TransportOptions,
        conversation_id: &str,
        local: Option<&Thread>,
        body: &str,
        at: &str,
    ) -> Option<Thread> {
        let _ = (options, conversation_id, local, body, at);
        None
    }

    /// Headers its protocol needs on every request it makes (a version header); by default
    /// none.
    fn wire_headers(&self) -> Vec<(String, String)> {
        Vec::new()
    }

    /// Whether a turn that failed in the agent's words is kept in the conversation (a reply
    /// whose `metadata.error` holds them, so a reload still shows them); by default a failed
    /// turn leaves nothing but the live error.
    fn keeps_failed_turns(&self) -> bool {
        false
    }

    /// The session's agent list (the body of `GET /agents/:id`): by default one agent, the
    /// configured one.
    fn agents(&self, options: &TransportOptions) -> Value {
        let id = options.agent();
        let mut agent = json!({ "id": id, "name": id });
        if !self.capabilities().remembers {
            agent["capabilities"] = json!({ "approvalRemember": false });
        }
        json!({ "agents": [agent] })
    }

    /// The backend's request for a message the person sent.
    fn send_request(&self, send: &SendCall<'_>) -> WireCall;

    /// What the backend keeps with the person's stored message, as a key and value of its
    /// `metadata`: what a later request must send again and the stored message does not
    /// otherwise hold (the bytes of its files). By default nothing.
    fn keep_with_message(&self, send: &SendCall<'_>) -> Option<(&'static str, Value)> {
        let _ = send;
        None
    }

    /// What a new message does to the cards that wait in `thread` (answers them, leaves them
    /// behind, declines them), kept on their replies; returns their ids with the status the
    /// card settles with. By default they keep waiting.
    fn on_new_message(&self, thread: &mut Thread, at: &str) -> Vec<(String, &'static str)> {
        let _ = (thread, at);
        Vec::new()
    }

    /// The backend's request for an answer to a card, or the refusal (status, the agent
    /// server's envelope) the gateway answers itself.
    fn answer_request(&self, answer: &AnswerCall<'_>) -> Result<WireCall, (u16, String)> {
        let _ = answer;
        Err(takes_no_answers())
    }

    /// Whether the answers to one reply's cards go to the backend together: an answer to a
    /// card whose reply still waits on others is taken and kept (the card settles), and goes
    /// out with the answer to the last of them. By default each answer goes out at once.
    fn answers_together(&self) -> bool {
        false
    }

    /// The request that tells the server the person stopped the work `running` (the id its
    /// stream gave, [`Reply::running`]) in `thread`, sent beside dropping the stream, as the
    /// backend's own client does; its answer is not read. By default there is none: dropping
    /// the stream is all.
    fn stop_request(&self, thread: &Thread, running: &str) -> Option<WireCall> {
        let _ = (thread, running);
        None
    }

    /// The tool calls it runs as it takes the answers kept on the stored reply `reply`
    /// (approved, not run yet): their cards read "Executing…" from then until the calls'
    /// outcomes arrive. By default none: nothing says a call started.
    fn runs_on_answer(&self, reply: &Value) -> Vec<String> {
        let _ = reply;
        Vec::new()
    }

    /// Whether one request of its can decide every card of an "Approve all" / "Deny all"
    /// ([`AnswerCall::together`]): the gateway then settles them all once the backend took
    /// it, and answers their own answers, which follow, from that. By default each card's
    /// answer is its own request.
    fn answers_batches(&self) -> bool {
        false
    }

    /// A reader for one reply.
    fn decoder(&self) -> Box<dyn ReplyDecoder>;

    /// Reads a whole reply (a send that did not stream).
    fn read_reply(&self, body: &str) -> Result<Reply, ReadError>;

    /// A refused request (not 2xx) in the agent server's words; `answering` when it was an
    /// answer to a card.
    fn refusal(&self, status: u16, body: &str, answering: bool) -> String {
        let _ = answering;
        error_envelope(status, body)
    }

    /// An answer to the card `action_id` on the reply `message_id` was refused with
    /// `envelope`: marks the card settled in `messages` when the refusal says nothing waits
    /// any more, and says whether it did.
    fn answer_gone(
        &self,
        messages: &mut [Value],
        message_id: &str,
        action_id: &str,
        envelope: &str,
    ) -> bool {
        let _ = (messages, message_id, action_id, envelope);
        false
    }
}

/// The cards of `thread` that still wait, settled with `status` (`resolved`: answered by the
/// person's message; `cancelled`: left behind) and kept so on their reply (`actionStates`);
/// returns their ids with the status. For [`Backend::on_new_message`].
pub fn settle_waiting(
    thread: &mut Thread,
    at: &str,
    status: &'static str,
) -> Vec<(String, &'static str)> {
    let mut settled = Vec::new();
    for message in thread.messages.iter_mut().rev() {
        let open: Vec<String> = message["metadata"]["pendingActions"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|a| a["id"].as_str())
            .filter(|id| message["actionStates"].get(*id).is_none())
            .map(str::to_owned)
            .collect();
        if open.is_empty() {
            continue;
        }
        if !message["actionStates"].is_object() {
            message["actionStates"] = json!({});
        }
        for id in open {
            message["actionStates"][id.as_str()] = json!({ "status": status, "resolvedAt": at });
            settled.push((id, status));
        }
    }
    settled
}

/// `{actionId}` and `{conversationId}` of a configured action URL, filled in (encoded).
pub fn fill_action_url(template: &str, action_id: &str, conversation_id: &str) -> String {
    template
        .replace("{actionId}", &crate::encode(action_id))
        .replace("{conversationId}", &crate::encode(conversation_id))
}
