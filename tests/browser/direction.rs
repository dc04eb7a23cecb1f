//! D46 in headless Chromium with the real stylesheet: each line of a person's own message reads
//! in the direction of its own first letter (and is aligned on that side of the bubble) while
//! the text stays exactly as typed; an assistant reply's Markdown wrapper has no direction of
//! its own (it follows the layout), and a block without a letter reads like the block before,
//! stored and streaming alike.
#![cfg(target_arch = "wasm32")]

use std::collections::HashMap;

use agent_chat_ui::core::{Input, Message, Session, SessionConfig};
use agent_chat_ui::store::{ChatCallbacks, ChatStore};
use agent_chat_ui::ui::cards::ChatActions;
use agent_chat_ui::ui::i18n::I18n;
use agent_chat_ui::ui::markdown::Markdown;
use agent_chat_ui::ui::message::ChatMessage;
use agent_chat_ui::ui::style::Styles;
use leptos::prelude::*;
use serde_json::json;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

use crate::web;
use web::{computed_style, list_with_a_turn, next_frame, query, section, wait_for};

/// Mounts `view` in a styled chat root laid out in `layout` (`ltr` or `rtl`, as `<Chat/>` sets
/// it from the locale) over a detached store.
fn mount<V: IntoView + 'static>(
    layout: &'static str,
    view: impl FnOnce() -> V + 'static,
) -> (web_sys::HtmlElement, impl Drop) {
    let root = section();
    root.style().set_property("width", "760px").unwrap();
    let handle = mount_to(root.clone(), move || {
        I18n::provide(
            Some(if layout == "rtl" { "ar" } else { "en" }),
            HashMap::new(),
        );
        let _store = ChatStore::detached(
            Session::new(SessionConfig::default()),
            ChatCallbacks::default(),
        );
        provide_context(ChatActions::default());
        view! { <div class="chat-root" dir=layout><Styles/>{view()}</div> }
    });
    (root, handle)
}

fn message(role: &str, content: &str) -> Message {
    serde_json::from_value(json!({ "id": "m_1", "role": role, "content": content }))
        .expect("a message")
}

fn all(root: &web_sys::Element, sel: &str) -> Vec<web_sys::HtmlElement> {
    let list = root.query_selector_all(sel).unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i))
        .map(|n| n.unchecked_into())
        .collect()
}

/// Runs `body` as a JS function of `el`.
fn js(el: &web_sys::Element, body: &str) -> JsValue {
    js_sys::Function::new_with_args("el", body)
        .call1(&JsValue::NULL, el)
        .unwrap()
}

/// What selecting all of `el` and copying it gives (the selection's text).
fn selected_text(el: &web_sys::Element) -> String {
    js(
        el,
        "const r = document.createRange(); r.selectNodeContents(el);
         const s = getSelection(); s.removeAllRanges(); s.addRange(r);
         const t = s.toString(); s.removeAllRanges(); return t;",
    )
    .as_string()
    .unwrap()
}

/// Left and right edges of the text inside `el` (not of its box).
fn text_edges(el: &web_sys::Element) -> (f64, f64) {
    let v = js(
        el,
        "const r = document.createRange(); r.selectNodeContents(el);
         const b = r.getBoundingClientRect(); return [b.left, b.right];",
    );
    let a: js_sys::Array = v.unchecked_into();
    (a.get(0).as_f64().unwrap(), a.get(1).as_f64().unwrap())
}

fn px(el: &web_sys::Element, prop: &str) -> f64 {
    computed_style(el, prop)
        .trim_end_matches("px")
        .parse()
        .unwrap()
}

