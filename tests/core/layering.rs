//! DESIGN.md §2: the core (the agent-chat-core crate, `agent-chat-core/src`) is sans-IO. It
//! must not name or depend on browser or view crates, so every rule in it stays testable
//! natively in milliseconds, and imports in this crate point down to it.
#![cfg(not(target_arch = "wasm32"))]

use crate::common::source::{is_word_char, rust_files};
use std::path::Path;

const FORBIDDEN: &[&str] = &["leptos", "web_sys", "js_sys", "wasm_bindgen", "gloo"];

/// The core crate's sources, from this crate's folder.
const CORE_SRC: &str = "agent-chat-core/src";

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
        &Path::new(env!("CARGO_MANIFEST_DIR")).join(CORE_SRC),
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
        "the core must stay sans-IO:\n{}",
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
    // Every `use` of an external crate in the core is one of the crates DESIGN.md §2 allows.
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
        &Path::new(env!("CARGO_MANIFEST_DIR")).join(CORE_SRC),
        &mut files,
    );
    assert!(
        files.len() >= 5,
        "expected the core modules, found {files:?}"
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

/// The crates a `[dependencies]`-like table of a Cargo manifest names (`name = ...` lines and
/// `[...dependencies.name]` headers), with the table they are in. Dev-dependencies and build
/// dependencies are left out: they never reach a user's build of the core.
fn manifest_dependencies(manifest: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut table = String::new();
    for line in manifest.lines().map(str::trim) {
        if let Some(header) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            table = header.trim_matches(|c| c == '[' || c == ']').to_owned();
            if let Some((deps, name)) = table.rsplit_once("dependencies.") {
                if !deps.ends_with("dev-") && !deps.ends_with("build-") {
                    found.push((format!("{deps}dependencies"), name.to_owned()));
                }
            }
            continue;
        }
        let is_deps = table == "dependencies" || table.ends_with(".dependencies");
        if !is_deps || line.starts_with('#') {
            continue;
        }
        if let Some((name, _)) = line.split_once('=') {
            let name = name.trim();
            if !name.is_empty() && name.chars().all(|c| is_word_char(c) || c == '-') {
                found.push((table.clone(), name.to_owned()));
            }
        }
    }
    found
}

#[test]
fn the_core_crate_depends_on_no_browser_or_view_crate() {
    // The crates DESIGN.md §2 allows, as Cargo names them; anything else (web-sys, leptos, an
    // async runtime) would make the core something other than sans-IO for its users.
    let allowed = [
        "serde",
        "serde_json",
        "thiserror",
        "chrono",
        "fluent-bundle",
        "unic-langid",
        "regex-lite",
        "pulldown-cmark",
    ];
    let manifest = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("agent-chat-core/Cargo.toml"),
    )
    .expect("the core's manifest is readable");
    let deps = manifest_dependencies(&manifest);
    assert!(
        deps.len() >= 5,
        "expected the core's dependencies, found {deps:?}"
    );
    let offences: Vec<String> = deps
        .iter()
        .filter(|(_, name)| !allowed.contains(&name.as_str()))
        .map(|(table, name)| format!("[{table}] {name}"))
        .collect();
    assert!(
        offences.is_empty(),
        "the core may depend only on {allowed:?}:\n{}",
        offences.join("\n")
    );
}

#[test]
fn the_manifest_reader_sees_every_kind_of_dependency_table() {
    // The check above must be able to fail.
    let manifest = "[package]\nname = \"x\"\n\
                    [dependencies]\nserde = \"1\"\n# leptos = \"0.8\"\n\
                    [target.'cfg(not(target_arch = \"wasm32\"))'.dependencies]\nweb-sys = \"0.3\"\n\
                    [dependencies.leptos]\nversion = \"0.8\"\n\
                    [dev-dependencies]\nwasm-bindgen-test = \"0.3\"\n\
                    [build-dependencies.gloo]\nversion = \"1\"\n";
    let names: Vec<String> = manifest_dependencies(manifest)
        .into_iter()
        .map(|(_, name)| name)
        .collect();
    assert_eq!(names, ["serde", "web-sys", "leptos"]);
}

