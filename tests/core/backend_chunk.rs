//! Issue 16, D68: a backend other than the agent server is a chunk in the element and the
//! page, so its gateway may not be there when the chat starts. The awaiting gateway holds the
//! session's requests in order, however long the code takes (the store retries a failed
//! fetch), and hands them to the backend when it arrives.
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::endpoint::{Call, Endpoint};
use agent_chat_ui::core::transport::{Gateway, GatewayOutput, TransportKind, TransportOptions};
use agent_chat_ui::core::{Command, Millis, Output, RequestId, Run, Session, SessionConfig};

use crate::common::link;
use link::Link;

/// A reply of the Chat Completions fixture in one frame.
const REPLY: &str = concat!(
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hello back\"},\"finish_reason\":\"stop\"}]}\n\n",
    "data: [DONE]\n\n",
);

fn options() -> TransportOptions {
    TransportOptions {
        kind: TransportKind::ChatCompletions,
        model: Some("gpt-test".into()),
        ..TransportOptions::default()
    }
}

/// A link whose gateway still awaits its backend.
fn awaiting() -> Link {
    let mut l = Link::new(TransportKind::ChatCompletions, vec![]);
    l.gateway = Gateway::awaiting();
    l
}

/// A link awaiting its backend whose session already names its agent (a configured
/// `agentId`), so a send goes out without waiting for the agent list.
fn awaiting_with_agent() -> Link {
    let mut l = awaiting();
    l.session = Session::new(SessionConfig {
        agent_id: Some("gpt-test".into()),
        ..SessionConfig::default()
    });
    l
}

#[test]
fn i16_the_start_waits_for_the_backend_then_the_chat_works() {
    let mut l = awaiting();
    l.cmd(Command::Start);
    assert!(
        l.wire.is_empty(),
        "nothing reaches the wire before the backend is here"
    );
    assert!(l.gateway.is_awaiting());
    assert_eq!(l.session.agent_id(), None, "the agent list waits too");
    l.gateway
        .arrived(Millis(l.now), Gateway::new(&options(), vec![], 7));
    l.run();
    assert!(!l.gateway.is_awaiting());
    assert_eq!(l.session.agent_id(), Some("gpt-test"));
    l.cmd(Command::Send("Hello".into()));
    assert_eq!(l.wire.len(), 1, "{:?}", l.wire);
    assert_eq!(l.last_wire().path, "/chat/completions");
    l.stream(REPLY);
    assert_eq!(l.session.run(), Run::Idle);
    assert_eq!(
        l.session.messages().last().unwrap().content.display_text(),
        "Hello back"
    );
}

#[test]
fn i16_requests_that_waited_go_to_the_backend_in_order() {
    let mut l = awaiting_with_agent();
    l.cmd(Command::Start);
    l.cmd(Command::Send("Hello".into()));
    assert!(l.wire.is_empty());
    assert_eq!(
        l.session.run(),
        Run::Streaming,
        "the send waits, it is not refused"
    );
    l.gateway
        .arrived(Millis(l.now), Gateway::new(&options(), vec![], 7));
    l.run();
    assert_eq!(l.wire.len(), 1, "{:?}", l.wire);
    assert_eq!(l.last_wire().path, "/chat/completions");
    let body = l.last_wire().body.unwrap_or_default();
    assert!(body.contains("Hello"), "{body}");
    l.stream(REPLY);
    assert_eq!(
        l.session.messages().last().unwrap().content.display_text(),
        "Hello back"
    );
}

#[test]
fn i16_a_request_aborted_while_waiting_never_reaches_the_backend() {
    let mut gateway = Gateway::awaiting();
    let agents = Call {
        id: RequestId(1),
        endpoint: Endpoint::Agents,
    };
    let conversations = Call {
        id: RequestId(2),
        endpoint: Endpoint::Conversations {
            agent_id: None,
            limit: 20,
            offset: 0,
        },
    };
    let now = Millis(1_000);
    assert!(gateway
        .from_session(now, Output::Send(agents.clone()))
        .is_none());
    assert!(gateway
        .from_session(now, Output::OpenStream(conversations))
        .is_none());
    assert!(gateway
        .from_session(now, Output::Abort(RequestId(2)))
        .is_none());
    assert!(
        gateway.poll_output().is_none(),
        "nothing goes out while waiting"
    );
    gateway.arrived(now, Gateway::direct());
    let out: Vec<_> = std::iter::from_fn(|| gateway.poll_output()).collect();
    assert_eq!(
        out,
        [GatewayOutput::Send(agents.http())],
        "only the request not aborted, once"
    );
}

#[test]
fn i16_threads_read_before_the_backend_arrives_are_not_lost() {
    // Threads of an earlier visit, read by the host's store while the code was on its way.
    let mut first = Link::new(TransportKind::ChatCompletions, vec![]);
    first.cmd(Command::Start);
    first.cmd(Command::Send("Remember me".into()));
    first.stream(REPLY);
    let threads = first.stored_threads();
    assert_eq!(threads.len(), 1);

    let mut l = awaiting();
    l.gateway.threads_loaded(Millis(l.now), threads);
    l.cmd(Command::Start);
    l.gateway
        .arrived(Millis(l.now), Gateway::loading(&options(), 7));
    l.run();
    let titles: Vec<_> = l
        .session
        .history()
        .iter()
        .map(|c| c.title.clone().unwrap_or_default())
        .collect();
    assert_eq!(titles, ["Remember me"]);
}
