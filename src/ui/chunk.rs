//! Parts of the chat fetched the first time they are drawn.
//!
//! A function declared with `split_point!` (the browser edge's `io::split`) is where a part begins.
//! Built with the `split` feature (the element and the page are), `wasm-split-cli` moves it,
//! and all the code only it reaches, out of the main wasm into a chunk of its own; calling it
//! fetches the chunk first.
//! Without the feature (a Leptos app mounting `<Chat/>`, the tests) it is an ordinary function
//! and [`Lazy`] draws it at once, exactly as before.
//!
//! [`Lazy`] shows a stand-in while the chunk is on its way (each place chooses one that keeps
//! what it shows readable: Markdown reads as plain text) and, if the chunk cannot be fetched,
//! says so in place with a Retry button; the session hears it too ([`Command::ReportError`]:
//! the banner and `on_error`). Nothing typed is lost: the composer is in the first download.

use std::future::Future;
use std::pin::Pin;

use leptos::prelude::*;

use crate::core::chunk_fetch::ChunkFetch;
use crate::core::{ChatError, Chunk, Command};
use crate::store::ChatStore;
use crate::ui::i18n::I18n;

use crate::io::split::ready_now;
pub use crate::io::split::ChunkMissing;

/// Draws `view`, a function declared with `split_point!`, in the current owner: at once when
/// its chunk is here, else `stand_in` until it arrives. A chunk that cannot be fetched is an
/// inline notice with Retry, and [`Command::ReportError`] for the banner and `on_error`.
#[component]
pub fn Lazy<P, PF, V, VF, S>(
    /// Which part this is (for the error).
    chunk: Chunk,
    /// Fetches the chunk (the `preload` of the split point).
    preload: P,
    /// Builds the part; called only once `preload` has finished.
    view: V,
    /// What stands in for the part until it is drawn: called with `None` while the chunk is
    /// on its way, and with the notice (what happened, Retry) when it could not be fetched,
    /// to place where the part would be.
    stand_in: S,
) -> impl IntoView
where
    S: Fn(Option<AnyView>) -> AnyView + Send + Sync + 'static,
    P: Fn() -> PF + Send + Sync + 'static,
    PF: Future<Output = Result<(), ChunkMissing>> + 'static,
    V: Fn() -> VF + Send + Sync + 'static,
    VF: Future<Output = Result<AnyView, ChunkMissing>> + 'static,
{
    let failed = RwSignal::new(false);
    let arrived = arrivals(chunk);
    let store = use_context::<ChatStore>();
    let report = move |command: Command| {
        if let Some(store) = store {
            store.dispatch(command);
        }
    };
    // Waits for a fetch already started, off the view.
    let finish = {
        let arrived = arrived.clone();
        move |fetching: Pin<Box<dyn Future<Output = Result<(), ChunkMissing>>>>| {
            let arrived = arrived.clone();
            leptos::task::spawn_local(async move {
                let result = fetching.await;
                if result.is_ok() {
                    // Every place waiting for this chunk (or showing that it failed) draws
                    // its part now, and the banner that said it was missing goes, whichever
                    // place got it.
                    let after_failures = with_fetch(chunk, ChunkFetch::arrived);
                    arrived.notify();
                    if after_failures {
                        report(Command::ChunkArrived(chunk));
                    }
                } else {
                    let now = crate::io::clock::now();
                    with_fetch(chunk, |f| f.failed(now));
                }
                // This place may be gone by now (the streaming reply became a stored
                // message): then there is no one to tell.
                if failed.try_set(result.is_err()).is_some() {
                    return;
                }
                if result.is_err() {
                    report(Command::ReportError(ChatError::ChunkMissing(chunk)));
                }
            });
        }
    };
    let retry = move |_| {
        clear_failed_ahead(chunk);
        failed.set(false);
    };
    move || {
        arrived.track();
        // A fetch asked for ahead of this place ([`fetch_ahead`]) is its first: this place
        // waits for its answer (`arrived` is notified either way), and starts failed if it
        // failed.
        let ahead = ahead(chunk);
        if ahead == Ahead::Asked {
            return stand_in(None);
        }
        let failed_before = failed.get() || ahead == Ahead::Failed;
        if failed_before && !has_arrived(chunk) {
            // Only Retry (or another place getting the chunk) fetches it again.
            return stand_in(Some(failed_view(retry).into_any()));
        }
        let mut fetching: Pin<Box<dyn Future<Output = Result<(), ChunkMissing>>>> =
            Box::pin(untrack(&preload));
        if ready_now(fetching.as_mut()) == Some(Ok(())) {
            // The chunk is here, so the part is ready at once. It is built in this owner,
            // without subscribing this closure to what the part reads.
            let mut built = Box::pin(untrack(&view));
            if let Some(Ok(part)) = untrack(|| ready_now(built.as_mut())) {
                return part;
            }
            if failed_before {
                return stand_in(Some(failed_view(retry).into_any()));
            }
            fetching = Box::pin(async { Err(ChunkMissing) });
        }
        // On its way (or failed at once): the task says which, and this draws again. A place
        // that showed the failure gets here when another place got the chunk: its own split
        // point still has to be asked for (at once, the chunk is here).
        finish(fetching);
        stand_in(None)
    }
}

