//! The agent-server REST API (every endpoint) as data: for each endpoint, the request
//! `AgentServerClient` sends (method, path with query, JSON body) and how it reads the answer
//! into a value or a [`ChatError`]. Pure, so every URL, query string, body and reply shape is
//! a native test (tests/core/api.rs); the browser side only runs `fetch`.
//!
//! Rules kept here: ids are percent-encoded path segments; query parameters are sent only when
//! truthy (a non-empty string, a number above zero; so `offset=0` is never sent); 204 or an empty
//! 2xx body is success where no value is expected; `PATCH /conversations/:id` and `GET /files/:id`
//! accept the bare object and the `{ conversation }` / `{ file }` wrapper (servers and their docs
//! differ); a non-2xx answer is read as the error envelope into [`ChatError::Api`] with its
//! lower-case code, the server's wording and the status.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::error::{ApiError, ProtocolError};
use super::session::{encode, ChatError, ErrorContext, Method};
use super::wire::{
    decode_body, decode_optional_body, AgentInfo, AgentList, Conversation, ConversationEnvelope,
    ConversationList, ConversationWithMessages, CreateConversationRequest, FileEnvelope,
    FileRecord, MessagesPage, Resolution, ResolveActionRequest, ResolveActionResponse,
    SendMessageRequest, SendMessageResponse, UpdateConversationRequest, UploadFile,
};

/// One request of the API: what `fetch` is asked to do. Headers are the transport's
/// and are added by the io layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiRequest {
    /// HTTP method.
    pub method: Method,
    /// Path below the base URL, starting with `/`, including the query string.
    pub path: String,
    /// JSON body (never on GET or DELETE).
    pub body: Option<String>,
}

impl ApiRequest {
    fn new(method: Method, path: String) -> ApiRequest {
        ApiRequest {
            method,
            path,
            body: None,
        }
    }

    fn with_json<T: Serialize>(method: Method, path: String, body: &T) -> ApiRequest {
        ApiRequest {
            method,
            path,
            // Serialising these plain structs cannot fail; an empty object is a safe fallback.
            body: Some(serde_json::to_string(body).unwrap_or_else(|_| "{}".to_owned())),
        }
    }
}

/// An endpoint call: the request plus how its answer is read.
#[derive(Clone, Debug)]
pub struct ApiCall<T> {
    /// What to send.
    pub request: ApiRequest,
    /// What is being done, for the generic wording of a failure.
    pub context: ErrorContext,
    decode: fn(&str) -> Result<T, ProtocolError>,
}

impl<T> ApiCall<T> {
    fn new(
        request: ApiRequest,
        context: ErrorContext,
        decode: fn(&str) -> Result<T, ProtocolError>,
    ) -> ApiCall<T> {
        ApiCall {
            request,
            context,
            decode,
        }
    }

    /// Reads the answer: a non-2xx status is the error envelope as
    /// [`ChatError::Api`]; a 2xx body of the wrong shape is [`ChatError::BadResponse`].
    ///
    /// # Errors
    /// As above; never panics, whatever the body.
    pub fn read(&self, status: u16, body: &str) -> Result<T, ChatError> {
        if !(200..300).contains(&status) {
            return Err(ChatError::Api {
                context: self.context,
                error: ApiError::from_body(status, body),
            });
        }
        (self.decode)(body).map_err(|e| ChatError::BadResponse {
            context: self.context,
            detail: e.to_string(),
        })
    }

    /// The error for a request that got no response ([`ChatError::from_transport`]).
    #[must_use]
    pub fn transport_error(&self, error: &crate::TransportError) -> ChatError {
        ChatError::from_transport(self.context, error)
    }

    /// The error for a request that got no response at all (`detail` is the browser's text).
    #[must_use]
    pub fn network_error(&self, detail: &str) -> ChatError {
        ChatError::Network {
            context: self.context,
            detail: detail.to_owned(),
        }
    }
}

/// `GET /conversations` query (`getConversations`): every field is optional and sent only when
/// truthy.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConversationsQuery {
    /// Only this agent's conversations (empty = all).
    pub agent_id: Option<String>,
    /// Only this user's conversations (empty = all).
    pub user_id: Option<String>,
    /// Page size (`0`/absent = server default, 20).
    pub limit: Option<u32>,
    /// Rows to skip (`0`/absent = none).
    pub offset: Option<u32>,
}

/// Order of a page of messages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MessageOrder {
    /// Oldest first (the server's default).
    #[default]
    Asc,
    /// Newest first.
    Desc,
}

