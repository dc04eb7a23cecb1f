//! Attachments in the core: type matching with wildcards and extensions (C39), an agent's
//! narrowing of the limits (C16, F48), the `addFiles` checks (F147), sizes (F172), base64
//! (PROTOCOL §5), and the session's pending files through send, refusal and removal (F144,
//! F146, F148, §8).
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::files::accepts;
use agent_chat_ui::core::{
    base64_encode, format_file_size, AgentMetadata, Catalog, ChatError, Command, FileMeta,
    FileRejection, HttpResponse, Input, Method, SessionConfig, SessionEvent, UploadLimits,
};
use serde_json::{json, Value};

use crate::common;

use common::{Harness, CONV, EMPTY_LIST};

fn list(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

fn meta(value: Value) -> AgentMetadata {
    serde_json::from_value(value).expect("metadata")
}

fn file(name: &str, mime: &str, size: u64) -> FileMeta {
    FileMeta {
        name: name.into(),
        mime_type: mime.into(),
        size,
    }
}

// ----- C39: type matching --------------------------------------------------------------------

#[test]
fn c39_type_patterns_table() {
    // (mime, file name, allowed, accepted)
    let cases: &[(&str, &str, &[&str], bool)] = &[
        ("image/png", "a.png", &[], true),
        ("image/png", "a.png", &["image/*"], true),
        ("IMAGE/PNG", "a.png", &["image/*"], true),
        ("image/svg+xml", "a.svg", &["image/*"], true),
        ("text/plain", "a.txt", &["image/*"], false),
        ("imagex/png", "a.png", &["image/*"], false),
        ("text/plain", "notes.TXT", &[".txt"], true),
        ("", "notes.txt", &[".txt"], true),
        ("text/plain", "notes.txt.exe", &[".txt"], false),
        ("text/plain; charset=utf-8", "a", &["text/plain"], true),
        ("text/plain", "a", &["text/markdown"], false),
        (
            "application/pdf",
            "a.pdf",
            &["image/*", ".txt", "application/pdf"],
            true,
        ),
        ("", "blob", &["image/*"], false),
        ("", "blob", &["*"], true),
        ("application/zip", "a.zip", &["*/*"], true),
        ("image/png", "a.png", &[" image/* "], true),
        ("image/png", "a.png", &["", "."], false),
    ];
    for (mime, name, allowed, expected) in cases {
        assert_eq!(
            accepts(mime, name, &list(allowed)),
            *expected,
            "{mime} {name} {allowed:?}"
        );
    }
}

// ----- C16 / F48: effective limits -----------------------------------------------------------

#[test]
fn c16_agent_metadata_only_narrows_the_props() {
    let props = UploadLimits {
        enabled: true,
        allowed_types: Vec::new(),
        agent_types: Vec::new(),
        max_file_size: 10 * 1024 * 1024,
        max_files: 10,
    };
    // No metadata: the props as they are.
    assert_eq!(props.effective(&AgentMetadata::default()), props);
    // Smaller limits win; larger ones do not widen.
    let narrowed = props.effective(&meta(json!({ "maxFileSize": 1024, "maxFiles": 3 })));
    assert_eq!((narrowed.max_file_size, narrowed.max_files), (1024, 3));
    let wider = UploadLimits {
        max_file_size: 100,
        max_files: 2,
        ..props.clone()
    }
    .effective(&meta(json!({ "maxFileSize": 1_000_000, "maxFiles": 50 })));
    assert_eq!((wider.max_file_size, wider.max_files), (100, 2));
    // Types: the agent's list replaces "any" and must match as well as the prop's list.
    let typed = props.effective(&meta(json!({ "allowedFileTypes": ["image/*", ".txt"] })));
    assert!(typed.accepts("image/png", "a.png"));
    assert!(typed.accepts("text/plain", "a.txt"));
    assert!(!typed.accepts("application/pdf", "a.pdf"));
    assert_eq!(typed.accept_attribute(), "image/*,.txt");
    let both = UploadLimits {
        allowed_types: list(&["image/png", "application/pdf"]),
        ..props.clone()
    }
    .effective(&meta(json!({ "allowedFileTypes": ["image/*"] })));
    assert!(both.accepts("image/png", "a.png"));
    assert!(
        !both.accepts("image/jpeg", "a.jpg"),
        "the prop still applies"
    );
    assert!(
        !both.accepts("application/pdf", "a.pdf"),
        "the agent narrows"
    );
    assert_eq!(both.accept_attribute(), "image/png");
    // Unusable values are ignored (the prop applies).
    let junk = props.effective(&meta(
        json!({ "maxFileSize": "big", "maxFiles": -1, "allowedFileTypes": 7 }),
    ));
    assert_eq!(junk, props);
}

#[test]
fn f48_enable_file_upload_from_the_agent_decides_both_ways() {
    let on = UploadLimits::default();
    let off = UploadLimits {
        enabled: false,
        ..UploadLimits::default()
    };
    assert!(
        !on.effective(&meta(json!({ "enableFileUpload": false })))
            .enabled
    );
    // Kept from 0.1.1: `true` re-enables uploads the prop turned off (C16 exception).
    assert!(
        off.effective(&meta(json!({ "enableFileUpload": true })))
            .enabled
    );
    assert!(!off.effective(&AgentMetadata::default()).enabled);
    // `maxFiles: 0` leaves nothing to attach.
    assert!(!on.effective(&meta(json!({ "maxFiles": 0 }))).enabled);
}

// ----- F147: addFiles checks -----------------------------------------------------------------

#[test]
fn f147_checks_count_then_size_then_type_in_order() {
    let limits = UploadLimits {
        allowed_types: list(&["image/*", ".txt"]),
        max_file_size: 1000,
        max_files: 3,
        ..UploadLimits::default()
    };
    let files = [
        file("a.png", "image/png", 10),
        file("big.png", "image/png", 1001),
        file("doc.pdf", "application/pdf", 10),
        file("b.txt", "text/plain", 1000),
        file("c.txt", "text/plain", 1),
        file("d.txt", "text/plain", 1),
    ];
    let check = limits.check(1, &files);
    assert_eq!(check.accepted, vec![0, 3]);
    assert_eq!(
        check.rejected,
        vec![
            FileRejection::TooLarge {
                name: "big.png".into(),
                max: 1000
            },
            FileRejection::InvalidType {
                name: "doc.pdf".into()
            },
            FileRejection::TooMany { max: 3 },
        ]
    );
    // Already full: everything is refused with one "too many".
    let full = limits.check(3, &files[..1]);
    assert!(full.accepted.is_empty());
    assert_eq!(full.rejected, vec![FileRejection::TooMany { max: 3 }]);
    // Uploads off: refused as such.
    let off = UploadLimits {
        enabled: false,
        ..limits
    };
    assert_eq!(
        off.check(0, &files[..1]).rejected,
        vec![FileRejection::Disabled]
    );
}

#[test]
fn f147_rejections_read_in_every_locale() {
    let rejections = [
        FileRejection::TooMany { max: 3 },
        FileRejection::TooLarge {
            name: "big.png".into(),
            max: 1024 * 1024,
        },
        FileRejection::InvalidType {
            name: "doc.pdf".into(),
        },
    ];
    let en: Vec<String> = rejections
        .iter()
        .map(|r| r.describe(&Catalog::new("en")))
        .collect();
    assert_eq!(
        en,
        [
            "You can attach at most 3 files",
            "big.png is too large (max 1 MB)",
            "doc.pdf is not an allowed file type",
        ]
    );
    for lang in ["tr", "ar"] {
        for (r, english) in rejections.iter().zip(&en) {
            let text = r.describe(&Catalog::new(lang));
            assert_ne!(&text, english, "{lang}: {r:?} is translated");
            assert!(!text.contains("chat-file"), "{lang}: {text}");
        }
    }
    // A size stays "1 MB" inside Arabic text: isolated left-to-right.
    let ar = rejections[1].describe(&Catalog::new("ar"));
    assert!(ar.contains("\u{2066}1 MB\u{2069}"), "{ar}");
    // Several refusals show together, one per line.
    let err = ChatError::Files(rejections.to_vec());
    assert_eq!(err.describe(&Catalog::new("en")), en.join("\n"));
}

// ----- F172, §5 ------------------------------------------------------------------------------

#[test]
fn f172_format_file_size_table() {
    let cases = [
        (0, "0 Bytes"),
        (1, "1 Bytes"),
        (1023, "1023 Bytes"),
        (1024, "1 KB"),
        (1536, "1.5 KB"),
        (1300, "1.27 KB"),
        (1024 * 1024, "1 MB"),
        (10 * 1024 * 1024, "10 MB"),
        (5 * 1024 * 1024 * 1024, "5 GB"),
        (u64::MAX, "17179869184 GB"),
    ];
    for (bytes, text) in cases {
        assert_eq!(format_file_size(bytes), text, "{bytes}");
    }
}

#[test]
fn protocol_5_base64_is_raw_and_padded() {
    let cases: [(&[u8], &str); 7] = [
        (b"", ""),
        (b"f", "Zg=="),
        (b"fo", "Zm8="),
        (b"foo", "Zm9v"),
        (b"hello", "aGVsbG8="),
        (&[0xff, 0xfe, 0x00], "//4A"),
        (&[0xfb, 0xff], "+/8="),
    ];
    for (bytes, text) in cases {
        assert_eq!(base64_encode(bytes), text);
    }
}

// ----- the session ---------------------------------------------------------------------------

const FILES_AGENT: &str = r#"{"agents":[{"id":"files","name":"Files","metadata":{"enableFileUpload":true,"allowedFileTypes":["image/*",".txt"],"maxFileSize":1048576,"maxFiles":3}}]}"#;

fn files_session() -> Harness {
    let mut h = Harness::new(SessionConfig::default());
    h.cmd(Command::Start);
    h.answer(Method::Get, "/agents", 200, FILES_AGENT);
    h.answer(Method::Get, "/conversations?", 200, EMPTY_LIST);
    h
}

fn read_all(h: &mut Harness) {
    for (index, id) in std::mem::take(&mut h.reads) {
        h.feed(Input::FileRead {
            id,
            result: Ok(format!("Y29udGVudA{index}")),
        });
    }
}

#[test]
fn f147_session_reads_only_accepted_files_and_reports_the_rest() {
    let mut h = files_session();
    assert_eq!(h.s.upload_limits().max_files, 3);
    h.cmd(Command::AddFiles(vec![
        file("notes.txt", "text/plain", 5),
        file("huge.png", "image/png", 1_000_000_000),
        file("doc.pdf", "application/pdf", 10),
        file("dot.png", "image/png", 4),
    ]));
    // The 1 GB file is never read: only indexes 0 and 3 are asked for.
    let asked: Vec<usize> = h.reads.iter().map(|(i, _)| *i).collect();
    assert_eq!(asked, vec![0, 3]);
    let names: Vec<&str> =
        h.s.pending_files()
            .iter()
            .map(|f| f.name.as_str())
            .collect();
    assert_eq!(names, ["notes.txt", "dot.png"]);
    assert!(h.s.pending_files().iter().all(|f| !f.is_ready()));
    // F17: refusals are the error (banner) and an Error event (on_error).
    let Some(ChatError::Files(rejected)) = h.s.error() else {
        panic!("expected a file error, got {:?}", h.s.error());
    };
    assert_eq!(rejected.len(), 2);
    assert!(h
        .events
        .iter()
        .any(|e| matches!(e, SessionEvent::Error(ChatError::Files(_)))));
    read_all(&mut h);
    assert!(h.s.pending_files().iter().all(|f| f.is_ready()));
    // Two more: the first takes the third place (maxFiles 3), the second is one too many.
    h.cmd(Command::AddFiles(vec![
        file("c.txt", "text/plain", 1),
        file("d.txt", "text/plain", 1),
    ]));
    assert_eq!(h.s.pending_files().len(), 3);
    assert_eq!(
        h.s.error(),
        Some(&ChatError::Files(vec![FileRejection::TooMany { max: 3 }]))
    );
}

#[test]
fn f146_send_carries_files_as_raw_base64_and_the_optimistic_message_their_metadata() {
    let mut h = files_session();
    h.cmd(Command::AddFiles(vec![
        file("notes.txt", "text/plain", 5),
        file("dot.png", "image/png", 4),
    ]));
    // Not sendable while a file is still being read.
    h.cmd(Command::Send("look".into()));
    assert!(h.s.messages().is_empty());
    read_all(&mut h);
    h.cmd(Command::Send("look".into()));
    assert!(h.s.pending_files().is_empty(), "cleared on send");
    let sent = &h.s.messages()[0];
    let files: Vec<(&str, &str, u64)> = sent
        .files
        .iter()
        .map(|f| (f.name.as_str(), f.mime_type.as_str(), f.size))
        .collect();
    assert_eq!(
        files,
        [("notes.txt", "text/plain", 5), ("dot.png", "image/png", 4)]
    );
    h.answer(Method::Post, "/conversations", 201, CONV);
    let body: Value = serde_json::from_str(h.streams[0].body.as_deref().unwrap()).unwrap();
    assert_eq!(
        body["files"],
        json!([
            { "name": "notes.txt", "content": "Y29udGVudA0", "mimeType": "text/plain" },
            { "name": "dot.png", "content": "Y29udGVudA1", "mimeType": "image/png" }
        ])
    );
    assert_eq!(body["message"], "look");
}

#[test]
fn f197_a_refused_send_gives_the_attachments_back_with_the_text() {
    let mut h = files_session();
    h.cmd(Command::AddFiles(vec![file("notes.txt", "text/plain", 5)]));
    read_all(&mut h);
    h.cmd(Command::Send("look".into()));
    // Another file is attached while the first send is on its way.
    h.cmd(Command::AddFiles(vec![file("later.txt", "text/plain", 1)]));
    read_all(&mut h);
    h.answer(Method::Post, "/conversations", 201, CONV);
    // The server refuses the message (D4: a non-2xx answer to the stream request).
    let stream = h.streams[0].id;
    h.feed(Input::Response {
        id: stream,
        result: Ok(HttpResponse {
            status: 415,
            body: r#"{"error":{"code":"unsupported_file_type","message":"no"}}"#.into(),
            date: None,
            retry_after: None,
        }),
    });
    assert!(h.s.messages().is_empty());
    assert_eq!(h.drafts(), ["look"]);
    let names: Vec<&str> =
        h.s.pending_files()
            .iter()
            .map(|f| f.name.as_str())
            .collect();
    assert_eq!(names, ["notes.txt", "later.txt"]);
    assert!(h.s.pending_files().iter().all(|f| f.is_ready()));
}

#[test]
fn f148_remove_file_and_reads_of_removed_or_failed_files() {
    let mut h = files_session();
    h.cmd(Command::AddFiles(vec![
        file("a.txt", "text/plain", 1),
        file("b.txt", "text/plain", 1),
    ]));
    let reads = std::mem::take(&mut h.reads);
    h.cmd(Command::RemoveFile(reads[0].1.clone()));
    assert_eq!(h.s.pending_files().len(), 1);
    // The removed file's bytes arrive late: ignored.
    h.feed(Input::FileRead {
        id: reads[0].1.clone(),
        result: Ok("eA==".into()),
    });
    assert_eq!(h.s.pending_files().len(), 1);
    // The other one cannot be read: dropped and said so.
    h.feed(Input::FileRead {
        id: reads[1].1.clone(),
        result: Err("NotReadableError".into()),
    });
    assert!(h.s.pending_files().is_empty());
    assert_eq!(
        h.s.error().map(|e| e.describe(&Catalog::new("en"))),
        Some("b.txt could not be read".into())
    );
}

#[test]
fn f48_uploads_off_refuses_files_and_blank_text_with_files_is_not_sent() {
    let mut h = Harness::started_with_agent(SessionConfig {
        uploads: UploadLimits {
            enabled: false,
            ..UploadLimits::default()
        },
        ..SessionConfig::default()
    });
    assert!(!h.s.upload_limits().enabled);
    h.cmd(Command::AddFiles(vec![file("a.txt", "text/plain", 1)]));
    assert!(h.reads.is_empty() && h.s.pending_files().is_empty());
    assert_eq!(
        h.s.error().map(|e| e.describe(&Catalog::new("en"))),
        Some("Attachments are turned off for this assistant.".into())
    );
    // React ignores blank text even with files (F146): nothing is sent.
    let mut h = files_session();
    h.cmd(Command::AddFiles(vec![file("a.txt", "text/plain", 1)]));
    read_all(&mut h);
    h.cmd(Command::Send("   ".into()));
    assert!(h.s.messages().is_empty() && h.requests.is_empty());
    assert_eq!(h.s.pending_files().len(), 1);
}
