//! The SSE decoder is chunk-agnostic (PROTOCOL §6, C22): every fixture transcript gives the
//! same events whole, split at every byte, in 1-byte chunks and in pseudo-random chunks.
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};

use agent_chat_ui::core::{
    decode_all, ActionKind, ActionStatus, DecodeError, Millis, PendingAction, Resolution,
    SseDecoder, SseFrame, SseFrameDecoder, StreamEvent, ToolApproval, TurnStatus, Usage,
    DEFAULT_MAX_FRAME_BYTES,
};
use serde_json::json;

type Item = Result<StreamEvent, DecodeError>;

fn fixture_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(fixture_path(name)).expect("fixture readable")
}

/// Pushes `chunks` one by one, draining after each push, then finishes.
fn decode_chunks<'a>(chunks: impl IntoIterator<Item = &'a [u8]>) -> Vec<Item> {
    let mut dec = SseDecoder::new();
    let mut out = Vec::new();
    for c in chunks {
        dec.push(c);
        while let Some(ev) = dec.next_event() {
            out.push(ev);
        }
    }
    while let Some(ev) = dec.finish() {
        out.push(ev);
    }
    out
}

/// Tiny deterministic generator (Numerical Recipes LCG) for chunk sizes.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
}

fn random_chunks(bytes: &[u8], seed: u64, max_chunk: usize) -> Vec<&[u8]> {
    let mut rng = Lcg(seed);
    let mut out = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        let n = (rng.next() as usize % max_chunk + 1).min(rest.len());
        let (a, b) = rest.split_at(n);
        out.push(a);
        rest = b;
    }
    out
}

/// C22: whole, every 2-way split, 1-byte chunks, and LCG chunkings all agree with `expected`.
fn assert_chunk_agnostic(name: &str, expected: &[Item]) {
    let bytes = fixture(name);
    let whole = decode_chunks([bytes.as_slice()]);
    assert_eq!(whole, expected, "{name}: whole body");
    assert_eq!(decode_all(&bytes), expected, "{name}: decode_all");
    for i in 0..=bytes.len() {
        let (a, b) = bytes.split_at(i);
        assert_eq!(decode_chunks([a, b]), expected, "{name}: split at byte {i}");
    }
    let ones: Vec<&[u8]> = bytes.chunks(1).collect();
    assert_eq!(decode_chunks(ones), expected, "{name}: 1-byte chunks");
    for seed in 0..300u64 {
        for max_chunk in [2usize, 3, 7, 16, 64] {
            let chunks = random_chunks(&bytes, seed, max_chunk);
            assert_eq!(
                decode_chunks(chunks),
                expected,
                "{name}: LCG seed {seed} max chunk {max_chunk}"
            );
        }
    }
    // Text already decoded, split at every char boundary (push_str path).
    let text = std::str::from_utf8(&bytes).expect("fixtures are UTF-8");
    for (i, _) in text.char_indices() {
        let mut dec = SseDecoder::new();
        let mut out = Vec::new();
        dec.push_str(&text[..i]);
        while let Some(ev) = dec.next_event() {
            out.push(ev);
        }
        dec.push_str(&text[i..]);
        while let Some(ev) = dec.finish() {
            out.push(ev);
        }
        assert_eq!(out, expected, "{name}: push_str split at char {i}");
    }
}

fn approval_action() -> PendingAction {
    PendingAction::new(
        "act_1",
        ActionKind::ToolApproval(ToolApproval {
            tool_name: "shell_run".into(),
            args: json!({ "path": "./build" }),
            ..ToolApproval::default()
        }),
    )
}

fn echo_base_expected() -> Vec<Item> {
    vec![
        Ok(StreamEvent::Start {
            conversation_id: Some("conv_a".into()),
            message_id: Some("msg_u1".into()),
        }),
        Ok(StreamEvent::ToolCall {
            tool_call_id: "call_9".into(),
            tool_name: "get_weather".into(),
            args: json!({ "city": "Izmir" }),
            reasoning: None,
            display_name: None,
        }),
        Ok(StreamEvent::ToolResult {
            tool_call_id: "call_9".into(),
            tool_name: "get_weather".into(),
            result: json!({ "tempC": 24 }),
        }),
        Ok(StreamEvent::Text {
            text: "It is 24 °C".into(),
            is_final: false,
        }),
        Ok(StreamEvent::Done {
            conversation_id: Some("conv_a".into()),
            message_id: Some("msg_a1".into()),
            content: "It is 24 °C".into(),
            title: None,
            usage: Some(Usage {
                total_tokens: Some(42),
                ..Usage::default()
            }),
            citations: Vec::new(),
            status: None,
            pending_actions: None,
        }),
    ]
}

