//! The form beside the JSON editor for nested schemas: objects as groups of fields, arrays as
//! lists whose items are added and removed, kept in sync with the JSON text, problems at the
//! nested field, `readOnly` held at any depth (by the form and by the answer gate), and the
//! bounds that keep a hostile schema from drawing a huge form. No browser.
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::{
    check_resolve, form_fields, ActionCard, ApprovalDraft, CardState, Decision, FieldKind, Millis,
    PendingAction, ProblemKind, Resolution, ResolveContext, ResolveRefusal, Shown, MAX_FORM_DEPTH,
    MAX_FORM_FIELDS,
};
use serde_json::{json, Value};

fn schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "title": {"type": "string"},
            "order": {"type": "object", "title": "Order", "properties": {
                "id": {"type": "string", "readOnly": true},
                "note": {"type": "string"},
                "shipping": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
            }},
            "lines": {"type": "array", "title": "Lines", "maxItems": 2, "items": {"$ref": "#/$defs/line"}},
            "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1},
            "contact": {
                "type": "object",
                "properties": {"email": {"type": "string"}, "phone": {"type": "string"}},
                "anyOf": [{"title": "By email", "required": ["email"]}, {"title": "By phone", "required": ["phone"]}]
            }
        },
        "$defs": {"line": {"type": "object", "properties": {
            "sku": {"type": "string"},
            "qty": {"type": "integer", "minimum": 1, "default": 1}
        }, "required": ["sku"]}}
    })
}

fn args() -> Value {
    json!({
        "title": "T",
        "order": {"id": "A-1", "note": "n", "shipping": {"city": "Paris"}},
        "lines": [{"sku": "x", "qty": 2}],
        "tags": ["a"],
        "contact": {"email": "a@example.com"}
    })
}

fn action(schema: Value, args: Value) -> PendingAction {
    PendingAction::from_json(&json!({
        "id": "act_1", "type": "tool_approval", "toolName": "place_order",
        "args": args, "argsSchema": schema
    }))
    .unwrap()
}

fn draft() -> ApprovalDraft {
    ApprovalDraft::new(&action(schema(), args()), true).unwrap()
}

fn text_value(d: &ApprovalDraft) -> Value {
    serde_json::from_str(d.text()).unwrap()
}

#[test]
fn issue40_nested_objects_and_arrays_get_groups_and_lists() {
    let fields = form_fields(Some(&schema())).expect("a nested schema gets a form");
    let mut names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["contact", "lines", "order", "tags", "title"]);
    let field = |name: &str| fields.iter().find(|f| f.name == name).unwrap();
    let FieldKind::Group(order) = &field("order").kind else {
        panic!("order is not a group: {:?}", field("order").kind);
    };
    assert_eq!(field("order").title.as_deref(), Some("Order"));
    let child = |name: &str| order.iter().find(|f| f.name == name).unwrap();
    assert!(child("id").read_only, "a nested readOnly is locked");
    assert!(!child("note").read_only);
    assert!(matches!(child("shipping").kind, FieldKind::Group(_)));
    let FieldKind::List(lines) = &field("lines").kind else {
        panic!("lines is not a list: {:?}", field("lines").kind);
    };
    assert_eq!(
        (lines.min_items, lines.max_items, lines.locked),
        (0, Some(2), false)
    );
    let FieldKind::Group(line) = &lines.item.kind else {
        panic!(
            "a line ($ref followed) is not a group: {:?}",
            lines.item.kind
        );
    };
    let qty = line.iter().find(|f| f.name == "qty").unwrap();
    assert_eq!(qty.default, Some(json!(1)));
    let FieldKind::List(tags) = &field("tags").kind else {
        panic!("tags is not a list");
    };
    assert_eq!(tags.item.kind, FieldKind::Text);
}

