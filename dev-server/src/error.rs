//! The error envelope `{ "error": { "code", "message", "details"? } }` and every code the server emits.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

/// A refused request: HTTP status, wire code and human message (PROTOCOL §2, §9.10).
#[derive(Debug, Clone)]
pub struct ApiError {
    /// HTTP status of the response.
    pub status: StatusCode,
    /// Wire code, e.g. `NOT_FOUND` or `action_pending`.
    pub code: &'static str,
    /// Human-readable server message.
    pub message: String,
    /// Optional `details` object.
    pub details: Option<Value>,
}

impl ApiError {
    /// Builds an error with the given status, code and message.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        Self {
            status,
            code,
            message: message.into(),
            details: None,
        }
    }

    /// Attaches a `details` value.
    pub fn with_details(mut self, details: Value) -> Self {
        self.details = Some(details);
        self
    }

    /// 400 `VALIDATION_ERROR`.
    pub fn validation(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "VALIDATION_ERROR", message)
    }

    /// 401 `AUTHENTICATION_ERROR`.
    pub fn authentication(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, "AUTHENTICATION_ERROR", message)
    }

    /// 403 `FORBIDDEN`.
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, "FORBIDDEN", message)
    }

    /// 404 `NOT_FOUND`.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "NOT_FOUND", message)
    }

    /// 500 `INTERNAL_ERROR`.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, "INTERNAL_ERROR", message)
    }

    /// 410 `action_expired`.
    pub fn action_expired() -> Self {
        Self::new(
            StatusCode::GONE,
            "action_expired",
            "This request has expired and can no longer be answered",
        )
    }

    /// 409 `action_cancelled`.
    pub fn action_cancelled() -> Self {
        Self::new(
            StatusCode::CONFLICT,
            "action_cancelled",
            "This request was cancelled",
        )
    }

    /// 409 `action_not_pending`.
    pub fn action_not_pending() -> Self {
        Self::new(
            StatusCode::CONFLICT,
            "action_not_pending",
            "This request was already answered",
        )
    }

    /// 403 `action_forbidden`.
    pub fn action_forbidden() -> Self {
        Self::new(
            StatusCode::FORBIDDEN,
            "action_forbidden",
            "Only the user who started this conversation can answer this request",
        )
    }

    /// 409 `action_pending`.
    pub fn action_pending() -> Self {
        Self::new(
            StatusCode::CONFLICT,
            "action_pending",
            "The assistant is waiting for an answer to a pending request in this conversation",
        )
    }

    /// 409 `conversation_busy`.
    pub fn conversation_busy() -> Self {
        Self::new(
            StatusCode::CONFLICT,
            "conversation_busy",
            "The assistant is still working on this conversation",
        )
    }

    /// 409 `action_version_conflict`.
    pub fn version_conflict(expected: u64) -> Self {
        Self::new(
            StatusCode::CONFLICT,
            "action_version_conflict",
            format!("The request was changed; the current version is {expected}"),
        )
        .with_details(json!({ "version": expected }))
    }

    /// 429 `rate_limited`.
    pub fn rate_limited() -> Self {
        Self::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            "Too many requests, slow down",
        )
    }

    /// 429 `quota_exceeded`.
    pub fn quota_exceeded() -> Self {
        Self::new(
            StatusCode::TOO_MANY_REQUESTS,
            "quota_exceeded",
            "Usage quota exceeded",
        )
    }

    /// 413 `message_too_long`.
    pub fn message_too_long(limit: usize) -> Self {
        Self::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "message_too_long",
            format!("The message is longer than {limit} characters"),
        )
    }

    /// 422 `guardrail_blocked`.
    pub fn guardrail_blocked() -> Self {
        Self::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "guardrail_blocked",
            "The content was blocked by a guardrail",
        )
    }

    /// 413 `file_too_large`.
    pub fn file_too_large(name: &str, limit: usize) -> Self {
        Self::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "file_too_large",
            format!("File {name} is larger than {limit} bytes"),
        )
    }

    /// 415 `unsupported_file_type`.
    pub fn unsupported_file_type(mime: &str) -> Self {
        Self::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_file_type",
            format!("Files of type {mime} are not accepted"),
        )
    }

    /// 422 `attachments_disabled`.
    pub fn attachments_disabled(agent_id: &str) -> Self {
        Self::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "attachments_disabled",
            format!("Agent {agent_id} does not accept attachments"),
        )
    }

    /// Codes `POST /_dev/next-answer` can make the next E14 request refuse with.
    pub const INJECTABLE_ANSWER_CODES: [&'static str; 10] = [
        "action_expired",
        "action_cancelled",
        "action_not_pending",
        "action_forbidden",
        "conversation_busy",
        "action_version_conflict",
        "rate_limited",
        "quota_exceeded",
        "guardrail_blocked",
        "INTERNAL_ERROR",
    ];

    /// The refusal E14 answers with for `code` (one of [`ApiError::INJECTABLE_ANSWER_CODES`]),
    /// exactly as the real check would send it; `None` for any other code.
    pub fn answer_refusal(code: &str) -> Option<Self> {
        Some(match code {
            "action_expired" => Self::action_expired(),
            "action_cancelled" => Self::action_cancelled(),
            "action_not_pending" => Self::action_not_pending(),
            "action_forbidden" => Self::action_forbidden(),
            "conversation_busy" => Self::conversation_busy(),
            "action_version_conflict" => Self::version_conflict(1),
            "rate_limited" => Self::rate_limited(),
            "quota_exceeded" => Self::quota_exceeded(),
            "guardrail_blocked" => Self::guardrail_blocked(),
            "INTERNAL_ERROR" => Self::internal("Scripted failure (_dev/next-answer)"),
            _ => return None,
        })
    }

    /// The envelope body.
    pub fn body(&self) -> Value {
        let mut error = json!({ "code": self.code, "message": self.message });
        if let (Some(details), Some(obj)) = (&self.details, error.as_object_mut()) {
            obj.insert("details".into(), details.clone());
        }
        json!({ "error": error })
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, axum::Json(self.body())).into_response()
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {}: {}",
            self.status.as_u16(),
            self.code,
            self.message
        )
    }
}

impl std::error::Error for ApiError {}
