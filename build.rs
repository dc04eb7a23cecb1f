//! Build script: the stylesheet is compiled into the wasm without its comments and the spaces
//! it does not need (issue 16: about 3.5 KB gzip of the element's first download). The sources
//! stay as written; `src/ui/style.rs` includes the copies from `OUT_DIR`. The Fluent files are
//! the core's (`agent-chat-core/build.rs`).

use std::{env, fs, path::Path};

#[path = "style/minify.rs"]
mod minify;

use minify::compile;

fn main() {
    // The split build (D67): wasm-split-cli reads the linker's relocations, so the element
    // (the cdylib) and the page (the bin) keep them when built with `split` for wasm32.
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=style/minify.rs");
    println!("cargo:rerun-if-env-changed=CARGO_FEATURE_SPLIT");
    if env::var_os("CARGO_FEATURE_SPLIT").is_some()
        && env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32")
    {
        println!("cargo:rustc-link-arg-cdylib=--emit-relocs");
        println!("cargo:rustc-link-arg-bins=--emit-relocs");
    }
    let out = env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    for name in [
        "tokens.css",
        "chat.css",
        "messages.css",
        "cards.css",
        "markdown.css",
        "history.css",
        "page.css",
    ] {
        let source = format!("style/{name}");
        println!("cargo:rerun-if-changed={source}");
        let css = fs::read_to_string(&source).expect("the stylesheet is readable");
        write(&out, name, &compile(name, &css));
    }
}

fn write(out: &str, name: &str, text: &str) {
    fs::write(Path::new(out).join(name), text).expect("OUT_DIR is writable");
}
