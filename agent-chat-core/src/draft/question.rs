//! The question card's view model: what the person picked or typed for each question, when
//! the card submits by itself, when Send and Skip are offered, and the answer they produce.

use std::collections::BTreeMap;

use super::Shown;
use crate::actions::CardState;
use crate::time::Millis;
use crate::wire::{ActionKind, AnswerValue, PendingAction, Question, Resolution};

/// What the person picked or typed for one question.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct QuestionAnswer {
    /// Picked option values (one at most for a single choice).
    pub picked: Vec<String>,
    /// Typed free text.
    pub text: String,
}

/// What the person sees and answers on one question card.
#[derive(Clone, Debug, PartialEq)]
pub struct QuestionDraft {
    shown: Shown,
    questions: Vec<Question>,
    allow_free_text: Option<bool>,
    expires_at: Option<Millis>,
    answers: Vec<QuestionAnswer>,
}

impl QuestionDraft {
    /// A fresh draft of `action` (`None` unless it is a `user_question`).
    pub fn new(action: &PendingAction) -> Option<QuestionDraft> {
        let ActionKind::UserQuestion(q) = &action.kind else {
            return None;
        };
        Some(QuestionDraft {
            shown: Shown::of(action),
            questions: q.questions.clone(),
            allow_free_text: q.allow_free_text,
            expires_at: action.expires_at,
            answers: vec![QuestionAnswer::default(); q.questions.len()],
        })
    }

    /// The request as drawn; what an answer of this draft is for.
    pub fn shown(&self) -> &Shown {
        &self.shown
    }

    /// The questions, in order.
    pub fn questions(&self) -> &[Question] {
        &self.questions
    }

    /// What was picked or typed for question `index`.
    pub fn answer(&self, index: usize) -> Option<&QuestionAnswer> {
        self.answers.get(index)
    }

    /// Whether question `index` offers a free-text field.
    pub fn offers_free_text(&self, index: usize) -> bool {
        self.questions
            .get(index)
            .is_some_and(|q| q.offers_free_text(self.allow_free_text))
    }

    /// "A single single-choice question submits as soon as an option is picked" —
    /// unless an option has a preview (the person may want to look first). A free-text field
    /// next to the options does not change that; it keeps its own Send.
    pub fn submits_on_pick(&self) -> bool {
        matches!(self.questions.as_slice(), [q] if !q.multi_select
            && !q.options.is_empty()
            && q.options.iter().all(|o| o.preview.is_none()))
    }

    /// Whether Send is offered: always, except for a card that submits on pick and has no
    /// free-text field.
    pub fn offers_send(&self) -> bool {
        !self.submits_on_pick() || self.offers_free_text(0)
    }

    /// Skip (`cancelled: true`) is offered only when no question is required.
    pub fn offers_skip(&self) -> bool {
        !self.questions.iter().any(|q| q.required)
    }

    /// The person chose `value` for question `index` (a click, Space or Enter on the option;
    /// never an arrow key). For a single choice the typed text is cleared, so the answer is
    /// always what is on screen. Returns the answer to send at once when the card submits on
    /// pick; `None` otherwise, or when `value` is not an option of the question.
    pub fn pick(&mut self, index: usize, value: &str) -> Option<Resolution> {
        let question = self.questions.get(index)?;
        if !question.options.iter().any(|o| o.value == value) {
            return None;
        }
        let answer = &mut self.answers[index];
        if question.multi_select {
            if !answer.picked.iter().any(|v| v == value) {
                answer.picked.push(value.to_owned());
            }
            return None;
        }
        answer.picked = vec![value.to_owned()];
        answer.text.clear();
        self.submits_on_pick().then(|| self.send())
    }

    /// A multi-select checkbox was ticked (`on`) or cleared.
    pub fn toggle(&mut self, index: usize, value: &str, on: bool) {
        let Some(question) = self.questions.get(index) else {
            return;
        };
        if !question.multi_select || !question.options.iter().any(|o| o.value == value) {
            return;
        }
        let picked = &mut self.answers[index].picked;
        picked.retain(|v| v != value);
        if on {
            picked.push(value.to_owned());
        }
    }

    /// The person typed in question `index`'s free-text field. For a single choice, text
    /// replaces the picked option visibly (the radio clears), never silently.
    pub fn set_text(&mut self, index: usize, text: String) {
        if !self.offers_free_text(index) {
            return;
        }
        let multi = self.questions[index].multi_select;
        let answer = &mut self.answers[index];
        if !multi && !text.trim().is_empty() {
            answer.picked.clear();
        }
        answer.text = text;
    }

    /// Every required question has an answer.
    pub fn ready(&self) -> bool {
        self.questions
            .iter()
            .zip(&self.answers)
            .all(|(q, a)| !q.required || !a.picked.is_empty() || !a.text.trim().is_empty())
    }

    /// The deadline has passed at `now` (server time).
    pub fn expired(&self, now: Millis) -> bool {
        self.expires_at.is_some_and(|t| t <= now)
    }

    /// Options and fields take input: the card waits, may be answered here and is in time.
    pub fn open(&self, now: Millis, state: &CardState, read_only: bool) -> bool {
        *state == CardState::Waiting && !read_only && !self.expired(now)
    }

    /// Send is enabled: the gate's own rule ([`super::blocked`]: open and no reply streaming,
    /// `busy`) and every required question answered.
    pub fn can_send(&self, now: Millis, state: &CardState, read_only: bool, busy: bool) -> bool {
        self.decidable(now, state, read_only, busy) && self.ready()
    }

    /// Skip is enabled: decidable as for Send, and offered.
    pub fn can_skip(&self, now: Millis, state: &CardState, read_only: bool, busy: bool) -> bool {
        self.decidable(now, state, read_only, busy) && self.offers_skip()
    }

    fn decidable(&self, now: Millis, state: &CardState, read_only: bool, busy: bool) -> bool {
        super::blocked(
            state,
            self.expires_at,
            super::ResolveContext::card(now, read_only, busy),
        )
        .is_none()
    }

    /// The answer: single choice or free text -> a string; multi-select -> the values
    /// plus typed text as one more entry; unanswered optional questions are left out.
    pub fn send(&self) -> Resolution {
        let mut answers = BTreeMap::new();
        for (q, a) in self.questions.iter().zip(&self.answers) {
            let text = a.text.trim().to_owned();
            let value = if q.multi_select {
                let mut values = a.picked.clone();
                if !text.is_empty() {
                    values.push(text);
                }
                (!values.is_empty()).then_some(AnswerValue::Many(values))
            } else if let Some(picked) = a.picked.first() {
                Some(AnswerValue::One(picked.clone()))
            } else {
                (!text.is_empty()).then_some(AnswerValue::One(text))
            };
            if let Some(v) = value {
                answers.insert(q.question.clone(), v);
            }
        }
        Resolution::UserQuestion {
            answers,
            cancelled: false,
        }
    }

    /// Skip: `cancelled: true`, no answers.
    pub fn skip(&self) -> Resolution {
        Resolution::UserQuestion {
            answers: BTreeMap::new(),
            cancelled: true,
        }
    }
}
