//! Browser tests of the parts fetched on first use (issue 16, D67), with a fetch the test
//! controls: the stand-in until the chunk arrives, the part drawn in place when it does, the
//! notice with Retry when it cannot be fetched, and every place of that part drawn once any
//! of them gets it.
#![cfg(target_arch = "wasm32")]

use std::cell::RefCell;
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;

use agent_chat_ui::core::Chunk;
use agent_chat_ui::ui::chunk::{ChunkMissing, Lazy};
use agent_chat_ui::ui::i18n::I18n;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

use crate::web;
use web::{query, section, wait_for, wait_until};

thread_local! {
    /// The fetches started so far, each with the functions that end it.
    static FETCHES: RefCell<Vec<(js_sys::Function, js_sys::Function)>> = const { RefCell::new(Vec::new()) };
    /// A fetch arrived: like the real loader, later ones are ready at once.
    static ARRIVED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// A fetch of the chunk that ends when the test says so ([`end_fetch`]).
fn controlled_fetch() -> Pin<Box<dyn Future<Output = Result<(), ChunkMissing>>>> {
    if ARRIVED.get() {
        return Box::pin(async { Ok(()) });
    }
    let mut ends = None;
    let promise = js_sys::Promise::new(&mut |resolve, reject| ends = Some((resolve, reject)));
    FETCHES.with(|f| {
        f.borrow_mut()
            .push(ends.expect("the executor runs at once"))
    });
    Box::pin(async move {
        JsFuture::from(promise)
            .await
            .map(drop)
            .map_err(|_| ChunkMissing)
    })
}

fn fetches() -> usize {
    FETCHES.with(|f| f.borrow().len())
}

/// Ends fetch `n` (from 0): arrived or failed.
fn end_fetch(n: usize, arrived: bool) {
    FETCHES.with(|f| {
        let (resolve, reject) = &f.borrow()[n];
        ARRIVED.set(arrived);
        let end = if arrived { resolve } else { reject };
        end.call0(&wasm_bindgen::JsValue::NULL).unwrap();
    });
}

/// The part, once its chunk is here.
async fn part() -> Result<AnyView, ChunkMissing> {
    Ok(view! { <p class="part">"drawn"</p> }.into_any())
}

/// Until then: plain text, and the notice when the chunk could not be fetched.
fn stand_in(notice: Option<AnyView>) -> AnyView {
    view! { <p class="stand-in">"plain text"</p> {notice} }.into_any()
}

/// Mounts `places` parts of `chunk` (each test its own chunk: an arrival is for the page's
/// life), each drawing `<p class="part">` once its chunk is here.
fn mount(chunk: Chunk, places: usize) -> (web_sys::HtmlElement, impl Drop) {
    FETCHES.with(|f| f.borrow_mut().clear());
    ARRIVED.set(false);
    let root = section();
    let handle = mount_to(root.clone(), move || {
        I18n::provide(Some("en"), HashMap::new());
        (0..places)
            .map(|i| {
                view! {
                    <div class="place" data-n=i>
                        <Lazy
                            chunk=chunk
                            preload=controlled_fetch
                            view=part
                            stand_in=stand_in
                        />
                    </div>
                }
            })
            .collect_view()
    });
    (root, handle)
}

fn count(root: &web_sys::HtmlElement, sel: &str) -> u32 {
    root.query_selector_all(sel).unwrap().length()
}

#[wasm_bindgen_test]
async fn i16_a_part_shows_its_stand_in_until_its_chunk_arrives() {
    let (root, _h) = mount(Chunk::History, 1);
    wait_for(&root, ".stand-in").await;
    assert_eq!(
        fetches(),
        1,
        "the chunk is fetched once, when the part is first drawn"
    );
    assert!(query(&root, ".part").is_none());
    end_fetch(0, true);
    wait_for(&root, ".part").await;
    assert!(query(&root, ".stand-in").is_none(), "{}", root.inner_html());
    assert_eq!(fetches(), 1);
}

#[wasm_bindgen_test]
async fn i16_a_chunk_that_fails_says_so_in_place_and_retry_fetches_it_for_every_place() {
    let (root, _h) = mount(Chunk::Markdown, 2);
    wait_until("both places to fetch", &root, || fetches() == 2).await;
    end_fetch(0, false);
    end_fetch(1, false);
    wait_until("both notices", &root, || {
        count(&root, ".chat-chunk-failed") == 2
    })
    .await;
    // The stand-in stays (the reply stays readable) and says what happened, in words.
    assert_eq!(count(&root, ".stand-in"), 2);
    let notice = query(&root, ".chat-chunk-failed").unwrap();
    assert!(
        notice
            .text_content()
            .unwrap()
            .contains("This part of the chat could not be loaded."),
        "{}",
        notice.inner_html()
    );
    let retry: web_sys::HtmlElement = query(&root, ".place[data-n='0'] .chat-chunk-failed__retry")
        .unwrap()
        .unchecked_into();
    assert_eq!(retry.text_content().unwrap(), "Retry");
    retry.click();
    wait_until("a second attempt", &root, || fetches() == 3).await;
    assert_eq!(
        count(&root, ".chat-chunk-failed"),
        1,
        "the retried place waits again"
    );
    end_fetch(2, true);
    // The chunk is here: both places draw the part, the one that was not retried too.
    wait_until("both parts", &root, || count(&root, ".part") == 2).await;
    assert_eq!(
        count(&root, ".chat-chunk-failed"),
        0,
        "{}",
        root.inner_html()
    );
    assert_eq!(fetches(), 3, "no place fetched it again");
}

thread_local! {
    /// The sibling split point's own loader has answered once (then it is ready at once).
    static SIBLING_LOADED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Another split point of the same chunk, as `split_point!` makes one: its loader fails while
/// the chunk cannot be fetched, and once the chunk is here it answers a moment later the first
/// time (never at once), then at once.
fn sibling_fetch() -> Pin<Box<dyn Future<Output = Result<(), ChunkMissing>>>> {
    if SIBLING_LOADED.get() {
        return Box::pin(async { Ok(()) });
    }
    let arrived = ARRIVED.get();
    Box::pin(async move {
        JsFuture::from(js_sys::Promise::resolve(&wasm_bindgen::JsValue::NULL))
            .await
            .map_err(|_| ChunkMissing)?;
        SIBLING_LOADED.set(arrived);
        if arrived {
            Ok(())
        } else {
            Err(ChunkMissing)
        }
    })
}

#[wasm_bindgen_test]
async fn i16_a_place_of_another_split_point_draws_when_its_chunk_arrives_elsewhere() {
    FETCHES.with(|f| f.borrow_mut().clear());
    ARRIVED.set(false);
    let root = section();
    let _handle = mount_to(root.clone(), move || {
        I18n::provide(Some("en"), HashMap::new());
        view! {
            <div class="place" data-n="0">
                <Lazy chunk=Chunk::Messages preload=controlled_fetch view=part stand_in=stand_in/>
            </div>
            <div class="place" data-n="1">
                <Lazy chunk=Chunk::Messages preload=sibling_fetch view=part stand_in=stand_in/>
            </div>
        }
    });
    wait_until("the first place to fetch", &root, || fetches() == 1).await;
    end_fetch(0, false);
    wait_until("both notices", &root, || {
        count(&root, ".chat-chunk-failed") == 2
    })
    .await;
    let retry: web_sys::HtmlElement = query(&root, ".place[data-n='0'] .chat-chunk-failed__retry")
        .unwrap()
        .unchecked_into();
    retry.click();
    wait_until("a second attempt", &root, || fetches() == 2).await;
    end_fetch(1, true);
    // The other place asks its own split point again (not ready at once) and draws too.
    wait_until("both parts", &root, || count(&root, ".part") == 2).await;
    assert_eq!(
        count(&root, ".chat-chunk-failed"),
        0,
        "{}",
        root.inner_html()
    );
}
