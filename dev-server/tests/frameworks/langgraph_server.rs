//! LangGraph, what the server keeps (issue 39): Stop cancels the run on the server as the
//! SDK's `useStream` does, a conversation and its waiting interrupt are read from the thread's
//! state (so a reload with an empty store, or another tab, shows the card and can answer it),
//! and the interrupts of one run are resumed together in one run. What reached the API is read
//! back from the front's log (`/_test/log` of `test-servers/langgraph.mjs`).

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::harness::node::NodeServer;
use crate::harness::{sel, ChatPage, Harness, Step, POLL, WAIT};

/// The page's query: the LangGraph backend at `/langgraph` on the front's origin.
const QUERY: &str = "lang=en&transport=langgraph&baseUrl=/langgraph";
/// How long one journey may take (the server starts its workers first).
const LIMIT: Duration = Duration::from_secs(180);

/// Runs `steps` against the page opened from a fresh LangGraph server's front; `steps` gets
/// the front's address.
async fn journey<F>(name: &str, steps: F)
where
    F: AsyncFnOnce(&ChatPage, &str) -> Step,
{
    let node = NodeServer::start("langgraph.mjs");
    let url = node.url.clone();
    let harness = Harness::start_beside(node).await;
    let outcome = harness.within(LIMIT, steps(&harness.page, &url)).await;
    harness.finish(name, outcome).await;
}

/// What reached the API through the front: `{method, path, status}`, in order.
async fn api_log(url: &str) -> Step<Vec<Value>> {
    let log: Value = reqwest::get(format!("{url}/_test/log"))
        .await
        .map_err(|e| format!("reading the front's log: {e}"))?
        .json()
        .await
        .map_err(|e| format!("reading the front's log: {e}"))?;
    Ok(log.as_array().cloned().unwrap_or_default())
}

/// Waits until the API has received a request that `matches` (`method`, `path`); returns it.
async fn wait_for_request(
    url: &str,
    what: &str,
    matches: impl Fn(&str, &str) -> bool,
) -> Step<Value> {
    let deadline = Instant::now() + WAIT;
    loop {
        let log = api_log(url).await?;
        let hit = log.iter().find(|e| {
            matches(
                e["method"].as_str().unwrap_or_default(),
                e["path"].as_str().unwrap_or_default(),
            )
        });
        if let Some(hit) = hit {
            return Ok(hit.clone());
        }
        if Instant::now() > deadline {
            return Err(format!("the API never received {what}; it saw {log:?}"));
        }
        tokio::time::sleep(POLL).await;
    }
}

/// How many runs were started or resumed on the API (`POST …/runs/stream`).
async fn runs_started(url: &str) -> Step<usize> {
    Ok(api_log(url)
        .await?
        .iter()
        .filter(|e| {
            e["method"] == "POST"
                && e["path"]
                    .as_str()
                    .is_some_and(|p| p.ends_with("/runs/stream"))
        })
        .count())
}

/// Empties the page's store (as another device, or a cleared browser, would have it).
async fn clear_store(page: &ChatPage) -> Step {
    page.client
        .execute("localStorage.clear(); return true;", vec![])
        .await
        .map(|_| ())
        .map_err(|e| format!("clearing localStorage: {e}"))
}

