//! Time as plain data: the core never reads a clock, so every instant it sees is an
//! epoch-millisecond [`Millis`] handed in by the driver or parsed from the wire.
//!
//! The wire mixes two spellings: bodies carry ISO-8601 strings,
//! stream events carry epoch-ms numbers, and some servers send either anywhere. Everything
//! here accepts both and never panics on odd input.

use chrono::{DateTime, Datelike, NaiveDate, Timelike, Utc};
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
/// number.
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
    let mut r = Reader::new(s);
    let ms = r.iso_date_time()?;
    r.at_end().then_some(())?;
    u64::try_from(ms).ok().map(Millis)
}

/// Reads an HTTP `Date` header (RFC 9110 IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`, or
/// an RFC 2822 date with a numeric, `GMT` or `UT` zone). The header has whole seconds; the
/// session reads it as the middle of that second. Anything else, including instants before
/// 1970, gives `None`.
#[must_use]
pub fn parse_http_date(s: &str) -> Option<Millis> {
    let mut r = Reader::new(s.trim());
    let ms = r.imf_date_time()?;
    r.at_end().then_some(())?;
    u64::try_from(ms).ok().map(Millis)
}

/// Reads a `Retry-After` header as a number of seconds to wait: delay-seconds as written, or
/// an HTTP date less the response's own `Date` (`date`, read by [`parse_http_date`]; without
/// it a date cannot be turned into a wait). A date already passed is 0; anything else `None`.
#[must_use]
pub fn parse_retry_after(s: &str, date: Option<Millis>) -> Option<u64> {
    let s = s.trim();
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        // A wait too long to write is as good as the longest one.
        return Some(s.parse::<u64>().unwrap_or(u64::MAX));
    }
    let at = parse_http_date(s)?;
    // Both were read as the middle of their second: the difference is whole seconds.
    Some(at.0.saturating_sub(date?.0) / 1000)
}

/// Formats an instant the way the reference server does: `2025-05-01T10:00:00.000Z`.
///
/// Instants beyond what a calendar date can express (far past year 200 000) are written as
/// their decimal millisecond count, which [`parse_timestamp`] reads back.
#[must_use]
pub fn format_iso(ms: Millis) -> String {
    let Some(dt) = i64::try_from(ms.0)
        .ok()
        .and_then(DateTime::<Utc>::from_timestamp_millis)
    else {
        return ms.0.to_string();
    };
    let (year, month, day) = (dt.year(), dt.month(), dt.day());
    let (hour, minute, second) = (dt.hour(), dt.minute(), dt.second());
    let milli = dt.timestamp_subsec_millis();
    // RFC 3339 years have four digits; later ones carry a sign, as chrono writes them.
    let sign = if year > 9999 { "+" } else { "" };
    format!("{sign}{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}.{milli:03}Z")
}

