//! A conversation as its thread's state on the server shows it (`GET /threads/{thread}/state`,
//! what the SDK's `useStream` reads on load): the messages, and the interrupts the thread
//! waits on (each waiting task's `interrupts`).
//!
//! The page's own copy wins while it is not behind: it keeps the answers given in its cards,
//! which the state does not hold. It is behind when it is missing (another device, empty
//! storage), when the server has more of the person's messages, or when the server's last
//! reply is in none of the page's replies (a run answered elsewhere). Then the conversation
//! is read from the state: the person's messages, each AI message with its tool calls and
//! their results. Either way the cards follow the server: a card whose interrupt no longer
//! waits is settled (answered elsewhere), and an interrupt the page does not show becomes a
//! card on the last reply (on a reply of its own, with an id made from the interrupt's, when
//! the last message is the person's), so every tab builds the same one.

use serde_json::{json, Value};

use super::{card, INTERRUPT_KEY};
use crate::transport::reply::content_text;
use crate::transport::threads::{title_from, Thread};

/// The interrupts a state waits on, once each: its waiting tasks' `interrupts`, and a
/// top-level `interrupts` list where the server gives one.
pub fn waiting(state: &Value) -> Vec<&Value> {
    let mut seen: Vec<&Value> = Vec::new();
    let tasks = state["tasks"].as_array().into_iter().flatten();
    let lists = tasks
        .map(|t| &t["interrupts"])
        .chain(std::iter::once(&state["interrupts"]));
    for interrupt in lists.filter_map(Value::as_array).flatten() {
        if interrupt["id"].is_string() && !seen.iter().any(|s| s["id"] == interrupt["id"]) {
            seen.push(interrupt);
        }
    }
    seen
}

fn is_human(message: &Value) -> bool {
    matches!(message["type"].as_str(), Some("human" | "HumanMessage"))
}

fn is_ai(message: &Value) -> bool {
    matches!(
        message["type"].as_str(),
        Some("ai" | "AIMessage" | "AIMessageChunk")
    )
}

/// The conversation `local` (the page's copy, if any) brought in line with the thread's
/// `state` (the server's answer, as text) at `at`; `agent` names the assistant of a
/// conversation read from the server alone. `None` when the answer is not a thread state.
pub fn read(
    conversation_id: &str,
    agent: &str,
    local: Option<&Thread>,
    state: &str,
    at: &str,
) -> Option<Thread> {
    let state: Value = serde_json::from_str(state).ok()?;
    if !state["values"].is_object() {
        return None;
    }
    let server: &[Value] = state["values"]["messages"]
        .as_array()
        .map_or(&[], Vec::as_slice);
    let cards: Vec<Value> = waiting(&state).into_iter().filter_map(card).collect();
    let mut thread = match local {
        Some(local) if !behind(local, server) => local.clone(),
        _ => from_server(conversation_id, agent, local, server, at)?,
    };
    settle_gone(&mut thread, &cards, at);
    show_waiting(&mut thread, cards, at);
    Some(thread)
}

/// Whether the page's copy lacks what the server has (see the module docs).
fn behind(local: &Thread, server: &[Value]) -> bool {
    let users = local.messages.iter().filter(|m| m["role"] == "user").count();
    if server.iter().filter(|m| is_human(m)).count() > users {
        return true;
    }
    let last_reply = server
        .iter()
        .rev()
        .filter(|m| is_ai(m))
        .map(|m| content_text(&m["content"]))
        .find(|t| !t.trim().is_empty());
    last_reply.is_some_and(|text| {
        !local.messages.iter().any(|m| {
            m["role"] == "assistant" && m["content"].as_str().is_some_and(|c| c.contains(&text))
        })
    })
}

