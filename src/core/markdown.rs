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
//!   [`crate::core::url`]): `http:`, `https:` or `mailto:`, or no scheme and the same host
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
//! chunks gives the tree [`parse`] gives for the text so far (tests/core_markdown.rs checks
//! every prefix).
//!
//! A view draws the blocks from [`MarkdownStream::take_patch`]: what to keep, replace and
//! append since the last patch. It is computed from the blocks completed since then and the
//! open tail, never from the blocks already drawn, so a view that applies it does work
//! proportional to the change, not to the answer (D42).

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use pulldown_cmark::{
    Alignment, BrokenLink, CodeBlockKind, CowStr, Event, LinkType, Options, Parser, Tag, TagEnd,
};

use crate::core::url::safe_href;
use crate::core::StreamText;

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

/// Writing direction of a block of text (D44).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Left to right.
    Ltr,
    /// Right to left.
    Rtl,
}

impl Direction {
    /// The value of an HTML `dir` attribute.
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Ltr => "ltr",
            Direction::Rtl => "rtl",
        }
    }
}

/// The direction of the first letter in `text` (the rule of HTML's `dir="auto"`): right to left
/// for the right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan, Mandaic, their
/// presentation forms, and the right-to-left blocks of the supplementary planes), left to right
/// for any other letter; `None` when there is no letter (digits, punctuation, emoji, spaces).
pub fn first_strong(text: &str) -> Option<Direction> {
    text.chars().find(|c| c.is_alphabetic()).map(|c| {
        if matches!(c as u32, 0x0590..=0x08FF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF | 0x10800..=0x10FFF | 0x1E800..=0x1EFFF)
        {
            Direction::Rtl
        } else {
            Direction::Ltr
        }
    })
}

/// The direction of `block`, from the first letter of its text in reading order (code included,
/// as `dir="auto"` would); `None` for code blocks, rules and blocks without a letter, which
/// follow their container. Decided in Rust rather than with `dir="auto"` on every block: that
/// rule skips descendants with a `dir` of their own, so a list or quote of `dir="auto"`
/// paragraphs would always resolve to left to right (D44).
pub fn block_direction(block: &Block) -> Option<Direction> {
    match block {
        Block::Paragraph(content) | Block::Plain(content) | Block::Heading { content, .. } => {
            inlines_direction(content)
        }
        Block::Quote(blocks) => blocks.iter().find_map(block_direction),
        Block::List { items, .. } => items.iter().find_map(item_direction),
        Block::Table { head, rows, .. } => head
            .iter()
            .chain(rows.iter().flatten())
            .find_map(|cell| inlines_direction(cell)),
        Block::Literal(text) => first_strong(text),
        Block::Code { .. } | Block::Rule => None,
    }
}

/// The direction of a list item (see [`block_direction`]).
pub fn item_direction(item: &ListItem) -> Option<Direction> {
    item.blocks.iter().find_map(block_direction)
}

/// A person's plain text cut into runs of whole lines that read in one direction (D46): each
/// line (up to and including its `\n`) takes its first letter's direction ([`first_strong`]), a
/// line without a letter (empty, digits, punctuation) the line's before, and the lines before
/// the first letter the first letter's. Consecutive lines of one direction form one run, so
/// text in one direction is one run. The runs are slices of `text` that join back to it
/// exactly; the direction is `None` only for text without any letter (it then follows its
/// container). One scan per line, stopping at its first letter.
pub fn line_runs(text: &str) -> Vec<(Option<Direction>, &str)> {
    let mut runs = Vec::new();
    let (mut start, mut at) = (0, 0);
    let mut current: Option<Direction> = None;
    for line in text.split_inclusive('\n') {
        match (current, first_strong(line)) {
            // The lines so far had no letter: they read like this one.
            (None, Some(d)) => current = Some(d),
            (Some(c), Some(d)) if c != d => {
                runs.push((current, &text[start..at]));
                start = at;
                current = Some(d);
            }
            _ => {}
        }
        at += line.len();
    }
    if start < text.len() {
        runs.push((current, &text[start..]));
    }
    runs
}

fn inlines_direction(inlines: &[Inline]) -> Option<Direction> {
    inlines.iter().find_map(|inline| match inline {
        Inline::Text(t) | Inline::Code(t) => first_strong(t),
        Inline::Emphasis(c) | Inline::Strong(c) | Inline::Strikethrough(c) => inlines_direction(c),
        Inline::Link { content, .. } => inlines_direction(content),
        Inline::Image { alt, .. } => first_strong(alt),
        Inline::SoftBreak | Inline::HardBreak => None,
    })
}

