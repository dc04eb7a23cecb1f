//! Windowed drawing of the message list: only the messages in and near the view
//! are in the DOM, with the rest stood in for by spacers of their measured (or estimated)
//! height, so a 5,000-message conversation costs what a 50-message one does.
//!
//! The window is one view height above and below the view (at least), kept by message ids so a
//! prepended older page or a live message does not move it. Rows are measured by one
//! `ResizeObserver` while drawn and keep their height when they leave; rows never drawn count
//! as the average of the measured ones. Some rows are drawn wherever they are: the one holding
//! keyboard focus, the one a find jumped to, and those carrying open cards (the streaming
//! reply is outside the list and always drawn).

mod layout;

use leptos::html::Div;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::store::ChatStore;

pub(crate) use self::layout::Item;
pub use self::layout::NEW_ROWS_PER_FRAME;
use self::layout::{layout, wanted, Drawn, Heights, Pins, Span};

/// Height (px) of the box before it is laid out.
const DEFAULT_VIEW_PX: f64 = 800.0;
/// The attribute of a drawn row's wrapper holding its message id.
pub(crate) const ROW_ATTR: &str = "data-row";

/// Where the first row in view was at the last snapshot.
#[derive(Clone)]
struct Anchor {
    /// The row's message id.
    id: String,
    /// Its top, from the top of what the list scrolls (px).
    in_list: f64,
    /// How far the list was scrolled (px).
    scroll_top: f64,
}

/// Keeps keyboard focus through the keyed list's redraws. Rows kept drawn while rows are
/// added before them (the window growing towards a focused row, or one with a card) are moved
/// in the DOM by the keyed list, and a moved element loses focus: a focus loss while the list
/// is redrawn is taken as that, and the element is focused again once the redraw is done.
#[derive(Clone, Copy)]
struct FocusKeeper {
    /// The list is being redrawn: set when the window is computed, cleared in a microtask
    /// queued then, after the keyed list has applied it.
    redrawing: StoredValue<bool>,
    /// The element that lost focus during a redraw.
    lost: StoredValue<Option<web_sys::HtmlElement>, LocalStorage>,
}

impl FocusKeeper {
    fn new() -> Self {
        FocusKeeper {
            redrawing: StoredValue::new(false),
            lost: StoredValue::new_local(None),
        }
    }

    /// The window is being computed: the keyed list redraws next, in this microtask.
    fn redraw_starts(self) {
        if self.redrawing.try_get_value() != Some(false) {
            return;
        }
        self.redrawing.set_value(true);
        let done = wasm_bindgen::closure::Closure::once_into_js(move || self.redraw_done());
        if let Some(w) = web_sys::window() {
            w.queue_microtask(done.unchecked_ref());
        }
    }

    fn redraw_done(self) {
        if self.redrawing.try_set_value(false).is_some() {
            return; // The list is gone.
        }
        let Some(Some(el)) = self.lost.try_update_value(Option::take) else {
            return;
        };
        let document = web_sys::window().and_then(|w| w.document());
        // Focus went nowhere else meanwhile: it was the move.
        let nowhere = document
            .and_then(|d| {
                d.active_element()
                    .map(|a| Some(a) == d.body().map(Into::into))
            })
            .unwrap_or(true);
        if el.is_connected() && nowhere {
            let options = web_sys::FocusOptions::new();
            options.set_prevent_scroll(true);
            let _ = el.focus_with_options(&options);
        }
    }

    /// Focus left `target` for nothing (no related target): during a redraw, the list moved
    /// it; true when it is taken care of.
    fn lost_in_redraw(self, target: Option<web_sys::EventTarget>) -> bool {
        if self.redrawing.try_get_value() != Some(true) {
            return false;
        }
        let el = target.and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok());
        let kept = el.is_some();
        self.lost.try_set_value(el);
        kept
    }
}

/// The list's one `ResizeObserver` and the callback it holds.
struct RowObserver {
    observer: web_sys::ResizeObserver,
    _callback: wasm_bindgen::closure::Closure<dyn FnMut(js_sys::Array)>,
}

impl Drop for RowObserver {
    fn drop(&mut self) {
        self.observer.disconnect();
    }
}

