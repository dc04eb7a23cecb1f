//! The HTTP the session asks the io layer to run and what comes back: requests by id, their
//! responses, and how a transport can fail.

use crate::time::Millis;

/// Identifies one request the session asked the io layer to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RequestId(pub u64);

/// HTTP method of a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// `GET`
    Get,
    /// `POST`
    Post,
    /// `PATCH`
    Patch,
    /// `DELETE`
    Delete,
}

impl Method {
    /// The method as written on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
        }
    }
}

/// A request for the io layer. `path` is appended to the configured base URL; headers
/// (`Content-Type`, `Authorization`, custom ones) are added by the io layer,
/// after the request's own `headers`.
#[derive(Clone, Debug, PartialEq)]
pub struct HttpRequest {
    /// Id the result must be reported under.
    pub id: RequestId,
    /// HTTP method.
    pub method: Method,
    /// Path and query below the base URL, starting with `/`.
    pub path: String,
    /// JSON body, if any.
    pub body: Option<String>,
    /// Headers the wire protocol itself needs (a backend's version header), set before the
    /// configured ones; empty for the agent server's requests.
    pub headers: Vec<(String, String)>,
}

/// A complete (non-streamed) HTTP response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpResponse {
    /// Status code.
    pub status: u16,
    /// Body text (may be empty, e.g. for 204).
    pub body: String,
    /// The `Date` header ([`crate::parse_http_date`]), when there was one and the page
    /// could read it (same origin, or listed in `Access-Control-Expose-Headers`). The session
    /// estimates the server's clock from it.
    pub date: Option<Millis>,
    /// The `Retry-After` header in seconds ([`crate::parse_retry_after`]), when there was
    /// one the page could read: a refusal for too many requests says how long to wait.
    pub retry_after: Option<u64>,
}

impl HttpResponse {
    /// A response without a readable `Date` or `Retry-After` header.
    pub fn new(status: u16, body: impl Into<String>) -> Self {
        HttpResponse {
            status,
            body: body.into(),
            date: None,
            retry_after: None,
        }
    }

    pub(super) fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }
}

/// Why a request produced no HTTP response.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TransportError {
    /// The network failed (offline, DNS, CORS, connection reset…).
    #[error("network error: {0}")]
    Network(String),
    /// The session (or the page) aborted it.
    #[error("aborted")]
    Aborted,
    /// Not sent on to another origin: the server answered with a redirect (which is never
    /// followed, so the person's words and the token go nowhere else), or the request's own
    /// address was outside the origins the chat was configured with. The server the chat
    /// talks to did not take the request.
    #[error("not sent to another origin")]
    OtherOrigin,
}
