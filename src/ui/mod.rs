//! Leptos components. They read signals from [`crate::store::ChatStore`] and dispatch
//! [`crate::core::Command`]s; no I/O and no protocol parsing here.
//!
//! No element of a view is all static HTML (every attribute a string literal, every child
//! text or such an element): Leptos builds such a subtree by parsing its HTML with
//! `innerHTML`, which a page that enforces Trusted Types refuses, so the chat would not draw
//! there. One braced value (`class={"chat-dots"}`) keeps it built node by node; `cargo xtask
//! element` fails on any such HTML left in the build.

pub mod attachments;
pub(crate) mod attention;
pub mod attention_title;
pub mod cards;
pub mod chat;
pub mod chat_input;
pub mod chunk;
pub mod citations;
pub mod countdown;
pub(crate) mod find;
pub(crate) mod first_draw;
pub mod format;
pub mod history;
/// `use_chat_history`, kept here for hosts that name it by this path; it lives in the store.
pub use crate::store::chat_history as history_hook;
pub mod i18n;
pub mod icons;
pub mod markdown;
pub mod message;
pub mod message_actions;
pub mod message_list;
pub mod options;
pub(crate) mod paging;
pub mod provider;
pub mod slots;
pub mod style;
pub mod tool_call;
pub(crate) mod warm;
pub(crate) mod window;

pub use self::window::NEW_ROWS_PER_FRAME;

pub use crate::store::ChatCallbacks;
pub use chat::{Chat, ChatHeader, ChatMinimal, Theme};
pub use i18n::{
    tr, use_i18n, use_i18n_context, use_i18n_context_optional, ChatI18nProvider, I18n, UseI18n,
};
pub use message_actions::{Feedback, MessageActions};
pub use options::{CardOptions, ChatSlots, UploadOptions};
pub use provider::{
    use_chat_context, use_chat_context_optional, use_chat_theme, use_chat_theme_optional,
    ChatProvider, ChatThemeContext, ChatThemeProvider,
};
pub use slots::{HeaderSlot, MessageActionsSlot, RenderProp};
pub use tool_call::{ToolCall, ToolCalls};

/// Focuses `target` on the next animation frame, once the view that owns it has rendered; does
/// nothing if it is gone by then (the chat may have been unmounted).
pub(crate) fn focus_later<E>(target: leptos::prelude::NodeRef<E>)
where
    E: leptos::html::ElementType + 'static,
    E::Output: wasm_bindgen::JsCast + Clone + 'static,
{
    use leptos::prelude::*;
    request_animation_frame(move || {
        if let Some(el) = target.try_get_untracked().flatten() {
            let el: &web_sys::HtmlElement = wasm_bindgen::JsCast::unchecked_ref(&el);
            let _ = el.focus();
        }
    });
}
