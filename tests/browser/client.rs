//! Browser tests of `AgentServerClient` (F163, F164, F198, F199) and `use_chat_history`
//! (F156–F162) against a stubbed `window.fetch`: a JS function that records every request
//! (method, URL, headers, body) and answers from a queue of canned `Response`s, including
//! streamed SSE bodies built with `ReadableStream`. The real `fetch` is put back when the
//! stub is dropped, at the end of each test.
#![cfg(target_arch = "wasm32")]

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use agent_chat_ui::core::{
    ChatError, CreateConversationRequest, ErrorContext, Resolution, StreamEvent, TurnStatus,
    UpdateConversationRequest, UploadFile,
};
use agent_chat_ui::io::client::{
    AbortHandle, ConversationsQuery, MessageOrder, MessagesQuery, SendMessageOptions,
    StreamCallbacks, StreamEnd, UploadFileRequest,
};
use agent_chat_ui::{
    use_chat_history, AgentServerClient, ClientOptions, UseChatHistoryOptions, UseChatHistoryReturn,
};
use leptos::prelude::*;
use serde_json::{json, Value};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

use crate::web;
use web::fetch::FetchStub;
use web::{section, wait_until};

const BASE: &str = "https://agents.test/api";
const CONV: &str = r#"{"id":"conv_1","agentId":"ops","title":"Disk cleanup","createdAt":"2025-05-01T10:00:00.000Z","updatedAt":"2025-05-01T10:02:00.000Z"}"#;
const FILE: &str =
    r#"{"id":"file_1","name":"a.txt","mimeType":"text/plain","size":5,"storageKey":"k1"}"#;

fn client() -> AgentServerClient {
    AgentServerClient::new(ClientOptions {
        base_url: format!("{BASE}/"),
        authorization: Some("Bearer abc".into()),
        headers: vec![("X-Tenant".into(), "acme".into())],
    })
}

fn conv(v: &str) -> Value {
    serde_json::from_str(v).unwrap()
}

#[wasm_bindgen_test]
async fn f163_headers_on_every_request_and_custom_headers_win() {
    let stub = FetchStub::install(json!([
        {"body": {"agents": [{"id": "ops", "name": "Ops"}]}},
        {"status": 204},
        {"body": {"agents": []}}
    ]));
    let agents = client().get_agents().await.expect("agents");
    assert_eq!(agents[0].id, "ops");
    client().delete_conversation("conv_1").await.expect("204");
    let custom = AgentServerClient::new(ClientOptions {
        base_url: BASE.into(),
        authorization: None,
        headers: vec![
            ("Content-Type".into(), "application/vnd.test+json".into()),
            ("Authorization".into(), "Token xyz".into()),
        ],
    });
    custom.get_agents().await.expect("agents");
    let calls = stub.calls();
    for call in &calls[..2] {
        assert_eq!(
            call.headers.get("content-type").map(String::as_str),
            Some("application/json")
        );
        assert_eq!(
            call.headers.get("authorization").map(String::as_str),
            Some("Bearer abc")
        );
        assert_eq!(
            call.headers.get("x-tenant").map(String::as_str),
            Some("acme")
        );
    }
    // PROTOCOL §1: custom headers override the two defaults.
    assert_eq!(
        calls[2].headers.get("content-type").map(String::as_str),
        Some("application/vnd.test+json")
    );
    assert_eq!(
        calls[2].headers.get("authorization").map(String::as_str),
        Some("Token xyz")
    );
    assert_eq!(calls[0].url, format!("{BASE}/agents"));
}

