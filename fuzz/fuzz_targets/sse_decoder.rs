//! The SSE decoder never panics, and yields the same events (and errors) however the body is
//! chunked: whole, or split at positions taken from the first bytes of the input.
//!
//! Input layout: byte 0 picks the frame cap (0 → the default 8 MiB, else a small cap so the
//! "frame too large" path is reached), bytes 1..=4 are chunk lengths (cycled; 0 pushes an
//! empty chunk first), the rest is the stream body.

#![no_main]

use agent_chat_core::{decode_all, SseDecoder};
use libfuzzer_sys::fuzz_target;

/// Number of header bytes holding chunk lengths.
const SPLITS: usize = 4;

fuzz_target!(|data: &[u8]| {
    let Some((&cap, rest)) = data.split_first() else {
        return;
    };
    let (splits, body) = rest.split_at(rest.len().min(SPLITS));
    let new = || match cap {
        0 => SseDecoder::new(),
        n => SseDecoder::with_max_frame_bytes(usize::from(n)),
    };

    let whole = if cap == 0 {
        decode_all(body)
    } else {
        let mut dec = new();
        dec.push(body);
        dec.drain_to_end()
    };
    let whole = format!("{whole:?}");

    let mut dec = new();
    let mut chunked = Vec::new();
    let mut pos = 0;
    for &len in splits.iter().cycle() {
        if pos >= body.len() {
            break;
        }
        let len = usize::from(len % 16);
        if len == 0 {
            dec.push(&[]);
        }
        let end = (pos + len.max(1)).min(body.len());
        dec.push(&body[pos..end]);
        while let Some(ev) = dec.next_event() {
            chunked.push(ev);
        }
        pos = end;
    }
    if splits.is_empty() {
        dec.push(body);
    }
    chunked.extend(dec.drain_to_end());
    // `finish` is idempotent.
    assert!(dec.finish().is_none(), "finish yielded again after None");
    let chunked = format!("{chunked:?}");

    assert_eq!(whole, chunked, "chunking changed the decoded events");
});
