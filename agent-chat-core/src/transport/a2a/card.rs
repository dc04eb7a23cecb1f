//! The agent card: where it is looked for, and what is read from it (the agent's name, the
//! protocol version its JSON-RPC interface speaks, that interface's address, and whether it
//! streams).
//!
//! Where: the `@a2a-js/sdk` client resolves `.well-known/agent-card.json` against the base URL
//! as a browser resolves a relative link, which for a base URL without a trailing slash is
//! the card beside it, and for an SDK server mounted at the root is the site root's card
//! (RFC 8615 puts well-known files there). The candidates are tried in order until one reads
//! as a card: below the base URL (where this chat always looked), the SDK's place, the site
//! root. A base URL that ends in `.json` is the card's own address (the SDK's
//! `createFromUrl(cardUrl, '')`), and only it is asked; so is a card's address the chat is
//! told ([`configured`]).
//!
//! What: a card with `supportedInterfaces[]` (A2A 1.0) names each interface's
//! `protocolBinding`, `protocolVersion` and `url`; the JSON-RPC one is taken, a `1.0` one
//! before any other (as the SDK's client picks). A card without them that looks like 0.3 by
//! the SDK client's test (a `url`, a field only 0.3 has, a `0.x` `protocolVersion`) is an A2A
//! 0.3 card: its `url` (with `preferredTransport`, JSON-RPC by default) and `protocolVersion`
//! (`0.3` by default); any other speaks 1.0 at the base URL. The address is used only on the base URL's origin: another origin is a server's
//! own idea of where it lives (a card written for `localhost`), and the chat sends nothing
//! there, so the base URL stays the address.

use serde_json::Value;

/// Where the agent card is, below the base URL or beside it.
pub const CARD_PATH: &str = "/.well-known/agent-card.json";

/// The A2A version a JSON-RPC interface speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Version {
    /// A2A 1.0: `SendMessage`, parts without `kind`, `ROLE_*` and `TASK_STATE_*`, results
    /// wrapped by type, the `A2A-Version: 1.0` header. What a card that says nothing else
    /// gets, and what is spoken before a card is read.
    #[default]
    V1,
    /// A2A 0.3: `message/send`, `kind` on every object, lower-case roles and states, no
    /// version header (a 0.3 server knows none, and a browser would ask another origin's
    /// leave to send one).
    V03,
}

impl Version {
    /// Reads a `protocolVersion`: any `0.x` is 0.3's wire, anything else 1.0's.
    pub fn parse(text: &str) -> Version {
        if text.trim().starts_with("0.") {
            Version::V03
        } else {
            Version::V1
        }
    }

    /// The `A2A-Version` header's value.
    pub fn header(self) -> &'static str {
        match self {
            Version::V1 => "1.0",
            Version::V03 => "0.3",
        }
    }
}

/// What a card says, as far as the chat needs it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Card {
    /// The agent's name (the picker's entry).
    pub name: String,
    /// The agent's description.
    pub description: Option<String>,
    /// The version its JSON-RPC interface speaks.
    pub version: Version,
    /// The JSON-RPC interface's address as the card gives it (absolute, or a path).
    pub url: Option<String>,
    /// Whether it streams (`capabilities.streaming`); `None` when the card does not say.
    pub streaming: Option<bool>,
}

/// Reads a card; `None` when `body` is not one (no JSON object with a name).
pub fn read(body: &str) -> Option<Card> {
    let card: Value = serde_json::from_str(body).ok()?;
    let name = card["name"].as_str().filter(|n| !n.trim().is_empty())?;
    let (version, url) = match card["supportedInterfaces"].as_array() {
        Some(list) if !list.is_empty() => interface_1_0(list),
        _ if is_0_3(&card) => interface_0_3(&card),
        _ => (Version::V1, None),
    };
    Some(Card {
        name: name.to_owned(),
        description: card["description"].as_str().map(str::to_owned),
        version,
        url,
        streaming: card["capabilities"]["streaming"].as_bool(),
    })
}

/// Whether a card without interfaces is a 0.3 card, by the SDK client's own test: a `url`
/// without a `supportedInterfaces` field, a field only 0.3 has, or a `0.x` `protocolVersion`.
fn is_0_3(card: &Value) -> bool {
    (card["url"].is_string() && card.get("supportedInterfaces").is_none())
        || ["preferredTransport", "additionalInterfaces", "supportsAuthenticatedExtendedCard"]
            .iter()
            .any(|f| card.get(*f).is_some())
        || card["protocolVersion"]
            .as_str()
            .is_some_and(|v| Version::parse(v) == Version::V03)
}

