//! `ChatStore`'s drive loop, natively (DESIGN §5): a detached store over a fresh session (its
//! requests are recorded, not sent), commands dispatched, the recorded requests answered with
//! `feed`, then the published signals and the host callbacks checked. Natively the store has
//! no animation frames or timers: it publishes at once and never fires `Input::Timeout`.
#![cfg(not(target_arch = "wasm32"))]

use std::future::Future;
use std::sync::{Arc, Mutex};

use agent_chat_ui::core::{
    ChatError, Command, HttpRequest, HttpResponse, Input, Method, Role, Run, Session, SessionConfig,
};
use agent_chat_ui::store::{ChatCallbacks, ChatStore};
use leptos::prelude::*;

use crate::common;

use common::{frame, AGENTS, CONV, EMPTY_LIST};

/// A detached store inside a reactive owner (kept alive for the test).
struct Fixture {
    _owner: Owner,
    store: ChatStore,
    requests: Vec<HttpRequest>,
}

impl Fixture {
    fn new(config: SessionConfig, callbacks: ChatCallbacks) -> Self {
        let owner = Owner::new();
        owner.set();
        let store = ChatStore::detached(Session::new(config), callbacks);
        Fixture {
            _owner: owner,
            store,
            requests: Vec::new(),
        }
    }

    /// Started, with the agent list and the (empty) history answered.
    fn started(callbacks: ChatCallbacks) -> Self {
        let mut f = Fixture::new(SessionConfig::default(), callbacks);
        f.store.dispatch(Command::Start);
        f.answer(Method::Get, "/agents", 200, AGENTS);
        f.answer(Method::Get, "/conversations?", 200, EMPTY_LIST);
        f
    }

    /// Answers the oldest recorded request of `method` whose path starts with `prefix`.
    fn answer(&mut self, method: Method, prefix: &str, status: u16, body: &str) -> HttpRequest {
        self.requests.extend(self.store.take_requests());
        let pos = self
            .requests
            .iter()
            .position(|r| r.method == method && r.path.starts_with(prefix))
            .unwrap_or_else(|| panic!("no {method:?} {prefix} in {:?}", self.requests));
        let req = self.requests.remove(pos);
        self.store.feed(Input::Response {
            id: req.id,
            result: Ok(HttpResponse::new(status, body)),
        });
        req
    }

    /// The recorded request to `path` (a stream is recorded like any request).
    fn take(&mut self, method: Method, path: &str) -> HttpRequest {
        self.requests.extend(self.store.take_requests());
        let pos = self
            .requests
            .iter()
            .position(|r| r.method == method && r.path == path)
            .unwrap_or_else(|| panic!("no {method:?} {path} in {:?}", self.requests));
        self.requests.remove(pos)
    }

    fn chunk(&self, stream: &HttpRequest, text: &str) {
        self.store.feed(Input::StreamChunk {
            id: stream.id,
            bytes: text.as_bytes().to_vec(),
        });
    }
}

#[test]
fn start_publishes_the_agents_and_the_history() {
    let changed = Arc::new(Mutex::new(Vec::new()));
    let seen = changed.clone();
    let callbacks = ChatCallbacks {
        on_agent_change: Some(Callback::new(move |id: String| {
            seen.lock().unwrap().push(id)
        })),
        ..ChatCallbacks::default()
    };
    let mut f = Fixture::new(SessionConfig::default(), callbacks);
    assert!(!f.store.status.with_untracked(|s| s.agents_loaded));
    f.store.dispatch(Command::Start);
    f.answer(Method::Get, "/agents", 200, AGENTS);
    f.store.status.with_untracked(|s| {
        assert!(s.agents_loaded);
        assert_eq!(s.agents.len(), 1);
        assert_eq!(s.agent_id.as_deref(), Some("echo"));
        assert_eq!(s.run, Run::Idle);
        assert!(s.can_send);
    });
    assert_eq!(*changed.lock().unwrap(), ["echo"]);
    f.answer(Method::Get, "/conversations?", 200, EMPTY_LIST);
    f.store.history.with_untracked(|h| {
        assert!(h.items.is_empty());
        assert!(!h.has_more);
        assert!(!h.loading);
    });
}

