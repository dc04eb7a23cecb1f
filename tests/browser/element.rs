//! Browser tests of the `<agent-chat>` custom element (issue 7, issue 17): attributes reach the
//! chat in the shadow root, attribute changes reach it (live or by a remount), events bubble
//! out of the shadow root, two instances are independent, and page CSS themes it through the
//! `--chat-*` tokens.
#![cfg(target_arch = "wasm32")]

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

use crate::web;
use web::{sleep, wait_until};

/// Nothing listens here: requests fail fast with a network error.
const DEAD: &str = "http://127.0.0.1:9/api/agents";

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

fn element(attrs: &[(&str, &str)]) -> web_sys::HtmlElement {
    // The other files' chats share this page; "nothing leaks into the page" looks at all of it.
    web::remove_earlier_sections();
    agent_chat_ui::element::define_agent_chat();
    let el: web_sys::HtmlElement = document()
        .create_element("agent-chat")
        .unwrap()
        .unchecked_into();
    for (k, v) in attrs {
        el.set_attribute(k, v).unwrap();
    }
    el.style().set_property("height", "400px").unwrap();
    document().body().unwrap().append_child(&el).unwrap();
    el
}

fn in_shadow(el: &web_sys::HtmlElement, sel: &str) -> Option<web_sys::HtmlElement> {
    el.shadow_root()?
        .query_selector(sel)
        .ok()
        .flatten()
        .map(|e| e.unchecked_into())
}

async fn wait_in_shadow(el: &web_sys::HtmlElement, sel: &str) -> web_sys::HtmlElement {
    for _ in 0..150 {
        leptos::task::tick().await;
        if let Some(found) = in_shadow(el, sel) {
            return found;
        }
        sleep(20).await;
    }
    panic!("timed out waiting for {sel} in the shadow root");
}

#[wasm_bindgen_test]
async fn attributes_reach_the_chat_in_a_shadow_root_and_follow_changes() {
    let el = element(&[
        ("base-url", DEAD),
        ("theme", "light"),
        ("locale", "tr"),
        ("show-history", "false"),
    ]);
    let root = wait_in_shadow(&el, ".chat-root").await;
    assert!(root.class_list().contains("chat-theme-light"));
    assert_eq!(root.get_attribute("lang").as_deref(), Some("tr"));
    assert!(
        in_shadow(&el, ".chat-history").is_none(),
        "show-history=false"
    );
    assert!(
        document().query_selector(".chat-root").unwrap().is_none(),
        "nothing leaks into the page"
    );
    let styles = el
        .shadow_root()
        .unwrap()
        .query_selector_all("style[data-agent-chat-ui]")
        .unwrap();
    assert_eq!(styles.length(), 1, "the stylesheet once per instance");

    el.set_attribute("theme", "dark").unwrap();
    el.set_attribute("locale", "en").unwrap();
    let root = wait_in_shadow(&el, ".chat-root[lang=en]").await;
    assert!(!root.class_list().contains("chat-theme-light"));
    el.remove();
}

#[wasm_bindgen_test]
async fn page_css_on_the_host_themes_the_chat_through_the_tokens() {
    let style = document().create_element("style").unwrap();
    style.set_text_content(Some(
        "agent-chat.themed { --chat-bg-primary: rgb(1, 2, 3); }",
    ));
    document().head().unwrap().append_child(&style).unwrap();
    let el = element(&[("base-url", DEAD), ("show-history", "false")]);
    el.class_list().add_1("themed").unwrap();
    let root = wait_in_shadow(&el, ".chat-root").await;
    let computed = web_sys::window()
        .unwrap()
        .get_computed_style(&root)
        .unwrap()
        .unwrap();
    assert_eq!(
        computed
            .get_property_value("--chat-bg-primary")
            .unwrap()
            .trim(),
        "rgb(1, 2, 3)"
    );
    el.remove();
    style.remove();
}

