//! The standalone page (index.html + Trunk): `<Chat/>` full-screen, configured by the URL
//! query `?baseUrl=&agentId=&lang=&theme=&conversationId=`, and for the card props
//! `allowArgumentEdit=`, `enableToolApprovals=`, `enableQuestions=`, `expiryWarningSeconds=`,
//! `pendingActionComposerMode=` and `customCards=1` (a small custom card drawn through
//! `render_tool_approval` / `render_question`, the way a host would replace the built-in ones).
//!
//! Defaults to the reference server on the same origin (`/api/agents`). The open conversation
//! is written back to the URL (`conversationId=`) so a reload or a shared link reopens it.

use leptos::prelude::*;

use crate::core::{approval_resolution, ActionKind, CardState, ComposerMode, Resolution};
use crate::ui::cards::{CardOutcome, CardSlot, RenderCard};
use crate::ui::i18n::I18n;
use crate::ui::{Chat, Theme};

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
    /// `pendingActionComposerMode` (`block`/`cancel`).
    pub composer_mode: ComposerMode,
    /// `customCards=1`: draw cards with the page's own renderer.
    pub custom_cards: bool,
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
                "baseUrl" => cfg.base_url = value,
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
                _ => {}
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
            (decode(k), decode(v))
        })
        .collect()
}

fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
                match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    Some(b) => {
                        out.push(b);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Mounts the page into `<body>`. Called by the page binary (`src/main.rs`).
pub fn mount() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let location = window.location();
    let origin = location.origin().unwrap_or_default();
    let query = location.search().unwrap_or_default();
    let cfg = PageConfig::from_query(&origin, &query);
    let lang = cfg.lang.clone().or_else(|| window.navigator().language());
    let on_change = Callback::new(move |id: Option<String>| remember_conversation(id.as_deref()));
    mount_to_body(move || {
        let cfg = cfg.clone();
        // Render props strip their `Option` (hosts pass a closure), so the page picks a branch.
        macro_rules! chat {
            ($($extra:tt)*) => {
                view! {
                    <Chat
                        base_url=cfg.base_url
                        agent_id=cfg.agent_id
                        conversation_id=cfg.conversation_id
                        locale=lang.clone()
                        theme=cfg.theme
                        allow_argument_edit=cfg.allow_argument_edit
                        enable_tool_approvals=cfg.enable_tool_approvals
                        enable_questions=cfg.enable_questions
                        expiry_warning_seconds=cfg.expiry_warning_seconds
                        pending_action_composer_mode=cfg.composer_mode
                        on_conversation_change=on_change
                        class="chat-page"
                        enable_message_search=true
                        $($extra)*
                    />
                }
                .into_any()
            };
        }
        if cfg.custom_cards {
            let custom =
                RenderCard::new(|card: CardSlot| view! { <DemoCard card=card/> }.into_any());
            chat!(render_tool_approval=custom render_question=custom)
        } else {
            chat!()
        }
    })
}

/// The page's own card (`customCards=1`): what a host writes with `render_tool_approval` /
/// `render_question`. Approvals get Allow / Refuse, questions Skip; settled cards reuse
/// [`CardOutcome`].
#[component]
fn DemoCard(card: CardSlot) -> impl IntoView {
    let i18n = I18n::get();
    let CardSlot {
        action,
        state,
        read_only,
        resolve,
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
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(href) = window.location().href() else {
        return;
    };
    let Ok(url) = web_sys::Url::new(&href) else {
        return;
    };
    let params = url.search_params();
    match id {
        Some(id) => params.set("conversationId", id),
        None => params.delete("conversationId"),
    }
    url.set_search(&params.to_string().as_string().unwrap_or_default());
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url.href()));
    }
}
