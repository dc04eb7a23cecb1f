//! Issue 15: the gateway between the session and a backend without conversations of its own
//! (OpenAI Chat Completions). The session speaks the agent server's protocol; the gateway
//! answers it from a thread store and turns a send into `POST /chat/completions` with the
//! whole history, reading the streamed reply back as `stream.*` frames. Recorded fixtures,
//! split at every byte; no browser.
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::transport::chat_completions::{self as cc, Delta, StreamDecoder};
use agent_chat_ui::core::transport::threads::{title_from, Thread, ThreadIndex};
use agent_chat_ui::core::transport::{
    pump, Gateway, GatewayOutput, TransportKind, TransportOptions, Work,
};
use agent_chat_ui::core::{
    ChatError, Command, HttpResponse, Input, Millis, Role, Run, Session, SessionConfig,
    SessionEvent,
};
use serde_json::{json, Value};

use crate::common::link;
use link::{text_of, Link};

/// A streamed reply: text in three pieces, one tool call whose arguments arrive in two
/// pieces, usage, `[DONE]`.
const REPLY: &str = concat!(
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n",
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"It is \"}}]}\n\n",
    ": keep-alive\n\n",
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"24 °C\"}}]}\n\n",
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_9\",\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"arguments\":\"{\\\"city\\\":\"}}]}}]}\n\n",
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"\\\"Izmir\\\"}\"}}]}}]}\n\n",
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\" in Izmir.\"},\"finish_reason\":\"stop\"}]}\n\n",
    "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":5,\"total_tokens\":14}}\n\n",
    "data: [DONE]\n\n",
);

#[test]
fn i15_chat_completions_stream_reads_the_same_split_at_every_byte() {
    let bytes = REPLY.as_bytes();
    let mut whole = StreamDecoder::new();
    let mut expected = whole.push(bytes);
    expected.extend(whole.finish());
    assert_eq!(text_of(&expected), "It is 24 °C in Izmir.");
    assert!(whole.is_done());
    let calls = whole.tool_calls();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].id, "call_9");
    assert_eq!(calls[0].name, "get_weather");
    assert_eq!(calls[0].args, json!({"city": "Izmir"}));
    assert_eq!(whole.usage().unwrap()["totalTokens"], json!(14));
    for cut in 1..bytes.len() {
        let mut d = StreamDecoder::new();
        let mut got = d.push(&bytes[..cut]);
        got.extend(d.push(&bytes[cut..]));
        got.extend(d.finish());
        assert_eq!(text_of(&got), text_of(&expected), "split at {cut}");
        assert_eq!(d.tool_calls(), calls, "split at {cut}");
    }
}

#[test]
fn i15_a_bad_chunk_is_skipped_for_the_log_and_the_reply_goes_on() {
    let mut d = StreamDecoder::new();
    let mut out =
        d.push(b"data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\ndata: {not json\n\n");
    out.extend(
        d.push(b"data: {\"choices\":[{\"delta\":{\"content\":\"b\"}}]}\n\ndata: [DONE]\n\n"),
    );
    assert_eq!(text_of(&out), "ab");
    assert!(out.iter().any(|d| matches!(d, Delta::Skipped(_))));
    // Arguments that are not JSON are kept as text.
    let mut d = StreamDecoder::new();
    d.push(b"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"name\":\"f\",\"arguments\":\"{oops\"}}]}}]}\n\n");
    assert_eq!(d.tool_calls()[0].args, json!({"arguments": "{oops"}));
    assert_eq!(d.tool_calls()[0].id, "call_0");
}

#[test]
fn i15_an_error_inside_the_stream_fails_the_turn_with_the_servers_wording() {
    let mut d = StreamDecoder::new();
    let out = d.push(
        b"data: {\"error\":{\"message\":\"Rate limit reached\",\"type\":\"rate_limit\"}}\n\n",
    );
    assert_eq!(
        out,
        vec![Delta::Error(
            agent_chat_ui::core::transport::failure::Failure::new(
                agent_chat_ui::core::transport::failure::FailureKind::ModelError,
                Some("Rate limit reached")
            )
        )]
    );
    let envelope: Value = serde_json::from_str(&cc::error_envelope(
        401,
        r#"{"error":{"message":"Incorrect API key provided","code":"invalid_api_key"}}"#,
    ))
    .unwrap();
    assert_eq!(envelope["error"]["message"], "Incorrect API key provided");
    assert_eq!(envelope["error"]["code"], "invalid_api_key");
}