#[wasm_bindgen_test]
async fn f164_every_method_sends_the_right_request_and_reads_the_answer() {
    let stub = FetchStub::install(json!([
        {"body": {"id": "ops", "name": "Ops", "capabilities": {"approvalArgsEdit": true}}},
        {"body": {"conversations": [conv(CONV)], "total": 41, "limit": 20, "offset": 20, "hasMore": true}},
        {"status": 201, "body": {"conversation": conv(CONV)}},
        {"body": {"conversation": conv(CONV), "messages": [{"id": "m1", "role": "user", "content": "Hi"}]}},
        {"body": conv(CONV)},
        {"status": 204},
        {"body": {"messages": [{"id": "m2", "role": "assistant", "content": "Hello"}], "total": 2, "limit": 1, "offset": 1, "hasMore": false}},
        {"body": {"message": {"id": "m3", "role": "user", "content": "Sum up"}, "response": {"id": "m4", "role": "assistant", "content": "Done."}, "conversationTitle": "Summary"}},
        {"status": 201, "body": {"file": conv(FILE)}},
        {"body": conv(FILE)},
        {"status": 204},
        {"body": {"status": "completed", "message": {"id": "m5", "role": "assistant", "content": "Removed."}}}
    ]));
    let c = client();
    let agent = c.get_agent("ops").await.expect("E2");
    assert_eq!(agent.capabilities.approval_args_edit, Some(true));
    let list = c
        .get_conversations(&ConversationsQuery {
            agent_id: Some("ops".into()),
            user_id: Some(String::new()),
            limit: Some(20),
            offset: Some(20),
        })
        .await
        .expect("E3");
    assert_eq!((list.conversations.len(), list.has_more), (1, true));
    let created = c
        .create_conversation(&CreateConversationRequest {
            agent_id: "ops".into(),
            title: Some("Disk cleanup".into()),
            ..Default::default()
        })
        .await
        .expect("E4");
    assert_eq!(created.id, "conv_1");
    let loaded = c.get_conversation("conv_1").await.expect("E5");
    assert_eq!(loaded.messages[0].display_text(), "Hi");
    let renamed = c
        .update_conversation(
            "conv_1",
            &UpdateConversationRequest {
                title: Some("Disk cleanup".into()),
                metadata: None,
            },
        )
        .await
        .expect("E6 bare");
    assert_eq!(renamed.title.as_deref(), Some("Disk cleanup"));
    c.delete_conversation("conv_1").await.expect("E7 204");
    let page = c
        .get_messages(
            "conv_1",
            &MessagesQuery {
                limit: Some(1),
                offset: Some(1),
                order: Some(MessageOrder::Desc),
            },
        )
        .await
        .expect("E8");
    assert_eq!(page.messages[0].id, "m2");
    let sent = c
        .send_message(
            "conv_1",
            &SendMessageOptions {
                message: "Sum up".into(),
                ..Default::default()
            },
        )
        .await
        .expect("E9 JSON");
    assert_eq!(sent.response.display_text(), "Done.");
    assert_eq!(sent.conversation_title.as_deref(), Some("Summary"));
    let file = c
        .upload_file(&UploadFileRequest {
            file: UploadFile {
                name: "a.txt".into(),
                content: "aGVsbG8=".into(),
                mime_type: "text/plain".into(),
            },
            conversation_id: Some("conv_1".into()),
            metadata: None,
        })
        .await
        .expect("E10");
    assert_eq!(file.id, "file_1");
    assert_eq!(c.get_file("file_1").await.expect("E11 bare").size, 5);
    c.delete_file("file_1").await.expect("E12 204");
    let resolved = c
        .resolve_action("conv_1", "act_1", &Resolution::allow())
        .await
        .expect("E14");
    assert_eq!(resolved.status, Some(TurnStatus::Completed));
    assert_eq!(
        c.get_file_content_url("file_1"),
        format!("{BASE}/files/file_1/content")
    );

    let calls = stub.calls();
    let seen: Vec<(&str, String)> = calls
        .iter()
        .map(|c| (c.method.as_str(), c.url.trim_start_matches(BASE).to_owned()))
        .collect();
    assert_eq!(
        seen,
        [
            ("GET", "/agents/ops".to_owned()),
            (
                "GET",
                "/conversations?agentId=ops&limit=20&offset=20".to_owned()
            ),
            ("POST", "/conversations".to_owned()),
            ("GET", "/conversations/conv_1".to_owned()),
            ("PATCH", "/conversations/conv_1".to_owned()),
            ("DELETE", "/conversations/conv_1".to_owned()),
            (
                "GET",
                "/conversations/conv_1/messages?limit=1&offset=1&order=desc".to_owned()
            ),
            ("POST", "/conversations/conv_1/messages".to_owned()),
            ("POST", "/files".to_owned()),
            ("GET", "/files/file_1".to_owned()),
            ("DELETE", "/files/file_1".to_owned()),
            ("POST", "/conversations/conv_1/actions/act_1".to_owned()),
        ]
    );
    for i in [0, 1, 3, 5, 6, 9, 10] {
        assert_eq!(calls[i].body, None, "no body on GET/DELETE: {:?}", calls[i]);
    }
    assert_eq!(
        calls[2].json(),
        json!({"agentId": "ops", "title": "Disk cleanup"})
    );
    assert_eq!(calls[4].json(), json!({"title": "Disk cleanup"}));
    assert_eq!(
        calls[7].json(),
        json!({"message": "Sum up", "stream": false})
    );
    assert_eq!(
        calls[8].json(),
        json!({"file": {"name": "a.txt", "content": "aGVsbG8=", "mimeType": "text/plain"}, "conversationId": "conv_1"})
    );
    assert_eq!(
        calls[11].json(),
        json!({"resolution": {"type": "tool_approval", "decision": "allow"}, "stream": false})
    );
}

