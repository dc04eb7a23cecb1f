//! Sans-IO core: protocol types, SSE decoder, the `Session` state machine, approval and
//! question cards, the argsSchema checker, the i18n catalog and the Markdown parser. Only std,
//! serde, serde_json, thiserror, chrono, fluent, regex-lite and pulldown-cmark here: no
//! browser, no view crates, no clocks (time is an input). Checked by tests/core/layering.rs.

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
