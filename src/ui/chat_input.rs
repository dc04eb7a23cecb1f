//! `<ChatInput/>`: the composer. Enter sends, Shift+Enter adds a line, the draft lives in the
//! store so a refused send can hand it back. Files come from the paperclip's picker or from a
//! paste into the text box and wait as chips above it.

use leptos::html::{Input, Textarea};
use leptos::prelude::*;

use crate::core::{Command, ComposerState, Run};
use crate::store::ChatStore;
use crate::ui::attachments::PendingFiles;
use crate::ui::i18n::I18n;
use crate::ui::icons::{PaperclipIcon, SendIcon, StopIcon};
use crate::ui::slots::RenderProp;

/// What a custom send button is given.
#[derive(Clone, Copy)]
pub struct SendButtonSlot {
    /// Sends the draft (does nothing while sending is not possible).
    pub on_click: Callback<()>,
    /// True while the draft cannot be sent (empty, a reply running, files still being read, a
    /// card blocking the composer).
    pub disabled: Signal<bool>,
}

/// What a custom stop button is given.
#[derive(Clone, Copy)]
pub struct StopButtonSlot {
    /// Stops the running reply.
    pub on_click: Callback<()>,
}

/// A handle on a mounted composer, like React's `ref`: create one, pass it as
/// `handle`, call it later.
///
/// ```no_run
/// use agent_chat_ui::ui::chat_input::{ChatInput, ChatInputHandle};
/// use leptos::prelude::*;
///
/// #[component]
/// fn Composer() -> impl IntoView {
///     let input = ChatInputHandle::new();
///     view! { <ChatInput handle=input/> <button on:click=move |_| input.focus()>"Reply"</button> }
/// }
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ChatInputHandle {
    textarea: NodeRef<Textarea>,
    /// The store of the composer this handle was given to (the draft lives there).
    store: StoredValue<Option<ChatStore>>,
}

impl Default for ChatInputHandle {
    fn default() -> Self {
        Self::new()
    }
}

impl ChatInputHandle {
    /// A handle not yet bound to a composer.
    #[must_use]
    pub fn new() -> Self {
        ChatInputHandle {
            textarea: NodeRef::new(),
            store: StoredValue::new(None),
        }
    }

    /// Moves keyboard focus to the text box (nothing if the composer is gone).
    pub fn focus(&self) {
        if let Some(el) = self.textarea.try_get_untracked().flatten() {
            let _ = web_sys::HtmlElement::focus(&el);
        }
    }

    /// Replaces the draft, e.g. to put back a text the host refused.
    pub fn set_value(&self, text: impl Into<String>) {
        if let Some(store) = self.store.try_get_value().flatten() {
            store.set_draft(text);
        }
    }

    /// The current draft (empty before the composer is mounted).
    #[must_use]
    pub fn value(&self) -> String {
        self.store
            .try_get_value()
            .flatten()
            .and_then(|s| s.draft.try_get_untracked())
            .unwrap_or_default()
    }
}

/// Largest height (px) the textarea grows to before it scrolls.
const MAX_HEIGHT_PX: i32 = 200;

