//! Browser tests of paging through a long conversation (issue 8, D26/D27): a styled
//! `ChatMessageList` over a detached `ChatStore` whose conversation has 1,000 messages. It
//! opens at its end; scrolling to the top asks for the next older page (E8 `order=desc`), and
//! the prepended page does not move what the reader was looking at. The list draws only the
//! rows near the view (D58), so the rows counted here stay bounded however many are loaded.
#![cfg(target_arch = "wasm32")]

use std::cell::Cell;
use std::collections::HashMap;
use std::rc::Rc;

use agent_chat_ui::core::{HttpRequest, Session, SessionConfig};
use agent_chat_ui::store::{ChatCallbacks, ChatStore};
use agent_chat_ui::ui::i18n::I18n;
use agent_chat_ui::ui::message_list::ChatMessageList;
use agent_chat_ui::ui::style::Styles;
use leptos::prelude::*;
use serde_json::{json, Value};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

use crate::web;
use web::{answer, query, section, sleep, wait_for, wait_until};

/// Rows the list may draw in its 600 px box (D58), however many are loaded.
const ROW_BOUND: u32 = 60;

/// "Message 1" … "Message n", user first, alternating; every third one a few lines long so
/// rows differ in height.
fn fixture(n: usize) -> Vec<Value> {
    (1..=n)
        .map(|i| {
            let role = if i % 2 == 1 { "user" } else { "assistant" };
            let content = if i % 3 == 0 {
                format!("Message {i}\n\nA longer reply, so that rows are not all alike.\n\n- one\n- two")
            } else {
                format!("Message {i}")
            };
            json!({ "id": format!("msg_{i}"), "conversationId": "conv_1", "role": role,
                    "content": content })
        })
        .collect()
}

/// E8 over `all` for the request's `?limit&offset&order`, like the reference server.
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
    let ordered: Vec<&Value> = if param("order").as_deref() == Some("desc") {
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

/// Mounts a styled list in a 600 px box and opens `conv_1` (E5 then the newest E8 page).
async fn mount_long(root: &web_sys::HtmlElement, all: &[Value]) -> (ChatStore, impl Drop) {
    let slot = Rc::new(Cell::new(None));
    let out = slot.clone();
    let handle = mount_to(root.clone(), move || {
        I18n::provide(Some("en"), HashMap::new());
        let config = SessionConfig {
            conversation_id: Some("conv_1".into()),
            show_history: false,
            ..SessionConfig::default()
        };
        let store = ChatStore::detached(Session::new(config), ChatCallbacks::default());
        out.set(Some(store));
        view! {
            <div class="chat-root" style="height: 600px; display: flex; flex-direction: column;">
                <Styles/>
                <ChatMessageList/>
            </div>
        }
    });
    let store = slot.get().expect("store created on mount");
    store.dispatch(agent_chat_ui::core::Command::Start);
    let mut requests = store.take_requests();
    answer(
        &store,
        &mut requests,
        "/agents",
        200,
        r#"{"agents":[{"id":"echo","name":"Echo"}]}"#,
    );
    let first: Vec<&Value> = all.iter().take(100).collect();
    let e5 = json!({ "conversation": { "id": "conv_1", "agentId": "echo" }, "messages": first,
                     "pendingActions": [] })
    .to_string();
    answer(&store, &mut requests, "/conversations/conv_1", 200, &e5);
    let mut requests = store.take_requests();
    let tail = requests.remove(0);
    assert_eq!(
        tail.path,
        "/conversations/conv_1/messages?limit=25&order=desc"
    );
    feed_page(&store, all, &tail);
    (store, handle)
}

fn feed_page(store: &ChatStore, all: &[Value], req: &HttpRequest) {
    store.feed(agent_chat_ui::core::Input::Response {
        id: req.id,
        result: Ok(agent_chat_ui::core::HttpResponse {
            status: 200,
            body: e8(all, &req.path),
            date: None,
            retry_after: None,
        }),
    });
}

fn scroller(root: &web_sys::HtmlElement) -> web_sys::HtmlElement {
    query(root, ".chat-message-list").expect("the message list")
}

fn row_top(root: &web_sys::HtmlElement, id: &str) -> f64 {
    let row = query(root, &format!("article[data-message-id={id}]")).expect("row");
    row.get_bounding_client_rect().top() - scroller(root).get_bounding_client_rect().top()
}

/// The message ids of the rows, in DOM order.
fn row_ids(root: &web_sys::HtmlElement) -> Vec<String> {
    let list = root.query_selector_all("article.chat-message").unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<web_sys::Element>().ok())
        .filter_map(|e| e.get_attribute("data-message-id"))
        .collect()
}

