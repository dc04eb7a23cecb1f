//! agent-chat-ui: a Leptos chat UI for AI agents whose headline is human-in-the-loop.
//!
//! Layers (one-way): [`core`] is sans-IO (protocol types, SSE decoder, the
//! `Session` state machine, i18n catalog: the agent-chat-core crate, usable without a
//! browser); [`io`] is the browser edge (fetch, streams, clock);
//! [`store`] drives a `Session` and exposes signals; [`ui`] holds the Leptos components;
//! [`element`] registers the `<agent-chat>` custom element; [`page`] is the standalone page.

#![warn(missing_docs, unreachable_pub)]

/// The sans-IO core: the agent-chat-core crate, under the name this crate has always used.
pub use agent_chat_core as core;
#[cfg(feature = "ui")]
pub mod element;
#[cfg(feature = "ui")]
pub mod io;
#[cfg(feature = "ui")]
pub mod page;
#[cfg(feature = "ui")]
pub mod store;
#[cfg(feature = "ui")]
pub mod ui;
#[cfg(feature = "ui")]
pub mod utils;

#[cfg(feature = "ui")]
pub use io::agent::{
    Agent, AgentEvents, AgentHandle, AgentOutcome, AgentTurn, PendingAction, Resolution,
    ScriptedAgent, TurnInput,
};
#[cfg(feature = "ui")]
pub use io::client::{AgentServerClient, ClientOptions};
#[cfg(feature = "ui")]
pub use store::chat_history::{use_chat_history, UseChatHistoryOptions, UseChatHistoryReturn};
#[cfg(feature = "ui")]
pub use store::ChatStore;
#[cfg(feature = "ui")]
pub use ui::{CardOptions, Chat, ChatCallbacks, ChatMinimal, ChatSlots, Theme, UploadOptions};
#[cfg(feature = "ui")]
pub use utils::{cn, format_file_size, format_relative_time, generate_id};
