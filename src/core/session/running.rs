//! C17 / PROTOCOL §9.9: a send or an answer whose connection dropped may still have been
//! taken by the server. Instead of failing at once, the session looks at the conversation
//! now and then every 2 s for at most 30 s, and decides from what it finds.

use crate::core::wire::{ConversationWithMessages, Message, Role};

use super::state::{LoadPurpose, OutgoingMessage, Pending, RunningTurn, Turn};
use super::util::encode;
use super::{ChatError, ErrorContext, Method, Session};

/// How long after a lost connection the session keeps looking for the reply (C17).
const RUNNING_TURN_POLL_MS: u64 = 2_000;
const RUNNING_TURN_MAX_MS: u64 = 30_000;

impl Session {
    /// §9.9 (C17): the request may have been taken although its answer was lost. Look at the
    /// conversation now, then every 2 s for at most 30 s, instead of reporting a failure.
    pub(super) fn begin_running_turn(&mut self, turn: Turn) {
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
            message_count: self.messages.len(),
            deadline: self.now.saturating_add(RUNNING_TURN_MAX_MS),
            next_poll: self.now.saturating_add(RUNNING_TURN_POLL_MS),
        });
        self.look_for_running_turn(conversation_id, turn, true);
    }

    pub(super) fn look_for_running_turn(
        &mut self,
        conversation_id: String,
        turn: Turn,
        first: bool,
    ) {
        let path = format!("/conversations/{}", encode(&conversation_id));
        let purpose = LoadPurpose::RunningTurn { turn, first };
        self.request(
            Method::Get,
            path,
            None,
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
                    self.refuse(turn, err);
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
                self.on_resolve_accepted(action_id, resolution);
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
            self.running_turn = None;
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
}

/// Whether the server's copy (`messages`, joined to the older ones on screen) holds the
/// message this page sent (issue 13): by the id the server gave it when known; else a user
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
