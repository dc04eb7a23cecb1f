//! What went wrong, as kinds rather than sentences: the gateway never writes English words
//! for the person. A reply that failed is a [`Failure`] (the server's own words when it gave
//! some, and always its [`FailureKind`]); an answer the gateway turns down itself is a
//! [`Refusal`]. Each kind travels to the session as an agent-server error code: the id of
//! the page's message that says it (most share a sentence the page already has), which the
//! session says in the person's language, so a Turkish page never reads an English sentence
//! the gateway made up. The code is the message id itself so that the first download holds
//! no table of kinds: the page only checks that a code names one of its error messages.
//!
//! The rule for the server's words: when it gave some they are what the person reads, and
//! the code is left out so the page's sentence does not push them aside; when it gave none,
//! the code alone says what happened.

use serde_json::{json, Map, Value};

/// What kind of failure ended a reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// The agent reported an error (an `error` event, an error object, a failed run).
    AgentError,
    /// The model server reported an error (Chat Completions, Responses).
    ModelError,
    /// The model server stopped before the reply was finished (a Responses reply
    /// `incomplete` or `failed`).
    Incomplete,
    /// The agent ended its task as failed (A2A `failed`).
    TaskFailed,
    /// The agent turned the task down (A2A `rejected`).
    TaskRejected,
    /// The task was cancelled on the agent's side (A2A `canceled`).
    TaskCanceled,
    /// An answer was taken but nothing was waiting for it any more: it was answered
    /// elsewhere (a LangGraph resume in which nothing ran).
    NothingWaited,
    /// The server's answer could not be read at all.
    Unreadable,
}

impl FailureKind {
    /// The agent-server error code this kind travels as: the agent server's own code where
    /// it has one (`action_not_pending`, which settles the card), else the page's message id.
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            FailureKind::NothingWaited => "action_not_pending",
            other => other.fluent_id(),
        }
    }

    /// The page's sentence for this kind, when the server gave no words.
    #[must_use]
    pub fn fluent_id(self) -> &'static str {
        match self {
            FailureKind::AgentError | FailureKind::ModelError | FailureKind::Incomplete => {
                "chat-error-server-failed"
            }
            FailureKind::TaskFailed | FailureKind::TaskRejected => "chat-error-task-failed",
            FailureKind::TaskCanceled => "chat-error-task-canceled",
            FailureKind::NothingWaited => "chat-error-code-action-not-pending",
            FailureKind::Unreadable => "chat-error-bad-response",
        }
    }

    /// Every kind, for the tests that check each has its words in every language.
    pub const ALL: [FailureKind; 8] = [
        FailureKind::AgentError,
        FailureKind::ModelError,
        FailureKind::Incomplete,
        FailureKind::TaskFailed,
        FailureKind::TaskRejected,
        FailureKind::TaskCanceled,
        FailureKind::NothingWaited,
        FailureKind::Unreadable,
    ];
}

/// Why a reply failed: its kind, and the server's own words when it gave some.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// What kind of failure it was.
    pub kind: FailureKind,
    /// The server's words, trimmed; `None` when it gave none (or only blanks).
    pub words: Option<String>,
}

impl Failure {
    /// A failure of `kind`, with the server's `words` when they are more than blanks.
    #[must_use]
    pub fn new(kind: FailureKind, words: Option<&str>) -> Failure {
        Failure {
            kind,
            words: words
                .map(str::trim)
                .filter(|w| !w.is_empty())
                .map(str::to_owned),
        }
    }

    /// A failure of `kind` in the words of a server's error object (`{message}`) or error
    /// string, when it has some.
    #[must_use]
    pub fn from_error(kind: FailureKind, err: &Value) -> Failure {
        Failure::new(kind, err["message"].as_str().or_else(|| err.as_str()))
    }

    /// The agent-server error object (`{message}` or `{code}`) the session reads this from:
    /// the server's words when it gave some, else the kind's code.
    #[must_use]
    pub fn error_object(&self) -> Value {
        match &self.words {
            Some(words) => json!({ "message": words }),
            None => json!({ "code": self.kind.code() }),
        }
    }

    /// What a stored reply keeps of the failure in its metadata, so a reload shows it
    /// again: `error` with the server's words, else `errorCode` with the kind's code.
    pub fn keep_in(&self, metadata: &mut Map<String, Value>) {
        match &self.words {
            Some(words) => metadata.insert("error".into(), Value::from(words.as_str())),
            None => metadata.insert("errorCode".into(), Value::from(self.kind.code())),
        };
    }
}

