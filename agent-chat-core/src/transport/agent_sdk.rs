//! What an agent in the page is given and reports, typed in the agent-sdk's shapes,
//! and their mapping to the chat's: a turn read from the gateway's request
//! ([`read_turn`]), events written as the lines [`super::in_process`] reads
//! ([`AgentLine`]), SDK pending actions as chat cards ([`PendingAction::to_chat`]) and the
//! chat's resolutions as SDK ones ([`Resolution::from_chat`]).
//!
//! Only the edge's agent runner uses this, and only for a host that gives an agent: nothing of
//! it is reachable from the `<agent-chat>` element, so it adds nothing to the element's wasm.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// One turn an agent is asked to run.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentTurn {
    /// The agent the conversation belongs to.
    pub agent_id: String,
    /// The conversation's id in the thread store.
    pub conversation_id: String,
    /// The conversation so far as the thread store keeps it: agent-server messages
    /// (`role`, `content`, `metadata.toolCallDetails`, `metadata.pendingActions`, …),
    /// oldest first. A new message is not among them; see [`AgentTurn::history`].
    pub messages: Vec<Value>,
    /// What starts the turn.
    pub input: TurnInput,
}

impl AgentTurn {
    /// The conversation so far as `(role, text)` pairs of the person's and the agent's
    /// messages, oldest first.
    pub fn history(&self) -> Vec<(String, String)> {
        self.messages
            .iter()
            .filter(|m| matches!(m["role"].as_str(), Some("user" | "assistant")))
            .map(|m| {
                let role = m["role"].as_str().unwrap_or_default().to_owned();
                (role, super::reply::content_text(&m["content"]))
            })
            .collect()
    }
}

/// What starts a turn.
// One per turn, matched by hosts: plain fields read better than a box.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum TurnInput {
    /// The person wrote a message.
    Message {
        /// Its text.
        text: String,
        /// The names of the files attached to it.
        files: Vec<String>,
    },
    /// The person answered one of the actions the agent paused on.
    Resume {
        /// The action, as the agent reported it.
        action: PendingAction,
        /// The answer.
        resolution: Resolution,
    },
}

/// An action an agent waits on (agent-sdk).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PendingAction {
    /// A question to the person (`toolName: "ask_user_question"` with `questions`).
    UserQuestion(PendingUserQuestion),
    /// A tool call that needs the person's approval.
    ToolApproval(PendingToolApproval),
}

/// Where an SDK pending action stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PendingStatus {
    /// Waiting for the person.
    #[default]
    Pending,
    /// Approved (or answered).
    Approved,
    /// Rejected.
    Rejected,
    /// Approved and run.
    Executed,
}

/// SDK `PendingToolApproval`: a tool call waiting for approval.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingToolApproval {
    /// The action id (the card answers it).
    pub id: String,
    /// The tool call it belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// The tool.
    pub tool_name: String,
    /// The arguments the agent wants to call it with.
    #[serde(default)]
    pub args: Value,
    /// Where it stands.
    #[serde(default)]
    pub status: PendingStatus,
    /// When it was asked (ISO 8601).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requested_at: Option<String>,
    /// `prompt`: the card's title; `defaults`: kept as given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Value>,
    /// The tool's input schema: the card checks edited arguments against it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_schema: Option<Value>,
}

/// SDK `PendingUserQuestion`: questions for the person.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingUserQuestion {
    /// The action id.
    pub id: String,
    /// The tool call it belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// `ask_user_question`.
    #[serde(default = "ask_user_question")]
    pub tool_name: String,
    /// One to four questions (the chat's shapes: `question`, `header`, `options`,
    /// `multiSelect`, `allowFreeText`, `placeholder`, `required`).
    pub questions: Vec<Value>,
    /// Where it stands.
    #[serde(default)]
    pub status: PendingStatus,
    /// When it was asked (ISO 8601).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requested_at: Option<String>,
    /// Whether free text is offered besides the options (a question's own flag wins).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_free_text: Option<bool>,
}

impl Default for PendingUserQuestion {
    fn default() -> PendingUserQuestion {
        PendingUserQuestion {
            id: String::new(),
            tool_call_id: None,
            tool_name: ask_user_question(),
            questions: Vec::new(),
            status: PendingStatus::Pending,
            requested_at: None,
            allow_free_text: None,
        }
    }
}

fn ask_user_question() -> String {
    "ask_user_question".to_owned()
}

impl PendingAction {
    /// The action id.
    pub fn id(&self) -> &str {
        match self {
            PendingAction::UserQuestion(q) => &q.id,
            PendingAction::ToolApproval(a) => &a.id,
        }
    }

