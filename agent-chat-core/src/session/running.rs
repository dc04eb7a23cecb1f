//! A send or an answer whose connection dropped may still have been
//! taken by the server. Instead of failing at once, the session looks at the conversation
//! now and then every 2 s for at most 30 s, and decides from what it finds.

use crate::wire::{ConversationWithMessages, Message, Role};

use super::state::{InterruptedTurn, LoadPurpose, OutgoingMessage, Pending, RunningTurn, Turn};
use super::{ChatError, ErrorContext, Session};
use crate::endpoint::Endpoint;

/// How long after a lost connection the session keeps looking for the reply.
const RUNNING_TURN_POLL_MS: u64 = 2_000;
const RUNNING_TURN_MAX_MS: u64 = 30_000;

impl Session {
    /// The request may have been taken although its answer was lost. Look at the
    /// conversation now, then every 2 s for at most 30 s, instead of reporting a failure.
    pub(super) fn begin_running_turn(&mut self, turn: Turn) {
        self.start_running_turn(turn, false);
    }

    /// [`Session::begin_running_turn`] for a request the server had answered with an event
    /// stream that then broke: it reached the server, so if the look fails too what was sent
    /// stays on screen, interrupted.
    pub(super) fn begin_running_turn_after_stream(&mut self, turn: Turn) {
        self.start_running_turn(turn, true);
    }

    fn start_running_turn(&mut self, turn: Turn, answered: bool) {
        let Some(conversation_id) = self.conversation.as_ref().map(|c| c.id.clone()) else {
            let err = ChatError::Network {
                context: ErrorContext::Send,
                detail: "no conversation".into(),
            };
            return self.refuse(turn, err);
        };
        self.running_turn = Some(RunningTurn {
            turn: turn.clone(),
            conversation_id: conversation_id.clone(),
            // What is left on screen of earlier interrupted turns is not in the server's copy.
            message_count: self.messages.iter().filter(|m| !m.interrupted).count(),
            deadline: self.now.saturating_add(RUNNING_TURN_MAX_MS),
            next_poll: self.now.saturating_add(RUNNING_TURN_POLL_MS),
            answered,
        });
        self.look_for_running_turn(conversation_id, turn, true);
    }

    pub(super) fn look_for_running_turn(
        &mut self,
        conversation_id: String,
        turn: Turn,
        first: bool,
    ) {
        let call = Endpoint::Conversation {
            conversation_id: conversation_id.clone(),
        };
        let purpose = LoadPurpose::RunningTurn { turn, first };
        self.request(
            call,
            Pending::Load {
                conversation_id,
                purpose,
            },
        );
    }

    pub(super) fn on_running_turn_look(
        &mut self,
        turn: Turn,
        first: bool,
        loaded: Result<(ConversationWithMessages, bool), ChatError>,
    ) {
        let Some(running) = self.running_turn.clone() else {
            return;
        };
        let (loaded, reaches_start) = match loaded {
            // Compare like with like: the window joined to the older messages on screen.
            Ok((mut loaded, reaches_start)) => {
                let same = self
                    .conversation
                    .as_ref()
                    .is_some_and(|c| c.id == loaded.conversation.id);
                let window = std::mem::take(&mut loaded.messages);
                loaded.messages = self.merge_window(same, window, reaches_start).0;
                (loaded, reaches_start)
            }
            Err(err) => {
                if first {
                    self.running_turn = None;
                    match turn {
                        // The server had it: nothing the person sent disappears (issue 13).
                        Turn::Send(sent) if running.answered => self.interrupt(sent),
                        // Whether the answer was taken is unknown: check, never re-offer the
                        // buttons on a guess (issue 14).
                        Turn::Resolve {
                            action_id, draft, ..
                        } => self.check_answer(&action_id, draft),
                        turn => self.refuse(turn, err),
                    }
                }
                return;
            }
        };
        let open_ids: Vec<&str> = match &loaded.pending_actions {
            Some(list) => list.iter().map(|a| a.id.as_str()).collect(),
            None => Vec::new(),
        };
        // Was the request taken at all? Only this page's message counts, not the same words
        // sent earlier (issue 13).
        let taken = match &turn {
            Turn::Send(outgoing) => holds(&loaded.messages, outgoing),
            Turn::Resolve { action_id, .. } => !open_ids.contains(&action_id.as_str()),
        };
        if first && !taken {
            self.running_turn = None;
            let err = ChatError::Network {
                context: ErrorContext::Send,
                detail: "request not received".into(),
            };
            return self.refuse(turn, err);
        }
        if first {
            if let Turn::Resolve {
                action_id,
                resolution,
                ..
            } = &turn
            {
                let accepted = self
                    .cards
                    .iter()
                    .any(|c| c.action.id == *action_id && !c.state.is_open());
                if !accepted {
                    self.on_resolve_accepted(action_id, resolution);
                }
            }
        }
        let last_is_reply = loaded
            .messages
            .last()
            .is_some_and(|m| m.role == Role::Assistant)
            && loaded.messages.len() > running.message_count;
        let paused_again = open_ids
            .iter()
            .any(|id| !self.cards.iter().any(|c| c.action.id == *id));
        if last_is_reply || paused_again {
            self.running_turn = None;
            self.streaming = None;
            self.revisions.streaming += 1;
            self.apply_loaded(loaded, reaches_start);
        }
        // Otherwise still running: keep the optimistic view and look again at the next poll.
    }

