//! Browser tests of the Markdown views (wasm-bindgen-test in headless Chromium): raw HTML stays
//! text, script URLs are not links, code blocks copy, tables scroll, and a streaming update
//! appends without recreating the blocks already on screen.
#![cfg(target_arch = "wasm32")]

use std::collections::HashMap;

use agent_chat_ui::ui::i18n::I18n;
use agent_chat_ui::ui::markdown::{Markdown, StreamingMarkdown};
use agent_chat_ui::ui::style::Styles;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

use crate::web;
use web::{computed_style, query, section, wait_for, wait_until};

/// Mounts `<Markdown text/>` inside a styled chat root; returns the mount point.
fn mount_markdown(text: &'static str) -> (web_sys::HtmlElement, impl Drop) {
    let root = section();
    let handle = mount_to(root.clone(), move || {
        I18n::provide(Some("en"), HashMap::new());
        view! {
            <div class="chat-root">
                <Styles/>
                <Markdown text=text/>
            </div>
        }
    });
    (root, handle)
}

fn all(root: &web_sys::HtmlElement, sel: &str) -> Vec<web_sys::Element> {
    let list = root.query_selector_all(sel).unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i))
        .map(|n| n.unchecked_into())
        .collect()
}

#[wasm_bindgen_test]
async fn raw_html_is_shown_as_text_and_creates_no_element() {
    let (root, _h) = mount_markdown(
        "<script>window.__md_pwned = 1</script>\n\nHi <img src=x onerror=\"window.__md_pwned = 2\"> <b>bold</b> <iframe src=\"https://example.com\"></iframe>",
    );
    let md = wait_for(&root, ".chat-markdown").await;
    web::next_frame().await;
    for tag in ["script", "img", "b", "iframe"] {
        assert!(
            query(&md, tag).is_none(),
            "<{tag}> was created: {}",
            md.inner_html()
        );
    }
    let text = md.text_content().unwrap();
    assert!(
        text.contains("<script>window.__md_pwned = 1</script>"),
        "{text}"
    );
    assert!(
        text.contains("<img src=x onerror=\"window.__md_pwned = 2\">"),
        "{text}"
    );
    assert!(text.contains("<b>bold</b>"), "{text}");
    let pwned = js_sys::Reflect::get(&web_sys::window().unwrap(), &"__md_pwned".into()).unwrap();
    assert!(pwned.is_undefined(), "script ran: {pwned:?}");
}

#[wasm_bindgen_test]
async fn a_javascript_link_is_plain_text_and_safe_links_open_in_a_new_tab() {
    let (root, _h) = mount_markdown(
        "[evil](javascript:alert(1)) [data](data:text/html,x) ![img](javascript:x) and [good](https://example.com/a \"Title\")",
    );
    let md = wait_for(&root, ".chat-markdown").await;
    let links = all(&md, "a");
    assert_eq!(links.len(), 1, "only the safe link: {}", md.inner_html());
    let a = &links[0];
    assert_eq!(
        a.get_attribute("href").as_deref(),
        Some("https://example.com/a")
    );
    assert_eq!(a.get_attribute("target").as_deref(), Some("_blank"));
    assert_eq!(
        a.get_attribute("rel").as_deref(),
        Some("noopener noreferrer")
    );
    assert_eq!(a.get_attribute("title").as_deref(), Some("Title"));
    let text = md.text_content().unwrap();
    assert!(
        text.contains("evil") && text.contains("data") && text.contains("img"),
        "{text}"
    );
    assert!(!md.inner_html().contains("javascript:"));
}

#[wasm_bindgen_test]
async fn an_image_is_a_link_to_it_and_is_not_loaded() {
    let (root, _h) = mount_markdown("![the logo](https://example.com/logo.png)");
    let md = wait_for(&root, ".chat-markdown").await;
    assert!(query(&md, "img").is_none());
    let a = wait_for(&md, "a.chat-markdown__image").await;
    assert_eq!(
        a.get_attribute("href").as_deref(),
        Some("https://example.com/logo.png")
    );
    assert_eq!(a.text_content().unwrap().trim(), "Image: the logo");
}

