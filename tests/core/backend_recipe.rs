//! Issue 34: a backend is one file. This file is one: an "echo" backend (a made-up server
//! that answers `POST /echo` with plain text lines) written only against the `Backend` trait
//! and handed to the gateway, and every rule of the session holds on it — the agent list,
//! conversations kept in the page, streaming, a whole reply, the title, the history and a
//! refusal in the agent server's words. No browser.
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::transport::backend::{
    Backend, Capabilities, ReadError, SendCall, WireCall,
};
use agent_chat_ui::core::transport::reply::{Delta, Reply, ReplyDecoder};
use agent_chat_ui::core::transport::{Gateway, TransportKind, TransportOptions};
use agent_chat_ui::core::{Command, HttpResponse, Input, Method, Run, Session, SessionConfig};
use serde_json::json;

use crate::common::link;
use link::Link;

/// What the echo backend can do.
const ECHO: Capabilities = Capabilities {
    names: &["echo"],
    named_by_page: true,
    keeps_threads: true,
    can_resolve: false,
    answers_at_action_url: false,
    remembers: true,
    runs_in_page: false,
    storage_tag: Some("echo"),
};

/// The echo backend: the request says the text, the reply is lines of text.
#[derive(Debug)]
struct Echo;

/// Reads the reply's lines, split anywhere.
#[derive(Debug, Default)]
struct Lines {
    held: Vec<u8>,
    text: String,
}

impl Lines {
    fn line(&mut self, line: &[u8], out: &mut Vec<Delta>) {
        let line = String::from_utf8_lossy(line);
        if let Some(why) = line.strip_prefix("error: ") {
            return out.push(Delta::Error(
                agent_chat_ui::core::transport::failure::Failure::new(
                    agent_chat_ui::core::transport::failure::FailureKind::AgentError,
                    Some(why),
                ),
            ));
        }
        if !line.is_empty() {
            self.text.push_str(&line);
            out.push(Delta::Text(line.into_owned()));
        }
    }
}

impl ReplyDecoder for Lines {
    fn push(&mut self, bytes: &[u8]) -> Vec<Delta> {
        self.held.extend_from_slice(bytes);
        let mut out = Vec::new();
        while let Some(end) = self.held.iter().position(|b| *b == b'\n') {
            let line: Vec<u8> = self.held.drain(..=end).collect();
            self.line(&line[..end], &mut out);
        }
        out
    }

    fn finish(&mut self) -> Vec<Delta> {
        let rest = std::mem::take(&mut self.held);
        let mut out = Vec::new();
        self.line(&rest, &mut out);
        out
    }

    fn ending(&self) -> Reply {
        Reply {
            content: self.text.clone(),
            ..Reply::default()
        }
    }
}

impl Backend for Echo {
    fn capabilities(&self) -> &'static Capabilities {
        &ECHO
    }

    fn send_request(&self, send: &SendCall<'_>) -> WireCall {
        WireCall {
            path: "/echo".into(),
            body: json!({ "say": send.text, "turns": send.thread.messages.len() }),
        }
    }

    fn decoder(&self) -> Box<dyn ReplyDecoder> {
        Box::new(Lines::default())
    }

    fn read_reply(&self, body: &str) -> Result<Reply, ReadError> {
        let mut lines = Lines::default();
        let mut deltas = lines.push(body.as_bytes());
        deltas.extend(lines.finish());
        match deltas.into_iter().find_map(|d| match d {
            Delta::Error(why) => Some(why),
            _ => None,
        }) {
            Some(why) => Err(ReadError::Refused(why)),
            None => Ok(lines.ending()),
        }
    }
}

fn echo() -> Link {
    let options = TransportOptions {
        agent_id: Some("parrot".into()),
        ..TransportOptions::default()
    };
    let mut link = Link::with_options(options.clone(), vec![]);
    link.session = Session::new(SessionConfig {
        can_resolve: ECHO.can_resolve_with(&options),
        ..SessionConfig::default()
    });
    link.gateway = Gateway::with_backend(&options, Box::new(Echo), vec![], 7);
    link.cmd(Command::Start);
    link
}