/// Mounts the person's message `text` in `layout` and checks it: the runs of lines carry
/// `expected` (each run's text and direction, attribute and computed), the content is the
/// text exactly (text content and a copied selection), `short` (the run whose lines are all
/// shorter than the widest line) hugs its own side of the bubble, and the bubble is as tall as
/// one block of the whole text.
async fn check_person(layout: &'static str, text: &'static str, expected: &[(&str, &str)]) {
    let (root, _h) = mount(layout, move || {
        view! { <ChatMessage message=message("user", text)/> }
    });
    let content = wait_for(&root, "[data-role=user] .chat-message__content").await;
    let runs = all(&content, ".chat-message__lines");
    let got: Vec<(String, String, Option<String>)> = runs
        .iter()
        .map(|r| {
            (
                r.text_content().unwrap(),
                computed_style(r, "direction"),
                r.get_attribute("dir"),
            )
        })
        .collect();
    let want: Vec<(String, String, Option<String>)> = expected
        .iter()
        .map(|(t, d)| (t.to_string(), d.to_string(), Some(d.to_string())))
        .collect();
    assert_eq!(got, want, "{layout}");
    // Every line, looked up by its text, reads in its run's direction.
    for line in text.split('\n').filter(|l| !l.trim().is_empty()) {
        let run = runs
            .iter()
            .find(|r| r.text_content().unwrap().split('\n').any(|l| l == line))
            .unwrap_or_else(|| panic!("{line:?} is in a run"));
        let first = agent_chat_ui::core::markdown::first_strong(line);
        if let Some(d) = first {
            assert_eq!(computed_style(run, "direction"), d.as_str(), "{line:?}");
        }
    }
    // Exactly as typed: spaces, empty lines, markup.
    assert_eq!(content.text_content().unwrap(), text, "{layout}");
    // Copying gives the lines with their newlines; Chromium leaves out a last newline (it
    // draws nothing), as it does for one block of the whole text (checked below).
    assert_eq!(
        selected_text(&content),
        text.strip_suffix('\n').unwrap_or(text),
        "{layout}: copying the bubble"
    );
    assert!(
        query(&content, "img, b, script").is_none(),
        "nothing is read as HTML"
    );
    // Alignment: the short run sits on its own side of the bubble, not across it.
    let bubble = content.get_bounding_client_rect();
    let (start, end) = (
        bubble.left() + px(&content, "padding-left"),
        bubble.right() - px(&content, "padding-right"),
    );
    for run in &runs {
        let (left, right) = text_edges(run);
        let rtl = computed_style(run, "direction") == "rtl";
        if rtl {
            assert!(
                (right - end).abs() < 1.5,
                "{layout}: rtl run ends {right} vs {end}"
            );
        } else {
            assert!(
                (left - start).abs() < 1.5,
                "{layout}: ltr run starts {left} vs {start}"
            );
        }
    }
    let short = runs
        .iter()
        .min_by(|a, b| {
            let w = |r: &web_sys::HtmlElement| {
                let (l, r) = text_edges(r);
                r - l
            };
            w(a).total_cmp(&w(b))
        })
        .unwrap();
    let (left, right) = text_edges(short);
    if computed_style(short, "direction") == "rtl" {
        assert!(
            left > start + 20.0,
            "{layout}: the short rtl run hugs the right"
        );
    } else {
        assert!(
            right < end - 20.0,
            "{layout}: the short ltr run hugs the left"
        );
    }
    // The runs draw the lines one block of the whole text would (no lost or extra empty line).
    let reference = web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .create_element("div")
        .unwrap();
    reference.set_class_name("chat-message__content");
    reference.set_text_content(Some(text));
    reference
        .set_attribute("style", &format!("width:{}px", bubble.width()))
        .unwrap();
    query(&root, ".chat-root")
        .unwrap()
        .append_child(&reference)
        .unwrap();
    let reference_height = reference.get_bounding_client_rect().height();
    assert_eq!(
        selected_text(&content),
        selected_text(&reference),
        "{layout}: copies as one block"
    );
    assert!(
        (bubble.height() - reference_height).abs() < 0.5,
        "{layout}: bubble {} vs one block {reference_height}",
        bubble.height()
    );
}

/// D46: English lines, then Arabic ones: each line reads in its own first letter's direction
/// (lines without a letter with the line before), in the English and the Arabic layout, and
/// the text is kept exactly as typed.
#[wasm_bindgen_test]
async fn d46_a_persons_english_then_arabic_lines_each_read_their_own_way() {
    let text = "Hello there, how are you doing today?\n  indented, <img src=x onerror=alert(1)>\n\n42\nمرحبا\n\n  كيف حالك؟\n";
    let expected = [
        (
            "Hello there, how are you doing today?\n  indented, <img src=x onerror=alert(1)>\n\n42\n",
            "ltr",
        ),
        ("مرحبا\n\n  كيف حالك؟\n", "rtl"),
    ];
    check_person("ltr", text, &expected).await;
    check_person("rtl", text, &expected).await;
}

