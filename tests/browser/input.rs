//! Browser tests of the composer's attachments (F76, F81–F88, F147, F148): a `ChatInput` and a
//! `ChatMessageList` over a detached `ChatStore` (no network, DESIGN §5). Files are real
//! `File` objects put on the hidden picker through a `DataTransfer`, or pasted with a
//! `ClipboardEvent`, so the same browser paths as a person's run.
#![cfg(target_arch = "wasm32")]

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use agent_chat_ui::core::{ChatError, Command, Session, SessionConfig, UploadLimits};
use agent_chat_ui::store::{ChatCallbacks, ChatStore};
use agent_chat_ui::ui::chat_input::ChatInput;
use agent_chat_ui::ui::i18n::I18n;
use agent_chat_ui::ui::message_list::ChatMessageList;
use leptos::prelude::*;
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

use crate::web;
use web::{answer, computed_style, query, section, type_text, wait_for, wait_gone, wait_until};

const CONV: &str = r#"{"conversation":{"id":"conv_1","agentId":"echo","createdAt":"2025-05-01T10:00:00.000Z","updatedAt":"2025-05-01T10:00:00.000Z"}}"#;

/// A mounted composer (with the message list above it) and what `on_error` received.
struct Mounted {
    store: ChatStore,
    errors: Rc<RefCell<Vec<ChatError>>>,
    _handle: Box<dyn std::any::Any>,
}

fn mount(root: &web_sys::HtmlElement, uploads: UploadLimits) -> Mounted {
    let slot = Rc::new(RefCell::new(None));
    let errors = Rc::new(RefCell::new(Vec::new()));
    let (out, seen) = (slot.clone(), errors.clone());
    let handle = mount_to(root.clone(), move || {
        I18n::provide(Some("en"), HashMap::new());
        let config = SessionConfig {
            agent_id: Some("echo".into()),
            show_history: false,
            uploads: uploads.clone(),
            ..SessionConfig::default()
        };
        let seen = send_wrapper::SendWrapper::new(seen.clone());
        let callbacks = ChatCallbacks {
            on_error: Some(Callback::new(move |e: ChatError| seen.borrow_mut().push(e))),
            ..ChatCallbacks::default()
        };
        let store = ChatStore::detached(Session::new(config), callbacks);
        *out.borrow_mut() = Some(store);
        view! {
            <div class="chat-root">
                <ChatMessageList/>
                <ChatInput/>
            </div>
        }
    });
    let store = slot.borrow_mut().take().expect("store created on mount");
    Mounted {
        store,
        errors,
        _handle: Box::new(handle),
    }
}

/// `new File([text], name, { type })`.
fn file(name: &str, mime: &str, text: &str) -> JsValue {
    let make = js_sys::Function::new_with_args(
        "name, mime, text",
        "return new File([text], name, { type: mime });",
    );
    make.call3(
        &JsValue::NULL,
        &name.into(),
        &mime.into(),
        &JsValue::from_str(text),
    )
    .unwrap()
}

/// A `DataTransfer` holding `files`.
fn transfer(files: &[JsValue]) -> JsValue {
    let make = js_sys::Function::new_with_args(
        "files",
        "const dt = new DataTransfer(); for (const f of files) dt.items.add(f); return dt;",
    );
    let list: js_sys::Array = files.iter().collect();
    make.call1(&JsValue::NULL, &list).unwrap()
}

/// Puts `files` on the hidden `<input type=file>` and fires `change`, as the picker does.
fn pick(root: &web_sys::HtmlElement, files: &[JsValue]) {
    let input = query(root, "input.chat-input__file-picker").expect("file picker");
    let set = js_sys::Function::new_with_args(
        "input, dt",
        "input.files = dt.files; input.dispatchEvent(new Event('change', { bubbles: true }));",
    );
    set.call2(&JsValue::NULL, &input, &transfer(files)).unwrap();
}

/// Fires a cancelable `paste` carrying `dt` on `el`; returns whether the default was prevented.
fn paste(el: &web_sys::HtmlElement, dt: &JsValue) -> bool {
    let fire = js_sys::Function::new_with_args(
        "el, dt",
        "const ev = new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true });\
         el.dispatchEvent(ev); return ev.defaultPrevented;",
    );
    fire.call2(&JsValue::NULL, el, dt)
        .unwrap()
        .as_bool()
        .unwrap_or(false)
}

fn chip_names(root: &web_sys::HtmlElement) -> Vec<String> {
    let list = root
        .query_selector_all(".chat-input__files .chat-file-chip__name")
        .unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.text_content())
        .collect()
}

