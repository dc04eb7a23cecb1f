//! What the checker finds, as data the card words through Fluent: one [`ProblemKind`] per
//! keyword (with the keyword's parameters), and the kinds that say the checker could not judge
//! the edit at all ([`ProblemKind::is_unjudged`]).

use serde_json::Value;

use super::{MAX_DEPTH, MAX_WORK};

/// At most this many allowed values are named in an `enum` problem; the rest are "…".
pub const MAX_NAMED_VALUES: usize = 12;

/// One reason why edited arguments can not be approved, or why the checker could not judge
/// them ([`ProblemKind::is_unjudged`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// Where in the arguments, as a JSON Pointer (RFC 6901): `""` for the whole object,
    /// `"/to"`, `"/recipients/1/email"`. `~` and `/` inside keys are escaped as `~0` and `~1`.
    pub path: String,
    /// What is wrong, with the keyword's parameters.
    pub kind: ProblemKind,
}

/// What is wrong with a value: one variant per keyword, carrying the keyword's parameters so
/// that the UI can word it in any locale. The last variants say that the checker could not
/// judge the value ([`ProblemKind::is_unjudged`]).
#[derive(Debug, Clone, PartialEq)]
pub enum ProblemKind {
    /// The editor text is not JSON. Both numbers are 1-based; `column` counts characters.
    InvalidJson {
        /// Line of the error.
        line: usize,
        /// Column of the error, in characters.
        column: usize,
    },
    /// The text is JSON but not an object; arguments are always an object.
    NotObject,
    /// `type`: the value has none of the `expected` types. Empty for the schema `false`.
    Type {
        /// The allowed type names, as the schema wrote them.
        expected: Vec<String>,
    },
    /// `enum`: the value is none of the allowed values.
    Enum {
        /// The allowed values.
        allowed: Vec<Value>,
    },
    /// `const`: the value is not the one allowed value.
    Const {
        /// The only allowed value.
        expected: Value,
    },
    /// `required`: the object lacks a property.
    Required {
        /// The missing property.
        property: String,
    },
    /// `additionalProperties` (`false`, or a schema the value breaks): the object has a
    /// property the schema does not list.
    AdditionalProperties {
        /// The unexpected property.
        property: String,
    },
    /// `minimum`: the number is smaller than `limit`.
    Minimum {
        /// The smallest allowed number.
        limit: f64,
    },
    /// `maximum`: the number is larger than `limit`.
    Maximum {
        /// The largest allowed number.
        limit: f64,
    },
    /// `exclusiveMinimum` (a number, or `true` next to `minimum`): the number is not above `limit`.
    ExclusiveMinimum {
        /// The number has to be larger than this.
        limit: f64,
    },
    /// `exclusiveMaximum` (a number, or `true` next to `maximum`): the number is not below `limit`.
    ExclusiveMaximum {
        /// The number has to be smaller than this.
        limit: f64,
    },
    /// `multipleOf`: the number is not a whole multiple of `divisor`.
    MultipleOf {
        /// The number has to be a whole multiple of this.
        divisor: f64,
    },
    /// `minLength`: the text has fewer than `limit` characters (Unicode scalar values).
    MinLength {
        /// The fewest characters allowed.
        limit: u64,
    },
    /// `maxLength`: the text has more than `limit` characters (Unicode scalar values).
    MaxLength {
        /// The most characters allowed.
        limit: u64,
    },
    /// `pattern`: the text does not match the regular expression.
    Pattern {
        /// The regular expression, as the schema wrote it.
        pattern: String,
    },
    /// `format`: the text is not a valid `format` (email, uri, date, date-time, time, uuid...).
    Format {
        /// The format's name, as the schema wrote it.
        format: String,
    },
    /// `minItems`: the list has fewer than `limit` items.
    MinItems {
        /// The fewest items allowed.
        limit: u64,
    },
    /// `maxItems`: the list has more than `limit` items.
    MaxItems {
        /// The most items allowed.
        limit: u64,
    },
    /// `uniqueItems`: two items of the list are equal.
    UniqueItems {
        /// The 0-based position of the first of the two equal items.
        first: usize,
        /// The 0-based position of the second.
        second: usize,
    },
    /// `contains` (with `minContains`): fewer than `limit` items match the `contains` schema.
    MinContains {
        /// The fewest matching items allowed (1 for a plain `contains`).
        limit: u64,
    },
    /// `maxContains`: more than `limit` items match the `contains` schema.
    MaxContains {
        /// The most matching items allowed.
        limit: u64,
    },
    /// `minProperties`: the object has fewer than `limit` properties.
    MinProperties {
        /// The fewest properties allowed.
        limit: u64,
    },
    /// `maxProperties`: the object has more than `limit` properties.
    MaxProperties {
        /// The most properties allowed.
        limit: u64,
    },
    /// `dependentRequired` (or draft 7's array `dependencies`): `property` is there, so
    /// `required` has to be too.
    DependentRequired {
        /// The property that is there.
        property: String,
        /// The property that has to come with it.
        required: String,
    },
    /// `propertyNames`: a property's name breaks the schema for names.
    PropertyName {
        /// The property whose name is not allowed.
        property: String,
    },
    /// `anyOf`: the value matches none of the alternatives.
    AnyOf {
        /// A short name per alternative (see the module notes of `schema`).
        variants: Vec<String>,
    },
    /// `oneOf`: the value matches `matched` alternatives instead of exactly one.
    OneOf {
        /// How many alternatives matched (0, or 2 and more).
        matched: usize,
        /// A short name per alternative.
        variants: Vec<String>,
    },
    /// `not`: the value matches the schema it must not match.
    Not,
    /// Cannot judge: the schema nests deeper than [`MAX_DEPTH`] (counting `$ref` hops).
    TooDeep,
    /// Cannot judge: the check took more than [`MAX_WORK`] steps and stopped.
    TooMuchWork,
    /// Cannot judge: a `$ref` points outside the schema. Nothing is ever fetched.
    RemoteRef {
        /// The reference, as the schema wrote it.
        reference: String,
    },
    /// Cannot judge: a `$ref` leads back to itself without the value moving on.
    RefCycle {
        /// The reference that closed the loop, as the schema wrote it.
        reference: String,
    },
    /// Cannot judge: `$schema` names a dialect the checker does not know.
    UnknownDialect {
        /// The `$schema` value.
        dialect: String,
    },
    /// Cannot judge: a keyword's value is larger than the checker takes (a huge `enum`,
    /// a very long `pattern`).
    TooLarge {
        /// The keyword (`enum`, `pattern`...).
        keyword: String,
    },
    /// Cannot judge: the schema uses a keyword that changes what is valid and that the
    /// checker does not evaluate (2019-09's `$recursiveRef`).
    Unsupported {
        /// The keyword.
        keyword: String,
    },
    /// Cannot judge: the checker has not been loaded yet (the answer gate of a `split` build
    /// before the cards' part came).
    NotLoaded,
    /// The edit changes a value the tool's policy keeps as proposed (`readOnly`, or the
    /// server's `readOnlyArgs`).
    ReadOnly,
    /// Cannot judge: the regular expression engine can not read a `pattern`.
    UnreadablePattern {
        /// The regular expression, as the schema wrote it.
        pattern: String,
    },
}

