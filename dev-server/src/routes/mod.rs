//! HTTP routing: the API under `/api/agents`, CORS, optional auth, the unknown-route fallback,
//! the static page, and helpers shared by the handlers (caller identity, JSON bodies, queries).

pub mod a2a;
pub mod actions;
pub mod agents;
pub mod cogitator;
pub mod conversations;
pub mod dev;
pub mod dev_hold;
pub mod elsewhere;
pub mod files;
pub mod messages;
pub mod openai;
pub mod responses;
pub mod static_files;

use std::collections::HashMap;
use std::convert::Infallible;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderName, Method, StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde_json::{Map, Value};
use tower_http::cors::{Any, CorsLayer};

use crate::error::ApiError;
use crate::model::Conversation;
use crate::{AppState, API_BASE};

/// Largest request body accepted at all (base64 of a 10 MiB file fits comfortably).
pub const MAX_BODY_BYTES: usize = 64 * 1024 * 1024;

/// Header that names the caller when no `Authorization` header is sent.
pub const USER_HEADER: &str = "x-user-id";

/// Builds the whole router for a state.
pub fn router(app: AppState) -> Router {
    let mut api = Router::new().route("/agents", get(agents::list));
    // The test controls only when asked for (`--dev-controls`): anyone reaching them could
    // settle or fake other people's actions.
    if app.config().dev_controls {
        api = api
            .route("/_dev/seed", post(dev::seed))
            .route("/_dev/resolutions", get(dev::resolutions))
            .route("/_dev/expire", post(dev::expire))
            .route("/_dev/reissue", post(dev::reissue))
            .route("/_dev/next-answer", post(dev::next_answer))
            .route("/_dev/executions", get(dev::executions))
            .route("/_dev/history-source", post(dev::history_source))
            .route("/_dev/chunks", post(dev::chunks))
            .route("/_dev/wasm", post(dev_hold::set))
            .route("/_dev/redirect", post(elsewhere::set).get(elsewhere::get));
    }
    let api = api
        .route("/agents/{agent_id}", get(agents::get_one))
        .route(
            "/conversations",
            get(conversations::list).post(conversations::create),
        )
        .route(
            "/conversations/{id}",
            get(conversations::get_one)
                .patch(conversations::update)
                .delete(conversations::delete),
        )
        .route(
            "/conversations/{id}/messages",
            get(conversations::messages).post(messages::send),
        )
        .route(
            "/conversations/{id}/actions/{action_id}",
            post(actions::resolve),
        )
        .route("/files", post(files::upload))
        .route("/files/{id}", get(files::get_one).delete(files::delete))
        .route("/files/{id}/content", get(files::content))
        .fallback(not_found)
        .method_not_allowed_fallback(not_found)
        .layer(middleware::from_fn_with_state(app.clone(), auth))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(app.clone());

    let cors = CorsLayer::new()
        .allow_origin(Any)
        .allow_methods([
            Method::GET,
            Method::POST,
            Method::PATCH,
            Method::DELETE,
            Method::OPTIONS,
        ])
        .allow_headers([
            header::CONTENT_TYPE,
            header::AUTHORIZATION,
            HeaderName::from_static(USER_HEADER),
        ])
        // `Date` lets a page on another origin estimate the server's clock for deadlines (issue 13).
        .expose_headers([header::CONTENT_DISPOSITION, header::DATE]);

    // Other backends' scripted endpoints, beside the agent server (issue 15).
    let root = Router::new()
        .nest(API_BASE, api)
        .route(
            "/v1/chat/completions",
            post(openai::chat_completions).layer(DefaultBodyLimit::max(MAX_BODY_BYTES)),
        )
        .route(
            "/v1/responses",
            post(responses::responses).layer(DefaultBodyLimit::max(MAX_BODY_BYTES)),
        )
        .route(
            "/a2a",
            post(a2a::rpc).layer(DefaultBodyLimit::max(MAX_BODY_BYTES)),
        )
        .route("/a2a/.well-known/agent-card.json", get(a2a::card))
        .route(
            "/v1/actions/{action_id}",
            post(responses::answer).layer(DefaultBodyLimit::max(MAX_BODY_BYTES)),
        )
        .nest(
            "/cogitator",
            cogitator::router().layer(DefaultBodyLimit::max(MAX_BODY_BYTES)),
        );
    let root = match &app.config().dist {
        Some(dir) => {
            let mut files = Router::new()
                .fallback_service(static_files::serve_dir(dir))
                .layer(axum::middleware::from_fn_with_state(
                    app.clone(),
                    dev::refuse_blocked_chunks,
                ));
            if app.config().dev_controls {
                files = files.layer(axum::middleware::from_fn_with_state(
                    app.clone(),
                    dev_hold::hold_main_wasm,
                ));
            }
            root.fallback_service(files.layer(middleware::from_fn(static_files::caching_headers)))
        }
        None => root.fallback(not_found),
    };
    root.layer(middleware::from_fn_with_state(
        app.clone(),
        elsewhere::redirect_elsewhere,
    ))
    .layer(cors)
}

/// 404 `Route not found: <METHOD> <path>` (path relative to the API base inside it).
pub async fn not_found(method: Method, uri: Uri) -> ApiError {
    ApiError::not_found(format!("Route not found: {method} {}", uri.path()))
}

