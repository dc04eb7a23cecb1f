//! `<Markdown/>` and `<StreamingMarkdown/>`: assistant text drawn from the core Markdown tree
//! ([`crate::core::markdown`]) as Leptos views. Nothing is ever set as HTML (no `inner_html`):
//! raw HTML in an answer was turned into text by the parser and stays text here.
//!
//! Rendering choices: Markdown headings are shifted down two levels (`#` is an `<h3>`, `####`
//! and deeper are `<h6>`) because the page already has its `<h1>` (chat title) and `<h2>`, and a
//! message is a part of the conversation, not a document of its own. Every link opens in a new
//! tab with `rel="noopener noreferrer"`; images are links to the image, never loaded (see the
//! parser's docs). Code blocks and tables scroll horizontally inside the bubble and can be
//! focused, so keyboard users can scroll them too. Each paragraph, heading, quote, list, list
//! item and table says `dir="rtl"` or `dir="ltr"` after its own first letter, so a reply
//! that goes from English to Arabic reads each block the right way round. A block of the
//! message without a letter reads like the block before it, and the wrapper has no direction of
//! its own: it follows the chat's layout, as the header of a code block does.

use leptos::attr::any_attribute::{AnyAttribute, IntoAnyAttribute};
use leptos::attr::custom::custom_attribute;
use leptos::attr::AttributeValue;
use leptos::prelude::*;
use leptos::tachys::reactive_graph::{OwnedView, OwnedViewState};
use leptos::tachys::view::add_attr::AddAnyAttr;
use leptos::tachys::view::any_view::AnyViewState;
use leptos::tachys::view::{Mountable, Render};

use crate::core::markdown::{
    self, Align, Block, Direction, Inline, Keyed, ListItem, MarkdownStream, Patch,
};
use crate::core::StreamText;
use crate::ui::i18n::I18n;

/// A stored message's Markdown, parsed once.
#[component]
pub fn Markdown(
    /// Markdown source.
    #[prop(into)]
    text: String,
) -> impl IntoView {
    // Its rules come with it (D79).
    crate::ui::style::use_part_style(crate::ui::style::MARKDOWN_CSS);
    let blocks = markdown::parse(&text);
    let mut before = None;
    let views: Vec<AnyView> = blocks
        .iter()
        .map(|block| {
            let (view, direction) = render_top(block, before);
            before = direction;
            view
        })
        .collect();
    view! {
        <div class="chat-markdown">{views}</div>
    }
}

/// Markdown that grows while it streams. Completed blocks are parsed once and drawn
/// once; each update parses only the open tail and touches only the blocks that changed: it
/// appends newly completed blocks and redraws the open ones after the kept blocks, never
/// looking at the blocks drawn before ([`MarkdownStream::take_patch`]). The store publishes
/// the reply at most once per animation frame, so this is at most one update per frame, and
/// an update late in a long answer costs what one early in it does.
///
/// Give it `stream` (the store's shared [`StreamText`], of which only the bytes not yet seen
/// are read) or `text` (a `String`, compared with the text drawn so far on every change).
#[component]
pub fn StreamingMarkdown(
    /// The answer so far as a `String`.
    #[prop(optional, into)]
    text: Option<Signal<String>>,
    /// The answer so far as a snapshot of the shared streaming buffer (the `text` of
    /// [`crate::store::ChatStore::streaming`]); wins over `text`.
    #[prop(optional, into)]
    stream: Option<Signal<StreamText>>,
) -> impl IntoView {
    // Its rules come with it (D79).
    crate::ui::style::use_part_style(crate::ui::style::MARKDOWN_CSS);
    let root = NodeRef::<leptos::html::Div>::new();
    let owner = Owner::current().expect("StreamingMarkdown needs a reactive owner");
    let mut md = MarkdownStream::new();
    let mut drawn: Vec<Drawn> = Vec::new();
    // The direction each drawn block reads in, its own or the one before's (D46).
    let mut directions: Vec<Option<Direction>> = Vec::new();
    // The blocks are mounted by hand (not a `<For>`, which diffs the whole list on every
    // change), each under an owner of its own that is a child of this component's.
    Effect::new(move |_| {
        let Some(div) = root.get() else { return };
        let before = md.stats();
        match (stream, text) {
            (Some(s), _) => s.with(|t| md.feed(t)),
            (None, Some(t)) => t.with(|t| md.set_text(t)),
            (None, None) => {}
        }
        let patch = md.take_patch();
        let after = md.stats();
        let mut work = StreamingWork {
            updates: 1,
            bytes_fed: after.bytes_fed - before.bytes_fed,
            bytes_compared: after.bytes_compared - before.bytes_compared,
            bytes_parsed: after.bytes_parsed - before.bytes_parsed,
            blocks_visited: after.patch_visited - before.patch_visited,
            ..StreamingWork::default()
        };
        untrack(|| {
            apply_patch(
                &div,
                &owner,
                (&mut drawn, &mut directions),
                patch,
                &mut work,
            )
        });
        WORK.with(|w| w.set(w.get().add(work)));
    });
    view! { <div class="chat-markdown" data-streaming="true" node_ref=root></div> }
}