/// A hand-written reader of the two date spellings the wire uses, so that chrono is only
/// the calendar (its parser and formatter cost the element ~10 KB gzip). Every
/// method returns `None` on anything unexpected and never panics.
struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    fn new(s: &'a str) -> Self {
        Reader { rest: s.as_bytes() }
    }

    fn at_end(&self) -> bool {
        self.rest.is_empty()
    }

    fn peek(&self) -> Option<u8> {
        self.rest.first().copied()
    }

    /// Takes the next byte if `pick` accepts it.
    fn take_if(&mut self, pick: impl Fn(u8) -> bool) -> Option<u8> {
        let b = self.peek().filter(|&b| pick(b))?;
        self.rest = &self.rest[1..];
        Some(b)
    }

    fn expect(&mut self, want: u8) -> Option<()> {
        self.take_if(|b| b == want).map(|_| ())
    }

    /// Exactly `width` ASCII digits.
    fn digits(&mut self, width: usize) -> Option<u32> {
        let mut n = 0u32;
        for _ in 0..width {
            let d = self.take_if(|b| b.is_ascii_digit())?;
            n = n * 10 + u32::from(d - b'0');
        }
        Some(n)
    }

    /// One or two ASCII digits.
    fn one_or_two_digits(&mut self) -> Option<u32> {
        let first = self.digits(1)?;
        Some(match self.digits_opt() {
            Some(second) => first * 10 + second,
            None => first,
        })
    }

    fn digits_opt(&mut self) -> Option<u32> {
        self.take_if(|b| b.is_ascii_digit())
            .map(|d| u32::from(d - b'0'))
    }

    /// Milliseconds of `.fff…` (any number of digits, truncated to milliseconds).
    fn fraction_ms(&mut self) -> Option<u32> {
        let mut ms = 0u32;
        let mut scale = 100u32;
        let mut any = false;
        while let Some(d) = self.digits_opt() {
            any = true;
            ms += d * scale;
            scale /= 10;
        }
        any.then_some(ms)
    }

    /// RFC 3339 (`2025-05-02T10:00:00.123+02:00`), the same with a space or a lower-case `t`
    /// for the `T`, without seconds or without an offset (read as UTC), or a bare date
    /// (midnight UTC).
    fn iso_date_time(&mut self) -> Option<i64> {
        // Years past 9999 are written with a sign ([`format_iso`]).
        let year = if self.expect(b'+').is_some() {
            let digits = self.rest.iter().take_while(|b| b.is_ascii_digit()).count();
            (5..=6).contains(&digits).then_some(())?;
            self.digits(digits)?
        } else {
            self.digits(4)?
        };
        let year = i32::try_from(year).ok()?;
        self.expect(b'-')?;
        let month = self.digits(2)?;
        self.expect(b'-')?;
        let day = self.digits(2)?;
        if self.at_end() {
            return epoch_ms(year, month, day, 0, 0, 0, 0, 0);
        }
        self.take_if(|b| matches!(b, b'T' | b't' | b' '))?;
        let hour = self.digits(2)?;
        self.expect(b':')?;
        let minute = self.digits(2)?;
        let (mut second, mut milli) = (0, 0);
        if self.expect(b':').is_some() {
            second = self.digits(2)?;
            if self.expect(b'.').is_some() {
                milli = self.fraction_ms()?;
            }
        }
        let offset = match self.peek() {
            None => 0,
            Some(b'Z' | b'z') => {
                self.rest = &self.rest[1..];
                0
            }
            Some(b'+' | b'-') => {
                let sign = if self.take_if(|_| true)? == b'-' {
                    -1
                } else {
                    1
                };
                let hours = self.digits(2)?;
                self.expect(b':')?;
                let minutes = self.digits(2)?;
                offset_minutes(sign, hours, minutes)?
            }
            Some(_) => return None,
        };
        epoch_ms(year, month, day, hour, minute, second, milli, offset)
    }

    /// RFC 2822 / IMF-fixdate: `[Day, ]DD Mon YYYY HH:MM[:SS] zone`.
    fn imf_date_time(&mut self) -> Option<i64> {
        if self.peek().is_some_and(|b| b.is_ascii_alphabetic()) {
            self.word()?;
            self.expect(b',')?;
            self.spaces();
        }
        let day = self.one_or_two_digits()?;
        self.spaces1()?;
        let month = month_number(self.word()?)?;
        self.spaces1()?;
        let year = i32::try_from(self.digits(4)?).ok()?;
        self.spaces1()?;
        let hour = self.digits(2)?;
        self.expect(b':')?;
        let minute = self.digits(2)?;
        let second = if self.expect(b':').is_some() {
            self.digits(2)?
        } else {
            0
        };
        self.spaces1()?;
        let offset = match self.peek()? {
            b'+' | b'-' => {
                let sign = if self.take_if(|_| true)? == b'-' {
                    -1
                } else {
                    1
                };
                let hours = self.digits(2)?;
                let minutes = self.digits(2)?;
                offset_minutes(sign, hours, minutes)?
            }
            _ => match self.word()? {
                w if w.eq_ignore_ascii_case(b"GMT")
                    || w.eq_ignore_ascii_case(b"UT")
                    || w.eq_ignore_ascii_case(b"UTC")
                    || w.eq_ignore_ascii_case(b"Z") =>
                {
                    0
                }
                _ => return None,
            },
        };
        epoch_ms(year, month, day, hour, minute, second, 0, offset)
    }

    /// ASCII letters (at least one).
    fn word(&mut self) -> Option<&'a [u8]> {
        let len = self
            .rest
            .iter()
            .take_while(|b| b.is_ascii_alphabetic())
            .count();
        (len > 0).then_some(())?;
        let (word, rest) = self.rest.split_at(len);
        self.rest = rest;
        Some(word)
    }

    fn spaces(&mut self) {
        while self.take_if(|b| b == b' ').is_some() {}
    }

    /// At least one space.
    fn spaces1(&mut self) -> Option<()> {
        self.expect(b' ')?;
        self.spaces();
        Some(())
    }
}

