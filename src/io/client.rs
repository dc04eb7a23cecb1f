//! `AgentServerClient`: the agent-server REST API as async methods, for
//! hosts that talk to the server themselves (their own sidebar, a settings page, a script).
//!
//! Each method takes its request from [`crate::core::api`] (URL, query, body, how the answer
//! is read; native tests), runs it with the same `fetch` the chat uses ([`super::http`], the same
//! headers) and returns the value or a [`ChatError`] (code, server wording, status).
//! Streams go through the chat's [`SseDecoder`], so they are read exactly like the
//! chat reads them. Nothing here panics on what a server sends.

use std::cell::RefCell;

use web_sys::AbortController;

use crate::core::api::{self, ApiCall};
pub use crate::core::api::{
    ConversationsQuery, MessageOrder, MessagesQuery, ResolveActionOptions, SendMessageOptions,
    UploadFileRequest,
};
use crate::core::{
    AgentInfo, ChatError, Conversation, ConversationList, ConversationWithMessages,
    CreateConversationRequest, FileRecord, HttpRequest, Input, MessagesPage, RequestId, Resolution,
    ResolveActionResponse, SendMessageResponse, SseDecoder, StreamEvent, TransportError,
    UpdateConversationRequest,
};

use super::http::{run_request, run_stream, TransportConfig};

/// What [`AgentServerClient::new`] needs. `Debug` leaves the token and header values
/// out.
#[derive(Clone, Default, PartialEq)]
pub struct ClientOptions {
    /// Server origin + base path, e.g. `https://agents.example.com/api/agents`; a trailing `/`
    /// is dropped.
    pub base_url: String,
    /// Sent verbatim as `Authorization` on every request (e.g. `Bearer abc`).
    pub authorization: Option<String>,
    /// Extra headers on every request; they override `Content-Type` and `Authorization`.
    pub headers: Vec<(String, String)>,
}

impl std::fmt::Debug for ClientOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        super::http::debug_credentials(
            f,
            "ClientOptions",
            &self.base_url,
            self.authorization.as_ref(),
            &self.headers,
        )
    }
}

/// A callback that receives one stream event.
pub type EventFn = Box<dyn FnMut(&StreamEvent)>;
/// A callback that receives a text chunk and the full text so far.
pub type TextFn = Box<dyn FnMut(&str, &str)>;
/// A callback that receives a `stream.error`.
pub type ErrorFn = Box<dyn FnMut(&ChatError)>;

/// Something to call while a stream is read (the React client's `sendMessageStream` callbacks).
/// Every field is optional; set the ones you need with the builder methods.
#[derive(Default)]
pub struct StreamCallbacks {
    /// `stream.start` (the user message was stored).
    pub on_start: Option<EventFn>,
    /// `stream.text` (and `stream.thinking`, as 0.1.1 does): `(chunk, full text so far)`.
    pub on_text: Option<TextFn>,
    /// `stream.tool_call`.
    pub on_tool_call: Option<EventFn>,
    /// `stream.tool_result`.
    pub on_tool_result: Option<EventFn>,
    /// `stream.progress`.
    pub on_progress: Option<EventFn>,
    /// `stream.action_required`: an approval or question now waits.
    pub on_action_required: Option<EventFn>,
    /// `stream.action_resolved`.
    pub on_action_resolved: Option<EventFn>,
    /// `stream.action_updated`: the server's record of an action changed (its execution
    /// stage, or a new version).
    pub on_action_updated: Option<EventFn>,
    /// `stream.error`, as [`ChatError::Stream`] with its lower-case code. A refused request
    /// or a network failure is the method's `Err` instead.
    pub on_error: Option<ErrorFn>,
    /// `stream.done`, with `status` and `pendingActions` when the turn paused.
    pub on_done: Option<EventFn>,
}

impl StreamCallbacks {
    /// No callbacks.
    #[must_use]
    pub fn new() -> StreamCallbacks {
        StreamCallbacks::default()
    }

    /// Sets [`StreamCallbacks::on_start`].
    #[must_use]
    pub fn on_start(mut self, f: impl FnMut(&StreamEvent) + 'static) -> Self {
        self.on_start = Some(Box::new(f));
        self
    }

    /// Sets [`StreamCallbacks::on_text`].
    #[must_use]
    pub fn on_text(mut self, f: impl FnMut(&str, &str) + 'static) -> Self {
        self.on_text = Some(Box::new(f));
        self
    }

    /// Sets [`StreamCallbacks::on_tool_call`].
    #[must_use]
    pub fn on_tool_call(mut self, f: impl FnMut(&StreamEvent) + 'static) -> Self {
        self.on_tool_call = Some(Box::new(f));
        self
    }