/// Optional auth (`Config::require_auth`): a missing token → 401, the token `invalid` → 401.
async fn auth(State(app): State<AppState>, req: Request, next: Next) -> Response {
    if app.config().require_auth {
        match bearer_token(req.headers()) {
            None => {
                return ApiError::authentication("Authentication required").into_response();
            }
            Some(t) if t == "invalid" => {
                return ApiError::authentication("Invalid token").into_response();
            }
            Some(_) => {}
        }
    }
    next.run(req).await
}

fn bearer_token(headers: &axum::http::HeaderMap) -> Option<String> {
    let raw = headers.get(header::AUTHORIZATION)?.to_str().ok()?.trim();
    let token = match raw.get(..7) {
        Some(p) if p.eq_ignore_ascii_case("bearer ") => raw[7..].trim(),
        _ => raw,
    };
    (!token.is_empty()).then(|| token.to_string())
}

/// The caller's resolved user: `Authorization: Bearer <user id>` (prefix optional), else the
/// `x-user-id` header, else anonymous.
#[derive(Debug, Clone, Default)]
pub struct Caller {
    /// Resolved user id; `None` = anonymous.
    pub user: Option<String>,
}

impl Caller {
    /// `resolvedBy` value for answers from this caller.
    pub fn resolver(&self) -> String {
        match &self.user {
            Some(u) => format!("user:{u}"),
            None => "user".to_string(),
        }
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let user = bearer_token(&parts.headers).or_else(|| {
            parts
                .headers
                .get(USER_HEADER)
                .and_then(|v| v.to_str().ok())
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        });
        Ok(Caller { user })
    }
}

/// True when a caller may not touch a conversation (it has an owner and the caller is someone else).
pub fn denies(conversation: &Conversation, caller: &Caller) -> bool {
    matches!((&conversation.user_id, &caller.user), (Some(owner), Some(user)) if owner != user)
}

/// 403 `FORBIDDEN` when [`denies`].
pub fn check_access(conversation: &Conversation, caller: &Caller) -> Result<(), ApiError> {
    if denies(conversation, caller) {
        Err(ApiError::forbidden(
            "You do not have access to this conversation",
        ))
    } else {
        Ok(())
    }
}

/// Parses a JSON object body. Empty body → `{}`; bad JSON or a non-object → 400; an oversized
/// body → 413 `file_too_large`.
pub fn json_body(body: Result<Bytes, BytesRejection>) -> Result<Map<String, Value>, ApiError> {
    let bytes = body.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "file_too_large",
                format!("Request body is larger than {MAX_BODY_BYTES} bytes"),
            )
        } else {
            ApiError::validation(format!("Could not read the request body: {rejection}"))
        }
    })?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(Map::new());
    }
    match serde_json::from_slice::<Value>(&bytes) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(ApiError::validation("Request body must be a JSON object")),
        Err(e) => Err(ApiError::validation(format!("Invalid JSON body: {e}"))),
    }
}

/// JavaScript `parseInt` on a query value: leading whitespace, optional sign, leading digits.
pub fn parse_int(s: &str) -> Option<i64> {
    let t = s.trim_start();
    let (neg, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let end = digits
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(digits.len());
    let n: i64 = digits[..end].parse().ok()?;
    Some(if neg { -n } else { n })
}

/// A positive integer query parameter; missing, `0`, negative or not a number → `default`.
pub fn int_param(query: &HashMap<String, String>, key: &str, default: usize) -> usize {
    match query.get(key).and_then(|v| parse_int(v)) {
        Some(n) if n > 0 => usize::try_from(n).unwrap_or(default),
        _ => default,
    }
}

/// Reads an optional string field; present but not a string → 400.
pub fn opt_string(body: &Map<String, Value>, key: &str) -> Result<Option<String>, ApiError> {
    match body.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(ApiError::validation(format!("{key} must be a string"))),
    }
}

/// Reads an optional object field; present but not an object → 400.
pub fn opt_object(body: &Map<String, Value>, key: &str) -> Result<Option<Value>, ApiError> {
    match body.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v @ Value::Object(_)) => Ok(Some(v.clone())),
        Some(_) => Err(ApiError::validation(format!("{key} must be an object"))),
    }
}

/// The refusal triggered by a magic word in user content, if any:
/// `#guardrail` → 422 `guardrail_blocked`, `#ratelimit` → 429 `rate_limited`,
/// `#quota` → 429 `quota_exceeded`.
pub fn magic_refusal(text: &str) -> Option<ApiError> {
    if text.contains("#guardrail") {
        Some(ApiError::guardrail_blocked())
    } else if text.contains("#ratelimit") {
        Some(ApiError::rate_limited())
    } else if text.contains("#quota") {
        Some(ApiError::quota_exceeded())
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_int_like_javascript() {
        assert_eq!(parse_int("10"), Some(10));
        assert_eq!(parse_int(" 7abc"), Some(7));
        assert_eq!(parse_int("-3"), Some(-3));
        assert_eq!(parse_int("abc"), None);
        assert_eq!(parse_int(""), None);
    }

    #[test]
    fn int_param_defaults() {
        let mut q = HashMap::new();
        assert_eq!(int_param(&q, "limit", 20), 20);
        q.insert("limit".to_string(), "0".to_string());
        assert_eq!(int_param(&q, "limit", 20), 20);
        q.insert("limit".to_string(), "x".to_string());
        assert_eq!(int_param(&q, "limit", 20), 20);
        q.insert("limit".to_string(), "5".to_string());
        assert_eq!(int_param(&q, "limit", 20), 5);
    }
}
