//! E9 `POST /conversations/:id/messages`: JSON or SSE reply, pending-action policies, refusals.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use axum::Json;
use chrono::Utc;
use serde_json::{json, Map, Value};

use super::{denies, json_body, magic_refusal, opt_object, Caller};
use crate::agents::PendingActionPolicy;
use crate::error::ApiError;
use crate::ids::{attachment_id, new_id};
use crate::model::{FileAttachment, Message};
use crate::store::ActionStatus;
use crate::turn::{BusyGuard, Trigger, Turn};
use crate::{sse, AppState};

/// A decoded attachment of a send request.
struct IncomingFile {
    attachment: FileAttachment,
}

/// Checks one attachment's type and size against the configuration (415 / 413).
pub fn check_file(app: &AppState, name: &str, mime: &str, size: usize) -> Result<(), ApiError> {
    let cfg = app.config();
    let mime_lc = mime.to_ascii_lowercase();
    if cfg
        .denied_mime_types
        .iter()
        .any(|d| d.eq_ignore_ascii_case(&mime_lc))
    {
        return Err(ApiError::unsupported_file_type(mime));
    }
    if size > cfg.max_file_size {
        return Err(ApiError::file_too_large(name, cfg.max_file_size));
    }
    Ok(())
}

/// Decodes `{ name, content (base64), mimeType }`, refusing bad types/sizes before decoding.
pub fn decode_file(
    app: &AppState,
    file: &Map<String, Value>,
    path: &str,
) -> Result<(String, String, Vec<u8>), ApiError> {
    let name = file
        .get("name")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .ok_or_else(|| ApiError::validation(format!("{path}.name is required")))?;
    let content = file
        .get("content")
        .and_then(Value::as_str)
        .ok_or_else(|| ApiError::validation(format!("{path}.content is required")))?;
    let mime = file
        .get("mimeType")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .ok_or_else(|| ApiError::validation(format!("{path}.mimeType is required")))?;
    check_file(app, name, mime, crate::b64::decoded_len_estimate(content))?;
    let bytes = crate::b64::decode(content)
        .map_err(|_| ApiError::validation(format!("{path}.content is not valid base64")))?;
    check_file(app, name, mime, bytes.len())?;
    Ok((name.to_string(), mime.to_string(), bytes))
}

fn parse_files(app: &AppState, body: &Map<String, Value>) -> Result<Vec<IncomingFile>, ApiError> {
    let list = match body.get("files") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(list)) => list,
        Some(_) => return Err(ApiError::validation("files must be an array")),
    };
    let mut out = Vec::new();
    for (i, item) in list.iter().enumerate() {
        let path = format!("files[{i}]");
        match item {
            Value::Object(file) => {
                let (name, mime_type, bytes) = decode_file(app, file, &path)?;
                out.push(IncomingFile {
                    attachment: FileAttachment {
                        id: attachment_id(),
                        name,
                        mime_type,
                        size: bytes.len() as u64,
                        url: None,
                        storage_key: None,
                    },
                });
            }
            // Tolerated docs variant: the id of a file uploaded with E10.
            Value::String(file_id) => {
                let store = app.lock();
                let entry = store
                    .file(file_id)
                    .ok_or_else(|| ApiError::not_found(format!("File not found: {file_id}")))?;
                out.push(IncomingFile {
                    attachment: FileAttachment {
                        id: entry.record.id.clone(),
                        name: entry.record.name.clone(),
                        mime_type: entry.record.mime_type.clone(),
                        size: entry.record.size,
                        url: None,
                        storage_key: None,
                    },
                });
            }
            _ => return Err(ApiError::validation(format!("{path} must be an object"))),
        }
    }
    Ok(out)
}

/// E9 handler.
pub async fn send(
    State(app): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    match send_inner(app, caller, id, body).await {
        Ok(r) => r,
        Err(e) => e.into_response(),
    }
}

/// A send that passed every check: the user message is stored and the conversation is busy.
struct Admitted {
    agent_id: String,
    cancelled: Vec<String>,
    busy: BusyGuard,
    user_message: Message,
}

/// Outcome of the synchronous checks of E9.
enum Admission {
    /// Go ahead with the turn.
    Go(Admitted),
    /// An access problem reported inside an SSE stream.
    InStream(Response),
}

/// Reports an access problem: inside the stream when streaming (PROTOCOL §5), else as JSON.
fn access_problem(stream: bool, err: ApiError) -> Result<Admission, ApiError> {
    if stream {
        Ok(Admission::InStream(sse::error_response(
            &err.message,
            err.code,
        )))
    } else {
        Err(err)
    }
}

