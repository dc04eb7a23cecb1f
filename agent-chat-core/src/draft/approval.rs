//! The approval card's view model: the proposal as shown, the editor text and what it makes
//! of it (problems, diff, form fields), "don't ask again", the reason, and the decision.

use serde_json::Value;

use super::Shown;
use crate::actions::{approval_resolution, CardState};
use crate::edit::{diff_args, field_text, field_value};
use crate::form::{self, field_at, form_fields, pointer_of, set_at};
use crate::schema::{check_args, ArgsCheck, Problem};
use crate::time::Millis;
use crate::variants::{current_variant, form_variants, switch_variant, Variant};
use crate::wire::{ActionKind, Decline, PendingAction, Resolution, ToolApproval};
use crate::{ArgChange, FieldKind, FormField, ListField};

/// What the person sees and types on one approval card. The editor's text is the single source of
/// truth: the form fields, the problems and the diff all derive from it, recomputed once per
/// change.
#[derive(Clone, Debug, PartialEq)]
pub struct ApprovalDraft {
    shown: Shown,
    approval: ToolApproval,
    expires_at: Option<Millis>,
    edit_allowed: bool,
    proposal_text: String,
    text: String,
    /// `check_args` of `text`.
    checked: ArgsCheck,
    changes: Vec<ArgChange>,
    fields: Option<Vec<FormField>>,
    /// The alternatives of a `oneOf` / `anyOf` schema (empty without a variant form).
    variants: Vec<Variant>,
    /// The variant whose fields are shown.
    variant: usize,
    editing: bool,
    remember: bool,
    reason_open: bool,
    reason: String,
}

impl ApprovalDraft {
    /// A fresh draft of `action` (`None` unless it is a `tool_approval`). `edit_allowed` is the
    /// effective setting (see [`super::edit_allowed`]).
    pub fn new(action: &PendingAction, edit_allowed: bool) -> Option<ApprovalDraft> {
        let ActionKind::ToolApproval(approval) = &action.kind else {
            return None;
        };
        let proposal_text =
            serde_json::to_string_pretty(&approval.args).unwrap_or_else(|_| "{}".into());
        let (fields, variants) = if edit_allowed {
            let schema = approval.args_schema.as_ref();
            // The server's list locks a field of the form like the schema's `readOnly`.
            let locked = super::policy::read_only_names(approval);
            let lock = |fields: &mut Vec<FormField>| {
                for f in fields.iter_mut().filter(|f| locked.contains(&f.name)) {
                    form::lock(f);
                }
            };
            let mut fields = form_fields(schema);
            if let Some(fs) = fields.as_mut() {
                lock(fs);
            }
            let mut variants = form_variants(schema).unwrap_or_default();
            for v in &mut variants {
                lock(&mut v.fields);
            }
            (fields, variants)
        } else {
            (None, Vec::new())
        };
        let mut draft = ApprovalDraft {
            shown: Shown::of(action),
            approval: approval.clone(),
            expires_at: action.expires_at,
            edit_allowed,
            text: proposal_text.clone(),
            proposal_text,
            checked: ArgsCheck {
                value: None,
                problems: Vec::new(),
            },
            changes: Vec::new(),
            fields,
            variant: current_variant(&variants, None, &approval.args),
            variants,
            editing: false,
            remember: false,
            reason_open: approval.decline == Some(Decline::WithReason),
            reason: String::new(),
        };
        draft.recheck();
        Some(draft)
    }

    /// The request as drawn; what a decision of this draft is for.
    pub fn shown(&self) -> &Shown {
        &self.shown
    }

    /// The tool call as proposed.
    pub fn approval(&self) -> &ToolApproval {
        &self.approval
    }

    /// The tool's own name (`send_email`), always shown: the announcement says it too.
    pub fn tool_name(&self) -> &str {
        &self.approval.tool_name
    }

