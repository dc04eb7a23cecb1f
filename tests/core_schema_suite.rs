//! The argsSchema checker against the official JSON Schema Test Suite's 2020-12 cases
//! (vendored under tests/fixtures/json-schema-test-suite, see its README), plus the optional
//! format cases of the formats the checker knows.
//!
//! A case passes when a valid value gets no problem at all and an invalid one gets at least
//! one problem that blocks Approve. "Cannot judge" is neither, so such a case fails unless it
//! is listed in [`SKIPPED`] with its reason. The test fails when an unlisted case fails, and
//! when a listed entry no longer covers any failing case (the list must shrink as the checker
//! grows).
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;
use std::path::Path;

use agent_chat_ui::core::{blocks, check_value};
use serde_json::Value;

const REMOTE: &str = "remote $ref: the checker never fetches, it says it cannot judge";
const UNEVALUATED: &str =
    "unevaluatedProperties / unevaluatedItems are not evaluated: the checker says it cannot judge";
const DYNAMIC: &str =
    "a $dynamicRef that the dynamic scope could move is not followed: cannot judge";
const FORMAT: &str =
    "the card checks the formats it knows (2020-12 makes format an annotation unless asked)";

/// Cases the checker does not pass, by `file`, `file / group` or `file / group / case`, each
/// with the reason.
const SKIPPED: &[(&str, &str)] = &[
    (
        "refRemote.json",
        REMOTE,
    ),
    (
        "ref.json / remote ref, containing refs itself",
        REMOTE,
    ),
    (
        "defs.json / validate definition against metaschema",
        "its $ref is the 2020-12 metaschema, a remote document: cannot judge",
    ),
    (
        "vocabulary.json",
        "$vocabulary needs the metaschema, a remote document: cannot judge",
    ),
    (
        "unevaluatedItems.json",
        UNEVALUATED,
    ),
    (
        "unevaluatedProperties.json",
        UNEVALUATED,
    ),
    (
        "not.json / collect annotations inside a 'not', even if collection is disabled",
        UNEVALUATED,
    ),
    (
        "ref.json / ref creates new scope when adjacent to keywords",
        UNEVALUATED,
    ),
    (
        "dynamicRef.json / A $dynamicRef resolves to the first $dynamicAnchor still in scope that is encountered when the schema is evaluated",
        DYNAMIC,
    ),
    (
        "dynamicRef.json / A $dynamicRef with intermediate scopes that don't include a matching $dynamicAnchor does not affect dynamic scope resolution",
        DYNAMIC,
    ),
    (
        "dynamicRef.json / A $dynamicRef that initially resolves to a schema with a matching $dynamicAnchor resolves to the first $dynamicAnchor in the dynamic scope",
        DYNAMIC,
    ),
    (
        "dynamicRef.json / multiple dynamic paths to the $dynamicRef keyword",
        DYNAMIC,
    ),
    (
        "dynamicRef.json / after leaving a dynamic scope, it is not used by a $dynamicRef",
        DYNAMIC,
    ),
    (
        "dynamicRef.json / strict-tree schema, guards against misspelled properties",
        DYNAMIC,
    ),
    (
        "dynamicRef.json / tests for implementation dynamic anchor and reference link",
        DYNAMIC,
    ),
    (
        "dynamicRef.json / $ref and $dynamicAnchor are independent of order - $defs first",
        DYNAMIC,
    ),
    (
        "dynamicRef.json / $ref and $dynamicAnchor are independent of order - $ref first",
        DYNAMIC,
    ),
    (
        "dynamicRef.json / $ref to $dynamicRef finds detached $dynamicAnchor",
        DYNAMIC,
    ),
    (
        "dynamicRef.json / $dynamicRef skips over intermediate resources - direct reference",
        DYNAMIC,
    ),
    (
        "format.json / email format / invalid email string is only an annotation by default",
        FORMAT,
    ),
    (
        "format.json / date format / invalid date string is only an annotation by default",
        FORMAT,
    ),
    (
        "format.json / date-time format / invalid date-time string is only an annotation by default",
        FORMAT,
    ),
    (
        "format.json / time format / invalid time string is only an annotation by default",
        FORMAT,
    ),
    (
        "format.json / uri format / invalid uri string is only an annotation by default",
        FORMAT,
    ),
    (
        "format.json / uuid format / invalid uuid string is only an annotation by default",
        FORMAT,
    ),
];

const SUITE: &str = "tests/fixtures/json-schema-test-suite/draft2020-12";

fn files() -> Vec<String> {
    let mut names = Vec::new();
    for dir in ["", "optional/format"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(SUITE).join(dir);
        for entry in std::fs::read_dir(&path).expect("the vendored suite") {
            let name = entry.expect("a suite file").file_name();
            let name = name.to_string_lossy().into_owned();
            if name.ends_with(".json") {
                names.push(if dir.is_empty() {
                    name
                } else {
                    format!("{dir}/{name}")
                });
            }
        }
    }
    names.sort();
    names
}

/// What the checker made of one case: `Some(valid)`, or `None` for "cannot judge".
fn verdict(data: &Value, schema: &Value) -> Option<bool> {
    let problems = check_value(data, schema);
    if blocks(&problems) {
        Some(false)
    } else if problems.is_empty() {
        Some(true)
    } else {
        None
    }
}

fn skip_reason(name: &str) -> Option<usize> {
    SKIPPED
        .iter()
        .position(|(entry, _)| name == *entry || name.starts_with(&format!("{entry} / ")))
}

#[test]
fn issue40_json_schema_test_suite_2020_12_passes_but_the_listed_cases() {
    let mut unlisted = Vec::new();
    let mut covered = vec![0usize; SKIPPED.len()];
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for file in files() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(SUITE)
            .join(&file);
        let text = std::fs::read_to_string(&path).expect("a suite file");
        let groups: Vec<Value> = serde_json::from_str(&text).expect("suite JSON");
        for group in &groups {
            let group_name = group["description"].as_str().unwrap_or("?");
            for case in group["tests"].as_array().into_iter().flatten() {
                let case_name = case["description"].as_str().unwrap_or("?");
                let name = format!("{file} / {group_name} / {case_name}");
                let expected = case["valid"].as_bool();
                let got = verdict(&case["data"], &group["schema"]);
                let passed = got.is_some() && got == expected;
                *counts
                    .entry(if passed { "passed" } else { "failed" })
                    .or_default() += 1;
                match (passed, skip_reason(&name)) {
                    (true, _) => {}
                    (false, Some(at)) => covered[at] += 1,
                    (false, None) => {
                        unlisted.push(format!("{name}: expected {expected:?}, got {got:?}"))
                    }
                }
            }
        }
    }
    let stale: Vec<&str> = SKIPPED
        .iter()
        .zip(&covered)
        .filter(|(_, n)| **n == 0)
        .map(|((entry, _), _)| *entry)
        .collect();
    assert!(
        unlisted.is_empty(),
        "{} unlisted failures ({counts:?}):\n{}",
        unlisted.len(),
        unlisted.join("\n")
    );
    assert!(stale.is_empty(), "listed skips that now pass: {stale:?}");
    assert!(counts["passed"] > 1000, "{counts:?}");
}
