//! The argsSchema checker on random JSON Schema 2020-12 schemas built from the input: it
//! never panics, it stops within its bounds (a hang is a libFuzzer timeout), it gives the same
//! answer twice, and its "cannot judge" problems come last and never block.
//!
//! Input layout: the bytes drive `arbitrary` choices, first of a schema (every keyword the
//! checker reads, local and remote `$ref`s, anchors, `$defs`, hostile sizes), then of a value.

#![no_main]

use agent_chat_core::{blocks, check_value, Problem};
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Map, Value};

const REFS: [&str; 8] = [
    "#",
    "#/$defs/a",
    "#/$defs/b",
    "#a",
    "https://example.com/remote.json",
    "other.json#/x",
    "#/$defs/missing",
    "#/properties/p",
];
const FORMATS: [&str; 7] = ["email", "uri", "date", "date-time", "time", "uuid", "nope"];
const PATTERNS: [&str; 6] = ["^a", "b$", "(unclosed", "[0-9]+", "a*a*a*a*b", ""];
const NAMES: [&str; 4] = ["p", "q", "a", "b"];

fn scalar(u: &mut Unstructured) -> Result<Value> {
    Ok(match u.int_in_range(0..=5)? {
        0 => Value::Null,
        1 => Value::Bool(u.arbitrary()?),
        2 => json!(u.int_in_range(-3i64..=3)?),
        3 => json!(f64::from(u.int_in_range(-30i32..=30)?) / 10.0),
        4 => json!(*u.choose(&NAMES)?),
        _ => json!(*u.choose(&FORMATS)?),
    })
}

fn value(u: &mut Unstructured, depth: usize) -> Result<Value> {
    if depth == 0 {
        return scalar(u);
    }
    Ok(match u.int_in_range(0..=2)? {
        0 => scalar(u)?,
        1 => {
            let n = u.int_in_range(0..=3)?;
            Value::Array((0..n).map(|_| value(u, depth - 1)).collect::<Result<_>>()?)
        }
        _ => {
            let mut map = Map::new();
            for _ in 0..u.int_in_range(0..=3)? {
                map.insert((*u.choose(&NAMES)?).to_owned(), value(u, depth - 1)?);
            }
            Value::Object(map)
        }
    })
}

fn schemas(u: &mut Unstructured, depth: usize) -> Result<Value> {
    let n = u.int_in_range(0..=3)?;
    Ok(Value::Array((0..n).map(|_| schema(u, depth - 1)).collect::<Result<_>>()?))
}

fn schema_map(u: &mut Unstructured, depth: usize) -> Result<Value> {
    let mut map = Map::new();
    for _ in 0..u.int_in_range(0..=3)? {
        map.insert((*u.choose(&NAMES)?).to_owned(), schema(u, depth - 1)?);
    }
    Ok(Value::Object(map))
}

fn schema(u: &mut Unstructured, depth: usize) -> Result<Value> {
    if depth == 0 || u.ratio(1, 6)? {
        return Ok(Value::Bool(u.arbitrary()?));
    }
    let mut s = Map::new();
    for _ in 0..u.int_in_range(0..=4)? {
        let (key, val) = match u.int_in_range(0..=33)? {
            0 => ("type", json!(*u.choose(&["object", "array", "string", "integer", "number", "null", "boolean"])?)),
            1 => ("enum", Value::Array((0..u.int_in_range(0..=4)?).map(|_| scalar(u)).collect::<Result<_>>()?)),
            2 => ("const", value(u, 2)?),
            3 => ("$ref", json!(*u.choose(&REFS)?)),
            4 => ("$defs", json!({"a": schema(u, depth - 1)?, "b": schema(u, depth - 1)?})),
            5 => ("$anchor", json!("a")),
            6 => ("$id", json!(*u.choose(&["https://example.com/root.json", "sub.json", "urn:x"])?)),
            7 => ("allOf", schemas(u, depth)?),
            8 => ("anyOf", schemas(u, depth)?),
            9 => ("oneOf", schemas(u, depth)?),
            10 => ("not", schema(u, depth - 1)?),
            11 => ("if", schema(u, depth - 1)?),
            12 => ("then", schema(u, depth - 1)?),
            13 => ("else", schema(u, depth - 1)?),
            14 => ("properties", schema_map(u, depth)?),
            15 => ("patternProperties", json!({ *u.choose(&PATTERNS)?: schema(u, depth - 1)? })),
            16 => ("additionalProperties", schema(u, depth - 1)?),
            17 => ("propertyNames", schema(u, depth - 1)?),
            18 => ("required", json!([*u.choose(&NAMES)?])),
            19 => ("dependentRequired", json!({ *u.choose(&NAMES)?: [*u.choose(&NAMES)?] })),
            20 => ("dependentSchemas", schema_map(u, depth)?),
            21 => ("items", schema(u, depth - 1)?),
            22 => ("prefixItems", schemas(u, depth)?),
            23 => ("contains", schema(u, depth - 1)?),
            24 => ("minContains", json!(u.int_in_range(0..=2)?)),
            25 => ("maxContains", json!(u.int_in_range(0..=2)?)),
            26 => ("uniqueItems", json!(u.arbitrary::<bool>()?)),
            27 => ("format", json!(*u.choose(&FORMATS)?)),
            28 => ("pattern", json!(*u.choose(&PATTERNS)?)),
            29 => ("multipleOf", json!(*u.choose(&[0.0, 0.1, 2.0, -1.0, 1e-300])?)),
            30 => ("minimum", scalar(u)?),
            31 => ("maxProperties", json!(u.int_in_range(0..=2)?)),
            32 => ("$schema", json!(*u.choose(&["https://json-schema.org/draft/2020-12/schema", "x"])?)),
            _ => ("unevaluatedProperties", schema(u, depth - 1)?),
        };
        s.insert(key.to_owned(), val);
    }
    Ok(Value::Object(s))
}

fn unjudged_last(problems: &[Problem]) -> bool {
    let first = problems.iter().position(|p| p.kind.is_unjudged());
    first.is_none_or(|at| problems[at..].iter().all(|p| p.kind.is_unjudged()))
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let (Ok(schema), Ok(value)) = (schema(&mut u, 5), value(&mut u, 3)) else {
        return;
    };
    let problems = check_value(&value, &schema);
    assert_eq!(problems, check_value(&value, &schema), "the same check twice differs");
    assert!(unjudged_last(&problems), "cannot-judge problems not last: {problems:?}");
    let only_unjudged: Vec<Problem> =
        problems.iter().filter(|p| p.kind.is_unjudged()).cloned().collect();
    assert!(!blocks(&only_unjudged), "a cannot-judge problem blocks");
    for problem in &problems {
        assert!(!problem.kind.fluent_id().is_empty());
        let _ = problem.fluent_args();
    }
    // The schema checked against itself: schemas are values too.
    let _ = check_value(&schema, &schema);
});
