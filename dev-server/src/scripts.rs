//! Scripted, deterministic behaviour of the demo agents (no LLM).
//!
//! Texts a UI test can wait for:
//! * `echo`: `You said: <text>` (tool `count_words` → `{ "words": n }`).
//! * `support`: `I drafted an email to <to>. I need your approval before sending it.`; then
//!   `Email sent to <to>.` / `Email sent to <to> with the subject "<subject>" (you edited the draft).` /
//!   `I did not send the email.` (+ ` Reason: <comment>`).
//! * `ops`: ``I'd like to run `ls` in the sandbox. Please approve.``; then ``Ran `<cmd>`:`` + output /
//!   ``I did not run `<cmd>`.`` (+ ` Reason: <comment>`).
//! * `survey`: `Before I set up your workspace, I have a few questions.`; then
//!   `Thanks for your answers.` + a list / `No problem, I skipped the survey.`
//! * `feedback`: `Before you go, two optional questions about this chat.`; then
//!   `Thanks for the feedback.` / `No problem, maybe next time.` (Skip).
//! * `hasty`: `I want to restart the web service. Approve within N seconds, or I will give up.`
//!   (`1 second` when N is 1); then
//!   `Restarted the web service.` / `OK, I did not restart the web service.`; at the deadline the
//!   server appends `The request expired, so I did not run it.`
//! * `long`: a ~2,000-word markdown answer ending with `That is the end of the long answer.`
//! * `host`: `Let me look at what you selected on the page.` + a `client_tool` action
//!   `get_selection {}` for the embedding page; then `You selected: <text>` /
//!   `Nothing is selected.` (result without text) / `The page could not run get_selection: <error>`.
//! * `deploy`: `Which environment should I deploy to?` + one required, option-less question
//!   `Which environment?` (placeholder `e.g. staging`); then `Deploying to <text>.` /
//!   `Deployment cancelled.` With `#choose` in the message the question offers `Staging` /
//!   `Production` instead (one single choice, no free text: a card that submits on pick).
//! * `research`: tools `web_search` (with reasoning and a display name) and `readPages`, then
//!   `Here is what I found. Seven sources cover **<text>**; …` with seven citations (F77).

use std::time::Duration;

use serde_json::{json, Value};

use crate::model::FileAttachment;
use crate::schema::EMAIL_PATTERN;
use crate::store::ActionRecord;
use crate::turn::{count_words, ActionRequest, Turn};

/// Magic word: the turn holds the conversation busy for `Config::slow_ms`.
pub const SLOW: &str = "#slow";
/// The `ops` agent asks for two tool calls in one turn (both wait, seed 001).
pub const BOTH: &str = "#both";
/// Magic word (echo): the turn fails mid-stream with `stream.error` / 500 `INTERNAL_ERROR`.
pub const FAIL: &str = "#fail";
/// Magic word (echo): the stream is closed after the tool result while the turn completes.
pub const CUT: &str = "#cut";
/// Magic word (echo): a `stream.thinking` event is emitted.
pub const THINK: &str = "#think";
/// Magic word (deploy): the question is a single choice of two environments, no free text.
pub const CHOOSE: &str = "#choose";

/// Text appended by the server when it denies an approval at its deadline.
pub const EXPIRED_APPROVAL_REPLY: &str = "The request expired, so I did not run it.";
/// Text appended by the server when a question card lapses.
pub const EXPIRED_QUESTION_REPLY: &str =
    "The questions expired, so I went ahead without your answers.";
/// Text appended by the server when a `client_tool` action lapses (only via `_dev/expire`:
/// the `host` agent sets no deadline).
pub const EXPIRED_CLIENT_TOOL_REPLY: &str = "The page did not answer, so I went ahead without it.";

/// What the `host` agent says before it asks the page for the selection.
pub const HOST_ASK: &str = "Let me look at what you selected on the page.";
/// Name of the `host` agent's client tool.
pub const HOST_TOOL: &str = "get_selection";
/// `host` reply to a result without (or with an empty) `text`.
pub const HOST_NOTHING_SELECTED: &str = "Nothing is selected.";

/// What the `deploy` agent says before it asks its question.
pub const DEPLOY_ASK: &str = "Which environment should I deploy to?";
/// The `deploy` agent's only question (also the key of its answer).
pub const DEPLOY_QUESTION: &str = "Which environment?";
/// `deploy` reply to Skip (`cancelled: true`).
pub const DEPLOY_CANCELLED: &str = "Deployment cancelled.";