/// §6 example stream.
#[test]
fn c22_echo_base_fixture_is_chunk_agnostic() {
    assert_chunk_agnostic("echo_base.sse", &echo_base_expected());
}

/// §9.11 first half: the turn pauses on an approval.
#[test]
fn c22_approval_pause_fixture_is_chunk_agnostic() {
    let expected = vec![
        Ok(StreamEvent::Start {
            conversation_id: Some("conv_a".into()),
            message_id: Some("msg_u1".into()),
        }),
        Ok(StreamEvent::ActionRequired {
            conversation_id: Some("conv_a".into()),
            message_id: None,
            action: approval_action(),
        }),
        Ok(StreamEvent::Done {
            conversation_id: Some("conv_a".into()),
            message_id: Some("msg_a1".into()),
            content: "I need approval first.".into(),
            title: None,
            usage: None,
            citations: Vec::new(),
            status: Some(TurnStatus::RequiresAction),
            pending_actions: Some(vec![approval_action()]),
        }),
    ];
    assert_chunk_agnostic("approval_pause.sse", &expected);
}

/// §9.11 second half: the resolve stream settles the action and continues (C4, C33).
#[test]
fn c4_approval_resolve_fixture_is_chunk_agnostic() {
    let expected = vec![
        Ok(StreamEvent::ActionResolved {
            conversation_id: Some("conv_a".into()),
            action_id: "act_1".into(),
            status: ActionStatus::Resolved,
            resolution: Some(Resolution::allow()),
            resolved_by: Some("user:u1".into()),
        }),
        Ok(StreamEvent::Text {
            text: "Removed.".into(),
            is_final: false,
        }),
        Ok(StreamEvent::Done {
            conversation_id: Some("conv_a".into()),
            message_id: Some("msg_a2".into()),
            content: "Removed.".into(),
            title: None,
            usage: None,
            citations: Vec::new(),
            status: Some(TurnStatus::Completed),
            pending_actions: None,
        }),
    ];
    assert_chunk_agnostic("approval_resolve.sse", &expected);
}

/// A question stream (C3, C14): the action and its questions survive every chunking.
#[test]
fn c3_question_fixture_is_chunk_agnostic() {
    let bytes = fixture("question.sse");
    let events = decode_all(&bytes);
    assert_eq!(events.len(), 4);
    let Ok(StreamEvent::ActionRequired {
        message_id, action, ..
    }) = &events[2]
    else {
        panic!("third event should be action_required: {:?}", events[2]);
    };
    assert_eq!(message_id.as_deref(), Some("msg_a3"));
    assert_eq!(action.id, "q_1");
    assert_eq!(action.expires_at, Some(Millis(1_746_180_000_000)));
    let ActionKind::UserQuestion(q) = &action.kind else {
        panic!("user_question expected");
    };
    assert_eq!(q.allow_free_text, Some(false));
    assert_eq!(q.questions.len(), 3);
    assert_eq!(q.questions[0].options[0].value, "eu-west");
    assert_eq!(q.questions[0].options[1].value, "US East"); // value defaults to label
    assert!(!q.questions[0].offers_free_text(q.allow_free_text)); // C14 action level
    assert!(q.questions[1].multi_select);
    assert!(q.questions[1].offers_free_text(q.allow_free_text)); // question wins
    assert!(!q.questions[2].required);
    assert!(q.questions[2].offers_free_text(q.allow_free_text)); // no options
    assert!(matches!(
        &events[3],
        Ok(StreamEvent::Done { status: Some(TurnStatus::RequiresAction), pending_actions: Some(p), .. })
            if p.len() == 1
    ));
    let expected = events.clone();
    assert_chunk_agnostic("question.sse", &expected);
}