/// D46: the reverse: Arabic lines, then English ones, in both layouts; a leading line without a
/// letter reads like the first letter.
#[wasm_bindgen_test]
async fn d46_a_persons_arabic_then_english_lines_each_read_their_own_way() {
    let text = "1)\nمرحبا بك يا صديقي، كيف حالك اليوم؟\nأنا بخير\n\nFine\n  *not bold*";
    let expected = [
        (
            "1)\nمرحبا بك يا صديقي، كيف حالك اليوم؟\nأنا بخير\n\n",
            "rtl",
        ),
        ("Fine\n  *not bold*", "ltr"),
    ];
    check_person("ltr", text, &expected).await;
    check_person("rtl", text, &expected).await;
}

/// D46: a message in one direction is one run; one without a letter follows the layout.
#[wasm_bindgen_test]
async fn d46_one_direction_is_one_run_and_no_letter_follows_the_layout() {
    for (layout, text, dir) in [
        ("rtl", "Just English\nstill English", Some("ltr")),
        ("ltr", "123\n\n!?", None),
        ("rtl", "123\n\n!?", None),
    ] {
        let (root, _h) = mount(layout, move || {
            view! { <ChatMessage message=message("user", text)/> }
        });
        let content = wait_for(&root, "[data-role=user] .chat-message__content").await;
        let runs = all(&content, ".chat-message__lines");
        assert_eq!(runs.len(), 1, "{text:?}");
        assert_eq!(runs[0].get_attribute("dir").as_deref(), dir, "{text:?}");
        assert_eq!(
            content.get_attribute("dir"),
            None,
            "the bubble itself has none"
        );
        assert_eq!(
            computed_style(&runs[0], "direction"),
            dir.unwrap_or(layout),
            "{text:?} in {layout}"
        );
        assert_eq!(content.text_content().unwrap(), text);
    }
}

/// D46: an assistant reply's Markdown wrapper has no `dir`: it follows the layout, so in the
/// Arabic layout a code block's header (language, Copy) is laid out right to left, padded
/// on its own start, while its code stays left to right; the paragraphs keep their own directions and "42" after the code
/// reads like the English paragraph before it.
#[wasm_bindgen_test]
async fn d46_the_markdown_wrapper_follows_the_layout() {
    let text = "Here is the code:\n\n```rust\nlet x = 1;\n```\n\n42\n\nمرحبا";
    for layout in ["ltr", "rtl"] {
        let (root, _h) = mount(layout, move || {
            view! { <ChatMessage message=message("assistant", text)/> }
        });
        let wrapper = wait_for(&root, ".chat-message__content--markdown").await;
        assert_eq!(wrapper.get_attribute("dir"), None);
        assert_eq!(computed_style(&wrapper, "direction"), layout);
        let md = query(&wrapper, ".chat-markdown").unwrap();
        assert_eq!(computed_style(&md, "direction"), layout);
        let bar = query(&md, ".chat-markdown__code-bar").unwrap();
        assert_eq!(computed_style(&bar, "direction"), layout, "code header");
        // Its padding is logical: the wider side is at the language's end (the start).
        let (start, end) = if layout == "rtl" {
            ("padding-right", "padding-left")
        } else {
            ("padding-left", "padding-right")
        };
        assert_eq!(
            (computed_style(&bar, start), computed_style(&bar, end)),
            ("12px".to_owned(), "4px".to_owned()),
            "{layout}"
        );
        assert_eq!(
            computed_style(&query(&md, "pre").unwrap(), "direction"),
            "ltr"
        );
        let paragraphs: Vec<(Option<String>, String)> = all(&md, ":scope > p")
            .iter()
            .map(|p| (p.get_attribute("dir"), computed_style(p, "direction")))
            .collect();
        let both = |d: &str| (Some(d.to_owned()), d.to_owned());
        assert_eq!(
            paragraphs,
            [both("ltr"), both("ltr"), both("rtl")],
            "{layout}"
        );
    }
}

