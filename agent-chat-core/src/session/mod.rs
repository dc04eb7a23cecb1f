//! The chat `Session`: one sans-IO state machine for everything a chat does over the wire.
//!
//! Shape borrowed from quinn-proto / str0m: the outside world calls
//! [`Session::handle`] with one [`Input`] (a user [`Command`], an HTTP response, a chunk of a
//! streaming body, a closed stream or a timer tick), then drains [`Session::poll_output`] and
//! re-arms one timer from [`Session::poll_timeout`]. Time is an input, ids come from a counter,
//! nothing here blocks, sleeps or touches the network, so every rule is tested natively.

//!
//! The machine is split by concern, one `impl Session` block per file (quinn-proto's
//! `connection/` layout): `contract` holds what goes in and comes out, `http` the requests
//! the io layer runs, `readout` the getters; this file holds the `Session` struct and the
//! `handle` / `poll_*` contract that dispatches to the sub-machines:
//! `turn` (sending, stopping, retrying), `stream` (reading a reply's events),
//! `running` (looking for a reply after a dropped connection), `actions` (cards,
//! answers, expiry, client tools), `conversation` (open, load, refresh, older pages, create),
//! `history` (the list, paging, delete, rename, titles), `files` and `agents`.
//! Fields stay private to this module; its children see them, nothing outside does.

mod actions;
mod agents;
mod batch;
mod clock;
mod config;
mod contract;
mod conversation;
mod error;
mod files;
mod history;
mod http;
mod reading;
mod readout;
mod running;
pub mod start_options;
mod state;
mod stream;
mod turn;
mod util;
mod watch;

use std::collections::VecDeque;

use crate::actions::{ActionCard, CardState};
use crate::draft::Shown;
use crate::endpoint::Call;
use crate::files::PendingFile;
use crate::time::Millis;
use crate::wire::{ActionKind, AgentInfo, Conversation, ConversationListItem, Message, Resolution};

use self::clock::ServerClock;
pub use self::config::{SessionConfig, SessionOptions};
pub use self::contract::{Command, Input, Output, SessionEvent};
pub use self::error::{ChatError, ErrorContext};
pub use self::http::{HttpRequest, HttpResponse, Method, RequestId, TransportError};
pub use self::reading::{BYTES_PER_SLICE, MESSAGES_PER_SLICE};
pub use self::readout::{Revisions, Run};
pub use self::start_options::StartOptions;
pub use self::stream::{ActiveToolCall, StreamingTurn};
pub use self::util::{decode, encode};

use self::state::{
    HistoryState, InterruptedTurn, LoadPurpose, OlderPages, OutgoingMessage, Pending, RunningTurn,
    Turn,
};
use self::util::base36_padded;

/// `GET /conversations/:id` returns at most this many messages, oldest first: when it returns
/// this many, the conversation may be longer and its newest page is fetched with
/// `GET /conversations/:id/messages`.
pub const CONVERSATION_MESSAGE_CAP: usize = 100;
/// Messages per page of `GET /conversations/:id/messages`: the newest page on open, then one older page at a time. 25, so
/// each page is drawn in one short main-thread task.
pub const MESSAGE_PAGE: usize = 25;

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
    /// Sent messages whose turn broke off unconfirmed, drawn as interrupted.
    interrupted: Vec<InterruptedTurn>,
    /// `client_tool` action ids already reported to the host.
    client_tools_reported: Vec<String>,
    /// Attachments waiting for the next send.
    pending_files: Vec<PendingFile>,

    history: Vec<ConversationListItem>,
    /// Started, loading, and whether more pages exist.
    history_state: HistoryState,

    /// Older messages of the open conversation on the server, and whether a page of them is
    /// on its way.
    older: OlderPages,

    revisions: Revisions,
    /// The estimated offset of the server's clock (`clock.rs`).
    clock: ServerClock,
    /// Idempotency keys of decisions not settled yet.
    keys: crate::DecisionKeys,
    /// Looking the conversation up while a card is Checking or Executing.
    watch: Option<watch::Watch>,
    /// The rest of an "Approve all" / "Deny all", sent one after the other.
    batch: VecDeque<(Shown, Resolution)>,
    /// A long conversation answer being read a slice at a time.
    reading: Option<reading::Reading>,
    /// A message sent before the agent list arrived; it goes out when it does.
    awaiting_agent: Option<OutgoingMessage>,
}

impl Session {
    /// A new idle session. Nothing is requested until [`Command::Start`].
    pub fn new(config: SessionConfig) -> Self {
        let messages = config.initial_messages.clone();
        let keys = crate::DecisionKeys::new(config.decision_keys.clone(), config.key_seed);
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
        self.request(crate::endpoint::Endpoint::Agents, Pending::Agents);
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
                changed |= crate::draft::lock_host_read_only(approval, &self.config.read_only_args);
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

    /// Client-side id in the React library's format: `<ms>_<9 base36 chars>`.
    fn local_id(&mut self) -> String {
        let n = self.next_local_id;
        self.next_local_id += 1;
        format!("{}_{}", self.now.0, base36_padded(n, 9))
    }

    fn request(&mut self, call: crate::endpoint::Endpoint, pending: Pending) {
        let id = self.next_id();
        self.pending.push((id, pending));
        self.outputs
            .push_back(Output::Send(Call { id, endpoint: call }));
    }
}
