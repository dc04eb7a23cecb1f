//! [`StreamText`]: the text of a streaming reply as an append-only buffer that is shared, not
//! copied, by every snapshot of it.
//!
//! The session appends every `stream.text` delta; the store publishes a snapshot once per
//! animation frame and the Markdown view reads only the bytes it has not seen yet. A clone is
//! a reference count and a length, so publishing a frame, reporting `StreamText` events or
//! sending a tool-call change costs the same at the end of a long answer as at its start.
//!
//! Value semantics are kept: a snapshot is the buffer's first `len` bytes, and bytes are only
//! ever added after the longest snapshot. Appending to a snapshot that is not the longest one
//! (two clones growing apart) gives that snapshot a buffer of its own (one copy, see
//! [`StreamText::push_str`]); the session never does that.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

/// Source of [`StreamText::buffer_id`]: unique per buffer for the life of the program, so a
/// reader can never mistake a new answer for the one it was reading (addresses are reused).
static NEXT_BUFFER: AtomicU64 = AtomicU64::new(1);

#[derive(Debug)]
struct Buffer {
    id: u64,
    text: RwLock<String>,
}

impl Buffer {
    fn new(text: String) -> Arc<Self> {
        Arc::new(Buffer {
            id: NEXT_BUFFER.fetch_add(1, Ordering::Relaxed),
            text: RwLock::new(text),
        })
    }

    fn read<R>(&self, f: impl FnOnce(&String) -> R) -> R {
        f(&self.text.read().unwrap_or_else(|e| e.into_inner()))
    }
}

/// Append-only text shared by its clones (see the module docs). Cloning costs O(1).
#[derive(Clone)]
pub struct StreamText {
    buffer: Arc<Buffer>,
    /// This snapshot is `buffer[..len]`.
    len: usize,
}

impl Default for StreamText {
    fn default() -> Self {
        StreamText::new()
    }
}

impl StreamText {
    /// Empty text with a buffer of its own.
    pub fn new() -> Self {
        StreamText {
            buffer: Buffer::new(String::new()),
            len: 0,
        }
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// No text yet.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Identifies the buffer behind this snapshot: two snapshots with the same id are prefixes
    /// of one another, so a reader that has read `n` bytes of one can read on from byte `n`
    /// of the other.
    pub fn buffer_id(&self) -> u64 {
        self.buffer.id
    }

    /// Appends `delta`. In place when this snapshot is the longest of its buffer (the only
    /// case the session has); otherwise this snapshot first gets a buffer of its own with a
    /// copy of its text, so the other snapshots keep theirs.
    pub fn push_str(&mut self, delta: &str) {
        if delta.is_empty() {
            return;
        }
        let appended = {
            let mut text = self.buffer.text.write().unwrap_or_else(|e| e.into_inner());
            if text.len() == self.len {
                text.push_str(delta);
                true
            } else {
                false
            }
        };
        if !appended {
            let mut own = self.buffer.read(|t| {
                let mut own = String::with_capacity(self.len + delta.len());
                own.push_str(&t[..self.len]);
                own
            });
            own.push_str(delta);
            self.buffer = Buffer::new(own);
        }
        self.len += delta.len();
    }

    /// Calls `f` with the text (borrowed from the shared buffer, not copied).
    pub fn with<R>(&self, f: impl FnOnce(&str) -> R) -> R {
        self.buffer.read(|t| f(&t[..self.len]))
    }

    /// Calls `f` with the text from byte `start` on: the part a reader that has read `start`
    /// bytes has not seen. Empty when `start` is past the end or not a character boundary.
    pub fn with_from<R>(&self, start: usize, f: impl FnOnce(&str) -> R) -> R {
        self.buffer
            .read(|t| f(t[..self.len].get(start..).unwrap_or_default()))
    }

    /// `true` when both are snapshots of the same buffer (nothing was copied between them).
    pub fn shares_buffer_with(&self, other: &StreamText) -> bool {
        Arc::ptr_eq(&self.buffer, &other.buffer)
    }
}

impl From<&str> for StreamText {
    fn from(text: &str) -> Self {
        StreamText {
            buffer: Buffer::new(text.to_owned()),
            len: text.len(),
        }
    }
}

impl From<String> for StreamText {
    fn from(text: String) -> Self {
        let len = text.len();
        StreamText {
            buffer: Buffer::new(text),
            len,
        }
    }
}

impl fmt::Display for StreamText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.with(|t| f.write_str(t))
    }
}

impl fmt::Debug for StreamText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.with(|t| fmt::Debug::fmt(t, f))
    }
}

impl PartialEq for StreamText {
    fn eq(&self, other: &Self) -> bool {
        if self.len != other.len {
            return false;
        }
        // Snapshots of one buffer are prefixes of each other: equal lengths, equal text.
        if Arc::ptr_eq(&self.buffer, &other.buffer) {
            return true;
        }
        self.with(|a| other.with(|b| a == b))
    }
}

impl Eq for StreamText {}

impl PartialEq<str> for StreamText {
    fn eq(&self, other: &str) -> bool {
        self.len == other.len() && self.with(|t| t == other)
    }
}

impl PartialEq<&str> for StreamText {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

impl PartialEq<String> for StreamText {
    fn eq(&self, other: &String) -> bool {
        *self == **other
    }
}
