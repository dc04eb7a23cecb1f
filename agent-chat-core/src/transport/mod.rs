//! Backends other than the agent server, sans-IO like the session.
//!
//! The session speaks one language: the agent server's REST + SSE. A
//! [`Gateway`] sits between it and the wire. For the agent server it passes every request and
//! answer through unchanged. For a backend without a conversation API of its own (OpenAI Chat
//! Completions, …) it *is* the agent server, in the page: it answers the session's
//! conversation requests from a thread store ([`threads`]), turns a send into the backend's
//! request with the whole history, and turns the backend's stream back into `stream.*`
//! frames. So every rule the session keeps (drafts, stop, errors, titles, history) holds on
//! every backend, and each mapping is tested natively with recorded fixtures.
//!
//! The edge feeds the gateway what the session emitted ([`Gateway::from_session`]) and what
//! the wire answered ([`Gateway::from_wire`]), then drains [`Gateway::poll_output`]: requests
//! for the wire (or for the agent in the page), inputs for the session, and threads to save
//! or delete.
//!
//! The session's requests are typed calls ([`Call`]: the endpoint and its values), which is
//! what a backend's gateway reads; only the agent server's gateway renders them to HTTP. What
//! differs between backends is each backend's own [`Backend`], one file each, registered on
//! one line of the `backends!` list below; the shared code (the thread store, the agent
//! server's endpoints played in the page) asks only the trait and the backend's
//! [`Capabilities`]. The recipe for a new backend is in [`backend`].

pub mod agent_sdk;
pub mod backend;
pub mod failure;
pub mod options;
pub mod reply;
mod stateless;
pub mod threads;

use std::collections::VecDeque;

use crate::endpoint::Call;
use crate::time::Millis;
use crate::{HttpRequest, Input, Output, RequestId};

pub use self::backend::{Backend, Capabilities};
pub use self::threads::{Thread, ThreadIndex};