    /// The chat's pending action for this SDK one: a `tool_approval`
    /// with the same id, tool and arguments, `title` = `metadata.prompt`, `argsSchema` = the
    /// input schema; or a `user_question` with its questions and `allowFreeText`.
    pub fn to_chat(&self) -> Value {
        let (mut chat, tool_call_id, requested_at) = match self {
            PendingAction::ToolApproval(a) => {
                let mut chat = json!({ "id": a.id, "type": "tool_approval",
                                       "toolName": a.tool_name, "args": object_or_empty(&a.args) });
                if let Some(prompt) = a.metadata.as_ref().and_then(|m| m["prompt"].as_str()) {
                    chat["title"] = Value::from(prompt);
                }
                if let Some(schema) = &a.input_schema {
                    chat["argsSchema"] = schema.clone();
                }
                (chat, &a.tool_call_id, &a.requested_at)
            }
            PendingAction::UserQuestion(q) => {
                let mut chat = json!({ "id": q.id, "type": "user_question",
                                       "questions": q.questions });
                if let Some(free) = q.allow_free_text {
                    chat["allowFreeText"] = Value::from(free);
                }
                (chat, &q.tool_call_id, &q.requested_at)
            }
        };
        if let Some(call) = tool_call_id {
            chat["toolCallId"] = Value::from(call.as_str());
        }
        if let Some(at) = requested_at {
            chat["createdAt"] = Value::from(at.as_str());
        }
        chat
    }

    /// The SDK action for a chat one as the thread keeps it; `None` for a kind the SDK does
    /// not have.
    pub fn from_chat(chat: &Value) -> Option<PendingAction> {
        let kind = chat["type"].as_str().or_else(|| chat["kind"].as_str())?;
        let id = chat["id"].as_str()?.to_owned();
        let tool_call_id = chat["toolCallId"].as_str().map(str::to_owned);
        let requested_at = chat["createdAt"].as_str().map(str::to_owned);
        match kind {
            "tool_approval" => Some(PendingAction::ToolApproval(PendingToolApproval {
                id,
                tool_call_id,
                tool_name: chat["toolName"].as_str().unwrap_or_default().to_owned(),
                args: object_or_empty(&chat["args"]),
                status: PendingStatus::Pending,
                requested_at,
                metadata: chat["title"].as_str().map(|t| json!({ "prompt": t })),
                input_schema: chat.get("argsSchema").cloned(),
            })),
            "user_question" => Some(PendingAction::UserQuestion(PendingUserQuestion {
                id,
                tool_call_id,
                tool_name: ask_user_question(),
                questions: chat["questions"].as_array().cloned().unwrap_or_default(),
                status: PendingStatus::Pending,
                requested_at,
                allow_free_text: chat["allowFreeText"].as_bool(),
            })),
            _ => None,
        }
    }
}

fn object_or_empty(args: &Value) -> Value {
    if args.is_object() {
        args.clone()
    } else {
        json!({})
    }
}

/// The person's answer, in the SDK's resolve shapes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Resolution {
    /// The answer to a tool approval.
    Approval(ApprovalResolution),
    /// The answers to a question.
    Question(QuestionResolution),
}

/// SDK resolve of an approval: `{ id, approved, approvedArgs?, comment?, decidedBy? }`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApprovalResolution {
    /// The action id.
    pub id: String,
    /// Allowed (`true`) or denied.
    pub approved: bool,
    /// The arguments the person edited, when they differ from the asked ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approved_args: Option<Value>,
    /// The person's reason for a denial.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// Who decided (not known in the page).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<String>,
}

/// SDK resolve of a question: `{ id, answers: { [question]: { values, freeText?, notes? } },
/// cancelled? }`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QuestionResolution {
    /// The action id.
    pub id: String,
    /// The answers by question text; unanswered optional questions are missing.
    pub answers: BTreeMap<String, QuestionAnswer>,
    /// The person skipped the questions.
    #[serde(default)]
    pub cancelled: bool,
}

/// One question's answer (SDK).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QuestionAnswer {
    /// The chosen options' values.
    #[serde(default)]
    pub values: Vec<String>,
    /// Text the person typed instead of (or besides) choosing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub free_text: Option<String>,
    /// Notes (not asked for by the chat).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
}

impl Resolution {
    /// The SDK resolution of the chat's `resolution` to `action` (the agent SDK's): `approved` from
    /// `decision == "allow"`, with `approvedArgs` and `comment`; an answer that equals an option's
    /// value goes to `values`, other text to `freeText`.
    pub fn from_chat(action: &PendingAction, resolution: &Value) -> Resolution {
        match action {
            PendingAction::ToolApproval(a) => Resolution::Approval(ApprovalResolution {
                id: a.id.clone(),
                approved: resolution["decision"].as_str() == Some("allow"),
                approved_args: resolution
                    .get("approvedArgs")
                    .filter(|v| !v.is_null())
                    .cloned(),
                comment: resolution["comment"].as_str().map(str::to_owned),
                decided_by: None,
            }),
            PendingAction::UserQuestion(q) => {
                let mut answers = BTreeMap::new();
                let cancelled = resolution["cancelled"].as_bool() == Some(true);
                let given = resolution["answers"].as_object().filter(|_| !cancelled);
                for (question, answer) in given.into_iter().flatten() {
                    let values = option_values(q, question);
                    let entries: Vec<&str> = match answer {
                        Value::Array(many) => many.iter().filter_map(Value::as_str).collect(),
                        other => other.as_str().into_iter().collect(),
                    };
                    let (chosen, typed): (Vec<&str>, Vec<&str>) = entries
                        .into_iter()
                        .partition(|e| values.iter().any(|v| v == e));
                    answers.insert(
                        question.clone(),
                        QuestionAnswer {
                            values: chosen.into_iter().map(str::to_owned).collect(),
                            free_text: (!typed.is_empty()).then(|| typed.join("\n")),
                            notes: None,
                        },
                    );
                }
                Resolution::Question(QuestionResolution {
                    id: q.id.clone(),
                    answers,
                    cancelled,
                })
            }
        }
    }
}

