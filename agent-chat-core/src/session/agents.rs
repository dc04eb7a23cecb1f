//! Agents: the optional `GET /agents` list and picking one, which decides the
//! history filter.

use crate::wire::AgentList;

use super::{HttpResponse, Session, SessionEvent, TransportError};

impl Session {
    pub(super) fn on_agents(&mut self, result: Result<HttpResponse, TransportError>) {
        self.agents_loaded = true;
        // F42: the endpoint is optional; failures are swallowed.
        if let Ok(resp) = result.as_ref() {
            if resp.ok() {
                if let Ok(list) = crate::wire::json_text::<AgentList>(&resp.body) {
                    self.agents = list.agents;
                }
            }
        }
        if self.selected_agent.is_none() {
            if let Some(first) = self.agents.first() {
                let id = first.id.clone();
                self.selected_agent = Some(id.clone());
                self.emit(SessionEvent::AgentChanged(id));
            }
        }
        self.revisions.status += 1;
        self.load_history(false);
        if let Some(outgoing) = self.awaiting_agent.take() {
            self.send_to_new_conversation(outgoing);
        }
    }

    pub(super) fn select_agent(&mut self, id: String) {
        if self.selected_agent.as_deref() == Some(id.as_str()) {
            return;
        }
        self.selected_agent = Some(id.clone());
        self.revisions.status += 1;
        self.emit(SessionEvent::AgentChanged(id));
        if self.history_state.is_started() && self.agents.len() <= 1 {
            self.load_history(false);
        }
    }
}
