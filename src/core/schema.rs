//! Checks edited approval arguments against the action's `argsSchema` before Approve is allowed
//! (seed 000, "Editing the arguments").
//!
//! It exists because the approval card must explain, in the person's language, why an edit can
//! not be sent yet. A general JSON Schema crate would pull the full `regex` crate and URL
//! handling into the wasm, and would hand back English strings.
//! This module covers exactly the keywords seed 000 lists and returns structured [`Problem`]s
//! that the UI words through Fluent ([`ProblemKind::fluent_id`], [`Problem::fluent_args`]).
//! Unknown keywords (`$ref`, `format`, ...) are ignored: the server validates the edit again.
//!
//! Choices worth knowing:
//! - A failing `type` stops the checks of that (sub)schema, so one wrong value gives one problem.
//! - `allOf` reports the problems of its branches directly; it has no problem of its own.
//! - `anyOf` / `oneOf` report one problem at the value's path, not their branches' problems.
//! - The schema `false` (also under `properties` or `items`) is reported as
//!   [`ProblemKind::Type`] with an empty `expected` list ("no value is allowed here").
//! - `required` and `additionalProperties: false` report at the path of the object, naming the
//!   property.
//! - Schemas are walked at most [`MAX_DEPTH`] levels deep; a deeper (hostile) schema gives one
//!   [`ProblemKind::TooDeep`] instead of overflowing the stack.

use serde_json::{Number, Value};

/// How many nested subschemas the checker follows before giving up with
/// [`ProblemKind::TooDeep`]. Real tool schemas are a handful of levels deep.
pub const MAX_DEPTH: usize = 64;

/// One reason why edited arguments can not be approved.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// Where in the arguments, as a JSON Pointer (RFC 6901): `""` for the whole object,
    /// `"/to"`, `"/recipients/1/email"`. `~` and `/` inside keys are escaped as `~0` and `~1`.
    pub path: String,
    /// What is wrong, with the keyword's parameters.
    pub kind: ProblemKind,
}

/// What is wrong with a value: one variant per keyword, carrying the keyword's parameters so
/// that the UI can word it in any locale.
#[derive(Debug, Clone, PartialEq)]
pub enum ProblemKind {
    /// The editor text is not JSON. Both numbers are 1-based; `column` counts characters.
    InvalidJson {
        /// Line of the error.
        line: usize,
        /// Column of the error, in characters.
        column: usize,
    },
    /// The text is JSON but not an object; arguments are always an object.
    NotObject,
    /// `type`: the value has none of the `expected` types. Empty for the schema `false`.
    Type {
        /// The allowed type names, as the schema wrote them.
        expected: Vec<String>,
    },
    /// `enum`: the value is none of the allowed values.
    Enum {
        /// The allowed values.
        allowed: Vec<Value>,
    },
    /// `const`: the value is not the one allowed value.
    Const {
        /// The only allowed value.
        expected: Value,
    },
    /// `required`: the object lacks a property.
    Required {
        /// The missing property.
        property: String,
    },
    /// `additionalProperties: false`: the object has a property the schema does not list.
    AdditionalProperties {
        /// The unexpected property.
        property: String,
    },
    /// `minimum`: the number is smaller than `limit`.
    Minimum {
        /// The smallest allowed number.
        limit: f64,
    },
    /// `maximum`: the number is larger than `limit`.
    Maximum {
        /// The largest allowed number.
        limit: f64,
    },
    /// `exclusiveMinimum` (a number, or `true` next to `minimum`): the number is not above `limit`.
    ExclusiveMinimum {
        /// The number has to be larger than this.
        limit: f64,
    },
    /// `exclusiveMaximum` (a number, or `true` next to `maximum`): the number is not below `limit`.
    ExclusiveMaximum {
        /// The number has to be smaller than this.
        limit: f64,
    },
    /// `minLength`: the text has fewer than `limit` characters (Unicode scalar values).
    MinLength {
        /// The fewest characters allowed.
        limit: u64,
    },
    /// `maxLength`: the text has more than `limit` characters (Unicode scalar values).
    MaxLength {
        /// The most characters allowed.
        limit: u64,
    },
    /// `pattern`: the text does not match the regular expression.
    Pattern {
        /// The regular expression, as the schema wrote it.
        pattern: String,
    },
    /// `minItems`: the list has fewer than `limit` items.
    MinItems {
        /// The fewest items allowed.
        limit: u64,
    },
    /// `maxItems`: the list has more than `limit` items.
    MaxItems {
        /// The most items allowed.
        limit: u64,
    },
    /// `anyOf`: the value matches none of the alternatives.
    AnyOf,
    /// `oneOf`: the value matches `matched` alternatives instead of exactly one.
    OneOf {
        /// How many alternatives matched (0, or 2 and more).
        matched: usize,
    },
    /// The schema nests deeper than [`MAX_DEPTH`]; the arguments could not be checked fully.
    TooDeep,
}

