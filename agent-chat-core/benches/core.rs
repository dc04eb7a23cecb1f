//! Native benchmark of the sans-IO core (`cargo xtask bench`, or by hand:
//! `cargo bench -p agent-chat-core --bench core`).
//!
//! - SSE decoding of a 1 MB body of `stream.text` events, fed in 1-byte and in 4 KB chunks
//!   (the decoder does O(1) work per byte, whatever the chunking).
//! - Streaming Markdown: a 1 MB answer fed in 8-byte deltas; the time per delta over the first
//!   and the last tenth of the answer (equal: the cost per token does not grow with the answer),
//!   against parsing the whole answer once.
//!
//! - Opening a conversation the server hands over whole (issue 18): the session handling the E5
//!   answer with 1,000 / 5,000 messages, then the newest E8 page it asks for (the two main-thread
//!   tasks of an open, before anything is drawn).
//!
//! Timings are printed, never asserted (the tests bound the work deterministically).

use std::time::{Duration, Instant};

use agent_chat_core::markdown::{parse, MarkdownStream};
use agent_chat_core::{Command, HttpResponse, Input, Output, Session, SessionConfig, SseDecoder};

/// Paragraphs the Markdown answer is made of (headings, lists, code, links, tables).
const CORPUS: [&str; 6] = [
    "## A heading\n\nSome *emphasis*, some **strong** text and `inline code` with a [link](https://example.com).",
    "- first item\n- second item with `code`\n- third item\n  - nested",
    "```rust\nfn main() {\n    println!(\"hello\");\n}\n```",
    "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |",
    "> A quote that goes on for a while, so that the paragraph is long enough to wrap.",
    "Plain prose: streaming responses let the reader start early, which makes a slow answer feel faster.",
];

/// Runs `f` `runs` times and returns the fastest run (the least disturbed by other work).
fn fastest(runs: usize, mut f: impl FnMut() -> Duration) -> Duration {
    (0..runs).map(|_| f()).min().unwrap_or_default()
}