fn error_text(store: &ChatStore) -> Option<String> {
    let i18n = agent_chat_ui::core::Catalog::new("en");
    store
        .status
        .with_untracked(|s| s.error.as_ref().map(|e| e.describe(&i18n)))
}

#[wasm_bindgen_test]
async fn f84_f82_picked_files_show_as_chips_with_size_and_a_labelled_remove() {
    let root = section();
    let m = mount(&root, UploadLimits::default());
    wait_for(&root, "button.chat-input__attach").await;
    pick(
        &root,
        &[
            file("notes.txt", "text/plain", "hello"),
            file("dot.png", "image/png", "1234"),
        ],
    );
    wait_for(
        &root,
        ".chat-file-chip[data-state=\"ready\"] + .chat-file-chip[data-state=\"ready\"]",
    )
    .await;
    assert_eq!(chip_names(&root), ["notes.txt", "dot.png"]);
    let sizes: Vec<String> = {
        let list = root
            .query_selector_all(".chat-input__files .chat-file-chip__size")
            .unwrap();
        (0..list.length())
            .filter_map(|i| list.item(i).and_then(|n| n.text_content()))
            .collect()
    };
    assert_eq!(sizes, ["5 Bytes", "4 Bytes"]);
    let list = query(&root, "ul.chat-input__files").unwrap();
    assert_eq!(
        list.get_attribute("aria-label").as_deref(),
        Some("Attachments")
    );
    // F82: each × is a button named after its file.
    let remove = query(
        &root,
        "button.chat-file-chip__remove[aria-label=\"Remove notes.txt\"]",
    )
    .expect("labelled remove button");
    remove.click();
    wait_until("one chip left", &root, || chip_names(&root) == ["dot.png"]).await;
    // Focus does not fall to the page with the removed button: it goes to the text box.
    let textarea = query(&root, "textarea").unwrap();
    wait_until("focus back in the composer", &root, || {
        web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.active_element())
            .is_some_and(|a| a == *textarea.unchecked_ref::<web_sys::Element>())
    })
    .await;
    assert_eq!(m.store.files.with_untracked(|f| f.pending.len()), 1);
    // The last one removed: the list goes away.
    query(&root, "button.chat-file-chip__remove")
        .unwrap()
        .click();
    wait_gone(&root, "ul.chat-input__files").await;
}

#[wasm_bindgen_test]
async fn f147_a_refused_file_is_reported_and_the_typed_text_stays() {
    let root = section();
    let m = mount(
        &root,
        UploadLimits {
            allowed_types: vec!["image/*".into()],
            max_file_size: 10,
            ..UploadLimits::default()
        },
    );
    let textarea = wait_for(&root, "textarea").await;
    type_text(&textarea, "please look at these");
    // The picker is told what to offer (F87).
    let picker = query(&root, "input.chat-input__file-picker").unwrap();
    assert_eq!(picker.get_attribute("accept").as_deref(), Some("image/*"));
    assert!(picker.has_attribute("multiple"));
    pick(
        &root,
        &[
            file("notes.txt", "text/plain", "hello"),
            file("big.png", "image/png", "0123456789a"),
            file("dot.png", "image/png", "1234"),
        ],
    );
    wait_for(&root, ".chat-file-chip[data-state=\"ready\"]").await;
    assert_eq!(chip_names(&root), ["dot.png"]);
    assert_eq!(
        error_text(&m.store).as_deref(),
        Some("notes.txt is not an allowed file type\nbig.png is too large (max 10 Bytes)")
    );
    // F17: on_error hears about it too.
    assert!(matches!(m.errors.borrow().as_slice(), [ChatError::Files(list)] if list.len() == 2));
    // Nothing lost from the composer.
    let value = textarea
        .dyn_ref::<web_sys::HtmlTextAreaElement>()
        .unwrap()
        .value();
    assert_eq!(value, "please look at these");
    assert_eq!(m.store.draft.get_untracked(), "please look at these");
}

#[wasm_bindgen_test]
async fn f88_attach_is_disabled_at_max_files_and_enabled_again_after_a_removal() {
    let root = section();
    let m = mount(
        &root,
        UploadLimits {
            max_files: 2,
            ..UploadLimits::default()
        },
    );
    let attach = wait_for(&root, "button.chat-input__attach").await;
    assert!(!attach.has_attribute("disabled"));
    assert_eq!(
        attach.get_attribute("aria-label").as_deref(),
        Some("Attach files")
    );
    pick(
        &root,
        &[
            file("a.txt", "text/plain", "a"),
            file("b.txt", "text/plain", "b"),
        ],
    );
    wait_until("attach disabled at 2 files", &root, || {
        attach.has_attribute("disabled")
    })
    .await;
    assert_eq!(chip_names(&root).len(), 2);
    query(&root, "button.chat-file-chip__remove")
        .unwrap()
        .click();
    wait_until("attach enabled again", &root, || {
        !attach.has_attribute("disabled")
    })
    .await;
    assert!(m.store.status.with_untracked(|s| s.error.is_none()));
}

