//! Sending a message and the life of its turn: the optimistic message, the `POST /conversations` +
//! `PATCH /conversations/:id` / `POST /conversations/:id/messages` requests, stop, retry, refusals
//! that give the draft back and the end of a turn. What the reply's events do is in `stream.rs`,
//! the look for a reply after a dropped connection in `running.rs`.

use serde_json::Value;

use crate::wire::{
    AnswerValue, FileAttachment, Message, MessageContent, Resolution, Role, SendMessageResponse,
};

use super::error::parse_json;
use super::state::{LoadPurpose, OutgoingMessage, Pending, Turn};
use super::util::is_local_id;
use super::{
    ChatError, ErrorContext, HttpResponse, Output, Run, Session, SessionEvent, StreamingTurn,
    TransportError,
};
use crate::endpoint::{Call, Endpoint};
use crate::transport::reply::WireFile;

impl Session {
    /// The React hook's `retry`, which drops a trailing assistant message and resends
    /// the last user text as a new message. An interrupted last turn is replaced:
    /// its message and partial reply leave, and the text is sent again.
    pub(super) fn retry(&mut self) {
        if !self.can_send() || self.answerable_question().is_some() {
            return;
        }
        // `send` would wait for them, after the messages below were already taken away.
        if self.pending_files.iter().any(|f| !f.is_ready()) {
            return;
        }
        let Some((user_id, text, interrupted)) = self
            .messages
            .iter()
            .rev()
            .find(|m| m.role == Role::User)
            .map(|m| {
                let text = m.display_text().trim().to_owned();
                (m.id.clone(), text, m.interrupted)
            })
            .filter(|(_, t, _)| !t.is_empty())
        else {
            return;
        };
        if interrupted {
            self.drop_interrupted(&user_id);
        } else if self
            .messages
            .last()
            .is_some_and(|m| m.role == Role::Assistant)
        {
            self.messages.pop();
            self.revisions.messages += 1;
        }
        self.send(text);
    }

    pub(super) fn send(&mut self, text: String) {
        let text = text.trim().to_owned();
        if text.is_empty() || !self.can_send() {
            return;
        }
        // Answer mode: the composer answers the single option-less question (F196, C35).
        if let Some((action_id, question)) = self.answerable_question() {
            let answers = [(question.question.clone(), AnswerValue::One(text.clone()))].into();
            let resolution = Resolution::UserQuestion {
                answers,
                cancelled: false,
            };
            // The composer shows this question as it is now: that is what is answered.
            let shown = self
                .cards
                .iter()
                .find(|c| c.action.id == action_id)
                .map(crate::draft::Shown::from);
            if let Some(shown) = shown {
                return self.resolve(shown, resolution, Some(text), Vec::new());
            }
            return;
        }
        // Attachments still being read would be lost from the message: wait for them.
        if self.pending_files.iter().any(|f| !f.is_ready()) {
            return;
        }
        self.error = None;
        self.running_turn = None;
        // Issue 13: after a dropped connection the server's copy is searched for this message
        // after the last message it knew, not anywhere (the same words may be there before).
        let known = || self.messages.iter().filter(|m| !is_local_id(&m.id));
        let after = known().next_back().map(|m| m.id.clone());
        let same_text_before = known()
            .filter(|m| m.role == Role::User && m.content.display_text() == text)
            .count();
        let optimistic_id = self.local_id();
        let files = std::mem::take(&mut self.pending_files);
        if !files.is_empty() {
            self.revisions.files += 1;
        }
        let message = Message {
            id: optimistic_id.clone(),
            conversation_id: self
                .conversation
                .as_ref()
                .map(|c| c.id.clone())
                .unwrap_or_default(),
            role: Role::User,
            content: MessageContent::Text(text.clone()),
            // §8: the optimistic message carries the attachments' metadata, not their bytes.
            files: files
                .iter()
                .map(|f| FileAttachment {
                    id: f.id.clone(),
                    name: f.name.clone(),
                    mime_type: f.mime_type.clone(),
                    size: f.size,
                    url: None,
                    storage_key: None,
                })
                .collect(),
            created_at: Some(self.now),
            updated_at: Some(self.now),
            ..Message::default()
        };
        self.messages.push(message.clone());
        self.revisions.messages += 1;
        self.emit(SessionEvent::MessageSent(message));
        self.run = Run::Streaming;
        self.streaming = Some(StreamingTurn::default());
        self.revisions.streaming += 1;
        self.revisions.status += 1;
        let outgoing = OutgoingMessage {
            text,
            optimistic_id,
            files,
            after,
            same_text_before,
            server_id: None,
        };
        match self.conversation.as_ref().map(|c| c.id.clone()) {
            Some(conversation_id) => self.post_message(conversation_id, outgoing),
            None => self.send_to_new_conversation(outgoing),
        }
    }