/// Parses a whole message.
pub fn parse(text: &str) -> Vec<Block> {
    let mut lookups = Vec::new();
    parse_region(text, "", &HashMap::new(), &mut lookups).blocks
}

/// Incremental parser for an answer that grows while it streams. See the module docs.
#[derive(Debug, Default)]
pub struct MarkdownStream {
    /// Everything fed so far.
    src: String,
    /// Start (a line start) of the open tail in `src`.
    base: usize,
    committed: Vec<Keyed>,
    /// Blocks committed together, with their source (for a re-parse when a definition
    /// changes). Batches start and end at safe cuts; single blocks inside one might not.
    batches: Vec<Batch>,
    /// Batch indices by the reference labels their blocks used.
    by_label: HashMap<String, Vec<usize>>,
    /// Definitions in the committed part, the first one per label, in document order, with
    /// their offset in `src`.
    defs: Vec<(String, Def, usize)>,
    /// The same, written out as Markdown: parsed ahead of the tail so that they win over
    /// later definitions of the same label, as in the whole document.
    defs_text: String,
    /// Definitions in the tail (as of the last update) that the committed part lacks.
    tail_defs: HashMap<String, Def>,
    tail: Vec<Keyed>,
    next_id: u64,
    revision: u64,
    stats: StreamStats,
    /// [`StreamText::buffer_id`] of what [`MarkdownStream::feed`] read `src` from; `None`
    /// once text came another way.
    source: Option<u64>,
    /// What the view has, as of the last patch: this many committed blocks, then these tail
    /// ids.
    shown_committed: usize,
    shown_tail: Vec<u64>,
    /// Committed indices replaced since the last patch (reference definitions).
    replaced: Vec<usize>,
}

impl MarkdownStream {
    /// An empty stream.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends `delta` and parses the open tail again.
    pub fn push_str(&mut self, delta: &str) {
        self.source = None;
        self.append(delta);
    }

    fn append(&mut self, delta: &str) {
        if delta.is_empty() {
            return;
        }
        self.src.push_str(delta);
        self.stats.bytes_fed += delta.len() as u64;
        self.update();
    }

    /// Takes the whole text so far: when it extends what was fed before, only the new part is
    /// taken in; anything else (another answer) starts over. Compares `text` with what was fed
    /// first; [`MarkdownStream::feed`] does not need to.
    pub fn set_text(&mut self, text: &str) {
        self.stats.bytes_compared += self.src.len().min(text.len()) as u64;
        if text.len() >= self.src.len() && text.as_bytes().starts_with(self.src.as_bytes()) {
            let delta = &text[self.src.len()..];
            self.push_str(delta);
        } else {
            self.start_over();
            self.push_str(text);
        }
    }

    /// Takes a snapshot of the streaming reply (the store's shared buffer, D42). A later
    /// snapshot of the buffer fed before costs only its new bytes: nothing is compared or
    /// copied besides them. A snapshot of another buffer (another answer) is taken like
    /// [`MarkdownStream::set_text`].
    pub fn feed(&mut self, text: &StreamText) {
        let id = text.buffer_id();
        if self.source == Some(id) && text.len() >= self.src.len() {
            text.with_from(self.src.len(), |delta| self.append(delta));
        } else {
            text.with(|t| self.set_text(t));
            self.source = Some(id);
        }
    }

    /// Forgets the text, keeping the id counter (ids stay unique) and what the stats counted.
    fn start_over(&mut self) {
        *self = Self {
            next_id: self.next_id,
            revision: self.revision + 1,
            stats: self.stats,
            ..Self::default()
        };
    }

    /// What a view must change to show the blocks as they are now, given that it showed them
    /// as of the previous call (nothing before the first). Looks only at the blocks completed
    /// since then, the open tail and the replaced ones: never at the blocks drawn before.
    pub fn take_patch(&mut self) -> Patch {
        let shown = self.shown_committed;
        let mut replaced = std::mem::take(&mut self.replaced);
        replaced.sort_unstable();
        replaced.dedup();
        let replace: Vec<(usize, Keyed)> = replaced
            .into_iter()
            .filter(|&i| i < shown)
            .map(|i| (i, self.committed[i].clone()))
            .collect();
        let fresh = || self.committed[shown..].iter().chain(&self.tail);
        let same = fresh()
            .zip(&self.shown_tail)
            .take_while(|(k, id)| k.id == **id)
            .count();
        let append: Vec<Keyed> = fresh().skip(same).cloned().collect();
        let visited = self.committed.len() - shown + self.tail.len() + replace.len();
        self.stats.patch_visited += visited as u64;
        self.stats.patch_blocks += (append.len() + replace.len()) as u64;
        self.shown_committed = self.committed.len();
        self.shown_tail = self.tail.iter().map(|k| k.id).collect();
        Patch {
            keep: shown + same,
            replace,
            append,
        }
    }

