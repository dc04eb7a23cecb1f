//! The walk of one value through one schema: every keyword the checker knows, with the bounds
//! that keep a hostile schema from costing the page (depth, steps, `$ref` loops, huge values).
//!
//! Branches (`anyOf`, `oneOf`, `not`, `if`, `contains`) are judged three ways: they pass,
//! fail (a real problem was found) or are unknown (the checker could not judge something in
//! them). An unknown branch never turns into a problem of its own: the "cannot judge" note
//! is already recorded, and the server checks again.

use serde_json::{Map, Value};

use super::names::variant_names;
use super::problems::{Problem, ProblemKind};
use super::refs::Index;
use super::seen::Seen;
use super::values::{as_count, check_number, type_mismatch};
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
/// makes the check "cannot judge" instead of a silent pass. (2019-09's `$recursiveRef`,
/// which 2020-12 replaced by `$dynamicRef`.)
const UNSUPPORTED: [&str; 1] = ["$recursiveRef"];

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
    /// The dynamic scope: the base URIs of the schema resources entered, outermost first.
    scope: Vec<String>,
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
            scope: Vec::new(),
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
    /// the root, and says which of the value's properties or items the schema evaluated.
    /// `path` is restored before returning.
    pub(super) fn check(
        &mut self,
        value: &Value,
        schema: &'s Value,
        path: &mut String,
        depth: usize,
        out: &mut Vec<Problem>,
    ) -> Seen {
        if !self.spend(1, path) {
            return Seen::default();
        }
        if depth > MAX_DEPTH {
            self.cannot_judge(path, ProblemKind::TooDeep);
            return Seen::default();
        }
        let s = match schema {
            Value::Bool(true) => return Seen::default(),
            Value::Bool(false) => {
                out.push(Problem::new(path, ProblemKind::Type { expected: vec![] }));
                return Seen::default();
            }
            Value::Object(s) => s,
            // Not a schema at all: nothing to check (the server decides).
            _ => return Seen::default(),
        };
        // A schema resource of its own (its `$id`, or another resource reached by `$ref`)
        // enters the dynamic scope for the time of its check.
        let entered = match self.index.known_base(schema) {
            Some(base) if self.scope.last().map(String::as_str) != Some(base) => {
                self.scope.push(base.to_owned());
                true
            }
            _ => false,
        };
        let seen = self.check_keywords(value, schema, s, path, depth, out);
        if entered {
            self.scope.pop();
        }
        seen
    }

    fn check_keywords(
        &mut self,
        value: &Value,
        schema: &'s Value,
        s: &'s Map<String, Value>,
        path: &mut String,
        depth: usize,
        out: &mut Vec<Problem>,
    ) -> Seen {
        let mut seen = Seen::default();
        let events_before = self.unjudged_events;

        if let Some(dialect) = s.get("$schema").and_then(Value::as_str) {
            let known = dialect.trim_end_matches('#');
            if !DIALECTS.contains(&known) {
                let dialect = dialect.to_owned();
                self.cannot_judge(path, ProblemKind::UnknownDialect { dialect });
            }
        }
        for keyword in UNSUPPORTED {
            if s.contains_key(keyword) {
                let keyword = keyword.to_owned();
                self.cannot_judge(path, ProblemKind::Unsupported { keyword });
            }
        }
        for keyword in ["$ref", "$dynamicRef"] {
            if let Some(reference) = s.get(keyword).and_then(Value::as_str) {
                let target = self.target(schema, reference, keyword == "$dynamicRef", path);
                if let Some(target) = target {
                    seen.merge(self.follow(value, target, reference, path, depth, out));
                }
            }
        }

        if let Some(expected) = type_mismatch(s.get("type"), value) {
            out.push(Problem::new(path, ProblemKind::Type { expected }));
            return seen;
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
            Value::Array(items) => self.check_array(items, s, path, depth, &mut seen, out),
            Value::Object(obj) => self.check_object(value, obj, s, path, depth, &mut seen, out),
            Value::Null | Value::Bool(_) => {}
        }
        self.check_composition(value, s, path, depth, &mut seen, out);
        // What a part that could not be judged (a remote `$ref`, an unknown branch) evaluated
        // is not known: what `unevaluated*` finds then is "cannot judge", not a problem.
        let unsure = self.unjudged_events > events_before;
        let mut found = Vec::new();
        self.check_unevaluated(value, s, path, depth, &mut seen, &mut found);
        if unsure && !found.is_empty() {
            self.unjudged_events += 1;
        } else {
            out.append(&mut found);
        }
        seen
    }

    /// `unevaluatedProperties` and `unevaluatedItems`: after every other keyword of the
    /// schema, the properties or items nothing evaluated meet their subschema.
    fn check_unevaluated(
        &mut self,
        value: &Value,
        s: &'s Map<String, Value>,
        path: &mut String,
        depth: usize,
        seen: &mut Seen,
        out: &mut Vec<Problem>,
    ) {
        match (
            value,
            s.get("unevaluatedProperties"),
            s.get("unevaluatedItems"),
        ) {
            (Value::Object(obj), Some(extra), _) => {
                for (key, child) in obj {
                    if seen.has_prop(key) {
                        continue;
                    }
                    if extra == &Value::Bool(false) {
                        let property = key.clone();
                        let kind = ProblemKind::AdditionalProperties { property };
                        out.push(Problem::new(path, kind));
                    } else {
                        self.check_child(child, extra, path, key, depth, out);
                    }
                }
                seen.all_props();
            }
            (Value::Array(items), _, Some(extra)) => {
                for (i, item) in items.iter().enumerate() {
                    if !seen.has_item(i) {
                        self.check_child(item, extra, path, &i.to_string(), depth, out);
                    }
                }
                seen.items(items.len());
            }
            _ => {}
        }
    }

    /// Where the `$ref` (or `$dynamicRef`) `reference` of `schema` leads; `None`, and "cannot
    /// judge", when outside the schema.
    fn target(
        &mut self,
        schema: &'s Value,
        reference: &str,
        dynamic: bool,
        path: &str,
    ) -> Option<&'s Value> {
        let base = self.index.base_of(schema).to_owned();
        let Some(target) = self.index.resolve(&base, reference) else {
            let reference = reference.to_owned();
            self.cannot_judge(path, ProblemKind::RemoteRef { reference });
            return None;
        };
        Some(if dynamic {
            self.dynamic_target(target, reference)
        } else {
            target
        })
    }

    fn follow(
        &mut self,
        value: &Value,
        target: &'s Value,
        reference: &str,
        path: &mut String,
        depth: usize,
        out: &mut Vec<Problem>,
    ) -> Seen {
        let key = (target as *const Value, path.clone());
        if self.ref_stack.contains(&key) {
            let reference = reference.to_owned();
            self.cannot_judge(path, ProblemKind::RefCycle { reference });
            return Seen::default();
        }
        self.ref_stack.push(key);
        let seen = self.check(value, target, path, depth + 1, out);
        self.ref_stack.pop();
        seen
    }

    /// Where a `$dynamicRef` lands: when its plain target declares the `$dynamicAnchor` the
    /// reference names, the outermost resource of the dynamic scope declaring that anchor;
    /// otherwise the plain target.
    fn dynamic_target(&self, target: &'s Value, reference: &str) -> &'s Value {
        let name = match reference.rsplit_once('#') {
            Some((_, name)) if !name.is_empty() && !name.starts_with('/') => name,
            _ => return target,
        };
        if target.get("$dynamicAnchor").and_then(Value::as_str) != Some(name) {
            return target;
        }
        self.scope
            .iter()
            .find_map(|base| self.index.dynamic_anchor(base, name))
            .unwrap_or(target)
    }

    /// Passes, fails or is unknown: `value` against `branch`, problems thrown away; with what
    /// the branch evaluated (nothing when it failed).
    fn verdict(
        &mut self,
        value: &Value,
        branch: &'s Value,
        path: &mut String,
        depth: usize,
    ) -> (Verdict, Seen) {
        let before = self.unjudged_events;
        let mut scratch = Vec::new();
        let seen = self.check(value, branch, path, depth, &mut scratch);
        if !scratch.is_empty() {
            (Verdict::Fail, Seen::default())
        } else if self.unjudged_events > before {
            // An unknown branch's annotations are kept: dropping them could turn a property
            // it evaluated into a false problem, and the check is "cannot judge" already.
            (Verdict::Unknown, seen)
        } else {
            (Verdict::Pass, seen)
        }
    }

    fn check_composition(
        &mut self,
        value: &Value,
        s: &'s Map<String, Value>,
        path: &mut String,
        depth: usize,
        seen: &mut Seen,
        out: &mut Vec<Problem>,
    ) {
        if let Some(Value::Array(branches)) = s.get("allOf") {
            for branch in branches {
                seen.merge(self.check(value, branch, path, depth + 1, out));
            }
        }
        if let Some(Value::Array(branches)) = s.get("anyOf") {
            let mut unknown = false;
            let mut passed = false;
            for branch in branches {
                let (verdict, branch_seen) = self.verdict(value, branch, path, depth + 1);
                seen.merge(branch_seen);
                match verdict {
                    Verdict::Pass => {
                        passed = true;
                        // Every passing branch's annotations count; only a schema with an
                        // `unevaluated*` keyword needs them.
                        if !self.index.has_unevaluated {
                            break;
                        }
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
            let mut branch_seen = Seen::default();
            for branch in branches {
                let (verdict, one_seen) = self.verdict(value, branch, path, depth + 1);
                branch_seen.merge(one_seen);
                match verdict {
                    Verdict::Pass => matched += 1,
                    Verdict::Unknown => unknown += 1,
                    Verdict::Fail => {}
                }
            }
            if matched <= 1 {
                seen.merge(branch_seen);
            }
            if matched > 1 || (matched == 0 && unknown == 0) {
                let variants = variant_names(self.root, branches);
                out.push(Problem::new(path, ProblemKind::OneOf { matched, variants }));
            }
        }
        if let Some(branch) = s.get("not") {
            if self.verdict(value, branch, path, depth + 1).0 == Verdict::Pass {
                out.push(Problem::new(path, ProblemKind::Not));
            }
        }
        if let Some(condition) = s.get("if") {
            let (verdict, condition_seen) = self.verdict(value, condition, path, depth + 1);
            seen.merge(condition_seen);
            let next = match verdict {
                Verdict::Pass => s.get("then"),
                Verdict::Fail => s.get("else"),
                Verdict::Unknown => None,
            };
            if let Some(next) = next {
                seen.merge(self.check(value, next, path, depth + 1, out));
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
        seen: &mut Seen,
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
            seen.items(i + 1);
        }
        if let Some(contains) = s.get("contains") {
            let min = s.get("minContains").and_then(as_count).unwrap_or(1);
            let max = s.get("maxContains").and_then(as_count);
            let (mut matched, mut unknown) = (0u64, 0u64);
            for (i, item) in items.iter().enumerate() {
                let parent_len = push_segment(path, &i.to_string());
                match self.verdict(item, contains, path, depth + 1).0 {
                    Verdict::Pass => {
                        matched += 1;
                        seen.item(i);
                    }
                    Verdict::Unknown => {
                        unknown += 1;
                        seen.item(i);
                    }
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

    #[allow(clippy::too_many_arguments)]
    fn check_object(
        &mut self,
        whole: &Value,
        obj: &Map<String, Value>,
        s: &'s Map<String, Value>,
        path: &mut String,
        depth: usize,
        seen: &mut Seen,
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
        self.check_dependencies(whole, obj, s, path, depth, seen, out);
        if let Some(names) = s.get("propertyNames") {
            for key in obj.keys() {
                let name = Value::String(key.clone());
                if self.verdict(&name, names, path, depth + 1).0 == Verdict::Fail {
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
            if listed || additional.is_some() {
                seen.prop(key);
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
    #[allow(clippy::too_many_arguments)]
    fn check_dependencies(
        &mut self,
        whole: &Value,
        obj: &Map<String, Value>,
        s: &'s Map<String, Value>,
        path: &mut String,
        depth: usize,
        seen: &mut Seen,
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
                        seen.merge(self.check(whole, rule, path, depth + 1, out));
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
