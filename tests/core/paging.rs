//! Long conversations (issue 8, D26): E5 gives the first 100 messages, E8 `order=desc` the
//! newest page and then older pages as the person scrolls up. A fake server over a fixture of
//! 1,000 messages ("Message 1" … "Message 1000") answers exactly as PROTOCOL §3 says.
use crate::common;

use agent_chat_ui::core::{
    CardState, Command, HttpResponse, Input, Method, Outcome, Run, Session, SessionEvent,
    CONVERSATION_MESSAGE_CAP, MESSAGE_PAGE,
};
use common::Harness;
use serde_json::{json, Value};

/// A conversation of `n` messages, user first, alternating, numbered from 1.
fn fixture(n: usize) -> Vec<Value> {
    (1..=n)
        .map(|i| {
            let role = if i % 2 == 1 { "user" } else { "assistant" };
            json!({ "id": format!("msg_{i}"), "conversationId": "conv_1", "role": role,
                    "content": format!("Message {i}") })
        })
        .collect()
}

/// E5 as the reference server answers it: at most the first 100 messages, oldest first.
fn e5(all: &[Value], pending: Value) -> String {
    let first: Vec<&Value> = all.iter().take(CONVERSATION_MESSAGE_CAP).collect();
    json!({ "conversation": { "id": "conv_1", "agentId": "echo", "title": "Long" },
            "messages": first, "pendingActions": pending })
    .to_string()
}

/// E8 for `path` (`?limit&offset&order`), computed over `all` like the reference server.
fn e8(all: &[Value], path: &str) -> String {
    let query = path.split_once('?').map(|(_, q)| q).unwrap_or("");
    let param = |k: &str| {
        query
            .split('&')
            .filter_map(|kv| kv.split_once('='))
            .find(|(key, _)| *key == k)
            .map(|(_, v)| v.to_string())
    };
    let limit: usize = param("limit").and_then(|v| v.parse().ok()).unwrap_or(100);
    let offset: usize = param("offset").and_then(|v| v.parse().ok()).unwrap_or(0);
    let desc = param("order").as_deref() == Some("desc");
    let ordered: Vec<&Value> = if desc {
        all.iter().rev().collect()
    } else {
        all.iter().collect()
    };
    let page: Vec<&Value> = ordered.into_iter().skip(offset).take(limit).collect();
    let has_more = offset + page.len() < all.len();
    json!({ "messages": page, "total": all.len(), "limit": limit, "offset": offset,
            "hasMore": has_more })
    .to_string()
}

fn opened(conversation: &str) -> Harness {
    Harness::opening(conversation)
}

fn numbers(s: &Session) -> Vec<usize> {
    s.messages()
        .iter()
        .map(|m| m.id.trim_start_matches("msg_").parse().unwrap_or(0))
        .collect()
}

/// Answers the one open E8 request from `all`; returns its path.
fn answer_e8(h: &mut Harness, all: &[Value]) -> String {
    let req = h
        .requests
        .iter()
        .find(|r| r.path.contains("/messages?"))
        .cloned()
        .expect("an E8 request");
    let body = e8(all, &req.path);
    h.answer(Method::Get, &req.path, 200, &body);
    req.path
}

#[test]
fn issue8_a_1000_message_conversation_opens_at_its_end_and_pages_back_to_message_1() {
    let all = fixture(1000);
    let mut h = opened("conv_1");
    assert_eq!(h.s.run(), Run::Loading);
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        &e5(&all, json!([])),
    );
    // E5 was full: the newest page is asked for before anything is shown.
    assert_eq!(h.s.run(), Run::Loading);
    assert!(h.s.messages().is_empty());
    let path = answer_e8(&mut h, &all);
    assert_eq!(
        path,
        format!("/conversations/conv_1/messages?limit={MESSAGE_PAGE}&order=desc")
    );
    assert_eq!(h.s.run(), Run::Idle);
    assert_eq!(
        numbers(&h.s),
        (1000 - MESSAGE_PAGE + 1..=1000).collect::<Vec<_>>()
    );
    assert!(h.s.has_older_messages());
    assert!(h
        .events
        .contains(&SessionEvent::ConversationChanged(Some("conv_1".into()))));

    let mut pages = 0;
    while h.s.has_older_messages() {
        let before = h.s.messages().len();
        h.cmd(Command::LoadOlderMessages);
        assert!(h.s.is_loading_older());
        // A second request while one is on its way is ignored.
        h.cmd(Command::LoadOlderMessages);
        assert_eq!(
            h.requests
                .iter()
                .filter(|r| r.path.contains("/messages?"))
                .count(),
            1
        );
        let path = answer_e8(&mut h, &all);
        assert!(
            path.ends_with(&format!("&offset={before}&order=desc")),
            "{path}"
        );
        assert!(!h.s.is_loading_older());
        assert_eq!(h.s.messages().len(), before + MESSAGE_PAGE);
        pages += 1;
        assert!(pages < 100, "paging never ends");
    }
    assert_eq!(numbers(&h.s), (1..=1000).collect::<Vec<_>>());
    assert_eq!(pages, 1000 / MESSAGE_PAGE - 1);
    // Nothing more to ask for.
    h.cmd(Command::LoadOlderMessages);
    assert!(h.requests.is_empty());
    assert!(h.s.error().is_none());
}