    /// Sets [`StreamCallbacks::on_tool_result`].
    #[must_use]
    pub fn on_tool_result(mut self, f: impl FnMut(&StreamEvent) + 'static) -> Self {
        self.on_tool_result = Some(Box::new(f));
        self
    }

    /// Sets [`StreamCallbacks::on_progress`].
    #[must_use]
    pub fn on_progress(mut self, f: impl FnMut(&StreamEvent) + 'static) -> Self {
        self.on_progress = Some(Box::new(f));
        self
    }

    /// Sets [`StreamCallbacks::on_action_required`].
    #[must_use]
    pub fn on_action_required(mut self, f: impl FnMut(&StreamEvent) + 'static) -> Self {
        self.on_action_required = Some(Box::new(f));
        self
    }

    /// Sets [`StreamCallbacks::on_action_resolved`].
    #[must_use]
    pub fn on_action_resolved(mut self, f: impl FnMut(&StreamEvent) + 'static) -> Self {
        self.on_action_resolved = Some(Box::new(f));
        self
    }

    /// Sets [`StreamCallbacks::on_action_updated`].
    #[must_use]
    pub fn on_action_updated(mut self, f: impl FnMut(&StreamEvent) + 'static) -> Self {
        self.on_action_updated = Some(Box::new(f));
        self
    }

    /// Sets [`StreamCallbacks::on_error`].
    #[must_use]
    pub fn on_error(mut self, f: impl FnMut(&ChatError) + 'static) -> Self {
        self.on_error = Some(Box::new(f));
        self
    }

    /// Sets [`StreamCallbacks::on_done`].
    #[must_use]
    pub fn on_done(mut self, f: impl FnMut(&StreamEvent) + 'static) -> Self {
        self.on_done = Some(Box::new(f));
        self
    }
}

/// How a stream that the server accepted ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamEnd {
    /// `stream.done` arrived.
    Done,
    /// `stream.error` arrived (already reported to `on_error`).
    Failed,
    /// The body ended without either (the server may still have taken it).
    Cut,
    /// The [`AbortHandle`] was used.
    Aborted,
}

/// Stops a stream from elsewhere (the `AbortSignal` of `sendMessageStream`). Cloning shares
/// the same switch.
#[derive(Clone, Debug)]
pub struct AbortHandle {
    controller: Option<AbortController>,
}

impl Default for AbortHandle {
    fn default() -> Self {
        AbortHandle::new()
    }
}

impl AbortHandle {
    /// A fresh handle, not yet aborted.
    #[must_use]
    pub fn new() -> AbortHandle {
        AbortHandle {
            controller: AbortController::new().ok(),
        }
    }

    /// Aborts the request or stream it was given to (at once, or as soon as it starts).
    pub fn abort(&self) {
        if let Some(c) = &self.controller {
            c.abort();
        }
    }

    /// Whether [`AbortHandle::abort`] was called.
    #[must_use]
    pub fn is_aborted(&self) -> bool {
        self.controller
            .as_ref()
            .is_some_and(|c| c.signal().aborted())
    }
}

/// Low-level client of the agent server: one async method per endpoint of
/// the agent server's REST API. Cheap to clone; holds only the configuration.
///
/// ```no_run
/// use agent_chat_ui::core::{ChatError, CreateConversationRequest};
/// use agent_chat_ui::io::client::{SendMessageOptions, StreamCallbacks, StreamEnd};
/// use agent_chat_ui::{AgentServerClient, ClientOptions};
///
/// async fn ask() -> Result<StreamEnd, ChatError> {
///     let client = AgentServerClient::new(ClientOptions {
///         base_url: "https://agents.example.com/api/agents".into(),
///         authorization: Some("Bearer abc".into()),
///         headers: vec![("X-Tenant".into(), "acme".into())],
///     });
///     let conversation = client
///         .create_conversation(&CreateConversationRequest {
///             agent_id: "support".into(),
///             ..Default::default()
///         })
///         .await?;
///     let callbacks = StreamCallbacks::new()
///         .on_text(|_chunk, full| leptos::logging::log!("{full}"))
///         .on_action_required(|event| leptos::logging::log!("needs a person: {event:?}"));
///     let options = SendMessageOptions { message: "Hello".into(), ..Default::default() };
///     // Ok(Done | Failed | Cut | Aborted); pass Some(&AbortHandle::new()) to stop it early.
///     client.send_message_stream(&conversation.id, &options, callbacks, None).await
/// }
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct AgentServerClient {
    config: TransportConfig,
}

