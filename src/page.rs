//! The standalone page (index.html + Trunk): `<Chat/>` full-screen, configured by the URL
//! query `?baseUrl=&agentId=&lang=&theme=&conversationId=`, and for the card props
//! `allowArgumentEdit=`, `enableToolApprovals=`, `enableQuestions=`, `expiryWarningSeconds=`,
//! `actionExpiryRefreshMs=`, `pendingActionComposerMode=` and `customCards=1` (a small custom card drawn through
//! `render_tool_approval` / `render_question`, the way a host would replace the built-in ones).
//!
//! Defaults to the reference server on the same origin (`/api/agents`). The open conversation
//! is written back to the URL (`conversationId=`) so a reload or a shared link reopens it.
//!
//! The header (through `render_header`, reusing [`ChatHeader`]) carries a settings control
//! that switches the theme and the language live; both are kept in the URL (`theme=`,
//! `lang=`) so a reload keeps them.

use leptos::html::{Button, Div};
use leptos::prelude::*;

use crate::core::first_draw::FirstDraw;
use crate::core::transport::options::OptionRefusal;
use crate::core::{approval_resolution, ActionKind, CardState, ComposerMode, Resolution};
use crate::ui::cards::{CardOutcome, CardSlot, RenderCard};
use crate::ui::i18n::I18n;
use crate::ui::icons::SlidersIcon;
use crate::ui::{
    CardOptions, Chat, ChatCallbacks, ChatHeader, ChatSlots, HeaderSlot, MessageActions,
    MessageActionsSlot, Theme,
};

/// Page options read from the query string.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PageConfig {
    /// `baseUrl`; default `<origin>/api/agents`.
    pub base_url: String,
    /// `agentId`.
    pub agent_id: Option<String>,
    /// `lang`; default: the browser's language.
    pub lang: Option<String>,
    /// `theme` (`light` / `dark`).
    pub theme: Theme,
    /// `conversationId`.
    pub conversation_id: Option<String>,
    /// `allowArgumentEdit` (`true`/`false`; default false).
    pub allow_argument_edit: bool,
    /// `enableToolApprovals` (default true).
    pub enable_tool_approvals: bool,
    /// `enableQuestions` (default true).
    pub enable_questions: bool,
    /// `expiryWarningSeconds` (default 600).
    pub expiry_warning_seconds: u64,
    /// `actionExpiryRefreshMs` (default 1 500), read by the session options' one reader
    /// ([`StartOptions::set`](crate::core::StartOptions::set)).
    pub start: crate::core::StartOptions,
    /// `pendingActionComposerMode` (`block`/`cancel`).
    pub composer_mode: ComposerMode,
    /// `customCards=1`: draw cards with the page's own renderer.
    pub custom_cards: bool,
    /// `showTimestamps=1`: each message's local time.
    pub show_timestamps: bool,
    /// `transport` (`agent-server`, `chat-completions`, `responses`, `a2a`, `cogitator`,
    /// `ai-sdk`, `ag-ui`, `langgraph`), `model`, `threadStore`
    /// (`memory`/`local`), `actionUrl` (a path below `baseUrl`; anything else is ignored),
    /// `resendHistory=1` (Responses without server state) and `agentCardUrl` (A2A: the card's
    /// address, a path from the site root; anything else is ignored): the backend at `baseUrl`,
    /// read by the options' one reader ([`TransportOptions::set`]).
    ///
    /// [`TransportOptions::set`]: crate::core::transport::TransportOptions::set
    pub transport: crate::core::transport::TransportOptions,
    /// A `baseUrl` that was not taken (another origin, not on the build's allow-list).
    pub refused_base_url: Option<String>,
    /// A `transport` the page does not know (the agent server is used; a console warning).
    pub unknown_transport: Option<String>,
}

/// Origins besides its own the page may be pointed at with `?baseUrl=`, fixed when it is
/// built: `AGENT_CHAT_ALLOWED_ORIGINS="https://a.example,https://b.example" trunk build`.
pub const ALLOWED_ORIGINS: Option<&str> = option_env!("AGENT_CHAT_ALLOWED_ORIGINS");

