//! The stylesheet, compiled in (`style/tokens.css` + `style/chat.css`) and injected as a
//! `<style>` element inside each chat root, so it works the same in a page and in a shadow root.

use leptos::prelude::*;

/// The `--chat-*` tokens: the React library's variable names and defaults (F166).
pub const TOKENS_CSS: &str = include_str!(concat!(env!("OUT_DIR"), "/tokens.css"));
/// Component styles; only `--chat-*` tokens for colours.
pub const CHAT_CSS: &str = include_str!(concat!(env!("OUT_DIR"), "/chat.css"));

/// Set by the custom element: the chat lives in a shadow root.
#[derive(Clone, Copy, Debug)]
pub struct InShadowRoot;

/// Renders the stylesheet once for the enclosing chat.
///
/// In a shadow root the tokens are declared on `:host` (light theme: `:host([theme="light"])`)
/// instead of `.chat-root`: a page's own `agent-chat { --chat-…: … }` rules then win over the
/// defaults, as the embedding guide promises.
#[component]
pub fn Styles() -> impl IntoView {
    let tokens = if use_context::<InShadowRoot>().is_some() {
        shadow_tokens()
    } else {
        TOKENS_CSS.to_owned()
    };
    view! { <style data-agent-chat-ui="">{tokens}{CHAT_CSS}</style> }
}

/// [`TOKENS_CSS`] with the token blocks moved onto the shadow host.
pub fn shadow_tokens() -> String {
    TOKENS_CSS
        .replace(
            ".chat-root.chat-theme-light {",
            ":host([theme=\"light\"]) {",
        )
        .replace(".chat-root {", ":host {")
}
