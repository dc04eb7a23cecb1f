//! The stylesheet and the Fluent files are compiled in without their comments (issue 16,
//! `build.rs`): what is left must say everything the sources say.
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::LOCALES;
use agent_chat_ui::ui::style::{CHAT_CSS, TOKENS_CSS};

/// The text of `source` outside `/* … */` comments, without blank lines (written apart from
/// the build script's scanner: a plain split on the markers).
fn without_comments(source: &str) -> String {
    let mut kept = String::new();
    let mut rest = source;
    while let Some(start) = rest.find("/*") {
        kept.push_str(&rest[..start]);
        let end = rest[start..].find("*/").expect("every comment is closed") + start + 2;
        rest = &rest[end..];
    }
    kept.push_str(rest);
    kept.lines()
        .filter(|l| !l.trim().is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn i16_the_compiled_stylesheet_is_the_source_without_its_comments() {
    for (compiled, source) in [
        (TOKENS_CSS, include_str!("../style/tokens.css")),
        (CHAT_CSS, include_str!("../style/chat.css")),
    ] {
        assert!(source.contains("/*"), "the source has comments to strip");
        assert!(!compiled.contains("/*"));
        assert_eq!(compiled, without_comments(source));
        assert!(compiled.len() < source.len());
    }
}

#[test]
fn i16_the_compiled_locales_are_the_sources_without_comment_lines() {
    let sources = [
        include_str!("../locales/en/chat.ftl"),
        include_str!("../locales/tr/chat.ftl"),
        include_str!("../locales/ar/chat.ftl"),
    ];
    for ((tag, compiled), source) in LOCALES.iter().zip(sources) {
        let expected: Vec<&str> = source.lines().filter(|l| !l.starts_with('#')).collect();
        let got: Vec<&str> = compiled.lines().collect();
        assert_eq!(got, expected, "{tag}");
        assert!(
            source.lines().any(|l| l.starts_with('#')),
            "{tag}: the source has comments to strip"
        );
    }
}
