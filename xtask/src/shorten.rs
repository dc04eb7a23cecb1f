//! Short names between the main wasm and its glue (issue 16, D79).
//!
//! wasm-bindgen names each function the wasm imports from its glue `__wbg_<what>_<16 hex
//! digits>`, and each closure shim it exports `wasm_bindgen_<hash>___convert__closures_…`:
//! about 240 names, each written twice (in the wasm's import or export section and in the
//! glue), whose hashes gzip cannot shrink (7 KB of the first download). After wasm-bindgen this
//! renames them in both files to `a`, `b`, … (imports) and `_a`, `_b`, … (the shims): the
//! glue's import object and `wasm.<name>` calls are the only places they are written, which is
//! checked, so nothing that called them by their old name can be left behind.

use std::collections::HashMap;
use std::fs;
use std::path::Path;

use crate::wasm_module::{self, EXPORTS, IMPORTS};

/// The exports renamed: wasm-bindgen's closure shims, called only by the glue.
const SHIM_PREFIX: &str = "wasm_bindgen_";

/// Renames the imports the wasm `wasm` takes from its glue (module `glue_module`, e.g.
/// `./agent-chat_bg.js`) and its closure shims, in `wasm` and in the glue `js`, in place.
/// Returns how many names changed. Nothing is written when a name is not where the glue's
/// layout puts it.
pub fn shorten_names(wasm: &Path, js: &Path, glue_module: &str) -> Result<usize, String> {
    let bytes = fs::read(wasm).map_err(|e| format!("read {}: {e}", wasm.display()))?;
    let glue = fs::read_to_string(js).map_err(|e| format!("read {}: {e}", js.display()))?;
    let (bytes, glue, renamed) = shorten(&bytes, &glue, glue_module)?;
    fs::write(wasm, bytes).map_err(|e| format!("write {}: {e}", wasm.display()))?;
    fs::write(js, glue).map_err(|e| format!("write {}: {e}", js.display()))?;
    Ok(renamed)
}

/// [`shorten_names`] on the bytes: the new wasm, the new glue, how many names changed.
fn shorten(wasm: &[u8], glue: &str, glue_module: &str) -> Result<(Vec<u8>, String, usize), String> {
    let mut renames: HashMap<String, String> = HashMap::new();
    let mut imports = 0;
    let wasm = wasm_module::rewrite(wasm, IMPORTS, |mut entries| {
        for entry in entries.iter_mut().filter(|e| e.module == glue_module) {
            let short = short_name(imports);
            imports += 1;
            renames.insert(std::mem::replace(&mut entry.name, short.clone()), short);
        }
        entries
    })?;
    let mut taken = Vec::new();
    let mut shims = 0;
    let wasm = wasm_module::rewrite(&wasm, EXPORTS, |mut entries| {
        taken = entries.iter().map(|e| e.name.clone()).collect();
        for entry in entries
            .iter_mut()
            .filter(|e| e.name.starts_with(SHIM_PREFIX))
        {
            let short = format!("_{}", short_name(shims));
            shims += 1;
            renames.insert(std::mem::replace(&mut entry.name, short.clone()), short);
        }
        entries
    })?;
    if let Some(clash) = renames.values().find(|new| taken.contains(new)) {
        return Err(format!("the short name {clash} is already an export"));
    }
    let (glue, counts) = rename_identifiers(glue, &renames);
    for old in renames.keys() {
        let seen = counts.get(old.as_str()).copied().unwrap_or(0);
        let expected_once = !old.starts_with(SHIM_PREFIX);
        if seen == 0 || (expected_once && seen != 1) {
            return Err(format!(
                "the glue names {old} {seen} times (an import is named once, a shim at least \
                 once): wasm-bindgen changed its output"
            ));
        }
    }
    Ok((wasm, glue, renames.len()))
}

/// `a` … `z`, `A` … `Z`, then `aa`, `ab` …: the `n`th shortest identifier of letters.
fn short_name(mut n: usize) -> String {
    const LETTERS: &[u8; 52] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut name = Vec::new();
    loop {
        name.push(LETTERS[n % 52]);
        if n < 52 {
            break;
        }
        n = n / 52 - 1;
    }
    name.reverse();
    String::from_utf8(name).expect("letters")
}

