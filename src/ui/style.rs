//! The stylesheet (`style/tokens.css` + `style/chat.css`), injected as a `<style>` element
//! inside each chat root, so it works the same in a page and in a shadow root. A Leptos app
//! mounting `<Chat/>` (and the tests) has it compiled in. The split builds (the element and
//! the page) take it from their instant shell instead, whose script arrives first and already
//! carries the same bytes (`io::shell`): the first download has it once. Without it
//! (the wasm loaded without its shell script) the chat says so on the console, loudly.
//!
//! The rules of a part fetched on first use (the messages, the cards, what the Markdown part
//! draws, the history sidebar) are not in that first sheet: the part's components add them
//! when first drawn ([`use_part_style`]), so their bytes come with the part.

use leptos::prelude::*;

#[path = "../../style/host_tokens.rs"]
mod host_tokens;

/// The `--chat-*` tokens: the React library's variable names and defaults.
pub const TOKENS_CSS: &str = include_str!(concat!(env!("OUT_DIR"), "/tokens.css"));
/// Component styles; only `--chat-*` tokens for colours.
pub const CHAT_CSS: &str = include_str!(concat!(env!("OUT_DIR"), "/chat.css"));

/// The messages' part's rules (`style/messages.css`): the rows, the find bar and button, the
/// agent picker, the older-messages row and the file chips.
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
/// then come with the part, and the first download carries only the first screen's rules.
/// The sheet is added in the same turn as the part's elements, before the
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
    let first = first_sheet(use_context::<InShadowRoot>().is_some());
    let parts = PART_SHEETS.with(Clone::clone);
    let parts = move || parts.with(|s| s.concat());
    view! { <style data-agent-chat-ui="">{first}{parts}</style> }
}

/// The tokens and the component styles, for a chat in a shadow root (tokens on `:host`) or in
/// a page (tokens on `.chat-root`): compiled in.
#[cfg(not(feature = "split"))]
fn first_sheet(in_shadow_root: bool) -> String {
    if in_shadow_root {
        shadow_tokens() + CHAT_CSS
    } else {
        [TOKENS_CSS, CHAT_CSS].concat()
    }
}

/// The tokens and the component styles, for a chat in a shadow root (tokens on `:host`) or in
/// a page (tokens on `.chat-root`): the instant shell's copy, the same text as the compiled-in
/// one. Without a shell script the chat is drawn unstyled, with [`MISSING_SHEET`] on the
/// console (the end-to-end tests fail on it).
#[cfg(feature = "split")]
fn first_sheet(in_shadow_root: bool) -> String {
    match crate::io::shell::shell_sheet() {
        Some(sheet) if in_shadow_root => sheet,
        Some(sheet) => page_sheet(&sheet),
        None => {
            web_sys::console::error_1(&MISSING_SHEET.into());
            String::new()
        }
    }
}

/// What a split build logs when its instant shell's stylesheet is not there.
pub const MISSING_SHEET: &str = "agent-chat: the stylesheet is missing (no __agentChatSheet: \
     agent-chat.js or agent-chat-shell.js was not loaded as built); the chat is unstyled";

/// [`TOKENS_CSS`] with the token blocks moved onto the shadow host.
pub fn shadow_tokens() -> String {
    host_tokens::onto_host(TOKENS_CSS)
}

/// `sheet`, a first stylesheet whose tokens are on the shadow host (as the instant shell
/// carries it), with the tokens on `.chat-root` instead, for a chat drawn in a page: for
/// [`shadow_tokens`] + [`CHAT_CSS`] it is [`TOKENS_CSS`] + [`CHAT_CSS`], byte for byte.
pub fn page_sheet(sheet: &str) -> String {
    host_tokens::onto_root(sheet)
}
