//! Issue 37: the instant shell of `<agent-chat>`. The element build draws each chat's frame and
//! composer before its wasm arrives; these journeys hold the wasm back on the server
//! (`POST /_dev/wasm`), type with real keys into the shell, then let the wasm arrive (or fail)
//! and check that nothing typed was lost.

use fantoccini::key::Key;
use serde_json::{json, Value};

use super::harness::*;

/// The example page, opened without waiting for its load event (a held wasm that the page
/// preloads would hold that event too): first a page of the same origin, then a navigation
/// by script.
async fn open_example_with_the_wasm_held(page: &ChatPage) -> Step {
    page.api_post("/_dev/wasm", json!({ "state": "held" }))
        .await?;
    page.open_path("api/agents/agents").await?;
    page.client
        .execute(
            "location.href = '/examples/custom-element.html'; return true;",
            vec![],
        )
        .await
        .map_err(|e| format!("navigating to the example: {e}"))?;
    // The shell of the first chat, drawn with the wasm still held.
    wait_for_shell(page, true).await
}

/// What the composer of `#first` shows: whether the shell is still there, the textarea's
/// value, selection, `readOnly`, whether it has the focus, the form's `data-state`, the
/// helper's text and role.
const COMPOSER_JS: &str = r#"
const root = document.getElementById("first")?.shadowRoot;
if (!root) return null;
const t = root.querySelector("textarea.chat-input__textarea");
const form = t && t.form;
const helper = form && form.querySelector(".chat-input__helper");
return {
  shell: !!root.querySelector("[data-agent-chat-shell]"),
  defined: !!customElements.get("agent-chat"),
  value: t ? t.value : null,
  start: t ? t.selectionStart : null,
  end: t ? t.selectionEnd : null,
  readOnly: t ? t.readOnly : null,
  focused: !!t && root.activeElement === t && document.activeElement === root.host,
  state: form ? form.getAttribute("data-state") : null,
  helper: helper ? helper.textContent : null,
  role: helper ? helper.getAttribute("role") : null,
};
"#;

async fn composer(page: &ChatPage) -> Step<Value> {
    page.client
        .execute(COMPOSER_JS, vec![])
        .await
        .map_err(|e| format!("reading #first's composer: {e}"))
}

/// Waits until `#first` shows the shell (`true`) or the chat's own composer (`false`).
async fn wait_for_shell(page: &ChatPage, shell: bool) -> Step {
    page.wait_until(
        if shell {
            "#first's shell composer"
        } else {
            "#first's chat to take the shell over"
        },
        async || {
            let c = composer(page).await?;
            let ok = c["value"].is_string()
                && c["shell"] == json!(shell)
                && c["defined"] == json!(!shell);
            if ok {
                Ok(())
            } else {
                Err(format!("composer: {c}"))
            }
        },
    )
    .await
}

/// Puts the focus in the shell's text box as a click would (the driver cannot reach into a
/// shadow root); everything typed after this is real key actions.
async fn focus_the_shell(page: &ChatPage) -> Step {
    page.client
        .execute(
            r#"document.getElementById("first").shadowRoot
                 .querySelector("textarea.chat-input__textarea").focus(); return true;"#,
            vec![],
        )
        .await
        .map(drop)
        .map_err(|e| format!("focusing the shell: {e}"))
}

fn expect(c: &Value, key: &str, want: Value) -> Step {
    if c[key] == want {
        Ok(())
    } else {
        Err(format!(
            "composer {key} is {}, expected {want}: {c}",
            c[key]
        ))
    }
}

/// The steps of `i37_text_typed_before_the_wasm_survives_the_handover`.
pub async fn typed_text_survives_the_handover(page: &ChatPage) -> Step {
    open_example_with_the_wasm_held(page).await?;
    focus_the_shell(page).await?;
    page.type_text("hello shell").await?;
    // Caret three characters back, then select one more to its left: "hello sh|e|ll".
    page.press(&[Key::Left, Key::Left, Key::Left]).await?;
    page.chord(Key::Shift, char::from(Key::Left)).await?;
    let before = composer(page).await?;
    expect(&before, "shell", json!(true))?;
    expect(&before, "defined", json!(false))?;
    expect(&before, "value", json!("hello shell"))?;
    expect(&before, "start", json!(7))?;
    expect(&before, "end", json!(8))?;

    page.api_post("/_dev/wasm", json!({ "state": "released" }))
        .await?;
    wait_for_shell(page, false).await?;
    let after = composer(page).await?;
    expect(&after, "value", json!("hello shell"))?;
    expect(&after, "start", json!(7))?;
    expect(&after, "end", json!(8))?;
    expect(&after, "focused", json!(true))?;
    // Typing goes on where it stopped: the selected "h" is replaced, and the chat's draft has
    // the whole text (Enter sends it).
    page.type_text("H").await?;
    expect(&composer(page).await?, "value", json!("hello sHell"))?;
    page.press(&[Key::Enter]).await?;
    page.element_wait_for_text("first", ".chat-message__content", "hello sHell")
        .await?;
    page.wait_until("the composer to empty after sending", async || {
        let c = composer(page).await?;
        expect(&c, "value", json!(""))
    })
    .await
}