#[wasm_bindgen_test]
async fn c23_wrapped_and_bare_answers_and_200_on_delete() {
    let _stub = FetchStub::install(json!([
        {"body": {"conversation": conv(CONV)}},
        {"body": {"file": conv(FILE)}},
        {"body": {"success": true}},
        {"status": 200, "body": ""}
    ]));
    let c = client();
    let renamed = c
        .update_conversation("conv_1", &UpdateConversationRequest::default())
        .await
        .expect("E6 wrapped");
    assert_eq!(renamed.id, "conv_1");
    assert_eq!(
        c.get_file("file_1").await.expect("E11 wrapped").name,
        "a.txt"
    );
    c.delete_conversation("conv_1")
        .await
        .expect("200 {success:true}");
    c.delete_file("file_1").await.expect("empty 200");
}

#[wasm_bindgen_test]
async fn f194_error_envelope_and_network_failure_are_chat_errors() {
    let _stub = FetchStub::install(json!([
        {"status": 409, "body": {"error": {"code": "PENDING_ACTION", "message": "Answer the open request first"}}},
        {"status": 404, "body": {"error": {"code": "NOT_FOUND", "message": "Conversation not found"}}},
        {"status": 500, "body": "<html>oops</html>", "headers": {"content-type": "text/html"}},
        {"networkError": true},
        {"body": "not json"}
    ]));
    let c = client();
    let refused = c
        .send_message(
            "conv_1",
            &SendMessageOptions {
                message: "Hi".into(),
                ..Default::default()
            },
        )
        .await
        .expect_err("409");
    assert_eq!(refused.code(), Some("pending_action"));
    assert_eq!(
        refused.server_message(),
        Some("Answer the open request first")
    );
    assert_eq!(refused.status(), Some(409));
    let missing = c.delete_conversation("conv_x").await.expect_err("404");
    assert!(matches!(
        missing,
        ChatError::Api {
            context: ErrorContext::Delete,
            ..
        }
    ));
    assert_eq!(
        (missing.code(), missing.status()),
        (Some("not_found"), Some(404))
    );
    let html = c.get_agents().await.expect_err("500");
    assert_eq!(
        (html.code(), html.server_message()),
        (None, Some("Request failed"))
    );
    let offline = c.get_agents().await.expect_err("network");
    assert!(
        matches!(
            offline,
            ChatError::Network {
                context: ErrorContext::Agents,
                ..
            }
        ),
        "{offline:?}"
    );
    let garbled = c.get_conversation("conv_1").await.expect_err("bad body");
    assert!(
        matches!(garbled, ChatError::BadResponse { .. }),
        "{garbled:?}"
    );
}