/// `baseUrl` as the page uses it, if it may: a path on the page's own origin (`/api/agents`),
/// a URL of that origin, or of an origin on [`ALLOWED_ORIGINS`]. A crafted link must not point
/// the trusted page (and the person's answers to its cards) at another server.
pub fn allowed_base_url(origin: &str, value: &str) -> Option<String> {
    let origin = origin.trim_end_matches('/');
    let value = value.trim();
    if value.starts_with('/') && !value.starts_with("//") && !value.starts_with("/\\") {
        return Some(format!("{origin}{value}"));
    }
    let (scheme, rest) = value.split_once("://")?;
    if !matches!(scheme.to_ascii_lowercase().as_str(), "http" | "https") {
        return None;
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if authority.is_empty() || authority.contains(['@', '\\']) {
        return None;
    }
    let candidate = format!("{scheme}://{authority}").to_ascii_lowercase();
    let allowed = std::iter::once(origin.to_ascii_lowercase()).chain(
        ALLOWED_ORIGINS
            .unwrap_or_default()
            .split(',')
            .map(|o| o.trim().trim_end_matches('/').to_ascii_lowercase())
            .filter(|o| !o.is_empty()),
    );
    let ok = allowed.into_iter().any(|o| o == candidate);
    ok.then(|| value.to_owned())
}

/// The path the reference server serves its API under (the React library's default).
pub const DEFAULT_BASE_PATH: &str = "/api/agents";

impl PageConfig {
    /// Reads a query string (`?a=b&…`, leading `?` optional) and the page origin.
    pub fn from_query(origin: &str, query: &str) -> Self {
        let mut cfg = PageConfig {
            base_url: format!("{}{}", origin.trim_end_matches('/'), DEFAULT_BASE_PATH),
            enable_tool_approvals: true,
            enable_questions: true,
            expiry_warning_seconds: 600,
            ..Default::default()
        };
        let flag = |v: &str| matches!(v, "1" | "true" | "yes");
        for (key, value) in parse_query(query) {
            if value.is_empty() {
                continue;
            }
            match key.as_str() {
                "baseUrl" => match allowed_base_url(origin, &value) {
                    Some(url) => cfg.base_url = url,
                    None => cfg.refused_base_url = Some(value),
                },
                "agentId" => cfg.agent_id = Some(value),
                "lang" => cfg.lang = Some(value),
                "theme" => cfg.theme = Theme::parse(&value),
                "conversationId" => cfg.conversation_id = Some(value),
                "allowArgumentEdit" => cfg.allow_argument_edit = flag(&value),
                "enableToolApprovals" => cfg.enable_tool_approvals = flag(&value),
                "enableQuestions" => cfg.enable_questions = flag(&value),
                "expiryWarningSeconds" => {
                    if let Ok(n) = value.trim().parse() {
                        cfg.expiry_warning_seconds = n;
                    }
                }
                "pendingActionComposerMode" => {
                    if let Some(m) = ComposerMode::parse(&value) {
                        cfg.composer_mode = m;
                    }
                }
                "customCards" => cfg.custom_cards = flag(&value),
                "showTimestamps" => cfg.show_timestamps = flag(&value),
                // A path below the base URL only: a link must not send answers (and the
                // page's credentials) to another origin (issue 15).
                "actionUrl" | "agentCardUrl"
                    if !value.starts_with('/') || value.starts_with("//") => {}
                // The session's and the backend's options, read as the element reads its
                // attributes.
                name if cfg.start.set(name, &value) => {}
                name => {
                    if let Err(OptionRefusal::UnknownTransport(name)) =
                        cfg.transport.set(name, &value)
                    {
                        cfg.unknown_transport = Some(name);
                    }
                }
            }
        }
        cfg
    }
}

/// Splits and percent-decodes `a=b&c=d` (`+` means space).
pub fn parse_query(query: &str) -> Vec<(String, String)> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (crate::core::decode(k, true), crate::core::decode(v, true))
        })
        .collect()
}

/// Mounts the page into `<body>`. Called by the page binary (`src/main.rs`).
///
/// Behind the instant shell the chat is drawn from the next task on: the task that
/// compiled and started the WebAssembly ends first, and the chat draws its first screen in
/// stages, the shell in front until it shows.
pub fn mount() {
    if has_shell() {
        set_timeout(mount_now, std::time::Duration::ZERO);
    } else {
        mount_now();
    }
}

