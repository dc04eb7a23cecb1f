//! Issue 15: an agent in the page behind the gateway. A send is a turn for the agent at the
//! internal path; its events come back as JSON lines (split anywhere, bad lines skipped to the
//! log, C22) and become `stream.*` frames: text, tool calls with their results, and a pause
//! whose actions (agent-sdk shapes mapped per PROTOCOL §10) are answerable cards. No browser.
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::transport::agent_sdk::{
    read_turn, AgentLine, AgentOutcome, PendingAction, PendingToolApproval, PendingUserQuestion,
    Resolution, TurnInput, Usage,
};
use agent_chat_ui::core::transport::in_process::{self, Decoder};
use agent_chat_ui::core::transport::reply::Delta;
use agent_chat_ui::core::transport::TransportKind;
use agent_chat_ui::core::{
    ActionKind, AnswerValue, CardState, ChatError, Command, HttpResponse, Input, Method, Outcome,
    Run,
};
use serde_json::json;

use crate::common::link;
use link::{text_of, Link};

fn approval() -> PendingAction {
    PendingAction::ToolApproval(PendingToolApproval {
        id: "approval-1".into(),
        tool_call_id: Some("clean-1".into()),
        tool_name: "clean_folder".into(),
        args: json!({ "path": "./build" }),
        metadata: Some(json!({ "prompt": "Delete the build folder?" })),
        input_schema: Some(json!({ "type": "object", "required": ["path"] })),
        requested_at: Some("2026-12-02T10:00:00Z".into()),
        ..PendingToolApproval::default()
    })
}

/// What the scripted agent reports for a message: text, a tool with its result, more text,
/// and a pause for approval.
fn paused_turn() -> Vec<u8> {
    let args = json!({ "path": "./build" });
    let result = json!({ "files": ["a.js", "b.js"] });
    let end = Ok(AgentOutcome::Paused {
        actions: vec![approval()],
        usage: Some(Usage {
            input_tokens: 3,
            output_tokens: 4,
        }),
    });
    [
        AgentLine::Text("Let me look ").encode(),
        AgentLine::Text("first. ").encode(),
        AgentLine::ToolCall {
            id: "list-1",
            name: "list_folder",
            args: &args,
        }
        .encode(),
        AgentLine::ToolResult {
            id: "list-1",
            name: "list_folder",
            result: &result,
        }
        .encode(),
        b"{not json\n".to_vec(),
        AgentLine::Text("May I delete them?").encode(),
        AgentLine::End(&end).encode(),
    ]
    .concat()
}

#[test]
fn i15_agent_lines_read_the_same_split_at_every_byte() {
    let bytes = paused_turn();
    let mut whole = Decoder::new();
    let mut expected = whole.push(&bytes);
    expected.extend(whole.finish());
    let ending = whole.ending();
    assert_eq!(text_of(&expected), "Let me look first. May I delete them?");
    assert!(expected
        .iter()
        .any(|d| matches!(d, Delta::ToolStarted(c) if c.name == "list_folder")));
    assert!(expected.iter().any(
        |d| matches!(d, Delta::ToolFinished { id, result, .. } if id == "list-1" && result["files"][1] == "b.js")
    ));
    assert_eq!(
        expected
            .iter()
            .filter(|d| matches!(d, Delta::Skipped(_)))
            .count(),
        1,
        "the bad line is skipped, the rest read (C22)"
    );
    let actions = ending.pending_actions.clone().expect("the pause's actions");
    assert_eq!(actions[0]["type"], "tool_approval");
    assert_eq!(actions[0]["title"], "Delete the build folder?");
    assert_eq!(ending.usage.as_ref().unwrap()["totalTokens"], 7);
    assert!(ending.calls_streamed);
    for cut in 1..bytes.len() {
        let mut d = Decoder::new();
        let mut got = d.push(&bytes[..cut]);
        got.extend(d.push(&bytes[cut..]));
        got.extend(d.finish());
        assert_eq!(got, expected, "split at {cut}");
        assert_eq!(d.ending(), ending, "split at {cut}");
    }
}

