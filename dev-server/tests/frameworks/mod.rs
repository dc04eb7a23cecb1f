//! One module per framework; each starts its server from `test-servers/` and walks the journeys
//! the issue names: stream a reply, approve one tool, deny one with a reason, edit where the
//! protocol allows, reload mid-wait and answer after it, two tabs.

mod a2a;
mod ag_ui;
mod ai_sdk;
mod langgraph;
mod langgraph_server;
