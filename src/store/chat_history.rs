//! `use_chat_history`: the React library's standalone history hook, for hosts
//! that draw their own conversation list. The built-in sidebar does not use it (it is driven
//! by the chat's `Session`); this one talks to the server through [`AgentServerClient`].

use std::cell::RefCell;
use std::collections::HashMap;

use leptos::prelude::*;

use crate::core::{ChatError, ConversationListItem};
use crate::io::client::{AgentServerClient, ClientOptions, ConversationsQuery};

/// Options of [`use_chat_history`]. Build with [`UseChatHistoryOptions::new`] and the
/// builder methods; the signals may change later (a new base URL, agent or token starts over).
#[derive(Clone, Copy, Debug)]
pub struct UseChatHistoryOptions {
    /// Agent server API root.
    pub base_url: Signal<String>,
    /// Only this agent's conversations; empty = no filter.
    pub agent_id: Signal<String>,
    /// `Authorization` header value.
    pub authorization: Signal<Option<String>>,
    /// Extra request headers.
    pub headers: Signal<Vec<(String, String)>>,
    /// Load the first page by itself (default `true`), once per (base URL, agent).
    pub auto_load: bool,
    /// Rows per page (default 20; `0` counts as 20).
    pub page_size: u32,
}

impl UseChatHistoryOptions {
    /// Options for `base_url` with no agent filter, no credentials, auto-load and 20 rows.
    #[must_use]
    pub fn new(base_url: impl Into<Signal<String>>) -> UseChatHistoryOptions {
        UseChatHistoryOptions {
            base_url: base_url.into(),
            agent_id: Signal::default(),
            authorization: Signal::default(),
            headers: Signal::default(),
            auto_load: true,
            page_size: 20,
        }
    }

    /// Sets [`UseChatHistoryOptions::agent_id`].
    #[must_use]
    pub fn agent_id(mut self, agent_id: impl Into<Signal<String>>) -> Self {
        self.agent_id = agent_id.into();
        self
    }

    /// Sets [`UseChatHistoryOptions::authorization`].
    #[must_use]
    pub fn authorization(mut self, authorization: impl Into<Signal<Option<String>>>) -> Self {
        self.authorization = authorization.into();
        self
    }

    /// Sets [`UseChatHistoryOptions::headers`].
    #[must_use]
    pub fn headers(mut self, headers: impl Into<Signal<Vec<(String, String)>>>) -> Self {
        self.headers = headers.into();
        self
    }

    /// Sets [`UseChatHistoryOptions::auto_load`].
    #[must_use]
    pub fn auto_load(mut self, auto_load: bool) -> Self {
        self.auto_load = auto_load;
        self
    }

    /// Sets [`UseChatHistoryOptions::page_size`].
    #[must_use]
    pub fn page_size(mut self, page_size: u32) -> Self {
        self.page_size = page_size;
        self
    }
}

/// What [`use_chat_history`] returns: four read-only signals and the four actions.
/// `Copy`, so it can go into any number of closures.
#[derive(Clone, Copy, Debug)]
pub struct UseChatHistoryReturn {
    /// The rows loaded so far, in server order (newest first in the reference server).
    pub conversations: ReadSignal<Vec<ConversationListItem>>,
    /// A page is on its way (not set by a silent load or refresh).
    pub is_loading: ReadSignal<bool>,
    /// The last failure (`code`, `server_message`, `status`), cleared by the next load.
    pub error: ReadSignal<Option<ChatError>>,
    /// The server has more rows than loaded.
    pub has_more: ReadSignal<bool>,
    state: State,
}

#[derive(Clone, Copy, Debug)]
struct State {
    options: UseChatHistoryOptions,
    conversations: WriteSignal<Vec<ConversationListItem>>,
    is_loading: WriteSignal<bool>,
    error: WriteSignal<Option<ChatError>>,
    has_more: WriteSignal<bool>,
    /// Bumped by every first-page load and every change of server/agent/token: an answer
    /// for an older generation is dropped.
    generation: StoredValue<u64>,
    /// A page request is in flight (`load_more` is a no-op meanwhile, so one scroll never asks
    /// twice).
    busy: StoredValue<bool>,
}

