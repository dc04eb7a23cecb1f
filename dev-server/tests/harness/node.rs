//! A framework's own server, run by Node from `test-servers/` (see its README): the journeys of
//! the e2e `frameworks` journeys open the page from its front, so page and agent share one origin.

use std::{
    io::{BufRead, BufReader},
    os::unix::process::CommandExt,
    process::{Child, Command, Stdio},
    sync::mpsc,
    time::{Duration, Instant},
};

use super::{dist_dir, workspace_root, STARTUP_TIMEOUT};

/// A running `node test-servers/<script>`, in its own process group, killed as a group on drop.
pub struct NodeServer {
    /// The node process (also the process group leader).
    child: Child,
    /// `http://127.0.0.1:PORT` of its front (no trailing slash).
    pub url: String,
    /// What the script wrote to stderr and stdout after its READY line, for a failure report.
    output: mpsc::Receiver<String>,
}

impl NodeServer {
    /// Starts `node test-servers/<script>` with `AGENT_CHAT_DIST` set and waits for its
    /// `READY <url>` line. Panics with the script's output if it exits or stays silent.
    pub fn start(script: &str) -> Self {
        Self::start_with(script, &[])
    }

    /// [`NodeServer::start`] with extra environment variables for the script.
    pub fn start_with(script: &str, env: &[(&str, &str)]) -> Self {
        let dir = workspace_root().join("test-servers");
        assert!(
            dir.join("node_modules").is_dir(),
            "test-servers/node_modules is missing: run `cargo xtask setup` (it runs `npm ci` there)"
        );
        let mut cmd = Command::new("node");
        cmd.arg(dir.join(script))
            .current_dir(&dir)
            .env("AGENT_CHAT_DIST", dist_dir())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        for (key, value) in env {
            cmd.env(key, value);
        }
        let mut child = cmd
            .spawn()
            .unwrap_or_else(|e| panic!("starting node test-servers/{script}: {e}"));
        let (tx, rx) = mpsc::channel::<String>();
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let tx_err = tx.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if tx_err.send(format!("[stderr] {line}")).is_err() {
                    break;
                }
            }
        });
        let deadline = Instant::now() + STARTUP_TIMEOUT;
        let mut seen = Vec::new();
        let url = loop {
            match rx.recv_timeout(Duration::from_millis(200)) {
                Ok(line) => match line.strip_prefix("READY ") {
                    Some(url) => break url.trim().trim_end_matches('/').to_owned(),
                    None => seen.push(line),
                },
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => {}
            }
            if let Ok(Some(exit)) = child.try_wait() {
                panic!(
                    "node test-servers/{script} exited ({exit}) before READY:\n{}",
                    seen.join("\n")
                );
            }
            assert!(
                Instant::now() < deadline,
                "node test-servers/{script} printed no READY line within {}s:\n{}",
                STARTUP_TIMEOUT.as_secs(),
                seen.join("\n")
            );
        };
        NodeServer {
            child,
            url,
            output: rx,
        }
    }

    /// Whether the process is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Everything the script printed since READY (or since the last call).
    pub fn drain_output(&self) -> String {
        self.output.try_iter().collect::<Vec<_>>().join("\n")
    }
}

impl Drop for NodeServer {
    fn drop(&mut self) {
        let group = format!("-{}", self.child.id());
        let _ = Command::new("kill")
            .args(["-KILL", "--", &group])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        let _ = self.child.wait();
    }
}
