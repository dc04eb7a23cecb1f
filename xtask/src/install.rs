//! The four tools `cargo install` builds from crates.io (wasm-bindgen-cli, Trunk,
//! wasm-split-cli, cargo-fuzz): found, or built in the background while the run goes on.
//!
//! On a fresh machine these builds are the longest wait of `cargo xtask test`: about 1,100
//! CPU-seconds with each tool's own release profile. Two things shorten the wait:
//! - a light profile for all four (no LTO, 16 codegen units, no debug information,
//!   optimisation level 1 or 0), and Trunk without its TLS and update-check features (Trunk.toml sets
//!   `offline = true`: it downloads nothing). The tools read and write files a few times per
//!   build; a run never waits on their own speed, only on the compilers they start.
//! - they build while the steps that need none of them run (fmt, clippy, rustdoc, cargo
//!   package, the native tests): [`begin`] starts them, [`Installs::finish`] waits.
//!
//! A build's output goes to a log file, printed whole when that install fails: four builds'
//! lines interleaved with a step's would help no one.

use std::{
    fs,
    io::Write,
    path::PathBuf,
    process::Stdio,
    thread::JoinHandle,
    time::{Duration, Instant},
};

use crate::{run, Ctx};

/// The Trunk release the page is built with.
pub const TRUNK_VERSION: &str = "0.21.14";
/// The wasm-split-cli release (crate `wasm_split_cli_support`) that cuts the element's and the
/// page's lazy chunks out of the main wasm (D67). It must read what the `wasm_split_helpers`
/// crate in Cargo.lock (Leptos' dependency) writes.
pub const WASM_SPLIT_VERSION: &str = "0.2.4";
/// The cargo-fuzz release the fuzz targets (`fuzz/`) are run with.
pub const CARGO_FUZZ_VERSION: &str = "0.13.2";
/// The wasm-bindgen CLI must equal the `wasm-bindgen` crate in Cargo.lock; this is used only
/// when Cargo.lock can't be read.
const WASM_BINDGEN_FALLBACK: &str = "0.2.130";

/// The release profile every tool is built with, as cargo's environment overrides (they win
/// over a package's own `[profile.release]`, such as Trunk's fat LTO in one codegen unit);
/// the optimisation level is each tool's own ([`Tool::opt_level`]).
const LIGHT_PROFILE: [(&str, &str); 3] = [
    ("CARGO_PROFILE_RELEASE_LTO", "false"),
    ("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16"),
    ("CARGO_PROFILE_RELEASE_DEBUG", "false"),
];

/// One of the cargo-installed tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// wasm-bindgen-cli at exactly the version of the `wasm-bindgen` crate in Cargo.lock: any
    /// other version refuses to process the wasm (schema mismatch).
    WasmBindgen,
    /// Trunk at [`TRUNK_VERSION`].
    Trunk,
    /// wasm-split-cli at [`WASM_SPLIT_VERSION`].
    WasmSplit,
    /// cargo-fuzz at [`CARGO_FUZZ_VERSION`]; it runs on the stable toolchain because the fuzz
    /// step sets `RUSTC_BOOTSTRAP=1` (docs/development.md, "Fuzzing").
    CargoFuzz,
}

impl Tool {
    /// All four, in the order their lines are printed.
    pub const ALL: [Tool; 4] = [
        Tool::WasmBindgen,
        Tool::Trunk,
        Tool::WasmSplit,
        Tool::CargoFuzz,
    ];

    /// `name version`, for the `[setup]` lines.
    fn label(self, ctx: &Ctx) -> String {
        match self {
            Tool::WasmBindgen => format!("wasm-bindgen-cli {}", wasm_bindgen_version(ctx)),
            Tool::Trunk => format!("trunk {TRUNK_VERSION}"),
            Tool::WasmSplit => format!("wasm-split-cli {WASM_SPLIT_VERSION}"),
            Tool::CargoFuzz => format!("cargo-fuzz {CARGO_FUZZ_VERSION}"),
        }
    }

