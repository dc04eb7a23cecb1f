//! WCAG 2.2 AA contrast of the default tokens in both themes (issue 6): every text colour the
//! stylesheet puts on a background, 4.5:1; focus rings and checkbox accents, 3:1 (non-text).
//! Reads `style/tokens.css` itself, so changing a token cannot silently break contrast.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::HashMap;

const TOKENS: &str = include_str!("../../style/tokens.css");

/// `--chat-*` colour tokens of the block that starts with `selector {`.
fn block(selector: &str) -> HashMap<String, String> {
    let start = TOKENS
        .find(&format!("{selector} {{"))
        .unwrap_or_else(|| panic!("{selector} in tokens.css"));
    let body = &TOKENS[start..];
    let body = &body[..body.find('}').expect("block end")];
    body.lines()
        .filter_map(|l| {
            let (k, v) = l.trim().split_once(':')?;
            Some((
                k.trim().to_owned(),
                v.trim().trim_end_matches(';').to_owned(),
            ))
        })
        .filter(|(k, _)| k.starts_with("--chat-"))
        .collect()
}

/// The dark tokens, and the light ones (dark values where light does not override).
fn themes() -> Vec<(&'static str, HashMap<String, String>)> {
    let dark = block(".chat-root");
    let mut light = dark.clone();
    light.extend(block(".chat-root.chat-theme-light"));
    vec![("dark", dark), ("light", light)]
}

fn rgb(hex: &str) -> [f64; 3] {
    let h = hex.trim_start_matches('#');
    assert_eq!(h.len(), 6, "6-digit hex colour expected, got {hex}");
    let c = |i: usize| u8::from_str_radix(&h[i..i + 2], 16).unwrap() as f64 / 255.0;
    [c(0), c(2), c(4)]
}

fn luminance(c: [f64; 3]) -> f64 {
    let f = |v: f64| {
        if v <= 0.03928 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2])
}

fn ratio(a: [f64; 3], b: [f64; 3]) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

fn color(t: &HashMap<String, String>, name: &str) -> [f64; 3] {
    if name == "white" {
        return [1.0; 3];
    }
    rgb(t.get(name).unwrap_or_else(|| panic!("token {name}")))
}

#[test]
fn the_contrast_formula_matches_known_values() {
    assert!((ratio([0.0; 3], [1.0; 3]) - 21.0).abs() < 1e-9);
    assert!((ratio(rgb("#767676"), [1.0; 3]) - 4.54).abs() < 0.01);
}

#[test]
fn text_meets_aa_and_focus_rings_meet_3_to_1_in_both_themes() {
    let text_on = [
        (
            "--chat-text-primary",
            &[
                "--chat-bg-primary",
                "--chat-bg-secondary",
                "--chat-bg-tertiary",
                "--chat-bg-hover",
            ][..],
        ),
        (
            "--chat-text-secondary",
            &[
                "--chat-bg-primary",
                "--chat-bg-secondary",
                "--chat-bg-tertiary",
                "--chat-bg-hover",
            ][..],
        ),
        (
            "--chat-text-tertiary",
            &[
                "--chat-bg-primary",
                "--chat-bg-secondary",
                "--chat-bg-tertiary",
            ][..],
        ),
        (
            "--chat-accent-text",
            &[
                "--chat-bg-primary",
                "--chat-bg-secondary",
                "--chat-bg-tertiary",
            ][..],
        ),
        (
            "--chat-danger",
            &[
                "--chat-bg-primary",
                "--chat-bg-secondary",
                "--chat-bg-tertiary",
            ][..],
        ),
        (
            "--chat-warning",
            &[
                "--chat-bg-primary",
                "--chat-bg-secondary",
                "--chat-bg-tertiary",
            ][..],
        ),
        (
            "white",
            &["--chat-accent-fill", "--chat-accent-secondary"][..],
        ),
    ];
    let mut failures = Vec::new();
    for (theme, t) in themes() {
        for (fg, backgrounds) in text_on {
            for bg in backgrounds {
                let r = ratio(color(&t, fg), color(&t, bg));
                if r < 4.5 {
                    failures.push(format!("{theme}: {fg} on {bg} is {r:.2}:1 (< 4.5)"));
                }
            }
        }
        for bg in ["--chat-bg-primary", "--chat-bg-secondary"] {
            let r = ratio(color(&t, "--chat-focus-ring"), color(&t, bg));
            if r < 3.0 {
                failures.push(format!("{theme}: focus ring on {bg} is {r:.2}:1 (< 3)"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// F167: every preset keeps the same contrast rules as the built-in themes. The tokens a preset
/// does not set (danger, warning, focus ring) come from the theme of its mode.
#[test]
fn f167_every_theme_preset_meets_aa() {
    use agent_chat_ui::core::theme::{ThemeMode, THEME_PRESETS};
    let base = themes();
    let mut failures = Vec::new();
    for p in THEME_PRESETS.iter() {
        let mut t = match p.mode {
            ThemeMode::Dark => base[0].1.clone(),
            ThemeMode::Light => base[1].1.clone(),
        };
        for (var, value) in p.theme().colors.vars() {
            t.insert(var.to_owned(), value.to_owned());
        }
        let bgs3 = [
            "--chat-bg-primary",
            "--chat-bg-secondary",
            "--chat-bg-tertiary",
        ];
        let bgs4 = [
            "--chat-bg-primary",
            "--chat-bg-secondary",
            "--chat-bg-tertiary",
            "--chat-bg-hover",
        ];
        let pairs: [(&str, &[&str]); 7] = [
            ("--chat-text-primary", &bgs4),
            ("--chat-text-secondary", &bgs4),
            ("--chat-text-tertiary", &bgs3),
            ("--chat-accent-text", &bgs3),
            ("--chat-danger", &bgs3),
            ("--chat-warning", &bgs3),
            ("white", &["--chat-accent-fill", "--chat-accent-secondary"]),
        ];
        for (fg, backgrounds) in pairs {
            for bg in backgrounds {
                let r = ratio(color(&t, fg), color(&t, bg));
                if r < 4.5 {
                    failures.push(format!("{}: {fg} on {bg} is {r:.2}:1 (< 4.5)", p.id));
                }
            }
        }
        for bg in ["--chat-bg-primary", "--chat-bg-secondary"] {
            let r = ratio(color(&t, "--chat-focus-ring"), color(&t, bg));
            if r < 3.0 {
                failures.push(format!("{}: focus ring on {bg} is {r:.2}:1 (< 3)", p.id));
            }
        }
    }
    assert_eq!(THEME_PRESETS.len(), 17);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// F165: the default themes as data are exactly tokens.css, so `default_dark_theme()` and the
/// stylesheet cannot drift apart.
#[test]
fn f165_default_themes_match_the_stylesheet() {
    use agent_chat_ui::core::theme::{default_dark_theme, default_light_theme};
    let base = themes();
    for ((name, t), theme) in base
        .iter()
        .zip([default_dark_theme(), default_light_theme()])
    {
        for (var, value) in theme.colors.vars() {
            assert_eq!(
                t.get(var).map(String::as_str),
                Some(value),
                "{name}: {var} differs from tokens.css"
            );
        }
        assert_eq!(theme.colors.vars().len(), 14, "{name}: every colour set");
    }
}