/// Who the list belongs to: base URL, agent filter and a digest of the credentials. A
/// different token is another user, so it never shares a cached list; the cache, kept
/// for the page's lifetime, does not keep the token itself.
type Key = (String, String, Option<u64>);

/// What the cache keeps of a token: a digest that tells two tokens apart.
fn token_digest(authorization: Option<String>) -> Option<u64> {
    use std::hash::{Hash, Hasher};
    authorization.map(|a| {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        a.hash(&mut h);
        h.finish()
    })
}

/// The last list per [`Key`], kept for the page's lifetime so a remounted hook shows it
/// without loading again.
#[derive(Clone)]
struct Snapshot {
    conversations: Vec<ConversationListItem>,
    has_more: bool,
}

thread_local! {
    static LOADED: RefCell<HashMap<Key, Snapshot>> = RefCell::new(HashMap::new());
}

/// Conversation history for a sidebar of your own.
///
/// With `auto_load` the first page is loaded once per (base URL, agent): a remounted hook
/// (a sidebar closed and opened again) shows the list it had without a request; call
/// [`UseChatHistoryReturn::refresh`] to bring it up to date. The actions are `async`; start
/// them with `leptos::task::spawn_local` from an event handler.
///
/// ```no_run
/// use agent_chat_ui::{use_chat_history, UseChatHistoryOptions};
/// use leptos::prelude::*;
///
/// #[component]
/// fn MySidebar() -> impl IntoView { let history =
/// use_chat_history(UseChatHistoryOptions::new("/api/agents").agent_id("support")); view! { <ul>
/// <For each=move || history.conversations.get() key=|c| c.id.clone() let:c>
/// <li>{c.title.clone().unwrap_or_default()}</li> </For> </ul> <Show when=move ||
/// history.has_more.get()> <button on:click=move |_|
/// leptos::task::spawn_local(history.load_more())>"More"</button> </Show> } }
/// ```
pub fn use_chat_history(options: UseChatHistoryOptions) -> UseChatHistoryReturn {
    let (conversations, set_conversations) = signal(Vec::new());
    let (is_loading, set_is_loading) = signal(false);
    let (error, set_error) = signal(None);
    let (has_more, set_has_more) = signal(false);
    let state = State {
        options,
        conversations: set_conversations,
        is_loading: set_is_loading,
        error: set_error,
        has_more: set_has_more,
        generation: StoredValue::new(0),
        busy: StoredValue::new(false),
    };
    let history = UseChatHistoryReturn {
        conversations,
        is_loading,
        error,
        has_more,
        state,
    };
    // Runs after mount and again whenever the list's owner changes (F162).
    Effect::new(move |previous: Option<Key>| {
        let key = (
            options.base_url.get(),
            options.agent_id.get(),
            token_digest(options.authorization.get()),
        );
        if previous.as_ref().is_some_and(|p| *p != key) {
            // Another server, agent or user: nothing of the old list applies.
            state.generation.update_value(|g| *g += 1);
            state.busy.set_value(false);
            set_conversations.set(Vec::new());
            set_has_more.set(false);
            set_error.set(None);
            set_is_loading.set(false);
        }
        if options.auto_load && previous.as_ref() != Some(&key) {
            match LOADED.with(|l| l.borrow().get(&key).cloned()) {
                Some(snapshot) => {
                    set_conversations.set(snapshot.conversations);
                    set_has_more.set(snapshot.has_more);
                }
                None => leptos::task::spawn_local(history.load(true)),
            }
        }
        key
    });
    history
}

impl UseChatHistoryReturn {
    fn client(&self) -> Option<AgentServerClient> {
        let o = self.state.options;
        Some(AgentServerClient::new(ClientOptions {
            base_url: o.base_url.try_get_untracked()?,
            authorization: o.authorization.try_get_untracked()?,
            headers: o.headers.try_get_untracked()?,
        }))
    }

    fn key(&self) -> Option<Key> {
        let o = self.state.options;
        Some((
            o.base_url.try_get_untracked()?,
            o.agent_id.try_get_untracked()?,
            token_digest(o.authorization.try_get_untracked()?),
        ))
    }

