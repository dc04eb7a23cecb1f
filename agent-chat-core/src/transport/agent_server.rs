//! The Cognipeer agent server: conversations, streaming and answerable cards of
//! its own, so the gateway passes every request and answer through unchanged.

use super::backend::{Backend, Capabilities};
use super::TransportOptions;

/// What the agent server can do: everything, on its own side.
pub const CAPABILITIES: Capabilities = Capabilities {
    names: &["agent-server", "agentserver", ""],
    named_by_page: true,
    keeps_threads: false,
    can_resolve: true,
    answers_at_action_url: false,
    remembers: true,
    runs_in_page: false,
    storage_tag: Some("agent-server"),
};

/// No backend behind the gateway: it passes everything through.
pub fn build(_: &TransportOptions) -> Option<Box<dyn Backend>> {
    None
}