#[test]
fn issue40_a_nested_field_edits_the_json_and_the_json_the_field() {
    let mut d = draft();
    assert_eq!(d.field_text_at("/order/shipping/city"), "Paris");
    d.set_field_at("/order/shipping/city", "Lyon");
    assert_eq!(text_value(&d)["order"]["shipping"]["city"], "Lyon");
    let paths: Vec<&str> = d.changes().iter().map(|c| c.path.as_str()).collect();
    assert_eq!(paths, ["order.shipping.city"]);
    // The JSON editor's text is what the field shows.
    let mut edited = text_value(&d);
    edited["lines"][0]["qty"] = json!(5);
    d.set_text(edited.to_string());
    assert_eq!(d.field_text_at("/lines/0/qty"), "5");
    d.set_field_at("/lines/0/qty", "3");
    assert_eq!(text_value(&d)["lines"][0]["qty"], 3);
    // Emptying a required nested field names it at its own object.
    d.set_field_at("/order/shipping/city", "");
    let problems: Vec<(&str, &ProblemKind)> = d
        .problems()
        .iter()
        .map(|p| (p.path.as_str(), &p.kind))
        .collect();
    assert_eq!(
        problems,
        [(
            "/order/shipping",
            &ProblemKind::Required {
                property: "city".into()
            }
        )]
    );
    // A field the form does not have, and a read-only one, are not written.
    let before = d.text().to_owned();
    d.set_field_at("/order/id", "B-2");
    d.set_field_at("/order/nope", "x");
    d.set_field_at("/lines/7/qty", "1");
    assert_eq!(d.text(), before);
}

#[test]
fn issue40_list_items_are_added_and_removed_within_their_bounds() {
    let mut d = draft();
    assert!(d.can_add_item("/lines"));
    d.add_item("/lines");
    // The new item carries its defaults; its required `sku` is named at the item.
    assert_eq!(text_value(&d)["lines"][1], json!({"qty": 1}));
    assert_eq!(d.problems().len(), 1, "{:?}", d.problems());
    assert_eq!(d.problems()[0].path, "/lines/1");
    assert!(!d.can_add_item("/lines"), "maxItems 2 reached");
    let before = d.text().to_owned();
    d.add_item("/lines");
    assert_eq!(d.text(), before, "no third line");
    d.set_field_at("/lines/1/sku", "y");
    assert!(d.problems().is_empty(), "{:?}", d.problems());
    d.remove_item("/lines", 0);
    assert_eq!(text_value(&d)["lines"], json!([{"sku": "y", "qty": 1}]));
    // `minItems: 1` keeps the last tag.
    assert!(!d.can_remove_item("/tags"));
    d.remove_item("/tags", 0);
    assert_eq!(text_value(&d)["tags"], json!(["a"]));
    d.add_item("/tags");
    assert_eq!(text_value(&d)["tags"], json!(["a", ""]));
    assert!(d.can_remove_item("/tags"));
}

#[test]
fn issue40_a_composition_problem_points_at_the_nested_group() {
    let mut d = draft();
    d.set_field_at("/contact/email", "");
    assert_eq!(d.problems().len(), 1, "{:?}", d.problems());
    assert_eq!(d.problems()[0].path, "/contact");
    assert_eq!(
        d.problems()[0].kind,
        ProblemKind::AnyOf {
            variants: vec!["By email".into(), "By phone".into()]
        }
    );
    d.set_field_at("/contact/phone", "+90 555");
    assert!(d.problems().is_empty(), "{:?}", d.problems());
}

const OPEN: ResolveContext = ResolveContext {
    now: Millis(1_000),
    may_answer: true,
    backend_edits: true,
    backend_remembers: true,
    busy: false,
};

fn allow(args: Value) -> Resolution {
    Resolution::ToolApproval {
        decision: Decision::Allow,
        approved_args: Some(args),
        remember_for_session: false,
        comment: None,
    }
}

#[test]
fn issue40_a_nested_read_only_value_blocks_approve_and_is_refused_by_the_gate() {
    let a = action(schema(), args());
    let mut bad = args();
    bad["order"]["id"] = json!("B-2");
    let mut d = ApprovalDraft::new(&a, true).unwrap();
    d.set_text(bad.to_string());
    assert_eq!(d.problems()[0].path, "/order/id");
    assert_eq!(d.problems()[0].kind, ProblemKind::ReadOnly);
    assert!(d.approve().is_none());

    let card = ActionCard::new(a.clone(), CardState::Waiting, None, false);
    let shown = Shown::of(&a);
    match check_resolve(Some(&card), &shown, &allow(bad.clone()), OPEN) {
        Err(ResolveRefusal::ReadOnlyValue(problems)) => {
            assert_eq!(problems.len(), 1, "{problems:?}");
            assert_eq!(problems[0].path, "/order/id");
        }
        other => panic!("a nested read-only change was not refused: {other:?}"),
    }
    let mut good = args();
    good["order"]["note"] = json!("leave at the door");
    assert_eq!(
        check_resolve(Some(&card), &shown, &allow(good.clone()), OPEN).unwrap(),
        allow(good)
    );
}

