//! `<QuestionCard/>`: one block per question (single choice, multi-select with previews,
//! free text), Send and Skip.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::core::{Question, QuestionDraft};
use crate::store::ChatStore;
use crate::ui::cards::{CardFrame, CardProps};
use crate::ui::i18n::I18n;
use crate::ui::icons::QuestionIcon;

/// A question card: a binding of [`QuestionDraft`], which decides when the card submits on
/// pick, when Send and Skip are offered and what they send.
///
/// Keyboard: in a card that submits on pick, the arrow keys move focus between the options and
/// never choose one (a native radio group would pick, and so submit, on every arrow); Space,
/// Enter or a click chooses. Elsewhere the options behave as native radios and checkboxes.
#[component]
pub fn QuestionCard(
    /// The card.
    card: CardProps,
) -> impl IntoView {
    let store = ChatStore::expect();
    let i18n = I18n::get();
    let Some(initial) = QuestionDraft::new(&card.action) else {
        return ().into_any();
    };
    let (dom_id, _) = super::card_ids(&card.action.id);
    let draft = RwSignal::new(initial.clone());
    let (state, read_only, now) = (card.state, card.read_only, store.server_now());
    let open = Signal::derive(move || {
        draft.with(|d| state.with(|s| d.open(now.get(), s, read_only.get())))
    });
    let busy = card.busy;
    let can_send = Memo::new(move |_| {
        draft.with(|d| state.with(|s| d.can_send(now.get(), s, read_only.get(), busy.get())))
    });
    let can_skip = Memo::new(move |_| {
        draft.with(|d| state.with(|s| d.can_skip(now.get(), s, read_only.get(), busy.get())))
    });
    let sending = card.sending();
    let resolve = card.resolve;
    let on_pick = Callback::new(move |(index, value): (usize, String)| {
        if !open.get_untracked() {
            return;
        }
        let mut submit = None;
        draft.update(|d| submit = d.pick(index, &value));
        if let Some(resolution) = submit {
            resolve.run(resolution);
        }
    });

    let summary = match &card.action.kind {
        crate::core::ActionKind::UserQuestion(q) => q.summary.clone(),
        _ => None,
    };
    let submits_on_pick = initial.submits_on_pick();
    let blocks = initial
        .questions()
        .iter()
        .enumerate()
        .map(|(i, q)| {
            let free_text = initial.offers_free_text(i);
            question_block(
                i,
                q,
                free_text,
                submits_on_pick,
                &dom_id,
                open,
                draft,
                on_pick,
            )
        })
        .collect_view();
    let (offers_send, offers_skip) = (initial.offers_send(), initial.offers_skip());
    let controls = move || {
        view! {
            <div class="chat-card__buttons" part="card-actions">
                {offers_send.then(|| view! {
                    <button type="button" class="chat-button chat-button--primary chat-card__send"
                        disabled=move || !can_send.get()
                        on:click=move |_| resolve.run(draft.with_untracked(QuestionDraft::send))>
                        {move || if sending.get() { i18n.t("chat-action-sending") } else { i18n.t("chat-action-send") }}
                    </button>
                })}
                {offers_skip.then(|| view! {
                    <button type="button" class="chat-button chat-card__skip" disabled=move || !can_skip.get()
                        on:click=move |_| resolve.run(draft.with_untracked(QuestionDraft::skip))>
                        {move || i18n.t("chat-action-skip")}
                    </button>
                })}
            </div>
        }
    };

    view! {
        <CardFrame
            card=card.clone()
            kind="user_question"
            title=Signal::derive(move || i18n.t("chat-action-question-label"))
            subtitles=summary.map(|s| ("chat-card__summary", s)).into_iter().collect()
            icon=view! { <QuestionIcon/> }.into_any()
            controls=ViewFn::from(controls)
        >
            <fieldset class="chat-card__questions" disabled=move || !open.get()>{blocks}</fieldset>
        </CardFrame>
    }
    .into_any()
}