fn rows(root: &web_sys::HtmlElement) -> u32 {
    root.query_selector_all("article.chat-message")
        .unwrap()
        .length()
}

/// Messages loaded in the store.
fn loaded(store: &ChatStore) -> usize {
    store.messages.with_untracked(Vec::len)
}

/// Whether older messages are still on the server.
fn has_older(store: &ChatStore) -> bool {
    store.status.with_untracked(|s| s.has_older_messages)
}

/// The first row whose top is in view.
fn first_in_view(root: &web_sys::HtmlElement) -> String {
    row_ids(root)
        .into_iter()
        .find(|id| row_top(root, id) >= 0.0)
        .expect("a row in view")
}

/// The drawn rows are one run of consecutive messages, in order (nothing pinned here); returns
/// the numbers of the first and last.
fn assert_consecutive(root: &web_sys::HtmlElement) -> (usize, usize) {
    let ids: Vec<usize> = row_ids(root)
        .iter()
        .map(|id| {
            id.trim_start_matches("msg_")
                .parse()
                .expect("a numbered id")
        })
        .collect();
    assert!(!ids.is_empty(), "no rows drawn");
    for pair in ids.windows(2) {
        assert_eq!(
            pair[1],
            pair[0] + 1,
            "rows out of order or with a hole: {ids:?}"
        );
    }
    (ids[0], ids[ids.len() - 1])
}

/// Waits until the next older page is asked for, and returns that request.
async fn next_page_request(root: &web_sys::HtmlElement, store: &ChatStore) -> HttpRequest {
    page_request_polling(root, store, || {}).await
}

/// A reader who keeps scrolling to the top until the next older page is asked for. One
/// scroll is not enough when it lands in the frame where the window keeps the view after the
/// page before was prepended (D58): that moves the offset back down, as a browser's scroll
/// anchoring would, and the reader's next wheel turn is what asks again.
async fn scroll_up_until_page_request(
    root: &web_sys::HtmlElement,
    store: &ChatStore,
) -> HttpRequest {
    let list = scroller(root);
    page_request_polling(root, store, move || list.set_scroll_top(0)).await
}

/// Polls the store's requests for a page of older messages, calling `between` after each
/// poll that found none.
async fn page_request_polling(
    root: &web_sys::HtmlElement,
    store: &ChatStore,
    between: impl Fn(),
) -> HttpRequest {
    let found: Rc<Cell<Option<HttpRequest>>> = Rc::new(Cell::new(None));
    let slot = found.clone();
    let store = *store;
    wait_until("an older page is asked for", root, move || {
        let mut reqs = store.take_requests();
        if let Some(pos) = reqs.iter().position(|r| r.path.contains("/messages?")) {
            slot.set(Some(reqs.remove(pos)));
            true
        } else {
            between();
            false
        }
    })
    .await;
    found.take().expect("request")
}

async fn frames(n: usize) {
    for _ in 0..n {
        leptos::task::tick().await;
        sleep(20).await;
    }
}

