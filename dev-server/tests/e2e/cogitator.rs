//! Issue 35: seed 001 (Cogitator approvals) in a browser. The page over the dev-server's
//! Cogitator emulation (`?transport=cogitator&baseUrl=/cogitator`); what the server received
//! is read from its log of resume requests (`GET /cogitator/_dev/resumes`), each body compared
//! whole. What a page cannot cause by itself is done on the server: another user takes the
//! paused run (`POST /cogitator/_dev/handover`), or the paused run is gone
//! (`POST /cogitator/_dev/forget`).

use serde_json::{json, Map, Value};

use super::harness::*;

/// The message that pauses the run on one refund (order A-1, 40 EUR).
const REFUND: &str = "Refund order A-1";
/// What the run says once that refund is approved.
const REFUNDED: &str = "Refunded 40 EUR for order A-1.";

/// Opens the page over the Cogitator emulation in `lang`.
async fn open(page: &ChatPage, lang: &str) -> Step {
    page.open_with_query(&format!(
        "lang={lang}&transport=cogitator&baseUrl=/cogitator"
    ))
    .await?;
    page.wait_for_text(".chat-header", "support")
        .await
        .map(drop)
}

/// Sends `text` and waits for its one waiting approval card; the call's id and the thread
/// (the conversation's id, which is the run's thread).
async fn paused(page: &ChatPage, text: &str) -> Step<(String, String)> {
    page.send_message(text).await?;
    let card = sel::card("tool_approval", "waiting");
    page.wait_for_visible(&card).await?;
    let call = page.action_id(&card).await?;
    let thread = page.conversation_id().await?;
    Ok((call, thread))
}

/// A resume body that decides the call `call` of `thread` with `decision`.
fn deciding(thread: &str, call: &str, decision: Value) -> Value {
    let mut decisions = Map::new();
    decisions.insert(call.to_owned(), decision);
    json!({ "threadId": thread, "decisions": decisions })
}

/// Waits until the server's log of resume requests is exactly `expected` (each `{body,
/// status, code?}`). Called once the page showed what the last resume led to, so a request
/// the page should not have made is already in the log.
async fn expect_resumes(page: &ChatPage, expected: &[Value]) -> Step {
    page.wait_until("the server's resume log", async || {
        let log = page.server_get("/cogitator/_dev/resumes").await?;
        let got = log["resumes"].as_array().cloned().unwrap_or_default();
        if got == expected {
            Ok(())
        } else {
            Err(format!("got {got:?}, want {expected:?}"))
        }
    })
    .await
}

/// Row 5: Deny with a reason. The card reads Denied with the reason, the run answers the
/// model with it, and the server received exactly `{threadId, decisions: {<call>: {approved:
/// false, reason}}}`, once.
pub async fn deny_with_a_reason(page: &ChatPage) -> Step {
    const REASON: &str = "refunds over 30 EUR need a manager";
    open(page, "en").await?;
    let (call, thread) = paused(page, REFUND).await?;
    page.click(sel::ADD_REASON).await?;
    page.type_into(sel::REASON, REASON).await?;
    page.click(sel::DENY).await?;
    page.wait_for_visible(&sel::card_by_id(&call, "denied"))
        .await?;
    page.wait_for_text(sel::OUTCOME, REASON).await?;
    page.wait_for_finished_reply_containing(&format!("Did not refund order A-1 ({REASON})."))
        .await?;
    let body = deciding(
        &thread,
        &call,
        json!({ "approved": false, "reason": REASON }),
    );
    expect_resumes(page, &[json!({ "body": body, "status": 200 })]).await
}

/// Row 9: the page is reloaded while the run waits; the card is drawn again from what the page
/// kept, and Approve resumes the run the server kept: its answer follows.
pub async fn approve_after_a_reload(page: &ChatPage) -> Step {
    open(page, "en").await?;
    let (call, thread) = paused(page, REFUND).await?;
    page.reload().await?;
    page.wait_for_visible(&sel::card_by_id(&call, "waiting"))
        .await?;
    page.click(sel::APPROVE).await?;
    page.wait_for_visible(&sel::card_by_id(&call, "approved"))
        .await?;
    page.wait_for_finished_reply_containing(REFUNDED).await?;
    let body = deciding(&thread, &call, json!({ "approved": true }));
    expect_resumes(page, &[json!({ "body": body, "status": 200 })]).await
}

