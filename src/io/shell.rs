//! What the instant shell hands the split builds' wasm: the chat's first stylesheet.
//!
//! The element's module and the page's shell script arrive before the wasm and already carry
//! the first stylesheet (`style/tokens.css` with its tokens on `:host`, and `style/chat.css`),
//! compiled by `cargo xtask` exactly as the crate's build script compiles the wasm's copies.
//! The split builds (the element and the page) read it from there instead of carrying a
//! second copy: the script names it `__agentChatSheet`, a constant of the element's module
//! (the module wasm-bindgen's glue is in) or a read-only property of the page's `window`.

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// The shell's `__agentChatSheet`, read once; `None` when no shell script set it.
    #[wasm_bindgen(thread_local_v2, js_name = __agentChatSheet)]
    static SHELL_SHEET: Option<String>;
}

/// The chat's first stylesheet as the shell carries it (tokens on the shadow host), or `None`
/// when the page has no shell script (the wasm loaded some other way than as built).
pub fn shell_sheet() -> Option<String> {
    SHELL_SHEET.with(Clone::clone)
}