/// Callbacks that write what they saw to `log`.
fn logging(log: &Rc<RefCell<Vec<String>>>) -> StreamCallbacks {
    let l = |log: &Rc<RefCell<Vec<String>>>| log.clone();
    let (a, b, c, d, e, f, g, h, i) = (
        l(log),
        l(log),
        l(log),
        l(log),
        l(log),
        l(log),
        l(log),
        l(log),
        l(log),
    );
    StreamCallbacks::new()
        .on_start(move |ev| {
            if let StreamEvent::Start { message_id, .. } = ev {
                a.borrow_mut()
                    .push(format!("start {}", message_id.clone().unwrap_or_default()));
            }
        })
        .on_text(move |chunk, full| b.borrow_mut().push(format!("text {chunk:?} {full:?}")))
        .on_tool_call(move |ev| {
            if let StreamEvent::ToolCall {
                tool_name, args, ..
            } = ev
            {
                c.borrow_mut().push(format!("tool_call {tool_name} {args}"));
            }
        })
        .on_tool_result(move |ev| {
            if let StreamEvent::ToolResult { result, .. } = ev {
                d.borrow_mut().push(format!("tool_result {result}"));
            }
        })
        .on_progress(move |ev| {
            if let StreamEvent::Progress { message, .. } = ev {
                e.borrow_mut()
                    .push(format!("progress {}", message.clone().unwrap_or_default()));
            }
        })
        .on_action_required(move |ev| {
            if let StreamEvent::ActionRequired { action, .. } = ev {
                f.borrow_mut()
                    .push(format!("action_required {}", action.id));
            }
        })
        .on_action_resolved(move |ev| {
            if let StreamEvent::ActionResolved { action_id, .. } = ev {
                g.borrow_mut().push(format!("action_resolved {action_id}"));
            }
        })
        .on_error(move |err| {
            h.borrow_mut().push(format!(
                "error {} {}",
                err.code().unwrap_or("-"),
                err.server_message().unwrap_or("")
            ))
        })
        .on_done(move |ev| {
            if let StreamEvent::Done {
                message_id,
                status,
                pending_actions,
                ..
            } = ev
            {
                i.borrow_mut().push(format!(
                    "done {} {} {}",
                    message_id.clone().unwrap_or_default(),
                    status.as_ref().map(|s| s.as_str()).unwrap_or("-"),
                    pending_actions.as_ref().map(Vec::len).unwrap_or(0)
                ));
            }
        })
}

#[wasm_bindgen_test]
async fn f164_f199_stream_callbacks_in_order() {
    // Frames split mid-line and mid-JSON across network chunks; a comment and an unreadable
    // frame are skipped (C22).
    let stub = FetchStub::install(json!([{ "chunks": [
        "data: {\"type\":\"stream.start\",\"timestamp\":1,\"conversationId\":\"conv_1\",\"messageId\":\"msg_u1\"}\n\n: keep-alive\n\n",
        "data: {\"type\":\"stream.tool_call\",\"timestamp\":2,\"toolName\":\"get_weather\",\"toolCallId\":\"call_9\",\"args\":{\"city\":\"Izmir\"}}\n\ndata: {\"type\":\"stream.tool_re",
        "sult\",\"timestamp\":3,\"toolName\":\"get_weather\",\"toolCallId\":\"call_9\",\"result\":{\"tempC\":24}}\n\ndata: {not json}\n\n",
        "data: {\"type\":\"stream.progress\",\"timestamp\":4,\"stage\":\"processing\",\"message\":\"Thinking\"}\n\n",
        "data: {\"type\":\"stream.text\",\"timestamp\":5,\"text\":\"It is \"}\n\ndata: {\"type\":\"stream.text\",\"timestamp\":6,\"text\":\"24 °C\",\"isFinal\":true}\n\n",
        "data: {\"type\":\"stream.action_required\",\"timestamp\":7,\"conversationId\":\"conv_1\",\"action\":{\"id\":\"act_1\",\"type\":\"tool_approval\",\"toolName\":\"send_email\",\"args\":{}}}\n\n",
        "data: {\"type\":\"stream.done\",\"timestamp\":8,\"conversationId\":\"conv_1\",\"messageId\":\"msg_a1\",\"content\":\"It is 24 °C\",\"status\":\"requires_action\",\"pendingActions\":[{\"id\":\"act_1\",\"type\":\"tool_approval\",\"toolName\":\"send_email\",\"args\":{}}]}\n\n"
    ]}]));
    let log = Rc::new(RefCell::new(Vec::new()));
    let end = client()
        .send_message_stream(
            "conv_1",
            &SendMessageOptions {
                message: "Weather?".into(),
                ..Default::default()
            },
            logging(&log),
            None,
        )
        .await
        .expect("stream accepted");
    assert_eq!(end, StreamEnd::Done);
    assert_eq!(
        *log.borrow(),
        [
            "start msg_u1",
            "tool_call get_weather {\"city\":\"Izmir\"}",
            "tool_result {\"tempC\":24}",
            "progress Thinking",
            "text \"It is \" \"It is \"",
            "text \"24 °C\" \"It is 24 °C\"",
            "action_required act_1",
            "done msg_a1 requires_action 1",
        ]
    );
    let calls = stub.calls();
    assert_eq!(
        calls[0].url,
        format!("{BASE}/conversations/conv_1/messages")
    );
    assert_eq!(
        calls[0].json(),
        json!({"message": "Weather?", "stream": true})
    );
}

