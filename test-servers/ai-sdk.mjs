// A Vercel AI SDK chat route, as a Next.js app would have it (`app/api/chat/route.ts`):
// `streamText` with tools, two of which need the person's approval (`needsApproval`), answered
// with `result.toUIMessageStreamResponse()`. The model is the SDK's own mock
// (`MockLanguageModelV4` from `ai/test`), scripted by what the person wrote:
//
// - "delete <file>": asks to run `deleteFile` (needs approval); after an approval the tool runs
//   and the model says so, after a denial it repeats the reason it was given;
// - "clean up": asks for two deletions at once (both need approval);
// - "format": asks for `formatDisk` (needs approval), which fails when it runs;
// - "weather": runs `getWeather` (no approval) and answers with its result;
// - "break": the model fails mid-stream (an `error` chunk, in the server's words);
// - "story": a long reply (about twelve seconds), for Stop;
// - "delete" of a file whose name has "slow" in it: the tool takes two and a half seconds;
// - anything else: an echo, streamed in small pieces, that names every file the model was
//   given in the whole conversation ("Files: a.txt."), so a test sees earlier files resent.
//
// The request's signal aborts when the page drops the request (as Next.js gives a route);
// `streamText` is given it as `abortSignal`, as the SDK's docs ask for `stop()` to reach the
// model, and the log records it.
//
// Served with the built page on one origin by lib/front.mjs: POST /api/chat is the route;
// GET /_test/log lists every request body the route received (the tests read what the server
// was told, e.g. a denial's reason), the tools it ran and the streams it saw aborted;
// POST /_test/reset forgets them.

import { convertToModelMessages, simulateReadableStream, stepCountIs, streamText, tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { z } from "zod";

import { startFront } from "./lib/front.mjs";

const log = [];
const executed = [];
const aborted = [];

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 20, text: 20, reasoning: 0 },
};

function finish(reason) {
  return { type: "finish", finishReason: { unified: reason, raw: reason }, usage };
}

function words(id, text) {
  const pieces = text.match(/\S+\s*/g) ?? [];
  return [
    { type: "text-start", id },
    ...pieces.map((delta) => ({ type: "text-delta", id, delta })),
    { type: "text-end", id },
  ];
}

function call(id, toolName, input) {
  return { type: "tool-call", toolCallId: id, toolName, input: JSON.stringify(input) };
}

let calls = 0;

/** What the scripted model says next, from the prompt it is given. */
function script(prompt) {
  const last = prompt.at(-1);
  if (last?.role === "tool") {
    const results = last.content.filter((p) => p.type === "tool-result");
    const lines = results.map((r) => {
      const out = r.output;
      if (out.type === "execution-denied") {
        return `I did not run ${r.toolName}: ${out.reason ?? "no reason given"}.`;
      }
      if (out.type === "error-text" || out.type === "error-json") {
        return `${r.toolName} failed: ${typeof out.value === "string" ? out.value : JSON.stringify(out.value)}.`;
      }
      return `${r.toolName} done: ${JSON.stringify(out.value)}.`;
    });
    return [...words("after", lines.join(" ")), finish("stop")];
  }
  const text = (last?.content ?? [])
    .filter((p) => p.type === "text")
    .map((p) => p.text)
    .join(" ");
  calls += 1;
  const n = calls;
  if (/clean up/i.test(text)) {
    return [
      ...words("t", "I will delete both files."),
      call(`call_a${n}`, "deleteFile", { path: "/tmp/a.txt" }),
      call(`call_b${n}`, "deleteFile", { path: "/tmp/b.txt" }),
      finish("tool-calls"),
    ];
  }
  const file = text.match(/delete\s+(\S+)/i);
  if (file) {
    return [
      ...words("t", `I will delete ${file[1]}.`),
      call(`call_${n}`, "deleteFile", { path: file[1] }),
      finish("tool-calls"),
    ];
  }
  if (/format/i.test(text)) {
    return [call(`call_${n}`, "formatDisk", { disk: "C:" }), finish("tool-calls")];
  }
  if (/weather/i.test(text)) {
    return [call(`call_${n}`, "getWeather", { city: "Istanbul" }), finish("tool-calls")];
  }
  if (/story/i.test(text)) {
    const story = Array.from({ length: 300 }, (_, i) => `word${i + 1}`).join(" ");
    return [...words("t", `Once upon a time ${story}.`), finish("stop")];
  }
  if (/break/i.test(text)) {
    return [...words("t", "Let me think"), { type: "error", error: new Error("The model is overloaded, try again later") }];
  }
  const files = prompt
    .filter((m) => m.role === "user")
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((p) => p.type === "file")
    .map((p) => p.filename ?? p.mediaType);
  const seen = files.length ? ` Files: ${files.join(", ")}.` : "";
  return [...words("t", `You said: ${text}. This reply is streamed in small pieces.${seen}`), finish("stop")];
}

