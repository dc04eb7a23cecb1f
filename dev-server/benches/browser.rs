//! Browser benchmark (`cargo xtask bench`, or by hand:
//! `AGENT_CHAT_DIST=<dist> cargo bench -p dev-server --features e2e --bench browser`).
//!
//! Measures, in headless Chromium against the in-process dev-server, what the tests only bound
//! structurally (timings are measured here, never asserted in a test, because a busy machine
//! makes any wall-clock bound flaky):
//!
//! - **Opening a 1,000-message conversation** from the history of the running page (issue 8:
//!   "no main-thread task over 200 ms"): time from the click to "Message 1000" drawn with the
//!   list at its end, and the longest main-thread task meanwhile (`longtask` entries). Times
//!   of an open are taken in the page (`performance.now()`), with the server's share (its
//!   answer to E5, from Resource Timing) shown apart: the dev-server is a debug build.
//! - **Paging back** to "Message 1": the longest task while the older pages are prepended.
//! - **Conversations served whole** (issue 18: 1,000 and 5,000 messages in one E5 answer):
//!   click to the newest message drawn, the longest task, the document's elements and the wasm
//!   linear memory once open, and the longest task while scrolling back to "Message 1".
//! - **Streaming a long answer** (the `long` agent: ~2,000 words in 8-character deltas): per
//!   animation frame that changes the page, the time from the frame's start until the page is
//!   painted (script, microtasks, style and layout of that frame), and the DOM nodes touched,
//!   for the first and the last fifth of the answer: equal costs mean the cost per token does
//!   not grow with the answer. Also the number of frames that changed the page against the
//!   number of deltas the server sent (at most one update per frame).
//!
//! - **A usable composer** (issue 16): the page and the element are loaded in a frame of an
//!   empty page of the same origin, and the time from the frame's creation to a composer
//!   that takes text (the text box present and not read-only, checked every animation frame
//!   of the outer page) is taken, for the first load (cold cache) and the next ones.
//!
//! - **On a phone's network** (issue 37, [`throttled`]): time and bytes to a composer that
//!   takes text and to a message that can be sent, on a throttled network without cache.
//!
//! - **A conversation served whole, opened by a fresh load** (issue 37, [`fresh`]): the
//!   longest task from the navigation until the 5,000 messages are open.
//!
//! `BENCH_RUNS` (default 5) sets the repetitions; the report gives median and worst.
//! `BENCH_ONLY=composer` runs only the composer's measurements (these two);
//! `BENCH_ONLY=whole` only the 5,000 messages served whole, from a fresh load and opened from
//! the history; `BENCH_ONLY=fresh` only the fresh load's.

use serde_json::Value;

#[path = "browser/cdp.rs"]
mod cdp;
#[path = "browser/fresh.rs"]
mod fresh;
#[allow(dead_code, unused_imports)]
#[path = "../tests/harness/mod.rs"]
mod harness;
#[path = "browser/throttled.rs"]
mod throttled;
use harness::{ChatPage, Harness, Step};

/// Loads `arguments[0]` in a frame and sets `window.__benchComposer` to the ms from the
/// frame's creation to a composer that takes text (in the page, or in an `<agent-chat>`'s
/// shadow root).
const COMPOSER_JS: &str = r#"
window.__benchComposer = null;
var frame = document.createElement('iframe');
frame.style.cssText = 'position:fixed;top:0;left:0;width:1000px;height:700px;border:0';
var t0 = performance.now();
frame.src = arguments[0];
(document.body || document.documentElement).appendChild(frame);
function box(root) { return root ? root.querySelector('textarea.chat-input__textarea') : null; }
function check() {
  var d = frame.contentDocument;
  var host = d && d.querySelector('agent-chat');
  var t = d && (box(d) || (host && box(host.shadowRoot)));
  if (t && !t.readOnly) { window.__benchComposer = performance.now() - t0; frame.remove(); return; }
  requestAnimationFrame(check);
}
requestAnimationFrame(check);
return true;
"#;