#[wasm_bindgen_test]
async fn errors_leave_as_composed_events_and_two_instances_stay_independent() {
    let seen: Rc<RefCell<Vec<(String, String)>>> = Rc::default();
    let sink = seen.clone();
    let listener = Closure::<dyn Fn(web_sys::CustomEvent)>::new(move |ev: web_sys::CustomEvent| {
        let id = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .map(|e| e.id())
            .unwrap_or_default();
        let message = js_sys::Reflect::get(&ev.detail(), &"message".into())
            .ok()
            .and_then(|m| m.as_string())
            .unwrap_or_default();
        sink.borrow_mut().push((id, message));
    });
    document()
        .add_event_listener_with_callback("agent-chat:error", listener.as_ref().unchecked_ref())
        .unwrap();
    let a = element(&[
        ("base-url", DEAD),
        ("agent-id", "echo"),
        ("show-history", "false"),
    ]);
    a.set_id("chat-a");
    let b = element(&[
        ("base-url", DEAD),
        ("agent-id", "echo"),
        ("show-history", "false"),
        ("theme", "light"),
    ]);
    b.set_id("chat-b");
    for el in [&a, &b] {
        let textarea = wait_in_shadow(el, "textarea.chat-input__textarea").await;
        web::type_text(&textarea, "hello");
        web::press(&textarea, "Enter");
    }
    wait_until(
        "both chats report their own error",
        &document().body().unwrap(),
        || {
            let seen = seen.borrow();
            seen.iter().any(|(id, _)| id == "chat-a") && seen.iter().any(|(id, _)| id == "chat-b")
        },
    )
    .await;
    assert!(
        seen.borrow().iter().all(|(_, m)| !m.is_empty()),
        "{:?}",
        seen.borrow()
    );
    // Each shows its own banner in its own shadow root; the themes stay apart.
    wait_in_shadow(&a, ".chat-error[role=alert]").await;
    wait_in_shadow(&b, ".chat-error[role=alert]").await;
    assert!(!in_shadow(&a, ".chat-root")
        .unwrap()
        .class_list()
        .contains("chat-theme-light"));
    assert!(in_shadow(&b, ".chat-root")
        .unwrap()
        .class_list()
        .contains("chat-theme-light"));

    // Removing one unmounts its chat; the other keeps working.
    a.remove();
    leptos::task::tick().await;
    assert!(
        in_shadow(&a, ".chat-root").is_none(),
        "a removed element's chat is unmounted"
    );
    let textarea: web_sys::HtmlTextAreaElement =
        wait_in_shadow(&b, "textarea.chat-input__textarea")
            .await
            .unchecked_into();
    assert!(!textarea.disabled());
    document()
        .remove_event_listener_with_callback("agent-chat:error", listener.as_ref().unchecked_ref())
        .unwrap();
    b.remove();
}

/// `window.fetch` answering by address until dropped: the agent list, and `conv_1` holding an
/// assistant reply with two sources. Anything else is a 404.
struct FakeServer {
    original: JsValue,
}

impl FakeServer {
    fn install() -> FakeServer {
        let window = web_sys::window().unwrap();
        let original = js_sys::Reflect::get(&window, &"fetch".into()).unwrap();
        let fake = js_sys::Function::new_no_args(
            r#"
            const json = (body, status) => new Response(JSON.stringify(body),
              { status: status || 200, headers: { 'content-type': 'application/json' } });
            return async (input, init) => {
              const url = new URL(input instanceof Request ? input.url : String(input));
              if (url.pathname.endsWith('/agents')) {
                return json({ agents: [{ id: 'research', name: 'Research' }] });
              }
              if (url.pathname.endsWith('/conversations/conv_1')) {
                return json({
                  conversation: { id: 'conv_1', agentId: 'research' },
                  messages: [
                    { id: 'm_1', role: 'user', content: 'Sources please' },
                    { id: 'm_2', role: 'assistant', content: 'Here you are.', citations: [
                      { id: 'c1', title: 'The Rust Book', link: 'https://doc.rust-lang.org/book/' },
                      { id: 'c2', title: 'Leptos', link: 'https://leptos.dev/' } ] },
                  ],
                });
              }
              if (url.pathname.endsWith('/conversations/conv_2')) {
                const action = { id: 'act_9', type: 'tool_approval', toolName: 'send_email',
                  args: { to: 'a@b.co' }, expiresAt: '2099-01-01T00:00:00.000Z' };
                return json({
                  conversation: { id: 'conv_2', agentId: 'research' },
                  messages: [
                    { id: 'm_1', role: 'user', content: 'Email Alex' },
                    { id: 'm_2', role: 'assistant', content: 'Approve?',
                      metadata: { pendingActions: [action] } },
                  ],
                  pendingActions: [action],
                });
              }
              return json({ error: { code: 'NOT_FOUND', message: 'no such thing' } }, 404);
            };
            "#,
        )
        .call0(&JsValue::NULL)
        .unwrap();
        js_sys::Reflect::set(&window, &"fetch".into(), &fake).unwrap();
        FakeServer { original }
    }
}

impl Drop for FakeServer {
    fn drop(&mut self) {
        let window = web_sys::window().unwrap();
        js_sys::Reflect::set(&window, &"fetch".into(), &self.original).unwrap();
    }
}