#[test]
fn a_turn_is_published_slice_by_slice_and_reported_to_the_host() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let (sent, received) = (log.clone(), log.clone());
    let callbacks = ChatCallbacks {
        on_message_sent: Some(Callback::new(move |m: agent_chat_ui::core::Message| {
            sent.lock()
                .unwrap()
                .push(format!("sent {}", m.content.display_text()))
        })),
        on_message_received: Some(Callback::new(move |m: agent_chat_ui::core::Message| {
            received.lock().unwrap().push(format!("received {}", m.id))
        })),
        ..ChatCallbacks::default()
    };
    let mut f = Fixture::started(callbacks);
    f.store.send_message("hello there");
    // The optimistic message and the running state are published by the same dispatch.
    f.store.messages.with_untracked(|ms| {
        assert_eq!(ms.len(), 1);
        assert_eq!(ms[0].role, Role::User);
        assert_eq!(ms[0].content.display_text(), "hello there");
    });
    assert_eq!(f.store.status.with_untracked(|s| s.run), Run::Streaming);
    assert!(f.store.is_streaming().get_untracked());
    f.answer(Method::Post, "/conversations", 201, CONV);
    assert_eq!(
        f.store
            .conversation()
            .with_untracked(|c| c.as_ref().map(|c| c.id.clone())),
        Some("conv_1".into())
    );
    let stream = f.take(Method::Post, "/conversations/conv_1/messages");
    f.chunk(
        &stream,
        &frame(r#"{"type":"stream.start","timestamp":1,"conversationId":"conv_1","messageId":"msg_u"}"#),
    );
    f.chunk(
        &stream,
        &frame(r#"{"type":"stream.text","timestamp":2,"text":"You said: hello"}"#),
    );
    assert_eq!(f.store.streaming_text().get_untracked(), "You said: hello");
    f.chunk(
        &stream,
        &frame(r#"{"type":"stream.done","timestamp":3,"conversationId":"conv_1","messageId":"msg_a","content":"You said: hello"}"#),
    );
    f.store.feed(Input::StreamClosed {
        id: stream.id,
        error: None,
    });
    assert!(f.store.streaming.with_untracked(Option::is_none));
    assert_eq!(f.store.status.with_untracked(|s| s.run), Run::Idle);
    f.store.messages.with_untracked(|ms| {
        assert_eq!(ms.len(), 2);
        assert_eq!(ms[1].id, "msg_a");
        assert_eq!(ms[1].content.display_text(), "You said: hello");
    });
    assert_eq!(
        f.store.last_assistant_id.get_untracked().as_deref(),
        Some("msg_a")
    );
    assert_eq!(*log.lock().unwrap(), ["sent hello there", "received msg_a"]);
}

/// F197, C29: a refused send hands its text back to the draft, unless the person has typed
/// something else since.
#[test]
fn a_refused_send_returns_the_draft_but_never_over_new_typing() {
    let refuse = r#"{"error":{"code":"INTERNAL","message":"down"}}"#;
    let mut f = Fixture::started(ChatCallbacks::default());
    f.store.set_draft("first");
    assert_eq!(f.store.draft.get_untracked(), "first");
    // What the composer does on Enter: clear the draft, then send it.
    f.store.set_draft("");
    f.store.send_message("first");
    f.answer(Method::Post, "/conversations", 500, refuse);
    assert!(f.store.messages.with_untracked(Vec::is_empty));
    assert_eq!(f.store.draft.get_untracked(), "first");
    assert!(f.store.error().get_untracked().is_some());

    f.store.set_draft("");
    f.store.send_message("second");
    f.store.set_draft("typed meanwhile");
    f.answer(Method::Post, "/conversations", 500, refuse);
    assert_eq!(f.store.draft.get_untracked(), "typed meanwhile");
}

/// F154: the host's own error shows until dismissed; dismissing goes through the session.
#[test]
fn set_error_shows_and_dismisses_the_hosts_error() {
    let f = Fixture::started(ChatCallbacks::default());
    assert!(f.store.error().get_untracked().is_none());
    let offline = ChatError::Stream {
        code: Some("host_offline".into()),
        message: "The host is offline".into(),
    };
    f.store.set_error(Some(offline.clone()));
    assert_eq!(f.store.error().get_untracked(), Some(offline));
    f.store.set_error(None);
    assert!(f.store.error().get_untracked().is_none());
}

#[test]
fn composer_focus_is_a_method_not_a_setter() {
    let f = Fixture::started(ChatCallbacks::default());
    assert!(!f.store.composer_focused.get_untracked());
    f.store.set_composer_focused(true);
    assert!(f.store.composer_focused.get_untracked());
    f.store.set_composer_focused(false);
    assert!(!f.store.composer_focused.get_untracked());
}

/// A store opened on `conv_1`, paused on one approval (`act_1`, version 1).
fn paused() -> Fixture {
    let config = SessionConfig {
        conversation_id: Some("conv_1".into()),
        ..SessionConfig::default()
    };
    let mut f = Fixture::new(config, ChatCallbacks::default());
    f.store.dispatch(Command::Start);
    f.answer(Method::Get, "/agents", 200, AGENTS);
    let e5 = r#"{"conversation":{"id":"conv_1","agentId":"echo"},"messages":[
        {"id":"msg_1","role":"assistant","content":"May I?","createdAt":"2026-11-30T09:00:00Z"}],
      "pendingActions":[{"id":"act_1","type":"tool_approval","toolName":"send_email",
        "args":{"to":"bob@example.com"},"status":"pending","version":1,"messageId":"msg_1"}]}"#;
    f.answer(Method::Get, "/conversations/conv_1", 200, e5);
    f.requests.extend(f.store.take_requests());
    f.requests.clear();
    f
}

