// LangGraph's own API server (@langchain/langgraph-api's `startServer`, what `langgraph dev`
// runs) in memory, serving `langgraph/graph.mjs` as the graph `agent`; lib/front.mjs in front
// serves the page and forwards the API's paths (`/threads`, `/runs`, `/assistants`, …) to it, so page and agent share one origin.
// Its storage files are written to a fresh temporary directory.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startServer } from "@langchain/langgraph-api/server";
import { startFront } from "./lib/front.mjs";

const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "langgraph-"));
const port = 20000 + Math.floor(Math.random() * 20000);
const { host } = await startServer({
  port,
  nWorkers: 2,
  host: "127.0.0.1",
  cwd,
  graphs: { agent: path.resolve(import.meta.dirname, "langgraph/graph.mjs:graph") },
});
const upstream = `http://${host}`;
// The API's own paths, at the front's root: the page's base URL is the origin itself.
const api = ["/threads", "/runs", "/assistants", "/info", "/ok"];
startFront({ routes: Object.fromEntries(api.map((p) => [p, upstream])) });
