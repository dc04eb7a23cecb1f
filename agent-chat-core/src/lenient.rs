//! JSON as the grammar allows it, for stream frames. serde_json refuses two
//! things a server may well send: a lone UTF-16 surrogate escape (`"\ud800"`, valid JSON
//! text, not a valid string) and nesting deeper than its recursion limit. A frame refused for
//! either would make a pending action vanish, leaving a waiting server without its card. So
//! such a frame is read again: lone surrogates become U+FFFD, and every container nested
//! deeper than [`MAX_DEPTH`] becomes the string `"…"` (its arguments shown as far as they
//! could be read).

use serde_json::Value;

/// Containers nested deeper than this are replaced by `"…"` (serde_json stops at 128).
pub const MAX_DEPTH: usize = 100;

/// Parses `text`; when serde_json refuses it for a lone surrogate or its depth, parses the
/// repaired text instead. Any other error is serde_json's, unchanged.
pub fn parse(text: &str) -> Result<Value, serde_json::Error> {
    match serde_json::from_str(text) {
        Ok(v) => Ok(v),
        Err(first) => {
            let message = first.to_string();
            let repaired = if message.contains("surrogate") || message.contains("hex escape") {
                replace_lone_surrogates(text)
            } else if message.contains("recursion limit") {
                flatten_deep(text, MAX_DEPTH)
            } else {
                return Err(first);
            };
            // Both at once: repair the other kind too on a second refusal.
            match serde_json::from_str(&repaired) {
                Ok(v) => Ok(v),
                Err(_) => {
                    serde_json::from_str(&flatten_deep(&replace_lone_surrogates(text), MAX_DEPTH))
                        .map_err(|_| first)
                }
            }
        }
    }
}

fn hex4(b: &[u8]) -> Option<u32> {
    let s = std::str::from_utf8(b.get(..4)?).ok()?;
    u32::from_str_radix(s, 16).ok()
}

/// `\uD800`–`\uDFFF` escapes that are not a high-low pair become `\ufffd`.
fn replace_lone_surrogates(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut last = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            if b[i + 1] == b'u' {
                if let Some(cp) = hex4(&b[i + 2..]) {
                    let paired = (0xD800..0xDC00).contains(&cp)
                        && b.get(i + 6) == Some(&b'\\')
                        && b.get(i + 7) == Some(&b'u')
                        && hex4(&b[(i + 8).min(b.len())..])
                            .is_some_and(|lo| (0xDC00..0xE000).contains(&lo));
                    if paired {
                        i += 12;
                        continue;
                    }
                    if (0xD800..0xE000).contains(&cp) {
                        out.push_str(&text[last..i]);
                        out.push_str("\\ufffd");
                        i += 6;
                        last = i;
                        continue;
                    }
                }
            }
            i += 2;
            continue;
        }
        i += 1;
    }
    out.push_str(&text[last..]);
    out
}

/// Every array or object opened deeper than `max` becomes `"…"`.
fn flatten_deep(text: &str, max: usize) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    // While inside a dropped container: the depth at which it was opened.
    let mut dropping: Option<usize> = None;
    for c in text.chars() {
        if in_string {
            if dropping.is_none() {
                out.push(c);
            }
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                if dropping.is_none() {
                    out.push(c);
                }
            }
            '[' | '{' => {
                depth += 1;
                if dropping.is_none() && depth > max {
                    dropping = Some(depth);
                    out.push_str("\"…\"");
                } else if dropping.is_none() {
                    out.push(c);
                }
            }
            ']' | '}' => {
                if dropping == Some(depth) {
                    dropping = None;
                } else if dropping.is_none() {
                    out.push(c);
                }
                depth = depth.saturating_sub(1);
            }
            _ => {
                if dropping.is_none() {
                    out.push(c);
                }
            }
        }
    }
    out
}