#[test]
fn i15_a_turn_over_chat_completions_streams_shows_its_tool_call_and_is_kept() {
    let mut l = Link::new(TransportKind::ChatCompletions, vec![]);
    l.cmd(Command::Start);
    assert!(l.wire.is_empty(), "agents and history come from the page");
    assert_eq!(l.session.agent_id(), Some("gpt-test"));
    l.cmd(Command::Send("What is the weather in Izmir?".into()));
    let (req, streamed) = l.wire[0].clone();
    assert!(streamed);
    assert_eq!(req.path, "/chat/completions");
    let body: Value = serde_json::from_str(req.body.as_deref().unwrap()).unwrap();
    assert_eq!(body["model"], "gpt-test");
    assert_eq!(body["stream"], true);
    assert_eq!(
        body["messages"],
        json!([{"role": "user", "content": "What is the weather in Izmir?"}])
    );
    assert_eq!(l.session.run(), Run::Streaming);
    l.stream(REPLY);
    assert_eq!(l.session.run(), Run::Idle);
    let last = l.session.messages().last().unwrap().clone();
    assert_eq!(last.role, Role::Assistant);
    assert_eq!(last.content.display_text(), "It is 24 °C in Izmir.");
    let steps = last.tool_call_details();
    assert_eq!(steps.len(), 1, "the tool call is shown");
    assert_eq!(steps[0].name, "get_weather");
    assert_eq!(
        l.session
            .conversation()
            .and_then(|c| c.title.clone())
            .as_deref(),
        Some("What is the weather in Izmir?")
    );
    assert!(l
        .events
        .iter()
        .any(|e| matches!(e, SessionEvent::ToolCall { name, .. } if name == "get_weather")));
    // Kept: the conversation with both messages, its tool call and its title.
    let threads = l.threads();
    assert_eq!(threads.len(), 1);
    let t = &threads[0];
    assert_eq!(t.messages.len(), 2);
    assert_eq!(
        t.messages[1]["metadata"]["toolCallDetails"][0]["name"],
        "get_weather"
    );
    assert_eq!(t.conversation["title"], "What is the weather in Izmir?");
    // Cards cannot be answered over this API (F190).
    assert!(!l.session.config().can_resolve);

    // The next turn sends the whole history.
    l.cmd(Command::Send("And tomorrow?".into()));
    let body: Value = serde_json::from_str(l.last_wire().body.as_deref().unwrap()).unwrap();
    let roles: Vec<&str> = body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["user", "assistant", "user"]);
    assert_eq!(body["messages"][1]["content"], "It is 24 °C in Izmir.");
}

#[test]
fn i15_a_reload_restores_the_conversation_and_the_history_from_the_threads() {
    let mut l = Link::new(TransportKind::ChatCompletions, vec![]);
    l.cmd(Command::Start);
    l.cmd(Command::Send("Hello".into()));
    l.stream("data: {\"choices\":[{\"delta\":{\"content\":\"Hi there\"}}]}\n\ndata: [DONE]\n\n");
    let stored = l.stored_threads();
    let id = stored[0].id().to_owned();

    let mut again = Link::new(TransportKind::ChatCompletions, stored);
    again.cmd(Command::Start);
    assert_eq!(again.session.history().len(), 1);
    assert_eq!(again.session.history()[0].title.as_deref(), Some("Hello"));
    again.cmd(Command::OpenConversation(id));
    let texts: Vec<String> = again
        .session
        .messages()
        .iter()
        .map(|m| m.content.display_text().into_owned())
        .collect();
    assert_eq!(texts, ["Hello", "Hi there"]);
    assert!(again.wire.is_empty(), "nothing asked of the model server");
}

#[test]
fn i15_rename_and_delete_work_on_the_threads() {
    let mut l = Link::new(TransportKind::ChatCompletions, vec![]);
    l.cmd(Command::Start);
    l.cmd(Command::Send("Plan a trip".into()));
    l.stream("data: {\"choices\":[{\"delta\":{\"content\":\"Where to?\"}}]}\n\ndata: [DONE]\n\n");
    let id = l.threads()[0].id().to_owned();
    l.cmd(Command::RenameConversation {
        id: id.clone(),
        title: "Lisbon".into(),
    });
    assert_eq!(l.threads()[0].conversation["title"], "Lisbon");
    assert_eq!(l.session.history()[0].title.as_deref(), Some("Lisbon"));
    l.cmd(Command::DeleteConversation(id.clone()));
    assert_eq!(l.deleted, vec![id]);
    assert!(l.session.history().is_empty());
    assert!(l.session.conversation().is_none());
}

#[test]
fn i15_a_refusal_of_the_model_server_reads_as_its_wording_and_keeps_the_draft() {
    let mut l = Link::new(TransportKind::ChatCompletions, vec![]);
    l.cmd(Command::Start);
    l.cmd(Command::Send("Hello".into()));
    let id = l.last_wire().id;
    l.wire_input(Input::Response {
        id,
        result: Ok(HttpResponse {
            status: 401,
            body: r#"{"error":{"message":"Incorrect API key provided","code":"invalid_api_key"}}"#
                .into(),
            date: None,
            retry_after: None,
        }),
    });
    assert_eq!(l.session.run(), Run::Idle);
    match l.session.error() {
        Some(ChatError::Api { error, .. }) => {
            assert_eq!(error.server_message, "Incorrect API key provided")
        }
        other => panic!("{other:?}"),
    }
    assert!(l
        .events
        .iter()
        .any(|e| matches!(e, SessionEvent::DraftReturned(t) if t == "Hello")));
}

