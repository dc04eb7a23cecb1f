//! Where the `--chat-*` tokens are declared: on `.chat-root` in a page, on the shadow host in a
//! shadow root (so a page's own `agent-chat { --chat-…: … }` rules win over the defaults).
//! Shared by the crate (`src/ui/style.rs`) and `cargo xtask` (the instant shell's copy of the
//! first stylesheet), so both move the same blocks the same way.

/// Each block of `style/tokens.css` (as written: its selector and the space before `{`) and
/// what it becomes in a shadow root. `style/chat.css` never names `:host`, so the way back
/// ([`onto_root`]) can read a whole first sheet.
pub(crate) const ON_HOST: [(&str, &str); 2] = [
    (
        ".chat-root.chat-theme-light {",
        ":host([theme=\"light\"]) {",
    ),
    (".chat-root {", ":host {"),
];

/// `tokens` (`style/tokens.css` as compiled) with its blocks moved onto the shadow host.
pub(crate) fn onto_host(tokens: &str) -> String {
    ON_HOST.iter().fold(tokens.to_owned(), |css, (root, host)| {
        css.replace(root, host)
    })
}

/// `sheet` (tokens declared on the shadow host) with its tokens back on `.chat-root`: the
/// inverse of [`onto_host`] for a sheet whose other rules never name `:host`.
pub(crate) fn onto_root(sheet: &str) -> String {
    ON_HOST.iter().fold(sheet.to_owned(), |css, (root, host)| {
        css.replace(host, root)
    })
}
