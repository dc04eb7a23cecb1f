//! "Approve all (N)" and "Deny all" (when the model asked for several tools at once, all of them
//! wait): every call of one assistant turn decided at once, all or nothing in what the person sees,
//! each call still its own `POST /conversations/:cid/actions/:aid` request with its own decision
//! key, sent one after the other (the server runs one continuation at a time). Each request names
//! the calls of the batch still to come with the same answer, so a backend that decides a run's
//! calls in one request (Cogitator's `defaultDecision`) can take them all with the first.

use crate::actions::{approval_batch, CardState};
use crate::draft::{check_resolve, ResolveContext, ResolveRefusal, Shown};
use crate::wire::Resolution;

use super::state::Pending;
use super::{ChatError, Session, SessionEvent};

impl Session {
    /// Gates every call first; only when all pass do they go to Sending together.
    pub(super) fn resolve_all(&mut self, shown: Vec<Shown>, approve: bool) {
        let resolution = if approve {
            Resolution::allow()
        } else {
            Resolution::deny(None)
        };
        // The calls must be exactly one turn's waiting approvals (never across turns).
        let group = shown.first().and_then(|s| {
            self.cards
                .iter()
                .find(|c| c.action.id == s.action_id)
                .map(|c| c.message_id.clone())
        });
        let batch: Vec<String> = match &group {
            Some(message_id) => approval_batch(
                self.cards.iter().map(|c| (c, self.can_resolve(c))),
                message_id.as_deref(),
            )
            .into_iter()
            .map(|c| c.action.id.clone())
            .collect(),
            None => Vec::new(),
        };
        let same_set = batch.len() == shown.len()
            && shown.iter().all(|s| batch.contains(&s.action_id))
            && self.batch.is_empty();
        let ctx = self.resolve_context(true);
        let mut checked = Vec::new();
        for s in &shown {
            let card = self.cards.iter().find(|c| c.action.id == s.action_id);
            let may = card.is_some_and(|c| self.can_resolve(c));
            let verdict = if same_set {
                check_resolve(
                    card,
                    s,
                    &resolution,
                    ResolveContext {
                        may_answer: may,
                        ..ctx
                    },
                )
            } else {
                Err(ResolveRefusal::Unknown)
            };
            match verdict {
                Ok(r) => checked.push((s.clone(), r)),
                Err(reason) => {
                    // Nothing of the batch leaves the page.
                    self.set_error(ChatError::Refused(reason.clone()));
                    self.emit(SessionEvent::ResolveRefused {
                        action_id: s.action_id.clone(),
                        reason,
                    });
                    return;
                }
            }
        }
        for (s, _) in &checked {
            self.set_card_state(&s.action_id, CardState::Sending);
        }
        self.revisions.status += 1;
        self.batch = checked.into();
    }

    /// Sends the next call of a batch once nothing else is on its way.
    pub(super) fn advance_batch(&mut self) {
        while !self.batch.is_empty() && !self.answer_in_flight() {
            let Some((shown, resolution)) = self.batch.pop_front() else {
                return;
            };
            // Queued as Sending so the cards move together; the gate sees it waiting again.
            let queued = self
                .cards
                .iter_mut()
                .find(|c| c.action.id == shown.action_id && c.state == CardState::Sending);
            match queued {
                Some(card) => card.state = CardState::Waiting,
                None => continue,
            }
            // The rest of the batch with the same answer: a backend that decides a run's
            // calls in one request takes them with this one.
            let together = self
                .batch
                .iter()
                .filter(|(_, r)| *r == resolution)
                .map(|(s, _)| s.action_id.clone())
                .collect();
            self.resolve(shown, resolution, None, together);
        }
    }

    /// A call of the batch was refused or its fate is unknown: the others are not sent; they
    /// wait again, to be decided one by one.
    pub(super) fn cancel_batch(&mut self) {
        for (shown, _) in std::mem::take(&mut self.batch) {
            self.set_card_state(&shown.action_id, CardState::Waiting);
        }
    }

    fn answer_in_flight(&self) -> bool {
        self.is_streaming()
            || self.pending.iter().any(|(_, p)| match p {
                Pending::Resolve { .. } => true,
                Pending::Stream { turn, .. } => {
                    matches!(turn, super::state::Turn::Resolve { .. })
                }
                _ => false,
            })
    }
}