/// Default recipient of the `support` agent's email.
pub const SUPPORT_DEFAULT_TO: &str = "customer@example.com";

/// Answers a user message.
pub async fn respond(turn: &mut Turn, text: &str, files: &[FileAttachment]) -> Result<(), String> {
    if text.contains(SLOW) {
        turn.hold().await;
    }
    match turn.agent_id.as_str() {
        "support" => support(turn, text).await,
        "ops" if text.contains(BOTH) => ops_both(turn).await,
        "ops" => ops(turn).await,
        "survey" => survey(turn).await,
        "feedback" => feedback(turn).await,
        "hasty" => hasty(turn).await,
        "long" => long(turn).await,
        "host" => host(turn).await,
        "deploy" => deploy(turn, text.contains(CHOOSE)).await,
        "research" => research(turn, text).await,
        _ => echo(turn, text, files).await,
    }
}

/// Continues a paused turn after an accepted answer.
pub async fn continue_after(
    turn: &mut Turn,
    action: &ActionRecord,
    resolution: &Value,
) -> Result<(), String> {
    if resolution.to_string().contains(SLOW) {
        turn.hold().await;
    }
    if action.kind == "client_tool" {
        return host_continue(turn, action, resolution).await;
    }
    if action.kind == "user_question" {
        if action.agent_id == "feedback" {
            return feedback_continue(turn, resolution).await;
        }
        if action.agent_id == "deploy" {
            turn.say(&deploy_reply(resolution)).await;
            return Ok(());
        }
        return survey_continue(turn, action, resolution).await;
    }
    let tool = action.body["toolName"]
        .as_str()
        .unwrap_or("tool")
        .to_string();
    let allowed = resolution["decision"] == json!("allow");
    let edited = resolution.get("approvedArgs").filter(|v| v.is_object());
    let args = edited
        .cloned()
        .unwrap_or_else(|| action.body["args"].clone());
    let comment = resolution["comment"]
        .as_str()
        .filter(|c| !c.trim().is_empty());
    if allowed && resolution["rememberForSession"] == json!(true) {
        turn.remember(&tool);
    }
    match (tool.as_str(), allowed) {
        ("send_email", true) => {
            send_email(turn, Some(&action.id), &args, edited.is_some()).await;
        }
        ("send_email", false) => {
            turn.say(&with_reason("I did not send the email.", comment))
                .await;
        }
        ("sandbox_exec", true) => {
            let cmd = args["cmd"].as_str().unwrap_or("ls").to_string();
            run_sandbox(turn, &cmd).await;
            turn.execute(&action.id, json!({ "cmd": cmd })).await;
        }
        ("sandbox_exec", false) => {
            let cmd = args["cmd"].as_str().unwrap_or("ls");
            turn.say(&with_reason(&format!("I did not run `{cmd}`."), comment))
                .await;
        }
        ("restart_service", true) => {
            let call = turn.tool_call("restart_service", args.clone());
            turn.tool_result(&call, "restart_service", json!({ "restarted": true }));
            turn.say("Restarted the web service.").await;
            turn.execute(&action.id, json!({ "restarted": true })).await;
        }
        (_, true) => {
            let call = turn.tool_call(&tool, args.clone());
            turn.tool_result(&call, &tool, json!({ "ok": true }));
            turn.say(&format!("Ran {tool}.")).await;
            turn.execute(&action.id, json!({ "ok": true })).await;
        }
        (_, false) => {
            turn.say(&with_reason(&format!("OK, I did not run {tool}."), comment))
                .await;
        }
    }
    Ok(())
}

/// Continuation text the server appends when it settles an action at its deadline.
pub fn timeout_reply(action: &ActionRecord) -> String {
    if action.kind == "user_question" {
        EXPIRED_QUESTION_REPLY.to_string()
    } else if action.kind == "client_tool" {
        EXPIRED_CLIENT_TOOL_REPLY.to_string()
    } else {
        EXPIRED_APPROVAL_REPLY.to_string()
    }
}

fn with_reason(text: &str, comment: Option<&str>) -> String {
    match comment {
        Some(c) => format!("{text} Reason: {c}"),
        None => text.to_string(),
    }
}

