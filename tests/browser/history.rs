//! Browser tests of the history sidebar: search (F109), rename (E6) and delete (E7). A
//! `ChatHistory` over a detached `ChatStore` (no network, DESIGN §5) whose list request is
//! answered by hand; clicks, typing and keys in headless Chromium, then what the session asked
//! to send.
#![cfg(target_arch = "wasm32")]

use std::cell::Cell;
use std::collections::HashMap;
use std::rc::Rc;

use agent_chat_ui::core::{Command, Method, Session, SessionConfig};
use agent_chat_ui::store::{ChatCallbacks, ChatStore};
use agent_chat_ui::ui::history::ChatHistory;
use agent_chat_ui::ui::i18n::I18n;
use leptos::prelude::*;
use serde_json::{json, Value};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

use crate::web;
use web::{
    answer, computed_style, press, query, section, type_text, wait_for, wait_gone, wait_until,
};

const LIST: &str = r#"{"conversations":[
  {"id":"c1","agentId":"echo","title":"Trip to Rome","updatedAt":"2025-05-01T10:00:00.000Z"},
  {"id":"c2","agentId":"echo"},
  {"id":"c3","agentId":"echo","title":"Budget ROMAN numerals"}],
  "total":3,"limit":20,"offset":0,"hasMore":false}"#;

/// Mounts a `ChatHistory` over a detached store in `lang` and answers its start-up requests
/// with [`LIST`]; returns the store once the rows are drawn.
async fn mount(
    root: &web_sys::HtmlElement,
    lang: &'static str,
    enable_search: bool,
) -> (ChatStore, impl Drop) {
    mount_with(root, lang, enable_search, ChatCallbacks::default()).await
}

/// [`mount`] with the host's callbacks.
async fn mount_with(
    root: &web_sys::HtmlElement,
    lang: &'static str,
    enable_search: bool,
    callbacks: ChatCallbacks,
) -> (ChatStore, impl Drop) {
    let slot = Rc::new(Cell::new(None));
    let out = slot.clone();
    let handle = mount_to(root.clone(), move || {
        I18n::provide(Some(lang), HashMap::new());
        let store = ChatStore::detached(Session::new(SessionConfig::default()), callbacks);
        out.set(Some(store));
        view! {
            <ChatHistory open=false enable_search=enable_search on_close=Callback::new(|_| {})/>
        }
    });
    let store = slot.get().expect("store created on mount");
    store.dispatch(Command::Start);
    let mut started = store.take_requests();
    answer(
        &store,
        &mut started,
        "/agents",
        200,
        r#"{"agents":[{"id":"echo","name":"Echo"}]}"#,
    );
    let mut listing = store.take_requests();
    answer(&store, &mut listing, "/conversations?", 200, LIST);
    wait_for(root, "li[data-conversation-id=c3]").await;
    (store, handle)
}

/// Ids of the rows on screen, in order.
fn row_ids(root: &web_sys::HtmlElement) -> Vec<String> {
    let rows = root.query_selector_all(".chat-history__item").unwrap();
    (0..rows.length())
        .filter_map(|i| rows.item(i))
        .filter_map(|n| n.dyn_into::<web_sys::Element>().ok())
        .filter_map(|e| e.get_attribute("data-conversation-id"))
        .collect()
}

fn row(root: &web_sys::HtmlElement, id: &str) -> web_sys::HtmlElement {
    query(root, &format!("li[data-conversation-id={id}]"))
        .unwrap_or_else(|| panic!("no row {id}; DOM: {}", root.inner_html()))
}

fn row_title(root: &web_sys::HtmlElement, id: &str) -> String {
    query(&row(root, id), ".chat-history__title")
        .and_then(|t| t.text_content())
        .unwrap_or_default()
}

fn active_element() -> Option<web_sys::Element> {
    web_sys::window()?.document()?.active_element()
}

fn text(el: &web_sys::HtmlElement) -> String {
    el.text_content().unwrap_or_default()
}

// ----- search ------------------------------------------------------------------------------

