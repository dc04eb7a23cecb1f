//! `<Chat/>`: the full chat (history sidebar, header with agent picker, messages, composer).

use std::collections::HashMap;

use leptos::prelude::*;

use crate::core::transport::TransportOptions;
use crate::core::{ChatError, Chunk, Command, Message, SessionConfig, SessionOptions};
use crate::io::http::TransportConfig;
use crate::store::{ChatCallbacks, ChatStore};
use crate::ui::cards::ChatActions;
use crate::ui::chat_input::ChatInput;
use crate::ui::chunk::Lazy;
use crate::ui::find::{FindControl, FindToggle};
use crate::ui::first_draw::staged;
use crate::ui::history::{history_part, history_pending, preload_history, HistoryArgs};
use crate::ui::i18n::I18n;
use crate::ui::message_list::ChatMessageList;
use crate::ui::options::{CardOptions, ChatSlots, UploadOptions};
use crate::ui::slots::HeaderSlot;
use crate::ui::style::Styles;

/// Light or dark colours.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    /// Dark (default).
    #[default]
    Dark,
    /// Light: adds `.chat-theme-light`.
    Light,
}

impl Theme {
    /// Parses `light` / `dark` (anything else is dark).
    pub fn parse(s: &str) -> Theme {
        if s.eq_ignore_ascii_case("light") {
            Theme::Light
        } else {
            Theme::Dark
        }
    }

    /// `dark` or `light` (what [`Theme::parse`] reads back).
    pub fn as_str(self) -> &'static str {
        match self {
            Theme::Dark => "dark",
            Theme::Light => "light",
        }
    }
}

