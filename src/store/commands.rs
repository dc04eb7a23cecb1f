//! What a host or a view asks of the store, named as the React hook names it: send, retry,
//! attach, answer a card. Each goes through the session, which decides whether it may be done.

use leptos::prelude::*;

use crate::core::Command;

use super::{answers, checker, AnswerFuture, ChatStore};

impl ChatStore {
    /// Uses this `Authorization` value and these extra headers from the next request on
    /// (a refreshed token); requests already on their way keep what they were sent
    /// with. Nothing for a detached store.
    pub fn set_credentials(&self, authorization: Option<String>, headers: Vec<(String, String)>) {
        let _ = self.driver.try_update_value(|d| {
            if let Some(t) = d.transport.as_mut() {
                t.authorization = authorization.filter(|a| !a.is_empty());
                t.headers = headers;
            }
        });
    }

    /// Requests a detached store recorded since the last call (always empty when connected).
    pub fn take_requests(&self) -> Vec<crate::core::HttpRequest> {
        self.driver
            .try_update_value(|d| std::mem::take(&mut d.recorded))
            .unwrap_or_default()
    }

    /// Replaces the composer's text (what the person typed, or a host putting text back).
    /// The draft is the composer's own state, not the session's: it is not sent anywhere.
    pub fn set_draft(&self, text: impl Into<String>) {
        let _ = self.write.draft.try_set(text.into());
    }

    /// Tells the store whether the composer has focus: with a non-empty draft that means the
    /// person is typing, and an arriving card then neither takes focus nor is announced.
    pub fn set_composer_focused(&self, focused: bool) {
        let _ = self.write.composer_focused.try_set(focused);
    }

    /// `sendMessage` (F-hook): sends `text` as the person (or answers / cancels per the
    /// composer state, as the built-in composer does).
    pub fn send_message(&self, text: impl Into<String>) {
        self.dispatch(Command::Send(text.into()));
    }

    /// `retry`: drops a trailing assistant message and sends the last user text again
    /// (files are not resent); does nothing when nothing could be sent now.
    pub fn retry(&self) {
        self.dispatch(Command::Retry);
    }

    /// `addFiles`: checks the files against the effective limits from their metadata,
    /// then reads the accepted ones; refusals show in the error banner and go to `on_error`.
    pub fn add_files(&self, files: Vec<web_sys::File>) {
        if files.is_empty() {
            return;
        }
        let metas = files.iter().map(crate::io::files::meta).collect();
        self.driver.try_update_value(|d| d.file_batch = files);
        self.dispatch(Command::AddFiles(metas));
        // The accepted files were handed to their readers during the dispatch.
        self.driver.try_update_value(|d| d.file_batch.clear());
    }

    /// `removeFile(id)`.
    pub fn remove_file(&self, id: impl Into<String>) {
        self.dispatch(Command::RemoveFile(id.into()));
    }

    /// `resolveAction(action, resolution)`: answers a card. `shown` is the action as
    /// the person saw it: pass the [`crate::core::PendingAction`] (or `ActionCard`) you drew,
    /// from [`ChatStore::pending_actions`] or `on_action_required`. The core sends nothing, and
    /// reports why (the error banner and `on_error` for what the person can act on), unless
    /// the card is waiting, answerable here, within its deadline, still that very request, and
    /// the answer keeps its rules (arguments an object valid against argsSchema, required
    /// questions answered); so a double click sends one request.
    pub fn resolve_action(
        &self,
        shown: impl Into<crate::core::Shown>,
        resolution: crate::core::Resolution,
    ) {
        let shown = shown.into();
        if crate::core::schema::edit_waits_for_checker(&resolution) {
            // An edit given before any card was drawn: the checker comes first (D81).
            let store = *self;
            checker::then(move || store.dispatch(Command::Resolve { shown, resolution }));
            return;
        }
        self.dispatch(Command::Resolve { shown, resolution });
    }

    /// [`ChatStore::resolve_action`] as a future, like the React hook's `await
    /// resolveAction(...)`: `Ok` once the server took the answer; `Err` with the reason when
    /// the page's gate refused it ([`ChatError::Refused`](crate::core::ChatError::Refused)),
    /// the server refused it, answered with a new version to decide, or never received it.
    /// While its fate is being checked it stays pending. Dropping it changes
    /// nothing about the answer.
    pub fn answer(
        &self,
        shown: impl Into<crate::core::Shown>,
        resolution: crate::core::Resolution,
    ) -> AnswerFuture {
        let shown = shown.into();
        if crate::core::schema::edit_waits_for_checker(&resolution) {
            // An edit given before any card was drawn: the checker comes first (D81), then the
            // answer is dispatched as below.
            let (future, later) = answers::Answers::later();
            let store = *self;
            checker::then(move || {
                let action_id = shown.action_id.clone();
                // A chat gone by now drops `later`, which tells the host so.
                if store
                    .driver
                    .try_update_value(|d| d.answers.resume(later))
                    .is_some()
                {
                    store.dispatch(Command::Resolve { shown, resolution });
                    let _ = store.driver.try_update_value(|d| d.answers.end(&action_id));
                }
            });
            return future;
        }
        let action_id = shown.action_id.clone();
        let Some(future) = self.driver.try_update_value(|d| d.answers.begin()) else {
            // The chat is gone: a future that says so at once.
            return answers::Answers::default().begin();
        };
        self.resolve_action(shown, resolution);
        let _ = self.driver.try_update_value(|d| d.answers.end(&action_id));
        future
    }

    /// "Approve all (N)" (`approve`) or "Deny all" for the calls of one assistant turn, as
    /// shown: all or nothing, each call with its own decision key. See
    /// [`crate::core::approval_batch`] for which calls form a batch.
    pub fn resolve_all(&self, shown: Vec<crate::core::Shown>, approve: bool) {
        self.dispatch(Command::ResolveAll { shown, approve });
    }

    /// Answers a `client_tool` request with the tool's `result`, or with `error` when
    /// the page could not run it.
    pub fn resolve_client_tool(
        &self,
        action_id: impl Into<String>,
        result: Result<serde_json::Value, String>,
    ) {
        let (result, error) = match result {
            Ok(v) => (Some(v), None),
            Err(e) => (None, Some(e)),
        };
        // The page's own tool: no person was shown a card, so it answers the request as it is
        // now (an unknown id is refused by the core as such).
        let action_id = action_id.into();
        let shown = self
            .driver
            .try_with_value(|d| {
                d.session
                    .cards()
                    .iter()
                    .find(|c| c.action.id == action_id)
                    .map(crate::core::Shown::from)
            })
            .flatten()
            .unwrap_or(crate::core::Shown {
                action_id,
                version: None,
                fingerprint: 0,
            });
        self.resolve_action(shown, crate::core::Resolution::ClientTool { result, error });
    }
}
