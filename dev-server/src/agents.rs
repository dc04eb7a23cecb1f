//! The catalog of scripted demo agents (`AgentInfo`, PROTOCOL §4) and their per-agent settings.

use serde_json::{json, Value};

/// What E9 does while a person-facing action is open (PROTOCOL §9.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PendingActionPolicy {
    /// Refuse the message with 409 `action_pending`.
    Block,
    /// Cancel the open actions, then process the message.
    Cancel,
}

/// Ids of all demo agents, in listing order.
pub const AGENT_IDS: [&str; 9] = [
    "echo", "support", "ops", "survey", "feedback", "hasty", "long", "host", "deploy",
];

/// `AgentInfo` of one agent, or `None` when unknown.
pub fn info(id: &str) -> Option<Value> {
    let v = match id {
        "echo" => json!({
            "id": "echo", "name": "Echo", "version": "1.0.0",
            "description": "Repeats what you say, after counting the words with a tool",
            "metadata": { "enableFileUpload": true }
        }),
        "support" => json!({
            "id": "support", "name": "Support", "version": "1.0.0",
            "description": "Drafts a customer email and asks for approval before sending it",
            "metadata": { "enableFileUpload": true }
        }),
        "ops" => json!({
            "id": "ops", "name": "Ops", "version": "1.0.0",
            "description": "Runs sandbox commands after approval; a new message cancels a waiting request",
            "metadata": { "pendingActionComposerMode": "cancel" },
            "capabilities": { "approvalArgsEdit": true }
        }),
        "survey" => json!({
            "id": "survey", "name": "Survey", "version": "1.0.0",
            "description": "Asks a few setup questions",
            "metadata": {}
        }),
        "feedback" => json!({
            "id": "feedback", "name": "Feedback", "version": "1.0.0",
            "description": "Asks two optional feedback questions that can be skipped",
            "metadata": {}
        }),
        "hasty" => json!({
            "id": "hasty", "name": "Hasty", "version": "1.0.0",
            "description": "Asks for approval with a short deadline and gives up on its own",
            "metadata": {}
        }),
        "long" => json!({
            "id": "long", "name": "Long", "version": "1.0.0",
            "description": "Streams a long markdown answer in many small pieces",
            "metadata": {}
        }),
        "host" => json!({
            "id": "host", "name": "Host page tools", "version": "1.0.0",
            "description": "Asks the embedding page for the text selected on it",
            "metadata": {}
        }),
        "deploy" => json!({
            "id": "deploy", "name": "Deploy", "version": "1.0.0",
            "description": "Asks one free-text question the composer can answer",
            "metadata": {}
        }),
        _ => return None,
    };
    Some(v)
}

/// Every agent's `AgentInfo`.
pub fn catalog() -> Vec<Value> {
    AGENT_IDS.iter().filter_map(|id| info(id)).collect()
}

/// Display name of an agent.
pub fn name(id: &str) -> Option<String> {
    info(id).and_then(|v| v["name"].as_str().map(str::to_string))
}

/// True when the agent's `metadata.enableFileUpload` is `true`.
pub fn accepts_files(id: &str) -> bool {
    info(id).is_some_and(|v| v["metadata"]["enableFileUpload"] == json!(true))
}

/// The agent's default pending-action policy (`ops` cancels, everyone else blocks).
pub fn default_policy(id: &str) -> PendingActionPolicy {
    if id == "ops" {
        PendingActionPolicy::Cancel
    } else {
        PendingActionPolicy::Block
    }
}

/// Policy of a conversation: `metadata.pendingActionPolicy` (`"block"`/`"cancel"`) when set at
/// creation or by PATCH, else the agent's default.
pub fn conversation_policy(agent_id: &str, metadata: &Value) -> PendingActionPolicy {
    match metadata.get("pendingActionPolicy").and_then(Value::as_str) {
        Some("cancel") => PendingActionPolicy::Cancel,
        Some("block") => PendingActionPolicy::Block,
        _ => default_policy(agent_id),
    }
}
