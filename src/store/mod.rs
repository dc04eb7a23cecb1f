//! `ChatStore` (the `use_chat` of this port): owns one core `Session`, runs the single drive
//! loop (DESIGN.md §3) and publishes render-ready slices as signals.
//!
//! Publishing is coalesced to one update per animation frame, so a stream of hundreds of tiny
//! `stream.text` events costs one DOM update per frame, not one per token.

use std::collections::HashMap;

use leptos::prelude::*;

use crate::core::{
    Command, Input, Message, RequestId, Run, Session, SessionConfig, SessionEvent, StreamingTurn,
};
use crate::io::http::TransportConfig;

mod answers;
pub(crate) mod attention;
mod backend;
pub mod chat_history;
mod checker;
mod drive;
mod hook;
pub mod i18n;
mod slices;

pub use answers::AnswerFuture;

pub use slices::{
    AnswerableQuestion, CardView, ChatCallbacks, FilesSlice, HistorySlice, PendingFileView,
    StatusSlice,
};

struct Driver {
    session: Session,
    /// Between the session and the wire: the agent server's passes everything through, a
    /// stateless backend's answers from the thread store (issue 15).
    gateway: crate::core::transport::Gateway,
    /// Where a stateless backend's threads are kept; `None` for the agent server.
    threads: Option<crate::io::threads::ThreadStore>,
    /// `None`: detached (tests, hosts that drive io themselves): requests are recorded.
    transport: Option<TransportConfig>,
    recorded: Vec<crate::core::HttpRequest>,
    callbacks: ChatCallbacks,
    controllers: HashMap<RequestId, web_sys::AbortController>,
    timer: Option<TimeoutHandle>,
    frame_pending: bool,
    published: crate::core::Revisions,
    /// The files of the last `add_files`, read by index when the session asks.
    file_batch: Vec<web_sys::File>,
    /// Where this chat's decision keys are kept (`sessionStorage`), when it has a server.
    keys_scope: Option<String>,
    /// Other tabs of this origin (issue 14).
    peers: Option<crate::io::peers::Peers>,
    /// The waiting count last reported to `on_attention` (issue 14).
    attention_reported: Option<usize>,
    /// Hosts awaiting their answers ([`ChatStore::answer`]).
    answers: answers::Answers,
    /// Bumped by [`ChatStore::switch_server`]: what a request of an earlier server reports
    /// is dropped (its ids mean nothing to the new session).
    generation: u64,
    /// The backend the gateway awaits, while its code is on its way (issue 16, D68).
    backend: Option<backend::BackendSpec>,
    /// A fetch of the backends' code is on its way.
    backend_fetching: bool,
    /// How many fetches of the backends' code failed in a row.
    backend_failures: u32,
}

/// What [`ChatStore::gateway_for`] gives: the gateway, the thread store, how many stored
/// threads could not be read, and the backend the gateway awaits (D68).
type GatewayFor = (
    crate::core::transport::Gateway,
    Option<crate::io::threads::ThreadStore>,
    usize,
    Option<backend::BackendSpec>,
);

/// Handle to one chat's state. `Copy`; get it from context with [`ChatStore::expect`].
///
/// The slices are read-only signals: every change goes through [`ChatStore::dispatch`] (or a
/// method named after what it does, like [`ChatStore::set_draft`]), so nothing outside the
/// store can make a slice disagree with the session it is published from (issue 13).
///
/// ```compile_fail
/// use agent_chat_ui::ChatStore;
/// use leptos::prelude::*;
///
/// fn overwrite(store: ChatStore) {
///     store.cards.set(Vec::new()); // a `ReadSignal` has no setter
/// }
/// ```
#[derive(Clone, Copy)]
pub struct ChatStore {
    driver: StoredValue<Driver, LocalStorage>,
    /// The write halves of the slices below; only the store writes them.
    write: Writers,
    /// Messages of the open conversation.
    pub messages: ReadSignal<Vec<Message>>,
    /// Id of the last assistant message, derived from `messages` once for the whole list, so
    /// rows that only care whether they are last (cards without a placement, C11) do not each
    /// re-scan the messages on every change (D47).
    pub last_assistant_id: Memo<Option<String>>,
    /// The streaming reply, if any. Published at most once per animation frame; its text is
    /// a snapshot of a shared append-only buffer, so publishing does not copy it (D42).
    pub streaming: ReadSignal<Option<StreamingTurn>>,
    /// Run state, error, agents, conversation.
    pub status: ReadSignal<StatusSlice>,
    /// History list.
    pub history: ReadSignal<HistorySlice>,
    /// Approval and question cards.
    pub cards: ReadSignal<Vec<CardView>>,
    /// Pending attachments and the upload limits (F144).
    pub files: ReadSignal<FilesSlice>,
    /// The composer's text. Lives here so a refused send can hand it back (F197).
    pub draft: ReadSignal<String>,
    /// Wall clock for every countdown of this chat: one timer, ticking once a second while
    /// some open card has a deadline.
    pub now: ReadSignal<crate::core::Millis>,
    /// Live-region announcements, card focus and composer focus requests: UI-only state for
    /// this crate's components, not part of the host API (issue 13).
    pub(crate) attention: attention::ChatAttention,
    /// The composer has focus (with a non-empty draft that means "typing", C24).
    pub composer_focused: ReadSignal<bool>,
    /// How many cards wait for this person (issue 14: the "(N)" title prefix).
    pub pending_count: ReadSignal<usize>,
}

