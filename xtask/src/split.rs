//! The split build (D67): one wasm for the first screen and chunks fetched on first use.
//!
//! `wasm-split-cli` works on the linker's output, before wasm-bindgen, and needs its
//! relocations: the crate is linked with `--emit-relocs` and the `split` feature (which turns
//! the `split_point!`s into real split points). The main module then goes through
//! wasm-bindgen with `--keep-lld-exports`, because the chunks import the function table that
//! wasm-bindgen 0.2.130 otherwise stops exporting. Every module is optimized with the same
//! wasm-opt flags. The loader `__wasm_split.js` imports the glue (`./<name>.js`) and fetches
//! each chunk from beside itself (`new URL(…, import.meta.url)`), so the files only have to
//! stay together.

use std::{
    fs,
    path::{Path, PathBuf},
    process::Command,
};

use crate::{run, Ctx};

/// Features wasm-opt may assume (the browsers the element supports have them all).
pub const WASM_OPT_FEATURES: &[&str] = &[
    "--enable-bulk-memory",
    "--enable-bulk-memory-opt",
    "--enable-nontrapping-float-to-int",
    "--enable-sign-ext",
    "--enable-mutable-globals",
    "--enable-reference-types",
    "--enable-multivalue",
];

/// The loader wasm-split-cli writes beside the chunks.
pub const LOADER: &str = "__wasm_split.js";

/// Whether `name` (a file of a split build) is a chunk fetched on first use.
pub fn is_chunk(name: &str) -> bool {
    let file = name.rsplit('/').next().unwrap_or(name);
    file.ends_with(".wasm") && (file.starts_with("split_") || file.starts_with("chunk_"))
}

/// `cargo build` arguments of the split build of the element (`build.rs` adds
/// `--emit-relocs` to the link when `split` is on).
pub const ELEMENT_BUILD: &[&str] = &[
    "build",
    "--release",
    "--lib",
    "-p",
    "agent-chat-ui",
    "--target",
    "wasm32-unknown-unknown",
    "--features",
    "split",
];

/// The Rust flags of a shipped wasm (the element and the page; D78): the `.cargo/config.toml`
/// list, plus panics that stop the module at once without formatting a message
/// (`-Cpanic=immediate-abort`) and no source locations kept for them (`-Zlocation-detail=none`),
/// and `#[derive(Debug)]` printing type names only (`-Zfmt-debug=shallow`, D79: no text a
/// person or a host reads comes from a derived `Debug`).
/// The standard library is rebuilt with them (`build-std`), from the toolchain's `rust-src`.
/// Tests, clippy and `trunk serve` keep the config's flags: a failing test still says why.
pub const SHIPPING_RUSTFLAGS: &str = "--cfg erase_components -Zlocation-detail=none \
     -Zfmt-debug=shallow -Zunstable-options -Cpanic=immediate-abort";

/// What the element's build adds to [`SHIPPING_RUSTFLAGS`] (D104): every function of every
/// crate compiled into the crate that calls it. Each crate is optimized on its own before the
/// link, so a function the core and the UI both use was optimized twice, once per crate, and
/// the copies did not fold; compiled where it is called, the element's crate optimizes the
/// whole program at once. Not the page's: its wasm grew with it (D104).
pub const ELEMENT_RUSTFLAGS: &str = "-Zcross-crate-inline-threshold=always";

/// What `build-std` rebuilds for a shipped wasm.
pub const SHIPPING_BUILD_STD: &str = "std,panic_abort";

/// The standard library's features for a shipped wasm: its smaller implementations (sorts,
/// number formatting), same behaviour (D78). Unwinding and backtraces, the other default
/// features, do nothing in a wasm whose panics abort at once.
pub const SHIPPING_BUILD_STD_FEATURES: &str = "optimize_for_size";

/// Makes `cmd` (a `cargo build` of the wasm, or `trunk build`, whose cargo inherits it) build
/// what ships: [`SHIPPING_RUSTFLAGS`] for the wasm32 target only (build scripts and proc
/// macros are untouched) and the standard library rebuilt with them. These are unstable
/// options of the pinned stable toolchain, enabled with `RUSTC_BOOTSTRAP=1` for this build
/// only; a `RUSTFLAGS` the caller set still wins, as always with cargo. The Trunk hook
/// (`Trunk.toml`) clears the variables again so `cargo xtask split-page` is not rebuilt.
pub fn shipping(cmd: &mut Command) -> &mut Command {
    cmd.env("RUSTC_BOOTSTRAP", "1")
        .env("CARGO_UNSTABLE_BUILD_STD", SHIPPING_BUILD_STD)
        .env(
            "CARGO_UNSTABLE_BUILD_STD_FEATURES",
            SHIPPING_BUILD_STD_FEATURES,
        )
        .env(
            "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS",
            SHIPPING_RUSTFLAGS,
        )
}

