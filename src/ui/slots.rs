//! Render props ("slots"): closures a host passes to replace or add parts of the chat, and the
//! values each one is given.
//!
//! One type, [`RenderProp`], for all of them, so an absent slot is just `None` inside it: a host
//! may pass a closure, a `Callback`, or an `Option` of either (the `Option<Callback<..>>` props
//! of Leptos strip their `Option`, which forces a host to branch on whether it has one).

use leptos::prelude::*;

use crate::core::{AgentInfo, Message};

/// An optional render prop from `P` to a view.
///
/// Built from a closure `Fn(P) -> impl IntoView`, a `Callback<P, AnyView>`, or an `Option` of
/// either; the default is "not given". It is `Copy`, like `Callback`.
pub struct RenderProp<P: 'static>(Option<Callback<P, AnyView>>);

impl<P: 'static> Clone for RenderProp<P> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<P: 'static> Copy for RenderProp<P> {}

impl<P: 'static> Default for RenderProp<P> {
    /// Not given: the built-in part is drawn.
    fn default() -> Self {
        RenderProp(None)
    }
}

impl<P: 'static> std::fmt::Debug for RenderProp<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "RenderProp(Some)"
        } else {
            "RenderProp(None)"
        })
    }
}

impl<P: 'static> RenderProp<P> {
    /// A render prop from a closure.
    pub fn new<F, V>(f: F) -> Self
    where
        F: Fn(P) -> V + Send + Sync + 'static,
        V: IntoView + 'static,
    {
        RenderProp(Some(Callback::new(move |p| f(p).into_view().into_any())))
    }

    /// Whether the host gave one.
    pub fn is_some(&self) -> bool {
        self.0.is_some()
    }

    /// Draws it with `props`; `None` when the host gave none (draw the built-in part).
    pub fn render(&self, props: P) -> Option<AnyView> {
        self.0.map(|cb| cb.run(props))
    }

    /// The underlying callback, if any.
    pub fn callback(&self) -> Option<Callback<P, AnyView>> {
        self.0
    }
}

impl<P, F, V> From<F> for RenderProp<P>
where
    P: 'static,
    F: Fn(P) -> V + Send + Sync + 'static,
    V: IntoView + 'static,
{
    fn from(f: F) -> Self {
        RenderProp::new(f)
    }
}

impl<P, F, V> From<Option<F>> for RenderProp<P>
where
    P: 'static,
    F: Fn(P) -> V + Send + Sync + 'static,
    V: IntoView + 'static,
{
    fn from(f: Option<F>) -> Self {
        f.map(RenderProp::new).unwrap_or_default()
    }
}

impl<P: 'static> From<Callback<P, AnyView>> for RenderProp<P> {
    fn from(cb: Callback<P, AnyView>) -> Self {
        RenderProp(Some(cb))
    }
}

impl<P: 'static> From<Option<Callback<P, AnyView>>> for RenderProp<P> {
    fn from(cb: Option<Callback<P, AnyView>>) -> Self {
        RenderProp(cb)
    }
}

/// What `ChatSlots::render_message_actions` is given.
#[derive(Clone, Debug, PartialEq)]
pub struct MessageActionsSlot {
    /// The assistant message the actions belong to.
    pub message: Message,
    /// Whether that message is still streaming. Actions are only drawn under finished
    /// messages, so the built-in list always passes `false`; the field is there so a
    /// renderer shared with a custom layout keeps the React library's shape.
    pub is_streaming: bool,
}

/// What `ChatSlots::render_header` is given: everything the default header uses.
#[derive(Clone)]
pub struct HeaderSlot {
    /// Opens the history drawer (the mobile menu button); `None` without a history sidebar.
    pub on_menu_click: Option<Callback<()>>,
    /// The agents the server listed.
    pub agents: Signal<Vec<AgentInfo>>,
    /// The agent in use.
    pub selected_agent_id: Signal<Option<String>>,
    /// Switches to another agent (what the default picker does).
    pub on_agent_change: Callback<String>,
}
