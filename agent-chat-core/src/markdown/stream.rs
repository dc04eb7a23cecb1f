//! The incremental parser of a streaming answer: which leading blocks are complete, and
//! parsing a region with the link definitions around it. See the module docs.

use super::*;

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

    /// Takes a snapshot of the streaming reply (the store's shared buffer). A later
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
pub(super) struct Def {
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
pub(super) struct Span {
    pub(super) range: Range<usize>,
    /// Heading, thematic break or (closed) fenced code: nothing after it can join it.
    pub(super) closes_itself: bool,
    /// A list: a half-typed next line (`2` becoming `2.`) may still continue it.
    pub(super) is_list: bool,
}

/// What [`parse_region`] found.
pub(super) struct Parsed {
    pub(super) blocks: Vec<Block>,
    spans: Vec<Span>,
    /// Definitions in the region: normalized label, definition, start offset; document order.
    defs: Vec<(String, Def, usize)>,
    /// Reference labels used by links and images: label, offset.
    ref_uses: Vec<(String, usize)>,
}

/// Link labels match case-insensitively with runs of whitespace collapsed.
pub(super) fn normalize_label(label: &str) -> String {
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
pub(super) fn parse_region(
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