#[wasm_bindgen_test]
async fn issue8_opens_at_the_end_and_prepends_older_pages_without_moving_the_view() {
    let root = section();
    let all = fixture(1000);
    let (store, _h) = mount_long(&root, &all).await;
    wait_for(&root, "article[data-message-id=msg_1000]").await;
    let list = scroller(&root);
    // Opens at its end.
    wait_until("the list is scrolled to its end", &root, || {
        let l = scroller(&root);
        l.scroll_height() - l.scroll_top() - l.client_height() <= 2
    })
    .await;
    assert!(rows(&root) <= 25);
    assert_eq!(row_ids(&root).last().map(String::as_str), Some("msg_1000"));
    assert!(query(&root, "article[data-message-id=msg_975]").is_none());
    assert!(
        query(&root, ".chat-older__button").is_some(),
        "offers older messages"
    );
    // The 25 rows overfill the 600 px box by more than the look-ahead (`LOAD_OLDER_PX`, 600 px),
    // so opening asks for no older page by itself: the next one below is the reader's.
    frames(3).await;
    assert!(
        list.scroll_height() - list.client_height() >= 600,
        "the opened page does not overfill the box: {} of {}",
        list.scroll_height(),
        list.client_height()
    );
    assert!(
        !store
            .take_requests()
            .iter()
            .any(|r| r.path.contains("/messages?")),
        "an older page was asked for before the reader scrolled"
    );

    // The reader scrolls up near the top: the next older page is asked for.
    list.set_scroll_top(40);
    let req = next_page_request(&root, &store).await;
    assert_eq!(
        req.path,
        "/conversations/conv_1/messages?limit=25&offset=25&order=desc"
    );
    wait_until("the log is busy while the page loads", &root, || {
        scroller(&root).get_attribute("aria-busy").as_deref() == Some("true")
    })
    .await;
    let button = query(&root, ".chat-older__button").expect("row stays");
    assert_eq!(
        button.get_attribute("aria-disabled").as_deref(),
        Some("true")
    );
    assert!(button
        .text_content()
        .unwrap_or_default()
        .contains("Loading older messages"));
    sleep(400).await; // let the rows' slide-in finish: measure what the reader sees
    let before = row_top(&root, "msg_976");
    let top_before = list.scroll_top();
    feed_page(&store, &all, &req);
    wait_until("the older page is loaded", &root, || loaded(&store) == 50).await;
    frames(3).await;
    sleep(400).await;
    assert!(rows(&root) <= ROW_BOUND, "{} rows", rows(&root));
    assert_consecutive(&root);
    let after = row_top(&root, "msg_976");
    assert!(
        (after - before).abs() <= 1.0,
        "the row the reader saw moved from {before} to {after}"
    );
    assert!(
        list.scroll_top() > top_before,
        "the offset grew by the prepended page"
    );
    assert_eq!(
        scroller(&root).get_attribute("aria-busy").as_deref(),
        Some("false")
    );

    // The button works too (keyboard users), and the view stays put again.
    let button = query(&root, ".chat-older__button").expect("more to load");
    list.set_scroll_top(list.scroll_top() + 700);
    frames(2).await;
    let _ = store.take_requests();
    sleep(400).await;
    let seen = first_in_view(&root);
    let before = row_top(&root, &seen);
    button.click();
    let req = next_page_request(&root, &store).await;
    assert_eq!(
        req.path,
        "/conversations/conv_1/messages?limit=25&offset=50&order=desc"
    );
    feed_page(&store, &all, &req);
    wait_until("the older page is loaded", &root, || loaded(&store) == 75).await;
    frames(3).await;
    sleep(400).await;
    assert!(rows(&root) <= ROW_BOUND, "{} rows", rows(&root));
    assert_consecutive(&root);
    let after = row_top(&root, &seen);
    assert!(
        (after - before).abs() <= 1.0,
        "the row the reader saw moved from {before} to {after}"
    );
}

