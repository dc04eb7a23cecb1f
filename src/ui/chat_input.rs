//! `<ChatInput/>`: the composer. Enter sends, Shift+Enter adds a line, the draft lives in the
//! store so a refused send can hand it back.

use leptos::html::Textarea;
use leptos::prelude::*;

use crate::core::{Command, ComposerState, Run};
use crate::store::ChatStore;
use crate::ui::i18n::I18n;
use crate::ui::icons::{SendIcon, StopIcon};

/// Largest height (px) the textarea grows to before it scrolls (F95).
const MAX_HEIGHT_PX: i32 = 200;

/// The composer of the enclosing `Chat`.
#[component]
pub fn ChatInput(
    /// Placeholder; default from the locale (F85).
    #[prop(optional, into)]
    placeholder: MaybeProp<String>,
    /// Focus the textarea on mount and whenever the open conversation changes (F36).
    #[prop(optional)]
    auto_focus: bool,
) -> impl IntoView {
    let store = ChatStore::expect();
    let i18n = I18n::get();
    let textarea = NodeRef::<Textarea>::new();
    let streaming = move || store.status.with(|s| s.run == Run::Streaming);
    let can_send = move || store.status.with(|s| s.can_send);
    let has_text = move || store.draft.with(|d| !d.trim().is_empty());

    let grow = move || {
        // Runs from animation frames too, when the composer may already be unmounted.
        if let Some(el) = textarea.try_get_untracked().flatten() {
            let style = web_sys::HtmlElement::style(&el);
            let _ = style.set_property("height", "auto");
            let h = el.scroll_height().min(MAX_HEIGHT_PX);
            let _ = style.set_property("height", &format!("{h}px"));
        }
    };
    // F36: on mount and after New Chat / opening a conversation (the conversation id changes).
    if auto_focus {
        let open_conversation = Memo::new(move |_| {
            store
                .status
                .with(|s| s.conversation.as_ref().map(|c| c.id.clone()))
        });
        Effect::new(move |_| {
            open_conversation.track();
            crate::ui::focus_later(textarea);
        });
    }
    // F228: back to the composer once the last card is answered.
    Effect::new(move |prev: Option<u64>| {
        let n = store.focus_composer.get();
        if prev.is_some_and(|p| p != n) {
            crate::ui::focus_later(textarea);
        }
        n
    });
    // The draft can change without typing (cleared after send, handed back after a refusal).
    Effect::new(move |_| {
        store.draft.track();
        request_animation_frame(grow);
    });

    let submit = move || {
        if !can_send() {
            return;
        }
        let text = store.draft.get_untracked();
        if text.trim().is_empty() {
            return;
        }
        store.draft.set(String::new());
        store.dispatch(Command::Send(text));
    };
    // F196: while a card waits the composer is closed (block), warns (cancel) or answers the
    // question (answer, with the question's placeholder).
    let composer = move || store.status.with(|s| s.composer.clone());
    let blocked = move || {
        store
            .status
            .with(|s| matches!(s.composer, ComposerState::Blocked))
    };
    let placeholder_text = move || match composer() {
        ComposerState::Answer { question, .. } => question
            .placeholder
            .unwrap_or_else(|| i18n.t("chat-action-free-text-label")),
        _ => placeholder
            .get()
            .unwrap_or_else(|| i18n.t("chat-input-placeholder")),
    };
    let hint = move || match composer() {
        ComposerState::Blocked => Some(i18n.t("chat-input-waiting-for-answer")),
        ComposerState::Cancel => Some(i18n.t("chat-input-send-cancels-request")),
        _ => None,
    };

    view! {
        <form
            class="chat-input"
            data-state=move || store.status.with(|s| s.composer.as_str())
            on:submit=move |ev| {
                ev.prevent_default();
                submit();
            }
        >
            <div class="chat-input__box">
                <textarea
                    class="chat-input__textarea"
                    node_ref=textarea
                    rows="1"
                    disabled=blocked
                    aria-label=move || i18n.t("chat-input-label")
                    placeholder=placeholder_text
                    prop:value=move || store.draft.get()
                    on:focus=move |_| store.composer_focused.set(true)
                    on:blur=move |_| store.composer_focused.set(false)
                    on:input=move |ev| {
                        store.draft.set(event_target_value(&ev));
                        grow();
                    }
                    on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                        if ev.key() == "Enter" && !ev.shift_key() && !ev.is_composing() {
                            ev.prevent_default();
                            submit();
                        }
                    }
                ></textarea>
                <Show
                    when=streaming
                    fallback=move || view! {
                        <button
                            type="submit"
                            class="chat-input__send"
                            aria-label=move || i18n.t("chat-input-send")
                            disabled=move || !(can_send() && has_text())
                        >
                            <SendIcon/>
                        </button>
                    }
                >
                    <button
                        type="button"
                        class="chat-input__stop"
                        aria-label=move || i18n.t("chat-input-stop")
                        on:click=move |_| store.dispatch(Command::Stop)
                    >
                        <StopIcon/>
                    </button>
                </Show>
            </div>
            <p class="chat-input__helper" data-hint=move || hint().is_some().to_string()>
                {move || hint().unwrap_or_else(|| i18n.t("chat-input-helper"))}
            </p>
        </form>
    }
}
