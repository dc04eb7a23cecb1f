//! Themes as data: [`ChatTheme`], the two default themes and 17 presets.
//!
//! A theme is a set of `--chat-*` token values. Every field is optional, so the same type is
//! both a complete theme and a partial one to merge over another ([`ChatTheme::merge`], what
//! React's `setTheme(partial)` does). [`ChatTheme::css_vars`] turns it into the declarations a
//! component puts on its root, and [`inline_style`] (the only serialiser) into CSS text.
//!
//! Presets set the React library's twelve colours plus two of ours (`accent_text`: text in the
//! accent colour, `accent_fill`: fills that carry white text), so every preset keeps WCAG AA
//! contrast (tests/core/contrast.rs checks each one). The React library publishes the preset ids and
//! names but its colour values are its own; these are this project's palettes.

/// Dark or light.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ThemeMode {
    /// Dark (the default).
    #[default]
    Dark,
    /// Light: the `chat-theme-light` class.
    Light,
}

impl ThemeMode {
    /// `"dark"` or `"light"`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            ThemeMode::Dark => "dark",
            ThemeMode::Light => "light",
        }
    }
}

/// The colour tokens. `None` = keep what the theme below says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ThemeColors {
    /// `--chat-bg-primary`: the conversation background.
    pub bg_primary: Option<String>,
    /// `--chat-bg-secondary`: sidebar, assistant bubbles.
    pub bg_secondary: Option<String>,
    /// `--chat-bg-tertiary`: inputs, chips.
    pub bg_tertiary: Option<String>,
    /// `--chat-bg-hover`: hovered rows and buttons.
    pub bg_hover: Option<String>,
    /// `--chat-text-primary`.
    pub text_primary: Option<String>,
    /// `--chat-text-secondary`.
    pub text_secondary: Option<String>,
    /// `--chat-text-tertiary`: hints, times.
    pub text_tertiary: Option<String>,
    /// `--chat-text-inverse`: text on light-on-dark inversions.
    pub text_inverse: Option<String>,
    /// `--chat-border-primary`.
    pub border_primary: Option<String>,
    /// `--chat-border-secondary`.
    pub border_secondary: Option<String>,
    /// `--chat-accent-primary`.
    pub accent_primary: Option<String>,
    /// `--chat-accent-secondary`: carries white text.
    pub accent_secondary: Option<String>,
    /// `--chat-accent-text` (ours): text drawn in the accent colour.
    pub accent_text: Option<String>,
    /// `--chat-accent-fill` (ours): filled buttons with white text.
    pub accent_fill: Option<String>,
}

/// `(CSS variable, field)` for every colour, in token order.
macro_rules! color_fields {
    ($m:ident) => {
        $m!(
            ("--chat-bg-primary", bg_primary),
            ("--chat-bg-secondary", bg_secondary),
            ("--chat-bg-tertiary", bg_tertiary),
            ("--chat-bg-hover", bg_hover),
            ("--chat-text-primary", text_primary),
            ("--chat-text-secondary", text_secondary),
            ("--chat-text-tertiary", text_tertiary),
            ("--chat-text-inverse", text_inverse),
            ("--chat-border-primary", border_primary),
            ("--chat-border-secondary", border_secondary),
            ("--chat-accent-primary", accent_primary),
            ("--chat-accent-secondary", accent_secondary),
            ("--chat-accent-text", accent_text),
            ("--chat-accent-fill", accent_fill)
        )
    };
}

impl ThemeColors {
    /// The set colours as `(css variable, value)` pairs, in token order.
    #[must_use]
    pub fn vars(&self) -> Vec<(&'static str, &str)> {
        macro_rules! collect {
            ($(($var:literal, $f:ident)),*) => {{
                let mut out = Vec::new();
                $(if let Some(v) = &self.$f { out.push(($var, v.as_str())); })*
                out
            }};
        }
        color_fields!(collect)
    }

