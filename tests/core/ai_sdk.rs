//! Issue 39: a Vercel AI SDK route behind the gateway. The fixtures are what the SDK's own
//! `streamText(...).toUIMessageStreamResponse()` answered in `test-servers/ai-sdk.mjs`
//! (recorded, ids as the server made them); the requests are `useChat`'s body, approvals
//! answered as `addToolApprovalResponse` does. Split at every byte; no browser.
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::transport::ai_sdk::{self, Decoder, MESSAGE_KEY};
use agent_chat_ui::core::transport::reply::{Delta, Reply};
use agent_chat_ui::core::transport::TransportKind;
use agent_chat_ui::core::{
    ActionKind, CardStage, CardState, ChatError, Command, ComposerMode, HttpResponse, Input,
    Method, Outcome, Resolution, Run, Shown,
};
use serde_json::{json, Value};

use crate::common::link;
use link::{text_of, Link};

const APPROVAL: &str = include_str!("../fixtures/ai_sdk/approval_request.sse");
const APPROVED: &str = include_str!("../fixtures/ai_sdk/approved.sse");
const DENIED: &str = include_str!("../fixtures/ai_sdk/denied.sse");
const ECHO: &str = include_str!("../fixtures/ai_sdk/echo.sse");
const ERROR: &str = include_str!("../fixtures/ai_sdk/error.sse");
const TOOL_FAILED: &str = include_str!("../fixtures/ai_sdk/tool_failed.sse");
const TOOL_STEP: &str = include_str!("../fixtures/ai_sdk/tool_step.sse");
const TWO: &str = include_str!("../fixtures/ai_sdk/two_approvals.sse");

const APPROVAL_ID: &str = "aitxt-MMb6BBfO5Nt2E7u3zBishirO";

/// Every way of cutting `bytes` in two reads the same deltas and leaves the same reply.
fn same_at_every_byte(bytes: &[u8]) -> (Vec<Delta>, Reply) {
    let mut whole = Decoder::new();
    let mut expected = whole.push(bytes);
    expected.extend(whole.finish());
    let ending = whole.ending();
    for cut in 1..bytes.len() {
        let mut d = Decoder::new();
        let mut got = d.push(&bytes[..cut]);
        got.extend(d.push(&bytes[cut..]));
        got.extend(d.finish());
        assert_eq!(got, expected, "split at {cut}");
        assert_eq!(d.ending(), ending, "split at {cut}");
    }
    (expected, ending)
}

#[test]
fn i39_every_recorded_stream_reads_the_same_split_at_every_byte() {
    for fixture in [
        APPROVAL,
        APPROVED,
        DENIED,
        ECHO,
        ERROR,
        TOOL_FAILED,
        TOOL_STEP,
        TWO,
    ] {
        let (deltas, _) = same_at_every_byte(fixture.as_bytes());
        assert!(!deltas.iter().any(|d| matches!(d, Delta::Skipped(_))));
    }
    let (deltas, ending) = same_at_every_byte(ECHO.as_bytes());
    assert_eq!(
        text_of(&deltas),
        "You said: hello there. This reply is streamed in small pieces."
    );
    assert_eq!(ending.content, text_of(&deltas));
    assert!(ending.pending_actions.is_none());
}

#[test]
fn i39_an_approval_request_is_a_tool_approval_card_and_the_message_keeps_its_parts() {
    let (deltas, ending) = same_at_every_byte(APPROVAL.as_bytes());
    assert_eq!(text_of(&deltas), "I will delete report.txt.");
    assert!(deltas.iter().any(
        |d| matches!(d, Delta::ToolStarted(c) if c.name == "deleteFile" && c.args == json!({"path": "report.txt"}))
    ));
    assert_eq!(
        ending.pending_actions,
        Some(
            json!([{ "id": APPROVAL_ID, "type": "tool_approval", "status": "pending",
                      "toolCallId": "call_2", "toolName": "deleteFile",
                      "args": { "path": "report.txt" } }])
        )
    );
    let parts = &ending.message_metadata[MESSAGE_KEY]["parts"];
    assert_eq!(
        parts,
        &json!([
            { "type": "step-start" },
            { "type": "text", "text": "I will delete report.txt.", "state": "done" },
            { "type": "tool-deleteFile", "toolCallId": "call_2", "state": "approval-requested",
              "input": { "path": "report.txt" }, "approval": { "id": APPROVAL_ID } }
        ])
    );
}

