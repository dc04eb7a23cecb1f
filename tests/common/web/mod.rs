//! Helpers shared by the browser test files: a fresh mount point, polling queries, typing.
#![allow(dead_code)] // each test file uses a different part

use wasm_bindgen::JsCast;

pub mod fetch;

/// Resolves in the next animation frame, after the store's publish (requested earlier), and
/// lets the view's effects that the publish woke run (they run as tasks).
pub async fn next_frame() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .request_animation_frame(&resolve)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
    leptos::task::tick().await;
    leptos::task::tick().await;
}

/// Feeds `frames` (SSE text) as the whole body of the stream request `id`, then closes it.
pub fn feed_whole_stream(
    store: &agent_chat_ui::store::ChatStore,
    id: agent_chat_ui::core::RequestId,
    frames: &str,
) {
    use agent_chat_ui::core::Input;
    store.feed(Input::StreamChunk {
        id,
        bytes: frames.as_bytes().to_vec(),
    });
    store.feed(Input::StreamClosed { id, error: None });
}

/// Resolves after `ms` milliseconds.
pub async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

/// Removes the `<section>`s earlier tests mounted into: every browser test file runs in one
/// page, one test at a time, so a test that looks at the whole document starts without them.
pub fn remove_earlier_sections() {
    let doc = web_sys::window().unwrap().document().unwrap();
    let sections = doc.query_selector_all("body > section").unwrap();
    for i in 0..sections.length() {
        if let Some(node) = sections.item(i) {
            node.unchecked_into::<web_sys::Element>().remove();
        }
    }
}

/// A fresh `<section>` appended to `<body>` to mount into.
pub fn section() -> web_sys::HtmlElement {
    let doc = web_sys::window().unwrap().document().unwrap();
    let el: web_sys::HtmlElement = doc.create_element("section").unwrap().unchecked_into();
    el.style().set_property("height", "600px").unwrap();
    doc.body().unwrap().append_child(&el).unwrap();
    el
}

/// The computed value of the CSS property `prop` on `el` (e.g. `direction`, `opacity`).
pub fn computed_style(el: &web_sys::Element, prop: &str) -> String {
    web_sys::window()
        .unwrap()
        .get_computed_style(el)
        .unwrap()
        .unwrap()
        .get_property_value(prop)
        .unwrap()
}

/// First match of `sel` under `root`.
pub fn query(root: &web_sys::HtmlElement, sel: &str) -> Option<web_sys::HtmlElement> {
    root.query_selector(sel)
        .unwrap()
        .map(|e| e.unchecked_into())
}

/// Polls (ticks + short sleeps) until `sel` matches, up to ~3 s.
pub async fn wait_for(root: &web_sys::HtmlElement, sel: &str) -> web_sys::HtmlElement {
    for _ in 0..150 {
        leptos::task::tick().await;
        if let Some(el) = query(root, sel) {
            return el;
        }
        sleep(20).await;
    }
    panic!("timed out waiting for {sel}; DOM: {}", root.inner_html());
}

/// Polls until `sel` no longer matches, up to ~3 s.
pub async fn wait_gone(root: &web_sys::HtmlElement, sel: &str) {
    for _ in 0..150 {
        leptos::task::tick().await;
        if query(root, sel).is_none() {
            return;
        }
        sleep(20).await;
    }
    panic!("{sel} still there; DOM: {}", root.inner_html());
}

/// Polls until `check` holds, up to ~3 s; `what` names it in the failure.
pub async fn wait_until(what: &str, root: &web_sys::HtmlElement, check: impl Fn() -> bool) {
    for _ in 0..150 {
        leptos::task::tick().await;
        if check() {
            return;
        }
        sleep(20).await;
    }
    panic!("timed out waiting until {what}; DOM: {}", root.inner_html());
}

/// Sets an input's or textarea's value and fires `input`, as typing does.
pub fn type_text(el: &web_sys::HtmlElement, text: &str) {
    if let Some(t) = el.dyn_ref::<web_sys::HtmlTextAreaElement>() {
        t.set_value(text);
    } else if let Some(i) = el.dyn_ref::<web_sys::HtmlInputElement>() {
        i.set_value(text);
    } else if let Some(s) = el.dyn_ref::<web_sys::HtmlSelectElement>() {
        s.set_value(text);
    }
    let event = web_sys::Event::new("input").unwrap();
    el.dispatch_event(&event).unwrap();
    let change = web_sys::Event::new("change").unwrap();
    el.dispatch_event(&change).unwrap();
}

