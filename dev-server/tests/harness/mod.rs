//! The browser harness shared by the end-to-end journeys (`tests/e2e.rs`) and the browser
//! benchmark (`benches/browser.rs`): [`Harness`] (an in-process dev-server, chromedriver in its
//! own process group and a fresh Chromium), the page object [`ChatPage`] that every journey
//! talks to the page through, selectors ([`sel`]), the scripts it runs in the page, and the
//! axe-core audit ([`AxeAudit`]).

// Used by the `frameworks` journeys only.
#[allow(dead_code)]
pub mod node;

use std::{
    future::Future,
    os::unix::process::CommandExt,
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    sync::{
        atomic::{AtomicU32, Ordering},
        OnceLock,
    },
    time::{Duration, Instant, SystemTime, UNIX_EPOCH},
};

use fantoccini::{
    actions::{InputSource, KeyAction, KeyActions},
    key::Key,
    wd::WindowHandle,
    Client, ClientBuilder, Locator,
};
use hyper_util::client::legacy::connect::HttpConnector;
use reqwest::Method;
use serde_json::{json, Value};

/// How long one wait (an element, a reply, a URL change) may take.
pub const WAIT: Duration = Duration::from_secs(15);
/// Interval between two looks at the page while waiting.
pub const POLL: Duration = Duration::from_millis(100);
/// Upper bound of one whole journey, page loads included.
pub const JOURNEY_TIMEOUT: Duration = Duration::from_secs(120);
/// Upper bound for chromedriver to answer and Chromium to start.
pub const STARTUP_TIMEOUT: Duration = Duration::from_secs(60);
/// Upper bound of each clean-up command (console, screenshot, closing the session).
pub const CLEANUP_TIMEOUT: Duration = Duration::from_secs(10);
/// How long restored cards are watched for an announcement or a focus they must not get.
pub const QUIET_FOR: Duration = Duration::from_millis(1000);
/// Console text that means the wasm app crashed (Rust panic, wasm trap).
pub const FATAL_CONSOLE: [&str; 7] = [
    "panicked at",
    // A split build whose instant shell's stylesheet did not reach the wasm (the chat would
    // be drawn unstyled): `ui::style::MISSING_SHEET`.
    "agent-chat: the stylesheet is missing",
    "RuntimeError",
    "unreachable executed",
    // The standalone page ships a Content-Security-Policy (no eval): nothing it does may be
    // refused by it.
    "Content Security Policy directive",
    // The strict page enforces Trusted Types: a string handed to an HTML or script sink is
    // refused with these words.
    "requires 'Trusted",
    "TrustedHTML",
];

/// Result of one page action; the error says what was expected and what was seen.
pub type Step<T = ()> = Result<T, String>;

/// The DOM contract with the UI (`src/ui`): every selector the journeys rely on.
pub mod sel {
    /// Root of the chat; its absence means a blank (crashed) page.
    pub const ROOT: &str = ".chat-root";
    /// Opens the agent picker.
    pub const AGENT_TOGGLE: &str = "button.chat-agent-picker__toggle";
    /// The message composer.
    pub const TEXTAREA: &str = "textarea.chat-input__textarea";

    /// Any built-in card (the labelled group itself, which takes focus when it arrives).
    pub const CARD: &str = ".chat-card";
    /// The built-in approval card.
    pub const APPROVAL_CARD: &str = ".chat-card--approval";
    /// Approve (disabled while an edit is invalid).
    pub const APPROVE: &str = ".chat-card__approve";
    /// Deny.
    pub const DENY: &str = ".chat-card__deny";
    /// "Add a reason" (shows the reason field).
    pub const ADD_REASON: &str = ".chat-card__add-reason";
    /// The deny reason field.
    pub const REASON: &str = ".chat-card__reason input";
    /// "Don't ask again for this tool in this chat".
    pub const REMEMBER: &str = ".chat-card__check input";
    /// "Edit arguments". The UI is adding the class `chat-card__edit`; until then it is the
    /// first button of the edit row (both name the same button).
    pub const EDIT_ARGUMENTS: &str = ".chat-card__edit, .chat-card__edit-row button:first-child";
    /// The JSON editor of the arguments.
    pub const EDITOR: &str = "textarea.chat-card__editor";
    /// The form fields of the editor (flat argsSchema).
    pub const FIELDS: &str = ".chat-card__fields";
    /// The diff of an edit against the proposal.
    pub const DIFF: &str = ".chat-card__diff";
    /// One problem of the edited arguments.
    pub const PROBLEMS: &str = ".chat-card__problems li";
    /// The "Arguments edited" mark.
    pub const EDITED: &str = ".chat-card__edited";
    /// How a settled card ended ("Approved", "Skipped", …).
    pub const OUTCOME: &str = ".chat-card__outcome-label";
    /// "Remembered for this chat" under a settled approval.
    pub const REMEMBERED: &str = ".chat-card__remembered";
    /// The collapsed "Preview" of an option.
    pub const PREVIEW: &str = ".chat-card__preview summary";
    /// Send of a question card.
    pub const SEND: &str = ".chat-card__send";
    /// Skip of a question card (only when no question is required).
    pub const SKIP: &str = ".chat-card__skip";
    /// The read-only note "Waiting for approval in another app".
    pub const ELSEWHERE: &str = ".chat-card__elsewhere";
    /// The notice "This request changed. Review it again." of a card redrawn because its
    /// request changed under the same id (issue 13).
    pub const CHANGED: &str = ".chat-card__changed";
    /// The proposed arguments (pretty JSON) in an approval card's Details.
    pub const ARGS: &str = ".chat-card__details .chat-card__args";

    /// The countdown of a waiting card ("Expires in 3 hours"; `data-warning="true"` = amber).
    pub const COUNTDOWN: &str = ".chat-card .chat-countdown";
    /// The error banner above the composer.
    pub const ERROR: &str = ".chat-error[role=\"alert\"]";
    /// The text of the error banner.
    pub const ERROR_TEXT: &str = ".chat-error[role=\"alert\"] .chat-error__text";
    /// The hidden live region that announces cards arriving live.
    pub const ANNOUNCER: &str = ".chat-announcer";

    /// Approve of a custom approval card.
    pub const CUSTOM_APPROVE: &str = "button.chat-custom-card__approve";
    /// Deny of a custom approval card.
    pub const CUSTOM_DENY: &str = "button.chat-custom-card__deny";

    /// One agent in the open picker.
    pub fn agent_option(agent_id: &str) -> String {
        format!("button.chat-agent-picker__option[data-agent-id=\"{agent_id}\"]")
    }

    /// A built-in card of `kind` (`tool_approval`, `user_question`) in `state`.
    pub fn card(kind: &str, state: &str) -> String {
        format!(".chat-card[data-kind=\"{kind}\"]{}", state_is(state))
    }

    /// `state` as the card's stage (`data-state`: waiting, executing, completed, …) or as its
    /// decision (`data-decision`: approved, approved-edited, denied, …): an approved card that
    /// went on to execute still matches `approved` (issue 14).
    fn state_is(state: &str) -> String {
        format!(":is([data-state=\"{state}\"], [data-decision=\"{state}\"])")
    }

    /// The built-in card of the action `action_id` in `state` (stage or decision).
    pub fn card_by_id(action_id: &str, state: &str) -> String {
        format!(
            ".chat-card[data-action-id=\"{action_id}\"]{}",
            state_is(state)
        )
    }

    /// The built-in card of the action `action_id` at exactly the stage `stage`.
    pub fn card_at_stage(action_id: &str, stage: &str) -> String {
        format!(".chat-card[data-action-id=\"{action_id}\"][data-state=\"{stage}\"]")
    }

    /// The built-in card of the action `action_id` in `state`, marked as redrawn because its
    /// request changed (`data-changed="true"`).
    pub fn changed_card(action_id: &str, state: &str) -> String {
        format!("{}[data-changed=\"true\"]", card_by_id(action_id, state))
    }

    /// Any built-in card in `state` (`waiting`, `approved`, `skipped`, …).
    pub fn card_in(state: &str) -> String {
        format!(".chat-card{}", state_is(state))
    }

    /// A card drawn by the page's own renderer (`customCards=1`) in `state`.
    pub fn custom_card_in(state: &str) -> String {
        format!(".chat-custom-card[data-action-id][data-state=\"{state}\"]")
    }

    /// The radio button or checkbox of the option with `value`.
    pub fn option(value: &str) -> String {
        format!(".chat-card__option input[value=\"{value}\"]")
    }

    /// The free-text field of the `n`th question (1-based) of a question card.
    pub fn answer_field(n: usize) -> String {
        format!(".chat-card__question:nth-child({n}) .chat-card__input")
    }

    /// The composer in `state`.
    pub fn composer_in(state: &str) -> String {
        format!(".chat-input[data-state=\"{state}\"]")
    }
}

/// Reads every message bubble in one round trip: `[{role, streaming, text}]`.
pub const MESSAGES_JS: &str = r#"
return Array.from(document.querySelectorAll('article.chat-message')).map(function (a) {
  var content = a.querySelector('.chat-message__content') || a;
  return {
    role: a.getAttribute('data-role') || '',
    streaming: a.getAttribute('data-streaming') === 'true',
    text: (content.textContent || '').trim()
  };
});
"#;

/// Trimmed text of every element matching `arguments[0]`, in document order.
pub const TEXTS_JS: &str = r#"
return Array.from(document.querySelectorAll(arguments[0])).map(function (e) {
  return (e.textContent || '').trim();
});
"#;

/// Replaces the value of the first field matching `arguments[0]` with `arguments[1]` and fires
/// the `input` event a person's typing would (the UI listens to `input`); false when missing.
pub const SET_VALUE_JS: &str = r#"
var el = document.querySelector(arguments[0]);
if (!el) { return false; }
el.focus();
el.value = arguments[1];
el.dispatchEvent(new Event('input', { bubbles: true }));
return true;
"#;

/// The value of the first field matching `arguments[0]`, or null.
pub const VALUE_JS: &str = r#"
var el = document.querySelector(arguments[0]);
return el ? el.value : null;
"#;

/// Text and `data-warning` of the first countdown matching `arguments[0]`, or nulls.
pub const COUNTDOWN_JS: &str = r#"
var el = document.querySelector(arguments[0]);
return el
  ? { text: (el.textContent || '').trim(), warning: el.getAttribute('data-warning') }
  : { text: null, warning: null };
"#;

/// Records into `window.__e2eErrors` every distinct text an element matching `arguments[0]`
/// shows from now on (a MutationObserver, so even a banner that comes and goes is caught).
pub const WATCH_ERRORS_JS: &str = r#"
var css = arguments[0];
window.__e2eErrors = [];
var look = function () {
  document.querySelectorAll(css).forEach(function (e) {
    var t = (e.textContent || '').trim();
    if (window.__e2eErrors.indexOf(t) < 0) { window.__e2eErrors.push(t); }
  });
};
look();
new MutationObserver(look).observe(document.body,
  { childList: true, subtree: true, characterData: true, attributes: true });
return true;
"#;

/// What the live region says and where the focus is: `{announcer, inCard, active}`.
pub const QUIET_JS: &str = r#"
var a = document.querySelector('.chat-announcer');
var el = document.activeElement;
return {
  announcer: a ? (a.textContent || '').trim() : null,
  inCard: !!(el && el.closest && el.closest('.chat-card')),
  active: el ? (el.tagName + ' ' + (el.className || '') + ' ' + (el.id || '')) : ''
};
"#;

/// `[question, answer]` of every answer row of a settled question card.
pub const ANSWERS_JS: &str = r#"
return Array.from(document.querySelectorAll('.chat-card__answers li')).map(function (li) {
  var q = li.querySelector('.chat-card__answer-q');
  var a = li.querySelector('.chat-card__answer-a');
  return [q ? (q.textContent || '').trim() : '', a ? (a.textContent || '').trim() : ''];
});
"#;

/// The axe-core rule tags the page must pass: WCAG 2.0, 2.1 and 2.2, levels A and AA.
pub const AXE_TAGS: [&str; 5] = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
/// axe-core's browser build, relative to the workspace root (npm devDependency pinned in
/// package.json, installed by `cargo xtask setup` with `npm ci`).
pub const AXE_SCRIPT: &str = "node_modules/axe-core/axe.min.js";
/// Upper bound of one accessibility journey (many stops, an axe-core run at each).
pub const A11Y_JOURNEY_TIMEOUT: Duration = Duration::from_secs(240);
/// Longest HTML snippet of a failing node quoted in a finding.
pub const SNIPPET_CHARS: usize = 300;

