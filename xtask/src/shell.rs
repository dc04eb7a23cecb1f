//! The instant shell of the element (`src/shell.js`): the composer drawn before the wasm
//! arrives. This fills in what the script needs from the sources, so it never drifts from
//! them: the stylesheet the chat draws (`style/tokens.css` with its tokens on `:host`, as in a
//! shadow root, and `style/chat.css`) and the shell's texts in every locale, read from
//! `locales/<lang>/chat.ftl`.

use std::{fs, path::Path};

/// The shell's texts: the key the script reads, the Fluent id it comes from.
pub const TEXTS: &[(&str, &str)] = &[
    ("title", "chat-history-new-chat"),
    ("label", "chat-input-label"),
    ("placeholder", "chat-input-placeholder"),
    ("send", "chat-input-send"),
    ("helper", "chat-input-helper"),
    ("sending", "chat-shell-sending"),
    ("failed", "chat-shell-load-failed"),
];

/// The locales the element ships (the script picks one as the chat does).
pub const LOCALES: &[&str] = &["en", "tr", "ar"];

/// Rules of the shell's own frame: full height, and in front of a chat still hidden.
const SHELL_RULES: &str =
    ".chat-shell{height:100%}.chat-shell--over{position:absolute;inset:0;z-index:1}";

/// `src/shell.js` with the stylesheet and the texts filled in.
pub fn script(root: &Path) -> Result<String, String> {
    let read = |p: &str| fs::read_to_string(root.join(p)).map_err(|e| format!("read {p}: {e}"));
    let template = read("src/shell.js")?;
    let tokens = strip_css_comments(&read("style/tokens.css")?)
        .replace(
            ".chat-root.chat-theme-light {",
            ":host([theme=\"light\"]) {",
        )
        .replace(".chat-root {", ":host {");
    let css = format!(
        "{tokens}{}{SHELL_RULES}",
        strip_css_comments(&read("style/chat.css")?)
    );
    let mut texts = String::from("{");
    for (i, lang) in LOCALES.iter().enumerate() {
        let ftl = read(&format!("locales/{lang}/chat.ftl"))?;
        if i > 0 {
            texts.push(',');
        }
        texts.push_str(&format!("{}:{{", json_string(lang)));
        for (j, (key, id)) in TEXTS.iter().enumerate() {
            let value = message(&ftl, id)
                .ok_or_else(|| format!("locales/{lang}/chat.ftl has no plain message {id}"))?;
            if j > 0 {
                texts.push(',');
            }
            texts.push_str(&format!("{}:{}", json_string(key), json_string(&value)));
        }
        texts.push('}');
    }
    texts.push('}');
    let css_slot = "\"__AGENT_CHAT_SHELL_CSS__\"";
    let texts_slot = "__AGENT_CHAT_SHELL_TEXTS__";
    if !template.contains(css_slot) || !template.contains(texts_slot) {
        return Err("src/shell.js lacks its stylesheet or texts slot".into());
    }
    Ok(template
        .replacen(css_slot, &json_string(&css), 1)
        .replacen(texts_slot, &texts, 1))
}

/// The value of the one-line Fluent message `id` (the shell's texts have no variables).
fn message(ftl: &str, id: &str) -> Option<String> {
    ftl.lines().find_map(|line| {
        let (key, value) = line.split_once('=')?;
        (key.trim() == id && !value.contains('{')).then(|| value.trim().to_owned())
    })
}

/// `/* … */` comments out of a stylesheet.
fn strip_css_comments(css: &str) -> String {
    let mut out = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        match rest[start + 2..].find("*/") {
            Some(end) => rest = &rest[start + 2 + end + 2..],
            None => return out,
        }
    }
    out.push_str(rest);
    out
}

/// `s` as a JSON (and JavaScript) string literal.
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            // Line and paragraph separators, and `<` so no `</script>` can appear.
            '\u{2028}' | '\u{2029}' | '<' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    #[test]
    fn the_shell_gets_every_locales_texts_and_the_chats_stylesheet() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let script = super::script(&root).unwrap();
        assert!(!script.contains("__AGENT_CHAT_SHELL_"));
        assert!(script.contains("\"Type your message...\""));
        assert!(script.contains("\"Mesajınızı yazın...\""));
        assert!(script.contains("اكتب رسالتك..."));
        assert!(script.contains(":host {") && script.contains(".chat-input__textarea"));
        assert!(!script.contains("/* --chat-* design tokens"));
    }

    #[test]
    fn strings_and_messages() {
        assert_eq!(super::json_string("a\"b\\\n<"), "\"a\\\"b\\\\\\n\\u003c\"");
        let ftl = "a = one\nb = { $n } items\nc-d =  two words \n";
        assert_eq!(super::message(ftl, "a").as_deref(), Some("one"));
        assert_eq!(super::message(ftl, "b"), None);
        assert_eq!(super::message(ftl, "c-d").as_deref(), Some("two words"));
        assert_eq!(super::strip_css_comments("a/* x */b/* y"), "ab");
    }
}
