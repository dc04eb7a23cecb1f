//! Approval and question cards as the chat shows them: their lifecycle, how a settled one
//! reads, the composer state they impose and how a loaded conversation
//! restores them. Pure functions; the `Session` owns the cards and applies these rules.

use std::collections::{BTreeMap, HashMap};

use serde_json::Value;

use super::wire::{
    ActionKind, ActionStatus, AnswerValue, ComposerMode, Decision, ExecutionStatus, Message,
    PendingAction, Question, Resolution, Role,
};

/// How a card ended. Rendered as its label and as `data-state` on the card.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Allowed as proposed.
    Approved {
        /// `rememberForSession` was set: "Remembered for this chat".
        remembered: bool,
    },
    /// Allowed with edited arguments; Details show what was approved.
    ApprovedEdited {
        /// The approved arguments.
        args: Value,
        /// `rememberForSession` was set.
        remembered: bool,
    },
    /// Denied, maybe with a reason.
    Denied {
        /// The reason given.
        comment: Option<String>,
    },
    /// A question was answered (answers listed when known; empty = plain "Answered").
    Answered {
        /// Question text → answer.
        answers: BTreeMap<String, AnswerValue>,
    },
    /// A question card was skipped (`cancelled: true`).
    Skipped,
    /// The deadline passed (locally, or `resolvedBy: "system:timeout"`, or status `expired`).
    Expired,
    /// The server cancelled it (e.g. a new message in cancel mode).
    Cancelled,
}

impl Outcome {
    /// Name used for `data-state`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Outcome::Approved { .. } => "approved",
            Outcome::ApprovedEdited { .. } => "approved-edited",
            Outcome::Denied { .. } => "denied",
            Outcome::Answered { .. } => "answered",
            Outcome::Skipped => "skipped",
            Outcome::Expired => "expired",
            Outcome::Cancelled => "cancelled",
        }
    }

    /// Outcomes a refetch must never overwrite with a weaker "Answered".
    pub fn is_sticky(&self) -> bool {
        matches!(self, Outcome::Expired | Outcome::Cancelled)
    }

    /// The plain "Answered" used when nothing more is known.
    pub fn answered() -> Outcome {
        Outcome::Answered {
            answers: BTreeMap::new(),
        }
    }

    /// The label of a settled action from its status, resolution and who settled it.
    /// Without a resolution, the record's own status in the approval guide's words (`stage`)
    /// still tells allowed from denied: `approved`, `executing`, `completed` and `failed` read
    /// as allowed, `rejected` as denied; only a record that says nothing reads "Answered".
    pub fn from_settled(
        status: ActionStatus,
        resolution: Option<&Resolution>,
        resolved_by: Option<&str>,
        stage: Option<ExecutionStatus>,
    ) -> Outcome {
        match status {
            ActionStatus::Cancelled => return Outcome::Cancelled,
            ActionStatus::Expired => return Outcome::Expired,
            ActionStatus::Pending | ActionStatus::Resolved => {}
        }
        // A timeout beats whatever decision the server recorded for it.
        if resolved_by == Some(super::wire::RESOLVED_BY_TIMEOUT) {
            return Outcome::Expired;
        }
        match resolution {
            Some(Resolution::ToolApproval {
                decision: Decision::Allow,
                approved_args,
                remember_for_session,
                ..
            }) => match approved_args {
                Some(args) => Outcome::ApprovedEdited {
                    args: args.clone(),
                    remembered: *remember_for_session,
                },
                None => Outcome::Approved {
                    remembered: *remember_for_session,
                },
            },
            Some(Resolution::ToolApproval {
                decision: Decision::Deny,
                comment,
                ..
            }) => Outcome::Denied {
                comment: comment.clone().filter(|c| !c.trim().is_empty()),
            },
            Some(Resolution::UserQuestion {
                cancelled: true, ..
            }) => Outcome::Skipped,
            Some(Resolution::UserQuestion { answers, .. }) => Outcome::Answered {
                answers: answers.clone(),
            },
            None if stage == Some(ExecutionStatus::Rejected) => Outcome::Denied { comment: None },
            None if stage.is_some_and(ExecutionStatus::was_allowed) => {
                Outcome::Approved { remembered: false }
            }
            Some(Resolution::ClientTool { .. }) | None => Outcome::answered(),
        }
    }
}