/// The option values of one question (`value`, else `label`).
fn option_values(q: &PendingUserQuestion, question: &str) -> Vec<String> {
    q.questions
        .iter()
        .filter(|x| x["question"].as_str() == Some(question))
        .flat_map(|x| x["options"].as_array().cloned().unwrap_or_default())
        .filter_map(|o| {
            o["value"]
                .as_str()
                .or_else(|| o["label"].as_str())
                .map(str::to_owned)
        })
        .collect()
}

/// Token counts of a turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// Prompt tokens.
    pub input_tokens: u64,
    /// Answer tokens.
    pub output_tokens: u64,
}

/// How a turn ended, when it did not fail.
#[derive(Clone, Debug, PartialEq)]
pub enum AgentOutcome {
    /// It is over.
    Done {
        /// What it cost, if known.
        usage: Option<Usage>,
    },
    /// It waits on the person: each action becomes a card; answering one runs the next turn
    /// with [`TurnInput::Resume`].
    Paused {
        /// The actions it waits on (at least one).
        actions: Vec<PendingAction>,
        /// What it cost so far, if known.
        usage: Option<Usage>,
    },
}

/// One event of a running turn, written as the line [`super::in_process`] reads.
#[derive(Clone, Debug, PartialEq)]
pub enum AgentLine<'a> {
    /// More of the answer.
    Text(&'a str),
    /// A tool started.
    ToolCall {
        /// The call id.
        id: &'a str,
        /// The tool.
        name: &'a str,
        /// Its arguments.
        args: &'a Value,
    },
    /// A tool finished.
    ToolResult {
        /// The call id.
        id: &'a str,
        /// The tool.
        name: &'a str,
        /// What it returned (a failure: `{error}`).
        result: &'a Value,
    },
    /// The turn ended.
    End(&'a Result<AgentOutcome, String>),
}

impl AgentLine<'_> {
    /// The event as one JSON line, `\n` included.
    pub fn encode(&self) -> Vec<u8> {
        let usage = |u: &Option<Usage>| {
            u.map(|u| {
                json!({ "inputTokens": u.input_tokens, "outputTokens": u.output_tokens,
                        "totalTokens": u.input_tokens + u.output_tokens })
            })
        };
        let mut event = match self {
            AgentLine::Text(text) => json!({ "type": "text", "text": text }),
            AgentLine::ToolCall { id, name, args } => {
                json!({ "type": "tool_call", "id": id, "name": name, "args": args })
            }
            AgentLine::ToolResult { id, name, result } => {
                json!({ "type": "tool_result", "id": id, "name": name, "result": result })
            }
            AgentLine::End(Ok(AgentOutcome::Done { usage: u })) => {
                json!({ "type": "done", "usage": usage(u) })
            }
            AgentLine::End(Ok(AgentOutcome::Paused { actions, usage: u })) => {
                let chat: Vec<Value> = actions.iter().map(PendingAction::to_chat).collect();
                json!({ "type": "pause", "pendingActions": chat, "usage": usage(u) })
            }
            AgentLine::End(Err(message)) => json!({ "type": "error", "message": message }),
        };
        if event["usage"].is_null() {
            if let Some(map) = event.as_object_mut() {
                map.remove("usage");
            }
        }
        let mut line = event.to_string().into_bytes();
        line.push(b'\n');
        line
    }
}

/// Reads the turn the gateway asked for ([`super::in_process::request_body`] or
/// [`super::in_process::resume_body`]); `Err` says what is wrong with it.
pub fn read_turn(body: &str) -> Result<AgentTurn, String> {
    let value: Value = serde_json::from_str(body).map_err(|e| e.to_string())?;
    let input = if let Some(resume) = value.get("resume") {
        let action = PendingAction::from_chat(&resume["action"])
            .ok_or("the answered action is not one an agent asks")?;
        let resolution = Resolution::from_chat(&action, &resume["resolution"]);
        TurnInput::Resume { action, resolution }
    } else {
        TurnInput::Message {
            text: value["message"].as_str().unwrap_or_default().to_owned(),
            files: value["files"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|f| f.as_str().map(str::to_owned))
                .collect(),
        }
    };
    Ok(AgentTurn {
        agent_id: value["agentId"].as_str().unwrap_or_default().to_owned(),
        conversation_id: value["conversationId"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        messages: value["messages"].as_array().cloned().unwrap_or_default(),
        input,
    })
}
