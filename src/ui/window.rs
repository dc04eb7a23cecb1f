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

use std::collections::HashMap;

use leptos::html::Div;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::store::ChatStore;

/// Rows of the window at most (pinned rows come on top): a bound that holds even where rows
/// are tiny and the box is tall.
pub(crate) const MAX_ROWS: usize = 120;
/// Rows newly drawn in one frame at most. Building a row's view (and laying it out) is what
/// drawing costs, so a window that needs more at once (a conversation just opened, the
/// window grown by much) is drawn over a few frames, the rows nearest the end or the rows
/// already drawn first; a spacer stands in for the rest meanwhile (so no task runs over
/// 50 ms). A jump to rows far from those drawn (Home, a find hit) draws its window at once:
/// growing it after the jump moved the view when the list's top changed meanwhile (the
/// older-page row), since each growth puts the row seen before back where it was.
pub const NEW_ROWS_PER_FRAME: usize = 10;
/// Rows drawn in the first frame of a conversation just opened: fewer, because that frame
/// also runs the rows' code for the first time on a fresh load (compiled as it first runs),
/// which alone took most of 50 ms.
pub(crate) const FIRST_ROWS: usize = 5;
/// Height (px) a row that was never drawn counts as until some are measured.
const DEFAULT_ROW_PX: f64 = 96.0;
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

/// One entry of the drawn list: a message's row, or a spacer standing in for the rows between
/// two drawn ones (or before the first, after the last).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Item {
    /// A drawn message.
    Row {
        /// Its id (the key).
        id: String,
        /// Where it is in the loaded messages.
        index: usize,
        /// It arrived since the last run (a live message): drawn with the slide-in. Rows that
        /// come into the window by scrolling appear without it.
        fresh: bool,
    },
    /// Undrawn rows.
    Gap {
        /// Key: the drawn row after it (or the end) and its height, so a new height is a new
        /// spacer rather than an update the keyed list would not see.
        key: String,
        /// Height in px, gaps between the rows it stands for included.
        height: u32,
    },
}

impl Item {
    /// The key of the item in the keyed list.
    pub(crate) fn key(&self) -> String {
        match self {
            Item::Row { id, .. } => format!("m:{id}"),
            Item::Gap { key, .. } => key.clone(),
        }
    }
}

/// The window by message ids: the first and last rows of it, and whether it follows the end
/// (new messages join it). Following with no first id is "the end", however tall.
#[derive(Clone, Debug, PartialEq)]
struct Span {
    first: String,
    last: String,
    follow: bool,
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

/// Rows drawn wherever they are.
#[derive(Clone, Debug, Default, PartialEq)]
struct Pins {
    /// The row that has keyboard focus (or had it last, while focus is in the list).
    focus: Option<String>,
    /// The row a find jumped to.
    hit: Option<String>,
}

/// Measured row heights by message id, the gap between rows, and what a row never drawn
/// counts as: the average of the first rows measured, then fixed for the conversation. A
/// moving average would change the height of every undrawn row above the view at each
/// measurement, and the browser would move the scroll offset to keep the view each time.
#[derive(Debug, Default)]
struct Heights {
    by_id: HashMap<String, f64>,
    sum: f64,
    gap: f64,
    estimate: Option<f64>,
}

impl Heights {
    fn estimate(&self) -> f64 {
        self.estimate.unwrap_or(DEFAULT_ROW_PX)
    }

    fn of(&self, id: &str, estimate: f64) -> f64 {
        self.by_id.get(id).copied().unwrap_or(estimate)
    }

