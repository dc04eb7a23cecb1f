#![cfg(not(target_arch = "wasm32"))]
//! Nothing leaves for another origin, whatever the host page (issue 38). The `<agent-chat>`
//! element on the example pages, which set no Content-Security-Policy, against a dev-server
//! whose every endpoint answers `307` to a second origin ([`Recorder`], another port, so
//! another origin) that accepts anything: the person is told in words, keeps what they wrote
//! or the card to answer again, and the second origin receives nothing at all. Each error on
//! screen is the proof that the redirect came back to the page and was not followed.
//!
//! Run like `tests/e2e.rs` (`AGENT_CHAT_DIST` with the element built by `cargo xtask element`).

#[allow(dead_code, unused_imports)]
mod harness;

use dev_server::routes::elsewhere::Recorder;
use serde_json::{json, Value};

use harness::*;

/// The support agent's request that pauses on an approval.
const EMAIL_BOB: &str = "Email bob@example.com about the launch";
/// The words of `chat-error-other-origin` (en).
const NOT_SENT: &str = "was not sent";

/// The value of the composer inside `<agent-chat id=host>`.
const ELEMENT_DRAFT_JS: &str = r#"
const t = document.getElementById(arguments[0])?.shadowRoot
  ?.querySelector("textarea.chat-input__textarea");
return t ? t.value : null;
"#;

/// A second origin that records what reaches it.
async fn second_origin() -> (Recorder, String) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind the second origin");
    let addr = listener.local_addr().expect("second origin address");
    (Recorder::serve(listener), format!("http://{addr}"))
}

/// Sends every endpoint of the dev-server to `to` (or back home with `None`).
async fn redirect(page: &ChatPage, to: Option<&str>) -> Step {
    page.api_post("/_dev/redirect", json!({ "to": to }))
        .await
        .map(|_| ())
}

/// Waits until `host`'s composer holds `text` again.
async fn draft_kept(page: &ChatPage, host: &str, text: &str) -> Step {
    page.wait_until(&format!("#{host}'s draft {text:?} back"), async || {
        let value = page
            .client
            .execute(ELEMENT_DRAFT_JS, vec![json!(host)])
            .await
            .map_err(|e| e.to_string())?;
        if value == json!(text) {
            Ok(())
        } else {
            Err(format!("composer holds {value}"))
        }
    })
    .await
}

