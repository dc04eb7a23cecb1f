//! Issue 35, seed 004 ("execution can fail"): a tool that fails on the reference server after
//! the person approved it, watched live in a browser.

use serde_json::json;

use super::harness::*;

/// What the support agent is asked; it pauses on `send_email`.
const EMAIL_BOB: &str = "Email bob@example.com about the launch";

/// The provider's message the server's next tool run fails with.
const PROVIDER: &str = "SMTP refused: mailbox full";

/// Approve, and the server's tool run fails (`failExecution`): the card goes Pending approval
/// → Sending… → Executing… → Failed with the provider's message, never back to waiting; the
/// move to Failed is said in the live region; the receipt names who decided, the error, and
/// the history says when execution started and that it failed.
pub async fn a_live_failure_reads_failed(page: &ChatPage) -> Step {
    let action_id = page.paused_approval("support", EMAIL_BOB).await?;
    page.arm_next_answer(json!({ "failExecution": PROVIDER }))
        .await?;
    page.record_stages(&action_id).await?;
    page.click(sel::APPROVE).await?;
    let failed = sel::card_at_stage(&action_id, "failed");
    page.wait_for_visible(&failed).await?;
    page.wait_for_text(
        &format!("{failed} .chat-card__stage"),
        &format!("Failed: {PROVIDER}"),
    )
    .await?;
    page.wait_for_text(sel::ANNOUNCER, "Failed").await?;
    page.wait_for_attribute(sel::ANNOUNCER, "aria-live", "polite")
        .await?;
    page.wait_for_text(&format!("{failed} .chat-card__receipt-by"), "You")
        .await?;
    page.wait_for_text(&format!("{failed} .chat-card__receipt-error"), PROVIDER)
        .await?;
    for step in ["approved", "executing", "failed"] {
        page.wait_for_count(
            &format!("{failed} .chat-card__step[data-step=\"{step}\"] time"),
            1,
        )
        .await?;
    }
    page.wait_for_count(&format!("{failed} {}", sel::APPROVE), 0)
        .await?;
    let stages = page.recorded_stages().await?;
    if stages != ["waiting", "sending", "executing", "failed"] {
        return Err(format!("the card went through {stages:?}"));
    }
    if page.executions(&action_id).await? != 1 {
        return Err("the tool did not run exactly once".into());
    }
    Ok(())
}
