//! Fluent message catalog: every user-visible string of the UI comes from here.
//!
//! Lives in the core because it is pure (the `.ftl` sources are compiled in) and so that native
//! tests can check that every locale formats every id.

use std::collections::HashMap;
use std::rc::Rc;

use fluent_bundle::{FluentArgs, FluentBundle, FluentResource, FluentValue};
use unic_langid::LanguageIdentifier;

/// The locales shipped with the crate, `en` (the reference) first.
pub const SHIPPED: [&str; 3] = ["en", "tr", "ar"];

/// The Fluent sources of the shipped locales, as compiled in: the files of the crate's
/// `locales/` folder without their comment lines. A constant costs nothing until it is used,
/// so a build that loads a locale later (the UI's split build, one chunk per locale) names
/// only the one its chunk needs.
pub mod ftl {
    /// English, the reference: every other locale has exactly its ids.
    pub const EN: &str = include_str!(concat!(env!("OUT_DIR"), "/en.ftl"));
    /// Turkish.
    pub const TR: &str = include_str!(concat!(env!("OUT_DIR"), "/tr.ftl"));
    /// Arabic (written right to left).
    pub const AR: &str = include_str!(concat!(env!("OUT_DIR"), "/ar.ftl"));
}

/// The reference locale's Fluent source, always compiled in.
const EN_SOURCE: &str = ftl::EN;

/// The locales shipped with the crate, with their Fluent sources. `en` is the reference.
///
/// Not in the UI's split builds (feature `split`): there the other locales are chunks
/// fetched when a chat uses them, each bringing its source from [`ftl`].
#[cfg(not(feature = "split"))]
pub const LOCALES: &[(&str, &str)] = &[("en", EN_SOURCE), ("tr", ftl::TR), ("ar", ftl::AR)];

/// The Fluent source of a shipped locale, if it is compiled in: always `en`, and the others
/// unless the build is split (feature `split`: there each other locale is a chunk that
/// brings its own texts and Fluent's runtime).
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
        None
    }
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

/// The locale a chat starts with: the controlled `locale` prop when given,
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

/// Formats the messages of a locale other than English with Fluent. Fluent's runtime is
/// reached only through this trait, so the element and the page load it with the chunk of
/// the locale that needs it.
pub trait Formatter {
    /// Whether the locale has a message with this id.
    fn has(&self, id: &str) -> bool;
    /// Formats `id` with `args`; `None` when the locale lacks it.
    fn format(&self, id: &str, args: &[(&str, Arg)]) -> Option<String>;
}

/// One locale's Fluent bundle.
struct Fluent(FluentBundle<FluentResource>);

impl Formatter for Fluent {
    fn has(&self, id: &str) -> bool {
        self.0.has_message(id)
    }

    fn format(&self, id: &str, args: &[(&str, Arg)]) -> Option<String> {
        let pattern = self.0.get_message(id)?.value()?;
        let mut fargs = FluentArgs::new();
        for (name, value) in args {
            match value {
                Arg::Str(s) => fargs.set(*name, FluentValue::from(s.clone())),
                Arg::Num(n) => fargs.set(*name, FluentValue::from(*n)),
            }
        }
        let mut errors = Vec::new();
        Some(
            self.0
                .format_pattern(pattern, Some(&fargs), &mut errors)
                .into_owned(),
        )
    }
}

/// Fluent for the shipped locale `tag` with its `source`.
pub fn fluent(tag: &'static str, source: &'static str) -> Rc<dyn Formatter> {
    Rc::new(Fluent(bundle_for(tag, source)))
}

/// Formats messages for one locale, with English for ids the locale lacks and per-id
/// overrides (the `customMessages` prop). English comes from a table the build makes of
/// `en.ftl`; other locales are formatted by Fluent.
pub struct Catalog {
    locale: &'static str,
    fluent: Option<Rc<dyn Formatter>>,
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
    // tests/core/locales.rs makes sure there are no such errors.
    let resource = FluentResource::try_new(source.to_owned()).unwrap_or_else(|(res, _)| res);
    // Duplicate ids are the only error here; the first definition wins, which is fine.
    let _ = bundle.add_resource(resource);
    bundle
}