impl ProblemKind {
    /// The Fluent message id that words this problem (`chat-action-schema-*`).
    pub fn fluent_id(&self) -> &'static str {
        match self {
            ProblemKind::InvalidJson { .. } => "chat-action-schema-invalid-json",
            ProblemKind::NotObject => "chat-action-schema-not-object",
            ProblemKind::Type { .. } => "chat-action-schema-type",
            ProblemKind::Enum { .. } => "chat-action-schema-enum",
            ProblemKind::Const { .. } => "chat-action-schema-const",
            ProblemKind::Required { .. } => "chat-action-schema-required",
            ProblemKind::AdditionalProperties { .. } => "chat-action-schema-additional-properties",
            ProblemKind::Minimum { .. } => "chat-action-schema-minimum",
            ProblemKind::Maximum { .. } => "chat-action-schema-maximum",
            ProblemKind::ExclusiveMinimum { .. } => "chat-action-schema-exclusive-minimum",
            ProblemKind::ExclusiveMaximum { .. } => "chat-action-schema-exclusive-maximum",
            ProblemKind::MinLength { .. } => "chat-action-schema-min-length",
            ProblemKind::MaxLength { .. } => "chat-action-schema-max-length",
            ProblemKind::Pattern { .. } => "chat-action-schema-pattern",
            ProblemKind::MinItems { .. } => "chat-action-schema-min-items",
            ProblemKind::MaxItems { .. } => "chat-action-schema-max-items",
            ProblemKind::AnyOf => "chat-action-schema-any-of",
            ProblemKind::OneOf { .. } => "chat-action-schema-one-of",
            ProblemKind::TooDeep => "chat-action-schema-too-deep",
        }
    }
}

impl Problem {
    fn new(path: &str, kind: ProblemKind) -> Self {
        Problem {
            path: path.to_owned(),
            kind,
        }
    }

    /// The variables for the Fluent message [`ProblemKind::fluent_id`], as text.
    ///
    /// Always `path` (`"/"` for the whole object, so a message never starts with an empty
    /// word), plus per kind: `line`, `column` (invalid JSON); `expected` (type names joined by
    /// `", "`) and `count` (how many; `0` for the schema `false`) (type); `allowed` (JSON texts
    /// joined by `", "`) (enum); `expected` (JSON text) (const); `property` (required,
    /// additional properties); `limit` (the number keywords, lengths, item counts and
    /// too-deep); `pattern`; `matched` (one-of).
    pub fn fluent_args(&self) -> Vec<(&'static str, String)> {
        let path = if self.path.is_empty() {
            "/".to_owned()
        } else {
            self.path.clone()
        };
        let mut args = vec![("path", path)];
        match &self.kind {
            ProblemKind::InvalidJson { line, column } => {
                args.push(("line", line.to_string()));
                args.push(("column", column.to_string()));
            }
            ProblemKind::NotObject | ProblemKind::AnyOf => {}
            ProblemKind::Type { expected } => {
                args.push(("expected", expected.join(", ")));
                args.push(("count", expected.len().to_string()));
            }
            ProblemKind::Enum { allowed } => {
                let texts: Vec<String> = allowed.iter().map(Value::to_string).collect();
                args.push(("allowed", texts.join(", ")));
            }
            ProblemKind::Const { expected } => args.push(("expected", expected.to_string())),
            ProblemKind::Required { property } | ProblemKind::AdditionalProperties { property } => {
                args.push(("property", property.clone()));
            }
            ProblemKind::Minimum { limit }
            | ProblemKind::Maximum { limit }
            | ProblemKind::ExclusiveMinimum { limit }
            | ProblemKind::ExclusiveMaximum { limit } => args.push(("limit", limit.to_string())),
            ProblemKind::MinLength { limit }
            | ProblemKind::MaxLength { limit }
            | ProblemKind::MinItems { limit }
            | ProblemKind::MaxItems { limit } => args.push(("limit", limit.to_string())),
            ProblemKind::Pattern { pattern } => args.push(("pattern", pattern.clone())),
            ProblemKind::OneOf { matched } => args.push(("matched", matched.to_string())),
            ProblemKind::TooDeep => args.push(("limit", MAX_DEPTH.to_string())),
        }
        args
    }
}

