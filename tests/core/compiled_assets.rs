//! The stylesheet and the Fluent files are compiled in without their comments (issue 16,
//! `build.rs`): what is left must say everything the sources say.
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::LOCALES;
use agent_chat_ui::ui::style::{
    page_sheet, part_styles, shadow_tokens, use_part_style, CARDS_CSS, CHAT_CSS, HISTORY_CSS,
    MARKDOWN_CSS, MESSAGES_CSS, PAGE_CSS, TOKENS_CSS,
};

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

/// `css` as words and marks, whitespace dropped: the same for a sheet and its squeezed copy
/// exactly when squeezing only removed or shortened whitespace between them (a space that
/// separated two words, as in `0 24px`, cannot go without merging them).
fn tokens(css: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    for c in css.chars() {
        if c.is_whitespace() || "{};,>:".contains(c) {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            if !c.is_whitespace() {
                out.push(c.to_string());
            }
        } else {
            word.push(c);
        }
    }
    out.extend((!word.is_empty()).then_some(word));
    out
}

/// How many `:` follow a word and whitespace (`.a :focus`, a descendant combinator).
fn descendant_pseudo(css: &str) -> usize {
    let chars: Vec<char> = css.chars().collect();
    (0..chars.len())
        .filter(|&i| chars[i] == ':')
        .filter(|&i| {
            let before = chars[..i].iter().rev();
            let mut before = before.skip_while(|c| c.is_whitespace());
            i > 0
                && chars[i - 1].is_whitespace()
                && before.next().is_some_and(|c| !"{};,>:".contains(*c))
        })
        .count()
}

#[test]
fn i16_the_compiled_stylesheet_is_the_source_without_its_comments() {
    assert_eq!(
        TOKENS_CSS,
        without_comments(include_str!("../../style/tokens.css"))
    );
    for (compiled, source) in [
        (CHAT_CSS, include_str!("../../style/chat.css")),
        (MESSAGES_CSS, include_str!("../../style/messages.css")),
        (CARDS_CSS, include_str!("../../style/cards.css")),
        (MARKDOWN_CSS, include_str!("../../style/markdown.css")),
        (HISTORY_CSS, include_str!("../../style/history.css")),
        (PAGE_CSS, include_str!("../../style/page.css")),
    ] {
        assert!(source.contains("/*"), "the source has comments to strip");
        assert!(!compiled.contains("/*"));
        let source = without_comments(source);
        assert_eq!(tokens(compiled), tokens(&source));
        // A space before `:` is a descendant combinator (`.a :focus`): every one is kept.
        assert_eq!(descendant_pseudo(compiled), descendant_pseudo(&source));
        assert!(compiled.len() < source.len(), "squeezed");
    }
}

/// Issue 16, D79: each part's rules are in its own sheet, in no other (a rule in two sheets
/// would weigh on the first download, or be lost when the parts move), and no sheet is
/// missing a rule of the stylesheet as it was.
#[test]
fn i16_each_rule_is_in_one_sheet() {
    let sheets = [
        CHAT_CSS,
        MESSAGES_CSS,
        CARDS_CSS,
        MARKDOWN_CSS,
        HISTORY_CSS,
        PAGE_CSS,
    ];
    let selectors = |css: &str| -> Vec<String> {
        css.split('}')
            .filter_map(|rule| rule.rsplit_once('{').map(|(sel, _)| sel.trim().to_owned()))
            .filter(|sel| sel.starts_with('.') || sel.starts_with('['))
            .collect()
    };
    let mut seen = std::collections::HashMap::new();
    for (n, css) in sheets.iter().enumerate() {
        for sel in selectors(css) {
            if let Some(other) = seen.insert(sel.clone(), n) {
                assert_eq!(other, n, "{sel} is in sheets {other} and {n}");
            }
        }
    }
    for (sheet, rule) in [
        (MESSAGES_CSS, ".chat-message{"),
        (MESSAGES_CSS, ".chat-find{"),
        (MESSAGES_CSS, ".chat-agent-picker__menu"),
        (MESSAGES_CSS, ".chat-file-chip{"),
        (MESSAGES_CSS, ".chat-older__button"),
        (MESSAGES_CSS, ".chat-message__retry{"),
        (CHAT_CSS, ".chat-chunk-failed__retry{"),
        (CHAT_CSS, ".chat-message-list,"),
        (CHAT_CSS, ".chat-dots{"),
        (CARDS_CSS, ".chat-card__buttons"),
        (CARDS_CSS, ".chat-card__changed"),
        (MARKDOWN_CSS, ".chat-markdown__code"),
        (MARKDOWN_CSS, ".chat-tool-calls"),
        (MARKDOWN_CSS, ".chat-citations"),
        (HISTORY_CSS, ".chat-history__item"),
        (HISTORY_CSS, ".chat-history__search"),
        (PAGE_CSS, ".chat-settings"),
        (CHAT_CSS, ".chat-card{"),
        (CHAT_CSS, ".chat-markdown{"),
        (CHAT_CSS, ".chat-button{"),
        (CHAT_CSS, ".chat-history{"),
        (CHAT_CSS, ".chat-history__empty"),
    ] {
        assert!(sheet.contains(rule), "{rule}");
    }
    assert!(!CHAT_CSS.contains(".chat-card__buttons") && !CHAT_CSS.contains(".chat-settings"));
    // A rule that ties with a moved one on the same element moved with it: the part's
    // sheet comes after chat.css and would otherwise win the tie it used to lose (D80).
    for tied in [
        ".chat-input__files",
        ".chat-message__content--markdown",
        ".chat-message__body{max-width:100%",
    ] {
        assert!(MESSAGES_CSS.contains(tied), "{tied}");
        assert!(!CHAT_CSS.contains(tied), "{tied}");
    }
}

/// Issue 16, D79: a part's sheet is added once, whoever asks, in the order asked.
#[test]
fn i16_a_part_sheet_is_added_once() {
    use_part_style(MARKDOWN_CSS);
    use_part_style(CARDS_CSS);
    use_part_style(MARKDOWN_CSS);
    assert_eq!(part_styles(), vec![MARKDOWN_CSS, CARDS_CSS]);
}

#[test]
fn i16_the_compiled_locales_are_the_sources_without_comment_lines() {
    let sources = [
        include_str!("../../agent-chat-core/locales/en/chat.ftl"),
        include_str!("../../agent-chat-core/locales/tr/chat.ftl"),
        include_str!("../../agent-chat-core/locales/ar/chat.ftl"),
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

/// The split builds take the first stylesheet from the instant shell, which
/// carries the shadow root's form (tokens on `:host`, as `shadow_tokens` writes them). The
/// page moves them back onto `.chat-root`: it must get the compiled-in sheet back exactly, so
/// the page is styled as it was, to the text of every token.
#[test]
fn i34_the_page_gets_the_compiled_in_sheet_back_from_the_shells() {
    let shells = shadow_tokens() + CHAT_CSS;
    assert!(shells.starts_with(":host {\n") && shells.contains("\n:host([theme=\"light\"]) {\n"));
    assert!(!shells[..shells.len() - CHAT_CSS.len()].contains(".chat-root"));
    assert_eq!(page_sheet(&shells), [TOKENS_CSS, CHAT_CSS].concat());
}
