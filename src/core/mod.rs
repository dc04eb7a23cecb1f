//! Sans-IO core: protocol types, SSE decoder, the `Session` state machine, approval and
//! question cards, the argsSchema checker, the i18n catalog and the Markdown parser. Only std,
//! serde, serde_json, thiserror, chrono, fluent, regex-lite and pulldown-cmark here: no
//! browser, no view crates, no clocks (time is an input). Checked by tests/core/layering.rs.

pub mod actions;
pub mod api;
pub mod chunk;
pub mod decision_keys;
pub mod draft;
pub mod edit;
pub mod endpoint;
pub mod error;
pub mod files;
pub mod first_draw;
pub mod form;
pub mod i18n;
pub mod json_slices;
pub mod lenient;
pub mod markdown;
pub mod operation;
pub mod schema;
pub mod session;
pub mod sse;
pub mod stage;
pub mod stream_text;
pub mod theme;
pub mod time;
pub mod transitions;
pub mod transport;
pub mod url;
pub mod variants;
pub mod wire;

pub use actions::*;
pub use chunk::Chunk;
pub use decision_keys::{DecisionKey, DecisionKeys};
pub use draft::{
    blocked, check_resolve, edit_allowed, live_focus, may_answer, may_answer_in_list,
    ApprovalDraft, LiveFocus, QuestionAnswer, QuestionDraft, ResolveContext, ResolveRefusal, Shown,
};
pub use edit::{
    apply_field, diff_args, field_text, field_value, ArgChange, FieldKind, FormField, ListField,
};
pub use error::*;
pub use files::{
    base64_encode, format_file_size, FileCheck, FileMeta, FileRejection, PendingFile, UploadLimits,
};
pub use form::{
    add_item, field_at, form_fields, pointer_of, remove_item, set_at, MAX_FIELDS, MAX_FORM_DEPTH,
    MAX_FORM_FIELDS,
};
#[cfg(not(feature = "split"))]
pub use i18n::LOCALES;
pub use i18n::{
    is_rtl, match_locale, pick_locale, react_key_to_id, Arg, Catalog, DEFAULT_LOCALE, SHIPPED,
};
pub use operation::{Operation, Parameter, Statement, Target, TargetRole};
pub use schema::{
    args_equal, blocks, check_args, check_args_text, check_value, set_pattern_engine, ArgsCheck,
    PatternEngine, Problem, ProblemKind,
};
pub use session::*;
pub use sse::*;
pub use stage::{CardStage, DecidedBy, Receipt};
pub use stream_text::StreamText;
pub use time::*;
pub use transitions::{steps, Step, StepKind};
pub use variants::{current_variant, form_variants, switch_variant, Variant};
pub use wire::*;