/// One block on screen, with the owner of its reactive parts (dropped with it).
type Drawn = OwnedViewState<AnyViewState>;

/// Draws a top-level block that follows a block reading in `before`; also returns the
/// direction it reads in.
fn draw(block: &Keyed, before: Option<Direction>, owner: &Owner) -> (Drawn, Option<Direction>) {
    let owner = owner.with(Owner::new);
    let (view, direction) = owner.with(|| render_top(&block.block, before));
    (OwnedView::new_with_owner(view, owner).build(), direction)
}

fn apply_patch(
    parent: &web_sys::Element,
    owner: &Owner,
    (drawn, directions): (&mut Vec<Drawn>, &mut Vec<Option<Direction>>),
    patch: Patch,
    work: &mut StreamingWork,
) {
    while drawn.len() > patch.keep {
        if let Some(mut gone) = drawn.pop() {
            gone.unmount();
            work.blocks_removed += 1;
        }
    }
    directions.truncate(drawn.len());
    for (i, block) in patch.replace {
        // A replaced block only has new link targets (a definition changed): its text, and so
        // its direction and the ones after it, stay.
        let before = i.checked_sub(1).and_then(|p| directions[p]);
        let (mut fresh, _) = draw(&block, before, owner);
        // In the old one's place, or before the next block that has a node.
        let placed = drawn[i..].iter().any(|d| d.insert_before_this(&mut fresh));
        if !placed {
            fresh.mount(parent, None);
        }
        drawn[i].unmount();
        drawn[i] = fresh;
        work.blocks_drawn += 1;
    }
    for block in patch.append {
        let before = directions.last().copied().flatten();
        let (mut fresh, direction) = draw(&block, before, owner);
        fresh.mount(parent, None);
        drawn.push(fresh);
        directions.push(direction);
        work.blocks_drawn += 1;
    }
}

/// Work done by the `<StreamingMarkdown/>`s of this thread since it started, counted in units
/// that do not depend on the machine (for tests and benchmarks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StreamingWork {
    /// Updates (at most one per animation frame for the store's reply).
    pub updates: u64,
    /// Bytes of text taken in.
    pub bytes_fed: u64,
    /// Bytes compared to find the new text (a `text` source only).
    pub bytes_compared: u64,
    /// Bytes handed to the Markdown parser.
    pub bytes_parsed: u64,
    /// Blocks looked at to decide what to draw.
    pub blocks_visited: u64,
    /// Blocks drawn (appended, or redrawn in place).
    pub blocks_drawn: u64,
    /// Blocks taken off the page.
    pub blocks_removed: u64,
}

impl StreamingWork {
    fn add(self, o: StreamingWork) -> StreamingWork {
        StreamingWork {
            updates: self.updates + o.updates,
            bytes_fed: self.bytes_fed + o.bytes_fed,
            bytes_compared: self.bytes_compared + o.bytes_compared,
            bytes_parsed: self.bytes_parsed + o.bytes_parsed,
            blocks_visited: self.blocks_visited + o.blocks_visited,
            blocks_drawn: self.blocks_drawn + o.blocks_drawn,
            blocks_removed: self.blocks_removed + o.blocks_removed,
        }
    }

