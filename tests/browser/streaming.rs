//! Issue 8 / D42 in headless Chromium: a long answer streamed through a detached `ChatStore`
//! into `ChatMessageList`, one published frame at a time. A late frame touches only the last
//! blocks (a `MutationObserver` sees every change), its counted work (`streaming_work`) is what
//! an early frame's is, and the streamed DOM equals `<Markdown/>` of the whole text. No timers
//! are asserted: frames are awaited with `requestAnimationFrame`, work is counted.
#![cfg(target_arch = "wasm32")]

use std::collections::HashMap;

use agent_chat_ui::core::Input;
use agent_chat_ui::store::ChatStore;
use agent_chat_ui::ui::i18n::I18n;
use agent_chat_ui::ui::markdown::{streaming_work, Markdown, StreamingWork};
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

use crate::web;
use web::{list_with_a_turn, next_frame, query, section, wait_for, wait_until};

include!("../fixtures/markdown_pieces.rs");

fn call(obj: &JsValue, name: &str, args: &[&JsValue]) -> JsValue {
    let f: js_sys::Function = js_sys::Reflect::get(obj, &name.into())
        .unwrap()
        .unchecked_into();
    let args: js_sys::Array = args.iter().copied().collect();
    f.apply(obj, &args).unwrap()
}

fn get(obj: &JsValue, name: &str) -> JsValue {
    js_sys::Reflect::get(obj, &name.into()).unwrap()
}

fn nodes(list: JsValue) -> Vec<web_sys::Node> {
    let list: web_sys::NodeList = list.unchecked_into();
    (0..list.length()).filter_map(|i| list.item(i)).collect()
}

/// A `MutationObserver` that records everything under `target`.
fn observe(target: &web_sys::Node) -> JsValue {
    // Records are handed to the callback in a microtask; keep them for `take`.
    let observer = js_sys::eval(
        "(function () { var seen = []; var o = new MutationObserver(function (rs) { \
           for (var i = 0; i < rs.length; i++) seen.push(rs[i]); }); o.seen = seen; return o; })()",
    )
    .unwrap();
    let init = js_sys::Object::new();
    for key in ["childList", "subtree", "characterData", "attributes"] {
        js_sys::Reflect::set(&init, &key.into(), &true.into()).unwrap();
    }
    call(&observer, "observe", &[target, &init]);
    observer
}

/// One mutation: its target, and the nodes it added and removed.
struct Record {
    target: web_sys::Node,
    added: Vec<web_sys::Node>,
    removed: Vec<web_sys::Node>,
}

fn take(observer: &JsValue) -> Vec<Record> {
    let pending: js_sys::Array = call(observer, "takeRecords", &[]).unchecked_into();
    call(observer, "disconnect", &[]);
    let records: js_sys::Array = get(observer, "seen").unchecked_into();
    let records = records.concat(&pending);
    records
        .iter()
        .map(|r| Record {
            target: get(&r, "target").unchecked_into(),
            added: nodes(get(&r, "addedNodes")),
            removed: nodes(get(&r, "removedNodes")),
        })
        .collect()
}

fn children(el: &web_sys::HtmlElement) -> Vec<web_sys::Node> {
    let list = el.child_nodes();
    (0..list.length()).filter_map(|i| list.item(i)).collect()
}

fn published_len(store: &ChatStore) -> usize {
    store
        .streaming
        .with_untracked(|s| s.as_ref().map(|t| t.text.len()).unwrap_or(0))
}

