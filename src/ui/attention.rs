//! The words of the store's live-region announcements in the person's language
//! ([`crate::store::attention`] holds what is announced and which card takes focus).

use crate::core::Notice;
use crate::ui::i18n::I18n;

/// The text of an announcement in the person's language.
pub(crate) fn text(i18n: &I18n, notice: &Notice) -> String {
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