    /// `POST /conversations` for the selected agent, then the message. While the agent list is on
    /// its way (a backend's code may still be loading) the message waits for it, shown as sent;
    /// with no agent at all it is refused and the draft comes back.
    pub(super) fn send_to_new_conversation(&mut self, outgoing: OutgoingMessage) {
        match self.selected_agent.clone() {
            Some(agent_id) => {
                let call = Endpoint::CreateConversation {
                    agent_id,
                    title: None,
                };
                self.request(call, Pending::Create { outgoing });
            }
            None if self
                .pending
                .iter()
                .any(|(_, p)| matches!(p, Pending::Agents)) =>
            {
                self.awaiting_agent = Some(outgoing);
            }
            None => self.refuse_send(outgoing, ChatError::NoAgent),
        }
    }

    /// The message that has not reached a conversation yet: waiting for the agent list, or for
    /// `POST /conversations` to create its conversation. A creation already asked for goes on
    /// without the message (the conversation only joins the history).
    pub(super) fn take_unsent(&mut self) -> Option<OutgoingMessage> {
        if let Some(outgoing) = self.awaiting_agent.take() {
            return Some(outgoing);
        }
        let (_, pending) = self
            .pending
            .iter_mut()
            .find(|(_, p)| matches!(p, Pending::Create { .. }))?;
        match std::mem::replace(pending, Pending::CreateEmpty) {
            Pending::Create { outgoing } => Some(outgoing),
            _ => None,
        }
    }

    pub(super) fn post_message(&mut self, conversation_id: String, outgoing: OutgoingMessage) {
        // §5: `files[].content` is raw base64, no `data:` prefix; omitted when there are none.
        let files = outgoing
            .files
            .iter()
            .map(|f| WireFile {
                name: f.name.clone(),
                mime_type: f.mime_type.clone(),
                content: f.content.clone().unwrap_or_default(),
            })
            .collect();
        let call = Endpoint::Send {
            conversation_id,
            message: outgoing.text.clone(),
            stream: self.config.streaming,
            files,
        };
        if self.config.streaming {
            self.open_stream(call, Turn::Send(outgoing));
        } else {
            self.request(call, Pending::Send { outgoing });
        }
    }

    pub(super) fn open_stream(&mut self, call: Endpoint, turn: Turn) {
        let id = self.next_id();
        self.stream_request = Some(id);
        self.pending.push((
            id,
            Pending::Stream {
                turn,
                decoder: Box::default(),
                started: false,
                finished: false,
            },
        ));
        self.outputs
            .push_back(Output::OpenStream(Call { id, endpoint: call }));
    }

    pub(super) fn stop(&mut self) {
        // Not sent yet: nothing to stop on the server; the text goes back to the composer.
        if let Some(outgoing) = self.take_unsent() {
            return self.give_back(outgoing);
        }
        let Some(turn) = self.streaming.take() else {
            return;
        };
        // The streaming turn is gone: views drawing it must hear so (`abort_stream` only
        // counts a turn it takes itself).
        self.revisions.streaming += 1;
        self.abort_stream();
        // PROTOCOL §7: keep the partial text as a local assistant message, no duration.
        if !turn.text.is_empty() || !turn.tool_calls.is_empty() {
            let id = self.local_id();
            let message = self.assistant_message(id, turn.text.to_string(), &turn, false);
            self.messages.push(message);
            self.revisions.messages += 1;
        }
        self.finish_turn();
        // A tool that was running when the reply stopped is looked after, as when the
        // reply ends by itself: the server says how it went.
        self.watch_cards_awaiting_server();
    }

