//! Browser tests of the approval and question cards (issue 4): a `ChatMessageList` over a
//! detached `ChatStore` (no network, DESIGN §5) whose conversation was loaded with open
//! actions; clicks and typing in headless Chromium, then what the session asked to send.
#![cfg(target_arch = "wasm32")]

use std::cell::Cell;
use std::collections::HashMap;
use std::rc::Rc;

use agent_chat_ui::core::{
    Command, HttpRequest, HttpResponse, Input, Method, Resolution, Session, SessionConfig,
};
use agent_chat_ui::store::{ChatCallbacks, ChatStore};
use agent_chat_ui::ui::cards::{CardSlot, ChatActions, RenderCard};
use agent_chat_ui::ui::i18n::I18n;
use agent_chat_ui::ui::message_list::ChatMessageList;
use leptos::prelude::*;
use serde_json::{json, Value};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

use crate::web;
use web::{
    answer, computed_style, list_with_a_turn, press, query, section, type_text, wait_for,
    wait_gone, wait_until,
};

const APPROVAL: &str = r#"{"id":"act_1","type":"tool_approval","toolName":"sandbox_exec",
  "summary":"Run a command in the sandbox","args":{"cmd":"ls","timeout":10},
  "argsSchema":{"type":"object","properties":{"cmd":{"type":"string","minLength":1},
  "timeout":{"type":"integer","maximum":60}},"required":["cmd"],"additionalProperties":false}}"#;
const QUESTION: &str = r#"{"id":"q_1","type":"user_question","questions":[
  {"question":"Which env?","header":"Env","options":[{"label":"Staging","value":"staging"},{"label":"Prod","value":"prod"}],"allowFreeText":false}]}"#;
const SURVEY: &str = r#"{"id":"q_2","type":"user_question","questions":[
  {"question":"Features?","multiSelect":true,"options":[{"label":"Dark","value":"dark"},{"label":"Beta","value":"beta"}]},
  {"question":"Notes","required":false,"placeholder":"Optional comments"}]}"#;

/// How the list under test is given its `actions`.
#[derive(Clone, Copy)]
enum Wiring {
    /// Like `Chat`: answers through the store, argument editing on.
    Store,
    /// No `actions` at all (a custom layout that forgot them).
    None,
    /// A host card replaces the built-in approval card.
    Custom,
}

/// Mounts a list over a detached store whose conversation `conv_1` holds `actions` open, and
/// returns the store once the conversation is loaded.
async fn mount_with(
    root: &web_sys::HtmlElement,
    actions_json: &str,
    wiring: Wiring,
) -> (ChatStore, impl Drop) {
    let slot = Rc::new(Cell::new(None));
    let out = slot.clone();
    let handle = mount_to(root.clone(), move || {
        I18n::provide(Some("en"), HashMap::new());
        let config = SessionConfig {
            conversation_id: Some("conv_1".into()),
            ..SessionConfig::default()
        };
        let store = ChatStore::detached(Session::new(config), ChatCallbacks::default());
        out.set(Some(store));
        let actions = match wiring {
            Wiring::None => None,
            Wiring::Store => Some(ChatActions {
                allow_argument_edit: Some(true),
                ..ChatActions::from_store(store)
            }),
            Wiring::Custom => Some(ChatActions {
                render_tool_approval: Some(RenderCard::new(custom_card)),
                ..ChatActions::from_store(store)
            }),
        };
        view! { <ChatMessageList actions=actions.unwrap_or_default()/> }
    });
    let store = slot.get().expect("store created on mount");
    web::open_conv_1(&store, "I need you first.", actions_json);
    (store, handle)
}

/// The answers (E14 requests) made since the last call, as JSON bodies.
fn answers_sent(store: &ChatStore) -> Vec<Value> {
    store
        .take_requests()
        .into_iter()
        .filter(|r| r.method == Method::Post && r.path.contains("/actions/"))
        .map(|r| serde_json::from_str(r.body.as_deref().unwrap_or("null")).unwrap())
        .collect()
}

fn custom_card(card: CardSlot) -> AnyView {
    let resolve = card.resolve;
    view! {
        <div class="host-card" data-state=move || card.state.with(|s| s.as_str())>
            <button class="host-card__ok" on:click=move |_| resolve.run(Resolution::allow())>"OK"</button>
        </div>
    }
    .into_any()
}

fn is_disabled(el: &web_sys::HtmlElement) -> bool {
    el.has_attribute("disabled")
}

#[wasm_bindgen_test]
async fn f202_f225_approval_card_is_a_labelled_group_under_its_message_with_details() {
    let root = section();
    let (_store, _h) = mount_with(&root, APPROVAL, Wiring::Store).await;
    let card = wait_for(
        &root,
        "article[data-message-id=m_a] .chat-card[data-kind=tool_approval]",
    )
    .await;
    assert_eq!(card.get_attribute("role").as_deref(), Some("group"));
    assert_eq!(card.get_attribute("data-state").as_deref(), Some("waiting"));
    let title_id = card.get_attribute("aria-labelledby").unwrap();
    let title = query(&root, &format!("#{title_id}")).expect("heading the group names");
    assert_eq!(
        title.text_content().unwrap(),
        "sandbox_exec",
        "the heading keeps the tool's own name (issue 13)"
    );
    let summary = query(&card, ".chat-card__summary").unwrap();
    assert_eq!(
        summary.text_content().unwrap(),
        "Run a command in the sandbox"
    );
    let args = query(&card, ".chat-card__details .chat-card__args").unwrap();
    assert!(args.text_content().unwrap().contains("\"cmd\": \"ls\""));
    assert!(query(&card, ".chat-card__approve").is_some());
    assert!(query(&card, ".chat-card__deny").is_some());
}

#[wasm_bindgen_test]
async fn double_click_on_approve_sends_one_answer_and_a_refusal_keeps_what_was_typed() {
    let root = section();
    let (store, _h) = mount_with(&root, APPROVAL, Wiring::Store).await;
    let card = wait_for(&root, ".chat-card[data-state=waiting]").await;
    // Type a reason first, then double-click Approve.
    query(&card, ".chat-card__add-reason").unwrap().click();
    let reason = wait_for(&card, ".chat-card__reason input").await;
    type_text(&reason, "looks fine");
    let approve = query(&card, ".chat-card__approve").unwrap();
    approve.click();
    approve.click();
    wait_for(&root, ".chat-card[data-state=sending]").await;
    let sent: Vec<HttpRequest> = store
        .take_requests()
        .into_iter()
        .filter(|r| r.path.contains("/actions/"))
        .collect();
    assert_eq!(sent.len(), 1, "one request for a double click: {sent:?}");
    let body: Value = serde_json::from_str(sent[0].body.as_deref().unwrap()).unwrap();
    assert_eq!(sent[0].path, "/conversations/conv_1/actions/act_1");
    assert_eq!(
        body["resolution"],
        json!({"type": "tool_approval", "decision": "allow"})
    );
    assert!(
        is_disabled(&query(&root, ".chat-card__approve").unwrap()),
        "disabled in flight"
    );
    assert!(is_disabled(&query(&root, ".chat-card__deny").unwrap()));

    // F221: action_forbidden puts the card back to waiting: the same element, text kept.
    store.feed(Input::Response {
        id: sent[0].id,
        result: Ok(HttpResponse {
            status: 403,
            body: r#"{"error":{"code":"action_forbidden","message":"not yours"}}"#.into(),
            date: None,
            retry_after: None,
        }),
    });
    let again = wait_for(&root, ".chat-card[data-state=waiting]").await;
    assert!(
        again.is_same_node(Some(&card)),
        "the card is updated in place, not redrawn"
    );
    let reason: web_sys::HtmlInputElement = query(&card, ".chat-card__reason input")
        .unwrap()
        .unchecked_into();
    assert_eq!(reason.value(), "looks fine");
    assert!(!is_disabled(&query(&card, ".chat-card__approve").unwrap()));
}