/// The JSON-RPC interface of a 1.0 card: a `1.0` one first; a card without a JSON-RPC
/// interface speaks 1.0 at the base URL (the chat has no other binding).
fn interface_1_0(list: &[Value]) -> (Version, Option<String>) {
    let json_rpc: Vec<&Value> = list
        .iter()
        .filter(|i| {
            i["protocolBinding"]
                .as_str()
                .is_some_and(|b| b.eq_ignore_ascii_case("JSONRPC"))
        })
        .collect();
    let chosen = json_rpc
        .iter()
        .find(|i| i["protocolVersion"] == "1.0")
        .or(json_rpc.first());
    match chosen {
        Some(i) => (
            Version::parse(i["protocolVersion"].as_str().unwrap_or("1.0")),
            i["url"].as_str().map(str::to_owned),
        ),
        None => (Version::V1, None),
    }
}

/// The JSON-RPC interface of a 0.3 card: its `url` when its preferred transport is JSON-RPC,
/// else the JSON-RPC one of `additionalInterfaces`.
fn interface_0_3(card: &Value) -> (Version, Option<String>) {
    let version = Version::parse(card["protocolVersion"].as_str().unwrap_or("0.3"));
    let is_json_rpc = |t: &Value| t.as_str().is_none_or(|t| t.eq_ignore_ascii_case("JSONRPC"));
    let url = if is_json_rpc(&card["preferredTransport"]) {
        card["url"].as_str().map(str::to_owned)
    } else {
        card["additionalInterfaces"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|i| i["transport"].as_str().is_some_and(|t| t.eq_ignore_ascii_case("JSONRPC")))
            .and_then(|i| i["url"].as_str().map(str::to_owned))
    };
    (version, url)
}

/// `scheme://host[:port]` of an absolute `http(s)` URL.
pub fn origin(url: &str) -> Option<&str> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))?;
    let host_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    (host_end > 0).then(|| &url[..url.len() - rest.len() + host_end])
}

/// Where the card is looked for, in order, for the base URL `base` (absolute, as the page
/// resolved it; `None` when the chat was not told it: then only below the base URL). Each
/// is a path below the base URL or an absolute URL, without repeats.
pub fn candidates(base: Option<&str>) -> Vec<String> {
    let Some(base) = base.map(|b| b.trim_end_matches('/')) else {
        return vec![CARD_PATH.to_owned()];
    };
    let Some(origin) = origin(base) else {
        return vec![CARD_PATH.to_owned()];
    };
    let path = &base[origin.len()..];
    if path.split(['?', '#']).next().unwrap_or_default().ends_with(".json") {
        return vec![base.to_owned()];
    }
    let beside = match path.rfind('/') {
        Some(slash) => format!("{origin}{}{CARD_PATH}", &path[..slash]),
        None => format!("{origin}{CARD_PATH}"),
    };
    let mut urls: Vec<String> = Vec::new();
    for url in [format!("{base}{CARD_PATH}"), beside, format!("{origin}{CARD_PATH}")] {
        if !urls.contains(&url) {
            urls.push(url);
        }
    }
    // The first, below the base URL, is asked as a path (the io layer adds the base URL).
    urls[0] = CARD_PATH.to_owned();
    urls
}

/// The address of a card the chat was told (`agentCardUrl`): an absolute URL as it is; a
/// path from the site root (`/…`) on the base URL's origin (`base`, absolute as the page
/// resolved it); anything else below the base URL, as every path the gateway sends.
pub fn configured(url: &str, base: Option<&str>) -> String {
    let url = url.trim();
    if origin(url).is_some() {
        return url.to_owned();
    }
    match base.and_then(origin) {
        Some(site) if url.starts_with('/') && !url.starts_with("//") => format!("{site}{url}"),
        _ if url.starts_with('/') => url.to_owned(),
        _ => format!("/{url}"),
    }
}

/// The JSON-RPC address for a card's `url` with the base URL `base`: the card's own on the
/// base URL's origin (a path on it resolved against that origin), else the base URL itself
/// (`""`, below the base URL; or, when the base URL is the card's address, that address's
/// folder).
pub fn rpc_address(card_url: Option<&str>, base: Option<&str>) -> String {
    let base = base.map(|b| b.trim_end_matches('/'));
    let base_origin = base.and_then(origin);
    let from_card = card_url.map(str::trim).filter(|u| !u.is_empty()).and_then(|u| {
        match (origin(u), base_origin) {
            (Some(o), Some(b)) if o.eq_ignore_ascii_case(b) => Some(u.to_owned()),
            (None, Some(b)) if u.starts_with('/') && !u.starts_with("//") => {
                Some(format!("{b}{u}"))
            }
            _ => None,
        }
    });
    if let Some(url) = from_card {
        return url;
    }
    match (base, base_origin) {
        (Some(base), Some(_)) if base.ends_with(".json") => {
            base[..base.rfind('/').unwrap_or(base.len())].to_owned()
        }
        _ => String::new(),
    }
}
