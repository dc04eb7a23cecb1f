//! What a reader of the crate's documentation meets, who has only the crate (docs.rs):
//!
//! - a doc comment (`///` or `//!`) under `src/` or the core's `agent-chat-core/src/` never names a tracker id (a feature, decision
//!   or contract number such as `F26`, `D79` or `C20`, an issue, a seed document or a row of a
//!   table), nor the numbers of the protocol notes outside the crate (endpoint `E14`,
//!   discrepancy `X5`, section `§9.6`), since nothing in the crate says what they mean. It
//!   says the thing itself (`POST /conversations/:cid/actions/:aid`). Which test proves which
//!   feature is kept in docs/RULES.md and in the tests' names;
//! - every re-export names what it re-exports (`pub use x::{A, B}`, never `pub use x::*`), so
//!   the public surface is chosen, and an item made public inside a module does not join it
//!   by accident.
#![cfg(not(target_arch = "wasm32"))]

use crate::common::source::{is_word_char, rust_files};
use std::path::{Path, PathBuf};

/// The Rust files of both published crates: this one's `src/` and the core's
/// (`agent-chat-core/src`), whose docs.rs pages a reader meets the same way.
fn crate_sources() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    let ui = files.len();
    rust_files(&root.join("agent-chat-core/src"), &mut files);
    assert!(
        ui >= 20 && files.len() - ui >= 20,
        "expected both crates' modules, found {ui} and {}",
        files.len() - ui
    );
    files
}

/// The text of a doc comment line (`///` or `//!`), `None` for any other line. `////` is a
/// plain comment, as rustdoc reads it.
fn doc_text(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let rest = t.strip_prefix("///").or_else(|| t.strip_prefix("//!"))?;
    (!t.starts_with("////")).then_some(rest)
}

/// A feature, decision, contract, endpoint or discrepancy number: one of `D`, `F`, `C`, `E`,
/// `X` then one to three digits, as a whole word.
fn is_numbered_id(word: &str) -> bool {
    let mut chars = word.chars();
    matches!(chars.next(), Some('D' | 'F' | 'C' | 'E' | 'X'))
        && (2..=4).contains(&word.len())
        && chars.all(|c| c.is_ascii_digit())
}

/// The tracker ids in one line of doc text, as found: numbered ids, `s000`, a section sign,
/// and "issue", "seed" or "row" followed by a space (or ` #`) and a number.
fn tracker_ids(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    if text.contains('§') {
        found.push("§".to_string());
    }
    let mut rest = text;
    while let Some(start) = rest.find(is_word_char) {
        let tail = &rest[start..];
        let end = tail.find(|c: char| !is_word_char(c)).unwrap_or(tail.len());
        let word = &tail[..end];
        let after = &tail[end..];
        let lower = word.to_ascii_lowercase();
        if is_numbered_id(word) || lower == "s000" {
            found.push(word.to_string());
        } else if matches!(lower.as_str(), "issue" | "issues" | "seed" | "row" | "rows") {
            let spaced = after.strip_prefix(" #").or_else(|| after.strip_prefix(' '));
            let number: String = spaced
                .unwrap_or("")
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            if !number.is_empty() {
                found.push(format!("{word} {number}"));
            }
        }
        rest = after;
    }
    found
}

#[test]
fn doc_comments_name_no_tracker_id() {
    let files = crate_sources();
    let mut offences = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable source");
        for (n, line) in text.lines().enumerate() {
            let Some(doc) = doc_text(line) else { continue };
            let ids = tracker_ids(doc);
            if !ids.is_empty() {
                offences.push(format!(
                    "{}:{}: {} ({})",
                    file.display(),
                    n + 1,
                    line.trim(),
                    ids.join(", ")
                ));
            }
        }
    }
    assert!(
        offences.is_empty(),
        "doc comments must say what they mean, not cite a tracker id \
         (the mapping lives in docs/RULES.md and the test names):\n{}",
        offences.join("\n")
    );
}

#[test]
fn the_finder_catches_each_kind_of_id_and_leaves_plain_words() {
    // The check above must be able to fail.
    assert_eq!(tracker_ids("the default (F24)."), ["F24"]);
    assert_eq!(tracker_ids("as D79 says; C20: kind"), ["D79", "C20"]);
    assert_eq!(
        tracker_ids("(issue 15, seed 004)"),
        ["issue 15", "seed 004"]
    );
    assert_eq!(
        tracker_ids("Issue 14: the count; row 83"),
        ["Issue 14", "row 83"]
    );
    assert_eq!(tracker_ids("as s000 says"), ["s000"]);
    assert_eq!(tracker_ids("answered with E14 (X5)"), ["E14", "X5"]);
    assert_eq!(tracker_ids("(PROTOCOL §9.6)"), ["§"]);
    assert_eq!(tracker_ids("see issue #17"), ["issue 17"]);
    assert!(tracker_ids(
        "a 404, 10 MiB, UTF-8, E2E, CSS3, D-pad, rows of 25, the issue, [`E5_CAP`]"
    )
    .is_empty());
    assert!(tracker_ids("failed fetches in a row: 1 s").is_empty());
    assert_eq!(doc_text("    /// text"), Some(" text"));
    assert_eq!(doc_text("//! text"), Some(" text"));
    assert_eq!(doc_text("//// not a doc comment"), None);
    assert_eq!(doc_text("// F12 plain comment"), None);
}

/// The glob re-exports (`pub use …::*;`, also `pub(crate) use`) in `text`, as `line: text`.
fn glob_reexports(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut statement = String::new();
    let mut first_line = 0;
    for (n, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("").trim();
        if statement.is_empty() {
            let is_reexport = code.starts_with("pub use ") || code.starts_with("pub(");
            if !(is_reexport && code.contains(" use ")) {
                continue;
            }
            first_line = n + 1;
        }
        statement.push_str(code);
        if code.ends_with(';') {
            if statement.trim_end_matches(';').trim_end().ends_with('*') {
                found.push(format!("{first_line}: {statement}"));
            }
            statement.clear();
        }
    }
    found
}

#[test]
fn every_reexport_names_what_it_reexports() {
    let files = crate_sources();
    let mut offences = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable source");
        for hit in glob_reexports(&text) {
            offences.push(format!("{}:{hit}", file.display()));
        }
    }
    assert!(
        offences.is_empty(),
        "re-export a chosen set by name, not a glob:\n{}",
        offences.join("\n")
    );
}

#[test]
fn the_glob_finder_catches_a_glob_and_leaves_named_lists_and_private_imports() {
    // The check above must be able to fail.
    assert_eq!(
        glob_reexports("pub use self::wire::*;"),
        ["1: pub use self::wire::*;"]
    );
    assert_eq!(
        glob_reexports("mod a;\npub(crate) use a::*;"),
        ["2: pub(crate) use a::*;"]
    );
    assert!(glob_reexports("pub use a::{B,\n    C};\nuse super::*;\n// pub use x::*;").is_empty());
}
