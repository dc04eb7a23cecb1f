//! `<ChatMessage/>`: one message row (avatar, tool steps, text), and the streaming reply row.

use leptos::prelude::*;

use crate::core::markdown::{self, Direction};
use crate::core::transport::failure::FailedTurn;
use crate::core::{Chunk, Message, Role, Run};
use crate::store::ChatStore;
use crate::ui::attachments::MessageFiles;
use crate::ui::chunk::Lazy;
use crate::ui::citations::Citations;
use crate::ui::i18n::I18n;
use crate::ui::markdown::{
    markdown_part, markdown_pending, preload_markdown, preload_streaming_markdown,
    streaming_markdown_part,
};
use crate::ui::slots::{MessageActionsSlot, RenderProp};
use crate::ui::tool_call::{ToolCallView, ToolCalls};

/// One stored (or optimistic) message.
///
/// Assistant (and system/tool) text is Markdown, drawn by [`Markdown`]. What the person typed
/// stays plain text with its line breaks (`white-space: pre-wrap`): people do not write
/// Markdown to a chat box on purpose, and `*`, `_`, `#` or a leading `1.` in their words must
/// show exactly as typed, as in the React library. Each of its lines reads in the direction of
/// its own first letter.
#[component]
pub fn ChatMessage(
    /// The message to show.
    message: Message,
    /// Actions under a finished assistant message, revealed on hover and when focus is inside
    /// the message.
    #[prop(optional, into)]
    render_actions: RenderProp<MessageActionsSlot>,
    /// Replaces the default avatar; given the message's role.
    #[prop(optional, into)]
    render_avatar: RenderProp<Role>,
    /// Show the avatar (default true): a round "U" badge for the person, "AI" otherwise.
    #[prop(default = true)]
    show_avatar: bool,
    /// Show the local time (HH:MM) of `createdAt` under the message (default false).
    #[prop(optional)]
    show_timestamp: bool,
    /// Show the "Sources" block under an assistant message that has citations (default
    /// true).
    #[prop(into, default = Signal::stored(true))]
    enable_citations: Signal<bool>,
    /// Where the message is in the conversation, for screen readers when the list draws only
    /// some of them: `(aria-posinset, aria-setsize)`, the size -1 while unknown.
    #[prop(optional, into)]
    position: MaybeProp<(u32, i32)>,
    /// Extra classes on the message.
    #[prop(optional, into)]
    class: MaybeProp<String>,
) -> impl IntoView {
    crate::ui::style::use_part_style(crate::ui::style::MESSAGES_CSS);
    let i18n = I18n::get();
    let time = show_timestamp
        .then_some(message.created_at)
        .flatten()
        .map(|at| lazy_extra(Extra::Time(at)));
    let actions = (message.role == Role::Assistant)
        .then(|| {
            render_actions.render(MessageActionsSlot {
                message: message.clone(),
                is_streaming: false,
            })
        })
        .flatten()
        .map(|v| view! { <div class="chat-message__actions">{v}</div> });
    let avatar =
        show_avatar.then(|| view! { <Avatar role=message.role.clone() render=render_avatar/> });
    let role = role_name(&message.role);
    let is_user = message.role == Role::User;
    let text = message.content.display_text().into_owned();
    let steps: Vec<ToolCallView> = message
        .tool_call_details()
        .into_iter()
        .map(ToolCallView::from)
        .collect();
    // F77: sources under a finished assistant message (F73: unless turned off).
    let citations = (message.role == Role::Assistant && !message.citations.is_empty()).then(|| {
        let list = message.citations.clone();
        move || {
            enable_citations
                .get()
                .then(|| lazy_extra(Extra::Sources(list.clone())))
        }
    });
    let duration = message.tool_call_duration_seconds();
    // A turn that failed, kept with the conversation: in the agent's words, else what kind
    // of failure it was, in the person's language.
    let failed = (message.role == Role::Assistant)
        .then(|| FailedTurn::of(&message.metadata))
        .flatten()
        .map(|failed| {
            let words = move || match &failed {
                FailedTurn::Words(words) => words.clone(),
                FailedTurn::Said(id) => i18n.t(id),
            };
            view! {
                <p class="chat-message__failed" role="note">
                    <span class="chat-message__failed-label">{move || i18n.t("chat-message-failed")}</span>
                    " "
                    <span class="chat-message__failed-reason">{words}</span>
                </p>
            }
        });
    let interrupted = message
        .interrupted
        .then(|| view! { <Interrupted message_id=message.id.clone()/> });
    view! {
        <article
            class=move || crate::utils::cn(["chat-message", class.get().as_deref().unwrap_or("")])
            part="message"
            data-role=role
            data-message-id=message.id.clone()
            data-state=message.interrupted.then_some("interrupted")
            aria-posinset=move || position.get().map(|p| p.0)
            aria-setsize=move || position.get().map(|p| p.1)
        >
            {avatar}
            <div class="chat-message__body">
                <span class="chat-visually-hidden">
                    {move || if is_user { i18n.t("chat-message-user") } else { i18n.t("chat-message-ai") }}
                </span>
                {(!steps.is_empty()).then(|| lazy_extra(Extra::Steps(steps, false, duration)))}
                {if is_user {
                    view! { <div class="chat-message__content">{user_lines(&text)}</div> }.into_any()
                } else if text.trim().is_empty() {
                    // A reply with no text of its own (its card asks the question, its steps
                    // say what it did): no empty bubble.
                    ().into_any()
                } else {
                    // D46: no `dir` here: the blocks carry their own (D44), and what has none
                    // (a code block's header, blocks before the first letter) follows the layout.
                    view! {
                        <div class="chat-message__content chat-message__content--markdown">
                            <Lazy
                                chunk=Chunk::Markdown
                                preload=preload_markdown
                                view={
                                    let text = text.clone();
                                    move || markdown_part(text.clone())
                                }
                                stand_in={
                                    let text = Signal::stored(text.clone());
                                    move |notice| markdown_pending(text, notice)
                                }
                            />
                        </div>
                    }
                    .into_any()
                }}
                {(!message.files.is_empty()).then(|| lazy_extra(Extra::Files(message.files.clone())))}
                {citations}
                {failed}
                {interrupted}
                {time}
                {actions}
                {(role == "assistant").then(|| view! { <crate::ui::cards::MessageCards message_id=message.id.clone()/> })}
            </div>
        </article>
    }
}

