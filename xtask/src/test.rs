//! `cargo xtask test`: everything CI checks, in one command and one report.
//!
//! Steps run in a fixed order and a failed check does not stop the run (a fmt slip should not
//! hide a failing test); a step is skipped only when something it needs is missing. The last
//! lines are `N passed, M failed` (libtest counts over every `cargo test`, plus one per failed
//! non-test step) and the total wall time; the exit code is non-zero if anything failed.

use std::{
    env,
    io::Write,
    process::{Command, ExitCode, ExitStatus},
    time::{Duration, Instant},
};

use crate::{
    fuzz::{fuzz_build_command, fuzz_command, FUZZ_TARGETS},
    run::{self, TestCounts},
    setup, Ctx,
};

/// Number of steps, for the `[i/N]` banners.
const STEPS: usize = 18;

/// The step that waits for the cargo-installed tools (see `crate::install`).
const TOOL_BUILDS: &str = "tool builds (cargo install, in the background since setup)";

/// The fuzz step's name.
const FUZZ_SHORT: &str = "fuzz (short)";

/// Seconds each fuzz target runs when `FUZZ_SECONDS` is unset.
const FUZZ_SECONDS_DEFAULT: u64 = 20;

/// Entry point of `cargo xtask test`.
pub fn main(ctx: &Ctx) -> ExitCode {
    let started = Instant::now();
    if env::var("CI").is_ok_and(|v| v == "true") {
        setup::print_environment(ctx);
    }
    setup::check_disk(ctx);
    let mut p = Pipeline::default();

    // The cargo-installed tools build in the background while the steps up to the native
    // tests run: none of those needs them.
    let t = p.begin("setup");
    let setup = setup::begin(ctx);
    let outcome = if setup.ready_but_the_builds() {
        Outcome::Ok
    } else {
        Outcome::Failed("tools missing".into())
    };
    p.end("setup", t, outcome);
    let wasm_target = setup.so_far().wasm_target;

    p.check("fmt", ctx.cargo(["fmt", "--all", "--", "--check"]));
    // `--features dev-server/e2e` so the e2e test file is linted too (it is feature-gated).
    p.check(
        "clippy (native)",
        ctx.cargo([
            "clippy",
            "--workspace",
            "--all-targets",
            "--features",
            "dev-server/e2e",
            "--",
            "-D",
            "warnings",
        ]),
    );
    let wasm_clippy = ctx.cargo([
        "clippy",
        "-p",
        "agent-chat-core",
        "-p",
        "agent-chat-ui",
        "-p",
        "leptos-app-example",
        "-p",
        "in-process-agent-example",
        "--target",
        "wasm32-unknown-unknown",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ]);
    // The split points as the element and the page compile them (D67), with the page's
    // first draw in stages (D96; the element's build is the plain wasm32 one's code without
    // those stages): only the two crates whose code `split` changes are checked again, the
    // other dependencies' features are the same.
    let split_clippy = ctx.cargo([
        "clippy",
        "-p",
        "agent-chat-core",
        "-p",
        "agent-chat-ui",
        "--lib",
        "--target",
        "wasm32-unknown-unknown",
        "--features",
        "split,staged",
        "--",
        "-D",
        "warnings",
    ]);
    // The element's own build: `split` without the stages, so code that only it compiles
    // (what the stages replace) is checked too.
    let element_clippy = ctx.cargo([
        "clippy",
        "-p",
        "agent-chat-ui",
        "--lib",
        "--target",
        "wasm32-unknown-unknown",
        "--features",
        "split",
        "--",
        "-D",
        "warnings",
    ]);
    if wasm_target {
        p.check("clippy (wasm32)", wasm_clippy);
        p.check("clippy (wasm32, split)", split_clippy);
        p.check("clippy (wasm32, split, the element's)", element_clippy);
    } else {
        p.skip("clippy (wasm32)", "wasm32 target missing");
        p.skip("clippy (wasm32, split)", "wasm32 target missing");
        p.skip(
            "clippy (wasm32, split, the element's)",
            "wasm32 target missing",
        );
    }

    // The crates as docs.rs and a registry user get them (issue 17): every public item
    // documented (`missing_docs` warns, and warnings fail), intra-doc links resolved, and the
    // published layout builds on its own (the UI crate against the core as packaged, D104).
    let mut doc = ctx.cargo([
        "doc",
        "--no-deps",
        "-p",
        "agent-chat-core",
        "-p",
        "agent-chat-ui",
    ]);
    doc.env("RUSTDOCFLAGS", "-D warnings");
    p.check("cargo doc (-D warnings)", doc);
    for leftover in crate::forget_unpacked_workspace_crates(&crate::cargo_home()) {
        println!(
            "[test] removed {} (unpacked by an earlier cargo package)",
            leftover.display()
        );
    }
    // In the background from here on (see `Background`), in a target dir of its own: its build
    // of the packaged crates shares no artefact with the steps in front, and would only lock
    // theirs.
    let mut package = ctx.cargo([
        "package",
        "-p",
        "agent-chat-core",
        "-p",
        "agent-chat-ui",
        "--allow-dirty",
    ]);
    package
        .env("CARGO_TARGET_DIR", ctx.target_dir().join("package-check"))
        // Whether the packaged crates build, not a binary to debug: no debug information.
        .env("CARGO_PROFILE_DEV_DEBUG", "false");
    let package = Background::check("cargo package (the published crates build)", package);

    p.tests(
        "native tests",
        [ctx.cargo(["test", "--workspace", "--no-fail-fast"])],
    );

    let t = p.begin(TOOL_BUILDS);
    let tools = setup.finish();
    let outcome = if tools.wasm_bindgen && tools.trunk && tools.wasm_split && tools.cargo_fuzz {
        Outcome::Ok
    } else {
        Outcome::Failed("a build failed (see its [setup] line)".into())
    };
    p.end(TOOL_BUILDS, t, outcome);

    // Fuzzing uses what CPU the later steps leave (the browser and end-to-end tests wait on
    // Chromium much of the time); its report comes last.
    let fuzz = fuzz_in_background(ctx, &tools);
    let mut background = vec![package];

    match (&tools.chromedriver, tools.browser_tests_ready()) {
        (Some(chromedriver), true) => p.tests(
            "browser tests (wasm-bindgen-test, headless Chromium)",
            browser_commands(ctx, chromedriver),
        ),
        _ => p.skip(
            "browser tests (wasm-bindgen-test, headless Chromium)",
            "wasm32 target, wasm-bindgen or chromium/chromedriver missing",
        ),
    }

    let page_built = if tools.page_ready() {
        let built = p.check("trunk build --release", ctx.trunk_build());
        let index = ctx.dist().join("index.html");
        if built && !index.is_file() {
            println!(
                "trunk build succeeded but {} does not exist",
                index.display()
            );
        }
        built && index.is_file()
    } else {
        p.skip(
            "trunk build --release",
            "trunk, wasm-bindgen or wasm-opt missing",
        );
        false
    };

    // The examples must keep compiling against the public API (issue 7); the in-page agent
    // example has no server, its agent is the one tests/browser/in_process.rs drives. Both in
    // the background, once Trunk is done: a debug build holds the lock of the host's debug
    // artefacts, which Trunk's post-build hook (`cargo xtask split-page`) waits on.
    for (name, package) in [
        ("examples/leptos-app builds (wasm32)", "leptos-app-example"),
        (
            "examples/in-process-agent builds (wasm32)",
            "in-process-agent-example",
        ),
    ] {
        background.push(if tools.wasm_target {
            Background::check(
                name,
                ctx.cargo(["build", "-p", package, "--target", "wasm32-unknown-unknown"]),
            )
        } else {
            Background::skipped(name, "wasm32 target missing")
        });
    }

    // The end-to-end binary compiles in the background too (the element's release build in
    // front takes other locks), and its step then only runs it.
    let e2e_command = || {
        ctx.cargo([
            "test",
            "-p",
            "dev-server",
            "--features",
            "e2e",
            "--test",
            "e2e",
            "--no-fail-fast",
        ])
    };
    let e2e_warm = {
        let mut warm = e2e_command();
        warm.arg("--no-run");
        std::thread::spawn(move || run::logged(run::niced(&warm)))
    };

    // The custom element next to the page (after Trunk, which empties dist/).
    let page_built = if page_built {
        let started = p.begin("element build (dist/element)");
        let outcome = match crate::element::build(ctx) {
            Ok(sizes) => {
                crate::element::report(&sizes);
                if sizes.within_budget() {
                    Outcome::Ok
                } else {
                    Outcome::Failed(format!(
                        "first download {:.1} KB gzip is over the budget of {:.0} KB (D50)",
                        sizes.total() as f64 / 1024.0,
                        crate::element::BUDGET_BYTES as f64 / 1024.0
                    ))
                }
            }
            Err(msg) => Outcome::Failed(msg),
        };
        let ok = matches!(outcome, Outcome::Ok);
        p.end("element build (dist/element)", started, outcome);
        ok
    } else {
        p.skip(
            "element build (dist/element)",
            "no page: trunk build did not succeed",
        );
        false
    };

    // The npm package as a web developer meets it (issue 17): packed, installed, type-checked.
    // Its page is the `npm_package_in_a_page` journey's, which fails without it.
    if page_built && tools.typescript {
        let started = p.begin("npm package (pack, install, tsc)");
        let outcome = match crate::npm::check(ctx) {
            Ok(_) => Outcome::Ok,
            Err(msg) => Outcome::Failed(msg),
        };
        p.end("npm package (pack, install, tsc)", started, outcome);
    } else {
        p.skip(
            "npm package (pack, install, tsc)",
            "no element build, or TypeScript missing",
        );
    }

    // The warm-up's own result does not matter: the step's cargo builds whatever it left.
    let _ = e2e_warm.join();
    match (&tools.chromedriver, page_built) {
        (Some(chromedriver), true) => {
            let mut cmd = e2e_command();
            cmd.env("AGENT_CHAT_DIST", ctx.dist())
                .env("CHROMEDRIVER", chromedriver);
            p.tests("end-to-end (WebDriver)", [cmd]);
        }
        (None, _) => p.skip("end-to-end (WebDriver)", "chromedriver missing"),
        (_, false) => p.skip(
            "end-to-end (WebDriver)",
            "no page: trunk build did not succeed",
        ),
    }

    background.push(fuzz);
    for job in background {
        job.report(&mut p);
    }

    let code = p.summary(started.elapsed());
    if code != ExitCode::SUCCESS {
        // CI shows the end of the log: say how much room the failed steps had.
        setup::check_disk(ctx);
    }
    code
}