/// C22 tolerance: `event:` lines, CRLF, comments, `id:`/`retry:`, multi-line data, a
/// malformed frame (reported, then decoding continues), an unknown type, docs-form tool
/// events (X8) and a done carrying `message` (X1).
#[test]
fn c22_quirks_fixture_is_chunk_agnostic() {
    let bytes = fixture("quirks.sse");
    assert!(
        bytes.windows(2).any(|w| w == b"\r\n"),
        "quirks.sse must keep its CRLF line ends"
    );
    let events = decode_all(&bytes);
    assert_eq!(events.len(), 10, "{events:#?}");
    assert_eq!(
        events[0],
        Ok(StreamEvent::Start {
            conversation_id: Some("conv_x".into()),
            message_id: Some("msg_u9".into()),
        })
    );
    assert_eq!(
        events[1],
        Ok(StreamEvent::Text {
            text: "line one\nline two".into(),
            is_final: false,
        })
    );
    assert_eq!(
        events[2],
        Ok(StreamEvent::Text {
            text: "multi-line data".into(),
            is_final: true,
        })
    );
    assert!(
        matches!(&events[3], Err(DecodeError::MalformedJson { excerpt, .. }) if excerpt.contains("broken json")),
        "{:?}",
        events[3]
    );
    assert_eq!(
        events[4],
        Ok(StreamEvent::Text {
            text: "json type wins".into(),
            is_final: false,
        })
    );
    assert_eq!(
        events[5],
        Ok(StreamEvent::Text {
            text: "emoji 😀 ✓ é".into(),
            is_final: false,
        })
    );
    assert_eq!(
        events[6],
        Ok(StreamEvent::ToolCall {
            tool_call_id: "call_1".into(),
            tool_name: "search".into(),
            args: json!({ "q": "rust" }),
            reasoning: None,
            display_name: None,
        })
    );
    assert_eq!(
        events[7],
        Ok(StreamEvent::ToolResult {
            tool_call_id: "call_1".into(),
            tool_name: "search".into(),
            result: json!({ "hits": 3 }),
        })
    );
    assert_eq!(
        events[8],
        Ok(StreamEvent::Unknown {
            type_name: "stream.mystery".into(),
        })
    );
    assert!(matches!(
        &events[9],
        Ok(StreamEvent::Done { conversation_id: Some(c), message_id: Some(m), content, .. })
            if c == "conv_x" && m == "msg_a9" && content == "Done via message"
    ));
    assert_chunk_agnostic("quirks.sse", &events);
}

/// C22: the same transcript with CRLF line ends decodes to the same events.
#[test]
fn c22_crlf_equals_lf() {
    let lf = fixture("echo_base.sse");
    let text = String::from_utf8(lf).expect("utf-8");
    let crlf = text.replace('\n', "\r\n");
    assert_eq!(decode_all(crlf.as_bytes()), echo_base_expected());
    let ones: Vec<&[u8]> = crlf.as_bytes().chunks(1).collect();
    assert_eq!(decode_chunks(ones), echo_base_expected());
}

/// Every fixture in tests/fixtures decodes without panicking in any 1-byte chunking, and a
/// canonical re-encoding of its events decodes back to the same events.
#[test]
fn every_fixture_round_trips_through_to_json() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).expect("fixtures dir") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "sse") {
            continue;
        }
        seen += 1;
        let bytes = std::fs::read(&path).expect("readable");
        let events = decode_all(&bytes);
        let mut body = String::new();
        for ev in events.iter().flatten() {
            body.push_str("data: ");
            body.push_str(&ev.to_json().to_string());
            body.push_str("\n\n");
        }
        let again: Vec<StreamEvent> = decode_all(body.as_bytes())
            .into_iter()
            .map(|r| r.expect("re-encoded frame decodes"))
            .collect();
        let ok: Vec<StreamEvent> = events.into_iter().flatten().collect();
        assert_eq!(again, ok, "{}", path.display());
    }
    assert!(seen >= 5, "expected at least five fixtures, saw {seen}");
}