    pub(super) fn abort_stream(&mut self) {
        if let Some(id) = self.stream_request.take() {
            self.pending.retain(|(rid, _)| *rid != id);
            self.outputs.push_back(Output::Abort(id));
        }
        if self.streaming.take().is_some() {
            self.revisions.streaming += 1;
        }
    }

    pub(super) fn on_sent(
        &mut self,
        outgoing: OutgoingMessage,
        result: Result<HttpResponse, TransportError>,
    ) {
        if let Err(TransportError::Network(_)) = &result {
            // C17: the request may have reached the server; look before reporting a failure.
            self.begin_running_turn(Turn::Send(outgoing));
            return;
        }
        let value = match parse_json::<Value>(result, ErrorContext::Send) {
            Ok(v) => v,
            Err(err) => return self.refuse_send(outgoing, err),
        };
        // Non-streaming reply: `{ message, response, conversationTitle?, status?, pendingActions? }`.
        let parsed = <SendMessageResponse as serde::Deserialize>::deserialize(&value);
        let Ok(reply) = parsed else {
            let err = ChatError::BadResponse {
                context: ErrorContext::Send,
                detail: "unexpected send response".into(),
            };
            return self.refuse_send(outgoing, err);
        };
        if let Some(pos) = self
            .messages
            .iter()
            .position(|m| m.id == outgoing.optimistic_id)
        {
            self.messages[pos] = reply.message;
        }
        if let Some(title) = reply.conversation_title {
            self.set_title(title);
        }
        let received = reply.response;
        self.messages.push(received.clone());
        self.revisions.messages += 1;
        self.cancel_waiting_cards();
        if let Some(actions) = reply.pending_actions {
            self.merge_open_actions(actions, Some(received.id.clone()));
        }
        self.streaming = None;
        self.revisions.streaming += 1;
        self.finish_turn();
        self.emit(SessionEvent::MessageReceived(received));
        self.load_history(false);
    }

    pub(super) fn refuse(&mut self, turn: Turn, err: ChatError) {
        match turn {
            Turn::Send(outgoing) => self.refuse_send(outgoing, err),
            Turn::Resolve {
                action_id, draft, ..
            } => self.refuse_resolve(&action_id, draft, err),
        }
    }

    /// The send was refused (or never reached the server): remove the optimistic message, give
    /// the text back to the composer and show why. Busy / waiting refusals also refetch
    /// the conversation so the card or the latest answer shows.
    pub(super) fn refuse_send(&mut self, outgoing: OutgoingMessage, err: ChatError) {
        self.give_back(outgoing);
        let refetch = matches!(
            err.code(),
            Some("action_pending" | "pending_action" | "conversation_busy")
        );
        self.set_error(err);
        if refetch {
            if let Some(id) = self.conversation.as_ref().map(|c| c.id.clone()) {
                self.open_conversation(id, LoadPurpose::Refresh);
            }
        }
    }

    /// Takes back a message that was not sent: the optimistic message leaves, the text and
    /// the attachments go back to the composer, the turn ends.
    pub(super) fn give_back(&mut self, outgoing: OutgoingMessage) {
        self.messages.retain(|m| m.id != outgoing.optimistic_id);
        self.revisions.messages += 1;
        // The attachments come back too, before any added since (nothing is lost, F197).
        if !outgoing.files.is_empty() {
            let added = std::mem::take(&mut self.pending_files);
            self.pending_files = outgoing.files;
            self.pending_files.extend(added);
            self.revisions.files += 1;
        }
        if self.streaming.take().is_some() {
            self.revisions.streaming += 1;
        }
        self.finish_turn();
        self.emit(SessionEvent::DraftReturned(outgoing.text));
    }

    pub(super) fn finish_turn(&mut self) {
        self.run = if self.awaiting_action() {
            Run::AwaitingAction
        } else {
            Run::Idle
        };
        self.revisions.status += 1;
    }
}
