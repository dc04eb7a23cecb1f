//! The instant shell of the element (`src/shell.js`): the composer drawn before the wasm
//! arrives. This fills in what the script needs from the sources, so it never drifts from
//! them: the chat's first stylesheet (`style/tokens.css` with its tokens on `:host`, as in a
//! shadow root, and `style/chat.css`, compiled as the crate's build script compiles them) and
//! the shell's texts in every locale, read from `agent-chat-core/locales/<lang>/chat.ftl`.
//!
//! The split builds' wasm has no copy of that stylesheet: the chat takes the shell's, the
//! element's from the same module, the page's from the global the page's shell script sets
//! ([`PAGE_ENTRY`]). The bytes come once, in the script that arrives first.

use std::{fs, path::Path};

#[path = "../../style/minify.rs"]
mod minify;

#[path = "../../style/host_tokens.rs"]
mod host_tokens;

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

/// `src/shell.js` with the stylesheet, the texts and the files of the part the chat draws
/// first (`first_chunks`, fetched once the main wasm has arrived) filled in.
pub fn script(root: &Path, first_chunks: &[String]) -> Result<String, String> {
    let read = |p: &str| fs::read_to_string(root.join(p)).map_err(|e| format!("read {p}: {e}"));
    let template = read("src/shell.js")?;
    // Byte for byte the sheet a chat in a shadow root drew from its compiled-in copies
    // (`ui::style::shadow_tokens` and `CHAT_CSS`): the split builds now draw this one.
    let css = first_sheet(&read("style/tokens.css")?, &read("style/chat.css")?)?;
    let mut texts = String::from("{");
    for (i, lang) in LOCALES.iter().enumerate() {
        let ftl = read(&format!("agent-chat-core/locales/{lang}/chat.ftl"))?;
        if i > 0 {
            texts.push(',');
        }
        texts.push_str(&format!("{}:{{", json_string(lang)));
        for (j, (key, id)) in TEXTS.iter().enumerate() {
            let value = message(&ftl, id).ok_or_else(|| {
                format!("agent-chat-core/locales/{lang}/chat.ftl has no plain message {id}")
            })?;
            if j > 0 {
                texts.push(',');
            }
            texts.push_str(&format!("{}:{}", json_string(key), json_string(&value)));
        }
        texts.push('}');
    }
    texts.push('}');
    let chunks = format!(
        "[{}]",
        first_chunks
            .iter()
            .map(|f| json_string(f))
            .collect::<Vec<_>>()
            .join(",")
    );
    let css_slot = "\"__AGENT_CHAT_SHELL_CSS__\"";
    let texts_slot = "__AGENT_CHAT_SHELL_TEXTS__";
    let chunks_slot = "__AGENT_CHAT_SHELL_CHUNKS__";
    if [css_slot, texts_slot, chunks_slot]
        .iter()
        .any(|slot| !template.contains(slot))
    {
        return Err("src/shell.js lacks its stylesheet, texts or chunks slot".into());
    }
    Ok(template
        .replacen(css_slot, &json_string(&css), 1)
        .replacen(texts_slot, &texts, 1)
        .replacen(chunks_slot, &chunks, 1))
}

/// The chat's first stylesheet with its tokens on the shadow host, from the sources of
/// `style/tokens.css` and `style/chat.css`.
/// Fails when the page could not move the tokens back onto `.chat-root` (`ui::style::page_sheet`
/// reads the whole sheet, so `style/chat.css` must never name `:host`).
pub fn first_sheet(tokens: &str, chat: &str) -> Result<String, String> {
    let tokens = minify::compile("tokens.css", tokens);
    let chat = minify::compile("chat.css", chat);
    let sheet = format!("{}{chat}", host_tokens::onto_host(&tokens));
    if host_tokens::onto_root(&sheet) != format!("{tokens}{chat}") {
        return Err(
            "style/chat.css names `:host`: the page could not put the tokens of the \
                    shell's stylesheet back on .chat-root"
                .into(),
        );
    }
    Ok(sheet)
}

/// The name of the page's shell script in `dist/`, beside `index.html`.
pub const PAGE_SCRIPT: &str = "agent-chat-shell.js";

