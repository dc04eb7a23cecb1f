//! The chat `Session`: one sans-IO state machine for everything a chat does over the wire.
//!
//! Shape borrowed from quinn-proto / str0m (DESIGN.md §3): the outside world calls
//! [`Session::handle`] with one [`Input`] (a user [`Command`], an HTTP response, a chunk of a
//! streaming body, a closed stream or a timer tick), then drains [`Session::poll_output`] and
//! re-arms one timer from [`Session::poll_timeout`]. Time is an input, ids come from a counter,
//! nothing here blocks, sleeps or touches the network, so every rule is tested natively.

use std::collections::VecDeque;

use serde_json::{json, Map, Value};

use super::actions::{restore_cards, ActionCard, CardState, ComposerState, Outcome};
use super::error::ApiError;
use super::files::{FileMeta, FileRejection, PendingFile, UploadLimits};
use super::i18n::{Arg, Catalog};
use super::sse::SseDecoder;
use super::time::Millis;
use super::wire::{
    ActionKind, ActionStateEntry, ActionStatus, AgentInfo, AgentList, AnswerValue, ComposerMode,
    Conversation, ConversationList, ConversationListItem, ConversationWithMessages, FileAttachment,
    Message, MessageContent, MessagesPage, PendingAction, Resolution, ResolveActionResponse, Role,
    StreamEvent, TurnStatus,
};

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
/// (`Content-Type`, `Authorization`, custom ones) are added by the io layer (PROTOCOL §1).
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
}

/// A complete (non-streamed) HTTP response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpResponse {
    /// Status code.
    pub status: u16,
    /// Body text (may be empty, e.g. for 204).
    pub body: String,
}

impl HttpResponse {
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
    /// Reload the first page of the history quietly.
    RefreshHistory,
    /// Load the next page of the history.
    LoadMoreHistory,
    /// Load the next older page of the open conversation's messages (E8, `order=desc`);
    /// ignored unless [`Session::has_older_messages`] and no page is on its way.
    LoadOlderMessages,
    /// Answer an approval or a question (E14, PROTOCOL §9.5).
    Resolve {
        /// The action.
        action_id: String,
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
}

/// What the session asks of the outside world.
// Outputs are drained right after `handle`, never stored in bulk: boxing the event would only
// add an allocation per output.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Output {
    /// Run a request and report [`Input::Response`].
    Send(HttpRequest),
    /// Run a request whose success is an event stream: report chunks with
    /// [`Input::StreamChunk`] and the end with [`Input::StreamClosed`]; a non-stream answer
    /// (any non-2xx) as [`Input::Response`].
    OpenStream(HttpRequest),
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

/// Where a failure happened; picks the generic wording when the server gave no known code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorContext {
    /// Listing agents.
    Agents,
    /// Sending a message (or creating its conversation).
    Send,
    /// Loading a conversation.
    LoadConversation,
    /// Listing conversations.
    LoadConversations,
    /// Loading more conversations.
    LoadMore,
    /// Deleting a conversation.
    Delete,
    /// Renaming a conversation.
    Rename,
    /// Uploading, reading or deleting a stored file (E10–E12, `AgentServerClient`).
    File,
    /// Loading older messages of the open conversation (E8).
    LoadOlderMessages,
}

impl ErrorContext {
    fn generic_id(self) -> &'static str {
        match self {
            ErrorContext::Agents | ErrorContext::LoadConversations => {
                "chat-error-load-conversations-failed"
            }
            ErrorContext::Send => "chat-error-send-failed",
            ErrorContext::LoadConversation => "chat-error-load-conversation-failed",
            ErrorContext::LoadMore => "chat-error-load-more-failed",
            ErrorContext::Delete => "chat-error-delete-conversation-failed",
            ErrorContext::Rename => "chat-error-rename-conversation-failed",
            ErrorContext::File => "chat-error-file-request-failed",
            ErrorContext::LoadOlderMessages => "chat-error-load-older-messages-failed",
        }
    }
}

/// A failure as the UI shows it. Keeps the server's wording (`server_message`) and the
/// lower-case code (F194) next to what [`ChatError::describe`] makes of them.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ChatError {
    /// The server refused a request (error envelope, any status).
    #[error("{context:?} failed: {error:?}")]
    Api {
        /// What was being done.
        context: ErrorContext,
        /// The parsed envelope.
        error: ApiError,
    },
    /// The server sent `stream.error`.
    #[error("stream error {code:?}: {message}")]
    Stream {
        /// Lower-case code, if any.
        code: Option<String>,
        /// Server wording.
        message: String,
    },
    /// No response at all.
    #[error("network failure: {detail}")]
    Network {
        /// What was being done.
        context: ErrorContext,
        /// Browser wording.
        detail: String,
    },
    /// A response body did not have the expected shape.
    #[error("unreadable response: {detail}")]
    BadResponse {
        /// What was being done.
        context: ErrorContext,
        /// Parser wording.
        detail: String,
    },
    /// One SSE frame could not be read; the stream went on.
    #[error("unreadable stream frame: {detail}")]
    BadFrame {
        /// Decoder wording.
        detail: String,
    },
    /// The stream ended without `stream.done` and the conversation did not show the reply.
    #[error("stream cut")]
    StreamCut,
    /// The server lists no agent and none was configured.
    #[error("no agent")]
    NoAgent,
    /// Files were not attached (F147): too many, too large, a type not accepted, uploads off,
    /// or unreadable. One entry per refusal, in order.
    #[error("files refused: {0:?}")]
    Files(Vec<FileRejection>),
}

impl ChatError {
    /// Lower-case error code, when the server gave one.
    pub fn code(&self) -> Option<&str> {
        match self {
            ChatError::Api { error, .. } => error.code.as_deref(),
            ChatError::Stream { code, .. } => code.as_deref(),
            _ => None,
        }
    }

    /// The server's own wording, when there is one.
    pub fn server_message(&self) -> Option<&str> {
        match self {
            ChatError::Api { error, .. } => Some(&error.server_message),
            ChatError::Stream { message, .. } => Some(message),
            _ => None,
        }
    }

    /// HTTP status, when there was a response.
    pub fn status(&self) -> Option<u16> {
        match self {
            ChatError::Api { error, .. } => Some(error.status),
            _ => None,
        }
    }

    /// The text to show: for a failed delete or rename the localized "failed to …" text;
    /// otherwise the localized text of a known code (PROTOCOL §9.10), else the server's wording,
    /// else the localized generic text for what failed.
    pub fn describe(&self, catalog: &Catalog) -> String {
        // A failed delete or rename is not tied to anything on screen: say what failed.
        if let ChatError::Api { context, .. }
        | ChatError::Network { context, .. }
        | ChatError::BadResponse { context, .. } = self
        {
            if matches!(context, ErrorContext::Delete | ErrorContext::Rename) {
                return catalog.tr(context.generic_id());
            }
        }
        if let Some(code) = self.code() {
            let id = format!("chat-error-code-{}", code.replace('_', "-"));
            if catalog.has(&id) {
                return catalog.tr(&id);
            }
        }
        match self {
            ChatError::Api { context, error } => {
                if error.server_message.is_empty() || error.server_message == "Request failed" {
                    catalog.tr(context.generic_id())
                } else {
                    error.server_message.clone()
                }
            }
            ChatError::Stream { message, .. } if !message.is_empty() => message.clone(),
            ChatError::Stream { .. } => catalog.tr("chat-error-send-failed"),
            ChatError::Network { .. } => catalog.tr("chat-error-network"),
            ChatError::BadResponse { .. } => catalog.tr("chat-error-bad-response"),
            ChatError::BadFrame { detail } => catalog.tr_args(
                "chat-error-bad-frame",
                &[("detail", Arg::from(detail.as_str()))],
            ),
            ChatError::StreamCut => catalog.tr("chat-error-stream-cut"),
            ChatError::NoAgent => catalog.tr("chat-error-no-agent"),
            ChatError::Files(list) => list
                .iter()
                .map(|r| r.describe(catalog))
                .collect::<Vec<_>>()
                .join("\n"),
        }
    }
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

/// A tool call seen while a reply streams (F54).
#[derive(Clone, Debug, PartialEq)]
pub struct ActiveToolCall {
    /// Call id.
    pub id: String,
    /// Tool name.
    pub name: String,
    /// Arguments.
    pub args: Value,
    /// Result, once it arrived.
    pub result: Option<Value>,
    /// Why the agent called it, when given.
    pub reasoning: Option<String>,
    /// Friendly label, when given.
    pub display_name: Option<String>,
}

/// The reply being streamed right now.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct StreamingTurn {
    /// Text so far: append-only and shared by clones (D42), so cloning the turn (the store
    /// publishes it once per frame) does not copy the text.
    pub text: crate::core::StreamText,
    /// Tool calls so far, in order.
    pub tool_calls: Vec<ActiveToolCall>,
    /// Latest progress line; cleared by text (F64).
    pub progress: Option<String>,
    first_tool_call_at: Option<Millis>,
}

