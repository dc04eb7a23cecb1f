//! The open conversation: opening, loading (`GET /conversations/:id`, plus the newest page of
//! messages when `GET /conversations/:id` may have been cut), quiet refreshes, joining a refetched
//! window to what is on screen, older pages (`GET /conversations/:id/messages` with `order=desc`),
//! clearing and creating one (`POST /conversations`; clearing is the React hook's `clearMessages`).

use serde_json::Value;

use crate::actions::{restore_cards, ActionCard, CardState};
use crate::wire::{ConversationWithMessages, Message, MessagesPage, PendingAction};

use super::error::parse_json;
use super::state::{LoadPurpose, OlderPages, OutgoingMessage, Pending};
use super::util::{conversation_from, is_local_id};
use super::{
    ChatError, ErrorContext, HttpResponse, Output, RequestId, Run, Session, SessionEvent,
    TransportError, CONVERSATION_MESSAGE_CAP, MESSAGE_PAGE,
};
use crate::endpoint::Endpoint;

impl Session {
    pub(super) fn clear_chat(&mut self) {
        // A message that has not reached a conversation stays the person's: back to the
        // composer, never posted into whatever is shown next.
        if let Some(outgoing) = self.take_unsent() {
            self.give_back(outgoing);
        }
        self.abort_stream();
        self.drop_pending_loads();
        self.older = OlderPages::None;
        self.running_turn = None;
        self.interrupted.clear();
        self.conversation = None;
        self.messages.clear();
        self.cards.clear();
        self.expiry_refresh_at = None;
        self.revisions.actions += 1;
        self.error = None;
        self.run = Run::Idle;
        self.revisions.messages += 1;
        self.revisions.status += 1;
    }

    pub(super) fn open_conversation(&mut self, id: String, purpose: LoadPurpose) {
        if purpose == LoadPurpose::Open {
            self.clear_chat();
            self.run = Run::Loading;
            self.revisions.status += 1;
        }
        let call = Endpoint::Conversation {
            conversation_id: id.clone(),
        };
        self.request(
            call,
            Pending::Load {
                conversation_id: id,
                purpose,
            },
        );
    }

    pub(super) fn refresh_conversation(&mut self) {
        if let Some(id) = self.conversation.as_ref().map(|c| c.id.clone()) {
            self.open_conversation(id, LoadPurpose::Refresh);
        }
    }

    /// Aborts every conversation load and older-page request: their answers belong to the
    /// conversation being left and must never land in the next one.
    pub(super) fn drop_pending_loads(&mut self) {
        self.abort_pending(|p| {
            matches!(
                p,
                Pending::Load { .. }
                    | Pending::LoadTail { .. }
                    | Pending::ReadingTail { .. }
                    | Pending::Older { .. }
            )
        });
        self.stop_reading();
    }

    /// Aborts the requests in flight that `which` picks; their answers are never read.
    pub(super) fn abort_pending(&mut self, which: impl Fn(&Pending) -> bool) {
        let stale: Vec<RequestId> = self
            .pending
            .iter()
            .filter(|(_, p)| which(p))
            .map(|(id, _)| *id)
            .collect();
        for id in stale {
            self.pending.retain(|(rid, _)| *rid != id);
            self.outputs.push_back(Output::Abort(id));
        }
    }

    /// `GET /conversations/:id` read (whole or a slice at a time, `reading.rs`): shown, or, when it
    /// may have been cut at its cap, joined with the newest page of messages first.
    pub(super) fn on_read(
        &mut self,
        conversation_id: String,
        purpose: LoadPurpose,
        loaded: Result<ConversationWithMessages, ChatError>,
    ) {
        match loaded {
            // E5 may have been cut at its cap: fetch the newest page too (D26).
            Ok(loaded) if loaded.messages.len() >= CONVERSATION_MESSAGE_CAP => {
                let id = conversation_id.clone();
                self.request_newest_page(
                    &id,
                    Pending::LoadTail {
                        conversation_id,
                        purpose,
                        loaded: Box::new(loaded),
                    },
                );
            }
            loaded => self.finish_load(conversation_id, purpose, loaded.map(|l| (l, true))),
        }
    }

    /// `GET /conversations/:id/messages` with `order=desc`, first page: the conversation's newest
    /// messages.
    pub(super) fn request_newest_page(&mut self, conversation_id: &str, pending: Pending) {
        let call = Endpoint::Messages {
            conversation_id: conversation_id.to_owned(),
            limit: MESSAGE_PAGE,
            offset: 0,
        };
        self.request(call, pending);
    }