/// Runs the checks that need the store (404/403, attachments, magic words, busy, policy),
/// applies the cancel policy, stores the user message and marks the conversation busy.
fn admit(
    app: &AppState,
    caller: &Caller,
    conversation_id: &str,
    stream: bool,
    text: &str,
    files: Vec<IncomingFile>,
    metadata: Option<Value>,
) -> Result<Admission, ApiError> {
    let mut store = app.lock();
    store.expire_due(Some(conversation_id), Utc::now());
    let Some(entry) = store.conversation(conversation_id) else {
        return access_problem(stream, ApiError::not_found("Conversation not found"));
    };
    if denies(&entry.conversation, caller) {
        return access_problem(
            stream,
            ApiError::forbidden("You do not have access to this conversation"),
        );
    }
    let agent_id = entry.conversation.agent_id.clone();
    if crate::agents::info(&agent_id).is_none() {
        return access_problem(
            stream,
            ApiError::not_found(format!("Agent not found: {agent_id}")),
        );
    }
    let policy = crate::agents::conversation_policy(&agent_id, &entry.conversation.metadata);
    if !files.is_empty() && !crate::agents::accepts_files(&agent_id) {
        return Err(ApiError::attachments_disabled(&agent_id));
    }
    let listed: Vec<(&str, &str, usize)> = files
        .iter()
        .map(|f| {
            let a = &f.attachment;
            (
                a.name.as_str(),
                a.mime_type.as_str(),
                usize::try_from(a.size).unwrap_or(usize::MAX),
            )
        })
        .collect();
    if let Err(problem) = crate::agents::check_agent_files(&agent_id, &listed) {
        return Err(match problem {
            crate::agents::FileProblem::TooMany(max) => {
                ApiError::validation(format!("At most {max} files per message"))
            }
            crate::agents::FileProblem::TooLarge(name, max) => ApiError::file_too_large(&name, max),
            crate::agents::FileProblem::InvalidType(mime) => ApiError::unsupported_file_type(&mime),
        });
    }
    if let Some(refusal) = magic_refusal(text) {
        return Err(refusal);
    }
    if store.is_busy(conversation_id) {
        return Err(ApiError::conversation_busy());
    }
    let open: Vec<String> = store
        .open_actions(conversation_id)
        .into_iter()
        .filter(|a| a.is_person_facing())
        .map(|a| a.id.clone())
        .collect();
    if !open.is_empty() && policy == PendingActionPolicy::Block {
        return Err(ApiError::action_pending());
    }
    let cancelled: Vec<String> = open
        .iter()
        .filter(|id| {
            store
                .settle_action(id, ActionStatus::Cancelled, None, None, Some("rejected"))
                .is_some()
        })
        .cloned()
        .collect();
    store.try_acquire_busy(conversation_id);
    let busy = BusyGuard::adopt(app, conversation_id);
    let mut user_message = Message::new(new_id("msg"), conversation_id, "user", text.to_string());
    user_message.files = files.into_iter().map(|f| f.attachment).collect();
    if let Some(m) = metadata {
        user_message.metadata = m;
    }
    store.push_message(conversation_id, user_message.clone());

    Ok(Admission::Go(Admitted {
        agent_id,
        cancelled,
        busy,
        user_message,
    }))
}

async fn send_inner(
    app: AppState,
    caller: Caller,
    conversation_id: String,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body = json_body(body)?;
    let stream =
        body.get("stream") == Some(&json!(true)) || body.get("streaming") == Some(&json!(true));
    let text = body
        .get("message")
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
        .ok_or_else(|| ApiError::validation("message is required"))?
        .to_string();
    let max = app.config().max_message_chars;
    if text.chars().count() > max {
        return Err(ApiError::message_too_long(max));
    }
    let metadata = opt_object(&body, "metadata")?;
    let files = parse_files(&app, &body)?;

    let admitted = match admit(
        &app,
        &caller,
        &conversation_id,
        stream,
        &text,
        files,
        metadata,
    )? {
        Admission::Go(a) => a,
        Admission::InStream(response) => return Ok(response),
    };
    let Admitted {
        agent_id,
        cancelled,
        busy,
        user_message,
    } = admitted;

    let attachments = user_message.files.clone();
    let trigger = Trigger::Message {
        text,
        files: attachments,
    };
    if stream {
        let (tx, rx) = sse::channel();
        let turn = Turn::new(&app, &conversation_id, &agent_id, Some(tx), busy);
        for action_id in &cancelled {
            turn.emit(
                "stream.action_resolved",
                json!({
                    "conversationId": conversation_id,
                    "actionId": action_id,
                    "status": "cancelled",
                }),
            );
        }
        turn.emit(
            "stream.start",
            json!({ "conversationId": conversation_id, "messageId": user_message.id }),
        );
        tokio::spawn(crate::turn::run(turn, trigger));
        return Ok(sse::response(rx));
    }

    let turn = Turn::new(&app, &conversation_id, &agent_id, None, busy);
    let outcome = tokio::spawn(crate::turn::run(turn, trigger))
        .await
        .map_err(|e| ApiError::internal(format!("The agent turn crashed: {e}")))??;
    let mut reply = json!({
        "message": user_message,
        "response": outcome.message,
        "status": outcome.status,
        "usage": outcome.usage,
    });
    if let Some(obj) = reply.as_object_mut() {
        if let Some(title) = outcome.title {
            obj.insert("conversationTitle".into(), json!(title));
        }
        if !outcome.pending_actions.is_empty() {
            obj.insert("pendingActions".into(), json!(outcome.pending_actions));
        }
    }
    Ok(Json(reply).into_response())
}
