//! The standalone page (index.html + Trunk): `<Chat/>` full-screen, configured by the URL
//! query `?baseUrl=&agentId=&lang=&theme=&conversationId=`.
//!
//! Defaults to the reference server on the same origin (`/api/agents`). The open conversation
//! is written back to the URL (`conversationId=`) so a reload or a shared link reopens it.

use leptos::prelude::*;

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
}

/// The path the reference server serves its API under (the React library's default).
pub const DEFAULT_BASE_PATH: &str = "/api/agents";

impl PageConfig {
    /// Reads a query string (`?a=b&…`, leading `?` optional) and the page origin.
    pub fn from_query(origin: &str, query: &str) -> Self {
        let mut cfg = PageConfig {
            base_url: format!("{}{}", origin.trim_end_matches('/'), DEFAULT_BASE_PATH),
            ..Default::default()
        };
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
        view! {
            <Chat
                base_url=cfg.base_url
                agent_id=cfg.agent_id
                conversation_id=cfg.conversation_id
                locale=lang.clone()
                theme=cfg.theme
                on_conversation_change=on_change
                class="chat-page"
            />
        }
    })
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
