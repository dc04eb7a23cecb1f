//! The agent server, played in the page for a backend without conversations (issue 15):
//! the session's requests (PROTOCOL §3) are answered from the thread store, and a send
//! becomes the backend's request with the whole history, its reply read back as `stream.*`
//! frames (§6) or as E9's JSON.

mod answer;
mod decoder;
mod wire;

use std::collections::VecDeque;

use serde_json::{json, Value};

use super::a2a;
use super::chat_completions as cc;
use super::cogitator;
use super::in_process;
use super::reply::WireFile;
use super::responses;
use super::threads::Thread;
use super::{GatewayOutput, TransportKind, TransportOptions};
use crate::core::time::{format_iso, Millis};
use crate::core::{decode, HttpRequest, HttpResponse, Input, Method, RequestId, TransportError};

/// Wire ids start here, far from the session's own, so the two never meet.
const WIRE_IDS: u64 = 1 << 48;

#[derive(Debug)]
pub(super) struct Stateless {
    options: TransportOptions,
    threads: Vec<Thread>,
    seed: u64,
    counter: u64,
    next_wire: u64,
    turns: Vec<WireTurn>,
    /// The agent the backend describes (A2A's card): name and description, once read.
    card: Option<(String, Option<String>)>,
    /// The agents the backend lists (Cogitator's `GET /agents`), once read.
    listed: Option<cogitator::Agents>,
    /// The card request on the wire, and the session's agent requests waiting for it.
    card_request: Option<RequestId>,
    agents_waiting: Vec<RequestId>,
    /// Requests of the session that wait for the host's store to read its threads
    /// (`None` once they are read, or when nothing is to be read).
    before_threads: Option<Vec<(HttpRequest, bool)>>,
}

use self::decoder::Decoder;

/// Where a Responses thread's chain is kept: the last reply's id, in the conversation's
/// metadata (so a reload goes on chaining).
const CHAIN_KEY: &str = "previousResponseId";

/// A send on its way to the backend.
#[derive(Debug)]
struct WireTurn {
    wire: RequestId,
    session: RequestId,
    stream: bool,
    conversation_id: String,
    user: Value,
    first: bool,
    decoder: Decoder,
    text: String,
    started: bool,
    failed: bool,
    /// The card this turn answers (E14), when it is an answer's continuation.
    answering: Option<answer::Answering>,
    /// Cards this message answers by continuing the task they wait on (A2A's own way to
    /// answer `input-required`), or leaves behind (Chat Completions) or declines (Cogitator,
    /// C31): settled when the turn starts, with their status.
    settles: Vec<(String, &'static str)>,
}

/// Pushes outputs for the session.
struct Out<'a>(&'a mut VecDeque<GatewayOutput>);

impl Out<'_> {
    fn respond(&mut self, id: RequestId, status: u16, body: String) {
        self.0.push_back(GatewayOutput::Session(Input::Response {
            id,
            result: Ok(HttpResponse {
                status,
                body,
                date: None,
            }),
        }));
    }

    fn not_found(&mut self, id: RequestId, what: &str) {
        let body =
            json!({ "error": { "code": "NOT_FOUND", "message": format!("{what} not found") } });
        self.respond(id, 404, body.to_string());
    }

    fn frame(&mut self, id: RequestId, now: Millis, mut event: Value) {
        event["timestamp"] = Value::from(now.0);
        let bytes = format!("data: {event}\n\n").into_bytes();
        self.0
            .push_back(GatewayOutput::Session(Input::StreamChunk { id, bytes }));
    }

    fn close(&mut self, id: RequestId, error: Option<TransportError>) {
        self.0
            .push_back(GatewayOutput::Session(Input::StreamClosed { id, error }));
    }
}

impl Stateless {
    pub(super) fn new(options: &TransportOptions, threads: Vec<Thread>, seed: u64) -> Self {
        Stateless {
            options: options.clone(),
            threads,
            seed,
            counter: 0,
            next_wire: WIRE_IDS,
            turns: Vec::new(),
            card: None,
            listed: None,
            card_request: None,
            agents_waiting: Vec::new(),
            before_threads: None,
        }
    }

    /// Holds the session's requests until [`Stateless::threads_loaded`].
    pub(super) fn wait_for_threads(&mut self) {
        self.before_threads = Some(Vec::new());
    }

    /// The threads are read: the requests that waited are answered from them.
    pub(super) fn threads_loaded(
        &mut self,
        now: Millis,
        threads: Vec<Thread>,
        outputs: &mut VecDeque<GatewayOutput>,
    ) {
        let Some(waiting) = self.before_threads.take() else {
            return;
        };
        self.threads = threads;
        for (req, stream) in waiting {
            self.request(now, req, stream, outputs);
        }
    }

