//! What the session shows: its run state, the revision of each slice a view draws, and the
//! getters that return render-ready data.

use crate::actions::{ActionCard, CardState, ComposerState};
use crate::files::{PendingFile, UploadLimits};
use crate::wire::{
    ActionKind, AgentInfo, ComposerMode, Conversation, ConversationListItem, Message, PendingAction,
};

use super::{ChatError, Session, SessionConfig, SessionOptions, StreamingTurn};

/// The lifecycle of the chat's current turn; rendered as `data-state` on the chat root.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Run {
    /// Nothing running.
    #[default]
    Idle,
    /// A conversation is being loaded.
    Loading,
    /// A message is on its way or its reply is streaming.
    Streaming,
    /// The turn paused: a person-facing action waits for an answer.
    AwaitingAction,
}

impl Run {
    /// Name used for `data-state`.
    pub fn as_str(self) -> &'static str {
        match self {
            Run::Idle => "idle",
            Run::Loading => "loading",
            Run::Streaming => "streaming",
            Run::AwaitingAction => "awaiting-action",
        }
    }
}

/// Revision counters, one per slice the UI renders, so a driver republishes only what changed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Revisions {
    /// Messages list.
    pub messages: u64,
    /// Streaming turn.
    pub streaming: u64,
    /// Conversation, run state, error, agents.
    pub status: u64,
    /// History list.
    pub history: u64,
    /// Approval and question cards.
    pub actions: u64,
    /// Pending files and the effective upload limits.
    pub files: u64,
}

impl Session {
    /// Options the session was built with.
    pub fn config(&self) -> &SessionConfig {
        &self.config
    }

    /// Messages of the open conversation, oldest first (optimistic ones included).
    pub fn messages(&self) -> &[Message] {
        &self.messages
    }

    /// The reply streaming right now.
    pub fn streaming(&self) -> Option<&StreamingTurn> {
        self.streaming.as_ref()
    }

    /// Current run state.
    pub fn run(&self) -> Run {
        self.run
    }

    /// Whether a reply is on its way.
    pub fn is_streaming(&self) -> bool {
        self.run == Run::Streaming
    }

    /// The error to show, if any.
    pub fn error(&self) -> Option<&ChatError> {
        self.error.as_ref()
    }

    /// Agents from `GET /agents`.
    pub fn agents(&self) -> &[AgentInfo] {
        &self.agents
    }

    /// Whether `GET /agents` has answered (successfully or not).
    pub fn agents_loaded(&self) -> bool {
        self.agents_loaded
    }

    /// Effective agent id.
    pub fn agent_id(&self) -> Option<&str> {
        self.selected_agent.as_deref()
    }

    /// The effective agent's description, when listed.
    pub fn agent(&self) -> Option<&AgentInfo> {
        let id = self.selected_agent.as_deref()?;
        self.agents.iter().find(|a| a.id == id)
    }

    /// The open conversation.
    pub fn conversation(&self) -> Option<&Conversation> {
        self.conversation.as_ref()
    }

    /// Approval and question cards of the open conversation, open and settled.
    pub fn cards(&self) -> &[ActionCard] {
        &self.cards
    }

    /// Open actions, person-facing and `client_tool`.
    pub fn pending_actions(&self) -> impl Iterator<Item = &PendingAction> {
        self.cards
            .iter()
            .filter(|c| c.state.is_open())
            .map(|c| &c.action)
    }

    /// Whether a person-facing action waits.
    pub fn awaiting_action(&self) -> bool {
        self.cards.iter().any(ActionCard::is_open_for_person)
    }

    /// Whether an answer is on its way.
    pub fn is_resolving_action(&self) -> bool {
        self.cards.iter().any(|c| c.state == CardState::Sending)
    }

    /// Whether this card can be answered here: transport and the per-kind switch.
    pub fn can_resolve(&self, card: &ActionCard) -> bool {
        crate::draft::may_answer(
            &card.action.kind,
            self.config.can_resolve,
            self.config.enable_tool_approvals,
            self.config.enable_questions,
        )
    }

    /// The switches and limits the session runs with now (change them with
    /// [`Command::SetOptions`](super::Command::SetOptions)).
    pub fn options(&self) -> SessionOptions {
        self.config.options()
    }

