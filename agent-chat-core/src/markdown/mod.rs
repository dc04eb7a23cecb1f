//! Markdown of assistant messages, parsed with pulldown-cmark into a small owned tree that the
//! UI turns into views. Sans-IO: text in, [`Block`]s out.
//!
//! Choices made here (the UI relies on them):
//!
//! - **Dialect**: CommonMark plus the GitHub tables, strikethrough and task-list extensions.
//!   No footnotes, math, smart punctuation or heading attributes: they change text in ways a
//!   chat reader does not expect, and nothing in the React library offers them.
//! - **Raw HTML is text.** Inline HTML becomes part of the surrounding [`Inline::Text`]; an
//!   HTML block becomes a [`Block::Literal`] holding its source. Nothing is ever interpreted,
//!   so `<script>` or `<img onerror=…>` in an answer is shown, not run.
//! - **Links** keep only URLs that pass [`safe_href`] (the one URL filter, in
//!   [`crate::url`]): `http:`, `https:` or `mailto:`, or no scheme and the same host
//!   (relative paths, `/path`, `?query`, `#anchor`). Any other scheme (`javascript:`, `data:`,
//!   `vbscript:`, `file:` …) and the protocol-relative forms (`//host`, `/\host`) turn the link
//!   into its plain text. Before the scheme is read, tabs and newlines are removed and control
//!   characters trimmed, as browsers do, so `java\tscript:` cannot slip through.
//! - **Images are never loaded.** `![alt](url)` becomes [`Inline::Image`], which the UI shows as
//!   a link to the image labelled with its alt text: loading remote images automatically would
//!   let an answer track the reader (a pixel per view), shift the layout while streaming, and
//!   fetch whatever an agent was tricked into writing. An image with an unsafe URL is its alt text.
//! - **Depth is capped** at [`MAX_DEPTH`] nested containers (block quotes and lists) and
//!   [`MAX_DEPTH`] nested inline spans. A deeper container or span is kept as a
//!   [`Block::Literal`] / [`Inline::Text`] of its source, so hostile input can neither
//!   overflow the stack when the tree is rendered or dropped nor hide its text. (pulldown-cmark
//!   itself parses iteratively.)
//! - **Tight lists**: the inline content of a tight list item is a [`Block::Plain`] (no
//!   paragraph margins); loose items hold [`Block::Paragraph`]s, as in CommonMark's HTML.
//! - **Code blocks** keep the first word of the info string as the language and drop the single
//!   trailing newline of the block, so Copy copies exactly the code.
//!
//! ## Streaming
//!
//! [`MarkdownStream`] is fed the growing answer. Completed top-level blocks are parsed once and
//! kept (each as an `Arc<Block>` with a stable [`Keyed::id`]); only the open tail, from the
//! start of the first block that may still change, is parsed again on each update. A block is
//! complete once the next top-level block has started and either a blank line precedes that
//! block's first line or the block closes itself (ATX or setext heading, thematic break, fenced
//! code with its closing fence); after a list, that first line must also be finished (end in a
//! newline), because a half-typed `2` may still become `2.` and continue the list. These
//! conditions make the cut safe: text appended later can no longer join the block (a paragraph
//! ends at a blank line, so a later table delimiter row or setext underline cannot reach back;
//! indentation, which decides whether indented code or a list item goes on, is fixed once the
//! line has a character), and
//! the tail then starts at a line start at document level, where parsing it alone is the
//! same as parsing it in place. Fenced code needs no special case: pulldown-cmark itself
//! reports an unclosed fence as one block running to the end, so no cut falls inside it.
//!
//! Reference links are the one non-local construct: a definition may come before or after its
//! use, and the first definition of a label in the document wins. The definitions of the
//! completed part are written out ahead of the tail when it is parsed (a few lines), so they
//! win over later ones as they would in the whole document. Each completed block records the
//! labels it used or failed to resolve; when the first definition of one of them changes
//! (one arrives later, or a half-typed one in the tail grows), that block is parsed again
//! with the definitions before it written ahead and the later ones offered through
//! pulldown-cmark's broken-link callback, and gets a new id.
//!
//! So the cost of an update is the parse of the tail (usually the last paragraph, list or code
//! block, plus any definitions written ahead of it), the same at the end of a long answer as at
//! its start. [`MarkdownStream::feed`] takes the store's shared [`StreamText`] and reads only
//! the bytes not fed yet; [`MarkdownStream::set_text`] takes a whole `String` and compares it
//! with the previous text first (one `memcmp` of the answer so far). Streaming any text in any
//! chunks gives the tree [`parse`] gives for the text so far (tests/core/markdown.rs checks
//! every prefix).
//!
//! A view draws the blocks from [`MarkdownStream::take_patch`]: what to keep, replace and
//! append since the last patch. It is computed from the blocks completed since then and the
//! open tail, never from the blocks already drawn, so a view that applies it does work
//! proportional to the change, not to the answer.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use pulldown_cmark::{
    Alignment, BrokenLink, CodeBlockKind, CowStr, Event, LinkType, Options, Parser, Tag, TagEnd,
};

use crate::url::safe_href;
use crate::StreamText;

/// Nesting limit for block containers (quotes, lists) and, separately, inline spans.
pub const MAX_DEPTH: usize = 16;

