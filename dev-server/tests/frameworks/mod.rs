//! The chat against the agent frameworks people run, each one's OWN server code: the Vercel
//! AI SDK, AG-UI, LangGraph and A2A (`@a2a-js/sdk` with its default settings), pinned in
//! `test-servers/package.json` and started by Node with a scripted model
//! ([`crate::harness::node::NodeServer`]). The page is opened from the test server's front, so
//! page and agent share one origin as in a real deployment.
//!
//! One module per framework; each starts its server from `test-servers/` and walks the journeys
//! the issue names: stream a reply, approve one tool, deny one with a reason, edit where the
//! protocol allows, reload mid-wait and answer after it, two tabs.

mod a2a;
mod ag_ui;
mod ai_sdk;
mod langgraph;
mod langgraph_server;
