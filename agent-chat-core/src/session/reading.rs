//! Reading a long conversation in slices. A server that hands over every message in one
//! `GET /conversations/:id` answer would otherwise make the page parse them all in one task,
//! blocking the browser for as long as that takes. Instead the answer's `messages` array is cut
//! into its elements without parsing them ([`crate::json_slices`]), and they are parsed a
//! slice at a time, newest first, each slice in a task of its own: the session asks for
//! [`Input::Timeout`](super::Input::Timeout) at once ([`Session::poll_timeout`]) while a reading is
//! under way, and reads the next slice then. The answer's text is dropped when the reading ends;
//! nothing but the messages is kept.
//!
//! An answer that may have been cut at its cap asks for the newest page of messages at once, in
//! parallel with the reading. When the person opened the conversation and that page (or an
//! answer under the cap) shows the answer reaches the conversation's end, the newest messages
//! are shown as soon as they are read, and the older ones join them, above, when the reading
//! ends.

use std::ops::Range;

use crate::wire::{ConversationWithMessages, Message, MessagesPage};

use super::error::{parse_json, successful_body};
use super::state::{LoadPurpose, OlderPages, Pending};
use super::{
    ChatError, ErrorContext, HttpResponse, Session, SessionEvent, TransportError,
    CONVERSATION_MESSAGE_CAP,
};

/// Messages parsed in one slice at most: the unit that bounds a task's work whatever the
/// machine.
pub const MESSAGES_PER_SLICE: usize = 200;
/// Text parsed in one slice at most (bytes), for conversations of very long messages; a
/// slice always takes at least one message.
pub const BYTES_PER_SLICE: usize = 256 * 1024;

/// A conversation answer being read.
#[derive(Debug)]
pub(super) struct Reading {
    conversation_id: String,
    purpose: LoadPurpose,
    /// The answer's text, until every message is parsed.
    body: String,
    /// The elements of its `messages` array not parsed yet, oldest first (read from the end).
    left: Vec<Range<usize>>,
    /// The answer without its messages.
    head: ConversationWithMessages,
    /// The messages parsed and not shown yet, newest first.
    parsed: Vec<Message>,
    /// The newest page of messages asked for beside the answer, and its answer.
    tail: Tail,
    /// The newest messages are on screen (an open shows the newest first); `parsed` holds older
    /// ones only.
    shown: bool,
}

/// The newest page of messages asked for beside an answer that may have been cut at its cap.
#[derive(Debug)]
enum Tail {
    /// The answer holds fewer messages than the cap: it is the whole conversation.
    NotAsked,
    /// Asked for, not answered yet.
    Waiting,
    /// Its answer: the page, or why there is none (a server without message pages).
    Answered(Result<MessagesPage, ChatError>),
}

/// How an answer is read.
enum Start {
    /// A slice at a time.
    Sliced(Box<Reading>),
    /// Whole: it cannot be cut (not an object with a top-level `messages` array).
    Whole(String),
    /// The answer without its messages is already unreadable.
    Failed(String),
}

impl Reading {
    fn start(conversation_id: String, purpose: LoadPurpose, body: String) -> Start {
        let Some((array, left)) = crate::json_slices::array_elements(&body, "messages") else {
            return Start::Whole(body);
        };
        let head_text = format!("{}[]{}", &body[..array.start], &body[array.end..]);
        let head = crate::lenient::parse(&head_text)
            .map_err(|e| e.to_string())
            .and_then(|v| ConversationWithMessages::from_value(&v));
        match head {
            Ok(head) => Start::Sliced(Box::new(Reading {
                conversation_id,
                purpose,
                parsed: Vec::with_capacity(left.len()),
                body,
                left,
                head,
                tail: Tail::NotAsked,
                shown: false,
            })),
            Err(detail) => Start::Failed(detail),
        }
    }