#[test]
fn d26_a_conversation_under_the_e5_cap_needs_no_paging() {
    let all = fixture(40);
    let mut h = opened("conv_1");
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        &e5(&all, json!([])),
    );
    assert!(h.requests.is_empty(), "{:?}", h.requests);
    assert_eq!(numbers(&h.s), (1..=40).collect::<Vec<_>>());
    assert!(!h.s.has_older_messages());
    h.cmd(Command::LoadOlderMessages);
    assert!(h.requests.is_empty());
}

#[test]
fn d26_e5_and_the_newest_page_join_when_they_meet() {
    // 120 messages: E5 has 1..=100, the newest page 96..=120; shown once each, in order.
    let all = fixture(120);
    let mut h = opened("conv_1");
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        &e5(&all, json!([])),
    );
    answer_e8(&mut h, &all);
    assert_eq!(numbers(&h.s), (1..=120).collect::<Vec<_>>());
    assert!(!h.s.has_older_messages());
}

#[test]
fn d26_a_server_without_e8_still_shows_what_e5_gave() {
    let all = fixture(300);
    let mut h = opened("conv_1");
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        &e5(&all, json!([])),
    );
    h.answer(
        Method::Get,
        "/conversations/conv_1/messages?",
        404,
        r#"{"error":{"message":"Route not found","code":"NOT_FOUND"}}"#,
    );
    assert_eq!(numbers(&h.s), (1..=100).collect::<Vec<_>>());
    assert!(!h.s.has_older_messages());
    assert!(h.s.error().is_none());
    assert_eq!(h.s.run(), Run::Idle);
}

#[test]
fn d26_stale_pages_of_a_conversation_left_behind_are_dropped() {
    let all = fixture(1000);
    let mut h = opened("conv_1");
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        &e5(&all, json!([])),
    );
    // The person opens another conversation while the newest page is on its way.
    let tail = h.requests[0].clone();
    h.cmd(Command::OpenConversation("conv_2".into()));
    assert!(h.aborted.contains(&tail.id.0));
    h.requests.retain(|r| r.id != tail.id);
    h.feed(Input::Response {
        id: tail.id,
        result: Ok(HttpResponse {
            status: 200,
            body: e8(&all, &tail.path),
            date: None,
            retry_after: None,
        }),
    });
    assert!(h.s.messages().is_empty());
    assert_eq!(h.s.run(), Run::Loading);
    h.answer(
        Method::Get,
        "/conversations/conv_2",
        200,
        r#"{"conversation":{"id":"conv_2","agentId":"echo"},"messages":[{"id":"other","role":"user","content":"Elsewhere"}],"pendingActions":[]}"#,
    );
    let ids: Vec<&str> = h.s.messages().iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["other"]);

    // Same for an older page: back to conv_1, ask for older, leave before it arrives.
    h.cmd(Command::OpenConversation("conv_1".into()));
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        &e5(&all, json!([])),
    );
    answer_e8(&mut h, &all);
    h.cmd(Command::LoadOlderMessages);
    let older = h.requests[0].clone();
    h.cmd(Command::NewChat);
    assert!(h.aborted.contains(&older.id.0));
    h.requests.clear();
    h.feed(Input::Response {
        id: older.id,
        result: Ok(HttpResponse {
            status: 200,
            body: e8(&all, &older.path),
            date: None,
            retry_after: None,
        }),
    });
    assert!(h.s.messages().is_empty());
    assert!(!h.s.has_older_messages());
    assert!(!h.s.is_loading_older());
}

#[test]
fn c25_older_pages_restore_their_settled_cards_without_announcing_them() {
    // §9.6: message 11 (assistant) recorded an approval that was denied long ago; the newest
    // message holds an open question.
    let mut all = fixture(1000);
    all[10]["metadata"] = json!({ "pendingActions": [{ "id": "old_a", "type": "tool_approval",
        "toolName": "send_email", "args": {}, "status": "resolved",
        "resolution": { "decision": "deny" } }] });
    let open = json!([{ "id": "q_now", "type": "user_question", "messageId": "msg_1000",
        "questions": [{ "question": "Which one?", "options": [{ "label": "A" }] }] }]);
    let mut h = opened("conv_1");
    h.answer(Method::Get, "/conversations/conv_1", 200, &e5(&all, open));
    answer_e8(&mut h, &all);
    let ids =
        |s: &Session| -> Vec<String> { s.cards().iter().map(|c| c.action.id.clone()).collect() };
    // The old card's message is not on screen yet, so it is not drawn under the last reply.
    assert_eq!(ids(&h.s), ["q_now"]);
    assert_eq!(h.s.run(), Run::AwaitingAction);
    let announced = |h: &Harness| {
        h.events
            .iter()
            .filter(|e| matches!(e, SessionEvent::ActionRequired(_)))
            .count()
    };
    assert_eq!(announced(&h), 0, "restored cards are never announced");
    while h.s.has_older_messages() {
        h.cmd(Command::LoadOlderMessages);
        answer_e8(&mut h, &all);
    }
    let old =
        h.s.cards()
            .iter()
            .find(|c| c.action.id == "old_a")
            .expect("restored");
    assert_eq!(
        old.state,
        CardState::Settled(Outcome::Denied { comment: None })
    );
    assert_eq!(old.message_id.as_deref(), Some("msg_11"));
    assert!(old.restored);
    let now =
        h.s.cards()
            .iter()
            .find(|c| c.action.id == "q_now")
            .expect("open");
    assert_eq!(now.state, CardState::Waiting);
    assert_eq!(h.s.run(), Run::AwaitingAction);
    assert_eq!(announced(&h), 0);
}

