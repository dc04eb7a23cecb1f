//! Writing direction of text, blocks and lines.

use super::*;

/// Writing direction of a block of text.
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
/// paragraphs would always resolve to left to right.
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

/// A person's plain text cut into runs of whole lines that read in one direction: each
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
