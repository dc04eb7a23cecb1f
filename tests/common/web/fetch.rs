//! A stubbed `window.fetch` for browser tests: a JS function that records every request
//! (method, URL, headers, body) and answers from a queue of canned `Response`s, including
//! streamed SSE bodies built with `ReadableStream`. The real `fetch` is put back when the stub
//! is dropped.

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};

/// The fake `fetch`: `routes` is the queue of answers, taken in order. A route is
/// `{status, body}` (JSON body by default), `{status: 204}`, `{chunks: [..]}` for an event
/// stream (a chunk is a string or an array of bytes) (`open: true` keeps it open until aborted), `{networkError: true}`, and may carry
/// `headers` and `hold: true` (the answer waits until the test calls [`FetchStub::release`],
/// so "while a request is on its way" does not depend on timers). A route with `url` answers
/// only a request whose `"METHOD URL"` contains it (the first such route is taken), so a
/// test whose requests may come in either order need not guess it.
const FAKE_FETCH: &str = r#"
const calls = [];
const held = [];
const fake = async (input, init) => {
  const req = input instanceof Request ? input : new Request(input, init);
  const headers = {};
  req.headers.forEach((v, k) => { headers[k] = v; });
  const text = (req.method === 'GET' || req.method === 'HEAD') ? '' : await req.text();
  calls.push({ method: req.method, url: req.url, headers, body: text === '' ? null : text });
  const at = routes.findIndex((r) => !r.url || (req.method + ' ' + req.url).includes(r.url));
  const r = at < 0 ? undefined : routes.splice(at, 1)[0];
  if (!r) {
    return new Response('{"error":{"code":"NOT_FOUND","message":"no canned response"}}',
      { status: 404, headers: { 'content-type': 'application/json' } });
  }
  if (r.hold) { await new Promise((res) => held.push(res)); }
  if (r.networkError) { throw new TypeError('Failed to fetch'); }
  if (r.chunks) {
    const enc = new TextEncoder();
    const body = new ReadableStream({
      start(c) {
        for (const ch of r.chunks) { c.enqueue(typeof ch === 'string' ? enc.encode(ch) : new Uint8Array(ch)); }
        if (!r.open) { c.close(); }
        req.signal.addEventListener('abort', () => {
          try { c.error(new DOMException('The user aborted a request.', 'AbortError')); } catch (e) {}
        });
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  }
  const status = r.status || 200;
  const body = status === 204 ? null
    : (typeof r.body === 'string' ? r.body : JSON.stringify(r.body === undefined ? {} : r.body));
  const resp = new Response(body, { status, headers: r.headers || { 'content-type': 'application/json' } });
  const read = resp.text.bind(resp);
  resp.text = async () => { const t = await read(); fake.bodies += 1; return t; };
  return resp;
};
fake.calls = calls;
fake.bodies = 0;
fake.held = () => held.length;
fake.release = () => { const res = held.shift(); if (res) { res(); } return !!res; };
return fake;
"#;

/// One request the fake `fetch` saw.
#[derive(Debug, Deserialize)]
pub struct Call {
    /// `GET`, `POST`, …
    pub method: String,
    /// The full URL.
    pub url: String,
    /// Header names lower-cased.
    pub headers: HashMap<String, String>,
    /// The body text, if any.
    pub body: Option<String>,
}

impl Call {
    pub fn json(&self) -> Value {
        serde_json::from_str(self.body.as_deref().expect("a body")).expect("JSON body")
    }
}

/// `window.fetch` replaced by [`FAKE_FETCH`] until dropped.
pub struct FetchStub {
    original: JsValue,
    fake: JsValue,
}

impl FetchStub {
    pub fn install(routes: Value) -> FetchStub {
        let window = web_sys::window().unwrap();
        let original = js_sys::Reflect::get(&window, &"fetch".into()).unwrap();
        let make = js_sys::Function::new_with_args("routes", FAKE_FETCH);
        let routes = js_sys::JSON::parse(&routes.to_string()).unwrap();
        let fake = make.call1(&JsValue::NULL, &routes).unwrap();
        js_sys::Reflect::set(&window, &"fetch".into(), &fake).unwrap();
        FetchStub { original, fake }
    }

    pub fn calls(&self) -> Vec<Call> {
        let calls = js_sys::Reflect::get(&self.fake, &"calls".into()).unwrap();
        let text = js_sys::JSON::stringify(&calls).unwrap();
        serde_json::from_str(&String::from(text)).unwrap()
    }

    /// How many answers (`hold: true`) are waiting for [`FetchStub::release`].
    pub fn held(&self) -> u32 {
        let held: js_sys::Function = js_sys::Reflect::get(&self.fake, &"held".into())
            .unwrap()
            .unchecked_into();
        held.call0(&JsValue::NULL).unwrap().as_f64().unwrap() as u32
    }

    /// How many answer bodies (not streams) the client has read to the end.
    pub fn bodies_read(&self) -> u32 {
        js_sys::Reflect::get(&self.fake, &"bodies".into())
            .unwrap()
            .as_f64()
            .unwrap() as u32
    }

    /// Lets the oldest held answer go.
    pub fn release(&self) {
        let release: js_sys::Function = js_sys::Reflect::get(&self.fake, &"release".into())
            .unwrap()
            .unchecked_into();
        let released = release.call0(&JsValue::NULL).unwrap();
        assert_eq!(released.as_bool(), Some(true), "no answer was held");
    }
}

impl Drop for FetchStub {
    fn drop(&mut self) {
        let window = web_sys::window().unwrap();
        js_sys::Reflect::set(&window, &"fetch".into(), &self.original).unwrap();
    }
}