async fn echo(turn: &mut Turn, text: &str, files: &[FileAttachment]) -> Result<(), String> {
    let delay = turn.config().chunk_delay_ms;
    turn.progress("processing", "Counting words…", 10);
    if text.contains(THINK) {
        turn.thinking("Let me count the words first.");
    }
    let words = count_words(text);
    let call = turn.tool_call("count_words", json!({ "text": text }));
    turn.sleep_ms(delay).await;
    turn.tool_result(&call, "count_words", json!({ "words": words }));
    if text.contains(CUT) {
        turn.cut_stream();
    }
    if text.contains(FAIL) {
        turn.say("You said: ").await;
        return Err("Scripted failure (#fail)".to_string());
    }
    let mut reply = format!("You said: {text}");
    if !files.is_empty() {
        let list: Vec<String> = files
            .iter()
            .map(|f| format!("{} ({}, {} bytes)", f.name, f.mime_type, f.size))
            .collect();
        reply.push_str(&format!("\n\nAttachments: {}", list.join(", ")));
    }
    turn.say(&reply).await;
    Ok(())
}

/// First thing in `text` that looks like an e-mail address.
fn find_email(text: &str) -> Option<String> {
    text.split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| {
                !c.is_alphanumeric() && c != '@' && c != '.' && c != '_' && c != '-' && c != '+'
            })
        })
        .map(|w| w.trim_end_matches('.'))
        .find(|w| crate::schema::is_email(w))
        .map(str::to_string)
}

fn email_schema() -> Value {
    json!({
        "type": "object",
        "required": ["to", "subject", "body"],
        "additionalProperties": false,
        "properties": {
            "to": { "type": "string", "minLength": 3, "pattern": EMAIL_PATTERN,
                    "description": "Recipient e-mail address" },
            "subject": { "type": "string", "minLength": 1, "maxLength": 200 },
            "body": { "type": "string", "minLength": 1 }
        }
    })
}

async fn send_email(turn: &mut Turn, action_id: Option<&str>, args: &Value, edited: bool) {
    let to = args["to"]
        .as_str()
        .unwrap_or(SUPPORT_DEFAULT_TO)
        .to_string();
    let subject = args["subject"].as_str().unwrap_or("").to_string();
    let call = turn.tool_call("send_email", args.clone());
    // Decided, now executed (seed 004): the card reads Executing… until this completes.
    let sent = json!({ "status": "sent", "to": to });
    let failed = match action_id {
        Some(id) => turn.execute(id, sent.clone()).await,
        // Remembered for the chat: no approval record to report on.
        None => {
            turn.sleep_ms(turn.config().chunk_delay_ms).await;
            None
        }
    };
    if let Some(why) = failed {
        turn.tool_result(
            &call,
            "send_email",
            json!({ "status": "failed", "error": why }),
        );
        turn.say(&format!("I could not send the email to {to}: {why}"))
            .await;
        return;
    }
    turn.tool_result(&call, "send_email", sent);
    let text = if edited {
        format!("Email sent to {to} with the subject \"{subject}\" (you edited the draft).")
    } else {
        format!("Email sent to {to}.")
    };
    turn.say(&text).await;
}

async fn support(turn: &mut Turn, text: &str) -> Result<(), String> {
    let to = find_email(text).unwrap_or_else(|| SUPPORT_DEFAULT_TO.to_string());
    let topic: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let short: String = topic.chars().take(60).collect();
    let args = json!({
        "to": to,
        "subject": format!("Re: {short}"),
        "body": format!(
            "Hello,\n\nThank you for your message about \"{topic}\". We are looking into it and will get back to you shortly.\n\nBest regards,\nSupport"
        ),
    });
    if turn.remembers("send_email") {
        turn.say(&format!(
            "Sending the email to {to} (approval remembered for this chat). "
        ))
        .await;
        send_email(turn, None, &args, false).await;
        return Ok(());
    }
    turn.say(&format!(
        "I drafted an email to {to}. I need your approval before sending it."
    ))
    .await;
    turn.request_action(ActionRequest {
        kind: "tool_approval",
        fields: json!({
            "toolName": "send_email",
            "summary": format!("Send an email to {to}"),
            "args": args,
            "argsSchema": email_schema(),
        }),
        expires_in: Some(Duration::from_secs(24 * 3600)),
    });
    Ok(())
}

