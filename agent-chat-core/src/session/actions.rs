//! Approval, question and `client_tool` cards: answering one
//! (`POST /conversations/:cid/actions/:aid`), what a refusal does to it, merging open actions from
//! streams and replies, local expiry, cancel mode, and reporting the page's own tools to the host.

use crate::actions::{ActionCard, CardState, Decider, Outcome};
use crate::draft::{check_resolve, ResolveRefusal, Shown};
use crate::stage::CardStage;
use crate::time::Millis;
use crate::wire::{
    ActionKind, ActionStateEntry, ActionStatus, ComposerMode, PendingAction, Resolution,
    ResolveActionResponse, TurnStatus,
};

use super::error::parse_json;
use super::state::{Pending, Turn};
use super::{
    ChatError, ErrorContext, HttpResponse, Run, Session, SessionEvent, StreamingTurn,
    TransportError,
};
use crate::endpoint::Endpoint;

impl Session {
    /// `POST /conversations/:cid/actions/:aid`: the answer passes the core's gate
    /// ([`check_resolve`]: the card still is the request `shown`, waits, may be answered here, is
    /// in time, and the answer keeps its rules), then the card goes to Sending (its deadline no
    /// longer applies), the answer is posted, and the continuation streams in as a new assistant
    /// message. `together` names, for one card of an "Approve all" / "Deny all", the cards of the
    /// batch still to be answered after it with the same answer (empty for an answer on its own).
    pub(super) fn resolve(
        &mut self,
        shown: Shown,
        resolution: Resolution,
        draft: Option<String>,
        together: Vec<String>,
    ) {
        let action_id = shown.action_id.clone();
        let card = self.cards.iter().find(|c| c.action.id == action_id);
        let ctx = self.resolve_context(card.is_some_and(|c| self.can_resolve(c)));
        let resolution = match check_resolve(card, &shown, &resolution, ctx) {
            Ok(resolution) => resolution,
            Err(reason) => return self.refuse_locally(action_id, reason, draft),
        };
        let Some(conversation_id) = self.conversation.as_ref().map(|c| c.id.clone()) else {
            return self.refuse_locally(action_id, ResolveRefusal::Unknown, draft);
        };
        let version = shown.version;
        self.set_card_state(&action_id, CardState::Sending);
        self.error = None;
        self.revisions.status += 1;
        let wire = resolution.to_json();
        // One key per decision, reused by every retry of it (issue 14).
        let (key, fresh) = self.keys.key_for(&action_id, version, &wire);
        if fresh {
            self.emit_keys();
        }
        let call = Endpoint::Resolve {
            conversation_id,
            action_id: action_id.clone(),
            resolution: wire,
            stream: self.config.streaming,
            decision_key: key,
            version,
            together,
        };
        let turn = Turn::Resolve {
            action_id,
            resolution,
            draft,
        };
        if self.config.streaming {
            self.run = Run::Streaming;
            self.streaming = Some(StreamingTurn::default());
            self.revisions.streaming += 1;
            self.open_stream(call, turn);
        } else {
            self.request(call, Pending::Resolve { turn });
        }
    }

    /// An answer the gate refused: nothing is sent. A late one settles its card Expired at once
    /// (as the deadline timer would have); the composer's text comes back; the banner says
    /// why, whatever the reason (a click never goes unanswered).
    fn refuse_locally(&mut self, action_id: String, reason: ResolveRefusal, draft: Option<String>) {
        if reason == ResolveRefusal::Expired && self.expire_due_cards(self.server_now()) {
            self.revisions.actions += 1;
            if !self.is_streaming() {
                self.finish_turn();
            }
            self.schedule_expiry_refresh();
        }
        if let Some(text) = draft {
            self.emit(SessionEvent::DraftReturned(text));
        }
        self.set_error(ChatError::Refused(reason.clone()));
        self.emit(SessionEvent::ResolveRefused { action_id, reason });
    }