/// C22: a final frame without its blank line is dispatched by `finish`.
#[test]
fn c22_finish_dispatches_trailing_frame() {
    let mut dec = SseDecoder::new();
    dec.push(b"data: {\"type\":\"stream.text\",\"text\":\"a\"}\n\ndata: {\"type\":\"stream.text\",\"text\":\"b\"}");
    assert!(matches!(dec.next_event(), Some(Ok(StreamEvent::Text { text, .. })) if text == "a"));
    assert_eq!(dec.next_event(), None);
    assert!(matches!(dec.finish(), Some(Ok(StreamEvent::Text { text, .. })) if text == "b"));
    assert_eq!(dec.finish(), None, "finish is idempotent");
    assert_eq!(dec.next_event(), None);

    // Ended after the data line's newline but before the blank line.
    let mut dec = SseDecoder::new();
    dec.push(b"data: {\"type\":\"stream.text\",\"text\":\"c\"}\n");
    assert_eq!(dec.next_event(), None);
    assert!(matches!(dec.finish(), Some(Ok(StreamEvent::Text { text, .. })) if text == "c"));
}

/// C22: frames without data (only `event:`, `id:`, comments) and empty data dispatch nothing.
#[test]
fn c22_frames_without_data_dispatch_nothing() {
    let body = b"event: stream.text\n\nid: 7\nretry: 10\n\n: just a comment\n\ndata:\n\n\n\n";
    assert_eq!(decode_all(body), Vec::<Item>::new());
    let mut frames = SseFrameDecoder::new();
    frames.push(b"event: x\ndata: 1\n\n");
    assert_eq!(
        frames.next_frame(),
        Some(Ok(SseFrame {
            event: Some("x".into()),
            data: "1".into(),
        }))
    );
    // The event name does not leak into the next frame.
    frames.push(b"data: 2\n\n");
    assert_eq!(
        frames.next_frame(),
        Some(Ok(SseFrame {
            event: None,
            data: "2".into(),
        }))
    );
}

/// C22: only one leading space is removed from a data value; a field without a colon is a
/// field name with an empty value.
#[test]
fn c22_data_leading_space_rule() {
    let mut frames = SseFrameDecoder::new();
    frames.push(b"data:  two spaces\ndata\ndata:none\n\n");
    assert_eq!(
        frames.next_frame(),
        Some(Ok(SseFrame {
            event: None,
            data: " two spaces\n\nnone".into(),
        }))
    );
}

/// C22 + issue: a malformed frame becomes an error and the next frame still decodes; missing
/// type is an error; unknown type is `Unknown`.
#[test]
fn c22_errors_in_place_then_continue() {
    let body = b"data: not json\n\ndata: {\"text\":\"no type\"}\n\ndata: {\"type\":\"stream.future\"}\n\ndata: {\"type\":\"stream.text\",\"text\":\"ok\"}\n\n";
    let out = decode_all(body);
    assert_eq!(out.len(), 4);
    assert!(matches!(out[0], Err(DecodeError::MalformedJson { .. })));
    assert!(matches!(out[1], Err(DecodeError::MissingType { .. })));
    assert!(
        matches!(&out[2], Ok(StreamEvent::Unknown { type_name, .. }) if type_name == "stream.future")
    );
    assert!(matches!(&out[3], Ok(StreamEvent::Text { text, .. }) if text == "ok"));
}

/// UTF-8 multibyte characters (2, 3 and 4 bytes) split at every inner byte.
#[test]
fn utf8_split_across_chunks() {
    for ch in ["°", "✓", "😀", "é"] {
        let body = format!("data: {{\"type\":\"stream.text\",\"text\":\"a{ch}b\"}}\n\n");
        let bytes = body.as_bytes();
        let start = body.find(ch).expect("char present");
        for cut in start..=start + ch.len() {
            let (a, b) = bytes.split_at(cut);
            let out = decode_chunks([a, b]);
            assert_eq!(
                out,
                vec![Ok(StreamEvent::Text {
                    text: format!("a{ch}b"),
                    is_final: false,
                })],
                "{ch} cut at {cut}"
            );
        }
        // One byte at a time, each push separately.
        let ones: Vec<&[u8]> = bytes.chunks(1).collect();
        assert_eq!(decode_chunks(ones).len(), 1);
    }
}

