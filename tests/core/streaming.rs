//! The streaming path (issue 8, D42) without a browser: the session appends to a shared
//! [`StreamText`], a "publish" clones the turn without copying the text, the Markdown stream
//! reads only the new bytes and hands a view a patch that never looks at the blocks already
//! drawn. Work is counted (bytes fed, compared, parsed; blocks visited and drawn), never timed.
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::markdown::{parse, Block, Keyed, MarkdownStream, Patch};
use agent_chat_ui::core::{Command, Method, SessionConfig, SessionEvent, StreamText};

use crate::common;

use common::{frame, Harness, CONV};

/// What a view holds: the blocks it drew, in order, and what it did to get there.
#[derive(Default)]
struct View {
    blocks: Vec<Keyed>,
    drawn: usize,
    removed: usize,
}

impl View {
    /// Applies a patch as `StreamingMarkdown` does.
    fn apply(&mut self, patch: Patch) {
        assert!(patch.keep <= self.blocks.len(), "keep past the end");
        self.removed += self.blocks.len() - patch.keep;
        self.blocks.truncate(patch.keep);
        for (i, k) in patch.replace {
            self.blocks[i] = k;
            self.drawn += 1;
        }
        self.drawn += patch.append.len();
        self.blocks.extend(patch.append);
    }

    fn tree(&self) -> Vec<Block> {
        self.blocks.iter().map(|k| (*k.block).clone()).collect()
    }
}

#[test]
fn d42_stream_text_clones_share_the_buffer_and_grow_apart_by_copying() {
    let mut a = StreamText::new();
    a.push_str("Hello");
    let snapshot = a.clone();
    assert!(snapshot.shares_buffer_with(&a));
    // The longest snapshot appends in place: the older one still reads its own prefix.
    a.push_str(", world");
    assert!(a.shares_buffer_with(&snapshot));
    assert_eq!(a, "Hello, world");
    assert_eq!(snapshot, "Hello");
    assert_eq!(snapshot.buffer_id(), a.buffer_id());
    a.with_from(snapshot.len(), |new| assert_eq!(new, ", world"));
    // A shorter snapshot that appends gets a buffer of its own; nobody else changes.
    let mut b = snapshot.clone();
    b.push_str(" there");
    assert!(!b.shares_buffer_with(&a));
    assert_ne!(b.buffer_id(), a.buffer_id());
    assert_eq!(b, "Hello there");
    assert_eq!(a, "Hello, world");
    assert_eq!(snapshot, "Hello");
    // Equality is by text, whatever the buffer.
    assert_eq!(StreamText::from("Hello there"), b);
    assert_ne!(StreamText::from("Hello"), a);
    assert_eq!(a.to_string(), "Hello, world");
    assert_eq!(format!("{b:?}"), "\"Hello there\"");
    // Not a character boundary, or past the end: nothing.
    let mut c = StreamText::from("é");
    c.with_from(1, |t| assert_eq!(t, ""));
    c.with_from(9, |t| assert_eq!(t, ""));
    c.push_str("!");
    c.with_from(2, |t| assert_eq!(t, "!"));
    assert!(StreamText::default().is_empty());
}

#[test]
fn d42_feed_reads_only_new_bytes_and_starts_over_for_another_answer() {
    let mut text = StreamText::new();
    let mut md = MarkdownStream::new();
    text.push_str("# Title\n\nFirst");
    md.feed(&text.clone());
    text.push_str(" paragraph.\n\nSecond");
    md.feed(&text.clone());
    assert_eq!(md.blocks(), parse("# Title\n\nFirst paragraph.\n\nSecond"));
    let s = md.stats();
    assert_eq!(s.bytes_fed, text.len() as u64, "each byte taken in once");
    // The first snapshot of a buffer is compared with the (empty) text so far; the second
    // is not compared at all.
    assert_eq!(s.bytes_compared, 0);
    // The same snapshot again: nothing to do.
    md.feed(&text.clone());
    assert_eq!(md.stats().bytes_fed, s.bytes_fed);
    assert_eq!(md.stats().parses, s.parses);
    // Another answer (another buffer) starts over, even if it happens to extend the text.
    let other = StreamText::from("Other");
    md.feed(&other);
    assert_eq!(md.blocks(), parse("Other"));
    assert_eq!(md.text(), "Other");
    let mut view = View::default();
    view.apply(md.take_patch());
    assert_eq!(view.tree(), parse("Other"));
}

#[test]
fn d42_patches_rebuild_every_prefix_and_never_revisit_drawn_blocks() {
    // Includes a definition that arrives after its use: the completed paragraph that uses it
    // is replaced in place, the only time a patch touches a block drawn before.
    let doc = "# Title\n\nSee [docs].\n\n- one\n- two\n\n```js\nlet a;\n\nb\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n[docs]: https://example.com\n\nEnd *here*.";
    let mut md = MarkdownStream::new();
    let mut view = View::default();
    let mut replaced = 0;
    for (end, c) in doc.char_indices() {
        let committed_before = md.committed().len();
        md.push_str(&c.to_string());
        let patch = md.take_patch();
        replaced += patch.replace.len();
        // Only the paragraph that uses `[docs]` (block 1), while its definition is typed.
        assert!(
            patch.replace.iter().all(|(i, _)| *i == 1),
            "{:?}",
            patch.replace
        );
        // Only blocks of the old open tail go; completed ones stay (replaced ones in place).
        assert!(
            patch.keep >= committed_before,
            "a completed block was dropped"
        );
        view.apply(patch);
        let prefix = &doc[..end + c.len_utf8()];
        assert_eq!(view.tree(), parse(prefix), "prefix {prefix:?}");
        let ids: Vec<u64> = md
            .committed()
            .iter()
            .chain(md.tail())
            .map(|k| k.id)
            .collect();
        let shown: Vec<u64> = view.blocks.iter().map(|k| k.id).collect();
        assert_eq!(shown, ids);
    }
    assert!(replaced > 0, "the paragraph using [docs] is redrawn");
    // Starting over drops everything.
    md.set_text("New");
    let patch = md.take_patch();
    assert_eq!(patch.keep, 0);
    view.apply(patch);
    assert_eq!(view.tree(), parse("New"));
}

