//! Providers for hosts that build their own layout from the parts:
//! [`ChatProvider`] shares one [`ChatStore`] with everything inside it, [`ChatThemeProvider`]
//! themes everything inside it. Both are optional: `<Chat/>` brings its own store and theme.
//!
//! ```no_run
//! use agent_chat_ui::core::theme::get_theme_preset;
//! use agent_chat_ui::core::SessionConfig;
//! use agent_chat_ui::io::http::TransportConfig;
//! use agent_chat_ui::ui::chat_input::ChatInput;
//! use agent_chat_ui::ui::message_list::ChatMessageList;
//! use agent_chat_ui::ui::{ChatProvider, ChatThemeProvider};
//! use leptos::prelude::*;
//!
//! #[component]
//! fn MyChat() -> impl IntoView {
//!     let nord = get_theme_preset("nord").map(|p| p.theme()).unwrap_or_default();
//!     view! {
//!         <ChatThemeProvider theme=nord>
//!             <ChatProvider config=SessionConfig::default() transport=TransportConfig::new("/api/agents")>
//!                 <ChatMessageList/>
//!                 <ChatInput/>
//!             </ChatProvider>
//!         </ChatThemeProvider>
//!     }
//! }
//! ```

use leptos::prelude::*;

use crate::core::theme::{default_dark_theme, default_light_theme, ChatTheme, ThemeMode};
use crate::core::SessionConfig;
use crate::io::http::TransportConfig;
use crate::store::{use_chat, ChatCallbacks, ChatStore};
use crate::ui::style::Styles;

/// Creates one chat controller ([`use_chat`]) and shares it with its children: any
/// `ChatMessageList`, `ChatInput`, `ChatHistory` or [`use_chat_context`] inside uses it.
#[component]
pub fn ChatProvider(
    /// What to talk to and how (agent, conversation, streaming, card settings). Required.
    config: SessionConfig,
    /// Server address and headers. Required.
    transport: TransportConfig,
    /// The handlers, the same struct as `<Chat/>`'s `callbacks` (`on_locale_change` aside: a
    /// provider has no locale of its own). Default: none.
    #[prop(optional)]
    callbacks: ChatCallbacks,
    /// The parts that share the controller.
    children: Children,
) -> impl IntoView {
    let on_ready = callbacks.on_ready;
    // `use_chat` provides the store as context for everything created below this point.
    let store = use_chat(config, transport, callbacks);
    if let Some(ready) = on_ready {
        ready.run(store);
    }
    children()
}

/// The controller of the nearest [`ChatProvider`] (or `<Chat/>`).
///
/// # Panics
/// Outside a provider, with a message naming the fix, like React's `useChatContext`. Use
/// [`use_chat_context_optional`] where a provider may be absent.
#[must_use]
pub fn use_chat_context() -> ChatStore {
    use_context::<ChatStore>()
        .expect("use_chat_context() must be called inside <ChatProvider> or <Chat>")
}

/// The controller of the nearest provider, or `None`.
#[must_use]
pub fn use_chat_context_optional() -> Option<ChatStore> {
    use_context::<ChatStore>()
}

/// The theme of the nearest [`ChatThemeProvider`] and a way to change it.
#[derive(Clone, Copy, Debug)]
pub struct ChatThemeContext {
    /// The complete theme in force.
    pub theme: Signal<ChatTheme>,
    set: WriteSignal<ChatTheme>,
}

impl ChatThemeContext {
    /// Merges `partial` over the theme: what it sets wins, colours key-wise (React's
    /// `setTheme(partial)`). Switching `mode` also switches the default colours underneath.
    pub fn set_theme(&self, partial: ChatTheme) {
        self.set.update(|t| {
            if let Some(mode) = partial.mode {
                if Some(mode) != t.mode {
                    // The old mode's default colours must not survive a mode switch; colours
                    // the host set on purpose (anything that differs from the old defaults) do.
                    let old_defaults = defaults_for(t.mode_or_default());
                    let mut kept = ChatTheme::default();
                    for (var, value) in t.colors.vars() {
                        let was_default = old_defaults
                            .colors
                            .vars()
                            .iter()
                            .any(|(v, d)| *v == var && *d == value);
                        if !was_default {
                            kept.colors.set(var, value);
                        }
                    }
                    let mut next = defaults_for(mode);
                    next.merge(&ChatTheme {
                        mode: None,
                        colors: kept.colors,
                        ..t.clone()
                    });
                    *t = next;
                }
            }
            t.merge(&partial);
        });
    }
}

fn defaults_for(mode: ThemeMode) -> ChatTheme {
    match mode {
        ThemeMode::Dark => default_dark_theme(),
        ThemeMode::Light => default_light_theme(),
    }
}

/// Themes its children: a full-size `.chat-root.chat-theme-root` box (plus
/// `.chat-theme-light` in light mode) carrying the theme's `--chat-*` variables inline, with
/// the stylesheet, so parts used outside `<Chat/>` look like the chat.
#[component]
pub fn ChatThemeProvider(
    /// Partial theme over the defaults of its mode.
    #[prop(optional)]
    theme: ChatTheme,
    /// The mode when `theme` sets none (default dark).
    #[prop(optional)]
    default_mode: ThemeMode,
    /// Extra classes for the box.
    #[prop(optional, into)]
    class: MaybeProp<String>,
    /// What to theme.
    children: Children,
) -> impl IntoView {
    let mode = theme.mode.unwrap_or(default_mode);
    let mut full = defaults_for(mode);
    full.merge(&theme);
    full.mode = Some(mode);
    let (get, set) = signal(full);
    provide_context(ChatThemeContext {
        theme: get.into(),
        set,
    });
    let class = move || {
        let mut c = String::from("chat-root chat-theme-root");
        if get.with(|t| t.mode_or_default() == ThemeMode::Light) {
            c.push_str(" chat-theme-light");
        }
        if let Some(extra) = class.get() {
            c.push(' ');
            c.push_str(&extra);
        }
        c
    };
    let style = move || get.with(ChatTheme::inline_style);
    view! {
        <div class=class style=style data-theme=move || get.with(|t| t.mode_or_default().as_str())>
            <Styles/>
            {children()}
        </div>
    }
}

/// The nearest [`ChatThemeProvider`]'s theme.
///
/// # Panics
/// Outside a `ChatThemeProvider`; use [`use_chat_theme_optional`] where it may be absent.
#[must_use]
pub fn use_chat_theme() -> ChatThemeContext {
    use_context::<ChatThemeContext>()
        .expect("use_chat_theme() must be called inside <ChatThemeProvider>")
}

/// The nearest [`ChatThemeProvider`]'s theme, or `None`.
#[must_use]
pub fn use_chat_theme_optional() -> Option<ChatThemeContext> {
    use_context::<ChatThemeContext>()
}