    /// The text fed so far.
    pub fn text(&self) -> &str {
        &self.src
    }

    /// The source of the open tail: what the next update parses again (with the new text).
    pub fn tail_text(&self) -> &str {
        &self.src[self.base..]
    }

    /// Completed blocks: never parsed again (unless a reference definition they use changes).
    pub fn committed(&self) -> &[Keyed] {
        &self.committed
    }

    /// The open tail's blocks, parsed on every update (unchanged ones keep their id).
    pub fn tail(&self) -> &[Keyed] {
        &self.tail
    }

    /// Changes whenever [`MarkdownStream::committed`] changes.
    pub fn committed_revision(&self) -> u64 {
        self.revision
    }

    /// Work done so far.
    pub fn stats(&self) -> StreamStats {
        self.stats
    }

    /// All blocks, completed then open (a copy, for tests and non-incremental callers).
    pub fn blocks(&self) -> Vec<Block> {
        self.committed
            .iter()
            .chain(&self.tail)
            .map(|k| (*k.block).clone())
            .collect()
    }

    fn update(&mut self) {
        let tail_text = &self.src[self.base..];
        let mut lookups = Vec::new();
        let parsed = parse_region(tail_text, &self.defs_text, &HashMap::new(), &mut lookups);
        self.stats.parses += 1;
        self.stats.bytes_parsed += (self.defs_text.len() + tail_text.len()) as u64;
        self.stats.last_update_bytes = (self.defs_text.len() + tail_text.len()) as u64;

        // Blocks 0..cut are complete; the tail starts at `cut_at`, a line start where the
        // whole text is at document level with nothing open (see `commit_point`).
        let (cut, cut_at) = commit_point(tail_text, &parsed.spans);

        // Keep the ids (and so the DOM) of tail blocks that did not change.
        let mut old = std::mem::take(&mut self.tail).into_iter();
        let mut keyed = Vec::with_capacity(parsed.blocks.len());
        for block in parsed.blocks {
            let k = match old.next() {
                Some(prev) if *prev.block == block => prev,
                _ => {
                    self.next_id += 1;
                    Keyed {
                        id: self.next_id,
                        block: Arc::new(block),
                    }
                }
            };
            keyed.push(k);
        }
        let mut keyed = keyed.into_iter();
        if cut > 0 {
            let batch = self.batches.len();
            let mut labels: Vec<&String> = parsed
                .ref_uses
                .iter()
                .chain(&lookups)
                .filter(|(_, at)| *at < cut_at)
                .map(|(l, _)| l)
                .collect();
            labels.sort();
            labels.dedup();
            for label in labels {
                self.by_label.entry(label.clone()).or_default().push(batch);
            }
            self.batches.push(Batch {
                range: self.base..self.base + cut_at,
                first: self.committed.len(),
                count: cut,
            });
            self.committed.extend(keyed.by_ref().take(cut));
            self.revision += 1;
        }
        self.tail = keyed.collect();

        // Definitions: the committed part's grow; the tail's are whatever the tail holds now.
        let before = self.effective_defs();
        let mut tail_defs = HashMap::new();
        for (label, def, at) in parsed.defs {
            if at < cut_at {
                if !self.defs.iter().any(|(l, _, _)| *l == label) {
                    self.defs_text.push_str(&def.to_markdown());
                    self.defs.push((label, def, self.base + at));
                }
            } else {
                tail_defs.entry(label).or_insert(def);
            }
        }
        self.base += cut_at;
        tail_defs.retain(|label, _| !self.defs.iter().any(|(l, _, _)| l == label));
        self.tail_defs = tail_defs;
        let after = self.effective_defs();
        if before != after {
            self.refresh_references(&before, &after);
        }
    }

    /// Every known definition, the first one per label.
    fn effective_defs(&self) -> HashMap<String, Def> {
        let mut all: HashMap<String, Def> = self
            .defs
            .iter()
            .map(|(l, d, _)| (l.clone(), d.clone()))
            .collect();
        for (label, def) in &self.tail_defs {
            all.entry(label.clone()).or_insert_with(|| def.clone());
        }
        all
    }