/// Ms from a frame's creation to a usable composer in it, for `path` (see [`COMPOSER_JS`]).
async fn composer_time(page: &ChatPage, path: &str) -> Step<f64> {
    page.client
        .execute(COMPOSER_JS, vec![path.into()])
        .await
        .map_err(|e| format!("loading {path} in a frame: {e}"))?;
    page.wait_until(&format!("a usable composer in {path}"), async || {
        let v = page
            .client
            .execute("return window.__benchComposer;", vec![])
            .await
            .map_err(|e| e.to_string())?;
        v.as_f64().ok_or_else(|| "not yet".to_owned())
    })
    .await
}

/// Issue 16: navigation to a usable composer, the page and the element, cold then warm.
async fn composer(page: &ChatPage, runs: usize) -> Step {
    // A document of the same origin without a chat hosts the frames: the agent list (JSON,
    // which the browser shows as text).
    page.open_path("api/agents/agents").await?;
    println!("| navigation to a usable composer (frame, 2-core machine) | first load | next loads: median | worst |");
    println!("|---|---|---|---|");
    for (what, path) in [
        ("standalone page", "/?lang=en"),
        ("`<agent-chat>` example", "/examples/custom-element.html"),
    ] {
        let first = composer_time(page, path).await?;
        let mut next = Vec::new();
        for _ in 0..runs {
            next.push(composer_time(page, path).await?);
        }
        let (median, worst) = median_max(&next);
        println!("| {what} | {first:.0} ms | {median:.0} ms | {worst:.0} ms |");
    }
    Ok(())
}

/// Starts collecting main-thread tasks over 50 ms into `window.__benchLongTasks`.
const WATCH_LONG_TASKS_JS: &str = r#"
if (!window.PerformanceObserver ||
    PerformanceObserver.supportedEntryTypes.indexOf('longtask') < 0) { return false; }
window.__benchLongTasks = [];
new PerformanceObserver(function (list) {
  list.getEntries().forEach(function (e) { window.__benchLongTasks.push(e.duration); });
}).observe({ type: 'longtask' });
return true;
"#;

/// Wraps `requestAnimationFrame` (looked up on `window` at each call by the wasm-bindgen glue)
/// so every frame callback of the app records `[start, cost, nodes touched]`: `cost` runs from
/// the callback's start to a message task posted from it, which runs after the frame's
/// microtasks, style, layout and paint; `nodes` counts MutationObserver records inside the
/// message list during that window. Frames that touched nothing are not recorded.
const WATCH_FRAMES_JS: &str = r#"
window.__benchFrames = [];
var pending = null;
var touched = 0;
new MutationObserver(function (records) { touched += records.length; })
  .observe(document.querySelector('.chat-message-list') || document.body,
           { subtree: true, childList: true, characterData: true, attributes: true });
var channel = new MessageChannel();
channel.port1.onmessage = function () {
  if (!pending) { return; }
  var frame = pending; pending = null;
  var nodes = touched; touched = 0;
  if (nodes > 0) { window.__benchFrames.push([frame, performance.now() - frame, nodes]); }
};
var raf = window.requestAnimationFrame.bind(window);
window.requestAnimationFrame = function (cb) {
  return raf(function (ts) {
    if (!pending) { pending = performance.now(); touched = 0; channel.port2.postMessage(0); }
    cb(ts);
  });
};
return true;
"#;

/// Times an open in the page itself (`performance.now()`, no WebDriver round trip in them):
/// the click (caught on its way down), the text `arguments[0]` drawn in the message list,
/// the frame after that, and the E5 request (path `arguments[1]`) from its start to its
/// last byte. Read back with [`OPEN_TIMES_JS`].
const WATCH_OPEN_JS: &str = r#"
var text = arguments[0], path = arguments[1];
var t = window.__benchOpen = { click: null, drawn: null, frame: null, path: path };
document.addEventListener('click', function () { if (t.click === null) t.click = performance.now(); },
                          { capture: true, once: true });
