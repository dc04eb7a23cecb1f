//! Publishing: the session's changed slices are copied into the store's signals at most once
//! per animation frame, so a stream of hundreds of tiny `stream.text` events costs one DOM
//! update per frame, not one per token.

use leptos::prelude::*;

use crate::core::Session;

use super::{CardView, ChatStore, FilesSlice, HistorySlice, PendingFileView, StatusSlice};

impl ChatStore {
    pub(super) fn schedule_publish(&self) {
        let already = self
            .driver
            .try_update_value(|d| std::mem::replace(&mut d.frame_pending, true))
            .unwrap_or(true);
        if already {
            return;
        }
        let store = *self;
        next_frame(move || store.publish());
    }

    /// Copies changed slices from the session into signals (once per frame). `try_set`: the
    /// chat may have been unmounted since the frame was requested.
    pub(super) fn publish(&self) {
        let Some((revs, published)) = self.driver.try_update_value(|d| {
            d.frame_pending = false;
            let revs = d.session.revisions();
            (revs, std::mem::replace(&mut d.published, revs))
        }) else {
            return;
        };
        if revs.messages != published.messages {
            if let Some(m) = self
                .driver
                .try_with_value(|d| d.session.messages().to_vec())
            {
                let _ = self.write.messages.try_set(m);
            }
        }
        if revs.streaming != published.streaming {
            if let Some(s) = self
                .driver
                .try_with_value(|d| d.session.streaming().cloned())
            {
                let _ = self.write.streaming.try_set(s);
            }
        }
        // The composer state is derived from the cards too.
        if revs.status != published.status || revs.actions != published.actions {
            if let Some(s) = self.driver.try_with_value(|d| status_of(&d.session)) {
                let _ = self.write.status.try_set(s);
            }
        }
        if revs.actions != published.actions {
            if let Some(c) = self.driver.try_with_value(|d| {
                let s = &d.session;
                s.cards()
                    .iter()
                    .map(|card| CardView {
                        can_resolve: s.can_resolve(card),
                        shown: crate::core::Shown::from(card),
                        stage: crate::core::CardStage::of(card),
                        card: card.clone(),
                    })
                    .collect::<Vec<_>>()
            }) {
                self.announce_stage_changes(&c);
                self.report_attention(&c);
                let _ = self.write.cards.try_set(c);
            }
        }
        // The limits depend on the selected agent (status) as well as on the props.
        if revs.files != published.files || revs.status != published.status {
            if let Some(f) = self.driver.try_with_value(|d| FilesSlice {
                pending: d
                    .session
                    .pending_files()
                    .iter()
                    .map(|f| PendingFileView {
                        id: f.id.clone(),
                        name: f.name.clone(),
                        mime_type: f.mime_type.clone(),
                        size: f.size,
                        ready: f.is_ready(),
                    })
                    .collect(),
                limits: d.session.upload_limits(),
            }) {
                if self.files.try_with_untracked(|cur| cur != &f) == Some(true) {
                    let _ = self.write.files.try_set(f);
                }
            }
        }
        if revs.history != published.history {
            if let Some(h) = self.driver.try_with_value(|d| HistorySlice {
                items: d.session.history().to_vec(),
                has_more: d.session.history_has_more(),
                loading: d.session.history_loading(),
            }) {
                let _ = self.write.history.try_set(h);
            }
        }
    }
}

/// Calls `f` before the next repaint, which coalesces publishing to one update per frame.
#[cfg(target_arch = "wasm32")]
fn next_frame(f: impl FnOnce() + 'static) {
    request_animation_frame(f);
}

/// Natively there are no frames: `f` runs at once, so a test reads the signals right after
/// `dispatch` (publishing then comes before the host callbacks of the same input).
#[cfg(not(target_arch = "wasm32"))]
fn next_frame(f: impl FnOnce() + 'static) {
    f();
}

fn status_of(s: &Session) -> StatusSlice {
    StatusSlice {
        run: s.run(),
        error: s.error().cloned(),
        agents: s.agents().to_vec(),
        agents_loaded: s.agents_loaded(),
        agent_id: s.agent_id().map(str::to_owned),
        conversation: s.conversation().cloned(),
        can_send: s.can_send(),
        composer_mode: s.composer_mode(),
        composer: s.composer_state(),
        argument_edit: s.argument_edit_allowed(),
        agent_argument_edit: s.agent().and_then(|a| a.capabilities.approval_args_edit),
        remember_allowed: s.remember_allowed(),
        has_older_messages: s.has_older_messages(),
        is_loading_older: s.is_loading_older(),
        clock_offset_ms: s.clock_offset_ms(),
    }
}