    /// Parses again the completed blocks that use a label whose definition changed: their
    /// batch, with the committed definitions before it written ahead and every other
    /// definition offered through the broken-link callback, which pulldown-cmark only asks
    /// after the batch's own. That is document order: the first definition wins.
    fn refresh_references(&mut self, before: &HashMap<String, Def>, after: &HashMap<String, Def>) {
        let mut batches: Vec<usize> = before
            .keys()
            .chain(after.keys())
            .filter(|label| before.get(*label) != after.get(*label))
            .filter_map(|label| self.by_label.get(label))
            .flatten()
            .copied()
            .collect();
        batches.sort_unstable();
        batches.dedup();
        for index in batches {
            let Batch {
                range,
                first,
                count,
            } = self.batches[index].clone();
            let earlier: String = self
                .defs
                .iter()
                .filter(|(_, _, at)| *at < range.start)
                .map(|(_, d, _)| d.to_markdown())
                .collect();
            let mut lookups = Vec::new();
            let parsed = parse_region(&self.src[range.clone()], &earlier, after, &mut lookups);
            let bytes = (earlier.len() + range.len()) as u64;
            self.stats.parses += 1;
            self.stats.bytes_parsed += bytes;
            self.stats.last_update_bytes += bytes;
            // Definitions never change block structure, only what links point to.
            if parsed.blocks.len() != count {
                continue;
            }
            for (i, block) in parsed.blocks.into_iter().enumerate() {
                if *self.committed[first + i].block != block {
                    self.stats.reparsed_blocks += 1;
                    self.next_id += 1;
                    self.committed[first + i] = Keyed {
                        id: self.next_id,
                        block: Arc::new(block),
                    };
                    self.replaced.push(first + i);
                    self.revision += 1;
                }
            }
        }
    }
}

/// Blocks committed by one update.
#[derive(Clone, Debug)]
struct Batch {
    /// Their source in the stream's text.
    range: Range<usize>,
    /// Index of the first in `committed`.
    first: usize,
    count: usize,
}

/// A link reference definition (URL not yet checked: that happens where it is used).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Def {
    /// The label as pulldown-cmark read it (whitespace collapsed, escapes kept).
    label: String,
    url: String,
    title: String,
}

impl Def {
    /// The definition as a Markdown line that parses back to the same label, URL and title.
    fn to_markdown(&self) -> String {
        let escape = |s: &str, special: &[char]| {
            let mut out = String::with_capacity(s.len());
            for c in s.chars() {
                if c == '\\' || c == '&' || special.contains(&c) {
                    out.push('\\');
                }
                out.push(c);
            }
            out
        };
        let mut line = format!("[{}]: <{}>", self.label, escape(&self.url, &['<', '>']));
        if !self.title.is_empty() {
            line.push_str(&format!(" \"{}\"", escape(&self.title, &['"'])));
        }
        line.push_str("\n\n");
        line
    }
}

/// One top-level block as pulldown-cmark reported it.
#[derive(Debug)]
struct Span {
    range: Range<usize>,
    /// Heading, thematic break or (closed) fenced code: nothing after it can join it.
    closes_itself: bool,
    /// A list: a half-typed next line (`2` becoming `2.`) may still continue it.
    is_list: bool,
}

struct Parsed {
    blocks: Vec<Block>,
    spans: Vec<Span>,
    /// Definitions in the region: normalized label, definition, start offset; document order.
    defs: Vec<(String, Def, usize)>,
    /// Reference labels used by links and images: label, offset.
    ref_uses: Vec<(String, usize)>,
}

/// Link labels match case-insensitively with runs of whitespace collapsed.
fn normalize_label(label: &str) -> String {
    label
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS
}

/// Parses `text` (a whole document, or a part starting at a line start at document level),
/// with `earlier` (definitions written out, each ending in a blank line) parsed ahead of it.
/// Labels neither defines are looked up in `later`; each such lookup is recorded in `lookups`
/// (label, offset) whether it resolved or not. Offsets in the result are relative to `text`.
fn parse_region(
    text: &str,
    earlier: &str,
    later: &HashMap<String, Def>,
    lookups: &mut Vec<(String, usize)>,
) -> Parsed {
    let joined;
    let source = if earlier.is_empty() {
        text
    } else {
        joined = format!("{earlier}{text}");
        joined.as_str()
    };
    let shift = earlier.len();
    let mut parsed = parse_source(source, later, lookups);
    // Everything `earlier` holds is definitions: no block or use starts there.
    parsed.defs.retain(|d| d.2 >= shift);
    for d in &mut parsed.defs {
        d.2 -= shift;
    }
    for span in &mut parsed.spans {
        span.range = span.range.start.saturating_sub(shift)..span.range.end.saturating_sub(shift);
    }
    for (_, at) in parsed.ref_uses.iter_mut().chain(lookups.iter_mut()) {
        *at = at.saturating_sub(shift);
    }
    parsed
}