/// The write halves of [`ChatStore`]'s public slices.
#[derive(Clone, Copy)]
struct Writers {
    messages: WriteSignal<Vec<Message>>,
    streaming: WriteSignal<Option<StreamingTurn>>,
    status: WriteSignal<StatusSlice>,
    history: WriteSignal<HistorySlice>,
    cards: WriteSignal<Vec<CardView>>,
    files: WriteSignal<FilesSlice>,
    draft: WriteSignal<String>,
    now: WriteSignal<crate::core::Millis>,
    composer_focused: WriteSignal<bool>,
    pending_count: WriteSignal<usize>,
}

impl ChatStore {
    /// Creates a store and provides it as context. Call [`ChatStore::dispatch`] with
    /// [`Command::Start`] once mounted.
    pub fn new(
        mut config: SessionConfig,
        transport: TransportConfig,
        callbacks: ChatCallbacks,
    ) -> Self {
        // Decisions of an earlier load of this tab keep their keys (issue 14).
        let scope = crate::io::keys::scope(&transport.base_url);
        if config.decision_keys.is_empty() {
            config.decision_keys = crate::io::keys::load(&scope);
        }
        config.key_seed = crate::io::keys::random_seed();
        // A backend that cannot take answers draws its cards read-only (F190).
        config.can_resolve &= transport.backend.can_resolve();
        let (gateway, threads, unreadable, awaited) = Self::gateway_for(&transport);
        let awaits = awaited.is_some();
        let host = match &threads {
            Some(crate::io::threads::ThreadStore::Host(host)) => Some(host.clone()),
            _ => None,
        };
        let store = Self::build(Session::new(config), Some(transport), callbacks);
        store.driver.update_value(|d| {
            d.gateway = gateway;
            d.threads = threads;
            d.backend = awaited;
        });
        if awaits {
            store.fetch_backend();
        }
        if let Some(host) = host {
            store.load_host_threads(host);
        }
        if unreadable > 0 {
            store.dispatch(Command::ReportError(crate::core::ChatError::Storage {
                unreadable,
            }));
        }
        // Another tab settled a card of the conversation shown here: look it up at once.
        let peers = crate::io::peers::Peers::open(move |conversation_id, action_id| {
            let shown = store
                .driver
                .try_with_value(|d| d.session.conversation().map(|c| c.id.clone()))
                .flatten();
            if shown.as_deref() == Some(conversation_id.as_str()) {
                store.dispatch(Command::SettledElsewhere { action_id });
            }
        });
        store.driver.update_value(|d| {
            d.keys_scope = Some(scope);
            d.peers = peers;
        });
        store
    }