#[test]
fn i39_tool_steps_and_their_outputs_are_shown_and_kept() {
    let (deltas, ending) = same_at_every_byte(TOOL_STEP.as_bytes());
    let finished: Vec<&Delta> = deltas
        .iter()
        .filter(|d| matches!(d, Delta::ToolFinished { .. }))
        .collect();
    assert_eq!(
        finished,
        [&Delta::ToolFinished {
            id: "call_1".into(),
            name: "getWeather".into(),
            result: json!({"city": "Istanbul", "forecast": "sunny"}),
        }]
    );
    assert_eq!(ending.tool_calls[0].name, "getWeather");
    assert_eq!(ending.results["call_1"]["forecast"], "sunny");
    // Two steps: the tool, then the answer read as a new paragraph.
    assert!(ending.content.starts_with("getWeather done:"));
}

fn started() -> Link {
    let mut l = Link::new(TransportKind::AiSdk, vec![]);
    l.cmd(Command::Start);
    l
}

fn body_of(l: &Link) -> Value {
    serde_json::from_str(l.last_wire().body.as_deref().unwrap()).unwrap()
}

fn paused(fixture: &str, text: &str) -> (Link, String) {
    let mut l = started();
    l.cmd(Command::Send(text.into()));
    let conversation = l.session.conversation().unwrap().id.clone();
    l.stream(fixture);
    (l, conversation)
}

fn resolve(l: &mut Link, action_id: &str, resolution: Resolution) {
    let card = l
        .session
        .cards()
        .iter()
        .find(|c| c.action.id == action_id)
        .unwrap()
        .clone();
    l.cmd(Command::Resolve {
        shown: Shown::of(&card.action),
        resolution,
    });
}

fn stage_of(l: &Link, action_id: &str) -> CardStage {
    let card = l.session.cards().iter().find(|c| c.action.id == action_id);
    CardStage::of(card.expect("the card"))
}

#[test]
fn i39_a_send_is_use_chats_body_with_the_whole_conversation() {
    let mut l = started();
    l.cmd(Command::Send("hello there".into()));
    let (req, streamed) = l.wire.last().unwrap().clone();
    assert!(streamed);
    assert_eq!((req.method, req.path.as_str()), (Method::Post, ""));
    let conversation = l.session.conversation().unwrap().id.clone();
    let user_id = l.threads()[0].messages[0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        body_of(&l),
        json!({ "id": conversation, "trigger": "submit-message", "messages": [
            { "id": user_id, "role": "user", "parts": [{ "type": "text", "text": "hello there" }] }
        ] })
    );
    l.stream(ECHO);
    assert_eq!(l.session.run(), Run::Idle);
    l.cmd(Command::Send("again".into()));
    let messages = body_of(&l)["messages"].clone();
    assert_eq!(messages.as_array().unwrap().len(), 3);
    assert_eq!(messages[1]["role"], "assistant");
    assert_eq!(
        messages[1]["parts"][1]["text"],
        "You said: hello there. This reply is streamed in small pieces."
    );
    assert_eq!(messages[2]["parts"][0]["text"], "again");
}

