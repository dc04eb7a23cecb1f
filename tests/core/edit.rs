//! The argument editor's form fields and diff (issue 4 "Go beyond": seed 004 asks for a readable
//! diff; flat schemas get form fields kept in sync with the JSON).
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::{
    apply_field, diff_args, field_text, field_value, form_fields, ArgChange, FieldKind,
};
use serde_json::{json, Value};

fn email_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "to": { "type": "string", "title": "Recipient" },
            "priority": { "enum": ["low", "high"] },
            "retries": { "type": "integer", "description": "How often to retry" },
            "ratio": { "type": "number" },
            "urgent": { "type": "boolean" }
        },
        "required": ["to"]
    })
}

#[test]
fn f205_flat_schema_gives_one_field_per_property_with_its_kind() {
    let fields = form_fields(Some(&email_schema())).expect("flat schema");
    let kinds: Vec<(&str, &FieldKind, bool)> = fields
        .iter()
        .map(|f| (f.name.as_str(), &f.kind, f.required))
        .collect();
    assert_eq!(kinds.len(), 5);
    assert!(kinds.contains(&("to", &FieldKind::Text, true)));
    assert!(kinds.contains(&(
        "priority",
        &FieldKind::Choice(vec![json!("low"), json!("high")]),
        false
    )));
    assert!(kinds.contains(&("retries", &FieldKind::Integer, false)));
    assert!(kinds.contains(&("ratio", &FieldKind::Number, false)));
    assert!(kinds.contains(&("urgent", &FieldKind::Boolean, false)));
    let to = fields.iter().find(|f| f.name == "to").unwrap();
    assert_eq!(to.title.as_deref(), Some("Recipient"));
    let retries = fields.iter().find(|f| f.name == "retries").unwrap();
    assert_eq!(retries.description.as_deref(), Some("How often to retry"));
}

#[test]
fn nested_union_or_missing_schemas_get_no_form() {
    assert_eq!(form_fields(None), None);
    assert_eq!(form_fields(Some(&json!(true))), None);
    assert_eq!(form_fields(Some(&json!({"type": "array"}))), None);
    assert_eq!(form_fields(Some(&json!({"type": "object"}))), None);
    let nested = json!({"properties": {"a": {"type": "object"}}});
    assert_eq!(form_fields(Some(&nested)), None);
    let union = json!({"properties": {"a": {"type": ["string", "null"]}}});
    assert_eq!(form_fields(Some(&union)), None);
    let any_of = json!({"properties": {"a": {"type": "string", "anyOf": []}}});
    assert_eq!(form_fields(Some(&any_of)), None);
    let object_enum = json!({"properties": {"a": {"enum": [{"x": 1}]}}});
    assert_eq!(form_fields(Some(&object_enum)), None);
    let many: serde_json::Map<String, Value> = (0..17)
        .map(|i| (format!("p{i}"), json!({"type": "string"})))
        .collect();
    assert_eq!(form_fields(Some(&json!({ "properties": many }))), None);
}

#[test]
fn field_values_parse_by_kind_and_an_emptied_field_removes_the_property() {
    assert_eq!(field_value(&FieldKind::Text, "a b"), Some(json!("a b")));
    assert_eq!(field_value(&FieldKind::Text, ""), None);
    assert_eq!(field_value(&FieldKind::Integer, " 42 "), Some(json!(42)));
    assert_eq!(field_value(&FieldKind::Integer, "4.5"), Some(json!("4.5")));
    assert_eq!(field_value(&FieldKind::Number, "4.5"), Some(json!(4.5)));
    assert_eq!(field_value(&FieldKind::Number, ""), None);
    assert_eq!(field_value(&FieldKind::Boolean, "true"), Some(json!(true)));
    assert_eq!(
        field_value(&FieldKind::Boolean, "false"),
        Some(json!(false))
    );
    let choice = FieldKind::Choice(vec![json!("low"), json!(3), json!(true)]);
    assert_eq!(field_value(&choice, "3"), Some(json!(3)));
    assert_eq!(field_value(&choice, "true"), Some(json!(true)));
    assert_eq!(field_value(&choice, "low"), Some(json!("low")));
    assert_eq!(field_value(&choice, ""), None);
    assert_eq!(field_text(Some(&json!("x"))), "x");
    assert_eq!(field_text(Some(&json!(3))), "3");
    assert_eq!(field_text(None), "");
}

#[test]
fn applying_a_field_rewrites_the_json_and_refuses_text_that_is_not_an_object() {
    let text = "{\"to\": \"a@b.c\", \"n\": 1}";
    let out = apply_field(text, "to", Some(json!("x@y.z"))).unwrap();
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v, json!({"to": "x@y.z", "n": 1}));
    let out = apply_field(&out, "n", None).unwrap();
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v, json!({"to": "x@y.z"}));
    assert_eq!(apply_field("{oops", "to", Some(json!(1))), None);
    assert_eq!(apply_field("[1]", "to", Some(json!(1))), None);
}

#[test]
fn diff_lists_changed_added_and_removed_places_and_ignores_key_order() {
    let before = json!({"cmd": "ls", "opts": {"all": false, "dir": "/"}, "gone": 1});
    let after = json!({"opts": {"dir": "/", "all": true}, "cmd": "ls -la", "new": [1]});
    let changes = diff_args(&before, &after);
    let expect = |path: &str, b: Option<&str>, a: Option<&str>| ArgChange {
        path: path.into(),
        before: b.map(str::to_owned),
        after: a.map(str::to_owned),
    };
    assert_eq!(changes.len(), 4, "{changes:?}");
    assert!(changes.contains(&expect("cmd", Some("\"ls\""), Some("\"ls -la\""))));
    assert!(changes.contains(&expect("opts.all", Some("false"), Some("true"))));
    assert!(changes.contains(&expect("gone", Some("1"), None)));
    assert!(changes.contains(&expect("new", None, Some("[1]"))));
    let reordered = json!({"opts": {"dir": "/", "all": false}, "gone": 1.0, "cmd": "ls"});
    assert!(diff_args(&before, &reordered).is_empty());
    assert_eq!(
        diff_args(&json!(1), &json!("1")),
        vec![expect("", Some("1"), Some("\"1\""))]
    );
}
