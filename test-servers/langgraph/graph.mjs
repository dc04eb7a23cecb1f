// The graph the LangGraph journeys talk to, built with @langchain/langgraph and a scripted chat
// model from @langchain/core (no network, no key). What it does depends on the person's words:
//   "email …"  the model proposes `send_email`; a human interrupt in Agent Inbox's shape asks
//              for it (accept, edit, respond and ignore all allowed), then the tool runs or not;
//   "memo …"   the same for `post_memo`, whose interrupt allows only accept and respond;
//   "city …"   a plain `interrupt("Which city …?")`: the answer is used in the reply;
//   "both …"   the model proposes `send_email` and `post_memo` at once: two review nodes run in
//              parallel and each interrupts, so one run waits on two interrupts;
//   "slowly …" the scripted model streams a long reply slowly (for Stop);
//   "fail …"   the node throws: the run fails with the error's words;
//   anything else: the scripted model streams its reply.
import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import {
  END,
  MessagesAnnotation,
  START,
  StateGraph,
  interrupt,
} from "@langchain/langgraph";

const model = new FakeListChatModel({
  responses: ["Hello from LangGraph. This reply is streamed piece by piece."],
  sleep: 5,
});

const slowModel = new FakeListChatModel({
  responses: [
    "Counting slowly: one, two, three, four, five, six, seven, eight, nine, ten, eleven, twelve.",
  ],
  sleep: 120,
});

function lastHumanText(state) {
  const human = [...state.messages].reverse().find((m) => m.getType() === "human");
  const content = human?.content ?? "";
  return typeof content === "string" ? content : JSON.stringify(content);
}

async function agent(state) {
  const text = lastHumanText(state).toLowerCase();
  if (text.includes("fail")) {
    throw new Error("The weather service is down.");
  }
  if (text.includes("slowly")) {
    return { messages: [await slowModel.invoke(state.messages)] };
  }
  if (text.includes("both")) {
    return {
      messages: [
        new AIMessage({
          content: "I will email Ada and post the memo once you approve.",
          tool_calls: [
            { id: "call_email_2", name: "send_email", args: { to: "ada@example.com", subject: "Hello" } },
            { id: "call_memo_2", name: "post_memo", args: { to: "team", text: "Offsite on Friday" } },
          ],
        }),
      ],
    };
  }
  if (text.includes("memo")) {
    return { messages: [proposal("call_memo_1", "post_memo", { to: "team", text: "Offsite on Friday" })] };
  }
  if (text.includes("email")) {
    return {
      messages: [
        new AIMessage({
          content: "I will email Ada once you approve.",
          tool_calls: [
            {
              id: "call_email_1",
              name: "send_email",
              args: { to: "ada@example.com", subject: "Hello" },
            },
          ],
        }),
      ],
    };
  }
  if (text.includes("city")) {
    const city = interrupt("Which city should I use?");
    return { messages: [new AIMessage(`Using ${city}.`)] };
  }
  const reply = await model.invoke(state.messages);
  return { messages: [reply] };
}

function proposal(id, name, args) {
  return new AIMessage({
    content: `I will use ${name} once you approve.`,
    tool_calls: [{ id, name, args }],
  });
}

/** Asks a person about the `index`th tool call of the last message, then runs it or not. */
function reviewCall(index) {
  return (state) => {
    const proposal = [...state.messages].reverse().find((m) => m.tool_calls?.length);
    const call = proposal.tool_calls[index];
    // The memo can only be accepted or answered in words: no edit, no silent ignore.
    const memo = call.name === "post_memo";
    const [answer] = interrupt([
      {
        action_request: { action: call.name, args: call.args },
        config: {
          allow_accept: true,
          allow_edit: !memo,
          allow_respond: true,
          allow_ignore: !memo,
        },
        description: memo ? `Post a memo to ${call.args.to}` : `Send an email to ${call.args.to}`,
      },
    ]);
    const done = (result, reply) => ({
      messages: [
        new ToolMessage({ tool_call_id: call.id, name: call.name, content: result }),
        new AIMessage(reply),
      ],
    });
    switch (answer?.type) {
      case "accept":
        return done("sent", memo ? "Memo posted." : `Email sent to ${call.args.to}.`);
      case "edit":
        return done("sent", `Email sent to ${answer.args.args.to}.`);
      case "response":
        return done("not sent", `Not sent. You said: ${answer.args}`);
      default:
        return done("skipped", "Skipped sending the email.");
    }
  };
}

function route(state) {
  const last = state.messages[state.messages.length - 1];
  if (last.tool_calls?.length > 1) return ["review_first", "review_second"];
  return last.tool_calls?.length ? "review" : END;
}

export const graph = new StateGraph(MessagesAnnotation)
  .addNode("agent", agent)
  .addNode("review", reviewCall(0))
  .addNode("review_first", reviewCall(0))
  .addNode("review_second", reviewCall(1))
  .addEdge(START, "agent")
  .addConditionalEdges("agent", route, ["review", "review_first", "review_second", END])
  .addEdge("review", END)
  .addEdge("review_first", END)
  .addEdge("review_second", END)
  .compile();
