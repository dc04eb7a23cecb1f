//! agent-chat-ui: a Leptos chat UI for AI agents whose headline is human-in-the-loop.
//!
//! Layers (one-way, DESIGN.md §2): [`core`] is sans-IO (protocol types, SSE decoder, the
//! `Session` state machine, i18n catalog); [`io`] is the browser edge (fetch, streams, clock);
//! [`store`] drives a `Session` and exposes signals; [`ui`] holds the Leptos components;
//! [`element`] registers the `<agent-chat>` custom element; [`page`] is the standalone page.

pub mod core;
pub mod element;
pub mod io;
pub mod page;
pub mod store;
pub mod ui;

pub use store::ChatStore;
pub use ui::{Chat, Theme};
