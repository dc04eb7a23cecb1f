//! The argsSchema check of the arguments editor (seed 000, "Editing the arguments"): every
//! supported keyword passing and failing, unknown keywords ignored, paths, the editor text
//! rules, the demo send_email schema, a hostile deep schema, and `args_equal`.
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::schema::MAX_DEPTH;
use agent_chat_ui::core::{args_equal, check_args_text, check_value, Problem, ProblemKind};
use serde_json::{json, Value};

fn p(path: &str, kind: ProblemKind) -> Problem {
    Problem {
        path: path.to_owned(),
        kind,
    }
}

/// (rule, schema, value, expected problems). An empty list means "valid".
type Case = (&'static str, Value, Value, Vec<Problem>);

fn run(cases: Vec<Case>) {
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

fn ty(names: &[&str]) -> ProblemKind {
    ProblemKind::Type {
        expected: names.iter().map(|n| n.to_string()).collect(),
    }
}

#[test]
fn seed000_type_keyword_single_and_union() {
    run(vec![
        ("object ok", json!({"type": "object"}), json!({}), vec![]),
        (
            "object fails",
            json!({"type": "object"}),
            json!([]),
            vec![p("", ty(&["object"]))],
        ),
        ("array ok", json!({"type": "array"}), json!([1]), vec![]),
        (
            "array fails",
            json!({"type": "array"}),
            json!({}),
            vec![p("", ty(&["array"]))],
        ),
        ("string ok", json!({"type": "string"}), json!("x"), vec![]),
        (
            "string fails",
            json!({"type": "string"}),
            json!(1),
            vec![p("", ty(&["string"]))],
        ),
        ("number ok", json!({"type": "number"}), json!(1.5), vec![]),
        (
            "number fails",
            json!({"type": "number"}),
            json!("1"),
            vec![p("", ty(&["number"]))],
        ),
        ("integer ok", json!({"type": "integer"}), json!(-3), vec![]),
        (
            "integer accepts 3.0",
            json!({"type": "integer"}),
            json!(3.0),
            vec![],
        ),
        (
            "integer fails 3.5",
            json!({"type": "integer"}),
            json!(3.5),
            vec![p("", ty(&["integer"]))],
        ),
        (
            "boolean ok",
            json!({"type": "boolean"}),
            json!(false),
            vec![],
        ),
        (
            "boolean fails",
            json!({"type": "boolean"}),
            json!(0),
            vec![p("", ty(&["boolean"]))],
        ),
        ("null ok", json!({"type": "null"}), json!(null), vec![]),
        (
            "null fails",
            json!({"type": "null"}),
            json!(""),
            vec![p("", ty(&["null"]))],
        ),
        (
            "union ok string",
            json!({"type": ["string", "null"]}),
            json!("a"),
            vec![],
        ),
        (
            "union ok null",
            json!({"type": ["string", "null"]}),
            json!(null),
            vec![],
        ),
        (
            "union fails",
            json!({"type": ["string", "null"]}),
            json!(2),
            vec![p("", ty(&["string", "null"]))],
        ),
        (
            "type failure stops the other checks of that schema",
            json!({"type": "string", "enum": ["a"], "minLength": 5}),
            json!(7),
            vec![p("", ty(&["string"]))],
        ),
        (
            "unknown type name matches",
            json!({"type": "any"}),
            json!(1),
            vec![],
        ),
    ]);
}

#[test]
fn seed000_enum_and_const_compare_deeply_and_numbers_by_value() {
    run(vec![
        ("enum ok", json!({"enum": ["a", "b"]}), json!("b"), vec![]),
        (
            "enum ok 1 == 1.0",
            json!({"enum": [1.0, 2]}),
            json!(1),
            vec![],
        ),
        (
            "enum ok object",
            json!({"enum": [{"a": 1, "b": [2]}]}),
            json!({"b": [2.0], "a": 1}),
            vec![],
        ),
        (
            "enum fails",
            json!({"enum": ["a", "b"]}),
            json!("c"),
            vec![p(
                "",
                ProblemKind::Enum {
                    allowed: vec![json!("a"), json!("b")],
                },
            )],
        ),
        (
            "const ok",
            json!({"const": {"x": [1, null]}}),
            json!({"x": [1.0, null]}),
            vec![],
        ),
        (
            "const fails",
            json!({"const": "yes"}),
            json!("no"),
            vec![p(
                "",
                ProblemKind::Const {
                    expected: json!("yes"),
                },
            )],
        ),
        (
            "const fails on array length",
            json!({"const": [1, 2]}),
            json!([1, 2, 3]),
            vec![p(
                "",
                ProblemKind::Const {
                    expected: json!([1, 2]),
                },
            )],
        ),
    ]);
}

#[test]
fn seed000_properties_required_additional_properties() {
    let schema = json!({
        "type": "object",
        "required": ["to"],
        "properties": { "to": { "type": "string" }, "cc": { "type": "string" } },
        "additionalProperties": false
    });
    let extra_schema = json!({
        "properties": { "a": { "type": "string" } },
        "additionalProperties": { "type": "integer" }
    });
    run(vec![
        (
            "properties ok",
            schema.clone(),
            json!({"to": "a", "cc": "b"}),
            vec![],
        ),
        (
            "properties checks the property's schema",
            schema.clone(),
            json!({"to": 1}),
            vec![p("/to", ty(&["string"]))],
        ),
        (
            "required fails at the object's path",
            schema.clone(),
            json!({"cc": "b"}),
            vec![p(
                "",
                ProblemKind::Required {
                    property: "to".into(),
                },
            )],
        ),
        (
            "additionalProperties false fails",
            schema.clone(),
            json!({"to": "a", "bcc": "x"}),
            vec![p(
                "",
                ProblemKind::AdditionalProperties {
                    property: "bcc".into(),
                },
            )],
        ),
        (
            "additionalProperties schema ok",
            extra_schema.clone(),
            json!({"a": "s", "n": 2}),
            vec![],
        ),
        (
            "additionalProperties schema applies to extra properties only",
            extra_schema,
            json!({"a": "s", "n": "two"}),
            vec![p("/n", ty(&["integer"]))],
        ),
        (
            "additionalProperties absent allows extras",
            json!({"properties": {"a": {"type": "string"}}}),
            json!({"b": 1}),
            vec![],
        ),
        (
            "property schema false forbids the property",
            json!({"properties": {"a": false}}),
            json!({"a": 1}),
            vec![p("/a", ty(&[]))],
        ),
        (
            "keys with / and ~ are escaped in paths",
            json!({"properties": {"a/b~c": {"type": "string"}}}),
            json!({"a/b~c": 1}),
            vec![p("/a~1b~0c", ty(&["string"]))],
        ),
    ]);
}

#[test]
fn seed000_items_list_and_tuple_forms() {
    run(vec![
        (
            "items ok",
            json!({"items": {"type": "integer"}}),
            json!([1, 2]),
            vec![],
        ),
        (
            "items fails per item",
            json!({"items": {"type": "integer"}}),
            json!([1, "x", 3, null]),
            vec![p("/1", ty(&["integer"])), p("/3", ty(&["integer"]))],
        ),
        (
            "tuple ok, extra items free",
            json!({"items": [{"type": "string"}, {"type": "integer"}]}),
            json!(["a", 1, true]),
            vec![],
        ),
        (
            "tuple fails positionally",
            json!({"items": [{"type": "string"}, {"type": "integer"}]}),
            json!([1, "a"]),
            vec![p("/0", ty(&["string"])), p("/1", ty(&["integer"]))],
        ),
        (
            "items false rejects any item",
            json!({"items": false}),
            json!([1]),
            vec![p("/0", ty(&[]))],
        ),
        (
            "items false accepts []",
            json!({"items": false}),
            json!([]),
            vec![],
        ),
    ]);
}

#[test]
fn seed000_nested_paths_point_at_the_value() {
    let schema = json!({
        "type": "object",
        "properties": {
            "recipients": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["email"],
                    "properties": { "email": { "type": "string", "pattern": "@" } }
                }
            }
        }
    });
    run(vec![
        (
            "nested ok",
            schema.clone(),
            json!({"recipients": [{"email": "a@b"}, {"email": "c@d"}]}),
            vec![],
        ),
        (
            "nested fails at /recipients/1/email",
            schema.clone(),
            json!({"recipients": [{"email": "a@b"}, {"email": "nope"}, {}]}),
            vec![
                p(
                    "/recipients/1/email",
                    ProblemKind::Pattern {
                        pattern: "@".into(),
                    },
                ),
                p(
                    "/recipients/2",
                    ProblemKind::Required {
                        property: "email".into(),
                    },
                ),
            ],
        ),
    ]);
}