/// Static options of a session (the relevant `Chat` props).
#[derive(Clone, Debug, PartialEq)]
pub struct SessionConfig {
    /// Agent to talk to; `None` = first of `GET /agents` (F2).
    pub agent_id: Option<String>,
    /// Conversation to load at start (F10).
    pub conversation_id: Option<String>,
    /// SSE (`true`, default) or one JSON reply (F5).
    pub streaming: bool,
    /// Whether the history sidebar is used (F22): gates history requests.
    pub show_history: bool,
    /// Composer mode prop; the agent's metadata wins (F179).
    pub composer_mode: ComposerMode,
    /// Approval cards can be answered here (F175); `false` draws them read-only.
    pub enable_tool_approvals: bool,
    /// Question cards can be answered here (F176).
    pub enable_questions: bool,
    /// The transport can send answers at all (F190).
    pub can_resolve: bool,
    /// Argument editing prop; the agent's `capabilities.approvalArgsEdit` wins (F177).
    pub allow_argument_edit: bool,
    /// Delay between a local expiry and the refetch that shows a server's continuation (F186).
    pub action_expiry_refresh_ms: u64,
    /// Messages shown before (or without) a conversation (F11, F134): the starting list,
    /// replaced when a conversation loads and cleared by New Chat.
    pub initial_messages: Vec<Message>,
    /// Upload props (F6–F9); the agent's metadata may narrow them (C16).
    pub uploads: UploadLimits,
}

impl Default for SessionConfig {
    fn default() -> Self {
        SessionConfig {
            agent_id: None,
            conversation_id: None,
            streaming: true,
            show_history: true,
            composer_mode: ComposerMode::Block,
            enable_tool_approvals: true,
            enable_questions: true,
            can_resolve: true,
            allow_argument_edit: false,
            action_expiry_refresh_ms: 1_500,
            initial_messages: Vec::new(),
            uploads: UploadLimits::default(),
        }
    }
}

/// How long after a lost connection the session keeps looking for the reply (C17).
const RUNNING_TURN_POLL_MS: u64 = 2_000;
const RUNNING_TURN_MAX_MS: u64 = 30_000;
const HISTORY_PAGE: usize = 20;
/// E5 returns at most this many messages, oldest first (PROTOCOL §3): when it returns this
/// many, the conversation may be longer and its newest page is fetched with E8 (D26).
pub const E5_MESSAGE_CAP: usize = 100;
/// Messages per E8 page: the newest page on open, then one older page at a time (D26). 25, so
/// each page is drawn in one short main-thread task (issue 8).
pub const MESSAGE_PAGE: usize = 25;

/// A send in flight: what to give back if it is refused.
#[derive(Clone, Debug, PartialEq)]
struct OutgoingMessage {
    text: String,
    optimistic_id: String,
    /// The attachments it carries; they go back to the composer with the text on a refusal.
    files: Vec<PendingFile>,
}

/// What a request that may continue the conversation was for.
#[derive(Clone, Debug, PartialEq)]
enum Turn {
    /// A message send.
    Send(OutgoingMessage),
    /// An answer to an action; `draft` is the composer text it came from (answer mode).
    Resolve {
        action_id: String,
        resolution: Resolution,
        draft: Option<String>,
    },
}

#[derive(Debug)]
enum Pending {
    Agents,
    History {
        append: bool,
    },
    Create {
        outgoing: OutgoingMessage,
    },
    /// E4 without a message (F151).
    CreateEmpty,
    Load {
        conversation_id: String,
        purpose: LoadPurpose,
    },
    /// E8 newest page after an E5 that may have been cut at [`E5_MESSAGE_CAP`] (D26).
    LoadTail {
        conversation_id: String,
        purpose: LoadPurpose,
        loaded: Box<ConversationWithMessages>,
    },
    /// E8 next older page (D26).
    Older {
        conversation_id: String,
    },
    Send {
        outgoing: OutgoingMessage,
    },
    Resolve {
        turn: Turn,
    },
    Stream {
        turn: Turn,
        decoder: Box<SseDecoder>,
        started: bool,
        finished: bool,
    },
    Delete {
        conversation_id: String,
        /// The history row taken out optimistically, with its position, to put back on failure.
        removed: Option<(usize, ConversationListItem)>,
    },
    Rename {
        conversation_id: String,
        /// The optimistic title.
        title: String,
        /// The title before, to put back on failure.
        previous: Option<String>,
    },
}

/// Why a conversation is (re)loaded.
#[derive(Clone, Debug, PartialEq)]
enum LoadPurpose {
    /// The person opened it: show the loading state.
    Open,
    /// Quiet refresh after a refusal (`action_pending`, …).
    Refresh,
    /// Looking for a reply after the connection dropped (C17).
    RunningTurn { turn: Turn, first: bool },
}

#[derive(Debug, Clone)]
struct RunningTurn {
    turn: Turn,
    conversation_id: String,
    message_count: usize,
    deadline: Millis,
    next_poll: Millis,
}

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
    streaming: Option<StreamingTurn>,
    stream_request: Option<RequestId>,
    run: Run,
    error: Option<ChatError>,
    running_turn: Option<RunningTurn>,
    /// `client_tool` action ids already reported to the host.
    client_tools_reported: Vec<String>,
    /// Attachments waiting for the next send (F144).
    pending_files: Vec<PendingFile>,

    history: Vec<ConversationListItem>,
    history_has_more: bool,
    history_loading: bool,
    history_started: bool,

    /// Older messages exist on the server that are not loaded yet (D26).
    has_older: bool,
    /// An older page is on its way.
    loading_older: bool,

    revisions: Revisions,
}

impl Session {
    /// A new idle session. Nothing is requested until [`Command::Start`].
    pub fn new(config: SessionConfig) -> Self {
        let messages = config.initial_messages.clone();
        Session {
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
            client_tools_reported: Vec::new(),
            pending_files: Vec::new(),
            history: Vec::new(),
            history_has_more: false,
            history_loading: false,
            history_started: false,
            has_older: false,
            loading_older: false,
            revisions: Revisions::default(),
        }
    }

