//! Browser tests of message-level parity (issue 8): `ChatMessage` (Markdown, content parts F75,
//! tool steps F78, sources F77 with the D32 link rule), `MessageActions` (F119–F123) and
//! `ToolCalls` / `ToolCall` (F111–F118), in headless Chromium over a detached store.
#![cfg(target_arch = "wasm32")]

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use agent_chat_ui::core::{Message, Session, SessionConfig};
use agent_chat_ui::store::{ChatCallbacks, ChatStore};
use agent_chat_ui::ui::cards::ChatActions;
use agent_chat_ui::ui::i18n::I18n;
use agent_chat_ui::ui::message::ChatMessage;
use agent_chat_ui::ui::style::Styles;
use agent_chat_ui::ui::tool_call::{ToolCallView, ToolCalls};
use agent_chat_ui::ui::{Feedback, MessageActions, ToolCall};
use leptos::prelude::*;
use serde_json::{json, Value};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

use crate::web;
use web::{computed_style, query, section, wait_for, wait_until};

/// Mounts `view` inside a styled chat root with a detached store; returns the mount point.
fn mount<V: IntoView + 'static>(
    view: impl FnOnce() -> V + 'static,
) -> (web_sys::HtmlElement, impl Drop) {
    let root = section();
    let handle = mount_to(root.clone(), move || {
        I18n::provide(Some("en"), HashMap::new());
        let _store = ChatStore::detached(
            Session::new(SessionConfig::default()),
            ChatCallbacks::default(),
        );
        provide_context(ChatActions::default());
        view! { <div class="chat-root"><Styles/>{view()}</div> }
    });
    (root, handle)
}

fn message(v: Value) -> Message {
    serde_json::from_value(v).expect("a message")
}

fn all(root: &web_sys::HtmlElement, sel: &str) -> Vec<web_sys::HtmlElement> {
    let list = root.query_selector_all(sel).unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i))
        .map(|n| n.unchecked_into())
        .collect()
}

/// Elements matching `sel` that are not hidden (by themselves or an ancestor).
fn visible(root: &web_sys::HtmlElement, sel: &str) -> usize {
    all(root, sel)
        .iter()
        .filter(|e| e.closest("[hidden]").unwrap().is_none())
        .count()
}

fn text(el: &web_sys::HtmlElement) -> String {
    el.text_content().unwrap_or_default()
}

fn seven_sources() -> Value {
    json!([
        { "id": "c1", "title": "The Rust Book", "link": "https://doc.rust-lang.org/book/",
          "description": "The official book." },
        { "id": "c2", "link": "https://example.com/untitled" },
        { "id": "c3", "title": "Sneaky", "link": "javascript:alert(1)" },
        { "id": "c4", "title": "Relative", "link": "/local/path" },
        { "id": "c5", "title": "Pictured", "image": "https://example.com/pic.png" },
        { "id": "c6", "title": "Sixth", "link": "http://example.org/6" },
        { "id": "c7", "title": "Seventh" }
    ])
}