impl AgentServerClient {
    /// A client for `options.base_url` with its `Authorization` and custom headers.
    #[must_use]
    pub fn new(options: ClientOptions) -> AgentServerClient {
        let mut config = TransportConfig::new(&options.base_url);
        config.authorization = options.authorization.filter(|a| !a.is_empty());
        config.headers = options.headers;
        AgentServerClient { config }
    }

    /// The base URL every path is appended to (without a trailing `/`).
    #[must_use]
    pub fn base_url(&self) -> &str {
        &self.config.base_url
    }

    async fn call<T>(&self, call: ApiCall<T>) -> Result<T, ChatError> {
        let controller = AbortController::new()
            .map_err(|_| call.network_error("AbortController is not available"))?;
        match run_request(&self.config, http_request(&call), controller).await {
            Input::Response {
                result: Ok(resp), ..
            } => call.read(resp.status, &resp.body),
            Input::Response { result: Err(e), .. } => Err(call.transport_error(&e)),
            _ => Err(call.network_error("no response")),
        }
    }

    /// `GET /agents`: the agents the server offers.
    ///
    /// # Errors
    /// [`ChatError`] when the request is refused, fails or answers something unreadable.
    pub async fn get_agents(&self) -> Result<Vec<AgentInfo>, ChatError> {
        self.call(api::get_agents()).await
    }

    /// `GET /agents/:id`: one agent.
    ///
    /// # Errors
    /// [`ChatError`] (404 `NOT_FOUND` for an unknown id).
    pub async fn get_agent(&self, agent_id: &str) -> Result<AgentInfo, ChatError> {
        self.call(api::get_agent(agent_id)).await
    }

    /// `GET /conversations`: one page of conversations; parameters are sent only when truthy.
    ///
    /// # Errors
    /// [`ChatError`] when the request is refused, fails or answers something unreadable.
    pub async fn get_conversations(
        &self,
        query: &ConversationsQuery,
    ) -> Result<ConversationList, ChatError> {
        self.call(api::get_conversations(query)).await
    }

    /// `POST /conversations`: creates a conversation.
    ///
    /// # Errors
    /// [`ChatError`] (400 without `agent_id`, 404 for an unknown agent).
    pub async fn create_conversation(
        &self,
        request: &CreateConversationRequest,
    ) -> Result<Conversation, ChatError> {
        self.call(api::create_conversation(request)).await
    }

    /// `GET /conversations/:id`: a conversation with its (first 100) messages and open actions.
    ///
    /// # Errors
    /// [`ChatError`] (404, 403).
    pub async fn get_conversation(
        &self,
        conversation_id: &str,
    ) -> Result<ConversationWithMessages, ChatError> {
        self.call(api::get_conversation(conversation_id)).await
    }

    /// `PATCH /conversations/:id`: renames a conversation or changes its metadata; bare or wrapped
    /// answers.
    ///
    /// # Errors
    /// [`ChatError`] (404, 403).
    pub async fn update_conversation(
        &self,
        conversation_id: &str,
        request: &UpdateConversationRequest,
    ) -> Result<Conversation, ChatError> {
        self.call(api::update_conversation(conversation_id, request))
            .await
    }

    /// `DELETE /conversations/:id`: deletes a conversation; 204 (or any 2xx) is `Ok`.
    ///
    /// # Errors
    /// [`ChatError`] (404, 403).
    pub async fn delete_conversation(&self, conversation_id: &str) -> Result<(), ChatError> {
        self.call(api::delete_conversation(conversation_id)).await
    }

    /// `GET /conversations/:id/messages`: one page of a conversation's messages.
    ///
    /// # Errors
    /// [`ChatError`] (404, 403).
    pub async fn get_messages(
        &self,
        conversation_id: &str,
        query: &MessagesQuery,
    ) -> Result<MessagesPage, ChatError> {
        self.call(api::get_messages(conversation_id, query)).await
    }

    /// `POST /conversations/:id/messages` without streaming: sends a message and waits for the
    /// whole reply.
    ///
    /// # Errors
    /// [`ChatError`] (400 for an empty message, 404/403, the codes of a refused answer).
    pub async fn send_message(
        &self,
        conversation_id: &str,
        options: &SendMessageOptions,
    ) -> Result<SendMessageResponse, ChatError> {
        self.call(api::send_message(conversation_id, options)).await
    }