#[wasm_bindgen_test]
async fn f205_f206_f207_invalid_edits_block_approve_with_problems_and_a_valid_edit_is_sent() {
    let root = section();
    let (store, _h) = mount_with(&root, APPROVAL, Wiring::Store).await;
    let card = wait_for(&root, ".chat-card[data-state=waiting]").await;
    let edit = query(&card, ".chat-card__edit").expect("editing allowed");
    edit.click();
    let editor = wait_for(&card, "textarea.chat-card__editor").await;
    let approve = query(&card, ".chat-card__approve").unwrap();

    type_text(&editor, "{\"cmd\": ");
    let problems = wait_for(&card, "[role=alert] .chat-card__problems li").await;
    assert!(problems
        .text_content()
        .unwrap()
        .starts_with("Not valid JSON (line 1"));
    assert!(is_disabled(&approve));

    type_text(&editor, "[1]");
    wait_until("not-an-object problem", &root, || {
        query(&card, ".chat-card__problems li").and_then(|p| p.text_content())
            == Some("The arguments must be a JSON object".into())
    })
    .await;

    type_text(&editor, r#"{"cmd": "", "timeout": 90, "extra": 1}"#);
    wait_until("three schema problems", &root, || {
        card.query_selector_all(".chat-card__problems li")
            .unwrap()
            .length()
            == 3
    })
    .await;
    let text = query(&card, ".chat-card__problems")
        .unwrap()
        .text_content()
        .unwrap();
    assert!(
        text.contains("/cmd: must have at least 1 character"),
        "{text}"
    );
    assert!(text.contains("/timeout: must be at most 60"), "{text}");
    assert!(
        text.contains("Arguments: \"extra\" is not allowed"),
        "{text}"
    );
    assert!(is_disabled(&approve));

    // Problems stay listed with the editor closed (Escape closes it, focus back on the button).
    press(&editor, "Escape");
    wait_gone(&card, "textarea.chat-card__editor").await;
    assert!(query(&card, ".chat-card__problems li").is_some());
    wait_until("focus back on Edit arguments", &root, || {
        web_sys::window()
            .unwrap()
            .document()
            .unwrap()
            .active_element()
            == Some(edit.clone().unchecked_into())
    })
    .await;

    // A valid edit through the form field: the JSON follows, the diff and the mark appear.
    edit.click();
    let editor = wait_for(&card, "textarea.chat-card__editor").await;
    type_text(&editor, r#"{"cmd": "ls", "timeout": 10}"#);
    let cmd = wait_for(&card, ".chat-card__field-input[data-field=cmd]").await;
    type_text(&cmd, "ls -la");
    wait_until("the JSON follows the field", &root, || {
        let t: web_sys::HtmlTextAreaElement = editor.clone().unchecked_into();
        serde_json::from_str::<Value>(&t.value()).ok()
            == Some(json!({"cmd": "ls -la", "timeout": 10}))
    })
    .await;
    let diff = wait_for(&card, ".chat-card__diff-row").await;
    let diff_text = diff.text_content().unwrap();
    assert!(
        diff_text.contains("cmd")
            && diff_text.contains("\"ls\"")
            && diff_text.contains("\"ls -la\""),
        "{diff_text}"
    );
    assert!(query(&card, ".chat-card__edited").is_some());
    assert!(!is_disabled(&approve));
    approve.click();
    wait_for(&root, ".chat-card[data-state=sending]").await;
    let bodies = answers_sent(&store);
    assert_eq!(
        bodies[0]["resolution"],
        json!({"type": "tool_approval", "decision": "allow", "approvedArgs": {"cmd": "ls -la", "timeout": 10}})
    );
}

#[wasm_bindgen_test]
async fn f206_reset_puts_the_proposal_back_and_deny_ignores_the_edit() {
    let root = section();
    let (store, _h) = mount_with(&root, APPROVAL, Wiring::Store).await;
    let card = wait_for(&root, ".chat-card[data-state=waiting]").await;
    query(&card, ".chat-card__edit").unwrap().click();
    let editor = wait_for(&card, "textarea.chat-card__editor").await;
    type_text(&editor, r#"{"cmd": "rm -rf /"}"#);
    wait_for(&card, ".chat-card__edited").await;
    query(&card, ".chat-card__reset").unwrap().click();
    wait_gone(&card, ".chat-card__edited").await;
    wait_gone(&card, ".chat-card__diff").await;
    type_text(&editor, r#"{"cmd": "rm -rf /"}"#);
    wait_for(&card, ".chat-card__edited").await;
    query(&card, ".chat-card__deny").unwrap().click();
    wait_for(&root, ".chat-card[data-state=sending]").await;
    let bodies = answers_sent(&store);
    assert_eq!(
        bodies[0]["resolution"],
        json!({"type": "tool_approval", "decision": "deny"})
    );
}

#[wasm_bindgen_test]
async fn f195_f218_a_list_without_actions_draws_read_only_cards() {
    let root = section();
    let (store, _h) = mount_with(&root, APPROVAL, Wiring::None).await;
    let card = wait_for(&root, ".chat-card[data-kind=tool_approval]").await;
    let note = wait_for(&card, ".chat-card__elsewhere[role=status]").await;
    assert_eq!(
        note.text_content().unwrap(),
        "Waiting for approval in another app"
    );
    assert!(query(&card, ".chat-card__approve").is_none());
    assert!(query(&card, ".chat-card__deny").is_none());
    assert!(answers_sent(&store).is_empty());
}

#[wasm_bindgen_test]
async fn f182_a_custom_renderer_replaces_the_card_and_resolve_sends_its_answer() {
    let root = section();
    let (store, _h) = mount_with(&root, APPROVAL, Wiring::Custom).await;
    let custom = wait_for(&root, ".host-card[data-state=waiting]").await;
    assert!(
        query(&root, ".chat-card--approval").is_none(),
        "built-in card replaced"
    );
    query(&custom, ".host-card__ok").unwrap().click();
    wait_for(&root, ".host-card[data-state=sending]").await;
    let bodies = answers_sent(&store);
    assert_eq!(bodies.len(), 1);
    assert_eq!(
        bodies[0]["resolution"],
        json!({"type": "tool_approval", "decision": "allow"})
    );
}

#[wasm_bindgen_test]
async fn f208_f209_a_lone_single_choice_question_submits_on_pick() {
    let root = section();
    let (store, _h) = mount_with(&root, QUESTION, Wiring::Store).await;
    let card = wait_for(&root, ".chat-card[data-kind=user_question]").await;
    assert_eq!(
        query(&card, ".chat-card__chip")
            .unwrap()
            .text_content()
            .unwrap(),
        "Env"
    );
    assert!(
        query(&card, ".chat-card__send").is_none(),
        "no Send for an instant question"
    );
    assert!(
        query(&card, ".chat-card__skip").is_none(),
        "required: no Skip"
    );
    assert!(query(&card, "[role=radiogroup]").is_some());
    let prod = query(&card, ".chat-card__option input[value=prod]").unwrap();
    prod.click();
    wait_for(&root, ".chat-card[data-state=sending]").await;
    let bodies = answers_sent(&store);
    assert_eq!(
        bodies[0]["resolution"],
        json!({"type": "user_question", "answers": {"Which env?": "prod"}})
    );
}

#[wasm_bindgen_test]
async fn f210_f212_f213_multi_select_sends_picks_plus_typed_text_and_skip_needs_no_required() {
    let root = section();
    let (store, _h) = mount_with(&root, SURVEY, Wiring::Store).await;
    let card = wait_for(&root, ".chat-card[data-kind=user_question]").await;
    let send = query(&card, ".chat-card__send").unwrap();
    assert!(is_disabled(&send), "a required question is unanswered");
    assert!(
        query(&card, ".chat-card__skip").is_none(),
        "Features? is required"
    );
    query(&card, ".chat-card__option input[value=beta]")
        .unwrap()
        .click();
    let inputs = card.query_selector_all("input.chat-card__input").unwrap();
    assert_eq!(inputs.length(), 2, "free text on both questions");
    let notes: web_sys::HtmlElement = inputs.get(1).unwrap().unchecked_into();
    assert_eq!(
        notes.get_attribute("placeholder").as_deref(),
        Some("Optional comments")
    );
    let extra: web_sys::HtmlElement = inputs.get(0).unwrap().unchecked_into();
    type_text(&extra, "sso");
    wait_until("Send enabled", &root, || !is_disabled(&send)).await;
    send.click();
    wait_for(&root, ".chat-card[data-state=sending]").await;
    let bodies = answers_sent(&store);
    assert_eq!(
        bodies[0]["resolution"],
        json!({"type": "user_question", "answers": {"Features?": ["beta", "sso"]}})
    );
}

// ----- live cards: announcement and focus (F226-F229) ---------------------------------------

/// Mounts a list plus composer over a detached store, sends a message and streams a turn that
/// pauses with `action`. Returns the store and the composer.
async fn live_turn(
    root: &web_sys::HtmlElement,
    action: &str,
    typed: Option<&str>,
) -> (ChatStore, web_sys::HtmlTextAreaElement, impl Drop) {
    live_turn_in(
        root,
        action,
        typed,
        agent_chat_ui::core::ComposerMode::Block,
    )
    .await
}

async fn live_turn_in(
    root: &web_sys::HtmlElement,
    action: &str,
    typed: Option<&str>,
    mode: agent_chat_ui::core::ComposerMode,
) -> (ChatStore, web_sys::HtmlTextAreaElement, impl Drop) {
    let config = SessionConfig {
        show_history: false,
        composer_mode: mode,
        ..SessionConfig::default()
    };
    live_turn_with(root, action, typed, config).await
}

fn active() -> Option<web_sys::Element> {
    web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .active_element()
}

fn announcer_text(root: &web_sys::HtmlElement) -> String {
    query(root, ".chat-announcer[aria-live=polite]")
        .expect("one live region")
        .text_content()
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn f226_f227_f228_a_live_approval_is_announced_focused_and_focus_returns_to_the_composer() {
    let root = section();
    let (store, composer, _h) = live_turn(&root, APPROVAL.replace('\n', "").as_str(), None).await;
    let card = wait_for(&root, ".chat-card[data-kind=tool_approval]").await;
    wait_until("announced", &root, || {
        announcer_text(&root) == "The assistant needs your approval: sandbox_exec"
    })
    .await;
    wait_until("the card itself has focus", &root, || {
        active() == Some(card.clone().unchecked_into())
    })
    .await;
    assert_eq!(card.get_attribute("tabindex").as_deref(), Some("-1"));

    query(&card, ".chat-card__approve").unwrap().click();
    let answer_stream = store
        .take_requests()
        .into_iter()
        .find(|r| r.path.contains("/actions/"))
        .expect("answer sent");
    let frames = "data: {\"type\":\"stream.action_resolved\",\"timestamp\":5,\"conversationId\":\"conv_1\",\"actionId\":\"act_1\",\"status\":\"resolved\",\"resolution\":{\"decision\":\"allow\"}}\n\n\
                  data: {\"type\":\"stream.done\",\"timestamp\":6,\"conversationId\":\"conv_1\",\"messageId\":\"m_a2\",\"content\":\"Done.\"}\n\n";
    web::feed_whole_stream(&store, answer_stream.id, frames);
    let outcome = wait_for(
        &root,
        ".chat-card[data-state=approved] .chat-card__outcome[role=status]",
    )
    .await;
    assert_eq!(
        query(&outcome, ".chat-card__outcome-label")
            .unwrap()
            .text_content()
            .unwrap(),
        "Approved"
    );
    wait_until("focus back on the composer", &root, || {
        active() == Some(composer.clone().unchecked_into())
    })
    .await;
}

#[wasm_bindgen_test]
async fn f227_a_live_question_focuses_its_first_control() {
    let root = section();
    let (_store, _composer, _h) = live_turn(&root, SURVEY.replace('\n', "").as_str(), None).await;
    let first = wait_for(&root, ".chat-card__option input[value=dark]").await;
    wait_until("announced", &root, || {
        announcer_text(&root) == "The assistant has a question"
    })
    .await;
    wait_until("first option focused", &root, || {
        active() == Some(first.clone().unchecked_into())
    })
    .await;
}

/// A lone single-choice question submits on pick, so its options decide: it lands on their
/// group, where Enter and Space choose nothing and an arrow moves into the options (seed 000:
/// "no button which decides is ever the first thing a key press hits"). Real keys: e2e
/// `issue35_a_stray_key_never_answers_a_lone_choice_that_just_arrived`.
#[wasm_bindgen_test]
async fn issue35_a_live_lone_choice_lands_on_its_options_group_not_on_an_option() {
    let root = section();
    let (store, _composer, _h) = live_turn(&root, QUESTION.replace('\n', "").as_str(), None).await;
    let group = wait_for(&root, ".chat-card__question[role=radiogroup]").await;
    wait_until("the options group has focus", &root, || {
        active() == Some(group.clone().unchecked_into())
    })
    .await;
    assert_eq!(group.get_attribute("tabindex").as_deref(), Some("-1"));
    press(&group, "Enter");
    press(&group, " ");
    press(&group, "ArrowDown");
    // The arrow, pressed after Enter and Space, was handled: focus is on the first option.
    let staging = query(&group, "input[value=staging]").unwrap();
    wait_until("the arrow moved into the options", &root, || {
        active() == Some(staging.clone().unchecked_into())
    })
    .await;
    assert!(
        answers_sent(&store).is_empty(),
        "a key on the group answered"
    );
    assert_eq!(
        query(&root, ".chat-card[data-action-id=q_1]")
            .unwrap()
            .get_attribute("data-state")
            .as_deref(),
        Some("waiting")
    );
    // Up on the group itself goes to the last option.
    press(&group, "ArrowUp");
    let prod = query(&group, "input[value=prod]").unwrap();
    wait_until("the last option has focus", &root, || {
        active() == Some(prod.clone().unchecked_into())
    })
    .await;
}

#[wasm_bindgen_test]
async fn c24_a_card_arriving_while_the_person_types_neither_announces_nor_steals_focus() {
    let root = section();
    let (_store, composer, _h) = live_turn_in(
        &root,
        APPROVAL.replace('\n', "").as_str(),
        Some("half a thought"),
        agent_chat_ui::core::ComposerMode::Cancel,
    )
    .await;
    wait_for(&root, ".chat-card[data-kind=tool_approval]").await;
    // A card takes focus in the animation frame after it is drawn (its effect asks for one);
    // these frames were asked for later, so they run after any such request landed.
    web::next_frame().await;
    web::next_frame().await;
    assert_eq!(announcer_text(&root), "");
    assert_eq!(active(), Some(composer.clone().unchecked_into()));
    assert_eq!(composer.value(), "half a thought");
}

#[wasm_bindgen_test]
async fn f229_cards_restored_with_a_conversation_are_neither_announced_nor_focused() {
    let root = section();
    let (_store, _h) = mount_with(&root, APPROVAL, Wiring::Store).await;
    let card = wait_for(&root, ".chat-card[data-kind=tool_approval]").await;
    // As above: any focus request of the drawn card has landed once these frames ran.
    web::next_frame().await;
    web::next_frame().await;
    assert_eq!(announcer_text(&root), "");
    // Neither the card nor anything in it (a live question focuses its first control).
    let focused = active().expect("something has focus");
    assert!(
        !card.contains(Some(&focused)),
        "focus is inside the restored card: {}",
        focused.outer_html()
    );
}

#[wasm_bindgen_test]
async fn i13_in_block_mode_a_card_arriving_while_typing_takes_no_focus_and_the_draft_stays() {
    let root = section();
    let (_store, composer, _h) = live_turn(
        &root,
        APPROVAL.replace('\n', "").as_str(),
        Some("half a thought"),
    )
    .await;
    wait_for(&root, ".chat-card[data-kind=tool_approval]").await;
    wait_until("the composer is closed", &root, || {
        composer.get_attribute("aria-disabled").as_deref() == Some("true")
    })
    .await;
    // Two frames: a focus request would have landed by then.
    web::next_frame().await;
    web::next_frame().await;
    assert_eq!(
        active(),
        Some(composer.clone().unchecked_into()),
        "focus stays in the composer the person is typing in"
    );
    assert!(
        composer.read_only(),
        "closed, but not disabled: focus is not thrown away"
    );
    assert!(!composer.disabled());
    assert_eq!(composer.value(), "half a thought");
}

/// Mounts a list plus composer over a detached store built from `config`, sends a message and
/// streams a turn that pauses with `action`; with `typed`, the person is typing that in the
/// composer when the card arrives. Returns the store and the composer.
async fn live_turn_with(
    root: &web_sys::HtmlElement,
    action: &str,
    typed: Option<&str>,
    config: SessionConfig,
) -> (ChatStore, web_sys::HtmlTextAreaElement, impl Drop) {
    live_turn_calling(root, action, typed, config, ChatCallbacks::default(), OPS).await
}

/// [`live_turn_with`], the store reporting to `callbacks`.
async fn live_turn_calling(
    root: &web_sys::HtmlElement,
    action: &str,
    typed: Option<&str>,
    config: SessionConfig,
    callbacks: ChatCallbacks,
    agents: &str,
) -> (ChatStore, web_sys::HtmlTextAreaElement, impl Drop) {
    let slot = Rc::new(Cell::new(None));
    let out = slot.clone();
    let handle = mount_to(root.clone(), move || {
        I18n::provide(Some("en"), HashMap::new());
        let store = ChatStore::detached(Session::new(config.clone()), callbacks.clone());
        out.set(Some(store));
        let actions = ChatActions::from_store(store);
        view! {
            <ChatMessageList actions=actions/>
            <agent_chat_ui::ui::chat_input::ChatInput/>
        }
    });
    let store = slot.get().expect("store");
    store.dispatch(Command::Start);
    let mut reqs = store.take_requests();
    answer(&store, &mut reqs, "/agents", 200, agents);
    let composer: web_sys::HtmlTextAreaElement = wait_for(root, "textarea.chat-input__textarea")
        .await
        .unchecked_into();
    store.send_message("please do it");
    let mut reqs = store.take_requests();
    answer(
        &store,
        &mut reqs,
        "/conversations",
        201,
        r#"{"conversation":{"id":"conv_1","agentId":"ops"}}"#,
    );
    let stream = store.take_requests().pop().expect("the message stream");
    if let Some(text) = typed {
        // The person is typing in the composer while the card arrives.
        composer.focus().unwrap();
        type_text(&composer, text);
        wait_until("composer focused", root, || {
            active() == Some(composer.clone().unchecked_into())
        })
        .await;
    }
    let frames = format!(
        "data: {{\"type\":\"stream.start\",\"timestamp\":1,\"conversationId\":\"conv_1\",\"messageId\":\"m_u\"}}\n\n\
         data: {{\"type\":\"stream.action_required\",\"timestamp\":2,\"conversationId\":\"conv_1\",\"action\":{action}}}\n\n\
         data: {{\"type\":\"stream.done\",\"timestamp\":3,\"conversationId\":\"conv_1\",\"messageId\":\"m_a\",\"content\":\"I need you first.\",\"status\":\"requires_action\",\"pendingActions\":[{action}]}}\n\n"
    );
    web::feed_whole_stream(&store, stream.id, &frames);
    (store, composer, handle)
}

#[wasm_bindgen_test]
async fn i13_f228_focus_returns_to_the_composer_when_the_last_card_expires() {
    let root = section();
    let deadline = js_sys::Date::now() as u64 + 1_500;
    let expiring = APPROVAL.replace('\n', "").replace(
        "\"args\":{",
        &format!("\"expiresAt\":{deadline},\"args\":{{"),
    );
    let (_store, composer, _h) = live_turn(&root, &expiring, None).await;
    let card = wait_for(
        &root,
        ".chat-card[data-kind=tool_approval][data-state=waiting]",
    )
    .await;
    wait_until("the card has focus", &root, || {
        active() == Some(card.clone().unchecked_into())
    })
    .await;
    // Nobody answers: at the deadline the card expires by itself (no answer, no refusal).
    wait_for(
        &root,
        ".chat-card[data-kind=tool_approval][data-state=expired]",
    )
    .await;
    wait_until("focus back on the composer", &root, || {
        active() == Some(composer.clone().unchecked_into())
    })
    .await;
    assert!(!composer.read_only(), "the composer is open again");
}

#[wasm_bindgen_test]
async fn i13_a_read_only_card_in_block_mode_is_announced_takes_no_focus_and_the_composer_says_elsewhere(
) {
    let root = section();
    let config = SessionConfig {
        show_history: false,
        enable_tool_approvals: false,
        ..SessionConfig::default()
    };
    let (_store, composer, _h) =
        live_turn_with(&root, APPROVAL.replace('\n', "").as_str(), None, config).await;
    let card = wait_for(&root, ".chat-card[data-kind=tool_approval]").await;
    wait_until("announced as waiting elsewhere", &root, || {
        announcer_text(&root) == "The assistant is waiting for an answer in another app"
    })
    .await;
    assert_eq!(
        query(&card, ".chat-card__elsewhere")
            .unwrap()
            .text_content()
            .unwrap(),
        "Waiting for approval in another app"
    );
    let hint = wait_for(&root, ".chat-input__helper[data-hint=true]").await;
    assert_eq!(
        hint.text_content().unwrap(),
        "The assistant is waiting for an answer in another app.",
        "nothing here can answer: the composer must not say 'answer above'"
    );
    web::next_frame().await;
    web::next_frame().await;
    let focused = active();
    assert!(
        focused.as_ref().is_none_or(|f| !card.contains(Some(f))),
        "a read-only card takes no focus"
    );
    assert!(composer.read_only());
}

/// The conversation `conv_1` loaded again, with `act_1` open as `action`.
fn reload_with(store: &ChatStore, action: &str) {
    store.dispatch(Command::OpenConversation("conv_1".into()));
    let mut reqs = store.take_requests();
    let conv = format!(
        r#"{{"conversation":{{"id":"conv_1","agentId":"ops"}},"messages":[
           {{"id":"m_u","role":"user","content":"do it"}},
           {{"id":"m_a","role":"assistant","content":"I need you first."}}],
           "pendingActions":[{action}]}}"#
    );
    answer(store, &mut reqs, "/conversations/conv_1", 200, &conv);
}

#[wasm_bindgen_test]
async fn i13_a_request_that_changes_while_drawn_is_redrawn_with_a_notice_and_approve_is_for_it() {
    let root = section();
    let first = APPROVAL.replace(
        "\"args\":{\"cmd\":\"ls\"",
        "\"version\":1,\"args\":{\"cmd\":\"ls\"",
    );
    let (store, _h) = mount_with(&root, &first, Wiring::Store).await;
    let card = wait_for(&root, ".chat-card[data-action-id=act_1]").await;
    assert!(card.get_attribute("data-changed").is_none());
    // The person starts an edit of the first request.
    query(&card, ".chat-card__edit").unwrap().click();
    let editor = wait_for(&root, ".chat-card__editor").await;
    type_text(&editor, r#"{"cmd": "ls -la", "timeout": 10}"#);
    wait_for(&root, ".chat-card__edited").await;

    // The person approves the edit; the server refuses it as out of date (the request was
    // re-issued meanwhile) and the chat fetches the conversation again: same id, other
    // arguments, a new version.
    query(&card, ".chat-card__approve").unwrap().click();
    wait_for(&root, ".chat-card[data-state=sending]").await;
    let mut reqs = store.take_requests();
    answer(
        &store,
        &mut reqs,
        "/conversations/conv_1/actions/act_1",
        409,
        r#"{"error":{"code":"action_version_conflict","message":"changed"}}"#,
    );
    let second = APPROVAL
        .replace("\"cmd\":\"ls\"", "\"cmd\":\"rm -rf /tmp/x\"")
        .replace("\"args\":{", "\"version\":2,\"args\":{");
    let mut reqs = store.take_requests();
    let conv = format!(
        r#"{{"conversation":{{"id":"conv_1","agentId":"ops"}},"messages":[
           {{"id":"m_u","role":"user","content":"do it"}},
           {{"id":"m_a","role":"assistant","content":"I need you first."}}],
           "pendingActions":[{second}]}}"#
    );
    answer(&store, &mut reqs, "/conversations/conv_1", 200, &conv);
    let card = wait_for(&root, ".chat-card[data-action-id=act_1][data-changed=true]").await;
    assert_eq!(
        query(&card, ".chat-card__changed")
            .unwrap()
            .text_content()
            .unwrap(),
        "This request changed. Review it again."
    );
    let details = query(&card, "details.chat-card__details").expect("Details, editor dropped");
    assert!(
        details.has_attribute("open"),
        "the new arguments are in view"
    );
    let args = query(&card, ".chat-card__args")
        .unwrap()
        .text_content()
        .unwrap();
    assert!(
        args.contains("rm -rf /tmp/x"),
        "the new arguments are drawn: {args}"
    );
    assert!(
        query(&card, ".chat-card__edited").is_none(),
        "the old edit is dropped"
    );
    wait_until("announced", &root, || {
        announcer_text(&root) == "This request changed. Review it again."
    })
    .await;

    query(&card, ".chat-card__approve").unwrap().click();
    wait_for(&root, ".chat-card[data-state=sending]").await;
    let bodies = answers_sent(&store);
    assert_eq!(bodies.len(), 1);
    assert_eq!(
        bodies[0]["version"],
        json!(2),
        "the decision is for the request on screen"
    );
    assert!(
        bodies[0]["resolution"].get("approvedArgs").is_none(),
        "no edit of the first request rides along: {}",
        bodies[0]
    );
}

