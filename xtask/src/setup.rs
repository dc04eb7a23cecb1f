//! `cargo xtask setup`: finds the pinned tools and installs what is missing, saying so.
//!
//! Idempotent: a second run only prints `present` lines and a quiet `cargo fetch`. Tools come
//! only from crates.io, npm and apt, because Trunk's own download of wasm-bindgen/wasm-opt
//! from GitHub is not reachable everywhere (Trunk.toml sets `offline = true`).

use std::{
    fs,
    path::{Path, PathBuf},
    process::{Command, ExitCode},
};

use crate::{install, run, split, which, Ctx};

/// binaryen release pinned in package.json. Debian's binaryen 108 miscompiles the page.
const WASM_OPT_VERSION: &str = "132";
/// axe-core release pinned in package.json; the end-to-end journeys inject its `axe.min.js`.
const AXE_CORE_VERSION: &str = "4.11.1";
/// TypeScript release pinned in package.json; type-checks a consumer of the npm package.
pub const TYPESCRIPT_VERSION: &str = "5.6.3";
/// terser release pinned in package.json; minifies the element's and the page's scripts.
const TERSER_VERSION: &str = "5.51.4";
/// The browser target.
const WASM_TARGET: &str = "wasm32-unknown-unknown";

/// What `setup` found usable after it ran.
#[derive(Debug, Default, Clone)]
pub struct Tools {
    /// `rustup target add wasm32-unknown-unknown` done.
    pub wasm_target: bool,
    /// The toolchain's `rust-src`, which a shipped wasm's standard library is rebuilt from.
    pub rust_src: bool,
    /// `wasm-bindgen --version` matches Cargo.lock.
    pub wasm_bindgen: bool,
    /// `trunk --version` is [`crate::install::TRUNK_VERSION`].
    pub trunk: bool,
    /// wasm-split-cli of [`crate::install::WASM_SPLIT_VERSION`] is installed.
    pub wasm_split: bool,
    /// `node_modules/.bin/wasm-opt` is binaryen 132 and `node_modules/terser` is
    /// [`TERSER_VERSION`] (the build's two npm tools).
    pub wasm_opt: bool,
    /// `node_modules/axe-core` is [`AXE_CORE_VERSION`] and has `axe.min.js` (end-to-end checks).
    pub axe_core: bool,
    /// `node_modules/typescript` is [`TYPESCRIPT_VERSION`] (the npm package's type check).
    pub typescript: bool,
    /// The Chromium binary, if any.
    pub chromium: Option<PathBuf>,
    /// The chromedriver binary, if any (`$CHROMEDRIVER` wins over `PATH`).
    pub chromedriver: Option<PathBuf>,
    /// `cargo fetch` succeeded, so offline Trunk builds can resolve every crate.
    pub fetched: bool,
    /// `cargo fuzz --version` is [`crate::install::CARGO_FUZZ_VERSION`].
    pub cargo_fuzz: bool,
    /// `test-servers/node_modules` installed from its lock file (the agent frameworks' own
    /// servers the e2e `frameworks` journeys talk to).
    pub test_servers: bool,
}

impl Tools {
    /// Everything `trunk build --release` needs.
    pub fn page_ready(&self) -> bool {
        self.wasm_target
            && self.rust_src
            && self.wasm_bindgen
            && self.trunk
            && self.wasm_split
            && self.wasm_opt
            && self.fetched
    }

    /// Everything the wasm-bindgen-test runner needs besides the page tools.
    pub fn browser_tests_ready(&self) -> bool {
        self.wasm_target
            && self.wasm_bindgen
            && self.fetched
            && self.chromium.is_some()
            && self.chromedriver.is_some()
    }

    /// Nothing is missing.
    pub fn all_ready(&self) -> bool {
        self.page_ready()
            && self.browser_tests_ready()
            && self.cargo_fuzz
            && self.axe_core
            && self.test_servers
    }
}

/// Entry point of `cargo xtask setup`: non-zero when something is still missing.
pub fn main(ctx: &Ctx) -> ExitCode {
    let tools = ensure(ctx);
    if tools.all_ready() {
        println!("[setup] all tools present");
        ExitCode::SUCCESS
    } else {
        println!("[setup] some tools are missing (see the lines above)");
        ExitCode::FAILURE
    }
}

