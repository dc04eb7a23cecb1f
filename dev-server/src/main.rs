//! `dev-server` binary: parses the flags and serves the reference agent server.

use std::path::PathBuf;
use std::process::ExitCode;

use dev_server::Config;

const USAGE: &str = "\
Usage: dev-server [OPTIONS]

Options:
  --port N                  port to listen on (default 8080)
  --host HOST               interface to bind (default 127.0.0.1)
  --dist DIR                also serve the built page from DIR at /
  --hasty-expiry-secs N     deadline of the hasty agent's approval (default 5)
  --chunk-delay-ms N        delay between streamed text chunks (default 20)
  --long-chunk-delay-ms N   delay between the long agent's deltas (default 2)
  --execution-ms N          how long an approved tool runs (default 600)
  --slow-ms N               how long #slow holds a turn (default 1500)
  --max-message-chars N     longer messages get 413 message_too_long (default 100000)
  --max-file-size BYTES     larger files get 413 file_too_large (default 10485760)
  --deny-mime A,B,...       MIME types refused with 415 unsupported_file_type
                            (default application/x-msdownload,application/x-msdos-program,
                            application/x-executable,application/x-sh)
  --require-auth            refuse API requests without an Authorization header (401)
  --dev-controls            serve the test controls under /api/agents/_dev/ (seed, expire,
                            reissue, next-answer, …); never on a server others can reach
  -h, --help                show this help

API base: /api/agents. Caller identity: `Authorization: Bearer <user id>` or `x-user-id: <user id>`.";

fn number<T: std::str::FromStr>(flag: &str, value: Option<String>) -> Result<T, String> {
    let v = value.ok_or_else(|| format!("{flag} needs a value"))?;
    v.parse()
        .map_err(|_| format!("{flag}: `{v}` is not a valid number"))
}

fn parse_args(args: impl Iterator<Item = String>) -> Result<Option<Config>, String> {
    let mut config = Config::default();
    let mut args = args.peekable();
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let mut value = || inline.clone().or_else(|| args.next());
        match flag.as_str() {
            "-h" | "--help" => return Ok(None),
            "--port" => config.port = number(&flag, value())?,
            "--host" => config.host = value().ok_or("--host needs a value")?,
            "--dist" => config.dist = Some(PathBuf::from(value().ok_or("--dist needs a value")?)),
            "--hasty-expiry-secs" => config.hasty_expiry_secs = number(&flag, value())?,
            "--chunk-delay-ms" => config.chunk_delay_ms = number(&flag, value())?,
            "--long-chunk-delay-ms" => config.long_chunk_delay_ms = number(&flag, value())?,
            "--execution-ms" => config.execution_ms = number(&flag, value())?,
            "--slow-ms" => config.slow_ms = number(&flag, value())?,
            "--max-message-chars" => config.max_message_chars = number(&flag, value())?,
            "--max-file-size" => config.max_file_size = number(&flag, value())?,
            "--deny-mime" => {
                config.denied_mime_types = value()
                    .ok_or("--deny-mime needs a value")?
                    .split(',')
                    .map(|m| m.trim().to_string())
                    .filter(|m| !m.is_empty())
                    .collect();
            }
            "--require-auth" => config.require_auth = true,
            "--dev-controls" => config.dev_controls = true,
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(Some(config))
}

#[tokio::main]
async fn main() -> ExitCode {
    let config = match parse_args(std::env::args().skip(1)) {
        Ok(Some(c)) => c,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("dev-server: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    if let Some(dir) = &config.dist {
        if !dir.join("index.html").is_file() {
            eprintln!("dev-server: warning: {} has no index.html", dir.display());
        }
    }
    let listener = match tokio::net::TcpListener::bind((config.host.as_str(), config.port)).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!(
                "dev-server: cannot listen on {}:{}: {e}",
                config.host, config.port
            );
            return ExitCode::FAILURE;
        }
    };
    tokio::select! {
        result = dev_server::serve(listener, config) => match result {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("dev-server: {e}");
                ExitCode::FAILURE
            }
        },
        _ = tokio::signal::ctrl_c() => ExitCode::SUCCESS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Option<Config>, String> {
        parse_args(args.iter().map(|s| s.to_string()))
    }

    #[test]
    fn parses_flags() {
        let c = parse(&[
            "--port",
            "9000",
            "--host=0.0.0.0",
            "--dist",
            "dist",
            "--hasty-expiry-secs",
            "2",
            "--deny-mime",
            "a/b, c/d",
        ])
        .unwrap()
        .unwrap();
        assert_eq!(c.port, 9000);
        assert_eq!(c.host, "0.0.0.0");
        assert_eq!(c.dist, Some(PathBuf::from("dist")));
        assert_eq!(c.hasty_expiry_secs, 2);
        assert_eq!(c.denied_mime_types, vec!["a/b", "c/d"]);
    }

    #[test]
    fn defaults_help_and_errors() {
        let c = parse(&[]).unwrap().unwrap();
        assert_eq!(
            (c.port, c.host.as_str(), c.hasty_expiry_secs),
            (8080, "127.0.0.1", 5)
        );
        assert!(parse(&["--help"]).unwrap().is_none());
        assert!(parse(&["--port", "x"]).is_err());
        assert!(parse(&["--port"]).is_err());
        assert!(parse(&["--bogus"]).is_err());
    }
}
