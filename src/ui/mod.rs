//! Leptos components. They read signals from [`crate::store::ChatStore`] and dispatch
//! [`crate::core::Command`]s; no I/O and no protocol parsing here.

pub mod cards;
pub mod chat;
pub mod chat_input;
pub mod countdown;
pub mod format;
pub mod history;
pub mod i18n;
pub mod icons;
pub mod markdown;
pub mod message;
pub mod message_list;
pub mod style;
pub mod tool_call;

pub use chat::{Chat, Theme};
pub use i18n::{tr, I18n};