/// Rows 7 and 8 in `lang`: the paused run is handed to another user, so Approve is refused
/// with `THREAD_ACCESS_DENIED` (the card waits again and says why in the person's language);
/// then the run is gone, so Approve is refused with `RUN_NOT_PAUSED` (the card settles as
/// answered, said in the person's language). `forbidden` and `gone` are the page's words.
async fn refused_in(page: &ChatPage, lang: &str, forbidden: &str, gone: &str) -> Step<Vec<Value>> {
    open(page, lang).await?;
    let (call, thread) = paused(page, REFUND).await?;
    page.server_post(
        "/cogitator/_dev/handover",
        json!({ "user": "someone-else" }),
    )
    .await?;
    page.click(sel::APPROVE).await?;
    page.wait_for_error(forbidden).await?;
    page.wait_for_visible(&sel::card_by_id(&call, "waiting"))
        .await?;
    page.server_post("/cogitator/_dev/forget", json!({}))
        .await?;
    page.click(sel::APPROVE).await?;
    page.wait_for_error(gone).await?;
    page.wait_for_visible(&sel::card_by_id(&call, "answered"))
        .await?;
    page.wait_for_count(&format!("{} {}", sel::CARD, sel::APPROVE), 0)
        .await?;
    page.wait_for_composer_free().await?;
    let body = deciding(&thread, &call, json!({ "approved": true }));
    Ok(vec![
        json!({ "body": body, "status": 403, "code": "THREAD_ACCESS_DENIED" }),
        json!({ "body": body, "status": 409, "code": "RUN_NOT_PAUSED" }),
    ])
}

/// Rows 7 and 8: refused resumes as a person sees them, in Turkish and then in Arabic; and a
/// failure the page has no words of its own for shows the server's sentence unchanged.
pub async fn refusals_in_the_persons_language(page: &ChatPage) -> Step {
    let mut log = refused_in(
        page,
        "tr",
        "Bu isteği yalnızca sohbeti başlatan kişi yanıtlayabilir.",
        "Bu istek zaten yanıtlandı.",
    )
    .await?;
    // Row 8: the run fails with the server's own words (a code the page has no text for).
    page.send_message("Refund order A-1, but fail").await?;
    page.wait_for_error("The model provider is unavailable.")
        .await?;
    log.extend(
        refused_in(
            page,
            "ar",
            "لا يمكن الرد على هذا الطلب إلا للشخص الذي بدأ هذه المحادثة.",
            "تمت الإجابة عن هذا الطلب بالفعل.",
        )
        .await?,
    );
    expect_resumes(page, &log).await
}

/// Row 11: the run announces its pause with an `approval-required` event only (its `finish`
/// says `paused` without repeating the calls); the card is drawn from that event and Approve
/// resumes the run.
pub async fn approval_announced_once(page: &ChatPage) -> Step {
    open(page, "en").await?;
    let (call, thread) = paused(page, "Refund order A-1 quietly").await?;
    page.wait_for_text(".chat-card__summary", "Refund 40 EUR for order A-1")
        .await?;
    page.click(sel::APPROVE).await?;
    page.wait_for_visible(&sel::card_by_id(&call, "approved"))
        .await?;
    page.wait_for_finished_reply_containing(REFUNDED).await?;
    let body = deciding(&thread, &call, json!({ "approved": true }));
    expect_resumes(page, &[json!({ "body": body, "status": 200 })]).await
}

/// Row 6: two calls of one turn, "Approve all": one resume, `defaultDecision: {approved:
/// true}`, not a request per call; both cards read Approved, decided by this page, and the
/// run's answer follows.
pub async fn approve_all_is_one_resume(page: &ChatPage) -> Step {
    open(page, "en").await?;
    page.send_message("Refund both orders").await?;
    let card = sel::card("tool_approval", "waiting");
    page.wait_for_count(&card, 2).await?;
    let calls = page.action_ids(&card).await?;
    let thread = page.conversation_id().await?;
    page.click(".chat-batch__approve-all").await?;
    for call in &calls {
        page.wait_for_visible(&sel::card_by_id(call, "approved"))
            .await?;
    }
    page.wait_for_finished_reply_containing(
        "Refunded 40 EUR for order A-1. Refunded 15 EUR for order A-2.",
    )
    .await?;
    page.wait_for_count(".chat-card__receipt-by", 2).await?;
    let body = json!({ "threadId": thread, "defaultDecision": { "approved": true } });
    expect_resumes(page, &[json!({ "body": body, "status": 200 })]).await
}