    /// The work done between `earlier` and `self` (two readings of [`streaming_work`]).
    pub fn since(self, earlier: StreamingWork) -> StreamingWork {
        StreamingWork {
            updates: self.updates - earlier.updates,
            bytes_fed: self.bytes_fed - earlier.bytes_fed,
            bytes_compared: self.bytes_compared - earlier.bytes_compared,
            bytes_parsed: self.bytes_parsed - earlier.bytes_parsed,
            blocks_visited: self.blocks_visited - earlier.blocks_visited,
            blocks_drawn: self.blocks_drawn - earlier.blocks_drawn,
            blocks_removed: self.blocks_removed - earlier.blocks_removed,
        }
    }
}

thread_local! {
    static WORK: std::cell::Cell<StreamingWork> = const {
        std::cell::Cell::new(StreamingWork {
            updates: 0,
            bytes_fed: 0,
            bytes_compared: 0,
            bytes_parsed: 0,
            blocks_visited: 0,
            blocks_drawn: 0,
            blocks_removed: 0,
        })
    };
}

/// The running totals of [`StreamingWork`] on this thread.
pub fn streaming_work() -> StreamingWork {
    WORK.with(|w| w.get())
}

// Every Markdown element goes through `el`: one element type (custom tag, type-erased
// attributes and children) instead of one per `view!` shape. The renderer is recursive over
// many shapes, and each distinct view type costs its own mount/update code in the wasm.

/// `<tag attrs…>children…</tag>`.
fn el(tag: &'static str, attrs: Vec<AnyAttribute>, children: Vec<AnyView>) -> AnyView {
    leptos::html::custom(tag)
        .add_any_attr(attrs)
        .child(children)
        .into_any()
}

