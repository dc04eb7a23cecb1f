//! The browser tests, one binary: components, the store and the custom element mounted in
//! headless Chromium by `wasm-bindgen-test` (one page for every file; each test mounts into a
//! fresh section). One module per file; `cargo test --target wasm32-unknown-unknown --test
//! browser <module>::` runs one file's tests. The shared helpers are `tests/common/web/`.
#![cfg(target_arch = "wasm32")]

#[path = "../common/failing.rs"]
mod failing;
#[path = "../common/web/mod.rs"]
mod web;

mod card_props;
mod cards;
mod chat;
mod chunks;
mod client;
mod composer;
mod direction;
mod element;
mod failures;
mod form;
mod history;
mod in_process;
mod input;
mod markdown;
mod message;
mod paging;
mod providers;
mod refusals;
mod schema;
mod stages;
mod streaming;
mod ui;
mod window;
