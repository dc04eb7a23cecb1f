//! Issue 15: `<Chat/>` with an agent that runs in the page and no server at all. The scripted
//! agent (`ScriptedAgent`, the one examples/in-process-agent runs) streams, calls a tool, and
//! pauses for approval; approving or denying the card continues the turn; a remount reads the
//! conversation back from `localStorage`; Stop drops the agent's turn.
#![cfg(target_arch = "wasm32")]

use std::cell::Cell;
use std::rc::Rc;

use agent_chat_ui::core::transport::{ThreadStoreKind, TransportOptions};
use agent_chat_ui::{Agent, AgentEvents, AgentOutcome, AgentTurn, Chat, ScriptedAgent};
use leptos::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

use crate::web;
use web::{press, query, section, type_text, wait_for, wait_gone, wait_until};

/// A thread store of its own per test (the `localStorage` prefix is the base URL).
fn fresh_name(what: &str) -> String {
    format!("in-page-{what}-{}", js_sys::Math::random().to_bits())
}

fn mount(root: &web_sys::HtmlElement, name: &str) -> impl Drop {
    let name = name.to_owned();
    mount_to(root.clone(), move || {
        let transport = TransportOptions {
            thread_store: ThreadStoreKind::Local,
            ..TransportOptions::default()
        };
        view! { <Chat base_url=name.clone() transport=transport agent=ScriptedAgent::new(0)/> }
    })
}

fn text(el: &web_sys::HtmlElement) -> String {
    el.text_content().unwrap_or_default()
}

/// Sends `message` and waits for the agent's card; returns it.
async fn send_until_card(root: &web_sys::HtmlElement, message: &str) -> web_sys::HtmlElement {
    let input = wait_for(root, "textarea").await;
    type_text(&input, message);
    leptos::task::tick().await;
    press(&input, "Enter");
    wait_for(
        root,
        ".chat-card[data-kind=tool_approval][data-state=waiting]",
    )
    .await
}

fn assistant_text(root: &web_sys::HtmlElement) -> String {
    let all = root
        .query_selector_all("article[data-role=assistant]")
        .unwrap();
    (0..all.length())
        .filter_map(|i| all.item(i))
        .filter_map(|n| n.text_content())
        .collect::<Vec<_>>()
        .join("\n")
}

#[wasm_bindgen_test]
async fn i15_an_agent_in_the_page_streams_calls_a_tool_pauses_and_is_restored_on_reload() {
    let root = section();
    let name = fresh_name("pause");
    let handle = mount(&root, &name);
    let card = send_until_card(&root, "Clean the build folder").await;
    leptos::task::tick().await;
    let shown = assistant_text(&root);
    assert!(
        shown.contains("Let me look at the build folder first.")
            && shown.contains("It holds 3 files. I need your approval to delete them."),
        "streamed text: {shown}"
    );
    let tools = wait_for(&root, "article[data-role=assistant] .chat-tool-calls").await;
    let shown = text(&tools);
    assert!(
        shown.to_lowercase().contains("list") && shown.contains("app.wasm"),
        "the tool call is shown with its result: {shown}"
    );
    assert!(
        text(&card).contains("Delete the build folder?"),
        "the card's title is the SDK prompt: {}",
        text(&card)
    );
    assert!(
        query(&card, ".chat-card__approve").is_some() && query(&card, ".chat-card__deny").is_some(),
        "the card is answerable"
    );

    // A remount (a reload) reads the conversation back from localStorage, card and all.
    drop(handle);
    root.set_inner_html("");
    let _again = mount(&root, &name);
    let row = wait_for(&root, ".chat-history__item .chat-history__select").await;
    assert!(
        text(&row).contains("Clean the build folder"),
        "titled by the first message: {}",
        text(&row)
    );
    row.click();
    let card = wait_for(
        &root,
        ".chat-card[data-kind=tool_approval][data-state=waiting]",
    )
    .await;
    leptos::task::tick().await;
    assert!(text(&card).contains("Delete the build folder?"));
    assert!(
        assistant_text(&root).contains("I need your approval"),
        "the reply is restored: {}",
        assistant_text(&root)
    );
    let tools = query(&root, "article[data-role=assistant] .chat-tool-calls");
    assert!(
        tools.is_some_and(|t| text(&t).contains("app.wasm")),
        "and its tool call with the result"
    );
}

