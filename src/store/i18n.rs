//! The locale of one chat: which language it speaks, fetching a language's texts when they
//! are not in the first download, and keeping `?lang=` in the address bar. The components
//! read it through [`crate::ui::i18n`].
//!
//! Catalogs are built once per locale per thread (they are not `Send`); `customMessages`
//! overrides are per chat.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use leptos::prelude::*;

use crate::core::{match_locale, Arg, Catalog, ChatError, DEFAULT_LOCALE};
use crate::io::locale_chunk;

thread_local! {
    static CATALOGS: RefCell<HashMap<&'static str, Rc<Catalog>>> = RefCell::new(HashMap::new());
}

fn catalog(locale: &'static str) -> Rc<Catalog> {
    // A locale is shown only once its texts are here ([`I18n::show`]); never cache English
    // under another name.
    let locale = if locale_chunk::is_here(locale) {
        locale
    } else {
        DEFAULT_LOCALE
    };
    CATALOGS.with(|c| {
        c.borrow_mut()
            .entry(locale)
            .or_insert_with(|| Rc::new(locale_chunk::catalog(locale)))
            .clone()
    })
}

/// The locale of one chat, shared by its components through context (`useI18nContext`,
/// F129): read it with [`I18n::locale`], change it with [`I18n::set_locale`].
#[derive(Clone, Copy)]
pub struct I18n {
    /// Shipped locale in use (`en`, `tr`, `ar`).
    locale: RwSignal<&'static str>,
    overrides: StoredValue<HashMap<String, String>>,
    /// A `locale` prop controls the chat (F39): `set_locale` is refused.
    controlled: RwSignal<bool>,
    /// `on_locale_change` (F41).
    on_change: StoredValue<Option<Callback<String>>>,
    /// The locale asked for last; `locale` follows once its texts are here (D71).
    wanted: StoredValue<&'static str>,
    /// The first locale's texts are on their way: the chat is not shown yet (no flash of
    /// English on a Turkish page).
    waiting: RwSignal<bool>,
    /// The texts of the locale asked for could not be fetched (the chat speaks the language
    /// it showed; the banner says a part is missing, D77).
    missing: RwSignal<bool>,
    /// Failed fetches in a row of the locale asked for: the next one waits longer.
    failures: StoredValue<u32>,
    /// The locale whose fetch (or the wait before fetching it again) is on its way: asking
    /// for it again meanwhile starts no second one, so retries never pile up.
    on_its_way: StoredValue<Option<&'static str>>,
}

impl I18n {
    /// Creates the locale state for a chat and provides it as context.
    pub fn provide(requested: Option<&str>, overrides: HashMap<String, String>) -> Self {
        let locale = requested.and_then(match_locale).unwrap_or(DEFAULT_LOCALE);
        let overrides = overrides
            .into_iter()
            .map(|(k, v)| (crate::core::react_key_to_id(&k), v))
            .collect();
        let here = locale_chunk::is_here(locale);
        let i18n = I18n {
            locale: RwSignal::new(if here { locale } else { DEFAULT_LOCALE }),
            overrides: StoredValue::new(overrides),
            controlled: RwSignal::new(false),
            on_change: StoredValue::new(None),
            wanted: StoredValue::new(locale),
            waiting: RwSignal::new(!here),
            missing: RwSignal::new(false),
            failures: StoredValue::new(0),
            on_its_way: StoredValue::new(None),
        };
        provide_context(i18n);
        if !here {
            i18n.show(locale);
        }
        i18n
    }