#[wasm_bindgen_test]
async fn f38_enable_citations_attribute_is_observed_and_switches_sources_live() {
    let _server = FakeServer::install();
    let el = element(&[
        ("base-url", "https://agents.test/api"),
        ("agent-id", "research"),
        ("conversation-id", "conv_1"),
        ("show-history", "false"),
        ("enable-citations", "false"),
    ]);
    wait_in_shadow(&el, "[data-message-id=m_2] .chat-message__content").await;
    assert!(
        in_shadow(&el, "section.chat-citations").is_none(),
        "enable-citations=false: no Sources"
    );
    // Observed: a change applies without re-creating the element, the conversation stays.
    el.set_attribute("enable-citations", "true").unwrap();
    let block = wait_in_shadow(&el, "[data-message-id=m_2] section.chat-citations").await;
    assert_eq!(block.query_selector_all("li").unwrap().length(), 2);
    el.set_attribute("enable-citations", "off").unwrap();
    wait_in_shadow(&el, "[data-message-id=m_2] .chat-message__content").await;
    wait_until("Sources gone again", &document().body().unwrap(), || {
        in_shadow(&el, "section.chat-citations").is_none()
            && in_shadow(&el, "[data-message-id=m_2]").is_some()
    })
    .await;
    el.remove();
}

/// Sets (or with `None` removes) `?lang=` on the test page's address.
fn set_lang_param(lang: Option<&str>) {
    let window = web_sys::window().unwrap();
    let url = web_sys::Url::new(&window.location().href().unwrap()).unwrap();
    match lang {
        Some(l) => url.search_params().set("lang", l),
        None => url.search_params().delete("lang"),
    }
    url.set_search(&url.search_params().to_string().as_string().unwrap());
    window
        .history()
        .unwrap()
        .replace_state_with_url(&JsValue::NULL, "", Some(&url.href()))
        .unwrap();
}

async fn lang_of(attrs: &[(&str, &str)]) -> String {
    let mut all = vec![("base-url", DEAD), ("show-history", "false")];
    all.extend_from_slice(attrs);
    let el = element(&all);
    let root = wait_in_shadow(&el, ".chat-root[lang]").await;
    let lang = root.get_attribute("lang").unwrap();
    el.remove();
    lang
}

#[wasm_bindgen_test]
async fn d30_locale_attribute_beats_the_pages_lang_which_beats_default_locale() {
    // The host page's `?lang=ar` applies when no `locale` (or `lang`) attribute is set, as the
    // standalone page's does; `default-locale` is only the fallback under it.
    set_lang_param(Some("ar"));
    assert_eq!(lang_of(&[]).await, "ar", "?lang= without attributes");
    assert_eq!(lang_of(&[("default-locale", "tr")]).await, "ar");
    assert_eq!(
        lang_of(&[("locale", "tr")]).await,
        "tr",
        "the attribute wins"
    );
    assert_eq!(lang_of(&[("lang", "tr")]).await, "tr", "so does `lang`");
    // An unshipped `?lang=` counts as absent.
    set_lang_param(Some("xx"));
    assert_eq!(lang_of(&[("default-locale", "tr")]).await, "tr");
    set_lang_param(None);
    assert_eq!(lang_of(&[("default-locale", "ar")]).await, "ar");
    // Nothing usable: the browser's language (when shipped), else English.
    let browser = web_sys::window().unwrap().navigator().language();
    let expected = browser
        .as_deref()
        .and_then(agent_chat_ui::core::match_locale)
        .unwrap_or("en");
    assert_eq!(lang_of(&[("default-locale", "xx")]).await, expected);
    // `default-locale` is observed too: changing it remounts in the new language.
    let el = element(&[
        ("base-url", DEAD),
        ("show-history", "false"),
        ("default-locale", "tr"),
    ]);
    wait_in_shadow(&el, ".chat-root[lang=tr]").await;
    el.set_attribute("default-locale", "ar").unwrap();
    wait_in_shadow(&el, ".chat-root[lang=ar][dir=rtl]").await;
    el.remove();
}