fn mount_now() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let location = window.location();
    let origin = location.origin().unwrap_or_default();
    let query = location.search().unwrap_or_default();
    let cfg = PageConfig::from_query(&origin, &query);
    if let Some(url) = &cfg.refused_base_url {
        web_sys::console::warn_1(&wasm_bindgen::JsValue::from_str(&format!(
            "agent-chat-ui: ?baseUrl={url} is another origin and not on this build's \
             AGENT_CHAT_ALLOWED_ORIGINS; using {}",
            cfg.base_url
        )));
    }
    if let Some(name) = &cfg.unknown_transport {
        web_sys::console::warn_1(&wasm_bindgen::JsValue::from_str(&format!(
            "agent-chat-ui: ?transport={name} is not a known backend; using the agent server"
        )));
    }
    // `?lang=` is read by the chat itself (uncontrolled, F128), so the settings control can
    // switch it; the browser's language is only the fallback.
    let browser_lang = window.navigator().language();
    let on_change = Callback::new(move |id: Option<String>| remember_conversation(id.as_deref()));
    // The composer drawn before the wasm arrived: its state is read while it is still in the
    // page, and handed to the chat's composer once the chat is drawn.
    let shell = take_shell();
    let first_draw = if shell.is_some() {
        FirstDraw::Staged
    } else {
        FirstDraw::AtOnce
    };
    mount_to_body(move || {
        provide_context(first_draw);
        let cfg = cfg.clone();
        let theme = RwSignal::new(cfg.theme);
        let header = move |h: HeaderSlot| {
            view! {
                <ChatHeader header=h>
                    <PageSettings theme=theme/>
                </ChatHeader>
            }
        };
        // F26/F119-F122: the ready-made action row under each reply. Regenerate (F152 retry)
        // is offered on the latest reply only, while a message could be sent.
        let message_actions = |slot: MessageActionsSlot| {
            let store = crate::store::ChatStore::expect();
            let id = slot.message.id.clone();
            let latest = Signal::derive(move || {
                store
                    .messages
                    .with(|m| m.last().is_some_and(|last| last.id == id))
                    && store.status.with(|s| s.can_send)
            });
            view! {
                <MessageActions
                    message=slot.message
                    is_streaming=slot.is_streaming
                    show_regenerate=latest
                    on_regenerate=move |_id: String| store.retry()
                />
            }
        };
        // The page's own cards (`customCards=1`) in place of the built-in ones.
        let custom = cfg
            .custom_cards
            .then(|| RenderCard::new(|card: CardSlot| view! { <DemoCard card=card/> }.into_any()));
        let slots = ChatSlots {
            render_header: header.into(),
            render_message_actions: message_actions.into(),
            render_tool_approval: custom.into(),
            render_question: custom.into(),
            ..ChatSlots::default()
        };
        let cards = CardOptions {
            allow_argument_edit: Signal::stored(cfg.allow_argument_edit),
            enable_tool_approvals: Signal::stored(cfg.enable_tool_approvals),
            enable_questions: Signal::stored(cfg.enable_questions),
            expiry_warning_seconds: Signal::stored(cfg.expiry_warning_seconds),
            action_expiry_refresh_ms: cfg.start.action_expiry_refresh_ms,
            composer_mode: Signal::stored(cfg.composer_mode),
            ..CardOptions::default()
        };
        view! {
            <Chat
                base_url=cfg.base_url
                transport=cfg.transport.clone()
                agent_id=cfg.agent_id
                conversation_id=cfg.conversation_id
                default_locale=browser_lang.clone()
                theme=theme
                show_timestamps=cfg.show_timestamps
                class="chat-page"
                enable_message_search=true
                cards=cards
                slots=slots
                callbacks=ChatCallbacks::default().on_conversation_change(on_change)
            />
        }
    });
    if let (Some(adopt), Some(body)) = (shell, window.document().and_then(|d| d.body())) {
        let _ = adopt.call1(&wasm_bindgen::JsValue::NULL, &body);
    }
}

/// Whether the page's instant shell is there to be taken over.
fn has_shell() -> bool {
    web_sys::window()
        .and_then(|w| js_sys::Reflect::get(&w, &"__agentChatPageShell".into()).ok())
        .is_some_and(|shell| shell.is_object())
}

