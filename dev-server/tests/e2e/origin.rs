//! Nothing leaves for another origin, whatever the host page (issue 38). The `<agent-chat>`
//! element on the example pages, which set no Content-Security-Policy, against a dev-server
//! whose every endpoint answers `307` to a second origin ([`Recorder`], another port, so
//! another origin) that accepts anything: the person is told in words, keeps what they wrote
//! or the card to answer again, and the second origin receives nothing at all. Each error on
//! screen is the proof that the redirect came back to the page and was not followed.
//!
//! Part of `tests/e2e.rs` (`AGENT_CHAT_DIST` with the element built by `cargo xtask element`).

use dev_server::routes::elsewhere::Recorder;
use serde_json::{json, Value};

use crate::harness::*;

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

/// Adds `<agent-chat id=id agent-id=agent>` (opening `conversation`, when given) to the
/// example page, as a host page would later on.
async fn add_chat(page: &ChatPage, id: &str, agent: &str, conversation: Option<&str>) -> Step {
    page.client
        .execute(
            r#"const chat = document.createElement("agent-chat");
               chat.id = arguments[0];
               chat.setAttribute("agent-id", arguments[1]);
               chat.setAttribute("show-history", "false");
               if (arguments[2]) chat.setAttribute("conversation-id", arguments[2]);
               document.querySelector("main").prepend(chat);"#,
            vec![json!(id), json!(agent), json!(conversation)],
        )
        .await
        .map(|_| ())
        .map_err(|e| format!("adding #{id}: {e}"))
}

