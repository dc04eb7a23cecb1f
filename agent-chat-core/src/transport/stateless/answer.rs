//! Answering a card through a backend without conversations of its own.
//!
//! The session answers a card as it would on the agent server:
//! `POST /conversations/:cid/actions/:aid` with `{resolution, stream, decisionKey, version?}`.
//! The gateway finds the open action in the thread (on the stored reply that waits on it), asks
//! the backend's own endpoint, and plays the agent server's answer back: once the backend took
//! the answer (its first byte of a stream, or a 2xx whole reply), the card settles with
//! `stream.action_resolved` and the answer is kept on the stored reply (`actionStates`, so a
//! reload reads "Answered"); the backend's continuation is read with its own decoder, exactly
//! like a send, into a new assistant message (which may again wait on actions). A refusal
//! reaches the session as the agent server's error envelope, so the card goes back to waiting
//! with the backend's wording, or settles when it says the action is gone.
//!
//! A backend that [answers batches](super::super::backend::Backend::answers_batches) gets,
//! with the first answer of an "Approve all" / "Deny all", the other cards of the same reply
//! that the batch decides; once it took the request they are settled and kept too, and the
//! session's own answers to them, which follow, are answered from that without a request.
//!
//! Where the answer goes is the backend's ([`Backend::answer_request`]): a configured
//! action endpoint (Responses), a message on the waiting task (A2A), a resume of the paused
//! run (Cogitator), a resume turn of an agent in the page.
//!
//! [`Backend::answer_request`]: super::super::backend::Backend::answer_request

use std::collections::VecDeque;

use serde_json::{json, Value};

use super::super::backend::{takes_no_answers, AnswerCall, Refusal};
use super::super::GatewayOutput;
use super::{Out, Stateless, WireTurn};
use crate::endpoint::Endpoint;
use crate::time::{format_iso, Millis};
use crate::RequestId;

/// The word kept as `executionStatus` for a call whose outcome nobody will report: not one
/// the agent server uses, so it reads as no execution stage (the card shows the decision),
/// and unlike no word at all it replaces the `executing` an earlier record said.
const UNREPORTED: &str = "unreported";

/// The card a wire turn answers.
#[derive(Debug)]
pub(super) struct Answering {
    /// The action's id.
    pub action_id: String,
    /// The stored reply that waits on it (where its answer is kept).
    pub message_id: String,
    /// The answer, as the session sent it.
    pub resolution: Value,
    /// Whether the backend took it (the card is settled).
    pub accepted: bool,
    /// Cards of the same reply the request decides too, with the same answer.
    pub together: Vec<String>,
    /// The tool calls the backend runs now that it took the answer: their cards read
    /// Executing… until the outcome arrives on this turn (see [`Stateless::leave_unreported`]).
    pub running: Vec<String>,
}