fn parse_source<'a>(
    source: &'a str,
    later: &HashMap<String, Def>,
    lookups: &mut Vec<(String, usize)>,
) -> Parsed {
    let callback = |link: BrokenLink<'a>| -> Option<(CowStr<'a>, CowStr<'a>)> {
        let label = normalize_label(&link.reference);
        let found = later
            .get(&label)
            .map(|d| (CowStr::from(d.url.clone()), CowStr::from(d.title.clone())));
        lookups.push((label, link.span.start));
        found
    };
    let parser = Parser::new_with_broken_link_callback(source, options(), Some(callback));
    let mut defs: Vec<(String, Def, usize)> = parser
        .reference_definitions()
        .iter()
        .map(|(label, def)| {
            (
                normalize_label(label),
                Def {
                    label: label.to_owned(),
                    url: def.dest.to_string(),
                    title: def.title.as_deref().unwrap_or_default().to_owned(),
                },
                def.span.start,
            )
        })
        .collect();
    defs.sort_by_key(|d| d.2);
    let mut builder = Builder::new(source);
    for (event, range) in parser.into_offset_iter() {
        builder.event(event, range);
    }
    let (blocks, spans, ref_uses) = builder.finish();
    Parsed {
        blocks,
        spans,
        defs,
        ref_uses,
    }
}

/// Start of the line that holds byte `pos`.
fn line_start(text: &str, pos: usize) -> usize {
    text[..pos].rfind('\n').map_or(0, |i| i + 1)
}

/// How many leading blocks are complete, and where the open tail then starts (see the module
/// docs for the rule). The tail starts at a line where the whole text is at document level
/// with nothing open: the next block's first line when a blank line precedes it, or the line
/// after a block that closes itself. Not simply "the next block's line": definitions
/// before a block are, as far as block structure goes, the start of its paragraph (`[d]: /x`
/// then `3)` is one paragraph, not a definition and a list), and pulldown-cmark's block ranges
/// may end inside the following lines.
fn commit_point(text: &str, spans: &[Span]) -> (usize, usize) {
    let mut best = (0, 0);
    for k in 0..spans.len().saturating_sub(1) {
        let next = spans[k + 1].range.start;
        let line = line_start(text, next);
        // Only a list can still be continued by the line that now starts the next block
        // (`1. a` + blank + `2` that becomes `2. b`), so only then must that line be finished.
        if spans[k].is_list && !text[next..].contains('\n') {
            break;
        }
        let blank_before = line > 0 && {
            let prev = line_start(text, line - 1);
            text[prev..line - 1]
                .trim_matches([' ', '\t', '\r'])
                .is_empty()
        };
        if blank_before {
            best = (k + 1, line);
        } else if spans[k].closes_itself {
            let end = spans[k].range.end;
            let after = if end == 0 || text.as_bytes()[end - 1] == b'\n' {
                end
            } else {
                text[end..].find('\n').map_or(text.len(), |i| end + i + 1)
            };
            best = (k + 1, after.min(line));
        }
    }
    best
}

/// Turns pulldown-cmark events into the tree, with an explicit stack (no recursion).
struct Builder<'a> {
    src: &'a str,
    stack: Vec<Frame>,
    /// Container depth (quotes and lists) of the open frames.
    block_depth: usize,
    /// Inline span depth of the open frames.
    inline_depth: usize,
    /// Inside a container or span cut off by the depth cap: events are skipped until its end.
    skipping: usize,
    /// Top-level block being built: start offset, closes itself, is a list.
    top: Option<(usize, bool, bool)>,
    depth: usize,
    spans: Vec<Span>,
    ref_uses: Vec<(String, usize)>,
}