include!("../fixtures/markdown_pieces.rs");

#[test]
fn d42_a_megabyte_reply_costs_the_same_per_frame_at_the_end_as_at_the_start() {
    let mut answer = String::new();
    let mut i = 0;
    while answer.len() < 1_000_000 {
        answer.push_str(PIECES[i % PIECES.len()]);
        answer.push_str("\n\n");
        i += 1;
    }
    let largest_piece = PIECES.iter().map(|p| p.len()).max().unwrap_or(0);

    let mut h = Harness::started_with_agent(SessionConfig::default());
    h.cmd(Command::Send("long, please".into()));
    h.answer(Method::Post, "/conversations", 201, CONV);
    h.chunk(
        0,
        &frame(
            r#"{"type":"stream.start","timestamp":1,"conversationId":"conv_1","messageId":"m_u"}"#,
        ),
    );

    let mut md = MarkdownStream::new();
    let mut view = View::default();
    let mut fed_so_far = 0usize;
    let mut frames = 0u64;
    let mut per_frame_parsed = Vec::new();
    let mut reparse_frames = 0;
    // Deltas of 37 bytes (as a model might send), eight per animation frame.
    let deltas: Vec<&str> = answer
        .as_bytes()
        .chunks(37)
        .map(|c| std::str::from_utf8(c).expect("ascii"))
        .collect();
    for group in deltas.chunks(8) {
        for delta in group {
            let event = serde_json::json!({"type": "stream.text", "timestamp": 2, "text": delta});
            h.chunk(0, &frame(&event.to_string()));
        }
        // The store's publish: the turn is cloned into a signal; the text is not copied.
        let published = h.s.streaming().cloned().expect("streaming");
        let live = &h.s.streaming().expect("streaming").text;
        assert!(
            published.text.shares_buffer_with(live),
            "publish copied the text"
        );
        // StreamingMarkdown's update.
        let before = md.stats();
        let committed_before = md.committed().len();
        let tail_before = md.tail().len();
        let tail_bytes = md.tail_text().len();
        md.feed(&published.text);
        let patch = md.take_patch();
        let after = md.stats();
        let delta = published.text.len() - fed_so_far;
        fed_so_far = published.text.len();
        frames += 1;

        assert_eq!(
            after.bytes_fed - before.bytes_fed,
            delta as u64,
            "frame {frames}"
        );
        assert_eq!(after.bytes_compared, 0, "nothing compared (frame {frames})");
        let parsed = after.bytes_parsed - before.bytes_parsed;
        if after.parses - before.parses == 1 {
            // The open tail it had, the new bytes and the one definition written ahead of
            // them: never the part streamed before.
            assert!(
                parsed as usize <= tail_bytes + delta + 64,
                "frame {frames} parsed {parsed} B of {fed_so_far} B"
            );
        } else {
            // A definition arrived after its use: the blocks using it were parsed again.
            reparse_frames += 1;
        }
        assert!(
            md.tail_text().len() <= 2 * largest_piece + delta,
            "the open tail grew to {} B",
            md.tail_text().len()
        );
        per_frame_parsed.push(parsed);
        let new_blocks = md.committed().len() - committed_before + md.tail().len();
        assert_eq!(
            after.patch_visited - before.patch_visited,
            new_blocks as u64,
            "the patch looked only at new and open blocks (frame {frames})"
        );
        assert!(
            patch.keep >= committed_before,
            "a completed block was redrawn"
        );
        assert!(
            patch.replace.is_empty(),
            "definitions come before their uses here"
        );
        let removed_before = view.removed;
        view.apply(patch);
        assert!(view.removed - removed_before <= tail_before);
    }
    assert!(frames > 3_000, "{frames} frames");
    // Only the first `[docs]` definition (it follows its first use) changes anything.
    assert!(
        reparse_frames <= 2,
        "{reparse_frames} frames parsed completed blocks again"
    );

    // Every `StreamText` event carried a snapshot of the same buffer (no copy per delta).
    let turn_text = h.s.streaming().expect("streaming").text.clone();
    let mut events = 0;
    for e in &h.events {
        if let SessionEvent::StreamText { full, .. } = e {
            assert!(full.shares_buffer_with(&turn_text));
            events += 1;
        }
    }
    assert_eq!(events, deltas.len());

    // Late frames parse what early ones did.
    let n = per_frame_parsed.len();
    let early = per_frame_parsed[..n / 10]
        .iter()
        .max()
        .copied()
        .unwrap_or(0);
    let late = per_frame_parsed[n - n / 10..]
        .iter()
        .max()
        .copied()
        .unwrap_or(0);
    assert!(late <= early + 64, "early max {early} B, late max {late} B");

    // And the view is exactly the whole answer.
    assert_eq!(view.tree(), parse(&answer));
    assert_eq!(turn_text, answer);
}
