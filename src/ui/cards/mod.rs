//! Approval and question cards under an assistant message, how a settled card reads,
//! and the `actions` a message list is given to answer them.
//!
//! Each card is keyed by its action id and its revision and reads its state reactively, so a
//! card keeps what the person typed (an argument edit, a reason, half-answered questions)
//! across waiting → sending → waiting again (a refused answer), but is drawn afresh, edit
//! dropped, when the request itself changed under the same id. Every answer carries
//! the [`Shown`] of the action the card was drawn from, and the core refuses it when that is
//! no longer the request.

pub mod approval;
pub mod batch;
pub mod form;
pub mod question;
pub mod receipt;
pub mod stage;

use leptos::prelude::*;

use crate::core::{
    may_answer_in_list, ActionKind, AnswerValue, CardStage, CardState, Chunk, LiveFocus, Outcome,
    PendingAction, Question, Receipt, Resolution, Shown,
};
use crate::store::{CardView, ChatStore};
use crate::ui::chunk::Lazy;
use crate::ui::countdown::Countdown;
use crate::ui::i18n::I18n;

/// What a custom card renderer gets: the action, its state, whether it may be
/// answered here, and `resolve` to send the answer.
#[derive(Clone)]
pub struct CardSlot {
    /// The action as the server described it.
    pub action: PendingAction,
    /// Waiting, sending, or how it ended.
    pub state: Signal<CardState>,
    /// Where the request stands in words: pending, sending, checking, executing, completed,
    /// failed….
    pub stage: Signal<CardStage>,
    /// True when the card must not offer decisions.
    pub read_only: Signal<bool>,
    /// Sends the answer for `action` as given here. The core refuses it (and says why) unless
    /// the card is waiting, answerable, in time and still this very request.
    pub resolve: Callback<Resolution>,
    /// The request changed under the same id since this page first drew it.
    pub changed: bool,
}

/// A custom card renderer: `ChatSlots::render_tool_approval` / `render_question`.
pub type RenderCard = Callback<CardSlot, AnyView>;

/// How the cards of a message list are answered. Without `on_resolve` every card is read-only
/// ("Waiting for approval in another app"), so a custom layout without a way to answer never shows
/// live buttons.
#[derive(Clone)]
pub struct ChatActions {
    /// Sends `(shown, resolution)`: the action as the card drew it and the answer; usually
    /// [`ChatStore::resolve_action`]. Default: none (every card read-only).
    pub on_resolve: Option<Callback<(Shown, Resolution)>>,
    /// Decides several calls of one turn at once, `(shown, approve)`: "Approve all (N)" /
    /// "Deny all"; usually [`ChatStore::resolve_all`]. Default: none (no batch buttons).
    pub on_resolve_all: Option<Callback<(Vec<Shown>, bool)>>,
    /// The transport can answer. Default: `true`.
    pub can_resolve: bool,
    /// Offer the argument editor; the agent's `capabilities.approvalArgsEdit` wins.
    /// Default: `None`, the chat's own setting.
    pub allow_argument_edit: Option<bool>,
    /// Countdowns turn amber below this many seconds; a signal moves it live. Default: 600.
    pub expiry_warning_seconds: Signal<u64>,
    /// Approval cards can be answered here. Default: `true`.
    pub enable_tool_approvals: bool,
    /// Question cards can be answered here. Default: `true`.
    pub enable_questions: bool,
    /// Replaces the built-in approval card; the list's `slots.render_tool_approval` wins.
    /// Default: none (the built-in card).
    pub render_tool_approval: Option<RenderCard>,
    /// Replaces the built-in question card; the list's `slots.render_question` wins.
    /// Default: none (the built-in card).
    pub render_question: Option<RenderCard>,
}

impl Default for ChatActions {
    /// Read-only cards (no `on_resolve`) with the documented defaults.
    fn default() -> Self {
        ChatActions {
            on_resolve: None,
            on_resolve_all: None,
            can_resolve: true,
            allow_argument_edit: None,
            expiry_warning_seconds: Signal::stored(600),
            enable_tool_approvals: true,
            enable_questions: true,
            render_tool_approval: None,
            render_question: None,
        }
    }
}

