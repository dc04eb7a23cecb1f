//! Themes as data (F165, F167, C36): presets, merging, CSS variables.
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::theme::{
    css_var_for_key, dark_presets, default_dark_theme, get_theme_preset, inline_style,
    light_presets, theme_colors_style, ChatTheme, ThemeColors, ThemeMode, THEME_PRESETS,
};

#[test]
fn f167_seventeen_presets_seven_dark_ten_light_with_the_react_ids() {
    let dark: Vec<_> = dark_presets().iter().map(|p| p.id).collect();
    let light: Vec<_> = light_presets().iter().map(|p| p.id).collect();
    assert_eq!(
        dark,
        [
            "midnight",
            "ocean",
            "purple-haze",
            "sunset",
            "emerald",
            "onyx",
            "nord"
        ]
    );
    assert_eq!(
        light,
        [
            "chatgpt-light",
            "snow",
            "arctic",
            "cloud",
            "pearl",
            "sky",
            "sandstone",
            "rose-garden",
            "mint",
            "lavender"
        ]
    );
    assert_eq!(get_theme_preset("nord").map(|p| p.name), Some("Nord"));
    assert!(get_theme_preset("no-such-theme").is_none());
    let nord = get_theme_preset("nord").unwrap();
    assert_eq!(nord.preview().bg, nord.colors[0]);
    assert_eq!(nord.theme().mode, Some(ThemeMode::Dark));
    for p in THEME_PRESETS.iter() {
        for c in p.colors {
            assert!(
                c.len() == 7 && c.starts_with('#') && c[1..].bytes().all(|b| b.is_ascii_hexdigit()),
                "{}: {c}",
                p.id
            );
        }
    }
}

#[test]
fn f127_merge_replaces_only_what_the_partial_sets() {
    let mut theme = default_dark_theme();
    let mut partial = ChatTheme::default();
    partial.colors.accent_primary = Some("#ff0000".into());
    partial.border_radius.message = Some("4px".into());
    theme.merge(&partial);
    assert_eq!(theme.colors.accent_primary.as_deref(), Some("#ff0000"));
    assert_eq!(theme.colors.bg_primary.as_deref(), Some("#212121"), "kept");
    assert_eq!(theme.mode, Some(ThemeMode::Dark), "mode kept when unset");
    partial.mode = Some(ThemeMode::Light);
    theme.merge(&partial);
    assert_eq!(theme.mode_or_default(), ThemeMode::Light);
    assert!(theme
        .css_vars()
        .contains(&("--chat-radius-message", "4px".to_owned())));
}

#[test]
fn c36_react_keys_and_variable_names_both_set_colours() {
    assert_eq!(
        css_var_for_key("bgPrimary").as_deref(),
        Some("--chat-bg-primary")
    );
    assert_eq!(
        css_var_for_key("--chat-accent-secondary").as_deref(),
        Some("--chat-accent-secondary")
    );
    assert_eq!(css_var_for_key("bg primary; x"), None);
    assert_eq!(css_var_for_key("--chat-Bad"), None);
    let mut c = ThemeColors::default();
    assert!(c.set("textPrimary", "#111111"));
    assert!(c.set("--chat-bg-hover", "#222222"));
    assert!(!c.set("fontSize", "12px"), "not a colour token");
    assert_eq!(
        c.vars(),
        [
            ("--chat-bg-hover", "#222222"),
            ("--chat-text-primary", "#111111")
        ]
    );
}

#[test]
fn hostile_values_never_leave_their_declaration() {
    let mut theme = ChatTheme::default();
    theme.colors.bg_primary = Some("red; } body { display: none".into());
    theme.colors.text_primary = Some("#fff".into());
    theme.fonts.primary = Some("x</style><script>".into());
    assert_eq!(theme.inline_style(), "--chat-text-primary: #fff");
}

/// F25, C36: `<Chat theme_colors>` and a `ChatTheme` are written by the same serialiser: React
/// keys and `--chat-*` names in the given order, hostile keys and values dropped.
#[test]
fn theme_colors_and_themes_share_one_serialiser() {
    let pairs = |v: &[(&str, &str)]| -> Vec<(String, String)> {
        v.iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    };
    assert_eq!(
        theme_colors_style(&pairs(&[
            ("accentPrimary", " #ff0000 "),
            ("--chat-bg-primary", "#000000"),
            ("--chat-custom-token", "4px"),
            ("bad;key", "#111111"),
            ("--chat-Bad", "#222222"),
            ("textPrimary", "red; } body { display: none"),
            ("textSecondary", "url(x)</style>"),
            ("bgHover", "   "),
        ])),
        "--chat-accent-primary: #ff0000; --chat-bg-primary: #000000; --chat-custom-token: 4px"
    );
    assert_eq!(theme_colors_style(&[]), "");
    assert_eq!(theme_colors_style(&pairs(&[("x y", "#fff")])), "");

    let mut theme = ChatTheme::default();
    theme.colors.accent_primary = Some("#ff0000".into());
    theme.colors.bg_primary = Some("#000000".into());
    assert_eq!(
        theme.inline_style(),
        theme_colors_style(&pairs(&[
            ("bgPrimary", "#000000"),
            ("accentPrimary", "#ff0000")
        ]))
    );
    assert_eq!(
        inline_style([("--chat-a", "1px"), ("--chat-b", "a\\62 c")]),
        "--chat-a: 1px"
    );
}

/// Issue 17: theme values from the host are checked against what tokens hold (colours,
/// lengths, font stacks), not against a list of dangerous characters.
#[test]
fn i17_theme_values_follow_a_grammar() {
    use agent_chat_ui::core::theme::is_safe_value;
    for ok in [
        "#0f766e",
        "transparent",
        "12px",
        "1.5rem",
        "rgb(0 0 0 / 50%)",
        "rgba(15, 118, 110, 0.4)",
        "oklch(70% 0.1 200)",
        "color-mix(in srgb, #fff 40%, transparent)",
        "var(--chat-accent-primary)",
        "calc(100% - 4px)",
        "calc(var(--chat-space-2) * 2)",
        "\"Segoe UI\", system-ui, sans-serif",
        "'JetBrains Mono', monospace",
    ] {
        assert!(is_safe_value(ok), "{ok} should be accepted");
    }
    for bad in [
        "",
        "url(https://evil.test/x.png)",
        "URL(x)",
        "image-set(\"x.png\" 1x)",
        "expression(alert(1))",
        "red /* comment */",
        "red; } body { display: none",
        "\"Segoe UI",
        "\"a\\\" b\"",
        "\"x</style>\"",
        "red\\9",
        "calc(1px",
        "1px)",
        "2 * 3",
        "@import",
        "red !important",
        &"a".repeat(201),
    ] {
        assert!(!is_safe_value(bad), "{bad} should be refused");
    }
}