/// Which messages of the store the list draws, and the bookkeeping that decides it. Created by
/// `ChatMessageList`, fed its scroll and focus events.
#[derive(Clone, Copy)]
pub(crate) struct Window {
    store: ChatStore,
    scroller: NodeRef<Div>,
    stick: StoredValue<bool>,
    /// The element the rows and spacers are drawn in.
    pub(crate) body: NodeRef<Div>,
    span: RwSignal<Option<Span>>,
    pins: RwSignal<Pins>,
    heights: StoredValue<Heights>,
    version: RwSignal<u64>,
    /// The window as last drawn, pins aside.
    drawn: StoredValue<Drawn>,
    /// The height of the box (px) as last measured by the observer: read from there, not from
    /// the box, so deciding the window never forces the browser to lay the page out.
    view: StoredValue<f64>,
    /// The first row in view, for keeping the view still while the rows around it change.
    anchor: StoredValue<Option<Anchor>>,
    /// What is drawn changed and the view has not been kept since: [`Window::anchor`] is
    /// still where the reader was before the change, and no snapshot may replace it first.
    keep_due: StoredValue<bool>,
    /// New heights were measured; the window is redrawn with them in the next frame.
    remeasured: StoredValue<bool>,
    /// Keeps focus on rows the list moves.
    focus: FocusKeeper,
    /// What the list draws, in order.
    pub(crate) items: Memo<Vec<Item>>,
    observer: StoredValue<Option<RowObserver>, LocalStorage>,
}

impl Window {
    /// The window of the list scrolled by `scroller`; `stick` says whether the list follows
    /// its end (then the view is kept at the end rather than on a row).
    pub(crate) fn new(store: ChatStore, scroller: NodeRef<Div>, stick: StoredValue<bool>) -> Self {
        let span = RwSignal::new(None::<Span>);
        let pins = RwSignal::new(Pins::default());
        let heights = StoredValue::new(Heights::default());
        let version = RwSignal::new(0u64);
        let drawn = StoredValue::new(Drawn::default());
        let view_px = StoredValue::new(0.0f64);
        let seen = StoredValue::new(0usize);
        let focus = FocusKeeper::new();
        let items = Memo::new(move |_| {
            version.track();
            focus.redraw_starts();
            let span = span.get();
            let pins = pins.get();
            // Open cards are drawn under their message (or the last assistant one).
            let (mut card_rows, under_last) = store.cards.with(|cards| {
                let open = cards.iter().filter(|c| c.card.is_open_for_person());
                let mut rows = Vec::new();
                let mut under_last = false;
                for c in open {
                    match &c.card.message_id {
                        Some(id) => rows.push(id.clone()),
                        None => under_last = true,
                    }
                }
                (rows, under_last)
            });
            if under_last {
                if let Some(id) = store.last_assistant_id.get() {
                    card_rows.push(id);
                }
            }
            let view = match view_px.get_value() {
                px if px > 0.0 => px,
                _ => view_height(scroller),
            };
            store.messages.with(|ms| {
                heights.with_value(|h| {
                    let previous = seen.get_value();
                    seen.set_value(ms.len());
                    let (items, now) = drawn.with_value(|before| {
                        layout(
                            ms,
                            h,
                            view,
                            span.as_ref(),
                            &pins,
                            &card_rows,
                            before,
                            previous,
                        )
                    });
                    drawn.set_value(now);
                    items
                })
            })
        });
        let window = Window {
            store,
            scroller,
            stick,
            body: NodeRef::new(),
            span,
            pins,
            heights,
            version,
            drawn,
            view: view_px,
            anchor: StoredValue::new(None),
            keep_due: StoredValue::new(false),
            remeasured: StoredValue::new(false),
            focus,
            items,
            observer: StoredValue::new_local(None),
        };
        // After every change of what is drawn: keep the row in view where it was (the
        // browser's scroll anchoring usually did already; this is a no-op then), or the end
        // in view while following it.
        Effect::new(move |_| {
            window.items.track();
            let _ = window.keep_due.try_set_value(true);
            // The list may have been unmounted by the next frame (an element remounted).
            request_animation_frame(move || {
                window.keep(false);
                window.snapshot();
                // The rest of the window in the next frame, a task of its own.
                if window.drawn.try_with_value(|d| d.more) == Some(true) {
                    request_animation_frame(move || {
                        let _ = window.version.try_update(|v| *v += 1);
                    });
                }
            });
        });
        on_cleanup(move || {
            let _ = window.observer.try_update_value(Option::take);
        });
        window
    }