#[wasm_bindgen_test]
async fn i13_an_answer_from_a_card_drawn_before_the_change_is_refused_by_the_core() {
    let root = section();
    let (store, _h) = mount_with(&root, APPROVAL, Wiring::Custom).await;
    let ok = wait_for(&root, ".host-card__ok").await;
    // The request changes; the click lands on the card as it was drawn before (same frame).
    let second = APPROVAL.replace("\"cmd\":\"ls\"", "\"cmd\":\"rm -rf /\"");
    reload_with(&store, &second);
    ok.click();
    // The redrawn host card proves the change reached the page; the click before it, on the
    // card as it was, sent nothing.
    wait_until("the host card is drawn afresh", &root, || {
        query(&root, ".host-card__ok").is_some_and(|b| !b.is_same_node(Some(ok.as_ref())))
    })
    .await;
    assert!(
        answers_sent(&store).is_empty(),
        "an answer for the old request is never sent"
    );
    query(&root, ".host-card__ok").unwrap().click();
    wait_for(&root, ".host-card[data-state=sending]").await;
    let bodies = answers_sent(&store);
    assert_eq!(bodies.len(), 1, "the redrawn card answers the new request");
}

#[wasm_bindgen_test]
async fn i13_arrow_keys_move_between_options_and_never_submit_enter_chooses() {
    let root = section();
    let (store, _h) = mount_with(&root, QUESTION, Wiring::Store).await;
    let staging = wait_for(&root, ".chat-card__option input[value=staging]").await;
    let prod = query(&root, ".chat-card__option input[value=prod]").unwrap();
    staging.focus().unwrap();
    let init = web_sys::KeyboardEventInit::new();
    init.set_key("ArrowDown");
    init.set_bubbles(true);
    init.set_cancelable(true);
    let down = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    staging.dispatch_event(&down).unwrap();
    assert!(
        down.default_prevented(),
        "the browser's own pick-on-arrow is stopped"
    );
    wait_until("focus on the next option", &root, || {
        active() == Some(prod.clone().unchecked_into())
    })
    .await;
    press(&prod, "ArrowDown");
    wait_until("focus wraps to the first option", &root, || {
        active() == Some(staging.clone().unchecked_into())
    })
    .await;
    web::next_frame().await;
    assert!(answers_sent(&store).is_empty(), "arrows never submit");
    let checked =
        |el: &web_sys::HtmlElement| el.unchecked_ref::<web_sys::HtmlInputElement>().checked();
    assert!(!checked(&staging) && !checked(&prod), "nothing was chosen");

    press(&staging, "Enter");
    wait_for(&root, ".chat-card[data-state=sending]").await;
    let bodies = answers_sent(&store);
    assert_eq!(
        bodies[0]["resolution"],
        json!({"type": "user_question", "answers": {"Which env?": "staging"}})
    );
}

#[wasm_bindgen_test]
async fn i13_a_lone_single_choice_with_free_text_submits_on_pick_and_text_has_its_own_send() {
    let root = section();
    let with_text = QUESTION.replace(",\"allowFreeText\":false", "");
    let (store, _h) = mount_with(&root, &with_text, Wiring::Store).await;
    let card = wait_for(&root, ".chat-card[data-kind=user_question]").await;
    let send = query(&card, ".chat-card__send").expect("Send for the typed answer");
    assert!(is_disabled(&send), "nothing typed yet");
    let field = query(&card, "input.chat-card__input").unwrap();
    type_text(&field, "dev");
    wait_until("Send enabled", &root, || !is_disabled(&send)).await;
    query(&card, ".chat-card__option input[value=prod]")
        .unwrap()
        .click();
    wait_for(&root, ".chat-card[data-state=sending]").await;
    let bodies = answers_sent(&store);
    assert_eq!(bodies.len(), 1);
    assert_eq!(
        bodies[0]["resolution"]["answers"],
        json!({"Which env?": "prod"}),
        "the picked option, never the typed text behind it"
    );
}

