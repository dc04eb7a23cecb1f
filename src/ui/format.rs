//! Small pure formatters used by several components (tool names, relative times, sizes).

use crate::core::Millis;
use crate::ui::i18n::I18n;

/// A tool's name for people, exactly as the React library's `formatToolName`: `_` becomes a space,
/// a space goes between a lower-case and an upper-case ASCII letter (`getWeather` → `get Weather`),
/// then every space-separated word gets an upper-case first character and lower-case rest. So
/// `send_email` → "Send Email", `getHTTPData` → "Get Httpdata", `parseURL` → "Parse Url"; hyphens
/// and digits do not split (`web-search` → "Web-search"), repeated separators keep their spaces. A
/// blank name is the caller's "Unknown Tool".
pub fn title_case_tool(name: &str) -> String {
    // `.replace(/_/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2")`: the regex matches pairs left
    // to right without overlap, so in `aBC` only `aB` splits, as here.
    let mut spaced = String::with_capacity(name.len() + 8);
    let mut prev_ascii_lower = false;
    for c in name.chars() {
        let c = if c == '_' { ' ' } else { c };
        if prev_ascii_lower && c.is_ascii_uppercase() {
            spaced.push(' ');
            prev_ascii_lower = false;
        } else {
            prev_ascii_lower = c.is_ascii_lowercase();
        }
        spaced.push(c);
    }
    // `.split(" ").map(w => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()).join(" ")`
    spaced
        .split(' ')
        .map(|word| {
            let mut chars = word.chars();
            match chars.next() {
                Some(first) => {
                    let mut word = upper(first.encode_utf8(&mut [0; 4]));
                    word.push_str(&lower(chars.as_str()));
                    word
                }
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `s` in lower case, by Unicode's rules. ASCII text is folded here; other text, in the
/// browser, by the engine's `toLowerCase`, so the element does not carry Rust's case tables
/// (~24 KB) and find's scan of every message stays in the wasm for most of them.
pub fn lower(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    unicode_case(s, false)
}

/// `s` in upper case, by Unicode's rules (as [`lower`]).
pub fn upper(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_uppercase();
    }
    unicode_case(s, true)
}

/// Non-ASCII case folding: the engine's in the browser, std's elsewhere.
fn unicode_case(s: &str, upper: bool) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        let js = js_sys::JsString::from(s);
        if upper {
            js.to_upper_case()
        } else {
            js.to_lower_case()
        }
        .into()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        if upper {
            s.to_uppercase()
        } else {
            s.to_lowercase()
        }
    }
}

/// How long ago, as the history list shows it: "Just now", "5m ago", "3h ago", "2d ago", else the
/// date (YYYY-MM-DD).
pub fn relative_time(i18n: &I18n, then: Millis) -> String {
    crate::utils::format_relative_time(i18n, then)
}

/// The browser's local time of `at` as `HH:MM` (24-hour, zero-padded).
pub fn local_hh_mm(at: Millis) -> String {
    let date = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(at.0 as f64));
    format!("{:02}:{:02}", date.get_hours(), date.get_minutes())
}

/// The browser's local date and time of `at` as `YYYY-MM-DD HH:MM:SS` (a transition's time:
/// a tool's run is often seconds long).
pub fn local_date_time(at: Millis) -> String {
    let d = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(at.0 as f64));
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}:{:02}",
        d.get_full_year(),
        d.get_month() + 1,
        d.get_date(),
        d.get_hours(),
        d.get_minutes(),
        d.get_seconds()
    )
}
