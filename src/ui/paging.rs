//! Paging back through a long conversation: the "older messages" row at the top of
//! the message list and older pages loaded as the reader nears the top. The view is kept still
//! when they are prepended by the list's window (`ui::window`).

use leptos::html::Div;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::core::Command;
use crate::store::ChatStore;
use crate::ui::i18n::I18n;

/// Within this distance (px) of the top of the list the next older page is requested, so it
/// is usually there before the reader gets to the top.
pub(crate) const LOAD_OLDER_PX: i32 = 600;

/// Scroll bookkeeping of one message list: created by `ChatMessageList`, fed its scroll
/// events, and watching the store for prepended pages.
#[derive(Clone, Copy)]
pub(crate) struct Paging {
    scroller: NodeRef<Div>,
    first_id: StoredValue<Option<String>>,
}

impl Paging {
    /// Bookkeeping for the list scrolled by `scroller`; installs the effects that load more
    /// when the list does not fill its box, or is still near the top after a prepend.
    pub(crate) fn new(scroller: NodeRef<Div>, store: ChatStore) -> Self {
        let paging = Paging {
            scroller,
            first_id: StoredValue::new(None),
        };
        // A prepend: the first message changed while the old first one is still there.
        Effect::new(move |_| {
            let first = store.messages.with(|m| m.first().map(|m| m.id.clone()));
            let previous = paging.first_id.get_value();
            paging.first_id.set_value(first.clone());
            let (Some(previous), Some(first)) = (previous, first) else {
                return;
            };
            if previous == first
                || !store
                    .messages
                    .with_untracked(|m| m.iter().any(|m| m.id == previous))
            {
                return;
            }
            // Two frames on: the list has drawn the page (its window is a memo away from the
            // messages) and kept the view (in the frame after, D58), so the offset is the new one.
            request_animation_frame(move || {
                request_animation_frame(move || paging.maybe_load(store));
            });
        });
        // A short first page (or a tall window) leaves nothing to scroll: load on.
        Effect::new(move |_| {
            let offer = store
                .status
                .with(|s| s.has_older_messages && !s.is_loading_older);
            if !offer {
                return;
            }
            request_animation_frame(move || {
                if let Some(el) = paging.scroller.try_get_untracked().flatten() {
                    if el.scroll_height() - el.client_height() < LOAD_OLDER_PX {
                        store.dispatch(Command::LoadOlderMessages);
                    }
                }
            });
        });
        paging
    }

    /// The scroll handler's part: load near the top.
    pub(crate) fn on_scroll(&self, store: ChatStore) {
        self.maybe_load(store);
    }

    fn maybe_load(&self, store: ChatStore) {
        let Some(el) = self.scroller.try_get_untracked().flatten() else {
            return;
        };
        let offer = store
            .status
            .with_untracked(|s| s.has_older_messages && !s.is_loading_older);
        if offer && el.scroll_top() < LOAD_OLDER_PX {
            store.dispatch(Command::LoadOlderMessages);
        }
    }
}

/// The row above the first message: a button that loads the next older page (keyboard
/// reachable) and says so while one is on its way. Shown while older messages exist.
// The component macro makes the props builder `pub`; the component itself is crate-only.
#[allow(unreachable_pub)]
#[component]
pub(crate) fn OlderMessages() -> impl IntoView {
    crate::ui::style::use_part_style(crate::ui::style::MESSAGES_CSS);
    let store = ChatStore::expect();
    let i18n = I18n::get();
    let shown = move || {
        store
            .status
            .with(|s| s.has_older_messages || s.is_loading_older)
    };
    let loading = move || store.status.with(|s| s.is_loading_older);
    // When the last page arrives the row goes. If its button has keyboard focus then, focus
    // moves to the message list (the scroller, `tabindex=0`) instead of falling back to
    // <body>. That has to happen while the button is still in the document, i.e. when `Show`
    // re-reads its condition and before it swaps the DOM; an effect would run too late, and a
    // separate visibility signal would move the row a frame apart from the messages.
    let button = NodeRef::<leptos::html::Button>::new();
    let when = move || {
        let now = shown();
        if !now {
            if let Some(b) = button.try_get_untracked().flatten() {
                let focused = b
                    .owner_document()
                    .and_then(|d| d.active_element())
                    .is_some_and(|a| a.is_same_node(Some(&b)));
                let list = b
                    .closest(".chat-message-list")
                    .ok()
                    .flatten()
                    .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
                if let (true, Some(list)) = (focused, list) {
                    let _ = list.focus();
                }
            }
        }
        now
    };
    view! {
        <Show when=when>
            // One fixed-height row in both states, so switching does not move the list.
            <div class="chat-older" data-loading=move || loading().to_string()>
                // aria-disabled rather than disabled: a focused button keeps focus.
                <button
                    type="button"
                    class="chat-older__button"
                    node_ref=button
                    aria-disabled=move || loading().to_string()
                    on:click=move |_| store.dispatch(Command::LoadOlderMessages)
                >
                    <Show when=loading>
                        <span class="chat-dots" aria-hidden="true"><span></span><span></span><span></span></span>
                    </Show>
                    <span>
                        {move || {
                            if loading() {
                                i18n.t("chat-message-list-loading-older")
                            } else {
                                i18n.t("chat-message-list-load-older")
                            }
                        }}
                    </span>
                </button>
            </div>
        </Show>
    }
}