#[wasm_bindgen_test]
async fn a_code_block_has_its_language_a_working_copy_button_and_scrolls() {
    let long_line = "let x = 1; ".repeat(40);
    let src: &'static str =
        Box::leak(format!("```rust\nfn main() {{}}\n{long_line}\n```").into_boxed_str());
    let (root, _h) = mount_markdown(src);
    let block = wait_for(&root, ".chat-markdown__code").await;
    assert_eq!(
        query(&block, ".chat-markdown__code-lang")
            .unwrap()
            .text_content()
            .unwrap(),
        "rust"
    );
    let code = query(&block, "pre > code").unwrap();
    let expected = format!("fn main() {{}}\n{long_line}");
    assert_eq!(code.text_content().unwrap(), expected);
    let pre = query(&block, "pre").unwrap();
    assert_eq!(computed_style(&pre, "overflow-x"), "auto");
    assert!(
        pre.scroll_width() > pre.client_width(),
        "long line scrolls inside the block"
    );
    assert_eq!(pre.get_attribute("tabindex").as_deref(), Some("0"));

    let button = query(&block, "button.chat-markdown__copy").unwrap();
    assert_eq!(button.text_content().unwrap(), "Copy");
    assert_eq!(button.get_attribute("data-state").as_deref(), Some("idle"));

    // The clipboard takes the code: "Copied!", announced, and back to "Copy" when the
    // two-second timer (driven here, not waited for) fires.
    let clip = CopyStub::install(true);
    button.click();
    wait_until("the copy button reports", &root, || {
        button.get_attribute("data-state").as_deref() == Some("copied")
    })
    .await;
    assert_eq!(button.text_content().unwrap(), "Copied!");
    assert_eq!(clip.written(), std::slice::from_ref(&expected));
    let status = query(&block, "[role=status]").unwrap();
    assert_eq!(status.text_content().unwrap(), "Copied!");
    clip.fire_reset();
    wait_until("back to Copy", &root, || {
        button.get_attribute("data-state").as_deref() == Some("idle")
    })
    .await;
    assert_eq!(button.text_content().unwrap(), "Copy");
    drop(clip);

    // The clipboard refuses (and so does the legacy command): "Failed to copy", announced,
    // and the code is left selected for Ctrl/Cmd+C.
    let clip = CopyStub::install(false);
    button.click();
    wait_until("the copy button reports", &root, || {
        button.get_attribute("data-state").as_deref() == Some("failed")
    })
    .await;
    assert_eq!(button.text_content().unwrap(), "Failed to copy");
    assert_eq!(status.text_content().unwrap(), "Failed to copy");
    let selected = js_sys::eval("String(window.getSelection())").unwrap();
    assert_eq!(selected.as_string().unwrap(), expected);
    clip.fire_reset();
    wait_until("back to Copy", &root, || {
        button.get_attribute("data-state").as_deref() == Some("idle")
    })
    .await;
}

/// `navigator.clipboard.writeText` that resolves (`ok`) or rejects, `document.execCommand`
/// that refuses, and `window.setTimeout` that keeps two-second timers (the Copy button's
/// reset) for the test to fire; everything is put back on drop.
const COPY_STUB: &str = r#"
const written = [];
const resets = [];
const setTimer = window.setTimeout;
const exec = document.execCommand;
Object.defineProperty(navigator, 'clipboard', { configurable: true, value: {
  writeText: (t) => { written.push(t);
    return ok ? Promise.resolve() : Promise.reject(new DOMException('denied', 'NotAllowedError')); },
} });
document.execCommand = () => false;
window.setTimeout = function (f, ms, ...rest) {
  if (ms === 2000) { resets.push(f); return 0; }
  return setTimer.call(window, f, ms, ...rest);
};
return {
  written,
  fire() { const f = resets.shift(); if (f) { f(); } return !!f; },
  restore() {
    window.setTimeout = setTimer;
    document.execCommand = exec;
    delete navigator.clipboard;
  },
};
"#;

/// The installed [`COPY_STUB`].
struct CopyStub(wasm_bindgen::JsValue);

impl CopyStub {
    fn install(ok: bool) -> CopyStub {
        let make = js_sys::Function::new_with_args("ok", COPY_STUB);
        CopyStub(
            make.call1(&wasm_bindgen::JsValue::NULL, &ok.into())
                .unwrap(),
        )
    }

    fn method(&self, name: &str) -> js_sys::Function {
        js_sys::Reflect::get(&self.0, &name.into())
            .unwrap()
            .unchecked_into()
    }

    /// What was written to the clipboard.
    fn written(&self) -> Vec<String> {
        let list: js_sys::Array = js_sys::Reflect::get(&self.0, &"written".into())
            .unwrap()
            .unchecked_into();
        list.iter().map(|v| v.as_string().unwrap()).collect()
    }

    /// Fires the oldest two-second timer; fails the test if none was set.
    fn fire_reset(&self) {
        let fired = self.method("fire").call0(&self.0).unwrap();
        assert_eq!(fired.as_bool(), Some(true), "no two-second reset was set");
    }
}

impl Drop for CopyStub {
    fn drop(&mut self) {
        self.method("restore").call0(&self.0).unwrap();
    }
}