impl ProblemKind {
    /// The Fluent message id that words this problem (`chat-action-schema-*`).
    pub fn fluent_id(&self) -> &'static str {
        match self {
            ProblemKind::InvalidJson { .. } => "chat-action-schema-invalid-json",
            ProblemKind::NotObject => "chat-action-schema-not-object",
            ProblemKind::Type { .. } => "chat-action-schema-type",
            ProblemKind::Enum { .. } => "chat-action-schema-enum",
            ProblemKind::Const { .. } => "chat-action-schema-const",
            ProblemKind::Required { .. } => "chat-action-schema-required",
            ProblemKind::AdditionalProperties { .. } => "chat-action-schema-additional-properties",
            ProblemKind::Minimum { .. } => "chat-action-schema-minimum",
            ProblemKind::Maximum { .. } => "chat-action-schema-maximum",
            ProblemKind::ExclusiveMinimum { .. } => "chat-action-schema-exclusive-minimum",
            ProblemKind::ExclusiveMaximum { .. } => "chat-action-schema-exclusive-maximum",
            ProblemKind::MultipleOf { .. } => "chat-action-schema-multiple-of",
            ProblemKind::MinLength { .. } => "chat-action-schema-min-length",
            ProblemKind::MaxLength { .. } => "chat-action-schema-max-length",
            ProblemKind::Pattern { .. } => "chat-action-schema-pattern",
            ProblemKind::Format { .. } => "chat-action-schema-format",
            ProblemKind::MinItems { .. } => "chat-action-schema-min-items",
            ProblemKind::MaxItems { .. } => "chat-action-schema-max-items",
            ProblemKind::UniqueItems { .. } => "chat-action-schema-unique-items",
            ProblemKind::MinContains { .. } => "chat-action-schema-min-contains",
            ProblemKind::MaxContains { .. } => "chat-action-schema-max-contains",
            ProblemKind::MinProperties { .. } => "chat-action-schema-min-properties",
            ProblemKind::MaxProperties { .. } => "chat-action-schema-max-properties",
            ProblemKind::DependentRequired { .. } => "chat-action-schema-dependent-required",
            ProblemKind::PropertyName { .. } => "chat-action-schema-property-name",
            ProblemKind::AnyOf { .. } => "chat-action-schema-any-of",
            ProblemKind::OneOf { matched: 0, .. } => "chat-action-schema-one-of-none",
            ProblemKind::OneOf { .. } => "chat-action-schema-one-of",
            ProblemKind::Not => "chat-action-schema-not",
            ProblemKind::TooDeep => "chat-action-schema-too-deep",
            ProblemKind::TooMuchWork => "chat-action-schema-too-much-work",
            ProblemKind::RemoteRef { .. } => "chat-action-schema-remote-ref",
            ProblemKind::RefCycle { .. } => "chat-action-schema-ref-cycle",
            ProblemKind::UnknownDialect { .. } => "chat-action-schema-unknown-dialect",
            ProblemKind::TooLarge { .. } => "chat-action-schema-too-large",
            ProblemKind::Unsupported { .. } => "chat-action-schema-unsupported",
            ProblemKind::NotLoaded => "chat-action-schema-not-loaded",
            ProblemKind::ReadOnly => "chat-action-schema-read-only",
            ProblemKind::UnreadablePattern { .. } => "chat-action-schema-unreadable-pattern",
        }
    }

    /// The checker could not judge the value (the schema is out of its reach or over its
    /// bounds). Such a problem does not block Approve: the card says the edit was not fully
    /// checked, and the server checks it again. Every other kind blocks Approve.
    pub fn is_unjudged(&self) -> bool {
        matches!(
            self,
            ProblemKind::TooDeep
                | ProblemKind::TooMuchWork
                | ProblemKind::RemoteRef { .. }
                | ProblemKind::RefCycle { .. }
                | ProblemKind::UnknownDialect { .. }
                | ProblemKind::TooLarge { .. }
                | ProblemKind::Unsupported { .. }
                | ProblemKind::NotLoaded
                | ProblemKind::UnreadablePattern { .. }
        )
    }
}

