//! Where the person's attention goes: what the hidden live region says, which card takes
//! focus, when focus returns to the composer. UI-only state, kept out of the store's public
//! surface (issue 13); what to announce and whether to focus is decided in the core
//! ([`crate::core::attention_for_new_card`], [`crate::core::attention_for_changed_card`]).

use leptos::prelude::*;

use crate::core::Notice;

/// One announcement of the hidden live region (F226).
#[derive(Clone, Debug, PartialEq)]
pub struct Announcement {
    /// Increases with every announcement, so the same words are read again.
    pub seq: u64,
    /// What to say.
    pub notice: Notice,
}

/// The attention signals of one chat. `Copy`; owned by the chat's store, read and written only
/// inside this crate.
#[derive(Clone, Copy)]
pub(crate) struct ChatAttention {
    /// What the hidden live region says next (F226).
    pub announcement: RwSignal<Option<Announcement>>,
    /// The card that should take focus once drawn (F227); the card clears it.
    pub focus_card: RwSignal<Option<String>>,
    /// Bumped when focus should go back to the composer (F228).
    pub focus_composer: RwSignal<u64>,
}

impl ChatAttention {
    pub(crate) fn new() -> Self {
        ChatAttention {
            announcement: RwSignal::new(None),
            focus_card: RwSignal::new(None),
            focus_composer: RwSignal::new(0),
        }
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

    /// Sends focus back to the composer (F228).
    pub(crate) fn refocus_composer(&self) {
        let _ = self.focus_composer.try_update(|n| *n += 1);
    }

    /// The text of an announcement in the person's language.
    pub(crate) fn text(i18n: &crate::ui::i18n::I18n, notice: &Notice) -> String {
        match notice {
            Notice::Approval { tool } => i18n.t_args(
                "chat-action-announce-approval",
                &[("tool", tool.as_str().into())],
            ),
            Notice::Question => i18n.t("chat-action-announce-question"),
            Notice::Elsewhere => i18n.t("chat-action-announce-elsewhere"),
            Notice::Changed => i18n.t("chat-action-changed"),
            Notice::Stage { subject, stage } => i18n.t_args(
                "chat-action-announce-stage",
                &[
                    ("subject", subject.as_str().into()),
                    (
                        "stage",
                        crate::ui::cards::stage::stage_text(i18n, stage).into(),
                    ),
                ],
            ),
        }
    }
}
