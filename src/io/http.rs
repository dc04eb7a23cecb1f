//! `fetch` with streaming bodies and aborts, for the requests the core emits.
//!
//! Raw `web-sys` instead of gloo-net: we need the body as a `ReadableStream` of bytes and an
//! `AbortController` per request, which is a few lines here and keeps the wasm smaller.
//!
//! Nothing leaves for another origin, whatever the host page's CSP: a request goes only to
//! the origin of the base URL or of the configured action URL (else it is not made), its
//! cookies only to the page's own origin, and a redirect is never followed (`redirect:
//! "manual"`; the answer is read as [`TransportError::OtherOrigin`]), so a server cannot send
//! the person's words or the `Authorization` token on to somewhere else.

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    AbortController, Headers, ReadableStreamDefaultReader, Request, RequestCredentials,
    RequestInit, RequestRedirect, Response, ResponseType, Url,
};

use crate::core::{HttpRequest, HttpResponse, Input, TransportError};

/// Where and how to talk to the agent server.
#[derive(Clone, Default, PartialEq)]
pub struct TransportConfig {
    /// Server origin + base path, without a trailing `/`.
    pub base_url: String,
    /// Sent verbatim as `Authorization` when set.
    pub authorization: Option<String>,
    /// Extra headers; they override the two above.
    pub headers: Vec<(String, String)>,
    /// Which backend is at `base_url`; default: the agent server.
    pub backend: crate::core::transport::TransportOptions,
    /// The agent that runs in the page: its turns are run here instead of
    /// being fetched. Set `backend` to [`TransportOptions::in_page`] with it (`Chat`'s `agent`
    /// prop does both).
    ///
    /// [`TransportOptions::in_page`]: crate::core::transport::TransportOptions::in_page
    pub agent: Option<super::agent::AgentHandle>,
    /// A thread store the host implements, for a backend without conversations of its own;
    /// it replaces `backend.thread_store`.
    pub thread_storage: Option<crate::io::threads::HostThreads>,
}

/// The token and header values stay out of logs: `Debug` prints their names only.
impl std::fmt::Debug for TransportConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        debug_credentials(
            f,
            "TransportConfig",
            &self.base_url,
            self.authorization.as_ref(),
            &self.headers,
        )
    }
}

/// `Debug` of a config holding credentials: the base URL, `<redacted>` for a token and the
/// header names without their values.
pub(crate) fn debug_credentials(
    f: &mut std::fmt::Formatter<'_>,
    name: &str,
    base_url: &str,
    authorization: Option<&String>,
    headers: &[(String, String)],
) -> std::fmt::Result {
    let names: Vec<&str> = headers.iter().map(|(k, _)| k.as_str()).collect();
    f.debug_struct(name)
        .field("base_url", &base_url)
        .field("authorization", &authorization.map(|_| "<redacted>"))
        .field("headers", &names)
        .finish()
}

impl TransportConfig {
    /// Builds a config, stripping trailing slashes from `base_url`.
    pub fn new(base_url: &str) -> Self {
        TransportConfig {
            base_url: base_url.trim_end_matches('/').to_owned(),
            ..Default::default()
        }
    }
}

fn js_error_text(err: &JsValue) -> String {
    err.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| err.as_string())
        .unwrap_or_else(|| "fetch failed".to_owned())
}

fn is_abort(err: &JsValue) -> bool {
    js_sys::Reflect::get(err, &JsValue::from_str("name"))
        .ok()
        .and_then(|n| n.as_string())
        .is_some_and(|n| n == "AbortError")
}

fn transport_error(err: JsValue) -> TransportError {
    if is_abort(&err) {
        TransportError::Aborted
    } else {
        TransportError::Network(js_error_text(&err))
    }
}

/// The origin of `url` as the browser resolves it against the page (`None` when it is not a
/// URL). The browser's own parser, so the check agrees with where `fetch` goes.
fn origin_of(url: &str, page: &str) -> Option<String> {
    Url::new_with_base(url, page).ok().map(|u| u.origin())
}

/// Whether a request to `url` may be made: its origin is the base URL's, or the configured
/// action URL's. The page's address resolves relative ones.
pub(crate) fn configured_origin(config: &TransportConfig, url: &str, page: &str) -> bool {
    let Some(target) = origin_of(url, page) else {
        return false;
    };
    // `null` is the origin of `data:` and other opaque URLs: never configured (a `blob:`
    // URL has the origin of the page that made it).
    if target == "null" {
        return false;
    }
    let base = (!config.base_url.is_empty()).then_some(config.base_url.as_str());
    // A relative base URL (or none) is the page's own origin.
    let base = origin_of(base.unwrap_or("/"), page);
    let action = config
        .backend
        .action_url
        .as_deref()
        .filter(|a| a.starts_with("https://") || a.starts_with("http://"))
        .and_then(|a| origin_of(a, page));
    base.as_deref() == Some(target.as_str()) || action.as_deref() == Some(target.as_str())
}

/// `url` resolved against the page's address (a relative base URL is the page's origin's);
/// `None` when it is not a URL or there is no page.
pub fn absolute_url(url: &str) -> Option<String> {
    let page = page_href()?;
    let url = if url.is_empty() { "/" } else { url };
    let resolved = Url::new_with_base(url, &page).ok()?.href();
    // The base URL's own spelling is kept: without the slash the browser adds to a bare origin.
    Some(match url.ends_with('/') {
        true => resolved,
        false => resolved.trim_end_matches('/').to_owned(),
    })
}