    fn next_wire_id(&mut self) -> RequestId {
        let id = RequestId(self.next_wire);
        self.next_wire += 1;
        id
    }

    /// The session's agent list: one agent, named by the backend's card where it has one (A2A,
    /// fetched once and again after a failure, the list waiting for it).
    fn agents(&mut self, session: RequestId, outputs: &mut VecDeque<GatewayOutput>) {
        let path = match self.options.kind {
            TransportKind::A2a if self.card.is_none() => a2a::CARD_PATH,
            TransportKind::Cogitator if self.listed.is_none() => cogitator::AGENTS_PATH,
            _ => return self.answer_agents(session, outputs),
        };
        self.agents_waiting.push(session);
        if self.card_request.is_none() {
            let wire = self.next_wire_id();
            self.card_request = Some(wire);
            outputs.push_back(GatewayOutput::Send(HttpRequest {
                id: wire,
                method: Method::Get,
                path: path.to_owned(),
                body: None,
            }));
        }
    }

    fn answer_agents(&self, session: RequestId, outputs: &mut VecDeque<GatewayOutput>) {
        if self.options.kind == TransportKind::Cogitator {
            let list = cogitator::agent_list(&self.options, self.listed.as_deref());
            return Out(outputs).respond(session, 200, list.to_string());
        }
        let id = self.options.agent();
        let mut agent = json!({ "id": id, "name": id });
        if self.options.kind == TransportKind::InProcess {
            // The agent-sdk resolution has no "remember for this chat" (PROTOCOL §10): the
            // card does not offer it and the gate takes it off.
            agent["capabilities"] = json!({ "approvalRemember": false });
        }
        if let Some((name, description)) = &self.card {
            agent["name"] = Value::from(name.as_str());
            if let Some(d) = description {
                agent["description"] = Value::from(d.as_str());
            }
        }
        let list = json!({ "agents": [agent] });
        Out(outputs).respond(session, 200, list.to_string());
    }

    /// The card arrived (or did not): the waiting agent lists are answered either way, with
    /// the card's name, else the configured agent id.
    fn on_card(
        &mut self,
        result: Result<HttpResponse, TransportError>,
        outputs: &mut VecDeque<GatewayOutput>,
    ) {
        self.card_request = None;
        if self.options.kind == TransportKind::Cogitator {
            let (listed, log) = cogitator::on_agents(&result);
            self.listed = listed;
            outputs.extend(log.map(GatewayOutput::Log));
            for session in std::mem::take(&mut self.agents_waiting) {
                self.answer_agents(session, outputs);
            }
            return;
        }
        let card = match &result {
            Ok(resp) if (200..300).contains(&resp.status) => a2a::read_card(&resp.body),
            _ => None,
        };
        if card.is_none() {
            let why = match &result {
                Ok(resp) => format!("answered {}", resp.status),
                Err(e) => e.to_string(),
            };
            outputs.push_back(GatewayOutput::Log(format!(
                "a2a: no agent card at {} ({why}); it is asked for again next time",
                a2a::CARD_PATH
            )));
        }
        self.card = card;
        for session in std::mem::take(&mut self.agents_waiting) {
            self.answer_agents(session, outputs);
        }
    }

    fn new_id(&mut self, prefix: &str, now: Millis) -> String {
        self.counter += 1;
        let mix = self
            .seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(self.counter);
        format!("{prefix}_{:x}{:08x}", now.0, mix as u32)
    }

    fn thread_mut(&mut self, id: &str) -> Option<&mut Thread> {
        self.threads.iter_mut().find(|t| t.id() == id)
    }

    fn save(&self, id: &str, out: &mut VecDeque<GatewayOutput>) {
        if let Some(t) = self.threads.iter().find(|t| t.id() == id) {
            out.push_back(GatewayOutput::SaveThread(t.clone()));
        }
    }

