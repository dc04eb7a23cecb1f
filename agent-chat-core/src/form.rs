//! The form beside the JSON editor: fields built from the `argsSchema`, nested objects drawn as
//! groups of fields and arrays as lists of items, kept in sync with the JSON text.
//!
//! Choices worth knowing:
//! - A field is a scalar (string, number, integer, boolean: one `type`, not a union), an `enum`
//!   or a `const` of scalars, an object with `properties` (a group), or an array whose `items`
//!   is one such schema (a list). A local `$ref` (`#/...`) is followed. Anything else (a
//!   union, a tuple, an array without `items`, an object without `properties`) gives no form at
//!   all: a form that shows part of the arguments would hide the rest; the JSON editor stays.
//! - Bounds: [`MAX_FIELDS`] properties per object, [`MAX_FORM_DEPTH`] levels of groups and
//!   lists, [`MAX_FORM_FIELDS`] fields in all (an item counts once, whatever the list's length).
//! - A group may carry `allOf` / `anyOf` / `oneOf` / `not` whose branches only constrain
//!   (`required`, `minProperties`...): they add no field, the checker judges them and its
//!   problem points at the group. Any other composition gives no form.
//! - `readOnly` holds at any depth: a read-only group or list locks everything under it, and a
//!   list whose items carry a read-only value keeps its items (no adding, no removing), since
//!   items are told apart by position only.
//! - Every field has a JSON Pointer (`/order/items/0/qty`), the path the checker's problems
//!   name; the text is the single source of truth, written through [`set_at`], [`add_item`]
//!   and [`remove_item`].

use serde_json::{Map, Value};

use super::edit::{FieldKind, FormField, ListField};

/// At most this many properties per object get form fields.
pub const MAX_FIELDS: usize = 16;

/// At most this many levels of groups and lists below the arguments.
pub const MAX_FORM_DEPTH: usize = 4;

/// At most this many fields in one form, nested ones included.
pub const MAX_FORM_FIELDS: usize = 64;

/// Keywords a group's composition branch may use: they constrain the fields already drawn.
const CONSTRAINTS: [&str; 7] = [
    "required",
    "minProperties",
    "maxProperties",
    "dependentRequired",
    "title",
    "description",
    "not",
];

/// Form fields for an object schema, in the schema's property order; `None` when the schema
/// is absent or the form can not show all of it (see the module notes).
pub fn form_fields(schema: Option<&Value>) -> Option<Vec<FormField>> {
    let root = schema?;
    let mut budget = MAX_FORM_FIELDS;
    object_fields(root, root, 0, false, &mut budget)
}

/// The object schema `schema`'s fields.
fn object_fields(
    root: &Value,
    schema: &Value,
    depth: usize,
    locked: bool,
    budget: &mut usize,
) -> Option<Vec<FormField>> {
    let s = local(root, schema)?.as_object()?;
    if s.get("type").is_some_and(|t| t != "object") {
        return None;
    }
    if depth > 0 && !constraints_only(s) {
        return None;
    }
    let properties = s.get("properties")?.as_object()?;
    if properties.is_empty() || properties.len() > MAX_FIELDS {
        return None;
    }
    let required: Vec<&str> = s
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    properties
        .iter()
        .map(|(name, prop)| {
            let required = required.contains(&name.as_str());
            field(root, name, prop, required, depth, locked, budget)
        })
        .collect()
}

/// A group's composition only constrains its fields (see the module notes).
fn constraints_only(s: &Map<String, Value>) -> bool {
    let plain = |branch: &Value| match branch {
        Value::Object(b) => b.keys().all(|k| CONSTRAINTS.contains(&k.as_str())),
        Value::Bool(_) => true,
        _ => false,
    };
    let lists = ["allOf", "anyOf", "oneOf"]
        .into_iter()
        .all(|k| match s.get(k) {
            None => true,
            Some(Value::Array(branches)) => branches.iter().all(plain),
            Some(_) => false,
        });
    let conditional = ["if", "then", "else", "dependentSchemas"]
        .into_iter()
        .all(|k| !s.contains_key(k));
    lists && conditional && s.get("not").is_none_or(plain)
}

