//! A2A against the reference `@a2a-js/sdk` server with its default settings (issue 39): the
//! SDK's own request handler, task store and card handler (`test-servers/a2a.mjs`), which speak
//! A2A 1.0 only. The page is pointed at `/a2a` and finds the card at the site root, as the
//! SDK's client does, and the JSON-RPC address in it. What the server received is read back
//! from its log (`/_test/log`), so each journey checks the server side too.

use std::path::PathBuf;

use serde_json::Value;

use crate::harness::node::NodeServer;
use crate::harness::{sel, ChatPage, Harness, Step, JOURNEY_TIMEOUT};

/// The query that opens the page on the SDK server behind the front.
const QUERY: &str = "lang=en&theme=light&transport=a2a&baseUrl=/a2a";
const FLIGHTS: &str = "Flights to Izmir: 3 found, the earliest at 07:40.";
const QUESTION: &str = "Which date?";

/// Starts the SDK server and the browser; returns the harness and the server's address.
async fn start() -> (Harness, String) {
    let node = NodeServer::start("a2a.mjs");
    let url = node.url.clone();
    (Harness::start_beside(node).await, url)
}

/// What the server received so far (see `test-servers/a2a.mjs`).
async fn server_log(url: &str) -> Step<Vec<Value>> {
    let log: Value = reqwest::get(format!("{url}/_test/log"))
        .await
        .map_err(|e| format!("reading the server's log: {e}"))?
        .json()
        .await
        .map_err(|e| format!("reading the server's log: {e}"))?;
    Ok(log.as_array().cloned().unwrap_or_default())
}

/// The JSON-RPC requests the server received, in order.
async fn requests(url: &str) -> Step<Vec<Value>> {
    Ok(server_log(url)
        .await?
        .into_iter()
        .filter(|e| e.get("method").is_some())
        .collect())
}

/// The answers the agent read on a task that waited, in order.
async fn answers(url: &str) -> Step<Vec<String>> {
    Ok(server_log(url)
        .await?
        .iter()
        .filter_map(|e| e["answer"].as_str().map(str::to_owned))
        .collect())
}

fn check(what: &str, ok: bool, seen: &impl std::fmt::Debug) -> Step {
    if ok {
        Ok(())
    } else {
        Err(format!("{what}; the server saw {seen:?}"))
    }
}

/// Whether any assistant reply's own text draws `text` (the card aside).
async fn a_reply_draws(page: &ChatPage, text: &str) -> Step<bool> {
    let script = "return [...document.querySelectorAll(\
                  '.chat-message[data-role=assistant] .chat-message__content')]\
                  .some(e => e.textContent.includes(arguments[0]));";
    page.client
        .execute(script, vec![Value::from(text)])
        .await
        .map_err(|e| format!("reading the replies: {e}"))
        .map(|v| v == Value::Bool(true))
}

