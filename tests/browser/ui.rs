//! Browser tests (wasm-bindgen-test in headless Chromium): the components mounted into a real
//! DOM, and the io edge reading a real `fetch` body. No server: the base URL points at a closed
//! port or the body comes from a `data:` URL.
#![cfg(target_arch = "wasm32")]

use agent_chat_ui::core::{HttpRequest, Input, Method, RequestId, StreamEvent};
use agent_chat_ui::io::http::{run_stream, TransportConfig};
use agent_chat_ui::{Chat, Theme};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

use crate::web;
use web::{query, section, sleep, wait_for};

/// A server address nothing listens on: fetch fails fast with a network error.
const DEAD: &str = "http://127.0.0.1:9/api/agents";

fn type_and_enter(textarea: &web_sys::HtmlTextAreaElement, text: &str) {
    textarea.set_value(text);
    let input = web_sys::InputEvent::new("input").unwrap();
    textarea.dispatch_event(&input).unwrap();
    let init = web_sys::KeyboardEventInit::new();
    init.set_key("Enter");
    init.set_bubbles(true);
    init.set_cancelable(true);
    let key = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    textarea.dispatch_event(&key).unwrap();
}

#[wasm_bindgen_test]
async fn f63_empty_chat_shows_the_empty_state_and_an_accessible_composer() {
    let root = section();
    let _handle = mount_to(root.clone(), || view! { <Chat base_url=DEAD/> });
    let title = wait_for(&root, ".chat-empty__title").await;
    assert_eq!(title.text_content().unwrap(), "Start a conversation");
    let textarea = wait_for(&root, "textarea.chat-input__textarea").await;
    assert_eq!(
        textarea.get_attribute("aria-label").as_deref(),
        Some("Message")
    );
    let send = wait_for(&root, "button.chat-input__send").await;
    assert!(
        send.has_attribute("disabled"),
        "send disabled while the draft is empty"
    );
    let log = wait_for(&root, "[role=log]").await;
    assert_eq!(log.get_attribute("aria-live").as_deref(), Some("polite"));
    let chat = wait_for(&root, ".chat-root").await;
    assert_eq!(chat.get_attribute("data-state").as_deref(), Some("idle"));
    assert!(!chat.class_list().contains("chat-theme-light"));
}

#[wasm_bindgen_test]
async fn c29_unreachable_server_shows_a_clear_error_and_gives_the_draft_back() {
    let root = section();
    let _handle = mount_to(
        root.clone(),
        || view! { <Chat base_url=DEAD agent_id="echo" show_history=false/> },
    );
    let textarea: web_sys::HtmlTextAreaElement = wait_for(&root, "textarea.chat-input__textarea")
        .await
        .unchecked_into();
    type_and_enter(&textarea, "keep me");
    let alert = wait_for(&root, ".chat-error[role=alert]").await;
    let text = alert.text_content().unwrap();
    assert!(
        text.contains("Could not reach the agent server"),
        "got {text}"
    );
    // The refused optimistic message is gone and the text is back in the composer.
    assert!(query(&root, "article.chat-message[data-role=user]").is_none());
    assert_eq!(textarea.value(), "keep me");
    // Dismiss hides the banner.
    let dismiss = wait_for(&root, ".chat-error__dismiss").await;
    dismiss.click();
    for _ in 0..50 {
        leptos::task::tick().await;
        if query(&root, ".chat-error").is_none() {
            break;
        }
        sleep(20).await;
    }
    assert!(query(&root, ".chat-error").is_none());
}

#[wasm_bindgen_test]
async fn f24_f39_light_theme_and_turkish_locale() {
    let root = section();
    let _handle = mount_to(root.clone(), || {
        view! { <Chat base_url=DEAD theme=Theme::Light locale="tr-TR"/> }
    });
    let chat = wait_for(&root, ".chat-root").await;
    assert!(chat.class_list().contains("chat-theme-light"));
    assert_eq!(chat.get_attribute("lang").as_deref(), Some("tr"));
    let title = wait_for(&root, ".chat-empty__title").await;
    assert_eq!(title.text_content().unwrap(), "Bir sohbet başlatın");
    let new_chat = wait_for(&root, ".chat-history__new").await;
    assert!(new_chat.text_content().unwrap().contains("Yeni Sohbet"));
}

