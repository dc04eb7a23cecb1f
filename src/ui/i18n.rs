//! Localized strings for the components: the chat's locale state ([`I18n`], kept by the
//! store) and the hooks and provider the React library exports around it.

use std::collections::HashMap;

use leptos::prelude::*;

use crate::core::Arg;

pub use crate::store::i18n::I18n;

/// Shorthand for `I18n::get().t(id)`, reactive to the locale.
pub fn tr(id: &str) -> String {
    I18n::get().t(id)
}

/// Gives its children a locale without a `Chat`: `locale` controls it (then `?lang=` is
/// not read and [`I18n::set_locale`] is refused), else `?lang=`, else `default_locale` (`en`).
/// `custom_messages` take React keys (`chat.input.placeholder`) or our ids.
#[component]
pub fn ChatI18nProvider(
    /// Fallback locale.
    #[prop(optional, into)]
    default_locale: MaybeProp<String>,
    /// Controlled locale.
    #[prop(optional, into)]
    locale: MaybeProp<String>,
    /// Replacements by message id.
    #[prop(optional)]
    custom_messages: HashMap<String, String>,
    /// After `set_locale` switched the language.
    #[prop(optional, into)]
    on_locale_change: Option<Callback<String>>,
    /// What to translate.
    children: Children,
) -> impl IntoView {
    I18n::provide_with(locale, default_locale, custom_messages, on_locale_change);
    children()
}

/// The nearest chat's or [`ChatI18nProvider`]'s locale state.
///
/// # Panics
/// Outside both, with a message naming the fix; [`use_i18n_context_optional`] does not.
#[must_use]
pub fn use_i18n_context() -> I18n {
    use_context::<I18n>()
        .expect("use_i18n_context() must be called inside <ChatI18nProvider> or <Chat>")
}

/// The nearest locale state, or `None`.
#[must_use]
pub fn use_i18n_context_optional() -> Option<I18n> {
    use_context::<I18n>()
}

/// React's `useI18n()`: messages by React key, the locale, and formatters in the
/// chat's language. Works outside a provider too (English).
#[must_use]
pub fn use_i18n() -> UseI18n {
    UseI18n { i18n: I18n::get() }
}

/// What [`use_i18n`] returns.
#[derive(Clone, Copy)]
pub struct UseI18n {
    /// The locale state underneath.
    pub i18n: I18n,
}

impl UseI18n {
    /// `t(key, values?)`: a message by React key (`chat.history.newChat`) or id
    /// (`chat-history-new-chat`), with `{name}` values; an unknown key comes back as itself.
    pub fn t(&self, key: &str, values: &[(&str, Arg)]) -> String {
        let id = crate::core::react_key_to_id(key);
        let text = self.i18n.t_args(&id, values);
        if text == id {
            key.to_owned()
        } else {
            text
        }
    }

    /// The locale in use (`en`, `tr`, `ar`); reactive.
    pub fn locale(&self) -> &'static str {
        self.i18n.locale()
    }

    /// See [`I18n::set_locale`].
    pub fn set_locale(&self, locale: &str) -> bool {
        self.i18n.set_locale(locale)
    }

    /// `formatNumber`: grouping and decimal marks of the locale (`Intl.NumberFormat`).
    pub fn format_number(&self, n: f64) -> String {
        let locales = js_sys::Array::of1(&self.locale().into());
        let format = js_sys::Intl::NumberFormat::new(&locales, &js_sys::Object::new());
        format
            .format()
            .call1(&format, &n.into())
            .ok()
            .and_then(|v| v.as_string())
            .unwrap_or_else(|| n.to_string())
    }

    /// `formatDate`: the date of an instant, written the locale's way (`toLocaleDateString`).
    pub fn format_date(&self, at: crate::core::Millis) -> String {
        let date = js_sys::Date::new(&(at.0 as f64).into());
        String::from(date.to_locale_date_string(self.locale(), &js_sys::Object::new().into()))
    }

    /// `formatRelativeTime`: "Just now", "5m ago", … in the locale.
    pub fn format_relative_time(&self, then: crate::core::Millis) -> String {
        crate::utils::format_relative_time(&self.i18n, then)
    }
}