/// Checks the text of the arguments editor: it must be JSON, an object, and (when the action
/// has an `argsSchema`) valid against the schema. Returns the parsed object, or every problem.
pub fn check_args_text(text: &str, schema: Option<&Value>) -> Result<Value, Vec<Problem>> {
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(err) => {
            let (line, column) = char_position(text, err.line(), err.column());
            return Err(vec![Problem::new(
                "",
                ProblemKind::InvalidJson { line, column },
            )]);
        }
    };
    if !value.is_object() {
        return Err(vec![Problem::new("", ProblemKind::NotObject)]);
    }
    let problems = match schema {
        Some(schema) => check_value(&value, schema),
        None => Vec::new(),
    };
    if problems.is_empty() {
        Ok(value)
    } else {
        Err(problems)
    }
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

/// Checks `value` against the JSON Schema `schema` (the keyword subset of seed 000) and returns
/// every problem; empty when the value is valid.
pub fn check_value(value: &Value, schema: &Value) -> Vec<Problem> {
    let mut walker = Walker { too_deep: None };
    let mut path = String::new();
    let mut problems = Vec::new();
    walker.check(value, schema, &mut path, 0, &mut problems);
    if let Some(at) = walker.too_deep {
        problems.push(Problem::new(&at, ProblemKind::TooDeep));
    }
    problems
}

/// Deep equality of two argument objects as seed 000 means it for "edited": object key order
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

/// State of one [`check_value`] run.
struct Walker {
    /// Where the depth cap was first hit. Kept outside the problem lists so that `anyOf` /
    /// `oneOf`, which throw their branches' problems away, can not hide it.
    too_deep: Option<String>,
}

impl Walker {
    /// Checks `value` (at `path`) against `schema`, `depth` subschemas below the root.
    /// `path` is restored before returning.
    fn check(
        &mut self,
        value: &Value,
        schema: &Value,
        path: &mut String,
        depth: usize,
        out: &mut Vec<Problem>,
    ) {
        if depth > MAX_DEPTH {
            if self.too_deep.is_none() {
                self.too_deep = Some(path.clone());
            }
            return;
        }
        let s = match schema {
            Value::Bool(true) => return,
            Value::Bool(false) => {
                out.push(Problem::new(path, ProblemKind::Type { expected: vec![] }));
                return;
            }
            Value::Object(s) => s,
            // Not a schema at all: nothing to check (the server decides).
            _ => return,
        };

        if let Some(expected) = type_mismatch(s.get("type"), value) {
            out.push(Problem::new(path, ProblemKind::Type { expected }));
            return;
        }
        if let Some(Value::Array(allowed)) = s.get("enum") {
            if !allowed.iter().any(|a| args_equal(a, value)) {
                let allowed = allowed.clone();
                out.push(Problem::new(path, ProblemKind::Enum { allowed }));
            }
        }
        if let Some(expected) = s.get("const") {
            if !args_equal(expected, value) {
                let expected = expected.clone();
                out.push(Problem::new(path, ProblemKind::Const { expected }));
            }
        }

        match value {
            Value::Number(n) => check_number(n, s, path, out),
            Value::String(text) => check_string(text, s, path, out),
            Value::Array(items) => self.check_array(items, s, path, depth, out),
            Value::Object(obj) => self.check_object(obj, s, path, depth, out),
            Value::Null | Value::Bool(_) => {}
        }

        if let Some(Value::Array(branches)) = s.get("allOf") {
            for branch in branches {
                self.check(value, branch, path, depth + 1, out);
            }
        }
        if let Some(Value::Array(branches)) = s.get("anyOf") {
            let mut any = false;
            for branch in branches {
                if self.matches(value, branch, path, depth + 1) {
                    any = true;
                    break;
                }
            }
            if !any {
                out.push(Problem::new(path, ProblemKind::AnyOf));
            }
        }
        if let Some(Value::Array(branches)) = s.get("oneOf") {
            let mut matched = 0;
            for branch in branches {
                if self.matches(value, branch, path, depth + 1) {
                    matched += 1;
                }
            }
            if matched != 1 {
                out.push(Problem::new(path, ProblemKind::OneOf { matched }));
            }
        }
    }

