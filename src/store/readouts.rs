//! The React hook's read-outs about cards and the streaming reply, derived from the store's
//! slices as signals.

use leptos::prelude::*;

use crate::core::Run;

use super::{AnswerableQuestion, ChatStore};

impl ChatStore {
    /// How many cards wait for this person (the "(N)" title prefix). Read inside a reactive
    /// closure, the closure runs again when it changes.
    pub fn pending_count(&self) -> usize {
        self.pending_count.get()
    }

    /// `pendingActions`: open actions (person-facing and `client_tool`), each with the
    /// message it belongs to.
    pub fn pending_actions(&self) -> Signal<Vec<crate::core::ActionCard>> {
        let cards = self.cards;
        Signal::derive(move || {
            cards.with(|cs| {
                cs.iter()
                    .filter(|c| c.card.state.is_open())
                    .map(|c| c.card.clone())
                    .collect()
            })
        })
    }

    /// `awaitingAction`: a person-facing action is open.
    pub fn awaiting_action(&self) -> Signal<bool> {
        let cards = self.cards;
        Signal::derive(move || cards.with(|cs| cs.iter().any(|c| c.card.is_open_for_person())))
    }

    /// `isResolvingAction`: an answer is in flight.
    pub fn is_resolving_action(&self) -> Signal<bool> {
        let cards = self.cards;
        Signal::derive(move || {
            cards.with(|cs| {
                cs.iter()
                    .any(|c| c.card.state == crate::core::CardState::Sending)
            })
        })
    }

    /// `canResolveActions`: this chat's transport can answer.
    pub fn can_resolve_actions(&self) -> bool {
        self.driver
            .try_with_value(|d| d.session.config().can_resolve)
            .unwrap_or(false)
    }

    /// `answerableQuestion`.
    pub fn answerable_question(&self) -> Signal<Option<AnswerableQuestion>> {
        let status = self.status;
        Signal::derive(move || {
            status.with(|s| match &s.composer {
                crate::core::ComposerState::Answer {
                    action_id,
                    question,
                } => Some(AnswerableQuestion {
                    action_id: action_id.clone(),
                    question: question.clone(),
                }),
                _ => None,
            })
        })
    }

    /// `composerState`.
    pub fn composer_state(&self) -> Signal<crate::core::ComposerState> {
        let status = self.status;
        Signal::derive(move || status.with(|s| s.composer.clone()))
    }

    /// `isStreaming`: a reply is streaming.
    pub fn is_streaming(&self) -> Signal<bool> {
        let status = self.status;
        Signal::derive(move || status.with(|s| s.run == Run::Streaming))
    }

    /// `streamingText`: the reply streamed so far. Each read copies the whole text; the chat's
    /// own view reads [`ChatStore::streaming`]'s shared [`crate::core::StreamText`] instead,
    /// which costs only the new bytes per frame.
    pub fn streaming_text(&self) -> Signal<String> {
        let streaming = self.streaming;
        Signal::derive(move || {
            streaming.with(|s| s.as_ref().map(|t| t.text.to_string()).unwrap_or_default())
        })
    }
}