impl Catalog {
    /// Builds the catalog for `requested` (matched with [`match_locale`]), falling back to `en`
    /// (also for a locale whose source is not compiled in, see [`source`]). A locale other
    /// than English has its Fluent source parsed here; the element and the page build theirs
    /// from a locale's chunk instead ([`Catalog::with_fluent`]).
    pub fn new(requested: &str) -> Self {
        match match_locale(requested)
            .filter(|tag| *tag != DEFAULT_LOCALE)
            .and_then(|tag| Some((tag, source(tag)?)))
        {
            Some((tag, source)) => Catalog::with_fluent(tag, fluent(tag, source)),
            None => Catalog::english(),
        }
    }

    /// English, from the build's table of `en.ftl`: no Fluent runtime involved.
    pub fn english() -> Self {
        Catalog {
            locale: DEFAULT_LOCALE,
            fluent: None,
            overrides: HashMap::new(),
        }
    }

    /// The catalog of the shipped locale `locale`, formatted by `fluent` (English where it
    /// lacks an id).
    pub fn with_fluent(locale: &'static str, fluent: Rc<dyn Formatter>) -> Self {
        Catalog {
            locale,
            fluent: Some(fluent),
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

    /// Whether the catalog (or English) has a message with this id.
    pub fn has(&self, id: &str) -> bool {
        self.overrides.contains_key(id)
            || self.fluent.as_ref().is_some_and(|f| f.has(id))
            || english(id).is_some()
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
        if let Some(text) = self.fluent.as_ref().and_then(|f| f.format(id, args)) {
            return text;
        }
        match english(id) {
            Some(text) => text.format(args),
            None => id.to_owned(),
        }
    }
}

/// One piece of an English text.
enum Piece {
    /// Text as written.
    Text(&'static str),
    /// The value of the argument of this name.
    Arg(&'static str),
}

/// One English message, as the build script reads it from `en.ftl`.
enum English {
    /// The same text whatever the numbers.
    Plain(&'static [Piece]),
    /// `{ $selector -> [one] … *[other] … }`.
    Plural {
        selector: &'static str,
        one: &'static [Piece],
        other: &'static [Piece],
    },
}

/// Every English message, sorted by id (generated by `build.rs` from `en.ftl`).
static ENGLISH: &[(&str, English)] = include!(concat!(env!("OUT_DIR"), "/en_table.rs"));

/// The English message `id`.
fn english(id: &str) -> Option<&'static English> {
    ENGLISH
        .binary_search_by(|(key, _)| (*key).cmp(id))
        .ok()
        .map(|i| &ENGLISH[i].1)
}

impl English {
    /// Formats the message as Fluent would for `en`: the `one` variant for the number 1 (and
    /// for the text "one", which names the variant), a missing argument written `{$name}`.
    fn format(&self, args: &[(&str, Arg)]) -> String {
        let value = |name: &str| args.iter().find(|(n, _)| *n == name).map(|(_, v)| v);
        let pieces = match self {
            English::Plain(pieces) => pieces,
            English::Plural {
                selector,
                one,
                other,
            } => match value(selector) {
                Some(Arg::Num(n)) if *n == 1.0 => one,
                Some(Arg::Str(s)) if s == "one" => one,
                _ => other,
            },
        };
        let mut out = String::new();
        for piece in pieces.iter() {
            match piece {
                Piece::Text(text) => out.push_str(text),
                Piece::Arg(name) => match value(name) {
                    Some(Arg::Str(s)) => out.push_str(s),
                    Some(Arg::Num(n)) => out.push_str(&number(*n)),
                    None => {
                        out.push_str("{$");
                        out.push_str(name);
                        out.push('}');
                    }
                },
            }
        }
        out
    }
}

/// A number as Fluent writes it by default (`f64`'s `Display`); whole numbers without the
/// float formatting code.
fn number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 && !(n == 0.0 && n.is_sign_negative()) {
        (n as i64).to_string()
    } else {
        n.to_string()
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
            Arg::Num(n) => number(*n),
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

#[cfg(test)]
mod english_table_tests {
    use super::*;

    /// The argument names one English message uses.
    fn names(text: &English) -> Vec<&'static str> {
        let pieces: Vec<&Piece> = match text {
            English::Plain(p) => p.iter().collect(),
            English::Plural { one, other, .. } => one.iter().chain(other.iter()).collect(),
        };
        let mut names: Vec<&str> = pieces
            .into_iter()
            .filter_map(|p| match p {
                Piece::Arg(name) => Some(*name),
                Piece::Text(_) => None,
            })
            .collect();
        if let English::Plural { selector, .. } = text {
            names.push(selector);
        }
        names.sort();
        names.dedup();
        names
    }

    #[test]
    fn i16_the_english_table_holds_every_message_of_en_ftl_once_in_order() {
        let resource = FluentResource::try_new(EN_SOURCE.to_owned()).expect("en.ftl parses");
        let mut ids: Vec<&str> = resource
            .entries()
            .filter_map(|e| match e {
                fluent_syntax::ast::Entry::Message(m) => Some(m.id.name),
                _ => None,
            })
            .collect();
        ids.sort();
        let table: Vec<&str> = ENGLISH.iter().map(|(id, _)| *id).collect();
        assert_eq!(table, ids);
        assert!(ids.len() > 200, "the whole file was read: {}", ids.len());
    }

    #[test]
    fn i16_english_from_the_table_is_what_fluent_writes_for_every_message_and_argument() {
        let fluent = Fluent(bundle_for(DEFAULT_LOCALE, EN_SOURCE));
        let values = [
            Arg::Str("Bob <b>".into()),
            Arg::Num(1.0),
            Arg::Num(2.0),
            Arg::Num(0.0),
            Arg::Num(1.5),
            Arg::Num(-3.0),
            Arg::Num(12_345_678.0),
            Arg::Str("one".into()),
            Arg::Str("1".into()),
        ];
        let mut compared = 0;
        for (id, text) in ENGLISH {
            let names = names(text);
            let mut sets: Vec<Vec<(&str, Arg)>> = vec![Vec::new()];
            for value in &values {
                sets.push(names.iter().map(|n| (*n, value.clone())).collect());
            }
            // One argument missing at a time.
            for skip in &names {
                sets.push(
                    names
                        .iter()
                        .filter(|n| *n != skip)
                        .map(|n| (*n, Arg::Num(2.0)))
                        .collect(),
                );
            }
            for args in sets {
                let expected = fluent.format(id, &args).expect("Fluent has every id");
                assert_eq!(text.format(&args), expected, "{id} with {args:?}");
                compared += 1;
            }
        }
        assert!(compared > 2_000, "{compared}");
    }

    #[test]
    fn i16_a_catalog_falls_back_to_english_and_then_to_the_id() {
        let english = Catalog::english();
        assert_eq!(english.locale(), "en");
        assert_eq!(english.tr("chat-input-placeholder"), "Type your message...");
        assert_eq!(english.tr("no-such-id"), "no-such-id");
        assert!(english.has("chat-input-placeholder") && !english.has("no-such-id"));
        // A formatter without the id: English answers.
        struct Silent;
        impl Formatter for Silent {
            fn has(&self, _: &str) -> bool {
                false
            }
            fn format(&self, _: &str, _: &[(&str, Arg)]) -> Option<String> {
                None
            }
        }
        let tr = Catalog::with_fluent("tr", Rc::new(Silent));
        assert_eq!(tr.locale(), "tr");
        assert_eq!(
            tr.tr_args("chat-action-expires-minutes", &[("n", Arg::Num(1.0))]),
            "Expires in 1 minute"
        );
    }
}
