//! What the windowed message list draws, decided from the messages, their heights and the
//! view alone (no DOM): the window of rows, the rows pinned wherever they are, the spacers
//! standing in for the rest, and how much of a window one frame draws. The window itself
//! (`mod.rs`) measures the rows, follows the scroll and keeps the view; it feeds these.

use std::collections::HashMap;

/// Rows of the window at most (pinned rows come on top): a bound that holds even where rows
/// are tiny and the box is tall.
const MAX_ROWS: usize = 120;
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
const FIRST_ROWS: usize = 5;
/// Height (px) a row that was never drawn counts as until some are measured.
const DEFAULT_ROW_PX: f64 = 96.0;

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
pub(super) struct Span {
    pub(super) first: String,
    pub(super) last: String,
    pub(super) follow: bool,
}

/// Rows drawn wherever they are.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Pins {
    /// The row that has keyboard focus (or had it last, while focus is in the list).
    pub(super) focus: Option<String>,
    /// The row a find jumped to.
    pub(super) hit: Option<String>,
}

/// Measured row heights by message id, the gap between rows, and what a row never drawn
/// counts as: the average of the first rows measured, then fixed for the conversation. A
/// moving average would change the height of every undrawn row above the view at each
/// measurement, and the browser would move the scroll offset to keep the view each time.
#[derive(Debug, Default)]
pub(super) struct Heights {
    pub(super) by_id: HashMap<String, f64>,
    pub(super) sum: f64,
    pub(super) gap: f64,
    pub(super) estimate: Option<f64>,
}

impl Heights {
    pub(super) fn estimate(&self) -> f64 {
        self.estimate.unwrap_or(DEFAULT_ROW_PX)
    }

    pub(super) fn of(&self, id: &str, estimate: f64) -> f64 {
        self.by_id.get(id).copied().unwrap_or(estimate)
    }

    /// Records a measured height; whether it differs from what was known.
    pub(super) fn set(&mut self, id: &str, height: f64) -> bool {
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

/// Decides what is drawn: the window (from the span, or the end when there is none), the
/// pinned rows, and spacers between them.
#[allow(clippy::too_many_arguments)]
pub(super) fn layout(
    ms: &[crate::core::Message],
    h: &Heights,
    view: f64,
    span: Option<&Span>,
    pins: &Pins,
    card_rows: &[String],
    drawn: &Drawn,
    previous: usize,
) -> (Vec<Item>, Drawn) {
    let n = ms.len();
    if n == 0 {
        return (Vec::new(), Drawn::default());
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
    let (old_from, old_to) = drawn.range;
    let old_rows = old_to.saturating_sub(old_from);
    // What was drawn, found again by ids (older pages may have been put in front since).
    let before = drawn.ids.as_ref().and_then(|(first, last)| {
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
    let now = Drawn {
        range: (from, to),
        ids: Some((ms[from].id.clone(), ms[to].id.clone())),
        more,
    };
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
    (items, now)
}

/// Where the window (pins aside) was drawn, by index and by id, and whether more of it is
/// still to be drawn.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Drawn {
    /// First and last index.
    pub(super) range: (usize, usize),
    /// First and last message id.
    pub(super) ids: Option<(String, String)>,
    /// Rows of the window are left for the next frame.
    pub(super) more: bool,
}

/// The part of the window `from..=to` drawn this frame: at most [`NEW_ROWS_PER_FRAME`] rows
/// that `before` (the rows drawn, when the window grows from them) did not have, nearest
/// those; with nothing to grow from (a conversation just opened), the last [`FIRST_ROWS`]. A window
/// that does not meet `before` (a jump) is drawn whole. Also: whether rows are left for the
/// next frame.
fn within_frame(from: usize, to: usize, before: Option<(usize, usize)>) -> (usize, usize, bool) {
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
pub(super) fn wanted(
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