/// Browser tests that need a page no other test has drawn in: each runs alone in a page of its
/// own, the rest share one (`tests/browser/main.rs`).
const FRESH_PAGE: [&str; 1] = [
    // No card drawn yet, so the cards' stylesheet is not on the page.
    "markdown::i16_markdown_brings_its_rules_once_and_no_other_parts",
];

/// The browser step's runs: the `browser` test binary once in one page for every test but the
/// [`FRESH_PAGE`] ones, each of those alone in a page of its own, and the doc tests built for
/// the browser target.
fn browser_commands(ctx: &Ctx, chromedriver: &std::path::Path) -> Vec<Command> {
    let wasm = |args: &[&str]| {
        let mut cmd = ctx.cargo([
            "test",
            "-p",
            "agent-chat-ui",
            "--target",
            "wasm32-unknown-unknown",
        ]);
        cmd.args(args).env("CHROMEDRIVER", chromedriver).env(
            "WASM_BINDGEN_TEST_WEBDRIVER_JSON",
            ctx.root.join("webdriver.json"),
        );
        // The runner's defaults (20 s for a test binary's page, 5 s to start chromedriver)
        // are too tight for every browser test of a debug Leptos build in one page on a busy
        // 2-core machine.
        for (key, default) in [
            ("WASM_BINDGEN_TEST_TIMEOUT", "600"),
            ("WASM_BINDGEN_TEST_DRIVER_TIMEOUT", "30"),
        ] {
            if env::var_os(key).is_none() {
                cmd.env(key, default);
            }
        }
        cmd
    };
    let mut shared = wasm(&["--test", "browser", "--no-fail-fast", "--"]);
    for name in FRESH_PAGE {
        shared.args(["--skip", name]);
    }
    let mut runs = vec![shared];
    runs.extend(FRESH_PAGE.map(|name| wasm(&["--test", "browser", "--", "--exact", name])));
    runs.push(wasm(&["--doc"]));
    runs
}

