//! What ships (issue 17): the npm package of `<agent-chat>` against the element's source: every attribute,
//! property, event, part and CSS token the element has is declared in `custom-elements.json`
//! and `agent-chat.d.ts`, and `package.json` matches the crate. The packed tarball is installed,
//! type-checked and loaded in a browser by `cargo xtask test` (its "npm package" step and the
//! `npm_package_in_a_page` journey).
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;

use agent_chat_ui::element::{EVENTS, LIVE_PROPERTIES, OBSERVED_ATTRIBUTES, PARTS};
use serde_json::Value;

const PACKAGE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/packages/agent-chat");

fn read(name: &str) -> String {
    std::fs::read_to_string(format!("{PACKAGE}/{name}")).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn manifest_class() -> Value {
    let manifest: Value = serde_json::from_str(&read("custom-elements.json")).unwrap();
    assert_eq!(manifest["schemaVersion"], "2.0.0");
    let class = manifest["modules"][0]["declarations"][0].clone();
    assert_eq!(class["tagName"], "agent-chat");
    assert_eq!(class["customElement"], true);
    class
}

fn names(list: &Value) -> BTreeSet<String> {
    list.as_array()
        .expect("a list")
        .iter()
        .map(|v| v["name"].as_str().expect("a name").to_owned())
        .collect()
}

fn set(items: impl IntoIterator<Item = String>) -> BTreeSet<String> {
    items.into_iter().collect()
}

#[test]
fn i17_the_manifest_lists_every_attribute_property_event_part_and_token() {
    let class = manifest_class();
    assert_eq!(
        names(&class["attributes"]),
        set(OBSERVED_ATTRIBUTES.iter().map(|a| a.to_string()))
    );
    assert!(
        !names(&class["attributes"]).contains("authorization"),
        "the token is a property only"
    );
    let fields: Vec<&Value> = class["members"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["kind"] == "field")
        .collect();
    let fields = set(fields
        .iter()
        .map(|f| f["name"].as_str().unwrap().to_owned()));
    let mut props = set(LIVE_PROPERTIES.iter().map(|p| p.to_string()));
    props.insert("clientTools".into());
    assert_eq!(fields, props);
    assert_eq!(
        names(&class["events"]),
        set(EVENTS.iter().map(|e| format!("agent-chat:{e}")))
    );
    assert_eq!(
        names(&class["cssParts"]),
        set(PARTS.iter().map(|p| p.to_string()))
    );
    // The tokens the stylesheet declares.
    let css: String = ["tokens", "chat", "cards", "markdown", "history"]
        .iter()
        .map(|name| {
            std::fs::read_to_string(format!("{}/style/{name}.css", env!("CARGO_MANIFEST_DIR")))
                .unwrap()
        })
        .collect();
    let mut tokens = BTreeSet::new();
    for (i, _) in css.match_indices("--chat-") {
        let rest = &css[i..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .unwrap_or(rest.len());
        if rest[end..].trim_start().starts_with(':') {
            tokens.insert(rest[..end].to_owned());
        }
    }
    assert_eq!(names(&class["cssProperties"]), tokens);
}

#[test]
fn i17_the_declarations_type_every_property_and_event() {
    let dts = read("agent-chat.d.ts");
    for prop in LIVE_PROPERTIES.iter().chain(&["clientTools"]) {
        assert!(
            dts.contains(&format!("\n  {prop}: ")),
            "agent-chat.d.ts lacks the property {prop}"
        );
    }
    for event in EVENTS {
        assert!(
            dts.contains(&format!("\"agent-chat:{event}\": ")),
            "agent-chat.d.ts lacks the event {event}"
        );
    }
    assert!(dts.contains("\"agent-chat\": AgentChatElement;"));
    assert!(dts.contains("resolveClientTool(actionId: string"));
}

#[test]
fn i17_package_json_matches_the_crate_and_ships_what_the_module_loads() {
    let package: Value = serde_json::from_str(&read("package.json")).unwrap();
    assert_eq!(package["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(package["license"], env!("CARGO_PKG_LICENSE"));
    assert_eq!(package["type"], "module");
    assert_eq!(package["exports"]["."]["default"], "./agent-chat.js");
    assert_eq!(package["exports"]["."]["types"], "./agent-chat.d.ts");
    let files: BTreeSet<&str> = package["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    for needed in [
        "agent-chat.js",
        "agent-chat_bg.wasm",
        "agent-chat.d.ts",
        "custom-elements.json",
        "snippets/",
    ] {
        assert!(files.contains(needed), "package.json files lacks {needed}");
    }
    // Registering the element is the module's side effect: bundlers must keep it.
    assert_eq!(
        package["sideEffects"],
        serde_json::json!(["./agent-chat.js"])
    );
}

/// Issue 17: two action ids never share a card's DOM id (its label and focus target).
#[test]
fn i17_card_dom_ids_never_collide() {
    use agent_chat_ui::ui::cards::approval::sanitize_id;
    let ids = [
        "a.b", "a_b", "a-b", "a b", "a/b", "a__b", "a_2e_b", "ab", "a\u{e9}b", "a\u{2e}b", "", "_",
        "__", "act_1", "act-1",
    ];
    let mut seen = std::collections::HashMap::new();
    for id in ids {
        let dom = sanitize_id(id);
        assert!(
            dom.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
            "{dom}"
        );
        if let Some(other) = seen.insert(dom.clone(), id) {
            assert_eq!(other, id, "{other:?} and {id:?} share {dom}");
        }
    }
}

/// Issue 17: the standalone page ships a Content-Security-Policy that allows no `eval` (only
/// WebAssembly's own compilation), no plugins and no other origin for the API; the
/// end-to-end journeys fail on any violation of it.
#[test]
fn i17_the_page_ships_a_csp_without_eval() {
    let html = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/index.html")).unwrap();
    let start = html
        .find("http-equiv=\"Content-Security-Policy\"")
        .expect("a CSP meta element");
    let content = &html[start..];
    let content = &content[content.find("content=\"").unwrap() + 9..];
    let csp = &content[..content.find('"').unwrap()];
    assert!(!csp.contains("'unsafe-eval'"), "{csp}");
    for needed in [
        "default-src 'self'",
        "'wasm-unsafe-eval'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
    ] {
        assert!(csp.contains(needed), "{csp} lacks {needed}");
    }
}

/// The members of the string-literal union `export type <name> = "a" | "b";` in `dts`.
fn union_of(dts: &str, name: &str) -> BTreeSet<String> {
    let start = format!("export type {name} = ");
    let at = dts
        .find(&start)
        .unwrap_or_else(|| panic!("agent-chat.d.ts lacks the type {name}"));
    let rest = &dts[at + start.len()..];
    let end = rest.find(';').expect("the type ends");
    rest[..end]
        .split('|')
        .map(|member| member.trim().trim_matches('"').to_owned())
        .collect()
}

#[test]
fn i34_the_declarations_list_the_transport_options_the_reader_takes() {
    use agent_chat_ui::core::transport::options::OPTION_NAMES;
    use agent_chat_ui::core::transport::TransportKind;
    let dts = read("agent-chat.d.ts");
    let attributes = set(OPTION_NAMES.iter().map(|(attr, _)| attr.to_string()));
    assert_eq!(union_of(&dts, "AgentChatTransportAttribute"), attributes);
    assert!(
        attributes.is_subset(&set(OBSERVED_ATTRIBUTES.iter().map(|a| a.to_string()))),
        "every transport option is an observed attribute"
    );
    let named = TransportKind::ALL
        .iter()
        .filter(|k| k.capabilities().named_by_page)
        .map(|k| k.as_str().to_owned());
    assert_eq!(union_of(&dts, "AgentChatTransport"), set(named));
}

/// Issue 35: the session options the one reader takes are observed attributes and typed in
/// the declarations, by the same names.
#[test]
fn issue35_the_declarations_list_the_session_options_the_reader_takes() {
    use agent_chat_ui::core::session::start_options::START_OPTION_NAMES;
    let dts = read("agent-chat.d.ts");
    let attributes = set(START_OPTION_NAMES.iter().map(|(attr, _)| attr.to_string()));
    assert_eq!(union_of(&dts, "AgentChatSessionAttribute"), attributes);
    assert!(
        attributes.is_subset(&set(OBSERVED_ATTRIBUTES.iter().map(|a| a.to_string()))),
        "every session option is an observed attribute"
    );
    for (_, camel) in START_OPTION_NAMES {
        assert!(
            dts.contains(&format!("`{camel}`")),
            "agent-chat.d.ts names {camel}"
        );
    }
}