/// Where a card is in its life; rendered as `data-state`.
#[derive(Clone, Debug)]
pub enum CardState {
    /// Waits for the person.
    Waiting,
    /// An answer is on its way (buttons disabled; the deadline is ignored: an answer sent in time
    /// is not expired under it).
    Sending,
    /// An answer was sent but the page cannot know whether the server took it (the connection
    /// dropped, a 5xx, a timeout): no deciding button, and the conversation is looked up until
    /// the server settles it; only a server that says "still pending" brings the buttons back.
    Checking,
    /// Settled.
    Settled(Outcome),
}

// Compared by hand, not derived: a derived `eq` is `#[inline]`, so the UI crate compiled its
// own copy beside this crate's and the element's first download carried both (D104). A new
// variant fails to compile until it is matched below.
impl PartialEq for CardState {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (CardState::Waiting, CardState::Waiting)
            | (CardState::Sending, CardState::Sending)
            | (CardState::Checking, CardState::Checking) => true,
            (CardState::Settled(a), CardState::Settled(b)) => a == b,
            (
                CardState::Waiting
                | CardState::Sending
                | CardState::Checking
                | CardState::Settled(_),
                _,
            ) => false,
        }
    }
}

impl CardState {
    /// Name used for `data-state`.
    pub fn as_str(&self) -> &'static str {
        match self {
            CardState::Waiting => "waiting",
            CardState::Sending => "sending",
            CardState::Checking => "checking",
            CardState::Settled(o) => o.as_str(),
        }
    }

    /// Waiting, sending or checking: the action is still open.
    pub fn is_open(&self) -> bool {
        !matches!(self, CardState::Settled(_))
    }
}

/// One action as the chat shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionCard {
    /// The action as the server described it.
    pub action: PendingAction,
    /// Its lifecycle.
    pub state: CardState,
    /// The assistant message it is drawn under; `None` = under the last one.
    pub message_id: Option<String>,
    /// Arrived with a loaded conversation: neither announced nor focused.
    pub restored: bool,
    /// How many times the request changed (other arguments, version or questions under the
    /// same id) while this page showed it: 0 = as first drawn. A card is drawn afresh for each
    /// revision, dropping any edit, and says "This request changed".
    pub revision: u32,
    /// Who settled it, as far as this page knows (the receipt's "you", "Answered elsewhere").
    pub decided: Decider,
    /// The arguments of the tool call as first drawn here, kept when the server re-issues the
    /// request with others (a new version after an edit) so the card shows the diff against
    /// the original proposal. `None` while unchanged.
    pub first_args: Option<Value>,
}

/// Who settled a card, as far as this page knows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Decider {
    /// Not known (a card restored settled from history, or still open).
    #[default]
    Unknown,
    /// The person, on this page: the server took this page's answer.
    ThisPage,
    /// Someone or something else (another tab or app) while the card waited here.
    Elsewhere,
}

impl ActionCard {
    /// A new card as it arrives.
    pub fn new(
        action: PendingAction,
        state: CardState,
        message_id: Option<String>,
        restored: bool,
    ) -> ActionCard {
        ActionCard {
            action,
            state,
            message_id,
            restored,
            revision: 0,
            decided: Decider::Unknown,
            first_args: None,
        }
    }

    /// The request changed since it was first drawn here.
    pub fn changed(&self) -> bool {
        self.revision > 0
    }

    /// The server described this (still open) action again: take its new description, and
    /// count a revision when what the card draws differs. Returns whether it did.
    pub fn replace_action(&mut self, action: PendingAction) -> bool {
        let changed = !super::draft::Shown::of(&self.action).matches(&action);
        if changed {
            self.revision += 1;
            if let (None, ActionKind::ToolApproval(old), ActionKind::ToolApproval(new)) =
                (&self.first_args, &self.action.kind, &action.kind)
            {
                if !super::schema::args_equal(&old.args, &new.args) {
                    self.first_args = Some(old.args.clone());
                }
            }
        }
        self.action = action;
        changed
    }

    /// Whether a person must act on it (approval or question, still open).
    pub fn is_open_for_person(&self) -> bool {
        self.state.is_open() && self.action.kind.is_person_facing()
    }
}

