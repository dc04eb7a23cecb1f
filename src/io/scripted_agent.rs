//! A scripted, deterministic agent for the page: what the in-process example and
//! its browser test run, with no server and no model. Handy for a host's own demos and tests.

use serde_json::json;

use super::agent::{
    sleep, Agent, AgentEvents, AgentOutcome, AgentTurn, PendingAction, PendingToolApproval,
    PendingUserQuestion, Resolution, TurnInput, Usage,
};

/// The tool the agent asks approval for.
pub(crate) const CLEAN_TOOL: &str = "clean_folder";
/// The tool it runs without asking.
pub(crate) const LIST_TOOL: &str = "list_folder";

/// A scripted agent that cleans a build folder, with the person's approval.
///
/// To a message it answers by streaming a sentence, runs `list_folder` (shown with its
/// result), then pauses for approval of `clean_folder {"path": "./build"}`. Approved, it runs
/// the tool and says so (with the edited path, if the person changed it); denied, it leaves
/// the folder alone (and repeats the person's reason). A message that starts with "ask"
/// makes it pause on a question instead ("Which environment?", options `staging` /
/// `production`), and the answer is repeated back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScriptedAgent {
    /// Milliseconds between streamed pieces (0: as fast as the page runs).
    pub delay_ms: u32,
}

impl Default for ScriptedAgent {
    fn default() -> ScriptedAgent {
        ScriptedAgent { delay_ms: 60 }
    }
}

impl ScriptedAgent {
    /// An agent that streams a piece every `delay_ms` milliseconds.
    pub fn new(delay_ms: u32) -> ScriptedAgent {
        ScriptedAgent { delay_ms }
    }

    async fn say(&self, events: &AgentEvents, text: &str) {
        for word in text.split_inclusive(' ') {
            if self.delay_ms > 0 {
                sleep(self.delay_ms).await;
            }
            events.text(word);
        }
    }

    async fn message(&self, turn: &AgentTurn, text: &str, events: &AgentEvents) -> AgentOutcome {
        let n = turn.messages.len();
        if text.trim_start().to_ascii_lowercase().starts_with("ask") {
            self.say(events, "One question before I go on.").await;
            let question = PendingUserQuestion {
                id: format!("question-{n}"),
                questions: vec![
                    json!({ "question": "Which environment?", "header": "Target",
                    "options": [{ "label": "staging" }, { "label": "production" }] }),
                ],
                ..PendingUserQuestion::default()
            };
            return paused(PendingAction::UserQuestion(question));
        }
        self.say(events, "Let me look at the build folder first. ")
            .await;
        let call = format!("list-{n}");
        let args = json!({ "path": "./build" });
        events.tool_call(&call, LIST_TOOL, &args);
        if self.delay_ms > 0 {
            sleep(self.delay_ms).await;
        }
        let listing = json!({ "files": ["app.wasm", "app.js", "index.html"] });
        events.tool_result(&call, LIST_TOOL, &listing);
        self.say(
            events,
            "It holds 3 files. I need your approval to delete them.",
        )
        .await;
        let approval = PendingToolApproval {
            id: format!("approval-{n}"),
            tool_call_id: Some(format!("clean-{n}")),
            tool_name: CLEAN_TOOL.to_owned(),
            args,
            metadata: Some(json!({ "prompt": "Delete the build folder?" })),
            input_schema: Some(json!({ "type": "object", "required": ["path"],
                "properties": { "path": { "type": "string" } } })),
            ..PendingToolApproval::default()
        };
        paused(PendingAction::ToolApproval(approval))
    }

    async fn resume(&self, action: &PendingAction, resolution: &Resolution, events: &AgentEvents) {
        match (action, resolution) {
            (PendingAction::ToolApproval(asked), Resolution::Approval(answer))
                if answer.approved =>
            {
                let args = answer
                    .approved_args
                    .clone()
                    .unwrap_or_else(|| asked.args.clone());
                let call = asked
                    .tool_call_id
                    .clone()
                    .unwrap_or_else(|| asked.id.clone());
                events.tool_call(&call, &asked.tool_name, &args);
                events.tool_result(&call, &asked.tool_name, &json!({ "deleted": 3 }));
                let path = args["path"].as_str().unwrap_or("the folder");
                self.say(events, &format!("Done: deleted 3 files from {path}."))
                    .await;
            }
            (_, Resolution::Approval(answer)) => {
                let mut text = "Understood, I left the build folder alone.".to_owned();
                if let Some(reason) = answer.comment.as_deref().filter(|c| !c.is_empty()) {
                    text.push_str(&format!(" Reason noted: {reason}."));
                }
                self.say(events, &text).await;
            }
            (_, Resolution::Question(answer)) if answer.cancelled => {
                self.say(events, "No answer, so I will not deploy.").await;
            }
            (_, Resolution::Question(answer)) => {
                let chosen: Vec<String> = answer
                    .answers
                    .values()
                    .flat_map(|a| a.values.iter().chain(a.free_text.as_ref()).cloned())
                    .collect();
                self.say(events, &format!("Deploying to {}.", chosen.join(", ")))
                    .await;
            }
        }
    }
}

fn paused(action: PendingAction) -> AgentOutcome {
    AgentOutcome::Paused {
        actions: vec![action],
        usage: Some(Usage {
            input_tokens: 12,
            output_tokens: 24,
        }),
    }
}

impl Agent for ScriptedAgent {
    async fn run(&self, turn: AgentTurn, events: AgentEvents) -> Result<AgentOutcome, String> {
        match &turn.input {
            TurnInput::Message { text, .. } => Ok(self.message(&turn, text, &events).await),
            TurnInput::Resume { action, resolution } => {
                self.resume(action, resolution, &events).await;
                Ok(AgentOutcome::Done { usage: None })
            }
        }
    }
}
