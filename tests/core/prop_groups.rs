//! `Chat`'s option groups: left out, each one gives the chat what it had before the groups
//! existed, which is the session's own defaults and the message list's.

use agent_chat_ui::core::{SessionConfig, SessionOptions};
use agent_chat_ui::ui::cards::ChatActions;
use agent_chat_ui::{CardOptions, ChatSlots, UploadOptions};
use leptos::prelude::*;

/// The options a `Chat` with no `cards` and no `uploads` hands its session, read the way the
/// chat reads them.
fn options_of(cards: &CardOptions, uploads: &UploadOptions) -> SessionOptions {
    SessionOptions {
        streaming: true,
        show_history: true,
        composer_mode: cards.composer_mode.get_untracked(),
        enable_tool_approvals: cards.enable_tool_approvals.get_untracked(),
        enable_questions: cards.enable_questions.get_untracked(),
        allow_argument_edit: cards.allow_argument_edit.get_untracked(),
        uploads: agent_chat_ui::core::UploadLimits {
            enabled: uploads.enabled.get_untracked(),
            allowed_types: uploads.allowed_types.get_untracked(),
            agent_types: Vec::new(),
            max_file_size: uploads.max_file_size.get_untracked(),
            max_files: uploads.max_files.get_untracked(),
        },
    }
}

#[test]
fn issue36_default_groups_are_the_sessions_and_the_lists_defaults() {
    let owner = Owner::new();
    owner.with(|| {
        let cards = CardOptions::default();
        let uploads = UploadOptions::default();
        assert_eq!(options_of(&cards, &uploads), SessionOptions::default());
        let config = SessionConfig::default();
        assert_eq!(
            cards.action_expiry_refresh_ms,
            config.action_expiry_refresh_ms
        );
        assert_eq!(cards.read_only_args, config.read_only_args);
        assert_eq!(
            cards.expiry_warning_seconds.get_untracked(),
            ChatActions::default()
                .expiry_warning_seconds
                .get_untracked()
        );
        let slots = ChatSlots::default();
        assert!(!slots.render_header.is_some() && !slots.render_tool_approval.is_some());
    });
}

#[test]
fn issue36_a_setter_takes_a_value_or_a_signal_and_sets_only_its_field() {
    let owner = Owner::new();
    owner.with(|| {
        let live = RwSignal::new(30u64);
        let cards = CardOptions::default()
            .allow_argument_edit(true)
            .expiry_warning_seconds(live);
        assert!(cards.allow_argument_edit.get_untracked());
        assert_eq!(cards.expiry_warning_seconds.get_untracked(), 30);
        live.set(90);
        assert_eq!(cards.expiry_warning_seconds.get_untracked(), 90);
        assert!(
            cards.enable_tool_approvals.get_untracked(),
            "left at its default"
        );
        let uploads = UploadOptions::default().max_files(3usize);
        assert_eq!(uploads.max_files.get_untracked(), 3);
        assert_eq!(
            uploads.max_file_size.get_untracked(),
            UploadOptions::default().max_file_size.get_untracked()
        );
    });
}
