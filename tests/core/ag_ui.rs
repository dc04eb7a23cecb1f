//! Issue 39: an AG-UI agent behind the gateway. A turn posts a `RunAgentInput`; the event
//! stream (as `@ag-ui/encoder` writes it) is read the same at every byte split; an interrupt
//! (`RUN_FINISHED` with an interrupt outcome) and a call to the page's confirm tool become
//! answerable cards; the answer is the next run (a resume entry, or a `tool` message) with
//! exactly the body the protocol asks; an answer past `expiresAt` is refused in core; a
//! failure keeps the agent's words; hostile input never panics. No browser.
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::time::Millis;
use agent_chat_ui::core::transport::ag_ui::{
    self, apply_patch, check_deadline, AnswerRefusal, Decoder, CONFIRM_TOOL, STATE_KEY,
};
use agent_chat_ui::core::transport::reply::{Delta, Reply};
use agent_chat_ui::core::transport::TransportKind;
use agent_chat_ui::core::{
    ActionKind, CardState, ChatError, Command, ComposerMode, Decision, HttpResponse, Input, Method,
    Outcome, Resolution, Run, Shown,
};
use serde_json::{json, Value};

use crate::common::link;
use link::{text_of, Link};

/// `now` of the links: 2025-11-24T16:00:00Z.
const NOW: u64 = 1_764_000_000_000;

/// Events as `@ag-ui/encoder` writes them: `data: <json>\n\n`.
fn sse(events: &[Value]) -> String {
    events.iter().map(|e| format!("data: {e}\n\n")).collect()
}

fn delete_schema() -> Value {
    json!({ "type": "object", "properties": { "path": { "type": "string", "pattern": "^/tmp/" } },
            "required": ["path"], "additionalProperties": false })
}

/// A run that says why, calls `delete_file` and ends with an interrupt asking to approve it,
/// expiring at `expires_at`; with a keep-alive comment and one unreadable frame.
fn interrupted(thread: &str, expires_at: &str) -> String {
    let mut s = sse(&[
        json!({"type": "RUN_STARTED", "threadId": thread, "runId": "r1"}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "I will delete "}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "/tmp/report.txt — ok?"}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m1"}),
    ]);
    s.push_str(": keep-alive\n\ndata: {not json\n\n");
    s.push_str(&sse(&[
        json!({"type": "STEP_STARTED", "stepName": "plan"}),
        json!({"type": "TOOL_CALL_START", "toolCallId": "call_1", "toolCallName": "delete_file"}),
        json!({"type": "TOOL_CALL_ARGS", "toolCallId": "call_1", "delta": "{\"path\":"}),
        json!({"type": "TOOL_CALL_ARGS", "toolCallId": "call_1", "delta": "\"/tmp/report.txt\"}"}),
        json!({"type": "TOOL_CALL_END", "toolCallId": "call_1"}),
        json!({"type": "CUSTOM", "name": "x", "value": 1}),
        json!({"type": "RUN_FINISHED", "threadId": thread, "runId": "r1",
               "outcome": {"type": "interrupt", "interrupts": [{
                   "id": "int_1", "reason": "tool_approval", "toolCallId": "call_1",
                   "message": "Delete /tmp/report.txt?", "responseSchema": delete_schema(),
                   "expiresAt": expires_at }]}}),
    ]));
    s
}

fn confirm_run() -> String {
    sse(&[
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r2"}),
        json!({"type": "TOOL_CALL_CHUNK", "toolCallId": "call_c", "toolCallName": CONFIRM_TOOL,
               "delta": "{\"message\":\"Send the report?\","}),
        json!({"type": "TOOL_CALL_CHUNK", "delta": "\"recipients\":\"team\"}"}),
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r2",
               "outcome": {"type": "success", "pendingToolCallIds": ["call_c"]}}),
    ])
}

