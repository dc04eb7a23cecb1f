//! A conversation served whole is read a slice at a time (issue 18): its `messages` are cut
//! out of the answer without parsing, then parsed newest first, at most
//! `MESSAGES_PER_SLICE` per task, each slice asked for through `poll_timeout` (due at once)
//! so the browser gets a turn between them. The result is what reading it whole gave.
#![cfg(not(target_arch = "wasm32"))]
use crate::common;

use agent_chat_ui::core::json_slices::array_elements;
use agent_chat_ui::core::session::MESSAGES_PER_SLICE;
use agent_chat_ui::core::wire::ConversationWithMessages;
use agent_chat_ui::core::{
    ChatError, Command, ErrorContext, Input, Method, Millis, Run, SessionEvent,
};
use common::Harness;
use serde_json::{json, Value};

/// `n` messages "Message 1" … "Message n", user first, alternating.
fn fixture(conversation: &str, n: usize) -> Vec<Value> {
    (1..=n)
        .map(|i| {
            let role = if i % 2 == 1 { "user" } else { "assistant" };
            json!({ "id": format!("msg_{i}"), "conversationId": conversation, "role": role,
                    "content": format!("Message {i}") })
        })
        .collect()
}

/// E5 of a server that does not page: every message.
fn whole(conversation: &str, messages: &[Value]) -> String {
    json!({ "conversation": { "id": conversation, "agentId": "echo", "title": "Long" },
            "messages": messages, "pendingActions": [] })
    .to_string()
}

fn opened(conversation: &str) -> Harness {
    Harness::opening(conversation)
}

/// Feeds `Input::Timeout` while a slice is due now (the driver's `setTimeout(0)`); how many.
fn read_slices(h: &mut Harness) -> usize {
    let mut slices = 0;
    while h.s.poll_timeout() == Some(Millis(h.now)) {
        h.feed(Input::Timeout);
        slices += 1;
        assert!(slices < 10_000, "the reading never ends");
    }
    slices
}

/// Answers the E8 newest page a full E5 asks for with "no paging here" (a server that hands
/// conversations over whole), so what E5 gave is shown.
fn no_e8(h: &mut Harness) {
    let path = h
        .requests
        .iter()
        .find(|r| r.path.contains("/messages?"))
        .map(|r| r.path.clone())
        .expect("the E8 newest page is asked for after a full E5");
    h.answer(Method::Get, &path, 404, r#"{"error":{"code":"not_found"}}"#);
}

#[test]
fn i18_a_conversation_served_whole_is_read_in_slices_that_yield_between_them() {
    let all = fixture("conv_1", 1000);
    let mut h = opened("conv_1");
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        &whole("conv_1", &all),
    );
    // The answer's task read one slice; the rest waits for the timer, due at once.
    assert_eq!(h.s.run(), Run::Loading);
    assert!(h.s.messages().is_empty());
    assert_eq!(h.s.poll_timeout(), Some(Millis(h.now)));
    let slices = read_slices(&mut h);
    assert_eq!(
        slices + 1,
        1000_usize.div_ceil(MESSAGES_PER_SLICE),
        "{MESSAGES_PER_SLICE} messages per slice"
    );
    no_e8(&mut h);
    assert_eq!(h.s.run(), Run::Idle);
    let texts: Vec<String> =
        h.s.messages()
            .iter()
            .map(|m| m.content.display_text().into_owned())
            .collect();
    let expected: Vec<String> = (1..=1000).map(|i| format!("Message {i}")).collect();
    assert_eq!(texts, expected, "every message, oldest first");
    assert!(!h.s.has_older_messages());
    assert_eq!(h.s.poll_timeout(), None, "nothing left to read");
}

#[test]
fn i18_a_sliced_reading_gives_what_reading_it_whole_gives() {
    // Unreadable entries (no id, not an object) are dropped either way; odd spacing, strings
    // holding brackets, quotes and escapes, and nested metadata are cut where they end.
    let mut all = fixture("conv_1", 450);
    all.insert(7, json!({ "role": "user", "content": "no id" }));
    all.insert(300, json!("not a message"));
    all[20]["content"] = json!("brackets ] } [ { and \"quotes\" and \\ and \u{1F600}");
    all[21]["metadata"] = json!({ "deep": [[[{ "a": "]" }]]], "n": -1.5e3, "t": true });
    let body = whole("conv_1", &all).replace(",{", " ,\n\t{");
    let mut h = opened("conv_1");
    h.answer(Method::Get, "/conversations/conv_1", 200, &body);
    read_slices(&mut h);
    no_e8(&mut h);
    let read_whole =
        ConversationWithMessages::from_value(&serde_json::from_str(&body).expect("valid JSON"))
            .expect("an E5 answer");
    assert_eq!(h.s.messages().len(), 450);
    assert_eq!(h.s.messages(), read_whole.messages.as_slice());
}

