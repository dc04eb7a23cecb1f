//! A tiny standard-alphabet base64 decoder (padding optional, ASCII whitespace ignored).

/// Why a base64 string could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError;

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("invalid base64")
    }
}

impl std::error::Error for DecodeError {}

fn value(c: u8) -> Option<u32> {
    match c {
        b'A'..=b'Z' => Some(u32::from(c - b'A')),
        b'a'..=b'z' => Some(u32::from(c - b'a') + 26),
        b'0'..=b'9' => Some(u32::from(c - b'0') + 52),
        b'+' | b'-' => Some(62),
        b'/' | b'_' => Some(63),
        _ => None,
    }
}

/// Upper bound of the decoded size, computed without decoding (used to refuse huge files early).
pub fn decoded_len_estimate(input: &str) -> usize {
    let significant = input
        .bytes()
        .filter(|b| !b.is_ascii_whitespace() && *b != b'=')
        .count();
    significant * 3 / 4
}

/// Decodes base64 (standard or URL-safe alphabet).
pub fn decode(input: &str) -> Result<Vec<u8>, DecodeError> {
    let mut out = Vec::with_capacity(input.len() * 3 / 4);
    let mut acc: u32 = 0;
    let mut nbits = 0u32;
    let mut padding = 0usize;
    for c in input.bytes() {
        if c.is_ascii_whitespace() {
            continue;
        }
        if c == b'=' {
            padding += 1;
            continue;
        }
        if padding > 0 {
            return Err(DecodeError);
        }
        let v = value(c).ok_or(DecodeError)?;
        acc = (acc << 6) | v;
        nbits += 6;
        if nbits >= 8 {
            nbits -= 8;
            out.push(((acc >> nbits) & 0xFF) as u8);
        }
    }
    // 6 leftover bits can never form a valid encoding; more than two pad characters neither.
    if nbits == 6 || padding > 2 {
        return Err(DecodeError);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_known_values() {
        assert_eq!(decode("aGVsbG8=").as_deref(), Ok(&b"hello"[..]));
        assert_eq!(decode("aGVsbG8").as_deref(), Ok(&b"hello"[..]));
        assert_eq!(decode("").as_deref(), Ok(&b""[..]));
        assert_eq!(decode("Zm9vYmFy").as_deref(), Ok(&b"foobar"[..]));
        assert_eq!(decode("Zm9v\nYmE=").as_deref(), Ok(&b"fooba"[..]));
        assert_eq!(decode("/w==").as_deref(), Ok(&[255u8][..]));
    }

    #[test]
    fn rejects_garbage() {
        assert!(decode("a").is_err());
        assert!(decode("ab*c").is_err());
        assert!(decode("ab=c").is_err());
    }

    #[test]
    fn estimate_matches_small_inputs() {
        assert_eq!(decoded_len_estimate("aGVsbG8="), 5);
        assert_eq!(decoded_len_estimate("Zm9vYmFy"), 6);
    }
}
