//! The `format`s tool schemas use, checked by hand (no URL or date library in the wasm):
//! `email`, `uri`, `date`, `date-time`, `time` and `uuid`. Any other format is an annotation
//! and is not checked, as JSON Schema 2020-12 says of formats by default.

/// `Some(valid)` for a format the checker knows, `None` for any other.
pub(super) fn check(format: &str, text: &str) -> Option<bool> {
    Some(match format {
        "email" => email(text),
        "uri" => uri(text),
        "date" => date(text),
        "date-time" => date_time(text),
        "time" => time(text),
        "uuid" => uuid(text),
        _ => return None,
    })
}

/// RFC 5321 mailbox, the usual subset: a dot-atom or quoted local part, `@`, and a host name
/// or an address literal in brackets.
fn email(text: &str) -> bool {
    let Some(at) = text.rfind('@') else {
        return false;
    };
    let (local, domain) = (&text[..at], &text[at + 1..]);
    let local_ok = if local.len() >= 2 && local.starts_with('"') && local.ends_with('"') {
        !local[1..local.len() - 1].contains(['"', '\\'])
    } else {
        dot_atom(local, |c| {
            c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c)
        })
    };
    let domain_ok = if let Some(literal) =
        domain.strip_prefix('[').and_then(|d| d.strip_suffix(']'))
    {
        match literal.strip_prefix("IPv6:") {
            Some(v6) => v6.contains(':') && v6.chars().all(|c| c.is_ascii_hexdigit() || c == ':'),
            None => ipv4(literal),
        }
    } else {
        dot_atom(domain, |c| c.is_ascii_alphanumeric() || c == '-')
            && domain
                .split('.')
                .all(|label| !label.starts_with('-') && !label.ends_with('-'))
    };
    local_ok && domain_ok
}

/// Non-empty parts of allowed characters joined by single dots.
fn dot_atom(text: &str, allowed: impl Fn(char) -> bool) -> bool {
    !text.is_empty()
        && text
            .split('.')
            .all(|part| !part.is_empty() && part.chars().all(&allowed))
}

fn ipv4(text: &str) -> bool {
    let parts: Vec<&str> = text.split('.').collect();
    parts.len() == 4
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.len() <= 3
                && p.bytes().all(|b| b.is_ascii_digit())
                && (p.len() == 1 || !p.starts_with('0'))
                && p.parse::<u16>().is_ok_and(|n| n <= 255)
        })
}

/// RFC 3986 URI: a scheme, `:`, and only characters a URI may hold (`%` followed by two hex
/// digits). An authority's port must be digits.
fn uri(text: &str) -> bool {
    let Some(colon) = text.find(':') else {
        return false;
    };
    let scheme = &text[..colon];
    let scheme_ok = scheme
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    if !scheme_ok {
        return false;
    }
    let rest = &text[colon + 1..];
    let bytes = rest.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        let ok = b.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=".contains(&b);
        if b == b'%' {
            let hex = |j: usize| bytes.get(j).is_some_and(u8::is_ascii_hexdigit);
            if !(hex(i + 1) && hex(i + 2)) {
                return false;
            }
        } else if !ok {
            return false;
        }
    }
    if let Some(hier) = rest.strip_prefix("//") {
        let authority = hier.split(['/', '?', '#']).next().unwrap_or("");
        let host_port = authority.rsplit('@').next().unwrap_or("");
        if let Some(literal) = host_port.strip_prefix('[') {
            let Some(end) = literal.find(']') else {
                return false;
            };
            let after = &literal[end + 1..];
            if !(after.is_empty() || port(after)) {
                return false;
            }
        } else {
            if host_port.contains(['[', ']']) {
                return false;
            }
            if let Some(colon) = host_port.find(':') {
                if !port(&host_port[colon..]) {
                    return false;
                }
            }
        }
        // `[` and `]` only delimit an IPv6 host.
        let path_and_after = &hier[authority.len()..];
        if path_and_after.contains(['[', ']'])
            || authority
                .rsplit('@')
                .nth(1)
                .is_some_and(|u| u.contains(['[', ']']))
        {
            return false;
        }
    } else if rest.contains(['[', ']']) {
        return false;
    }
    true
}

/// `:` followed by digits (possibly none).
fn port(text: &str) -> bool {
    text.strip_prefix(':')
        .is_some_and(|p| p.bytes().all(|b| b.is_ascii_digit()))
}

/// `n` ASCII digits as a number, or `None`.
fn digits(text: &str, n: usize) -> Option<u32> {
    (text.len() == n && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
}

/// RFC 3339 `full-date`: `YYYY-MM-DD`, a real day (leap years counted).
fn date(text: &str) -> bool {
    let b = text.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(year), Some(month), Some(day)) = (
        digits(&text[..4], 4),
        digits(&text[5..7], 2),
        digits(&text[8..], 2),
    ) else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// RFC 3339 `full-time`: `HH:MM:SS[.frac](Z|±HH:MM)`; a leap second (`:60`) only where the
/// time is 23:59 in UTC.
fn time(text: &str) -> bool {
    let b = text.as_bytes();
    if b.len() < 9 || b[2] != b':' || b[5] != b':' {
        return false;
    }
    let (Some(hour), Some(minute), Some(second)) = (
        digits(&text[..2], 2),
        digits(&text[3..5], 2),
        digits(&text[6..8], 2),
    ) else {
        return false;
    };
    let mut rest = &text[8..];
    if let Some(frac) = rest.strip_prefix('.') {
        let n = frac.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return false;
        }
        rest = &frac[n..];
    }
    let offset_minutes: i64 = if rest == "Z" || rest == "z" {
        0
    } else {
        let sign = match rest.as_bytes().first() {
            Some(b'+') => 1,
            Some(b'-') => -1,
            _ => return false,
        };
        let o = &rest[1..];
        if o.len() != 5 || o.as_bytes()[2] != b':' {
            return false;
        }
        let (Some(oh), Some(om)) = (digits(&o[..2], 2), digits(&o[3..], 2)) else {
            return false;
        };
        if oh > 23 || om > 59 {
            return false;
        }
        sign * i64::from(oh * 60 + om)
    };
    if hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    if second == 60 {
        let utc = (i64::from(hour * 60 + minute) - offset_minutes).rem_euclid(24 * 60);
        return utc == 23 * 60 + 59;
    }
    true
}

/// RFC 3339 `date-time`: a date, `T` (or `t`), a time.
fn date_time(text: &str) -> bool {
    match text.get(..10).zip(text.get(10..11)).zip(text.get(11..)) {
        Some(((d, t), rest)) => date(d) && (t == "T" || t == "t") && time(rest),
        None => false,
    }
}

/// RFC 4122 text form: 8-4-4-4-12 hexadecimal digits.
fn uuid(text: &str) -> bool {
    let groups: Vec<&str> = text.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()))
}