#[test]
fn seed000_minimum_maximum_and_exclusive_forms() {
    run(vec![
        (
            "minimum ok at limit",
            json!({"minimum": 1}),
            json!(1),
            vec![],
        ),
        (
            "minimum fails",
            json!({"minimum": 1}),
            json!(0.5),
            vec![p("", ProblemKind::Minimum { limit: 1.0 })],
        ),
        (
            "maximum ok at limit",
            json!({"maximum": 10}),
            json!(10),
            vec![],
        ),
        (
            "maximum fails",
            json!({"maximum": 10}),
            json!(11),
            vec![p("", ProblemKind::Maximum { limit: 10.0 })],
        ),
        (
            "exclusiveMinimum number ok",
            json!({"exclusiveMinimum": 0}),
            json!(0.1),
            vec![],
        ),
        (
            "exclusiveMinimum number fails at limit",
            json!({"exclusiveMinimum": 0}),
            json!(0),
            vec![p("", ProblemKind::ExclusiveMinimum { limit: 0.0 })],
        ),
        (
            "exclusiveMaximum number ok",
            json!({"exclusiveMaximum": 5}),
            json!(4.9),
            vec![],
        ),
        (
            "exclusiveMaximum number fails at limit",
            json!({"exclusiveMaximum": 5}),
            json!(5),
            vec![p("", ProblemKind::ExclusiveMaximum { limit: 5.0 })],
        ),
        (
            "draft-4 exclusiveMinimum true ok",
            json!({"minimum": 2, "exclusiveMinimum": true}),
            json!(3),
            vec![],
        ),
        (
            "draft-4 exclusiveMinimum true fails at minimum",
            json!({"minimum": 2, "exclusiveMinimum": true}),
            json!(2),
            vec![p("", ProblemKind::ExclusiveMinimum { limit: 2.0 })],
        ),
        (
            "draft-4 exclusiveMaximum true fails at maximum",
            json!({"maximum": 2, "exclusiveMaximum": true}),
            json!(2),
            vec![p("", ProblemKind::ExclusiveMaximum { limit: 2.0 })],
        ),
        (
            "draft-4 exclusiveMaximum false is inclusive",
            json!({"maximum": 2, "exclusiveMaximum": false}),
            json!(2),
            vec![],
        ),
        (
            "number keywords ignore strings",
            json!({"minimum": 5}),
            json!("1"),
            vec![],
        ),
    ]);
}

