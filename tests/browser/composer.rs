//! Browser tests of `ChatInput`'s host hooks: custom send and stop buttons (F91, F92) and the
//! handle that focuses the composer or sets its text (F94, C29). A detached store (no network).
#![cfg(target_arch = "wasm32")]

use std::collections::HashMap;

use agent_chat_ui::core::{Run, Session, SessionConfig};
use agent_chat_ui::store::{ChatCallbacks, ChatStore};
use agent_chat_ui::ui::chat_input::{ChatInput, ChatInputHandle, SendButtonSlot, StopButtonSlot};
use agent_chat_ui::ui::i18n::I18n;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

use crate::web;
use web::{query, section, type_text, wait_for, wait_until};

fn store() -> ChatStore {
    I18n::provide(Some("en"), HashMap::new());
    let config = SessionConfig {
        agent_id: Some("echo".into()),
        show_history: false,
        ..SessionConfig::default()
    };
    ChatStore::detached(Session::new(config), ChatCallbacks::default())
}

#[wasm_bindgen_test]
async fn f91_f92_custom_send_and_stop_buttons_drive_the_composer() {
    let root = section();
    let slot = StoredValue::new(None::<ChatStore>);
    let _h = mount_to(root.clone(), move || {
        let s = store();
        slot.set_value(Some(s));
        view! {
            <ChatInput
                render_send_button=|b: SendButtonSlot| view! {
                    <button type="button" class="my-send" disabled=b.disabled
                        on:click=move |_| b.on_click.run(())>"Go"</button>
                }
                render_stop_button=|b: StopButtonSlot| view! {
                    <button type="button" class="my-stop" on:click=move |_| b.on_click.run(())>"Halt"</button>
                }
            />
        }
    });
    let s = slot.get_value().unwrap();
    let send: web_sys::HtmlButtonElement = wait_for(&root, "button.my-send").await.unchecked_into();
    assert!(
        query(&root, "button.chat-input__send").is_none(),
        "replaced"
    );
    assert!(send.disabled(), "nothing to send yet");
    let textarea = wait_for(&root, "textarea").await;
    type_text(&textarea, "via my button");
    wait_until("the custom button to enable", &root, || !send.disabled()).await;
    send.click();
    wait_until("the reply to start", &root, || {
        s.status.with_untracked(|st| st.run == Run::Streaming)
    })
    .await;
    assert!(
        s.take_requests().iter().any(|r| r.path == "/conversations"),
        "sending started (E4 first)"
    );
    let stop: web_sys::HtmlElement = wait_for(&root, "button.my-stop").await;
    assert!(
        query(&root, "button.chat-input__stop").is_none(),
        "replaced"
    );
    stop.click();
    wait_until("the reply to stop", &root, || {
        s.status.with_untracked(|st| st.run != Run::Streaming)
    })
    .await;
    wait_for(&root, "button.my-send").await;
}

#[wasm_bindgen_test]
async fn f94_c29_the_handle_focuses_and_sets_the_draft() {
    let root = section();
    let handle = ChatInputHandle::new();
    let _h = mount_to(root.clone(), move || {
        store();
        view! { <ChatInput handle=handle/> }
    });
    let textarea: web_sys::HtmlTextAreaElement = wait_for(&root, "textarea").await.unchecked_into();
    handle.set_value("put back by the host");
    wait_until("the draft in the text box", &root, || {
        textarea.value() == "put back by the host"
    })
    .await;
    assert_eq!(handle.value(), "put back by the host");
    handle.focus();
    let active = web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .active_element()
        .expect("something focused");
    assert!(
        active.is_same_node(Some(&textarea)),
        "the composer has focus"
    );
    // Enabled send button for the draft the host set.
    let send: web_sys::HtmlButtonElement = wait_for(&root, "button.chat-input__send")
        .await
        .unchecked_into();
    assert!(!send.disabled());
}

#[wasm_bindgen_test]
async fn an_unbound_handle_does_nothing() {
    let handle = ChatInputHandle::new();
    handle.focus();
    handle.set_value("nobody listens");
    assert_eq!(handle.value(), "");
}