/// Sends "Book a flight to Izmir" and waits for the question card, drawn once.
async fn ask_for_a_booking(page: &ChatPage) -> Step {
    page.send_message("Book a flight to Izmir").await?;
    page.wait_for_visible(&sel::card("user_question", "waiting"))
        .await?;
    page.wait_for_text(".chat-card__question", QUESTION).await?;
    page.wait_for_count(sel::ELSEWHERE, 0).await?;
    if a_reply_draws(page, QUESTION).await? {
        return Err("the question is drawn twice: by the card and by the reply".into());
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn i39_a2a_sdk_server_streams_an_artifact_over_a2a_1_0() {
    let (harness, url) = start().await;
    let outcome = harness
        .within(JOURNEY_TIMEOUT, async {
            let page = &harness.page;
            page.open_with_query(QUERY).await?;
            // The card at the site root names the agent.
            page.wait_for_text(".chat-header", "Travel Agent").await?;
            page.send_message("Find flights to Izmir").await?;
            page.wait_for_finished_reply_containing(FLIGHTS).await?;
            let sent = requests(&url).await?;
            let last = sent.last().cloned().unwrap_or_default();
            check(
                "a 1.0 streaming request with the version header",
                last["method"] == "SendStreamingMessage"
                    && last["version"] == "1.0"
                    && last["message"]["role"] == "ROLE_USER"
                    && last["message"]["parts"]
                        == serde_json::json!([{"text": "Find flights to Izmir"}]),
                &sent,
            )
        })
        .await;
    harness
        .finish(
            "i39_a2a_sdk_server_streams_an_artifact_over_a2a_1_0",
            outcome,
        )
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn i39_a2a_sdk_server_input_required_is_answered_in_the_card_and_the_task_continues() {
    let (harness, url) = start().await;
    let outcome = harness
        .within(JOURNEY_TIMEOUT, async {
            let page = &harness.page;
            page.open_with_query(QUERY).await?;
            ask_for_a_booking(page).await?;
            if let Ok(shot) = std::env::var("A2A_SCREENSHOT") {
                // The card's entrance animation has ended.
                tokio::time::sleep(std::time::Duration::from_millis(800)).await;
                let png = page
                    .client
                    .screenshot()
                    .await
                    .map_err(|e| format!("screenshot: {e}"))?;
                std::fs::write(PathBuf::from(shot), png).map_err(|e| e.to_string())?;
            }
            page.type_into(&sel::answer_field(1), "Friday").await?;
            page.click(sel::SEND).await?;
            page.wait_for_finished_reply_containing("Booked for Friday: flight TK2410 to Izmir.")
                .await?;
            page.wait_for_visible(&sel::card("user_question", "answered"))
                .await?;
            // The server: the answer came as an ordinary message on the waiting task.
            let got = answers(&url).await?;
            check("the agent read the answer", got == ["Friday"], &got)?;
            let sent = requests(&url).await?;
            let answer = sent.last().cloned().unwrap_or_default();
            let asked = sent.first().cloned().unwrap_or_default();
            check(
                "the answer is a 1.0 message on the task, text only",
                answer["method"] == "SendStreamingMessage"
                    && answer["version"] == "1.0"
                    && answer["message"]["taskId"].is_string()
                    && answer["message"]["contextId"].is_string()
                    && answer["message"]["parts"] == serde_json::json!([{"text": "Friday"}])
                    && asked["message"].get("taskId").is_none(),
                &sent,
            )
        })
        .await;
    harness
        .finish(
            "i39_a2a_sdk_server_input_required_is_answered_in_the_card_and_the_task_continues",
            outcome,
        )
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn i39_a2a_sdk_server_reload_mid_wait_then_the_composer_answers() {
    let (harness, url) = start().await;
    let outcome = harness
        .within(JOURNEY_TIMEOUT, async {
            let page = &harness.page;
            page.open_with_query(QUERY).await?;
            ask_for_a_booking(page).await?;
            page.wait_for_url_containing("conversationId=").await?;
            page.reload().await?;
            // The task still waits after the reload, and its question is still drawn once.
            page.wait_for_visible(&sel::card("user_question", "waiting"))
                .await?;
            page.wait_for_count(sel::ELSEWHERE, 0).await?;
            if a_reply_draws(page, QUESTION).await? {
                return Err("after the reload the question is drawn twice".into());
            }
            page.send_message("Saturday").await?;
            page.wait_for_finished_reply_containing("Booked for Saturday: flight TK2410 to Izmir.")
                .await?;
            page.wait_for_visible(&sel::card("user_question", "answered"))
                .await?;
            let got = answers(&url).await?;
            check(
                "the agent read the composer's answer",
                got == ["Saturday"],
                &got,
            )
        })
        .await;
    harness
        .finish(
            "i39_a2a_sdk_server_reload_mid_wait_then_the_composer_answers",
            outcome,
        )
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn i39_a2a_sdk_server_a_failed_task_is_shown_and_kept_after_reload() {
    const WORDS: &str = "No flights today: the booking system is down.";
    let (harness, _url) = start().await;
    let outcome = harness
        .within(JOURNEY_TIMEOUT, async {
            let page = &harness.page;
            page.open_with_query(QUERY).await?;
            page.send_message("fail this booking").await?;
            page.wait_for_text(".chat-error", WORDS).await?;
            page.wait_for_url_containing("conversationId=").await?;
            page.reload().await?;
            page.wait_for_message("user", "fail this booking").await?;
            page.wait_for_text(".chat-message__failed", WORDS).await?;
            page.wait_for_text(".chat-message__failed-label", "The task failed")
                .await?;
            Ok(())
        })
        .await;
    harness
        .finish(
            "i39_a2a_sdk_server_a_failed_task_is_shown_and_kept_after_reload",
            outcome,
        )
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn i39_a2a_sdk_server_two_tabs_share_the_conversation_and_its_answer() {
    let (harness, url) = start().await;
    let outcome = harness
        .within(JOURNEY_TIMEOUT, async {
            let page = &harness.page;
            page.open_with_query(QUERY).await?;
            ask_for_a_booking(page).await?;
            let address = page.wait_for_url_containing("conversationId=").await?;
            let first = page.current_window().await?;
            // A second tab on the same conversation sees the same waiting question.
            page.open_window(&address).await?;
            page.wait_for_visible(&sel::card("user_question", "waiting"))
                .await?;
            page.type_into(&sel::answer_field(1), "Sunday").await?;
            page.click(sel::SEND).await?;
            page.wait_for_finished_reply_containing("Booked for Sunday: flight TK2410 to Izmir.")
                .await?;
            // Back in the first tab, a reload reads the answered card and the booking.
            page.switch_to_window(&first).await?;
            page.reload().await?;
            page.wait_for_message("assistant", "Booked for Sunday")
                .await?;
            page.wait_for_visible(&sel::card("user_question", "answered"))
                .await?;
            let got = answers(&url).await?;
            check("the agent read one answer", got == ["Sunday"], &got)
        })
        .await;
    harness
        .finish(
            "i39_a2a_sdk_server_two_tabs_share_the_conversation_and_its_answer",
            outcome,
        )
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn i39_a2a_sdk_server_stop_cancels_the_task_and_keeps_the_text() {
    let (harness, url) = start().await;
    let outcome = harness
        .within(JOURNEY_TIMEOUT, async {
            let page = &harness.page;
            page.open_with_query(QUERY).await?;
            page.send_message("Search slowly").await?;
            page.wait_for_message("assistant", "Atlas").await?;
            page.click("button.chat-input__stop").await?;
            let stopped = page.wait_for_finished_reply_containing("Atlas").await?;
            if stopped.text.contains("Done searching.") {
                return Err(format!("the task ran to its end: {:?}", stopped.text));
            }
            // Nothing more arrives: the stream ended at once.
            tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
            let later = page.wait_for_finished_reply_containing("Atlas").await?;
            if later.text != stopped.text {
                return Err(format!(
                    "text kept coming: {:?} then {:?}",
                    stopped.text, later.text
                ));
            }
            // The server was asked to cancel the task, as the SDK's client asks, and did.
            let log = server_log(&url).await?;
            let cancel = log.iter().find(|e| e["method"] == "CancelTask");
            let task = cancel.and_then(|c| c["id"].as_str()).unwrap_or_default();
            check(
                "a 1.0 CancelTask for the task, and the agent cancelled it",
                cancel.is_some_and(|c| c["version"] == "1.0")
                    && !task.is_empty()
                    && log.iter().any(|e| e["cancelled"] == task),
                &log,
            )?;
            // The composer works and the next message goes through.
            page.send_message("Find flights to Izmir").await?;
            page.wait_for_finished_reply_containing(FLIGHTS).await?;
            Ok(())
        })
        .await;
    harness
        .finish(
            "i39_a2a_sdk_server_stop_cancels_the_task_and_keeps_the_text",
            outcome,
        )
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn i39_a2a_sdk_server_card_at_a_configured_url() {
    // The card is served at /cards/travel.json only: nowhere the SDK's client looks.
    let node = NodeServer::start_with("a2a.mjs", &[("A2A_CARD_PATH", "/cards/travel.json")]);
    let url = node.url.clone();
    let harness = Harness::start_beside(node).await;
    let outcome = harness
        .within(JOURNEY_TIMEOUT, async {
            let page = &harness.page;
            page.open_with_query(&format!("{QUERY}&agentCardUrl=/cards/travel.json"))
                .await?;
            page.wait_for_text(".chat-header", "Travel Agent").await?;
            page.send_message("Find flights to Izmir").await?;
            page.wait_for_finished_reply_containing(FLIGHTS).await?;
            let sent = requests(&url).await?;
            check(
                "the message went to the card's JSON-RPC address in 1.0",
                sent.last().is_some_and(|r| {
                    r["method"] == "SendStreamingMessage" && r["version"] == "1.0"
                }),
                &sent,
            )
        })
        .await;
    harness
        .finish("i39_a2a_sdk_server_card_at_a_configured_url", outcome)
        .await;
}
