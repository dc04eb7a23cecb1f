// The front door of a test server: serves the built page (`$AGENT_CHAT_DIST`, as `cargo xtask
// test` builds it) and passes every request under the given prefixes on to the framework's own
// server, byte for byte and streamed, like nginx in front of a real deployment. The page and the
// agent then share one origin, as the standalone page's Content-Security-Policy
// (`connect-src 'self'`) requires.
//
// When it listens it prints one line, `READY http://127.0.0.1:<port>`, on stdout: the Rust harness
// (dev-server/tests/harness/node.rs) waits for it.

import http from "node:http";
import fs from "node:fs";
import path from "node:path";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".ftl": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
};

/** The directory of the built page: `$AGENT_CHAT_DIST`, else `<repo>/dist`. */
export function distDir() {
  return process.env.AGENT_CHAT_DIST ?? path.resolve(import.meta.dirname, "../../dist");
}

function serveFile(dist, req, res) {
  const url = new URL(req.url, "http://front");
  let rel = decodeURIComponent(url.pathname);
  if (rel.endsWith("/")) rel += "index.html";
  const file = path.resolve(dist, "." + rel);
  if (!file.startsWith(path.resolve(dist) + path.sep)) {
    res.writeHead(403).end();
    return;
  }
  fs.readFile(file, (err, body) => {
    if (err) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    res.writeHead(200, {
      "content-type": TYPES[path.extname(file)] ?? "application/octet-stream",
      "cache-control": "no-store",
    });
    res.end(body);
  });
}

function forward(upstream, req, res) {
  const target = new URL(req.url, upstream);
  const headers = { ...req.headers, host: target.host };
  const out = http.request(
    target,
    { method: req.method, headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  out.on("error", (e) => {
    if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
    res.end(`front: upstream ${upstream} failed: ${e.message}`);
  });
  req.pipe(out);
}

/**
 * Starts the front on `port` (0: any free port) and prints the READY line.
 *
 * `routes` maps a path prefix (e.g. "/api/") to the upstream origin that answers it, or to a
 * `(req, res) => void` handler run in this process. Anything else is a file of the page.
 */
export function startFront({ routes, port = 0, dist = distDir() }) {
  const entries = Object.entries(routes);
  const server = http.createServer((req, res) => {
    const hit = entries.find(([prefix]) => req.url.startsWith(prefix));
    if (!hit) return serveFile(dist, req, res);
    const [, to] = hit;
    if (typeof to === "function") return to(req, res);
    return forward(to, req, res);
  });
  return new Promise((resolve) => {
    server.listen(port, "127.0.0.1", () => {
      const url = `http://127.0.0.1:${server.address().port}`;
      console.log(`READY ${url}`);
      resolve({ server, url });
    });
  });
}
