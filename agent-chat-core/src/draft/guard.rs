//! The one gate every answer passes before the session posts it: the built-in
//! cards, the `render_*` slots' `resolve`, `ChatStore::resolve_action` and the custom element
//! all end in [`check_resolve`], so none of them can send an answer the person did not see,
//! a late one, or one the card's rules forbid.

use super::Shown;
use crate::actions::{ActionCard, CardState};
use crate::schema::{args_equal, blocks, gate_check, Problem};
use crate::time::Millis;
use crate::wire::{ActionKind, Decision, Decline, Resolution};

/// Why an answer was not sent. Reported as `SessionEvent::ResolveRefused` and always shown
/// in the error banner in the person's words ([`ResolveRefusal::fluent_id`]): a click that
/// sends nothing says why.
#[derive(Clone, Debug, PartialEq)]
pub enum ResolveRefusal {
    /// No card with that id.
    Unknown,
    /// The card is already settled.
    Settled,
    /// An answer of this card is already on its way (a double click).
    InFlight,
    /// A reply is streaming; answers wait for it to end.
    Busy,
    /// Nothing here can answer it: the card is read-only.
    ReadOnly,
    /// The request changed (other arguments, version or questions) since the answer's card
    /// was drawn: the person has to look at it again.
    Changed,
    /// Its deadline has passed (server time).
    Expired,
    /// The answer is for another kind of request (an approval answered as a question...).
    WrongKind,
    /// Allowed with edited `approvedArgs` where the backend cannot run edited arguments (a
    /// Cogitator server): approving would run the proposal while the card says the
    /// edit ran.
    EditNotOffered,
    /// Denied in a way the request does not take (its `decline` rule: never, only without a
    /// reason, or only with one).
    DeclineNotOffered,
    /// Allowed with `approvedArgs` that are not a JSON object.
    NotAnObject,
    /// Allowed with `approvedArgs` that break the action's argsSchema.
    BreaksSchema(Vec<Problem>),
    /// Allowed with `approvedArgs` that change a value the policy keeps as proposed (the
    /// schema's `readOnly`, the server's `readOnlyArgs`), one problem per value.
    ReadOnlyValue(Vec<Problem>),
    /// Skipped although a question is required.
    SkipNotAllowed,
    /// A required question has no answer.
    Unanswered,
    /// An answer names a question the card does not ask, or a value that is none of the
    /// question's options where no free text is offered.
    NotAnOption,
}

impl ResolveRefusal {
    /// Name for logs and `data-` attributes.
    pub fn as_str(&self) -> &'static str {
        match self {
            ResolveRefusal::Unknown => "unknown",
            ResolveRefusal::Settled => "settled",
            ResolveRefusal::InFlight => "in-flight",
            ResolveRefusal::Busy => "busy",
            ResolveRefusal::ReadOnly => "read-only",
            ResolveRefusal::Changed => "changed",
            ResolveRefusal::Expired => "expired",
            ResolveRefusal::WrongKind => "wrong-kind",
            ResolveRefusal::EditNotOffered => "edit-not-offered",
            ResolveRefusal::DeclineNotOffered => "decline-not-offered",
            ResolveRefusal::NotAnObject => "not-an-object",
            ResolveRefusal::BreaksSchema(_) => "breaks-schema",
            ResolveRefusal::ReadOnlyValue(_) => "read-only-value",
            ResolveRefusal::SkipNotAllowed => "skip-not-allowed",
            ResolveRefusal::Unanswered => "unanswered",
            ResolveRefusal::NotAnOption => "not-an-option",
        }
    }

    /// The Fluent id of the banner text.
    pub fn fluent_id(&self) -> &'static str {
        match self {
            ResolveRefusal::Changed => "chat-error-refused-changed",
            ResolveRefusal::Expired => "chat-error-code-action-expired",
            ResolveRefusal::ReadOnly => "chat-error-refused-read-only",
            ResolveRefusal::EditNotOffered => "chat-error-refused-edit-not-offered",
            ResolveRefusal::DeclineNotOffered => "chat-error-refused-decline-not-offered",
            ResolveRefusal::NotAnObject | ResolveRefusal::BreaksSchema(_) => {
                "chat-error-refused-arguments"
            }
            ResolveRefusal::ReadOnlyValue(_) => "chat-error-refused-read-only-value",
            ResolveRefusal::SkipNotAllowed | ResolveRefusal::Unanswered => {
                "chat-error-refused-unanswered"
            }
            ResolveRefusal::NotAnOption | ResolveRefusal::WrongKind => {
                "chat-error-refused-not-an-option"
            }
            ResolveRefusal::Settled => "chat-error-refused-settled",
            ResolveRefusal::InFlight => "chat-error-refused-in-flight",
            ResolveRefusal::Busy => "chat-error-refused-busy",
            ResolveRefusal::Unknown => "chat-error-refused-not-open",
        }
    }
}