/// [`shipping`] with the element's own flags ([`ELEMENT_RUSTFLAGS`]) after the shipped ones.
pub fn shipping_element(cmd: &mut Command) -> &mut Command {
    shipping(cmd).env(
        "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS",
        format!("{SHIPPING_RUSTFLAGS} {ELEMENT_RUSTFLAGS}"),
    )
}

/// Splits `raw` (the linker's wasm) and writes `<name>_bg.wasm`, `<name>.js` (wasm-bindgen
/// `--target web` glue), the loader and the chunks into `out`, every module optimized.
/// `work` is a scratch directory. `optimize: false` (a debug page) skips wasm-opt. Returns the
/// chunks' file names.
pub fn split_and_bind(
    ctx: &Ctx,
    raw: &Path,
    work: &Path,
    out: &Path,
    name: &str,
    log: &str,
    optimize: bool,
) -> Result<Vec<String>, String> {
    let _ = fs::remove_dir_all(work);
    fs::create_dir_all(work).map_err(|e| format!("create {}: {e}", work.display()))?;
    let mut cut = ctx.command("wasm-split-cli");
    cut.arg(raw)
        .arg(work)
        .args(["--target", "web", "--out-name", name]);
    step(log, cut)?;
    let main = work.join(format!("{name}.wasm"));
    if !main.is_file() || !work.join(LOADER).is_file() {
        return Err(format!(
            "wasm-split-cli wrote no {name}.wasm or {LOADER} in {}",
            work.display()
        ));
    }

    let mut bindgen = ctx.command("wasm-bindgen");
    bindgen
        .args([
            "--target",
            "web",
            "--no-typescript",
            "--keep-lld-exports",
            "--out-name",
            name,
            "--out-dir",
        ])
        .arg(out)
        .arg(&main);
    step(log, bindgen)?;
    let glue = out.join(format!("{name}_bg.wasm"));
    let glue_js = out.join(format!("{name}.js"));
    let dropped = crate::unexport::drop_unused_classes(&glue, &glue_js)?;
    println!("[{log}] dropped {dropped} exports of classes the chat never uses (D79)");
    let renamed = crate::shorten::shorten_names(&glue, &glue_js, &format!("./{name}_bg.js"))?;
    println!("[{log}] gave {renamed} imports and closure shims short names (D79)");
    if optimize {
        optimize_wasm(ctx, &glue, &glue, log)?;
    }

    fs::copy(work.join(LOADER), out.join(LOADER)).map_err(|e| format!("copy {LOADER}: {e}"))?;
    let mut chunks = Vec::new();
    let entries = fs::read_dir(work).map_err(|e| format!("read {}: {e}", work.display()))?;
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        if is_chunk(&file) {
            if optimize {
                optimize_wasm(ctx, &entry.path(), &out.join(&file), log)?;
            } else {
                fs::copy(entry.path(), out.join(&file)).map_err(|e| format!("copy {file}: {e}"))?;
            }
            chunks.push(file);
        }
    }
    if chunks.is_empty() {
        return Err("wasm-split-cli cut no chunk: was the crate built with `split`?".into());
    }
    chunks.sort();
    Ok(chunks)
}

/// What wasm-opt may assume of every module of ours: that nothing lives in the first 1024
/// bytes of memory, so it may fold constant offsets into loads and stores (about 2.4 KB gzip
/// of the main wasm; D79). Rust's wasm32 linker puts the stack first, growing down from
/// 1 MiB, and the data above it; [`optimize_wasm`] checks each module's data before saying so.
pub const WASM_OPT_ASSUMPTIONS: &[&str] = &["--low-memory-unused"];

/// What wasm-opt drops from every module: the `producers` and `target_features` custom
/// sections, which name the toolchain and the features the module was built with. A
/// browser reads neither, and each of the ~30 files carried about 200 bytes of them
/// (about 4 KB gzip of the whole element; issue 16).
pub const WASM_OPT_STRIP: &[&str] = &["--strip-producers", "--strip-target-features"];

/// Where [`WASM_OPT_ASSUMPTIONS`] puts the end of "low memory".
const LOW_MEMORY: u32 = 1024;

/// `wasm-opt -Oz` with the project's features and assumptions, `from` into `to`, which then
/// carries no custom section.
fn optimize_wasm(ctx: &Ctx, from: &Path, to: &Path, log: &str) -> Result<(), String> {
    let bytes = fs::read(from).map_err(|e| format!("read {}: {e}", from.display()))?;
    match crate::wasm_module::lowest_data_address(&bytes)? {
        Some(address) if address < LOW_MEMORY => {
            return Err(format!(
                "{} puts data at {address}, below {LOW_MEMORY}: wasm-opt may not assume low \
                 memory unused (did the linker's layout change?)",
                from.display()
            ))
        }
        _ => {}
    }
    let mut opt = ctx.command("wasm-opt");
    opt.arg("-Oz")
        .args(WASM_OPT_FEATURES)
        .args(WASM_OPT_ASSUMPTIONS)
        .args(WASM_OPT_STRIP)
        .arg(from)
        .arg("-o")
        .arg(to);
    step(log, opt)?;
    let optimized = fs::read(to).map_err(|e| format!("read {}: {e}", to.display()))?;
    let custom = crate::wasm_module::custom_section_names(&optimized)?;
    if !custom.is_empty() {
        return Err(format!(
            "{} still carries the custom sections {custom:?} after wasm-opt",
            to.display()
        ));
    }
    Ok(())
}