/// Declares the backends: each line is a variant of [`TransportKind`] and the module (one
/// file or folder beside this one) that holds its `CAPABILITIES`, its `build` and its
/// [`Backend`]. The one place that names every backend (see [`backend`] for the recipe).
macro_rules! backends {
    ($( $(#[$attr:meta])* $variant:ident => $module:ident, )*) => {
        $( pub mod $module; )*

        /// Which backend a chat talks to (`transport` prop, attribute and `?transport=`).
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub enum TransportKind {
            $( $(#[$attr])* $variant, )*
        }

        impl TransportKind {
            /// Every backend, in the order they are declared.
            pub const ALL: &'static [TransportKind] = &[$(TransportKind::$variant),*];

            /// What this backend can do, as data (no code of the backend is needed).
            pub fn capabilities(self) -> &'static Capabilities {
                match self {
                    $( TransportKind::$variant => &$module::CAPABILITIES, )*
                }
            }

            /// This backend behind the gateway, `None` when the gateway passes everything
            /// through.
            fn build(self, options: &TransportOptions) -> Option<Box<dyn Backend>> {
                match self {
                    $( TransportKind::$variant => $module::build(options), )*
                }
            }
        }
    };
}

backends! {
    /// The Cognipeer agent server: conversations, streaming, answerable cards.
    #[default]
    AgentServer => agent_server,
    /// OpenAI Chat Completions or any compatible server (`POST {baseUrl}/chat/completions`):
    /// conversations are kept in the page; tool calls are shown, never answered.
    ChatCompletions => chat_completions,
    /// OpenAI Responses or the Cognipeer Console client API (`POST {baseUrl}/responses`):
    /// conversations are kept in the page, turns chained by `previous_response_id`; the
    /// actions a response waits on are shown as read-only cards.
    Responses => responses,
    /// An A2A agent (1.0, or 0.3 when its card says so; JSON-RPC at the address its card
    /// names, else `{baseUrl}`; the card where the A2A SDK's client finds it): conversations
    /// are kept in the page with their context and open task; a task that waits for input is
    /// answered by the next message, or in its card.
    A2a => a2a,
    /// A Cogitator server (`POST {baseUrl}/agents/:name/stream`):
    /// conversations are kept in the page, each in the server's thread of the same id; a run
    /// that pauses for approval shows cards answered by `POST /agents/:name/resume`.
    Cogitator => cogitator,
    /// A Vercel AI SDK route (`POST {baseUrl}`, `useChat`'s body, the UI message stream):
    /// conversations are kept in the page and sent whole; approvals are answerable cards.
    AiSdk => ai_sdk,
    /// An AG-UI agent (`POST {baseUrl}` with a `RunAgentInput`, an SSE event stream back):
    /// conversations are kept in the page; interrupts and confirmations are answerable cards,
    /// answered by the next run.
    AgUi => ag_ui,
    /// A LangGraph server (`POST {baseUrl}/threads/:thread/runs/stream`): conversations are
    /// kept in the page, each on a server thread; interrupts show cards answered by resuming
    /// the run.
    Langgraph => langgraph,
    /// An agent the host runs in the page (a Rust `Agent`, given to the chat beside this
    /// kind): conversations are kept in the page; its pauses are answerable cards.
    InProcess => in_process,
}

impl TransportKind {
    /// Reads a configured name (`agent-server`, `chat-completions`, `responses`, `a2a`,
    /// `cogitator`, `ai-sdk`, `ag-ui`, `in-process`); `None` for anything else.
    /// `cogitator`, `langgraph`, `in-process`); `None` for anything else.
    pub fn parse(name: &str) -> Option<TransportKind> {
        let name = name.trim().to_ascii_lowercase();
        TransportKind::ALL
            .iter()
            .copied()
            .find(|k| k.capabilities().names.contains(&name.as_str()))
    }

    /// Reads a backend a page or element can be pointed at by name: every one except the
    /// in-process agent, which only a Rust host can hand over (`None` for it, as for a name
    /// not known).
    pub fn parse_by_name(name: &str) -> Option<TransportKind> {
        TransportKind::parse(name).filter(|k| k.capabilities().named_by_page)
    }

    /// The configured name.
    pub fn as_str(self) -> &'static str {
        self.capabilities().name()
    }

    /// Whether this backend can take answers to cards at all: the agent server and an
    /// agent in the page always, A2A by a message on the waiting task; Responses only at a
    /// configured action endpoint ([`TransportOptions::can_resolve`] decides with the
    /// configuration).
    pub fn can_resolve(self) -> bool {
        self.capabilities().can_resolve
    }

    /// Whether answers go to an action endpoint the host configures (`actionUrl`): Responses
    /// (the Console's endpoint).
    pub fn answers_at_action_url(self) -> bool {
        self.capabilities().answers_at_action_url
    }

    /// Whether conversations are kept in the page's thread store.
    pub fn keeps_threads(self) -> bool {
        self.capabilities().keeps_threads
    }

    /// Whether its requests are run by an agent in the page instead of fetched.
    pub fn runs_in_page(self) -> bool {
        self.capabilities().runs_in_page
    }

    /// Where its threads are kept in `localStorage` for the server at `base_url`.
    pub fn storage_prefix(self, base_url: &str) -> String {
        self.capabilities().storage_prefix(base_url)
    }
}

/// Where a stateless backend's conversations are kept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ThreadStoreKind {
    /// In memory: gone on reload.
    Memory,
    /// In `localStorage` (default): one key per thread under a prefix, plus an index.
    #[default]
    Local,
}

impl ThreadStoreKind {
    /// Reads `memory` / `local`; `None` for anything else.
    pub fn parse(name: &str) -> Option<ThreadStoreKind> {
        match name.trim().to_ascii_lowercase().as_str() {
            "memory" => Some(ThreadStoreKind::Memory),
            "local" | "localstorage" => Some(ThreadStoreKind::Local),
            _ => None,
        }
    }
}

/// How a chat reaches its backend, besides the base URL and credentials.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TransportOptions {
    /// The backend.
    pub kind: TransportKind,
    /// The model sent to a Chat Completions server; default: the agent id.
    pub model: Option<String>,
    /// The agent shown by a stateless backend (the picker's one entry); default: the model,
    /// else `default`.
    pub agent_id: Option<String>,
    /// Where a stateless backend's conversations are kept.
    pub thread_store: ThreadStoreKind,
    /// Where answers to cards go, for a backend that takes them at an endpoint of their own
    /// (Responses: the Console's action endpoint): an absolute URL, or a path
    /// below the base URL. `{actionId}` and `{conversationId}` in it are replaced by the
    /// action's id and the backend's conversation id. Without it, those backends' cards are
    /// read-only.
    pub action_url: Option<String>,
    /// Responses only: keep no state on the server. Each turn resends the conversation's
    /// history and asks `store: false`, instead of chaining by `previous_response_id` (the
    /// default).
    pub resend_history: bool,
    /// A2A only: where the agent card is (an absolute URL, or a path from the base URL's site
    /// root, `/…`), when it is not where the SDK's client looks. Only it is asked.
    pub agent_card_url: Option<String>,
    /// The base URL, absolute (the page resolves a relative one), for a backend that looks
    /// beside or above it (the A2A card at the site root); set by the chat from its base
    /// URL, not an option by name. `None`: only paths below the base URL are used.
    pub base_url: Option<String>,
}

