//! Session rules from issue 13 ("the other rules a person hits"), one test (or a pair) per
//! rule, named `i13_…`: expiry during a stream, the dropped-send match, nothing sent
//! disappears, countdowns on the server's clock. No browser; fake responses and frames.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use agent_chat_ui::core::{
    parse_http_date, CardState, ChatError, Command, HttpResponse, Input, Method, Millis, Outcome,
    Role, Run, SessionConfig, TransportError,
};
use common::{frame, Harness, AGENTS, EMPTY_LIST};

/// An approval that expires at `at` (epoch ms, the server's clock).
fn expiring(at: u64) -> String {
    format!(
        r#"{{"id":"act_9","type":"tool_approval","toolName":"restart","args":{{}},"expiresAt":{at}}}"#
    )
}

fn card_state(h: &Harness, id: &str) -> CardState {
    h.s.cards()
        .iter()
        .find(|c| c.action.id == id)
        .map(|c| c.state.clone())
        .expect("card exists")
}

/// A first message sent and its stream opened (conversation `conv_1` created).
fn streaming_first_message(text: &str) -> Harness {
    let mut h = Harness::started_with_agent(SessionConfig::default());
    h.cmd(Command::Send(text.into()));
    h.answer(Method::Post, "/conversations", 201, common::CONV);
    assert_eq!(h.streams.len(), 1, "the send opened its stream");
    h
}

// ----- issue 13: a card that expires locally while a stream is open does not end the turn ----