/// What the page's shell script adds to [`script`]: it sets `window.__agentChatSheet` (the
/// chat's first stylesheet, which the page's wasm reads instead of carrying a copy), draws the
/// shell into the `#agent-chat-shell` host that [`into_page`] puts first in `<body>` (theme
/// and language from the page's query, as the page reads them), gives the text back with an error if the page's
/// wasm fails to start, and offers `window.__agentChatPageShell.take()`, which the page calls
/// just before it mounts the chat (`src/page.rs`): the returned function hands what was typed
/// over to the chat's composer and removes the shell.
const PAGE_ENTRY: &str = r#"
// The chat's first stylesheet, for the page's wasm (which has no copy): read-only, set once.
Object.defineProperty(window, "__agentChatSheet", { value: __agentChatSheet });
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
  prefetchFirstChunks(document.currentScript && document.currentScript.src);
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
pub fn page_script(root: &Path, first_chunks: &[String]) -> Result<String, String> {
    Ok(format!(
        "(function () {{
{}
{PAGE_ENTRY}
}})();
",
        script(root, first_chunks)?
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
        let script = super::script(&root, &["split_x.wasm".into()]).unwrap();
        assert!(!script.contains("__AGENT_CHAT_SHELL_"));
        assert!(script.contains("SHELL_FIRST_CHUNKS = [\"split_x.wasm\"]"));
        assert!(script.contains("\"Type your message...\""));
        assert!(script.contains("\"Mesajınızı yazın...\""));
        assert!(script.contains("اكتب رسالتك..."));
        // The chat's first sheet, compiled as the wasm's copies are: the tokens as written (on
        // `:host`), the component styles without the spaces they do not need.
        let read = |p: &str| std::fs::read_to_string(root.join(p)).unwrap();
        let sheet = super::first_sheet(&read("style/tokens.css"), &read("style/chat.css")).unwrap();
        assert!(script.contains(&super::json_string(&sheet)));
        assert!(sheet.starts_with(":host {\n  --chat-bg-primary: #212121;"));
        assert!(sheet.contains("\n:host([theme=\"light\"]) {\n"));
        assert!(!sheet.contains(".chat-root {") && !sheet.contains("/* --chat-* design tokens"));
        let chat = &sheet[sheet.rfind("\n}").unwrap() + 2..];
        assert!(chat.starts_with(".chat-root{") && chat.contains(".chat-input__textarea{"));
        assert!(!chat.contains('\n') && !chat.contains("; "));
        // The shell's frame rules are the shell's: not in the chat's sheet.
        assert!(!sheet.contains(".chat-shell"));
        assert!(script.contains("__agentChatSheet + SHELL_FRAME_CSS"));
    }

    #[test]
    fn i34_the_shells_sheet_goes_back_onto_the_page_root_exactly() {
        let tokens = "/* x */\n.chat-root {\n  --a: 1px, 2px;\n}\n\n.chat-root.chat-theme-light {\n  --a: 3px;\n}\n";
        let chat = ".chat-root { color: var(--a); }\n.b :focus { top: 0 }\n";
        let sheet = super::first_sheet(tokens, chat).unwrap();
        assert_eq!(
            sheet,
            ":host {\n  --a: 1px, 2px;\n}\n:host([theme=\"light\"]) {\n  --a: 3px;\n}\
             .chat-root{color:var(--a);}.b :focus{top:0}"
        );
        assert_eq!(
            super::host_tokens::onto_root(&sheet),
            ".chat-root {\n  --a: 1px, 2px;\n}\n.chat-root.chat-theme-light {\n  --a: 3px;\n}\
             .chat-root{color:var(--a);}.b :focus{top:0}"
        );
        // Text of the component styles that reads like a token block would be moved onto the
        // page's root too: refused.
        assert!(super::first_sheet(tokens, ".a::before { content: \":host {\" }").is_err());
        assert!(super::first_sheet(tokens, ":host { color: red }").is_ok());
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
        let js = super::page_script(&root, &[]).unwrap();
        assert!(js.starts_with("(function () {") && js.contains("__agentChatPageShell"));
        // The page's wasm reads the sheet from `window`, set before the shell is drawn.
        let set = js
            .find(
                "Object.defineProperty(window, \"__agentChatSheet\", { value: __agentChatSheet })",
            )
            .unwrap();
        assert!(set < js.find("drawShell(host);").unwrap());
    }

    #[test]
    fn strings_and_messages() {
        assert_eq!(super::json_string("a\"b\\\n<"), "\"a\\\"b\\\\\\n\\u003c\"");
        let ftl = "a = one\nb = { $n } items\nc-d =  two words \n";
        assert_eq!(super::message(ftl, "a").as_deref(), Some("one"));
        assert_eq!(super::message(ftl, "b"), None);
        assert_eq!(super::message(ftl, "c-d").as_deref(), Some("two words"));
        assert_eq!(super::minify::strip_css_comments("a/* x */b/* y"), "ab");
    }
}
