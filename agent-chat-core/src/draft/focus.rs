//! Where a card announced live puts keyboard focus. One invariant: no control that decides is
//! the first thing a key press hits, so a stray Enter or Space typed just as a card arrives
//! never answers it. Pure: the card's kind and its draft decide.

use super::QuestionDraft;
use crate::wire::{ActionKind, PendingAction};

/// The element of a live card that takes focus when it is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LiveFocus {
    /// The card itself (its labelled group): an approval, whose buttons decide.
    Card,
    /// The first control: a question whose controls only fill in the answer, which Send (or
    /// Skip) sends.
    FirstControl,
    /// The question's group of options: a lone single-choice question submits as soon as an
    /// option is picked, so every option decides. The first key press can only move focus
    /// into the options (an arrow key) or past them (Tab); Enter and Space there do nothing.
    Options,
}

/// Where `action`'s card puts focus when it arrives live.
pub fn live_focus(action: &PendingAction) -> LiveFocus {
    match &action.kind {
        ActionKind::UserQuestion(_) => match QuestionDraft::new(action) {
            Some(draft) if draft.submits_on_pick() => LiveFocus::Options,
            _ => LiveFocus::FirstControl,
        },
        _ => LiveFocus::Card,
    }
}