impl ChatActions {
    /// Answers through `store` (what `Chat` passes to its list).
    pub fn from_store(store: ChatStore) -> Self {
        ChatActions {
            on_resolve: Some(Callback::new(
                move |(shown, resolution): (Shown, Resolution)| {
                    store.resolve_action(shown, resolution)
                },
            )),
            on_resolve_all: Some(Callback::new(
                move |(shown, approve): (Vec<Shown>, bool)| store.resolve_all(shown, approve),
            )),
            can_resolve: store.can_resolve_actions(),
            ..ChatActions::default()
        }
    }

    /// Context set by the enclosing `ChatMessageList` (read-only defaults outside one).
    pub fn get() -> Self {
        use_context::<ChatActions>().unwrap_or_default()
    }
}

/// The cards that belong under the assistant message `message_id`: those placed there,
/// and for the last assistant message also those without a placement.
#[component]
pub fn MessageCards(
    /// The assistant message.
    message_id: String,
) -> impl IntoView {
    let store = ChatStore::expect();
    let id = message_id.clone();
    let batch_message = message_id.clone();
    let is_last = Memo::new(move |_| {
        store
            .last_assistant_id
            .with(|last| last.as_deref() == Some(id.as_str()))
    });
    let mine = move || {
        store.cards.with(|cards| {
            cards
                .iter()
                .filter(|c| match &c.card.message_id {
                    Some(m) => *m == message_id,
                    None => is_last.get(),
                })
                .filter(|c| c.card.action.kind.is_person_facing())
                .map(|c| (c.shown.clone(), c.card.revision))
                .collect::<Vec<_>>()
        })
    };
    // Keyed by what the card draws, not only by its id: the same id with another request
    // (a refetch, a reload, a stream) is a new card, so no view keeps showing the old one.
    view! {
        <batch::BatchBar message_id=batch_message.clone() is_last=is_last/>
        <For
            each=mine
            key=|card| card.clone()
            children=move |(shown, revision)| {
                let id = shown.action_id;
                view! {
                    <Lazy
                        chunk=Chunk::Cards
                        preload=preload_cards
                        view=move || card_part(id.clone(), revision)
                        stand_in=card_pending
                    />
                }
            }
        />
    }
}

crate::io::split::split_point!(
    cards,
    preload_cards,
    /// One card ([`ActionCardView`]), a part fetched when the first card is drawn.
    fn card_part(action_id: String, revision: u32) -> AnyView {
        // The full argsSchema checker comes with this part; the answer gate uses it from now.
        crate::core::schema::install_gate_check();
        view! { <ActionCardView action_id=action_id revision=revision/> }.into_any()
    }
);

/// A card while its part is on its way: a busy box where the card will be; or, when the part
/// could not be fetched, the `notice` in that box.
fn card_pending(notice: Option<AnyView>) -> AnyView {
    let i18n = I18n::get();
    let busy = notice.is_none();
    let body = notice.unwrap_or_else(|| {
        view! { <p class="chat-card__pending">{move || i18n.t("chat-chunk-loading")}</p> }
            .into_any()
    });
    view! { <div class="chat-card chat-card--pending" aria-busy=busy.then_some("true")>{body}</div> }
        .into_any()
}