fn attr<V>(name: &'static str, value: V) -> AnyAttribute
where
    V: AttributeValue + Clone + Send + 'static,
{
    custom_attribute(name, value).into_any_attr()
}

/// A block of the message itself (not inside a quote or list), after a block that reads in
/// `before`, and the direction it reads in. One without a letter (numbers only, an emoji)
/// reads like the block before (a code block or rule passes that on), or the layout at the
/// start, not like the wrapper, which has no direction of its own.
fn render_top(block: &Block, before: Option<Direction>) -> (AnyView, Option<Direction>) {
    let direction = markdown::block_direction(block).or(before);
    (render_block(block, direction), direction)
}

fn render_blocks(blocks: &[Block]) -> Vec<AnyView> {
    blocks.iter().map(|b| render_block(b, None)).collect()
}

/// `block` with its `dir`: its own direction, else `fallback` (given for blocks of the
/// message itself).
fn render_block(block: &Block, fallback: Option<Direction>) -> AnyView {
    // D44: each block reads in the direction of its own first letter; blocks without one
    // (code, rules, numbers only) follow their container.
    let dir = || {
        markdown::block_direction(block)
            .or(fallback)
            .map(|d| attr("dir", d.as_str()))
            .into_iter()
            .collect::<Vec<_>>()
    };
    match block {
        Block::Paragraph(content) => el("p", dir(), render_inlines(content)),
        Block::Plain(content) => render_inlines(content).into_any(),
        Block::Heading { level, content } => {
            let tag = match level {
                1 => "h3",
                2 => "h4",
                3 => "h5",
                _ => "h6",
            };
            let mut attrs = vec![attr("data-level", level.to_string())];
            attrs.extend(dir());
            el(tag, attrs, render_inlines(content))
        }
        Block::Quote(blocks) => el("blockquote", dir(), render_blocks(blocks)),
        Block::List { start, items } => match start {
            Some(start) => {
                let mut attrs = vec![attr("start", start.to_string())];
                attrs.extend(dir());
                el("ol", attrs, render_items(items))
            }
            None => el("ul", dir(), render_items(items)),
        },
        Block::Code { lang, text } => {
            view! { <CodeBlock lang=lang.clone() code=text.clone()/> }.into_any()
        }
        Block::Table { align, head, rows } => render_table(align, head, rows, dir()),
        Block::Rule => el("hr", vec![], vec![]),
        Block::Literal(text) => {
            let mut attrs = vec![attr("class", "chat-markdown__literal")];
            attrs.extend(dir());
            el("p", attrs, vec![text.clone().into_any()])
        }
    }
}

fn render_items(items: &[ListItem]) -> Vec<AnyView> {
    let i18n = I18n::get();
    items
        .iter()
        .map(|item| {
            let mut children = Vec::new();
            let mut attrs: Vec<_> = markdown::item_direction(item)
                .map(|d| attr("dir", d.as_str()))
                .into_iter()
                .collect();
            if let Some(checked) = item.task {
                attrs.push(attr("class", "chat-markdown__task"));
                let mut input = vec![
                    attr("type", "checkbox"),
                    attr("class", "chat-markdown__checkbox"),
                    attr("disabled", ""),
                    attr("aria-label", move || i18n.t("chat-markdown-task")),
                ];
                if checked {
                    input.push(attr("checked", ""));
                }
                children.push(el("input", input, vec![]));
            }
            children.extend(render_blocks(&item.blocks));
            el("li", attrs, children)
        })
        .collect()
}

fn render_table(
    align: &[Align],
    head: &[Vec<Inline>],
    rows: &[Vec<Vec<Inline>>],
    dir: Vec<AnyAttribute>,
) -> AnyView {
    let i18n = I18n::get();
    let cell = |tag: &'static str, i: usize, content: &[Inline]| {
        let mut attrs = Vec::new();
        if tag == "th" {
            attrs.push(attr("scope", "col"));
        }
        match align.get(i).copied().unwrap_or(Align::None) {
            Align::None => {}
            Align::Left => attrs.push(attr("data-align", "left")),
            Align::Center => attrs.push(attr("data-align", "center")),
            Align::Right => attrs.push(attr("data-align", "right")),
        }
        el(tag, attrs, render_inlines(content))
    };
    let head_row = head
        .iter()
        .enumerate()
        .map(|(i, c)| cell("th", i, c))
        .collect();
    let body = rows
        .iter()
        .map(|row| {
            let cells = row
                .iter()
                .enumerate()
                .map(|(i, c)| cell("td", i, c))
                .collect();
            el("tr", vec![], cells)
        })
        .collect();
    let table = el(
        "table",
        dir,
        vec![
            el("thead", vec![], vec![el("tr", vec![], head_row)]),
            el("tbody", vec![], body),
        ],
    );
    el(
        "div",
        vec![
            attr("class", "chat-markdown__table"),
            attr("tabindex", "0"),
            attr("role", "group"),
            attr("aria-label", move || i18n.t("chat-markdown-table")),
        ],
        vec![table],
    )
}

fn render_inlines(inlines: &[Inline]) -> Vec<AnyView> {
    inlines.iter().map(render_inline).collect()
}

fn render_inline(inline: &Inline) -> AnyView {
    match inline {
        Inline::Text(t) => t.clone().into_any(),
        Inline::Code(t) => el("code", vec![], vec![t.clone().into_any()]),
        Inline::Emphasis(c) => el("em", vec![], render_inlines(c)),
        Inline::Strong(c) => el("strong", vec![], render_inlines(c)),
        Inline::Strikethrough(c) => el("del", vec![], render_inlines(c)),
        Inline::Link {
            url,
            title,
            content,
        } => el("a", link_attrs(url, title, None), render_inlines(content)),
        Inline::Image { url, title, alt } => {
            let i18n = I18n::get();
            let name = if alt.trim().is_empty() {
                url.clone()
            } else {
                alt.clone()
            };
            let label =
                move || i18n.t_args("chat-markdown-image", &[("name", name.clone().into())]);
            el(
                "a",
                link_attrs(url, title, Some("chat-markdown__image")),
                vec![label.into_any()],
            )
        }
        // CommonMark: a soft break is a space (white-space: normal collapses the newline).
        Inline::SoftBreak => "\n".into_any(),
        Inline::HardBreak => el("br", vec![], vec![]),
    }
}