#[test]
fn i15_sdk_actions_become_chat_cards_and_back() {
    let chat = approval().to_chat();
    assert_eq!(
        chat,
        json!({ "id": "approval-1", "type": "tool_approval", "toolName": "clean_folder",
                "args": { "path": "./build" }, "title": "Delete the build folder?",
                "argsSchema": { "type": "object", "required": ["path"] },
                "toolCallId": "clean-1", "createdAt": "2026-12-02T10:00:00Z" })
    );
    assert_eq!(PendingAction::from_chat(&chat), Some(approval()));
    let question = PendingAction::UserQuestion(PendingUserQuestion {
        id: "q-1".into(),
        questions: vec![
            json!({ "question": "Where?", "options": [{ "label": "EU", "value": "eu" }] }),
        ],
        allow_free_text: Some(false),
        ..PendingUserQuestion::default()
    });
    let chat = question.to_chat();
    assert_eq!(chat["type"], "user_question");
    assert_eq!(chat["allowFreeText"], false);
    assert_eq!(chat["questions"][0]["question"], "Where?");
    assert_eq!(PendingAction::from_chat(&chat), Some(question));
    assert_eq!(
        PendingAction::from_chat(&json!({ "id": "c", "type": "client_tool" })),
        None
    );
    assert_eq!(PendingAction::from_chat(&json!("not an action")), None);
}

#[test]
fn i15_chat_resolutions_become_sdk_ones() {
    let allow = Resolution::from_chat(
        &approval(),
        &json!({ "type": "tool_approval", "decision": "allow",
                 "approvedArgs": { "path": "./dist" }, "rememberForSession": true }),
    );
    let Resolution::Approval(allow) = allow else {
        panic!("an approval")
    };
    assert!(allow.approved);
    assert_eq!(allow.approved_args, Some(json!({ "path": "./dist" })));
    let deny = Resolution::from_chat(
        &approval(),
        &json!({ "decision": "deny", "comment": "not now" }),
    );
    assert_eq!(
        serde_json::to_value(&deny).unwrap(),
        json!({ "id": "approval-1", "approved": false, "comment": "not now" })
    );
    let question = PendingAction::UserQuestion(PendingUserQuestion {
        id: "q-1".into(),
        questions: vec![
            json!({ "question": "Where?", "options": [{ "label": "EU", "value": "eu" }, { "label": "US" }] }),
            json!({ "question": "Which checks?", "multiSelect": true,
                    "options": [{ "label": "lint" }, { "label": "tests" }] }),
            json!({ "question": "Notes?" }),
        ],
        ..PendingUserQuestion::default()
    });
    let answered = Resolution::from_chat(
        &question,
        &json!({ "type": "user_question", "answers": {
            "Where?": "US", "Which checks?": ["lint", "a custom check"], "Notes?": "be quick" } }),
    );
    assert_eq!(
        serde_json::to_value(&answered).unwrap(),
        json!({ "id": "q-1", "cancelled": false, "answers": {
            "Where?": { "values": ["US"] },
            "Which checks?": { "values": ["lint"], "freeText": "a custom check" },
            "Notes?": { "values": [], "freeText": "be quick" } } })
    );
    let skipped = Resolution::from_chat(&question, &json!({ "answers": {}, "cancelled": true }));
    let Resolution::Question(skipped) = skipped else {
        panic!("a question")
    };
    assert!(skipped.cancelled && skipped.answers.is_empty());
}

fn started() -> Link {
    let mut l = Link::new(TransportKind::InProcess, vec![]);
    l.cmd(Command::Start);
    l
}