/// Why a card cannot be decided at all right now, whatever the answer: it settled, an answer
/// of it is on its way, it cannot be answered here, its deadline passed, or a reply is still
/// streaming. `None` when it can be. The cards disable their deciding buttons while this says
/// something (and say why), and [`check_resolve`] refuses with the same reason, so a button
/// that can be clicked is one the gate lets through.
pub fn blocked(
    state: &CardState,
    expires_at: Option<Millis>,
    ctx: ResolveContext,
) -> Option<ResolveRefusal> {
    match state {
        CardState::Settled(_) => return Some(ResolveRefusal::Settled),
        // Checking: the outcome of the answer sent is unknown; only the server ends it.
        CardState::Sending | CardState::Checking => return Some(ResolveRefusal::InFlight),
        CardState::Waiting => {}
    }
    if !ctx.may_answer {
        return Some(ResolveRefusal::ReadOnly);
    }
    if expires_at.is_some_and(|t| t <= ctx.now) {
        return Some(ResolveRefusal::Expired);
    }
    if ctx.busy {
        return Some(ResolveRefusal::Busy);
    }
    None
}

/// What the session knows besides the card when an answer comes in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResolveContext {
    /// The server's time now (the client clock corrected by the session's offset).
    pub now: Millis,
    /// The card may be answered here ([`super::may_answer`]).
    pub may_answer: bool,
    /// A reply is streaming.
    pub busy: bool,
    /// The backend can run edited arguments (`capabilities.approvalArgsEdit` is not false);
    /// where it cannot, an edit is refused rather than silently dropped.
    pub backend_edits: bool,
    /// The backend can remember a tool for the chat (`capabilities.approvalRemember` is not
    /// false); where it cannot, "remember" is taken off the answer.
    pub backend_remembers: bool,
}

impl ResolveContext {
    /// What a card drawn in the page knows when it decides whether to offer its buttons: the
    /// time, whether it is read-only and whether a reply is streaming (the backend's abilities
    /// only matter to an answer, so they are taken as given).
    pub fn card(now: Millis, read_only: bool, busy: bool) -> ResolveContext {
        ResolveContext {
            now,
            may_answer: !read_only,
            busy,
            backend_edits: true,
            backend_remembers: true,
        }
    }
}

