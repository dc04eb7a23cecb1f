//! Issue 14 in the browser: every card says where it stands (Pending approval, Sending…,
//! Executing…, Completed, Checking status) in words and in `data-state`, announced politely;
//! a Checking card offers no deciding button; a settled card shows its receipt; two calls of
//! one turn offer "Approve all (2)"; the host hears how many cards wait and can have the tab's
//! title say so.
#![cfg(target_arch = "wasm32")]

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use agent_chat_ui::core::{Input, PendingAttention, Session, SessionConfig};
use agent_chat_ui::store::{ChatCallbacks, ChatStore};
use agent_chat_ui::ui::cards::ChatActions;
use agent_chat_ui::ui::i18n::I18n;
use agent_chat_ui::ui::message_list::ChatMessageList;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

use crate::web;
use web::{query, section, type_text, wait_for, wait_until};

const APPROVAL: &str = r#"{"id":"act_1","type":"tool_approval","toolName":"send_email","args":{"to":"a@b.co"},"version":1,"executionStatus":"pending_approval"}"#;
const SECOND: &str = r#"{"id":"act_2","type":"tool_approval","toolName":"sandbox_exec","args":{"cmd":"ls"},"version":1}"#;

/// A list over a detached store (not started) that will open `conv_1`.
fn mount_empty(root: &web_sys::HtmlElement, callbacks: ChatCallbacks) -> (ChatStore, impl Drop) {
    let slot = Rc::new(Cell::new(None));
    let out = slot.clone();
    let handle = mount_to(root.clone(), move || {
        I18n::provide(Some("en"), HashMap::new());
        let config = SessionConfig {
            conversation_id: Some("conv_1".into()),
            show_history: false,
            ..SessionConfig::default()
        };
        let store = ChatStore::detached(Session::new(config), callbacks.clone());
        out.set(Some(store));
        view! { <ChatMessageList actions=ChatActions::from_store(store)/> }
    });
    (slot.get().expect("store"), handle)
}

/// A list over a detached store whose conversation `conv_1` has `open` waiting under `m_a`.
async fn mount(
    root: &web_sys::HtmlElement,
    open: &str,
    callbacks: ChatCallbacks,
) -> (ChatStore, impl Drop) {
    let (store, handle) = mount_empty(root, callbacks);
    web::open_conv_1(&store, "Approve?", open);
    (store, handle)
}

fn stage_text(root: &web_sys::HtmlElement, id: &str) -> String {
    query(
        root,
        &format!("[data-action-id=\"{id}\"] .chat-card__stage"),
    )
    .and_then(|e| e.text_content())
    .unwrap_or_default()
}

fn card_state(root: &web_sys::HtmlElement, id: &str) -> String {
    query(root, &format!(".chat-card[data-action-id=\"{id}\"]"))
        .and_then(|e| e.get_attribute("data-state"))
        .unwrap_or_default()
}

fn announced(root: &web_sys::HtmlElement) -> String {
    query(root, ".chat-announcer[aria-live=polite]")
        .and_then(|e| e.text_content())
        .unwrap_or_default()
}

async fn wait_stage(root: &web_sys::HtmlElement, id: &str, state: &str, words: &str) {
    wait_until(&format!("{id} reads {words}"), root, || {
        card_state(root, id) == state && stage_text(root, id) == words
    })
    .await;
}

fn frame(json: &str) -> Vec<u8> {
    format!("data: {json}\n\n").into_bytes()
}

