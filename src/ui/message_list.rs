//! `<ChatMessageList/>`: the scrolling, announced list of messages plus the streaming reply.
//!
//! In the element and the page (split builds) the list is a part of its own, fetched when the
//! chat is first drawn: until it arrives the list shows its empty or loading state,
//! which are in the first download, and the composer works.

use leptos::html::Div;
use leptos::prelude::*;

use crate::core::{Chunk, Run};
use crate::store::ChatStore;
use crate::ui::cards::ChatActions;
use crate::ui::chunk::Lazy;
use crate::ui::find::{FindControl, FindInConversation};
use crate::ui::i18n::I18n;
use crate::ui::message::{ChatMessage, StreamingMessage};
use crate::ui::options::ChatSlots;
use crate::ui::slots::{MessageActionsSlot, RenderProp};
use crate::ui::window::{Item, Window};

/// Distance from the bottom (px) within which the list keeps following new content.
const STICK_PX: i32 = 80;
/// An upward move (px) that is the reader's, not the browser rounding a spacer's height while
/// it keeps the view.
const MOVED_PX: i32 = 3;

/// Messages of the enclosing chat store, the streaming reply, and the empty / loading states.
///
/// Cards are answered through `actions`; without it, or without `on_resolve`, every
/// card is drawn read-only ("Waiting for approval in another app"), as in the React library.
#[component]
pub fn ChatMessageList(
    /// How cards are answered and drawn (`Chat` passes [`ChatActions::from_store`] plus its
    /// card options). Default: none, every card read-only.
    #[prop(optional)]
    actions: Option<ChatActions>,
    /// Render overrides, the same struct as `Chat`'s: this list uses the empty state, avatars,
    /// message actions and the two cards (which win over `actions`' renderers); the header
    /// and sidebar ones are ignored. Default: none, the built-in parts.
    #[prop(optional)]
    slots: ChatSlots,
    /// Follow new content while the reader is at the bottom. Default: `true`.
    #[prop(default = true)]
    auto_scroll: bool,
    /// Show avatars. Default: `true`.
    #[prop(default = true)]
    show_avatars: bool,
    /// Show each message's local time. Default: `false`.
    #[prop(optional)]
    show_timestamps: bool,
    /// Show the "Sources" block under assistant messages that have citations. Default:
    /// `true`.
    #[prop(into, default = Signal::stored(true))]
    enable_citations: Signal<bool>,
    /// Extra classes on the scrolling list. Default: none.
    #[prop(optional, into)]
    class: MaybeProp<String>,
) -> impl IntoView {
    let actions = actions.unwrap_or_default();
    provide_context(ChatActions {
        render_tool_approval: slots
            .render_tool_approval
            .callback()
            .or(actions.render_tool_approval),
        render_question: slots.render_question.callback().or(actions.render_question),
        ..actions
    });
    let empty_state = slots.render_empty_state;
    let args = ListArgs {
        auto_scroll,
        render_actions: slots.render_message_actions,
        render_avatar: slots.render_avatar,
        show_avatars,
        show_timestamps,
        enable_citations,
        empty_state,
        class,
    };
    view! {
        <Lazy
            chunk=Chunk::Messages
            preload=preload_messages
            view=move || messages_part(args.clone())
            stand_in=move |notice| list_pending(empty_state, notice)
        />
    }
}

/// What [`ChatMessageList`] was given, for its part.
#[derive(Clone)]
struct ListArgs {
    auto_scroll: bool,
    render_actions: RenderProp<MessageActionsSlot>,
    render_avatar: RenderProp<crate::core::Role>,
    show_avatars: bool,
    show_timestamps: bool,
    enable_citations: Signal<bool>,
    empty_state: RenderProp<()>,
    class: MaybeProp<String>,
}

/// In place of the list until its part is here: the empty state or the loading one (so a new
/// chat looks the same either way), or the notice that the part could not be fetched.
fn list_pending(empty_state: RenderProp<()>, notice: Option<AnyView>) -> AnyView {
    let store = ChatStore::expect();
    let busy = notice.is_none() && store.status.with_untracked(|s| s.run != Run::Idle);
    view! {
        <div class="chat-message-list-frame">
            <div class="chat-message-list-pending" aria-busy=busy.then_some("true")>
                <div class="chat-message-list__inner">
                    {notice.unwrap_or_else(|| list_states(empty_state).into_any())}
                </div>
            </div>
        </div>
    }
    .into_any()
}

