//! The history sidebar: the conversation list and its pages, optimistic delete
//! (`DELETE /conversations/:id`) and rename (`PATCH /conversations/:id`), and titles that change
//! under it.

use serde_json::Value;

use crate::wire::{ConversationList, ConversationListItem};

use super::error::parse_json;
use super::state::{HistoryState, Pending};
use super::util::conversation_from;
use super::{ErrorContext, HttpResponse, Session, SessionEvent, TransportError};
use crate::endpoint::Endpoint;

const HISTORY_PAGE: usize = 20;

impl Session {
    pub(super) fn load_history(&mut self, append: bool) {
        if !self.config.show_history {
            return;
        }
        // F45: filter by agent unless the server offers several agents.
        let agent_id = if self.agents.len() <= 1 {
            self.selected_agent.clone()
        } else {
            None
        };
        let offset = if append { self.history.len() } else { 0 };
        let call = Endpoint::Conversations {
            agent_id,
            limit: HISTORY_PAGE,
            offset,
        };
        self.history_state = HistoryState::Loading {
            has_more: self.history_state.has_more(),
        };
        self.revisions.history += 1;
        self.request(call, Pending::History { append });
    }

    pub(super) fn on_history(
        &mut self,
        append: bool,
        result: Result<HttpResponse, TransportError>,
    ) {
        // A failed page keeps what the last one said about more pages.
        self.history_state = HistoryState::Loaded {
            has_more: self.history_state.has_more(),
        };
        self.revisions.history += 1;
        let context = if append {
            ErrorContext::LoadMore
        } else {
            ErrorContext::LoadConversations
        };
        match parse_json::<ConversationList>(result, context) {
            Ok(list) => {
                if append {
                    for item in list.conversations {
                        if !self.history.iter().any(|h| h.id == item.id) {
                            self.history.push(item);
                        }
                    }
                } else {
                    self.history = list.conversations;
                }
                self.overlay_pending_history_edits();
                self.history_state = HistoryState::Loaded {
                    has_more: list.has_more,
                };
            }
            Err(err) => self.set_error(err),
        }
    }

    pub(super) fn delete_conversation(&mut self, id: String) {
        let already = self.pending.iter().any(
            |(_, p)| matches!(p, Pending::Delete { conversation_id, .. } if *conversation_id == id),
        );
        if already {
            return;
        }
        let removed = self.history.iter().position(|h| h.id == id).map(|index| {
            self.revisions.history += 1;
            (index, self.history.remove(index))
        });
        let call = Endpoint::Delete {
            conversation_id: id.clone(),
        };
        self.request(
            call,
            Pending::Delete {
                conversation_id: id,
                removed,
            },
        );
    }

    pub(super) fn on_deleted(
        &mut self,
        conversation_id: String,
        removed: Option<(usize, ConversationListItem)>,
        result: Result<HttpResponse, TransportError>,
    ) {
        match result {
            // X4: 204 with no body (the reference server) or 200 `{ success: true }` (the docs).
            Ok(resp) if resp.ok() => {
                self.history.retain(|h| h.id != conversation_id);
                self.revisions.history += 1;
                if self
                    .conversation
                    .as_ref()
                    .is_some_and(|c| c.id == conversation_id)
                {
                    self.clear_chat();
                    self.emit(SessionEvent::ConversationChanged(None));
                }
            }
            other => {
                if let Some((index, item)) = removed {
                    if !self.history.iter().any(|h| h.id == item.id) {
                        let index = index.min(self.history.len());
                        self.history.insert(index, item);
                        self.revisions.history += 1;
                    }
                }
                if let Err(err) = parse_json::<Value>(other, ErrorContext::Delete) {
                    self.set_error(err);
                }
            }
        }
    }

    pub(super) fn rename_conversation(&mut self, id: String, title: String) {
        let title = title.trim().to_string();
        if title.is_empty() {
            return;
        }
        let previous = match self.history.iter().find(|h| h.id == id) {
            Some(item) => item.title.clone(),
            None => match self.conversation.as_ref().filter(|c| c.id == id) {
                Some(c) => c.title.clone(),
                None => None,
            },
        };
        if previous.as_deref() == Some(title.as_str()) {
            return;
        }
        self.apply_title(&id, Some(title.clone()), None);
        let call = Endpoint::Rename {
            conversation_id: id.clone(),
            title: title.clone(),
        };
        self.request(
            call,
            Pending::Rename {
                conversation_id: id,
                title,
                previous,
            },
        );
    }

    pub(super) fn on_renamed(
        &mut self,
        conversation_id: String,
        title: String,
        previous: Option<String>,
        result: Result<HttpResponse, TransportError>,
    ) {
        // X5: the reference server answers with the bare Conversation, the docs wrap it.
        match parse_json::<Value>(result, ErrorContext::Rename) {
            Ok(value) => {
                // A 2xx whose body is not a conversation still means the title was stored.
                let stored = conversation_from(value, ErrorContext::Rename)
                    .ok()
                    .and_then(|c| c.title);
                if let Some(stored) = stored.filter(|t| *t != title) {
                    self.apply_title(&conversation_id, Some(stored), Some(&title));
                }
            }
            Err(err) => {
                self.apply_title(&conversation_id, previous, Some(&title));
                self.set_error(err);
            }
        }
    }

    /// A page that was listed before a delete or rename finished must not bring the deleted row
    /// or the old title back.
    pub(super) fn overlay_pending_history_edits(&mut self) {
        let mut renames = Vec::new();
        for (_, p) in &self.pending {
            match p {
                Pending::Delete {
                    conversation_id, ..
                } => self.history.retain(|h| h.id != *conversation_id),
                Pending::Rename {
                    conversation_id,
                    title,
                    ..
                } => renames.push((conversation_id.clone(), title.clone())),
                _ => {}
            }
        }
        for (id, title) in renames {
            if let Some(item) = self.history.iter_mut().find(|h| h.id == id) {
                item.conversation.title = Some(title);
            }
        }
    }

    /// Sets the title of a history row and, when it is open, of the conversation. With
    /// `only_if`, a place whose title has moved on (a later rename) is left alone.
    pub(super) fn apply_title(&mut self, id: &str, title: Option<String>, only_if: Option<&str>) {
        let applies = |current: &Option<String>| only_if.is_none() || current.as_deref() == only_if;
        if let Some(item) = self.history.iter_mut().find(|h| h.id == id) {
            if applies(&item.conversation.title) {
                item.conversation.title = title.clone();
                self.revisions.history += 1;
            }
        }
        if let Some(c) = self.conversation.as_mut().filter(|c| c.id == id) {
            if applies(&c.title) {
                c.title = title;
                self.revisions.status += 1;
            }
        }
    }

    pub(super) fn set_title(&mut self, title: String) {
        if let Some(c) = self.conversation.as_mut() {
            c.title = Some(title.clone());
            self.revisions.status += 1;
            let id = c.id.clone();
            if let Some(item) = self.history.iter_mut().find(|h| h.id == id) {
                item.conversation.title = Some(title);
                self.revisions.history += 1;
            }
        }
    }
}