#[test]
fn i39_approving_sends_the_conversation_again_with_the_approval_and_the_card_completes() {
    let (mut l, conversation) = paused(APPROVAL, "please delete report.txt");
    assert_eq!(l.session.run(), Run::AwaitingAction);
    let card = l.session.cards()[0].clone();
    assert_eq!(card.action.id, APPROVAL_ID);
    assert!(
        matches!(&card.action.kind, ActionKind::ToolApproval(t) if t.tool_name == "deleteFile")
    );
    assert!(l.session.can_resolve(&card));
    assert!(!l.session.argument_edit_allowed());
    assert!(!l.session.remember_allowed());
    assert_eq!(l.session.composer_mode(), ComposerMode::Cancel);
    let before = body_of(&l);
    resolve(&mut l, APPROVAL_ID, Resolution::allow());
    let user = before["messages"][0].clone();
    let assistant_id = l.threads()[0].messages[1]["id"].clone();
    assert_eq!(
        body_of(&l),
        json!({ "id": conversation, "trigger": "submit-message", "messageId": assistant_id,
            "messages": [user, { "id": assistant_id, "role": "assistant", "parts": [
                { "type": "step-start" },
                { "type": "text", "text": "I will delete report.txt.", "state": "done" },
                { "type": "tool-deleteFile", "toolCallId": "call_2",
                  "state": "approval-responded", "input": { "path": "report.txt" },
                  "approval": { "id": APPROVAL_ID, "approved": true } } ] }] })
    );
    l.stream(&APPROVED.replace("call_1", "call_2"));
    assert_eq!(
        l.session.cards()[0].state,
        CardState::Settled(Outcome::Approved { remembered: false })
    );
    assert_eq!(stage_of(&l, APPROVAL_ID), CardStage::Completed);
    assert_eq!(
        l.session.cards()[0].action.execution_result,
        Some(json!({"deleted": "report.txt"}))
    );
    assert_eq!(l.session.run(), Run::Idle);
    // A reload reads the same stage.
    let mut again = Link::new(TransportKind::AiSdk, l.stored_threads());
    again.cmd(Command::Start);
    again.cmd(Command::OpenConversation(conversation.clone()));
    assert_eq!(stage_of(&again, APPROVAL_ID), CardStage::Completed);
    // The next turn carries the tool's output on the message that asked (as useChat holds it).
    again.cmd(Command::Send("thanks".into()));
    let messages = body_of(&again)["messages"].clone();
    assert_eq!(
        messages.as_array().unwrap().len(),
        3,
        "one assistant message"
    );
    let tool = &messages[1]["parts"][2];
    assert_eq!(tool["state"], "output-available");
    assert_eq!(tool["output"], json!({"deleted": "report.txt"}));
    assert_eq!(
        tool["approval"],
        json!({"id": APPROVAL_ID, "approved": true})
    );
}

#[test]
fn i39_denying_carries_the_reason_and_the_tool_is_not_run() {
    let (mut l, _) = paused(APPROVAL, "please delete report.txt");
    resolve(
        &mut l,
        APPROVAL_ID,
        Resolution::deny(Some("keep it, it is the only copy".into())),
    );
    let part = body_of(&l)["messages"][1]["parts"][2].clone();
    assert_eq!(part["state"], "approval-responded");
    assert_eq!(
        part["approval"],
        json!({"id": APPROVAL_ID, "approved": false, "reason": "keep it, it is the only copy"})
    );
    l.stream(&DENIED.replace("call_1", "call_2"));
    assert_eq!(stage_of(&l, APPROVAL_ID), CardStage::Denied);
    assert!(l
        .session
        .messages()
        .last()
        .unwrap()
        .content
        .display_text()
        .contains("I did not run deleteFile: keep it."));
}

#[test]
fn i39_a_failed_tool_reads_failed_in_the_servers_words() {
    let (mut l, _) = paused(&APPROVAL.replace("call_2", "call_9"), "format the disk");
    resolve(&mut l, APPROVAL_ID, Resolution::allow());
    l.stream(TOOL_FAILED);
    assert_eq!(
        stage_of(&l, APPROVAL_ID),
        CardStage::Failed {
            message: Some("The disk is read-only".into())
        }
    );
}