    /// True when `value` has no problem against `branch` (used by `anyOf` / `oneOf`).
    fn matches(&mut self, value: &Value, branch: &Value, path: &mut String, depth: usize) -> bool {
        let mut scratch = Vec::new();
        self.check(value, branch, path, depth, &mut scratch);
        scratch.is_empty()
    }

    fn check_array(
        &mut self,
        items: &[Value],
        s: &serde_json::Map<String, Value>,
        path: &mut String,
        depth: usize,
        out: &mut Vec<Problem>,
    ) {
        let len = items.len() as u64;
        if let Some(limit) = s.get("minItems").and_then(as_count) {
            if len < limit {
                out.push(Problem::new(path, ProblemKind::MinItems { limit }));
            }
        }
        if let Some(limit) = s.get("maxItems").and_then(as_count) {
            if len > limit {
                out.push(Problem::new(path, ProblemKind::MaxItems { limit }));
            }
        }
        match s.get("items") {
            // Tuple form: each schema checks the item at its position; extra items are free
            // (`additionalItems` is not one of the supported keywords).
            Some(Value::Array(schemas)) => {
                for (i, (item, item_schema)) in items.iter().zip(schemas).enumerate() {
                    self.check_child(item, item_schema, path, &i.to_string(), depth, out);
                }
            }
            Some(item_schema) => {
                for (i, item) in items.iter().enumerate() {
                    self.check_child(item, item_schema, path, &i.to_string(), depth, out);
                }
            }
            None => {}
        }
    }

    fn check_object(
        &mut self,
        obj: &serde_json::Map<String, Value>,
        s: &serde_json::Map<String, Value>,
        path: &mut String,
        depth: usize,
        out: &mut Vec<Problem>,
    ) {
        if let Some(Value::Array(required)) = s.get("required") {
            for property in required.iter().filter_map(Value::as_str) {
                if !obj.contains_key(property) {
                    let property = property.to_owned();
                    out.push(Problem::new(path, ProblemKind::Required { property }));
                }
            }
        }
        let properties = s.get("properties").and_then(Value::as_object);
        let additional = s.get("additionalProperties");
        for (key, child) in obj {
            match properties.and_then(|p| p.get(key)) {
                Some(child_schema) => self.check_child(child, child_schema, path, key, depth, out),
                None => match additional {
                    Some(Value::Bool(false)) => {
                        let property = key.clone();
                        out.push(Problem::new(
                            path,
                            ProblemKind::AdditionalProperties { property },
                        ));
                    }
                    Some(extra @ Value::Object(_)) => {
                        self.check_child(child, extra, path, key, depth, out);
                    }
                    _ => {}
                },
            }
        }
    }

    /// Checks a property or item, with `segment` appended to `path` for the duration.
    fn check_child(
        &mut self,
        value: &Value,
        schema: &Value,
        path: &mut String,
        segment: &str,
        depth: usize,
        out: &mut Vec<Problem>,
    ) {
        let parent_len = path.len();
        path.push('/');
        for c in segment.chars() {
            match c {
                '~' => path.push_str("~0"),
                '/' => path.push_str("~1"),
                c => path.push(c),
            }
        }
        self.check(value, schema, path, depth + 1, out);
        path.truncate(parent_len);
    }
}

