//! `useChat`'s requests from the stored conversation: the body of `DefaultChatTransport`,
//! the person's message, and the conversation as the SDK holds it, approvals answered.

use serde_json::{json, Value};

use super::super::reply::{content_text, WireFile};
use super::MESSAGE_KEY;

/// The request body of a turn (`DefaultChatTransport`): the chat id, the whole conversation
/// as UI messages, `trigger: "submit-message"`, and, for an answer, the id of the message
/// whose approvals it answers.
pub fn request_body(chat_id: &str, messages: Vec<Value>, message_id: Option<&str>) -> Value {
    let mut body = json!({ "id": chat_id, "messages": messages, "trigger": "submit-message" });
    if let Some(id) = message_id {
        body["messageId"] = Value::from(id);
    }
    body
}

/// The person's new message: its files (as data URLs, before the text, as `useChat` puts
/// them) and its text.
pub fn user_message(id: &str, text: &str, files: &[WireFile]) -> Value {
    let mut parts: Vec<Value> = files
        .iter()
        .map(|f| {
            json!({ "type": "file", "mediaType": f.mime_type, "filename": f.name,
                    "url": format!("data:{};base64,{}", f.mime_type, f.content) })
        })
        .collect();
    parts.push(json!({ "type": "text", "text": text }));
    json!({ "id": id, "role": "user", "parts": parts })
}

/// An answer to an approval card (`{decision, comment?}` or `{approved, reason?}`): whether
/// it approves, and the reason of a denial; `None` for anything else.
pub fn approval_answer(resolution: &Value) -> Option<(bool, Option<String>)> {
    let approved = match resolution["decision"].as_str() {
        Some(d) => match d.to_ascii_lowercase().as_str() {
            "allow" | "approve" | "approved" => true,
            "deny" | "reject" | "rejected" | "denied" => false,
            _ => return None,
        },
        None => resolution["approved"].as_bool()?,
    };
    let reason = resolution["comment"]
        .as_str()
        .or_else(|| resolution["reason"].as_str())
        .map(str::trim)
        .filter(|r| !r.is_empty() && !approved)
        .map(str::to_owned);
    Some((approved, reason))
}

/// The conversation as `useChat` holds it, from the stored messages: user messages as kept
/// with them (their files too), else with their text; each run of replies one assistant message (an answer's continuation goes on
/// the message that asked), its tool parts updated by the outputs reported later; and every
/// approval answered here (kept on the stored replies, plus `answer`: the card being answered
/// now, with its resolution) as `approval-responded`.
pub fn ui_messages(history: &[Value], answer: Option<(&str, &Value)>) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    let mut answers: Vec<(String, bool, Option<String>)> = Vec::new();
    let mut in_reply = false;
    for m in history {
        match m["role"].as_str() {
            Some("user") => {
                let kept = &m["metadata"][MESSAGE_KEY];
                if kept["parts"].is_array() {
                    out.push(kept.clone());
                } else {
                    let text = content_text(&m["content"]);
                    let id = m["id"].as_str().unwrap_or_default();
                    out.push(json!({ "id": id, "role": "user",
                                     "parts": [{ "type": "text", "text": text }] }));
                }
                in_reply = false;
            }
            Some("assistant") => {
                let record = &m["metadata"][MESSAGE_KEY];
                let parts = match record["parts"].as_array() {
                    Some(parts) => parts.clone(),
                    None => {
                        let text = content_text(&m["content"]);
                        let text = (!text.is_empty()).then(|| json!({ "type": "text", "text": text }));
                        text.into_iter().collect()
                    }
                };
                match out.last_mut().filter(|_| in_reply) {
                    Some(last) => {
                        if let Some(list) = last["parts"].as_array_mut() {
                            list.extend(parts);
                        }
                    }
                    None => {
                        let id = record["id"].as_str().or_else(|| m["id"].as_str());
                        out.push(json!({ "id": id.unwrap_or_default(), "role": "assistant",
                                         "parts": parts }));
                    }
                }
                if let Some(list) = out.last_mut().and_then(|l| l["parts"].as_array_mut()) {
                    for output in record["outputs"].as_array().into_iter().flatten() {
                        apply_output(list, output);
                    }
                }
                answers.extend(kept_answers(m));
                in_reply = true;
            }
            _ => {}
        }
    }
    if let Some((id, resolution)) = answer {
        if let Some((approved, reason)) = approval_answer(resolution) {
            answers.push((id.to_owned(), approved, reason));
        }
    }
    for message in out.iter_mut().filter(|m| m["role"] == "assistant") {
        for part in message["parts"].as_array_mut().into_iter().flatten() {
            if !part["approval"].is_object() || !part["approval"]["approved"].is_null() {
                continue;
            }
            let id = part["approval"]["id"].as_str().unwrap_or_default();
            if let Some((_, approved, reason)) = answers.iter().find(|(a, _, _)| a == id) {
                // A part its outputs moved on keeps their state, and the answer.
                if part["state"] == "approval-requested" {
                    part["state"] = Value::from("approval-responded");
                }
                part["approval"]["approved"] = Value::from(*approved);
                if let Some(reason) = reason {
                    part["approval"]["reason"] = Value::from(reason.as_str());
                }
            }
        }
    }
    out
}