#[test]
fn i39_a_turns_approvals_go_together_as_use_chat_sends_them() {
    let (mut l, _) = paused(TWO, "clean up please");
    let ids: Vec<String> = l
        .session
        .cards()
        .iter()
        .map(|c| c.action.id.clone())
        .collect();
    assert_eq!(ids.len(), 2);
    let sent = l.wire.len();
    resolve(&mut l, &ids[0], Resolution::deny(Some("not a.txt".into())));
    assert_eq!(
        l.wire.len(),
        sent,
        "the server cannot go on with one answer"
    );
    assert!(matches!(
        l.session.cards()[0].state,
        CardState::Settled(Outcome::Denied { .. })
    ));
    assert_eq!(l.session.cards()[1].state, CardState::Waiting);
    resolve(&mut l, &ids[1], Resolution::allow());
    assert_eq!(l.wire.len(), sent + 1);
    let parts = body_of(&l)["messages"][1]["parts"].clone();
    let approvals: Vec<Value> = parts
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["approval"].is_object())
        .map(|p| json!([p["state"], p["approval"]]))
        .collect();
    assert_eq!(
        approvals,
        [
            json!(["approval-responded", {"id": ids[0], "approved": false, "reason": "not a.txt"}]),
            json!(["approval-responded", {"id": ids[1], "approved": true}]),
        ]
    );
}

#[test]
fn i39_a_new_message_leaves_the_waiting_approvals_behind() {
    let (mut l, _) = paused(APPROVAL, "please delete report.txt");
    l.cmd(Command::Send("never mind".into()));
    let body = body_of(&l);
    // The part still asks: the server drops it, as for useChat.
    assert_eq!(
        body["messages"][1]["parts"][2]["state"],
        "approval-requested"
    );
    assert_eq!(body["messages"][2]["parts"][0]["text"], "never mind");
    l.stream(ECHO);
    assert_eq!(
        l.session.cards()[0].state,
        CardState::Settled(Outcome::Cancelled)
    );
}

#[test]
fn i39_errors_read_in_the_servers_words() {
    let (l, _) = paused(ERROR, "break it");
    assert!(
        matches!(l.session.error(), Some(ChatError::Stream { message, .. }) if message == "The model is overloaded, try again later"),
        "{:?}",
        l.session.error()
    );
    let mut l = started();
    l.cmd(Command::Send("hello".into()));
    let id = l.last_wire().id;
    l.wire_input(Input::Response {
        id,
        result: Ok(HttpResponse {
            status: 500,
            body: "Missing API key for the model provider".into(),
            date: None,
            retry_after: None,
        }),
    });
    let shown = format!("{:?}", l.session.error());
    assert!(
        shown.contains("Missing API key for the model provider"),
        "{shown}"
    );
}

#[test]
fn i39_a_whole_reply_reads_like_the_stream() {
    let reply = ai_sdk::read_reply(APPROVAL).unwrap();
    assert_eq!(reply.content, "I will delete report.txt.");
    assert_eq!(reply.pending_actions.unwrap()[0]["id"], APPROVAL_ID);
    assert!(matches!(
        ai_sdk::read_reply(ERROR),
        Err(agent_chat_ui::core::transport::backend::ReadError::Refused(w)) if w.words.as_deref() == Some("The model is overloaded, try again later")
    ));
}

