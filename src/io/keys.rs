//! Where decision keys live between page loads: `sessionStorage`, one entry per
//! server (base URL), so a retry after a reload in this tab reuses the key of the decision it
//! repeats. Unreadable or missing storage is no error: the page then only forgets keys on
//! reload, and the server's record still decides.

use crate::core::DecisionKey;

/// The storage key for the chat talking to `base_url`.
pub(crate) fn scope(base_url: &str) -> String {
    format!("agent-chat-ui:decision-keys:{base_url}")
}

/// The keys kept for `scope`; entries that do not parse are dropped.
pub(crate) fn load(scope: &str) -> Vec<DecisionKey> {
    let Some(text) = storage().and_then(|s| s.get_item(scope).ok().flatten()) else {
        return Vec::new();
    };
    let Ok(serde_json::Value::Array(items)) = serde_json::from_str(&text) else {
        return Vec::new();
    };
    items.iter().filter_map(DecisionKey::from_json).collect()
}

/// Keeps `entries` for `scope` (removes the entry when there are none).
pub(crate) fn save(scope: &str, entries: &[DecisionKey]) {
    let Some(storage) = storage() else { return };
    if entries.is_empty() {
        let _ = storage.remove_item(scope);
    } else {
        let text = serde_json::Value::Array(entries.iter().map(DecisionKey::to_json).collect());
        // A full quota loses only the reuse of keys after a reload.
        let _ = storage.set_item(scope, &text.to_string());
    }
}

/// A random seed for new keys.
pub(crate) fn random_seed() -> u64 {
    #[cfg(target_arch = "wasm32")]
    {
        let high = (js_sys::Math::random() * 4_294_967_296.0) as u64;
        let low = (js_sys::Math::random() * 4_294_967_296.0) as u64;
        (high << 32) ^ low ^ (crate::io::clock::now().0 << 7)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        use std::hash::{BuildHasher, Hasher};
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(0x5eed);
        h.finish()
    }
}

#[cfg(target_arch = "wasm32")]
fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok().flatten()
}

#[cfg(not(target_arch = "wasm32"))]
fn storage() -> Option<web_sys::Storage> {
    None
}