    /// Effective argument editing: the agent's capability wins over the prop.
    pub fn argument_edit_allowed(&self) -> bool {
        crate::draft::edit_allowed(
            self.agent().and_then(|a| a.capabilities.approval_args_edit),
            None,
            self.config.allow_argument_edit,
        )
    }

    /// What the gate knows of this backend and moment, besides the card.
    pub(crate) fn resolve_context(&self, may_answer: bool) -> crate::ResolveContext {
        crate::ResolveContext {
            now: self.server_now(),
            may_answer,
            busy: self.is_streaming(),
            backend_edits: self.agent().and_then(|a| a.capabilities.approval_args_edit)
                != Some(false),
            backend_remembers: self.remember_allowed(),
        }
    }

    /// Whether approval cards offer "don't ask again for this tool": not when the agent says
    /// it cannot remember (`capabilities.approvalRemember: false`, a Cogitator server).
    pub fn remember_allowed(&self) -> bool {
        self.agent()
            .and_then(|a| a.capabilities.approval_remember)
            .unwrap_or(true)
    }

    /// The composer's state. A backend that cannot take answers at all (Chat
    /// Completions, Responses without an action endpoint: `can_resolve` false) never holds the
    /// composer: its cards only show what the agent waits on elsewhere, and the person goes on.
    /// Cards switched off on a backend that takes answers do hold it.
    pub fn composer_state(&self) -> ComposerState {
        if !self.config.can_resolve {
            return ComposerState::Normal;
        }
        crate::actions::composer_state_for(&self.cards, self.composer_mode(), |c| {
            self.can_resolve(c)
        })
    }

    /// The question the composer answers, in answer mode.
    pub fn answerable_question(&self) -> Option<(&str, &crate::wire::Question)> {
        let open: Vec<&ActionCard> = self
            .cards
            .iter()
            .filter(|c| c.is_open_for_person())
            .collect();
        match (open.as_slice(), self.composer_state()) {
            ([card], ComposerState::Answer { .. }) => match &card.action.kind {
                ActionKind::UserQuestion(q) => {
                    q.questions.first().map(|q| (card.action.id.as_str(), q))
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// History list.
    pub fn history(&self) -> &[ConversationListItem] {
        &self.history
    }

    /// More history pages exist.
    pub fn history_has_more(&self) -> bool {
        self.history_state.has_more()
    }

    /// A history page is loading.
    pub fn history_loading(&self) -> bool {
        self.history_state.is_loading()
    }

    /// Attachments waiting for the next send, in order.
    pub fn pending_files(&self) -> &[PendingFile] {
        &self.pending_files
    }

    /// Upload limits with the effective agent's narrowing.
    pub fn upload_limits(&self) -> UploadLimits {
        match self.agent() {
            Some(agent) => self.config.uploads.effective(&agent.metadata),
            None => self.config.uploads.clone(),
        }
    }

    /// The open conversation has older messages than those loaded; load them with
    /// [`Command::LoadOlderMessages`](super::Command::LoadOlderMessages). Changes bump the `status` revision.
    pub fn has_older_messages(&self) -> bool {
        self.older.exist()
    }

    /// Older messages are on their way: a page of messages, or the older part of a long answer
    /// still being read while its newest messages are shown. Changes bump the `status` revision.
    pub fn is_loading_older(&self) -> bool {
        self.older.arriving()
    }

    /// Slice revisions, for drivers that republish only what changed.
    pub fn revisions(&self) -> Revisions {
        self.revisions
    }

    /// Effective composer mode: agent metadata wins over the prop.
    pub fn composer_mode(&self) -> ComposerMode {
        self.agent()
            .and_then(|a| a.metadata.pending_action_composer_mode())
            .unwrap_or(self.config.composer_mode)
    }

    /// Whether the composer may send now: not while a reply runs or an answer is on its way,
    /// and not while a person-facing action waits in block mode.
    pub fn can_send(&self) -> bool {
        if matches!(self.run, Run::Loading | Run::Streaming) || self.is_resolving_action() {
            return false;
        }
        !self.composer_state().is_blocked()
    }
}
