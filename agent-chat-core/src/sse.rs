//! Incremental Server-Sent-Events decoder for the replies the chat streams.
//!
//! The io layer hands over whatever bytes the network delivered, split anywhere — even inside
//! a UTF-8 character or a `\r\n` pair — and the decoder yields the same events no matter how
//! the body was chunked. It does O(1) work per byte (nothing is rescanned on a later push),
//! caps each frame's size so a hostile or broken server cannot exhaust memory, and turns every
//! frame it cannot understand into a [`DecodeError`] in the event sequence, then carries on.
//!
//! Framing rules: lines end at `\n` (a trailing `\r` is dropped); `data:` lines (one optional
//! space after the colon removed) are joined with `\n`; a blank line dispatches; `event:` names
//! the frame's type when its JSON has none; `:` lines are comments; `id:`, `retry:` and unknown
//! fields are ignored; a frame without data dispatches nothing.

use std::collections::VecDeque;

use super::error::DecodeError;
use super::wire::{StreamEvent, TimedEvent};

/// Default cap on one frame (data plus the line being read): 8 MiB.
pub const DEFAULT_MAX_FRAME_BYTES: usize = 8 * 1024 * 1024;

/// One raw event frame, before its JSON is read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SseFrame {
    /// The frame's `event:` name, when it had one.
    pub event: Option<String>,
    /// The `data:` lines joined with `\n` (never empty).
    pub data: String,
}

/// Splits a byte stream into [`SseFrame`]s. Use this for dialects whose payloads are not
/// agent-server events; [`SseDecoder`] wraps it for the agent-server dialect.
#[derive(Clone, Debug)]
pub struct SseFrameDecoder {
    /// Up to three bytes of a UTF-8 character cut by the end of the last push.
    utf8_tail: Vec<u8>,
    /// The line being read (without its `\n`).
    line: String,
    /// Data of the frame being read.
    data: String,
    /// Whether the frame being read has had a `data` line (an empty one counts).
    has_data: bool,
    /// The frame's `event:` name.
    event: Option<String>,
    /// The frame being read grew past the limit: skip to its blank line.
    discarding: bool,
    /// Limit on `line + data` in bytes.
    max_frame_bytes: usize,
    /// Frames (or errors) ready to be taken.
    ready: VecDeque<Result<SseFrame, DecodeError>>,
}

impl Default for SseFrameDecoder {
    fn default() -> Self {
        SseFrameDecoder::with_max_frame_bytes(DEFAULT_MAX_FRAME_BYTES)
    }
}

impl SseFrameDecoder {
    /// A decoder with the default 8 MiB frame cap.
    #[must_use]
    pub fn new() -> SseFrameDecoder {
        SseFrameDecoder::default()
    }

    /// A decoder that drops (and reports) any frame larger than `max` bytes.
    #[must_use]
    pub fn with_max_frame_bytes(max: usize) -> SseFrameDecoder {
        SseFrameDecoder {
            utf8_tail: Vec::new(),
            line: String::new(),
            data: String::new(),
            has_data: false,
            event: None,
            discarding: false,
            max_frame_bytes: max.max(1),
            ready: VecDeque::new(),
        }
    }

    /// Feeds raw bytes. A UTF-8 character split across pushes is reassembled; bytes that are
    /// not UTF-8 become U+FFFD.
    pub fn push(&mut self, bytes: &[u8]) {
        let mut rest = bytes;
        // Complete a character cut by the previous push, a few bytes at a time.
        while !self.utf8_tail.is_empty() && !rest.is_empty() {
            let take = rest
                .len()
                .min(4usize.saturating_sub(self.utf8_tail.len()).max(1));
            let mut small = std::mem::take(&mut self.utf8_tail);
            small.extend_from_slice(&rest[..take]);
            rest = &rest[take..];
            self.decode_utf8(&small);
        }
        if !rest.is_empty() {
            self.decode_utf8(rest);
        }
    }

    /// Feeds text that is already decoded.
    pub fn push_str(&mut self, text: &str) {
        if !self.utf8_tail.is_empty() {
            // The cut character can never be completed now.
            self.utf8_tail.clear();
            self.feed("\u{FFFD}");
        }
        self.feed(text);
    }

    /// The next complete frame, or an error in its place; `None` until more input arrives.
    pub fn next_frame(&mut self) -> Option<Result<SseFrame, DecodeError>> {
        self.ready.pop_front()
    }

    /// Ends the input: a cut UTF-8 character becomes U+FFFD, an unterminated last line is
    /// read, and a frame that has data is dispatched even without its blank line. Returns the
    /// next ready item; keep calling [`SseFrameDecoder::next_frame`] (or `finish` again, which
    /// is idempotent) until `None`.
    pub fn finish(&mut self) -> Option<Result<SseFrame, DecodeError>> {
        if !self.utf8_tail.is_empty() {
            self.utf8_tail.clear();
            self.feed("\u{FFFD}");
        }
        if !self.line.is_empty() {
            self.end_line();
        }
        if self.discarding {
            self.discarding = false;
        } else {
            self.dispatch();
        }
        self.next_frame()
    }

    /// Decodes `bytes` as UTF-8, replacing bad sequences and keeping an incomplete final one.
    fn decode_utf8(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.utf8_chunks().peekable();
        while let Some(chunk) = chunks.next() {
            self.feed(chunk.valid());
            let invalid = chunk.invalid();
            if invalid.is_empty() {
                continue;
            }
            let at_end = chunks.peek().is_none();
            let incomplete =
                matches!(std::str::from_utf8(invalid), Err(e) if e.error_len().is_none());
            if at_end && incomplete {
                self.utf8_tail.extend_from_slice(invalid);
            } else {
                self.feed("\u{FFFD}");
            }
        }
    }

