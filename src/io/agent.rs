//! An agent that runs in the page: the [`Agent`] trait a host implements, and the
//! runner that plays it as the wire of the in-process transport.
//!
//! The core asks for a turn as a request to an internal path
//! ([`crate::core::transport::in_process`]); the store hands it here instead of to `fetch`.
//! The runner reads the turn, runs the agent, and feeds every event back as one JSON line,
//! exactly as a server's body would be fed, then closes the "stream". Stop aborts the request's
//! controller, which drops the agent's future.
//!
//! Everything typed here is generic over the host's agent, so a build without one (the
//! `<agent-chat>` element) compiles none of it.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::Poll;

use serde_json::Value;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

use crate::core::transport::agent_sdk::{read_turn, AgentLine};
pub use crate::core::transport::agent_sdk::{
    AgentOutcome, AgentTurn, ApprovalResolution, PendingAction, PendingStatus, PendingToolApproval,
    PendingUserQuestion, QuestionAnswer, QuestionResolution, Resolution, TurnInput, Usage,
};
use crate::core::{HttpRequest, HttpResponse, Input, TransportError};

pub use super::scripted_agent::ScriptedAgent;

/// An agent the host runs in the page, in place of a server (the `in-process` transport).
///
/// A turn is a person's message or their answer to a card the agent paused on
/// ([`TurnInput`]); the agent reports text and tool calls through [`AgentEvents`] as it goes
/// and ends with [`AgentOutcome::Done`], [`AgentOutcome::Paused`] (its actions become
/// answerable cards; answering one runs the next turn with [`TurnInput::Resume`]) or an error
/// (its wording is shown as the server's message). Stop drops the future. The conversation is
/// kept in the chat's thread store and given back each turn ([`AgentTurn::messages`]), so an
/// agent needs no state of its own.
///
/// ```no_run
/// use agent_chat_ui::{Agent, AgentEvents, AgentOutcome, AgentTurn, Chat, TurnInput};
/// use agent_chat_ui::core::transport::{TransportKind, TransportOptions};
/// use leptos::prelude::*;
///
/// struct Echo;
///
/// impl Agent for Echo {
///     async fn run(&self, turn: AgentTurn, events: AgentEvents) -> Result<AgentOutcome, String> {
///         if let TurnInput::Message { text, .. } = &turn.input {
///             events.text(format!("You said: {text}"));
///         }
///         Ok(AgentOutcome::Done { usage: None })
///     }
/// }
///
/// # fn app() -> impl IntoView {
/// let transport = TransportOptions { kind: TransportKind::InProcess, ..Default::default() };
/// view! { <Chat base_url="echo" transport=transport agent=Echo /> }
/// # }
/// ```
pub trait Agent: 'static {
    /// Runs one turn: reports what happens through `events`, returns how it ended.
    fn run(
        &self,
        turn: AgentTurn,
        events: AgentEvents,
    ) -> impl Future<Output = Result<AgentOutcome, String>>;
}

/// What an agent reports while its turn runs. Cheap to clone.
#[derive(Clone)]
pub struct AgentEvents {
    sink: Rc<dyn Fn(Vec<u8>)>,
    cancelled: Rc<Cell<bool>>,
}

impl AgentEvents {
    /// More of the answer.
    pub fn text(&self, delta: impl AsRef<str>) {
        self.send(AgentLine::Text(delta.as_ref()));
    }

    /// A tool started: shown at once with its arguments.
    pub fn tool_call(&self, id: &str, name: &str, args: &Value) {
        self.send(AgentLine::ToolCall { id, name, args });
    }

    /// A tool finished; a failed one reports `{"error": "…"}`.
    pub fn tool_result(&self, id: &str, name: &str, result: &Value) {
        self.send(AgentLine::ToolResult { id, name, result });
    }

    /// Whether the person stopped the turn: events are no longer shown, and an agent that
    /// works outside its future should stop.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.get()
    }

    fn send(&self, line: AgentLine<'_>) {
        if !self.is_cancelled() {
            (self.sink)(line.encode());
        }
    }
}

impl std::fmt::Debug for AgentEvents {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AgentEvents")
            .field("cancelled", &self.is_cancelled())
            .finish()
    }
}

/// The host's agent as the chat holds it (`agent` prop of `Chat`, [`super::http::TransportConfig`]).
/// Made from any [`Agent`] with `into()`; two handles are equal when they hold the same agent.
#[derive(Clone)]
pub struct AgentHandle(Rc<dyn Run>);

impl AgentHandle {
    /// Wraps `agent`.
    pub fn new(agent: impl Agent) -> AgentHandle {
        AgentHandle(Rc::new(agent))
    }
}