#[wasm_bindgen_test]
async fn a_table_renders_with_alignment_and_scrolls_inside_the_bubble() {
    let (root, _h) = mount_markdown(
        "| Name | Value | Note |\n|:-----|------:|:----:|\n| a | 1 | x |\n| b | **2** | a very long note that keeps going and going and going and going and going and going |",
    );
    let wrap = wait_for(&root, ".chat-markdown__table").await;
    assert_eq!(wrap.get_attribute("tabindex").as_deref(), Some("0"));
    assert_eq!(wrap.get_attribute("aria-label").as_deref(), Some("Table"));
    assert_eq!(computed_style(&wrap, "overflow-x"), "auto");
    let heads: Vec<String> = all(&wrap, "thead th")
        .iter()
        .map(|e| e.text_content().unwrap())
        .collect();
    assert_eq!(heads, ["Name", "Value", "Note"]);
    assert_eq!(all(&wrap, "tbody tr").len(), 2);
    let value = &all(&wrap, "tbody tr td:nth-child(2)")[1];
    assert_eq!(value.get_attribute("data-align").as_deref(), Some("right"));
    assert_eq!(computed_style(value, "text-align"), "right");
    assert!(query(value.unchecked_ref(), "strong").is_some());
}

#[wasm_bindgen_test]
async fn streaming_appends_without_recreating_earlier_blocks() {
    let root = section();
    let text = RwSignal::new(String::from(
        "# Title\n\nFirst paragraph with *style*.\n\nSecond",
    ));
    let _h = mount_to(root.clone(), move || {
        I18n::provide(Some("en"), HashMap::new());
        view! { <div class="chat-root"><Styles/><StreamingMarkdown text=text/></div> }
    });
    let md = wait_for(&root, ".chat-markdown[data-streaming=true]").await;
    let heading = wait_for(&md, "h3").await;
    let first = query(&md, "p").unwrap();
    assert_eq!(first.text_content().unwrap(), "First paragraph with style.");

    // Many small deltas, one per frame like the store publishes them.
    let more = " paragraph grows.\n\n- one\n- two\n\n```js\nconst a = 1;\n```\n\nLast words";
    let mut so_far = text.get_untracked();
    for chunk in more.as_bytes().chunks(4) {
        so_far.push_str(std::str::from_utf8(chunk).unwrap());
        text.set(so_far.clone());
        leptos::task::tick().await;
    }
    wait_until("the last block is drawn", &md, || {
        md.text_content().unwrap().ends_with("Last words")
    })
    .await;
    // The same DOM nodes, still in the document.
    let heading_now = query(&md, "h3").unwrap();
    let first_now = query(&md, "p").unwrap();
    assert!(
        heading.is_same_node(Some(&heading_now)),
        "heading recreated"
    );
    assert!(
        first.is_same_node(Some(&first_now)),
        "first paragraph recreated"
    );
    assert!(first.is_connected());
    assert_eq!(all(&md, "li").len(), 2);
    assert!(query(&md, ".chat-markdown__code").is_some());

    // What streamed looks exactly like the stored message drawn from the same text.
    let stored = section();
    let final_text = so_far.clone();
    let _h2 = mount_to(stored.clone(), move || {
        I18n::provide(Some("en"), HashMap::new());
        view! { <Markdown text=final_text.clone()/> }
    });
    let stored_md = wait_for(&stored, ".chat-markdown").await;
    let strip = |html: String| html.replace("<!---->", "");
    assert_eq!(strip(md.inner_html()), strip(stored_md.inner_html()));
}

#[wasm_bindgen_test]
async fn copy_writes_the_code_to_the_clipboard_when_allowed() {
    // Headless Chromium refuses the real clipboard; a stand-in that accepts shows the success
    // path and what exactly is written.
    js_sys::eval(
        "Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { \
           writeText: function (t) { window.__md_copied = t; return Promise.resolve(); } } });",
    )
    .unwrap();
    let (root, _h) = mount_markdown("```\nline 1\n  line 2\n```");
    let button = wait_for(&root, "button.chat-markdown__copy").await;
    button.click();
    wait_until("copied", &root, || {
        button.get_attribute("data-state").as_deref() == Some("copied")
    })
    .await;
    assert_eq!(button.text_content().unwrap(), "Copied!");
    let copied = js_sys::Reflect::get(&web_sys::window().unwrap(), &"__md_copied".into()).unwrap();
    assert_eq!(copied.as_string().as_deref(), Some("line 1\n  line 2"));
    // No language: the label says "Code".
    let lang = query(&root, ".chat-markdown__code-lang").unwrap();
    assert_eq!(lang.text_content().unwrap(), "Code");
    js_sys::eval("delete navigator.clipboard").unwrap();
}

