//! The store's drive loop: one input into the session, its outputs run (requests, aborts,
//! file reads), the session's timer armed, and the switch to another server.

use leptos::prelude::*;

use crate::core::transport::{GatewayOutput, Work};
use crate::core::{Command, Input, Output, RequestId, Session, SessionConfig};

use super::ChatStore;

impl ChatStore {
    /// The one drive loop: handle, drain outputs, re-arm the timer, schedule a publish, then
    /// run host callbacks (after every borrow is released, so they may dispatch again).
    pub(super) fn handle(&self, input: Input) {
        self.run(move |d, now| d.session.handle(now, input));
    }

    /// What the wire answered to one of the gateway's requests.
    pub(super) fn handle_wire(&self, input: Input) {
        self.run(move |d, now| d.gateway.from_wire(now, input));
    }

    /// Runs `step` on the driver, then the work the session and the gateway have to do now.
    pub(super) fn run(&self, step: impl FnOnce(&mut super::Driver, crate::core::Millis)) {
        let now = crate::io::clock::now();
        let Some((work, next_timeout)) = self.driver.try_update_value(|d| {
            step(d, now);
            let work = crate::core::transport::pump(&mut d.session, &mut d.gateway, now);
            (work, d.session.poll_timeout())
        }) else {
            return; // disposed
        };
        self.arm_timer(next_timeout.map(|t| t.0.saturating_sub(now.0)));
        let mut events = Vec::new();
        for w in work {
            match w {
                Work::Gateway(GatewayOutput::Send(req)) => self.spawn_request(req, false, false),
                Work::Gateway(GatewayOutput::OpenStream(req)) => {
                    self.spawn_request(req, true, false)
                }
                Work::Gateway(GatewayOutput::RunInPage { request, stream }) => {
                    self.spawn_request(request, stream, true)
                }
                Work::Gateway(GatewayOutput::Abort(id)) => {
                    if let Some(Some(c)) =
                        self.driver.try_update_value(|d| d.controllers.remove(&id))
                    {
                        c.abort();
                    }
                }
                Work::Gateway(GatewayOutput::SaveThread(thread)) => self.keep_thread(Ok(thread)),
                Work::Gateway(GatewayOutput::DeleteThread(id)) => self.keep_thread(Err(id)),
                Work::Gateway(GatewayOutput::Log(line)) => {
                    #[cfg(target_arch = "wasm32")]
                    web_sys::console::debug_1(&line.into());
                    #[cfg(not(target_arch = "wasm32"))]
                    let _ = line;
                }
                // Fed to the session by `pump`; never left over.
                Work::Gateway(GatewayOutput::Session(_)) => {}
                Work::Session(out) => match *out {
                    Output::Event(ev) => events.push(ev),
                    Output::ReadFile { index, id } => self.read_file(index, id),
                    // Requests and aborts are the gateway's.
                    _ => {}
                },
            }
        }
        self.schedule_publish();
        for ev in events {
            self.emit(ev);
        }
    }

