//! `cargo xtask split-page`: Trunk's `post_build` hook that makes the standalone page a split
//! build (D67), like the element.
//!
//! Trunk runs cargo and wasm-bindgen itself, with no step between them, so the page's
//! `index.html` builds the bin with the `split` feature (its split points, and `build.rs`
//! keeps the relocations) and this hook, run by Trunk before it moves the staging directory to
//! `dist/`, redoes the last part from the linker's wasm: wasm-split-cli, wasm-bindgen
//! `--keep-lld-exports`, wasm-opt. It writes the glue and the main wasm over Trunk's (under
//! Trunk's hashed names, which `index.html` already points to), and puts the loader (its
//! import of the glue renamed to the hashed file) and the chunks beside them, the instant shell
//! (its script, and its host first in `index.html`'s body: [`crate::shell`]), then a `.gz` and
//! a `.br` of every staged file ([`crate::compress`]).

use std::{fs, path::PathBuf, process::ExitCode};

use crate::{split, Ctx};

/// The page's bin target, and the name Trunk gives its files before the hash.
const PAGE: &str = "agent-chat-page";

/// Entry point of `cargo xtask split-page` (Trunk sets `TRUNK_STAGING_DIR` and `TRUNK_PROFILE`).
pub fn main(ctx: &Ctx) -> ExitCode {
    match run(ctx) {
        Ok(chunks) => {
            println!(
                "[split-page] the page fetches {} on first use",
                chunks.join(", ")
            );
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("[split-page] {msg}");
            ExitCode::FAILURE
        }
    }
}

fn run(ctx: &Ctx) -> Result<Vec<String>, String> {
    let staging = std::env::var_os("TRUNK_STAGING_DIR")
        .map(PathBuf::from)
        .ok_or("TRUNK_STAGING_DIR is not set: this runs as Trunk's post_build hook")?;
    let profile = std::env::var("TRUNK_PROFILE").unwrap_or_else(|_| "debug".into());
    let hashed = hashed_glue(&staging)?;
    let raw = split::wasm_dir(ctx, &profile).join(format!("{PAGE}.wasm"));
    let work = split::wasm_dir(ctx, &profile).join("split-page");
    let out = split::wasm_dir(ctx, &profile).join("split-page-out");
    let _ = fs::remove_dir_all(&out);
    fs::create_dir_all(&out).map_err(|e| format!("create {}: {e}", out.display()))?;
    let chunks = split::split_and_bind(
        ctx,
        &raw,
        &work,
        &out,
        PAGE,
        "split-page",
        profile == "release",
    )?;
    let copy = |from: &str, to: &str| {
        fs::copy(out.join(from), staging.join(to))
            .map(|_| ())
            .map_err(|e| format!("copy {from} to the staging directory: {e}"))
    };
    copy(&format!("{PAGE}.js"), &format!("{hashed}.js"))?;
    copy(&format!("{PAGE}_bg.wasm"), &format!("{hashed}_bg.wasm"))?;
    for chunk in &chunks {
        copy(chunk, chunk)?;
    }
    let loader = fs::read_to_string(out.join(split::LOADER))
        .map_err(|e| format!("read {}: {e}", split::LOADER))?;
    let renamed = rename_glue_import(&loader, PAGE, &hashed)?;
    fs::write(staging.join(split::LOADER), renamed)
        .map_err(|e| format!("write {}: {e}", split::LOADER))?;
    // The instant shell: the composer drawn while the wasm is on its way (D84).
    let first = crate::first_chunks::part_files(&loader, crate::first_chunks::FIRST_PART)?;
    let shell = crate::shell::page_script(&ctx.root, &first)?;
    fs::write(staging.join(crate::shell::PAGE_SCRIPT), shell)
        .map_err(|e| format!("write {}: {e}", crate::shell::PAGE_SCRIPT))?;
    let index = staging.join("index.html");
    let html = fs::read_to_string(&index).map_err(|e| format!("read index.html: {e}"))?;
    fs::write(&index, crate::shell::into_page(&html)?)
        .map_err(|e| format!("write index.html: {e}"))?;
    if profile == "release" {
        // The scripts Trunk staged are all the page's (its glue, our loader, the snippets).
        split::minify_scripts(ctx, &staging, "split-page")?;
    }
    // Last: the copies must be of the files as shipped (Trunk only moves them to dist/).
    crate::compress::precompress(&staging, "split-page")?;
    Ok(chunks)
}

/// The stem of the glue Trunk staged: `agent-chat-page-<hash>` (or without a hash).
fn hashed_glue(staging: &std::path::Path) -> Result<String, String> {
    let entries = fs::read_dir(staging).map_err(|e| format!("read {}: {e}", staging.display()))?;
    entries
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter_map(|name| name.strip_suffix("_bg.wasm").map(str::to_owned))
        .find(|stem| stem == PAGE || stem.starts_with(&format!("{PAGE}-")))
        .ok_or_else(|| format!("no {PAGE}*_bg.wasm in {}", staging.display()))
}

/// The loader imports `initSync` from `./<name>.js`; Trunk's file is `./<hashed>.js`.
fn rename_glue_import(loader: &str, name: &str, hashed: &str) -> Result<String, String> {
    let from = format!("from \"./{name}.js\"");
    if !loader.contains(&from) {
        return Err(format!(
            "{} does not import ./{name}.js: wasm-split-cli changed its output",
            split::LOADER
        ));
    }
    Ok(loader.replacen(&from, &format!("from \"./{hashed}.js\""), 1))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_loader_imports_the_hashed_glue() {
        let loader = "import { initSync } from \"./agent-chat-page.js\";\nlet x;";
        let renamed =
            super::rename_glue_import(loader, "agent-chat-page", "agent-chat-page-1a2b").unwrap();
        assert_eq!(
            renamed,
            "import { initSync } from \"./agent-chat-page-1a2b.js\";\nlet x;"
        );
        assert!(
            super::rename_glue_import("import {} from \"./other.js\"", "agent-chat-page", "x")
                .is_err()
        );
    }

    #[test]
    fn finds_the_glue_trunk_staged() {
        let dir = std::env::temp_dir().join(format!("split-page-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("agent-chat-page-00ff_bg.wasm"), b"").unwrap();
        std::fs::write(dir.join("other_bg.wasm"), b"").unwrap();
        assert_eq!(super::hashed_glue(&dir).unwrap(), "agent-chat-page-00ff");
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(super::hashed_glue(&dir).is_err());
    }
}
