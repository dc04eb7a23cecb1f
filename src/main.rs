//! The standalone page binary that Trunk builds (index.html). All logic is in the library.

fn main() {
    #[cfg(target_arch = "wasm32")]
    {
        console_error_panic_hook::set_once();
        agent_chat_ui::page::mount();
    }
}
