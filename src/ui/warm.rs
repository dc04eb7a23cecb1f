//! The message view run once, detached, while the browser is idle after the list first shows. A
//! browser compiles each WebAssembly function the first time it runs, so the first conversation
//! opened after a page load paid for compiling the whole message view, Markdown included, in the
//! task that drew it (about 70 ms on the project's machine, against none for the next conversation
//! opened). The view built here is never put in the page: nothing is shown, announced or measured,
//! and no host slot is called. In the element and the page (split builds, where the Markdown
//! renderer is fetched on first use) the sample reply also asks for the Markdown chunk, so it is
//! here before the first reply; if it cannot be fetched now, nothing is reported (the sample is
//! gone), and the first reply asks again.

use leptos::prelude::*;
use leptos::tachys::view::Render;
use wasm_bindgen::JsCast;

use crate::core::wire::MessageContent;
use crate::core::{Message, Role};
use crate::ui::message::ChatMessage;

/// Assistant text touching what a reply usually holds: Markdown blocks and inline marks.
const SAMPLE: &str = "**Warm** up with *a* `reply`:\n\n- one\n- [two](https://example.com)\n\n\
                      > quoted\n\n```\ncode\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |";

/// Builds and drops a message view when the browser is next idle, under the current owner
/// (its context: the store, the language), in a child owner disposed right after.
pub(crate) fn message_view_when_idle() {
    let Some(owner) = Owner::current() else {
        return;
    };
    // The list may be gone by then (its contexts with it): then there is nothing to warm.
    let alive = std::rc::Rc::new(std::cell::Cell::new(true));
    let gone = send_wrapper::SendWrapper::new(alive.clone());
    on_cleanup(move || gone.set(false));
    let run = move || {
        if !alive.get() {
            return;
        }
        let child = owner.child();
        child.with(|| {
            let message = Message {
                id: "warm-up".into(),
                role: Role::Assistant,
                content: MessageContent::Text(SAMPLE.into()),
                ..Message::default()
            };
            let state = view! { <ChatMessage message=message/> }.build();
            drop(state);
        });
        child.cleanup();
    };
    let Some(window) = web_sys::window() else {
        return;
    };
    let callback = wasm_bindgen::closure::Closure::once_into_js(run);
    // `requestIdleCallback` where there is one (not in Safari), a short timeout otherwise.
    let idle = js_sys::Reflect::get(&window, &"requestIdleCallback".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    let _ = match idle {
        Some(request) => request.call1(&window, &callback).map(|_| ()),
        None => window
            .set_timeout_with_callback_and_timeout_and_arguments_0(callback.unchecked_ref(), 200)
            .map(|_| ()),
    };
}