/// The layers, lowest first. A file may name its own layer and the ones below it, never one
/// above: `core ← io ← store ← utils ← ui ← page / element` (ARCHITECTURE.md).
const LAYERS: &[(&str, &[&str])] = &[
    ("core", &[CORE_SRC]),
    ("io", &["src/io"]),
    ("store", &["src/store"]),
    ("utils", &["src/utils.rs"]),
    ("ui", &["src/ui"]),
    ("page", &["src/page.rs", "src/element.rs"]),
];

/// The rank of top-level module `name` (`page` and `element` share one), if it is a layer.
fn rank_of_module(name: &str) -> Option<usize> {
    let name = if name == "element" { "page" } else { name };
    LAYERS.iter().position(|(layer, _)| *layer == name)
}

/// The text of a source file without its comments (line, doc and block comments) and without
/// the contents of string literals, so a path named in prose is not an import.
fn code_only(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut depth = 1;
                let mut prev = ' ';
                for c in chars.by_ref() {
                    if prev == '/' && c == '*' {
                        depth += 1;
                        prev = ' ';
                        continue;
                    }
                    if prev == '*' && c == '/' {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                        prev = ' ';
                        continue;
                    }
                    if c == '\n' {
                        out.push('\n');
                    }
                    prev = c;
                }
            }
            '"' => {
                out.push('"');
                let mut escaped = false;
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                    }
                    if escaped {
                        escaped = false;
                    } else if c == '\\' {
                        escaped = true;
                    } else if c == '"' {
                        break;
                    }
                }
                out.push('"');
            }
            // A char literal of a quote (`'"'`) must not open a string.
            '\'' if chars.peek() == Some(&'"') => {
                chars.next();
                out.push_str("'\"");
            }
            _ => out.push(c),
        }
    }
    out
}

/// The top-level modules a file's code names through `crate::`: `crate::ui::find::X`, and each
/// branch of a group, `crate::{io::clock, ui::i18n::I18n}`. Each with its line number.
fn crate_modules(code: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let line_of = |at: usize| code[..at].matches('\n').count() + 1;
    for (at, _) in code.match_indices("crate::") {
        if code[..at]
            .chars()
            .next_back()
            .is_some_and(|c| is_word_char(c) || c == '$')
        {
            continue;
        }
        let rest = &code[at + "crate::".len()..];
        let rest = rest.trim_start();
        if let Some(group) = rest.strip_prefix('{') {
            // Top-level branches of the group: the first identifier after `{` or a `,` at
            // depth zero.
            let mut depth = 0usize;
            let mut expect = true;
            let mut i = 0;
            let bytes: Vec<char> = group.chars().collect();
            while i < bytes.len() {
                let c = bytes[i];
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => expect = true,
                    c if expect && is_word_char(c) => {
                        let name: String = bytes[i..]
                            .iter()
                            .take_while(|c| is_word_char(**c))
                            .collect();
                        i += name.len();
                        found.push((line_of(at), name));
                        expect = false;
                        continue;
                    }
                    c if c.is_whitespace() => {}
                    _ => expect = false,
                }
                i += 1;
            }
        } else {
            let name: String = rest.chars().take_while(|c| is_word_char(*c)).collect();
            if !name.is_empty() {
                found.push((line_of(at), name));
            }
        }
    }
    found
}

/// Every `crate::` path in `code`, written in a file of layer `rank`, that names a layer
/// above it.
fn upward(code: &str, rank: usize) -> Vec<(usize, String)> {
    crate_modules(code)
        .into_iter()
        .filter(|(_, module)| rank_of_module(module).is_some_and(|r| r > rank))
        .collect()
}

#[test]
fn imports_point_down() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut offences = Vec::new();
    let mut checked = 0;
    for (rank, (layer, places)) in LAYERS.iter().enumerate() {
        for place in *places {
            let place = root.join(place);
            let mut files = Vec::new();
            if place.is_dir() {
                rust_files(&place, &mut files);
            } else {
                files.push(place);
            }
            for file in files {
                let text = std::fs::read_to_string(&file).expect("readable source");
                checked += 1;
                for (line, module) in upward(&code_only(&text), rank) {
                    offences.push(format!(
                        "{}:{line}: {layer} names crate::{module}",
                        file.strip_prefix(root).unwrap_or(&file).display()
                    ));
                }
            }
        }
    }
    assert!(
        checked >= 100,
        "expected the crate's files, checked {checked}"
    );
    assert!(
        offences.is_empty(),
        "imports must point down (core ← io ← store ← utils ← ui ← page/element):\n{}",
        offences.join("\n")
    );
}

