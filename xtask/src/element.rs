//! `cargo xtask element`: the `<agent-chat>` custom element as static files, and its size.
//!
//! Output in `dist/element/` (so the dev-server serves it at `/element/` next to the page):
//! `agent-chat.js` (one ES module: wasm-bindgen's `--target web` glue plus two lines that load
//! the wasm next to it and register the element) and `agent-chat_bg.wasm` (after `wasm-opt
//! -Oz`). The stylesheet is compiled into the wasm. `examples/custom-element.html` is copied to
//! `dist/examples/`. Runs after `trunk build`, which empties `dist/`.

use std::{
    fs,
    path::{Path, PathBuf},
    process::{Command, ExitCode, Stdio},
};

use crate::{run, Ctx};

/// The element's size budget (wasm + js + css, gzip), from DEVELOPERS.md.
pub const BUDGET_BYTES: u64 = 150 * 1024;

/// Features wasm-opt may assume; the same list as index.html's `data-wasm-opt-params`.
const WASM_OPT_FEATURES: &[&str] = &[
    "--enable-bulk-memory",
    "--enable-bulk-memory-opt",
    "--enable-nontrapping-float-to-int",
    "--enable-sign-ext",
    "--enable-mutable-globals",
    "--enable-reference-types",
    "--enable-multivalue",
];

/// Appended to the glue: load the wasm beside the module, then define `<agent-chat>`.
const AUTO_DEFINE: &str = r#"
// agent-chat-ui element build: load the wasm next to this module and register <agent-chat>.
await __wbg_init({ module_or_path: new URL("agent-chat_bg.wasm", import.meta.url) });
define_agent_chat();
"#;

/// Gzip sizes of the element's files.
#[derive(Debug, Clone, Copy)]
pub struct Sizes {
    /// `agent-chat_bg.wasm`, gzip -9.
    pub wasm: u64,
    /// `agent-chat.js`, gzip -9.
    pub js: u64,
}

impl Sizes {
    /// Everything a page downloads.
    pub fn total(&self) -> u64 {
        self.wasm + self.js
    }
}

/// `dist/element`.
pub fn out_dir(ctx: &Ctx) -> PathBuf {
    ctx.dist().join("element")
}

/// Builds the element into `dist/element` and copies the HTML example; returns the sizes.
pub fn build(ctx: &Ctx) -> Result<Sizes, String> {
    let target = "wasm32-unknown-unknown";
    step(ctx.cargo([
        "build",
        "--release",
        "--lib",
        "-p",
        "agent-chat-ui",
        "--target",
        target,
    ]))?;
    let target_dir =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| ctx.root.join("target"), PathBuf::from);
    let raw = target_dir.join(target).join("release/agent_chat_ui.wasm");
    let out = out_dir(ctx);
    let _ = fs::remove_dir_all(&out);
    fs::create_dir_all(&out).map_err(|e| format!("create {}: {e}", out.display()))?;

    let mut bindgen = ctx.command("wasm-bindgen");
    bindgen
        .args([
            "--target",
            "web",
            "--no-typescript",
            "--out-name",
            "agent-chat",
            "--out-dir",
        ])
        .arg(&out)
        .arg(&raw);
    step(bindgen)?;

    let wasm = out.join("agent-chat_bg.wasm");
    let mut opt = ctx.command("wasm-opt");
    opt.arg("-Oz")
        .args(WASM_OPT_FEATURES)
        .arg(&wasm)
        .arg("-o")
        .arg(&wasm);
    step(opt)?;

    let js = out.join("agent-chat.js");
    let mut glue = fs::read_to_string(&js).map_err(|e| format!("read {}: {e}", js.display()))?;
    if !glue.contains("function __wbg_init") || !glue.contains("export function define_agent_chat")
    {
        return Err(format!(
            "{} lacks __wbg_init or define_agent_chat: wasm-bindgen changed its output",
            js.display()
        ));
    }
    glue.push_str(AUTO_DEFINE);
    fs::write(&js, glue).map_err(|e| format!("write {}: {e}", js.display()))?;

    let examples = ctx.dist().join("examples");
    fs::create_dir_all(&examples).map_err(|e| format!("create {}: {e}", examples.display()))?;
    let example = ctx.root.join("examples/custom-element.html");
    fs::copy(&example, examples.join("custom-element.html"))
        .map_err(|e| format!("copy {}: {e}", example.display()))?;

    Ok(Sizes {
        wasm: gzip_size(&wasm)?,
        js: gzip_size(&js)?,
    })
}

/// Prints the sizes and whether they fit the budget.
pub fn report(sizes: &Sizes) {
    let kb = |b: u64| b as f64 / 1024.0;
    println!(
        "[element] gzip: wasm {:.1} KB + js {:.1} KB = {:.1} KB (budget {:.0} KB: {})",
        kb(sizes.wasm),
        kb(sizes.js),
        kb(sizes.total()),
        kb(BUDGET_BYTES),
        if sizes.total() <= BUDGET_BYTES {
            "within"
        } else {
            "OVER"
        }
    );
}

/// Entry point of `cargo xtask element`.
pub fn main(ctx: &Ctx) -> ExitCode {
    match build(ctx) {
        Ok(sizes) => {
            report(&sizes);
            println!("[element] files in {}", out_dir(ctx).display());
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("[element] {msg}");
            ExitCode::FAILURE
        }
    }
}

fn step(mut cmd: Command) -> Result<(), String> {
    println!("[element] $ {}", run::display(&cmd));
    match run::status(&mut cmd) {
        Ok(st) if st.success() => Ok(()),
        Ok(st) => Err(format!("`{}` failed: {st}", run::display(&cmd))),
        Err(msg) => Err(msg),
    }
}

/// Bytes of `gzip -9` of `path` (the system gzip: std has no deflate).
pub fn gzip_size(path: &Path) -> Result<u64, String> {
    let out = Command::new("gzip")
        .arg("-9")
        .arg("-c")
        .arg(path)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("could not run gzip: {e}"))?;
    if !out.status.success() {
        return Err(format!("gzip {} failed", path.display()));
    }
    Ok(out.stdout.len() as u64)
}
