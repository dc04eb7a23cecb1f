//! The argument editor's helpers beyond the raw JSON: the form's fields
//! (built from the `argsSchema` by `super::form`), their values in the JSON text, and a
//! readable diff of an edit against the agent's proposal.
//!
//! Choices worth knowing:
//! - `readOnly` properties and `const`s are shown but not editable; `default` is the empty
//!   control's hint.
//! - Form fields write into the JSON text (pretty-printed again); the JSON text is the single
//!   source of truth, so the schema check and Approve see exactly one value.
//! - An emptied field removes its property, so `required` reports it instead of sending `""`.
//! - The diff walks objects key by key and compares anything else whole, with
//!   [`super::args_equal`] (so `1` and `1.0`, or a reordered object, are not changes).

use serde_json::Value;

use super::schema::args_equal;

/// One form field: a property, or the item of a list.
#[derive(Clone, Debug, PartialEq)]
pub struct FormField {
    /// The property name (the key in its object; empty for a list's item).
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
    /// A nested object: its properties' fields, under the property's label.
    Group(Vec<FormField>),
    /// An array: its items, each drawn as the one item field, added and removed.
    List(Box<ListField>),
}

/// The items of an array field.
#[derive(Clone, Debug, PartialEq)]
pub struct ListField {
    /// How each item is drawn (its `name` is empty; its pointer ends with the index).
    pub item: FormField,
    /// The schema's `minItems`: removing stops there.
    pub min_items: usize,
    /// The schema's `maxItems`: adding stops there.
    pub max_items: Option<usize>,
    /// The list keeps its items (read-only, or its items carry read-only values).
    pub locked: bool,
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
        // Groups and lists are edited field by field; a whole value is JSON.
        FieldKind::Group(_) | FieldKind::List(_) => serde_json::from_str(trimmed).ok(),
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
