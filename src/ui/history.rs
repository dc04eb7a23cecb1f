//! `<ChatHistory/>`: the conversation list in the sidebar (mobile: a drawer).

use leptos::prelude::*;

use crate::core::{Command, ConversationListItem};
use crate::store::ChatStore;
use crate::ui::i18n::I18n;
use crate::ui::icons::{PlusIcon, TrashIcon, XIcon};

/// The history sidebar of the enclosing `Chat`: New Chat, conversations newest first, delete,
/// Load more. On small screens it is a drawer controlled by `open`.
#[component]
pub fn ChatHistory(
    /// Whether the mobile drawer is open (F105); desktop always shows the sidebar.
    #[prop(into)]
    open: Signal<bool>,
    /// Closes the mobile drawer (F106).
    on_close: Callback<()>,
) -> impl IntoView {
    let store = ChatStore::expect();
    let i18n = I18n::get();
    let selected = move || {
        store
            .status
            .with(|s| s.conversation.as_ref().map(|c| c.id.clone()))
    };
    let new_chat = move |_| {
        store.dispatch(Command::NewChat);
        on_close.run(());
    };
    let items = move || store.history.with(|h| h.items.clone());

    view! {
        <div
            class="chat-history__overlay"
            data-open=move || open.get().to_string()
            on:click=move |_| on_close.run(())
        ></div>
        <aside
            class="chat-history"
            data-open=move || open.get().to_string()
            aria-label=move || i18n.t("chat-history-title")
        >
            <div class="chat-history__header">
                <button type="button" class="chat-history__new" on:click=new_chat>
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
            <nav class="chat-history__list">
                <Show when=move || store.history.with(|h| h.items.is_empty() && !h.loading)>
                    <p class="chat-history__empty">{move || i18n.t("chat-history-no-conversations")}</p>
                </Show>
                <ul class="chat-history__items">
                    <For
                        each=items
                        key=|c| (c.id.clone(), c.title.clone(), c.updated_at)
                        children=move |item| view! { <HistoryRow item=item selected=Signal::derive(selected) on_close=on_close/> }
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
        </aside>
    }
}

#[component]
fn HistoryRow(
    item: ConversationListItem,
    selected: Signal<Option<String>>,
    on_close: Callback<()>,
) -> impl IntoView {
    let store = ChatStore::expect();
    let i18n = I18n::get();
    let id = item.id.clone();
    let id_sel = item.id.clone();
    let id_del = item.id.clone();
    let title = item.title.clone().filter(|t| !t.trim().is_empty());
    let updated = item.updated_at.or(item.created_at);
    let is_current = Signal::derive(move || selected.get().as_deref() == Some(id_sel.as_str()));
    view! {
        <li class="chat-history__item" data-selected=move || is_current.get().to_string() data-conversation-id=item.id.clone()>
            <button
                type="button"
                class="chat-history__select"
                aria-current=move || is_current.get().then_some("true")
                on:click=move |_| {
                    store.dispatch(Command::OpenConversation(id.clone()));
                    on_close.run(());
                }
            >
                <span class="chat-history__title">
                    {move || title.clone().unwrap_or_else(|| i18n.t("chat-history-new-chat"))}
                </span>
                <span class="chat-history__time">
                    {move || updated.map(|t| crate::ui::format::relative_time(&i18n, t)).unwrap_or_default()}
                </span>
            </button>
            <button
                type="button"
                class="chat-history__delete chat-icon-button"
                aria-label=move || i18n.t("chat-history-delete-conversation")
                on:click=move |_| store.dispatch(Command::DeleteConversation(id_del.clone()))
            >
                <TrashIcon/>
            </button>
        </li>
    }
}