#[wasm_bindgen_test]
async fn f217_answers_follow_the_questions_order_and_show_option_labels() {
    use agent_chat_ui::core::{AnswerValue, Outcome, Question};
    use agent_chat_ui::ui::cards::CardOutcome;
    let root = section();
    let questions: Vec<Question> = serde_json::from_str(
        r#"[{"question":"Zone?","options":[{"label":"Europe","value":"eu"}]},
            {"question":"Add-ons?","multiSelect":true,"options":[{"label":"Dark mode","value":"dark"}]}]"#,
    )
    .unwrap();
    let answers = [
        (
            "Add-ons?".to_owned(),
            AnswerValue::Many(vec!["dark".into(), "my own".into()]),
        ),
        ("Zone?".to_owned(), AnswerValue::One("eu".into())),
        ("Unlisted?".to_owned(), AnswerValue::One("x".into())),
    ]
    .into_iter()
    .collect();
    let _h = mount_to(root.clone(), move || {
        I18n::provide(Some("en"), HashMap::new());
        view! { <CardOutcome outcome=Outcome::Answered { answers } questions=questions/> }
    });
    let status = wait_for(
        &root,
        ".chat-card__outcome[role=status][data-outcome=answered]",
    )
    .await;
    let items = status.query_selector_all("li").unwrap();
    let rows: Vec<String> = (0..items.length())
        .map(|i| items.get(i).unwrap().text_content().unwrap())
        .collect();
    assert_eq!(
        rows,
        ["Zone? Europe", "Add-ons? Dark mode, my own", "Unlisted? x"]
    );
}

#[wasm_bindgen_test]
async fn streaming_replies_keep_the_log_busy_and_the_finished_reply_is_added_once() {
    let root = section();
    let (store, stream, _h) = list_with_a_turn(&root, "hi");
    let log = wait_for(&root, "[role=log][aria-live=polite]").await;
    let chunk = |s: &str| Input::StreamChunk {
        id: stream.id,
        bytes: s.as_bytes().to_vec(),
    };
    store.feed(chunk("data: {\"type\":\"stream.start\",\"timestamp\":1,\"conversationId\":\"conv_1\",\"messageId\":\"m_u\"}\n\ndata: {\"type\":\"stream.text\",\"timestamp\":2,\"text\":\"Hel\"}\n\n"));
    wait_until("busy while streaming", &root, || {
        log.get_attribute("aria-busy").as_deref() == Some("true")
    })
    .await;
    store.feed(chunk("data: {\"type\":\"stream.text\",\"timestamp\":3,\"text\":\"lo\"}\n\ndata: {\"type\":\"stream.done\",\"timestamp\":4,\"conversationId\":\"conv_1\",\"messageId\":\"m_a\",\"content\":\"Hello\"}\n\n"));
    store.feed(Input::StreamClosed {
        id: stream.id,
        error: None,
    });
    wait_until("idle again", &root, || {
        log.get_attribute("aria-busy").as_deref() == Some("false")
    })
    .await;
    let replies = log
        .query_selector_all("article.chat-message[data-role=assistant]")
        .unwrap();
    assert_eq!(
        replies.length(),
        1,
        "the finished reply is one addition to the log"
    );
    assert!(
        query(&log, "[data-streaming=true]").is_none(),
        "no streaming row left behind"
    );
}

#[wasm_bindgen_test]
async fn escape_closes_the_reason_field_without_deciding_and_returns_focus() {
    let root = section();
    let (store, _h) = mount_with(&root, APPROVAL, Wiring::Store).await;
    let card = wait_for(&root, ".chat-card[data-state=waiting]").await;
    let add = query(&card, ".chat-card__add-reason").unwrap();
    add.click();
    let reason = wait_for(&card, ".chat-card__reason input").await;
    wait_until("reason field focused", &root, || {
        active() == Some(reason.clone().unchecked_into())
    })
    .await;
    type_text(&reason, "not now");
    press(&reason, "Escape");
    wait_gone(&card, ".chat-card__reason").await;
    let add = wait_for(&card, ".chat-card__add-reason").await;
    wait_until("focus back on Add a reason", &root, || {
        active() == Some(add.clone().unchecked_into())
    })
    .await;
    assert_eq!(card.get_attribute("data-state").as_deref(), Some("waiting"));
    assert!(answers_sent(&store).is_empty(), "Escape decides nothing");
}

/// The keyboard's sequential order inside `root`: focusable, enabled and rendered elements in
/// document order. That is the browser's Tab order as long as no `tabindex` above 0 is used,
/// which the caller checks.
fn tab_order(root: &web_sys::HtmlElement) -> Vec<web_sys::HtmlElement> {
    let list = root
        .query_selector_all("button, input, select, textarea, a[href], [tabindex]")
        .unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i))
        .map(|n| n.unchecked_into::<web_sys::HtmlElement>())
        .filter(|el| {
            !el.has_attribute("disabled")
                && el.get_attribute("tabindex").as_deref() != Some("-1")
                && {
                    let r = el.get_bounding_client_rect();
                    r.width() > 0.0 || r.height() > 0.0
                }
        })
        .collect()
}

fn class_of(el: &web_sys::HtmlElement) -> String {
    el.class_name()
}

#[wasm_bindgen_test]
async fn f203_tab_from_the_reason_field_reaches_deny_then_cancel_never_approve() {
    let root = section();
    root.class_list().add_1("chat-root").unwrap();
    // The real stylesheet, so "visual order" is the page's layout, not the browser default.
    let _styles = mount_to(root.clone(), agent_chat_ui::ui::style::Styles);
    let (store, _h) = mount_with(&root, APPROVAL, Wiring::Store).await;
    let card = wait_for(&root, ".chat-card[data-state=waiting]").await;
    query(&card, ".chat-card__add-reason").unwrap().click();
    let reason = wait_for(&card, ".chat-card__reason input").await;
    wait_until("reason field focused", &root, || {
        active() == Some(reason.clone().unchecked_into())
    })
    .await;

    // No positive tabindex anywhere on the card: the order is the DOM order.
    let positive = card.query_selector_all("[tabindex]").unwrap();
    for i in 0..positive.length() {
        let el: web_sys::Element = positive.item(i).unwrap().unchecked_into();
        let value: i32 = el.get_attribute("tabindex").unwrap().parse().unwrap_or(0);
        assert!(value <= 0, "tabindex {value} on {}", el.class_name());
    }
    let order = tab_order(&card);
    let at = order
        .iter()
        .position(|el| el.is_same_node(Some(&reason)))
        .expect("the reason field is in the Tab order");
    let after: Vec<String> = order[at + 1..].iter().map(class_of).collect();
    assert!(
        after.len() >= 2,
        "Deny and Cancel follow the field: {after:?}"
    );
    assert!(
        after[0].contains("chat-card__deny"),
        "Tab from the reason goes to Deny first: {after:?}"
    );
    assert!(
        after[1].contains("chat-card__cancel-reason"),
        "then to Cancel: {after:?}"
    );
    assert!(
        !after.iter().any(|c| c.contains("chat-card__approve")),
        "Approve never comes after the reason field: {after:?}"
    );
    // Visual order follows: Approve above the field, Deny and Cancel below it, Cancel after Deny.
    let rect = |sel: &str| query(&card, sel).unwrap().get_bounding_client_rect();
    let field = reason.get_bounding_client_rect();
    let approve = rect(".chat-card__approve");
    let deny = rect(".chat-card__deny");
    let cancel = rect(".chat-card__cancel-reason");
    assert!(
        approve.bottom() <= field.top(),
        "Approve is above the field"
    );
    assert!(deny.top() >= field.bottom(), "Deny is below the field");
    assert!(
        cancel.top() >= field.bottom() && cancel.left() >= deny.right(),
        "Cancel is beside Deny, after it"
    );

    // Deny with the field open sends the reason (F203).
    type_text(&reason, "wrong folder");
    query(&card, ".chat-card__deny").unwrap().click();
    wait_for(&root, ".chat-card[data-state=sending]").await;
    let sent = answers_sent(&store);
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(
        sent[0]["resolution"],
        json!({"type": "tool_approval", "decision": "deny", "comment": "wrong folder"})
    );
}

#[wasm_bindgen_test]
async fn f203_cancel_closes_the_reason_field_and_a_closed_field_sends_no_reason() {
    let root = section();
    let (store, _h) = mount_with(&root, APPROVAL, Wiring::Store).await;
    let card = wait_for(&root, ".chat-card[data-state=waiting]").await;
    query(&card, ".chat-card__add-reason").unwrap().click();
    let reason = wait_for(&card, ".chat-card__reason input").await;
    type_text(&reason, "typed, then thought better of it");
    query(&card, ".chat-card__cancel-reason").unwrap().click();
    wait_gone(&card, ".chat-card__reason").await;
    let add = wait_for(&card, ".chat-card__add-reason").await;
    wait_until("focus back on Add a reason", &root, || {
        active() == Some(add.clone().unchecked_into())
    })
    .await;
    assert!(answers_sent(&store).is_empty(), "Cancel decides nothing");
    // What is no longer on screen is not sent with Deny.
    query(&card, ".chat-card__deny").unwrap().click();
    wait_for(&root, ".chat-card[data-state=sending]").await;
    let sent = answers_sent(&store);
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(
        sent[0]["resolution"],
        json!({"type": "tool_approval", "decision": "deny"})
    );
}

#[wasm_bindgen_test]
async fn server_text_on_cards_is_dir_auto_so_arabic_reads_rtl_in_an_english_card() {
    let root = section();
    let (_store, _h) = mount_with(&root, APPROVAL, Wiring::Store).await;
    let card = wait_for(&root, ".chat-card[data-state=waiting]").await;
    for sel in [".chat-card__title", ".chat-card__summary"] {
        let el = query(&card, sel).unwrap();
        assert_eq!(el.get_attribute("dir").as_deref(), Some("auto"), "{sel}");
    }
    drop(_h);

    let root = section();
    let arabic = r#"{"id":"q_ar","type":"user_question","questions":[
      {"question":"أي بيئة؟","header":"البيئة","options":[{"label":"الاختبار","value":"staging","description":"آمن"},{"label":"Prod","value":"prod"}]}]}"#;
    let (_store, _h) = mount_with(&root, arabic, Wiring::Store).await;
    let card = wait_for(&root, ".chat-card[data-state=waiting]").await;
    let direction = |el: &web_sys::HtmlElement| computed_style(el, "direction");
    for sel in [
        ".chat-card__question-text",
        ".chat-card__chip",
        ".chat-card__option-label",
        ".chat-card__option-description",
    ] {
        let el = query(&card, sel).unwrap();
        assert_eq!(el.get_attribute("dir").as_deref(), Some("auto"), "{sel}");
        assert_eq!(direction(&el), "rtl", "{sel} reads right to left");
    }
    let labels = card.query_selector_all(".chat-card__option-label").unwrap();
    let latin: web_sys::HtmlElement = labels.item(1).unwrap().unchecked_into();
    assert_eq!(direction(&latin), "ltr", "\"Prod\" stays left to right");
    // What the person types takes its direction from the text too.
    let typed = query(&card, "input.chat-card__input").unwrap();
    assert_eq!(typed.get_attribute("dir").as_deref(), Some("auto"));
}

/// argsSchema `pattern` in the browser is ECMA-262 (D50): the browser's `RegExp` with the `u`
/// flag, which knows what regex-lite does not (lookahead, `\p{…}`).
#[wasm_bindgen_test]
fn pattern_search_is_the_browsers_regexp() {
    use agent_chat_ui::io::pattern::search;
    assert_eq!(search("b+", "abbbc"), Some(true), "unanchored search");
    assert_eq!(search("^[0-9]+$", "12a"), Some(false));
    assert_eq!(search("^(?=.*\\d).{3,}$", "abc1"), Some(true), "lookahead");
    assert_eq!(search("^(?=.*\\d).{3,}$", "abcd"), Some(false), "lookahead");
    assert_eq!(search("^\\p{L}+$", "Çağrı"), Some(true), "Unicode property");
    assert_eq!(search("^\\p{L}+$", "a1"), Some(false), "Unicode property");
    assert_eq!(search("^.$", "😀"), Some(true), "u flag: one code point");
    assert_eq!(search("(unclosed", "x"), None, "invalid pattern ignored");
}

/// Every `ChatStore` installs the `RegExp` engine, so the card editor's checks (and the gate
/// before an answer is sent) use it.
#[wasm_bindgen_test]
fn a_store_checks_patterns_with_the_browsers_regexp() {
    use agent_chat_ui::core::{check_value, ProblemKind};
    let _store = ChatStore::detached(
        Session::new(SessionConfig::default()),
        ChatCallbacks::default(),
    );
    let schema = json!({"type": "string", "pattern": "^(?=.*\\d)"});
    let problems = check_value(&json!("no digit"), &schema);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(matches!(problems[0].kind, ProblemKind::Pattern { .. }));
    assert!(check_value(&json!("digit 7"), &schema).is_empty());
}

