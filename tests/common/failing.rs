//! How each backend's stream says a reply failed, shared by the native and the browser tests
//! of failure wording.

use agent_chat_ui::core::transport::TransportKind;
use serde_json::{json, Value};

/// One stream over `kind` that fails: with the server's `words`, or with none.
pub fn failing_stream(kind: TransportKind, words: Option<&str>) -> String {
    let data = |v: Value| format!("data: {v}\n\n");
    match (kind, words) {
        (TransportKind::ChatCompletions, Some(w)) => data(json!({"error": {"message": w}})),
        (TransportKind::ChatCompletions, None) => data(json!({"error": {"type": "server_error"}})),
        (TransportKind::Responses, Some(w)) => data(json!({"type": "error", "message": w})),
        (TransportKind::Responses, None) => data(json!({"type": "error", "code": "server_error"})),
        (TransportKind::A2a, Some(w)) => {
            data(json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32603, "message": w}}))
        }
        (TransportKind::A2a, None) => {
            data(json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32603}}))
        }
        (TransportKind::Cogitator, Some(w)) => data(json!({"type": "error", "message": w})),
        (TransportKind::Cogitator, None) => data(json!({"type": "error"})),
        (TransportKind::AiSdk, Some(w)) => data(json!({"type": "error", "errorText": w})),
        (TransportKind::AiSdk, None) => data(json!({"type": "error"})),
        (TransportKind::AgUi, Some(w)) => data(json!({"type": "RUN_ERROR", "message": w})),
        (TransportKind::AgUi, None) => data(json!({"type": "RUN_ERROR"})),
        (TransportKind::Langgraph, Some(w)) => {
            format!("event: error\ndata: {}\n\n", json!({"message": w}))
        }
        (TransportKind::Langgraph, None) => "event: error\ndata: {}\n\n".to_owned(),
        (other, _) => unreachable!("{other:?} has no wire of its own"),
    }
}
