//! Issue 15: OpenAI Responses behind the gateway. A send becomes `POST /responses`, chained to
//! the previous reply by `previous_response_id` once there is one (the chain is kept in the
//! thread, so a reload goes on chaining); the streamed events are read back as `stream.*`
//! frames with tool items as tool calls and url citations as sources; a response that stops
//! with `requires_action` shows its actions as read-only cards (PROTOCOL C20). Recorded
//! fixtures, split at every byte; no browser.
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::transport::reply::{Delta, WireFile};
use agent_chat_ui::core::transport::responses::{self, StreamDecoder};
use agent_chat_ui::core::transport::TransportKind;
use agent_chat_ui::core::{
    ActionKind, ChatError, Command, ComposerState, HttpResponse, Input, Role, Run, SessionEvent,
};
use serde_json::{json, Value};

use crate::common::link;
use link::{text_of, Link};

/// A streamed reply: the response id, a function call whose arguments arrive in pieces, text
/// in three pieces with a url citation, an event type this client does not know, and the
/// final response with usage.
const REPLY: &str = concat!(
    "event: response.created\n",
    "data: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_1\",\"status\":\"in_progress\",\"output\":[]}}\n\n",
    "event: response.output_item.added\n",
    "data: {\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{\"type\":\"function_call\",\"id\":\"fc_1\",\"call_id\":\"call_w\",\"name\":\"get_weather\",\"arguments\":\"\"}}\n\n",
    "event: response.function_call_arguments.delta\n",
    "data: {\"type\":\"response.function_call_arguments.delta\",\"item_id\":\"fc_1\",\"delta\":\"{\\\"city\\\":\"}\n\n",
    "event: response.output_item.done\n",
    "data: {\"type\":\"response.output_item.done\",\"output_index\":0,\"item\":{\"type\":\"function_call\",\"id\":\"fc_1\",\"call_id\":\"call_w\",\"name\":\"get_weather\",\"arguments\":\"{\\\"city\\\":\\\"Izmir\\\"}\"}}\n\n",
    "event: response.output_text.delta\n",
    "data: {\"type\":\"response.output_text.delta\",\"delta\":\"It is \"}\n\n",
    "event: response.output_text.delta\n",
    "data: {\"type\":\"response.output_text.delta\",\"delta\":\"24 °C\"}\n\n",
    "event: response.reasoning_summary.delta\n",
    "data: {\"type\":\"response.reasoning_summary.delta\",\"delta\":\"thinking\"}\n\n",
    "event: response.output_text.delta\n",
    "data: {\"type\":\"response.output_text.delta\",\"delta\":\" in Izmir.\"}\n\n",
    "event: response.output_text.annotation.added\n",
    "data: {\"type\":\"response.output_text.annotation.added\",\"annotation\":{\"type\":\"url_citation\",\"url\":\"https://weather.example/izmir\",\"title\":\"Izmir weather\",\"start_index\":0,\"end_index\":5}}\n\n",
    "event: response.completed\n",
    "data: {\"type\":\"response.completed\",\"response\":{\"id\":\"resp_1\",\"status\":\"completed\",\"output\":[",
    "{\"type\":\"function_call\",\"id\":\"fc_1\",\"call_id\":\"call_w\",\"name\":\"get_weather\",\"arguments\":\"{\\\"city\\\":\\\"Izmir\\\"}\"},",
    "{\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":\"It is 24 °C in Izmir.\",\"annotations\":[{\"type\":\"url_citation\",\"url\":\"https://weather.example/izmir\",\"title\":\"Izmir weather\"}]}]}",
    "],\"usage\":{\"input_tokens\":9,\"output_tokens\":5,\"total_tokens\":14}}}\n\n",
);

fn body_of(l: &Link) -> Value {
    serde_json::from_str(l.last_wire().body.as_deref().unwrap()).unwrap()
}

#[test]
fn i15_responses_stream_reads_the_same_split_at_every_byte() {
    let bytes = REPLY.as_bytes();
    let mut whole = StreamDecoder::new();
    let mut expected = whole.push(bytes);
    expected.extend(whole.finish());
    assert_eq!(text_of(&expected), "It is 24 °C in Izmir.");
    assert!(!expected.iter().any(|d| matches!(d, Delta::Error(_))));
    let ending = whole.ending();
    assert_eq!(ending.response_id.as_deref(), Some("resp_1"));
    assert_eq!(
        ending.tool_calls.len(),
        1,
        "added, done and completed are one call"
    );
    assert_eq!(ending.tool_calls[0].id, "call_w");
    assert_eq!(ending.tool_calls[0].name, "get_weather");
    assert_eq!(ending.tool_calls[0].args, json!({"city": "Izmir"}));
    assert_eq!(
        ending.citations,
        vec![
            json!({"id": "https://weather.example/izmir", "title": "Izmir weather",
                    "link": "https://weather.example/izmir"})
        ]
    );
    assert_eq!(ending.usage.as_ref().unwrap()["totalTokens"], json!(14));
    assert_eq!(ending.content, "It is 24 °C in Izmir.");
    for cut in 1..bytes.len() {
        let mut d = StreamDecoder::new();
        let mut got = d.push(&bytes[..cut]);
        got.extend(d.push(&bytes[cut..]));
        got.extend(d.finish());
        assert_eq!(got, expected, "split at {cut}");
        assert_eq!(d.ending(), ending, "split at {cut}");
    }
}