#[wasm_bindgen_test]
async fn i14_the_element_tells_the_page_how_many_cards_wait() {
    let _server = FakeServer::install();
    let seen: Rc<RefCell<Vec<serde_json::Value>>> = Rc::default();
    let sink = seen.clone();
    let listener = Closure::<dyn Fn(web_sys::CustomEvent)>::new(move |ev: web_sys::CustomEvent| {
        let text = js_sys::JSON::stringify(&ev.detail())
            .ok()
            .and_then(|t| t.as_string())
            .unwrap_or_default();
        sink.borrow_mut()
            .push(serde_json::from_str(&text).unwrap_or_default());
    });
    document()
        .add_event_listener_with_callback("agent-chat:attention", listener.as_ref().unchecked_ref())
        .unwrap();
    let el = element(&[
        ("base-url", "https://agents.test/api"),
        ("agent-id", "research"),
        ("conversation-id", "conv_2"),
        ("show-history", "false"),
        ("attention-title", "true"),
    ]);
    wait_in_shadow(&el, ".chat-card[data-action-id=act_9]").await;
    wait_until("one card reported", &document().body().unwrap(), || {
        seen.borrow().last().is_some_and(|d| d["pending"] == 1)
    })
    .await;
    let last = seen.borrow().last().cloned().unwrap();
    assert_eq!(last["kinds"], serde_json::json!(["tool_approval"]));
    assert_eq!(
        last["expiresAt"],
        serde_json::json!("2099-01-01T00:00:00.000Z")
    );
    document()
        .remove_event_listener_with_callback(
            "agent-chat:attention",
            listener.as_ref().unchecked_ref(),
        )
        .unwrap();
    el.remove();
}

/// Attributes that remount (another server, the language fallback) set one after another
/// remount the chat once, after the script, and
/// the mounts that went (with frames still pending, D58's window keeps one) leave no error
/// behind when those frames come. An element upgraded from the page's HTML took this path
/// with each of its attributes.
#[wasm_bindgen_test]
async fn attribute_changes_in_a_row_remount_once_and_leave_no_error() {
    let el = element(&[("base-url", DEAD), ("show-history", "false")]);
    wait_in_shadow(&el, ".chat-root").await;
    let watch = js_sys::Function::new_with_args(
        "root",
        "var seen = { mounts: 0, errors: [] };
         new MutationObserver(function (rs) {
           for (var r of rs) for (var n of r.addedNodes) if (n.nodeName === 'DIV') seen.mounts++;
         }).observe(root, { childList: true });
         window.addEventListener('error', function (e) { seen.errors.push(String(e.message)); });
         return seen;",
    )
    .call1(&JsValue::NULL, &el.shadow_root().unwrap())
    .unwrap();
    let before = in_shadow(&el, ".chat-root").unwrap();
    // What is read at mount only (every other attribute would apply live).
    el.set_attribute("base-url", "http://127.0.0.1:9/other")
        .unwrap();
    el.set_attribute("default-locale", "tr").unwrap();
    el.set_attribute("base-url", DEAD).unwrap();
    // The remount runs after this synchronous code: once its chat is there, every change
    // has been seen.
    for _ in 0..150 {
        leptos::task::tick().await;
        if in_shadow(&el, ".chat-root").is_some_and(|r| !r.is_same_node(Some(&before))) {
            break;
        }
        sleep(20).await;
    }
    assert!(
        !in_shadow(&el, ".chat-root")
            .unwrap()
            .is_same_node(Some(&before)),
        "remounted"
    );
    let mounts = js_sys::Reflect::get(&watch, &"mounts".into()).unwrap();
    assert_eq!(mounts.as_f64(), Some(1.0), "three changes, one remount");
    // The frames the unmounted chat had asked for.
    web::next_frame().await;
    web::next_frame().await;
    let errors: js_sys::Array = js_sys::Reflect::get(&watch, &"errors".into())
        .unwrap()
        .unchecked_into();
    assert_eq!(errors.length(), 0, "errors: {:?}", errors.to_vec());
    el.remove();
}

/// The element's fake server: the agent list, then whatever comes (404s).
const FAKE: &str = "https://agents.test/api";

fn agents_route() -> serde_json::Value {
    serde_json::json!({"body": {"agents": [{"id": "echo", "name": "Echo"}]}})
}

