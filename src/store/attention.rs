//! Where the person's attention goes: what the hidden live region says, which card takes
//! focus, when focus returns to the composer. The store writes it as events arrive; the views
//! read it and say it in the person's language. What to announce and whether to focus is
//! decided in the core ([`crate::core::attention_for_new_card`],
//! [`crate::core::attention_for_changed_card`]).

use leptos::prelude::*;

use crate::core::Notice;

/// One announcement of the hidden live region.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Announcement {
    /// Increases with every announcement, so the same words are read again.
    pub seq: u64,
    /// What to say.
    pub notice: Notice,
}

/// The attention signals of one chat. `Copy`; owned by the chat's store, which writes them;
/// views read them and may only consume a focus request.
#[derive(Clone, Copy)]
pub(crate) struct ChatAttention {
    /// Reads what the hidden live region says next (tracked inside a reactive closure).
    announcement: RwSignal<Option<Announcement>>,
    /// The card that should take focus once drawn; the card clears it.
    focus_card: RwSignal<Option<String>>,
    /// Bumped when focus should go back to the composer (tracked).
    focus_composer: RwSignal<u64>,
}

impl ChatAttention {
    pub(crate) fn new() -> Self {
        ChatAttention {
            announcement: RwSignal::new(None),
            focus_card: RwSignal::new(None),
            focus_composer: RwSignal::new(0),
        }
    }

    /// Reads what the hidden live region says next (tracked inside a reactive closure).
    pub(crate) fn with_announcement<R>(&self, f: impl FnOnce(Option<&Announcement>) -> R) -> R {
        self.announcement.with(|a| f(a.as_ref()))
    }

    /// Whether `action_id` is the card that should take focus once drawn (tracked).
    pub(crate) fn is_focus_card(&self, action_id: &str) -> bool {
        self.focus_card.with(|f| f.as_deref() == Some(action_id))
    }

    /// Bumped when focus should go back to the composer (tracked).
    pub(crate) fn focus_composer(&self) -> u64 {
        self.focus_composer.get()
    }

    /// Says `notice` in the live region (again, if it is the same words).
    pub(crate) fn announce(&self, notice: Notice) {
        let seq = self
            .announcement
            .try_with_untracked(|a| a.as_ref().map_or(0, |a| a.seq) + 1)
            .unwrap_or(1);
        let _ = self
            .announcement
            .try_set(Some(Announcement { seq, notice }));
    }

    /// Asks card `action_id` to take focus once drawn; the first of several cards arriving
    /// together keeps the request.
    pub(crate) fn focus(&self, action_id: &str) {
        if self.focus_card.try_with_untracked(Option::is_none) == Some(true) {
            let _ = self.focus_card.try_set(Some(action_id.to_owned()));
        }
    }

    /// Card `action_id` took the focus asked of it: the request is consumed. A request for
    /// another card stays.
    pub(crate) fn focus_taken(&self, action_id: &str) {
        let _ = self.focus_card.try_update(|f| {
            if f.as_deref() == Some(action_id) {
                *f = None;
            }
        });
    }

    /// Sends focus back to the composer.
    pub(crate) fn refocus_composer(&self) {
        let _ = self.focus_composer.try_update(|n| *n += 1);
    }
}