#[allow(clippy::too_many_arguments)]
fn question_block(
    index: usize,
    q: &Question,
    free_text: bool,
    submits_on_pick: bool,
    dom_id: &str,
    open: Signal<bool>,
    draft: RwSignal<QuestionDraft>,
    on_pick: Callback<(usize, String)>,
) -> impl IntoView {
    let i18n = I18n::get();
    let name = format!("{dom_id}-q{index}");
    let label_id = format!("{name}-label");
    let multi = q.multi_select;
    let options = q
        .options
        .iter()
        .map(|o| {
            let value = o.value.clone();
            let checked_value = value.clone();
            let input_type = if multi { "checkbox" } else { "radio" };
            let (click_value, change_value, key_value) = (value.clone(), value.clone(), value.clone());
            view! {
                <li class="chat-card__option">
                    <label>
                        <input
                            type=input_type
                            name=name.clone()
                            value=value.clone()
                            disabled=move || !open.get()
                            prop:checked=move || draft.with(|d| d.answer(index).is_some_and(|a| a.picked.contains(&checked_value)))
                            // Submit-on-pick cards choose on click (mouse, Space, a label); the
                            // others follow the native change.
                            on:click=move |_| {
                                if submits_on_pick {
                                    on_pick.run((index, click_value.clone()));
                                }
                            }
                            on:change=move |ev| {
                                if submits_on_pick {
                                    return;
                                }
                                if multi {
                                    let on = event_target_checked(&ev);
                                    draft.update(|d| d.toggle(index, &change_value, on));
                                } else {
                                    on_pick.run((index, change_value.clone()));
                                }
                            }
                            on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                                if !submits_on_pick {
                                    return;
                                }
                                match ev.key().as_str() {
                                    "Enter" => {
                                        ev.prevent_default();
                                        on_pick.run((index, key_value.clone()));
                                    }
                                    "ArrowDown" | "ArrowRight" => {
                                        ev.prevent_default();
                                        move_focus(&ev, 1);
                                    }
                                    "ArrowUp" | "ArrowLeft" => {
                                        ev.prevent_default();
                                        move_focus(&ev, -1);
                                    }
                                    _ => {}
                                }
                            }
                        />
                        <span class="chat-card__option-label" dir="auto">{o.label.clone()}</span>
                        {o.description.clone().map(|d| view! { <span class="chat-card__option-description" dir="auto">{d}</span> })}
                    </label>
                    {o.preview.clone().map(|p| view! {
                        <details class="chat-card__preview">
                            <summary>{move || i18n.t("chat-action-preview")}</summary>
                            <pre>{p}</pre>
                        </details>
                    })}
                </li>
            }
        })
        .collect_view();
    // The question's hint; next to options the field is "something else" (seed 000: typed
    // text is one more answer), so an unlabelled box never sits under a list.
    let placeholder = {
        let own = q.placeholder.clone();
        let beside_options = !q.options.is_empty();
        move || match &own {
            Some(p) => p.clone(),
            None if beside_options => i18n.t("chat-action-free-text-other"),
            None => String::new(),
        }
    };
    let required = q.required;
    let labelledby = label_id.clone();
    view! {
        <div class="chat-card__question" role=if multi { "group" } else { "radiogroup" } aria-labelledby=labelledby
            aria-required=(required && !multi && !q.options.is_empty()).then_some("true")
            // Where a live card that submits on pick puts focus: a key press on the group
            // itself chooses nothing; an arrow moves into the options.
            tabindex=submits_on_pick.then_some("-1")
            on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                if submits_on_pick {
                    enter_options(&ev);
                }
            }>
            {q.header.clone().map(|h| view! { <span class="chat-card__chip" dir="auto">{h}</span> })}
            <p class="chat-card__question-text" id=label_id dir="auto">
                {q.question.clone()}
                {required.then(|| view! { <span class="chat-card__required" aria-hidden="true">{move || i18n.t("chat-action-required")}</span> })}
            </p>
            <ul class="chat-card__options">{options}</ul>
            {free_text.then(|| view! {
                <input
                    type="text"
                    class="chat-card__input"
                    dir="auto"
                    aria-label=move || i18n.t("chat-action-free-text-label")
                    aria-required=(required && q.options.is_empty()).then_some("true")
                    placeholder=placeholder
                    disabled=move || !open.get()
                    prop:value=move || draft.with(|d| d.answer(index).map(|a| a.text.clone()).unwrap_or_default())
                    on:input=move |ev| {
                        let v = event_target_value(&ev);
                        draft.update(|d| d.set_text(index, v));
                    }
                />
            })}
        </div>
    }
}

/// A key pressed on a question group itself (not on one of its options): an arrow moves focus
/// to the first (down, right) or last (up, left) option without choosing it; Enter and Space
/// do nothing (Space would scroll the page).
fn enter_options(ev: &leptos::ev::KeyboardEvent) {
    let (Some(target), Some(group)) = (ev.target(), ev.current_target()) else {
        return;
    };
    if target != group {
        return;
    }
    let forward = match ev.key().as_str() {
        "ArrowDown" | "ArrowRight" => true,
        "ArrowUp" | "ArrowLeft" => false,
        "Enter" | " " => {
            ev.prevent_default();
            return;
        }
        _ => return,
    };
    ev.prevent_default();
    let group: web_sys::Element = group.unchecked_into();
    let Ok(nodes) = group.query_selector_all(".chat-card__options input:not([disabled])") else {
        return;
    };
    let at = if forward {
        0
    } else {
        nodes.length().saturating_sub(1)
    };
    if let Some(input) = nodes
        .item(at)
        .and_then(|n| n.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = input.focus();
    }
}

/// Moves focus to the next (`step` 1) or previous (-1) option of the same question, wrapping,
/// without choosing it.
fn move_focus(ev: &leptos::ev::KeyboardEvent, step: i32) {
    let Some(input) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
    else {
        return;
    };
    let Some(list) = input.closest(".chat-card__options").ok().flatten() else {
        return;
    };
    let Ok(nodes) = list.query_selector_all("input:not([disabled])") else {
        return;
    };
    let inputs: Vec<web_sys::HtmlElement> = (0..nodes.length())
        .filter_map(|i| nodes.item(i))
        .filter_map(|n| n.dyn_into::<web_sys::HtmlElement>().ok())
        .collect();
    let Some(at) = inputs
        .iter()
        .position(|el| el.is_same_node(Some(input.as_ref())))
    else {
        return;
    };
    let len = inputs.len() as i32;
    let next = (at as i32 + step).rem_euclid(len) as usize;
    let _ = inputs[next].focus();
}