/// Runs axe-core on the document with the rule tags `arguments[0]` and calls back with
/// `{violations: [{id, impact, help, helpUrl, nodes: [{target, html, summary}]}]}`, or
/// `{error}`. No rule is disabled: every rule with one of these tags counts.
pub const AXE_RUN_JS: &str = r#"
var tags = arguments[0];
var done = arguments[arguments.length - 1];
window.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] })
  .then(function (r) {
    done({ violations: r.violations.map(function (v) {
      return {
        id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl,
        nodes: v.nodes.map(function (n) {
          return { target: n.target.map(String), html: n.html, summary: n.failureSummary || '' };
        })
      };
    }) });
  })
  .catch(function (e) { done({ error: String((e && e.stack) || e) }); });
"#;

/// Calls back after two animation frames (the next one painted).
pub const TWO_FRAMES_JS: &str = r#"
var done = arguments[arguments.length - 1];
requestAnimationFrame(function () { requestAnimationFrame(function () { done(true); }); });
"#;

/// How many finite CSS animations and transitions are still running (fade-ins, slides);
/// endless ones (the streaming cursor, spinners) are not counted.
pub const RUNNING_ANIMATIONS_JS: &str = r#"
return document.getAnimations().filter(function (a) {
  var timing = a.effect && a.effect.getComputedTiming();
  return a.playState === 'running' && timing && isFinite(timing.endTime);
}).length;
"#;

/// `data-action-id` of every element matching `arguments[0]`, in document order.
pub const ACTION_IDS_JS: &str = r#"
return Array.from(document.querySelectorAll(arguments[0])).map(function (e) {
  return e.getAttribute('data-action-id') || '';
});
"#;

/// The message list's geometry: `{count, scrollTop, scrollHeight, clientHeight, firstId,
/// firstTop, lastId, lastVisible}`; `firstTop` is the first row's offset from the list's top.
pub const LIST_JS: &str = r#"
var list = document.querySelector('.chat-message-list');
if (!list) { return null; }
var rows = list.querySelectorAll('article.chat-message');
var box = list.getBoundingClientRect();
var first = rows[0], last = rows[rows.length - 1];
var lastBox = last ? last.getBoundingClientRect() : null;
return {
  count: rows.length, scrollTop: list.scrollTop, scrollHeight: list.scrollHeight,
  clientHeight: list.clientHeight,
  firstId: first ? first.getAttribute('data-message-id') : null,
  firstTop: first ? first.getBoundingClientRect().top - box.top : null,
  lastId: last ? last.getAttribute('data-message-id') : null,
  lastVisible: !!lastBox && lastBox.bottom <= box.bottom + 1 && lastBox.bottom > box.top,
  numbers: Array.prototype.map.call(rows, function (r) {
    var m = /Message (\d+)/.exec(r.textContent || '');
    return m ? Number(m[1]) : null;
  })
};
"#;

/// The JavaScript function `firstRowOnScreen(list)`: the first message row on screen in the
/// message list and its offset from the list's top, `{id, top}`, or null when none is (the
/// list draws only the rows near the view, D58: right after a jump a spacer may be in view).
macro_rules! first_row_js {
    () => {
        r#"
function firstRowOnScreen(list) {
  var box = list.getBoundingClientRect();
  var rows = list.querySelectorAll('article.chat-message');
  for (var i = 0; i < rows.length; i++) {
    var r = rows[i].getBoundingClientRect();
    if (r.bottom > box.top && r.top < box.bottom) {
      return { id: rows[i].getAttribute('data-message-id'), top: r.top - box.top };
    }
  }
  return null;
}
"#
    };
}

/// Scrolls the message list by `arguments[0]` px (negative = up; `null` = to the very top)
/// and returns, read in the same task (before the page can react), the first row on screen
/// as `firstRowOnScreen` reads it.
pub const SCROLL_LIST_JS: &str = concat!(
    first_row_js!(),
    r#"
var list = document.querySelector('.chat-message-list');
if (!list) { return null; }
if (arguments[0] === null) { list.scrollTop = 0; } else { list.scrollTop += arguments[0]; }
return firstRowOnScreen(list);
"#
);

/// Scrolls the message list to its very top, then, all in the page (no WebDriver round trip
/// between the reads, which a busy machine makes slow): the first row on screen two frames
/// later (`a`) and two frames after that (`b`), each as `firstRowOnScreen` reads it, and
/// whether the older-messages row is shown (`older`) and loading (`loading`).
pub const SETTLE_AT_TOP_JS: &str = concat!(
    first_row_js!(),
    r#"
var done = arguments[arguments.length - 1];
var list = document.querySelector('.chat-message-list');
if (!list) { done(null); return; }
function frames(n, then) {
  if (n === 0) { then(); } else { requestAnimationFrame(function () { frames(n - 1, then); }); }
}
list.scrollTop = 0;
frames(2, function () {
  var a = firstRowOnScreen(list);
  frames(2, function () {
    var b = firstRowOnScreen(list);
    var older = list.querySelector('.chat-older');
    done({ a: a, b: b, older: !!older,
           loading: !!older && older.getAttribute('data-loading') === 'true' });
  });
});
"#
);

/// Offset of the row `data-message-id = arguments[0]` from the list's top, or null.
pub const ROW_TOP_JS: &str = r#"
var list = document.querySelector('.chat-message-list');
var row = list && list.querySelector('article.chat-message[data-message-id="' + arguments[0] + '"]');
return row ? row.getBoundingClientRect().top - list.getBoundingClientRect().top : null;
"#;

/// Describes `document.activeElement`: `{matches: arguments[0], inCard, ring, desc, style}`.
/// `ring`: a computed outline (style not `none`, width above 0, or `auto`) or a box-shadow.
pub const FOCUS_JS: &str = r#"
var el = document.activeElement;
if (!el) { return { matches: false, inCard: false, ring: false, desc: '(nothing)', style: '' }; }
var cs = getComputedStyle(el);
var cls = typeof el.className === 'string' && el.className.trim()
  ? '.' + el.className.trim().split(/\s+/).join('.') : '';
var type = el.getAttribute('type') ? '[type=' + el.getAttribute('type') + ']' : '';
var value = el.tagName === 'INPUT' && el.getAttribute('value') ? '[value=' + el.getAttribute('value') + ']' : '';
var text = (el.getAttribute('aria-label') || (el.tagName === 'SECTION' ? '' : el.textContent) || '')
  .trim().replace(/\s+/g, ' ').slice(0, 40);
var outline = cs.outlineStyle !== 'none' && (cs.outlineStyle === 'auto' || parseFloat(cs.outlineWidth) > 0);
var shadow = !!cs.boxShadow && cs.boxShadow !== 'none';
return {
  matches: el.matches(arguments[0]),
  inCard: !!el.closest('.chat-card'),
  ring: outline || shadow,
  desc: el.tagName.toLowerCase() + cls + type + value + (text ? ' "' + text + '"' : ''),
  style: 'outline: ' + cs.outlineStyle + ' ' + cs.outlineWidth + ' ' + cs.outlineColor +
    '; box-shadow: ' + cs.boxShadow + '; :focus-visible ' + el.matches(':focus-visible')
};
"#;

/// The two colour themes of the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Theme {
    /// The default (no `theme=` in the query).
    Dark,
    /// `theme=light`.
    Light,
}

impl Theme {
    /// The query prefix that selects the theme (`""` for the default).
    pub fn query(self) -> &'static str {
        match self {
            Theme::Dark => "",
            Theme::Light => "theme=light&",
        }
    }

    /// How findings name it.
    pub fn label(self) -> &'static str {
        match self {
            Theme::Dark => "dark (default)",
            Theme::Light => "light",
        }
    }
}

/// `document.activeElement` as the keyboard journeys see it.
#[derive(Debug, Clone)]
pub struct Focus {
    /// It matches the selector asked about.
    pub matches: bool,
    /// It is a card or inside one.
    pub in_card: bool,
    /// It shows a focus ring (outline or box-shadow).
    pub ring: bool,
    /// Tag, classes, type, value and text, for messages.
    pub element: String,
    /// Its computed outline and box-shadow, for messages.
    pub style: String,
}

/// The axe-core findings of one journey, stop by stop. A violation does not stop the journey,
/// so every state is audited; [`AxeAudit::verdict`] fails with the whole list, one entry per
/// rule and failing element, naming every stop it was seen at.
pub struct AxeAudit {
    /// Theme and locale of the journey, named in the verdict.
    context: String,
    /// The stops audited so far.
    stops: Vec<String>,
    /// Distinct findings, in the order first seen.
    findings: Vec<Finding>,
}

/// One rule failing on one element (its selector with server ids left out), wherever seen.
pub struct Finding {
    /// axe rule id (`color-contrast`).
    rule: String,
    /// `minor` … `critical`.
    impact: String,
    /// The rule's one-line help and its documentation URL.
    help: String,
    /// axe's selector of the failing element, action and message ids replaced by `…`.
    target: String,
    /// The failing element's HTML (start), as first seen.
    html: String,
    /// axe's summary of what to fix, as first seen.
    fix: String,
    /// The stops it was seen at.
    stops: Vec<String>,
}

impl AxeAudit {
    /// An empty audit for `context` (`"light"`, `"dark (default)"`, …).
    pub fn new(context: &str) -> Self {
        AxeAudit {
            context: context.to_owned(),
            stops: Vec::new(),
            findings: Vec::new(),
        }
    }

    /// Waits until no (finite) CSS animation or transition runs, so the page is audited as it
    /// is and not half faded in, then runs axe-core and records its violations under `stop`.
    /// Fails only when the page does not settle or axe-core itself could not run.
    pub async fn check(&mut self, page: &ChatPage, stop: &str) -> Step {
        page.wait_for_animations_to_finish().await?;
        let started = Instant::now();
        let violations = page
            .axe_violations()
            .await
            .map_err(|e| format!("[{} | {stop}] {e}", self.context))?;
        println!(
            "axe [{} | {stop}]: {} violation(s) in {} ms",
            self.context,
            violations.len(),
            started.elapsed().as_millis()
        );
        for v in &violations {
            self.record(stop, v);
        }
        self.stops.push(stop.to_owned());
        Ok(())
    }

    /// Adds each failing node of the violation `v` seen at `stop`.
    fn record(&mut self, stop: &str, v: &Value) {
        let text = |value: &Value| value.as_str().unwrap_or("?").to_owned();
        for node in v["nodes"].as_array().map(Vec::as_slice).unwrap_or_default() {
            let target: Vec<String> = node["target"]
                .as_array()
                .map(|t| {
                    t.iter()
                        .filter_map(Value::as_str)
                        .map(without_ids)
                        .collect()
                })
                .unwrap_or_default();
            let target = target.join(" >> ");
            let rule = text(&v["id"]);
            if let Some(known) = self
                .findings
                .iter_mut()
                .find(|f| f.rule == rule && f.target == target)
            {
                if known.stops.last().map(String::as_str) != Some(stop) {
                    known.stops.push(stop.to_owned());
                }
                continue;
            }
            self.findings.push(Finding {
                rule,
                impact: text(&v["impact"]),
                help: format!("{} <{}>", text(&v["help"]), text(&v["helpUrl"])),
                target,
                html: text(&node["html"]).chars().take(SNIPPET_CHARS).collect(),
                fix: text(&node["summary"])
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" "),
                stops: vec![stop.to_owned()],
            });
        }
    }

    /// `Ok` when no stop had a violation; otherwise every finding with the stops it was seen at.
    pub fn verdict(self) -> Step {
        let stops = self.stops.join("; ");
        if self.findings.is_empty() {
            println!(
                "axe [{}]: no violations at {} stops: {stops}",
                self.context,
                self.stops.len()
            );
            return Ok(());
        }
        let list: Vec<String> = self
            .findings
            .iter()
            .enumerate()
            .map(|(i, f)| {
                format!(
                    "  {}. {} ({}): {}\n       target {}\n       html   {}\n       fix    {}\n       seen   {}",
                    i + 1,
                    f.rule,
                    f.impact,
                    f.help,
                    f.target,
                    f.html,
                    f.fix,
                    f.stops.join("; ")
                )
            })
            .collect();
        Err(format!(
            "axe-core ({}), theme/locale {}: {} violating element(s) over {} stops ({stops}):\n{}",
            AXE_TAGS.join(", "),
            self.context,
            self.findings.len(),
            self.stops.len(),
            list.join("\n")
        ))
    }
}