#[wasm_bindgen_test]
async fn f75_f78_parts_are_concatenated_markdown_with_tool_steps_above() {
    let m = message(json!({
        "id": "msg_1", "role": "assistant",
        "content": [
            { "type": "text", "text": "**Bold** start, " },
            { "type": "image_url", "image_url": { "url": "https://example.com/x.png" } },
            { "type": "text", "text": "and the end." }
        ],
        "metadata": {
            "toolCallDetails": [
                { "id": "a", "name": "web_search", "args": { "q": "rust" }, "result": { "hits": 3 },
                  "reasoning": "Looking for the docs" },
                { "id": "b", "name": "fetchPage", "args": {}, "displayName": "Reading the page" },
                { "id": "c", "name": "count_words", "args": { "text": "hi" }, "result": { "words": 1 } }
            ],
            "toolCallDurationSeconds": 4
        }
    }));
    let (root, _h) = mount(move || view! { <ChatMessage message=m/> });
    let content = wait_for(&root, ".chat-message__content--markdown").await;
    assert_eq!(text(&content).trim(), "Bold start, and the end.");
    assert_eq!(text(&query(&content, "strong").unwrap()), "Bold");
    // F78: the steps come before the text.
    let body = query(&root, ".chat-message__body").unwrap();
    let steps = query(&body, ".chat-tool-calls").expect("tool steps");
    assert_eq!(
        steps.get_attribute("data-state").as_deref(),
        Some("completed")
    );
    let position = steps.compare_document_position(&content);
    assert!(position & web_sys::Node::DOCUMENT_POSITION_FOLLOWING != 0);
    // F116: the latest call on top, its formatted name as the label (no reasoning given).
    let latest = query(&steps, ".chat-tool-calls__latest").unwrap();
    assert_eq!(
        text(&query(&latest, ".chat-tool-calls__label").unwrap()),
        "Count Words"
    );
    assert!(query(&latest, ".chat-tool-calls__name").is_none());
    // F113/F117: "2 previous steps · 4s", collapsed.
    let toggle = query(&steps, "button.chat-tool-calls__toggle").unwrap();
    assert_eq!(text(&toggle), "2 previous steps · 4s");
    assert_eq!(
        toggle.get_attribute("aria-expanded").as_deref(),
        Some("false")
    );
    assert_eq!(visible(&steps, ".chat-tool-calls__item"), 0);
    toggle.click();
    wait_until("older steps open", &root, || {
        visible(&steps, ".chat-tool-calls__item") == 2
    })
    .await;
    assert_eq!(
        toggle.get_attribute("aria-expanded").as_deref(),
        Some("true")
    );
    let items = all(&steps, ".chat-tool-calls__item");
    // Reasoning wins, then the display name; the formatted name is the subtitle.
    assert_eq!(
        text(&query(&items[0], ".chat-tool-calls__label").unwrap()),
        "Looking for the docs"
    );
    assert_eq!(
        text(&query(&items[0], ".chat-tool-calls__name").unwrap()),
        "Web Search"
    );
    assert_eq!(
        text(&query(&items[1], ".chat-tool-calls__label").unwrap()),
        "Reading the page"
    );
    assert_eq!(
        text(&query(&items[1], ".chat-tool-calls__name").unwrap()),
        "Fetch Page"
    );
    toggle.click();
    wait_until("older steps closed", &root, || {
        visible(&steps, ".chat-tool-calls__item") == 0
    })
    .await;
}

#[wasm_bindgen_test]
async fn f77_seven_sources_show_five_then_all_then_five_and_only_web_links_are_links() {
    let m = message(json!({
        "id": "msg_2", "role": "assistant", "content": "See the sources.",
        "citations": seven_sources()
    }));
    let (root, _h) = mount(move || view! { <ChatMessage message=m/> });
    let block = wait_for(&root, "section.chat-citations").await;
    assert_eq!(
        text(&query(&block, ".chat-citations__title").unwrap()),
        "Sources"
    );
    assert_eq!(visible(&block, "li.chat-citation"), 5);
    let toggle = query(&block, "button.chat-citations__toggle").unwrap();
    assert_eq!(text(&toggle), "Show All (7)");
    assert_eq!(
        toggle.get_attribute("aria-expanded").as_deref(),
        Some("false")
    );
    toggle.click();
    wait_until("all seven shown", &root, || {
        visible(&block, "li.chat-citation") == 7
    })
    .await;
    assert_eq!(text(&toggle), "Show Less");
    toggle.click();
    wait_until("back to five", &root, || {
        visible(&block, "li.chat-citation") == 5
    })
    .await;
    assert_eq!(text(&toggle), "Show All (7)");

    let items = all(&block, "li.chat-citation");
    // A linked title opens in a new tab without opener or referrer.
    let first = query(&items[0], "a.chat-citation__title").expect("linked");
    assert_eq!(
        first.get_attribute("href").as_deref(),
        Some("https://doc.rust-lang.org/book/")
    );
    assert_eq!(first.get_attribute("target").as_deref(), Some("_blank"));
    assert_eq!(
        first.get_attribute("rel").as_deref(),
        Some("noopener noreferrer")
    );
    assert_eq!(text(&first), "The Rust Book");
    assert_eq!(
        text(&query(&items[0], ".chat-citation__description").unwrap()),
        "The official book."
    );
    // No title: "Source {index}" (1-based).
    assert_eq!(
        text(&query(&items[1], ".chat-citation__title").unwrap()),
        "Source 2"
    );
    // D32: javascript: and relative addresses are not links.
    for i in [2, 3] {
        assert!(query(&items[i], "a").is_none(), "item {i} must not link");
        assert_eq!(
            query(&items[i], ".chat-citation__title")
                .unwrap()
                .tag_name(),
            "SPAN"
        );
    }
    assert!(root.inner_html().find("javascript:").is_none());
    // D32: the image is offered as a link and never loaded.
    assert!(query(&root, "img").is_none());
    let image = query(&items[4], "a.chat-citation__image").expect("image link");
    assert_eq!(
        image.get_attribute("href").as_deref(),
        Some("https://example.com/pic.png")
    );
    assert_eq!(text(&image), "Image: Pictured");
}

