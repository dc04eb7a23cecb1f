//! Parts fetched on first use (issue 16, D67): a chunk that cannot be fetched is an error like
//! any other (the banner, `on_error`), and its arrival clears that error and no other.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use agent_chat_ui::core::i18n::Catalog;
use agent_chat_ui::core::{ChatError, Chunk, Command, SessionEvent};
use common::Harness;

fn chunk_errors(h: &Harness) -> Vec<Chunk> {
    h.events
        .iter()
        .filter_map(|e| match e {
            SessionEvent::Error(ChatError::ChunkMissing(c)) => Some(*c),
            _ => None,
        })
        .collect()
}

#[test]
fn i16_a_chunk_that_cannot_be_fetched_shows_in_the_banner_and_on_error() {
    let mut h = Harness::opening("c1");
    h.cmd(Command::ReportError(ChatError::ChunkMissing(Chunk::Cards)));
    assert_eq!(h.s.error(), Some(&ChatError::ChunkMissing(Chunk::Cards)));
    assert_eq!(chunk_errors(&h), vec![Chunk::Cards]);
    let err = h.s.error().unwrap().clone();
    assert_eq!(
        err.describe(&Catalog::new("en")),
        "Part of the chat could not be loaded. Check the connection and retry."
    );
    assert_ne!(
        err.describe(&Catalog::new("tr")),
        err.describe(&Catalog::new("en"))
    );
    assert_ne!(
        err.describe(&Catalog::new("ar")),
        err.describe(&Catalog::new("en"))
    );
}

#[test]
fn i16_the_arrival_of_a_chunk_clears_its_own_error_only() {
    let mut h = Harness::opening("c1");
    h.cmd(Command::ReportError(ChatError::ChunkMissing(
        Chunk::History,
    )));
    // Another part arriving says nothing about the sidebar.
    h.cmd(Command::ChunkArrived(Chunk::Markdown));
    assert_eq!(h.s.error(), Some(&ChatError::ChunkMissing(Chunk::History)));
    h.cmd(Command::ChunkArrived(Chunk::History));
    assert_eq!(h.s.error(), None);
    // Arriving again, with nothing shown, changes nothing.
    h.cmd(Command::ChunkArrived(Chunk::History));
    assert_eq!(h.s.error(), None);
    assert_eq!(chunk_errors(&h), vec![Chunk::History]);
}

#[test]
fn i16_every_chunk_has_a_distinct_name() {
    let names: std::collections::HashSet<_> = Chunk::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(names.len(), Chunk::ALL.len());
}