    /// Every colour `other` sets replaces this one's (key-wise merge).
    pub fn merge(&mut self, other: &ThemeColors) {
        macro_rules! merge {
            ($(($var:literal, $f:ident)),*) => {
                $(if let Some(v) = &other.$f { self.$f = Some(v.clone()); })*
            };
        }
        color_fields!(merge);
    }

    /// Sets a colour by its React key (`bgPrimary`) or variable (`--chat-bg-primary`); returns
    /// `false` (and changes nothing) for any other key.
    pub fn set(&mut self, key: &str, value: impl Into<String>) -> bool {
        let var = crate::theme::css_var_for_key(key);
        macro_rules! set {
            ($(($v:literal, $f:ident)),*) => {
                match var.as_deref() {
                    $(Some($v) => { self.$f = Some(value.into()); true })*
                    _ => false,
                }
            };
        }
        color_fields!(set)
    }
}

/// `--chat-*` variable for a React colour key (`bgPrimary` → `--chat-bg-primary`) or a variable
/// name; `None` for keys that are not plain identifiers.
#[must_use]
pub fn css_var_for_key(key: &str) -> Option<String> {
    let key = key.trim();
    if let Some(rest) = key.strip_prefix("--chat-") {
        let ok = !rest.is_empty()
            && rest
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        return ok.then(|| key.to_owned());
    }
    if key.is_empty() || !key.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    let mut var = String::from("--chat-");
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            var.push('-');
            var.push(c.to_ascii_lowercase());
        } else {
            var.push(c);
        }
    }
    Some(var)
}

/// Corner radii (the theme's `borderRadius`), any CSS length.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ThemeRadii {
    /// Message bubbles: `--chat-radius-message`.
    pub message: Option<String>,
    /// The composer: `--chat-radius-input`.
    pub input: Option<String>,
    /// Buttons: `--chat-radius-button`.
    pub button: Option<String>,
}

/// Paddings (the theme's `spacing`), any CSS length.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ThemeSpacing {
    /// Inside message bubbles: `--chat-message-padding`.
    pub message_padding: Option<String>,
    /// Inside the composer: `--chat-input-padding`.
    pub input_padding: Option<String>,
}

/// Font stacks (the theme's `fonts`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ThemeFonts {
    /// Body text: `--chat-font-primary`.
    pub primary: Option<String>,
    /// Code: `--chat-font-mono`.
    pub mono: Option<String>,
}

/// A theme, complete or partial.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChatTheme {
    /// Dark or light; `None` keeps the mode below.
    pub mode: Option<ThemeMode>,
    /// Colours.
    pub colors: ThemeColors,
    /// Corner radii.
    pub border_radius: ThemeRadii,
    /// Paddings.
    pub spacing: ThemeSpacing,
    /// Fonts.
    pub fonts: ThemeFonts,
}

impl ChatTheme {
    /// Everything `other` sets replaces this theme's value; colours merge key-wise.
    pub fn merge(&mut self, other: &ChatTheme) {
        fn put(into: &mut Option<String>, from: &Option<String>) {
            if let Some(v) = from {
                *into = Some(v.clone());
            }
        }
        if other.mode.is_some() {
            self.mode = other.mode;
        }
        self.colors.merge(&other.colors);
        put(
            &mut self.border_radius.message,
            &other.border_radius.message,
        );
        put(&mut self.border_radius.input, &other.border_radius.input);
        put(&mut self.border_radius.button, &other.border_radius.button);
        put(
            &mut self.spacing.message_padding,
            &other.spacing.message_padding,
        );
        put(
            &mut self.spacing.input_padding,
            &other.spacing.input_padding,
        );
        put(&mut self.fonts.primary, &other.fonts.primary);
        put(&mut self.fonts.mono, &other.fonts.mono);
    }

    /// The theme's mode, dark when unset.
    #[must_use]
    pub fn mode_or_default(&self) -> ThemeMode {
        self.mode.unwrap_or_default()
    }

