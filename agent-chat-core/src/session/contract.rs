//! What goes into the session and what comes out: [`Input`] (a person's [`Command`], an HTTP
//! response, a chunk of a streaming body, a closed stream, a timer tick), [`Output`] (requests
//! to run, streams to open or abort) and [`SessionEvent`] (what the host hears).

use serde_json::Value;

use crate::draft::Shown;
use crate::endpoint::Call;
use crate::files::FileMeta;
use crate::wire::{Conversation, Message, PendingAction, Resolution};

use super::{ChatError, HttpResponse, RequestId, SessionOptions, TransportError};

/// Everything that can happen to a session.
#[derive(Clone, Debug, PartialEq)]
pub enum Input {
    /// The person did something.
    User(Command),
    /// A request finished. For a stream request this means the server answered with something
    /// other than an event stream (usually an error envelope).
    Response {
        /// The request.
        id: RequestId,
        /// Its response, or why there is none.
        result: Result<HttpResponse, TransportError>,
    },
    /// Bytes of a streaming (SSE) body. Chunks may split lines or UTF-8 sequences anywhere.
    StreamChunk {
        /// The stream.
        id: RequestId,
        /// Raw body bytes.
        bytes: Vec<u8>,
    },
    /// A streaming body ended, normally (`None`) or not.
    StreamClosed {
        /// The stream.
        id: RequestId,
        /// Why it ended early, if it did.
        error: Option<TransportError>,
    },
    /// The timer armed from [`Session::poll_timeout`](super::Session::poll_timeout) fired.
    Timeout,
    /// The bytes of a file asked for with [`Output::ReadFile`] were read (raw base64), or
    /// could not be (the browser's wording).
    FileRead {
        /// The pending file's local id.
        id: String,
        /// Its base64 content, or why it could not be read.
        result: Result<String, String>,
    },
}

/// What the person (or the host page) asks the chat to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Start: list agents, load history and the configured conversation.
    Start,
    /// Pick another agent (only while the chat is empty).
    SelectAgent(String),
    /// Clear the chat to start a new conversation.
    NewChat,
    /// Load a conversation by id.
    OpenConversation(String),
    /// Delete a conversation (`DELETE /conversations/:id`). Its row leaves the history at once and
    /// comes back if the server refuses; the open conversation is cleared once the server agrees.
    DeleteConversation(String),
    /// Rename a conversation (`PATCH { title }`). The title (trimmed) shows at once in the
    /// history and, for the open conversation, in its status; a refusal puts the old one back.
    /// An empty title is ignored.
    RenameConversation {
        /// The conversation.
        id: String,
        /// Its new title.
        title: String,
    },
    /// Start a new, empty conversation on the server (`POST /conversations`) with an optional
    /// title, like React's `createConversation(title?)`: the chat is cleared, the created
    /// conversation becomes the open one and `ConversationCreated` is reported.
    CreateConversation {
        /// Its title.
        title: Option<String>,
    },
    /// Send a message (trimmed; empty text is ignored) with the pending files.
    Send(String),
    /// `retry()`: drops a trailing assistant message from the list and sends the text
    /// of the last user message again (its files are not resent). Ignored when there is no
    /// user message or a message could not be sent now.
    Retry,
    /// Attach files: each is checked against the effective limits (count, size, type)
    /// from its metadata alone; the accepted ones become pending files and are read with
    /// [`Output::ReadFile`], the refused ones are reported as one [`ChatError::Files`].
    AddFiles(Vec<FileMeta>),
    /// Drop a pending file by its local id.
    RemoveFile(String),
    /// Stop the running reply, keeping what arrived.
    Stop,
    /// Hide the error banner.
    DismissError,
    /// A part of the interface arrived: hides the banner if it was saying that this part
    /// could not be fetched.
    ChunkArrived(crate::Chunk),
    /// Reload the first page of the history quietly.
    RefreshHistory,
    /// Decide every call of one turn at once: "Approve all (N)" (`approve`) or
    /// "Deny all", each call as proposed, with its own decision key. All or nothing: when any
    /// of them may not be answered now (the gate of [`Command::Resolve`]), none is sent; else
    /// they all read Sending together and are sent one after the other.
    ResolveAll {
        /// The actions as the person saw them (at least two, of one assistant turn).
        shown: Vec<Shown>,
        /// Allow (`true`) or deny every one.
        approve: bool,
    },
    /// Another tab (or the host) says it settled `action_id` of the open conversation: look
    /// the conversation up at once. The server stays the authority: nothing is settled on
    /// the other tab's word alone.
    SettledElsewhere {
        /// The action.
        action_id: String,
    },
    /// Load the next page of the history.
    LoadMoreHistory,
    /// Load the next older page of the open conversation's messages (`GET /conversations/:id/messages`,
    /// `order=desc`);
    /// ignored unless [`Session::has_older_messages`](super::Session::has_older_messages) and no page is on its way.
    LoadOlderMessages,
    /// Change the switches and limits of the running chat: cards, the composer and
    /// uploads follow at once, the next message is sent as the new `streaming` says, and
    /// switching the history on loads it. Nothing else is touched: a reply keeps streaming.
    SetOptions(SessionOptions),
    /// Show a problem the session could not see itself (the page's storage failing; a part
    /// of the interface that could not be fetched) in the error banner,
    /// and report it as [`SessionEvent::Error`].
    ReportError(ChatError),
    /// Answer an approval or a question (`POST /conversations/:cid/actions/:aid`). `shown` is the
    /// action as the person saw it ([`Shown::of`] the drawn action): the answer is sent only if the
    /// card still is that request, waits, may be answered here, is within its deadline and the
    /// answer keeps the card's rules ([`crate::check_resolve`]); otherwise nothing is sent
    /// and [`SessionEvent::ResolveRefused`] says why.
    Resolve {
        /// The action as drawn when the person decided.
        shown: Shown,
        /// The answer.
        resolution: Resolution,
    },
}