#[wasm_bindgen_test]
async fn f81_pasted_files_are_attached_and_pasted_text_is_left_alone() {
    let root = section();
    let _m = mount(&root, UploadLimits::default());
    let textarea = wait_for(&root, "textarea").await;
    let text_only = js_sys::Function::new_with_args(
        "",
        "const dt = new DataTransfer(); dt.setData('text/plain', 'pasted words'); return dt;",
    )
    .call0(&JsValue::NULL)
    .unwrap();
    assert!(
        !paste(&textarea, &text_only),
        "a text paste keeps its default"
    );
    assert!(chip_names(&root).is_empty());
    let prevented = paste(
        &textarea,
        &transfer(&[file("shot.png", "image/png", "png!")]),
    );
    assert!(prevented, "a file paste is handled by the composer");
    wait_for(&root, ".chat-file-chip[data-state=\"ready\"]").await;
    assert_eq!(chip_names(&root), ["shot.png"]);
}

#[wasm_bindgen_test]
async fn f48_no_attach_button_and_no_paste_when_uploads_are_off() {
    let root = section();
    let m = mount(
        &root,
        UploadLimits {
            enabled: false,
            ..UploadLimits::default()
        },
    );
    let textarea = wait_for(&root, "textarea").await;
    assert!(query(&root, "button.chat-input__attach").is_none());
    assert!(query(&root, "input[type=file]").is_none());
    let prevented = paste(
        &textarea,
        &transfer(&[file("shot.png", "image/png", "png!")]),
    );
    assert!(!prevented);
    // A taken file would be in the store's next publish (an animation frame).
    web::next_frame().await;
    assert!(m.store.files.with_untracked(|f| f.pending.is_empty()));
}

#[wasm_bindgen_test]
async fn f146_f76_send_carries_the_files_and_the_sent_message_shows_them() {
    let root = section();
    let m = mount(&root, UploadLimits::default());
    let textarea = wait_for(&root, "textarea").await;
    // Files alone do not make a message (F146 ignores blank text, as React does).
    pick(&root, &[file("notes.txt", "text/plain", "hello")]);
    wait_for(&root, ".chat-file-chip[data-state=\"ready\"]").await;
    let send = query(&root, "button.chat-input__send").unwrap();
    assert!(send.has_attribute("disabled"));
    type_text(&textarea, "see attached");
    wait_until("send enabled", &root, || !send.has_attribute("disabled")).await;
    send.click();
    // The chips leave the composer and show on the sent message (F76).
    wait_gone(&root, "ul.chat-input__files").await;
    let sent = wait_for(
        &root,
        ".chat-message[data-role=\"user\"] .chat-message__files",
    )
    .await;
    assert!(sent
        .text_content()
        .unwrap_or_default()
        .contains("notes.txt"));
    assert!(sent.text_content().unwrap_or_default().contains("5 Bytes"));
    // What goes over the wire: raw base64, no `data:` prefix (§5).
    let mut requests = m.store.take_requests();
    answer(&m.store, &mut requests, "/conversations", 201, CONV);
    let requests = m.store.take_requests();
    let post = requests
        .iter()
        .find(|r| r.path == "/conversations/conv_1/messages")
        .expect("message posted");
    let body: Value = serde_json::from_str(post.body.as_deref().unwrap()).unwrap();
    assert_eq!(body["message"], "see attached");
    assert_eq!(body["files"][0]["name"], "notes.txt");
    assert_eq!(body["files"][0]["mimeType"], "text/plain");
    assert_eq!(body["files"][0]["content"], "aGVsbG8=");
    m.store.dispatch(Command::Stop);
}