fn field(
    root: &Value,
    name: &str,
    prop: &Value,
    required: bool,
    depth: usize,
    locked: bool,
    budget: &mut usize,
) -> Option<FormField> {
    *budget = budget.checked_sub(1)?;
    let prop = local(root, prop)?;
    let p = prop.as_object()?;
    let text = |key: &str| p.get(key).and_then(Value::as_str).map(str::to_owned);
    let read_only = locked || p.get("readOnly") == Some(&Value::Bool(true));
    Some(FormField {
        name: name.to_owned(),
        title: text("title"),
        description: text("description"),
        kind: field_kind(root, prop, depth, read_only, budget)?,
        required,
        read_only,
        default: p.get("default").cloned(),
    })
}

fn field_kind(
    root: &Value,
    prop: &Value,
    depth: usize,
    read_only: bool,
    budget: &mut usize,
) -> Option<FieldKind> {
    let p = prop.as_object()?;
    let scalar = |v: &Value| v.is_string() || v.is_number() || v.is_boolean();
    if let Some(value) = p.get("const") {
        return scalar(value).then(|| FieldKind::Fixed(value.clone()));
    }
    if let Some(values) = p.get("enum") {
        let values = values.as_array()?;
        return (!values.is_empty() && values.iter().all(scalar))
            .then(|| FieldKind::Choice(values.clone()));
    }
    let kind = match p.get("type") {
        Some(t) => t.as_str()?,
        None if p.contains_key("properties") => "object",
        None => return None,
    };
    if kind == "object" || kind == "array" {
        if depth >= MAX_FORM_DEPTH {
            return None;
        }
        return if kind == "object" {
            object_fields(root, prop, depth + 1, read_only, budget).map(FieldKind::Group)
        } else {
            list(root, p, depth + 1, read_only, budget)
        };
    }
    if ["anyOf", "oneOf", "allOf", "not", "if"]
        .iter()
        .any(|k| p.contains_key(*k))
    {
        return None;
    }
    match kind {
        "string" => Some(FieldKind::Text),
        "number" => Some(FieldKind::Number),
        "integer" => Some(FieldKind::Integer),
        "boolean" => Some(FieldKind::Boolean),
        _ => None,
    }
}

fn list(
    root: &Value,
    p: &Map<String, Value>,
    depth: usize,
    read_only: bool,
    budget: &mut usize,
) -> Option<FieldKind> {
    let composed = [
        "anyOf",
        "oneOf",
        "allOf",
        "not",
        "if",
        "prefixItems",
        "contains",
    ];
    if composed.iter().any(|k| p.contains_key(*k)) {
        return None;
    }
    let items = p.get("items").filter(|i| !i.is_array())?;
    let item = field(root, "", items, false, depth, read_only, budget)?;
    let count = |k: &str| p.get(k).and_then(Value::as_u64).map(|n| n as usize);
    let locked = read_only || holds_read_only(&item);
    Some(FieldKind::List(Box::new(ListField {
        item,
        min_items: count("minItems").unwrap_or(0),
        max_items: count("maxItems"),
        locked,
    })))
}

/// Whether `field` or anything under it is read-only.
fn holds_read_only(field: &FormField) -> bool {
    field.read_only
        || match &field.kind {
            FieldKind::Group(children) => children.iter().any(holds_read_only),
            FieldKind::List(list) => holds_read_only(&list.item),
            _ => false,
        }
}

/// `schema`, or what its `$ref` (`#/...` inside `root`) names, one hop.
fn local<'a>(root: &'a Value, schema: &'a Value) -> Option<&'a Value> {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) => {
            let target = root.pointer(reference.strip_prefix('#')?)?;
            // A `$ref` beside other keywords, or to another `$ref`, is left to the editor.
            let alone = schema.as_object().is_some_and(|s| s.len() == 1);
            (alone && target.get("$ref").is_none()).then_some(target)
        }
        None => Some(schema),
    }
}

/// The JSON Pointer of `name` under `parent` (`~` and `/` escaped).
pub fn pointer_of(parent: &str, name: &str) -> String {
    format!("{parent}/{}", name.replace('~', "~0").replace('/', "~1"))
}

