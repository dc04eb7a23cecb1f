//! Browser tests of the card rules of seed 000 that were proven only by an attribute or only
//! natively, and of the card props added with them (issue 35): the amber countdown by its
//! painted colour, the words of an answer refused as already answered, a custom layout that
//! cannot answer, a custom card's `read_only`, an awaited answer, `action_expiry_refresh_ms`
//! and the page's per-tool read-only list.
#![cfg(target_arch = "wasm32")]

use std::cell::Cell;
use std::collections::HashMap;
use std::rc::Rc;

use agent_chat_ui::core::{Resolution, Session, SessionConfig, Shown};
use agent_chat_ui::store::{ChatCallbacks, ChatStore};
use agent_chat_ui::ui::cards::{CardSlot, ChatActions, RenderCard};
use agent_chat_ui::ui::i18n::I18n;
use agent_chat_ui::ui::message_list::ChatMessageList;
use agent_chat_ui::{CardOptions, Chat, ChatSlots, Theme};
use leptos::prelude::*;
use serde_json::{json, Value};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

use crate::web;
use web::fetch::FetchStub;
use web::{computed_style, query, section, type_text, wait_for, wait_until};

/// An approval of `tool` with id `id`, expiring `in_ms` from now when given.
fn approval(id: &str, tool: &str, in_ms: Option<f64>) -> Value {
    let mut a = json!({"id": id, "type": "tool_approval", "toolName": tool,
        "args": {"order": "A-1", "amount": 120},
        "argsSchema": {"type": "object", "properties": {
            "order": {"type": "string"}, "amount": {"type": "number"}}}});
    if let Some(ms) = in_ms {
        a["expiresAt"] = json!((js_sys::Date::now() + ms) as u64);
    }
    a
}

/// The agent list and conversation `conv_1` with `open` waiting on its assistant message.
fn conversation(open: &[Value]) -> [Value; 2] {
    [
        json!({"url": "GET https://agents.test/api/agents",
               "body": {"agents": [{"id": "ops", "name": "Ops"}]}}),
        json!({"url": "GET https://agents.test/api/conversations/conv_1",
               "body": {"conversation": {"id": "conv_1", "agentId": "ops"},
                        "messages": [{"id": "m_u", "role": "user", "content": "do it"},
                                     {"id": "m_a", "role": "assistant", "content": "Approve?",
                                      "metadata": {"pendingActions": open}}],
                        "pendingActions": open}}),
    ]
}

/// `rgb(r, g, b)` / `rgba(r, g, b, a)` of a computed style; `None` when fully transparent.
fn rgb(css: &str) -> Option<[f64; 3]> {
    let inner = css.trim().split_once('(')?.1.trim_end_matches(')');
    let parts: Vec<f64> = inner
        .split(',')
        .map(|p| p.trim().parse().unwrap())
        .collect();
    if parts.len() == 4 && parts[3] == 0.0 {
        return None;
    }
    Some([parts[0], parts[1], parts[2]])
}

