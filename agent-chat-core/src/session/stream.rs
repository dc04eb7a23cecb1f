//! A reply as it streams: the SSE body's bytes become events, the events become the
//! [`StreamingTurn`] the UI draws, tool calls, cards and at the end one assistant message.
//! A stream that closes without `done` hands over to the look for a reply after a
//! dropped connection (`running.rs`).

use serde_json::{json, Map, Value};

use crate::actions::{CardState, Outcome};
use crate::error::DecodeError;
use crate::time::Millis;
use crate::wire::{Message, MessageContent, Role, StreamEvent, TurnStatus};

use super::state::{Pending, Turn};
use super::{ChatError, RequestId, Session, SessionEvent, TransportError};

/// A tool call seen while a reply streams.
#[derive(Clone, Debug, PartialEq)]
pub struct ActiveToolCall {
    /// Call id.
    pub id: String,
    /// Tool name.
    pub name: String,
    /// Arguments.
    pub args: Value,
    /// Result, once it arrived.
    pub result: Option<Value>,
    /// Why the agent called it, when given.
    pub reasoning: Option<String>,
    /// Friendly label, when given.
    pub display_name: Option<String>,
}

/// The reply being streamed right now.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct StreamingTurn {
    /// Text so far: append-only and shared by clones, so cloning the turn (the store
    /// publishes it once per frame) does not copy the text.
    pub text: crate::StreamText,
    /// Tool calls so far, in order.
    pub tool_calls: Vec<ActiveToolCall>,
    /// Latest progress line; cleared by text.
    pub progress: Option<String>,
    first_tool_call_at: Option<Millis>,
}

impl Session {
    pub(super) fn handle_chunk(&mut self, id: RequestId, bytes: &[u8]) {
        let mut events = Vec::new();
        {
            let Some((_, Pending::Stream { decoder, .. })) =
                self.pending.iter_mut().find(|(rid, _)| *rid == id)
            else {
                return;
            };
            decoder.push(bytes);
            while let Some(ev) = decoder.next_event() {
                events.push(ev);
            }
        }
        for ev in events {
            self.apply_stream_item(id, ev);
        }
    }

    pub(super) fn handle_stream_closed(&mut self, id: RequestId, error: Option<TransportError>) {
        let Some(pos) = self.pending.iter().position(|(rid, _)| *rid == id) else {
            return;
        };
        let tail = match &mut self.pending[pos] {
            (_, Pending::Stream { decoder, .. }) => decoder.drain_to_end(),
            _ => Vec::new(),
        };
        for ev in tail {
            self.apply_stream_item(id, ev);
        }
        let Some(pos) = self.pending.iter().position(|(rid, _)| *rid == id) else {
            return;
        };
        let (_, pending) = self.pending.remove(pos);
        if self.stream_request == Some(id) {
            self.stream_request = None;
        }
        let Pending::Stream {
            turn,
            finished,
            started,
            ..
        } = pending
        else {
            return;
        };
        if finished || error == Some(TransportError::Aborted) {
            return;
        }
        // An answer whose stream broke before the server said it took it: the outcome is
        // unknown, so the card checks instead of offering its buttons again (issue 14).
        if let (
            Turn::Resolve {
                action_id, draft, ..
            },
            false,
        ) = (&turn, started)
        {
            let (action_id, draft) = (action_id.clone(), draft.clone());
            return self.check_answer(&action_id, draft);
        }
        // C17 / §9.9: the server took the request but the stream was cut. Look, don't fail.
        self.begin_running_turn_after_stream(turn);
    }

    pub(super) fn apply_stream_item(
        &mut self,
        id: RequestId,
        item: Result<StreamEvent, DecodeError>,
    ) {
        match item {
            Ok(event) => self.apply_stream_event(id, event),
            Err(err) => self.emit(SessionEvent::FrameSkipped {
                detail: err.to_string(),
            }),
        }
    }

    pub(super) fn stream_state(
        &mut self,
        id: RequestId,
    ) -> Option<(&mut Turn, &mut bool, &mut bool)> {
        self.pending
            .iter_mut()
            .find(|(rid, _)| *rid == id)
            .and_then(|(_, p)| match p {
                Pending::Stream {
                    turn,
                    started,
                    finished,
                    ..
                } => Some((turn, started, finished)),
                _ => None,
            })
    }

    /// First sign the server took the request: a send in cancel mode cancels the waiting cards.
    pub(super) fn mark_started(&mut self, id: RequestId) {
        let first = match self.stream_state(id) {
            Some((turn, started, _)) if !*started => {
                *started = true;
                matches!(turn, Turn::Send(_))
            }
            _ => false,
        };
        if first {
            self.cancel_waiting_cards();
        }
    }