/// Checks every tool, installs what is missing and reports what is usable now.
pub fn ensure(ctx: &Ctx) -> Tools {
    begin(ctx).finish()
}

/// The tools checked so far, and the cargo-installed ones still building (see [`begin`]).
pub struct Setup {
    /// Everything but the four cargo-installed tools, final.
    tools: Tools,
    /// wasm-bindgen-cli, Trunk, wasm-split-cli and cargo-fuzz, found or building.
    installs: install::Installs,
}

impl Setup {
    /// The tools checked so far: the four cargo-installed ones read `false` until
    /// [`Setup::finish`].
    pub fn so_far(&self) -> &Tools {
        &self.tools
    }

    /// Whether everything but the cargo-installed tools is there (they are still building).
    pub fn ready_but_the_builds(&self) -> bool {
        Tools {
            wasm_bindgen: true,
            trunk: true,
            wasm_split: true,
            cargo_fuzz: true,
            ..self.tools.clone()
        }
        .all_ready()
    }

    /// Waits for the cargo installs still running and returns every tool's state.
    pub fn finish(self) -> Tools {
        let installed = self.installs.finish();
        Tools {
            wasm_bindgen: installed.wasm_bindgen,
            trunk: installed.trunk,
            wasm_split: installed.wasm_split,
            cargo_fuzz: installed.cargo_fuzz,
            ..self.tools
        }
    }
}

/// Checks every tool and installs what is missing; the four `cargo install`s (most of a fresh
/// machine's wait) go on in the background until [`Setup::finish`], so the steps that need
/// none of them can run meanwhile. The rustup, apt and npm installs and `cargo fetch` are done
/// when this returns.
pub fn begin(ctx: &Ctx) -> Setup {
    let mut tools = Tools {
        wasm_target: ensure_wasm_target(ctx),
        rust_src: ensure_rust_src(ctx),
        ..Tools::default()
    };
    let installs = install::begin(ctx);
    // apt and the two `npm ci`s wait mostly on downloads: side by side, unless apt is to
    // bring npm itself.
    let apt_brings_npm = which("npm", &ctx.path).is_none();
    let system = || {
        let mut system = Tools::default();
        ensure_system_packages(ctx, &mut system);
        (system.chromium, system.chromedriver)
    };
    let mut before = None;
    if apt_brings_npm {
        before = Some(system());
    }
    std::thread::scope(|s| {
        let system = s.spawn(|| before.unwrap_or_else(system));
        let npm = s.spawn(|| ensure_npm_packages(ctx));
        tools.test_servers = ensure_test_servers(ctx);
        (tools.chromium, tools.chromedriver) = system.join().unwrap_or_default();
        (tools.wasm_opt, tools.axe_core, tools.typescript) =
            npm.join().unwrap_or((false, false, false));
    });
    println!("[setup] cargo fetch: running");
    // The second fetch brings the crates the standard library of a shipped wasm is rebuilt
    // with (`build-std`), which Trunk's offline cargo cannot download.
    tools.fetched = run::ok(&mut ctx.cargo(["fetch"]))
        && run::ok(split::shipping(&mut ctx.cargo([
            "fetch",
            "--target",
            WASM_TARGET,
        ])));
    println!(
        "[setup] cargo fetch: {}",
        if tools.fetched { "done" } else { "FAILED" }
    );
    Setup { tools, installs }
}

/// The wasm32 standard library, through rustup.
fn ensure_wasm_target(ctx: &Ctx) -> bool {
    let installed = || {
        run::first_line(ctx.command("rustc").args(["--print", "sysroot"])).is_some_and(|sysroot| {
            PathBuf::from(sysroot)
                .join("lib/rustlib")
                .join(WASM_TARGET)
                .is_dir()
        })
    };
    if installed() {
        println!("[setup] wasm32 target: present");
        return true;
    }
    if which("rustup", &ctx.path).is_none() {
        println!("[setup] wasm32 target: missing, and rustup is not installed; install the {WASM_TARGET} std for your toolchain");
        return false;
    }
    println!("[setup] wasm32 target: installing… (rustup target add {WASM_TARGET})");
    let done = run::ok(ctx.command("rustup").args(["target", "add", WASM_TARGET])) && installed();
    println!(
        "[setup] wasm32 target: {}",
        if done { "installed" } else { "FAILED" }
    );
    done
}