#[test]
fn i39_hostile_streams_never_panic_and_unknown_chunks_are_passed_over() {
    let hostile = [
        "data: {\"type\":\"text-delta\",\"id\":\"x\",\"delta\":\"no start\"}\n\n",
        "data: {\"type\":\"tool-approval-request\",\"approvalId\":\"a\",\"toolCallId\":\"nope\"}\n\n",
        "data: {\"type\":\"tool-output-available\",\"toolCallId\":5}\n\n",
        "data: {\"type\":\"tool-input-delta\",\"toolCallId\":\"c\",\"inputTextDelta\":7}\n\n",
        "data: {\"type\":\"reset-step\"}\n\ndata: {\"type\":\"text-end\",\"id\":\"x\"}\n\n",
        "data: {\"type\":\"a-later-chunk\",\"what\":1}\n\n",
        "data: [1,2]\n\ndata: {nope\n\ndata: \"text\"\n\n",
        "data: {\"type\":\"data-weather\",\"id\":\"w\",\"data\":{}}\n\ndata: {\"type\":\"data-weather\",\"id\":\"w\",\"data\":{\"t\":1}}\n\n",
        "\u{0}\u{ffff}data:\r\r\n",
    ];
    for input in hostile {
        same_at_every_byte(input.as_bytes());
    }
    let (deltas, ending) = same_at_every_byte(hostile[0].as_bytes());
    assert_eq!(text_of(&deltas), "no start");
    assert_eq!(ending.content, "no start");
    let (deltas, ending) = same_at_every_byte(hostile[1].as_bytes());
    assert!(matches!(deltas[..], [Delta::Skipped(_)]));
    assert!(ending.pending_actions.is_none(), "no call, no card");
    let (deltas, _) = same_at_every_byte(hostile[5].as_bytes());
    assert!(deltas.is_empty());
    let (_, ending) = same_at_every_byte(hostile[7].as_bytes());
    assert_eq!(
        ending.message_metadata[MESSAGE_KEY]["parts"],
        json!([{"type": "data-weather", "id": "w", "data": {"t": 1}}])
    );
}

#[test]
fn i39_ai_sdk_is_named_by_the_page() {
    assert_eq!(
        TransportKind::parse_by_name("ai-sdk"),
        Some(TransportKind::AiSdk)
    );
    assert_eq!(TransportKind::AiSdk.as_str(), "ai-sdk");
    assert!(TransportKind::AiSdk.keeps_threads());
    assert!(TransportKind::AiSdk.can_resolve());
}

#[test]
fn i39_an_approved_card_reads_executing_until_the_tools_output_arrives() {
    let (mut l, conversation) = paused(APPROVAL, "please delete report.txt");
    resolve(&mut l, APPROVAL_ID, Resolution::allow());
    let id = l.last_wire().id;
    let fixture = APPROVED.replace("call_1", "call_2");
    let (start, rest) = fixture.split_at(fixture.find("data: {\"type\":\"tool-output").unwrap());
    // The route took the answer (its first chunk) and runs the tool now.
    l.wire_input(Input::StreamChunk {
        id,
        bytes: start.as_bytes().to_vec(),
    });
    assert_eq!(stage_of(&l, APPROVAL_ID), CardStage::Executing);
    // A reload meanwhile reads the same stage.
    let mut again = Link::new(TransportKind::AiSdk, l.stored_threads());
    again.cmd(Command::Start);
    again.cmd(Command::OpenConversation(conversation));
    assert_eq!(stage_of(&again, APPROVAL_ID), CardStage::Executing);
    // Its output ends it.
    l.wire_input(Input::StreamChunk {
        id,
        bytes: rest.as_bytes().to_vec(),
    });
    l.wire_input(Input::StreamClosed { id, error: None });
    assert_eq!(stage_of(&l, APPROVAL_ID), CardStage::Completed);

    // A denied card never reads Executing: the route runs nothing.
    let (mut l, _) = paused(APPROVAL, "please delete report.txt");
    resolve(&mut l, APPROVAL_ID, Resolution::deny(Some("no".into())));
    let id = l.last_wire().id;
    l.wire_input(Input::StreamChunk {
        id,
        bytes: b"data: {\"type\":\"start\"}\n\n".to_vec(),
    });
    assert_eq!(stage_of(&l, APPROVAL_ID), CardStage::Denied);
}

/// Whether the stored record of `action_id` still says a tool runs.
fn stored_as_executing(
    threads: &[agent_chat_ui::core::transport::threads::Thread],
    action_id: &str,
) -> bool {
    threads.iter().flat_map(|t| t.messages.iter()).any(|m| {
        m["metadata"]["pendingActions"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|a| a["id"] == action_id && a["executionStatus"] == "executing")
    })
}

