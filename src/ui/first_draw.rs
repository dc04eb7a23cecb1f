//! The first draw in stages behind an instant shell (the stages are
//! [`crate::core::first_draw`]): the page's chat draws its root and starts its session in one
//! task of the browser, its composer in the next, the rest of its first screen in the next,
//! and shows in the last, so that no task of a fresh load is long while each function of the
//! WebAssembly runs (and is compiled) for the first time.
//!
//! Only a build with the `staged` feature (the page's) draws in stages: the view it builds is
//! a few kilobytes larger, which the element's first download has no room for within its
//! budget. Without it [`staged!`] is the part itself and a chat draws at once, as it always
//! did.

use leptos::prelude::*;

/// Whether the chat's first screen is drawn whole (always, unless it is drawn in stages):
/// what waits for the chat to show, such as putting the focus in the composer, reads it.
#[derive(Clone, Copy)]
pub(crate) struct FirstDrawShown(pub(crate) ReadSignal<bool>);

/// `staged!(flag, view)`: `view` drawn once `flag` (a stage's `RwSignal<bool>`) says so, in a
/// `staged` build; `view` as it is otherwise.
#[cfg(feature = "staged")]
macro_rules! staged {
    ($flag:expr, $view:expr) => {
        $crate::ui::first_draw::drawn_when($flag, Box::new(move || $view.into_any()))
    };
}
#[cfg(not(feature = "staged"))]
macro_rules! staged {
    ($flag:expr, $view:expr) => {
        $view
    };
}
pub(crate) use staged;

#[cfg(feature = "staged")]
pub(crate) use stages::{drawn_when, start};

#[cfg(feature = "staged")]
mod stages {
    use leptos::prelude::*;

    use super::FirstDrawShown;
    use crate::core::first_draw::{FirstDraw, Stage};
    use crate::core::Chunk;

    /// What each stage has drawn: the composer, the other parts, and whether the chat shows.
    pub(crate) struct Drawn {
        pub(crate) composer: RwSignal<bool>,
        pub(crate) parts: RwSignal<bool>,
        pub(crate) shown: RwSignal<bool>,
    }

    /// Starts the first draw the context's [`FirstDraw`] asks for. Drawn in stages, the chunks
    /// of the parts drawn later (the message list's; the sidebar's when `history` shows) are
    /// asked for now, before the locale's texts, as when the chat is drawn at once: they are
    /// on the way sooner, and which part's failure the banner shows last stays the same.
    pub(crate) fn start(history: bool) -> Drawn {
        let first = Stage::first(use_context::<FirstDraw>().unwrap_or_default());
        let drawn = Drawn {
            composer: RwSignal::new(first.draws_composer()),
            parts: RwSignal::new(first.draws_parts()),
            shown: RwSignal::new(!first.hidden(false)),
        };
        if !first.draws_parts() {
            crate::ui::message_list::fetch_list_ahead();
            if history {
                crate::ui::chunk::fetch_ahead(
                    Chunk::History,
                    Box::pin(crate::ui::history::preload_history()),
                );
            }
        }
        let Drawn {
            composer,
            parts,
            shown,
        } = drawn;
        advance(first, move |stage| {
            // Set only when it changes: a part drawn is never drawn again.
            let set = |flag: RwSignal<bool>, on: bool| {
                flag.try_get_untracked()
                    .map(|was| {
                        if was != on {
                            flag.set(on);
                        }
                    })
                    .is_some()
            };
            set(composer, stage.draws_composer())
                && set(parts, stage.draws_parts())
                && set(shown, !stage.hidden(false))
        });
        provide_context(FirstDrawShown(shown.read_only()));
        drawn
    }

    /// A part of the first screen, drawn once its stage comes (one type for every part).
    /// Built once: a stage's flag never goes back to false.
    pub(crate) type Part = Box<dyn FnOnce() -> AnyView + Send + Sync>;

    /// `part`, drawn once `drawn` is true.
    pub(crate) fn drawn_when(drawn: RwSignal<bool>, part: Part) -> impl IntoView {
        let part = std::sync::Mutex::new(Some(part));
        move || {
            drawn
                .get()
                .then(|| part.lock().ok()?.take())
                .flatten()
                // Only `drawn` may draw it again (it never does): what the part reads as it
                // is built is its own.
                .map(untrack)
        }
    }

    /// Moves the first draw on by one stage per task of the browser until it is shown,
    /// telling `show` each stage; `show` says false when the chat is gone, which stops it.
    fn advance(stage: Stage, show: impl Fn(Stage) -> bool + Copy + 'static) {
        let Some(next) = stage.next() else {
            return;
        };
        let step = move || {
            if show(next) {
                advance(next, show);
            }
        };
        // A task of its own, without the wait browsers put on timers set from timers.
        #[cfg(target_arch = "wasm32")]
        if crate::io::soon::soon(step) {
            return;
        }
        set_timeout(step, std::time::Duration::ZERO);
    }
}
