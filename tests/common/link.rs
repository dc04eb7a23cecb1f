//! A session behind a stateless backend's gateway (issue 15), for the transport tests.
#![allow(dead_code)] // each test file uses a different part

use agent_chat_ui::core::transport::reply::Delta;
use agent_chat_ui::core::transport::threads::Thread;
use agent_chat_ui::core::transport::{
    pump, Gateway, GatewayOutput, TransportKind, TransportOptions, Work,
};
use agent_chat_ui::core::{
    Command, HttpRequest, Input, Millis, Session, SessionConfig, SessionEvent, SessionOptions,
};

/// The text the deltas of a reply add up to.
pub fn text_of(deltas: &[Delta]) -> String {
    deltas
        .iter()
        .filter_map(|d| match d {
            Delta::Text(t) => Some(t.as_str()),
            _ => None,
        })
        .collect()
}

/// A session behind the gateway of a stateless backend, with what reached the wire and the
/// store.
pub struct Link {
    pub session: Session,
    pub gateway: Gateway,
    pub now: u64,
    pub wire: Vec<(HttpRequest, bool)>,
    pub saved: Vec<Thread>,
    pub deleted: Vec<String>,
    pub events: Vec<SessionEvent>,
    pub logs: Vec<String>,
    /// The wire requests the gateway dropped.
    pub aborted: Vec<agent_chat_ui::core::RequestId>,
}

impl Link {
    pub fn new(kind: TransportKind, threads: Vec<Thread>) -> Link {
        let options = TransportOptions {
            kind,
            model: Some("gpt-test".into()),
            ..TransportOptions::default()
        };
        Link::with_options(options, threads)
    }

    /// A link to the backend `options` describes (an action endpoint, a thread store…).
    pub fn with_options(options: TransportOptions, threads: Vec<Thread>) -> Link {
        let config = SessionConfig {
            can_resolve: options.can_resolve(),
            ..SessionConfig::default()
        };
        Link {
            session: Session::new(config),
            gateway: Gateway::new(&options, threads, 7),
            now: 1_764_000_000_000,
            wire: vec![],
            saved: vec![],
            deleted: vec![],
            events: vec![],
            logs: vec![],
            aborted: vec![],
        }
    }

    pub fn run(&mut self) {
        for w in pump(&mut self.session, &mut self.gateway, Millis(self.now)) {
            match w {
                Work::Gateway(GatewayOutput::Send(r)) => self.wire.push((r, false)),
                Work::Gateway(GatewayOutput::OpenStream(r)) => self.wire.push((r, true)),
                Work::Gateway(GatewayOutput::RunInPage { request, stream }) => {
                    self.wire.push((request, stream))
                }
                Work::Gateway(GatewayOutput::SaveThread(t)) => self.saved.push(t),
                Work::Gateway(GatewayOutput::DeleteThread(id)) => self.deleted.push(id),
                Work::Gateway(GatewayOutput::Log(l)) => self.logs.push(l),
                Work::Gateway(GatewayOutput::Abort(id)) => self.aborted.push(id),
                Work::Gateway(other) => panic!("unexpected {other:?}"),
                Work::Session(out) => match *out {
                    agent_chat_ui::core::Output::Event(e) => self.events.push(e),
                    other => panic!("unexpected {other:?}"),
                },
            }
        }
    }

    /// Turns streaming off: sends are answered whole.
    pub fn without_streaming(&mut self) {
        let options = SessionOptions {
            streaming: false,
            ..self.session.options()
        };
        self.cmd(Command::SetOptions(options));
    }

    pub fn cmd(&mut self, c: Command) {
        self.session.handle(Millis(self.now), Input::User(c));
        self.run();
    }

    pub fn wire_input(&mut self, input: Input) {
        self.gateway.from_wire(Millis(self.now), input);
        self.run();
    }

    pub fn last_wire(&self) -> HttpRequest {
        self.wire.last().expect("a wire request").0.clone()
    }

    pub fn stream(&mut self, body: &str) {
        let id = self.last_wire().id;
        self.wire_input(Input::StreamChunk {
            id,
            bytes: body.as_bytes().to_vec(),
        });
        self.wire_input(Input::StreamClosed { id, error: None });
    }

    /// The threads as a reload reads them back: each saved copy through its stored text.
    pub fn stored_threads(&self) -> Vec<Thread> {
        self.threads()
            .iter()
            .map(|t| Thread::from_text(&t.to_text()).expect("a saved thread reads back"))
            .collect()
    }

    /// The latest saved copy of every thread.
    pub fn threads(&self) -> Vec<Thread> {
        let mut out: Vec<Thread> = Vec::new();
        for t in &self.saved {
            out.retain(|o| o.id() != t.id());
            out.push(t.clone());
        }
        out.retain(|t| !self.deleted.iter().any(|d| d == t.id()));
        out
    }
}
