//! The edit policy per value (edits only for values the policy explicitly
//! supports). One invariant: a value the policy marks read-only reaches the server exactly as
//! proposed, whoever builds the answer (the form, the JSON editor, a custom card, the host).
//!
//! Read-only are the top-level arguments the server names in the action's `readOnlyArgs`, those
//! the host page lists for the tool (`Chat`'s `read_only_args`, put on each approval by
//! [`lock_host_read_only`]), and every value whose schema says `readOnly: true`, at any depth:
//! under `properties` of nested objects and under an array's `items` (a local `$ref` is
//! followed). Items are compared by position, so a list whose items carry read-only values
//! keeps its items: adding one with such a value, removing or reordering them changes a
//! read-only value. Bounded by the checker's depth and a count of schema places visited. Pure.
//!
//! The walk below the top level travels with the checker ([`install_nested_walk`], called by
//! `schema::install_gate_check`), so the first download of a `split` build does not carry it.
//! Before it comes, an edit of a schema that says `readOnly` below the top level is refused
//! whole (a problem at the root): the store fetches the checker before it judges an edit, so
//! this is a safety net, never a pass.

use serde_json::Value;

use crate::schema::{args_equal, Problem, ProblemKind, MAX_DEPTH};
use crate::wire::ToolApproval;

/// The most schema places one walk visits (a hostile schema's items over a long array).
const MAX_VISITS: usize = 10_000;

/// The names of the top-level arguments of `approval` that may not be changed.
pub fn read_only_names(approval: &ToolApproval) -> Vec<String> {
    let mut names: Vec<String> = approval
        .args_schema
        .as_ref()
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter(|(_, p)| p.get("readOnly") == Some(&Value::Bool(true)))
        .map(|(name, _)| name.clone())
        .collect();
    for name in approval
        .read_only_args
        .iter()
        .chain(&approval.host_read_only_args)
    {
        if !names.contains(name) {
            names.push(name.clone());
        }
    }
    names
}

/// The walk of the schema beside the proposal and the edit ([`nested_problems`]).
pub type NestedWalk = fn(schema: &Value, proposal: &Value, edit: &Value, out: &mut Vec<Problem>);

static NESTED_WALK: std::sync::OnceLock<NestedWalk> = std::sync::OnceLock::new();

/// Gives the answer gate the walk below the top level; the first call wins.
pub fn install_nested_walk() {
    let _ = NESTED_WALK.set(nested_problems);
}

/// One problem per read-only value that `edit` changes, adds or removes against the
/// proposal, at its path; empty when the edit keeps them all.
pub fn read_only_problems(approval: &ToolApproval, edit: &Value) -> Vec<Problem> {
    let mut out: Vec<Problem> = Vec::new();
    for name in approval
        .read_only_args
        .iter()
        .chain(&approval.host_read_only_args)
    {
        let path = pointer(String::new(), name);
        differ(approval.args.get(name), edit.get(name), path, &mut out);
    }
    if let Some(schema) = &approval.args_schema {
        // A `cfg` attribute, not `cfg!`: a split build must not even name the walk here.
        #[cfg(feature = "split")]
        match NESTED_WALK.get() {
            Some(walk) => walk(schema, &approval.args, edit, &mut out),
            None if mentions_read_only(schema) => {
                differ(Some(&approval.args), Some(edit), String::new(), &mut out)
            }
            None => {}
        }
        #[cfg(not(feature = "split"))]
        NESTED_WALK
            .get()
            .unwrap_or(&(nested_problems as NestedWalk))(
            schema, &approval.args, edit, &mut out
        );
    }
    out
}

/// Whether the key `readOnly` appears anywhere in `schema` (an explicit stack: no depth
/// limit is needed).
#[cfg(feature = "split")]
fn mentions_read_only(schema: &Value) -> bool {
    let mut pending = vec![schema];
    while let Some(node) = pending.pop() {
        match node {
            Value::Object(map) => {
                if map.contains_key("readOnly") {
                    return true;
                }
                pending.extend(map.values());
            }
            Value::Array(items) => pending.extend(items),
            _ => {}
        }
    }
    false
}

/// Adds to `out` a problem per read-only value (by the schema's `readOnly`, at any depth)
/// that `edit` changes against `proposal`.
pub fn nested_problems(schema: &Value, proposal: &Value, edit: &Value, out: &mut Vec<Problem>) {
    let mut walk = Walk {
        root: schema,
        visits: 0,
        scans: std::cell::Cell::new(0),
        out,
    };
    walk.value(schema, Some(proposal), Some(edit), String::new(), 0);
}

