//! The full argsSchema checker, fetched before an edit the host gives ahead of any card.
//!
//! In the element and the page the checker travels in the cards' part, which the first card
//! fetches. A host can answer with edited arguments before any card was drawn (from
//! `on_action_required`, say); without the checker the gate could only say it cannot judge
//! the edit. So such an answer waits for this part, then goes through the gate like any
//! other. A failed fetch is tried again after the chunks' usual waits (1 s, 2 s, 4 s, 8 s);
//! a part still missing then leaves the gate as it was ("cannot judge", which the server
//! checks again) and the answer goes on: the host is never left waiting for ever.

use crate::core::chunk_fetch::{Begin, ChunkFetch};

crate::io::split::split_point!(
    cards,
    preload_checker,
    /// Installs the full checker in the answer gate; shares the cards' part.
    fn install_checker() -> () {
        crate::core::schema::install_gate_check();
    }
);

/// Failed fetches of the part after which the answer goes on without the checker.
const ATTEMPTS: u32 = 5;

/// Runs `then` once the checker is in the gate (or could not be fetched).
pub(crate) fn then(then: impl FnOnce() + 'static) {
    attempt(ChunkFetch::new(), Box::new(then));
}

/// One fetch of the part, its waits kept by the core's [`ChunkFetch`].
fn attempt(mut fetch: ChunkFetch, then: Box<dyn FnOnce()>) {
    match fetch.begin(crate::io::clock::now()) {
        Begin::Fetch => {}
        Begin::Wait(ms) => return crate::io::split::later(ms, move || attempt(fetch, then)),
        Begin::OnItsWay | Begin::Here => return then(),
    }
    leptos::task::spawn_local(async move {
        if install_checker().await.is_ok() {
            fetch.arrived();
            return then();
        }
        let now = crate::io::clock::now();
        let failed = fetch.failed(now);
        if failed.failures >= ATTEMPTS {
            return then();
        }
        crate::io::split::later(failed.retry_at.0.saturating_sub(now.0), move || {
            attempt(fetch, then)
        });
    });
}
