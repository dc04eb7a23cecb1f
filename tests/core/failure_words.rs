//! A reply that fails inside its stream, and an answer a gateway turns down itself, read in
//! the person's language on every backend (issue 38): the server's own words when it gave
//! some, else the page's sentence for what kind of failure it was, never an English sentence
//! the gateway made up.
#![cfg(not(target_arch = "wasm32"))]

use crate::common::failing::failing_stream;
use crate::common::link;

use agent_chat_ui::core::transport::failure::{FailedTurn, Failure, FailureKind, Refusal};
use agent_chat_ui::core::transport::TransportKind;
use agent_chat_ui::core::{Catalog, ChatError, Command, Input, Method, TransportError};
use link::Link;
use serde_json::{json, Map, Value};

/// One failure as the person reads it: the banner's sentence and its second line.
#[derive(Debug, PartialEq)]
struct Read {
    text: String,
    detail: Option<String>,
}

fn read(error: Option<&ChatError>, lang: &str) -> Read {
    let error = error.expect("the failure is shown");
    let catalog = Catalog::new(lang);
    Read {
        text: error.describe(&catalog),
        detail: error.server_detail(&catalog),
    }
}

/// A link to `kind` whose start-up requests went unanswered, ready to send.
fn ready(kind: TransportKind) -> Link {
    let mut l = Link::new(kind, vec![]);
    l.cmd(Command::Start);
    let asked: Vec<_> = l.wire.iter().map(|(r, _)| r.id).collect();
    for id in asked {
        l.wire_input(Input::Response {
            id,
            result: Err(TransportError::Network("offline".into())),
        });
    }
    l.cmd(Command::DismissError);
    l
}

/// A message sent over `kind` whose streamed reply is `body`, read in `lang`.
fn streamed_over(kind: TransportKind, body: &str, lang: &str) -> Read {
    let mut l = ready(kind);
    l.cmd(Command::Send("Hello".into()));
    let (req, streamed) = l.wire.last().expect("the message goes out").clone();
    assert_eq!(req.method, Method::Post, "{kind:?}: {req:?}");
    assert!(streamed, "{kind:?}: the reply streams");
    l.stream(body);
    read(l.session.error(), lang)
}

/// Every backend with a stream of its own, and the kind its failure without words is.
const STREAMED: [(TransportKind, FailureKind); 7] = [
    (TransportKind::ChatCompletions, FailureKind::ModelError),
    (TransportKind::Responses, FailureKind::ModelError),
    (TransportKind::A2a, FailureKind::AgentError),
    (TransportKind::Cogitator, FailureKind::AgentError),
    (TransportKind::AiSdk, FailureKind::AgentError),
    (TransportKind::AgUi, FailureKind::AgentError),
    (TransportKind::Langgraph, FailureKind::AgentError),
];

/// The page's sentence for a failure kind in `lang`.
fn said(kind: FailureKind, lang: &str) -> String {
    Catalog::new(lang).tr(kind.fluent_id())
}

#[test]
fn issue_38_a_stream_error_keeps_the_servers_words_on_every_backend() {
    let words = "The weather service is down, try again at noon.";
    for (kind, _) in STREAMED {
        for lang in ["en", "tr"] {
            let got = streamed_over(kind, &failing_stream(kind, Some(words)), lang);
            assert_eq!(
                got,
                Read {
                    text: words.into(),
                    detail: None
                },
                "{kind:?} in {lang}"
            );
        }
    }
}

#[test]
fn issue_38_a_stream_error_without_words_reads_in_the_persons_language_on_every_backend() {
    for (kind, failure) in STREAMED {
        for lang in ["en", "tr", "ar"] {
            let got = streamed_over(kind, &failing_stream(kind, None), lang);
            assert_eq!(
                got,
                Read {
                    text: said(failure, lang),
                    detail: None
                },
                "{kind:?} in {lang}"
            );
        }
    }
    // The Turkish sentences themselves, so a copy of the English one cannot pass.
    assert_eq!(
        streamed_over(
            TransportKind::AiSdk,
            &failing_stream(TransportKind::AiSdk, None),
            "tr"
        )
        .text,
        "Sunucu bir hata bildirdi."
    );
    assert_eq!(
        streamed_over(
            TransportKind::ChatCompletions,
            &failing_stream(TransportKind::ChatCompletions, None),
            "ar"
        )
        .text,
        "أبلغ الخادم عن خطأ."
    );
}