#[wasm_bindgen_test]
async fn i15_approving_the_agents_card_continues_the_turn_and_survives_a_reload() {
    let root = section();
    let name = fresh_name("approve");
    let handle = mount(&root, &name);
    let card = send_until_card(&root, "Clean the build folder").await;
    query(&card, ".chat-card__approve")
        .expect("an answerable card")
        .click();
    wait_until("the continuation is shown", &root, || {
        assistant_text(&root).contains("Done: deleted 3 files from ./build.")
    })
    .await;
    leptos::task::tick().await;
    assert!(
        query(&root, ".chat-card[data-state=waiting]").is_none(),
        "the card is settled"
    );

    drop(handle);
    root.set_inner_html("");
    let _again = mount(&root, &name);
    wait_for(&root, ".chat-history__item .chat-history__select")
        .await
        .click();
    wait_until("the conversation is restored", &root, || {
        let shown = assistant_text(&root);
        shown.contains("I need your approval") && shown.contains("Done: deleted 3 files")
    })
    .await;
    leptos::task::tick().await;
    assert!(
        query(&root, ".chat-card[data-state=waiting]").is_none(),
        "the answered card stays answered after a reload"
    );
}

#[wasm_bindgen_test]
async fn i15_denying_the_agents_card_continues_without_the_tool() {
    let root = section();
    let name = fresh_name("deny");
    let _handle = mount(&root, &name);
    let card = send_until_card(&root, "Clean up please").await;
    query(&card, ".chat-card__deny").expect("deny").click();
    wait_until("the agent goes on without the tool", &root, || {
        assistant_text(&root).contains("Understood, I left the build folder alone.")
    })
    .await;
    leptos::task::tick().await;
    assert!(
        !assistant_text(&root).contains("Done: deleted"),
        "a denied tool is not run"
    );
    let settled = wait_for(&root, ".chat-card[data-kind=tool_approval]").await;
    assert_ne!(
        settled.get_attribute("data-state").as_deref(),
        Some("waiting"),
        "the card is settled"
    );
}

/// An agent that says one thing and then works forever; notes when its turn is dropped.
struct Hangs {
    dropped: Rc<Cell<bool>>,
}

/// Sets its flag when the future that holds it is dropped.
struct Guard(Rc<Cell<bool>>);

impl Drop for Guard {
    fn drop(&mut self) {
        self.0.set(true);
    }
}

impl Agent for Hangs {
    async fn run(&self, _turn: AgentTurn, events: AgentEvents) -> Result<AgentOutcome, String> {
        let _guard = Guard(self.dropped.clone());
        events.text("Working on it");
        std::future::pending::<()>().await;
        Ok(AgentOutcome::Done { usage: None })
    }
}

#[wasm_bindgen_test]
async fn i15_stop_drops_the_agents_turn_and_keeps_what_it_said() {
    let root = section();
    let dropped = Rc::new(Cell::new(false));
    let agent = Hangs {
        dropped: dropped.clone(),
    };
    let name = fresh_name("stop");
    let _handle = mount_to(root.clone(), move || {
        let transport = TransportOptions {
            thread_store: ThreadStoreKind::Memory,
            ..TransportOptions::default()
        };
        view! { <Chat base_url=name.clone() transport=transport agent=agent/> }
    });
    let input = wait_for(&root, "textarea").await;
    type_text(&input, "Take your time");
    leptos::task::tick().await;
    press(&input, "Enter");
    wait_until("the agent's words stream", &root, || {
        assistant_text(&root).contains("Working on it")
    })
    .await;
    assert!(!dropped.get(), "the turn runs");
    wait_for(&root, ".chat-input__stop").await.click();
    wait_until("Stop dropped the agent's turn", &root, || dropped.get()).await;
    wait_gone(&root, ".chat-input__stop").await;
    assert!(
        assistant_text(&root).contains("Working on it"),
        "the partial reply is kept: {}",
        assistant_text(&root)
    );
}