/// The `type` keyword: `None` when the value fits (or there is no usable `type`), otherwise the
/// expected type names. An unknown type name matches anything, like an unknown keyword.
fn type_mismatch(type_keyword: Option<&Value>, value: &Value) -> Option<Vec<String>> {
    let names: Vec<&str> = match type_keyword? {
        Value::String(name) => vec![name.as_str()],
        Value::Array(names) => names.iter().filter_map(Value::as_str).collect(),
        _ => return None,
    };
    if names.is_empty() || names.iter().any(|name| type_matches(name, value)) {
        return None;
    }
    Some(names.into_iter().map(str::to_owned).collect())
}

fn type_matches(name: &str, value: &Value) -> bool {
    match name {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "number" => value.is_number(),
        // JSON Schema: 3.0 is an integer.
        "integer" => match value {
            Value::Number(n) => {
                n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
            }
            _ => false,
        },
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        _ => true,
    }
}

fn check_number(
    n: &Number,
    s: &serde_json::Map<String, Value>,
    path: &str,
    out: &mut Vec<Problem>,
) {
    let Some(x) = n.as_f64() else {
        return;
    };
    // Draft 4 wrote `exclusiveMinimum: true` to make `minimum` exclusive; draft 6 and later
    // give `exclusiveMinimum` its own number. Both are read.
    let min_exclusive = s.get("exclusiveMinimum") == Some(&Value::Bool(true));
    if let Some(limit) = s.get("minimum").and_then(Value::as_f64) {
        if min_exclusive && x <= limit {
            out.push(Problem::new(path, ProblemKind::ExclusiveMinimum { limit }));
        } else if x < limit {
            out.push(Problem::new(path, ProblemKind::Minimum { limit }));
        }
    }
    if let Some(limit) = s.get("exclusiveMinimum").and_then(Value::as_f64) {
        if x <= limit {
            out.push(Problem::new(path, ProblemKind::ExclusiveMinimum { limit }));
        }
    }
    let max_exclusive = s.get("exclusiveMaximum") == Some(&Value::Bool(true));
    if let Some(limit) = s.get("maximum").and_then(Value::as_f64) {
        if max_exclusive && x >= limit {
            out.push(Problem::new(path, ProblemKind::ExclusiveMaximum { limit }));
        } else if x > limit {
            out.push(Problem::new(path, ProblemKind::Maximum { limit }));
        }
    }
    if let Some(limit) = s.get("exclusiveMaximum").and_then(Value::as_f64) {
        if x >= limit {
            out.push(Problem::new(path, ProblemKind::ExclusiveMaximum { limit }));
        }
    }
}

fn check_string(
    text: &str,
    s: &serde_json::Map<String, Value>,
    path: &str,
    out: &mut Vec<Problem>,
) {
    let needs_len = s.contains_key("minLength") || s.contains_key("maxLength");
    let len = if needs_len {
        text.chars().count() as u64
    } else {
        0
    };
    if let Some(limit) = s.get("minLength").and_then(as_count) {
        if len < limit {
            out.push(Problem::new(path, ProblemKind::MinLength { limit }));
        }
    }
    if let Some(limit) = s.get("maxLength").and_then(as_count) {
        if len > limit {
            out.push(Problem::new(path, ProblemKind::MaxLength { limit }));
        }
    }
    if let Some(pattern) = s.get("pattern").and_then(Value::as_str) {
        // JSON Schema patterns search anywhere in the text (no implicit anchors). A pattern
        // the engine can not compile is ignored like an unknown keyword; the server checks.
        if pattern_engine()(pattern, text) == Some(false) {
            let pattern = pattern.to_owned();
            out.push(Problem::new(path, ProblemKind::Pattern { pattern }));
        }
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

/// A length or item count limit: a non-negative integer, also written as `2.0`.
fn as_count(v: &Value) -> Option<u64> {
    v.as_u64().or_else(|| {
        v.as_f64()
            .filter(|f| *f >= 0.0 && f.fract() == 0.0 && *f <= u64::MAX as f64)
            .map(|f| f as u64)
    })
}