    /// `POST /conversations/:id/messages` streaming: sends a message and reports the reply's events
    /// to `callbacks` as they arrive. Resolves when the stream ends; `abort` stops it early.
    ///
    /// # Errors
    /// [`ChatError`] when the request is refused (error envelope) or the network fails; a
    /// `stream.error` inside an accepted stream goes to `on_error` and gives
    /// `Ok(StreamEnd::Failed)`.
    pub async fn send_message_stream(
        &self,
        conversation_id: &str,
        options: &SendMessageOptions,
        callbacks: StreamCallbacks,
        abort: Option<&AbortHandle>,
    ) -> Result<StreamEnd, ChatError> {
        self.stream(
            api::send_message_stream(conversation_id, options),
            callbacks,
            abort,
        )
        .await
    }

    /// `POST /conversations/:cid/actions/:aid`: answers an approval or a question and waits for the
    /// JSON answer. Sends neither `version` nor `decisionKey`;
    /// [`AgentServerClient::resolve_action_with`] does.
    ///
    /// # Errors
    /// [`ChatError`] with the refusal's code (`action_expired`, `action_not_pending`, …).
    pub async fn resolve_action(
        &self,
        conversation_id: &str,
        action_id: &str,
        resolution: &Resolution,
    ) -> Result<ResolveActionResponse, ChatError> {
        self.call(api::resolve_action(conversation_id, action_id, resolution))
            .await
    }

    /// [`AgentServerClient::resolve_action`] with the optional fields of versioned action
    /// records: the action's `version` and a `decisionKey` kept for
    /// retries of the same decision.
    ///
    /// # Errors
    /// As [`AgentServerClient::resolve_action`], and 409 `action_version_conflict` when the
    /// server holds a newer version.
    pub async fn resolve_action_with(
        &self,
        conversation_id: &str,
        action_id: &str,
        resolution: &Resolution,
        options: &ResolveActionOptions,
    ) -> Result<ResolveActionResponse, ChatError> {
        self.call(api::resolve_action_with(
            conversation_id,
            action_id,
            resolution,
            options,
        ))
        .await
    }

    /// `POST /conversations/:cid/actions/:aid` with `stream: true`: the continuation's events go to
    /// `callbacks` (`on_action_resolved`, text, `on_done`, …) like
    /// [`AgentServerClient::send_message_stream`].
    ///
    /// # Errors
    /// As [`AgentServerClient::send_message_stream`].
    pub async fn resolve_action_stream(
        &self,
        conversation_id: &str,
        action_id: &str,
        resolution: &Resolution,
        callbacks: StreamCallbacks,
        abort: Option<&AbortHandle>,
    ) -> Result<StreamEnd, ChatError> {
        self.stream(
            api::resolve_action_stream(conversation_id, action_id, resolution),
            callbacks,
            abort,
        )
        .await
    }

    /// [`AgentServerClient::resolve_action_stream`] with `version` and `decisionKey`
    /// ([`ResolveActionOptions`]).
    ///
    /// # Errors
    /// As [`AgentServerClient::resolve_action_stream`].
    pub async fn resolve_action_stream_with(
        &self,
        conversation_id: &str,
        action_id: &str,
        resolution: &Resolution,
        options: &ResolveActionOptions,
        callbacks: StreamCallbacks,
        abort: Option<&AbortHandle>,
    ) -> Result<StreamEnd, ChatError> {
        self.stream(
            api::resolve_action_stream_with(conversation_id, action_id, resolution, options),
            callbacks,
            abort,
        )
        .await
    }

    /// `POST /files`: stores a file (raw base64 content).
    ///
    /// # Errors
    /// [`ChatError`] (400, `file_too_large`, `unsupported_file_type`, …).
    pub async fn upload_file(&self, request: &UploadFileRequest) -> Result<FileRecord, ChatError> {
        self.call(api::upload_file(request)).await
    }

    /// `GET /files/:id`: a stored file's record; bare or wrapped answers.
    ///
    /// # Errors
    /// [`ChatError`] (404).
    pub async fn get_file(&self, file_id: &str) -> Result<FileRecord, ChatError> {
        self.call(api::get_file(file_id)).await
    }

    /// `DELETE /files/:id`: deletes a stored file; 204 is `Ok`.
    ///
    /// # Errors
    /// [`ChatError`] (404).
    pub async fn delete_file(&self, file_id: &str) -> Result<(), ChatError> {
        self.call(api::delete_file(file_id)).await
    }

    /// `GET /files/:id/content`: the URL of a stored file's bytes (no request is made).
    #[must_use]
    pub fn get_file_content_url(&self, file_id: &str) -> String {
        format!(
            "{}{}",
            self.config.base_url,
            api::file_content_path(file_id)
        )
    }