    /// One request of the session.
    pub(super) fn request(
        &mut self,
        now: Millis,
        req: HttpRequest,
        stream: bool,
        outputs: &mut VecDeque<GatewayOutput>,
    ) {
        if let Some(waiting) = &mut self.before_threads {
            return waiting.push((req, stream));
        }
        let (path, query) = req.path.split_once('?').unwrap_or((req.path.as_str(), ""));
        let query: Vec<(String, String)> = query
            .split('&')
            .filter_map(|kv| kv.split_once('='))
            .map(|(k, v)| (k.to_owned(), decode(v, false)))
            .collect();
        let param = |name: &str| {
            query
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        };
        let segments: Vec<String> = path
            .trim_matches('/')
            .split('/')
            .map(|seg| decode(seg, false))
            .collect();
        let body: Value = req
            .body
            .as_deref()
            .and_then(|b| serde_json::from_str(b).ok())
            .unwrap_or(Value::Null);
        let seg: Vec<&str> = segments.iter().map(String::as_str).collect();
        match (req.method, seg.as_slice()) {
            (Method::Get, ["agents"]) => self.agents(req.id, outputs),
            (Method::Get, ["conversations"]) => {
                let body = self.list(param("agentId"), param("limit"), param("offset"));
                Out(outputs).respond(req.id, 200, body.to_string());
            }
            (Method::Post, ["conversations"]) => {
                let agent = body["agentId"]
                    .as_str()
                    .map_or_else(|| self.options.agent(), str::to_owned);
                let at = format_iso(now);
                let mut conversation = json!({
                    "id": self.new_id("conv", now), "agentId": agent, "metadata": {},
                    "createdAt": at, "updatedAt": at,
                });
                if let Some(title) = body["title"].as_str().filter(|t| !t.trim().is_empty()) {
                    conversation["title"] = Value::from(title.trim());
                }
                let thread = Thread::new(conversation.clone());
                outputs.push_back(GatewayOutput::SaveThread(thread.clone()));
                self.threads.push(thread);
                Out(outputs).respond(
                    req.id,
                    201,
                    json!({ "conversation": conversation }).to_string(),
                );
            }
            (Method::Get, ["conversations", id]) => match self.thread_mut(id) {
                Some(t) => {
                    let body = json!({ "conversation": t.conversation, "messages": t.messages });
                    Out(outputs).respond(req.id, 200, body.to_string());
                }
                None => Out(outputs).not_found(req.id, "Conversation"),
            },
            (Method::Get, ["conversations", id, "messages"]) => {
                let limit = number(param("limit")).unwrap_or(25);
                let offset = number(param("offset")).unwrap_or(0);
                let desc = param("order").as_deref() == Some("desc");
                match self.thread_mut(id) {
                    Some(t) => {
                        let total = t.messages.len();
                        let ordered: Vec<&Value> = if desc {
                            t.messages.iter().rev().collect()
                        } else {
                            t.messages.iter().collect()
                        };
                        let page: Vec<&Value> =
                            ordered.into_iter().skip(offset).take(limit).collect();
                        let body = json!({ "messages": page, "total": total, "limit": limit,
                                           "offset": offset, "hasMore": offset + limit < total });
                        Out(outputs).respond(req.id, 200, body.to_string());
                    }
                    None => Out(outputs).not_found(req.id, "Conversation"),
                }
            }
            (Method::Patch, ["conversations", id]) => {
                let id = id.to_string();
                match self.thread_mut(&id) {
                    Some(t) => {
                        if let Some(title) = body["title"].as_str() {
                            t.conversation["title"] = Value::from(title);
                        }
                        t.conversation["updatedAt"] = Value::from(format_iso(now));
                        let conversation = t.conversation.clone();
                        self.save(&id, outputs);
                        Out(outputs).respond(req.id, 200, conversation.to_string());
                    }
                    None => Out(outputs).not_found(req.id, "Conversation"),
                }
            }
            (Method::Delete, ["conversations", id]) => {
                let id = id.to_string();
                if self.thread_mut(&id).is_some() {
                    self.threads.retain(|t| t.id() != id);
                    outputs.push_back(GatewayOutput::DeleteThread(id));
                    Out(outputs).respond(req.id, 204, String::new());
                } else {
                    Out(outputs).not_found(req.id, "Conversation");
                }
            }
            (Method::Post, ["conversations", id, "messages"]) => {
                let id = id.to_string();
                self.send(now, req.id, &id, &body, stream, outputs)
            }
            (Method::Post, ["conversations", id, "actions", action]) => {
                let (id, action) = (id.to_string(), action.to_string());
                self.answer(req.id, &id, &action, &body, stream, outputs)
            }
            _ => {
                let body = json!({ "error": { "code": "NOT_SUPPORTED",
                    "message": "This backend does not offer that." } });
                Out(outputs).respond(req.id, 404, body.to_string());
            }
        }
    }

    fn list(&self, agent: Option<String>, limit: Option<String>, offset: Option<String>) -> Value {
        let limit = number(limit).unwrap_or(20);
        let offset = number(offset).unwrap_or(0);
        let mut threads: Vec<&Thread> = self
            .threads
            .iter()
            .filter(|t| agent.as_deref().is_none_or(|a| t.agent_id() == a))
            .collect();
        threads.sort_by(|a, b| b.updated_at().cmp(a.updated_at()));
        let total = threads.len();
        let page: Vec<&Value> = threads
            .into_iter()
            .skip(offset)
            .take(limit)
            .map(|t| &t.conversation)
            .collect();
        json!({ "conversations": page, "total": total, "limit": limit, "offset": offset,
                "hasMore": offset + limit < total })
    }