enum Frame {
    Doc(Vec<Block>),
    Quote(Vec<Block>),
    List {
        start: Option<u64>,
        items: Vec<ListItem>,
    },
    Item {
        task: Option<bool>,
        blocks: Vec<Block>,
        loose: Vec<Inline>,
    },
    Paragraph(Vec<Inline>),
    Heading(u8, Vec<Inline>),
    Code(Option<String>, String),
    Html(String),
    Table {
        align: Vec<Align>,
        head: Vec<Vec<Inline>>,
        rows: Vec<Vec<Vec<Inline>>>,
    },
    /// A header (`true`) or body row.
    Row(bool, Vec<Vec<Inline>>),
    Cell(Vec<Inline>),
    Span(SpanKind, Vec<Inline>),
    Image {
        url: Option<String>,
        title: Option<String>,
        alt: String,
    },
}

enum SpanKind {
    Emphasis,
    Strong,
    Strikethrough,
    Link {
        url: Option<String>,
        title: Option<String>,
    },
    /// Superscript / subscript (not enabled): kept as their content.
    Other,
}

impl<'a> Builder<'a> {
    fn new(src: &'a str) -> Self {
        Builder {
            src,
            stack: vec![Frame::Doc(Vec::new())],
            block_depth: 0,
            inline_depth: 0,
            skipping: 0,
            top: None,
            depth: 0,
            spans: Vec::new(),
            ref_uses: Vec::new(),
        }
    }

    fn finish(mut self) -> (Vec<Block>, Vec<Span>, Vec<(String, usize)>) {
        // pulldown-cmark balances its events; anything left open is closed defensively.
        while self.stack.len() > 1 {
            self.close();
        }
        let blocks = match self.stack.pop() {
            Some(Frame::Doc(b)) => b,
            _ => Vec::new(),
        };
        (blocks, self.spans, self.ref_uses)
    }

    fn event(&mut self, event: Event<'_>, range: Range<usize>) {
        if self.skipping > 0 {
            match event {
                Event::Start(_) => self.skipping += 1,
                Event::End(_) => {
                    self.skipping -= 1;
                    if self.skipping == 0 {
                        self.leave_top(range.end);
                    }
                }
                _ => {}
            }
            return;
        }
        match event {
            Event::Start(tag) => {
                if self.depth == 0 {
                    let closes = matches!(
                        tag,
                        Tag::Heading { .. } | Tag::CodeBlock(CodeBlockKind::Fenced(_))
                    );
                    self.top = Some((range.start, closes, matches!(tag, Tag::List(_))));
                }
                self.depth += 1;
                self.start(tag, range);
            }
            Event::End(end) => {
                self.end(end);
                self.leave_top(range.end);
            }
            Event::Text(t) => self.text(&t),
            Event::Code(t) => self.inline(Inline::Code(t.into_string())),
            Event::Html(t) => match self.stack.last_mut() {
                Some(Frame::Html(s)) => s.push_str(&t),
                _ => self.text(&t),
            },
            Event::InlineHtml(t)
            | Event::InlineMath(t)
            | Event::DisplayMath(t)
            | Event::FootnoteReference(t) => self.text(&t),
            Event::SoftBreak => self.inline(Inline::SoftBreak),
            Event::HardBreak => self.inline(Inline::HardBreak),
            Event::Rule => {
                if self.depth == 0 {
                    self.spans.push(Span {
                        range,
                        closes_itself: true,
                        is_list: false,
                    });
                }
                self.block(Block::Rule);
            }
            Event::TaskListMarker(checked) => {
                if let Some(Frame::Item { task, .. }) = self
                    .stack
                    .iter_mut()
                    .rev()
                    .find(|f| matches!(f, Frame::Item { .. }))
                {
                    *task = Some(checked);
                }
            }
        }
    }

    /// Called after every end event: records the top-level block when the last one closed.
    fn leave_top(&mut self, end: usize) {
        self.depth -= 1;
        if self.depth == 0 {
            if let Some((start, closes_itself, is_list)) = self.top.take() {
                self.spans.push(Span {
                    range: start..end,
                    closes_itself,
                    is_list,
                });
            }
        }
    }

    /// Skips the element that starts here, showing its source as text instead.
    fn cut_off(&mut self, range: Range<usize>, inline: bool) {
        let source = self.src.get(range).unwrap_or_default();
        if inline {
            self.text(source);
        } else {
            self.block(Block::Literal(source.trim_end().to_owned()));
        }
        self.skipping = 1;
    }

