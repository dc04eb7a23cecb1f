//! `<ChatHistory/>`: the conversation list in the sidebar (mobile: a drawer).

use leptos::html::{Button, Input};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::core::{Command, ConversationListItem};
use crate::store::ChatStore;
use crate::ui::i18n::I18n;
use crate::ui::icons::{PlusIcon, TrashIcon, XIcon};
use crate::ui::slots::RenderProp;

/// The history sidebar of the enclosing `Chat`: New Chat, search, conversations newest first,
/// rename, delete, Load more. On small screens it is a drawer controlled by `open`.
///
/// Search filters the rows already loaded, case-insensitively by title; an untitled conversation
/// matches as "New Chat" in the chat's language. It does not ask the server (`GET /conversations`
/// has no title filter): "Load more" stays offered while searching, and what it brings in is
/// filtered too. Escape in the field, or the clear button, empties it.
///
/// Rename: the pencil beside the bin turns the row into a text field; Enter or leaving the
/// field saves, Escape cancels. Both row buttons show on hover and on keyboard focus.
#[component]
pub fn ChatHistory(
    /// Whether the mobile drawer is open; desktop always shows the sidebar.
    #[prop(into)]
    open: Signal<bool>,
    /// Show the search field above the list. On by default here; the React library's
    /// default is off.
    #[prop(into, default = Signal::stored(true))]
    enable_search: Signal<bool>,
    /// Closes the mobile drawer.
    on_close: Callback<()>,
    /// Replaces the sidebar's top (New Chat and the drawer's close button).
    #[prop(optional, into)]
    header: RenderProp<()>,
    /// Drawn at the bottom of the sidebar.
    #[prop(optional, into)]
    footer: RenderProp<()>,
    /// Extra classes on the sidebar.
    #[prop(optional, into)]
    class: MaybeProp<String>,
) -> impl IntoView {
    // Its rules come with it (D79).
    crate::ui::style::use_part_style(crate::ui::style::HISTORY_CSS);
    let store = ChatStore::expect();
    let i18n = I18n::get();
    let query = RwSignal::new(String::new());
    let editing = RwSignal::new(None::<String>);
    let search_input = NodeRef::<Input>::new();
    let new_button = NodeRef::<Button>::new();

    let selected = Signal::derive(move || {
        store
            .status
            .with(|s| s.conversation.as_ref().map(|c| c.id.clone()))
    });
    let searching = move || enable_search.get() && !query.with(|q| q.trim().is_empty());
    // Ids of the rows to show, in list order. Rows are keyed by id and read their own data,
    // so a rename or a new time redraws one row and keeps focus where it is.
    let visible = Memo::new(move |_| {
        let needle = if enable_search.get() {
            query.with(|q| crate::ui::format::lower(q.trim()))
        } else {
            String::new()
        };
        let untitled = crate::ui::format::lower(&i18n.t("chat-history-new-chat"));
        store.history.with(|h| {
            h.items
                .iter()
                .filter(|c| needle.is_empty() || matches_search(c, &needle, &untitled))
                .map(|c| c.id.clone())
                .collect::<Vec<_>>()
        })
    });
    let no_match = move || {
        searching()
            && visible.with(Vec::is_empty)
            && store.history.with(|h| !h.items.is_empty() && !h.loading)
    };

    let new_chat = move |_| {
        store.dispatch(Command::NewChat);
        on_close.run(());
    };
    let clear_search = move || {
        query.set(String::new());
        if let Some(input) = search_input.get_untracked() {
            input.set_value("");
        }
    };
    // After a delete the row is gone: focus the next row, else the previous, else New Chat.
    let focus_after_delete = Callback::new(move |row: Option<web_sys::Element>| {
        let target = row.and_then(|li| {
            let next = li
                .next_element_sibling()
                .or_else(|| li.previous_element_sibling())?;
            next.query_selector(".chat-history__select").ok().flatten()
        });
        request_animation_frame(move || {
            let target = target
                .filter(|t| t.is_connected())
                .or_else(|| new_button.get_untracked().map(|b| b.unchecked_into()));
            if let Some(el) = target.and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()) {
                let _ = el.focus();
            }
        });
    });

    view! {
        <div
            class="chat-history__overlay"
            data-open=move || open.get().to_string()
            on:click=move |_| on_close.run(())
        ></div>
        <aside
            class=move || crate::utils::cn(["chat-history", class.get().as_deref().unwrap_or("")])
            part="history"
            data-open=move || open.get().to_string()
            aria-label=move || i18n.t("chat-history-title")
        >
            {match header.render(()) {
                Some(custom) => view! {
                    <div class="chat-history__header chat-history__header--custom">{custom}</div>
                }
                .into_any(),
                None => view! {
                    <div class="chat-history__header">
                        <button type="button" class="chat-history__new" node_ref=new_button on:click=new_chat>
                            <PlusIcon/>
                            <span>{move || i18n.t("chat-history-new-chat")}</span>
                        </button>
                        <button
                            type="button"
                            class="chat-history__close chat-icon-button"
                            aria-label=move || i18n.t("chat-history-close")
                            on:click=move |_| on_close.run(())
                        >
                            <XIcon/>
                        </button>
                    </div>
                }
                .into_any(),
            }}
            <Show when=move || enable_search.get()>
                <div class="chat-history__search" role="search">
                    <SearchIcon/>
                    <input
                        type="search"
                        class="chat-history__search-input"
                        node_ref=search_input
                        placeholder=move || i18n.t("chat-history-search-placeholder")
                        aria-label=move || i18n.t("chat-history-search-label")
                        autocomplete="off"
                        spellcheck="false"
                        prop:value=move || query.get()
                        on:input=move |ev| query.set(event_target_value(&ev))
                        on:keydown=move |ev| {
                            if ev.key() == "Escape" && !query.with_untracked(String::is_empty) {
                                ev.prevent_default();
                                ev.stop_propagation();
                                clear_search();
                            }
                        }
                    />
                    <Show when=move || !query.with(String::is_empty)>
                        <button
                            type="button"
                            class="chat-history__clear chat-icon-button"
                            aria-label=move || i18n.t("chat-history-clear-search")
                            on:click=move |_| {
                                clear_search();
                                if let Some(input) = search_input.get_untracked() {
                                    let _ = input.focus();
                                }
                            }
                        >
                            <XIcon/>
                        </button>
                    </Show>
                </div>
            </Show>
            <nav class="chat-history__list" aria-label=move || i18n.t("chat-history-title")>
                <Show when=move || store.history.with(|h| h.items.is_empty() && !h.loading)>
                    <p class="chat-history__empty">{move || i18n.t("chat-history-no-conversations")}</p>
                </Show>
                <Show when=no_match>
                    <p class="chat-history__empty chat-history__no-match" role="status">
                        {move || i18n.t("chat-history-no-matching-conversations")}
                    </p>
                </Show>
                <ul class="chat-history__items">
                    <For
                        each=move || visible.get()
                        key=|id| id.clone()
                        children=move |id| view! {
                            <HistoryRow
                                id=id
                                selected=selected
                                editing=editing
                                on_close=on_close
                                on_deleted=focus_after_delete
                            />
                        }
                    />
                </ul>
                <Show when=move || store.history.with(|h| h.loading)>
                    <div class="chat-dots chat-history__loading" aria-label=move || i18n.t("chat-history-loading")>
                        <span></span><span></span><span></span>
                    </div>
                </Show>
                <Show when=move || store.history.with(|h| h.has_more && !h.loading)>
                    <button
                        type="button"
                        class="chat-history__more"
                        on:click=move |_| store.dispatch(Command::LoadMoreHistory)
                    >
                        {move || i18n.t("chat-history-load-more")}
                    </button>
                </Show>
            </nav>
            {footer.render(()).map(|f| view! { <div class="chat-history__footer">{f}</div> })}
        </aside>
    }
}

