//! The chat `Session`: one sans-IO state machine for everything a chat does over the wire.
//!
//! Shape borrowed from quinn-proto / str0m (DESIGN.md §3): the outside world calls
//! [`Session::handle`] with one [`Input`] (a user [`Command`], an HTTP response, a chunk of a
//! streaming body, a closed stream or a timer tick), then drains [`Session::poll_output`] and
//! re-arms one timer from [`Session::poll_timeout`]. Time is an input, ids come from a counter,
//! nothing here blocks, sleeps or touches the network, so every rule is tested natively.

//!
//! The machine is split by concern, one `impl Session` block per file (quinn-proto's
//! `connection/` layout): this file holds the public types, the `Session` struct, its getters
//! and the `handle` / `poll_*` contract that dispatches to the sub-machines:
//! `turn` (sending, stopping, retrying), `stream` (reading a reply's events),
//! `running` (C17: looking for a reply after a dropped connection), `actions` (cards,
//! answers, expiry, client tools), `conversation` (open, load, refresh, older pages, create),
//! `history` (the list, paging, delete, rename, titles), `files` and `agents`.
//! Fields stay private to this module; its children see them, nothing outside does.

mod actions;
mod agents;
mod batch;
mod clock;
mod config;
mod conversation;
mod error;
mod files;
mod history;
mod reading;
mod running;
pub mod start_options;
mod state;
mod stream;
mod turn;
mod util;
mod watch;

use std::collections::VecDeque;

use serde_json::Value;

use crate::core::actions::{ActionCard, CardState, ComposerState};
use crate::core::draft::Shown;
use crate::core::endpoint::Call;
use crate::core::files::{FileMeta, PendingFile, UploadLimits};
use crate::core::time::Millis;
use crate::core::wire::{
    ActionKind, AgentInfo, ComposerMode, Conversation, ConversationListItem, Message,
    PendingAction, Resolution,
};

use self::clock::ServerClock;
pub use self::config::{SessionConfig, SessionOptions};
pub use self::error::{ChatError, ErrorContext};
pub use self::reading::{BYTES_PER_SLICE, MESSAGES_PER_SLICE};
pub use self::start_options::StartOptions;
pub use self::stream::{ActiveToolCall, StreamingTurn};
pub use self::util::{decode, encode};

use self::state::{
    HistoryState, InterruptedTurn, LoadPurpose, OlderPages, OutgoingMessage, Pending, RunningTurn,
    Turn,
};
use self::util::base36_padded;

/// Identifies one request the session asked the io layer to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RequestId(pub u64);

/// HTTP method of a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// `GET`
    Get,
    /// `POST`
    Post,
    /// `PATCH`
    Patch,
    /// `DELETE`
    Delete,
}

impl Method {
    /// The method as written on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
        }
    }
}

/// A request for the io layer. `path` is appended to the configured base URL; headers
/// (`Content-Type`, `Authorization`, custom ones) are added by the io layer (PROTOCOL §1),
/// after the request's own `headers`.
#[derive(Clone, Debug, PartialEq)]
pub struct HttpRequest {
    /// Id the result must be reported under.
    pub id: RequestId,
    /// HTTP method.
    pub method: Method,
    /// Path and query below the base URL, starting with `/`.
    pub path: String,
    /// JSON body, if any.
    pub body: Option<String>,
    /// Headers the wire protocol itself needs (a backend's version header), set before the
    /// configured ones; empty for the agent server's requests.
    pub headers: Vec<(String, String)>,
}

/// A complete (non-streamed) HTTP response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpResponse {
    /// Status code.
    pub status: u16,
    /// Body text (may be empty, e.g. for 204).
    pub body: String,
    /// The `Date` header ([`crate::core::parse_http_date`]), when there was one and the page
    /// could read it (same origin, or listed in `Access-Control-Expose-Headers`). The session
    /// estimates the server's clock from it (issue 13).
    pub date: Option<Millis>,
    /// The `Retry-After` header in seconds ([`crate::core::parse_retry_after`]), when there was
    /// one the page could read: a refusal for too many requests says how long to wait.
    pub retry_after: Option<u64>,
}

