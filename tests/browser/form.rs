//! Browser tests of the approval form for nested schemas (issue 40): a field of a nested
//! object edits the JSON and the JSON the field, an array's items are added and removed, a
//! read-only nested value is not editable, and a composition problem shows at its group. A
//! `ChatMessageList` over a detached `ChatStore` (no network, DESIGN §5).
#![cfg(target_arch = "wasm32")]

use std::cell::Cell;
use std::collections::HashMap;
use std::rc::Rc;

use agent_chat_ui::core::{Method, Session, SessionConfig};
use agent_chat_ui::store::{ChatCallbacks, ChatStore};
use agent_chat_ui::ui::cards::ChatActions;
use agent_chat_ui::ui::i18n::I18n;
use agent_chat_ui::ui::message_list::ChatMessageList;
use leptos::prelude::*;
use serde_json::{json, Value};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

use crate::web;
use web::{query, section, type_text, wait_for, wait_until};

/// An order: a nested object with a read-only id, a list of lines (a `$ref`, at most two),
/// and a contact reached by email or by phone (a group with an `anyOf`).
const ORDER: &str = r##"{"id":"act_1","type":"tool_approval","toolName":"place_order",
  "args":{"order":{"id":"A-1","shipping":{"city":"Paris"}},"lines":[{"sku":"x","qty":2}],
    "contact":{"email":"a@example.com"}},
  "argsSchema":{"type":"object",
    "properties":{
      "order":{"type":"object","title":"Order","properties":{
        "id":{"type":"string","readOnly":true},
        "shipping":{"type":"object","title":"Shipping","properties":{"city":{"type":"string"}},"required":["city"]}}},
      "lines":{"type":"array","title":"Lines","maxItems":2,"items":{"$ref":"#/$defs/line"}},
      "contact":{"type":"object","title":"Contact",
        "properties":{"email":{"type":"string"},"phone":{"type":"string"}},
        "anyOf":[{"title":"By email","required":["email"]},{"title":"By phone","required":["phone"]}]}},
    "$defs":{"line":{"type":"object","required":["sku"],"properties":{
      "sku":{"type":"string"},"qty":{"type":"integer","minimum":1,"default":1}}}}}}"##;

async fn mount(root: &web_sys::HtmlElement) -> (ChatStore, impl Drop) {
    let slot = Rc::new(Cell::new(None));
    let out = slot.clone();
    let handle = mount_to(root.clone(), move || {
        I18n::provide(Some("en"), HashMap::new());
        let config = SessionConfig {
            conversation_id: Some("conv_1".into()),
            ..SessionConfig::default()
        };
        let store = ChatStore::detached(Session::new(config), ChatCallbacks::default());
        out.set(Some(store));
        let actions = ChatActions {
            allow_argument_edit: Some(true),
            ..ChatActions::from_store(store)
        };
        view! { <ChatMessageList actions=actions/> }
    });
    let store = slot.get().expect("store created on mount");
    web::open_conv_1(&store, "I need you first.", ORDER);
    (store, handle)
}

fn answers_sent(store: &ChatStore) -> Vec<Value> {
    store
        .take_requests()
        .into_iter()
        .filter(|r| r.method == Method::Post && r.path.contains("/actions/"))
        .map(|r| serde_json::from_str(r.body.as_deref().unwrap_or("null")).unwrap())
        .collect()
}

fn editor_value(editor: &web_sys::HtmlElement) -> Option<Value> {
    let t: web_sys::HtmlTextAreaElement = editor.clone().unchecked_into();
    serde_json::from_str(&t.value()).ok()
}

fn input_value(el: &web_sys::HtmlElement) -> String {
    el.clone()
        .unchecked_into::<web_sys::HtmlInputElement>()
        .value()
}

/// Mounts the order card and opens its editor: the card and the JSON editor.
async fn open_editor(root: &web_sys::HtmlElement) -> (web_sys::HtmlElement, web_sys::HtmlElement) {
    let card = wait_for(root, ".chat-card[data-state=waiting]").await;
    query(&card, ".chat-card__edit")
        .expect("editing allowed")
        .click();
    let editor = wait_for(&card, "textarea.chat-card__editor").await;
    (card, editor)
}