#[test]
fn i13_expiry_during_stream_keeps_the_turn() {
    let mut h = streaming_first_message("please do it");
    h.chunk(0, &frame(r#"{"type":"stream.start","timestamp":1,"conversationId":"conv_1","messageId":"msg_u"}"#));
    h.chunk(
        0,
        &frame(&format!(
            r#"{{"type":"stream.action_required","timestamp":2,"conversationId":"conv_1","action":{}}}"#,
            expiring(60_000)
        )),
    );
    h.chunk(
        0,
        &frame(r#"{"type":"stream.text","timestamp":3,"text":"Waiting for you"}"#),
    );
    assert_eq!(h.s.poll_timeout(), Some(Millis(60_000)));
    h.now = 60_000;
    h.feed(Input::Timeout);
    assert_eq!(
        card_state(&h, "act_9"),
        CardState::Settled(Outcome::Expired)
    );
    assert_eq!(
        h.s.run(),
        Run::Streaming,
        "the stream still runs: Stop stays"
    );
    assert!(h.s.is_streaming());
    assert!(!h.s.can_send(), "no second send while the reply streams");
    assert!(h.s.streaming().is_some(), "the partial reply stays drawn");

    // The stream goes on and ends normally: only then does the turn end.
    h.chunk(0, &frame(r#"{"type":"stream.done","timestamp":4,"conversationId":"conv_1","messageId":"msg_a1","content":"Waiting for you"}"#));
    h.close(0, None);
    assert_eq!(h.s.run(), Run::Idle);
    assert_eq!(h.s.messages().last().map(|m| m.id.as_str()), Some("msg_a1"));
}

#[test]
fn i13_expiry_of_a_paused_turn_still_ends_it() {
    // The counterpart: with no stream open the expired card releases the turn as before.
    let mut h = streaming_first_message("please do it");
    let action = expiring(60_000);
    h.chunk(
        0,
        &frame(&format!(
            r#"{{"type":"stream.done","timestamp":3,"conversationId":"conv_1","messageId":"msg_a1","content":"I need approval first.","status":"requires_action","pendingActions":[{action}]}}"#
        )),
    );
    h.close(0, None);
    assert_eq!(h.s.run(), Run::AwaitingAction);
    h.now = 60_000;
    h.feed(Input::Timeout);
    assert_eq!(h.s.run(), Run::Idle);
    assert!(h.s.can_send());
}

// ----- issue 13: countdowns run on the server's clock ----------------------------------------

/// The server's clock at the start of these tests (a whole second, as a `Date` header has).
const SERVER_T0: u64 = 1_700_000_000_000;
/// Five minutes: how far off the page's clock is.
const SKEW: u64 = 300_000;

/// Answers the oldest open request starting with `prefix` with a `Date` header.
fn answer_dated(h: &mut Harness, method: Method, prefix: &str, body: &str, date: Millis) {
    let pos = h
        .requests
        .iter()
        .position(|r| r.method == method && r.path.starts_with(prefix))
        .unwrap_or_else(|| panic!("no {method:?} {prefix} in {:?}", h.requests));
    let req = h.requests.remove(pos);
    h.feed(Input::Response {
        id: req.id,
        result: Ok(HttpResponse {
            date: Some(date),
            retry_after: None,
            ..HttpResponse::new(200, body)
        }),
    });
}

/// A chat started at page time `page_now`, whose first answer carried the server's `Date`
/// `SERVER_T0` (read as the middle of its second) when `date_header`, then paused on an
/// approval that the server made at `created_at` and lets wait until `SERVER_T0 + 60 s`.
fn paused_on_a_skewed_clock(page_now: u64, date_header: bool, created_at: u64) -> Harness {
    let mut h = Harness::new(SessionConfig::default());
    h.now = page_now;
    h.cmd(Command::Start);
    if date_header {
        answer_dated(&mut h, Method::Get, "/agents", AGENTS, Millis(SERVER_T0));
    } else {
        h.answer(Method::Get, "/agents", 200, AGENTS);
    }
    h.answer(Method::Get, "/conversations?", 200, EMPTY_LIST);
    h.cmd(Command::Send("restart it".into()));
    h.answer(Method::Post, "/conversations", 201, common::CONV);
    let action = format!(
        r#"{{"id":"act_9","type":"tool_approval","toolName":"restart","args":{{}},"createdAt":{created_at},"expiresAt":{}}}"#,
        SERVER_T0 + 60_000
    );
    h.chunk(0, &frame(r#"{"type":"stream.start","timestamp":1,"conversationId":"conv_1","messageId":"msg_u"}"#));
    h.chunk(
        0,
        &frame(&format!(
            r#"{{"type":"stream.action_required","timestamp":2,"conversationId":"conv_1","action":{action}}}"#
        )),
    );
    h.chunk(
        0,
        &frame(&format!(
            r#"{{"type":"stream.done","timestamp":3,"conversationId":"conv_1","messageId":"msg_a1","content":"Approve?","status":"requires_action","pendingActions":[{action}]}}"#
        )),
    );
    h.close(0, None);
    assert_eq!(h.s.run(), Run::AwaitingAction);
    h
}

#[test]
fn i13_http_dates_are_read() {
    assert_eq!(
        parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT"),
        Some(Millis(784_111_777_000))
    );
    assert_eq!(
        parse_http_date(" Tue, 14 Nov 2023 22:13:20 GMT "),
        Some(Millis(SERVER_T0))
    );
    assert_eq!(parse_http_date("yesterday"), None);
    assert_eq!(parse_http_date(""), None);
}

#[test]
fn i13_page_clock_ahead_does_not_expire_a_card_the_server_still_waits_on() {
    // The page's clock is five minutes ahead: page = server + 5 min (+ the half second the
    // `Date` header's rounding is read as).
    let page_t0 = SERVER_T0 + SKEW + 500;
    let mut h = paused_on_a_skewed_clock(page_t0, true, SERVER_T0);
    assert_eq!(h.s.clock_offset_ms(), -(SKEW as i64));
    assert_eq!(h.s.server_now(), Millis(SERVER_T0 + 500));
    // The timer is armed for the server's deadline, in page time.
    let deadline = SERVER_T0 + 60_000 + SKEW;
    assert_eq!(h.s.poll_timeout(), Some(Millis(deadline)));

    // Ten seconds later by the server: the page's own clock is long past `expiresAt`.
    h.now = page_t0 + 10_000;
    h.feed(Input::Timeout);
    assert_eq!(
        card_state(&h, "act_9"),
        CardState::Waiting,
        "the server still waits"
    );
    assert_eq!(h.s.run(), Run::AwaitingAction);
    assert!(
        !h.requests.iter().any(|r| r.path == "/conversations/conv_1"),
        "no expiry refetch: nothing expired"
    );

    // Just before the server's deadline it still waits; at it, it expires.
    h.now = deadline - 1;
    h.feed(Input::Timeout);
    assert_eq!(card_state(&h, "act_9"), CardState::Waiting);
    h.now = deadline;
    h.feed(Input::Timeout);
    assert_eq!(
        card_state(&h, "act_9"),
        CardState::Settled(Outcome::Expired)
    );
}

#[test]
fn i13_page_clock_behind_expires_the_card_at_the_servers_deadline() {
    // The page's clock is five minutes behind.
    let page_t0 = SERVER_T0 + 500 - SKEW;
    let mut h = paused_on_a_skewed_clock(page_t0, true, SERVER_T0);
    assert_eq!(h.s.clock_offset_ms(), SKEW as i64);
    assert_eq!(
        h.s.server_time(Millis(page_t0 + 1_000)),
        Millis(SERVER_T0 + 1_500)
    );
    let deadline = SERVER_T0 + 60_000 - SKEW;
    assert_eq!(h.s.poll_timeout(), Some(Millis(deadline)));
    h.now = deadline - 1;
    h.feed(Input::Timeout);
    assert_eq!(card_state(&h, "act_9"), CardState::Waiting);
    // On the page's clock `expiresAt` is five minutes away; on the server's it has come.
    h.now = deadline;
    h.feed(Input::Timeout);
    assert_eq!(
        card_state(&h, "act_9"),
        CardState::Settled(Outcome::Expired)
    );
    assert_eq!(h.s.run(), Run::Idle);
}

#[test]
fn i13_without_a_date_header_a_live_actions_created_at_sets_the_clock() {
    // No readable `Date` (a cross-origin server that does not expose it): the action made
    // just before it arrived tells the offset instead.
    let page_t0 = SERVER_T0 + SKEW;
    let mut h = paused_on_a_skewed_clock(page_t0, false, SERVER_T0);
    assert_eq!(h.s.clock_offset_ms(), -(SKEW as i64));
    assert_eq!(h.s.poll_timeout(), Some(Millis(SERVER_T0 + 60_000 + SKEW)));
    h.now = page_t0 + 10_000;
    h.feed(Input::Timeout);
    assert_eq!(card_state(&h, "act_9"), CardState::Waiting);
}

#[test]
fn i13_a_date_header_wins_over_created_at_and_a_second_of_skew_is_none() {
    // The `Date` says the clocks agree within its one-second resolution (page 0.3 s behind
    // the middle of the header's second): no offset.
    let mut h = paused_on_a_skewed_clock(SERVER_T0 + 800, true, SERVER_T0 - SKEW);
    assert_eq!(h.s.clock_offset_ms(), 0, "within the dead band");
    // The action was made five minutes before it arrived (a slow tool); read as a clock
    // sample it would say the page is five minutes ahead. The `Date` wins.
    assert_eq!(h.s.poll_timeout(), Some(Millis(SERVER_T0 + 60_000)));
    h.now = SERVER_T0 + 60_000;
    h.feed(Input::Timeout);
    assert_eq!(
        card_state(&h, "act_9"),
        CardState::Settled(Outcome::Expired)
    );
}

// ----- issue 13: "did the server take it" matches the message this page sent -----------------

const YES_BEFORE: &str = r#"{"conversation":{"id":"conv_1","agentId":"echo"},"messages":[
    {"id":"msg_u1","role":"user","content":"yes"},
    {"id":"msg_a1","role":"assistant","content":"Done."}],"pendingActions":[]}"#;

/// Conversation `conv_1` open with a user message "yes" and its reply, then "yes" sent again
/// and its stream broken before the server said anything.
fn yes_again_and_the_stream_drops() -> Harness {
    let mut h = Harness::started_with_agent(SessionConfig::default());
    h.cmd(Command::OpenConversation("conv_1".into()));
    h.answer(Method::Get, "/conversations/conv_1", 200, YES_BEFORE);
    assert_eq!(h.s.messages().len(), 2);
    h.cmd(Command::Send("yes".into()));
    assert_eq!(h.streams.len(), 1);
    h.close(0, Some(TransportError::Network("connection reset".into())));
    assert!(h.drafts().is_empty(), "it looks before deciding");
    h
}

#[test]
fn i13_dropped_send_is_not_taken_for_an_earlier_message_with_the_same_text() {
    let mut h = yes_again_and_the_stream_drops();
    // The look shows no new message: the earlier "yes" is not this one.
    h.answer(Method::Get, "/conversations/conv_1", 200, YES_BEFORE);
    assert_eq!(
        h.drafts(),
        vec!["yes".to_owned()],
        "refused: the draft comes back"
    );
    let ids: Vec<&str> = h.s.messages().iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["msg_u1", "msg_a1"], "the optimistic message left");
    assert!(matches!(h.s.error(), Some(ChatError::Network { .. })));
    assert_eq!(h.s.run(), Run::Idle);
    assert!(h.s.poll_timeout().is_none(), "no more looks");
}

#[test]
fn i13_dropped_send_is_taken_when_the_message_shows_after_the_last_known_one() {
    let mut h = yes_again_and_the_stream_drops();
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        r#"{"conversation":{"id":"conv_1","agentId":"echo"},"messages":[
            {"id":"msg_u1","role":"user","content":"yes"},
            {"id":"msg_a1","role":"assistant","content":"Done."},
            {"id":"msg_u2","role":"user","content":"yes"}],"pendingActions":[]}"#,
    );
    assert!(h.drafts().is_empty(), "taken: nothing goes back");
    assert!(h.s.error().is_none());
    assert_eq!(h.s.run(), Run::Streaming, "still waiting for the reply");
    assert!(h.s.poll_timeout().is_some(), "looks again");
}

#[test]
fn i13_dropped_send_with_a_stored_id_is_matched_by_that_id() {
    let mut h = Harness::started_with_agent(SessionConfig::default());
    h.cmd(Command::OpenConversation("conv_1".into()));
    h.answer(Method::Get, "/conversations/conv_1", 200, YES_BEFORE);
    h.cmd(Command::Send("yes".into()));
    h.chunk(0, &frame(r#"{"type":"stream.start","timestamp":1,"conversationId":"conv_1","messageId":"msg_u2"}"#));
    h.close(0, Some(TransportError::Network("connection reset".into())));
    // A copy that does not have msg_u2 (whatever else it has) did not take it.
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        r#"{"conversation":{"id":"conv_1","agentId":"echo"},"messages":[
            {"id":"msg_u1","role":"user","content":"yes"},
            {"id":"msg_a1","role":"assistant","content":"Done."},
            {"id":"msg_u9","role":"user","content":"yes"}],"pendingActions":[]}"#,
    );
    assert_eq!(h.drafts(), vec!["yes".to_owned()]);
}