    // ----- getters -------------------------------------------------------------------------

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
        self.config.can_resolve
            && match card.action.kind {
                ActionKind::ToolApproval(_) => self.config.enable_tool_approvals,
                ActionKind::UserQuestion(_) => self.config.enable_questions,
                // The page's own tool: answered by the host, not by a person.
                ActionKind::ClientTool { .. } => true,
                ActionKind::Unknown(_) => false,
            }
    }
    /// Effective argument editing: the agent's capability wins over the prop (F177).
    pub fn argument_edit_allowed(&self) -> bool {
        self.agent()
            .and_then(|a| a.capabilities.approval_args_edit)
            .unwrap_or(self.config.allow_argument_edit)
    }
    /// §9.8 composer state (F193, C35).
    pub fn composer_state(&self) -> ComposerState {
        let can_answer = self.config.can_resolve && self.config.enable_questions;
        super::actions::composer_state(&self.cards, self.composer_mode(), can_answer)
    }
    /// The question the composer answers, in answer mode (F191).
    pub fn answerable_question(&self) -> Option<(&str, &super::wire::Question)> {
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
        self.history_has_more
    }
    /// A history page is loading (F98).
    pub fn history_loading(&self) -> bool {
        self.history_loading
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
        self.has_older
    }
    /// An older page of messages is on its way. Changes bump the `status` revision.
    pub fn is_loading_older(&self) -> bool {
        self.loading_older
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
        !matches!(self.composer_state(), ComposerState::Blocked)
    }

    // ----- the sans-IO contract -------------------------------------------------------------

    /// Feeds one input at time `now`.
    pub fn handle(&mut self, now: Millis, input: Input) {
        self.now = self.now.max(now);
        match input {
            Input::User(cmd) => self.handle_command(cmd),
            Input::Response { id, result } => self.handle_response(id, result),
            Input::StreamChunk { id, bytes } => self.handle_chunk(id, &bytes),
            Input::StreamClosed { id, error } => self.handle_stream_closed(id, error),
            Input::Timeout => self.handle_timeout(),
            Input::FileRead { id, result } => self.on_file_read(id, result),
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
            .filter_map(|c| c.action.expires_at);
        self.running_turn
            .as_ref()
            .map(|t| t.next_poll)
            .into_iter()
            .chain(self.expiry_refresh_at)
            .chain(deadlines)
            .min()
    }

    // ----- commands -------------------------------------------------------------------------

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
            Command::RemoveFile(id) => {
                let before = self.pending_files.len();
                self.pending_files.retain(|f| f.id != id);
                if self.pending_files.len() != before {
                    self.revisions.files += 1;
                }
            }
            Command::Stop => self.stop(),
            Command::DismissError => {
                if self.error.take().is_some() {
                    self.revisions.status += 1;
                }
            }
            Command::RefreshHistory => self.load_history(false),
            Command::Resolve {
                action_id,
                resolution,
            } => self.resolve(action_id, resolution, None),
            Command::LoadMoreHistory => {
                if self.history_has_more && !self.history_loading {
                    self.load_history(true);
                }
            }
            Command::LoadOlderMessages => self.load_older(),
        }
    }

    fn start(&mut self) {
        self.request(Method::Get, "/agents".into(), None, Pending::Agents);
        if let Some(id) = self.config.conversation_id.clone() {
            self.open_conversation(id, LoadPurpose::Open);
        }
    }

    fn select_agent(&mut self, id: String) {
        if self.selected_agent.as_deref() == Some(id.as_str()) {
            return;
        }
        self.selected_agent = Some(id.clone());
        self.revisions.status += 1;
        self.emit(SessionEvent::AgentChanged(id));
        if self.history_started && self.agents.len() <= 1 {
            self.load_history(false);
        }
    }

    fn clear_chat(&mut self) {
        self.abort_stream();
        self.drop_pending_loads();
        self.has_older = false;
        self.loading_older = false;
        self.running_turn = None;
        self.conversation = None;
        self.messages.clear();
        self.cards.clear();
        self.expiry_refresh_at = None;
        self.revisions.actions += 1;
        self.error = None;
        self.run = Run::Idle;
        self.revisions.messages += 1;
        self.revisions.status += 1;
    }

    fn open_conversation(&mut self, id: String, purpose: LoadPurpose) {
        if purpose == LoadPurpose::Open {
            self.clear_chat();
            self.run = Run::Loading;
            self.revisions.status += 1;
        }
        let path = format!("/conversations/{}", encode(&id));
        self.request(
            Method::Get,
            path,
            None,
            Pending::Load {
                conversation_id: id,
                purpose,
            },
        );
    }

    /// F152: the React hook's `retry`, which drops a trailing assistant message and resends
    /// the last user text as a new message.
    fn retry(&mut self) {
        if !self.can_send() || self.answerable_question().is_some() {
            return;
        }
        let Some(text) = self
            .messages
            .iter()
            .rev()
            .find(|m| m.role == Role::User)
            .map(|m| m.display_text().trim().to_owned())
            .filter(|t| !t.is_empty())
        else {
            return;
        };
        if self
            .messages
            .last()
            .is_some_and(|m| m.role == Role::Assistant)
        {
            self.messages.pop();
            self.revisions.messages += 1;
        }
        self.send(text);
    }

    fn send(&mut self, text: String) {
        let text = text.trim().to_owned();
        if text.is_empty() || !self.can_send() {
            return;
        }
        // Answer mode: the composer answers the single option-less question (F196, C35).
        if let Some((action_id, question)) = self.answerable_question() {
            let action_id = action_id.to_owned();
            let answers = [(question.question.clone(), AnswerValue::One(text.clone()))].into();
            let resolution = Resolution::UserQuestion {
                answers,
                cancelled: false,
            };
            return self.resolve(action_id, resolution, Some(text));
        }
        // Attachments still being read would be lost from the message: wait for them.
        if self.pending_files.iter().any(|f| !f.is_ready()) {
            return;
        }
        self.error = None;
        self.running_turn = None;
        let optimistic_id = self.local_id();
        let files = std::mem::take(&mut self.pending_files);
        if !files.is_empty() {
            self.revisions.files += 1;
        }
        let message = Message {
            id: optimistic_id.clone(),
            conversation_id: self
                .conversation
                .as_ref()
                .map(|c| c.id.clone())
                .unwrap_or_default(),
            role: Role::User,
            content: MessageContent::Text(text.clone()),
            // §8: the optimistic message carries the attachments' metadata, not their bytes.
            files: files
                .iter()
                .map(|f| FileAttachment {
                    id: f.id.clone(),
                    name: f.name.clone(),
                    mime_type: f.mime_type.clone(),
                    size: f.size,
                    url: None,
                    storage_key: None,
                })
                .collect(),
            created_at: Some(self.now),
            updated_at: Some(self.now),
            ..Message::default()
        };
        self.messages.push(message.clone());
        self.revisions.messages += 1;
        self.emit(SessionEvent::MessageSent(message));
        self.run = Run::Streaming;
        self.streaming = Some(StreamingTurn::default());
        self.revisions.streaming += 1;
        self.revisions.status += 1;
        let outgoing = OutgoingMessage {
            text,
            optimistic_id,
            files,
        };
        match self.conversation.as_ref().map(|c| c.id.clone()) {
            Some(conversation_id) => self.post_message(conversation_id, outgoing),
            None => match self.selected_agent.clone() {
                Some(agent_id) => {
                    let body = json!({ "agentId": agent_id }).to_string();
                    self.request(
                        Method::Post,
                        "/conversations".into(),
                        Some(body),
                        Pending::Create { outgoing },
                    );
                }
                None => self.refuse_send(outgoing, ChatError::NoAgent),
            },
        }
    }

    fn post_message(&mut self, conversation_id: String, outgoing: OutgoingMessage) {
        let path = format!("/conversations/{}/messages", encode(&conversation_id));
        let mut body = json!({ "message": outgoing.text, "stream": self.config.streaming });
        // §5: `files[].content` is raw base64, no `data:` prefix; omitted when there are none.
        if !outgoing.files.is_empty() {
            body["files"] = outgoing
                .files
                .iter()
                .map(|f| {
                    json!({
                        "name": f.name,
                        "content": f.content.as_deref().unwrap_or_default(),
                        "mimeType": f.mime_type,
                    })
                })
                .collect();
        }
        let body = body.to_string();
        if self.config.streaming {
            self.open_stream(path, body, Turn::Send(outgoing));
        } else {
            self.request(Method::Post, path, Some(body), Pending::Send { outgoing });
        }
    }

    fn open_stream(&mut self, path: String, body: String, turn: Turn) {
        let id = self.next_id();
        self.stream_request = Some(id);
        self.pending.push((
            id,
            Pending::Stream {
                turn,
                decoder: Box::default(),
                started: false,
                finished: false,
            },
        ));
        self.outputs.push_back(Output::OpenStream(HttpRequest {
            id,
            method: Method::Post,
            path,
            body: Some(body),
        }));
    }

    /// E14 (PROTOCOL §9.5): the card goes to Sending (its deadline no longer applies, C32),
    /// the answer is posted, and the continuation streams in as a new assistant message.
    fn resolve(&mut self, action_id: String, resolution: Resolution, draft: Option<String>) {
        let Some(card) = self.cards.iter().find(|c| c.action.id == action_id) else {
            return;
        };
        if card.state != CardState::Waiting || !self.can_resolve(card) || self.is_streaming() {
            return;
        }
        let Some(conversation_id) = self.conversation.as_ref().map(|c| c.id.clone()) else {
            return;
        };
        let version = card.action.version;
        self.set_card_state(&action_id, CardState::Sending);
        self.error = None;
        self.revisions.status += 1;
        let mut body =
            json!({ "resolution": resolution.to_json(), "stream": self.config.streaming });
        if let Some(v) = version {
            body["version"] = json!(v);
        }
        let path = format!(
            "/conversations/{}/actions/{}",
            encode(&conversation_id),
            encode(&action_id)
        );
        let turn = Turn::Resolve {
            action_id,
            resolution,
            draft,
        };
        if self.config.streaming {
            self.run = Run::Streaming;
            self.streaming = Some(StreamingTurn::default());
            self.revisions.streaming += 1;
            self.open_stream(path, body.to_string(), turn);
        } else {
            self.request(
                Method::Post,
                path,
                Some(body.to_string()),
                Pending::Resolve { turn },
            );
        }
    }

    fn set_card_state(&mut self, action_id: &str, state: CardState) {
        if let Some(card) = self.cards.iter_mut().find(|c| c.action.id == action_id) {
            if card.state != state {
                card.state = state;
                self.revisions.actions += 1;
            }
        }
    }

    /// The server took the answer: settle the card, remember the outcome on its message
    /// (`actionStates`, §9.6 source 1) and tell the host (F180).
    fn on_resolve_accepted(&mut self, action_id: &str, resolution: &Resolution) {
        let outcome = Outcome::from_settled(ActionStatus::Resolved, Some(resolution), None);
        self.set_card_state(action_id, CardState::Settled(outcome));
        let message_id = self
            .cards
            .iter()
            .find(|c| c.action.id == action_id)
            .and_then(|c| c.message_id.clone());
        if let Some(m) = message_id.and_then(|id| self.messages.iter_mut().find(|m| m.id == id)) {
            m.action_states.insert(
                action_id.to_owned(),
                ActionStateEntry {
                    status: ActionStatus::Resolved,
                    resolution: Some(resolution.clone()),
                    resolved_by: None,
                },
            );
            self.revisions.messages += 1;
        }
        self.emit(SessionEvent::ActionResolved {
            action_id: action_id.to_owned(),
            resolution: resolution.clone(),
        });
    }

    /// An answer was refused (§9.10): expired / cancelled / already answered settle the card and
    /// free the composer; anything else puts it back to waiting. The error shows either way and
    /// composer text comes back (F197).
    fn refuse_resolve(&mut self, action_id: &str, draft: Option<String>, err: ChatError) {
        let code = err.code().map(str::to_owned);
        let next = match code.as_deref() {
            Some("action_expired") => CardState::Settled(Outcome::Expired),
            Some("action_cancelled") => CardState::Settled(Outcome::Cancelled),
            Some("action_not_pending") => CardState::Settled(Outcome::answered()),
            _ => CardState::Waiting,
        };
        self.set_card_state(action_id, next);
        if self.streaming.take().is_some() {
            self.revisions.streaming += 1;
        }
        self.finish_turn();
        if let Some(text) = draft {
            self.emit(SessionEvent::DraftReturned(text));
        }
        self.set_error(err);
        match code.as_deref() {
            Some("action_expired") => self.schedule_expiry_refresh(),
            Some("conversation_busy" | "action_version_conflict") => self.refresh_conversation(),
            _ => {}
        }
    }

    fn refuse(&mut self, turn: Turn, err: ChatError) {
        match turn {
            Turn::Send(outgoing) => self.refuse_send(outgoing, err),
            Turn::Resolve {
                action_id, draft, ..
            } => self.refuse_resolve(&action_id, draft, err),
        }
    }

    fn refresh_conversation(&mut self) {
        if let Some(id) = self.conversation.as_ref().map(|c| c.id.clone()) {
            self.open_conversation(id, LoadPurpose::Refresh);
        }
    }

    fn schedule_expiry_refresh(&mut self) {
        self.expiry_refresh_at = Some(
            self.now
                .saturating_add(self.config.action_expiry_refresh_ms),
        );
    }

    /// Cancel mode: once a message is accepted, the waiting cards are cancelled (§9.8).
    fn cancel_waiting_cards(&mut self) {
        if self.composer_mode() != ComposerMode::Cancel {
            return;
        }
        for card in self.cards.iter_mut().filter(|c| c.is_open_for_person()) {
            card.state = CardState::Settled(Outcome::Cancelled);
            self.revisions.actions += 1;
        }
    }

    fn stop(&mut self) {
        let Some(turn) = self.streaming.take() else {
            return;
        };
        self.abort_stream();
        // PROTOCOL §7: keep the partial text as a local assistant message, no duration.
        if !turn.text.is_empty() || !turn.tool_calls.is_empty() {
            let id = self.local_id();
            let message = self.assistant_message(id, turn.text.to_string(), &turn, false);
            self.messages.push(message);
            self.revisions.messages += 1;
        }
        self.finish_turn();
    }

    /// Aborts every conversation load and older-page request: their answers belong to the
    /// conversation being left and must never land in the next one.
    fn drop_pending_loads(&mut self) {
        let stale: Vec<RequestId> = self
            .pending
            .iter()
            .filter(|(_, p)| {
                matches!(
                    p,
                    Pending::Load { .. } | Pending::LoadTail { .. } | Pending::Older { .. }
                )
            })
            .map(|(id, _)| *id)
            .collect();
        for id in stale {
            self.pending.retain(|(rid, _)| *rid != id);
            self.outputs.push_back(Output::Abort(id));
        }
    }

    /// E8 `order=desc`: the page just older than what is loaded. The offset counts the loaded
    /// messages the server knows (local optimistic ones excluded), so a page can overlap what
    /// is there (deduplicated by id) but never skip a message.
    fn load_older(&mut self) {
        if !self.has_older || self.loading_older || self.run == Run::Loading {
            return;
        }
        let Some(conversation_id) = self.conversation.as_ref().map(|c| c.id.clone()) else {
            return;
        };
        let offset = self.messages.iter().filter(|m| !is_local_id(&m.id)).count();
        let mut path = format!(
            "/conversations/{}/messages?limit={MESSAGE_PAGE}",
            encode(&conversation_id)
        );
        // PROTOCOL §3: a param is sent only when truthy.
        if offset > 0 {
            path.push_str(&format!("&offset={offset}"));
        }
        path.push_str("&order=desc");
        self.loading_older = true;
        self.revisions.status += 1;
        self.request(Method::Get, path, None, Pending::Older { conversation_id });
    }

    fn abort_stream(&mut self) {
        if let Some(id) = self.stream_request.take() {
            self.pending.retain(|(rid, _)| *rid != id);
            self.outputs.push_back(Output::Abort(id));
        }
        if self.streaming.take().is_some() {
            self.revisions.streaming += 1;
        }
    }

    fn load_history(&mut self, append: bool) {
        if !self.config.show_history {
            return;
        }
        self.history_started = true;
        let mut query = vec![format!("limit={HISTORY_PAGE}")];
        // F45: filter by agent unless the server offers several agents.
        if self.agents.len() <= 1 {
            if let Some(agent) = &self.selected_agent {
                query.push(format!("agentId={}", encode(agent)));
            }
        }
        if append && !self.history.is_empty() {
            query.push(format!("offset={}", self.history.len()));
        }
        self.history_loading = true;
        self.revisions.history += 1;
        let path = format!("/conversations?{}", query.join("&"));
        self.request(Method::Get, path, None, Pending::History { append });
    }

    // ----- responses ------------------------------------------------------------------------

    fn handle_response(&mut self, id: RequestId, result: Result<HttpResponse, TransportError>) {
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

    fn on_agents(&mut self, result: Result<HttpResponse, TransportError>) {
        self.agents_loaded = true;
        // F42: the endpoint is optional; failures are swallowed.
        if let Ok(resp) = result.as_ref() {
            if resp.ok() {
                if let Ok(list) = super::wire::json_text::<AgentList>(&resp.body) {
                    self.agents = list.agents;
                }
            }
        }
        if self.selected_agent.is_none() {
            if let Some(first) = self.agents.first() {
                let id = first.id.clone();
                self.selected_agent = Some(id.clone());
                self.emit(SessionEvent::AgentChanged(id));
            }
        }
        self.revisions.status += 1;
        self.load_history(false);
    }

    fn on_history(&mut self, append: bool, result: Result<HttpResponse, TransportError>) {
        self.history_loading = false;
        self.revisions.history += 1;
        let context = if append {
            ErrorContext::LoadMore
        } else {
            ErrorContext::LoadConversations
        };
        match parse_json::<ConversationList>(result, context) {
            Ok(list) => {
                if append {
                    for item in list.conversations {
                        if !self.history.iter().any(|h| h.id == item.id) {
                            self.history.push(item);
                        }
                    }
                } else {
                    self.history = list.conversations;
                }
                self.overlay_pending_history_edits();
                self.history_has_more = list.has_more;
            }
            Err(err) => self.set_error(err),
        }
    }

    fn create_conversation(&mut self, title: Option<String>) {
        let Some(agent_id) = self.selected_agent.clone() else {
            self.set_error(ChatError::NoAgent);
            return;
        };
        self.clear_chat();
        self.emit(SessionEvent::ConversationChanged(None));
        let mut body = json!({ "agentId": agent_id });
        if let Some(title) = title.map(|t| t.trim().to_owned()).filter(|t| !t.is_empty()) {
            body["title"] = Value::String(title);
        }
        self.request(
            Method::Post,
            "/conversations".into(),
            Some(body.to_string()),
            Pending::CreateEmpty,
        );
    }

    fn on_created_empty(&mut self, result: Result<HttpResponse, TransportError>) {
        match parse_json::<Value>(result, ErrorContext::Send)
            .and_then(|v| conversation_from(v, ErrorContext::Send))
        {
            // Something else was opened or sent meanwhile: the new one only joins the history.
            Ok(conversation) if self.conversation.is_some() || !self.messages.is_empty() => {
                self.emit(SessionEvent::ConversationCreated(conversation));
                self.load_history(false);
            }
            Ok(conversation) => {
                let id = conversation.id.clone();
                self.conversation = Some(conversation.clone());
                self.revisions.status += 1;
                self.emit(SessionEvent::ConversationCreated(conversation));
                self.emit(SessionEvent::ConversationChanged(Some(id)));
                self.load_history(false);
            }
            Err(err) => self.set_error(err),
        }
    }

    fn on_created(
        &mut self,
        outgoing: OutgoingMessage,
        result: Result<HttpResponse, TransportError>,
    ) {
        match parse_json::<Value>(result, ErrorContext::Send)
            .and_then(|v| conversation_from(v, ErrorContext::Send))
        {
            Ok(conversation) => {
                let conversation_id = conversation.id.clone();
                if let Some(m) = self
                    .messages
                    .iter_mut()
                    .find(|m| m.id == outgoing.optimistic_id)
                {
                    m.conversation_id = conversation_id.clone();
                }
                self.conversation = Some(conversation.clone());
                self.revisions.status += 1;
                self.emit(SessionEvent::ConversationCreated(conversation));
                self.emit(SessionEvent::ConversationChanged(Some(
                    conversation_id.clone(),
                )));
                self.load_history(false);
                self.post_message(conversation_id, outgoing);
            }
            Err(err) => self.refuse_send(outgoing, err),
        }
    }

    fn on_sent(&mut self, outgoing: OutgoingMessage, result: Result<HttpResponse, TransportError>) {
        if let Err(TransportError::Network(_)) = &result {
            // C17: the request may have reached the server; look before reporting a failure.
            self.begin_running_turn(Turn::Send(outgoing));
            return;
        }
        let value = match parse_json::<Value>(result, ErrorContext::Send) {
            Ok(v) => v,
            Err(err) => return self.refuse_send(outgoing, err),
        };
        // Non-streaming reply: `{ message, response, conversationTitle?, status?, pendingActions? }`.
        let parsed = <super::wire::SendMessageResponse as serde::Deserialize>::deserialize(&value);
        let Ok(reply) = parsed else {
            let err = ChatError::BadResponse {
                context: ErrorContext::Send,
                detail: "unexpected send response".into(),
            };
            return self.refuse_send(outgoing, err);
        };
        if let Some(pos) = self
            .messages
            .iter()
            .position(|m| m.id == outgoing.optimistic_id)
        {
            self.messages[pos] = reply.message;
        }
        if let Some(title) = reply.conversation_title {
            self.set_title(title);
        }
        let received = reply.response;
        self.messages.push(received.clone());
        self.revisions.messages += 1;
        self.cancel_waiting_cards();
        if let Some(actions) = reply.pending_actions {
            self.merge_open_actions(actions, Some(received.id.clone()));
        }
        self.streaming = None;
        self.revisions.streaming += 1;
        self.finish_turn();
        self.emit(SessionEvent::MessageReceived(received));
        self.load_history(false);
    }

    /// A non-streamed answer to E14: `{ action, status, message?, pendingActions? }` (§9.5),
    /// or an error envelope / network failure.
    fn on_resolve_response(&mut self, turn: Turn, result: Result<HttpResponse, TransportError>) {
        let Turn::Resolve {
            action_id,
            resolution,
            draft,
        } = turn.clone()
        else {
            return;
        };
        if let Err(TransportError::Network(_)) = &result {
            return self.begin_running_turn(turn);
        }
        let reply = match parse_json::<ResolveActionResponse>(result, ErrorContext::Send) {
            Ok(reply) => reply,
            Err(err) => return self.refuse_resolve(&action_id, draft, err),
        };
        self.on_resolve_accepted(&action_id, &resolution);
        if let Some(settled) = reply.action.filter(|a| a.id == action_id) {
            // The server's own record (e.g. a timeout) wins over what we sent.
            let outcome = Outcome::from_settled(
                settled.status,
                settled.resolution.as_ref().or(Some(&resolution)),
                settled.resolved_by.as_deref(),
            );
            self.set_card_state(&action_id, CardState::Settled(outcome));
        }
        if self.streaming.take().is_some() {
            self.revisions.streaming += 1;
        }
        let running = reply.status == Some(TurnStatus::Running);
        if let Some(message) = reply.message {
            self.messages.push(message.clone());
            self.revisions.messages += 1;
            if let Some(actions) = reply.pending_actions {
                self.merge_open_actions(actions, Some(message.id.clone()));
            }
            self.emit(SessionEvent::MessageReceived(message));
        } else if let Some(actions) = reply.pending_actions {
            self.merge_open_actions(actions, None);
        }
        self.finish_turn();
        if running {
            // The continuation still runs on the server: poll for it (§9.9).
            self.begin_running_turn(Turn::Resolve {
                action_id,
                resolution,
                draft: None,
            });
        }
    }

    fn on_loaded(
        &mut self,
        conversation_id: String,
        purpose: LoadPurpose,
        result: Result<HttpResponse, TransportError>,
    ) {
        if !self.load_still_current(&conversation_id, &purpose) {
            return;
        }
        let loaded = parse_json::<ConversationWithMessages>(result, ErrorContext::LoadConversation);
        match loaded {
            // E5 may have been cut at its cap: fetch the newest page too (D26).
            Ok(loaded) if loaded.messages.len() >= E5_MESSAGE_CAP => {
                let path = format!(
                    "/conversations/{}/messages?limit={MESSAGE_PAGE}&order=desc",
                    encode(&conversation_id)
                );
                self.request(
                    Method::Get,
                    path,
                    None,
                    Pending::LoadTail {
                        conversation_id,
                        purpose,
                        loaded: Box::new(loaded),
                    },
                );
            }
            loaded => self.finish_load(conversation_id, purpose, loaded.map(|l| (l, true))),
        }
    }

    fn load_still_current(&self, conversation_id: &str, purpose: &LoadPurpose) -> bool {
        match purpose {
            // A newer open aborts this one (`drop_pending_loads`).
            LoadPurpose::Open => true,
            _ => self
                .conversation
                .as_ref()
                .is_some_and(|c| c.id == conversation_id),
        }
    }

    /// The E8 newest page after a full E5 (D26): joined with E5's oldest messages when the two
    /// meet, else shown alone with older pages still to load. A server without E8 (404 or
    /// anything unreadable) shows what E5 gave, with no paging.
    fn on_tail(
        &mut self,
        conversation_id: String,
        purpose: LoadPurpose,
        mut loaded: ConversationWithMessages,
        result: Result<HttpResponse, TransportError>,
    ) {
        if !self.load_still_current(&conversation_id, &purpose) {
            return;
        }
        let reaches_start = match parse_json::<MessagesPage>(result, ErrorContext::LoadConversation)
        {
            Ok(page) => {
                let (messages, reaches_start) =
                    join_window(std::mem::take(&mut loaded.messages), page);
                loaded.messages = messages;
                reaches_start
            }
            Err(_) => true,
        };
        self.finish_load(conversation_id, purpose, Ok((loaded, reaches_start)));
    }

    /// A conversation load is complete: `loaded.messages` is the newest part of the
    /// conversation, reaching its first message when the flag says so.
    fn finish_load(
        &mut self,
        conversation_id: String,
        purpose: LoadPurpose,
        loaded: Result<(ConversationWithMessages, bool), ChatError>,
    ) {
        match (purpose, loaded) {
            (LoadPurpose::Open, Ok((loaded, reaches_start))) => {
                self.apply_loaded(loaded, reaches_start);
                self.emit(SessionEvent::ConversationChanged(Some(conversation_id)));
            }
            (LoadPurpose::Open, Err(err)) => {
                self.run = Run::Idle;
                self.revisions.status += 1;
                self.set_error(err);
                self.emit(SessionEvent::ConversationChanged(None));
            }
            (LoadPurpose::Refresh, Ok((loaded, reaches_start))) => {
                if !self.is_streaming() {
                    self.apply_loaded(loaded, reaches_start);
                }
            }
            (LoadPurpose::Refresh, Err(_)) => {}
            (LoadPurpose::RunningTurn { turn, first }, loaded) => {
                self.on_running_turn_look(turn, first, loaded)
            }
        }
    }

    /// Older messages already on screen stay when a refetch of the same conversation brings a
    /// newest window that meets them (D26). Returns the messages, whether older ones remain on
    /// the server, and whether the window met what was loaded (else it replaced it).
    fn merge_window(
        &self,
        same_conversation: bool,
        window: Vec<Message>,
        reaches_start: bool,
    ) -> (Vec<Message>, bool, bool) {
        if !same_conversation || reaches_start {
            return (window, !reaches_start, reaches_start);
        }
        let found = window
            .first()
            .and_then(|first| self.messages.iter().position(|m| m.id == first.id));
        match found {
            Some(i) => {
                let mut messages = self.messages[..i].to_vec();
                messages.extend(window);
                (messages, self.has_older, true)
            }
            None => (window, true, false),
        }
    }

    /// §9.6: messages and cards from a loaded conversation (also every refetch).
    fn apply_loaded(&mut self, loaded: ConversationWithMessages, reaches_start: bool) {
        let same_conversation = self
            .conversation
            .as_ref()
            .is_some_and(|c| c.id == loaded.conversation.id);
        let (mut messages, has_older, connected) =
            self.merge_window(same_conversation, loaded.messages, reaches_start);
        if !connected || !same_conversation {
            // An older page on its way would not join what is now shown.
            let stale: Vec<RequestId> = self
                .pending
                .iter()
                .filter(|(_, p)| matches!(p, Pending::Older { .. }))
                .map(|(id, _)| *id)
                .collect();
            for id in stale {
                self.pending.retain(|(rid, _)| *rid != id);
                self.outputs.push_back(Output::Abort(id));
            }
            self.loading_older = false;
        }
        self.has_older = has_older;
        let known: &[ActionCard] = if same_conversation { &self.cards } else { &[] };
        self.cards = restore_cards(&messages, loaded.pending_actions, known);
        self.report_client_tools();
        // Keep what this page recorded (`actionStates`, source 1) across refetches.
        if same_conversation {
            let recorded: std::collections::HashMap<&str, &Message> = self
                .messages
                .iter()
                .filter(|o| !o.action_states.is_empty())
                .map(|o| (o.id.as_str(), o))
                .collect();
            for m in &mut messages {
                if let Some(old) = recorded.get(m.id.as_str()) {
                    for (id, entry) in &old.action_states {
                        m.action_states
                            .entry(id.clone())
                            .or_insert_with(|| entry.clone());
                    }
                }
            }
        }
        self.conversation = Some(loaded.conversation);
        self.messages = messages;
        self.run = if self.awaiting_action() {
            Run::AwaitingAction
        } else {
            Run::Idle
        };
        self.revisions.messages += 1;
        self.revisions.status += 1;
        self.revisions.actions += 1;
    }

    /// An older page (D26): prepended, deduplicated by id; the settled cards its messages
    /// describe are restored (§9.6), never announced; open cards keep their state.
    fn on_older(&mut self, conversation_id: String, result: Result<HttpResponse, TransportError>) {
        if self.conversation.as_ref().map(|c| c.id.as_str()) != Some(conversation_id.as_str()) {
            return;
        }
        self.loading_older = false;
        self.revisions.status += 1;
        let page = match parse_json::<MessagesPage>(result, ErrorContext::LoadOlderMessages) {
            Ok(page) => page,
            // `has_older` stays: the person can try again.
            Err(err) => return self.set_error(err),
        };
        let known: std::collections::HashSet<&str> =
            self.messages.iter().map(|m| m.id.as_str()).collect();
        let mut older: Vec<Message> = page
            .messages
            .into_iter()
            .rev()
            .filter(|m| !known.contains(m.id.as_str()))
            .collect();
        // A page with nothing new would be asked for again and again: stop there.
        self.has_older = page.has_more && !older.is_empty();
        if older.is_empty() {
            return;
        }
        older.append(&mut self.messages);
        self.messages = older;
        self.revisions.messages += 1;
        let open: Vec<PendingAction> = self
            .cards
            .iter()
            .filter(|c| c.state.is_open())
            .map(|c| c.action.clone())
            .collect();
        self.cards = restore_cards(&self.messages, Some(open), &self.cards);
        self.revisions.actions += 1;
    }

    fn on_deleted(
        &mut self,
        conversation_id: String,
        removed: Option<(usize, ConversationListItem)>,
        result: Result<HttpResponse, TransportError>,
    ) {
        match result {
            // X4: 204 with no body (the reference server) or 200 `{ success: true }` (the docs).
            Ok(resp) if resp.ok() => {
                self.history.retain(|h| h.id != conversation_id);
                self.revisions.history += 1;
                if self
                    .conversation
                    .as_ref()
                    .is_some_and(|c| c.id == conversation_id)
                {
                    self.clear_chat();
                    self.emit(SessionEvent::ConversationChanged(None));
                }
            }
            other => {
                if let Some((index, item)) = removed {
                    if !self.history.iter().any(|h| h.id == item.id) {
                        let index = index.min(self.history.len());
                        self.history.insert(index, item);
                        self.revisions.history += 1;
                    }
                }
                if let Err(err) = parse_json::<Value>(other, ErrorContext::Delete) {
                    self.set_error(err);
                }
            }
        }
    }

    // ----- history: delete and rename -------------------------------------------------------

    fn delete_conversation(&mut self, id: String) {
        let already = self.pending.iter().any(
            |(_, p)| matches!(p, Pending::Delete { conversation_id, .. } if *conversation_id == id),
        );
        if already {
            return;
        }
        let removed = self.history.iter().position(|h| h.id == id).map(|index| {
            self.revisions.history += 1;
            (index, self.history.remove(index))
        });
        let path = format!("/conversations/{}", encode(&id));
        self.request(
            Method::Delete,
            path,
            None,
            Pending::Delete {
                conversation_id: id,
                removed,
            },
        );
    }

    fn rename_conversation(&mut self, id: String, title: String) {
        let title = title.trim().to_string();
        if title.is_empty() {
            return;
        }
        let previous = match self.history.iter().find(|h| h.id == id) {
            Some(item) => item.title.clone(),
            None => match self.conversation.as_ref().filter(|c| c.id == id) {
                Some(c) => c.title.clone(),
                None => None,
            },
        };
        if previous.as_deref() == Some(title.as_str()) {
            return;
        }
        self.apply_title(&id, Some(title.clone()), None);
        let body = serde_json::json!({ "title": title }).to_string();
        let path = format!("/conversations/{}", encode(&id));
        self.request(
            Method::Patch,
            path,
            Some(body),
            Pending::Rename {
                conversation_id: id,
                title,
                previous,
            },
        );
    }

    fn on_renamed(
        &mut self,
        conversation_id: String,
        title: String,
        previous: Option<String>,
        result: Result<HttpResponse, TransportError>,
    ) {
        // X5: the reference server answers with the bare Conversation, the docs wrap it.
        match parse_json::<Value>(result, ErrorContext::Rename) {
            Ok(value) => {
                // A 2xx whose body is not a conversation still means the title was stored.
                let stored = conversation_from(value, ErrorContext::Rename)
                    .ok()
                    .and_then(|c| c.title);
                if let Some(stored) = stored.filter(|t| *t != title) {
                    self.apply_title(&conversation_id, Some(stored), Some(&title));
                }
            }
            Err(err) => {
                self.apply_title(&conversation_id, previous, Some(&title));
                self.set_error(err);
            }
        }
    }

    /// A page that was listed before a delete or rename finished must not bring the deleted row
    /// or the old title back.
    fn overlay_pending_history_edits(&mut self) {
        let mut renames = Vec::new();
        for (_, p) in &self.pending {
            match p {
                Pending::Delete {
                    conversation_id, ..
                } => self.history.retain(|h| h.id != *conversation_id),
                Pending::Rename {
                    conversation_id,
                    title,
                    ..
                } => renames.push((conversation_id.clone(), title.clone())),
                _ => {}
            }
        }
        for (id, title) in renames {
            if let Some(item) = self.history.iter_mut().find(|h| h.id == id) {
                item.conversation.title = Some(title);
            }
        }
    }

    /// Sets the title of a history row and, when it is open, of the conversation. With
    /// `only_if`, a place whose title has moved on (a later rename) is left alone.
    fn apply_title(&mut self, id: &str, title: Option<String>, only_if: Option<&str>) {
        let applies = |current: &Option<String>| only_if.is_none() || current.as_deref() == only_if;
        if let Some(item) = self.history.iter_mut().find(|h| h.id == id) {
            if applies(&item.conversation.title) {
                item.conversation.title = title.clone();
                self.revisions.history += 1;
            }
        }
        if let Some(c) = self.conversation.as_mut().filter(|c| c.id == id) {
            if applies(&c.title) {
                c.title = title;
                self.revisions.status += 1;
            }
        }
    }

    // ----- streaming ------------------------------------------------------------------------

    fn handle_chunk(&mut self, id: RequestId, bytes: &[u8]) {
        let mut events = Vec::new();
        {
            let Some((_, Pending::Stream { decoder, .. })) =
                self.pending.iter_mut().find(|(rid, _)| *rid == id)
            else {
                return;
            };
            decoder.push(bytes);
            while let Some(ev) = decoder.next_event() {
                events.push(ev);
            }
        }
        for ev in events {
            self.apply_stream_item(id, ev);
        }
    }

    fn handle_stream_closed(&mut self, id: RequestId, error: Option<TransportError>) {
        let Some(pos) = self.pending.iter().position(|(rid, _)| *rid == id) else {
            return;
        };
        let tail = match &mut self.pending[pos] {
            (_, Pending::Stream { decoder, .. }) => decoder.drain_to_end(),
            _ => Vec::new(),
        };
        for ev in tail {
            self.apply_stream_item(id, ev);
        }
        let Some(pos) = self.pending.iter().position(|(rid, _)| *rid == id) else {
            return;
        };
        let (_, pending) = self.pending.remove(pos);
        if self.stream_request == Some(id) {
            self.stream_request = None;
        }
        let Pending::Stream { turn, finished, .. } = pending else {
            return;
        };
        if finished || error == Some(TransportError::Aborted) {
            return;
        }
        // C17 / §9.9: the server took the request but the stream was cut. Look, don't fail.
        self.begin_running_turn(turn);
    }

    fn apply_stream_item(
        &mut self,
        id: RequestId,
        item: Result<StreamEvent, super::error::DecodeError>,
    ) {
        match item {
            Ok(event) => self.apply_stream_event(id, event),
            Err(err) => self.set_error(ChatError::BadFrame {
                detail: err.to_string(),
            }),
        }
    }

    fn stream_state(&mut self, id: RequestId) -> Option<(&mut Turn, &mut bool, &mut bool)> {
        self.pending
            .iter_mut()
            .find(|(rid, _)| *rid == id)
            .and_then(|(_, p)| match p {
                Pending::Stream {
                    turn,
                    started,
                    finished,
                    ..
                } => Some((turn, started, finished)),
                _ => None,
            })
    }

    /// First sign the server took the request: a send in cancel mode cancels the waiting cards.
    fn mark_started(&mut self, id: RequestId) {
        let first = match self.stream_state(id) {
            Some((turn, started, _)) if !*started => {
                *started = true;
                matches!(turn, Turn::Send(_))
            }
            _ => false,
        };
        if first {
            self.cancel_waiting_cards();
        }
    }

    fn apply_stream_event(&mut self, id: RequestId, event: StreamEvent) {
        if self
            .stream_state(id)
            .is_some_and(|(_, _, finished)| *finished)
        {
            return; // nothing counts after done/error
        }
        let now = self.now;
        match event {
            StreamEvent::Start {
                conversation_id, ..
            } => {
                self.mark_started(id);
                if let (Some(cid), Some(conv)) = (conversation_id, self.conversation.as_ref()) {
                    if conv.id != cid {
                        // A server that moved the message elsewhere; trust it.
                        if let Some(c) = self.conversation.as_mut() {
                            c.id = cid;
                        }
                    }
                }
            }
            StreamEvent::Text { text, .. } | StreamEvent::Thinking { thinking: text } => {
                let turn = self.streaming.get_or_insert_with(StreamingTurn::default);
                turn.text.push_str(&text);
                turn.progress = None;
                let full = turn.text.clone();
                self.revisions.streaming += 1;
                self.emit(SessionEvent::StreamText { chunk: text, full });
            }
            StreamEvent::ToolCall {
                tool_name,
                tool_call_id,
                args,
                reasoning,
                display_name,
            } => {
                let turn = self.streaming.get_or_insert_with(StreamingTurn::default);
                turn.first_tool_call_at.get_or_insert(now);
                if let Some(existing) = turn.tool_calls.iter_mut().find(|c| c.id == tool_call_id) {
                    existing.args = args.clone();
                } else {
                    turn.tool_calls.push(ActiveToolCall {
                        id: tool_call_id,
                        name: tool_name.clone(),
                        args: args.clone(),
                        result: None,
                        reasoning,
                        display_name,
                    });
                }
                self.revisions.streaming += 1;
                self.emit(SessionEvent::ToolCall {
                    name: tool_name,
                    args,
                });
            }
            StreamEvent::ToolResult {
                tool_name,
                tool_call_id,
                result,
            } => {
                let turn = self.streaming.get_or_insert_with(StreamingTurn::default);
                if let Some(call) = turn.tool_calls.iter_mut().find(|c| c.id == tool_call_id) {
                    call.result = Some(result.clone());
                }
                self.revisions.streaming += 1;
                self.emit(SessionEvent::ToolResult {
                    name: tool_name,
                    result,
                });
            }
            StreamEvent::Progress { message, stage, .. } => {
                let turn = self.streaming.get_or_insert_with(StreamingTurn::default);
                turn.progress = message.or(stage);
                self.revisions.streaming += 1;
            }
            StreamEvent::Error { error, code } => {
                let started = self.stream_state(id).map(|(_, s, _)| *s).unwrap_or(true);
                let turn = self.stream_state(id).map(|(t, _, finished)| {
                    *finished = true;
                    t.clone()
                });
                let err = ChatError::Stream {
                    code: code.map(|c| c.to_ascii_lowercase()),
                    message: error,
                };
                self.streaming = None;
                self.revisions.streaming += 1;
                match turn {
                    // Refused before the server took anything: the draft goes back (C29) and an
                    // answer's card follows the refusal rules (§9.10).
                    Some(turn) if !started => self.refuse(turn, err),
                    _ => {
                        self.finish_turn();
                        self.set_error(err);
                    }
                }
            }
            StreamEvent::Done {
                conversation_id: _,
                message_id,
                content,
                title,
                status,
                pending_actions,
                citations,
                ..
            } => {
                if let Some((_, _, finished)) = self.stream_state(id) {
                    *finished = true;
                }
                let turn = self.streaming.take().unwrap_or_default();
                let text = if content.is_empty() {
                    turn.text.to_string()
                } else {
                    content
                };
                self.mark_started(id);
                let message_id = message_id.unwrap_or_else(|| self.local_id());
                let mut message = self.assistant_message(message_id, text, &turn, true);
                // F77: sources the server sent with the reply.
                message.citations = citations;
                self.messages.push(message.clone());
                self.revisions.messages += 1;
                self.revisions.streaming += 1;
                if let Some(title) = title {
                    self.set_title(title);
                }
                // Cards that arrived earlier in this stream belong under this message (C5).
                for card in self
                    .cards
                    .iter_mut()
                    .filter(|c| c.state.is_open() && c.message_id.is_none())
                {
                    card.message_id = Some(message.id.clone());
                }
                if status == Some(TurnStatus::RequiresAction) || pending_actions.is_some() {
                    self.merge_open_actions(
                        pending_actions.unwrap_or_default(),
                        Some(message.id.clone()),
                    );
                }
                self.finish_turn();
                self.emit(SessionEvent::MessageReceived(message));
                self.load_history(false);
            }
            StreamEvent::ActionRequired {
                action, message_id, ..
            } => {
                self.merge_open_actions(vec![action], message_id);
            }
            StreamEvent::ActionResolved {
                action_id,
                status,
                resolution,
                resolved_by,
                ..
            } => {
                let ours = match self.stream_state(id) {
                    Some((
                        Turn::Resolve {
                            action_id: mine,
                            resolution: sent,
                            ..
                        },
                        started,
                        _,
                    )) if *mine == action_id => {
                        *started = true;
                        Some(sent.clone())
                    }
                    _ => None,
                };
                if let Some(sent) = &ours {
                    self.on_resolve_accepted(&action_id, sent);
                }
                let recorded = resolution.as_ref().or(ours.as_ref());
                let outcome = Outcome::from_settled(status, recorded, resolved_by.as_deref());
                let keep_local = self.cards.iter().any(|c| {
                    c.action.id == action_id
                        && matches!(&c.state, CardState::Settled(o) if o.is_sticky())
                });
                if !keep_local {
                    self.set_card_state(&action_id, CardState::Settled(outcome));
                }
                self.revisions.status += 1;
            }
            StreamEvent::Unknown { .. } => {}
        }
    }

    fn assistant_message(
        &self,
        id: String,
        text: String,
        turn: &StreamingTurn,
        done: bool,
    ) -> Message {
        let mut metadata = Map::new();
        if !turn.tool_calls.is_empty() {
            let details: Vec<Value> = turn
                .tool_calls
                .iter()
                .map(|c| {
                    let mut d =
                        json!({ "id": c.id, "name": c.name, "args": c.args, "result": c.result });
                    // F116: the labels the stream gave are kept for the finished message.
                    if let Some(obj) = d.as_object_mut() {
                        if let Some(r) = &c.reasoning {
                            obj.insert("reasoning".into(), json!(r));
                        }
                        if let Some(n) = &c.display_name {
                            obj.insert("displayName".into(), json!(n));
                        }
                    }
                    d
                })
                .collect();
            metadata.insert("toolCallDetails".into(), Value::Array(details));
            if let (true, Some(first)) = (done, turn.first_tool_call_at) {
                let secs = (self.now.0.saturating_sub(first.0) + 500) / 1000;
                metadata.insert("toolCallDurationSeconds".into(), json!(secs));
            }
        }
        Message {
            id,
            conversation_id: self
                .conversation
                .as_ref()
                .map(|c| c.id.clone())
                .unwrap_or_default(),
            role: Role::Assistant,
            content: MessageContent::Text(text),
            metadata,
            created_at: Some(self.now),
            updated_at: Some(self.now),
            ..Message::default()
        }
    }

    /// Reports every waiting `client_tool` action not reported yet (C10).
    fn report_client_tools(&mut self) {
        let fresh: Vec<PendingAction> = self
            .cards
            .iter()
            .filter(|c| {
                matches!(c.action.kind, ActionKind::ClientTool { .. })
                    && c.state == CardState::Waiting
                    && !self.client_tools_reported.contains(&c.action.id)
            })
            .map(|c| c.action.clone())
            .collect();
        for action in fresh {
            self.client_tools_reported.push(action.id.clone());
            self.emit(SessionEvent::ClientToolRequested(action));
        }
    }

    /// New open actions from a stream or a reply: cards that are announced (unlike restored
    /// ones) and reported to the host, except `client_tool` (F181, C10).
    fn merge_open_actions(&mut self, actions: Vec<PendingAction>, message_id: Option<String>) {
        for action in actions {
            if matches!(action.kind, ActionKind::Unknown(_)) || !action.is_open() {
                continue;
            }
            let placed = action.message_id.clone().or_else(|| message_id.clone());
            match self.cards.iter_mut().find(|c| c.action.id == action.id) {
                Some(card) if card.state == CardState::Waiting => {
                    card.message_id = card.message_id.take().or(placed);
                    card.action = action;
                }
                Some(_) => {}
                None => {
                    let person = action.kind.is_person_facing();
                    self.cards.push(ActionCard {
                        action: action.clone(),
                        state: CardState::Waiting,
                        message_id: placed,
                        restored: false,
                    });
                    if person {
                        self.emit(SessionEvent::ActionRequired(action));
                    }
                    self.report_client_tools();
                }
            }
            self.revisions.actions += 1;
        }
        self.revisions.status += 1;
    }

    fn finish_turn(&mut self) {
        self.run = if self.awaiting_action() {
            Run::AwaitingAction
        } else {
            Run::Idle
        };
        self.revisions.status += 1;
    }

    fn set_title(&mut self, title: String) {
        if let Some(c) = self.conversation.as_mut() {
            c.title = Some(title.clone());
            self.revisions.status += 1;
            let id = c.id.clone();
            if let Some(item) = self.history.iter_mut().find(|h| h.id == id) {
                item.conversation.title = Some(title);
                self.revisions.history += 1;
            }
        }
    }

    // ----- refusals and running turns ------------------------------------------------------

    /// The send was refused (or never reached the server): remove the optimistic message, give
    /// the text back to the composer and show why (C29). Busy / waiting refusals also refetch
    /// the conversation so the card or the latest answer shows (§9.9).
    fn refuse_send(&mut self, outgoing: OutgoingMessage, err: ChatError) {
        self.messages.retain(|m| m.id != outgoing.optimistic_id);
        self.revisions.messages += 1;
        // The attachments come back too, before any added since (nothing is lost, F197).
        if !outgoing.files.is_empty() {
            let added = std::mem::take(&mut self.pending_files);
            self.pending_files = outgoing.files;
            self.pending_files.extend(added);
            self.revisions.files += 1;
        }
        if self.streaming.take().is_some() {
            self.revisions.streaming += 1;
        }
        self.finish_turn();
        let refetch = matches!(
            err.code(),
            Some("action_pending" | "pending_action" | "conversation_busy")
        );
        self.emit(SessionEvent::DraftReturned(outgoing.text));
        self.set_error(err);
        if refetch {
            if let Some(id) = self.conversation.as_ref().map(|c| c.id.clone()) {
                self.open_conversation(id, LoadPurpose::Refresh);
            }
        }
    }

    /// §9.9 (C17): the request may have been taken although its answer was lost. Look at the
    /// conversation now, then every 2 s for at most 30 s, instead of reporting a failure.
    fn begin_running_turn(&mut self, turn: Turn) {
        let Some(conversation_id) = self.conversation.as_ref().map(|c| c.id.clone()) else {
            let err = ChatError::Network {
                context: ErrorContext::Send,
                detail: "no conversation".into(),
            };
            return self.refuse(turn, err);
        };
        self.running_turn = Some(RunningTurn {
            turn: turn.clone(),
            conversation_id: conversation_id.clone(),
            message_count: self.messages.len(),
            deadline: self.now.saturating_add(RUNNING_TURN_MAX_MS),
            next_poll: self.now.saturating_add(RUNNING_TURN_POLL_MS),
        });
        self.look_for_running_turn(conversation_id, turn, true);
    }

    fn look_for_running_turn(&mut self, conversation_id: String, turn: Turn, first: bool) {
        let path = format!("/conversations/{}", encode(&conversation_id));
        let purpose = LoadPurpose::RunningTurn { turn, first };
        self.request(
            Method::Get,
            path,
            None,
            Pending::Load {
                conversation_id,
                purpose,
            },
        );
    }

    fn on_running_turn_look(
        &mut self,
        turn: Turn,
        first: bool,
        loaded: Result<(ConversationWithMessages, bool), ChatError>,
    ) {
        let Some(running) = self.running_turn.clone() else {
            return;
        };
        let (loaded, reaches_start) = match loaded {
            // Compare like with like: the window joined to the older messages on screen.
            Ok((mut loaded, reaches_start)) => {
                let same = self
                    .conversation
                    .as_ref()
                    .is_some_and(|c| c.id == loaded.conversation.id);
                let window = std::mem::take(&mut loaded.messages);
                loaded.messages = self.merge_window(same, window, reaches_start).0;
                (loaded, reaches_start)
            }
            Err(err) => {
                if first {
                    self.running_turn = None;
                    self.refuse(turn, err);
                }
                return;
            }
        };
        let open_ids: Vec<&str> = match &loaded.pending_actions {
            Some(list) => list.iter().map(|a| a.id.as_str()).collect(),
            None => Vec::new(),
        };
        // Was the request taken at all?
        let taken = match &turn {
            Turn::Send(outgoing) => loaded
                .messages
                .iter()
                .any(|m| m.role == Role::User && m.content.display_text() == outgoing.text),
            Turn::Resolve { action_id, .. } => !open_ids.contains(&action_id.as_str()),
        };
        if first && !taken {
            self.running_turn = None;
            let err = ChatError::Network {
                context: ErrorContext::Send,
                detail: "request not received".into(),
            };
            return self.refuse(turn, err);
        }
        if first {
            if let Turn::Resolve {
                action_id,
                resolution,
                ..
            } = &turn
            {
                self.on_resolve_accepted(action_id, resolution);
            }
        }
        let last_is_reply = loaded
            .messages
            .last()
            .is_some_and(|m| m.role == Role::Assistant)
            && loaded.messages.len() > running.message_count;
        let paused_again = open_ids
            .iter()
            .any(|id| !self.cards.iter().any(|c| c.action.id == *id));
        if last_is_reply || paused_again {
            self.running_turn = None;
            self.streaming = None;
            self.revisions.streaming += 1;
            self.apply_loaded(loaded, reaches_start);
        }
        // Otherwise still running: keep the optimistic view and look again at the next poll.
    }

    fn handle_timeout(&mut self) {
        let now = self.now;
        // Deadlines (§9.8): a waiting card expires by itself; one being answered does not (C32).
        let mut expired = false;
        for card in &mut self.cards {
            if card.state == CardState::Waiting && card.action.expires_at.is_some_and(|t| t <= now)
            {
                card.state = CardState::Settled(Outcome::Expired);
                expired = true;
            }
        }
        if expired {
            self.revisions.actions += 1;
            self.finish_turn();
            self.schedule_expiry_refresh();
        }
        if self.expiry_refresh_at.is_some_and(|t| t <= now) {
            self.expiry_refresh_at = None;
            if !self.is_streaming() {
                self.refresh_conversation();
            }
        }
        self.poll_running_turn();
    }

    fn poll_running_turn(&mut self) {
        let Some(turn) = self.running_turn.as_mut() else {
            return;
        };
        if self.now < turn.next_poll {
            return;
        }
        if self.now >= turn.deadline {
            self.running_turn = None;
            self.streaming = None;
            self.revisions.streaming += 1;
            self.finish_turn();
            self.set_error(ChatError::StreamCut);
            return;
        }
        turn.next_poll = self.now.saturating_add(RUNNING_TURN_POLL_MS);
        let (conversation_id, turn) = (turn.conversation_id.clone(), turn.turn.clone());
        self.look_for_running_turn(conversation_id, turn, false);
    }

    // ----- attachments ----------------------------------------------------------------------

    /// F147: checks `files` against the effective limits from their metadata alone (nothing is
    /// read before it passes), adds the accepted ones as pending files still to be read, asks
    /// the io layer to read them, and reports the refused ones.
    fn add_files(&mut self, files: Vec<FileMeta>) {
        let check = self.upload_limits().check(self.pending_files.len(), &files);
        for index in check.accepted {
            let Some(meta) = files.get(index) else {
                continue;
            };
            let id = self.local_id();
            self.pending_files.push(PendingFile {
                id: id.clone(),
                name: meta.name.clone(),
                mime_type: meta.mime_type.clone(),
                size: meta.size,
                content: None,
            });
            self.revisions.files += 1;
            self.outputs.push_back(Output::ReadFile { index, id });
        }
        if !check.rejected.is_empty() {
            self.set_error(ChatError::Files(check.rejected));
        }
    }

    /// A pending file's bytes arrived (or could not be read: the file is dropped and said so).
    /// A file removed in the meantime is ignored.
    fn on_file_read(&mut self, id: String, result: Result<String, String>) {
        let Some(pos) = self.pending_files.iter().position(|f| f.id == id) else {
            return;
        };
        match result {
            Ok(content) => self.pending_files[pos].content = Some(content),
            Err(_) => {
                let file = self.pending_files.remove(pos);
                self.set_error(ChatError::Files(vec![FileRejection::Unreadable {
                    name: file.name,
                }]));
            }
        }
        self.revisions.files += 1;
    }

    // ----- helpers --------------------------------------------------------------------------

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

    fn request(&mut self, method: Method, path: String, body: Option<String>, pending: Pending) {
        let id = self.next_id();
        self.pending.push((id, pending));
        self.outputs.push_back(Output::Send(HttpRequest {
            id,
            method,
            path,
            body,
        }));
    }
}

