//! Error values of the wire layer, as data the session can store and the UI can show.
//!
//! [`ApiError`] is what a refused HTTP request means: the client keys its
//! behaviour on the lower-cased `code`, never on the status. [`DecodeError`] is a stream frame
//! that could not be understood, [`ProtocolError`] a response body of the wrong shape.

use serde_json::Value;

/// Text used when a refusal carries no readable message.
pub const FALLBACK_SERVER_MESSAGE: &str = "Request failed";

/// Longest data excerpt (in characters) kept inside a [`DecodeError`].
pub const EXCERPT_MAX_CHARS: usize = 200;

/// A non-2xx answer from the server, reduced to what the client acts on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("HTTP {status}: {server_message}")]
pub struct ApiError {
    /// HTTP status of the response (`0` when there was none, e.g. an error inside a stream).
    pub status: u16,
    /// Machine code, lower-cased (`PENDING_ACTION` → `pending_action`); `None` when absent.
    pub code: Option<String>,
    /// The server's own text, kept verbatim for details and as the fallback message.
    pub server_message: String,
    /// Seconds to wait before trying again (the response's `Retry-After`), when it said.
    pub retry_after: Option<u64>,
}

impl ApiError {
    /// Builds an error from parts, normalising `code` like [`ApiError::from_body`] does
    /// (trimmed, lower case, empty → `None`) and an empty message to `"Request failed"`.
    #[must_use]
    pub fn new(status: u16, code: Option<&str>, server_message: &str) -> ApiError {
        ApiError {
            status,
            code: code.and_then(normalise_code),
            server_message: if server_message.trim().is_empty() {
                FALLBACK_SERVER_MESSAGE.to_owned()
            } else {
                server_message.to_owned()
            },
            retry_after: None,
        }
    }

    /// The same error with the response's `Retry-After` (seconds), when it had one.
    #[must_use]
    pub fn with_retry_after(mut self, retry_after: Option<u64>) -> ApiError {
        self.retry_after = retry_after;
        self
    }

    /// The server gave words of its own (not empty, not the stand-in for none).
    #[must_use]
    pub fn has_server_words(&self) -> bool {
        let text = self.server_message.trim();
        !text.is_empty() && text != FALLBACK_SERVER_MESSAGE
    }

    /// Extracts code and message from an error response body.
    ///
    /// 1. `code` = `body.error.code` ‖ `body.code` ‖ none, lower-cased.
    /// 2. `server_message` = `body.error.message` ‖ `body.error` (when a string) ‖
    ///    `body.message` ‖ `"Request failed"`.
    /// 3. A body that is not JSON gives no code and `"Request failed"`.
    ///
    /// As in the JavaScript original, empty strings count as absent. A numeric code is
    /// accepted and written in decimal.
    #[must_use]
    pub fn from_body(status: u16, body: &str) -> ApiError {
        let parsed: Option<Value> = serde_json::from_str(body).ok();
        let obj = parsed.as_ref().and_then(Value::as_object);
        let Some(obj) = obj else {
            return ApiError {
                status,
                code: None,
                server_message: FALLBACK_SERVER_MESSAGE.to_owned(),
                retry_after: None,
            };
        };
        let nested = obj.get("error").and_then(Value::as_object);
        let code = nested
            .and_then(|e| e.get("code"))
            .and_then(code_text)
            .or_else(|| obj.get("code").and_then(code_text));
        let server_message = nested
            .and_then(|e| e.get("message"))
            .and_then(non_empty_str)
            .or_else(|| obj.get("error").and_then(non_empty_str))
            .or_else(|| obj.get("message").and_then(non_empty_str))
            .unwrap_or(FALLBACK_SERVER_MESSAGE)
            .to_owned();
        ApiError {
            status,
            code,
            server_message,
            retry_after: None,
        }
    }

    /// Whether the code equals `code`, ignoring ASCII case (`PENDING_ACTION` ≡ `pending_action`).
    #[must_use]
    pub fn code_is(&self, code: &str) -> bool {
        self.code
            .as_deref()
            .is_some_and(|c| c.eq_ignore_ascii_case(code.trim()))
    }

    /// The Fluent message id of the friendly text for this code:
    /// `chat-error-code-<code with _ replaced by ->`.
    ///
    /// `None` when there is no code or it contains characters a Fluent id cannot hold;
    /// the caller then shows [`ApiError::server_message`]. Whether the id exists in the
    /// catalog is for the caller to check.
    #[must_use]
    pub fn fluent_id(&self) -> Option<String> {
        let code = self.code.as_deref()?;
        if code.is_empty()
            || !code
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return None;
        }
        Some(format!("chat-error-code-{}", code.replace('_', "-")))
    }
}

