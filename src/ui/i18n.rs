//! Localized strings for the components: a per-chat locale signal plus cached Fluent catalogs.
//!
//! Catalogs are built once per locale per thread (they are not `Send`); `customMessages`
//! overrides are per chat.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use leptos::prelude::*;

use crate::core::{match_locale, Arg, Catalog, ChatError, DEFAULT_LOCALE};

thread_local! {
    static CATALOGS: RefCell<HashMap<&'static str, Rc<Catalog>>> = RefCell::new(HashMap::new());
}

fn catalog(locale: &'static str) -> Rc<Catalog> {
    CATALOGS.with(|c| {
        c.borrow_mut()
            .entry(locale)
            .or_insert_with(|| Rc::new(Catalog::new(locale)))
            .clone()
    })
}

/// The locale of one chat, shared by its components through context (`useI18nContext`,
/// F129): read `locale`, change it with [`I18n::set_locale`].
#[derive(Clone, Copy)]
pub struct I18n {
    /// Shipped locale in use (`en`, `tr`, `ar`).
    pub locale: RwSignal<&'static str>,
    overrides: StoredValue<HashMap<String, String>>,
    /// A `locale` prop controls the chat (F39): `set_locale` is refused.
    controlled: RwSignal<bool>,
    /// `on_locale_change` (F41).
    on_change: StoredValue<Option<Callback<String>>>,
}

impl I18n {
    /// Creates the locale state for a chat and provides it as context.
    pub fn provide(requested: Option<&str>, overrides: HashMap<String, String>) -> Self {
        let locale = requested.and_then(match_locale).unwrap_or(DEFAULT_LOCALE);
        let overrides = overrides
            .into_iter()
            .map(|(k, v)| (crate::core::react_key_to_id(&k), v))
            .collect();
        let i18n = I18n {
            locale: RwSignal::new(locale),
            overrides: StoredValue::new(overrides),
            controlled: RwSignal::new(false),
            on_change: StoredValue::new(None),
        };
        provide_context(i18n);
        i18n
    }

    /// The enclosing chat's locale state; `en` outside a chat.
    pub fn get() -> Self {
        use_context::<I18n>().unwrap_or_else(|| I18n {
            locale: RwSignal::new(DEFAULT_LOCALE),
            overrides: StoredValue::new(HashMap::new()),
            controlled: RwSignal::new(true),
            on_change: StoredValue::new(None),
        })
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
        let changed = self.locale.get_untracked() != locale;
        self.locale.set(locale);
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
            let mut c = Catalog::new(locale);
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
}

/// Shorthand for `I18n::get().t(id)`, reactive to the locale.
pub fn tr(id: &str) -> String {
    I18n::get().t(id)
}