    /// The set values as `(css variable, value)` pairs. Values that could leave a declaration
    /// (`;`, `{`, `}`, `<`) are dropped.
    #[must_use]
    pub fn css_vars(&self) -> Vec<(&'static str, String)> {
        let mut out: Vec<(&'static str, String)> = self
            .colors
            .vars()
            .into_iter()
            .map(|(k, v)| (k, v.to_owned()))
            .collect();
        let others = [
            ("--chat-radius-message", &self.border_radius.message),
            ("--chat-radius-input", &self.border_radius.input),
            ("--chat-radius-button", &self.border_radius.button),
            ("--chat-message-padding", &self.spacing.message_padding),
            ("--chat-input-padding", &self.spacing.input_padding),
            ("--chat-font-primary", &self.fonts.primary),
            ("--chat-font-mono", &self.fonts.mono),
        ];
        for (k, v) in others {
            if let Some(v) = v {
                out.push((k, v.clone()));
            }
        }
        out.retain(|(_, v)| is_safe_value(v));
        out
    }

    /// [`ChatTheme::css_vars`] as one inline `style` value (`--a: x; --b: y`), written by
    /// [`inline_style`].
    #[must_use]
    pub fn inline_style(&self) -> String {
        inline_style(self.css_vars().iter().map(|(k, v)| (*k, v.as_str())))
    }
}

/// The one place a theme becomes CSS text: `(variable, value)` pairs as an inline `style`
/// value (`--a: x; --b: y`), values trimmed. A pair whose value could leave its declaration
/// ([`is_safe_value`]) is dropped. Used for a [`ChatTheme`] ([`ChatTheme::inline_style`], the
/// theme provider) and for `<Chat theme_colors>` ([`theme_colors_style`]).
#[must_use]
pub fn inline_style<'a>(vars: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    vars.into_iter()
        .filter(|(_, v)| is_safe_value(v))
        .map(|(k, v)| format!("{k}: {}", v.trim()))
        .collect::<Vec<_>>()
        .join("; ")
}

/// `themeColors` as an inline `style` value: React keys (`bgPrimary`) become
/// `--chat-bg-primary`, `--chat-*` names pass through (any token, not only the colours of
/// [`ThemeColors`]), in the given order. Keys that are neither ([`css_var_for_key`]) and
/// values that could leave their declaration are dropped; empty when nothing is left.
#[must_use]
pub fn theme_colors_style(colors: &[(String, String)]) -> String {
    let vars: Vec<(String, &str)> = colors
        .iter()
        .filter_map(|(key, value)| Some((css_var_for_key(key)?, value.as_str())))
        .collect();
    inline_style(vars.iter().map(|(k, v)| (k.as_str(), *v)))
}

/// CSS functions a theme value may use: colours, `var()` of another token and arithmetic.
pub const THEME_FUNCTIONS: &[&str] = &[
    "rgb",
    "rgba",
    "hsl",
    "hsla",
    "hwb",
    "lab",
    "lch",
    "oklab",
    "oklch",
    "color",
    "color-mix",
    "var",
    "calc",
    "min",
    "max",
    "clamp",
];

