//! `cargo xtask demo [--port N]`: the page, built by Trunk, served by the dev-server.
//!
//! The dev-server is built in the debug profile, the one `cargo xtask test` uses, so a demo
//! after a test run (or the reverse) does not compile the server a second time.

use std::process::ExitCode;

use crate::{run, setup, Ctx};

/// Port used when `--port` is not given.
const DEFAULT_PORT: u16 = 8080;

/// Reads `[--port N]` (also `--port=N`).
pub fn parse_port(args: &[String]) -> Result<u16, String> {
    let value = match args {
        [] => return Ok(DEFAULT_PORT),
        [flag, value] if flag == "--port" => value.as_str(),
        [flag] if flag.starts_with("--port=") => &flag["--port=".len()..],
        _ => {
            return Err(format!(
                "demo takes only `--port N`, got `{}`",
                args.join(" ")
            ))
        }
    };
    value
        .parse()
        .map_err(|_| format!("`{value}` is not a port number"))
}

/// Entry point of `cargo xtask demo`.
pub fn main(ctx: &Ctx, port: u16) -> ExitCode {
    let tools = setup::ensure(ctx);
    if !tools.page_ready() {
        eprintln!("[demo] cannot build the page: a tool is missing (see the [setup] lines above)");
        return ExitCode::FAILURE;
    }
    let dist = ctx.dist();
    println!("[demo] $ trunk build --release");
    if !run::ok(&mut ctx.trunk_build()) || !dist.join("index.html").is_file() {
        eprintln!("[demo] trunk build failed");
        return ExitCode::FAILURE;
    }
    println!("[demo] $ cargo build -p dev-server");
    if !run::ok(&mut ctx.cargo(["build", "-p", "dev-server"])) {
        eprintln!("[demo] building the dev-server failed");
        return ExitCode::FAILURE;
    }
    let url = format!("http://127.0.0.1:{port}/");
    let rule = "=".repeat(url.len() + 16);
    println!("\n{rule}\n  open  {url}\n  (Ctrl-C stops the server)\n{rule}\n");
    let port = port.to_string();
    let mut serve = ctx.cargo([
        "run",
        "-q",
        "-p",
        "dev-server",
        "--",
        "--port",
        &port,
        "--dist",
    ]);
    serve.arg(&dist);
    match run::status(&mut serve) {
        Ok(st) if st.success() => ExitCode::SUCCESS,
        Ok(st) => {
            eprintln!("[demo] dev-server exited: {st}");
            ExitCode::FAILURE
        }
        Err(msg) => {
            eprintln!("[demo] {msg}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn parses_port_forms() {
        assert_eq!(parse_port(&args(&[])), Ok(DEFAULT_PORT));
        assert_eq!(parse_port(&args(&["--port", "9000"])), Ok(9000));
        assert_eq!(parse_port(&args(&["--port=9001"])), Ok(9001));
        assert!(parse_port(&args(&["--port", "x"])).is_err());
        assert!(parse_port(&args(&["--verbose"])).is_err());
    }
}