/// `fuzz (short)`, started: every cargo-fuzz target built in one cargo run, then each run for
/// `FUZZ_SECONDS` (default 20), as many at once as there are cores, all at the lowest CPU
/// priority; a crash, a failed build or a leak fails the step. Stable Rust runs cargo-fuzz's
/// nightly-only flags with `RUSTC_BOOTSTRAP=1`; its build goes to `fuzz/target`, apart from
/// the main one. A fuzzer starved by the steps in front still runs every seed (libFuzzer reads
/// its whole corpus before it looks at the clock).
fn fuzz_in_background(ctx: &Ctx, tools: &setup::Tools) -> Background {
    let seconds = match env::var("FUZZ_SECONDS") {
        Err(_) => FUZZ_SECONDS_DEFAULT,
        Ok(v) => v.trim().parse().unwrap_or_else(|_| {
            println!("FUZZ_SECONDS={v:?} is not a number of seconds; using {FUZZ_SECONDS_DEFAULT}");
            FUZZ_SECONDS_DEFAULT
        }),
    };
    if seconds == 0 {
        return Background::skipped(FUZZ_SHORT, "FUZZ_SECONDS=0");
    }
    if !tools.cargo_fuzz {
        return Background::skipped(FUZZ_SHORT, "cargo-fuzz missing");
    }
    let ctx = ctx.clone();
    Background::start(FUZZ_SHORT, move || {
        let started = Instant::now();
        let mut report = Vec::new();
        let build = run::niced(&fuzz_build_command(&ctx));
        let _ = writeln!(report, "$ RUSTC_BOOTSTRAP=1 {}", run::display(&build));
        let outcome = match run::logged(build) {
            Ok((st, _)) if st.success() => {
                let _ = writeln!(
                    report,
                    "[fuzz] built in {}",
                    run::fmt_duration(started.elapsed())
                );
                let lanes = std::thread::available_parallelism().map_or(1, usize::from);
                let runs = FUZZ_TARGETS
                    .map(|target| (target, run::niced(&fuzz_command(&ctx, target, seconds))));
                let failed = run::side_by_side(runs, lanes, &mut report);
                if failed.is_empty() {
                    Outcome::Ok
                } else {
                    Outcome::Failed(failed.join("; "))
                }
            }
            Ok((st, text)) => {
                report.extend_from_slice(text.as_bytes());
                Outcome::Failed(format!("cargo fuzz build: {st}"))
            }
            Err(msg) => Outcome::Failed(msg),
        };
        (outcome, String::from_utf8_lossy(&report).into_owned())
    })
}