#[test]
fn issue40_a_list_whose_items_hold_read_only_values_keeps_its_items() {
    let schema = json!({"type": "object", "properties": {"lines": {"type": "array", "items": {
        "type": "object",
        "properties": {"id": {"type": "string", "readOnly": true}, "qty": {"type": "integer"}}
    }}}});
    let args = json!({"lines": [{"id": "L1", "qty": 1}, {"id": "L2", "qty": 2}]});
    let a = action(schema, args.clone());
    let mut d = ApprovalDraft::new(&a, true).unwrap();
    assert!(!d.can_add_item("/lines") && !d.can_remove_item("/lines"));
    let before = d.text().to_owned();
    d.remove_item("/lines", 0);
    d.add_item("/lines");
    assert_eq!(d.text(), before);
    // The quantities stay editable.
    d.set_field_at("/lines/1/qty", "5");
    assert!(d.problems().is_empty(), "{:?}", d.problems());

    let card = ActionCard::new(a.clone(), CardState::Waiting, None, false);
    let shown = Shown::of(&a);
    for bad in [
        json!({"lines": [{"id": "L2", "qty": 2}]}),
        json!({"lines": [{"id": "L1", "qty": 1}, {"id": "L2", "qty": 2}, {"id": "L3"}]}),
        json!({"lines": [{"id": "L1", "qty": 1}, {"id": "X", "qty": 2}]}),
    ] {
        assert!(
            matches!(
                check_resolve(Some(&card), &shown, &allow(bad.clone()), OPEN),
                Err(ResolveRefusal::ReadOnlyValue(_))
            ),
            "{bad} was let through"
        );
    }
}

#[test]
fn issue40_the_form_is_bounded_and_hostile_schemas_get_the_json_editor() {
    // Deeper than the bound: no form (a form showing part would hide the rest).
    let mut deep = json!({"type": "string"});
    for _ in 0..MAX_FORM_DEPTH + 2 {
        deep = json!({"type": "object", "properties": {"a": deep}});
    }
    assert_eq!(form_fields(Some(&deep)), None);
    let mut fits = json!({"type": "string"});
    for _ in 0..MAX_FORM_DEPTH {
        fits = json!({"type": "object", "properties": {"a": fits}});
    }
    assert!(form_fields(Some(&json!({"type": "object", "properties": {"a": fits}}))).is_some());
    // Too many fields in all.
    let wide: serde_json::Map<String, Value> = (0..16)
        .map(|i| (format!("p{i}"), json!({"type": "string"})))
        .collect();
    let group = json!({"type": "object", "properties": wide});
    let many: serde_json::Map<String, Value> =
        (0..4).map(|i| (format!("g{i}"), group.clone())).collect();
    const { assert!(4 * 16 + 4 > MAX_FORM_FIELDS) };
    assert_eq!(form_fields(Some(&json!({"properties": many}))), None);
    // A recursive `$ref` and a tuple give no form; neither does a composed group that adds
    // fields of its own.
    let recursive = json!({"properties": {"node": {"$ref": "#"}}});
    assert_eq!(form_fields(Some(&recursive)), None);
    let tuple =
        json!({"properties": {"t": {"type": "array", "prefixItems": [{"type": "string"}]}}});
    assert_eq!(form_fields(Some(&tuple)), None);
    let adds = json!({"properties": {"g": {"type": "object", "properties": {"a": {"type": "string"}},
        "oneOf": [{"properties": {"b": {"type": "string"}}}]}}});
    assert_eq!(form_fields(Some(&adds)), None);
}

#[test]
fn issue40_the_read_only_walk_is_bounded_on_a_hostile_schema() {
    // Every property refers back to the root: the walk stops at its bounds and keeps the
    // deep value whole instead of looping.
    let schema = json!({"properties": {
        "a": {"$ref": "#"}, "b": {"$ref": "#"}, "id": {"readOnly": true}
    }});
    let mut value = json!({"id": "x"});
    for _ in 0..80 {
        value = json!({"a": value.clone(), "b": value, "id": "x"});
        if value.to_string().len() > 200_000 {
            break;
        }
    }
    let a = action(schema, value.clone());
    let card = ActionCard::new(a.clone(), CardState::Waiting, None, false);
    let shown = Shown::of(&a);
    let mut changed = value.clone();
    changed["a"]["id"] = json!("y");
    assert!(matches!(
        check_resolve(Some(&card), &shown, &allow(changed), OPEN),
        Err(ResolveRefusal::ReadOnlyValue(_))
    ));
    let mut fine = value;
    fine["extra"] = json!(1);
    assert!(check_resolve(Some(&card), &shown, &allow(fine), OPEN).is_ok());
}
