//! Approval and question cards under an assistant message (seed 000), and how a settled card
//! reads (PROTOCOL §9.7).

pub mod approval;
pub mod question;

use leptos::prelude::*;

use crate::core::{ActionKind, AnswerValue, Outcome, Role};
use crate::store::{CardView, ChatStore};
use crate::ui::i18n::I18n;

/// The cards that belong under the assistant message `message_id` (C11): those placed there,
/// and for the last assistant message also those without a placement.
#[component]
pub fn MessageCards(
    /// The assistant message.
    message_id: String,
) -> impl IntoView {
    let store = ChatStore::expect();
    let id = message_id.clone();
    let is_last = Memo::new(move |_| {
        store.messages.with(|ms| {
            ms.iter()
                .rev()
                .find(|m| m.role == Role::Assistant)
                .is_some_and(|m| m.id == id)
        })
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
                .cloned()
                .collect::<Vec<_>>()
        })
    };
    view! {
        <For
            each=mine
            key=|c| (c.card.action.id.clone(), c.card.state.as_str(), c.can_resolve)
            children=move |c: CardView| match c.card.action.kind {
                ActionKind::UserQuestion(_) => view! { <question::QuestionCard view=c/> }.into_any(),
                _ => view! { <approval::ApprovalCard view=c/> }.into_any(),
            }
        />
    }
}

/// DOM ids of a card and its title, from the (server-chosen) action id.
pub(crate) fn card_ids(action_id: &str) -> (String, String) {
    let dom_id = format!("chat-card-{}", approval::sanitize_id(action_id));
    let title_id = format!("{dom_id}-title");
    (dom_id, title_id)
}

/// The settled label (role=status) of a card, with the remembered line and answers.
#[component]
pub fn CardOutcome(
    /// How it ended.
    outcome: Outcome,
) -> impl IntoView {
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
        Outcome::Answered { answers } => answers
            .iter()
            .map(|(q, a)| {
                let text = match a {
                    AnswerValue::One(v) => v.clone(),
                    AnswerValue::Many(vs) => vs.join(", "),
                };
                view! { <li><span class="chat-card__answer-q">{q.clone()}</span>" "<span class="chat-card__answer-a">{text}</span></li> }
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
