//! Reading a long conversation in slices (issue 18). A server that hands over every message
//! in one E5 answer would otherwise make the page parse them all in one task, blocking the
//! browser for as long as that takes. Instead the answer's `messages` array is cut into its
//! elements without parsing them ([`crate::core::json_slices`]), and they are parsed a slice
//! at a time, newest first, each slice in a task of its own: the session asks for
//! [`Input::Timeout`](super::Input::Timeout) at once ([`Session::poll_timeout`]) while a
//! reading is under way, and reads the next slice then. The answer's text is dropped when the
//! reading ends; nothing but the messages is kept.

use std::ops::Range;

use crate::core::wire::{ConversationWithMessages, Message};

use super::error::successful_body;
use super::state::LoadPurpose;
use super::{ChatError, ErrorContext, HttpResponse, Session, TransportError};

/// Messages parsed in one slice at most: the unit that bounds a task's work whatever the
/// machine (issue 18).
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
    /// The messages parsed so far, newest first.
    parsed: Vec<Message>,
}

/// What one slice did.
enum Step {
    /// More to read.
    More,
    /// Every message is parsed.
    Done,
    /// The text is not what an answer can be.
    Failed(String),
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
        let Some((array, left)) = crate::core::json_slices::array_elements(&body, "messages")
        else {
            return Start::Whole(body);
        };
        let head_text = format!("{}[]{}", &body[..array.start], &body[array.end..]);
        let head = crate::core::lenient::parse(&head_text)
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
            })),
            Err(detail) => Start::Failed(detail),
        }
    }

    /// Parses the next slice: up to [`MESSAGES_PER_SLICE`] messages or [`BYTES_PER_SLICE`]
    /// bytes of them, newest first. An element that is not JSON fails the whole answer, as it
    /// would parsed whole; one that is not a message is dropped, as it would be.
    fn step(&mut self) -> Step {
        let mut bytes = 0;
        for _ in 0..MESSAGES_PER_SLICE {
            if bytes >= BYTES_PER_SLICE {
                break;
            }
            let Some(range) = self.left.pop() else {
                break;
            };
            bytes += range.len();
            match crate::core::lenient::parse(&self.body[range]) {
                Ok(v) => self.parsed.extend(Message::from_json(&v)),
                Err(e) => return Step::Failed(e.to_string()),
            }
        }
        if self.left.is_empty() {
            Step::Done
        } else {
            Step::More
        }
    }

    /// The answer read: the conversation with its messages, oldest first.
    fn finish(self) -> (String, LoadPurpose, ConversationWithMessages) {
        let mut loaded = self.head;
        let mut messages = self.parsed;
        messages.reverse();
        loaded.messages = messages;
        (self.conversation_id, self.purpose, loaded)
    }
}

impl Session {
    /// E5 answered: read it, a slice at a time when it is long (the first slice at once).
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
            Start::Sliced(reading) => {
                self.reading = Some(*reading);
                self.read_slice();
            }
            Start::Whole(body) => {
                let loaded = crate::core::lenient::parse(&body)
                    .map_err(|e| e.to_string())
                    .and_then(|v| ConversationWithMessages::from_value(&v))
                    .map_err(bad);
                self.on_read(conversation_id, purpose, loaded);
            }
            Start::Failed(detail) => self.on_read(conversation_id, purpose, Err(bad(detail))),
        }
    }

    /// Reads the next slice of the answer being read, if any; the answer goes on to be shown
    /// once the last is read.
    pub(super) fn read_slice(&mut self) {
        let Some(reading) = self.reading.as_mut() else {
            return;
        };
        match reading.step() {
            Step::More => {}
            Step::Done => {
                if let Some(reading) = self.reading.take() {
                    let (conversation_id, purpose, loaded) = reading.finish();
                    // Another conversation may have been opened meanwhile.
                    if self.load_still_current(&conversation_id, &purpose) {
                        self.on_read(conversation_id, purpose, Ok(loaded));
                    }
                }
            }
            Step::Failed(detail) => {
                if let Some(reading) = self.reading.take() {
                    let err = ChatError::BadResponse {
                        context: ErrorContext::LoadConversation,
                        detail,
                    };
                    self.on_read(reading.conversation_id, reading.purpose, Err(err));
                }
            }
        }
    }

    /// When the next slice is read: at once, in a task of its own.
    pub(super) fn reading_due(&self) -> Option<crate::core::time::Millis> {
        self.reading.as_ref().map(|_| self.now)
    }

    /// Stops reading an answer that no longer matters (another conversation, New Chat).
    pub(super) fn stop_reading(&mut self) {
        self.reading = None;
    }
}
