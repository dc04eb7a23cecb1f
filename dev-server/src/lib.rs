//! Reference agent server for agent-chat-ui: speaks PROTOCOL.md (endpoints E1–E14, SSE, the
//! approvals & questions extension) with scripted, deterministic demo agents and an in-memory store.
//!
//! The API lives under `/api/agents` (E1 is `GET /api/agents/agents`). The caller's user id is
//! taken from `Authorization: Bearer <user id>` (the token *is* the user id), else from an
//! `x-user-id` header; without either the caller is anonymous.

#![warn(missing_docs)]

pub mod agents;
pub mod b64;
pub mod error;
pub mod ids;
pub mod model;
pub mod routes;
pub mod schema;
pub mod scripts;
pub mod sse;
pub mod store;
pub mod turn;

use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::store::Store;

/// Mount point of the API (the React library's default `basePath`).
pub const API_BASE: &str = "/api/agents";

/// Server configuration (command-line flags of the binary).
#[derive(Debug, Clone)]
pub struct Config {
    /// Interface to bind (`--host`, default `127.0.0.1`).
    pub host: String,
    /// Port to bind (`--port`, default 8080).
    pub port: u16,
    /// Directory with the built page, served at `/` (`--dist DIR`).
    pub dist: Option<PathBuf>,
    /// Deadline of the `hasty` agent's approval in seconds (`--hasty-expiry-secs`, default 5).
    pub hasty_expiry_secs: u64,
    /// Delay between the small `stream.text` chunks of the scripted agents (`--chunk-delay-ms`, default 20).
    pub chunk_delay_ms: u64,
    /// Delay between the deltas of the `long` agent (`--long-chunk-delay-ms`, default 2).
    pub long_chunk_delay_ms: u64,
    /// How long a turn holds the conversation busy when triggered with `#slow` (`--slow-ms`, default 1500).
    pub slow_ms: u64,
    /// How long an approved tool runs before it completes (`--execution-ms`, default 600):
    /// the card reads "Executing…" meanwhile (seed 004).
    pub execution_ms: u64,
    /// Longest accepted message in characters (`message_too_long` above it), default 100 000.
    pub max_message_chars: usize,
    /// Largest accepted file in bytes (`file_too_large` above it), default 10 MiB.
    pub max_file_size: usize,
    /// MIME types refused with `unsupported_file_type`.
    pub denied_mime_types: Vec<String>,
    /// When true every API request needs `Authorization` (`--require-auth`): missing → 401,
    /// token `invalid` → 401.
    pub require_auth: bool,
    /// Serve the test controls under `/_dev/` (`--dev-controls`; off by default): they let a
    /// caller expire, re-issue and fake answers of anyone's actions, so a server reachable
    /// by others must not offer them.
    pub dev_controls: bool,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            host: "127.0.0.1".to_string(),
            port: 8080,
            dist: None,
            hasty_expiry_secs: 5,
            chunk_delay_ms: 20,
            long_chunk_delay_ms: 2,
            slow_ms: 1500,
            execution_ms: 600,
            max_message_chars: 100_000,
            max_file_size: 10 * 1024 * 1024,
            denied_mime_types: vec![
                "application/x-msdownload".to_string(),
                "application/x-msdos-program".to_string(),
                "application/x-executable".to_string(),
                "application/x-sh".to_string(),
            ],
            require_auth: false,
            dev_controls: false,
        }
    }
}

/// Shared server state: configuration and the in-memory store.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    config: Config,
    store: Mutex<Store>,
}

impl AppState {
    /// Fresh state with an empty store.
    pub fn new(config: Config) -> Self {
        Self {
            inner: Arc::new(Inner {
                config,
                store: Mutex::new(Store::default()),
            }),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    /// Locks the store. Never hold the guard across an `.await`.
    pub fn lock(&self) -> MutexGuard<'_, Store> {
        self.inner
            .store
            .lock()
            .expect("store mutex poisoned: a handler panicked while holding it")
    }

    /// Locks the store even if a panicking thread poisoned it (used from `Drop`).
    pub fn lock_lenient(&self) -> MutexGuard<'_, Store> {
        self.inner
            .store
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The full router: API under [`API_BASE`], CORS, and the static page when `config.dist` is set.
pub fn app(config: &Config) -> axum::Router {
    routes::router(AppState::new(config.clone()))
}

/// Serves [`app`] on an already bound listener until the task is dropped or fails.
/// Prints `dev-server listening on http://HOST:PORT` once listening.
pub async fn serve(listener: tokio::net::TcpListener, config: Config) -> std::io::Result<()> {
    let addr = listener.local_addr()?;
    let router = app(&config);
    println!("dev-server listening on http://{addr}");
    axum::serve(listener, router).await
}
