//! Answering a card through a backend without conversations of its own (issue 15).
//!
//! The session answers a card as it would on the agent server: E14
//! `POST /conversations/:cid/actions/:aid` with `{resolution, stream, decisionKey, version?}`
//! (PROTOCOL §9.5). The gateway finds the open action in the thread (on the stored reply that
//! waits on it), asks the backend's own endpoint, and plays E14's answer back: once the
//! backend took the answer (its first byte of a stream, or a 2xx whole reply), the card
//! settles with `stream.action_resolved` and the answer is kept on the stored reply
//! (`actionStates`, so a reload reads "Answered"); the backend's continuation is read with
//! its own decoder, exactly like a send, into a new assistant message (which may again wait
//! on actions). A refusal reaches the session as the agent server's error envelope, so the
//! card goes back to waiting with the backend's wording, or settles when it says the action
//! is gone.
//!
//! Where the answer goes, by backend:
//! - Responses (the Cognipeer Console client API, C20): `POST {actionUrl}` with the E14 body
//!   plus `previous_response_id` (the response that waits) and `model`; the continuation is a
//!   new response, streamed as Responses events or answered whole.
//! - Cogitator (C31): `POST /agents/:name/resume` with `{threadId, decisions: {[toolCallId]:
//!   {approved}}}` deciding this one call; the continuation is the run's answer (paused
//!   again with the calls still undecided, or completed); `THREAD_ACCESS_DENIED` and
//!   `RUN_NOT_PAUSED` read as `action_forbidden` and `action_not_pending`.
//! - A2A (C19): `POST {actionUrl}` with `{conversationId, actionId, resolution}`, where
//!   `conversationId` is the A2A context (the conversation's id on the agent's side; the
//!   page's own id when there is none yet), plus `taskId`, `stream` and `decisionKey`; the
//!   continuation is read as A2A results (JSON-RPC responses, streamed or whole).
//! - An agent in the page (D65): a resume turn at its internal path with the stored action
//!   and the answer, which the edge gives the agent in the agent-sdk's shapes; the
//!   continuation is read as its event lines.

use std::collections::VecDeque;

use serde_json::{json, Value};

use super::super::threads::Thread;
use super::super::{a2a, cogitator, in_process};
use super::super::{GatewayOutput, TransportKind};
use super::{Decoder, Out, Stateless, WireTurn, CHAIN_KEY};
use crate::core::time::{format_iso, Millis};
use crate::core::{encode, HttpRequest, Method, RequestId};

/// The card a wire turn answers.
#[derive(Debug)]
pub(super) struct Answering {
    /// The action's id.
    pub action_id: String,
    /// The stored reply that waits on it (where its answer is kept).
    pub message_id: String,
    /// The answer, as the session sent it (§9.2).
    pub resolution: Value,
    /// Whether the backend took it (the card is settled).
    pub accepted: bool,
}

/// `{actionId}` and `{conversationId}` of a configured action URL, filled in (encoded).
pub(super) fn fill_action_url(template: &str, action_id: &str, conversation_id: &str) -> String {
    template
        .replace("{actionId}", &encode(action_id))
        .replace("{conversationId}", &encode(conversation_id))
}

/// An agent-server error envelope (§2) with its HTTP status.
fn refusal(code: &str, message: &str) -> String {
    json!({ "error": { "code": code, "message": message } }).to_string()
}