#[wasm_bindgen_test]
async fn d42_a_late_frame_touches_only_the_last_blocks_and_costs_what_an_early_one_does() {
    let root = section();
    let (store, stream, _h) = list_with_a_turn(&root, "a long one, please");
    let feed = |sse: String| {
        store.feed(Input::StreamChunk {
            id: stream.id,
            bytes: sse.into_bytes(),
        })
    };
    feed("data: {\"type\":\"stream.start\",\"timestamp\":1,\"conversationId\":\"conv_1\",\"messageId\":\"m_u\"}\n\n".into());
    // A finished tool step above the text: text frames must leave it alone too.
    feed("data: {\"type\":\"stream.tool_call\",\"timestamp\":1,\"toolName\":\"web_search\",\"toolCallId\":\"call_1\",\"args\":{\"q\":\"rust\"}}\n\ndata: {\"type\":\"stream.tool_result\",\"timestamp\":1,\"toolName\":\"web_search\",\"toolCallId\":\"call_1\",\"result\":{\"hits\":3}}\n\n".into());

    let mut whole = String::new();
    for i in 0..200 {
        whole.push_str(PIECES[i % PIECES.len()]);
        whole.push_str("\n\n");
    }
    whole.push_str("The end.");
    // Deltas of 29 bytes, four per frame.
    let deltas: Vec<&str> = whole
        .as_bytes()
        .chunks(29)
        .map(|c| std::str::from_utf8(c).unwrap())
        .collect();
    let frames: Vec<&[&str]> = deltas.chunks(4).collect();
    let late_frame = frames.len() * 9 / 10;
    let mut work: Vec<StreamingWork> = Vec::new();
    let mut md: Option<web_sys::HtmlElement> = None;
    let mut late_checked = false;
    for (n, group) in frames.iter().enumerate() {
        let observed = (n == late_frame).then(|| {
            let md = md.clone().expect("the streaming Markdown is drawn");
            let before = children(&md);
            // The whole streaming row: tool steps, avatar and text.
            let row = query(&root, "article[data-streaming=true]").expect("streaming row");
            (observe(&row), before, md)
        });
        let len_before = published_len(&store);
        let counted = streaming_work();
        for delta in group.iter() {
            let event = serde_json::json!({"type": "stream.text", "timestamp": 2, "text": delta});
            feed(format!("data: {event}\n\n"));
        }
        next_frame().await;
        let done = streaming_work().since(counted);
        let len_after = published_len(&store);
        assert!(len_after > len_before, "frame {n} was published");
        if md.is_none() {
            md = query(&root, ".chat-markdown[data-streaming=true]");
        }
        if n > 0 {
            // Exactly one update per frame, fed exactly the new bytes, comparing none.
            assert_eq!(done.updates, 1, "frame {n}: {done:?}");
            assert_eq!(done.bytes_fed as usize, len_after - len_before, "frame {n}");
            assert_eq!(done.bytes_compared, 0, "frame {n}");
            work.push(done);
        }
        if let Some((observer, before, md)) = observed {
            let records = take(&observer);
            let after = children(&md);
            assert!(before.len() > 150, "{} blocks on screen", before.len());
            // All but the last three blocks (at most the open tail) are left alone, and so is
            // everything around the Markdown (the tool step above it).
            let settled = &before[..before.len() - 3];
            let open = &before[before.len() - 3..];
            for r in &records {
                let md_node: &web_sys::Node = &md;
                assert!(
                    r.target.is_same_node(Some(md_node))
                        || open.iter().any(|b| b.contains(Some(&r.target)))
                        || r.added.iter().any(|a| a.contains(Some(&r.target))),
                    "a late frame changed something else than the open blocks: {:?} {:?}",
                    r.target.node_name(),
                    r.target
                        .text_content()
                        .map(|t| t.chars().take(60).collect::<String>())
                );
                for gone in &r.removed {
                    assert!(
                        !settled.iter().any(|b| b.is_same_node(Some(gone))),
                        "a late frame removed an earlier block"
                    );
                }
            }
            assert!(!records.is_empty(), "the late frame drew something");
            assert!(
                records.iter().map(|r| r.added.len()).sum::<usize>() <= 4,
                "a late frame added more than the new and open blocks"
            );
            for (i, b) in settled.iter().enumerate() {
                assert!(
                    b.is_same_node(after.get(i)),
                    "block {i} moved or was redrawn"
                );
            }
            late_checked = true;
        }
    }
    assert!(late_checked);

    // A late frame does the work an early one does: no count grows with the answer.
    let max = |frames: &[StreamingWork], f: fn(&StreamingWork) -> u64| {
        frames.iter().map(f).max().unwrap_or(0)
    };
    let n = work.len();
    let (early, late) = (&work[..n / 5], &work[n - n / 5..]);
    assert!(max(late, |w| w.bytes_parsed) > 0 && max(late, |w| w.blocks_drawn) > 0);
    for (what, f) in [
        (
            "bytes parsed",
            (|w: &StreamingWork| w.bytes_parsed) as fn(&StreamingWork) -> u64,
        ),
        ("blocks visited", |w| w.blocks_visited),
        ("blocks drawn", |w| w.blocks_drawn),
        ("blocks removed", |w| w.blocks_removed),
    ] {
        let (e, l) = (max(early, f), max(late, f));
        assert!(
            l <= e + e / 4 + 2,
            "{what}: early frames at most {e}, late ones {l}"
        );
    }

    // What streamed is exactly the stored message's Markdown of the whole text.
    let md = md.expect("drawn");
    wait_until("the last words are drawn", &md, || {
        md.text_content().unwrap_or_default().ends_with("The end.")
    })
    .await;
    let stored = section();
    let text = whole.clone();
    let _h2 = mount_to(stored.clone(), move || {
        I18n::provide(Some("en"), HashMap::new());
        view! { <Markdown text=text.clone()/> }
    });
    let stored_md = wait_for(&stored, ".chat-markdown").await;
    let strip = |html: String| html.replace("<!---->", "");
    let streamed = strip(md.inner_html());
    assert_eq!(streamed, strip(stored_md.inner_html()));

    // The finished reply replaces the streaming row with the same blocks.
    let done = serde_json::json!({
        "type": "stream.done", "timestamp": 3, "conversationId": "conv_1", "messageId": "m_a",
        "content": whole,
    });
    feed(format!("data: {done}\n\n"));
    store.feed(Input::StreamClosed {
        id: stream.id,
        error: None,
    });
    let message = wait_for(
        &root,
        "article.chat-message[data-message-id=m_a] .chat-markdown",
    )
    .await;
    assert!(query(&root, "[data-streaming=true]").is_none());
    assert_eq!(strip(message.inner_html()), streamed);
}
