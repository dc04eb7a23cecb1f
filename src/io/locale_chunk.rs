//! The locales other than `en` in the element and the page: each is a chunk of its own,
//! fetched when a chat first uses it, bringing its texts and Fluent's runtime
//! (English is formatted from the build's table without it). A visitor downloads only
//! the language the chat speaks. Without the `split` feature every locale is compiled in and
//! [`fetch`] is ready at once.

use std::cell::RefCell;
use std::rc::Rc;

use crate::core::i18n::Formatter;
use crate::core::{Catalog, DEFAULT_LOCALE};
use crate::io::split::ChunkMissing;

#[cfg(feature = "split")]
crate::io::split::split_point!(
    locale_tr,
    preload_locale_tr,
    /// Turkish, formatted by Fluent.
    fn tr_fluent() -> Rc<dyn Formatter> {
        crate::core::i18n::fluent("tr", crate::core::i18n::ftl::TR)
    }
);

#[cfg(feature = "split")]
crate::io::split::split_point!(
    locale_ar,
    preload_locale_ar,
    /// Arabic, formatted by Fluent.
    fn ar_fluent() -> Rc<dyn Formatter> {
        crate::core::i18n::fluent("ar", crate::core::i18n::ftl::AR)
    }
);

thread_local! {
    /// The locales whose texts are here, each parsed once.
    static HERE: RefCell<Vec<(&'static str, Rc<dyn Formatter>)>> = const { RefCell::new(Vec::new()) };
}

/// The formatter of `tag` if its texts are here (never for English, which needs none).
fn formatter(tag: &str) -> Option<Rc<dyn Formatter>> {
    if tag == DEFAULT_LOCALE {
        return None;
    }
    let here = HERE.with(|h| {
        h.borrow()
            .iter()
            .find(|(t, _)| *t == tag)
            .map(|(_, f)| f.clone())
    });
    // Compiled in: parsed the first time it is asked for.
    #[cfg(not(feature = "split"))]
    let here = here.or_else(|| {
        let tag = crate::core::match_locale(tag)?;
        let formatter = crate::core::i18n::fluent(tag, crate::core::i18n::source(tag)?);
        HERE.with(|h| h.borrow_mut().push((tag, formatter.clone())));
        Some(formatter)
    });
    here
}

/// Whether the texts of `tag` (a shipped locale) are here.
pub(crate) fn is_here(tag: &str) -> bool {
    tag == DEFAULT_LOCALE || formatter(tag).is_some()
}

/// The catalog of `tag` (a shipped locale whose texts are here; English otherwise).
pub(crate) fn catalog(tag: &'static str) -> Catalog {
    match formatter(tag) {
        Some(formatter) => Catalog::with_fluent(tag, formatter),
        None => Catalog::english(),
    }
}

/// Makes the texts of `tag` (a shipped locale) available: at once when they are here, else
/// after their chunk arrives.
pub(crate) async fn fetch(tag: &'static str) -> Result<(), ChunkMissing> {
    if is_here(tag) {
        return Ok(());
    }
    #[cfg(feature = "split")]
    {
        let fetched = match tag {
            "tr" => tr_fluent().await?,
            "ar" => ar_fluent().await?,
            _ => return Err(ChunkMissing),
        };
        HERE.with(|h| {
            let mut here = h.borrow_mut();
            if !here.iter().any(|(t, _)| *t == tag) {
                here.push((tag, fetched));
            }
        });
        Ok(())
    }
    // Every locale is compiled in: only a tag that is not shipped is missing.
    #[cfg(not(feature = "split"))]
    Err(ChunkMissing)
}
