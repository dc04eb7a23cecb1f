//! Drops the JavaScript classes a dependency exports but the chat never uses (issue 16, D79).
//!
//! Leptos depends on `server_fn`, whose browser client depends on `wasm-streams`, which
//! exports three classes to JavaScript (`IntoUnderlyingSource`, `IntoUnderlyingSink`,
//! `IntoUnderlyingByteSource`: a Rust stream handed to the browser as a `ReadableStream`).
//! The chat has no server functions and hands no Rust stream to the browser, but a
//! `#[wasm_bindgen]` export is a root: the linker, wasm-bindgen and wasm-opt all keep it and
//! everything it reaches (2.2 KB gzip of the first download), and the glue keeps the classes.
//! After wasm-bindgen, this removes those exports from the main wasm and those classes from
//! the glue; wasm-opt then drops the code only they reached. Nothing can construct one of the
//! classes (no import of the glue names them, checked here), so nothing is lost.

use std::fs;
use std::path::Path;

use crate::wasm_module;

/// The classes removed, as the glue names them (the wasm's exports are their lower case).
const CLASSES: [&str; 3] = [
    "IntoUnderlyingByteSource",
    "IntoUnderlyingSink",
    "IntoUnderlyingSource",
];

/// Removes the classes of [`CLASSES`] from the wasm `wasm` and its glue `js`, in place.
/// Returns how many exports went. A glue that still names one afterwards (wasm-bindgen changed
/// its output, or something constructs one) is an error, not a silent half removal.
pub fn drop_unused_classes(wasm: &Path, js: &Path) -> Result<usize, String> {
    let bytes = fs::read(wasm).map_err(|e| format!("read {}: {e}", wasm.display()))?;
    let (stripped, dropped) = drop_exports(&bytes, is_unused_export)?;
    let glue = fs::read_to_string(js).map_err(|e| format!("read {}: {e}", js.display()))?;
    let glue = drop_classes(&glue);
    if let Some(class) = CLASSES.iter().find(|c| mentions(&glue, c)) {
        return Err(format!(
            "{} still names {class} after its class was removed: wasm-bindgen changed its \
             output, or the chat now uses it",
            js.display()
        ));
    }
    fs::write(wasm, stripped).map_err(|e| format!("write {}: {e}", wasm.display()))?;
    fs::write(js, glue).map_err(|e| format!("write {}: {e}", js.display()))?;
    Ok(dropped)
}

/// An export of one of [`CLASSES`]: a method (`intounderlyingsink_write`) or its destructor
/// (`__wbg_intounderlyingsink_free`).
fn is_unused_export(name: &str) -> bool {
    let name = name.strip_prefix("__wbg_").unwrap_or(name);
    CLASSES.iter().any(|class| {
        name.strip_prefix(class.to_ascii_lowercase().as_str())
            .is_some_and(|rest| rest.starts_with('_'))
    })
}

/// Whether `glue` names `class`, in either case.
fn mentions(glue: &str, class: &str) -> bool {
    glue.contains(class) || glue.contains(&class.to_ascii_lowercase())
}

/// The glue without the classes' declarations, their `Symbol.dispose` lines and their
/// finalization registries (wasm-bindgen 0.2.130's layout: a class ends at a `}` in the
/// first column, a registry at the first line ending in `;`).
fn drop_classes(glue: &str) -> String {
    let mut out = String::with_capacity(glue.len());
    let mut lines = glue.lines();
    while let Some(line) = lines.next() {
        let starts = |prefix: &str| {
            CLASSES
                .iter()
                .any(|c| line.starts_with(&format!("{prefix}{c}")))
        };
        if starts("export class ") {
            lines.by_ref().find(|l| *l == "}");
        } else if starts("if (Symbol.dispose) ") {
        } else if starts("const ") {
            if !line.ends_with(';') {
                lines.by_ref().find(|l| l.ends_with(';'));
            }
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// `wasm` with the exports `drop` picks removed, and how many.
fn drop_exports(wasm: &[u8], drop: impl Fn(&str) -> bool) -> Result<(Vec<u8>, usize), String> {
    let mut dropped = 0;
    let out = wasm_module::rewrite(wasm, wasm_module::EXPORTS, |entries| {
        let before = entries.len();
        let kept: Vec<_> = entries.into_iter().filter(|e| !drop(&e.name)).collect();
        dropped = before - kept.len();
        kept
    })?;
    Ok((out, dropped))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module(names: &[&str]) -> Vec<u8> {
        wasm_module::build::module(&[], names)
    }

    #[test]
    fn drops_only_the_unused_classes_exports() {
        let names = [
            "define_agent_chat",
            "__wbg_intounderlyingsink_free",
            "intounderlyingbytesource_pull",
            "intounderlyingsourcery",
            "memory",
        ];
        let (out, dropped) = drop_exports(&module(&names), is_unused_export).unwrap();
        assert_eq!(dropped, 2);
        assert_eq!(
            out,
            module(&["define_agent_chat", "intounderlyingsourcery", "memory"])
        );
        assert!(drop_exports(b"\0asm\x01\0\0\0\x07\x05\x01", |_| true).is_err());
        assert!(drop_exports(b"not wasm", |_| true).is_err());
    }

    #[test]
    fn drops_the_classes_from_the_glue_and_keeps_the_rest() {
        let glue = "import { x } from './a.js';\n\n\
export class IntoUnderlyingSink {\n    free() {\n        wasm.__wbg_intounderlyingsink_free(0, 0);\n    }\n}\n\
if (Symbol.dispose) IntoUnderlyingSink.prototype[Symbol.dispose] = IntoUnderlyingSink.prototype.free;\n\n\
export function define_agent_chat() {\n    wasm.define_agent_chat();\n}\n\
const IntoUnderlyingSinkFinalization = (typeof FinalizationRegistry === 'undefined')\n\
    ? { register: () => {}, unregister: () => {} }\n\
    : new FinalizationRegistry(ptr => wasm.__wbg_intounderlyingsink_free(ptr, 1));\n\
const kept = 1;\n";
        let out = drop_classes(glue);
        assert_eq!(
            out,
            "import { x } from './a.js';\n\n\nexport function define_agent_chat() {\n    \
             wasm.define_agent_chat();\n}\nconst kept = 1;\n"
        );
        assert!(!CLASSES.iter().any(|c| mentions(&out, c)));
    }

    #[test]
    fn a_glue_that_still_names_a_class_is_refused() {
        let dir = std::env::temp_dir().join(format!("unexport-test-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let (wasm, js) = (dir.join("m_bg.wasm"), dir.join("m.js"));
        fs::write(&wasm, module(&["intounderlyingsource_pull", "memory"])).unwrap();
        // An import that constructs one: the class cannot go.
        fs::write(&js, "imports.x = (p) => IntoUnderlyingSource.__wrap(p);\n").unwrap();
        assert!(drop_unused_classes(&wasm, &js).is_err());
        assert_eq!(
            fs::read(&wasm).unwrap(),
            module(&["intounderlyingsource_pull", "memory"]),
            "nothing is written when it is refused"
        );
        fs::write(&js, "export function f() {}\n").unwrap();
        assert_eq!(drop_unused_classes(&wasm, &js).unwrap(), 1);
        assert_eq!(fs::read(&wasm).unwrap(), module(&["memory"]));
        fs::remove_dir_all(&dir).unwrap();
    }
}