    /// `Ok` when the wanted version is installed; otherwise what was found instead, if any.
    fn present(self, ctx: &Ctx) -> Result<(), Option<String>> {
        let version_line = |found: Option<String>, wanted: String| match found {
            Some(line) if line == wanted => Ok(()),
            other => Err(other),
        };
        match self {
            Tool::WasmBindgen => version_line(
                run::first_line(ctx.command("wasm-bindgen").arg("--version")),
                format!("wasm-bindgen {}", wasm_bindgen_version(ctx)),
            ),
            Tool::Trunk => version_line(
                run::first_line(ctx.command("trunk").arg("--version")),
                format!("trunk {TRUNK_VERSION}"),
            ),
            // wasm-split-cli has no `--version`: cargo's list of installed packages says which
            // release is there.
            Tool::WasmSplit => {
                let wanted = format!("wasm_split_cli_support v{WASM_SPLIT_VERSION}:");
                let listed = ctx
                    .cargo(["install", "--list"])
                    .output()
                    .map(|out| String::from_utf8_lossy(&out.stdout).into_owned())
                    .unwrap_or_default();
                if listed.lines().any(|l| l == wanted) {
                    Ok(())
                } else {
                    Err(None)
                }
            }
            Tool::CargoFuzz => version_line(
                run::first_line(&mut ctx.cargo(["fuzz", "--version"])),
                format!("cargo-fuzz {CARGO_FUZZ_VERSION}"),
            ),
        }
    }

    /// The optimisation level it is built at: 1 for the two that rewrite large wasm files
    /// (wasm-bindgen reads every 40 MB test wasm; level 1 does it as fast as level 3), 0 for
    /// the two that mostly start other programs.
    fn opt_level(self) -> &'static str {
        match self {
            Tool::WasmBindgen | Tool::WasmSplit => "1",
            Tool::Trunk | Tool::CargoFuzz => "0",
        }
    }

    /// The `cargo install` arguments, the pinned version last.
    fn install_args(self, ctx: &Ctx) -> Vec<String> {
        let (args, version): (&[&str], String) = match self {
            // No `--locked`: the CLI's own lock file of that release does not build on current
            // Rust.
            Tool::WasmBindgen => (&["wasm-bindgen-cli"], wasm_bindgen_version(ctx)),
            Tool::Trunk => (
                &["trunk", "--locked", "--no-default-features"],
                TRUNK_VERSION.to_owned(),
            ),
            Tool::WasmSplit => (
                &[
                    "wasm_split_cli_support",
                    "--features",
                    "build-binary",
                    "--locked",
                ],
                WASM_SPLIT_VERSION.to_owned(),
            ),
            Tool::CargoFuzz => (&["cargo-fuzz", "--locked"], CARGO_FUZZ_VERSION.to_owned()),
        };
        std::iter::once("install")
            .chain(args.iter().copied())
            .chain(["--version"])
            .map(str::to_owned)
            .chain([version])
            .collect()
    }
}

/// The version of the `wasm-bindgen` crate in Cargo.lock, which the CLI must match.
fn wasm_bindgen_version(ctx: &Ctx) -> String {
    crate::setup::locked_version(ctx, "wasm-bindgen")
        .unwrap_or_else(|| WASM_BINDGEN_FALLBACK.to_owned())
}

/// A tool found at once, or its build under way.
enum Job {
    /// Checked: present (or could not be installed).
    Done(bool),
    /// `cargo install` running on its own thread; `true` when the tool is there afterwards.
    Building(JoinHandle<bool>),
}

/// The four tools, found or being built; [`Installs::finish`] waits for the builds.
pub struct Installs {
    /// One job per [`Tool::ALL`] entry, in that order.
    jobs: Vec<(Tool, Job)>,
}

/// What [`Installs::finish`] found: whether each tool is usable, and how long it waited.
#[derive(Debug, Clone, Copy, Default)]
pub struct Installed {
    /// wasm-bindgen-cli matches Cargo.lock.
    pub wasm_bindgen: bool,
    /// Trunk is [`TRUNK_VERSION`].
    pub trunk: bool,
    /// wasm-split-cli is [`WASM_SPLIT_VERSION`].
    pub wasm_split: bool,
    /// cargo-fuzz is [`CARGO_FUZZ_VERSION`].
    pub cargo_fuzz: bool,
    /// Time spent waiting in `finish` for builds still running.
    pub waited: Duration,
}

