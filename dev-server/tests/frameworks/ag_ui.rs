//! The page against a real AG-UI agent server (`test-servers/ag-ui.mjs`: the run input checked by
//! `@ag-ui/core`'s schema, the events written by `@ag-ui/encoder`), at `/ag-ui/agent` on the page's
//! origin, selected with `?transport=ag-ui`. Each journey asserts what the agent received from
//! its `/_test/log`.

use serde_json::{json, Value};

use crate::harness::node::NodeServer;
use crate::harness::*;

/// The page's query for the AG-UI agent of the test server.
const QUERY: &str = "lang=en&transport=ag-ui&baseUrl=/ag-ui/agent";
/// What the person asks for to get an approval interrupt.
const DELETE: &str = "Delete the report";
/// The interrupt's message, drawn as the card's summary.
const ASKS: &str = "Delete /tmp/report.txt?";
/// The composer's Stop button, shown while a reply streams.
const STOP: &str = "button.chat-input__stop";

/// Declares one journey against the AG-UI test server (started with `env`).
macro_rules! ag_ui_journey {
    ($(#[$attr:meta])* $name:ident $(, env: $env:expr)? => |$page:ident| $steps:expr) => {
        $(#[$attr])*
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $name() {
            let node = NodeServer::start_with("ag-ui.mjs", ag_ui_journey!(@env $($env)?));
            let harness = Harness::start_beside(node).await;
            let outcome = {
                let $page = &harness.page;
                harness.within(JOURNEY_TIMEOUT, $steps).await
            };
            harness.finish(stringify!($name), outcome).await;
        }
    };
    (@env) => { &[] };
    (@env $env:expr) => { $env };
}

/// Every run input the agent received, in order.
async fn received(page: &ChatPage) -> Step<Vec<Value>> {
    let value = page
        .client
        .execute("return fetch('/_test/log').then(r => r.json())", vec![])
        .await
        .map_err(|e| format!("reading the agent's log: {e}"))?;
    value
        .as_array()
        .cloned()
        .ok_or_else(|| format!("the agent's log is not a list: {value}"))
}

/// Waits until the agent received a run input whose `resume` is `resume`; returns it.
async fn wait_for_resume(page: &ChatPage, resume: &Value) -> Step<Value> {
    page.wait_until(&format!("a run input resuming with {resume}"), async || {
        let log = received(page).await?;
        log.iter()
            .find(|input| &input["resume"] == resume)
            .cloned()
            .ok_or_else(|| {
                format!(
                    "{} inputs, resumes: {:?}",
                    log.len(),
                    log.iter().map(|i| i["resume"].clone()).collect::<Vec<_>>()
                )
            })
    })
    .await
}

/// Waits for the approval card of the delete interrupt; its action id.
async fn waiting_interrupt(page: &ChatPage) -> Step<String> {
    let card = sel::card("tool_approval", "waiting");
    page.wait_for_visible(&card).await?;
    page.wait_for_text(".chat-card__summary", ASKS).await?;
    page.action_id(&card).await
}

ag_ui_journey! {
    /// Issue 39: a reply streams from the AG-UI agent (the run input carries the conversation
    /// and the page's confirm tool, and the schema of `@ag-ui/core` accepts it); a failure shows
    /// the agent's own words (RUN_ERROR).
    i39_ag_ui_streams_a_reply_and_shows_a_failure_in_the_agents_words => |page| async move {
        page.open_with_query(QUERY).await?;
        page.send_message("Hello there").await?;
        page.wait_for_finished_reply_containing("You said: Hello there. Streaming works.").await?;
        let log = received(page).await?;
        let first = log.first().ok_or("the agent received nothing")?;
        if first["messages"].as_array().and_then(|m| m.last()).map(|m| &m["content"])
            != Some(&json!("Hello there"))
            || first["tools"][0]["name"] != "confirm_action"
        {
            return Err(format!("unexpected run input: {first}"));
        }
        page.send_message("please fail").await?;
        page.wait_for_error("The scripted agent failed on request.").await?;
        // The next run carries the state the first one left.
        page.send_message("Hello again").await?;
        page.wait_for_finished_reply_containing("You said: Hello again.").await?;
        let log = received(page).await?;
        if log.last().map(|i| &i["state"]) != Some(&json!({"turns": 1})) {
            return Err(format!("the state was not sent back: {:?}", log.last()));
        }
        Ok(())
    }
}

ag_ui_journey! {
    /// Issue 39: an interrupt (RUN_FINISHED with outcome interrupt) is an approval card with the
    /// call's arguments, the interrupt's message and its deadline; Approve resumes the run with
    /// the arguments as the payload, and the agent's answer follows.
    i39_ag_ui_approving_an_interrupt_resumes_the_run => |page| async move {
        page.open_with_query(QUERY).await?;
        page.send_message(DELETE).await?;
        let id = waiting_interrupt(page).await?;
        page.wait_for_text(sel::ARGS, "/tmp/report.txt").await?;
        page.wait_for_countdown("minute", 28..=30, false).await?;
        if let Ok(path) = std::env::var("AG_UI_SCREENSHOT") {
            // The card's arrival animation has ended.
            tokio::time::sleep(std::time::Duration::from_millis(1_000)).await;
            let png = page.client.screenshot().await.map_err(|e| format!("screenshot: {e}"))?;
            std::fs::write(&path, png).map_err(|e| format!("writing {path}: {e}"))?;
        }
        page.click(sel::APPROVE).await?;
        page.wait_for_visible(&sel::card_in("approved")).await?;
        page.wait_for_finished_reply_containing("Deleted /tmp/report.txt.").await?;
        wait_for_resume(page, &json!([{"interruptId": id, "status": "resolved",
                                       "payload": {"path": "/tmp/report.txt"}}])).await?;
        Ok(())
    }
}

ag_ui_journey! {
    /// Issue 39: Deny with a reason cancels the interrupt; the agent receives the reason and
    /// answers with it.
    i39_ag_ui_deny_with_a_reason => |page| async move {
        page.open_with_query(QUERY).await?;
        page.send_message(DELETE).await?;
        let id = waiting_interrupt(page).await?;
        page.click(sel::ADD_REASON).await?;
        page.type_into(sel::REASON, "keep it for the audit").await?;
        page.click(sel::DENY).await?;
        page.wait_for_visible(&sel::card_in("denied")).await?;
        page.wait_for_finished_reply_containing("Reason: keep it for the audit").await?;
        wait_for_resume(page, &json!([{"interruptId": id, "status": "cancelled",
                                       "payload": {"reason": "keep it for the audit"}}])).await?;
        Ok(())
    }
}

ag_ui_journey! {
    /// Issue 39: the interrupt's responseSchema checks edited arguments like an argsSchema: a
    /// path outside /tmp/ cannot be approved; an allowed edit is the resume's payload.
    i39_ag_ui_edited_arguments_are_checked_and_sent => |page| async move {
        page.open_with_query(QUERY).await?;
        page.send_message(DELETE).await?;
        let id = waiting_interrupt(page).await?;
        page.open_argument_editor().await?;
        page.edit_arguments(r#"{ "path": "/etc/passwd" }"#).await?;
        page.wait_for_enabled(sel::APPROVE, false).await?;
        page.edit_arguments(r#"{ "path": "/tmp/old-report.txt" }"#).await?;
        page.wait_for_problems(&[]).await?;
        page.wait_for_enabled(sel::APPROVE, true).await?;
        page.click(sel::APPROVE).await?;
        page.wait_for_visible(&sel::card_in("approved-edited")).await?;
        page.wait_for_finished_reply_containing("Deleted /tmp/old-report.txt.").await?;
        wait_for_resume(page, &json!([{"interruptId": id, "status": "resolved",
                                       "payload": {"path": "/tmp/old-report.txt"}}])).await?;
        Ok(())
    }
}

ag_ui_journey! {
    /// Issue 39: after the interrupt's expiresAt the card reads expired and offers no Approve;
    /// the agent never receives an answer to it (the next message's run proves the page spoke
    /// to it after the deadline, and cancels the interrupt instead).
    i39_ag_ui_an_expired_interrupt_cannot_be_answered,
    env: &[("AGUI_SHORT_EXPIRY_MS", "4000")] => |page| async move {
        page.open_with_query(QUERY).await?;
        page.send_message("Delete it but expire soon").await?;
        let card = sel::card("tool_approval", "waiting");
        page.wait_for_visible(&card).await?;
        let id = page.action_id(&card).await?;
        page.wait_for_visible(&sel::card_by_id(&id, "expired")).await?;
        page.wait_for_count(sel::APPROVE, 0).await?;
        page.send_message("Hello after the deadline").await?;
        page.wait_for_finished_reply_containing("You said: Hello after the deadline.").await?;
        let log = received(page).await?;
        let answered = log.iter().flat_map(|i| i["resume"].as_array().cloned().unwrap_or_default())
            .any(|e| e["interruptId"] == id.as_str() && e["status"] == "resolved");
        if answered {
            return Err(format!("the expired interrupt was answered: {log:?}"));
        }
        Ok(())
    }
}

ag_ui_journey! {
    /// Issue 39: a reload while the card waits draws it again from the page's thread store, and
    /// it is answered after the reload.
    i39_ag_ui_reload_mid_wait_then_answer => |page| async move {
        page.open_with_query(QUERY).await?;
        page.send_message(DELETE).await?;
        let id = waiting_interrupt(page).await?;
        page.wait_for_url_containing("conversationId=").await?;
        page.reload().await?;
        page.wait_for_visible(&sel::card_by_id(&id, "waiting")).await?;
        page.click(sel::APPROVE).await?;
        page.wait_for_finished_reply_containing("Deleted /tmp/report.txt.").await?;
        wait_for_resume(page, &json!([{"interruptId": id, "status": "resolved",
                                       "payload": {"path": "/tmp/report.txt"}}])).await?;
        page.reload().await?;
        page.wait_for_visible(&sel::card_by_id(&id, "approved")).await?;
        page.wait_for_message("assistant", "Deleted /tmp/report.txt.").await?;
        Ok(())
    }
}

ag_ui_journey! {
    /// Issue 39: the same conversation in two tabs: the second draws the waiting card and
    /// answers it; the first, reloaded, reads it approved with the agent's answer.
    i39_ag_ui_two_tabs => |page| async move {
        page.open_with_query(QUERY).await?;
        page.send_message(DELETE).await?;
        let id = waiting_interrupt(page).await?;
        page.wait_for_url_containing("conversationId=").await?;
        let url = page.url().await?;
        let first = page.current_window().await?;
        let _second = page.open_window(&url).await?;
        page.wait_for_visible(&sel::card_by_id(&id, "waiting")).await?;
        page.click(sel::APPROVE).await?;
        page.wait_for_finished_reply_containing("Deleted /tmp/report.txt.").await?;
        page.switch_to_window(&first).await?;
        page.reload().await?;
        page.wait_for_visible(&sel::card_by_id(&id, "approved")).await?;
        page.wait_for_message("assistant", "Deleted /tmp/report.txt.").await?;
        let resumes = received(page).await?.iter()
            .filter(|i| i["resume"].as_array().is_some_and(|r| r.iter().any(|e| e["interruptId"] == id.as_str())))
            .count();
        if resumes != 1 {
            return Err(format!("the interrupt was answered {resumes} times"));
        }
        Ok(())
    }
}

ag_ui_journey! {
    /// Issue 39: a call to the page's confirm tool is an approval card; the answer goes back as
    /// the call's `tool` message in the next run.
    i39_ag_ui_a_confirm_tool_call_is_answered_by_a_tool_message => |page| async move {
        page.open_with_query(QUERY).await?;
        page.send_message("Please confirm the report").await?;
        let card = sel::card("tool_approval", "waiting");
        page.wait_for_visible(&card).await?;
        page.wait_for_text(".chat-card__summary", "Send the weekly report?").await?;
        page.click(sel::APPROVE).await?;
        page.wait_for_finished_reply_containing("Confirmed: sending the report to team.").await?;
        let log = received(page).await?;
        let tool = log.last().and_then(|i| i["messages"].as_array()).and_then(|m| m.last()).cloned();
        match tool {
            Some(m) if m["role"] == "tool" && m["content"].as_str().is_some_and(|c| c.contains("\"approved\":true")) => Ok(()),
            other => Err(format!("the answer was not the call's tool message: {other:?}")),
        }
    }
}

/// The runIds whose request the agent saw dropped before the run ended.
async fn aborted_runs(page: &ChatPage) -> Step<Vec<Value>> {
    let value = page
        .client
        .execute("return fetch('/_test/aborted').then(r => r.json())", vec![])
        .await
        .map_err(|e| format!("reading the agent's aborted runs: {e}"))?;
    value
        .as_array()
        .cloned()
        .ok_or_else(|| format!("not a list: {value}"))
}

ag_ui_journey! {
    /// Issue 39: Stop mid-stream drops the run's request, as `@ag-ui/client`'s `abortRun` does:
    /// the reply stops at once with its text kept, the agent sees its client go, the composer
    /// is free and the next message goes through.
    i39_ag_ui_stop_mid_stream_keeps_the_text_and_the_next_message_goes_through => |page| async move {
        page.open_with_query(QUERY).await?;
        page.send_message("Tell me a story").await?;
        // Words have arrived (the run is under way), and more are coming.
        page.wait_for_message("assistant", "word1").await?;
        page.click(STOP).await?;
        let kept = page.wait_for_finished_reply_containing("Once upon a time").await?;
        if kept.text.contains("word300") {
            return Err(format!("the whole story arrived: {}", kept.text));
        }
        page.wait_until("the agent to see the run dropped", async || {
            let runs = aborted_runs(page).await?;
            if runs.len() == 1 { Ok(()) } else { Err(format!("aborted runs: {runs:?}")) }
        })
        .await?;
        page.wait_for_composer_free().await?;
        page.send_message("Hello after stop").await?;
        page.wait_for_finished_reply_containing("You said: Hello after stop.").await?;
        page.wait_for_message("assistant", "Once upon a time").await.map(drop)
    }
}

ag_ui_journey! {
    /// Issue 39: an interrupt bound to no tool call is a question card drawn from its
    /// responseSchema (a choice from the enum, a typed year), its message shown as text (the
    /// markup in it is not HTML), its expiresAt as the deadline; an answer that breaks the
    /// schema is refused in the page and never reaches the agent; the right one resumes the
    /// run with exactly the payload the schema describes.
    i39_ag_ui_an_interrupt_without_a_tool_call_is_a_question_card => |page| async move {
        page.open_with_query(QUERY).await?;
        page.send_message("Prepare the filing").await?;
        let card = sel::card("user_question", "waiting");
        page.wait_for_visible(&card).await?;
        let id = page.action_id(&card).await?;
        page.wait_for_text(".chat-card__summary", "Which filing should I prepare? <b>Quarterly</b> only").await?;
        let markup = page
            .client
            .execute("return document.querySelectorAll('.chat-card b').length", vec![])
            .await
            .map_err(|e| e.to_string())?;
        if markup != json!(0) {
            return Err(format!("the message was drawn as HTML ({markup} <b> elements)"));
        }
        page.wait_for_countdown("minute", 28..=30, false).await?;
        page.click(&sel::option("Q2")).await?;
        page.type_into(&sel::answer_field(2), "1999").await?;
        let before = received(page).await?.len();
        page.click(sel::SEND).await?;
        // The refusal names the question whose answer does not fit, as the card asked it.
        page.wait_for_error("Which year?").await?;
        page.wait_for_visible(&sel::card_by_id(&id, "waiting")).await?;
        if received(page).await?.len() != before {
            return Err("an answer that breaks the schema reached the agent".into());
        }
        page.click(&sel::option("Q2")).await?;
        page.set_value(&sel::answer_field(2), "2026").await?;
        page.click(sel::SEND).await?;
        page.wait_for_finished_reply_containing("Preparing the Q2 2026 filing.").await?;
        wait_for_resume(page, &json!([{"interruptId": id, "status": "resolved",
                                       "payload": {"quarter": "Q2", "year": 2026}}])).await?;
        page.wait_for_visible(&sel::card_by_id(&id, "answered")).await.map(drop)
    }
}

ag_ui_journey! {
    /// Issue 39: two interrupts of one run are answered in ONE resume, as the protocol asks
    /// (the agent refuses a resume that leaves one open): the first answer is kept and nothing
    /// is sent; the second sends both.
    i39_ag_ui_two_interrupts_of_one_run_go_in_one_resume => |page| async move {
        page.open_with_query(QUERY).await?;
        page.send_message("Please clean up").await?;
        let waiting = sel::card("tool_approval", "waiting");
        page.wait_for_count(&waiting, 2).await?;
        let ids = page.action_ids(&waiting).await?;
        let [first, second] = ids.as_slice() else {
            return Err(format!("expected two cards, got {ids:?}"));
        };
        let before = received(page).await?.len();
        page.click(&format!("{} {}", sel::card_by_id(first, "waiting"), sel::APPROVE)).await?;
        page.wait_for_visible(&sel::card_by_id(first, "approved")).await?;
        if received(page).await?.len() != before {
            return Err("one answer of two went to the agent alone".into());
        }
        let other = sel::card_by_id(second, "waiting");
        page.click(&format!("{other} {}", sel::ADD_REASON)).await?;
        page.type_into(&format!("{other} {}", sel::REASON), "keep b").await?;
        page.click(&format!("{other} {}", sel::DENY)).await?;
        page.wait_for_finished_reply_containing("Reason: keep b").await?;
        page.wait_for_message("assistant", "Deleted /tmp/a.txt.").await?;
        wait_for_resume(page, &json!([
            {"interruptId": first, "status": "resolved", "payload": {"path": "/tmp/a.txt"}},
            {"interruptId": second, "status": "cancelled", "payload": {"reason": "keep b"}}
        ])).await?;
        if received(page).await?.len() != before + 1 {
            return Err("expected one run for both answers".into());
        }
        Ok(())
    }
}
