//! The argument editor's helpers beyond the raw JSON (issue 4, seed 004): form fields generated
//! from a flat `argsSchema`, kept in sync with the JSON text, and a readable diff of an edit
//! against the agent's proposal.
//!
//! Choices worth knowing:
//! - A schema is "flat" when it describes an object whose every property is a string, number,
//!   integer or boolean (one `type`, not a union), an `enum` or a `const` of such scalars, with
//!   at most [`MAX_FIELDS`] properties. Anything else (nested objects, arrays, unions) gets the
//!   JSON editor only: a form that can show part of the arguments would hide the rest. A
//!   `oneOf`/`anyOf` of flat objects is a choice of variant (`super::variants`).
//! - `readOnly` properties and `const`s are shown but not editable; `default` is the empty
//!   control's hint.
//! - Form fields write into the JSON text (pretty-printed again); the JSON text is the single
//!   source of truth, so the schema check and Approve see exactly one value.
//! - An emptied field removes its property, so `required` reports it instead of sending `""`.
//! - The diff walks objects key by key and compares anything else whole, with
//!   [`super::args_equal`] (so `1` and `1.0`, or a reordered object, are not changes).

use serde_json::{Map, Value};

use super::schema::args_equal;

/// At most this many properties get form fields.
pub const MAX_FIELDS: usize = 16;

/// One form field for one top-level property.
#[derive(Clone, Debug, PartialEq)]
pub struct FormField {
    /// The property name (the key in the arguments).
    pub name: String,
    /// The schema's `title`, if any (shown instead of the name).
    pub title: Option<String>,
    /// The schema's `description`, if any.
    pub description: Option<String>,
    /// What kind of control edits it.
    pub kind: FieldKind,
    /// Listed under the object's `required`.
    pub required: bool,
    /// The schema marks it `readOnly`: shown, not editable.
    pub read_only: bool,
    /// The schema's `default`, shown as the empty control's hint and written when a variant
    /// is chosen.
    pub default: Option<Value>,
}

/// The control a [`FormField`] is edited with.
#[derive(Clone, Debug, PartialEq)]
pub enum FieldKind {
    /// A text input.
    Text,
    /// A number input (any JSON number).
    Number,
    /// A number input that only takes whole numbers.
    Integer,
    /// A checkbox.
    Boolean,
    /// A select of the `enum` values (scalars).
    Choice(Vec<Value>),
    /// A `const`: the one allowed value, shown and not editable.
    Fixed(Value),
}

/// Form fields for a flat object schema, in the schema's property order; `None` when the
/// schema is absent or not flat (see the module notes).
pub fn form_fields(schema: Option<&Value>) -> Option<Vec<FormField>> {
    let schema = schema?.as_object()?;
    if let Some(t) = schema.get("type") {
        if t != "object" {
            return None;
        }
    }
    let properties = schema.get("properties")?.as_object()?;
    if properties.is_empty() || properties.len() > MAX_FIELDS {
        return None;
    }
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    properties
        .iter()
        .map(|(name, prop)| {
            let prop = prop.as_object()?;
            let text = |key: &str| prop.get(key).and_then(Value::as_str).map(str::to_owned);
            Some(FormField {
                name: name.clone(),
                title: text("title"),
                description: text("description"),
                kind: field_kind(prop)?,
                required: required.contains(&name.as_str()),
                read_only: prop.get("readOnly") == Some(&Value::Bool(true)),
                default: prop.get("default").cloned(),
            })
        })
        .collect()
}

fn field_kind(prop: &Map<String, Value>) -> Option<FieldKind> {
    if prop.contains_key("anyOf") || prop.contains_key("oneOf") || prop.contains_key("allOf") {
        return None;
    }
    if let Some(value) = prop.get("const") {
        let scalar = value.is_string() || value.is_number() || value.is_boolean();
        return scalar.then(|| FieldKind::Fixed(value.clone()));
    }
    if let Some(values) = prop.get("enum") {
        let values = values.as_array()?;
        let scalar = |v: &Value| v.is_string() || v.is_number() || v.is_boolean();
        return (!values.is_empty() && values.iter().all(scalar))
            .then(|| FieldKind::Choice(values.clone()));
    }
    match prop.get("type")?.as_str()? {
        "string" => Some(FieldKind::Text),
        "number" => Some(FieldKind::Number),
        "integer" => Some(FieldKind::Integer),
        "boolean" => Some(FieldKind::Boolean),
        _ => None,
    }
}

