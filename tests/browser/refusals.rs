//! In the page, an answer a backend's gateway turns down itself, before anything is sent,
//! is said in the person's language with nothing in English under it; what the person
//! typed stays, the card can still be answered, and nothing reaches the server.
//!
//! The refusal a person can meet by clicking is AG-UI's check of a question's answer against
//! the interrupt's `responseSchema`: the card draws a free-text field for a number, so
//! nothing on the card stops a year below the schema's minimum or a word where a number
//! belongs, and only the gateway sees that the answer does not fit. The other refusals of
//! the gateways (LangGraph's allowed decisions, AI SDK and Cogitator taking approvals only,
//! a passed deadline) answer what the cards never offer, and the page's own check refuses
//! those first, so no click reaches them.

#![cfg(target_arch = "wasm32")]

use agent_chat_ui::core::transport::{TransportKind, TransportOptions};
use agent_chat_ui::Chat;
use leptos::prelude::*;
use serde_json::{json, Value};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

use crate::web;
use web::{clear_threads, query, section, type_text, wait_for, wait_until};

fn sse(events: &[Value]) -> String {
    events.iter().map(|e| format!("data: {e}\n\n")).collect()
}

/// A run that ends asking, bound to no tool call, which quarter and which year (from 2000)
/// to file, with the questions worded `quarter` and `year` (the agent's words, in the
/// person's language).
fn filing_run(quarter: &str, year: &str) -> String {
    let schema = json!({ "type": "object",
        "properties": {
            "quarter": { "type": "string", "title": "Quarter", "description": quarter,
                         "enum": ["Q1", "Q2", "Q3", "Q4"] },
            "year": { "type": "integer", "title": "Year", "description": year,
                      "minimum": 2000 } },
        "required": ["quarter", "year"], "additionalProperties": false });
    sse(&[
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r1"}),
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r1",
               "outcome": {"type": "interrupt", "interrupts": [{
                   "id": "int_f", "reason": "input_required",
                   "responseSchema": schema }]}}),
    ])
}

/// The run the corrected answer starts: it simply finishes.
fn finished_run() -> String {
    sse(&[
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r2"}),
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r2"}),
    ])
}

/// What one case writes and expects.
struct Case {
    locale: &'static str,
    base: &'static str,
    /// The agent's two questions, in the person's language.
    quarter: &'static str,
    year: &'static str,
    /// What the person types for the year, which the schema does not take.
    typed: &'static str,
    /// `chat-error-refused-does-not-fit` in `locale` (written out, so that a missing
    /// translation, which falls back to English, fails).
    refused: &'static str,
}

/// The POST requests the page made (what it asks when it starts is a GET).
fn posts(fetch: &web::fetch::FetchStub) -> Vec<Value> {
    fetch
        .calls()
        .into_iter()
        .filter(|c| c.method == "POST")
        .map(|c| c.json())
        .collect()
}