impl<A: Agent> From<A> for AgentHandle {
    fn from(agent: A) -> AgentHandle {
        AgentHandle::new(agent)
    }
}

impl PartialEq for AgentHandle {
    fn eq(&self, other: &AgentHandle) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl std::fmt::Debug for AgentHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AgentHandle")
    }
}

/// The agent behind a handle, run for one wire request.
///
/// The whole runner is generic over the host's agent, reached through this trait's vtable:
/// a build without an agent (the `<agent-chat>` element) compiles none of it.
trait Run {
    /// Runs the turn of `req`, feeding what happens to `feed`.
    fn turn(
        self: Rc<Self>,
        req: HttpRequest,
        stream: bool,
        controller: web_sys::AbortController,
        feed: Rc<dyn Fn(Input)>,
    ) -> Pin<Box<dyn Future<Output = ()>>>;
}

impl<A: Agent> Run for A {
    fn turn(
        self: Rc<Self>,
        req: HttpRequest,
        stream: bool,
        controller: web_sys::AbortController,
        feed: Rc<dyn Fn(Input)>,
    ) -> Pin<Box<dyn Future<Output = ()>>> {
        Box::pin(run_turn(self, req, stream, controller, feed))
    }
}

/// Runs the turn of `req` on `agent`, feeding what happens to `feed` as a server's answer would
/// be: streamed (chunks, then the close) or, when not streaming, one whole response. Aborting
/// `controller` drops the agent's future and closes the stream as aborted.
pub async fn run(
    agent: &AgentHandle,
    req: HttpRequest,
    stream: bool,
    controller: web_sys::AbortController,
    feed: impl Fn(Input) + 'static,
) {
    agent
        .0
        .clone()
        .turn(req, stream, controller, Rc::new(feed))
        .await;
}

async fn run_turn<A: Agent>(
    agent: Rc<A>,
    req: HttpRequest,
    stream: bool,
    controller: web_sys::AbortController,
    feed: Rc<dyn Fn(Input)>,
) {
    let id = req.id;
    let whole = Rc::new(RefCell::new(Vec::new()));
    let sink: Rc<dyn Fn(Vec<u8>)> = if stream {
        let feed = feed.clone();
        Rc::new(move |bytes| feed(Input::StreamChunk { id, bytes }))
    } else {
        let whole = whole.clone();
        Rc::new(move |bytes: Vec<u8>| whole.borrow_mut().extend(bytes))
    };
    let cancelled = Rc::new(Cell::new(false));
    let events = AgentEvents {
        sink: sink.clone(),
        cancelled: cancelled.clone(),
    };
    let turn = read_turn(req.body.as_deref().unwrap_or_default());
    let mut turn = Box::pin(async move {
        let end = match turn {
            Ok(turn) => agent.run(turn, events).await,
            // The page's own request, unreadable: the agent gave no words, so the person reads
            // the page's sentence in their language; the developer's console says why.
            Err(why) => {
                web_sys::console::debug_1(
                    &format!("agent: the turn could not be read: {why}").into(),
                );
                Err(String::new())
            }
        };
        AgentLine::End(&end).encode()
    });
    let mut stop = Box::pin(aborted(&controller.signal()));
    let end = std::future::poll_fn(|cx| {
        if let Poll::Ready(last) = turn.as_mut().poll(cx) {
            return Poll::Ready(Some(last));
        }
        if stop.as_mut().poll(cx).is_ready() {
            return Poll::Ready(None);
        }
        Poll::Pending
    })
    .await;
    let Some(last) = end else {
        cancelled.set(true);
        drop(turn);
        return feed(Input::StreamClosed {
            id,
            error: Some(TransportError::Aborted),
        });
    };
    sink(last);
    if stream {
        feed(Input::StreamClosed { id, error: None });
    } else {
        let body = String::from_utf8_lossy(&whole.borrow()).into_owned();
        feed(Input::Response {
            id,
            result: Ok(HttpResponse {
                status: 200,
                body,
                date: None,
                retry_after: None,
            }),
        });
    }
}

/// Resolves when `signal` is aborted (at once if it already is).
fn aborted(signal: &web_sys::AbortSignal) -> JsFuture {
    let signal = signal.clone();
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        if signal.aborted() {
            let _ = resolve.call0(&JsValue::NULL);
        } else {
            let _ = signal.add_event_listener_with_callback("abort", &resolve);
        }
    });
    JsFuture::from(promise)
}

/// Waits `ms` milliseconds (for agents that pace their output, like [`ScriptedAgent`]).
pub async fn sleep(ms: u32) {
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        if let Some(window) = web_sys::window() {
            let ms = i32::try_from(ms).unwrap_or(i32::MAX);
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
        }
    });
    let _ = JsFuture::from(promise).await;
}
