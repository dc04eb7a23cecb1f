//! The page address: reading a query parameter and rewriting one in place
//! (`history.replaceState`, no reload, no new history entry).

/// The value of `name` in the page's query string, if present and not empty.
pub(crate) fn query_param(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    params.get(name).filter(|v| !v.is_empty())
}

/// Sets (`Some`) or removes (`None`) `name` in the page's query string without reloading.
/// Does nothing outside a browser window.
pub(crate) fn replace_query_param(name: &str, value: Option<&str>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(href) = window.location().href() else {
        return;
    };
    let Ok(url) = web_sys::Url::new(&href) else {
        return;
    };
    let params = url.search_params();
    match value {
        Some(v) => params.set(name, v),
        None => params.delete(name),
    }
    url.set_search(&params.to_string().as_string().unwrap_or_default());
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url.href()));
    }
}