/// Sends a message in a `Chat` over AG-UI in `case.locale`, picks Q2, types `case.typed` for
/// the year and clicks Send: the gateway turns it down. Checks what the person sees, then
/// corrects the year to 2024 and sends it, which proves the card still answers and that the
/// refused answer never went out.
async fn refused_then_corrected(case: Case) {
    let fetch = web::fetch::FetchStub::install(json!([
        { "url": "POST ", "chunks": [filing_run(case.quarter, case.year)] },
        { "url": "POST ", "chunks": [finished_run()] },
    ]));
    let options = TransportOptions {
        kind: TransportKind::AgUi,
        ..Default::default()
    };
    let root = section();
    let (base, locale) = (case.base, case.locale);
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! {
            <Chat base_url=base transport=options.clone() locale=locale show_history=false/>
        }
    });
    let textarea = wait_for(&root, "textarea.chat-input__textarea").await;
    type_text(&textarea, "File the report");
    wait_until("send enabled", &root, || {
        query(&root, ".chat-input__send").is_some_and(|b| b.get_attribute("disabled").is_none())
    })
    .await;
    query(&root, ".chat-input__send").unwrap().click();

    let card = wait_for(&root, ".chat-card[data-state=waiting]").await;
    let year_field = || -> web_sys::HtmlInputElement {
        let questions = card.query_selector_all(".chat-card__question").unwrap();
        (0..questions.length())
            .filter_map(|i| questions.item(i))
            .map(|n| n.unchecked_into::<web_sys::HtmlElement>())
            .find(|q| {
                query(q, ".chat-card__question-text")
                    .and_then(|t| t.text_content())
                    .is_some_and(|t| t.starts_with(case.year))
            })
            .and_then(|q| query(&q, "input.chat-card__input"))
            .expect("the year has a text field")
            .unchecked_into()
    };
    let q2: web_sys::HtmlInputElement = query(&card, "input[value=Q2]")
        .expect("Q2 is an option")
        .unchecked_into();
    q2.click();
    type_text(&year_field(), case.typed);
    let send = query(&card, ".chat-card__send").expect("the card sends");
    wait_until("the card's Send is enabled", &root, || {
        !send.has_attribute("disabled")
    })
    .await;
    send.click();

    // The refusal, in the person's language; under it only where the answer breaks (a
    // pointer, in no language), never the gateway's English.
    let banner = wait_for(&root, ".chat-error[role=alert] .chat-error__text").await;
    let detail = query(&banner, ".chat-error__detail").and_then(|d| d.text_content());
    let whole = banner.text_content().unwrap_or_default();
    let sentence = match &detail {
        Some(d) => whole.strip_suffix(d.as_str()).unwrap_or(&whole).to_owned(),
        None => whole.clone(),
    };
    assert_eq!(sentence, case.refused, "{}: the banner", case.locale);
    assert_eq!(
        detail.as_deref(),
        Some(case.year),
        "{}: only where it breaks, as the card asked it",
        case.locale
    );
    // What was typed and picked stays, and the card can still be answered.
    let card = wait_for(&root, ".chat-card[data-state=waiting]").await;
    assert_eq!(
        year_field().value(),
        case.typed,
        "{}: the year",
        case.locale
    );
    assert!(q2.checked(), "{}: Q2 stays picked", case.locale);
    wait_until("the card's Send is enabled again", &root, || {
        query(&card, ".chat-card__send").is_some_and(|b| !b.has_attribute("disabled"))
    })
    .await;

    // A corrected year goes out: the only answer the server ever receives.
    type_text(&year_field(), "2024");
    query(&card, ".chat-card__send").unwrap().click();
    wait_until("the corrected answer is sent", &root, || {
        posts(&fetch).len() >= 2
    })
    .await;
    wait_for(&root, ".chat-card[data-state=answered]").await;
    let posts = posts(&fetch);
    assert_eq!(
        posts.len(),
        2,
        "{}: the message and the corrected answer only",
        case.locale
    );
    assert_eq!(
        posts[1]["resume"],
        json!([{"interruptId": "int_f", "status": "resolved",
                "payload": {"quarter": "Q2", "year": 2024}}]),
        "{}: the resume",
        case.locale
    );
    clear_threads(case.base);
}

/// A year below the schema's minimum, in a Turkish page.
#[wasm_bindgen_test]
async fn issue_38_a_year_the_ag_ui_schema_refuses_reads_in_turkish_keeps_it_and_sends_nothing() {
    refused_then_corrected(Case {
        locale: "tr",
        base: "https://refused-tr.test/ag-ui",
        quarter: "Hangi çeyrek?",
        year: "Hangi yıl?",
        typed: "1999",
        refused: "Gönderilmedi: yanıt istenene uymuyor.",
    })
    .await;
}

/// A word where the schema wants a number, in an Arabic page.
#[wasm_bindgen_test]
async fn issue_38_a_word_for_a_number_the_ag_ui_schema_refuses_reads_in_arabic_and_sends_nothing() {
    refused_then_corrected(Case {
        locale: "ar",
        base: "https://refused-ar.test/ag-ui",
        quarter: "أي ربع؟",
        year: "أي سنة؟",
        typed: "ألفان وأربعة",
        refused: "لم تُرسل: الإجابة لا تناسب ما طُلب.",
    })
    .await;
}
