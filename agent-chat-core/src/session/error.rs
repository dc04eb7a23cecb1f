//! Failures as the UI shows them: where they happened ([`ErrorContext`]) and what they were
//! ([`ChatError`]), plus the one function that turns an HTTP result into a value or one of
//! them. Kept apart so the state machine's files only say *when* something fails.

use crate::error::ApiError;
use crate::files::FileRejection;
use crate::i18n::{Arg, Catalog};

use super::{HttpResponse, TransportError};

/// Where a failure happened; picks the generic wording when the server gave no known code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorContext {
    /// Listing agents.
    Agents,
    /// Sending a message (or creating its conversation).
    Send,
    /// Loading a conversation.
    LoadConversation,
    /// Listing conversations.
    LoadConversations,
    /// Loading more conversations.
    LoadMore,
    /// Deleting a conversation.
    Delete,
    /// Renaming a conversation.
    Rename,
    /// Uploading, reading or deleting a stored file (`POST /files`, `GET` and `DELETE /files/:id`,
    /// `AgentServerClient`).
    File,
    /// Loading older messages of the open conversation (`GET /conversations/:id/messages`).
    LoadOlderMessages,
}

impl ErrorContext {
    /// What was being done, in the words of [`ChatError`]'s `Display` (written out rather than
    /// taken from `Debug`, which a shipped build prints shallowly).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            ErrorContext::Agents => "listing agents",
            ErrorContext::Send => "sending",
            ErrorContext::LoadConversation => "loading the conversation",
            ErrorContext::LoadConversations => "listing conversations",
            ErrorContext::LoadMore => "loading more conversations",
            ErrorContext::Delete => "deleting the conversation",
            ErrorContext::Rename => "renaming the conversation",
            ErrorContext::File => "the file request",
            ErrorContext::LoadOlderMessages => "loading older messages",
        }
    }

    fn generic_id(self) -> &'static str {
        match self {
            ErrorContext::Agents | ErrorContext::LoadConversations => {
                "chat-error-load-conversations-failed"
            }
            ErrorContext::Send => "chat-error-send-failed",
            ErrorContext::LoadConversation => "chat-error-load-conversation-failed",
            ErrorContext::LoadMore => "chat-error-load-more-failed",
            ErrorContext::Delete => "chat-error-delete-conversation-failed",
            ErrorContext::Rename => "chat-error-rename-conversation-failed",
            ErrorContext::File => "chat-error-file-request-failed",
            ErrorContext::LoadOlderMessages => "chat-error-load-older-messages-failed",
        }
    }
}

/// A failure as the UI shows it. Keeps the server's wording (`server_message`) and the
/// lower-case code next to what [`ChatError::describe`] makes of them.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum ChatError {
    /// The server refused a request (error envelope, any status).
    #[error("{} failed: {error}", context.name())]
    Api {
        /// What was being done.
        context: ErrorContext,
        /// The parsed envelope.
        error: ApiError,
    },
    /// The server sent `stream.error`.
    #[error("stream error {}: {message}", code.as_deref().unwrap_or("without a code"))]
    Stream {
        /// Lower-case code, if any.
        code: Option<String>,
        /// Server wording.
        message: String,
    },
    /// No response at all.
    #[error("network failure: {detail}")]
    Network {
        /// What was being done.
        context: ErrorContext,
        /// Browser wording.
        detail: String,
    },
    /// The request was not sent on to another origin (a redirect, or an address outside the
    /// configured ones): nothing was taken by the server, nothing reached the other origin.
    #[error("not sent to another origin")]
    OtherOrigin {
        /// What was being done.
        context: ErrorContext,
    },
    /// A response body did not have the expected shape.
    #[error("unreadable response: {detail}")]
    BadResponse {
        /// What was being done.
        context: ErrorContext,
        /// Parser wording.
        detail: String,
    },
    /// The stream ended without `stream.done` and the conversation did not show the reply.
    #[error("stream cut")]
    StreamCut,
    /// The server lists no agent and none was configured.
    #[error("no agent")]
    NoAgent,
    /// Files were not attached: too many, too large, a type not accepted, uploads off,
    /// or unreadable. One entry per refusal, in order.
    #[error("files refused: {}", joined(.0))]
    Files(Vec<FileRejection>),
    /// The page's own storage of conversations failed: `unreadable` saved
    /// conversations were skipped on load, or (0) one could not be saved (full or blocked).
    #[error("thread store: {unreadable} unreadable")]
    Storage {
        /// How many stored conversations could not be read; 0 for a failed save.
        unreadable: usize,
    },
    /// The host's own thread store could not load the saved conversations; the
    /// chat goes on with none.
    #[error("thread store: load failed")]
    StorageLoad,
    /// An answer to a card was not sent: the core's gate refused it.
    #[error("answer not sent: {}", .0.as_str())]
    Refused(crate::draft::ResolveRefusal),
    /// A part of the interface loaded on first use could not be fetched.
    #[error("part not loaded: {}", .0.as_str())]
    ChunkMissing(crate::Chunk),
}