fn segments(pointer: &str) -> Vec<String> {
    pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// The field at `pointer` (items of a list share their list's item field).
pub fn field_at<'f>(fields: &'f [FormField], pointer: &str) -> Option<&'f FormField> {
    let mut level = fields;
    let mut found: Option<&FormField> = None;
    for segment in segments(pointer) {
        let next = match found.map(|f| &f.kind) {
            None | Some(FieldKind::Group(_)) => level.iter().find(|f| f.name == segment)?,
            Some(FieldKind::List(list)) => {
                segment.parse::<usize>().ok()?;
                &list.item
            }
            Some(_) => return None,
        };
        if let FieldKind::Group(children) = &next.kind {
            level = children;
        }
        found = Some(next);
    }
    found
}

/// Sets (or with `None` removes) the value at `pointer` in the JSON object `text`, making
/// the objects on the way when they are missing, and pretty-prints it again; `None` when
/// `text` is not a JSON object or the way passes through something else.
pub fn set_at(text: &str, pointer: &str, value: Option<Value>) -> Option<String> {
    let mut whole = serde_json::from_str::<Value>(text).ok()?;
    whole.as_object()?;
    let parts = segments(pointer);
    let (last, way) = parts.split_last()?;
    let mut node = &mut whole;
    for segment in way {
        node = match node {
            Value::Object(map) => map
                .entry(segment.clone())
                .or_insert_with(|| Value::Object(Map::new())),
            Value::Array(items) => items.get_mut(segment.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    match (node, value) {
        (Value::Object(map), Some(v)) => {
            map.insert(last.clone(), v);
        }
        (Value::Object(map), None) => {
            map.remove(last);
        }
        (Value::Array(items), v) => {
            let slot = items.get_mut(last.parse::<usize>().ok()?)?;
            *slot = v.unwrap_or(Value::Null);
        }
        _ => return None,
    }
    serde_json::to_string_pretty(&whole).ok()
}

/// The text with a new item at the end of the list at `pointer` (made when missing): the
/// item's `const`s and defaults, read-only values left out. `None` when the list is full or
/// locked, or the text is not an object.
pub fn add_item(text: &str, pointer: &str, list: &ListField) -> Option<String> {
    let whole = serde_json::from_str::<Value>(text).ok()?;
    let mut items = match whole.pointer(pointer) {
        Some(Value::Array(items)) => items.clone(),
        None | Some(Value::Null) => Vec::new(),
        Some(_) => return None,
    };
    if list.locked || list.max_items.is_some_and(|max| items.len() >= max) {
        return None;
    }
    items.push(blank(&list.item));
    set_at(text, pointer, Some(Value::Array(items)))
}

/// The text without item `index` of the list at `pointer`; `None` when the list is locked or
/// at its `minItems`, or there is no such item.
pub fn remove_item(text: &str, pointer: &str, index: usize, list: &ListField) -> Option<String> {
    let whole = serde_json::from_str::<Value>(text).ok()?;
    let mut items = whole.pointer(pointer)?.as_array()?.clone();
    if list.locked || items.len() <= list.min_items || index >= items.len() {
        return None;
    }
    items.remove(index);
    set_at(text, pointer, Some(Value::Array(items)))
}

/// A new item's value: a `const`, else the `default`, else an empty value of its kind.
fn blank(field: &FormField) -> Value {
    match &field.kind {
        FieldKind::Fixed(value) => value.clone(),
        _ if field.read_only => Value::Null,
        _ if field.default.is_some() => field.default.clone().unwrap_or(Value::Null),
        FieldKind::Text => Value::String(String::new()),
        FieldKind::Number | FieldKind::Integer => Value::from(0),
        FieldKind::Boolean => Value::Bool(false),
        FieldKind::Choice(values) => values.first().cloned().unwrap_or(Value::Null),
        FieldKind::Group(children) => Value::Object(
            children
                .iter()
                .filter(|c| {
                    !c.read_only && (c.default.is_some() || matches!(c.kind, FieldKind::Fixed(_)))
                })
                .map(|c| (c.name.clone(), blank(c)))
                .collect(),
        ),
        FieldKind::List(_) => Value::Array(Vec::new()),
    }
}

/// Makes `field` and everything under it read-only (a value the server's policy keeps).
pub fn lock(field: &mut FormField) {
    field.read_only = true;
    match &mut field.kind {
        FieldKind::Group(children) => children.iter_mut().for_each(lock),
        FieldKind::List(list) => {
            list.locked = true;
            lock(&mut list.item);
        }
        _ => {}
    }
}
