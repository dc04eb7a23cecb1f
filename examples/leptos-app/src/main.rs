//! A Leptos app that mounts `<Chat/>` and replaces the built-in approval card with its own
//! (`render_tool_approval`), the way a product with its own design system would.
//!
//! Run it against the reference server: `cargo run -p dev-server -- --port 8080` in one shell,
//! then `trunk serve --port 8081` in `examples/leptos-app/` with `?baseUrl=` left at its
//! default (`http://127.0.0.1:8080/api/agents`).

#[cfg(target_arch = "wasm32")]
fn main() {
    leptos::mount::mount_to_body(app::App);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("leptos-app-example runs in the browser: build it with trunk (see the file header)");
}

#[cfg(target_arch = "wasm32")]
mod app {
    use agent_chat_ui::core::{approval_resolution, ActionKind, CardState};
    use agent_chat_ui::ui::cards::{CardOutcome, CardSlot, RenderCard};
    use agent_chat_ui::ui::i18n::I18n;
    use agent_chat_ui::{Chat, ChatSlots};
    use leptos::prelude::*;

    /// The reference server, as `cargo xtask demo` or `cargo run -p dev-server` starts it.
    const SERVER: &str = "http://127.0.0.1:8080/api/agents";

    /// The whole app: a title bar and the chat with the app's own approval card.
    #[component]
    pub fn App() -> impl IntoView {
        let approval =
            RenderCard::new(|card: CardSlot| view! { <CompactApproval card=card/> }.into_any());
        view! {
            <div class="app">
                <Chat
                    base_url=SERVER
                    agent_id="support"
                    show_history=false
                    slots=ChatSlots::default()
                        .render_tool_approval(approval)
                />
            </div>
        }
    }

    /// A one-line approval: tool name, Allow / Refuse (the library's Fluent strings, so it
    /// follows the chat's language), and the outcome once settled.
    #[component]
    fn CompactApproval(card: CardSlot) -> impl IntoView {
        let i18n = I18n::get();
        let CardSlot {
            action,
            state,
            read_only,
            resolve,
            ..
        } = card;
        let (tool, args) = match &action.kind {
            ActionKind::ToolApproval(a) => (a.tool_name.clone(), a.args.clone()),
            _ => (String::new(), serde_json::Value::Null),
        };
        let decide =
            move |allow: bool| resolve.run(approval_resolution(allow, &args, None, false, None));
        let deny = decide.clone();
        view! {
            <div class="compact-approval" role="group" aria-label=tool.clone()
                data-state=move || state.with(|s| s.as_str())>
                <strong>{tool.clone()}</strong>
                {move || match state.get() {
                    CardState::Settled(outcome) => view! { <CardOutcome outcome=outcome/> }.into_any(),
                    _ if read_only.get() => ().into_any(),
                    _ => {
                        let allow = decide.clone();
                        let deny = deny.clone();
                        view! {
                            <button type="button" on:click=move |_| allow(true)>{move || i18n.t("chat-demo-approve")}</button>
                            <button type="button" on:click=move |_| deny(false)>{move || i18n.t("chat-demo-deny")}</button>
                        }
                        .into_any()
                    }
                }}
            </div>
        }
    }
}
