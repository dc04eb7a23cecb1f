#![cfg(not(target_arch = "wasm32"))]
//! End-to-end journeys: the Trunk-built page, served in-process by the dev-server, driven in
//! headless Chromium through chromedriver (WebDriver). One test per user journey, and every
//! journey talks to the page only through the one page object, [`ChatPage`], so a DOM change
//! is fixed in one place.
//!
//! `cargo xtask test` builds the page and runs this with `AGENT_CHAT_DIST` set. By hand:
//! `trunk build --release && AGENT_CHAT_DIST=$PWD/dist cargo test -p dev-server --features e2e --test e2e`.
//!
//! After each journey the browser console is read; a wasm panic or trap there fails the
//! journey even when the DOM looked right. On failure a screenshot, the page source, the
//! console and the chromedriver log are saved under `.e2e-artifacts/<journey>/` in the
//! workspace root. chromedriver runs in its own process group, killed as a group on drop, so
//! no Chromium survives a failing or panicking test.

use std::{
    future::Future,
    os::unix::process::CommandExt,
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    sync::atomic::{AtomicU32, Ordering},
    time::{Duration, Instant, SystemTime, UNIX_EPOCH},
};

use fantoccini::{key::Key, Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{json, Value};

/// How long one wait (an element, a reply, a URL change) may take.
const WAIT: Duration = Duration::from_secs(15);
/// Interval between two looks at the page while waiting.
const POLL: Duration = Duration::from_millis(100);
/// Upper bound of one whole journey, page loads included.
const JOURNEY_TIMEOUT: Duration = Duration::from_secs(120);
/// Upper bound for chromedriver to answer and Chromium to start.
const STARTUP_TIMEOUT: Duration = Duration::from_secs(60);
/// Upper bound of each clean-up command (console, screenshot, closing the session).
const CLEANUP_TIMEOUT: Duration = Duration::from_secs(10);
/// Console text that means the wasm app crashed (Rust panic, wasm trap).
const FATAL_CONSOLE: [&str; 3] = ["panicked at", "RuntimeError", "unreachable executed"];

/// Result of one page action; the error says what was expected and what was seen.
type Step<T = ()> = Result<T, String>;

/// The DOM contract with the UI (`src/ui`): every selector the journeys rely on.
mod sel {
    /// Root of the chat; its absence means a blank (crashed) page.
    pub const ROOT: &str = ".chat-root";
    /// Opens the agent picker.
    pub const AGENT_TOGGLE: &str = "button.chat-agent-picker__toggle";
    /// The message composer.
    pub const TEXTAREA: &str = "textarea.chat-input__textarea";

    /// One agent in the open picker.
    pub fn agent_option(agent_id: &str) -> String {
        format!("button.chat-agent-picker__option[data-agent-id=\"{agent_id}\"]")
    }
}

/// Reads every message bubble in one round trip: `[{role, streaming, text}]`.
const MESSAGES_JS: &str = r#"
return Array.from(document.querySelectorAll('article.chat-message')).map(function (a) {
  var content = a.querySelector('.chat-message__content') || a;
  return {
    role: a.getAttribute('data-role') || '',
    streaming: a.getAttribute('data-streaming') === 'true',
    text: (content.textContent || '').trim()
  };
});
"#;

// ---------------------------------------------------------------------------------------------
// Journeys
// ---------------------------------------------------------------------------------------------

/// Send to the echo agent, see the streamed reply, reload, see the conversation restored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn echo_reply_survives_reload() {
    let harness = Harness::start().await;
    let outcome = harness
        .within_timeout(echo_reply_survives_reload_journey(&harness.page))
        .await;
    harness.finish("echo_reply_survives_reload", outcome).await;
}

/// The steps of [`echo_reply_survives_reload`].
async fn echo_reply_survives_reload_journey(page: &ChatPage) -> Step {
    const TEXT: &str = "hello from e2e";
    page.open().await?;
    page.pick_agent("echo").await?;
    page.send_message(TEXT).await?;
    page.wait_for_finished_reply_containing(TEXT).await?;
    page.wait_for_url_containing("conversationId=").await?;
    page.reload().await?;
    page.wait_for_message("user", TEXT).await?;
    page.wait_for_message("assistant", TEXT).await?;
    Ok(())
}

/// Seed 000 approval round trip: the card waits and blocks the composer, Approve continues the
/// turn in a new message, and a reload shows the card settled as Approved (§9.6).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn support_approval_round_trip() {
    let harness = Harness::start().await;
    let outcome = harness
        .within_timeout(support_approval_round_trip_journey(&harness.page))
        .await;
    harness.finish("support_approval_round_trip", outcome).await;
}

/// The steps of [`support_approval_round_trip`].
async fn support_approval_round_trip_journey(page: &ChatPage) -> Step {
    page.open().await?;
    page.pick_agent("support").await?;
    page.send_message("Email bob@example.com about the launch")
        .await?;
    page.wait_for_visible(".chat-card[data-kind=tool_approval][data-state=waiting]")
        .await?;
    page.wait_for_visible(".chat-input[data-state=blocked]")
        .await?;
    page.click(".chat-card__approve").await?;
    page.wait_for_visible(".chat-card[data-state=approved]")
        .await?;
    page.wait_for_finished_reply_containing("Email sent to bob@example.com")
        .await?;
    page.wait_for_visible(".chat-input[data-state=normal]")
        .await?;
    page.reload().await?;
    page.wait_for_visible(".chat-card[data-state=approved]")
        .await?;
    page.wait_for_message("assistant", "Email sent to bob@example.com")
        .await?;
    Ok(())
}