    /// Parses the next slice: up to [`MESSAGES_PER_SLICE`] messages or [`BYTES_PER_SLICE`]
    /// bytes of them, newest first. An element that is not JSON fails the whole answer, as it
    /// would parsed whole (the error says why); one that is not a message is dropped, as it
    /// would be.
    fn step(&mut self) -> Result<(), String> {
        let mut bytes = 0;
        for _ in 0..MESSAGES_PER_SLICE {
            if bytes >= BYTES_PER_SLICE {
                break;
            }
            let Some(range) = self.left.pop() else {
                break;
            };
            bytes += range.len();
            match crate::lenient::parse(&self.body[range]) {
                Ok(v) => self.parsed.extend(Message::from_json(&v)),
                Err(e) => return Err(e.to_string()),
            }
        }
        Ok(())
    }

    /// Whether the newest message read is the conversation's newest: the answer was under its cap,
    /// or the newest page of messages has nothing newer (its newest is the answer's), or the server
    /// has no message pages (then the answer is all there is, shown as it came).
    fn reaches_end(&self) -> bool {
        match &self.tail {
            Tail::NotAsked | Tail::Answered(Err(_)) => true,
            Tail::Waiting => false,
            Tail::Answered(Ok(page)) => match (page.messages.first(), self.parsed.first()) {
                (None, _) => true,
                (Some(newest), Some(ours)) => newest.id == ours.id,
                (Some(_), None) => false,
            },
        }
    }

    /// The newest messages read so far, oldest first, as the conversation to show now;
    /// what is read from here on is older.
    fn take_newest(&mut self) -> ConversationWithMessages {
        let mut messages = std::mem::take(&mut self.parsed);
        messages.reverse();
        self.shown = true;
        ConversationWithMessages {
            conversation: self.head.conversation.clone(),
            messages,
            pending_actions: self.head.pending_actions.clone(),
        }
    }

    /// The answer read: the conversation with its messages, oldest first, and the
    /// `GET /conversations/:id/messages` newest page's answer if one was asked for.
    fn finish(
        self,
    ) -> (
        String,
        LoadPurpose,
        ConversationWithMessages,
        Option<Result<MessagesPage, ChatError>>,
    ) {
        let mut loaded = self.head;
        let mut messages = self.parsed;
        messages.reverse();
        loaded.messages = messages;
        let tail = match self.tail {
            Tail::Answered(answer) => Some(answer),
            Tail::NotAsked | Tail::Waiting => None,
        };
        (self.conversation_id, self.purpose, loaded, tail)
    }
}

impl Session {
    /// `GET /conversations/:id` answered: read it, a slice at a time when it is long (the first
    /// slice at once).
    pub(super) fn on_loaded(
        &mut self,
        conversation_id: String,
        purpose: LoadPurpose,
        result: Result<HttpResponse, TransportError>,
    ) {
        if !self.load_still_current(&conversation_id, &purpose) {
            return;
        }
        let context = ErrorContext::LoadConversation;
        let bad = |detail| ChatError::BadResponse { context, detail };
        let body = match successful_body(result, context) {
            Ok(body) => body,
            Err(err) => return self.on_read(conversation_id, purpose, Err(err)),
        };
        match Reading::start(conversation_id.clone(), purpose.clone(), body) {
            Start::Sliced(mut reading) => {
                self.stop_reading();
                // It may have been cut at its cap: the newest page, asked for now, comes
                // while the answer is read (D26).
                if reading.left.len() >= CONVERSATION_MESSAGE_CAP {
                    reading.tail = Tail::Waiting;
                    let id = conversation_id.clone();
                    self.request_newest_page(&id, Pending::ReadingTail { conversation_id });
                }
                self.reading = Some(*reading);
                self.read_slice();
            }
            Start::Whole(body) => {
                let loaded = crate::lenient::parse(&body)
                    .map_err(|e| e.to_string())
                    .and_then(|v| ConversationWithMessages::from_value(&v))
                    .map_err(bad);
                self.on_read(conversation_id, purpose, loaded);
            }
            Start::Failed(detail) => self.on_read(conversation_id, purpose, Err(bad(detail))),
        }
    }