    /// E9: the person's message is stored first (as a server does), then the backend asked.
    fn send(
        &mut self,
        now: Millis,
        session: RequestId,
        conversation_id: &str,
        body: &Value,
        stream: bool,
        outputs: &mut VecDeque<GatewayOutput>,
    ) {
        let text = body["message"].as_str().unwrap_or_default().to_owned();
        if text.trim().is_empty() {
            let err = json!({ "error": { "code": "VALIDATION_ERROR", "message": "message is required" } });
            return Out(outputs).respond(session, 400, err.to_string());
        }
        let files: Vec<WireFile> = body["files"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|f| WireFile {
                name: f["name"].as_str().unwrap_or_default().to_owned(),
                mime_type: f["mimeType"].as_str().unwrap_or_default().to_owned(),
                content: f["content"].as_str().unwrap_or_default().to_owned(),
            })
            .collect();
        let user_id = self.new_id("msg", now);
        let configured_model = self.options.model.clone();
        let kind = self.options.kind;
        let resend_history = self.options.resend_history;
        let rpc_id = self.next_wire;
        let Some(thread) = self.thread_mut(conversation_id) else {
            return Out(outputs).not_found(session, "Conversation");
        };
        let at = format_iso(now);
        let stored_files: Vec<Value> = files
            .iter()
            .enumerate()
            .map(|(i, f)| {
                json!({ "id": format!("{user_id}_f{i}"), "name": f.name,
                                  "mimeType": f.mime_type, "size": f.content.len() / 4 * 3 })
            })
            .collect();
        let mut user = json!({ "id": user_id, "conversationId": conversation_id, "role": "user",
                               "content": text, "createdAt": at, "updatedAt": at });
        if !stored_files.is_empty() {
            user["files"] = Value::from(stored_files);
        }
        let model = configured_model.unwrap_or_else(|| thread.agent_id().to_owned());
        let (path, wire_body) = match kind {
            TransportKind::Responses => {
                let previous = thread.conversation["metadata"][CHAIN_KEY]
                    .as_str()
                    .filter(|_| !resend_history);
                let mut body = responses::request_body(
                    &model,
                    &thread.messages,
                    &text,
                    &files,
                    stream,
                    previous,
                );
                if resend_history {
                    body["store"] = Value::Bool(false);
                }
                (responses::PATH.to_owned(), body)
            }
            TransportKind::A2a => {
                let metadata = &thread.conversation["metadata"];
                let body = a2a::request_body(rpc_id, &user_id, &text, &files, stream, metadata);
                (a2a::RPC_PATH.to_owned(), body)
            }
            TransportKind::Cogitator => {
                let thread_id =
                    cogitator::thread_id(conversation_id, &thread.conversation["metadata"]);
                let body = cogitator::request_body(thread_id, &text, &files);
                (cogitator::run_path(thread.agent_id(), stream), body)
            }
            TransportKind::InProcess => {
                let (agent, history) = (thread.agent_id(), &thread.messages);
                let body = in_process::request_body(agent, conversation_id, history, &text, &files);
                (in_process::PATH.to_owned(), body)
            }
            _ => (
                cc::PATH.to_owned(),
                cc::request_body(&model, &thread.messages, &text, &files, stream),
            ),
        };
        let first = !thread.messages.iter().any(|m| m["role"] == "user");
        // A2A: the message answers the question its task waits on. Chat Completions: the
        // person moved on from calls nobody here can run (cancelled). Responses: the Console
        // may still take them elsewhere, so they keep waiting. Cogitator: a new message
        // declines the waiting calls (C31).
        let settles = match kind {
            TransportKind::A2a => answer::settled_by_message(thread, format_iso(now), "resolved"),
            TransportKind::ChatCompletions => {
                answer::settled_by_message(thread, format_iso(now), "cancelled")
            }
            TransportKind::Cogitator => cogitator::decline_waiting(&mut thread.messages)
                .into_iter()
                .map(|id| (id, "cancelled"))
                .collect(),
            _ => Vec::new(),
        };
        thread.messages.push(user.clone());
        thread.conversation["updatedAt"] = Value::from(at);
        self.save(conversation_id, outputs);
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
            user,
            first,
            decoder: Decoder::new(self.options.kind),
            text: String::new(),
            started: false,
            failed: false,
            answering: None,
            settles,
        });
    }

    /// The session gave up on one of its requests (Stop, a new chat).
    pub(super) fn abort(&mut self, session: RequestId, outputs: &mut VecDeque<GatewayOutput>) {
        if let Some(waiting) = &mut self.before_threads {
            waiting.retain(|(req, _)| req.id != session);
        }
        if let Some(pos) = self.turns.iter().position(|t| t.session == session) {
            let turn = self.turns.remove(pos);
            outputs.push_back(GatewayOutput::Abort(turn.wire));
        }
    }
}

fn number(v: Option<String>) -> Option<usize> {
    v.and_then(|v| v.parse().ok())
}