/// A complete chat bound to an agent server.
///
/// Talks to `base_url`, lists agents, keeps a history sidebar, streams replies.
#[component]
pub fn Chat(
    /// API root including the base path, e.g. `https://host/api/agents`. A signal's new
    /// value switches servers: the chat starts over there (the draft stays). Required.
    #[prop(into)]
    base_url: Signal<String>,
    /// Which backend is at `base_url`: the agent server (default), or an OpenAI
    /// Chat Completions server (`TransportKind::ChatCompletions`, with its `model`), whose
    /// conversations are kept in this page (`thread_store`). Cards are read-only on a
    /// backend that cannot take answers. Read at mount. Default: the agent server, with
    /// its conversations on the server.
    #[prop(optional)]
    transport: TransportOptions,
    /// An agent that runs in this page instead of a server: any
    /// [`crate::Agent`]. Given, the backend is the in-process one whatever `transport`'s kind
    /// says; its conversations are kept in `transport.thread_store` under `base_url` (any
    /// name), and its pauses are answerable cards. Read at mount. Default: none (a server).
    #[prop(optional, into)]
    agent: Option<crate::AgentHandle>,
    /// A thread store the host implements (`Some(HostThreads::new(my_store))`), for a backend
    /// without conversations of its own: it replaces `transport.thread_store`.
    /// Read at mount. Default: none (`transport.thread_store` is used).
    #[prop(default = None)]
    thread_storage: Option<crate::io::threads::HostThreads>,
    /// Agent to talk to; default: the first agent the server lists. A signal switches
    /// agents later, as the picker does (a new chat with that agent).
    #[prop(optional, into)]
    agent_id: MaybeProp<String>,
    /// Sent verbatim as the `Authorization` header. A signal's new value (a refreshed
    /// token) is used from the next request on. Default: none (no such header).
    #[prop(optional, into)]
    authorization: MaybeProp<String>,
    /// Extra headers on every request; reactive like `authorization`. Default: none.
    #[prop(optional, into)]
    headers: Signal<Vec<(String, String)>>,
    /// Stream replies over SSE or wait for one JSON reply. A signal's new value applies to
    /// the next message; a reply on its way keeps going. Default: `true` (streaming).
    #[prop(into, default = Signal::stored(true))]
    streaming: Signal<bool>,
    /// Conversation to open on mount. A signal opens another one later (`None`: a new
    /// chat); the chat's own navigation does not write it back (see the callback
    /// `on_conversation_change`). Default: none (a new chat).
    #[prop(optional, into)]
    conversation_id: MaybeProp<String>,
    /// Messages shown before (or without) a conversation: the starting list, replaced
    /// when a conversation opens and cleared by New Chat. Not sent to the server. Default:
    /// empty.
    #[prop(optional)]
    initial_messages: Vec<Message>,
    /// Show the history sidebar; switched on later, the history is loaded then. Default:
    /// `true`.
    #[prop(into, default = Signal::stored(true))]
    show_history: Signal<bool>,
    /// Start with the mobile history drawer open. Default: `false`.
    #[prop(optional)]
    default_history_open: bool,
    /// Colour theme; a signal switches it live, keeping the draft and the conversation.
    /// Default: [`Theme::Dark`].
    #[prop(optional, into)]
    theme: Signal<Theme>,
    /// Composer placeholder. Default: the locale's ("Type a message...").
    #[prop(optional, into)]
    input_placeholder: MaybeProp<String>,
    /// A search box over the conversation titles in the sidebar. Default: `false`.
    #[prop(optional, into)]
    enable_message_search: Signal<bool>,
    /// Follow new content while the reader is at the bottom. Default: `true`.
    #[prop(default = true)]
    auto_scroll: bool,
    /// Focus the composer on mount and after New Chat / opening a conversation. Default:
    /// `false`.
    #[prop(optional)]
    auto_focus_input: bool,
    /// Locale (`en`, `tr`, `ar`, or a tag like `tr-TR`). When given, the chat is
    /// controlled: it follows this prop (a signal switches every string and the direction
    /// live), ignores `?lang=` and refuses [`I18n::set_locale`]. When absent, `?lang=` of the
    /// page is used, then `default_locale`. Default: none (uncontrolled).
    #[prop(optional, into)]
    locale: MaybeProp<String>,
    /// Locale when neither `locale` nor a shipped `?lang=` says otherwise. Default: `en`.
    #[prop(optional, into)]
    default_locale: MaybeProp<String>,
    /// Show avatars beside messages. Default: `true`.
    #[prop(default = true)]
    show_avatars: bool,
    /// Show each message's local time, HH:MM. Default: `false`.
    #[prop(optional)]
    show_timestamps: bool,
    /// Show the "Sources" block under assistant messages that have citations. Default:
    /// `true`.
    #[prop(into, default = Signal::stored(true))]
    enable_citations: Signal<bool>,
    /// Replace any of the locale's messages by id (`chat-empty-title`...). Default: none.
    #[prop(optional)]
    custom_messages: HashMap<String, String>,
    /// Prefix the document title with "(N)" while the tab is hidden and N cards wait for this
    /// person. Off by default: the title belongs to the host page. A signal turns
    /// it on and off live.
    #[prop(optional, into)]
    attention_title: Signal<bool>,
    /// Colours by token: the React keys (`bgPrimary`, `accentPrimary`,...) or the
    /// `--chat-*` names; set on the root, so they win over the theme's defaults. Default:
    /// none.
    #[prop(optional)]
    theme_colors: Vec<(String, String)>,
    /// Extra classes for the root element. Default: none.
    #[prop(optional, into)]
    class: MaybeProp<String>,
    /// How approval and question cards behave (who may answer, argument editing, deadlines,
    /// the composer while a card waits). Default: [`CardOptions::default`].
    #[prop(optional)]
    cards: CardOptions,
    /// Attachments: on or off, accepted types, size and count limits. Default:
    /// [`UploadOptions::default`].
    #[prop(optional)]
    uploads: UploadOptions,
    /// Render overrides (header, sidebar parts, empty state, avatars, message actions,
    /// cards); handed on whole to the message list. Default: none, the built-in parts.
    #[prop(optional)]
    slots: ChatSlots,
    /// The `on_*` handlers (messages, errors, conversations, cards, the store once ready).
    /// Default: none.
    #[prop(optional)]
    callbacks: ChatCallbacks,
) -> impl IntoView {
    let i18n = I18n::provide_with(
        locale,
        default_locale,
        custom_messages,
        callbacks.on_locale_change,
    );
    let mut backend = TransportOptions {
        // A stateless backend lists one agent: the configured one, else the `agent_id` prop.
        agent_id: transport
            .agent_id
            .clone()
            .or_else(|| agent_id.get_untracked()),
        ..transport
    };
    let mut transport = TransportConfig::new(&base_url.get_untracked());
    backend.base_url = crate::io::http::absolute_url(&transport.base_url);
    if agent.is_some() {
        backend = backend.in_page();
    }
    transport.backend = backend;
    transport.agent = agent;
    transport.thread_storage = thread_storage;
    transport.authorization = authorization.get_untracked();
    transport.headers = headers.get_untracked();
    // The options as the props say now; the session follows them (issue 17).
    let options = Memo::new(move |_| SessionOptions {
        streaming: streaming.get(),
        show_history: show_history.get(),
        composer_mode: cards.composer_mode.get(),
        enable_tool_approvals: cards.enable_tool_approvals.get(),
        enable_questions: cards.enable_questions.get(),
        allow_argument_edit: cards.allow_argument_edit.get(),
        uploads: crate::core::UploadLimits {
            enabled: uploads.enabled.get(),
            allowed_types: uploads.allowed_types.get(),
            agent_types: Vec::new(),
            max_file_size: uploads.max_file_size.get(),
            max_files: uploads.max_files.get(),
        },
    });
    let config = SessionConfig {
        agent_id: agent_id.get_untracked(),
        conversation_id: conversation_id.get_untracked(),
        initial_messages,
        action_expiry_refresh_ms: cards.action_expiry_refresh_ms,
        read_only_args: cards.read_only_args,
        ..SessionConfig::default()
    }
    .with_options(options.get_untracked());
    let on_ready = callbacks.on_ready;
    let start_config = config.clone();
    let store = crate::store::use_chat(config, transport, callbacks);
    follow_props(store, authorization, headers, agent_id, conversation_id);
    // A language's texts that could not be fetched are a missing part like any other: the
    // banner and `on_error` say so, and their arrival clears it (D77).
    Effect::new(move |was_missing: Option<bool>| {
        let missing = i18n.is_missing();
        // Drawn in stages, the first screen's parts were asked for ahead: their failures are
        // said first, as a chat drawn at once said them, whichever answer came first.
        #[cfg(feature = "staged")]
        if missing && !crate::ui::chunk::ahead_settled() {
            return was_missing.unwrap_or(false);
        }
        if missing && was_missing != Some(true) {
            store.dispatch(Command::ReportError(ChatError::ChunkMissing(Chunk::Locale)));
        } else if !missing && was_missing == Some(true) {
            store.dispatch(Command::ChunkArrived(Chunk::Locale));
        }
        missing
    });
    Effect::new(move |first: Option<()>| {
        let now = options.get();
        if first.is_some() {
            store.dispatch(Command::SetOptions(now));
        }
    });
    // Another server: the session starts over there with the props as they are now.
    Effect::new(move |previous: Option<String>| {
        let url = base_url.get();
        if previous.is_some_and(|p| p != url) {
            let config = SessionConfig {
                agent_id: agent_id.get_untracked(),
                conversation_id: conversation_id.get_untracked(),
                initial_messages: Vec::new(),
                ..start_config.clone()
            }
            .with_options(options.get_untracked());
            store.switch_server(config, &url);
        }
        url
    });
    // Whether a card may be answered is the session's to say, and it follows the props: the
    // list's own switches stay open.
    let actions = ChatActions {
        expiry_warning_seconds: cards.expiry_warning_seconds,
        ..ChatActions::from_store(store)
    };
    if let Some(ready) = on_ready {
        ready.run(store);
    }
    crate::ui::attention_title::prefix_title(move || store.pending_count(), attention_title);
    let drawer_open = RwSignal::new(default_history_open);
    // Built again (and the header drawn again) only when the history is switched on or off.
    let header_slot = move || HeaderSlot {
        on_menu_click: show_history
            .get()
            .then(|| Callback::new(move |_| drawer_open.set(true))),
        agents: Signal::derive(move || store.status.with(|s| s.agents.clone())),
        selected_agent_id: Signal::derive(move || store.status.with(|s| s.agent_id.clone())),
        on_agent_change: Callback::new(move |id: String| store.dispatch(Command::SelectAgent(id))),
    };
    // No `style` attribute at all when no colour is set.
    let inline_style =
        Some(crate::core::theme::theme_colors_style(&theme_colors)).filter(|css| !css.is_empty());

    // Behind an instant shell the page draws its first screen over a few tasks (D96).
    #[cfg(feature = "staged")]
    let drawn = crate::ui::first_draw::start(show_history.get_untracked());
    let root_class = move || {
        let mut c = String::from("chat-root");
        if theme.get() == Theme::Light {
            c.push_str(" chat-theme-light");
        }
        // Hidden until its language's texts are here (D71) and its first screen is drawn
        // (D96).
        #[cfg(feature = "staged")]
        let waiting = !drawn.shown.get() || i18n.is_waiting();
        #[cfg(not(feature = "staged"))]
        let waiting = i18n.is_waiting();
        if waiting {
            c.push_str(" chat-root--waiting");
        }
        if let Some(extra) = class.get() {
            c.push(' ');
            c.push_str(&extra);
        }
        c
    };
    // The sidebar is one of the parts drawn in the third stage.
    #[cfg(feature = "staged")]
    let history_drawn = move || drawn.parts.get();
    #[cfg(not(feature = "staged"))]
    let history_drawn = || true;
    let run_state = move || store.status.with(|s| s.run.as_str());
    let lang = move || i18n.locale();
    let dir = move || {
        if crate::core::is_rtl(i18n.locale()) {
            "rtl"
        } else {
            "ltr"
        }
    };

    view! {
        <div class=root_class data-state=run_state lang=lang dir=dir style=inline_style>
            <Styles/>
            <div class="chat-layout">
                <Show when=move || show_history.get() && history_drawn()>
                    {
                        let args = HistoryArgs {
                            open: drawer_open.into(),
                            on_close: Callback::new(move |_| drawer_open.set(false)),
                            enable_search: enable_message_search,
                            header: slots.render_history_header,
                            footer: slots.render_history_footer,
                        };
                        let open = args.open;
                        view! {
                            <Lazy
                                chunk=Chunk::History
                                preload=preload_history
                                view=move || history_part(args.clone())
                                stand_in=move |notice| history_pending(open, notice)
                            />
                        }
                    }
                </Show>
                <main class="chat-main">
                    {staged!(drawn.parts, view! {
                        {move || {
                            let slot = header_slot();
                            untrack(|| {
                                slots
                                    .render_header
                                    .render(slot.clone())
                                    .unwrap_or_else(|| view! { <ChatHeader header=slot/> }.into_any())
                            })
                        }}
                        <ChatMessageList
                            actions=actions
                            auto_scroll=auto_scroll
                            slots=slots
                            show_avatars=show_avatars
                            show_timestamps=show_timestamps
                            enable_citations=enable_citations
                        />
                        <ErrorBanner/>
                    })}
                    {staged!(drawn.composer, view! {
                        <ChatInput placeholder=input_placeholder auto_focus=auto_focus_input/>
                    })}
                </main>
            </div>
        </div>
    }
}

