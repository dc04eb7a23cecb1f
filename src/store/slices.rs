//! The plain data the store publishes and the callbacks it calls: one struct per slice the UI
//! renders, kept apart from the drive loop that fills them.

use leptos::prelude::*;

use crate::core::{
    AgentInfo, ChatError, ComposerMode, Conversation, ConversationListItem, Message, Run,
};

/// The handlers a host registers: `Chat`'s `callbacks` prop, and `ChatProvider`'s.
///
/// Every field defaults to `None`: nothing is called. Build it as a struct literal over
/// `ChatCallbacks::default()` or with the setter of the same name as each field, which takes a
/// closure.
#[derive(Clone, Default)]
pub struct ChatCallbacks {
    /// After the optimistic user message was added.
    pub on_message_sent: Option<Callback<Message>>,
    /// A final assistant message arrived.
    pub on_message_received: Option<Callback<Message>>,
    /// A streamed text chunk `(chunk, full_text)`.
    pub on_stream_text: Option<Callback<(String, String)>>,
    /// A tool call `(tool_name, args)`.
    pub on_tool_call: Option<Callback<(String, serde_json::Value)>>,
    /// A tool result `(tool_name, result)`.
    pub on_tool_result: Option<Callback<(String, serde_json::Value)>>,
    /// Any failure.
    pub on_error: Option<Callback<ChatError>>,
    /// A conversation was created.
    pub on_conversation_created: Option<Callback<Conversation>>,
    /// The selected agent changed.
    pub on_agent_change: Option<Callback<String>>,
    /// The open conversation changed (created, opened, cleared); `None` = new chat.
    pub on_conversation_change: Option<Callback<Option<String>>>,
    /// A conversation was picked in the history sidebar.
    pub on_conversation_selected: Option<Callback<ConversationListItem>>,
    /// A turn paused for a person (not for restored history or `client_tool`).
    pub on_action_required: Option<Callback<crate::core::PendingAction>>,
    /// The server accepted an answer `(action_id, resolution)`.
    pub on_action_resolved: Option<Callback<(String, crate::core::Resolution)>>,
    /// The agent asks the page to run one of its tools; answer with
    /// [`ChatStore::resolve_client_tool`](crate::store::ChatStore::resolve_client_tool).
    pub on_client_tool: Option<Callback<crate::core::PendingAction>>,
    /// The number of cards waiting for this person changed (also to 0): `{pending, kinds,
    /// expiresAt}`, e.g. for a badge on the page.
    pub on_attention: Option<Callback<crate::core::PendingAttention>>,
    /// The locale was switched with `I18n::set_locale`; given the shipped tag. Called by a
    /// `Chat`, which owns its locale (a `ChatProvider` has none).
    pub on_locale_change: Option<Callback<String>>,
    /// Called once with the chat's store, so a host can drive it (answer client tools, send
    /// messages, read `pending_actions`).
    pub on_ready: Option<Callback<super::ChatStore>>,
}

/// Status slice: everything small the header, banner and composer read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StatusSlice {
    /// Current run state.
    pub run: Run,
    /// Error to show.
    pub error: Option<ChatError>,
    /// Listed agents.
    pub agents: Vec<AgentInfo>,
    /// Whether `GET /agents` has answered.
    pub agents_loaded: bool,
    /// Effective agent id.
    pub agent_id: Option<String>,
    /// Open conversation.
    pub conversation: Option<Conversation>,
    /// Whether the composer may send.
    pub can_send: bool,
    /// Effective composer mode.
    pub composer_mode: ComposerMode,
    /// What the composer does while cards wait.
    pub composer: crate::core::ComposerState,
    /// Effective argument editing.
    pub argument_edit: bool,
    /// The agent's own `capabilities.approvalArgsEdit`, which wins over any prop.
    pub agent_argument_edit: Option<bool>,
    /// Whether approval cards offer "don't ask again" (not on a backend that cannot remember
    /// a tool for the chat: Cogitator).
    pub remember_allowed: bool,
    /// The open conversation has older messages to load.
    pub has_older_messages: bool,
    /// An older page of messages is on its way.
    pub is_loading_older: bool,
    /// The session's estimate of `server clock − page clock`, in ms: deadlines are the server's, so
    /// countdowns and cards read [`ChatStore::server_now`](crate::store::ChatStore::server_now).
    pub clock_offset_ms: i64,
}

/// One card with what the UI needs to know about it.
#[derive(Clone, Debug, PartialEq)]
pub struct CardView {
    /// The card.
    pub card: crate::core::ActionCard,
    /// Whether this chat can answer it (transport + per-kind switch: `enable_tool_approvals`,
    /// `enable_questions`).
    pub can_resolve: bool,
    /// What the card draws ([`crate::core::Shown`]), computed once per publish: the key its view
    /// is drawn under, and what an answer from it carries.
    pub shown: crate::core::Shown,
    /// Where the request stands, in words.
    pub stage: crate::core::CardStage,
}

/// One attachment waiting for the next send, as the composer shows it (no bytes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingFileView {
    /// Local id (for [`ChatStore::remove_file`](crate::store::ChatStore::remove_file)).
    pub id: String,
    /// File name.
    pub name: String,
    /// MIME type.
    pub mime_type: String,
    /// Size in bytes.
    pub size: u64,
    /// Its bytes have been read (sending waits until every file is ready).
    pub ready: bool,
}

/// Attachments slice: the pending files and the limits that apply now.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FilesSlice {
    /// Files waiting for the next send, in order.
    pub pending: Vec<PendingFileView>,
    /// Effective limits (props narrowed by the agent, which may only lower them).
    pub limits: crate::core::UploadLimits,
}

/// History slice.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HistorySlice {
    /// Conversations, newest first.
    pub items: Vec<ConversationListItem>,
    /// More pages exist.
    pub has_more: bool,
    /// A page is loading.
    pub loading: bool,
}

/// `answerable_question`: the one option-less question the composer answers.
#[derive(Clone, Debug, PartialEq)]
pub struct AnswerableQuestion {
    /// Its action.
    pub action_id: String,
    /// The question.
    pub question: crate::core::Question,
}