#[test]
fn i15_a_reply_not_streamed_is_read_whole() {
    let options = TransportOptions {
        kind: TransportKind::ChatCompletions,
        ..TransportOptions::default()
    };
    let mut l = Link::new(TransportKind::ChatCompletions, vec![]);
    l.gateway = Gateway::new(&options, vec![], 1);
    l.session = Session::new(SessionConfig {
        streaming: false,
        can_resolve: false,
        ..SessionConfig::default()
    });
    l.cmd(Command::Start);
    assert_eq!(l.session.agent_id(), Some("default"));
    l.cmd(Command::Send("Hi".into()));
    let (req, streamed) = l.wire[0].clone();
    assert!(!streamed);
    let body: Value = serde_json::from_str(req.body.as_deref().unwrap()).unwrap();
    assert_eq!(body["model"], "default", "the agent id is the model");
    l.wire_input(Input::Response {
        id: req.id,
        result: Ok(HttpResponse {
            status: 200,
            body: r#"{"choices":[{"message":{"role":"assistant","content":"Hello!"}}]}"#.into(),
            date: None,
            retry_after: None,
        }),
    });
    assert_eq!(
        l.session.messages().last().unwrap().content.display_text(),
        "Hello!"
    );
    assert_eq!(l.session.messages().len(), 2);
}

#[test]
fn i15_stop_aborts_the_backends_request() {
    let mut l = Link::new(TransportKind::ChatCompletions, vec![]);
    l.cmd(Command::Start);
    l.cmd(Command::Send("Write a long story".into()));
    let id = l.last_wire().id;
    l.wire_input(Input::StreamChunk {
        id,
        bytes: b"data: {\"choices\":[{\"delta\":{\"content\":\"Once upon\"}}]}\n\n".to_vec(),
    });
    let before = l.wire.len();
    let mut aborted = Vec::new();
    l.session.handle(Millis(l.now), Input::User(Command::Stop));
    for w in pump(&mut l.session, &mut l.gateway, Millis(l.now)) {
        if let Work::Gateway(GatewayOutput::Abort(a)) = w {
            aborted.push(a);
        }
    }
    assert_eq!(aborted, vec![id], "the model server's request is aborted");
    assert_eq!(l.wire.len(), before);
    assert_eq!(
        l.session.messages().last().unwrap().content.display_text(),
        "Once upon",
        "the partial reply stays"
    );
    // What the aborted request still reports is dropped.
    l.wire_input(Input::StreamClosed { id, error: None });
    assert_eq!(l.session.run(), Run::Idle);
}

#[test]
fn i15_stored_threads_that_cannot_be_read_are_refused_and_titles_are_cut() {
    assert!(Thread::from_text("{not json").is_err());
    assert!(Thread::from_text(r#"{"conversation":{}}"#).is_err());
    assert!(Thread::from_text(r#"{"conversation":{"id":"c"},"messages":5}"#).is_err());
    let t = Thread::from_text(r#"{"conversation":{"id":"c"},"messages":[{"id":"m"},3]}"#).unwrap();
    assert_eq!(
        t.messages.len(),
        1,
        "a message that is not an object is dropped"
    );
    let mut index = ThreadIndex::from_text("[\"a\", 3, \"b\"]");
    assert_eq!(index.0, ["a", "b"]);
    index.insert("a");
    index.remove("b");
    assert_eq!(index.to_text(), "[\"a\"]");
    assert_eq!(ThreadIndex::from_text("oops"), ThreadIndex::default());
    assert_eq!(title_from("  Hello\n  world "), "Hello world");
    let long = "word ".repeat(30);
    let title = title_from(&long);
    assert!(title.ends_with('…'));
    assert!(title.chars().count() <= 60);
    assert_eq!(
        TransportKind::parse("chat-completions"),
        Some(TransportKind::ChatCompletions)
    );
    assert_eq!(
        TransportKind::parse("Agent-Server"),
        Some(TransportKind::AgentServer)
    );
    assert_eq!(TransportKind::parse("carrier-pigeon"), None);
}

#[test]
fn i15_a_server_that_ignores_stream_true_is_read_whole_as_a_stream() {
    let mut l = Link::new(TransportKind::ChatCompletions, vec![]);
    l.cmd(Command::Start);
    l.cmd(Command::Send("What is the weather?".into()));
    let id = l.last_wire().id;
    l.wire_input(Input::Response {
        id,
        result: Ok(HttpResponse {
            status: 200,
            body: r#"{"choices":[{"message":{"role":"assistant","content":"Sunny.","tool_calls":[{"id":"call_1","function":{"name":"get_weather","arguments":"{\"city\":\"Izmir\"}"}}]}}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}"#.into(),
            date: None,
            retry_after: None,
        }),
    });
    assert_eq!(l.session.run(), Run::Idle);
    let last = l.session.messages().last().unwrap().clone();
    assert_eq!(last.content.display_text(), "Sunny.");
    assert_eq!(last.tool_call_details()[0].name, "get_weather");
    assert_eq!(l.threads()[0].messages.len(), 2);
}