/// Applies later changes of `Chat`'s server-facing props to its store: credentials from the
/// next request on, another agent or conversation opened. The first values are the store's
/// starting config, so the first run of each effect does nothing.
fn follow_props(
    store: ChatStore,
    authorization: MaybeProp<String>,
    headers: Signal<Vec<(String, String)>>,
    agent_id: MaybeProp<String>,
    conversation_id: MaybeProp<String>,
) {
    Effect::new(move |first: Option<()>| {
        let token = authorization.get();
        let extra = headers.get();
        if first.is_some() {
            store.set_credentials(token, extra);
        }
    });
    Effect::new(move |previous: Option<Option<String>>| {
        let id = agent_id.get();
        if let (Some(before), Some(id)) = (previous, id.clone()) {
            let current = store.status.with_untracked(|s| s.agent_id.clone());
            if before.as_ref() != Some(&id) && current.as_ref() != Some(&id) {
                store.dispatch(Command::SelectAgent(id));
            }
        }
        id
    });
    Effect::new(move |previous: Option<Option<String>>| {
        let id = conversation_id.get();
        if let Some(before) = previous {
            if before != id {
                let open = store
                    .status
                    .with_untracked(|s| s.conversation.as_ref().map(|c| c.id.clone()));
                match &id {
                    Some(id) if open.as_ref() != Some(id) => {
                        store.dispatch(Command::OpenConversation(id.clone()))
                    }
                    None if open.is_some() => store.dispatch(Command::NewChat),
                    _ => {}
                }
            }
        }
        id
    });
}