/// The empty state ("Start a conversation", or the host's) and the loading one, each shown
/// when it applies.
fn list_states(empty_state: RenderProp<()>) -> impl IntoView {
    let store = ChatStore::expect();
    let i18n = I18n::get();
    let loading = move || store.status.with(|s| s.run == Run::Loading);
    let empty = move || {
        store.messages.with(|m| m.is_empty()) && store.streaming.with(|s| s.is_none()) && !loading()
    };
    view! {
        <Show when=empty>
            {move || empty_state.render(()).unwrap_or_else(|| view! {
                <div class="chat-empty">
                    <div class="chat-empty__icon"><crate::ui::icons::ChatIcon/></div>
                    <h2 class="chat-empty__title">{move || i18n.t("chat-empty-title")}</h2>
                    <p class="chat-empty__subtitle">{move || i18n.t("chat-empty-subtitle")}</p>
                </div>
            }.into_any())}
        </Show>
        <Show when=loading>
            <div class="chat-loading" role="status">
                <div class={"chat-dots"}><span></span><span></span><span></span></div>
                <p>{move || i18n.t("chat-loading-conversation")}</p>
            </div>
        </Show>
    }
}

/// Asks for the list's part before the list is drawn (a chat drawn in stages asks in its
/// first task, as a chat drawn at once does when it draws the list).
#[cfg(feature = "staged")]
pub(crate) fn fetch_list_ahead() {
    crate::ui::chunk::fetch_ahead(Chunk::Messages, Box::pin(preload_messages()));
}

crate::io::split::split_point!(
    messages,
    preload_messages,
    /// The list itself: rows, the streaming reply, find and paging.
    fn messages_part(args: ListArgs) -> AnyView {
        list_view(args).into_any()
    }
);