// ----- seed 000 rules proven in the page (issue 19) ------------------------------------------

/// Mounts a list over a detached store (callbacks `callbacks`), answers the agent list with
/// `agents` and loads `conv_1` as `conv` (a whole conversation body); `actions` gives the list
/// its `actions` from the store (`None`: none at all).
async fn mount_conv(
    root: &web_sys::HtmlElement,
    agents: &str,
    conv: &str,
    actions: fn(ChatStore) -> Option<ChatActions>,
) -> (ChatStore, impl Drop) {
    let slot = Rc::new(Cell::new(None));
    let out = slot.clone();
    let handle = mount_to(root.clone(), move || {
        I18n::provide(Some("en"), HashMap::new());
        let config = SessionConfig {
            conversation_id: Some("conv_1".into()),
            ..SessionConfig::default()
        };
        let store = ChatStore::detached(Session::new(config), ChatCallbacks::default());
        out.set(Some(store));
        view! { <ChatMessageList actions=actions(store).unwrap_or_default()/> }
    });
    let store = slot.get().expect("store created on mount");
    store.dispatch(Command::Start);
    let mut reqs = store.take_requests();
    answer(&store, &mut reqs, "/agents", 200, agents);
    answer(&store, &mut reqs, "/conversations/conv_1", 200, conv);
    (store, handle)
}

/// `conv_1` with a user message and an assistant message `m_a` carrying `fields` (extra JSON
/// members, e.g. `"metadata":{...}`), and `open` as the open actions (`None`: no
/// `pendingActions` key at all).
fn conv_with(fields: &str, open: Option<&str>) -> String {
    let open = open.map_or(String::new(), |o| format!(r#","pendingActions":[{o}]"#));
    format!(
        r#"{{"conversation":{{"id":"conv_1","agentId":"ops"}},"messages":[
           {{"id":"m_u","role":"user","content":"do it"}},
           {{"id":"m_a","role":"assistant","content":"On it."{fields}}}]{open}}}"#
    )
}

const OPS: &str = r#"{"agents":[{"id":"ops","name":"Ops"}]}"#;

fn store_actions(store: ChatStore) -> Option<ChatActions> {
    Some(ChatActions::from_store(store))
}

fn editing_actions(store: ChatStore) -> Option<ChatActions> {
    Some(ChatActions {
        allow_argument_edit: Some(true),
        ..ChatActions::from_store(store)
    })
}

fn text_of(root: &web_sys::HtmlElement, sel: &str) -> String {
    query(root, sel)
        .unwrap_or_else(|| panic!("{sel}; DOM: {}", root.inner_html()))
        .text_content()
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn s000_a_server_that_never_pauses_draws_no_card_and_makes_no_extra_request() {
    let root = section();
    let (store, stream, _h) = list_with_a_turn(&root, "hello");
    let frames = "data: {\"type\":\"stream.start\",\"timestamp\":1,\"conversationId\":\"conv_1\",\"messageId\":\"m_u\"}\n\n\
                  data: {\"type\":\"stream.text\",\"timestamp\":2,\"text\":\"Hi there\"}\n\n\
                  data: {\"type\":\"stream.done\",\"timestamp\":3,\"conversationId\":\"conv_1\",\"messageId\":\"m_a\",\"content\":\"Hi there\"}\n\n";
    web::feed_whole_stream(&store, stream.id, frames);
    wait_for(&root, "article[data-message-id=m_a]").await;
    web::next_frame().await;
    assert!(
        query(&root, ".chat-card").is_none(),
        "{}",
        root.inner_html()
    );
    let after: Vec<_> = store
        .take_requests()
        .into_iter()
        .map(|r| format!("{:?} {}", r.method, r.path))
        .collect();
    assert!(after.is_empty(), "no request after the turn: {after:?}");
}

#[wasm_bindgen_test]
async fn f176_questions_off_draw_a_question_read_only_and_approvals_stay_answerable() {
    let root = section();
    let open = format!("{APPROVAL},{QUESTION}");
    let (store, _h) = mount_conv(&root, OPS, &conv_with("", Some(&open)), |store| {
        Some(ChatActions {
            enable_questions: false,
            ..ChatActions::from_store(store)
        })
    })
    .await;
    let question = wait_for(&root, ".chat-card[data-kind=user_question]").await;
    assert_eq!(
        text_of(&question, ".chat-card__elsewhere[role=status]"),
        "Waiting for an answer in another app"
    );
    assert!(query(&question, ".chat-card__send, .chat-card__skip").is_none());
    let staging: web_sys::HtmlInputElement = query(&question, "input[value=staging]")
        .unwrap()
        .unchecked_into();
    assert!(staging.disabled(), "options cannot be picked");
    staging.click();
    let approval = query(&root, ".chat-card[data-kind=tool_approval]").unwrap();
    assert!(query(&approval, ".chat-card__elsewhere").is_none());
    let approve = query(&approval, ".chat-card__approve").expect("approvals answerable");
    approve.click();
    let bodies = answers_sent(&store);
    assert_eq!(
        bodies.len(),
        1,
        "only the approval was answered: {bodies:?}"
    );
    assert_eq!(bodies[0]["resolution"]["type"], "tool_approval");
}

#[wasm_bindgen_test]
async fn f174_the_approval_heading_is_the_servers_title_and_its_summary_is_shown() {
    let root = section();
    let titled = r#"{"id":"a_t","type":"tool_approval","toolName":"sandbox_exec","title":"Clean the disk","args":{}}"#;
    let summed = r#"{"id":"a_s","type":"tool_approval","toolName":"web_fetch","summary":"Fetch the status page","args":{}}"#;
    let open = format!("{titled},{summed}");
    let (_store, _h) = mount_conv(&root, OPS, &conv_with("", Some(&open)), store_actions).await;
    let t = wait_for(&root, ".chat-card[data-action-id=a_t]").await;
    assert_eq!(text_of(&t, ".chat-card__title"), "Clean the disk");
    assert_eq!(text_of(&t, ".chat-card__tool"), "sandbox_exec");
    let s = wait_for(&root, ".chat-card[data-action-id=a_s]").await;
    assert_eq!(text_of(&s, ".chat-card__title"), "web_fetch");
    assert_eq!(text_of(&s, ".chat-card__summary"), "Fetch the status page");
    // The group is named by its heading.
    let title_id = query(&t, ".chat-card__title").unwrap().id();
    assert_eq!(t.get_attribute("aria-labelledby"), Some(title_id));
}

#[wasm_bindgen_test]
async fn f208_a_single_choice_question_with_previews_needs_send() {
    let root = section();
    let q = r#"{"id":"q_p","type":"user_question","questions":[{"question":"Which layout?","allowFreeText":false,
      "options":[{"label":"Grid","value":"grid","preview":"[][]\n[][]"},{"label":"List","value":"list","preview":"==\n=="}]}]}"#;
    let (store, _h) = mount_conv(&root, OPS, &conv_with("", Some(q)), store_actions).await;
    let card = wait_for(&root, ".chat-card[data-action-id=q_p]").await;
    let preview = query(&card, ".chat-card__option .chat-card__preview").expect("a preview row");
    assert!(!preview.has_attribute("open"), "previews start collapsed");
    assert_eq!(text_of(&preview, "summary"), "Preview");
    let send = query(&card, ".chat-card__send").expect("Send is offered");
    assert!(is_disabled(&send), "nothing picked yet");
    query(&card, "input[value=list]").unwrap().click();
    wait_until("Send enabled by the pick", &root, || !is_disabled(&send)).await;
    assert!(
        answers_sent(&store).is_empty(),
        "a pick alone sends nothing"
    );
    send.click();
    let bodies = answers_sent(&store);
    assert_eq!(
        bodies[0]["resolution"],
        json!({"type": "user_question", "answers": {"Which layout?": "list"}})
    );
}

#[wasm_bindgen_test]
async fn f210_required_questions_are_starred_and_aria_required_optional_ones_are_not() {
    let root = section();
    let q = r#"{"id":"q_r","type":"user_question","questions":[
      {"question":"Which env?","options":[{"label":"Staging","value":"staging"},{"label":"Prod","value":"prod"}]},
      {"question":"Ticket?"},
      {"question":"Notes","required":false}]}"#;
    let (_store, _h) = mount_conv(&root, OPS, &conv_with("", Some(q)), store_actions).await;
    let card = wait_for(&root, ".chat-card[data-action-id=q_r]").await;
    let blocks = card.query_selector_all(".chat-card__question").unwrap();
    assert_eq!(blocks.length(), 3);
    let block = |i: u32| -> web_sys::HtmlElement { blocks.item(i).unwrap().unchecked_into() };
    // Required: a visible star hidden from screen readers, and aria-required on the control.
    for i in [0, 1] {
        let star = query(&block(i), ".chat-card__question-text .chat-card__required")
            .unwrap_or_else(|| panic!("question {i} starred"));
        assert_eq!(star.text_content().unwrap(), "*");
        assert_eq!(star.get_attribute("aria-hidden").as_deref(), Some("true"));
    }
    assert_eq!(
        block(0).get_attribute("aria-required").as_deref(),
        Some("true"),
        "the radio group says it is required"
    );
    assert_eq!(
        query(&block(1), "input.chat-card__input")
            .unwrap()
            .get_attribute("aria-required")
            .as_deref(),
        Some("true"),
        "the text field says it is required"
    );
    // Optional: no star, nothing required, and the card offers no Skip (others are required).
    assert!(query(&block(2), ".chat-card__required").is_none());
    let notes = query(&block(2), "input.chat-card__input").unwrap();
    assert_eq!(notes.get_attribute("aria-required"), None);
    assert!(query(&card, ".chat-card__skip").is_none());
    // Beside options, the free-text field is marked optional.
    let other = query(&block(0), "input.chat-card__input").expect("free text beside options");
    assert_eq!(
        other.get_attribute("placeholder").as_deref(),
        Some("Something else (optional)")
    );
}

#[wasm_bindgen_test]
async fn f177_argument_editing_is_off_by_default_and_the_agents_capability_turns_it_on() {
    let root = section();
    let conv = conv_with("", Some(APPROVAL));
    let (_store, _h) = mount_conv(&root, OPS, &conv, store_actions).await;
    let card = wait_for(&root, ".chat-card[data-action-id=act_1]").await;
    assert!(
        query(&card, ".chat-card__edit").is_none(),
        "no Edit arguments"
    );
    assert!(query(&card, "textarea.chat-card__editor").is_none());
    let details = query(&card, "details.chat-card__details pre.chat-card__args").unwrap();
    assert!(details.text_content().unwrap().contains("\"cmd\": \"ls\""));
    drop(_h);

    let root = section();
    let agents =
        r#"{"agents":[{"id":"ops","name":"Ops","capabilities":{"approvalArgsEdit":true}}]}"#;
    let (_store, _h) = mount_conv(&root, agents, &conv, store_actions).await;
    let card = wait_for(&root, ".chat-card[data-action-id=act_1]").await;
    query(&card, ".chat-card__edit")
        .expect("the agent's approvalArgsEdit wins over the default")
        .click();
    wait_for(&card, "textarea.chat-card__editor").await;
}

fn host_question(card: CardSlot) -> AnyView {
    let resolve = card.resolve;
    let read_only = card.read_only;
    view! {
        <div class="host-question" data-read-only=move || read_only.get().to_string()>
            <button class="host-question__ok"
                on:click=move |_| resolve.run(Resolution::UserQuestion {
                    answers: [("Which env?".to_owned(), agent_chat_ui::core::AnswerValue::One("prod".into()))].into(),
                    cancelled: false,
                })>"Prod"</button>
        </div>
    }
    .into_any()
}

#[wasm_bindgen_test]
async fn f183_render_question_replaces_the_card_and_its_read_only_is_true_when_it_must_be() {
    let root = section();
    let (store, _h) = mount_conv(&root, OPS, &conv_with("", Some(QUESTION)), |store| {
        Some(ChatActions {
            render_question: Some(RenderCard::new(host_question)),
            ..ChatActions::from_store(store)
        })
    })
    .await;
    let host = wait_for(&root, ".host-question").await;
    assert!(query(&root, ".chat-card--question").is_none(), "replaced");
    assert_eq!(
        host.get_attribute("data-read-only").as_deref(),
        Some("false")
    );
    query(&host, ".host-question__ok").unwrap().click();
    let bodies = answers_sent(&store);
    assert_eq!(
        bodies[0]["resolution"]["answers"],
        json!({"Which env?": "prod"})
    );
    drop(_h);

    // Questions off: the slot is told it is read-only.
    let root = section();
    let (_store, _h) = mount_conv(&root, OPS, &conv_with("", Some(QUESTION)), |store| {
        Some(ChatActions {
            enable_questions: false,
            render_question: Some(RenderCard::new(host_question)),
            ..ChatActions::from_store(store)
        })
    })
    .await;
    let host = wait_for(&root, ".host-question").await;
    assert_eq!(
        host.get_attribute("data-read-only").as_deref(),
        Some("true")
    );
}

