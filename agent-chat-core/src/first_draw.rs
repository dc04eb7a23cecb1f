//! The first draw of a chat that takes over an instant shell, spread over several tasks of
//! the browser, so that no single task blocks the page for long while the WebAssembly starts
//! (its code is compiled as it first runs, so the first draw costs several times what a
//! later one does).
//!
//! Invariant: **a staged chat is shown only once every part of its first screen is drawn,
//! and it is never hidden again for this reason.** Until then the shell stays in front,
//! taking typing, and hands over when the chat shows; so a person sees the shell and then
//! the whole chat, never a chat with parts missing, and nothing typed is lost between them.
//!
//! A chat without a shell in front of it (a host's own `<Chat/>`, a test) draws everything in
//! its first task, as it always did: nothing would cover its parts while they are missing.

/// How a chat draws its first screen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FirstDraw {
    /// Everything in the task that creates the chat.
    #[default]
    AtOnce,
    /// In [`Stage`]s, each in a task of its own, behind the shell it takes over.
    Staged,
}

/// How far the first draw has come. Ordered: each stage draws what the ones before drew.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// The chat's root with its theme, language and sheets, and its state (the session
    /// starts, its first requests leave).
    Frame,
    /// The composer, which the shell will hand its text to.
    Composer,
    /// Everything else of the first screen: header, message list, error banner, history.
    Parts,
    /// Drawn whole: the chat may show, and the shell hands over.
    Shown,
}

impl Stage {
    /// The stage a chat starts in.
    pub fn first(draw: FirstDraw) -> Stage {
        match draw {
            FirstDraw::AtOnce => Stage::Shown,
            FirstDraw::Staged => Stage::Frame,
        }
    }

    /// The stage the next task moves to; `None` once shown.
    pub fn next(self) -> Option<Stage> {
        match self {
            Stage::Frame => Some(Stage::Composer),
            Stage::Composer => Some(Stage::Parts),
            Stage::Parts => Some(Stage::Shown),
            Stage::Shown => None,
        }
    }

    /// Whether the composer is drawn.
    pub fn draws_composer(self) -> bool {
        self >= Stage::Composer
    }

    /// Whether the header, the message list, the error banner and the history are drawn.
    pub fn draws_parts(self) -> bool {
        self >= Stage::Parts
    }

    /// Whether the chat is hidden (the shell in front): until it is drawn whole, or while it
    /// waits for its language's texts (`waiting_for_texts`), whichever is longer.
    pub fn hidden(self, waiting_for_texts: bool) -> bool {
        waiting_for_texts || self < Stage::Shown
    }
}