    /// The newest page of messages asked for beside the answer being read.
    pub(super) fn on_reading_tail(
        &mut self,
        conversation_id: String,
        result: Result<HttpResponse, TransportError>,
    ) {
        let Some(reading) = self.reading.as_mut() else {
            return;
        };
        if reading.conversation_id != conversation_id || !matches!(reading.tail, Tail::Waiting) {
            return;
        }
        reading.tail = Tail::Answered(parse_json::<MessagesPage>(
            result,
            ErrorContext::LoadConversation,
        ));
        self.advance_reading();
    }

    /// Reads the next slice of the answer being read, if any.
    pub(super) fn read_slice(&mut self) {
        let Some(reading) = self.reading.as_mut() else {
            return;
        };
        if !reading.left.is_empty() {
            if let Err(detail) = reading.step() {
                return self.reading_failed(detail);
            }
        }
        self.advance_reading();
    }

    /// After a slice or the newest page's answer. An open shows the newest messages as soon
    /// as they are known to end the conversation. The answer goes on to be shown (or
    /// its older messages join those shown) once every message is read and the newest page,
    /// if asked for, has answered.
    fn advance_reading(&mut self) {
        let Some(reading) = self.reading.as_mut() else {
            return;
        };
        let read = reading.left.is_empty();
        if !read && !reading.shown && reading.purpose == LoadPurpose::Open && reading.reaches_end()
        {
            let conversation_id = reading.conversation_id.clone();
            let newest = reading.take_newest();
            self.apply_loaded(newest, false);
            self.older = OlderPages::Reading;
            self.emit(SessionEvent::ConversationChanged(Some(conversation_id)));
            return;
        }
        if !read || (!reading.shown && matches!(reading.tail, Tail::Waiting)) {
            return;
        }
        let Some(reading) = self.reading.take() else {
            return;
        };
        if reading.shown {
            // The answer starts at the conversation's first message (D26).
            self.older = OlderPages::None;
            self.revisions.status += 1;
            self.prepend_older(reading.parsed.into_iter().rev().collect());
            return;
        }
        let (conversation_id, purpose, loaded, tail) = reading.finish();
        // Another conversation may have been opened meanwhile.
        if self.load_still_current(&conversation_id, &purpose) {
            self.finish_joined(conversation_id, purpose, loaded, tail);
        }
    }

    /// A message of the answer is not JSON: the load fails, as it would read whole. When the
    /// newest messages are already shown they stay, with the error, and the older ones are
    /// left to the message pages where the server has it.
    fn reading_failed(&mut self, detail: String) {
        let Some(reading) = self.reading.take() else {
            return;
        };
        self.abort_pending(|p| matches!(p, Pending::ReadingTail { .. }));
        let err = ChatError::BadResponse {
            context: ErrorContext::LoadConversation,
            detail,
        };
        if reading.shown {
            let pages = matches!(reading.tail, Tail::Answered(Ok(_)));
            self.older = OlderPages::idle(pages);
            self.revisions.status += 1;
            self.set_error(err);
        } else {
            self.on_read(reading.conversation_id, reading.purpose, Err(err));
        }
    }

    /// When the next slice is read: at once, in a task of its own (none while only the
    /// newest page is awaited).
    pub(super) fn reading_due(&self) -> Option<crate::time::Millis> {
        self.reading
            .as_ref()
            .filter(|r| !r.left.is_empty())
            .map(|_| self.now)
    }

    /// An answer is being read (a conversation load is under way).
    pub(super) fn is_reading(&self) -> bool {
        self.reading.is_some()
    }

    /// Stops reading an answer that no longer matters (another conversation, New Chat, a
    /// newer answer). Older messages it had still to show are left to the message pages.
    pub(super) fn stop_reading(&mut self) {
        if self.reading.take().is_some_and(|r| r.shown) && self.older == OlderPages::Reading {
            self.older = OlderPages::Available;
            self.revisions.status += 1;
        }
    }
}