/// The route took the answer (its first chunk came) and runs the tool; nothing has said how
/// it went yet. The link and the answer's wire request.
fn executing() -> (Link, agent_chat_ui::core::RequestId, String) {
    let (mut l, conversation) = paused(APPROVAL, "please delete report.txt");
    resolve(&mut l, APPROVAL_ID, Resolution::allow());
    let id = l.last_wire().id;
    l.wire_input(Input::StreamChunk {
        id,
        bytes: b"data: {\"type\":\"start\"}\n\n".to_vec(),
    });
    assert_eq!(stage_of(&l, APPROVAL_ID), CardStage::Executing);
    assert!(stored_as_executing(&l.threads(), APPROVAL_ID));
    (l, id, conversation)
}

/// A reload of `l`'s stored conversation reads the card at `stage`.
fn reload_reads(l: &Link, conversation: &str, stage: CardStage) {
    let mut again = Link::new(TransportKind::AiSdk, l.stored_threads());
    again.cmd(Command::Start);
    again.cmd(Command::OpenConversation(conversation.to_owned()));
    assert_eq!(stage_of(&again, APPROVAL_ID), stage, "after a reload");
}

#[test]
fn i39_an_approved_card_whose_outcome_never_comes_reads_approved_not_executing_for_ever() {
    use agent_chat_ui::core::transport::{pump, GatewayOutput, Work};
    use agent_chat_ui::core::{Millis, TransportError};
    let approved = CardStage::Approved { edited: false };

    // The connection drops before the tool's output: the route keeps no conversation to ask,
    // so the card says what is known, the decision.
    let (mut l, id, conversation) = executing();
    l.wire_input(Input::StreamClosed {
        id,
        error: Some(TransportError::Network("connection reset".into())),
    });
    assert_eq!(stage_of(&l, APPROVAL_ID), approved);
    assert!(!stored_as_executing(&l.threads(), APPROVAL_ID));
    reload_reads(&l, &conversation, approved.clone());

    // The stream ends without the tool's output.
    let (mut l, id, conversation) = executing();
    l.wire_input(Input::StreamClosed { id, error: None });
    assert_eq!(stage_of(&l, APPROVAL_ID), approved);
    reload_reads(&l, &conversation, approved.clone());

    // The person stops the reply: the request is dropped and the record says so.
    let (mut l, id, conversation) = executing();
    l.session.handle(Millis(l.now), Input::User(Command::Stop));
    let mut saved = Vec::new();
    let aborted: Vec<_> = pump(&mut l.session, &mut l.gateway, Millis(l.now))
        .into_iter()
        .filter_map(|w| match w {
            Work::Gateway(GatewayOutput::Abort(a)) => Some(a),
            Work::Gateway(GatewayOutput::SaveThread(t)) => {
                saved.push(t);
                None
            }
            _ => None,
        })
        .collect();
    assert_eq!(aborted, vec![id]);
    l.saved.extend(saved);
    assert!(!stored_as_executing(&l.threads(), APPROVAL_ID));
    reload_reads(&l, &conversation, approved.clone());
    // The page looks again a second later, and the card on screen reads the same.
    l.now += 1_000;
    l.session.handle(Millis(l.now), Input::Timeout);
    let _ = pump(&mut l.session, &mut l.gateway, Millis(l.now));
    assert_eq!(stage_of(&l, APPROVAL_ID), approved);

    // An output that came is kept: the card completes, and the end changes nothing.
    let (mut l, id, conversation) = executing();
    let fixture = APPROVED.replace("call_1", "call_2");
    let rest = &fixture[fixture.find("data: {\"type\":\"tool-output").unwrap()..];
    l.wire_input(Input::StreamChunk {
        id,
        bytes: rest.as_bytes().to_vec(),
    });
    l.wire_input(Input::StreamClosed {
        id,
        error: Some(TransportError::Network("connection reset".into())),
    });
    assert_eq!(stage_of(&l, APPROVAL_ID), CardStage::Completed);
    reload_reads(&l, &conversation, CardStage::Completed);
}

