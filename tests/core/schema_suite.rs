//! The argsSchema checker against the official JSON Schema Test Suite's 2020-12 cases
//! (vendored under tests/fixtures/json-schema-test-suite, see its README), plus the optional
//! format cases of the formats the checker knows.
//!
//! A case passes when a valid value gets no problem at all and an invalid one gets at least
//! one problem that blocks Approve. "Cannot judge" is neither, so such a case fails unless it
//! is listed in [`SKIPPED`] with its reason and the number of cases it covers. The test fails
//! when an unlisted case fails, when a listed case fails otherwise than its reason says (the
//! reason is stale), and when an entry covers more or fewer failing cases than it lists (a case
//! started passing, and the list must shrink, or a new one fails). It counts the skipped cases.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;
use std::path::Path;

use agent_chat_ui::core::{blocks, check_value, Problem, ProblemKind};
use serde_json::Value;

/// Why a case is skipped, and so how its failure must look: a reason that no longer
/// describes the failure is stale and fails the test.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Why {
    /// A `$ref` to another document: the checker never fetches, it says it cannot judge.
    Remote,
    /// A `$schema` naming a custom metaschema (another document, where `$vocabulary` is
    /// read): the checker notes the dialect it does not know as "cannot judge" and still
    /// applies the keywords it knows (a metaschema turning validation off is not read).
    CustomDialect,
    /// The card asserts the formats it knows; 2020-12 makes `format` an annotation unless
    /// asked, so the suite expects a wrong value to pass.
    FormatAsserted,
}

impl Why {
    /// Whether the case failed the way the reason says: `expected` is the suite's answer,
    /// `problems` the checker's.
    fn describes(self, expected: Option<bool>, problems: &[Problem]) -> bool {
        let unjudged = !problems.is_empty() && !blocks(problems);
        let any = |f: fn(&ProblemKind) -> bool| problems.iter().any(|p| f(&p.kind));
        match self {
            Why::Remote => unjudged && any(|k| matches!(k, ProblemKind::RemoteRef { .. })),
            Why::CustomDialect => any(|k| matches!(k, ProblemKind::UnknownDialect { .. })),
            Why::FormatAsserted => {
                expected == Some(true)
                    && blocks(problems)
                    && problems
                        .iter()
                        .all(|p| matches!(p.kind, ProblemKind::Format { .. }))
            }
        }
    }
}

/// Cases the checker does not pass, by `file`, `file / group` or `file / group / case`, with
/// the reason and exactly how many cases the entry covers (so a case that starts passing
/// shows, and the entry must shrink).
const SKIPPED: &[(&str, Why, usize)] = &[
    ("refRemote.json", Why::Remote, 31),
    ("ref.json / remote ref, containing refs itself", Why::Remote, 2),
    ("defs.json / validate definition against metaschema", Why::Remote, 2),
    ("vocabulary.json", Why::CustomDialect, 3),
    ("dynamicRef.json / strict-tree schema, guards against misspelled properties", Why::Remote, 2),
    ("dynamicRef.json / tests for implementation dynamic anchor and reference link", Why::Remote, 3),
    ("dynamicRef.json / $ref and $dynamicAnchor are independent of order - $defs first", Why::Remote, 3),
    ("dynamicRef.json / $ref and $dynamicAnchor are independent of order - $ref first", Why::Remote, 3),
    ("dynamicRef.json / $ref to $dynamicRef finds detached $dynamicAnchor", Why::Remote, 2),
    (
        "format.json / email format / invalid email string is only an annotation by default",
        Why::FormatAsserted,
        1,
    ),
    (
        "format.json / date format / invalid date string is only an annotation by default",
        Why::FormatAsserted,
        1,
    ),
    (
        "format.json / date-time format / invalid date-time string is only an annotation by default",
        Why::FormatAsserted,
        1,
    ),
    (
        "format.json / time format / invalid time string is only an annotation by default",
        Why::FormatAsserted,
        1,
    ),
    (
        "format.json / uri format / invalid uri string is only an annotation by default",
        Why::FormatAsserted,
        1,
    ),
    (
        "format.json / uuid format / invalid uuid string is only an annotation by default",
        Why::FormatAsserted,
        1,
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
fn verdict(problems: &[Problem]) -> Option<bool> {
    if blocks(problems) {
        Some(false)
    } else if problems.is_empty() {
        Some(true)
    } else {
        None
    }
}

fn skip_entry(name: &str) -> Option<usize> {
    SKIPPED
        .iter()
        .position(|(entry, _, _)| name == *entry || name.starts_with(&format!("{entry} / ")))
}

/// Every case of the vendored suite: its name, its schema, its data and whether it is valid.
fn cases() -> Vec<(String, Value, Value, Option<bool>)> {
    let mut all = Vec::new();
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
                all.push((
                    name,
                    group["schema"].clone(),
                    case["data"].clone(),
                    expected,
                ));
            }
        }
    }
    all
}

#[test]
fn issue40_json_schema_test_suite_2020_12_passes_but_the_listed_cases() {
    let mut unlisted = Vec::new();
    let mut wrong_reason = Vec::new();
    let mut covered = vec![0usize; SKIPPED.len()];
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for (name, schema, data, expected) in cases() {
        let problems = check_value(&data, &schema);
        let got = verdict(&problems);
        let passed = got.is_some() && got == expected;
        let entry = skip_entry(&name);
        let outcome = match (passed, entry) {
            (true, _) => "passed",
            (false, Some(at)) => {
                covered[at] += 1;
                let why = SKIPPED[at].1;
                if !why.describes(expected, &problems) {
                    wrong_reason.push(format!("{name}: {why:?} but {problems:?}"));
                }
                "skipped"
            }
            (false, None) => {
                unlisted.push(format!("{name}: expected {expected:?}, got {got:?}"));
                "failed"
            }
        };
        *counts.entry(outcome).or_default() += 1;
    }
    let miscounted: Vec<String> = SKIPPED
        .iter()
        .zip(&covered)
        .filter(|((_, _, listed), n)| *listed != **n)
        .map(|((entry, _, listed), n)| format!("{entry}: listed {listed}, fails {n}"))
        .collect();
    assert!(
        unlisted.is_empty(),
        "{} unlisted failures ({counts:?}):\n{}",
        unlisted.len(),
        unlisted.join("\n")
    );
    assert!(
        wrong_reason.is_empty(),
        "skipped for a reason that does not describe the failure:\n{}",
        wrong_reason.join("\n")
    );
    assert!(
        miscounted.is_empty(),
        "skip entries whose count is stale (a case started passing, or a new one fails):\n{}",
        miscounted.join("\n")
    );
    let listed: usize = SKIPPED.iter().map(|(_, _, n)| n).sum();
    assert_eq!(
        counts.get("skipped").copied().unwrap_or(0),
        listed,
        "{counts:?}"
    );
    assert_eq!(counts["passed"], 1374, "{counts:?}");
}