    pub(super) fn load_still_current(&self, conversation_id: &str, purpose: &LoadPurpose) -> bool {
        match purpose {
            // A newer open aborts this one (`drop_pending_loads`).
            LoadPurpose::Open => true,
            _ => self
                .conversation
                .as_ref()
                .is_some_and(|c| c.id == conversation_id),
        }
    }

    /// The newest page of messages after a full `GET /conversations/:id`: joined with
    /// `GET /conversations/:id`'s oldest messages when the two meet, else shown alone with older
    /// pages still to load. A server without message pages (404 or anything unreadable) shows what
    /// `GET /conversations/:id` gave, with no paging.
    pub(super) fn on_tail(
        &mut self,
        conversation_id: String,
        purpose: LoadPurpose,
        loaded: ConversationWithMessages,
        result: Result<HttpResponse, TransportError>,
    ) {
        if !self.load_still_current(&conversation_id, &purpose) {
            return;
        }
        let page = parse_json::<MessagesPage>(result, ErrorContext::LoadConversation);
        self.finish_joined(conversation_id, purpose, loaded, Some(page));
    }

    /// `GET /conversations/:id` read, with the answer for the newest page of messages if one was
    /// asked for: joined and shown. A server without message pages (404 or anything unreadable)
    /// shows what `GET /conversations/:id` gave, with no paging.
    pub(super) fn finish_joined(
        &mut self,
        conversation_id: String,
        purpose: LoadPurpose,
        mut loaded: ConversationWithMessages,
        page: Option<Result<MessagesPage, ChatError>>,
    ) {
        let reaches_start = match page {
            Some(Ok(page)) => {
                let (messages, reaches_start) =
                    join_window(std::mem::take(&mut loaded.messages), page);
                loaded.messages = messages;
                reaches_start
            }
            Some(Err(_)) | None => true,
        };
        self.finish_load(conversation_id, purpose, Ok((loaded, reaches_start)));
    }

    /// A conversation load is complete: `loaded.messages` is the newest part of the
    /// conversation, reaching its first message when the flag says so.
    pub(super) fn finish_load(
        &mut self,
        conversation_id: String,
        purpose: LoadPurpose,
        loaded: Result<(ConversationWithMessages, bool), ChatError>,
    ) {
        match (purpose, loaded) {
            (LoadPurpose::Open, Ok((loaded, reaches_start))) => {
                self.apply_loaded(loaded, reaches_start);
                self.emit(SessionEvent::ConversationChanged(Some(conversation_id)));
            }
            (LoadPurpose::Open, Err(err)) => {
                self.run = Run::Idle;
                self.revisions.status += 1;
                self.set_error(err);
                self.emit(SessionEvent::ConversationChanged(None));
            }
            (LoadPurpose::Refresh, Ok((loaded, reaches_start))) => {
                if !self.is_streaming() {
                    self.apply_loaded(loaded, reaches_start);
                }
            }
            (LoadPurpose::Refresh, Err(_)) => {}
            (LoadPurpose::RunningTurn { turn, first }, loaded) => {
                self.on_running_turn_look(turn, first, loaded)
            }
        }
    }

    /// Older messages already on screen stay when a refetch of the same conversation brings a
    /// newest window that meets them. Returns the messages, whether older ones remain on
    /// the server, and whether the window met what was loaded (else it replaced it).
    pub(super) fn merge_window(
        &self,
        same_conversation: bool,
        window: Vec<Message>,
        reaches_start: bool,
    ) -> (Vec<Message>, bool, bool) {
        if !same_conversation || reaches_start {
            return (window, !reaches_start, reaches_start);
        }
        let found = window
            .first()
            .and_then(|first| self.messages.iter().position(|m| m.id == first.id));
        match found {
            Some(i) => {
                let mut messages = self.messages[..i].to_vec();
                messages.extend(window);
                (messages, self.older.exist(), true)
            }
            None => (window, true, false),
        }
    }

