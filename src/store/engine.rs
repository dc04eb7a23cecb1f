//! The session's logic as a part of its own (issue 16, D74): what turns an input into the
//! session's work, with the wire readers, the SSE parser, the cards' rules and the gateways.
//!
//! In the element and the page it is a chunk fetched as soon as a chat is created, beside
//! the first download, so the composer can be typed in before it is here. Until it arrives
//! the store keeps every input in order and runs none: nothing reaches the session, and so
//! nothing is sent, before the code that decides what may be sent is here. A fetch that
//! fails is said in the banner (and `on_error`, the element's `error` event) and tried again
//! after 1, 2, 4… up to 30 seconds; when the code arrives the banner clears and the inputs
//! that waited run in order. Without the `split` feature (a Leptos app, the tests) the logic
//! is in the main wasm and ready at once.

use leptos::prelude::*;

use crate::core::transport::{Gateway, Work};
use crate::core::{ChatError, Chunk, Input, Millis, Session, SessionEvent};
use crate::io::split::part_now;

use super::{backend::retry_delay_ms, ChatStore, Driver};

/// The session's and the gateways' logic, as plain functions the store calls.
#[derive(Clone, Copy)]
pub(super) struct Engine {
    /// One input into the session.
    pub(super) handle: fn(&mut Session, Millis, Input),
    /// What the wire answered to one of the gateway's requests.
    pub(super) from_wire: fn(&mut Gateway, Millis, Input),
    /// Everything the session and the gateway have to do now, in order.
    pub(super) pump: fn(&mut Session, &mut Gateway, Millis) -> Vec<Work>,
}

crate::io::split::split_point!(
    core,
    preload_core,
    /// The session's logic.
    fn engine_part() -> Engine {
        Engine {
            handle: Session::handle,
            from_wire: Gateway::from_wire,
            pump: crate::core::transport::pump,
        }
    }
);

/// The session's logic if its code is here now (always without `split`).
pub(super) fn engine_now() -> Option<Engine> {
    part_now(preload_core, engine_part)
}

/// One step of the drive loop, kept while the session's logic is on its way.
pub(super) type Step = Box<dyn FnOnce(&mut Driver, Millis, Engine)>;

/// Where the session's logic is.
#[derive(Default)]
pub(super) struct EngineSlot {
    /// The logic, once here.
    pub(super) engine: Option<Engine>,
    /// Steps that came before it, oldest first.
    pub(super) waiting: std::collections::VecDeque<Step>,
    /// A fetch is on its way.
    fetching: bool,
    /// How many fetches failed in a row.
    failures: u32,
}

impl EngineSlot {
    /// The logic if it is here now (always without `split`), else nothing yet.
    pub(super) fn new() -> Self {
        Self {
            engine: engine_now(),
            ..Self::default()
        }
    }
}

impl ChatStore {
    /// Fetches the session's logic unless it is here or on its way; when it arrives the steps
    /// that waited run in order. A failure is reported (the first of a row) and retried later.
    pub(super) fn fetch_engine(&self) {
        let Some(true) = self.driver.try_update_value(|d| {
            let start = d.engine.engine.is_none() && !d.engine.fetching;
            d.engine.fetching |= start;
            start
        }) else {
            return;
        };
        let store = *self;
        leptos::task::spawn_local(async move {
            let fetched = preload_core().await;
            match fetched.ok().and_then(|()| engine_now()) {
                Some(engine) => store.engine_arrived(engine),
                None => store.engine_failed(),
            }
        });
    }

    fn engine_arrived(&self, engine: Engine) {
        let Some(failures) = self.driver.try_update_value(|d| {
            d.engine.engine = Some(engine);
            d.engine.fetching = false;
            // The status and the history were drawn without a session (nothing could be
            // sent, the history read as loading): publish them.
            d.published.status = u64::MAX;
            d.published.history = u64::MAX;
            std::mem::take(&mut d.engine.failures)
        }) else {
            return;
        };
        if failures > 0 {
            // The banner said the chat could not load: it can now.
            let missing = Some(ChatError::ChunkMissing(Chunk::Core));
            if self.status.try_with_untracked(|s| s.error == missing) == Some(true) {
                let _ = self.write.status.try_update(|s| s.error = None);
            }
        }
        // One at a time: a step that makes another (a host callback dispatching) queues it
        // behind the ones still waiting.
        while let Some(Some(step)) = self
            .driver
            .try_update_value(|d| d.engine.waiting.pop_front())
        {
            self.run_now(step);
        }
        self.schedule_publish();
    }