#[test]
fn seed000_min_max_length_count_characters() {
    run(vec![
        ("minLength ok", json!({"minLength": 2}), json!("ab"), vec![]),
        (
            "minLength fails",
            json!({"minLength": 2}),
            json!("a"),
            vec![p("", ProblemKind::MinLength { limit: 2 })],
        ),
        // Two characters, six bytes: counted as characters.
        (
            "maxLength counts chars not bytes",
            json!({"maxLength": 2}),
            json!("日本"),
            vec![],
        ),
        (
            "maxLength counts emoji as one",
            json!({"maxLength": 1}),
            json!("🙂"),
            vec![],
        ),
        (
            "maxLength fails",
            json!({"maxLength": 2}),
            json!("日本語"),
            vec![p("", ProblemKind::MaxLength { limit: 2 })],
        ),
        (
            "length ignores non-strings",
            json!({"maxLength": 1}),
            json!(12345),
            vec![],
        ),
    ]);
}

#[test]
fn seed000_pattern_searches_unanchored_and_cannot_judge_invalid_patterns() {
    run(vec![
        (
            "pattern ok unanchored",
            json!({"pattern": "b+"}),
            json!("abbbc"),
            vec![],
        ),
        (
            "pattern fails",
            json!({"pattern": "^[0-9]+$"}),
            json!("12a"),
            vec![p(
                "",
                ProblemKind::Pattern {
                    pattern: "^[0-9]+$".into(),
                },
            )],
        ),
        (
            "an unreadable pattern cannot be judged (it no longer passes silently)",
            json!({"pattern": "(unclosed"}),
            json!("anything"),
            vec![p(
                "",
                ProblemKind::UnreadablePattern {
                    pattern: "(unclosed".into(),
                },
            )],
        ),
        (
            "pattern ignores non-strings",
            json!({"pattern": "^a$"}),
            json!(1),
            vec![],
        ),
    ]);
}

