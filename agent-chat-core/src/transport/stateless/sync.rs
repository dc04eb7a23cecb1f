//! Reading a conversation from a server that keeps its threads too (LangGraph): when the session
//! opens a conversation (`GET /conversations/:id`), the backend's thread address is read first, and
//! the conversation is answered from the page's copy brought in line with it
//! ([`Backend::thread_read`]), so a reload, another tab or an empty store shows what the server
//! has, the interrupts it waits on included. Requests for the conversation that come meanwhile wait
//! for the same read. While a turn of the conversation is on the wire, or when the server cannot be
//! read, the page's copy answers as before.
//!
//! [`Backend::thread_read`]: super::super::backend::Backend::thread_read

use std::collections::VecDeque;

use super::super::GatewayOutput;
use super::Stateless;
use crate::endpoint::{Call, Endpoint};
use crate::time::{format_iso, Millis};
use crate::{HttpRequest, HttpResponse, Method, RequestId, TransportError};

/// A read of one conversation from the server, and the session's requests that wait for it.
#[derive(Debug)]
pub(super) struct ServerRead {
    /// The read on the wire.
    pub wire: RequestId,
    /// The conversation.
    pub conversation_id: String,
    /// The session's requests that wait for it.
    pub waiting: Vec<(Call, bool)>,
}

impl Stateless {
    /// Whether `req` waits for a read of its conversation from the server (sent now, or
    /// already on its way); `false` when it is answered from the page's copy at once.
    pub(super) fn wait_for_server(
        &mut self,
        req: &Call,
        stream: bool,
        outputs: &mut VecDeque<GatewayOutput>,
    ) -> bool {
        let Endpoint::Conversation { conversation_id } = &req.endpoint else {
            return false;
        };
        if self.replaying.as_deref() == Some(conversation_id.as_str())
            || self
                .turns
                .iter()
                .any(|t| &t.conversation_id == conversation_id)
        {
            return false;
        }
        if let Some(sync) = self
            .syncs
            .iter_mut()
            .find(|s| &s.conversation_id == conversation_id)
        {
            sync.waiting.push((req.clone(), stream));
            return true;
        }
        let Some(path) = self.backend.thread_url(conversation_id) else {
            return false;
        };
        let wire = self.next_wire_id();
        outputs.push_back(GatewayOutput::Send(HttpRequest {
            id: wire,
            method: Method::Get,
            path,
            body: None,
            headers: self.backend.wire_headers(),
        }));
        self.syncs.push(ServerRead {
            wire,
            conversation_id: conversation_id.clone(),
            waiting: vec![(req.clone(), stream)],
        });
        true
    }

    /// The server answered the read `pos`: the conversation is brought in line with it (and
    /// kept), then the requests that waited are answered.
    pub(super) fn on_server_thread(
        &mut self,
        now: Millis,
        pos: usize,
        result: Result<HttpResponse, TransportError>,
        outputs: &mut VecDeque<GatewayOutput>,
    ) {
        let sync = self.syncs.remove(pos);
        let id = sync.conversation_id.as_str();
        let name = self.backend.capabilities().name();
        match result {
            Ok(resp) if (200..300).contains(&resp.status) => {
                let local = self.threads.iter().position(|t| t.id() == id);
                let read = self.backend.thread_read(
                    &self.options,
                    id,
                    local.map(|i| &self.threads[i]),
                    &resp.body,
                    &format_iso(now),
                );
                match (read, local) {
                    (Some(thread), Some(i)) if self.threads[i] != thread => {
                        self.threads[i] = thread;
                        self.save(id, outputs);
                    }
                    (Some(thread), None) => {
                        self.threads.push(thread);
                        self.save(id, outputs);
                    }
                    (Some(_), Some(_)) => {}
                    (None, _) => outputs.push_back(GatewayOutput::Log(format!(
                        "{name}: the server's thread {id} could not be read"
                    ))),
                }
            }
            Ok(resp) if resp.status == 404 => {}
            Ok(resp) => outputs.push_back(GatewayOutput::Log(format!(
                "{name}: reading the server's thread {id} answered {}",
                resp.status
            ))),
            Err(e) => outputs.push_back(GatewayOutput::Log(format!(
                "{name}: reading the server's thread {id} failed: {e}"
            ))),
        }
        self.replaying = Some(sync.conversation_id.clone());
        for (req, stream) in sync.waiting {
            self.request(now, req, stream, outputs);
        }
        self.replaying = None;
    }

    /// The session gave up on `session` while it waited for a read.
    pub(super) fn forget_waiting(&mut self, session: RequestId) {
        for sync in &mut self.syncs {
            sync.waiting.retain(|(req, _)| req.id != session);
        }
    }
}