// Cloned by hand, not derived: a derived `clone` is `#[inline]`, so the UI crate compiled its
// own copy beside this crate's and the element's first download carried both (D104). This
// one is compiled here only; a new variant fails to compile until it is added below.
impl Clone for ChatError {
    fn clone(&self) -> Self {
        match self {
            ChatError::Api { context, error } => ChatError::Api {
                context: *context,
                error: error.clone(),
            },
            ChatError::Stream { code, message } => ChatError::Stream {
                code: code.clone(),
                message: message.clone(),
            },
            ChatError::Network { context, detail } => ChatError::Network {
                context: *context,
                detail: detail.clone(),
            },
            ChatError::OtherOrigin { context } => ChatError::OtherOrigin { context: *context },
            ChatError::BadResponse { context, detail } => ChatError::BadResponse {
                context: *context,
                detail: detail.clone(),
            },
            ChatError::StreamCut => ChatError::StreamCut,
            ChatError::NoAgent => ChatError::NoAgent,
            ChatError::Files(rejections) => ChatError::Files(rejections.clone()),
            ChatError::Storage { unreadable } => ChatError::Storage {
                unreadable: *unreadable,
            },
            ChatError::StorageLoad => ChatError::StorageLoad,
            ChatError::Refused(refusal) => ChatError::Refused(refusal.clone()),
            ChatError::ChunkMissing(chunk) => ChatError::ChunkMissing(*chunk),
        }
    }
}

impl ChatError {
    /// The error for a request that got no response: [`ChatError::OtherOrigin`] for one not
    /// sent on to another origin, else [`ChatError::Network`] with the browser's words.
    #[must_use]
    pub fn from_transport(context: ErrorContext, error: &TransportError) -> ChatError {
        match error {
            TransportError::OtherOrigin => ChatError::OtherOrigin { context },
            TransportError::Network(detail) => ChatError::Network {
                context,
                detail: detail.clone(),
            },
            TransportError::Aborted => ChatError::Network {
                context,
                detail: error.to_string(),
            },
        }
    }

    /// Lower-case error code, when the server gave one.
    pub fn code(&self) -> Option<&str> {
        match self {
            ChatError::Api { error, .. } => error.code.as_deref(),
            ChatError::Stream { code, .. } => code.as_deref(),
            _ => None,
        }
    }

    /// The server's own wording, when there is one.
    pub fn server_message(&self) -> Option<&str> {
        match self {
            ChatError::Api { error, .. } => Some(&error.server_message),
            ChatError::Stream { message, .. } => Some(message),
            _ => None,
        }
    }

    /// HTTP status, when there was a response.
    pub fn status(&self) -> Option<u16> {
        match self {
            ChatError::Api { error, .. } => Some(error.status),
            _ => None,
        }
    }

    /// The text to show: for a failed delete or rename the localized "failed to …" text;
    /// otherwise the localized text of a known error code of the agent server or of a code that names
    /// one of the page's error messages (what the page's gateways say themselves), else the
    /// server's wording, else the localized generic text for what failed.
    pub fn describe(&self, catalog: &Catalog) -> String {
        // A failed delete or rename is not tied to anything on screen: say what failed.
        if let ChatError::Api { context, .. }
        | ChatError::Network { context, .. }
        | ChatError::OtherOrigin { context }
        | ChatError::BadResponse { context, .. } = self
        {
            if matches!(context, ErrorContext::Delete | ErrorContext::Rename) {
                return catalog.tr(context.generic_id());
            }
        }
        if let Some(text) = self.too_many_requests(catalog) {
            return text;
        }
        if let Some(code) = self.code() {
            let id = format!("chat-error-code-{}", code.replace('_', "-"));
            if catalog.has(&id) {
                return catalog.tr(&id);
            }
            // The page's own gateways name what they say themselves by its message id (a
            // refusal, or a failure without the server's words).
            if code.starts_with("chat-error-") && catalog.has(code) {
                return catalog.tr(code);
            }
        }
        match self {
            ChatError::Api { context, error } => {
                if error.has_server_words() {
                    error.server_message.clone()
                } else {
                    catalog.tr(context.generic_id())
                }
            }
            ChatError::Stream { message, .. } if !message.is_empty() => message.clone(),
            ChatError::Stream { .. } => catalog.tr("chat-error-send-failed"),
            ChatError::Network { .. } => catalog.tr("chat-error-network"),
            ChatError::OtherOrigin { .. } => catalog.tr("chat-error-other-origin"),
            ChatError::BadResponse { .. } => catalog.tr("chat-error-bad-response"),
            ChatError::StreamCut => catalog.tr("chat-error-stream-cut"),
            ChatError::Storage { unreadable: 0 } => catalog.tr("chat-error-storage-save"),
            ChatError::Storage { unreadable } => catalog.tr_args(
                "chat-error-storage-unreadable",
                &[("count", Arg::from(*unreadable as u64))],
            ),
            ChatError::StorageLoad => catalog.tr("chat-error-storage-load"),
            ChatError::ChunkMissing(_) => catalog.tr("chat-error-chunk"),
            ChatError::Refused(reason) => catalog.tr(reason.fluent_id()),
            ChatError::NoAgent => catalog.tr("chat-error-no-agent"),
            ChatError::Files(list) => list
                .iter()
                .map(|r| r.describe(catalog))
                .collect::<Vec<_>>()
                .join("\n"),
        }
    }
}

