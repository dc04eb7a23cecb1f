// LangGraph's own API server (@langchain/langgraph-api's `startServer`, what `langgraph dev`
// runs) in this process, serving `langgraph/graph.mjs` as the graph `agent`; lib/front.mjs in
// front serves the page and forwards `/langgraph/…` to it (without the prefix), so page and
// agent share one origin. Its storage files go to a fresh temporary directory. GET /_test/log
// lists what reached the API through the front (method, path, status), for the journeys.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { startServer } from "@langchain/langgraph-api/server";
import { startFront } from "./lib/front.mjs";

const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "langgraph-"));
const { host } = await startServer({
  port: 0,
  nWorkers: 2,
  host: "127.0.0.1",
  cwd,
  graphs: { agent: path.resolve(import.meta.dirname, "langgraph/graph.mjs:graph") },
});
const upstream = `http://${host}`;
// What reached the API through the front (method, path, the API's status), for the journeys:
// GET /_test/log.
const log = [];
startFront({
  routes: {
    "/langgraph/": below("/langgraph", upstream),
    "/_test/": (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(log));
    },
  },
});

/**
 * Forwards a request under `prefix` to `origin` without the prefix (the API answers at its
 * root, as behind a reverse proxy's `location /langgraph/ { proxy_pass …/; }`), streamed.
 */
function below(prefix, origin) {
  return (req, res) => {
    const target = new URL(req.url.slice(prefix.length), origin);
    const out = http.request(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host } },
      (answer) => {
        log.push({ method: req.method, path: target.pathname, status: answer.statusCode });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on("error", (e) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`langgraph front: ${e.message}`);
    });
    // The page's Stop drops its request: the run is then cancelled (`on_disconnect`).
    res.on("close", () => out.destroy());
    req.pipe(out);
  };
}
