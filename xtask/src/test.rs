//! `cargo xtask test`: everything CI checks, in one command and one report.
//!
//! Steps run in a fixed order and a failed check does not stop the run (a fmt slip should not
//! hide a failing test); a step is skipped only when something it needs is missing. The last
//! lines are `N passed, M failed` (libtest counts over every `cargo test`, plus one per failed
//! non-test step) and the total wall time; the exit code is non-zero if anything failed.

use std::{
    env,
    process::{Command, ExitCode},
    time::{Duration, Instant},
};

use crate::{
    run::{self, TestCounts},
    setup, Ctx,
};

/// Number of steps, for the `[i/N]` banners.
const STEPS: usize = 8;

/// Entry point of `cargo xtask test`.
pub fn main(ctx: &Ctx) -> ExitCode {
    let started = Instant::now();
    if env::var("CI").is_ok_and(|v| v == "true") {
        setup::print_environment(ctx);
    }
    let mut p = Pipeline::default();

    let t = p.begin("setup");
    let tools = setup::ensure(ctx);
    let outcome = if tools.all_ready() {
        Outcome::Ok
    } else {
        Outcome::Failed("tools missing".into())
    };
    p.end("setup", t, outcome);

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
        "agent-chat-ui",
        "--target",
        "wasm32-unknown-unknown",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ]);
    if tools.wasm_target {
        p.check("clippy (wasm32)", wasm_clippy);
    } else {
        p.skip("clippy (wasm32)", "wasm32 target missing");
    }

    p.tests(
        "native tests",
        ctx.cargo(["test", "--workspace", "--no-fail-fast"]),
    );

    match (&tools.chromedriver, tools.browser_tests_ready()) {
        (Some(chromedriver), true) => {
            let mut cmd = ctx.cargo([
                "test",
                "-p",
                "agent-chat-ui",
                "--target",
                "wasm32-unknown-unknown",
                "--no-fail-fast",
            ]);
            cmd.env("CHROMEDRIVER", chromedriver).env(
                "WASM_BINDGEN_TEST_WEBDRIVER_JSON",
                ctx.root.join("webdriver.json"),
            );
            // The runner's defaults (20 s per test binary, 5 s to start chromedriver) are too
            // tight for a debug Leptos build on a busy 2-core machine.
            for (key, default) in [
                ("WASM_BINDGEN_TEST_TIMEOUT", "180"),
                ("WASM_BINDGEN_TEST_DRIVER_TIMEOUT", "30"),
            ] {
                if env::var_os(key).is_none() {
                    cmd.env(key, default);
                }
            }
            p.tests("browser tests (wasm-bindgen-test, headless Chromium)", cmd);
        }
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

    match (&tools.chromedriver, page_built) {
        (Some(chromedriver), true) => {
            let mut cmd = ctx.cargo([
                "test",
                "-p",
                "dev-server",
                "--features",
                "e2e",
                "--test",
                "e2e",
                "--no-fail-fast",
            ]);
            cmd.env("AGENT_CHAT_DIST", ctx.dist())
                .env("CHROMEDRIVER", chromedriver);
            p.tests("end-to-end (WebDriver)", cmd);
        }
        (None, _) => p.skip("end-to-end (WebDriver)", "chromedriver missing"),
        (_, false) => p.skip(
            "end-to-end (WebDriver)",
            "no page: trunk build did not succeed",
        ),
    }

    p.summary(started.elapsed())
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
        let outcome = match run::status(&mut cmd) {
            Ok(st) if st.success() => Outcome::Ok,
            Ok(st) => Outcome::Failed(st.to_string()),
            Err(msg) => Outcome::Failed(msg),
        };
        let passed = matches!(outcome, Outcome::Ok);
        self.end(name, started, outcome);
        passed
    }

    /// Runs a `cargo test` streaming its output and counting libtest results.
    fn tests(&mut self, name: &str, mut cmd: Command) {
        let started = self.begin(name);
        println!("$ {}", run::display(&cmd));
        let outcome = match run::streamed(&mut cmd) {
            Ok((st, counts)) => Outcome::Tests {
                counts,
                success: st.success(),
            },
            Err(msg) => Outcome::Failed(msg),
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