/// Decides whether `resolution` may be sent for `card` by someone who was shown `shown`.
/// Returns the answer as it goes on the wire: `approvedArgs` equal to the proposal are dropped
/// (not an edit), a deny carries neither arguments nor "remember", an empty reason is no reason.
pub fn check_resolve(
    card: Option<&ActionCard>,
    shown: &Shown,
    resolution: &Resolution,
    ctx: ResolveContext,
) -> Result<Resolution, ResolveRefusal> {
    let card = card.ok_or(ResolveRefusal::Unknown)?;
    let blocked = blocked(&card.state, card.action.expires_at, ctx);
    // A card that is no longer open or not answerable here says so before it says it changed.
    if let Some(
        reason @ (ResolveRefusal::Settled | ResolveRefusal::InFlight | ResolveRefusal::ReadOnly),
    ) = blocked
    {
        return Err(reason);
    }
    if !shown.matches(&card.action) {
        return Err(ResolveRefusal::Changed);
    }
    if let Some(reason) = blocked {
        return Err(reason);
    }
    match (&card.action.kind, resolution) {
        (
            ActionKind::ToolApproval(approval),
            Resolution::ToolApproval {
                decision,
                approved_args,
                remember_for_session,
                comment,
            },
        ) => match decision {
            Decision::Deny
                if !approval
                    .decline
                    .unwrap_or(Decline::Any)
                    .takes(comment.as_deref()) =>
            {
                Err(ResolveRefusal::DeclineNotOffered)
            }
            Decision::Deny => Ok(Resolution::ToolApproval {
                decision: Decision::Deny,
                approved_args: None,
                remember_for_session: false,
                comment: comment.clone().filter(|c| !c.trim().is_empty()),
            }),
            Decision::Allow => {
                let approved_args = match approved_args {
                    None => None,
                    Some(edit) if !edit.is_object() => return Err(ResolveRefusal::NotAnObject),
                    Some(edit) if args_equal(edit, &approval.args) => None,
                    Some(_) if !ctx.backend_edits || approval.args_editable == Some(false) => {
                        return Err(ResolveRefusal::EditNotOffered)
                    }
                    Some(edit) => {
                        let locked = super::policy::read_only_problems(approval, edit);
                        if !locked.is_empty() {
                            return Err(ResolveRefusal::ReadOnlyValue(locked));
                        }
                        if let Some(schema) = &approval.args_schema {
                            // "Cannot judge" does not refuse: the card showed it, and the
                            // server checks the edit again.
                            let problems = gate_check(edit, schema);
                            if blocks(&problems) {
                                let problems =
                                    problems.into_iter().filter(|p| !p.kind.is_unjudged());
                                return Err(ResolveRefusal::BreaksSchema(problems.collect()));
                            }
                        }
                        Some(edit.clone())
                    }
                };
                Ok(Resolution::ToolApproval {
                    decision: Decision::Allow,
                    approved_args,
                    remember_for_session: *remember_for_session && ctx.backend_remembers,
                    comment: None,
                })
            }
        },
        (ActionKind::UserQuestion(q), Resolution::UserQuestion { answers, cancelled }) => {
            if *cancelled {
                if q.questions.iter().any(|q| q.required) {
                    return Err(ResolveRefusal::SkipNotAllowed);
                }
                return Ok(Resolution::UserQuestion {
                    answers: Default::default(),
                    cancelled: true,
                });
            }
            for (text, value) in answers {
                let question = q
                    .questions
                    .iter()
                    .find(|known| known.question == *text)
                    .ok_or(ResolveRefusal::NotAnOption)?;
                let free = question.offers_free_text(q.allow_free_text);
                let values = value.as_slice();
                if values.is_empty() || (!question.multi_select && values.len() > 1) {
                    return Err(ResolveRefusal::NotAnOption);
                }
                // A value that is none of the options is typed text: only where text is offered,
                // and at most one such entry (C9: typed text is one more answer).
                let typed = values
                    .iter()
                    .filter(|v| !question.options.iter().any(|o| o.value == **v))
                    .count();
                if typed > usize::from(free) {
                    return Err(ResolveRefusal::NotAnOption);
                }
            }
            let unanswered = q.questions.iter().any(|question| {
                question.required
                    && answers
                        .get(&question.question)
                        .is_none_or(|v| v.as_slice().iter().all(|s| s.trim().is_empty()))
            });
            if unanswered {
                return Err(ResolveRefusal::Unanswered);
            }
            Ok(resolution.clone())
        }
        (ActionKind::ClientTool { .. }, Resolution::ClientTool { .. }) => Ok(resolution.clone()),
        _ => Err(ResolveRefusal::WrongKind),
    }
}