#[wasm_bindgen_test]
async fn f73_sources_can_be_turned_off_and_never_show_under_the_persons_message() {
    let m = message(json!({
        "id": "msg_3", "role": "assistant", "content": "Reply", "citations": seven_sources()
    }));
    let u = message(json!({
        "id": "msg_4", "role": "user", "content": "Question", "citations": seven_sources()
    }));
    let (root, _h) = mount(move || {
        view! {
            <ChatMessage message=m enable_citations=false/>
            <ChatMessage message=u/>
        }
    });
    wait_for(&root, "[data-message-id=msg_4]").await;
    assert!(query(&root, ".chat-citations").is_none());
}

#[wasm_bindgen_test]
async fn f120_copy_writes_the_text_parts_and_reads_copied_until_a_two_second_timer() {
    js_sys::eval(
        "Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { \
           writeText: function (t) { window.__actions_copied = t; return Promise.resolve(); } } });",
    )
    .unwrap();
    let m = message(json!({
        "id": "msg_5", "role": "assistant",
        "content": [{ "type": "text", "text": "Part one, " }, { "type": "text", "text": "part two." }]
    }));
    let copied = Arc::new(Mutex::new(Vec::<String>::new()));
    let seen = copied.clone();
    let (root, _h) = mount(move || {
        view! {
            <MessageActions
                message=m
                on_copy=move |t: String| seen.lock().unwrap().push(t)
            />
        }
    });
    let button = wait_for(&root, "button[data-action=copy]").await;
    assert_eq!(button.get_attribute("aria-label").as_deref(), Some("Copy"));
    assert_eq!(button.get_attribute("title").as_deref(), Some("Copy"));
    // The timers the page starts from here on, by delay (recorded, then run as usual).
    js_sys::eval(
        "window.__timeouts = []; window.__origSetTimeout = window.setTimeout;
         window.setTimeout = function (f, ms) {
           window.__timeouts.push(ms);
           return window.__origSetTimeout.apply(window, arguments);
         };",
    )
    .unwrap();
    button.click();
    wait_until("copied", &root, || {
        button.get_attribute("data-state").as_deref() == Some("copied")
    })
    .await;
    let delays = js_sys::eval("window.__timeouts.slice()").unwrap();
    js_sys::eval("window.setTimeout = window.__origSetTimeout;").unwrap();
    assert_eq!(
        button.get_attribute("aria-label").as_deref(),
        Some("Copied!")
    );
    assert_eq!(button.get_attribute("title").as_deref(), Some("Copied!"));
    let written = js_sys::eval("window.__actions_copied").unwrap();
    assert_eq!(written.as_string().as_deref(), Some("Part one, part two."));
    assert_eq!(
        *copied.lock().unwrap(),
        vec!["Part one, part two.".to_owned()]
    );
    let status = query(&root, ".chat-message-actions [role=status]").unwrap();
    assert_eq!(text(&status), "Copied!");
    // Back to "Copy" by a two-second timer started with the copy (its delay read, not timed).
    let delays: Vec<f64> = js_sys::Array::from(&delays)
        .iter()
        .filter_map(|d| d.as_f64())
        .collect();
    assert!(
        delays.contains(&2000.0),
        "no two-second timer started with the copy: {delays:?}"
    );
    wait_until("idle again", &root, || {
        button.get_attribute("data-state").as_deref() == Some("idle")
    })
    .await;
    assert_eq!(button.get_attribute("aria-label").as_deref(), Some("Copy"));
}

