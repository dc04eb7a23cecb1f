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

use crate::core::chunk_fetch::{Begin, ChunkFetch};
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

/// The locale of one chat, shared by its components through context (like React's
/// `useI18nContext`): read it with [`I18n::locale`], change it with [`I18n::set_locale`].
#[derive(Clone, Copy)]
pub struct I18n {
    /// Shipped locale in use (`en`, `tr`, `ar`).
    locale: RwSignal<&'static str>,
    overrides: StoredValue<HashMap<String, String>>,
    /// A `locale` prop controls the chat: `set_locale` is refused.
    controlled: RwSignal<bool>,
    /// `on_locale_change`.
    on_change: StoredValue<Option<Callback<String>>>,
    /// The locale asked for last; `locale` follows once its texts are here.
    wanted: StoredValue<&'static str>,
    /// The first locale's texts are on their way: the chat is not shown yet (no flash of
    /// English on a Turkish page).
    waiting: RwSignal<bool>,
    /// The texts of the locale asked for could not be fetched (the chat speaks the language it
    /// showed; the banner says a part is missing, rather than switching to a language it cannot
    /// show).
    missing: RwSignal<bool>,
    /// Per locale fetched: whether its fetch, or the wait before fetching it again, is on its
    /// way (asking again meanwhile starts no second one, so retries never pile up) and how
    /// many failed in a row.
    fetches: StoredValue<Vec<(&'static str, ChunkFetch)>>,
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
            fetches: StoredValue::new(Vec::new()),
        };
        provide_context(i18n);
        if !here {
            i18n.show(locale);
        }
        i18n
    }

    /// Shows `next`'s texts: at once when they are here, else once its chunk arrives (split
    /// builds), the current language staying until then. If the chunk cannot be fetched
    /// the chat stays in the language it shows, [`I18n::is_missing`] says so (the chat puts
    /// it in the banner and `on_error`), and it is fetched again after 1, 2, 4… 30 s while
    /// that language is still the one asked for.
    fn show(self, next: &'static str) {
        if self.wanted.get_value() != next {
            // A new run of asks for this language: earlier failures do not lengthen its wait.
            self.with_fetch(next, ChunkFetch::forget_failures);
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
        let now = crate::io::clock::now();
        match self.with_fetch(next, |f| f.begin(now)) {
            Some(Begin::Fetch) => {}
            // Asked again before the wait is over: ask once it is.
            Some(Begin::Wait(ms)) => return self.retry_after(ms, next),
            // That fetch, or its retry, answers this too (or the chat is gone).
            Some(Begin::OnItsWay | Begin::Here) | None => return,
        }
        leptos::task::spawn_local(async move {
            let fetched = locale_chunk::fetch(next).await;
            // Another language was asked for meanwhile, or the chat is gone.
            if self.wanted.try_get_value() != Some(next) {
                self.with_fetch(next, |f| match fetched {
                    Ok(()) => {
                        f.arrived();
                    }
                    Err(_) => f.abandon(),
                });
                return;
            }
            if fetched.is_ok() {
                self.with_fetch(next, ChunkFetch::arrived);
                let _ = self.locale.try_set(next);
                let _ = self.missing.try_set(false);
            } else {
                locale_missing(next);
                let _ = self.missing.try_set(true);
                let now = crate::io::clock::now();
                if let Some(failed) = self.with_fetch(next, |f| f.failed(now)) {
                    self.retry_after(failed.retry_at.0.saturating_sub(now.0), next);
                }
            }
            let _ = self.waiting.try_set(false);
        });
    }

    /// Asks for `next`'s texts again after `ms`, unless another language was asked for
    /// meanwhile or the chat is gone.
    fn retry_after(self, ms: u64, next: &'static str) {
        crate::io::split::later(ms, move || {
            if self.wanted.try_get_value() == Some(next) {
                self.show(next);
            }
        });
    }

    /// Runs `f` on `locale`'s fetch lifecycle (`None` once the chat is gone).
    fn with_fetch<T>(
        self,
        locale: &'static str,
        f: impl FnOnce(&mut ChunkFetch) -> T,
    ) -> Option<T> {
        self.fetches.try_update_value(|all| {
            let at = match all.iter().position(|(tag, _)| *tag == locale) {
                Some(at) => at,
                None => {
                    all.push((locale, ChunkFetch::new()));
                    all.len() - 1
                }
            };
            f(&mut all[at].1)
        })
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

    /// The locale rules of `Chat` and [`ChatI18nProvider`](crate::ui::i18n::ChatI18nProvider): start from the
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
            fetches: StoredValue::new(Vec::new()),
        })
    }

    /// The shipped locale in use (`en`, `tr`, `ar`). It changes only through
    /// [`I18n::set_locale`] (or the `locale` prop), once the new language's texts are here.
    /// Read inside a reactive closure, the closure runs again when it changes.
    pub fn locale(&self) -> &'static str {
        self.locale.get()
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

    /// `setLocale`: switches every string of the chat live, rewrites `?lang=` in
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

    /// The friendly text for an error, in the chat's language, with the host's replacements
    /// (`custom_messages`) for any message the page says itself.
    pub fn error(&self, err: &ChatError) -> String {
        err.describe(&self.error_catalog())
    }

    /// The server's own words shown under [`I18n::error`]'s sentence, when that sentence took
    /// their place ([`ChatError::server_detail`]).
    pub fn error_detail(&self, err: &ChatError) -> Option<String> {
        let catalog = self.error_catalog();
        let shown = err.describe(&catalog);
        err.server_detail(&catalog)
            .filter(|words| !shown.contains(words.as_str()))
    }

    /// The catalog errors are described with: the chat's language with every replacement the
    /// host gave on top, so a host rewords a known code (`chat.error.code.<code>`), a failure
    /// a backend's gateway names by its message id, or a generic sentence alike.
    fn error_catalog(&self) -> Rc<Catalog> {
        let locale = self.locale.get();
        let overrides = self
            .overrides
            .with_value(|o| (!o.is_empty()).then(|| o.clone()));
        match overrides {
            None => catalog(locale),
            Some(overrides) => {
                let mut c = locale_chunk::catalog(locale);
                c.set_overrides(overrides);
                Rc::new(c)
            }
        }
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
