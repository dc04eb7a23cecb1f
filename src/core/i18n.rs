//! Fluent message catalog: every user-visible string of the UI comes from here.
//!
//! Lives in the core because it is pure (the `.ftl` sources are compiled in) and so that native
//! tests can check that every locale formats every id.

use std::collections::HashMap;

use fluent_bundle::{FluentArgs, FluentBundle, FluentResource, FluentValue};
use unic_langid::LanguageIdentifier;

/// The locales shipped with the crate, `en` (the reference) first.
pub const SHIPPED: [&str; 3] = ["en", "tr", "ar"];

/// The reference locale's Fluent source, always compiled in.
const EN_SOURCE: &str = include_str!(concat!(env!("OUT_DIR"), "/en.ftl"));

/// The locales shipped with the crate, with their Fluent sources. `en` is the reference.
///
/// Not in the element's and the page's split builds (feature `split`): there the other
/// locales are chunks fetched when a chat uses them ([`add_source`]; issue 16, D71).
#[cfg(not(feature = "split"))]
pub const LOCALES: &[(&str, &str)] = &[
    ("en", EN_SOURCE),
    ("tr", include_str!(concat!(env!("OUT_DIR"), "/tr.ftl"))),
    ("ar", include_str!(concat!(env!("OUT_DIR"), "/ar.ftl"))),
];

#[cfg(feature = "split")]
thread_local! {
    /// The sources of the locales fetched so far (split builds).
    static FETCHED: std::cell::RefCell<Vec<(&'static str, &'static str)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// The Fluent source of a shipped locale, if it is here: always for `en`, and for the others
/// unless the build fetches them ([`add_source`]).
pub fn source(tag: &str) -> Option<&'static str> {
    if tag == DEFAULT_LOCALE {
        return Some(EN_SOURCE);
    }
    #[cfg(not(feature = "split"))]
    {
        LOCALES.iter().find(|(t, _)| *t == tag).map(|(_, s)| *s)
    }
    #[cfg(feature = "split")]
    {
        FETCHED.with(|f| f.borrow().iter().find(|(t, _)| *t == tag).map(|(_, s)| *s))
    }
}

/// Hands over the source of a locale fetched on first use (split builds; elsewhere every
/// source is compiled in and this changes nothing).
pub fn add_source(tag: &'static str, source: &'static str) {
    #[cfg(feature = "split")]
    FETCHED.with(|f| {
        let mut fetched = f.borrow_mut();
        if !fetched.iter().any(|(t, _)| *t == tag) {
            fetched.push((tag, source));
        }
    });
    #[cfg(not(feature = "split"))]
    let _ = (tag, source);
}

/// Whether a shipped locale is written right to left (the chat then sets `dir="rtl"`).
pub fn is_rtl(locale: &str) -> bool {
    matches!(locale, "ar")
}

/// The locale used when a requested one is not shipped.
pub const DEFAULT_LOCALE: &str = "en";

/// Picks the shipped locale for a requested tag: exact match, then its language part
/// (`tr-TR` -> `tr`), else `None`.
pub fn match_locale(requested: &str) -> Option<&'static str> {
    let requested = requested.trim().to_ascii_lowercase().replace('_', "-");
    let lang = requested.split('-').next().unwrap_or_default();
    SHIPPED
        .into_iter()
        .find(|tag| *tag == requested)
        .or_else(|| SHIPPED.into_iter().find(|tag| *tag == lang))
}

/// The locale a chat starts with (F39, F40, F128): the controlled `locale` prop when given,
/// else the page's `?lang=` (detected only when uncontrolled), else `default_locale`, else
/// [`DEFAULT_LOCALE`]. Each candidate counts only if it names a shipped locale.
pub fn pick_locale(
    controlled: Option<&str>,
    query_lang: Option<&str>,
    default_locale: Option<&str>,
) -> &'static str {
    let shipped = |tag: Option<&str>| tag.and_then(match_locale);
    match controlled {
        Some(tag) => shipped(Some(tag)),
        None => shipped(query_lang),
    }
    .or_else(|| shipped(default_locale))
    .unwrap_or(DEFAULT_LOCALE)
}

/// One argument value for a message: text or a number (numbers select plural forms).
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// Text inserted as is.
    Str(String),
    /// A number; selects plural variants.
    Num(f64),
}

impl From<&str> for Arg {
    fn from(v: &str) -> Self {
        Arg::Str(v.to_owned())
    }
}
impl From<String> for Arg {
    fn from(v: String) -> Self {
        Arg::Str(v)
    }
}
impl From<u64> for Arg {
    fn from(v: u64) -> Self {
        Arg::Num(v as f64)
    }
}
impl From<usize> for Arg {
    fn from(v: usize) -> Self {
        Arg::Num(v as f64)
    }
}
impl From<i64> for Arg {
    fn from(v: i64) -> Self {
        Arg::Num(v as f64)
    }
}