/// Invalid UTF-8 is replaced (U+FFFD), never a panic; a character cut by the end of the body
/// also becomes U+FFFD.
#[test]
fn invalid_utf8_is_replaced() {
    let mut body = b"data: {\"type\":\"stream.text\",\"text\":\"a".to_vec();
    body.extend_from_slice(&[0xFF, 0xC3]); // bad byte, then a lead byte whose tail never comes
    body.extend_from_slice(b"b\"}\n\n");
    for i in 0..=body.len() {
        let (a, b) = body.split_at(i);
        let out = decode_chunks([a, b]);
        assert_eq!(
            out,
            vec![Ok(StreamEvent::Text {
                text: "a\u{FFFD}\u{FFFD}b".into(),
                is_final: false,
            })],
            "split at {i}"
        );
    }
    // A body ending inside a character.
    let mut dec = SseFrameDecoder::new();
    dec.push(b"data: x");
    dec.push(&[0xF0, 0x9F]);
    assert_eq!(
        dec.finish(),
        Some(Ok(SseFrame {
            event: None,
            data: "x\u{FFFD}".into(),
        }))
    );
    // Raw garbage of every byte value (no `data` field in it): nothing is dispatched, however
    // it is cut.
    let garbage: Vec<u8> = (0..=255u8).cycle().take(4096).collect();
    assert_eq!(decode_all(&garbage), Vec::<Item>::new());
    let ones: Vec<&[u8]> = garbage.chunks(1).collect();
    assert_eq!(decode_chunks(ones), Vec::<Item>::new());
    // The same garbage as the data of frames: one error per frame, in place, the same whole
    // and in 1-byte chunks.
    let mut framed = Vec::new();
    let mut frames = 0;
    for piece in garbage.chunks(64) {
        framed.extend_from_slice(b"data: ");
        framed.extend(piece.iter().filter(|b| !matches!(b, b'\r' | b'\n')));
        framed.extend_from_slice(b"\n\n");
        frames += 1;
    }
    let whole = decode_all(&framed);
    assert_eq!(whole.len(), frames, "{whole:?}");
    assert!(whole.iter().all(Result::is_err), "{whole:?}");
    let ones: Vec<&[u8]> = framed.chunks(1).collect();
    assert_eq!(decode_chunks(ones), whole);
}

/// Huge-payload safety: a frame past the cap is dropped with an error, memory is released,
/// and the next frame decodes normally.
#[test]
fn huge_frame_is_dropped_and_reported() {
    let mut dec = SseDecoder::with_max_frame_bytes(1024);
    let big = "x".repeat(5000);
    let body = format!(
        "data: {{\"type\":\"stream.text\",\"text\":\"{big}\"}}\n\ndata: {{\"type\":\"stream.text\",\"text\":\"after\"}}\n\n"
    );
    for chunk in body.as_bytes().chunks(100) {
        dec.push(chunk);
    }
    assert_eq!(
        dec.next_event(),
        Some(Err(DecodeError::FrameTooLarge { limit: 1024 }))
    );
    assert!(
        matches!(dec.next_event(), Some(Ok(StreamEvent::Text { text, .. })) if text == "after")
    );
    assert_eq!(dec.next_event(), None);
    assert_eq!(dec.finish(), None);

    // Many small data lines adding up past the cap count too.
    let mut dec = SseDecoder::with_max_frame_bytes(1024);
    for _ in 0..200 {
        dec.push(b"data: 0123456789\n");
    }
    dec.push(b"\n");
    assert_eq!(
        dec.next_event(),
        Some(Err(DecodeError::FrameTooLarge { limit: 1024 }))
    );
    assert_eq!(dec.next_event(), None);

    // A huge frame cut by the end of the body is reported once, not dispatched.
    let mut dec = SseDecoder::with_max_frame_bytes(64);
    dec.push(&[b'a'; 200]);
    assert_eq!(
        dec.next_event(),
        Some(Err(DecodeError::FrameTooLarge { limit: 64 }))
    );
    assert_eq!(dec.finish(), None);
}