/// Issue 17: `authorization` is a property, never an attribute (the token stays out of the
/// DOM), and a new value is used by the next request without remounting the chat; theme,
/// locale, placeholder and conversation-id apply to the running chat, keeping the draft.
#[wasm_bindgen_test]
async fn i17_authorization_is_a_property_and_live_changes_keep_the_chat() {
    let stub = web::fetch::FetchStub::install(serde_json::json!([
        agents_route(),
        {"status": 404, "body": {"error": {"code": "NOT_FOUND", "message": "no such conversation"}}}
    ]));
    agent_chat_ui::element::define_agent_chat();
    let el: web_sys::HtmlElement = document()
        .create_element("agent-chat")
        .unwrap()
        .unchecked_into();
    for (k, v) in [
        ("base-url", FAKE),
        ("show-history", "false"),
        ("theme", "dark"),
    ] {
        el.set_attribute(k, v).unwrap();
    }
    js_sys::Reflect::set(&el, &"authorization".into(), &"Bearer one".into()).unwrap();
    el.style().set_property("height", "400px").unwrap();
    document().body().unwrap().append_child(&el).unwrap();
    let root = wait_in_shadow(&el, ".chat-root").await;
    wait_until("the agent list was asked for", &root, || {
        !stub.calls().is_empty()
    })
    .await;
    assert_eq!(
        stub.calls()[0]
            .headers
            .get("authorization")
            .map(String::as_str),
        Some("Bearer one")
    );
    assert!(el.get_attribute("authorization").is_none());
    assert!(!el.outer_html().contains("Bearer"), "no token in the DOM");

    let composer: web_sys::HtmlTextAreaElement =
        wait_in_shadow(&el, "textarea").await.unchecked_into();
    composer.set_value("a draft");
    composer
        .dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    js_sys::Reflect::set(&el, &"authorization".into(), &"Bearer two".into()).unwrap();
    el.set_attribute("theme", "light").unwrap();
    el.set_attribute("locale", "tr").unwrap();
    el.set_attribute("input-placeholder", "Sor bakalım")
        .unwrap();
    el.set_attribute("conversation-id", "conv_9").unwrap();
    wait_until("the conversation was asked for", &root, || {
        stub.calls().len() >= 2
    })
    .await;
    let calls = stub.calls();
    assert!(
        calls[1].url.ends_with("/conversations/conv_9"),
        "{}",
        calls[1].url
    );
    assert_eq!(
        calls[1].headers.get("authorization").map(String::as_str),
        Some("Bearer two"),
        "the refreshed token, on the next request"
    );
    wait_until("Turkish", &root, || {
        root.get_attribute("lang").as_deref() == Some("tr")
    })
    .await;
    let same_root = in_shadow(&el, ".chat-root").unwrap();
    assert!(same_root.is_same_node(Some(&root)), "not remounted");
    assert!(root.class_list().contains("chat-theme-light"));
    let same_composer = in_shadow(&el, "textarea").unwrap();
    assert!(same_composer.is_same_node(Some(&composer)));
    assert_eq!(composer.value(), "a draft", "the draft stayed");
    assert_eq!(
        composer.get_attribute("placeholder").as_deref(),
        Some("Sor bakalım")
    );
    assert!(!el.outer_html().contains("Bearer"));
    el.remove();
    drop(stub);
}

/// Issue 17: a page's `clientTools` is looked up by its own properties: a request for
/// `constructor` (a function every object inherits: `Object`) runs nothing and answers
/// nothing, while the page's own tool runs and answers.
#[wasm_bindgen_test]
async fn i17_client_tools_are_own_properties_only() {
    let el = element(&[("base-url", DEAD), ("show-history", "false")]);
    wait_in_shadow(&el, ".chat-root").await;
    let run = js_sys::Function::new_with_args(
        "el, toolName",
        "el.clientTools = { get_x: () => ({ x: 1 }) };
         el.__answers = [];
         el.resolveClientTool = (id, result) => { el.__answers.push([id, result]); return true; };
         return el._runClientTool({ actionId: 'act_' + toolName, toolName, args: {} })
           .then(() => el.__answers.length);",
    );
    for (tool, answers) in [("constructor", 0.0), ("toString", 0.0), ("get_x", 1.0)] {
        let done = run.call2(&JsValue::NULL, &el, &tool.into()).unwrap();
        let n = wasm_bindgen_futures::JsFuture::from(js_sys::Promise::from(done))
            .await
            .unwrap();
        assert_eq!(n.as_f64(), Some(answers), "{tool}");
    }
    el.remove();
}

/// Types `text` into the element's composer and sends it once the button takes it.
async fn send(
    el: &web_sys::HtmlElement,
    root: &web_sys::HtmlElement,
    textarea: &web_sys::HtmlElement,
    text: &str,
) {
    web::type_text(textarea, text);
    wait_until("the send button is enabled", root, || {
        in_shadow(el, ".chat-input__send").is_some_and(|b| b.get_attribute("disabled").is_none())
    })
    .await;
    in_shadow(el, ".chat-input__send").unwrap().click();
}