/// Whether `id` is one [`Session::local_id`] made (`<ms>_<9 base36 chars>`): an optimistic
/// message the server knows under another id, so it does not count towards E8 offsets.
fn is_local_id(id: &str) -> bool {
    id.split_once('_').is_some_and(|(ms, rest)| {
        !ms.is_empty()
            && ms.bytes().all(|b| b.is_ascii_digit())
            && rest.len() == 9
            && rest
                .bytes()
                .all(|b| b.is_ascii_digit() || b.is_ascii_lowercase())
    })
}

/// E5's oldest messages and E8's newest page (newest first) as one window, oldest first, and
/// whether it reaches the conversation's first message. The two join when they overlap or
/// together hold `total`; otherwise only the newest page is shown (D26).
fn join_window(oldest: Vec<Message>, page: MessagesPage) -> (Vec<Message>, bool) {
    if page.messages.is_empty() {
        return (oldest, true);
    }
    let newest: Vec<Message> = page.messages.into_iter().rev().collect();
    let ids: std::collections::HashSet<&str> = oldest.iter().map(|m| m.id.as_str()).collect();
    let overlap = newest.iter().any(|m| ids.contains(m.id.as_str()));
    let covers = page.total > 0 && (oldest.len() + newest.len()) as u64 >= page.total;
    if overlap || covers || !page.has_more {
        let fresh: Vec<Message> = newest
            .into_iter()
            .filter(|m| !ids.contains(m.id.as_str()))
            .collect();
        let mut all = oldest;
        all.extend(fresh);
        return (all, true);
    }
    (newest, false)
}

