//! The questions of a `user_question` action, their choices, and how each is read.

use super::*;

/// Fields of a `user_question` action.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UserQuestion {
    /// The questions (entries without question text are dropped).
    pub questions: Vec<Question>,
    /// Action-level `allowFreeText` (as the SDK's snapshot has it); a question's own value wins.
    pub allow_free_text: Option<bool>,
    /// A line under the heading that says what the questions are for (`summary`).
    pub summary: Option<String>,
}

/// One question of a `user_question` action.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Question {
    /// Full text; also the key of its answer.
    pub question: String,
    /// Short chip above the question.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub header: Option<String>,
    /// Choices (may be empty).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<QuestionOption>,
    /// Checkboxes instead of a single choice.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub multi_select: bool,
    /// Question-level `allowFreeText` as sent; see [`Question::offers_free_text`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allow_free_text: Option<bool>,
    /// Hint in the free-text field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placeholder: Option<String>,
    /// `false` = optional (default `true`).
    pub required: bool,
}

impl Question {
    /// A required free-text question with only its text set.
    #[must_use]
    pub fn new(question: impl Into<String>) -> Question {
        Question {
            question: question.into(),
            header: None,
            options: Vec::new(),
            multi_select: false,
            allow_free_text: None,
            placeholder: None,
            required: true,
        }
    }

    /// Whether a free-text field is offered: always when there are no options;
    /// otherwise unless `allowFreeText` is `false`, the question's value winning over the
    /// action-level one.
    #[must_use]
    pub fn offers_free_text(&self, action_level: Option<bool>) -> bool {
        self.options.is_empty() || self.allow_free_text.or(action_level).unwrap_or(true)
    }

    /// Reads a question object (or a bare string as the question text); `None` without text.
    #[must_use]
    pub fn from_json(v: &Value) -> Option<Question> {
        if let Value::String(s) = v {
            return (!s.is_empty()).then(|| Question::new(s.clone()));
        }
        let obj = v.as_object()?;
        let question = field(obj, &["question", "text"])
            .and_then(str_of)
            .filter(|s| !s.is_empty())?;
        Some(Question {
            question,
            header: obj.get("header").and_then(str_of),
            options: list_of(obj.get("options"), QuestionOption::from_json),
            multi_select: obj.get("multiSelect").and_then(bool_of).unwrap_or(false),
            allow_free_text: obj.get("allowFreeText").and_then(bool_of),
            placeholder: obj.get("placeholder").and_then(str_of),
            required: obj.get("required").and_then(bool_of).unwrap_or(true),
        })
    }
}

impl<'de> Deserialize<'de> for Question {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Question::from_json(&Value::deserialize(d)?)
            .ok_or_else(|| D::Error::custom("question without text"))
    }
}

/// One choice of a [`Question`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct QuestionOption {
    /// Text on the choice.
    pub label: String,
    /// Value sent in the answer (defaults to `label`).
    pub value: String,
    /// Longer explanation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Code/text shown collapsed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preview: Option<String>,
}

impl QuestionOption {
    /// Reads an option object (or a bare string/number as label and value); `None` when it has
    /// neither label nor value.
    #[must_use]
    pub fn from_json(v: &Value) -> Option<QuestionOption> {
        if let Some(s) = id_of(v) {
            return Some(QuestionOption {
                label: s.clone(),
                value: s,
                description: None,
                preview: None,
            });
        }
        let obj = v.as_object()?;
        let label = obj.get("label").and_then(str_of).filter(|s| !s.is_empty());
        let value = obj.get("value").and_then(id_of);
        let (label, value) = match (label, value) {
            (Some(l), Some(v)) => (l, v),
            (Some(l), None) => (l.clone(), l),
            (None, Some(v)) => (v.clone(), v),
            (None, None) => return None,
        };
        Some(QuestionOption {
            label,
            value,
            description: obj.get("description").and_then(str_of),
            preview: obj.get("preview").and_then(|p| match p {
                Value::String(s) => Some(s.clone()),
                Value::Null => None,
                other => Some(other.to_string()),
            }),
        })
    }
}

impl<'de> Deserialize<'de> for QuestionOption {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        QuestionOption::from_json(&Value::deserialize(d)?)
            .ok_or_else(|| D::Error::custom("option without label or value"))
    }
}
