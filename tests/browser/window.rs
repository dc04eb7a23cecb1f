//! Browser tests of windowed drawing (issue 18, D58): a styled `ChatMessageList` over a
//! detached `ChatStore` whose server hands over a 5,000-message conversation whole. Only the
//! rows near the view are in the DOM, in rows counted, not timed; the scroll range is real;
//! scrolling, find, focus and screen-reader positions reach every message.
#![cfg(target_arch = "wasm32")]

use std::cell::Cell;
use std::collections::HashMap;
use std::rc::Rc;

use agent_chat_ui::core::session::MESSAGES_PER_SLICE;
use agent_chat_ui::core::{Session, SessionConfig};
use agent_chat_ui::store::{ChatCallbacks, ChatStore};
use agent_chat_ui::ui::chat::ChatHeader;
use agent_chat_ui::ui::i18n::I18n;
use agent_chat_ui::ui::message_list::ChatMessageList;
use agent_chat_ui::ui::slots::HeaderSlot;
use agent_chat_ui::ui::style::Styles;
use leptos::prelude::*;
use serde_json::{json, Value};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

use crate::web;
use web::{answer, press, query, section, sleep, type_text, wait_for, wait_until};

/// Rows the list may draw in its 600 px box, whatever the length of the conversation: three
/// box heights of one-line rows (~50 px with the gap) is ~36; the hard bound is 120.
const ROW_BOUND: u32 = 60;

/// "Message 1" … "Message n", alternating user / assistant; every third one taller, and
/// message 7 holds the one word a find looks for.
fn fixture(n: usize) -> Vec<Value> {
    (1..=n)
        .map(|i| {
            let role = if i % 2 == 1 { "user" } else { "assistant" };
            let content = if i == 7 {
                "Message 7 mentions a haystack".to_owned()
            } else if i % 3 == 0 {
                format!("Message {i}\n\nA longer reply, so that rows are not all alike.\n\n- one\n- two")
            } else {
                format!("Message {i}")
            };
            json!({ "id": format!("msg_{i}"), "conversationId": "conv_1", "role": role,
                    "content": content })
        })
        .collect()
}

/// Mounts a styled list in a 600 px box and opens `conv_1`, whose E5 answer holds every
/// message (a server that does not page), then the newest E8 page the session asks for.
async fn mount_whole(root: &web_sys::HtmlElement, all: &[Value]) -> (ChatStore, impl Drop) {
    mount_whole_with(root, all, json!([]), false).await
}

/// [`mount_whole`] with these open actions in E5's `pendingActions`, and the default
/// `ChatHeader` above the list when `header`.
async fn mount_whole_with(
    root: &web_sys::HtmlElement,
    all: &[Value],
    pending: Value,
    header: bool,
) -> (ChatStore, impl Drop) {
    let (store, handle, mut requests) = mount_list(root, header);
    let e5 = json!({ "conversation": { "id": "conv_1", "agentId": "echo" }, "messages": all,
                     "pendingActions": pending })
    .to_string();
    answer(&store, &mut requests, "/conversations/conv_1", 200, &e5);
    // E5 is read a slice at a time (issue 18), the newest page asked for with it (D69): the
    // newest messages show first, the tests here start once every one is read.
    let mut requests = e8_request(&store).await;
    answer_e8(&store, &mut requests, all);
    wait_until("every message read", root, || {
        store.messages.with_untracked(Vec::len) == all.len()
    })
    .await;
    (store, handle)
}