#[test]
fn i34_a_backend_written_in_one_file_streams_keeps_threads_and_titles() {
    let mut l = echo();
    assert_eq!(l.session.agents()[0].id, "parrot", "the default agent list");
    l.cmd(Command::Send("Polly wants a cracker".into()));
    let (req, streamed) = l.wire.last().unwrap().clone();
    assert!(streamed);
    assert_eq!((req.method, req.path.as_str()), (Method::Post, "/echo"));
    let body: serde_json::Value = serde_json::from_str(req.body.as_deref().unwrap()).unwrap();
    assert_eq!(body, json!({ "say": "Polly wants a cracker", "turns": 0 }));
    l.stream("Polly wants\n a cracker\n");
    assert_eq!(l.session.run(), Run::Idle);
    let reply = l.session.messages().last().unwrap();
    assert_eq!(reply.content.display_text(), "Polly wants a cracker");
    let threads = l.stored_threads();
    assert_eq!(threads.len(), 1, "the conversation is kept in the page");
    assert_eq!(threads[0].messages.len(), 2);
    assert_eq!(
        threads[0].conversation["title"], "Polly wants a cracker",
        "the first exchange titles it"
    );
    l.cmd(Command::Send("Again".into()));
    let body: serde_json::Value =
        serde_json::from_str(l.last_wire().body.as_deref().unwrap()).unwrap();
    assert_eq!(body["turns"], 2, "the next turn sees the history");
}

#[test]
fn i34_a_backend_written_in_one_file_reads_a_whole_reply_and_a_refusal() {
    let mut l = echo();
    l.without_streaming();
    l.cmd(Command::Send("Hello".into()));
    let (req, streamed) = l.wire.last().unwrap().clone();
    assert!(!streamed);
    l.wire_input(Input::Response {
        id: req.id,
        result: Ok(HttpResponse {
            status: 200,
            body: "Hello\n".into(),
            date: None,
            retry_after: None,
        }),
    });
    assert_eq!(
        l.session.messages().last().unwrap().content.display_text(),
        "Hello"
    );
    l.cmd(Command::Send("Boom".into()));
    let id = l.last_wire().id;
    l.wire_input(Input::Response {
        id,
        result: Ok(HttpResponse {
            status: 200,
            body: "error: the parrot flew away\n".into(),
            date: None,
            retry_after: None,
        }),
    });
    let error = l.session.error().expect("the turn failed").to_string();
    assert!(error.contains("the parrot flew away"), "{error}");
}

#[test]
fn i34_every_registered_backend_has_a_name_that_reads_back() {
    for kind in TransportKind::ALL {
        assert_eq!(TransportKind::parse(kind.as_str()), Some(*kind));
        assert_eq!(kind.keeps_threads(), kind.capabilities().keeps_threads);
    }
    assert_eq!(TransportKind::parse("echo"), None, "not registered");
}

/// Issue 34: the session hands the gateway typed calls, never HTTP text: a backend's gateway
/// answers the call as it is (no path to parse exists), and only the agent server's own
/// gateway renders it to a method, a path and a body.
#[test]
fn i34_the_session_hands_typed_calls_and_only_the_direct_gateway_renders_them() {
    use agent_chat_ui::core::endpoint::{Call, Endpoint};
    use agent_chat_ui::core::transport::GatewayOutput;
    use agent_chat_ui::core::{Method, Millis, Output, RequestId};
    let agents = |id| Call {
        id: RequestId(id),
        endpoint: Endpoint::Agents,
    };

    let options = TransportOptions::default();
    let mut gateway = Gateway::with_backend(&options, Box::new(Echo), vec![], 7);
    assert!(gateway
        .from_session(Millis(1), Output::Send(agents(1)))
        .is_none());
    let outs: Vec<GatewayOutput> = std::iter::from_fn(|| gateway.poll_output()).collect();
    let answered: Vec<(RequestId, u16)> = outs
        .iter()
        .filter_map(|out| match out {
            GatewayOutput::Session(Input::Response {
                id,
                result: Ok(resp),
            }) => Some((*id, resp.status)),
            _ => None,
        })
        .collect();
    assert_eq!(answered, [(RequestId(1), 200)], "answered from the call");
    assert!(
        !outs
            .iter()
            .any(|o| matches!(o, GatewayOutput::Send(r) if r.path == "/agents")),
        "the backend's gateway never renders the agent server's path: {outs:?}"
    );

    let mut direct = Gateway::direct();
    assert!(direct
        .from_session(Millis(1), Output::Send(agents(2)))
        .is_none());
    match direct.poll_output() {
        Some(GatewayOutput::Send(req)) => {
            assert_eq!(
                (req.id, req.method, req.path.as_str(), req.body),
                (RequestId(2), Method::Get, "/agents", None)
            );
        }
        other => panic!("the agent server's gateway renders the call: {other:?}"),
    }
}
