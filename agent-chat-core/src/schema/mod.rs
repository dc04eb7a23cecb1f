//! Checks edited approval arguments against the action's `argsSchema` before Approve is allowed
//! as JSON Schema 2020-12 (and the drafts before it) says.
//!
//! It exists because the approval card must explain, in the person's language, why an edit can
//! not be sent yet, and must say so when it cannot tell. A general JSON Schema crate would pull
//! the full `regex` crate and URL handling into the wasm, would hand back English strings, and
//! would fetch remote `$ref`s. This checker returns structured [`Problem`]s that the UI words
//! through Fluent ([`ProblemKind::fluent_id`], [`Problem::fluent_args`]).
//!
//! Keywords checked: `type`, `enum`, `const`; `minimum`, `maximum`, `exclusiveMinimum`,
//! `exclusiveMaximum` (number and draft 4 boolean forms), `multipleOf`; `minLength`,
//! `maxLength`, `pattern`, `format` (email, uri, date, date-time, time, uuid; other formats are
//! annotations); `items`, `prefixItems`, `additionalItems`, `minItems`, `maxItems`,
//! `uniqueItems`, `contains`, `minContains`, `maxContains`; `properties`, `patternProperties`,
//! `additionalProperties`, `required`, `minProperties`, `maxProperties`, `propertyNames`,
//! `dependentRequired`, `dependentSchemas`, `dependencies`; `allOf`, `anyOf`, `oneOf`, `not`,
//! `if`/`then`/`else`; `unevaluatedProperties`, `unevaluatedItems` (what the in-place
//! subschemas evaluated is collected, see `seen`); `$ref` and `$defs`/`definitions` inside the
//! schema (`$id`, `$anchor`, JSON Pointers), `$dynamicRef` / `$dynamicAnchor` through the
//! dynamic scope (the schema resources entered on the way).
//! Annotations (`title`, `default`, `readOnly`, `examples`...) and unknown keywords are ignored.
//!
//! "Cannot judge" ([`ProblemKind::is_unjudged`]) is a problem of its own, never a silent pass:
//! a `$ref` outside the schema (nothing is fetched), a `$schema` the checker does not know,
//! 2019-09's `$recursiveRef`, a `pattern` the engine can not read, and the bounds below. What
//! `unevaluated*` finds beside something that could not be judged (a remote `$ref` may have
//! evaluated the property) is "cannot judge" too, never a problem. The card shows it and keeps
//! Approve possible; the server checks the edit again.
//!
//! Bounds against hostile schemas: [`MAX_DEPTH`] nested subschemas and `$ref` hops,
//! [`MAX_WORK`] steps per check (counted, not timed: a subschema visited, an `enum` value
//! compared, a pair of `uniqueItems` compared, 64 characters of a pattern search), a `$ref`
//! loop that does not move along the value, an `enum` over [`MAX_ENUM`] values and a `pattern`
//! over [`MAX_PATTERN`] characters.
//!
//! Choices worth knowing:
//! - A failing `type` stops the checks of that (sub)schema, so one wrong value gives one problem.
//! - `allOf`, `$ref`, `if`/`then`/`else` and `dependentSchemas` report the problems of the
//!   schema they apply directly.
//! - `anyOf` / `oneOf` report one problem at the value's path that names the alternatives
//!   (their `title`, the end of their `$ref`, their `const`, their types, else `#n`).
//! - The schema `false` (also under `properties` or `items`) is reported as
//!   [`ProblemKind::Type`] with an empty `expected` list ("no value is allowed here").
//! - `required`, `additionalProperties: false` and `dependentRequired` report at the path of
//!   the object, naming the property.

mod formats;
mod keywords;
mod names;
mod problems;
mod refs;
mod seen;
mod values;

use serde_json::{Number, Value};

pub use names::variant_names;
pub use problems::{Problem, ProblemKind, MAX_NAMED_VALUES};

/// How many nested subschemas (and `$ref` hops) the checker follows before it gives up with
/// [`ProblemKind::TooDeep`]. Real tool schemas are a handful of levels deep.
pub const MAX_DEPTH: usize = 64;

/// How many steps one check may take before it gives up with [`ProblemKind::TooMuchWork`].
/// A real tool schema and its arguments take a few hundred.
pub const MAX_WORK: usize = 100_000;

