//! Running child processes: plainly, quietly for a version string, or streamed while the
//! libtest `test result:` lines are counted.

use std::{
    io::{self, Read, Write},
    process::{Command, ExitStatus, Stdio},
    time::Duration,
};

/// What a streamed command did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct TestCounts {
    /// Sum of `N passed` over all `test result:` lines seen.
    pub passed: u64,
    /// Sum of `N failed` over all `test result:` lines seen.
    pub failed: u64,
    /// How many `test result:` lines were seen (0 means no test binary reported).
    pub results: u64,
}

/// A one-line rendering of `cmd` for banners and error messages.
pub fn display(cmd: &Command) -> String {
    let mut parts = vec![cmd.get_program().to_string_lossy().into_owned()];
    if parts[0].ends_with("/cargo") {
        parts[0] = "cargo".into();
    }
    parts.extend(cmd.get_args().map(|a| a.to_string_lossy().into_owned()));
    parts.join(" ")
}

/// `cmd` run through `nice -n 19`: it gets only the CPU time the other commands leave, so a
/// job in the background does not slow the step in front of it.
pub fn niced(cmd: &Command) -> Command {
    let mut niced = Command::new("nice");
    niced
        .args(["-n", "19"])
        .arg(cmd.get_program())
        .args(cmd.get_args());
    for (key, value) in cmd.get_envs() {
        match value {
            Some(value) => niced.env(key, value),
            None => niced.env_remove(key),
        };
    }
    if let Some(dir) = cmd.get_current_dir() {
        niced.current_dir(dir);
    }
    niced
}

/// Runs `cmd` with its stdout and stderr kept, for a job whose lines would cut into another
/// step's: returns the status and the output (stdout, then stderr) to print if it failed.
pub fn logged(mut cmd: Command) -> Result<(ExitStatus, String), String> {
    let out = cmd
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("could not start `{}`: {e}", display(&cmd)))?;
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    Ok((out.status, text))
}

/// Runs `cmd` with inherited stdio; `Err` says why it could not be started.
pub fn status(cmd: &mut Command) -> Result<ExitStatus, String> {
    cmd.status()
        .map_err(|e| format!("could not start `{}`: {e}", display(cmd)))
}

/// How many of a failed step's error lines the summary repeats.
const NOTED_ERRORS: usize = 2;

/// Runs `cmd`, copying its stdout and stderr to ours line by line as they arrive, and keeps
/// the first error lines it printed (`error:`, `error[E…]`, Trunk's `ERROR`). CI shows only
/// the end of a long log, so a failed step's summary line repeats them: "exit status: 101"
/// alone says nothing about a full disk or a missing crate.
pub fn status_noting_errors(cmd: &mut Command) -> Result<(ExitStatus, Vec<String>), String> {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("could not start `{}`: {e}", display(cmd)))?;
    let out = child.stdout.take().expect("stdout was piped");
    let err = child.stderr.take().expect("stderr was piped");
    let noted = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        let noted = &noted;
        s.spawn(move || forward_noting(out, io::stdout(), noted));
        forward_noting(err, io::stderr(), noted);
    });
    let status = child
        .wait()
        .map_err(|e| format!("waiting for `{}`: {e}", display(cmd)))?;
    Ok((status, noted.into_inner().unwrap_or_default()))
}

/// Copies `from` to `to` a line at a time, noting error lines (see `status_noting_errors`).
fn forward_noting(from: impl Read, mut to: impl Write, noted: &std::sync::Mutex<Vec<String>>) {
    use io::BufRead;
    let mut reader = io::BufReader::new(from);
    let mut line = Vec::new();
    while reader.read_until(b'\n', &mut line).is_ok_and(|n| n > 0) {
        let _ = to.write_all(&line);
        let _ = to.flush();
        let text = strip_ansi(&String::from_utf8_lossy(&line));
        if let Some(error) = error_line(&text) {
            if let Ok(mut noted) = noted.lock() {
                if noted.len() < NOTED_ERRORS {
                    noted.push(error);
                }
            }
        }
        line.clear();
    }
}

/// The first error lines of a command's kept output (see `status_noting_errors`).
pub fn error_lines(output: &str) -> Vec<String> {
    output
        .lines()
        .filter_map(|line| error_line(&strip_ansi(line)))
        .take(NOTED_ERRORS)
        .collect()
}