/// The steps of `i37_enter_before_the_wasm_sends_once_it_is_ready`.
pub async fn enter_before_ready_sends_when_ready(page: &ChatPage) -> Step {
    open_example_with_the_wasm_held(page).await?;
    focus_the_shell(page).await?;
    page.type_text("sent from the shell").await?;
    page.press(&[Key::Enter]).await?;
    let queued = composer(page).await?;
    expect(&queued, "state", json!("sending"))?;
    expect(&queued, "readOnly", json!(true))?;
    expect(&queued, "value", json!("sent from the shell"))?;
    expect(
        &queued,
        "helper",
        json!("Sending as soon as the chat is ready…"),
    )?;

    page.api_post("/_dev/wasm", json!({ "state": "released" }))
        .await?;
    page.element_wait_for_text("first", ".chat-message__content", "sent from the shell")
        .await?;
    let c = composer(page).await?;
    expect(&c, "shell", json!(false))?;
    expect(&c, "value", json!(""))?;
    // Sent once: one user message with that text.
    let texts = page
        .client
        .execute(
            r#"return Array.from(document.getElementById("first").shadowRoot
                 .querySelectorAll(".chat-message[data-role=user] .chat-message__content"),
                 (e) => e.textContent.trim());"#,
            vec![],
        )
        .await
        .map_err(|e| e.to_string())?;
    if texts != json!(["sent from the shell"]) {
        return Err(format!("the user's messages are {texts}"));
    }
    Ok(())
}

/// The steps of `i37_a_wasm_that_fails_gives_the_text_back_with_an_error`.
pub async fn failed_load_gives_the_text_back(page: &ChatPage) -> Step {
    open_example_with_the_wasm_held(page).await?;
    focus_the_shell(page).await?;
    page.type_text("keep me").await?;
    page.press(&[Key::Enter]).await?;
    expect(&composer(page).await?, "state", json!("sending"))?;

    page.api_post("/_dev/wasm", json!({ "state": "failed" }))
        .await?;
    page.wait_until("the shell to say the chat could not load", async || {
        let c = composer(page).await?;
        expect(&c, "state", json!("failed"))?;
        expect(&c, "role", json!("alert"))
    })
    .await?;
    let c = composer(page).await?;
    expect(&c, "value", json!("keep me"))?;
    expect(&c, "readOnly", json!(false))?;
    if !c["helper"]
        .as_str()
        .is_some_and(|h| h.starts_with("The chat could not load."))
    {
        return Err(format!("the error reads {}", c["helper"]));
    }
    // The text is the person's again: typing goes on.
    focus_the_shell(page).await?;
    page.press(&[Key::End]).await?;
    page.type_text(" please").await?;
    expect(&composer(page).await?, "value", json!("keep me please"))?;
    page.api_post("/_dev/wasm", json!({ "state": "released" }))
        .await
        .map(drop)
}

/// What the standalone page's composer shows: the shell's (in `#agent-chat-shell`'s shadow
/// root) while it is there, else the chat's own (in the page).
const PAGE_COMPOSER_JS: &str = r#"
const host = document.getElementById("agent-chat-shell");
const root = host && host.shadowRoot;
const t = root ? root.querySelector("textarea.chat-input__textarea")
               : document.querySelector("textarea.chat-input__textarea");
const form = t && t.form;
const helper = form && form.querySelector(".chat-input__helper");
return {
  shell: !!root,
  value: t ? t.value : null,
  start: t ? t.selectionStart : null,
  end: t ? t.selectionEnd : null,
  readOnly: t ? t.readOnly : null,
  focused: !!t && (root ? root.activeElement === t && document.activeElement === host
                        : document.activeElement === t),
  state: form ? form.getAttribute("data-state") : null,
  helper: helper ? helper.textContent : null,
  role: helper ? helper.getAttribute("role") : null,
};
"#;

async fn page_composer(page: &ChatPage) -> Step<Value> {
    page.client
        .execute(PAGE_COMPOSER_JS, vec![])
        .await
        .map_err(|e| format!("reading the page's composer: {e}"))
}

/// The standalone page opened with its wasm held (as [`open_example_with_the_wasm_held`]),
/// waiting until its shell takes text.
async fn open_page_with_the_wasm_held(page: &ChatPage) -> Step {
    page.api_post("/_dev/wasm", json!({ "state": "held" }))
        .await?;
    page.open_path("api/agents/agents").await?;
    page.client
        .execute("location.href = '/'; return true;", vec![])
        .await
        .map_err(|e| format!("navigating to the page: {e}"))?;
    wait_for_page_shell(page, true).await?;
    page.client
        .execute(
            r#"document.getElementById("agent-chat-shell").shadowRoot
                 .querySelector("textarea.chat-input__textarea").focus(); return true;"#,
            vec![],
        )
        .await
        .map(drop)
        .map_err(|e| format!("focusing the page's shell: {e}"))
}