    pub(super) fn set_card_state(&mut self, action_id: &str, state: CardState) {
        let settled = !state.is_open();
        if let Some(card) = self.cards.iter_mut().find(|c| c.action.id == action_id) {
            if card.state != state {
                card.state = state;
                self.revisions.actions += 1;
            }
        }
        if settled {
            self.forget_settled_keys();
        }
    }

    /// Drops the decision keys of cards that settled.
    pub(super) fn forget_settled_keys(&mut self) {
        let cards = &self.cards;
        let forgot = self.keys.forget_settled(|id| {
            cards
                .iter()
                .find(|c| c.action.id == id)
                .is_none_or(|c| c.state.is_open())
        });
        if forgot {
            self.emit_keys();
        }
    }

    fn emit_keys(&mut self) {
        let entries = self.keys.entries().to_vec();
        self.emit(SessionEvent::DecisionKeysChanged(entries));
    }

    /// The page sent an answer but cannot know whether the server took it (the connection
    /// dropped, a 5xx, a timeout, an unreadable reply): the card reads "Checking status" with
    /// no deciding button, and the conversation is looked up until the server settles it.
    /// Never "Failed" on a guess, never the buttons again before the server says "still
    /// pending". Typed text comes back to the composer.
    pub(super) fn check_answer(&mut self, action_id: &str, draft: Option<String>) {
        // Only an answer still on its way has an unknown fate (a re-issued request already
        // waits again).
        let sending = self
            .cards
            .iter()
            .any(|c| c.action.id == action_id && c.state == CardState::Sending);
        if sending {
            self.set_card_state(action_id, CardState::Checking);
            self.cancel_batch();
        }
        if self.streaming.take().is_some() {
            self.revisions.streaming += 1;
        }
        self.finish_turn();
        if let Some(text) = draft {
            self.emit(SessionEvent::DraftReturned(text));
        }
        if sending {
            self.watch_cards(true);
        }
    }

    /// Cards that were Checking and that the server now lists as settled: the answer arrived.
    /// When the server's copy says no more than "settled", the decision sent (kept with its
    /// key) is what it took; the host hears of it like of any accepted answer.
    pub(super) fn settle_checked(&mut self, checking: &[String]) {
        for id in checking {
            let Some(card) = self.cards.iter().find(|c| c.action.id == *id) else {
                continue;
            };
            if card.state.is_open() {
                continue;
            }
            let hint = card.action.kind.type_name().to_owned();
            let sent = self
                .keys
                .entries()
                .iter()
                .find(|e| e.action_id == *id)
                .and_then(|e| Resolution::from_json(&e.resolution, Some(&hint)));
            let Some(sent) = sent else { continue };
            if let Some(card) = self.cards.iter_mut().find(|c| c.action.id == *id) {
                card.decided = Decider::ThisPage;
                if card.state == CardState::Settled(Outcome::answered()) {
                    card.state = CardState::Settled(Outcome::from_settled(
                        ActionStatus::Resolved,
                        Some(&sent),
                        card.action.resolved_by.as_deref(),
                        None,
                    ));
                }
            }
            self.revisions.actions += 1;
            self.emit(SessionEvent::ActionResolved {
                action_id: id.clone(),
                resolution: sent,
            });
        }
        self.forget_settled_keys();
    }

    /// The server took the answer: settle the card, remember the outcome on its message
    /// (`actionStates`) and tell the host.
    pub(super) fn on_resolve_accepted(&mut self, action_id: &str, resolution: &Resolution) {
        let outcome = Outcome::from_settled(ActionStatus::Resolved, Some(resolution), None, None);
        let now = self.server_now();
        if let Some(card) = self.cards.iter_mut().find(|c| c.action.id == action_id) {
            card.decided = Decider::ThisPage;
            card.action.resolved_at = card.action.resolved_at.or(Some(now));
        }
        self.set_card_state(action_id, CardState::Settled(outcome));
        let message_id = self
            .cards
            .iter()
            .find(|c| c.action.id == action_id)
            .and_then(|c| c.message_id.clone());
        if let Some(m) = message_id.and_then(|id| self.messages.iter_mut().find(|m| m.id == id)) {
            m.action_states.insert(
                action_id.to_owned(),
                ActionStateEntry {
                    status: ActionStatus::Resolved,
                    resolution: Some(resolution.clone()),
                    resolved_by: None,
                },
            );
            self.revisions.messages += 1;
        }
        self.emit(SessionEvent::ActionResolved {
            action_id: action_id.to_owned(),
            resolution: resolution.clone(),
        });
    }

