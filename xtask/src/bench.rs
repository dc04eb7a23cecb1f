//! `cargo xtask bench`: sizes and timings, printed as Markdown tables (README "Benchmarks").
//!
//! 1. setup (the same tools as `test`), `trunk build --release`, the element build;
//! 2. sizes: the page's and the element's files, gzip -9;
//! 3. the core benchmark (`benches/core.rs`, native, the sans-IO core alone);
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

    println!("\n## Sizes (gzip -9)\n");
    println!("| what | files | gzip |\n|---|---|---|");
    match page_size(&ctx.dist()) {
        Ok((files, bytes)) => println!(
            "| standalone page (dist/) | {files} | {:.1} KB |",
            bytes as f64 / 1024.0
        ),
        Err(msg) => {
            eprintln!("[bench] {msg}");
            ok = false;
        }
    }
    match element {
        Some(s) => println!(
            "| `<agent-chat>` element (wasm + js; css is inside the wasm) | 2 | {:.1} KB (budget {:.0} KB) |",
            s.total() as f64 / 1024.0,
            element::BUDGET_BYTES as f64 / 1024.0
        ),
        None => ok = false,
    }

    ok &= step(
        "core benchmark (native)",
        ctx.cargo([
            "bench",
            "-p",
            "agent-chat-ui",
            "--no-default-features",
            "--bench",
            "core",
        ]),
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

/// Number of `.wasm`, `.js` and `.css` files at the top of `dist` and their gzip size in all.
fn page_size(dist: &Path) -> Result<(usize, u64), String> {
    let entries = fs::read_dir(dist).map_err(|e| format!("reading {}: {e}", dist.display()))?;
    let mut files = 0;
    let mut bytes = 0;
    for entry in entries.flatten() {
        let path = entry.path();
        let counted = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| matches!(e, "wasm" | "js" | "css"));
        if counted && path.is_file() {
            files += 1;
            bytes += element::gzip_size(&path)?;
        }
    }
    if files == 0 {
        return Err(format!("no wasm/js/css in {}", dist.display()));
    }
    Ok((files, bytes))
}