    pub(super) fn apply_stream_event(&mut self, id: RequestId, event: StreamEvent) {
        if self
            .stream_state(id)
            .is_some_and(|(_, _, finished)| *finished)
        {
            return; // nothing counts after done/error
        }
        let now = self.now;
        match event {
            StreamEvent::Start {
                conversation_id,
                message_id,
            } => {
                self.mark_started(id);
                // The stored id of the message sent: what a later look searches for (issue
                // 13). Only for a send; a resolve stream's id means nothing (C33).
                if let (Some(stored), Some((Turn::Send(sent), _, _))) =
                    (message_id, self.stream_state(id))
                {
                    sent.server_id = Some(stored);
                }
                if let (Some(cid), Some(conv)) = (conversation_id, self.conversation.as_ref()) {
                    if conv.id != cid {
                        // A server that moved the message elsewhere; trust it.
                        if let Some(c) = self.conversation.as_mut() {
                            c.id = cid;
                        }
                    }
                }
            }
            StreamEvent::Text { text, .. } | StreamEvent::Thinking { thinking: text } => {
                let turn = self.streaming.get_or_insert_with(StreamingTurn::default);
                turn.text.push_str(&text);
                turn.progress = None;
                let full = turn.text.clone();
                self.revisions.streaming += 1;
                self.emit(SessionEvent::StreamText { chunk: text, full });
            }
            StreamEvent::ToolCall {
                tool_name,
                tool_call_id,
                args,
                reasoning,
                display_name,
            } => {
                let turn = self.streaming.get_or_insert_with(StreamingTurn::default);
                turn.first_tool_call_at.get_or_insert(now);
                if let Some(existing) = turn.tool_calls.iter_mut().find(|c| c.id == tool_call_id) {
                    existing.args = args.clone();
                } else {
                    turn.tool_calls.push(ActiveToolCall {
                        id: tool_call_id,
                        name: tool_name.clone(),
                        args: args.clone(),
                        result: None,
                        reasoning,
                        display_name,
                    });
                }
                self.revisions.streaming += 1;
                self.emit(SessionEvent::ToolCall {
                    name: tool_name,
                    args,
                });
            }
            StreamEvent::ToolResult {
                tool_name,
                tool_call_id,
                result,
            } => {
                let turn = self.streaming.get_or_insert_with(StreamingTurn::default);
                if let Some(call) = turn.tool_calls.iter_mut().find(|c| c.id == tool_call_id) {
                    call.result = Some(result.clone());
                }
                self.revisions.streaming += 1;
                self.emit(SessionEvent::ToolResult {
                    name: tool_name,
                    result,
                });
            }
            StreamEvent::Progress { message, stage, .. } => {
                let turn = self.streaming.get_or_insert_with(StreamingTurn::default);
                turn.progress = message.or(stage);
                self.revisions.streaming += 1;
            }
            StreamEvent::Error { error, code } => {
                let started = self.stream_state(id).map(|(_, s, _)| *s).unwrap_or(true);
                let turn = self.stream_state(id).map(|(t, _, finished)| {
                    *finished = true;
                    t.clone()
                });
                let err = ChatError::Stream {
                    code: code.map(|c| c.to_ascii_lowercase()),
                    message: error,
                };
                self.streaming = None;
                self.revisions.streaming += 1;
                match turn {
                    // Refused before the server took anything: the draft goes back (C29) and an
                    // answer's card follows the refusal rules (§9.10).
                    Some(turn) if !started => self.refuse(turn, err),
                    _ => {
                        self.finish_turn();
                        self.set_error(err);
                    }
                }
            }
            StreamEvent::Done {
                conversation_id: _,
                message_id,
                content,
                title,
                status,
                pending_actions,
                citations,
                ..
            } => {
                if let Some((_, _, finished)) = self.stream_state(id) {
                    *finished = true;
                }
                let turn = self.streaming.take().unwrap_or_default();
                let text = if content.is_empty() {
                    turn.text.to_string()
                } else {
                    content
                };
                self.mark_started(id);
                let message_id = message_id.unwrap_or_else(|| self.local_id());
                let mut message = self.assistant_message(message_id, text, &turn, true);
                // F77: sources the server sent with the reply.
                message.citations = citations;
                self.messages.push(message.clone());
                self.revisions.messages += 1;
                self.revisions.streaming += 1;
                if let Some(title) = title {
                    self.set_title(title);
                }
                // Cards that arrived earlier in this stream belong under this message (C5).
                for card in self
                    .cards
                    .iter_mut()
                    .filter(|c| c.state.is_open() && c.message_id.is_none())
                {
                    card.message_id = Some(message.id.clone());
                }
                if status == Some(TurnStatus::RequiresAction) || pending_actions.is_some() {
                    self.merge_open_actions(
                        pending_actions.unwrap_or_default(),
                        Some(message.id.clone()),
                    );
                }
                self.finish_turn();
                self.emit(SessionEvent::MessageReceived(message));
                self.load_history(false);
                self.after_answer_stream(id);
            }
            StreamEvent::ActionRequired {
                action, message_id, ..
            } => {
                // Made just before it was sent: a clock sample when no `Date` was readable.
                if let Some(created_at) = action.created_at {
                    self.observe_action_created(created_at);
                }
                self.merge_open_actions(vec![action], message_id);
            }
            StreamEvent::ActionResolved {
                action_id,
                status,
                resolution,
                resolved_by,
                ..
            } => {
                let ours = match self.stream_state(id) {
                    Some((
                        Turn::Resolve {
                            action_id: mine,
                            resolution: sent,
                            ..
                        },
                        started,
                        _,
                    )) if *mine == action_id => {
                        *started = true;
                        Some(sent.clone())
                    }
                    _ => None,
                };
                if let Some(sent) = &ours {
                    self.on_resolve_accepted(&action_id, sent);
                }
                if let Some(card) = self.cards.iter_mut().find(|c| c.action.id == action_id) {
                    if resolved_by.is_some() {
                        card.action.resolved_by = resolved_by.clone();
                    }
                }
                let recorded = resolution.as_ref().or(ours.as_ref());
                let outcome = Outcome::from_settled(status, recorded, resolved_by.as_deref(), None);
                let keep_local = self.cards.iter().any(|c| {
                    c.action.id == action_id
                        && matches!(&c.state, CardState::Settled(o) if o.is_sticky())
                });
                if !keep_local {
                    self.set_card_state(&action_id, CardState::Settled(outcome));
                }
                self.revisions.status += 1;
            }
            StreamEvent::ActionUpdated { action, .. } => self.apply_action_record(action, None),
            StreamEvent::Unknown { .. } => {}
        }
    }