#[wasm_bindgen_test]
async fn stream_error_event_refusal_and_cut() {
    let _stub = FetchStub::install(json!([
        { "chunks": [
            "data: {\"type\":\"stream.start\",\"timestamp\":1,\"conversationId\":\"conv_1\",\"messageId\":\"msg_u1\"}\n\n",
            "data: {\"type\":\"stream.error\",\"timestamp\":2,\"error\":\"Slow down\",\"code\":\"RATE_LIMITED\"}\n\n"
        ]},
        {"status": 409, "body": {"error": {"code": "CONVERSATION_BUSY", "message": "Busy"}}},
        { "chunks": [
            "data: {\"type\":\"stream.start\",\"timestamp\":1,\"conversationId\":\"conv_1\",\"messageId\":\"msg_u2\"}\n\n",
            "data: {\"type\":\"stream.text\",\"timestamp\":2,\"text\":\"Half\"}\n\n"
        ]}
    ]));
    let options = SendMessageOptions {
        message: "Hi".into(),
        ..Default::default()
    };
    let log = Rc::new(RefCell::new(Vec::new()));
    let end = client()
        .send_message_stream("conv_1", &options, logging(&log), None)
        .await
        .expect("accepted, then failed inside");
    assert_eq!(end, StreamEnd::Failed);
    assert_eq!(
        *log.borrow(),
        ["start msg_u1", "error rate_limited Slow down"]
    );

    log.borrow_mut().clear();
    let refused = client()
        .send_message_stream("conv_1", &options, logging(&log), None)
        .await
        .expect_err("409 before the stream");
    assert_eq!(
        (refused.code(), refused.status()),
        (Some("conversation_busy"), Some(409))
    );
    assert!(
        log.borrow().is_empty(),
        "no callbacks for a refusal: {:?}",
        log.borrow()
    );

    let end = client()
        .send_message_stream("conv_1", &options, logging(&log), None)
        .await
        .expect("accepted");
    assert_eq!(
        end,
        StreamEnd::Cut,
        "no done and no error: the stream was cut"
    );
}

#[wasm_bindgen_test]
async fn f198_resolve_action_stream_reports_the_continuation() {
    let stub = FetchStub::install(json!([{ "chunks": [
        "data: {\"type\":\"stream.action_resolved\",\"timestamp\":1,\"conversationId\":\"conv_1\",\"actionId\":\"act_1\",\"status\":\"resolved\",\"resolution\":{\"decision\":\"allow\"}}\n\n",
        "data: {\"type\":\"stream.text\",\"timestamp\":2,\"text\":\"Removed.\"}\n\n",
        "data: {\"type\":\"stream.done\",\"timestamp\":3,\"conversationId\":\"conv_1\",\"messageId\":\"msg_a2\",\"content\":\"Removed.\",\"status\":\"completed\"}\n\n"
    ]}]));
    let log = Rc::new(RefCell::new(Vec::new()));
    let end = client()
        .resolve_action_stream("conv_1", "act_1", &Resolution::allow(), logging(&log), None)
        .await
        .expect("accepted");
    assert_eq!(end, StreamEnd::Done);
    assert_eq!(
        *log.borrow(),
        [
            "action_resolved act_1",
            "text \"Removed.\" \"Removed.\"",
            "done msg_a2 completed 0"
        ]
    );
    let calls = stub.calls();
    assert_eq!(
        calls[0].url,
        format!("{BASE}/conversations/conv_1/actions/act_1")
    );
    assert_eq!(
        calls[0].json(),
        json!({"resolution": {"type": "tool_approval", "decision": "allow"}, "stream": true})
    );
}