/// D46: blocks before the first letter follow the layout; after it, a block without a letter
/// reads like the block before (the Arabic one here).
#[wasm_bindgen_test]
async fn d46_markdown_blocks_without_a_letter_follow_the_block_before() {
    let (root, _h) = mount(
        "ltr",
        || view! { <Markdown text="100\n\nمرحبا\n\n---\n\n42 🙂"/> },
    );
    let md = wait_for(&root, ".chat-markdown").await;
    let paragraphs: Vec<(Option<String>, String)> = all(&md, ":scope > p")
        .iter()
        .map(|p| (p.get_attribute("dir"), computed_style(p, "direction")))
        .collect();
    assert_eq!(
        paragraphs,
        [
            (None, "ltr".to_owned()),
            (Some("rtl".to_owned()), "rtl".to_owned()),
            (Some("rtl".to_owned()), "rtl".to_owned())
        ]
    );
}

/// D46 while streaming, in the Arabic layout: the streaming reply's wrapper has no `dir` either,
/// its blocks get the directions the stored reply's get (a block without a letter reads like
/// the block before, across a code block), frame by frame; and the person's own mixed message
/// above it is in runs.
#[wasm_bindgen_test]
async fn d46_streaming_markdown_takes_the_same_directions_as_the_stored_reply() {
    let root = section();
    root.set_attribute("dir", "rtl").unwrap();
    let (store, stream, _h) = list_with_a_turn(&root, "Hi\nمرحبا");
    let mine = wait_for(&root, "[data-role=user] .chat-message__content").await;
    let runs = all(&mine, ".chat-message__lines");
    let dirs: Vec<_> = runs.iter().map(|r| r.get_attribute("dir")).collect();
    assert_eq!(dirs, [Some("ltr".to_owned()), Some("rtl".to_owned())]);
    let feed = |sse: String| {
        store.feed(Input::StreamChunk {
            id: stream.id,
            bytes: sse.into_bytes(),
        })
    };
    feed("data: {\"type\":\"stream.start\",\"timestamp\":1,\"conversationId\":\"conv_1\",\"messageId\":\"m_u\"}\n\n".into());
    let whole = "7\n\nFirst, English.\n\n```\ncode\n```\n\n42\n\nثم عربي\n\n- 3\n- 4\n\n99";
    // Every block's `dir`, in order.
    let dirs = |md: &web_sys::Element| -> Vec<Option<String>> {
        all(md, ":scope > *")
            .iter()
            .map(|b| b.get_attribute("dir"))
            .collect()
    };
    let chunks: Vec<&str> = {
        let mut out = Vec::new();
        let mut rest = whole;
        while !rest.is_empty() {
            let mut cut = rest.len().min(5);
            while !rest.is_char_boundary(cut) {
                cut += 1;
            }
            out.push(&rest[..cut]);
            rest = &rest[cut..];
        }
        out
    };
    let mut sent = String::new();
    for chunk in chunks {
        sent.push_str(chunk);
        let event = json!({"type": "stream.text", "timestamp": 2, "text": chunk});
        feed(format!("data: {event}\n\n"));
        next_frame().await;
        leptos::task::tick().await;
        let streaming = wait_for(&root, "article[data-streaming=true]").await;
        let wrapper = query(&streaming, ".chat-message__content--markdown").unwrap();
        assert_eq!(wrapper.get_attribute("dir"), None);
        assert_eq!(computed_style(&wrapper, "direction"), "rtl");
        let md = query(&wrapper, ".chat-markdown").unwrap();
        // The stored reply of the text so far.
        let so_far = sent.clone();
        let reference = section();
        let _r = mount_to(reference.clone(), move || {
            I18n::provide(Some("en"), HashMap::new());
            view! { <Markdown text=so_far/> }
        });
        let stored = wait_for(&reference, ".chat-markdown").await;
        assert_eq!(dirs(&md), dirs(&stored), "after {sent:?}");
        reference.remove();
    }
    let md = query(&root, ".chat-markdown[data-streaming=true]").unwrap();
    let none = None;
    let ltr = Some("ltr".to_owned());
    let rtl = Some("rtl".to_owned());
    assert_eq!(
        dirs(&md),
        [
            none.clone(),
            ltr.clone(),
            none,
            ltr,
            rtl.clone(),
            rtl.clone(),
            rtl
        ],
        "7, English, code, 42, Arabic, list, 99"
    );
}