#[wasm_bindgen_test]
async fn f120_a_refused_clipboard_reads_failed_to_copy() {
    js_sys::eval(
        "Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { \
           writeText: function () { return Promise.reject(new Error('denied')); } } });",
    )
    .unwrap();
    let m = message(json!({ "id": "msg_6", "role": "assistant", "content": "x" }));
    let copied = Arc::new(Mutex::new(0));
    let seen = copied.clone();
    let (root, _h) = mount(move || {
        view! { <MessageActions message=m on_copy=move |_t: String| *seen.lock().unwrap() += 1/> }
    });
    let button = wait_for(&root, "button[data-action=copy]").await;
    button.click();
    wait_until("failed", &root, || {
        button.get_attribute("data-state").as_deref() == Some("failed")
    })
    .await;
    assert_eq!(
        button.get_attribute("aria-label").as_deref(),
        Some("Failed to copy")
    );
    assert_eq!(*copied.lock().unwrap(), 0, "on_copy only after a copy");
}

#[wasm_bindgen_test]
async fn f121_f122_feedback_stays_pressed_and_regenerate_needs_a_callback() {
    let m = message(json!({ "id": "msg_7", "role": "assistant", "content": "x" }));
    let m2 = m.clone();
    let events = Arc::new(Mutex::new(Vec::<String>::new()));
    let (fb, rg) = (events.clone(), events.clone());
    let (root, _h) = mount(move || {
        view! {
            <div id="with">
                <MessageActions
                    message=m
                    on_feedback=move |(id, kind): (String, Feedback)| fb.lock().unwrap().push(format!("{id}:{}", kind.as_str()))
                    on_regenerate=move |id: String| rg.lock().unwrap().push(format!("regenerate:{id}"))
                    class="host-class"
                />
            </div>
            <div id="without"><MessageActions message=m2/></div>
        }
    });
    let with = wait_for(&root, "#with .chat-message-actions.host-class").await;
    let without = wait_for(&root, "#without .chat-message-actions").await;
    // F121: Regenerate only when a callback was given.
    assert!(query(&without, "[data-action=regenerate]").is_none());
    let regenerate = query(&with, "button[data-action=regenerate]").unwrap();
    assert_eq!(
        regenerate.get_attribute("aria-label").as_deref(),
        Some("Regenerate")
    );
    regenerate.click();
    let up = query(&with, "button[data-action=positive]").unwrap();
    let down = query(&with, "button[data-action=negative]").unwrap();
    assert_eq!(
        up.get_attribute("aria-label").as_deref(),
        Some("Good response")
    );
    assert_eq!(
        down.get_attribute("aria-label").as_deref(),
        Some("Bad response")
    );
    assert_eq!(up.get_attribute("aria-pressed").as_deref(), Some("false"));
    up.click();
    wait_until("up pressed", &root, || {
        up.get_attribute("aria-pressed").as_deref() == Some("true")
    })
    .await;
    assert_eq!(down.get_attribute("aria-pressed").as_deref(), Some("false"));
    down.click();
    wait_until("down pressed", &root, || {
        down.get_attribute("aria-pressed").as_deref() == Some("true")
    })
    .await;
    assert_eq!(up.get_attribute("aria-pressed").as_deref(), Some("false"));
    assert_eq!(
        *events.lock().unwrap(),
        vec![
            "regenerate:msg_7".to_owned(),
            "msg_7:positive".to_owned(),
            "msg_7:negative".to_owned()
        ]
    );
}