#[wasm_bindgen_test]
async fn i14_a_card_reads_pending_sending_executing_completed_and_each_move_is_announced() {
    let root = section();
    let (store, _h) = mount(&root, APPROVAL, ChatCallbacks::default()).await;
    wait_stage(&root, "act_1", "waiting", "Pending approval").await;
    wait_for(&root, ".chat-card__approve").await.click();
    wait_stage(&root, "act_1", "sending", "Sending…").await;
    let stream = store.take_requests().pop().expect("the answer's stream");
    store.feed(Input::StreamChunk {
        id: stream.id,
        bytes: frame(r#"{"type":"stream.action_resolved","actionId":"act_1","status":"resolved"}"#),
    });
    wait_stage(&root, "act_1", "executing", "Executing…").await;
    wait_until("executing announced", &root, || {
        announced(&root) == "send_email: Executing…"
    })
    .await;
    store.feed(Input::StreamChunk {
        id: stream.id,
        bytes: frame(r#"{"type":"stream.action_updated","action":{"id":"act_1","type":"tool_approval","toolName":"send_email","args":{"to":"a@b.co"},"status":"resolved","version":1,"executionStatus":"completed","executionResult":{"sent":true}}}"#),
    });
    wait_stage(&root, "act_1", "completed", "Completed").await;
    wait_until("completed announced", &root, || {
        announced(&root) == "send_email: Completed"
    })
    .await;
    // The receipt: who decided, the version, what came of it.
    let receipt = wait_for(&root, ".chat-card__receipt").await;
    let text = receipt.text_content().unwrap_or_default();
    assert!(
        text.contains("Decided by") && text.contains("You"),
        "{text}"
    );
    assert!(text.contains("Version") && text.contains('1'), "{text}");
    assert!(text.contains("\"sent\": true"), "{text}");
    let card = query(&root, ".chat-card[data-action-id=\"act_1\"]").unwrap();
    assert_eq!(
        card.get_attribute("data-decision").as_deref(),
        Some("approved")
    );
}

#[wasm_bindgen_test]
async fn i14_a_card_whose_answer_may_not_have_arrived_checks_and_offers_no_button() {
    let root = section();
    let (store, _h) = mount(&root, APPROVAL, ChatCallbacks::default()).await;
    wait_for(&root, ".chat-card__approve").await.click();
    wait_stage(&root, "act_1", "sending", "Sending…").await;
    let stream = store.take_requests().pop().expect("the answer's stream");
    store.feed(Input::StreamClosed {
        id: stream.id,
        error: Some(agent_chat_ui::core::TransportError::Network("reset".into())),
    });
    wait_stage(&root, "act_1", "checking", "Checking status").await;
    let card = query(&root, ".chat-card[data-action-id=\"act_1\"]").unwrap();
    assert!(
        card.query_selector(".chat-card__approve")
            .unwrap()
            .is_none(),
        "no Approve while the answer's fate is unknown"
    );
    assert!(card.query_selector(".chat-card__deny").unwrap().is_none());
    let hint = query(&root, ".chat-card__checking").expect("the checking hint");
    assert!(hint
        .text_content()
        .unwrap_or_default()
        .contains("Checking whether it arrived"));
    // The page looked the conversation up at once.
    let looks: Vec<_> = store
        .take_requests()
        .into_iter()
        .filter(|r| r.path == "/conversations/conv_1")
        .collect();
    assert_eq!(looks.len(), 1);
}

#[wasm_bindgen_test]
async fn i14_two_calls_of_one_turn_offer_approve_all_and_move_together() {
    let root = section();
    let (store, _h) = mount(
        &root,
        &format!("{APPROVAL},{SECOND}"),
        ChatCallbacks::default(),
    )
    .await;
    let all = wait_for(&root, ".chat-batch__approve-all").await;
    assert_eq!(all.text_content().unwrap_or_default(), "Approve all (2)");
    assert!(query(&root, ".chat-batch__deny-all").is_some());
    all.click();
    wait_until("both cards sending", &root, || {
        card_state(&root, "act_1") == "sending" && card_state(&root, "act_2") == "sending"
    })
    .await;
    let answers: Vec<_> = store
        .take_requests()
        .into_iter()
        .filter(|r| r.path.contains("/actions/"))
        .collect();
    assert_eq!(answers.len(), 1, "one call at a time: {answers:?}");
    assert!(answers[0].path.ends_with("/act_1"));
    web::wait_gone(&root, ".chat-batch__approve-all").await;
}

#[wasm_bindgen_test]
async fn i14_the_host_hears_how_many_cards_wait_and_a_hidden_tab_title_counts_them() {
    let root = section();
    let seen: Rc<RefCell<Vec<PendingAttention>>> = Rc::new(RefCell::new(Vec::new()));
    let record = send_wrapper::SendWrapper::new(seen.clone());
    let callbacks = ChatCallbacks {
        on_attention: Some(Callback::new(move |a: PendingAttention| {
            record.borrow_mut().push(a)
        })),
        ..ChatCallbacks::default()
    };
    let document = web_sys::window().unwrap().document().unwrap();
    document.set_title("Support desk");
    // The tab is hidden (headless Chromium's is not: say so for this document).
    let hidden = js_sys::Object::new();
    js_sys::Reflect::set(&hidden, &"value".into(), &true.into()).unwrap();
    js_sys::Reflect::set(&hidden, &"configurable".into(), &true.into()).unwrap();
    js_sys::Object::define_property(
        document.unchecked_ref::<js_sys::Object>(),
        &"hidden".into(),
        &hidden,
    );

    let (store, _h) = mount(&root, &format!("{APPROVAL},{SECOND}"), callbacks).await;
    let owner = Owner::new();
    owner.with(|| {
        agent_chat_ui::ui::attention_title::prefix_title(
            move || store.pending_count(),
            Signal::stored(true),
        )
    });
    wait_until("two waiting reported", &root, || {
        seen.borrow().last().map(|a| a.pending) == Some(2)
    })
    .await;
    assert_eq!(
        seen.borrow().last().unwrap().kinds,
        vec!["tool_approval".to_owned()]
    );
    wait_until("title counts", &root, || {
        document.title() == "(2) Support desk"
    })
    .await;
    wait_for(&root, ".chat-batch__deny-all").await.click();
    wait_until("none waiting reported", &root, || {
        seen.borrow().last().map(|a| a.pending) == Some(0)
    })
    .await;
    wait_until("title restored", &root, || {
        document.title() == "Support desk"
    })
    .await;
    js_sys::Reflect::delete_property(document.unchecked_ref::<js_sys::Object>(), &"hidden".into())
        .unwrap();
    drop(owner);
}

/// A list over a detached store that opened `conv_1` whose paused message records `records`
/// (a JSON list body) as its actions, none open.
async fn mount_history(root: &web_sys::HtmlElement, records: &str) -> (ChatStore, impl Drop) {
    let (store, handle) = mount_empty(root, ChatCallbacks::default());
    store.dispatch(agent_chat_ui::core::Command::Start);
    let mut reqs = store.take_requests();
    web::answer(
        &store,
        &mut reqs,
        "/agents",
        200,
        r#"{"agents":[{"id":"ops","name":"Ops"}]}"#,
    );
    let conv = format!(
        r#"{{"conversation":{{"id":"conv_1","agentId":"ops"}},"messages":[
           {{"id":"m_u","role":"user","content":"do it"}},
           {{"id":"m_a","role":"assistant","content":"Done.","metadata":{{"pendingActions":[{records}]}}}}],
           "pendingActions":[]}}"#
    );
    web::answer(&store, &mut reqs, "/conversations/conv_1", 200, &conv);
    (store, handle)
}

