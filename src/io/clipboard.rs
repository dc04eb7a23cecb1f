//! The clipboard: copying a message's or a code block's text.

use wasm_bindgen::JsCast;

/// `navigator.clipboard.writeText`, looked up dynamically: it is missing on insecure origins
/// and older browsers, and rejects without focus or permission. `true` once written.
pub(crate) async fn write(text: &str) -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let navigator = window.navigator();
    let Some(clipboard) = get(&navigator, "clipboard") else {
        return false;
    };
    let Some(write) =
        get(&clipboard, "writeText").and_then(|f| f.dyn_into::<js_sys::Function>().ok())
    else {
        return false;
    };
    let Ok(promise) = write.call1(&clipboard, &text.into()) else {
        return false;
    };
    let Ok(promise) = promise.dyn_into::<js_sys::Promise>() else {
        return false;
    };
    wasm_bindgen_futures::JsFuture::from(promise).await.is_ok()
}

/// Selects the contents of `el` and runs `document.execCommand("copy")`; the selection stays
/// so a person can copy by hand if the command is refused.
pub(crate) fn select_and_copy(el: &web_sys::HtmlElement) -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let selection = get(&window, "getSelection")
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| f.call0(&window).ok())
        .filter(|s| !s.is_null());
    let Some(selection) = selection else {
        return false;
    };
    let selected = get(&selection, "selectAllChildren")
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .is_some_and(|f| f.call1(&selection, el).is_ok());
    if !selected {
        return false;
    }
    let Some(document) = window.document() else {
        return false;
    };
    get(&document, "execCommand")
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| f.call1(&document, &"copy".into()).ok())
        .is_some_and(|r| r.as_bool() == Some(true))
}

/// `obj[name]`, if present.
fn get(obj: &wasm_bindgen::JsValue, name: &str) -> Option<wasm_bindgen::JsValue> {
    js_sys::Reflect::get(obj, &name.into())
        .ok()
        .filter(|v| !v.is_undefined() && !v.is_null())
}