/// A line that overflows the cap exactly at its `\r` is not a blank line, however it was
/// chunked (found by `fuzz/` target sse_decoder).
#[test]
fn overflow_at_carriage_return_is_chunk_agnostic() {
    let body: &[u8] = b"data: xxxx\r\ndata: 1\n\ndata: 2\n\n";
    let decode = |chunks: &[&[u8]]| {
        let mut dec = SseDecoder::with_max_frame_bytes(10);
        let mut out = Vec::new();
        for chunk in chunks {
            dec.push(chunk);
            while let Some(ev) = dec.next_event() {
                out.push(ev);
            }
        }
        while let Some(ev) = dec.finish() {
            out.push(ev);
        }
        out
    };
    let whole = decode(&[body]);
    assert_eq!(whole.len(), 2, "{whole:?}");
    assert_eq!(whole[0], Err(DecodeError::FrameTooLarge { limit: 10 }));
    for at in 1..body.len() {
        assert_eq!(decode(&[&body[..at], &body[at..]]), whole, "split at {at}");
    }
}

/// The default cap (8 MiB) lets a 1 MiB event through and stops a 9 MiB one.
#[test]
fn default_cap_passes_big_and_stops_huge() {
    let one_mib = "y".repeat(1024 * 1024);
    let body = format!("data: {{\"type\":\"stream.text\",\"text\":\"{one_mib}\"}}\n\n");
    let out = decode_all(body.as_bytes());
    assert!(
        matches!(&out[..], [Ok(StreamEvent::Text { text, .. })] if text.len() == one_mib.len())
    );

    let mut dec = SseDecoder::new();
    dec.push(b"data: {\"type\":\"stream.text\",\"text\":\"");
    let chunk = vec![b'z'; 64 * 1024];
    for _ in 0..(9 * 1024 / 64) {
        dec.push(&chunk);
    }
    dec.push(b"\"}\n\ndata: {\"type\":\"stream.text\",\"text\":\"next\"}\n\n");
    assert_eq!(
        dec.next_event(),
        Some(Err(DecodeError::FrameTooLarge {
            limit: DEFAULT_MAX_FRAME_BYTES
        }))
    );
    assert!(matches!(dec.next_event(), Some(Ok(StreamEvent::Text { text, .. })) if text == "next"));
}

/// A 1 MB stream of many events and a 1 MB single line, fed in 1-byte and 3-byte chunks,
/// decode completely (huge payloads lose nothing). The decoder does O(1) work per byte (module
/// docs); its throughput is measured by `cargo xtask bench` (benches/core.rs).
#[test]
fn one_megabyte_in_tiny_chunks_decodes_every_event() {
    let mut body = String::new();
    let mut n = 0;
    while body.len() < 1_000_000 {
        body.push_str(&format!(
            "data: {{\"type\":\"stream.text\",\"timestamp\":{n},\"text\":\"chunk {n} — ünïcode\"}}\n\n"
        ));
        n += 1;
    }
    let mut dec = SseDecoder::new();
    let mut count = 0;
    for b in body.as_bytes().chunks(1) {
        dec.push(b);
        while let Some(ev) = dec.next_event() {
            assert!(ev.is_ok());
            count += 1;
        }
    }
    assert_eq!(dec.finish(), None);
    assert_eq!(count, n);

    let line = "w".repeat(1_000_000);
    let body = format!("data: {{\"type\":\"stream.text\",\"text\":\"{line}\"}}\n\n");
    let mut dec = SseDecoder::new();
    for b in body.as_bytes().chunks(3) {
        dec.push(b);
    }
    assert!(
        matches!(dec.next_event(), Some(Ok(StreamEvent::Text { text, .. })) if text.len() == 1_000_000)
    );
    // Throughput is measured by `cargo xtask bench` (benches/core.rs), not bounded here.
}

/// Timestamps travel in `TimedEvent` (§6: epoch ms numbers).
#[test]
fn timed_events_keep_timestamps() {
    let bytes = fixture("echo_base.sse");
    let mut dec = SseDecoder::new();
    dec.push(&bytes);
    let mut stamps = Vec::new();
    while let Some(ev) = dec.next_timed_event() {
        stamps.push(ev.expect("decodes").timestamp);
    }
    assert_eq!(
        stamps,
        vec![
            Some(Millis(1_714_557_600_000)),
            Some(Millis(1_714_557_600_100)),
            Some(Millis(1_714_557_600_400)),
            Some(Millis(1_714_557_600_500)),
            Some(Millis(1_714_557_600_600)),
        ]
    );
}