/// Every link opens in a new tab without access to this page (`noopener`) or the referrer.
fn link_attrs(url: &str, title: &Option<String>, class: Option<&'static str>) -> Vec<AnyAttribute> {
    let mut attrs = vec![
        attr("href", url.to_owned()),
        attr("target", "_blank"),
        attr("rel", "noopener noreferrer"),
    ];
    if let Some(title) = title {
        attrs.push(attr("title", title.clone()));
    }
    if let Some(class) = class {
        attrs.push(attr("class", class));
    }
    attrs
}

/// What a Copy button last did (code blocks here, and `MessageActions`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CopyState {
    /// Nothing yet, or the "Copied" label timed out.
    Idle,
    /// The text is on the clipboard.
    Copied,
    /// The clipboard refused (a code block then leaves its code selected for Ctrl/Cmd+C).
    Failed,
}

impl CopyState {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            CopyState::Idle => "idle",
            CopyState::Copied => "copied",
            CopyState::Failed => "failed",
        }
    }
}

/// A code block: language label, Copy button, horizontally scrolling code.
#[component]
fn CodeBlock(
    /// Language from the info string.
    lang: Option<String>,
    /// The code.
    code: String,
) -> impl IntoView {
    let i18n = I18n::get();
    let state = RwSignal::new(CopyState::Idle);
    let code_ref = NodeRef::<leptos::html::Code>::new();
    let source = StoredValue::new(code.clone());
    let label = lang.clone();
    let copy = move |_| {
        let text = source.get_value();
        leptos::task::spawn_local(async move {
            let mut done = crate::io::clipboard::write(&text).await;
            if !done {
                // Fallback: select the code (so Ctrl/Cmd+C works) and try the legacy command.
                if let Some(el) = code_ref.get_untracked() {
                    done = crate::io::clipboard::select_and_copy(&el);
                }
            }
            let _ = state.try_set(if done {
                CopyState::Copied
            } else {
                CopyState::Failed
            });
            set_timeout(
                move || {
                    let _ = state.try_set(CopyState::Idle);
                },
                std::time::Duration::from_secs(2),
            );
        });
    };
    view! {
        <div class="chat-markdown__code" data-lang=lang>
            <div class="chat-markdown__code-bar">
                <span class="chat-markdown__code-lang">
                    {move || label.clone().unwrap_or_else(|| i18n.t("chat-markdown-code"))}
                </span>
                <button
                    type="button"
                    class="chat-markdown__copy"
                    data-state=move || state.get().as_str()
                    on:click=copy
                >
                    {move || match state.get() {
                        CopyState::Idle => i18n.t("chat-actions-copy"),
                        CopyState::Copied => i18n.t("chat-actions-copied"),
                        CopyState::Failed => i18n.t("chat-actions-failed-to-copy"),
                    }}
                </button>
                <span class="chat-visually-hidden" role="status">
                    {move || match state.get() {
                        CopyState::Idle => String::new(),
                        CopyState::Copied => i18n.t("chat-actions-copied"),
                        CopyState::Failed => i18n.t("chat-actions-failed-to-copy"),
                    }}
                </span>
            </div>
            <pre tabindex="0"><code node_ref=code_ref>{code}</code></pre>
        </div>
    }
}

crate::io::split::split_point!(
    markdown,
    preload_markdown,
    /// A stored assistant message's [`Markdown`], a part fetched with the first reply (issue
    /// 16).
    pub(crate) fn markdown_part(text: String) -> AnyView {
        view! { <Markdown text=text/> }.into_any()
    }
);

crate::io::split::split_point!(
    markdown,
    preload_streaming_markdown,
    /// The streaming reply's [`StreamingMarkdown`], in the same part as [`markdown_part`].
    pub(crate) fn streaming_markdown_part(stream: Signal<StreamText>) -> AnyView {
        view! { <StreamingMarkdown stream=stream/> }.into_any()
    }
);

/// Markdown while its part is on its way (or could not be fetched: then with the `notice`
/// under it): the source as plain text, every character kept and nothing read as markup, so
/// the reply is readable at once.
pub(crate) fn markdown_pending(text: Signal<String>, notice: Option<AnyView>) -> AnyView {
    view! {
        <div class="chat-markdown chat-markdown--plain">{move || text.get()}</div>
        {notice}
    }
    .into_any()
}