/// Records a problem at `path` when `before` and `after` are not the same value (and not
/// already recorded there).
fn differ(before: Option<&Value>, after: Option<&Value>, path: String, out: &mut Vec<Problem>) {
    let changed = match (before, after) {
        (None, None) => false,
        (Some(a), Some(b)) => !args_equal(a, b),
        _ => true,
    };
    if changed && !out.iter().any(|p| p.path == path) {
        out.push(Problem {
            path,
            kind: ProblemKind::ReadOnly,
        });
    }
}

fn pointer(mut parent: String, segment: &str) -> String {
    parent.push('/');
    parent.push_str(&segment.replace('~', "~0").replace('/', "~1"));
    parent
}

/// One walk of the schema beside the proposal and the edit.
struct Walk<'a> {
    root: &'a Value,
    visits: usize,
    /// Schema places looked at by [`Walk::marks_read_only`]; past [`MAX_VISITS`] every place
    /// counts as keeping values (the walk's own bound then keeps whole values).
    scans: std::cell::Cell<usize>,
    out: &'a mut Vec<Problem>,
}

impl<'a> Walk<'a> {
    fn value(
        &mut self,
        schema: &Value,
        before: Option<&Value>,
        after: Option<&Value>,
        path: String,
        depth: usize,
    ) {
        self.visits += 1;
        if !self.marks_read_only(schema, depth) {
            return;
        }
        if depth > MAX_DEPTH || self.visits > MAX_VISITS {
            // Past the bounds, a schema that keeps values keeps the whole value.
            differ(before, after, path, self.out);
            return;
        }
        let Some(s) = self.local(schema).and_then(Value::as_object) else {
            return;
        };
        if s.get("readOnly") == Some(&Value::Bool(true)) {
            differ(before, after, path, self.out);
            return;
        }
        if let Some(props) = s.get("properties").and_then(Value::as_object) {
            for (name, sub) in props {
                let b = before.and_then(|v| v.get(name));
                let a = after.and_then(|v| v.get(name));
                if (b.is_some() || a.is_some()) && self.marks_read_only(sub, depth + 1) {
                    self.value(sub, b, a, pointer(path.clone(), name), depth + 1);
                }
            }
        }
        if let Some(items @ Value::Object(_)) = s.get("items").filter(|i| {
            let items: &Value = i;
            self.marks_read_only(items, depth + 1)
        }) {
            let len = |v: Option<&Value>| v.and_then(Value::as_array).map_or(0, Vec::len);
            for i in 0..len(before).max(len(after)) {
                let b = before.and_then(|v| v.get(i));
                let a = after.and_then(|v| v.get(i));
                self.value(
                    items,
                    b,
                    a,
                    pointer(path.clone(), &i.to_string()),
                    depth + 1,
                );
            }
        }
    }

    /// `schema`, or the target of its local `$ref`; `None` for a `$ref` outside the schema.
    fn local<'s>(&self, schema: &'s Value) -> Option<&'s Value>
    where
        'a: 's,
    {
        match schema.get("$ref").and_then(Value::as_str) {
            Some(r) => r.strip_prefix('#').and_then(|p| self.root.pointer(p)),
            None => Some(schema),
        }
    }

    /// Whether `schema` says `readOnly: true` somewhere under `properties` and `items`
    /// (only those are walked); past the bounds, yes.
    fn marks_read_only(&self, schema: &Value, depth: usize) -> bool {
        self.scans.set(self.scans.get() + 1);
        if self.scans.get() > MAX_VISITS || depth > MAX_DEPTH {
            return true;
        }
        let Some(s) = self.local(schema).and_then(Value::as_object) else {
            return false;
        };
        s.get("readOnly") == Some(&Value::Bool(true))
            || s.get("properties")
                .and_then(Value::as_object)
                .is_some_and(|p| p.values().any(|sub| self.marks_read_only(sub, depth + 1)))
            || s.get("items")
                .is_some_and(|i| i.is_object() && self.marks_read_only(i, depth + 1))
    }
}

/// Puts the host page's read-only arguments for `approval`'s tool (`by_tool`: `(tool name,
/// argument names)`, the first entry of a tool counts) on it; returns whether that changed it.
pub fn lock_host_read_only(approval: &mut ToolApproval, by_tool: &[(String, Vec<String>)]) -> bool {
    let listed = by_tool
        .iter()
        .find(|(tool, _)| *tool == approval.tool_name)
        .map(|(_, names)| names.as_slice())
        .unwrap_or_default();
    if approval.host_read_only_args == listed {
        return false;
    }
    approval.host_read_only_args = listed.to_vec();
    true
}