/// Checks the four tools and starts a `cargo install` for each one missing; returns at once.
pub fn begin(ctx: &Ctx) -> Installs {
    let jobs = Tool::ALL
        .into_iter()
        .map(|tool| {
            let label = tool.label(ctx);
            let job = match tool.present(ctx) {
                Ok(()) => {
                    println!("[setup] {label}: present");
                    Job::Done(true)
                }
                Err(found) => {
                    let found = found.map(|f| format!("found `{f}`, ")).unwrap_or_default();
                    println!("[setup] {label}: {found}building in the background");
                    let ctx = ctx.clone();
                    Job::Building(std::thread::spawn(move || build(&ctx, tool, &label)))
                }
            };
            (tool, job)
        })
        .collect();
    Installs { jobs }
}

impl Installs {
    /// Waits for the builds still running; says how long it waited when it did.
    pub fn finish(self) -> Installed {
        let started = Instant::now();
        let mut done = Installed::default();
        let mut waited_for = Vec::new();
        for (tool, job) in self.jobs {
            let ok = match job {
                Job::Done(ok) => ok,
                Job::Building(handle) => {
                    if !handle.is_finished() {
                        waited_for.push(format!("{tool:?}"));
                    }
                    handle.join().unwrap_or(false)
                }
            };
            match tool {
                Tool::WasmBindgen => done.wasm_bindgen = ok,
                Tool::Trunk => done.trunk = ok,
                Tool::WasmSplit => done.wasm_split = ok,
                Tool::CargoFuzz => done.cargo_fuzz = ok,
            }
        }
        done.waited = started.elapsed();
        if !waited_for.is_empty() {
            println!(
                "[setup] waited {} for the builds of {}",
                run::fmt_duration(done.waited),
                waited_for.join(", ")
            );
        }
        done
    }
}

/// `cargo install` of `tool` with the light profile, its output in a log file; prints one line
/// when done (the log too, when it failed) and reports whether the tool is there now.
fn build(ctx: &Ctx, tool: Tool, label: &str) -> bool {
    let started = Instant::now();
    let log = log_path(tool);
    let mut cmd = ctx.cargo(tool.install_args(ctx));
    cmd.envs(LIGHT_PROFILE)
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", tool.opt_level())
        // Its own temporary target dir: the main one is locked by the steps running meanwhile.
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET_DIR")
        .stdin(Stdio::null());
    let ran = fs::File::create(&log)
        .and_then(|out| {
            let err = out.try_clone()?;
            cmd.stdout(out).stderr(err).status()
        })
        .map_err(|e| format!("could not run `{}`: {e}", run::display(&cmd)));
    let ok = matches!(&ran, Ok(st) if st.success()) && tool.present(ctx).is_ok();
    let took = run::fmt_duration(started.elapsed());
    if ok {
        println!("[setup] {label}: installed in {took}");
    } else {
        let why = match ran {
            Ok(st) => st.to_string(),
            Err(e) => e,
        };
        // One write, so the log is not cut by a step's lines.
        let text = fs::read_to_string(&log).unwrap_or_default();
        let _ = std::io::stdout().write_all(
            format!(
                "[setup] {label}: FAILED ({why}) after {took}; `{}` printed:\n{text}",
                run::display(&cmd)
            )
            .as_bytes(),
        );
    }
    ok
}

/// Where a tool's build writes its output.
fn log_path(tool: Tool) -> PathBuf {
    std::env::temp_dir().join(format!("xtask-install-{}-{tool:?}.log", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_is_installed_at_its_pinned_version() {
        let ctx = Ctx::new();
        for tool in Tool::ALL {
            let args = tool.install_args(&ctx);
            let at = args.iter().position(|a| a == "--version").expect("pinned");
            assert_eq!(
                args.len(),
                at + 2,
                "{tool:?}: the version follows --version and ends the arguments: {args:?}"
            );
            assert!(
                args[at + 1]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_digit()),
                "{tool:?}: {args:?}"
            );
            assert!(tool.label(&ctx).ends_with(&args[at + 1]), "{tool:?}");
        }
    }
}