impl Stateless {
    /// E14 for a stateless backend: see the module docs.
    pub(super) fn answer(
        &mut self,
        session: RequestId,
        conversation_id: &str,
        action_id: &str,
        body: &Value,
        stream: bool,
        outputs: &mut VecDeque<GatewayOutput>,
    ) {
        if !self.options.can_resolve() {
            let body = refusal(
                "NOT_SUPPORTED",
                "This backend does not take answers to requests.",
            );
            return Out(outputs).respond(session, 404, body);
        }
        let Some(thread) = self.threads.iter().find(|t| t.id() == conversation_id) else {
            return Out(outputs).not_found(session, "Conversation");
        };
        let Some((message_id, action)) = open_action(&thread.messages, action_id) else {
            let body = refusal(
                "action_not_pending",
                "This request is no longer waiting for an answer.",
            );
            return Out(outputs).respond(session, 409, body);
        };
        let resolution = body["resolution"].clone();
        let metadata = &thread.conversation["metadata"];
        let template = self.options.action_url.clone().unwrap_or_default();
        let (path, wire_body) = match self.options.kind {
            TransportKind::Responses => {
                let mut wire = body.clone();
                wire["stream"] = Value::from(stream);
                if let Some(previous) = metadata[CHAIN_KEY].as_str() {
                    wire["previous_response_id"] = Value::from(previous);
                }
                let model = self
                    .options
                    .model
                    .clone()
                    .unwrap_or_else(|| thread.agent_id().to_owned());
                wire["model"] = Value::from(model);
                (fill_action_url(&template, action_id, conversation_id), wire)
            }
            TransportKind::A2a => {
                let context = metadata[a2a::CONTEXT_KEY]
                    .as_str()
                    .unwrap_or(conversation_id)
                    .to_owned();
                let mut wire = json!({ "conversationId": context, "actionId": action_id,
                                       "resolution": resolution, "stream": stream });
                if let Some(task) = metadata[a2a::TASK_KEY].as_str() {
                    wire["taskId"] = Value::from(task);
                }
                if let Some(key) = body.get("decisionKey") {
                    wire["decisionKey"] = key.clone();
                }
                (fill_action_url(&template, action_id, &context), wire)
            }
            TransportKind::Cogitator => {
                let thread_id = cogitator::thread_id(conversation_id, metadata);
                match cogitator::answer_request(
                    thread.agent_id(),
                    thread_id,
                    action_id,
                    &resolution,
                ) {
                    Some(request) => request,
                    None => {
                        let body = refusal(
                            "VALIDATION_ERROR",
                            "This backend takes only approvals and denials.",
                        );
                        return Out(outputs).respond(session, 400, body);
                    }
                }
            }
            TransportKind::InProcess => {
                let history = &thread.messages;
                let wire = in_process::resume_body(
                    thread.agent_id(),
                    conversation_id,
                    history,
                    action,
                    &resolution,
                );
                (in_process::PATH.to_owned(), wire)
            }
            _ => {
                let body = refusal(
                    "NOT_SUPPORTED",
                    "This backend does not take answers to requests.",
                );
                return Out(outputs).respond(session, 404, body);
            }
        };
        let wire = self.next_wire_id();
        let req = HttpRequest {
            id: wire,
            method: Method::Post,
            path,
            body: Some(wire_body.to_string()),
        };
        outputs.push_back(if stream {
            GatewayOutput::OpenStream(req)
        } else {
            GatewayOutput::Send(req)
        });
        self.turns.push(WireTurn {
            wire,
            session,
            stream,
            conversation_id: conversation_id.to_owned(),
            user: Value::Null,
            first: false,
            decoder: Decoder::new(self.options.kind),
            text: String::new(),
            started: false,
            failed: false,
            answering: Some(Answering {
                action_id: action_id.to_owned(),
                message_id,
                resolution,
                accepted: false,
            }),
            settles: Vec::new(),
        });
    }

    /// The backend took the answer of turn `pos` (if it is one): the answer is kept on the
    /// reply that waited (`actionStates`, §9.6 source 1) and, on a stream, the card settles
    /// with `stream.action_resolved` before the continuation (C7).
    pub(super) fn accept_answer(
        &mut self,
        now: Millis,
        turn: &mut WireTurn,
        outputs: &mut VecDeque<GatewayOutput>,
    ) {
        let Some(answering) = turn.answering.as_mut().filter(|a| !a.accepted) else {
            return;
        };
        answering.accepted = true;
        let (session, stream) = (turn.session, turn.stream);
        let conversation_id = turn.conversation_id.clone();
        let action_id = answering.action_id.clone();
        let message_id = answering.message_id.clone();
        let resolution = answering.resolution.clone();
        self.keep_answer(now, &conversation_id, &message_id, &action_id, &resolution);
        self.save(&conversation_id, outputs);
        if stream {
            let event = json!({ "type": "stream.action_resolved",
                                "conversationId": conversation_id, "actionId": action_id,
                                "status": "resolved", "resolution": resolution });
            Out(outputs).frame(session, now, event);
        }
    }