/// The list keeps the reader's row in place in the frame after older rows are drawn above it
/// (D58). A scroll handler that runs before that frame (a redraw the rows' own resize asked
/// for a frame earlier, or a scroll event) must not take the rows already moved for where the
/// reader was: the row stays put, also at the very top, where the browser's own scroll
/// anchoring does nothing (D80).
#[wasm_bindgen_test]
async fn issue8_a_scroll_handled_before_the_view_is_kept_does_not_move_the_row() {
    let root = section();
    let all = fixture(1000);
    let (store, _h) = mount_long(&root, &all).await;
    wait_for(&root, "article[data-message-id=msg_1000]").await;
    let req = scroll_up_until_page_request(&root, &store).await;
    let list = scroller(&root);
    list.set_scroll_top(0);
    frames(3).await;
    sleep(400).await; // the rows' slide-in: measure where they rest
    assert_eq!(list.scroll_top(), 0, "the reader is at the very top");
    let seen = first_in_view(&root);
    let before = row_top(&root, &seen);
    // Whenever the list's DOM changes (a microtask, before any frame), a scroll handler
    // runs: the older rows (or their spacer) are drawn, the frame that keeps the view is not
    // here yet.
    let watch = js_sys::Function::new_with_args(
        "list",
        "var o = new MutationObserver(function () { list.dispatchEvent(new Event('scroll')); });\n\
         o.observe(list, { childList: true, subtree: true });\n\
         return o;",
    );
    let observer = watch.call1(&JsValue::NULL, &list).unwrap();
    feed_page(&store, &all, &req);
    wait_until("the older page is loaded", &root, || loaded(&store) == 50).await;
    frames(3).await;
    sleep(400).await;
    js_sys::Reflect::get(&observer, &"disconnect".into())
        .unwrap()
        .unchecked_into::<js_sys::Function>()
        .call0(&observer)
        .unwrap();
    // Not drawn any more: the view went far from it.
    let after =
        query(&root, &format!("article[data-message-id={seen}]")).map(|_| row_top(&root, &seen));
    assert!(
        after.is_some_and(|after| (after - before).abs() <= 1.0),
        "{seen} moved from {before} to {after:?}"
    );
}

#[wasm_bindgen_test]
async fn issue8_paging_back_reaches_message_1_and_the_offer_goes() {
    let root = section();
    let all = fixture(300);
    let (store, _h) = mount_long(&root, &all).await;
    wait_for(&root, "article[data-message-id=msg_300]").await;
    let mut pages = 0;
    while has_older(&store) {
        let req = scroll_up_until_page_request(&root, &store).await;
        feed_page(&store, &all, &req);
        frames(2).await;
        pages += 1;
        assert!(pages <= 11, "too many pages");
    }
    // The newest 25 (276..=300) on open, then 11 pages of 25 back to message 1.
    assert_eq!(pages, 11);
    assert_eq!(loaded(&store), 300);
    wait_until("the older-messages row goes", &root, || {
        query(&root, ".chat-older").is_none()
    })
    .await;
    // At the top, "Message 1" is drawn, and only the rows near it (D58).
    for _ in 0..10 {
        scroller(&root).set_scroll_top(0);
        frames(3).await;
    }
    let (first, _) = assert_consecutive(&root);
    assert_eq!(first, 1);
    assert!(rows(&root) <= ROW_BOUND, "{} rows", rows(&root));
    let ids: Vec<String> = store
        .messages
        .with_untracked(|m| m.iter().map(|m| m.id.clone()).collect());
    let expected: Vec<String> = (1..=300).map(|i| format!("msg_{i}")).collect();
    assert_eq!(ids, expected, "the messages are in conversation order");
}