    async fn stream(
        &self,
        call: ApiCall<()>,
        callbacks: StreamCallbacks,
        abort: Option<&AbortHandle>,
    ) -> Result<StreamEnd, ChatError> {
        let controller = abort
            .and_then(|a| a.controller.clone())
            .or_else(|| AbortController::new().ok())
            .ok_or_else(|| call.network_error("AbortController is not available"))?;
        let reader = RefCell::new(StreamReader {
            decoder: SseDecoder::new(),
            callbacks,
            full_text: String::new(),
            end: None,
            failure: None,
        });
        run_stream(&self.config, http_request(&call), controller, |input| {
            reader.borrow_mut().handle(&call, input);
        })
        .await;
        let reader = reader.into_inner();
        match (reader.end, reader.failure) {
            (Some(end), _) => Ok(end),
            (None, Some(err)) => Err(err),
            (None, None) => Ok(StreamEnd::Cut),
        }
    }
}

/// The io layer's request for an API call (the id is unused: one request per call).
fn http_request<T>(call: &ApiCall<T>) -> HttpRequest {
    HttpRequest {
        id: RequestId(0),
        method: call.request.method,
        path: call.request.path.clone(),
        body: call.request.body.clone(),
        headers: Vec::new(),
    }
}

/// Feeds one stream's inputs through the decoder to the callbacks.
struct StreamReader {
    decoder: SseDecoder,
    callbacks: StreamCallbacks,
    full_text: String,
    /// The first terminal outcome (done, error event, abort).
    end: Option<StreamEnd>,
    /// A refusal or network failure before any terminal event.
    failure: Option<ChatError>,
}

impl StreamReader {
    fn handle(&mut self, call: &ApiCall<()>, input: Input) {
        match input {
            Input::Response {
                result: Ok(resp), ..
            } => {
                if (200..300).contains(&resp.status) {
                    // An accepted request whose answer is not labelled as an event stream:
                    // read the body as one anyway (the React client does the same).
                    self.decoder.push_str(&resp.body);
                    self.finish();
                } else if let Err(err) = call.read(resp.status, &resp.body) {
                    self.failure = Some(err);
                }
            }
            Input::Response { result: Err(e), .. } | Input::StreamClosed { error: Some(e), .. } => {
                self.fail(call, &e)
            }
            Input::StreamChunk { bytes, .. } => {
                self.decoder.push(&bytes);
                while let Some(item) = self.decoder.next_event() {
                    self.dispatch(item);
                }
            }
            Input::StreamClosed { error: None, .. } => self.finish(),
            _ => {}
        }
    }

    fn fail(&mut self, call: &ApiCall<()>, err: &TransportError) {
        match err {
            TransportError::Aborted => {
                self.end.get_or_insert(StreamEnd::Aborted);
            }
            TransportError::Network(_) | TransportError::OtherOrigin => {
                self.failure = Some(call.transport_error(err));
            }
        }
    }

    fn finish(&mut self) {
        for item in self.decoder.drain_to_end() {
            self.dispatch(item);
        }
    }

    fn dispatch(&mut self, item: Result<StreamEvent, crate::core::DecodeError>) {
        // A frame that cannot be read is skipped (PROTOCOL §6, C22).
        let Ok(event) = item else { return };
        let cb = &mut self.callbacks;
        let call = |f: &mut Option<EventFn>, e: &StreamEvent| {
            if let Some(f) = f.as_mut() {
                f(e);
            }
        };
        match &event {
            StreamEvent::Start { .. } => call(&mut cb.on_start, &event),
            StreamEvent::Text { text: chunk, .. } | StreamEvent::Thinking { thinking: chunk } => {
                self.full_text.push_str(chunk);
                if let Some(f) = cb.on_text.as_mut() {
                    f(chunk, &self.full_text);
                }
            }
            StreamEvent::ToolCall { .. } => call(&mut cb.on_tool_call, &event),
            StreamEvent::ToolResult { .. } => call(&mut cb.on_tool_result, &event),
            StreamEvent::Progress { .. } => call(&mut cb.on_progress, &event),
            StreamEvent::ActionRequired { .. } => call(&mut cb.on_action_required, &event),
            StreamEvent::ActionResolved { .. } => call(&mut cb.on_action_resolved, &event),
            StreamEvent::ActionUpdated { .. } => call(&mut cb.on_action_updated, &event),
            StreamEvent::Error { error, code } => {
                let err = ChatError::Stream {
                    code: code.clone(),
                    message: error.clone(),
                };
                if let Some(f) = cb.on_error.as_mut() {
                    f(&err);
                }
                self.end.get_or_insert(StreamEnd::Failed);
            }
            StreamEvent::Done { .. } => {
                call(&mut cb.on_done, &event);
                self.end.get_or_insert(StreamEnd::Done);
            }
            StreamEvent::Unknown { .. } => {}
        }
    }
}
