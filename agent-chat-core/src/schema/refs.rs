//! Where a `$ref` leads, inside the one schema the card has: `$id`s (base URIs), `$anchor`s,
//! `$dynamicAnchor`s and JSON Pointer fragments. Nothing is ever fetched: a reference that
//! leads outside the schema resolves to `None`, and the checker says it cannot judge.
//!
//! URIs are resolved with the few RFC 3986 rules tool schemas use (absolute, fragment-only,
//! absolute path, relative path with `.`/`..`), without a URL library in the wasm.

use std::collections::HashMap;

use serde_json::Value;

/// Keywords whose value is one schema.
const ONE: [&str; 11] = [
    "additionalProperties",
    "additionalItems",
    "unevaluatedItems",
    "unevaluatedProperties",
    "propertyNames",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "items",
];
/// Keywords whose value is a list of schemas (`items` too, in its draft 7 tuple form).
const LIST: [&str; 5] = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];
/// Keywords whose value is a map of schemas.
const MAP: [&str; 6] = [
    "$defs",
    "definitions",
    "properties",
    "patternProperties",
    "dependentSchemas",
    "dependencies",
];

/// The places `$ref` can name in one root schema.
pub(super) struct Index<'s> {
    /// Base URI (without fragment) of each schema object, by address.
    base_of: HashMap<*const Value, String>,
    /// Schema resources by their absolute URI (without fragment).
    resources: HashMap<String, &'s Value>,
    /// Anchors by `uri#name`.
    anchors: HashMap<String, &'s Value>,
    /// `$dynamicAnchor`s by `uri#name`.
    dynamic_anchors: HashMap<String, &'s Value>,
    /// Whether any schema object has `unevaluatedProperties` or `unevaluatedItems` (then
    /// every passing `anyOf` branch must be walked for what it evaluated).
    pub(super) has_unevaluated: bool,
    /// Schema objects indexed; over the limit the index stops (the walk's work bound).
    pub(super) nodes: usize,
}

impl<'s> Index<'s> {
    /// Indexes `root`, visiting at most `limit` schema objects.
    pub(super) fn new(root: &'s Value, limit: usize) -> Index<'s> {
        let mut index = Index {
            base_of: HashMap::new(),
            resources: HashMap::new(),
            anchors: HashMap::new(),
            dynamic_anchors: HashMap::new(),
            has_unevaluated: false,
            nodes: 0,
        };
        index.resources.insert(String::new(), root);
        let mut pending = vec![(root, String::new())];
        while let Some((node, base)) = pending.pop() {
            let Value::Object(map) = node else {
                continue;
            };
            index.nodes += 1;
            if index.nodes > limit {
                break;
            }
            let mut base = base;
            if let Some(id) = map.get("$id").and_then(Value::as_str) {
                let resolved = resolve(&base, id);
                base = split_fragment(&resolved).0.to_owned();
                index.resources.entry(base.clone()).or_insert(node);
            }
            for key in ["$anchor", "$dynamicAnchor"] {
                if let Some(name) = map.get(key).and_then(Value::as_str) {
                    index.anchors.insert(format!("{base}#{name}"), node);
                }
            }
            if let Some(name) = map.get("$dynamicAnchor").and_then(Value::as_str) {
                index.dynamic_anchors.insert(format!("{base}#{name}"), node);
            }
            index.has_unevaluated |=
                map.contains_key("unevaluatedProperties") || map.contains_key("unevaluatedItems");
            index.base_of.insert(node as *const Value, base.clone());
            for key in ONE {
                if let Some(sub @ Value::Object(_)) = map.get(key) {
                    pending.push((sub, base.clone()));
                }
            }
            for key in LIST {
                if let Some(Value::Array(subs)) = map.get(key) {
                    pending.extend(subs.iter().map(|s| (s, base.clone())));
                }
            }
            for key in MAP {
                if let Some(Value::Object(subs)) = map.get(key) {
                    pending.extend(subs.values().map(|s| (s, base.clone())));
                }
            }
        }
        index
    }

    /// The base URI of a schema object ("" when the root has no `$id`, or when the object
    /// was reached by a pointer into a place the index does not walk).
    pub(super) fn base_of(&self, schema: &Value) -> &str {
        self.base_of
            .get(&(schema as *const Value))
            .map(String::as_str)
            .unwrap_or("")
    }

    /// The base URI of a schema object the index walked, `None` for one it did not.
    pub(super) fn known_base(&self, schema: &Value) -> Option<&str> {
        self.base_of
            .get(&(schema as *const Value))
            .map(String::as_str)
    }

    /// The schema object of the resource `base` that declares the `$dynamicAnchor` `name`.
    pub(super) fn dynamic_anchor(&self, base: &str, name: &str) -> Option<&'s Value> {
        self.dynamic_anchors.get(&format!("{base}#{name}")).copied()
    }