fn fake_output(cmd: &str) -> String {
    let cmd = cmd.trim();
    if cmd == "ls" {
        "Cargo.toml\nREADME.md\nsrc\n".to_string()
    } else if cmd.starts_with("ls") {
        "total 12\n-rw-r--r-- 1 agent agent  512 Cargo.toml\n-rw-r--r-- 1 agent agent 2048 README.md\ndrwxr-xr-x 2 agent agent 4096 src\n".to_string()
    } else {
        format!("{cmd}: done\n")
    }
}

async fn run_sandbox(turn: &mut Turn, cmd: &str) {
    let call = turn.tool_call("sandbox_exec", json!({ "cmd": cmd }));
    turn.sleep_ms(turn.config().chunk_delay_ms).await;
    let stdout = fake_output(cmd);
    turn.tool_result(
        &call,
        "sandbox_exec",
        json!({ "exitCode": 0, "stdout": stdout }),
    );
    turn.say(&format!("Ran `{cmd}`:\n\n```\n{stdout}```")).await;
}

async fn ops(turn: &mut Turn) -> Result<(), String> {
    if turn.remembers("sandbox_exec") {
        turn.say("Running `ls` (approval remembered for this chat). ")
            .await;
        run_sandbox(turn, "ls").await;
        return Ok(());
    }
    turn.say("I'd like to run `ls` in the sandbox. Please approve.")
        .await;
    turn.request_action(ActionRequest {
        kind: "tool_approval",
        fields: json!({
            "toolName": "sandbox_exec",
            "summary": "Run a shell command in the sandbox",
            "args": { "cmd": "ls" },
            "argsSchema": {
                "type": "object",
                "required": ["cmd"],
                "additionalProperties": false,
                "properties": { "cmd": { "type": "string", "minLength": 1, "maxLength": 200 } }
            },
        }),
        expires_in: Some(Duration::from_secs(3600)),
    });
    Ok(())
}

/// Two calls of one turn wait together (seed 001: "if the model asked for several tools at
/// once, all of them wait"): restart the web service and run `ls`.
async fn ops_both(turn: &mut Turn) -> Result<(), String> {
    turn.say("I'd like to restart the web service and then run `ls`. Please approve both.")
        .await;
    turn.request_action(ActionRequest {
        kind: "tool_approval",
        fields: json!({
            "toolName": "restart_service",
            "summary": "Restart the web service",
            "args": { "service": "web" },
        }),
        expires_in: Some(Duration::from_secs(3600)),
    });
    turn.request_action(ActionRequest {
        kind: "tool_approval",
        fields: json!({
            "toolName": "sandbox_exec",
            "summary": "Run a shell command in the sandbox",
            "args": { "cmd": "ls" },
        }),
        expires_in: Some(Duration::from_secs(3600)),
    });
    Ok(())
}

/// The survey questions (single choice, multi-select with previews, optional free text).
pub fn survey_questions() -> Value {
    json!([
        {
            "question": "Which plan do you use?",
            "header": "Plan",
            "options": [
                { "label": "Free", "value": "free", "description": "For personal projects" },
                { "label": "Pro", "value": "pro", "description": "For small teams" },
                { "label": "Enterprise", "value": "enterprise", "description": "SSO and audit logs" }
            ],
            "multiSelect": false,
            "allowFreeText": false
        },
        {
            "question": "Which features should we enable?",
            "header": "Features",
            "multiSelect": true,
            "options": [
                { "label": "Dark mode", "value": "dark_mode", "description": "A dark colour theme",
                  "preview": "[ui]\ntheme = \"dark\"" },
                { "label": "Notifications", "value": "notifications", "description": "E-mail digests",
                  "preview": "[notify]\ndigest = \"daily\"" },
                { "label": "Beta features", "value": "beta", "description": "Early access",
                  "preview": "[channel]\nname = \"beta\"" }
            ]
        },
        {
            "question": "Anything else we should know?",
            "header": "Notes",
            "required": false,
            "placeholder": "Optional comments"
        }
    ])
}

async fn survey(turn: &mut Turn) -> Result<(), String> {
    turn.say("Before I set up your workspace, I have a few questions.")
        .await;
    turn.request_action(ActionRequest {
        kind: "user_question",
        fields: json!({ "questions": survey_questions() }),
        expires_in: Some(Duration::from_secs(24 * 3600)),
    });
    Ok(())
}

