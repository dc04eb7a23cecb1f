//! `<agent-chat>`: the chat as a custom element for pages that are not written in Rust.
//!
//! - **Attributes** map to `Chat` props ([`OBSERVED_ATTRIBUTES`]). Every one applies to the
//!   running chat (a reply keeps streaming, the draft and the open conversation stay), except
//!   `base-url`, `transport`, `model`, `thread-store` (another backend) and `default-locale`
//!   (the language fallback, read at mount),
//!   which remount it with the new props, keeping the open conversation, at most once per
//!   script turn; `default-history-open` only sets the drawer's state at mount. The language
//!   is the `locale` (or
//!   `lang`) attribute, else the host page's `?lang=`, else `default-locale`, else the browser's
//!   language (the same order as `<Chat/>`).
//! - **Properties** ([`LIVE_PROPERTIES`]): `authorization` (a property only, so the token is
//!   never in the DOM; a new value is used from the next request on), `headers`
//!   (`{name: value}`, live too), `themeColors` (React keys or `--chat-*` names) and
//!   `customMessages` (`{id or React key: text}`), which remount, `threadStore` (the page's
//!   own store of conversations for a backend without them: `{load, save, delete}`, see
//!   `io::js_threads`; remounts) and `clientTools`
//!   (`{toolName: (args, request) => result | Promise<result>}`, own properties only).
//! - **Events**: `CustomEvent`s named `agent-chat:<name>` that bubble and cross the shadow
//!   boundary (`composed`), with JSON `detail`: `message-sent`, `message-received`, `error`,
//!   `conversation-created`, `conversation-change`, `conversation-selected`, `agent-change`,
//!   `action-required`, `action-resolved`, `client-tool`, and `attention` `{pending, kinds,
//!   expiresAt}` whenever the number of cards waiting for this person changes (the
//!   `attention-title` attribute prefixes the document title with "(N)" while the tab is
//!   hidden). The prefix keeps them apart from the DOM's own `error`.
//! - **`client_tool`**: the element emits `agent-chat:client-tool` with
//!   `{actionId, toolName, args}`; a handler in `clientTools` is run automatically, or the page
//!   answers with `element.resolveClientTool(actionId, result, error?)`.
//! - Shadow root with the stylesheet injected once per instance; tokens are declared on `:host`
//!   so `agent-chat { --chat-accent-primary: … }` on the page themes it. The main regions carry
//!   `part` names ([`PARTS`]) for `agent-chat::part(composer) { … }`, and the `styles` property
//!   (a CSS string, or `CSSStyleSheet`s to adopt) reaches what neither can. Instances are
//!   independent; removing the element unmounts its chat (timers cleared, streams aborted).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_bindgen::prelude::*;

use crate::core::first_draw::FirstDraw;
use crate::core::{ComposerMode, PendingAction, Resolution};
use crate::store::ChatStore;
use crate::ui::style::InShadowRoot;
use crate::ui::{CardOptions, Chat, ChatCallbacks, Theme, UploadOptions};

/// The tag name registered by [`define_agent_chat`].
pub const TAG: &str = "agent-chat";