#[test]
fn issue_38_how_a_reply_ended_without_words_is_said_by_its_kind() {
    let data = |v: Value| format!("data: {v}\n\n");
    // Responses: a reply the model server could not finish.
    let failed = data(json!({"type": "response.failed", "response": {"id": "resp_1"}}));
    assert_eq!(
        streamed_over(TransportKind::Responses, &failed, "tr").text,
        "Sunucu bir hata bildirdi."
    );
    // A2A: a task the agent ended, by how it ended.
    for (state, kind) in [
        ("failed", FailureKind::TaskFailed),
        ("rejected", FailureKind::TaskRejected),
        ("canceled", FailureKind::TaskCanceled),
        ("TASK_STATE_FAILED", FailureKind::TaskFailed),
    ] {
        let update = data(json!({"jsonrpc": "2.0", "id": 1, "result": {
            "kind": "status-update", "taskId": "t1", "contextId": "c1", "final": true,
            "status": {"state": state}}}));
        for lang in ["en", "tr", "ar"] {
            assert_eq!(
                streamed_over(TransportKind::A2a, &update, lang).text,
                said(kind, lang),
                "{state} in {lang}"
            );
        }
    }
    assert_eq!(
        said(FailureKind::TaskRejected, "ar"),
        "لم يُكمل الوكيل المهمة."
    );
}

#[test]
fn issue_38_a_failed_task_kept_for_a_reload_keeps_its_kind_or_its_words() {
    let data = |v: Value| format!("data: {v}\n\n");
    let ended = |message: Value| {
        data(json!({"jsonrpc": "2.0", "id": 1, "result": {
            "kind": "status-update", "taskId": "t1", "contextId": "c1", "final": true,
            "status": {"state": "failed", "message": message}}}))
    };
    let kept = |body: String| {
        let mut l = ready(TransportKind::A2a);
        l.cmd(Command::Send("Hello".into()));
        l.stream(&body);
        let thread = l.stored_threads().pop().expect("the conversation is kept");
        let reply = thread
            .messages
            .iter()
            .rev()
            .find(|m| m["role"] == "assistant")
            .expect("the failed reply is kept")
            .clone();
        let metadata: Map<String, Value> = reply["metadata"].as_object().cloned().unwrap();
        FailedTurn::of(&metadata)
    };
    assert_eq!(
        kept(ended(json!({"role": "agent", "messageId": "m1",
            "parts": [{"kind": "text", "text": "The printer is on fire."}]}))),
        Some(FailedTurn::Words("The printer is on fire.".into()))
    );
    assert_eq!(
        kept(ended(Value::Null)),
        Some(FailedTurn::Said("chat-error-task-failed".into()))
    );
    // A code this page does not know is not read as a failure's kind.
    let mut unknown = Map::new();
    unknown.insert("errorCode".into(), json!("made_up"));
    assert_eq!(FailedTurn::of(&unknown), None);
}

#[test]
fn issue_38_every_failure_and_refusal_kind_has_its_words_in_every_language() {
    let ids: Vec<&str> = FailureKind::ALL
        .iter()
        .map(|k| k.fluent_id())
        .chain(Refusal::ALL.iter().map(|r| r.fluent_id()))
        .collect();
    let english = Catalog::new("en");
    for id in ids {
        for lang in ["en", "tr", "ar"] {
            assert!(Catalog::new(lang).has(id), "{lang} lacks {id}");
        }
        for lang in ["tr", "ar"] {
            assert_ne!(
                Catalog::new(lang).tr(id),
                english.tr(id),
                "{lang}: {id} is a copy of the English"
            );
        }
    }
    // The server's words win over the kind; blanks are no words.
    assert_eq!(
        Failure::new(FailureKind::AgentError, Some("  ")).error_object(),
        json!({"code": "chat-error-server-failed"})
    );
    assert_eq!(
        Failure::new(FailureKind::AgentError, Some(" Boom ")).error_object(),
        json!({"message": "Boom"})
    );
}

#[test]
fn issue_38_every_gateway_refusal_reads_in_the_persons_language_without_english_under_it() {
    use agent_chat_ui::core::{ApiError, ErrorContext};
    for refusal in Refusal::ALL {
        let (status, body) = refusal.response();
        let error = ChatError::Api {
            context: ErrorContext::Send,
            error: ApiError::from_body(status, &body),
        };
        for lang in ["en", "tr", "ar"] {
            assert_eq!(
                read(Some(&error), lang),
                Read {
                    text: Catalog::new(lang).tr(refusal.fluent_id()),
                    detail: None
                },
                "{refusal:?} in {lang}"
            );
        }
    }
}
