//! E10–E13: upload (base64 JSON), read metadata, delete, download content.

use axum::body::{Body, Bytes};
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use super::messages::decode_file;
use super::{check_access, json_body, opt_object, opt_string, Caller};
use crate::error::ApiError;
use crate::ids::new_id;
use agent_chat_core::time::Millis;

use crate::model::{now_ms, FileRecord};
use crate::store::FileEntry;
use crate::AppState;

/// E10: `POST /files` `{ file: { name, content, mimeType }, conversationId?, metadata? }` →
/// 201 `{ file: FileRecord }`.
pub async fn upload(
    State(app): State<AppState>,
    caller: Caller,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body = json_body(body)?;
    let file = body
        .get("file")
        .and_then(Value::as_object)
        .ok_or_else(|| ApiError::validation("file is required"))?;
    let conversation_id = opt_string(&body, "conversationId")?.filter(|s| !s.is_empty());
    let metadata = opt_object(&body, "metadata")?;
    let (name, mime_type, bytes) = decode_file(&app, file, "file")?;
    let mut store = app.lock();
    if let Some(cid) = &conversation_id {
        let entry = store
            .conversation(cid)
            .ok_or_else(|| ApiError::not_found("Conversation not found"))?;
        check_access(&entry.conversation, &caller)?;
        let agent_id = entry.conversation.agent_id.clone();
        if !crate::agents::accepts_files(&agent_id) {
            return Err(ApiError::attachments_disabled(&agent_id));
        }
    }
    let id = new_id("file");
    let record = FileRecord {
        id: id.clone(),
        name,
        mime_type,
        size: bytes.len() as u64,
        storage_key: format!("memory/{id}"),
        conversation_id,
        message_id: None,
        metadata: metadata.and_then(|m| m.as_object().cloned()),
        created_at: Some(Millis(now_ms().max(0) as u64)),
    };
    store.insert_file(FileEntry {
        record: record.clone(),
        bytes,
    });
    Ok((StatusCode::CREATED, Json(json!({ "file": record }))).into_response())
}

/// E11: the bare `FileRecord`, or 404.
pub async fn get_one(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<FileRecord>, ApiError> {
    app.lock()
        .file(&id)
        .map(|e| Json(e.record.clone()))
        .ok_or_else(|| ApiError::not_found("File not found"))
}

/// E12: 204, or 404.
pub async fn delete(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    if app.lock().remove_file(&id) {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::not_found("File not found"))
    }
}

/// `Content-Disposition: attachment; filename="…"` with an ASCII fallback and, for other
/// names, an RFC 5987 `filename*`.
pub fn content_disposition(name: &str) -> String {
    let ascii: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() && c != '"' && c != '\\' || c == ' ' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if ascii == name {
        return format!("attachment; filename=\"{ascii}\"");
    }
    let mut encoded = String::new();
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            encoded.push(char::from(b));
        } else {
            encoded.push_str(&format!("%{b:02X}"));
        }
    }
    format!("attachment; filename=\"{ascii}\"; filename*=UTF-8''{encoded}")
}

/// E13: the raw bytes with `Content-Type`, `Content-Disposition` and `Content-Length`.
pub async fn content(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let (record, bytes) = {
        let store = app.lock();
        let entry = store
            .file(&id)
            .ok_or_else(|| ApiError::not_found("File not found"))?;
        (entry.record.clone(), entry.bytes.clone())
    };
    let mut res = Response::new(Body::from(bytes.clone()));
    let headers = res.headers_mut();
    let mime = HeaderValue::from_str(&record.mime_type)
        .unwrap_or_else(|_| HeaderValue::from_static("application/octet-stream"));
    headers.insert(header::CONTENT_TYPE, mime);
    if let Ok(v) = HeaderValue::from_str(&content_disposition(&record.name)) {
        headers.insert(header::CONTENT_DISPOSITION, v);
    }
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from(bytes.len()));
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disposition_escapes_names() {
        assert_eq!(
            content_disposition("a.txt"),
            "attachment; filename=\"a.txt\""
        );
        assert_eq!(
            content_disposition("ş\"x.txt"),
            "attachment; filename=\"__x.txt\"; filename*=UTF-8''%C5%9F%22x.txt"
        );
    }
}
