//! agent-chat-core: the sans-IO core of agent-chat-ui, a chat UI for AI agents whose headline
//! is human-in-the-loop approval.
//!
//! Everything the chat decides lives here, as plain Rust with no browser, no view library, no
//! clock and no sockets: the wire types of the agent server's protocol, the SSE decoder, the
//! [`Session`] state machine that runs a conversation, the approval and question cards' drafts
//! and the one gate an answer passes before it is sent, the mappings of other backends (OpenAI
//! Chat Completions and Responses, A2A, the AI SDK, AG-UI, LangGraph, Cogitator, an agent in
//! the same process), the argsSchema checker, Markdown and the Fluent message catalog. The
//! `agent-chat-ui` crate drives it from the browser; a test, a terminal client or a server can
//! drive it the same way.
//!
//! # Driving a session
//!
//! A [`Session`] has the shape of quinn-proto: the caller feeds it one [`Input`] at a time with
//! the current time ([`Session::handle`]), runs what [`Session::poll_output`] asks for (HTTP
//! requests, event streams to open or abort, events to tell the person) and arms one timer
//! from [`Session::poll_timeout`]. The caller does the I/O; the session only decides.
//!
//! ```
//! use agent_chat_core::{
//!     Command, HttpRequest, HttpResponse, Input, Millis, Output, Run, Session, SessionConfig,
//! };
//!
//! let mut session = Session::new(SessionConfig::default());
//! let now = Millis(1_000);
//! let (mut requests, mut streams) = (Vec::<HttpRequest>::new(), Vec::<HttpRequest>::new());
//! let mut drain = |session: &mut Session, requests: &mut Vec<_>, streams: &mut Vec<_>| {
//!     while let Some(output) = session.poll_output() {
//!         match output {
//!             Output::Send(call) => requests.push(call.http()),
//!             Output::OpenStream(call) => streams.push(call.http()),
//!             _ => {}
//!         }
//!     }
//! };
//! let ok = |body: &str| Ok(HttpResponse::new(200, body));
//!
//! // Starting asks for the agents (and the history); answer the agents.
//! session.handle(now, Input::User(Command::Start));
//! drain(&mut session, &mut requests, &mut streams);
//! let agents = requests.iter().find(|r| r.path == "/agents").unwrap().id;
//! session.handle(now, Input::Response { id: agents, result: ok(r#"{"agents":[{"id":"echo","name":"Echo"}]}"#) });
//!
//! // Sending the first message creates the conversation, then streams the reply.
//! session.handle(now, Input::User(Command::Send("hello".into())));
//! drain(&mut session, &mut requests, &mut streams);
//! let create = requests.iter().find(|r| r.path == "/conversations").unwrap().id;
//! session.handle(now, Input::Response {
//!     id: create,
//!     result: Ok(HttpResponse::new(201, r#"{"conversation":{"id":"c1","agentId":"echo"}}"#)),
//! });
//! drain(&mut session, &mut requests, &mut streams);
//! assert_eq!(streams[0].path, "/conversations/c1/messages");
//!
//! // The reply's bytes arrive as the network splits them: here mid-event.
//! let id = streams[0].id;
//! for bytes in [
//!     "data: {\"type\":\"stream.text\",\"timestamp\":1,\"te",
//!     "xt\":\"Hi!\"}\n\ndata: {\"type\":\"stream.done\",\"timestamp\":2,",
//!     "\"conversationId\":\"c1\",\"messageId\":\"m2\",\"content\":\"Hi!\"}\n\n",
//! ] {
//!     session.handle(now, Input::StreamChunk { id, bytes: bytes.as_bytes().to_vec() });
//! }
//! session.handle(now, Input::StreamClosed { id, error: None });
//!
//! assert_eq!(session.run(), Run::Idle);
//! assert_eq!(session.messages().last().unwrap().content.display_text(), "Hi!");
//! ```
//!
//! # Layers
//!
//! - The protocol: [`wire`] (the JSON the agent server reads and writes), [`sse`] (bytes to
//!   events, at any split), [`endpoint`] and [`api`] (the requests), [`error`] and [`time`].
//! - The machine: [`session`] (the [`Session`], split by concern), [`transport`] (a gateway per
//!   backend between the session and its server), [`chunk_fetch`] (one lifecycle for the parts
//!   a host loads later).
//! - The cards: [`actions`] and [`stage`] (view models, attention), [`draft`] (what a person
//!   is writing and the one gate for sending it), [`schema`], [`form`], [`edit`] and
//!   [`variants`] (argument checking and editing), [`decision_keys`] (retries that stay one
//!   decision).
//! - What the chat shows: [`markdown`] and [`stream_text`] (a streaming answer, parsed once),
//!   [`i18n`] (every text, from Fluent files compiled in), [`theme`], [`files`], [`first_draw`]
//!   (the stages a chat draws its first screen in).
//!
//! Only std, serde, serde_json, thiserror, chrono, fluent-bundle, unic-langid, regex-lite
//! (natively) and pulldown-cmark are used: the UI crate's tests check that it stays so.
//!
//! # Features
//!
//! - `split`: what the UI crate's element and page build need: Turkish and Arabic are left
//!   out of `i18n::LOCALES` (each comes in a chunk of its own, from [`i18n::ftl`]), and the
//!   argument checker and the card policy's walk of nested schemas are reached only through
//!   the hooks the cards' chunk installs. Off by default.