#[test]
fn d26_an_older_page_that_fails_keeps_the_offer_and_says_so() {
    let all = fixture(1000);
    let mut h = opened("conv_1");
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        &e5(&all, json!([])),
    );
    answer_e8(&mut h, &all);
    h.cmd(Command::LoadOlderMessages);
    // A gateway page instead of an envelope: the generic wording for this context.
    h.answer(
        Method::Get,
        "/conversations/conv_1/messages?",
        502,
        "<html>Bad gateway</html>",
    );
    assert!(h.s.error().is_some());
    let catalog = agent_chat_ui::core::Catalog::new("en");
    assert_eq!(
        h.s.error().map(|e| e.describe(&catalog)),
        Some("Failed to load older messages".to_string())
    );
    assert!(h.s.has_older_messages());
    assert!(!h.s.is_loading_older());
    assert_eq!(h.s.messages().len(), MESSAGE_PAGE);
    // Trying again works.
    h.cmd(Command::DismissError);
    h.cmd(Command::LoadOlderMessages);
    answer_e8(&mut h, &all);
    assert_eq!(h.s.messages().len(), 2 * MESSAGE_PAGE);
}

#[test]
fn d26_overlapping_pages_are_deduplicated_and_a_page_with_nothing_new_ends_paging() {
    let all = fixture(1000);
    let mut h = opened("conv_1");
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        &e5(&all, json!([])),
    );
    answer_e8(&mut h, &all);
    assert_eq!(numbers(&h.s), (976..=1000).collect::<Vec<_>>());
    h.cmd(Command::LoadOlderMessages);
    // A server whose page overlaps what is loaded (messages were added meanwhile): 964..=988,
    // of which 976..=988 are already there.
    let req = h.requests[0].clone();
    let overlapping = e8(&all, "?limit=25&offset=12&order=desc");
    h.answer(Method::Get, &req.path, 200, &overlapping);
    assert_eq!(numbers(&h.s), (964..=1000).collect::<Vec<_>>());
    assert!(h.s.has_older_messages());
    // A page of nothing new: stop offering more rather than asking forever.
    h.cmd(Command::LoadOlderMessages);
    let req = h.requests[0].clone();
    h.answer(
        Method::Get,
        &req.path,
        200,
        &e8(&all, "?limit=10&offset=0&order=desc"),
    );
    assert!(!h.s.has_older_messages());
    assert_eq!(numbers(&h.s), (964..=1000).collect::<Vec<_>>());
}

#[test]
fn d26_messages_sent_here_do_not_shift_the_offset_of_older_pages() {
    // A message sent in this page keeps its local id; the server knows it under another one,
    // so only messages with server ids count towards the E8 offset.
    let mut all = fixture(1000);
    let mut h = opened("conv_1");
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        &e5(&all, json!([])),
    );
    answer_e8(&mut h, &all);
    assert_eq!(numbers(&h.s), (976..=1000).collect::<Vec<_>>());
    h.cmd(Command::Send("Message 1001".into()));
    assert_eq!(h.streams.len(), 1);
    let frame = |j: &str| common::frame(j);
    h.chunk(
        0,
        &frame(r#"{"type":"stream.start","conversationId":"conv_1","messageId":"msg_1002"}"#),
    );
    h.chunk(0, &frame(r#"{"type":"stream.done","conversationId":"conv_1","messageId":"msg_1002","content":"Message 1002"}"#));
    h.close(0, None);
    all.push(json!({ "id": "msg_1001s", "conversationId": "conv_1", "role": "user", "content": "Message 1001" }));
    all.push(json!({ "id": "msg_1002", "conversationId": "conv_1", "role": "assistant", "content": "Message 1002" }));
    h.cmd(Command::LoadOlderMessages);
    let path = answer_e8(&mut h, &all);
    // 25 loaded + msg_1002 (a server id) = 26; the local user message is not counted, so the
    // page (976..=952, newest first) overlaps by one message (msg_976, kept once) instead of
    // skipping one.
    assert!(path.contains("&offset=26&"), "{path}");
    let n = numbers(&h.s);
    assert_eq!(n.first(), Some(&952));
    assert_eq!(n.iter().filter(|&&i| i == 976).count(), 1);
    assert_eq!(&n[..25], (952..=976).collect::<Vec<_>>().as_slice());
    // No duplicate of a stored message.
    let mut ids: Vec<&str> = h.s.messages().iter().map(|m| m.id.as_str()).collect();
    let len = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), len);
}
