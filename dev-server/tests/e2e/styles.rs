//! The element and the page are styled exactly as before their wasm stopped
//! carrying its own copy of the first stylesheet (the split builds take the instant shell's).
//! Each journey reads computed styles of a few parts of the chat, once the chat has taken
//! over from the shell (so no rule can come from the shell's sheet), in the dark and the light
//! theme, and compares them with what the chat drew with its compiled-in sheet.

use serde_json::{json, Value};

use super::harness::*;

/// The computed styles of [`PARTS`] in the chat of `<agent-chat id=arguments[0]>`, or of the
/// page when `arguments[0]` is null; `null` while the shell is still there or the chat has no
/// stylesheet of its own yet.
const STYLES_JS: &str = r#"
const [host, parts] = arguments;
const scope = host ? document.getElementById(host)?.shadowRoot : document;
if (!scope || scope.querySelector("[data-agent-chat-shell]")) return null;
if (!host && document.getElementById("agent-chat-shell")) return null;
const sheet = scope.querySelector("style[data-agent-chat-ui]");
const root = scope.querySelector(".chat-root");
if (!sheet || !root || root.classList.contains("chat-root--waiting")) return null;
const seen = {};
for (const [css, property] of parts) {
  const el = css === ".chat-root" ? root : root.querySelector(css);
  seen[css + " " + property] = el ? getComputedStyle(el).getPropertyValue(property).trim() : null;
}
return seen;
"#;

/// The font the chat's root computes to.
const FONT: &str = r#"ui-sans-serif, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif"#;
/// `--chat-font-primary` as `style/tokens.css` writes it, its line break and indent kept.
const FONT_TOKEN: &str = r#"ui-sans-serif, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
    "Noto Sans", sans-serif"#;

/// A part, a property, its value in the dark theme and in the light one: what the chat drew
/// with its compiled-in stylesheet (read from the element built before the change). The
/// token values keep their spaces (`--chat-font-primary`, `--chat-danger-bg`): the sheet is
/// the same text, not only the same rules.
const PARTS: &[(&str, &str, &str, &str)] = &[
    (
        ".chat-root",
        "background-color",
        "rgb(33, 33, 33)",
        "rgb(255, 255, 255)",
    ),
    (
        ".chat-root",
        "color",
        "rgb(236, 236, 236)",
        "rgb(23, 23, 23)",
    ),
    (".chat-root", "font-family", FONT, FONT),
    (".chat-root", "font-size", "15px", "15px"),
    (".chat-root", "line-height", "24px", "24px"),
    (".chat-root", "--chat-font-primary", FONT_TOKEN, FONT_TOKEN),
    (
        ".chat-root",
        "--chat-danger-bg",
        "rgba(248, 113, 113, 0.12)",
        "rgba(185, 28, 28, 0.08)",
    ),
    (".chat-root", "--chat-focus-ring", "#34d399", "#0f766e"),
    (
        ".chat-header",
        "border-bottom-color",
        "rgb(47, 47, 47)",
        "rgb(236, 236, 236)",
    ),
    (".chat-header", "min-height", "56px", "56px"),
    (".chat-header__title", "font-size", "16px", "16px"),
    (".chat-header__title", "font-weight", "600", "600"),
    (
        ".chat-input__box",
        "background-color",
        "rgb(47, 47, 47)",
        "rgb(236, 236, 236)",
    ),
    (
        ".chat-input__box",
        "border-top-color",
        "rgb(63, 63, 63)",
        "rgb(227, 227, 227)",
    ),
    (".chat-input__box", "border-top-left-radius", "16px", "16px"),
    (".chat-input__box", "padding-left", "8px", "8px"),
    (
        ".chat-input__textarea",
        "color",
        "rgb(236, 236, 236)",
        "rgb(23, 23, 23)",
    ),
    (".chat-input__textarea", "line-height", "22.5px", "22.5px"),
    (
        ".chat-input__send",
        "background-color",
        "rgb(63, 63, 63)",
        "rgb(227, 227, 227)",
    ),
    (
        ".chat-input__send",
        "color",
        "rgb(154, 154, 154)",
        "rgb(102, 102, 102)",
    ),
    (
        ".chat-input__send",
        "border-top-left-radius",
        "10px",
        "10px",
    ),
    (".chat-input__send", "width", "36px", "36px"),
    (
        ".chat-input__helper",
        "color",
        "rgb(154, 154, 154)",
        "rgb(102, 102, 102)",
    ),
    (".chat-input__helper", "font-size", "12px", "12px"),
];

/// `{"<part> <property>": value}` of [`PARTS`] in the light theme or the dark one.
fn expected(light: bool) -> Value {
    let mut map = serde_json::Map::new();
    for (css, property, dark_value, light_value) in PARTS {
        let value = if light { light_value } else { dark_value };
        map.insert(format!("{css} {property}"), json!(value));
    }
    Value::Object(map)
}

/// Waits until the chat (of `host`, or the page's) shows [`PARTS`] as the theme expects.
async fn expect_styles(page: &ChatPage, host: Option<&str>, light: bool) -> Step {
    let parts: Vec<Value> = PARTS.iter().map(|(css, p, _, _)| json!([css, p])).collect();
    let want = expected(light);
    let theme = if light { "light" } else { "dark" };
    page.wait_until(
        &format!(
            "{} styled as before in the {theme} theme",
            host.unwrap_or("the page")
        ),
        async || {
            let seen = page
                .client
                .execute(STYLES_JS, vec![json!(host), json!(parts)])
                .await
                .map_err(|e| e.to_string())?;
            if seen == want {
                Ok(())
            } else {
                Err(format!("seen {seen:#}"))
            }
        },
    )
    .await
}

/// The element example: `#first` is dark, `#second` light; then each switches theme.
pub async fn element_is_styled_as_before(page: &ChatPage) -> Step {
    page.open_path("examples/custom-element.html").await?;
    expect_styles(page, Some("first"), false).await?;
    expect_styles(page, Some("second"), true).await?;
    page.client
        .execute(
            r#"document.getElementById("first").setAttribute("theme", "light");
               document.getElementById("second").setAttribute("theme", "dark");
               return true;"#,
            vec![],
        )
        .await
        .map_err(|e| format!("switching the themes: {e}"))?;
    expect_styles(page, Some("first"), true).await?;
    expect_styles(page, Some("second"), false).await
}

/// The standalone page in the dark theme, then the light one.
pub async fn page_is_styled_as_before(page: &ChatPage) -> Step {
    page.open_with_query("theme=dark").await?;
    expect_styles(page, None, false).await?;
    page.open_with_query("theme=light").await?;
    expect_styles(page, None, true).await
}