/// Waits until the dev-server has sent a request `method …part…` elsewhere (so the page did
/// ask, and was answered with the redirect); returns the request line.
async fn wait_redirected(page: &ChatPage, method: &str, part: &str) -> Step<String> {
    let mut found = String::new();
    page.wait_until(
        &format!("the page to ask `{method} …{part}…`"),
        async || {
            let seen = page.api_get("/_dev/redirect").await?;
            let lines: Vec<String> = seen["redirected"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect();
            match lines
                .iter()
                .find(|l| l.starts_with(&format!("{method} ")) && l.contains(part))
            {
                Some(line) => {
                    found.clone_from(line);
                    Ok(())
                }
                None => Err(format!("redirected so far: {lines:?}")),
            }
        },
    )
    .await?;
    Ok(found)
}

/// Chooses `path` in the file picker inside `<agent-chat id=host>`.
async fn element_attach(page: &ChatPage, host: &str, path: &std::path::Path) -> Step {
    let found = page
        .client
        .execute(
            "return document.getElementById(arguments[0]).shadowRoot.querySelector(arguments[1]);",
            vec![json!(host), json!(FILE_PICKER)],
        )
        .await
        .map_err(|e| e.to_string())?;
    let id = found
        .as_object()
        .and_then(|o| o.values().next())
        .and_then(Value::as_str)
        .ok_or_else(|| format!("no file picker in #{host}: {found}"))?;
    let input = fantoccini::elements::Element::from_element_id(
        page.client.clone(),
        fantoccini::elements::ElementRef::from(id.to_owned()),
    );
    input
        .send_keys(&path.display().to_string())
        .await
        .map_err(|e| format!("choosing {}: {e}", path.display()))
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_38_a_message_with_a_file_and_the_history_redirected_elsewhere_send_nothing() {
    const SECOND: &str = "Second, with my notes";
    let (recorder, elsewhere) = second_origin().await;
    let harness = Harness::start().await;
    let page = &harness.page;
    let dir = std::env::temp_dir().join(format!("e2e-origin-{}", std::process::id()));
    let steps = async {
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let notes = dir.join("notes.txt");
        std::fs::write(&notes, b"my private notes").map_err(|e| e.to_string())?;
        page.open_path("examples/custom-element.html").await?;
        add_chat(page, "files", "files", None).await?;
        // A conversation at home first.
        page.element_send("files", "Hello").await?;
        page.element_wait_for_text(
            "files",
            ".chat-message[data-role=assistant] .chat-message__content",
            "",
        )
        .await?;
        redirect(page, Some(&elsewhere)).await?;
        // The next message, with a file, goes to the open conversation (streamed).
        element_attach(page, "files", &notes).await?;
        page.element_wait_for_text(
            "files",
            ".chat-input__files .chat-file-chip[data-state=ready]",
            "notes.txt",
        )
        .await?;
        page.element_send("files", SECOND).await?;
        let asked = wait_redirected(page, "POST", "/messages").await?;
        page.element_wait_for_text("files", ".chat-error", NOT_SENT)
            .await?;
        draft_kept(page, "files", SECOND).await?;
        page.element_wait_for_text("files", ".chat-input__files .chat-file-chip", "notes.txt")
            .await?;
        // History: a chat opening that conversation asks for it, and is sent elsewhere too.
        let conversation = asked
            .split("/conversations/")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .ok_or_else(|| format!("no conversation in {asked:?}"))?
            .to_owned();
        add_chat(page, "again", "files", Some(&conversation)).await?;
        wait_redirected(page, "GET", &format!("/conversations/{conversation}")).await?;
        page.element_wait_for_text("again", ".chat-error", NOT_SENT)
            .await?;
        nothing_arrived(&recorder)
    };
    let outcome = harness.within(JOURNEY_TIMEOUT, steps).await;
    let _ = std::fs::remove_dir_all(&dir);
    harness
        .finish(
            "issue_38_a_message_with_a_file_and_the_history_redirected_elsewhere_send_nothing",
            outcome,
        )
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_38_every_backends_answer_redirected_elsewhere_is_not_sent_and_the_card_waits() {
    let (recorder, elsewhere) = second_origin().await;
    let harness = Harness::start().await;
    let page = &harness.page;
    let steps = async {
        page.open_path("examples/other-backends.html").await?;
        // Each backend's card, drawn at home.
        page.element_send("responses", "Email the report to Ayse")
            .await?;
        page.element_send("a2a", "Book a flight to Izmir").await?;
        page.element_send("cogitator", "Refund order A-1").await?;
        page.element_wait_for_text("a2a", ".chat-card__question", "Which date?")
            .await?;
        page.element_wait_for_text("cogitator", ".chat-card__side-effects", "payment")
            .await?;
        page.element_wait_for_text(
            "responses",
            ".chat-card[data-state=waiting] .chat-card__approve",
            "",
        )
        .await?;
        redirect(page, Some(&elsewhere)).await?;
        // The Responses card's answer at the action endpoint.
        page.element_click(
            "responses",
            ".chat-card[data-state=waiting] .chat-card__approve",
        )
        .await?;
        wait_redirected(page, "POST", "/v1/actions/").await?;
        page.element_wait_for_text("responses", ".chat-error", NOT_SENT)
            .await?;
        // The A2A question's answer: a JSON-RPC message on the waiting task.
        page.element_type("a2a", ".chat-card__input", "Friday")
            .await?;
        page.element_click("a2a", ".chat-card__send").await?;
        wait_redirected(page, "POST", "/a2a").await?;
        page.element_wait_for_text("a2a", ".chat-error", NOT_SENT)
            .await?;
        // The Cogitator run's resume.
        page.element_click(
            "cogitator",
            ".chat-card[data-state=waiting] .chat-card__approve",
        )
        .await?;
        wait_redirected(page, "POST", "/resume").await?;
        page.element_wait_for_text("cogitator", ".chat-error", NOT_SENT)
            .await?;
        // Every card waits to be answered again.
        for host in ["responses", "a2a", "cogitator"] {
            page.element_wait_for_text(host, ".chat-card[data-state=waiting]", "")
                .await?;
        }
        nothing_arrived(&recorder)
    };
    let outcome = harness.within(JOURNEY_TIMEOUT, steps).await;
    harness
        .finish(
            "issue_38_every_backends_answer_redirected_elsewhere_is_not_sent_and_the_card_waits",
            outcome,
        )
        .await;
}