fn text_run(words: &[&str]) -> String {
    let mut events = vec![
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r3"}),
        json!({"type": "STATE_SNAPSHOT", "snapshot": {"turns": 0, "tags": ["a"]}}),
        json!({"type": "STATE_DELTA", "delta": [{"op": "replace", "path": "/turns", "value": 1},
                                                 {"op": "add", "path": "/tags/-", "value": "b"}]}),
    ];
    for w in words {
        events.push(json!({"type": "TEXT_MESSAGE_CHUNK", "messageId": "m3", "delta": w}));
    }
    events.push(json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r3"}));
    sse(&events)
}

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
fn i39_an_interrupted_run_reads_the_same_split_at_every_byte() {
    let (deltas, ending) = same_at_every_byte(interrupted("t", "2025-11-24T16:10:00Z").as_bytes());
    assert_eq!(text_of(&deltas), "I will delete /tmp/report.txt — ok?");
    let skipped = deltas
        .iter()
        .filter(|d| matches!(d, Delta::Skipped(_)))
        .count();
    assert_eq!(
        skipped, 1,
        "the unreadable frame is skipped, the run goes on"
    );
    assert!(deltas
        .iter()
        .any(|d| matches!(d, Delta::ToolStarted(c) if c.name == "delete_file")));
    assert_eq!(
        ending.tool_calls[0].args,
        json!({"path": "/tmp/report.txt"})
    );
    assert_eq!(
        ending.pending_actions.expect("the run waits"),
        json!([{ "id": "int_1", "type": "tool_approval", "status": "pending",
                 "toolName": "delete_file", "args": {"path": "/tmp/report.txt"},
                 "agUiSource": "interrupt", "toolCallId": "call_1",
                 "summary": "Delete /tmp/report.txt?", "argsSchema": delete_schema(),
                 "expiresAt": "2025-11-24T16:10:00Z" }])
    );
}

#[test]
fn i39_a_confirm_tool_call_and_streamed_state_read_the_same_at_every_byte() {
    let (_, ending) = same_at_every_byte(confirm_run().as_bytes());
    assert_eq!(
        ending.pending_actions.expect("the call waits on the page"),
        json!([{ "id": "call_c", "type": "tool_approval", "status": "pending",
                 "toolCallId": "call_c", "toolName": CONFIRM_TOOL,
                 "args": {"message": "Send the report?", "recipients": "team"},
                 "agUiSource": "tool", "summary": "Send the report?" }])
    );
    let (deltas, ending) = same_at_every_byte(text_run(&["Hel", "lo"]).as_bytes());
    assert_eq!(text_of(&deltas), "Hello");
    assert_eq!(
        ending.keep[STATE_KEY],
        json!({"turns": 1, "tags": ["a", "b"]})
    );
    assert!(ending.pending_actions.is_none());
}

#[test]
fn i39_the_earlier_draft_interrupt_shape_is_read_too() {
    let body = sse(&[
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r",
        "outcome": "interrupt", "interrupt": {"id": "i9", "reason": "policy_hold",
                                              "payload": {"question": "Hold the payment?"}}}),
    ]);
    let mut d = Decoder::new();
    d.read_whole_for_test(&body);
    let cards = d.ending().pending_actions.unwrap();
    assert_eq!(cards[0]["id"], "i9");
    // Bound to no tool call: a question, its words from the draft's payload.
    assert_eq!(cards[0]["type"], "user_question");
    assert_eq!(cards[0]["questions"][0]["question"], "Hold the payment?");
}

/// Extension for the tests: reads a whole body.
trait ReadWhole {
    fn read_whole_for_test(&mut self, body: &str) -> Vec<Delta>;
}

impl ReadWhole for Decoder {
    fn read_whole_for_test(&mut self, body: &str) -> Vec<Delta> {
        let mut out = self.push(body.as_bytes());
        out.extend(self.finish());
        out
    }
}