#[wasm_bindgen_test]
async fn abort_handle_stops_an_open_stream() {
    let _stub = FetchStub::install(json!([{ "open": true, "chunks": [
        "data: {\"type\":\"stream.text\",\"timestamp\":1,\"text\":\"Partial\"}\n\n"
    ]}]));
    let abort = AbortHandle::new();
    let on_text_abort = abort.clone();
    let texts = Rc::new(Cell::new(0));
    let seen = texts.clone();
    let callbacks = StreamCallbacks::new().on_text(move |_, _| {
        seen.set(seen.get() + 1);
        on_text_abort.abort();
    });
    let end = client()
        .send_message_stream(
            "conv_1",
            &SendMessageOptions {
                message: "Go".into(),
                ..Default::default()
            },
            callbacks,
            Some(&abort),
        )
        .await
        .expect("aborted is not an error");
    assert_eq!(end, StreamEnd::Aborted);
    assert_eq!(texts.get(), 1);
    assert!(abort.is_aborted());
}

// ---------------------------------------------------------------------------------------------
// use_chat_history
// ---------------------------------------------------------------------------------------------

fn row(id: &str) -> Value {
    json!({"id": id, "agentId": "echo", "title": format!("Chat {id}")})
}

fn page(ids: &[&str], has_more: bool) -> Value {
    json!({"body": {"conversations": ids.iter().map(|i| row(i)).collect::<Vec<_>>(), "total": 3, "limit": 2, "offset": 0, "hasMore": has_more}})
}

/// Mounts a component that calls `use_chat_history(options)`; returns its result and the
/// handle that unmounts it.
fn mount_hook(
    root: &web_sys::HtmlElement,
    options: impl Fn() -> UseChatHistoryOptions + 'static,
) -> (UseChatHistoryReturn, impl Drop) {
    let slot = Rc::new(Cell::new(None));
    let out = slot.clone();
    let handle = mount_to(root.clone(), move || {
        out.set(Some(use_chat_history(options())));
    });
    (slot.get().expect("hook ran"), handle)
}

fn ids(h: &UseChatHistoryReturn) -> Vec<String> {
    h.conversations
        .get_untracked()
        .iter()
        .map(|c| c.id.clone())
        .collect()
}