    /// The heading: the server's `title`, else the tool's own name.
    pub fn heading(&self) -> &str {
        self.approval
            .title
            .as_deref()
            .filter(|t| !t.trim().is_empty())
            .unwrap_or(&self.approval.tool_name)
    }

    /// The proposed arguments, pretty-printed (Details, and what Reset puts back).
    pub fn proposal_text(&self) -> &str {
        &self.proposal_text
    }

    /// Whether the argument editor is offered at all.
    pub fn edit_allowed(&self) -> bool {
        self.edit_allowed
    }

    /// The editor is open.
    pub fn editing(&self) -> bool {
        self.editing && self.edit_allowed
    }

    /// Opens or closes the editor (the text is kept either way).
    pub fn set_editing(&mut self, open: bool) {
        self.editing = open && self.edit_allowed;
    }

    /// The editor's text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The person typed in the editor. Ignored when editing is not allowed.
    pub fn set_text(&mut self, text: String) {
        if !self.edit_allowed || text == self.text {
            return;
        }
        self.text = text;
        self.recheck();
    }

    /// "Reset arguments": the proposal again.
    pub fn reset(&mut self) {
        self.text = self.proposal_text.clone();
        self.recheck();
    }

    /// Form fields for a flat schema, or the shown variant's (only when editing is allowed).
    pub fn fields(&self) -> Option<&[FormField]> {
        match self.variants.get(self.variant) {
            Some(variant) => Some(&variant.fields),
            None => self.fields.as_deref(),
        }
    }

    /// The names of the schema's alternatives when the form offers a choice of variant
    /// (`oneOf` / `anyOf` of flat objects); empty otherwise.
    pub fn variant_names(&self) -> Vec<String> {
        self.variants.iter().map(|v| v.name.clone()).collect()
    }

    /// The variant whose fields are shown (0 without a variant form).
    pub fn variant(&self) -> usize {
        self.variant
    }

    /// The person chose variant `index`: the text drops the old variant's own properties and
    /// takes the new one's `const`s and defaults. Ignored while the text is not an object.
    pub fn set_variant(&mut self, index: usize) {
        let (Some(from), Some(to)) = (self.variants.get(self.variant), self.variants.get(index))
        else {
            return;
        };
        if index == self.variant {
            return;
        }
        if let Some(next) = switch_variant(&self.text, from, to) {
            self.variant = index;
            self.set_text(next);
        }
    }

    /// The fields can be used: the text is a JSON object (otherwise fix the JSON first).
    pub fn fields_enabled(&self) -> bool {
        matches!(
            serde_json::from_str::<Value>(&self.text),
            Ok(Value::Object(_))
        )
    }

    /// A top-level field's current value as the control shows it.
    pub fn field_text(&self, name: &str) -> String {
        self.field_text_at(&pointer_of("", name))
    }

    /// The current value at `pointer` (`/order/items/0/qty`) as its control shows it.
    pub fn field_text_at(&self, pointer: &str) -> String {
        match serde_json::from_str::<Value>(&self.text) {
            Ok(whole @ Value::Object(_)) => field_text(whole.pointer(pointer)),
            _ => String::new(),
        }
    }

    /// A top-level field's control changed (see [`ApprovalDraft::set_field_at`]).
    pub fn set_field(&mut self, name: &str, raw: &str) {
        self.set_field_at(&pointer_of("", name), raw);
    }

    /// The control at `pointer` changed: writes the value into the text (or removes the
    /// property when the control is emptied). Ignored while the text is not an object, for a
    /// field the form does not have, and for a read-only or `const` one.
    pub fn set_field_at(&mut self, pointer: &str, raw: &str) {
        let Some(field) = self.fields().and_then(|fs| field_at(fs, pointer)) else {
            return;
        };
        let editable = matches!(
            field.kind,
            FieldKind::Text
                | FieldKind::Number
                | FieldKind::Integer
                | FieldKind::Boolean
                | FieldKind::Choice(_)
        );
        if field.read_only || !editable {
            return;
        }
        let value = field_value(&field.kind.clone(), raw);
        if let Some(next) = set_at(&self.text, pointer, value) {
            self.set_text(next);
        }
    }

