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
pub const AGENT_IDS: [&str; 11] = [
    "echo", "support", "ops", "survey", "feedback", "hasty", "long", "host", "deploy", "files",
    "research",
];

/// `files`: what its metadata lets through (PROTOCOL §4, C16), enforced by E9 as well.
pub const FILES_ALLOWED_TYPES: [&str; 2] = ["image/*", ".txt"];
/// `files`: largest attachment in bytes (1 MiB).
pub const FILES_MAX_FILE_SIZE: usize = 1024 * 1024;
/// `files`: most attachments per message.
pub const FILES_MAX_FILES: usize = 3;

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
        "files" => json!({
            "id": "files", "name": "Files", "version": "1.0.0",
            "description": "Takes images and .txt files (at most 3, 1 MB each) and names what it got",
            "metadata": {
                "enableFileUpload": true,
                "allowedFileTypes": FILES_ALLOWED_TYPES,
                "maxFileSize": FILES_MAX_FILE_SIZE,
                "maxFiles": FILES_MAX_FILES
            }
        }),
        "research" => json!({
            "id": "research", "name": "Research", "version": "1.0.0",
            "description": "Searches the web (pretend) and answers with seven sources",
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

/// Checks attachments against an agent's own `allowedFileTypes` / `maxFileSize` / `maxFiles`
/// metadata: `Err` names the first problem (`TooMany`, or the file that is too large or of a
/// type not listed). Types match as the client matches them (C39): `type/*`, `.ext`, exact.
pub fn check_agent_files(id: &str, files: &[(&str, &str, usize)]) -> Result<(), FileProblem> {
    let Some(info) = info(id) else {
        return Ok(());
    };
    let meta = &info["metadata"];
    if let Some(max) = meta["maxFiles"].as_u64() {
        if files.len() as u64 > max {
            return Err(FileProblem::TooMany(max as usize));
        }
    }
    for (name, mime, size) in files {
        if let Some(max) = meta["maxFileSize"].as_u64() {
            if *size as u64 > max {
                return Err(FileProblem::TooLarge(name.to_string(), max as usize));
            }
        }
        if let Some(list) = meta["allowedFileTypes"].as_array() {
            let ok = list
                .iter()
                .filter_map(Value::as_str)
                .any(|p| type_matches(p, name, mime));
            if !ok {
                return Err(FileProblem::InvalidType(mime.to_string()));
            }
        }
    }
    Ok(())
}

/// Why [`check_agent_files`] refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileProblem {
    /// More files than `maxFiles`.
    TooMany(usize),
    /// `(name, maxFileSize)`.
    TooLarge(String, usize),
    /// The MIME type of a file no pattern matches.
    InvalidType(String),
}

fn type_matches(pattern: &str, name: &str, mime: &str) -> bool {
    let p = pattern.trim().to_ascii_lowercase();
    let mime = mime
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    if p == "*" || p == "*/*" {
        return true;
    }
    if p.starts_with('.') {
        return name.to_ascii_lowercase().ends_with(&p);
    }
    match p.strip_suffix("/*") {
        Some(kind) => mime.split_once('/').is_some_and(|(k, _)| k == kind),
        None => mime == p,
    }
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
