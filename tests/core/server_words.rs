//! A server's refusal keeps the server's own words, on every backend (issue 38): an error
//! body's message is what the person reads, and where the page puts its own sentence in its
//! place (a known code, too many requests) the server's words still show under it. A 429 says
//! how long to wait when the server said (`Retry-After`), in the person's language.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;
use crate::common::link;

use agent_chat_ui::core::transport::TransportKind;
use agent_chat_ui::core::{
    Catalog, ChatError, Command, HttpResponse, Input, Method, SessionConfig, TransportError,
};
use link::Link;

/// Every backend that talks to a server of its own (the in-page agent has no wire).
const WIRED: [TransportKind; 7] = [
    TransportKind::ChatCompletions,
    TransportKind::Responses,
    TransportKind::A2a,
    TransportKind::Cogitator,
    TransportKind::AiSdk,
    TransportKind::AgUi,
    TransportKind::Langgraph,
];

/// One refusal as the person reads it: the banner's sentence, and the server's words under it
/// when the sentence took their place.
#[derive(Debug, PartialEq)]
struct Read {
    text: String,
    detail: Option<String>,
}

fn read(error: Option<&ChatError>, lang: &str) -> Read {
    let error = error.expect("the refusal is shown");
    let catalog = Catalog::new(lang);
    Read {
        text: error.describe(&catalog),
        detail: error.server_detail(&catalog),
    }
}

fn response(status: u16, body: &str, retry_after: Option<u64>) -> HttpResponse {
    HttpResponse {
        status,
        body: body.into(),
        date: None,
        retry_after,
    }
}

/// A message sent over `kind` refused with `refusal`, read in `lang`.
fn refused_over(kind: TransportKind, refusal: HttpResponse, lang: &str) -> Read {
    let mut l = Link::new(kind, vec![]);
    l.cmd(Command::Start);
    // What the backend asks when it starts (an agent list, an agent card) goes unanswered:
    // the send below does not depend on it.
    let asked: Vec<_> = l.wire.iter().map(|(r, _)| r.id).collect();
    for id in asked {
        l.wire_input(Input::Response {
            id,
            result: Err(TransportError::Network("offline".into())),
        });
    }
    l.cmd(Command::DismissError);
    l.cmd(Command::Send("Hello".into()));
    let (req, _) = l.wire.last().expect("the message goes out").clone();
    assert_eq!(req.method, Method::Post, "{kind:?}: {req:?}");
    l.wire_input(Input::Response {
        id: req.id,
        result: Ok(refusal),
    });
    read(l.session.error(), lang)
}

/// A message sent to the agent server refused with `refusal`, read in `lang`.
fn refused_by_agent_server(refusal: HttpResponse, lang: &str) -> Read {
    let mut h = common::Harness::started_with_agent(SessionConfig::default());
    h.cmd(Command::Send("Hello".into()));
    h.answer(Method::Post, "/conversations", 201, common::CONV);
    let id = h.streams[0].id;
    h.feed(Input::Response {
        id,
        result: Ok(refusal),
    });
    read(h.s.error(), lang)
}

/// Runs `check` with what a refusal reads on the agent server and on every other backend.
fn on_every_backend(refusal: HttpResponse, lang: &str, check: impl Fn(&str, Read)) {
    check(
        "agent server",
        refused_by_agent_server(refusal.clone(), lang),
    );
    for kind in WIRED {
        check(kind.as_str(), refused_over(kind, refusal.clone(), lang));
    }
}

#[test]
fn issue_38_an_error_bodys_message_is_what_the_person_reads_on_every_backend() {
    for (status, body) in [
        (
            500,
            r#"{"error":{"message":"The model is overloaded, try a smaller one."}}"#,
        ),
        (
            400,
            r#"{"error":{"message":"The model is overloaded, try a smaller one.","type":"invalid_request_error","code":"model_overloaded"}}"#,
        ),
        (503, "The model is overloaded, try a smaller one."),
    ] {
        on_every_backend(response(status, body, None), "en", |backend, got| {
            assert_eq!(
                got,
                Read {
                    text: "The model is overloaded, try a smaller one.".into(),
                    detail: None,
                },
                "{backend}: {status} {body}"
            );
        });
    }
}

#[test]
fn issue_38_a_429_with_the_servers_words_shows_them_on_every_backend() {
    let body = r#"{"error":{"message":"Free plan: 3 messages a minute."}}"#;
    on_every_backend(response(429, body, Some(20)), "en", |backend, got| {
        assert_eq!(got.text, "Free plan: 3 messages a minute.", "{backend}");
    });
    // A known code puts the page's sentence first, in the person's language; the server's
    // words stay, under it.
    let coded = r#"{"error":{"code":"rate_limited","message":"Free plan: 3 messages a minute."}}"#;
    on_every_backend(response(429, coded, None), "tr", |backend, got| {
        assert_eq!(
            got,
            Read {
                text: "Çok fazla istek. Biraz bekleyip tekrar deneyin.".into(),
                detail: Some("Free plan: 3 messages a minute.".into()),
            },
            "{backend}"
        );
    });
}

#[test]
fn issue_38_a_429_without_words_says_too_many_requests_and_how_long_to_wait() {
    on_every_backend(response(429, "", None), "en", |backend, got| {
        assert_eq!(
            got,
            Read {
                text: "Too many requests. Try again in a moment.".into(),
                detail: None,
            },
            "{backend}"
        );
    });
    on_every_backend(response(429, "", Some(30)), "en", |backend, got| {
        assert_eq!(
            got.text, "Too many requests. Try again in 30 seconds.",
            "{backend}"
        );
    });
    on_every_backend(response(429, "{}", Some(1)), "en", |backend, got| {
        assert_eq!(
            got.text, "Too many requests. Try again in 1 second.",
            "{backend}"
        );
    });
    on_every_backend(response(429, "", Some(600)), "ar", |backend, got| {
        assert_eq!(
            got.text, "طلبات كثيرة جدًا. حاول مرة أخرى بعد 10 دقائق.",
            "{backend}"
        );
    });
    on_every_backend(response(429, "", Some(45)), "tr", |backend, got| {
        assert_eq!(
            got.text, "Çok fazla istek. 45 saniye sonra tekrar deneyin.",
            "{backend}"
        );
    });
}

#[test]
fn issue_38_retry_after_reads_seconds_or_a_date_against_the_responses_own() {
    use agent_chat_ui::core::{parse_http_date, parse_retry_after};
    assert_eq!(parse_retry_after(" 120 ", None), Some(120));
    assert_eq!(parse_retry_after("0", None), Some(0));
    assert_eq!(
        parse_retry_after("99999999999999999999999", None),
        Some(u64::MAX)
    );
    let date = parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT");
    assert_eq!(
        parse_retry_after("Sun, 06 Nov 1994 08:50:07 GMT", date),
        Some(30)
    );
    assert_eq!(
        parse_retry_after("Sun, 06 Nov 1994 08:49:00 GMT", date),
        Some(0),
        "a date already passed"
    );
    assert_eq!(
        parse_retry_after("Sun, 06 Nov 1994 08:50:07 GMT", None),
        None,
        "no Date to measure from"
    );
    assert_eq!(parse_retry_after("soon", date), None);
    assert_eq!(parse_retry_after("-5", date), None);
    assert_eq!(parse_retry_after("", date), None);
}
