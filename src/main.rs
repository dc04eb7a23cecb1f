//! The standalone page binary that Trunk builds (index.html). All logic is in the library.

fn main() {
    #[cfg(target_arch = "wasm32")]
    {
        console_error_panic_hook::set_once();
        // The wasm linear memory, for `cargo xtask bench` to report its size (issue 18).
        if let Some(window) = web_sys::window() {
            let _ = js_sys::Reflect::set(
                &window,
                &"__agentChatMemory".into(),
                &wasm_bindgen::memory(),
            );
        }
        agent_chat_ui::page::mount();
    }
}
