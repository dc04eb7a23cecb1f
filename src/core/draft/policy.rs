//! The edit policy per value (seed 004: "allow edits only for values your policy explicitly
//! supports"). One invariant: a value the policy marks read-only reaches the server exactly as
//! proposed, whoever builds the answer (the form, the JSON editor, a custom card, the host).
//!
//! Read-only are the top-level arguments whose schema property says `readOnly: true`, those
//! the server names in the action's `readOnlyArgs`, and those the host page lists for the tool
//! (`Chat`'s `read_only_args`, put on each approval by [`lock_host_read_only`]). Pure.

use serde_json::Value;

use crate::core::schema::{args_equal, Problem, ProblemKind};
use crate::core::wire::ToolApproval;

/// The names of the arguments of `approval` that may not be changed.
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

/// One problem per read-only argument that `edit` changes, adds or removes against the
/// proposal, at its path; empty when the edit keeps them all.
pub fn read_only_problems(approval: &ToolApproval, edit: &Value) -> Vec<Problem> {
    read_only_names(approval)
        .into_iter()
        .filter(|name| match (approval.args.get(name), edit.get(name)) {
            (None, None) => false,
            (Some(a), Some(b)) => !args_equal(a, b),
            _ => true,
        })
        .map(|name| Problem {
            path: format!("/{}", name.replace('~', "~0").replace('/', "~1")),
            kind: ProblemKind::ReadOnly,
        })
        .collect()
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
