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
//! runs the tool first thing (the card reads Executing… from the answer's first chunk until
//! `tool-output-available` / `-error`, its Completed / Failed) or tells the model it was
//! denied, with the reason. A message's files are kept with it and sent again with every
//! later request, as `useChat` keeps them in its messages. Like `useChat`, a turn's answers go together
//! (the server cannot go on while one of its calls has neither result nor answer), and a new
//! message leaves the waiting approvals behind (the server drops them).
//!
//! Split in two: `request.rs` makes `useChat`'s requests from the stored conversation,
//! `decoder.rs` reads the stream into the reply and the message it built.

mod decoder;
mod request;

use serde_json::{json, Value};

pub use self::decoder::{read_reply, Decoder};
pub use self::request::{
    approval_answer, approved_calls, message_of, request_body, ui_messages, user_message,
};

use super::backend::{
    settle_waiting, AnswerCall, Backend, Capabilities, ReadError, Refusal, SendCall, WireCall,
};
use super::reply::{Reply, ReplyDecoder};
use super::TransportOptions;

/// The most base64 characters of a message's files that are kept with it in the
/// conversation (about 1 MiB of files): the browser keeps about 5 MB per site for every
/// conversation together.
pub const KEPT_FILE_BYTES: usize = 1 << 20;

/// The route is the base URL itself.
pub const PATH: &str = "";
/// The stored reply's metadata key for the UI message its stream built: `{id?, parts,
/// outputs?}` (`outputs`: tool outputs for calls of an earlier message).
pub const MESSAGE_KEY: &str = "aiSdkMessage";

/// What an AI SDK route can do: conversations in the page; approvals answered by sending
/// the conversation again, never remembered for the chat.
pub const CAPABILITIES: Capabilities = Capabilities {
    names: &["ai-sdk", "aisdk"],
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

    /// The person's message as `useChat` keeps it, files as data URLs, so every later request
    /// sends it again whole; files over [`KEPT_FILE_BYTES`] together are not kept (the
    /// conversation is stored in the browser's small storage) and go with their message only.
    fn keep_with_message(&self, send: &SendCall<'_>) -> Option<(&'static str, Value)> {
        let size: usize = send.files.iter().map(|f| f.content.len()).sum();
        (!send.files.is_empty() && size <= KEPT_FILE_BYTES)
            .then(|| (MESSAGE_KEY, user_message(send.message_id, send.text, send.files)))
    }

    /// The approved calls of the reply: the route runs them as soon as it reads the
    /// conversation, before the model goes on.
    fn runs_on_answer(&self, reply: &Value) -> Vec<String> {
        approved_calls(reply)
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
            return Err(Refusal::ApproveOrDenyOnly.response());
        }
        if resolution["approvedArgs"].is_object() {
            return Err(Refusal::EditNotTaken.response());
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