impl HttpResponse {
    /// A response without a readable `Date` or `Retry-After` header.
    pub fn new(status: u16, body: impl Into<String>) -> Self {
        HttpResponse {
            status,
            body: body.into(),
            date: None,
            retry_after: None,
        }
    }

    fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }
}

/// Why a request produced no HTTP response.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TransportError {
    /// The network failed (offline, DNS, CORS, connection reset…).
    #[error("network error: {0}")]
    Network(String),
    /// The session (or the page) aborted it.
    #[error("aborted")]
    Aborted,
    /// Not sent on to another origin: the server answered with a redirect (which is never
    /// followed, so the person's words and the token go nowhere else), or the request's own
    /// address was outside the origins the chat was configured with. The server the chat
    /// talks to did not take the request.
    #[error("not sent to another origin")]
    OtherOrigin,
}

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
    /// The timer armed from [`Session::poll_timeout`] fired.
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
    /// Delete a conversation (E7). Its row leaves the history at once and comes back if the
    /// server refuses; the open conversation is cleared once the server agrees.
    DeleteConversation(String),
    /// Rename a conversation (E6 `PATCH { title }`). The title (trimmed) shows at once in the
    /// history and, for the open conversation, in its status; a refusal puts the old one back.
    /// An empty title is ignored.
    RenameConversation {
        /// The conversation.
        id: String,
        /// Its new title.
        title: String,
    },
    /// Start a new, empty conversation on the server (E4) with an optional title, like
    /// React's `createConversation(title?)` (F151): the chat is cleared, the created
    /// conversation becomes the open one and `ConversationCreated` is reported.
    CreateConversation {
        /// Its title.
        title: Option<String>,
    },
    /// Send a message (trimmed; empty text is ignored) with the pending files (F146).
    Send(String),
    /// `retry()` (F152): drops a trailing assistant message from the list and sends the text
    /// of the last user message again (its files are not resent). Ignored when there is no
    /// user message or a message could not be sent now.
    Retry,
    /// Attach files (F147): each is checked against the effective limits (count, size, type)
    /// from its metadata alone; the accepted ones become pending files and are read with
    /// [`Output::ReadFile`], the refused ones are reported as one [`ChatError::Files`].
    AddFiles(Vec<FileMeta>),
    /// Drop a pending file by its local id (F148).
    RemoveFile(String),
    /// Stop the running reply, keeping what arrived.
    Stop,
    /// Hide the error banner.
    DismissError,
    /// A part of the interface arrived: hides the banner if it was saying that this part
    /// could not be fetched.
    ChunkArrived(crate::core::Chunk),
    /// Reload the first page of the history quietly.
    RefreshHistory,
    /// Decide every call of one turn at once (issue 14): "Approve all (N)" (`approve`) or
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
    /// the other tab's word alone (issue 14).
    SettledElsewhere {
        /// The action.
        action_id: String,
    },
    /// Load the next page of the history.
    LoadMoreHistory,
    /// Load the next older page of the open conversation's messages (E8, `order=desc`);
    /// ignored unless [`Session::has_older_messages`] and no page is on its way.
    LoadOlderMessages,
    /// Change the switches and limits of the running chat (issue 17): cards, the composer and
    /// uploads follow at once, the next message is sent as the new `streaming` says, and
    /// switching the history on loads it. Nothing else is touched: a reply keeps streaming.
    SetOptions(SessionOptions),
    /// Show a problem the session could not see itself (the page's storage failing, issue
    /// 15; a part of the interface that could not be fetched, issue 16) in the error banner,
    /// and report it as [`SessionEvent::Error`].
    ReportError(ChatError),
    /// Answer an approval or a question (E14, PROTOCOL §9.5). `shown` is the action as the
    /// person saw it ([`Shown::of`] the drawn action): the answer is sent only if the card still
    /// is that request, waits, may be answered here, is within its deadline and the answer keeps
    /// the card's rules ([`crate::core::check_resolve`]); otherwise nothing is sent and
    /// [`SessionEvent::ResolveRefused`] says why (issue 13).
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
    /// An optimistic user message was added (F12).
    MessageSent(Message),
    /// A final assistant message arrived (F13).
    MessageReceived(Message),
    /// A streamed text chunk, with the text so far (F14).
    StreamText {
        /// The new chunk.
        chunk: String,
        /// The whole streamed text so far: a snapshot of the shared buffer (D42), so an event
        /// costs the same late in a long answer as early; `to_string()` copies it.
        full: crate::core::StreamText,
    },
    /// A tool call started (F15).
    ToolCall {
        /// Tool name.
        name: String,
        /// Its arguments.
        args: Value,
    },
    /// A tool call finished (F16).
    ToolResult {
        /// Tool name.
        name: String,
        /// Its result.
        result: Value,
    },
    /// Something failed (F17).
    Error(ChatError),
    /// A conversation was created (F18).
    ConversationCreated(Conversation),
    /// The open conversation changed (created, opened, cleared). Lets a page keep it in its URL.
    ConversationChanged(Option<String>),
    /// The selected agent changed (F20).
    AgentChanged(String),
    /// A refused send hands its text back to the composer (F197, C29).
    DraftReturned(String),
    /// A turn paused for a person (F181); never for `client_tool` or restored history (C25).
    ActionRequired(PendingAction),
    /// The agent asks the embedding page to run one of its tools (`client_tool`, C10). Reported
    /// once per action id: when it arrives live and when a loaded conversation still has it
    /// open (nobody else can answer it). Answer with [`Command::Resolve`] and
    /// [`Resolution::ClientTool`].
    ClientToolRequested(PendingAction),
    /// The server accepted an answer (F180).
    ActionResolved {
        /// The action.
        action_id: String,
        /// The answer sent.
        resolution: Resolution,
    },
    /// An open action came back under the same id with other content (arguments, version,
    /// questions): its card is drawn afresh, edit dropped, and says so (issue 13).
    ActionChanged(PendingAction),
    /// An answer was not sent; nothing left the page (issue 13). The ones the person can act on
    /// also show as [`ChatError::Refused`].
    ResolveRefused {
        /// The action.
        action_id: String,
        /// Why.
        reason: crate::core::ResolveRefusal,
    },
    /// An answer that left the page was not taken: the server refused it, or answered with a
    /// new version to decide again, or a lookup found the request still waiting (it never
    /// arrived). The card says so; this names the action for a host awaiting its answer
    /// (`ChatStore::answer`, issue 17).
    ResolveFailed {
        /// The action.
        action_id: String,
        /// What went wrong, as the banner shows it.
        error: ChatError,
    },
    /// No person-facing card waits any more, after one did: answered, expired, cancelled or
    /// answered elsewhere (F228: focus goes back to the composer).
    CardsSettled,
    /// A frame of the reply could not be read and was skipped; the reply goes on (C22,
    /// issue 15). For the developer's log only: the decoder's wording never reaches the
    /// person.
    FrameSkipped {
        /// The decoder's wording.
        detail: String,
    },
    /// The decisions not settled yet changed: the edge keeps this list (`sessionStorage`) and
    /// passes it back as [`SessionConfig::decision_keys`] after a reload (issue 14).
    DecisionKeysChanged(Vec<crate::core::DecisionKey>),
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

