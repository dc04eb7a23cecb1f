//! `cargo xtask bench`: sizes and timings, printed as Markdown tables (docs/benchmarks.md).
//!
//! 1. setup (the same tools as `test`), `trunk build --release`, the element build;
//! 2. sizes: the page's and the element's files, gzip -9 and brotli 11, per file;
//! 3. the core benchmark (`agent-chat-core/benches/core.rs`, native, the sans-IO core alone);
//! 4. the browser benchmark (`dev-server/benches/browser.rs`, headless Chromium): opening and
//!    paging a 1,000-message conversation, streaming a long answer.
//!
//! Nothing here passes or fails on a number: timings depend on the machine and its load, so
//! they are reported (median and worst of `BENCH_RUNS`, default 5), never asserted. The
//! command fails only when a step cannot run.

use std::{fs, path::Path, process::ExitCode};

use crate::{element, run, setup, Ctx};

/// Entry point of `cargo xtask bench`.
pub fn main(ctx: &Ctx) -> ExitCode {
    let tools = setup::ensure(ctx);
    if !tools.page_ready() {
        eprintln!("[bench] a tool is missing (see the [setup] lines above)");
        return ExitCode::FAILURE;
    }
    let Some(chromedriver) = tools.chromedriver.clone() else {
        eprintln!("[bench] chromedriver is missing (see the [setup] lines above)");
        return ExitCode::FAILURE;
    };
    let mut ok = step("trunk build --release", ctx.trunk_build());
    if !ok {
        return ExitCode::FAILURE;
    }
    let element = match element::build(ctx) {
        Ok(sizes) => Some(sizes),
        Err(msg) => {
            eprintln!("[bench] element build failed: {msg}");
            None
        }
    };

    println!("\n## Sizes (gzip -9, brotli 11)\n");
    println!("| what | file | gzip | brotli |\n|---|---|---|---|");
    let kb = |b: u64| format!("{:.1} KB", b as f64 / 1024.0);
    let on_first_use = |name: &str| {
        if crate::split::is_chunk(name) {
            " (on first use)"
        } else {
            ""
        }
    };
    match page_files(&ctx.dist()) {
        Ok(files) => {
            for f in &files {
                println!(
                    "| page{} | {} | {} | {} |",
                    on_first_use(&f.name),
                    f.name,
                    kb(f.gzip),
                    kb(f.brotli)
                );
            }
            let page = element::Sizes { files };
            println!(
                "| **page, first download** | {} files | **{}** | {} |",
                page.first().count(),
                kb(page.total()),
                kb(page.total_brotli())
            );
            println!(
                "| **page, whole** | {} files | **{}** | {} |",
                page.files.len(),
                kb(page.whole()),
                kb(page.whole_brotli())
            );
        }
        Err(msg) => {
            eprintln!("[bench] {msg}");
            ok = false;
        }
    }
    match element {
        Some(s) => {
            for f in &s.files {
                println!(
                    "| element{} | {} | {} | {} |",
                    on_first_use(&f.name),
                    f.name,
                    kb(f.gzip),
                    kb(f.brotli)
                );
            }
            println!(
                "| **element, first download** | {} files | **{}** (budget {}) | {} |",
                s.first().count(),
                kb(s.total()),
                kb(element::BUDGET_BYTES),
                kb(s.total_brotli())
            );
            println!(
                "| **element, whole** | {} files | **{}** | {} |",
                s.files.len(),
                kb(s.whole()),
                kb(s.whole_brotli())
            );
        }
        None => ok = false,
    }

    ok &= step(
        "core benchmark (native)",
        ctx.cargo(["bench", "-p", "agent-chat-core", "--bench", "core"]),
    );
    // The dev profile for the driver side: what is measured runs in Chromium, and the debug
    // build of dev-server's test dependencies already exists after `cargo xtask test`.
    let mut browser = ctx.cargo([
        "bench",
        "-p",
        "dev-server",
        "--features",
        "e2e",
        "--bench",
        "browser",
        "--profile",
        "dev",
    ]);
    browser
        .env("AGENT_CHAT_DIST", ctx.dist())
        .env("CHROMEDRIVER", chromedriver);
    ok &= step("browser benchmark (headless Chromium)", browser);
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Runs `cmd`, saying what it runs; true on success.
fn step(name: &str, mut cmd: std::process::Command) -> bool {
    println!("[bench] {name}: $ {}", run::display(&cmd));
    match run::status(&mut cmd) {
        Ok(st) if st.success() => true,
        Ok(st) => {
            eprintln!("[bench] {name} failed: {st}");
            false
        }
        Err(msg) => {
            eprintln!("[bench] {name}: {msg}");
            false
        }
    }
}

/// The page's `.wasm`, `.js` and `.css` files (its snippets and chunks too; not the element's,
/// the examples' or the npm check's files that share `dist/`), with their sizes.
fn page_files(dist: &Path) -> Result<Vec<element::FileSize>, String> {
    let mut files = Vec::new();
    collect(dist, dist, &mut files)?;
    if files.is_empty() {
        return Err(format!("no wasm/js/css in {}", dist.display()));
    }
    files.sort_by_key(|f| (!f.name.ends_with(".wasm"), f.name.clone()));
    Ok(files)
}

fn collect(base: &Path, dir: &Path, out: &mut Vec<element::FileSize>) -> Result<(), String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("reading {}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        let name = path
            .strip_prefix(base)
            .unwrap_or(&path)
            .display()
            .to_string();
        if path.is_dir() {
            if !matches!(name.as_str(), "element" | "examples" | "npm-check") {
                collect(base, &path, out)?;
            }
            continue;
        }
        let counted = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| matches!(e, "wasm" | "js" | "css"));
        if counted {
            out.push(element::FileSize {
                name,
                raw: fs::metadata(&path).map_or(0, |m| m.len()),
                gzip: element::gzip_size(&path)?,
                brotli: element::brotli_size(&path)?,
            });
        }
    }
    Ok(())
}
