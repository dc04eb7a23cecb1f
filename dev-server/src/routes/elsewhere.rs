//! A server that sends the page elsewhere, and the elsewhere that notes what reaches it.
//!
//! `POST /_dev/redirect` `{ to }` makes every endpoint the page talks to (the agent server's
//! API, Chat Completions, Responses, A2A and Cogitator, the action endpoints) answer `307
//! Temporary Redirect` to the same path on `to` (another origin), as a compromised or
//! misconfigured server might; `{ to: null }` ends it. `GET /_dev/redirect` lists every
//! request so answered (`{ to, redirected: ["POST /path", …] }`): a journey waits on it to
//! know the page really asked before it checks that nothing arrived elsewhere. [`Recorder`] is that other origin: a
//! listener that answers anything (with permissive CORS, so a browser that followed a
//! redirect would deliver the request) and keeps a line per request, so a journey can prove
//! the person's words and token never left for it.

use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use super::json_body;
use crate::error::ApiError;
use crate::{AppState, API_BASE};

/// `POST /_dev/redirect` `{ to }` → `{ to }`: see the module docs.
pub async fn set(
    State(app): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let body = json_body(body)?;
    let to = match body.get("to") {
        None | Some(Value::Null) => None,
        Some(Value::String(to)) if to.starts_with("http://") || to.starts_with("https://") => {
            Some(to.trim_end_matches('/').to_owned())
        }
        Some(_) => return Err(ApiError::validation("to must be an http(s) origin or null")),
    };
    app.lock().redirect_to.clone_from(&to);
    Ok(Json(json!({ "to": to })))
}

/// `GET /_dev/redirect` → `{ to, redirected }`: see the module docs.
pub async fn get(State(app): State<AppState>) -> Json<Value> {
    let store = app.lock();
    Json(json!({ "to": store.redirect_to, "redirected": store.redirected }))
}

/// Whether `path` is an endpoint the page talks to (not a static file, not a test control).
pub fn is_endpoint(path: &str) -> bool {
    let dev = format!("{API_BASE}/_dev/");
    if path.starts_with(&dev) {
        return false;
    }
    path.starts_with(&format!("{API_BASE}/"))
        || ["/v1/", "/a2a", "/cogitator/"]
            .iter()
            .any(|p| path.starts_with(p))
}

/// Middleware of the whole router: a 307 to the other origin for every endpoint while
/// `/_dev/redirect` asks for it.
pub async fn redirect_elsewhere(
    State(app): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let path = request.uri().path();
    let to = if is_endpoint(path) {
        app.lock().redirect_to.clone()
    } else {
        None
    };
    let Some(to) = to else {
        return next.run(request).await;
    };
    let asked = request.uri().path_and_query().map_or(path, |p| p.as_str());
    let target = format!("{to}{asked}");
    app.lock()
        .redirected
        .push(format!("{} {asked}", request.method()));
    match HeaderValue::from_str(&target) {
        Ok(location) => (
            StatusCode::TEMPORARY_REDIRECT,
            [(header::LOCATION, location)],
        )
            .into_response(),
        Err(_) => next.run(request).await,
    }
}

/// One request that reached the other origin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrival {
    /// Its method (`OPTIONS` for a browser's preflight).
    pub method: String,
    /// Its path and query.
    pub path: String,
    /// Whether it carried an `Authorization` header.
    pub authorization: bool,
    /// Its body, as text.
    pub body: String,
}

/// The other origin: answers every request and remembers it.
#[derive(Clone, Default)]
pub struct Recorder {
    arrivals: Arc<Mutex<Vec<Arrival>>>,
}

impl Recorder {
    /// Serves on `listener` until the task is dropped; returns at once with the recorder.
    pub fn serve(listener: tokio::net::TcpListener) -> Recorder {
        let recorder = Recorder::default();
        let app = axum::Router::new()
            .fallback(record)
            .with_state(recorder.clone());
        tokio::spawn(async move { axum::serve(listener, app).await });
        recorder
    }

    /// Every request that arrived so far, in order.
    pub fn arrivals(&self) -> Vec<Arrival> {
        self.arrivals
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }
}

/// Notes the request, then answers what lets a browser go on: CORS allowing anything, and a
/// small JSON body.
async fn record(
    State(recorder): State<Recorder>,
    method: Method,
    uri: axum::http::Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    recorder
        .arrivals
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .push(Arrival {
            method: method.to_string(),
            path: uri.to_string(),
            authorization: headers.contains_key(header::AUTHORIZATION),
            body: String::from_utf8_lossy(&body).into_owned(),
        });
    let origin = headers
        .get(header::ORIGIN)
        .cloned()
        .unwrap_or(HeaderValue::from_static("*"));
    let requested = headers
        .get(header::ACCESS_CONTROL_REQUEST_HEADERS)
        .cloned()
        .unwrap_or(HeaderValue::from_static("*"));
    (
        StatusCode::OK,
        [
            (header::ACCESS_CONTROL_ALLOW_ORIGIN, origin),
            (header::ACCESS_CONTROL_ALLOW_HEADERS, requested),
            (
                header::ACCESS_CONTROL_ALLOW_METHODS,
                HeaderValue::from_static("GET, POST, PATCH, DELETE, OPTIONS"),
            ),
            (
                header::ACCESS_CONTROL_ALLOW_CREDENTIALS,
                HeaderValue::from_static("true"),
            ),
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            ),
        ],
        "{}",
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::is_endpoint;

    #[test]
    fn every_endpoint_the_page_talks_to_is_sent_elsewhere_and_nothing_else() {
        for path in [
            "/api/agents/agents",
            "/api/agents/conversations/c1/messages",
            "/api/agents/conversations/c1/actions/a1",
            "/v1/chat/completions",
            "/v1/responses",
            "/v1/actions/a1",
            "/a2a",
            "/cogitator/api/threads",
        ] {
            assert!(is_endpoint(path), "{path}");
        }
        for path in [
            "/api/agents/_dev/redirect",
            "/element/agent-chat.js",
            "/examples/custom-element.html",
            "/",
        ] {
            assert!(!is_endpoint(path), "{path}");
        }
    }
}