/// The lifecycle of the chat's current turn; rendered as `data-state` on the chat root.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Run {
    /// Nothing running.
    #[default]
    Idle,
    /// A conversation is being loaded (F46).
    Loading,
    /// A message is on its way or its reply is streaming.
    Streaming,
    /// The turn paused: a person-facing action waits for an answer.
    AwaitingAction,
}

impl Run {
    /// Name used for `data-state`.
    pub fn as_str(self) -> &'static str {
        match self {
            Run::Idle => "idle",
            Run::Loading => "loading",
            Run::Streaming => "streaming",
            Run::AwaitingAction => "awaiting-action",
        }
    }
}

/// E5 returns at most this many messages, oldest first (PROTOCOL §3): when it returns this
/// many, the conversation may be longer and its newest page is fetched with E8 (D26).
pub const E5_MESSAGE_CAP: usize = 100;
/// Messages per E8 page: the newest page on open, then one older page at a time (D26). 25, so
/// each page is drawn in one short main-thread task (issue 8).
pub const MESSAGE_PAGE: usize = 25;

/// Revision counters, one per slice the UI renders, so a driver republishes only what changed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Revisions {
    /// Messages list.
    pub messages: u64,
    /// Streaming turn.
    pub streaming: u64,
    /// Conversation, run state, error, agents.
    pub status: u64,
    /// History list.
    pub history: u64,
    /// Approval and question cards.
    pub actions: u64,
    /// Pending files and the effective upload limits.
    pub files: u64,
}