#[wasm_bindgen_test]
async fn i14_every_settled_stage_reads_in_words_after_a_reload() {
    let root = section();
    let record = |id: &str, extra: &str| {
        format!(
            r#"{{"id":"{id}","type":"tool_approval","toolName":"t_{id}","args":{{}},"status":"resolved",{extra}}}"#
        )
    };
    let records = [
        record("a1", r#""resolution":{"decision":"allow"},"executionStatus":"completed""#),
        record(
            "a2",
            r#""resolution":{"decision":"allow"},"executionStatus":"failed","executionError":"SMTP refused""#,
        ),
        record("a3", r#""resolution":{"decision":"allow"},"executionStatus":"executing""#),
        record("a4", r#""resolution":{"decision":"deny"},"executionStatus":"rejected""#),
        record("a5", r#""resolution":{"decision":"allow"}"#),
        r#"{"id":"a6","type":"tool_approval","toolName":"t","args":{},"status":"expired"}"#.into(),
        r#"{"id":"a7","type":"tool_approval","toolName":"t","args":{},"status":"cancelled"}"#.into(),
        r#"{"id":"q1","type":"user_question","questions":[{"question":"Env?"}],"status":"resolved","resolution":{"answers":{"Env?":"prod"}}}"#.into(),
        r#"{"id":"q2","type":"user_question","questions":[{"question":"Env?","required":false}],"status":"resolved","resolution":{"answers":{},"cancelled":true}}"#.into(),
    ];
    let (_store, _h) = mount_history(&root, &records.join(",")).await;
    for (id, state, words) in [
        ("a1", "completed", "Completed"),
        ("a2", "failed", "Failed: SMTP refused"),
        ("a3", "executing", "Executing…"),
        ("a4", "denied", "Denied"),
        ("a5", "approved", "Approved"),
        ("a6", "expired", "Expired"),
        ("a7", "cancelled", "Cancelled"),
        ("q1", "answered", "Answered"),
        ("q2", "skipped", "Skipped"),
    ] {
        wait_stage(&root, id, state, words).await;
    }
    // A failure shows the provider's message in the receipt too.
    let failed = query(&root, "[data-action-id=\"a2\"] .chat-card__receipt-error").unwrap();
    assert_eq!(failed.text_content().unwrap_or_default(), "SMTP refused");
}

#[wasm_bindgen_test]
async fn i14_a_card_answered_elsewhere_says_so_with_who_and_takes_its_buttons_away() {
    let root = section();
    let (store, _h) = mount(&root, APPROVAL, ChatCallbacks::default()).await;
    wait_stage(&root, "act_1", "waiting", "Pending approval").await;
    // Another tab settled it: the page looks the conversation up.
    store.dispatch(agent_chat_ui::core::Command::SettledElsewhere {
        action_id: "act_1".into(),
    });
    let mut reqs = store.take_requests();
    let settled = r#"{"id":"act_1","type":"tool_approval","toolName":"send_email","args":{"to":"a@b.co"},"version":1,"status":"resolved","resolution":{"decision":"deny"},"resolvedBy":"user:bob","executionStatus":"rejected"}"#;
    let conv = format!(
        r#"{{"conversation":{{"id":"conv_1","agentId":"ops"}},"messages":[
           {{"id":"m_u","role":"user","content":"do it"}},
           {{"id":"m_a","role":"assistant","content":"Approve?","metadata":{{"pendingActions":[{settled}]}}}}],
           "pendingActions":[]}}"#
    );
    web::answer(&store, &mut reqs, "/conversations/conv_1", 200, &conv);
    wait_stage(&root, "act_1", "answered-elsewhere", "Answered elsewhere").await;
    wait_until("announced", &root, || {
        announced(&root) == "send_email: Answered elsewhere"
    })
    .await;
    assert!(query(&root, ".chat-card__approve").is_none());
    let by = query(&root, ".chat-card__receipt-by").expect("who decided");
    assert_eq!(by.text_content().unwrap_or_default(), "user:bob");
}

/// The approval guide's example record, as seed 004 writes it.
const GUIDE_RECORD: &str = r#"{"id":"act_42","version":3,"status":"pending_approval","type":"send_email","recipient":"alex@example.com"}"#;

#[wasm_bindgen_test]
async fn issue35_a_record_without_resolution_reads_its_own_status_after_a_reload() {
    let root = section();
    let record = |id: &str, status: &str, extra: &str| {
        format!(
            r#"{{"id":"{id}","version":3,"status":"{status}","type":"send_email","recipient":"r_{id}@example.com"{extra}}}"#
        )
    };
    let records = [
        record("s1", "approved", ""),
        record("s2", "rejected", ""),
        record("s3", "executing", ""),
        record("s4", "completed", ""),
        record("s5", "failed", r#","executionError":"SMTP refused""#),
        record("s6", "expired", ""),
    ];
    let (_store, _h) = mount_history(&root, &records.join(",")).await;
    for (id, state, words) in [
        ("s1", "approved", "Approved"),
        ("s2", "denied", "Denied"),
        ("s3", "executing", "Executing…"),
        ("s4", "completed", "Completed"),
        ("s5", "failed", "Failed: SMTP refused"),
        ("s6", "expired", "Expired"),
    ] {
        wait_stage(&root, id, state, words).await;
        // Drawn from the record: the operation's target is on the card.
        let card = query(&root, &format!(".chat-card[data-action-id=\"{id}\"]")).unwrap();
        let text = card.text_content().unwrap_or_default();
        assert!(
            text.contains(&format!("r_{id}@example.com")),
            "{id}: {text}"
        );
    }
    assert!(
        query(&root, ".chat-card[data-state=\"answered\"]").is_none(),
        "a record that says its stage read Answered"
    );
    assert!(query(&root, ".chat-card__approve").is_none());
}

#[wasm_bindgen_test]
async fn issue35_the_guides_example_record_is_drawn_and_approved_with_its_id_and_version() {
    let root = section();
    let (store, _h) = mount(&root, GUIDE_RECORD, ChatCallbacks::default()).await;
    wait_stage(&root, "act_42", "waiting", "Pending approval").await;
    let card = query(&root, ".chat-card[data-action-id=\"act_42\"]").unwrap();
    let text = card.text_content().unwrap_or_default();
    assert!(text.contains("alex@example.com"), "{text}");
    wait_for(&root, ".chat-card__approve").await.click();
    wait_stage(&root, "act_42", "sending", "Sending…").await;
    let sent = store
        .take_requests()
        .into_iter()
        .find(|r| r.path.contains("/actions/"))
        .expect("the decision was sent");
    assert_eq!(sent.path, "/conversations/conv_1/actions/act_42");
    let body: serde_json::Value = serde_json::from_str(sent.body.as_deref().unwrap()).unwrap();
    assert_eq!(body["version"], 3, "{body}");
    assert_eq!(body["resolution"]["decision"], "allow", "{body}");
}

#[wasm_bindgen_test]
async fn issue35_a_card_without_title_says_what_will_happen_to_whom_with_what() {
    let root = section();
    let body = "Dear Alex,\\n\\nplease find the contract attached.\\n\\nBest,\\nSam";
    let record = format!(
        r#"{{"id":"act_42","version":3,"status":"pending_approval","type":"send_email","recipient":"alex@example.com","subject":"Contract","body":"{body}"}}"#
    );
    let (_store, _h) = mount(&root, &record, ChatCallbacks::default()).await;
    let card = wait_for(&root, ".chat-card[data-action-id=\"act_42\"]").await;
    // What will happen, to whom: a sentence, not the raw id alone.
    let operation = query(&card, ".chat-card__operation").expect("the operation in words");
    assert_eq!(
        operation.text_content().unwrap_or_default(),
        "Send email to alex@example.com"
    );
    // With what: every parameter shown without a click, the target first.
    let visible = |el: &web_sys::HtmlElement| el.offset_height() > 0;
    let params: Vec<String> = card
        .query_selector_all(".chat-card__param")
        .unwrap()
        .values()
        .into_iter()
        .filter_map(|n| n.ok()?.dyn_into::<web_sys::Element>().ok())
        .filter_map(|e| e.get_attribute("data-param"))
        .collect();
    assert_eq!(params, ["recipient", "body", "subject"]);
    let subject = query(&card, "[data-param=subject] dd").unwrap();
    assert!(
        visible(&subject) && subject.closest("details").unwrap().is_none(),
        "the subject is shown without a click"
    );
    assert_eq!(subject.text_content().unwrap_or_default(), "Contract");
    // A long value is folded: its start is shown, its whole text one click away.
    let preview = query(&card, "[data-param=body] .chat-card__param-preview").unwrap();
    assert!(visible(&preview));
    assert_eq!(
        preview.text_content().unwrap_or_default(),
        "Dear Alex,\n\nplease find the contract attached.…"
    );
    let full = query(&card, "[data-param=body] .chat-card__param-full").unwrap();
    let fold = query(&card, "[data-param=body] details").unwrap();
    assert!(!fold.has_attribute("open"), "folded until asked");
    query(&card, "[data-param=body] summary").unwrap().click();
    wait_until("the whole body shows", &root, || {
        fold.has_attribute("open") && visible(&full)
    })
    .await;
    assert!(full
        .text_content()
        .unwrap_or_default()
        .ends_with("Best,\nSam"));
}

#[wasm_bindgen_test]
async fn issue35_a_settled_card_shows_its_history_with_times_after_a_reload() {
    let root = section();
    let record = r#"{"id":"act_42","type":"send_email","recipient":"alex@example.com","version":3,"status":"completed",
        "createdAt":"2026-12-02T09:00:00Z","executionStartedAt":"2026-12-02T09:05:00Z","executionEndedAt":"2026-12-02T09:05:02Z",
        "history":[{"status":"pending_approval","at":"2026-12-02T09:00:00Z","version":2},
                   {"status":"edited","at":"2026-12-02T09:03:00Z","by":"user:alex","version":3},
                   {"status":"approved","at":"2026-12-02T09:04:00Z","by":"user:alex","version":3}]}"#;
    let (_store, _h) = mount_history(&root, record).await;
    wait_stage(&root, "act_42", "completed", "Completed").await;
    let steps: Vec<web_sys::Element> = root
        .query_selector_all("[data-action-id=\"act_42\"] .chat-card__step")
        .unwrap()
        .values()
        .into_iter()
        .filter_map(|n| n.ok()?.dyn_into::<web_sys::Element>().ok())
        .collect();
    let kinds: Vec<String> = steps
        .iter()
        .filter_map(|e| e.get_attribute("data-step"))
        .collect();
    assert_eq!(
        kinds,
        ["proposed", "edited", "approved", "executing", "completed"]
    );
    let text = |i: usize| steps[i].text_content().unwrap_or_default();
    assert!(
        text(2).starts_with("Approved")
            && text(2).contains("by user:alex")
            && text(2).contains("(version 3)"),
        "{}",
        text(2)
    );
    assert!(text(3).starts_with("Execution started"), "{}", text(3));
    assert!(text(4).starts_with("Execution completed"), "{}", text(4));
    // Each step's time is machine-readable: when execution started and ended.
    let datetime = |i: usize| {
        steps[i]
            .query_selector("time")
            .unwrap()
            .and_then(|t| t.get_attribute("datetime"))
            .unwrap_or_default()
    };
    assert_eq!(datetime(3), "2026-12-02T09:05:00.000Z");
    assert_eq!(datetime(4), "2026-12-02T09:05:02.000Z");
}

#[wasm_bindgen_test]
async fn issue35_a_live_receipt_says_when_execution_started_and_ended() {
    let root = section();
    let (store, _h) = mount(&root, APPROVAL, ChatCallbacks::default()).await;
    wait_for(&root, ".chat-card__approve").await.click();
    let stream = store.take_requests().pop().expect("the answer's stream");
    store.feed(Input::StreamChunk {
        id: stream.id,
        bytes: frame(r#"{"type":"stream.action_resolved","actionId":"act_1","status":"resolved"}"#),
    });
    wait_stage(&root, "act_1", "executing", "Executing…").await;
    store.feed(Input::StreamChunk {
        id: stream.id,
        bytes: frame(r#"{"type":"stream.action_updated","action":{"id":"act_1","type":"tool_approval","toolName":"send_email","args":{"to":"a@b.co"},"status":"resolved","version":1,"executionStatus":"completed"}}"#),
    });
    wait_stage(&root, "act_1", "completed", "Completed").await;
    for step in ["approved", "executing", "completed"] {
        let time = wait_for(
            &root,
            &format!("[data-action-id=\"act_1\"] .chat-card__step[data-step={step}] time"),
        )
        .await;
        assert!(
            time.get_attribute("datetime")
                .is_some_and(|t| t.starts_with("20")),
            "{step} has a time"
        );
    }
    let approved = query(&root, ".chat-card__step[data-step=approved]").unwrap();
    assert!(approved
        .text_content()
        .unwrap_or_default()
        .contains("by You"));
}

/// An email whose recipient the server's policy keeps as proposed.
const LOCKED: &str = r#"{"id":"act_1","type":"tool_approval","toolName":"send_email","version":1,
  "args":{"recipient":"alex@example.com","subject":"Hi"},"readOnlyArgs":["recipient"],
  "argsSchema":{"type":"object","properties":{"recipient":{"type":"string"},"subject":{"type":"string"},"n":{"type":"integer"}}}}"#;

/// A list in `locale` over a detached store with argument editing on, `open` waiting.
fn mount_editing(
    root: &web_sys::HtmlElement,
    locale: &'static str,
    open: &str,
) -> (ChatStore, impl Drop) {
    let slot = Rc::new(Cell::new(None));
    let out = slot.clone();
    let handle = mount_to(root.clone(), move || {
        I18n::provide(Some(locale), HashMap::new());
        let config = SessionConfig {
            conversation_id: Some("conv_1".into()),
            show_history: false,
            ..SessionConfig::default()
        };
        let store = ChatStore::detached(Session::new(config), ChatCallbacks::default());
        out.set(Some(store));
        let actions = ChatActions {
            allow_argument_edit: Some(true),
            ..ChatActions::from_store(store)
        };
        view! { <ChatMessageList actions=actions/> }
    });
    let store: ChatStore = slot.get().expect("store");
    web::open_conv_1(&store, "Approve?", open);
    (store, handle)
}

#[wasm_bindgen_test]
async fn issue35_s000_row57_schema_problems_read_in_turkish_and_arabic() {
    for (locale, expected) in [
        (
            "tr",
            [
                "/recipient: bu değer değiştirilemez; aracın kuralı onu önerildiği gibi tutar",
                "/n: integer olmalı",
            ],
        ),
        (
            "ar",
            [
                "/recipient: لا يمكن تغيير هذه القيمة؛ تُبقيها سياسة الأداة كما اقتُرحت",
                "/n: يجب أن يكون integer",
            ],
        ),
    ] {
        let root = section();
        let (_store, _h) = mount_editing(&root, locale, LOCKED);
        wait_for(&root, ".chat-card__edit").await.click();
        let editor = wait_for(&root, ".chat-card__editor").await;
        type_text(
            &editor,
            r#"{"recipient":"eve@example.com","subject":"Hi","n":"x"}"#,
        );
        wait_for(&root, ".chat-card__problems li").await;
        let items: Vec<String> = root
            .query_selector_all(".chat-card__problems li")
            .unwrap()
            .values()
            .into_iter()
            .filter_map(|n| n.ok()?.dyn_into::<web_sys::Node>().ok()?.text_content())
            .collect();
        assert_eq!(items, expected, "{locale}");
    }
}

#[wasm_bindgen_test]
async fn issue35_a_read_only_value_cannot_be_changed_and_the_card_says_why() {
    let root = section();
    let (store, _h) = mount_editing(&root, "en", LOCKED);
    wait_for(&root, ".chat-card__edit").await.click();
    // The form offers the recipient read-only.
    let field = wait_for(&root, "[data-field=recipient]").await;
    assert!(
        field.has_attribute("readonly"),
        "the recipient is editable in the form"
    );
    // The JSON editor can type it, but the card says why that cannot go and Approve is off.
    let editor = wait_for(&root, ".chat-card__editor").await;
    type_text(&editor, r#"{"recipient":"eve@example.com","subject":"Hi"}"#);
    let problems = wait_for(&root, ".chat-card__problems").await;
    assert_eq!(
        problems.text_content().unwrap_or_default(),
        "/recipient: this value cannot be changed; the tool's policy keeps it as proposed"
    );
    let approve: web_sys::HtmlButtonElement = query(&root, ".chat-card__approve")
        .unwrap()
        .unchecked_into();
    assert!(
        approve.disabled(),
        "Approve stays on with a changed read-only value"
    );
    // Changing only what may change is sent, the recipient as proposed.
    type_text(
        &editor,
        r#"{"recipient":"alex@example.com","subject":"Hello"}"#,
    );
    wait_until("Approve comes back", &root, || !approve.disabled()).await;
    approve.click();
    let sent = store
        .take_requests()
        .into_iter()
        .find(|r| r.path.contains("/actions/"))
        .expect("the decision was sent");
    let body: serde_json::Value = serde_json::from_str(sent.body.as_deref().unwrap()).unwrap();
    assert_eq!(
        body["resolution"]["approvedArgs"],
        serde_json::json!({"recipient":"alex@example.com","subject":"Hello"})
    );
}