/// A block of a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Block {
    /// A paragraph.
    Paragraph(Vec<Inline>),
    /// Inline content of a tight list item, without paragraph spacing.
    Plain(Vec<Inline>),
    /// `#` … `######` or a setext heading; `level` is 1 to 6.
    Heading {
        /// 1 to 6.
        level: u8,
        /// Heading text.
        content: Vec<Inline>,
    },
    /// `>` block quote.
    Quote(Vec<Block>),
    /// Ordered (`start` is `Some`) or bullet list.
    List {
        /// Number of the first item of an ordered list.
        start: Option<u64>,
        /// Items.
        items: Vec<ListItem>,
    },
    /// Fenced or indented code.
    Code {
        /// First word of the info string (`rust` in ```` ```rust title ````), if any.
        lang: Option<String>,
        /// The code, without the block's final newline.
        text: String,
    },
    /// A table (GitHub extension).
    Table {
        /// Alignment of each column.
        align: Vec<Align>,
        /// Header cells.
        head: Vec<Vec<Inline>>,
        /// Body rows of cells.
        rows: Vec<Vec<Vec<Inline>>>,
    },
    /// `---`.
    Rule,
    /// Source shown exactly as written: a raw HTML block, or a container nested deeper than
    /// [`MAX_DEPTH`].
    Literal(String),
}

/// One list item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListItem {
    /// `Some(checked)` for a task item (`- [ ]` / `- [x]`).
    pub task: Option<bool>,
    /// Content.
    pub blocks: Vec<Block>,
}

/// Column alignment of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// Not specified.
    None,
    /// `:--`
    Left,
    /// `:-:`
    Center,
    /// `--:`
    Right,
}

/// Inline content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inline {
    /// Text (raw inline HTML included, as written).
    Text(String),
    /// `` `code` ``.
    Code(String),
    /// `*emphasis*`.
    Emphasis(Vec<Inline>),
    /// `**strong**`.
    Strong(Vec<Inline>),
    /// `~~strikethrough~~`.
    Strikethrough(Vec<Inline>),
    /// A link whose URL passed [`safe_href`].
    Link {
        /// Checked URL.
        url: String,
        /// Title, if any.
        title: Option<String>,
        /// Link text.
        content: Vec<Inline>,
    },
    /// An image, shown as a link to it (never loaded automatically).
    Image {
        /// Checked URL.
        url: String,
        /// Title, if any.
        title: Option<String>,
        /// Alt text (plain).
        alt: String,
    },
    /// A line break inside a paragraph that CommonMark renders as a space.
    SoftBreak,
    /// A hard line break (two trailing spaces or `\`).
    HardBreak,
}

/// A completed or open top-level block with an id that stays the same as long as the block
/// does (for keyed rendering).
#[derive(Clone, Debug)]
pub struct Keyed {
    /// Unique within its [`MarkdownStream`]; a changed block gets a new id.
    pub id: u64,
    /// The block.
    pub block: Arc<Block>,
}

/// Counters that show how much work the stream did (tests and benchmarks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StreamStats {
    /// Calls into pulldown-cmark.
    pub parses: u64,
    /// Bytes handed to pulldown-cmark in all.
    pub bytes_parsed: u64,
    /// Bytes handed to pulldown-cmark by the last update.
    pub last_update_bytes: u64,
    /// Completed blocks parsed again because a reference definition changed.
    pub reparsed_blocks: u64,
    /// Bytes of text taken in, in all (each byte once unless the stream started over).
    pub bytes_fed: u64,
    /// Bytes of text compared by [`MarkdownStream::set_text`] to find what is new, in all.
    pub bytes_compared: u64,
    /// Blocks looked at by [`MarkdownStream::take_patch`], in all.
    pub patch_visited: u64,
    /// Blocks handed out (appended or replaced) by [`MarkdownStream::take_patch`], in all.
    pub patch_blocks: u64,
}

/// What a view of a [`MarkdownStream`] changes since the previous
/// [`MarkdownStream::take_patch`], in this order: drop every block after the first `keep`,
/// swap the kept ones listed in `replace`, then add `append` at the end.
#[derive(Clone, Debug, Default)]
pub struct Patch {
    /// How many of the blocks drawn so far stay, counted from the first.
    pub keep: usize,
    /// Kept blocks with a new version (a reference definition they use changed): index and
    /// block.
    pub replace: Vec<(usize, Keyed)>,
    /// Blocks to add after the kept ones, in order.
    pub append: Vec<Keyed>,
}

impl Patch {
    /// Nothing to do.
    pub fn is_empty(&self) -> bool {
        self.replace.is_empty() && self.append.is_empty()
    }
}

/// Parses a whole message.
pub fn parse(text: &str) -> Vec<Block> {
    let mut lookups = Vec::new();
    parse_region(text, "", &HashMap::new(), &mut lookups).blocks
}

// The parts, each `markdown::Name`: directions, the streaming parser, the tree builder.
mod build;
mod direction;
mod stream;

use self::build::*;
pub use self::direction::{block_direction, first_strong, item_direction, line_runs, Direction};
pub use self::stream::MarkdownStream;
use self::stream::{normalize_label, parse_region, Span};