/// The toolchain's standard library sources (`rustup component add rust-src`): a shipped
/// wasm rebuilds its standard library with the shipping flags (`split::shipping`, D78).
fn ensure_rust_src(ctx: &Ctx) -> bool {
    let installed = || {
        run::first_line(ctx.command("rustc").args(["--print", "sysroot"])).is_some_and(|sysroot| {
            PathBuf::from(sysroot)
                .join("lib/rustlib/src/rust/library/std/Cargo.toml")
                .is_file()
        })
    };
    if installed() {
        println!("[setup] rust-src: present");
        return true;
    }
    if which("rustup", &ctx.path).is_none() {
        println!("[setup] rust-src: missing, and rustup is not installed; install your toolchain's standard library sources");
        return false;
    }
    println!("[setup] rust-src: installing… (rustup component add rust-src)");
    let done = run::ok(ctx.command("rustup").args(["component", "add", "rust-src"])) && installed();
    println!(
        "[setup] rust-src: {}",
        if done { "installed" } else { "FAILED" }
    );
    done
}

/// Chromium, chromedriver and npm come from apt: installed directly as root, otherwise the
/// exact commands are printed and the tools stay missing.
fn ensure_system_packages(ctx: &Ctx, tools: &mut Tools) {
    let mut packages = Vec::new();
    tools.chromium = find_chromium(ctx);
    report_binary("chromium", tools.chromium.as_ref(), || {
        packages.push("chromium")
    });
    tools.chromedriver = find_chromedriver(ctx);
    report_binary("chromedriver", tools.chromedriver.as_ref(), || {
        packages.push("chromium-driver")
    });
    let npm = which("npm", &ctx.path);
    report_binary("npm", npm.as_ref(), || packages.extend(["nodejs", "npm"]));
    if packages.is_empty() {
        return;
    }
    let install = format!("apt-get install -y {}", packages.join(" "));
    if !is_root(ctx) {
        println!("[setup] missing system packages; install them with:");
        println!("    sudo apt-get update && sudo {install}");
        return;
    }
    println!("[setup] {install}: installing…");
    let ok = run::ok(ctx.command("apt-get").arg("update"))
        && run::ok(
            ctx.command("apt-get")
                .args(["install", "-y"])
                .args(&packages)
                .env("DEBIAN_FRONTEND", "noninteractive"),
        );
    println!(
        "[setup] {install}: {}",
        if ok { "installed" } else { "FAILED" }
    );
    tools.chromium = find_chromium(ctx);
    tools.chromedriver = find_chromedriver(ctx);
}

/// Prints `present (version)` for a found binary, or `missing` and calls `on_missing`.
fn report_binary(name: &str, path: Option<&PathBuf>, on_missing: impl FnOnce()) {
    match path {
        Some(path) => {
            let version = run::first_line(Command::new(path).arg("--version")).unwrap_or_default();
            println!("[setup] {name}: present ({} {version})", path.display());
        }
        None => {
            println!("[setup] {name}: missing");
            on_missing();
        }
    }
}

