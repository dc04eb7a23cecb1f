// A2A with the reference SDK's own server code, DEFAULT settings (no legacy switch): the
// `@a2a-js/sdk` DefaultRequestHandler over an InMemoryTaskStore, its express JSON-RPC handler
// and its agent card handler at the site root (`/.well-known/agent-card.json`, where the SDK's
// client looks), behind lib/front.mjs on one origin with the page.
//
// The agent (an AgentExecutor) is scripted by the person's words:
// - "fail ..."   the task works, then fails in the agent's words;
// - "... slowly" the task streams a long answer slowly, until it is cancelled (Stop);
// - "book ..."   the task asks which date (input-required); the next message on the task is
//                the answer, and the task streams the booking as an artifact and completes;
// - anything else: the task streams its answer as an artifact in three appended pieces.
//
// GET /_test/log lists every JSON-RPC request the server received (method, A2A-Version header,
// message, the task id a request names), every answer its executor read and every task it was
// asked to cancel, so a journey asserts on the server side.
//
// With A2A_CARD_PATH set (e.g. /cards/travel.json) the card is served there only, not at the
// well-known place: for the page told where the card is (agentCardUrl).

import express from "express";
import { TaskState, Role } from "@a2a-js/sdk";
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from "@a2a-js/sdk/server";
import {
  agentCardHandler,
  jsonRpcHandler,
  UserBuilder,
} from "@a2a-js/sdk/server/express";
import { startFront } from "./lib/front.mjs";

const log = [];
const pause = (ms) => new Promise((r) => setTimeout(r, ms));
const now = () => new Date().toISOString();
let counter = 0;
const cancelled = new Set();
const id = (prefix) => `${prefix}_${++counter}`;

const textPart = (value) => ({
  content: { $case: "text", value },
  metadata: undefined,
  filename: "",
  mediaType: "",
});

const agentMessage = (taskId, contextId, text) => ({
  messageId: id("msg"),
  contextId,
  taskId,
  role: Role.ROLE_AGENT,
  parts: [textPart(text)],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

const textOf = (message) =>
  (message?.parts ?? [])
    .filter((p) => p.content?.$case === "text")
    .map((p) => p.content.value)
    .join("");

const card = {
  name: "Travel Agent",
  description: "Books trips (scripted, @a2a-js/sdk server)",
  supportedInterfaces: [],
  provider: undefined,
  version: "1.0.0",
  documentationUrl: undefined,
  capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
  securitySchemes: {},
  securityRequirements: [],
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain"],
  skills: [
    {
      id: "book",
      name: "Book a trip",
      description: "Finds and books flights",
      tags: ["travel"],
      examples: ["Book a flight to Izmir"],
      inputModes: [],
      outputModes: [],
      securityRequirements: [],
    },
  ],
  signatures: [],
  iconUrl: undefined,
};

class ScriptedAgent {
  async execute(ctx, bus) {
    const { taskId, contextId } = ctx;
    const said = textOf(ctx.userMessage);
    const status = (state, text) =>
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: {
            state,
            message: text === undefined ? undefined : agentMessage(taskId, contextId, text),
            timestamp: now(),
          },
          metadata: undefined,
        }),
      );
    const artifact = (artifactId, text, append, lastChunk) =>
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId,
          contextId,
          artifact: {
            artifactId,
            name: "answer",
            description: "",
            parts: [textPart(text)],
            metadata: undefined,
            extensions: [],
          },
          append,
          lastChunk,
          metadata: undefined,
        }),
      );
    // Every call publishes the task first, a follow-up too (the SDK requires it).
    const task = ctx.task ?? {
      id: taskId,
      contextId,
      status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() },
      artifacts: [],
      history: [ctx.userMessage],
      metadata: undefined,
    };
    const waited = ctx.task?.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED;
    bus.publish(AgentEvent.task(task));
    status(TaskState.TASK_STATE_WORKING);
    await pause(150);
    if (waited) {
      log.push({ answer: said, taskId, contextId });
      const pieces = [`Booked for ${said}: `, "flight TK2410 ", "to Izmir."];
      for (const [i, piece] of pieces.entries()) {
        artifact("booking", piece, i > 0, i === pieces.length - 1);
        await pause(100);
      }
      status(TaskState.TASK_STATE_COMPLETED);
    } else if (/slowly/i.test(said)) {
      const pieces = ["Searching every airline slowly: ", "Atlas, ", "Pegasus, ", "SunExpress, ",
        "Turkish, ", "AJet, ", "Corendon, ", "and the rest. ", "Done searching."];
      for (const [i, piece] of pieces.entries()) {
        if (cancelled.has(taskId)) return;
        artifact("slow", piece, i > 0, i === pieces.length - 1);
        await pause(700);
      }
      if (cancelled.has(taskId)) return;
      status(TaskState.TASK_STATE_COMPLETED);
    } else if (/^fail/i.test(said)) {
      status(TaskState.TASK_STATE_FAILED, "No flights today: the booking system is down.");
    } else if (/book/i.test(said)) {
      status(TaskState.TASK_STATE_INPUT_REQUIRED, "Which date?");
    } else {
      const pieces = ["Flights to Izmir: ", "3 found, ", "the earliest at 07:40."];
      for (const [i, piece] of pieces.entries()) {
        artifact("flights", piece, i > 0, i === pieces.length - 1);
        await pause(120);
      }
      status(TaskState.TASK_STATE_COMPLETED);
    }
    bus.finished();
  }

  async cancelTask(taskId, bus) {
    cancelled.add(taskId);
    log.push({ cancelled: taskId });
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: "",
        status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: now() },
        metadata: undefined,
      }),
    );
    bus.finished();
  }
}

const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new ScriptedAgent());

const app = express();
app.get("/_test/log", (_req, res) => res.json(log));
// What reached the server, before the SDK reads it (its body parser runs inside its router).
app.use("/a2a/jsonrpc", express.json(), (req, _res, next) => {
  log.push({
    method: req.body?.method,
    version: req.header("A2A-Version") ?? null,
    message: req.body?.params?.message ?? null,
    id: req.body?.params?.id ?? null,
  });
  next();
});
app.use(
  "/a2a/jsonrpc",
  jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }),
);
const cardPath = process.env.A2A_CARD_PATH ?? "/.well-known/agent-card.json";
app.use(cardPath, agentCardHandler({ agentCardProvider: handler }));

const { url } = await startFront({
  routes: { "/a2a/": app, "/.well-known/": app, "/_test/": app, "/cards/": app },
});
// The card names the JSON-RPC interface at the front's own origin, once it is known.
card.supportedInterfaces.push({
  url: `${url}/a2a/jsonrpc`,
  protocolBinding: "JSONRPC",
  tenant: "",
  protocolVersion: "1.0",
});
