//! Wall clock for the core (`Millis` since the epoch). `Instant::now()` panics on
//! wasm32-unknown-unknown, so the browser's `Date.now()` is the source.

use crate::core::Millis;

/// Milliseconds since the Unix epoch.
#[cfg(target_arch = "wasm32")]
pub(crate) fn now() -> Millis {
    Millis(js_sys::Date::now().max(0.0) as u64)
}

/// Milliseconds since the Unix epoch (native builds: tests and tools).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn now() -> Millis {
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    Millis(since.as_millis() as u64)
}