/// Waits until the page shows its shell (`true`) or the chat's own composer (`false`).
async fn wait_for_page_shell(page: &ChatPage, shell: bool) -> Step {
    page.wait_until(
        if shell {
            "the page's shell composer"
        } else {
            "the page's chat to take the shell over"
        },
        async || {
            let c = page_composer(page).await?;
            if c["value"].is_string() && c["shell"] == json!(shell) {
                Ok(())
            } else {
                Err(format!("composer: {c}"))
            }
        },
    )
    .await
}

/// The steps of `i37_the_page_takes_text_before_its_wasm_and_keeps_it`: the standalone page
/// draws the same shell first in its body; what was typed there, the caret and the focus go to
/// the chat's composer, and Enter sends it.
pub async fn page_shell_survives_the_handover(page: &ChatPage) -> Step {
    open_page_with_the_wasm_held(page).await?;
    page.type_text("page shell").await?;
    page.press(&[Key::Left, Key::Left]).await?;
    let before = page_composer(page).await?;
    expect(&before, "shell", json!(true))?;
    expect(&before, "value", json!("page shell"))?;
    expect(&before, "start", json!(8))?;

    page.api_post("/_dev/wasm", json!({ "state": "released" }))
        .await?;
    wait_for_page_shell(page, false).await?;
    let after = page_composer(page).await?;
    expect(&after, "value", json!("page shell"))?;
    expect(&after, "start", json!(8))?;
    expect(&after, "end", json!(8))?;
    expect(&after, "focused", json!(true))?;
    page.type_text("-").await?;
    expect(&page_composer(page).await?, "value", json!("page she-ll"))?;
    page.press(&[Key::Enter]).await?;
    page.wait_for_text(".chat-message__content", "page she-ll")
        .await
        .map(drop)?;
    page.wait_until("the page's composer to empty after sending", async || {
        expect(&page_composer(page).await?, "value", json!(""))
    })
    .await
}

/// The steps of `i37_the_page_gives_the_text_back_when_its_wasm_fails`.
pub async fn page_shell_failed_load_gives_the_text_back(page: &ChatPage) -> Step {
    open_page_with_the_wasm_held(page).await?;
    page.type_text("keep me too").await?;
    page.press(&[Key::Enter]).await?;
    expect(&page_composer(page).await?, "state", json!("sending"))?;
    page.api_post("/_dev/wasm", json!({ "state": "failed" }))
        .await?;
    page.wait_until(
        "the page's shell to say the chat could not load",
        async || {
            let c = page_composer(page).await?;
            expect(&c, "state", json!("failed"))?;
            expect(&c, "role", json!("alert"))
        },
    )
    .await?;
    let c = page_composer(page).await?;
    expect(&c, "value", json!("keep me too"))?;
    expect(&c, "readOnly", json!(false))?;
    page.api_post("/_dev/wasm", json!({ "state": "released" }))
        .await
        .map(drop)
}

/// How each request of the message list's chunk (`split_messages.wasm`, the part the chat
/// draws first) was made, by Resource Timing's `initiatorType`, and whether the list is drawn
/// (in the page, or in `#first`'s shadow root).
const FIRST_CHUNK_JS: &str = r#"
const made = performance.getEntriesByType("resource")
  .filter((e) => /\/split_messages\.wasm$/.test(e.name.split("?")[0]))
  .map((e) => e.initiatorType);
const el = document.getElementById("first");
const root = el && el.shadowRoot ? el.shadowRoot : document;
return { made, list: !!root.querySelector(".chat-message-list") };
"#;

async fn first_chunk(page: &ChatPage) -> Step<Value> {
    page.client
        .execute(FIRST_CHUNK_JS, vec![])
        .await
        .map_err(|e| format!("reading the first chunk's requests: {e}"))
}

/// The steps of `i37_the_pages_first_chunk_is_asked_for_once_the_wasm_has_arrived`
/// (`element`: the example page, else the standalone page): while the main wasm is held nothing asks
/// for the message list's chunk (the shell is drawn, so its script has run); once the wasm
/// has arrived the shell's preload asks for it, before the chat needs it, and the chat's own
/// request takes that answer: one request, made by the `<link>`, and the list is drawn.
pub async fn first_chunk_follows_the_wasm(page: &ChatPage, element: bool) -> Step {
    if element {
        open_example_with_the_wasm_held(page).await?;
    } else {
        open_page_with_the_wasm_held(page).await?;
    }
    let held = first_chunk(page).await?;
    expect(&held, "made", json!([]))?;
    page.api_post("/_dev/wasm", json!({ "state": "released" }))
        .await?;
    if element {
        wait_for_shell(page, false).await?;
    } else {
        wait_for_page_shell(page, false).await?;
    }
    page.wait_until("the message list drawn from its chunk", async || {
        let now = first_chunk(page).await?;
        if now["list"] == true {
            Ok(())
        } else {
            Err(format!("{now}"))
        }
    })
    .await?;
    expect(&first_chunk(page).await?, "made", json!(["link"]))
}