    /// The schema `reference` names, read from `base`; `None` when it is outside the schema.
    pub(super) fn resolve(&self, base: &str, reference: &str) -> Option<&'s Value> {
        let absolute = resolve(base, reference);
        let (uri, fragment) = split_fragment(&absolute);
        if fragment.is_empty() || fragment.starts_with('/') {
            let doc = self.resources.get(uri)?;
            pointer(doc, fragment)
        } else {
            self.anchors.get(&absolute).copied()
        }
    }
}

/// `(uri, fragment)` of `uri#fragment`; the fragment is empty when there is none.
fn split_fragment(uri: &str) -> (&str, &str) {
    match uri.split_once('#') {
        Some((u, f)) => (u, f),
        None => (uri, ""),
    }
}

/// Follows a JSON Pointer fragment (percent-encoded, `~0`/`~1` escaped) from `doc`.
fn pointer<'s>(doc: &'s Value, fragment: &str) -> Option<&'s Value> {
    let fragment = percent_decode(fragment)?;
    if fragment.is_empty() {
        return Some(doc);
    }
    let mut node = doc;
    for token in fragment.strip_prefix('/')?.split('/') {
        let token = token.replace("~1", "/").replace("~0", "~");
        node = match node {
            Value::Object(map) => map.get(&token)?,
            Value::Array(items) => items.get(token.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(node)
}

fn percent_decode(text: &str) -> Option<String> {
    if !text.contains('%') {
        return Some(text.to_owned());
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// `reference` resolved against `base` (RFC 3986 section 5.2, the common cases).
pub(super) fn resolve(base: &str, reference: &str) -> String {
    if has_scheme(reference) {
        return reference.to_owned();
    }
    let (base_uri, _) = split_fragment(base);
    if reference.is_empty() {
        return base_uri.to_owned();
    }
    if reference.starts_with('#') {
        return format!("{base_uri}{reference}");
    }
    // scheme://authority of the base, and its path.
    let (origin, path) = match base_uri.find("://") {
        Some(at) => {
            let after = at + 3;
            match base_uri[after..].find('/') {
                Some(slash) => base_uri.split_at(after + slash),
                None => (base_uri, ""),
            }
        }
        None => match base_uri.find(':') {
            // `urn:...`: no hierarchy; a relative reference is appended to the scheme.
            Some(colon) => base_uri.split_at(colon + 1),
            None => ("", base_uri),
        },
    };
    if let Some(rest) = reference.strip_prefix("//") {
        let scheme = origin.split("://").next().unwrap_or("");
        return format!("{scheme}://{rest}");
    }
    let merged = if reference.starts_with('/') {
        reference.to_owned()
    } else {
        match path.rfind('/') {
            Some(slash) => format!("{}{}", &path[..=slash], reference),
            None if origin.contains("://") => format!("/{reference}"),
            None => reference.to_owned(),
        }
    };
    format!("{origin}{}", remove_dots(&merged))
}

fn has_scheme(reference: &str) -> bool {
    let Some(colon) = reference.find(':') else {
        return false;
    };
    let scheme = &reference[..colon];
    scheme
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
}

/// Removes `.` and `..` segments from a path (keeps the query and fragment untouched).
fn remove_dots(path: &str) -> String {
    let (path, rest) = match path.find(['?', '#']) {
        Some(at) => path.split_at(at),
        None => (path, ""),
    };
    let mut out: Vec<&str> = Vec::new();
    let segments: Vec<&str> = path.split('/').collect();
    let last = segments.len().saturating_sub(1);
    for (i, segment) in segments.iter().enumerate() {
        match *segment {
            "." => {
                if i == last {
                    out.push("");
                }
            }
            ".." => {
                if out.len() > 1 {
                    out.pop();
                }
                if i == last {
                    out.push("");
                }
            }
            s => out.push(s),
        }
    }
    format!("{}{rest}", out.join("/"))
}
