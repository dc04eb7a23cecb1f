//! While the page cannot know whether the server took an answer (a card
//! reads "Checking status"), or a tool it approved still runs ("Executing…"), the session
//! looks the conversation up with a bounded backoff (after 1 s, then 2 s, 4 s … at most 30 s
//! apart) until
//! the server settles it. A Checking card is looked for as long as it takes (only the server
//! can end it); an Executing one for a few minutes, after which it keeps its last word.

use crate::stage::CardStage;
use crate::time::Millis;

use super::state::Pending;
use super::Session;

const FIRST_LOOK_MS: u64 = 1_000;
const LONGEST_GAP_MS: u64 = 30_000;
/// Looks for a tool that still runs before the page stops asking (about 4 minutes).
const EXECUTING_LOOKS: u32 = 12;

/// When to look next.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Watch {
    pub(super) next_at: Millis,
    gap_ms: u64,
    looks: u32,
}

impl Session {
    /// Starts looking (`now`: the first look right away) unless a watch already runs.
    pub(super) fn watch_cards(&mut self, now: bool) {
        if self.watch.is_none() {
            self.watch = Some(Watch {
                next_at: self.now.saturating_add(FIRST_LOOK_MS),
                gap_ms: FIRST_LOOK_MS,
                looks: 0,
            });
        }
        if now {
            if let Some(w) = self.watch.as_mut() {
                w.next_at = self.now;
            }
            self.poll_watch();
        }
    }

    /// Starts looking (not right away) when a card waits on the server's word: an answer
    /// the page cannot know was taken, or a tool that still runs.
    pub(super) fn watch_cards_awaiting_server(&mut self) {
        if self.cards.iter().any(|c| CardStage::of(c).awaits_server()) {
            self.watch_cards(false);
        }
    }

    /// The timer fired: look again when a card still waits on the server.
    pub(super) fn poll_watch(&mut self) {
        let Some(watch) = self.watch.clone() else {
            return;
        };
        if self.now < watch.next_at {
            return;
        }
        let stages: Vec<CardStage> = self.cards.iter().map(CardStage::of).collect();
        let checking = stages.contains(&CardStage::Checking);
        let executing = stages.contains(&CardStage::Executing);
        if !checking && (!executing || watch.looks >= EXECUTING_LOOKS) {
            self.watch = None;
            return;
        }
        let gap = (watch.gap_ms * 2).min(LONGEST_GAP_MS);
        let loading = self.is_reading()
            || self.pending.iter().any(|(_, p)| {
                matches!(
                    p,
                    Pending::Load { .. } | Pending::LoadTail { .. } | Pending::ReadingTail { .. }
                )
            });
        // A reply on its way (or a look already out) tells more than a look would.
        if !self.is_streaming() && !loading {
            self.refresh_conversation();
        }
        self.watch = Some(Watch {
            next_at: self.now.saturating_add(gap),
            gap_ms: gap,
            looks: watch.looks + 1,
        });
    }
}
