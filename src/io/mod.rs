//! Browser edge: runs what the core asks for (fetch, streaming bodies, aborts, the clock) and
//! turns the results back into [`crate::core::Input`]s. Nothing here decides anything.

pub mod agent;
pub mod client;
pub(crate) mod clipboard;
pub mod clock;
pub mod files;
pub mod http;
pub mod js_threads;
pub mod keys;
pub(crate) mod locale_chunk;
pub mod location;
pub mod pattern;
pub mod peers;
pub mod scripted_agent;
#[cfg(feature = "split")]
pub mod shell;
#[cfg(target_arch = "wasm32")]
pub(crate) mod soon;
pub(crate) mod split;
pub mod threads;