fn main() {
    let runs: usize = std::env::var("BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5)
        .max(1);

    let mut body = String::new();
    let mut n = 0;
    while body.len() < 1_000_000 {
        body.push_str(&format!(
            "data: {{\"type\":\"stream.text\",\"timestamp\":{n},\"text\":\"chunk {n} — ünïcode\"}}\n\n"
        ));
        n += 1;
    }
    let mb = body.len() as f64 / 1e6;
    println!("\n## Core (native, fastest of {runs} runs)\n");
    println!("| measure | result |\n|---|---|");
    for chunk in [1usize, 4096] {
        let t = fastest(runs, || {
            let started = Instant::now();
            let mut dec = SseDecoder::new();
            let mut events = 0;
            for b in body.as_bytes().chunks(chunk) {
                dec.push(b);
                while let Some(ev) = dec.next_event() {
                    events += usize::from(ev.is_ok());
                }
            }
            assert_eq!(events, n, "every event decodes");
            started.elapsed()
        });
        println!(
            "| SSE decode, {mb:.1} MB ({n} events) in {chunk}-byte chunks | {:.0} MB/s |",
            mb / t.as_secs_f64()
        );
    }

    let mut answer = String::new();
    let mut i = 0;
    while answer.len() < 1_000_000 {
        answer.push_str(CORPUS[i % CORPUS.len()]);
        answer.push_str("\n\n");
        i += 1;
    }
    let whole = fastest(runs, || {
        let started = Instant::now();
        std::hint::black_box(parse(&answer));
        started.elapsed()
    });
    let deltas: Vec<&str> = answer
        .as_bytes()
        .chunks(8)
        .map(|c| std::str::from_utf8(c).expect("ascii corpus"))
        .collect();
    let tenth = deltas.len() / 10;
    let (mut first, mut last) = (Duration::MAX, Duration::MAX);
    for _ in 0..runs {
        let mut s = MarkdownStream::new();
        let started = Instant::now();
        let mut mark = started;
        for (k, d) in deltas.iter().enumerate() {
            s.push_str(d);
            if k + 1 == tenth {
                first = first.min(mark.elapsed());
            }
            if k + 1 == deltas.len() - tenth {
                mark = Instant::now();
            }
        }
        last = last.min(mark.elapsed());
        std::hint::black_box(s.blocks());
    }
    let per = |d: Duration| d.as_secs_f64() * 1e6 / tenth as f64;
    println!(
        "| Markdown: parse a {:.1} MB answer once | {:.0} ms |",
        answer.len() as f64 / 1e6,
        whole.as_secs_f64() * 1000.0
    );
    println!(
        "| Markdown streamed in {} deltas of 8 bytes: per delta, first tenth | {:.2} µs |",
        deltas.len(),
        per(first)
    );
    println!(
        "| Markdown streamed in 8-byte deltas: per delta, last tenth | {:.2} µs |",
        per(last)
    );
    for n in [1000usize, 5000] {
        let (e5, e8) = fastest_pair(runs, n);
        println!(
            "| open {n} messages served whole: E5 answer / newest E8 page handled | {:.1} / {:.1} ms |",
            e5.as_secs_f64() * 1000.0,
            e8.as_secs_f64() * 1000.0
        );
    }
}

/// The fastest of `runs` opens of an `n`-message conversation served whole: the time the
/// session takes to handle the E5 answer, and then the E8 newest page.
fn fastest_pair(runs: usize, n: usize) -> (Duration, Duration) {
    let messages: Vec<serde_json::Value> = (1..=n)
        .map(|i| {
            let role = if i % 2 == 1 { "user" } else { "assistant" };
            serde_json::json!({ "id": format!("msg_{i}"), "conversationId": "conv_1",
                "role": role, "content": format!("Message {i}"),
                "createdAt": "2026-12-01T10:00:00.000Z" })
        })
        .collect();
    let e5 = serde_json::json!({ "conversation": { "id": "conv_1", "agentId": "echo" },
        "messages": messages, "pendingActions": [] })
    .to_string();
    let tail: Vec<&serde_json::Value> = messages.iter().rev().take(25).collect();
    let e8 = serde_json::json!({ "messages": tail, "total": n, "limit": 25, "offset": 0,
        "hasMore": true })
    .to_string();
    let (mut best5, mut best8) = (Duration::MAX, Duration::MAX);
    for _ in 0..runs {
        let mut s = Session::new(SessionConfig {
            conversation_id: Some("conv_1".into()),
            show_history: false,
            ..Default::default()
        });
        let mut requests = Vec::new();
        let step = |s: &mut Session, input: Input, requests: &mut Vec<_>| {
            s.handle(agent_chat_core::Millis(1_000), input);
            while let Some(out) = s.poll_output() {
                if let Output::Send(r) = out {
                    requests.push(r.http());
                }
            }
        };
        step(&mut s, Input::User(Command::Start), &mut requests);
        let answer = |s: &mut Session,
                      requests: &mut Vec<agent_chat_core::HttpRequest>,
                      prefix: &str,
                      body: &str| {
            let Some(pos) = requests.iter().position(|r| r.path.starts_with(prefix)) else {
                return Duration::ZERO;
            };
            let req = requests.remove(pos);
            let started = Instant::now();
            step(
                s,
                Input::Response {
                    id: req.id,
                    result: Ok(HttpResponse {
                        status: 200,
                        body: body.to_owned(),
                        date: None,
                        retry_after: None,
                    }),
                },
                requests,
            );
            started.elapsed()
        };
        answer(
            &mut s,
            &mut requests,
            "/agents",
            r#"{"agents":[{"id":"echo","name":"Echo"}]}"#,
        );
        // E5 is read a slice at a time (issue 18, D66): the answer, then each slice the
        // session asks for at once; their sum is the work of reading it.
        let mut read = answer(&mut s, &mut requests, "/conversations/conv_1", &e5);
        while s.poll_timeout() == Some(agent_chat_core::Millis(1_000)) {
            let started = Instant::now();
            step(&mut s, Input::Timeout, &mut requests);
            read += started.elapsed();
        }
        best5 = best5.min(read);
        best8 = best8.min(answer(
            &mut s,
            &mut requests,
            "/conversations/conv_1/messages",
            &e8,
        ));
        assert_eq!(s.messages().len(), n, "the whole conversation is open");
    }
    (best5, best8)
}