#[test]
fn i18_a_malformed_message_fails_the_load_with_a_clear_error_as_it_would_whole() {
    let all = fixture("conv_1", 600);
    let body = whole("conv_1", &all).replacen(r#""content":"Message 2""#, r#""content":tru"#, 1);
    let mut h = opened("conv_1");
    h.answer(Method::Get, "/conversations/conv_1", 200, &body);
    read_slices(&mut h);
    assert_eq!(h.s.run(), Run::Idle);
    assert!(h.s.messages().is_empty());
    assert!(matches!(
        h.s.error(),
        Some(ChatError::BadResponse {
            context: ErrorContext::LoadConversation,
            ..
        })
    ));
    assert!(h.events.contains(&SessionEvent::ConversationChanged(None)));
}

#[test]
fn i18_opening_another_conversation_stops_the_reading_of_the_first() {
    let mut h = opened("conv_1");
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        &whole("conv_1", &fixture("conv_1", 800)),
    );
    assert_eq!(
        h.s.poll_timeout(),
        Some(Millis(h.now)),
        "a reading is under way"
    );
    h.cmd(Command::OpenConversation("conv_2".into()));
    assert_eq!(h.s.poll_timeout(), None, "the first reading is dropped");
    h.answer(
        Method::Get,
        "/conversations/conv_2",
        200,
        &whole("conv_2", &fixture("conv_2", 3)),
    );
    assert_eq!(h.s.run(), Run::Idle);
    assert_eq!(h.s.messages().len(), 3);
    assert!(h.s.messages().iter().all(|m| m.conversation_id == "conv_2"));
}

