//! Hosts awaiting an answer they gave (`ChatStore::answer`, React's `await resolveAction`, in the
//! React library): a future per answer, completed when the session says the server took it, or why
//! it did not.

use std::cell::RefCell;
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use crate::core::ChatError;

#[derive(Default)]
struct Slot {
    result: Option<Result<(), ChatError>>,
    waker: Option<Waker>,
}

impl Slot {
    fn complete(&mut self, result: Result<(), ChatError>) {
        if self.result.is_none() {
            self.result = Some(result);
            if let Some(w) = self.waker.take() {
                w.wake();
            }
        }
    }
}

/// Resolves when the answer it was made for is taken (`Ok`) or not (`Err`: refused by the
/// page's gate, by the server, superseded by a new version, or never received). An answer
/// whose fate is still being checked keeps it pending until the server says.
pub struct AnswerFuture {
    slot: Rc<RefCell<Slot>>,
}

impl Future for AnswerFuture {
    type Output = Result<(), ChatError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let mut slot = self.slot.borrow_mut();
        match slot.result.take() {
            Some(result) => Poll::Ready(result),
            None => {
                slot.waker = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    }
}

/// The answers hosts are waiting on, by action id, and the one being handed to the session
/// right now (the page's gate refuses during that call, and only that answer).
#[derive(Default)]
pub(crate) struct Answers {
    waiting: HashMap<String, Vec<Rc<RefCell<Slot>>>>,
    current: Option<Rc<RefCell<Slot>>>,
}

/// An answer whose dispatch waits (for the checker, `store::checker`): its future is the
/// host's already; [`Answers::resume`] makes it the answer being dispatched. Dropped before
/// that (the chat went away), it tells the host nothing was sent.
pub(crate) struct Later(Option<Rc<RefCell<Slot>>>);

impl Drop for Later {
    fn drop(&mut self) {
        if let Some(slot) = self.0.take() {
            slot.borrow_mut().complete(Err(ChatError::Refused(
                crate::core::draft::ResolveRefusal::Unknown,
            )));
        }
    }
}

impl Answers {
    /// The future of an answer dispatched later, and what [`Answers::resume`] takes then.
    pub(crate) fn later() -> (AnswerFuture, Later) {
        let slot = Rc::new(RefCell::new(Slot::default()));
        (AnswerFuture { slot: slot.clone() }, Later(Some(slot)))
    }

    /// The answer of `later` is about to be dispatched (as after [`Answers::begin`]).
    pub(crate) fn resume(&mut self, mut later: Later) {
        self.current = later.0.take();
    }

    /// The future of the answer about to be dispatched.
    pub(crate) fn begin(&mut self) -> AnswerFuture {
        let slot = Rc::new(RefCell::new(Slot::default()));
        self.current = Some(slot.clone());
        AnswerFuture { slot }
    }

    /// The page's gate refused the answer being dispatched: nothing left the page.
    pub(crate) fn refused(&mut self, error: ChatError) {
        if let Some(slot) = self.current.take() {
            slot.borrow_mut().complete(Err(error));
        }
    }

    /// The answer was dispatched (and not refused): it waits for the server's word on
    /// `action_id`.
    pub(crate) fn end(&mut self, action_id: &str) {
        if let Some(slot) = self.current.take() {
            self.waiting
                .entry(action_id.to_owned())
                .or_default()
                .push(slot);
        }
    }

    /// The outcome of the answer on its way for `action_id` (the gate lets one at a time):
    /// every host waiting on it hears it.
    pub(crate) fn complete(&mut self, action_id: &str, result: Result<(), ChatError>) {
        for slot in self.waiting.remove(action_id).unwrap_or_default() {
            slot.borrow_mut().complete(result.clone());
        }
    }
}

impl Drop for Answers {
    /// The chat went away: nothing will answer the futures still waiting.
    fn drop(&mut self) {
        self.refused(ChatError::Refused(
            crate::core::draft::ResolveRefusal::Unknown,
        ));
        for (_, slots) in self.waiting.drain() {
            for slot in slots {
                slot.borrow_mut().complete(Err(ChatError::Refused(
                    crate::core::draft::ResolveRefusal::Unknown,
                )));
            }
        }
    }
}