var seen = function () {
  var l = document.querySelector('.chat-message-list');
  return !!l && Array.prototype.some.call(l.querySelectorAll('[data-row]'),
    function (r) { return (r.textContent || '').indexOf(text) >= 0; });
};
var watch = new MutationObserver(function () {
  if (t.drawn !== null || t.click === null || !seen()) return;
  t.drawn = performance.now();
  watch.disconnect();
  requestAnimationFrame(function () { setTimeout(function () { t.frame = performance.now(); }, 0); });
});
watch.observe(document.body, { subtree: true, childList: true, characterData: true });
return true;
"#;

/// `[click→drawn, click→frame, E5 request start→last byte]` in ms of the open watched by
/// [`WATCH_OPEN_JS`], or null while it is not complete.
const OPEN_TIMES_JS: &str = r#"
var t = window.__benchOpen;
if (!t || t.click === null || t.drawn === null || t.frame === null) return null;
var e5 = performance.getEntriesByType('resource').filter(function (e) {
  return e.name.indexOf(t.path) >= 0 && e.name.indexOf('/messages') < 0 && e.startTime >= t.click;
})[0];
return [t.drawn - t.click, t.frame - t.click, e5 ? e5.responseEnd - e5.requestStart : -1];
"#;

/// Starts watching an open that draws `text` and loads the conversation `id`.
async fn watch_open(page: &ChatPage, text: &str, id: &str) -> Step {
    page.client
        .execute(WATCH_OPEN_JS, vec![text.into(), id.into()])
        .await
        .map(|_| ())
        .map_err(|e| format!("watching the open: {e}"))
}

/// The open's times (see [`OPEN_TIMES_JS`]), once the frame showing it has passed.
async fn open_times(page: &ChatPage) -> Step<[f64; 3]> {
    page.wait_until("the open's times", async || {
        let v = page
            .client
            .execute(OPEN_TIMES_JS, vec![])
            .await
            .map_err(|e| e.to_string())?;
        match v
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_f64).collect::<Vec<_>>())
        {
            Some(t) if t.len() == 3 => Ok([t[0], t[1], t[2]]),
            _ => Err(format!("not complete: {v}")),
        }
    })
    .await
}

/// Prints the rows of an open's times: click to drawn, to the frame showing it, and the
/// server's share (its answer to E5), each as median / worst.
fn print_open_times(what: &str, times: &[[f64; 3]]) {
    let col = |i: usize| times.iter().map(|t| t[i]).collect::<Vec<_>>();
    let (dm, dx) = median_max(&col(0));
    let (fm, fx) = median_max(&col(1));
    let (sm, sx) = median_max(&col(2));
    println!("| click in the history to {what} drawn (in the page) | {dm:.0} ms | {dx:.0} ms |");
    println!("| click to the frame showing it | {fm:.0} ms | {fx:.0} ms |");
    println!(
        "| of which the server's answer to E5 (request to last byte) | {sm:.0} ms | {sx:.0} ms |"
    );
    let page: Vec<f64> = times.iter().map(|t| t[0] - t[2].max(0.0)).collect();
    let (pm, px) = median_max(&page);
    println!("| click to drawn less the server's answer: the page's own time | {pm:.0} ms | {px:.0} ms |");
}