fn poll(future: &mut agent_chat_ui::store::AnswerFuture) -> std::task::Poll<Result<(), ChatError>> {
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    std::pin::Pin::new(future).poll(&mut cx)
}

fn allow() -> agent_chat_ui::core::Resolution {
    agent_chat_ui::core::Resolution::ToolApproval {
        decision: agent_chat_ui::core::Decision::Allow,
        approved_args: None,
        remember_for_session: false,
        comment: None,
    }
}

/// Issue 17 (React's `await resolveAction`): `answer` resolves `Ok` when the server took it,
/// and only then.
#[test]
fn i17_an_awaited_answer_resolves_when_the_server_takes_it() {
    let mut f = paused();
    let shown = f.store.cards.with_untracked(|c| c[0].shown.clone());
    let mut answer = f.store.answer(shown, allow());
    assert!(poll(&mut answer).is_pending(), "on its way");
    let reply = r#"{"action":{"id":"act_1","type":"tool_approval","toolName":"send_email",
        "args":{"to":"bob@example.com"},"status":"resolved","version":1,
        "resolution":{"type":"tool_approval","decision":"allow"}},"status":"completed"}"#;
    let req = f.answer(
        Method::Post,
        "/conversations/conv_1/actions/act_1",
        200,
        reply,
    );
    assert!(req.body.as_deref().unwrap_or_default().contains("allow"));
    assert_eq!(poll(&mut answer), std::task::Poll::Ready(Ok(())));
}

/// Issue 17: an awaited answer tells why it was not taken: the page's gate (a second answer
/// while the first is on its way), then the server's refusal.
#[test]
fn i17_an_awaited_answer_says_why_it_was_not_taken() {
    let mut f = paused();
    let shown = f.store.cards.with_untracked(|c| c[0].shown.clone());
    let mut first = f.store.answer(shown.clone(), allow());
    let mut twice = f.store.answer(shown, allow());
    assert!(
        matches!(
            poll(&mut twice),
            std::task::Poll::Ready(Err(ChatError::Refused(
                agent_chat_ui::core::ResolveRefusal::InFlight
            )))
        ),
        "the gate refused the double answer at once"
    );
    assert!(poll(&mut first).is_pending());
    let refused = r#"{"error":{"code":"action_forbidden","message":"Not yours"}}"#;
    f.answer(
        Method::Post,
        "/conversations/conv_1/actions/act_1",
        403,
        refused,
    );
    match poll(&mut first) {
        std::task::Poll::Ready(Err(e)) => assert_eq!(e.code(), Some("action_forbidden")),
        other => panic!("expected the server's refusal, got {other:?}"),
    }
}

/// Issue 17: configs that hold a token print neither it nor header values in `Debug` (logs,
/// panic messages), only that they are set and the header names.
#[test]
fn i17_configs_holding_a_token_redact_it_in_debug() {
    let mut transport = agent_chat_ui::io::http::TransportConfig::new("https://a.test/api/");
    transport.authorization = Some("Bearer s3cret".into());
    transport.headers = vec![("X-Api-Key".into(), "k3y".into())];
    let client = agent_chat_ui::ClientOptions {
        base_url: "https://a.test/api".into(),
        authorization: Some("Bearer s3cret".into()),
        headers: vec![("X-Api-Key".into(), "k3y".into())],
    };
    for text in [format!("{transport:?}"), format!("{client:?}")] {
        assert!(!text.contains("s3cret") && !text.contains("k3y"), "{text}");
        assert!(
            text.contains("<redacted>") && text.contains("X-Api-Key"),
            "{text}"
        );
        assert!(text.contains("https://a.test/api"), "{text}");
    }
}