#[wasm_bindgen_test]
async fn f109_search_filters_by_title_case_insensitively_and_untitled_reads_as_new_chat() {
    let root = section();
    let (_store, _h) = mount(&root, "en", true).await;
    let input = query(&root, ".chat-history__search-input").expect("search field");
    assert_eq!(input.get_attribute("type").as_deref(), Some("search"));
    assert_eq!(
        input.get_attribute("aria-label").as_deref(),
        Some("Search conversations")
    );
    assert_eq!(
        input.get_attribute("placeholder").as_deref(),
        Some("Search conversations...")
    );
    assert!(
        query(&root, ".chat-history__clear").is_none(),
        "no clear button while empty"
    );

    type_text(&input, "ROM");
    wait_until("two rows match", &root, || row_ids(&root) == ["c1", "c3"]).await;
    type_text(&input, "  new CH ");
    wait_until("the untitled row matches", &root, || {
        row_ids(&root) == ["c2"]
    })
    .await;
    assert_eq!(row_title(&root, "c2"), "New Chat");

    type_text(&input, "zebra");
    let none = wait_for(&root, ".chat-history__no-match").await;
    assert_eq!(text(&none), "No matching conversations");
    assert_eq!(none.get_attribute("role").as_deref(), Some("status"));
    assert!(row_ids(&root).is_empty());
    assert!(
        query(&root, ".chat-history__empty:not(.chat-history__no-match)").is_none(),
        "not the empty-history text"
    );

    let clear = wait_for(&root, ".chat-history__clear").await;
    assert_eq!(
        clear.get_attribute("aria-label").as_deref(),
        Some("Clear search")
    );
    clear.click();
    wait_until("all rows are back", &root, || {
        row_ids(&root) == ["c1", "c2", "c3"]
    })
    .await;
    wait_gone(&root, ".chat-history__no-match").await;
    wait_gone(&root, ".chat-history__clear").await;
    let field: web_sys::HtmlInputElement = input.clone().unchecked_into();
    assert_eq!(field.value(), "");
    assert_eq!(
        active_element(),
        Some(input.clone().unchecked_into()),
        "focus goes back to the field"
    );
}

#[wasm_bindgen_test]
async fn escape_in_the_search_field_clears_it() {
    let root = section();
    let (_store, _h) = mount(&root, "en", true).await;
    let input = query(&root, ".chat-history__search-input").unwrap();
    type_text(&input, "budget");
    wait_until("one row", &root, || row_ids(&root) == ["c3"]).await;
    press(&input, "Escape");
    wait_until("all rows are back", &root, || row_ids(&root).len() == 3).await;
    let field: web_sys::HtmlInputElement = input.unchecked_into();
    assert_eq!(field.value(), "");
}

#[wasm_bindgen_test]
async fn search_uses_the_chats_language_for_untitled_rows() {
    let root = section();
    let (_store, _h) = mount(&root, "tr", true).await;
    let input = query(&root, ".chat-history__search-input").unwrap();
    assert_eq!(
        input.get_attribute("placeholder").as_deref(),
        Some("Sohbetlerde ara...")
    );
    type_text(&input, "yeni");
    wait_until("the untitled row matches in Turkish", &root, || {
        row_ids(&root) == ["c2"]
    })
    .await;
    type_text(&input, "new chat");
    let none = wait_for(&root, ".chat-history__no-match").await;
    assert_eq!(text(&none), "Eşleşen sohbet yok");
}

#[wasm_bindgen_test]
async fn without_enable_search_there_is_no_field() {
    let root = section();
    let (_store, _h) = mount(&root, "en", false).await;
    assert!(query(&root, ".chat-history__search").is_none());
    assert_eq!(row_ids(&root), ["c1", "c2", "c3"]);
}

// ----- rename ------------------------------------------------------------------------------