#![warn(missing_docs, unreachable_pub)]

pub mod actions;
pub mod api;
pub mod chunk;
pub mod chunk_fetch;
pub mod decision_keys;
pub mod draft;
pub mod edit;
pub mod endpoint;
pub mod error;
pub mod files;
pub mod first_draw;
pub mod form;
pub mod i18n;
pub mod json_slices;
pub mod lenient;
pub mod markdown;
pub mod operation;
pub mod schema;
pub mod session;
pub mod sse;
pub mod stage;
pub mod stream_text;
pub mod theme;
pub mod time;
pub mod transitions;
pub mod transport;
pub mod url;
pub mod variants;
pub mod wire;

pub use actions::{
    approval_batch, approval_resolution, attention_for_changed_card, attention_for_new_card,
    attention_for_stage_change, composer_state, composer_state_for, countdown, pending_attention,
    restore_cards, ActionCard, CardState, ComposerState, CountdownUnit, Decider, Notice, Outcome,
    PendingAttention,
};
pub use chunk::Chunk;
pub use decision_keys::{DecisionKey, DecisionKeys};
pub use draft::{
    blocked, check_resolve, edit_allowed, live_focus, may_answer, may_answer_in_list,
    ApprovalDraft, LiveFocus, QuestionAnswer, QuestionDraft, ResolveContext, ResolveRefusal, Shown,
};
pub use edit::{
    apply_field, diff_args, field_text, field_value, ArgChange, FieldKind, FormField, ListField,
};
pub use error::{
    excerpt, plain_text_words, ApiError, DecodeError, ProtocolError, FALLBACK_SERVER_MESSAGE,
};
pub use files::{
    base64_encode, format_file_size, FileCheck, FileMeta, FileRejection, PendingFile, UploadLimits,
};
pub use form::{
    add_item, field_at, form_fields, pointer_of, remove_item, set_at, MAX_FIELDS, MAX_FORM_DEPTH,
    MAX_FORM_FIELDS,
};
#[cfg(not(feature = "split"))]
pub use i18n::LOCALES;
pub use i18n::{
    is_rtl, match_locale, pick_locale, react_key_to_id, Arg, Catalog, DEFAULT_LOCALE, SHIPPED,
};
pub use operation::{Operation, Parameter, Statement, Target, TargetRole};
pub use schema::{
    args_equal, blocks, check_args, check_args_text, check_value, set_pattern_engine, ArgsCheck,
    PatternEngine, Problem, ProblemKind,
};
pub use session::{
    decode, encode, ActiveToolCall, ChatError, Command, ErrorContext, HttpRequest, HttpResponse,
    Input, Method, Output, RequestId, Revisions, Run, Session, SessionConfig, SessionEvent,
    SessionOptions, StartOptions, StreamingTurn, TransportError, CONVERSATION_MESSAGE_CAP,
    MESSAGES_PER_SLICE, MESSAGE_PAGE,
};
pub use sse::{decode_all, SseDecoder, SseFrame, SseFrameDecoder, DEFAULT_MAX_FRAME_BYTES};
pub use stage::{CardStage, DecidedBy, Receipt};
pub use stream_text::StreamText;
pub use time::{
    format_iso, opt_iso, parse_http_date, parse_retry_after, parse_timestamp, parse_timestamp_str,
    Millis,
};
pub use transitions::{steps, Step, StepKind};
pub use variants::{current_variant, form_variants, switch_variant, Variant};
pub use wire::{
    decode_body, decode_optional_body, json_text, ActionKind, ActionStateEntry, ActionStatus,
    AgentInfo, AgentList, AgentMetadata, AnswerValue, Citation, ComposerMode, ContentPart,
    Conversation, ConversationEnvelope, ConversationList, ConversationListItem,
    ConversationWithMessages, CreateConversationRequest, Decision, Decline, ExecutionStatus,
    FileAttachment, FileEnvelope, FileRecord, Message, MessageContent, MessagesPage, PendingAction,
    Question, QuestionOption, Resolution, ResolveActionRequest, ResolveActionResponse, Role,
    SendMessageRequest, SendMessageResponse, StreamEvent, TimedEvent, ToolApproval, ToolCallDetail,
    Transition, TurnStatus, UpdateConversationRequest, UploadFile, Usage, UserQuestion,
    RESOLVED_BY_TIMEOUT,
};