    fn start(&mut self, tag: Tag<'_>, range: Range<usize>) {
        let in_image = matches!(self.stack.last(), Some(Frame::Image { .. }));
        let frame = match tag {
            Tag::Paragraph => Frame::Paragraph(Vec::new()),
            Tag::Heading { level, .. } => Frame::Heading(level as u8, Vec::new()),
            Tag::BlockQuote(_) | Tag::List(_) if self.block_depth >= MAX_DEPTH => {
                return self.cut_off(range, false);
            }
            Tag::BlockQuote(_) => {
                self.block_depth += 1;
                Frame::Quote(Vec::new())
            }
            Tag::List(start) => {
                self.block_depth += 1;
                Frame::List {
                    start,
                    items: Vec::new(),
                }
            }
            Tag::Item => Frame::Item {
                task: None,
                blocks: Vec::new(),
                loose: Vec::new(),
            },
            Tag::CodeBlock(kind) => {
                let lang = match kind {
                    CodeBlockKind::Fenced(info) => info
                        .split_whitespace()
                        .next()
                        .map(|w| w.split(',').next().unwrap_or(w).to_owned())
                        .filter(|w| !w.is_empty()),
                    CodeBlockKind::Indented => None,
                };
                Frame::Code(lang, String::new())
            }
            Tag::HtmlBlock => Frame::Html(String::new()),
            Tag::Table(align) => Frame::Table {
                align: align
                    .into_iter()
                    .map(|a| match a {
                        Alignment::None => Align::None,
                        Alignment::Left => Align::Left,
                        Alignment::Center => Align::Center,
                        Alignment::Right => Align::Right,
                    })
                    .collect(),
                head: Vec::new(),
                rows: Vec::new(),
            },
            Tag::TableHead => Frame::Row(true, Vec::new()),
            Tag::TableRow => Frame::Row(false, Vec::new()),
            Tag::TableCell => Frame::Cell(Vec::new()),
            // Inside an image only the alt text counts.
            _ if in_image => return self.enter_transparent(),
            Tag::Emphasis
            | Tag::Strong
            | Tag::Strikethrough
            | Tag::Superscript
            | Tag::Subscript
            | Tag::Link { .. }
            | Tag::Image { .. }
                if self.inline_depth >= MAX_DEPTH =>
            {
                return self.cut_off(range, true);
            }
            Tag::Emphasis => self.span(SpanKind::Emphasis),
            Tag::Strong => self.span(SpanKind::Strong),
            Tag::Strikethrough => self.span(SpanKind::Strikethrough),
            Tag::Superscript | Tag::Subscript => self.span(SpanKind::Other),
            Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            } => {
                self.note_reference(link_type, &id, range.start);
                let url = if link_type == LinkType::Email {
                    safe_href(&format!("mailto:{dest_url}"))
                } else {
                    safe_href(&dest_url)
                };
                self.span(SpanKind::Link {
                    url,
                    title: non_empty(title),
                })
            }
            Tag::Image {
                link_type,
                dest_url,
                title,
                id,
            } => {
                self.note_reference(link_type, &id, range.start);
                self.inline_depth += 1;
                Frame::Image {
                    url: safe_href(&dest_url),
                    title: non_empty(title),
                    alt: String::new(),
                }
            }
            // Not enabled; shown as their source if they ever appear.
            Tag::FootnoteDefinition(_)
            | Tag::DefinitionList
            | Tag::DefinitionListTitle
            | Tag::DefinitionListDefinition
            | Tag::MetadataBlock(_) => return self.cut_off(range, false),
        };
        self.stack.push(frame);
    }

    /// An inline tag inside an image's alt text: its text joins the alt, the tag is dropped.
    fn enter_transparent(&mut self) {
        self.stack.push(Frame::Span(SpanKind::Other, Vec::new()));
        self.inline_depth += 1;
    }

    fn span(&mut self, kind: SpanKind) -> Frame {
        self.inline_depth += 1;
        Frame::Span(kind, Vec::new())
    }

    fn note_reference(&mut self, link_type: LinkType, id: &str, at: usize) {
        if matches!(
            link_type,
            LinkType::Reference
                | LinkType::Collapsed
                | LinkType::Shortcut
                | LinkType::ReferenceUnknown
                | LinkType::CollapsedUnknown
                | LinkType::ShortcutUnknown
        ) && !id.is_empty()
        {
            self.ref_uses.push((normalize_label(id), at));
        }
    }

    fn end(&mut self, _end: TagEnd) {
        self.close();
    }

    /// Pops the innermost frame and hands what it built to its parent.
    fn close(&mut self) {
        let Some(frame) = self.stack.pop() else {
            return;
        };
        match frame {
            Frame::Doc(b) => self.stack.push(Frame::Doc(b)),
            Frame::Quote(blocks) => {
                self.block_depth -= 1;
                self.block(Block::Quote(blocks));
            }
            Frame::List { start, items } => {
                self.block_depth -= 1;
                self.block(Block::List { start, items });
            }
            Frame::Item {
                task,
                mut blocks,
                loose,
            } => {
                if !loose.is_empty() {
                    blocks.push(Block::Plain(loose));
                }
                if let Some(Frame::List { items, .. }) = self.stack.last_mut() {
                    items.push(ListItem { task, blocks });
                }
            }
            Frame::Paragraph(content) => self.block(Block::Paragraph(content)),
            Frame::Heading(level, content) => self.block(Block::Heading { level, content }),
            Frame::Code(lang, mut text) => {
                if text.ends_with('\n') {
                    text.pop();
                }
                self.block(Block::Code { lang, text });
            }
            Frame::Html(mut text) => {
                if text.ends_with('\n') {
                    text.pop();
                }
                self.block(Block::Literal(text));
            }
            Frame::Table { align, head, rows } => self.block(Block::Table { align, head, rows }),
            Frame::Row(is_head, cells) => {
                if let Some(Frame::Table { head, rows, .. }) = self.stack.last_mut() {
                    if is_head {
                        *head = cells;
                    } else {
                        rows.push(cells);
                    }
                }
            }
            Frame::Cell(content) => {
                if let Some(Frame::Row(_, cells)) = self.stack.last_mut() {
                    cells.push(content);
                }
            }
            Frame::Span(kind, content) => {
                self.inline_depth -= 1;
                match kind {
                    SpanKind::Emphasis => self.inline(Inline::Emphasis(content)),
                    SpanKind::Strong => self.inline(Inline::Strong(content)),
                    SpanKind::Strikethrough => self.inline(Inline::Strikethrough(content)),
                    SpanKind::Link {
                        url: Some(url),
                        title,
                    } => self.inline(Inline::Link {
                        url,
                        title,
                        content,
                    }),
                    // Unsafe link or a dropped tag: its content, as plain inlines.
                    SpanKind::Link { url: None, .. } | SpanKind::Other => {
                        for inline in content {
                            self.inline(inline);
                        }
                    }
                }
            }
            Frame::Image { url, title, alt } => {
                self.inline_depth -= 1;
                match url {
                    Some(url) => self.inline(Inline::Image { url, title, alt }),
                    None => self.text(&alt),
                }
            }
        }
    }

    /// Adds a block to the innermost frame that holds blocks.
    fn block(&mut self, block: Block) {
        for frame in self.stack.iter_mut().rev() {
            match frame {
                Frame::Doc(blocks) | Frame::Quote(blocks) => {
                    blocks.push(block);
                    return;
                }
                Frame::Item { blocks, loose, .. } => {
                    if !loose.is_empty() {
                        blocks.push(Block::Plain(std::mem::take(loose)));
                    }
                    blocks.push(block);
                    return;
                }
                _ => {}
            }
        }
    }

    fn text(&mut self, text: &str) {
        match self.stack.last_mut() {
            Some(Frame::Code(_, s)) | Some(Frame::Html(s)) => s.push_str(text),
            _ => self.inline(Inline::Text(text.to_owned())),
        }
    }

    /// Adds inline content to the innermost frame that holds it (text runs are merged).
    fn inline(&mut self, inline: Inline) {
        let target = match self.stack.last_mut() {
            Some(Frame::Image { alt, .. }) => {
                match &inline {
                    Inline::Text(t) | Inline::Code(t) => alt.push_str(t),
                    Inline::SoftBreak | Inline::HardBreak => alt.push(' '),
                    _ => {}
                }
                return;
            }
            Some(Frame::Span(_, c))
            | Some(Frame::Paragraph(c))
            | Some(Frame::Heading(_, c))
            | Some(Frame::Cell(c))
            | Some(Frame::Item { loose: c, .. }) => c,
            Some(Frame::Code(_, s)) | Some(Frame::Html(s)) => {
                if let Inline::Text(t) = &inline {
                    s.push_str(t);
                }
                return;
            }
            _ => return,
        };
        if let (Some(Inline::Text(last)), Inline::Text(t)) = (target.last_mut(), &inline) {
            last.push_str(t);
            return;
        }
        target.push(inline);
    }
}

fn non_empty(s: CowStr<'_>) -> Option<String> {
    (!s.is_empty()).then(|| s.into_string())
}