    /// The gateway for `transport`'s backend, its thread store, and how many stored threads
    /// could not be read (issue 15). A host's own store is read after the mount
    /// ([`ChatStore::load_host_threads`]); until then the gateway holds the session's
    /// requests.
    ///
    /// In the element and the page the backends other than the agent server are a chunk
    /// (D68): if it is not here yet, the gateway awaits it and the [`backend::BackendSpec`]
    /// that builds it is returned, for [`ChatStore::fetch_backend`].
    pub(super) fn gateway_for(transport: &TransportConfig) -> GatewayFor {
        use crate::core::transport::Gateway;
        let backend = &transport.backend;
        if !backend.keeps_threads() {
            return (Gateway::direct(), None, 0, None);
        }
        let seed = crate::io::keys::random_seed();
        let (spec, store, unreadable) = match &transport.thread_storage {
            Some(host) => {
                let spec = backend::BackendSpec {
                    options: backend.clone(),
                    threads: Vec::new(),
                    seed,
                    loading: true,
                };
                (spec, crate::io::threads::ThreadStore::Host(host.clone()), 0)
            }
            None => {
                let store = crate::io::threads::ThreadStore::new(
                    backend.thread_store,
                    backend.kind,
                    &transport.base_url,
                );
                let (threads, unreadable) = store.load();
                let spec = backend::BackendSpec {
                    options: backend.clone(),
                    threads,
                    seed,
                    loading: false,
                };
                (spec, store, unreadable)
            }
        };
        match backend::gateway_now(&spec) {
            Some(gateway) => (gateway, Some(store), unreadable, None),
            None => (Gateway::awaiting(), Some(store), unreadable, Some(spec)),
        }
    }

    /// A store around an existing `session` with no network: every request the session makes
    /// is recorded (see [`ChatStore::take_requests`]) and answers are fed back with
    /// [`ChatStore::feed`]. For component tests (DESIGN §5) and hosts with their own transport.
    pub fn detached(session: Session, callbacks: ChatCallbacks) -> Self {
        let store = Self::build(session, None, callbacks);
        store.schedule_publish();
        store
    }

    fn build(
        session: Session,
        transport: Option<TransportConfig>,
        callbacks: ChatCallbacks,
    ) -> Self {
        // argsSchema `pattern` with the browser's RegExp (D50), before any card is checked;
        // native builds (tests) keep the core's regex-lite.
        #[cfg(target_arch = "wasm32")]
        crate::io::pattern::install();
        // Shown from the first render (F11): the first publish only copies what changed.
        let initial_messages = session.messages().to_vec();
        // The limits show from the first render (no attach button when uploads are off).
        let initial_files = FilesSlice {
            pending: Vec::new(),
            limits: session.upload_limits(),
        };
        let driver = Driver {
            session,
            gateway: crate::core::transport::Gateway::direct(),
            threads: None,
            transport,
            recorded: Vec::new(),
            callbacks,
            controllers: HashMap::new(),
            timer: None,
            frame_pending: false,
            published: Default::default(),
            file_batch: Vec::new(),
            keys_scope: None,
            peers: None,
            attention_reported: None,
            answers: answers::Answers::default(),
            generation: 0,
            backend: None,
            backend_fetching: false,
            backend_failures: 0,
        };
        let (messages, set_messages) = signal(initial_messages);
        let (streaming, set_streaming) = signal(None);
        let (status, set_status) = signal(StatusSlice {
            can_send: true,
            remember_allowed: true,
            ..Default::default()
        });
        let (history, set_history) = signal(HistorySlice::default());
        let (cards, set_cards) = signal(Vec::new());
        let (files, set_files) = signal(initial_files);
        let (draft, set_draft) = signal(String::new());
        let (now, set_now) = signal(crate::io::clock::now());
        let (composer_focused, set_composer_focused) = signal(false);
        let (pending_count, set_pending_count) = signal(0);
        let last_assistant_id = Memo::new(move |_| {
            messages.with(|ms| {
                ms.iter()
                    .rev()
                    .find(|m| m.role == crate::core::Role::Assistant)
                    .map(|m| m.id.clone())
            })
        });
        let store = ChatStore {
            driver: StoredValue::new_local(driver),
            write: Writers {
                messages: set_messages,
                streaming: set_streaming,
                status: set_status,
                history: set_history,
                cards: set_cards,
                files: set_files,
                draft: set_draft,
                now: set_now,
                composer_focused: set_composer_focused,
                pending_count: set_pending_count,
            },
            messages,
            last_assistant_id,
            streaming,
            status,
            history,
            cards,
            files,
            draft,
            now,
            attention: attention::ChatAttention::new(),
            pending_count,
            composer_focused,
        };
        provide_context(store);
        let ticker = every_second(move || {
            let counting = store.cards.try_with_untracked(|cards| {
                cards
                    .iter()
                    .any(|c| c.card.state.is_open() && c.card.action.expires_at.is_some())
            });
            if counting == Some(true) {
                let _ = store.write.now.try_set(crate::io::clock::now());
            }
        });
        on_cleanup(move || {
            if let Some(t) = ticker {
                t.clear();
            }
            store.shutdown();
        });
        store
    }

