//! Small helpers the React library exports from its `utils`, for hosts that build their
//! own parts around the chat: class merging, file sizes, relative times and ids.

use crate::core::Millis;
use crate::store::i18n::I18n;

pub use crate::core::format_file_size;

/// `cn`: joins class lists into one `class` value. Empty entries and repeated classes are
/// dropped (the first occurrence keeps its place), whitespace inside an entry splits it.
///
/// ```
/// use agent_chat_ui::utils::cn;
/// assert_eq!(cn(["chat-icon", "", " big  chat-icon"]), "chat-icon big");
/// ```
pub fn cn<I, S>(classes: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let mut out: Vec<String> = Vec::new();
    for entry in classes {
        for class in entry.as_ref().split_whitespace() {
            if !out.iter().any(|c| c == class) {
                out.push(class.to_owned());
            }
        }
    }
    out.join(" ")
}

/// `formatRelativeTime`: "Just now", "5m ago", "3h ago", "2d ago", else the date
/// (YYYY-MM-DD), in the chat's language, measured from the browser's clock.
pub fn format_relative_time(i18n: &I18n, then: Millis) -> String {
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

/// `generateId`: a short id unlikely to repeat, for host-side keys (the time in base 36 plus
/// random base-36 digits). Not for anything secret.
pub fn generate_id() -> String {
    let now = js_sys::Date::now().max(0.0) as u64;
    let random = (js_sys::Math::random() * 36f64.powi(9)) as u64;
    format!("{}{}", base36(now), base36(random))
}

fn base36(mut n: u64) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    if n == 0 {
        return "0".to_owned();
    }
    let mut out = Vec::new();
    while n > 0 {
        out.push(DIGITS[(n % 36) as usize]);
        n /= 36;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}