impl ChatError {
    /// The server's own words, when it gave some (not blanks, not the stand-in for none).
    fn server_words(&self) -> Option<&str> {
        match self {
            ChatError::Api { error, .. } if error.has_server_words() => Some(&error.server_message),
            ChatError::Stream { message, .. } if !message.trim().is_empty() => Some(message),
            _ => None,
        }
    }

    /// The server's own words, when [`ChatError::describe`] put the page's sentence in their
    /// place (a known code, too many requests): shown under it, so a server's explanation
    /// ("30 messages a minute on the free plan") is never lost. `None` when the server gave
    /// none or the description already is them.
    pub fn server_detail(&self, catalog: &Catalog) -> Option<String> {
        let words = self.server_words()?;
        let shown = self.describe(catalog);
        (!shown.contains(words.trim())).then(|| words.trim().to_owned())
    }

    /// The page's sentence for a refusal because of too many requests: the `rate_limited`
    /// code, or a 429 whose body names no other known code and gives no words of its own.
    /// With `Retry-After` it says how long to wait, in seconds up to two minutes, then in
    /// minutes (rounded up).
    fn too_many_requests(&self, catalog: &Catalog) -> Option<String> {
        let (status, retry_after) = match self {
            ChatError::Api { error, .. } => (error.status, error.retry_after),
            ChatError::Stream { .. } => (0, None),
            _ => return None,
        };
        let coded = self.code().is_some_and(|c| c == "rate_limited");
        let bare_429 = status == 429
            && self
                .code()
                .is_none_or(|c| !catalog.has(&format!("chat-error-code-{}", c.replace('_', "-"))))
            && self.server_message().is_none_or(|m| {
                let m = m.trim();
                m.is_empty() || m == crate::error::FALLBACK_SERVER_MESSAGE
            });
        if !coded && !bare_429 {
            return None;
        }
        Some(match retry_after {
            Some(seconds) if seconds <= 120 => catalog.tr_args(
                "chat-error-rate-limited-seconds",
                &[("seconds", Arg::from(seconds.max(1)))],
            ),
            Some(seconds) => catalog.tr_args(
                "chat-error-rate-limited-minutes",
                &[("minutes", Arg::from(seconds.div_ceil(60)))],
            ),
            None => catalog.tr("chat-error-code-rate-limited"),
        })
    }
}

/// Turns a response into `T`, or into the error the UI shows. 204 / empty bodies read as
/// JSON `null`.
/// [`parse_json`] with a reader of the parsed JSON, which it borrows (no copy of the tree).
/// The response of a request that succeeded, or why it did not: no response, or an error
/// envelope (any non-2xx status).
fn successful(
    result: Result<HttpResponse, TransportError>,
    context: ErrorContext,
) -> Result<HttpResponse, ChatError> {
    let resp = result.map_err(|e| ChatError::from_transport(context, &e))?;
    if !resp.ok() {
        return Err(ChatError::Api {
            context,
            error: server_refusal(&resp),
        });
    }
    Ok(resp)
}

/// A refusal's envelope, its `Retry-After`, and the words of a body that is
/// plain text: the server's own words are shown wherever it gave some.
fn server_refusal(resp: &HttpResponse) -> ApiError {
    let mut error = ApiError::from_body(resp.status, &resp.body).with_retry_after(resp.retry_after);
    if !error.has_server_words() {
        if let Some(text) = crate::error::plain_text_words(&resp.body) {
            text.clone_into(&mut error.server_message);
        }
    }
    error
}

/// The body of a request that succeeded, or why it did not (see [`successful`]).
pub(super) fn successful_body(
    result: Result<HttpResponse, TransportError>,
    context: ErrorContext,
) -> Result<String, ChatError> {
    // An empty body reads as `null`.
    let resp = successful(result, context)?;
    Ok(if resp.body.trim().is_empty() {
        "null".to_owned()
    } else {
        resp.body
    })
}

pub(super) fn parse_json<T: serde::de::DeserializeOwned>(
    result: Result<HttpResponse, TransportError>,
    context: ErrorContext,
) -> Result<T, ChatError> {
    let body = successful_body(result, context)?;
    crate::wire::json_text(&body).map_err(|e| ChatError::BadResponse {
        context,
        detail: e.to_string(),
    })
}

/// The refusals of [`ChatError::Files`], for its `Display`.
fn joined(list: &[FileRejection]) -> String {
    list.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}