    /// Runs one request of the gateway: fetched, or (`in_page`) run by the host's agent.
    pub(super) fn spawn_request(&self, req: crate::core::HttpRequest, stream: bool, in_page: bool) {
        // Detached: recorded, and no browser object is made (so the store runs natively too).
        let Some(transport) = self.driver.try_update_value(|d| {
            if d.transport.is_none() {
                d.recorded.push(req.clone());
            }
            d.transport.clone()
        }) else {
            return;
        };
        let Some(transport) = transport else {
            return;
        };
        let Ok(controller) = web_sys::AbortController::new() else {
            let id = req.id;
            let err = crate::core::TransportError::Network("AbortController unavailable".into());
            return self.handle_wire(Input::Response {
                id,
                result: Err(err),
            });
        };
        self.driver
            .try_update_value(|d| d.controllers.insert(req.id, controller.clone()));
        let store = *self;
        let id = req.id;
        let generation = self.driver.try_with_value(|d| d.generation).unwrap_or(0);
        leptos::task::spawn_local(async move {
            if let (true, Some(agent)) = (in_page, transport.agent.clone()) {
                // An agent in the page (issue 15): run instead of fetched, fed back the same way.
                crate::io::agent::run(&agent, req, stream, controller, move |input| {
                    if store.is_generation(generation) {
                        if !matches!(input, Input::StreamChunk { .. }) {
                            store.forget_controller(id);
                        }
                        store.handle_wire(input);
                    }
                })
                .await;
            } else if in_page {
                // A turn for an agent in the page, but the host gave none: nothing to run.
                if store.is_generation(generation) {
                    let err = crate::core::TransportError::Network("no agent in the page".into());
                    store.forget_controller(id);
                    store.handle_wire(Input::Response {
                        id,
                        result: Err(err),
                    });
                }
            } else if stream {
                crate::io::http::run_stream(&transport, req, controller, move |input| {
                    if !store.is_generation(generation) {
                        return;
                    }
                    let closing = !matches!(input, Input::StreamChunk { .. });
                    if closing {
                        store.forget_controller(id);
                    }
                    store.handle_wire(input)
                })
                .await;
            } else {
                let input = crate::io::http::run_request(&transport, req, controller).await;
                if store.is_generation(generation) {
                    store.forget_controller(id);
                    store.handle_wire(input);
                }
            }
        });
    }

    /// Reads the threads of the host's own store, then lets the gateway answer the session's
    /// requests that waited for them; entries that are not threads, and a store that could
    /// not load at all, are reported.
    pub(super) fn load_host_threads(&self, host: crate::io::threads::HostThreads) {
        let store = *self;
        let generation = self.driver.try_with_value(|d| d.generation).unwrap_or(0);
        leptos::task::spawn_local(async move {
            let loaded = host.0.load().await;
            if !store.is_generation(generation) {
                return;
            }
            let (threads, error) = match loaded {
                Ok(texts) => {
                    let (threads, unreadable) =
                        crate::core::transport::threads::read_threads(&texts);
                    let error =
                        (unreadable > 0).then_some(crate::core::ChatError::Storage { unreadable });
                    (threads, error)
                }
                Err(_) => (Vec::new(), Some(crate::core::ChatError::StorageLoad)),
            };
            store.run(move |d, now| d.gateway.threads_loaded(now, threads));
            if let Some(error) = error {
                store.dispatch(Command::ReportError(error));
            }
        });
    }

    /// Saves (`Ok`) or deletes (`Err(id)`) a thread in the chat's thread store; a refusal
    /// of the browser is shown, the conversation stays in the chat.
    fn keep_thread(&self, change: Result<crate::core::transport::Thread, String>) {
        let Some(Some(store)) = self.driver.try_with_value(|d| d.threads.clone()) else {
            return;
        };
        if let crate::io::threads::ThreadStore::Host(host) = store {
            let chat = *self;
            leptos::task::spawn_local(async move {
                let result = match &change {
                    Ok(thread) => host.0.save(thread.id(), &thread.to_text()).await,
                    Err(id) => host.0.delete(id).await,
                };
                if result.is_err() {
                    chat.dispatch(Command::ReportError(crate::core::ChatError::Storage {
                        unreadable: 0,
                    }));
                }
            });
            return;
        }
        let result = match &change {
            Ok(thread) => store.save(thread),
            Err(id) => store.delete(id),
        };
        if result.is_err() {
            self.dispatch(Command::ReportError(crate::core::ChatError::Storage {
                unreadable: 0,
            }));
        }
    }

    pub(super) fn read_file(&self, index: usize, id: String) {
        let file = self
            .driver
            .try_with_value(|d| d.file_batch.get(index).cloned())
            .flatten();
        let store = *self;
        let generation = self.driver.try_with_value(|d| d.generation).unwrap_or(0);
        match file {
            Some(file) => leptos::task::spawn_local(async move {
                let result = crate::io::files::read_base64(file).await;
                if store.is_generation(generation) {
                    store.handle(Input::FileRead { id, result });
                }
            }),
            None => store.handle(Input::FileRead {
                id,
                result: Err("file not found".into()),
            }),
        }
    }