/// `js` with every identifier that `renames` names replaced (whole identifiers only), and how
/// many times each was found.
fn rename_identifiers<'a>(
    js: &str,
    renames: &'a HashMap<String, String>,
) -> (String, HashMap<&'a str, usize>) {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut out = String::with_capacity(js.len());
    let mut counts = HashMap::new();
    let mut rest = js;
    while let Some(start) = rest.find(is_ident) {
        out.push_str(&rest[..start]);
        let word = &rest[start..];
        let end = word.find(|c: char| !is_ident(c)).unwrap_or(word.len());
        let word = &word[..end];
        match renames.get_key_value(word) {
            Some((old, new)) => {
                *counts.entry(old.as_str()).or_insert(0) += 1;
                out.push_str(new);
            }
            None => out.push_str(word),
        }
        rest = &rest[start + end..];
    }
    out.push_str(rest);
    (out, counts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wasm_module::build::module;

    const GLUE: &str = "./m_bg.js";

    #[test]
    fn short_names_are_distinct_identifiers() {
        let names: Vec<String> = (0..3000).map(short_name).collect();
        assert_eq!(&names[..3], ["a", "b", "c"]);
        assert_eq!(names[51], "Z");
        assert_eq!(names[52], "aa");
        let unique: std::collections::HashSet<&String> = names.iter().collect();
        assert_eq!(unique.len(), names.len());
        assert!(names
            .iter()
            .all(|n| n.chars().all(|c| c.is_ascii_alphabetic())));
    }

    #[test]
    fn renames_the_glue_imports_and_the_shims_in_both_files() {
        let wasm = module(
            &[
                (GLUE, "__wbg_push_c9f4893fc209f768"),
                ("./__wasm_split.js", "__wasm_split_load_cards"),
                (GLUE, "__wbg_new_b134eec02f943ec8"),
            ],
            &[
                "memory",
                "wasm_bindgen_12ab___invoke___u32_true_",
                "define_agent_chat",
            ],
        );
        let js = "const import0 = { __proto__: null, __wbg_push_c9f4893fc209f768: function(a) \
                  { a.push(1); }, __wbg_new_b134eec02f943ec8: function() { return \
                  {__wbg_push_c9f4893fc209f768x: 1}; } };\n\
                  function f(a) { wasm.wasm_bindgen_12ab___invoke___u32_true_(a); \
                  wasm.wasm_bindgen_12ab___invoke___u32_true_(a); wasm.define_agent_chat(); }";
        let (out, glue, renamed) = shorten(&wasm, js, GLUE).unwrap();
        assert_eq!(renamed, 3);
        assert_eq!(
            out,
            module(
                &[
                    (GLUE, "a"),
                    ("./__wasm_split.js", "__wasm_split_load_cards"),
                    (GLUE, "b")
                ],
                &["memory", "_a", "define_agent_chat"],
            )
        );
        assert_eq!(
            glue,
            "const import0 = { __proto__: null, a: function(a) { a.push(1); }, b: function() \
             { return {__wbg_push_c9f4893fc209f768x: 1}; } };\n\
             function f(a) { wasm._a(a); wasm._a(a); wasm.define_agent_chat(); }"
        );
    }

    #[test]
    fn a_name_the_glue_does_not_write_as_expected_stops_it() {
        let wasm = module(&[(GLUE, "__wbg_push_c9f4893fc209f768")], &[]);
        // Missing, then written twice.
        assert!(shorten(&wasm, "const import0 = {};", GLUE).is_err());
        let twice = "x.__wbg_push_c9f4893fc209f768; y.__wbg_push_c9f4893fc209f768";
        assert!(shorten(&wasm, twice, GLUE).is_err());
        // A shim never called by the glue.
        let wasm = module(&[], &["wasm_bindgen_12ab___invoke"]);
        assert!(shorten(&wasm, "wasm.other()", GLUE).is_err());
        // A short name that is already an export.
        let wasm = module(&[], &["_a", "wasm_bindgen_12ab___invoke"]);
        assert!(shorten(&wasm, "wasm.wasm_bindgen_12ab___invoke()", GLUE).is_err());
    }
}