/// The scrolling, announced list of the enclosing store's messages.
fn list_view(args: ListArgs) -> impl IntoView {
    crate::ui::style::use_part_style(crate::ui::style::MESSAGES_CSS);
    let ListArgs {
        auto_scroll,
        render_actions,
        render_avatar,
        show_avatars,
        show_timestamps,
        enable_citations,
        empty_state,
        class,
    } = args;
    let store = ChatStore::expect();
    let i18n = I18n::get();
    let scroller = NodeRef::<Div>::new();
    // Follow new content only while the reader is at the bottom: never yank someone who
    // scrolled up to read.
    let stick = StoredValue::new(true);
    let last_top = StoredValue::new(0i32);
    let paging = crate::ui::paging::Paging::new(scroller, store);
    // Only the rows in and near the view are drawn (issue 18, D58).
    let window = Window::new(store, scroller, stick);
    // The first conversation opened should not pay for compiling the message view.
    crate::ui::warm::message_view_when_idle();
    // Find in the conversation (D58): the message jumped to is drawn and marked.
    let find = use_context::<FindControl>().unwrap_or_else(FindControl::new);
    let find_hit = RwSignal::new(None::<String>);
    // Another conversation opens at its end (D27), wherever the last one was scrolled to.
    let conversation_id = Memo::new(move |_| {
        store
            .status
            .with(|s| s.conversation.as_ref().map(|c| c.id.clone()))
    });
    Effect::new(move |_| {
        conversation_id.track();
        stick.set_value(true);
        window.reset();
        request_animation_frame(move || {
            if let Some(el) = scroller.try_get_untracked().flatten() {
                el.set_scroll_top(el.scroll_height());
            }
        });
    });

    Effect::new(move |_| {
        store.messages.track();
        store.streaming.track();
        if !auto_scroll || !stick.get_value() {
            return;
        }
        request_animation_frame(move || {
            // The list may be gone by the next frame (chat unmounted).
            if let Some(el) = scroller.try_get_untracked().flatten() {
                el.set_scroll_top(el.scroll_height());
            }
        });
    });

    // Also busy while an older page is on its way (D27): its messages are history, not news.
    let busy = move || {
        store
            .status
            .with(|s| s.run == Run::Streaming || s.is_loading_older)
            .to_string()
    };
    // F226: one hidden polite region for cards that arrive live.
    let announcement = move || {
        store
            .attention
            .with_announcement(|a| a.map(|a| crate::ui::attention::text(&i18n, &a.notice)))
    };

    view! {
        <div class="chat-message-list-frame">
        <FindInConversation window=window control=find hit=find_hit/>
        // The scrolling box is the log itself and takes keyboard focus (tabindex 0), so the
        // history can be scrolled with the keys even when nothing inside is focusable.
        <div
            class=move || crate::utils::cn(["chat-message-list", class.get().as_deref().unwrap_or("")])
            part="message-list"
            node_ref=scroller
            tabindex="0"
            role="log"
            aria-live="polite"
            aria-relevant="additions"
            aria-busy=busy
            aria-label=move || i18n.t("chat-message-list-label")
            on:focusin=move |ev| window.on_focus(ev.target())
            on:keydown=move |ev: web_sys::KeyboardEvent| {
                // Ctrl+F / Cmd+F in the list: the browser's find cannot see undrawn rows.
                if (ev.ctrl_key() || ev.meta_key()) && ev.key().eq_ignore_ascii_case("f") {
                    ev.prevent_default();
                    find.open.set(true);
                }
            }
            on:focusout=move |ev| window.on_blur(ev.target(), ev.related_target())
            on:scroll=move |_| {
                if let Some(el) = scroller.try_get_untracked().flatten() {
                    // At the end it follows; it stops only when the reader moves up. Not by the
                    // distance alone: content that grows faster than scroll events arrive
                    // would count as the reader leaving the end.
                    let gap = el.scroll_height() - el.scroll_top() - el.client_height();
                    let top = el.scroll_top();
                    if gap <= STICK_PX {
                        stick.set_value(true);
                    } else if top < last_top.get_value() - MOVED_PX {
                        stick.set_value(false);
                    }
                    last_top.set_value(top);
                }
                window.on_scroll();
                paging.on_scroll(store);
            }
        >
            <div class="chat-message-list__inner">
                {list_states(empty_state)}
                <crate::ui::paging::OlderMessages/>
                // Windowed (D58): the rows near the view, spacers for the rest. Keyed by message
                // id, so the rows on screen are never moved in the DOM (which would replay their
                // slide-in) when the window moves or older pages arrive.
                <div class="chat-message-window" node_ref=window.body>
                    <For
                        each=move || window.items.get()
                        key=Item::key
                        children=move |item| match item {
                            Item::Gap { height, .. } => view! {
                                <div class="chat-message-gap" aria-hidden="true" style:height=format!("{height}px")></div>
                            }
                            .into_any(),
                            Item::Row { id, index, fresh } => {
                                let message = store.messages.with_untracked(|ms| {
                                    ms.get(index)
                                        .filter(|m| m.id == id)
                                        .or_else(|| ms.iter().find(|m| m.id == id))
                                        .cloned()
                                });
                                let row = NodeRef::<Div>::new();
                                row.on_load(move |el| {
                                    window.observe(&el);
                                    let el = send_wrapper::SendWrapper::new(el);
                                    on_cleanup(move || window.unobserve(&el));
                                });
                                let key = id.clone();
                                let position = Signal::derive(move || window.position(&key));
                                let key = id.clone();
                                let is_hit = move || {
                                    find_hit.with(|h| h.as_deref() == Some(key.as_str())).then_some("true")
                                };
                                message
                                    .map(|m| view! {
                                        <div
                                            class="chat-message-row"
                                            class:chat-message-row--quiet=!fresh
                                            data-row=id
                                            data-find-hit=is_hit
                                            node_ref=row
                                        >
                                            <ChatMessage
                                                message=m
                                                position=position
                                                render_actions=render_actions
                                                render_avatar=render_avatar
                                                show_avatar=show_avatars
                                                show_timestamp=show_timestamps
                                                enable_citations=enable_citations
                                            />
                                        </div>
                                    })
                                    .into_any()
                            }
                        }
                    />
                </div>
                <Show when=move || store.streaming.with(|s| s.is_some())>
                    <StreamingMessage render_avatar=render_avatar show_avatar=show_avatars/>
                </Show>
            </div>
        </div>
        </div>
        // Outside the log: a live region must not sit inside another one.
        <div class="chat-visually-hidden chat-announcer" aria-live="polite" aria-atomic="true">
            {announcement}
        </div>
    }
}