/// What the composer does while cards wait.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum ComposerState {
    /// Nothing waits.
    #[default]
    Normal,
    /// Block mode: the composer is closed until the card is answered.
    Blocked,
    /// Cancel mode: sending a message cancels the waiting request.
    Cancel,
    /// Block mode, but nothing waiting can be answered here (read-only cards): the
    /// composer is closed and says the answer is expected in another app, not "above".
    /// Reads as `blocked`, like React's `composerState`.
    WaitingElsewhere,
    /// The only thing waiting is one question without options: the composer answers it.
    Answer {
        /// The question's action.
        action_id: String,
        /// The question (its `placeholder` becomes the composer's).
        question: Question,
    },
}

impl ComposerState {
    /// The composer is closed while cards wait (block mode, answerable here or not).
    pub fn is_blocked(&self) -> bool {
        matches!(
            self,
            ComposerState::Blocked | ComposerState::WaitingElsewhere
        )
    }

    /// Name used for `data-state` on the composer.
    pub fn as_str(&self) -> &'static str {
        match self {
            ComposerState::Normal => "normal",
            ComposerState::Blocked | ComposerState::WaitingElsewhere => "blocked",
            ComposerState::Cancel => "cancel",
            ComposerState::Answer { .. } => "answer",
        }
    }
}

/// The composer's state: `answer` beats block/cancel when exactly one person-facing action is
/// open, it is a question with a single option-less question, and answering is possible.
/// Every open card counts as answerable here when `can_answer_questions`; see
/// [`composer_state_for`] for the per-card rule the session uses.
pub fn composer_state(
    cards: &[ActionCard],
    mode: ComposerMode,
    can_answer_questions: bool,
) -> ComposerState {
    composer_state_for(cards, mode, |c| {
        can_answer_questions || !matches!(c.action.kind, ActionKind::UserQuestion(_))
    })
}

/// [`composer_state`] with `answerable` telling, per card, whether it can be answered here.
/// In block mode, when no open card can be answered here, the composer waits for another app
/// ([`ComposerState::WaitingElsewhere`]) instead of saying "answer above".
pub fn composer_state_for(
    cards: &[ActionCard],
    mode: ComposerMode,
    answerable: impl Fn(&ActionCard) -> bool,
) -> ComposerState {
    let open: Vec<&ActionCard> = cards.iter().filter(|c| c.is_open_for_person()).collect();
    if open.is_empty() {
        return ComposerState::Normal;
    }
    if let ([only], true) = (open.as_slice(), open.first().is_some_and(|c| answerable(c))) {
        if let ActionKind::UserQuestion(q) = &only.action.kind {
            if let [question] = q.questions.as_slice() {
                if question.options.is_empty() && only.state == CardState::Waiting {
                    return ComposerState::Answer {
                        action_id: only.action.id.clone(),
                        question: question.clone(),
                    };
                }
            }
        }
    }
    match mode {
        ComposerMode::Block if !open.iter().any(|c| answerable(c)) => {
            ComposerState::WaitingElsewhere
        }
        ComposerMode::Block => ComposerState::Blocked,
        ComposerMode::Cancel => ComposerState::Cancel,
    }
}

/// What a live card asks of the person's attention: an announcement, and focus when it can be
/// answered here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// "The assistant needs your approval: tool".
    Approval {
        /// The tool's own name.
        tool: String,
    },
    /// "The assistant has a question".
    Question,
    /// "The assistant is waiting for an answer in another app": a read-only card.
    Elsewhere,
    /// "This request changed. Review it again.": an open card redrawn with a new request.
    Changed,
    /// "send_email: Completed": a card moved on after the person's decision.
    Stage {
        /// The tool's name, or the first question.
        subject: String,
        /// The new stage.
        stage: super::stage::CardStage,
    },
}

/// What the page does when a card arrives live or changes: what the hidden live region says
/// and whether the card takes keyboard focus.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Attention {
    /// What to announce politely, if anything.
    pub announce: Option<Notice>,
    /// Move keyboard focus to the card (a question's first control, an approval's card).
    pub focus: bool,
}

