//! `<ChatMessage/>`: one message row (avatar, tool steps, text), and the streaming reply row.

use leptos::prelude::*;

use crate::core::{Message, Role};
use crate::store::ChatStore;
use crate::ui::attachments::MessageFiles;
use crate::ui::i18n::I18n;
use crate::ui::markdown::{Markdown, StreamingMarkdown};
use crate::ui::tool_call::{ToolCallView, ToolCalls};

/// One stored (or optimistic) message.
///
/// Assistant (and system/tool) text is Markdown, drawn by [`Markdown`]. What the person typed
/// stays plain text with its line breaks (`white-space: pre-wrap`): people do not write
/// Markdown to a chat box on purpose, and `*`, `_`, `#` or a leading `1.` in their words must
/// show exactly as typed, as in the React library.
#[component]
pub fn ChatMessage(
    /// The message to show.
    message: Message,
) -> impl IntoView {
    let i18n = I18n::get();
    let role = role_name(&message.role);
    let is_user = message.role == Role::User;
    let text = message.content.display_text().into_owned();
    let steps: Vec<ToolCallView> = message
        .tool_call_details()
        .into_iter()
        .map(|d| ToolCallView {
            id: d.id,
            name: d.name,
            args: d.args,
            result: d.result,
        })
        .collect();
    let duration = message.tool_call_duration_seconds();
    view! {
        <article class="chat-message" data-role=role data-message-id=message.id.clone()>
            <Avatar is_user=is_user/>
            <div class="chat-message__body">
                <span class="chat-visually-hidden">
                    {move || if is_user { i18n.t("chat-message-user") } else { i18n.t("chat-message-ai") }}
                </span>
                {(!steps.is_empty()).then(|| view! { <ToolCalls calls=steps executing=false duration=duration/> })}
                {if is_user {
                    view! { <div class="chat-message__content">{text}</div> }.into_any()
                } else {
                    view! {
                        <div class="chat-message__content chat-message__content--markdown">
                            <Markdown text=text/>
                        </div>
                    }
                    .into_any()
                }}
                {(!message.files.is_empty()).then(|| view! { <MessageFiles files=message.files.clone()/> })}
                {(role == "assistant").then(|| view! { <crate::ui::cards::MessageCards message_id=message.id.clone()/> })}
            </div>
        </article>
    }
}

/// The assistant reply while it streams: Markdown with a cursor, or tool steps / thinking dots.
///
/// The text is parsed incrementally ([`StreamingMarkdown`]): completed blocks are parsed and
/// drawn once, only the open last block again. The store publishes `streaming` once per
/// animation frame, so this costs at most one parse and one DOM update per frame.
#[component]
pub fn StreamingMessage() -> impl IntoView {
    let store = ChatStore::expect();
    let i18n = I18n::get();
    let text = Signal::derive(move || {
        store
            .streaming
            .with(|s| s.as_ref().map(|t| t.text.clone()).unwrap_or_default())
    });
    let has_text = move || {
        store
            .streaming
            .with(|s| s.as_ref().is_some_and(|t| !t.text.is_empty()))
    };
    let calls = move || {
        store.streaming.with(|s| {
            s.as_ref()
                .map(|t| {
                    t.tool_calls
                        .iter()
                        .map(|c| ToolCallView {
                            id: c.id.clone(),
                            name: c.display_name.clone().unwrap_or_else(|| c.name.clone()),
                            args: c.args.clone(),
                            result: c.result.clone(),
                        })
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    };
    let progress = move || {
        store
            .streaming
            .with(|s| s.as_ref().and_then(|t| t.progress.clone()))
    };
    view! {
        <article class="chat-message" data-role="assistant" data-streaming="true" data-message-id="streaming">
            <Avatar is_user=false/>
            <div class="chat-message__body">
                {move || {
                    let calls = calls();
                    (!calls.is_empty()).then(|| view! { <ToolCalls calls=calls executing=!has_text() duration=None/> })
                }}
                <Show
                    when=has_text
                    fallback=move || view! {
                        <div class="chat-dots chat-message__thinking" role="status" aria-label=move || i18n.t("chat-message-thinking")>
                            <span></span><span></span><span></span>
                        </div>
                    }
                >
                    <div class="chat-message__content chat-message__content--markdown">
                        <StreamingMarkdown text=text/>
                    </div>
                </Show>
                {move || progress().map(|p| view! { <p class="chat-message__progress">{p}</p> })}
            </div>
        </article>
    }
}

#[component]
fn Avatar(is_user: bool) -> impl IntoView {
    let i18n = I18n::get();
    view! {
        <div class="chat-avatar" data-role=if is_user { "user" } else { "assistant" } aria-hidden="true">
            {move || if is_user { "U".to_owned() } else { i18n.t("chat-message-ai") }}
        </div>
    }
}

fn role_name(role: &Role) -> &'static str {
    match role {
        Role::User => "user",
        Role::Assistant => "assistant",
        Role::Tool => "tool",
        _ => "system",
    }
}
