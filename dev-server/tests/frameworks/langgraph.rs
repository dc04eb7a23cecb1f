//! LangGraph: the page over `@langchain/langgraph-api`'s own server (`startServer`, what
//! `langgraph dev` runs) serving a graph built with `@langchain/langgraph` and a scripted
//! model (`test-servers/langgraph.mjs`): a streamed reply, an error in the server's words,
//! a human interrupt accepted, ignored, edited and answered in words, a plain interrupt
//! answered, a reload while the card waits, and two tabs.

use std::time::Duration;

use crate::harness::node::NodeServer;
use crate::harness::{sel, ChatPage, Harness, Step};

/// The page's query: the LangGraph backend at `/langgraph` on the front's origin.
const QUERY: &str = "lang=en&transport=langgraph&baseUrl=/langgraph";
/// How long one journey may take (the server starts its workers first).
const LIMIT: Duration = Duration::from_secs(180);

/// Runs `steps` against the page opened from a fresh LangGraph server's front.
async fn journey<F>(name: &str, steps: F)
where
    F: AsyncFnOnce(&ChatPage) -> Step,
{
    let harness = Harness::start_beside(NodeServer::start("langgraph.mjs")).await;
    let outcome = harness.within(LIMIT, steps(&harness.page)).await;
    harness.finish(name, outcome).await;
}

