//! The requests `AgentServerClient` sends and how it reads the answers (`core::api`): every
//! endpoint's method, path, query (only truthy parameters, PROTOCOL §3) and body (F164, F198),
//! the 204 / bare-or-wrapped tolerance (C23, X4, X5) and the error envelope (§2, F194).
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::api::{
    self, ConversationsQuery, MessageOrder, MessagesQuery, ResolveActionOptions,
    SendMessageOptions, UploadFileRequest,
};
use agent_chat_ui::core::{
    ChatError, CreateConversationRequest, ErrorContext, Method, Resolution, TurnStatus,
    UpdateConversationRequest, UploadFile,
};
use serde_json::{json, Value};

fn body(b: &Option<String>) -> Value {
    serde_json::from_str(b.as_deref().expect("a body")).expect("JSON body")
}

const CONV: &str =
    r#"{"id":"conv_1","agentId":"ops","title":"Disk","createdAt":"2025-05-01T10:00:00.000Z"}"#;
const FILE: &str =
    r#"{"id":"file_1","name":"a.txt","mimeType":"text/plain","size":5,"storageKey":"k"}"#;

#[test]
fn f164_e1_to_e14_methods_and_paths() {
    let allow = Resolution::allow();
    let send = SendMessageOptions::default();
    let cases = [
        (api::get_agents().request, Method::Get, "/agents"),
        (api::get_agent("ops").request, Method::Get, "/agents/ops"),
        (
            api::get_conversations(&ConversationsQuery::default()).request,
            Method::Get,
            "/conversations",
        ),
        (
            api::create_conversation(&CreateConversationRequest::default()).request,
            Method::Post,
            "/conversations",
        ),
        (
            api::get_conversation("c1").request,
            Method::Get,
            "/conversations/c1",
        ),
        (
            api::update_conversation("c1", &UpdateConversationRequest::default()).request,
            Method::Patch,
            "/conversations/c1",
        ),
        (
            api::delete_conversation("c1").request,
            Method::Delete,
            "/conversations/c1",
        ),
        (
            api::get_messages("c1", &MessagesQuery::default()).request,
            Method::Get,
            "/conversations/c1/messages",
        ),
        (
            api::send_message("c1", &send).request,
            Method::Post,
            "/conversations/c1/messages",
        ),
        (
            api::send_message_stream("c1", &send).request,
            Method::Post,
            "/conversations/c1/messages",
        ),
        (
            api::resolve_action("c1", "act_1", &allow).request,
            Method::Post,
            "/conversations/c1/actions/act_1",
        ),
        (
            api::resolve_action_stream("c1", "act_1", &allow).request,
            Method::Post,
            "/conversations/c1/actions/act_1",
        ),
        (
            api::upload_file(&UploadFileRequest::default()).request,
            Method::Post,
            "/files",
        ),
        (api::get_file("f1").request, Method::Get, "/files/f1"),
        (api::delete_file("f1").request, Method::Delete, "/files/f1"),
    ];
    for (request, method, path) in cases {
        assert_eq!((request.method, request.path.as_str()), (method, path));
        // PROTOCOL §1: no body on GET/DELETE, a JSON body on POST/PATCH.
        let has_body = matches!(method, Method::Post | Method::Patch);
        assert_eq!(request.body.is_some(), has_body, "{request:?}");
    }
    assert_eq!(api::file_content_path("file_1"), "/files/file_1/content");
}

#[test]
fn ids_are_encoded_as_one_path_segment() {
    assert_eq!(
        api::get_conversation("a/b?c").request.path,
        "/conversations/a%2Fb%3Fc"
    );
    assert_eq!(
        api::resolve_action("c#1", "a 1", &Resolution::allow())
            .request
            .path,
        "/conversations/c%231/actions/a%201"
    );
    assert_eq!(api::file_content_path("x/y"), "/files/x%2Fy/content");
}

#[test]
fn f164_e3_query_only_truthy_params() {
    assert_eq!(
        api::get_conversations(&ConversationsQuery::default())
            .request
            .path,
        "/conversations"
    );
    let falsy = ConversationsQuery {
        agent_id: Some(String::new()),
        user_id: Some(String::new()),
        limit: Some(0),
        offset: Some(0),
    };
    assert_eq!(
        api::get_conversations(&falsy).request.path,
        "/conversations"
    );
    let full = ConversationsQuery {
        agent_id: Some("ops team".into()),
        user_id: Some("u&1".into()),
        limit: Some(20),
        offset: Some(40),
    };
    assert_eq!(
        api::get_conversations(&full).request.path,
        "/conversations?agentId=ops%20team&userId=u%261&limit=20&offset=40"
    );
    let first_page = ConversationsQuery {
        agent_id: Some("ops".into()),
        limit: Some(20),
        offset: Some(0),
        ..Default::default()
    };
    assert_eq!(
        api::get_conversations(&first_page).request.path,
        "/conversations?agentId=ops&limit=20"
    );
}