#[test]
fn i15_a_turn_over_responses_is_chained_kept_and_chains_on_after_a_reload() {
    let mut l = Link::new(TransportKind::Responses, vec![]);
    l.cmd(Command::Start);
    assert!(l.wire.is_empty(), "agents and history come from the page");
    l.cmd(Command::Send("What is the weather in Izmir?".into()));
    let (req, streamed) = l.wire[0].clone();
    assert!(streamed);
    assert_eq!(req.path, "/responses");
    let body = body_of(&l);
    assert_eq!(body["model"], "gpt-test");
    assert_eq!(body["stream"], true);
    assert_eq!(
        body["input"],
        json!([{"role": "user", "content": "What is the weather in Izmir?"}])
    );
    assert!(
        body.get("previous_response_id").is_none(),
        "nothing to chain to yet"
    );
    l.stream(REPLY);
    assert_eq!(l.session.run(), Run::Idle);
    let last = l.session.messages().last().unwrap().clone();
    assert_eq!(last.role, Role::Assistant);
    assert_eq!(last.content.display_text(), "It is 24 °C in Izmir.");
    assert_eq!(last.tool_call_details()[0].name, "get_weather");
    assert_eq!(last.citations.len(), 1, "the url citation is a source");
    assert_eq!(
        last.citations[0].link.as_deref(),
        Some("https://weather.example/izmir")
    );
    assert!(l
        .events
        .iter()
        .any(|e| matches!(e, SessionEvent::ToolCall { name, .. } if name == "get_weather")));
    assert!(!l.session.config().can_resolve);

    // The next turn sends only the new message, chained to the reply.
    l.cmd(Command::Send("And tomorrow?".into()));
    let body = body_of(&l);
    assert_eq!(body["previous_response_id"], "resp_1");
    assert_eq!(
        body["input"],
        json!([{"role": "user", "content": "And tomorrow?"}])
    );
    l.stream(concat!(
        "data: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_2\"}}\n\n",
        "data: {\"type\":\"response.output_text.delta\",\"delta\":\"Sunny.\"}\n\n",
        "data: {\"type\":\"response.completed\",\"response\":{\"id\":\"resp_2\",\"status\":\"completed\"}}\n\n",
    ));
    assert_eq!(
        l.session.messages().last().unwrap().content.display_text(),
        "Sunny."
    );

    // A reload: the thread keeps its chain, and the next turn goes on from the last reply.
    let stored = l.stored_threads();
    let id = stored[0].id().to_owned();
    let mut again = Link::new(TransportKind::Responses, stored);
    again.cmd(Command::Start);
    again.cmd(Command::OpenConversation(id));
    assert_eq!(again.session.messages().len(), 4);
    again.cmd(Command::Send("Thanks".into()));
    assert_eq!(body_of(&again)["previous_response_id"], "resp_2");
}

#[test]
fn i15_a_response_that_requires_action_shows_its_actions_as_read_only_cards() {
    let mut l = Link::new(TransportKind::Responses, vec![]);
    l.cmd(Command::Start);
    l.cmd(Command::Send("Email the report to Ayşe".into()));
    l.stream(concat!(
        "data: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_9\"}}\n\n",
        "data: {\"type\":\"response.output_text.delta\",\"delta\":\"I need your approval.\"}\n\n",
        "data: {\"type\":\"response.completed\",\"response\":{\"id\":\"resp_9\",\"status\":\"requires_action\",",
        "\"pendingActions\":[{\"id\":\"act_1\",\"kind\":\"tool_approval\",\"status\":\"pending\",",
        "\"toolName\":\"send_email\",\"args\":{\"to\":\"ayse@example.com\"},",
        "\"args_schema\":{\"type\":\"object\",\"properties\":{\"to\":{\"type\":\"string\"}}}}]}}\n\n",
    ));
    let cards = l.session.cards();
    assert_eq!(cards.len(), 1, "the waiting action is a card");
    let card = &cards[0];
    assert_eq!(card.action.id, "act_1");
    match &card.action.kind {
        ActionKind::ToolApproval(t) => {
            assert_eq!(t.tool_name, "send_email");
            assert!(t.args_schema.is_some(), "args_schema is read as argsSchema");
        }
        other => panic!("expected a tool approval, got {other:?}"),
    }
    assert!(
        !l.session.can_resolve(card),
        "no action endpoint: read-only (F190)"
    );
    // Kept with the reply, so a reload shows the card again.
    let t = &l.threads()[0];
    assert_eq!(
        t.messages[1]["metadata"]["pendingActions"][0]["id"],
        "act_1"
    );
    // The composer is not held by a card nobody can answer here: the person goes on.
    assert_eq!(l.session.composer_state(), ComposerState::Normal);
    let before = l.wire.len();
    l.cmd(Command::Send("Never mind".into()));
    assert_eq!(l.wire.len(), before + 1, "the next message goes out");
    assert_eq!(body_of(&l)["previous_response_id"], "resp_9");
}