    /// Messages and cards from a loaded conversation (also every refetch).
    pub(super) fn apply_loaded(&mut self, loaded: ConversationWithMessages, reaches_start: bool) {
        let same_conversation = self
            .conversation
            .as_ref()
            .is_some_and(|c| c.id == loaded.conversation.id);
        let (mut messages, has_older, connected) =
            self.merge_window(same_conversation, loaded.messages, reaches_start);
        self.reconcile_interrupted(&mut messages, same_conversation);
        if !connected || !same_conversation {
            // An older page on its way would not join what is now shown.
            self.abort_pending(|p| matches!(p, Pending::Older { .. }));
            self.older = OlderPages::None;
        }
        self.older = self.older.with_exist(has_older);
        let known: &[ActionCard] = if same_conversation { &self.cards } else { &[] };
        let before: Vec<(String, u32)> = known
            .iter()
            .map(|c| (c.action.id.clone(), c.revision))
            .collect();
        let checking: Vec<String> = known
            .iter()
            .filter(|c| c.state == CardState::Checking)
            .map(|c| c.action.id.clone())
            .collect();
        self.cards = restore_cards(&messages, loaded.pending_actions, known);
        // An answer whose fate was unknown: the server says the request still waits, so it
        // never arrived; the buttons are back and the person is told (issue 14).
        let not_received: Vec<String> = self
            .cards
            .iter()
            .filter(|c| checking.contains(&c.action.id) && c.state == CardState::Waiting)
            .map(|c| c.action.id.clone())
            .collect();
        if !not_received.is_empty() {
            let error = ChatError::Network {
                context: ErrorContext::Send,
                detail: "request not received".into(),
            };
            for action_id in not_received {
                self.emit(SessionEvent::ResolveFailed {
                    action_id,
                    error: error.clone(),
                });
            }
            self.set_error(error);
        }
        self.settle_checked(&checking);
        self.watch_cards_awaiting_server();
        // A waiting request that came back with other content is drawn afresh (issue 13).
        let changed: Vec<PendingAction> = self
            .cards
            .iter()
            .filter(|c| c.is_open_for_person())
            .filter(|c| {
                before
                    .iter()
                    .any(|(id, rev)| *id == c.action.id && *rev < c.revision)
            })
            .map(|c| c.action.clone())
            .collect();
        for action in changed {
            self.emit(SessionEvent::ActionChanged(action));
        }
        self.report_client_tools();
        // Keep what this page recorded (`actionStates`, source 1) across refetches.
        if same_conversation {
            let recorded: std::collections::HashMap<&str, &Message> = self
                .messages
                .iter()
                .filter(|o| !o.action_states.is_empty())
                .map(|o| (o.id.as_str(), o))
                .collect();
            for m in &mut messages {
                if let Some(old) = recorded.get(m.id.as_str()) {
                    for (id, entry) in &old.action_states {
                        m.action_states
                            .entry(id.clone())
                            .or_insert_with(|| entry.clone());
                    }
                }
            }
        }
        self.conversation = Some(loaded.conversation);
        self.messages = messages;
        self.run = if self.awaiting_action() {
            Run::AwaitingAction
        } else {
            Run::Idle
        };
        self.revisions.messages += 1;
        self.revisions.status += 1;
        self.revisions.actions += 1;
    }

    /// `GET /conversations/:id/messages` with `order=desc`: the page just older than what is
    /// loaded. The offset counts the loaded messages the server knows (local optimistic ones
    /// excluded), so a page can overlap what is there (deduplicated by id) but never skip a
    /// message.
    pub(super) fn load_older(&mut self) {
        if self.older != OlderPages::Available || self.run == Run::Loading {
            return;
        }
        let Some(conversation_id) = self.conversation.as_ref().map(|c| c.id.clone()) else {
            return;
        };
        let offset = self.messages.iter().filter(|m| !is_local_id(&m.id)).count();
        let call = Endpoint::Messages {
            conversation_id: conversation_id.clone(),
            limit: MESSAGE_PAGE,
            offset,
        };
        self.older = OlderPages::Loading;
        self.revisions.status += 1;
        self.request(call, Pending::Older { conversation_id });
    }

    /// An older page: prepended, deduplicated by id; the settled cards its messages
    /// describe are restored, never announced; open cards keep their state.
    pub(super) fn on_older(
        &mut self,
        conversation_id: String,
        result: Result<HttpResponse, TransportError>,
    ) {
        if self.conversation.as_ref().map(|c| c.id.as_str()) != Some(conversation_id.as_str()) {
            return;
        }
        self.older = OlderPages::idle(self.older.exist());
        self.revisions.status += 1;
        let page = match parse_json::<MessagesPage>(result, ErrorContext::LoadOlderMessages) {
            Ok(page) => page,
            // Older messages still exist: the person can try again.
            Err(err) => return self.set_error(err),
        };
        let fresh = self.prepend_older(page.messages.into_iter().rev().collect());
        // A page with nothing new would be asked for again and again: stop there.
        self.older = OlderPages::idle(page.has_more && fresh);
    }