impl TransportOptions {
    /// These options for an agent the host runs in the page: the registered backend whose
    /// requests run in the page, the rest kept.
    pub fn in_page(self) -> TransportOptions {
        let kind = TransportKind::ALL
            .iter()
            .copied()
            .find(|k| k.runs_in_page())
            .unwrap_or(self.kind);
        TransportOptions { kind, ..self }
    }

    /// Whether conversations are kept in the page's thread store (the gateway plays the
    /// agent server), so a store has to be read before the first request.
    pub fn keeps_threads(&self) -> bool {
        self.kind.keeps_threads()
    }

    /// Where this backend's threads are kept in `localStorage` for the server at `base_url`.
    pub fn storage_prefix(&self, base_url: &str) -> String {
        self.kind.storage_prefix(base_url)
    }

    /// Whether cards can be answered through this configuration: the backend takes
    /// answers and, where it needs one, an action endpoint is configured.
    pub fn can_resolve(&self) -> bool {
        self.kind.capabilities().can_resolve_with(self)
    }

    /// The one agent a stateless backend lists: the agent id, else the model, else `default`.
    pub fn agent(&self) -> String {
        self.agent_id
            .clone()
            .or_else(|| self.model.clone())
            .filter(|a| !a.trim().is_empty())
            .unwrap_or_else(|| "default".to_owned())
    }
}

/// What the gateway asks of the edge.
#[derive(Clone, Debug, PartialEq)]
pub enum GatewayOutput {
    /// Run a plain request on the wire; report it with [`Gateway::from_wire`].
    Send(HttpRequest),
    /// Run a streaming request on the wire.
    OpenStream(HttpRequest),
    /// Run a turn with the agent in the page instead of the wire (its backend says so);
    /// report what it says with [`Gateway::from_wire`], as for a request.
    RunInPage {
        /// The turn.
        request: HttpRequest,
        /// Whether its events are fed back as they come (else as one whole answer).
        stream: bool,
    },
    /// Abort a wire request.
    Abort(RequestId),
    /// Feed this to the session (an answer to one of its requests, a chunk, a close).
    Session(Input),
    /// Keep this thread (create or replace it) in the thread store.
    SaveThread(Thread),
    /// Remove this thread from the thread store.
    DeleteThread(String),
    /// Something for the developer's console, never for the person (a skipped frame).
    Log(String),
}

/// The translation between the session and one backend. See the module docs.
#[derive(Debug)]
pub struct Gateway {
    inner: Inner,
    outputs: VecDeque<GatewayOutput>,
}

#[derive(Debug)]
enum Inner {
    /// The agent server: everything passes through with the session's own ids.
    Direct,
    /// A backend whose code is still on its way.
    Awaiting(Awaiting),
    /// A backend without conversations of its own. Behind a trait object, so that only the
    /// code that builds one (a chunk of its own in the element and the page) names its
    /// methods.
    Stateless(Box<dyn Emulation>),
}

/// What waits for a backend whose code is on its way: the session's requests, in order, and
/// threads a host's store read meanwhile.
#[derive(Debug, Default)]
struct Awaiting {
    requests: Vec<(Call, bool)>,
    threads: Option<Vec<Thread>>,
}

/// What the gateway asks of the agent server played in the page.
trait Emulation: std::fmt::Debug {
    fn request(
        &mut self,
        now: Millis,
        call: Call,
        stream: bool,
        outputs: &mut VecDeque<GatewayOutput>,
    );
    fn abort(&mut self, now: Millis, id: RequestId, outputs: &mut VecDeque<GatewayOutput>);
    fn wire(&mut self, now: Millis, input: Input, outputs: &mut VecDeque<GatewayOutput>);
    fn threads_loaded(
        &mut self,
        now: Millis,
        threads: Vec<Thread>,
        outputs: &mut VecDeque<GatewayOutput>,
    );
}

