//! The session's private bookkeeping: what each request in flight was for ([`Pending`]),
//! what a turn carries ([`Turn`]), why a conversation loads ([`LoadPurpose`]), the look for a
//! reply after a lost connection ([`RunningTurn`]), and the two paging lifecycles as enums
//! ([`HistoryState`], [`OlderPages`]) instead of parallel booleans.

use crate::files::PendingFile;
use crate::sse::SseDecoder;
use crate::time::Millis;
use crate::wire::{ConversationListItem, ConversationWithMessages, Resolution};

/// A send in flight: what to give back if it is refused.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct OutgoingMessage {
    pub(super) text: String,
    pub(super) optimistic_id: String,
    /// The attachments it carries; they go back to the composer with the text on a refusal.
    pub(super) files: Vec<PendingFile>,
    /// Where to look for it in the server's copy: the id of the last message the
    /// server knew when it was sent, and how many user messages with the same text it knew.
    pub(super) after: Option<String>,
    pub(super) same_text_before: usize,
    /// The id the server stored it under (`stream.start`'s `messageId`), once told.
    pub(super) server_id: Option<String>,
}

/// What a request that may continue the conversation was for.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Turn {
    /// A message send.
    Send(OutgoingMessage),
    /// An answer to an action; `draft` is the composer text it came from (answer mode).
    Resolve {
        action_id: String,
        resolution: Resolution,
        draft: Option<String>,
    },
}

#[derive(Debug)]
pub(super) enum Pending {
    Agents,
    History {
        append: bool,
    },
    Create {
        outgoing: OutgoingMessage,
    },
    /// `POST /conversations` without a message.
    CreateEmpty,
    Load {
        conversation_id: String,
        purpose: LoadPurpose,
    },
    /// Newest page of messages after a `GET /conversations/:id` that may have been cut at
    /// [`CONVERSATION_MESSAGE_CAP`].
    LoadTail {
        conversation_id: String,
        purpose: LoadPurpose,
        loaded: Box<ConversationWithMessages>,
    },
    /// Newest page of messages asked for beside a `GET /conversations/:id` answer being read in
    /// slices.
    ReadingTail {
        conversation_id: String,
    },
    /// Next older page of messages.
    Older {
        conversation_id: String,
    },
    Send {
        outgoing: OutgoingMessage,
    },
    Resolve {
        turn: Turn,
    },
    Stream {
        turn: Turn,
        decoder: Box<SseDecoder>,
        started: bool,
        finished: bool,
    },
    Delete {
        conversation_id: String,
        /// The history row taken out optimistically, with its position, to put back on failure.
        removed: Option<(usize, ConversationListItem)>,
    },
    Rename {
        conversation_id: String,
        /// The optimistic title.
        title: String,
        /// The title before, to put back on failure.
        previous: Option<String>,
    },
}

/// Why a conversation is (re)loaded.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum LoadPurpose {
    /// The person opened it: show the loading state.
    Open,
    /// Quiet refresh after a refusal (`action_pending`, …).
    Refresh,
    /// Looking for a reply after the connection dropped.
    RunningTurn { turn: Turn, first: bool },
}

#[derive(Debug, Clone)]
pub(super) struct RunningTurn {
    pub(super) turn: Turn,
    pub(super) conversation_id: String,
    pub(super) message_count: usize,
    pub(super) deadline: Millis,
    pub(super) next_poll: Millis,
    /// The server had answered with an event stream before it broke: what was sent reached
    /// it, so a failed look keeps it on screen as interrupted instead of refusing.
    pub(super) answered: bool,
}

/// A sent message whose turn broke off and could not be checked with the server:
/// its message (and the partial reply, if any) stay on screen marked interrupted until a load
/// shows the server's copy of it.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct InterruptedTurn {
    /// What was sent; `optimistic_id` is the message on screen.
    pub(super) sent: OutgoingMessage,
    /// The local message holding what arrived of the reply.
    pub(super) reply_id: Option<String>,
}

/// The history list's lifecycle. `has_more` is what the last page said and stays
/// while the next one loads, so "load more" does not flicker during a refresh.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(super) enum HistoryState {
    /// No page was asked for yet (history off, or before the agents answered).
    #[default]
    NotStarted,
    /// A page is on its way.
    Loading { has_more: bool },
    /// The last page arrived (or failed).
    Loaded { has_more: bool },
}

impl HistoryState {
    pub(super) fn has_more(self) -> bool {
        match self {
            HistoryState::NotStarted => false,
            HistoryState::Loading { has_more } | HistoryState::Loaded { has_more } => has_more,
        }
    }

    pub(super) fn is_loading(self) -> bool {
        matches!(self, HistoryState::Loading { .. })
    }

    pub(super) fn is_started(self) -> bool {
        self != HistoryState::NotStarted
    }
}

/// Older messages of the open conversation on the server (`GET /conversations/:id/messages`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(super) enum OlderPages {
    /// Everything from the first message is loaded (or nothing is open).
    #[default]
    None,
    /// Older messages exist and none are on their way.
    Available,
    /// An older page is on its way (so older messages exist).
    Loading,
    /// The older messages are in the `GET /conversations/:id` answer still being read; they join
    /// the newest ones, shown already, when the reading ends.
    Reading,
}

impl OlderPages {
    /// Older messages exist on the server, loading or not.
    pub(super) fn exist(self) -> bool {
        self != OlderPages::None
    }

    /// Older messages exist (`Available`) or not (`None`), with nothing on its way.
    pub(super) fn idle(exist: bool) -> OlderPages {
        if exist {
            OlderPages::Available
        } else {
            OlderPages::None
        }
    }

    /// Older messages are on their way, from the server or the answer being read.
    pub(super) fn arriving(self) -> bool {
        matches!(self, OlderPages::Loading | OlderPages::Reading)
    }

    /// `exist` as a state, keeping a page on its way on its way. A window that reaches the
    /// first message ends `Loading` too: nothing older is left to wait for (the page still on
    /// its way is then deduplicated to nothing by `on_older`).
    pub(super) fn with_exist(self, exist: bool) -> OlderPages {
        match (exist, self) {
            (false, _) => OlderPages::None,
            (true, OlderPages::Loading) => OlderPages::Loading,
            (true, OlderPages::Reading) => OlderPages::Reading,
            (true, _) => OlderPages::Available,
        }
    }
}
