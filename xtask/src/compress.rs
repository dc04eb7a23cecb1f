//! Pre-compressed copies of a build: `name.gz` (gzip -9) and `name.br` (Brotli, quality 11)
//! next to every file, so a server sends the compressed bytes without compressing on each
//! request (the dev-server by `Accept-Encoding`; nginx `gzip_static` / `brotli_static`, Caddy
//! `file_server { precompressed }`: see docs/guide/getting-started-element.md).
//!
//! Node's zlib does both (Node comes with the npm that installs wasm-opt), so the xtask stays
//! plain std. Files that are already compressed copies are skipped; a copy that is not smaller
//! than its file is still written, so a server never falls back to a stale one.

use std::{
    path::Path,
    process::{Command, Stdio},
};

/// Walks `dir` and writes the two copies of every file (overwriting older ones).
const SCRIPT: &str = r#"
const fs = require("fs"), path = require("path"), z = require("zlib");
let n = 0;
const walk = (dir) => {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) { walk(p); continue; }
    if (p.endsWith(".gz") || p.endsWith(".br")) continue;
    const b = fs.readFileSync(p);
    fs.writeFileSync(p + ".gz", z.gzipSync(b, { level: 9 }));
    fs.writeFileSync(p + ".br", z.brotliCompressSync(b, { params: {
      [z.constants.BROTLI_PARAM_QUALITY]: 11,
      [z.constants.BROTLI_PARAM_SIZE_HINT]: b.length } }));
    n++;
  }
};
walk(process.argv[1]);
process.stdout.write(String(n));
"#;

/// Whether `name` is a compressed copy this module writes (not a file of the build itself).
pub fn is_copy(name: &str) -> bool {
    name.ends_with(".gz") || name.ends_with(".br")
}

/// Writes `.gz` and `.br` next to every file under `dir`; returns how many files it compressed.
pub fn precompress(dir: &Path, label: &str) -> Result<usize, String> {
    let out = Command::new("node")
        .arg("-e")
        .arg(SCRIPT)
        .arg(dir)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("could not run node (to compress {}): {e}", dir.display()))?;
    if !out.status.success() {
        return Err(format!("compressing {} failed", dir.display()));
    }
    let n = String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .map_err(|e| format!("compressing {}: node printed no count ({e})", dir.display()))?;
    println!(
        "[{label}] wrote .gz and .br of {n} files in {}",
        dir.display()
    );
    Ok(n)
}

#[cfg(test)]
mod tests {
    use std::fs;

    #[test]
    fn writes_both_copies_of_every_file_once() {
        let dir = std::env::temp_dir().join(format!("xtask-compress-{}", std::process::id()));
        fs::create_dir_all(dir.join("snippets")).unwrap();
        let text = "let x = 1;\n".repeat(200);
        fs::write(dir.join("a.js"), &text).unwrap();
        fs::write(dir.join("snippets/b.js"), &text).unwrap();
        assert_eq!(super::precompress(&dir, "test").unwrap(), 2);
        // Run again: the copies are not compressed a second time.
        assert_eq!(super::precompress(&dir, "test").unwrap(), 2);
        for name in ["a.js", "snippets/b.js"] {
            let gz = fs::read(dir.join(format!("{name}.gz"))).unwrap();
            assert_eq!(&gz[..2], &[0x1f, 0x8b], "{name}.gz is gzip");
            assert!(gz.len() < text.len() / 10);
            let br = fs::metadata(dir.join(format!("{name}.br"))).unwrap().len();
            assert!(br > 0 && br < text.len() as u64 / 10);
        }
        assert!(!dir.join("a.js.gz.gz").exists());
        fs::remove_dir_all(&dir).unwrap();
        assert!(super::is_copy("x.wasm.br") && !super::is_copy("x.wasm"));
    }
}