/// Mounts a styled list in a 600 px box (the default `ChatHeader` above it when `header`),
/// starts the session and answers the agent list; the requests left (E5 of `conv_1`).
fn mount_list(
    root: &web_sys::HtmlElement,
    header: bool,
) -> (ChatStore, impl Drop, Vec<agent_chat_ui::core::HttpRequest>) {
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
        let slot = HeaderSlot {
            on_menu_click: None,
            agents: Signal::derive(Vec::new),
            selected_agent_id: Signal::derive(|| None),
            on_agent_change: Callback::new(|_: String| {}),
        };
        view! {
            <div class="chat-root" style="height: 600px; display: flex; flex-direction: column;">
                <Styles/>
                {header.then(|| view! { <ChatHeader header=slot/> })}
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
    (store, handle, requests)
}

/// Answers the newest E8 page (the last 25 of `all`).
fn answer_e8(
    store: &ChatStore,
    requests: &mut Vec<agent_chat_ui::core::HttpRequest>,
    all: &[Value],
) {
    let tail: Vec<&Value> = all.iter().rev().take(25).collect();
    let e8 = json!({ "messages": tail, "total": all.len(), "limit": 25, "offset": 0,
                     "hasMore": all.len() > 25 })
    .to_string();
    answer(store, requests, "/conversations/conv_1/messages", 200, &e8);
}

/// The requests made until the newest E8 page is asked for (with E5's answer, D69).
async fn e8_request(store: &ChatStore) -> Vec<agent_chat_ui::core::HttpRequest> {
    let mut requests = Vec::new();
    for _ in 0..500 {
        requests.extend(store.take_requests());
        if requests.iter().any(|r| r.path.contains("/messages?")) {
            return requests;
        }
        sleep(5).await;
    }
    panic!("the newest E8 page was never asked for: {requests:?}");
}

fn scroller(root: &web_sys::HtmlElement) -> web_sys::HtmlElement {
    query(root, ".chat-message-list").expect("the message list")
}

fn rows(root: &web_sys::HtmlElement) -> u32 {
    root.query_selector_all("article.chat-message")
        .unwrap()
        .length()
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

fn number(id: &str) -> usize {
    id.trim_start_matches("msg_")
        .parse()
        .expect("a numbered id")
}

fn elements(root: &web_sys::HtmlElement) -> u32 {
    root.query_selector_all("*").unwrap().length()
}

fn row(root: &web_sys::HtmlElement, id: &str) -> Option<web_sys::HtmlElement> {
    query(root, &format!("article[data-message-id={id}]"))
}

/// Whether the row is drawn and at least partly inside the scrolling box.
fn in_view(root: &web_sys::HtmlElement, id: &str) -> bool {
    let Some(r) = row(root, id) else {
        return false;
    };
    let list = scroller(root).get_bounding_client_rect();
    let rect = r.get_bounding_client_rect();
    rect.bottom() > list.top() && rect.top() < list.bottom()
}

async fn frames(n: usize) {
    for _ in 0..n {
        leptos::task::tick().await;
        sleep(20).await;
    }
}

/// Drawn rows are one run of consecutive messages (nothing pinned here), in order.
fn assert_consecutive(root: &web_sys::HtmlElement) -> (usize, usize) {
    let ids: Vec<usize> = row_ids(root).iter().map(|id| number(id)).collect();
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

#[wasm_bindgen_test]
async fn issue18_5000_messages_served_whole_draw_a_bounded_window_at_the_end() {
    let root = section();
    let all = fixture(5000);
    let (_store, _h) = mount_whole(&root, &all).await;
    wait_for(&root, "article[data-message-id=msg_5000]").await;
    wait_until("the list is scrolled to its end", &root, || {
        let l = scroller(&root);
        l.scroll_height() - l.scroll_top() - l.client_height() <= 2
    })
    .await;
    frames(5).await;
    let drawn = rows(&root);
    assert!(
        (5..=ROW_BOUND).contains(&drawn),
        "{drawn} rows drawn of 5,000"
    );
    let (_, last) = assert_consecutive(&root);
    assert_eq!(last, 5000);
    assert!(in_view(&root, "msg_5000"), "the newest message is in view");
    assert!(
        elements(&root) < 3000,
        "{} elements for 5,000 messages",
        elements(&root)
    );
    // The spacers give a real scroll range: about 5,000 rows' worth.
    let list = scroller(&root);
    assert!(
        list.scroll_height() > 5000 * 40,
        "scroll range {} px for 5,000 messages",
        list.scroll_height()
    );
    // Screen readers hear where a row is in the whole conversation.
    let newest = row(&root, "msg_5000").unwrap();
    assert_eq!(
        newest.get_attribute("aria-posinset").as_deref(),
        Some("5000")
    );
    assert_eq!(
        newest.get_attribute("aria-setsize").as_deref(),
        Some("5000")
    );
    // The log itself says nothing new: no older page to load, nothing busy.
    assert!(query(&root, ".chat-older__button").is_none());
}

#[wasm_bindgen_test]
async fn i18_a_conversation_served_whole_is_read_while_the_browser_keeps_its_turns() {
    let root = section();
    let all = fixture(5000);
    let (store, _h, mut requests) = mount_list(&root, false);
    let e5 = json!({ "conversation": { "id": "conv_1", "agentId": "echo" }, "messages": all,
                     "pendingActions": [] })
    .to_string();
    answer(&store, &mut requests, "/conversations/conv_1", 200, &e5);
    // The newest page is asked for with the answer (D69); once it confirms the answer ends
    // the conversation, its newest messages are shown while the older ones are read.
    let mut requests = e8_request(&store).await;
    answer_e8(&store, &mut requests, &all);
    // The answer's own task read one slice of 5,000 messages; the rest is read in tasks of
    // their own, so the browser draws frames meanwhile: the next frame (after the store's,
    // which publishes what the session has) sees the newest messages and not yet the rest.
    let (done, seen) = (Rc::new(Cell::new(false)), Rc::new(Cell::new(None)));
    let (probe_done, probe_seen) = (done.clone(), seen.clone());
    request_animation_frame(move || {
        probe_seen.set(Some(store.messages.with_untracked(Vec::len)));
        probe_done.set(true);
    });
    wait_until("the next frame", &root, || done.get()).await;
    let shown = seen.get().unwrap_or(0);
    assert!(
        (MESSAGES_PER_SLICE..5000).contains(&shown),
        "{shown} messages in the first frame: the newest slice, before the rest is read"
    );
    // The newest message is drawn before the older ones are all read, then all join it.
    wait_for(&root, "article[data-message-id=msg_5000]").await;
    wait_until("every message read", &root, || {
        store.messages.with_untracked(Vec::len) == 5000
    })
    .await;
    // Joined above: the reader still sees the end (the list follows it, D58).
    frames(3).await;
    assert!(in_view(&root, "msg_5000"), "the view stayed at the end");
}

/// 2,000 messages served whole, open at the end with the newest drawn; the mount to keep.
async fn open_2000_at_the_end(root: &web_sys::HtmlElement) -> impl Drop {
    let (_store, handle) = mount_whole(root, &fixture(2000)).await;
    wait_for(root, "article[data-message-id=msg_2000]").await;
    frames(3).await;
    handle
}

/// Starts recording every change of the number of rows under `root`, as the browser saw
/// them (in a MutationObserver's callback, which runs after each batch of DOM changes).
fn watch_row_counts(root: &web_sys::HtmlElement) {
    let watch = js_sys::Function::new_with_args(
        "root",
        "window.__rowCounts = []; new MutationObserver(() => { \
           const n = root.querySelectorAll('article.chat-message').length; \
           const a = window.__rowCounts; if (a[a.length - 1] !== n) a.push(n); \
         }).observe(root, { childList: true, subtree: true });",
    );
    watch.call1(&JsValue::NULL, root).unwrap();
}

/// The row counts recorded since [`watch_row_counts`].
fn row_counts() -> Vec<u32> {
    js_sys::Reflect::get(&web_sys::window().unwrap(), &"__rowCounts".into())
        .ok()
        .and_then(|v| v.dyn_into::<js_sys::Array>().ok())
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_f64())
                .map(|n| n as u32)
                .collect()
        })
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn i18_a_conversation_just_opened_is_drawn_a_few_rows_per_frame() {
    let root = section();
    watch_row_counts(&root);
    let all = fixture(5000);
    let (_store, _h) = mount_whole(&root, &all).await;
    wait_for(&root, "article[data-message-id=msg_5000]").await;
    frames(10).await;
    let counts = row_counts();
    let k = agent_chat_ui::ui::NEW_ROWS_PER_FRAME as u32;
    let first = counts.iter().copied().find(|n| *n > 0).unwrap_or(0);
    assert!(
        (1..=k).contains(&first),
        "the first frame drew {first} rows (at most {k}): {counts:?}"
    );
    let grew = counts
        .windows(2)
        .map(|w| w[1].saturating_sub(w[0]))
        .max()
        .unwrap_or(0);
    assert!(grew <= k, "{grew} rows added at once: {counts:?}");
    let drawn = rows(&root);
    assert!(
        drawn > k && drawn <= ROW_BOUND,
        "the window grew to {drawn} rows over the next frames: {counts:?}"
    );
    assert_consecutive(&root);
}

#[wasm_bindgen_test]
async fn i18_a_focused_field_keeps_focus_while_rows_are_drawn_before_its_row() {
    let root = section();
    let _h = open_2000_at_the_end(&root).await;
    // A field inside the newest row (as in a card's reason box), focused and typed into.
    let newest = row(&root, "msg_2000").unwrap();
    let document = web_sys::window().unwrap().document().unwrap();
    let field: web_sys::HtmlTextAreaElement = document
        .create_element("textarea")
        .unwrap()
        .unchecked_into();
    newest.append_child(&field).unwrap();
    field.focus().unwrap();
    field.set_value("half a reason");
    // The view goes to the top, then down a little at a time: the window grows down towards
    // the focused row, adding rows before it, which the keyed list moves in the DOM.
    let list = scroller(&root);
    list.set_scroll_top(0);
    frames(6).await;
    for _ in 0..6 {
        list.set_scroll_top(list.scroll_top() + 200);
        frames(2).await;
    }
    assert!(
        document
            .active_element()
            .is_some_and(|a| a.is_same_node(Some(&field))),
        "focus stayed in the field"
    );
    assert_eq!(field.value(), "half a reason");
    assert!(
        list.scroll_top() < 2000,
        "focus did not scroll the list to the field"
    );
}

#[wasm_bindgen_test]
async fn issue18_scrolling_to_the_top_and_the_middle_keeps_the_dom_bounded() {
    let root = section();
    let all = fixture(5000);
    let (_store, _h) = mount_whole(&root, &all).await;
    wait_for(&root, "article[data-message-id=msg_5000]").await;
    frames(5).await;
    let list = scroller(&root);
    // Jump to the top, as the Home key or a dragged scrollbar does: the first messages are
    // drawn there (estimated heights above settle as rows are measured, so go again).
    for _ in 0..20 {
        list.set_scroll_top(0);
        frames(3).await;
        if in_view(&root, "msg_1") {
            break;
        }
    }
    assert!(
        in_view(&root, "msg_1"),
        "\"Message 1\" in view at the top: {:?}",
        row_ids(&root)
    );
    let (first, _) = assert_consecutive(&root);
    assert_eq!(first, 1);
    assert!(rows(&root) <= ROW_BOUND, "{} rows at the top", rows(&root));
    let oldest = row(&root, "msg_1").unwrap();
    assert_eq!(oldest.get_attribute("aria-posinset").as_deref(), Some("1"));
    assert_eq!(
        oldest.get_attribute("aria-setsize").as_deref(),
        Some("5000")
    );
    // The middle: somewhere around message 2,500, a bounded run of rows, nothing at the ends.
    list.set_scroll_top(list.scroll_height() / 2);
    frames(6).await;
    let (from, to) = assert_consecutive(&root);
    assert!(
        rows(&root) <= ROW_BOUND,
        "{} rows in the middle",
        rows(&root)
    );
    assert!(
        from > 1000 && to < 4000,
        "the middle of the list drew messages {from}..{to}"
    );
    assert!(row(&root, "msg_1").is_none() && row(&root, "msg_5000").is_none());
    // Scrolling on by small steps (a reader, a wheel) moves the window with the view: every
    // row in view is drawn at every step.
    for _ in 0..30 {
        list.set_scroll_top(list.scroll_top() + 150);
        frames(2).await;
        let ids = row_ids(&root);
        assert!(
            ids.iter().any(|id| in_view(&root, id)),
            "a step left the view empty at {} px",
            list.scroll_top()
        );
        let gaps = root.query_selector_all(".chat-message-gap").unwrap();
        for i in 0..gaps.length() {
            let gap: web_sys::Element = gaps.item(i).unwrap().unchecked_into();
            let rect = gap.get_bounding_client_rect();
            let view = list.get_bounding_client_rect();
            assert!(
                rect.bottom() <= view.top() + 1.0 || rect.top() >= view.bottom() - 1.0,
                "a spacer is in view at {} px",
                list.scroll_top()
            );
        }
        assert!(rows(&root) <= ROW_BOUND);
    }
    assert!(elements(&root) < 3000);
}

#[wasm_bindgen_test]
async fn issue18_find_jumps_to_an_old_message_and_draws_it() {
    let root = section();
    let all = fixture(5000);
    let (_store, _h) = mount_whole(&root, &all).await;
    wait_for(&root, "article[data-message-id=msg_5000]").await;
    frames(3).await;
    assert!(
        row(&root, "msg_7").is_none(),
        "message 7 is far from the view"
    );
    // Ctrl+F in the list opens the find bar (the browser's find cannot see undrawn rows).
    let list = scroller(&root);
    let init = web_sys::KeyboardEventInit::new();
    init.set_key("f");
    init.set_ctrl_key(true);
    init.set_bubbles(true);
    init.set_cancelable(true);
    let ev = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    list.dispatch_event(&ev).unwrap();
    assert!(ev.default_prevented(), "Ctrl+F is the chat's find here");
    let input = wait_for(&root, ".chat-find input[type=search]").await;
    assert_eq!(
        input.get_attribute("aria-label").as_deref(),
        Some("Find in conversation")
    );
    wait_until("the field has focus", &root, || {
        web_sys::window()
            .unwrap()
            .document()
            .unwrap()
            .active_element()
            .is_some_and(|a| a.is_same_node(Some(&input)))
    })
    .await;
    type_text(&input, "HAYSTACK");
    wait_for(&root, "article[data-message-id=msg_7]").await;
    wait_until("message 7 scrolled into view", &root, || {
        in_view(&root, "msg_7")
    })
    .await;
    let status = query(&root, ".chat-find__status").unwrap();
    assert_eq!(status.text_content().as_deref(), Some("1 of 1"));
    let hit = query(&root, "[data-row=msg_7]").unwrap();
    assert_eq!(hit.get_attribute("data-find-hit").as_deref(), Some("true"));
    frames(4).await;
    assert!(
        rows(&root) <= ROW_BOUND + 1,
        "{} rows after the jump",
        rows(&root)
    );
    assert!(
        row(&root, "msg_5000").is_none(),
        "the end is no longer drawn"
    );

    // Many hits: "Message 49" is in 49, 490-499 and 4900-4999; Enter steps back in time from
    // the newest, Shift+Enter forward, and each hit is drawn where it is.
    type_text(&input, "message 49");
    wait_until("the newest hit", &root, || {
        status.text_content().as_deref() == Some("111 of 111")
    })
    .await;
    wait_until("message 4999 in view", &root, || in_view(&root, "msg_4999")).await;
    press(&input, "Enter");
    wait_until("the hit before it", &root, || in_view(&root, "msg_4998")).await;
    assert_eq!(status.text_content().as_deref(), Some("110 of 111"));
    for _ in 0..100 {
        press(&input, "Enter");
    }
    wait_until("message 499 in view", &root, || in_view(&root, "msg_499")).await;
    assert_eq!(status.text_content().as_deref(), Some("10 of 111"));
    assert!(rows(&root) <= ROW_BOUND + 1);

    // Nothing found says so; Escape closes and gives focus back to the toggle.
    type_text(&input, "no such words");
    wait_until("no matches", &root, || {
        status.text_content().as_deref() == Some("No matches")
    })
    .await;
    press(&input, "Escape");
    let toggle = wait_for(&root, ".chat-find__toggle").await;
    wait_until("the toggle has focus", &root, || {
        web_sys::window()
            .unwrap()
            .document()
            .unwrap()
            .active_element()
            .is_some_and(|a| a.is_same_node(Some(&toggle)))
    })
    .await;
    assert!(query(&root, ".chat-find").is_none());
    assert!(query(&root, "[data-find-hit]").is_none());
}

/// With the default header above the list, the find button sits in the header, beside the
/// title, instead of floating over the newest messages (where it covered a user's avatar);
/// it stays while the bar is open, says so, and closes it again.
#[wasm_bindgen_test]
async fn issue18_the_find_button_is_in_the_header_when_there_is_one() {
    let root = section();
    // The page scrolls too: a jump to a hit moves the list, never the page around it.
    let document = web_sys::window().unwrap().document().unwrap();
    let spacer: web_sys::HtmlElement = document.create_element("div").unwrap().unchecked_into();
    spacer.style().set_property("height", "3000px").unwrap();
    root.before_with_node_1(&spacer).unwrap();
    let tail: web_sys::HtmlElement = document.create_element("div").unwrap().unchecked_into();
    tail.style().set_property("height", "3000px").unwrap();
    root.after_with_node_1(&tail).unwrap();
    let all = fixture(2000);
    let (_store, _h) = mount_whole_with(&root, &all, json!([]), true).await;
    let window = web_sys::window().unwrap();
    window.scroll_to_with_x_and_y(0.0, 3000.0);
    let page_top = window.scroll_y().unwrap();
    let toggle = wait_for(&root, ".chat-header .chat-find__toggle").await;
    assert_eq!(
        root.query_selector_all(".chat-find__toggle")
            .unwrap()
            .length(),
        1,
        "one button, and none over the list"
    );
    assert!(query(&root, ".chat-message-list-frame .chat-find__toggle").is_none());
    assert_eq!(
        toggle.get_attribute("aria-expanded").as_deref(),
        Some("false")
    );
    toggle.click();
    let input = wait_for(&root, ".chat-find__input").await;
    assert_eq!(
        toggle.get_attribute("aria-expanded").as_deref(),
        Some("true")
    );
    type_text(&input, "Message 3");
    let hit = wait_for(&root, "[data-find-hit]").await;
    wait_until("the hit in view", &root, || {
        in_view(&root, &hit.get_attribute("data-row").unwrap_or_default())
    })
    .await;
    assert_eq!(
        window.scroll_y().unwrap(),
        page_top,
        "the page did not move"
    );
    toggle.click();
    wait_until("the bar closed", &root, || {
        query(&root, ".chat-find").is_none() && query(&root, "[data-find-hit]").is_none()
    })
    .await;
    assert_eq!(
        toggle.get_attribute("aria-expanded").as_deref(),
        Some("false")
    );
    // Opened again, the bar starts empty.
    toggle.click();
    let input: web_sys::HtmlInputElement =
        wait_for(&root, ".chat-find__input").await.unchecked_into();
    assert_eq!(input.value(), "");
    spacer.remove();
    tail.remove();
}

#[wasm_bindgen_test]
async fn issue18_the_focused_row_stays_drawn_when_scrolled_away() {
    let root = section();
    let _h = open_2000_at_the_end(&root).await;
    // Focus something inside the newest row (here the row itself, made focusable as a host's
    // slot content would be).
    let newest = row(&root, "msg_2000").unwrap();
    newest.set_attribute("tabindex", "-1").unwrap();
    newest.focus().unwrap();
    let list = scroller(&root);
    list.set_scroll_top(0);
    frames(8).await;
    list.set_scroll_top(0);
    frames(8).await;
    assert!(row(&root, "msg_1").is_some(), "the top is drawn");
    let still = row(&root, "msg_2000").expect("the focused row is still drawn");
    assert!(
        still.is_same_node(Some(&newest)),
        "the same element, focus kept"
    );
    let document = web_sys::window().unwrap().document().unwrap();
    assert!(document
        .active_element()
        .is_some_and(|a| a.is_same_node(Some(&newest))));
    assert!(rows(&root) <= ROW_BOUND + 1);
    // Focus leaves the list: the row goes with the window's rule.
    newest.blur().unwrap();
    frames(4).await;
    assert!(row(&root, "msg_2000").is_none(), "dropped once focus left");
}

#[wasm_bindgen_test]
async fn issue18_an_open_card_under_an_old_message_is_drawn_wherever_the_view_is() {
    let root = section();
    let all = fixture(2000);
    let approval = json!([{ "id": "act_1", "type": "tool_approval", "toolName": "sandbox_exec",
        "summary": "Run a command in the sandbox", "args": { "cmd": "ls" },
        "messageId": "msg_10" }]);
    let (_store, _h) = mount_whole_with(&root, &all, approval, false).await;
    wait_for(&root, "article[data-message-id=msg_2000]").await;
    frames(4).await;
    // At the end, the card's message (far above) is drawn too, with its card, between spacers.
    let card = wait_for(&root, "article[data-message-id=msg_10] .chat-card").await;
    assert_eq!(
        card.get_attribute("data-kind").as_deref(),
        Some("tool_approval")
    );
    assert!(row(&root, "msg_11").is_none() && row(&root, "msg_9").is_none());
    assert!(rows(&root) <= ROW_BOUND + 1, "{} rows", rows(&root));
    let ids = row_ids(&root);
    assert_eq!(ids.first().map(String::as_str), Some("msg_10"));
    assert_eq!(ids.last().map(String::as_str), Some("msg_2000"));
    // It keeps its place in the conversation for screen readers.
    let pinned = row(&root, "msg_10").unwrap();
    assert_eq!(pinned.get_attribute("aria-posinset").as_deref(), Some("10"));
    // The middle of the conversation: still there (the same card element).
    let list = scroller(&root);
    list.set_scroll_top(list.scroll_height() / 2);
    frames(6).await;
    let still = query(&root, "article[data-message-id=msg_10] .chat-card").expect("card kept");
    assert!(still.is_same_node(Some(&card)), "the card was drawn again");
}

/// A reader scrolling up through a conversation served whole, 150 px at a time with a pause
/// of a quarter frame to two frames between, over rows the window draws as they come near:
/// the row in view moves by what the reader scrolled and nothing more, whichever of the
/// browser's scroll anchoring and the list's own keep followed the rows drawn above it, and
/// also when a scroll is handled before the frame that keeps the view (D58, D80).
#[wasm_bindgen_test]
async fn d80_scrolling_up_moves_the_rows_by_the_scroll_only() {
    for pause in [4, 9, 17, 30] {
        let root = section();
        let _h = open_2000_at_the_end(&root).await;
        let list = scroller(&root);
        let mut jumps = Vec::new();
        for _ in 0..100 {
            let id = row_ids(&root)
                .into_iter()
                .find(|id| in_view(&root, id))
                .expect("a row in view");
            let before = row(&root, &id).unwrap().get_bounding_client_rect().top();
            let top = list.scroll_top();
            list.set_scroll_top(top - 150);
            let scrolled = f64::from(top - list.scroll_top());
            sleep(pause).await;
            let after = row(&root, &id)
                .map(|r| r.get_bounding_client_rect().top())
                .unwrap_or_else(|| panic!("{id} not drawn after scrolling {scrolled} px"));
            let jump = after - before - scrolled;
            if jump.abs() > 2.0 {
                jumps.push(format!("{id}: {jump:.0} px"));
            }
        }
        assert!(
            jumps.is_empty(),
            "pausing {pause} ms, rows moved by more than the scroll: {jumps:?}"
        );
    }
}
