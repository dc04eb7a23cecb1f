//! The agent server, played in the page for a backend without conversations:
//! the session's requests are answered from the thread store, and a send
//! becomes the backend's request with the whole history, its reply read back as `stream.*`
//! frames or as the JSON answer of `POST /conversations/:id/messages`.

mod answer;
mod sync;
mod wire;

use std::collections::VecDeque;

use serde_json::{json, Value};

use super::backend::{Backend, SendCall, WireCall};
use super::reply::{Failure, ReplyDecoder, WireFile};
use super::threads::Thread;
use super::{GatewayOutput, TransportOptions};
use crate::endpoint::{Call, Endpoint};
use crate::time::{format_iso, Millis};
use crate::{HttpRequest, HttpResponse, Input, Method, RequestId, TransportError};

/// Wire ids start here, far from the session's own, so the two never meet.
const WIRE_IDS: u64 = 1 << 48;

#[derive(Debug)]
pub(super) struct Stateless {
    options: TransportOptions,
    /// The backend's own rules.
    backend: Box<dyn Backend>,
    threads: Vec<Thread>,
    seed: u64,
    counter: u64,
    next_wire: u64,
    turns: Vec<WireTurn>,
    /// The backend's agents request on the wire, and the session's agent requests waiting
    /// for it.
    agents_request: Option<RequestId>,
    agents_waiting: Vec<RequestId>,
    /// Requests of the session that wait for the host's store to read its threads
    /// (`None` once they are read, or when nothing is to be read).
    before_threads: Option<Vec<(Call, bool)>>,
    /// Conversations being read from a server that keeps its threads too.
    syncs: Vec<sync::ServerRead>,
    /// The conversation whose waiting requests are being answered after its read (they are
    /// not read again).
    replaying: Option<String>,
    /// Cards the backend took with another card's answer (conversation, action, answer):
    /// the session's own answer to each, which follows, is answered from this.
    taken_together: Vec<(String, String, Value)>,
}

/// A send on its way to the backend.
#[derive(Debug)]
struct WireTurn {
    wire: RequestId,
    session: RequestId,
    stream: bool,
    conversation_id: String,
    user: Value,
    first: bool,
    decoder: Box<dyn ReplyDecoder>,
    text: String,
    started: bool,
    failed: bool,
    /// Why the turn failed, when it did.
    error: Option<Failure>,
    /// The card this turn answers (`POST /conversations/:cid/actions/:aid`), when it is an answer's
    /// continuation.
    answering: Option<answer::Answering>,
    /// Cards this message answers, leaves behind or declines (the backend says which):
    /// settled when the turn starts, with their status.
    settles: Vec<(String, &'static str)>,
}

/// Pushes outputs for the session.
struct Out<'a>(&'a mut VecDeque<GatewayOutput>);

