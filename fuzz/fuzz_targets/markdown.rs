//! The Markdown parser never panics: whole, and streamed in two pieces as a reply arrives.
//!
//! Input layout: byte 0 is where the text is split (scaled to its length), the rest is the
//! text (invalid UTF-8 replaced).

#![no_main]

use agent_chat_core::markdown::{parse, MarkdownStream};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&split, body)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(body);
    let _ = parse(&text);
    let mut at = text.len() * usize::from(split) / 255;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let mut stream = MarkdownStream::new();
    stream.push_str(&text[..at]);
    let _ = stream.take_patch();
    stream.push_str(&text[at..]);
    let _ = stream.take_patch();
});