/// The upload attributes of `<agent-chat>` (F6, F7, F9): `allowed-file-types` becomes the
/// picker's `accept`, `max-files` stops attaching at the limit, `enable-file-upload="false"`
/// removes the paperclip. Nothing listens at the base URL, so no agent narrows anything.
#[wasm_bindgen_test]
async fn element_upload_attributes_reach_the_composer() {
    agent_chat_ui::element::define_agent_chat();
    let doc = web_sys::window().unwrap().document().unwrap();
    let make = |attrs: &[(&str, &str)]| {
        let el: web_sys::HtmlElement = doc.create_element("agent-chat").unwrap().unchecked_into();
        el.set_attribute("base-url", "http://127.0.0.1:9/api/agents")
            .unwrap();
        for (k, v) in attrs {
            el.set_attribute(k, v).unwrap();
        }
        doc.body().unwrap().append_child(&el).unwrap();
        el
    };
    let in_shadow = |el: &web_sys::HtmlElement, sel: &str| -> Option<web_sys::HtmlElement> {
        el.shadow_root()?
            .query_selector(sel)
            .ok()
            .flatten()
            .map(|e| e.unchecked_into())
    };
    let on = make(&[
        ("allowed-file-types", "image/*, .txt"),
        ("max-files", "1"),
        ("max-file-size", "2048"),
    ]);
    let host = on.clone();
    wait_until("the picker in the shadow root", &on, || {
        in_shadow(&host, "input.chat-input__file-picker").is_some()
    })
    .await;
    let picker = in_shadow(&on, "input.chat-input__file-picker").unwrap();
    assert_eq!(
        picker.get_attribute("accept").as_deref(),
        Some("image/*,.txt")
    );
    let set = js_sys::Function::new_with_args(
        "input, dt",
        "input.files = dt.files; input.dispatchEvent(new Event('change', { bubbles: true }));",
    );
    set.call2(
        &JsValue::NULL,
        &picker,
        &transfer(&[file("a.txt", "text/plain", "a")]),
    )
    .unwrap();
    let host = on.clone();
    wait_until("attach disabled at max-files=1", &on, || {
        in_shadow(&host, "button.chat-input__attach").is_some_and(|b| b.has_attribute("disabled"))
    })
    .await;
    let off = make(&[("enable-file-upload", "false")]);
    let host = off.clone();
    wait_until("the composer of the second chat", &off, || {
        in_shadow(&host, "textarea").is_some()
    })
    .await;
    assert!(in_shadow(&off, "button.chat-input__attach").is_none());
    on.remove();
    off.remove();
}

/// F76: a stored message's files are chips with name and size; a file with a web address
/// gets a "Download" link, one with a `javascript:` address gets none.
#[wasm_bindgen_test]
async fn f76_stored_files_show_with_a_download_link_only_for_web_addresses() {
    let root = section();
    let m = mount(&root, UploadLimits::default());
    m.store.dispatch(Command::OpenConversation("conv_1".into()));
    let mut requests = m.store.take_requests();
    let loaded = r#"{"conversation":{"id":"conv_1","agentId":"echo","createdAt":"2025-05-01T10:00:00.000Z","updatedAt":"2025-05-01T10:00:00.000Z"},
      "messages":[{"id":"msg_1","conversationId":"conv_1","role":"user","content":"two files",
        "files":[{"id":"file_1","name":"plan.pdf","mimeType":"application/pdf","size":2048,"url":"https://files.example/plan.pdf"},
                 {"id":"file_2","name":"evil.txt","mimeType":"text/plain","size":3,"url":"javascript:alert(1)"}],
        "createdAt":"2025-05-01T10:00:00.000Z","updatedAt":"2025-05-01T10:00:00.000Z"}]}"#;
    answer(
        &m.store,
        &mut requests,
        "/conversations/conv_1",
        200,
        loaded,
    );
    wait_for(&root, ".chat-message__files [data-file-id=\"file_2\"]").await;
    let plan = query(&root, ".chat-message__files [data-file-id=\"file_1\"]").unwrap();
    assert!(plan.text_content().unwrap_or_default().contains("2 KB"));
    let link = query(
        &root,
        "[data-file-id=\"file_1\"] a.chat-file-chip__download",
    )
    .unwrap();
    assert_eq!(
        link.get_attribute("href").as_deref(),
        Some("https://files.example/plan.pdf")
    );
    assert_eq!(link.text_content().as_deref(), Some("Download"));
    assert!(query(&root, "[data-file-id=\"file_2\"] a").is_none());
}

/// Files dropped on the composer are attached like picked ones (the same checks apply).
#[wasm_bindgen_test]
async fn f81_files_dropped_on_the_composer_are_attached() {
    let root = section();
    let m = mount(
        &root,
        UploadLimits {
            allowed_types: vec![".txt".into()],
            ..UploadLimits::default()
        },
    );
    let form = wait_for(&root, "form.chat-input").await;
    let drop = js_sys::Function::new_with_args(
        "el, dt",
        "el.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));\
         const ev = new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true });\
         el.dispatchEvent(ev); return ev.defaultPrevented;",
    );
    let dt = transfer(&[
        file("notes.txt", "text/plain", "hello"),
        file("photo.png", "image/png", "png!"),
    ]);
    let prevented = drop.call2(&JsValue::NULL, &form, &dt).unwrap();
    assert_eq!(prevented.as_bool(), Some(true));
    wait_for(&root, ".chat-file-chip[data-state=\"ready\"]").await;
    assert_eq!(chip_names(&root), ["notes.txt"]);
    assert_eq!(
        error_text(&m.store).as_deref(),
        Some("photo.png is not an allowed file type")
    );
    assert_eq!(
        form.get_attribute("data-dragging").as_deref(),
        Some("false")
    );
}

