#![cfg(not(target_arch = "wasm32"))]
//! The chat against the agent frameworks people run, each one's OWN server code (issue 39): the
//! Vercel AI SDK, AG-UI, LangGraph and A2A (`@a2a-js/sdk` with its default settings), pinned in
//! `test-servers/package.json` and started by Node with a scripted model
//! ([`harness::node::NodeServer`]). The page is opened from the test server's front, so page
//! and agent share one origin as in a real deployment.
//!
//! Run like `tests/e2e.rs`, after `npm ci` in `test-servers/` (`cargo xtask setup` does it):
//! `AGENT_CHAT_DIST=$PWD/dist cargo test -p dev-server --features e2e --test e2e_frameworks`.

#[allow(dead_code, unused_imports)]
mod harness;

mod frameworks;