impl MessageOrder {
    /// The wire spelling.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            MessageOrder::Asc => "asc",
            MessageOrder::Desc => "desc",
        }
    }
}

/// `GET /conversations/:id/messages` query (`getMessages`): sent only when truthy.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MessagesQuery {
    /// Page size (`0`/absent = server default, 100).
    pub limit: Option<u32>,
    /// Messages to skip.
    pub offset: Option<u32>,
    /// Order; absent = the server's `asc`.
    pub order: Option<MessageOrder>,
}

/// `POST /conversations/:id/messages` options (`sendMessage` / `sendMessageStream`); `stream` is
/// set by the method used.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SendMessageOptions {
    /// The text (the server refuses an empty one with 400).
    pub message: String,
    /// Files sent inline: raw base64 content.
    pub files: Vec<UploadFile>,
    /// Free-form metadata.
    pub metadata: Option<Map<String, Value>>,
}

/// Optional fields of an answer from the versioned action records for
/// [`resolve_action_with`] / [`resolve_action_stream_with`]. Both are left out of the body
/// when `None`, which is what [`resolve_action`] sends.
///
/// ```
/// use agent_chat_core::api::ResolveActionOptions;
/// // The action's `version` as the server sent it, and one key per click, reused on retry.
/// let options = ResolveActionOptions::new().version(3).decision_key("7d3c…");
/// assert_eq!(options.version, Some(3));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResolveActionOptions {
    /// The action record's `version` (`PendingAction::version`), echoed so a server can refuse
    /// a decision about an older version with 409 `action_version_conflict`.
    pub version: Option<i64>,
    /// Idempotency key (`decisionKey`): a new one (a UUID) per decision, the same one when that
    /// decision is retried, so a server that already applied it returns the same outcome.
    pub decision_key: Option<String>,
}

impl ResolveActionOptions {
    /// No optional fields (the same as `Default`).
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Sends `version`.
    #[must_use]
    pub fn version(mut self, version: i64) -> Self {
        self.version = Some(version);
        self
    }

    /// Sends `decisionKey`.
    #[must_use]
    pub fn decision_key(mut self, key: impl Into<String>) -> Self {
        self.decision_key = Some(key.into());
        self
    }
}

/// `POST /files` body (`uploadFile`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UploadFileRequest {
    /// Name, raw base64 content and MIME type.
    pub file: UploadFile,
    /// Conversation the file belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conversation_id: Option<String>,
    /// Free-form metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
}

/// Appends `name=value` (both encoded) when `value` is a non-empty string.
fn push_str(query: &mut Vec<String>, name: &str, value: Option<&str>) {
    if let Some(v) = value.filter(|v| !v.is_empty()) {
        query.push(format!("{name}={}", encode(v)));
    }
}

/// Appends `name=value` when `value` is above zero.
fn push_num(query: &mut Vec<String>, name: &str, value: Option<u32>) {
    if let Some(v) = value.filter(|v| *v > 0) {
        query.push(format!("{name}={v}"));
    }
}

/// `path` with `?a=1&b=2`, or `path` alone when nothing is set.
fn with_query(path: String, query: &[String]) -> String {
    if query.is_empty() {
        path
    } else {
        format!("{path}?{}", query.join("&"))
    }
}

/// `v[key]` when it is an object, else `v` (a wrapped or bare reply).
fn unwrapped(v: Value, key: &str) -> Value {
    match v {
        Value::Object(mut obj) if matches!(obj.get(key), Some(Value::Object(_))) => {
            obj.remove(key).unwrap_or(Value::Null)
        }
        other => other,
    }
}

/// Any 2xx body, `{ success: true }` and empty alike, means done (servers differ: the docs say
/// `{ success: true }`, the code sends 204).
fn no_value(_: &str) -> Result<(), ProtocolError> {
    Ok(())
}

/// `GET /agents` → the agents (unreadable entries dropped).
#[must_use]
pub fn get_agents() -> ApiCall<Vec<AgentInfo>> {
    ApiCall::new(
        ApiRequest::new(Method::Get, "/agents".into()),
        ErrorContext::Agents,
        |body| decode_body::<AgentList>("GET /agents", body).map(|l| l.agents),
    )
}