/// Sends the request that makes the graph interrupt for `send_email` and waits for its card.
async fn email_card(page: &ChatPage) -> Step<String> {
    page.open_with_query(QUERY).await?;
    page.send_message("Please email Ada").await?;
    page.wait_for_visible(&sel::card("tool_approval", "waiting"))
        .await?;
    page.wait_for_text(".chat-card--approval", "Send an email to ada@example.com")
        .await?;
    page.wait_for_url_containing("conversationId=").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_39_langgraph_stop_cancels_the_run_on_the_server_and_keeps_the_text() {
    journey(
        "issue_39_langgraph_stop_cancels_the_run_on_the_server_and_keeps_the_text",
        async |page, url| {
            page.open_with_query(QUERY).await?;
            page.send_message("Count slowly please").await?;
            page.wait_for_message("assistant", "Counting").await?;
            page.click("button.chat-input__stop").await?;
            let stopped = page.wait_for_finished_reply_containing("Counting").await?;
            if stopped.text.contains("twelve.") {
                return Err(format!("the reply ran to its end: {:?}", stopped.text));
            }
            // Nothing more arrives: the stream ended at once.
            tokio::time::sleep(Duration::from_millis(1500)).await;
            let later = page.wait_for_finished_reply_containing("Counting").await?;
            if later.text != stopped.text {
                return Err(format!(
                    "text kept coming: {:?} then {:?}",
                    stopped.text, later.text
                ));
            }
            // The server was told, as `useStream` tells it, and took it.
            let cancel = wait_for_request(url, "POST …/runs/{run}/cancel", |m, p| {
                m == "POST" && p.contains("/runs/") && p.ends_with("/cancel")
            })
            .await?;
            if !matches!(cancel["status"].as_u64(), Some(200..=299)) {
                return Err(format!("the server refused the cancel: {cancel}"));
            }
            let path = cancel["path"].as_str().unwrap_or_default();
            let runs_path = &path[..path.rfind("/runs/").unwrap_or(0)];
            let runs: Value = reqwest::get(format!("{url}/langgraph{runs_path}/runs"))
                .await
                .map_err(|e| format!("listing the runs: {e}"))?
                .json()
                .await
                .map_err(|e| format!("listing the runs: {e}"))?;
            let statuses: Vec<&str> = runs
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|r| r["status"].as_str())
                .collect();
            if statuses != ["interrupted"] {
                return Err(format!("the run was not interrupted: {statuses:?}"));
            }
            // The composer works and the next message goes through.
            page.wait_for_composer_open(true).await?;
            page.send_message("Hello there").await?;
            page.wait_for_finished_reply_containing("Hello from LangGraph.")
                .await?;
            Ok(())
        },
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_39_langgraph_reload_with_an_empty_store_reads_the_waiting_card_from_the_server() {
    journey(
        "issue_39_langgraph_reload_with_an_empty_store_reads_the_waiting_card_from_the_server",
        async |page, url| {
            email_card(page).await?;
            clear_store(page).await?;
            page.reload().await?;
            // The conversation and its interrupt come from the thread's state.
            page.wait_for_message("user", "Please email Ada").await?;
            page.wait_for_visible(&sel::card("tool_approval", "waiting"))
                .await?;
            page.wait_for_text(".chat-card--approval", "Send an email to ada@example.com")
                .await?;
            wait_for_request(url, "GET …/state", |m, p| {
                m == "GET" && p.ends_with("/state")
            })
            .await?;
            page.click(sel::APPROVE).await?;
            page.wait_for_finished_reply_containing("Email sent to ada@example.com.")
                .await?;
            page.wait_for_visible(&sel::card("tool_approval", "approved"))
                .await?;
            Ok(())
        },
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_39_langgraph_two_tabs_see_the_servers_card_without_a_store() {
    journey(
        "issue_39_langgraph_two_tabs_see_the_servers_card_without_a_store",
        async |page, _url| {
            let address = email_card(page).await?;
            let first = page.current_window().await?;
            clear_store(page).await?;
            // A second tab, with nothing kept in the page, shows the same waiting card.
            let second = page.open_window(&address).await?;
            page.wait_for_visible(&sel::card("tool_approval", "waiting"))
                .await?;
            page.wait_for_text(".chat-card--approval", "Send an email to ada@example.com")
                .await?;
            page.click(sel::APPROVE).await?;
            page.wait_for_finished_reply_containing("Email sent to ada@example.com.")
                .await?;
            // The first tab, reloaded with its store emptied again, reads the answer's reply
            // from the server; nothing waits any more.
            page.switch_to_window(&first).await?;
            clear_store(page).await?;
            page.reload().await?;
            page.wait_for_message("assistant", "Email sent to ada@example.com.")
                .await?;
            page.wait_for_count(&sel::card("tool_approval", "waiting"), 0)
                .await?;
            page.switch_to_window(&second).await?;
            Ok(())
        },
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_39_langgraph_two_interrupts_of_one_run_resume_together() {
    journey(
        "issue_39_langgraph_two_interrupts_of_one_run_resume_together",
        async |page, url| {
            page.open_with_query(QUERY).await?;
            page.send_message("Do both please").await?;
            page.wait_for_count(&sel::card("tool_approval", "waiting"), 2)
                .await?;
            let before = runs_started(url).await?;
            // The first answer is kept until the run's other interrupt is answered.
            page.click(sel::APPROVE).await?;
            page.wait_for_count(&sel::card("tool_approval", "waiting"), 1)
                .await?;
            tokio::time::sleep(Duration::from_millis(500)).await;
            let held = runs_started(url).await?;
            if held != before {
                return Err(format!(
                    "a run started for one of two answers ({before} → {held})"
                ));
            }
            page.click(sel::APPROVE).await?;
            page.wait_for_finished_reply_containing("Email sent to ada@example.com.")
                .await?;
            page.wait_for_finished_reply_containing("Memo posted.")
                .await?;
            page.wait_for_count(&sel::card("tool_approval", "approved"), 2)
                .await?;
            let after = runs_started(url).await?;
            if after != before + 1 {
                return Err(format!(
                    "both answers took {} runs, not one",
                    after - before
                ));
            }
            Ok(())
        },
    )
    .await;
}
