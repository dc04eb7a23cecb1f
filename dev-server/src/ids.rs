//! Id generation: `prefix_` + 21 nanoid-style characters, without an external crate.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// The nanoid URL-safe alphabet (64 symbols, so one symbol per 6 bits).
const ALPHABET: &[u8; 64] = b"useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict";

/// Number of random characters after the prefix, as nanoid's default size.
const ID_LEN: usize = 21;

static COUNTER: AtomicU64 = AtomicU64::new(0);
static SEED: OnceLock<u64> = OnceLock::new();

fn seed() -> u64 {
    *SEED.get_or_init(|| {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0x9E37_79B9_7F4A_7C15);
        nanos ^ (u64::from(std::process::id()) << 32)
    })
}

/// SplitMix64 finaliser: turns a counter into well-spread bits.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn next_u64() -> u64 {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    mix(seed().wrapping_add(n.wrapping_mul(0x9E37_79B9_7F4A_7C15)))
}

/// `n` random characters from the nanoid alphabet.
pub fn random_chars(n: usize) -> String {
    let mut out = String::with_capacity(n);
    let mut bits = 0u64;
    let mut left = 0u32;
    while out.len() < n {
        if left < 6 {
            bits = next_u64();
            left = 64;
        }
        out.push(char::from(ALPHABET[(bits & 63) as usize]));
        bits >>= 6;
        left -= 6;
    }
    out
}

/// A server id such as `conv_V1StGXR8Z5jdHi6BmyT2a`: `prefix` + `_` + 21 characters.
pub fn new_id(prefix: &str) -> String {
    format!("{prefix}_{}", random_chars(ID_LEN))
}

/// A message-attachment id as the 0.1.4 server writes it: `file_<ms>_<rand>`.
pub fn attachment_id() -> String {
    format!(
        "file_{}_{}",
        chrono::Utc::now().timestamp_millis(),
        random_chars(9)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_have_prefix_and_length() {
        let id = new_id("conv");
        assert!(id.starts_with("conv_"));
        assert_eq!(id.len(), 5 + 21);
        assert!(id[5..]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-'));
    }

    #[test]
    fn ids_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for _ in 0..10_000 {
            assert!(seen.insert(new_id("msg")));
        }
    }
}