/// Turns one answer (string, string[], or SDK `{ values, freeText }`) into display labels.
fn answer_labels(question: &Value, answer: &Value) -> Vec<String> {
    let label_of = |v: &str| -> String {
        question["options"]
            .as_array()
            .and_then(|opts| {
                opts.iter()
                    .find(|o| o["value"].as_str().or_else(|| o["label"].as_str()) == Some(v))
            })
            .and_then(|o| o["label"].as_str())
            .unwrap_or(v)
            .to_string()
    };
    match answer {
        Value::String(s) => vec![label_of(s)],
        Value::Array(items) => items
            .iter()
            .filter_map(Value::as_str)
            .map(label_of)
            .collect(),
        Value::Object(o) => {
            let mut out: Vec<String> = o
                .get("values")
                .and_then(Value::as_array)
                .map(|vs| vs.iter().filter_map(Value::as_str).map(label_of).collect())
                .unwrap_or_default();
            if let Some(ft) = o.get("freeText").and_then(Value::as_str) {
                out.push(ft.to_string());
            }
            out
        }
        _ => Vec::new(),
    }
}

async fn survey_continue(
    turn: &mut Turn,
    action: &ActionRecord,
    resolution: &Value,
) -> Result<(), String> {
    if resolution["cancelled"] == json!(true) {
        turn.say("No problem, I skipped the survey.").await;
        return Ok(());
    }
    let mut text = String::from("Thanks for your answers.\n");
    if let Some(questions) = action.body["questions"].as_array() {
        for q in questions {
            let key = q["question"].as_str().unwrap_or("");
            let header = q["header"].as_str().unwrap_or(key);
            let labels = answer_labels(q, &resolution["answers"][key]);
            let shown = if labels.is_empty() {
                "(none)".to_string()
            } else {
                labels.join(", ")
            };
            text.push_str(&format!("\n- {header}: {shown}"));
        }
    }
    turn.say(&text).await;
    Ok(())
}

/// The feedback questions: both optional (so the card offers Skip), a single choice without
/// free text and a free-text field.
pub fn feedback_questions() -> Value {
    json!([
        {
            "question": "How was this chat?",
            "header": "Rating",
            "options": [
                { "label": "Great", "value": "great" },
                { "label": "OK", "value": "ok" },
                { "label": "Poor", "value": "poor" }
            ],
            "multiSelect": false,
            "allowFreeText": false,
            "required": false
        },
        {
            "question": "What could we do better?",
            "header": "Comments",
            "required": false,
            "placeholder": "Optional comments"
        }
    ])
}

async fn feedback(turn: &mut Turn) -> Result<(), String> {
    turn.say("Before you go, two optional questions about this chat.")
        .await;
    turn.request_action(ActionRequest {
        kind: "user_question",
        fields: json!({ "questions": feedback_questions() }),
        expires_in: Some(Duration::from_secs(24 * 3600)),
    });
    Ok(())
}

async fn feedback_continue(turn: &mut Turn, resolution: &Value) -> Result<(), String> {
    if resolution["cancelled"] == json!(true) {
        turn.say("No problem, maybe next time.").await;
    } else {
        turn.say("Thanks for the feedback.").await;
    }
    Ok(())
}

/// The `deploy` agent's single question: required, no options, no header, so the composer
/// can answer it directly.
pub fn deploy_questions() -> Value {
    json!([
        { "question": DEPLOY_QUESTION, "placeholder": "e.g. staging" }
    ])
}

/// What the `research` agent's answer starts with.
pub const RESEARCH_REPLY: &str = "Here is what I found.";

/// The `research` agent's seven sources (F77): linked, one with an image, one untitled, one
/// without a link.
pub fn research_citations() -> Vec<Value> {
    vec![
        json!({ "id": "src_1", "title": "The Rust Programming Language",
                "link": "https://doc.rust-lang.org/book/",
                "description": "The official book: ownership, borrowing, traits and more." }),
        json!({ "id": "src_2", "title": "Leptos",
                "link": "https://leptos.dev/",
                "image": "https://leptos.dev/images/logo.svg",
                "description": "A full-stack framework for building web apps in Rust." }),
        json!({ "id": "src_3", "title": "WebAssembly",
                "link": "https://webassembly.org/",
                "description": "A portable binary format for the web and beyond." }),
        json!({ "id": "src_4", "link": "https://developer.mozilla.org/en-US/docs/Web/API/Clipboard/writeText" }),
        json!({ "id": "src_5", "title": "Server-sent events (HTML Standard)",
                "link": "https://html.spec.whatwg.org/multipage/server-sent-events.html" }),
        json!({ "id": "src_6", "title": "Notes from the team wiki",
                "description": "An internal page without a public address." }),
        json!({ "id": "src_7", "title": "WAI-ARIA Authoring Practices",
                "link": "https://www.w3.org/WAI/ARIA/apg/" }),
    ]
}