    /// Whether the session of `generation` is still the one in use (no server switch since).
    pub(super) fn is_generation(&self, generation: u64) -> bool {
        self.driver.try_with_value(|d| d.generation) == Some(generation)
    }

    /// Talks to another server from now on (a new `base_url`): requests on their
    /// way are aborted and whatever they report is dropped, the session starts over with
    /// `config` (conversation, history and cards are the new server's), with that server's
    /// decision keys; the draft stays. Nothing for a detached store.
    pub fn switch_server(&self, mut config: SessionConfig, base_url: &str) {
        if self.driver.try_with_value(|d| d.transport.is_some()) != Some(true) {
            return;
        }
        let base_url = base_url.trim_end_matches('/').to_owned();
        let scope = crate::io::keys::scope(&base_url);
        if config.decision_keys.is_empty() {
            config.decision_keys = crate::io::keys::load(&scope);
        }
        config.key_seed = crate::io::keys::random_seed();
        let Some((controllers, timer, host)) = self.driver.try_update_value(|d| {
            let mut host = None;
            if let Some(t) = d.transport.as_mut() {
                t.base_url = base_url;
                let (gateway, threads, _, awaited) = ChatStore::gateway_for(t);
                if let Some(crate::io::threads::ThreadStore::Host(h)) = &threads {
                    host = Some(h.clone());
                }
                d.gateway = gateway;
                d.threads = threads;
                // A fetch for the earlier server reports to a generation that is gone.
                d.backend = awaited;
                d.backend_fetch = Default::default();
            }
            d.generation += 1;
            d.session = Session::new(config);
            d.keys_scope = Some(scope);
            d.file_batch.clear();
            // Every slice is published afresh from the new session.
            d.published = crate::core::Revisions {
                messages: u64::MAX,
                streaming: u64::MAX,
                status: u64::MAX,
                history: u64::MAX,
                actions: u64::MAX,
                files: u64::MAX,
            };
            (std::mem::take(&mut d.controllers), d.timer.take(), host)
        }) else {
            return;
        };
        self.fetch_backend();
        if let Some(host) = host {
            self.load_host_threads(host);
        }
        for controller in controllers.values() {
            controller.abort();
        }
        if let Some(handle) = timer {
            handle.clear();
        }
        self.dispatch(Command::Start);
    }

    pub(super) fn forget_controller(&self, id: RequestId) {
        self.driver.try_update_value(|d| d.controllers.remove(&id));
    }

    pub(super) fn arm_timer(&self, delay_ms: Option<u64>) {
        let old = self.driver.try_update_value(|d| d.timer.take()).flatten();
        if let Some(handle) = old {
            handle.clear();
        }
        let Some(delay) = delay_ms else { return };
        let store = *self;
        // A browser timer holds at most 2^31-1 ms (24.8 days; Leptos throws beyond it): a
        // deadline further away wakes the session once a day, which re-arms the timer.
        // Due now (the next slice of a long answer, issue 18): a task of its own without the
        // timers' 4 ms hold. Nothing to clear later: a spare `Timeout` does only what is due.
        #[cfg(target_arch = "wasm32")]
        if delay == 0 && crate::io::soon::soon(move || store.handle(Input::Timeout)) {
            return;
        }
        let delay = std::time::Duration::from_millis(delay.min(MAX_TIMER_MS));
        if let Some(handle) = after(delay, move || store.handle(Input::Timeout)) {
            self.driver.try_update_value(|d| d.timer = Some(handle));
        }
    }
}

/// The longest single timer the store arms (one day).
const MAX_TIMER_MS: u64 = 86_400_000;

/// Calls `f` once after `delay`.
#[cfg(target_arch = "wasm32")]
fn after(delay: std::time::Duration, f: impl FnOnce() + 'static) -> Option<TimeoutHandle> {
    set_timeout_with_handle(f, delay).ok()
}

/// Natively nothing fires: a test feeds `Input::Timeout` itself.
#[cfg(not(target_arch = "wasm32"))]
fn after(_delay: std::time::Duration, _f: impl FnOnce() + 'static) -> Option<TimeoutHandle> {
    None
}
