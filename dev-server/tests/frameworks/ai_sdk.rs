//! The chat against the Vercel AI SDK's own route code (`test-servers/ai-sdk.mjs`: `streamText`
//! with the SDK's mock model and tools that need approval, `toUIMessageStreamResponse()`),
//! opened with `?transport=ai-sdk&baseUrl=/api/chat` from the script's front. What the route
//! was told is read from its own log (`GET /_test/log`), not from the page.
//!
//! `AI_SDK_SCREENSHOT=<file.png>` saves the waiting approval card of the approve journey there
//! (the picture in docs/guide/backends.md, `docs/screenshots/ai-sdk-approval.png`).

use serde_json::Value;

use crate::harness::node::NodeServer;
use crate::harness::{sel, ChatPage, Harness, Step, JOURNEY_TIMEOUT};

const QUERY: &str = "lang=en&transport=ai-sdk&baseUrl=/api/chat";

/// Runs `journey` on a fresh browser beside a fresh AI SDK route; the route's front URL is
/// given to the journey for its log.
macro_rules! ai_sdk_journey {
    ($(#[$attr:meta])* $name:ident => $steps:ident) => {
        $(#[$attr])*
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $name() {
            let node = NodeServer::start("ai-sdk.mjs");
            let front = node.url.clone();
            let harness = Harness::start_beside(node).await;
            let outcome = harness
                .within(JOURNEY_TIMEOUT, $steps(&harness.page, &front))
                .await;
            harness.finish(stringify!($name), outcome).await;
        }
    };
}

/// What the route received and ran: `{requests: [body…], executed: [{tool, path}…]}`.
async fn route_log(front: &str) -> Step<Value> {
    let url = format!("{front}/_test/log");
    let answer = reqwest::Client::builder()
        .no_proxy()
        .build()
        .map_err(|e| e.to_string())?
        .get(&url)
        .send()
        .await
        .map_err(|e| format!("GET {url}: {e}"))?;
    answer
        .json::<Value>()
        .await
        .map_err(|e| format!("reading {url}: {e}"))
}

/// The approval of the last request the route received for the call of `approval_id`: the
/// tool part's `approval` as `useChat` would have sent it.
async fn last_approval(front: &str, approval_id: &str) -> Step<Value> {
    let log = route_log(front).await?;
    let last = log["requests"]
        .as_array()
        .and_then(|r| r.last())
        .ok_or("the route received nothing")?;
    last["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|m| m["parts"].as_array().into_iter().flatten())
        .find(|p| p["approval"]["id"] == approval_id)
        .map(|p| p["approval"].clone())
        .ok_or_else(|| format!("no approval {approval_id} in the last request: {last}"))
}

/// Sends `text` and waits for its approval card; returns the card's action id.
async fn paused(page: &ChatPage, text: &str) -> Step<String> {
    page.open_with_query(QUERY).await?;
    page.send_message(text).await?;
    let card = sel::card_in("waiting");
    page.wait_for_visible(&card).await?;
    page.wait_for_text(".chat-card .chat-card__stage", "Pending approval")
        .await?;
    page.action_id(&card).await
}

ai_sdk_journey! {
    /// Issue 39: a reply streams from the route; a tool that needs no approval runs as a step
    /// and the model answers with its result; the route's error reads in its words.
    i39_ai_sdk_streams_a_reply_a_tool_step_and_an_error => stream_journey
}

async fn stream_journey(page: &ChatPage, _front: &str) -> Step {
    page.open_with_query(QUERY).await?;
    page.send_message("hello there").await?;
    page.wait_for_finished_reply_containing("This reply is streamed in small pieces.")
        .await?;
    page.send_message("what is the weather").await?;
    page.wait_for_finished_reply_containing("getWeather done:")
        .await?;
    page.send_message("break it").await?;
    page.wait_for_error("The model is overloaded, try again later")
        .await
}

ai_sdk_journey! {
    /// Issue 39: approving a `needsApproval` tool sends the conversation again with the
    /// approval, the route runs the tool once, and the card reads Completed.
    i39_ai_sdk_approve_runs_the_tool_and_the_card_completes => approve_journey
}

async fn approve_journey(page: &ChatPage, front: &str) -> Step {
    let action_id = paused(page, "please delete report.txt").await?;
    if let Some(path) = std::env::var_os("AI_SDK_SCREENSHOT") {
        // The card's arrival animation has ended, and its arguments show.
        page.click(".chat-card__details summary").await?;
        tokio::time::sleep(std::time::Duration::from_millis(1_000)).await;
        let png = page
            .client
            .screenshot()
            .await
            .map_err(|e| format!("screenshot: {e}"))?;
        std::fs::write(&path, png).map_err(|e| format!("writing {path:?}: {e}"))?;
    }
    page.click(sel::APPROVE).await?;
    page.wait_for_visible(&sel::card_at_stage(&action_id, "completed"))
        .await?;
    page.wait_for_finished_reply_containing("deleteFile done:")
        .await?;
    let approval = last_approval(front, &action_id).await?;
    if approval != serde_json::json!({ "id": action_id, "approved": true }) {
        return Err(format!("the route was sent {approval}"));
    }
    let executed = route_log(front).await?["executed"].clone();
    if executed != serde_json::json!([{ "tool": "deleteFile", "path": "report.txt" }]) {
        return Err(format!("the route ran {executed}"));
    }
    page.wait_for_composer_free().await
}

ai_sdk_journey! {
    /// Issue 39: denying with a reason: the route gets the reason in the tool part's approval,
    /// does not run the tool, and the model's answer quotes it; the card reads the reason.
    i39_ai_sdk_deny_with_a_reason_reaches_the_route => deny_journey
}

async fn deny_journey(page: &ChatPage, front: &str) -> Step {
    let action_id = paused(page, "please delete notes.txt").await?;
    page.click(sel::ADD_REASON).await?;
    page.type_into(sel::REASON, "keep it, it is the only copy")
        .await?;
    page.click(sel::DENY).await?;
    page.wait_for_visible(&sel::card_by_id(&action_id, "denied"))
        .await?;
    page.wait_for_text(sel::OUTCOME, "Denied - keep it, it is the only copy")
        .await?;
    page.wait_for_finished_reply_containing(
        "I did not run deleteFile: keep it, it is the only copy.",
    )
    .await?;
    let approval = last_approval(front, &action_id).await?;
    let expected = serde_json::json!({ "id": action_id, "approved": false,
                                       "reason": "keep it, it is the only copy" });
    if approval != expected {
        return Err(format!("the route was sent {approval}"));
    }
    let executed = route_log(front).await?["executed"].clone();
    if executed != serde_json::json!([]) {
        return Err(format!("a denied tool ran: {executed}"));
    }
    Ok(())
}

ai_sdk_journey! {
    /// Issue 39: a reload while the card waits draws it again from the page's store (the
    /// route keeps nothing), and the answer given after it goes through.
    i39_ai_sdk_reload_mid_wait_then_answer => reload_journey
}

async fn reload_journey(page: &ChatPage, front: &str) -> Step {
    let action_id = paused(page, "please delete old.log").await?;
    page.conversation_id().await?;
    page.reload().await?;
    page.wait_for_visible(&sel::card_by_id(&action_id, "waiting"))
        .await?;
    page.click(sel::APPROVE).await?;
    page.wait_for_visible(&sel::card_at_stage(&action_id, "completed"))
        .await?;
    page.wait_for_finished_reply_containing("deleteFile done:")
        .await?;
    let approval = last_approval(front, &action_id).await?;
    if approval["approved"] != true {
        return Err(format!("the route was sent {approval}"));
    }
    // And again after a reload: the stage is kept with the conversation.
    page.reload().await?;
    page.wait_for_visible(&sel::card_at_stage(&action_id, "completed"))
        .await
        .map(drop)
}

ai_sdk_journey! {
    /// Issue 39: two tabs: the second tab draws the same waiting card from the page's store and
    /// answers it; the route runs the tool once; the first tab reads it after a reload.
    i39_ai_sdk_two_tabs => two_tabs_journey
}

async fn two_tabs_journey(page: &ChatPage, front: &str) -> Step {
    let action_id = paused(page, "please delete twin.txt").await?;
    page.conversation_id().await?;
    let url = page.url().await?;
    let first = page.current_window().await?;
    page.open_window(&url).await?;
    page.wait_for_visible(&sel::card_by_id(&action_id, "waiting"))
        .await?;
    page.click(sel::APPROVE).await?;
    page.wait_for_visible(&sel::card_at_stage(&action_id, "completed"))
        .await?;
    page.wait_for_finished_reply_containing("deleteFile done:")
        .await?;
    page.switch_to_window(&first).await?;
    page.reload().await?;
    page.wait_for_visible(&sel::card_at_stage(&action_id, "completed"))
        .await?;
    let executed = route_log(front).await?["executed"].clone();
    if executed != serde_json::json!([{ "tool": "deleteFile", "path": "twin.txt" }]) {
        return Err(format!("the route ran {executed}"));
    }
    Ok(())
}

ai_sdk_journey! {
    /// Issue 39: two calls of one turn need approval: the first answer is kept (its card
    /// settles, nothing is sent: the route cannot go on with one), the second sends both, as
    /// `useChat` does; the route runs the approved one only and both cards read their end.
    i39_ai_sdk_a_turns_two_approvals_go_together => two_approvals_journey
}

async fn two_approvals_journey(page: &ChatPage, front: &str) -> Step {
    page.open_with_query(QUERY).await?;
    page.send_message("clean up please").await?;
    page.wait_for_count(&sel::card_in("waiting"), 2).await?;
    let ids = page.action_ids(&sel::card_in("waiting")).await?;
    let [first, second] = ids.as_slice() else {
        return Err(format!("expected two cards, got {ids:?}"));
    };
    let sent = route_log(front).await?["requests"]
        .as_array()
        .map_or(0, Vec::len);
    page.click(&format!(
        "{} {}",
        sel::card_by_id(first, "waiting"),
        sel::DENY
    ))
    .await?;
    page.wait_for_visible(&sel::card_by_id(first, "denied"))
        .await?;
    let now = route_log(front).await?["requests"]
        .as_array()
        .map_or(0, Vec::len);
    if now != sent {
        return Err("one answer of two went to the route alone".into());
    }
    page.click(&format!(
        "{} {}",
        sel::card_by_id(second, "waiting"),
        sel::APPROVE
    ))
    .await?;
    page.wait_for_visible(&sel::card_at_stage(second, "completed"))
        .await?;
    page.wait_for_finished_reply_containing("deleteFile done:")
        .await?;
    let log = route_log(front).await?;
    if log["requests"].as_array().map_or(0, Vec::len) != sent + 1 {
        return Err(format!("expected one request for both answers: {log}"));
    }
    if log["executed"] != serde_json::json!([{ "tool": "deleteFile", "path": "/tmp/b.txt" }]) {
        return Err(format!("the route ran {}", log["executed"]));
    }
    page.wait_for_visible(&sel::card_by_id(first, "denied"))
        .await
        .map(drop)
}

/// The composer's Stop button, shown while a reply streams.
const STOP: &str = "button.chat-input__stop";

ai_sdk_journey! {
    /// Issue 39: Stop mid-stream drops the request, as `useChat`'s `stop()` aborts its fetch:
    /// the reply stops at once with its text kept, the route sees its request's signal abort,
    /// the composer is free and the next message goes through.
    i39_ai_sdk_stop_mid_stream_keeps_the_text_and_the_next_message_goes_through => stop_journey
}

async fn stop_journey(page: &ChatPage, front: &str) -> Step {
    page.open_with_query(QUERY).await?;
    page.send_message("tell me a story").await?;
    // Words have arrived (the turn is under way), and more are coming.
    page.wait_for_message("assistant", "word1").await?;
    page.click(STOP).await?;
    let kept = page
        .wait_for_finished_reply_containing("Once upon a time")
        .await?;
    if kept.text.contains("word300") {
        return Err(format!("the whole story arrived: {}", kept.text));
    }
    page.wait_until("the route to see its request aborted", async || {
        let aborted = route_log(front).await?["aborted"].clone();
        match aborted.as_array().map(Vec::len) {
            Some(1) => Ok(()),
            _ => Err(format!("aborted: {aborted}")),
        }
    })
    .await?;
    page.wait_for_composer_free().await?;
    page.send_message("hello after stop").await?;
    page.wait_for_finished_reply_containing("You said: hello after stop.")
        .await?;
    page.wait_for_message("assistant", "Once upon a time")
        .await
        .map(drop)
}

ai_sdk_journey! {
    /// Issue 39: after Approve the card reads Executing… while the route runs the tool (it
    /// takes seconds), then Completed; and a file sent with an earlier message goes again with
    /// every later request, as `useChat` keeps it in its messages.
    i39_ai_sdk_executing_until_the_tool_ends_and_files_are_sent_again => executing_journey
}

async fn executing_journey(page: &ChatPage, front: &str) -> Step {
    page.open_with_query(QUERY).await?;
    let dir = std::env::temp_dir().join(format!("ai-sdk-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let file = dir.join("notes.txt");
    std::fs::write(&file, "hello").map_err(|e| e.to_string())?;
    page.attach_files(&[file]).await?;
    page.send_message("please delete slow.txt").await?;
    let card = sel::card_in("waiting");
    page.wait_for_visible(&card).await?;
    let action_id = page.action_id(&card).await?;
    page.click(sel::APPROVE).await?;
    page.wait_for_visible(&sel::card_at_stage(&action_id, "executing"))
        .await?;
    page.wait_for_text(".chat-card .chat-card__stage", "Executing")
        .await?;
    page.wait_for_visible(&sel::card_at_stage(&action_id, "completed"))
        .await?;
    page.wait_for_finished_reply_containing("deleteFile done:")
        .await?;
    page.send_message("and now?").await?;
    page.wait_for_finished_reply_containing("Files: notes.txt.")
        .await?;
    let log = route_log(front).await?;
    let last = log["requests"]
        .as_array()
        .and_then(|r| r.last())
        .ok_or("the route received nothing")?;
    let first = &last["messages"][0]["parts"][0];
    let expected = serde_json::json!({ "type": "file", "mediaType": "text/plain",
        "filename": "notes.txt", "url": "data:text/plain;base64,aGVsbG8=" });
    if *first != expected {
        return Err(format!("the earlier file was sent as {first}"));
    }
    Ok(())
}