#[test]
fn f164_e8_query_limit_offset_order() {
    assert_eq!(
        api::get_messages("c1", &MessagesQuery::default())
            .request
            .path,
        "/conversations/c1/messages"
    );
    let q = MessagesQuery {
        limit: Some(50),
        offset: Some(100),
        order: Some(MessageOrder::Desc),
    };
    assert_eq!(
        api::get_messages("c1", &q).request.path,
        "/conversations/c1/messages?limit=50&offset=100&order=desc"
    );
    let asc = MessagesQuery {
        order: Some(MessageOrder::Asc),
        offset: Some(0),
        ..Default::default()
    };
    assert_eq!(
        api::get_messages("c1", &asc).request.path,
        "/conversations/c1/messages?order=asc"
    );
}

#[test]
fn bodies_are_camel_case_and_skip_absent_fields() {
    let create = api::create_conversation(&CreateConversationRequest {
        agent_id: "ops".into(),
        title: Some("Hi".into()),
        ..Default::default()
    });
    assert_eq!(create.request.method, Method::Post);
    assert_eq!(create.request.path, "/conversations");
    assert_eq!(
        body(&create.request.body),
        json!({"agentId": "ops", "title": "Hi"})
    );

    let update = api::update_conversation(
        "c1",
        &UpdateConversationRequest {
            title: Some("Renamed".into()),
            metadata: None,
        },
    );
    assert_eq!(body(&update.request.body), json!({"title": "Renamed"}));

    let options = SendMessageOptions {
        message: "Summarise".into(),
        files: vec![UploadFile {
            name: "a.txt".into(),
            content: "aGVsbG8=".into(),
            mime_type: "text/plain".into(),
        }],
        metadata: None,
    };
    let plain = api::send_message("c1", &options).request;
    assert_eq!(plain.path, "/conversations/c1/messages");
    assert_eq!(
        body(&plain.body),
        json!({"message": "Summarise", "files": [{"name": "a.txt", "content": "aGVsbG8=", "mimeType": "text/plain"}], "stream": false})
    );
    let streamed = api::send_message_stream("c1", &options).request;
    assert_eq!(body(&streamed.body)["stream"], json!(true));

    let resolve = api::resolve_action("c1", "act_1", &Resolution::deny(Some("no".into())));
    assert_eq!(
        body(&resolve.request.body),
        json!({"resolution": {"type": "tool_approval", "decision": "deny", "comment": "no"}, "stream": false})
    );
    let resolve_stream = api::resolve_action_stream("c1", "act_1", &Resolution::allow());
    assert_eq!(body(&resolve_stream.request.body)["stream"], json!(true));

    let upload = api::upload_file(&UploadFileRequest {
        file: UploadFile {
            name: "a.txt".into(),
            content: "aGk=".into(),
            mime_type: "text/plain".into(),
        },
        conversation_id: Some("c1".into()),
        metadata: None,
    });
    assert_eq!(
        body(&upload.request.body),
        json!({"file": {"name": "a.txt", "content": "aGk=", "mimeType": "text/plain"}, "conversationId": "c1"})
    );
}