fn base36_padded(mut n: u64, width: usize) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = vec![b'0'; width];
    for slot in out.iter_mut().rev() {
        *slot = DIGITS[(n % 36) as usize];
        n /= 36;
    }
    String::from_utf8(out).unwrap_or_default()
}

/// Percent-encodes a path segment or query value (RFC 3986 unreserved characters pass).
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// Turns a response into `T`, or into the error the UI shows. 204 / empty bodies read as
/// JSON `null` (C23).
fn parse_json<T: serde::de::DeserializeOwned>(
    result: Result<HttpResponse, TransportError>,
    context: ErrorContext,
) -> Result<T, ChatError> {
    let resp = result.map_err(|e| ChatError::Network {
        context,
        detail: e.to_string(),
    })?;
    if !resp.ok() {
        return Err(ChatError::Api {
            context,
            error: ApiError::from_body(resp.status, &resp.body),
        });
    }
    let body = if resp.body.trim().is_empty() {
        "null"
    } else {
        resp.body.as_str()
    };
    super::wire::json_text(body).map_err(|e| ChatError::BadResponse {
        context,
        detail: e.to_string(),
    })
}

/// `{ conversation }` or a bare conversation (C23).
fn conversation_from(value: Value, context: ErrorContext) -> Result<Conversation, ChatError> {
    let inner = match value.get("conversation") {
        Some(c) if c.is_object() => c.clone(),
        _ => value,
    };
    <Conversation as serde::Deserialize>::deserialize(&inner).map_err(|e| ChatError::BadResponse {
        context,
        detail: e.to_string(),
    })
}
