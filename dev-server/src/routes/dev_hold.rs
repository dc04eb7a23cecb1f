//! `POST /_dev/wasm`: holds back the main wasm of the page and the element, for journeys that
//! type into the composer drawn before the wasm arrives (the instant shell) and then let it
//! arrive, or make it fail. Served only with `--dev-controls`, like the other test controls.
//!
//! While held, a request for a `*_bg.wasm` file waits (the browser sees a slow network, not an
//! error); `released` lets every waiting and later request through; `failed` answers the
//! waiting and later ones 503, as a broken deploy would.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};
use tokio::sync::watch;

use super::json_body;
use crate::error::ApiError;
use crate::AppState;

/// What happens to a request for the main wasm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Gate {
    /// Served as usual.
    #[default]
    Released,
    /// Waits until the gate changes.
    Held,
    /// Answered 503.
    Failed,
}

impl Gate {
    fn parse(s: &str) -> Option<Gate> {
        match s {
            "released" => Some(Gate::Released),
            "held" => Some(Gate::Held),
            "failed" => Some(Gate::Failed),
            _ => None,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Gate::Released => "released",
            Gate::Held => "held",
            Gate::Failed => "failed",
        }
    }
}

/// The gate of the main wasm, shared by the control and every waiting request.
#[derive(Debug, Clone)]
pub struct WasmGate(Arc<watch::Sender<Gate>>);

impl Default for WasmGate {
    fn default() -> Self {
        WasmGate(Arc::new(watch::channel(Gate::Released).0))
    }
}

impl WasmGate {
    /// Sets the gate; waiting requests see the change at once.
    pub fn set(&self, gate: Gate) {
        self.0.send_replace(gate);
    }

    /// Waits while the gate is held; then whether the request may be served.
    pub async fn pass(&self) -> bool {
        let mut rx = self.0.subscribe();
        loop {
            let gate = *rx.borrow_and_update();
            match gate {
                Gate::Released => return true,
                Gate::Failed => return false,
                // The sender lives in the store as long as the server.
                Gate::Held => {
                    if rx.changed().await.is_err() {
                        return false;
                    }
                }
            }
        }
    }
}

/// `POST /_dev/wasm` `{ "state": "held" | "released" | "failed" }` → `{ "state" }`.
pub async fn set(
    State(app): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let body = json_body(body)?;
    let gate = body
        .get("state")
        .and_then(Value::as_str)
        .and_then(Gate::parse)
        .ok_or_else(|| ApiError::validation("state must be held, released or failed"))?;
    let shared = app.lock().wasm_gate.clone();
    shared.set(gate);
    Ok(Json(json!({ "state": gate.as_str() })))
}

/// Whether `path` is a main wasm (`agent-chat_bg.wasm`, `agent-chat-page-<hash>_bg.wasm`),
/// not a lazy chunk.
pub fn is_main_wasm(path: &str) -> bool {
    path.ends_with("_bg.wasm")
}

/// Middleware of the static files: a request for the main wasm passes the gate first.
pub async fn hold_main_wasm(State(app): State<AppState>, request: Request, next: Next) -> Response {
    if is_main_wasm(request.uri().path()) {
        let shared = app.lock().wasm_gate.clone();
        if !shared.pass().await {
            return (StatusCode::SERVICE_UNAVAILABLE, "wasm failed (_dev/wasm)").into_response();
        }
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::{Gate, WasmGate};
    use std::time::Duration;

    #[tokio::test]
    async fn a_held_request_waits_for_the_release_or_the_failure() {
        let gate = WasmGate::default();
        assert!(gate.pass().await);
        gate.set(Gate::Held);
        let waiting = tokio::spawn({
            let gate = gate.clone();
            async move { gate.pass().await }
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiting.is_finished(), "a held request must wait");
        gate.set(Gate::Released);
        assert!(waiting.await.unwrap());

        gate.set(Gate::Held);
        let waiting = tokio::spawn({
            let gate = gate.clone();
            async move { gate.pass().await }
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        gate.set(Gate::Failed);
        assert!(!waiting.await.unwrap());
        assert!(!gate.pass().await);
    }
}
