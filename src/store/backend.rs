//! The gateway of a backend other than the agent server: in the element and the page its code
//! is a chunk fetched when a chat is pointed at one. Until it is here the
//! gateway holds the session's requests (the chat reads as loading). A fetch that fails is
//! said in the banner (and `on_error`) and tried again after 1, 2, 4… up to 30 seconds; when
//! the code arrives the banner clears and the requests that waited go out in order.

use leptos::prelude::*;

use crate::core::chunk_fetch::Begin;
use crate::core::transport::{Gateway, Thread, TransportOptions};
use crate::core::{ChatError, Chunk, Command};
use crate::io::split::{later, ready_now};

use super::ChatStore;
use crate::io::http::TransportConfig;

/// What [`ChatStore::gateway_for`] gives: the gateway, the thread store, how many stored
/// threads could not be read, and the backend the gateway awaits.
type GatewayFor = (
    crate::core::transport::Gateway,
    Option<crate::io::threads::ThreadStore>,
    usize,
    Option<BackendSpec>,
);

/// What builds a backend's gateway.
#[derive(Clone, Debug)]
pub(crate) struct BackendSpec {
    /// The backend.
    pub(crate) options: TransportOptions,
    /// The threads the page's own store holds.
    pub(crate) threads: Vec<Thread>,
    /// Random seed for new ids.
    pub(crate) seed: u64,
    /// The host's store reads the threads after the mount ([`Gateway::loading`]).
    pub(crate) loading: bool,
}

crate::io::split::split_point!(
    backends,
    preload_backends,
    /// The gateway of a backend other than the agent server.
    fn backend_part(spec: BackendSpec) -> Gateway {
        if spec.loading {
            Gateway::loading(&spec.options, spec.seed)
        } else {
            Gateway::new(&spec.options, spec.threads, spec.seed)
        }
    }
);

/// The gateway for `spec` if its code is here now (always without `split`).
pub(super) fn gateway_now(spec: &BackendSpec) -> Option<Gateway> {
    let mut fetched = Box::pin(preload_backends());
    if ready_now(fetched.as_mut()) != Some(Ok(())) {
        return None;
    }
    let mut built = Box::pin(backend_part(spec.clone()));
    ready_now(built.as_mut()).and_then(Result::ok)
}

impl ChatStore {
    /// The gateway for `transport`'s backend, its thread store, and how many stored threads
    /// could not be read. A host's own store is read after the mount
    /// ([`ChatStore::load_host_threads`]); until then the gateway holds the session's
    /// requests.
    ///
    /// In the element and the page the backends other than the agent server are a chunk
    /// fetched on first use: if it is not here yet, the gateway awaits it and the [`BackendSpec`]
    /// that builds it is returned, for [`ChatStore::fetch_backend`].
    pub(super) fn gateway_for(transport: &TransportConfig) -> GatewayFor {
        use crate::core::transport::Gateway;
        let backend = &transport.backend;
        if !backend.keeps_threads() {
            return (Gateway::direct(), None, 0, None);
        }
        let seed = crate::io::keys::random_seed();
        let (spec, store, unreadable) = match &transport.thread_storage {
            Some(host) => {
                let spec = BackendSpec {
                    options: backend.clone(),
                    threads: Vec::new(),
                    seed,
                    loading: true,
                };
                (spec, crate::io::threads::ThreadStore::Host(host.clone()), 0)
            }
            None => {
                let store = crate::io::threads::ThreadStore::new(
                    backend.thread_store,
                    backend.kind,
                    &transport.base_url,
                );
                let (threads, unreadable) = store.load();
                let spec = BackendSpec {
                    options: backend.clone(),
                    threads,
                    seed,
                    loading: false,
                };
                (spec, store, unreadable)
            }
        };
        match gateway_now(&spec) {
            Some(gateway) => (gateway, Some(store), unreadable, None),
            None => (Gateway::awaiting(), Some(store), unreadable, Some(spec)),
        }
    }

    /// Fetches the backends' chunk for the awaited backend, unless a fetch (or the wait after a
    /// failed one) is on its way, and hands the gateway the backend when it arrives; a failure
    /// is reported (the first of a row) and the chunk asked for again after its wait. When to
    /// fetch is the core's [`ChunkFetch`](crate::core::chunk_fetch::ChunkFetch).
    pub(super) fn fetch_backend(&self) {
        let store = *self;
        let now = crate::io::clock::now();
        let Some(Some((begin, spec, generation))) = self.driver.try_update_value(|d| {
            let spec = d.backend.clone()?;
            Some((d.backend_fetch.begin(now), spec, d.generation))
        }) else {
            return;
        };
        match begin {
            Begin::Fetch => {}
            Begin::Wait(ms) => {
                later(ms, move || {
                    if store.is_generation(generation) {
                        store.fetch_backend();
                    }
                });
                return;
            }
            Begin::OnItsWay | Begin::Here => return,
        }
        leptos::task::spawn_local(async move {
            let fetched = preload_backends().await;
            if !store.is_generation(generation) {
                return;
            }
            match fetched.ok().and_then(|()| gateway_now(&spec)) {
                Some(gateway) => {
                    let after_failures = store
                        .driver
                        .try_update_value(|d| d.backend_fetch.arrived())
                        .unwrap_or(false);
                    store.run(move |d, now| {
                        d.backend = None;
                        d.gateway.arrived(now, gateway);
                    });
                    if after_failures {
                        store.dispatch(Command::ChunkArrived(Chunk::Backends));
                    }
                }
                None => {
                    let now = crate::io::clock::now();
                    let Some(failed) = store
                        .driver
                        .try_update_value(|d| d.backend_fetch.failed(now))
                    else {
                        return;
                    };
                    if failed.first {
                        store.dispatch(Command::ReportError(ChatError::ChunkMissing(
                            Chunk::Backends,
                        )));
                    }
                    later(failed.retry_at.0.saturating_sub(now.0), move || {
                        if store.is_generation(generation) {
                            store.fetch_backend();
                        }
                    });
                }
            }
        });
    }
}