#[test]
fn i15_a_turn_in_the_page_streams_shows_tools_and_pauses_on_an_answerable_card() {
    let mut l = started();
    assert!(
        l.session.config().can_resolve,
        "an agent in the page takes answers"
    );
    assert!(
        !l.session.remember_allowed(),
        "the agent-sdk answer has no \"remember for this chat\" (PROTOCOL §10)"
    );
    l.cmd(Command::Send("Clean the build folder".into()));
    let (req, streamed) = l.wire.last().unwrap().clone();
    assert!(streamed);
    assert_eq!(
        (req.method, req.path.as_str()),
        (Method::Post, in_process::PATH)
    );
    let turn = read_turn(req.body.as_deref().unwrap()).expect("the agent can read its turn");
    assert_eq!(
        turn.input,
        TurnInput::Message {
            text: "Clean the build folder".into(),
            files: vec![]
        }
    );
    assert!(turn.messages.is_empty(), "the new message is not history");
    assert!(!turn.conversation_id.is_empty());
    l.stream(std::str::from_utf8(&paused_turn()).unwrap());
    assert_eq!(l.session.run(), Run::AwaitingAction);
    let reply = l.session.messages().last().unwrap();
    assert_eq!(
        reply.content.display_text(),
        "Let me look first. May I delete them?"
    );
    let details = &reply.metadata["toolCallDetails"];
    assert_eq!(details[0]["name"], "list_folder");
    assert_eq!(details[0]["result"]["files"][0], "a.js");
    let card = &l.session.cards()[0];
    assert!(card.state.is_open());
    assert!(l.session.can_resolve(card), "the card is answerable");
    assert!(
        matches!(&card.action.kind, ActionKind::ToolApproval(a) if a.tool_name == "clean_folder" && a.title.as_deref() == Some("Delete the build folder?"))
    );
    assert!(l.logs.iter().any(|g| g.contains("in-process: skipped")));
    // The thread keeps the tool's result and the open action, for a reload and the next turn.
    let stored = l.stored_threads();
    let kept = stored[0].messages.last().unwrap();
    assert_eq!(
        kept["metadata"]["toolCallDetails"][0]["result"]["files"][1],
        "b.js"
    );
    assert_eq!(kept["metadata"]["pendingActions"][0]["id"], "approval-1");
}

#[test]
fn i15_each_turn_gets_the_conversation_so_far() {
    let mut l = started();
    l.cmd(Command::Send("Hi".into()));
    let done = Ok(AgentOutcome::Done { usage: None });
    let lines = [
        AgentLine::Text("Hello").encode(),
        AgentLine::End(&done).encode(),
    ]
    .concat();
    l.stream(std::str::from_utf8(&lines).unwrap());
    assert_eq!(l.session.run(), Run::Idle);
    l.cmd(Command::Send("Again".into()));
    let turn = read_turn(l.last_wire().body.as_deref().unwrap()).unwrap();
    assert_eq!(
        turn.history(),
        vec![
            ("user".to_owned(), "Hi".to_owned()),
            ("assistant".to_owned(), "Hello".to_owned()),
        ]
    );
}

#[test]
fn i15_an_agents_error_ends_the_turn_with_its_wording_and_stop_aborts_it() {
    let mut l = started();
    l.cmd(Command::Send("Go".into()));
    let end = Err("The disk is read-only".to_owned());
    let lines = [
        AgentLine::Text("Trying").encode(),
        AgentLine::End(&end).encode(),
    ]
    .concat();
    l.stream(std::str::from_utf8(&lines).unwrap());
    assert!(
        matches!(l.session.error(), Some(ChatError::Stream { message, .. }) if message.contains("read-only")),
        "got {:?}",
        l.session.error()
    );
    l.cmd(Command::Send("Again".into()));
    let wire = l.last_wire().id;
    l.wire_input(Input::StreamChunk {
        id: wire,
        bytes: AgentLine::Text("Half").encode(),
    });
    assert_eq!(l.session.run(), Run::Streaming);
    l.session.handle(
        agent_chat_ui::core::Millis(l.now),
        Input::User(Command::Stop),
    );
    let work = agent_chat_ui::core::transport::pump(
        &mut l.session,
        &mut l.gateway,
        agent_chat_ui::core::Millis(l.now),
    );
    assert!(
        work.iter().any(|w| matches!(w,
            agent_chat_ui::core::transport::Work::Gateway(
                agent_chat_ui::core::transport::GatewayOutput::Abort(id)) if *id == wire)),
        "Stop aborts the agent's turn: {work:?}"
    );
}

