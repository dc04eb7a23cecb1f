//! The built page and element as static files: the pre-compressed copies the build writes
//! (`name.br`, `name.gz`) chosen by `Accept-Encoding`, and caching headers by name.
//!
//! - **Encoding.** `ServeDir` picks `.br` over `.gz` over the file itself by the request's
//!   `Accept-Encoding` (q-values honoured) and sets `Content-Encoding`; every answer says
//!   `Vary: Accept-Encoding`, since a cache between must not hand Brotli to a browser that
//!   asked for none. A file without copies is served as it is.
//! - **Caching.** A file whose name carries a content hash (Trunk's `name-<hex>.js`,
//!   `name-<hex>_bg.wasm`) never changes under that name: `public, max-age=31536000,
//!   immutable`. Everything else (the HTML, the element's `agent-chat.js`, whose name a page
//!   writes by hand, the chunks) is `no-cache`: kept, but checked with the server each time
//!   (`Last-Modified`), so a new build is seen at once.

use axum::extract::Request;
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use tower_http::services::ServeDir;

/// `Cache-Control` of a file named with its content's hash.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// `Cache-Control` of every other file.
pub const REVALIDATE: &str = "no-cache";

/// The files under `dir`, with their `.br` / `.gz` copies served by `Accept-Encoding`.
pub fn serve_dir(dir: &std::path::Path) -> ServeDir {
    ServeDir::new(dir).precompressed_br().precompressed_gzip()
}

/// Middleware of the static files: `Cache-Control` by name ([`is_hashed`]) and `Vary`.
pub async fn caching_headers(request: Request, next: Next) -> Response {
    let hashed = is_hashed(request.uri().path());
    let mut response = next.run(request).await;
    if response.status().is_success() || response.status().as_u16() == 304 {
        let headers = response.headers_mut();
        headers.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static(if hashed { IMMUTABLE } else { REVALIDATE }),
        );
        headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    response
}

/// Whether the last segment of `path` is named with a content hash as Trunk writes it:
/// `<stem>-<12 to 16 hex digits>` followed by `.ext` or `_bg.wasm` (`agent-chat-page-
/// 3f9a8c1b2d4e5f60.js`). A name a person chose (`agent-chat.js`, `split_cards.wasm`) is not.
pub fn is_hashed(path: &str) -> bool {
    let file = path.rsplit('/').next().unwrap_or(path);
    let stem = file.split('.').next().unwrap_or(file);
    let stem = stem.strip_suffix("_bg").unwrap_or(stem);
    let Some((name, hash)) = stem.rsplit_once('-') else {
        return false;
    };
    !name.is_empty()
        && (12..=16).contains(&hash.len())
        && hash
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        && hash.bytes().any(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::is_hashed;

    #[test]
    fn only_names_with_a_content_hash_are_immutable() {
        assert!(is_hashed("/agent-chat-page-3f9a8c1b2d4e5f60.js"));
        assert!(is_hashed("/agent-chat-page-3f9a8c1b2d4e5f60_bg.wasm"));
        assert!(is_hashed("/agent-chat-page-0a9a8c1b2d4e.js"));
        assert!(!is_hashed("/"));
        assert!(!is_hashed("/index.html"));
        assert!(!is_hashed("/element/agent-chat.js"));
        assert!(!is_hashed("/element/agent-chat_bg.wasm"));
        assert!(!is_hashed("/element/split_cards.wasm"));
        assert!(!is_hashed("/element/__wasm_split.js"));
        // A word that happens to be made of hex letters is not a hash.
        assert!(!is_hashed("/assets/app-deadbeefcafe.js"));
        assert!(!is_hashed("/-3f9a8c1b2d4e5f60.js"));
    }
}