#[wasm_bindgen(inline_js = r#"
export function define_element(tag, attrs, props, mount, unmount, resolveTool, update) {
  if (customElements.get(tag)) return;
  // A property the running chat takes as it is (`update` says whether it could), or else a
  // remount with it.
  const property = (proto, name) => Object.defineProperty(proto, name, {
    get() { return this["_" + name]; },
    set(v) {
      this["_" + name] = v;
      if (name === "styles") this._applyStyles(); else this._apply(name);
    },
  });
  class AgentChat extends HTMLElement {
    static get observedAttributes() { return attrs; }
    constructor() {
      super();
      this.addEventListener("agent-chat:conversation-change", (e) => {
        this._conversationId = e.detail == null ? null : String(e.detail);
      });
      this.addEventListener("agent-chat:client-tool", (e) => { this._runClientTool(e.detail); });
    }
    connectedCallback() { this._remount(); }
    disconnectedCallback() { this._unmount(); }
    attributeChangedCallback(name, oldValue, newValue) {
      if (oldValue === newValue) return;
      if (name === "conversation-id") this._conversationId = undefined;
      this._apply(name);
    }
    _apply(name) {
      if (this._handle !== undefined && update(this._handle, this, name)) return;
      this._scheduleRemount();
    }
    // Changes made one after another (a script setting three attributes) remount once, after
    // the script's synchronous code. Before the first mount there is nothing to remount: an
    // element upgraded from the page's HTML gets a call per attribute, then connectedCallback.
    _scheduleRemount() {
      if (this._handle === undefined || this._remountQueued) return;
      this._remountQueued = true;
      queueMicrotask(() => {
        this._remountQueued = false;
        if (this.isConnected && this._handle !== undefined) this._remount();
      });
    }
    resolveClientTool(actionId, result, error) {
      if (this._handle === undefined) return false;
      const json = result === undefined ? undefined : JSON.stringify(result);
      return resolveTool(this._handle, String(actionId), json, error == null ? undefined : String(error));
    }
    async _runClientTool(detail) {
      // Own properties only: a tool named "constructor" or "toString" is not a function of
      // Object.prototype.
      const tools = this.clientTools;
      const tool = tools && detail && Object.prototype.hasOwnProperty.call(tools, detail.toolName)
        ? tools[detail.toolName] : undefined;
      if (typeof tool !== "function") return;
      try {
        const result = await tool(detail.args, detail);
        this.resolveClientTool(detail.actionId, result === undefined ? null : result);
      } catch (err) {
        this.resolveClientTool(detail.actionId, undefined, (err && err.message) || String(err));
      }
    }
    _unmount() {
      if (this._handle !== undefined) { unmount(this._handle); this._handle = undefined; }
    }
    _remount() {
      this._unmount();
      // The composer the element build drew before the wasm arrived: taken over once the
      // chat is drawn (what was typed, the caret, the focus, a message waiting to be sent).
      const shell = this._agentChatShell;
      const adopt = shell ? shell.take() : undefined;
      const root = this.shadowRoot || this.attachShadow({ mode: "open" });
      root.replaceChildren();
      const host = document.createElement("div");
      host.style.height = "100%";
      // Behind the shell the chat draws its first screen in stages (D96).
      host._agentChatStaged = !!adopt;
      root.appendChild(host);
      this._handle = mount(this, host);
      this._applyStyles();
      if (adopt) adopt(root);
    }
    // The page's own CSS for the shadow root: a string in a <style> after the chat's (so it
    // wins at equal specificity), or constructed style sheets, adopted.
    _applyStyles() {
      const root = this.shadowRoot;
      if (!root) return;
      const v = this._styles;
      const sheets = typeof CSSStyleSheet === "undefined" ? []
        : (Array.isArray(v) ? v : [v]).filter((s) => s instanceof CSSStyleSheet);
      root.adoptedStyleSheets = sheets;
      let el = root.querySelector("style[data-agent-chat-host]");
      if (typeof v === "string") {
        if (!el) {
          el = document.createElement("style");
          el.setAttribute("data-agent-chat-host", "");
          root.appendChild(el);
        }
        el.textContent = v;
      } else if (el) {
        el.remove();
      }
    }
  }
  for (const name of props) property(AgentChat.prototype, name);
  customElements.define(tag, AgentChat);
}
"#)]
extern "C" {
    fn define_element(
        tag: &str,
        attrs: js_sys::Array,
        props: js_sys::Array,
        mount: &MountFn,
        unmount: &Closure<dyn Fn(u32)>,
        resolve_tool: &ResolveToolFn,
        update: &UpdateFn,
    );
}

/// `(handle, host element, attribute or property name) -> applied without a remount`.
type UpdateFn = Closure<dyn Fn(u32, web_sys::HtmlElement, String) -> bool>;

