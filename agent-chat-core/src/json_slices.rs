//! Finding the elements of one array of a JSON object without parsing them, so a
//! long conversation can be read a slice of messages at a time, newest first, instead of in
//! one task that blocks the browser.
//!
//! The scan only follows the grammar's structure (strings with their escapes, nesting,
//! scalars) and checks nothing else: what it cuts out is parsed by `serde_json` (through
//! [`crate::lenient`]) afterwards, which refuses anything malformed. Text it cannot
//! follow gives `None`, and the caller parses the body whole as before.

use std::ops::Range;

/// Where the array under the top-level `key` of the object `text` lies: the array itself
/// (brackets included) and each of its elements, in order. `None` when `text` is not an
/// object, has no such array at its top level, or cannot be followed. With the key given
/// twice, the last one counts (as it does for `serde_json`).
#[must_use]
pub fn array_elements(text: &str, key: &str) -> Option<(Range<usize>, Vec<Range<usize>>)> {
    let b = text.as_bytes();
    let mut i = skip_ws(b, 0);
    if b.get(i) != Some(&b'{') {
        return None;
    }
    i = skip_ws(b, i + 1);
    let mut found = None;
    if b.get(i) == Some(&b'}') {
        return None;
    }
    loop {
        let name_end = skip_string(b, i)?;
        let name = &b[i + 1..name_end - 1];
        i = skip_ws(b, name_end);
        if b.get(i) != Some(&b':') {
            return None;
        }
        i = skip_ws(b, i + 1);
        if name == key.as_bytes() && b.get(i) == Some(&b'[') {
            let (end, elements) = elements_of(b, i)?;
            found = Some((i..end, elements));
            i = end;
        } else {
            i = skip_value(b, i)?;
        }
        i = skip_ws(b, i);
        match b.get(i) {
            Some(b',') => i = skip_ws(b, i + 1),
            Some(b'}') => break,
            _ => return None,
        }
    }
    // Nothing but white space may follow the object.
    (skip_ws(b, i + 1) == b.len()).then_some(())?;
    found
}

/// The elements of the array starting at `i` (`[`): the index after its `]` and each
/// element's range.
fn elements_of(b: &[u8], i: usize) -> Option<(usize, Vec<Range<usize>>)> {
    let mut elements = Vec::new();
    let mut i = skip_ws(b, i + 1);
    if b.get(i) == Some(&b']') {
        return Some((i + 1, elements));
    }
    loop {
        let end = skip_value(b, i)?;
        elements.push(i..end);
        i = skip_ws(b, end);
        match b.get(i) {
            Some(b',') => i = skip_ws(b, i + 1),
            Some(b']') => return Some((i + 1, elements)),
            _ => return None,
        }
    }
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// The index after the string starting at `i` (`"`).
fn skip_string(b: &[u8], i: usize) -> Option<usize> {
    if b.get(i) != Some(&b'"') {
        return None;
    }
    let mut i = i + 1;
    loop {
        match b.get(i)? {
            b'"' => return Some(i + 1),
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
}

/// The index after the value starting at `i`. Containers are followed by their brackets
/// alone (strings inside skipped whole), without recursion, however deep.
fn skip_value(b: &[u8], i: usize) -> Option<usize> {
    match b.get(i)? {
        b'"' => skip_string(b, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut i = i;
            loop {
                match b.get(i)? {
                    b'"' => {
                        i = skip_string(b, i)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
        }
        _ => {
            // A number, true, false or null: up to the next delimiter.
            let start = i;
            let mut i = i;
            while let Some(c) = b.get(i) {
                if matches!(c, b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r') {
                    break;
                }
                i += 1;
            }
            (i > start).then_some(i)
        }
    }
}