/// One conversation: the select button (or the rename field), then rename and delete.
#[component]
fn HistoryRow(
    id: String,
    selected: Signal<Option<String>>,
    /// Id of the row being renamed; one at a time.
    editing: RwSignal<Option<String>>,
    on_close: Callback<()>,
    /// Called with the row's `<li>` after a delete was dispatched (to move focus on).
    on_deleted: Callback<Option<web_sys::Element>>,
) -> impl IntoView {
    let store = ChatStore::expect();
    let i18n = I18n::get();
    let rename_button = NodeRef::<Button>::new();
    let field = NodeRef::<Input>::new();

    let item = {
        let id = id.clone();
        Memo::new(move |_| {
            store
                .history
                .with(|h| h.items.iter().find(|c| c.id == id).cloned())
        })
    };
    let title = move || {
        item.with(|i| {
            i.as_ref()
                .and_then(|i| i.title.clone())
                .filter(|t| !t.trim().is_empty())
        })
    };
    let title_untracked = move || {
        item.with_untracked(|i| {
            i.as_ref()
                .and_then(|i| i.title.clone())
                .filter(|t| !t.trim().is_empty())
        })
        .unwrap_or_default()
    };
    let shown_title = move || title().unwrap_or_else(|| i18n.t("chat-history-new-chat"));
    let updated = move || item.with(|i| i.as_ref().and_then(|i| i.updated_at.or(i.created_at)));
    let is_current = {
        let id = id.clone();
        Signal::derive(move || selected.with(|s| s.as_deref() == Some(id.as_str())))
    };
    let is_editing = {
        let id = id.clone();
        Signal::derive(move || editing.with(|e| e.as_deref() == Some(id.as_str())))
    };

    // Ends editing once (Enter, Escape and the blur that follows both land here).
    let finish = {
        let id = id.clone();
        move |save: bool, refocus: bool| {
            if !is_editing.get_untracked() {
                return;
            }
            let text = field.get_untracked().map(|f| f.value()).unwrap_or_default();
            editing.set(None);
            let text = text.trim().to_string();
            if save && !text.is_empty() && Some(text.as_str()) != title().as_deref() {
                store.dispatch(Command::RenameConversation {
                    id: id.clone(),
                    title: text,
                });
            }
            if refocus {
                crate::ui::focus_later(rename_button);
            }
        }
    };
    let start_editing = {
        let id = id.clone();
        move |_| {
            editing.set(Some(id.clone()));
            request_animation_frame(move || {
                if let Some(f) = field.get_untracked() {
                    let _ = f.focus();
                    f.select();
                }
            });
        }
    };
    let open_it = {
        let id = id.clone();
        move |_| {
            store.select_conversation(&id);
            on_close.run(());
        }
    };
    let delete = {
        let id = id.clone();
        move |ev: leptos::ev::MouseEvent| {
            let row = ev
                .current_target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .and_then(|b| b.closest("li").ok().flatten());
            store.dispatch(Command::DeleteConversation(id.clone()));
            on_deleted.run(row);
        }
    };
    let finish_key = finish.clone();
    let finish_blur = finish;

    view! {
        <li
            class="chat-history__item"
            data-selected=move || is_current.get().to_string()
            data-editing=move || is_editing.get().to_string()
            data-conversation-id=id.clone()
        >
            <Show
                when=move || is_editing.get()
                fallback=move || view! {
                    <button
                        type="button"
                        class="chat-history__select"
                        aria-current=move || is_current.get().then_some("true")
                        on:click=open_it.clone()
                    >
                        <span class="chat-history__title" dir="auto">{shown_title}</span>
                        <span class="chat-history__time">
                            {move || updated().map(|t| crate::ui::format::relative_time(&i18n, t)).unwrap_or_default()}
                        </span>
                    </button>
                }
            >
                <input
                    type="text"
                    class="chat-history__rename-input"
                    node_ref=field
                    dir="auto"
                    value=title_untracked()
                    placeholder=move || i18n.t("chat-history-new-chat")
                    aria-label=move || i18n.t("chat-history-rename-title")
                    autocomplete="off"
                    on:keydown={
                        let finish = finish_key.clone();
                        move |ev: leptos::ev::KeyboardEvent| match ev.key().as_str() {
                            "Enter" => {
                                ev.prevent_default();
                                finish(true, true);
                            }
                            "Escape" => {
                                ev.prevent_default();
                                ev.stop_propagation();
                                finish(false, true);
                            }
                            _ => {}
                        }
                    }
                    on:blur={
                        let finish = finish_blur.clone();
                        move |_| finish(true, false)
                    }
                />
            </Show>
            <Show when=move || !is_editing.get()>
                <button
                    type="button"
                    class="chat-history__rename chat-history__action chat-icon-button"
                    node_ref=rename_button
                    aria-label=move || i18n.t("chat-history-rename-conversation")
                    title=move || i18n.t("chat-history-rename-conversation")
                    on:click=start_editing.clone()
                >
                    <PencilIcon/>
                </button>
                <button
                    type="button"
                    class="chat-history__delete chat-history__action chat-icon-button"
                    aria-label=move || i18n.t("chat-history-delete-conversation")
                    title=move || i18n.t("chat-history-delete-conversation")
                    on:click=delete.clone()
                >
                    <TrashIcon/>
                </button>
            </Show>
        </li>
    }
}