#[wasm_bindgen_test]
async fn f156_f161_history_pages_load_more_and_delete() {
    let base = "https://history.test/a";
    let stub = FetchStub::install(json!([
        page(&["c1", "c2"], true),
        // A silent refresh held on its way; load_more meanwhile must not send anything. Its
        // answer renames c2, so its arrival shows.
        { "hold": true, "body": {"conversations": [row("c1"), {"id": "c2", "agentId": "echo", "title": "Refreshed"}], "total": 3, "hasMore": true}},
        page(&["c3"], false),
        {"status": 204},
        {"status": 403, "body": {"error": {"code": "FORBIDDEN", "message": "no access"}}}
    ]));
    let root = section();
    let (h, _mounted) = mount_hook(&root, move || {
        UseChatHistoryOptions::new(base)
            .agent_id("echo")
            .authorization(Some("Bearer abc".to_owned()))
            .page_size(2)
    });
    wait_until("the first page shows", &root, || ids(&h) == ["c1", "c2"]).await;
    assert!(h.has_more.get_untracked());
    assert!(!h.is_loading.get_untracked());

    // F160: refresh is silent; F159: load_more is a no-op while it runs.
    leptos::task::spawn_local(h.refresh());
    wait_until("the refresh is on its way", &root, || stub.held() == 1).await;
    assert!(
        !h.is_loading.get_untracked(),
        "refresh does not show loading"
    );
    h.load_more().await;
    assert_eq!(
        stub.calls().len(),
        2,
        "load_more waited: {:?}",
        stub.calls()
    );
    stub.release();
    wait_until("the refresh's answer arrives", &root, || {
        h.conversations
            .with_untracked(|c| c.get(1).and_then(|r| r.title.clone()))
            .as_deref()
            == Some("Refreshed")
    })
    .await;
    assert!(!h.is_loading.get_untracked());

    // F159: the next page is appended, at the offset of the rows held.
    let more = h.load_more();
    leptos::task::spawn_local(more);
    wait_until("the second page is appended", &root, || {
        ids(&h) == ["c1", "c2", "c3"]
    })
    .await;
    assert!(!h.has_more.get_untracked());
    h.load_more().await;
    assert_eq!(stub.calls().len(), 3, "no request once has_more is false");

    // F161: removed locally only after the server agreed; a refusal keeps the row.
    h.delete_conversation("c2".into()).await.expect("204");
    assert_eq!(ids(&h), ["c1", "c3"]);
    let err = h
        .delete_conversation("c3".into())
        .await
        .expect_err("refused");
    assert_eq!(err.code(), Some("forbidden"));
    assert_eq!(ids(&h), ["c1", "c3"]);
    assert_eq!(h.error.get_untracked().and_then(|e| e.status()), Some(403));

    let calls = stub.calls();
    let urls: Vec<(&str, &str)> = calls
        .iter()
        .map(|c| (c.method.as_str(), c.url.trim_start_matches(base)))
        .collect();
    assert_eq!(
        urls,
        [
            ("GET", "/conversations?agentId=echo&limit=2"),
            ("GET", "/conversations?agentId=echo&limit=2"),
            ("GET", "/conversations?agentId=echo&limit=2&offset=2"),
            ("DELETE", "/conversations/c2"),
            ("DELETE", "/conversations/c3"),
        ]
    );
    assert_eq!(
        calls[0].headers.get("authorization").map(String::as_str),
        Some("Bearer abc")
    );
}

#[wasm_bindgen_test]
async fn f158_load_shows_loading_and_errors_then_recovers() {
    let base = "https://history.test/b";
    let stub = FetchStub::install(json!([
        {"status": 500, "body": {"error": {"code": "INTERNAL_ERROR", "message": "db down"}}},
        {"hold": true, "body": {"conversations": [row("c9")], "hasMore": false}}
    ]));
    let root = section();
    let (h, _mounted) = mount_hook(&root, move || UseChatHistoryOptions::new(base));
    wait_until("the error shows", &root, || {
        h.error.get_untracked().is_some()
    })
    .await;
    let err = h.error.get_untracked().expect("error");
    assert_eq!(
        (err.code(), err.server_message()),
        (Some("internal_error"), Some("db down"))
    );
    assert!(!h.is_loading.get_untracked());
    leptos::task::spawn_local(h.load(true));
    wait_until("the load is on its way", &root, || stub.held() == 1).await;
    assert!(h.is_loading.get_untracked(), "load(true) shows loading");
    assert!(
        h.error.get_untracked().is_none(),
        "a new load clears the error"
    );
    stub.release();
    wait_until("the list shows", &root, || ids(&h) == ["c9"]).await;
    assert!(!h.is_loading.get_untracked());
}

