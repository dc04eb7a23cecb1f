//! Server-sent events framing exactly as PROTOCOL §6: one `data: <compact JSON>` line per event,
//! a blank line after it, no `event:`/`id:` lines, response closed after the last event.

use std::convert::Infallible;

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;
use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};
use tokio_stream::wrappers::UnboundedReceiverStream;

use crate::model::now_ms;

/// Sending half of an event stream; the response ends when every sender is dropped.
pub type EventSender = UnboundedSender<Value>;

/// Builds a stream event: `fields` plus `type` and `timestamp` (epoch ms).
pub fn event(kind: &str, fields: Value) -> Value {
    let mut v = match fields {
        Value::Object(map) => Value::Object(map),
        _ => json!({}),
    };
    if let Some(obj) = v.as_object_mut() {
        obj.insert("type".into(), json!(kind));
        obj.insert("timestamp".into(), json!(now_ms()));
    }
    v
}

/// One SSE frame: `data: <compact JSON>\n\n`.
pub fn frame(event: &Value) -> String {
    format!("data: {event}\n\n")
}

/// A fresh event channel.
pub fn channel() -> (EventSender, UnboundedReceiver<Value>) {
    unbounded_channel()
}

/// A 200 `text/event-stream` response that relays every event sent on the channel.
pub fn response(rx: UnboundedReceiver<Value>) -> Response {
    stream_response(UnboundedReceiverStream::new(rx))
}

/// Like [`response`], but the response ends after the first `n` events, as if the connection
/// dropped: the receiver goes away and the sender's later events are lost (the turn goes on).
pub fn response_cut_after(rx: UnboundedReceiver<Value>, n: usize) -> Response {
    stream_response(UnboundedReceiverStream::new(rx).take(n))
}

fn stream_response(events: impl futures_util::Stream<Item = Value> + Send + 'static) -> Response {
    let stream = events.map(|ev| Ok::<Bytes, Infallible>(Bytes::from(frame(&ev))));
    let mut res = Response::new(Body::from_stream(stream));
    *res.status_mut() = StatusCode::OK;
    let headers = res.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
    res
}

/// A stream holding a single `stream.error` event (PROTOCOL §5: access problems while streaming).
pub fn error_response(message: &str, code: &str) -> Response {
    let (tx, rx) = channel();
    // The receiver is alive until the response is consumed, so the send cannot fail here.
    let _ = tx.send(event(
        "stream.error",
        json!({ "error": message, "code": code }),
    ));
    drop(tx);
    response(rx)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_is_one_data_line_and_blank_line() {
        let ev = event("stream.text", json!({ "text": "hi" }));
        let f = frame(&ev);
        assert!(f.starts_with("data: {"));
        assert!(f.ends_with("}\n\n"));
        assert_eq!(f.matches('\n').count(), 2);
        assert_eq!(ev["type"], "stream.text");
        assert!(ev["timestamp"].is_i64());
    }
}
