//! `cargo xtask`: the only commands a newcomer needs (`setup`, `demo`, `test`, `bench`).
//!
//! Plain std on purpose: the xtask must build in seconds on a fresh checkout, before any of
//! the tools it installs exist. `cargo xtask` is an alias in `.cargo/config.toml` for
//! `cargo run --package xtask --`.

mod bench;
mod compress;
mod demo;
mod docs;
mod element;
mod first_chunks;
mod fuzz;
mod install;
mod npm;
mod page;
mod run;
mod setup;
mod shell;
mod shorten;
mod split;
mod test;
mod unexport;
mod wasm_module;

use std::{
    env,
    ffi::OsStr,
    fs,
    path::{Path, PathBuf},
    process::{Command, ExitCode},
};

/// Printed for `help`, `--help`, no arguments and unknown subcommands.
const USAGE: &str = "\
usage: cargo xtask <command>

commands:
  setup               install what is missing (wasm32 target, wasm-bindgen-cli, trunk,
                      wasm-split-cli, cargo-fuzz, wasm-opt via npm, chromium +
                      chromedriver), then `cargo fetch`
  demo [--port N]     setup, build the page with Trunk, serve it with the dev-server
                      on http://127.0.0.1:N/ (default port 8080)
  element             build the <agent-chat> custom element into dist/element
                      (one JS module + wasm) and the npm package
                      (packages/agent-chat: packed, installed into
                      dist/npm-check, type-checked), print each file's gzip
                      and brotli size; fails when the first download is over
                      its budget
  test                setup, fmt, clippy (native + wasm32), native tests, a short fuzz
                      run, browser tests, trunk build, element build, npm package
                      check, end-to-end test;
                      prints `N passed, M failed`
  bench               setup, trunk build, element build; then sizes (gzip) and timings:
                      the core (SSE, streaming Markdown) and the browser (opening and
                      paging a 1,000-message conversation, streaming a long answer);
                      printed as Markdown tables, never pass/fail on a number
  fuzz --minutes N    every cargo-fuzz target for N minutes each, one after the
                      other; prints each target's runs and crashes (a crash's input
                      is kept in fuzz/artifacts/<target>/)
  docs                write docs/decisions/README.md (the decisions' index) from the
                      decision files and report broken links between the Markdown
                      files (`cargo test -p xtask` fails on either)
  split-page          Trunk's post_build hook (Trunk.toml): cuts the page's lazy
                      chunks out of its wasm, like the element's (D67)

environment:
  CI=true             print tool versions first
  CHROMEDRIVER=path   chromedriver to use (default: `chromedriver` on PATH)
  FUZZ_SECONDS=N      `test`: seconds per fuzz target (default 20; 0 skips the step)
  BENCH_RUNS=N        `bench`: repetitions per measure (default 5)
";

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    let ctx = Ctx::new();
    match args.first().map(String::as_str) {
        Some("setup") if args.len() == 1 => setup::main(&ctx),
        Some("demo") => match demo::parse_port(&args[1..]) {
            Ok(port) => demo::main(&ctx, port),
            Err(msg) => usage_error(&msg),
        },
        Some("test") if args.len() == 1 => test::main(&ctx),
        Some("element") if args.len() == 1 => {
            let tools = setup::ensure(&ctx);
            if !tools.page_ready() {
                eprintln!("[element] a tool is missing (see the [setup] lines above)");
                return ExitCode::FAILURE;
            }
            let built = element::main(&ctx);
            if built != ExitCode::SUCCESS || !tools.typescript {
                return built;
            }
            match npm::check(&ctx) {
                Ok(dir) => {
                    println!("[npm] installed, type-checked; page in {}", dir.display());
                    ExitCode::SUCCESS
                }
                Err(msg) => {
                    eprintln!("[npm] {msg}");
                    ExitCode::FAILURE
                }
            }
        }
        Some("bench") if args.len() == 1 => bench::main(&ctx),
        Some("fuzz") => match fuzz::parse_minutes(&args[1..]) {
            Ok(minutes) => fuzz::main(&ctx, minutes),
            Err(msg) => usage_error(&msg),
        },
        Some("split-page") if args.len() == 1 => page::main(&ctx),
        Some("docs") if args.len() == 1 => docs::main(&ctx),
        None | Some("help" | "-h" | "--help") => {
            print!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some(other) => usage_error(&format!(
            "unknown command or arguments: {other} {}",
            args[1..].join(" ")
        )),
    }
}

/// Prints `msg` and the usage text, and returns the usage exit code (2).
fn usage_error(msg: &str) -> ExitCode {
    eprintln!("error: {}\n", msg.trim_end());
    eprint!("{USAGE}");
    ExitCode::from(2)
}

/// Paths shared by every subcommand, and a factory for child processes that see them.
#[derive(Clone)]
pub struct Ctx {
    /// The workspace root (parent of `xtask/`).
    pub root: PathBuf,
    /// The `cargo` that runs us (`$CARGO`), so children use the same toolchain.
    pub cargo: PathBuf,
    /// `PATH` for children: `node_modules/.bin` and cargo's bin dir first, so Trunk finds the
    /// pinned wasm-opt and wasm-bindgen even on a shell that never sourced `~/.cargo/env`.
    pub path: std::ffi::OsString,
}

impl Ctx {
    /// Works out the root from where this crate was compiled and builds the child `PATH`.
    fn new() -> Self {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("xtask lives one level below the workspace root")
            .to_path_buf();
        let cargo = env::var_os("CARGO").map_or_else(|| PathBuf::from("cargo"), PathBuf::from);
        let mut dirs = vec![root.join("node_modules").join(".bin"), cargo_bin_dir()];
        dirs.extend(env::var_os("PATH").iter().flat_map(env::split_paths));
        let path = env::join_paths(dirs).expect("PATH entries contain no separator");
        Ctx { root, cargo, path }
    }

    /// A command for `program`, run in the root with the tool `PATH`, and without the
    /// `CARGO_PKG_*`-style variables `cargo run` gave us (they describe xtask, not the child).
    pub fn command(&self, program: impl AsRef<OsStr>) -> Command {
        let mut cmd = Command::new(program);
        cmd.current_dir(&self.root).env("PATH", &self.path);
        if env::var("CI").is_ok_and(|v| v == "true") {
            // A clean clone is built once: incremental data would only fill the disk (about
            // 2.7 GB of the ~7 GB a full run leaves) and slow each compile a little.
            cmd.env("CARGO_INCREMENTAL", "0");
        }
        for (key, _) in env::vars_os() {
            let key = key.to_string_lossy();
            let from_cargo_run = key.starts_with("CARGO_PKG_")
                || key.starts_with("CARGO_MANIFEST_")
                || matches!(
                    key.as_ref(),
                    "CARGO_CRATE_NAME" | "CARGO_BIN_NAME" | "CARGO_PRIMARY_PACKAGE"
                );
            if from_cargo_run {
                cmd.env_remove(key.as_ref());
            }
        }
        cmd
    }

    /// `cargo <args>` with the same cargo that runs us.
    pub fn cargo<I, S>(&self, args: I) -> Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut cmd = self.command(&self.cargo);
        cmd.args(args);
        cmd
    }

    /// The build's target dir: `$CARGO_TARGET_DIR`, or `target/` in the root.
    pub fn target_dir(&self) -> PathBuf {
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| self.root.join("target"), PathBuf::from)
    }

    /// Where Trunk writes the page (`dist/`, Trunk's default).
    pub fn dist(&self) -> PathBuf {
        self.root.join("dist")
    }

    /// `trunk build --release`, with the tool `PATH` so it finds the pinned wasm-opt, and the
    /// flags of a shipped wasm (`split::shipping`).
    pub fn trunk_build(&self) -> Command {
        let mut cmd = self.command("trunk");
        cmd.args(["build", "--release"]);
        split::shipping(&mut cmd);
        cmd
    }
}