/// Things the host should know about (callbacks, URL updates). Produced as [`Output::Event`].
#[derive(Clone, Debug, PartialEq)]
pub enum SessionEvent {
    /// An optimistic user message was added.
    MessageSent(Message),
    /// A final assistant message arrived.
    MessageReceived(Message),
    /// A streamed text chunk, with the text so far.
    StreamText {
        /// The new chunk.
        chunk: String,
        /// The whole streamed text so far: a snapshot of the shared buffer, so an event
        /// costs the same late in a long answer as early; `to_string()` copies it.
        full: crate::StreamText,
    },
    /// A tool call started.
    ToolCall {
        /// Tool name.
        name: String,
        /// Its arguments.
        args: Value,
    },
    /// A tool call finished.
    ToolResult {
        /// Tool name.
        name: String,
        /// Its result.
        result: Value,
    },
    /// Something failed.
    Error(ChatError),
    /// A conversation was created.
    ConversationCreated(Conversation),
    /// The open conversation changed (created, opened, cleared). Lets a page keep it in its URL.
    ConversationChanged(Option<String>),
    /// The selected agent changed.
    AgentChanged(String),
    /// A refused send hands its text back to the composer.
    DraftReturned(String),
    /// A turn paused for a person; never for `client_tool` or restored history.
    ActionRequired(PendingAction),
    /// The agent asks the embedding page to run one of its tools (`client_tool`). Reported
    /// once per action id: when it arrives live and when a loaded conversation still has it
    /// open (nobody else can answer it). Answer with [`Command::Resolve`] and
    /// [`Resolution::ClientTool`].
    ClientToolRequested(PendingAction),
    /// The server accepted an answer.
    ActionResolved {
        /// The action.
        action_id: String,
        /// The answer sent.
        resolution: Resolution,
    },
    /// An open action came back under the same id with other content (arguments, version,
    /// questions): its card is drawn afresh, edit dropped, and says so.
    ActionChanged(PendingAction),
    /// An answer was not sent; nothing left the page. The ones the person can act on
    /// also show as [`ChatError::Refused`].
    ResolveRefused {
        /// The action.
        action_id: String,
        /// Why.
        reason: crate::ResolveRefusal,
    },
    /// An answer that left the page was not taken: the server refused it, or answered with a
    /// new version to decide again, or a lookup found the request still waiting (it never
    /// arrived). The card says so; this names the action for a host awaiting its answer
    /// (`ChatStore::answer`).
    ResolveFailed {
        /// The action.
        action_id: String,
        /// What went wrong, as the banner shows it.
        error: ChatError,
    },
    /// No person-facing card waits any more, after one did: answered, expired, cancelled or
    /// answered elsewhere (focus goes back to the composer).
    CardsSettled,
    /// A frame of the reply could not be read and was skipped; the reply goes on.
    /// For the developer's log only: the decoder's wording never reaches the
    /// person.
    FrameSkipped {
        /// The decoder's wording.
        detail: String,
    },
    /// The decisions not settled yet changed: the edge keeps this list (`sessionStorage`) and
    /// passes it back as [`SessionConfig::decision_keys`](super::SessionConfig::decision_keys) after a reload.
    DecisionKeysChanged(Vec<crate::DecisionKey>),
}

/// What the session asks of the outside world.
// Outputs are drained right after `handle`, never stored in bulk: boxing the event would only
// add an allocation per output.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Output {
    /// Run a call and report [`Input::Response`].
    Send(Call),
    /// Run a request whose success is an event stream: report chunks with
    /// [`Input::StreamChunk`] and the end with [`Input::StreamClosed`]; a non-stream answer
    /// (any non-2xx) as [`Input::Response`].
    OpenStream(Call),
    /// Abort a running request; no further input for it is expected.
    Abort(RequestId),
    /// Tell the host something happened.
    Event(SessionEvent),
    /// Read the bytes of file number `index` of the last [`Command::AddFiles`] and report them
    /// as [`Input::FileRead`] under `id`. Only files that passed the checks are read.
    ReadFile {
        /// Position in the list given to [`Command::AddFiles`].
        index: usize,
        /// The pending file's local id.
        id: String,
    },
}
