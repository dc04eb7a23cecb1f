//! `<QuestionCard/>`: one block per question (single choice, multi-select with previews,
//! free text), Send and Skip, as seed 000 describes.

use std::collections::BTreeMap;

use leptos::prelude::*;

use crate::core::{ActionKind, AnswerValue, Question, Resolution};
use crate::ui::cards::{CardFrame, CardProps};
use crate::ui::i18n::I18n;
use crate::ui::icons::QuestionIcon;

/// What the person picked or typed for one question.
#[derive(Clone, Debug, Default, PartialEq)]
struct Draft {
    picked: Vec<String>,
    text: String,
}

/// A question card. A lone single-choice question without previews submits on pick; otherwise
/// Send answers everything; Skip (`cancelled: true`) only when no question is required.
#[component]
pub fn QuestionCard(
    /// The card.
    card: CardProps,
) -> impl IntoView {
    let i18n = I18n::get();
    let ActionKind::UserQuestion(uq) = card.action.kind.clone() else {
        return ().into_any();
    };
    let (dom_id, _) = super::card_ids(&card.action.id);
    let open = card.open();
    let sending = card.sending();
    let questions = uq.questions.clone();
    let drafts = RwSignal::new(vec![Draft::default(); questions.len()]);
    let any_required = questions.iter().any(|q| q.required);
    // Seed 000: a lone single-choice question submits on pick, unless previews (or a free-text
    // field next to the options) mean the person may want to look or type first.
    let instant = matches!(questions.as_slice(), [q] if !q.multi_select
        && !q.options.is_empty()
        && q.options.iter().all(|o| o.preview.is_none())
        && !q.offers_free_text(uq.allow_free_text));

    let resolve = card.resolve;
    let submit = {
        let questions = questions.clone();
        move |cancelled: bool| {
            let answers = if cancelled {
                BTreeMap::new()
            } else {
                collect_answers(&questions, &drafts.get_untracked())
            };
            resolve.run(Resolution::UserQuestion { answers, cancelled });
        }
    };
    let ready = {
        let questions = questions.clone();
        move || {
            drafts.with(|d| {
                questions
                    .iter()
                    .zip(d)
                    .all(|(q, d)| !q.required || !d.picked.is_empty() || !d.text.trim().is_empty())
            })
        }
    };

    let blocks = questions
        .iter()
        .enumerate()
        .map(|(i, q)| {
            let submit = submit.clone();
            question_block(i, q, uq.allow_free_text, &dom_id, open, drafts, move || {
                if instant {
                    submit(false)
                }
            })
        })
        .collect_view();
    let controls = move || {
        let submit_send = submit.clone();
        let submit_skip = submit.clone();
        let ready = ready.clone();
        view! {
            <div class="chat-card__buttons">
                {(!instant).then(|| view! {
                    <button type="button" class="chat-button chat-button--primary chat-card__send"
                        disabled=move || sending.get() || !ready()
                        on:click=move |_| submit_send(false)>
                        {move || if sending.get() { i18n.t("chat-action-sending") } else { i18n.t("chat-action-send") }}
                    </button>
                })}
                {(!any_required).then(|| view! {
                    <button type="button" class="chat-button chat-card__skip" disabled=move || sending.get()
                        on:click=move |_| submit_skip(true)>
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
            icon=view! { <QuestionIcon/> }.into_any()
            controls=ViewFn::from(controls)
        >
            <fieldset class="chat-card__questions" disabled=move || !open.get()>{blocks}</fieldset>
        </CardFrame>
    }
    .into_any()
}

fn question_block(
    index: usize,
    q: &Question,
    action_free_text: Option<bool>,
    dom_id: &str,
    open: Signal<bool>,
    drafts: RwSignal<Vec<Draft>>,
    on_pick: impl Fn() + Clone + Send + Sync + 'static,
) -> impl IntoView {
    let i18n = I18n::get();
    let name = format!("{dom_id}-q{index}");
    let label_id = format!("{name}-label");
    let multi = q.multi_select;
    let free_text = q.offers_free_text(action_free_text);
    let options = q
        .options
        .iter()
        .map(|o| {
            let value = o.value.clone();
            let checked_value = value.clone();
            let on_pick = on_pick.clone();
            let input_type = if multi { "checkbox" } else { "radio" };
            view! {
                <li class="chat-card__option">
                    <label>
                        <input
                            type=input_type
                            name=name.clone()
                            value=value.clone()
                            disabled=move || !open.get()
                            prop:checked=move || drafts.with(|d| d[index].picked.contains(&checked_value))
                            on:change=move |ev| {
                                let on = event_target_checked(&ev);
                                drafts.update(|d| {
                                    let picked = &mut d[index].picked;
                                    if multi {
                                        picked.retain(|v| *v != value);
                                        if on { picked.push(value.clone()); }
                                    } else {
                                        *picked = vec![value.clone()];
                                    }
                                });
                                if !multi { on_pick(); }
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
    let labelledby = label_id.clone();
    view! {
        <div class="chat-card__question" role=if multi { "group" } else { "radiogroup" } aria-labelledby=labelledby>
            {q.header.clone().map(|h| view! { <span class="chat-card__chip" dir="auto">{h}</span> })}
            <p class="chat-card__question-text" id=label_id dir="auto">
                {q.question.clone()}
                {q.required.then(|| view! { <span class="chat-card__required" aria-hidden="true">{move || i18n.t("chat-action-required")}</span> })}
            </p>
            <ul class="chat-card__options">{options}</ul>
            {free_text.then(|| view! {
                <input
                    type="text"
                    class="chat-card__input"
                    dir="auto"
                    aria-label=move || i18n.t("chat-action-free-text-label")
                    placeholder=placeholder
                    disabled=move || !open.get()
                    prop:value=move || drafts.with(|d| d[index].text.clone())
                    on:input=move |ev| {
                        let v = event_target_value(&ev);
                        drafts.update(|d| d[index].text = v);
                    }
                />
            })}
        </div>
    }
}

/// C9: single choice / free text → string; multi-select → values plus typed text as one more
/// entry; unanswered optional questions are left out.
fn collect_answers(questions: &[Question], drafts: &[Draft]) -> BTreeMap<String, AnswerValue> {
    let mut answers = BTreeMap::new();
    for (q, d) in questions.iter().zip(drafts) {
        let text = d.text.trim().to_owned();
        let value = if q.multi_select {
            let mut values = d.picked.clone();
            if !text.is_empty() {
                values.push(text);
            }
            (!values.is_empty()).then_some(AnswerValue::Many(values))
        } else if !text.is_empty() {
            Some(AnswerValue::One(text))
        } else {
            d.picked.first().cloned().map(AnswerValue::One)
        };
        if let Some(v) = value {
            answers.insert(q.question.clone(), v);
        }
    }
    answers
}