#[test]
fn i39_hostile_streams_never_panic() {
    let nasty = [
        "data: {\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"nope\",\"delta\":\"x\"}\n\n".to_owned(),
        "data: {\"type\":\"TOOL_CALL_CHUNK\"}\n\ndata: {\"type\":\"TOOL_CALL_RESULT\"}\n\n".to_owned(),
        "data: {\"type\":\"RUN_FINISHED\",\"outcome\":{\"type\":\"interrupt\",\"interrupts\":[1,null,{\"id\":7},{\"id\":\"\"}]}}\n\n".to_owned(),
        "data: {\"type\":\"RUN_FINISHED\",\"outcome\":{\"type\":\"success\",\"pendingToolCallIds\":[1,{}]}}\n\n".to_owned(),
        "data: {\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"remove\",\"path\":\"/a/b/c\"}]}\n\n".to_owned(),
        "data: {\"type\":\"STATE_DELTA\",\"delta\":\"not a patch\"}\n\n".to_owned(),
        "data: [1,2,3]\n\ndata: \"TEXT\"\n\ndata: null\n\n".to_owned(),
        format!("data: {}{}\n\n", "[".repeat(5000), "]".repeat(5000)),
        "data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"delta\":\"\u{0}\u{feff}<script>\"}\n\n".to_owned(),
    ];
    for body in &nasty {
        let mut d = Decoder::new();
        d.read_whole_for_test(body);
        let _ = d.ending();
        let _ = ag_ui::read_reply(body);
    }
    for bytes in [&[0xff, 0xfe, 0x00, b'\n'][..], b"data:\r\n\r\n", b"\n\n\n"] {
        let mut d = Decoder::new();
        let _ = d.push(bytes);
        let _ = d.finish();
    }
    let unreadable = ag_ui::read_reply("<html>502 Bad Gateway</html>");
    assert!(
        unreadable.is_err(),
        "an answer that is no event stream is not a reply"
    );
}

#[test]
fn i39_state_patches_apply_or_say_they_do_not() {
    let mut doc = json!({"a": {"b": [1, 2]}});
    assert!(apply_patch(
        &mut doc,
        &json!([{"op": "add", "path": "/a/c", "value": true},
                {"op": "remove", "path": "/a/b/0"},
                {"op": "replace", "path": "/a~1x", "value": 3}])
    ));
    assert_eq!(doc, json!({"a": {"b": [2], "c": true}, "a/x": 3}));
    assert!(!apply_patch(
        &mut doc,
        &json!([{"op": "remove", "path": "/missing"}])
    ));
    assert!(!apply_patch(
        &mut doc,
        &json!([{"op": "move", "from": "/a", "path": "/b"}])
    ));
    assert!(!apply_patch(
        &mut doc,
        &json!([{"op": "add", "path": "no-slash", "value": 1}])
    ));
}

#[test]
fn i39_the_deadline_is_decided_with_the_time_passed_in() {
    let card = json!({"id": "int_1", "expiresAt": "2025-11-24T16:10:00Z"});
    let deadline = NOW + 10 * 60 * 1000;
    assert_eq!(check_deadline(&card, Millis(deadline - 1)), Ok(()));
    assert_eq!(
        check_deadline(&card, Millis(deadline)),
        Err(AnswerRefusal::Expired)
    );
    assert_eq!(
        check_deadline(&json!({"id": "x"}), Millis(u64::MAX)),
        Ok(())
    );
    let unreadable = json!({"id": "x", "expiresAt": "soon"});
    assert_eq!(check_deadline(&unreadable, Millis(deadline)), Ok(()));
}

// ---- through the session and the gateway ----

fn started() -> Link {
    let mut l = Link::new(TransportKind::AgUi, vec![]);
    l.now = NOW;
    l.cmd(Command::Start);
    l
}

fn body_of(l: &Link) -> Value {
    serde_json::from_str(l.last_wire().body.as_deref().unwrap()).unwrap()
}