/// `GET /agents/:id` → the agent (bare, or wrapped in `{ agent }`).
#[must_use]
pub fn get_agent(agent_id: &str) -> ApiCall<AgentInfo> {
    ApiCall::new(
        ApiRequest::new(Method::Get, format!("/agents/{}", encode(agent_id))),
        ErrorContext::Agents,
        |body| {
            const ENDPOINT: &str = "GET /agents/:id";
            let v: Value = decode_body(ENDPOINT, body)?;
            AgentInfo::deserialize(unwrapped(v, "agent"))
                .map_err(|e| ProtocolError::bad_body(ENDPOINT, &e))
        },
    )
}

/// `GET /conversations?agentId&userId&limit&offset` → one page of the list.
#[must_use]
pub fn get_conversations(query: &ConversationsQuery) -> ApiCall<ConversationList> {
    let mut q = Vec::new();
    push_str(&mut q, "agentId", query.agent_id.as_deref());
    push_str(&mut q, "userId", query.user_id.as_deref());
    push_num(&mut q, "limit", query.limit);
    push_num(&mut q, "offset", query.offset);
    ApiCall::new(
        ApiRequest::new(Method::Get, with_query("/conversations".into(), &q)),
        ErrorContext::LoadConversations,
        |body| decode_body("GET /conversations", body),
    )
}

/// `POST /conversations` → the created conversation (201 `{ conversation }`).
#[must_use]
pub fn create_conversation(request: &CreateConversationRequest) -> ApiCall<Conversation> {
    ApiCall::new(
        ApiRequest::with_json(Method::Post, "/conversations".into(), request),
        ErrorContext::Send,
        |body| ConversationEnvelope::parse("POST /conversations", body),
    )
}

/// `GET /conversations/:id` → the conversation, its messages and open actions.
#[must_use]
pub fn get_conversation(conversation_id: &str) -> ApiCall<ConversationWithMessages> {
    ApiCall::new(
        ApiRequest::new(
            Method::Get,
            format!("/conversations/{}", encode(conversation_id)),
        ),
        ErrorContext::LoadConversation,
        |body| decode_body("GET /conversations/:id", body),
    )
}

/// `PATCH /conversations/:id` → the updated conversation (bare or wrapped).
#[must_use]
pub fn update_conversation(
    conversation_id: &str,
    request: &UpdateConversationRequest,
) -> ApiCall<Conversation> {
    ApiCall::new(
        ApiRequest::with_json(
            Method::Patch,
            format!("/conversations/{}", encode(conversation_id)),
            request,
        ),
        ErrorContext::Rename,
        |body| ConversationEnvelope::parse("PATCH /conversations/:id", body),
    )
}

/// `DELETE /conversations/:id` → nothing (204; a 200 with any body counts too).
#[must_use]
pub fn delete_conversation(conversation_id: &str) -> ApiCall<()> {
    ApiCall::new(
        ApiRequest::new(
            Method::Delete,
            format!("/conversations/{}", encode(conversation_id)),
        ),
        ErrorContext::Delete,
        no_value,
    )
}

/// `GET /conversations/:id/messages?limit&offset&order` → one page of messages.
#[must_use]
pub fn get_messages(conversation_id: &str, query: &MessagesQuery) -> ApiCall<MessagesPage> {
    let mut q = Vec::new();
    push_num(&mut q, "limit", query.limit);
    push_num(&mut q, "offset", query.offset);
    if let Some(order) = query.order {
        q.push(format!("order={}", order.as_str()));
    }
    ApiCall::new(
        ApiRequest::new(
            Method::Get,
            with_query(
                format!("/conversations/{}/messages", encode(conversation_id)),
                &q,
            ),
        ),
        ErrorContext::LoadConversation,
        |body| decode_body("GET /conversations/:id/messages", body),
    )
}

fn send_request(conversation_id: &str, options: &SendMessageOptions, stream: bool) -> ApiRequest {
    ApiRequest::with_json(
        Method::Post,
        format!("/conversations/{}/messages", encode(conversation_id)),
        &SendMessageRequest {
            message: options.message.clone(),
            files: options.files.clone(),
            metadata: options.metadata.clone(),
            stream,
        },
    )
}

/// `POST /conversations/:id/messages` with `stream: false` → the stored user and
/// assistant messages (and, extension, `status`/`pendingActions`).
#[must_use]
pub fn send_message(
    conversation_id: &str,
    options: &SendMessageOptions,
) -> ApiCall<SendMessageResponse> {
    ApiCall::new(
        send_request(conversation_id, options, false),
        ErrorContext::Send,
        |body| decode_body("POST /conversations/:id/messages", body),
    )
}