/// The hand-over function of the page's instant shell (`window.__agentChatPageShell.take()`,
/// drawn by the script the build puts first in `<body>`), if the page has one.
fn take_shell() -> Option<js_sys::Function> {
    use wasm_bindgen::JsCast;
    let window = web_sys::window()?;
    let shell = js_sys::Reflect::get(&window, &"__agentChatPageShell".into()).ok()?;
    if !shell.is_object() {
        return None;
    }
    let take: js_sys::Function = js_sys::Reflect::get(&shell, &"take".into())
        .ok()?
        .dyn_into()
        .ok()?;
    take.call0(&shell).ok()?.dyn_into().ok()
}

/// The page's own card (`customCards=1`): what a host writes with `render_tool_approval` /
/// `render_question`. Approvals get Allow / Refuse, questions Skip; settled cards reuse
/// [`CardOutcome`].
#[component]
fn DemoCard(card: CardSlot) -> impl IntoView {
    // Its rules come with it (D79).
    crate::ui::style::use_part_style(crate::ui::style::PAGE_CSS);
    let i18n = I18n::get();
    let CardSlot {
        action,
        state,
        read_only,
        resolve,
        ..
    } = card;
    let (kind, title) = match &action.kind {
        ActionKind::ToolApproval(a) => {
            let tool = a.tool_name.clone();
            (
                "tool_approval",
                Signal::derive(move || {
                    i18n.t_args(
                        "chat-demo-custom-approval",
                        &[("tool", tool.as_str().into())],
                    )
                }),
            )
        }
        _ => (
            "user_question",
            Signal::derive(move || i18n.t("chat-demo-custom-question")),
        ),
    };
    let waiting = move || state.with(|s| *s == CardState::Waiting);
    let args = match &action.kind {
        ActionKind::ToolApproval(a) => a.args.clone(),
        _ => serde_json::Value::Null,
    };
    let decide =
        move |allow: bool| resolve.run(approval_resolution(allow, &args, None, false, None));
    let skip = move |_| {
        resolve.run(Resolution::UserQuestion {
            answers: Default::default(),
            cancelled: true,
        })
    };
    let buttons = move || match kind {
        "tool_approval" => {
            let deny = decide.clone();
            let allow = decide.clone();
            view! {
                <button type="button" class="chat-button chat-button--primary chat-custom-card__approve" on:click=move |_| allow(true)>
                    {move || i18n.t("chat-demo-approve")}
                </button>
                <button type="button" class="chat-button chat-custom-card__deny" on:click=move |_| deny(false)>
                    {move || i18n.t("chat-demo-deny")}
                </button>
            }
            .into_any()
        }
        _ => view! {
            <button type="button" class="chat-button chat-custom-card__skip" on:click=skip>
                {move || i18n.t("chat-demo-skip")}
            </button>
        }
        .into_any(),
    };
    view! {
        <div
            class="chat-custom-card"
            role="group"
            aria-label=move || title.get()
            data-kind=kind
            data-action-id=action.id.clone()
            data-state=move || state.with(|s| s.as_str())
        >
            <p class="chat-custom-card__title">{move || title.get()}</p>
            {move || match state.get() {
                CardState::Settled(o) => view! { <CardOutcome outcome=o/> }.into_any(),
                _ if read_only.get() => view! {
                    <p class="chat-custom-card__readonly">{move || i18n.t("chat-action-status-waiting-elsewhere")}</p>
                }.into_any(),
                _ => view! {
                    <div class="chat-custom-card__buttons" aria-busy=move || (!waiting()).to_string()>{buttons.clone()}</div>
                }.into_any(),
            }}
        </div>
    }
}

/// Keeps `conversationId` in the address bar without reloading.
fn remember_conversation(id: Option<&str>) {
    crate::io::location::replace_query_param("conversationId", id);
}

/// The languages the settings offer, each named in itself.
const PAGE_LANGUAGES: [(&str, &str); 3] = [
    ("en", "chat-settings-language-en"),
    ("tr", "chat-settings-language-tr"),
    ("ar", "chat-settings-language-ar"),
];