/// `text` trimmed and cut to 200 characters if it reports an error, as cargo, rustc, the
/// linker and Trunk print them.
fn error_line(text: &str) -> Option<String> {
    let line = text.trim();
    let lower = line.to_ascii_lowercase();
    let is_error = lower.starts_with("error")
        || lower.contains("no space left on device")
        || line.contains("ERROR");
    is_error.then(|| line.chars().take(200).collect())
}

/// Runs `cmd` with inherited stdio and reports success.
pub fn ok(cmd: &mut Command) -> bool {
    match status(cmd) {
        Ok(st) => st.success(),
        Err(msg) => {
            eprintln!("{msg}");
            false
        }
    }
}

/// The trimmed first line of `cmd`'s stdout if it ran successfully (for `--version`).
pub fn first_line(cmd: &mut Command) -> Option<String> {
    let out = cmd
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(str::to_owned)
}

/// Runs `cmd`, copying its stdout to ours as it arrives while summing the libtest
/// `test result:` lines in it; stderr (cargo's progress, panics) is inherited untouched.
pub fn streamed(cmd: &mut Command) -> Result<(ExitStatus, TestCounts), String> {
    let mut child = cmd
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("could not start `{}`: {e}", display(cmd)))?;
    let mut pipe = child.stdout.take().expect("stdout was piped");
    let mut counts = TestCounts::default();
    let mut line = Vec::new();
    let mut buf = [0u8; 8192];
    let stdout = io::stdout();
    loop {
        let n = match pipe.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        {
            // Forward immediately, even half a line: `test foo ... ` comes before its `ok`.
            let mut out = stdout.lock();
            let _ = out.write_all(&buf[..n]);
            let _ = out.flush();
        }
        for &byte in &buf[..n] {
            if byte == b'\n' {
                counts.add_line(&String::from_utf8_lossy(&line));
                line.clear();
            } else {
                line.push(byte);
            }
        }
    }
    counts.add_line(&String::from_utf8_lossy(&line));
    let status = child
        .wait()
        .map_err(|e| format!("waiting for `{}`: {e}", display(cmd)))?;
    Ok((status, counts))
}

impl TestCounts {
    /// Adds one output line if it is a libtest summary, e.g.
    /// `test result: FAILED. 3 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; ...`.
    pub fn add_line(&mut self, raw: &str) {
        let line = strip_ansi(raw);
        let Some(at) = line.find("test result:") else {
            return;
        };
        let rest = &line[at..];
        let (Some(passed), Some(failed)) =
            (count_before(rest, " passed"), count_before(rest, " failed"))
        else {
            return;
        };
        self.passed += passed;
        self.failed += failed;
        self.results += 1;
    }
}

/// The number right before the first `word` in `text` (`"3 passed"` → 3).
fn count_before(text: &str, word: &str) -> Option<u64> {
    let head = &text[..text.find(word)?];
    let digits_at = head.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    head[digits_at..].parse().ok()
}

/// `text` without ANSI colour escapes (`ESC [ ... letter`).
fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else if c != '\r' {
            out.push(c);
        }
    }
    out
}

/// `4.2s`, or `3m 07s` past a minute.
pub fn fmt_duration(d: Duration) -> String {
    let secs = d.as_secs_f64();
    if secs < 60.0 {
        format!("{secs:.1}s")
    } else {
        let whole = d.as_secs();
        format!("{}m {:02}s", whole / 60, whole % 60)
    }
}