impl Problem {
    pub(super) fn new(path: &str, kind: ProblemKind) -> Self {
        Problem {
            path: path.to_owned(),
            kind,
        }
    }

    /// The variables for the Fluent message [`ProblemKind::fluent_id`], as text.
    ///
    /// Always `path` (`"/"` for the whole object, so a message never starts with an empty
    /// word), plus per kind: `line`, `column` (invalid JSON); `expected` (type names joined by
    /// `", "`) and `count` (how many; `0` for the schema `false`) (type); `allowed` (JSON texts
    /// joined by `", "`, at most [`MAX_NAMED_VALUES`] then `…`) (enum); `expected` (JSON text)
    /// (const); `property` (required, additional properties, property names, dependent
    /// required, with `required`); `limit` (the number keywords, lengths, counts, too-deep and
    /// too-much-work); `divisor`; `pattern`; `format`; `first`, `second` (1-based positions)
    /// (unique items); `variants` (joined by `", "`) and `matched` (one-of); `reference`;
    /// `dialect`; `keyword`.
    pub fn fluent_args(&self) -> Vec<(&'static str, String)> {
        let path = if self.path.is_empty() {
            "/".to_owned()
        } else {
            self.path.clone()
        };
        let mut args = vec![("path", path)];
        match &self.kind {
            ProblemKind::InvalidJson { line, column } => {
                args.push(("line", line.to_string()));
                args.push(("column", column.to_string()));
            }
            ProblemKind::NotObject
            | ProblemKind::Not
            | ProblemKind::NotLoaded
            | ProblemKind::ReadOnly => {}
            ProblemKind::Type { expected } => {
                args.push(("expected", expected.join(", ")));
                args.push(("count", expected.len().to_string()));
            }
            ProblemKind::Enum { allowed } => {
                let mut texts: Vec<String> = allowed
                    .iter()
                    .take(MAX_NAMED_VALUES)
                    .map(Value::to_string)
                    .collect();
                if allowed.len() > MAX_NAMED_VALUES {
                    texts.push("…".to_owned());
                }
                args.push(("allowed", texts.join(", ")));
            }
            ProblemKind::Const { expected } => args.push(("expected", expected.to_string())),
            ProblemKind::Required { property }
            | ProblemKind::AdditionalProperties { property }
            | ProblemKind::PropertyName { property } => {
                args.push(("property", property.clone()));
            }
            ProblemKind::DependentRequired { property, required } => {
                args.push(("property", property.clone()));
                args.push(("required", required.clone()));
            }
            ProblemKind::Minimum { limit }
            | ProblemKind::Maximum { limit }
            | ProblemKind::ExclusiveMinimum { limit }
            | ProblemKind::ExclusiveMaximum { limit } => args.push(("limit", limit.to_string())),
            ProblemKind::MultipleOf { divisor } => args.push(("divisor", divisor.to_string())),
            ProblemKind::MinLength { limit }
            | ProblemKind::MaxLength { limit }
            | ProblemKind::MinItems { limit }
            | ProblemKind::MaxItems { limit }
            | ProblemKind::MinContains { limit }
            | ProblemKind::MaxContains { limit }
            | ProblemKind::MinProperties { limit }
            | ProblemKind::MaxProperties { limit } => args.push(("limit", limit.to_string())),
            ProblemKind::Pattern { pattern } | ProblemKind::UnreadablePattern { pattern } => {
                args.push(("pattern", pattern.clone()))
            }
            ProblemKind::Format { format } => args.push(("format", format.clone())),
            ProblemKind::UniqueItems { first, second } => {
                args.push(("first", (first + 1).to_string()));
                args.push(("second", (second + 1).to_string()));
            }
            ProblemKind::AnyOf { variants } => args.push(("variants", variants.join(", "))),
            ProblemKind::OneOf { matched, variants } => {
                args.push(("variants", variants.join(", ")));
                args.push(("matched", matched.to_string()));
            }
            ProblemKind::TooDeep => args.push(("limit", MAX_DEPTH.to_string())),
            ProblemKind::TooMuchWork => args.push(("limit", MAX_WORK.to_string())),
            ProblemKind::RemoteRef { reference } | ProblemKind::RefCycle { reference } => {
                args.push(("reference", reference.clone()))
            }
            ProblemKind::UnknownDialect { dialect } => args.push(("dialect", dialect.clone())),
            ProblemKind::TooLarge { keyword } | ProblemKind::Unsupported { keyword } => {
                args.push(("keyword", keyword.clone()))
            }
        }
        args
    }
}
