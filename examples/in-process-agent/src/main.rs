//! A Leptos app whose agent runs in the page: `<Chat/>` with no server at all (issue 15).
//!
//! The agent is the library's [`ScriptedAgent`]: it streams a sentence, lists a folder (a
//! tool call shown with its result) and pauses for approval to delete it; Approve or Deny
//! continues the turn. Start a message with "ask" and it asks a question instead. The
//! conversations are kept in `localStorage`, so a reload shows them in the history.
//!
//! Run it with `trunk serve --port 8082` in `examples/in-process-agent/`; nothing else is
//! needed. Write your own agent by implementing [`agent_chat_ui::Agent`] (see its docs).

#[cfg(target_arch = "wasm32")]
fn main() {
    leptos::mount::mount_to_body(app::App);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "in-process-agent-example runs in the browser: build it with trunk (see the file header)"
    );
}

#[cfg(target_arch = "wasm32")]
mod app {
    use agent_chat_ui::core::transport::{ThreadStoreKind, TransportOptions};
    use agent_chat_ui::{Chat, ScriptedAgent};
    use leptos::prelude::*;

    /// The whole app: the chat, its agent in the page.
    #[component]
    pub fn App() -> impl IntoView {
        let transport = TransportOptions {
            // The one agent the picker lists, and the thread store's place.
            agent_id: Some("cleaner".into()),
            thread_store: ThreadStoreKind::Local,
            ..TransportOptions::default()
        };
        view! {
            <div class="app">
                // `base_url` names the conversations' place in localStorage; nothing is fetched.
                <Chat base_url="in-page" transport=transport agent=ScriptedAgent::default()/>
            </div>
        }
    }
}