#[test]
fn i18_the_array_of_an_object_is_cut_into_its_elements_without_parsing() {
    let text =
        r#" { "a" : "messages", "messages" : [ {"x":"]"} , [1,[2]] ,"s\"]",3e2,null ] , "b":{} } "#;
    let (array, elements) = array_elements(text, "messages").expect("an array");
    assert_eq!(
        &text[array.clone()],
        r#"[ {"x":"]"} , [1,[2]] ,"s\"]",3e2,null ]"#
    );
    let parts: Vec<&str> = elements.iter().map(|r| &text[r.clone()]).collect();
    assert_eq!(
        parts,
        [r#"{"x":"]"}"#, "[1,[2]]", r#""s\"]""#, "3e2", "null"]
    );
    // The last of a key given twice counts, as it does for serde_json.
    let (_, twice) = array_elements(r#"{"messages":[1],"messages":[2,3]}"#, "messages").unwrap();
    assert_eq!(twice.len(), 2);
    assert_eq!(
        array_elements(r#"{"messages":[]}"#, "messages")
            .unwrap()
            .1
            .len(),
        0
    );
    // Not followable: parsed whole by the caller.
    for bad in [
        "[1,2]",
        r#"{"messages":[1,2]"#,
        r#"{"messages":[1,2]} x"#,
        r#"{"messages":{"a":1}}"#,
        r#"{"other":[1]}"#,
        r#"{"messages":[1 2]}"#,
        r#"{"messages":["open]}"#,
        "",
    ] {
        assert_eq!(array_elements(bad, "messages"), None, "{bad}");
    }
}

/// The E8 newest page of `all` (newest first), as a server that pages answers it.
fn newest_page(all: &[Value]) -> String {
    let page: Vec<&Value> = all.iter().rev().take(25).collect();
    json!({ "messages": page, "total": all.len(), "limit": 25, "offset": 0,
            "hasMore": all.len() > 25 })
    .to_string()
}

fn newest_page_path(h: &Harness) -> String {
    h.requests
        .iter()
        .find(|r| r.path.contains("/messages?"))
        .map(|r| r.path.clone())
        .expect("the E8 newest page is asked for with the answer")
}

/// Opens `conv_1`, answers E5 with `all` served whole; the path of the newest page asked for
/// with it.
fn answered_whole(all: &[Value]) -> (Harness, String) {
    let mut h = opened("conv_1");
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        &whole("conv_1", all),
    );
    let path = newest_page_path(&h);
    (h, path)
}

fn texts(h: &Harness) -> Vec<String> {
    h.s.messages()
        .iter()
        .map(|m| m.content.display_text().into_owned())
        .collect()
}

#[test]
fn i18_an_open_shows_the_newest_messages_once_the_newest_page_confirms_them() {
    let all = fixture("conv_1", 1000);
    // The newest page is asked for with the answer, not after reading it (D69).
    let (mut h, path) = answered_whole(&all);
    assert!(path.ends_with("limit=25&order=desc"), "{path}");
    assert!(h.s.messages().is_empty(), "the end is not known yet");
    h.answer(Method::Get, &path, 200, &newest_page(&all));
    // The first slice's messages are the conversation's newest: shown at once.
    let newest: Vec<String> = (1000 - MESSAGES_PER_SLICE + 1..=1000)
        .map(|i| format!("Message {i}"))
        .collect();
    assert_eq!(texts(&h), newest);
    assert_eq!(h.s.run(), Run::Idle, "the composer can be used");
    assert!(h.s.has_older_messages() && h.s.is_loading_older());
    let changed = |h: &Harness| {
        h.events
            .iter()
            .filter(|e| **e == SessionEvent::ConversationChanged(Some("conv_1".into())))
            .count()
    };
    assert_eq!(changed(&h), 1);
    // Asking for older messages meanwhile asks the server nothing: they are being read.
    let before = h.requests.len();
    h.cmd(Command::LoadOlderMessages);
    assert_eq!(h.requests.len(), before);
    let slices = read_slices(&mut h);
    assert_eq!(slices + 1, 1000_usize.div_ceil(MESSAGES_PER_SLICE));
    let expected: Vec<String> = (1..=1000).map(|i| format!("Message {i}")).collect();
    assert_eq!(texts(&h), expected, "the older ones joined above");
    assert!(!h.s.has_older_messages() && !h.s.is_loading_older());
    assert_eq!(changed(&h), 1, "one open, announced once");
    assert_eq!(h.s.poll_timeout(), None);
}

#[test]
fn i18_an_answer_cut_at_its_cap_is_never_shown_before_the_newest_page_joins_it() {
    // The server gave the first 400 of 1,000 messages: its newest page is not in the answer.
    let all = fixture("conv_1", 1000);
    let (mut h, path) = answered_whole(&all[..400]);
    h.answer(Method::Get, &path, 200, &newest_page(&all));
    assert!(h.s.messages().is_empty(), "message 400 is not the end");
    assert_eq!(h.s.run(), Run::Loading);
    read_slices(&mut h);
    // D26: the newest page alone, older pages to load.
    let expected: Vec<String> = (976..=1000).map(|i| format!("Message {i}")).collect();
    assert_eq!(texts(&h), expected);
    assert!(h.s.has_older_messages() && !h.s.is_loading_older());
}

#[test]
fn i18_a_malformed_older_message_keeps_the_newest_shown_with_a_clear_error() {
    let all = fixture("conv_1", 600);
    let body = whole("conv_1", &all).replacen(r#""content":"Message 2""#, r#""content":tru"#, 1);
    let mut h = opened("conv_1");
    h.answer(Method::Get, "/conversations/conv_1", 200, &body);
    let path = newest_page_path(&h);
    h.answer(Method::Get, &path, 200, &newest_page(&all));
    assert_eq!(h.s.messages().len(), MESSAGES_PER_SLICE);
    read_slices(&mut h);
    assert_eq!(
        h.s.messages().len(),
        MESSAGES_PER_SLICE,
        "nothing shown is lost"
    );
    assert!(matches!(
        h.s.error(),
        Some(ChatError::BadResponse {
            context: ErrorContext::LoadConversation,
            ..
        })
    ));
    // The server pages (E8 answered): the older messages can be asked for from it.
    assert!(h.s.has_older_messages() && !h.s.is_loading_older());
    let before = h.requests.len();
    h.cmd(Command::LoadOlderMessages);
    assert_eq!(h.requests.len(), before + 1);
    assert!(h.requests[before].path.contains("offset=200"));
}

#[test]
fn i18_a_message_sent_while_older_ones_are_read_stays_the_newest() {
    let all = fixture("conv_1", 1000);
    let (mut h, path) = answered_whole(&all);
    h.answer(Method::Get, &path, 404, r#"{"error":{"code":"not_found"}}"#);
    assert_eq!(
        h.s.messages().len(),
        MESSAGES_PER_SLICE,
        "no E8: the answer is all"
    );
    h.cmd(Command::Send("one more".into()));
    read_slices(&mut h);
    let shown = texts(&h);
    assert_eq!(shown.len(), 1001);
    assert_eq!(shown[0], "Message 1");
    assert_eq!(shown[1000], "one more");
    assert!(!h.s.has_older_messages());
}

#[test]
fn i18_opening_another_conversation_drops_the_older_part_still_being_read() {
    let all = fixture("conv_1", 1000);
    let (mut h, path) = answered_whole(&all);
    h.answer(Method::Get, &path, 200, &newest_page(&all));
    assert_eq!(h.s.messages().len(), MESSAGES_PER_SLICE);
    h.cmd(Command::OpenConversation("conv_2".into()));
    assert_eq!(h.s.poll_timeout(), None, "the reading is dropped");
    h.answer(
        Method::Get,
        "/conversations/conv_2",
        200,
        &whole("conv_2", &fixture("conv_2", 3)),
    );
    assert_eq!(h.s.messages().len(), 3);
    assert!(!h.s.has_older_messages() && !h.s.is_loading_older());
}

#[test]
fn i18_a_long_answer_waits_for_the_newest_page_before_it_is_shown_when_read_first() {
    // Read before the newest page answers: shown whole when it does, as D26 joins them.
    let all = fixture("conv_1", 300);
    let (mut h, path) = answered_whole(&all);
    read_slices(&mut h);
    assert!(h.s.messages().is_empty());
    assert_eq!(
        h.s.poll_timeout(),
        None,
        "nothing to read while the page is awaited"
    );
    h.answer(Method::Get, &path, 200, &newest_page(&all));
    assert_eq!(h.s.messages().len(), 300);
    assert!(!h.s.has_older_messages());
    assert_eq!(h.s.run(), Run::Idle);
}