/// The page's address, which relative URLs resolve against.
fn page_href() -> Option<String> {
    web_sys::window()?.location().href().ok()
}

async fn fetch(
    config: &TransportConfig,
    req: &HttpRequest,
    controller: &AbortController,
) -> Result<Response, TransportError> {
    // An absolute URL (a configured action endpoint elsewhere, issue 15) is used as given.
    let url = if req.path.starts_with("https://") || req.path.starts_with("http://") {
        req.path.clone()
    } else {
        format!("{}{}", config.base_url, req.path)
    };
    let page = page_href().ok_or_else(|| TransportError::Network("no window".into()))?;
    if !configured_origin(config, &url, &page) {
        return Err(TransportError::OtherOrigin);
    }
    let headers = Headers::new().map_err(transport_error)?;
    headers
        .set("Content-Type", "application/json")
        .map_err(transport_error)?;
    // The wire protocol's own headers (a backend's version), before the host's.
    for (name, value) in &req.headers {
        headers.set(name, value).map_err(transport_error)?;
    }
    if let Some(auth) = &config.authorization {
        headers
            .set("Authorization", auth)
            .map_err(transport_error)?;
    }
    for (name, value) in &config.headers {
        headers.set(name, value).map_err(transport_error)?;
    }
    let init = RequestInit::new();
    init.set_method(req.method.as_str());
    init.set_headers(&headers);
    init.set_signal(Some(&controller.signal()));
    // A redirect is answered, never followed: see the module docs.
    init.set_redirect(RequestRedirect::Manual);
    init.set_credentials(RequestCredentials::SameOrigin);
    if let Some(body) = &req.body {
        init.set_body(&JsValue::from_str(body));
    }
    let request = Request::new_with_str_and_init(&url, &init).map_err(transport_error)?;
    let window = web_sys::window().ok_or_else(|| TransportError::Network("no window".into()))?;
    let resp = JsFuture::from(window.fetch_with_request(&request))
        .await
        .map_err(transport_error)?;
    let resp = resp.dyn_into::<Response>().map_err(transport_error)?;
    if resp.type_() == ResponseType::Opaqueredirect {
        return Err(TransportError::OtherOrigin);
    }
    Ok(resp)
}

/// The `Date` header, when the browser lets the page read it (same origin, or exposed by
/// CORS); the session estimates the server's clock from it.
fn server_date(resp: &Response) -> Option<crate::core::Millis> {
    let value = resp.headers().get("date").ok().flatten()?;
    crate::core::parse_http_date(&value)
}

/// The `Retry-After` header in seconds, when the browser lets the page read it (as for `Date`).
fn retry_after(resp: &Response) -> Option<u64> {
    let value = resp.headers().get("retry-after").ok().flatten()?;
    crate::core::parse_retry_after(&value, server_date(resp))
}

async fn read_text(resp: &Response) -> Result<String, TransportError> {
    let promise = resp.text().map_err(transport_error)?;
    let text = JsFuture::from(promise).await.map_err(transport_error)?;
    Ok(text.as_string().unwrap_or_default())
}

/// Runs a plain request and returns the [`Input`] to feed back.
pub async fn run_request(
    config: &TransportConfig,
    req: HttpRequest,
    controller: AbortController,
) -> Input {
    let result = match fetch(config, &req, &controller).await {
        Ok(resp) => match read_text(&resp).await {
            Ok(body) => Ok(HttpResponse {
                status: resp.status(),
                body,
                date: server_date(&resp),
                retry_after: retry_after(&resp),
            }),
            Err(e) => Err(e),
        },
        Err(e) => Err(e),
    };
    Input::Response { id: req.id, result }
}

/// Runs a streaming request, feeding every body chunk to `feed` as it arrives. A response that
/// is not a 2xx event stream is read whole and fed as [`Input::Response`].
pub async fn run_stream(
    config: &TransportConfig,
    req: HttpRequest,
    controller: AbortController,
    feed: impl Fn(Input),
) {
    let id = req.id;
    let resp = match fetch(config, &req, &controller).await {
        Ok(resp) => resp,
        Err(e) => return feed(Input::Response { id, result: Err(e) }),
    };
    let is_stream = resp
        .headers()
        .get("content-type")
        .ok()
        .flatten()
        .is_some_and(|ct| ct.contains("text/event-stream"));
    if !resp.ok() || !is_stream {
        let result = read_text(&resp).await.map(|body| HttpResponse {
            status: resp.status(),
            body,
            date: server_date(&resp),
            retry_after: retry_after(&resp),
        });
        return feed(Input::Response { id, result });
    }
    let Some(body) = resp.body() else {
        return feed(Input::StreamClosed { id, error: None });
    };
    let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    loop {
        let chunk = match JsFuture::from(reader.read()).await {
            Ok(chunk) => chunk,
            Err(e) => {
                return feed(Input::StreamClosed {
                    id,
                    error: Some(transport_error(e)),
                })
            }
        };
        let done = js_sys::Reflect::get(&chunk, &JsValue::from_str("done"))
            .ok()
            .and_then(|v| v.as_bool())
            .unwrap_or(true);
        if done {
            return feed(Input::StreamClosed { id, error: None });
        }
        if let Ok(value) = js_sys::Reflect::get(&chunk, &JsValue::from_str("value")) {
            if let Some(bytes) = value.dyn_ref::<js_sys::Uint8Array>() {
                feed(Input::StreamChunk {
                    id,
                    bytes: bytes.to_vec(),
                });
            }
        }
    }
}
