//! Issue 38 in the page: a reply that fails inside its stream shows the server's own words
//! when it gave some, and otherwise the page's sentence for what kind of failure it was in
//! the person's language, on every backend with a wire of its own.

#![cfg(target_arch = "wasm32")]

use agent_chat_ui::core::transport::{TransportKind, TransportOptions};
use agent_chat_ui::Chat;
use leptos::prelude::*;
use serde_json::json;
use std::collections::HashMap;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

use crate::failing::failing_stream;
use crate::web;
use web::{clear_threads, query, section, type_text, wait_for, wait_until};

/// Every backend with a stream of its own, and what its failure without words reads in
/// Turkish.
const BACKENDS: [(TransportKind, &str); 7] = [
    (TransportKind::ChatCompletions, "Sunucu bir hata bildirdi."),
    (TransportKind::Responses, "Sunucu bir hata bildirdi."),
    (TransportKind::A2a, "Sunucu bir hata bildirdi."),
    (TransportKind::Cogitator, "Sunucu bir hata bildirdi."),
    (TransportKind::AiSdk, "Sunucu bir hata bildirdi."),
    (TransportKind::AgUi, "Sunucu bir hata bildirdi."),
    (TransportKind::Langgraph, "Sunucu bir hata bildirdi."),
];

/// Sends "Plan a trip" in a Turkish `Chat` over `kind` whose reply streams `body`; returns
/// the banner's second line once its sentence reads `expected`.
async fn failed_over(
    kind: TransportKind,
    base: &str,
    body: String,
    expected: &str,
) -> Option<String> {
    failed_over_with(kind, base, body, expected, HashMap::new()).await
}

/// [`failed_over`] with `custom` as the chat's `custom_messages`.
async fn failed_over_with(
    kind: TransportKind,
    base: &str,
    body: String,
    expected: &str,
    custom: HashMap<String, String>,
) -> Option<String> {
    // Every POST is the message (one request per send on each of these backends); what a
    // backend asks when it starts (an agent card) is answered 404 by the stub.
    let _fetch = web::fetch::FetchStub::install(json!([{ "url": "POST ", "chunks": [body] }]));
    let options = TransportOptions {
        kind,
        model: Some("model-x".into()),
        ..Default::default()
    };
    let root = section();
    let base = base.to_owned();
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! {
            <Chat base_url=base.clone() transport=options.clone() locale="tr" show_history=false
                custom_messages=custom.clone()/>
        }
    });
    let textarea: web_sys::HtmlTextAreaElement = wait_for(&root, "textarea.chat-input__textarea")
        .await
        .unchecked_into();
    type_text(&textarea, "Plan a trip");
    wait_until("send enabled", &root, || {
        query(&root, ".chat-input__send").is_some_and(|b| b.get_attribute("disabled").is_none())
    })
    .await;
    query(&root, ".chat-input__send").unwrap().click();
    let sentence = || {
        let banner = query(&root, ".chat-error[role=alert] .chat-error__text")?;
        let whole = banner.text_content().unwrap_or_default();
        let detail = query(&banner, ".chat-error__detail").and_then(|d| d.text_content());
        let text = match &detail {
            Some(d) => whole.strip_suffix(d.as_str()).unwrap_or(&whole).to_owned(),
            None => whole,
        };
        Some((text, detail))
    };
    wait_until(
        &format!("{kind:?}: the banner reads {expected:?}"),
        &root,
        || sentence().is_some_and(|(text, _)| text == expected),
    )
    .await;
    let (_, detail) = sentence().unwrap();
    detail
}

#[wasm_bindgen_test]
async fn issue_38_a_stream_error_keeps_the_servers_words_in_the_page_on_every_backend() {
    let words = "The weather service is down, try again at noon.";
    for (n, (kind, _)) in BACKENDS.into_iter().enumerate() {
        let base = format!("https://fail{n}.test/words");
        let detail = failed_over(kind, &base, failing_stream(kind, Some(words)), words).await;
        assert_eq!(detail, None, "{kind:?}: the words are the sentence itself");
        clear_threads("https://fail");
    }
}

#[wasm_bindgen_test]
async fn issue_38_a_stream_error_without_words_reads_in_turkish_in_the_page_on_every_backend() {
    for (n, (kind, said)) in BACKENDS.into_iter().enumerate() {
        let base = format!("https://fail{n}.test/none");
        let detail = failed_over(kind, &base, failing_stream(kind, None), said).await;
        assert_eq!(detail, None, "{kind:?}: no English under the Turkish");
        clear_threads("https://fail");
    }
}

/// A failed A2A task is kept with the conversation: opened again from the history (a
/// reload), its reply says why in the person's language when the agent gave no words.
#[wasm_bindgen_test]
async fn issue_38_a_failed_task_reopened_says_why_in_turkish() {
    let base = "https://fail-kept.test/a2a";
    let update = format!(
        "data: {}\n\n",
        json!({"jsonrpc": "2.0", "id": 1, "result": {
            "kind": "status-update", "taskId": "t1", "contextId": "c1", "final": true,
            "status": {"state": "failed"}}})
    );
    let said = "Ajan görevi tamamlamadı.";
    let detail = failed_over(TransportKind::A2a, base, update, said).await;
    assert_eq!(detail, None);
    let _fetch = web::fetch::FetchStub::install(json!([]));
    let options = TransportOptions {
        kind: TransportKind::A2a,
        model: Some("model-x".into()),
        ..Default::default()
    };
    let root = section();
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <Chat base_url=base transport=options.clone() locale="tr"/> }
    });
    let row = wait_for(&root, ".chat-history__item").await;
    query(&row, ".chat-history__select")
        .expect("the row opens")
        .click();
    let reason = wait_for(&root, ".chat-message__failed-reason").await;
    assert_eq!(reason.text_content().unwrap_or_default(), said);
    clear_threads("https://fail");
}

/// A host may reword what the page says itself, as it may reword a server's known code:
/// `custom_messages` replaces a failure's sentence by its message id (the React-style key or
/// the Fluent id), in the chat's language or not.
#[wasm_bindgen_test]
async fn issue_38_a_host_rewords_a_failure_the_page_says_itself() {
    let cases = [
        (TransportKind::ChatCompletions, "chat.error.serverFailed"),
        (TransportKind::AgUi, "chat-error-server-failed"),
    ];
    for (n, (kind, key)) in cases.into_iter().enumerate() {
        let ours = "Our assistant had a problem; we are on it.";
        let custom = HashMap::from([(key.to_owned(), ours.to_owned())]);
        let base = format!("https://reworded{n}.test/api");
        let detail = failed_over_with(kind, &base, failing_stream(kind, None), ours, custom).await;
        assert_eq!(detail, None, "{kind:?}: nothing under the host's words");
        clear_threads("https://reworded");
    }
}