    /// A non-streamed answer to `POST /conversations/:cid/actions/:aid`:
    /// `{ action, status, message?, pendingActions? }`, or an error envelope / network failure.
    pub(super) fn on_resolve_response(
        &mut self,
        turn: Turn,
        result: Result<HttpResponse, TransportError>,
    ) {
        let Turn::Resolve {
            action_id,
            resolution,
            draft,
        } = turn.clone()
        else {
            return;
        };
        let reply = match parse_json::<ResolveActionResponse>(result, ErrorContext::Send) {
            Ok(reply) => reply,
            // The server may have taken it: look, never guess (issue 14).
            Err(err) if outcome_unknown(&err) => return self.check_answer(&action_id, draft),
            Err(err) => return self.refuse_resolve(&action_id, draft, err),
        };
        let record = reply.action.filter(|a| a.id == action_id);
        match record {
            // The server answered the edit with a new version to approve (seed 004).
            Some(open) if open.is_open() => {
                self.merge_open_actions(vec![open], None);
                self.emit(SessionEvent::ResolveFailed {
                    action_id: action_id.clone(),
                    error: ChatError::Refused(crate::draft::ResolveRefusal::Changed),
                });
                if let Some(text) = draft {
                    self.emit(SessionEvent::DraftReturned(text));
                }
            }
            Some(settled) => {
                self.on_resolve_accepted(&action_id, &resolution);
                // The server's own record (e.g. a timeout, the execution) wins over what we
                // sent.
                self.apply_action_record(settled, Some(&resolution));
            }
            None => self.on_resolve_accepted(&action_id, &resolution),
        }
        if self.streaming.take().is_some() {
            self.revisions.streaming += 1;
        }
        let running = reply.status == Some(TurnStatus::Running);
        if let Some(message) = reply.message {
            self.messages.push(message.clone());
            self.revisions.messages += 1;
            if let Some(actions) = reply.pending_actions {
                self.merge_open_actions(actions, Some(message.id.clone()));
            }
            self.emit(SessionEvent::MessageReceived(message));
        } else if let Some(actions) = reply.pending_actions {
            self.merge_open_actions(actions, None);
        }
        self.finish_turn();
        if running {
            // The continuation still runs on the server: poll for it (§9.9).
            self.begin_running_turn(Turn::Resolve {
                action_id,
                resolution,
                draft: None,
            });
        }
    }

    /// An answer was refused: expired / cancelled / already answered settle the card and
    /// free the composer; anything else puts it back to waiting. The error shows either way and
    /// composer text comes back.
    pub(super) fn refuse_resolve(
        &mut self,
        action_id: &str,
        draft: Option<String>,
        err: ChatError,
    ) {
        self.cancel_batch();
        let code = err.code().map(str::to_owned);
        let next = match code.as_deref() {
            Some("action_expired") => CardState::Settled(Outcome::Expired),
            Some("action_cancelled") => CardState::Settled(Outcome::Cancelled),
            Some("action_not_pending") => CardState::Settled(Outcome::answered()),
            _ => CardState::Waiting,
        };
        self.set_card_state(action_id, next);
        if self.streaming.take().is_some() {
            self.revisions.streaming += 1;
        }
        self.finish_turn();
        if let Some(text) = draft {
            self.emit(SessionEvent::DraftReturned(text));
        }
        self.emit(SessionEvent::ResolveFailed {
            action_id: action_id.to_owned(),
            error: err.clone(),
        });
        self.set_error(err);
        match code.as_deref() {
            Some("action_expired") => self.schedule_expiry_refresh(),
            // The server knows what happened: show it (issue 14).
            Some("conversation_busy" | "action_version_conflict" | "action_not_pending") => {
                self.refresh_conversation()
            }
            _ => {}
        }
    }

