//! The native tests, one binary: the sans-IO core driven with fake responses, the store's
//! drive loop, and the repository's own checks (layering, locales, stylesheet contrast, compiled
//! assets, the npm package). One module per file; `cargo test --test core <module>::` runs one
//! file's tests. The shared harness (a session plus what it asked for, a session behind a
//! gateway) is `tests/common/`.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../common/mod.rs"]
mod common;

mod a2a;
mod actions;
mod ag_ui;
mod ag_ui_interrupts;
mod ai_sdk;
mod answers;
mod api;
mod backend_chunk;
mod backend_recipe;
mod chunks;
mod clones;
mod cogitator;
mod cogitator_batch;
mod compiled_assets;
mod contrast;
mod create;
mod direction;
mod drafts;
mod edit;
mod element_package;
mod execution;
mod failure_words;
mod files;
mod first_draw;
mod form;
mod history;
mod host_threads;
mod in_process;
mod langgraph;
mod layering;
mod locales;
mod markdown;
mod message;
mod operation;
mod options;
mod other_origin;
mod paging;
mod policy;
mod prop_groups;
mod public_surface;
mod reading;
mod records;
mod resolve;
mod responses;
mod rules;
mod schema;
mod schema_2020;
mod schema_suite;
mod server_words;
mod session;
mod sse;
mod store;
mod streaming;
mod surface;
mod theme;
mod tool_name;
mod transport;
mod unsent;
mod url;
mod wire;
