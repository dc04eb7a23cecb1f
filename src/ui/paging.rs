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

/// Where the first page of rows was, relative to the top of the scrolling box. Pages, not
/// rows: a page's own box is laid out even while the browser skips its rows (D47).
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
        let anchor = el.query_selector(PAGE).ok().flatten().and_then(|page| {
            Some(Anchor {
                id: page.get_attribute(PAGE_START)?,
                offset: offset_in(&el, &page),
            })
        });
        self.anchor.set_value(anchor);
    }

    /// Puts the page that was first (starting at message `previous`) back where the reader
    /// saw it. Idempotent: if the browser's own scroll anchoring already kept it there,
    /// nothing moves.
    fn keep_view(&self, previous: &str, first: &str) {
        let Some(el) = self.scroller.try_get_untracked().flatten() else {
            return;
        };
        let Some(old_page) = page_by_start(&el, previous) else {
            return;
        };
        let now = offset_in(&el, &old_page);
        let before = match self.anchor.get_value() {
            Some(a) if a.id == previous => a.offset,
            // No snapshot of it: the new first page sits where the old one did.
            _ => match page_by_start(&el, first) {
                Some(new_page) => offset_in(&el, &new_page),
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
/// Messages that arrive later join the last page until it holds a page's worth of rows
/// (`MESSAGE_PAGE`); the next one starts a new page (D47), so a long live session is drawn in
/// pages too and the browser can skip the ones far from the view. Only a message not drawn
/// yet ever starts a page: no drawn row moves to another page.
pub(crate) fn page_starts(store: ChatStore) -> Memo<Vec<String>> {
    let known = StoredValue::new(Vec::<String>::new());
    // The last message of the previous run: what follows it is new.
    let last_seen = StoredValue::new(None::<String>);
    Memo::new(move |_| {
        store.messages.with(|messages| {
            let Some(first) = messages.first() else {
                known.set_value(Vec::new());
                last_seen.set_value(None);
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
            let seen = last_seen
                .get_value()
                // Searched from the end, where it normally is.
                .and_then(|id| messages.iter().rposition(|m| m.id == id));
            let last_start = starts
                .last()
                .and_then(|id| messages.iter().position(|m| m.id == *id));
            if let (Some(seen), Some(last_start)) = (seen, last_start) {
                let mut rows = (seen + 1).saturating_sub(last_start);
                for m in &messages[seen + 1..] {
                    if rows >= crate::core::MESSAGE_PAGE {
                        starts.push(m.id.clone());
                        rows = 0;
                    }
                    rows += 1;
                }
            }
            last_seen.set_value(messages.last().map(|m| m.id.clone()));
            known.set_value(starts.clone());
            starts
        })
    })
}

/// Where each page of `starts` lies in the messages, `(start id, first index, end index)`,
/// found in one pass over the messages per change (D47) instead of every page searching them.
pub(crate) fn page_bounds(
    store: ChatStore,
    starts: Memo<Vec<String>>,
) -> Memo<Vec<(String, usize, usize)>> {
    Memo::new(move |_| {
        starts.with(|starts| {
            store.messages.with(|messages| {
                // The first row with an id, as a search from the start would find it.
                let mut index = std::collections::HashMap::<&str, usize>::new();
                for (i, m) in messages.iter().enumerate() {
                    index.entry(m.id.as_str()).or_insert(i);
                }
                let froms: Vec<Option<usize>> = starts
                    .iter()
                    .map(|s| index.get(s.as_str()).copied())
                    .collect();
                starts
                    .iter()
                    .enumerate()
                    .filter_map(|(i, start)| {
                        let from = froms[i]?;
                        let to = froms[i + 1..]
                            .iter()
                            .flatten()
                            .next()
                            .copied()
                            .unwrap_or(messages.len());
                        Some((start.clone(), from, to.max(from)))
                    })
                    .collect()
            })
        })
    })
}

/// The messages of the page starting at `start`, up to the next page's start.
pub(crate) fn page_rows(
    store: ChatStore,
    bounds: Memo<Vec<(String, usize, usize)>>,
    start: &str,
) -> Vec<crate::core::Message> {
    let Some((from, to)) = bounds.with(|b| {
        b.iter()
            .find(|(s, _, _)| s == start)
            .map(|&(_, from, to)| (from, to))
    }) else {
        return Vec::new();
    };
    store.messages.with(|messages| {
        messages
            .get(from..to)
            .map(<[_]>::to_vec)
            .unwrap_or_default()
    })
}

/// Pages far from the view are left to the browser to skip (D47): while a page (not the
/// last, where new messages arrive) is more than a box height away from the view, it has
/// `content-visibility: auto` with its measured height as `contain-intrinsic-height`; when it
/// comes back within that distance the class goes again, so a page near or in the view is an
/// ordinary box (no containment clipping or stacking what the host draws in it). Its rows
/// stay in the DOM all along (find in page, screen readers, card state), but layout,
/// pre-paint and paint no longer walk the far ones, so a prepend costs the same with 100 or
/// 1,000 rows loaded. A page is measured each time it leaves, drawn, so its stand-in is never
/// a guess (the jump D27 saw with `content-visibility` on rows never drawn) and follows
/// changes made while it was near.
#[derive(Clone, Copy)]
pub(crate) struct FarPages {
    scroller: NodeRef<Div>,
    observer: StoredValue<Option<PageObserver>, LocalStorage>,
}

/// The list's one `IntersectionObserver` and the callback it holds.
struct PageObserver {
    observer: web_sys::IntersectionObserver,
    _callback:
        wasm_bindgen::closure::Closure<dyn FnMut(js_sys::Array, web_sys::IntersectionObserver)>,
}

impl Drop for PageObserver {
    /// Disconnected, with its queued entries taken, before its callback goes, so the browser
    /// never calls a dropped closure (however the list's owner is torn down).
    fn drop(&mut self) {
        let _ = self.observer.take_records();
        self.observer.disconnect();
    }
}

/// A page of rows as the message list draws it.
pub(crate) const PAGE_CLASS: &str = "chat-message-page";
/// The attribute of a page holding the id of its first message.
pub(crate) const PAGE_START: &str = "data-page-start";
/// Pages as the message list draws them.
const PAGE: &str = ".chat-message-page[data-page-start]";
/// Added to a page the browser may skip while it is out of view.
pub(crate) const FAR_CLASS: &str = "chat-message-page--far";

impl FarPages {
    /// Watches the pages of the list scrolled by `scroller`; stops when the list goes.
    pub(crate) fn new(scroller: NodeRef<Div>) -> Self {
        let far = FarPages {
            scroller,
            observer: StoredValue::new_local(None),
        };
        on_cleanup(move || {
            // Dropping it disconnects it.
            let _ = far.observer.try_update_value(Option::take);
        });
        far
    }

    /// Starts watching `page` (a freshly drawn page of rows).
    pub(crate) fn observe(&self, page: &web_sys::Element) {
        // `try_`: the list may be torn down in the same turn as one of its pages is drawn.
        if self.observer.try_with_value(Option::is_none) == Some(true) {
            let Some(root) = self.scroller.try_get_untracked().flatten() else {
                return;
            };
            let Some(created) = page_observer(&root) else {
                return;
            };
            self.observer.try_set_value(Some(created));
        }
        let _ = self.observer.try_with_value(|o| {
            if let Some(o) = o {
                o.observer.observe(page);
                // A page appended after the last one (live messages, `page_starts`) makes that
                // one an ordinary page: observed afresh, it is marked if it is far already.
                if let Some(before) = page
                    .previous_element_sibling()
                    .filter(|e| e.class_list().contains(PAGE_CLASS))
                {
                    o.observer.unobserve(&before);
                    o.observer.observe(&before);
                }
            }
        });
    }

    /// Stops watching `page` (removed from the list).
    pub(crate) fn unobserve(&self, page: &web_sys::Element) {
        let _ = self.observer.try_with_value(|o| {
            if let Some(o) = o {
                o.observer.unobserve(page);
            }
        });
    }
}

fn page_observer(root: &web_sys::HtmlDivElement) -> Option<PageObserver> {
    use wasm_bindgen::closure::Closure;
    let callback = Closure::<dyn FnMut(js_sys::Array, web_sys::IntersectionObserver)>::new(
        |entries: js_sys::Array, _observer: web_sys::IntersectionObserver| {
            for entry in entries.iter() {
                let entry: web_sys::IntersectionObserverEntry = entry.unchecked_into();
                let page = entry.target();
                if entry.is_intersecting() {
                    let _ = page.class_list().remove_1(FAR_CLASS);
                    continue;
                }
                if !page.is_connected() || is_last_page(&page) {
                    continue;
                }
                // It was near until now, so drawn: its layout height is real. Detached or
                // never laid out (0): nothing to stand in for it.
                let height = content_height(&page);
                if height <= 0.0 {
                    continue;
                }
                if let Some(el) = page.dyn_ref::<web_sys::HtmlElement>() {
                    let _ = el
                        .style()
                        .set_property("contain-intrinsic-height", &format!("auto {height}px"));
                }
                let _ = page.class_list().add_1(FAR_CLASS);
            }
        },
    );
    let options = web_sys::IntersectionObserverInit::new();
    options.set_root(Some(root));
    // A page is far when it is more than one box height above or below the view.
    options.set_root_margin("100% 0px");
    let observer = web_sys::IntersectionObserver::new_with_options(
        callback.as_ref().unchecked_ref(),
        &options,
    )
    .ok()?;
    Some(PageObserver {
        observer,
        _callback: callback,
    })
}

/// A page's content height (px) by layout, what `contain-intrinsic-height` stands in for:
/// its computed border-box height less its padding (a bounding box would include transforms
/// and zoom of whatever the host put the chat in).
fn content_height(page: &web_sys::Element) -> f64 {
    let Some(style) = web_sys::window().and_then(|w| w.get_computed_style(page).ok().flatten())
    else {
        return 0.0;
    };
    let px = |p: &str| {
        style
            .get_property_value(p)
            .ok()
            .and_then(|v| v.trim_end_matches("px").parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    let height = px("height");
    if style.get_property_value("box-sizing").ok().as_deref() == Some("border-box") {
        height - px("padding-top") - px("padding-bottom")
    } else {
        height
    }
}

/// The last page takes the messages that arrive later and sits next to the streaming reply:
/// it is always drawn.
fn is_last_page(page: &web_sys::Element) -> bool {
    !page
        .next_element_sibling()
        .is_some_and(|next| next.class_list().contains(PAGE_CLASS))
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

/// Where `el` sits in the scroller's viewport, by layout: `offsetTop` ignores the rows'
/// slide-in transform, which a bounding box would include while it plays.
fn offset_in(scroller: &web_sys::HtmlDivElement, el: &web_sys::Element) -> f64 {
    let top = el
        .dyn_ref::<web_sys::HtmlElement>()
        .map(|r| r.offset_top())
        .unwrap_or(0);
    f64::from(top - scroller.scroll_top())
}

fn page_by_start(scroller: &web_sys::HtmlDivElement, id: &str) -> Option<web_sys::Element> {
    let selector = format!(
        ".{PAGE_CLASS}[{PAGE_START}=\"{}\"]",
        web_sys::css::escape(id)
    );
    scroller.query_selector(&selector).ok().flatten()
}