    /// Keeps a settled answer on the stored reply that waited for it.
    pub(super) fn keep_answer(
        &mut self,
        now: Millis,
        conversation_id: &str,
        message_id: &str,
        action_id: &str,
        resolution: &Value,
    ) {
        let Some(thread) = self.thread_mut(conversation_id) else {
            return;
        };
        let Some(message) = thread.messages.iter_mut().find(|m| m["id"] == message_id) else {
            return;
        };
        if !message["actionStates"].is_object() {
            message["actionStates"] = json!({});
        }
        let mut state = json!({ "status": "resolved", "resolvedAt": format_iso(now) });
        if !resolution.is_null() {
            state["resolution"] = resolution.clone();
        }
        message["actionStates"][action_id] = state;
    }

    /// E14's whole answer (`stream: false`, §9.5 C7): the settled action, and the
    /// continuation's message with the actions it waits on.
    pub(super) fn answer_body(
        &self,
        turn: &WireTurn,
        message: &Value,
        pending: Option<&Value>,
    ) -> Value {
        let answering = turn.answering.as_ref();
        let action = answering
            .and_then(|a| {
                let thread = self
                    .threads
                    .iter()
                    .find(|t| t.id() == turn.conversation_id)?;
                let (_, action) = find_action(&thread.messages, &a.action_id)?;
                let mut action = action.clone();
                action["status"] = Value::from("resolved");
                action["resolution"] = a.resolution.clone();
                Some(action)
            })
            .unwrap_or(Value::Null);
        let mut body = json!({ "action": action, "message": message,
            "status": if pending.is_some() { "requires_action" } else { "completed" } });
        if let Some(actions) = pending {
            body["pendingActions"] = actions.clone();
        }
        body
    }
}

/// The cards of `thread` that still wait, settled with `status` (`resolved`: answered by the
/// person's message; `cancelled`: left behind) and kept so on their reply (`actionStates`);
/// returns their ids with the status.
pub(super) fn settled_by_message(
    thread: &mut Thread,
    at: String,
    status: &'static str,
) -> Vec<(String, &'static str)> {
    let mut settled = Vec::new();
    for message in thread.messages.iter_mut().rev() {
        let open: Vec<String> = message["metadata"]["pendingActions"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|a| a["id"].as_str())
            .filter(|id| message["actionStates"].get(*id).is_none())
            .map(str::to_owned)
            .collect();
        if open.is_empty() {
            continue;
        }
        if !message["actionStates"].is_object() {
            message["actionStates"] = json!({});
        }
        for id in open {
            message["actionStates"][id.as_str()] = json!({ "status": status, "resolvedAt": at });
            settled.push((id, status));
        }
    }
    settled
}

/// The stored reply that lists `action_id` among the actions it waits on, and the action.
fn find_action<'a>(messages: &'a [Value], action_id: &str) -> Option<(String, &'a Value)> {
    messages.iter().rev().find_map(|m| {
        let action = m["metadata"]["pendingActions"]
            .as_array()?
            .iter()
            .find(|a| a["id"] == action_id)?;
        Some((m["id"].as_str()?.to_owned(), action))
    })
}

/// Like [`find_action`], for an action that still waits (no answer kept for it yet).
fn open_action<'a>(messages: &'a [Value], action_id: &str) -> Option<(String, &'a Value)> {
    let (message_id, action) = find_action(messages, action_id)?;
    let message = messages.iter().find(|m| m["id"] == message_id.as_str())?;
    let settled = message["actionStates"].get(action_id).is_some()
        || matches!(
            action["status"].as_str(),
            Some("resolved" | "cancelled" | "expired")
        );
    (!settled).then_some((message_id, action))
}
