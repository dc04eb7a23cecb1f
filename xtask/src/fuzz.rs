//! `cargo xtask fuzz --minutes N`: every cargo-fuzz target for N minutes each, for the long
//! runs docs/benchmarks.md records (CI runs each one briefly, through `cargo xtask test`).

use std::{
    fs,
    process::{Command, ExitCode},
    time::Instant,
};

use crate::Ctx;

/// The cargo-fuzz targets in `fuzz/fuzz_targets/`; each has seeds in `fuzz/seeds/<target>/`.
/// Every decoder of server bytes has one: each backend's stream decoder and whole-reply
/// reader, the Markdown parser, `json_slices`, and the readers of a server's refusal.
pub const FUZZ_TARGETS: [&str; 14] = [
    "sse_decoder",
    "wire_types",
    "args_schema",
    "schema_2020",
    "chat_completions_stream",
    "responses_stream",
    "a2a_stream",
    "cogitator_stream",
    "ai_sdk_stream",
    "ag_ui_stream",
    "langgraph_stream",
    "markdown",
    "json_slices",
    "error_bodies",
];

/// `cargo fuzz run <target>` for `seconds`, over the committed seeds; new inputs go to the
/// git-ignored `fuzz/corpus/<target>`. Stable Rust runs cargo-fuzz's nightly-only flags with
/// `RUSTC_BOOTSTRAP=1`.
pub fn fuzz_command(ctx: &Ctx, target: &str, seconds: u64) -> Command {
    let corpus = format!("fuzz/corpus/{target}");
    let _ = fs::create_dir_all(ctx.root.join(&corpus));
    let mut cmd = fuzz_cargo(ctx, &["fuzz", "run", target]);
    cmd.args([corpus, format!("fuzz/seeds/{target}")])
        .args(["--", &format!("-max_total_time={seconds}")]);
    cmd
}

/// `cargo fuzz build`: every target in one cargo run, so the instrumented core is compiled
/// once and the targets link side by side; a later `cargo fuzz run` of any of them finds it
/// built (the same flags).
pub fn fuzz_build_command(ctx: &Ctx) -> Command {
    fuzz_cargo(ctx, &["fuzz", "build"])
}

/// `cargo <args>` in cargo-fuzz's setting: `RUSTC_BOOTSTRAP=1`, and its own target dir
/// (`fuzz/target`) even when the main build's is moved, since the instrumented flags would
/// otherwise rebuild everything there.
fn fuzz_cargo(ctx: &Ctx, args: &[&str]) -> Command {
    let mut cmd = ctx.cargo(args);
    cmd.env("RUSTC_BOOTSTRAP", "1")
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET_DIR");
    cmd
}

/// Reads `--minutes N` (N ≥ 1).
pub fn parse_minutes(args: &[String]) -> Result<u64, String> {
    match args {
        [flag, n] if flag == "--minutes" => match n.parse::<u64>() {
            Ok(m) if m >= 1 => Ok(m),
            _ => Err(format!(
                "--minutes takes a whole number of minutes ≥ 1, not {n:?}"
            )),
        },
        _ => Err("fuzz takes --minutes N".to_owned()),
    }
}

/// Runs every target for `minutes`; fails when one crashed or could not run.
pub fn main(ctx: &Ctx, minutes: u64) -> ExitCode {
    let mut failed = Vec::new();
    for target in FUZZ_TARGETS {
        println!("[fuzz] {target}: {minutes} min");
        let started = Instant::now();
        let status = fuzz_command(ctx, target, minutes * 60).status();
        let took = started.elapsed().as_secs();
        match status {
            Ok(s) if s.success() => println!("[fuzz] {target}: 0 crashes in {took} s"),
            Ok(s) => {
                println!(
                    "[fuzz] {target}: FAILED ({s}) after {took} s; see fuzz/artifacts/{target}/"
                );
                failed.push(target);
            }
            Err(e) => {
                println!("[fuzz] {target}: could not run cargo fuzz: {e}");
                failed.push(target);
            }
        }
    }
    if failed.is_empty() {
        println!(
            "[fuzz] {} targets, {minutes} min each, 0 crashes",
            FUZZ_TARGETS.len()
        );
        ExitCode::SUCCESS
    } else {
        println!("[fuzz] failed: {}", failed.join(", "));
        ExitCode::FAILURE
    }
}
