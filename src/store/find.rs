//! The state of "find in the conversation", owned by the store so every view of one chat
//! shares it: the list draws the bar, a header draws the button that opens it. The views
//! (`ui::find`) only read and write it.

use leptos::html::Button;
use leptos::prelude::*;

/// Whether the find bar is open and the button that opens it, shared by the list (which draws
/// the bar) and a header, which draws the button out of the messages' way. A list with no such
/// header (a custom header, a custom layout) draws the button in its own top corner, over the
/// messages.
#[derive(Clone, Copy)]
pub(crate) struct FindControl {
    /// The bar is open (the list's Ctrl+F / Cmd+F opens it too).
    pub(crate) open: RwSignal<bool>,
    /// The button, where focus goes back when the bar closes.
    pub(crate) toggle: NodeRef<Button>,
    /// A header has drawn the button.
    pub(crate) docked: RwSignal<bool>,
}

impl FindControl {
    /// Closed, with no button drawn yet.
    pub(crate) fn new() -> Self {
        FindControl {
            open: RwSignal::new(false),
            toggle: NodeRef::new(),
            docked: RwSignal::new(false),
        }
    }
}