    /// The list field at `pointer`, when the form has one there.
    fn list_at(&self, pointer: &str) -> Option<ListField> {
        match &self.fields().and_then(|fs| field_at(fs, pointer))?.kind {
            FieldKind::List(list) => Some((**list).clone()),
            _ => None,
        }
    }

    /// How many items the array at `pointer` has now (0 when absent or not an array).
    pub fn item_count(&self, pointer: &str) -> usize {
        serde_json::from_str::<Value>(&self.text)
            .ok()
            .and_then(|v| v.pointer(pointer).and_then(Value::as_array).map(Vec::len))
            .unwrap_or(0)
    }

    /// "Add an item" is offered for the list at `pointer`: not locked, below its `maxItems`,
    /// and the text is an object.
    pub fn can_add_item(&self, pointer: &str) -> bool {
        self.list_at(pointer).is_some_and(|list| {
            !list.locked
                && self.fields_enabled()
                && list
                    .max_items
                    .is_none_or(|max| self.item_count(pointer) < max)
        })
    }

    /// "Remove" is offered for the items of the list at `pointer`: not locked, above its
    /// `minItems`, and the text is an object.
    pub fn can_remove_item(&self, pointer: &str) -> bool {
        self.list_at(pointer).is_some_and(|list| {
            !list.locked && self.fields_enabled() && self.item_count(pointer) > list.min_items
        })
    }

    /// Adds an item to the list at `pointer` (its `const`s and defaults). Ignored when not
    /// offered ([`ApprovalDraft::can_add_item`]).
    pub fn add_item(&mut self, pointer: &str) {
        let Some(list) = self.list_at(pointer) else {
            return;
        };
        if let Some(next) = form::add_item(&self.text, pointer, &list) {
            self.set_text(next);
        }
    }

    /// Removes item `index` of the list at `pointer`. Ignored when not offered
    /// ([`ApprovalDraft::can_remove_item`]).
    pub fn remove_item(&mut self, pointer: &str, index: usize) {
        let Some(list) = self.list_at(pointer) else {
            return;
        };
        if let Some(next) = form::remove_item(&self.text, pointer, index, &list) {
            self.set_text(next);
        }
    }

    /// What is wrong with the edit, in order; empty while the text is the untouched proposal
    /// (the proposal is the agent's, and the server checks it again). Every one blocks
    /// Approve; the "cannot judge" notes are in [`ApprovalDraft::unjudged`].
    pub fn problems(&self) -> &[Problem] {
        if self.text == self.proposal_text || self.checked.value.is_some() {
            return &[];
        }
        let problems = &self.checked.problems;
        let blocking = problems
            .iter()
            .position(|p| p.kind.is_unjudged())
            .unwrap_or(problems.len());
        &problems[..blocking]
    }

    /// Why the checker could not judge the edit fully (a `$ref` outside the schema, a bound
    /// passed...); empty while the text is the untouched proposal. These do not block
    /// Approve: the card says the edit was not fully checked here, and the server checks it.
    pub fn unjudged(&self) -> &[Problem] {
        if self.text == self.proposal_text {
            return &[];
        }
        let problems = &self.checked.problems;
        let first = problems
            .iter()
            .position(|p| p.kind.is_unjudged())
            .unwrap_or(problems.len());
        &problems[first..]
    }

    /// What the edit changes against the proposal (empty when equal or not valid).
    pub fn changes(&self) -> &[ArgChange] {
        &self.changes
    }

    /// The arguments differ from the proposal ("Arguments edited").
    pub fn is_edited(&self) -> bool {
        !self.changes.is_empty()
    }

    /// "Don't ask again for this tool in this chat".
    pub fn remember(&self) -> bool {
        self.remember
    }

