//! argsSchema `pattern` with the browser's own `RegExp`.
//!
//! JSON Schema patterns are ECMA-262 regular expressions, so the browser's engine is the exact
//! dialect (lookaround, `\p{…}`, named groups), and using it keeps a regex engine out of the
//! wasm. Built with the `u` flag, as JSON Schema asks; a pattern `RegExp` rejects is ignored
//! like an unknown keyword (the server checks the arguments again).

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// The global `RegExp`, bound here with `catch` (js_sys' constructor throws through wasm).
    #[wasm_bindgen(js_name = RegExp)]
    type EcmaRegExp;

    #[wasm_bindgen(constructor, js_class = "RegExp", catch)]
    fn new(pattern: &str, flags: &str) -> Result<EcmaRegExp, JsValue>;

    #[wasm_bindgen(method, js_class = "RegExp")]
    fn test(this: &EcmaRegExp, text: &str) -> bool;
}

/// [`crate::core::PatternEngine`] over `RegExp`: `None` when the pattern does not compile.
pub fn search(pattern: &str, text: &str) -> Option<bool> {
    EcmaRegExp::new(pattern, "u").ok().map(|re| re.test(text))
}

/// Makes every argsSchema check use [`search`] (idempotent; [`crate::store::ChatStore`] calls
/// it).
pub fn install() {
    crate::core::set_pattern_engine(search);
}