    pub(super) fn schedule_expiry_refresh(&mut self) {
        self.expiry_refresh_at = Some(
            self.now
                .saturating_add(self.config.action_expiry_refresh_ms),
        );
    }

    /// Cancel mode: once a message is accepted, the waiting cards are cancelled.
    pub(super) fn cancel_waiting_cards(&mut self) {
        if self.composer_mode() != ComposerMode::Cancel {
            return;
        }
        for card in self.cards.iter_mut().filter(|c| c.is_open_for_person()) {
            card.state = CardState::Settled(Outcome::Cancelled);
            self.revisions.actions += 1;
        }
    }

    /// Reports every waiting `client_tool` action not reported yet.
    pub(super) fn report_client_tools(&mut self) {
        let fresh: Vec<PendingAction> = self
            .cards
            .iter()
            .filter(|c| {
                matches!(c.action.kind, ActionKind::ClientTool { .. })
                    && c.state == CardState::Waiting
                    && !self.client_tools_reported.contains(&c.action.id)
            })
            .map(|c| c.action.clone())
            .collect();
        for action in fresh {
            self.client_tools_reported.push(action.id.clone());
            self.emit(SessionEvent::ClientToolRequested(action));
        }
    }

    /// New open actions from a stream or a reply: cards that are announced (unlike restored
    /// ones) and reported to the host, except `client_tool`.
    pub(super) fn merge_open_actions(
        &mut self,
        actions: Vec<PendingAction>,
        message_id: Option<String>,
    ) {
        for action in actions {
            if matches!(action.kind, ActionKind::Unknown(_)) || !action.is_open() {
                continue;
            }
            let placed = action.message_id.clone().or_else(|| message_id.clone());
            match self.cards.iter_mut().find(|c| c.action.id == action.id) {
                Some(card) if card.state == CardState::Waiting => {
                    card.message_id = card.message_id.take().or(placed);
                    let person = action.kind.is_person_facing();
                    if card.replace_action(action.clone()) && person {
                        self.emit(SessionEvent::ActionChanged(action));
                    }
                }
                // An answer on its way (or unknown) to an older version: the server re-issued
                // the request (e.g. a new version after an edit). It waits again, drawn afresh,
                // and must itself be approved (seed 004, issue 14).
                Some(card)
                    if matches!(card.state, CardState::Sending | CardState::Checking)
                        && card.action.version.is_some()
                        && action.version.is_some()
                        && card.action.version != action.version =>
                {
                    card.state = CardState::Waiting;
                    card.message_id = card.message_id.take().or(placed);
                    if card.replace_action(action.clone()) && action.kind.is_person_facing() {
                        self.emit(SessionEvent::ActionChanged(action));
                    }
                }
                Some(_) => {}
                None => {
                    let person = action.kind.is_person_facing();
                    self.cards.push(ActionCard::new(
                        action.clone(),
                        CardState::Waiting,
                        placed,
                        false,
                    ));
                    if person {
                        self.emit(SessionEvent::ActionRequired(action));
                    }
                    self.report_client_tools();
                }
            }
            self.revisions.actions += 1;
        }
        self.revisions.status += 1;
    }

    /// Deadlines: a waiting card whose `expires_at` is at or before `now` expires by
    /// itself; one being answered does not. Returns whether any did.
    pub(super) fn expire_due_cards(&mut self, now: Millis) -> bool {
        let mut expired = false;
        for card in &mut self.cards {
            if card.state == CardState::Waiting && card.action.expires_at.is_some_and(|t| t <= now)
            {
                card.state = CardState::Settled(Outcome::Expired);
                expired = true;
            }
        }
        expired
    }

