//! The form's choice of variant: an `argsSchema` whose `oneOf` / `anyOf` alternatives are
//! objects (a payment "by card" or "by transfer") gets a select of the alternatives and the
//! chosen one's fields, instead of the JSON editor alone.
//!
//! Choices worth knowing:
//! - Each variant's fields are the schema's own `properties` and `required` plus the
//!   alternative's (a local `$ref` to `#/$defs/...` or `#/definitions/...` is followed). Every
//!   alternative must make a whole form (`super::form`), or there is no variant form at all.
//! - Choosing a variant rewrites the JSON text, the single source of truth: properties only
//!   the old variant had are removed, the new one's `const`s are written, and its `default`s
//!   fill properties that are not set.
//! - The variant shown follows the text: it stays while the text's `const` properties agree
//!   with it, otherwise the first variant the arguments satisfy (or whose `const`s they carry)
//!   is shown.

use serde_json::{Map, Value};

use super::edit::{FieldKind, FormField};
use super::form::form_fields;
use super::schema::{blocks, check_value, variant_names};

/// At most this many alternatives make a variant form.
pub const MAX_VARIANTS: usize = 8;

/// One alternative of a variant form.
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    /// Its short name (the alternative's `title`, the end of its `$ref`, its `const`...).
    pub name: String,
    /// The fields of the schema's own properties and the alternative's.
    pub fields: Vec<FormField>,
    /// The object schema the fields come from.
    schema: Value,
}

/// The variants of `schema` when it is a `oneOf` / `anyOf` of 2 to [`MAX_VARIANTS`] objects
/// the form can show whole; `None` otherwise.
pub fn form_variants(schema: Option<&Value>) -> Option<Vec<Variant>> {
    let root = schema?;
    let s = root.as_object()?;
    let branches = match (s.get("oneOf"), s.get("anyOf")) {
        (Some(Value::Array(b)), None) | (None, Some(Value::Array(b))) => b,
        _ => return None,
    };
    if !(2..=MAX_VARIANTS).contains(&branches.len()) {
        return None;
    }
    let names = variant_names(root, branches);
    branches
        .iter()
        .zip(names)
        .map(|(branch, name)| {
            let branch = follow_local_ref(root, branch)?.as_object()?;
            let schema = merge(s, branch)?;
            let fields = form_fields(Some(&schema))?;
            Some(Variant {
                name,
                fields,
                schema,
            })
        })
        .collect()
}

/// `branch`, or what its `$ref` (`#/...` inside `root`) names.
fn follow_local_ref<'a>(root: &'a Value, branch: &'a Value) -> Option<&'a Value> {
    match branch.get("$ref").and_then(Value::as_str) {
        Some(reference) => root.pointer(reference.strip_prefix('#')?),
        None => Some(branch),
    }
}

/// An object schema of the root's own properties and the branch's, with the root's `$defs`
/// (so a property's local `$ref` still leads somewhere).
fn merge(root: &Map<String, Value>, branch: &Map<String, Value>) -> Option<Value> {
    if let Some(t) = branch.get("type") {
        if t != "object" {
            return None;
        }
    }
    let mut properties = Map::new();
    let mut required: Vec<Value> = Vec::new();
    for s in [root, branch] {
        if let Some(props) = s.get("properties").and_then(Value::as_object) {
            properties.extend(props.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
        if let Some(names) = s.get("required").and_then(Value::as_array) {
            required.extend(
                names
                    .iter()
                    .filter(|n| !required.contains(n))
                    .cloned()
                    .collect::<Vec<_>>(),
            );
        }
    }
    let mut schema = Map::new();
    for defs in ["$defs", "definitions"] {
        if let Some(found) = root.get(defs) {
            schema.insert(defs.into(), found.clone());
        }
    }
    schema.insert("type".into(), "object".into());
    schema.insert("properties".into(), Value::Object(properties));
    schema.insert("required".into(), Value::Array(required));
    Some(Value::Object(schema))
}

/// The `const` fields of `variant` all agree with `args` (absent counts as agreeing).
fn consts_agree(variant: &Variant, args: &Map<String, Value>) -> bool {
    variant.fields.iter().all(|f| match &f.kind {
        FieldKind::Fixed(value) => args
            .get(&f.name)
            .is_none_or(|v| super::schema::args_equal(v, value)),
        _ => true,
    })
}

/// The variant to show for `args`, given the one shown now (see the module notes).
pub fn current_variant(variants: &[Variant], shown: Option<usize>, args: &Value) -> usize {
    let Some(obj) = args.as_object() else {
        return shown.unwrap_or(0);
    };
    if let Some(i) = shown.filter(|&i| variants.get(i).is_some_and(|v| consts_agree(v, obj))) {
        return i;
    }
    let satisfied = variants
        .iter()
        .position(|v| !blocks(&check_value(args, &v.schema)));
    let carried = variants.iter().position(|v| {
        consts_agree(v, obj)
            && v.fields
                .iter()
                .any(|f| matches!(f.kind, FieldKind::Fixed(_)) && obj.contains_key(&f.name))
    });
    satisfied.or(carried).unwrap_or(0)
}

/// The JSON text after switching from variant `from` to `to` (see the module notes); `None`
/// when `text` is not a JSON object.
pub fn switch_variant(text: &str, from: &Variant, to: &Variant) -> Option<String> {
    let mut object = match serde_json::from_str::<Value>(text).ok()? {
        Value::Object(map) => map,
        _ => return None,
    };
    for field in &from.fields {
        if !to.fields.iter().any(|f| f.name == field.name) {
            object.remove(&field.name);
        }
    }
    for field in &to.fields {
        match (&field.kind, &field.default) {
            (FieldKind::Fixed(value), _) => {
                object.insert(field.name.clone(), value.clone());
            }
            (_, Some(default)) if !object.contains_key(&field.name) => {
                object.insert(field.name.clone(), default.clone());
            }
            _ => {}
        }
    }
    serde_json::to_string_pretty(&Value::Object(object)).ok()
}
