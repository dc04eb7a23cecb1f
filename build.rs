//! Build script: the stylesheet and the Fluent files are compiled into the wasm without their
//! comments (issue 16: about 3 KB gzip of the element's first download). The sources stay as
//! written; `src/ui/style.rs` and `src/core/i18n.rs` include the copies from `OUT_DIR`.

use std::{env, fs, path::Path};

fn main() {
    // The split build (D67): wasm-split-cli reads the linker's relocations, so the element
    // (the cdylib) and the page (the bin) keep them when built with `split` for wasm32.
    println!("cargo:rerun-if-env-changed=CARGO_FEATURE_SPLIT");
    if env::var_os("CARGO_FEATURE_SPLIT").is_some()
        && env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32")
    {
        println!("cargo:rustc-link-arg-cdylib=--emit-relocs");
        println!("cargo:rustc-link-arg-bins=--emit-relocs");
    }
    let out = env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    for name in ["tokens.css", "chat.css"] {
        let source = format!("style/{name}");
        println!("cargo:rerun-if-changed={source}");
        let css = fs::read_to_string(&source).expect("the stylesheet is readable");
        write(&out, name, &strip_css_comments(&css));
    }
    for lang in ["en", "tr", "ar"] {
        let source = format!("locales/{lang}/chat.ftl");
        println!("cargo:rerun-if-changed={source}");
        let ftl = fs::read_to_string(&source).expect("the Fluent file is readable");
        write(&out, &format!("{lang}.ftl"), &strip_ftl_comments(&ftl));
    }
}

fn write(out: &str, name: &str, text: &str) {
    fs::write(Path::new(out).join(name), text).expect("OUT_DIR is writable");
}

/// Removes `/* … */` comments outside strings, and lines left blank.
fn strip_css_comments(css: &str) -> String {
    let mut kept = String::with_capacity(css.len());
    let mut chars = css.chars().peekable();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match quote {
            Some(q) => {
                kept.push(c);
                if c == '\\' {
                    if let Some(next) = chars.next() {
                        kept.push(next);
                    }
                } else if c == q {
                    quote = None;
                }
            }
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                kept.push(c);
            }
            None if c == '/' && chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            None => kept.push(c),
        }
    }
    kept.lines()
        .filter(|l| !l.trim().is_empty())
        .collect::<Vec<_>>()
        .join("\n")
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