#[wasm_bindgen_test]
async fn io_stream_reads_a_real_fetch_body_into_session_inputs() {
    // A recorded stream served by the browser itself (a `blob:` URL of the page's own origin:
    // a `data:` URL's origin is opaque, and the chat never fetches one), read through the
    // real fetch + ReadableStream path, then replayed into a Session.
    let body = concat!(
        "data: {\"type\":\"stream.start\",\"timestamp\":1,\"conversationId\":\"conv_a\",\"messageId\":\"msg_u\"}\n\n",
        "data: {\"type\":\"stream.text\",\"timestamp\":2,\"text\":\"It is 24 °C\"}\n\n",
        "data: {\"type\":\"stream.done\",\"timestamp\":3,\"conversationId\":\"conv_a\",\"messageId\":\"msg_a\",\"content\":\"It is 24 °C\"}\n\n",
    );
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(body));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("text/event-stream;charset=utf-8");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).unwrap();
    let url = web_sys::Url::create_object_url_with_blob(&blob).unwrap();
    let config = TransportConfig::new(&url);
    let req = HttpRequest {
        id: RequestId(7),
        method: Method::Get,
        path: String::new(),
        body: None,
        headers: Vec::new(),
    };
    let inputs = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let sink = inputs.clone();
    let controller = web_sys::AbortController::new().unwrap();
    run_stream(&config, req, controller, move |i| sink.borrow_mut().push(i)).await;
    let inputs = inputs.borrow();
    assert!(matches!(
        inputs.last(),
        Some(Input::StreamClosed {
            id: RequestId(7),
            error: None
        })
    ));
    let bytes: Vec<u8> = inputs
        .iter()
        .filter_map(|i| match i {
            Input::StreamChunk { bytes, .. } => Some(bytes.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    assert_eq!(String::from_utf8(bytes.clone()).unwrap(), body);

    // What came through fetch decodes to the three events, the last one final.
    let events: Vec<StreamEvent> = agent_chat_ui::core::decode_all(&bytes)
        .into_iter()
        .map(|e| e.expect("every frame decodes"))
        .collect();
    assert_eq!(events.len(), 3);
    assert!(matches!(&events[2], StreamEvent::Done { content, .. } if content == "It is 24 °C"));
}

#[wasm_bindgen_test]
async fn arabic_locale_lays_the_chat_out_right_to_left() {
    let root = section();
    let _handle = mount_to(
        root.clone(),
        || view! { <Chat base_url=DEAD locale="ar-EG"/> },
    );
    let chat = wait_for(&root, ".chat-root").await;
    assert_eq!(chat.get_attribute("lang").as_deref(), Some("ar"));
    assert_eq!(chat.get_attribute("dir").as_deref(), Some("rtl"));
    let title = wait_for(&root, ".chat-empty__title").await;
    let text = title.text_content().unwrap();
    assert!(
        text.chars().any(|c| ('\u{0600}'..='\u{06FF}').contains(&c)),
        "Arabic text: {text}"
    );
    // The history sidebar sits on the right in a right-to-left layout.
    let sidebar = wait_for(&root, ".chat-history").await;
    let main = wait_for(&root, ".chat-main").await;
    assert!(
        sidebar.get_bounding_client_rect().left() > main.get_bounding_client_rect().left(),
        "sidebar right of the messages"
    );
}

#[wasm_bindgen_test]
async fn f36_auto_focus_input_focuses_the_composer_on_mount() {
    let root = section();
    let _handle = mount_to(root.clone(), || {
        view! { <Chat base_url=DEAD show_history=false auto_focus_input=true/> }
    });
    let textarea = wait_for(&root, "textarea.chat-input__textarea").await;
    for _ in 0..50 {
        leptos::task::tick().await;
        if web_sys::window()
            .unwrap()
            .document()
            .unwrap()
            .active_element()
            == Some(textarea.clone().unchecked_into())
        {
            return;
        }
        sleep(20).await;
    }
    panic!("the composer did not take focus");
}

/// F25, C36: `theme_colors` takes React keys and `--chat-*` names onto the root; keys and
/// values that could leave their declaration are dropped.
#[wasm_bindgen_test]
async fn f25_theme_colors_set_tokens_on_the_root_and_drop_hostile_entries() {
    let root = section();
    let colors = vec![
        ("accentPrimary".to_owned(), "#ff0000".to_owned()),
        ("--chat-bg-primary".to_owned(), "#000000".to_owned()),
        ("bad;key".to_owned(), "#111111".to_owned()),
        (
            "textPrimary".to_owned(),
            "red; } body { display: none".to_owned(),
        ),
    ];
    let _handle = mount_to(root.clone(), move || {
        view! { <Chat base_url=DEAD theme_colors=colors.clone()/> }
    });
    let chat = wait_for(&root, ".chat-root").await;
    let style = chat.get_attribute("style").unwrap_or_default();
    assert!(style.contains("--chat-accent-primary: #ff0000"), "{style}");
    assert!(style.contains("--chat-bg-primary: #000000"), "{style}");
    assert!(!style.contains("#111111"), "{style}");
    assert!(!style.contains("display"), "{style}");
}
