//! Paging back through a long conversation (D26, D27): the "older messages" row at the top of
//! the message list, older pages loaded as the reader nears the top, and the view kept still
//! when they are prepended.

use leptos::html::Div;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::core::Command;
use crate::store::ChatStore;
use crate::ui::i18n::I18n;

/// Within this distance (px) of the top of the list the next older page is requested, so it
/// is usually there before the reader gets to the top.
pub(crate) const LOAD_OLDER_PX: i32 = 600;

/// Message rows as `ChatMessage` draws them.
const ROW: &str = "article.chat-message[data-message-id]";

/// Where the first message row was, relative to the top of the scrolling box.
#[derive(Clone, Debug)]
struct Anchor {
    id: String,
    offset: f64,
}

/// Scroll bookkeeping of one message list: created by `ChatMessageList`, fed its scroll
/// events, and watching the store for prepended pages.
#[derive(Clone, Copy)]
pub(crate) struct Paging {
    scroller: NodeRef<Div>,
    anchor: StoredValue<Option<Anchor>>,
    first_id: StoredValue<Option<String>>,
}

impl Paging {
    /// Bookkeeping for the list scrolled by `scroller`; installs the effects that load more
    /// when the list does not fill its box and keep the view still on a prepend.
    pub(crate) fn new(scroller: NodeRef<Div>, store: ChatStore) -> Self {
        let paging = Paging {
            scroller,
            anchor: StoredValue::new(None),
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
            // Runs after the list's own update, which was woken by the same change.
            leptos::task::spawn_local(async move {
                paging.keep_view(&previous, &first);
                paging.snapshot();
                paging.maybe_load(store);
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

    /// The scroll handler's part: remember where the first row is, load near the top.
    pub(crate) fn on_scroll(&self, store: ChatStore) {
        self.snapshot();
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

    fn snapshot(&self) {
        let Some(el) = self.scroller.try_get_untracked().flatten() else {
            return;
        };
        let anchor = el.query_selector(ROW).ok().flatten().and_then(|row| {
            Some(Anchor {
                id: row.get_attribute("data-message-id")?,
                offset: offset_in(&el, &row),
            })
        });
        self.anchor.set_value(anchor);
    }

    /// Puts the row that was first (`previous`) back where the reader saw it. Idempotent: if
    /// the browser's own scroll anchoring already kept it there, nothing moves.
    fn keep_view(&self, previous: &str, first: &str) {
        let Some(el) = self.scroller.try_get_untracked().flatten() else {
            return;
        };
        let Some(old_row) = row_by_id(&el, previous) else {
            return;
        };
        let now = offset_in(&el, &old_row);
        let before = match self.anchor.get_value() {
            Some(a) if a.id == previous => a.offset,
            // No snapshot of it: the new first row sits where the old one did.
            _ => match row_by_id(&el, first) {
                Some(new_row) => offset_in(&el, &new_row),
                None => return,
            },
        };
        let delta = (now - before).round() as i32;
        if delta != 0 {
            el.set_scroll_top(el.scroll_top() + delta);
        }
    }
}

/// Ids of the first message of each page the list is drawn in, oldest first (D27): the
/// first message when a conversation opens, then the first of each older page prepended.
/// Messages that arrive later join the last page.
pub(crate) fn page_starts(store: ChatStore) -> Memo<Vec<String>> {
    let known = StoredValue::new(Vec::<String>::new());
    Memo::new(move |_| {
        store.messages.with(|messages| {
            let Some(first) = messages.first() else {
                known.set_value(Vec::new());
                return Vec::new();
            };
            let present: std::collections::HashSet<&str> =
                messages.iter().map(|m| m.id.as_str()).collect();
            let mut starts = known.get_value();
            starts.retain(|s| present.contains(s.as_str()));
            if starts.first() != Some(&first.id) {
                // Prepended (or another conversation, whose messages share no start).
                starts.insert(0, first.id.clone());
            }
            known.set_value(starts.clone());
            starts
        })
    })
}

/// The messages of the page starting at `start`, up to the next page's start.
pub(crate) fn page_rows(
    store: ChatStore,
    starts: Memo<Vec<String>>,
    start: &str,
) -> Vec<crate::core::Message> {
    let next = starts.with(|s| {
        s.iter()
            .position(|x| x == start)
            .and_then(|i| s.get(i + 1).cloned())
    });
    store.messages.with(|messages| {
        let Some(from) = messages.iter().position(|m| m.id == start) else {
            return Vec::new();
        };
        let to = next
            .and_then(|n| messages.iter().position(|m| m.id == n))
            .unwrap_or(messages.len());
        messages[from..to.max(from)].to_vec()
    })
}

/// The row above the first message: a button that loads the next older page (keyboard
/// reachable) and says so while one is on its way. Shown while older messages exist.
#[component]
pub(crate) fn OlderMessages() -> impl IntoView {
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

/// Where `row` sits in the scroller's viewport, by layout: `offsetTop` ignores the rows'
/// slide-in transform, which a bounding box would include while it plays.
fn offset_in(scroller: &web_sys::HtmlDivElement, row: &web_sys::Element) -> f64 {
    let top = row
        .dyn_ref::<web_sys::HtmlElement>()
        .map(|r| r.offset_top())
        .unwrap_or(0);
    f64::from(top - scroller.scroll_top())
}

fn row_by_id(scroller: &web_sys::HtmlDivElement, id: &str) -> Option<web_sys::Element> {
    let rows = scroller.query_selector_all(ROW).ok()?;
    (0..rows.length())
        .filter_map(|i| rows.item(i))
        .filter_map(|n| n.dyn_into::<web_sys::Element>().ok())
        .find(|e| e.get_attribute("data-message-id").as_deref() == Some(id))
}