/// Clicks the row's rename button and returns the focused title field.
async fn start_rename(root: &web_sys::HtmlElement, id: &str) -> web_sys::HtmlElement {
    let button = query(&row(root, id), ".chat-history__rename").expect("rename button");
    assert_eq!(
        button.get_attribute("aria-label").as_deref(),
        Some("Rename conversation")
    );
    button.click();
    let field = wait_for(
        root,
        &format!("li[data-conversation-id={id}] .chat-history__rename-input"),
    )
    .await;
    let target: web_sys::Element = field.clone().unchecked_into();
    wait_until("the field has focus", root, || {
        active_element().as_ref() == Some(&target)
    })
    .await;
    assert_eq!(
        field.get_attribute("aria-label").as_deref(),
        Some("Conversation title")
    );
    assert_eq!(
        row(root, id).get_attribute("data-editing").as_deref(),
        Some("true")
    );
    field
}

fn patches(store: &ChatStore) -> Vec<(String, Value)> {
    store
        .take_requests()
        .into_iter()
        .filter(|r| r.method == Method::Patch)
        .map(|r| {
            let body = serde_json::from_str(r.body.as_deref().unwrap_or("null")).unwrap();
            (r.path, body)
        })
        .collect()
}

#[wasm_bindgen_test]
async fn rename_with_enter_saves_shows_the_title_at_once_and_returns_focus() {
    let root = section();
    let (store, _h) = mount(&root, "en", true).await;
    let field = start_rename(&root, "c1").await;
    let input: web_sys::HtmlInputElement = field.clone().unchecked_into();
    assert_eq!(
        input.value(),
        "Trip to Rome",
        "the field starts with the title"
    );
    type_text(&field, "  Rome in May ");
    press(&field, "Enter");
    wait_gone(&root, ".chat-history__rename-input").await;
    let mut sent = store.take_requests();
    assert_eq!(sent.len(), 1, "one PATCH: {sent:?}");
    assert_eq!(sent[0].method, Method::Patch);
    assert_eq!(sent[0].path, "/conversations/c1");
    let body: Value = serde_json::from_str(sent[0].body.as_deref().unwrap()).unwrap();
    assert_eq!(body, json!({ "title": "Rome in May" }));
    wait_until("optimistic title", &root, || {
        row_title(&root, "c1") == "Rome in May"
    })
    .await;
    let rename_button: web_sys::Element = query(&row(&root, "c1"), ".chat-history__rename")
        .unwrap()
        .unchecked_into();
    wait_until("focus back on the rename button", &root, || {
        active_element().as_ref() == Some(&rename_button)
    })
    .await;
    answer(
        &store,
        &mut sent,
        "/conversations/c1",
        200,
        r#"{"id":"c1","agentId":"echo","title":"Rome in May"}"#,
    );
    leptos::task::tick().await;
    // The store publishes in the next animation frame: after it, the row shows the outcome.
    web::next_frame().await;
    assert_eq!(row_title(&root, "c1"), "Rome in May");
}

#[wasm_bindgen_test]
async fn rename_with_escape_cancels_without_a_request() {
    let root = section();
    let (store, _h) = mount(&root, "en", true).await;
    let field = start_rename(&root, "c3").await;
    type_text(&field, "Something else");
    press(&field, "Escape");
    wait_gone(&root, ".chat-history__rename-input").await;
    // The store publishes in the next animation frame: after it, the row shows the outcome.
    web::next_frame().await;
    assert!(patches(&store).is_empty(), "Escape sends nothing");
    assert_eq!(row_title(&root, "c3"), "Budget ROMAN numerals");
    let rename_button: web_sys::Element = query(&row(&root, "c3"), ".chat-history__rename")
        .unwrap()
        .unchecked_into();
    wait_until("focus back on the rename button", &root, || {
        active_element().as_ref() == Some(&rename_button)
    })
    .await;
}

