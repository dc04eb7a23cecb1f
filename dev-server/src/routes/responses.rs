//! A scripted OpenAI Responses endpoint (issue 15): `POST /v1/responses`, on the same port as
//! the agent server (`?transport=responses&baseUrl=/v1`). Deterministic and stateless: a
//! reply's id counts the turns of its chain (`resp_<n>`), so `previous_response_id` is checked
//! (an id this server cannot have made is refused, as OpenAI refuses an unknown one) and the
//! answer says which turn it is. A message that mentions the weather gets a `get_weather`
//! function call and a url citation; one that asks to send an email stops with
//! `status: "requires_action"` and a pending approval (Cognipeer Console, PROTOCOL C20);
//! anything else is echoed. Streamed as `event:` + `data:` frames, or whole.
//!
//! `POST /v1/actions/:actionId` is the Console's action endpoint (`actionUrl`, C20): it takes
//! `{resolution, stream, previous_response_id}` for the approval a response waits on
//! (`act_resp_<n>` belongs to `resp_<n>`; any other pair is refused as no longer pending) and
//! answers with the continuation, a new response chained to it: the email sent, or not.

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

use super::openai::{invalid, text_of};

const CITATION_URL: &str = "https://weather.example/izmir";

/// `POST /v1/responses`.
pub async fn responses(body: Bytes) -> Response {
    let request: Value = match serde_json::from_slice(&body) {
        Ok(v) => v,
        Err(e) => return invalid(&format!("We could not parse the JSON body: {e}")),
    };
    let last = match &request["input"] {
        Value::String(s) => s.clone(),
        Value::Array(items) => items
            .iter()
            .rev()
            .find(|m| m["role"] == "user")
            .map(|m| text_of(&m["content"]))
            .unwrap_or_default(),
        _ => return invalid("'input' is a required property"),
    };
    let turn = match request["previous_response_id"].as_str() {
        None => 1,
        Some(previous) => match previous
            .strip_prefix("resp_")
            .and_then(|n| n.parse::<u64>().ok())
        {
            Some(n) => n + 1,
            None => {
                let body = json!({ "error": { "type": "invalid_request_error",
                    "code": "previous_response_not_found", "param": "previous_response_id",
                    "message": format!("Previous response with id '{previous}' not found.") } });
                return (StatusCode::BAD_REQUEST, axum::Json(body)).into_response();
            }
        },
    };
    let id = format!("resp_{turn}");
    let model = request["model"].as_str().unwrap_or("scripted").to_owned();
    let lower = last.to_lowercase();
    let script = if lower.contains("weather") {
        Script::Weather
    } else if lower.contains("email") {
        Script::Approval
    } else {
        Script::Echo(format!("You said: {last} (turn {turn})"))
    };
    if request["stream"] == true {
        stream(&id, &model, &script)
    } else {
        axum::Json(response(&id, &model, &script)).into_response()
    }
}

/// `POST /v1/actions/:actionId`: see the module docs.
pub async fn answer(
    axum::extract::Path(action_id): axum::extract::Path<String>,
    body: Bytes,
) -> Response {
    let request: Value = match serde_json::from_slice(&body) {
        Ok(v) => v,
        Err(e) => return invalid(&format!("We could not parse the JSON body: {e}")),
    };
    let previous = request["previous_response_id"].as_str().unwrap_or_default();
    let turn = previous
        .strip_prefix("resp_")
        .and_then(|n| n.parse::<u64>().ok());
    let Some(turn) = turn.filter(|_| action_id == format!("act_{previous}")) else {
        let body = json!({ "error": { "code": "action_not_pending",
            "message": format!("Action '{action_id}' is not waiting for an answer.") } });
        return (StatusCode::CONFLICT, axum::Json(body)).into_response();
    };
    let resolution = &request["resolution"];
    let text = match resolution["decision"].as_str() {
        Some("allow") => {
            let to = resolution["approvedArgs"]["to"]
                .as_str()
                .unwrap_or("ayse@example.com");
            format!("Sent the report to {to}.")
        }
        Some("deny") => match resolution["comment"].as_str() {
            Some(reason) if !reason.trim().is_empty() => {
                format!("I did not send it: {reason}")
            }
            _ => "I did not send it.".to_owned(),
        },
        _ => return invalid("'resolution.decision' must be allow or deny"),
    };
    let id = format!("resp_{}", turn + 1);
    let model = request["model"].as_str().unwrap_or("scripted").to_owned();
    let script = Script::Echo(text);
    if request["stream"] == true {
        stream(&id, &model, &script)
    } else {
        axum::Json(response(&id, &model, &script)).into_response()
    }
}