impl Emulation for stateless::Stateless {
    fn request(
        &mut self,
        now: Millis,
        call: Call,
        stream: bool,
        outputs: &mut VecDeque<GatewayOutput>,
    ) {
        stateless::Stateless::request(self, now, call, stream, outputs);
    }

    fn abort(&mut self, now: Millis, id: RequestId, outputs: &mut VecDeque<GatewayOutput>) {
        stateless::Stateless::abort(self, now, id, outputs);
    }

    fn wire(&mut self, now: Millis, input: Input, outputs: &mut VecDeque<GatewayOutput>) {
        stateless::Stateless::wire(self, now, input, outputs);
    }

    fn threads_loaded(
        &mut self,
        now: Millis,
        threads: Vec<Thread>,
        outputs: &mut VecDeque<GatewayOutput>,
    ) {
        stateless::Stateless::threads_loaded(self, now, threads, outputs);
    }
}

impl Gateway {
    /// The agent server's gateway: requests and answers pass through unchanged.
    pub fn direct() -> Gateway {
        Gateway {
            inner: Inner::Direct,
            outputs: VecDeque::new(),
        }
    }

    /// The gateway for `options`, with the threads the store already holds and a random
    /// `seed` for new ids.
    pub fn new(options: &TransportOptions, threads: Vec<Thread>, seed: u64) -> Gateway {
        match options.kind.build(options) {
            Some(backend) => Gateway::with_backend(options, backend, threads, seed),
            None => Gateway::direct(),
        }
    }

    /// The gateway that plays the agent server for `backend` (one of the registered ones, or
    /// a host's own), configured by `options`, with the threads the store already holds and
    /// a random `seed` for new ids.
    pub fn with_backend(
        options: &TransportOptions,
        backend: Box<dyn Backend>,
        threads: Vec<Thread>,
        seed: u64,
    ) -> Gateway {
        let emulation = stateless::Stateless::new(options, backend, threads, seed);
        Gateway {
            inner: Inner::Stateless(Box::new(emulation)),
            outputs: VecDeque::new(),
        }
    }

    /// The gateway for `options` whose threads are still being read from a store the host
    /// implements (an asynchronous one): the session's requests wait until
    /// [`Gateway::threads_loaded`], so the history never shows empty for a moment. The agent
    /// server's gateway has no threads and waits for nothing.
    pub fn loading(options: &TransportOptions, seed: u64) -> Gateway {
        let inner = match options.kind.build(options) {
            None => Inner::Direct,
            Some(backend) => {
                let mut emulation = stateless::Stateless::new(options, backend, Vec::new(), seed);
                emulation.wait_for_threads();
                Inner::Stateless(Box::new(emulation))
            }
        };
        Gateway {
            inner,
            outputs: VecDeque::new(),
        }
    }

    /// The gateway of a backend whose code is still being fetched (the element and the page
    /// load the backends other than the agent server on first use): the
    /// session's requests wait, in order, until [`Gateway::arrived`] (however long the edge
    /// takes to fetch it, retries included; Stop drops a waiting request).
    pub fn awaiting() -> Gateway {
        Gateway {
            inner: Inner::Awaiting(Awaiting::default()),
            outputs: VecDeque::new(),
        }
    }

    /// The backend's gateway (built by [`Gateway::new`] or [`Gateway::loading`]) arrived: it
    /// takes over, gets the threads a host's store read meanwhile, then the requests that
    /// waited, in order. Ignored unless this gateway was awaiting one.
    pub fn arrived(&mut self, now: Millis, backend: Gateway) {
        let Inner::Awaiting(waiting) = &mut self.inner else {
            return;
        };
        let waited = std::mem::take(waiting);
        self.inner = backend.inner;
        self.outputs.extend(backend.outputs);
        if let Some(threads) = waited.threads {
            self.threads_loaded(now, threads);
        }
        for (req, stream) in waited.requests {
            let out = if stream {
                Output::OpenStream(req)
            } else {
                Output::Send(req)
            };
            self.from_session(now, out);
        }
    }