/// Issue 17: the feature switches and limits apply to the running chat. Flipped while a reply
/// is on its way, they keep it: the reply arrives in the same chat, the history sidebar comes
/// (and is loaded), the attach button goes, and the next message is sent as one JSON reply.
#[wasm_bindgen_test]
async fn i17_flag_attributes_apply_live_and_keep_the_reply_on_its_way() {
    let api = "https://agents.test/api";
    let stream = [
        r#"data: {"type":"stream.start","timestamp":1,"conversationId":"conv_1","messageId":"m_u"}"#,
        r#"data: {"type":"stream.text","timestamp":2,"text":"Hello"}"#,
        r#"data: {"type":"stream.done","timestamp":3,"conversationId":"conv_1","messageId":"m_a","content":"Hello"}"#,
    ]
    .map(|f| format!("{f}\n\n"));
    let list = serde_json::json!({"conversations": [], "total": 0, "limit": 20, "offset": 0,
                                  "hasMore": false});
    let stub = web::fetch::FetchStub::install(serde_json::json!([
        {"url": "/agents", "body": {"agents": [{"id": "echo", "name": "Echo"}]}},
        {"url": "/conv_1/messages", "hold": true, "chunks": stream},
        {"url": "/conv_1/messages", "body": {
            "message": {"id": "m_u2", "role": "user", "content": "again"},
            "response": {"id": "m_a2", "role": "assistant", "content": "Once more"}}},
        {"url": "POST", "status": 201, "body": {"conversation": {"id": "conv_1", "agentId": "echo"}}},
        {"url": "GET https://agents.test/api/conversations?", "body": list},
        {"url": "GET https://agents.test/api/conversations?", "body": list},
        {"url": "GET https://agents.test/api/conversations?", "body": list}
    ]));
    let el = element(&[("base-url", api), ("show-history", "false")]);
    let root = wait_in_shadow(&el, ".chat-root").await;
    assert!(in_shadow(&el, ".chat-history").is_none());
    assert!(in_shadow(&el, ".chat-input__attach").is_some());
    let textarea = wait_in_shadow(&el, "textarea").await;
    wait_until("the agent is known", &root, || {
        in_shadow(&el, ".chat-header__title")
            .is_some_and(|t| t.text_content().as_deref() == Some("Echo"))
    })
    .await;
    send(&el, &root, &textarea, "hi").await;
    wait_until("the reply is on its way", &root, || stub.held() == 1).await;

    el.set_attribute("show-history", "true").unwrap();
    el.set_attribute("enable-file-upload", "false").unwrap();
    el.set_attribute("streaming", "false").unwrap();
    wait_until("the history is shown and asked for", &root, || {
        in_shadow(&el, ".chat-history").is_some()
            && stub
                .calls()
                .iter()
                .any(|c| c.url.contains("/conversations?"))
    })
    .await;
    wait_until("uploads off: no attach button", &root, || {
        in_shadow(&el, ".chat-input__attach").is_none()
    })
    .await;
    assert!(
        in_shadow(&el, ".chat-root")
            .unwrap()
            .is_same_node(Some(&root)),
        "not remounted"
    );
    stub.release();
    wait_until("the reply arrived in the same chat", &root, || {
        in_shadow(&el, "article[data-message-id=m_a]").is_some()
    })
    .await;
    assert!(in_shadow(&el, ".chat-root")
        .unwrap()
        .is_same_node(Some(&root)));

    // The next message goes out as one JSON reply.
    wait_until("the composer can send", &root, || {
        root.get_attribute("data-state").as_deref() == Some("idle")
    })
    .await;
    send(&el, &root, &textarea, "again").await;
    wait_until("the second reply is drawn", &root, || {
        in_shadow(&el, "article[data-message-id=m_a2]").is_some()
    })
    .await;
    let sends: Vec<serde_json::Value> = stub
        .calls()
        .iter()
        .filter(|c| c.url.ends_with("/conv_1/messages"))
        .map(|c| c.json())
        .collect();
    assert_eq!(sends.len(), 2);
    assert_eq!(sends[0]["stream"], serde_json::json!(true));
    assert_eq!(sends[1]["stream"], serde_json::json!(false));
    el.remove();
    drop(stub);
}

