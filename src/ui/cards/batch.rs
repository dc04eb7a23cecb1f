//! "Approve all (N)" and "Deny all" above the calls of one assistant turn that wait together.
//! Which calls form the batch is the core's rule
//! ([`crate::core::approval_batch`]); the session gates them all or sends none.

use leptos::prelude::*;

use crate::core::{approval_batch, Shown};
use crate::store::ChatStore;
use crate::ui::cards::ChatActions;
use crate::ui::i18n::I18n;

/// The batch bar of the assistant message `message_id`; nothing unless two or more of its
/// approvals wait here and the list can decide them at once.
#[component]
pub fn BatchBar(
    /// The assistant message.
    message_id: String,
    /// Whether it is the last assistant message (cards without a placement belong to it).
    is_last: Memo<bool>,
) -> impl IntoView {
    let store = ChatStore::expect();
    let actions = ChatActions::get();
    let i18n = I18n::get();
    let Some(on_resolve_all) = actions.on_resolve_all else {
        return ().into_any();
    };
    let allowed = actions.can_resolve && actions.enable_tool_approvals;
    let shown = Memo::new(move |_| {
        if !allowed {
            return Vec::new();
        }
        store.cards.with(|cards| {
            let placed: Option<&str> = if cards
                .iter()
                .any(|c| c.card.message_id.as_deref() == Some(message_id.as_str()))
            {
                Some(message_id.as_str())
            } else if is_last.get() {
                None
            } else {
                return Vec::new();
            };
            approval_batch(cards.iter().map(|c| (&c.card, c.can_resolve)), placed)
                .into_iter()
                .map(Shown::from)
                .collect::<Vec<_>>()
        })
    });
    let count = move || shown.with(Vec::len);
    let many = move || count() > 1;
    let decide = move |approve: bool| on_resolve_all.run((shown.get_untracked(), approve));
    view! {
        <Show when=many>
            <div class="chat-card__batch" role="group" aria-label=move || i18n.t_args("chat-action-batch-hint", &[("count", count().into())])>
                <p class="chat-card__batch-hint">{move || i18n.t_args("chat-action-batch-hint", &[("count", count().into())])}</p>
                <button type="button" class="chat-button chat-button--primary chat-batch__approve-all" on:click=move |_| decide(true)>
                    {move || i18n.t_args("chat-action-approve-all", &[("count", count().into())])}
                </button>
                <button type="button" class="chat-button chat-batch__deny-all" on:click=move |_| decide(false)>
                    {move || i18n.t("chat-action-deny-all")}
                </button>
            </div>
        </Show>
    }
    .into_any()
}
