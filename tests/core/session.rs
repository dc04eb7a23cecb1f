//! Session state machine: the base chat flows (PROTOCOL §5–§8) driven with fake responses and
//! recorded streams, no browser. Approval/question rules get their own suite with the cards.
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::{
    ChatError, Command, HttpResponse, Input, Method, Millis, Role, Run, SessionConfig,
    SessionEvent, TransportError,
};

use crate::common;

use common::{frame, Harness, AGENTS, CONV, EMPTY_LIST};

#[test]
fn f42_start_lists_agents_picks_the_first_and_loads_its_history() {
    let mut h = Harness::new(SessionConfig::default());
    h.cmd(Command::Start);
    assert_eq!(h.requests.len(), 1);
    h.answer(Method::Get, "/agents", 200, AGENTS);
    assert_eq!(h.s.agent_id(), Some("echo"));
    assert!(h
        .events
        .contains(&SessionEvent::AgentChanged("echo".into())));
    let hist = h.answer(Method::Get, "/conversations?", 200, EMPTY_LIST);
    assert_eq!(hist.path, "/conversations?limit=20&agentId=echo");
}

#[test]
fn f42_a_failing_agents_endpoint_is_swallowed() {
    let mut h = Harness::new(SessionConfig {
        agent_id: Some("ops".into()),
        ..Default::default()
    });
    h.cmd(Command::Start);
    h.answer(
        Method::Get,
        "/agents",
        404,
        r#"{"error":{"code":"NOT_FOUND","message":"x"}}"#,
    );
    assert!(h.s.error().is_none());
    assert_eq!(h.s.agent_id(), Some("ops"));
    assert!(h.s.agents_loaded());
}