#[test]
fn i15_a_failed_response_fails_the_turn_with_the_servers_wording() {
    let mut d = StreamDecoder::new();
    let out = d.push(concat!(
        "data: {\"type\":\"response.output_text.delta\",\"delta\":\"Par\"}\n\n",
        "data: {not json\n\n",
        "data: {\"type\":\"response.failed\",\"response\":{\"id\":\"resp_3\",\"status\":\"failed\",",
        "\"error\":{\"code\":\"server_error\",\"message\":\"The model crashed\"}}}\n\n",
        "data: {\"type\":\"error\",\"message\":\"again\"}\n\n",
    )
    .as_bytes());
    assert_eq!(text_of(&out), "Par");
    assert!(out.iter().any(|d| matches!(d, Delta::Skipped(_))));
    let errors: Vec<&Delta> = out
        .iter()
        .filter(|d| matches!(d, Delta::Error(_)))
        .collect();
    assert_eq!(
        errors,
        [&Delta::Error(
            agent_chat_ui::core::transport::failure::Failure::new(
                agent_chat_ui::core::transport::failure::FailureKind::Incomplete,
                Some("The model crashed")
            )
        )],
        "one error per turn"
    );

    // Through the session: the partial reply is not kept as an answer and the error shows.
    let mut l = Link::new(TransportKind::Responses, vec![]);
    l.cmd(Command::Start);
    l.cmd(Command::Send("Hello".into()));
    l.stream(
        "data: {\"type\":\"error\",\"code\":\"rate_limit_exceeded\",\"message\":\"Slow down\"}\n\n",
    );
    assert_eq!(l.session.run(), Run::Idle);
    assert!(
        matches!(l.session.error(), Some(ChatError::Stream { message, .. }) if message.contains("Slow down")),
        "got {:?}",
        l.session.error()
    );
}

#[test]
fn i15_a_whole_responses_reply_and_a_refusal_are_read() {
    let reply = responses::read_reply(
        r#"{"id":"resp_5","status":"completed","output":[{"type":"web_search_call","id":"ws_1","action":{"query":"izmir"}},{"type":"message","content":[{"type":"output_text","text":"Found it.","annotations":[{"type":"file_citation","file_id":"file_1","filename":"notes.pdf"}]}]}]}"#,
    )
    .unwrap();
    assert_eq!(reply.content, "Found it.");
    assert_eq!(reply.tool_calls[0].name, "web_search_call");
    assert_eq!(reply.tool_calls[0].args, json!({"query": "izmir"}));
    assert_eq!(reply.citations[0]["title"], "notes.pdf");
    assert!(responses::read_reply("{}").is_err());

    let mut l = Link::new(TransportKind::Responses, vec![]);
    l.cmd(Command::Start);
    l.without_streaming();
    l.cmd(Command::Send("Hello".into()));
    let (req, streamed) = l.wire[0].clone();
    assert!(!streamed);
    l.wire_input(Input::Response {
        id: req.id,
        result: Ok(HttpResponse {
            status: 401,
            body: r#"{"error":{"message":"Incorrect API key provided","code":"invalid_api_key"}}"#
                .into(),
            date: None,
            retry_after: None,
        }),
    });
    let shown = format!("{:?}", l.session.error());
    assert!(shown.contains("Incorrect API key provided"), "got {shown}");
    // Files: an image goes as input_image; the body is the new message only when chained.
    let body = responses::request_body(
        "m",
        &[json!({"role": "user", "content": "old"})],
        "look",
        &[WireFile {
            name: "a.png".into(),
            mime_type: "image/png".into(),
            content: "AAAA".into(),
        }],
        true,
        Some("resp_1"),
    );
    assert_eq!(
        body["input"],
        json!([{"role": "user", "content": [
            {"type": "input_text", "text": "look"},
            {"type": "input_image", "image_url": "data:image/png;base64,AAAA"}]}])
    );
}
