//! The stylesheet, compiled in (`style/tokens.css` + `style/chat.css`) and injected as a
//! `<style>` element inside each chat root, so it works the same in a page and in a shadow root.
//!
//! The rules of a part fetched on first use (the messages, the cards, what the Markdown part
//! draws, the history sidebar) are not in that first sheet: the part's components add them
//! when first drawn ([`use_part_style`]), so their bytes come with the part (D79, D80).

use leptos::prelude::*;

/// The `--chat-*` tokens: the React library's variable names and defaults (F166).
pub const TOKENS_CSS: &str = include_str!(concat!(env!("OUT_DIR"), "/tokens.css"));
/// Component styles; only `--chat-*` tokens for colours.
pub const CHAT_CSS: &str = include_str!(concat!(env!("OUT_DIR"), "/chat.css"));

/// The messages' part's rules (`style/messages.css`): the rows, the find bar and button, the
/// agent picker, the older-messages row and the file chips (D80).
pub const MESSAGES_CSS: &str = include_str!(concat!(env!("OUT_DIR"), "/messages.css"));
/// The cards' rules (`style/cards.css`), added by the first card drawn.
pub const CARDS_CSS: &str = include_str!(concat!(env!("OUT_DIR"), "/cards.css"));
/// The rules of Markdown, a message's tool steps and its sources (`style/markdown.css`).
pub const MARKDOWN_CSS: &str = include_str!(concat!(env!("OUT_DIR"), "/markdown.css"));
/// The history sidebar's list, search and row actions (`style/history.css`).
pub const HISTORY_CSS: &str = include_str!(concat!(env!("OUT_DIR"), "/history.css"));
/// The standalone page's own rules (`style/page.css`): never in the element.
pub const PAGE_CSS: &str = include_str!(concat!(env!("OUT_DIR"), "/page.css"));

thread_local! {
    /// The part stylesheets drawn so far on this page, in the order they came.
    static PART_SHEETS: ArcRwSignal<Vec<&'static str>> = ArcRwSignal::new(Vec::new());
}

/// Adds `css`, a part's stylesheet, to every chat's `<style>` on the page (once, whoever asks
/// first). A part's components call it when drawn: in a split build the stylesheet's bytes
/// then come with the part, and the first download carries only the first screen's rules
/// (issue 16, D79). The sheet is added in the same turn as the part's elements, before the
/// browser paints them, so they never show unstyled. Added after `chat.css`, a part's rule
/// wins a tie of specificity with one there.
pub fn use_part_style(css: &'static str) {
    PART_SHEETS.with(|sheets| {
        // Called by every Markdown message drawn: the same constant is the same address, so
        // the pointer settles it without comparing kilobytes of text.
        let added = |s: &Vec<&'static str>| s.iter().any(|x| std::ptr::eq(*x, css) || *x == css);
        if !sheets.with_untracked(added) {
            sheets.update(|s| s.push(css));
        }
    });
}

/// The part stylesheets added so far ([`use_part_style`]), in order.
pub fn part_styles() -> Vec<&'static str> {
    PART_SHEETS.with(|sheets| sheets.get_untracked())
}

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
    let parts = PART_SHEETS.with(Clone::clone);
    let parts = move || parts.with(|s| s.concat());
    view! { <style data-agent-chat-ui="">{tokens}{CHAT_CSS}{parts}</style> }
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