/// Under a message whose turn broke off before the server's copy could be seen,
/// "Interrupted" (read with the row, so a screen reader hears it after the text) and, under the
/// last such row, Retry, which sends the last message again in place of the interrupted turn.
/// Retry waits while another reply runs.
#[component]
fn Interrupted(message_id: String) -> impl IntoView {
    let i18n = I18n::get();
    // Mounted outside a chat (a host's own list), there is nothing to retry with.
    let retry = use_context::<ChatStore>().map(|store| {
        let last = Memo::new(move |_| {
            store
                .messages
                .with(|ms| ms.last().is_some_and(|m| m.id == message_id))
        });
        let busy = move || store.status.with(|s| s.run == Run::Streaming);
        view! {
            <Show when=move || last.get()>
                <button type="button" class="chat-message__retry" disabled=busy on:click=move |_| store.retry()>
                    {move || i18n.t("chat-message-retry")}
                </button>
            </Show>
        }
    });
    view! {
        <p class="chat-message__interrupted">
            <span class="chat-message__interrupted-label">{move || i18n.t("chat-message-interrupted")}</span>
            {retry}
        </p>
    }
}

/// The assistant reply while it streams: Markdown with a cursor, or tool steps / thinking dots.
///
/// The text is parsed incrementally ([`StreamingMarkdown`]): completed blocks are parsed and
/// drawn once, only the open last block again. The store publishes `streaming` once per
/// animation frame, so this costs at most one parse and one DOM update per frame.
#[component]
pub fn StreamingMessage(
    /// Replaces the default avatar.
    #[prop(optional, into)]
    render_avatar: RenderProp<Role>,
    /// Show the avatar (default true).
    #[prop(default = true)]
    show_avatar: bool,
) -> impl IntoView {
    crate::ui::style::use_part_style(crate::ui::style::MESSAGES_CSS);
    let store = ChatStore::expect();
    let i18n = I18n::get();
    let text = Signal::derive(move || {
        store
            .streaming
            .with(|s| s.as_ref().map(|t| t.text.clone()).unwrap_or_default())
    });
    // Memos: a frame that only adds text leaves the tool steps and the progress line alone
    // (no rebuild, no DOM change; D42).
    let has_text = Memo::new(move |_| {
        store
            .streaming
            .with(|s| s.as_ref().is_some_and(|t| !t.text.is_empty()))
    });
    let calls = Memo::new(move |_| {
        store.streaming.with(|s| {
            s.as_ref()
                .map(|t| {
                    t.tool_calls
                        .iter()
                        .map(ToolCallView::from)
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    });
    let progress = Memo::new(move |_| {
        store
            .streaming
            .with(|s| s.as_ref().and_then(|t| t.progress.clone()))
    });
    view! {
        <article class="chat-message" part="message" data-role="assistant" data-streaming="true" data-message-id="streaming">
            {show_avatar.then(|| view! { <Avatar role=Role::Assistant render=render_avatar/> })}
            <div class="chat-message__body">
                {move || {
                    let calls = calls.get();
                    let executing = !has_text.get();
                    (!calls.is_empty()).then(|| lazy_extra(Extra::Steps(calls, executing, None)))
                }}
                <Show
                    when=move || has_text.get()
                    fallback=move || view! {
                        <div class="chat-dots chat-message__thinking" role="status" aria-label=move || i18n.t("chat-message-thinking")>
                            <span></span><span></span><span></span>
                        </div>
                    }
                >
                    <div class="chat-message__content chat-message__content--markdown">
                        <Lazy
                            chunk=Chunk::Markdown
                            preload=preload_streaming_markdown
                            view=move || streaming_markdown_part(text)
                            stand_in=move |notice| markdown_pending(Signal::derive(move || text.with(|t| t.with(str::to_owned))), notice)
                        />
                    </div>
                </Show>
                {move || progress.get().map(|p| view! { <p class="chat-message__progress" dir="auto">{p}</p> })}
            </div>
        </article>
    }
}

/// What the person typed, exactly (every space, empty line and character kept, nothing read as
/// markup), in runs of lines that read in one direction: each line takes its first
/// letter's direction and a line without one the line's before ([`markdown::line_runs`]). The
/// runs are blocks, so each is aligned on its own side; every run but the last ends with its
/// `\n`, so the text content and a copied selection are the text as typed, and the stylesheet's
/// `pre-wrap` draws the same lines as one block of the whole text would.
fn user_lines(text: &str) -> impl IntoView {
    markdown::line_runs(text)
        .into_iter()
        .map(|(dir, lines)| {
            view! { <div class="chat-message__lines" dir=dir.map(Direction::as_str)>{lines.to_owned()}</div> }
        })
        .collect_view()
}

/// The avatar beside a message: the host's (`render_avatar`) or a round badge, "U" for the
/// person (accent background) and "AI" for everyone else. Decorative: the role is read
/// out from the hidden "You:" / "AI:" label instead.
#[component]
fn Avatar(role: Role, render: RenderProp<Role>) -> impl IntoView {
    let i18n = I18n::get();
    let is_user = role == Role::User;
    let data_role = if is_user { "user" } else { "assistant" };
    match render.render(role) {
        Some(custom) => view! {
            <div class="chat-avatar chat-avatar--custom" data-role=data_role aria-hidden="true">{custom}</div>
        }
        .into_any(),
        None => view! {
            <div class="chat-avatar" data-role=data_role aria-hidden="true">
                {move || if is_user { i18n.t("chat-message-avatar-user") } else { i18n.t("chat-message-ai") }}
            </div>
        }
        .into_any(),
    }
}

/// What a message shows beside its text and that the first screen never needs. It is in the
/// Markdown part: it comes with the first reply, or when the browser is first idle.
#[derive(Clone)]
enum Extra {
    /// Tool steps ([`ToolCalls`]): still running, and how long they took.
    Steps(Vec<ToolCallView>, bool, Option<u64>),
    /// Attachments ([`MessageFiles`]).
    Files(Vec<crate::core::wire::FileAttachment>),
    /// Sources ([`Citations`]).
    Sources(Vec<crate::core::wire::Citation>),
    /// The local time as HH:MM, with the exact instant in `datetime`.
    Time(crate::core::Millis),
}

/// Draws `extra` once the Markdown part is here; until then nothing stands in for it, and if
/// the part cannot be fetched, its notice (with Retry) does.
fn lazy_extra(extra: Extra) -> AnyView {
    view! {
        <Lazy
            chunk=Chunk::Markdown
            preload=preload_extras
            view=move || extra_part(extra.clone())
            stand_in={|notice: Option<AnyView>| notice.unwrap_or_else(|| ().into_any())}
        />
    }
    .into_any()
}

crate::io::split::split_point!(
    markdown,
    preload_extras,
    /// One [`Extra`] of a message, in the Markdown part.
    fn extra_part(extra: Extra) -> AnyView {
        match extra {
            Extra::Steps(steps, executing, duration) => view! {
                <ToolCalls tool_calls=steps is_executing=executing duration_seconds=duration/>
            }
            .into_any(),
            Extra::Files(files) => view! { <MessageFiles files=files/> }.into_any(),
            Extra::Sources(list) => view! { <Citations citations=list/> }.into_any(),
            Extra::Time(at) => view! {
                <time class="chat-message__time" datetime=crate::core::format_iso(at)>
                    {crate::ui::format::local_hh_mm(at)}
                </time>
            }
            .into_any(),
        }
    }
);

fn role_name(role: &Role) -> &'static str {
    match role {
        Role::User => "user",
        Role::Assistant => "assistant",
        Role::Tool => "tool",
        _ => "system",
    }
}