/// Issue 15: `<agent-chat transport="chat-completions">` talks to a Chat Completions server:
/// the one request is `POST {base-url}/chat/completions` with the `model` attribute, and the
/// streamed reply is drawn; with `thread-store="memory"` nothing is written to `localStorage`.
#[wasm_bindgen_test]
async fn i15_the_element_talks_to_a_chat_completions_server() {
    let api = "https://llm.test/element-v1";
    let chunk = serde_json::json!({"choices": [{"delta": {"content": "Hello from the model"}}]});
    let stub = web::fetch::FetchStub::install(serde_json::json!([
        {"url": "/chat/completions", "chunks": [format!("data: {chunk}\n\n"), "data: [DONE]\n\n"]}
    ]));
    let storage = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    let keys_before = storage.length().unwrap();
    let el = element(&[
        ("base-url", api),
        ("transport", "chat-completions"),
        ("model", "tiny-model"),
        ("thread-store", "memory"),
    ]);
    let root = wait_in_shadow(&el, ".chat-root").await;
    let textarea = wait_in_shadow(&el, "textarea").await;
    send(&el, &root, &textarea, "Hi").await;
    wait_until("the model's reply is drawn", &root, || {
        root.text_content()
            .unwrap_or_default()
            .contains("Hello from the model")
    })
    .await;
    let calls = stub.calls();
    assert_eq!(
        calls.len(),
        1,
        "{:?}",
        calls.iter().map(|c| &c.url).collect::<Vec<_>>()
    );
    assert_eq!(calls[0].url, format!("{api}/chat/completions"));
    assert_eq!(calls[0].json()["model"], "tiny-model");
    assert_eq!(
        storage.length().unwrap(),
        keys_before,
        "memory store: nothing kept"
    );
    el.remove();
    drop(stub);
}

/// Issue 15: `transport="responses"` points the element at an OpenAI Responses server: the
/// reply streams from `POST {base-url}/responses`, and the second turn is chained to the first
/// reply by `previous_response_id`.
#[wasm_bindgen_test]
async fn i15_the_element_talks_to_a_responses_server_and_chains_its_turns() {
    let api = "https://llm.test/element-responses";
    let created = serde_json::json!({"type": "response.created", "response": {"id": "resp_el_1"}});
    let delta =
        serde_json::json!({"type": "response.output_text.delta", "delta": "Hello from Responses"});
    let completed = serde_json::json!({"type": "response.completed",
        "response": {"id": "resp_el_1", "status": "completed"}});
    let frames: Vec<String> = [created, delta, completed]
        .iter()
        .map(|e| format!("event: {}\ndata: {e}\n\n", e["type"].as_str().unwrap()))
        .collect();
    let stub = web::fetch::FetchStub::install(serde_json::json!([
        {"url": "/responses", "chunks": frames},
        {"url": "/responses", "chunks": frames}
    ]));
    let el = element(&[
        ("base-url", api),
        ("transport", "responses"),
        ("model", "tiny-model"),
        ("thread-store", "memory"),
    ]);
    let root = wait_in_shadow(&el, ".chat-root").await;
    let textarea = wait_in_shadow(&el, "textarea").await;
    send(&el, &root, &textarea, "Hi").await;
    wait_until("the first reply is drawn", &root, || {
        root.text_content()
            .unwrap_or_default()
            .contains("Hello from Responses")
    })
    .await;
    let textarea = wait_in_shadow(&el, "textarea").await;
    send(&el, &root, &textarea, "Again").await;
    wait_until("the second request is made", &root, || {
        stub.calls().len() == 2
    })
    .await;
    let calls = stub.calls();
    assert_eq!(calls[0].url, format!("{api}/responses"));
    assert_eq!(calls[0].json()["model"], "tiny-model");
    assert!(calls[0].json().get("previous_response_id").is_none());
    assert_eq!(calls[1].json()["previous_response_id"], "resp_el_1");
    assert_eq!(
        calls[1].json()["input"],
        serde_json::json!([{"role": "user", "content": "Again"}])
    );
    el.remove();
    drop(stub);
}

/// The page's own thread store for the test below: one kept conversation, one entry that is
/// not a thread; `saved` holds what the chat saves.
const HOST_STORE_JS: &str = r#"(() => {
  const at = "2026-11-30T10:00:00.000Z";
  const store = { saved: {}, deleted: [] };
  store.load = () => Promise.resolve([
    { conversation: { id: "conv_kept", agentId: "tiny-model", title: "Kept chat",
                      metadata: {}, createdAt: at, updatedAt: at },
      messages: [{ id: "m_1", conversationId: "conv_kept", role: "user",
                   content: "Remember me", createdAt: at, updatedAt: at }] },
    "this is not a thread"
  ]);
  store.save = (thread) => new Promise((done) => {
    store.saved[thread.conversation.id] = thread;
    done();
  });
  store.delete = (id) => { store.deleted.push(id); };
  return store;
})()"#;