    fn query(&self, offset: usize) -> Option<ConversationsQuery> {
        let o = self.state.options;
        let page = if o.page_size == 0 { 20 } else { o.page_size };
        Some(ConversationsQuery {
            agent_id: Some(o.agent_id.try_get_untracked()?).filter(|a| !a.is_empty()),
            user_id: None,
            limit: Some(page),
            offset: u32::try_from(offset).ok(),
        })
    }

    /// Remembers the list for remounts.
    fn remember(&self) {
        let (Some(key), Some(conversations), Some(has_more)) = (
            self.key(),
            self.conversations.try_get_untracked(),
            self.has_more.try_get_untracked(),
        ) else {
            return;
        };
        LOADED.with(|l| {
            l.borrow_mut().insert(
                key,
                Snapshot {
                    conversations,
                    has_more,
                },
            )
        });
    }

    /// Loads the first page, replacing the list. `show_loading = false` loads silently
    /// (`is_loading` stays `false`). A later load or a change of server/agent supersedes it.
    pub async fn load(self, show_loading: bool) {
        let s = self.state;
        let (Some(client), Some(query)) = (self.client(), self.query(0)) else {
            return;
        };
        let Some(generation) = s.generation.try_update_value(|g| {
            *g += 1;
            *g
        }) else {
            return;
        };
        s.busy.set_value(true);
        if show_loading {
            s.is_loading.set(true);
        }
        s.error.set(None);
        let result = client.get_conversations(&query).await;
        self.settle(generation, result, |rows, page| *rows = page);
    }

    /// Applies a page that arrived for `generation` (dropped if a later load superseded it):
    /// `merge` puts its rows into the list; an error is kept in `error`. Loading ends.
    fn settle(
        self,
        generation: u64,
        result: Result<crate::core::ConversationList, ChatError>,
        merge: impl FnOnce(&mut Vec<ConversationListItem>, Vec<ConversationListItem>),
    ) {
        let s = self.state;
        if s.generation.try_get_value() != Some(generation) {
            return;
        }
        match result {
            Ok(page) => {
                s.conversations
                    .try_update(|rows| merge(rows, page.conversations));
                s.has_more.try_set(page.has_more);
                self.remember();
            }
            Err(err) => {
                s.error.try_set(Some(err));
            }
        }
        s.is_loading.try_set(false);
        s.busy.try_set_value(false);
    }

    /// Loads the next page and appends it. Does nothing while a page is on its way or
    /// when `has_more` is `false`. The offset is the number of rows held, so a row deleted
    /// here does not make the next page skip one; a row already held is not repeated.
    pub async fn load_more(self) {
        let s = self.state;
        if s.busy.try_get_value() != Some(false) || self.has_more.try_get_untracked() != Some(true)
        {
            return;
        }
        let held = self.conversations.with_untracked(Vec::len);
        let (Some(client), Some(query)) = (self.client(), self.query(held)) else {
            return;
        };
        let generation = s.generation.get_value();
        s.busy.set_value(true);
        s.is_loading.set(true);
        let result = client.get_conversations(&query).await;
        self.settle(generation, result, |rows, page| {
            for row in page {
                if !rows.iter().any(|r| r.id == row.id) {
                    rows.push(row);
                }
            }
        });
    }

    /// Reloads the first page silently.
    pub async fn refresh(self) {
        self.load(false).await;
    }

    /// Deletes a conversation on the server, then removes its row. On a refusal the
    /// row stays, `error` is set and the error is returned.
    ///
    /// # Errors
    /// The [`ChatError`] of the refused or failed delete.
    pub async fn delete_conversation(self, id: String) -> Result<(), ChatError> {
        let Some(client) = self.client() else {
            return Ok(());
        };
        match client.delete_conversation(&id).await {
            Ok(()) => {
                self.state
                    .conversations
                    .try_update(|rows| rows.retain(|r| r.id != id));
                self.remember();
                Ok(())
            }
            Err(err) => {
                self.state.error.try_set(Some(err.clone()));
                Err(err)
            }
        }
    }
}
