//! Where a stateless backend's conversations live in the page (issue 15): in memory, or in
//! `localStorage` as one key per thread under a prefix plus an index of ids. What a thread
//! is and how it reads is the core's (`core::transport::threads`); this file only moves text
//! in and out of storage. An entry that cannot be read is skipped and counted, never fatal; a
//! save the browser refuses (quota, storage blocked) is reported, never a panic.

use crate::core::transport::threads::{index_key, thread_key, Thread, ThreadIndex, DEFAULT_PREFIX};
use crate::core::transport::ThreadStoreKind;

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
}

impl ThreadStore {
    /// The store `kind` for the chat talking to `base_url`: each server keeps its own threads.
    pub fn new(kind: ThreadStoreKind, base_url: &str) -> ThreadStore {
        match kind {
            ThreadStoreKind::Memory => ThreadStore::Memory,
            ThreadStoreKind::Local => ThreadStore::Local {
                prefix: format!("{DEFAULT_PREFIX}:{base_url}"),
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
