//! The walk of one value through one schema: every keyword the checker knows, with the bounds
//! that keep a hostile schema from costing the page (depth, steps, `$ref` loops, huge values).
//!
//! Branches (`anyOf`, `oneOf`, `not`, `if`, `contains`) are judged three ways: they pass,
//! fail (a real problem was found) or are unknown (the checker could not judge something in
//! them). An unknown branch never turns into a problem of its own: the "cannot judge" note
//! is already recorded, and the server checks again.

use serde_json::{Map, Number, Value};

use super::problems::{Problem, ProblemKind};
use super::refs::Index;
use super::{args_equal, formats, pattern_engine, MAX_DEPTH, MAX_ENUM, MAX_PATTERN, MAX_WORK};

/// What one branch made of the value.
#[derive(Clone, Copy, PartialEq)]
enum Verdict {
    Pass,
    Fail,
    Unknown,
}

/// `$schema` values whose keywords the checker reads (2020-12, 2019-09, drafts 7, 6 and 4).
const DIALECTS: [&str; 5] = [
    "https://json-schema.org/draft/2020-12/schema",
    "https://json-schema.org/draft/2019-09/schema",
    "http://json-schema.org/draft-07/schema",
    "http://json-schema.org/draft-06/schema",
    "http://json-schema.org/draft-04/schema",
];

/// Keywords that change validity and that the checker does not evaluate: their presence
/// makes the check "cannot judge" instead of a silent pass.
const UNSUPPORTED: [&str; 4] = [
    "unevaluatedProperties",
    "unevaluatedItems",
    "$recursiveRef",
    "$dynamicRef",
];

/// State of one check.
pub(super) struct Walker<'s> {
    root: &'s Value,
    index: Index<'s>,
    work: usize,
    stopped: bool,
    /// The "cannot judge" problems, each once. Kept outside the problem lists so that the
    /// branches, whose problems are thrown away, can not hide them.
    pub(super) unjudged: Vec<Problem>,
    /// How many times something could not be judged (repeats counted), to tell an unknown
    /// branch from a passing one.
    unjudged_events: usize,
    /// The `$ref` targets being followed, with the value's path at the time.
    ref_stack: Vec<(*const Value, String)>,
}