/// WCAG 2.2 contrast ratio of two sRGB colours.
fn contrast(a: [f64; 3], b: [f64; 3]) -> f64 {
    let lum = |c: [f64; 3]| {
        let ch = |v: f64| {
            let s = v / 255.0;
            if s <= 0.04045 {
                s / 12.92
            } else {
                ((s + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * ch(c[0]) + 0.7152 * ch(c[1]) + 0.0722 * ch(c[2])
    };
    let (x, y) = (lum(a), lum(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

/// The hue of an sRGB colour in degrees, and its saturation (HSL).
fn hue_saturation(c: [f64; 3]) -> (f64, f64) {
    let [r, g, b] = c.map(|v| v / 255.0);
    let (max, min) = (r.max(g).max(b), r.min(g).min(b));
    let d = max - min;
    if d == 0.0 {
        return (0.0, 0.0);
    }
    let l = (max + min) / 2.0;
    let s = d / (1.0 - (2.0 * l - 1.0).abs());
    let h = if max == r {
        60.0 * ((g - b) / d).rem_euclid(6.0)
    } else if max == g {
        60.0 * ((b - r) / d + 2.0)
    } else {
        60.0 * ((r - g) / d + 4.0)
    };
    (h, s)
}

/// The colour painted behind `el`: its own background or the nearest ancestor's.
fn backdrop(el: &web_sys::Element) -> [f64; 3] {
    let mut at = Some(el.clone());
    while let Some(e) = at {
        if let Some(c) = rgb(&computed_style(&e, "background-color")) {
            return c;
        }
        at = e.parent_element();
    }
    panic!("no background behind {}", el.outer_html())
}

/// Seed 000 row 20, "It turns amber when little time is left", checked by what is painted:
/// below the threshold the countdown's computed colour is an amber hue, unlike the countdown of
/// a card with time to spare, and it reads at 4.5:1 or more on the card, in both themes.
#[wasm_bindgen_test]
async fn issue35_s000_row20_the_countdown_is_painted_amber_at_a_readable_contrast() {
    let open = [
        approval("a_soon", "refund", Some(5.0 * 60_000.0 + 20_000.0)),
        approval("a_later", "refund", Some(3.0 * 3_600_000.0)),
    ];
    let _stub = FetchStub::install(json!(conversation(&open)));
    let root = section();
    let theme = RwSignal::new(Theme::Dark);
    let _h = mount_to(root.clone(), move || {
        view! {
            <Chat base_url="https://agents.test/api" show_history=false conversation_id="conv_1"
                theme=theme/>
        }
    });
    let soon = wait_for(&root, ".chat-card[data-action-id=a_soon] .chat-countdown").await;
    let later = wait_for(&root, ".chat-card[data-action-id=a_later] .chat-countdown").await;
    for (name, t) in [("dark", Theme::Dark), ("light", Theme::Light)] {
        theme.set(t);
        let light = t == Theme::Light;
        wait_until("the theme applied", &root, || {
            query(&root, ".chat-root")
                .is_some_and(|r| r.class_list().contains("chat-theme-light") == light)
        })
        .await;
        assert_eq!(soon.get_attribute("data-warning").as_deref(), Some("true"));
        assert_eq!(
            later.get_attribute("data-warning").as_deref(),
            Some("false")
        );
        let amber = rgb(&computed_style(&soon, "color")).expect("an opaque colour");
        let calm = rgb(&computed_style(&later, "color")).expect("an opaque colour");
        assert_ne!(amber, calm, "{name}: the warning is painted differently");
        let (hue, saturation) = hue_saturation(amber);
        assert!(
            (20.0..=50.0).contains(&hue) && saturation > 0.5,
            "{name}: {amber:?} is not amber (hue {hue:.0}, saturation {saturation:.2})"
        );
        let ratio = contrast(amber, backdrop(&soon));
        assert!(
            ratio >= 4.5,
            "{name}: the amber countdown reads at {ratio:.2}:1"
        );
    }
}

/// Seed 000 row 83 and its troubleshooting line: an answer the server refuses as
/// `action_not_pending` shows "That request was already answered." in the page, and the card
/// reads Answered.
#[wasm_bindgen_test]
async fn issue35_s000_row83_an_answer_refused_as_not_pending_says_it_was_already_answered() {
    let open = [approval("act_1", "refund", None)];
    let mut settled = approval("act_1", "refund", None);
    settled["status"] = json!("resolved");
    settled["resolution"] = json!({"type": "tool_approval", "decision": "deny"});
    let [agents, conv] = conversation(&open);
    // Held, so the card can be read before the server's own account of it arrives.
    let refetched = json!({"url": "GET https://agents.test/api/conversations/conv_1", "hold": true,
        "body": {"conversation": {"id": "conv_1", "agentId": "ops"},
                 "messages": [{"id": "m_u", "role": "user", "content": "do it"},
                              {"id": "m_a", "role": "assistant", "content": "Approve?",
                               "metadata": {"pendingActions": [settled]}}],
                 "pendingActions": []}});
    let stub = FetchStub::install(json!([
        agents,
        conv,
        {"url": "POST https://agents.test/api/conversations/conv_1/actions/act_1", "status": 409,
         "body": {"error": {"code": "action_not_pending", "message": "srv words"}}},
        refetched
    ]));
    let root = section();
    let _h = mount_to(root.clone(), move || {
        view! { <Chat base_url="https://agents.test/api" show_history=false conversation_id="conv_1"/> }
    });
    let card = wait_for(
        &root,
        ".chat-card[data-action-id=act_1][data-state=waiting]",
    )
    .await;
    query(&card, ".chat-card__approve").unwrap().click();
    let banner = wait_for(&root, ".chat-error[role=alert] .chat-error__text").await;
    // The sentence in the person's words; the server's own message on the line below it.
    let detail = query(&banner, ".chat-error__detail").and_then(|d| d.text_content());
    assert_eq!(detail.as_deref(), Some("srv words"));
    let whole = banner.text_content().unwrap_or_default();
    assert_eq!(
        whole.strip_suffix("srv words").unwrap_or(&whole),
        "That request was already answered."
    );
    wait_for(
        &root,
        ".chat-card[data-action-id=act_1][data-decision=answered]",
    )
    .await;
    // The conversation is fetched again, and then reads as the server says it ended.
    wait_until("the conversation is fetched again", &root, || {
        stub.held() == 1
    })
    .await;
    stub.release();
    wait_for(
        &root,
        ".chat-card[data-action-id=act_1][data-decision=denied]",
    )
    .await;
}

/// A host card that shows `read_only` and answers with `store.answer(...).await`, writing how
/// the awaited answer ended into `data-result`.
fn awaiting_card(store: ChatStore) -> RenderCard {
    RenderCard::new(move |card: CardSlot| {
        let result = RwSignal::new(String::new());
        let shown = Shown::of(&card.action);
        let read_only = card.read_only;
        view! {
            <div class="host-card" data-read-only=move || read_only.get().to_string()
                data-result=move || result.get()>
                <button class="host-card__ok" on:click=move |_| {
                    let answer = store.answer(shown.clone(), Resolution::allow());
                    leptos::task::spawn_local(async move {
                        let outcome = match answer.await {
                            Ok(()) => "taken".to_owned(),
                            Err(e) => format!("refused: {e:?}"),
                        };
                        result.set(outcome);
                    });
                }>"OK"</button>
            </div>
        }
        .into_any()
    })
}

/// A list over a detached store, its `actions` made by `actions` from the store; `conv_1` is
/// loaded with `open` waiting.
fn mount_list(
    root: &web_sys::HtmlElement,
    open: &Value,
    actions: fn(ChatStore) -> ChatActions,
) -> (ChatStore, impl Drop) {
    let slot = Rc::new(Cell::new(None));
    let out = slot.clone();
    let handle = mount_to(root.clone(), move || {
        I18n::provide(Some("en"), HashMap::new());
        let config = SessionConfig {
            conversation_id: Some("conv_1".into()),
            show_history: false,
            ..SessionConfig::default()
        };
        let store = ChatStore::detached(Session::new(config), ChatCallbacks::default());
        out.set(Some(store));
        view! { <ChatMessageList actions=actions(store)/> }
    });
    let store = slot.get().expect("store");
    web::open_conv_1(&store, "Approve?", &open.to_string());
    (store, handle)
}

/// Seed 000 row 105: a custom layout's `actions` with `can_resolve = false` (a transport that
/// cannot answer) draws the card read-only, "Waiting for approval in another app"; a custom
/// card is told so through `read_only`, and is not when the layout can answer.
#[wasm_bindgen_test]
async fn issue35_s000_row105_can_resolve_false_and_a_custom_cards_read_only() {
    let open = approval("act_1", "refund", None);
    let root = section();
    let (_store, h) = mount_list(&root, &open, |store| ChatActions {
        can_resolve: false,
        ..ChatActions::from_store(store)
    });
    let card = wait_for(&root, ".chat-card[data-action-id=act_1]").await;
    let elsewhere = wait_for(&root, ".chat-card__elsewhere").await;
    assert_eq!(
        elsewhere.text_content().unwrap_or_default(),
        "Waiting for approval in another app"
    );
    assert!(query(&card, ".chat-card__approve").is_none());
    drop(h);

    for (can_resolve, read_only) in [(false, "true"), (true, "false")] {
        let root = section();
        let make: fn(ChatStore) -> ChatActions = if can_resolve {
            |store| ChatActions {
                render_tool_approval: Some(awaiting_card(store)),
                ..ChatActions::from_store(store)
            }
        } else {
            |store| ChatActions {
                can_resolve: false,
                render_tool_approval: Some(awaiting_card(store)),
                ..ChatActions::from_store(store)
            }
        };
        let (_store, _h) = mount_list(&root, &open, make);
        let host = wait_for(&root, ".host-card").await;
        assert_eq!(
            host.get_attribute("data-read-only").as_deref(),
            Some(read_only),
            "can_resolve {can_resolve}"
        );
    }
}

/// A list's `slots` are the same struct as `Chat`'s: its approval card renderer is drawn, and
/// wins over one its `actions` carry.
#[wasm_bindgen_test]
async fn issue36_a_lists_slots_card_wins_over_the_one_in_its_actions() {
    let open = approval("act_1", "refund", None);
    let root = section();
    let slot = Rc::new(Cell::new(None));
    let out = slot.clone();
    let _h = mount_to(root.clone(), move || {
        I18n::provide(Some("en"), HashMap::new());
        let config = SessionConfig {
            conversation_id: Some("conv_1".into()),
            show_history: false,
            ..SessionConfig::default()
        };
        let store = ChatStore::detached(Session::new(config), ChatCallbacks::default());
        out.set(Some(store));
        let actions = ChatActions {
            render_tool_approval: Some(RenderCard::new(|_card: CardSlot| {
                view! { <p class="actions-card">"from actions"</p> }.into_any()
            })),
            ..ChatActions::from_store(store)
        };
        let slots = ChatSlots::default().render_tool_approval(awaiting_card(store));
        view! { <ChatMessageList actions=actions slots=slots/> }
    });
    let store = slot.get().expect("store");
    web::open_conv_1(&store, "Approve?", &open.to_string());
    let host = wait_for(&root, ".host-card").await;
    assert_eq!(
        host.get_attribute("data-read-only").as_deref(),
        Some("false"),
        "the slot's card is given the list's way to answer"
    );
    assert!(
        query(&root, ".actions-card").is_none(),
        "the slot's card replaces the one in actions"
    );
}

/// Seed 000 rows 105 and 112 ("resolveAction"): a custom card that awaits
/// `ChatStore::answer` learns when the server took the answer, and why it did not when the
/// server refused it.
#[wasm_bindgen_test]
async fn issue35_s000_row105_an_awaited_answer_ends_when_the_server_says() {
    for (status, expected) in [(200, "taken"), (409, "refused")] {
        let open = approval("act_1", "refund", None);
        let root = section();
        let (store, _h) = mount_list(&root, &open, |store| ChatActions {
            render_tool_approval: Some(awaiting_card(store)),
            ..ChatActions::from_store(store)
        });
        let host = wait_for(&root, ".host-card").await;
        query(&host, ".host-card__ok").unwrap().click();
        let sent = store
            .take_requests()
            .into_iter()
            .find(|r| r.path.contains("/actions/act_1"))
            .expect("the answer was sent");
        assert_eq!(
            host.get_attribute("data-result").as_deref(),
            Some(""),
            "the answer is on its way"
        );
        if status == 200 {
            let frames = "data: {\"type\":\"stream.action_resolved\",\"timestamp\":5,\"conversationId\":\"conv_1\",\"actionId\":\"act_1\",\"status\":\"resolved\",\"resolution\":{\"decision\":\"allow\"}}\n\n\
                          data: {\"type\":\"stream.done\",\"timestamp\":6,\"conversationId\":\"conv_1\",\"messageId\":\"m_a2\",\"content\":\"Done.\"}\n\n";
            web::feed_whole_stream(&store, sent.id, frames);
        } else {
            store.feed(agent_chat_ui::core::Input::Response {
                id: sent.id,
                result: Ok(agent_chat_ui::core::HttpResponse {
                    status: 409,
                    body: r#"{"error":{"code":"action_expired","message":"too late"}}"#.into(),
                    date: None,
                    retry_after: None,
                }),
            });
        }
        wait_until(
            &format!("the awaited answer ended ({status})"),
            &root,
            || {
                host.get_attribute("data-result")
                    .is_some_and(|r| r.starts_with(expected))
            },
        )
        .await;
    }
}

/// Seed 000 "Deadlines" (`actionExpiryRefreshMs`): given as a prop, the conversation is
/// fetched again that long after a card expires here, not after the default 1.5 s.
#[wasm_bindgen_test]
async fn issue35_action_expiry_refresh_ms_as_a_prop_sets_when_the_conversation_is_fetched_again() {
    let open = [approval("act_1", "refund", Some(400.0))];
    let [agents, conv] = conversation(&open);
    let again = conv.clone();
    let stub = FetchStub::install(json!([agents, conv, again]));
    let root = section();
    let _h = mount_to(root.clone(), move || {
        view! {
            <Chat base_url="https://agents.test/api" show_history=false conversation_id="conv_1"
                cards=CardOptions::default().action_expiry_refresh_ms(100u64)/>
        }
    });
    wait_for(
        &root,
        ".chat-card[data-action-id=act_1][data-state=expired]",
    )
    .await;
    let expired_at = js_sys::Date::now();
    let fetched = || {
        stub.calls()
            .iter()
            .filter(|c| c.method == "GET" && c.url.ends_with("/conversations/conv_1"))
            .count()
    };
    wait_until("the conversation is fetched again", &root, || {
        fetched() == 2
    })
    .await;
    let waited = js_sys::Date::now() - expired_at;
    assert!(
        waited < 1_000.0,
        "fetched again {waited:.0} ms after the expiry, not about 100 ms"
    );
}

/// Seed 004 row 12 ("allow edits only for values your policy explicitly supports"): `Chat`'s
/// `read_only_args` lists per tool what may not change. The listed value of that tool is
/// read-only in the form, the JSON editor changing it blocks Approve and says why; the same
/// argument of another tool stays editable.
#[wasm_bindgen_test]
async fn issue35_the_pages_per_tool_read_only_list_locks_that_tools_value() {
    let open = [
        approval("a_refund", "refund", None),
        approval("a_quote", "quote", None),
    ];
    let _stub = FetchStub::install(json!(conversation(&open)));
    let root = section();
    let _h = mount_to(root.clone(), move || {
        let policy = vec![("refund".to_owned(), vec!["amount".to_owned()])];
        view! {
            <Chat base_url="https://agents.test/api" show_history=false conversation_id="conv_1"
                cards=CardOptions::default().allow_argument_edit(true).read_only_args(policy)/>
        }
    });
    let refund = wait_for(&root, ".chat-card[data-action-id=a_refund]").await;
    let quote = wait_for(&root, ".chat-card[data-action-id=a_quote]").await;
    for card in [&refund, &quote] {
        query(card, ".chat-card__edit")
            .expect("Edit offered")
            .click();
    }
    let locked = wait_for(&refund, "[data-field=amount]").await;
    assert!(
        locked.has_attribute("readonly"),
        "refund's amount is editable"
    );
    let free = wait_for(&quote, "[data-field=amount]").await;
    assert!(!free.has_attribute("readonly"), "quote's amount is locked");
    let editor = wait_for(&refund, ".chat-card__editor").await;
    type_text(&editor, r#"{"order":"A-1","amount":999}"#);
    let problems = wait_for(&refund, ".chat-card__problems").await;
    assert_eq!(
        problems.text_content().unwrap_or_default(),
        "/amount: this value cannot be changed; the tool's policy keeps it as proposed"
    );
    let approve: web_sys::HtmlButtonElement = query(&refund, ".chat-card__approve")
        .unwrap()
        .unchecked_into();
    assert!(
        approve.disabled(),
        "Approve stays on with a locked value changed"
    );
}
