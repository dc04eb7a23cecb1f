//! Idempotency keys for decisions (seed 004, PROTOCOL §11.2, issue 14): every decision the
//! person makes gets a `decisionKey`, one per decision (action, version and answer), not per
//! click, kept until the card settles, so a retry after a dropped connection, a reload or in
//! the same tab sends the same key and the server cannot apply it twice. The edge persists
//! the list (`sessionStorage`) and hands it back when the page loads again.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One remembered decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DecisionKey {
    /// The action's id.
    pub action_id: String,
    /// The version decided (`None` for servers without versions).
    #[serde(default)]
    pub version: Option<i64>,
    /// The answer, as sent (its wire JSON), so the same answer reuses the key.
    pub resolution: Value,
    /// The key sent as `decisionKey`.
    pub key: String,
}

/// The decisions not settled yet, and where new keys come from.
#[derive(Clone, Debug, Default)]
pub struct DecisionKeys {
    entries: Vec<DecisionKey>,
    rng: u64,
}

impl DecisionKeys {
    /// Keys remembered from an earlier page (invalid entries are dropped by the edge), and a
    /// random `seed` from the edge for new keys.
    pub fn new(entries: Vec<DecisionKey>, seed: u64) -> DecisionKeys {
        DecisionKeys {
            entries,
            // Never zero: the generator would stay at zero.
            rng: seed | 1,
        }
    }

    /// The key for deciding `action_id` at `version` with `resolution`: the remembered one when
    /// this very decision was made before, else a new one (which replaces any other decision of
    /// that action). Returns the key and whether the list changed.
    pub fn key_for(
        &mut self,
        action_id: &str,
        version: Option<i64>,
        resolution: &Value,
    ) -> (String, bool) {
        if let Some(e) = self.entries.iter().find(|e| {
            e.action_id == action_id && e.version == version && e.resolution == *resolution
        }) {
            return (e.key.clone(), false);
        }
        let key = self.uuid_v4();
        self.entries.retain(|e| e.action_id != action_id);
        self.entries.push(DecisionKey {
            action_id: action_id.to_owned(),
            version,
            resolution: resolution.clone(),
            key: key.clone(),
        });
        (key, true)
    }

    /// Forgets the decisions of settled actions; returns whether any was forgotten.
    pub fn forget_settled(&mut self, still_open: impl Fn(&str) -> bool) -> bool {
        let before = self.entries.len();
        self.entries.retain(|e| still_open(&e.action_id));
        before != self.entries.len()
    }

    /// The remembered decisions, for the edge to persist.
    pub fn entries(&self) -> &[DecisionKey] {
        &self.entries
    }

    /// A random (version 4) UUID from the seeded generator (xorshift64*): unique enough for an
    /// idempotency key, which only has to differ between decisions of one action.
    fn uuid_v4(&mut self) -> String {
        let (a, b) = (self.next(), self.next());
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&a.to_be_bytes());
        bytes[8..].copy_from_slice(&b.to_be_bytes());
        bytes[6] = (bytes[6] & 0x0f) | 0x40;
        bytes[8] = (bytes[8] & 0x3f) | 0x80;
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        format!(
            "{}-{}-{}-{}-{}",
            &hex[..8],
            &hex[8..12],
            &hex[12..16],
            &hex[16..20],
            &hex[20..]
        )
    }

    fn next(&mut self) -> u64 {
        let mut x = self.rng;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.rng = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}
