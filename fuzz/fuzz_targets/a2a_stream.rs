//! The a2a backend's stream decoder and whole-reply reader never panic, whatever the
//! server sends (A2A 1.0 results wrapped by type, 0.3 results with `kind`, or neither), and
//! however the body is chunked; nor do its card reader and the card's address rules.
//!
//! Input layout: byte 0 is where the body is split into two chunks (scaled to its length),
//! the rest is the body; the same bytes are also read as one whole reply.

#![no_main]

use agent_chat_core::transport::a2a;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&split, body)) = data.split_first() else {
        return;
    };
    let at = body.len() * usize::from(split) / 255;
    let mut decoder = a2a::Decoder::new();
    let _ = decoder.push(&body[..at]);
    let _ = decoder.push(&body[at..]);
    let _ = decoder.finish();
    let _ = decoder.ending();
    let text = String::from_utf8_lossy(body);
    let _ = a2a::Decoder::new().read_whole(&text);
    if let Some(card) = a2a::card::read(&text) {
        let _ = a2a::card::rpc_address(card.url.as_deref(), Some("https://chat.test/a2a"));
    }
    let _ = a2a::card::candidates(Some(&text));
    let _ = a2a::card::rpc_address(Some(&text), Some(&text));
});
