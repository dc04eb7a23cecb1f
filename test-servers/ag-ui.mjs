// An AG-UI agent server built from the protocol's own packages: every run input is checked with
// @ag-ui/core's RunAgentInputSchema (a body the schema refuses is answered 400 with zod's
// words), the agent is an @ag-ui/client AbstractAgent whose run() emits typed events, and each
// event is written with @ag-ui/encoder's EventEncoder (SSE), as an AG-UI server does.
//
// The scripted agent, by what the person's last message says:
//   "fail"    -> RUN_ERROR in the agent's words;
//   "delete"  -> a delete_file tool call, then RUN_FINISHED with an interrupt outcome asking for
//                approval (responseSchema: the call's arguments, path under /tmp/; expiresAt in
//                thirty minutes, past the card's 10-minute amber threshold); the resume entry decides it;
//   "expire"  -> the same, expiring after AGUI_SHORT_EXPIRY_MS (default 4000 ms); a resume after
//                it is answered with RUN_ERROR;
//   "confirm" -> a call to the page's confirm_action frontend tool, left for the page
//                (pendingToolCallIds); the next run's tool message answers it;
//   "clean up" -> two delete_file calls and two interrupts in one RUN_FINISHED; the resume must
//                answer both at once (a resume that leaves an interrupt of the run open is a
//                RUN_ERROR, as the protocol's "cover all open interrupts" rule says);
//   "filing"  -> an interrupt bound to no tool call (reason input_required) whose responseSchema
//                asks for a quarter (enum) and a year (integer >= 2000); its message holds
//                markup, which a page must show as text; the payload is checked again here;
//   "story"   -> a long streamed reply (about twelve seconds), for Stop;
//   anything else -> streamed text that repeats it, with a state snapshot and delta.
//
// GET /_test/log returns every run input received, in order, for the journeys to assert on;
// GET /_test/aborted the runIds whose client went away before the run's end (then its remaining
// events are not written, as a server stops a run nobody reads).
// Served with the built page on one origin by lib/front.mjs; the agent is at /ag-ui/agent.

import express from "express";
import { Observable } from "rxjs";
import { AbstractAgent } from "@ag-ui/client";
import { EventType } from "@ag-ui/core";
import { RunAgentInputSchema } from "@ag-ui/core/schemas";
import { EventEncoder } from "@ag-ui/encoder";
import { startFront } from "./lib/front.mjs";

const SHORT_EXPIRY_MS = Number(process.env.AGUI_SHORT_EXPIRY_MS ?? 4000);

/** Every run input received, in order. */
const log = [];
/** Interrupts asked and not yet answered: id -> {runId, expiresAt, path?, toolCallId?, form?}. */
const open = new Map();
/** The runIds whose client went away before the run ended. */
const aborted = [];

/** What the filing interrupt asks for: the resume payload's schema. */
const FILING_SCHEMA = {
  type: "object",
  properties: {
    quarter: { type: "string", title: "Quarter", description: "Which quarter?", enum: ["Q1", "Q2", "Q3", "Q4"] },
    year: { type: "integer", title: "Year", description: "Which year?", minimum: 2000 },
  },
  required: ["quarter", "year"],
  additionalProperties: false,
};

/** Why a filing payload does not fit FILING_SCHEMA, or null. */
function badFiling(p) {
  if (!p || typeof p !== "object") return "the answer is not an object";
  if (!FILING_SCHEMA.properties.quarter.enum.includes(p.quarter)) return `no such quarter: ${p.quarter}`;
  if (!Number.isInteger(p.year) || p.year < 2000) return `not a year from 2000: ${p.year}`;
  return null;
}

const DELETE_SCHEMA = {
  type: "object",
  properties: { path: { type: "string", pattern: "^/tmp/" } },
  required: ["path"],
  additionalProperties: false,
};

function lastUserText(messages) {
  const user = [...messages].reverse().find((m) => m.role === "user");
  if (!user) return "";
  return typeof user.content === "string"
    ? user.content
    : user.content.map((p) => p.text ?? "").join("");
}

