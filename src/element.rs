//! `<agent-chat>`: the chat as a custom element for pages that are not written in Rust.
//!
//! Attributes map to `Chat` props (`base-url`, `agent-id`, `conversation-id`, `theme`, `lang`,
//! `authorization`, `show-history`, `streaming`); callbacks leave as DOM `CustomEvent`s that
//! bubble out of the shadow root (`agent-chat:message-sent`, `agent-chat:message-received`,
//! `agent-chat:error`, `agent-chat:conversation-created`, `agent-chat:conversation-change`,
//! `agent-chat:agent-change`), with JSON-shaped `detail`. Styles live in the shadow root.

use std::cell::RefCell;
use std::collections::HashMap;

use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_bindgen::prelude::*;

use crate::ui::{Chat, Theme};

/// The tag name registered by [`define_agent_chat`].
pub const TAG: &str = "agent-chat";

#[wasm_bindgen(inline_js = r#"
export function define_element(tag, attrs, mount, unmount) {
  if (customElements.get(tag)) return;
  customElements.define(tag, class extends HTMLElement {
    static get observedAttributes() { return attrs; }
    connectedCallback() { this._remount(); }
    disconnectedCallback() {
      if (this._handle !== undefined) { unmount(this._handle); this._handle = undefined; }
    }
    attributeChangedCallback() { if (this.isConnected) this._remount(); }
    _remount() {
      if (this._handle !== undefined) { unmount(this._handle); this._handle = undefined; }
      const root = this.shadowRoot || this.attachShadow({ mode: "open" });
      root.replaceChildren();
      const host = document.createElement("div");
      host.style.height = "100%";
      root.appendChild(host);
      this._handle = mount(this, host);
    }
  });
}
"#)]
extern "C" {
    fn define_element(
        tag: &str,
        attrs: js_sys::Array,
        mount: &MountFn,
        unmount: &Closure<dyn Fn(u32)>,
    );
}

/// `(host element, mount point in its shadow root) -> handle id`.
type MountFn = Closure<dyn Fn(web_sys::HtmlElement, web_sys::HtmlElement) -> u32>;

/// Attributes the element watches; a change remounts the chat with the new props.
pub const OBSERVED_ATTRIBUTES: &[&str] = &[
    "base-url",
    "agent-id",
    "conversation-id",
    "theme",
    "lang",
    "authorization",
    "show-history",
    "streaming",
];

/// Live chats by handle id; dropping a handle unmounts its chat.
#[derive(Default)]
struct Mounted {
    last_id: u32,
    handles: HashMap<u32, Box<dyn std::any::Any>>,
}

thread_local! {
    static MOUNTED: RefCell<Mounted> = RefCell::new(Mounted::default());
}

/// Registers `<agent-chat>` (idempotent). Call once after the wasm module is initialised.
#[wasm_bindgen]
pub fn define_agent_chat() {
    let attrs: js_sys::Array = OBSERVED_ATTRIBUTES
        .iter()
        .map(|a| JsValue::from_str(a))
        .collect();
    let mount = MountFn::new(mount_into);
    let unmount = Closure::<dyn Fn(u32)>::new(|id: u32| {
        MOUNTED.with(|m| m.borrow_mut().handles.remove(&id));
    });
    define_element(TAG, attrs, &mount, &unmount);
    // The registration lives as long as the page: the one place closures are leaked on purpose.
    mount.forget();
    unmount.forget();
}

fn attr(el: &web_sys::HtmlElement, name: &str) -> Option<String> {
    el.get_attribute(name).filter(|v| !v.trim().is_empty())
}

fn flag(el: &web_sys::HtmlElement, name: &str, default: bool) -> bool {
    match el.get_attribute(name) {
        Some(v) => !matches!(v.trim(), "false" | "0" | "off" | "no"),
        None => default,
    }
}

fn mount_into(host: web_sys::HtmlElement, target: web_sys::HtmlElement) -> u32 {
    let base_url = attr(&host, "base-url").unwrap_or_else(|| {
        let origin = web_sys::window()
            .and_then(|w| w.location().origin().ok())
            .unwrap_or_default();
        format!("{origin}{}", crate::page::DEFAULT_BASE_PATH)
    });
    let agent_id = attr(&host, "agent-id");
    let conversation_id = attr(&host, "conversation-id");
    let theme = attr(&host, "theme")
        .map(|t| Theme::parse(&t))
        .unwrap_or_default();
    let lang =
        attr(&host, "lang").or_else(|| web_sys::window().and_then(|w| w.navigator().language()));
    let authorization = attr(&host, "authorization");
    let show_history = flag(&host, "show-history", true);
    let streaming = flag(&host, "streaming", true);
    let events = EventSink(SendWrapper::new(host.clone()));

    let handle = mount_to(target, move || {
        let events = events.clone();
        view! {
            <Chat
                base_url=base_url.clone()
                agent_id=agent_id.clone()
                conversation_id=conversation_id.clone()
                authorization=authorization.clone()
                locale=lang.clone()
                theme=theme
                show_history=show_history
                streaming=streaming
                on_message_sent=events.callback("message-sent")
                on_message_received=events.callback("message-received")
                on_conversation_created=events.callback("conversation-created")
                on_conversation_change=events.callback("conversation-change")
                on_agent_change=events.callback("agent-change")
                on_error=events.error_callback()
            />
        }
    });
    MOUNTED.with(|m| {
        let mut m = m.borrow_mut();
        m.last_id += 1;
        let id = m.last_id;
        m.handles.insert(id, Box::new(handle));
        id
    })
}

/// Dispatches `agent-chat:<name>` events on the host element. `SendWrapper` because
/// `Callback` wants `Send`, and custom elements only live on the browser's main thread.
#[derive(Clone)]
struct EventSink(SendWrapper<web_sys::HtmlElement>);

impl EventSink {
    fn dispatch(&self, name: &str, detail: JsValue) {
        let init = web_sys::CustomEventInit::new();
        init.set_bubbles(true);
        init.set_composed(true);
        init.set_detail(&detail);
        if let Ok(ev) =
            web_sys::CustomEvent::new_with_event_init_dict(&format!("agent-chat:{name}"), &init)
        {
            let _ = self.0.dispatch_event(&ev);
        }
    }

    fn callback<T: serde::Serialize + 'static>(&self, name: &'static str) -> Callback<T> {
        let sink = self.clone();
        Callback::new(move |value: T| {
            let detail = serde_json::to_string(&value)
                .ok()
                .and_then(|s| js_sys::JSON::parse(&s).ok())
                .unwrap_or(JsValue::NULL);
            sink.dispatch(name, detail);
        })
    }

    fn error_callback(&self) -> Callback<crate::core::ChatError> {
        let sink = self.clone();
        Callback::new(move |err: crate::core::ChatError| {
            let detail = serde_json::json!({
                "code": err.code(),
                "status": err.status(),
                "serverMessage": err.server_message(),
                "message": err.to_string(),
            });
            let detail = js_sys::JSON::parse(&detail.to_string()).unwrap_or(JsValue::NULL);
            sink.dispatch("error", detail);
        })
    }
}

impl std::fmt::Debug for EventSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("EventSink")
    }
}
