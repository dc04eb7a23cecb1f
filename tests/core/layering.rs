//! DESIGN.md §2: `src/core` is sans-IO. It must not name browser or view crates, so every rule
//! in it stays testable natively in milliseconds.
#![cfg(not(target_arch = "wasm32"))]

use std::path::Path;

const FORBIDDEN: &[&str] = &["leptos", "web_sys", "js_sys", "wasm_bindgen", "gloo"];

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/core readable") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Positions where `word` occurs as a whole identifier.
fn find_word(text: &str, word: &str) -> Option<usize> {
    text.match_indices(word).map(|(i, _)| i).find(|&i| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(is_word_char) && !after.is_some_and(is_word_char)
    })
}

#[test]
fn core_names_no_browser_or_view_crate() {
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src/core"),
        &mut files,
    );
    assert!(
        files.len() >= 5,
        "expected the core modules, found {files:?}"
    );
    let mut offences = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable source");
        for (n, line) in text.lines().enumerate() {
            for word in FORBIDDEN {
                if find_word(line, word).is_some() {
                    offences.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        offences.is_empty(),
        "src/core must stay sans-IO:\n{}",
        offences.join("\n")
    );
}

#[test]
fn word_finder_catches_a_use_line_and_ignores_longer_names() {
    // The check above must be able to fail.
    assert!(find_word("use leptos::prelude::*;", "leptos").is_some());
    assert!(find_word("let x = web_sys::window();", "web_sys").is_some());
    assert!(find_word("fn leptos_like() {}", "leptos").is_none());
}

#[test]
fn core_dependencies_are_the_allowed_ones() {
    // Every `use` of an external crate in src/core is one of the crates DESIGN.md §2 allows.
    let allowed = [
        "std",
        "serde",
        "serde_json",
        "thiserror",
        "chrono",
        "fluent_bundle",
        "unic_langid",
        "regex_lite",
        "pulldown_cmark",
        "super",
        "crate",
        "self",
    ];
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src/core"),
        &mut files,
    );
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable source");
        for line in text
            .lines()
            .map(str::trim)
            .filter(|l| l.starts_with("use "))
        {
            let root = line["use ".len()..]
                .split("::")
                .next()
                .unwrap_or_default()
                .trim_matches(|c| c == '{' || c == ';');
            assert!(
                allowed.contains(&root),
                "{}: `{line}` uses a crate the core may not use",
                file.display()
            );
        }
    }
}