    /// Whether the backend's code is still awaited.
    pub fn is_awaiting(&self) -> bool {
        matches!(self.inner, Inner::Awaiting(_))
    }

    /// The host's store has read its threads: the waiting requests of the session are
    /// answered from them, in order.
    pub fn threads_loaded(&mut self, now: Millis, threads: Vec<Thread>) {
        match &mut self.inner {
            Inner::Stateless(s) => s.threads_loaded(now, threads, &mut self.outputs),
            Inner::Awaiting(waiting) => waiting.threads = Some(threads),
            Inner::Direct => {}
        }
    }

    /// Takes one output of the session. Requests and aborts are the gateway's; anything else
    /// (events, file reads) is handed back for the edge to run as before.
    pub fn from_session(&mut self, now: Millis, out: Output) -> Option<Output> {
        match (&mut self.inner, out) {
            (Inner::Direct, Output::Send(call)) => {
                self.outputs.push_back(GatewayOutput::Send(call.http()))
            }
            (Inner::Direct, Output::OpenStream(call)) => self
                .outputs
                .push_back(GatewayOutput::OpenStream(call.http())),
            (Inner::Direct, Output::Abort(id)) => self.outputs.push_back(GatewayOutput::Abort(id)),
            (Inner::Stateless(s), Output::Send(req)) => {
                s.request(now, req, false, &mut self.outputs)
            }
            (Inner::Stateless(s), Output::OpenStream(req)) => {
                s.request(now, req, true, &mut self.outputs)
            }
            (Inner::Stateless(s), Output::Abort(id)) => s.abort(now, id, &mut self.outputs),
            (Inner::Awaiting(waiting), Output::Send(req)) => waiting.requests.push((req, false)),
            (Inner::Awaiting(waiting), Output::OpenStream(req)) => {
                waiting.requests.push((req, true))
            }
            // Never sent: it is dropped, and nothing reports back (as for a request aborted
            // before its response).
            (Inner::Awaiting(waiting), Output::Abort(id)) => {
                waiting.requests.retain(|(req, _)| req.id != id)
            }
            (_, other) => return Some(other),
        }
        None
    }

    /// Takes what the wire answered to one of the gateway's requests.
    pub fn from_wire(&mut self, now: Millis, input: Input) {
        match &mut self.inner {
            Inner::Direct => self.outputs.push_back(GatewayOutput::Session(input)),
            Inner::Stateless(s) => s.wire(now, input, &mut self.outputs),
            // Nothing was sent while awaiting: an answer can only be a late one of a
            // gateway this one replaced.
            Inner::Awaiting(_) => {}
        }
    }

    /// The next thing for the edge to do.
    pub fn poll_output(&mut self) -> Option<GatewayOutput> {
        self.outputs.pop_front()
    }
}

/// What the edge has to run after [`pump`]: the session's own outputs that are not requests
/// (events, file reads), and the gateway's wire requests, aborts, saves and logs.
#[derive(Clone, Debug, PartialEq)]
// The gateway's outputs are mostly requests, each moved once on its way to the edge: boxing
// them would allocate for every one to save a few bytes on the session's.
#[allow(clippy::large_enum_variant)]
pub enum Work {
    /// An output of the session the gateway does not take (events, file reads).
    Session(Box<Output>),
    /// An output of the gateway (never [`GatewayOutput::Session`]: those are fed in).
    Gateway(GatewayOutput),
}

/// Runs the session and the gateway against each other until neither has anything left for
/// the other: the session's requests go to the gateway, the gateway's answers go back to the
/// session (a stateless backend answers most requests at once), and what remains is for the
/// edge, in order.
pub fn pump(session: &mut crate::Session, gateway: &mut Gateway, now: Millis) -> Vec<Work> {
    let mut work = Vec::new();
    loop {
        let mut moved = false;
        while let Some(out) = session.poll_output() {
            moved = true;
            if let Some(other) = gateway.from_session(now, out) {
                work.push(Work::Session(Box::new(other)));
            }
        }
        while let Some(out) = gateway.poll_output() {
            moved = true;
            match out {
                GatewayOutput::Session(input) => session.handle(now, input),
                other => work.push(Work::Gateway(other)),
            }
        }
        if !moved {
            return work;
        }
    }
}