/// An axe selector with the server's action and message ids (`act_…`, `msg_…`) replaced by
/// `…`, so the same element of different cards or messages counts once.
pub fn without_ids(selector: &str) -> String {
    let mut out = String::with_capacity(selector.len());
    let mut rest = selector;
    while let Some(at) = ["act_", "msg_"].iter().filter_map(|p| rest.find(p)).min() {
        out.push_str(&rest[..at + 4]);
        out.push('…');
        let tail = &rest[at + 4..];
        let end = tail
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .unwrap_or(tail.len());
        // Keep a suffix like `-title` that the UI adds to an id.
        let id = &tail[..end];
        let suffix = ["-title"]
            .iter()
            .find(|s| id.ends_with(*s))
            .copied()
            .unwrap_or("");
        out.push_str(suffix);
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

/// The text of [`AXE_SCRIPT`], read once; an error says how to install it.
pub fn axe_source() -> Step<&'static str> {
    static SOURCE: OnceLock<Result<String, String>> = OnceLock::new();
    SOURCE
        .get_or_init(|| {
            let path = workspace_root().join(AXE_SCRIPT);
            std::fs::read_to_string(&path).map_err(|e| {
                format!(
                    "reading {}: {e} (run `cargo xtask setup` or `npm ci` in the workspace root)",
                    path.display()
                )
            })
        })
        .as_deref()
        .map_err(Clone::clone)
}

// ---------------------------------------------------------------------------------------------
// Page object
// ---------------------------------------------------------------------------------------------

/// One message bubble as the user sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// `data-role`: `user`, `assistant`, ….
    pub role: String,
    /// `data-streaming="true"`: the reply is still arriving.
    pub streaming: bool,
    /// Text of `.chat-message__content`, trimmed.
    pub text: String,
}

/// One E14 request as the dev-server logged it (`GET /api/agents/_dev/resolutions`).
#[derive(Debug, Clone, PartialEq)]
pub struct Received {
    /// The action the answer was posted to.
    pub action_id: String,
    /// The request body's `resolution`, exactly as the page posted it.
    pub resolution: Value,
    /// The request body's `version`, exactly as the page posted it (`Null` when absent).
    pub version: Value,
    /// HTTP status the server answered; `None` while it is still handling the request.
    pub status: Option<u16>,
    /// The request body's `decisionKey` (`Null` when absent).
    pub decision_key: Value,
}

/// One browser console entry (chromedriver's `browser` log).
#[derive(Debug, Clone)]
pub struct ConsoleEntry {
    /// `SEVERE`, `WARNING`, `INFO`, `DEBUG`.
    pub level: String,
    /// The logged text, prefixed by Chromium with the source location.
    pub message: String,
}

/// The chat page as a user drives it: open, pick an agent, type, read replies, reload.
///
/// Every method waits (up to [`WAIT`]) for what it needs and fails with the selector or
/// condition that did not show up, so a journey reads as a list of user steps.
pub struct ChatPage {
    /// The WebDriver session.
    pub client: Client,
    /// `http://127.0.0.1:PORT/` of the in-process dev-server.
    base_url: String,
    /// chromedriver's own URL, for the console log endpoint fantoccini lacks.
    driver_url: String,
    /// Plain HTTP client for that endpoint.
    http: reqwest::Client,
}

impl ChatPage {
    /// Opens the standalone page and waits until the chat is rendered.
    pub async fn open(&self) -> Step {
        self.open_with_query("").await
    }

    /// Opens the page with a query string (`"agentId=echo&lang=de"`, without `?`).
    pub async fn open_with_query(&self, query: &str) -> Step {
        let url = if query.is_empty() {
            self.base_url.clone()
        } else {
            format!("{}?{query}", self.base_url)
        };
        self.client
            .goto(&url)
            .await
            .map_err(|e| format!("opening {url}: {e}"))?;
        self.wait_until_rendered().await
    }

    /// Reloads the page like F5 and waits until the chat is rendered again.
    pub async fn reload(&self) -> Step {
        self.client
            .refresh()
            .await
            .map_err(|e| format!("reloading: {e}"))?;
        self.wait_until_rendered().await
    }

    /// Waits for `.chat-root`; its absence means the app never mounted (blank page).
    pub async fn wait_until_rendered(&self) -> Step {
        self.wait_for_visible(sel::ROOT)
            .await
            .map_err(|e| format!("the page stayed blank (the app did not mount): {e}"))
    }

    /// Opens the agent picker and chooses the agent with `data-agent-id = agent_id`.
    pub async fn pick_agent(&self, agent_id: &str) -> Step {
        self.click(sel::AGENT_TOGGLE).await?;
        self.click(&sel::agent_option(agent_id)).await
    }

    /// Types `text` into the composer and presses Enter to send it.
    pub async fn send_message(&self, text: &str) -> Step {
        let textarea = self
            .wait_until(&format!("`{}` to be open", sel::TEXTAREA), async || {
                let el = self
                    .client
                    .find(Locator::Css(sel::TEXTAREA))
                    .await
                    .map_err(miss)?;
                match composer_open(&el).await {
                    Ok(true) => Ok(el),
                    Ok(false) => Err("present but closed".to_owned()),
                    Err(e) => Err(e),
                }
            })
            .await?;
        textarea
            .click()
            .await
            .map_err(|e| format!("focusing `{}`: {e}", sel::TEXTAREA))?;
        textarea
            .send_keys(text)
            .await
            .map_err(|e| format!("typing into `{}`: {e}", sel::TEXTAREA))?;
        textarea
            .send_keys(&Key::Enter.to_string())
            .await
            .map_err(|e| format!("pressing Enter in `{}`: {e}", sel::TEXTAREA))
    }

    /// Every message bubble, in document order.
    pub async fn messages(&self) -> Step<Vec<Message>> {
        let value = self
            .client
            .execute(MESSAGES_JS, vec![])
            .await
            .map_err(|e| format!("reading messages: {e}"))?;
        let list = value
            .as_array()
            .ok_or_else(|| format!("reading messages: unexpected {value}"))?;
        Ok(list
            .iter()
            .map(|m| Message {
                role: m["role"].as_str().unwrap_or_default().to_owned(),
                streaming: m["streaming"].as_bool().unwrap_or_default(),
                text: m["text"].as_str().unwrap_or_default().to_owned(),
            })
            .collect())
    }

    /// Waits until a message with `role` whose text contains `text` is shown.
    pub async fn wait_for_message(&self, role: &str, text: &str) -> Step<Message> {
        let what = format!("`article.chat-message[data-role=\"{role}\"]` containing {text:?}");
        self.wait_until(&what, async || {
            let messages = self.messages().await?;
            messages
                .iter()
                .find(|m| m.role == role && m.text.contains(text))
                .cloned()
                .ok_or_else(|| describe(&messages))
        })
        .await
    }

    /// Waits until an assistant reply containing `text` is shown and no message is still
    /// streaming (`article.chat-message[data-streaming="true"]` gone).
    pub async fn wait_for_finished_reply_containing(&self, text: &str) -> Step<Message> {
        let what = format!(
            "`article.chat-message[data-role=\"assistant\"]` containing {text:?} \
             and no `article.chat-message[data-streaming=\"true\"]`"
        );
        self.wait_until(&what, async || {
            let messages = self.messages().await?;
            let reply = messages
                .iter()
                .find(|m| m.role == "assistant" && m.text.contains(text));
            match reply {
                Some(reply) if !messages.iter().any(|m| m.streaming) => Ok(reply.clone()),
                _ => Err(describe(&messages)),
            }
        })
        .await
    }

    /// The address bar.
    pub async fn url(&self) -> Step<String> {
        self.client
            .current_url()
            .await
            .map(|u| u.to_string())
            .map_err(|e| format!("reading the URL: {e}"))
    }

    /// Waits until the address bar contains `part` (the app updates it asynchronously).
    pub async fn wait_for_url_containing(&self, part: &str) -> Step<String> {
        self.wait_until(&format!("the URL to contain {part:?}"), async || {
            let url = self.url().await?;
            if url.contains(part) {
                Ok(url)
            } else {
                Err(format!("URL is {url}"))
            }
        })
        .await
    }

    /// Clicks the element matching `css` once it is visible and clickable (retried, since
    /// a just-opened popover may still be moving or covered).
    pub async fn click(&self, css: &str) -> Step {
        self.wait_until(&format!("`{css}` to be clickable"), async || {
            let el = self.client.find(Locator::Css(css)).await.map_err(miss)?;
            el.click().await.map_err(|e| e.to_string())
        })
        .await
    }

    /// Clicks the element matching `css`, then types `text` into it (an input of a card).
    pub async fn type_into(&self, css: &str, text: &str) -> Step {
        self.click(css).await?;
        let el = self.client.find(Locator::Css(css)).await.map_err(miss)?;
        el.send_keys(text)
            .await
            .map_err(|e| format!("typing into `{css}`: {e}"))
    }

    /// The `data-action-id` of the card matching `css`.
    pub async fn action_id(&self, css: &str) -> Step<String> {
        self.wait_until(&format!("`{css}` with a `data-action-id`"), async || {
            let el = self.client.find(Locator::Css(css)).await.map_err(miss)?;
            match el.attr("data-action-id").await {
                Ok(Some(id)) if !id.is_empty() => Ok(id),
                Ok(_) => Err("no data-action-id".to_owned()),
                Err(e) => Err(e.to_string()),
            }
        })
        .await
    }

    /// Opens the page in English, picks `agent`, sends `text` and waits for the approval card
    /// the turn pauses with; returns its action id.
    pub async fn paused_approval(&self, agent: &str, text: &str) -> Step<String> {
        self.open_with_query("lang=en").await?;
        self.pick_agent(agent).await?;
        self.send_message(text).await?;
        let card = sel::card("tool_approval", "waiting");
        self.wait_for_visible(&card).await?;
        self.action_id(&card).await
    }

    /// The `data-action-id`s of every element matching `css`, in document order.
    pub async fn action_ids(&self, css: &str) -> Step<Vec<String>> {
        let found = self
            .client
            .find_all(Locator::Css(css))
            .await
            .map_err(|e| format!("finding `{css}`: {e}"))?;
        let mut ids = Vec::new();
        for el in found {
            match el.attr("data-action-id").await {
                Ok(Some(id)) if !id.is_empty() => ids.push(id),
                _ => return Err(format!("`{css}` without a data-action-id")),
            }
        }
        Ok(ids)
    }

    /// Clicks "Edit arguments" on the approval card and waits for the JSON editor.
    pub async fn open_argument_editor(&self) -> Step {
        self.click(sel::EDIT_ARGUMENTS).await?;
        self.wait_for_visible(sel::EDITOR).await
    }

    /// Replaces the whole text of the open argument editor with `text`.
    pub async fn edit_arguments(&self, text: &str) -> Step {
        self.set_value(sel::EDITOR, text).await
    }

    /// Replaces the value of the field matching `css` and fires `input`, as typing would.
    pub async fn set_value(&self, css: &str, text: &str) -> Step {
        self.wait_until(&format!("`{css}` to take a new value"), async || {
            let done = self
                .client
                .execute(SET_VALUE_JS, vec![json!(css), json!(text)])
                .await
                .map_err(|e| e.to_string())?;
            if done == json!(true) {
                Ok(())
            } else {
                Err("no element matches".to_owned())
            }
        })
        .await
    }

    /// Trimmed text of every element matching `css`, in document order.
    pub async fn texts(&self, css: &str) -> Step<Vec<String>> {
        let value = self
            .client
            .execute(TEXTS_JS, vec![json!(css)])
            .await
            .map_err(|e| format!("reading `{css}`: {e}"))?;
        serde_json::from_value(value).map_err(|e| format!("reading `{css}`: {e}"))
    }

    /// Waits until an element matching `css` shows a text containing `text`; returns it.
    pub async fn wait_for_text(&self, css: &str, text: &str) -> Step<String> {
        self.wait_until(&format!("`{css}` containing {text:?}"), async || {
            let texts = self.texts(css).await?;
            texts
                .iter()
                .find(|t| t.contains(text))
                .cloned()
                .ok_or_else(|| format!("texts {texts:?}"))
        })
        .await
    }

    /// Waits until exactly `n` elements match `css` (0: until it is gone).
    pub async fn wait_for_count(&self, css: &str, n: usize) -> Step {
        self.wait_until(&format!("exactly {n} `{css}`"), async || {
            let texts = self.texts(css).await?;
            if texts.len() == n {
                Ok(())
            } else {
                Err(format!("{} of them: {texts:?}", texts.len()))
            }
        })
        .await
    }

    /// Waits until the card lists exactly one problem per entry of `expected`, each containing
    /// its entry (in any order); `&[]` waits until no problem is listed.
    pub async fn wait_for_problems(&self, expected: &[&str]) -> Step {
        self.wait_until(&format!("the problems {expected:?}"), async || {
            let texts = self.texts(sel::PROBLEMS).await?;
            let all_found = expected
                .iter()
                .all(|want| texts.iter().any(|t| t.contains(want)));
            if texts.len() == expected.len() && all_found {
                Ok(())
            } else {
                Err(format!("`{}` {texts:?}", sel::PROBLEMS))
            }
        })
        .await
    }

    /// Waits until the control matching `css` is enabled (`true`) or disabled (`false`).
    pub async fn wait_for_enabled(&self, css: &str, enabled: bool) -> Step {
        let what = if enabled { "enabled" } else { "disabled" };
        self.wait_until(&format!("`{css}` to be {what}"), async || {
            let el = self.client.find(Locator::Css(css)).await.map_err(miss)?;
            match el.is_enabled().await {
                Ok(now) if now == enabled => Ok(()),
                Ok(now) => Err(format!("enabled = {now}")),
                Err(e) => Err(e.to_string()),
            }
        })
        .await
    }