/// A chat whose first turn ("Delete the report") was interrupted; returns it with the
/// conversation id and the first user message's id.
fn interrupted_chat(expires_at: &str) -> (Link, String, String) {
    let mut l = started();
    l.cmd(Command::Send("Delete the report".into()));
    let conversation = l.session.conversation().unwrap().id.clone();
    let user_id = body_of(&l)["messages"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    l.stream(&interrupted(&conversation, expires_at));
    assert_eq!(l.session.run(), Run::AwaitingAction);
    (l, conversation, user_id)
}

fn card_shown(l: &Link, id: &str) -> Shown {
    let card = l
        .session
        .cards()
        .iter()
        .find(|c| c.action.id == id)
        .unwrap()
        .clone();
    Shown::of(&card.action)
}

fn state_of(l: &Link, id: &str) -> CardState {
    l.session
        .cards()
        .iter()
        .find(|c| c.action.id == id)
        .unwrap()
        .state
        .clone()
}

/// The messages every run after the first carries: the person's message, the agent's text
/// with its call.
fn first_exchange(user_id: &str, assistant_id: &str) -> Value {
    json!([
        {"id": user_id, "role": "user", "content": "Delete the report"},
        {"id": assistant_id, "role": "assistant",
         "content": "I will delete /tmp/report.txt — ok?",
         "toolCalls": [{"id": "call_1", "type": "function",
                        "function": {"name": "delete_file",
                                     "arguments": "{\"path\":\"/tmp/report.txt\"}"}}]}
    ])
}

#[test]
fn i39_a_turn_posts_a_run_input_with_the_confirm_tool() {
    let mut l = started();
    l.cmd(Command::Send("Hello".into()));
    let (req, streamed) = l.wire.last().unwrap().clone();
    assert!(streamed);
    assert_eq!((req.method, req.path.as_str()), (Method::Post, ""));
    let body = body_of(&l);
    let conversation = l.session.conversation().unwrap().id.clone();
    let user_id = body["messages"][0]["id"].as_str().unwrap().to_owned();
    assert_eq!(
        body,
        json!({"threadId": conversation, "runId": format!("run_{user_id}"), "state": {},
               "messages": [{"id": user_id, "role": "user", "content": "Hello"}],
               "tools": ag_ui::tools(), "context": [], "forwardedProps": {}})
    );
    l.stream(&text_run(&["Hi ", "there"]));
    assert_eq!(
        l.session.messages().last().unwrap().content.display_text(),
        "Hi there"
    );
    // The state the run left goes back with the next run.
    l.cmd(Command::Send("Again".into()));
    assert_eq!(
        body_of(&l)["state"],
        json!({"turns": 1, "tags": ["a", "b"]})
    );
    assert_eq!(body_of(&l)["messages"].as_array().unwrap().len(), 3);
}

#[test]
fn i39_an_interrupt_is_an_answerable_card_with_its_schema_and_deadline() {
    let (l, _, _) = interrupted_chat("2025-11-24T16:10:00Z");
    let cards = l.session.cards();
    assert_eq!(cards.len(), 1);
    let card = &cards[0];
    match &card.action.kind {
        ActionKind::ToolApproval(t) => {
            assert_eq!(t.tool_name, "delete_file");
            assert_eq!(t.args, json!({"path": "/tmp/report.txt"}));
            assert_eq!(t.summary.as_deref(), Some("Delete /tmp/report.txt?"));
            assert_eq!(t.args_schema.as_ref(), Some(&delete_schema()));
        }
        other => panic!("expected a tool approval, got {other:?}"),
    }
    assert_eq!(card.action.expires_at, Some(Millis(NOW + 600_000)));
    assert!(l.session.can_resolve(card));
    assert!(
        l.session.argument_edit_allowed(),
        "the resume payload carries edited arguments"
    );
    assert!(!l.session.remember_allowed());
}

#[test]
fn i39_approving_with_edited_arguments_resumes_with_exactly_that_payload() {
    let (mut l, conversation, user_id) = interrupted_chat("2025-11-24T16:10:00Z");
    let assistant_id = l.threads()[0].messages[1]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let edited = json!({"path": "/tmp/old-report.txt"});
    let resolution = Resolution::ToolApproval {
        decision: Decision::Allow,
        approved_args: Some(edited.clone()),
        remember_for_session: false,
        comment: None,
    };
    l.cmd(Command::Resolve {
        shown: card_shown(&l, "int_1"),
        resolution,
    });
    let body = body_of(&l);
    let run_id = body["runId"].as_str().unwrap().to_owned();
    assert!(run_id.starts_with("run_"));
    assert_eq!(
        body,
        json!({"threadId": conversation, "runId": run_id, "state": {},
               "messages": first_exchange(&user_id, &assistant_id),
               "tools": ag_ui::tools(), "context": [], "forwardedProps": {},
               "resume": [{"interruptId": "int_1", "status": "resolved", "payload": edited}]})
    );
    let done = sse(&[
        json!({"type": "TOOL_CALL_RESULT", "messageId": "x", "toolCallId": "call_1",
               "content": "{\"deleted\":\"/tmp/old-report.txt\"}"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m4", "delta": "Deleted."}),
        json!({"type": "RUN_FINISHED", "threadId": conversation, "runId": run_id}),
    ]);
    l.stream(&done);
    assert_eq!(
        state_of(&l, "int_1"),
        CardState::Settled(Outcome::ApprovedEdited {
            args: edited,
            remembered: false
        })
    );
    assert_eq!(
        l.session.messages().last().unwrap().content.display_text(),
        "Deleted."
    );

    // Edited arguments that break the responseSchema are refused before anything is sent.
    let (mut l, _, _) = interrupted_chat("2025-11-24T16:10:00Z");
    let sent = l.wire.len();
    let resolution = Resolution::ToolApproval {
        decision: Decision::Allow,
        approved_args: Some(json!({"path": "/etc/passwd"})),
        remember_for_session: false,
        comment: None,
    };
    l.cmd(Command::Resolve {
        shown: card_shown(&l, "int_1"),
        resolution,
    });
    assert_eq!(l.wire.len(), sent, "nothing was sent");
    assert_eq!(state_of(&l, "int_1"), CardState::Waiting);
}

#[test]
fn i39_a_denial_cancels_the_interrupt_with_the_persons_reason() {
    let (mut l, _, _) = interrupted_chat("2025-11-24T16:10:00Z");
    l.cmd(Command::Resolve {
        shown: card_shown(&l, "int_1"),
        resolution: Resolution::deny(Some("Keep it".into())),
    });
    assert_eq!(
        body_of(&l)["resume"],
        json!([{"interruptId": "int_1", "status": "cancelled", "payload": {"reason": "Keep it"}}])
    );
}

#[test]
fn i39_an_answer_after_expires_at_is_refused_and_nothing_is_sent() {
    let (mut l, _, _) = interrupted_chat("2025-11-24T16:10:00Z");
    let shown = card_shown(&l, "int_1");
    let sent = l.wire.len();
    l.now = NOW + 600_000;
    l.cmd(Command::Resolve {
        shown,
        resolution: Resolution::allow(),
    });
    assert_eq!(l.wire.len(), sent, "no run was started after the deadline");
    assert!(
        l.events
            .iter()
            .any(|e| format!("{e:?}").contains("Expired")),
        "the refusal was reported: {:?}",
        l.events
    );
}

#[test]
fn i39_the_gateway_refuses_a_late_answer_itself() {
    use agent_chat_ui::core::transport::backend::{AnswerCall, Backend};
    use agent_chat_ui::core::transport::Thread;
    let backend = ag_ui::AgUi;
    let thread = Thread::new(json!({"id": "c1", "agentId": "default", "metadata": {}}));
    let options = Default::default();
    let action = json!({"id": "int_1", "type": "tool_approval", "args": {},
                        "agUiSource": "interrupt", "expiresAt": "2025-11-24T16:10:00Z"});
    let resolution = json!({"decision": "allow"});
    let call = |now| AnswerCall {
        options: &options,
        thread: &thread,
        action_id: "int_1",
        action: &action,
        resolution: &resolution,
        decision_key: "k1",
        body: &Value::Null,
        stream: true,
        now: Millis(now),
        together: &[],
    };
    let (status, envelope) = backend.answer_request(&call(NOW + 600_000)).unwrap_err();
    assert_eq!(status, 409);
    assert!(envelope.contains("action_expired"));
    let ok = backend.answer_request(&call(NOW)).unwrap();
    assert_eq!(ok.body["runId"], "run_k1");
    assert_eq!(
        ok.body["resume"][0],
        json!({"interruptId": "int_1", "status": "resolved", "payload": {}})
    );
}

#[test]
fn i39_a_confirmation_is_answered_by_a_tool_message_and_a_reload_keeps_it() {
    let mut l = started();
    l.cmd(Command::Send("Please confirm".into()));
    let conversation = l.session.conversation().unwrap().id.clone();
    l.stream(&confirm_run());
    assert_eq!(l.session.cards().len(), 1);
    l.cmd(Command::Resolve {
        shown: card_shown(&l, "call_c"),
        resolution: Resolution::deny(Some("Not this week".into())),
    });
    let body = body_of(&l);
    assert!(body.get("resume").is_none());
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(
        messages.last().unwrap(),
        &json!({"id": "result_call_c", "role": "tool", "toolCallId": "call_c",
                "content": "{\"approved\":false,\"reason\":\"Not this week\"}"})
    );
    assert_eq!(
        messages[1]["toolCalls"][0]["function"]["name"],
        CONFIRM_TOOL
    );
    l.stream(&sse(&[
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "Not sent."}),
        json!({"type": "RUN_FINISHED", "threadId": conversation, "runId": "r"}),
    ]));
    assert!(matches!(
        state_of(&l, "call_c"),
        CardState::Settled(Outcome::Denied { .. })
    ));
    // After a reload the next run still carries the answer as the call's tool message.
    let mut again = Link::new(TransportKind::AgUi, l.stored_threads());
    again.now = NOW;
    again.cmd(Command::Start);
    again.cmd(Command::OpenConversation(conversation));
    assert!(matches!(
        state_of(&again, "call_c"),
        CardState::Settled(Outcome::Denied { .. })
    ));
    again.cmd(Command::Send("Thanks".into()));
    let messages = body_of(&again)["messages"].as_array().unwrap().clone();
    assert_eq!(messages[2]["role"], "tool");
    assert_eq!(
        messages[2]["content"],
        "{\"approved\":false,\"reason\":\"Not this week\"}"
    );
}

#[test]
fn i39_a_new_message_cancels_the_open_interrupt_in_its_run() {
    let (mut l, _, _) = interrupted_chat("2025-11-24T16:10:00Z");
    assert_eq!(l.session.composer_mode(), ComposerMode::Cancel);
    l.cmd(Command::Send("Never mind".into()));
    let body = body_of(&l);
    assert_eq!(
        body["resume"],
        json!([{"interruptId": "int_1", "status": "cancelled",
                "payload": {"reason": ag_ui::LEFT_BEHIND}}])
    );
    assert_eq!(
        body["messages"].as_array().unwrap().last().unwrap()["content"],
        "Never mind"
    );
}

#[test]
fn i39_a_run_error_shows_the_agents_words() {
    let mut l = started();
    l.cmd(Command::Send("fail".into()));
    l.stream(&sse(&[
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"}),
        json!({"type": "RUN_ERROR", "message": "The scripted agent failed on request.", "code": "X"}),
    ]));
    assert!(
        matches!(l.session.error(), Some(ChatError::Stream { message, .. })
            if message == "The scripted agent failed on request."),
        "{:?}",
        l.session.error()
    );
    // A refused request (not a stream) keeps the server's words too.
    l.cmd(Command::Send("again".into()));
    let req = l.last_wire();
    l.wire_input(Input::Response {
        id: req.id,
        result: Ok(HttpResponse {
            status: 400,
            body: json!({"error": {"message": "Not a RunAgentInput: runId"}}).to_string(),
            date: None,
            retry_after: None,
        }),
    });
    let shown = format!("{:?}", l.session.error());
    assert!(shown.contains("Not a RunAgentInput: runId"), "{shown}");
}