/// The npm packages of package.json, project-local (`npm ci` from package-lock.json):
/// binaryen's wasm-opt and terser (the builds), axe-core (the end-to-end accessibility checks) and
/// TypeScript (the npm package's type check). One `npm ci` when any is missing or at another
/// version; returns `(wasm_opt, axe_core, typescript)`.
fn ensure_npm_packages(ctx: &Ctx) -> (bool, bool, bool) {
    let wasm_opt = ctx.root.join("node_modules/.bin/wasm-opt");
    let wasm_opt_ok = || {
        run::first_line(ctx.command(&wasm_opt).arg("--version"))
            .is_some_and(|line| line.contains(&format!("version {WASM_OPT_VERSION} ")))
            && npm_package_version(ctx, "terser", "bin/terser").as_deref() == Some(TERSER_VERSION)
    };
    let axe_ok =
        || npm_package_version(ctx, "axe-core", "axe.min.js").as_deref() == Some(AXE_CORE_VERSION);
    let ts_ok =
        || npm_package_version(ctx, "typescript", "bin/tsc").as_deref() == Some(TYPESCRIPT_VERSION);
    let labels = [
        format!("wasm-opt {WASM_OPT_VERSION} and terser {TERSER_VERSION} (node_modules)"),
        format!("axe-core {AXE_CORE_VERSION} (node_modules)"),
        format!("typescript {TYPESCRIPT_VERSION} (node_modules)"),
    ];
    let now = [wasm_opt_ok(), axe_ok(), ts_ok()];
    for (ok, label) in now.iter().zip(&labels) {
        if *ok {
            println!("[setup] {label}: present");
        }
    }
    if now.iter().all(|ok| *ok) {
        return (true, true, true);
    }
    if which("npm", &ctx.path).is_none() {
        for (ok, label) in now.iter().zip(&labels) {
            if !ok {
                println!("[setup] {label}: missing, and npm is not installed");
            }
        }
        return (now[0], now[1], now[2]);
    }
    for (ok, label) in now.iter().zip(&labels) {
        if !ok {
            println!("[setup] {label}: installing… (npm ci)");
        }
    }
    let installed = run::ok(ctx.command("npm").args(["ci", "--no-audit", "--no-fund"]));
    let after = [
        installed && wasm_opt_ok(),
        installed && axe_ok(),
        installed && ts_ok(),
    ];
    for ((was, ok), label) in now.iter().zip(&after).zip(&labels) {
        if !was {
            println!(
                "[setup] {label}: {}",
                if *ok { "installed" } else { "FAILED" }
            );
        }
    }
    (after[0], after[1], after[2])
}