#[test]
fn i15_a_turn_in_the_page_is_read_whole_without_streaming() {
    let mut l = started();
    l.without_streaming();
    l.cmd(Command::Send("Hi".into()));
    let (req, streamed) = l.wire.last().unwrap().clone();
    assert!(!streamed);
    l.wire_input(Input::Response {
        id: req.id,
        result: Ok(HttpResponse {
            status: 200,
            body: String::from_utf8(paused_turn()).unwrap(),
            date: None,
            retry_after: None,
        }),
    });
    let reply = l.session.messages().last().unwrap();
    assert_eq!(
        reply.content.display_text(),
        "Let me look first. May I delete them?"
    );
    assert_eq!(l.session.pending_actions().count(), 1);
}

#[test]
fn i15_an_unreadable_turn_is_refused_in_words() {
    assert!(read_turn("{oops").is_err());
    let no_action = json!({ "resume": { "action": { "id": "x", "type": "client_tool" },
                                        "resolution": {} } });
    assert!(read_turn(&no_action.to_string()).is_err());
    let resume = in_process::resume_body(
        "a",
        "conv_1",
        &[],
        &approval().to_chat(),
        &json!({ "type": "tool_approval", "decision": "allow" }),
    );
    let turn = read_turn(&resume.to_string()).unwrap();
    let TurnInput::Resume { action, resolution } = turn.input else {
        panic!("a resume")
    };
    assert_eq!(action, approval());
    assert!(matches!(resolution, Resolution::Approval(r) if r.approved && r.id == "approval-1"));
    // An answer that is neither text nor a list reads as no answer, never a panic.
    assert_eq!(
        serde_json::to_value(resolution_of_question()).unwrap()["answers"]["Why?"],
        json!({ "values": [] })
    );
}

fn resolution_of_question() -> Resolution {
    let question = PendingAction::UserQuestion(PendingUserQuestion {
        id: "q".into(),
        questions: vec![json!({ "question": "Why?" })],
        ..PendingUserQuestion::default()
    });
    Resolution::from_chat(&question, &json!({ "answers": { "Why?": 3 } }))
}

/// Answers the open card `id` as the person would.
fn resolve(l: &mut Link, id: &str, resolution: agent_chat_ui::core::Resolution) {
    let action = l
        .session
        .cards()
        .iter()
        .find(|c| c.action.id == id)
        .expect("the card is shown")
        .action
        .clone();
    l.cmd(Command::Resolve {
        shown: agent_chat_ui::core::Shown::of(&action),
        resolution,
    });
}

fn card_state(l: &Link, id: &str) -> CardState {
    l.session
        .cards()
        .iter()
        .find(|c| c.action.id == id)
        .map(|c| c.state.clone())
        .expect("the card is shown")
}

fn paused() -> Link {
    let mut l = started();
    l.cmd(Command::Send("Clean the build folder".into()));
    l.stream(std::str::from_utf8(&paused_turn()).unwrap());
    assert_eq!(card_state(&l, "approval-1"), CardState::Waiting);
    l
}

