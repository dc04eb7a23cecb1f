//! Issue 37: a conversation served whole, opened by a fresh load of the page
//! (`?conversationId=` in the address, as a shared link does; each load in a browser of its own,
//! so no file and no compiled code is kept from an earlier one), so its answer
//! arrives while the page is still starting: the main wasm, the message list's chunk and the
//! first render share the main thread with reading the answer. Measured from the navigation:
//!
//! - the time to the newest message drawn in the list;
//! - the longest main-thread task (`longtask` entries, observed from the document's first
//!   script through the DevTools protocol) until two seconds after it is drawn, which covers
//!   the chunks fetched once the list shows (Markdown at idle);
//! - the same window for a fresh load of an empty chat, so what the conversation adds to the
//!   page's own start can be told apart.
//!
//! `BENCH_TRACE=1` also prints every long task of each run with the files whose download ended
//! just before it, to see what a long task followed; `BENCH_PROFILE=<path>` writes the
//! DevTools CPU profile of each load to `<path>.open.cpuprofile` / `<path>.empty.cpuprofile`
//! (the last run's; Chromium's Performance panel opens them).

use serde_json::{json, Value};

use super::cdp::cdp;
use super::harness::{ChatPage, Harness, Step};
use super::median_max;

/// Installed before any script of every document: long tasks as `[start, duration]` and the
/// time the row of `Message <benchNewest>` (a query parameter) is first drawn.
const OBSERVE_JS: &str = r#"
(function () {
  var newest = new URLSearchParams(location.search).get('benchNewest');
  var b = window.__benchFresh = { tasks: [], drawn: null };
  try {
    new PerformanceObserver(function (l) {
      l.getEntries().forEach(function (e) { b.tasks.push([e.startTime, e.duration]); });
    }).observe({ type: 'longtask' });
  } catch (e) { b.noLongTasks = true; }
  // When the main wasm's start function runs (the page's `main`), for the trace.
  var streaming = WebAssembly.instantiateStreaming;
  if (streaming && !b.wrapped) {
    b.wrapped = true;
    WebAssembly.instantiateStreaming = function () {
      return streaming.apply(WebAssembly, arguments).then(function (r) {
        var exports = r.instance.exports;
        if (typeof exports.__wbindgen_start !== 'function') return r;
        var copy = Object.assign({}, exports);
        copy.__wbindgen_start = function () {
          b.start = [performance.now()];
          try { return exports.__wbindgen_start.apply(this, arguments); }
          finally { b.start.push(performance.now()); }
        };
        b.instantiated = performance.now();
        return { instance: { exports: copy }, module: r.module };
      });
    };
  }
  if (!newest) return;
  var text = 'Message ' + newest;
  var watch = new MutationObserver(function () {
    if (b.drawn !== null) return;
    var l = document.querySelector('.chat-message-list');
    if (!l) return;
    var rows = l.querySelectorAll('[data-row]');
    for (var i = 0; i < rows.length; i++) {
      var t = rows[i].textContent || '';
      var at = t.indexOf(text);
      if (at >= 0 && !/[0-9]/.test(t.charAt(at + text.length))) {
        b.drawn = performance.now(); watch.disconnect(); return;
      }
    }
  });
  watch.observe(document, { subtree: true, childList: true, characterData: true });
})();
"#;