/// A theme value a host may set: checked against what tokens hold (colours, lengths, font
/// stacks) rather than by the characters that would break out, so `url(…)`, comments,
/// `expression(…)`, escapes and odd quotes are refused whatever the context.
///
/// Allowed: words and numbers with units (`#0f766e`, `12px`, `1.5rem`, `transparent`,
/// `system-ui`), the functions of [`THEME_FUNCTIONS`] (nested, with `,` `/` `+` `-` `*` `%`
/// between arguments), and quoted font names made of letters, digits, spaces, `-` and `_`
/// (`"Segoe UI", sans-serif`). At most 200 characters.
#[must_use]
pub fn is_safe_value(v: &str) -> bool {
    let v = v.trim();
    if v.is_empty() || v.len() > 200 || v.contains("/*") || v.contains("*/") {
        return false;
    }
    let bytes = v.as_bytes();
    let mut depth = 0usize;
    let mut i = 0usize;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'"' | b'\'' => {
                let Some(len) = v[i + 1..].find(b as char) else {
                    return false;
                };
                let name = &v[i + 1..i + 1 + len];
                if name.is_empty()
                    || !name
                        .bytes()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, b' ' | b'-' | b'_'))
                {
                    return false;
                }
                i += len + 2;
                continue;
            }
            b'(' => {
                // The word before it names the function.
                let start = v[..i]
                    .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                    .map_or(0, |p| p + 1);
                let name = v[start..i].to_ascii_lowercase();
                if !THEME_FUNCTIONS.contains(&name.as_str()) {
                    return false;
                }
                depth += 1;
            }
            b')' => {
                let Some(d) = depth.checked_sub(1) else {
                    return false;
                };
                depth = d;
            }
            b'*' if depth == 0 => return false,
            c if c.is_ascii_alphanumeric()
                || matches!(
                    c,
                    b' ' | b'#' | b'%' | b'.' | b',' | b'/' | b'+' | b'-' | b'_' | b'*'
                ) => {}
            _ => return false,
        }
        i += 1;
    }
    depth == 0
}

/// Swatches a theme picker shows for a preset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PresetPreview {
    /// Background.
    pub bg: &'static str,
    /// Accent.
    pub accent: &'static str,
    /// Text.
    pub text: &'static str,
}

/// A named theme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThemePreset {
    /// Stable id, e.g. `"nord"`.
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// One line about it.
    pub description: &'static str,
    /// Dark or light.
    pub mode: ThemeMode,
    /// The 14 colours in token order (see [`ThemeColors`]).
    pub colors: [&'static str; 14],
}

impl ThemePreset {
    /// Swatches for a picker.
    #[must_use]
    pub fn preview(&self) -> PresetPreview {
        PresetPreview {
            bg: self.colors[0],
            accent: self.colors[10],
            text: self.colors[4],
        }
    }

    /// The preset as a complete [`ChatTheme`].
    #[must_use]
    pub fn theme(&self) -> ChatTheme {
        let c = |i: usize| Some(self.colors[i].to_owned());
        ChatTheme {
            mode: Some(self.mode),
            colors: ThemeColors {
                bg_primary: c(0),
                bg_secondary: c(1),
                bg_tertiary: c(2),
                bg_hover: c(3),
                text_primary: c(4),
                text_secondary: c(5),
                text_tertiary: c(6),
                text_inverse: c(7),
                border_primary: c(8),
                border_secondary: c(9),
                accent_primary: c(10),
                accent_secondary: c(11),
                accent_text: c(12),
                accent_fill: c(13),
            },
            ..ChatTheme::default()
        }
    }
}

