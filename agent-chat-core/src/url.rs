//! The one filter for addresses that came from a server or an agent and end up in an `href`:
//! Markdown links and images, a sent file's Download link, a citation's link and image. One
//! rule in one place, so a trick refused in one view cannot slip through another.
//!
//! [`safe_href`] keeps `http:`, `https:`, `mailto:` and scheme-less references that stay on
//! the page's own host (`/path`, `rel/path`, `?query`, `#anchor`), and refuses everything else:
//!
//! - other schemes: `javascript:`, `vbscript:`, `data:`, `file:`, `blob:` … No view here loads
//!   an address into an `<img src>` (Markdown and citation images are offered as links, see
//!   [`crate::markdown`]), so no place needs `data:` either;
//! - protocol-relative forms, which look like a path but name another host: `//host`, and the
//!   backslash spellings browsers read the same way in `http(s)` pages (`/\host`, `\/host`,
//!   `\\host`);
//! - the whitespace tricks: browsers drop ASCII tabs and newlines anywhere and trim control
//!   characters and spaces at both ends before reading the scheme, so the same is done here
//!   first (`java\tscript:`, ` javascript:`, `\u{1}javascript:` are `javascript:`); any other
//!   control character left inside refuses the address;
//! - the empty address (it would link to the page itself).
//!
//! [`safe_web_href`] is the stricter rule for addresses that come as data, not inside text.

/// `Some(cleaned)` if `raw` may be put into an `href`: `http:`, `https:` or `mailto:`, or a
/// reference without a scheme that stays on this host (`/path`, `rel/path`, `./x:y`, `?q`,
/// `#frag`). Tabs and newlines are removed and surrounding control characters and spaces
/// trimmed first, as browsers do, and the cleaned address is returned. See the module docs for
/// what is refused and why.
#[must_use]
pub fn safe_href(raw: &str) -> Option<String> {
    let cleaned: String = raw
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let cleaned = cleaned.trim_matches(|c: char| c <= ' ');
    if cleaned.is_empty() || cleaned.chars().any(char::is_control) {
        return None;
    }
    // `//host`, `/\host`, `\/host`, `\\host`: another host without a scheme.
    let mut lead = cleaned.chars();
    if matches!(
        (lead.next(), lead.next()),
        (Some('/' | '\\'), Some('/' | '\\'))
    ) {
        return None;
    }
    // A scheme is whatever comes before a `:` that precedes any path, query or fragment.
    match cleaned.find([':', '/', '\\', '?', '#']) {
        Some(i) if cleaned.as_bytes()[i] == b':' => {
            let scheme = cleaned[..i].to_ascii_lowercase();
            matches!(scheme.as_str(), "http" | "https" | "mailto").then(|| cleaned.to_owned())
        }
        _ => Some(cleaned.to_owned()),
    }
}

/// `Some(cleaned)` if `raw` passes [`safe_href`] and is an absolute `http:` or `https:`
/// address with a host. For addresses that come as data rather than inside text (a citation's
/// `link` and `image`): a relative path there would resolve against the embedding page,
/// and a `mailto:` source is not a source.
#[must_use]
pub fn safe_web_href(raw: &str) -> Option<String> {
    let url = safe_href(raw)?;
    let (scheme, rest) = url.split_once(':')?;
    let web = scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https");
    (web && rest.starts_with("//") && rest.len() > 2).then_some(url)
}
