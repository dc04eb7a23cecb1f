//! The stylesheets' minifier, shared by the crate's build script (the wasm's copies) and
//! `cargo xtask` (the instant shell's copy in `agent-chat.js`), so both ship the same bytes.

/// The stylesheet `name` of `style/` (its text `css`) as the wasm and the instant shell carry
/// it: without comments, and without the spaces it does not need, but for `tokens.css`, kept
/// as written because `host_tokens.rs` finds its blocks by their text.
pub fn compile(name: &str, css: &str) -> String {
    let css = strip_css_comments(css);
    if name == "tokens.css" {
        css
    } else {
        squeeze_css_spaces(&css)
    }
}

/// Removes `/* … */` comments outside strings, and lines left blank.
pub fn strip_css_comments(css: &str) -> String {
    let mut kept = String::with_capacity(css.len());
    let mut chars = css.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '"' || c == '\'' {
            kept.push(c);
            copy_string(c, &mut chars, &mut kept);
        } else if c == '/' && chars.peek() == Some(&'*') {
            chars.next();
            let mut last = ' ';
            for c in chars.by_ref() {
                if last == '*' && c == '/' {
                    break;
                }
                last = c;
            }
        } else {
            kept.push(c);
        }
    }
    kept.lines()
        .filter(|l| !l.trim().is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Copies the rest of a CSS string whose opening `quote` was just copied, through its closing
/// quote (an escaped character is copied as it is).
fn copy_string(quote: char, chars: &mut impl Iterator<Item = char>, out: &mut String) {
    while let Some(c) = chars.next() {
        out.push(c);
        if c == '\\' {
            if let Some(next) = chars.next() {
                out.push(next);
            }
        } else if c == quote {
            return;
        }
    }
}

/// Drops the whitespace CSS does not need: every run outside a string becomes one space, or
/// nothing next to `{`, `}`, `;`, `,` and `>` and after `:` (never before `:`, where a space
/// is the descendant combinator of `.a :focus`). About 0.5 KB gzip of the first download.
pub fn squeeze_css_spaces(css: &str) -> String {
    const TIGHT: &[char] = &['{', '}', ';', ',', '>'];
    let mut out = String::with_capacity(css.len());
    let mut chars = css.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '"' || c == '\'' {
            out.push(c);
            copy_string(c, &mut chars, &mut out);
        } else if c.is_whitespace() {
            while chars.peek().is_some_and(|n| n.is_whitespace()) {
                chars.next();
            }
            let after_tight = out
                .chars()
                .last()
                .is_none_or(|p| TIGHT.contains(&p) || p == ':');
            let before_tight = chars.peek().is_none_or(|n| TIGHT.contains(n));
            if !after_tight && !before_tight {
                out.push(' ');
            }
        } else {
            out.push(c);
        }
    }
    out
}