const fn preset(
    id: &'static str,
    name: &'static str,
    description: &'static str,
    mode: ThemeMode,
    colors: [&'static str; 14],
) -> ThemePreset {
    ThemePreset {
        id,
        name,
        description,
        mode,
        colors,
    }
}

use self::ThemeMode::{Dark, Light};

/// The dark defaults (tokens.css `.chat-root`).
pub const DEFAULT_DARK: ThemePreset = preset(
    "default-dark",
    "Default dark",
    "The built-in dark theme",
    Dark,
    [
        "#212121", "#171717", "#2f2f2f", "#3f3f3f", "#ececec", "#b4b4b4", "#9a9a9a", "#171717",
        "#3f3f3f", "#2f2f2f", "#10a37f", "#1a7f64", "#12b38b", "#0f7a5f",
    ],
);

/// The light defaults (tokens.css `.chat-root.chat-theme-light`).
pub const DEFAULT_LIGHT: ThemePreset = preset(
    "default-light",
    "Default light",
    "The built-in light theme",
    Light,
    [
        "#ffffff", "#f7f7f8", "#ececec", "#e3e3e3", "#171717", "#5c5c5c", "#666666", "#ffffff",
        "#e3e3e3", "#ececec", "#10a37f", "#1a7f64", "#0c7259", "#0f7a5f",
    ],
);

/// `defaultDarkTheme`.
#[must_use]
pub fn default_dark_theme() -> ChatTheme {
    DEFAULT_DARK.theme()
}

/// `defaultLightTheme`.
#[must_use]
pub fn default_light_theme() -> ChatTheme {
    DEFAULT_LIGHT.theme()
}

/// The 17 presets: 7 dark, then 10 light.
pub const THEME_PRESETS: [ThemePreset; 17] = [
    preset(
        "midnight",
        "Midnight",
        "Deep navy with indigo accents",
        Dark,
        [
            "#0f172a", "#0b1120", "#1e293b", "#334155", "#e2e8f0", "#b4bfcf", "#94a3b8", "#0b1120",
            "#334155", "#1e293b", "#6366f1", "#4f46e5", "#a5b4fc", "#4f46e5",
        ],
    ),
    preset(
        "ocean",
        "Ocean",
        "Dark blue-green, sky accents",
        Dark,
        [
            "#0b1e2d", "#07141f", "#12304a", "#1b4160", "#e6f1f8", "#b3cadb", "#93b3c9", "#07141f",
            "#1b4160", "#12304a", "#0ea5e9", "#0369a1", "#38bdf8", "#0369a1",
        ],
    ),
    preset(
        "purple-haze",
        "Purple Haze",
        "Dusky violet",
        Dark,
        [
            "#1e1530", "#160f24", "#2c2045", "#3b2b5c", "#ede9fe", "#c5bae0", "#a899c8", "#160f24",
            "#3b2b5c", "#2c2045", "#a855f7", "#7e22ce", "#c084fc", "#7e22ce",
        ],
    ),
    preset(
        "sunset",
        "Sunset",
        "Warm brown with orange accents",
        Dark,
        [
            "#2a1a17", "#1f1210", "#3a2420", "#4a2f29", "#f8e7e1", "#dcbfb5", "#c39a8d", "#1f1210",
            "#4a2f29", "#3a2420", "#f97316", "#c2410c", "#fb923c", "#c2410c",
        ],
    ),
    preset(
        "emerald",
        "Emerald",
        "Dark green",
        Dark,
        [
            "#0d1f1a", "#081511", "#16302a", "#1f4238", "#e3f5ee", "#acd3c5", "#8cbcaa", "#081511",
            "#1f4238", "#16302a", "#10b981", "#047857", "#34d399", "#047857",
        ],
    ),
    preset(
        "onyx",
        "Onyx",
        "Black and grey",
        Dark,
        [
            "#0a0a0a", "#000000", "#1a1a1a", "#262626", "#fafafa", "#b5b5b5", "#9a9a9a", "#000000",
            "#262626", "#1a1a1a", "#e5e5e5", "#404040", "#e5e5e5", "#404040",
        ],
    ),
    preset(
        "nord",
        "Nord",
        "Arctic, north-bluish greys",
        Dark,
        [
            "#292e39", "#232730", "#2e3440", "#3b4252", "#eceff4", "#d8dee9", "#b8c1cf", "#232730",
            "#3b4252", "#2e3440", "#88c0d0", "#4c6a91", "#88c0d0", "#4c6a91",
        ],
    ),
    preset(
        "chatgpt-light",
        "ChatGPT Light",
        "Clean white with green accents",
        Light,
        [
            "#ffffff", "#f7f7f8", "#ececec", "#e3e3e3", "#171717", "#5c5c5c", "#666666", "#ffffff",
            "#e3e3e3", "#ececec", "#10a37f", "#1a7f64", "#0c7259", "#0f7a5f",
        ],
    ),
    preset(
        "snow",
        "Snow",
        "Near-white with blue accents",
        Light,
        [
            "#fcfcfd", "#f4f5f7", "#e9ebef", "#dfe2e8", "#111827", "#4b5563", "#555f6d", "#ffffff",
            "#dfe2e8", "#e9ebef", "#2563eb", "#1d4ed8", "#1d4ed8", "#1d4ed8",
        ],
    ),
    preset(
        "arctic",
        "Arctic",
        "Icy blue",
        Light,
        [
            "#f5fbff", "#eaf4fb", "#d9ebf7", "#c9e1f2", "#0b2537", "#37566b", "#41606f", "#ffffff",
            "#c9e1f2", "#d9ebf7", "#0284c7", "#0369a1", "#035a8a", "#0369a1",
        ],
    ),
    preset(
        "cloud",
        "Cloud",
        "Soft grey",
        Light,
        [
            "#f8f9fb", "#eef1f5", "#e2e7ee", "#d6dde7", "#1f2933", "#4a5563", "#525d6b", "#ffffff",
            "#d6dde7", "#e2e7ee", "#64748b", "#475569", "#475569", "#475569",
        ],
    ),
    preset(
        "pearl",
        "Pearl",
        "Warm off-white",
        Light,
        [
            "#fbfaf8", "#f3f1ed", "#e8e4dd", "#ddd7ce", "#2b2622", "#5b524a", "#615850", "#ffffff",
            "#ddd7ce", "#e8e4dd", "#8b7355", "#6b5840", "#6b5840", "#6b5840",
        ],
    ),
    preset(
        "sky",
        "Sky",
        "Light blue",
        Light,
        [
            "#f0f9ff", "#e0f2fe", "#cdeafd", "#bae0fb", "#0c2a43", "#2f5370", "#3a5d78", "#ffffff",
            "#bae0fb", "#cdeafd", "#0ea5e9", "#0369a1", "#035a8a", "#0369a1",
        ],
    ),
    preset(
        "sandstone",
        "Sandstone",
        "Sand and amber",
        Light,
        [
            "#faf6ef", "#f2ebdf", "#e7dcc9", "#dccfb7", "#2d2418", "#564633", "#5f4e39", "#ffffff",
            "#dccfb7", "#e7dcc9", "#b45309", "#92400e", "#8a3c0d", "#92400e",
        ],
    ),
    preset(
        "rose-garden",
        "Rose Garden",
        "Blush pink with rose accents",
        Light,
        [
            "#fff7f8", "#fdecef", "#f9dce2", "#f4c9d2", "#3b0d17", "#6b2f3c", "#733845", "#ffffff",
            "#f4c9d2", "#f9dce2", "#e11d48", "#be123c", "#a40f34", "#be123c",
        ],
    ),
    preset(
        "mint",
        "Mint",
        "Fresh light green",
        Light,
        [
            "#f5fdf9", "#e8f8f0", "#d4f1e3", "#c1ead6", "#0b2a1d", "#2f5a47", "#365f4d", "#ffffff",
            "#c1ead6", "#d4f1e3", "#10b981", "#047857", "#036448", "#047857",
        ],
    ),
    preset(
        "lavender",
        "Lavender",
        "Soft violet",
        Light,
        [
            "#faf8ff", "#f1ecfd", "#e5dcfa", "#d9ccf6", "#221a3b", "#4d4170", "#564a78", "#ffffff",
            "#d9ccf6", "#e5dcfa", "#8b5cf6", "#6d28d9", "#6424cc", "#6d28d9",
        ],
    ),
];

/// The dark presets (`darkPresets`).
#[must_use]
pub fn dark_presets() -> Vec<&'static ThemePreset> {
    THEME_PRESETS.iter().filter(|p| p.mode == Dark).collect()
}

/// The light presets (`lightPresets`).
#[must_use]
pub fn light_presets() -> Vec<&'static ThemePreset> {
    THEME_PRESETS.iter().filter(|p| p.mode == Light).collect()
}

/// A preset by id (`getThemePreset`).
#[must_use]
pub fn get_theme_preset(id: &str) -> Option<&'static ThemePreset> {
    THEME_PRESETS.iter().find(|p| p.id == id)
}