impl Out<'_> {
    fn respond(&mut self, id: RequestId, status: u16, body: String) {
        self.refuse(id, status, body, None);
    }

    /// A response with the server's `Retry-After` (seconds) kept.
    fn refuse(&mut self, id: RequestId, status: u16, body: String, retry_after: Option<u64>) {
        self.0.push_back(GatewayOutput::Session(Input::Response {
            id,
            result: Ok(HttpResponse {
                status,
                body,
                date: None,
                retry_after,
            }),
        }));
    }

    /// The conversation is not in the page's store: a 404 with the code alone, so the page
    /// says what could not be done in the person's language.
    fn no_conversation(&mut self, id: RequestId) {
        let body = json!({ "error": { "code": "NOT_FOUND" } });
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
    pub(super) fn new(
        options: &TransportOptions,
        backend: Box<dyn Backend>,
        threads: Vec<Thread>,
        seed: u64,
    ) -> Self {
        Stateless {
            options: options.clone(),
            backend,
            threads,
            seed,
            counter: 0,
            next_wire: WIRE_IDS,
            turns: Vec::new(),
            agents_request: None,
            agents_waiting: Vec::new(),
            before_threads: None,
            syncs: Vec::new(),
            replaying: None,
            taken_together: Vec::new(),
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

    /// The session's agent list, once the backend read the agents it describes (asked for
    /// once, and again after a failure; the list waits for it).
    fn agents(&mut self, session: RequestId, outputs: &mut VecDeque<GatewayOutput>) {
        if self.agents_request.is_none() {
            let Some(path) = self.backend.agents_url(&self.options) else {
                return self.answer_agents(session, outputs);
            };
            self.ask_agents(path, outputs);
        }
        self.agents_waiting.push(session);
    }

    /// Sends the backend's agents request for `path`.
    fn ask_agents(&mut self, path: String, outputs: &mut VecDeque<GatewayOutput>) {
        let wire = self.next_wire_id();
        self.agents_request = Some(wire);
        outputs.push_back(GatewayOutput::Send(HttpRequest {
            id: wire,
            method: Method::Get,
            path,
            body: None,
            headers: self.backend.wire_headers(),
        }));
    }

    fn answer_agents(&self, session: RequestId, outputs: &mut VecDeque<GatewayOutput>) {
        let list = self.backend.agents(&self.options);
        Out(outputs).respond(session, 200, list.to_string());
    }

    /// The agents request was answered (or was not): the waiting agent lists are answered
    /// either way.
    fn on_agents(
        &mut self,
        result: Result<HttpResponse, TransportError>,
        outputs: &mut VecDeque<GatewayOutput>,
    ) {
        self.agents_request = None;
        outputs.extend(self.backend.agents_read(&result).map(GatewayOutput::Log));
        if let Some(next) = self.backend.agents_next() {
            return self.ask_agents(next, outputs);
        }
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
        req: Call,
        stream: bool,
        outputs: &mut VecDeque<GatewayOutput>,
    ) {
        if let Some(waiting) = &mut self.before_threads {
            return waiting.push((req, stream));
        }
        if self.wait_for_server(&req, stream, outputs) {
            return;
        }
        match req.endpoint {
            Endpoint::Agents => self.agents(req.id, outputs),
            Endpoint::Conversations {
                agent_id,
                limit,
                offset,
            } => {
                let body = self.list(agent_id.as_deref(), limit, offset);
                Out(outputs).respond(req.id, 200, body.to_string());
            }
            Endpoint::CreateConversation { agent_id, title } => {
                let at = format_iso(now);
                let mut conversation = json!({
                    "id": self.new_id("conv", now), "agentId": agent_id, "metadata": {},
                    "createdAt": at, "updatedAt": at,
                });
                if let Some(title) = title.as_deref().filter(|t| !t.trim().is_empty()) {
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
            Endpoint::Conversation { conversation_id } => match self.thread_mut(&conversation_id) {
                Some(t) => {
                    let body = json!({ "conversation": t.conversation, "messages": t.messages });
                    Out(outputs).respond(req.id, 200, body.to_string());
                }
                None => Out(outputs).no_conversation(req.id),
            },
            Endpoint::Messages {
                conversation_id,
                limit,
                offset,
            } => match self.thread_mut(&conversation_id) {
                Some(t) => {
                    // Newest first: the only order the session asks for.
                    let total = t.messages.len();
                    let page: Vec<&Value> =
                        t.messages.iter().rev().skip(offset).take(limit).collect();
                    let body = json!({ "messages": page, "total": total, "limit": limit,
                                       "offset": offset, "hasMore": offset + limit < total });
                    Out(outputs).respond(req.id, 200, body.to_string());
                }
                None => Out(outputs).no_conversation(req.id),
            },
            Endpoint::Rename {
                conversation_id,
                title,
            } => match self.thread_mut(&conversation_id) {
                Some(t) => {
                    t.conversation["title"] = Value::from(title);
                    t.conversation["updatedAt"] = Value::from(format_iso(now));
                    let conversation = t.conversation.clone();
                    self.save(&conversation_id, outputs);
                    Out(outputs).respond(req.id, 200, conversation.to_string());
                }
                None => Out(outputs).no_conversation(req.id),
            },
            Endpoint::Delete { conversation_id } => {
                if self.thread_mut(&conversation_id).is_some() {
                    self.threads.retain(|t| t.id() != conversation_id);
                    outputs.push_back(GatewayOutput::DeleteThread(conversation_id));
                    Out(outputs).respond(req.id, 204, String::new());
                } else {
                    Out(outputs).no_conversation(req.id);
                }
            }
            Endpoint::Send {
                conversation_id,
                message,
                files,
                ..
            } => self.send(
                now,
                req.id,
                &conversation_id,
                message,
                files,
                stream,
                outputs,
            ),
            call @ Endpoint::Resolve { .. } => self.answer(now, req.id, &call, stream, outputs),
        }
    }

    fn list(&self, agent: Option<&str>, limit: usize, offset: usize) -> Value {
        let mut threads: Vec<&Thread> = self
            .threads
            .iter()
            .filter(|t| agent.is_none_or(|a| t.agent_id() == a))
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

    /// `POST /conversations/:id/messages`: the person's message is stored first (as a server does),
    /// then the backend asked.
    #[allow(clippy::too_many_arguments)]
    fn send(
        &mut self,
        now: Millis,
        session: RequestId,
        conversation_id: &str,
        text: String,
        files: Vec<WireFile>,
        stream: bool,
        outputs: &mut VecDeque<GatewayOutput>,
    ) {
        if text.trim().is_empty() {
            let err = json!({ "error": { "code": "VALIDATION_ERROR" } });
            return Out(outputs).respond(session, 400, err.to_string());
        }
        let user_id = self.new_id("msg", now);
        let rpc_id = self.next_wire;
        let Some(pos) = self.threads.iter().position(|t| t.id() == conversation_id) else {
            return Out(outputs).no_conversation(session);
        };
        let thread = &mut self.threads[pos];
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
        let send = SendCall {
            options: &self.options,
            thread,
            message_id: &user_id,
            text: &text,
            files: &files,
            stream,
            rpc_id,
        };
        let call = self.backend.send_request(&send);
        if let Some((key, value)) = self.backend.keep_with_message(&send) {
            user["metadata"] = json!({ key: value });
        }
        let first = !thread.messages.iter().any(|m| m["role"] == "user");
        let settles = self.backend.on_new_message(thread, &at);
        thread.messages.push(user.clone());
        thread.conversation["updatedAt"] = Value::from(at);
        self.save(conversation_id, outputs);
        let wire = self.next_wire_id();
        outputs.push_back(self.wire_output(wire, call, stream));
        self.turns.push(WireTurn {
            wire,
            session,
            stream,
            conversation_id: conversation_id.to_owned(),
            user,
            first,
            decoder: self.backend.decoder(),
            text: String::new(),
            started: false,
            failed: false,
            error: None,
            answering: None,
            settles,
        });
    }

    /// The output that runs `call` as the wire request `wire`: fetched, or run by the agent
    /// in the page when the backend says its requests run there.
    fn wire_output(&self, wire: RequestId, call: WireCall, stream: bool) -> GatewayOutput {
        let request = HttpRequest {
            id: wire,
            method: Method::Post,
            path: call.path,
            body: Some(call.body.to_string()),
            headers: self.backend.wire_headers(),
        };
        match (self.backend.capabilities().runs_in_page, stream) {
            (true, stream) => GatewayOutput::RunInPage { request, stream },
            (false, true) => GatewayOutput::OpenStream(request),
            (false, false) => GatewayOutput::Send(request),
        }
    }

    /// The session gave up on one of its requests (Stop, a new chat): the wire request is
    /// dropped; what the reply said so far is kept in the conversation (as the session keeps
    /// it on screen), and the server is told the work stopped when the backend has a way to.
    pub(super) fn abort(
        &mut self,
        now: Millis,
        session: RequestId,
        outputs: &mut VecDeque<GatewayOutput>,
    ) {
        if let Some(waiting) = &mut self.before_threads {
            waiting.retain(|(req, _)| req.id != session);
        }
        self.forget_waiting(session);
        let Some(pos) = self.turns.iter().position(|t| t.session == session) else {
            return;
        };
        let turn = self.turns.remove(pos);
        outputs.push_back(GatewayOutput::Abort(turn.wire));
        let mut ending = turn.decoder.ending();
        ending.pending_actions = None;
        if turn.started && (!turn.text.is_empty() || !ending.tool_calls.is_empty()) {
            self.store_reply(now, &turn, turn.text.clone(), &ending, outputs);
        }
        self.leave_unreported(now, &turn, false, outputs);
        let Some(running) = ending.running else {
            return;
        };
        let thread = self.threads.iter().find(|t| t.id() == turn.conversation_id);
        let Some(call) = thread.and_then(|t| self.backend.stop_request(t, &running)) else {
            return;
        };
        let wire = self.next_wire_id();
        outputs.push_back(GatewayOutput::Send(HttpRequest {
            id: wire,
            method: Method::Post,
            path: call.path,
            body: Some(call.body.to_string()),
            headers: self.backend.wire_headers(),
        }));
    }
}