const model = new MockLanguageModelV4({
  provider: "scripted",
  modelId: "scripted-model",
  doStream: async ({ prompt }) => ({
    stream: simulateReadableStream({ chunks: script(prompt), chunkDelayInMs: 40 }),
  }),
});

const tools = {
  deleteFile: tool({
    description: "Deletes a file",
    inputSchema: z.object({ path: z.string() }),
    needsApproval: true,
    execute: async ({ path }) => {
      if (/slow/i.test(path)) await new Promise((done) => setTimeout(done, 2500));
      executed.push({ tool: "deleteFile", path });
      return { deleted: path };
    },
  }),
  formatDisk: tool({
    description: "Formats a disk",
    inputSchema: z.object({ disk: z.string() }),
    needsApproval: true,
    execute: async () => {
      throw new Error("The disk is read-only");
    },
  }),
  getWeather: tool({
    description: "The weather in a city",
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => ({ city, forecast: "sunny" }),
  }),
};

/** The route handler, as `app/api/chat/route.ts` exports it. */
export async function POST(request, signal = request.signal) {
  const body = await request.json();
  log.push(body);
  const result = streamText({
    model,
    messages: await convertToModelMessages(body.messages, { tools }),
    tools,
    stopWhen: stepCountIs(5),
    abortSignal: signal,
  });
  signal.addEventListener("abort", () => aborted.push({ id: body.id }), { once: true });
  return result.toUIMessageStreamResponse({
    onError: (error) => (error instanceof Error ? error.message : String(error)),
  });
}

/** Runs a Fetch API handler for a Node request (what Next.js does for a route). */
async function runRoute(handler, req, res) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  // The client went away before the answer ended: the request's signal aborts.
  const gone = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) gone.abort();
  });
  try {
    const response = await handler(
      new Request(`http://front${req.url}`, {
        method: req.method,
        headers: req.headers,
        body: Buffer.concat(chunks),
        signal: gone.signal,
      }),
      // Node's Request follows this signal only while the Request lives (a weak reference):
      // the handler gets it too, as Next.js keeps the request's signal alive for a route.
      gone.signal,
    );
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) {
      // Read to the end even when nobody listens, so the SDK sees its signal and stops.
      for await (const chunk of response.body) {
        if (!gone.signal.aborted) res.write(chunk);
      }
    }
    res.end();
  } catch (e) {
    if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
    res.end(e instanceof Error ? e.message : String(e));
  }
}

function testRoutes(req, res) {
  if (req.url === "/_test/log") {
    res.writeHead(200, { "content-type": "application/json" });
    return res.end(JSON.stringify({ requests: log, executed, aborted }));
  }
  if (req.url === "/_test/reset" && req.method === "POST") {
    log.length = 0;
    executed.length = 0;
    aborted.length = 0;
    return res.writeHead(204).end();
  }
  res.writeHead(404).end();
}

await startFront({
  port: Number(process.env.PORT ?? 0),
  routes: {
    "/api/chat": (req, res) => {
      if (req.method !== "POST") return res.writeHead(405).end();
      runRoute(POST, req, res);
    },
    "/_test/": testRoutes,
  },
});
