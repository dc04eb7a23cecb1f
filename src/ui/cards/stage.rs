//! The words of a card's stage in its header (the current state is always
//! explicit): Pending approval, Sending…, Checking status, Executing…, Completed, Failed…

use leptos::prelude::*;

use crate::core::CardStage;
use crate::ui::i18n::I18n;

/// The stage of a card, as a badge with `data-stage`. Not a live region itself: the chat's
/// hidden live region announces changes once (the store decides which).
#[component]
pub fn StageBadge(
    /// The card's stage.
    stage: Signal<CardStage>,
) -> impl IntoView {
    let i18n = I18n::get();
    let text = move || stage_text(&i18n, &stage.get());
    view! {
        <p class="chat-card__stage" data-stage=move || stage.with(|s| s.as_str())>{text}</p>
    }
}

/// The words of `stage` in the person's language; a failure says the provider's message.
pub fn stage_text(i18n: &I18n, stage: &CardStage) -> String {
    match stage {
        CardStage::Failed {
            message: Some(message),
        } => i18n.t_args(
            "chat-action-stage-failed-with-message",
            &[("message", message.as_str().into())],
        ),
        other => i18n.t(other.fluent_id()),
    }
}