/// `ChatMinimal`: a [`Chat`] with the history sidebar forced off, for a chat that lives
/// in a panel or a widget.
///
/// It takes exactly `Chat`'s props (the same [`ChatProps`], so every prop documented there,
/// and every one added later, works here too); `show_history` is ignored: no sidebar, no menu
/// button and no history requests.
///
/// ```no_run
/// use agent_chat_ui::{ChatMinimal, Theme};
/// use leptos::prelude::*;
///
/// #[component]
/// fn HelpWidget() -> impl IntoView {
///     view! { <ChatMinimal base_url="/api/agents" agent_id="support" theme=Theme::Light/> }
/// }
/// ```
#[allow(non_snake_case)]
pub fn ChatMinimal(props: ChatProps) -> impl IntoView {
    Chat(ChatProps {
        show_history: Signal::stored(false),
        ..props
    })
}

/// The default header of a [`Chat`]: the mobile menu button, the title and the agent
/// picker, then `children` (extra controls at the end). A `render_header` may return it
/// to add controls while keeping the rest; it must be drawn inside a `Chat`.
#[component]
pub fn ChatHeader(
    /// What `render_header` was given; the menu button shows when `on_menu_click` is set.
    header: HeaderSlot,
    /// Extra controls after the agent picker.
    #[prop(optional)]
    children: Option<Children>,
) -> impl IntoView {
    let store = ChatStore::expect();
    let i18n = I18n::get();
    let on_menu = header.on_menu_click;
    let show_menu = on_menu.is_some();
    let title = move || {
        store.status.with(|s| {
            let agent = s
                .agent_id
                .as_ref()
                .and_then(|id| s.agents.iter().find(|a| &a.id == id));
            agent
                .map(|a| a.name.clone())
                .or_else(|| (s.agents.len() == 1).then(|| s.agents[0].name.clone()))
                .or_else(|| s.conversation.as_ref().and_then(|c| c.title.clone()))
                .unwrap_or_else(|| i18n.t("chat-history-new-chat"))
        })
    };
    view! {
        <header class="chat-header" part="header">
            <Show when=move || show_menu>
                <button
                    type="button"
                    class="chat-header__menu chat-icon-button"
                    aria-label=move || i18n.t("chat-header-menu")
                    on:click=move |_| {
                        if let Some(cb) = on_menu {
                            cb.run(());
                        }
                    }
                >
                    <crate::ui::icons::MenuIcon/>
                </button>
            </Show>
            <h1 class="chat-header__title">{title}</h1>
            // Both wait for what comes after the first frame anyway (the agent list, the
            // messages), so they are drawn by the messages' part (D72).
            <Lazy
                chunk=Chunk::Messages
                preload=preload_agent_picker
                view=agent_picker_part
                stand_in=nothing_yet
            />
            // Find in the conversation (D58): here rather than over the messages.
            {use_context::<FindControl>().map(|control| view! {
                <Lazy
                    chunk=Chunk::Messages
                    preload=preload_find_toggle
                    view=move || find_toggle_part(control)
                    stand_in=nothing_yet
                />
            })}
            {children.map(|c| c())}
        </header>
    }
}