#[test]
fn i39_a_messages_files_are_kept_with_it_and_sent_again_as_use_chat_does() {
    use agent_chat_ui::core::transport::backend::{Backend, SendCall};
    use agent_chat_ui::core::transport::reply::WireFile;
    use agent_chat_ui::core::transport::threads::Thread;
    use agent_chat_ui::core::transport::TransportOptions;

    let options = TransportOptions::default();
    let thread = Thread::new(json!({ "id": "c1" }));
    let files = [WireFile {
        name: "notes.txt".into(),
        mime_type: "text/plain".into(),
        content: "aGVsbG8=".into(),
    }];
    let send = |files: &[WireFile]| {
        let call = SendCall {
            options: &options,
            thread: &thread,
            message_id: "u1",
            text: "read this",
            files,
            stream: true,
            rpc_id: 1,
        };
        ai_sdk::AiSdk.keep_with_message(&call)
    };
    let sent = ai_sdk::user_message("u1", "read this", &files);
    assert_eq!(
        sent["parts"][0],
        json!({ "type": "file", "mediaType": "text/plain", "filename": "notes.txt",
                "url": "data:text/plain;base64,aGVsbG8=" })
    );
    assert_eq!(send(&files), Some((MESSAGE_KEY, sent.clone())));
    assert_eq!(
        send(&[]),
        None,
        "a message without files needs nothing kept"
    );
    let big = [WireFile {
        content: "A".repeat(ai_sdk::KEPT_FILE_BYTES + 4),
        ..files[0].clone()
    }];
    assert_eq!(
        send(&big),
        None,
        "too big for the browser's storage: sent once"
    );

    // The stored message with what was kept is sent again whole in every later request.
    let history = [
        json!({ "id": "u1", "role": "user", "content": "read this",
                "files": [{ "id": "u1_f0", "name": "notes.txt" }],
                "metadata": { MESSAGE_KEY: sent.clone() } }),
        json!({ "id": "a1", "role": "assistant", "content": "Read." }),
    ];
    let messages = ai_sdk::ui_messages(&history, None);
    assert_eq!(messages[0], sent);
    assert_eq!(
        messages[1]["parts"],
        json!([{ "type": "text", "text": "Read." }])
    );
}

#[test]
fn i39_stop_drops_the_routes_request_and_the_stopped_turn_is_gone() {
    use agent_chat_ui::core::transport::{pump, GatewayOutput, Work};
    use agent_chat_ui::core::Millis;

    let mut l = started();
    l.cmd(Command::Send("tell me a story".into()));
    let id = l.last_wire().id;
    let start = "data: {\"type\":\"start\"}\n\ndata: {\"type\":\"text-start\",\"id\":\"t\"}\n\n\
                 data: {\"type\":\"text-delta\",\"id\":\"t\",\"delta\":\"Once upon \"}\n\n";
    l.wire_input(Input::StreamChunk {
        id,
        bytes: start.as_bytes().to_vec(),
    });
    assert!(l.session.streaming().is_some());
    let drawn = l.session.revisions().streaming;
    l.session.handle(Millis(l.now), Input::User(Command::Stop));
    let aborted: Vec<_> = pump(&mut l.session, &mut l.gateway, Millis(l.now))
        .into_iter()
        .filter_map(|w| match w {
            Work::Gateway(GatewayOutput::Abort(a)) => Some(a),
            _ => None,
        })
        .collect();
    // As `useChat`'s `stop()`: the request is dropped, nothing else is sent.
    assert_eq!(aborted, vec![id]);
    assert!(l.session.streaming().is_none());
    assert_ne!(
        l.session.revisions().streaming,
        drawn,
        "whatever draws the streaming reply hears that it is gone"
    );
    assert_eq!(
        l.session.messages().last().unwrap().content.display_text(),
        "Once upon "
    );
    assert_eq!(l.session.run(), Run::Idle);
}