#[wasm_bindgen_test]
async fn rename_saves_on_blur_and_a_refusal_rolls_back_with_an_error() {
    let root = section();
    let (store, _h) = mount(&root, "en", true).await;
    let field = start_rename(&root, "c2").await;
    let input: web_sys::HtmlInputElement = field.clone().unchecked_into();
    assert_eq!(
        input.value(),
        "",
        "untitled: empty field with a placeholder"
    );
    assert_eq!(
        field.get_attribute("placeholder").as_deref(),
        Some("New Chat")
    );
    type_text(&field, "Groceries");
    field.blur().unwrap();
    wait_gone(&root, ".chat-history__rename-input").await;
    let mut sent = store.take_requests();
    assert_eq!(sent.len(), 1, "blur saves once: {sent:?}");
    assert_eq!(sent[0].path, "/conversations/c2");
    wait_until("optimistic title", &root, || {
        row_title(&root, "c2") == "Groceries"
    })
    .await;
    answer(
        &store,
        &mut sent,
        "/conversations/c2",
        403,
        r#"{"error":{"code":"FORBIDDEN","message":"Not yours"}}"#,
    );
    wait_until("rolled back", &root, || {
        row_title(&root, "c2") == "New Chat"
    })
    .await;
    let error = store
        .status
        .with_untracked(|s| s.error.clone())
        .expect("the failure is kept for the banner");
    assert_eq!(I18n::get().error(&error), "Failed to rename conversation");
}

#[wasm_bindgen_test]
async fn an_empty_title_is_not_sent() {
    let root = section();
    let (store, _h) = mount(&root, "en", true).await;
    let field = start_rename(&root, "c1").await;
    type_text(&field, "   ");
    press(&field, "Enter");
    wait_gone(&root, ".chat-history__rename-input").await;
    // The store publishes in the next animation frame: after it, the row shows the outcome.
    web::next_frame().await;
    assert!(patches(&store).is_empty());
    assert_eq!(row_title(&root, "c1"), "Trip to Rome");
}

// ----- delete ------------------------------------------------------------------------------

#[wasm_bindgen_test]
async fn delete_sends_the_request_and_the_row_goes_at_once() {
    let root = section();
    let (store, _h) = mount(&root, "en", true).await;
    let button = query(&row(&root, "c2"), ".chat-history__delete").expect("delete button");
    assert_eq!(
        button.get_attribute("aria-label").as_deref(),
        Some("Delete conversation")
    );
    button.focus().unwrap();
    button.click();
    wait_gone(&root, "li[data-conversation-id=c2]").await;
    let mut sent = store.take_requests();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0].method, Method::Delete);
    assert_eq!(sent[0].path, "/conversations/c2");
    assert_eq!(row_ids(&root), ["c1", "c3"]);
    let next: web_sys::Element = query(&row(&root, "c3"), ".chat-history__select")
        .unwrap()
        .unchecked_into();
    wait_until("focus moves to the next row", &root, || {
        active_element().as_ref() == Some(&next)
    })
    .await;
    answer(&store, &mut sent, "/conversations/c2", 204, "");
    // The store publishes in the next animation frame: after it, the row shows the outcome.
    web::next_frame().await;
    assert_eq!(row_ids(&root), ["c1", "c3"]);
    assert!(store.status.with_untracked(|s| s.error.is_none()));
}

#[wasm_bindgen_test]
async fn a_refused_delete_brings_the_row_back_with_an_error() {
    let root = section();
    let (store, _h) = mount(&root, "en", true).await;
    query(&row(&root, "c1"), ".chat-history__delete")
        .unwrap()
        .click();
    wait_gone(&root, "li[data-conversation-id=c1]").await;
    let mut sent = store.take_requests();
    answer(&store, &mut sent, "/conversations/c1", 500, "");
    wait_until("row restored in place", &root, || {
        row_ids(&root) == ["c1", "c2", "c3"]
    })
    .await;
    let error = store.status.with_untracked(|s| s.error.clone()).unwrap();
    assert_eq!(I18n::get().error(&error), "Failed to delete conversation");
}

