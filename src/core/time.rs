//! Time as plain data: the core never reads a clock, so every instant it sees is an
//! epoch-millisecond [`Millis`] handed in by the driver or parsed from the wire.
//!
//! The wire mixes two spellings (PROTOCOL conventions, C30): bodies carry ISO-8601 strings,
//! stream events carry epoch-ms numbers, and some servers send either anywhere. Everything
//! here accepts both and never panics on odd input.

use chrono::{DateTime, NaiveDate, NaiveDateTime, SecondsFormat, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// An instant as milliseconds since the Unix epoch (UTC).
///
/// Serialises as a plain number; use [`opt_iso`] for fields that travel as ISO strings.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
pub struct Millis(pub u64);

impl Millis {
    /// The epoch itself (`1970-01-01T00:00:00Z`).
    pub const ZERO: Millis = Millis(0);

    /// The raw millisecond count.
    #[must_use]
    pub const fn as_u64(self) -> u64 {
        self.0
    }

    /// This instant moved `ms` milliseconds later, stopping at `u64::MAX` instead of overflowing.
    #[must_use]
    pub const fn saturating_add(self, ms: u64) -> Millis {
        Millis(self.0.saturating_add(ms))
    }

    /// This instant moved `ms` milliseconds earlier, stopping at the epoch instead of underflowing.
    #[must_use]
    pub const fn saturating_sub(self, ms: u64) -> Millis {
        Millis(self.0.saturating_sub(ms))
    }

    /// Milliseconds from `earlier` to `self`; `0` when `earlier` is not before `self`.
    #[must_use]
    pub const fn saturating_since(self, earlier: Millis) -> u64 {
        self.0.saturating_sub(earlier.0)
    }
}

impl From<u64> for Millis {
    fn from(ms: u64) -> Self {
        Millis(ms)
    }
}

/// Reads a timestamp written either as an ISO-8601 / RFC 3339 string or as an epoch-ms
/// number (C30).
///
/// Accepted: RFC 3339 with any offset (`2025-05-02T10:00:00Z`, `…+02:00`, fractional
/// seconds), the same without an offset or with a space instead of `T` (read as UTC), a bare
/// date (`2025-05-02`, midnight UTC), a non-negative number (fractions dropped), and a string
/// of digits (epoch ms). Anything else, including instants before 1970, gives `None`.
#[must_use]
pub fn parse_timestamp(v: &Value) -> Option<Millis> {
    match v {
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                Some(Millis(u))
            } else {
                let f = n.as_f64()?;
                if f.is_finite() && f >= 0.0 && f < u64::MAX as f64 {
                    // Truncation is the intent: sub-millisecond precision is meaningless here.
                    Some(Millis(f as u64))
                } else {
                    None
                }
            }
        }
        Value::String(s) => parse_timestamp_str(s),
        _ => None,
    }
}

/// String half of [`parse_timestamp`].
#[must_use]
pub fn parse_timestamp_str(s: &str) -> Option<Millis> {
    let s = s.trim();
    if s.is_empty() {
        return None;
    }
    if s.bytes().all(|b| b.is_ascii_digit()) {
        return s.parse::<u64>().ok().map(Millis);
    }
    let ms = if let Ok(dt) = DateTime::parse_from_rfc3339(s) {
        dt.timestamp_millis()
    } else if let Some(dt) = parse_naive(s) {
        dt.and_utc().timestamp_millis()
    } else {
        return None;
    };
    u64::try_from(ms).ok().map(Millis)
}

/// Reads an HTTP `Date` header (RFC 9110 IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`, or
/// any RFC 2822 date). The header has whole seconds; the session reads it as the middle of
/// that second. Anything else, including instants before 1970, gives `None`.
#[must_use]
pub fn parse_http_date(s: &str) -> Option<Millis> {
    let dt = DateTime::parse_from_rfc2822(s.trim()).ok()?;
    u64::try_from(dt.timestamp_millis()).ok().map(Millis)
}

/// Offset-less date-times and bare dates, read as UTC.
fn parse_naive(s: &str) -> Option<NaiveDateTime> {
    const FORMATS: [&str; 4] = [
        "%Y-%m-%dT%H:%M:%S%.f",
        "%Y-%m-%d %H:%M:%S%.f",
        "%Y-%m-%dT%H:%M",
        "%Y-%m-%d %H:%M",
    ];
    for f in FORMATS {
        if let Ok(dt) = NaiveDateTime::parse_from_str(s, f) {
            return Some(dt);
        }
    }
    // A trailing `Z` on an otherwise offset-less form that RFC 3339 refused (e.g. no seconds).
    if let Some(stripped) = s.strip_suffix('Z').or_else(|| s.strip_suffix('z')) {
        for f in FORMATS {
            if let Ok(dt) = NaiveDateTime::parse_from_str(stripped, f) {
                return Some(dt);
            }
        }
    }
    NaiveDate::parse_from_str(s, "%Y-%m-%d")
        .ok()
        .and_then(|d| d.and_hms_opt(0, 0, 0))
}

/// Formats an instant the way the reference server does: `2025-05-01T10:00:00.000Z`.
///
/// Instants beyond what a calendar date can express (far past year 200 000) are written as
/// their decimal millisecond count, which [`parse_timestamp`] reads back.
#[must_use]
pub fn format_iso(ms: Millis) -> String {
    i64::try_from(ms.0)
        .ok()
        .and_then(DateTime::<Utc>::from_timestamp_millis)
        .map_or_else(
            || ms.0.to_string(),
            |dt| dt.to_rfc3339_opts(SecondsFormat::Millis, true),
        )
}

/// Serde adapter for `Option<Millis>` fields that travel as ISO strings but may arrive as
/// epoch-ms numbers.
///
/// Use as `#[serde(default, with = "crate::core::time::opt_iso", skip_serializing_if = "Option::is_none")]`.
/// Deserialising never fails: `null`, a missing field or an unreadable value all give `None`.
pub mod opt_iso {
    use serde::{Deserialize, Deserializer, Serializer};
    use serde_json::Value;

    use super::{format_iso, parse_timestamp, Millis};

    /// Writes `Some` as an ISO-8601 string and `None` as `null`.
    pub fn serialize<S: Serializer>(v: &Option<Millis>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(ms) => s.serialize_str(&format_iso(*ms)),
            None => s.serialize_none(),
        }
    }

    /// Reads an ISO-8601 string or an epoch-ms number; anything else becomes `None`.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Millis>, D::Error> {
        let v = Value::deserialize(d)?;
        Ok(parse_timestamp(&v))
    }
}
