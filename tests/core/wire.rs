//! Wire types against every shape and example of PROTOCOL.md, plus the tolerance rules
//! (C1, C8, C9, C14, C16, C23, C30, X1, X5, X6, X8). Table-driven where the cases are alike.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;

use agent_chat_ui::core::{
    decode_body, decode_optional_body, format_iso, opt_iso, parse_timestamp, ActionKind,
    ActionStateEntry, ActionStatus, AgentInfo, AgentList, AnswerValue, ApiError, ComposerMode,
    ContentPart, Conversation, ConversationEnvelope, ConversationList, ConversationWithMessages,
    CreateConversationRequest, Decision, DecodeError, FileEnvelope, Message, MessageContent,
    MessagesPage, Millis, PendingAction, ProtocolError, Question, Resolution, ResolveActionRequest,
    ResolveActionResponse, Role, SendMessageRequest, SendMessageResponse, StreamEvent, TimedEvent,
    ToolApproval, ToolCallDetail, TurnStatus, UpdateConversationRequest, UploadFile, UserQuestion,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

fn action(v: Value) -> PendingAction {
    serde_json::from_value(v).expect("pending action parses")
}

fn event(v: Value) -> StreamEvent {
    StreamEvent::parse(&v.to_string(), None).expect("event parses")
}

// ----- §2 error envelope (C1) --------------------------------------------------------------

#[test]
fn section2_error_extraction_rules() {
    // (body, expected code, expected server_message)
    let cases: &[(&str, Option<&str>, &str)] = &[
        (
            r#"{ "error": { "code": "VALIDATION_ERROR", "message": "message is required", "details": {} } }"#,
            Some("validation_error"),
            "message is required",
        ),
        (
            r#"{ "error": { "code": "NOT_FOUND", "message": "Route not found: GET /x" } }"#,
            Some("not_found"),
            "Route not found: GET /x",
        ),
        // C1 flat docs variant.
        (
            r#"{ "error": "Authentication required", "code": "AUTH_REQUIRED" }"#,
            Some("auth_required"),
            "Authentication required",
        ),
        (r#"{ "message": "Too many" }"#, None, "Too many"),
        (
            r#"{ "code": "RATE_LIMITED" }"#,
            Some("rate_limited"),
            "Request failed",
        ),
        (
            r#"{ "error": { "code": "X" }, "message": "m" }"#,
            Some("x"),
            "m",
        ),
        (
            r#"{ "error": { "message": "inner" }, "code": "Outer" }"#,
            Some("outer"),
            "inner",
        ),
        // Empty strings count as absent (JS `||`).
        (
            r#"{ "error": { "code": "", "message": "" }, "code": "Y", "message": "z" }"#,
            Some("y"),
            "z",
        ),
        (r#"{ "error": null }"#, None, "Request failed"),
        (
            r#"{ "error": { "code": 429 } }"#,
            Some("429"),
            "Request failed",
        ),
        (
            r#"{ "error": { "message": { "nested": true } } }"#,
            None,
            "Request failed",
        ),
        // Rule 3: not JSON / not an object.
        ("<html>Bad gateway</html>", None, "Request failed"),
        ("", None, "Request failed"),
        ("[1,2]", None, "Request failed"),
        (r#""just a string""#, None, "Request failed"),
    ];
    for (body, code, msg) in cases {
        let e = ApiError::from_body(409, body);
        assert_eq!(e.status, 409, "{body}");
        assert_eq!(e.code.as_deref(), *code, "{body}");
        assert_eq!(e.server_message, *msg, "{body}");
    }
}

#[test]
fn section2_codes_compare_case_insensitively_and_map_to_fluent_ids() {
    let e = ApiError::from_body(
        409,
        r#"{"error":{"code":"PENDING_ACTION","message":"busy"}}"#,
    );
    assert!(e.code_is("pending_action"));
    assert!(e.code_is("PENDING_ACTION"));
    assert!(!e.code_is("action_pending"));
    assert_eq!(
        e.fluent_id().as_deref(),
        Some("chat-error-code-pending-action")
    );
    let cases = [
        (
            Some("action_expired"),
            Some("chat-error-code-action-expired"),
        ),
        (Some("RATE_LIMITED"), Some("chat-error-code-rate-limited")),
        (Some("weird.code"), None),
        (None, None),
    ];
    for (code, id) in cases {
        let e = ApiError::new(400, code, "");
        assert_eq!(e.fluent_id().as_deref(), id, "{code:?}");
        assert_eq!(e.server_message, "Request failed");
    }
}

// ----- time (C30) ----------------------------------------------------------------------------

#[test]
fn c30_timestamps_iso_and_epoch() {
    let may2 = Some(Millis(1_746_180_000_000));
    let cases: Vec<(Value, Option<Millis>)> = vec![
        (json!("2025-05-02T10:00:00Z"), may2),
        (json!("2025-05-02T10:00:00.000Z"), may2),
        (json!("2025-05-02T12:00:00+02:00"), may2),
        (json!("2025-05-02T10:00:00"), may2),
        (json!("2025-05-02 10:00:00"), may2),
        (json!("2025-05-02T10:00Z"), may2),
        (json!("2025-05-02"), Some(Millis(1_746_144_000_000))),
        (json!(1_746_180_000_000u64), may2),
        (json!(1_746_180_000_000.7), may2),
        (json!("1746180000000"), may2),
        (json!(0), Some(Millis(0))),
        (json!(-5), None),
        (json!("1969-12-31T23:59:59Z"), None),
        (json!("tomorrow"), None),
        (json!(""), None),
        (json!(null), None),
        (json!(true), None),
        (json!({}), None),
    ];
    for (v, want) in cases {
        assert_eq!(parse_timestamp(&v), want, "{v}");
    }
    assert_eq!(
        format_iso(Millis(1_746_180_000_000)),
        "2025-05-02T10:00:00.000Z"
    );
    assert_eq!(format_iso(Millis(0)), "1970-01-01T00:00:00.000Z");
    // Out of calendar range: decimal ms, read back unchanged.
    let far = Millis(u64::MAX);
    assert_eq!(parse_timestamp(&json!(format_iso(far))), Some(far));
    assert_eq!(Millis(5).saturating_sub(10), Millis(0));
    assert_eq!(Millis(u64::MAX).saturating_add(1), Millis(u64::MAX));
    assert_eq!(Millis(10).saturating_since(Millis(4)), 6);
}

#[test]
fn c30_opt_iso_serde_helper() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct T {
        #[serde(default, with = "opt_iso", skip_serializing_if = "Option::is_none")]
        at: Option<Millis>,
    }
    let cases = [
        (
            json!({ "at": "2025-05-02T10:00:00Z" }),
            Some(Millis(1_746_180_000_000)),
        ),
        (
            json!({ "at": 1_746_180_000_000u64 }),
            Some(Millis(1_746_180_000_000)),
        ),
        (json!({ "at": null }), None),
        (json!({ "at": "garbage" }), None),
        (json!({}), None),
    ];
    for (v, want) in cases {
        let t: T = serde_json::from_value(v.clone()).expect("never fails");
        assert_eq!(t.at, want, "{v}");
    }
    let out = serde_json::to_value(T {
        at: Some(Millis(1_746_180_000_000)),
    })
    .expect("serialises");
    assert_eq!(out, json!({ "at": "2025-05-02T10:00:00.000Z" }));
}

// ----- §4 agents (C16) ------------------------------------------------------------------------

#[test]
fn section4_agent_info_example() {
    let a: AgentInfo = serde_json::from_value(json!({
        "id": "ops", "name": "Ops", "description": "Runs chores", "version": "1.2.0",
        "metadata": { "enableFileUpload": true, "pendingActionComposerMode": "cancel" },
        "capabilities": { "approvalArgsEdit": true } }))
    .expect("parses");
    assert_eq!(a.id, "ops");
    assert_eq!(a.display_name(), "Ops");
    assert_eq!(a.description.as_deref(), Some("Runs chores"));
    assert_eq!(a.version.as_deref(), Some("1.2.0"));
    assert_eq!(a.metadata.enable_file_upload(), Some(true));
    assert_eq!(
        a.metadata.pending_action_composer_mode(),
        Some(ComposerMode::Cancel)
    );
    assert_eq!(a.capabilities.approval_args_edit, Some(true));
}

#[test]
fn c16_agent_metadata_getters_are_tolerant() {
    let a: AgentInfo = serde_json::from_value(json!({
        "id": "x", "name": null, "description": 5,
        "metadata": { "enableFileUpload": "yes", "pendingActionComposerMode": "sideways",
                      "allowedFileTypes": ["image/*", 3, " text/plain "], "maxFileSize": -1,
                      "maxFiles": 2.9, "custom": { "k": 1 } },
        "capabilities": { "approvalArgsEdit": "true" } }))
    .expect("never fails on odd values");
    assert_eq!(a.display_name(), "x");
    assert_eq!(a.description, None);
    assert_eq!(a.metadata.enable_file_upload(), None);
    assert_eq!(a.metadata.pending_action_composer_mode(), None);
    assert_eq!(
        a.metadata.allowed_file_types(),
        Some(vec!["image/*".to_owned(), "text/plain".to_owned()])
    );
    assert_eq!(a.metadata.max_file_size(), None);
    assert_eq!(a.metadata.max_files(), Some(2));
    assert_eq!(a.metadata.get("custom"), Some(&json!({ "k": 1 })));
    assert_eq!(a.capabilities.approval_args_edit, None);

    let modes = [
        (json!("block"), Some(ComposerMode::Block)),
        (json!("CANCEL"), Some(ComposerMode::Cancel)),
        (json!(1), None),
        (json!(null), None),
    ];
    for (v, want) in modes {
        let a: AgentInfo = serde_json::from_value(
            json!({ "id": "x", "name": "X", "metadata": { "pendingActionComposerMode": v } }),
        )
        .expect("parses");
        assert_eq!(a.metadata.pending_action_composer_mode(), want);
    }
    // null / wrong-typed containers.
    let a: AgentInfo = serde_json::from_value(
        json!({ "id": "x", "name": "X", "metadata": null, "capabilities": [] }),
    )
    .expect("parses");
    assert!(a.metadata.is_empty());
    assert_eq!(a.capabilities.approval_args_edit, None);
    assert_eq!(
        serde_json::to_value(&a).expect("ser"),
        json!({ "id": "x", "name": "X" })
    );
}

#[test]
fn e1_agent_list_drops_unreadable_entries() {
    let l: AgentList = serde_json::from_value(json!({ "agents": [
        { "id": "a", "name": "A" }, { "name": "no id" }, "junk", { "id": 7, "name": "Seven" } ] }))
    .expect("parses");
    let ids: Vec<&str> = l.agents.iter().map(|a| a.id.as_str()).collect();
    assert_eq!(ids, ["a", "7"]);
    let empty: AgentList = serde_json::from_str("{}").expect("parses");
    assert!(empty.agents.is_empty());
}

// ----- §4 conversations, E3–E6, C23 ----------------------------------------------------------

fn conversation_json() -> Value {
    json!({ "id": "conv_V1StGXR8Z5jdHi6BmyT2a", "agentId": "ops", "userId": "u1", "title": "Disk cleanup",
      "metadata": {}, "state": {}, "createdAt": "2025-05-01T10:00:00.000Z", "updatedAt": "2025-05-01T10:02:00.000Z" })
}

#[test]
fn section4_conversation_example() {
    let c: Conversation = serde_json::from_value(conversation_json()).expect("parses");
    assert_eq!(c.id, "conv_V1StGXR8Z5jdHi6BmyT2a");
    assert_eq!(c.agent_id, "ops");
    assert_eq!(c.user_id.as_deref(), Some("u1"));
    assert_eq!(c.title.as_deref(), Some("Disk cleanup"));
    assert_eq!(
        c.created_at,
        parse_timestamp(&json!("2025-05-01T10:00:00.000Z"))
    );
    assert_eq!(
        c.updated_at,
        parse_timestamp(&json!("2025-05-01T10:02:00.000Z"))
    );
    // Round trip keeps the ISO form.
    assert_eq!(serde_json::to_value(&c).expect("ser"), conversation_json());
    // Null optionals.
    let c: Conversation = serde_json::from_value(json!({
        "id": "c", "agentId": "a", "userId": null, "title": null, "metadata": null,
        "state": null, "createdAt": null, "updatedAt": null, "extra": [1] }))
    .expect("nulls accepted");
    assert_eq!((c.title, c.created_at, c.state), (None, None, None));
}

#[test]
fn e3_conversation_list() {
    let mut item = conversation_json();
    item["agentName"] = json!("Ops");
    let l: ConversationList = serde_json::from_value(json!({
        "conversations": [item, { "title": "no id" }], "total": 41, "limit": 20, "offset": 20, "hasMore": true }))
    .expect("parses");
    assert_eq!(l.conversations.len(), 1);
    assert_eq!(l.conversations[0].agent_name.as_deref(), Some("Ops"));
    assert_eq!(l.conversations[0].title.as_deref(), Some("Disk cleanup")); // Deref
    assert_eq!((l.total, l.limit, l.offset, l.has_more), (41, 20, 20, true));
}

#[test]
fn c23_conversation_and_file_envelopes_wrapped_or_bare() {
    let wrapped = json!({ "conversation": conversation_json() }).to_string();
    let bare = conversation_json().to_string();
    for body in [&wrapped, &bare] {
        let c = ConversationEnvelope::parse("PATCH /conversations/:id", body).expect("parses");
        assert_eq!(c.id, "conv_V1StGXR8Z5jdHi6BmyT2a");
    }
    assert_eq!(
        ConversationEnvelope::parse("E6", ""),
        Err(ProtocolError::EmptyBody {
            endpoint: "E6".into()
        })
    );
    assert!(matches!(
        ConversationEnvelope::parse("E6", "{\"conversation\":{}}"),
        Err(ProtocolError::BadBody { .. })
    ));

    let file = json!({ "id": "file_1", "name": "a.txt", "mimeType": "text/plain", "size": 5,
        "storageKey": "k/1", "conversationId": "c", "createdAt": "2025-05-01T10:00:00.000Z" });
    for v in [json!({ "file": file.clone() }), file] {
        let f: FileEnvelope = serde_json::from_value(v).expect("parses");
        assert_eq!(f.file.id, "file_1");
        assert_eq!(f.file.mime_type, "text/plain");
        assert_eq!(f.file.size, 5);
    }
    // 204 / empty body = success without a value (C23).
    assert_eq!(decode_optional_body::<Conversation>("DELETE", ""), Ok(None));
    assert_eq!(
        decode_optional_body::<Conversation>("DELETE", "  \n"),
        Ok(None)
    );
    assert!(decode_body::<AgentList>("GET /agents", "nope").is_err());
}

#[test]
fn e5_conversation_with_messages_and_pending_actions() {
    let body = json!({
        "conversation": conversation_json(),
        "messages": [ { "id": "m1", "role": "user", "content": "hi" }, { "no": "id" } ],
        "pendingActions": [
            { "id": "act_1", "type": "tool_approval", "toolName": "shell_run" },
            { "id": "act_2", "type": "teleport", "where": "mars" },
            { "type": "tool_approval", "toolName": "no id" },
            42
        ]
    });
    let c: ConversationWithMessages = serde_json::from_value(body).expect("parses");
    assert_eq!(c.messages.len(), 1);
    let p = c.pending_actions.expect("key present");
    assert_eq!(p.len(), 2);
    assert!(matches!(p[0].kind, ActionKind::ToolApproval(_)));
    assert_eq!(p[1].kind, ActionKind::Unknown("teleport".into()));

    // §9.6 step 1: absent key (or null) → None, so the client falls back to message metadata.
    for extra in [json!({}), json!({ "pendingActions": null })] {
        let mut body = json!({ "conversation": conversation_json(), "messages": [] });
        if let (Value::Object(b), Value::Object(e)) = (&mut body, extra) {
            b.extend(e);
        }
        let c: ConversationWithMessages = serde_json::from_value(body).expect("parses");
        assert_eq!(c.pending_actions, None);
    }
    let c: ConversationWithMessages = serde_json::from_value(
        json!({ "conversation": conversation_json(), "messages": [], "pendingActions": [] }),
    )
    .expect("parses");
    assert_eq!(c.pending_actions, Some(Vec::new()));

    // X6: messages nested inside the conversation.
    let mut nested = conversation_json();
    nested["messages"] = json!([{ "id": "m1", "role": "assistant", "content": "x" }]);
    let c: ConversationWithMessages =
        serde_json::from_value(json!({ "conversation": nested })).expect("parses");
    assert_eq!(c.messages.len(), 1);
}

#[test]
fn e8_messages_page() {
    let p: MessagesPage = serde_json::from_value(json!({
        "messages": [{ "id": "m1", "role": "user", "content": "a" }],
        "total": 1, "limit": 100, "offset": 0, "hasMore": false }))
    .expect("parses");
    assert_eq!(p.messages.len(), 1);
    assert_eq!(p.limit, 100);
}

// ----- §4 / §7 messages ---------------------------------------------------------------------

#[test]
fn section4_message_example() {
    let m: Message = serde_json::from_value(json!({
        "id": "msg_1", "conversationId": "conv_1", "role": "assistant", "content": "Done.",
        "toolCalls": [{ "id": "call_1", "name": "shell_run", "arguments": "{\"path\":\"./build\"}" }],
        "files": [], "metadata": {},
        "createdAt": "2025-05-01T10:02:00.000Z", "updatedAt": "2025-05-01T10:02:00.000Z" }))
    .expect("parses");
    assert_eq!(m.role, Role::Assistant);
    assert_eq!(m.conversation_id, "conv_1");
    assert_eq!(m.display_text(), "Done.");
    assert_eq!(m.tool_calls[0].name, "shell_run");
    assert_eq!(m.tool_calls[0].arguments, "{\"path\":\"./build\"}");
    assert_eq!(
        m.tool_calls[0].arguments_value(),
        json!({ "path": "./build" })
    );
    assert_eq!(m.created_at, Some(Millis(1_746_093_720_000)));
}

#[test]
fn section4_message_tolerance() {
    let m: Message = serde_json::from_value(json!({
        "id": "m", "role": "Narrator", "content": null, "toolCalls": null, "toolCallId": null,
        "name": null, "files": null, "citations": null, "metadata": null, "createdAt": 1714557600000u64,
        "unknownField": true }))
    .expect("nulls everywhere accepted");
    assert_eq!(m.role, Role::Other("Narrator".into()));
    assert_eq!(m.role.as_str(), "Narrator");
    assert_eq!(m.display_text(), "");
    assert_eq!(m.created_at, Some(Millis(1_714_557_600_000)));
    let roles = [
        ("user", Role::User),
        ("ASSISTANT", Role::Assistant),
        ("system", Role::System),
        ("tool", Role::Tool),
    ];
    for (s, want) in roles {
        assert_eq!(Role::parse(s), want);
    }
    let m: Message = serde_json::from_value(json!({ "id": "m" })).expect("role missing is fine");
    assert_eq!(m.role, Role::Other(String::new()));
    assert!(serde_json::from_value::<Message>(json!({ "role": "user" })).is_err());

    // OpenAI nested tool calls and object arguments.
    let m: Message = serde_json::from_value(json!({ "id": "m", "role": "assistant", "toolCalls": [
        { "id": "c1", "type": "function", "function": { "name": "f", "arguments": "{}" } },
        { "id": "c2", "name": "g", "arguments": { "a": 1 } },
        "junk" ] }))
    .expect("parses");
    assert_eq!(m.tool_calls.len(), 2);
    assert_eq!(m.tool_calls[0].name, "f");
    assert_eq!(m.tool_calls[1].arguments, "{\"a\":1}");
}

#[test]
fn section4_content_parts() {
    let m: Message = serde_json::from_value(json!({ "id": "m", "role": "user", "content": [
        { "type": "text", "text": "Look at " },
        { "type": "image_url", "image_url": { "url": "https://x/y.png", "detail": "low" } },
        { "type": "file", "file": { "id": "file_1", "name": "a.pdf", "mimeType": "application/pdf" } },
        { "type": "audio", "data": "…" },
        { "type": "text", "text": "this." } ] }))
    .expect("parses");
    assert_eq!(m.display_text(), "Look at this.");
    let MessageContent::Parts(parts) = &m.content else {
        panic!("parts expected");
    };
    assert_eq!(
        parts[1],
        ContentPart::ImageUrl {
            url: "https://x/y.png".into(),
            detail: Some("low".into())
        }
    );
    assert!(matches!(&parts[2], ContentPart::File { name: Some(n), .. } if n == "a.pdf"));
    assert_eq!(
        parts[3],
        ContentPart::Other(json!({ "type": "audio", "data": "…" }))
    );
    // Parts serialise back to the same JSON.
    let back = serde_json::to_value(&m.content).expect("ser");
    assert_eq!(back[3], json!({ "type": "audio", "data": "…" }));
    assert_eq!(back[1]["image_url"]["url"], "https://x/y.png");
    assert_eq!(MessageContent::from("x").display_text(), "x");
}

#[test]
fn section7_tool_call_details_and_duration() {
    let m: Message = serde_json::from_value(json!({ "id": "m", "role": "assistant", "content": "ok",
        "metadata": { "toolCallDetails": [
            { "id": "call_9", "name": "get_weather", "args": { "city": "Izmir" }, "result": { "tempC": 24 } },
            { "id": "call_10", "name": "pending_tool", "args": "{\"x\":1}" },
            "junk" ],
          "toolCallDurationSeconds": 2.6 } }))
    .expect("parses");
    let d = m.tool_call_details();
    assert_eq!(
        d,
        vec![
            ToolCallDetail {
                id: "call_9".into(),
                name: "get_weather".into(),
                args: json!({ "city": "Izmir" }),
                result: Some(json!({ "tempC": 24 })),
                ..ToolCallDetail::default()
            },
            ToolCallDetail {
                id: "call_10".into(),
                name: "pending_tool".into(),
                args: json!({ "x": 1 }),
                result: None,
                ..ToolCallDetail::default()
            },
        ]
    );
    assert_eq!(m.tool_call_duration_seconds(), Some(3));
    let mut m2 = Message {
        id: "m2".into(),
        ..Message::default()
    };
    assert!(m2.tool_call_details().is_empty());
    assert_eq!(m2.tool_call_duration_seconds(), None);
    m2.set_tool_call_details(&d, Some(4));
    assert_eq!(m2.tool_call_details(), d);
    assert_eq!(m2.tool_call_duration_seconds(), Some(4));
    let bad: Message = serde_json::from_value(json!({ "id": "m", "metadata": {
        "toolCallDetails": { "not": "a list" }, "toolCallDurationSeconds": -1 } }))
    .expect("parses");
    assert!(bad.tool_call_details().is_empty());
    assert_eq!(bad.tool_call_duration_seconds(), None);
}

// ----- §5 sending ---------------------------------------------------------------------------

#[test]
fn section5_send_message_request_serialises_like_example() {
    let r = SendMessageRequest {
        message: "Summarise this".into(),
        files: vec![UploadFile {
            name: "a.txt".into(),
            content: "aGVsbG8=".into(),
            mime_type: "text/plain".into(),
        }],
        metadata: Some(serde_json::Map::new()),
        stream: true,
    };
    assert_eq!(
        serde_json::to_value(&r).expect("ser"),
        json!({ "message": "Summarise this", "files": [{ "name": "a.txt", "content": "aGVsbG8=", "mimeType": "text/plain" }],
                "metadata": {}, "stream": true })
    );
    let minimal = SendMessageRequest {
        message: "hi".into(),
        ..SendMessageRequest::default()
    };
    assert_eq!(
        serde_json::to_value(&minimal).expect("ser"),
        json!({ "message": "hi", "stream": false })
    );
    // X2: `streaming` read as an alias.
    let r: SendMessageRequest =
        serde_json::from_value(json!({ "message": "x", "streaming": true })).expect("parses");
    assert!(r.stream);
}

#[test]
fn section5_and_c6_send_message_response() {
    let r: SendMessageResponse = serde_json::from_value(json!({
        "message": { "id": "msg_u", "role": "user", "content": "hi" },
        "response": { "id": "msg_a", "role": "assistant", "content": "hello" },
        "conversationTitle": "Greeting", "usage": { "inputTokens": 3, "outputTokens": 4, "totalTokens": 7 } }))
    .expect("parses");
    assert_eq!(r.message.id, "msg_u");
    assert_eq!(r.response.display_text(), "hello");
    assert_eq!(r.conversation_title.as_deref(), Some("Greeting"));
    assert_eq!(r.usage.and_then(|u| u.total_tokens), Some(7));
    assert_eq!(r.status, None);
    assert_eq!(r.pending_actions, None);

    let r: SendMessageResponse = serde_json::from_value(json!({
        "message": { "id": "msg_u", "role": "user", "content": "hi" },
        "response": { "id": "msg_a", "role": "assistant", "content": "need ok" },
        "status": "requires_action",
        "pendingActions": [{ "id": "act_1", "type": "tool_approval", "toolName": "deploy" }] }))
    .expect("parses");
    assert_eq!(r.status, Some(TurnStatus::RequiresAction));
    assert_eq!(r.pending_actions.map(|p| p.len()), Some(1));
    // Both messages are required (§5): their absence is a protocol error, not a silent default.
    assert!(decode_body::<SendMessageResponse>("POST /conversations/:id/messages", "{}").is_err());
}

#[test]
fn e4_e6_request_bodies() {
    let c = CreateConversationRequest {
        agent_id: "ops".into(),
        ..CreateConversationRequest::default()
    };
    assert_eq!(
        serde_json::to_value(&c).expect("ser"),
        json!({ "agentId": "ops" })
    );
    let u = UpdateConversationRequest {
        title: Some("New".into()),
        metadata: None,
    };
    assert_eq!(
        serde_json::to_value(&u).expect("ser"),
        json!({ "title": "New" })
    );
}

#[test]
fn turn_status_values() {
    let cases = [
        ("completed", TurnStatus::Completed),
        ("requires_action", TurnStatus::RequiresAction),
        ("running", TurnStatus::Running),
        ("paused", TurnStatus::RequiresAction), // C31 Cogitator
        ("queued", TurnStatus::Other("queued".into())),
    ];
    for (s, want) in cases {
        assert_eq!(TurnStatus::parse(s), want);
    }
    assert_eq!(TurnStatus::Other("queued".into()).as_str(), "queued");
}

// ----- §9.1 pending actions -------------------------------------------------------------------

#[test]
fn section9_1_common_example() {
    let a = action(
        json!({ "id": "act_1", "type": "tool_approval", "status": "pending",
        "expiresAt": "2025-05-02T10:00:00Z", "messageId": "msg_a1", "toolCallId": "call_7",
        "createdAt": "2025-05-01T10:00:00Z", "toolName": "deploy" }),
    );
    assert_eq!(a.id, "act_1");
    assert!(a.is_open());
    assert_eq!(a.expires_at, Some(Millis(1_746_180_000_000)));
    assert_eq!(a.message_id.as_deref(), Some("msg_a1"));
    assert_eq!(a.tool_call_id.as_deref(), Some("call_7"));
    assert_eq!(a.created_at, Some(Millis(1_746_093_600_000)));
    assert!(a.kind.is_person_facing());
    assert_eq!(a.kind.type_name(), "tool_approval");
}

#[test]
fn section9_1_kind_alias_and_unknown_types() {
    // (json, expected type name)
    let cases = [
        (
            json!({ "id": "a", "type": "tool_approval", "toolName": "t" }),
            "tool_approval",
        ),
        (
            json!({ "id": "a", "kind": "tool_approval", "toolName": "t" }),
            "tool_approval",
        ),
        (
            json!({ "id": "a", "kind": "user_question", "questions": ["Why?"] }),
            "user_question",
        ),
        (
            json!({ "id": "a", "type": "client_tool", "toolName": "pick_file", "args": {} }),
            "client_tool",
        ),
        (
            json!({ "id": "a", "type": "Tool-Approval", "toolName": "t" }),
            "tool_approval",
        ),
        (json!({ "id": "a", "type": "teleport" }), "teleport"),
        (json!({ "id": "a" }), ""),
        (json!({ "id": "a", "type": 5 }), ""),
    ];
    for (v, want) in cases {
        let a = action(v.clone());
        assert_eq!(a.kind.type_name(), want, "{v}");
    }
    assert!(matches!(
        action(json!({ "id": "a", "type": "teleport" })).kind,
        ActionKind::Unknown(_)
    ));
    let ct = action(json!({ "id": "c", "type": "client_tool", "toolName": "pick_file" }));
    assert!(!ct.kind.is_person_facing());
    assert_eq!(
        ct.kind,
        ActionKind::ClientTool {
            tool_name: "pick_file".into(),
            args: json!({})
        }
    );
    for bad in [
        json!({ "type": "tool_approval" }),
        json!("act"),
        json!({ "id": "" }),
    ] {
        assert!(serde_json::from_value::<PendingAction>(bad).is_err());
    }
}

#[test]
fn section9_1_args_schema_aliases_and_precedence() {
    let s1 = json!({ "type": "object", "required": ["a"] });
    let s2 = json!({ "type": "object", "required": ["b"] });
    let s3 = json!({ "type": "object", "required": ["c"] });
    // (fields, expected schema)
    let cases: Vec<(Value, Option<Value>)> = vec![
        (
            json!({ "argsSchema": s1, "args_schema": s2, "inputSchema": s3 }),
            Some(s1.clone()),
        ),
        (
            json!({ "args_schema": s2, "inputSchema": s3 }),
            Some(s2.clone()),
        ),
        (json!({ "inputSchema": s3 }), Some(s3.clone())),
        (
            json!({ "argsSchema": null, "inputSchema": s3 }),
            Some(s3.clone()),
        ),
        (
            json!({ "inputSchema": s3, "args_schema": s2 }),
            Some(s2.clone()),
        ),
        (json!({}), None),
    ];
    for (fields, want) in cases {
        let mut v = json!({ "id": "a", "type": "tool_approval", "toolName": "t" });
        if let (Value::Object(m), Value::Object(f)) = (&mut v, fields.clone()) {
            m.extend(f);
        }
        let ActionKind::ToolApproval(t) = action(v).kind else {
            panic!("tool approval expected");
        };
        assert_eq!(t.args_schema, want, "{fields}");
    }
}

#[test]
fn section9_1_tool_approval_fields_and_defaults() {
    let ActionKind::ToolApproval(t) = action(json!({ "id": "a", "type": "tool_approval",
        "toolName": "deploy", "title": "Deploy v2", "summary": "Pushes to prod" }))
    .kind
    else {
        panic!()
    };
    assert_eq!(
        t,
        ToolApproval {
            tool_name: "deploy".into(),
            args: json!({}),
            args_schema: None,
            title: Some("Deploy v2".into()),
            summary: Some("Pushes to prod".into()),
            read_only_args: vec![],
            host_read_only_args: vec![],
            args_editable: None,
            decline: None,
        }
    );
    // args as a JSON string (docs form), null args.
    let ActionKind::ToolApproval(t) = action(json!({ "id": "a", "type": "tool_approval",
        "toolName": "x", "args": "{\"n\":1}" }))
    .kind
    else {
        panic!()
    };
    assert_eq!(t.args, json!({ "n": 1 }));
    let ActionKind::ToolApproval(t) =
        action(json!({ "id": "a", "type": "tool_approval", "toolName": "x", "args": null })).kind
    else {
        panic!()
    };
    assert_eq!(t.args, json!({}));
}

#[test]
fn c30_expires_at_iso_epoch_and_garbage() {
    let cases = [
        (
            json!("2025-05-02T10:00:00Z"),
            Some(Millis(1_746_180_000_000)),
        ),
        (json!(1_746_180_000_000u64), Some(Millis(1_746_180_000_000))),
        (json!("soon"), None),
        (json!(null), None),
    ];
    for (v, want) in cases {
        let a =
            action(json!({ "id": "a", "type": "tool_approval", "toolName": "t", "expiresAt": v }));
        assert_eq!(a.expires_at, want);
    }
}

#[test]
fn section9_1_status_vocabulary() {
    let cases = [
        (json!(null), ActionStatus::Pending),
        (json!("pending"), ActionStatus::Pending),
        (json!("resolved"), ActionStatus::Resolved),
        (json!("cancelled"), ActionStatus::Cancelled),
        (json!("canceled"), ActionStatus::Cancelled),
        (json!("expired"), ActionStatus::Expired),
        (json!("approved"), ActionStatus::Resolved), // SDK
        (json!("executed"), ActionStatus::Resolved), // SDK
        (json!("martian"), ActionStatus::Pending),   // unknown → open (documented)
        (json!(3), ActionStatus::Pending),
    ];
    for (v, want) in cases {
        let a = action(json!({ "id": "a", "type": "tool_approval", "toolName": "t", "status": v }));
        assert_eq!(a.status, want, "{v}");
    }
}

#[test]
fn section11_versioned_and_cogitator_fields() {
    let a = action(
        json!({ "id": "a", "type": "tool_approval", "toolName": "t", "version": 3,
        "executionStatus": "executing", "sideEffects": ["writes disk"], "description": "Cleans up" }),
    );
    assert_eq!(a.version, Some(3));
    assert_eq!(a.execution_status.as_deref(), Some("executing"));
    assert_eq!(a.side_effects, Some(json!(["writes disk"])));
    let ActionKind::ToolApproval(t) = a.kind else {
        panic!()
    };
    assert_eq!(t.summary.as_deref(), Some("Cleans up"));
}

#[test]
fn section9_1_questions_and_c14_free_text() {
    let ActionKind::UserQuestion(q) = action(json!({ "id": "q", "type": "user_question",
        "questions": [
            { "question": "Deploy target?", "header": "Target",
              "options": [{ "label": "EU", "value": "eu-west", "description": "d", "preview": "p" }, { "label": "US" }, "Asia", {}] },
            { "question": "Name?", "placeholder": "…", "required": false },
            { "header": "no text" },
            "Bare question?" ] }))
    .kind
    else {
        panic!()
    };
    assert_eq!(q.questions.len(), 3);
    let q0 = &q.questions[0];
    assert_eq!(q0.header.as_deref(), Some("Target"));
    assert_eq!(q0.options.len(), 3);
    assert_eq!(q0.options[0].value, "eu-west");
    assert_eq!(q0.options[0].preview.as_deref(), Some("p"));
    assert_eq!(q0.options[1].value, "US");
    assert_eq!(
        (q0.options[2].label.as_str(), q0.options[2].value.as_str()),
        ("Asia", "Asia")
    );
    assert!(!q0.multi_select);
    assert!(q0.required);
    assert!(!q.questions[1].required);
    assert_eq!(q.questions[2], Question::new("Bare question?"));

    // C14: (has options, question value, action value) → offered
    let table = [
        (false, None, None, true),
        (false, Some(false), Some(false), true), // no options: always
        (true, None, None, true),
        (true, Some(false), None, false),
        (true, None, Some(false), false),
        (true, Some(true), Some(false), true), // question wins
        (true, Some(false), Some(true), false),
    ];
    for (has_options, question_level, action_level, want) in table {
        let mut q = Question::new("Q?");
        if has_options {
            q.options = Question::from_json(&json!({ "question": "x", "options": ["a"] }))
                .expect("q")
                .options;
        }
        q.allow_free_text = question_level;
        assert_eq!(
            q.offers_free_text(action_level),
            want,
            "{has_options} {question_level:?} {action_level:?}"
        );
    }
    let uq = action(
        json!({ "id": "q", "type": "user_question", "allowFreeText": false, "questions": [] }),
    );
    assert!(matches!(
        uq.kind,
        ActionKind::UserQuestion(UserQuestion {
            allow_free_text: Some(false),
            ..
        })
    ));
}

// ----- §9.2 resolutions (C8, C9) --------------------------------------------------------------

#[test]
fn section9_2_resolution_examples_round_trip_with_type() {
    let examples = [
        json!({ "type": "tool_approval", "decision": "allow", "approvedArgs": { "path": "./cache", "dryRun": false }, "rememberForSession": true }),
        json!({ "type": "tool_approval", "decision": "deny", "comment": "wrong recipient" }),
        json!({ "type": "user_question", "answers": { "Deploy target?": "eu-west", "Which checks?": ["lint", "a custom check"] } }),
        json!({ "type": "user_question", "answers": {}, "cancelled": true }),
        json!({ "type": "client_tool", "result": { "ok": true } }),
    ];
    for ex in examples {
        let r: Resolution = serde_json::from_value(ex.clone()).expect("parses");
        assert_eq!(serde_json::to_value(&r).expect("ser"), ex, "round trip");
    }
    let r: Resolution = serde_json::from_value(json!({ "type": "user_question",
        "answers": { "Deploy target?": "eu-west", "Which checks?": ["lint", "a custom check"] } }))
    .expect("parses");
    let Resolution::UserQuestion { answers, cancelled } = r else {
        panic!()
    };
    assert!(!cancelled);
    assert_eq!(
        answers["Deploy target?"],
        AnswerValue::One("eu-west".into())
    );
    assert_eq!(
        answers["Which checks?"].as_slice(),
        ["lint", "a custom check"]
    );
}

#[test]
fn c8_resolution_without_type_is_inferred() {
    // (json, hint, expected type)
    let cases: &[(Value, Option<&str>, Option<&str>)] = &[
        (json!({ "decision": "allow" }), None, Some("tool_approval")),
        (
            json!({ "approved": false, "reason": "no" }),
            None,
            Some("tool_approval"),
        ),
        (
            json!({ "answers": { "Q": "A" } }),
            None,
            Some("user_question"),
        ),
        (json!({ "cancelled": true }), None, Some("user_question")),
        (json!({ "result": 1 }), None, Some("client_tool")),
        (json!({ "error": "boom" }), None, Some("client_tool")),
        (json!({}), Some("user_question"), Some("user_question")),
        (json!({}), Some("tool_approval"), None), // no decision
        (json!({}), None, None),
        (
            json!({ "type": "mystery", "decision": "deny" }),
            None,
            Some("tool_approval"),
        ),
        (json!({ "type": "tool_approval" }), None, None),
        (json!({ "decision": "maybe" }), None, None),
        (json!("allow"), None, None),
    ];
    for (v, hint, want) in cases {
        let r = Resolution::from_json(v, *hint);
        assert_eq!(r.as_ref().map(Resolution::type_name), *want, "{v} {hint:?}");
    }
    assert_eq!(
        Resolution::from_json(&json!({ "approved": false, "reason": "no" }), None),
        Some(Resolution::deny(Some("no".into())))
    );
    let decisions = [
        ("allow", Some(Decision::Allow)),
        ("APPROVED", Some(Decision::Allow)),
        ("deny", Some(Decision::Deny)),
        ("rejected", Some(Decision::Deny)),
        ("perhaps", None),
    ];
    for (s, want) in decisions {
        assert_eq!(Decision::parse(s), want);
    }
    // C8: serialising always writes `type`.
    let v = serde_json::to_value(Resolution::allow()).expect("ser");
    assert_eq!(v, json!({ "type": "tool_approval", "decision": "allow" }));
    let v = serde_json::to_value(Resolution::skipped()).expect("ser");
    assert_eq!(
        v,
        json!({ "type": "user_question", "answers": {}, "cancelled": true })
    );
}

#[test]
fn c9_sdk_answer_form_is_read() {
    let cases = [
        (
            json!({ "values": ["eu-west"] }),
            Some(AnswerValue::One("eu-west".into())),
        ),
        (
            json!({ "values": [], "freeText": "custom" }),
            Some(AnswerValue::One("custom".into())),
        ),
        (
            json!({ "values": ["lint", "tests"], "freeText": "fuzz" }),
            Some(AnswerValue::Many(vec![
                "lint".into(),
                "tests".into(),
                "fuzz".into(),
            ])),
        ),
        (
            json!({ "values": ["lint"], "freeText": "fuzz", "notes": "n" }),
            Some(AnswerValue::Many(vec!["lint".into(), "fuzz".into()])),
        ),
        (json!({ "values": [] }), Some(AnswerValue::Many(Vec::new()))),
        (json!({ "other": 1 }), None),
        (json!("plain"), Some(AnswerValue::One("plain".into()))),
        (
            json!(["a", 2, null]),
            Some(AnswerValue::Many(vec!["a".into(), "2".into()])),
        ),
        (json!(7), Some(AnswerValue::One("7".into()))),
        (json!(null), None),
    ];
    for (v, want) in cases {
        assert_eq!(AnswerValue::from_json(&v), want, "{v}");
    }
    let r = Resolution::from_json(
        &json!({ "answers": { "Target?": { "values": ["eu"] }, "Skip?": null } }),
        None,
    )
    .expect("reads");
    let Resolution::UserQuestion { answers, .. } = r else {
        panic!()
    };
    assert_eq!(
        answers,
        BTreeMap::from([("Target?".to_owned(), AnswerValue::One("eu".into()))])
    );
}

#[test]
fn section9_5_resolve_request_and_response() {
    let req = ResolveActionRequest {
        resolution: Resolution::allow(),
        stream: true,
        version: Some(4),
        decision_key: Some("k-1".into()),
    };
    let v = serde_json::to_value(&req).expect("ser");
    assert_eq!(
        v,
        json!({ "resolution": { "type": "tool_approval", "decision": "allow" }, "stream": true, "version": 4, "decisionKey": "k-1" })
    );
    let back: ResolveActionRequest = serde_json::from_value(v).expect("parses");
    assert_eq!(back, req);
    let plain = ResolveActionRequest {
        resolution: Resolution::deny(None),
        stream: false,
        version: None,
        decision_key: None,
    };
    assert_eq!(
        serde_json::to_value(&plain).expect("ser"),
        json!({ "resolution": { "type": "tool_approval", "decision": "deny" }, "stream": false })
    );

    let r: ResolveActionResponse = serde_json::from_value(json!({
        "action": { "id": "act_1", "type": "tool_approval", "toolName": "shell_run", "status": "resolved",
                    "resolution": { "decision": "allow" } },
        "status": "running" }))
    .expect("parses");
    let a = r.action.expect("action");
    assert_eq!(a.status, ActionStatus::Resolved);
    assert_eq!(a.resolution, Some(Resolution::allow()));
    assert_eq!(r.status, Some(TurnStatus::Running));
    assert_eq!(r.message, None);
    let r: ResolveActionResponse = serde_json::from_value(json!({
        "action": { "id": "act_1", "type": "tool_approval", "toolName": "x" },
        "status": "completed", "message": { "id": "msg_a2", "role": "assistant", "content": "Removed." },
        "pendingActions": [] }))
    .expect("parses");
    assert_eq!(r.message.map(|m| m.id), Some("msg_a2".into()));
    assert_eq!(r.pending_actions, Some(Vec::new()));
}

// ----- §9.6 restoring history ----------------------------------------------------------------

#[test]
fn section9_6_settled_entries_example() {
    let m: Message = serde_json::from_value(json!({ "id": "msg_a1", "role": "assistant", "content": "…",
        "metadata": { "pendingActions": [
          { "kind": "tool_approval", "id": "a7", "toolName": "deploy", "args": { "v": "1" }, "status": "resolved",
            "resolution": { "decision": "allow", "approvedArgs": { "v": "2" }, "rememberForSession": true } },
          { "id": "a8", "type": "tool_approval", "toolName": "email", "status": "resolved",
            "resolution": { "decision": "deny" }, "resolvedBy": "system:timeout" },
          { "id": "q3", "type": "user_question", "questions": [{ "question": "Target?" }], "status": "cancelled" } ] } }))
    .expect("parses");
    let p = m.metadata_pending_actions();
    assert_eq!(p.len(), 3);
    assert_eq!(p[0].status, ActionStatus::Resolved);
    assert_eq!(
        p[0].resolution,
        Some(Resolution::ToolApproval {
            decision: Decision::Allow,
            approved_args: Some(json!({ "v": "2" })),
            remember_for_session: true,
            comment: None,
        })
    );
    assert!(!p[0].is_timed_out());
    assert_eq!(p[1].resolution, Some(Resolution::deny(None)));
    assert!(p[1].is_timed_out());
    assert_eq!(p[2].status, ActionStatus::Cancelled);
    assert!(
        matches!(&p[2].kind, ActionKind::UserQuestion(q) if q.questions[0].question == "Target?")
    );
}

#[test]
fn section9_6_action_states_on_message_and_metadata() {
    let m: Message = serde_json::from_value(json!({ "id": "m", "role": "assistant",
        "actionStates": {
            "a1": { "status": "resolved", "resolution": { "type": "user_question", "answers": { "Q": ["x", "y"] } } },
            "a2": { "status": "expired" },
            "a3": "junk" },
        "metadata": { "actionStates": { "a4": { "status": "cancelled", "resolvedBy": "user:u1" } } } }))
    .expect("parses");
    assert_eq!(m.action_states.len(), 2);
    assert_eq!(m.action_states["a2"].status, ActionStatus::Expired);
    assert!(matches!(
        &m.action_states["a1"].resolution,
        Some(Resolution::UserQuestion { answers, .. }) if answers["Q"].as_slice() == ["x", "y"]
    ));
    let meta = m.metadata_action_states();
    assert_eq!(
        meta["a4"],
        ActionStateEntry {
            status: ActionStatus::Cancelled,
            resolution: None,
            resolved_by: Some("user:u1".into()),
        }
    );
    // Written back the same way.
    let v = serde_json::to_value(&m).expect("ser");
    assert_eq!(v["actionStates"]["a2"], json!({ "status": "expired" }));
}

#[test]
fn pending_action_serialises_canonically_and_round_trips() {
    let inputs = [
        json!({ "id": "act_1", "kind": "tool_approval", "toolName": "shell_run", "args": { "path": "./cache" },
                "inputSchema": { "type": "object" }, "expiresAt": 1746180000000u64, "version": 2 }),
        json!({ "id": "q", "type": "user_question", "allowFreeText": true,
                "questions": [{ "question": "Q?", "options": [{ "label": "A" }], "multiSelect": true, "required": false }],
                "status": "resolved", "resolution": { "answers": { "Q?": "A" } } }),
        json!({ "id": "c", "type": "client_tool", "toolName": "pick", "args": { "n": 1 } }),
        json!({ "id": "u", "type": "teleport" }),
    ];
    for v in inputs {
        let a = action(v.clone());
        let out = serde_json::to_value(&a).expect("ser");
        assert_eq!(action(out.clone()), a, "{v}");
        assert!(out.get("kind").is_none());
    }
    let out = serde_json::to_value(action(
        json!({ "id": "act_1", "kind": "tool_approval", "toolName": "t",
        "args_schema": { "type": "object" }, "expiresAt": 1746180000000u64 }),
    ))
    .expect("ser");
    assert_eq!(
        out,
        json!({ "id": "act_1", "type": "tool_approval", "toolName": "t", "args": {},
                "argsSchema": { "type": "object" }, "status": "pending", "expiresAt": "2025-05-02T10:00:00.000Z" })
    );
}

// ----- §6 / §9.3 stream events (C3, C4, C5, X1, X8) -------------------------------------------

#[test]
fn section6_base_events() {
    let cases: Vec<(Value, StreamEvent)> = vec![
        (
            json!({"type":"stream.start","timestamp":1714557600000u64,"conversationId":"conv_a","messageId":"msg_u1"}),
            StreamEvent::Start {
                conversation_id: Some("conv_a".into()),
                message_id: Some("msg_u1".into()),
            },
        ),
        (
            json!({"type":"stream.text","text":"It is 24 °C","isFinal":true}),
            StreamEvent::Text {
                text: "It is 24 °C".into(),
                is_final: true,
            },
        ),
        (
            json!({"type":"stream.thinking","thinking":"hmm"}),
            StreamEvent::Thinking {
                thinking: "hmm".into(),
            },
        ),
        (
            json!({"type":"stream.tool_call","toolName":"get_weather","toolCallId":"call_9","args":{"city":"Izmir"},
                   "reasoning":"needs data","displayName":"Weather"}),
            StreamEvent::ToolCall {
                tool_call_id: "call_9".into(),
                tool_name: "get_weather".into(),
                args: json!({"city":"Izmir"}),
                reasoning: Some("needs data".into()),
                display_name: Some("Weather".into()),
            },
        ),
        (
            json!({"type":"stream.tool_result","toolName":"get_weather","toolCallId":"call_9","result":{"error":"down"}}),
            StreamEvent::ToolResult {
                tool_call_id: "call_9".into(),
                tool_name: "get_weather".into(),
                result: json!({"error":"down"}),
            },
        ),
        (
            json!({"type":"stream.progress","stage":"processing","message":"Working…","percent":40}),
            StreamEvent::Progress {
                stage: Some("processing".into()),
                message: Some("Working…".into()),
                percent: Some(40.0),
            },
        ),
        (
            json!({"type":"stream.error","error":"Conversation not found","code":"NOT_FOUND"}),
            StreamEvent::Error {
                error: "Conversation not found".into(),
                code: Some("not_found".into()),
            },
        ),
        (
            json!({"type":"stream.error","error":{"code":"ACTION_PENDING","message":"busy"}}),
            StreamEvent::Error {
                error: "busy".into(),
                code: Some("action_pending".into()),
            },
        ),
        (
            json!({"type":"stream.done","conversationId":"conv_a","messageId":"msg_a1","content":"It is 24 °C",
                   "title":"Weather","usage":{"totalTokens":42},"citations":[{"title":"Src","link":"https://s"}]}),
            StreamEvent::Done {
                conversation_id: Some("conv_a".into()),
                message_id: Some("msg_a1".into()),
                content: "It is 24 °C".into(),
                title: Some("Weather".into()),
                usage: Some(agent_chat_ui::core::Usage {
                    total_tokens: Some(42),
                    ..Default::default()
                }),
                citations: vec![agent_chat_ui::core::Citation {
                    title: Some("Src".into()),
                    link: Some("https://s".into()),
                    ..Default::default()
                }],
                status: None,
                pending_actions: None,
            },
        ),
    ];
    for (v, want) in cases {
        assert_eq!(event(v.clone()), want, "{v}");
        // Re-encoding gives the same event back.
        assert_eq!(event(want.to_json()), want, "{v}");
    }
}

#[test]
fn x8_tool_events_in_docs_form() {
    assert_eq!(
        event(
            json!({"type":"stream.tool_call","id":"c1","name":"search","arguments":"{\"q\":\"x\"}"})
        ),
        StreamEvent::ToolCall {
            tool_call_id: "c1".into(),
            tool_name: "search".into(),
            args: json!({"q":"x"}),
            reasoning: None,
            display_name: None,
        }
    );
    assert_eq!(
        event(json!({"type":"stream.tool_call","id":"c1","name":"search","arguments":"not json"})),
        StreamEvent::ToolCall {
            tool_call_id: "c1".into(),
            tool_name: "search".into(),
            args: json!("not json"),
            reasoning: None,
            display_name: None,
        }
    );
    assert_eq!(
        event(json!({"type":"stream.tool_result","id":"c1","name":"search","result":[1]})),
        StreamEvent::ToolResult {
            tool_call_id: "c1".into(),
            tool_name: "search".into(),
            result: json!([1]),
        }
    );
}

#[test]
fn x1_done_carrying_message() {
    let e = event(
        json!({"type":"stream.done","message":{"id":"msg_a9","conversationId":"conv_x","role":"assistant",
        "content":[{"type":"text","text":"Hi "},{"type":"text","text":"there"}],"citations":[{"id":"c"}]}}),
    );
    let StreamEvent::Done {
        conversation_id,
        message_id,
        content,
        citations,
        ..
    } = e
    else {
        panic!()
    };
    assert_eq!(conversation_id.as_deref(), Some("conv_x"));
    assert_eq!(message_id.as_deref(), Some("msg_a9"));
    assert_eq!(content, "Hi there");
    assert_eq!(citations.len(), 1);
    // Flat fields win over the nested message.
    let e = event(
        json!({"type":"stream.done","messageId":"flat","content":"flat text",
        "message":{"id":"nested","content":"nested text"}}),
    );
    assert!(
        matches!(e, StreamEvent::Done { message_id: Some(m), content, .. } if m == "flat" && content == "flat text")
    );
}

#[test]
fn section9_3_action_required_example() {
    let e = event(
        json!({ "type": "stream.action_required", "timestamp": 1714557601000u64, "conversationId": "conv_a",
      "messageId": "msg_a1", "action": { "id": "act_1", "type": "tool_approval", "toolName": "shell_run",
      "args": { "path": "./cache" }, "argsSchema": { "type": "object", "required": ["path"] },
      "expiresAt": "2025-05-02T10:00:00Z" } }),
    );
    let StreamEvent::ActionRequired {
        conversation_id,
        message_id,
        action,
    } = e
    else {
        panic!()
    };
    assert_eq!(conversation_id.as_deref(), Some("conv_a"));
    assert_eq!(message_id.as_deref(), Some("msg_a1"));
    assert_eq!(action.expires_at, Some(Millis(1_746_180_000_000)));
    let ActionKind::ToolApproval(t) = action.kind else {
        panic!()
    };
    assert_eq!(t.tool_name, "shell_run");
    assert_eq!(t.args, json!({ "path": "./cache" }));
    assert_eq!(
        t.args_schema,
        Some(json!({ "type": "object", "required": ["path"] }))
    );
    // An unknown action type still decodes (the session ignores it).
    let e = event(json!({"type":"stream.action_required","action":{"id":"x","kind":"teleport"}}));
    assert!(
        matches!(e, StreamEvent::ActionRequired { action, .. } if action.kind == ActionKind::Unknown("teleport".into()))
    );
}

#[test]
fn section9_3_action_resolved_example() {
    let e = event(
        json!({ "type": "stream.action_resolved", "timestamp": 1714557605000u64, "conversationId": "conv_a",
        "actionId": "act_1", "status": "resolved", "resolution": { "decision": "allow" }, "resolvedBy": "user:u1" }),
    );
    assert_eq!(
        e,
        StreamEvent::ActionResolved {
            conversation_id: Some("conv_a".into()),
            action_id: "act_1".into(),
            status: ActionStatus::Resolved,
            resolution: Some(Resolution::allow()),
            resolved_by: Some("user:u1".into()),
        }
    );
    // C18: cancel-mode settles with status cancelled; status absent → resolved.
    let cases = [
        (json!("cancelled"), ActionStatus::Cancelled),
        (json!("expired"), ActionStatus::Expired),
        (json!(null), ActionStatus::Resolved),
        (json!("pending"), ActionStatus::Resolved),
    ];
    for (s, want) in cases {
        let e = event(json!({"type":"stream.action_resolved","actionId":"a","status":s}));
        assert!(matches!(e, StreamEvent::ActionResolved { status, .. } if status == want));
    }
    // Question resolution inferred from the nested action's kind (C8).
    let e = event(
        json!({"type":"stream.action_resolved","action":{"id":"q","type":"user_question"},"resolution":{}}),
    );
    assert!(matches!(
        e,
        StreamEvent::ActionResolved { action_id, resolution: Some(Resolution::UserQuestion { .. }), .. } if action_id == "q"
    ));
}

#[test]
fn c5_done_with_pause() {
    let e = event(
        json!({"type":"stream.done","conversationId":"conv_a","messageId":"msg_a1","content":"I need approval first.",
        "status":"requires_action","pendingActions":[{"id":"act_1","type":"tool_approval","toolName":"shell_run"},
        {"id":"odd","type":"warp"},{"broken":true}]}),
    );
    let StreamEvent::Done {
        status,
        pending_actions,
        ..
    } = e
    else {
        panic!()
    };
    assert_eq!(status, Some(TurnStatus::RequiresAction));
    let p = pending_actions.expect("present");
    assert_eq!(p.len(), 2);
    assert_eq!(p[1].kind, ActionKind::Unknown("warp".into()));
}

#[test]
fn c22_type_from_event_name_and_errors() {
    // JSON `type` wins; event name used only when JSON has none.
    let e = StreamEvent::parse(r#"{"text":"x"}"#, Some("stream.text")).expect("ok");
    assert!(matches!(e, StreamEvent::Text { .. }));
    let e = StreamEvent::parse(
        r#"{"type":"stream.thinking","thinking":"t"}"#,
        Some("stream.text"),
    )
    .expect("ok");
    assert!(matches!(e, StreamEvent::Thinking { .. }));
    // Names without the `stream.` prefix are read too.
    let e = StreamEvent::parse(r#"{"text":"x"}"#, Some("text")).expect("ok");
    assert!(matches!(e, StreamEvent::Text { .. }));
    let e = StreamEvent::parse(r#"{"type":"Stream.Tool-Call","name":"t"}"#, None).expect("ok");
    assert!(matches!(e, StreamEvent::ToolCall { .. }));

    type Check = fn(&DecodeError) -> bool;
    let errors: Vec<(&str, Option<&str>, Check)> = vec![
        ("{not json", None, |e| {
            matches!(e, DecodeError::MalformedJson { .. })
        }),
        ("", None, |e| matches!(e, DecodeError::MalformedJson { .. })),
        (r#"{"text":"x"}"#, None, |e| {
            matches!(e, DecodeError::MissingType { .. })
        }),
        (r#"{"type":"","text":"x"}"#, None, |e| {
            matches!(e, DecodeError::MissingType { .. })
        }),
        ("[1,2]", None, |e| {
            matches!(e, DecodeError::MissingType { .. })
        }),
        ("[1,2]", Some("stream.text"), |e| {
            matches!(e, DecodeError::InvalidShape { .. })
        }),
        (r#"{"type":"stream.text","text":{"a":1}}"#, None, |e| {
            matches!(e, DecodeError::InvalidShape { .. })
        }),
        (r#"{"type":"stream.tool_call","args":{}}"#, None, |e| {
            matches!(e, DecodeError::InvalidShape { .. })
        }),
        (r#"{"type":"stream.tool_result","result":1}"#, None, |e| {
            matches!(e, DecodeError::InvalidShape { .. })
        }),
        (
            r#"{"type":"stream.action_required","action":"act_1"}"#,
            None,
            |e| matches!(e, DecodeError::InvalidShape { .. }),
        ),
        (
            r#"{"type":"stream.action_resolved","status":"resolved"}"#,
            None,
            |e| matches!(e, DecodeError::InvalidShape { .. }),
        ),
        (r#"{"type":"stream.done","content":5}"#, None, |e| {
            matches!(e, DecodeError::InvalidShape { .. })
        }),
    ];
    for (data, name, check) in errors {
        let r = StreamEvent::parse(data, name);
        assert!(r.as_ref().is_err_and(check), "{data:?} {name:?} → {r:?}");
        // Every error has a printable explanation.
        assert!(!r
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
            .is_empty());
    }
    // Unknown types are Ok(Unknown).
    assert_eq!(
        StreamEvent::parse(r#"{"type":"stream.heartbeat"}"#, None),
        Ok(StreamEvent::Unknown {
            type_name: "stream.heartbeat".into()
        })
    );
    assert_eq!(
        StreamEvent::parse(r#"{"data":1}"#, Some("ping")),
        Ok(StreamEvent::Unknown {
            type_name: "ping".into()
        })
    );
    // Excerpts are capped (~200 chars).
    let long = format!("{{broken {}", "x".repeat(10_000));
    let Err(DecodeError::MalformedJson { excerpt, .. }) = StreamEvent::parse(&long, None) else {
        panic!()
    };
    assert!(excerpt.chars().count() <= 201, "{}", excerpt.len());
}

#[test]
fn timed_event_carries_timestamp() {
    let t = TimedEvent::parse(
        r#"{"type":"stream.text","text":"a","timestamp":1714557600500}"#,
        None,
    )
    .expect("ok");
    assert_eq!(t.timestamp, Some(Millis(1_714_557_600_500)));
    assert_eq!(
        t.to_json(),
        json!({"type":"stream.text","text":"a","isFinal":false,"timestamp":1714557600500u64})
    );
    let t = TimedEvent::parse(
        r#"{"type":"stream.text","text":"a","timestamp":"2025-05-02T10:00:00Z"}"#,
        None,
    )
    .expect("ok");
    assert_eq!(t.timestamp, Some(Millis(1_746_180_000_000)));
    let t = TimedEvent::parse(r#"{"type":"stream.text","text":"a"}"#, None).expect("ok");
    assert_eq!(t.timestamp, None);
}

/// No input, however odd, panics a reader.
#[test]
fn odd_inputs_never_panic() {
    let odd = [
        json!(null),
        json!(1),
        json!("s"),
        json!([]),
        json!({}),
        json!({"id": null}),
        json!({"id": "x", "type": "user_question", "questions": "nope"}),
        json!({"id": "x", "type": "user_question", "questions": [null, 1, [], {"question": 5}]}),
        json!({"id": "x", "type": "tool_approval", "toolName": ["a"], "args": 5, "expiresAt": 1e300}),
        json!({"id": "x", "resolution": {"answers": [1, 2]}, "version": 1.5, "createdAt": -1}),
        json!({"messages": 5, "conversation": 5}),
        json!({"conversation": {"id": "c"}, "messages": [null, {"id": "m", "content": {"x": 1}}]}),
    ];
    for v in &odd {
        let _ = serde_json::from_value::<PendingAction>(v.clone());
        let _ = serde_json::from_value::<Message>(v.clone());
        let _ = serde_json::from_value::<ConversationWithMessages>(v.clone());
        let _ = serde_json::from_value::<Resolution>(v.clone());
        let _ = serde_json::from_value::<AgentInfo>(v.clone());
        let _ = serde_json::from_value::<SendMessageResponse>(v.clone());
        let _ = StreamEvent::from_json(v, Some("stream.done"));
        let _ = StreamEvent::from_json(v, Some("stream.action_required"));
        let _ = parse_timestamp(v);
        let _ = ApiError::from_body(500, &v.to_string());
    }
    let c: ConversationWithMessages = serde_json::from_value(odd[11].clone()).expect("parses");
    assert_eq!(c.messages.len(), 1);
}