    /// Another conversation: it opens at its end, drawn with the slide-in.
    pub(crate) fn reset(&self) {
        self.heights.update_value(|h| *h = Heights::default());
        self.span.set(None);
    }

    /// The scroll handler's part: remember the row in view, move the window if the view
    /// nears its edge (or it has grown much larger than the view needs). While the list
    /// follows its end, the window is the end, whatever the estimated heights above say.
    pub(crate) fn on_scroll(&self) {
        // A scroll handled between a change and the frame that keeps the view (an event,
        // or a redraw a resize asked for a frame earlier) keeps it first: a snapshot now
        // would take the moved rows for where the reader was (D80).
        self.keep(true);
        self.snapshot();
        if self.stick.try_get_value() == Some(true) {
            let end = Span {
                first: String::new(),
                last: String::new(),
                follow: true,
            };
            if self.span.with_untracked(|s| s.as_ref() != Some(&end)) {
                self.span.set(Some(end));
            }
            return;
        }
        let Some(el) = self.scroller.try_get_untracked().flatten() else {
            return;
        };
        let Some(body) = self.body.try_get_untracked().flatten() else {
            return;
        };
        let view = f64::from(el.client_height()).max(1.0);
        let top = f64::from(el.scroll_top());
        let origin =
            body.get_bounding_client_rect().top() - el.get_bounding_client_rect().top() + top;
        let (from, to) = self.drawn.with_value(|d| d.range);
        let next = self.store.messages.with_untracked(|ms| {
            self.heights
                .with_value(|h| wanted(ms, h, origin, top, view, from, to))
        });
        if let Some(next) = next {
            self.span.set(Some(next));
        }
    }

    /// Focus moved to `target` inside the list: its row stays drawn while it has focus.
    pub(crate) fn on_focus(&self, target: Option<web_sys::EventTarget>) {
        let id = row_of(target);
        if id.is_some() {
            self.pins.update(|p| {
                if p.focus != id {
                    p.focus = id;
                }
            });
        }
    }

    /// Focus left `target` for `related`: outside the list, no row is kept for it. A loss
    /// for nothing while the list redraws is the list moving the row: it stays.
    pub(crate) fn on_blur(
        &self,
        target: Option<web_sys::EventTarget>,
        related: Option<web_sys::EventTarget>,
    ) {
        if related.is_none() && self.focus.lost_in_redraw(target) {
            return;
        }
        let inside = related
            .and_then(|t| t.dyn_into::<web_sys::Node>().ok())
            .zip(self.scroller.try_get_untracked().flatten())
            .is_some_and(|(node, list)| list.contains(Some(&node)));
        if !inside && self.pins.with_untracked(|p| p.focus.is_some()) {
            self.pins.update(|p| p.focus = None);
        }
    }

    /// Draws the message `id` (wherever it is) and scrolls it into the middle of the view;
    /// `None` lets the last one go back to the window's rule.
    pub(crate) fn reveal(&self, id: Option<String>) {
        let scroll_to = id.clone();
        self.pins.update(|p| p.hit = id);
        let Some(id) = scroll_to else {
            return;
        };
        let window = *self;
        // After the list has drawn it.
        leptos::task::spawn_local(async move {
            leptos::task::tick().await;
            let Some(el) = window.scroller.try_get_untracked().flatten() else {
                return;
            };
            // The list alone scrolls: `scrollIntoView` would move the page around it too.
            if let Some(row) = row_by_id(&el, &id) {
                let offset = row.get_bounding_client_rect().top()
                    - el.get_bounding_client_rect().top()
                    + f64::from(el.scroll_top());
                let centred =
                    offset - (f64::from(el.client_height()) - f64::from(row.offset_height())) / 2.0;
                el.set_scroll_top(centred.max(0.0).round() as i32);
                // The row in view is now the hit: a redraw due meanwhile (older messages
                // joined above) keeps it there rather than the row seen before.
                let _ = window.keep_due.try_set_value(false);
                window.snapshot();
            }
        });
    }

