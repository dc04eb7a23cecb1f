//! Where a card's request stands, in the words the card shows (the current state
//! is always explicit: "Approved" is not the same as "the email was sent"), and the receipt of a
//! settled one: who decided, when, which version, what ran and what came of it.
//! Pure: the view draws [`CardStage::of`] and [`Receipt::of`], nothing else decides.

use serde_json::Value;

use super::actions::{ActionCard, CardState, Decider, Outcome};
use super::time::Millis;
use super::wire::{ActionKind, ExecutionStatus};

/// The stage a card reads, from its lifecycle, its decision and the execution the server
/// reports. Rendered as words (its [`CardStage::fluent_id`]) and as `data-state`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CardStage {
    /// An approval waits for the person: "Pending approval".
    PendingApproval,
    /// A question waits for the person: "Waiting for your answer".
    WaitingForAnswer,
    /// The answer is on its way: "Sending…".
    Sending,
    /// The page cannot know whether the server took the answer: "Checking status".
    Checking,
    /// Allowed, and the server reports no execution stage: "Approved" (unchanged for servers
    /// that do not report execution).
    Approved {
        /// Allowed with edited arguments.
        edited: bool,
    },
    /// Allowed, and the tool has not finished: "Executing…".
    Executing,
    /// The tool ran: "Completed".
    Completed,
    /// The tool failed: "Failed", with the provider's message when given.
    Failed {
        /// The server's `executionError`.
        message: Option<String>,
    },
    /// Denied.
    Denied,
    /// A question was answered.
    Answered,
    /// Settled by someone or something else while it waited here.
    AnsweredElsewhere,
    /// A question was skipped.
    Skipped,
    /// The deadline passed.
    Expired,
    /// The server cancelled it.
    Cancelled,
}

impl CardStage {
    /// The stage of `card`.
    pub fn of(card: &ActionCard) -> CardStage {
        let approval = matches!(card.action.kind, ActionKind::ToolApproval(_));
        let outcome = match &card.state {
            CardState::Waiting if approval => return CardStage::PendingApproval,
            CardState::Waiting => return CardStage::WaitingForAnswer,
            CardState::Sending => return CardStage::Sending,
            CardState::Checking => return CardStage::Checking,
            CardState::Settled(o) => o,
        };
        match outcome {
            Outcome::Expired => return CardStage::Expired,
            Outcome::Cancelled => return CardStage::Cancelled,
            _ => {}
        }
        if card.decided == Decider::Elsewhere {
            return CardStage::AnsweredElsewhere;
        }
        match outcome {
            Outcome::Approved { .. } | Outcome::ApprovedEdited { .. } => {
                let edited = matches!(outcome, Outcome::ApprovedEdited { .. });
                match card.action.execution() {
                    None | Some(ExecutionStatus::Rejected) => CardStage::Approved { edited },
                    Some(
                        ExecutionStatus::PendingApproval
                        | ExecutionStatus::Approved
                        | ExecutionStatus::Executing,
                    ) => CardStage::Executing,
                    Some(ExecutionStatus::Completed) => CardStage::Completed,
                    Some(ExecutionStatus::Failed) => CardStage::Failed {
                        message: card.action.execution_error.clone(),
                    },
                    Some(ExecutionStatus::Expired) => CardStage::Expired,
                }
            }
            Outcome::Denied { .. } => CardStage::Denied,
            Outcome::Skipped => CardStage::Skipped,
            Outcome::Answered { .. } => CardStage::Answered,
            Outcome::Expired => CardStage::Expired,
            Outcome::Cancelled => CardStage::Cancelled,
        }
    }

