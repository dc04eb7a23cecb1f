//! The parts of the chat that the element and the page fetch the first time they are needed:
//! which part, and what the session does when one cannot be fetched.
//!
//! The core only names them; fetching is the browser edge's business (`ui::chunk`). A part
//! that fails to arrive is an error like any other (the banner, `on_error`), and fetching it
//! again clears that error.

/// A part of the interface that is not in the first download.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Chunk {
    /// The approval and question cards, with the argument editor and its schema checker.
    Cards,
    /// Formatted (Markdown) assistant messages; until it arrives they read as plain text.
    Markdown,
    /// The conversation list in the sidebar.
    History,
    /// The messages of the conversation: their rows, the streaming reply, find and paging.
    /// Asked for when the chat is first drawn; until it arrives the list shows its
    /// empty or loading state, and the composer works.
    Messages,
    /// The backends other than the agent server (Chat Completions, Responses, A2A,
    /// Cogitator, an agent in the page): a chat pointed at one fetches it at the start, and
    /// its requests wait for it.
    Backends,
    /// The texts of a language other than English, with Fluent's runtime: until
    /// they arrive the chat speaks English.
    Locale,
}

impl Chunk {
    /// Every part, in the order a visit needs them.
    pub const ALL: [Chunk; 6] = [
        Chunk::Locale,
        Chunk::Backends,
        Chunk::Messages,
        Chunk::Markdown,
        Chunk::Cards,
        Chunk::History,
    ];

    /// Lower-case name, as in the chunk's file name and the `error` event's detail.
    pub fn as_str(self) -> &'static str {
        match self {
            Chunk::Cards => "cards",
            Chunk::Markdown => "markdown",
            Chunk::History => "history",
            Chunk::Messages => "messages",
            Chunk::Backends => "backends",
            Chunk::Locale => "locale",
        }
    }
}
