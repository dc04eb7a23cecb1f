//! What an approval will do, to whom, with what, in plain words (the operation
//! in plain language, who or what is affected, the meaningful parameters), for a request
//! that came without a server `title`.
//!
//! The one rule: every word of the statement comes from the server (its schema's operation
//! template, its schema's `title`, the tool's own name, an argument's value); this module only
//! chooses and fills, and the view joins the parts with translated words. Pure.

use serde_json::Value;

use super::wire::ToolApproval;

/// Longest value shown whole on the card; longer ones are folded (the whole text one click
/// away).
pub const FOLD_CHARS: usize = 120;

/// Most lines a value may have before it is folded.
pub const FOLD_LINES: usize = 3;

/// How the card states the operation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Statement {
    /// The server's own sentence: its `title`, or the schema's `x-operation` template filled
    /// with the arguments. Shown as it is.
    Given(String),
    /// The operation's name (the schema's `title`, else the tool id made readable) and, when an
    /// argument names one, who or what it affects.
    Derived {
        /// "Send email" from `send_email`, or the schema's `title`.
        operation: String,
        /// The affected party or place, when an argument names it.
        target: Option<Target>,
    },
}

/// Who or what an operation affects, read from a target-like argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// How the view joins it to the operation.
    pub role: TargetRole,
    /// The argument's value, as text.
    pub value: String,
}

/// How a target joins its operation ("Send email to alex@example.com", "Merge branch in
/// acme/api"), each a Fluent message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetRole {
    /// A person or destination: "… to {target}".
    To,
    /// A place the operation acts in: "… in {target}".
    In,
}

impl TargetRole {
    /// The Fluent id of the sentence joining operation and target.
    pub fn fluent_id(self) -> &'static str {
        match self {
            TargetRole::To => "chat-operation-to",
            TargetRole::In => "chat-operation-in",
        }
    }
}

/// Argument names read as the affected party, best first, with how they join.
const TARGETS: &[(&str, TargetRole)] = &[
    ("recipient", TargetRole::To),
    ("recipients", TargetRole::To),
    ("to", TargetRole::To),
    ("email", TargetRole::To),
    ("customer", TargetRole::To),
    ("user", TargetRole::To),
    ("assignee", TargetRole::To),
    ("channel", TargetRole::To),
    ("destination", TargetRole::To),
    ("environment", TargetRole::To),
    ("env", TargetRole::To),
    ("repository", TargetRole::In),
    ("repo", TargetRole::In),
    ("path", TargetRole::In),
    ("file", TargetRole::In),
    ("branch", TargetRole::In),
    ("record", TargetRole::In),
    ("table", TargetRole::In),
    ("database", TargetRole::In),
    ("url", TargetRole::In),
];

/// One argument as the card lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parameter {
    /// The argument's name (its key).
    pub name: String,
    /// The schema's `title` of it, else its name.
    pub label: String,
    /// Its value as text (a string as it is, anything else as compact JSON).
    pub value: String,
    /// Too long to show whole: the card shows [`Parameter::preview`] and folds the rest.
    pub folded: bool,
}

impl Parameter {
    /// The start of a folded value (its first lines, at most [`FOLD_CHARS`] characters).
    pub fn preview(&self) -> String {
        let head: String = self
            .value
            .lines()
            .take(FOLD_LINES)
            .collect::<Vec<_>>()
            .join("\n");
        head.chars().take(FOLD_CHARS).collect()
    }
}

/// What the card says of a tool call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    /// The heading.
    pub statement: Statement,
    /// The line under it: the server's `summary`, else the schema's `description`.
    pub summary: Option<String>,
    /// The top-level arguments: the target-like ones first (who or what is affected), then
    /// the others by name.
    pub parameters: Vec<Parameter>,
}