/// Sends the request that makes the graph interrupt for `send_email` and waits for its card.
async fn email_card(page: &ChatPage) -> Step {
    page.open_with_query(QUERY).await?;
    page.send_message("Please email Ada").await?;
    page.wait_for_visible(&sel::card("tool_approval", "waiting"))
        .await?;
    page.wait_for_text(".chat-card--approval", "send_email")
        .await?;
    page.wait_for_text(".chat-card--approval", "Send an email to ada@example.com")
        .await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_39_langgraph_streams_a_reply_and_fails_in_the_servers_words() {
    journey(
        "issue_39_langgraph_streams_a_reply_and_fails_in_the_servers_words",
        async |page| {
            page.open_with_query(QUERY).await?;
            page.send_message("Hello there").await?;
            page.wait_for_finished_reply_containing(
                "Hello from LangGraph. This reply is streamed piece by piece.",
            )
            .await?;
            page.send_message("Now fail please").await?;
            page.wait_for_error("The weather service is down.").await?;
            page.wait_for_url_containing("conversationId=").await?;
            page.reload().await?;
            page.wait_for_message("assistant", "Hello from LangGraph.")
                .await?;
            Ok(())
        },
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_39_langgraph_accepts_an_interrupt_and_the_tool_runs() {
    journey(
        "issue_39_langgraph_accepts_an_interrupt_and_the_tool_runs",
        async |page| {
            email_card(page).await?;
            page.wait_for_composer_open(false).await?;
            if let Some(path) = std::env::var_os("LANGGRAPH_SCREENSHOT") {
                let png = page
                    .client
                    .screenshot()
                    .await
                    .map_err(|e| format!("screenshot: {e}"))?;
                std::fs::write(&path, png).map_err(|e| format!("writing {path:?}: {e}"))?;
            }
            page.click(sel::APPROVE).await?;
            page.wait_for_finished_reply_containing("Email sent to ada@example.com.")
                .await?;
            page.wait_for_visible(&sel::card("tool_approval", "approved"))
                .await?;
            page.wait_for_composer_open(true).await?;
            Ok(())
        },
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_39_langgraph_denies_with_a_reason_or_ignores() {
    journey(
        "issue_39_langgraph_denies_with_a_reason_or_ignores",
        async |page| {
            // A reason is a `response`: the graph reads the person's words.
            email_card(page).await?;
            page.click(sel::ADD_REASON).await?;
            page.type_into(sel::REASON, "Not before Monday").await?;
            page.click(sel::DENY).await?;
            page.wait_for_finished_reply_containing("Not sent. You said: Not before Monday")
                .await?;
            page.wait_for_visible(&sel::card("tool_approval", "denied"))
                .await?;
            // No reason: `ignore`.
            page.send_message("Email Ada again").await?;
            page.wait_for_visible(&sel::card("tool_approval", "waiting"))
                .await?;
            page.click(sel::DENY).await?;
            page.wait_for_finished_reply_containing("Skipped sending the email.")
                .await?;
            Ok(())
        },
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_39_langgraph_edits_the_arguments_and_accepts() {
    journey(
        "issue_39_langgraph_edits_the_arguments_and_accepts",
        async |page| {
            email_card(page).await?;
            page.open_argument_editor().await?;
            page.edit_arguments(r#"{ "to": "bob@example.com", "subject": "Hello" }"#)
                .await?;
            page.wait_for_enabled(sel::APPROVE, true).await?;
            page.click(sel::APPROVE).await?;
            page.wait_for_finished_reply_containing("Email sent to bob@example.com.")
                .await?;
            page.wait_for_visible(&sel::card("tool_approval", "approved-edited"))
                .await?;
            Ok(())
        },
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_39_langgraph_answers_a_plain_interrupt_after_a_reload() {
    journey(
        "issue_39_langgraph_answers_a_plain_interrupt_after_a_reload",
        async |page| {
            page.open_with_query(QUERY).await?;
            page.send_message("Which city is best?").await?;
            page.wait_for_visible(&sel::card("user_question", "waiting"))
                .await?;
            page.wait_for_text(".chat-card", "Which city should I use?")
                .await?;
            page.wait_for_url_containing("conversationId=").await?;
            // Reload while the card waits: it is still there and still answerable.
            page.reload().await?;
            page.wait_for_visible(&sel::card("user_question", "waiting"))
                .await?;
            page.type_into(&sel::answer_field(1), "Paris").await?;
            page.click(sel::SEND).await?;
            page.wait_for_finished_reply_containing("Using Paris.")
                .await?;
            page.wait_for_visible(&sel::card("user_question", "answered"))
                .await?;
            Ok(())
        },
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_39_langgraph_two_tabs_see_one_answer() {
    journey("issue_39_langgraph_two_tabs_see_one_answer", async |page| {
        email_card(page).await?;
        let url = page.wait_for_url_containing("conversationId=").await?;
        let first = page.current_window().await?;
        // The second tab opens the same conversation and its waiting card.
        let second = page.open_window(&url).await?;
        page.wait_for_visible(&sel::card("tool_approval", "waiting"))
            .await?;
        page.click(sel::APPROVE).await?;
        page.wait_for_finished_reply_containing("Email sent to ada@example.com.")
            .await?;
        // The first tab, reloaded, reads the answer and the reply; nothing waits.
        page.switch_to_window(&first).await?;
        page.reload().await?;
        page.wait_for_message("assistant", "Email sent to ada@example.com.")
            .await?;
        page.wait_for_visible(&sel::card("tool_approval", "approved"))
            .await?;
        page.wait_for_count(sel::APPROVE, 0).await?;
        page.switch_to_window(&second).await?;
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_39_langgraph_card_buttons_follow_the_interrupts_config() {
    journey(
        "issue_39_langgraph_card_buttons_follow_the_interrupts_config",
        async |page| {
            // `post_memo` allows accept and respond only: no editor, no silent decline, so
            // the reason field is open and Deny waits for words.
            page.open_with_query(QUERY).await?;
            page.send_message("Post the memo").await?;
            page.wait_for_visible(&sel::card("tool_approval", "waiting"))
                .await?;
            page.wait_for_text(".chat-card--approval", "Post a memo to team")
                .await?;
            page.wait_for_count(sel::EDIT_ARGUMENTS, 0).await?;
            page.wait_for_count(sel::ADD_REASON, 0).await?;
            page.wait_for_visible(sel::REASON).await?;
            page.wait_for_enabled(sel::DENY, false).await?;
            page.type_into(sel::REASON, "Wait for the budget").await?;
            page.wait_for_enabled(sel::DENY, true).await?;
            page.click(sel::DENY).await?;
            page.wait_for_finished_reply_containing("Not sent. You said: Wait for the budget")
                .await?;
            page.wait_for_visible(&sel::card("tool_approval", "denied"))
                .await?;
            Ok(())
        },
    )
    .await;
}