#[test]
fn c23_no_content_and_bare_or_wrapped() {
    // E7 / E12: 204 empty, and the docs' 200 `{success:true}` (X4), are both success.
    assert_eq!(api::delete_conversation("c1").read(204, ""), Ok(()));
    assert_eq!(
        api::delete_conversation("c1").read(200, r#"{"success":true}"#),
        Ok(())
    );
    assert_eq!(api::delete_file("f1").read(204, ""), Ok(()));
    // E6 bare (code) and wrapped (docs).
    let bare = api::update_conversation("c1", &UpdateConversationRequest::default())
        .read(200, CONV)
        .expect("bare conversation");
    let wrapped = api::update_conversation("c1", &UpdateConversationRequest::default())
        .read(200, &format!(r#"{{"conversation":{CONV}}}"#))
        .expect("wrapped conversation");
    assert_eq!(bare, wrapped);
    assert_eq!(bare.title.as_deref(), Some("Disk"));
    // E4 wrapped (201).
    let created = api::create_conversation(&CreateConversationRequest::default())
        .read(201, &format!(r#"{{"conversation":{CONV}}}"#))
        .expect("created");
    assert_eq!(created.id, "conv_1");
    // E10 wrapped, E11 bare and wrapped.
    let up = api::upload_file(&UploadFileRequest::default())
        .read(201, &format!(r#"{{"file":{FILE}}}"#))
        .expect("uploaded");
    let got_bare = api::get_file("file_1").read(200, FILE).expect("bare file");
    let got_wrapped = api::get_file("file_1")
        .read(200, &format!(r#"{{"file":{FILE}}}"#))
        .expect("wrapped file");
    assert_eq!(up, got_bare);
    assert_eq!(got_bare, got_wrapped);
    assert_eq!(got_bare.size, 5);
    // E2 bare and wrapped.
    let agent = api::get_agent("ops")
        .read(200, r#"{"id":"ops","name":"Ops"}"#)
        .expect("bare agent");
    let agent_wrapped = api::get_agent("ops")
        .read(200, r#"{"agent":{"id":"ops","name":"Ops"}}"#)
        .expect("wrapped agent");
    assert_eq!(agent, agent_wrapped);
    // E14 JSON: an empty 2xx body is an empty answer, a full one is read.
    assert_eq!(
        api::resolve_action("c", "a", &Resolution::allow())
            .read(200, "")
            .expect("empty answer")
            .status,
        None
    );
    let answer = api::resolve_action("c", "a", &Resolution::allow())
        .read(
            200,
            r#"{"status":"completed","message":{"id":"m2","role":"assistant","content":"Done."}}"#,
        )
        .expect("answer");
    assert_eq!(answer.status, Some(TurnStatus::Completed));
    assert_eq!(answer.message.map(|m| m.id), Some("m2".into()));
}

#[test]
fn lists_and_pages_are_read() {
    let agents = api::get_agents()
        .read(
            200,
            r#"{"agents":[{"id":"a","name":"A"},{"bad":1},{"id":"b","name":"B"}]}"#,
        )
        .expect("agents");
    assert_eq!(
        agents.iter().map(|a| a.id.as_str()).collect::<Vec<_>>(),
        ["a", "b"]
    );
    let list = api::get_conversations(&ConversationsQuery::default())
        .read(
            200,
            &format!(
                r#"{{"conversations":[{CONV}],"total":41,"limit":20,"offset":20,"hasMore":true}}"#
            ),
        )
        .expect("list");
    assert_eq!(
        (list.conversations.len(), list.total, list.has_more),
        (1, 41, true)
    );
    let page = api::get_messages("c1", &MessagesQuery::default())
        .read(
            200,
            r#"{"messages":[{"id":"m1","role":"user","content":"Hi"}],"total":1,"limit":100,"offset":0,"hasMore":false}"#,
        )
        .expect("page");
    assert_eq!(page.messages[0].display_text(), "Hi");
    let conv = api::get_conversation("conv_1")
        .read(200, &format!(r#"{{"conversation":{CONV},"messages":[]}}"#))
        .expect("conversation");
    assert_eq!(conv.conversation.id, "conv_1");
    let sent = api::send_message("c1", &SendMessageOptions::default())
        .read(
            200,
            r#"{"message":{"id":"m1","role":"user","content":"Hi"},"response":{"id":"m2","role":"assistant","content":"Hello"},"conversationTitle":"Greeting"}"#,
        )
        .expect("sent");
    assert_eq!(sent.response.display_text(), "Hello");
    assert_eq!(sent.conversation_title.as_deref(), Some("Greeting"));
}

#[test]
fn f194_error_envelope_becomes_chat_error() {
    let err = api::send_message("c1", &SendMessageOptions::default())
        .read(
            409,
            r#"{"error":{"code":"PENDING_ACTION","message":"Answer the open request first","details":{}}}"#,
        )
        .expect_err("refused");
    assert_eq!(err.code(), Some("pending_action"));
    assert_eq!(err.server_message(), Some("Answer the open request first"));
    assert_eq!(err.status(), Some(409));
    assert!(matches!(
        err,
        ChatError::Api {
            context: ErrorContext::Send,
            ..
        }
    ));

    // Flat docs shape (C1) and a body that is not JSON (§2 rule 3).
    let flat = api::get_agents()
        .read(401, r#"{"error":"Missing token","code":"AUTH_REQUIRED"}"#)
        .expect_err("flat");
    assert_eq!(
        (flat.code(), flat.server_message(), flat.status()),
        (Some("auth_required"), Some("Missing token"), Some(401))
    );
    let html = api::delete_conversation("c1")
        .read(502, "<html>Bad gateway</html>")
        .expect_err("not JSON");
    assert_eq!(
        (html.code(), html.server_message()),
        (None, Some("Request failed"))
    );
    assert!(matches!(
        html,
        ChatError::Api {
            context: ErrorContext::Delete,
            ..
        }
    ));

    let file = api::get_file("nope")
        .read(
            404,
            r#"{"error":{"code":"NOT_FOUND","message":"File not found"}}"#,
        )
        .expect_err("404");
    assert!(matches!(
        file,
        ChatError::Api {
            context: ErrorContext::File,
            ..
        }
    ));
    assert_eq!(file.code(), Some("not_found"));
}

#[test]
fn unreadable_success_bodies_are_bad_responses_not_panics() {
    for text in ["", "not json", "[]", "{\"agents\":", "null"] {
        let got = api::get_conversation("c1").read(200, text);
        assert!(
            matches!(
                got,
                Err(ChatError::BadResponse {
                    context: ErrorContext::LoadConversation,
                    ..
                })
            ),
            "{text:?} gave {got:?}"
        );
        assert!(api::get_file("f").read(200, text).is_err(), "{text:?}");
        assert!(
            api::create_conversation(&CreateConversationRequest::default())
                .read(201, text)
                .is_err()
        );
    }
    let net = api::get_agents().network_error("Failed to fetch");
    assert_eq!(
        net,
        ChatError::Network {
            context: ErrorContext::Agents,
            detail: "Failed to fetch".into()
        }
    );
}

#[test]
fn c21_resolve_action_sends_version_and_decision_key_only_when_given() {
    // PROTOCOL §11.2 (C21): a host that read `version` from the action and keeps one
    // `decisionKey` per click can send both; JSON and streamed answers alike.
    let options = ResolveActionOptions::new()
        .version(3)
        .decision_key("5f0c7c1e-2d1b-4c55-9b8e-0a9d3f1e7a42");
    let deny = Resolution::deny(Some("no".into()));
    let plain = api::resolve_action_with("c1", "act_42", &deny, &options).request;
    assert_eq!(
        (plain.method, plain.path.as_str()),
        (Method::Post, "/conversations/c1/actions/act_42")
    );
    assert_eq!(
        body(&plain.body),
        json!({
            "resolution": {"type": "tool_approval", "decision": "deny", "comment": "no"},
            "stream": false,
            "version": 3,
            "decisionKey": "5f0c7c1e-2d1b-4c55-9b8e-0a9d3f1e7a42"
        })
    );
    let streamed =
        api::resolve_action_stream_with("c1", "act_42", &Resolution::allow(), &options).request;
    assert_eq!(
        body(&streamed.body),
        json!({
            "resolution": {"type": "tool_approval", "decision": "allow"},
            "stream": true,
            "version": 3,
            "decisionKey": "5f0c7c1e-2d1b-4c55-9b8e-0a9d3f1e7a42"
        })
    );
    // Only what was given is written: a version alone, and nothing at all by default.
    let version_only = ResolveActionOptions {
        version: Some(0),
        ..ResolveActionOptions::default()
    };
    let only = api::resolve_action_with("c1", "act_42", &Resolution::allow(), &version_only);
    assert_eq!(
        body(&only.request.body),
        json!({"resolution": {"type": "tool_approval", "decision": "allow"}, "stream": false, "version": 0})
    );
    let none = api::resolve_action_with(
        "c1",
        "act_42",
        &Resolution::allow(),
        &ResolveActionOptions::default(),
    );
    assert_eq!(
        none.request,
        api::resolve_action("c1", "act_42", &Resolution::allow()).request,
        "no options = the plain request"
    );
}

/// D79: what `ChatError` says (the element's `error` event `message`) is written out, not
/// taken from `Debug`, which a shipped build prints shallowly (`-Zfmt-debug=shallow`): the
/// status, code and server text stay in it.
#[test]
fn f194_an_error_says_what_failed_without_debug() {
    use agent_chat_ui::core::{ApiError, FileRejection};
    let api = ChatError::Api {
        context: ErrorContext::Send,
        error: ApiError::new(409, Some("PENDING_ACTION"), "Answer the card first"),
    };
    assert_eq!(
        api.to_string(),
        "sending failed: HTTP 409: Answer the card first"
    );
    let stream = ChatError::Stream {
        code: Some("rate_limited".into()),
        message: "Slow down".into(),
    };
    assert_eq!(stream.to_string(), "stream error rate_limited: Slow down");
    let bare = ChatError::Stream {
        code: None,
        message: "Boom".into(),
    };
    assert_eq!(bare.to_string(), "stream error without a code: Boom");
    let files = ChatError::Files(vec![
        FileRejection::TooMany { max: 3 },
        FileRejection::TooLarge {
            name: "a.png".into(),
            max: 10,
        },
        FileRejection::InvalidType {
            name: "b.exe".into(),
        },
        FileRejection::Disabled,
        FileRejection::Unreadable {
            name: "c.txt".into(),
        },
    ]);
    assert_eq!(
        files.to_string(),
        "files refused: more than 3 files; a.png is over 10 bytes; b.exe is not of an accepted \
         type; uploads are off; c.txt could not be read"
    );
}