/// The agent frameworks' servers of `test-servers/` (AI SDK, AG-UI, LangGraph, A2A): `npm ci`
/// there unless every dependency of its package.json is installed at its pinned version. (By
/// content, not by file times: a fresh checkout's lock file is always newer than an install.)
fn ensure_test_servers(ctx: &Ctx) -> bool {
    let dir = ctx.root.join("test-servers");
    let label = "agent framework servers (test-servers/node_modules)";
    if test_servers_installed(&dir) {
        println!("[setup] {label}: present");
        return true;
    }
    if which("npm", &ctx.path).is_none() {
        println!("[setup] {label}: missing, and npm is not installed");
        return false;
    }
    println!("[setup] {label}: installing… (npm ci in test-servers/)");
    let ok = run::ok(
        ctx.command("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&dir),
    ) && test_servers_installed(&dir);
    println!(
        "[setup] {label}: {}",
        if ok { "installed" } else { "FAILED" }
    );
    ok
}

/// Whether each `"name": "version"` of `dir/package.json`'s dependencies is what
/// `dir/node_modules/<name>/package.json` says.
fn test_servers_installed(dir: &Path) -> bool {
    let Ok(manifest) = fs::read_to_string(dir.join("package.json")) else {
        return false;
    };
    let Some(deps) = manifest.split("\"dependencies\"").nth(1) else {
        return false;
    };
    let deps = deps.split('}').next().unwrap_or_default();
    let pins: Vec<(&str, &str)> = deps
        .split(',')
        .filter_map(|pair| {
            let (name, version) = pair.split_once(':')?;
            let name = name.trim().trim_start_matches('{').trim().trim_matches('"');
            Some((name, version.trim().trim_matches('"')))
        })
        .filter(|(name, _)| !name.is_empty())
        .collect();
    !pins.is_empty()
        && pins.iter().all(|(name, version)| {
            fs::read_to_string(dir.join("node_modules").join(name).join("package.json"))
                .is_ok_and(|m| m.contains(&format!("\"version\": \"{version}\"")))
        })
}

/// The `version` of `node_modules/<name>/package.json`, if `needed` (a file of the package)
/// is there too.
fn npm_package_version(ctx: &Ctx, name: &str, needed: &str) -> Option<String> {
    let dir = ctx.root.join("node_modules").join(name);
    if !dir.join(needed).is_file() {
        return None;
    }
    let manifest = fs::read_to_string(dir.join("package.json")).ok()?;
    // `"version": "4.11.1",` on a line of its own (npm writes the manifest pretty-printed).
    manifest.lines().find_map(|line| {
        line.trim()
            .strip_prefix("\"version\":")?
            .trim()
            .trim_end_matches(',')
            .strip_prefix('"')?
            .strip_suffix('"')
            .map(str::to_owned)
    })
}

/// `chromium` on `PATH`.
pub fn find_chromium(ctx: &Ctx) -> Option<PathBuf> {
    which("chromium", &ctx.path)
}

/// `$CHROMEDRIVER` if it names a file, else `chromedriver` on `PATH`.
pub fn find_chromedriver(ctx: &Ctx) -> Option<PathBuf> {
    match std::env::var_os("CHROMEDRIVER").map(PathBuf::from) {
        Some(path) if path.is_file() => Some(path),
        _ => which("chromedriver", &ctx.path),
    }
}

/// `id -u` is 0.
fn is_root(ctx: &Ctx) -> bool {
    run::first_line(ctx.command("id").arg("-u")).as_deref() == Some("0")
}

/// The version of `package` in Cargo.lock (the first one, if several).
pub fn locked_version(ctx: &Ctx, package: &str) -> Option<String> {
    let lock = fs::read_to_string(ctx.root.join("Cargo.lock")).ok()?;
    let name_line = format!("name = \"{package}\"");
    let mut lines = lock.lines();
    lines.by_ref().find(|line| line.trim() == name_line)?;
    let version = lines
        .next()?
        .trim()
        .strip_prefix("version = \"")?
        .strip_suffix('"')?;
    Some(version.to_owned())
}

/// What a full `cargo xtask test` leaves in `target/` and `fuzz/target/` on a fresh clone
/// (measured: ~7 GB), with some room to spare.
const DISK_NEEDED_GB: u64 = 10;

/// Prints the free space where the build goes and warns when it is less than a run needs: a
/// full disk otherwise shows up as linker crashes and "No space left on device" deep in a step.
pub fn check_disk(ctx: &Ctx) {
    let out = ctx
        .command("df")
        .args(["-Pk", "--"])
        .arg(&ctx.root)
        .output();
    let free_kb = out.ok().and_then(|o| {
        let text = String::from_utf8_lossy(&o.stdout).into_owned();
        parse_df_available_kb(&text)
    });
    match free_kb {
        Some(kb) => {
            let gb = kb / (1024 * 1024);
            println!("  disk: {gb} GB free at {}", ctx.root.display());
            if gb < DISK_NEEDED_GB {
                println!(
                    "  WARNING: a full run needs about {DISK_NEEDED_GB} GB for its build \
                     artefacts; with {gb} GB free, steps may fail with \"No space left on \
                     device\". Free some space (old clones, other `target/` directories)."
                );
            }
        }
        None => println!("  disk: free space unknown (`df` gave nothing readable)"),
    }
}

/// The "Available" column (KiB) of `df -Pk`'s one filesystem line.
fn parse_df_available_kb(text: &str) -> Option<u64> {
    text.lines().nth(1)?.split_whitespace().nth(3)?.parse().ok()
}

/// Under `CI=true`: the machine and tool versions, so a red CI log says what it ran with.
pub fn print_environment(ctx: &Ctx) {
    print!("{}", environment_report(ctx));
}

/// The lines [`print_environment`] prints; a tool that is missing reads "(not found)".
fn environment_report(ctx: &Ctx) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = writeln!(out, "==> environment");
    let os = fs::read_to_string("/etc/os-release")
        .ok()
        .and_then(|text| {
            text.lines().find_map(|l| {
                l.strip_prefix("PRETTY_NAME=")
                    .map(|v| v.trim_matches('"').to_owned())
            })
        })
        .unwrap_or_else(|| std::env::consts::OS.to_owned());
    let cpus = std::thread::available_parallelism().map_or(0, usize::from);
    let _ = writeln!(out, "  os: {os}, {cpus} cpus");
    let _ = writeln!(out, "  root: {}", ctx.root.display());
    let chromedriver = find_chromedriver(ctx).unwrap_or_else(|| "chromedriver".into());
    let wasm_opt = ctx.root.join("node_modules/.bin/wasm-opt");
    let probes: [(&str, Command); 11] = [
        ("rustc", with_args(ctx.command("rustc"), &["--version"])),
        ("cargo", with_args(ctx.cargo(["--version"]), &[])),
        (
            "rustup",
            with_args(ctx.command("rustup"), &["show", "active-toolchain"]),
        ),
        (
            "wasm-bindgen",
            with_args(ctx.command("wasm-bindgen"), &["--version"]),
        ),
        ("trunk", with_args(ctx.command("trunk"), &["--version"])),
        (
            "cargo-fuzz",
            with_args(ctx.cargo(["fuzz", "--version"]), &[]),
        ),
        ("node", with_args(ctx.command("node"), &["--version"])),
        ("npm", with_args(ctx.command("npm"), &["--version"])),
        ("wasm-opt", with_args(ctx.command(wasm_opt), &["--version"])),
        (
            "chromium",
            with_args(ctx.command("chromium"), &["--version"]),
        ),
        (
            "chromedriver",
            with_args(ctx.command(chromedriver), &["--version"]),
        ),
    ];
    for (name, mut cmd) in probes {
        let version = run::first_line(&mut cmd).unwrap_or_else(|| "(not found)".into());
        let _ = writeln!(out, "  {name}: {version}");
    }
    out
}