/// The conversation read from the server's messages; the page's record (title, agent) kept
/// when it has one.
fn from_server(
    conversation_id: &str,
    agent: &str,
    local: Option<&Thread>,
    server: &[Value],
    at: &str,
) -> Option<Thread> {
    if local.is_none() && server.is_empty() {
        return None;
    }
    let conversation = match local {
        Some(local) => local.conversation.clone(),
        None => {
            let mut record = json!({ "id": conversation_id, "agentId": agent, "metadata": {},
                                     "createdAt": at, "updatedAt": at });
            if let Some(first) = server.iter().find(|m| is_human(m)) {
                let text = content_text(&first["content"]);
                if !text.trim().is_empty() {
                    record["title"] = Value::from(title_from(&text));
                }
            }
            record
        }
    };
    let mut thread = Thread::new(conversation);
    for (i, message) in server.iter().enumerate() {
        let id = message["id"]
            .as_str()
            .filter(|id| !id.is_empty())
            .map_or_else(|| format!("{conversation_id}_{i}"), str::to_owned);
        let stored = json!({ "id": id, "conversationId": conversation_id,
                             "content": content_text(&message["content"]),
                             "createdAt": at, "updatedAt": at });
        if is_human(message) {
            let mut stored = stored;
            stored["role"] = Value::from("user");
            thread.messages.push(stored);
        } else if is_ai(message) {
            if let Some(reply) = reply(stored, message, server) {
                thread.messages.push(reply);
            }
        }
    }
    Some(thread)
}

/// An AI message as a stored reply, with its tool calls and the results the server holds for
/// them; `None` when it says nothing.
fn reply(mut stored: Value, message: &Value, server: &[Value]) -> Option<Value> {
    stored["role"] = Value::from("assistant");
    let calls: Vec<&Value> = message["tool_calls"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["id"].is_string() && c["name"].is_string())
        .collect();
    if stored["content"] == "" && calls.is_empty() {
        return None;
    }
    if calls.is_empty() {
        return Some(stored);
    }
    let args = |c: &Value| match &c["args"] {
        Value::Object(_) => c["args"].clone(),
        _ => json!({}),
    };
    stored["toolCalls"] = calls
        .iter()
        .map(|c| json!({ "id": c["id"], "name": c["name"], "arguments": args(c).to_string() }))
        .collect();
    let details: Vec<Value> = calls
        .iter()
        .map(|c| {
            let mut detail = json!({ "id": c["id"], "name": c["name"], "args": args(c) });
            let result = server.iter().find(|m| {
                matches!(m["type"].as_str(), Some("tool" | "ToolMessage"))
                    && m["tool_call_id"] == c["id"]
            });
            if let Some(result) = result {
                detail["result"] = match &result["content"] {
                    Value::Null => Value::from(""),
                    other => other.clone(),
                };
            }
            detail
        })
        .collect();
    stored["metadata"] = json!({ "toolCallDetails": details });
    Some(stored)
}

/// Settles the page's open interrupt cards the server no longer waits on.
fn settle_gone(thread: &mut Thread, cards: &[Value], at: &str) {
    for message in &mut thread.messages {
        let gone: Vec<String> = message["metadata"]["pendingActions"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|a| a.get(INTERRUPT_KEY).is_some())
            .filter(|a| matches!(a["status"].as_str(), None | Some("pending")))
            .filter_map(|a| a["id"].as_str())
            .filter(|id| message["actionStates"].get(*id).is_none())
            .filter(|id| !cards.iter().any(|c| c["id"] == *id))
            .map(str::to_owned)
            .collect();
        if gone.is_empty() {
            continue;
        }
        if !message["actionStates"].is_object() {
            message["actionStates"] = json!({});
        }
        for id in gone {
            message["actionStates"][id.as_str()] = json!({ "status": "resolved", "resolvedAt": at });
        }
    }
}

/// Shows the interrupts the page does not show yet (see the module docs).
fn show_waiting(thread: &mut Thread, cards: Vec<Value>, at: &str) {
    let shown = |id: &Value| {
        thread.messages.iter().any(|m| {
            m["metadata"]["pendingActions"]
                .as_array()
                .is_some_and(|list| list.iter().any(|a| &a["id"] == id))
        })
    };
    let missing: Vec<Value> = cards.into_iter().filter(|c| !shown(&c["id"])).collect();
    let Some(first) = missing.first() else {
        return;
    };
    let conversation_id = thread.id().to_owned();
    let last_is_open_reply = thread.messages.last().is_some_and(|m| {
        m["role"] == "assistant" && m["metadata"]["pendingActions"].as_array().is_none()
    });
    if !last_is_open_reply {
        let id = format!("interrupt_{}", first["id"].as_str().unwrap_or_default());
        thread.messages.push(json!({ "id": id, "conversationId": conversation_id,
            "role": "assistant", "content": "", "createdAt": at, "updatedAt": at }));
    }
    if let Some(last) = thread.messages.last_mut() {
        if !last["metadata"].is_object() {
            last["metadata"] = json!({});
        }
        last["metadata"]["pendingActions"] = Value::from(missing);
    }
}
