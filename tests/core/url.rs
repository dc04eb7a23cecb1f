//! `core::url`: the one filter for server-given addresses put into an `href` (Markdown links
//! and images, a sent file's Download link, citations). Table-driven, hostile inputs first.
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::url::{safe_href, safe_web_href};

/// Addresses no view may link to, whatever the spelling.
const HOSTILE: &[&str] = &[
    // Script and data schemes, in any case.
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "vbscript:msgbox(1)",
    "VBScript:msgbox(1)",
    "data:text/html,<script>alert(1)</script>",
    "data:image/svg+xml;base64,PHN2Zz4=",
    "DATA:image/png;base64,AAAA",
    "file:///etc/passwd",
    "blob:https://a.example/uuid",
    "about:blank",
    "chrome://settings",
    "intent://scan#Intent;end",
    // Whitespace and control tricks browsers strip before reading the scheme.
    " javascript:alert(1)",
    "\u{a0}javascript:alert(1)",
    "\u{200b}javascript:alert(1)",
    "\u{feff}javascript:alert(1)",
    "\tjavascript:alert(1)",
    "\n\rjavascript:alert(1)",
    "\u{1}javascript:alert(1)",
    "\u{1f}javascript:alert(1)",
    "java\tscript:alert(1)",
    "java\nscript:alert(1)",
    "java\rscript:alert(1)",
    "jav\u{0}ascript:alert(1)",
    "javascript\t:alert(1)",
    "  data:text/html,x  ",
    // Control characters inside an otherwise harmless address.
    "/files/a\u{0}b",
    "https://a.example/\u{7f}",
    "https://a.example/\u{85}x",
    // Protocol-relative: another host without a scheme.
    "//evil.example",
    "//evil.example/files/x.pdf",
    " //evil.example",
    "/\\evil.example",
    "/\\evil.example/files/x.pdf",
    "\\/evil.example",
    "\\\\evil.example",
    "/\t/evil.example",
    "/\n\\evil.example",
    "\t//evil.example",
    // Empty: a link to the page itself.
    "",
    " ",
    " \t\n ",
    "\u{1}",
    // A scheme-like prefix that is not an allowed scheme.
    "mailto2:a@b.example",
    "xhttp://a.example",
    "http-x://a.example",
];

#[test]
fn hostile_addresses_are_refused_everywhere() {
    for raw in HOSTILE {
        assert_eq!(safe_href(raw), None, "safe_href let {raw:?} through");
        assert_eq!(
            safe_web_href(raw),
            None,
            "safe_web_href let {raw:?} through"
        );
    }
}

#[test]
fn web_mail_relative_and_fragment_addresses_are_kept() {
    for (raw, cleaned) in [
        ("http://a.example", "http://a.example"),
        ("https://a.example/b?c=1#d", "https://a.example/b?c=1#d"),
        ("HTTPS://A.example/", "HTTPS://A.example/"),
        ("mailto:a@b.example", "mailto:a@b.example"),
        (
            "MailTo:a@b.example?subject=hi",
            "MailTo:a@b.example?subject=hi",
        ),
        ("/files/file_1/content", "/files/file_1/content"),
        ("/api/agents/files/x.pdf", "/api/agents/files/x.pdf"),
        ("rel/path.txt", "rel/path.txt"),
        ("../up", "../up"),
        ("./x:y", "./x:y"),
        ("#anchor", "#anchor"),
        ("?q=1", "?q=1"),
        ("/a//b", "/a//b"),
        // One backslash is a path on this host (`\files` is `/files`), not another host.
        ("\\files\\x", "\\files\\x"),
        ("a\\b:c", "a\\b:c"),
        // Browsers drop tabs and newlines and trim the ends: so does the filter.
        (" https://a.example/b ", "https://a.example/b"),
        ("\thttps://a.example/\nb\r", "https://a.example/b"),
        ("\u{1}/files/x", "/files/x"),
        ("/files/x y.pdf", "/files/x y.pdf"),
        ("https://a.example/ünï", "https://a.example/ünï"),
    ] {
        assert_eq!(safe_href(raw).as_deref(), Some(cleaned), "{raw:?}");
    }
}

/// D32: a citation's link and image must be absolute web addresses.
#[test]
fn web_hrefs_are_absolute_http_or_https_with_a_host() {
    for (raw, cleaned) in [
        ("https://a.example/x", "https://a.example/x"),
        (" HTTP://a.example ", "HTTP://a.example"),
        ("https:///a.example", "https:///a.example"),
    ] {
        assert_eq!(safe_web_href(raw).as_deref(), Some(cleaned), "{raw:?}");
    }
    for raw in [
        "mailto:a@b.example",
        "/relative/path",
        "rel/path",
        "#anchor",
        "?q",
        "a.example",
        "https:",
        "https://",
        "https:a.example",
        "https:\\\\a.example",
    ] {
        // Each is a fine link inside text, but not a source.
        assert!(safe_href(raw).is_some(), "{raw:?}");
        assert_eq!(safe_web_href(raw), None, "{raw:?}");
    }
}