#[wasm_bindgen_test]
async fn s000_args_schema_input_schema_and_kind_are_read_as_the_documented_names() {
    let root = section();
    let schema = r#"{"type":"object","properties":{"n":{"type":"integer","maximum":3}}}"#;
    let open = format!(
        r#"{{"id":"a_snake","kind":"tool_approval","toolName":"one","args":{{"n":1}},"args_schema":{schema}}},
           {{"id":"a_input","type":"tool_approval","toolName":"two","args":{{"n":1}},"inputSchema":{schema}}},
           {{"id":"q_kind","kind":"user_question","questions":[{{"question":"Why?"}}]}}"#
    );
    let (_store, _h) = mount_conv(&root, OPS, &conv_with("", Some(&open)), editing_actions).await;
    wait_for(
        &root,
        ".chat-card[data-action-id=q_kind][data-kind=user_question]",
    )
    .await;
    for id in ["a_snake", "a_input"] {
        let card = wait_for(
            &root,
            &format!(".chat-card[data-action-id={id}][data-kind=tool_approval]"),
        )
        .await;
        query(&card, ".chat-card__edit").unwrap().click();
        let editor = wait_for(&card, "textarea.chat-card__editor").await;
        type_text(&editor, r#"{"n": 9}"#);
        wait_until("the schema is applied", &root, || {
            query(&card, ".chat-card__problems li").and_then(|p| p.text_content())
                == Some("/n: must be at most 3".into())
        })
        .await;
        assert!(
            is_disabled(&query(&card, ".chat-card__approve").unwrap()),
            "{id}"
        );
    }
}

/// The schema of [`KEYWORDS`]: one property per keyword of seed 000's list, plus one whose
/// keywords (`$ref`, `format`) the checker does not know.
const EVERY_KEYWORD: &str = r##"{"type":"object","properties":{
  "t":{"type":"string"},"u":{"type":["string","null"]},"e":{"enum":["a","b"]},"c":{"const":1},
  "r":{"type":"object","required":["x"]},"ap":{"type":"object","properties":{},"additionalProperties":false},
  "it":{"type":"array","items":{"type":"integer"}},"mn":{"minimum":5},"mx":{"maximum":5},
  "emn":{"exclusiveMinimum":5},"emx":{"exclusiveMaximum":5},"mnl":{"minLength":3},"mxl":{"maxLength":1},
  "p":{"pattern":"^a+$"},"mni":{"minItems":2},"mxi":{"maxItems":0},
  "any":{"anyOf":[{"type":"string"},{"type":"integer"}]},"one":{"oneOf":[{"type":"integer"},{"minimum":0}]},
  "all":{"allOf":[{"type":"integer"},{"minimum":10}]},"ign":{"x-unknown":{"type":"integer"},"format":"no-such-format"}}}"##;

/// Valid arguments for [`EVERY_KEYWORD`].
const VALID: &str = r#"{"t":"s","u":null,"e":"a","c":1,"r":{"x":1},"ap":{},"it":[1],"mn":5,"mx":5,
  "emn":6,"emx":4,"mnl":"abc","mxl":"a","p":"aa","mni":[1,2],"mxi":[],"any":"s","one":-1,"all":10,
  "ign":"not an email"}"#;

/// `(keyword, property, breaking value, the English problem)`.
const KEYWORDS: [(&str, &str, &str, &str); 19] = [
    ("type", "t", "1", "/t: must be string"),
    ("type (union)", "u", "1", "/u: must be string, null"),
    ("enum", "e", "\"z\"", "/e: must be one of \"a\", \"b\""),
    ("const", "c", "2", "/c: must be 1"),
    ("required", "r", "{}", "/r: \"x\" is required"),
    (
        "additionalProperties",
        "ap",
        "{\"y\":1}",
        "/ap: \"y\" is not allowed",
    ),
    ("items", "it", "[\"x\"]", "/it/0: must be integer"),
    ("minimum", "mn", "4", "/mn: must be at least 5"),
    ("maximum", "mx", "6", "/mx: must be at most 5"),
    ("exclusiveMinimum", "emn", "5", "/emn: must be more than 5"),
    ("exclusiveMaximum", "emx", "5", "/emx: must be less than 5"),
    (
        "minLength",
        "mnl",
        "\"ab\"",
        "/mnl: must have at least 3 characters",
    ),
    (
        "maxLength",
        "mxl",
        "\"ab\"",
        "/mxl: must have at most 1 character",
    ),
    ("pattern", "p", "\"b\"", "/p: must match ^a+$"),
    ("minItems", "mni", "[1]", "/mni: must have at least 2 items"),
    ("maxItems", "mxi", "[1]", "/mxi: must have at most 0 items"),
    (
        "anyOf",
        "any",
        "true",
        "/any: must match one of: string, integer",
    ),
    (
        "oneOf",
        "one",
        "1",
        "/one: must match only one of: integer, #2 (it matches 2)",
    ),
    ("allOf", "all", "9", "/all: must be at least 10"),
];

#[wasm_bindgen_test]
async fn f205_every_args_schema_keyword_is_refused_in_the_page_with_its_problem_and_unknown_ones_are_ignored(
) {
    let root = section();
    let valid: Value = serde_json::from_str(VALID).unwrap();
    let action = format!(
        r#"{{"id":"a_k","type":"tool_approval","toolName":"every","args":{VALID},"argsSchema":{EVERY_KEYWORD}}}"#
    );
    let (_store, _h) = mount_conv(&root, OPS, &conv_with("", Some(&action)), editing_actions).await;
    let card = wait_for(&root, ".chat-card[data-action-id=a_k]").await;
    let approve = query(&card, ".chat-card__approve").unwrap();
    assert!(
        query(&card, ".chat-card__problems li").is_none(),
        "the proposal is valid"
    );
    query(&card, ".chat-card__edit").unwrap().click();
    let editor = wait_for(&card, "textarea.chat-card__editor").await;
    let problems = || {
        let list = card.query_selector_all(".chat-card__problems li").unwrap();
        (0..list.length())
            .map(|i| list.item(i).unwrap().text_content().unwrap_or_default())
            .collect::<Vec<_>>()
    };
    for (keyword, property, bad, expected) in KEYWORDS {
        let mut edit = valid.clone();
        edit[property] = serde_json::from_str(bad).unwrap();
        type_text(&editor, &edit.to_string());
        wait_until(keyword, &root, || problems() == [expected]).await;
        assert!(is_disabled(&approve), "{keyword}: Approve greyed out");
    }
    // Unknown keywords and formats are not checked: any string passes.
    let mut edit = valid.clone();
    edit["ign"] = json!("still not an email");
    type_text(&editor, &edit.to_string());
    wait_until("no problems", &root, || problems().is_empty()).await;
    assert!(!is_disabled(&approve));
}

