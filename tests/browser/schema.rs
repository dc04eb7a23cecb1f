//! Browser tests of the approval card's JSON Schema 2020-12 check (issue 40): a composition
//! problem in the person's words, the "cannot judge" note that keeps Approve, and the form's
//! choice of variant for a `oneOf` schema. A `ChatMessageList` over a detached `ChatStore`
//! (no network, DESIGN §5).
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

/// A payment by card or by transfer: a `oneOf` of two flat objects, one through `$ref`.
const PAYMENT: &str = r##"{"id":"act_1","type":"tool_approval","toolName":"pay",
  "args":{"amount":5,"method":"card","number":"4242"},
  "argsSchema":{"type":"object","required":["amount"],
    "properties":{"amount":{"type":"number"}},
    "$defs":{"card":{"title":"Card","type":"object","required":["number"],
      "properties":{"method":{"const":"card"},"number":{"type":"string"}}}},
    "oneOf":[{"$ref":"#/$defs/card"},
      {"title":"Transfer","type":"object","required":["iban"],
       "properties":{"method":{"const":"transfer"},"iban":{"type":"string"},
         "fee":{"type":"number","default":1}}}]}}"##;

/// A tool whose `filter` is described by a schema elsewhere, which is never fetched.
const REMOTE: &str = r#"{"id":"act_1","type":"tool_approval","toolName":"lookup",
  "args":{"q":"a"},
  "argsSchema":{"type":"object","required":["q"],
    "properties":{"q":{"type":"string"},"filter":{"$ref":"https://example.com/filter.json"}}}}"#;

async fn mount(root: &web_sys::HtmlElement, action: &str) -> (ChatStore, impl Drop) {
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
    web::open_conv_1(&store, "I need you first.", action);
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

#[wasm_bindgen_test]
async fn issue40_a_composition_problem_names_the_variants_and_blocks_approve() {
    let root = section();
    let (_store, _h) = mount(&root, PAYMENT).await;
    let card = wait_for(&root, ".chat-card[data-state=waiting]").await;
    query(&card, ".chat-card__edit")
        .expect("editing allowed")
        .click();
    let editor = wait_for(&card, "textarea.chat-card__editor").await;
    let approve = query(&card, ".chat-card__approve").unwrap();

    type_text(&editor, r#"{"amount": 5, "number": "1", "iban": "DE89"}"#);
    let problem = wait_for(&card, "[role=alert] .chat-card__problems li").await;
    assert_eq!(
        problem.text_content().unwrap(),
        "Arguments: must match only one of: Card, Transfer (it matches 2)"
    );
    assert!(approve.has_attribute("disabled"));

    type_text(&editor, r#"{"amount": 5}"#);
    wait_until("none of the variants", &root, || {
        query(&card, ".chat-card__problems li").and_then(|p| p.text_content())
            == Some("Arguments: must match one of: Card, Transfer".into())
    })
    .await;
    assert!(approve.has_attribute("disabled"));
}

#[wasm_bindgen_test]
async fn issue40_what_the_checker_cannot_judge_is_said_and_approve_stays() {
    let root = section();
    let (store, _h) = mount(&root, REMOTE).await;
    let card = wait_for(&root, ".chat-card[data-state=waiting]").await;
    query(&card, ".chat-card__edit")
        .expect("editing allowed")
        .click();
    let editor = wait_for(&card, "textarea.chat-card__editor").await;
    let approve = query(&card, ".chat-card__approve").unwrap();

    type_text(&editor, r#"{"q": "b", "filter": {"any": 1}}"#);
    let note = wait_for(&card, ".chat-card__unjudged[role=status]").await;
    let text = note.text_content().unwrap();
    assert!(
        text.starts_with("This edit could not be checked in full here."),
        "{text}"
    );
    assert!(
        text.contains("https://example.com/filter.json, outside this schema"),
        "{text}"
    );
    assert!(query(&card, ".chat-card__problems").is_none());
    assert!(!approve.has_attribute("disabled"));
    approve.click();
    wait_for(&root, ".chat-card[data-state=sending]").await;
    assert_eq!(
        answers_sent(&store)[0]["resolution"]["approvedArgs"],
        json!({"q": "b", "filter": {"any": 1}})
    );
}

#[wasm_bindgen_test]
async fn issue40_the_variant_form_switches_fields_and_the_json_follows() {
    let root = section();
    let (store, _h) = mount(&root, PAYMENT).await;
    let card = wait_for(&root, ".chat-card[data-state=waiting]").await;
    query(&card, ".chat-card__edit")
        .expect("editing allowed")
        .click();
    let editor = wait_for(&card, "textarea.chat-card__editor").await;
    let choice = wait_for(&card, "select[data-variant-choice]").await;
    let select: web_sys::HtmlSelectElement = choice.clone().unchecked_into();
    assert_eq!(select.value(), "0", "the proposal is paid by card");
    assert_eq!(choice.text_content().unwrap(), "CardTransfer");
    assert!(query(&card, "[data-field=number]").is_some());
    let method = query(&card, "[data-field=method]").unwrap();
    assert!(method.has_attribute("readonly"), "a const is not edited");

    type_text(&choice, "1");
    wait_until("the JSON follows the variant", &root, || {
        editor_value(&editor) == Some(json!({"amount": 5, "method": "transfer", "fee": 1}))
    })
    .await;
    let iban = wait_for(&card, "[data-field=iban]").await;
    assert!(query(&card, "[data-field=number]").is_none());
    // Still without its IBAN: the problem says so and Approve waits.
    wait_for(&card, ".chat-card__problems li").await;
    type_text(&iban, "DE89");
    wait_until("the problem is gone", &root, || {
        query(&card, ".chat-card__problems").is_none()
    })
    .await;
    let approve = query(&card, ".chat-card__approve").unwrap();
    assert!(!approve.has_attribute("disabled"));
    approve.click();
    wait_for(&root, ".chat-card[data-state=sending]").await;
    assert_eq!(
        answers_sent(&store)[0]["resolution"]["approvedArgs"],
        json!({"amount": 5, "method": "transfer", "fee": 1, "iban": "DE89"})
    );
}