#[wasm_bindgen_test]
async fn issue40_a_nested_field_and_the_json_editor_follow_each_other() {
    let root = section();
    let (store, _h) = mount(&root).await;
    let (card, editor) = open_editor(&root).await;
    let city = wait_for(
        &card,
        "[data-group=order] [data-field='order/shipping/city']",
    )
    .await;
    assert_eq!(input_value(&city), "Paris");
    let legend = query(&card, "[data-group=order] > legend").unwrap();
    assert_eq!(legend.text_content().unwrap(), "Order");
    let id = query(&card, "[data-field='order/id']").unwrap();
    assert!(
        id.has_attribute("readonly"),
        "a nested readOnly is not edited"
    );

    type_text(&city, "Lyon");
    wait_until("the JSON takes the nested edit", &root, || {
        editor_value(&editor).is_some_and(|v| v["order"]["shipping"]["city"] == "Lyon")
    })
    .await;
    let diff = wait_for(&card, ".chat-card__diff-path").await;
    assert_eq!(diff.text_content().unwrap(), "order.shipping.city");

    // The JSON editor writes, the nested field shows it.
    let mut edited = editor_value(&editor).unwrap();
    edited["order"]["shipping"]["city"] = json!("Izmir");
    type_text(&editor, &edited.to_string());
    wait_until("the field follows the JSON", &root, || {
        query(&card, "[data-field='order/shipping/city']")
            .is_some_and(|c| input_value(&c) == "Izmir")
    })
    .await;

    let approve = query(&card, ".chat-card__approve").unwrap();
    assert!(!approve.has_attribute("disabled"));
    approve.click();
    wait_for(&root, ".chat-card[data-state=sending]").await;
    assert_eq!(
        answers_sent(&store)[0]["resolution"]["approvedArgs"]["order"],
        json!({"id": "A-1", "shipping": {"city": "Izmir"}})
    );
}

#[wasm_bindgen_test]
async fn issue40_an_array_item_is_added_and_removed_in_the_form() {
    let root = section();
    let (_store, _h) = mount(&root).await;
    let (card, editor) = open_editor(&root).await;
    let list = wait_for(&card, "[data-list=lines]").await;
    assert!(query(&list, "[data-item='lines/0']").is_some());
    let add = query(&list, ".chat-card__item-add").unwrap();
    assert_eq!(add.text_content().unwrap(), "Add an item");

    add.click();
    let item = wait_for(&list, "[data-item='lines/1']").await;
    wait_until("the JSON has the new line with its default", &root, || {
        editor_value(&editor).is_some_and(|v| v["lines"][1] == json!({"qty": 1}))
    })
    .await;
    // The new line lacks its `sku`: said at the item, and Approve waits.
    let problem = wait_for(&item, ".chat-card__field-problem").await;
    assert_eq!(
        problem.text_content().unwrap(),
        "/lines/1: \"sku\" is required"
    );
    let approve = query(&card, ".chat-card__approve").unwrap();
    assert!(approve.has_attribute("disabled"));
    assert!(add.has_attribute("disabled"), "maxItems 2 reached");

    let sku = query(&item, "[data-field='lines/1/sku']").unwrap();
    type_text(&sku, "y");
    wait_until("the problem is gone", &root, || {
        query(&card, ".chat-card__problems").is_none()
    })
    .await;

    // Remove the first line: the second takes its place, in the JSON and the form.
    let remove = query(&list, "[data-item='lines/0'] .chat-card__item-remove").unwrap();
    assert_eq!(remove.text_content().unwrap(), "Remove item 1");
    remove.click();
    wait_until("the JSON lost the first line", &root, || {
        editor_value(&editor).is_some_and(|v| v["lines"] == json!([{"sku": "y", "qty": 1}]))
    })
    .await;
    wait_until("the form has one line, the former second", &root, || {
        query(&list, "[data-item='lines/1']").is_none()
            && query(&list, "[data-field='lines/0/sku']").is_some_and(|s| input_value(&s) == "y")
    })
    .await;
    assert!(!add.has_attribute("disabled"));
}

#[wasm_bindgen_test]
async fn issue40_a_composition_problem_shows_at_its_nested_group() {
    let root = section();
    let (_store, _h) = mount(&root).await;
    let (card, editor) = open_editor(&root).await;
    let email = wait_for(&card, "[data-field='contact/email']").await;
    type_text(&email, "");
    wait_until("the email is removed from the JSON", &root, || {
        editor_value(&editor).is_some_and(|v| v["contact"] == json!({}))
    })
    .await;
    let problem = wait_for(&card, "[data-group=contact] > .chat-card__field-problem").await;
    assert_eq!(
        problem.text_content().unwrap(),
        "/contact: must match one of: By email, By phone"
    );
    let listed = wait_for(&card, "[role=alert] .chat-card__problems li").await;
    assert_eq!(listed.text_content(), problem.text_content());
    let approve = query(&card, ".chat-card__approve").unwrap();
    assert!(approve.has_attribute("disabled"));

    let phone = query(&card, "[data-field='contact/phone']").unwrap();
    type_text(&phone, "+90 555 000");
    wait_until("the contact is reachable again", &root, || {
        query(&card, ".chat-card__field-problem").is_none()
            && query(&card, ".chat-card__problems").is_none()
    })
    .await;
    assert!(!approve.has_attribute("disabled"));
}