/// Seed 000 deny with a reason: the card reads "Denied - <reason>" and the agent's continuation
/// quotes the reason.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn support_deny_with_reason() {
    let harness = Harness::start().await;
    let outcome = harness
        .within_timeout(support_deny_with_reason_journey(&harness.page))
        .await;
    harness.finish("support_deny_with_reason", outcome).await;
}

/// The steps of [`support_deny_with_reason`].
async fn support_deny_with_reason_journey(page: &ChatPage) -> Step {
    page.open().await?;
    page.pick_agent("support").await?;
    page.send_message("Email bob@example.com about the launch")
        .await?;
    page.wait_for_visible(".chat-card[data-state=waiting]")
        .await?;
    page.click(".chat-card__add-reason").await?;
    page.type_into(".chat-card__reason input", "wrong recipient")
        .await?;
    page.click(".chat-card__deny").await?;
    page.wait_for_visible(".chat-card[data-state=denied]")
        .await?;
    page.wait_for_finished_reply_containing("Reason: wrong recipient")
        .await?;
    page.wait_for_message("assistant", "I did not send the email.")
        .await?;
    Ok(())
}

/// Seed 000 question card: single choice, multi-select with previews and optional free text,
/// answered with Send; the card reads Answered and the agent lists the answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn survey_answered() {
    let harness = Harness::start().await;
    let outcome = harness
        .within_timeout(survey_answered_journey(&harness.page))
        .await;
    harness.finish("survey_answered", outcome).await;
}

/// The steps of [`survey_answered`].
async fn survey_answered_journey(page: &ChatPage) -> Step {
    page.open().await?;
    page.pick_agent("survey").await?;
    page.send_message("Set me up").await?;
    page.wait_for_visible(".chat-card[data-kind=user_question][data-state=waiting]")
        .await?;
    page.click(".chat-card__option input[value=pro]").await?;
    page.click(".chat-card__option input[value=dark_mode]")
        .await?;
    page.click(".chat-card__preview summary").await?;
    page.type_into(
        ".chat-card__question:last-child .chat-card__input",
        "ship it",
    )
    .await?;
    page.click(".chat-card__send").await?;
    page.wait_for_visible(".chat-card[data-state=answered]")
        .await?;
    page.wait_for_finished_reply_containing("Thanks for your answers.")
        .await?;
    Ok(())
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
    client: Client,
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
            .wait_until(&format!("`{}` to be enabled", sel::TEXTAREA), async || {
                let el = self
                    .client
                    .find(Locator::Css(sel::TEXTAREA))
                    .await
                    .map_err(miss)?;
                match el.is_enabled().await {
                    Ok(true) => Ok(el),
                    Ok(false) => Err("present but disabled".to_owned()),
                    Err(e) => Err(e.to_string()),
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
    async fn wait_until<T>(&self, what: &str, mut check: impl AsyncFnMut() -> Step<T>) -> Step<T> {
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
fn miss(error: fantoccini::error::CmdError) -> String {
    if error.is_no_such_element() {
        "no element matches".to_owned()
    } else {
        error.to_string()
    }
}

/// A short description of the messages on screen, for timeout errors.
fn describe(messages: &[Message]) -> String {
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
struct Harness {
    /// The page object of the journey.
    page: ChatPage,
    /// The in-process dev-server task.
    server: tokio::task::JoinHandle<std::io::Result<()>>,
    /// Declared last so it drops last: the browser goes away after the session handle.
    driver: ChromeDriver,
}

impl Harness {
    /// Serves `$AGENT_CHAT_DIST` on a free port, starts chromedriver and a fresh Chromium.
    async fn start() -> Self {
        let dist = dist_dir();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind 127.0.0.1:0 for the dev-server");
        let addr = listener.local_addr().expect("dev-server address");
        let config = dev_server::Config {
            host: addr.ip().to_string(),
            port: addr.port(),
            dist: Some(dist),
            ..dev_server::Config::default()
        };
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
            driver,
        }
    }

    /// Runs a journey with the overall [`JOURNEY_TIMEOUT`].
    async fn within_timeout(&self, journey: impl Future<Output = Step>) -> Step {
        tokio::time::timeout(JOURNEY_TIMEOUT, journey)
            .await
            .unwrap_or_else(|_| {
                Err(format!(
                    "the journey did not finish within {}s",
                    JOURNEY_TIMEOUT.as_secs()
                ))
            })
    }

    /// Reads the console, saves artifacts on failure, closes the browser, then panics with
    /// everything known if the journey failed or the console shows a crash.
    async fn finish(self, name: &str, outcome: Step) {
        let mut problems = Vec::new();
        if let Err(e) = outcome {
            problems.push(e);
        }
        if self.server.is_finished() {
            problems.push("the dev-server task stopped during the journey".to_owned());
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
        println!(
            "browser console ({} entries):\n{console_text}",
            console.len()
        );

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
                "journey `{name}` failed:\n{list}browser console ({} entries):\n{console_text}artifacts: {}",
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
fn dist_dir() -> PathBuf {
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
fn artifacts_dir(journey: &str) -> PathBuf {
    workspace_root().join(".e2e-artifacts").join(journey)
}

/// The workspace root (parent of `dev-server/`).
fn workspace_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("dev-server is inside the workspace")
}

/// A chromedriver process in its own process group, plus its scratch directory (Chromium
/// profile, log). Dropping it kills the whole group, so Chromium and its helpers go too.
struct ChromeDriver {
    /// The chromedriver process (also the process group leader).
    child: Child,
    /// The port it listens on.
    port: u16,
    /// Scratch directory, removed on drop.
    dir: PathBuf,
}

impl ChromeDriver {
    /// Starts chromedriver on a free port and waits until `/status` says it is ready.
    async fn start() -> Self {
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
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("bind 127.0.0.1:0 to find a free port")
}

/// A new, empty, unique directory under the system temp dir.
fn scratch_dir() -> PathBuf {
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
fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}
