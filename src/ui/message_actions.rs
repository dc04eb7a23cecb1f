//! `<MessageActions/>`: the ready-made action row for an assistant message: copy,
//! regenerate, and thumbs up / down.
//!
//! Made for the `render_message_actions` slot of [`ChatSlots`](crate::ui::ChatSlots):
//!
//! ```text
//! <Chat base_url=url slots=ChatSlots::default().render_message_actions(|slot: MessageActionsSlot| view! {
//!     <MessageActions message=slot.message is_streaming=slot.is_streaming
//!         on_feedback=|(id, kind): (String, Feedback)| log(id, kind.as_str())/>
//! })/>
//! ```

use leptos::prelude::*;

use crate::core::{Message, Role};
use crate::ui::i18n::I18n;
use crate::ui::icons::{CheckIcon, CopyIcon, RefreshIcon, ThumbsDownIcon, ThumbsUpIcon};
use crate::ui::markdown::CopyState;

/// How long "Copied!" (or "Failed to copy") shows before the Copy button returns.
const COPIED_MS: u64 = 2_000;

/// A reader's verdict on a reply: `"positive"` / `"negative"` in the React library.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Feedback {
    /// Thumbs up: "Good response".
    Positive,
    /// Thumbs down: "Bad response".
    Negative,
}

impl Feedback {
    /// The React library's value: `"positive"` or `"negative"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Feedback::Positive => "positive",
            Feedback::Negative => "negative",
        }
    }
}

/// Copy, regenerate and feedback buttons under an assistant message. Draws nothing for
/// other roles or while the message streams.
#[component]
pub fn MessageActions(
    /// The message the actions act on.
    message: Message,
    /// Whether it is still streaming: nothing is drawn meanwhile (default false).
    #[prop(optional, into)]
    is_streaming: Signal<bool>,
    /// Show the Copy button (default true).
    #[prop(default = true)]
    show_copy: bool,
    /// Called with the copied text once the clipboard took it.
    #[prop(optional, into)]
    on_copy: Option<Callback<String>>,
    /// Show the Regenerate button (default true). It is only drawn when `on_regenerate`
    /// is given too. A signal, so a host can offer it on the latest reply only.
    #[prop(default = Signal::stored(true), into)]
    show_regenerate: Signal<bool>,
    /// Called with the message id when Regenerate is pressed.
    #[prop(optional, into)]
    on_regenerate: Option<Callback<String>>,
    /// Show the thumbs up / down buttons (default true).
    #[prop(default = true)]
    show_feedback: bool,
    /// Called with the message id and the verdict; the chosen button stays pressed.
    #[prop(optional, into)]
    on_feedback: Option<Callback<(String, Feedback)>>,
    /// Extra classes for the row.
    #[prop(optional, into)]
    class: MaybeProp<String>,
) -> impl IntoView {
    let i18n = I18n::get();
    if message.role != Role::Assistant {
        return ().into_any();
    }
    // F120: the text parts only (the same text the message shows).
    let text = StoredValue::new(message.content.display_text().into_owned());
    let id = StoredValue::new(message.id.clone());
    let copy_state = RwSignal::new(CopyState::Idle);
    let feedback = RwSignal::new(None::<Feedback>);
    let timer = StoredValue::new(None::<TimeoutHandle>);
    on_cleanup(move || {
        if let Some(Some(t)) = timer.try_get_value() {
            t.clear();
        }
    });

    let copy = move |_| {
        let text = text.get_value();
        leptos::task::spawn_local(async move {
            let done = crate::io::clipboard::write(&text).await;
            if copy_state
                .try_set(if done {
                    CopyState::Copied
                } else {
                    CopyState::Failed
                })
                .is_some()
            {
                // Unmounted meanwhile: nothing to show or report.
                return;
            }
            if done {
                if let Some(cb) = on_copy {
                    cb.run(text);
                }
            }
            if let Some(Some(old)) = timer.try_get_value() {
                old.clear();
            }
            let handle = set_timeout_with_handle(
                move || {
                    let _ = copy_state.try_set(CopyState::Idle);
                },
                std::time::Duration::from_millis(COPIED_MS),
            )
            .ok();
            let _ = timer.try_set_value(handle);
        });
    };
    let choose = move |kind: Feedback| {
        feedback.set(Some(kind));
        if let Some(cb) = on_feedback {
            cb.run((id.get_value(), kind));
        }
    };
    let copy_label = move || match copy_state.get() {
        CopyState::Idle => i18n.t("chat-actions-copy"),
        CopyState::Copied => i18n.t("chat-actions-copied"),
        CopyState::Failed => i18n.t("chat-actions-failed-to-copy"),
    };
    let feedback_button = move |kind: Feedback| {
        let label = move || match kind {
            Feedback::Positive => i18n.t("chat-actions-good-response"),
            Feedback::Negative => i18n.t("chat-actions-bad-response"),
        };
        view! {
            <button
                type="button"
                class="chat-message-actions__button"
                data-action=kind.as_str()
                aria-pressed=move || (feedback.get() == Some(kind)).to_string()
                aria-label=label
                title=label
                on:click=move |_| choose(kind)
            >
                {match kind {
                    Feedback::Positive => view! { <ThumbsUpIcon/> }.into_any(),
                    Feedback::Negative => view! { <ThumbsDownIcon/> }.into_any(),
                }}
            </button>
        }
    };

    view! {
        <Show when=move || !is_streaming.get()>
            <div
                class=move || crate::utils::cn(["chat-message-actions".to_owned(), class.get().unwrap_or_default()])
                role="group"
                aria-label=move || i18n.t("chat-actions-label")
            >
                {show_copy.then(|| view! {
                    <button
                        type="button"
                        class="chat-message-actions__button"
                        data-action="copy"
                        data-state=move || copy_state.get().as_str()
                        aria-label=copy_label
                        title=copy_label
                        on:click=copy
                    >
                        {move || if copy_state.get() == CopyState::Copied {
                            view! { <CheckIcon/> }.into_any()
                        } else {
                            view! { <CopyIcon/> }.into_any()
                        }}
                    </button>
                    <span class="chat-visually-hidden" role="status">
                        {move || match copy_state.get() {
                            CopyState::Idle => String::new(),
                            _ => copy_label(),
                        }}
                    </span>
                })}
                {on_regenerate.map(|cb| view! {
                    <Show when=move || show_regenerate.get()>
                        <button
                            type="button"
                            class="chat-message-actions__button"
                            data-action="regenerate"
                            aria-label=move || i18n.t("chat-actions-regenerate")
                            title=move || i18n.t("chat-actions-regenerate")
                            on:click=move |_| cb.run(id.get_value())
                        >
                            <RefreshIcon/>
                        </button>
                    </Show>
                })}
                {show_feedback.then(|| view! {
                    {feedback_button(Feedback::Positive)}
                    {feedback_button(Feedback::Negative)}
                })}
            </div>
        </Show>
    }
    .into_any()
}