/// The composer of the enclosing `Chat`.
#[component]
pub fn ChatInput(
    /// Placeholder; default from the locale.
    #[prop(optional, into)]
    placeholder: MaybeProp<String>,
    /// Focus the textarea on mount and whenever the open conversation changes.
    #[prop(optional)]
    auto_focus: bool,
    /// Replaces the send button.
    #[prop(optional, into)]
    render_send_button: RenderProp<SendButtonSlot>,
    /// Replaces the stop button shown while a reply streams.
    #[prop(optional, into)]
    render_stop_button: RenderProp<StopButtonSlot>,
    /// Lets the host focus the composer or set its text.
    #[prop(optional)]
    handle: Option<ChatInputHandle>,
    /// The host closes the composer: nothing can be sent or attached; the draft stays
    /// and can still be read and selected.
    #[prop(optional, into)]
    disabled: Signal<bool>,
    /// Extra classes on the composer's form.
    #[prop(optional, into)]
    class: MaybeProp<String>,
) -> impl IntoView {
    let store = ChatStore::expect();
    let i18n = I18n::get();
    let textarea = handle.map_or_else(NodeRef::<Textarea>::new, |h| h.textarea);
    if let Some(h) = handle {
        h.store.set_value(Some(store));
    }
    let picker = NodeRef::<Input>::new();
    let streaming = move || store.status.with(|s| s.run == Run::Streaming);
    let can_send = move || !disabled.get() && store.status.with(|s| s.can_send);
    let has_text = move || store.draft.with(|d| !d.trim().is_empty());
    // F48: no attach button when uploads are off (the agent's metadata may decide, C16).
    let uploads_on = move || store.files.with(|f| f.limits.enabled);
    // F88: attaching stops at the limit; the chips stay removable.
    let at_limit = move || store.files.with(|f| f.pending.len() >= f.limits.max_files);
    let files_ready = move || store.files.with(|f| f.pending.iter().all(|p| p.ready));
    // A drag that carries files over the composer (for its dashed outline).
    let dragging = RwSignal::new(false);
    let accept = move || {
        store.files.with(|f| {
            let a = f.limits.accept_attribute();
            (!a.is_empty()).then_some(a)
        })
    };

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
        // A chat drawn in stages is hidden until drawn whole, and a hidden box takes no focus.
        let shown = use_context::<crate::ui::first_draw::FirstDrawShown>();
        Effect::new(move |_| {
            open_conversation.track();
            if shown.is_none_or(|s| s.0.get()) {
                crate::ui::focus_later(textarea);
            }
        });
    }
    // F228: back to the composer once the last card is answered.
    Effect::new(move |prev: Option<u64>| {
        let n = store.attention.focus_composer();
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
        if !can_send() || !files_ready() {
            return;
        }
        let text = store.draft.get_untracked();
        if text.trim().is_empty() {
            return;
        }
        store.set_draft(String::new());
        store.dispatch(Command::Send(text));
    };
    // F196: while a card waits the composer is closed (block), warns (cancel) or answers the
    // question (answer, with the question's placeholder).
    let composer = move || store.status.with(|s| s.composer.clone());
    let blocked = move || disabled.get() || store.status.with(|s| s.composer.is_blocked());
    let can_take_files = move || uploads_on() && !blocked();
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
        ComposerState::WaitingElsewhere => Some(i18n.t("chat-input-waiting-elsewhere")),
        ComposerState::Cancel => Some(i18n.t("chat-input-send-cancels-request")),
        _ => None,
    };

    view! {
        <form
            class=move || crate::utils::cn(["chat-input", class.get().as_deref().unwrap_or("")])
            part="composer"
            data-state=move || store.status.with(|s| s.composer.as_str())
            data-dragging=move || dragging.get().to_string()
            on:dragover=move |ev: leptos::ev::DragEvent| {
                // Only a drag of files is taken; dropped text goes where the browser puts it.
                let files = ev
                    .data_transfer()
                    .is_some_and(|d| d.types().includes(&"Files".into(), 0));
                if files && can_take_files() {
                    ev.prevent_default();
                    dragging.set(true);
                }
            }
            on:dragleave=move |_| dragging.set(false)
            on:drop=move |ev: leptos::ev::DragEvent| {
                dragging.set(false);
                let files = crate::io::files::list(ev.data_transfer().and_then(|d| d.files()));
                if !files.is_empty() && can_take_files() {
                    ev.prevent_default();
                    store.add_files(files);
                }
            }
            on:submit=move |ev| {
                ev.prevent_default();
                submit();
            }
        >
            <PendingFiles/>
            <div class="chat-input__box">
                <Show when=uploads_on>
                    <input
                        type="file"
                        class="chat-input__file-picker"
                        node_ref=picker
                        multiple
                        tabindex="-1"
                        aria-hidden="true"
                        accept=accept
                        on:change=move |ev| {
                            let input: web_sys::HtmlInputElement = event_target(&ev);
                            let files = crate::io::files::list(input.files());
                            // Cleared so that picking the same file again fires `change` again.
                            input.set_value("");
                            store.add_files(files);
                        }
                    />
                    <button
                        type="button"
                        class="chat-input__attach"
                        aria-label=move || i18n.t("chat-input-attach-files")
                        title=move || i18n.t("chat-input-attach-files")
                        disabled=move || at_limit() || blocked()
                        on:click=move |_| {
                            if let Some(input) = picker.get_untracked() {
                                input.click();
                            }
                        }
                    >
                        <PaperclipIcon/>
                    </button>
                </Show>
                <textarea
                    class="chat-input__textarea"
                    dir="auto"
                    node_ref=textarea
                    rows="1"
                    // Closed, not disabled: a disabled box would throw the focus (and the
                    // person typing in it) out to the page when a card arrives (issue 13).
                    readonly=blocked
                    aria-disabled=move || blocked().then_some("true")
                    aria-label=move || i18n.t("chat-input-label")
                    placeholder=placeholder_text
                    prop:value=move || store.draft.get()
                    on:focus=move |_| store.set_composer_focused(true)
                    on:blur=move |_| store.set_composer_focused(false)
                    on:input=move |ev| {
                        store.set_draft(event_target_value(&ev));
                        grow();
                    }
                    on:paste=move |ev: leptos::ev::ClipboardEvent| {
                        // Pasted files are attached; pasted text goes in as usual.
                        let files = crate::io::files::list(
                            ev.clipboard_data().and_then(|d| d.files()),
                        );
                        if !files.is_empty() && uploads_on() {
                            ev.prevent_default();
                            store.add_files(files);
                        }
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
                    fallback=move || {
                        let disabled = Signal::derive(move || {
                            !(can_send() && has_text() && files_ready())
                        });
                        let custom = render_send_button.render(SendButtonSlot {
                            on_click: Callback::new(move |()| submit()),
                            disabled,
                        });
                        match custom {
                            Some(view) => view,
                            None => view! {
                                <button
                                    type="submit"
                                    class="chat-input__send"
                                    part="send-button"
                                    aria-label=move || i18n.t("chat-input-send")
                                    disabled=disabled
                                >
                                    <SendIcon/>
                                </button>
                            }
                            .into_any(),
                        }
                    }
                >
                    {move || {
                        let stop = Callback::new(move |()| store.dispatch(Command::Stop));
                        match render_stop_button.render(StopButtonSlot { on_click: stop }) {
                            Some(view) => view,
                            None => view! {
                                <button
                                    type="button"
                                    class="chat-input__stop"
                                    aria-label=move || i18n.t("chat-input-stop")
                                    on:click=move |_| stop.run(())
                                >
                                    <StopIcon/>
                                </button>
                            }
                            .into_any(),
                        }
                    }}
                </Show>
            </div>
            <p class="chat-input__helper" data-hint=move || hint().is_some().to_string()>
                {move || hint().unwrap_or_else(|| i18n.t("chat-input-helper"))}
            </p>
        </form>
    }
}
