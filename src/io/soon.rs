//! Running a function in a task of its own, as soon as the browser has had its turn.
//! A `setTimeout(0)` would do, but browsers hold a timer set from inside a timer's callback,
//! five deep or more, for at least 4 ms: a long conversation read in 25 slices, each asking
//! for the next, waited about 100 ms for nothing. A message posted to a `MessageChannel` is a
//! task of its own without that wait (what UI schedulers use for the same reason).

use std::cell::RefCell;
use std::collections::VecDeque;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

/// The channel and the functions waiting for their task.
struct Channel {
    channel: web_sys::MessageChannel,
    waiting: VecDeque<Box<dyn FnOnce()>>,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
}

thread_local! {
    static CHANNEL: RefCell<Option<Channel>> = const { RefCell::new(None) };
}

/// Runs `f` in a task of its own, after the browser's turn; false when this browser has no
/// `MessageChannel` (then nothing is queued and the caller uses a timer).
pub(crate) fn soon(f: impl FnOnce() + 'static) -> bool {
    CHANNEL.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            *slot = open();
        }
        let Some(channel) = slot.as_mut() else {
            return false;
        };
        channel.waiting.push_back(Box::new(f));
        channel.channel.port2().post_message(&JsValue::NULL).is_ok()
    })
}

fn open() -> Option<Channel> {
    let channel = web_sys::MessageChannel::new().ok()?;
    // One message, one function: taken out before it runs, so it may queue more.
    let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(|_| {
        let next = CHANNEL.with(|cell| {
            cell.borrow_mut()
                .as_mut()
                .and_then(|c| c.waiting.pop_front())
        });
        if let Some(f) = next {
            f();
        }
    });
    channel
        .port1()
        .set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    Some(Channel {
        channel,
        waiting: VecDeque::new(),
        _on_message: on_message,
    })
}
