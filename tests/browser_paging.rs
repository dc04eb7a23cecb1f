//! Browser tests of paging through a long conversation (issue 8, D26/D27): a styled
//! `ChatMessageList` over a detached `ChatStore` whose conversation has 1,000 messages. It
//! opens at its end; scrolling to the top asks for the next older page (E8 `order=desc`), and
//! the prepended page does not move what the reader was looking at.
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
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

mod web;
use web::{answer, computed_style, query, section, sleep, wait_for, wait_until};

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

/// Waits for the store's next E8 request (older page) and returns it.
async fn next_page_request(root: &web_sys::HtmlElement, store: &ChatStore) -> HttpRequest {
    let found: Rc<Cell<Option<HttpRequest>>> = Rc::new(Cell::new(None));
    let slot = found.clone();
    let store = *store;
    wait_until("an older page is asked for", root, move || {
        let mut reqs = store.take_requests();
        if let Some(pos) = reqs.iter().position(|r| r.path.contains("/messages?")) {
            slot.set(Some(reqs.remove(pos)));
            true
        } else {
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
    assert_eq!(rows(&root), 25);
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
    wait_for(&root, "article[data-message-id=msg_951]").await;
    frames(3).await;
    sleep(400).await;
    assert_eq!(rows(&root), 50);
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
    let before = row_top(&root, "msg_951");
    button.click();
    let req = next_page_request(&root, &store).await;
    assert_eq!(
        req.path,
        "/conversations/conv_1/messages?limit=25&offset=50&order=desc"
    );
    feed_page(&store, &all, &req);
    wait_for(&root, "article[data-message-id=msg_926]").await;
    frames(3).await;
    sleep(400).await;
    assert_eq!(rows(&root), 75);
    let after = row_top(&root, "msg_951");
    assert!(
        (after - before).abs() <= 1.0,
        "the row the reader saw moved from {before} to {after}"
    );
}

#[wasm_bindgen_test]
async fn issue8_paging_back_reaches_message_1_and_the_offer_goes() {
    let root = section();
    let all = fixture(300);
    let (store, _h) = mount_long(&root, &all).await;
    wait_for(&root, "article[data-message-id=msg_300]").await;
    let mut pages = 0;
    while query(&root, "article[data-message-id=msg_1]").is_none() {
        scroller(&root).set_scroll_top(0);
        let req = next_page_request(&root, &store).await;
        feed_page(&store, &all, &req);
        frames(2).await;
        pages += 1;
        assert!(pages <= 11, "too many pages");
    }
    // The newest 25 (276..=300) on open, then 11 pages of 25 back to message 1.
    assert_eq!(pages, 11);
    assert_eq!(rows(&root), 300);
    wait_until("the older-messages row goes", &root, || {
        query(&root, ".chat-older").is_none()
    })
    .await;
    // Rows are in conversation order.
    let ids = row_ids(&root);
    let expected: Vec<String> = (1..=300).map(|i| format!("msg_{i}")).collect();
    assert_eq!(ids, expected);
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
    while query(&root, "article[data-message-id=msg_1]").is_none() {
        // Let the rows' slide-in (0.3 s) finish, also that of the page just prepended: it
        // moves their boxes while it plays, and the row measured below may be one of them.
        web::sleep(400).await;
        let button = wait_for(&root, ".chat-older__button").await;
        button.focus().unwrap();
        button.click();
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

/// The pages of the list, in DOM order.
fn page_boxes(root: &web_sys::HtmlElement) -> Vec<web_sys::HtmlElement> {
    let list = root.query_selector_all(".chat-message-page").unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i))
        .map(|n| n.unchecked_into())
        .collect()
}

fn is_far(page: &web_sys::HtmlElement) -> bool {
    page.class_list().contains("chat-message-page--far")
}

/// Whether the browser draws `el` now: false inside a page it skips (`content-visibility`).
fn drawn(el: &web_sys::Element) -> bool {
    let check: js_sys::Function = js_sys::Reflect::get(el, &"checkVisibility".into())
        .unwrap()
        .unchecked_into();
    let options = js_sys::Object::new();
    js_sys::Reflect::set(&options, &"contentVisibilityAuto".into(), &true.into()).unwrap();
    check.call1(el, &options).unwrap().as_bool().unwrap()
}

/// The inline stand-in height of a far page (px).
fn stand_in(page: &web_sys::HtmlElement) -> f64 {
    let value = page
        .style()
        .get_property_value("contain-intrinsic-height")
        .unwrap();
    value
        .trim_start_matches("auto ")
        .trim_end_matches("px")
        .parse()
        .unwrap_or_else(|_| panic!("contain-intrinsic-height {value:?}"))
}

/// Scrolls the list so that `el`'s top is at the top of the box.
fn scroll_to(el: &web_sys::HtmlElement, root: &web_sys::HtmlElement) {
    let list = scroller(root);
    let to = list.scroll_top()
        + (el.get_bounding_client_rect().top() - list.get_bounding_client_rect().top()) as i32;
    list.set_scroll_top(to);
}

/// D47: after paging back through 300 messages (12 pages), the pages more than a box height
/// from the view are left to the browser to skip (`content-visibility: auto`) with their
/// measured height standing in, so what is laid out and painted stays a few pages however many
/// are loaded; the last page (new messages, the streaming reply) is always drawn; every row is
/// still in the DOM; a skipped page's stand-in height is exactly its drawn height, so taking a
/// page in or out of the skipped state moves nothing; a page scrolled back into view is an
/// ordinary box again.
#[wasm_bindgen_test]
async fn d47_far_pages_are_skipped_with_their_measured_height() {
    let root = section();
    root.scroll_into_view();
    let all = fixture(300);
    let (store, _h) = mount_long(&root, &all).await;
    wait_for(&root, "article[data-message-id=msg_300]").await;
    while query(&root, "article[data-message-id=msg_1]").is_none() {
        scroller(&root).set_scroll_top(0);
        let req = next_page_request(&root, &store).await;
        feed_page(&store, &all, &req);
        frames(2).await;
    }
    assert_eq!(page_boxes(&root).len(), 12);
    assert_eq!(rows(&root), 300, "skipped rows stay in the DOM");
    // The reader is at the top: the first pages are near, the others far; far means more
    // than one box height from the view, and the last page never is.
    scroller(&root).set_scroll_top(0);
    let away = |page: &web_sys::HtmlElement| {
        let list = scroller(&root);
        let (view, reach) = (
            list.get_bounding_client_rect(),
            f64::from(list.client_height()),
        );
        let r = page.get_bounding_client_rect();
        r.bottom() < view.top() - reach || r.top() > view.bottom() + reach
    };
    wait_until(
        "exactly the pages away from the view are marked far",
        &root,
        || {
            let pages = page_boxes(&root);
            let n = pages.len();
            pages
                .iter()
                .enumerate()
                .all(|(i, p)| is_far(p) == (i + 1 < n && away(p)))
        },
    )
    .await;
    let all_pages = page_boxes(&root);
    let far_count = all_pages.iter().filter(|p| is_far(p)).count();
    assert!(
        far_count >= 8,
        "only the pages near the view and the last one are drawn: {far_count} of 12 far"
    );
    assert!(
        !is_far(all_pages.last().unwrap()),
        "the last page is always drawn"
    );
    for page in all_pages.iter().filter(|p| is_far(p)) {
        assert_eq!(computed_style(page, "content-visibility"), "auto");
        let row = page
            .query_selector("article.chat-message")
            .unwrap()
            .unwrap();
        assert!(!drawn(&row), "a far page's rows are skipped");
    }
    // The stand-in height is the page's drawn height: drawing a skipped page in full (the
    // class taken off) leaves the list exactly as tall.
    let far = all_pages.iter().find(|p| is_far(p)).expect("a far page");
    let px = stand_in(far);
    let padding: f64 = ["padding-top", "padding-bottom"]
        .iter()
        .map(|p| {
            computed_style(far, p)
                .trim_end_matches("px")
                .parse::<f64>()
                .unwrap()
        })
        .sum();
    let height_before = scroller(&root).scroll_height();
    far.class_list().remove_1("chat-message-page--far").unwrap();
    let drawn_height = far.get_bounding_client_rect().height() - padding;
    assert!(
        (drawn_height - px).abs() <= 1.0,
        "the page is {drawn_height} px drawn, its stand-in {px} px"
    );
    assert!(
        (scroller(&root).scroll_height() - height_before).abs() <= 1,
        "drawing a skipped page in full changed the list's height"
    );
    far.class_list().add_1("chat-message-page--far").unwrap();
    // Scrolling far down to a skipped page shows its rows where its box was, and the page is
    // an ordinary box again (the class goes when it comes near).
    let target = all_pages[all_pages.len() - 3].clone();
    assert!(is_far(&target));
    let page_top = target.offset_top();
    scroll_to(&target, &root);
    wait_until("the page in view is no longer marked far", &root, || {
        !is_far(&target)
    })
    .await;
    sleep(400).await; // its rows' slide-in is long over; let nothing else move either
    let first_row: web_sys::HtmlElement = target
        .query_selector("article.chat-message")
        .unwrap()
        .expect("a row")
        .unchecked_into();
    assert!(drawn(&first_row), "the page in view is drawn");
    let rows_top = first_row.get_bounding_client_rect().top()
        - scroller(&root).get_bounding_client_rect().top();
    assert!(
        (rows_top - 12.0).abs() <= 1.0 && target.offset_top() == page_top,
        "the skipped page's rows showed {rows_top} px from where its box was"
    );
    // The first page is far now and was measured as it left.
    let first = page_boxes(&root)[0].clone();
    wait_until("the first page, now far above, is marked", &root, || {
        is_far(&first)
    })
    .await;
    assert!(stand_in(&first) > 0.0);
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

/// D47: messages that arrive in a live session join the last page until it holds a page's
/// worth of rows (25); the next one starts a new page, without moving any drawn row to another
/// page, so a long live session is drawn in pages the browser can skip too.
#[wasm_bindgen_test]
async fn d47_a_live_session_is_drawn_in_pages_too() {
    let root = section();
    // 100 messages: E5's first 100 joined with the newest page, one page of 100 rows.
    let all = fixture(100);
    let (store, _h) = mount_long(&root, &all).await;
    wait_for(&root, "article[data-message-id=msg_100]").await;
    assert_eq!(page_boxes(&root).len(), 1);
    let old_row = query(&root, "article[data-message-id=msg_100]").unwrap();
    js_sys::Reflect::set(&old_row, &"__d47".into(), &true.into()).unwrap();
    for n in 1..=14 {
        turn(&store, n);
        frames(1).await;
    }
    wait_until("the 28 live messages are drawn", &root, || {
        rows(&root) == 128
    })
    .await;
    let pages = page_boxes(&root);
    let counts: Vec<usize> = pages
        .iter()
        .map(|p| {
            p.query_selector_all("article.chat-message")
                .unwrap()
                .length() as usize
        })
        .collect();
    // The first page was full already: the live messages make pages of 25 after it.
    assert_eq!(counts, vec![100, 25, 3], "rows per page");
    let second_start = pages[1]
        .query_selector("article.chat-message")
        .unwrap()
        .unwrap()
        .text_content()
        .unwrap_or_default();
    assert!(second_start.contains("Live 1"), "{second_start}");
    // The rows drawn before stayed where they were (the same elements, in the first page).
    let still = query(&root, "article[data-message-id=msg_100]").unwrap();
    assert!(
        js_sys::Reflect::get(&still, &"__d47".into())
            .unwrap()
            .is_truthy(),
        "a drawn row was drawn again"
    );
    assert!(pages[0].contains(Some(&still)));
    // Every message once, in order: the 100, then each turn's message and reply.
    let ids = row_ids(&root);
    assert_eq!(ids.len(), 128);
    let unique: std::collections::HashSet<&String> = ids.iter().collect();
    assert_eq!(unique.len(), 128, "a message drawn twice");
    let opened: Vec<String> = (1..=100).map(|i| format!("msg_{i}")).collect();
    assert_eq!(ids[..100], opened[..]);
    for n in 1..=14 {
        assert_eq!(
            ids[100 + 2 * n - 1],
            format!("m_a{n}"),
            "turn {n} out of order"
        );
    }
}