/// Issue 15: the element's `threadStore` property is the page's own store of conversations:
/// its threads are read at mount (the chat opens one of them), an entry that is not a thread
/// is skipped and reported, and each turn is saved back through `save` (a promise).
#[wasm_bindgen_test]
async fn i15_the_elements_thread_store_object_restores_keeps_and_reports() {
    let api = "https://llm.test/element-threads";
    let chunk = serde_json::json!({"choices": [{"delta": {"content": "Noted."}}]});
    let stub = web::fetch::FetchStub::install(serde_json::json!([
        {"url": "/chat/completions", "chunks": [format!("data: {chunk}\n\n"), "data: [DONE]\n\n"]}
    ]));
    let store = js_sys::eval(HOST_STORE_JS).unwrap();
    agent_chat_ui::element::define_agent_chat();
    let el: web_sys::HtmlElement = document()
        .create_element("agent-chat")
        .unwrap()
        .unchecked_into();
    for (k, v) in [
        ("base-url", api),
        ("transport", "chat-completions"),
        ("model", "tiny-model"),
        ("conversation-id", "conv_kept"),
        ("lang", "en"),
    ] {
        el.set_attribute(k, v).unwrap();
    }
    js_sys::Reflect::set(&el, &"threadStore".into(), &store).unwrap();
    el.style().set_property("height", "400px").unwrap();
    document().body().unwrap().append_child(&el).unwrap();
    let root = wait_in_shadow(&el, ".chat-root").await;
    wait_until("the kept conversation is open", &root, || {
        root.text_content()
            .unwrap_or_default()
            .contains("Remember me")
    })
    .await;
    wait_until("the unreadable entry is reported", &root, || {
        in_shadow(&el, ".chat-error__text").is_some_and(|e| {
            e.text_content()
                .unwrap_or_default()
                .contains("could not be read")
        })
    })
    .await;
    let textarea = wait_in_shadow(&el, "textarea").await;
    send(&el, &root, &textarea, "And this").await;
    let saved_messages = || {
        let saved = js_sys::Reflect::get(&store, &"saved".into()).unwrap();
        let thread = js_sys::Reflect::get(&saved, &"conv_kept".into()).unwrap();
        if thread.is_undefined() {
            return 0;
        }
        let messages = js_sys::Reflect::get(&thread, &"messages".into()).unwrap();
        js_sys::Array::from(&messages).length()
    };
    wait_until("the turn is saved through the page's store", &root, || {
        saved_messages() == 3
    })
    .await;
    // The save can land before the reply is drawn: wait for the drawing too.
    wait_until("the reply is drawn", &root, || {
        root.text_content().unwrap_or_default().contains("Noted.")
    })
    .await;
    let calls = stub.calls();
    assert_eq!(calls.len(), 1);
    // The whole history went to the model: the kept message first.
    assert_eq!(calls[0].json()["messages"][0]["content"], "Remember me");
    el.remove();
    drop(stub);
}

/// Issue 35 (seed 000 `actionExpiryRefreshMs`): the `action-expiry-refresh-ms` attribute sets
/// how long after a card expires here the conversation is fetched again (not the default
/// 1.5 s).
#[wasm_bindgen_test]
async fn issue35_action_expiry_refresh_ms_attribute_sets_when_the_conversation_is_fetched_again() {
    let expires = js_sys::Date::now() as u64 + 400;
    let conv = serde_json::json!({"url": "GET https://agents.test/api/conversations/conv_1",
        "body": {"conversation": {"id": "conv_1", "agentId": "echo"},
                 "messages": [{"id": "m_a", "role": "assistant", "content": "Approve?"}],
                 "pendingActions": [{"id": "act_1", "type": "tool_approval",
                                     "toolName": "restart", "args": {}, "expiresAt": expires}]}});
    let stub = web::fetch::FetchStub::install(serde_json::json!([agents_route(), conv, conv]));
    let el = element(&[
        ("base-url", "https://agents.test/api"),
        ("conversation-id", "conv_1"),
        ("show-history", "false"),
        ("action-expiry-refresh-ms", "100"),
    ]);
    wait_in_shadow(&el, ".chat-card[data-action-id=act_1][data-state=expired]").await;
    let expired_at = js_sys::Date::now();
    let fetched = || {
        stub.calls()
            .iter()
            .filter(|c| c.method == "GET" && c.url.ends_with("/conversations/conv_1"))
            .count()
    };
    wait_until(
        "the conversation is fetched again",
        &document().body().unwrap(),
        || fetched() == 2,
    )
    .await;
    let waited = js_sys::Date::now() - expired_at;
    assert!(
        waited < 1_000.0,
        "fetched again {waited:.0} ms after the expiry, not about 100 ms"
    );
    el.remove();
}
