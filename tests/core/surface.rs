//! Native tests of the sans-IO parts of Chat's surface (issue 8): which locale a chat starts
//! with (F39, F40, F128) and the seed list of `initial_messages` (F11, F134).

use agent_chat_ui::core::{
    pick_locale, Command, Input, Message, Method, Millis, Session, SessionConfig,
};

use crate::common;
use common::Harness;

fn seed() -> Vec<Message> {
    serde_json::from_str(
        r#"[{"id":"m_1","role":"user","content":"Hello"},
            {"id":"m_2","role":"assistant","content":"Hi!"}]"#,
    )
    .unwrap()
}

#[test]
fn f39_f40_f128_locale_precedence() {
    // Controlled wins and disables ?lang detection.
    assert_eq!(pick_locale(Some("ar"), Some("tr"), Some("en")), "ar");
    assert_eq!(pick_locale(Some("tr-TR"), None, None), "tr");
    // Uncontrolled: ?lang, then default_locale, then en.
    assert_eq!(pick_locale(None, Some("tr"), Some("ar")), "tr");
    assert_eq!(pick_locale(None, None, Some("ar-EG")), "ar");
    assert_eq!(pick_locale(None, None, None), "en");
    // Only shipped locales count at each step.
    assert_eq!(pick_locale(None, Some("fr"), Some("tr")), "tr");
    assert_eq!(pick_locale(Some("de"), Some("tr"), Some("ar")), "ar");
    assert_eq!(pick_locale(None, Some("xx"), Some("yy")), "en");
}

#[test]
fn f11_initial_messages_are_the_starting_list_and_new_chat_clears_them() {
    let mut session = Session::new(SessionConfig {
        initial_messages: seed(),
        show_history: false,
        ..SessionConfig::default()
    });
    let ids: Vec<_> = session.messages().iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["m_1", "m_2"]);
    session.handle(Millis(1), Input::User(Command::NewChat));
    assert!(session.messages().is_empty());
}

#[test]
fn f11_no_initial_messages_by_default() {
    let session = Session::new(SessionConfig::default());
    assert!(session.messages().is_empty());
}

#[test]
fn page_query_reads_theme_lang_and_show_timestamps() {
    use agent_chat_ui::page::PageConfig;
    use agent_chat_ui::Theme;
    let cfg = PageConfig::from_query("http://h", "?theme=light&lang=tr&showTimestamps=1");
    assert_eq!(cfg.theme, Theme::Light);
    assert_eq!(cfg.lang.as_deref(), Some("tr"));
    assert!(cfg.show_timestamps);
    let cfg = PageConfig::from_query("http://h", "");
    assert_eq!(cfg.theme, Theme::Dark);
    assert!(!cfg.show_timestamps);
    assert_eq!(cfg.base_url, "http://h/api/agents");
}

#[test]
fn f11_f134_a_loaded_conversation_replaces_the_initial_messages() {
    let mut h = Harness::new(SessionConfig {
        initial_messages: seed(),
        conversation_id: Some("conv_1".into()),
        show_history: false,
        ..SessionConfig::default()
    });
    assert_eq!(
        h.s.messages().len(),
        2,
        "shown while the conversation loads"
    );
    h.cmd(Command::Start);
    h.answer(Method::Get, "/agents", 200, common::AGENTS);
    h.answer(
        Method::Get,
        "/conversations/conv_1",
        200,
        r#"{"conversation":{"id":"conv_1","agentId":"echo"},
            "messages":[{"id":"msg_s","role":"user","content":"from the server"}]}"#,
    );
    let ids: Vec<_> = h.s.messages().iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["msg_s"]);
}

/// Issue 17: a crafted link cannot point the standalone page at another server: `?baseUrl=`
/// is taken for the page's own origin (a path or a URL of it), refused for any other.
#[test]
fn i17_page_base_url_stays_on_its_own_origin() {
    use agent_chat_ui::page::PageConfig;
    let page = "https://chat.example";
    for (given, used) in [
        ("/api/v2", "https://chat.example/api/v2"),
        ("https://chat.example/api/x", "https://chat.example/api/x"),
        ("HTTPS://CHAT.EXAMPLE/api", "HTTPS://CHAT.EXAMPLE/api"),
    ] {
        let q = format!("?baseUrl={}", given.replace('/', "%2F"));
        let cfg = PageConfig::from_query(page, &q);
        assert_eq!(cfg.base_url, used, "{given}");
        assert_eq!(cfg.refused_base_url, None);
    }
    for hostile in [
        "https://evil.example/api/agents",
        "//evil.example/api",
        "/\\evil.example/api",
        "https://chat.example@evil.example/api",
        "https://chat.example.evil.example/api",
        "http://chat.example/api",
        "javascript:alert(1)",
        "https://chat.example:8443/api",
    ] {
        let cfg = PageConfig::from_query(page, &format!("?baseUrl={hostile}"));
        assert_eq!(cfg.base_url, "https://chat.example/api/agents", "{hostile}");
        assert_eq!(cfg.refused_base_url.as_deref(), Some(hostile));
    }
}