async fn research(turn: &mut Turn, text: &str) -> Result<(), String> {
    let delay = turn.config().chunk_delay_ms;
    let call = turn.tool_call_with(
        "web_search",
        json!({ "query": text }),
        json!({ "reasoning": "Searching the web for sources", "displayName": "Web search" }),
    );
    turn.sleep_ms(delay).await;
    turn.tool_result(&call, "web_search", json!({ "results": 7 }));
    let call = turn.tool_call("readPages", json!({ "count": 7 }));
    turn.sleep_ms(delay).await;
    turn.tool_result(&call, "readPages", json!({ "read": 7 }));
    turn.say(&format!(
        "{RESEARCH_REPLY} Seven sources cover **{text}**; the first five are listed below the answer."
    ))
    .await;
    turn.cite(research_citations());
    Ok(())
}

/// The `deploy` agent's question with `#choose`: pick one of two environments (issue 13: the
/// card submits on pick, and only a real choice may pick).
pub fn deploy_choice_questions() -> Value {
    json!([{
        "question": DEPLOY_QUESTION,
        "options": [
            { "label": "Staging", "value": "staging" },
            { "label": "Production", "value": "production" }
        ],
        "allowFreeText": false
    }])
}

async fn deploy(turn: &mut Turn, choose: bool) -> Result<(), String> {
    turn.say(DEPLOY_ASK).await;
    let questions = if choose {
        deploy_choice_questions()
    } else {
        deploy_questions()
    };
    turn.request_action(ActionRequest {
        kind: "user_question",
        fields: json!({ "questions": questions }),
        expires_in: Some(Duration::from_secs(24 * 3600)),
    });
    Ok(())
}

/// The `deploy` agent's reply to a normalised `user_question` resolution.
pub fn deploy_reply(resolution: &Value) -> String {
    if resolution["cancelled"] == json!(true) {
        return DEPLOY_CANCELLED.to_string();
    }
    let labels = answer_labels(
        &deploy_questions()[0],
        &resolution["answers"][DEPLOY_QUESTION],
    );
    format!("Deploying to {}.", labels.join(", ").trim())
}

async fn hasty(turn: &mut Turn) -> Result<(), String> {
    let secs = turn.config().hasty_expiry_secs;
    let unit = if secs == 1 { "second" } else { "seconds" };
    turn.say(&format!(
        "I want to restart the web service. Approve within {secs} {unit}, or I will give up."
    ))
    .await;
    turn.request_action(ActionRequest {
        kind: "tool_approval",
        fields: json!({
            "toolName": "restart_service",
            "args": { "service": "web" },
            "argsSchema": {
                "type": "object",
                "required": ["service"],
                "additionalProperties": false,
                "properties": { "service": { "type": "string", "enum": ["web", "worker"] } }
            },
        }),
        expires_in: Some(Duration::from_secs(secs)),
    });
    Ok(())
}

async fn host(turn: &mut Turn) -> Result<(), String> {
    turn.say(HOST_ASK).await;
    turn.request_action(ActionRequest {
        kind: "client_tool",
        fields: json!({ "toolName": HOST_TOOL, "args": {} }),
        expires_in: None,
    });
    Ok(())
}

/// The `host` agent's reply to a normalised `client_tool` resolution (`result` or `error`).
pub fn host_reply(tool: &str, resolution: &Value) -> String {
    if let Some(error) = resolution.get("error").and_then(Value::as_str) {
        return format!("The page could not run {tool}: {error}");
    }
    match resolution["result"]["text"].as_str() {
        Some(text) if !text.trim().is_empty() => format!("You selected: {text}"),
        _ => HOST_NOTHING_SELECTED.to_string(),
    }
}

async fn host_continue(
    turn: &mut Turn,
    action: &ActionRecord,
    resolution: &Value,
) -> Result<(), String> {
    let tool = action.body["toolName"].as_str().unwrap_or(HOST_TOOL);
    turn.say(&host_reply(tool, resolution)).await;
    Ok(())
}

async fn long(turn: &mut Turn) -> Result<(), String> {
    let text = long_text();
    let delay = turn.config().long_chunk_delay_ms;
    turn.say_chunked(&text, 8, delay).await;
    Ok(())
}