    /// Splits decoded text into lines.
    fn feed(&mut self, text: &str) {
        let mut rest = text;
        while let Some(pos) = rest.find('\n') {
            self.append(&rest[..pos]);
            self.end_line();
            rest = &rest[pos + 1..];
        }
        self.append(rest);
    }

    /// Adds text to the current line, enforcing the frame cap.
    fn append(&mut self, part: &str) {
        if part.is_empty() {
            return;
        }
        if !self.discarding && self.line.len() + self.data.len() + part.len() > self.max_frame_bytes
        {
            self.ready.push_back(Err(DecodeError::FrameTooLarge {
                limit: self.max_frame_bytes,
            }));
            self.discarding = true;
            // Free the memory now rather than at the frame's end, keeping the start of the
            // line: whether it is blank must not depend on where the chunk boundaries fell.
            let line = std::mem::take(&mut self.line);
            self.keep_line_head(&line);
            self.data = String::new();
            self.has_data = false;
            self.event = None;
        }
        if self.discarding {
            self.keep_line_head(part);
        } else {
            self.line.push_str(part);
        }
    }

    /// While discarding: appends `part` to the line only up to two bytes, which are enough to
    /// tell a blank line ("" or "\r") from any other.
    fn keep_line_head(&mut self, part: &str) {
        for c in part.chars() {
            if self.line.len() >= 2 {
                break;
            }
            self.line.push(c);
        }
    }

    /// Handles the end of the current line.
    fn end_line(&mut self) {
        let mut line = std::mem::take(&mut self.line);
        let content = line.strip_suffix('\r').unwrap_or(&line);
        if self.discarding {
            if content.is_empty() {
                self.discarding = false;
            }
        } else {
            self.process_line(content);
        }
        line.clear();
        self.line = line;
    }

    /// Applies one complete line (without `\n` and trailing `\r`).
    fn process_line(&mut self, line: &str) {
        if line.is_empty() {
            self.dispatch();
            return;
        }
        if line.starts_with(':') {
            return;
        }
        let (name, value) = match line.split_once(':') {
            Some((n, v)) => (n, v.strip_prefix(' ').unwrap_or(v)),
            None => (line, ""),
        };
        match name {
            "data" => {
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            "event" => self.event = Some(value.to_owned()),
            _ => {} // id, retry and unknown fields carry nothing for this client
        }
    }

    /// Ends the current frame, queueing it when it carried data.
    fn dispatch(&mut self) {
        if self.has_data && !self.data.is_empty() {
            self.ready.push_back(Ok(SseFrame {
                event: self.event.take(),
                data: std::mem::take(&mut self.data),
            }));
        }
        self.data.clear();
        self.has_data = false;
        self.event = None;
    }
}

/// Decodes an agent-server event stream into [`StreamEvent`]s.
///
/// Feed bytes with [`SseDecoder::push`] as they arrive, drain [`SseDecoder::next_event`] after
/// each push, and call [`SseDecoder::finish`] when the body ends. A frame whose JSON is broken
/// (or too large) yields `Err` in its place and decoding continues with the next frame;
/// unknown event types yield [`StreamEvent::Unknown`].
#[derive(Clone, Debug, Default)]
pub struct SseDecoder {
    /// The framing layer.
    frames: SseFrameDecoder,
}

impl SseDecoder {
    /// A decoder with the default 8 MiB frame cap.
    #[must_use]
    pub fn new() -> SseDecoder {
        SseDecoder::default()
    }

    /// A decoder that drops (and reports) any frame larger than `max` bytes.
    #[must_use]
    pub fn with_max_frame_bytes(max: usize) -> SseDecoder {
        SseDecoder {
            frames: SseFrameDecoder::with_max_frame_bytes(max),
        }
    }

    /// Feeds raw bytes, split anywhere.
    pub fn push(&mut self, bytes: &[u8]) {
        self.frames.push(bytes);
    }

    /// Feeds already-decoded text.
    pub fn push_str(&mut self, text: &str) {
        self.frames.push_str(text);
    }

    /// The next event (or the error that took its place); `None` until more input arrives.
    pub fn next_event(&mut self) -> Option<Result<StreamEvent, DecodeError>> {
        self.next_timed_event().map(|r| r.map(StreamEvent::from))
    }

    /// Like [`SseDecoder::next_event`], keeping each frame's `timestamp`.
    pub fn next_timed_event(&mut self) -> Option<Result<TimedEvent, DecodeError>> {
        self.frames.next_frame().map(parse_frame)
    }

    /// Ends the input and returns the next event, including one from a trailing frame that
    /// lacked its blank line. Idempotent: call it (or `next_event`) until `None`.
    pub fn finish(&mut self) -> Option<Result<StreamEvent, DecodeError>> {
        self.frames
            .finish()
            .map(|r| parse_frame(r).map(StreamEvent::from))
    }

    /// The body ended: everything still queued, then everything [`SseDecoder::finish`] releases.
    pub fn drain_to_end(&mut self) -> Vec<Result<StreamEvent, DecodeError>> {
        let mut out = Vec::new();
        while let Some(ev) = self.next_event() {
            out.push(ev);
        }
        while let Some(ev) = self.finish() {
            out.push(ev);
        }
        out
    }
}

/// Reads one frame's JSON.
fn parse_frame(frame: Result<SseFrame, DecodeError>) -> Result<TimedEvent, DecodeError> {
    let frame = frame?;
    TimedEvent::parse(&frame.data, frame.event.as_deref())
}

/// Decodes a whole stream body at once (tests, non-streaming fallbacks).
#[must_use]
pub fn decode_all(body: &[u8]) -> Vec<Result<StreamEvent, DecodeError>> {
    let mut dec = SseDecoder::new();
    dec.push(body);
    dec.drain_to_end()
}