#[test]
fn seed000_min_max_items() {
    run(vec![
        ("minItems ok", json!({"minItems": 1}), json!([0]), vec![]),
        (
            "minItems fails",
            json!({"minItems": 1}),
            json!([]),
            vec![p("", ProblemKind::MinItems { limit: 1 })],
        ),
        ("maxItems ok", json!({"maxItems": 2}), json!([1, 2]), vec![]),
        (
            "maxItems fails",
            json!({"maxItems": 2}),
            json!([1, 2, 3]),
            vec![p("", ProblemKind::MaxItems { limit: 2 })],
        ),
    ]);
}

#[test]
fn seed000_any_of_one_of_all_of() {
    let any = json!({"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 0}]});
    let one = json!({"oneOf": [{"type": "integer"}, {"type": "number"}]});
    let all = json!({"allOf": [{"type": "string"}, {"minLength": 3}, {"pattern": "^a"}]});
    run(vec![
        ("anyOf ok first", any.clone(), json!("x"), vec![]),
        ("anyOf ok second", any.clone(), json!(3), vec![]),
        (
            "anyOf fails",
            any,
            json!(-1),
            vec![p(
                "",
                ProblemKind::AnyOf {
                    variants: vec!["string".into(), "integer".into()],
                },
            )],
        ),
        ("oneOf ok exactly one", one.clone(), json!(1.5), vec![]),
        (
            "oneOf fails two match",
            one.clone(),
            json!(1),
            vec![p(
                "",
                ProblemKind::OneOf {
                    matched: 2,
                    variants: vec!["integer".into(), "number".into()],
                },
            )],
        ),
        (
            "oneOf fails none match",
            one,
            json!("x"),
            vec![p(
                "",
                ProblemKind::OneOf {
                    matched: 0,
                    variants: vec!["integer".into(), "number".into()],
                },
            )],
        ),
        ("allOf ok", all.clone(), json!("abc"), vec![]),
        (
            "allOf reports its branches' problems directly",
            all,
            json!("b"),
            vec![
                p("", ProblemKind::MinLength { limit: 3 }),
                p(
                    "",
                    ProblemKind::Pattern {
                        pattern: "^a".into(),
                    },
                ),
            ],
        ),
    ]);
}

#[test]
fn seed000_unknown_keywords_and_boolean_schemas() {
    run(vec![
        (
            "$schema, title, description, default and unknown keywords are ignored",
            json!({
                "$schema": "http://json-schema.org/draft-07/schema#",
                "title": "T", "description": "D", "default": 1,
                "format": "no-such-format",
                "x-custom": {"type": "string"}
            }),
            json!("anything"),
            vec![],
        ),
        (
            "true accepts everything",
            json!(true),
            json!({"a": 1}),
            vec![],
        ),
        ("{} accepts everything", json!({}), json!([1, "x"]), vec![]),
        (
            "false rejects, as Type with empty expected",
            json!(false),
            json!({}),
            vec![p("", ty(&[]))],
        ),
        ("non-schema value is ignored", json!(42), json!("x"), vec![]),
    ]);
}

/// The send_email schema the support agent of the dev server proposes (dev-server/src/scripts.rs).
fn send_email_schema() -> Value {
    json!({
        "type": "object",
        "required": ["to", "subject", "body"],
        "additionalProperties": false,
        "properties": {
            "to": { "type": "string", "minLength": 3, "pattern": "^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$",
                    "description": "Recipient e-mail address" },
            "subject": { "type": "string", "minLength": 1, "maxLength": 200 },
            "body": { "type": "string", "minLength": 1 }
        }
    })
}

#[test]
fn seed000_send_email_schema_of_the_support_agent() {
    let email = r"^[^@\s]+@[^@\s]+\.[^@\s]+$";
    run(vec![
        (
            "valid e-mail",
            send_email_schema(),
            json!({"to": "ana@example.com", "subject": "Refund", "body": "Hi"}),
            vec![],
        ),
        (
            "bad address, empty subject, extra field",
            send_email_schema(),
            json!({"to": "ana at example", "subject": "", "body": "Hi", "cc": "x@y.z"}),
            vec![
                p(
                    "",
                    ProblemKind::AdditionalProperties {
                        property: "cc".into(),
                    },
                ),
                p("/subject", ProblemKind::MinLength { limit: 1 }),
                p(
                    "/to",
                    ProblemKind::Pattern {
                        pattern: email.into(),
                    },
                ),
            ],
        ),
        (
            "missing body, long subject",
            send_email_schema(),
            json!({"to": "a@b.co", "subject": "x".repeat(201)}),
            vec![
                p(
                    "",
                    ProblemKind::Required {
                        property: "body".into(),
                    },
                ),
                p("/subject", ProblemKind::MaxLength { limit: 200 }),
            ],
        ),
    ]);
}

#[test]
fn seed000_editor_text_must_be_json() {
    let got = check_args_text("{\n  \"to\": \"a\",\n  oops\n}", None);
    assert_eq!(
        got,
        Err(vec![p("", ProblemKind::InvalidJson { line: 3, column: 3 })])
    );
    // Columns count characters, not bytes.
    let got = check_args_text("{\"é\": 1 x}", None);
    assert_eq!(
        got,
        Err(vec![p("", ProblemKind::InvalidJson { line: 1, column: 9 })])
    );
    // Empty text: still a 1-based position.
    let got = check_args_text("", None);
    assert_eq!(
        got,
        Err(vec![p("", ProblemKind::InvalidJson { line: 1, column: 1 })])
    );
}

#[test]
fn seed000_editor_text_must_be_an_object() {
    for text in ["[1]", "\"x\"", "3", "null", "true"] {
        assert_eq!(
            check_args_text(text, Some(&send_email_schema())),
            Err(vec![p("", ProblemKind::NotObject)]),
            "{text}"
        );
    }
}

#[test]
fn seed000_editor_text_checked_against_args_schema() {
    let ok = check_args_text(
        r#"{ "subject": "Hi", "body": "Text", "to": "a@b.co" }"#,
        Some(&send_email_schema()),
    );
    assert_eq!(
        ok,
        Ok(json!({"to": "a@b.co", "subject": "Hi", "body": "Text"}))
    );
    assert_eq!(
        check_args_text(r#"{"anything": 1}"#, None),
        Ok(json!({"anything": 1}))
    );
    let bad = check_args_text(r#"{"to": "a@b.co"}"#, Some(&send_email_schema()));
    assert_eq!(
        bad,
        Err(vec![
            p(
                "",
                ProblemKind::Required {
                    property: "subject".into()
                }
            ),
            p(
                "",
                ProblemKind::Required {
                    property: "body".into()
                }
            ),
        ])
    );
}

/// `{key: inner}` without copying `inner`: `json!` would serialize (deep-copy, recursively)
/// any variable it is given.
fn obj(key: &str, inner: Value) -> Value {
    let mut map = serde_json::Map::new();
    map.insert(key.to_owned(), inner);
    Value::Object(map)
}

/// Takes a deep value apart level by level: dropping it in one go would recurse 10,000 times.
fn drop_iteratively(mut value: Value) {
    loop {
        let next = match &mut value {
            Value::Object(map) => map.values_mut().next().map(Value::take),
            Value::Array(items) => items.first_mut().map(Value::take),
            _ => None,
        };
        match next {
            Some(inner) => value = inner,
            None => break,
        }
    }
}

#[test]
fn seed000_hostile_deep_schema_reports_too_deep_without_overflow() {
    // {"allOf": [{"allOf": [ ... {"type": "string"} ... ]}]}, 10,000 levels, built in code
    // (serde_json's parser would refuse text this deep).
    let mut schema = json!({"type": "string"});
    for _ in 0..10_000 {
        schema = obj("allOf", Value::Array(vec![schema]));
    }
    assert_eq!(
        check_value(&json!({}), &schema),
        vec![p("", ProblemKind::TooDeep)]
    );
    // anyOf throws its branches' problems away; the depth problem must still come out.
    let mut any = json!(true);
    for _ in 0..10_000 {
        any = obj("anyOf", Value::Array(vec![any]));
    }
    let got = check_value(&json!(1), &any);
    assert!(got.contains(&p("", ProblemKind::TooDeep)), "{got:?}");

    // Through properties, the problem names where the walk stopped.
    let mut props = json!({});
    let mut value = json!(1);
    for _ in 0..10_000 {
        props = obj("properties", obj("a", props));
        value = obj("a", value);
    }
    let got = check_value(&value, &props);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].kind, ProblemKind::TooDeep);
    assert_eq!(got[0].path, "/a".repeat(MAX_DEPTH + 1));

    // A schema just within the limit is checked normally.
    let mut ok = json!({"type": "string"});
    for _ in 0..MAX_DEPTH {
        ok = obj("allOf", Value::Array(vec![ok]));
    }
    assert_eq!(check_value(&json!("x"), &ok), vec![]);
    assert_eq!(check_value(&json!(1), &ok), vec![p("", ty(&["string"]))]);

    drop_iteratively(schema);
    drop_iteratively(any);
    drop_iteratively(props);
    drop_iteratively(value);
}

#[test]
fn seed000_reordered_identical_args_are_not_an_edit() {
    let proposed: Value =
        serde_json::from_str(r#"{"to": "a@b.co", "n": 1, "tags": ["x", {"k": 2, "j": 3}]}"#)
            .expect("json");
    let reordered: Value =
        serde_json::from_str(r#"{"tags": ["x", {"j": 3, "k": 2.0}], "n": 1.0, "to": "a@b.co"}"#)
            .expect("json");
    assert!(args_equal(&proposed, &reordered));
    assert!(args_equal(&json!(1), &json!(1.0)));
    assert!(args_equal(&json!(-7), &json!(-7.0)));
    assert!(args_equal(&json!(u64::MAX), &json!(u64::MAX)));
    // Real edits.
    assert!(!args_equal(&json!({"n": 1}), &json!({"n": 1.5})));
    assert!(!args_equal(&json!({"n": 1}), &json!({"n": "1"})));
    assert!(!args_equal(&json!({"a": 1}), &json!({"a": 1, "b": null})));
    assert!(!args_equal(&json!({"a": 1}), &json!({"b": 1})));
    assert!(!args_equal(&json!(["x", "y"]), &json!(["y", "x"])));
    assert!(!args_equal(&json!([1]), &json!([1, 1])));
    assert!(!args_equal(&json!(null), &json!(false)));
    assert!(!args_equal(&json!(-1), &json!(u64::MAX)));
}

#[test]
fn seed000_args_equal_handles_very_deep_values() {
    let mut a = json!(1);
    let mut b = json!(1.0);
    for _ in 0..10_000 {
        a = Value::Array(vec![a]);
        b = Value::Array(vec![b]);
    }
    assert!(args_equal(&a, &b));
    drop_iteratively(a);
    drop_iteratively(b);
}

/// (problem, Fluent id, expected variables).
type MessageCase = (Problem, &'static str, Vec<(&'static str, &'static str)>);

#[test]
fn seed000_problems_name_a_fluent_message_and_its_variables() {
    let cases: Vec<MessageCase> = vec![
        (
            p("", ProblemKind::InvalidJson { line: 2, column: 5 }),
            "chat-action-schema-invalid-json",
            vec![("path", "/"), ("line", "2"), ("column", "5")],
        ),
        (
            p("", ProblemKind::NotObject),
            "chat-action-schema-not-object",
            vec![("path", "/")],
        ),
        (
            p("/n", ty(&["string", "null"])),
            "chat-action-schema-type",
            vec![("path", "/n"), ("expected", "string, null"), ("count", "2")],
        ),
        (
            p(
                "/n",
                ProblemKind::Enum {
                    allowed: vec![json!("a"), json!(1)],
                },
            ),
            "chat-action-schema-enum",
            vec![("path", "/n"), ("allowed", "\"a\", 1")],
        ),
        (
            p(
                "/n",
                ProblemKind::Const {
                    expected: json!("yes"),
                },
            ),
            "chat-action-schema-const",
            vec![("path", "/n"), ("expected", "\"yes\"")],
        ),
        (
            p(
                "",
                ProblemKind::Required {
                    property: "to".into(),
                },
            ),
            "chat-action-schema-required",
            vec![("path", "/"), ("property", "to")],
        ),
        (
            p(
                "",
                ProblemKind::AdditionalProperties {
                    property: "cc".into(),
                },
            ),
            "chat-action-schema-additional-properties",
            vec![("path", "/"), ("property", "cc")],
        ),
        (
            p("/n", ProblemKind::Minimum { limit: 1.0 }),
            "chat-action-schema-minimum",
            vec![("path", "/n"), ("limit", "1")],
        ),
        (
            p("/n", ProblemKind::Maximum { limit: 2.5 }),
            "chat-action-schema-maximum",
            vec![("path", "/n"), ("limit", "2.5")],
        ),
        (
            p("/n", ProblemKind::ExclusiveMinimum { limit: 0.0 }),
            "chat-action-schema-exclusive-minimum",
            vec![("path", "/n"), ("limit", "0")],
        ),
        (
            p("/n", ProblemKind::ExclusiveMaximum { limit: -1.0 }),
            "chat-action-schema-exclusive-maximum",
            vec![("path", "/n"), ("limit", "-1")],
        ),
        (
            p("/s", ProblemKind::MinLength { limit: 1 }),
            "chat-action-schema-min-length",
            vec![("path", "/s"), ("limit", "1")],
        ),
        (
            p("/s", ProblemKind::MaxLength { limit: 200 }),
            "chat-action-schema-max-length",
            vec![("path", "/s"), ("limit", "200")],
        ),
        (
            p(
                "/s",
                ProblemKind::Pattern {
                    pattern: "^a".into(),
                },
            ),
            "chat-action-schema-pattern",
            vec![("path", "/s"), ("pattern", "^a")],
        ),
        (
            p("/l", ProblemKind::MinItems { limit: 1 }),
            "chat-action-schema-min-items",
            vec![("path", "/l"), ("limit", "1")],
        ),
        (
            p("/l", ProblemKind::MaxItems { limit: 3 }),
            "chat-action-schema-max-items",
            vec![("path", "/l"), ("limit", "3")],
        ),
        (
            p(
                "/x",
                ProblemKind::AnyOf {
                    variants: vec!["Email".into(), "#2".into()],
                },
            ),
            "chat-action-schema-any-of",
            vec![("path", "/x"), ("variants", "Email, #2")],
        ),
        (
            p(
                "/x",
                ProblemKind::OneOf {
                    matched: 2,
                    variants: vec!["a".into(), "b".into()],
                },
            ),
            "chat-action-schema-one-of",
            vec![("path", "/x"), ("variants", "a, b"), ("matched", "2")],
        ),
    ];
    for (problem, id, args) in cases {
        assert_eq!(problem.kind.fluent_id(), id);
        let got = problem.fluent_args();
        let want: Vec<(&str, String)> = args.into_iter().map(|(k, v)| (k, v.to_owned())).collect();
        assert_eq!(got, want, "{id}");
    }
    // Too deep names the depth the checker stops at (the walk in
    // seed000_hostile_deep_schema_reports_too_deep_without_overflow).
    let deep = p("", ProblemKind::TooDeep);
    assert_eq!(deep.kind.fluent_id(), "chat-action-schema-too-deep");
    assert_eq!(
        deep.fluent_args(),
        [("path", "/".to_owned()), ("limit", MAX_DEPTH.to_string())]
    );
}