#[wasm_bindgen_test]
async fn rows_are_buttons_and_the_open_conversation_is_marked() {
    let root = section();
    let (store, _h) = mount(&root, "en", true).await;
    let select = query(&row(&root, "c3"), ".chat-history__select").unwrap();
    assert_eq!(select.tag_name(), "BUTTON");
    assert_eq!(select.get_attribute("type").as_deref(), Some("button"));
    // The rows open to be marked: none while no conversation is open.
    let marked = |root: &web_sys::HtmlElement| -> Vec<String> {
        row_ids(root)
            .into_iter()
            .filter(|id| {
                let selected = row(root, id).get_attribute("data-selected");
                let current = query(&row(root, id), ".chat-history__select")
                    .and_then(|b| b.get_attribute("aria-current"));
                assert_eq!(
                    selected.as_deref() == Some("true"),
                    current.as_deref() == Some("true"),
                    "{id}: data-selected and aria-current agree"
                );
                current.as_deref() == Some("true")
            })
            .collect()
    };
    assert!(marked(&root).is_empty());
    select.click();
    let mut sent = store.take_requests();
    assert!(
        sent.iter()
            .any(|r| r.method == Method::Get && r.path == "/conversations/c3"),
        "{sent:?}"
    );
    answer(
        &store,
        &mut sent,
        "/conversations/c3",
        200,
        r#"{"conversation":{"id":"c3","agentId":"echo","title":"Budget ROMAN numerals"},"messages":[]}"#,
    );
    wait_until("the open conversation is marked", &root, || {
        marked(&root) == ["c3"]
    })
    .await;
    // Opening another one moves the mark.
    query(&row(&root, "c1"), ".chat-history__select")
        .unwrap()
        .click();
    let mut sent = store.take_requests();
    answer(
        &store,
        &mut sent,
        "/conversations/c1",
        200,
        r#"{"conversation":{"id":"c1","agentId":"echo","title":"Trip to Rome"},"messages":[]}"#,
    );
    wait_until("the mark moves to c1", &root, || marked(&root) == ["c1"]).await;
}

/// F19: picking a row reports the row to `on_conversation_selected`, then opens it (E5).
#[wasm_bindgen_test]
async fn f19_selecting_a_row_reports_it_and_opens_the_conversation() {
    let root = section();
    let picked = Rc::new(std::cell::RefCell::new(
        Vec::<(String, Option<String>)>::new(),
    ));
    let seen = send_wrapper::SendWrapper::new(picked.clone());
    let callbacks = ChatCallbacks {
        on_conversation_selected: Some(Callback::new(
            move |item: agent_chat_ui::core::ConversationListItem| {
                seen.borrow_mut()
                    .push((item.id.clone(), item.title.clone()))
            },
        )),
        ..ChatCallbacks::default()
    };
    let (store, _h) = mount_with(&root, "en", false, callbacks).await;
    row(&root, "c1")
        .query_selector("button.chat-history__select")
        .unwrap()
        .expect("select button")
        .unchecked_into::<web_sys::HtmlElement>()
        .click();
    assert_eq!(
        *picked.borrow(),
        vec![("c1".to_owned(), Some("Trip to Rome".to_owned()))]
    );
    assert!(
        store
            .take_requests()
            .iter()
            .any(|r| r.path == "/conversations/c1"),
        "the conversation is loaded"
    );
}

/// Titles come from people and servers in any script: each reads in its own direction
/// (`dir="auto"`), so a Latin title in the Arabic sidebar stays left to right.
#[wasm_bindgen_test]
async fn titles_are_dir_auto_and_a_latin_title_reads_ltr_in_arabic() {
    let root = section();
    root.set_attribute("dir", "rtl").unwrap();
    let (_store, _h) = mount(&root, "ar", false).await;
    let title = query(&row(&root, "c1"), ".chat-history__title").unwrap();
    assert_eq!(title.get_attribute("dir").as_deref(), Some("auto"));
    let direction = |el: &web_sys::HtmlElement| computed_style(el, "direction");
    assert_eq!(direction(&title), "ltr", "\"Trip to Rome\" left to right");
    // The untitled row's "New Chat" is in the sidebar's language: right to left.
    let untitled = query(&row(&root, "c2"), ".chat-history__title").unwrap();
    assert_eq!(direction(&untitled), "rtl");
}

/// Issue 17: the history sidebar is the `history` part of `<agent-chat>`'s shadow root.
#[wasm_bindgen_test]
async fn i17_the_history_sidebar_is_a_part() {
    let root = section();
    let (_store, _h) = mount(&root, "en", false).await;
    let aside = query(&root, "aside.chat-history").expect("the sidebar");
    assert_eq!(aside.get_attribute("part").as_deref(), Some("history"));
}
