//! The rest of the React hook's surface on the store: read-outs as signals and
//! the commands named as the hook names them.

use leptos::prelude::*;

use crate::core::{ChatError, Command, Conversation, Run};

use super::ChatStore;

/// The rest of React's `useChat` return value, as signals and commands.
impl ChatStore {
    /// `isLoadingConversation`: a conversation is being loaded.
    pub fn is_loading_conversation(&self) -> Signal<bool> {
        let status = self.status;
        Signal::derive(move || status.with(|s| s.run == Run::Loading))
    }

    /// The server's time now, ticking with [`ChatStore::now`]: the page's clock corrected by the
    /// session's estimate of the server's, so a countdown reaches zero when the session (and
    /// the server) expire the card, whatever the page's clock says.
    pub fn server_now(&self) -> Signal<crate::core::Millis> {
        let (now, status) = (self.now, self.status);
        Signal::derive(move || {
            let now = now.get();
            let offset = status.with(|s| s.clock_offset_ms);
            if offset >= 0 {
                now.saturating_add(offset.unsigned_abs())
            } else {
                now.saturating_sub(offset.unsigned_abs())
            }
        })
    }

    /// `isLoading`: streaming or loading a conversation.
    pub fn is_loading(&self) -> Signal<bool> {
        let status = self.status;
        Signal::derive(move || status.with(|s| matches!(s.run, Run::Loading | Run::Streaming)))
    }

    /// `conversation`: the open conversation, if any.
    pub fn conversation(&self) -> Signal<Option<Conversation>> {
        let status = self.status;
        Signal::derive(move || status.with(|s| s.conversation.clone()))
    }

    /// `error`: the error the banner shows, if any.
    pub fn error(&self) -> Signal<Option<ChatError>> {
        let status = self.status;
        Signal::derive(move || status.with(|s| s.error.clone()))
    }

    /// `progressMessage`: the running turn's latest progress line.
    pub fn progress_message(&self) -> Signal<Option<String>> {
        let streaming = self.streaming;
        Signal::derive(move || streaming.with(|s| s.as_ref().and_then(|t| t.progress.clone())))
    }

    /// `activeToolCalls`: the running turn's tool calls, in order.
    pub fn active_tool_calls(&self) -> Signal<Vec<crate::core::ActiveToolCall>> {
        let streaming = self.streaming;
        Signal::derive(move || {
            streaming.with(|s| s.as_ref().map(|t| t.tool_calls.clone()).unwrap_or_default())
        })
    }

    /// The history row for `id` was picked: reports it to `on_conversation_selected`,
    /// then opens the conversation.
    pub fn select_conversation(&self, id: &str) {
        let item = self
            .history
            .with_untracked(|h| h.items.iter().find(|i| i.id == id).cloned());
        let cb = self
            .driver
            .try_with_value(|d| d.callbacks.on_conversation_selected);
        if let (Some(item), Some(Some(cb))) = (item, cb) {
            cb.run(item);
        }
        self.dispatch(Command::OpenConversation(id.to_owned()));
    }

    /// `stop()`: abort the running reply, keeping what arrived.
    pub fn stop(&self) {
        self.dispatch(Command::Stop);
    }

    /// `clearMessages()`: clear messages, conversation and error (New Chat).
    pub fn clear_messages(&self) {
        self.dispatch(Command::NewChat);
    }

    /// `loadConversation(id)`.
    pub fn load_conversation(&self, id: impl Into<String>) {
        self.dispatch(Command::OpenConversation(id.into()));
    }

    /// `createConversation(title?)`: a new, empty conversation on the server.
    pub fn create_conversation(&self, title: Option<String>) {
        self.dispatch(Command::CreateConversation { title });
    }

    /// `setError`: `None` dismisses the banner; `Some` shows an error of the host's
    /// own until the chat's next error or a dismissal.
    pub fn set_error(&self, error: Option<ChatError>) {
        match error {
            None => {
                self.dispatch(Command::DismissError);
                // A host's own error lives only in the slice: the session had nothing to
                // dismiss and publishes no change, so the slice is cleared here.
                if self.status.try_with_untracked(|s| s.error.is_some()) == Some(true) {
                    let _ = self.write.status.try_update(|s| s.error = None);
                }
            }
            Some(e) => {
                let _ = self.write.status.try_update(|s| s.error = Some(e));
            }
        }
    }
}