/// A step that runs on its own thread while the steps after it go on, its commands at the
/// lowest CPU priority (`nice -n 19`): it takes the CPU they leave (the browser and end-to-end
/// tests wait on Chromium much of the time, a release build ends in one long single-threaded
/// link) without slowing them. Its output is kept and printed by [`Background::report`], which
/// waits for it and records it as a step of its own after the others.
struct Background {
    /// The step's name.
    name: &'static str,
    /// Why it did not start, or the thread doing it.
    state: Result<Running, &'static str>,
}

/// A started [`Background`] step.
struct Running {
    /// When the thread started.
    started: Instant,
    /// Returns the outcome and everything the step would have printed.
    job: std::thread::JoinHandle<(Outcome, String)>,
}

impl Background {
    /// A step that could not run, and why.
    fn skipped(name: &'static str, why: &'static str) -> Self {
        Background {
            name,
            state: Err(why),
        }
    }

    /// Starts `job` on a thread of its own.
    fn start(name: &'static str, job: impl FnOnce() -> (Outcome, String) + Send + 'static) -> Self {
        Background {
            name,
            state: Ok(Running {
                started: Instant::now(),
                job: std::thread::spawn(job),
            }),
        }
    }

    /// A non-test step: `cmd`, niced, its output printed only when it fails (with its first
    /// error lines in the summary, as `Pipeline::check` does).
    fn check(name: &'static str, cmd: Command) -> Self {
        Self::start(name, move || {
            let mut text = format!("$ {}\n", run::display(&cmd));
            let result = run::logged(run::niced(&cmd)).map(|(st, out)| {
                if st.success() {
                    return (st, Vec::new());
                }
                text.push_str(&out);
                (st, run::error_lines(&out))
            });
            let outcome = Outcome::of_check(result);
            (outcome, text)
        })
    }

    /// Waits for the step, prints its output and records it; the step's time is the wait,
    /// and the job's own time is printed beside it.
    fn report(self, p: &mut Pipeline) {
        let t = p.begin(self.name);
        match self.state {
            Err(why) => p.end(self.name, t, Outcome::Skipped(why)),
            Ok(Running { started, job }) => {
                let (outcome, text) = job.join().unwrap_or_else(|_| {
                    (Outcome::Failed("its thread panicked".into()), String::new())
                });
                print!("{text}");
                println!(
                    "[background] ran for {} beside the other steps; waited {} for it here",
                    run::fmt_duration(started.elapsed()),
                    run::fmt_duration(t.elapsed())
                );
                p.end(self.name, t, outcome);
            }
        }
    }
}

