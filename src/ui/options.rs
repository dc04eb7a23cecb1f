//! The option groups of [`Chat`](crate::ui::Chat): cards, uploads, slots (render overrides) and
//! callbacks, each one struct with a `Default`, so a host names only what it changes.
//!
//! Simple things (the server, the locale, the theme, the placeholder...) stay plain props;
//! what belongs together travels together. [`ChatSlots`] is shared with
//! [`ChatMessageList`](crate::ui::message_list::ChatMessageList): a `Chat` hands its slots on
//! whole, and a custom layout passes the same struct to its list.
//!
//! Each group is built either as a struct literal over its `Default` or with one setter per
//! field, which takes anything that converts (a plain value or a signal for the reactive
//! fields, a closure for a render prop or a callback):
//!
//! ```no_run
//! use agent_chat_ui::core::Role;
//! use agent_chat_ui::{CardOptions, Chat, ChatCallbacks, ChatSlots, UploadOptions};
//! use leptos::prelude::*;
//!
//! #[component]
//! fn Support() -> impl IntoView {
//!     let cards = CardOptions::default()
//!         .allow_argument_edit(true)
//!         .expiry_warning_seconds(120u64);
//!     let uploads = UploadOptions {
//!         max_files: Signal::stored(3),
//!         ..UploadOptions::default()
//!     };
//!     let slots = ChatSlots::default().render_avatar(|role: Role| {
//!         let who = if role == Role::User { "me" } else { "bot" };
//!         view! { <span class="avatar">{who}</span> }
//!     });
//!     let callbacks = ChatCallbacks::default().on_error(|e| leptos::logging::warn!("{e}"));
//!     view! {
//!         <Chat base_url="/api/agents" cards=cards uploads=uploads slots=slots callbacks=callbacks/>
//!     }
//! }
//! ```

use leptos::prelude::*;

use crate::core::files::{DEFAULT_MAX_FILES, DEFAULT_MAX_FILE_SIZE};
use crate::core::session::start_options::DEFAULT_ACTION_EXPIRY_REFRESH_MS;
use crate::core::{
    ChatError, ComposerMode, Conversation, ConversationListItem, Message, PendingAction,
    PendingAttention, Resolution, Role,
};
use crate::store::{ChatCallbacks, ChatStore};
use crate::ui::cards::CardSlot;
use crate::ui::slots::{HeaderSlot, MessageActionsSlot, RenderProp};

/// One setter per field, taking whatever the same prop of a component would take (Leptos's
/// `IntoReactiveValue`: a value, a signal, a closure for a callback); a field marked `some`
/// holds an `Option` and its setter takes the value itself.
macro_rules! setters {
    ($ty:ident { $($field:ident: $fty:ty),* $(,)? } $(some { $($opt:ident: $oty:ty),* $(,)? })?) => {
        impl $ty {
            $(
                #[doc = concat!("Sets `", stringify!($field), "` (see the field).")]
                #[must_use]
                pub fn $field<M>(mut self, value: impl IntoReactiveValue<$fty, M>) -> Self {
                    self.$field = value.into_reactive_value();
                    self
                }
            )*
            $($(
                #[doc = concat!("Sets `", stringify!($opt), "` (see the field).")]
                #[must_use]
                pub fn $opt<M>(mut self, value: impl IntoReactiveValue<$oty, M>) -> Self {
                    self.$opt = Some(value.into_reactive_value());
                    self
                }
            )*)?
        }
    };
}

/// How approval and question cards behave: who may answer, argument editing, deadlines, and
/// what the composer does while a card waits.
///
/// The reactive fields follow their signals: a change applies to the running chat at once
/// (cards drawn become answerable or read-only) and keeps the conversation, the draft and a
/// reply that is streaming. The others are read when the chat mounts.
#[derive(Clone, Debug)]
pub struct CardOptions {
    /// While an action waits: `Block` closes the composer, `Cancel` lets a message cancel it;
    /// the agent's `metadata.pendingActionComposerMode` wins. Default: `Block`.
    pub composer_mode: Signal<ComposerMode>,
    /// Approval cards can be answered here; `false` draws them read-only. Default: `true`.
    pub enable_tool_approvals: Signal<bool>,
    /// Question cards can be answered here; `false` draws them read-only. Default: `true`.
    pub enable_questions: Signal<bool>,
    /// Offer the argument editor on approvals; the agent's `capabilities.approvalArgsEdit`
    /// wins. Default: `false`.
    pub allow_argument_edit: Signal<bool>,
    /// Countdowns turn amber below this many seconds. Default: 600.
    pub expiry_warning_seconds: Signal<u64>,
    /// How long after a card expires here the conversation is fetched again, so a server that
    /// carries on by itself shows its continuation. Read at mount. Default: 1 500 ms.
    pub action_expiry_refresh_ms: u64,
    /// The page's edit policy per tool: `(tool name, the arguments a person may not change)`,
    /// besides the schema's `readOnly` and the server's `readOnlyArgs`. Locked in the form,
    /// refused from the JSON editor with the reason, and by the answer gate. Read at mount.
    /// Default: empty (no policy of the page's own).
    pub read_only_args: Vec<(String, Vec<String>)>,
}