/// When the last older page arrives, the "Load older messages" row goes; a keyboard user whose
/// focus was on its button lands on the message list, not on the page's <body>.
#[wasm_bindgen_test]
async fn focus_on_the_older_button_moves_to_the_list_when_the_last_page_arrives() {
    let root = section();
    let all = fixture(200);
    let (store, _h) = mount_long(&root, &all).await;
    wait_for(&root, "article[data-message-id=msg_200]").await;
    // Page back with the keyboard-focused button until the first message is in.
    let mut pages = 0;
    while has_older(&store) {
        // Let the rows' slide-in (0.3 s) finish, also that of the page just prepended: it
        // moves their boxes while it plays, and the row measured below may be one of them.
        web::sleep(400).await;
        let button = wait_for(&root, ".chat-older__button").await;
        button.focus().unwrap();
        button.click();
        // Focus scrolled the list to its top: let the window draw what is there (D58).
        frames(3).await;
        let req = next_page_request(&root, &store).await;
        // The first row in view stays put, also when the last page takes the
        // older-messages row away.
        let first = row_ids(&root)
            .into_iter()
            .find(|id| row_top(&root, id) >= 0.0)
            .expect("a row in view");
        let before = row_top(&root, &first);
        feed_page(&store, &all, &req);
        frames(3).await;
        let after = row_top(&root, &first);
        assert!(
            (after - before).abs() <= 1.0,
            "{first} moved from {before} to {after}"
        );
        pages += 1;
        // The newest 25 (176..=200) on open, then 7 pages of 25.
        assert!(pages <= 7, "too many pages");
    }
    wait_until("the older-messages row goes", &root, || {
        query(&root, ".chat-older").is_none()
    })
    .await;
    let list = scroller(&root);
    wait_until("focus on the message list", &root, || {
        web_sys::window()
            .unwrap()
            .document()
            .unwrap()
            .active_element()
            .is_some_and(|a| a.is_same_node(Some(&list)))
    })
    .await;
}

/// Sends `text` and answers the turn with a one-line reply (`m_u<n>` / `m_a<n>`).
fn turn(store: &ChatStore, n: usize) {
    store.send_message(format!("Live {n}"));
    let stream = store
        .take_requests()
        .into_iter()
        .find(|r| r.path.contains("/messages"))
        .expect("the send's stream");
    let frames = format!(
        "data: {{\"type\":\"stream.start\",\"timestamp\":1,\"conversationId\":\"conv_1\",\"messageId\":\"m_u{n}\"}}\n\n\
         data: {{\"type\":\"stream.done\",\"timestamp\":2,\"conversationId\":\"conv_1\",\"messageId\":\"m_a{n}\",\"content\":\"Reply {n}\"}}\n\n"
    );
    web::feed_whole_stream(store, stream.id, &frames);
}

/// D58: messages that arrive in a live session join the window at the end while the reader
/// follows it, the rows already drawn stay the same elements, and the rows drawn stay bounded.
#[wasm_bindgen_test]
async fn d58_a_live_session_is_drawn_at_the_end_and_stays_bounded() {
    let root = section();
    // 100 messages: E5's first 100 joined with the newest page.
    let all = fixture(100);
    let (store, _h) = mount_long(&root, &all).await;
    wait_for(&root, "article[data-message-id=msg_100]").await;
    for n in 1..=12 {
        turn(&store, n);
        frames(1).await;
    }
    let marked = wait_for(&root, "article[data-message-id=m_a12]").await;
    js_sys::Reflect::set(&marked, &"__d58".into(), &true.into()).unwrap();
    for n in 13..=30 {
        turn(&store, n);
        frames(1).await;
    }
    wait_for(&root, "article[data-message-id=m_a30]").await;
    wait_until("the list follows its end", &root, || {
        let l = scroller(&root);
        l.scroll_height() - l.scroll_top() - l.client_height() <= 2
    })
    .await;
    frames(3).await;
    assert_eq!(loaded(&store), 160);
    assert!(rows(&root) <= ROW_BOUND, "{} rows", rows(&root));
    // The drawn rows are the newest messages, in order, each once.
    let ids = row_ids(&root);
    let newest: Vec<String> = store.messages.with_untracked(|m| {
        m[m.len() - ids.len()..]
            .iter()
            .map(|m| m.id.clone())
            .collect()
    });
    assert_eq!(ids, newest);
    // A row drawn before and still in the window is the same element.
    if let Some(still) = query(&root, "article[data-message-id=m_a12]") {
        assert!(
            js_sys::Reflect::get(&still, &"__d58".into())
                .unwrap()
                .is_truthy(),
            "a drawn row was drawn again"
        );
    }
}