    /// The store of the enclosing `Chat`.
    ///
    /// # Panics
    /// Outside a `Chat` (a programming error in a custom layout).
    pub fn expect() -> Self {
        expect_context::<ChatStore>()
    }

    /// Sends a user intent to the session.
    pub fn dispatch(&self, command: Command) {
        self.handle(Input::User(command));
    }

    /// Feeds any input (a response, a stream chunk) to the session, as the io edge does.
    pub fn feed(&self, input: Input) {
        self.handle(input);
    }

    /// Uses this `Authorization` value and these extra headers from the next request on
    /// (a refreshed token, F3, F4); requests already on their way keep what they were sent
    /// with. Nothing for a detached store.
    pub fn set_credentials(&self, authorization: Option<String>, headers: Vec<(String, String)>) {
        let _ = self.driver.try_update_value(|d| {
            if let Some(t) = d.transport.as_mut() {
                t.authorization = authorization.filter(|a| !a.is_empty());
                t.headers = headers;
            }
        });
    }

    /// Requests a detached store recorded since the last call (always empty when connected).
    pub fn take_requests(&self) -> Vec<crate::core::HttpRequest> {
        self.driver
            .try_update_value(|d| std::mem::take(&mut d.recorded))
            .unwrap_or_default()
    }

    /// Replaces the composer's text (what the person typed, or a host putting text back, C29).
    /// The draft is the composer's own state, not the session's: it is not sent anywhere.
    pub fn set_draft(&self, text: impl Into<String>) {
        let _ = self.write.draft.try_set(text.into());
    }

    /// Tells the store whether the composer has focus: with a non-empty draft that means the
    /// person is typing, and an arriving card then neither takes focus nor is announced (C24).
    pub fn set_composer_focused(&self, focused: bool) {
        let _ = self.write.composer_focused.try_set(focused);
    }

    /// `sendMessage` (F-hook): sends `text` as the person (or answers / cancels per the
    /// composer state, as the built-in composer does).
    pub fn send_message(&self, text: impl Into<String>) {
        self.dispatch(Command::Send(text.into()));
    }

    /// `retry` (F152): drops a trailing assistant message and sends the last user text again
    /// (files are not resent); does nothing when nothing could be sent now.
    pub fn retry(&self) {
        self.dispatch(Command::Retry);
    }

    /// `addFiles` (F147): checks the files against the effective limits from their metadata,
    /// then reads the accepted ones; refusals show in the error banner and go to `on_error`.
    pub fn add_files(&self, files: Vec<web_sys::File>) {
        if files.is_empty() {
            return;
        }
        let metas = files.iter().map(crate::io::files::meta).collect();
        self.driver.try_update_value(|d| d.file_batch = files);
        self.dispatch(Command::AddFiles(metas));
        // The accepted files were handed to their readers during the dispatch.
        self.driver.try_update_value(|d| d.file_batch.clear());
    }

    /// `removeFile(id)` (F148).
    pub fn remove_file(&self, id: impl Into<String>) {
        self.dispatch(Command::RemoveFile(id.into()));
    }

    /// `resolveAction(action, resolution)` (F192): answers a card. `shown` is the action as
    /// the person saw it: pass the [`crate::core::PendingAction`] (or `ActionCard`) you drew,
    /// from [`ChatStore::pending_actions`] or `on_action_required`. The core sends nothing, and
    /// reports why (the error banner and `on_error` for what the person can act on), unless
    /// the card is waiting, answerable here, within its deadline, still that very request, and
    /// the answer keeps its rules (arguments an object valid against argsSchema, required
    /// questions answered); so a double click sends one request (issue 13).
    pub fn resolve_action(
        &self,
        shown: impl Into<crate::core::Shown>,
        resolution: crate::core::Resolution,
    ) {
        let shown = shown.into();
        if crate::core::schema::edit_waits_for_checker(&resolution) {
            // An edit given before any card was drawn: the checker comes first (D81).
            let store = *self;
            checker::then(move || store.dispatch(Command::Resolve { shown, resolution }));
            return;
        }
        self.dispatch(Command::Resolve { shown, resolution });
    }

