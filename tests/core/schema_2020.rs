//! The argsSchema checker's JSON Schema 2020-12 keywords (issue 40): one test per problem
//! kind, the hostile-schema bounds (counted, not timed), "cannot judge" never passing
//! silently yet not blocking Approve, and the form's choice of variant.
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::schema::{MAX_DEPTH, MAX_ENUM, MAX_PATTERN, MAX_WORK};
use agent_chat_ui::core::{
    blocks, check_args, check_resolve, check_value, ActionCard, ApprovalDraft, CardState, Decision,
    FieldKind, Millis, PendingAction, Problem, ProblemKind, Resolution, ResolveContext, Shown,
};
use serde_json::{json, Value};

fn p(path: &str, kind: ProblemKind) -> Problem {
    Problem {
        path: path.to_owned(),
        kind,
    }
}

fn s(text: &str) -> String {
    text.to_owned()
}

/// (rule, schema, value, expected problems).
fn run(cases: Vec<(&str, Value, Value, Vec<Problem>)>) {
    let mut failures = Vec::new();
    for (rule, schema, value, expected) in cases {
        let got = check_value(&value, &schema);
        if got != expected {
            failures.push(format!(
                "{rule}: schema {schema} value {value}\n  expected {expected:?}\n  got      {got:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn issue40_each_new_problem_kind_points_at_the_field() {
    run(vec![
        (
            "multipleOf",
            json!({"properties": {"n": {"multipleOf": 0.5}}}),
            json!({"n": 1.25}),
            vec![p("/n", ProblemKind::MultipleOf { divisor: 0.5 })],
        ),
        (
            "multipleOf forgives float rounding",
            json!({"multipleOf": 0.1}),
            json!(0.3),
            vec![],
        ),
        (
            "format email",
            json!({"properties": {"to": {"format": "email"}}}),
            json!({"to": "not an email"}),
            vec![p("/to", ProblemKind::Format { format: s("email") })],
        ),
        (
            "format date-time",
            json!({"format": "date-time"}),
            json!("2026-02-30T10:00:00Z"),
            vec![p(
                "",
                ProblemKind::Format {
                    format: s("date-time"),
                },
            )],
        ),
        (
            "formats that pass",
            json!({"items": [{"format": "email"}, {"format": "uri"}, {"format": "date"},
                {"format": "uuid"}, {"format": "time"}, {"format": "date-time"}]}),
            json!([
                "a.b@c.io",
                "https://x.io/p?q=1",
                "2024-02-29",
                "123e4567-e89b-12d3-a456-426614174000",
                "23:59:60Z",
                "2026-12-05T14:00:00+01:00"
            ]),
            vec![],
        ),
        (
            "uniqueItems",
            json!({"uniqueItems": true}),
            json!([1, {"a": 1}, {"a": 1.0}]),
            vec![p(
                "",
                ProblemKind::UniqueItems {
                    first: 1,
                    second: 2,
                },
            )],
        ),
        (
            "contains",
            json!({"contains": {"const": "x"}}),
            json!(["a"]),
            vec![p("", ProblemKind::MinContains { limit: 1 })],
        ),
        (
            "maxContains",
            json!({"contains": {"type": "integer"}, "maxContains": 1}),
            json!([1, 2]),
            vec![p("", ProblemKind::MaxContains { limit: 1 })],
        ),
        (
            "minProperties",
            json!({"minProperties": 2}),
            json!({"a": 1}),
            vec![p("", ProblemKind::MinProperties { limit: 2 })],
        ),
        (
            "maxProperties",
            json!({"maxProperties": 1}),
            json!({"a": 1, "b": 2}),
            vec![p("", ProblemKind::MaxProperties { limit: 1 })],
        ),
        (
            "dependentRequired",
            json!({"dependentRequired": {"cc": ["to"]}}),
            json!({"cc": "x"}),
            vec![p(
                "",
                ProblemKind::DependentRequired {
                    property: s("cc"),
                    required: s("to"),
                },
            )],
        ),
        (
            "propertyNames",
            json!({"propertyNames": {"maxLength": 3}}),
            json!({"long_name": 1}),
            vec![p(
                "",
                ProblemKind::PropertyName {
                    property: s("long_name"),
                },
            )],
        ),
        (
            "not",
            json!({"properties": {"x": {"not": {"type": "string"}}}}),
            json!({"x": "s"}),
            vec![p("/x", ProblemKind::Not)],
        ),
        (
            "if/then/else: then applies",
            json!({"if": {"properties": {"kind": {"const": "card"}}},
                "then": {"required": ["number"]}, "else": {"required": ["iban"]}}),
            json!({"kind": "card"}),
            vec![p(
                "",
                ProblemKind::Required {
                    property: s("number"),
                },
            )],
        ),
        (
            "if/then/else: else applies",
            json!({"if": {"properties": {"kind": {"const": "card"}}},
                "then": {"required": ["number"]}, "else": {"required": ["iban"]}}),
            json!({"kind": "transfer"}),
            vec![p(
                "",
                ProblemKind::Required {
                    property: s("iban"),
                },
            )],
        ),
        (
            "prefixItems then items",
            json!({"prefixItems": [{"type": "string"}], "items": {"type": "integer"}}),
            json!(["a", 1, "b"]),
            vec![p(
                "/2",
                ProblemKind::Type {
                    expected: vec![s("integer")],
                },
            )],
        ),
        (
            "local $ref into $defs, problem at the field",
            json!({"$defs": {"email": {"type": "string", "format": "email"}},
                "properties": {"to": {"$ref": "#/$defs/email"}}}),
            json!({"to": "nope"}),
            vec![p("/to", ProblemKind::Format { format: s("email") })],
        ),
        (
            "$anchor",
            json!({"$defs": {"n": {"$anchor": "num", "type": "number"}},
                "properties": {"x": {"$ref": "#num"}}}),
            json!({"x": "1"}),
            vec![p(
                "/x",
                ProblemKind::Type {
                    expected: vec![s("number")],
                },
            )],
        ),
        (
            "a recursive $ref that moves along the value is not a loop",
            json!({"$defs": {"node": {"type": "object",
                "properties": {"next": {"$ref": "#/$defs/node"}, "v": {"type": "integer"}}}},
                "$ref": "#/$defs/node"}),
            json!({"next": {"next": {"v": "x"}}}),
            vec![p(
                "/next/next/v",
                ProblemKind::Type {
                    expected: vec![s("integer")],
                },
            )],
        ),
    ]);
}

#[test]
fn issue40_composition_problems_name_the_variants() {
    let schema = json!({
        "$defs": {"card": {"title": "Card", "required": ["number"]}},
        "properties": {"pay": {"oneOf": [
            {"$ref": "#/$defs/card"},
            {"title": "Transfer", "required": ["iban"]},
            {"const": "cash"}
        ]}}
    });
    let got = check_value(&json!({"pay": {}}), &schema);
    let variants = vec![s("Card"), s("Transfer"), s("\"cash\"")];
    assert_eq!(
        got,
        vec![p(
            "/pay",
            ProblemKind::OneOf {
                matched: 0,
                variants: variants.clone()
            }
        )]
    );
    assert_eq!(got[0].kind.fluent_id(), "chat-action-schema-one-of-none");
    assert!(got[0]
        .fluent_args()
        .contains(&("variants", s("Card, Transfer, \"cash\""))));
    let two = check_value(&json!({"pay": {"number": 1, "iban": 2}}), &schema);
    assert_eq!(
        two,
        vec![p(
            "/pay",
            ProblemKind::OneOf {
                matched: 2,
                variants
            }
        )]
    );
    assert_eq!(two[0].kind.fluent_id(), "chat-action-schema-one-of");
    let any = json!({"anyOf": [{"type": "string"}, {"type": "integer"}]});
    assert_eq!(
        check_value(&json!(1.5), &any),
        vec![p(
            "",
            ProblemKind::AnyOf {
                variants: vec![s("string"), s("integer")]
            }
        )]
    );
}

/// A problem's kind, for the "cannot judge" checks.
fn kinds(problems: &[Problem]) -> Vec<&ProblemKind> {
    problems.iter().map(|p| &p.kind).collect()
}

#[test]
fn issue40_what_cannot_be_judged_is_said_and_never_passes_silently() {
    let remote = json!({"properties": {"x": {"$ref": "https://example.com/s.json"}}});
    let got = check_value(&json!({"x": 1}), &remote);
    assert_eq!(
        kinds(&got),
        [&ProblemKind::RemoteRef {
            reference: s("https://example.com/s.json")
        }]
    );
    assert!(!got.is_empty() && !blocks(&got), "shown, not blocking");

    let dialect = json!({"$schema": "https://example.com/my-dialect"});
    assert_eq!(
        kinds(&check_value(&json!({}), &dialect)),
        [&ProblemKind::UnknownDialect {
            dialect: s("https://example.com/my-dialect")
        }]
    );
    let recursive = json!({"$recursiveRef": "#"});
    assert_eq!(
        kinds(&check_value(&json!({}), &recursive)),
        [&ProblemKind::Unsupported {
            keyword: s("$recursiveRef")
        }]
    );
    // What a remote `$ref` evaluated is not known, so `unevaluatedProperties` can not say
    // that a property was left over: "cannot judge", never a false problem.
    let unevaluated = json!({"$ref": "https://example.com/s.json", "unevaluatedProperties": false});
    assert_eq!(
        kinds(&check_value(&json!({"a": 1}), &unevaluated)),
        [&ProblemKind::RemoteRef {
            reference: s("https://example.com/s.json")
        }]
    );
    // A real problem still blocks beside a "cannot judge" one, which comes last.
    let both = json!({"required": ["to"], "properties": {"x": {"$ref": "other.json"}}});
    let got = check_value(&json!({"x": 1}), &both);
    assert!(blocks(&got));
    assert!(got.last().unwrap().kind.is_unjudged());
    // anyOf with an unknown branch is not a composition problem: it might match.
    let any = json!({"anyOf": [{"$ref": "other.json"}, {"type": "string"}]});
    assert_eq!(
        kinds(&check_value(&json!(1), &any)),
        [&ProblemKind::RemoteRef {
            reference: s("other.json")
        }]
    );
}

fn deep_schema(levels: usize) -> Value {
    let mut schema = json!({"type": "integer"});
    for _ in 0..levels {
        schema = json!({ "properties": { "a": schema } });
    }
    schema
}

fn deep_value(levels: usize) -> Value {
    let mut value = json!("x");
    for _ in 0..levels {
        value = json!({ "a": value });
    }
    value
}

#[test]
fn issue40_hostile_deep_nesting_stops_at_the_depth_bound() {
    let got = check_value(&deep_value(100), &deep_schema(100));
    assert_eq!(kinds(&got), [&ProblemKind::TooDeep]);
    assert_eq!(got[0].path.matches('/').count(), MAX_DEPTH + 1);
    // Within the bound the same shape is judged.
    let got = check_value(&deep_value(10), &deep_schema(10));
    assert!(matches!(
        got[..],
        [Problem {
            kind: ProblemKind::Type { .. },
            ..
        }]
    ));
}

#[test]
fn issue40_hostile_ref_cycles_are_detected() {
    for schema in [
        json!({"$ref": "#"}),
        json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}),
        json!({"allOf": [{"$ref": "#"}]}),
    ] {
        let got = check_value(&json!({}), &schema);
        assert!(
            matches!(kinds(&got)[..], [ProblemKind::RefCycle { .. }]),
            "{schema}: {got:?}"
        );
        assert!(!blocks(&got));
    }
}

#[test]
fn issue40_hostile_huge_enum_and_pattern_are_capped() {
    let huge: Vec<Value> = (0..=MAX_ENUM).map(Value::from).collect();
    let got = check_value(&json!(-1), &json!({ "enum": huge }));
    assert_eq!(kinds(&got), [&ProblemKind::TooLarge { keyword: s("enum") }]);
    let allowed: Vec<Value> = (0..MAX_ENUM).map(Value::from).collect();
    let got = check_value(&json!(-1), &json!({ "enum": allowed }));
    assert!(matches!(kinds(&got)[..], [ProblemKind::Enum { .. }]));
    // The message names a dozen values, not a thousand.
    assert!(got[0].fluent_args()[1].1.ends_with(", …"));

    let long = "a".repeat(MAX_PATTERN + 1);
    let got = check_value(&json!("a"), &json!({ "pattern": long }));
    assert_eq!(
        kinds(&got),
        [&ProblemKind::TooLarge {
            keyword: s("pattern")
        }]
    );
}

#[test]
fn issue40_hostile_many_branches_stop_at_the_work_bound() {
    // Each level is an anyOf of 10 references to the level below, all failing: a schema of
    // 8 small definitions whose walk, without a bound, is 10^8 subschemas.
    let mut defs = serde_json::Map::new();
    defs.insert("l0".into(), json!({"type": "string"}));
    for level in 1..8 {
        let below = json!({ "$ref": format!("#/$defs/l{}", level - 1) });
        defs.insert(format!("l{level}"), json!({ "anyOf": vec![below; 10] }));
    }
    let schema = json!({"$defs": defs, "$ref": "#/$defs/l7"});
    let got = check_value(&json!(1), &schema);
    assert!(kinds(&got).contains(&&ProblemKind::TooMuchWork), "{got:?}");
    assert!(got[got.len() - 1].kind.is_unjudged());
    assert_eq!(
        got.iter()
            .find(|p| p.kind == ProblemKind::TooMuchWork)
            .unwrap()
            .fluent_args()[1],
        ("limit", MAX_WORK.to_string())
    );
    // uniqueItems over a long list counts its comparisons too.
    let long: Vec<Value> = (0..1_000).map(Value::from).collect();
    let got = check_value(&Value::Array(long), &json!({"uniqueItems": true}));
    assert_eq!(kinds(&got), [&ProblemKind::TooMuchWork]);
}

fn remote_ref_action() -> PendingAction {
    PendingAction::from_json(&json!({
        "id": "act_1", "type": "tool_approval", "toolName": "lookup", "version": 1,
        "args": {"q": "a"},
        "argsSchema": {"type": "object", "required": ["q"],
            "properties": {"q": {"type": "string"}, "filter": {"$ref": "https://example.com/f.json"}}}
    }))
    .expect("a valid action")
}

#[test]
fn issue40_cannot_judge_keeps_approve_and_the_gate_lets_it_through() {
    let action = remote_ref_action();
    let mut d = ApprovalDraft::new(&action, true).unwrap();
    d.set_text(r#"{"q": "b", "filter": {"any": 1}}"#.into());
    assert!(d.problems().is_empty());
    assert!(matches!(
        d.unjudged(),
        [Problem {
            kind: ProblemKind::RemoteRef { .. },
            ..
        }]
    ));
    let state = CardState::Waiting;
    assert!(d.can_approve(Millis(0), &state, false, false));
    let approve = d.approve().expect("Approve stays possible");
    let card = ActionCard::new(action.clone(), CardState::Waiting, None, false);
    let ctx = ResolveContext {
        now: Millis(0),
        may_answer: true,
        backend_edits: true,
        backend_remembers: true,
        busy: false,
    };
    let sent = check_resolve(Some(&card), &Shown::of(&action), &approve, ctx);
    assert!(matches!(
        sent,
        Ok(Resolution::ToolApproval {
            decision: Decision::Allow,
            approved_args: Some(_),
            ..
        })
    ));
    // A real problem beside it still blocks, and only the real one is listed as blocking.
    d.set_text(r#"{"filter": 1}"#.into());
    assert_eq!(
        d.problems(),
        [p("", ProblemKind::Required { property: s("q") })]
    );
    assert!(!d.can_approve(Millis(0), &state, false, false));
    // The untouched proposal shows nothing (only an edit is checked).
    d.reset();
    assert!(d.unjudged().is_empty());
    assert!(check_args("{}", None).problems.is_empty());
}

fn payment_action() -> PendingAction {
    PendingAction::from_json(&json!({
        "id": "act_2", "type": "tool_approval", "toolName": "pay", "version": 1,
        "args": {"amount": 5, "method": "card", "number": "4242"},
        "argsSchema": {
            "type": "object",
            "required": ["amount"],
            "properties": {"amount": {"type": "number"}, "note": {"type": "string", "readOnly": true}},
            "$defs": {"card": {"title": "Card", "type": "object", "required": ["number"],
                "properties": {"method": {"const": "card"}, "number": {"type": "string"}}}},
            "oneOf": [
                {"$ref": "#/$defs/card"},
                {"title": "Transfer", "type": "object", "required": ["iban"],
                    "properties": {"method": {"const": "transfer"},
                        "iban": {"type": "string"}, "fee": {"type": "number", "default": 1}}}
            ]
        }
    }))
    .expect("a valid action")
}

#[test]
fn issue40_the_form_offers_a_choice_of_variant() {
    let mut d = ApprovalDraft::new(&payment_action(), true).unwrap();
    assert_eq!(d.variant_names(), ["Card", "Transfer"]);
    assert_eq!(d.variant(), 0, "the proposal is paid by card");
    let names = |d: &ApprovalDraft| -> Vec<String> {
        d.fields().unwrap().iter().map(|f| f.name.clone()).collect()
    };
    // By name: the schema's maps keep no order.
    assert_eq!(names(&d), ["amount", "method", "note", "number"]);
    let method = d
        .fields()
        .unwrap()
        .iter()
        .find(|f| f.name == "method")
        .unwrap();
    assert_eq!(method.kind, FieldKind::Fixed(json!("card")));
    let note = d
        .fields()
        .unwrap()
        .iter()
        .find(|f| f.name == "note")
        .unwrap();
    assert!(note.read_only);

    d.set_variant(1);
    assert_eq!(d.variant(), 1);
    assert_eq!(names(&d), ["amount", "fee", "iban", "method", "note"]);
    let edit: Value = serde_json::from_str(d.text()).unwrap();
    assert_eq!(edit, json!({"amount": 5, "method": "transfer", "fee": 1}));
    // The transfer still lacks its IBAN: the problem says so, at the object.
    assert_eq!(
        d.problems(),
        [p(
            "",
            ProblemKind::OneOf {
                matched: 0,
                variants: vec![s("Card"), s("Transfer")]
            }
        )]
    );
    d.set_field("iban", "DE89");
    assert!(d.problems().is_empty(), "{:?}", d.problems());
    // A const and a readOnly field are not written by the form.
    d.set_field("method", "card");
    d.set_field("note", "x");
    let edit: Value = serde_json::from_str(d.text()).unwrap();
    assert_eq!(
        edit,
        json!({"amount": 5, "method": "transfer", "fee": 1, "iban": "DE89"})
    );
    // Typing the other variant's const in the JSON moves the form along.
    d.set_text(r#"{"amount": 5, "method": "card", "number": "1"}"#.into());
    assert_eq!(d.variant(), 0);
}

/// D81: an answer that approves with edited arguments is what waits for the full checker in a
/// split build; a plain allow, a deny with a reason and an allow "as proposed" never wait. A
/// native build always holds the checker, so nothing waits here.
#[test]
fn d81_only_an_edit_waits_for_the_checker() {
    use agent_chat_ui::core::schema::{edit_waits_for_checker, gate_ready};
    use agent_chat_ui::core::{Decision, Resolution};
    let edit = Resolution::ToolApproval {
        decision: Decision::Allow,
        approved_args: Some(json!({ "to": "bob@example.com" })),
        remember_for_session: false,
        comment: None,
    };
    assert!(edit.carries_edit());
    assert!(!Resolution::allow().carries_edit());
    assert!(!Resolution::deny(Some("not now".into())).carries_edit());
    let denied_with_args = Resolution::ToolApproval {
        decision: Decision::Deny,
        approved_args: Some(json!({})),
        remember_for_session: false,
        comment: None,
    };
    assert!(!denied_with_args.carries_edit());
    assert!(gate_ready());
    assert!(!edit_waits_for_checker(&edit));
}

#[test]
fn issue40_unevaluated_properties_and_items_see_through_composition() {
    let schema = json!({
        "type": "object",
        "properties": {"kind": {"type": "string"}},
        "oneOf": [
            {"title": "Card", "properties": {"kind": {"const": "card"}, "number": {"type": "string"}}},
            {"title": "Transfer", "properties": {"kind": {"const": "iban"}, "iban": {"type": "string"}}}
        ],
        "unevaluatedProperties": false
    });
    assert_eq!(
        check_value(&json!({"kind": "card", "number": "4242"}), &schema),
        vec![]
    );
    // `iban` belongs to the branch that did not match: left over, named at the object.
    assert_eq!(
        check_value(
            &json!({"kind": "card", "number": "4242", "iban": "x"}),
            &schema
        ),
        vec![p(
            "",
            ProblemKind::AdditionalProperties {
                property: s("iban")
            }
        )]
    );
    // A subschema checks the left-over properties at their own path.
    let typed = json!({"allOf": [{"properties": {"a": true}}], "unevaluatedProperties": {"type": "integer"}});
    assert_eq!(
        check_value(&json!({"a": "x", "b": "y"}), &typed),
        vec![p(
            "/b",
            ProblemKind::Type {
                expected: vec![s("integer")]
            }
        )]
    );
    // Items: `prefixItems` in a `$ref`, `contains` and the rest.
    let items = json!({
        "$defs": {"pair": {"prefixItems": [{"type": "string"}, {"type": "integer"}]}},
        "$ref": "#/$defs/pair",
        "contains": {"const": "ok"},
        "unevaluatedItems": false
    });
    assert_eq!(check_value(&json!(["a", 1, "ok"]), &items), vec![]);
    assert_eq!(
        check_value(&json!(["a", 1, "ok", true]), &items),
        vec![p("/3", ProblemKind::Type { expected: vec![] })]
    );
}

#[test]
fn issue40_dynamic_ref_follows_the_dynamic_scope() {
    // A generic list whose items the outer schema names through `$dynamicAnchor`.
    let schema = json!({
        "$id": "https://example.com/strings",
        "$ref": "list",
        "$defs": {
            "item": {"$dynamicAnchor": "item", "type": "string"},
            "list": {
                "$id": "list",
                "type": "array",
                "items": {"$dynamicRef": "#item"},
                "$defs": {"any": {"$dynamicAnchor": "item"}}
            }
        }
    });
    assert_eq!(check_value(&json!(["a", "b"]), &schema), vec![]);
    assert_eq!(
        check_value(&json!(["a", 2]), &schema),
        vec![p(
            "/1",
            ProblemKind::Type {
                expected: vec![s("string")]
            }
        )]
    );
    // The list alone lets anything in.
    let list = &schema["$defs"]["list"];
    assert_eq!(check_value(&json!(["a", 2]), list), vec![]);
    // A `$dynamicRef` that names itself through the scope is a loop, judged as one.
    let looped = json!({"$dynamicAnchor": "me", "$dynamicRef": "#me"});
    let got = check_value(&json!(1), &looped);
    assert!(!got.is_empty() && !blocks(&got), "{got:?}");
}
