//! Find in the conversation: the list draws only the rows near the view, so the
//! browser's find-in-page cannot reach the others; this searches every loaded message and
//! jumps to a hit, which draws it.

use leptos::html::{Div, Input};
use leptos::prelude::*;

use crate::store::ChatStore;
use crate::ui::i18n::I18n;
use crate::ui::icons::{ChevronDownIcon, SearchIcon, XIcon};
use crate::ui::window::Window;

pub(crate) use crate::store::find::FindControl;

/// The button that opens the find bar (and closes it, in the header, where it stays while the
/// bar is open). Shown once there are messages to find in.
// The component macro makes the props builder `pub`; the component itself is crate-only.
#[allow(unreachable_pub)]
#[component]
pub(crate) fn FindToggle(
    /// The bar it opens.
    control: FindControl,
    /// In a header (beside the other controls) rather than floating over the list.
    docked: bool,
) -> impl IntoView {
    crate::ui::style::use_part_style(crate::ui::style::MESSAGES_CSS);
    let store = ChatStore::expect();
    let i18n = I18n::get();
    if docked {
        control.docked.set(true);
        on_cleanup(move || {
            let _ = control.docked.try_set(false);
        });
    }
    let open = control.open;
    let shown = move || {
        store.messages.with(|m| !m.is_empty()) && (docked || !(open.get() || control.docked.get()))
    };
    let class = if docked {
        "chat-find__toggle chat-icon-button"
    } else {
        "chat-find__toggle chat-find__toggle--floating"
    };
    view! {
        <Show when=shown>
            <button
                type="button"
                class=class
                node_ref=control.toggle
                aria-label=move || i18n.t("chat-find-open")
                title=move || i18n.t("chat-find-open")
                aria-expanded=move || open.get().to_string()
                on:click=move |_| open.update(|o| *o = !*o)
            >
                <SearchIcon/>
            </button>
        </Show>
    }
}

/// The find bar, while open: a search field, "2 of 15", previous / next and close, and the
/// floating button when no header has one. Enter goes to the next hit, Shift+Enter to the
/// previous, Escape closes and gives focus back to the button; `hit` is the message jumped
/// to, which the list marks.
// The component macro makes the props builder `pub`; the component itself is crate-only.
#[allow(unreachable_pub)]
#[component]
pub(crate) fn FindInConversation(
    window: Window,
    control: FindControl,
    hit: RwSignal<Option<String>>,
) -> impl IntoView {
    crate::ui::style::use_part_style(crate::ui::style::MESSAGES_CSS);
    let store = ChatStore::expect();
    let i18n = I18n::get();
    let open = control.open;
    let query = RwSignal::new(String::new());
    // Which hit, counted from the newest: people look for something they read recently.
    let current = RwSignal::new(0usize);
    let input = NodeRef::<Input>::new();
    let toggle = control.toggle;
    let bar = NodeRef::<Div>::new();
    // Ids of the hits, oldest first: one lower-cased scan per change of the text or messages.
    let hits = Memo::new(move |_| {
        let needle = query.with(|q| crate::ui::format::lower(q.trim()));
        if needle.is_empty() || !open.get() {
            return Vec::new();
        }
        store.messages.with(|ms| {
            ms.iter()
                .filter(|m| crate::ui::format::lower(&m.content.display_text()).contains(&needle))
                .map(|m| m.id.clone())
                .collect::<Vec<_>>()
        })
    });
    let chosen = Memo::new(move |_| {
        hits.with(|h| {
            let n = h.len();
            (n > 0).then(|| h[n - 1 - current.get().min(n - 1)].clone())
        })
    });
    Effect::new(move |_| {
        let id = chosen.get();
        hit.set(id.clone());
        window.reveal(id);
    });
    // A new text starts again from the newest hit; a closed bar forgets its text.
    Effect::new(move |_| {
        query.track();
        current.set(0);
    });
    Effect::new(move |_| {
        if !open.get() {
            query.set(String::new());
        }
    });
    Effect::new(move |_| {
        if open.get() {
            request_animation_frame(move || {
                if let Some(el) = input.try_get_untracked().flatten() {
                    let _ = el.focus();
                    el.select();
                }
            });
        }
    });
    let step = move |older: bool| {
        let n = hits.with_untracked(Vec::len);
        if n == 0 {
            return;
        }
        current.update(|c| {
            *c = if older {
                (*c + 1) % n
            } else {
                (*c + n - 1) % n
            };
        });
    };
    let close = move || {
        open.set(false);
        // The toggle is drawn again once the bar has gone.
        leptos::task::spawn_local(async move {
            leptos::task::tick().await;
            if let Some(t) = toggle.try_get_untracked().flatten() {
                let _ = t.focus();
            }
        });
    };
    let status = move || {
        let n = hits.with(Vec::len);
        if query.with(|q| q.trim().is_empty()) {
            String::new()
        } else if n == 0 {
            i18n.t("chat-find-none")
        } else {
            let position = n - current.get().min(n - 1);
            i18n.t_args(
                "chat-find-count",
                &[("index", position.into()), ("count", n.into())],
            )
        }
    };
    view! {
        <FindToggle control=control docked=false/>
        <Show when=move || open.get()>
            <div class="chat-find" role="search" node_ref=bar>
                <input
                    type="search"
                    class="chat-find__input"
                    node_ref=input
                    dir="auto"
                    aria-label=move || i18n.t("chat-find-label")
                    placeholder=move || i18n.t("chat-find-placeholder")
                    prop:value=move || query.get()
                    on:input=move |ev| query.set(event_target_value(&ev))
                    on:keydown=move |ev: web_sys::KeyboardEvent| match ev.key().as_str() {
                        "Enter" => {
                            ev.prevent_default();
                            // Enter goes back in time (to older hits), Shift+Enter forward.
                            step(!ev.shift_key());
                        }
                        "Escape" => {
                            ev.prevent_default();
                            close();
                        }
                        _ => {}
                    }
                />
                <span class="chat-find__status" role="status" aria-live="polite">{status}</span>
                <button
                    type="button"
                    class="chat-find__button chat-find__previous"
                    aria-label=move || i18n.t("chat-find-previous")
                    title=move || i18n.t("chat-find-previous")
                    disabled=move || hits.with(Vec::is_empty)
                    on:click=move |_| step(true)
                >
                    <ChevronDownIcon class="chat-find__up"/>
                </button>
                <button
                    type="button"
                    class="chat-find__button chat-find__next"
                    aria-label=move || i18n.t("chat-find-next")
                    title=move || i18n.t("chat-find-next")
                    disabled=move || hits.with(Vec::is_empty)
                    on:click=move |_| step(false)
                >
                    <ChevronDownIcon/>
                </button>
                <button
                    type="button"
                    class="chat-find__button chat-find__close"
                    aria-label=move || i18n.t("chat-find-close")
                    title=move || i18n.t("chat-find-close")
                    on:click=move |_| close()
                >
                    <XIcon/>
                </button>
            </div>
        </Show>
    }
}
