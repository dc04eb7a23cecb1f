//! Build script: the Fluent files are compiled in without their comment lines (they are
//! read by people, not by the chat), and English also as a Rust table, so English is formatted
//! without Fluent's runtime. The sources in `locales/` stay as written; `src/i18n.rs`
//! includes the copies from `OUT_DIR`.

use std::{env, fs, path::Path};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let out = env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    for lang in ["en", "tr", "ar"] {
        let source = format!("locales/{lang}/chat.ftl");
        println!("cargo:rerun-if-changed={source}");
        let ftl = fs::read_to_string(&source).expect("the Fluent file is readable");
        let ftl = strip_ftl_comments(&ftl);
        if lang == "en" {
            write(&out, "en_table.rs", &english_table(&ftl));
        }
        write(&out, &format!("{lang}.ftl"), &ftl);
    }
}

/// English as a Rust table: each message's pieces, plain or with its two plural
/// variants, sorted by id. `i18n` formats English with it, without Fluent's runtime;
/// a differential test holds it to Fluent's output. Syntax the table cannot hold (terms,
/// attributes, functions, other selectors, text over several lines) stops the build, so a
/// change of `en.ftl` cannot quietly lose a text.
fn english_table(ftl: &str) -> String {
    let mut entries = Vec::new();
    let mut lines = ftl.lines().peekable();
    while let Some(line) = lines.next() {
        if line.trim().is_empty() {
            continue;
        }
        let Some((id, value)) = line.split_once('=') else {
            panic!("en.ftl: not a message: {line:?}");
        };
        let id = id.trim();
        assert!(
            id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'),
            "en.ftl: an id the English table does not read: {id:?}"
        );
        let value = value.trim();
        let entry = match value
            .strip_prefix("{ $")
            .and_then(|v| v.strip_suffix(" ->"))
        {
            Some(selector) => {
                let (mut one, mut other) = (None, None);
                for variant in lines.by_ref() {
                    let variant = variant.trim();
                    if variant == "}" {
                        break;
                    }
                    if let Some(text) = variant.strip_prefix("*[other]") {
                        other = Some(pieces(id, text.trim()));
                    } else if let Some(text) = variant.strip_prefix("[one]") {
                        one = Some(pieces(id, text.trim()));
                    } else {
                        panic!(
                            "en.ftl: {id}: a variant the English table does not read: {variant:?}"
                        );
                    }
                }
                let (Some(one), Some(other)) = (one, other) else {
                    panic!("en.ftl: {id}: a selector without [one] and *[other]");
                };
                format!("English::Plural {{ selector: {selector:?}, one: {one}, other: {other} }}")
            }
            None => {
                assert!(
                    !lines.peek().is_some_and(|l| l.starts_with([' ', '\t'])),
                    "en.ftl: {id}: text over several lines, which the English table does not read"
                );
                format!("English::Plain({})", pieces(id, value))
            }
        };
        entries.push((id.to_owned(), entry));
    }
    entries.sort();
    let mut table = String::from("&[\n");
    for (id, entry) in entries {
        table.push_str(&format!("    ({id:?}, {entry}),\n"));
    }
    table.push_str("]\n");
    table
}

/// The pieces of one pattern: text, and `{ $name }` placeables.
fn pieces(id: &str, mut text: &str) -> String {
    let mut out = Vec::new();
    while let Some(start) = text.find('{') {
        if start > 0 {
            out.push(format!("Piece::Text({:?})", &text[..start]));
        }
        let Some(end) = text[start..].find('}').map(|e| e + start) else {
            panic!("en.ftl: {id}: an unclosed placeable");
        };
        let inner = text[start + 1..end].trim();
        let name = inner
            .strip_prefix('$')
            .filter(|n| {
                !n.is_empty()
                    && n.chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            })
            .unwrap_or_else(|| {
                panic!("en.ftl: {id}: a placeable the English table does not read: {inner:?}")
            });
        out.push(format!("Piece::Arg({name:?})"));
        text = &text[end + 1..];
    }
    if !text.is_empty() {
        out.push(format!("Piece::Text({text:?})"));
    }
    format!("&[{}]", out.join(", "))
}

fn write(out: &str, name: &str, text: &str) {
    fs::write(Path::new(out).join(name), text).expect("OUT_DIR is writable");
}

/// Removes comment lines (`#`, `##`, `###` at the start of a line: continuation lines of a
/// pattern are indented, so a `#` there is text and stays).
fn strip_ftl_comments(ftl: &str) -> String {
    let mut kept: String = ftl
        .lines()
        .filter(|l| !l.starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n");
    kept.push('\n');
    kept
}