/// `POST /conversations/:id/messages` with `stream: true`. Only a refusal is read through this call
/// (its body is the error envelope); a 2xx body is the event stream, decoded by `SseDecoder`.
#[must_use]
pub fn send_message_stream(conversation_id: &str, options: &SendMessageOptions) -> ApiCall<()> {
    ApiCall::new(
        send_request(conversation_id, options, true),
        ErrorContext::Send,
        no_value,
    )
}

fn resolve_request(
    conversation_id: &str,
    action_id: &str,
    resolution: &Resolution,
    options: &ResolveActionOptions,
    stream: bool,
) -> ApiRequest {
    ApiRequest::with_json(
        Method::Post,
        format!(
            "/conversations/{}/actions/{}",
            encode(conversation_id),
            encode(action_id)
        ),
        &ResolveActionRequest {
            resolution: resolution.clone(),
            stream,
            version: options.version,
            decision_key: options.decision_key.clone(),
        },
    )
}

/// `POST /conversations/:cid/actions/:aid` with `stream: false` → the settled
/// action, turn status, continuation message and open actions. An empty 2xx body reads
/// as an empty answer. Sends neither `version` nor `decisionKey`; see [`resolve_action_with`].
#[must_use]
pub fn resolve_action(
    conversation_id: &str,
    action_id: &str,
    resolution: &Resolution,
) -> ApiCall<ResolveActionResponse> {
    resolve_action_with(
        conversation_id,
        action_id,
        resolution,
        &ResolveActionOptions::default(),
    )
}

/// [`resolve_action`] with the optional fields of versioned records (`version`, `decisionKey`).
#[must_use]
pub fn resolve_action_with(
    conversation_id: &str,
    action_id: &str,
    resolution: &Resolution,
    options: &ResolveActionOptions,
) -> ApiCall<ResolveActionResponse> {
    ApiCall::new(
        resolve_request(conversation_id, action_id, resolution, options, false),
        ErrorContext::Send,
        |body| {
            decode_optional_body("POST /conversations/:cid/actions/:aid", body)
                .map(Option::unwrap_or_default)
        },
    )
}

/// `POST /conversations/:cid/actions/:aid` with `stream: true`: like [`send_message_stream`], a 2xx
/// body is an event stream.
#[must_use]
pub fn resolve_action_stream(
    conversation_id: &str,
    action_id: &str,
    resolution: &Resolution,
) -> ApiCall<()> {
    resolve_action_stream_with(
        conversation_id,
        action_id,
        resolution,
        &ResolveActionOptions::default(),
    )
}

/// [`resolve_action_stream`] with the optional fields of versioned records (`version`,
/// `decisionKey`).
#[must_use]
pub fn resolve_action_stream_with(
    conversation_id: &str,
    action_id: &str,
    resolution: &Resolution,
    options: &ResolveActionOptions,
) -> ApiCall<()> {
    ApiCall::new(
        resolve_request(conversation_id, action_id, resolution, options, true),
        ErrorContext::Send,
        no_value,
    )
}

/// `POST /files` → the stored file record (201 `{ file }`, bare accepted).
#[must_use]
pub fn upload_file(request: &UploadFileRequest) -> ApiCall<FileRecord> {
    ApiCall::new(
        ApiRequest::with_json(Method::Post, "/files".into(), request),
        ErrorContext::File,
        |body| decode_body::<FileEnvelope>("POST /files", body).map(|e| e.file),
    )
}

/// `GET /files/:id` → the file record (bare, or wrapped in `{ file }`).
#[must_use]
pub fn get_file(file_id: &str) -> ApiCall<FileRecord> {
    ApiCall::new(
        ApiRequest::new(Method::Get, format!("/files/{}", encode(file_id))),
        ErrorContext::File,
        |body| decode_body::<FileEnvelope>("GET /files/:id", body).map(|e| e.file),
    )
}

/// `DELETE /files/:id` → nothing (204).
#[must_use]
pub fn delete_file(file_id: &str) -> ApiCall<()> {
    ApiCall::new(
        ApiRequest::new(Method::Delete, format!("/files/{}", encode(file_id))),
        ErrorContext::File,
        no_value,
    )
}

/// `GET /files/:id/content`: the path of a file's bytes, for a link or an `<img src>` (no request
/// is made).
#[must_use]
pub fn file_content_path(file_id: &str) -> String {
    format!("/files/{}/content", encode(file_id))
}