    /// The position of a drawn row among the messages (from 1) and the size of the set (-1
    /// while older messages are still on the server: the total is not known).
    pub(crate) fn position(&self, id: &str) -> Option<(u32, i32)> {
        let index = self.items.with(|items| {
            items.iter().find_map(|it| match it {
                Item::Row { id: row, index, .. } if row == id => Some(*index),
                _ => None,
            })
        })?;
        let older = self.store.status.with(|s| s.has_older_messages);
        let size = if older {
            -1
        } else {
            self.store.messages.with(|m| m.len()) as i32
        };
        Some((index as u32 + 1, size))
    }

    /// Starts measuring a drawn row (its wrapper, carrying [`ROW_ATTR`]).
    pub(crate) fn observe(&self, row: &web_sys::Element) {
        if self.observer.try_with_value(Option::is_none) == Some(true) {
            let Some(created) = self.row_observer() else {
                return;
            };
            // The box itself: its height decides how many rows the window holds.
            if let Some(el) = self.scroller.try_get_untracked().flatten() {
                created.observer.observe(&el);
            }
            self.observer.try_set_value(Some(created));
        }
        let _ = self.observer.try_with_value(|o| {
            if let Some(o) = o {
                o.observer.observe(row);
            }
        });
    }

    /// Stops measuring a row that is no longer drawn (its height is kept).
    pub(crate) fn unobserve(&self, row: &web_sys::Element) {
        let _ = self.observer.try_with_value(|o| {
            if let Some(o) = o {
                o.observer.unobserve(row);
            }
        });
    }