    fn engine_failed(&self) {
        let Some(failures) = self.driver.try_update_value(|d| {
            d.engine.fetching = false;
            d.engine.failures += 1;
            d.engine.failures
        }) else {
            return;
        };
        if failures == 1 {
            // No session to report to: the banner and `on_error` are told directly.
            let error = ChatError::ChunkMissing(Chunk::Core);
            let _ = self
                .write
                .status
                .try_update(|s| s.error = Some(error.clone()));
            self.emit(SessionEvent::Error(error));
        }
        let store = *self;
        let delay = std::time::Duration::from_millis(retry_delay_ms(failures));
        set_timeout(move || store.fetch_engine(), delay);
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::core::{Command, Method, Role, SessionConfig};
    use crate::store::ChatCallbacks;

    /// A detached store as the element has it before the chunk arrives: no logic, a fetch on
    /// its way.
    fn without_engine() -> (Owner, ChatStore) {
        let owner = Owner::new();
        owner.set();
        let config = SessionConfig {
            agent_id: Some("support".into()),
            ..SessionConfig::default()
        };
        let store = ChatStore::detached(Session::new(config), ChatCallbacks::default());
        store.driver.update_value(|d| {
            d.engine.engine = None;
            d.engine.fetching = true;
            // Its status is still to be published, as for a store built without the logic.
            d.published.status = u64::MAX;
        });
        (owner, store)
    }

    #[test]
    fn i16_nothing_reaches_the_session_before_its_logic_then_all_of_it_in_order() {
        let (_owner, store) = without_engine();
        store.dispatch(Command::Start);
        store.send_message("hello");
        assert!(store.take_requests().is_empty(), "nothing is sent");
        assert_eq!(store.driver.with_value(|d| d.engine.waiting.len()), 2);
        assert!(
            store.messages.get_untracked().is_empty(),
            "the session saw nothing"
        );
        // A publish in between says nothing can be sent yet.
        store.publish();
        assert!(!store.status.get_untracked().can_send);

        store.engine_arrived(engine_now().expect("without `split` the logic is here"));
        let sent = store.take_requests();
        assert_eq!(
            (sent[0].method, sent[0].path.as_str()),
            (Method::Get, "/agents"),
            "the start runs first: {sent:?}"
        );
        let messages = store.messages.get_untracked();
        assert!(
            messages
                .iter()
                .any(|m| m.role == Role::User && m.content.display_text() == "hello"),
            "the send ran after it: {messages:?}"
        );
        assert!(store.driver.with_value(|d| d.engine.waiting.is_empty()));
        assert!(store.ready.get_untracked());
    }

    #[test]
    fn i16_a_step_a_host_makes_while_the_waiting_ones_run_goes_behind_them() {
        use std::sync::{Arc, Mutex};
        let order = Arc::new(Mutex::new(Vec::new()));
        let shared: Arc<Mutex<Option<ChatStore>>> = Default::default();
        let owner = Owner::new();
        owner.set();
        // A host that answers an error by dispatching again.
        let on_error = {
            let (order, shared) = (order.clone(), shared.clone());
            Callback::new(move |_: ChatError| {
                let Some(store) = *shared.lock().unwrap() else {
                    return;
                };
                let order = order.clone();
                store.run(move |_, _, _| order.lock().unwrap().push("from the host"));
            })
        };
        let callbacks = ChatCallbacks {
            on_error: Some(on_error),
            ..ChatCallbacks::default()
        };
        let store = ChatStore::detached(Session::new(SessionConfig::default()), callbacks);
        *shared.lock().unwrap() = Some(store);
        store.driver.update_value(|d| {
            d.engine.engine = None;
            d.engine.fetching = true;
        });
        store.dispatch(Command::ReportError(ChatError::ChunkMissing(Chunk::Cards)));
        for name in ["second", "third"] {
            let order = order.clone();
            store.run(move |_, _, _| order.lock().unwrap().push(name));
        }
        assert!(order.lock().unwrap().is_empty());
        store.engine_arrived(engine_now().expect("without `split` the logic is here"));
        assert_eq!(*order.lock().unwrap(), ["second", "third", "from the host"]);
    }
}