/// Issue 15: the page's backend options. `actionUrl` is taken only as a path below the base
/// URL (a link must not send answers to another origin); the in-process agent cannot be
/// named by a page (only a Rust host can hand one over), so it reads as unknown.
#[test]
fn i15_the_page_reads_its_backend_options_and_refuses_unsafe_ones() {
    use agent_chat_ui::core::transport::TransportKind;
    use agent_chat_ui::page::PageConfig;
    let cfg = PageConfig::from_query(
        "http://h",
        "?transport=responses&actionUrl=/actions/%7BactionId%7D&resendHistory=1",
    );
    assert_eq!(cfg.transport.kind, TransportKind::Responses);
    assert_eq!(
        cfg.transport.action_url.as_deref(),
        Some("/actions/{actionId}")
    );
    assert!(cfg.transport.resend_history);
    for hostile in [
        "https://evil.test/a",
        "//evil.test/a",
        "javascript:alert(1)",
    ] {
        let q = format!("?transport=a2a&actionUrl={hostile}");
        let cfg = PageConfig::from_query("http://h", &q);
        assert_eq!(cfg.transport.action_url, None, "{hostile}");
    }
    let cfg = PageConfig::from_query("http://h", "?transport=in-process");
    assert_eq!(cfg.transport.kind, TransportKind::AgentServer);
    assert_eq!(cfg.unknown_transport.as_deref(), Some("in-process"));
}

/// Issue 34: one reader of the transport options, for the element's attribute names and the
/// page's camel-case ones alike; a flag is on unless it says otherwise, an unknown backend is
/// refused and leaves the agent server.
#[test]
fn i34_one_reader_takes_the_transport_options_by_either_name() {
    use agent_chat_ui::core::transport::options::OptionRefusal;
    use agent_chat_ui::core::transport::{ThreadStoreKind, TransportKind, TransportOptions};
    let (attrs, refused) = TransportOptions::from_pairs([
        ("transport", "responses"),
        ("model", "gpt-test"),
        ("thread-store", "memory"),
        ("action-url", "/actions/{actionId}"),
        ("resend-history", ""),
        ("agent-id", "ignored"),
    ]);
    assert!(refused.is_empty());
    let (query, _) = TransportOptions::from_pairs([
        ("transport", "responses"),
        ("model", "gpt-test"),
        ("threadStore", "memory"),
        ("actionUrl", "/actions/{actionId}"),
        ("resendHistory", "1"),
    ]);
    assert_eq!(attrs, query);
    assert_eq!(attrs.kind, TransportKind::Responses);
    assert_eq!(attrs.thread_store, ThreadStoreKind::Memory);
    assert!(attrs.resend_history);
    let (off, refused) =
        TransportOptions::from_pairs([("transport", "in-process"), ("resendHistory", "off")]);
    assert_eq!(off, TransportOptions::default());
    assert_eq!(
        refused,
        [OptionRefusal::UnknownTransport("in-process".into())]
    );
}

/// Issue 35 (seed 000 `actionExpiryRefreshMs`): the element's attribute and the page's query
/// parameter are read by one reader into the session's refetch delay; a value that is not a
/// whole number of milliseconds leaves the default.
#[test]
fn issue35_action_expiry_refresh_ms_is_read_from_the_attribute_and_the_query() {
    use agent_chat_ui::core::StartOptions;
    use agent_chat_ui::page::PageConfig;
    let default = SessionConfig::default().action_expiry_refresh_ms;
    assert_eq!(default, 1_500);
    assert_eq!(StartOptions::default().action_expiry_refresh_ms, default);
    let attr = StartOptions::from_pairs([("action-expiry-refresh-ms", " 250 ")]);
    assert_eq!(attr.action_expiry_refresh_ms, 250);
    let camel = StartOptions::from_pairs([("actionExpiryRefreshMs", "0"), ("model", "x")]);
    assert_eq!(camel.action_expiry_refresh_ms, 0);
    for bad in ["soon", "-5", "1.5", ""] {
        let o = StartOptions::from_pairs([("actionExpiryRefreshMs", bad)]);
        assert_eq!(o.action_expiry_refresh_ms, default, "{bad}");
    }
    let cfg = PageConfig::from_query("http://h", "?actionExpiryRefreshMs=300&model=m");
    assert_eq!(cfg.start.action_expiry_refresh_ms, 300);
    assert_eq!(
        cfg.transport.model.as_deref(),
        Some("m"),
        "other options still read"
    );
    assert_eq!(
        PageConfig::from_query("http://h", "")
            .start
            .action_expiry_refresh_ms,
        default
    );
}