#[wasm_bindgen_test]
async fn f162_auto_load_once_per_server_and_agent_across_remounts() {
    let base = "https://history.test/c";
    let stub = FetchStub::install(json!([page(&["c1"], false), page(&["s1"], false)]));
    let root = section();
    let (first, mounted) = mount_hook(&root, move || {
        UseChatHistoryOptions::new(base).agent_id("echo")
    });
    wait_until("the first mount loads", &root, || ids(&first) == ["c1"]).await;
    drop(mounted);

    // Remounted with the same server and agent: the list is there without a request.
    let (again, _again) = mount_hook(&root, move || {
        UseChatHistoryOptions::new(base).agent_id("echo")
    });
    wait_until("the remount shows the list", &root, || {
        ids(&again) == ["c1"]
    })
    .await;
    // A load would start from the mount's effects, which have run by the next frame.
    web::next_frame().await;
    assert_eq!(
        stub.calls().len(),
        1,
        "no second request: {:?}",
        stub.calls()
    );

    // Another agent is another list: it loads.
    let (other, _other) = mount_hook(&root, move || {
        UseChatHistoryOptions::new(base).agent_id("support")
    });
    wait_until("the other agent's list loads", &root, || {
        ids(&other) == ["s1"]
    })
    .await;
    let calls = stub.calls();
    assert_eq!(calls.len(), 2);
    assert_eq!(
        calls[1].url,
        format!("{base}/conversations?agentId=support&limit=20")
    );

    // auto_load = false never requests by itself.
    let (manual, _manual) = mount_hook(&root, move || {
        UseChatHistoryOptions::new("https://history.test/d").auto_load(false)
    });
    web::next_frame().await;
    assert_eq!(stub.calls().len(), 2);
    assert!(ids(&manual).is_empty());
}

#[wasm_bindgen_test]
async fn f156_changing_the_agent_starts_a_new_list() {
    let base = "https://history.test/e";
    let stub = FetchStub::install(json!([page(&["a1", "a2"], true), page(&["b1"], false)]));
    let root = section();
    let agent = RwSignal::new("alpha".to_owned());
    let (h, _mounted) = mount_hook(&root, move || {
        UseChatHistoryOptions::new(base).agent_id(agent)
    });
    wait_until("alpha's list", &root, || ids(&h) == ["a1", "a2"]).await;
    agent.set("beta".to_owned());
    wait_until("beta's list replaces it", &root, || ids(&h) == ["b1"]).await;
    assert!(!h.has_more.get_untracked());
    let calls = stub.calls();
    assert_eq!(
        calls[1].url,
        format!("{base}/conversations?agentId=beta&limit=20")
    );

    // A page still on its way for the old agent is dropped when the agent changes.
    let late = FetchStub::install(json!([
        {"hold": true, "body": {"conversations": [row("g_old")], "hasMore": true}},
        page(&["d1"], false)
    ]));
    agent.set("gamma".to_owned());
    wait_until("gamma's page is on its way", &root, || late.held() == 1).await;
    agent.set("delta".to_owned());
    wait_until("delta's list", &root, || ids(&h) == ["d1"]).await;
    // Only now does gamma's page arrive. Once the client has read its body, the hook's
    // continuation runs in the same microtask checkpoint, before the next frame: after that
    // frame the page has had its chance to land (it must not).
    late.release();
    wait_until("gamma's late page was read", &root, || {
        late.bodies_read() == 2
    })
    .await;
    web::next_frame().await;
    assert_eq!(ids(&h), ["d1"], "gamma's late page must not land");
    assert!(!h.has_more.get_untracked());
    assert_eq!(late.calls().len(), 2);
}

#[wasm_bindgen_test]
async fn d3_a_character_split_between_network_chunks_arrives_whole() {
    // "24 °C": the degree sign is C2 B0 in UTF-8; its two bytes come in different chunks.
    let mut first = "data: {\"type\":\"stream.text\",\"timestamp\":1,\"text\":\"24 "
        .as_bytes()
        .to_vec();
    first.push(0xC2);
    let mut second = vec![0xB0];
    second.extend_from_slice(
        "C\"}\n\ndata: {\"type\":\"stream.done\",\"timestamp\":2,\"content\":\"24 °C\"}\n\n"
            .as_bytes(),
    );
    let _stub = FetchStub::install(json!([{ "chunks": [first, second] }]));
    let texts = Rc::new(RefCell::new(Vec::new()));
    let seen = texts.clone();
    let end = client()
        .send_message_stream(
            "conv_1",
            &SendMessageOptions {
                message: "Temp?".into(),
                ..Default::default()
            },
            StreamCallbacks::new()
                .on_text(move |chunk, _| seen.borrow_mut().push(chunk.to_owned())),
            None,
        )
        .await
        .expect("accepted");
    assert_eq!(end, StreamEnd::Done);
    assert_eq!(*texts.borrow(), ["24 °C"]);
}
