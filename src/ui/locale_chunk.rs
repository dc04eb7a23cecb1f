//! The locales other than `en` in the element and the page: each is a chunk of its own,
//! fetched when a chat first uses it (issue 16, D71). A visitor downloads only the language
//! the chat speaks. Without the `split` feature every locale is compiled in and [`fetch`] is
//! ready at once.

#[cfg(feature = "split")]
use crate::core::i18n::add_source;
use crate::core::i18n::source;
use crate::ui::chunk::ChunkMissing;

#[cfg(feature = "split")]
crate::io::split::split_point!(
    locale_tr,
    preload_locale_tr,
    /// The Turkish Fluent source.
    fn tr_source() -> &'static str {
        include_str!(concat!(env!("OUT_DIR"), "/tr.ftl"))
    }
);

#[cfg(feature = "split")]
crate::io::split::split_point!(
    locale_ar,
    preload_locale_ar,
    /// The Arabic Fluent source.
    fn ar_source() -> &'static str {
        include_str!(concat!(env!("OUT_DIR"), "/ar.ftl"))
    }
);

/// Whether the texts of `tag` (a shipped locale) are here.
pub(crate) fn is_here(tag: &str) -> bool {
    source(tag).is_some()
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
            "tr" => tr_source().await?,
            "ar" => ar_source().await?,
            _ => return Err(ChunkMissing),
        };
        add_source(tag, fetched);
        Ok(())
    }
    // Every locale is compiled in: only a tag that is not shipped is missing.
    #[cfg(not(feature = "split"))]
    Err(ChunkMissing)
}