/** The scripted agent: an AG-UI AbstractAgent whose run is the script above. */
class ScriptedAgent extends AbstractAgent {
  run(input) {
    return new Observable((sub) => {
      const { threadId, runId } = input;
      const emit = (e) => sub.next(e);
      const text = (messageId, pieces) => {
        emit({ type: EventType.TEXT_MESSAGE_START, messageId, role: "assistant" });
        for (const delta of pieces) emit({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta });
        emit({ type: EventType.TEXT_MESSAGE_END, messageId });
      };
      emit({ type: EventType.RUN_STARTED, threadId, runId });

      // A new message that leaves the interrupts behind cancels them; the run goes on with it.
      const leftBehind = input.messages.at(-1)?.role === "user";
      if (leftBehind) for (const entry of input.resume ?? []) open.delete(entry.interruptId);

      // A resume answers the interrupts of the run before; an answer after expiresAt is a
      // RUN_ERROR, as the protocol says.
      if (input.resume?.length && !leftBehind) {
        // Every open interrupt of a run the resume answers must be in it.
        const answered = new Set(input.resume.map((e) => e.interruptId));
        const runs = new Set(input.resume.map((e) => open.get(e.interruptId)?.runId).filter(Boolean));
        const missing = [...open].filter(([id, o]) => runs.has(o.runId) && !answered.has(id)).map(([id]) => id);
        if (missing.length) {
          emit({ type: EventType.RUN_ERROR, message: `The resume leaves ${missing.join(", ")} open.`, code: "PARTIAL_RESUME" });
          return sub.complete();
        }
        for (const [n, entry] of input.resume.entries()) {
          const asked = open.get(entry.interruptId);
          open.delete(entry.interruptId);
          if (!asked) continue;
          const said = `msg_${runId}_${n}`;
          if (Date.now() > asked.expiresAt) {
            emit({ type: EventType.RUN_ERROR, message: `The approval ${entry.interruptId} expired.`, code: "INTERRUPT_EXPIRED" });
            return sub.complete();
          }
          if (asked.form) {
            if (entry.status !== "resolved") {
              text(said, ["No filing prepared."]);
              continue;
            }
            const bad = badFiling(entry.payload);
            if (bad) {
              emit({ type: EventType.RUN_ERROR, message: `The filing answer does not fit: ${bad}.`, code: "INVALID_PAYLOAD" });
              return sub.complete();
            }
            text(said, ["Preparing the ", `${entry.payload.quarter} ${entry.payload.year}`, " filing."]);
          } else if (entry.status === "resolved") {
            const path = entry.payload?.path ?? asked.path;
            emit({ type: EventType.TOOL_CALL_RESULT, messageId: `res_${runId}_${n}`, toolCallId: asked.toolCallId,
                   content: JSON.stringify({ deleted: path }), role: "tool" });
            text(said, ["Deleted ", path, "."]);
          } else {
            text(said, ["Not deleted. ", `Reason: ${entry.payload?.reason ?? "none given"}`]);
          }
        }
        emit({ type: EventType.RUN_FINISHED, threadId, runId, outcome: { type: "success" } });
        return sub.complete();
      }

      // A tool message answers the confirmation the run before left for the page.
      const last = input.messages.at(-1);
      if (last?.role === "tool") {
        let answer = {};
        try { answer = JSON.parse(last.content); } catch { /* passed on as not approved */ }
        const words = answer.approved
          ? ["Confirmed: sending the report to ", String(answer.arguments?.recipients ?? "?"), "."]
          : ["Not sent. ", `Reason: ${answer.reason ?? "none given"}`];
        text(`msg_${runId}`, words);
        emit({ type: EventType.RUN_FINISHED, threadId, runId, outcome: { type: "success" } });
        return sub.complete();
      }

      const said = lastUserText(input.messages);
      if (/fail/i.test(said)) {
        emit({ type: EventType.RUN_ERROR, message: "The scripted agent failed on request.", code: "SCRIPTED_FAILURE" });
        return sub.complete();
      }
      if (/clean up/i.test(said)) {
        const expiresAt = Date.now() + 30 * 60 * 1000;
        const interrupts = ["/tmp/a.txt", "/tmp/b.txt"].map((path, n) => {
          const toolCallId = `call_${runId}_${n}`;
          emit({ type: EventType.TOOL_CALL_START, toolCallId, toolCallName: "delete_file" });
          emit({ type: EventType.TOOL_CALL_ARGS, toolCallId, delta: JSON.stringify({ path }) });
          emit({ type: EventType.TOOL_CALL_END, toolCallId });
          const id = `int_${runId}_${n}`;
          open.set(id, { runId, expiresAt, path, toolCallId });
          return { id, reason: "tool_call", toolCallId, message: `Delete ${path}?`,
                   responseSchema: DELETE_SCHEMA, expiresAt: new Date(expiresAt).toISOString() };
        });
        emit({ type: EventType.RUN_FINISHED, threadId, runId, outcome: { type: "interrupt", interrupts } });
        return sub.complete();
      }
      if (/filing/i.test(said)) {
        const expiresAt = Date.now() + 30 * 60 * 1000;
        const id = `int_${runId}`;
        open.set(id, { runId, expiresAt, form: true });
        text(`msg_${runId}`, ["I need two details first."]);
        emit({
          type: EventType.RUN_FINISHED, threadId, runId,
          outcome: { type: "interrupt", interrupts: [{
            id, reason: "input_required", message: "Which filing should I prepare? <b>Quarterly</b> only",
            responseSchema: FILING_SCHEMA, expiresAt: new Date(expiresAt).toISOString(),
          }] },
        });
        return sub.complete();
      }
      if (/story/i.test(said)) {
        const story = Array.from({ length: 300 }, (_, i) => `word${i + 1} `);
        text(`msg_${runId}`, ["Once upon a time ", ...story]);
        emit({ type: EventType.RUN_FINISHED, threadId, runId, outcome: { type: "success" } });
        return sub.complete();
      }
      if (/delete|expire/i.test(said)) {
        const toolCallId = `call_${runId}`;
        const path = "/tmp/report.txt";
        text(`msg_${runId}`, ["I will delete ", path, " once you approve."]);
        emit({ type: EventType.TOOL_CALL_START, toolCallId, toolCallName: "delete_file", parentMessageId: `msg_${runId}` });
        emit({ type: EventType.TOOL_CALL_ARGS, toolCallId, delta: '{"path":' });
        emit({ type: EventType.TOOL_CALL_ARGS, toolCallId, delta: JSON.stringify(path) + "}" });
        emit({ type: EventType.TOOL_CALL_END, toolCallId });
        const ttl = /expire/i.test(said) ? SHORT_EXPIRY_MS : 30 * 60 * 1000;
        const expiresAt = Date.now() + ttl;
        const id = `int_${runId}`;
        open.set(id, { runId, expiresAt, path, toolCallId });
        emit({
          type: EventType.RUN_FINISHED, threadId, runId,
          outcome: { type: "interrupt", interrupts: [{
            id, reason: "tool_approval", toolCallId, message: `Delete ${path}?`,
            responseSchema: DELETE_SCHEMA, expiresAt: new Date(expiresAt).toISOString(),
          }] },
        });
        return sub.complete();
      }
      if (/confirm/i.test(said)) {
        const toolCallId = `call_${runId}`;
        emit({ type: EventType.TOOL_CALL_START, toolCallId, toolCallName: "confirm_action" });
        emit({ type: EventType.TOOL_CALL_ARGS, toolCallId,
               delta: JSON.stringify({ message: "Send the weekly report?", recipients: "team" }) });
        emit({ type: EventType.TOOL_CALL_END, toolCallId });
        emit({ type: EventType.RUN_FINISHED, threadId, runId,
               outcome: { type: "success", pendingToolCallIds: [toolCallId] } });
        return sub.complete();
      }
      emit({ type: EventType.STATE_SNAPSHOT, snapshot: { turns: 0 } });
      emit({ type: EventType.STATE_DELTA, delta: [{ op: "replace", path: "/turns", value: 1 }] });
      text(`msg_${runId}`, ["You said: ", said, ". ", "Streaming works."]);
      emit({ type: EventType.RUN_FINISHED, threadId, runId, outcome: { type: "success" } });
      sub.complete();
    });
  }
}