#[wasm_bindgen_test]
async fn f206_a_reordered_but_identical_object_is_not_an_edit() {
    let root = section();
    let (store, _h) = mount_conv(&root, OPS, &conv_with("", Some(APPROVAL)), editing_actions).await;
    let card = wait_for(&root, ".chat-card[data-action-id=act_1]").await;
    query(&card, ".chat-card__edit").unwrap().click();
    let editor = wait_for(&card, "textarea.chat-card__editor").await;
    type_text(&editor, r#"{"timeout": 10.0, "cmd": "ls"}"#);
    web::next_frame().await;
    assert!(
        query(&card, ".chat-card__edited").is_none(),
        "not marked edited"
    );
    query(&card, ".chat-card__approve").unwrap().click();
    let bodies = answers_sent(&store);
    assert_eq!(
        bodies[0]["resolution"],
        json!({"type": "tool_approval", "decision": "allow"}),
        "no approvedArgs"
    );
}

#[wasm_bindgen_test]
async fn f207_details_of_a_card_approved_with_an_edit_show_what_was_approved() {
    let root = section();
    let (store, _h) = mount_conv(&root, OPS, &conv_with("", Some(APPROVAL)), editing_actions).await;
    let card = wait_for(&root, ".chat-card[data-action-id=act_1]").await;
    query(&card, ".chat-card__edit").unwrap().click();
    let editor = wait_for(&card, "textarea.chat-card__editor").await;
    type_text(&editor, r#"{"cmd": "ls -la", "timeout": 10}"#);
    wait_for(&card, ".chat-card__edited").await;
    query(&card, ".chat-card__approve").unwrap().click();
    let answer_req = store
        .take_requests()
        .into_iter()
        .find(|r| r.path.contains("/actions/"))
        .expect("answer sent");
    let frames = "data: {\"type\":\"stream.action_resolved\",\"timestamp\":5,\"conversationId\":\"conv_1\",\"actionId\":\"act_1\",\"status\":\"resolved\",\"resolution\":{\"decision\":\"allow\",\"approvedArgs\":{\"cmd\":\"ls -la\",\"timeout\":10}}}\n\n\
                  data: {\"type\":\"stream.done\",\"timestamp\":6,\"conversationId\":\"conv_1\",\"messageId\":\"m_a2\",\"content\":\"Done.\"}\n\n";
    web::feed_whole_stream(&store, answer_req.id, frames);
    let card = wait_for(
        &root,
        ".chat-card[data-action-id=act_1][data-decision=approved-edited]",
    )
    .await;
    assert_eq!(
        text_of(&card, ".chat-card__outcome-label"),
        "Approved with edited arguments"
    );
    let shown: Value =
        serde_json::from_str(&text_of(&card, ".chat-card__details .chat-card__args"))
            .expect("Details hold JSON");
    assert_eq!(
        shown,
        json!({"cmd": "ls -la", "timeout": 10}),
        "the edit, not the proposal"
    );
}

#[wasm_bindgen_test]
async fn s000_history_sources_1_and_2_are_drawn_after_a_reload_with_the_answered_fallback() {
    let root = section();
    // Each entry of the message's own list is open by itself; the conversation's (empty)
    // pendingActions says none waits, so each reads from the first source that has it.
    let listed = |id: &str, tool: &str| {
        format!(
            r#"{{"id":"{id}","type":"tool_approval","toolName":"{tool}","args":{{"cmd":"ls"}}}}"#
        )
    };
    let fields = format!(
        r#","actionStates":{{"a1":{{"status":"resolved","resolution":{{"decision":"deny","comment":"not that site"}}}}}},
           "metadata":{{"pendingActions":[{},{},{},{}],
             "actionStates":{{"a1":{{"status":"resolved","resolution":{{"decision":"allow"}}}},
                            "a2":{{"status":"resolved","resolution":{{"decision":"allow","approvedArgs":{{"cmd":"ls -la"}},"rememberForSession":true}}}},
                            "a3":{{"status":"expired"}}}}}}"#,
        listed("a1", "web_fetch"),
        listed("a2", "sandbox_exec"),
        listed("a3", "slow_tool"),
        listed("a4", "quiet_tool"),
    );
    let (_store, _h) = mount_conv(&root, OPS, &conv_with(&fields, Some("")), store_actions).await;
    let outcome = |id: &str| format!(".chat-card[data-action-id={id}] .chat-card__outcome-label");
    // Source 1 (message.actionStates) wins over source 2 for a1.
    let a1 = wait_for(&root, &outcome("a1")).await;
    assert_eq!(a1.text_content().unwrap(), "Denied - not that site");
    // Source 2 (metadata.actionStates).
    assert_eq!(
        text_of(&root, &outcome("a2")),
        "Approved with edited arguments"
    );
    assert_eq!(
        text_of(
            &root,
            ".chat-card[data-action-id=a2] .chat-card__remembered"
        ),
        "Remembered for this chat"
    );
    assert_eq!(text_of(&root, &outcome("a3")), "Expired");
    // Nothing says how a4 ended: the plain fallback.
    assert_eq!(text_of(&root, &outcome("a4")), "Answered");
    assert!(query(&root, ".chat-card__approve").is_none(), "none waits");
}

#[wasm_bindgen_test]
async fn s000_without_pending_actions_the_last_assistant_messages_open_ones_wait() {
    let root = section();
    let settled = r#"{"id":"a_old","type":"tool_approval","toolName":"old_tool","args":{},"status":"resolved","resolution":{"decision":"allow"}}"#;
    let fields = format!(r#","metadata":{{"pendingActions":[{APPROVAL},{settled}]}}"#);
    let (_store, _h) = mount_conv(&root, OPS, &conv_with(&fields, None), store_actions).await;
    let open = wait_for(
        &root,
        ".chat-card[data-action-id=act_1][data-state=waiting]",
    )
    .await;
    assert!(query(&open, ".chat-card__approve").is_some());
    assert_eq!(
        text_of(
            &root,
            ".chat-card[data-action-id=a_old] .chat-card__outcome-label"
        ),
        "Approved"
    );
}

#[wasm_bindgen_test]
async fn f181_a_client_tool_draws_no_card_keeps_the_composer_open_and_is_not_action_required() {
    let root = section();
    let required = Rc::new(Cell::new(0u32));
    let tools = Rc::new(Cell::new(0u32));
    let (r, t) = (
        send_wrapper::SendWrapper::new(required.clone()),
        send_wrapper::SendWrapper::new(tools.clone()),
    );
    let callbacks = ChatCallbacks {
        on_action_required: Some(Callback::new(move |_| r.set(r.get() + 1))),
        on_client_tool: Some(Callback::new(move |_| t.set(t.get() + 1))),
        ..ChatCallbacks::default()
    };
    let config = SessionConfig {
        show_history: false,
        ..SessionConfig::default()
    };
    let tool = r#"{"id":"ct_1","type":"client_tool","toolName":"get_location","args":{}}"#;
    let (_store, composer, _h) = live_turn_calling(&root, tool, None, config, callbacks, OPS).await;
    wait_until("the page's tool was asked for", &root, || tools.get() == 1).await;
    wait_for(&root, "article[data-message-id=m_a]").await;
    web::next_frame().await;
    assert!(
        query(&root, ".chat-card").is_none(),
        "{}",
        root.inner_html()
    );
    assert_eq!(
        required.get(),
        0,
        "on_action_required is not for a page tool"
    );
    assert!(!composer.disabled(), "the composer stays open");
    assert_eq!(announcer_text(&root), "");
}

/// A lone question without options: the composer answers it (F191).
const TICKET: &str = r#"{"id":"q_t","type":"user_question","questions":[{"question":"Ticket?","placeholder":"e.g. OPS-12"}]}"#;

fn block_config() -> SessionConfig {
    SessionConfig {
        show_history: false,
        ..SessionConfig::default()
    }
}

fn composer_state(root: &web_sys::HtmlElement) -> String {
    query(root, "form.chat-input")
        .and_then(|f| f.get_attribute("data-state"))
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn f197_a_refused_composer_answer_keeps_the_typed_text() {
    let root = section();
    let (store, composer, _h) = live_turn(&root, TICKET, None).await;
    wait_until("the composer answers the question", &root, || {
        composer_state(&root) == "answer"
    })
    .await;
    assert_eq!(composer.placeholder(), "e.g. OPS-12");
    type_text(&composer, "OPS-7");
    press(&composer, "Enter");
    let sent: Vec<HttpRequest> = store
        .take_requests()
        .into_iter()
        .filter(|r| r.path.contains("/actions/"))
        .collect();
    assert_eq!(sent.len(), 1, "the composer answered: {sent:?}");
    let body: Value = serde_json::from_str(sent[0].body.as_deref().unwrap()).unwrap();
    assert_eq!(body["resolution"]["answers"], json!({"Ticket?": "OPS-7"}));
    store.feed(Input::Response {
        id: sent[0].id,
        result: Ok(HttpResponse {
            status: 403,
            body: r#"{"error":{"code":"action_forbidden","message":"not yours"}}"#.into(),
            date: None,
            retry_after: None,
        }),
    });
    wait_until("the card waits again", &root, || {
        query(&root, ".chat-card[data-action-id=q_t][data-state=waiting]").is_some()
    })
    .await;
    wait_until("the typed answer is back", &root, || {
        composer.value() == "OPS-7"
    })
    .await;
}

#[wasm_bindgen_test]
async fn f196_f197_cancel_mode_warns_and_a_refused_message_keeps_its_text_and_refetches() {
    let root = section();
    let (store, composer, _h) = live_turn_in(
        &root,
        APPROVAL.replace('\n', "").as_str(),
        None,
        agent_chat_ui::core::ComposerMode::Cancel,
    )
    .await;
    wait_until("cancel mode", &root, || composer_state(&root) == "cancel").await;
    assert_eq!(
        text_of(&root, ".chat-input__helper"),
        "Sending a message cancels the open request."
    );
    assert!(!composer.disabled(), "a message may be sent");
    type_text(&composer, "never mind, do this");
    press(&composer, "Enter");
    let mut reqs = store.take_requests();
    answer(
        &store,
        &mut reqs,
        "/conversations/conv_1/messages",
        409,
        r#"{"error":{"code":"action_pending","message":"answer first"}}"#,
    );
    wait_until("the text is back", &root, || {
        composer.value() == "never mind, do this"
    })
    .await;
    let again: Vec<_> = store
        .take_requests()
        .into_iter()
        .map(|r| format!("{:?} {}", r.method, r.path))
        .collect();
    assert!(
        again.contains(&"Get /conversations/conv_1".to_owned()),
        "the conversation is fetched again: {again:?}"
    );
}

#[wasm_bindgen_test]
async fn f196_the_blocked_composer_is_closed_and_says_it_waits_for_your_answer() {
    let root = section();
    let (_store, composer, _h) = live_turn(&root, APPROVAL.replace('\n', "").as_str(), None).await;
    wait_until("blocked", &root, || composer_state(&root) == "blocked").await;
    assert!(
        composer.disabled() || composer.read_only(),
        "the input is closed"
    );
    assert_eq!(
        text_of(&root, ".chat-input__helper"),
        "The assistant is waiting for your answer above."
    );
}

#[wasm_bindgen_test]
async fn f179_the_agents_composer_mode_wins_over_the_option_and_unusable_values_are_ignored() {
    for (agent_mode, expected) in [
        ("\"cancel\"", "cancel"),
        ("\"sideways\"", "blocked"),
        ("7", "blocked"),
    ] {
        let root = section();
        let agents = format!(
            r#"{{"agents":[{{"id":"ops","name":"Ops","metadata":{{"pendingActionComposerMode":{agent_mode}}}}}]}}"#
        );
        let (_store, _composer, _h) = live_turn_calling(
            &root,
            APPROVAL.replace('\n', "").as_str(),
            None,
            block_config(),
            ChatCallbacks::default(),
            &agents,
        )
        .await;
        wait_for(&root, ".chat-card[data-kind=tool_approval]").await;
        wait_until(expected, &root, || composer_state(&root) == expected).await;
    }
}

#[wasm_bindgen_test]
async fn s000_an_answer_refused_as_busy_fetches_the_conversation_again() {
    let root = section();
    let (store, _h) = mount_conv(&root, OPS, &conv_with("", Some(APPROVAL)), store_actions).await;
    let card = wait_for(
        &root,
        ".chat-card[data-action-id=act_1][data-state=waiting]",
    )
    .await;
    query(&card, ".chat-card__approve").unwrap().click();
    let mut reqs = store.take_requests();
    answer(
        &store,
        &mut reqs,
        "/conversations/conv_1/actions/act_1",
        409,
        r#"{"error":{"code":"conversation_busy","message":"busy"}}"#,
    );
    let again: Vec<_> = store
        .take_requests()
        .into_iter()
        .map(|r| format!("{:?} {}", r.method, r.path))
        .collect();
    assert!(
        again.contains(&"Get /conversations/conv_1".to_owned()),
        "the conversation is fetched again: {again:?}"
    );
}

#[wasm_bindgen_test]
async fn f187_f191_the_hooks_members_read_from_a_custom_layout() {
    let root = section();
    let slot = Rc::new(Cell::new(None));
    let out = slot.clone();
    let _h = mount_to(root.clone(), move || {
        I18n::provide(Some("en"), HashMap::new());
        let config = SessionConfig {
            conversation_id: Some("conv_1".into()),
            ..SessionConfig::default()
        };
        let store = ChatStore::detached(Session::new(config), ChatCallbacks::default());
        out.set(Some(store));
        let pending = store.pending_actions();
        let awaiting = store.awaiting_action();
        let resolving = store.is_resolving_action();
        let answerable = store.answerable_question();
        let composer = store.composer_state();
        let can = store.can_resolve_actions();
        view! {
            <ChatMessageList actions=ChatActions::from_store(store)/>
            <agent_chat_ui::ui::chat_input::ChatInput/>
            <output class="hook"
                data-pending=move || pending.with(|p| p.iter().map(|c| c.action.id.clone()).collect::<Vec<_>>().join(","))
                data-awaiting=move || awaiting.get().to_string()
                data-resolving=move || resolving.get().to_string()
                data-answerable=move || answerable.with(|a| a.as_ref().map(|a| format!("{}:{}", a.action_id, a.question.question)).unwrap_or_default())
                data-composer=move || composer.with(|c| c.as_str())
                data-can=can.to_string()></output>
        }
    });
    let store: ChatStore = slot.get().expect("store");
    web::open_conv_1(&store, "I need a ticket.", TICKET);
    let hook = wait_for(&root, "output.hook[data-pending=q_t]").await;
    let read = |name: &str| hook.get_attribute(name).unwrap_or_default();
    assert_eq!(read("data-awaiting"), "true");
    assert_eq!(read("data-resolving"), "false");
    assert_eq!(read("data-can"), "true");
    assert_eq!(read("data-answerable"), "q_t:Ticket?");
    assert_eq!(read("data-composer"), "answer");
    // Answered from the composer: in flight, then settled.
    let composer = wait_for(&root, "textarea.chat-input__textarea").await;
    type_text(&composer, "OPS-7");
    press(&composer, "Enter");
    wait_until("resolving", &root, || read("data-resolving") == "true").await;
    let answer_req = store
        .take_requests()
        .into_iter()
        .find(|r| r.path.contains("/actions/"))
        .expect("answer sent");
    let frames = "data: {\"type\":\"stream.action_resolved\",\"timestamp\":5,\"conversationId\":\"conv_1\",\"actionId\":\"q_t\",\"status\":\"resolved\",\"resolution\":{\"answers\":{\"Ticket?\":\"OPS-7\"}}}\n\n\
                  data: {\"type\":\"stream.done\",\"timestamp\":6,\"conversationId\":\"conv_1\",\"messageId\":\"m_a2\",\"content\":\"Thanks.\"}\n\n";
    web::feed_whole_stream(&store, answer_req.id, frames);
    wait_until("settled", &root, || {
        read("data-pending").is_empty() && read("data-resolving") == "false"
    })
    .await;
    assert_eq!(read("data-awaiting"), "false");
    assert_eq!(read("data-answerable"), "");
    assert_eq!(read("data-composer"), "normal");
}

#[wasm_bindgen_test]
async fn f178_a_card_counts_down_in_hours_then_minutes_amber_below_the_threshold() {
    let at = |ms: f64, id: &str| {
        let iso = js_sys::Date::new(&(js_sys::Date::now() + ms).into())
            .to_iso_string()
            .as_string()
            .unwrap();
        APPROVAL
            .replace(
                "\"args\":{",
                &format!("\"expiresAt\":\"{iso}\",\"args\":{{"),
            )
            .replace("act_1", id)
    };
    let open = [
        at(23.0 * 3_600_000.0 + 120_000.0, "a_h"),
        at(30.0 * 60_000.0 + 20_000.0, "a_m"),
        at(5.0 * 60_000.0 + 20_000.0, "a_5"),
    ]
    .join(",");
    let countdown = |root: &web_sys::HtmlElement, id: &str| {
        let el = query(
            root,
            &format!(".chat-card[data-action-id={id}] .chat-countdown"),
        )
        .unwrap_or_else(|| panic!("{id} counts down"));
        (
            el.text_content().unwrap().trim().to_owned(),
            el.get_attribute("data-warning").unwrap_or_default(),
        )
    };
    // Default threshold (600 s): only the card with 5 minutes left is amber.
    let root = section();
    let (_store, _h) = mount_conv(&root, OPS, &conv_with("", Some(&open)), store_actions).await;
    wait_for(&root, ".chat-card[data-action-id=a_5] .chat-countdown").await;
    assert_eq!(
        countdown(&root, "a_h"),
        ("Expires in 23 hours".into(), "false".into())
    );
    assert_eq!(
        countdown(&root, "a_m"),
        ("Expires in 30 minutes".into(), "false".into())
    );
    assert_eq!(
        countdown(&root, "a_5"),
        ("Expires in 5 minutes".into(), "true".into())
    );
    drop(_h);
    // A custom layout's `expiry_warning_seconds` (an hour) moves the threshold.
    let root = section();
    let (_store, _h) = mount_conv(&root, OPS, &conv_with("", Some(&open)), |store| {
        Some(ChatActions {
            expiry_warning_seconds: Signal::stored(3_600),
            ..ChatActions::from_store(store)
        })
    })
    .await;
    wait_for(&root, ".chat-card[data-action-id=a_5] .chat-countdown").await;
    assert_eq!(countdown(&root, "a_h").1, "false");
    assert_eq!(countdown(&root, "a_m").1, "true");
}

#[wasm_bindgen_test]
async fn s000_an_expired_card_stays_expired_through_the_refetch_and_the_continuation_shows() {
    let root = section();
    let deadline = js_sys::Date::now() as u64 + 300;
    let expiring = APPROVAL.replace('\n', "").replace(
        "\"args\":{",
        &format!("\"expiresAt\":{deadline},\"args\":{{"),
    );
    let (store, _composer, _h) = live_turn(&root, &expiring, None).await;
    wait_for(
        &root,
        ".chat-card[data-action-id=act_1][data-state=expired]",
    )
    .await;
    let expired_at = js_sys::Date::now();
    // The refetch is a timer of the store (actionExpiryRefreshMs, 1.5 s): wait for the request.
    let mut refetch = Vec::new();
    for _ in 0..150 {
        refetch = store
            .take_requests()
            .into_iter()
            .filter(|r| r.method == Method::Get && r.path == "/conversations/conv_1")
            .collect();
        if !refetch.is_empty() {
            break;
        }
        web::sleep(20).await;
    }
    assert_eq!(refetch.len(), 1, "the conversation is fetched again");
    assert!(
        js_sys::Date::now() - expired_at >= 1_000.0,
        "about 1.5 s after the deadline, not at once"
    );
    // The server carried on by itself: its continuation, and no word on how act_1 ended.
    let conv = format!(
        r#"{{"conversation":{{"id":"conv_1","agentId":"ops"}},"messages":[
           {{"id":"m_u","role":"user","content":"please do it"}},
           {{"id":"m_a","role":"assistant","content":"I need you first.","metadata":{{"pendingActions":[{expiring}]}}}},
           {{"id":"m_a2","role":"assistant","content":"Nobody answered, so I skipped it."}}],
           "pendingActions":[]}}"#
    );
    answer(&store, &mut refetch, "/conversations/conv_1", 200, &conv);
    wait_for(&root, "article[data-message-id=m_a2]").await;
    let card = wait_for(&root, ".chat-card[data-action-id=act_1]").await;
    assert_eq!(card.get_attribute("data-state").as_deref(), Some("expired"));
    assert_eq!(
        text_of(&card, ".chat-card__outcome-label"),
        "Expired",
        "not Answered"
    );
}

#[wasm_bindgen_test]
async fn s000_a_cancelled_card_stays_cancelled_through_a_refetch_that_says_nothing_of_it() {
    let root = section();
    let second = r#"{"id":"act_2","type":"tool_approval","toolName":"web_fetch","args":{}}"#;
    let open = format!("{APPROVAL},{second}");
    let (store, _h) = mount_conv(&root, OPS, &conv_with("", Some(&open)), store_actions).await;
    let card = wait_for(
        &root,
        ".chat-card[data-action-id=act_1][data-state=waiting]",
    )
    .await;
    query(&card, ".chat-card__approve").unwrap().click();
    let mut reqs = store.take_requests();
    answer(
        &store,
        &mut reqs,
        "/conversations/conv_1/actions/act_1",
        409,
        r#"{"error":{"code":"action_cancelled","message":"cancelled"}}"#,
    );
    wait_for(
        &root,
        ".chat-card[data-action-id=act_1][data-state=cancelled]",
    )
    .await;
    // Another tab settled act_2, so the page looks the conversation up again; the server's
    // copy lists act_1 on its message without saying how it ended, and has carried on.
    store.dispatch(Command::SettledElsewhere {
        action_id: "act_2".into(),
    });
    let mut reqs = store.take_requests();
    let settled = r#"{"id":"act_2","type":"tool_approval","toolName":"web_fetch","args":{},"status":"resolved","resolution":{"decision":"allow"}}"#;
    let fields = format!(r#","metadata":{{"pendingActions":[{APPROVAL},{settled}]}}"#);
    let mut conv: Value = serde_json::from_str(&conv_with(&fields, Some(""))).unwrap();
    conv["messages"]
        .as_array_mut()
        .unwrap()
        .push(json!({"id": "m_a2", "role": "assistant", "content": "Moving on."}));
    let conv = conv.to_string();
    answer(&store, &mut reqs, "/conversations/conv_1", 200, &conv);
    wait_for(&root, "article[data-message-id=m_a2]").await;
    let card = wait_for(&root, ".chat-card[data-action-id=act_1]").await;
    assert_eq!(
        card.get_attribute("data-state").as_deref(),
        Some("cancelled")
    );
    assert_eq!(
        text_of(&card, ".chat-card__outcome-label"),
        "Cancelled",
        "not Answered"
    );
}

#[wasm_bindgen_test]
async fn s000_an_answer_refused_as_not_pending_reads_answered_frees_the_composer_and_refetches() {
    let root = section();
    let (store, composer, _h) = live_turn(&root, APPROVAL.replace('\n', "").as_str(), None).await;
    let card = wait_for(
        &root,
        ".chat-card[data-action-id=act_1][data-state=waiting]",
    )
    .await;
    wait_until("blocked", &root, || composer_state(&root) == "blocked").await;
    query(&card, ".chat-card__approve").unwrap().click();
    let sent: Vec<HttpRequest> = store
        .take_requests()
        .into_iter()
        .filter(|r| r.path.contains("/actions/"))
        .collect();
    assert_eq!(sent.len(), 1);
    store.feed(Input::Response {
        id: sent[0].id,
        result: Ok(HttpResponse {
            status: 409,
            body: r#"{"error":{"code":"action_not_pending","message":"already answered"}}"#.into(),
            date: None,
            retry_after: None,
        }),
    });
    let settled = wait_for(
        &root,
        ".chat-card[data-action-id=act_1][data-decision=answered]",
    )
    .await;
    assert_eq!(text_of(&settled, ".chat-card__outcome-label"), "Answered");
    assert!(query(&settled, ".chat-card__approve").is_none());
    wait_until("the composer is released", &root, || {
        composer_state(&root) == "normal" && !composer.disabled()
    })
    .await;
    let again: Vec<_> = store
        .take_requests()
        .into_iter()
        .map(|r| format!("{:?} {}", r.method, r.path))
        .collect();
    assert!(
        again.contains(&"Get /conversations/conv_1".to_owned()),
        "the conversation is fetched again: {again:?}"
    );
}

/// Issue 17: a card and its deciding buttons carry the documented `part` names, so a page
/// can style them through `<agent-chat>`'s shadow root (`agent-chat::part(card)`).
#[wasm_bindgen_test]
async fn i17_a_card_and_its_actions_are_parts() {
    let root = section();
    let (_store, _h) = mount_with(&root, APPROVAL, Wiring::Store).await;
    let card = wait_for(&root, ".chat-card[data-kind=tool_approval]").await;
    assert_eq!(card.get_attribute("part").as_deref(), Some("card"));
    let actions = query(&card, "[part=card-actions]").expect("the card's actions part");
    assert!(query(&actions, ".chat-card__approve").is_some());
    let message = query(&root, "article[data-message-id=m_a]").unwrap();
    assert_eq!(message.get_attribute("part").as_deref(), Some("message"));
}

#[wasm_bindgen_test]
async fn issue35_focus_returns_to_the_composer_when_the_last_card_settles_by_a_refusal() {
    for (code, settled) in [
        ("action_not_pending", "[data-decision=answered]"),
        ("action_cancelled", "[data-state=cancelled]"),
    ] {
        let root = section();
        let (store, composer, _h) =
            live_turn(&root, APPROVAL.replace('\n', "").as_str(), None).await;
        let card = wait_for(
            &root,
            ".chat-card[data-action-id=act_1][data-state=waiting]",
        )
        .await;
        let approve = query(&card, ".chat-card__approve").unwrap();
        approve.focus().unwrap();
        approve.click();
        let sent: Vec<HttpRequest> = store
            .take_requests()
            .into_iter()
            .filter(|r| r.path.contains("/actions/"))
            .collect();
        assert_eq!(sent.len(), 1, "{code}");
        store.feed(Input::Response {
            id: sent[0].id,
            result: Ok(HttpResponse {
                status: 409,
                body: format!(r#"{{"error":{{"code":"{code}","message":"no longer open"}}}}"#),
                date: None,
                retry_after: None,
            }),
        });
        wait_for(&root, &format!(".chat-card[data-action-id=act_1]{settled}")).await;
        let composer_el: web_sys::Element = composer.clone().unchecked_into();
        wait_until(
            &format!("{code}: focus is back in the composer"),
            &root,
            || active().is_some_and(|a| a == composer_el),
        )
        .await;
    }
}

/// Issue 38: while the continuation of one answer streams, the other card of the turn cannot
/// be decided: its buttons are disabled and it says why; an answer given anyway (a host's
/// `resolve_action`) is refused in the person's words, nothing is sent; when the reply ends
/// the card can be decided again.
#[wasm_bindgen_test]
async fn issue_38_a_card_waits_while_a_reply_streams_and_a_refused_answer_says_why() {
    const BUSY: &str =
        "The assistant is still replying. You can answer when the reply has finished.";
    let second_action =
        r#"{"id":"act_2","type":"tool_approval","toolName":"send_email","args":{"to":"a@b.co"}}"#;
    let root = section();
    let (store, _h) =
        mount_with(&root, &format!("{APPROVAL},{second_action}"), Wiring::Store).await;
    let first = wait_for(
        &root,
        ".chat-card[data-action-id=act_1][data-state=waiting]",
    )
    .await;
    let second = wait_for(
        &root,
        ".chat-card[data-action-id=act_2][data-state=waiting]",
    )
    .await;
    let approve_second = query(&second, ".chat-card__approve").unwrap();
    assert!(!is_disabled(&approve_second));
    assert!(query(&second, ".chat-card__blocked").is_none());
    query(&first, ".chat-card__approve").unwrap().click();
    let answer = store
        .take_requests()
        .into_iter()
        .find(|r| r.path.ends_with("/actions/act_1"))
        .expect("the first answer goes out");
    let chunk = |s: &str| Input::StreamChunk {
        id: answer.id,
        bytes: s.as_bytes().to_vec(),
    };
    store.feed(chunk("data: {\"type\":\"stream.start\",\"timestamp\":1,\"conversationId\":\"conv_1\",\"messageId\":\"m_c\"}\n\ndata: {\"type\":\"stream.text\",\"timestamp\":2,\"text\":\"Running\"}\n\n"));
    wait_until("the second card's buttons wait", &root, || {
        is_disabled(&approve_second)
            && query(&second, ".chat-card__deny").is_some_and(|d| is_disabled(&d))
    })
    .await;
    let why = wait_for(&second, ".chat-card__blocked").await;
    assert_eq!(why.text_content().unwrap(), BUSY);
    // Answered anyway: refused, in words, and nothing leaves.
    let shown = store.cards.with_untracked(|cards| {
        cards
            .iter()
            .find(|c| c.card.action.id == "act_2")
            .map(|c| c.shown.clone())
            .unwrap()
    });
    store.resolve_action(shown, Resolution::allow());
    let said = || {
        store.status.with_untracked(|s| {
            s.error
                .as_ref()
                .map(|e| e.describe(&agent_chat_ui::core::Catalog::new("en")))
        })
    };
    wait_until("the refusal is in the banner's words", &root, || {
        said().as_deref() == Some(BUSY)
    })
    .await;
    assert!(
        store
            .take_requests()
            .iter()
            .all(|r| !r.path.contains("/actions/")),
        "nothing sent while the reply streams"
    );
    // The reply ends with the second request still waiting: it can be decided again.
    store.feed(chunk(&format!("data: {{\"type\":\"stream.done\",\"timestamp\":3,\"conversationId\":\"conv_1\",\"messageId\":\"m_c\",\"content\":\"Running\",\"status\":\"requires_action\",\"pendingActions\":[{second_action}]}}\n\n")));
    store.feed(Input::StreamClosed {
        id: answer.id,
        error: None,
    });
    let second = wait_for(
        &root,
        ".chat-card[data-action-id=act_2][data-state=waiting]",
    )
    .await;
    wait_until("the second card can be decided", &root, || {
        query(&second, ".chat-card__approve").is_some_and(|b| !is_disabled(&b))
            && query(&second, ".chat-card__blocked").is_none()
    })
    .await;
}