/// One card by action id and revision: the built-in approval or question card, or the host's
/// renderer, drawn from the action as it was at this revision.
#[component]
fn ActionCardView(action_id: String, revision: u32) -> impl IntoView {
    // Its rules come with it (D79).
    crate::ui::style::use_part_style(crate::ui::style::CARDS_CSS);
    let store = ChatStore::expect();
    let actions = ChatActions::get();
    let find = {
        let id = action_id.clone();
        move |cards: &Vec<CardView>| cards.iter().find(|c| c.card.action.id == id).cloned()
    };
    let Some(initial) = store.cards.with_untracked(find.clone()) else {
        return ().into_any();
    };
    let latest = Memo::new(move |_| store.cards.with(find.clone()));
    let state = {
        let fallback = initial.card.state.clone();
        Signal::derive(move || {
            latest.with(|c| {
                c.as_ref()
                    .map_or(fallback.clone(), |c| c.card.state.clone())
            })
        })
    };
    let stage = {
        let fallback = initial.stage.clone();
        Signal::derive(move || {
            latest.with(|c| c.as_ref().map_or(fallback.clone(), |c| c.stage.clone()))
        })
    };
    let receipt =
        Signal::derive(move || latest.with(|c| c.as_ref().and_then(|c| Receipt::of(&c.card))));
    // The core decides whether this list may answer such a card (F175, F176, F190).
    let allowed = may_answer_in_list(
        &initial.card.action.kind,
        actions.on_resolve.is_some(),
        actions.can_resolve,
        actions.enable_tool_approvals,
        actions.enable_questions,
    );
    let read_only = Signal::derive(move || {
        !allowed || !latest.with(|c| c.as_ref().is_some_and(|c| c.can_resolve))
    });
    // Every answer from this card is for the request as drawn here, whatever the session's
    // card has become since: the core compares the two.
    let resolve = {
        let on_resolve = actions.on_resolve;
        let shown = initial.shown.clone();
        Callback::new(move |r: Resolution| {
            if let Some(cb) = on_resolve {
                cb.run((shown.clone(), r));
            }
        })
    };
    let changed = initial.card.changed() && revision > 0;
    // While a reply streams no card can be decided (the gate refuses it): the buttons wait.
    let busy = Signal::derive(move || store.status.with(|s| s.run == crate::core::Run::Streaming));
    let card = CardProps {
        action: initial.card.action.clone(),
        state,
        stage,
        receipt,
        first_args: initial.card.first_args.clone(),
        read_only,
        resolve,
        warning_seconds: actions.expiry_warning_seconds,
        allow_edit: actions.allow_argument_edit,
        changed,
        busy,
    };
    let custom = match initial.card.action.kind {
        ActionKind::ToolApproval(_) => actions.render_tool_approval,
        _ => actions.render_question,
    };
    let is_question = matches!(initial.card.action.kind, ActionKind::UserQuestion(_));
    let focus = crate::core::live_focus(&initial.card.action);
    let inner = match custom {
        Some(render) => render.run(CardSlot {
            action: card.action,
            state,
            stage,
            read_only,
            resolve,
            changed,
        }),
        None if is_question => view! { <question::QuestionCard card=card/> }.into_any(),
        None => view! { <approval::ApprovalCard card=card/> }.into_any(),
    };
    // F227: a card announced live takes focus once drawn where the core says (an approval on
    // the card itself, a question on its first control, a question whose options decide on
    // their group), so no deciding control is the first thing a key press hits.
    let slot = NodeRef::<leptos::html::Div>::new();
    // A request redrawn because it changed replaces the card the person may have been on:
    // focus, if it fell to the page with the old card, goes to the new card itself.
    if changed {
        request_animation_frame(move || {
            let lost = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.active_element())
                .is_none_or(|el| el.tag_name().eq_ignore_ascii_case("body"));
            if !lost {
                return;
            }
            if let Some(card) = slot
                .try_get_untracked()
                .flatten()
                .and_then(|root| root.query_selector("[role=group][tabindex]").ok().flatten())
            {
                let card: web_sys::HtmlElement = wasm_bindgen::JsCast::unchecked_into(card);
                let _ = card.focus();
            }
        });
    }
    Effect::new(move |_| {
        if !store.attention.is_focus_card(&action_id) {
            return;
        }
        store.attention.focus_taken(&action_id);
        request_animation_frame(move || {
            let Some(root) = slot.try_get_untracked().flatten() else {
                return;
            };
            let control = match focus {
                LiveFocus::FirstControl => {
                    "input:not([disabled]), textarea:not([disabled]), select:not([disabled]), button:not([disabled])"
                }
                LiveFocus::Options => ".chat-card__question[tabindex]",
                LiveFocus::Card => "[role=group][tabindex]",
            };
            let target = root
                .query_selector(control)
                .ok()
                .flatten()
                .or_else(|| root.query_selector("[tabindex]").ok().flatten());
            if let Some(el) = target {
                let el: web_sys::HtmlElement = wasm_bindgen::JsCast::unchecked_into(el);
                let _ = el.focus();
            }
        });
    });
    view! { <div class="chat-card-slot" node_ref=slot>{inner}</div> }.into_any()
}