    /// Waits until the checkbox or radio button matching `css` is (un)checked.
    pub async fn wait_for_checked(&self, css: &str, checked: bool) -> Step {
        let what = if checked { "checked" } else { "unchecked" };
        self.wait_until(&format!("`{css}` to be {what}"), async || {
            let el = self.client.find(Locator::Css(css)).await.map_err(miss)?;
            match el.is_selected().await {
                Ok(now) if now == checked => Ok(()),
                Ok(now) => Err(format!("checked = {now}")),
                Err(e) => Err(e.to_string()),
            }
        })
        .await
    }

    /// Waits until the element matching `css` has the attribute `name` equal to `value`.
    pub async fn wait_for_attribute(&self, css: &str, name: &str, value: &str) -> Step {
        self.wait_until(&format!("`{css}` with {name}={value:?}"), async || {
            let el = self.client.find(Locator::Css(css)).await.map_err(miss)?;
            match el.attr(name).await {
                Ok(Some(now)) if now == value => Ok(()),
                Ok(now) => Err(format!("{name} = {now:?}")),
                Err(e) => Err(e.to_string()),
            }
        })
        .await
    }

    /// The open conversation's id, from the address bar (the page keeps it there).
    pub async fn conversation_id(&self) -> Step<String> {
        let url = self.wait_for_url_containing("conversationId=").await?;
        let url = reqwest::Url::parse(&url).map_err(|e| format!("parsing the URL {url}: {e}"))?;
        url.query_pairs()
            .find(|(k, _)| k == "conversationId")
            .map(|(_, v)| v.into_owned())
            .filter(|v| !v.is_empty())
            .ok_or_else(|| format!("no conversationId in {url}"))
    }

    /// Every answer (E14 request) the server received for the open conversation, in order.
    pub async fn received(&self) -> Step<Vec<Received>> {
        let conversation = self.conversation_id().await?;
        let url = format!(
            "{}api/agents/_dev/resolutions?conversationId={conversation}",
            self.base_url
        );
        let body: Value = self
            .http
            .get(&url)
            .send()
            .await
            .and_then(reqwest::Response::error_for_status)
            .map_err(|e| format!("GET {url}: {e}"))?
            .json()
            .await
            .map_err(|e| format!("GET {url}: {e}"))?;
        let list = body["resolutions"]
            .as_array()
            .ok_or_else(|| format!("GET {url}: unexpected {body}"))?;
        Ok(list
            .iter()
            .map(|r| Received {
                action_id: r["actionId"].as_str().unwrap_or_default().to_owned(),
                resolution: r["resolution"].clone(),
                version: r["version"].clone(),
                status: r["status"].as_u64().and_then(|s| u16::try_from(s).ok()),
                decision_key: r["decisionKey"].clone(),
            })
            .collect())
    }

    /// Waits until the server has answered as many E14 requests of the open conversation as
    /// `resolutions` has entries, then checks that they went to `action_id`, were accepted
    /// (200) and carried exactly these `resolution` objects, in this order.
    pub async fn expect_received(&self, action_id: &str, resolutions: &[Value]) -> Step {
        let expected: Vec<(&str, Value, u16)> = resolutions
            .iter()
            .map(|r| (action_id, r.clone(), 200))
            .collect();
        self.expect_log(&expected).await
    }

    /// Waits until the server has answered as many E14 requests of the open conversation as
    /// `expected` has entries, then checks that exactly these arrived, in this order: each
    /// `(action id, resolution as posted, HTTP status answered)`; the posted `version` is not
    /// compared (see [`ChatPage::expect_versioned_log`]).
    pub async fn expect_log(&self, expected: &[(&str, Value, u16)]) -> Step {
        let got = self.answered(expected.len()).await?;
        let got: Vec<Received> = got
            .into_iter()
            .map(|r| Received {
                version: Value::Null,
                decision_key: Value::Null,
                ..r
            })
            .collect();
        let expected: Vec<Received> = expected
            .iter()
            .map(|(action_id, resolution, status)| Received {
                action_id: (*action_id).to_owned(),
                resolution: resolution.clone(),
                version: Value::Null,
                status: Some(*status),
                decision_key: Value::Null,
            })
            .collect();
        same_log(&expected, &got)
    }

    /// [`ChatPage::expect_log`] that also compares the `version` each request posted: each
    /// `(action id, resolution as posted, version as posted, HTTP status answered)`.
    pub async fn expect_versioned_log(&self, expected: &[(&str, Value, u64, u16)]) -> Step {
        let got: Vec<Received> = self
            .answered(expected.len())
            .await?
            .into_iter()
            .map(|r| Received {
                decision_key: Value::Null,
                ..r
            })
            .collect();
        let expected: Vec<Received> = expected
            .iter()
            .map(|(action_id, resolution, version, status)| Received {
                action_id: (*action_id).to_owned(),
                resolution: resolution.clone(),
                version: json!(version),
                status: Some(*status),
                decision_key: Value::Null,
            })
            .collect();
        same_log(&expected, &got)
    }

    /// The `decisionKey` of every answer the server received for the open conversation, in
    /// order, once at least `n` were answered (issue 14).
    pub async fn decision_keys(&self, n: usize) -> Step<Vec<Value>> {
        Ok(self
            .answered(n)
            .await?
            .into_iter()
            .map(|r| r.decision_key)
            .collect())
    }

    /// Waits until the server has answered at least `n` E14 requests of the open conversation;
    /// all of them, in order.
    async fn answered(&self, n: usize) -> Step<Vec<Received>> {
        self.wait_until(&format!("{n} answered E14 request(s)"), async || {
            let got = self.received().await?;
            if got.len() >= n && got.iter().all(|r| r.status.is_some()) {
                Ok(got)
            } else {
                Err(show(&got))
            }
        })
        .await
    }