/// `(host element, mount point in its shadow root) -> handle id`.
type MountFn = Closure<dyn Fn(web_sys::HtmlElement, web_sys::HtmlElement) -> u32>;
/// `(handle, action id, result as JSON text, error) -> answered`.
type ResolveToolFn = Closure<dyn Fn(u32, String, Option<String>, Option<String>) -> bool>;

/// Attributes the element watches. A change applies live (`update_live`) or, for the few
/// that cannot, remounts the chat with the new props.
pub const OBSERVED_ATTRIBUTES: &[&str] = &[
    "base-url",
    "transport",
    "model",
    "thread-store",
    "action-url",
    "resend-history",
    "agent-card-url",
    "agent-id",
    "conversation-id",
    "theme",
    "locale",
    "lang",
    "default-locale",
    "show-history",
    "default-history-open",
    "enable-message-search",
    "enable-citations",
    "streaming",
    "input-placeholder",
    "allow-argument-edit",
    "enable-tool-approvals",
    "enable-questions",
    "expiry-warning-seconds",
    "action-expiry-refresh-ms",
    "pending-action-composer-mode",
    "enable-file-upload",
    "allowed-file-types",
    "max-file-size",
    "max-files",
    "attention-title",
];

/// One mounted chat: its Leptos handle (dropping it unmounts), its store and the props it
/// takes without a remount.
struct Instance {
    _handle: Box<dyn std::any::Any>,
    store: Option<ChatStore>,
    live: Option<Live>,
}

/// The props a running chat follows: a change of one of these keeps the stream,
/// the draft and the open conversation. Anything else (a new server or agent, a flag read
/// once) remounts.
#[derive(Clone, Copy)]
struct Live {
    theme: RwSignal<Theme>,
    locale: RwSignal<Option<String>>,
    placeholder: RwSignal<Option<String>>,
    agent: RwSignal<Option<String>>,
    conversation: RwSignal<Option<String>>,
    authorization: RwSignal<Option<String>>,
    headers: RwSignal<Vec<(String, String)>>,
    flags: RwSignal<Flags>,
}

/// The attributes that switch features or set limits, as the host says now; each one reaches
/// `Chat` through its own memo, so changing one does not disturb what reads another.
#[derive(Clone, Debug, PartialEq)]
struct Flags {
    show_history: bool,
    search: bool,
    citations: bool,
    streaming: bool,
    allow_edit: bool,
    approvals: bool,
    questions: bool,
    warning: u64,
    mode: ComposerMode,
    uploads: bool,
    allowed_types: Vec<String>,
    max_file_size: u64,
    max_files: usize,
    attention_title: bool,
}

/// The attributes [`Flags`] is read from.
const FLAG_ATTRIBUTES: &[&str] = &[
    "show-history",
    "enable-message-search",
    "enable-citations",
    "streaming",
    "allow-argument-edit",
    "enable-tool-approvals",
    "enable-questions",
    "expiry-warning-seconds",
    "pending-action-composer-mode",
    "enable-file-upload",
    "allowed-file-types",
    "max-file-size",
    "max-files",
    "attention-title",
];