impl Default for CardOptions {
    /// Cards answerable here, no argument editor, amber under 10 minutes, the composer blocked
    /// while a card waits.
    fn default() -> Self {
        CardOptions {
            composer_mode: Signal::stored(ComposerMode::default()),
            enable_tool_approvals: Signal::stored(true),
            enable_questions: Signal::stored(true),
            allow_argument_edit: Signal::stored(false),
            expiry_warning_seconds: Signal::stored(600),
            action_expiry_refresh_ms: DEFAULT_ACTION_EXPIRY_REFRESH_MS,
            read_only_args: Vec::new(),
        }
    }
}

setters!(CardOptions {
    composer_mode: Signal<ComposerMode>,
    enable_tool_approvals: Signal<bool>,
    enable_questions: Signal<bool>,
    allow_argument_edit: Signal<bool>,
    expiry_warning_seconds: Signal<u64>,
    action_expiry_refresh_ms: u64,
    read_only_args: Vec<(String, Vec<String>)>,
});

/// Attachments: whether the composer offers them, which types, how large and how many.
///
/// Every field follows its signal: the next files picked, pasted or dropped are checked
/// against the new limits. An agent's own limits (`metadata.allowedFileTypes`, `maxFileSize`,
/// `maxFiles`) may only narrow these.
#[derive(Clone, Copy, Debug)]
pub struct UploadOptions {
    /// Offer attachments; the agent's `metadata.enableFileUpload` decides when it sets it.
    /// Off: no attach button, pasted files are ignored. Default: `true`.
    pub enabled: Signal<bool>,
    /// Accepted types: MIME types, `type/*` wildcards or `.ext`. Default: empty, which
    /// accepts any type.
    pub allowed_types: Signal<Vec<String>>,
    /// Largest file in bytes. Default: 10 MiB.
    pub max_file_size: Signal<u64>,
    /// Most files per message. Default: 10.
    pub max_files: Signal<usize>,
}

impl Default for UploadOptions {
    /// Attachments on, any type, 10 MiB each, 10 per message.
    fn default() -> Self {
        UploadOptions {
            enabled: Signal::stored(true),
            allowed_types: Signal::stored(Vec::new()),
            max_file_size: Signal::stored(DEFAULT_MAX_FILE_SIZE),
            max_files: Signal::stored(DEFAULT_MAX_FILES),
        }
    }
}

setters!(UploadOptions {
    enabled: Signal<bool>,
    allowed_types: Signal<Vec<String>>,
    max_file_size: Signal<u64>,
    max_files: Signal<usize>,
});

/// Render overrides: closures that replace a built-in part of the chat or add one.
///
/// Every field defaults to "not given" (the built-in part is drawn, or nothing where there is
/// no built-in one). Shared by [`Chat`](crate::ui::Chat) and
/// [`ChatMessageList`](crate::ui::message_list::ChatMessageList): the list uses the message
/// and card slots and ignores the header and sidebar ones.
#[derive(Clone, Copy, Debug, Default)]
pub struct ChatSlots {
    /// Replaces the header (title, agent picker, menu button); given a [`HeaderSlot`].
    /// [`ChatHeader`](crate::ui::ChatHeader) is the default one, to reuse with extra controls.
    /// Default: the built-in header.
    pub render_header: RenderProp<HeaderSlot>,
    /// Replaces the top of the history sidebar (New Chat). Default: the built-in one.
    pub render_history_header: RenderProp<()>,
    /// Drawn at the bottom of the history sidebar. Default: nothing.
    pub render_history_footer: RenderProp<()>,
    /// Replaces the empty state ("Start a conversation"). Default: the built-in one.
    pub render_empty_state: RenderProp<()>,
    /// Replaces the default avatars; given the message's role. Default: the built-in ones.
    pub render_avatar: RenderProp<Role>,
    /// Actions under each finished assistant message, revealed on hover and on keyboard
    /// focus; given a [`MessageActionsSlot`]. Default: none.
    pub render_message_actions: RenderProp<MessageActionsSlot>,
    /// Replaces the built-in approval card; given a [`CardSlot`]. Default: the built-in card.
    pub render_tool_approval: RenderProp<CardSlot>,
    /// Replaces the built-in question card; given a [`CardSlot`]. Default: the built-in card.
    pub render_question: RenderProp<CardSlot>,
}

setters!(ChatSlots {
    render_header: RenderProp<HeaderSlot>,
    render_history_header: RenderProp<()>,
    render_history_footer: RenderProp<()>,
    render_empty_state: RenderProp<()>,
    render_avatar: RenderProp<Role>,
    render_message_actions: RenderProp<MessageActionsSlot>,
    render_tool_approval: RenderProp<CardSlot>,
    render_question: RenderProp<CardSlot>,
});

setters!(ChatCallbacks {} some {
    on_message_sent: Callback<Message>,
    on_message_received: Callback<Message>,
    on_stream_text: Callback<(String, String)>,
    on_tool_call: Callback<(String, serde_json::Value)>,
    on_tool_result: Callback<(String, serde_json::Value)>,
    on_error: Callback<ChatError>,
    on_conversation_created: Callback<Conversation>,
    on_agent_change: Callback<String>,
    on_conversation_change: Callback<Option<String>>,
    on_conversation_selected: Callback<ConversationListItem>,
    on_action_required: Callback<PendingAction>,
    on_action_resolved: Callback<(String, Resolution)>,
    on_client_tool: Callback<PendingAction>,
    on_attention: Callback<PendingAttention>,
    on_locale_change: Callback<String>,
    on_ready: Callback<ChatStore>,
});