/// The chat state machine. See the module docs.
#[derive(Debug)]
pub struct Session {
    config: SessionConfig,
    now: Millis,
    next_request: u64,
    next_local_id: u64,
    outputs: VecDeque<Output>,
    pending: Vec<(RequestId, Pending)>,

    agents: Vec<AgentInfo>,
    agents_loaded: bool,
    selected_agent: Option<String>,
    conversation: Option<Conversation>,
    messages: Vec<Message>,
    cards: Vec<ActionCard>,
    expiry_refresh_at: Option<Millis>,
    // The current turn is three facts that move on their own clocks, so they stay three
    // fields (folding them into one enum would change what the io layer sees):
    // - `run` is the lifecycle the UI draws; `Streaming` from the send (or a streamed answer)
    //   until the turn ends, whether or not a stream is open yet (E4 create, non-streamed E9).
    // - `streaming` is the reply drawn so far. It outlives the stream during a C17 look (the
    //   partial reply stays while the session looks) and ends before it on `done` / `error`.
    // - `stream_request` is the one SSE request this session reads, the only one `Stop`,
    //   New Chat and opening another conversation abort. It outlives `streaming` from `done`
    //   until the body closes, so leaving the chat in that gap still aborts the request.
    //   Only one is tracked: it is set by `open_stream` and cleared when that request ends.
    /// The reply streaming right now (see above).
    streaming: Option<StreamingTurn>,
    /// The open SSE request, if any (see above).
    stream_request: Option<RequestId>,
    /// The lifecycle the UI draws as `data-state` (see above).
    run: Run,
    error: Option<ChatError>,
    running_turn: Option<RunningTurn>,
    /// Sent messages whose turn broke off unconfirmed, drawn as interrupted (issue 13).
    interrupted: Vec<InterruptedTurn>,
    /// `client_tool` action ids already reported to the host.
    client_tools_reported: Vec<String>,
    /// Attachments waiting for the next send (F144).
    pending_files: Vec<PendingFile>,

    history: Vec<ConversationListItem>,
    /// Started, loading, and whether more pages exist (F98, F99).
    history_state: HistoryState,

    /// Older messages of the open conversation on the server, and whether a page of them is
    /// on its way (D26).
    older: OlderPages,

    revisions: Revisions,
    /// The estimated offset of the server's clock (issue 13; `clock.rs`).
    clock: ServerClock,
    /// Idempotency keys of decisions not settled yet (issue 14).
    keys: crate::core::DecisionKeys,
    /// Looking the conversation up while a card is Checking or Executing (issue 14).
    watch: Option<watch::Watch>,
    /// The rest of an "Approve all" / "Deny all", sent one after the other (issue 14).
    batch: VecDeque<(Shown, Resolution)>,
    /// A long conversation answer being read a slice at a time (issue 18).
    reading: Option<reading::Reading>,
    /// A message sent before the agent list arrived; it goes out when it does.
    awaiting_agent: Option<OutgoingMessage>,
}