/// D44: the composer is `dir="auto"`, so a person typing Arabic in an English chat writes
/// right to left, and English stays left to right.
#[wasm_bindgen_test]
async fn d44_the_composer_follows_the_direction_of_what_is_typed() {
    let root = section();
    let _m = mount(&root, UploadLimits::default());
    let textarea = wait_for(&root, "textarea").await;
    assert_eq!(textarea.get_attribute("dir").as_deref(), Some("auto"));
    let direction = |el: &web_sys::HtmlElement| computed_style(el, "direction");
    type_text(&textarea, "مرحبا، كيف حالك؟");
    leptos::task::tick().await;
    assert_eq!(direction(&textarea), "rtl");
    type_text(&textarea, "Hello, how are you?");
    leptos::task::tick().await;
    assert_eq!(direction(&textarea), "ltr");
}

/// F89: `disabled` closes the composer: Enter sends nothing, the send and attach buttons are
/// off, the draft stays; lifted, the same draft goes out. F55, F68, F90, F104: `class` adds
/// the host's classes to the list, a message, the composer and the history sidebar.
#[wasm_bindgen_test]
async fn f89_f90_a_disabled_composer_and_the_class_props() {
    use agent_chat_ui::ui::history::ChatHistory;
    use agent_chat_ui::ui::message::ChatMessage;
    let root = section();
    let off = RwSignal::new(true);
    let slot = Rc::new(RefCell::new(None));
    let out = slot.clone();
    let _handle = mount_to(root.clone(), move || {
        I18n::provide(Some("en"), HashMap::new());
        let config = SessionConfig {
            agent_id: Some("echo".into()),
            show_history: false,
            ..SessionConfig::default()
        };
        let store = ChatStore::detached(Session::new(config), ChatCallbacks::default());
        *out.borrow_mut() = Some(store);
        let message: agent_chat_ui::core::Message =
            serde_json::from_str(r#"{"id":"m_1","role":"assistant","content":"Hi"}"#).unwrap();
        view! {
            <div class="chat-root">
                <ChatHistory open=Signal::stored(true) on_close=Callback::new(|_| {}) class="host-history"/>
                <ChatMessage message=message class="host-message"/>
                <ChatMessageList class="host-list"/>
                <ChatInput disabled=off class="host-input"/>
            </div>
        }
    });
    let store = slot.borrow_mut().take().expect("store created on mount");
    for (selector, class) in [
        ("aside.chat-history", "host-history"),
        ("article.chat-message", "host-message"),
        (".chat-message-list", "host-list"),
        ("form.chat-input", "host-input"),
    ] {
        let el = wait_for(&root, selector).await;
        assert!(el.class_list().contains(class), "{selector} lacks {class}");
        let own = selector.rsplit('.').next().unwrap();
        assert!(
            el.class_list().contains(own),
            "{selector} lost its own class"
        );
    }
    let textarea = wait_for(&root, "textarea.chat-input__textarea").await;
    type_text(&textarea, "hello there");
    let _ = store.take_requests();
    web::press(&textarea, "Enter");
    // The key handler ran (synchronously): nothing was sent, the text stayed.
    assert!(store.take_requests().is_empty(), "a disabled composer sent");
    let textarea_el: web_sys::HtmlTextAreaElement = textarea.clone().unchecked_into();
    assert_eq!(textarea_el.value(), "hello there");
    assert!(textarea_el.read_only());
    let send = query(&root, ".chat-input__send").expect("send button");
    assert!(send.has_attribute("disabled"));
    let attach = query(&root, ".chat-input__attach").expect("attach button");
    assert!(attach.has_attribute("disabled"));

    off.set(false);
    wait_until("the composer opens", &root, || {
        !textarea_el.read_only() && !send.has_attribute("disabled")
    })
    .await;
    web::press(&textarea, "Enter");
    let sent = store.take_requests();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert!(sent[0].path.ends_with("/conversations"), "{}", sent[0].path);
    assert!(sent[0].body.as_deref().unwrap_or_default().contains("echo"));
}
