//! The stylesheet, compiled in (`style/tokens.css` + `style/chat.css`) and injected as a
//! `<style>` element inside each chat root, so it works the same in a page and in a shadow root.

use leptos::prelude::*;

/// The `--chat-*` tokens: the React library's variable names and defaults (F166).
pub const TOKENS_CSS: &str = include_str!("../../style/tokens.css");
/// Component styles; only `--chat-*` tokens for colours.
pub const CHAT_CSS: &str = include_str!("../../style/chat.css");

/// Renders the stylesheet once for the enclosing chat.
#[component]
pub fn Styles() -> impl IntoView {
    view! { <style data-agent-chat-ui="">{TOKENS_CSS}{CHAT_CSS}</style> }
}