/// A card that arrives while the person is not typing is
/// announced and, when it can be answered here, takes focus; a read-only card is announced
/// ("waiting … in another app") but takes no focus; while the person types nothing is taken
/// from them, in every composer mode. Restored cards and `client_tool` never get here.
pub fn attention_for_new_card(action: &PendingAction, answerable: bool, typing: bool) -> Attention {
    if typing || !action.kind.is_person_facing() {
        return Attention::default();
    }
    if !answerable {
        return Attention {
            announce: Some(Notice::Elsewhere),
            focus: false,
        };
    }
    let announce = match &action.kind {
        ActionKind::ToolApproval(a) => Notice::Approval {
            tool: a.tool_name.clone(),
        },
        _ => Notice::Question,
    };
    Attention {
        announce: Some(announce),
        focus: true,
    }
}

/// A card that changed while shown is announced (politely, also while typing: nothing moves)
/// when it still waits here; focus stays where it is.
pub fn attention_for_changed_card(answerable: bool) -> Attention {
    Attention {
        announce: answerable.then_some(Notice::Changed),
        focus: false,
    }
}

/// What waits for this person, for the host page: `agent-chat:attention`
/// `{pending, kinds, expiresAt}` and the "(N)" title prefix.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingAttention {
    /// Cards waiting for an answer here (Sending or Checking ones no longer do).
    pub pending: usize,
    /// Their kinds (`tool_approval`, `user_question`), each once, sorted.
    pub kinds: Vec<String>,
    /// The earliest deadline among them (server time; an ISO-8601 string in JSON).
    #[serde(with = "super::time::opt_iso")]
    pub expires_at: Option<super::time::Millis>,
}

/// The [`PendingAttention`] of `cards` (each with whether it can be answered here).
pub fn pending_attention<'a>(
    cards: impl IntoIterator<Item = (&'a ActionCard, bool)>,
) -> PendingAttention {
    let mut out = PendingAttention::default();
    for (card, answerable) in cards {
        if !answerable || card.state != CardState::Waiting || !card.action.kind.is_person_facing() {
            continue;
        }
        out.pending += 1;
        let kind = card.action.kind.type_name().to_owned();
        if !out.kinds.contains(&kind) {
            out.kinds.push(kind);
        }
        out.expires_at = match (out.expires_at, card.action.expires_at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }
    out.kinds.sort();
    out
}

/// When the model asked for several tools at once, all of them wait:
/// the approvals of one assistant turn (placed under the same message) that wait and can be
/// answered here, when there are at least two; otherwise none. "Approve all (N)" and "Deny
/// all" decide exactly these, each call with its own key; never across turns.
pub fn approval_batch<'a>(
    cards: impl IntoIterator<Item = (&'a ActionCard, bool)>,
    message_id: Option<&str>,
) -> Vec<&'a ActionCard> {
    let batch: Vec<&ActionCard> = cards
        .into_iter()
        .filter(|(c, answerable)| {
            *answerable
                && c.state == CardState::Waiting
                && matches!(c.action.kind, ActionKind::ToolApproval(_))
                && c.message_id.as_deref() == message_id
        })
        .map(|(c, _)| c)
        .collect();
    if batch.len() < 2 {
        return Vec::new();
    }
    batch
}

/// What the live region says when a card's stage changes from `before` to `after`.
/// Moves the person did not just make are said (Checking status, Executing…, Completed,
/// Failed, a decision, answered elsewhere); the card's arrival, a changed request and the
/// person's own click (Sending…) have their own words or none.
pub fn attention_for_stage_change(
    card: &ActionCard,
    before: &super::stage::CardStage,
    after: &super::stage::CardStage,
) -> Option<Notice> {
    use super::stage::CardStage as S;
    if before == after
        || matches!(after, S::PendingApproval | S::WaitingForAnswer | S::Sending)
        || !card.action.kind.is_person_facing()
    {
        return None;
    }
    let subject = match &card.action.kind {
        ActionKind::ToolApproval(a) => a.title.clone().unwrap_or_else(|| a.tool_name.clone()),
        ActionKind::UserQuestion(q) => q
            .questions
            .first()
            .map(|q| q.question.clone())
            .unwrap_or_default(),
        _ => String::new(),
    };
    Some(Notice::Stage {
        subject,
        stage: after.clone(),
    })
}