const agent = new ScriptedAgent({ agentId: "scripted", description: "A scripted AG-UI agent" });
const app = express();
app.use(express.json({ limit: "5mb" }));

app.get("/_test/log", (_req, res) => res.json(log));
app.get("/_test/aborted", (_req, res) => res.json(aborted));

app.post("/ag-ui/agent", (req, res) => {
  log.push(req.body);
  const parsed = RunAgentInputSchema.safeParse(req.body);
  if (!parsed.success) {
    res.status(400).json({ error: { message: `Not a RunAgentInput: ${parsed.error.message}` } });
    return;
  }
  const encoder = new EventEncoder({ accept: req.get("accept") });
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  let n = 0;
  const timers = [];
  res.on("close", () => {
    if (res.writableFinished) return;
    // The client went away (the page's Stop): nothing more is written.
    aborted.push(parsed.data.runId);
    timers.forEach(clearTimeout);
  });
  agent.run(parsed.data).subscribe({
    next: (event) => {
      // Spread over time so the page draws the reply as it streams.
      const at = 40 * n++;
      timers.push(setTimeout(() => res.write(encoder.encode(event)), at));
    },
    complete: () => timers.push(setTimeout(() => res.end(), 40 * n)),
    error: (e) => {
      res.write(encoder.encode({ type: EventType.RUN_ERROR, message: String(e?.message ?? e) }));
      res.end();
    },
  });
});

startFront({ routes: { "/ag-ui/": app, "/_test/": app } });