/// `cmd` with `args` appended (keeps the probe table above on one line each).
fn with_args(mut cmd: Command, args: &[&str]) -> Command {
    cmd.args(args);
    cmd
}

#[cfg(test)]
mod tests {
    #[test]
    fn test_servers_count_as_installed_only_at_their_pinned_versions() {
        let dir = std::env::temp_dir().join(format!("xtask-ts-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("node_modules/@x/y")).unwrap();
        std::fs::create_dir_all(dir.join("node_modules/z")).unwrap();
        std::fs::write(
            dir.join("package.json"),
            "{\n  \"name\": \"t\",\n  \"dependencies\": {\n    \"@x/y\": \"1.2.3\",\n    \"z\": \"4.0.0\"\n  }\n}\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("node_modules/@x/y/package.json"),
            "{\"version\": \"1.2.3\"}",
        )
        .unwrap();
        std::fs::write(
            dir.join("node_modules/z/package.json"),
            "{\"version\": \"3.9.0\"}",
        )
        .unwrap();
        assert!(
            !super::test_servers_installed(&dir),
            "z is at another version"
        );
        std::fs::write(
            dir.join("node_modules/z/package.json"),
            "{\"version\": \"4.0.0\"}",
        )
        .unwrap();
        assert!(super::test_servers_installed(&dir));
        std::fs::remove_dir_all(dir.join("node_modules/z")).unwrap();
        assert!(!super::test_servers_installed(&dir), "z is missing");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn reads_locked_versions() {
        let ctx = crate::Ctx::new();
        let version =
            super::locked_version(&ctx, "wasm-bindgen").expect("wasm-bindgen is in Cargo.lock");
        assert!(version.starts_with("0.2."), "{version}");
    }

    #[test]
    fn npm_pins_match_package_json() {
        let ctx = crate::Ctx::new();
        let manifest =
            std::fs::read_to_string(ctx.root.join("package.json")).expect("package.json");
        for (name, version) in [
            ("axe-core", super::AXE_CORE_VERSION),
            ("typescript", super::TYPESCRIPT_VERSION),
        ] {
            let pin = format!("\"{name}\": \"{version}\"");
            assert!(manifest.contains(&pin), "package.json does not pin {pin}");
        }
    }

    #[test]
    fn reads_the_available_column_of_df() {
        let df = "Filesystem     1024-blocks     Used Available Capacity Mounted on\n\
                  /dev/vda        264091472 92000000 52428800      64% /\n";
        assert_eq!(super::parse_df_available_kb(df), Some(52_428_800));
        assert_eq!(super::parse_df_available_kb("Filesystem\n"), None);
        assert_eq!(super::parse_df_available_kb(""), None);
    }

    #[test]
    fn the_environment_names_every_tool_found_or_not() {
        let report = super::environment_report(&crate::Ctx::new());
        assert!(report.starts_with("==> environment\n"), "{report}");
        assert!(report.contains("  os: "), "{report}");
        for tool in [
            "rustc",
            "cargo",
            "wasm-bindgen",
            "trunk",
            "wasm-opt",
            "chromedriver",
        ] {
            assert!(
                report
                    .lines()
                    .any(|l| l.starts_with(&format!("  {tool}: "))),
                "{tool} missing from {report}"
            );
        }
    }
}