    pub(super) fn poll_running_turn(&mut self) {
        let Some(turn) = self.running_turn.as_mut() else {
            return;
        };
        if self.now < turn.next_poll {
            return;
        }
        if self.now >= turn.deadline {
            let Some(running) = self.running_turn.take() else {
                return;
            };
            // The message was taken but its reply never showed: it stays, interrupted, with
            // what arrived of the reply (issue 13).
            if let Turn::Send(sent) = running.turn {
                return self.interrupt(sent);
            }
            self.streaming = None;
            self.revisions.streaming += 1;
            self.finish_turn();
            self.set_error(ChatError::StreamCut);
            return;
        }
        turn.next_poll = self.now.saturating_add(RUNNING_TURN_POLL_MS);
        let (conversation_id, turn) = (turn.conversation_id.clone(), turn.turn.clone());
        self.look_for_running_turn(conversation_id, turn, false);
    }

    /// The turn of `sent` broke off and the server's copy could not be seen. The
    /// sent message and what arrived of the reply stay, marked interrupted (Retry replaces
    /// them, [`Session::drop_interrupted`]); the next load reconciles them with the server's
    /// copy ([`Session::reconcile_interrupted`]).
    fn interrupt(&mut self, sent: OutgoingMessage) {
        let mut reply_id = None;
        if let Some(turn) = self.streaming.take() {
            self.revisions.streaming += 1;
            if !turn.text.is_empty() || !turn.tool_calls.is_empty() {
                let id = self.local_id();
                let mut reply =
                    self.assistant_message(id.clone(), turn.text.to_string(), &turn, false);
                reply.interrupted = true;
                self.messages.push(reply);
                reply_id = Some(id);
            }
        }
        if let Some(m) = self
            .messages
            .iter_mut()
            .find(|m| m.id == sent.optimistic_id)
        {
            m.interrupted = true;
        }
        self.revisions.messages += 1;
        self.interrupted.push(InterruptedTurn { sent, reply_id });
        self.finish_turn();
        self.set_error(ChatError::StreamCut);
    }

    /// Takes the interrupted turn whose message is `user_id` off the screen (Retry sends it
    /// again).
    pub(super) fn drop_interrupted(&mut self, user_id: &str) {
        let Some(pos) = self
            .interrupted
            .iter()
            .position(|t| t.sent.optimistic_id == user_id)
        else {
            return;
        };
        let turn = self.interrupted.remove(pos);
        self.messages
            .retain(|m| m.id != turn.sent.optimistic_id && Some(&m.id) != turn.reply_id.as_ref());
        self.revisions.messages += 1;
    }

    /// A load of the open conversation replaced the messages with `messages`: an interrupted
    /// turn the server's copy holds is dropped (the server's copy wins); one it does not hold
    /// is kept at the end, still interrupted, so nothing the person sent disappears.
    pub(super) fn reconcile_interrupted(&mut self, messages: &mut Vec<Message>, same: bool) {
        if self.interrupted.is_empty() {
            return;
        }
        let turns = std::mem::take(&mut self.interrupted);
        if !same {
            return;
        }
        for turn in turns {
            if holds(messages, &turn.sent) {
                continue;
            }
            // Where it was sent: after the last message the server knew then (and after the
            // interrupted ones already put back there).
            let mut at = match &turn.sent.after {
                None => 0,
                Some(after) => messages
                    .iter()
                    .position(|m| m.id == *after)
                    .map_or(messages.len(), |i| i + 1),
            };
            while messages.get(at).is_some_and(|m| m.interrupted) {
                at += 1;
            }
            let ids = [Some(&turn.sent.optimistic_id), turn.reply_id.as_ref()];
            for id in ids.into_iter().flatten() {
                if let Some(m) = self.messages.iter().find(|m| m.id == *id) {
                    messages.insert(at, m.clone());
                    at += 1;
                }
            }
            self.interrupted.push(turn);
        }
    }
}

/// Whether the server's copy (`messages`, joined to the older ones on screen) holds the
/// message this page sent: by the id the server gave it when known; else a user
/// message with its text after the last message the server knew when it was sent; else (that
/// message is not in the copy) more user messages with its text than the server had then.
fn holds(messages: &[Message], sent: &OutgoingMessage) -> bool {
    if let Some(id) = &sent.server_id {
        return messages.iter().any(|m| m.id == *id);
    }
    let same = |m: &&Message| m.role == Role::User && m.content.display_text() == sent.text;
    let anchor = sent
        .after
        .as_ref()
        .and_then(|after| messages.iter().position(|m| m.id == *after));
    match anchor {
        Some(i) => messages[i + 1..].iter().any(|m| same(&m)),
        None => messages.iter().filter(same).count() > sent.same_text_before,
    }
}