#[test]
fn i15_approving_resumes_the_agent_with_the_sdk_resolution_and_continues() {
    let mut l = paused();
    resolve(
        &mut l,
        "approval-1",
        agent_chat_ui::core::Resolution::allow(),
    );
    let (req, streamed) = l.wire.last().unwrap().clone();
    assert!(streamed);
    assert_eq!(req.path, in_process::PATH);
    let turn = read_turn(req.body.as_deref().unwrap()).expect("a resume turn");
    let TurnInput::Resume { action, resolution } = &turn.input else {
        panic!("a resume, got {:?}", turn.input)
    };
    assert_eq!(action.id(), "approval-1");
    assert!(matches!(action, PendingAction::ToolApproval(a) if a.tool_name == "clean_folder"));
    assert_eq!(
        serde_json::to_value(resolution).unwrap(),
        json!({ "id": "approval-1", "approved": true })
    );
    assert_eq!(turn.history().len(), 2, "the conversation so far");

    let args = json!({ "path": "./build" });
    let done = Ok(AgentOutcome::Done { usage: None });
    let lines = [
        AgentLine::ToolCall {
            id: "clean-1",
            name: "clean_folder",
            args: &args,
        }
        .encode(),
        AgentLine::ToolResult {
            id: "clean-1",
            name: "clean_folder",
            result: &json!({ "deleted": 3 }),
        }
        .encode(),
        AgentLine::Text("Deleted.").encode(),
        AgentLine::End(&done).encode(),
    ]
    .concat();
    l.stream(std::str::from_utf8(&lines).unwrap());
    assert!(matches!(
        card_state(&l, "approval-1"),
        CardState::Settled(Outcome::Approved { .. })
    ));
    assert_eq!(l.session.run(), Run::Idle);
    let last = l.session.messages().last().unwrap();
    assert_eq!(last.content.display_text(), "Deleted.");
    assert_eq!(last.metadata["toolCallDetails"][0]["result"]["deleted"], 3);
    let stored = l.stored_threads();
    assert_eq!(stored[0].messages.len(), 3);
    assert_eq!(
        stored[0].messages[1]["actionStates"]["approval-1"]["status"], "resolved",
        "a reload reads the card answered"
    );
}

#[test]
fn i15_denying_with_a_reason_and_answering_a_question_reach_the_agent_in_sdk_shapes() {
    let mut l = paused();
    resolve(
        &mut l,
        "approval-1",
        agent_chat_ui::core::Resolution::deny(Some("not today".into())),
    );
    let turn = read_turn(l.last_wire().body.as_deref().unwrap()).unwrap();
    let TurnInput::Resume { resolution, .. } = turn.input else {
        panic!("a resume")
    };
    assert_eq!(
        serde_json::to_value(&resolution).unwrap(),
        json!({ "id": "approval-1", "approved": false, "comment": "not today" })
    );

    let mut l = started();
    l.cmd(Command::Send("ask me".into()));
    let question = PendingAction::UserQuestion(PendingUserQuestion {
        id: "question-1".into(),
        questions: vec![json!({ "question": "Which environment?",
            "options": [{ "label": "staging" }, { "label": "production" }] })],
        ..PendingUserQuestion::default()
    });
    let end = Ok(AgentOutcome::Paused {
        actions: vec![question],
        usage: None,
    });
    l.stream(std::str::from_utf8(&AgentLine::End(&end).encode()).unwrap());
    assert_eq!(card_state(&l, "question-1"), CardState::Waiting);
    let mut answers = std::collections::BTreeMap::new();
    answers.insert(
        "Which environment?".to_owned(),
        AnswerValue::One("staging".into()),
    );
    resolve(
        &mut l,
        "question-1",
        agent_chat_ui::core::Resolution::UserQuestion {
            answers,
            cancelled: false,
        },
    );
    let turn = read_turn(l.last_wire().body.as_deref().unwrap()).unwrap();
    let TurnInput::Resume { resolution, .. } = turn.input else {
        panic!("a resume")
    };
    assert_eq!(
        serde_json::to_value(&resolution).unwrap(),
        json!({ "id": "question-1", "cancelled": false,
                "answers": { "Which environment?": { "values": ["staging"] } } })
    );
}