#[wasm_bindgen_test]
async fn f119_hidden_while_streaming_and_for_other_roles_and_switches_honoured() {
    let m = message(json!({ "id": "msg_8", "role": "assistant", "content": "x" }));
    let m2 = m.clone();
    let u = message(json!({ "id": "msg_9", "role": "user", "content": "x" }));
    let streaming = RwSignal::new(true);
    let (root, _h) = mount(move || {
        view! {
            <div id="streaming"><MessageActions message=m is_streaming=streaming/></div>
            <div id="user"><MessageActions message=u/></div>
            <div id="bare"><MessageActions message=m2 show_copy=false show_feedback=false/></div>
        }
    });
    wait_for(&root, "#bare").await;
    leptos::task::tick().await;
    assert!(query(&root, "#streaming .chat-message-actions").is_none());
    assert!(query(&root, "#user .chat-message-actions").is_none());
    assert!(query(&root, "#bare button").is_none());
    streaming.set(false);
    wait_for(
        &root,
        "#streaming .chat-message-actions button[data-action=copy]",
    )
    .await;
}

#[wasm_bindgen_test]
async fn f118_a_single_tool_call_and_f111_f116_edge_cases() {
    let (root, _h) = mount(move || {
        view! {
            <div id="single">
                <ToolCall tool_name="getWeatherData" tool_call_id="call_1" args=json!({ "city": "Izmir" })
                    result=Some(json!({ "tempC": 24 })) class="mine"/>
            </div>
            <div id="running"><ToolCall tool_name="send_email" is_executing=true/></div>
            <div id="unknown"><ToolCalls tool_calls=vec![ToolCallView::default()]/></div>
            <div id="empty"><ToolCalls tool_calls=Vec::new()/></div>
        }
    });
    let single = wait_for(&root, "#single .chat-tool-calls.mine").await;
    assert_eq!(
        text(&query(&single, ".chat-tool-calls__label").unwrap()),
        "Get Weather Data"
    );
    assert!(query(&single, ".chat-tool-calls__toggle").is_none());
    assert!(query(&single, ".chat-spinner").is_none());
    // Arguments and result behind "View details".
    let details = query(&single, "details.chat-tool-call__details").unwrap();
    assert_eq!(text(&query(&details, "summary").unwrap()), "View details");
    assert!(text(&details).contains("\"city\": \"Izmir\""));
    assert!(text(&details).contains("\"tempC\": 24"));
    let running = query(&root, "#running .chat-tool-calls").unwrap();
    assert_eq!(
        running.get_attribute("data-state").as_deref(),
        Some("executing")
    );
    assert!(query(&running, ".chat-spinner").is_some());
    assert_eq!(
        text(&query(&running, ".chat-tool-calls__label").unwrap()),
        "Send Email"
    );
    assert_eq!(
        text(&query(&root, "#unknown .chat-tool-calls__label").unwrap()),
        "Unknown Tool"
    );
    assert_eq!(query(&root, "#empty").unwrap().child_element_count(), 0);
}

#[wasm_bindgen_test]
async fn f114_default_expanded_opens_older_steps_and_f113_no_duration_while_executing() {
    let calls = vec![
        ToolCallView {
            id: "1".into(),
            name: "first_step".into(),
            ..ToolCallView::default()
        },
        ToolCallView {
            id: "2".into(),
            name: "second_step".into(),
            ..ToolCallView::default()
        },
    ];
    let calls2 = calls.clone();
    let (root, _h) = mount(move || {
        view! {
            <div id="open"><ToolCalls tool_calls=calls default_expanded=true duration_seconds=Some(9)/></div>
            <div id="busy"><ToolCalls tool_calls=calls2 is_executing=true duration_seconds=Some(9)/></div>
        }
    });
    let open = wait_for(&root, "#open .chat-tool-calls").await;
    assert_eq!(visible(&open, ".chat-tool-calls__item"), 1);
    assert_eq!(
        text(&query(&open, ".chat-tool-calls__toggle").unwrap()),
        "1 previous step · 9s"
    );
    let busy = query(&root, "#busy .chat-tool-calls").unwrap();
    assert_eq!(
        text(&query(&busy, ".chat-tool-calls__toggle").unwrap()),
        "1 previous step"
    );
    assert_eq!(visible(&busy, ".chat-spinner"), 1);
}