/// Last sentence of the `long` agent's answer.
pub const LONG_END: &str = "That is the end of the long answer.";

/// The `long` agent's deterministic ~2,000-word markdown answer.
pub fn long_text() -> String {
    const TOPICS: [&str; 9] = [
        "Planning",
        "Architecture",
        "Storage",
        "Streaming",
        "Approvals",
        "Testing",
        "Deployment",
        "Monitoring",
        "Maintenance",
    ];
    const SENTENCES: [&str; 12] = [
        "A good plan starts with a clear statement of the problem and the people it affects.",
        "Small steps that can be checked one at a time are easier to trust than a single large change.",
        "Every component should have one job and a narrow interface that other parts can rely on.",
        "When data moves between services, the format must be written down and tested on both sides.",
        "Streaming responses let the reader start early, which makes a slow answer feel much faster.",
        "Actions with side effects deserve a pause so that a person can confirm what will happen.",
        "Automated tests catch regressions long before a user has the chance to notice them.",
        "Deployments should be boring, repeatable and easy to roll back when something goes wrong.",
        "Metrics and logs tell the story of a system that nobody is watching at three in the morning.",
        "Documentation is a gift to the next engineer, who is very often your future self.",
        "Simple defaults with a few well chosen options beat a long list of switches nobody reads.",
        "Reviewing the outcome after each release keeps the next plan honest and grounded.",
    ];
    let mut out = String::from("# A long answer\n\nThis answer is deliberately long so that the interface can be tested with many small streamed pieces.\n");
    let mut k = 0usize;
    for (i, topic) in TOPICS.iter().enumerate() {
        out.push_str(&format!("\n## {}. {topic}\n", i + 1));
        for _ in 0..2 {
            out.push('\n');
            let sentences: Vec<&str> = (0..4)
                .map(|j| SENTENCES[(k + j * 5) % SENTENCES.len()])
                .collect();
            k += 1;
            out.push_str(&sentences.join(" "));
            out.push('\n');
        }
        out.push('\n');
        for j in 0..5 {
            out.push_str(&format!(
                "- **{topic} point {}**: {}\n",
                j + 1,
                SENTENCES[(i + j) % SENTENCES.len()]
            ));
        }
        if i % 3 == 2 {
            out.push_str(&format!(
                "\n```rust\nfn {}_step(n: u32) -> u32 {{\n    n + {}\n}}\n```\n",
                topic.to_lowercase(),
                i + 1
            ));
        }
    }
    out.push_str("\n| Step | Owner | Status |\n|---|---|---|\n| Plan | Team | Done |\n| Build | Team | Done |\n| Ship | Team | Pending |\n");
    out.push_str(&format!("\n{LONG_END}\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_about_two_thousand_words() {
        let text = long_text();
        let words = count_words(&text);
        assert!((1800..=2600).contains(&words), "{words} words");
        assert!(text.chars().count() / 8 >= 1000);
        assert!(text.trim_end().ends_with(LONG_END));
    }

    #[test]
    fn host_replies_to_results_and_errors() {
        let r = |v: Value| host_reply(HOST_TOOL, &v);
        assert_eq!(
            r(json!({ "type": "client_tool", "result": { "text": "hello world" } })),
            "You selected: hello world"
        );
        assert_eq!(
            r(json!({ "result": { "text": "  " } })),
            HOST_NOTHING_SELECTED
        );
        assert_eq!(r(json!({ "result": {} })), HOST_NOTHING_SELECTED);
        assert_eq!(r(json!({ "result": null })), HOST_NOTHING_SELECTED);
        assert_eq!(
            r(json!({ "error": "no document" })),
            "The page could not run get_selection: no document"
        );
    }

    #[test]
    fn deploy_replies_to_answers_and_skip() {
        assert_eq!(
            deploy_reply(&json!({ "answers": { DEPLOY_QUESTION: "staging" } })),
            "Deploying to staging."
        );
        assert_eq!(
            deploy_reply(&json!({ "answers": {}, "cancelled": true })),
            DEPLOY_CANCELLED
        );
    }

    #[test]
    fn finds_email_in_text() {
        assert_eq!(
            find_email("mail bob@example.org, please").as_deref(),
            Some("bob@example.org")
        );
        assert_eq!(find_email("no address here"), None);
    }
}