impl Session {
    /// A new idle session. Nothing is requested until [`Command::Start`].
    pub fn new(config: SessionConfig) -> Self {
        let messages = config.initial_messages.clone();
        let keys = crate::core::DecisionKeys::new(config.decision_keys.clone(), config.key_seed);
        Session {
            keys,
            selected_agent: config.agent_id.clone(),
            config,
            now: Millis(0),
            next_request: 1,
            next_local_id: 1,
            outputs: VecDeque::new(),
            pending: Vec::new(),
            agents: Vec::new(),
            agents_loaded: false,
            conversation: None,
            messages,
            cards: Vec::new(),
            expiry_refresh_at: None,
            streaming: None,
            stream_request: None,
            run: Run::Idle,
            error: None,
            running_turn: None,
            interrupted: Vec::new(),
            client_tools_reported: Vec::new(),
            pending_files: Vec::new(),
            history: Vec::new(),
            history_state: HistoryState::NotStarted,
            older: OlderPages::None,
            revisions: Revisions::default(),
            clock: ServerClock::default(),
            watch: None,
            batch: VecDeque::new(),
            reading: None,
            awaiting_agent: None,
        }
    }

    /// Options the session was built with.
    pub fn config(&self) -> &SessionConfig {
        &self.config
    }

    /// Messages of the open conversation, oldest first (optimistic ones included).
    pub fn messages(&self) -> &[Message] {
        &self.messages
    }

    /// The reply streaming right now.
    pub fn streaming(&self) -> Option<&StreamingTurn> {
        self.streaming.as_ref()
    }

    /// Current run state.
    pub fn run(&self) -> Run {
        self.run
    }

    /// Whether a reply is on its way (F51).
    pub fn is_streaming(&self) -> bool {
        self.run == Run::Streaming
    }

    /// The error to show, if any (F47).
    pub fn error(&self) -> Option<&ChatError> {
        self.error.as_ref()
    }

    /// Agents from `GET /agents` (F42).
    pub fn agents(&self) -> &[AgentInfo] {
        &self.agents
    }

    /// Whether `GET /agents` has answered (successfully or not).
    pub fn agents_loaded(&self) -> bool {
        self.agents_loaded
    }

    /// Effective agent id.
    pub fn agent_id(&self) -> Option<&str> {
        self.selected_agent.as_deref()
    }

    /// The effective agent's description, when listed.
    pub fn agent(&self) -> Option<&AgentInfo> {
        let id = self.selected_agent.as_deref()?;
        self.agents.iter().find(|a| a.id == id)
    }

    /// The open conversation.
    pub fn conversation(&self) -> Option<&Conversation> {
        self.conversation.as_ref()
    }

    /// Approval and question cards of the open conversation, open and settled (F187).
    pub fn cards(&self) -> &[ActionCard] {
        &self.cards
    }

    /// Open actions, person-facing and `client_tool` (F187).
    pub fn pending_actions(&self) -> impl Iterator<Item = &PendingAction> {
        self.cards
            .iter()
            .filter(|c| c.state.is_open())
            .map(|c| &c.action)
    }

    /// Whether a person-facing action waits (F188).
    pub fn awaiting_action(&self) -> bool {
        self.cards.iter().any(ActionCard::is_open_for_person)
    }

    /// Whether an answer is on its way (F189).
    pub fn is_resolving_action(&self) -> bool {
        self.cards.iter().any(|c| c.state == CardState::Sending)
    }

    /// Whether this card can be answered here: transport and the per-kind switch (F175, F176).
    pub fn can_resolve(&self, card: &ActionCard) -> bool {
        crate::core::draft::may_answer(
            &card.action.kind,
            self.config.can_resolve,
            self.config.enable_tool_approvals,
            self.config.enable_questions,
        )
    }

    /// The switches and limits the session runs with now (change them with
    /// [`Command::SetOptions`]).
    pub fn options(&self) -> SessionOptions {
        self.config.options()
    }

    /// Effective argument editing: the agent's capability wins over the prop (F177).
    pub fn argument_edit_allowed(&self) -> bool {
        crate::core::draft::edit_allowed(
            self.agent().and_then(|a| a.capabilities.approval_args_edit),
            None,
            self.config.allow_argument_edit,
        )
    }

    /// What the gate knows of this backend and moment, besides the card (issue 13, 15).
    pub(crate) fn resolve_context(&self, may_answer: bool) -> crate::core::ResolveContext {
        crate::core::ResolveContext {
            now: self.server_now(),
            may_answer,
            busy: self.is_streaming(),
            backend_edits: self.agent().and_then(|a| a.capabilities.approval_args_edit)
                != Some(false),
            backend_remembers: self.remember_allowed(),
        }
    }

