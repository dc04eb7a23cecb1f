//! Attachment chips: the files waiting in the composer (each with a remove button) and
//! the files of a sent message (with a Download link when the server gave a URL).

use leptos::prelude::*;

use crate::core::url::safe_href;
use crate::core::{format_file_size, FileAttachment};
use crate::store::{ChatStore, PendingFileView};
use crate::ui::i18n::I18n;
use crate::ui::icons::{FileIcon, XIcon};

/// The composer's pending files: name, size and a × per file. Nothing while there are none.
///
/// In the split builds the chips are drawn by the messages' part, which the chat asks
/// for when it is first drawn, long before a file can be picked; if that part could not be
/// fetched, its notice (with Retry) stands where the chips would be.
#[component]
pub fn PendingFiles() -> impl IntoView {
    view! {
        <crate::ui::chunk::Lazy
            chunk=crate::core::Chunk::Messages
            preload=preload_pending_files
            view=pending_files_part
            stand_in={|notice: Option<AnyView>| notice.unwrap_or_else(|| ().into_any())}
        />
    }
}

crate::io::split::split_point!(
    messages,
    preload_pending_files,
    /// [`PendingFiles`]' chips, in the messages' part.
    fn pending_files_part() -> AnyView {
        pending_files().into_any()
    }
);

/// The chips of [`PendingFiles`].
fn pending_files() -> impl IntoView {
    crate::ui::style::use_part_style(crate::ui::style::MESSAGES_CSS);
    let store = ChatStore::expect();
    let i18n = I18n::get();
    let has_files = move || store.files.with(|f| !f.pending.is_empty());
    view! {
        <Show when=has_files>
            <ul class="chat-files chat-input__files" aria-label=move || i18n.t("chat-file-attachments")>
                <For
                    each=move || store.files.with(|f| f.pending.clone())
                    key=|f| (f.id.clone(), f.ready)
                    children=move |file| view! { <PendingChip file=file/> }
                />
            </ul>
        </Show>
    }
}

#[component]
fn PendingChip(file: PendingFileView) -> impl IntoView {
    let store = ChatStore::expect();
    let i18n = I18n::get();
    let id = file.id.clone();
    let name = file.name.clone();
    let remove_label = {
        let name = name.clone();
        move || i18n.t_args("chat-file-remove", &[("name", name.as_str().into())])
    };
    let reading_label = {
        let name = name.clone();
        move || i18n.t_args("chat-file-reading", &[("name", name.as_str().into())])
    };
    view! {
        <li
            class="chat-file-chip"
            data-state=if file.ready { "ready" } else { "reading" }
            aria-busy=(!file.ready).then_some("true")
        >
            <FileIcon/>
            <span class="chat-file-chip__name" title=name.clone()>{name.clone()}</span>
            <span class="chat-file-chip__size" dir="ltr">{format_file_size(file.size)}</span>
            {(!file.ready).then(|| view! {
                <span class="chat-visually-hidden" role="status">{reading_label}</span>
            })}
            <button
                type="button"
                class="chat-file-chip__remove"
                aria-label=remove_label
                on:click=move |_| {
                    store.remove_file(id.clone());
                    // The button goes away with its chip: focus goes to the text box, not the page.
                    store.attention.refocus_composer();
                }
            >
                <XIcon/>
            </button>
        </li>
    }
}

/// The files of a sent (or stored) message.
#[component]
pub fn MessageFiles(
    /// The message's `files`.
    files: Vec<FileAttachment>,
) -> impl IntoView {
    let i18n = I18n::get();
    view! {
        <ul class="chat-files chat-message__files" aria-label=move || i18n.t("chat-file-attachments")>
            {files
                .into_iter()
                .map(|f| {
                    // The one URL filter (core::url): no `javascript:`, no `//host` or `/\host`.
                    let link = f.url.as_deref().and_then(safe_href);
                    view! {
                        <li class="chat-file-chip" data-state="sent" data-file-id=f.id.clone()>
                            <FileIcon/>
                            <span class="chat-file-chip__name" title=f.name.clone()>{f.name.clone()}</span>
                            {(f.size > 0).then(|| view! {
                                <span class="chat-file-chip__size" dir="ltr">{format_file_size(f.size)}</span>
                            })}
                            {link.map(|href| view! {
                                <a class="chat-file-chip__download" href=href download=f.name.clone()
                                    target="_blank" rel="noopener noreferrer">
                                    {move || i18n.t("chat-file-download")}
                                </a>
                            })}
                        </li>
                    }
                })
                .collect_view()}
        </ul>
    }
}
