//! `ChatStore` (the `use_chat` of this port): owns one core `Session`, runs the single drive
//! loop and publishes render-ready slices as signals.
//!
//! Publishing is coalesced to one update per animation frame, so a stream of hundreds of tiny
//! `stream.text` events costs one DOM update per frame, not one per token.

use std::collections::HashMap;

use leptos::prelude::*;

use crate::core::{Command, Input, Message, RequestId, Session, SessionConfig, StreamingTurn};
use crate::io::http::TransportConfig;

mod answers;
pub(crate) mod attention;
mod backend;
pub mod chat_history;
mod checker;
mod commands;
mod drive;
mod events;
pub(crate) mod find;
mod hook;
pub mod i18n;
mod publish;
mod readouts;
mod slices;

pub use answers::AnswerFuture;

pub use slices::{
    AnswerableQuestion, CardView, ChatCallbacks, FilesSlice, HistorySlice, PendingFileView,
    StatusSlice,
};

struct Driver {
    session: Session,
    /// Between the session and the wire: the agent server's passes everything through, a
    /// stateless backend's answers from the thread store.
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
    /// Other tabs of this origin.
    peers: Option<crate::io::peers::Peers>,
    /// The waiting count last reported to `on_attention`.
    attention_reported: Option<usize>,
    /// Hosts awaiting their answers ([`ChatStore::answer`]).
    answers: answers::Answers,
    /// Bumped by [`ChatStore::switch_server`]: what a request of an earlier server reports
    /// is dropped (its ids mean nothing to the new session).
    generation: u64,
    /// The backend the gateway awaits, while its code is on its way.
    backend: Option<backend::BackendSpec>,
    /// Where the fetch of the backends' code stands (on its way, waiting after failures).
    backend_fetch: crate::core::chunk_fetch::ChunkFetch,
}

/// Handle to one chat's state. `Copy`; get it from context with [`ChatStore::expect`].
///
/// The slices are read-only signals: every change goes through [`ChatStore::dispatch`] (or a
/// method named after what it does, like [`ChatStore::set_draft`]), so nothing outside the
/// store can make a slice disagree with the session it is published from.
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
    /// Id of the last assistant message, derived from `messages` once for the whole list, so rows
    /// that only care whether they are last (cards without a placement, drawn under the last one)
    /// do not each re-scan the messages on every change.
    pub last_assistant_id: Memo<Option<String>>,
    /// The streaming reply, if any. Published at most once per animation frame; its text is
    /// a snapshot of a shared append-only buffer, so publishing does not copy it.
    pub streaming: ReadSignal<Option<StreamingTurn>>,
    /// Run state, error, agents, conversation.
    pub status: ReadSignal<StatusSlice>,
    /// History list.
    pub history: ReadSignal<HistorySlice>,
    /// Approval and question cards.
    pub cards: ReadSignal<Vec<CardView>>,
    /// Pending attachments and the upload limits.
    pub files: ReadSignal<FilesSlice>,
    /// The composer's text. Lives here so a refused send can hand it back.
    pub draft: ReadSignal<String>,
    /// Wall clock for every countdown of this chat: one timer, ticking once a second while
    /// some open card has a deadline.
    pub now: ReadSignal<crate::core::Millis>,
    /// Live-region announcements, card focus and composer focus requests: UI-only state for
    /// this crate's components, not part of the host API.
    pub(crate) attention: attention::ChatAttention,
    /// The composer has focus (with a non-empty draft that means "typing", so a card arriving then
    /// does not steal focus).
    pub composer_focused: ReadSignal<bool>,
    /// How many cards wait for this person (the "(N)" title prefix): read it with
    /// [`ChatStore::pending_count`].
    pending_count: RwSignal<usize>,
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

    /// A store around an existing `session` with no network: every request the session makes
    /// is recorded (see [`ChatStore::take_requests`]) and answers are fed back with
    /// [`ChatStore::feed`]. For component tests and hosts with their own transport.
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
            backend_fetch: Default::default(),
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
        let pending_count = RwSignal::new(0);
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
        // The find bar's state, shared by the list and the header that draws its button.
        provide_context(find::FindControl::new());
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

/// `useChat`: a chat store for `config` talking through `transport`, provided as
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