/// The most values an `enum` may list before the checker gives up on it
/// ([`ProblemKind::TooLarge`]).
pub const MAX_ENUM: usize = 1_000;

/// The most characters a `pattern` may have before the checker gives up on it
/// ([`ProblemKind::TooLarge`]).
pub const MAX_PATTERN: usize = 1_000;

/// What the arguments editor's text makes, from [`check_args`].
#[derive(Debug, Clone, PartialEq)]
pub struct ArgsCheck {
    /// The parsed object, when nothing blocks Approve (the text is a JSON object and no
    /// problem but "cannot judge" ones was found).
    pub value: Option<Value>,
    /// Every problem, the "cannot judge" ones ([`ProblemKind::is_unjudged`]) last.
    pub problems: Vec<Problem>,
}

/// Checks the text of the arguments editor: it must be JSON, an object, and (when the action
/// has an `argsSchema`) valid against the schema.
pub fn check_args(text: &str, schema: Option<&Value>) -> ArgsCheck {
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(err) => {
            let (line, column) = char_position(text, err.line(), err.column());
            let problem = Problem::new("", ProblemKind::InvalidJson { line, column });
            return ArgsCheck {
                value: None,
                problems: vec![problem],
            };
        }
    };
    if !value.is_object() {
        return ArgsCheck {
            value: None,
            problems: vec![Problem::new("", ProblemKind::NotObject)],
        };
    }
    let problems = match schema {
        Some(schema) => check_value(&value, schema),
        None => Vec::new(),
    };
    ArgsCheck {
        value: (!blocks(&problems)).then_some(value),
        problems,
    }
}

/// [`check_args`] as a result: the parsed object when nothing blocks Approve (the "cannot
/// judge" notes are dropped), otherwise every problem.
pub fn check_args_text(text: &str, schema: Option<&Value>) -> Result<Value, Vec<Problem>> {
    let checked = check_args(text, schema);
    checked.value.ok_or(checked.problems)
}

/// serde_json counts columns in bytes (and may say column 0 at the end of the input); the
/// editor wants 1-based characters.
fn char_position(text: &str, line: usize, byte_column: usize) -> (usize, usize) {
    let line = line.max(1);
    let column = match text.split('\n').nth(line - 1) {
        Some(line_text) => line_text
            .char_indices()
            .take_while(|(i, _)| *i < byte_column)
            .count(),
        None => byte_column,
    };
    (line, column.max(1))
}

/// Checks `value` against the JSON Schema `schema` and returns every problem, the "cannot
/// judge" ones ([`ProblemKind::is_unjudged`]) last; empty when the value is valid.
pub fn check_value(value: &Value, schema: &Value) -> Vec<Problem> {
    let mut walker = keywords::Walker::new(schema);
    let mut path = String::new();
    let mut problems = Vec::new();
    walker.check(value, schema, &mut path, 0, &mut problems);
    problems.append(&mut walker.unjudged);
    problems
}

/// A checker the answer gate can be given ([`install_gate_check`]).
pub type SchemaCheck = fn(value: &Value, schema: &Value) -> Vec<Problem>;

static GATE_CHECK: std::sync::OnceLock<SchemaCheck> = std::sync::OnceLock::new();

/// Gives the answer gate the full checker, and the read-only walk below the top level; the
/// first call wins. The element and the page (feature `split`) call it from the cards' part,
/// so both travel with the cards and the first download does not carry them.
pub fn install_gate_check() {
    let _ = GATE_CHECK.set(check_value);
    crate::draft::install_nested_walk();
}

/// What the answer gate runs on edited arguments: [`check_value`], except in a `split` build
/// before the cards' part has come ([`install_gate_check`]), where it says it cannot judge
/// ([`ProblemKind::NotLoaded`]) and the server checks the edit again. Every card is drawn
/// by that part, so an edit made on a card is always checked.
pub fn gate_check(value: &Value, schema: &Value) -> Vec<Problem> {
    // A `cfg` attribute, not `cfg!`: a split build must not even name `check_value` here.
    #[cfg(feature = "split")]
    let problems = match GATE_CHECK.get() {
        Some(check) => check(value, schema),
        None => vec![Problem::new("", ProblemKind::NotLoaded)],
    };
    #[cfg(not(feature = "split"))]
    let problems = GATE_CHECK.get().unwrap_or(&(check_value as SchemaCheck))(value, schema);
    problems
}