/// The page's settings in the header: a button that opens a small panel with two radio
/// groups, theme (dark / light) and language (en / tr / ar). Both apply at once, without a
/// reload (the draft and the open conversation stay), and are written to the URL.
///
/// Keyboard: the button opens the panel and focuses the checked theme; arrows move within a
/// group (native radios), Tab between groups; Escape closes and returns focus to the button,
/// as does moving focus out of the control.
#[component]
fn PageSettings(
    /// The page's theme, given to `Chat` as a signal.
    theme: RwSignal<Theme>,
) -> impl IntoView {
    // Its rules come with it (D79).
    crate::ui::style::use_part_style(crate::ui::style::PAGE_CSS);
    let i18n = I18n::get();
    let open = RwSignal::new(false);
    let toggle = NodeRef::<Button>::new();
    let panel = NodeRef::<Div>::new();
    let set_theme = move |t: Theme| {
        theme.set(t);
        crate::io::location::replace_query_param("theme", Some(t.as_str()));
    };
    let open_panel = move |_| {
        let now_open = !open.get_untracked();
        open.set(now_open);
        if now_open {
            request_animation_frame(move || {
                let checked = panel
                    .try_get_untracked()
                    .flatten()
                    .and_then(|p| p.query_selector("input:checked").ok().flatten());
                if let Some(el) = checked {
                    let el: &web_sys::HtmlElement = wasm_bindgen::JsCast::unchecked_ref(&el);
                    let _ = el.focus();
                }
            });
        }
    };
    let theme_option = move |t: Theme, id: &'static str| {
        view! {
            <label class="chat-settings__option" data-value=t.as_str()>
                <input
                    type="radio"
                    class="chat-settings__radio"
                    name="chat-settings-theme"
                    value=t.as_str()
                    prop:checked=move || theme.get() == t
                    on:change=move |_| set_theme(t)
                />
                <span>{move || i18n.t(id)}</span>
            </label>
        }
    };
    let languages = PAGE_LANGUAGES
        .iter()
        .map(|&(tag, id)| {
            view! {
                <label class="chat-settings__option" data-value=tag>
                    <input
                        type="radio"
                        class="chat-settings__radio"
                        name="chat-settings-lang"
                        value=tag
                        prop:checked=move || i18n.locale() == tag
                        on:change=move |_| {
                            i18n.set_locale(tag);
                        }
                    />
                    <span lang=tag>{move || i18n.t(id)}</span>
                </label>
            }
        })
        .collect_view();
    view! {
        <div
            class="chat-settings"
            on:focusout=move |ev: leptos::ev::FocusEvent| {
                // Close when focus leaves the control (Tab away or a click elsewhere).
                let inside = ev
                    .related_target()
                    .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Node>(t).ok())
                    .zip(ev.current_target().and_then(|c| wasm_bindgen::JsCast::dyn_into::<web_sys::Node>(c).ok()))
                    .is_some_and(|(t, cur)| cur.contains(Some(&t)));
                if !inside {
                    open.set(false);
                }
            }
            on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                if ev.key() == "Escape" && open.get_untracked() {
                    ev.stop_propagation();
                    open.set(false);
                    crate::ui::focus_later(toggle);
                }
            }
        >
            <button
                type="button"
                class="chat-settings__toggle chat-icon-button"
                node_ref=toggle
                aria-expanded=move || open.get().to_string()
                aria-controls="chat-settings-panel"
                aria-label=move || i18n.t("chat-settings-button")
                title=move || i18n.t("chat-settings-button")
                on:click=open_panel
            >
                <SlidersIcon/>
            </button>
            <div
                class="chat-settings__panel"
                id="chat-settings-panel"
                node_ref=panel
                // Focusable, so a click on a label inside keeps focus in the control instead
                // of dropping it to the page (which would close the panel mid-click).
                tabindex="-1"
                role="group"
                aria-label=move || i18n.t("chat-settings-button")
                hidden=move || !open.get()
            >
                <fieldset class="chat-settings__group" data-setting="theme">
                    <legend class="chat-settings__legend">{move || i18n.t("chat-settings-theme")}</legend>
                    <div class="chat-settings__options">
                        {theme_option(Theme::Dark, "chat-settings-theme-dark")}
                        {theme_option(Theme::Light, "chat-settings-theme-light")}
                    </div>
                </fieldset>
                <fieldset class="chat-settings__group" data-setting="lang">
                    <legend class="chat-settings__legend">{move || i18n.t("chat-settings-language")}</legend>
                    <div class="chat-settings__options">{languages}</div>
                </fieldset>
            </div>
        </div>
    }
}
