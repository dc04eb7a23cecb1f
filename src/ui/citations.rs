//! `<Citations/>`: the "Sources" block under an assistant message.
//!
//! Five sources show at first; a toggle shows all ("Show All (n)") and folds them again
//! ("Show Less"). A source is its title (or "Source {index}"), a link to `link` when that is an
//! absolute http(s) address (new tab, no opener, no referrer), and its description. Its image is
//! never loaded: it is offered as a link ("Image: {title}"), as images in Markdown are.

use leptos::prelude::*;

use crate::core::url::safe_web_href;
use crate::core::Citation;
use crate::ui::i18n::I18n;

/// How many sources show before "Show All".
pub const VISIBLE_CITATIONS: usize = 5;

/// The sources of one message; nothing is drawn for an empty list.
#[component]
pub fn Citations(
    /// The message's citations, in order.
    citations: Vec<Citation>,
    /// Extra classes for the root element.
    #[prop(optional, into)]
    class: MaybeProp<String>,
) -> impl IntoView {
    // Its rules come with it (D79).
    crate::ui::style::use_part_style(crate::ui::style::MARKDOWN_CSS);
    let i18n = I18n::get();
    if citations.is_empty() {
        return ().into_any();
    }
    let total = citations.len();
    let show_all = RwSignal::new(false);
    let heading_id = format!("chat-citations-{}", unique());
    let rows = citations
        .into_iter()
        .enumerate()
        .map(|(i, c)| {
            let extra = i >= VISIBLE_CITATIONS;
            view! {
                <li class="chat-citation" hidden=move || extra && !show_all.get()>
                    <CitationItem citation=c index=i + 1/>
                </li>
            }
        })
        .collect_view();
    let toggle = (total > VISIBLE_CITATIONS).then(|| {
        view! {
            <button
                type="button"
                class="chat-citations__toggle"
                aria-expanded=move || show_all.get().to_string()
                on:click=move |_| show_all.update(|s| *s = !*s)
            >
                {move || if show_all.get() {
                    i18n.t("chat-message-show-less")
                } else {
                    i18n.t_args("chat-message-show-all", &[("count", total.into())])
                }}
            </button>
        }
    });
    view! {
        <section
            class=move || crate::utils::cn(["chat-citations".to_owned(), class.get().unwrap_or_default()])
            aria-labelledby=heading_id.clone()
        >
            <h3 class="chat-citations__title" id=heading_id.clone()>{move || i18n.t("chat-message-sources")}</h3>
            <ol class="chat-citations__list">{rows}</ol>
            {toggle}
        </section>
    }
    .into_any()
}

/// One source: title (linked when safe), image link, description.
#[component]
fn CitationItem(citation: Citation, index: usize) -> impl IntoView {
    let i18n = I18n::get();
    let given = citation
        .title
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_owned);
    let title = {
        let given = given.clone();
        move || {
            given
                .clone()
                .unwrap_or_else(|| i18n.t_args("chat-message-source", &[("index", index.into())]))
        }
    };
    let head = match citation.link.as_deref().and_then(safe_web_href) {
        Some(href) => view! {
            <a class="chat-citation__title" href=href target="_blank" rel="noopener noreferrer">{title.clone()}</a>
        }
        .into_any(),
        None => view! { <span class="chat-citation__title">{title.clone()}</span> }.into_any(),
    };
    let image = citation
        .image
        .as_deref()
        .and_then(safe_web_href)
        .map(|src| {
            let name = title.clone();
            view! {
                <a class="chat-citation__image" href=src target="_blank" rel="noopener noreferrer">
                    {move || i18n.t_args("chat-markdown-image", &[("name", name().into())])}
                </a>
            }
        });
    let description = citation
        .description
        .filter(|d| !d.trim().is_empty())
        .map(|d| view! { <p class="chat-citation__description">{d}</p> });
    view! {
        {head}
        {image}
        {description}
    }
}

/// A number for element ids, unique within the page.
fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}
