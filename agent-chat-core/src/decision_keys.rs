//! Idempotency keys for decisions (versioned action records): every decision the
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

impl DecisionKey {
    /// Reads one kept entry (`{actionId, version?, resolution, key}`, as [`DecisionKey::to_json`]
    /// writes it); `None` when it is not one. Read by hand rather than through the serde
    /// derive, which would put a deserializer of its own in the element's first download;
    /// the derive stays for hosts, and a test holds the two to the same answers.
    pub fn from_json(value: &Value) -> Option<DecisionKey> {
        let object = value.as_object()?;
        let version = match object.get("version") {
            None | Some(Value::Null) => None,
            Some(v) => Some(v.as_i64()?),
        };
        Some(DecisionKey {
            action_id: object.get("actionId")?.as_str()?.to_owned(),
            version,
            resolution: object.get("resolution")?.clone(),
            key: object.get("key")?.as_str()?.to_owned(),
        })
    }

    /// The entry as kept in `sessionStorage` (the serde derive's form).
    pub fn to_json(&self) -> Value {
        let mut object = serde_json::Map::new();
        object.insert("actionId".into(), Value::String(self.action_id.clone()));
        object.insert(
            "version".into(),
            self.version.map_or(Value::Null, Value::from),
        );
        object.insert("resolution".into(), self.resolution.clone());
        object.insert("key".into(), Value::String(self.key.clone()));
        Value::Object(object)
    }
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

#[cfg(test)]
mod tests {
    use super::DecisionKey;
    use serde_json::{json, Value};

    /// What the serde derive reads from `value` (the form hosts may rely on).
    fn derived(value: &Value) -> Option<DecisionKey> {
        serde_json::from_value(value.clone()).ok()
    }

    #[test]
    fn i16_kept_keys_are_read_by_hand_as_the_derive_reads_them() {
        let resolution = json!({"decision": "approve", "args": {"to": "<b>x</b>"}});
        let cases = [
            json!({"actionId": "a1", "version": 3, "resolution": resolution, "key": "k1"}),
            json!({"actionId": "a1", "resolution": resolution, "key": "k1"}),
            json!({"actionId": "a1", "version": null, "resolution": null, "key": "k1"}),
            json!({"actionId": "a1", "version": 3, "resolution": 1, "key": "k1", "extra": true}),
            json!({"actionId": "a1", "version": 1.5, "resolution": {}, "key": "k1"}),
            json!({"actionId": "a1", "version": "3", "resolution": {}, "key": "k1"}),
            json!({"actionId": "a1", "version": 18446744073709551615u64, "resolution": {}, "key": "k"}),
            json!({"actionId": 7, "resolution": {}, "key": "k1"}),
            json!({"actionId": "a1", "key": "k1"}),
            json!({"actionId": "a1", "resolution": {}}),
            json!({"resolution": {}, "key": "k1"}),
            json!("a1"),
            Value::Null,
        ];
        let mut read = 0;
        for case in &cases {
            let by_hand = DecisionKey::from_json(case);
            assert_eq!(by_hand, derived(case), "{case}");
            read += usize::from(by_hand.is_some());
        }
        // Both accepted and refused entries were compared.
        assert_eq!(read, 4);
        // The one form told apart: the derive also takes the fields as an array, which the
        // edge never writes; by hand only the object written by `to_json` is read.
        let array = json!(["a1", 3, {}, "k1"]);
        assert!(derived(&array).is_some());
        assert_eq!(DecisionKey::from_json(&array), None);
    }

    #[test]
    fn i16_a_kept_key_is_written_as_the_derive_writes_it_and_reads_back() {
        for version in [Some(4), None] {
            let key = DecisionKey {
                action_id: "a\"1".into(),
                version,
                resolution: json!({"decision": "deny", "reason": "no"}),
                key: "0b0e-…".into(),
            };
            assert_eq!(key.to_json(), serde_json::to_value(&key).unwrap());
            assert_eq!(DecisionKey::from_json(&key.to_json()), Some(key));
        }
    }
}