    /// [`ChatStore::resolve_action`] as a future, like the React hook's `await
    /// resolveAction(...)`: `Ok` once the server took the answer; `Err` with the reason when
    /// the page's gate refused it ([`ChatError::Refused`](crate::core::ChatError::Refused)),
    /// the server refused it, answered with a new version to decide, or never received it.
    /// While its fate is being checked (issue 14) it stays pending. Dropping it changes
    /// nothing about the answer (issue 17).
    pub fn answer(
        &self,
        shown: impl Into<crate::core::Shown>,
        resolution: crate::core::Resolution,
    ) -> AnswerFuture {
        let shown = shown.into();
        if crate::core::schema::edit_waits_for_checker(&resolution) {
            // An edit given before any card was drawn: the checker comes first (D81), then the
            // answer is dispatched as below.
            let (future, later) = answers::Answers::later();
            let store = *self;
            checker::then(move || {
                let action_id = shown.action_id.clone();
                // A chat gone by now drops `later`, which tells the host so.
                if store
                    .driver
                    .try_update_value(|d| d.answers.resume(later))
                    .is_some()
                {
                    store.dispatch(Command::Resolve { shown, resolution });
                    let _ = store.driver.try_update_value(|d| d.answers.end(&action_id));
                }
            });
            return future;
        }
        let action_id = shown.action_id.clone();
        let Some(future) = self.driver.try_update_value(|d| d.answers.begin()) else {
            // The chat is gone: a future that says so at once.
            return answers::Answers::default().begin();
        };
        self.resolve_action(shown, resolution);
        let _ = self.driver.try_update_value(|d| d.answers.end(&action_id));
        future
    }

    /// "Approve all (N)" (`approve`) or "Deny all" for the calls of one assistant turn, as
    /// shown (issue 14): all or nothing, each call with its own decision key. See
    /// [`crate::core::approval_batch`] for which calls form a batch.
    pub fn resolve_all(&self, shown: Vec<crate::core::Shown>, approve: bool) {
        self.dispatch(Command::ResolveAll { shown, approve });
    }

    /// Answers a `client_tool` request (C10) with the tool's `result`, or with `error` when
    /// the page could not run it.
    pub fn resolve_client_tool(
        &self,
        action_id: impl Into<String>,
        result: Result<serde_json::Value, String>,
    ) {
        let (result, error) = match result {
            Ok(v) => (Some(v), None),
            Err(e) => (None, Some(e)),
        };
        // The page's own tool: no person was shown a card, so it answers the request as it is
        // now (an unknown id is refused by the core as such).
        let action_id = action_id.into();
        let shown = self
            .driver
            .try_with_value(|d| {
                d.session
                    .cards()
                    .iter()
                    .find(|c| c.action.id == action_id)
                    .map(crate::core::Shown::from)
            })
            .flatten()
            .unwrap_or(crate::core::Shown {
                action_id,
                version: None,
                fingerprint: 0,
            });
        self.resolve_action(shown, crate::core::Resolution::ClientTool { result, error });
    }

    /// `pendingActions` (F187): open actions (person-facing and `client_tool`), each with the
    /// message it belongs to.
    pub fn pending_actions(&self) -> Signal<Vec<crate::core::ActionCard>> {
        let cards = self.cards;
        Signal::derive(move || {
            cards.with(|cs| {
                cs.iter()
                    .filter(|c| c.card.state.is_open())
                    .map(|c| c.card.clone())
                    .collect()
            })
        })
    }

    /// `awaitingAction` (F188): a person-facing action is open.
    pub fn awaiting_action(&self) -> Signal<bool> {
        let cards = self.cards;
        Signal::derive(move || cards.with(|cs| cs.iter().any(|c| c.card.is_open_for_person())))
    }

    /// `isResolvingAction` (F189): an answer is in flight.
    pub fn is_resolving_action(&self) -> Signal<bool> {
        let cards = self.cards;
        Signal::derive(move || {
            cards.with(|cs| {
                cs.iter()
                    .any(|c| c.card.state == crate::core::CardState::Sending)
            })
        })
    }

    /// `canResolveActions` (F190): this chat's transport can answer.
    pub fn can_resolve_actions(&self) -> bool {
        self.driver
            .try_with_value(|d| d.session.config().can_resolve)
            .unwrap_or(false)
    }

    /// `answerableQuestion` (F191).
    pub fn answerable_question(&self) -> Signal<Option<AnswerableQuestion>> {
        let status = self.status;
        Signal::derive(move || {
            status.with(|s| match &s.composer {
                crate::core::ComposerState::Answer {
                    action_id,
                    question,
                } => Some(AnswerableQuestion {
                    action_id: action_id.clone(),
                    question: question.clone(),
                }),
                _ => None,
            })
        })
    }