#[wasm_bindgen_test]
async fn f172_utilities_and_f173_icons_take_a_class() {
    use agent_chat_ui::ui::icons::{CopyIcon, ThumbsUpIcon};
    assert_eq!(
        agent_chat_ui::cn(["chat-icon", "", "  big chat-icon ", "small"]),
        "chat-icon big small"
    );
    assert_eq!(agent_chat_ui::format_file_size(0), "0 Bytes");
    assert_eq!(agent_chat_ui::format_file_size(1536), "1.5 KB");
    assert_eq!(agent_chat_ui::format_file_size(10 * 1024 * 1024), "10 MB");
    assert_eq!(
        agent_chat_ui::format_file_size(1024 * 1024 * 1024 + 256 * 1024 * 1024),
        "1.25 GB"
    );
    let (a, b) = (agent_chat_ui::generate_id(), agent_chat_ui::generate_id());
    assert_ne!(a, b);
    assert!(
        a.len() >= 9
            && a.chars()
                .all(|c| c.is_ascii_digit() || c.is_ascii_lowercase())
    );
    let (root, _h) = mount(move || {
        view! { <CopyIcon class="mine"/><ThumbsUpIcon/> }
    });
    let svg = wait_for(&root, "svg.chat-icon.mine").await;
    assert_eq!(svg.get_attribute("aria-hidden").as_deref(), Some("true"));
    assert_eq!(all(&root, "svg.chat-icon").len(), 2);
}

/// D44: tool step labels come from the server (reasoning, display name, tool name), so they
/// carry `dir="auto"`: Arabic reasoning reads right to left in an English chat, the tool name
/// under it left to right, in the latest step and in the older steps alike.
#[wasm_bindgen_test]
async fn d44_tool_step_labels_are_dir_auto_so_arabic_reasoning_reads_rtl() {
    let step = |id: &str, reasoning: &str| ToolCallView {
        id: id.to_owned(),
        name: "search_web".to_owned(),
        reasoning: Some(reasoning.to_owned()),
        ..ToolCallView::default()
    };
    let calls = vec![step("c1", "أبحث في الويب"), step("c2", "أقرأ النتائج")];
    let (root, _h) = mount(move || view! { <ToolCalls tool_calls=calls default_expanded=true/> });
    wait_for(&root, ".chat-tool-calls__list .chat-tool-calls__label").await;
    let direction = |el: &web_sys::HtmlElement| computed_style(el, "direction");
    let labels = all(&root, ".chat-tool-calls__label");
    let names = all(&root, ".chat-tool-calls__name");
    assert_eq!(
        (labels.len(), names.len()),
        (2, 2),
        "latest and one older step"
    );
    for label in &labels {
        assert_eq!(label.get_attribute("dir").as_deref(), Some("auto"));
        assert_eq!(direction(label), "rtl", "{}", text(label));
    }
    for name in &names {
        assert_eq!(name.get_attribute("dir").as_deref(), Some("auto"));
        assert_eq!(text(name), "Search Web");
        assert_eq!(direction(name), "ltr");
    }
}

