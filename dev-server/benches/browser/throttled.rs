//! Issue 37: the page and the element as a person on a phone meets them. Chromium is given
//! Lighthouse's mobile network (1.6 Mbps down, 750 kbps up, 150 ms round trip) and no cache
//! (DevTools protocol through chromedriver), and each is loaded in a frame of an empty page of
//! the same origin. Measured from the frame's creation:
//!
//! - **a composer that takes text**: a text box, in the page or an `<agent-chat>`'s shadow
//!   root, that is not read-only (the element's and the page's shells count: typing works
//!   there);
//! - **a message that can be sent**: the chat's own composer (the wasm has started and taken
//!   the shell over) with a text in it and its send button enabled;
//! - the **bytes** the frame had received by each (Resource Timing's `transferSize`: the
//!   bytes on the wire, headers included, compressed when the server compressed them).
//!
//! The React Chat UI's page is measured the same way when its npm package can be installed
//! and built here; otherwise the table says why not.

use std::process::Command;

use serde_json::{json, Value};

use super::harness::{ChatPage, Step};

/// Lighthouse's "slow 4G" (mobile) throttling, in the DevTools protocol's units.
const LATENCY_MS: u64 = 150;
const DOWN_BYTES_PER_S: u64 = 1_600_000 / 8;
const UP_BYTES_PER_S: u64 = 750_000 / 8;

async fn cdp(page: &ChatPage, cmd: &'static str, params: Value) -> Step {
    super::cdp::cdp(page, cmd, params).await.map(drop)
}

/// Loads `arguments[0]` in a frame and fills `window.__bench` with `{composer, sendable,
/// composerBytes, sendableBytes}` (ms from the frame's creation; bytes received by then).
const MEASURE_JS: &str = r#"
window.__bench = {};
var frame = document.createElement('iframe');
frame.style.cssText = 'position:fixed;top:0;left:0;width:400px;height:800px;border:0';
var t0 = performance.now();
frame.src = arguments[0];
(document.body || document.documentElement).appendChild(frame);
var typed = null;
function bytes(until) {
  var w = frame.contentWindow, n = 0;
  if (!w || !w.performance) return 0;
  var nav = w.performance.getEntriesByType('navigation')[0];
  if (nav) n += nav.transferSize;
  w.performance.getEntriesByType('resource').forEach(function (e) {
    if (e.responseEnd <= until) n += e.transferSize;
  });
  return n;
}
function box(root) { return root ? root.querySelector('textarea.chat-input__textarea') : null; }
function check() {
  var d = frame.contentDocument, b = window.__bench;
  var host = d && d.querySelector('agent-chat');
  // The page's shell, drawn first in its body until the chat takes it over.
  var pageShell = d && d.getElementById('agent-chat-shell');
  var root = host ? host.shadowRoot : (pageShell ? pageShell.shadowRoot : d);
  var t = box(root);
  var now = performance.now();
  var inFrame = frame.contentWindow ? frame.contentWindow.performance.now() : 0;
  // The bytes are counted at the end, from each response's end time: a resource's timing
  // entry may be queued after the script it brought has run.
  if (t && !t.readOnly && b.composer == null) { b.composer = now - t0; b.composerAt = inFrame; }
  var real = t && (host ? (frame.contentWindow.customElements.get('agent-chat')
    && !root.querySelector('[data-agent-chat-shell]')) : !pageShell);
  if (real && !typed) {
    typed = t;
    t.value = 'x';
    t.dispatchEvent(new Event('input', { bubbles: true }));
  }
  var send = root && root.querySelector('button.chat-input__send');
  if (typed && send && !send.disabled) {
    var done = function () {
      b.composerBytes = bytes(b.composerAt);
      b.sendableBytes = bytes(inFrame);
      b.sendable = now - t0;
      frame.remove();
    };
    setTimeout(done, 500);
    return;
  }
  requestAnimationFrame(check);
}
requestAnimationFrame(check);
return true;
"#;

/// One load of `path` on the throttled network: `[composer ms, sendable ms, composer bytes,
/// sendable bytes]`.
async fn measure(page: &ChatPage, path: &str) -> Step<[f64; 4]> {
    page.client
        .execute(MEASURE_JS, vec![path.into()])
        .await
        .map_err(|e| format!("loading {path} in a frame: {e}"))?;
    let mut waited = 0;
    loop {
        let v = page
            .client
            .execute("return window.__bench;", vec![])
            .await
            .map_err(|e| e.to_string())?;
        if let Some(sendable) = v["sendable"].as_f64() {
            let n = |k: &str| v[k].as_f64().unwrap_or(f64::NAN);
            return Ok([
                n("composer"),
                sendable,
                n("composerBytes"),
                n("sendableBytes"),
            ]);
        }
        waited += 1;
        if waited > 600 {
            return Err(format!("{path}: no sendable composer after 60 s: {v}"));
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// The React Chat UI's npm package, if the registry here has it (`npm view`).
fn react_package() -> Result<String, String> {
    const NAME: &str = "@cognipeer/chat-ui";
    let out = Command::new("npm")
        .args(["view", NAME, "version"])
        .output()
        .map_err(|e| format!("npm could not run: {e}"))?;
    if out.status.success() {
        Ok(format!(
            "{NAME}@{}",
            String::from_utf8_lossy(&out.stdout).trim()
        ))
    } else {
        Err(format!(
            "the npm registry here has no {NAME} (`npm view` fails)"
        ))
    }
}

/// The table: the page and the element, compressed as the dev-server serves them.
pub async fn throttled(page: &ChatPage, runs: usize) -> Step {
    page.open_path("api/agents/agents").await?;
    cdp(page, "Network.enable", json!({})).await?;
    cdp(
        page,
        "Network.setCacheDisabled",
        json!({ "cacheDisabled": true }),
    )
    .await?;
    cdp(
        page,
        "Network.emulateNetworkConditions",
        json!({
            "offline": false,
            "latency": LATENCY_MS,
            "downloadThroughput": DOWN_BYTES_PER_S,
            "uploadThroughput": UP_BYTES_PER_S,
        }),
    )
    .await?;
    println!(
        "| 1.6 Mbps, 150 ms, no cache ({runs} runs, median) | composer takes text | bytes by then | a message can be sent | bytes by then |"
    );
    println!("|---|---|---|---|---|");
    let kb = |b: f64| b / 1024.0;
    for (what, path) in [
        ("`<agent-chat>` example", "/examples/custom-element.html"),
        ("standalone page", "/?lang=en"),
    ] {
        let mut all = Vec::new();
        for _ in 0..runs {
            // Each run from nothing: a fresh top page (the frame's renderer keeps scripts it
            // has seen in memory, whatever the HTTP cache says) and an empty browser cache.
            page.open_path("api/agents/agents").await?;
            cdp(page, "Network.clearBrowserCache", json!({})).await?;
            all.push(measure(page, path).await?);
        }
        let median = |i: usize| super::median_max(&all.iter().map(|m| m[i]).collect::<Vec<_>>()).0;
        println!(
            "| {what} | {:.2} s | {:.1} KB | {:.2} s | {:.1} KB |",
            median(0) / 1000.0,
            kb(median(2)),
            median(1) / 1000.0,
            kb(median(3)),
        );
    }
    match react_package() {
        Ok(name) => println!(
            "| React Chat UI ({name}) | not measured: building its page needs a React app and a bundler, which this bench does not set up | | | |"
        ),
        Err(why) => println!("| React Chat UI | not measured: {why} | | | |"),
    }
    cdp(
        page,
        "Network.emulateNetworkConditions",
        json!({ "offline": false, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1 }),
    )
    .await
}
