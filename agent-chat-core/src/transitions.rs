//! A card's transition history as the receipt lists it (an action id with its
//! transition history: who approved, which version of the draft they saw, when
//! execution started): proposed, edited, decided (by whom, which version), executing,
//! completed or failed, each with its time when known.
//!
//! The server's own history comes first; every step it does not mention is added from what the
//! record and this page know (`createdAt`, a new version, `resolvedAt` and `resolvedBy`, the
//! execution times). Pure.

use super::actions::{ActionCard, CardState, Decider, Outcome};
use super::stage::DecidedBy;
use super::time::Millis;
use super::wire::{ExecutionStatus, Transition};

/// What a step of the history says happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum StepKind {
    /// The agent asked.
    Proposed,
    /// The request changed (a new version, an edit).
    Edited,
    /// Allowed.
    Approved,
    /// Denied.
    Rejected,
    /// The tool started.
    Executing,
    /// The tool finished.
    Completed,
    /// The tool failed.
    Failed,
    /// The deadline passed.
    Expired,
    /// Cancelled.
    Cancelled,
}

impl StepKind {
    /// Reads a history entry's status word; `None` for one this client does not know.
    pub fn parse(word: &str) -> Option<StepKind> {
        let w = word.trim().to_ascii_lowercase().replace(['-', ' '], "_");
        Some(match w.as_str() {
            "proposed" | "created" | "requested" => StepKind::Proposed,
            "edited" | "revised" | "new_version" => StepKind::Edited,
            "cancelled" | "canceled" => StepKind::Cancelled,
            _ => match ExecutionStatus::parse(&w)? {
                ExecutionStatus::PendingApproval => StepKind::Proposed,
                ExecutionStatus::Approved => StepKind::Approved,
                ExecutionStatus::Rejected => StepKind::Rejected,
                ExecutionStatus::Executing => StepKind::Executing,
                ExecutionStatus::Completed => StepKind::Completed,
                ExecutionStatus::Failed => StepKind::Failed,
                ExecutionStatus::Expired => StepKind::Expired,
            },
        })
    }

    /// The Fluent id of its words (`chat-action-step-*`).
    pub fn fluent_id(self) -> &'static str {
        match self {
            StepKind::Proposed => "chat-action-step-proposed",
            StepKind::Edited => "chat-action-step-edited",
            StepKind::Approved => "chat-action-step-approved",
            StepKind::Rejected => "chat-action-step-rejected",
            StepKind::Executing => "chat-action-step-executing",
            StepKind::Completed => "chat-action-step-completed",
            StepKind::Failed => "chat-action-step-failed",
            StepKind::Expired => "chat-action-step-expired",
            StepKind::Cancelled => "chat-action-step-cancelled",
        }
    }

    /// Name used for `data-step`.
    pub fn as_str(self) -> &'static str {
        match self {
            StepKind::Proposed => "proposed",
            StepKind::Edited => "edited",
            StepKind::Approved => "approved",
            StepKind::Rejected => "rejected",
            StepKind::Executing => "executing",
            StepKind::Completed => "completed",
            StepKind::Failed => "failed",
            StepKind::Expired => "expired",
            StepKind::Cancelled => "cancelled",
        }
    }
}

/// One step of a card's history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// What happened.
    pub kind: StepKind,
    /// When (server time), when known.
    pub at: Option<Millis>,
    /// Who, when known.
    pub by: Option<DecidedBy>,
    /// The record version it concerned, when known.
    pub version: Option<i64>,
}

/// The history of `card` in lifecycle order (proposed, edited, decided, executing, finished):
/// the server's entries, then the steps they do not mention; entries of one kind keep the
/// server's order.
pub fn steps(card: &ActionCard) -> Vec<Step> {
    let a = &card.action;
    let mut out: Vec<Step> = a.history.iter().filter_map(from_server).collect();
    let mut add = |step: Step| {
        if !out.iter().any(|s| s.kind == step.kind) {
            out.push(step);
        }
    };
    let step = |kind, at, by, version| Step {
        kind,
        at,
        by,
        version,
    };
    add(step(StepKind::Proposed, a.created_at, None, None));
    if card.first_args.is_some() || card.revision > 0 {
        add(step(StepKind::Edited, None, None, a.version));
    }
    let by = match (card.decided, a.resolved_by.as_deref()) {
        (Decider::ThisPage, _) => Some(DecidedBy::You),
        (_, Some(name)) if !name.trim().is_empty() => Some(DecidedBy::Named(name.to_owned())),
        _ => None,
    };
    if let CardState::Settled(outcome) = &card.state {
        let decided = match outcome {
            Outcome::Approved { .. } | Outcome::ApprovedEdited { .. } => Some(StepKind::Approved),
            Outcome::Denied { .. } => Some(StepKind::Rejected),
            Outcome::Expired => Some(StepKind::Expired),
            Outcome::Cancelled => Some(StepKind::Cancelled),
            Outcome::Answered { .. } | Outcome::Skipped => None,
        };
        if let Some(kind) = decided {
            let by = matches!(kind, StepKind::Approved | StepKind::Rejected)
                .then(|| by.clone())
                .flatten();
            add(step(kind, a.resolved_at, by, a.version));
        }
        if matches!(
            outcome,
            Outcome::Approved { .. } | Outcome::ApprovedEdited { .. }
        ) {
            let execution = a.execution();
            if a.execution_started_at.is_some() || execution.is_some_and(ran_or_runs) {
                add(step(
                    StepKind::Executing,
                    a.execution_started_at,
                    None,
                    None,
                ));
            }
            match execution {
                Some(ExecutionStatus::Completed) => {
                    add(step(StepKind::Completed, a.execution_ended_at, None, None));
                }
                Some(ExecutionStatus::Failed) => {
                    add(step(StepKind::Failed, a.execution_ended_at, None, None));
                }
                _ => {}
            }
        }
    }
    out.sort_by_key(|s| s.kind);
    out
}

fn ran_or_runs(e: ExecutionStatus) -> bool {
    matches!(
        e,
        ExecutionStatus::Executing | ExecutionStatus::Completed | ExecutionStatus::Failed
    )
}

fn from_server(t: &Transition) -> Option<Step> {
    Some(Step {
        kind: StepKind::parse(&t.status)?,
        at: t.at,
        by: t
            .by
            .as_deref()
            .filter(|b| !b.trim().is_empty())
            .map(|b| DecidedBy::Named(b.to_owned())),
        version: t.version,
    })
}