/// Runs the labelled commands, at most `lanes` at a time, each one's stdout and stderr kept in
/// a file and printed whole when it fails (side by side, their lines would interleave); one
/// line per command says how it ended. Returns `label: why` for every command that failed.
pub fn side_by_side(
    cmds: impl IntoIterator<Item = (&'static str, Command)>,
    lanes: usize,
    out: &mut impl Write,
) -> Vec<String> {
    let logs = std::env::temp_dir().join(format!("xtask-side-by-side-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&logs);
    let mut waiting: std::collections::VecDeque<_> = cmds.into_iter().collect();
    let mut running: Vec<(
        &str,
        std::process::Child,
        std::path::PathBuf,
        std::time::Instant,
    )> = Vec::new();
    let mut failed = Vec::new();
    while !waiting.is_empty() || !running.is_empty() {
        while running.len() < lanes.max(1) {
            let Some((label, mut cmd)) = waiting.pop_front() else {
                break;
            };
            let _ = writeln!(out, "$ {}", display(&cmd));
            let log = logs.join(format!("{label}.log"));
            let spawned = std::fs::File::create(&log).and_then(|out| {
                let err = out.try_clone()?;
                cmd.stdout(out).stderr(err).spawn()
            });
            match spawned {
                Ok(child) => running.push((label, child, log, std::time::Instant::now())),
                Err(e) => failed.push(format!("{label}: could not start: {e}")),
            }
        }
        std::thread::sleep(Duration::from_millis(200));
        let mut i = 0;
        while i < running.len() {
            let done = match running[i].1.try_wait() {
                Ok(Some(st)) => Some(Ok(st)),
                Ok(None) => None,
                Err(e) => Some(Err(e.to_string())),
            };
            let Some(done) = done else {
                i += 1;
                continue;
            };
            let (label, _, log, started) = running.swap_remove(i);
            let took = fmt_duration(started.elapsed());
            match done {
                Ok(st) if st.success() => {
                    let _ = writeln!(out, "[{label}] ok in {took}");
                }
                outcome => {
                    let why = match outcome {
                        Ok(st) => st.to_string(),
                        Err(e) => e,
                    };
                    let _ = writeln!(out, "[{label}] FAILED ({why}) in {took}; its output:");
                    let _ = out.write_all(&std::fs::read(&log).unwrap_or_default());
                    failed.push(format!("{label}: {why}"));
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&logs);
    failed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_by_side_runs_everything_and_names_what_failed() {
        let sh = |script: &str| {
            let mut cmd = Command::new("sh");
            cmd.args(["-c", script]);
            cmd
        };
        let marker = std::env::temp_dir().join(format!("xtask-sbs-{}", std::process::id()));
        let _ = std::fs::remove_file(&marker);
        let failed = side_by_side(
            [
                ("fine", sh("exit 0")),
                ("broken", sh("echo oops; exit 3")),
                ("last", sh(&format!("touch {}", marker.display()))),
            ],
            2,
            &mut io::sink(),
        );
        assert_eq!(failed.len(), 1, "{failed:?}");
        assert!(failed[0].starts_with("broken: "), "{failed:?}");
        assert!(
            marker.is_file(),
            "the third command ran once a lane was free"
        );
        let _ = std::fs::remove_file(&marker);
    }

    #[test]
    fn a_failed_command_keeps_its_first_error_lines() {
        let mut cmd = Command::new("sh");
        cmd.args([
            "-c",
            "echo compiling; echo 'error: No space left on device (os error 28)' >&2; sleep 0.3; \
             printf '\\033[31mERROR\\033[0m build failed\\n'; echo 'error: third'; exit 101",
        ]);
        let (status, errors) = status_noting_errors(&mut cmd).expect("sh starts");
        assert_eq!(status.code(), Some(101));
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(
            errors.contains(&"error: No space left on device (os error 28)".to_owned()),
            "{errors:?}"
        );
        assert!(
            !errors.iter().any(|e| e.contains("compiling")),
            "{errors:?}"
        );
    }

    #[test]
    fn sums_libtest_summaries() {
        let mut c = TestCounts::default();
        c.add_line("test result: ok. 12 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s");
        c.add_line(
            "\u{1b}[31mtest result: FAILED\u{1b}[0m. 3 passed; 2 failed; 0 ignored; 0 measured",
        );
        c.add_line("running 4 tests");
        c.add_line("test parses_passed_words ... ok");
        assert_eq!(
            c,
            TestCounts {
                passed: 15,
                failed: 2,
                results: 2
            }
        );
    }

    #[test]
    fn ignores_lines_without_counts() {
        let mut c = TestCounts::default();
        c.add_line("test result: something odd");
        assert_eq!(c, TestCounts::default());
    }

    #[test]
    fn formats_durations() {
        assert_eq!(fmt_duration(Duration::from_millis(4_240)), "4.2s");
        assert_eq!(fmt_duration(Duration::from_secs(187)), "3m 07s");
    }
}