/// What a built-in card is drawn from.
#[derive(Clone)]
pub struct CardProps {
    /// The action.
    pub action: PendingAction,
    /// Its state.
    pub state: Signal<CardState>,
    /// Its stage in words.
    pub stage: Signal<CardStage>,
    /// What a settled card records.
    pub receipt: Signal<Option<Receipt>>,
    /// The arguments first proposed, when a new version changed them.
    pub first_args: Option<serde_json::Value>,
    /// No decisions offered.
    pub read_only: Signal<bool>,
    /// Sends the answer.
    pub resolve: Callback<Resolution>,
    /// Countdown warning threshold.
    pub warning_seconds: Signal<u64>,
    /// `ChatActions::allow_argument_edit`.
    pub allow_edit: Option<bool>,
    /// The request changed under the same id since this page first drew it.
    pub changed: bool,
    /// A reply is streaming: nothing can be decided until it ends.
    pub busy: Signal<bool>,
}

impl CardProps {
    /// The answer is in flight.
    pub fn sending(&self) -> Signal<bool> {
        let state = self.state;
        Signal::derive(move || state.with(|s| *s == CardState::Sending))
    }
}

/// The frame both cards share: a labelled group with the header, the countdown while open, the
/// card's body, then either the decision `controls`, "Waiting for approval in another app", or
/// how it ended.
#[component]
pub(crate) fn CardFrame(
    /// The card.
    card: CardProps,
    /// `tool_approval` or `user_question` (also the CSS modifier).
    kind: &'static str,
    /// The heading.
    title: Signal<String>,
    /// Lines under the heading (summary, tool name).
    #[prop(optional)]
    subtitles: Vec<(&'static str, String)>,
    /// Icon in the header.
    icon: AnyView,
    /// Decision controls (only while open and answerable).
    controls: ViewFn,
    /// The body (details, editor, questions).
    children: Children,
) -> impl IntoView {
    // Its rules come with it (D79).
    crate::ui::style::use_part_style(crate::ui::style::CARDS_CSS);
    let i18n = I18n::get();
    let (dom_id, title_id) = card_ids(&card.action.id);
    let state = card.state;
    let read_only = card.read_only;
    let deadline = card.action.expires_at;
    let warning_seconds = card.warning_seconds;
    let is_open = move || state.with(CardState::is_open);
    let questions = match &card.action.kind {
        ActionKind::UserQuestion(q) => q.questions.clone(),
        _ => Vec::new(),
    };
    let labelledby = title_id.clone();
    let outcome = move || match state.get() {
        CardState::Settled(o) => Some(o),
        _ => None,
    };
    let changed = card.changed;
    let busy = card.busy;
    let stage = card.stage;
    let receipt = card.receipt;
    let checking = move || stage.with(|s| *s == CardStage::Checking);
    let decision = move || match state.get() {
        CardState::Settled(o) => Some(o.as_str()),
        _ => None,
    };
    let elsewhere_id = if kind == "tool_approval" {
        "chat-action-status-waiting-elsewhere"
    } else {
        "chat-action-status-waiting-elsewhere-question"
    };
    let modifier = if kind == "tool_approval" {
        "chat-card chat-card--approval"
    } else {
        "chat-card chat-card--question"
    };
    view! {
        <section
            class=modifier
            part="card"
            id=dom_id
            role="group"
            tabindex="-1"
            aria-labelledby=labelledby
            data-kind=kind
            data-action-id=card.action.id.clone()
            data-state=move || stage.with(|s| s.as_str())
            data-decision=decision
            data-changed=changed.then_some("true")
        >
            <header class="chat-card__header">
                <span class="chat-card__icon">{icon}</span>
                <div class="chat-card__heading">
                    <h3 class="chat-card__title" id=title_id dir="auto">{move || title.get()}</h3>
                    {subtitles.into_iter().map(|(class, text)| view! { <p class=class dir="auto">{text}</p> }).collect_view()}
                </div>
                <stage::StageBadge stage=stage/>
            </header>
            {deadline.map(|t| view! {
                <Show when=is_open>
                    <Countdown deadline=t warning_seconds=warning_seconds/>
                </Show>
            })}
            <Show when=move || changed && is_open()>
                <p class="chat-card__changed">{move || i18n.t("chat-action-changed")}</p>
            </Show>
            {children()}
            // Why the buttons wait, while they do (the gate's own words for that refusal).
            <Show when=move || busy.get() && state.with(|s| *s == CardState::Waiting) && !read_only.get()>
                <p class="chat-card__blocked">{move || i18n.t("chat-error-refused-busy")}</p>
            </Show>
            {move || match outcome() {
                Some(o) => view! {
                    <CardOutcome outcome=o questions=questions.clone()/>
                    {move || receipt.get().filter(|r| !r.is_empty()).map(|r| view! { <receipt::CardReceipt receipt=r/> })}
                }.into_any(),
                // The answer's fate is unknown: no deciding button until the server says.
                None if checking() => view! {
                    <p class="chat-card__checking" role="status">{move || i18n.t("chat-action-checking-hint")}</p>
                }.into_any(),
                None if read_only.get() => view! {
                    <p class="chat-card__elsewhere" role="status">{move || i18n.t(elsewhere_id)}</p>
                }.into_any(),
                None => controls.run(),
            }}
        </section>
    }
}

/// DOM ids of a card and its title, from the (server-chosen) action id.
pub(crate) fn card_ids(action_id: &str) -> (String, String) {
    let dom_id = format!("chat-card-{}", approval::sanitize_id(action_id));
    let title_id = format!("{dom_id}-title");
    (dom_id, title_id)
}

/// The settled label (role=status) of a card, with the remembered line and answers. Given the
/// card's `questions`, answers follow the questions' order and show option labels, not values.
#[component]
pub fn CardOutcome(
    /// How it ended.
    outcome: Outcome,
    /// The questions of a question card.
    #[prop(optional)]
    questions: Vec<Question>,
) -> impl IntoView {
    // Its rules come with it (D79).
    crate::ui::style::use_part_style(crate::ui::style::CARDS_CSS);
    let i18n = I18n::get();
    let label = {
        let outcome = outcome.clone();
        move || match &outcome {
            Outcome::Approved { .. } => i18n.t("chat-action-status-approved"),
            Outcome::ApprovedEdited { .. } => i18n.t("chat-action-status-approved-edited"),
            Outcome::Denied {
                comment: Some(reason),
            } => i18n.t_args(
                "chat-action-status-denied-with-reason",
                &[("reason", reason.as_str().into())],
            ),
            Outcome::Denied { comment: None } => i18n.t("chat-action-status-denied"),
            Outcome::Answered { .. } => i18n.t("chat-action-status-answered"),
            Outcome::Skipped => i18n.t("chat-action-status-skipped"),
            Outcome::Expired => i18n.t("chat-action-status-expired"),
            Outcome::Cancelled => i18n.t("chat-action-status-cancelled"),
        }
    };
    let remembered = matches!(
        outcome,
        Outcome::Approved { remembered: true }
            | Outcome::ApprovedEdited {
                remembered: true,
                ..
            }
    );
    let answers = match &outcome {
        Outcome::Answered { answers } => answer_lines(answers, &questions)
            .into_iter()
            .map(|(q, text)| {
                view! { <li><span class="chat-card__answer-q">{q}</span>" "<span class="chat-card__answer-a">{text}</span></li> }
            })
            .collect_view(),
        _ => Vec::new().into_iter().collect_view(),
    };
    view! {
        <div class="chat-card__outcome" role="status" data-outcome=outcome.as_str()>
            <p class="chat-card__outcome-label">{label}</p>
            {remembered.then(|| view! { <p class="chat-card__remembered">{move || i18n.t("chat-action-status-remembered")}</p> })}
            <ul class="chat-card__answers">{answers}</ul>
        </div>
    }
}

/// `(question, answer text)` rows: known questions first in their order, with option labels
/// for picked values; then any answer to a question the card does not list.
fn answer_lines(
    answers: &std::collections::BTreeMap<String, AnswerValue>,
    questions: &[Question],
) -> Vec<(String, String)> {
    let label = |q: Option<&Question>, v: &str| {
        q.and_then(|q| q.options.iter().find(|o| o.value == v))
            .map_or_else(|| v.to_owned(), |o| o.label.clone())
    };
    let text = |q: Option<&Question>, a: &AnswerValue| match a {
        AnswerValue::One(v) => label(q, v),
        AnswerValue::Many(vs) => vs
            .iter()
            .map(|v| label(q, v))
            .collect::<Vec<_>>()
            .join(", "),
    };
    let mut rows: Vec<(String, String)> = questions
        .iter()
        .filter_map(|q| {
            answers
                .get(&q.question)
                .map(|a| (q.question.clone(), text(Some(q), a)))
        })
        .collect();
    for (q, a) in answers {
        if !questions.iter().any(|known| known.question == *q) {
            rows.push((q.clone(), text(None, a)));
        }
    }
    rows
}