    /// Whether approval cards offer "don't ask again for this tool": not when the agent says
    /// it cannot remember (`capabilities.approvalRemember: false`, a Cogitator server).
    pub fn remember_allowed(&self) -> bool {
        self.agent()
            .and_then(|a| a.capabilities.approval_remember)
            .unwrap_or(true)
    }

    /// §9.8 composer state (F193, C35). A backend that cannot take answers at all (Chat
    /// Completions, Responses without an action endpoint: `can_resolve` false) never holds the
    /// composer: its cards only show what the agent waits on elsewhere, and the person goes on
    /// (issue 15). Cards switched off on a backend that takes answers do hold it (issue 13).
    pub fn composer_state(&self) -> ComposerState {
        if !self.config.can_resolve {
            return ComposerState::Normal;
        }
        crate::core::actions::composer_state_for(&self.cards, self.composer_mode(), |c| {
            self.can_resolve(c)
        })
    }

    /// The question the composer answers, in answer mode (F191).
    pub fn answerable_question(&self) -> Option<(&str, &crate::core::wire::Question)> {
        let open: Vec<&ActionCard> = self
            .cards
            .iter()
            .filter(|c| c.is_open_for_person())
            .collect();
        match (open.as_slice(), self.composer_state()) {
            ([card], ComposerState::Answer { .. }) => match &card.action.kind {
                ActionKind::UserQuestion(q) => {
                    q.questions.first().map(|q| (card.action.id.as_str(), q))
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// History list (F96).
    pub fn history(&self) -> &[ConversationListItem] {
        &self.history
    }

    /// More history pages exist (F99).
    pub fn history_has_more(&self) -> bool {
        self.history_state.has_more()
    }

    /// A history page is loading (F98).
    pub fn history_loading(&self) -> bool {
        self.history_state.is_loading()
    }

    /// Attachments waiting for the next send, in order (F144).
    pub fn pending_files(&self) -> &[PendingFile] {
        &self.pending_files
    }

    /// Upload limits with the effective agent's narrowing (F48, C16).
    pub fn upload_limits(&self) -> UploadLimits {
        match self.agent() {
            Some(agent) => self.config.uploads.effective(&agent.metadata),
            None => self.config.uploads.clone(),
        }
    }

    /// The open conversation has older messages than those loaded (D26); load them with
    /// [`Command::LoadOlderMessages`]. Changes bump the `status` revision.
    pub fn has_older_messages(&self) -> bool {
        self.older.exist()
    }

    /// Older messages are on their way: an E8 page, or the older part of a long answer still
    /// being read while its newest messages are shown (D69). Changes bump the `status`
    /// revision.
    pub fn is_loading_older(&self) -> bool {
        self.older.arriving()
    }

    /// Slice revisions, for drivers that republish only what changed.
    pub fn revisions(&self) -> Revisions {
        self.revisions
    }

    /// Effective composer mode: agent metadata wins over the prop (F179).
    pub fn composer_mode(&self) -> ComposerMode {
        self.agent()
            .and_then(|a| a.metadata.pending_action_composer_mode())
            .unwrap_or(self.config.composer_mode)
    }

    /// Whether the composer may send now: not while a reply runs or an answer is on its way,
    /// and not while a person-facing action waits in block mode (F179, F196).
    pub fn can_send(&self) -> bool {
        if matches!(self.run, Run::Loading | Run::Streaming) || self.is_resolving_action() {
            return false;
        }
        !self.composer_state().is_blocked()
    }

    /// Feeds one input at time `now`.
    pub fn handle(&mut self, now: Millis, input: Input) {
        self.now = self.now.max(now);
        let was_awaiting = self.awaiting_action();
        let stages_before = self.card_stages();
        match input {
            Input::User(cmd) => self.handle_command(cmd),
            Input::Response { id, result } => self.handle_response(id, result),
            Input::StreamChunk { id, bytes } => self.handle_chunk(id, &bytes),
            Input::StreamClosed { id, error } => self.handle_stream_closed(id, error),
            Input::Timeout => self.handle_timeout(),
            Input::FileRead { id, result } => self.on_file_read(id, result),
        }
        self.advance_batch();
        self.lock_host_read_only();
        self.note_execution_times(&stages_before);
        // One place sees every way the last card can settle (F228).
        if was_awaiting && !self.awaiting_action() {
            self.emit(SessionEvent::CardsSettled);
        }
    }

    /// Next thing for the outside world to do.
    #[must_use]
    pub fn poll_output(&mut self) -> Option<Output> {
        self.outputs.pop_front()
    }

    /// When to call `handle(now, Input::Timeout)` next, if at all.
    #[must_use]
    pub fn poll_timeout(&self) -> Option<Millis> {
        let deadlines = self
            .cards
            .iter()
            .filter(|c| c.state == CardState::Waiting)
            .filter_map(|c| c.action.expires_at)
            // Deadlines are on the server's clock, the timer on the page's (issue 13).
            .map(|at| self.page_time(at));
        self.running_turn
            .as_ref()
            .map(|t| t.next_poll)
            .into_iter()
            .chain(self.watch.as_ref().map(|w| w.next_at))
            .chain(self.expiry_refresh_at)
            .chain(self.reading_due())
            .chain(deadlines)
            .min()
    }

    fn handle_command(&mut self, cmd: Command) {
        match cmd {
            Command::Start => self.start(),
            Command::SelectAgent(id) => self.select_agent(id),
            Command::NewChat => {
                self.clear_chat();
                self.emit(SessionEvent::ConversationChanged(None));
            }
            Command::OpenConversation(id) => self.open_conversation(id, LoadPurpose::Open),
            Command::DeleteConversation(id) => self.delete_conversation(id),
            Command::RenameConversation { id, title } => self.rename_conversation(id, title),
            Command::CreateConversation { title } => self.create_conversation(title),
            Command::Send(text) => self.send(text),
            Command::Retry => self.retry(),
            Command::AddFiles(files) => self.add_files(files),
            Command::RemoveFile(id) => self.remove_file(&id),
            Command::Stop => self.stop(),
            Command::DismissError => {
                if self.error.take().is_some() {
                    self.revisions.status += 1;
                }
            }
            Command::ChunkArrived(chunk) => {
                if self.error == Some(ChatError::ChunkMissing(chunk)) {
                    self.error = None;
                    self.revisions.status += 1;
                }
            }
            Command::RefreshHistory => self.load_history(false),
            Command::SettledElsewhere { action_id } => {
                let waits = self
                    .cards
                    .iter()
                    .any(|c| c.action.id == action_id && c.state.is_open());
                if waits && !self.is_streaming() {
                    self.refresh_conversation();
                }
            }
            Command::Resolve { shown, resolution } => {
                self.resolve(shown, resolution, None, Vec::new())
            }
            Command::ResolveAll { shown, approve } => self.resolve_all(shown, approve),
            Command::LoadMoreHistory => {
                if self.history_state == (HistoryState::Loaded { has_more: true }) {
                    self.load_history(true);
                }
            }
            Command::LoadOlderMessages => self.load_older(),
            Command::SetOptions(options) => self.set_options(options),
            Command::ReportError(err) => self.set_error(err),
        }
    }

    fn set_options(&mut self, options: SessionOptions) {
        if !self.config.apply(options) {
            return;
        }
        // Answerability, the composer and the limits are derived from the options on read:
        // republishing the slices that show them is all a change needs.
        self.revisions.status += 1;
        self.revisions.actions += 1;
        self.revisions.files += 1;
        if self.config.show_history && self.agents_loaded && !self.history_state.is_started() {
            self.load_history(false);
        }
    }

    fn start(&mut self) {
        self.request(crate::core::endpoint::Endpoint::Agents, Pending::Agents);
        if let Some(id) = self.config.conversation_id.clone() {
            self.open_conversation(id, LoadPurpose::Open);
        }
    }

    fn handle_response(&mut self, id: RequestId, result: Result<HttpResponse, TransportError>) {
        // Any answer, even one for a request given up on, tells the server's time.
        if let Some(date) = result.as_ref().ok().and_then(|r| r.date) {
            self.observe_server_date(date);
        }
        let Some(pos) = self.pending.iter().position(|(rid, _)| *rid == id) else {
            return; // aborted or superseded
        };
        let (_, pending) = self.pending.remove(pos);
        match pending {
            Pending::Agents => self.on_agents(result),
            Pending::History { append } => self.on_history(append, result),
            Pending::Create { outgoing } => self.on_created(outgoing, result),
            Pending::CreateEmpty => self.on_created_empty(result),
            Pending::Load {
                conversation_id,
                purpose,
            } => self.on_loaded(conversation_id, purpose, result),
            Pending::LoadTail {
                conversation_id,
                purpose,
                loaded,
            } => self.on_tail(conversation_id, purpose, *loaded, result),
            Pending::ReadingTail { conversation_id } => {
                self.on_reading_tail(conversation_id, result)
            }
            Pending::Older { conversation_id } => self.on_older(conversation_id, result),
            Pending::Send { outgoing } => self.on_sent(outgoing, result),
            Pending::Resolve { turn } => self.on_resolve_response(turn, result),
            Pending::Stream { turn, .. } => {
                // Not an event stream: an error envelope (or a server that ignored `stream`).
                self.stream_request = None;
                match turn {
                    Turn::Send(outgoing) => self.on_sent(outgoing, result),
                    resolve => self.on_resolve_response(resolve, result),
                }
            }
            Pending::Delete {
                conversation_id,
                removed,
            } => self.on_deleted(conversation_id, removed, result),
            Pending::Rename {
                conversation_id,
                title,
                previous,
            } => self.on_renamed(conversation_id, title, previous, result),
        }
    }

    /// Every approval card carries the host page's read-only arguments for its tool, whichever
    /// way it arrived (a stream, a reply, a loaded conversation), before anything draws it or
    /// checks an answer against it.
    fn lock_host_read_only(&mut self) {
        if self.config.read_only_args.is_empty() {
            return;
        }
        let mut changed = false;
        for card in &mut self.cards {
            if let ActionKind::ToolApproval(approval) = &mut card.action.kind {
                changed |=
                    crate::core::draft::lock_host_read_only(approval, &self.config.read_only_args);
            }
        }
        if changed {
            self.revisions.actions += 1;
        }
    }

    fn handle_timeout(&mut self) {
        let now = self.now;
        self.read_slice();
        // Deadlines are decided on the server's clock (issue 13).
        if self.expire_due_cards(self.server_now()) {
            self.revisions.actions += 1;
            // Issue 13: a reply still on its way carries the turn (and its Stop); the turn
            // ends with that reply. Only a paused turn ends here.
            if self.is_streaming() {
                self.revisions.status += 1;
            } else {
                self.finish_turn();
            }
            self.schedule_expiry_refresh();
        }
        if self.expiry_refresh_at.is_some_and(|t| t <= now) {
            self.expiry_refresh_at = None;
            if !self.is_streaming() {
                self.refresh_conversation();
            }
        }
        self.poll_running_turn();
        self.poll_watch();
    }

    fn set_error(&mut self, err: ChatError) {
        self.error = Some(err.clone());
        self.revisions.status += 1;
        self.emit(SessionEvent::Error(err));
    }

    fn emit(&mut self, event: SessionEvent) {
        self.outputs.push_back(Output::Event(event));
    }

    fn next_id(&mut self) -> RequestId {
        let id = RequestId(self.next_request);
        self.next_request += 1;
        id
    }

    /// Client-side id in the React library's format: `<ms>_<9 base36 chars>` (PROTOCOL §1).
    fn local_id(&mut self) -> String {
        let n = self.next_local_id;
        self.next_local_id += 1;
        format!("{}_{}", self.now.0, base36_padded(n, 9))
    }

    fn request(&mut self, call: crate::core::endpoint::Endpoint, pending: Pending) {
        let id = self.next_id();
        self.pending.push((id, pending));
        self.outputs
            .push_back(Output::Send(Call { id, endpoint: call }));
    }
}