/// Starts fetching `chunk` (`fetching`: the `preload` of one of its split points) before
/// any place that draws it exists: a chat drawn in stages asks for the parts of its first
/// screen in its first task, so these fetches leave in the order they did when the chat was
/// drawn at once, before its locale's. The places drawn meanwhile wait for this fetch
/// ([`Lazy`]): one request, and a failure said once, when it happens (the banner, `on_error`);
/// the places then show it with Retry.
#[cfg(feature = "staged")]
pub(crate) fn fetch_ahead(
    chunk: Chunk,
    mut fetching: Pin<Box<dyn Future<Output = Result<(), ChunkMissing>>>>,
) {
    if has_arrived(chunk) || ahead(chunk) != Ahead::None {
        return;
    }
    // The first poll asks for the file: now, not in a later microtask.
    let ready = ready_now(fetching.as_mut());
    set_ahead(chunk, Ahead::Asked);
    let store = use_context::<ChatStore>();
    leptos::task::spawn_local(async move {
        let result = match ready {
            Some(result) => result,
            None => fetching.await,
        };
        if result.is_ok() {
            set_ahead(chunk, Ahead::None);
            let after_failures = with_fetch(chunk, ChunkFetch::arrived);
            if let (true, Some(store)) = (after_failures, store) {
                store.dispatch(Command::ChunkArrived(chunk));
            }
        } else {
            let now = crate::io::clock::now();
            with_fetch(chunk, |f| f.failed(now));
            set_ahead(chunk, Ahead::Failed);
            if let Some(store) = store {
                store.dispatch(Command::ReportError(ChatError::ChunkMissing(chunk)));
            }
        }
        arrivals(chunk).notify();
    });
}

/// Whether every fetch asked for ahead has its answer (and its failure said); tracked, so a
/// reactive reader runs again when one does.
#[cfg(feature = "staged")]
pub(crate) fn ahead_settled() -> bool {
    Chunk::ALL.iter().all(|&chunk| {
        arrivals(chunk).track();
        ahead(chunk) != Ahead::Asked
    })
}

/// Where a fetch asked for ahead of the places of its chunk stands.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ahead {
    /// None asked for, or it arrived, or a Retry took its place.
    None,
    /// On its way.
    Asked,
    /// Failed: every place of the chunk shows it, with Retry.
    Failed,
}

fn ahead(chunk: Chunk) -> Ahead {
    AHEAD.with(|a| a[index(chunk)].get())
}

fn set_ahead(chunk: Chunk, state: Ahead) {
    AHEAD.with(|a| a[index(chunk)].set(state));
}

/// A Retry: the place fetches the chunk itself from now on.
fn clear_failed_ahead(chunk: Chunk) {
    if ahead(chunk) == Ahead::Failed {
        set_ahead(chunk, Ahead::None);
    }
}

thread_local! {
    /// Per chunk: a fetch asked for ahead of its places ([`fetch_ahead`]).
    static AHEAD: [std::cell::Cell<Ahead>; Chunk::ALL.len()] = const { [const { std::cell::Cell::new(Ahead::None) }; Chunk::ALL.len()] };
    /// Per chunk: notified when it arrives, so that every place of that part draws it.
    static ARRIVALS: [ArcTrigger; Chunk::ALL.len()] = std::array::from_fn(|_| ArcTrigger::new());
    /// Per chunk: the core's fetch lifecycle, recording whether it arrived (then it stays) and
    /// whether fetches failed since. Places fetch through the split loader, which downloads a
    /// chunk once however many ask; a failed part is fetched again only by its Retry button.
    static FETCHES: [std::cell::Cell<ChunkFetch>; Chunk::ALL.len()] = std::array::from_fn(|_| std::cell::Cell::new(ChunkFetch::new()));
}

/// Runs `f` on `chunk`'s fetch lifecycle.
fn with_fetch<T>(chunk: Chunk, f: impl FnOnce(&mut ChunkFetch) -> T) -> T {
    FETCHES.with(|all| {
        let cell = &all[index(chunk)];
        let mut fetch = cell.get();
        let out = f(&mut fetch);
        cell.set(fetch);
        out
    })
}

/// The chunk's slot in the arrays above: its place in the enum (one slot per variant, as
/// many as [`Chunk::ALL`] lists).
fn index(chunk: Chunk) -> usize {
    chunk as usize
}

fn arrivals(chunk: Chunk) -> ArcTrigger {
    ARRIVALS.with(|all| all[index(chunk)].clone())
}

fn has_arrived(chunk: Chunk) -> bool {
    with_fetch(chunk, |f| f.has_arrived())
}

/// In place of a part that could not be fetched: what happened, and Retry.
fn failed_view(retry: impl Fn(leptos::ev::MouseEvent) + Send + Sync + 'static) -> impl IntoView {
    let i18n = I18n::get();
    view! {
        <div class="chat-chunk-failed">
            <span>{move || i18n.t("chat-chunk-failed")}</span>
            <button type="button" class="chat-chunk-failed__retry" on:click=retry>
                {move || i18n.t("chat-error-retry")}
            </button>
        </div>
    }
}