/// Issue 13: a session whose first turn ("hi") broke off mid-reply and whose look at the
/// conversation failed too, driven through the session's own inputs.
fn interrupted_session() -> Session {
    use agent_chat_ui::core::{Command, HttpResponse, Input, Millis, Output, TransportError};
    fn answer(
        s: &mut Session,
        open: &mut Vec<agent_chat_ui::core::HttpRequest>,
        path: &str,
        result: Result<&str, ()>,
    ) {
        let pos = open
            .iter()
            .position(|r| r.path.starts_with(path))
            .expect(path);
        let req = open.remove(pos);
        let result = match result {
            Ok(body) => Ok(HttpResponse::new(200, body)),
            Err(()) => Err(TransportError::Network("Failed to fetch".into())),
        };
        s.handle(Millis(1_000), Input::Response { id: req.id, result });
        drain(s, open);
    }
    fn drain(s: &mut Session, open: &mut Vec<agent_chat_ui::core::HttpRequest>) {
        while let Some(out) = s.poll_output() {
            if let Output::Send(r) | Output::OpenStream(r) = out {
                open.push(r.http());
            }
        }
    }
    let mut s = Session::new(SessionConfig::default());
    let mut open = Vec::new();
    s.handle(Millis(1_000), Input::User(Command::Start));
    drain(&mut s, &mut open);
    answer(
        &mut s,
        &mut open,
        "/agents",
        Ok(r#"{"agents":[{"id":"echo","name":"Echo"}]}"#),
    );
    answer(
        &mut s,
        &mut open,
        "/conversations?",
        Ok(r#"{"conversations":[],"hasMore":false}"#),
    );
    s.handle(Millis(1_000), Input::User(Command::Send("hi".into())));
    drain(&mut s, &mut open);
    answer(
        &mut s,
        &mut open,
        "/conversations",
        Ok(r#"{"conversation":{"id":"conv_1","agentId":"echo"}}"#),
    );
    let stream = open
        .iter()
        .position(|r| r.path == "/conversations/conv_1/messages")
        .expect("stream");
    let stream = open.remove(stream).id;
    s.handle(
        Millis(1_000),
        Input::StreamChunk {
            id: stream,
            bytes: b"data: {\"type\":\"stream.text\",\"text\":\"You said\"}\n\n".to_vec(),
        },
    );
    s.handle(
        Millis(1_000),
        Input::StreamClosed {
            id: stream,
            error: Some(TransportError::Network("connection reset".into())),
        },
    );
    drain(&mut s, &mut open);
    answer(&mut s, &mut open, "/conversations/conv_1", Err(()));
    assert!(
        s.messages().iter().all(|m| m.interrupted),
        "{:?}",
        s.messages()
    );
    s
}

#[wasm_bindgen_test]
async fn i13_an_interrupted_turn_is_marked_and_retry_sends_it_again() {
    use agent_chat_ui::ui::message_list::ChatMessageList;
    let root = section();
    let store = StoredValue::new_local(None::<ChatStore>);
    let _h = mount_to(root.clone(), move || {
        I18n::provide(Some("en"), HashMap::new());
        let s = ChatStore::detached(interrupted_session(), ChatCallbacks::default());
        store.set_value(Some(s));
        provide_context(ChatActions::default());
        view! { <div class="chat-root"><Styles/><ChatMessageList/></div> }
    });
    wait_for(&root, "article[data-state=interrupted]").await;
    let rows = all(&root, "article[data-state=interrupted]");
    assert_eq!(rows.len(), 2, "the sent message and the partial reply");
    for row in &rows {
        let marker = query(row, ".chat-message__interrupted").expect("marker");
        assert!(text(&marker).contains("Interrupted"), "{}", text(&marker));
    }
    // One Retry, under the last row, a real button that can be pressed now.
    let buttons = all(&root, "button.chat-message__retry");
    assert_eq!(buttons.len(), 1);
    assert!(rows[1].contains(Some(&buttons[0])));
    assert_eq!(text(&buttons[0]), "Retry");
    assert!(!buttons[0]
        .unchecked_ref::<web_sys::HtmlButtonElement>()
        .disabled());
    let store = store.get_value().expect("mounted");
    store.take_requests();
    buttons[0].click();
    wait_until("the interrupted rows are replaced", &root, || {
        all(&root, "article[data-state=interrupted]").is_empty()
    })
    .await;
    let sent = store.take_requests();
    assert!(
        sent.iter()
            .any(|r| r.path == "/conversations/conv_1/messages"
                && r.body
                    .as_deref()
                    .unwrap_or_default()
                    .contains(r#""message":"hi""#)),
        "{sent:?}"
    );
    let users = all(&root, "article[data-role=user]");
    assert_eq!(users.len(), 1, "sent again in place of the interrupted one");
    assert!(text(&users[0]).contains("hi"));
}