impl Stateless {
    /// `POST /conversations/:cid/actions/:aid` for a stateless backend: see the module docs.
    pub(super) fn answer(
        &mut self,
        now: Millis,
        session: RequestId,
        call: &Endpoint,
        stream: bool,
        outputs: &mut VecDeque<GatewayOutput>,
    ) {
        let Endpoint::Resolve {
            conversation_id,
            action_id,
            resolution,
            decision_key,
            together,
            ..
        } = call
        else {
            let (status, body) = takes_no_answers();
            return Out(outputs).respond(session, status, body);
        };
        let (conversation_id, action_id) = (conversation_id.as_str(), action_id.as_str());
        if !self.backend.capabilities().can_resolve_with(&self.options) {
            let (status, body) = takes_no_answers();
            return Out(outputs).respond(session, status, body);
        }
        let taken = self
            .taken_together
            .iter()
            .position(|(c, a, r)| c == conversation_id && a == action_id && r == resolution);
        if let Some(pos) = taken {
            // Decided with an earlier card of its batch, with this same answer.
            self.taken_together.remove(pos);
            let body = self.settled_answer(conversation_id, action_id, resolution);
            return Out(outputs).respond(session, 200, body.to_string());
        }
        let Some(thread) = self.threads.iter().find(|t| t.id() == conversation_id) else {
            return Out(outputs).no_conversation(session);
        };
        let Some((message_id, action)) = open_action(&thread.messages, action_id) else {
            let (status, body) = Refusal::NotPending.response();
            return Out(outputs).respond(session, status, body);
        };
        // The rest of an "Approve all" that waits on the same reply, for a backend that
        // decides them in one request.
        let together: Vec<String> = if self.backend.answers_batches() {
            together
                .iter()
                .filter(|id| *id != action_id)
                .filter(|id| {
                    open_action(&thread.messages, id).is_some_and(|(m, _)| m == message_id)
                })
                .cloned()
                .collect()
        } else {
            Vec::new()
        };
        let body = call.body().unwrap_or_default();
        let call = self.backend.answer_request(&AnswerCall {
            options: &self.options,
            thread,
            action_id,
            action,
            resolution,
            decision_key,
            now,
            body: &body,
            stream,
            together: &together,
        });
        let call = match call {
            Ok(call) => call,
            Err((status, body)) => return Out(outputs).respond(session, status, body),
        };
        // Checked by the backend like any answer, it waits for the others of its reply.
        if self.backend.answers_together() && others_wait(&thread.messages, &message_id, action_id)
        {
            let held = (conversation_id, message_id.as_str(), action_id);
            return self.hold_answer(now, session, held, resolution, outputs);
        }
        let wire = self.next_wire_id();
        outputs.push_back(self.wire_output(wire, call, stream));
        self.turns.push(WireTurn {
            wire,
            session,
            stream,
            conversation_id: conversation_id.to_owned(),
            user: Value::Null,
            first: false,
            decoder: self.backend.decoder(),
            text: String::new(),
            started: false,
            failed: false,
            error: None,
            answering: Some(Answering {
                action_id: action_id.to_owned(),
                message_id,
                resolution: resolution.clone(),
                accepted: false,
                together,
                running: Vec::new(),
            }),
            settles: Vec::new(),
        });
    }

    /// An answer whose reply still waits on other cards, for a backend that takes them together:
    /// kept on the reply (so the last answer's request carries it, and a reload reads it), and
    /// `POST /conversations/:cid/actions/:aid` answered at once with the settled action and nothing
    /// to stream.
    fn hold_answer(
        &mut self,
        now: Millis,
        session: RequestId,
        (conversation_id, message_id, action_id): (&str, &str, &str),
        resolution: &Value,
        outputs: &mut VecDeque<GatewayOutput>,
    ) {
        self.keep_answer(now, conversation_id, message_id, action_id, resolution);
        self.save(conversation_id, outputs);
        let body = self.settled_answer(conversation_id, action_id, resolution);
        Out(outputs).respond(session, 200, body.to_string());
    }

    /// the answer of `POST /conversations/:cid/actions/:aid` for a card settled without a request
    /// of its own (held, or taken with another card's answer): the settled action, and nothing to
    /// stream.
    fn settled_answer(&self, conversation_id: &str, action_id: &str, resolution: &Value) -> Value {
        let action = self
            .threads
            .iter()
            .find(|t| t.id() == conversation_id)
            .and_then(|t| find_action(&t.messages, action_id))
            .map(|(_, action)| {
                let mut action = action.clone();
                action["status"] = Value::from("resolved");
                action["resolution"] = resolution.clone();
                action
            })
            .unwrap_or(Value::Null);
        json!({ "action": action, "status": "completed" })
    }

