//! The thread store's data: one conversation and its messages per thread, kept in
//! the agent server's JSON shapes so they are served to the session as a server
//! would serve them. The edge keeps them in memory, in `localStorage` (a key per thread under
//! a prefix, plus an index of ids) or in a store the host implements; this module says how a
//! thread reads and writes as text, and which stored entries are unusable.

use serde_json::{json, Value};

/// The `localStorage` key prefix of a chat's threads; the index is `<prefix>:index`.
pub const DEFAULT_PREFIX: &str = "agent-chat-ui:threads";

/// One conversation: its record (`Conversation`) and its messages, oldest first.
#[derive(Clone, Debug, PartialEq)]
pub struct Thread {
    /// The conversation record (`id`, `agentId`, `title`, `createdAt`, `updatedAt`, …).
    pub conversation: Value,
    /// Its messages as stored messages (`id`, `role`, `content`, `createdAt`, …).
    pub messages: Vec<Value>,
}

impl Thread {
    /// A new, empty thread.
    pub fn new(conversation: Value) -> Thread {
        Thread {
            conversation,
            messages: Vec::new(),
        }
    }

    /// The conversation id.
    pub fn id(&self) -> &str {
        self.conversation["id"].as_str().unwrap_or_default()
    }

    /// The last update, as stored (ISO 8601 text sorts in time order).
    pub fn updated_at(&self) -> &str {
        self.conversation["updatedAt"].as_str().unwrap_or_default()
    }

    /// The agent the conversation belongs to.
    pub fn agent_id(&self) -> &str {
        self.conversation["agentId"].as_str().unwrap_or_default()
    }

    /// The thread as stored text: `{conversation, messages}`.
    pub fn to_text(&self) -> String {
        json!({ "conversation": self.conversation, "messages": self.messages }).to_string()
    }

    /// Reads a stored thread; `Err` says why it is unusable (it is then skipped).
    pub fn from_text(text: &str) -> Result<Thread, String> {
        let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        Thread::from_value(value)
    }

    /// Reads a thread from JSON (`{conversation, messages}`); `Err` when it is not one.
    pub fn from_value(mut value: Value) -> Result<Thread, String> {
        let conversation = value
            .get_mut("conversation")
            .map(Value::take)
            .filter(|c| c["id"].as_str().is_some_and(|id| !id.is_empty()))
            .ok_or("no conversation id")?;
        let messages = match value.get_mut("messages").map(Value::take) {
            Some(Value::Array(list)) => list.into_iter().filter(Value::is_object).collect(),
            None | Some(Value::Null) => Vec::new(),
            Some(_) => return Err("messages is not a list".into()),
        };
        Ok(Thread {
            conversation,
            messages,
        })
    }
}

/// The index of a `localStorage` thread store: the thread ids, in no particular order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ThreadIndex(pub Vec<String>);

impl ThreadIndex {
    /// Reads a stored index; anything unreadable is an empty index (the threads are then
    /// unreachable, not broken).
    pub fn from_text(text: &str) -> ThreadIndex {
        let ids = serde_json::from_str::<Vec<Value>>(text)
            .unwrap_or_default()
            .into_iter()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect();
        ThreadIndex(ids)
    }

    /// The index as stored text.
    pub fn to_text(&self) -> String {
        Value::from(self.0.clone()).to_string()
    }

    /// Adds `id` once.
    pub fn insert(&mut self, id: &str) {
        if !self.0.iter().any(|i| i == id) {
            self.0.push(id.to_owned());
        }
    }

    /// Removes `id`.
    pub fn remove(&mut self, id: &str) {
        self.0.retain(|i| i != id);
    }
}

/// Reads the threads a host's store handed back as text: the readable ones, and how many
/// entries were not threads (skipped, for the chat to report), or repeated an id already read
/// (the first one wins).
pub fn read_threads(texts: &[String]) -> (Vec<Thread>, usize) {
    let mut threads: Vec<Thread> = Vec::new();
    let mut unreadable = 0;
    for text in texts {
        match Thread::from_text(text) {
            Ok(t) if !threads.iter().any(|known| known.id() == t.id()) => threads.push(t),
            Ok(_) | Err(_) => unreadable += 1,
        }
    }
    (threads, unreadable)
}

/// The latest stored reply that lists `action_id` among the actions it waits on
/// (`metadata.pendingActions`), if any.
pub fn reply_listing<'a>(messages: &'a [Value], action_id: &str) -> Option<&'a Value> {
    messages.iter().rev().find(|m| {
        m["metadata"]["pendingActions"]
            .as_array()
            .is_some_and(|list| list.iter().any(|a| a["id"] == action_id))
    })
}

/// The key of thread `id` under `prefix`.
pub fn thread_key(prefix: &str, id: &str) -> String {
    format!("{prefix}:{id}")
}

/// The key of the index under `prefix`.
pub fn index_key(prefix: &str) -> String {
    format!("{prefix}:index")
}

/// A conversation's title from its first message: one line, at most 60 characters, with an
/// ellipsis when cut (the React library's stateless base).
pub fn title_from(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() <= 60 {
        return line;
    }
    let cut: String = line.chars().take(59).collect();
    format!("{}…", cut.trim_end())
}