/// Approve sends `approvedArgs` only when the edit differs from the proposal (deep
/// equality, key order and `1` vs `1.0` ignored); Deny ignores the edit; remember only with allow.
pub fn approval_resolution(
    approve: bool,
    proposed: &Value,
    edited: Option<&Value>,
    remember_for_session: bool,
    comment: Option<String>,
) -> Resolution {
    if !approve {
        return Resolution::ToolApproval {
            decision: Decision::Deny,
            approved_args: None,
            remember_for_session: false,
            comment: comment.filter(|c| !c.trim().is_empty()),
        };
    }
    let approved_args = edited
        .filter(|e| !super::schema::args_equal(e, proposed))
        .cloned();
    Resolution::ToolApproval {
        decision: Decision::Allow,
        approved_args,
        remember_for_session,
        comment: None,
    }
}

/// Settled state recorded on a message, from the first source that has it.
fn settled_from_message(message: &Message, id: &str) -> Option<Outcome> {
    if let Some(entry) = message.action_states.get(id) {
        return Some(Outcome::from_settled(
            entry.status,
            entry.resolution.as_ref(),
            entry.resolved_by.as_deref(),
            None,
        ));
    }
    if let Some(entry) = message.metadata_action_states().get(id) {
        return Some(Outcome::from_settled(
            entry.status,
            entry.resolution.as_ref(),
            entry.resolved_by.as_deref(),
            None,
        ));
    }
    message
        .metadata_pending_actions()
        .into_iter()
        .find(|a| a.id == id && !a.is_open())
        .map(|a| {
            Outcome::from_settled(
                a.status,
                a.resolution.as_ref(),
                a.resolved_by.as_deref(),
                a.stage,
            )
        })
}

/// The cards of a freshly loaded conversation.
///
/// `open` is `GET /conversations/:id`'s `pendingActions` (`None` when the key was absent: then the
/// open entries of the last assistant message's `metadata.pendingActions` wait). Every other action
/// mentioned on a message, or already known (`known`), is settled, read from the first source that
/// has it, else "Answered". Locally Expired/Cancelled cards stay so (sticky). Cards not known
/// before are marked `restored` (no announcement, no focus, no `onActionRequired`).
pub fn restore_cards(
    messages: &[Message],
    open: Option<Vec<PendingAction>>,
    known: &[ActionCard],
) -> Vec<ActionCard> {
    let last_assistant = messages.iter().rev().find(|m| m.role == Role::Assistant);
    // A record the server lists among the waiting ones while its own status says it is
    // decided (`executing`, `completed`, …) is drawn as that, not as waiting.
    let mut listed_settled: Vec<PendingAction> = Vec::new();
    let open: Vec<PendingAction> = match open {
        Some(list) => {
            let (open, settled): (Vec<_>, Vec<_>) = list.into_iter().partition(|a| a.is_open());
            listed_settled = settled;
            open
        }
        None => last_assistant
            .map(|m| {
                m.metadata_pending_actions()
                    .into_iter()
                    .filter(|a| a.is_open())
                    .collect()
            })
            .unwrap_or_default(),
    };
    let known_by_id: HashMap<&str, &ActionCard> =
        known.iter().map(|c| (c.action.id.as_str(), c)).collect();
    let mut cards: Vec<ActionCard> = Vec::new();
    let push = |card: ActionCard, cards: &mut Vec<ActionCard>| {
        if matches!(card.action.kind, ActionKind::Unknown(_)) {
            return;
        }
        match cards.iter_mut().find(|c| c.action.id == card.action.id) {
            Some(existing) => *existing = card,
            None => cards.push(card),
        }
    };

    // Settled actions described on messages, in message order.
    for message in messages {
        for action in message.metadata_pending_actions() {
            if open.iter().any(|o| o.id == action.id) {
                continue;
            }
            let outcome =
                settled_from_message(message, &action.id).unwrap_or_else(Outcome::answered);
            let id = action.id.clone();
            let card = settled_card(
                action,
                outcome,
                Some(message.id.clone()),
                known_by_id.get(id.as_str()).copied(),
            );
            push(card, &mut cards);
        }
    }
    for action in listed_settled {
        let outcome = Outcome::from_settled(
            action.status,
            action.resolution.as_ref(),
            action.resolved_by.as_deref(),
            action.stage,
        );
        let placed = action
            .message_id
            .clone()
            .or_else(|| last_assistant.map(|m| m.id.clone()));
        let id = action.id.clone();
        let card = settled_card(
            action,
            outcome,
            placed,
            known_by_id.get(id.as_str()).copied(),
        );
        push(card, &mut cards);
    }
    // Actions only this page knew about (e.g. answered here, not recorded by the server).
    for card in known {
        if cards.iter().any(|c| c.action.id == card.action.id)
            || open.iter().any(|o| o.id == card.action.id)
        {
            continue;
        }
        let outcome = messages
            .iter()
            .find_map(|m| settled_from_message(m, &card.action.id))
            .or_else(|| match &card.state {
                CardState::Settled(o) => Some(o.clone()),
                _ => None,
            })
            .unwrap_or_else(Outcome::answered);
        let placed = card.message_id.clone();
        push(
            settled_card(card.action.clone(), outcome, placed, Some(card)),
            &mut cards,
        );
    }
    // The open ones, under their message or the last assistant message.
    for action in open {
        let known_card = known_by_id.get(action.id.as_str()).copied();
        if let Some(k) = known_card {
            if let CardState::Settled(o) = &k.state {
                if o.is_sticky() {
                    push(k.clone(), &mut cards);
                    continue;
                }
            }
        }
        let message_id = action
            .message_id
            .clone()
            .or_else(|| last_assistant.map(|m| m.id.clone()));
        // An answer on its way stays so, unless the server re-issued the request meanwhile;
        // a page that did not know whether its answer arrived learns here that it did not:
        // the buttons come back (issue 14).
        let state = match known_card {
            Some(k) if k.state == CardState::Sending && k.action.version == action.version => {
                CardState::Sending
            }
            _ => CardState::Waiting,
        };
        let restored = known_card.map(|k| k.restored).unwrap_or(true);
        let mut card = ActionCard::new(action.clone(), state, message_id, restored);
        if let Some(k) = known_card {
            card.revision = k.revision;
            card.first_args = k.first_args.clone();
            card.action = k.action.clone();
            card.replace_action(action);
        }
        push(card, &mut cards);
    }
    cards
}