    /// `composerState` (F193).
    pub fn composer_state(&self) -> Signal<crate::core::ComposerState> {
        let status = self.status;
        Signal::derive(move || status.with(|s| s.composer.clone()))
    }

    /// `isStreaming`: a reply is streaming.
    pub fn is_streaming(&self) -> Signal<bool> {
        let status = self.status;
        Signal::derive(move || status.with(|s| s.run == Run::Streaming))
    }

    /// `streamingText`: the reply streamed so far. Each read copies the whole text; the chat's
    /// own view reads [`ChatStore::streaming`]'s shared [`crate::core::StreamText`] instead,
    /// which costs only the new bytes per frame (D42).
    pub fn streaming_text(&self) -> Signal<String> {
        let streaming = self.streaming;
        Signal::derive(move || {
            streaming.with(|s| s.as_ref().map(|t| t.text.to_string()).unwrap_or_default())
        })
    }

    fn schedule_publish(&self) {
        let already = self
            .driver
            .try_update_value(|d| std::mem::replace(&mut d.frame_pending, true))
            .unwrap_or(true);
        if already {
            return;
        }
        let store = *self;
        next_frame(move || store.publish());
    }

    /// Copies changed slices from the session into signals (once per frame). `try_set`: the
    /// chat may have been unmounted since the frame was requested.
    fn publish(&self) {
        let Some((revs, published)) = self.driver.try_update_value(|d| {
            d.frame_pending = false;
            let revs = d.session.revisions();
            (revs, std::mem::replace(&mut d.published, revs))
        }) else {
            return;
        };
        if revs.messages != published.messages {
            if let Some(m) = self
                .driver
                .try_with_value(|d| d.session.messages().to_vec())
            {
                let _ = self.write.messages.try_set(m);
            }
        }
        if revs.streaming != published.streaming {
            if let Some(s) = self
                .driver
                .try_with_value(|d| d.session.streaming().cloned())
            {
                let _ = self.write.streaming.try_set(s);
            }
        }
        // The composer state is derived from the cards too.
        if revs.status != published.status || revs.actions != published.actions {
            if let Some(s) = self.driver.try_with_value(|d| status_of(&d.session)) {
                let _ = self.write.status.try_set(s);
            }
        }
        if revs.actions != published.actions {
            if let Some(c) = self.driver.try_with_value(|d| {
                let s = &d.session;
                s.cards()
                    .iter()
                    .map(|card| CardView {
                        can_resolve: s.can_resolve(card),
                        shown: crate::core::Shown::from(card),
                        stage: crate::core::CardStage::of(card),
                        card: card.clone(),
                    })
                    .collect::<Vec<_>>()
            }) {
                self.announce_stage_changes(&c);
                self.report_attention(&c);
                let _ = self.write.cards.try_set(c);
            }
        }
        // The limits depend on the selected agent (status) as well as on the props.
        if revs.files != published.files || revs.status != published.status {
            if let Some(f) = self.driver.try_with_value(|d| FilesSlice {
                pending: d
                    .session
                    .pending_files()
                    .iter()
                    .map(|f| PendingFileView {
                        id: f.id.clone(),
                        name: f.name.clone(),
                        mime_type: f.mime_type.clone(),
                        size: f.size,
                        ready: f.is_ready(),
                    })
                    .collect(),
                limits: d.session.upload_limits(),
            }) {
                if self.files.try_with_untracked(|cur| cur != &f) == Some(true) {
                    let _ = self.write.files.try_set(f);
                }
            }
        }
        if revs.history != published.history {
            if let Some(h) = self.driver.try_with_value(|d| HistorySlice {
                items: d.session.history().to_vec(),
                has_more: d.session.history_has_more(),
                loading: d.session.history_loading(),
            }) {
                let _ = self.write.history.try_set(h);
            }
        }
    }