/// Why the gateway itself turned an answer down, before anything was sent: the card offered
/// something this backend cannot say, or the request is no longer open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// This backend takes no answers at all (its cards are read-only).
    TakesNoAnswers,
    /// The request is not open any more.
    NotPending,
    /// The request's deadline passed.
    Expired,
    /// This backend takes only approvals and denials.
    ApproveOrDenyOnly,
    /// This backend runs a tool only with the arguments it proposed.
    EditNotTaken,
    /// The question needs an answer (it cannot be skipped on this backend).
    AnswerRequired,
    /// The answer does not fit what the agent asked for.
    DoesNotFit,
    /// The request is not one this backend can answer (no interrupt to resume).
    NotAnswerable,
    /// The request cannot be skipped.
    SkipNotTaken,
    /// The request takes no written answer.
    TextNotTaken,
    /// The request cannot be declined.
    DeclineNotTaken,
    /// The request takes no reason: a decline without one.
    ReasonNotTaken,
    /// The request can only be declined with a reason.
    ReasonRequired,
    /// The request cannot be approved.
    ApproveNotTaken,
}

impl Refusal {
    /// The agent-server error code this refusal travels as: the agent server's own code
    /// where it has one (they settle the card), else the page's message id.
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            Refusal::NotPending => "action_not_pending",
            Refusal::Expired => "action_expired",
            other => other.fluent_id(),
        }
    }

    /// The page's sentence for this refusal (several share one: the gate's own words for
    /// the same thing).
    #[must_use]
    pub fn fluent_id(self) -> &'static str {
        match self {
            Refusal::NotPending => "chat-error-code-action-not-pending",
            Refusal::Expired => "chat-error-code-action-expired",
            Refusal::EditNotTaken => "chat-error-refused-edit-not-offered",
            Refusal::DeclineNotTaken | Refusal::ReasonNotTaken | Refusal::ReasonRequired => {
                "chat-error-refused-decline-not-offered"
            }
            Refusal::AnswerRequired => "chat-error-refused-unanswered",
            Refusal::DoesNotFit => "chat-error-refused-does-not-fit",
            Refusal::TakesNoAnswers
            | Refusal::NotAnswerable
            | Refusal::ApproveOrDenyOnly
            | Refusal::SkipNotTaken
            | Refusal::TextNotTaken
            | Refusal::ApproveNotTaken => "chat-error-refused-read-only",
        }
    }

    /// The HTTP status the gateway answers with.
    #[must_use]
    pub fn status(self) -> u16 {
        match self {
            Refusal::TakesNoAnswers => 404,
            Refusal::NotPending | Refusal::Expired => 409,
            _ => 400,
        }
    }

    /// The refusal as the agent server answers one: its status and envelope, with the code
    /// alone (the page says it in the person's language).
    #[must_use]
    pub fn response(self) -> (u16, String) {
        let body = json!({ "error": { "code": self.code() } });
        (self.status(), body.to_string())
    }

    /// The refusal with a detail in no language (a JSON pointer to the field at fault), shown
    /// under the page's sentence as the server's words are.
    #[must_use]
    pub fn response_at(self, pointer: &str) -> (u16, String) {
        let body = json!({ "error": { "code": self.code(), "message": pointer } });
        (self.status(), body.to_string())
    }

    /// Every refusal, for the tests that check each has its words in every language.
    pub const ALL: [Refusal; 14] = [
        Refusal::TakesNoAnswers,
        Refusal::NotPending,
        Refusal::Expired,
        Refusal::ApproveOrDenyOnly,
        Refusal::EditNotTaken,
        Refusal::AnswerRequired,
        Refusal::DoesNotFit,
        Refusal::NotAnswerable,
        Refusal::SkipNotTaken,
        Refusal::TextNotTaken,
        Refusal::DeclineNotTaken,
        Refusal::ReasonNotTaken,
        Refusal::ReasonRequired,
        Refusal::ApproveNotTaken,
    ];
}

/// Why a stored reply failed, as a reload shows it (see [`Failure::keep_in`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FailedTurn {
    /// The server's own words.
    Words(String),
    /// No words: the Fluent id of the failure's kind ([`FailureKind::fluent_id`]), said in
    /// the person's language.
    Said(String),
}

impl FailedTurn {
    /// How the reply whose metadata is `metadata` failed, when it did: its `error` words,
    /// else its `errorCode` when that is a kind this page knows.
    #[must_use]
    pub fn of(metadata: &Map<String, Value>) -> Option<FailedTurn> {
        if let Some(words) = metadata
            .get("error")
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|w| !w.is_empty())
        {
            return Some(FailedTurn::Words(words.to_owned()));
        }
        let code = metadata.get("errorCode").and_then(Value::as_str)?;
        let kind = FailureKind::ALL.into_iter().find(|k| k.code() == code)?;
        Some(FailedTurn::Said(kind.fluent_id().to_owned()))
    }
}