fn main() {
    let runs: usize = std::env::var("BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5)
        .max(1);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("tokio runtime");
    let mut failed = false;
    let only = std::env::var("BENCH_ONLY").unwrap_or_default();
    if only == "fresh" {
        failed |= !fresh::fresh(&rt, runs, 5000);
        std::process::exit(i32::from(failed));
    }
    if only == "whole" {
        failed |= !fresh::fresh(&rt, runs, 5000);
        rt.block_on(async {
            let harness = Harness::start().await;
            let outcome = whole_conversation(&harness.page, runs, 5000).await;
            failed |= outcome.is_err();
            harness.finish("bench_whole_conversation", outcome).await;
        });
        std::process::exit(i32::from(failed));
    }
    rt.block_on(async {
        let harness = Harness::start().await;
        let outcome = composer(&harness.page, runs).await;
        failed |= outcome.is_err();
        harness.finish("bench_composer", outcome).await;
    });
    rt.block_on(async {
        let harness = Harness::start().await;
        let outcome = throttled::throttled(&harness.page, runs.min(3)).await;
        failed |= outcome.is_err();
        harness.finish("bench_throttled", outcome).await;
    });
    if only == "composer" {
        std::process::exit(i32::from(failed));
    }
    rt.block_on(async {
        let harness = Harness::start().await;
        let outcome = long_conversation(&harness.page, runs).await;
        failed |= outcome.is_err();
        harness.finish("bench_long_conversation", outcome).await;
    });
    failed |= !fresh::fresh(&rt, runs, 5000);
    for n in [1000, 5000] {
        rt.block_on(async {
            let harness = Harness::start().await;
            let outcome = whole_conversation(&harness.page, runs, n).await;
            failed |= outcome.is_err();
            harness.finish("bench_whole_conversation", outcome).await;
        });
    }
    rt.block_on(async {
        let harness = Harness::start().await;
        let outcome = streaming(&harness.page, runs).await;
        failed |= outcome.is_err();
        harness.finish("bench_streaming", outcome).await;
    });
    if failed {
        std::process::exit(1);
    }
}

/// Median and maximum of `values` (`(0, 0)` when empty).
fn median_max(values: &[f64]) -> (f64, f64) {
    if values.is_empty() {
        return (0.0, 0.0);
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[v.len() - 1])
}

async fn watch_long_tasks(page: &ChatPage) -> Step {
    let ok = page
        .client
        .execute(WATCH_LONG_TASKS_JS, vec![])
        .await
        .map_err(|e| format!("observing long tasks: {e}"))?;
    if ok == Value::Bool(true) {
        Ok(())
    } else {
        Err("this Chromium does not report `longtask` entries".to_owned())
    }
}

/// The longest main-thread task (ms) since [`watch_long_tasks`]; 0 when none was over 50 ms.
async fn longest_task(page: &ChatPage) -> Step<f64> {
    let v = page
        .client
        .execute("return window.__benchLongTasks || [];", vec![])
        .await
        .map_err(|e| format!("reading long tasks: {e}"))?;
    Ok(v.as_array()
        .map(|a| a.iter().filter_map(Value::as_f64).fold(0.0, f64::max))
        .unwrap_or(0.0))
}

/// Rows drawn when a long conversation opens: one E8 page (`MESSAGE_PAGE` in
/// agent-chat-core/src/session/mod.rs, D26).
const PAGE: usize = 25;

/// The number in the first drawn row's "Message i" (0: none).
fn first_number(list: &Value) -> u64 {
    list["numbers"][0].as_u64().unwrap_or(0)
}

/// The number in the last drawn row's "Message i" (0: none).
fn last_number(list: &Value) -> u64 {
    list["numbers"]
        .as_array()
        .and_then(|a| a.last())
        .and_then(Value::as_u64)
        .unwrap_or(0)
}

/// Elements in the document and the wasm linear memory (bytes) of the page.
const FOOTPRINT_JS: &str = r#"
var m = window.__agentChatMemory;
return { elements: document.querySelectorAll('*').length,
         memory: m && m.buffer ? m.buffer.byteLength : null };
"#;

/// Issue 18: a conversation of `n` messages that the server hands over whole (E5 with every
/// message, `whole` seeding), opened from the history: click to "Message n" drawn at the end,
/// the longest task meanwhile, the elements in the document and the wasm memory once open,
/// then the longest task while scrolling back to "Message 1" a box height at a time.
async fn whole_conversation(page: &ChatPage, runs: usize, n: u64) -> Step {
    let body = serde_json::json!({ "agentId": "echo", "messages": n, "numbered": true,
                                   "whole": true });
    let answer = page.api_post("/_dev/seed", body).await?;
    let id = answer["conversation"]["id"]
        .as_str()
        .ok_or_else(|| format!("seeding: no conversation id in {answer}"))?
        .to_owned();
    let row = format!(".chat-history__item[data-conversation-id='{id}'] .chat-history__select");
    let (mut opened, mut open_task, mut elements, mut memory, mut scroll_task) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..runs {
        page.open().await?;
        page.wait_for_visible(&row).await?;
        watch_long_tasks(page).await?;
        watch_open(page, &format!("Message {n}"), &id).await?;
        page.click(&row).await?;
        page.wait_until("the newest message drawn at the end", async || {
            let l = page.message_list().await?;
            if l["lastVisible"] == true && last_number(&l) == n {
                Ok(())
            } else {
                Err(l.to_string())
            }
        })
        .await?;
        opened.push(open_times(page).await?);
        open_task.push(longest_task(page).await?);
        page.wait_for_animations_to_finish().await?;
        let footprint = page
            .client
            .execute(FOOTPRINT_JS, vec![])
            .await
            .map_err(|e| format!("reading the footprint: {e}"))?;
        elements.push(footprint["elements"].as_f64().unwrap_or(0.0));
        memory.push(footprint["memory"].as_f64().unwrap_or(0.0) / 1_048_576.0);
        // Back to the first message, a box height at a time (each step waits for the rows).
        watch_long_tasks(page).await?;
        let mut steps = 0;
        loop {
            let l = page.message_list().await?;
            if first_number(&l) == 1 && l["scrollTop"].as_f64() == Some(0.0) {
                break;
            }
            let by = -(l["clientHeight"].as_i64().unwrap_or(600));
            // Right after the step a spacer may be in view (no row to report): fine here.
            let _ = page.scroll_messages(Some(by)).await;
            steps += 1;
            if steps > 20 * n {
                return Err(format!("never reached \"Message 1\": {l}"));
            }
        }
        scroll_task.push(longest_task(page).await?);
    }
    let (tm, tx) = median_max(&open_task);
    let (em, ex) = median_max(&elements);
    let (mm, mx) = median_max(&memory);
    let (sm, sx) = median_max(&scroll_task);
    println!("\n## {n}-message conversation served whole ({runs} runs; median / worst)\n");
    println!("| measure | median | worst |\n|---|---|---|");
    print_open_times(&format!("\"Message {n}\""), &opened);
    println!("| longest main-thread task while opening (0 = none over 50 ms) | {tm:.0} ms | {tx:.0} ms |");
    println!("| elements in the document, open | {em:.0} | {ex:.0} |");
    println!("| wasm linear memory, open | {mm:.1} MB | {mx:.1} MB |");
    println!("| longest task while scrolling back to \"Message 1\" a box at a time | {sm:.0} ms | {sx:.0} ms |");
    Ok(())
}

async fn long_conversation(page: &ChatPage, runs: usize) -> Step {
    let id = page.seed_numbered_conversation(1000, 0).await?;
    let row = format!(".chat-history__item[data-conversation-id='{id}'] .chat-history__select");
    let (mut opened, mut open_task, mut paging_task) = (Vec::new(), Vec::new(), Vec::new());
    // The longest task of the first prepends (up to 125 rows loaded) and of the last ones (from
    // 900): equal when the cost does not grow with the rows already there (D47).
    let (mut paging_early, mut paging_late) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        page.open().await?;
        page.wait_for_visible(&row).await?;
        watch_long_tasks(page).await?;
        watch_open(page, "Message 1000", &id).await?;
        page.click(&row).await?;
        page.wait_until("\"Message 1000\" drawn at the end", async || {
            let l = page.message_list().await?;
            if l["lastVisible"] == true && last_number(&l) == 1000 {
                Ok(())
            } else {
                Err(l.to_string())
            }
        })
        .await?;
        opened.push(open_times(page).await?);
        open_task.push(longest_task(page).await?);
        page.wait_for_animations_to_finish().await?;

        watch_long_tasks(page).await?;
        // Paging back, followed by the oldest message drawn (the list draws only the rows
        // near the view, D58, so rows in the DOM no longer count what is loaded).
        let mut oldest = 1000 - PAGE as u64 + 1;
        let (mut early_seen, mut late_watched, mut up_to_late) = (false, false, 0.0_f64);
        while oldest > 1 {
            if !early_seen && oldest <= 876 {
                paging_early.push(longest_task(page).await?);
                early_seen = true;
            }
            if !late_watched && oldest <= 101 {
                // Everything up to here (the watch was not reset for the early reading).
                up_to_late = longest_task(page).await?;
                watch_long_tasks(page).await?;
                late_watched = true;
            }
            let _ = page.scroll_messages(None).await;
            oldest = page
                .wait_until("older messages above", async || {
                    let l = page.message_list().await?;
                    match first_number(&l) {
                        n if n > 0 && n < oldest => Ok(n),
                        _ => Err(l.to_string()),
                    }
                })
                .await?;
        }
        let late = longest_task(page).await?;
        paging_late.push(late);
        paging_task.push(late.max(up_to_late));
    }
    let (tm, tx) = median_max(&open_task);
    let (pm, px) = median_max(&paging_task);
    println!("\n## 1,000-message conversation ({runs} runs; median / worst)\n");
    println!("| measure | median | worst |\n|---|---|---|");
    print_open_times("\"Message 1000\"", &opened);
    println!("| longest main-thread task while opening (0 = none over 50 ms) | {tm:.0} ms | {tx:.0} ms |");
    println!(
        "| longest main-thread task while paging back to \"Message 1\" | {pm:.0} ms | {px:.0} ms |"
    );
    let (em, ex) = median_max(&paging_early);
    let (lm, lx) = median_max(&paging_late);
    println!(
        "| the same, first prepends (to 125 rows) / last ones (from 900 rows) | {em:.0} / {lm:.0} ms | {ex:.0} / {lx:.0} ms |"
    );
    Ok(())
}