    /// Records a measured height; whether it differs from what was known.
    fn set(&mut self, id: &str, height: f64) -> bool {
        match self.by_id.get_mut(id) {
            Some(h) if (*h - height).abs() < 0.5 => false,
            Some(h) => {
                self.sum += height - *h;
                *h = height;
                true
            }
            None => {
                self.sum += height;
                self.by_id.insert(id.to_owned(), height);
                true
            }
        }
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
    /// The window (first, last index) as last drawn, pins aside.
    drawn: StoredValue<(usize, usize)>,
    /// The height of the box (px) as last measured by the observer: read from there, not from
    /// the box, so deciding the window never forces the browser to lay the page out.
    view: StoredValue<f64>,
    /// Rows the window wants are not drawn yet (over [`NEW_ROWS_PER_FRAME`]): the next frame
    /// draws more.
    more: StoredValue<bool>,
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
        let drawn = StoredValue::new((0usize, 0usize));
        let drawn_ids = StoredValue::new(None::<(String, String)>);
        let more = StoredValue::new(false);
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
                    layout(
                        ms,
                        h,
                        view,
                        span.as_ref(),
                        &pins,
                        &card_rows,
                        Drawn {
                            range: drawn,
                            ids: drawn_ids,
                            more,
                        },
                        previous,
                    )
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
            more,
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
                if window.more.try_get_value() == Some(true) {
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
        let (from, to) = self.drawn.get_value();
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

/// Decides what is drawn: the window (from the span, or the end when there is none), the
/// pinned rows, and spacers between them.
#[allow(clippy::too_many_arguments)]
fn layout(
    ms: &[crate::core::Message],
    h: &Heights,
    view: f64,
    span: Option<&Span>,
    pins: &Pins,
    card_rows: &[String],
    drawn: Drawn,
    previous: usize,
) -> Vec<Item> {
    let n = ms.len();
    if n == 0 {
        drawn.range.set_value((0, 0));
        drawn.ids.set_value(None);
        drawn.more.set_value(false);
        return Vec::new();
    }
    let estimate = h.estimate();
    let height = |i: usize| h.of(&ms[i].id, estimate);
    // From the end back, three views' worth.
    let tail = |to: usize| {
        let mut acc = 0.0;
        let mut from = to;
        loop {
            acc += height(from) + h.gap;
            if from == 0 || acc >= 3.0 * view || to + 1 - from >= MAX_ROWS {
                break from;
            }
            from -= 1;
        }
    };
    let (old_from, old_to) = drawn.range.get_value();
    let old_rows = old_to.saturating_sub(old_from);
    // What was drawn, found again by ids (older pages may have been put in front since).
    let before = drawn.ids.with_value(|ids| {
        let (first, last) = ids.as_ref()?;
        let f = ms.iter().position(|m| m.id == *first)?;
        let l = ms.iter().rposition(|m| m.id == *last)?;
        (f <= l).then_some((f, l))
    });
    let mut fresh_from = previous;
    let (from, to) = match span {
        None => {
            fresh_from = 0;
            (tail(n - 1), n - 1)
        }
        Some(s) if s.follow && s.first.is_empty() => (tail(n - 1), n - 1),
        Some(s) => {
            let first = ms.iter().position(|m| m.id == s.first);
            let last = if s.follow {
                Some(n - 1)
            } else {
                ms.iter().rposition(|m| m.id == s.last)
            };
            match (first, last) {
                (Some(f), Some(t)) if f <= t => (f, t),
                (Some(f), _) => (f, (f + old_rows).min(n - 1)),
                (None, Some(t)) => (t.saturating_sub(old_rows), t),
                // Another conversation: its end.
                _ => {
                    fresh_from = 0;
                    (tail(n - 1), n - 1)
                }
            }
        }
    };
    let from = from.max((to + 1).saturating_sub(MAX_ROWS));
    let fresh_start = fresh_from == 0;
    let (from, to, more) = within_frame(from, to, if fresh_start { None } else { before });
    drawn.range.set_value((from, to));
    drawn
        .ids
        .set_value(Some((ms[from].id.clone(), ms[to].id.clone())));
    drawn.more.set_value(more);
    let mut indices: Vec<usize> = (from..=to).collect();
    for id in pins.focus.iter().chain(pins.hit.iter()).chain(card_rows) {
        if let Some(i) = ms.iter().rposition(|m| m.id == *id) {
            indices.push(i);
        }
    }
    indices.sort_unstable();
    indices.dedup();
    let mut items = Vec::with_capacity(indices.len() + 4);
    let mut next = 0usize;
    let gap_height = |a: usize, b: usize| {
        let rows: f64 = (a..b).map(height).sum();
        (rows + h.gap * (b - a - 1) as f64).round().max(0.0) as u32
    };
    for i in indices {
        if i > next {
            let px = gap_height(next, i);
            items.push(Item::Gap {
                key: format!("g:{}:{px}", ms[i].id),
                height: px,
            });
        }
        items.push(Item::Row {
            id: ms[i].id.clone(),
            index: i,
            fresh: i >= fresh_from,
        });
        next = i + 1;
    }
    if next < n {
        let px = gap_height(next, n);
        items.push(Item::Gap {
            key: format!("g:end:{px}"),
            height: px,
        });
    }
    items
}

/// Where the window (pins aside) was drawn, by index and by id, and whether more of it is
/// still to be drawn.
#[derive(Clone, Copy)]
struct Drawn {
    range: StoredValue<(usize, usize)>,
    ids: StoredValue<Option<(String, String)>>,
    more: StoredValue<bool>,
}

/// The part of the window `from..=to` drawn this frame: at most [`NEW_ROWS_PER_FRAME`] rows
/// that `before` (the rows drawn, when the window grows from them) did not have, nearest
/// those; with nothing to grow from (a conversation just opened), the last [`FIRST_ROWS`]. A window
/// that does not meet `before` (a jump) is drawn whole. Also: whether rows are left for the
/// next frame.
pub(crate) fn within_frame(
    from: usize,
    to: usize,
    before: Option<(usize, usize)>,
) -> (usize, usize, bool) {
    let k = NEW_ROWS_PER_FRAME;
    match before {
        None => {
            let first = from.max((to + 1).saturating_sub(FIRST_ROWS));
            (first, to, first > from)
        }
        Some((b_from, b_to)) if b_from <= to && b_to >= from => {
            let first = from.max(b_from.saturating_sub(k));
            let last = to.min(b_to + k);
            (first, last, first > from || last < to)
        }
        Some(_) => (from, to, false),
    }
}

/// The span the view wants, if the drawn window (`from..=to`) no longer serves it: the view
/// is within half a view height of its edge, or it is more than twice as large as needed.
fn wanted(
    ms: &[crate::core::Message],
    h: &Heights,
    origin: f64,
    top: f64,
    view: f64,
    from: usize,
    to: usize,
) -> Option<Span> {
    let n = ms.len();
    if n == 0 {
        return None;
    }
    let estimate = h.estimate();
    let (want_top, want_bottom) = (top - view, top + 2.0 * view);
    let (need_top, need_bottom) = (top - view / 2.0, top + 1.5 * view);
    let (mut want_from, mut need_from) = (None, None);
    let (mut want_to, mut need_to) = (0usize, 0usize);
    let mut y = origin;
    for (i, m) in ms.iter().enumerate() {
        let bottom = y + h.of(&m.id, estimate);
        if bottom > want_top && want_from.is_none() {
            want_from = Some(i);
        }
        if bottom > need_top && need_from.is_none() {
            need_from = Some(i);
        }
        if y < need_bottom {
            need_to = i;
        }
        if y < want_bottom {
            want_to = i;
        } else {
            break;
        }
        y = bottom + h.gap;
    }
    let want_from = want_from.unwrap_or(n - 1).min(want_to);
    let need_from = need_from.unwrap_or(n - 1).min(need_to);
    let covers = from <= need_from && to >= need_to;
    let oversized = to.saturating_sub(from) > 2 * (want_to - want_from) + 20;
    (!covers || oversized).then(|| Span {
        first: ms[want_from].id.clone(),
        last: ms[want_to].id.clone(),
        follow: want_to == n - 1,
    })
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