/// Pencil (rename).
#[component]
fn PencilIcon() -> impl IntoView {
    view! {
        <svg class="chat-icon" viewBox="0 0 24 24" width="16" height="16" fill="none"
            stroke="currentColor" stroke-width="2" stroke-linecap="round"
            stroke-linejoin="round" aria-hidden="true" focusable="false">
            <path d={"M12 20h9"}></path>
            <path d={"M16.5 3.5a2.12 2.12 0 0 1 3 3L7 19l-4 1 1-4z"}></path>
        </svg>
    }
}

/// Magnifying glass (search field).
#[component]
fn SearchIcon() -> impl IntoView {
    view! {
        <svg class="chat-icon chat-history__search-icon" viewBox="0 0 24 24" width="16" height="16"
            fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"
            stroke-linejoin="round" aria-hidden="true" focusable="false">
            <path d={"M11 4a7 7 0 1 0 0 14 7 7 0 0 0 0-14z"}></path>
            <path d={"m21 21-4.35-4.35"}></path>
        </svg>
    }
}

/// The history search: case-insensitive title match; an untitled row matches as "New Chat"
/// (`untitled`, already lower-case, as is `needle`).
fn matches_search(item: &ConversationListItem, needle: &str, untitled: &str) -> bool {
    match item.title.as_deref().filter(|t| !t.trim().is_empty()) {
        Some(t) => crate::ui::format::lower(t).contains(needle),
        None => untitled.contains(needle),
    }
}