    fn emit(&self, event: SessionEvent) {
        let Some(cb) = self.driver.try_with_value(|d| d.callbacks.clone()) else {
            return;
        };
        match event {
            SessionEvent::MessageSent(m) => run(&cb.on_message_sent, m),
            SessionEvent::MessageReceived(m) => run(&cb.on_message_received, m),
            // The whole text is copied only for a host that asked for it (F14, D42).
            SessionEvent::StreamText { chunk, full } => {
                if let Some(cb) = cb.on_stream_text {
                    cb.run((chunk, full.to_string()));
                }
            }
            SessionEvent::ToolCall { name, args } => run(&cb.on_tool_call, (name, args)),
            SessionEvent::ToolResult { name, result } => run(&cb.on_tool_result, (name, result)),
            SessionEvent::Error(e) => run(&cb.on_error, e),
            SessionEvent::ConversationCreated(c) => run(&cb.on_conversation_created, c),
            SessionEvent::ConversationChanged(id) => run(&cb.on_conversation_change, id),
            SessionEvent::AgentChanged(id) => run(&cb.on_agent_change, id),
            SessionEvent::ActionRequired(action) => {
                self.announce_and_focus(&action);
                run(&cb.on_action_required, action)
            }
            SessionEvent::ActionChanged(action) => {
                let answerable = self.answerable_here(&action.id);
                if let Some(notice) = crate::core::attention_for_changed_card(answerable).announce {
                    self.attention.announce(notice);
                }
            }
            // What the person can act on is also an `Error` event (the banner, `on_error`).
            SessionEvent::ResolveRefused { reason, .. } => {
                let _ = self.driver.try_update_value(|d| {
                    d.answers.refused(crate::core::ChatError::Refused(reason))
                });
            }
            SessionEvent::ResolveFailed { action_id, error } => {
                self.complete_answer(&action_id, Err(error));
            }
            SessionEvent::CardsSettled => self.attention.refocus_composer(),
            SessionEvent::FrameSkipped { detail } => {
                #[cfg(target_arch = "wasm32")]
                web_sys::console::debug_1(
                    &format!("agent-chat-ui: skipped an unreadable stream frame: {detail}").into(),
                );
                #[cfg(not(target_arch = "wasm32"))]
                let _ = detail;
            }
            SessionEvent::DecisionKeysChanged(entries) => {
                if let Some(Some(scope)) = self.driver.try_with_value(|d| d.keys_scope.clone()) {
                    crate::io::keys::save(&scope, &entries);
                }
            }
            SessionEvent::ClientToolRequested(action) => run(&cb.on_client_tool, action),
            SessionEvent::ActionResolved {
                action_id,
                resolution,
            } => {
                let _ = self.driver.try_with_value(|d| {
                    if let (Some(peers), Some(c)) = (&d.peers, d.session.conversation()) {
                        peers.tell_settled(&c.id, &action_id);
                    }
                });
                self.complete_answer(&action_id, Ok(()));
                run(&cb.on_action_resolved, (action_id, resolution))
            }
            SessionEvent::DraftReturned(text) => {
                // Never overwrite what the person typed since (C29).
                if self
                    .draft
                    .try_get_untracked()
                    .is_some_and(|d| d.trim().is_empty())
                {
                    let _ = self.write.draft.try_set(text);
                }
            }
        }
    }

    fn complete_answer(&self, action_id: &str, result: Result<(), crate::core::ChatError>) {
        let _ = self
            .driver
            .try_update_value(|d| d.answers.complete(action_id, result));
    }

    /// F226, F227 (C24, C25, issue 13): the core decides what a live card asks of the
    /// person's attention; this only tells it whether the person is typing and whether the
    /// card can be answered here. Restored cards never get here (the session does not report
    /// them), nor do `client_tool` requests.
    fn announce_and_focus(&self, action: &crate::core::PendingAction) {
        let typing = self.composer_focused.try_get_untracked() == Some(true)
            && self
                .draft
                .try_with_untracked(|d| !d.trim().is_empty())
                .unwrap_or(false);
        let attention =
            crate::core::attention_for_new_card(action, self.answerable_here(&action.id), typing);
        if let Some(notice) = attention.announce {
            self.attention.announce(notice);
        }
        if attention.focus {
            self.attention.focus(&action.id);
        }
    }

    /// Issue 14: tells the host when the number of cards waiting for this person changes.
    fn report_attention(&self, cards: &[CardView]) {
        let now = crate::core::pending_attention(cards.iter().map(|c| (&c.card, c.can_resolve)));
        let _ = self.write.pending_count.try_set(now.pending);
        let changed = self
            .driver
            .try_update_value(|d| {
                let changed = d.attention_reported != Some(now.pending);
                d.attention_reported = Some(now.pending);
                changed
            })
            .unwrap_or(false);
        if !changed {
            return;
        }
        if let Some(Some(cb)) = self.driver.try_with_value(|d| d.callbacks.on_attention) {
            cb.run(now);
        }
    }

