//! Issue 15: a thread store the host implements answers later than the page's own
//! (`localStorage` is read at once; IndexedDB or a server is not). Until its threads are
//! read, the gateway holds the session's requests, so the history never shows empty for a
//! moment and a conversation opened by id is found; then it answers them in order. Entries
//! that are not threads are skipped and counted, the first of a repeated id wins.
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::transport::threads::read_threads;
use agent_chat_ui::core::transport::{Gateway, Thread, TransportKind, TransportOptions};
use agent_chat_ui::core::{Command, Millis};
use serde_json::json;

use crate::common::link;
use link::Link;

fn kept(id: &str, title: &str) -> String {
    json!({ "conversation": { "id": id, "agentId": "gpt-test", "title": title, "metadata": {},
                              "createdAt": "2026-11-30T10:00:00.000Z",
                              "updatedAt": "2026-11-30T10:00:00.000Z" },
            "messages": [{ "id": format!("{id}_m1"), "conversationId": id, "role": "user",
                           "content": format!("first words of {title}"),
                           "createdAt": "2026-11-30T10:00:00.000Z" }] })
    .to_string()
}

#[test]
fn i15_entries_of_a_host_store_that_are_not_threads_are_skipped_and_counted() {
    let texts = vec![
        kept("conv_a", "Alpha"),
        "not json".to_owned(),
        json!({"conversation": {"title": "no id"}, "messages": []}).to_string(),
        kept("conv_a", "Alpha again"),
        kept("conv_b", "Beta"),
    ];
    let (threads, unreadable) = read_threads(&texts);
    let ids: Vec<&str> = threads.iter().map(Thread::id).collect();
    assert_eq!(ids, ["conv_a", "conv_b"]);
    assert_eq!(
        threads[0].conversation["title"], "Alpha",
        "the first one wins"
    );
    assert_eq!(unreadable, 3);
}

#[test]
fn i15_the_session_waits_for_a_host_store_then_lists_and_opens_its_threads() {
    let options = TransportOptions {
        kind: TransportKind::ChatCompletions,
        model: Some("gpt-test".into()),
        ..TransportOptions::default()
    };
    let mut l = Link::with_options(options.clone(), vec![]);
    l.gateway = Gateway::loading(&options, 7);
    l.cmd(Command::Start);
    l.cmd(Command::OpenConversation("conv_b".into()));
    assert!(l.session.agents().is_empty(), "nothing answered yet");
    assert!(l.session.history().is_empty());
    assert!(
        l.wire.is_empty(),
        "a stateless backend asks the wire for none of it"
    );
    let (threads, _) = read_threads(&[kept("conv_a", "Alpha"), kept("conv_b", "Beta")]);
    l.gateway.threads_loaded(Millis(l.now), threads);
    l.run();
    assert_eq!(l.session.agents()[0].id, "gpt-test");
    let titles: Vec<String> = l
        .session
        .history()
        .iter()
        .filter_map(|c| c.title.clone())
        .collect();
    assert_eq!(titles.len(), 2, "{titles:?}");
    assert_eq!(
        l.session.conversation().map(|c| c.id.as_str()),
        Some("conv_b"),
        "the conversation opened by id was found"
    );
    assert_eq!(
        l.session.messages()[0].content.display_text(),
        "first words of Beta"
    );
    // Loaded once: a late second report does not replace the threads (the history, asked
    // again, still lists both).
    l.gateway.threads_loaded(Millis(l.now), vec![]);
    l.cmd(Command::RefreshHistory);
    assert_eq!(l.session.history().len(), 2);
}

#[test]
fn i15_each_backend_at_one_url_keeps_its_own_threads() {
    use agent_chat_ui::core::transport::ThreadStoreKind;
    use agent_chat_ui::io::threads::ThreadStore;
    let at = |backend| ThreadStore::new(ThreadStoreKind::Local, backend, "https://api.test/v1");
    let completions = at(TransportKind::ChatCompletions);
    let responses = at(TransportKind::Responses);
    assert_ne!(completions, responses, "OpenAI's /v1 serves both");
    assert_ne!(responses, at(TransportKind::A2a));
    // Chat Completions keeps the prefix its threads were saved under before.
    assert_eq!(
        completions,
        ThreadStore::Local {
            prefix: "agent-chat-ui:threads:https://api.test/v1".into()
        }
    );
    assert_eq!(
        ThreadStore::new(
            ThreadStoreKind::Memory,
            TransportKind::Responses,
            "https://api.test/v1"
        ),
        ThreadStore::Memory
    );
}