// ----- issue 13: nothing the person sent disappears ------------------------------------------

/// Answers the oldest open request starting with `prefix` with a network failure.
fn fail(h: &mut Harness, method: Method, prefix: &str) {
    let pos = h
        .requests
        .iter()
        .position(|r| r.method == method && r.path.starts_with(prefix))
        .unwrap_or_else(|| panic!("no {method:?} {prefix} in {:?}", h.requests));
    let req = h.requests.remove(pos);
    h.feed(Input::Response {
        id: req.id,
        result: Err(TransportError::Network("Failed to fetch".into())),
    });
}

/// "hi" sent in a new conversation; the reply streams "You said" and the stream breaks
/// (`start` with the stored id when `stored` is given); the look after it fails too.
fn interrupted_turn(stored: Option<&str>) -> Harness {
    let mut h = streaming_first_message("hi");
    if let Some(id) = stored {
        h.chunk(0, &frame(&format!(r#"{{"type":"stream.start","timestamp":1,"conversationId":"conv_1","messageId":"{id}"}}"#)));
    }
    h.chunk(
        0,
        &frame(r#"{"type":"stream.text","timestamp":2,"text":"You said"}"#),
    );
    h.close(0, Some(TransportError::Network("connection reset".into())));
    fail(&mut h, Method::Get, "/conversations/conv_1");
    h
}

fn shown(h: &Harness) -> Vec<(Role, String, bool)> {
    h.s.messages()
        .iter()
        .map(|m| (m.role.clone(), m.display_text().into_owned(), m.interrupted))
        .collect()
}

#[test]
fn i13_a_broken_stream_whose_look_fails_keeps_what_was_sent_marked_interrupted() {
    let h = interrupted_turn(Some("msg_u1"));
    assert_eq!(
        shown(&h),
        vec![
            (Role::User, "hi".to_owned(), true),
            (Role::Assistant, "You said".to_owned(), true),
        ],
        "the sent message and the partial reply stay, marked"
    );
    assert!(
        h.drafts().is_empty(),
        "on screen with Retry, not back in the composer"
    );
    assert!(h.s.streaming().is_none());
    assert_eq!(h.s.error(), Some(&ChatError::StreamCut));
    assert_eq!(h.s.run(), Run::Idle);
    assert!(h.s.can_send(), "Retry (and a new message) can be sent");
    assert!(h.s.poll_timeout().is_none(), "no more looks");
}

#[test]
fn i13_retry_replaces_the_interrupted_turn() {
    let mut h = interrupted_turn(Some("msg_u1"));
    h.cmd(Command::Retry);
    assert_eq!(h.streams.len(), 2, "sent again");
    assert!(h.streams[1]
        .body
        .as_deref()
        .unwrap_or_default()
        .contains(r#""message":"hi""#));
    assert_eq!(
        shown(&h),
        vec![(Role::User, "hi".to_owned(), false)],
        "one message, not interrupted; the partial reply left"
    );
    assert_eq!(h.s.run(), Run::Streaming);
}

#[test]
fn i13_the_next_load_shows_the_servers_copy_of_an_interrupted_turn() {
    let mut h = interrupted_turn(Some("msg_u1"));
    assert_eq!(h.s.messages().iter().filter(|m| m.interrupted).count(), 2);
    // The next turn's look succeeds and finds the server's copy of both turns.
    h.cmd(Command::Send("next".into()));
    h.close(1, Some(TransportError::Network("connection reset".into())));
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        r#"{"conversation":{"id":"conv_1","agentId":"echo"},"messages":[
            {"id":"msg_u1","role":"user","content":"hi"},
            {"id":"msg_a1","role":"assistant","content":"You said: hi"},
            {"id":"msg_u2","role":"user","content":"next"},
            {"id":"msg_a2","role":"assistant","content":"You said: next"}],"pendingActions":[]}"#,
    );
    let ids: Vec<&str> = h.s.messages().iter().map(|m| m.id.as_str()).collect();
    assert_eq!(
        ids,
        ["msg_u1", "msg_a1", "msg_u2", "msg_a2"],
        "no local copies left"
    );
    assert!(h.s.messages().iter().all(|m| !m.interrupted));
}

#[test]
fn i13_an_interrupted_turn_the_server_never_stored_stays_after_a_load() {
    // No `start`: the server may never have stored "hi".
    let mut h = interrupted_turn(None);
    h.cmd(Command::Send("next".into()));
    h.close(1, Some(TransportError::Network("connection reset".into())));
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        r#"{"conversation":{"id":"conv_1","agentId":"echo"},"messages":[
            {"id":"msg_u2","role":"user","content":"next"},
            {"id":"msg_a2","role":"assistant","content":"You said: next"}],"pendingActions":[]}"#,
    );
    assert_eq!(
        shown(&h),
        vec![
            (Role::User, "hi".to_owned(), true),
            (Role::Assistant, "You said".to_owned(), true),
            (Role::User, "next".to_owned(), false),
            (Role::Assistant, "You said: next".to_owned(), false),
        ],
        "kept where it was sent, still marked"
    );
}
