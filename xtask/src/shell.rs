//! The instant shell of the element (`src/shell.js`): the composer drawn before the wasm
//! arrives. This fills in what the script needs from the sources, so it never drifts from
//! them: the stylesheet the chat draws (`style/tokens.css` with its tokens on `:host`, as in a
//! shadow root, and `style/chat.css`) and the shell's texts in every locale, read from
//! `locales/<lang>/chat.ftl`.

use std::{fs, path::Path};

#[path = "../../style/minify.rs"]
mod minify;

use minify::{squeeze_css_spaces, strip_css_comments};

/// The shell's texts: the key the script reads, the Fluent id it comes from.
pub const TEXTS: &[(&str, &str)] = &[
    ("title", "chat-history-new-chat"),
    ("label", "chat-input-label"),
    ("placeholder", "chat-input-placeholder"),
    ("send", "chat-input-send"),
    ("helper", "chat-input-helper"),
    ("sending", "chat-shell-sending"),
    ("failed", "chat-shell-load-failed"),
    ("history", "chat-history-title"),
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
    // Minified as the build script minifies the wasm's copies.
    let css = squeeze_css_spaces(&format!(
        "{tokens}{}{SHELL_RULES}",
        strip_css_comments(&read("style/chat.css")?)
    ));
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

/// The name of the page's shell script in `dist/`, beside `index.html`.
pub const PAGE_SCRIPT: &str = "agent-chat-shell.js";

/// What the page's shell script adds to [`script`]: it draws the shell into the
/// `#agent-chat-shell` host that [`into_page`] puts first in `<body>` (theme and language from
/// the page's query, as the page reads them), gives the text back with an error if the page's
/// wasm fails to start, and offers `window.__agentChatPageShell.take()`, which the page calls
/// just before it mounts the chat (`src/page.rs`): the returned function hands what was typed
/// over to the chat's composer and removes the shell.
const PAGE_ENTRY: &str = r#"
(function () {
  const host = document.getElementById("agent-chat-shell");
  if (!host) return;
  const theme = new URLSearchParams(location.search).get("theme");
  if (theme) host.setAttribute("theme", theme);
  drawShell(host);
  let settled = false;
  const fail = () => {
    if (settled || !host._agentChatShell) return;
    settled = true;
    host._agentChatShell.fail();
  };
  addEventListener("error", fail);
  addEventListener("unhandledrejection", fail);
  window.__agentChatPageShell = {
    take() {
      settled = true;
      const shell = host._agentChatShell;
      const adopt = shell ? shell.take() : null;
      return (chatRoot) => {
        if (adopt) adopt(chatRoot);
        host.remove();
      };
    },
  };
})();
"#;

/// The page's shell script: [`script`] and the page's entry, in a function scope (a classic
/// script, run while the page is parsed).
pub fn page_script(root: &Path) -> Result<String, String> {
    Ok(format!(
        "(function () {{
{}
{PAGE_ENTRY}
}})();
",
        script(root)?
    ))
}

/// `index.html` with the shell's host and script first in `<body>`: the shell is drawn as soon as
/// the parser gets there, while the wasm (preloaded in `<head>`) is on its way.
pub fn into_page(html: &str) -> Result<String, String> {
    if html.contains("id=\"agent-chat-shell\"") {
        return Ok(html.to_owned());
    }
    let at = html
        .find("<body>")
        .ok_or("index.html has no <body> to put the shell in")?
        + "<body>".len();
    let tag = format!(
        r#"
    <div id="agent-chat-shell" style="height:100%"></div>
    <script src="/{PAGE_SCRIPT}"></script>"#
    );
    Ok(format!("{}{tag}{}", &html[..at], &html[at..]))
}

/// The value of the one-line Fluent message `id` (the shell's texts have no variables).
fn message(ftl: &str, id: &str) -> Option<String> {
    ftl.lines().find_map(|line| {
        let (key, value) = line.split_once('=')?;
        (key.trim() == id && !value.contains('{')).then(|| value.trim().to_owned())
    })
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
        assert!(script.contains(":host{") && script.contains(".chat-input__textarea"));
        // Minified as the wasm's copy is: no line breaks left in the stylesheet.
        assert!(!script.contains("{\\n") && !script.contains(";\\n"));
        assert!(!script.contains("/* --chat-* design tokens"));
    }

    #[test]
    fn the_page_gets_its_shell_first_in_the_body_once() {
        let html = "<html><head></head><body>\n<noscript>x</noscript></body></html>";
        let page = super::into_page(html).unwrap();
        let host = page.find("id=\"agent-chat-shell\"").unwrap();
        let script = page.find("src=\"/agent-chat-shell.js\"").unwrap();
        assert!(page.find("<body>").unwrap() < host && host < script);
        assert!(script < page.find("<noscript>").unwrap());
        assert_eq!(super::into_page(&page).unwrap(), page);
        assert!(super::into_page("<html></html>").is_err());
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let js = super::page_script(&root).unwrap();
        assert!(js.starts_with("(function () {") && js.contains("__agentChatPageShell"));
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