    /// Older messages (oldest first) put before those loaded, deduplicated by id; the
    /// settled cards they describe are restored, never announced; open cards keep
    /// their state. Whether any was new.
    pub(super) fn prepend_older(&mut self, older: Vec<Message>) -> bool {
        let known: std::collections::HashSet<&str> =
            self.messages.iter().map(|m| m.id.as_str()).collect();
        let mut older: Vec<Message> = older
            .into_iter()
            .filter(|m| !known.contains(m.id.as_str()))
            .collect();
        if older.is_empty() {
            return false;
        }
        older.append(&mut self.messages);
        self.messages = older;
        self.revisions.messages += 1;
        let open: Vec<PendingAction> = self
            .cards
            .iter()
            .filter(|c| c.state.is_open())
            .map(|c| c.action.clone())
            .collect();
        let checking: Vec<String> = self
            .cards
            .iter()
            .filter(|c| c.state == CardState::Checking)
            .map(|c| c.action.id.clone())
            .collect();
        self.cards = restore_cards(&self.messages, Some(open), &self.cards);
        // Only the server can end a check (issue 14); an older page is not the server's word.
        for card in &mut self.cards {
            if checking.contains(&card.action.id) && card.state == CardState::Waiting {
                card.state = CardState::Checking;
            }
        }
        self.revisions.actions += 1;
        true
    }

    pub(super) fn create_conversation(&mut self, title: Option<String>) {
        let Some(agent_id) = self.selected_agent.clone() else {
            self.set_error(ChatError::NoAgent);
            return;
        };
        self.clear_chat();
        self.emit(SessionEvent::ConversationChanged(None));
        let title = title.map(|t| t.trim().to_owned()).filter(|t| !t.is_empty());
        let call = Endpoint::CreateConversation { agent_id, title };
        self.request(call, Pending::CreateEmpty);
    }

    pub(super) fn on_created_empty(&mut self, result: Result<HttpResponse, TransportError>) {
        match parse_json::<Value>(result, ErrorContext::Send)
            .and_then(|v| conversation_from(v, ErrorContext::Send))
        {
            // Something else was opened or sent meanwhile: the new one only joins the history.
            Ok(conversation)
                if self.conversation.is_some()
                    || self.run == Run::Loading
                    || !self.messages.is_empty() =>
            {
                self.emit(SessionEvent::ConversationCreated(conversation));
                self.load_history(false);
            }
            Ok(conversation) => {
                let id = conversation.id.clone();
                self.conversation = Some(conversation.clone());
                self.revisions.status += 1;
                self.emit(SessionEvent::ConversationCreated(conversation));
                self.emit(SessionEvent::ConversationChanged(Some(id)));
                self.load_history(false);
            }
            Err(err) => self.set_error(err),
        }
    }

    pub(super) fn on_created(
        &mut self,
        outgoing: OutgoingMessage,
        result: Result<HttpResponse, TransportError>,
    ) {
        match parse_json::<Value>(result, ErrorContext::Send)
            .and_then(|v| conversation_from(v, ErrorContext::Send))
        {
            Ok(conversation) => {
                let conversation_id = conversation.id.clone();
                if let Some(m) = self
                    .messages
                    .iter_mut()
                    .find(|m| m.id == outgoing.optimistic_id)
                {
                    m.conversation_id = conversation_id.clone();
                }
                self.conversation = Some(conversation.clone());
                self.revisions.status += 1;
                self.emit(SessionEvent::ConversationCreated(conversation));
                self.emit(SessionEvent::ConversationChanged(Some(
                    conversation_id.clone(),
                )));
                self.load_history(false);
                self.post_message(conversation_id, outgoing);
            }
            Err(err) => self.refuse_send(outgoing, err),
        }
    }
}

/// `GET /conversations/:id`'s oldest messages and `GET /conversations/:id/messages`'s newest page
/// (newest first) as one window, oldest first, and whether it reaches the conversation's first
/// message. The two join when they overlap or together hold `total`; otherwise only the newest page
/// is shown.
fn join_window(oldest: Vec<Message>, page: MessagesPage) -> (Vec<Message>, bool) {
    if page.messages.is_empty() {
        return (oldest, true);
    }
    let newest: Vec<Message> = page.messages.into_iter().rev().collect();
    let ids: std::collections::HashSet<&str> = oldest.iter().map(|m| m.id.as_str()).collect();
    let overlap = newest.iter().any(|m| ids.contains(m.id.as_str()));
    let covers = page.total > 0 && (oldest.len() + newest.len()) as u64 >= page.total;
    if overlap || covers || !page.has_more {
        let fresh: Vec<Message> = newest
            .into_iter()
            .filter(|m| !ids.contains(m.id.as_str()))
            .collect();
        let mut all = oldest;
        all.extend(fresh);
        return (all, true);
    }
    (newest, false)
}
