//! Shared test harness: a `Session` plus what it asked for, with helpers to answer.
#![allow(dead_code)] // each test file uses a different part

pub mod cogitator;
pub mod failing;
pub mod link;
pub mod source;

use agent_chat_ui::core::{
    Command, HttpRequest, HttpResponse, Input, Method, Millis, Output, Session, SessionConfig,
    SessionEvent, TransportError,
};

pub const AGENTS: &str = r#"{"agents":[{"id":"echo","name":"Echo","description":"Repeats"}]}"#;
pub const CONV: &str = r#"{"conversation":{"id":"conv_1","agentId":"echo","createdAt":"2025-05-01T10:00:00.000Z","updatedAt":"2025-05-01T10:00:00.000Z"}}"#;
pub const EMPTY_LIST: &str =
    r#"{"conversations":[],"total":0,"limit":20,"offset":0,"hasMore":false}"#;

/// A session plus the outputs it produced, with helpers to answer requests.
pub struct Harness {
    pub s: Session,
    pub now: u64,
    pub requests: Vec<HttpRequest>,
    pub streams: Vec<HttpRequest>,
    pub events: Vec<SessionEvent>,
    pub aborted: Vec<u64>,
    /// Files the session asked to read: `(index in the AddFiles list, local id)`.
    pub reads: Vec<(usize, String)>,
}

impl Harness {
    pub fn new(config: SessionConfig) -> Self {
        Harness {
            s: Session::new(config),
            now: 1_000,
            requests: vec![],
            streams: vec![],
            events: vec![],
            aborted: vec![],
            reads: vec![],
        }
    }

    pub fn feed(&mut self, input: Input) {
        self.s.handle(Millis(self.now), input);
        while let Some(out) = self.s.poll_output() {
            match out {
                Output::Send(r) => self.requests.push(r.http()),
                Output::OpenStream(r) => self.streams.push(r.http()),
                Output::Abort(id) => self.aborted.push(id.0),
                Output::Event(e) => self.events.push(e),
                Output::ReadFile { index, id } => self.reads.push((index, id)),
            }
        }
    }

    pub fn cmd(&mut self, c: Command) {
        self.feed(Input::User(c));
    }

    /// Answers the oldest open plain request whose path starts with `prefix`.
    pub fn answer(&mut self, method: Method, prefix: &str, status: u16, body: &str) -> HttpRequest {
        let pos = self
            .requests
            .iter()
            .position(|r| r.method == method && r.path.starts_with(prefix))
            .unwrap_or_else(|| panic!("no {method:?} {prefix} in {:?}", self.requests));
        let req = self.requests.remove(pos);
        self.feed(Input::Response {
            id: req.id,
            result: Ok(HttpResponse {
                status,
                body: body.into(),
                date: None,
                retry_after: None,
            }),
        });
        req
    }

    pub fn started_with_agent(config: SessionConfig) -> Self {
        let mut h = Harness::new(config);
        h.cmd(Command::Start);
        h.answer(Method::Get, "/agents", 200, AGENTS);
        h.answer(Method::Get, "/conversations?", 200, EMPTY_LIST);
        h
    }

    /// A session opening `conversation` (no history), the echo agent listed: the E5 request
    /// is the one left to answer.
    pub fn opening(conversation: &str) -> Self {
        let mut h = Harness::new(SessionConfig {
            conversation_id: Some(conversation.into()),
            show_history: false,
            ..Default::default()
        });
        h.cmd(Command::Start);
        h.answer(
            Method::Get,
            "/agents",
            200,
            r#"{"agents":[{"id":"echo","name":"Echo"}]}"#,
        );
        h
    }

    pub fn chunk(&mut self, stream: usize, text: &str) {
        let id = self.streams[stream].id;
        self.feed(Input::StreamChunk {
            id,
            bytes: text.as_bytes().to_vec(),
        });
    }

    pub fn close(&mut self, stream: usize, error: Option<TransportError>) {
        let id = self.streams[stream].id;
        self.feed(Input::StreamClosed { id, error });
    }

    pub fn drafts(&self) -> Vec<String> {
        self.events
            .iter()
            .filter_map(|e| match e {
                SessionEvent::DraftReturned(t) => Some(t.clone()),
                _ => None,
            })
            .collect()
    }
}

pub fn frame(json: &str) -> String {
    format!("data: {json}\n\n")
}