/// The text a field shows for `value` (a string without quotes, anything else as JSON;
/// nothing for an absent property).
pub fn field_text(value: Option<&Value>) -> String {
    match value {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

/// The value a field's raw input stands for; `None` removes the property (an emptied field).
/// A number field whose text is not a number keeps the text as a string, so the schema check
/// names the problem instead of the edit silently vanishing.
pub fn field_value(kind: &FieldKind, raw: &str) -> Option<Value> {
    let trimmed = raw.trim();
    match kind {
        FieldKind::Text => (!raw.is_empty()).then(|| Value::String(raw.to_owned())),
        FieldKind::Boolean => Some(Value::Bool(trimmed == "true")),
        FieldKind::Number | FieldKind::Integer if trimmed.is_empty() => None,
        FieldKind::Integer => Some(
            trimmed
                .parse::<i64>()
                .map(Value::from)
                .unwrap_or_else(|_| Value::String(trimmed.to_owned())),
        ),
        FieldKind::Number => Some(
            serde_json::from_str::<serde_json::Number>(trimmed)
                .map(Value::Number)
                .unwrap_or_else(|_| Value::String(trimmed.to_owned())),
        ),
        FieldKind::Fixed(value) => Some(value.clone()),
        FieldKind::Choice(values) => {
            if trimmed.is_empty() {
                return None;
            }
            values
                .iter()
                .find(|v| field_text(Some(v)) == raw)
                .cloned()
                .or_else(|| Some(Value::String(raw.to_owned())))
        }
    }
}

/// Sets (or with `None` removes) property `name` in the JSON object `text` and pretty-prints
/// it again; `None` when `text` is not a JSON object (the form is then read-only until the
/// JSON is fixed).
pub fn apply_field(text: &str, name: &str, value: Option<Value>) -> Option<String> {
    let mut object = match serde_json::from_str::<Value>(text).ok()? {
        Value::Object(map) => map,
        _ => return None,
    };
    match value {
        Some(v) => {
            object.insert(name.to_owned(), v);
        }
        None => {
            object.remove(name);
        }
    }
    serde_json::to_string_pretty(&Value::Object(object)).ok()
}

/// One changed place between the proposal and the edit.
#[derive(Clone, Debug, PartialEq)]
pub struct ArgChange {
    /// Where: property names joined with `.` (array items compared whole), `""` for the root.
    pub path: String,
    /// The proposed value as compact JSON; `None` when the edit added it.
    pub before: Option<String>,
    /// The edited value as compact JSON; `None` when the edit removed it.
    pub after: Option<String>,
}

/// What the edit changed, in the proposal's key order, then added keys. Empty when equal.
pub fn diff_args(proposed: &Value, edited: &Value) -> Vec<ArgChange> {
    let mut out = Vec::new();
    diff_into(String::new(), proposed, edited, 0, &mut out);
    out
}

fn diff_into(path: String, before: &Value, after: &Value, depth: usize, out: &mut Vec<ArgChange>) {
    if args_equal(before, after) {
        return;
    }
    match (before, after) {
        (Value::Object(b), Value::Object(a)) if depth < super::schema::MAX_DEPTH => {
            let join = |k: &str| {
                if path.is_empty() {
                    k.to_owned()
                } else {
                    format!("{path}.{k}")
                }
            };
            for (key, bv) in b {
                match a.get(key) {
                    Some(av) => diff_into(join(key), bv, av, depth + 1, out),
                    None => out.push(ArgChange {
                        path: join(key),
                        before: Some(bv.to_string()),
                        after: None,
                    }),
                }
            }
            for (key, av) in a.iter().filter(|(k, _)| !b.contains_key(*k)) {
                out.push(ArgChange {
                    path: join(key),
                    before: None,
                    after: Some(av.to_string()),
                });
            }
        }
        _ => out.push(ArgChange {
            path,
            before: Some(before.to_string()),
            after: Some(after.to_string()),
        }),
    }
}