/// In the header, in place of a part on its way: nothing (the list says if it failed).
fn nothing_yet(_notice: Option<AnyView>) -> AnyView {
    ().into_any()
}

crate::io::split::split_point!(
    messages,
    preload_agent_picker,
    /// The header's [`AgentPicker`], in the messages' part.
    fn agent_picker_part() -> AnyView {
        view! { <AgentPicker/> }.into_any()
    }
);

crate::io::split::split_point!(
    messages,
    preload_find_toggle,
    /// The header's find button, in the messages' part.
    fn find_toggle_part(control: FindControl) -> AnyView {
        view! { <FindToggle control=control docked=true/> }.into_any()
    }
);

/// The agent picker: shown with more than one agent while the chat is empty and idle.
#[component]
fn AgentPicker() -> impl IntoView {
    crate::ui::style::use_part_style(crate::ui::style::MESSAGES_CSS);
    let store = ChatStore::expect();
    let i18n = I18n::get();
    let open = RwSignal::new(false);
    let visible = move || {
        let empty = store.messages.with(|m| m.is_empty());
        store
            .status
            .with(|s| s.agents.len() > 1 && s.run == crate::core::Run::Idle)
            && empty
    };
    let current = move || {
        store
            .status
            .with(|s| s.agent_id.clone().unwrap_or_default())
    };
    let pick = move |id: String| {
        open.set(false);
        store.dispatch(Command::SelectAgent(id));
    };
    view! {
        <Show when=visible>
            <div
                class="chat-agent-picker"
                on:focusout=move |ev: leptos::ev::FocusEvent| {
                    // Close when focus leaves the picker (outside click or Tab away).
                    let leaving = ev
                        .related_target()
                        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Node>(t).ok())
                        .is_none_or(|t| {
                            let cur = ev.current_target().and_then(|c| wasm_bindgen::JsCast::dyn_into::<web_sys::Node>(c).ok());
                            !cur.is_some_and(|c| c.contains(Some(&t)))
                        });
                    if leaving { open.set(false); }
                }
                on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                    if ev.key() == "Escape" { open.set(false); }
                }
            >
                <button
                    type="button"
                    class="chat-agent-picker__toggle"
                    aria-haspopup="true"
                    aria-expanded=move || open.get().to_string()
                    on:click=move |_| open.update(|o| *o = !*o)
                >
                    <span class="chat-agent-picker__label">{move || i18n.t("chat-header-change-agent")}</span>
                    <crate::ui::icons::ChevronDownIcon/>
                </button>
                <Show when=move || open.get()>
                    <div class="chat-agent-picker__menu" role="menu" aria-label=move || i18n.t("chat-header-select-agent")>
                        // Not a keyed `For`: a handful of agents, changed rarely, and the
                        // keyed diff then stays out of the first download (D72).
                        {move || {
                            store
                                .status
                                .with(|s| s.agents.clone())
                                .into_iter()
                                .map(|agent| {
                                    let id = agent.id.clone();
                                    let id_attr = agent.id.clone();
                                    let id_cur = agent.id.clone();
                                    view! {
                                        <button
                                            type="button"
                                            role="menuitemradio"
                                            class="chat-agent-picker__option"
                                            data-agent-id=id_attr
                                            aria-checked=move || (current() == id_cur).to_string()
                                            on:click=move |_| pick(id.clone())
                                        >
                                            <span class="chat-agent-picker__name">{agent.name.clone()}</span>
                                            {agent.description.clone().map(|d| view! {
                                                <span class="chat-agent-picker__description">{d}</span>
                                            })}
                                        </button>
                                    }
                                })
                                .collect_view()
                        }}
                    </div>
                </Show>
            </div>
        </Show>
    }
}

/// The error banner above the composer, with Dismiss.
#[component]
fn ErrorBanner() -> impl IntoView {
    let store = ChatStore::expect();
    let i18n = I18n::get();
    let text = move || {
        store
            .status
            .with(|s| s.error.as_ref().map(|e| i18n.error(e)))
    };
    // The server's own words under the page's sentence, when that sentence replaced them.
    let detail = move || {
        store
            .status
            .with(|s| s.error.as_ref().and_then(|e| i18n.error_detail(e)))
    };
    view! {
        <Show when=move || text().is_some()>
            <div class="chat-error" role="alert">
                <crate::ui::icons::AlertIcon/>
                <span class="chat-error__text">
                    {move || text().unwrap_or_default()}
                    {move || detail().map(|d| view! { <span class="chat-error__detail" dir="auto">{d}</span> })}
                </span>
                <button
                    type="button"
                    class="chat-error__dismiss"
                    on:click=move |_| store.dispatch(Command::DismissError)
                >
                    {move || i18n.t("chat-error-dismiss")}
                </button>
            </div>
        </Show>
    }
}