    /// Shows `next`'s texts: at once when they are here, else once its chunk arrives (split
    /// builds, D71), the current language staying until then. If the chunk cannot be fetched
    /// the chat stays in the language it shows, [`I18n::is_missing`] says so (the chat puts
    /// it in the banner and `on_error`), and it is fetched again after 1, 2, 4… 30 s while
    /// that language is still the one asked for (D77).
    fn show(self, next: &'static str) {
        if self.wanted.get_value() != next {
            self.failures.set_value(0);
        }
        self.wanted.set_value(next);
        if locale_chunk::is_here(next) {
            if self.locale.get_untracked() != next {
                self.locale.set(next);
            }
            self.waiting.set(false);
            self.missing.set(false);
            return;
        }
        if self.on_its_way.get_value() == Some(next) {
            // That fetch, or its retry, answers this too.
            return;
        }
        self.on_its_way.set_value(Some(next));
        leptos::task::spawn_local(async move {
            let fetched = locale_chunk::fetch(next).await;
            // Another language was asked for meanwhile, or the chat is gone.
            if self.wanted.try_get_value() != Some(next) {
                self.done_with(next);
                return;
            }
            if fetched.is_ok() {
                self.done_with(next);
                let _ = self.locale.try_set(next);
                let _ = self.missing.try_set(false);
                self.failures.try_set_value(0);
            } else {
                locale_missing(next);
                let _ = self.missing.try_set(true);
                self.retry_later(next);
            }
            let _ = self.waiting.try_set(false);
        });
    }

    /// Fetches `next`'s texts again after the wait its failures in a row call for, unless
    /// another language was asked for meanwhile or the chat is gone.
    fn retry_later(self, next: &'static str) {
        let Some(failures) = self.failures.try_update_value(|f| {
            *f = f.saturating_add(1);
            *f
        }) else {
            return;
        };
        crate::io::split::retry_later(failures, move || {
            self.done_with(next);
            if self.wanted.try_get_value() == Some(next) {
                self.show(next);
            }
        });
    }

    /// `next`'s fetch (or its wait) is over: a later ask may start another.
    fn done_with(self, next: &'static str) {
        let _ = self.on_its_way.try_update_value(|w| {
            if *w == Some(next) {
                *w = None;
            }
        });
    }

    /// Whether the texts of the language asked for could not be fetched (the last try
    /// failed; another is on its way later).
    pub(crate) fn is_missing(&self) -> bool {
        self.missing.get()
    }

    /// Whether the chat waits for its first locale's texts (it is hidden meanwhile).
    pub(crate) fn is_waiting(&self) -> bool {
        self.waiting.get()
    }

    /// The locale rules of `Chat` and [`ChatI18nProvider`](crate::ui::i18n::ChatI18nProvider) (F39–F41, F128): start from the
    /// `locale` prop, else `?lang=` (read only when uncontrolled), else `default_locale`, else
    /// `en`; a controlled chat follows its prop live and refuses `set_locale`.
    pub fn provide_with(
        locale: MaybeProp<String>,
        default_locale: MaybeProp<String>,
        custom_messages: HashMap<String, String>,
        on_locale_change: Option<Callback<String>>,
    ) -> Self {
        let controlled = locale.get_untracked();
        let query_lang = if controlled.is_none() {
            crate::io::location::query_param("lang")
        } else {
            None
        };
        let start = crate::core::pick_locale(
            controlled.as_deref(),
            query_lang.as_deref(),
            default_locale.get_untracked().as_deref(),
        );
        let i18n = I18n::provide(Some(start), custom_messages);
        i18n.set_control(controlled.is_some(), on_locale_change);
        Effect::new(move |_| match locale.get() {
            Some(tag) => {
                i18n.set_control(true, on_locale_change);
                let next = crate::core::pick_locale(
                    Some(&tag),
                    None,
                    default_locale.get_untracked().as_deref(),
                );
                if i18n.wanted.get_value() != next {
                    i18n.show(next);
                }
            }
            None => i18n.set_control(false, on_locale_change),
        });
        i18n
    }