    /// Issue 14: a card that moved on (Executing…, Completed, Checking status…) is announced
    /// politely; the core decides which moves are said.
    fn announce_stage_changes(&self, next: &[CardView]) {
        let notices: Vec<crate::core::Notice> = self
            .cards
            .try_with_untracked(|before| {
                next.iter()
                    .filter_map(|c| {
                        let old = before
                            .iter()
                            .find(|b| b.card.action.id == c.card.action.id)?;
                        crate::core::attention_for_stage_change(&c.card, &old.stage, &c.stage)
                    })
                    .collect()
            })
            .unwrap_or_default();
        for notice in notices {
            self.attention.announce(notice);
        }
    }

    /// The session's card `action_id` can be answered here.
    fn answerable_here(&self, action_id: &str) -> bool {
        self.driver
            .try_with_value(|d| {
                let s = &d.session;
                s.cards()
                    .iter()
                    .any(|c| c.action.id == action_id && s.can_resolve(c))
            })
            .unwrap_or(false)
    }

    fn shutdown(&self) {
        let parts = self.driver.try_update_value(|d| {
            d.peers = None;
            (std::mem::take(&mut d.controllers), d.timer.take())
        });
        if let Some((controllers, timer)) = parts {
            for c in controllers.values() {
                c.abort();
            }
            if let Some(t) = timer {
                t.clear();
            }
        }
    }
}

/// `useChat` (F185, F186): a chat store for `config` talking through `transport`, provided as
/// context (so `ChatMessageList`, `ChatInput` and `ChatHistory` below find it) and started.
/// Read its signals (`messages`, `status`, `cards`, ...) and the getters named after the React
/// hook (`pending_actions`, `awaiting_action`, `is_resolving_action`, `can_resolve_actions`,
/// `answerable_question`, `composer_state`); act with `send_message` and `resolve_action`.
pub fn use_chat(
    config: SessionConfig,
    transport: TransportConfig,
    callbacks: ChatCallbacks,
) -> ChatStore {
    let store = ChatStore::new(config, transport, callbacks);
    // Start once mounted (after the caller's view exists), like `Chat` does.
    Effect::new(move |started: Option<()>| {
        if started.is_none() {
            store.dispatch(Command::Start);
        }
    });
    store
}

/// Calls `f` every second.
#[cfg(target_arch = "wasm32")]
fn every_second(f: impl Fn() + 'static) -> Option<IntervalHandle> {
    set_interval_with_handle(f, std::time::Duration::from_secs(1)).ok()
}

/// Natively (the store's own tests) there is no browser timer: nothing ticks, and a test
/// sets the time through its inputs.
#[cfg(not(target_arch = "wasm32"))]
fn every_second(_f: impl Fn() + 'static) -> Option<IntervalHandle> {
    None
}

/// Calls `f` before the next repaint, which coalesces publishing to one update per frame.
#[cfg(target_arch = "wasm32")]
fn next_frame(f: impl FnOnce() + 'static) {
    request_animation_frame(f);
}

/// Natively there are no frames: `f` runs at once, so a test reads the signals right after
/// `dispatch` (publishing then comes before the host callbacks of the same input).
#[cfg(not(target_arch = "wasm32"))]
fn next_frame(f: impl FnOnce() + 'static) {
    f();
}

fn run<T: 'static>(cb: &Option<Callback<T>>, value: T) {
    if let Some(cb) = cb {
        cb.run(value);
    }
}

fn status_of(s: &Session) -> StatusSlice {
    StatusSlice {
        run: s.run(),
        error: s.error().cloned(),
        agents: s.agents().to_vec(),
        agents_loaded: s.agents_loaded(),
        agent_id: s.agent_id().map(str::to_owned),
        conversation: s.conversation().cloned(),
        can_send: s.can_send(),
        composer_mode: s.composer_mode(),
        composer: s.composer_state(),
        argument_edit: s.argument_edit_allowed(),
        agent_argument_edit: s.agent().and_then(|a| a.capabilities.approval_args_edit),
        remember_allowed: s.remember_allowed(),
        has_older_messages: s.has_older_messages(),
        is_loading_older: s.is_loading_older(),
        clock_offset_ms: s.clock_offset_ms(),
    }
}