#[test]
fn f12_first_send_creates_the_conversation_then_streams_the_reply() {
    let mut h = Harness::started_with_agent(SessionConfig::default());
    h.cmd(Command::Send("  hello there \n".into()));
    // Optimistic user message, trimmed, before any response (F12).
    assert_eq!(h.s.messages().len(), 1);
    assert_eq!(h.s.messages()[0].role, Role::User);
    assert_eq!(h.s.messages()[0].content.display_text(), "hello there");
    assert!(h
        .events
        .iter()
        .any(|e| matches!(e, SessionEvent::MessageSent(_))));
    assert_eq!(h.s.run(), Run::Streaming);
    let create = h.answer(Method::Post, "/conversations", 201, CONV);
    assert_eq!(create.body.as_deref(), Some(r#"{"agentId":"echo"}"#));
    assert!(h
        .events
        .contains(&SessionEvent::ConversationChanged(Some("conv_1".into()))));
    assert_eq!(h.streams.len(), 1);
    assert_eq!(h.streams[0].path, "/conversations/conv_1/messages");
    let body: serde_json::Value =
        serde_json::from_str(h.streams[0].body.as_deref().unwrap()).unwrap();
    assert_eq!(
        body,
        serde_json::json!({"message": "hello there", "stream": true})
    );

    h.chunk(0, &frame(r#"{"type":"stream.start","timestamp":1,"conversationId":"conv_1","messageId":"msg_u"}"#));
    h.chunk(
        0,
        &frame(r#"{"type":"stream.text","timestamp":2,"text":"You said: "}"#),
    );
    h.chunk(0, "data: {\"type\":\"stream.text\",\"timestamp\":3,\"te");
    h.chunk(0, "xt\":\"hello there\"}\n\n");
    assert_eq!(
        h.s.streaming().map(|t| t.text.to_string()).as_deref(),
        Some("You said: hello there")
    );
    h.chunk(0, &frame(r#"{"type":"stream.done","timestamp":4,"conversationId":"conv_1","messageId":"msg_a","content":"You said: hello there","title":"hello there"}"#));
    h.close(0, None);

    assert_eq!(h.s.run(), Run::Idle);
    assert!(h.s.streaming().is_none());
    let last = h.s.messages().last().unwrap();
    assert_eq!(last.id, "msg_a");
    assert_eq!(last.content.display_text(), "You said: hello there");
    assert_eq!(
        h.s.conversation().and_then(|c| c.title.as_deref()),
        Some("hello there")
    );
    assert!(h
        .events
        .iter()
        .any(|e| matches!(e, SessionEvent::MessageReceived(m) if m.id == "msg_a")));
    // F13: the history is refreshed after a reply.
    assert!(h
        .requests
        .iter()
        .any(|r| r.path.starts_with("/conversations?")));
    assert!(h.s.error().is_none());
}

#[test]
fn f14_every_text_chunk_is_reported_with_the_text_so_far() {
    let mut h = Harness::started_with_agent(SessionConfig::default());
    h.cmd(Command::Send("x".into()));
    h.answer(Method::Post, "/conversations", 201, CONV);
    h.chunk(
        0,
        &frame(r#"{"type":"stream.text","timestamp":2,"text":"a"}"#),
    );
    h.chunk(
        0,
        &frame(r#"{"type":"stream.text","timestamp":3,"text":"b"}"#),
    );
    let texts: Vec<_> = h
        .events
        .iter()
        .filter_map(|e| match e {
            SessionEvent::StreamText { chunk, full } => Some((chunk.clone(), full.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(
        texts,
        vec![("a".into(), "a".into()), ("b".into(), "ab".into())]
    );
}

#[test]
fn protocol_s7_tool_calls_are_snapshotted_into_the_final_message() {
    let mut h = Harness::started_with_agent(SessionConfig::default());
    h.cmd(Command::Send("x".into()));
    h.answer(Method::Post, "/conversations", 201, CONV);
    h.chunk(0, &frame(r#"{"type":"stream.tool_call","timestamp":2,"toolName":"get_weather","toolCallId":"call_9","args":{"city":"Izmir"}}"#));
    assert_eq!(h.s.streaming().unwrap().tool_calls.len(), 1);
    h.now += 2_400;
    h.chunk(0, &frame(r#"{"type":"stream.tool_result","timestamp":3,"toolName":"get_weather","toolCallId":"call_9","result":{"tempC":24}}"#));
    assert_eq!(
        h.s.streaming().unwrap().tool_calls[0].result,
        Some(serde_json::json!({"tempC": 24}))
    );
    h.chunk(0, &frame(r#"{"type":"stream.done","timestamp":4,"conversationId":"conv_1","messageId":"msg_a","content":"It is 24"}"#));
    let last = h.s.messages().last().unwrap();
    let details = last.tool_call_details();
    assert_eq!(details.len(), 1);
    assert_eq!(details[0].name, "get_weather");
    assert_eq!(details[0].result, Some(serde_json::json!({"tempC": 24})));
    assert_eq!(last.tool_call_duration_seconds(), Some(2));
    assert!(h.events.contains(&SessionEvent::ToolCall {
        name: "get_weather".into(),
        args: serde_json::json!({"city":"Izmir"})
    }));
}

#[test]
fn f64_progress_shows_until_text_arrives() {
    let mut h = Harness::started_with_agent(SessionConfig::default());
    h.cmd(Command::Send("x".into()));
    h.answer(Method::Post, "/conversations", 201, CONV);
    h.chunk(0, &frame(r#"{"type":"stream.progress","timestamp":2,"stage":"processing","message":"Reading files"}"#));
    assert_eq!(
        h.s.streaming().unwrap().progress.as_deref(),
        Some("Reading files")
    );
    h.chunk(
        0,
        &frame(r#"{"type":"stream.text","timestamp":3,"text":"ok"}"#),
    );
    assert_eq!(h.s.streaming().unwrap().progress, None);
}

#[test]
fn c29_send_refused_with_action_pending_returns_the_draft_and_refetches() {
    let mut h = Harness::started_with_agent(SessionConfig::default());
    h.cmd(Command::Send("first".into()));
    h.answer(Method::Post, "/conversations", 201, CONV);
    let stream = h.streams[0].id;
    h.feed(Input::Response {
        id: stream,
        result: Ok(HttpResponse {
            status: 409,
            body: r#"{"error":{"code":"ACTION_PENDING","message":"An action is pending"}}"#.into(),
            date: None,
            retry_after: None,
        }),
    });
    assert!(
        h.s.messages().is_empty(),
        "refused optimistic message removed"
    );
    assert_eq!(h.drafts(), vec!["first".to_owned()]);
    let err = h.s.error().expect("error shown");
    assert_eq!(
        err.code(),
        Some("action_pending"),
        "codes compare lower-case"
    );
    assert_eq!(err.server_message(), Some("An action is pending"));
    assert_eq!(h.s.run(), Run::Idle);
    assert!(h
        .requests
        .iter()
        .any(|r| r.method == Method::Get && r.path == "/conversations/conv_1"));
}

#[test]
fn c29_a_stream_error_before_start_is_a_refusal_and_after_start_keeps_the_message() {
    let mut h = Harness::started_with_agent(SessionConfig::default());
    h.cmd(Command::Send("one".into()));
    h.answer(Method::Post, "/conversations", 201, CONV);
    h.chunk(0, &frame(r#"{"type":"stream.error","timestamp":1,"error":"Conversation not found","code":"NOT_FOUND"}"#));
    assert!(h.s.messages().is_empty());
    assert_eq!(h.drafts(), vec!["one".to_owned()]);
    assert!(
        matches!(h.s.error(), Some(ChatError::Stream { code: Some(c), .. }) if c == "not_found")
    );

    h.cmd(Command::Send("two".into()));
    h.chunk(1, &frame(r#"{"type":"stream.start","timestamp":1,"conversationId":"conv_1","messageId":"msg_u"}"#));
    h.chunk(
        1,
        &frame(r#"{"type":"stream.error","timestamp":2,"error":"model down"}"#),
    );
    assert_eq!(h.s.messages().len(), 1, "stored user message stays");
    assert_eq!(
        h.drafts().len(),
        1,
        "no draft returned for a failure after start"
    );
    assert_eq!(h.s.run(), Run::Idle);
    assert!(h.s.streaming().is_none());
}

#[test]
/// C22 (issue 15): an unreadable frame is skipped for the developer's log; the person sees no
/// decoder wording and the reply goes on.
fn c22_a_malformed_frame_is_skipped_for_the_log_and_the_stream_goes_on() {
    let mut h = Harness::started_with_agent(SessionConfig::default());
    h.cmd(Command::Send("x".into()));
    h.answer(Method::Post, "/conversations", 201, CONV);
    h.chunk(0, "data: {not json\n\n");
    assert!(h.s.error().is_none(), "nothing shown: {:?}", h.s.error());
    assert!(h
        .events
        .iter()
        .any(|e| matches!(e, SessionEvent::FrameSkipped { detail } if !detail.is_empty())));
    h.chunk(
        0,
        &frame(r#"{"type":"stream.text","timestamp":2,"text":"still here"}"#),
    );
    h.chunk(0, &frame(r#"{"type":"stream.mystery","timestamp":2}"#));
    h.chunk(0, &frame(r#"{"type":"stream.done","timestamp":4,"conversationId":"conv_1","messageId":"msg_a","content":"still here"}"#));
    assert_eq!(
        h.s.messages().last().unwrap().content.display_text(),
        "still here"
    );
}

#[test]
fn protocol_s7_stop_keeps_partial_text_without_duration() {
    let mut h = Harness::started_with_agent(SessionConfig::default());
    h.cmd(Command::Send("x".into()));
    h.answer(Method::Post, "/conversations", 201, CONV);
    h.chunk(0, &frame(r#"{"type":"stream.tool_call","timestamp":2,"toolName":"t","toolCallId":"c1","args":{}}"#));
    h.chunk(
        0,
        &frame(r#"{"type":"stream.text","timestamp":3,"text":"partial"}"#),
    );
    h.cmd(Command::Stop);
    assert_eq!(h.aborted, vec![h.streams[0].id.0]);
    let last = h.s.messages().last().unwrap();
    assert_eq!(last.role, Role::Assistant);
    assert_eq!(last.content.display_text(), "partial");
    assert_eq!(last.tool_call_details().len(), 1);
    assert_eq!(last.tool_call_duration_seconds(), None);
    assert_eq!(h.s.run(), Run::Idle);
    // A late close of the aborted stream changes nothing.
    let before = h.s.messages().len();
    h.close(0, Some(TransportError::Aborted));
    assert_eq!(h.s.messages().len(), before);
    assert!(h.s.error().is_none());
}

#[test]
fn c17_cut_stream_is_looked_up_and_the_stored_reply_shown_without_error() {
    let mut h = Harness::started_with_agent(SessionConfig::default());
    h.cmd(Command::Send("hi".into()));
    h.answer(Method::Post, "/conversations", 201, CONV);
    h.chunk(0, &frame(r#"{"type":"stream.start","timestamp":1,"conversationId":"conv_1","messageId":"msg_u"}"#));
    h.chunk(
        0,
        &frame(r#"{"type":"stream.text","timestamp":2,"text":"You s"}"#),
    );
    h.close(0, None);
    assert!(h.s.error().is_none(), "no failure shown for a cut stream");
    // Not there yet: the server is still working.
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        r#"{"conversation":{"id":"conv_1","agentId":"echo"},"messages":[{"id":"msg_u","role":"user","content":"hi"}],"pendingActions":[]}"#,
    );
    assert!(h.s.error().is_none());
    let due = h.s.poll_timeout().expect("polls again");
    assert_eq!(due, Millis(h.now + 2_000));
    h.now = due.0;
    h.feed(Input::Timeout);
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        r#"{"conversation":{"id":"conv_1","agentId":"echo"},"messages":[{"id":"msg_u","role":"user","content":"hi"},{"id":"msg_a","role":"assistant","content":"You said: hi"}],"pendingActions":[]}"#,
    );
    assert_eq!(h.s.messages().len(), 2);
    assert_eq!(h.s.messages()[1].content.display_text(), "You said: hi");
    assert_eq!(h.s.run(), Run::Idle);
    assert!(h.s.poll_timeout().is_none());
    assert!(h.s.error().is_none());
}

#[test]
fn c17_network_failure_before_the_server_took_the_message_returns_the_draft() {
    let mut h = Harness::started_with_agent(SessionConfig::default());
    h.cmd(Command::Send("hi".into()));
    h.answer(Method::Post, "/conversations", 201, CONV);
    let id = h.streams[0].id;
    h.feed(Input::Response {
        id,
        result: Err(TransportError::Network("Failed to fetch".into())),
    });
    assert!(h.s.error().is_none(), "looks first");
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        r#"{"conversation":{"id":"conv_1","agentId":"echo"},"messages":[],"pendingActions":[]}"#,
    );
    assert!(h.s.messages().is_empty());
    assert_eq!(h.drafts(), vec!["hi".to_owned()]);
    assert!(matches!(h.s.error(), Some(ChatError::Network { .. })));
}

#[test]
fn c17_gives_up_after_thirty_seconds_with_the_stream_cut_error() {
    let mut h = Harness::started_with_agent(SessionConfig::default());
    h.cmd(Command::Send("hi".into()));
    h.answer(Method::Post, "/conversations", 201, CONV);
    h.close(0, None);
    let pending = r#"{"conversation":{"id":"conv_1","agentId":"echo"},"messages":[{"id":"msg_u","role":"user","content":"hi"}],"pendingActions":[]}"#;
    h.answer(Method::Get, "/conversations/conv_1", 200, pending);
    for _ in 0..40 {
        let Some(due) = h.s.poll_timeout() else { break };
        h.now = due.0;
        h.feed(Input::Timeout);
        if h.requests.iter().any(|r| r.path == "/conversations/conv_1") {
            h.answer(Method::Get, "/conversations/conv_1", 200, pending);
        }
    }
    assert!(h.s.poll_timeout().is_none());
    assert_eq!(h.s.error(), Some(&ChatError::StreamCut));
    assert_eq!(h.s.run(), Run::Idle);
}

#[test]
fn f5_non_streaming_send_replaces_the_optimistic_message_and_appends_the_reply() {
    let mut h = Harness::started_with_agent(SessionConfig {
        streaming: false,
        ..Default::default()
    });
    h.cmd(Command::Send("hi".into()));
    h.answer(Method::Post, "/conversations", 201, CONV);
    assert!(h.streams.is_empty());
    let req = h.answer(
        Method::Post,
        "/conversations/conv_1/messages",
        200,
        r#"{"message":{"id":"msg_u","role":"user","content":"hi"},"response":{"id":"msg_a","role":"assistant","content":"You said: hi"},"conversationTitle":"hi"}"#,
    );
    assert!(req.body.unwrap().contains(r#""stream":false"#));
    let ids: Vec<_> = h.s.messages().iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, vec!["msg_u", "msg_a"]);
    assert_eq!(
        h.s.conversation().and_then(|c| c.title.as_deref()),
        Some("hi")
    );
    assert_eq!(h.s.run(), Run::Idle);
}

#[test]
fn f10_open_conversation_shows_loading_then_the_messages() {
    let mut h = Harness::new(SessionConfig {
        conversation_id: Some("conv_9".into()),
        ..Default::default()
    });
    h.cmd(Command::Start);
    assert_eq!(h.s.run(), Run::Loading);
    h.answer(
        Method::Get,
        "/conversations/conv_9",
        200,
        r#"{"conversation":{"id":"conv_9","agentId":"echo","title":"Old"},"messages":[{"id":"m1","role":"user","content":"a"},{"id":"m2","role":"assistant","content":[{"type":"text","text":"b"},{"type":"text","text":"c"}]}]}"#,
    );
    assert_eq!(h.s.run(), Run::Idle);
    assert_eq!(h.s.messages().len(), 2);
    assert_eq!(
        h.s.messages()[1].content.display_text(),
        "bc",
        "F75 content parts"
    );
    assert!(h
        .events
        .contains(&SessionEvent::ConversationChanged(Some("conv_9".into()))));
}

#[test]
fn f10_a_missing_conversation_shows_the_error_and_clears_the_url() {
    let mut h = Harness::new(SessionConfig {
        conversation_id: Some("conv_gone".into()),
        ..Default::default()
    });
    h.cmd(Command::Start);
    h.answer(
        Method::Get,
        "/conversations/conv_gone",
        404,
        r#"{"error":{"code":"NOT_FOUND","message":"Conversation not found"}}"#,
    );
    assert_eq!(h.s.run(), Run::Idle);
    assert!(matches!(h.s.error(), Some(ChatError::Api { .. })));
    assert!(h.events.contains(&SessionEvent::ConversationChanged(None)));
}

#[test]
fn f45_deleting_the_open_conversation_clears_the_chat() {
    let mut h = Harness::started_with_agent(SessionConfig::default());
    h.cmd(Command::Send("x".into()));
    h.answer(Method::Post, "/conversations", 201, CONV);
    h.chunk(0, &frame(r#"{"type":"stream.done","timestamp":4,"conversationId":"conv_1","messageId":"msg_a","content":"y"}"#));
    h.answer(Method::Get, "/conversations?", 200, r#"{"conversations":[{"id":"conv_1","agentId":"echo","title":"x"}],"total":1,"limit":20,"offset":0,"hasMore":false}"#);
    assert_eq!(h.s.history().len(), 1);
    h.cmd(Command::DeleteConversation("conv_1".into()));
    h.answer(Method::Delete, "/conversations/conv_1", 204, "");
    assert!(h.s.history().is_empty());
    assert!(h.s.messages().is_empty());
    assert!(h.s.conversation().is_none());
    assert_eq!(
        h.events.last(),
        Some(&SessionEvent::ConversationChanged(None))
    );
}

#[test]
fn f159_load_more_appends_the_next_page_without_duplicates() {
    let mut h = Harness::new(SessionConfig::default());
    h.cmd(Command::Start);
    h.answer(Method::Get, "/agents", 200, AGENTS);
    h.answer(Method::Get, "/conversations?", 200, r#"{"conversations":[{"id":"c1","agentId":"echo"},{"id":"c2","agentId":"echo"}],"total":3,"limit":2,"offset":0,"hasMore":true}"#);
    assert!(h.s.history_has_more());
    h.cmd(Command::LoadMoreHistory);
    let req = h.answer(Method::Get, "/conversations?", 200, r#"{"conversations":[{"id":"c2","agentId":"echo"},{"id":"c3","agentId":"echo"}],"total":3,"limit":2,"offset":2,"hasMore":false}"#);
    assert!(req.path.contains("offset=2"));
    let ids: Vec<_> = h.s.history().iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, vec!["c1", "c2", "c3"]);
    assert!(!h.s.history_has_more());
}

#[test]
fn empty_or_whitespace_text_is_never_sent() {
    let mut h = Harness::started_with_agent(SessionConfig::default());
    h.cmd(Command::Send("   \n ".into()));
    assert!(h.s.messages().is_empty());
    assert!(h.requests.is_empty());
}

#[test]
fn no_agent_at_all_is_a_clear_error_and_keeps_the_draft() {
    let mut h = Harness::new(SessionConfig::default());
    h.cmd(Command::Start);
    h.answer(Method::Get, "/agents", 200, r#"{"agents":[]}"#);
    h.cmd(Command::Send("hello".into()));
    assert_eq!(h.s.error(), Some(&ChatError::NoAgent));
    assert_eq!(h.drafts(), vec!["hello".to_owned()]);
    let catalog = agent_chat_ui::core::Catalog::new("en");
    assert_eq!(
        h.s.error().unwrap().describe(&catalog),
        "No agent is available on this server."
    );
}

#[test]
fn f231_known_codes_read_friendly_and_unknown_codes_keep_the_server_words() {
    let catalog = agent_chat_ui::core::Catalog::new("en");
    let known = ChatError::Stream {
        code: Some("rate_limited".into()),
        message: "slow down".into(),
    };
    assert_eq!(
        known.describe(&catalog),
        "Too many requests. Try again in a moment."
    );
    assert_eq!(known.server_message(), Some("slow down"));
    let unknown = ChatError::Stream {
        code: Some("weird_thing".into()),
        message: "Weird thing happened".into(),
    };
    assert_eq!(unknown.describe(&catalog), "Weird thing happened");
    let tr = agent_chat_ui::core::Catalog::new("tr");
    assert_eq!(
        known.describe(&tr),
        "Çok fazla istek. Biraz bekleyip tekrar deneyin."
    );
}

/// F232 (C26): the English texts of the server's error codes are the ones FEATURES fixes,
/// word for word (seven of them had drifted).
#[test]
fn f232_english_error_texts_are_the_c26_wording() {
    let catalog = agent_chat_ui::core::Catalog::new("en");
    let waiting =
        "The assistant is waiting for your answer above. Answer it before sending something new.";
    for (code, text) in [
        (
            "conversation_busy",
            "The assistant is still working on this conversation. Please wait a moment.",
        ),
        ("action_pending", waiting),
        ("pending_action", waiting),
        (
            "action_forbidden",
            "Only the person who started this chat can answer this request.",
        ),
        ("action_expired", "That request has expired."),
        ("action_not_pending", "That request was already answered."),
        ("action_cancelled", "That request was cancelled."),
        ("rate_limited", "Too many requests. Try again in a moment."),
        ("quota_exceeded", "The usage limit has been reached."),
        ("message_too_long", "This message is too long."),
        (
            "guardrail_blocked",
            "This request was blocked by a safety rule.",
        ),
        ("file_too_large", "This file is too large."),
        ("unsupported_file_type", "This file type is not supported."),
        (
            "attachments_disabled",
            "Attachments are turned off for this assistant.",
        ),
    ] {
        let error = ChatError::Stream {
            code: Some(code.into()),
            message: "server words".into(),
        };
        assert_eq!(error.describe(&catalog), text, "{code}");
    }
}

fn approval_args(action: &agent_chat_ui::core::PendingAction) -> &serde_json::Value {
    match &action.kind {
        agent_chat_ui::core::ActionKind::ToolApproval(t) => &t.args,
        other => panic!("not an approval: {other:?}"),
    }
}

/// Sends "x" and opens its stream with a `stream.start`.
fn streaming() -> Harness {
    let mut h = Harness::started_with_agent(SessionConfig::default());
    h.cmd(Command::Send("x".into()));
    h.answer(Method::Post, "/conversations", 201, CONV);
    h.chunk(
        0,
        &frame(
            r#"{"type":"stream.start","timestamp":1,"conversationId":"conv_1","messageId":"m_u"}"#,
        ),
    );
    h
}

fn required(args: &str) -> String {
    frame(&format!(
        r#"{{"type":"stream.action_required","timestamp":2,"conversationId":"conv_1","action":{{"id":"act_1","type":"tool_approval","toolName":"note","args":{args}}}}}"#
    ))
}

/// C22 (issue 15): a lone surrogate escape is JSON the grammar allows and serde_json refuses;
/// the action's card still appears, the unpaired half read as U+FFFD, a real pair kept.
#[test]
fn c22_a_lone_surrogate_does_not_make_the_card_vanish() {
    let mut h = streaming();
    h.chunk(0, &required(r#"{"text":"a\ud800b \ud83d\ude00"}"#));
    let cards = h.s.cards();
    assert_eq!(cards.len(), 1, "the card is there");
    assert_eq!(approval_args(&cards[0].action)["text"], "a\u{fffd}b 😀");
}

/// C22 (issue 15): arguments nested deeper than the parser's limit still give a card, with
/// the arguments read down to 100 levels and the rest shown as "…".
#[test]
fn c22_arguments_nested_too_deep_do_not_make_the_card_vanish() {
    let mut h = streaming();
    let deep = format!("{}{}", "[".repeat(300), "]".repeat(300));
    h.chunk(0, &required(&format!(r#"{{"deep":{deep},"after":1}}"#)));
    let cards = h.s.cards();
    assert_eq!(cards.len(), 1, "the card is there");
    let args = approval_args(&cards[0].action);
    assert_eq!(args["after"], 1, "what follows the deep part is read");
    let mut v = &args["deep"];
    let mut levels = 0;
    while let Some(first) = v.as_array().and_then(|a| a.first()) {
        v = first;
        levels += 1;
    }
    assert_eq!(v, "…");
    assert!((90..=100).contains(&levels), "{levels} levels kept");
}

/// C22 (issue 15): the same holds for a conversation loaded after a reload: its open action
/// with a lone surrogate in the arguments is still drawn.
#[test]
fn c22_a_lone_surrogate_in_a_loaded_conversation_keeps_its_card() {
    let mut h = Harness::new(SessionConfig {
        conversation_id: Some("conv_1".into()),
        ..SessionConfig::default()
    });
    h.cmd(Command::Start);
    h.answer(Method::Get, "/agents", 200, AGENTS);
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        r#"{"conversation":{"id":"conv_1","agentId":"echo"},"messages":[{"id":"m_a","role":"assistant","content":"Wait."}],"pendingActions":[{"id":"act_1","type":"tool_approval","toolName":"note","args":{"text":"\udc00"}}]}"#,
    );
    assert_eq!(h.s.cards().len(), 1);
    assert_eq!(approval_args(&h.s.cards()[0].action)["text"], "\u{fffd}");
}
