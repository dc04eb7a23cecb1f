//! What the session reports, delivered: the host's callbacks, the answers hosts await,
//! decision keys kept, other tabs told, and the person's attention (announcements, focus, the
//! waiting count) as the core decided it.

use leptos::prelude::*;

use crate::core::SessionEvent;

use super::{CardView, ChatStore};

impl ChatStore {
    pub(super) fn emit(&self, event: SessionEvent) {
        let Some(cb) = self.driver.try_with_value(|d| d.callbacks.clone()) else {
            return;
        };
        match event {
            SessionEvent::MessageSent(m) => run(&cb.on_message_sent, m),
            SessionEvent::MessageReceived(m) => run(&cb.on_message_received, m),
            // The whole text is copied only for a host that asked for it (F14, D42).
            SessionEvent::StreamText { chunk, full } => {
                if let Some(cb) = cb.on_stream_text {
                    cb.run((chunk, full.to_string()));
                }
            }
            SessionEvent::ToolCall { name, args } => run(&cb.on_tool_call, (name, args)),
            SessionEvent::ToolResult { name, result } => run(&cb.on_tool_result, (name, result)),
            SessionEvent::Error(e) => run(&cb.on_error, e),
            SessionEvent::ConversationCreated(c) => run(&cb.on_conversation_created, c),
            SessionEvent::ConversationChanged(id) => run(&cb.on_conversation_change, id),
            SessionEvent::AgentChanged(id) => run(&cb.on_agent_change, id),
            SessionEvent::ActionRequired(action) => {
                self.announce_and_focus(&action);
                run(&cb.on_action_required, action)
            }
            SessionEvent::ActionChanged(action) => {
                let answerable = self.answerable_here(&action.id);
                if let Some(notice) = crate::core::attention_for_changed_card(answerable).announce {
                    self.attention.announce(notice);
                }
            }
            // What the person can act on is also an `Error` event (the banner, `on_error`).
            SessionEvent::ResolveRefused { reason, .. } => {
                let _ = self.driver.try_update_value(|d| {
                    d.answers.refused(crate::core::ChatError::Refused(reason))
                });
            }
            SessionEvent::ResolveFailed { action_id, error } => {
                self.complete_answer(&action_id, Err(error));
            }
            SessionEvent::CardsSettled => self.attention.refocus_composer(),
            SessionEvent::FrameSkipped { detail } => {
                #[cfg(target_arch = "wasm32")]
                web_sys::console::debug_1(
                    &format!("agent-chat-ui: skipped an unreadable stream frame: {detail}").into(),
                );
                #[cfg(not(target_arch = "wasm32"))]
                let _ = detail;
            }
            SessionEvent::DecisionKeysChanged(entries) => {
                if let Some(Some(scope)) = self.driver.try_with_value(|d| d.keys_scope.clone()) {
                    crate::io::keys::save(&scope, &entries);
                }
            }
            SessionEvent::ClientToolRequested(action) => run(&cb.on_client_tool, action),
            SessionEvent::ActionResolved {
                action_id,
                resolution,
            } => {
                let _ = self.driver.try_with_value(|d| {
                    if let (Some(peers), Some(c)) = (&d.peers, d.session.conversation()) {
                        peers.tell_settled(&c.id, &action_id);
                    }
                });
                self.complete_answer(&action_id, Ok(()));
                run(&cb.on_action_resolved, (action_id, resolution))
            }
            SessionEvent::DraftReturned(text) => {
                // Never overwrite what the person typed since (C29).
                if self
                    .draft
                    .try_get_untracked()
                    .is_some_and(|d| d.trim().is_empty())
                {
                    let _ = self.write.draft.try_set(text);
                }
            }
        }
    }

    pub(super) fn complete_answer(
        &self,
        action_id: &str,
        result: Result<(), crate::core::ChatError>,
    ) {
        let _ = self
            .driver
            .try_update_value(|d| d.answers.complete(action_id, result));
    }

    /// The core decides what a live card asks of the
    /// person's attention; this only tells it whether the person is typing and whether the
    /// card can be answered here. Restored cards never get here (the session does not report
    /// them), nor do `client_tool` requests.
    pub(super) fn announce_and_focus(&self, action: &crate::core::PendingAction) {
        let typing = self.composer_focused.try_get_untracked() == Some(true)
            && self
                .draft
                .try_with_untracked(|d| !d.trim().is_empty())
                .unwrap_or(false);
        let attention =
            crate::core::attention_for_new_card(action, self.answerable_here(&action.id), typing);
        if let Some(notice) = attention.announce {
            self.attention.announce(notice);
        }
        if attention.focus {
            self.attention.focus(&action.id);
        }
    }

    /// Tells the host when the number of cards waiting for this person changes.
    pub(super) fn report_attention(&self, cards: &[CardView]) {
        let now = crate::core::pending_attention(cards.iter().map(|c| (&c.card, c.can_resolve)));
        let _ = self.pending_count.try_set(now.pending);
        let changed = self
            .driver
            .try_update_value(|d| {
                let changed = d.attention_reported != Some(now.pending);
                d.attention_reported = Some(now.pending);
                changed
            })
            .unwrap_or(false);
        if !changed {
            return;
        }
        if let Some(Some(cb)) = self.driver.try_with_value(|d| d.callbacks.on_attention) {
            cb.run(now);
        }
    }

    /// A card that moved on (Executing…, Completed, Checking status…) is announced
    /// politely; the core decides which moves are said.
    pub(super) fn announce_stage_changes(&self, next: &[CardView]) {
        let notices: Vec<crate::core::Notice> = self
            .cards
            .try_with_untracked(|before| {
                next.iter()
                    .filter_map(|c| {
                        let old = before
                            .iter()
                            .find(|b| b.card.action.id == c.card.action.id)?;
                        crate::core::attention_for_stage_change(&c.card, &old.stage, &c.stage)
                    })
                    .collect()
            })
            .unwrap_or_default();
        for notice in notices {
            self.attention.announce(notice);
        }
    }

    /// The session's card `action_id` can be answered here.
    pub(super) fn answerable_here(&self, action_id: &str) -> bool {
        self.driver
            .try_with_value(|d| {
                let s = &d.session;
                s.cards()
                    .iter()
                    .any(|c| c.action.id == action_id && s.can_resolve(c))
            })
            .unwrap_or(false)
    }
}

fn run<T: 'static>(cb: &Option<Callback<T>>, value: T) {
    if let Some(cb) = cb {
        cb.run(value);
    }
}