/// `$CARGO_HOME`, or `~/.cargo`.
pub fn cargo_home() -> PathBuf {
    env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| env::var_os("HOME").map(|home| PathBuf::from(home).join(".cargo")))
        .unwrap_or_else(|| PathBuf::from(".cargo"))
}

/// `$CARGO_HOME/bin`, or `~/.cargo/bin`, where `cargo install` puts binaries.
pub fn cargo_bin_dir() -> PathBuf {
    cargo_home().join("bin")
}

/// Removes what an earlier `cargo package` of the workspace left unpacked in cargo's registry
/// sources: packaging the two crates together publishes the core to a temporary registry
/// and unpacks it under `$CARGO_HOME/registry/src/`, and a later run with the same version
/// reuses that copy instead of the core as it is now, so the UI crate would be checked
/// against old code (or fail on a file the old copy lacks). Neither crate comes from
/// crates.io here, so every unpacked copy of one of them is such a leftover. Returns the
/// directories removed.
pub fn forget_unpacked_workspace_crates(cargo_home: &Path) -> Vec<PathBuf> {
    let mut removed = Vec::new();
    let Ok(registries) = fs::read_dir(cargo_home.join("registry").join("src")) else {
        return removed;
    };
    for registry in registries.flatten() {
        let Ok(crates) = fs::read_dir(registry.path()) else {
            continue;
        };
        for unpacked in crates.flatten() {
            let name = unpacked.file_name().to_string_lossy().into_owned();
            let ours = ["agent-chat-core-", "agent-chat-ui-"].iter().any(|prefix| {
                name.strip_prefix(prefix)
                    .is_some_and(|v| v.starts_with(|c: char| c.is_ascii_digit()))
            });
            if ours && fs::remove_dir_all(unpacked.path()).is_ok() {
                removed.push(unpacked.path());
            }
        }
    }
    removed
}

/// The first executable called `name` on `path` (like `which`).
pub fn which(name: &str, path: &OsStr) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    env::split_paths(path)
        .map(|dir| dir.join(name))
        .find(|candidate| {
            candidate
                .metadata()
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only unpacked copies of the workspace's own crates go; crates.io's stay.
    #[test]
    fn a_packaged_cores_leftover_is_forgotten_and_nothing_else() {
        let home = env::temp_dir().join(format!("xtask-cargo-home-{}", std::process::id()));
        let local = home.join("registry/src/-19325d760f5a1098");
        let io = home.join("registry/src/index.crates.io-1949cf8c6b5b557f");
        for dir in [
            local.join("agent-chat-core-0.1.0/src"),
            local.join("agent-chat-ui-0.1.0"),
            io.join("serde-1.0.228"),
            io.join("agent-chat-core-tools"),
        ] {
            fs::create_dir_all(&dir).unwrap();
        }
        let mut removed = forget_unpacked_workspace_crates(&home);
        removed.sort();
        assert_eq!(
            removed,
            vec![
                local.join("agent-chat-core-0.1.0"),
                local.join("agent-chat-ui-0.1.0")
            ]
        );
        assert!(io.join("serde-1.0.228").is_dir());
        assert!(io.join("agent-chat-core-tools").is_dir());
        assert!(forget_unpacked_workspace_crates(&home.join("nowhere")).is_empty());
        fs::remove_dir_all(&home).unwrap();
    }
}