/// Whether the answer gate holds the full checker now: always, except in a `split` build
/// before the cards' part has come ([`install_gate_check`]).
pub fn gate_ready() -> bool {
    cfg!(not(feature = "split")) || GATE_CHECK.get().is_some()
}

/// Whether `resolution` must wait for the full checker before the gate judges it: it carries
/// edited arguments and the checker has not come yet. A host may answer with an edit before any
/// card was drawn (so before the cards' part, which brings the checker, was fetched); the
/// store fetches that part first, so such an edit is checked like one made on a card, instead
/// of going out as "cannot judge".
pub fn edit_waits_for_checker(resolution: &crate::Resolution) -> bool {
    resolution.carries_edit() && !gate_ready()
}

/// True when `problems` has one that blocks Approve (any that is not "cannot judge").
pub fn blocks(problems: &[Problem]) -> bool {
    problems.iter().any(|p| !p.kind.is_unjudged())
}

/// Deep equality of two argument objects, what "edited" means: object key order
/// does not matter and numbers compare by value (`1` equals `1.0`). Approve sends
/// `approvedArgs` only when this is false for the edit and the proposal.
pub fn args_equal(a: &Value, b: &Value) -> bool {
    // An explicit stack instead of recursion: values built in code have no depth limit.
    let mut pending = vec![(a, b)];
    while let Some((a, b)) = pending.pop() {
        match (a, b) {
            (Value::Number(x), Value::Number(y)) => {
                if !numbers_equal(x, y) {
                    return false;
                }
            }
            (Value::Array(xs), Value::Array(ys)) => {
                if xs.len() != ys.len() {
                    return false;
                }
                pending.extend(xs.iter().zip(ys));
            }
            (Value::Object(xs), Value::Object(ys)) => {
                if xs.len() != ys.len() {
                    return false;
                }
                for (key, x) in xs {
                    match ys.get(key) {
                        Some(y) => pending.push((x, y)),
                        None => return false,
                    }
                }
            }
            (Value::Null, Value::Null) => {}
            (Value::Bool(x), Value::Bool(y)) if x == y => {}
            (Value::String(x), Value::String(y)) if x == y => {}
            _ => return false,
        }
    }
    true
}

fn numbers_equal(x: &Number, y: &Number) -> bool {
    if let (Some(a), Some(b)) = (x.as_i64(), y.as_i64()) {
        return a == b;
    }
    if let (Some(a), Some(b)) = (x.as_u64(), y.as_u64()) {
        return a == b;
    }
    match (x.as_f64(), y.as_f64()) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

/// Searches `text` for the regular expression `pattern` (unanchored, as JSON Schema's
/// `pattern` keyword does): `Some(true)` when it matches somewhere, `Some(false)` when it does
/// not, `None` when the engine can not compile the pattern (the keyword is then ignored).
pub type PatternEngine = fn(pattern: &str, text: &str) -> Option<bool>;

static PATTERN_ENGINE: std::sync::OnceLock<PatternEngine> = std::sync::OnceLock::new();

/// Sets the engine that checks `pattern` for every later check; the first call wins.
///
/// JSON Schema patterns are ECMA-262 regular expressions. In the browser the edge installs
/// the browser's own `RegExp` (`io::pattern`, done by every `ChatStore`), which is the right
/// dialect and costs no code in the wasm. Without an installed engine, native builds use
/// regex-lite (close to ECMA-262 for the patterns tool schemas use) and wasm32 builds ignore
/// `pattern` (the server checks it again), so regex-lite is never linked into the wasm.
pub fn set_pattern_engine(engine: PatternEngine) {
    let _ = PATTERN_ENGINE.set(engine);
}

fn pattern_engine() -> PatternEngine {
    PATTERN_ENGINE
        .get()
        .copied()
        .unwrap_or(default_pattern_engine)
}

#[cfg(not(target_arch = "wasm32"))]
fn default_pattern_engine(pattern: &str, text: &str) -> Option<bool> {
    regex_lite::Regex::new(pattern)
        .ok()
        .map(|re| re.is_match(text))
}

#[cfg(target_arch = "wasm32")]
fn default_pattern_engine(_pattern: &str, _text: &str) -> Option<bool> {
    None
}