    /// Ticks or clears "don't ask again".
    pub fn set_remember(&mut self, on: bool) {
        self.remember = on;
    }

    /// The reason field is on screen.
    pub fn reason_open(&self) -> bool {
        self.reason_open
    }

    /// Opens or closes the reason field; a closed field is not sent.
    pub fn set_reason_open(&mut self, open: bool) {
        self.reason_open = open;
    }

    /// The typed reason.
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// The person typed a reason.
    pub fn set_reason(&mut self, reason: String) {
        self.reason = reason;
    }

    /// The deadline has passed at `now` (server time).
    pub fn expired(&self, now: Millis) -> bool {
        self.expires_at.is_some_and(|t| t <= now)
    }

    /// Approve is offered: the card waits, may be answered here, is within its deadline, no
    /// reply is streaming (`busy`), and the edit (if any) is a JSON object that keeps the
    /// schema.
    pub fn can_approve(&self, now: Millis, state: &CardState, read_only: bool, busy: bool) -> bool {
        self.can_deny(now, state, read_only, busy) && self.problems().is_empty()
    }

    /// Deny is offered: as Approve, whatever the edit (Deny ignores it). The gate's own
    /// rule ([`super::blocked`]), so a button offered is one the gate lets through.
    pub fn can_deny(&self, now: Millis, state: &CardState, read_only: bool, busy: bool) -> bool {
        super::blocked(
            state,
            self.expires_at,
            super::ResolveContext::card(now, read_only, busy),
        )
        .is_none()
    }

    /// How this call may be declined: the request's own rule, else with or without a reason.
    pub fn decline(&self) -> Decline {
        self.approval.decline.unwrap_or(Decline::Any)
    }

    /// Deny is drawn: the request can be declined at all.
    pub fn deny_offered(&self) -> bool {
        self.decline() != Decline::Never
    }

    /// "Add a reason" / "Remove reason" are drawn: a reason is optional.
    pub fn reason_optional(&self) -> bool {
        self.decline() == Decline::Any
    }

    /// Deny would send what the request takes now (a required reason is typed).
    pub fn deny_ready(&self) -> bool {
        let reason = self.reason_open.then_some(self.reason.as_str());
        self.decline().takes(reason)
    }

    /// The allow decision: `approvedArgs` only when the edit differs from the proposal (a
    /// reordered but identical object is not an edit); `None` while the edit has problems.
    pub fn approve(&self) -> Option<Resolution> {
        if !self.problems().is_empty() {
            return None;
        }
        let edit = self.checked.value.as_ref();
        Some(approval_resolution(
            true,
            &self.approval.args,
            edit,
            self.remember,
            None,
        ))
    }

    /// The deny decision, with the reason while its field is on screen.
    pub fn deny(&self) -> Resolution {
        approval_resolution(
            false,
            &self.approval.args,
            None,
            false,
            self.reason_open.then(|| self.reason.clone()),
        )
    }

    fn recheck(&mut self) {
        self.checked = check_args(&self.text, self.approval.args_schema.as_ref());
        if !self.variants.is_empty() {
            if let Ok(args) = serde_json::from_str::<Value>(&self.text) {
                self.variant = current_variant(&self.variants, Some(self.variant), &args);
            }
        }
        self.changes = match &self.checked.value {
            Some(edit) => diff_args(&self.approval.args, edit),
            None => Vec::new(),
        };
        // A value the policy keeps as proposed makes the edit unsendable, with its reason
        // first; the diff still shows what moved.
        // Said even when the schema finds other problems, so the person learns it at once.
        let parsed = serde_json::from_str::<Value>(&self.text)
            .ok()
            .filter(Value::is_object);
        if let Some(edit) = &parsed {
            let locked = super::policy::read_only_problems(&self.approval, edit);
            if !locked.is_empty() {
                self.checked.problems.splice(0..0, locked);
                self.checked.value = None;
            }
        }
    }
}