fn settled_card(
    mut action: PendingAction,
    outcome: Outcome,
    message_id: Option<String>,
    known: Option<&ActionCard>,
) -> ActionCard {
    // A local Expired/Cancelled is never downgraded (§9.6 step 3).
    let outcome = match known.map(|k| &k.state) {
        Some(CardState::Settled(local)) if local.is_sticky() => local.clone(),
        _ => outcome,
    };
    if action.status == ActionStatus::Pending {
        action.status = ActionStatus::Resolved;
    }
    // Times this page saw itself survive a server copy that does not have them.
    if let Some(k) = known {
        action.execution_started_at = action
            .execution_started_at
            .or(k.action.execution_started_at);
        action.execution_ended_at = action.execution_ended_at.or(k.action.execution_ended_at);
    }
    ActionCard {
        action,
        state: CardState::Settled(outcome),
        message_id: message_id.or_else(|| known.and_then(|k| k.message_id.clone())),
        restored: known.map(|k| k.restored).unwrap_or(true),
        revision: known.map_or(0, |k| k.revision),
        // A card that waited here and is now settled by the server was answered elsewhere,
        // unless this page had sent an answer whose outcome it did not know (issue 14).
        decided: match known.map(|k| (&k.state, k.decided)) {
            Some((CardState::Waiting, _)) => Decider::Elsewhere,
            Some((CardState::Sending | CardState::Checking, _)) => Decider::ThisPage,
            Some((CardState::Settled(_), d)) => d,
            None => Decider::Unknown,
        },
        first_args: known.and_then(|k| k.first_args.clone()),
    }
}

/// The unit a deadline is counted down in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountdownUnit {
    /// Whole hours.
    Hours,
    /// Whole minutes.
    Minutes,
    /// Whole seconds.
    Seconds,
}

/// The countdown's words: "Expires in N hours" → minutes → seconds, the largest whole unit ≥ 1
/// (seconds round up, so the last second reads "1 second", never "0").
pub fn countdown(remaining_ms: u64) -> (CountdownUnit, u64) {
    let (hours, minutes) = (remaining_ms / 3_600_000, remaining_ms / 60_000);
    if hours >= 1 {
        (CountdownUnit::Hours, hours)
    } else if minutes >= 1 {
        (CountdownUnit::Minutes, minutes)
    } else {
        (CountdownUnit::Seconds, remaining_ms.div_ceil(1000).max(1))
    }
}