    /// Each card's stage, to tell afterwards which moved.
    pub(super) fn card_stages(&self) -> Vec<(String, CardStage)> {
        self.cards
            .iter()
            .map(|c| (c.action.id.clone(), CardStage::of(c)))
            .collect()
    }

    /// When execution started and ended. A card this page saw move into
    /// Executing…, or from it into Completed / Failed, keeps when (server time) unless the
    /// server said itself. A card first seen already finished gets no time it did not see.
    pub(super) fn note_execution_times(&mut self, before: &[(String, CardStage)]) {
        let now = self.server_now();
        for card in &mut self.cards {
            let Some((_, was)) = before.iter().find(|(id, _)| *id == card.action.id) else {
                continue;
            };
            let stage = CardStage::of(card);
            if stage == *was {
                continue;
            }
            let a = &mut card.action;
            match stage {
                CardStage::Executing => {
                    a.execution_started_at.get_or_insert(now);
                }
                CardStage::Completed | CardStage::Failed { .. } if *was == CardStage::Executing => {
                    a.execution_ended_at.get_or_insert(now);
                }
                _ => {}
            }
        }
    }

    /// The server's record of an action (a `POST /conversations/:cid/actions/:aid` reply's
    /// `action`, `stream.action_updated`): an open one is merged like any open action (a new
    /// version waits again); a settled one settles an open card from it and updates the execution
    /// stage and receipt.
    pub(super) fn apply_action_record(&mut self, record: PendingAction, sent: Option<&Resolution>) {
        if record.is_open() {
            return self.merge_open_actions(vec![record], None);
        }
        let Some(card) = self.cards.iter_mut().find(|c| c.action.id == record.id) else {
            return;
        };
        // A settled card keeps its outcome unless the record says how it was decided; a local
        // Expired / Cancelled is never downgraded.
        let keep_local = match &card.state {
            CardState::Settled(o) => {
                o.is_sticky()
                    || (record.resolution.is_none()
                        && (*o != Outcome::answered() || record.stage.is_none()))
            }
            _ => false,
        };
        if !keep_local {
            let outcome = Outcome::from_settled(
                record.status,
                record.resolution.as_ref().or(sent),
                record.resolved_by.as_deref(),
                record.stage,
            );
            if card.state == CardState::Waiting {
                card.decided = Decider::Elsewhere;
            } else if card.state.is_open() {
                card.decided = Decider::ThisPage;
            }
            card.state = CardState::Settled(outcome);
        }
        let a = &mut card.action;
        a.status = record.status;
        a.execution_status = record.execution_status.or(a.execution_status.take());
        a.stage = record.stage.or(a.stage);
        a.execution_started_at = record.execution_started_at.or(a.execution_started_at);
        a.execution_ended_at = record.execution_ended_at.or(a.execution_ended_at);
        if !record.history.is_empty() {
            a.history = record.history;
        }
        a.execution_result = record.execution_result.or(a.execution_result.take());
        a.execution_error = record.execution_error.or(a.execution_error.take());
        a.resolved_at = record.resolved_at.or(a.resolved_at);
        a.resolved_by = record.resolved_by.or(a.resolved_by.take());
        if a.resolution.is_none() {
            a.resolution = record.resolution;
        }
        self.revisions.actions += 1;
        self.forget_settled_keys();
    }
}

/// Whether a failed answer may still have been taken by the server: no response at all, a
/// server error or timeout (5xx, 408), or a success that could not be read. A
/// refusal with a 4xx code was not taken.
fn outcome_unknown(err: &ChatError) -> bool {
    match err {
        ChatError::Network { .. } | ChatError::BadResponse { .. } => true,
        ChatError::Api { error, .. } => error.status >= 500 || error.status == 408,
        _ => false,
    }
}