/// How one step ended.
#[derive(Debug)]
enum Outcome {
    /// A check passed.
    Ok,
    /// A check failed, or could not start; counts as one failure.
    Failed(String),
    /// A `cargo test` ran; `success` is its exit status.
    Tests { counts: TestCounts, success: bool },
    /// Not run, and why.
    Skipped(&'static str),
}

impl Outcome {
    /// A non-test step's outcome from its exit status and first error lines: failed with
    /// those lines (or the status alone) unless it succeeded.
    fn of_check(result: Result<(ExitStatus, Vec<String>), String>) -> Outcome {
        match result {
            Ok((st, _)) if st.success() => Outcome::Ok,
            Ok((st, errors)) if errors.is_empty() => Outcome::Failed(st.to_string()),
            Ok((st, errors)) => Outcome::Failed(format!("{st}: {}", errors.join(" | "))),
            Err(msg) => Outcome::Failed(msg),
        }
    }
}

/// The steps run so far, in order.
#[derive(Default)]
struct Pipeline {
    /// Steps begun so far (for `[i/N]`).
    begun: usize,
    /// `(name, outcome, duration)` per step.
    records: Vec<(String, Outcome, Duration)>,
}

impl Pipeline {
    /// Prints the banner of the next step and starts its clock.
    fn begin(&mut self, name: &str) -> Instant {
        self.begun += 1;
        println!("\n==> [{}/{STEPS}] {name}", self.begun);
        Instant::now()
    }

    /// Prints how the current step ended and records it.
    fn end(&mut self, name: &str, started: Instant, outcome: Outcome) {
        let elapsed = started.elapsed();
        let verdict = match &outcome {
            Outcome::Ok => "ok".to_owned(),
            Outcome::Failed(why) => format!("FAILED ({why})"),
            Outcome::Tests { counts, success } => format!(
                "{} ({} passed, {} failed)",
                if *success { "ok" } else { "FAILED" },
                counts.passed,
                counts.failed
            ),
            Outcome::Skipped(why) => format!("skipped ({why})"),
        };
        println!(
            "<== [{}/{STEPS}] {name}: {verdict} in {}",
            self.begun,
            run::fmt_duration(elapsed)
        );
        self.records.push((name.to_owned(), outcome, elapsed));
    }

    /// Runs a non-test step with its output untouched; returns whether it passed.
    fn check(&mut self, name: &str, mut cmd: Command) -> bool {
        let started = self.begin(name);
        println!("$ {}", run::display(&cmd));
        let outcome = Outcome::of_check(run::status_noting_errors(&mut cmd));
        let passed = matches!(outcome, Outcome::Ok);
        self.end(name, started, outcome);
        passed
    }

    /// Runs one or more `cargo test`s as one step, streaming their output and summing their
    /// libtest results; the step succeeds when every command did.
    fn tests(&mut self, name: &str, cmds: impl IntoIterator<Item = Command>) {
        let started = self.begin(name);
        let (mut total, mut success) = (TestCounts::default(), true);
        for mut cmd in cmds {
            println!("$ {}", run::display(&cmd));
            match run::streamed(&mut cmd) {
                Ok((st, counts)) => {
                    total.passed += counts.passed;
                    total.failed += counts.failed;
                    total.results += counts.results;
                    success &= st.success();
                }
                Err(msg) => {
                    self.end(name, started, Outcome::Failed(msg));
                    return;
                }
            }
        }
        let outcome = Outcome::Tests {
            counts: total,
            success,
        };
        self.end(name, started, outcome);
    }

    /// Records a step that could not run.
    fn skip(&mut self, name: &str, why: &'static str) {
        let started = self.begin(name);
        self.end(name, started, Outcome::Skipped(why));
    }

    /// Prints the table and the `N passed, M failed` line; non-zero exit on any failure.
    fn summary(&self, wall: Duration) -> ExitCode {
        let (mut passed, mut failed) = (0, 0);
        println!("\n==> summary");
        for (name, outcome, elapsed) in &self.records {
            let took = run::fmt_duration(*elapsed);
            let line = match outcome {
                Outcome::Ok => format!("ok       {name} ({took})"),
                Outcome::Failed(why) => {
                    failed += 1;
                    format!("FAILED   {name}: {why} ({took})")
                }
                Outcome::Tests { counts, success } => {
                    passed += counts.passed;
                    failed += counts.failed;
                    // A build error or a crashed runner reports no failed test; still a failure.
                    let broken = !success && counts.failed == 0;
                    if broken {
                        failed += 1;
                    }
                    let verdict = if *success { "ok      " } else { "FAILED  " };
                    let extra = if broken {
                        ", and the command itself failed"
                    } else {
                        ""
                    };
                    format!(
                        "{verdict} {name}: {} passed, {} failed{extra} ({took})",
                        counts.passed, counts.failed
                    )
                }
                Outcome::Skipped(why) => format!("skipped  {name}: {why}"),
            };
            println!("  {line}");
        }
        println!("{passed} passed, {failed} failed");
        println!("total wall time: {}", run::fmt_duration(wall));
        if failed == 0 {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        }
    }
}