    /// The enclosing chat's locale state; `en` outside a chat.
    pub fn get() -> Self {
        use_context::<I18n>().unwrap_or_else(|| I18n {
            locale: RwSignal::new(DEFAULT_LOCALE),
            overrides: StoredValue::new(HashMap::new()),
            controlled: RwSignal::new(true),
            on_change: StoredValue::new(None),
            wanted: StoredValue::new(DEFAULT_LOCALE),
            waiting: RwSignal::new(false),
            missing: RwSignal::new(false),
            failures: StoredValue::new(0),
            on_its_way: StoredValue::new(None),
        })
    }

    /// The shipped locale in use (`en`, `tr`, `ar`). It changes only through
    /// [`I18n::set_locale`] (or the `locale` prop), once the new language's texts are here.
    pub fn locale(&self) -> ReadSignal<&'static str> {
        self.locale.read_only()
    }

    /// Marks the locale as controlled by a prop (or not) and registers `on_locale_change`.
    /// `Chat` calls it; a custom layout that provides its own `I18n` may too.
    pub fn set_control(&self, controlled: bool, on_change: Option<Callback<String>>) {
        self.controlled.set(controlled);
        self.on_change.set_value(on_change);
    }

    /// Whether a `locale` prop controls this chat (then [`I18n::set_locale`] is refused).
    pub fn is_controlled(&self) -> bool {
        self.controlled.get_untracked()
    }

    /// `setLocale` (F128, F129): switches every string of the chat live, rewrites `?lang=` in
    /// the address bar (`history.replaceState`) so a reload keeps it, and calls
    /// `on_locale_change` with the shipped tag. Returns `false`, changing nothing, when a
    /// `locale` prop controls the chat or `requested` is not a shipped locale.
    pub fn set_locale(&self, requested: &str) -> bool {
        if self.controlled.get_untracked() {
            return false;
        }
        let Some(locale) = match_locale(requested) else {
            return false;
        };
        let changed = self.wanted.get_value() != locale;
        self.show(locale);
        crate::io::location::replace_query_param("lang", Some(locale));
        if changed {
            if let Some(cb) = self.on_change.get_value() {
                cb.run(locale.to_owned());
            }
        }
        true
    }

    /// Formats a message (tracks the locale signal when called inside a reactive closure).
    pub fn t(&self, id: &str) -> String {
        self.t_args(id, &[])
    }

    /// Formats a message with arguments.
    pub fn t_args(&self, id: &str, args: &[(&str, Arg)]) -> String {
        let locale = self.locale.get();
        if let Some(text) = self.overrides.with_value(|o| o.get(id).cloned()) {
            let mut c = locale_chunk::catalog(locale);
            c.set_overrides(HashMap::from([(id.to_owned(), text)]));
            return c.tr_args(id, args);
        }
        catalog(locale).tr_args(id, args)
    }

    /// The friendly text for an error (PROTOCOL §9.10).
    pub fn error(&self, err: &ChatError) -> String {
        let locale = self.locale.get();
        if let Some(code) = err.code() {
            let id = format!("chat-error-code-{}", code.replace('_', "-"));
            if let Some(text) = self.overrides.with_value(|o| o.get(&id).cloned()) {
                return text;
            }
        }
        err.describe(&catalog(locale))
    }

    /// The server's own words shown under [`I18n::error`]'s sentence, when that sentence took
    /// their place ([`ChatError::server_detail`]).
    pub fn error_detail(&self, err: &ChatError) -> Option<String> {
        let shown = self.error(err);
        err.server_detail(&catalog(self.locale.get()))
            .filter(|words| !shown.contains(words.as_str()))
    }
}

/// Says in the console that a locale's texts could not be fetched.
fn locale_missing(tag: &str) {
    #[cfg(target_arch = "wasm32")]
    web_sys::console::warn_1(&wasm_bindgen::JsValue::from_str(&format!(
        "agent-chat-ui: the texts of locale {tag} could not be loaded; the chat stays in its language"
    )));
    #[cfg(not(target_arch = "wasm32"))]
    let _ = tag;
}