/// The words of an error body that is plain text rather than JSON (a proxy's "upstream
/// connect error", a server's one-line refusal): the trimmed text when it is short enough to
/// be a sentence (at most 300 bytes) and not markup (an HTML error page is no words to show).
#[must_use]
pub fn plain_text_words(body: &str) -> Option<&str> {
    let text = body.trim();
    let is_json = serde_json::from_str::<Value>(text).is_ok();
    (!text.is_empty() && text.len() <= 300 && !is_json && !text.starts_with('<')).then_some(text)
}

/// Lower-cases and trims a code; empty → `None`.
fn normalise_code(code: &str) -> Option<String> {
    let c = code.trim();
    if c.is_empty() {
        None
    } else {
        Some(c.to_ascii_lowercase())
    }
}

/// A code given as a non-empty string or as a number.
fn code_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => normalise_code(s),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A string value that JavaScript would call truthy.
fn non_empty_str(v: &Value) -> Option<&str> {
    v.as_str().filter(|s| !s.is_empty())
}

/// A stream frame (or stream body) the client could not turn into an event.
///
/// The decoder yields it in place of the event and carries on with the next frame, so the
/// UI can show what went wrong without losing the rest of the turn.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// The frame's `data` is not valid JSON.
    #[error("malformed JSON in stream event ({reason}): {excerpt}")]
    MalformedJson {
        /// The JSON parser's explanation.
        reason: String,
        /// The start of the offending data, at most [`EXCERPT_MAX_CHARS`] characters.
        excerpt: String,
    },
    /// The JSON has no `type` and the frame had no `event:` name either.
    #[error("stream event without a type: {excerpt}")]
    MissingType {
        /// The start of the offending data, at most [`EXCERPT_MAX_CHARS`] characters.
        excerpt: String,
    },
    /// A known event type whose fields have the wrong shape (e.g. `stream.action_required`
    /// without a usable `action`).
    #[error("invalid `{event_type}` event: {reason}")]
    InvalidShape {
        /// The event type as sent, e.g. `stream.text`.
        event_type: String,
        /// What was wrong.
        reason: String,
    },
    /// Bytes that are not UTF-8, for callers that decode a whole body strictly.
    /// The streaming decoder replaces such bytes with U+FFFD instead.
    #[error("stream is not valid UTF-8 (first bad byte at {valid_up_to})")]
    InvalidUtf8 {
        /// Offset of the first byte that is not part of valid UTF-8.
        valid_up_to: usize,
    },
    /// One frame grew past the decoder's limit; it was dropped unread.
    #[error("stream event larger than {limit} bytes was dropped")]
    FrameTooLarge {
        /// The limit in bytes that was exceeded.
        limit: usize,
    },
}

impl DecodeError {
    /// Builds [`DecodeError::MalformedJson`] from a parser error and the data it choked on.
    #[must_use]
    pub fn malformed(err: &serde_json::Error, data: &str) -> DecodeError {
        DecodeError::MalformedJson {
            reason: err.to_string(),
            excerpt: excerpt(data),
        }
    }
}

/// The first [`EXCERPT_MAX_CHARS`] characters of `data`, with `…` when cut.
#[must_use]
pub fn excerpt(data: &str) -> String {
    let mut out: String = data.chars().take(EXCERPT_MAX_CHARS).collect();
    if out.len() < data.len() {
        out.push('…');
    }
    out
}

/// A response body that does not have the shape its endpoint promises.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    /// The body is not JSON of the expected shape.
    #[error("unexpected response from {endpoint}: {detail}")]
    BadBody {
        /// Which endpoint answered, e.g. `GET /conversations/:id`.
        endpoint: String,
        /// The JSON parser's explanation.
        detail: String,
    },
    /// The body is empty where a value is required.
    #[error("empty response from {endpoint}")]
    EmptyBody {
        /// Which endpoint answered.
        endpoint: String,
    },
}

impl ProtocolError {
    /// Wraps a `serde_json` failure for `endpoint`.
    #[must_use]
    pub fn bad_body(endpoint: &str, err: &serde_json::Error) -> ProtocolError {
        ProtocolError::BadBody {
            endpoint: endpoint.to_owned(),
            detail: err.to_string(),
        }
    }
}