/// `{tasks, drawn, files: [[name, responseEnd]]}` of the current document.
const READ_JS: &str = r#"
var b = window.__benchFresh || {};
var files = performance.getEntriesByType('resource').map(function (e) {
  return [e.name.replace(/^.*\//, '').replace(/\?.*$/, ''), e.responseEnd, e.startTime];
});
return { tasks: b.tasks || [], drawn: b.drawn, noLongTasks: !!b.noLongTasks, files: files,
         start: b.start || null };
"#;

/// One fresh load of `query`; waits for the newest message (when `newest` is set) and two
/// seconds more; the document's record (see [`READ_JS`]).
async fn load(page: &ChatPage, query: &str, newest: Option<u64>) -> Step<Value> {
    // A document of the same site first, so the page's load stays in the renderer that the
    // profiler (when asked for) is started in.
    page.open_path("api/agents/agents").await?;
    let profile = std::env::var("BENCH_PROFILE")
        .ok()
        .filter(|p| !p.is_empty());
    if profile.is_some() {
        cdp(page, "Profiler.enable", json!({})).await?;
        cdp(
            page,
            "Profiler.setSamplingInterval",
            json!({ "interval": 200 }),
        )
        .await?;
        cdp(page, "Profiler.start", json!({})).await?;
    }
    page.open_with_query(query).await?;
    if newest.is_some() {
        page.wait_until("the newest message drawn", async || {
            let v = page
                .client
                .execute("return (window.__benchFresh || {}).drawn;", vec![])
                .await
                .map_err(|e| e.to_string())?;
            v.as_f64().map(drop).ok_or_else(|| "not yet".to_owned())
        })
        .await?;
    }
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    let v = page
        .client
        .execute(READ_JS, vec![])
        .await
        .map_err(|e| format!("reading the load's record: {e}"))?;
    if let Some(path) = profile {
        let p = cdp(page, "Profiler.stop", json!({})).await?;
        let path = format!(
            "{path}.{}.cpuprofile",
            if newest.is_some() { "open" } else { "empty" }
        );
        std::fs::write(&path, p["profile"].to_string()).map_err(|e| format!("{path}: {e}"))?;
    }
    if v["noLongTasks"] == true {
        return Err("this Chromium does not report `longtask` entries".to_owned());
    }
    Ok(v)
}

/// The longest task of a record (0 when none was over 50 ms).
fn longest(v: &Value) -> f64 {
    v["tasks"]
        .as_array()
        .map(|a| a.iter().filter_map(|t| t[1].as_f64()).fold(0.0, f64::max))
        .unwrap_or(0.0)
}

/// Ms from the start of the main wasm (its start function) to the request of the message
/// list's chunk (negative: asked for before the wasm started); NaN when either is missing.
fn first_chunk_lead(v: &Value) -> f64 {
    let started = v["start"][0].as_f64().unwrap_or(f64::NAN);
    v["files"]
        .as_array()
        .and_then(|files| {
            files
                .iter()
                .find(|f| f[0] == "split_messages.wasm")
                .and_then(|f| f[2].as_f64())
        })
        .map_or(f64::NAN, |asked| asked - started)
}

/// Prints each long task with the files whose download ended in the 100 ms before it.
fn trace(what: &str, run: usize, v: &Value) {
    let files = v["files"].as_array().cloned().unwrap_or_default();
    for t in v["tasks"].as_array().into_iter().flatten() {
        let (start, dur) = (t[0].as_f64().unwrap_or(0.0), t[1].as_f64().unwrap_or(0.0));
        let before: Vec<&str> = files
            .iter()
            .filter(|f| {
                let end = f[1].as_f64().unwrap_or(-1.0);
                end <= start && end > start - 100.0
            })
            .filter_map(|f| f[0].as_str())
            .collect();
        println!(
            "  {what} run {run}: task at {start:.0} ms, {dur:.0} ms, after {before:?} (drawn at {}; main from {})",
            v["drawn"], v["start"]
        );
    }
}

/// One fresh load in a browser of its own (a new renderer keeps no compiled code): with
/// `n` messages served whole opened by the address, or (`n` = 0) an empty chat.
async fn one_load(page: &ChatPage, n: u64) -> Step<Value> {
    cdp(page, "Page.enable", json!({})).await?;
    cdp(
        page,
        "Page.addScriptToEvaluateOnNewDocument",
        json!({ "source": OBSERVE_JS }),
    )
    .await?;
    if n == 0 {
        return load(page, "lang=en", None).await;
    }
    let body = json!({ "agentId": "echo", "messages": n, "numbered": true, "whole": true });
    let answer = page.api_post("/_dev/seed", body).await?;
    let id = answer["conversation"]["id"]
        .as_str()
        .ok_or_else(|| format!("seeding: no conversation id in {answer}"))?;
    let query = format!("lang=en&conversationId={id}&benchNewest={n}");
    load(page, &query, Some(n)).await
}

/// The table: `n` messages served whole, opened by a fresh load, against an empty chat; each
/// load in a browser of its own. False when a load could not be measured.
pub fn fresh(rt: &tokio::runtime::Runtime, runs: usize, n: u64) -> bool {
    let traced = std::env::var("BENCH_TRACE").as_deref() == Ok("1");
    let mut failed = false;
    let (mut drawn, mut open_task, mut empty_task, mut chunk) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for run in 0..runs {
        for what in [n, 0] {
            rt.block_on(async {
                let harness = Harness::start().await;
                let outcome = one_load(&harness.page, what).await;
                let kept = match outcome {
                    Ok(v) => {
                        if traced {
                            trace(if what == 0 { "empty" } else { "open" }, run, &v);
                        }
                        if what == 0 {
                            empty_task.push(longest(&v));
                        } else {
                            drawn.push(v["drawn"].as_f64().unwrap_or(f64::NAN));
                            chunk.push(first_chunk_lead(&v));
                            open_task.push(longest(&v));
                        }
                        Ok(())
                    }
                    Err(e) => Err(e),
                };
                failed |= kept.is_err();
                harness.finish("bench_fresh_whole", kept).await;
            });
        }
    }
    let (dm, dx) = median_max(&drawn);
    let (om, ox) = median_max(&open_task);
    let (em, ex) = median_max(&empty_task);
    let (cm, cx) = median_max(&chunk);
    println!("\n## {n}-message conversation served whole, opened by a fresh load ({runs} runs; median / worst)\n");
    println!("| measure | median | worst |\n|---|---|---|");
    println!("| navigation to the newest message drawn | {dm:.0} ms | {dx:.0} ms |");
    println!("| longest main-thread task, navigation to 2 s after it is drawn (0 = none over 50 ms) | {om:.0} ms | {ox:.0} ms |");
    println!("| the same window for a fresh load of an empty chat | {em:.0} ms | {ex:.0} ms |");
    println!("| the message list's chunk asked for, from the main wasm's start (negative: before) | {cm:.0} ms | {cx:.0} ms |");
    !failed
}
