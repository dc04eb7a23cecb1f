//! Small pure helpers the sub-machines share: path encoding, local ids and reading a
//! conversation out of a response body.

use serde_json::Value;

use crate::wire::Conversation;

use super::{ChatError, ErrorContext};

/// Whether `id` is one [`Session::local_id`] made (`<ms>_<9 base36 chars>`): an optimistic
/// message the server knows under another id, so it does not count towards message-page offsets.
pub(super) fn is_local_id(id: &str) -> bool {
    id.split_once('_').is_some_and(|(ms, rest)| {
        !ms.is_empty()
            && ms.bytes().all(|b| b.is_ascii_digit())
            && rest.len() == 9
            && rest
                .bytes()
                .all(|b| b.is_ascii_digit() || b.is_ascii_lowercase())
    })
}

pub(super) fn base36_padded(mut n: u64, width: usize) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = vec![b'0'; width];
    for slot in out.iter_mut().rev() {
        *slot = DIGITS[(n % 36) as usize];
        n /= 36;
    }
    String::from_utf8(out).unwrap_or_default()
}

/// Percent-encodes a path segment or query value (RFC 3986 unreserved characters pass).
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// Undoes [`encode`] (and any `%XX` escape); with `plus_is_space`, `+` reads as a space, as
/// in a page's query string. A `%` not followed by two hex digits stays as it is.
pub fn decode(s: &str, plus_is_space: bool) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' if plus_is_space => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
                match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    Some(b) => {
                        out.push(b);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `{ conversation }` or a bare conversation.
pub(super) fn conversation_from(
    value: Value,
    context: ErrorContext,
) -> Result<Conversation, ChatError> {
    let inner = match value.get("conversation") {
        Some(c) if c.is_object() => c.clone(),
        _ => value,
    };
    <Conversation as serde::Deserialize>::deserialize(&inner).map_err(|e| ChatError::BadResponse {
        context,
        detail: e.to_string(),
    })
}