/// `Jan` … `Dec` (any case) as 1 … 12.
fn month_number(word: &[u8]) -> Option<u32> {
    const MONTHS: [&[u8; 3]; 12] = [
        b"jan", b"feb", b"mar", b"apr", b"may", b"jun", b"jul", b"aug", b"sep", b"oct", b"nov",
        b"dec",
    ];
    let word = <&[u8; 3]>::try_from(word)
        .ok()?
        .map(|b| b.to_ascii_lowercase());
    let index = MONTHS.iter().position(|m| **m == word)?;
    u32::try_from(index + 1).ok()
}

/// A zone offset in minutes east of UTC (under 24 hours, minutes under 60).
fn offset_minutes(sign: i64, hours: u32, minutes: u32) -> Option<i64> {
    (hours < 24 && minutes < 60).then(|| sign * i64::from(hours * 60 + minutes))
}

/// Milliseconds since the epoch of a calendar date and time at `offset` minutes east of UTC;
/// `None` for a date or time that does not exist. A leap second (`:60`) counts as the
/// second after, as chrono reads it.
#[allow(clippy::too_many_arguments)]
fn epoch_ms(
    year: i32,
    month: u32,
    day: u32,
    hour: u32,
    minute: u32,
    second: u32,
    milli: u32,
    offset: i64,
) -> Option<i64> {
    if hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let date = NaiveDate::from_ymd_opt(year, month, day)?;
    let days = date.and_hms_opt(0, 0, 0)?.and_utc().timestamp() / 86_400;
    let seconds =
        days * 86_400 + i64::from(hour) * 3_600 + i64::from(minute) * 60 + i64::from(second)
            - offset * 60;
    Some(seconds * 1_000 + i64::from(milli))
}

/// Serde adapter for `Option<Millis>` fields that travel as ISO strings but may arrive as
/// epoch-ms numbers.
///
/// Use as `#[serde(default, with = "crate::time::opt_iso", skip_serializing_if =
/// "Option::is_none")]`. Deserialising never fails: `null`, a missing field or an unreadable value
/// all give `None`.
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

#[cfg(test)]
mod tests {
    use chrono::{DateTime, NaiveDate, NaiveDateTime};

    use super::{format_iso, parse_http_date, parse_timestamp_str, Millis};

    /// What chrono's own parsers read (the code this module used before its own reader).
    fn chrono_iso(s: &str) -> Option<Millis> {
        let ms = if let Ok(dt) = DateTime::parse_from_rfc3339(s) {
            dt.timestamp_millis()
        } else {
            let forms = ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%d %H:%M:%S%.f"];
            let naive = forms
                .iter()
                .find_map(|f| NaiveDateTime::parse_from_str(s, f).ok())
                .or_else(|| {
                    let stripped = s.strip_suffix('Z')?;
                    ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"]
                        .iter()
                        .find_map(|f| NaiveDateTime::parse_from_str(stripped, f).ok())
                })
                .or_else(|| {
                    ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"]
                        .iter()
                        .find_map(|f| NaiveDateTime::parse_from_str(s, f).ok())
                })
                .or_else(|| {
                    NaiveDate::parse_from_str(s, "%Y-%m-%d")
                        .ok()
                        .and_then(|d| d.and_hms_opt(0, 0, 0))
                });
            naive?.and_utc().timestamp_millis()
        };
        u64::try_from(ms).ok().map(Millis)
    }