    /// The backend took the answer of turn `pos` (if it is one): the answer is kept on the
    /// reply that waited (`actionStates`) and, on a stream, the card settles
    /// with `stream.action_resolved` before the continuation.
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
        let together = answering.together.clone();
        self.keep_answer(now, &conversation_id, &message_id, &action_id, &resolution);
        for other in together {
            self.keep_answer(now, &conversation_id, &message_id, &other, &resolution);
            self.taken_together
                .push((conversation_id.clone(), other, resolution.clone()));
        }
        let running = self.mark_running(&conversation_id, &message_id);
        answering.running.clone_from(&running);
        self.save(&conversation_id, outputs);
        if stream {
            let event = json!({ "type": "stream.action_resolved",
                                "conversationId": conversation_id, "actionId": action_id,
                                "status": "resolved", "resolution": resolution });
            Out(outputs).frame(session, now, event);
            for call in running {
                if let Some(event) = self.execution_event(&conversation_id, &call) {
                    Out(outputs).frame(session, now, event);
                }
            }
        }
    }

    /// The calls the backend runs now that it took the answers kept on the reply
    /// `message_id`: each card asking about one is kept at `executionStatus: "executing"`
    /// until the call's outcome arrives. Returns their tool call ids.
    fn mark_running(&mut self, conversation_id: &str, message_id: &str) -> Vec<String> {
        let backend = &self.backend;
        let Some(thread) = self.threads.iter_mut().find(|t| t.id() == conversation_id) else {
            return Vec::new();
        };
        let Some(message) = thread.messages.iter_mut().find(|m| m["id"] == message_id) else {
            return Vec::new();
        };
        let calls = backend.runs_on_answer(message);
        for entry in message["metadata"]["pendingActions"]
            .as_array_mut()
            .into_iter()
            .flatten()
            .filter(|a| a["type"] == "tool_approval" && a["executionStatus"].is_null())
            .filter(|a| calls.iter().any(|c| a["toolCallId"] == c.as_str()))
        {
            entry["executionStatus"] = Value::from("executing");
        }
        calls
    }

    /// The answer's turn ended (its stream closed, failed or was stopped) while calls it ran
    /// still read Executing…: nothing will report their outcome any more (the backend keeps
    /// no conversations to ask), so their cards go back to what is known, the decision
    /// ("Approved"), instead of reading Executing… for ever ([`UNREPORTED`]). Kept, so a reload reads the same;
    /// `to_session`: the session still listens to this turn and hears it at once (else it
    /// reads the kept record when it next looks at the conversation).
    pub(super) fn leave_unreported(
        &mut self,
        now: Millis,
        turn: &WireTurn,
        to_session: bool,
        outputs: &mut VecDeque<GatewayOutput>,
    ) {
        let Some(answering) = turn.answering.as_ref().filter(|a| !a.running.is_empty()) else {
            return;
        };
        let conversation_id = turn.conversation_id.as_str();
        let Some(thread) = self.thread_mut(conversation_id) else {
            return;
        };
        let Some(message) = thread
            .messages
            .iter_mut()
            .find(|m| m["id"] == answering.message_id.as_str())
        else {
            return;
        };
        let mut left = Vec::new();
        for entry in message["metadata"]["pendingActions"]
            .as_array_mut()
            .into_iter()
            .flatten()
            .filter(|a| a["type"] == "tool_approval" && a["executionStatus"] == "executing")
        {
            let Some(call) = entry["toolCallId"].as_str() else {
                continue;
            };
            if answering.running.iter().any(|r| r == call) {
                left.push(call.to_owned());
                entry["executionStatus"] = Value::from(UNREPORTED);
            }
        }
        if left.is_empty() {
            return;
        }
        self.save(conversation_id, outputs);
        if to_session {
            for call in left {
                if let Some(event) = self.execution_event(conversation_id, &call) {
                    Out(outputs).frame(turn.session, now, event);
                }
            }
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
        // The record says so too: a reload before the continuation is stored (the last reply
        // is still the one that asked) must not draw the card waiting again.
        for entry in message["metadata"]["pendingActions"]
            .as_array_mut()
            .into_iter()
            .flatten()
            .filter(|a| a["id"] == action_id)
        {
            entry["status"] = Value::from("resolved");
        }
    }

    /// The whole answer of `POST /conversations/:cid/actions/:aid` (`stream: false`): the settled
    /// action, and the continuation's message with the actions it waits on.
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

/// Whether the reply `message_id` waits on cards other than `action_id`.
fn others_wait(messages: &[Value], message_id: &str, action_id: &str) -> bool {
    let Some(message) = messages.iter().find(|m| m["id"] == message_id) else {
        return false;
    };
    message["metadata"]["pendingActions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| a["id"].as_str().map(|id| (id, a)))
        .any(|(id, a)| {
            id != action_id
                && message["actionStates"].get(id).is_none()
                && matches!(a["status"].as_str(), None | Some("pending"))
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