impl Operation {
    /// Describes `approval`, whose arguments are `args` (the proposal, or what was approved).
    pub fn of(approval: &ToolApproval, args: &Value) -> Operation {
        let schema = approval.args_schema.as_ref();
        let schema_text = |key: &str| {
            schema
                .and_then(|s| s.get(key))
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(str::to_owned)
        };
        let given = approval
            .title
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
            .or_else(|| schema_text("x-operation").and_then(|t| fill(&t, args)));
        let statement = match given {
            Some(text) => Statement::Given(text),
            None => Statement::Derived {
                operation: schema_text("title").unwrap_or_else(|| readable(&approval.tool_name)),
                target: target(args),
            },
        };
        let summary = approval
            .summary
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
            .or_else(|| schema_text("description"));
        let parameters = args
            .as_object()
            .map(|obj| {
                obj.iter()
                    .filter(|(_, v)| !v.is_null())
                    .map(|(name, v)| {
                        let value = text_of(v);
                        let label = schema
                            .and_then(|s| s.get("properties"))
                            .and_then(|p| p.get(name))
                            .and_then(|p| p.get("title"))
                            .and_then(Value::as_str)
                            .filter(|t| !t.trim().is_empty())
                            .map_or_else(|| name.clone(), str::to_owned);
                        let folded = value.chars().count() > FOLD_CHARS
                            || value.lines().count() > FOLD_LINES;
                        Parameter {
                            name: name.clone(),
                            label,
                            value,
                            folded,
                        }
                    })
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default();
        let mut parameters = parameters;
        parameters.sort_by_key(|p| {
            TARGETS
                .iter()
                .position(|(k, _)| p.name.eq_ignore_ascii_case(k))
                .unwrap_or(TARGETS.len())
        });
        Operation {
            statement,
            summary,
            parameters,
        }
    }
}

/// A value as the card writes it: a string as it is, a list of strings joined by commas,
/// anything else as compact JSON.
fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(items) if items.iter().all(Value::is_string) && !items.is_empty() => items
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(", "),
        other => other.to_string(),
    }
}

/// The first target-like argument with a short, non-empty value.
fn target(args: &Value) -> Option<Target> {
    let obj = args.as_object()?;
    TARGETS.iter().find_map(|(key, role)| {
        let value = obj
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v)?;
        let text = match value {
            Value::String(_) | Value::Number(_) | Value::Array(_) => text_of(value),
            _ => return None,
        };
        let text = text.trim().to_owned();
        (!text.is_empty() && text.chars().count() <= FOLD_CHARS && !text.contains('\n')).then_some(
            Target {
                role: *role,
                value: text,
            },
        )
    })
}

/// A tool id made readable: `send_email`, `sendEmail`, `send-email` → "Send email". An id with
/// nothing to split is kept as it is.
pub fn readable(tool: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut prev_lower = false;
    for c in tool.trim().chars() {
        if c == '_' || c == '-' || c == '.' || c == ' ' {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        word.push(c);
    }
    if !word.is_empty() {
        words.push(word);
    }
    if words.is_empty() {
        return tool.to_owned();
    }
    let mut out = words
        .iter()
        .map(|w| {
            // Keep acronyms (`SQL`) as they are; lower the rest.
            if w.chars().all(|c| !c.is_lowercase()) && w.chars().count() > 1 {
                w.clone()
            } else {
                w.to_lowercase()
            }
        })
        .collect::<Vec<_>>()
        .join(" ");
    if let Some(first) = out.chars().next() {
        let upper: String = first.to_uppercase().collect();
        out.replace_range(..first.len_utf8(), &upper);
    }
    out
}

/// Fills `{name}` placeholders of a template with the arguments' values; `None` when one names
/// an argument that is missing or empty, so a half-filled sentence is never shown. `{{` and
/// `}}` are literal braces.
pub fn fill(template: &str, args: &Value) -> Option<String> {
    let mut out = String::new();
    let mut rest = template;
    while let Some(i) = rest.find(['{', '}']) {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if tail.starts_with("{{") || tail.starts_with("}}") {
            out.push_str(&tail[..1]);
            rest = &tail[2..];
            continue;
        }
        if tail.starts_with('}') {
            return None;
        }
        let end = tail.find('}')?;
        let name = tail[1..end].trim();
        let value = args.get(name).filter(|v| !v.is_null()).map(text_of)?;
        if value.trim().is_empty() {
            return None;
        }
        out.push_str(&value);
        rest = &tail[end + 1..];
    }
    out.push_str(rest);
    let out = out.trim().to_owned();
    (!out.is_empty()).then_some(out)
}