    fn row_observer(&self) -> Option<RowObserver> {
        use wasm_bindgen::closure::Closure;
        let window = *self;
        let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
            let mut changed = false;
            let gap = window
                .body
                .try_get_untracked()
                .flatten()
                .map(|b| row_gap(&b));
            let _ = window.heights.try_update_value(|h| {
                if let Some(gap) = gap {
                    if (h.gap - gap).abs() >= 0.5 {
                        h.gap = gap;
                        changed = true;
                    }
                }
                let scroller = window.scroller.try_get_untracked().flatten();
                for entry in entries.iter() {
                    let entry: web_sys::ResizeObserverEntry = entry.unchecked_into();
                    let target = entry.target();
                    if !target.is_connected() {
                        continue;
                    }
                    if scroller
                        .as_ref()
                        .is_some_and(|s| AsRef::<web_sys::Element>::as_ref(s) == &target)
                    {
                        let px = f64::from(
                            target
                                .dyn_ref::<web_sys::HtmlElement>()
                                .map_or(0, |e| e.client_height()),
                        );
                        if px > 0.0
                            && window
                                .view
                                .try_get_value()
                                .is_some_and(|v| (v - px).abs() >= 0.5)
                        {
                            window.view.try_set_value(px);
                            changed = true;
                        }
                        continue;
                    }
                    let Some(id) = target.get_attribute(ROW_ATTR) else {
                        continue;
                    };
                    // Layout height: a slide-in transform does not change it.
                    let height = target
                        .dyn_ref::<web_sys::HtmlElement>()
                        .map(|e| f64::from(e.offset_height()))
                        .unwrap_or(0.0);
                    if height > 0.0 {
                        changed |= h.set(&id, height);
                    }
                }
                if h.estimate.is_none() && !h.by_id.is_empty() {
                    h.estimate = Some(h.sum / h.by_id.len() as f64);
                    changed = true;
                }
            });
            // Redrawn in the next frame, a task of its own: in this one the rows just drawn
            // were laid out, and drawing more now would add their cost to it (issue 18).
            if changed && window.remeasured.try_get_value() == Some(false) {
                window.remeasured.try_set_value(true);
                request_animation_frame(move || {
                    // `None`: set, so the list still exists (an element may have remounted).
                    if window.remeasured.try_set_value(false).is_none() {
                        let _ = window.version.try_update(|v| *v += 1);
                        window.on_scroll();
                    }
                });
            }
        });
        let observer = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()).ok()?;
        Some(RowObserver {
            observer,
            _callback: callback,
        })
    }

    fn snapshot(&self) {
        let Some(el) = self.scroller.try_get_untracked().flatten() else {
            return;
        };
        let top = f64::from(el.scroll_top());
        let rows = el
            .query_selector_all(&format!("[{ROW_ATTR}]"))
            .ok()
            .map(|list| {
                (0..list.length())
                    .filter_map(|i| list.item(i))
                    .filter_map(|n| n.dyn_into::<web_sys::HtmlElement>().ok())
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default();
        let anchor = rows
            .iter()
            .find(|r| f64::from(r.offset_top() + r.offset_height()) > top)
            .and_then(|r| {
                Some(Anchor {
                    id: r.get_attribute(ROW_ATTR)?,
                    in_list: f64::from(r.offset_top()),
                    scroll_top: top,
                })
            });
        let _ = self.anchor.try_set_value(anchor);
    }

    /// Keeps the view after a change of what is drawn, once per change: the end in view
    /// while following it, else the row that was in view where it was (the browser's scroll
    /// anchoring usually did already, this is a no-op then; at the very top Chromium's did
    /// not, and Safari has none).
    fn keep(&self, reader_scrolled: bool) {
        if self.keep_due.try_update_value(std::mem::take) != Some(true) {
            return;
        }
        if self.stick.try_get_value() == Some(true) {
            if let Some(el) = self.scroller.try_get_untracked().flatten() {
                el.set_scroll_top(el.scroll_height());
            }
        } else {
            self.keep_view(reader_scrolled);
        }
    }

    /// Moves the view by as much as the rows drawn above the anchor moved it. Without
    /// `reader_scrolled`, the anchor goes back to where it was in the view (a scroll the
    /// browser's own anchoring made meanwhile counts). With it, a scroll is handled before
    /// the frame that keeps the view, and what the list scrolled since the snapshot may be
    /// the reader's: that stays, and the view follows the anchor's move in the list on top
    /// of it, unless the browser's anchoring scrolled by just that move already.
    fn keep_view(&self, reader_scrolled: bool) {
        let Some(el) = self.scroller.try_get_untracked().flatten() else {
            return;
        };
        let Some(Some(anchor)) = self.anchor.try_get_value() else {
            return;
        };
        let Some(row) = row_by_id(&el, &anchor.id) else {
            return;
        };
        let moved_in_list = f64::from(row.offset_top()) - anchor.in_list;
        let scrolled = f64::from(el.scroll_top()) - anchor.scroll_top;
        let delta = if !reader_scrolled {
            // Back to where it was in the view.
            moved_in_list - scrolled
        } else if (scrolled - moved_in_list).abs() <= 1.0 {
            // The browser's scroll anchoring followed the row already.
            0.0
        } else {
            moved_in_list
        };
        let delta = delta.round() as i32;
        if delta != 0 {
            el.set_scroll_top(el.scroll_top() + delta);
        }
    }
}

fn view_height(scroller: NodeRef<Div>) -> f64 {
    scroller
        .try_get_untracked()
        .flatten()
        .map(|el| f64::from(el.client_height()))
        .filter(|h| *h > 0.0)
        .unwrap_or(DEFAULT_VIEW_PX)
}

/// The gap (px) between rows, from the drawn list's computed style.
fn row_gap(body: &web_sys::HtmlDivElement) -> f64 {
    web_sys::window()
        .and_then(|w| w.get_computed_style(body).ok().flatten())
        .and_then(|s| s.get_property_value("row-gap").ok())
        .and_then(|v| v.trim_end_matches("px").parse::<f64>().ok())
        .unwrap_or(0.0)
}

/// The message id of the row an event target is in.
fn row_of(target: Option<web_sys::EventTarget>) -> Option<String> {
    let el = target?.dyn_into::<web_sys::Element>().ok()?;
    let row = el.closest(&format!("[{ROW_ATTR}]")).ok().flatten()?;
    row.get_attribute(ROW_ATTR)
}

fn row_by_id(scroller: &web_sys::HtmlDivElement, id: &str) -> Option<web_sys::HtmlElement> {
    let selector = format!("[{ROW_ATTR}=\"{}\"]", web_sys::css::escape(id));
    scroller
        .query_selector(&selector)
        .ok()
        .flatten()
        .and_then(|e| e.dyn_into().ok())
}