async fn streaming(page: &ChatPage, runs: usize) -> Step {
    let (mut early, mut late, mut early_nodes, mut late_nodes) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut frames_seen, mut longest) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        page.open().await?;
        page.pick_agent("long").await?;
        page.client
            .execute(WATCH_FRAMES_JS, vec![])
            .await
            .map_err(|e| format!("watching frames: {e}"))?;
        watch_long_tasks(page).await?;
        page.send_message("Write something long").await?;
        page.wait_for_finished_reply_containing("That is the end of the long answer.")
            .await?;
        let frames = page
            .client
            .execute("return window.__benchFrames;", vec![])
            .await
            .map_err(|e| format!("reading frames: {e}"))?;
        let frames: Vec<(f64, f64)> = frames
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|f| Some((f[1].as_f64()?, f[2].as_f64()?)))
                    .collect()
            })
            .unwrap_or_default();
        if frames.len() < 10 {
            return Err(format!("only {} frames changed the page", frames.len()));
        }
        let fifth = frames.len() / 5;
        let (head, tail) = (&frames[..fifth], &frames[frames.len() - fifth..]);
        early.push(median_max(&head.iter().map(|f| f.0).collect::<Vec<_>>()).0);
        late.push(median_max(&tail.iter().map(|f| f.0).collect::<Vec<_>>()).0);
        early_nodes.push(median_max(&head.iter().map(|f| f.1).collect::<Vec<_>>()).0);
        late_nodes.push(median_max(&tail.iter().map(|f| f.1).collect::<Vec<_>>()).0);
        frames_seen.push(frames.len() as f64);
        longest.push(longest_task(page).await?);
    }
    let deltas = dev_server::scripts::long_text().chars().count().div_ceil(8);
    let row = |name: &str, v: &[f64], unit: &str| {
        let (m, x) = median_max(v);
        println!("| {name} | {m:.1}{unit} | {x:.1}{unit} |");
    };
    println!("\n## Streaming the `long` answer ({deltas} deltas; {runs} runs; median / worst)\n");
    println!("| measure | median | worst |\n|---|---|---|");
    row("frames that changed the page", &frames_seen, "");
    row(
        "frame cost, first fifth of the answer (median frame)",
        &early,
        " ms",
    );
    row(
        "frame cost, last fifth of the answer (median frame)",
        &late,
        " ms",
    );
    row("DOM records per frame, first fifth", &early_nodes, "");
    row("DOM records per frame, last fifth", &late_nodes, "");
    row(
        "longest main-thread task while streaming (0 = none over 50 ms)",
        &longest,
        " ms",
    );
    Ok(())
}