impl<'s> Walker<'s> {
    pub(super) fn new(root: &'s Value) -> Walker<'s> {
        let index = Index::new(root, MAX_WORK);
        let mut walker = Walker {
            root,
            work: index.nodes,
            index,
            stopped: false,
            unjudged: Vec::new(),
            unjudged_events: 0,
            ref_stack: Vec::new(),
        };
        if walker.work > MAX_WORK {
            walker.cannot_judge("", ProblemKind::TooMuchWork);
            walker.stopped = true;
        }
        walker
    }

    fn cannot_judge(&mut self, path: &str, kind: ProblemKind) {
        self.unjudged_events += 1;
        if !self.unjudged.iter().any(|p| p.kind == kind) {
            self.unjudged.push(Problem::new(path, kind));
        }
    }

    /// Counts `steps` of work; false (and "cannot judge") once the bound is passed.
    fn spend(&mut self, steps: usize, path: &str) -> bool {
        if self.stopped {
            self.unjudged_events += 1;
            return false;
        }
        self.work = self.work.saturating_add(steps);
        if self.work > MAX_WORK {
            self.stopped = true;
            self.cannot_judge(path, ProblemKind::TooMuchWork);
            return false;
        }
        true
    }

    /// Checks `value` (at `path`) against `schema`, `depth` subschemas (and `$ref` hops) below
    /// the root. `path` is restored before returning.
    pub(super) fn check(
        &mut self,
        value: &Value,
        schema: &'s Value,
        path: &mut String,
        depth: usize,
        out: &mut Vec<Problem>,
    ) {
        if !self.spend(1, path) {
            return;
        }
        if depth > MAX_DEPTH {
            self.cannot_judge(path, ProblemKind::TooDeep);
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

        if let Some(dialect) = s.get("$schema").and_then(Value::as_str) {
            let known = dialect.trim_end_matches('#');
            if !DIALECTS.contains(&known) {
                let dialect = dialect.to_owned();
                self.cannot_judge(path, ProblemKind::UnknownDialect { dialect });
            }
        }
        for keyword in UNSUPPORTED {
            match s.get(keyword) {
                None | Some(Value::Bool(true)) => {}
                Some(_) if keyword == "$dynamicRef" && self.dynamic_ref_is_static(s) => {}
                Some(_) => {
                    let keyword = keyword.to_owned();
                    self.cannot_judge(path, ProblemKind::Unsupported { keyword });
                }
            }
        }
        for keyword in ["$ref", "$dynamicRef"] {
            if let Some(reference) = s.get(keyword).and_then(Value::as_str) {
                self.follow(value, schema, reference, path, depth, out);
            }
        }

        if let Some(expected) = type_mismatch(s.get("type"), value) {
            out.push(Problem::new(path, ProblemKind::Type { expected }));
            return;
        }
        if let Some(Value::Array(allowed)) = s.get("enum") {
            if allowed.len() > MAX_ENUM {
                let keyword = "enum".to_owned();
                self.cannot_judge(path, ProblemKind::TooLarge { keyword });
            } else if self.spend(allowed.len(), path)
                && !allowed.iter().any(|a| args_equal(a, value))
            {
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
            Value::String(text) => self.check_string(text, s, path, out),
            Value::Array(items) => self.check_array(items, s, path, depth, out),
            Value::Object(obj) => self.check_object(value, obj, s, path, depth, out),
            Value::Null | Value::Bool(_) => {}
        }
        self.check_composition(value, s, path, depth, out);
    }

    /// A `$dynamicRef` that can only land where its plain reading lands: no other schema
    /// resource declares the same `$dynamicAnchor`, so the dynamic scope can not change it.
    fn dynamic_ref_is_static(&self, s: &Map<String, Value>) -> bool {
        let Some(reference) = s.get("$dynamicRef").and_then(Value::as_str) else {
            return true;
        };
        match reference.rsplit_once('#') {
            Some((_, name)) if !name.starts_with('/') && !name.is_empty() => {
                self.index.dynamic_anchor_count(name) <= 1
            }
            _ => true,
        }
    }

    fn follow(
        &mut self,
        value: &Value,
        schema: &'s Value,
        reference: &str,
        path: &mut String,
        depth: usize,
        out: &mut Vec<Problem>,
    ) {
        let base = self.index.base_of(schema).to_owned();
        let Some(target) = self.index.resolve(&base, reference) else {
            let reference = reference.to_owned();
            self.cannot_judge(path, ProblemKind::RemoteRef { reference });
            return;
        };
        let key = (target as *const Value, path.clone());
        if self.ref_stack.contains(&key) {
            let reference = reference.to_owned();
            self.cannot_judge(path, ProblemKind::RefCycle { reference });
            return;
        }
        self.ref_stack.push(key);
        self.check(value, target, path, depth + 1, out);
        self.ref_stack.pop();
    }

    /// Passes, fails or is unknown: `value` against `branch`, problems thrown away.
    fn verdict(
        &mut self,
        value: &Value,
        branch: &'s Value,
        path: &mut String,
        depth: usize,
    ) -> Verdict {
        let before = self.unjudged_events;
        let mut scratch = Vec::new();
        self.check(value, branch, path, depth, &mut scratch);
        if !scratch.is_empty() {
            Verdict::Fail
        } else if self.unjudged_events > before {
            Verdict::Unknown
        } else {
            Verdict::Pass
        }
    }

    fn check_composition(
        &mut self,
        value: &Value,
        s: &'s Map<String, Value>,
        path: &mut String,
        depth: usize,
        out: &mut Vec<Problem>,
    ) {
        if let Some(Value::Array(branches)) = s.get("allOf") {
            for branch in branches {
                self.check(value, branch, path, depth + 1, out);
            }
        }
        if let Some(Value::Array(branches)) = s.get("anyOf") {
            let mut unknown = false;
            let mut passed = false;
            for branch in branches {
                match self.verdict(value, branch, path, depth + 1) {
                    Verdict::Pass => {
                        passed = true;
                        break;
                    }
                    Verdict::Unknown => unknown = true,
                    Verdict::Fail => {}
                }
            }
            if !passed && !unknown {
                let variants = variant_names(self.root, branches);
                out.push(Problem::new(path, ProblemKind::AnyOf { variants }));
            }
        }
        if let Some(Value::Array(branches)) = s.get("oneOf") {
            let (mut matched, mut unknown) = (0, 0);
            for branch in branches {
                match self.verdict(value, branch, path, depth + 1) {
                    Verdict::Pass => matched += 1,
                    Verdict::Unknown => unknown += 1,
                    Verdict::Fail => {}
                }
            }
            if matched > 1 || (matched == 0 && unknown == 0) {
                let variants = variant_names(self.root, branches);
                out.push(Problem::new(path, ProblemKind::OneOf { matched, variants }));
            }
        }
        if let Some(branch) = s.get("not") {
            if self.verdict(value, branch, path, depth + 1) == Verdict::Pass {
                out.push(Problem::new(path, ProblemKind::Not));
            }
        }
        if let Some(condition) = s.get("if") {
            let next = match self.verdict(value, condition, path, depth + 1) {
                Verdict::Pass => s.get("then"),
                Verdict::Fail => s.get("else"),
                Verdict::Unknown => None,
            };
            if let Some(next) = next {
                self.check(value, next, path, depth + 1, out);
            }
        }
    }

    fn check_string(
        &mut self,
        text: &str,
        s: &Map<String, Value>,
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
            // JSON Schema patterns search anywhere in the text (no implicit anchors).
            if self.search(pattern, text, path) == Some(false) {
                let pattern = pattern.to_owned();
                out.push(Problem::new(path, ProblemKind::Pattern { pattern }));
            }
        }
        if let Some(format) = s.get("format").and_then(Value::as_str) {
            if formats::check(format, text) == Some(false) {
                let format = format.to_owned();
                out.push(Problem::new(path, ProblemKind::Format { format }));
            }
        }
    }

    /// `pattern` (and `patternProperties`) through the engine: `None` when it could not be
    /// judged (too long, unreadable, over the work bound), which is recorded.
    fn search(&mut self, pattern: &str, text: &str, path: &str) -> Option<bool> {
        if pattern.chars().count() > MAX_PATTERN {
            let keyword = "pattern".to_owned();
            self.cannot_judge(path, ProblemKind::TooLarge { keyword });
            return None;
        }
        if !self.spend(1 + (pattern.len() + text.len()) / 64, path) {
            return None;
        }
        let found = pattern_engine()(pattern, text);
        if found.is_none() {
            let pattern = pattern.to_owned();
            self.cannot_judge(path, ProblemKind::UnreadablePattern { pattern });
        }
        found
    }

    fn check_array(
        &mut self,
        items: &[Value],
        s: &'s Map<String, Value>,
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
        if s.get("uniqueItems") == Some(&Value::Bool(true)) && items.len() > 1 {
            let pairs = items.len() * (items.len() - 1) / 2;
            if self.spend(pairs, path) {
                'outer: for (first, a) in items.iter().enumerate() {
                    for (offset, b) in items[first + 1..].iter().enumerate() {
                        if args_equal(a, b) {
                            let second = first + 1 + offset;
                            out.push(Problem::new(
                                path,
                                ProblemKind::UniqueItems { first, second },
                            ));
                            break 'outer;
                        }
                    }
                }
            }
        }
        // 2020-12: `prefixItems` by position, then `items` for the rest. Draft 7: `items` as
        // a list by position, then `additionalItems` for the rest.
        let (prefix, rest): (&[Value], Option<&'s Value>) =
            match (s.get("prefixItems"), s.get("items")) {
                (Some(Value::Array(prefix)), rest) => (prefix, rest),
                (_, Some(Value::Array(prefix))) => (prefix, s.get("additionalItems")),
                (_, rest) => (&[], rest),
            };
        for (i, item) in items.iter().enumerate() {
            let item_schema = match prefix.get(i) {
                Some(schema) => schema,
                None => match rest {
                    Some(schema) => schema,
                    None => break,
                },
            };
            self.check_child(item, item_schema, path, &i.to_string(), depth, out);
        }
        if let Some(contains) = s.get("contains") {
            let min = s.get("minContains").and_then(as_count).unwrap_or(1);
            let max = s.get("maxContains").and_then(as_count);
            let (mut matched, mut unknown) = (0u64, 0u64);
            for (i, item) in items.iter().enumerate() {
                let parent_len = push_segment(path, &i.to_string());
                match self.verdict(item, contains, path, depth + 1) {
                    Verdict::Pass => matched += 1,
                    Verdict::Unknown => unknown += 1,
                    Verdict::Fail => {}
                }
                path.truncate(parent_len);
            }
            if matched + unknown < min {
                out.push(Problem::new(path, ProblemKind::MinContains { limit: min }));
            }
            if let Some(limit) = max {
                if matched > limit {
                    out.push(Problem::new(path, ProblemKind::MaxContains { limit }));
                }
            }
        }
    }

    fn check_object(
        &mut self,
        whole: &Value,
        obj: &Map<String, Value>,
        s: &'s Map<String, Value>,
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
        let count = obj.len() as u64;
        if let Some(limit) = s.get("minProperties").and_then(as_count) {
            if count < limit {
                out.push(Problem::new(path, ProblemKind::MinProperties { limit }));
            }
        }
        if let Some(limit) = s.get("maxProperties").and_then(as_count) {
            if count > limit {
                out.push(Problem::new(path, ProblemKind::MaxProperties { limit }));
            }
        }
        self.check_dependencies(whole, obj, s, path, depth, out);
        if let Some(names) = s.get("propertyNames") {
            for key in obj.keys() {
                let name = Value::String(key.clone());
                if self.verdict(&name, names, path, depth + 1) == Verdict::Fail {
                    let property = key.clone();
                    out.push(Problem::new(path, ProblemKind::PropertyName { property }));
                }
            }
        }

        let properties = s.get("properties").and_then(Value::as_object);
        let patterns = s.get("patternProperties").and_then(Value::as_object);
        let additional = s.get("additionalProperties");
        for (key, child) in obj {
            let mut listed = false;
            if let Some(child_schema) = properties.and_then(|p| p.get(key)) {
                listed = true;
                self.check_child(child, child_schema, path, key, depth, out);
            }
            for (pattern, child_schema) in patterns.into_iter().flatten() {
                match self.search(pattern, key, path) {
                    Some(true) => {
                        listed = true;
                        self.check_child(child, child_schema, path, key, depth, out);
                    }
                    Some(false) => {}
                    // Could not tell whether the pattern lists the key: it is not "additional".
                    None => listed = true,
                }
            }
            if listed {
                continue;
            }
            match additional {
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
            }
        }
    }

    /// `dependentRequired`, `dependentSchemas` and draft 7's `dependencies` (either form).
    fn check_dependencies(
        &mut self,
        whole: &Value,
        obj: &Map<String, Value>,
        s: &'s Map<String, Value>,
        path: &mut String,
        depth: usize,
        out: &mut Vec<Problem>,
    ) {
        for keyword in ["dependentRequired", "dependentSchemas", "dependencies"] {
            let Some(Value::Object(rules)) = s.get(keyword) else {
                continue;
            };
            for (property, rule) in rules {
                if !obj.contains_key(property) {
                    continue;
                }
                match rule {
                    Value::Array(names) if keyword != "dependentSchemas" => {
                        for required in names.iter().filter_map(Value::as_str) {
                            if !obj.contains_key(required) {
                                let kind = ProblemKind::DependentRequired {
                                    property: property.clone(),
                                    required: required.to_owned(),
                                };
                                out.push(Problem::new(path, kind));
                            }
                        }
                    }
                    Value::Object(_) | Value::Bool(_) if keyword != "dependentRequired" => {
                        self.check(whole, rule, path, depth + 1, out);
                    }
                    _ => {}
                }
            }
        }
    }

    /// Checks a property or item, with `segment` appended to `path` for the duration.
    fn check_child(
        &mut self,
        value: &Value,
        schema: &'s Value,
        path: &mut String,
        segment: &str,
        depth: usize,
        out: &mut Vec<Problem>,
    ) {
        let parent_len = push_segment(path, segment);
        self.check(value, schema, path, depth + 1, out);
        path.truncate(parent_len);
    }
}

/// Appends `/segment` (escaped as JSON Pointer) to `path`; returns the length to restore.
fn push_segment(path: &mut String, segment: &str) -> usize {
    let parent_len = path.len();
    path.push('/');
    for c in segment.chars() {
        match c {
            '~' => path.push_str("~0"),
            '/' => path.push_str("~1"),
            c => path.push(c),
        }
    }
    parent_len
}

/// A short name for each branch of `anyOf` / `oneOf`, for "must match one of: …" and the
/// form's choice of variant: its
/// `title`, else the name its `$ref` ends with, else its `const`, else its type names, else
/// its position (`#2`).
/// A `$ref` of the form `#/...` is followed inside `root` for its target's `title`.
pub fn variant_names(root: &Value, branches: &[Value]) -> Vec<String> {
    branches
        .iter()
        .enumerate()
        .map(|(i, branch)| {
            let target = branch
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix('#'))
                .and_then(|pointer| root.pointer(pointer))
                .and_then(|target| target.get("title"));
            let titled = target.map(|title| json_title(title, branch));
            titled
                .flatten()
                .or_else(|| variant_name(branch))
                .unwrap_or_else(|| format!("#{}", i + 1))
        })
        .collect()
}

/// The branch's own `title` first, else the referenced one.
fn json_title(target_title: &Value, branch: &Value) -> Option<String> {
    let own = branch.get("title").and_then(Value::as_str);
    let title = own.or(target_title.as_str())?.trim();
    (!title.is_empty()).then(|| title.chars().take(60).collect())
}

fn variant_name(branch: &Value) -> Option<String> {
    let s = branch.as_object()?;
    if let Some(title) = s.get("title").and_then(Value::as_str) {
        let title = title.trim();
        if !title.is_empty() {
            return Some(title.chars().take(60).collect());
        }
    }
    if let Some(reference) = s.get("$ref").and_then(Value::as_str) {
        let name = reference.rsplit(['/', '#']).next().unwrap_or(reference);
        if !name.is_empty() {
            return Some(name.chars().take(60).collect());
        }
    }
    if let Some(value) = s.get("const") {
        return Some(value.to_string().chars().take(60).collect());
    }
    match s.get("type")? {
        Value::String(name) => Some(name.clone()),
        Value::Array(names) => {
            let names: Vec<&str> = names.iter().filter_map(Value::as_str).collect();
            (!names.is_empty()).then(|| names.join(" | "))
        }
        _ => None,
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

fn check_number(n: &Number, s: &Map<String, Value>, path: &str, out: &mut Vec<Problem>) {
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
    if let Some(divisor) = s.get("multipleOf").and_then(Value::as_f64) {
        if divisor > 0.0 && !is_multiple(n, x, divisor) {
            out.push(Problem::new(path, ProblemKind::MultipleOf { divisor }));
        }
    }
}

/// `x` is a whole multiple of `divisor`, with integers exact and a float's rounding forgiven
/// (`0.3` is a multiple of `0.1`). A quotient that overflows is not whole (as the test suite
/// has it); a finite one too large for a float's fraction is taken as whole.
fn is_multiple(n: &Number, x: f64, divisor: f64) -> bool {
    if let (Some(a), true) = (n.as_i64(), divisor.fract() == 0.0 && divisor.abs() < 9.0e15) {
        return a % (divisor as i64) == 0;
    }
    let quotient = x / divisor;
    if !quotient.is_finite() {
        return false;
    }
    if quotient.abs() > 1.0e15 {
        return true;
    }
    (quotient - quotient.round()).abs() < 1.0e-9 * quotient.abs().max(1.0)
}

/// A length or item count limit: a non-negative integer, also written as `2.0`.
fn as_count(v: &Value) -> Option<u64> {
    v.as_u64().or_else(|| {
        v.as_f64()
            .filter(|f| *f >= 0.0 && f.fract() == 0.0 && *f <= u64::MAX as f64)
            .map(|f| f as u64)
    })
}