/// The answers this page kept on a stored reply (`actionStates`, resolved with a
/// resolution).
fn kept_answers(message: &Value) -> Vec<(String, bool, Option<String>)> {
    let Some(states) = message["actionStates"].as_object() else {
        return Vec::new();
    };
    states
        .iter()
        .filter(|(_, s)| s["status"] == "resolved")
        .filter_map(|(id, s)| {
            let (approved, reason) = approval_answer(&s["resolution"])?;
            Some((id.clone(), approved, reason))
        })
        .collect()
}

/// The tool calls of the stored reply `reply` whose cards were approved here and have not
/// run yet (no stage of execution kept on the card).
pub fn approved_calls(reply: &Value) -> Vec<String> {
    reply["metadata"]["pendingActions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|a| a["type"] == "tool_approval" && a["executionStatus"].is_null())
        .filter(|a| {
            let id = a["id"].as_str().unwrap_or_default();
            let state = &reply["actionStates"][id];
            state["status"] == "resolved"
                && approval_answer(&state["resolution"]).is_some_and(|(approved, _)| approved)
        })
        .filter_map(|a| a["toolCallId"].as_str().map(str::to_owned))
        .collect()
}

/// The UI message id of the assistant message that holds the approval `approval_id`.
pub fn message_of(messages: &[Value], approval_id: &str) -> Option<String> {
    messages
        .iter()
        .filter(|m| m["role"] == "assistant")
        .find(|m| {
            m["parts"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|p| p["approval"]["id"] == approval_id)
        })
        .and_then(|m| m["id"].as_str().map(str::to_owned))
}

/// The tool name of a tool part (`tool-<name>`, or a dynamic tool's `toolName`).
pub(super) fn tool_name(part: &Value) -> Option<&str> {
    match part["type"].as_str()? {
        "dynamic-tool" => part["toolName"].as_str(),
        other => other.strip_prefix("tool-"),
    }
}

pub(super) fn is_tool_part(part: &Value) -> bool {
    tool_name(part).is_some() && part["toolCallId"].is_string()
}

/// Applies a `tool-output-*` chunk to the latest tool part of its call; `false` when no part
/// has it.
pub(super) fn apply_output(parts: &mut [Value], chunk: &Value) -> bool {
    let id = &chunk["toolCallId"];
    let Some(part) = parts
        .iter_mut()
        .rev()
        .find(|p| is_tool_part(p) && p["toolCallId"] == *id)
    else {
        return false;
    };
    match chunk["type"].as_str() {
        Some("tool-output-available") => {
            part["state"] = Value::from("output-available");
            part["output"] = chunk["output"].clone();
            if chunk["preliminary"] == true {
                part["preliminary"] = Value::Bool(true);
            } else if let Some(p) = part.as_object_mut() {
                p.remove("preliminary");
            }
        }
        Some("tool-output-error") => {
            part["state"] = Value::from("output-error");
            part["errorText"] = chunk["errorText"].clone();
        }
        Some("tool-output-denied") => part["state"] = Value::from("output-denied"),
        _ => return false,
    }
    if chunk["providerMetadata"].is_object() {
        part["resultProviderMetadata"] = chunk["providerMetadata"].clone();
    }
    true
}