impl Flags {
    fn of(host: &web_sys::HtmlElement) -> Flags {
        Flags {
            show_history: flag(host, "show-history", true),
            search: flag(host, "enable-message-search", false),
            citations: flag(host, "enable-citations", true),
            streaming: flag(host, "streaming", true),
            allow_edit: flag(host, "allow-argument-edit", false),
            approvals: flag(host, "enable-tool-approvals", true),
            questions: flag(host, "enable-questions", true),
            warning: number(host, "expiry-warning-seconds").unwrap_or(600),
            mode: attr(host, "pending-action-composer-mode")
                .and_then(|m| ComposerMode::parse(&m))
                .unwrap_or_default(),
            uploads: flag(host, "enable-file-upload", true),
            allowed_types: attr(host, "allowed-file-types")
                .map(|v| {
                    v.split(',')
                        .map(str::trim)
                        .filter(|t| !t.is_empty())
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default(),
            max_file_size: number(host, "max-file-size")
                .unwrap_or(crate::core::files::DEFAULT_MAX_FILE_SIZE),
            max_files: number(host, "max-files").unwrap_or(crate::core::files::DEFAULT_MAX_FILES),
            attention_title: flag(host, "attention-title", false),
        }
    }
}

/// An attribute read as a number; unset or not a number is `None`.
fn number<T: std::str::FromStr>(host: &web_sys::HtmlElement, name: &str) -> Option<T> {
    attr(host, name).and_then(|v| v.trim().parse().ok())
}

/// One field of the flags as a signal that changes only when that field does.
fn field<T: Clone + PartialEq + Send + Sync + 'static>(
    flags: RwSignal<Flags>,
    read: fn(&Flags) -> T,
) -> Signal<T> {
    Memo::new(move |_| flags.with(read)).into()
}

/// Applies a changed attribute or property to the chat `id` if it can follow it live.
fn update_live(id: u32, host: web_sys::HtmlElement, name: String) -> bool {
    let Some(live) = MOUNTED.with(|m| m.borrow().instances.get(&id).and_then(|i| i.live)) else {
        return false;
    };
    match name.as_str() {
        "theme" => live.theme.set(theme_of(&host)),
        // Back to no locale at all: the page's and browser's choice again, read at mount.
        "locale" | "lang" => match locale_of(&host) {
            Some(tag) => live.locale.set(Some(tag)),
            None => return false,
        },
        "input-placeholder" => live.placeholder.set(attr(&host, "input-placeholder")),
        "agent-id" => live.agent.set(attr(&host, "agent-id")),
        "conversation-id" => live.conversation.set(attr(&host, "conversation-id")),
        // The drawer's starting state: once mounted, the drawer is the person's.
        "default-history-open" => {}
        name if FLAG_ATTRIBUTES.contains(&name) => live.flags.set(Flags::of(&host)),
        "authorization" => live.authorization.set(string_prop(&host, "authorization")),
        "headers" => live.headers.set(object_prop(&host, "headers")),
        _ => return false,
    }
    true
}

/// Properties of the element (set as `element.name = value`). `authorization` is one rather
/// than an attribute, so a token is never in the DOM, `outerHTML` or the inspector.
pub const LIVE_PROPERTIES: &[&str] = &[
    "authorization",
    "headers",
    "themeColors",
    "customMessages",
    "styles",
    "threadStore",
];

/// The events the element dispatches, as `agent-chat:<name>`.
pub const EVENTS: &[&str] = &[
    "message-sent",
    "message-received",
    "error",
    "conversation-created",
    "conversation-change",
    "conversation-selected",
    "agent-change",
    "action-required",
    "action-resolved",
    "client-tool",
    "attention",
];

/// The `part` names of the chat's regions, for `agent-chat::part(name)` in page CSS.
pub const PARTS: &[&str] = &[
    "header",
    "history",
    "message-list",
    "message",
    "composer",
    "send-button",
    "card",
    "card-actions",
];

fn theme_of(host: &web_sys::HtmlElement) -> Theme {
    attr(host, "theme")
        .map(|t| Theme::parse(&t))
        .unwrap_or_default()
}

fn locale_of(host: &web_sys::HtmlElement) -> Option<String> {
    attr(host, "locale").or_else(|| attr(host, "lang"))
}

/// A string property of the host (`_name`, what the setter stored); empty counts as unset.
fn string_prop(el: &web_sys::HtmlElement, name: &str) -> Option<String> {
    js_sys::Reflect::get(el, &JsValue::from_str(&format!("_{name}")))
        .ok()
        .and_then(|v| v.as_string())
        .filter(|v| !v.trim().is_empty())
}

/// Live chats by handle id.
#[derive(Default)]
struct Mounted {
    last_id: u32,
    instances: HashMap<u32, Instance>,
}

thread_local! {
    static MOUNTED: RefCell<Mounted> = RefCell::new(Mounted::default());
}

/// Registers `<agent-chat>` (idempotent). The element build calls it as soon as the module is
/// initialised; a Rust host may call it itself.
#[wasm_bindgen]
pub fn define_agent_chat() {
    let attrs: js_sys::Array = OBSERVED_ATTRIBUTES
        .iter()
        .map(|a| JsValue::from_str(a))
        .collect();
    let mount = MountFn::new(mount_into);
    let unmount = Closure::<dyn Fn(u32)>::new(|id: u32| {
        // Take it out first: dropping the handle runs cleanups, which must not find the map
        // borrowed.
        let gone = MOUNTED.with(|m| m.borrow_mut().instances.remove(&id));
        drop(gone);
    });
    let resolve_tool = ResolveToolFn::new(resolve_client_tool);
    let update = UpdateFn::new(update_live);
    let props: js_sys::Array = LIVE_PROPERTIES
        .iter()
        .map(|a| JsValue::from_str(a))
        .collect();
    define_element(TAG, attrs, props, &mount, &unmount, &resolve_tool, &update);
    // The registration lives as long as the page: the one place closures are leaked on purpose.
    mount.forget();
    unmount.forget();
    resolve_tool.forget();
    update.forget();
}

fn resolve_client_tool(
    id: u32,
    action_id: String,
    result: Option<String>,
    error: Option<String>,
) -> bool {
    let Some(store) = MOUNTED.with(|m| m.borrow().instances.get(&id).and_then(|i| i.store)) else {
        return false;
    };
    let outcome = match error {
        Some(e) => Err(e),
        None => Ok(result
            .and_then(|r| serde_json::from_str(&r).ok())
            .unwrap_or(serde_json::Value::Null)),
    };
    store.resolve_client_tool(action_id, outcome);
    true
}

fn attr(el: &web_sys::HtmlElement, name: &str) -> Option<String> {
    el.get_attribute(name).filter(|v| !v.trim().is_empty())
}

/// The session options of the attributes, by their one reader (read at mount).
fn start_options(el: &web_sys::HtmlElement) -> crate::core::StartOptions {
    let pairs: Vec<(&str, String)> = crate::core::session::start_options::START_OPTION_NAMES
        .iter()
        .filter_map(|(name, _)| Some((*name, el.get_attribute(name)?)))
        .collect();
    crate::core::StartOptions::from_pairs(pairs.iter().map(|(n, v)| (*n, v.as_str())))
}

/// The transport options of the attributes, by the options' one reader (a value it refuses
/// leaves the default).
fn transport_options(el: &web_sys::HtmlElement) -> crate::core::transport::TransportOptions {
    let names = crate::core::transport::options::OPTION_NAMES;
    let pairs: Vec<(&str, String)> = names
        .iter()
        .filter_map(|(name, _)| Some((*name, el.get_attribute(name)?)))
        .collect();
    let pairs = pairs.iter().map(|(name, value)| (*name, value.as_str()));
    crate::core::transport::TransportOptions::from_pairs(pairs).0
}

fn flag(el: &web_sys::HtmlElement, name: &str, default: bool) -> bool {
    match el.get_attribute(name) {
        Some(v) => !matches!(v.trim(), "false" | "0" | "off" | "no"),
        None => default,
    }
}

/// A JS object property of the host as `(key, string value)` pairs (non-strings skipped).
fn object_prop(el: &web_sys::HtmlElement, name: &str) -> Vec<(String, String)> {
    let Ok(value) = js_sys::Reflect::get(el, &JsValue::from_str(&format!("_{name}"))) else {
        return Vec::new();
    };
    if !value.is_object() {
        return Vec::new();
    }
    js_sys::Object::entries(value.unchecked_ref())
        .iter()
        .filter_map(|pair| {
            let pair: js_sys::Array = pair.unchecked_into();
            Some((pair.get(0).as_string()?, pair.get(1).as_string()?))
        })
        .collect()
}

fn mount_into(host: web_sys::HtmlElement, target: web_sys::HtmlElement) -> u32 {
    let base_url = attr(&host, "base-url").unwrap_or_else(|| {
        let origin = web_sys::window()
            .and_then(|w| w.location().origin().ok())
            .unwrap_or_default();
        format!("{origin}{}", crate::page::DEFAULT_BASE_PATH)
    });
    let agent_id = attr(&host, "agent-id");
    // The backend (issue 15): read at mount, like the server.
    let transport = transport_options(&host);
    let start = start_options(&host);
    // The page's own thread store (issue 15): read at mount; a new object remounts.
    let thread_storage = js_sys::Reflect::get(&host, &JsValue::from_str("_threadStore"))
        .ok()
        .and_then(crate::io::js_threads::JsThreads::new)
        .map(crate::io::threads::HostThreads::new);
    // The conversation the chat had open before a remount wins over the attribute.
    let live_conversation = js_sys::Reflect::get(&host, &JsValue::from_str("_conversationId"))
        .ok()
        .filter(|v| !v.is_undefined());
    let conversation_id = match live_conversation {
        Some(v) => v.as_string(),
        None => attr(&host, "conversation-id"),
    };
    let theme = theme_of(&host);
    // Language, as `Chat` decides it (D30, D45): the `locale` (or `lang`) attribute controls
    // it; without one the host page's `?lang=`, then `default-locale`, then the browser's
    // language, then English; each step counts only if it names a shipped locale.
    let lang = locale_of(&host);
    let default_lang = attr(&host, "default-locale")
        .filter(|tag| crate::core::match_locale(tag).is_some())
        .or_else(|| web_sys::window().and_then(|w| w.navigator().language()));
    let authorization = string_prop(&host, "authorization");
    if host.has_attribute("authorization") {
        web_sys::console::warn_1(&JsValue::from_str(
            "<agent-chat>: the authorization attribute is ignored (it would put the token in \
             the DOM); set the authorization property instead",
        ));
    }
    let placeholder = attr(&host, "input-placeholder");
    let history_open = flag(&host, "default-history-open", false);
    let flags = Flags::of(&host);
    let headers = object_prop(&host, "headers");
    let theme_colors = object_prop(&host, "themeColors");
    let custom_messages: HashMap<String, String> =
        object_prop(&host, "customMessages").into_iter().collect();
    let events = EventSink(SendWrapper::new(host.clone()));
    let store_slot: Rc<Cell<Option<ChatStore>>> = Rc::new(Cell::new(None));
    let on_ready = {
        let slot = SendWrapper::new(store_slot.clone());
        Callback::new(move |store: ChatStore| slot.set(Some(store)))
    };

    let live_slot: Rc<Cell<Option<Live>>> = Rc::new(Cell::new(None));
    let live_out = live_slot.clone();
    let first_draw = if js_sys::Reflect::get(&target, &"_agentChatStaged".into())
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
    {
        FirstDraw::Staged
    } else {
        FirstDraw::AtOnce
    };
    let handle = mount_to(target, move || {
        provide_context(InShadowRoot);
        provide_context(first_draw);
        let events = events.clone();
        // Owned by the mount: gone with it.
        let live = Live {
            theme: RwSignal::new(theme),
            locale: RwSignal::new(lang.clone()),
            placeholder: RwSignal::new(placeholder.clone()),
            agent: RwSignal::new(agent_id.clone()),
            conversation: RwSignal::new(conversation_id.clone()),
            authorization: RwSignal::new(authorization.clone()),
            headers: RwSignal::new(headers.clone()),
            flags: RwSignal::new(flags.clone()),
        };
        let f = live.flags;
        live_out.set(Some(live));
        view! {
            <Chat
                base_url=base_url.clone()
                transport=transport.clone()
                thread_storage=thread_storage.clone()
                agent_id=live.agent
                conversation_id=live.conversation
                authorization=live.authorization
                headers=live.headers
                locale=live.locale
                default_locale=default_lang.clone()
                custom_messages=custom_messages.clone()
                theme=live.theme
                theme_colors=theme_colors.clone()
                input_placeholder=live.placeholder
                show_history=field(f, |f| f.show_history)
                default_history_open=history_open
                enable_message_search=field(f, |f| f.search)
                enable_citations=field(f, |f| f.citations)
                streaming=field(f, |f| f.streaming)
                attention_title=field(f, |f| f.attention_title)
                cards=CardOptions {
                    composer_mode: field(f, |f| f.mode),
                    enable_tool_approvals: field(f, |f| f.approvals),
                    enable_questions: field(f, |f| f.questions),
                    allow_argument_edit: field(f, |f| f.allow_edit),
                    expiry_warning_seconds: field(f, |f| f.warning),
                    action_expiry_refresh_ms: start.action_expiry_refresh_ms,
                    read_only_args: Vec::new(),
                }
                uploads=UploadOptions {
                    enabled: field(f, |f| f.uploads),
                    allowed_types: field(f, |f| f.allowed_types.clone()),
                    max_file_size: field(f, |f| f.max_file_size),
                    max_files: field(f, |f| f.max_files),
                }
                callbacks=ChatCallbacks {
                    on_message_sent: Some(events.callback("message-sent")),
                    on_message_received: Some(events.callback("message-received")),
                    on_conversation_created: Some(events.callback("conversation-created")),
                    on_conversation_change: Some(events.callback("conversation-change")),
                    on_conversation_selected: Some(events.callback("conversation-selected")),
                    on_agent_change: Some(events.callback("agent-change")),
                    on_action_required: Some(events.action_callback("action-required")),
                    on_action_resolved: Some(events.resolved_callback()),
                    on_client_tool: Some(events.client_tool_callback()),
                    on_error: Some(events.error_callback()),
                    on_attention: Some(events.callback("attention")),
                    on_ready: Some(on_ready),
                    ..ChatCallbacks::default()
                }
            />
        }
    });
    MOUNTED.with(|m| {
        let mut m = m.borrow_mut();
        m.last_id += 1;
        let id = m.last_id;
        m.instances.insert(
            id,
            Instance {
                _handle: Box::new(handle),
                store: store_slot.get(),
                live: live_slot.get(),
            },
        );
        id
    })
}

/// Dispatches `agent-chat:<name>` events on the host element. `SendWrapper` because
/// `Callback` wants `Send`, and custom elements only live on the browser's main thread.
#[derive(Clone)]
struct EventSink(SendWrapper<web_sys::HtmlElement>);

impl EventSink {
    fn dispatch(&self, name: &str, detail: serde_json::Value) {
        let detail = js_sys::JSON::parse(&detail.to_string()).unwrap_or(JsValue::NULL);
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
            let detail = serde_json::to_value(&value).unwrap_or(serde_json::Value::Null);
            sink.dispatch(name, detail);
        })
    }

    fn action_callback(&self, name: &'static str) -> Callback<PendingAction> {
        let sink = self.clone();
        Callback::new(move |action: PendingAction| sink.dispatch(name, action.to_json()))
    }

    fn resolved_callback(&self) -> Callback<(String, Resolution)> {
        let sink = self.clone();
        Callback::new(move |(action_id, resolution): (String, Resolution)| {
            let detail = serde_json::json!({
                "actionId": action_id,
                "resolution": resolution.to_json(),
            });
            sink.dispatch("action-resolved", detail);
        })
    }

    fn client_tool_callback(&self) -> Callback<PendingAction> {
        let sink = self.clone();
        Callback::new(move |action: PendingAction| {
            let (tool_name, args) = match &action.kind {
                crate::core::ActionKind::ClientTool { tool_name, args } => {
                    (tool_name.clone(), args.clone())
                }
                _ => return,
            };
            let detail = serde_json::json!({
                "actionId": action.id,
                "toolName": tool_name,
                "args": args,
            });
            sink.dispatch("client-tool", detail);
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
            sink.dispatch("error", detail);
        })
    }
}

impl std::fmt::Debug for EventSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("EventSink")
    }
}
