//! A scripted OpenAI Chat Completions endpoint (issue 15): `POST /v1/chat/completions`, the
//! same port as the agent server, so the page can be pointed at it with
//! `?transport=chat-completions&baseUrl=/v1`. Deterministic: a message that mentions the
//! weather gets a `get_weather` tool call (arguments streamed in two pieces) and an answer;
//! one that asks to email stops for a `send_email` call (`finish_reason: "tool_calls"`, no
//! text: the caller is to run it); anything else is echoed. Streamed as `data:` chunks ending with `[DONE]`, or whole.

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

/// `POST /v1/chat/completions`.
pub async fn chat_completions(body: Bytes) -> Response {
    let request: Value = match serde_json::from_slice(&body) {
        Ok(v) => v,
        Err(e) => return invalid(&format!("We could not parse the JSON body: {e}")),
    };
    let Some(messages) = request["messages"].as_array().filter(|m| !m.is_empty()) else {
        return invalid("'messages' is a required property");
    };
    let last = messages
        .iter()
        .rev()
        .find(|m| m["role"] == "user")
        .map(|m| text_of(&m["content"]))
        .unwrap_or_default();
    let model = request["model"].as_str().unwrap_or("scripted").to_owned();
    if last.to_lowercase().contains("email") {
        return email_call(&model, request["stream"] == true);
    }
    let weather = last.to_lowercase().contains("weather");
    let answer = if weather {
        "It is 24 °C in Izmir.".to_owned()
    } else {
        format!("You said: {last} ({} messages so far)", messages.len())
    };
    if request["stream"] == true {
        stream(&model, &answer, weather)
    } else {
        whole(&model, &answer, weather)
    }
}

pub(crate) fn text_of(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p["text"].as_str())
            .collect::<Vec<_>>()
            .join(" "),
        _ => String::new(),
    }
}

pub(crate) fn invalid(message: &str) -> Response {
    let body = json!({ "error": { "message": message, "type": "invalid_request_error",
                                  "code": "invalid_request" } });
    (StatusCode::BAD_REQUEST, axum::Json(body)).into_response()
}

fn chunk(model: &str, delta: Value, finish: Option<&str>) -> String {
    let v = json!({ "id": "chatcmpl-scripted", "object": "chat.completion.chunk", "model": model,
                    "choices": [{ "index": 0, "delta": delta, "finish_reason": finish }] });
    format!("data: {v}\n\n")
}

fn stream(model: &str, answer: &str, weather: bool) -> Response {
    let mut frames = vec![chunk(
        model,
        json!({ "role": "assistant", "content": "" }),
        None,
    )];
    if weather {
        frames.push(chunk(
            model,
            json!({ "tool_calls": [{ "index": 0, "id": "call_weather", "type": "function",
                    "function": { "name": "get_weather", "arguments": "{\"city\":" } }] }),
            None,
        ));
        frames.push(chunk(
            model,
            json!({ "tool_calls": [{ "index": 0, "function": { "arguments": "\"Izmir\"}" } }] }),
            None,
        ));
    }
    for word in answer.split_inclusive(' ') {
        frames.push(chunk(model, json!({ "content": word }), None));
    }
    frames.push(chunk(model, json!({}), Some("stop")));
    let usage = json!({ "id": "chatcmpl-scripted", "object": "chat.completion.chunk",
                        "model": model, "choices": [],
                        "usage": { "prompt_tokens": 9, "completion_tokens": 7, "total_tokens": 16 } });
    frames.push(format!("data: {usage}\n\n"));
    frames.push("data: [DONE]\n\n".to_owned());
    let mut res = Response::new(Body::from(frames.concat()));
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    res
}

/// A reply that stops for a `send_email` call, as a model does when it wants a tool run.
fn email_call(model: &str, streamed: bool) -> Response {
    let call = json!({ "id": "call_email", "type": "function", "function": {
        "name": "send_email", "arguments": "{\"to\":\"ayse@example.com\"}" } });
    if !streamed {
        let message = json!({ "role": "assistant", "content": null, "tool_calls": [call] });
        let body = json!({ "id": "chatcmpl-scripted", "object": "chat.completion",
            "model": model,
            "choices": [{ "index": 0, "message": message, "finish_reason": "tool_calls" }] });
        return axum::Json(body).into_response();
    }
    let mut piece = call;
    piece["index"] = json!(0);
    let frames = [
        chunk(model, json!({ "role": "assistant", "content": null }), None),
        chunk(model, json!({ "tool_calls": [piece] }), None),
        chunk(model, json!({}), Some("tool_calls")),
        "data: [DONE]\n\n".to_owned(),
    ];
    let mut res = Response::new(Body::from(frames.concat()));
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    res
}

fn whole(model: &str, answer: &str, weather: bool) -> Response {
    let mut message = json!({ "role": "assistant", "content": answer });
    if weather {
        message["tool_calls"] = json!([{ "id": "call_weather", "type": "function",
            "function": { "name": "get_weather", "arguments": "{\"city\":\"Izmir\"}" } }]);
    }
    let body = json!({ "id": "chatcmpl-scripted", "object": "chat.completion", "model": model,
                       "choices": [{ "index": 0, "message": message, "finish_reason": "stop" }],
                       "usage": { "prompt_tokens": 9, "completion_tokens": 7, "total_tokens": 16 } });
    axum::Json(body).into_response()
}
