//! Where a stateless backend's conversations live in the page: in memory, or in
//! `localStorage` as one key per thread under a prefix plus an index of ids. What a thread
//! is and how it reads is the core's (`core::transport::threads`); this file only moves text
//! in and out of storage. An entry that cannot be read is skipped and counted, never fatal; a
//! save the browser refuses (quota, storage blocked) is reported, never a panic. A host may
//! keep them itself instead ([`ThreadStorage`]: IndexedDB, its own server, …).

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use crate::core::transport::threads::{index_key, thread_key, Thread, ThreadIndex};
use crate::core::transport::ThreadStoreKind;

/// What a host's thread store answers, when it is ready.
pub type StorageFuture<T> = Pin<Box<dyn Future<Output = Result<T, String>>>>;

/// A thread store the host implements, for a backend without conversations of its own:
/// the chat keeps each conversation with its messages as one JSON text under
/// its id. It asks for every thread once, when it mounts (the history waits for the
/// answer), then saves a thread after each change and deletes it when the person does. An
/// entry `load` returns that is not a thread is skipped and reported ("could not be read");
/// an `Err` of `load` starts the chat with none and says so; an `Err` of `save` or `delete`
/// is shown, and the chat goes on from memory.
///
/// ```
/// use agent_chat_ui::io::threads::{StorageFuture, ThreadStorage};
/// use std::{cell::RefCell, collections::BTreeMap};
///
/// /// Keeps threads in a map (a real host would write IndexedDB or its own server).
/// #[derive(Default)]
/// struct MapThreads(RefCell<BTreeMap<String, String>>);
///
/// impl ThreadStorage for MapThreads {
///     fn load(&self) -> StorageFuture<Vec<String>> {
///         let texts = self.0.borrow().values().cloned().collect();
///         Box::pin(async move { Ok(texts) })
///     }
///     fn save(&self, id: &str, text: &str) -> StorageFuture<()> {
///         self.0.borrow_mut().insert(id.to_owned(), text.to_owned());
///         Box::pin(async { Ok(()) })
///     }
///     fn delete(&self, id: &str) -> StorageFuture<()> {
///         self.0.borrow_mut().remove(id);
///         Box::pin(async { Ok(()) })
///     }
/// }
/// ```
pub trait ThreadStorage {
    /// Every kept thread, as the texts `save` was given.
    fn load(&self) -> StorageFuture<Vec<String>>;
    /// Keeps `text` (a JSON `{conversation, messages}`) as thread `id`, creating or
    /// replacing it.
    fn save(&self, id: &str, text: &str) -> StorageFuture<()>;
    /// Forgets thread `id`.
    fn delete(&self, id: &str) -> StorageFuture<()>;
}

/// A host's thread store as a chat's configuration holds it; two are equal when they are
/// the same store.
#[derive(Clone)]
pub struct HostThreads(pub Rc<dyn ThreadStorage>);

impl HostThreads {
    /// Wraps a host's store.
    pub fn new(store: impl ThreadStorage + 'static) -> HostThreads {
        HostThreads(Rc::new(store))
    }
}

impl PartialEq for HostThreads {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for HostThreads {}

impl std::fmt::Debug for HostThreads {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("HostThreads(..)")
    }
}

/// One chat's thread store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ThreadStore {
    /// Kept by the gateway only: gone on reload.
    Memory,
    /// `localStorage` under this prefix.
    Local {
        /// Key prefix (`agent-chat-ui:threads:<base URL>`).
        prefix: String,
    },
    /// The host's own store.
    Host(HostThreads),
}

impl ThreadStore {
    /// The store `kind` for the chat talking to `backend` at `base_url`: each server keeps its
    /// own threads, and so does each backend at one URL (OpenAI's `/v1` serves both Chat
    /// Completions and Responses, whose threads do not mix): the backend's storage prefix.
    pub fn new(
        kind: ThreadStoreKind,
        backend: crate::core::transport::TransportKind,
        base_url: &str,
    ) -> ThreadStore {
        match kind {
            ThreadStoreKind::Memory => ThreadStore::Memory,
            ThreadStoreKind::Local => ThreadStore::Local {
                prefix: backend.storage_prefix(base_url),
            },
        }
    }

    /// The threads kept, and how many stored entries could not be read (skipped).
    pub fn load(&self) -> (Vec<Thread>, usize) {
        let ThreadStore::Local { prefix } = self else {
            return (Vec::new(), 0);
        };
        let Some(storage) = storage() else {
            return (Vec::new(), 0);
        };
        let index = storage
            .get_item(&index_key(prefix))
            .ok()
            .flatten()
            .map(|t| ThreadIndex::from_text(&t))
            .unwrap_or_default();
        let mut threads = Vec::new();
        let mut unreadable = 0;
        for id in &index.0 {
            // Listed but gone (removed by another tab) is nothing to report.
            if let Some(text) = storage.get_item(&thread_key(prefix, id)).ok().flatten() {
                match Thread::from_text(&text) {
                    Ok(t) if t.id() == id => threads.push(t),
                    Ok(_) | Err(_) => unreadable += 1,
                }
            }
        }
        (threads, unreadable)
    }

    /// Keeps `thread`; `Err` when the browser refused (full or blocked storage).
    pub fn save(&self, thread: &Thread) -> Result<(), String> {
        let ThreadStore::Local { prefix } = self else {
            return Ok(());
        };
        let storage = storage().ok_or("no localStorage")?;
        storage
            .set_item(&thread_key(prefix, thread.id()), &thread.to_text())
            .map_err(|_| "the browser refused to store the conversation".to_owned())?;
        self.update_index(&storage, |i| i.insert(thread.id()))
    }

    /// Forgets thread `id`.
    pub fn delete(&self, id: &str) -> Result<(), String> {
        let ThreadStore::Local { prefix } = self else {
            return Ok(());
        };
        let storage = storage().ok_or("no localStorage")?;
        let _ = storage.remove_item(&thread_key(prefix, id));
        self.update_index(&storage, |i| i.remove(id))
    }

    fn update_index(
        &self,
        storage: &web_sys::Storage,
        change: impl FnOnce(&mut ThreadIndex),
    ) -> Result<(), String> {
        let ThreadStore::Local { prefix } = self else {
            return Ok(());
        };
        let key = index_key(prefix);
        let mut index = storage
            .get_item(&key)
            .ok()
            .flatten()
            .map(|t| ThreadIndex::from_text(&t))
            .unwrap_or_default();
        change(&mut index);
        storage
            .set_item(&key, &index.to_text())
            .map_err(|_| "the browser refused to store the index".to_owned())
    }
}

#[cfg(target_arch = "wasm32")]
fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

#[cfg(not(target_arch = "wasm32"))]
fn storage() -> Option<web_sys::Storage> {
    None
}