/// Dispatches a bubbling `keydown` of `key` on `el`.
pub fn press(el: &web_sys::HtmlElement, key: &str) {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(key);
    init.set_bubbles(true);
    init.set_cancelable(true);
    let ev = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    el.dispatch_event(&ev).unwrap();
}

/// Answers (and removes) the request in `requests` whose path starts with `prefix`, feeding
/// the response to a detached store.
pub fn answer(
    store: &agent_chat_ui::store::ChatStore,
    requests: &mut Vec<agent_chat_ui::core::HttpRequest>,
    prefix: &str,
    status: u16,
    body: &str,
) -> agent_chat_ui::core::HttpRequest {
    let pos = requests
        .iter()
        .position(|r| r.path.starts_with(prefix))
        .unwrap_or_else(|| panic!("no request to {prefix} in {requests:?}"));
    let req = requests.remove(pos);
    store.feed(agent_chat_ui::core::Input::Response {
        id: req.id,
        result: Ok(agent_chat_ui::core::HttpResponse {
            status,
            body: body.into(),
            date: None,
            retry_after: None,
        }),
    });
    req
}

/// Mounts a `ChatMessageList` over a detached store (English, no history) in `root`, sends
/// `text` to the echo agent and answers the agent list and the new conversation (`conv_1`).
/// Returns the store, the send's stream request (feed it SSE chunks) and the mount handle.
pub fn list_with_a_turn(
    root: &web_sys::HtmlElement,
    text: &str,
) -> (
    agent_chat_ui::store::ChatStore,
    agent_chat_ui::core::HttpRequest,
    impl Drop,
) {
    use agent_chat_ui::core::{Command, Session, SessionConfig};
    use agent_chat_ui::store::{ChatCallbacks, ChatStore};
    use agent_chat_ui::ui::{cards::ChatActions, i18n::I18n, message_list::ChatMessageList};
    use leptos::prelude::*;
    let slot = std::rc::Rc::new(std::cell::Cell::new(None));
    let out = slot.clone();
    let handle = mount_to(root.clone(), move || {
        I18n::provide(Some("en"), std::collections::HashMap::new());
        let config = SessionConfig {
            show_history: false,
            ..SessionConfig::default()
        };
        let store = ChatStore::detached(Session::new(config), ChatCallbacks::default());
        out.set(Some(store));
        view! { <ChatMessageList actions=ChatActions::from_store(store)/> }
    });
    let store: ChatStore = slot.get().expect("store created on mount");
    store.dispatch(Command::Start);
    let mut reqs = store.take_requests();
    answer(
        &store,
        &mut reqs,
        "/agents",
        200,
        r#"{"agents":[{"id":"echo","name":"Echo"}]}"#,
    );
    store.send_message(text);
    let mut reqs = store.take_requests();
    answer(
        &store,
        &mut reqs,
        "/conversations",
        201,
        r#"{"conversation":{"id":"conv_1","agentId":"echo"}}"#,
    );
    let stream = store.take_requests().pop().expect("the send's stream");
    (store, stream, handle)
}

/// Starts `store` (a detached one whose config opens `conv_1`) and answers the agent list and
/// `conv_1` with a user message `m_u`, an assistant message `m_a` (`assistant` its text) and
/// `open` (a JSON list body, without brackets) as its open actions.
pub fn open_conv_1(store: &agent_chat_ui::store::ChatStore, assistant: &str, open: &str) {
    store.dispatch(agent_chat_ui::core::Command::Start);
    let mut reqs = store.take_requests();
    answer(
        store,
        &mut reqs,
        "/agents",
        200,
        r#"{"agents":[{"id":"ops","name":"Ops"}]}"#,
    );
    let conv = format!(
        r#"{{"conversation":{{"id":"conv_1","agentId":"ops"}},"messages":[
           {{"id":"m_u","role":"user","content":"do it"}},
           {{"id":"m_a","role":"assistant","content":"{assistant}"}}],
           "pendingActions":[{open}]}}"#
    );
    answer(store, &mut reqs, "/conversations/conv_1", 200, &conv);
}

/// Removes the conversations the backends kept in `localStorage` under `prefix`, so later
/// runs in this browser start empty.
pub fn clear_threads(prefix: &str) {
    let storage = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    let keys: Vec<String> = (0..storage.length().unwrap())
        .filter_map(|i| storage.key(i).unwrap())
        .filter(|k| k.contains(prefix))
        .collect();
    for k in keys {
        storage.remove_item(&k).unwrap();
    }
}