/// Fails when anything reached the second origin.
fn nothing_arrived(recorder: &Recorder) -> Step {
    let arrivals = recorder.arrivals();
    if arrivals.is_empty() {
        Ok(())
    } else {
        Err(format!("the second origin received {arrivals:?}"))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_38_an_answer_redirected_elsewhere_is_not_sent_and_the_card_waits() {
    let (recorder, elsewhere) = second_origin().await;
    let harness = Harness::start().await;
    let page = &harness.page;
    let steps = async {
        page.open_path("examples/custom-element.html").await?;
        page.element_send("first", EMAIL_BOB).await?;
        page.element_wait_for_text(
            "first",
            ".chat-card[data-state=waiting] .chat-card__approve",
            "",
        )
        .await?;
        redirect(page, Some(&elsewhere)).await?;
        page.element_click(
            "first",
            ".chat-card[data-state=waiting] .chat-card__approve",
        )
        .await?;
        page.element_wait_for_text("first", ".chat-error", NOT_SENT)
            .await?;
        // The card waits to be answered again.
        page.element_wait_for_text(
            "first",
            ".chat-card[data-state=waiting] .chat-card__approve",
            "",
        )
        .await?;
        nothing_arrived(&recorder)?;
        // Home again, the same card is answered.
        redirect(page, None).await?;
        page.element_click(
            "first",
            ".chat-card[data-state=waiting] .chat-card__approve",
        )
        .await?;
        page.element_wait_for_text(
            "first",
            ".chat-message__content",
            "Email sent to bob@example.com.",
        )
        .await?;
        nothing_arrived(&recorder)
    };
    let outcome = harness.within(JOURNEY_TIMEOUT, steps).await;
    harness
        .finish(
            "issue_38_an_answer_redirected_elsewhere_is_not_sent_and_the_card_waits",
            outcome,
        )
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_38_every_backends_send_redirected_elsewhere_is_not_sent_and_keeps_the_draft() {
    let (recorder, elsewhere) = second_origin().await;
    let harness = Harness::start().await;
    let page = &harness.page;
    let steps = async {
        page.open_path("examples/other-backends.html").await?;
        redirect(page, Some(&elsewhere)).await?;
        let sends: [(&str, &str); 4] = [
            ("completions", "My secret for completions"),
            ("responses", "My secret for responses"),
            ("a2a", "My secret for the A2A agent"),
            ("cogitator", "My secret for cogitator"),
        ];
        for (host, text) in sends {
            page.element_send(host, text).await?;
            page.element_wait_for_text(host, ".chat-error", NOT_SENT)
                .await?;
            draft_kept(page, host, text).await?;
        }
        let arrivals: Vec<Value> = recorder
            .arrivals()
            .iter()
            .map(|a| json!([a.method, a.path, a.authorization]))
            .collect();
        if arrivals.is_empty() {
            Ok(())
        } else {
            Err(format!("the second origin received {arrivals:?}"))
        }
    };
    let outcome = harness.within(JOURNEY_TIMEOUT, steps).await;
    harness
        .finish(
            "issue_38_every_backends_send_redirected_elsewhere_is_not_sent_and_keeps_the_draft",
            outcome,
        )
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_38_the_element_works_under_a_strict_csp_with_trusted_types() {
    let harness = Harness::start().await;
    let page = &harness.page;
    let steps = async {
        // `script-src 'self' 'wasm-unsafe-eval'`, `require-trusted-types-for 'script'` and
        // `trusted-types 'none'`: any refused script, eval, inline script or string given to
        // an HTML sink is a console entry that fails the journey in `finish`.
        page.open_path("examples/strict-csp.html").await?;
        page.element_send("strict", EMAIL_BOB).await?;
        // The cards' part is fetched and compiled under the policy, and the card answered.
        page.element_click(
            "strict",
            ".chat-card[data-state=waiting] .chat-card__approve",
        )
        .await?;
        page.element_wait_for_text("strict", ".chat-card__outcome-label", "Approved")
            .await?;
        page.element_wait_for_text(
            "strict",
            ".chat-message__content",
            "Email sent to bob@example.com.",
        )
        .await?;
        // A second message: the Markdown reply drawn by its own part.
        page.element_send("strict", "Thanks").await?;
        page.element_wait_for_text("strict", ".chat-message[data-role=user]", "Thanks")
            .await?;
        // Nothing the chat did was refused so far...
        let refused: Vec<String> = page
            .take_console()
            .await?
            .into_iter()
            .map(|e| e.message)
            .filter(|m| FATAL_CONSOLE.iter().any(|needle| m.contains(needle)))
            .collect();
        if !refused.is_empty() {
            return Err(format!("the policy refused the chat: {refused:?}"));
        }
        // ...and the policy is in force: a string given to innerHTML by the page itself is
        // refused, with the console words that the check above looks for.
        let refused_here = page
            .client
            .execute(
                r#"try { document.createElement("div").innerHTML = "<b>x</b>"; return false; }
                   catch (e) { return e instanceof TypeError; }"#,
                vec![],
            )
            .await
            .map_err(|e| e.to_string())?;
        let words = page.take_console().await?;
        let seen = words.iter().any(|e| {
            FATAL_CONSOLE
                .iter()
                .any(|needle| e.message.contains(needle))
        });
        if refused_here != json!(true) || !seen {
            return Err(format!(
                "Trusted Types are not enforced on the page: {refused_here}, console {:?}",
                words.iter().map(|e| &e.message).collect::<Vec<_>>()
            ));
        }
        Ok(())
    };
    let outcome = harness.within(JOURNEY_TIMEOUT, steps).await;
    harness
        .finish(
            "issue_38_the_element_works_under_a_strict_csp_with_trusted_types",
            outcome,
        )
        .await;
}