    /// A streamed answer's continuation ended: an answer the server never confirmed nor
    /// re-issued is checked, and a tool still executing is looked after.
    fn after_answer_stream(&mut self, id: RequestId) {
        let unconfirmed = match self.stream_state(id) {
            Some((Turn::Resolve { action_id, .. }, _, _)) => Some(action_id.clone()),
            _ => None,
        }
        .filter(|action_id| {
            self.cards
                .iter()
                .any(|c| c.action.id == *action_id && c.state == CardState::Sending)
        });
        if let Some(action_id) = unconfirmed {
            return self.check_answer(&action_id, None);
        }
        self.watch_cards_awaiting_server();
    }

    pub(super) fn assistant_message(
        &self,
        id: String,
        text: String,
        turn: &StreamingTurn,
        done: bool,
    ) -> Message {
        let mut metadata = Map::new();
        if !turn.tool_calls.is_empty() {
            let details: Vec<Value> = turn
                .tool_calls
                .iter()
                .map(|c| {
                    let mut d =
                        json!({ "id": c.id, "name": c.name, "args": c.args, "result": c.result });
                    // F116: the labels the stream gave are kept for the finished message.
                    if let Some(obj) = d.as_object_mut() {
                        if let Some(r) = &c.reasoning {
                            obj.insert("reasoning".into(), json!(r));
                        }
                        if let Some(n) = &c.display_name {
                            obj.insert("displayName".into(), json!(n));
                        }
                    }
                    d
                })
                .collect();
            metadata.insert("toolCallDetails".into(), Value::Array(details));
            if let (true, Some(first)) = (done, turn.first_tool_call_at) {
                let secs = (self.now.0.saturating_sub(first.0) + 500) / 1000;
                metadata.insert("toolCallDurationSeconds".into(), json!(secs));
            }
        }
        Message {
            id,
            conversation_id: self
                .conversation
                .as_ref()
                .map(|c| c.id.clone())
                .unwrap_or_default(),
            role: Role::Assistant,
            content: MessageContent::Text(text),
            metadata,
            created_at: Some(self.now),
            updated_at: Some(self.now),
            ..Message::default()
        }
    }
}
