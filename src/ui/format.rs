//! Small pure formatters used by several components (tool names, relative times, sizes).

use crate::core::Millis;
use crate::ui::i18n::I18n;

/// F116: `send_email` → "Send Email", `getWeather` → "Get Weather".
pub fn title_case_tool(name: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if c == '_' || c == '-' || c.is_whitespace() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        current.push(c);
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
        .iter()
        .map(|w| {
            let mut chars = w.chars();
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect::<String>(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// F171: "Just now", "5m ago", "3h ago", "2d ago", else the date (YYYY-MM-DD).
pub fn relative_time(i18n: &I18n, then: Millis) -> String {
    let now = crate::io::clock::now();
    let mins = now.0.saturating_sub(then.0) / 60_000;
    match mins {
        0 => i18n.t("chat-time-just-now"),
        m if m < 60 => i18n.t_args("chat-time-minutes-ago", &[("count", m.into())]),
        m if m < 60 * 24 => i18n.t_args("chat-time-hours-ago", &[("count", (m / 60).into())]),
        m if m < 60 * 24 * 7 => i18n.t_args("chat-time-days-ago", &[("count", (m / 1440).into())]),
        _ => crate::core::format_iso(then).chars().take(10).collect(),
    }
}

/// F72: the browser's local time of `at` as `HH:MM` (24-hour, zero-padded).
pub fn local_hh_mm(at: Millis) -> String {
    let date = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(at.0 as f64));
    format!("{:02}:{:02}", date.get_hours(), date.get_minutes())
}