    /// Name used for `data-state` on the card. The decision itself is `data-decision`.
    pub fn as_str(&self) -> &'static str {
        match self {
            CardStage::PendingApproval | CardStage::WaitingForAnswer => "waiting",
            CardStage::Sending => "sending",
            CardStage::Checking => "checking",
            CardStage::Approved { edited: false } => "approved",
            CardStage::Approved { edited: true } => "approved-edited",
            CardStage::Executing => "executing",
            CardStage::Completed => "completed",
            CardStage::Failed { .. } => "failed",
            CardStage::Denied => "denied",
            CardStage::Answered => "answered",
            CardStage::AnsweredElsewhere => "answered-elsewhere",
            CardStage::Skipped => "skipped",
            CardStage::Expired => "expired",
            CardStage::Cancelled => "cancelled",
        }
    }

    /// The Fluent id of the stage's words (`chat-action-stage-*`).
    pub fn fluent_id(&self) -> &'static str {
        match self {
            CardStage::PendingApproval => "chat-action-stage-pending-approval",
            CardStage::WaitingForAnswer => "chat-action-stage-waiting-for-answer",
            CardStage::Sending => "chat-action-stage-sending",
            CardStage::Checking => "chat-action-stage-checking",
            CardStage::Approved { .. } => "chat-action-stage-approved",
            CardStage::Executing => "chat-action-stage-executing",
            CardStage::Completed => "chat-action-stage-completed",
            CardStage::Failed { .. } => "chat-action-stage-failed",
            CardStage::Denied => "chat-action-stage-denied",
            CardStage::Answered => "chat-action-stage-answered",
            CardStage::AnsweredElsewhere => "chat-action-stage-answered-elsewhere",
            CardStage::Skipped => "chat-action-stage-skipped",
            CardStage::Expired => "chat-action-stage-expired",
            CardStage::Cancelled => "chat-action-stage-cancelled",
        }
    }

    /// The server has more to report (Checking, Executing): the session keeps looking.
    pub fn awaits_server(&self) -> bool {
        matches!(self, CardStage::Checking | CardStage::Executing)
    }
}

/// Who decided, as the receipt names them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecidedBy {
    /// This user, on this page: "you".
    You,
    /// The server's `resolvedBy`, shown as text (never markup).
    Named(String),
}

/// What a settled card records under its outcome (who approved, which version
/// of the draft they saw, when execution started, and the final provider result).
#[derive(Clone, Debug, PartialEq)]
pub struct Receipt {
    /// Who decided, when known.
    pub by: Option<DecidedBy>,
    /// When (server time), when known.
    pub at: Option<Millis>,
    /// The record version decided.
    pub version: Option<i64>,
    /// The arguments that ran when they differ from the original proposal, with that proposal
    /// (`(proposal, ran)`), for a diff.
    pub changed_args: Option<(Value, Value)>,
    /// What the tool returned.
    pub result: Option<Value>,
    /// Why it failed.
    pub error: Option<String>,
    /// Its transition history with times (proposed, edited, decided, executing, finished);
    /// empty unless it has two steps or more and one of them a time.
    pub steps: Vec<super::transitions::Step>,
}

impl Receipt {
    /// The receipt of a settled card; `None` while it is open, and for expired or cancelled
    /// cards (nobody decided them).
    pub fn of(card: &ActionCard) -> Option<Receipt> {
        let CardState::Settled(outcome) = &card.state else {
            return None;
        };
        if outcome.is_sticky() {
            return None;
        }
        let by = match (card.decided, card.action.resolved_by.as_deref()) {
            (Decider::ThisPage, _) => Some(DecidedBy::You),
            (_, Some(name)) if !name.trim().is_empty() => Some(DecidedBy::Named(name.to_owned())),
            _ => None,
        };
        let changed_args = match (&card.action.kind, outcome) {
            (ActionKind::ToolApproval(t), Outcome::ApprovedEdited { args, .. }) => {
                let proposal = card.first_args.clone().unwrap_or_else(|| t.args.clone());
                (!super::schema::args_equal(&proposal, args)).then(|| (proposal, args.clone()))
            }
            (ActionKind::ToolApproval(t), Outcome::Approved { .. }) => card
                .first_args
                .clone()
                .filter(|first| !super::schema::args_equal(first, &t.args))
                .map(|first| (first, t.args.clone())),
            _ => None,
        };
        let mut steps = super::transitions::steps(card);
        if steps.len() < 2 || steps.iter().all(|s| s.at.is_none()) {
            steps.clear();
        }
        Some(Receipt {
            by,
            at: card.action.resolved_at,
            version: card.action.version,
            changed_args,
            result: card.action.execution_result.clone(),
            error: card.action.execution_error.clone(),
            steps,
        })
    }

    /// Whether there is anything to show.
    pub fn is_empty(&self) -> bool {
        self.by.is_none()
            && self.at.is_none()
            && self.version.is_none()
            && self.changed_args.is_none()
            && self.result.is_none()
            && self.error.is_none()
            && self.steps.is_empty()
    }
}