    #[test]
    fn issue16_the_hand_written_iso_reader_agrees_with_chrono() {
        let dates = [
            "2025-05-02",
            "2024-02-29",
            "2023-02-29",
            "2025-13-01",
            "2025-00-10",
            "2025-04-31",
            "1970-01-01",
            "1969-12-31",
            "9999-12-31",
        ];
        let times = [
            "",
            "T10:00",
            "T10:00:00",
            "t10:00:00",
            " 10:00:00",
            "T23:59:60",
            "T24:00:00",
            "T10:60:00",
            "T10:00:61",
            "T00:00:00.5",
            "T00:00:00.123456789",
            "T00:00:00.",
        ];
        let zones = [
            "", "Z", "z", "+02:00", "-05:30", "+23:59", "+24:00", "+0200", "Q",
        ];
        let mut compared = 0;
        for date in dates {
            for time in times {
                for zone in zones {
                    // Without a time, only a bare date is a date-time; without seconds, only
                    // `Z` or nothing (chrono refused `10:00+02:00`, which is read now).
                    let seconds = time.matches(':').count() == 2;
                    if (time.is_empty() && !zone.is_empty())
                        || (!seconds && !matches!(zone, "" | "Z"))
                        || (time.starts_with('t') && zone.is_empty())
                    {
                        continue;
                    }
                    let s = format!("{date}{time}{zone}");
                    assert_eq!(parse_timestamp_str(&s), chrono_iso(&s), "{s}");
                    compared += 1;
                }
            }
        }
        assert!(compared > 500, "{compared}");
        // Read now and not before: an offset on a time without seconds, a lower-case `t`
        // without an offset.
        let ten = parse_timestamp_str("2025-05-02T10:00:00Z");
        assert_eq!(parse_timestamp_str("2025-05-02T12:00+02:00"), ten);
        assert_eq!(parse_timestamp_str("2025-05-02t10:00:00"), ten);
        // Not read now (chrono's `%H` took one digit): ISO fields have two.
        assert_eq!(parse_timestamp_str("2025-05-02T1:00:00"), None);
    }

    #[test]
    fn issue16_the_hand_written_http_date_reader_agrees_with_chrono() {
        let chrono_http = |s: &str| {
            DateTime::parse_from_rfc2822(s)
                .ok()
                .and_then(|dt| u64::try_from(dt.timestamp_millis()).ok())
                .map(Millis)
        };
        let cases = [
            "Sun, 06 Nov 1994 08:49:37 GMT",
            "06 Nov 1994 08:49:37 GMT",
            "Sun, 6 Nov 1994 08:49:37 GMT",
            "Sun, 06 nov 1994 08:49:37 UT",
            "Tue, 14 Nov 2023 22:13:20 +0200",
            "Tue, 14 Nov 2023 22:13:20 -0930",
            "Tue, 14 Nov 2023 22:13 GMT",
            "Tue, 29 Feb 2023 22:13:20 GMT",
            "Tue, 14 Nov 2023 25:13:20 GMT",
            "Tue, 14 Foo 2023 22:13:20 GMT",
            "Wed, 31 Dec 1969 23:59:59 GMT",
            "Tue, 14 Nov 2023 22:13:20",
            "Tue 14 Nov 2023 22:13:20 GMT",
            "yesterday",
        ];
        for s in cases {
            assert_eq!(parse_http_date(s), chrono_http(s), "{s}");
        }
    }

    #[test]
    fn issue16_the_iso_writer_agrees_with_chrono_and_reads_back() {
        let (mut ms, mut signed) = (0u64, 0);
        for step in 0..2_000u64 {
            let at = Millis(ms);
            // Spread over the calendar, past year 9999, to where chrono's dates end.
            let Some(dt) = DateTime::from_timestamp_millis(i64::try_from(ms).unwrap()) else {
                break;
            };
            let chrono = dt.to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
            assert_eq!(format_iso(at), chrono, "{ms}");
            assert_eq!(parse_timestamp_str(&format_iso(at)), Some(at));
            signed += usize::from(chrono.starts_with('+'));
            ms += step * step * 97_531_357 + 1;
        }
        assert!(signed > 10, "{signed}");
    }
}
