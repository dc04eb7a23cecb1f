//! What a card is drawn from and what it may send. A card's view model lives here,
//! pure and natively tested, so no component, slot or host call can decide on its own whether
//! an answer may go out:
//!
//! - [`Shown`]: the action as the person saw it (id, version, a fingerprint of everything the
//!   card draws). Every [`crate::Command::Resolve`] carries one, and the session refuses
//!   an answer whose card changed since it was drawn.
//! - [`ApprovalDraft`] and [`QuestionDraft`]: the editor text, its problems, the diff, the form
//!   fields, the picked options and typed text, and the [`Resolution`] they produce.
//! - [`check_resolve`]: the one gate every answer passes, whoever sends it.
//!
//! [`Resolution`]: crate::Resolution

mod approval;
mod focus;
mod guard;
pub mod policy;
mod question;

pub use approval::ApprovalDraft;
pub use focus::{live_focus, LiveFocus};
pub use guard::{blocked, check_resolve, ResolveContext, ResolveRefusal};
pub use policy::{
    install_nested_walk, lock_host_read_only, nested_problems, read_only_names, read_only_problems,
    NestedWalk,
};
pub use question::{QuestionAnswer, QuestionDraft};

use serde_json::Value;

use super::wire::{ActionKind, PendingAction};

/// The action as the person saw it when they decided: what [`crate::Command::Resolve`]
/// carries so the session can tell whether the card changed since it was drawn.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Shown {
    /// The action's id.
    pub action_id: String,
    /// The record version drawn (echoed back in `POST /conversations/:cid/actions/:aid`).
    pub version: Option<i64>,
    /// A fingerprint of everything the card draws: kind, tool, arguments, schema, heading,
    /// summary, questions and deadline. Equal fingerprints mean the person saw the same request.
    pub fingerprint: u64,
}

impl Shown {
    /// What a card drawn from `action` shows.
    pub fn of(action: &PendingAction) -> Shown {
        Shown {
            action_id: action.id.clone(),
            version: action.version,
            fingerprint: fingerprint(action),
        }
    }

    /// Whether `action` is still the request that was shown (same id, version and content).
    pub fn matches(&self, action: &PendingAction) -> bool {
        *self == Shown::of(action)
    }
}

impl From<&PendingAction> for Shown {
    fn from(action: &PendingAction) -> Shown {
        Shown::of(action)
    }
}

impl From<&super::actions::ActionCard> for Shown {
    fn from(card: &super::actions::ActionCard) -> Shown {
        Shown::of(&card.action)
    }
}

/// Whether a card of this kind may be answered here: the transport can
/// answer and the kind's switch is on. `client_tool` is the host page's, always answerable;
/// an unknown kind never is. The one rule the session, the message list's `actions` and the
/// custom layouts share.
pub fn may_answer(
    kind: &ActionKind,
    can_resolve: bool,
    enable_tool_approvals: bool,
    enable_questions: bool,
) -> bool {
    can_resolve
        && match kind {
            ActionKind::ToolApproval(_) => enable_tool_approvals,
            ActionKind::UserQuestion(_) => enable_questions,
            ActionKind::ClientTool { .. } => true,
            ActionKind::Unknown(_) => false,
        }
}

/// Whether a message list's card may be answered: the list
/// was given a way to answer (`actions.onResolve`), the card is for a person, and
/// [`may_answer`] with the list's own switches.
pub fn may_answer_in_list(
    kind: &ActionKind,
    has_resolver: bool,
    can_resolve: bool,
    enable_tool_approvals: bool,
    enable_questions: bool,
) -> bool {
    has_resolver
        && kind.is_person_facing()
        && may_answer(kind, can_resolve, enable_tool_approvals, enable_questions)
}

/// Whether the approval card offers the argument editor: the agent's
/// `capabilities.approvalArgsEdit` wins over a message list's own setting, which wins over the
/// chat's prop.
pub fn edit_allowed(agent: Option<bool>, list: Option<bool>, prop: bool) -> bool {
    agent.or(list).unwrap_or(prop)
}

/// FNV-1a over a canonical text of what the card draws: object keys sorted, integral numbers
/// written without a fraction, so a reordered but identical request keeps its fingerprint.
fn fingerprint(action: &PendingAction) -> u64 {
    let mut text = String::new();
    text.push_str(action.kind.type_name());
    text.push('\u{1}');
    match &action.kind {
        ActionKind::ToolApproval(a) => {
            for part in [
                &a.tool_name,
                a.title.as_deref().unwrap_or(""),
                a.summary.as_deref().unwrap_or(""),
            ] {
                text.push_str(part);
                text.push('\u{1}');
            }
            canonical(&a.args, &mut text);
            text.push('\u{1}');
            if let Some(schema) = &a.args_schema {
                canonical(schema, &mut text);
            }
        }
        ActionKind::UserQuestion(q) => {
            text.push_str(&format!("{:?}", q.allow_free_text));
            for question in &q.questions {
                text.push('\u{1}');
                match serde_json::to_value(question) {
                    Ok(v) => canonical(&v, &mut text),
                    Err(_) => text.push_str(&question.question),
                }
            }
        }
        ActionKind::ClientTool { tool_name, args } => {
            text.push_str(tool_name);
            text.push('\u{1}');
            canonical(args, &mut text);
        }
        ActionKind::Unknown(_) => {}
    }
    text.push('\u{1}');
    if let Some(t) = action.expires_at {
        text.push_str(&t.0.to_string());
    }
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

fn canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for key in keys {
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                canonical(&map[key], out);
                out.push(',');
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for item in items {
                canonical(item, out);
                out.push(',');
            }
            out.push(']');
        }
        Value::Number(n) => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => {
                out.push_str(&(f as i64).to_string())
            }
            _ => out.push_str(&n.to_string()),
        },
        other => out.push_str(&other.to_string()),
    }
}