#[wasm_bindgen_test]
async fn headings_shift_two_levels_and_task_items_are_disabled_checkboxes() {
    let (root, _h) = mount_markdown("# One\n\n#### Four\n\n- [x] done\n- [ ] open\n\n3. third");
    let md = wait_for(&root, ".chat-markdown").await;
    let h3 = query(&md, "h3").unwrap();
    assert_eq!(h3.text_content().unwrap(), "One");
    assert_eq!(h3.get_attribute("data-level").as_deref(), Some("1"));
    assert_eq!(
        query(&md, "h6[data-level='4']")
            .unwrap()
            .text_content()
            .unwrap(),
        "Four"
    );
    let boxes: Vec<web_sys::HtmlInputElement> = all(&md, "li.chat-markdown__task input")
        .into_iter()
        .map(|e| e.unchecked_into())
        .collect();
    assert_eq!(boxes.len(), 2);
    assert!(boxes[0].checked() && !boxes[1].checked());
    assert!(boxes.iter().all(|b| b.disabled()));
    assert_eq!(
        boxes[0].get_attribute("aria-label").as_deref(),
        Some("Task")
    );
    assert_eq!(
        query(&md, "ol").unwrap().get_attribute("start").as_deref(),
        Some("3")
    );
}

/// D44: each paragraph, heading, quote, list, list item and table of a reply reads in the
/// direction of its own first letter, so English then Arabic paragraphs read left to right,
/// then right to left, and a list of Arabic items has its markers on the right.
#[wasm_bindgen_test]
async fn d44_each_block_reads_in_the_direction_of_its_own_text() {
    let (root, _h) = mount_markdown(
        "## Summary\n\nThe order shipped today.\n\nتم شحن الطلب اليوم.\n\n> اقتباس قصير\n\n- بند أول\n- second item\n\n1. first\n2. ثاني\n\n| المنتج | السعر |\n|---|---|\n| كتاب | 10 |\n\n```\nlet x = 1;\n```",
    );
    let md = wait_for(&root, ".chat-markdown").await;
    let directions = |sel: &str| -> Vec<(Option<String>, String)> {
        all(&md, sel)
            .iter()
            .map(|e| (e.get_attribute("dir"), computed_style(e, "direction")))
            .collect()
    };
    let both = |d: &str| (Some(d.to_owned()), d.to_owned());
    assert_eq!(directions("h4"), [both("ltr")]);
    assert_eq!(directions(".chat-markdown > p"), [both("ltr"), both("rtl")]);
    assert_eq!(directions("blockquote"), [both("rtl")]);
    assert_eq!(
        directions("ul"),
        [both("rtl")],
        "a list follows its first item"
    );
    assert_eq!(directions("ul > li"), [both("rtl"), both("ltr")]);
    assert_eq!(directions("ol"), [both("ltr")]);
    assert_eq!(directions("ol > li"), [both("ltr"), both("rtl")]);
    assert_eq!(
        directions("table"),
        [both("rtl")],
        "a table follows its first cell"
    );
    // Code has no direction of its own here: it stays left to right (the stylesheet's).
    let code = all(&md, "pre");
    assert_eq!(code.len(), 1);
    assert_eq!(code[0].get_attribute("dir"), None);
    assert_eq!(computed_style(&code[0], "direction"), "ltr");
}

/// Issue 16, D79: Markdown's rules are not in the first stylesheet; the first `Markdown`
/// drawn adds them to the chat's `<style>` (once, however many are drawn) and they apply.
/// Nothing here draws a card, so the cards' rules stay out.
#[wasm_bindgen_test]
async fn i16_markdown_brings_its_rules_once_and_no_other_parts() {
    use agent_chat_ui::ui::style::{CARDS_CSS, CHAT_CSS, MARKDOWN_CSS};
    assert!(!CHAT_CSS.contains(".chat-markdown h3"));
    assert!(MARKDOWN_CSS.contains(".chat-markdown h3"));
    let root = section();
    let _handle = mount_to(root.clone(), move || {
        I18n::provide(Some("en"), HashMap::new());
        view! {
            <div class="chat-root">
                <Styles/>
                <Markdown text="# One"/>
                <Markdown text="# Two"/>
            </div>
        }
    });
    let h3 = wait_for(&root, "h3").await;
    let chat = query(&root, ".chat-root").expect("the chat root");
    let px = |el: &web_sys::HtmlElement| -> f64 {
        computed_style(el, "font-size")
            .trim_end_matches("px")
            .parse()
            .unwrap_or(0.0)
    };
    wait_until("Markdown's rules apply", &root, || px(&h3) > px(&chat)).await;
    let style = query(&root, "style[data-agent-chat-ui]")
        .and_then(|s| s.text_content())
        .expect("the chat's stylesheet");
    assert_eq!(style.matches(".chat-markdown h3").count(), 1, "added once");
    assert!(style.contains(CHAT_CSS));
    assert!(!style.contains(CARDS_CSS));
    assert!(
        (px(&h3) - px(&chat) * 1.3).abs() < 0.5,
        "h3 {}px in a {}px chat",
        px(&h3),
        px(&chat)
    );
}