enum Script {
    Weather,
    Approval,
    Echo(String),
}

impl Script {
    fn text(&self) -> &str {
        match self {
            Script::Weather => "It is 24 °C in Izmir.",
            Script::Approval => "I need your approval to send it.",
            Script::Echo(text) => text,
        }
    }
}

fn function_call() -> Value {
    json!({ "type": "function_call", "id": "fc_weather", "call_id": "call_weather",
            "name": "get_weather", "arguments": "{\"city\":\"Izmir\"}", "status": "completed" })
}

fn annotations(script: &Script) -> Value {
    match script {
        Script::Weather => json!([{ "type": "url_citation", "url": CITATION_URL,
                                    "title": "Izmir weather", "start_index": 0, "end_index": 21 }]),
        _ => json!([]),
    }
}

/// The final response object.
fn response(id: &str, model: &str, script: &Script) -> Value {
    let mut output = Vec::new();
    if matches!(script, Script::Weather) {
        output.push(function_call());
    }
    output.push(
        json!({ "type": "message", "id": format!("msg_{id}"), "role": "assistant",
        "status": "completed",
        "content": [{ "type": "output_text", "text": script.text(),
                      "annotations": annotations(script) }] }),
    );
    let mut response = json!({ "id": id, "object": "response", "model": model,
        "status": "completed", "output": output,
        "usage": { "input_tokens": 9, "output_tokens": 7, "total_tokens": 16 } });
    if matches!(script, Script::Approval) {
        response["status"] = Value::from("requires_action");
        response["pendingActions"] = json!([{
            "id": format!("act_{id}"), "kind": "tool_approval", "status": "pending",
            "toolName": "send_email", "title": "Send the report by email",
            "args": { "to": "ayse@example.com", "subject": "Report" },
            "args_schema": { "type": "object", "required": ["to"],
                "properties": { "to": { "type": "string" }, "subject": { "type": "string" } } }
        }]);
    }
    response
}

fn frame(event: &str, data: Value) -> String {
    let mut data = data;
    data["type"] = Value::from(event);
    format!("event: {event}\ndata: {data}\n\n")
}

fn stream(id: &str, model: &str, script: &Script) -> Response {
    let created = json!({ "id": id, "object": "response", "model": model,
                          "status": "in_progress", "output": [] });
    let mut frames = vec![frame("response.created", json!({ "response": created }))];
    let mut index = 0;
    if matches!(script, Script::Weather) {
        let mut added = function_call();
        added["arguments"] = Value::from("");
        added["status"] = Value::from("in_progress");
        frames.push(frame(
            "response.output_item.added",
            json!({ "output_index": 0, "item": added }),
        ));
        for piece in ["{\"city\":", "\"Izmir\"}"] {
            frames.push(frame(
                "response.function_call_arguments.delta",
                json!({ "output_index": 0, "item_id": "fc_weather", "delta": piece }),
            ));
        }
        frames.push(frame(
            "response.output_item.done",
            json!({ "output_index": 0, "item": function_call() }),
        ));
        index = 1;
    }
    for word in script.text().split_inclusive(' ') {
        frames.push(frame(
            "response.output_text.delta",
            json!({ "output_index": index, "content_index": 0, "delta": word }),
        ));
    }
    for annotation in annotations(script).as_array().into_iter().flatten() {
        frames.push(frame(
            "response.output_text.annotation.added",
            json!({ "output_index": index, "content_index": 0, "annotation": annotation }),
        ));
    }
    frames.push(frame(
        "response.completed",
        json!({ "response": response(id, model, script) }),
    ));
    let mut res = Response::new(Body::from(frames.concat()));
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    res
}