#[test]
fn the_import_check_sees_paths_groups_and_skips_prose() {
    let store = rank_of_module("store").expect("store is a layer");
    // A plain path, an inline path, and a group's branches are all seen.
    let code = code_only(
        "use crate::ui::find::FindControl;\n\
         let a = crate::ui::attention::ChatAttention::new();\n\
         use crate::{core::Session, page::x};\n\
         use crate::io::{clock, http::{A, B}};\n",
    );
    let found: Vec<String> = upward(&code, store).into_iter().map(|(_, m)| m).collect();
    assert_eq!(found, ["ui", "ui", "page"]);
    // Comments, doc links and strings are not imports; downward paths are allowed.
    let code = code_only(
        "/// See [`crate::ui::chat::Chat`].\n\
         // crate::ui::x\n\
         /* crate::page::y */\n\
         let s = \"crate::ui::z\";\n\
         use crate::core::Millis;\n",
    );
    assert!(upward(&code, store).is_empty());
    // The element ranks with the page.
    assert_eq!(rank_of_module("element"), rank_of_module("page"));
}

/// Fields declared `pub` with a writable signal type: anything holding the struct could write
/// them past the methods that keep their rules.
fn pub_writable_signals(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in code.lines().map(str::trim) {
        let Some(rest) = line.strip_prefix("pub ") else {
            continue;
        };
        let Some((name, ty)) = rest.split_once(':') else {
            continue;
        };
        if !name.trim().chars().all(is_word_char) || name.trim().is_empty() {
            continue;
        }
        let ty = ty.trim();
        let ty = ty.rsplit("::").next().unwrap_or(ty);
        let ty = ty.trim_start_matches(|c: char| c == '<' || c.is_whitespace());
        if find_word(ty, "RwSignal").is_some() || find_word(ty, "ArcRwSignal").is_some() {
            found.push(line.to_owned());
        }
    }
    found
}

#[test]
fn no_public_writable_signal_fields() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    let mut offences = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable source");
        for line in pub_writable_signals(&code_only(&text)) {
            offences.push(format!(
                "{}: {line}",
                file.strip_prefix(root).unwrap_or(file).display()
            ));
        }
    }
    assert!(
        offences.is_empty(),
        "expose a read signal and a method that keeps the rules instead:\n{}",
        offences.join("\n")
    );
}

#[test]
fn the_signal_check_sees_pub_rw_signal_fields_only() {
    let code = "pub locale: RwSignal<&'static str>,\n\
                pub count: leptos::prelude::ArcRwSignal<usize>,\n\
                pub(crate) open: RwSignal<bool>,\n\
                pub now: ReadSignal<u64>,\n\
                locale: RwSignal<u8>,\n";
    assert_eq!(
        pub_writable_signals(code),
        [
            "pub locale: RwSignal<&'static str>,",
            "pub count: leptos::prelude::ArcRwSignal<usize>,"
        ]
    );
}

/// The io modules whose side effects belong to the store (talking to the server, the address
/// bar, storage, other tabs): views forward to the store instead of naming them.
const STORE_ONLY_IO: &[&str] = &["client", "location", "keys", "peers"];

/// The io modules of [`STORE_ONLY_IO`] that `code` names.
fn store_only_io(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (at, _) in code.match_indices("io::") {
        if code[..at].chars().next_back().is_some_and(is_word_char) {
            continue;
        }
        let name: String = code[at + "io::".len()..]
            .chars()
            .take_while(|c| is_word_char(*c))
            .collect();
        if STORE_ONLY_IO.contains(&name.as_str()) {
            found.push(name);
        }
    }
    found
}

#[test]
fn views_do_no_fetching_and_leave_the_address_bar_alone() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src/ui"), &mut files);
    let mut offences = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable source");
        for name in store_only_io(&code_only(&text)) {
            offences.push(format!(
                "{} names io::{name}",
                file.strip_prefix(root).unwrap_or(file).display()
            ));
        }
    }
    assert!(
        offences.is_empty(),
        "views forward to the store; fetching, the URL and storage are its business:\n{}",
        offences.join("\n")
    );
}

#[test]
fn the_fetching_check_sees_io_paths() {
    assert_eq!(
        store_only_io("use crate::io::client::AgentServerClient; crate::io::location::x();"),
        ["client", "location"]
    );
    assert!(store_only_io("crate::io::clock::now(); studio::client").is_empty());
}