    /// Checks that the server received no answer at all for the open conversation.
    pub async fn expect_nothing_received(&self) -> Step {
        let got = self.received().await?;
        if got.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "the page answered although it must not: {}",
                show(&got)
            ))
        }
    }

    /// Waits until an element matching `css` exists and is displayed.
    pub async fn wait_for_visible(&self, css: &str) -> Step {
        self.wait_until(&format!("`{css}` to be visible"), async || {
            let el = self.client.find(Locator::Css(css)).await.map_err(miss)?;
            match el.is_displayed().await {
                Ok(true) => Ok(()),
                Ok(false) => Err("present but hidden".to_owned()),
                Err(e) => Err(e.to_string()),
            }
        })
        .await
    }

    // ----- deadlines, errors, the composer, restored cards -----------------------------------

    /// Waits until the countdown of the (only) waiting card reads "Expires in N <unit>" with
    /// N in `range` (`unit` "second", "minute" or "hour", singular or plural) and is amber
    /// (`data-warning="true"`) exactly when `warning`; returns N.
    pub async fn wait_for_countdown(
        &self,
        unit: &str,
        range: std::ops::RangeInclusive<u64>,
        warning: bool,
    ) -> Step<u64> {
        let what = format!(
            "`{}` reading \"Expires in {}..={} {unit}(s)\" with data-warning={warning}",
            sel::COUNTDOWN,
            range.start(),
            range.end()
        );
        self.wait_until(&what, async || {
            let value = self
                .client
                .execute(COUNTDOWN_JS, vec![json!(sel::COUNTDOWN)])
                .await
                .map_err(|e| e.to_string())?;
            let text = value["text"].as_str().ok_or("no element matches")?;
            let amber = value["warning"].as_str() == Some("true");
            let n = text
                .strip_prefix("Expires in ")
                .and_then(|rest| rest.split_once(' '))
                .filter(|(_, word)| word.trim_end_matches('s') == unit)
                .and_then(|(n, _)| n.parse::<u64>().ok());
            match n {
                Some(n) if range.contains(&n) && amber == warning => Ok(n),
                _ => Err(format!("{text:?}, data-warning={amber}")),
            }
        })
        .await
    }

    /// Waits until the error banner (`.chat-error[role=alert]`) shows a text containing `text`.
    pub async fn wait_for_error(&self, text: &str) -> Step {
        self.wait_for_text(sel::ERROR_TEXT, text).await.map(drop)
    }

    /// Starts recording every text the error banner shows from now on (until the next page
    /// load), for [`ChatPage::expect_no_error_seen`].
    pub async fn watch_errors(&self) -> Step {
        self.client
            .execute(WATCH_ERRORS_JS, vec![json!(".chat-error")])
            .await
            .map(drop)
            .map_err(|e| format!("watching `.chat-error`: {e}"))
    }

    /// Records every stage (`data-state`) the card of `action_id` goes through from now on,
    /// however briefly (a `MutationObserver`); read them with [`ChatPage::recorded_stages`].
    pub async fn record_stages(&self, action_id: &str) -> Step {
        self.client
            .execute(
                r#"
const id = arguments[0];
window.__e2eStages = [];
const push = (s) => {
  const list = window.__e2eStages;
  if (s && list[list.length - 1] !== s) { list.push(s); }
};
const isCard = (n) => n.nodeType === 1 && n.matches('.chat-card') && n.getAttribute('data-action-id') === id;
// Records are delivered in batches: a stage the card left within the batch is the old value
// of the next change.
const note = (records) => {
  for (const r of records || []) {
    if (r.type === 'attributes' && isCard(r.target)) { push(r.oldValue); }
  }
  const card = document.querySelector(`.chat-card[data-action-id="${CSS.escape(id)}"]`);
  push(card && card.getAttribute('data-state'));
};
note();
new MutationObserver(note).observe(document.body, { subtree: true, childList: true,
  attributes: true, attributeOldValue: true, attributeFilter: ['data-state'] });
"#,
                vec![json!(action_id)],
            )
            .await
            .map(drop)
            .map_err(|e| format!("watching the card's stages: {e}"))
    }

    /// The stages recorded since [`ChatPage::record_stages`], in order, repeats collapsed.
    pub async fn recorded_stages(&self) -> Step<Vec<String>> {
        let seen = self
            .client
            .execute("return window.__e2eStages || [];", vec![])
            .await
            .map_err(|e| format!("reading the recorded stages: {e}"))?;
        Ok(seen
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect())
    }

    /// How many times the server really ran the tool of `action_id` (`GET /_dev/executions`).
    pub async fn executions(&self, action_id: &str) -> Step<u64> {
        let v = self
            .api_get(&format!("/_dev/executions?actionId={action_id}"))
            .await?;
        v["count"]
            .as_u64()
            .ok_or_else(|| format!("no count in {v}"))
    }

    /// Checks that no error banner was shown since [`ChatPage::watch_errors`], not even briefly.
    pub async fn expect_no_error_seen(&self) -> Step {
        let seen = self
            .client
            .execute("return window.__e2eErrors || null;", vec![])
            .await
            .map_err(|e| format!("reading the recorded errors: {e}"))?;
        match seen.as_array() {
            Some(list) if list.is_empty() => self.wait_for_count(".chat-error", 0).await,
            Some(_) => Err(format!("the page showed an error: {seen}")),
            None => Err("errors were not being watched (call watch_errors first)".to_owned()),
        }
    }

    /// Waits until the composer is free: `form.chat-input[data-state="normal"]` with an
    /// open textarea.
    pub async fn wait_for_composer_free(&self) -> Step {
        self.wait_for_visible(&sel::composer_in("normal")).await?;
        self.wait_for_composer_open(true).await
    }

    /// Waits until the composer's textarea takes typing (`true`) or is closed (`false`). Closed
    /// is `readonly` with `aria-disabled="true"` while a card waits in block mode (issue 13:
    /// not `disabled`, so the focus and the text stay), or `disabled`.
    pub async fn wait_for_composer_open(&self, open: bool) -> Step {
        let what = if open { "open" } else { "closed" };
        self.wait_until(&format!("`{}` to be {what}", sel::TEXTAREA), async || {
            let el = self
                .client
                .find(Locator::Css(sel::TEXTAREA))
                .await
                .map_err(miss)?;
            match composer_open(&el).await? {
                now if now == open => Ok(()),
                now => Err(format!("open = {now}")),
            }
        })
        .await
    }

    /// What the composer holds (the textarea's value).
    pub async fn composer_text(&self) -> Step<String> {
        let value = self
            .client
            .execute(VALUE_JS, vec![json!(sel::TEXTAREA)])
            .await
            .map_err(|e| format!("reading `{}`: {e}", sel::TEXTAREA))?;
        value
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| format!("no `{}`", sel::TEXTAREA))
    }

    /// Waits until the composer holds exactly `text` (a refused message comes back to it).
    pub async fn wait_for_composer_text(&self, text: &str) -> Step {
        self.wait_until(&format!("the composer to hold {text:?}"), async || {
            let now = self.composer_text().await?;
            if now == text {
                Ok(())
            } else {
                Err(format!("it holds {now:?}"))
            }
        })
        .await
    }

    /// Replaces whatever the composer holds with `text`, as select-all and typing would.
    pub async fn replace_draft(&self, text: &str) -> Step {
        self.set_value(sel::TEXTAREA, text).await?;
        self.wait_for_composer_text(text).await
    }

    /// Presses Enter in the composer to send what it holds.
    pub async fn send_draft(&self) -> Step {
        self.wait_for_enabled(sel::TEXTAREA, true).await?;
        let textarea = self
            .client
            .find(Locator::Css(sel::TEXTAREA))
            .await
            .map_err(miss)?;
        textarea
            .send_keys(&Key::Enter.to_string())
            .await
            .map_err(|e| format!("pressing Enter in `{}`: {e}", sel::TEXTAREA))
    }

    /// Checks that no message with `role` contains `text` (e.g. a refused message was taken
    /// back from the list).
    pub async fn expect_no_message(&self, role: &str, text: &str) -> Step {
        let messages = self.messages().await?;
        if messages
            .iter()
            .any(|m| m.role == role && m.text.contains(text))
        {
            Err(format!(
                "a {role} message containing {text:?} is shown: {}",
                describe(&messages)
            ))
        } else {
            Ok(())
        }
    }

    /// Checks, for [`QUIET_FOR`], that cards which came with a loaded conversation were neither
    /// announced (the `.chat-announcer` live region stays empty) nor focused
    /// (`document.activeElement` is not inside a `.chat-card`).
    pub async fn expect_quiet_restore(&self) -> Step {
        self.holds_for(
            "no announcement and no focus on a card",
            QUIET_FOR,
            async || {
                let v = self
                    .client
                    .execute(QUIET_JS, vec![])
                    .await
                    .map_err(|e| e.to_string())?;
                let announcer = v["announcer"]
                    .as_str()
                    .ok_or_else(|| format!("no `{}` in the page", sel::ANNOUNCER))?;
                if !announcer.is_empty() {
                    return Err(format!("`{}` says {announcer:?}", sel::ANNOUNCER));
                }
                if v["inCard"] == json!(true) {
                    return Err(format!("focus is inside a card: {}", v["active"]));
                }
                Ok(())
            },
        )
        .await
    }

    /// Waits until the settled question card lists an answer for each `(question, answer)`;
    /// answers are compared ignoring case, spaces and underscores, so an option's value
    /// (`dark_mode`) matches its label (`Dark mode`).
    pub async fn wait_for_answers(&self, expected: &[(&str, &str)]) -> Step {
        let norm = |s: &str| s.trim().to_lowercase().replace([' ', '_'], "");
        self.wait_until(&format!("the answers {expected:?}"), async || {
            let rows = self
                .client
                .execute(ANSWERS_JS, vec![])
                .await
                .map_err(|e| e.to_string())?;
            let rows: Vec<(String, String)> =
                serde_json::from_value(rows).map_err(|e| e.to_string())?;
            let all = expected
                .iter()
                .all(|(q, a)| rows.iter().any(|(rq, ra)| rq == q && norm(ra) == norm(a)));
            if all {
                Ok(())
            } else {
                Err(format!("rows {rows:?}"))
            }
        })
        .await
    }

    // ----- windows ---------------------------------------------------------------------------

    /// The window the session drives now.
    pub async fn current_window(&self) -> Step<WindowHandle> {
        self.client
            .window()
            .await
            .map_err(|e| format!("reading the window handle: {e}"))
    }

    /// Opens `url` in a new browser window of the same session (same profile, like a second
    /// tab), switches to it and waits until the chat is rendered; returns its handle.
    pub async fn open_window(&self, url: &str) -> Step<WindowHandle> {
        let created = self
            .client
            .new_window(false)
            .await
            .map_err(|e| format!("opening a second window: {e}"))?;
        self.switch_to_window(&created.handle).await?;
        self.client
            .goto(url)
            .await
            .map_err(|e| format!("opening {url} in the second window: {e}"))?;
        self.wait_until_rendered().await?;
        Ok(created.handle)
    }

    /// Drives the window `handle` from now on.
    pub async fn switch_to_window(&self, handle: &WindowHandle) -> Step {
        self.client
            .switch_to_window(handle.clone())
            .await
            .map_err(|e| format!("switching to window {handle:?}: {e}"))
    }

    // ----- the server, as another client or a test fixture -----------------------------------

    /// `POST /api/agents{path}` with `body`, not through the page (another client, or a `_dev`
    /// endpoint); the JSON answer, or an error for a non-2xx status.
    pub async fn api_post(&self, path: &str, body: Value) -> Step<Value> {
        api_call(&self.http, Method::POST, &self.api_url(path), Some(body)).await
    }

    /// `GET /api/agents{path}`, not through the page.
    pub async fn api_get(&self, path: &str) -> Step<Value> {
        api_call(&self.http, Method::GET, &self.api_url(path), None).await
    }

    /// `POST {path}` below the server's root with `body`, not through the page (another
    /// backend's `_dev` endpoint, such as `/cogitator/_dev/forget`).
    pub async fn server_post(&self, path: &str, body: Value) -> Step<Value> {
        let url = format!("{}{}", self.base_url, path.trim_start_matches('/'));
        api_call(&self.http, Method::POST, &url, Some(body)).await
    }

    /// `GET {path}` below the server's root, not through the page.
    pub async fn server_get(&self, path: &str) -> Step<Value> {
        let url = format!("{}{}", self.base_url, path.trim_start_matches('/'));
        api_call(&self.http, Method::GET, &url, None).await
    }

    // ----- long conversations (issue 8) ------------------------------------------------------

    /// Seeds a conversation of `n` messages reading "Message 1" … "Message n" (`POST
    /// /_dev/seed` with `numbered`); its id.
    /// Its pages after the first are answered `page_delay_ms` late (0: at once), long enough
    /// to look at the page while an older page is on its way.
    pub async fn seed_numbered_conversation(&self, n: usize, page_delay_ms: u64) -> Step<String> {
        let body = json!({
            "agentId": "echo", "messages": n, "numbered": true, "pageDelayMs": page_delay_ms
        });
        let answer = self.api_post("/_dev/seed", body).await?;
        answer["conversation"]["id"]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| format!("seeding: no conversation id in {answer}"))
    }

    /// The message list's geometry (see `LIST_JS`).
    pub async fn message_list(&self) -> Step<Value> {
        let v = self
            .client
            .execute(LIST_JS, vec![])
            .await
            .map_err(|e| format!("reading the message list: {e}"))?;
        if v.is_null() {
            Err("no `.chat-message-list`".to_owned())
        } else {
            Ok(v)
        }
    }

    /// Scrolls the message list by `by` px, or to its very top with `None`, as a reader would;
    /// the id of the first row then in view and its offset from the top of the list.
    pub async fn scroll_messages(&self, by: Option<i64>) -> Step<(String, f64)> {
        let v = self
            .client
            .execute(SCROLL_LIST_JS, vec![by.map_or(Value::Null, Value::from)])
            .await
            .map_err(|e| format!("scrolling the message list: {e}"))?;
        match (v["id"].as_str(), v["top"].as_f64()) {
            (Some(id), Some(top)) => Ok((id.to_owned(), top)),
            _ => Err(format!("no message row in view after scrolling: {v}")),
        }
    }

    /// Scrolls the message list to its very top and reads, in the page, whether the view
    /// there has settled (see `SETTLE_AT_TOP_JS`).
    pub async fn settle_at_top(&self) -> Step<Value> {
        let v = self
            .client
            .execute_async(SETTLE_AT_TOP_JS, vec![])
            .await
            .map_err(|e| format!("scrolling the message list to its top: {e}"))?;
        if v.is_null() {
            Err("no `.chat-message-list`".to_owned())
        } else {
            Ok(v)
        }
    }

    /// Where the row of message `id` is, relative to the top of the list (None: not drawn).
    pub async fn message_row_top(&self, id: &str) -> Step<Option<f64>> {
        let v = self
            .client
            .execute(ROW_TOP_JS, vec![Value::from(id)])
            .await
            .map_err(|e| format!("locating message {id}: {e}"))?;
        Ok(v.as_f64())
    }

    /// [`ChatPage::api_post`] on a task of its own, for a request that takes a while (a
    /// non-streaming message holds the connection until the turn is over).
    pub fn api_post_in_background(
        &self,
        path: &str,
        body: Value,
    ) -> tokio::task::JoinHandle<Step<Value>> {
        let (http, url) = (self.http.clone(), self.api_url(path));
        tokio::spawn(async move { api_call(&http, Method::POST, &url, Some(body)).await })
    }

    /// Creates an empty conversation with `agent` through the API; returns its id.
    pub async fn create_conversation(&self, agent: &str) -> Step<String> {
        let reply = self
            .api_post("/conversations", json!({ "agentId": agent }))
            .await?;
        reply["conversation"]["id"]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| format!("POST /conversations: no id in {reply}"))
    }

    /// Waits until the server has stored a `role` message containing `text` in the open
    /// conversation (E8, not the page).
    pub async fn wait_for_server_message(&self, role: &str, text: &str) -> Step {
        let conversation = self.conversation_id().await?;
        let path = format!("/conversations/{conversation}/messages");
        self.wait_until(
            &format!("the server to store a {role} message {text:?}"),
            async || {
                let reply = self.api_get(&path).await?;
                let found = reply["messages"].as_array().is_some_and(|list| {
                    list.iter().any(|m| {
                        m["role"] == json!(role)
                            && m["content"].as_str().is_some_and(|c| c.contains(text))
                    })
                });
                if found {
                    Ok(())
                } else {
                    Err(format!("messages {}", reply["messages"]))
                }
            },
        )
        .await
    }

    /// The server's deadline of the open action `action_id` (its `expiresAt` on E5), as an
    /// [`Instant`] of this process.
    pub async fn server_deadline(&self, action_id: &str) -> Step<Instant> {
        let conversation = self.conversation_id().await?;
        let reply = self
            .api_get(&format!("/conversations/{conversation}"))
            .await?;
        let open = reply["pendingActions"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let expires_at = open
            .iter()
            .find(|a| a["id"] == json!(action_id))
            .and_then(|a| a["expiresAt"].as_str())
            .ok_or_else(|| format!("{action_id} is not open with an expiresAt: {reply}"))?;
        let at = chrono::DateTime::parse_from_rfc3339(expires_at)
            .map_err(|e| format!("expiresAt {expires_at:?}: {e}"))?;
        let left = (at.with_timezone(&chrono::Utc) - chrono::Utc::now())
            .to_std()
            .unwrap_or(Duration::ZERO);
        Ok(Instant::now() + left)
    }

    /// Arms what happens to the open conversation's next answer (`POST /_dev/next-answer`
    /// with `fault` plus the conversation id): `refuse`, `cutStreamAfter`, `delayMs`.
    pub async fn arm_next_answer(&self, fault: Value) -> Step {
        let mut body = fault;
        body["conversationId"] = json!(self.conversation_id().await?);
        self.api_post("/_dev/next-answer", body).await.map(drop)
    }

    /// The agent changes its open request under the same id (`POST /_dev/reissue` with new
    /// `args` and `version`), without the page knowing; the action as the server now has it.
    pub async fn reissue_on_server(
        &self,
        action_id: &str,
        args: Value,
        version: u64,
    ) -> Step<Value> {
        let body = json!({ "actionId": action_id, "args": args, "version": version });
        let answer = self.api_post("/_dev/reissue", body).await?;
        Ok(answer["action"].clone())
    }

    /// Waits until the text of the element matching `css` is JSON equal to `expected` (key
    /// order and layout ignored), e.g. the arguments an approval card shows.
    pub async fn wait_for_json(&self, css: &str, expected: &Value) -> Step {
        self.wait_until(&format!("`{css}` showing {expected}"), async || {
            let texts = self.texts(css).await?;
            match texts.as_slice() {
                [one] => match serde_json::from_str::<Value>(one) {
                    Ok(shown) if shown == *expected => Ok(()),
                    _ => Err(format!("{one:?}")),
                },
                _ => Err(format!("{} of them: {texts:?}", texts.len())),
            }
        })
        .await
    }

    /// Makes the server refuse (503) or serve again the lazy chunks of the page and the element
    /// (`POST /_dev/chunks`, issue 16).
    pub async fn block_chunks(&self, blocked: bool) -> Step {
        self.api_post("/_dev/chunks", json!({ "blocked": blocked }))
            .await
            .map(drop)
    }

    /// Makes the server refuse (503) the lazy chunks of every part but `served` (and the
    /// chunks those parts share with others), as [`ChatPage::block_chunks`] does for all.
    pub async fn block_chunks_except(&self, served: &[&str]) -> Step {
        self.api_post("/_dev/chunks", json!({ "blocked": true, "except": served }))
            .await
            .map(drop)
    }

    /// Lets the action lapse on the server now (`POST /_dev/expire`), without the page knowing.
    pub async fn expire_on_server(&self, action_id: &str) -> Step {
        self.api_post("/_dev/expire", json!({ "actionId": action_id }))
            .await
            .map(drop)
    }

    /// Starts recording every `data-state` the card `action_id` shows from now on (until the
    /// next page load), for [`ChatPage::expect_card_never`]: a `MutationObserver` sees each
    /// change as the page publishes it, so a state shown for a single frame is caught too.
    pub async fn watch_card_states(&self, action_id: &str) -> Step {
        self.client
            .execute(WATCH_STATES_JS, vec![json!(action_id)])
            .await
            .map(drop)
            .map_err(|e| format!("watching the card's states: {e}"))
    }

    /// Checks that the card watched by [`ChatPage::watch_card_states`] never showed `state`.
    pub async fn expect_card_never(&self, action_id: &str, state: &str) -> Step {
        let seen = self
            .client
            .execute(
                "return (window.__cardStates || {})[arguments[0]] || null;",
                vec![json!(action_id)],
            )
            .await
            .map_err(|e| e.to_string())?;
        let seen: Vec<String> = serde_json::from_value(seen)
            .map_err(|_| format!("{action_id}'s states were not watched"))?;
        if seen.iter().any(|s| s == state) {
            Err(format!("the card showed {state:?}: it went {seen:?}"))
        } else {
            Ok(())
        }
    }

    /// Where the server's copy of the open conversation says how its requests ended from now
    /// on (`POST /_dev/history-source`): 1 `message.actionStates`, 2 `metadata.actionStates`,
    /// 3 the settled `metadata.pendingActions` entries themselves.
    pub async fn set_history_source(&self, source: u8) -> Step {
        let conversation = self.conversation_id().await?;
        self.api_post(
            "/_dev/history-source",
            json!({ "conversationId": conversation, "source": source }),
        )
        .await
        .map(drop)
    }

    // ----- the page's clock -----------------------------------------------------------------

    /// Puts the page on a clock the journey drives (until the next page load): `Date.now()`
    /// runs [`ChatPage::advance_clock`]'s total ahead of real time, and every `setTimeout` of
    /// a second or more (the store's deadline and refresh timers) fires only when an advance
    /// reaches it, never by itself. Shorter timers (frames, polling) stay real.
    pub async fn install_clock(&self) -> Step {
        self.client
            .execute(CLOCK_JS, vec![])
            .await
            .map(drop)
            .map_err(|e| format!("installing the page clock: {e}"))
    }

    /// Moves the page clock `by` forward and fires, in order, every held timer that is then
    /// due (synchronously, so their effects are in the store when this returns). Returns the
    /// `data-state` of the card `action_id` at the moment of the advance, before any timer
    /// fired (`null` when absent), so a journey can prove what the page was in when its clock
    /// passed a deadline.
    pub async fn advance_clock(&self, by: Duration, action_id: &str) -> Step<Option<String>> {
        let v = self
            .client
            .execute(
                ADVANCE_JS,
                vec![json!(by.as_millis() as u64), json!(action_id)],
            )
            .await
            .map_err(|e| format!("advancing the page clock: {e}"))?;
        if v["installed"] != json!(true) {
            return Err("advance_clock before install_clock (or after a reload)".into());
        }
        Ok(v["state"].as_str().map(str::to_owned))
    }

    // ----- accessibility: axe-core, the keyboard, focus --------------------------------------

    /// Runs axe-core on the whole page with the rule tags [`AXE_TAGS`] and returns its
    /// violations (`[{id, impact, help, helpUrl, nodes: [{target, html, summary}]}]`). axe-core
    /// is injected first if this page load does not have it yet.
    pub async fn axe_violations(&self) -> Step<Vec<Value>> {
        let loaded = self
            .client
            .execute("return !!(window.axe && window.axe.run);", vec![])
            .await
            .map_err(|e| format!("looking for axe-core in the page: {e}"))?;
        if loaded != json!(true) {
            let script = format!(
                "{}\nreturn !!(window.axe && window.axe.run);",
                axe_source()?
            );
            let injected = self
                .client
                .execute(&script, vec![])
                .await
                .map_err(|e| format!("injecting {AXE_SCRIPT}: {e}"))?;
            if injected != json!(true) {
                return Err(format!(
                    "{AXE_SCRIPT} ran but left no window.axe.run in the page"
                ));
            }
        }
        let result = self
            .client
            .execute_async(AXE_RUN_JS, vec![json!(AXE_TAGS)])
            .await
            .map_err(|e| format!("running axe-core: {e}"))?;
        if let Some(error) = result["error"].as_str() {
            return Err(format!("axe-core failed: {error}"));
        }
        result["violations"]
            .as_array()
            .cloned()
            .ok_or_else(|| format!("axe-core answered {result}"))
    }

    /// Waits until the page has drawn two more frames: what a person sees. Work the page does
    /// in the frame after a change (the message list keeping the row in view when a page of
    /// older messages is prepended, D58) runs before that frame is painted, but a script
    /// could read the page in between, so a measurement of what is on screen waits for it.
    pub async fn wait_for_frames(&self) -> Step {
        self.client
            .execute_async(TWO_FRAMES_JS, vec![])
            .await
            .map(|_| ())
            .map_err(|e| format!("waiting for two frames: {e}"))
    }

    /// Waits until the page has painted the latest change ([`ChatPage::wait_for_frames`]) and
    /// no finite CSS animation or transition is running (a card or message that just arrived
    /// has faded in completely).
    pub async fn wait_for_animations_to_finish(&self) -> Step {
        self.wait_for_frames().await?;
        self.wait_until("CSS animations and transitions to finish", async || {
            let running = self
                .client
                .execute(RUNNING_ANIMATIONS_JS, vec![])
                .await
                .map_err(|e| e.to_string())?;
            if running == json!(0) {
                Ok(())
            } else {
                Err(format!("{running} still running"))
            }
        })
        .await
    }

    /// Checks that the chat is drawn in `theme` (`.chat-theme-light` on the root, or not).
    pub async fn expect_theme(&self, theme: Theme) -> Step {
        let light = format!("{}.chat-theme-light", sel::ROOT);
        match theme {
            Theme::Light => self.wait_for_visible(&light).await,
            Theme::Dark => self.wait_for_count(&light, 0).await,
        }
    }

    /// Waits until a waiting built-in card whose action id is none of `known` is shown;
    /// returns its action id.
    pub async fn wait_for_new_waiting_card(&self, known: &[&str]) -> Step<String> {
        let what = format!("a new waiting card (besides {known:?})");
        self.wait_until(&what, async || {
            let ids = self
                .client
                .execute(ACTION_IDS_JS, vec![json!(sel::card_in("waiting"))])
                .await
                .map_err(|e| e.to_string())?;
            let ids: Vec<String> = serde_json::from_value(ids).map_err(|e| e.to_string())?;
            ids.iter()
                .find(|id| !known.contains(&id.as_str()))
                .cloned()
                .ok_or_else(|| format!("waiting cards {ids:?}"))
        })
        .await
    }

    /// Waits until no message is streaming any more.
    pub async fn wait_for_no_streaming(&self) -> Step {
        self.wait_until(
            "no `article.chat-message[data-streaming=\"true\"]`",
            async || {
                let messages = self.messages().await?;
                if messages.iter().any(|m| m.streaming) {
                    Err(describe(&messages))
                } else {
                    Ok(())
                }
            },
        )
        .await
    }

    /// Waits until an assistant reply is streaming and already shows some text.
    pub async fn wait_for_streaming_reply(&self) -> Step {
        let what =
            "an `article.chat-message[data-role=\"assistant\"][data-streaming=\"true\"]` with text";
        self.wait_until(what, async || {
            let messages = self.messages().await?;
            if messages
                .iter()
                .any(|m| m.role == "assistant" && m.streaming && !m.text.is_empty())
            {
                Ok(())
            } else {
                Err(describe(&messages))
            }
        })
        .await
    }

    /// Presses and releases each key in turn on whatever has focus: WebDriver key actions, as
    /// a person at a keyboard (no element is targeted, focused or clicked by the driver).
    pub async fn press(&self, keys: &[Key]) -> Step {
        let mut actions = KeyActions::new("keyboard".to_owned());
        for key in keys {
            let value = char::from(*key);
            actions = actions
                .then(KeyAction::Down { value })
                .then(KeyAction::Up { value });
        }
        self.perform_keys(actions, &format!("pressing {keys:?}"))
            .await
    }

    /// Types `text` character by character into whatever has focus (key actions).
    pub async fn type_text(&self, text: &str) -> Step {
        let mut actions = KeyActions::new("keyboard".to_owned());
        for value in text.chars() {
            actions = actions
                .then(KeyAction::Down { value })
                .then(KeyAction::Up { value });
        }
        self.perform_keys(actions, &format!("typing {text:?}"))
            .await
    }

    /// Holds `modifier` while pressing `key` (Shift+Tab, Ctrl+A), on whatever has focus.
    pub async fn chord(&self, modifier: Key, key: char) -> Step {
        let held = char::from(modifier);
        let actions = KeyActions::new("keyboard".to_owned())
            .then(KeyAction::Down { value: held })
            .then(KeyAction::Down { value: key })
            .then(KeyAction::Up { value: key })
            .then(KeyAction::Up { value: held });
        self.perform_keys(actions, &format!("pressing {modifier:?}+{key:?}"))
            .await
    }

    /// Sends one key action sequence; `what` names it in the error.
    async fn perform_keys(&self, actions: KeyActions, what: &str) -> Step {
        self.client
            .perform_actions(actions)
            .await
            .map_err(|e| format!("{what}: {e}"))
    }

    /// Where the focus is now, measured against `css`.
    pub async fn focus(&self, css: &str) -> Step<Focus> {
        let v = self
            .client
            .execute(FOCUS_JS, vec![json!(css)])
            .await
            .map_err(|e| format!("reading document.activeElement: {e}"))?;
        Ok(Focus {
            matches: v["matches"] == json!(true),
            in_card: v["inCard"] == json!(true),
            ring: v["ring"] == json!(true),
            element: v["desc"].as_str().unwrap_or_default().to_owned(),
            style: v["style"].as_str().unwrap_or_default().to_owned(),
        })
    }

    /// Waits until `document.activeElement` matches `css`.
    pub async fn wait_for_focus(&self, css: &str) -> Step {
        self.wait_until(
            &format!("focus on `{css}` (document.activeElement)"),
            async || {
                let focus = self.focus(css).await?;
                if focus.matches {
                    Ok(())
                } else {
                    Err(format!("focus is on {}", focus.element))
                }
            },
        )
        .await
    }

    /// Waits until the focus is outside every card (and not lost on `<body>`).
    pub async fn wait_for_focus_outside_card(&self) -> Step {
        self.wait_until("focus outside the card", async || {
            let focus = self.focus("body").await?;
            if focus.in_card {
                Err(format!("focus is still on {}", focus.element))
            } else if focus.matches {
                Err("focus fell back to <body>".to_owned())
            } else {
                Ok(())
            }
        })
        .await
    }

    /// Presses Tab until `document.activeElement` matches `css` (not at all if it already
    /// does), at most `max` times; returns the elements Tab passed through, and fails with
    /// that path when `css` is not reached.
    pub async fn tab_to(&self, css: &str, max: usize) -> Step<Vec<String>> {
        if self.focus(css).await?.matches {
            return Ok(Vec::new());
        }
        let mut path = Vec::new();
        for _ in 0..max {
            self.press(&[Key::Tab]).await?;
            let focus = self.focus(css).await?;
            path.push(focus.element);
            if focus.matches {
                println!("Tab to `{css}`: {}", path.join(" → "));
                return Ok(path);
            }
        }
        Err(format!(
            "`{css}` not reached with {max} Tab presses; focus went {}",
            path.join(" → ")
        ))
    }

    /// Checks that the focused element shows a focus ring: a computed `outline-style` other
    /// than `none` (with a width), or a `box-shadow`; `what` names the stop in the error.
    pub async fn expect_focus_ring(&self, what: &str) -> Step {
        let focus = self.focus("*").await?;
        if focus.ring {
            println!("focus ring on {what}: {} ({})", focus.element, focus.style);
            Ok(())
        } else {
            Err(format!(
                "no visible focus ring on {what}: {} has {}",
                focus.element, focus.style
            ))
        }
    }

    /// `http://127.0.0.1:PORT/api/agents{path}`.
    fn api_url(&self, path: &str) -> String {
        format!("{}api/agents{path}", self.base_url)
    }

    /// Polls `check` every [`POLL`] for `duration`; fails as soon as one look returns `Err`.
    async fn holds_for(
        &self,
        what: &str,
        duration: Duration,
        mut check: impl AsyncFnMut() -> Step,
    ) -> Step {
        let started = Instant::now();
        loop {
            match tokio::time::timeout(WAIT, check()).await {
                Ok(Ok(())) => {}
                Ok(Err(seen)) => {
                    return Err(format!(
                        "expected {what} for {} ms, but after {} ms: {seen}",
                        duration.as_millis(),
                        started.elapsed().as_millis()
                    ))
                }
                Err(_) => return Err(format!("expected {what}, but the check itself hung")),
            }
            if started.elapsed() >= duration {
                return Ok(());
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// Takes (and so clears) the browser console entries logged since the last call.
    pub async fn take_console(&self) -> Step<Vec<ConsoleEntry>> {
        let session = self
            .client
            .session_id()
            .await
            .map_err(|e| format!("session id: {e}"))?
            .ok_or("no WebDriver session")?;
        let url = format!("{}/session/{session}/se/log", self.driver_url);
        let response = self
            .http
            .post(&url)
            .json(&json!({ "type": "browser" }))
            .send()
            .await
            .map_err(|e| format!("POST {url}: {e}"))?;
        let body: Value = response
            .json()
            .await
            .map_err(|e| format!("POST {url}: {e}"))?;
        let entries = body["value"]
            .as_array()
            .ok_or_else(|| format!("POST {url}: unexpected {body}"))?;
        Ok(entries
            .iter()
            .map(|e| ConsoleEntry {
                level: e["level"].as_str().unwrap_or_default().to_owned(),
                message: e["message"].as_str().unwrap_or_default().to_owned(),
            })
            .collect())
    }

    /// Polls `check` every [`POLL`] until it returns `Ok`, for at most [`WAIT`]. `Err` from
    /// `check` means "not yet" and says what was seen; the last one ends up in the timeout error.
    pub async fn wait_until<T>(
        &self,
        what: &str,
        mut check: impl AsyncFnMut() -> Step<T>,
    ) -> Step<T> {
        let deadline = Instant::now() + WAIT;
        loop {
            let seen = match tokio::time::timeout(WAIT, check()).await {
                Ok(Ok(value)) => return Ok(value),
                Ok(Err(seen)) => seen,
                Err(_) => "the check itself hung".to_owned(),
            };
            if Instant::now() >= deadline {
                return Err(format!(
                    "timed out after {}s waiting for {what}; last seen: {seen}",
                    WAIT.as_secs()
                ));
            }
            tokio::time::sleep(POLL).await;
        }
    }
}

/// A failed `find` as a "not yet" note: short for the usual case, no such element.
pub fn miss(error: fantoccini::error::CmdError) -> String {
    if error.is_no_such_element() {
        "no element matches".to_owned()
    } else {
        error.to_string()
    }
}

/// One plain HTTP call to the API; the JSON answer, or an error naming the call for a failure
/// or a non-2xx status.
pub async fn api_call(
    http: &reqwest::Client,
    method: Method,
    url: &str,
    body: Option<Value>,
) -> Step<Value> {
    let mut request = http.request(method.clone(), url);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request
        .send()
        .await
        .map_err(|e| format!("{method} {url}: {e}"))?;
    let status = response.status();
    let text = response
        .text()
        .await
        .map_err(|e| format!("{method} {url}: {e}"))?;
    if !status.is_success() {
        return Err(format!("{method} {url}: {status} {text}"));
    }
    serde_json::from_str(&text).map_err(|e| format!("{method} {url}: {e} in {text}"))
}

/// Logged answers as compact JSON, for error messages.
pub fn show(list: &[Received]) -> String {
    let items: Vec<Value> = list
        .iter()
        .map(|r| {
            let mut item =
                json!({ "actionId": r.action_id, "resolution": r.resolution, "status": r.status });
            if !r.version.is_null() {
                item["version"] = r.version.clone();
            }
            item
        })
        .collect();
    Value::Array(items).to_string()
}

/// `Ok` when the server's E14 log `got` is exactly `expected`; else both, side by side.
pub fn same_log(expected: &[Received], got: &[Received]) -> Step {
    if got == expected {
        Ok(())
    } else {
        Err(format!(
            "the server received other answers than expected:\n  expected {}\n  received {}",
            show(expected),
            show(got)
        ))
    }
}

/// A short description of the messages on screen, for timeout errors.
pub fn describe(messages: &[Message]) -> String {
    if messages.is_empty() {
        return "no `article.chat-message` at all".to_owned();
    }
    let parts: Vec<String> = messages
        .iter()
        .map(|m| {
            let text: String = m.text.chars().take(80).collect();
            format!(
                "{}{} {text:?}",
                m.role,
                if m.streaming { " (streaming)" } else { "" }
            )
        })
        .collect();
    format!("{} message(s): {}", messages.len(), parts.join(", "))
}

// ---------------------------------------------------------------------------------------------
// Harness: dev-server + chromedriver + browser session
// ---------------------------------------------------------------------------------------------

/// Everything one journey runs against. Dropping it (also on panic) kills chromedriver and
/// Chromium; [`Harness::finish`] additionally checks the console and closes the session.
pub struct Harness {
    /// The page object of the journey.
    pub page: ChatPage,
    /// The in-process dev-server task.
    server: tokio::task::JoinHandle<std::io::Result<()>>,
    /// A framework's own server when the page is opened from its front instead
    /// ([`Harness::start_beside`]).
    node: Option<node::NodeServer>,
    /// Declared last so it drops last: the browser goes away after the session handle.
    driver: ChromeDriver,
}

impl Harness {
    /// Serves `$AGENT_CHAT_DIST` on a free port, starts chromedriver and a fresh Chromium.
    pub async fn start() -> Self {
        Self::start_with(|_| {}).await
    }

    /// [`Harness::start`] with dev-server flags changed by `tweak` (e.g. `hasty_expiry_secs`).
    pub async fn start_with(tweak: impl FnOnce(&mut dev_server::Config)) -> Self {
        let dist = dist_dir();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind 127.0.0.1:0 for the dev-server");
        let addr = listener.local_addr().expect("dev-server address");
        let mut config = dev_server::Config {
            host: addr.ip().to_string(),
            port: addr.port(),
            dist: Some(dist),
            dev_controls: true,
            ..dev_server::Config::default()
        };
        tweak(&mut config);
        let server = tokio::spawn(dev_server::serve(listener, config));
        let driver = ChromeDriver::start().await;
        let client = tokio::time::timeout(STARTUP_TIMEOUT, driver.new_session())
            .await
            .unwrap_or_else(|_| {
                Err(format!(
                    "no browser session after {}s",
                    STARTUP_TIMEOUT.as_secs()
                ))
            })
            .unwrap_or_else(|e| panic!("{e}\nchromedriver log: {}", driver.log_tail()));
        let http = reqwest::Client::builder()
            .no_proxy()
            .timeout(CLEANUP_TIMEOUT)
            .build()
            .expect("reqwest client");
        let page = ChatPage {
            client,
            base_url: format!("http://{addr}/"),
            driver_url: driver.url(),
            http,
        };
        Harness {
            page,
            server,
            node: None,
            driver,
        }
    }

    /// A fresh browser whose page is opened from the front of `node` (a framework's own server
    /// from `test-servers/`) rather than from the dev-server, so the page and that server share
    /// one origin.
    #[allow(dead_code)] // only the `frameworks` journeys start one
    pub async fn start_beside(node: node::NodeServer) -> Self {
        let mut harness = Self::start().await;
        harness.page.base_url = format!("{}/", node.url);
        harness.node = Some(node);
        harness
    }

    /// Runs a journey that may take up to `limit`.
    pub async fn within(&self, limit: Duration, journey: impl Future<Output = Step>) -> Step {
        tokio::time::timeout(limit, journey)
            .await
            .unwrap_or_else(|_| {
                Err(format!(
                    "the journey did not finish within {}s",
                    limit.as_secs()
                ))
            })
    }

    /// Reads the console, saves artifacts on failure, closes the browser, then panics with
    /// everything known if the journey failed or the console shows a crash.
    pub async fn finish(mut self, name: &str, outcome: Step) {
        let mut problems = Vec::new();
        if let Err(e) = outcome {
            problems.push(e);
        }
        if self.server.is_finished() {
            problems.push("the dev-server task stopped during the journey".to_owned());
        }
        let mut node_output = String::new();
        if let Some(node) = self.node.as_mut() {
            if !node.is_running() {
                problems.push("the framework's test server stopped during the journey".to_owned());
            }
            node_output = node.drain_output();
        }
        let console = match tokio::time::timeout(CLEANUP_TIMEOUT, self.page.take_console()).await {
            Ok(Ok(entries)) => entries,
            Ok(Err(e)) => {
                problems.push(format!("could not read the browser console: {e}"));
                Vec::new()
            }
            Err(_) => {
                problems.push("reading the browser console hung".to_owned());
                Vec::new()
            }
        };
        for entry in &console {
            if FATAL_CONSOLE
                .iter()
                .any(|needle| entry.message.contains(needle))
            {
                problems.push(format!(
                    "browser console shows a crash: [{}] {}",
                    entry.level, entry.message
                ));
            }
        }
        let console_text: String = console
            .iter()
            .map(|e| format!("  [{}] {}\n", e.level, e.message))
            .collect();
        // Not printed on a pass (the bench's output is its tables); a failure's panic and its
        // artifacts carry the console.
        let artifacts = if problems.is_empty() {
            // A pass clears what an earlier failing run of this journey left behind.
            let _ = std::fs::remove_dir_all(artifacts_dir(name));
            None
        } else {
            Some(self.save_artifacts(name, &console_text).await)
        };
        let _ = tokio::time::timeout(CLEANUP_TIMEOUT, self.page.client.clone().close()).await;
        self.server.abort();
        drop(self.driver);
        if !problems.is_empty() {
            let list: String = problems.iter().map(|p| format!("  - {p}\n")).collect();
            panic!(
                "journey `{name}` failed:\n{list}browser console ({} entries):\n{console_text}test server output:\n{node_output}\nartifacts: {}",
                console.len(),
                artifacts.unwrap_or_default()
            );
        }
    }

    /// Saves a screenshot, the page source, the console and the chromedriver log; returns
    /// where (or why not).
    async fn save_artifacts(&self, name: &str, console: &str) -> String {
        let dir = artifacts_dir(name);
        if let Err(e) = std::fs::create_dir_all(&dir) {
            return format!("not saved ({}: {e})", dir.display());
        }
        let client = &self.page.client;
        if let Ok(Ok(png)) = tokio::time::timeout(CLEANUP_TIMEOUT, client.screenshot()).await {
            let _ = std::fs::write(dir.join("screenshot.png"), png);
        }
        if let Ok(Ok(html)) = tokio::time::timeout(CLEANUP_TIMEOUT, client.source()).await {
            let _ = std::fs::write(dir.join("page.html"), html);
        }
        let _ = std::fs::write(dir.join("console.txt"), console);
        let _ = std::fs::copy(self.driver.log_path(), dir.join("chromedriver.log"));
        dir.display().to_string()
    }
}

/// The built page from `$AGENT_CHAT_DIST`, or a panic saying how to get one.
pub fn dist_dir() -> PathBuf {
    let hint = "run `cargo xtask test` (it builds the page with Trunk and sets AGENT_CHAT_DIST), \
                or `trunk build --release` and set AGENT_CHAT_DIST=<repo>/dist";
    let dist = std::env::var_os("AGENT_CHAT_DIST")
        .map(PathBuf::from)
        .unwrap_or_else(|| panic!("AGENT_CHAT_DIST is not set: {hint}"));
    assert!(
        dist.join("index.html").is_file(),
        "{} has no index.html: {hint}",
        dist.display()
    );
    dist
}

/// Where a failing journey leaves its screenshot, page source and logs.
pub fn artifacts_dir(journey: &str) -> PathBuf {
    workspace_root().join(".e2e-artifacts").join(journey)
}

/// The workspace root (parent of `dev-server/`).
pub fn workspace_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("dev-server is inside the workspace")
}

/// A chromedriver process in its own process group, plus its scratch directory (Chromium
/// profile, log). Dropping it kills the whole group, so Chromium and its helpers go too.
pub struct ChromeDriver {
    /// The chromedriver process (also the process group leader).
    child: Child,
    /// The port it listens on.
    port: u16,
    /// Scratch directory, removed on drop.
    dir: PathBuf,
}

impl ChromeDriver {
    /// Starts chromedriver on a free port and waits until `/status` says it is ready.
    pub async fn start() -> Self {
        let binary = std::env::var_os("CHROMEDRIVER")
            .map(PathBuf::from)
            .or_else(|| find_on_path("chromedriver"))
            .unwrap_or_else(|| {
                panic!("chromedriver not found: set CHROMEDRIVER or run `cargo xtask setup`")
            });
        let port = free_port();
        let dir = scratch_dir();
        let log = dir.join("chromedriver.log");
        let child = Command::new(&binary)
            .arg(format!("--port={port}"))
            .arg(format!("--log-path={}", log.display()))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .unwrap_or_else(|e| panic!("starting {}: {e}", binary.display()));
        let mut driver = ChromeDriver { child, port, dir };
        driver.wait_ready().await;
        driver
    }

    /// Polls `GET /status` until `value.ready`, failing early if chromedriver exits.
    async fn wait_ready(&mut self) {
        let http = reqwest::Client::builder()
            .no_proxy()
            .timeout(Duration::from_secs(2))
            .build()
            .expect("reqwest client");
        let status_url = format!("{}/status", self.url());
        let deadline = Instant::now() + STARTUP_TIMEOUT;
        loop {
            if let Ok(Some(exit)) = self.child.try_wait() {
                panic!(
                    "chromedriver exited early ({exit}); log: {}",
                    self.log_tail()
                );
            }
            if let Ok(response) = http.get(&status_url).send().await {
                if let Ok(body) = response.json::<Value>().await {
                    if body["value"]["ready"].as_bool() == Some(true) {
                        return;
                    }
                }
            }
            assert!(
                Instant::now() < deadline,
                "chromedriver did not answer {status_url} within {}s; log: {}",
                STARTUP_TIMEOUT.as_secs(),
                self.log_tail()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Opens a browser session: headless Chromium, fresh profile, console captured.
    async fn new_session(&self) -> Result<Client, String> {
        let profile = self.dir.join("profile");
        let mut options = json!({
            "args": [
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--window-size=1280,900",
                format!("--user-data-dir={}", profile.display()),
            ],
        });
        if let Some(chromium) = find_on_path("chromium") {
            options["binary"] = json!(chromium);
        }
        let capabilities = json!({
            "goog:chromeOptions": options,
            "goog:loggingPrefs": { "browser": "ALL" },
            "timeouts": { "pageLoad": 30_000, "script": 15_000 },
        });
        let Value::Object(capabilities) = capabilities else {
            unreachable!("built as an object")
        };
        let mut builder = ClientBuilder::new(HttpConnector::new());
        builder.capabilities(capabilities);
        builder
            .connect(&self.url())
            .await
            .map_err(|e| format!("starting a Chromium session: {e}"))
    }

    /// `http://127.0.0.1:PORT`.
    fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Where chromedriver writes its log.
    fn log_path(&self) -> PathBuf {
        self.dir.join("chromedriver.log")
    }

    /// The end of the chromedriver log, for startup errors.
    fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(self.log_path()).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        let tail = lines[lines.len().saturating_sub(30)..].join("\n");
        format!("{}\n{tail}", self.log_path().display())
    }
}

impl Drop for ChromeDriver {
    fn drop(&mut self) {
        let group = format!("-{}", self.child.id());
        let signal_group = |signal: &str| {
            let _ = Command::new("kill")
                .args([signal, "--", &group])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
        };
        // TERM first so Chromium can exit cleanly, KILL for whatever is left in the group.
        signal_group("-TERM");
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline && matches!(self.child.try_wait(), Ok(None)) {
            std::thread::sleep(Duration::from_millis(50));
        }
        signal_group("-KILL");
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A port that was free a moment ago (the OS picks it).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("bind 127.0.0.1:0 to find a free port")
}

/// A new, empty, unique directory under the system temp dir.
pub fn scratch_dir() -> PathBuf {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let dir =
        std::env::temp_dir().join(format!("agent-chat-e2e-{}-{nanos}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("creating {}: {e}", dir.display()));
    dir
}

/// The first file called `name` on `PATH`.
pub fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

// ---------------------------------------------------------------------------------------------
// Journeys: the <agent-chat> custom element in a plain HTML page (issue 7)
// ---------------------------------------------------------------------------------------------

/// Types `text` into the composer inside `<agent-chat id=host>`'s shadow root and presses
/// Enter; `false` while that composer is not there or disabled.
pub const ELEMENT_SEND_JS: &str = r#"
const root = document.getElementById(arguments[0])?.shadowRoot;
const t = root && root.querySelector("textarea.chat-input__textarea");
if (!t || t.disabled || t.readOnly) return false;
t.focus();
t.value = arguments[1];
t.dispatchEvent(new Event("input", { bubbles: true }));
t.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true }));
return true;
"#;

/// Clicks the first match of a selector inside an element's shadow root; `false` if none.
pub const ELEMENT_CLICK_JS: &str = r#"
const el = document.getElementById(arguments[0])?.shadowRoot?.querySelector(arguments[1]);
if (!el || el.disabled) return false;
el.click();
return true;
"#;

/// Types into the first field matching a selector inside an element's shadow root (sets its
/// value and fires `input`); `false` while there is none.
pub const ELEMENT_TYPE_JS: &str = r#"
const el = document.getElementById(arguments[0])?.shadowRoot?.querySelector(arguments[1]);
if (!el || el.disabled) return false;
el.focus();
el.value = arguments[2];
el.dispatchEvent(new Event("input", { bubbles: true }));
return true;
"#;

/// Trimmed texts of the matches of a selector inside an element's shadow root.
pub const ELEMENT_TEXTS_JS: &str = r#"
const root = document.getElementById(arguments[0])?.shadowRoot;
if (!root) return [];
return Array.from(root.querySelectorAll(arguments[1]), (e) => e.textContent.trim());
"#;

/// What the example page's listeners collected: `[{chat, name, detail}]`.
pub const ELEMENT_EVENTS_JS: &str = "return window.agentChatEvents || [];";

impl ChatPage {
    /// Opens a page of the dev-server other than the chat page (`path` without leading `/`).
    pub async fn open_path(&self, path: &str) -> Step {
        let url = format!("{}{path}", self.base_url);
        self.client
            .goto(&url)
            .await
            .map_err(|e| format!("opening {url}: {e}"))
            .map(|_| ())
    }

    /// Sends `text` from the chat inside `<agent-chat id=host>`.
    pub async fn element_send(&self, host: &str, text: &str) -> Step {
        self.wait_until(
            &format!("#{host}'s composer to take a message"),
            async || {
                let done = self
                    .client
                    .execute(ELEMENT_SEND_JS, vec![json!(host), json!(text)])
                    .await
                    .map_err(|e| e.to_string())?;
                if done == json!(true) {
                    Ok(())
                } else {
                    Err("no enabled composer in the shadow root yet".to_owned())
                }
            },
        )
        .await
    }

    /// Clicks `css` inside `<agent-chat id=host>`.
    pub async fn element_click(&self, host: &str, css: &str) -> Step {
        self.wait_until(&format!("`{css}` in #{host} to be clickable"), async || {
            let done = self
                .client
                .execute(ELEMENT_CLICK_JS, vec![json!(host), json!(css)])
                .await
                .map_err(|e| e.to_string())?;
            if done == json!(true) {
                Ok(())
            } else {
                Err("no enabled match in the shadow root".to_owned())
            }
        })
        .await
    }

    /// Types `text` into the field `css` inside `<agent-chat id=host>`.
    pub async fn element_type(&self, host: &str, css: &str, text: &str) -> Step {
        self.wait_until(&format!("`{css}` in #{host} to take text"), async || {
            let done = self
                .client
                .execute(ELEMENT_TYPE_JS, vec![json!(host), json!(css), json!(text)])
                .await
                .map_err(|e| e.to_string())?;
            if done == json!(true) {
                Ok(())
            } else {
                Err("no enabled field in the shadow root".to_owned())
            }
        })
        .await
    }

    /// Waits until some match of `css` inside `<agent-chat id=host>` contains `text`.
    pub async fn element_wait_for_text(&self, host: &str, css: &str, text: &str) -> Step {
        self.wait_until(
            &format!("`{css}` in #{host} to contain {text:?}"),
            async || {
                let texts = self
                    .client
                    .execute(ELEMENT_TEXTS_JS, vec![json!(host), json!(css)])
                    .await
                    .map_err(|e| e.to_string())?;
                let texts: Vec<String> =
                    serde_json::from_value(texts).map_err(|e| e.to_string())?;
                if texts.iter().any(|t| t.contains(text)) {
                    Ok(())
                } else {
                    Err(format!("seen {texts:?}"))
                }
            },
        )
        .await
    }

    /// Waits until the page's listeners saw event `name` from `<agent-chat id=host>`; returns
    /// its `detail`.
    pub async fn element_event(&self, host: &str, name: &str) -> Step<Value> {
        self.wait_until(
            &format!("page JS to receive agent-chat:{name} from #{host}"),
            async || {
                let events = self
                    .client
                    .execute(ELEMENT_EVENTS_JS, vec![])
                    .await
                    .map_err(|e| e.to_string())?;
                let events = events.as_array().cloned().unwrap_or_default();
                events
                    .iter()
                    .find(|e| e["chat"] == json!(host) && e["name"] == json!(name))
                    .map(|e| e["detail"].clone())
                    .ok_or_else(|| format!("{} event(s) so far", events.len()))
            },
        )
        .await
    }

    /// Every E14 request the server received (all conversations), once `n` were answered.
    pub async fn all_received(&self, n: usize) -> Step<Vec<Value>> {
        let url = format!("{}api/agents/_dev/resolutions", self.base_url);
        self.wait_until(&format!("{n} answered E14 request(s)"), async || {
            let body: Value = self
                .http
                .get(&url)
                .send()
                .await
                .map_err(|e| format!("GET {url}: {e}"))?
                .json()
                .await
                .map_err(|e| format!("GET {url}: {e}"))?;
            let list = body["resolutions"].as_array().cloned().unwrap_or_default();
            if list.len() >= n && list.iter().all(|r| !r["status"].is_null()) {
                Ok(list)
            } else {
                Err(format!("{body}"))
            }
        })
        .await
    }
}

/// The composer's hidden file picker (`<input type=file>`).
pub const FILE_PICKER: &str = "input.chat-input__file-picker";

impl ChatPage {
    /// Chooses `paths` in the composer's file picker, as the paperclip's dialog would
    /// (WebDriver sends the paths, newline-separated, to the `<input type=file>`).
    pub async fn attach_files(&self, paths: &[PathBuf]) -> Step {
        self.wait_for_enabled("button.chat-input__attach", true)
            .await?;
        let input = self
            .client
            .find(Locator::Css(FILE_PICKER))
            .await
            .map_err(miss)?;
        let list: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        input
            .send_keys(&list.join("\n"))
            .await
            .map_err(|e| format!("choosing {list:?} in `{FILE_PICKER}`: {e}"))
    }
}

/// Whether the composer's textarea takes typing: enabled, not `readonly`, not `aria-disabled`.
async fn composer_open(el: &fantoccini::elements::Element) -> Step<bool> {
    let enabled = el.is_enabled().await.map_err(|e| e.to_string())?;
    let readonly = el.attr("readonly").await.map_err(|e| e.to_string())?;
    let aria = el.attr("aria-disabled").await.map_err(|e| e.to_string())?;
    Ok(enabled && readonly.is_none() && aria.as_deref() != Some("true"))
}

/// [`ChatPage::install_clock`].
const CLOCK_JS: &str = r#"
if (window.__journeyClock) { return; }
const realNow = Date.now.bind(Date);
const realSet = window.setTimeout.bind(window);
const realClear = window.clearTimeout.bind(window);
const clock = { shift: 0, held: new Map(), next: 1 };
Date.now = () => realNow() + clock.shift;
window.setTimeout = (f, ms, ...args) => {
  const delay = Number(ms) || 0;
  if (delay < 1000 || typeof f !== 'function') { return realSet(f, ms, ...args); }
  const id = 2000000000 + clock.next++;
  clock.held.set(id, { due: Date.now() + delay, f, args });
  return id;
};
window.clearTimeout = (id) => { if (!clock.held.delete(id)) { realClear(id); } };
window.__journeyClock = clock;
"#;

/// [`ChatPage::advance_clock`]: `arguments[0]` ms, `arguments[1]` the card's action id.
const ADVANCE_JS: &str = r#"
const clock = window.__journeyClock;
if (!clock) { return { installed: false }; }
const card = document.querySelector(`.chat-card[data-action-id="${arguments[1]}"]`);
const state = card ? card.getAttribute('data-state') : null;
clock.shift += arguments[0];
for (;;) {
  const now = Date.now();
  const due = [...clock.held.entries()].filter(([, t]) => t.due <= now).sort((a, b) => a[1].due - b[1].due);
  if (due.length === 0) { break; }
  const [id, t] = due[0];
  clock.held.delete(id);
  t.f(...t.args);
}
return { installed: true, state };
"#;

/// [`ChatPage::watch_card_states`]: `arguments[0]` the action id.
const WATCH_STATES_JS: &str = r#"
const id = arguments[0];
window.__cardStates = window.__cardStates || {};
const seen = window.__cardStates[id] = [];
const look = () => {
  const card = document.querySelector(`.chat-card[data-action-id="${id}"]`);
  const state = card ? card.getAttribute('data-state') : null;
  if (state !== null && seen[seen.length - 1] !== state) { seen.push(state); }
};
look();
new MutationObserver(look).observe(document.body,
  { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state'] });
"#;
