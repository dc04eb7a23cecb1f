//! Short names for the branches of `anyOf` / `oneOf`: the words of "must match one of: …"
//! and the labels of the form's choice of variant.

use serde_json::Value;

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