/// What the chat gives its history sidebar (the props of [`ChatHistory`] it sets).
#[derive(Clone)]
pub(crate) struct HistoryArgs {
    /// [`ChatHistory`]'s `open`.
    pub open: Signal<bool>,
    /// [`ChatHistory`]'s `on_close`.
    pub on_close: Callback<()>,
    /// [`ChatHistory`]'s `enable_search`.
    pub enable_search: Signal<bool>,
    /// [`ChatHistory`]'s `header`.
    pub header: RenderProp<()>,
    /// [`ChatHistory`]'s `footer`.
    pub footer: RenderProp<()>,
}

crate::io::split::split_point!(
    history,
    preload_history,
    /// The chat's history sidebar, a part fetched the first time it is shown.
    pub(crate) fn history_part(args: HistoryArgs) -> AnyView {
        view! {
            <ChatHistory
                open=args.open
                on_close=args.on_close
                enable_search=args.enable_search
                header=args.header
                footer=args.footer
            />
        }
        .into_any()
    }
);

/// The sidebar while its part is on its way: the same box, busy, so the layout does not move;
/// or, when the part could not be fetched, the `notice` in that box.
pub(crate) fn history_pending(open: Signal<bool>, notice: Option<AnyView>) -> AnyView {
    let i18n = I18n::get();
    let busy = notice.is_none();
    let body = notice.unwrap_or_else(|| {
        view! { <p class="chat-history__empty">{move || i18n.t("chat-history-loading")}</p> }
            .into_any()
    });
    view! {
        <aside
            class="chat-history"
            part="history"
            data-open=move || open.get().to_string()
            aria-busy=busy.then_some("true")
            aria-label=move || i18n.t("chat-history-title")
        >
            {body}
        </aside>
    }
    .into_any()
}
