//! The opt-in "(N)" prefix of the document title while the tab is hidden and N cards wait for
//! the person: a person working in another tab sees that the agent waits. The
//! prefix is this chat's own: the title the page had is restored as soon as the tab is shown
//! or nothing waits, and when the chat is removed.

use leptos::prelude::*;

/// Keeps `document.title` prefixed with "(N) " while `enabled`, the tab is hidden and
/// `pending` > 0; switched off, the page's own title is back at once.
pub fn prefix_title(pending: impl Fn() -> usize + Copy + 'static, enabled: Signal<bool>) {
    #[cfg(target_arch = "wasm32")]
    {
        use std::cell::RefCell;
        use std::rc::Rc;
        use wasm_bindgen::JsCast;

        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        // The page's own title, without any prefix of ours.
        let base: Rc<RefCell<Option<String>>> = Rc::new(RefCell::new(None));
        let apply = {
            let document = document.clone();
            let base = base.clone();
            move || {
                let n = if enabled.try_get_untracked().unwrap_or(false) {
                    untrack(pending)
                } else {
                    0
                };
                let mut base = base.borrow_mut();
                if n > 0 && document.hidden() {
                    let own = base.get_or_insert_with(|| document.title()).clone();
                    document.set_title(&format!("({n}) {own}"));
                } else if let Some(own) = base.take() {
                    document.set_title(&own);
                }
            }
        };
        let apply = Rc::new(apply);
        let on_visibility = {
            let apply = apply.clone();
            wasm_bindgen::closure::Closure::<dyn FnMut()>::new(move || apply())
        };
        let _ = document.add_event_listener_with_callback(
            "visibilitychange",
            on_visibility.as_ref().unchecked_ref(),
        );
        let effect_apply = apply.clone();
        Effect::new(move |_| {
            pending();
            enabled.track();
            effect_apply();
        });
        let cleanup = send_wrapper::SendWrapper::new((document, on_visibility, base));
        on_cleanup(move || {
            let (document, listener, base) = cleanup.take();
            let _ = document.remove_event_listener_with_callback(
                "visibilitychange",
                listener.as_ref().unchecked_ref(),
            );
            let own = base.borrow_mut().take();
            if let Some(own) = own {
                document.set_title(&own);
            }
        });
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (pending, enabled);
}