/// Formats messages for one locale, with an `en` fallback for ids the locale lacks and
/// per-id overrides (the `customMessages` prop).
pub struct Catalog {
    locale: &'static str,
    primary: FluentBundle<FluentResource>,
    fallback: Option<FluentBundle<FluentResource>>,
    overrides: HashMap<String, String>,
}

impl std::fmt::Debug for Catalog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Catalog")
            .field("locale", &self.locale)
            .finish()
    }
}

fn bundle_for(tag: &'static str, source: &'static str) -> FluentBundle<FluentResource> {
    let langid: LanguageIdentifier = tag.parse().unwrap_or_default();
    let mut bundle = FluentBundle::new(vec![langid]);
    // Isolation marks (U+2068/U+2069) would end up in aria labels and test assertions.
    bundle.set_use_isolating(false);
    // A shipped file that fails to parse still yields every message that did parse;
    // tests/locales.rs makes sure there are no such errors.
    let resource = FluentResource::try_new(source.to_owned()).unwrap_or_else(|(res, _)| res);
    // Duplicate ids are the only error here; the first definition wins, which is fine.
    let _ = bundle.add_resource(resource);
    bundle
}

impl Catalog {
    /// Builds the catalog for `requested` (matched with [`match_locale`]), falling back to `en`
    /// (also for a locale whose source has not been fetched yet, see [`source`]).
    pub fn new(requested: &str) -> Self {
        let (locale, source) = match_locale(requested)
            .and_then(|tag| Some((tag, source(tag)?)))
            .unwrap_or((DEFAULT_LOCALE, EN_SOURCE));
        let fallback = (locale != DEFAULT_LOCALE).then(|| bundle_for(DEFAULT_LOCALE, EN_SOURCE));
        Catalog {
            locale,
            primary: bundle_for(locale, source),
            fallback,
            overrides: HashMap::new(),
        }
    }

    /// The shipped locale this catalog formats.
    pub fn locale(&self) -> &'static str {
        self.locale
    }

    /// Replaces the text of some ids (plain text; `{ $name }` placeholders are filled in).
    /// Keys may be Fluent ids (`chat-input-placeholder`) or the React library's dotted keys
    /// (`chat.input.placeholder`).
    pub fn set_overrides(&mut self, overrides: HashMap<String, String>) {
        self.overrides = overrides
            .into_iter()
            .map(|(k, v)| (react_key_to_id(&k), v))
            .collect();
    }

    /// Whether the catalog (or its fallback) has a message with this id.
    pub fn has(&self, id: &str) -> bool {
        self.overrides.contains_key(id)
            || self.primary.has_message(id)
            || self.fallback.as_ref().is_some_and(|b| b.has_message(id))
    }

    /// Formats `id` without arguments. Unknown ids come back as the id itself, so a missing
    /// string is visible instead of blank.
    pub fn tr(&self, id: &str) -> String {
        self.tr_args(id, &[])
    }

    /// Formats `id` with named arguments.
    pub fn tr_args(&self, id: &str, args: &[(&str, Arg)]) -> String {
        if let Some(text) = self.overrides.get(id) {
            return fill_placeholders(text, args);
        }
        let bundle = if self.primary.has_message(id) {
            &self.primary
        } else {
            match &self.fallback {
                Some(b) if b.has_message(id) => b,
                _ => return id.to_owned(),
            }
        };
        let Some(pattern) = bundle.get_message(id).and_then(|m| m.value()) else {
            return id.to_owned();
        };
        let mut fargs = FluentArgs::new();
        for (name, value) in args {
            match value {
                Arg::Str(s) => fargs.set(*name, FluentValue::from(s.clone())),
                Arg::Num(n) => fargs.set(*name, FluentValue::from(*n)),
            }
        }
        let mut errors = Vec::new();
        bundle
            .format_pattern(pattern, Some(&fargs), &mut errors)
            .into_owned()
    }
}

/// `chat.input.attachFiles` -> `chat-input-attach-files`; Fluent ids pass through unchanged.
pub fn react_key_to_id(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    for c in key.chars() {
        match c {
            '.' | '_' => out.push('-'),
            c if c.is_ascii_uppercase() => {
                out.push('-');
                out.push(c.to_ascii_lowercase());
            }
            c => out.push(c),
        }
    }
    out
}

fn fill_placeholders(text: &str, args: &[(&str, Arg)]) -> String {
    let mut out = text.to_owned();
    for (name, value) in args {
        let value = match value {
            Arg::Str(s) => s.clone(),
            Arg::Num(n) => format!("{n}"),
        };
        for pat in [
            format!("{{ ${name} }}"),
            format!("{{${name}}}"),
            format!("{{{name}}}"),
        ] {
            out = out.replace(&pat, &value);
        }
    }
    out
}
