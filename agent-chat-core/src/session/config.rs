//! A session's configuration: what it starts with ([`SessionConfig`]) and the part of it a
//! running chat may change ([`SessionOptions`]), so a host that flips a flag keeps
//! the reply that is streaming, the draft and the open conversation.

use crate::files::UploadLimits;
use crate::wire::{ComposerMode, Message};

/// How a session starts (the relevant `Chat` props). The part a running chat may change is
/// [`SessionOptions`], applied with [`Command::SetOptions`](super::Command::SetOptions).
#[derive(Clone, Debug, PartialEq)]
pub struct SessionConfig {
    /// Agent to talk to; `None` = first of `GET /agents`.
    pub agent_id: Option<String>,
    /// Conversation to load at start.
    pub conversation_id: Option<String>,
    /// SSE (`true`, default) or one JSON reply.
    pub streaming: bool,
    /// Whether the history sidebar is used: gates history requests.
    pub show_history: bool,
    /// Composer mode prop; the agent's metadata wins.
    pub composer_mode: ComposerMode,
    /// Approval cards can be answered here; `false` draws them read-only.
    pub enable_tool_approvals: bool,
    /// Question cards can be answered here.
    pub enable_questions: bool,
    /// The transport can send answers at all.
    pub can_resolve: bool,
    /// Argument editing prop; the agent's `capabilities.approvalArgsEdit` wins.
    pub allow_argument_edit: bool,
    /// Delay between a local expiry and the refetch that shows a server's continuation.
    pub action_expiry_refresh_ms: u64,
    /// The host page's edit policy per tool: `(tool name, the arguments a person may not
    /// change)`, besides the schema's `readOnly` and the server's `readOnlyArgs`.
    pub read_only_args: Vec<(String, Vec<String>)>,
    /// Messages shown before (or without) a conversation: the starting list,
    /// replaced when a conversation loads and cleared by New Chat.
    pub initial_messages: Vec<Message>,
    /// Upload props; the agent's metadata may narrow them.
    pub uploads: UploadLimits,
    /// Decisions made on an earlier load of this page whose cards had not settled, with their
    /// `decisionKey`s (the edge keeps them in `sessionStorage`), so a retry reuses the key.
    pub decision_keys: Vec<crate::DecisionKey>,
    /// A random number from the edge that seeds new decision keys.
    pub key_seed: u64,
}

impl Default for SessionConfig {
    fn default() -> Self {
        SessionConfig {
            agent_id: None,
            conversation_id: None,
            streaming: true,
            show_history: true,
            composer_mode: ComposerMode::Block,
            enable_tool_approvals: true,
            enable_questions: true,
            can_resolve: true,
            allow_argument_edit: false,
            action_expiry_refresh_ms: super::start_options::DEFAULT_ACTION_EXPIRY_REFRESH_MS,
            read_only_args: Vec::new(),
            initial_messages: Vec::new(),
            uploads: UploadLimits::default(),
            decision_keys: Vec::new(),
            key_seed: 0x9e37_79b9_7f4a_7c15,
        }
    }
}

/// The options a running session follows: switches and limits a host may change at
/// any time with [`Command::SetOptions`](super::Command::SetOptions). A change applies from
/// then on: a reply already streaming keeps going as it was asked for, a card already drawn
/// is answerable (or read-only) by the new switches at once, and files already attached stay
/// attached (the new limits check the next ones). What changes the conversation itself (server,
/// agent, conversation) is not here.
#[derive(Clone, Debug, PartialEq)]
pub struct SessionOptions {
    /// SSE (`true`) or one JSON reply, for the next message sent.
    pub streaming: bool,
    /// Whether the history sidebar is used; switched on, the history is loaded.
    pub show_history: bool,
    /// Composer mode prop; the agent's metadata still wins.
    pub composer_mode: ComposerMode,
    /// Approval cards can be answered here.
    pub enable_tool_approvals: bool,
    /// Question cards can be answered here.
    pub enable_questions: bool,
    /// Argument editing prop; the agent's `capabilities.approvalArgsEdit` still wins.
    pub allow_argument_edit: bool,
    /// Upload props; the agent's metadata still narrows them. Its
    /// `agent_types` are ignored here: they come from the agent.
    pub uploads: UploadLimits,
}

impl Default for SessionOptions {
    fn default() -> Self {
        SessionConfig::default().options()
    }
}

impl SessionConfig {
    /// The part of this configuration a running session may change.
    pub fn options(&self) -> SessionOptions {
        SessionOptions {
            streaming: self.streaming,
            show_history: self.show_history,
            composer_mode: self.composer_mode,
            enable_tool_approvals: self.enable_tool_approvals,
            enable_questions: self.enable_questions,
            allow_argument_edit: self.allow_argument_edit,
            uploads: self.uploads.clone(),
        }
    }

    /// This configuration with `options` in place of its own; `uploads.agent_types` is kept.
    pub fn with_options(mut self, options: SessionOptions) -> Self {
        self.apply(options);
        self
    }

    /// Puts `options` in place; returns whether anything changed.
    pub(super) fn apply(&mut self, options: SessionOptions) -> bool {
        let before = self.options();
        let agent_types = std::mem::take(&mut self.uploads.agent_types);
        self.streaming = options.streaming;
        self.show_history = options.show_history;
        self.composer_mode = options.composer_mode;
        self.enable_tool_approvals = options.enable_tool_approvals;
        self.enable_questions = options.enable_questions;
        self.allow_argument_edit = options.allow_argument_edit;
        self.uploads = UploadLimits {
            agent_types,
            ..options.uploads
        };
        self.options() != before
    }
}
