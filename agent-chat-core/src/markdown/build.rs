//! pulldown-cmark events into the owned tree, with an explicit stack (no recursion).

use super::*;

/// Turns pulldown-cmark events into the tree, with an explicit stack (no recursion).
pub(super) struct Builder<'a> {
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
    pub(super) fn new(src: &'a str) -> Self {
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

    pub(super) fn finish(mut self) -> (Vec<Block>, Vec<Span>, Vec<(String, usize)>) {
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

    pub(super) fn event(&mut self, event: Event<'_>, range: Range<usize>) {
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