/// Minifies every `.js` file under `dir` in place with terser (`node_modules/.bin`): the
/// glue, the loader and the snippets (issue 16: about 3.7 KB gzip of the element's first
/// download). Module mode keeps every export and property name, so the files still fit
/// together and a page's `import init, * as bindings` sees the same names.
pub fn minify_scripts(ctx: &Ctx, dir: &Path, log: &str) -> Result<(), String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("read {}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            minify_scripts(ctx, &path, log)?;
        } else if path.extension().is_some_and(|e| e == "js") {
            let min = path.with_extension("min.js");
            let mut terser = ctx.command(ctx.root.join("node_modules/.bin/terser"));
            terser
                .arg(&path)
                .args(["--module", "--compress", "--mangle", "--output"])
                .arg(&min);
            step(log, terser)?;
            fs::rename(&min, &path).map_err(|e| format!("replace {}: {e}", path.display()))?;
        }
    }
    Ok(())
}

/// Where a wasm32 build of `profile` (`release`, `debug`) puts the linker's wasm.
pub fn wasm_dir(ctx: &Ctx, profile: &str) -> PathBuf {
    ctx.target_dir()
        .join("wasm32-unknown-unknown")
        .join(profile)
}

/// Runs `cmd`, printing it under `[log]`.
pub fn step(log: &str, mut cmd: Command) -> Result<(), String> {
    println!("[{log}] $ {}", run::display(&cmd));
    match run::status(&mut cmd) {
        Ok(st) if st.success() => Ok(()),
        Ok(st) => Err(format!("`{}` failed: {st}", run::display(&cmd))),
        Err(msg) => Err(msg),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn chunks_are_the_split_and_shared_modules_only() {
        assert!(super::is_chunk("split_history.wasm"));
        assert!(super::is_chunk("chunk_3_markdown_cards.wasm"));
        assert!(!super::is_chunk("agent-chat_bg.wasm"));
        assert!(!super::is_chunk("__wasm_split.js"));
        assert!(!super::is_chunk("snippets/split_x/inline0.js"));
    }

    #[test]
    fn the_element_is_built_with_its_split_points() {
        let args = super::ELEMENT_BUILD;
        assert!(args.windows(2).any(|w| w == ["--features", "split"]));
        assert!(args.contains(&"--release") && args.contains(&"--lib"));
    }

    /// The shipping flags replace `.cargo/config.toml`'s wasm32 list (cargo takes one list),
    /// so they must repeat every flag of it: a shipped build without `erase_components`
    /// would be ~50 KB larger and compile different views than the tests (D50, D78).
    #[test]
    fn the_shipping_flags_keep_every_configured_wasm_flag() {
        let config = include_str!("../../.cargo/config.toml");
        let list = config
            .lines()
            .find_map(|line| line.trim().strip_prefix("rustflags = ["))
            .expect("a wasm32 rustflags list in .cargo/config.toml");
        let configured: Vec<&str> = list
            .trim_end_matches(']')
            .split(',')
            .map(|flag| flag.trim().trim_matches('"'))
            .filter(|flag| !flag.is_empty())
            .collect();
        assert!(configured.contains(&"erase_components"), "{configured:?}");
        let shipping: Vec<&str> = super::SHIPPING_RUSTFLAGS.split_whitespace().collect();
        for pair in configured.chunks(2) {
            assert!(
                shipping.windows(pair.len()).any(|w| w == pair),
                "{pair:?} of .cargo/config.toml missing from SHIPPING_RUSTFLAGS"
            );
        }
        assert!(shipping.contains(&"-Cpanic=immediate-abort"));
    }

    /// Trunk's hook runs `cargo xtask split-page` under Trunk's environment, which carries
    /// the shipping variables: each must be cleared there, or cargo rebuilds the host's
    /// standard library for xtask with them (D78).
    #[test]
    fn the_trunk_hook_clears_every_shipping_variable() {
        let trunk = include_str!("../../Trunk.toml");
        let hook = trunk
            .lines()
            .find(|line| line.contains("split-page"))
            .expect("the split-page hook in Trunk.toml");
        let mut cmd = std::process::Command::new("cargo");
        super::shipping(&mut cmd);
        let names: Vec<String> = cmd
            .get_envs()
            .map(|(name, _)| name.to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 4, "{names:?}");
        for name in names {
            assert!(
                hook.contains(&format!("\"-u\", \"{name}\"")),
                "the Trunk hook keeps {name}: {hook}"
            );
        }
    }
}
