//! The form beside the approval card's JSON editor: a choice of variant for a `oneOf` /
//! `anyOf` schema, and the fields, with nested objects as groups and arrays as lists of items
//! that can be added and removed.
//!
//! Every rule (which fields, what a control writes, when an item may be added or removed) is
//! the draft's ([`ApprovalDraft`]); this draws it and forwards input. Each control is known by
//! its JSON Pointer, the path the checker's problems name, so a problem is shown at its field.

use leptos::prelude::*;

use crate::core::{pointer_of, ApprovalDraft, Arg, FieldKind, FormField, ListField, Problem};
use crate::ui::cards::approval::problem_text;
use crate::ui::i18n::I18n;

/// The choice of variant of a `oneOf` / `anyOf` schema: a select of the alternatives' names.
/// Choosing one rewrites the JSON text (the draft decides how); the fields below follow.
#[component]
pub(crate) fn VariantChoice(names: Vec<String>, draft: RwSignal<ApprovalDraft>) -> impl IntoView {
    let i18n = I18n::get();
    let broken = Memo::new(move |_| !draft.with(ApprovalDraft::fields_enabled));
    let options = names
        .into_iter()
        .enumerate()
        .map(|(i, name)| view! { <option value=i.to_string()>{name}</option> })
        .collect_view();
    view! {
        <label class="chat-card__field chat-card__variant">
            <span class="chat-card__field-label">{move || i18n.t("chat-action-variant-label")}</span>
            <select class="chat-card__field-input" data-variant-choice=""
                disabled=move || broken.get()
                prop:value=move || draft.with(|d| d.variant().to_string())
                on:change=move |ev| {
                    if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                        draft.update(|d| d.set_variant(i));
                    }
                }>
                {options}
            </select>
        </label>
    }
}

/// What every control of one form shares.
#[derive(Clone, Copy)]
struct Form {
    draft: RwSignal<ApprovalDraft>,
    /// The text is not a JSON object: every control waits for the JSON to be fixed.
    broken: Memo<bool>,
    /// The problems that block Approve, to show each at its field.
    problems: Memo<Vec<Problem>>,
    i18n: I18n,
}

impl Form {
    /// The problems at exactly `pointer`, worded.
    fn problems_at(&self, pointer: &str) -> Vec<String> {
        let i18n = self.i18n;
        self.problems.with(|ps| {
            ps.iter()
                .filter(|p| p.path == pointer)
                .map(|p| problem_text(&i18n, p))
                .collect()
        })
    }
}

/// The form's fields, reading from and writing into the draft's JSON text. Disabled while the
/// text is not a JSON object (fix the JSON first).
#[component]
pub(crate) fn ArgumentFields(
    fields: Vec<FormField>,
    draft: RwSignal<ApprovalDraft>,
) -> impl IntoView {
    let i18n = I18n::get();
    let form = Form {
        draft,
        broken: Memo::new(move |_| !draft.with(ApprovalDraft::fields_enabled)),
        problems: Memo::new(move |_| draft.with(|d| d.problems().to_vec())),
        i18n,
    };
    let rows = fields
        .into_iter()
        .map(|field| {
            let pointer = pointer_of("", &field.name);
            let label = field.title.clone().unwrap_or_else(|| field.name.clone());
            field_view(form, field, pointer, label)
        })
        .collect_view();
    view! {
        <fieldset class="chat-card__fields">
            <legend>{move || i18n.t("chat-action-fields-label")}</legend>
            {rows}
        </fieldset>
    }
}

/// The problems at `pointer`, under its field (the list above names them all too).
fn field_problems(form: Form, pointer: String) -> impl IntoView {
    move || {
        form.problems_at(&pointer)
            .into_iter()
            .map(|text| view! { <span class="chat-card__field-problem">{text}</span> })
            .collect_view()
    }
}

/// One field at `pointer`: a group, a list or a control.
fn field_view(form: Form, field: FormField, pointer: String, label: String) -> AnyView {
    let i18n = form.i18n;
    let required = field.required;
    let mark = move || {
        required.then(|| view! { <span class="chat-card__required" aria-hidden="true">{move || i18n.t("chat-action-required")}</span> })
    };
    match field.kind.clone() {
        FieldKind::Group(children) => {
            let rows = children
                .into_iter()
                .map(|child| {
                    let at = pointer_of(&pointer, &child.name);
                    let label = child.title.clone().unwrap_or_else(|| child.name.clone());
                    field_view(form, child, at, label)
                })
                .collect_view();
            view! {
                <fieldset class="chat-card__group" data-group=pointer[1..].to_owned()>
                    <legend class="chat-card__field-label">{label}{mark()}</legend>
                    {field.description.clone().map(|d| view! { <span class="chat-card__field-description">{d}</span> })}
                    {rows}
                    {field_problems(form, pointer.clone())}
                </fieldset>
            }
            .into_any()
        }
        FieldKind::List(list) => list_view(form, *list, pointer, label, mark().is_some()),
        _ => control_view(form, field, pointer, label),
    }
}

/// An array: its items (each with Remove), then "Add an item".
fn list_view(
    form: Form,
    list: ListField,
    pointer: String,
    label: String,
    required: bool,
) -> AnyView {
    let (i18n, draft) = (form.i18n, form.draft);
    let count = {
        let pointer = pointer.clone();
        Memo::new(move |_| draft.with(|d| d.item_count(&pointer)))
    };
    let can_add = {
        let pointer = pointer.clone();
        Memo::new(move |_| draft.with(|d| d.can_add_item(&pointer)))
    };
    let can_remove = {
        let pointer = pointer.clone();
        Memo::new(move |_| draft.with(|d| d.can_remove_item(&pointer)))
    };
    let items = {
        let pointer = pointer.clone();
        move || {
            let n = count.get();
            if n == 0 {
                return view! { <p class="chat-card__list-empty">{move || i18n.t("chat-action-list-empty")}</p> }.into_any();
            }
            (0..n)
                .map(|i| {
                    let at = pointer_of(&pointer, &i.to_string());
                    let number = Arg::Num((i + 1) as f64);
                    let label = i18n.t_args("chat-action-item-label", &[("index", number.clone())]);
                    let remove_label = i18n.t_args("chat-action-item-remove", &[("index", number)]);
                    let from = pointer.clone();
                    view! {
                        <div class="chat-card__item" data-item=at[1..].to_owned()>
                            {field_view(form, list.item.clone(), at.clone(), label)}
                            <button type="button" class="chat-card__link chat-card__item-remove"
                                disabled=move || !can_remove.get()
                                on:click=move |_| draft.update(|d| d.remove_item(&from, i))>
                                {remove_label}
                            </button>
                        </div>
                    }
                })
                .collect_view()
                .into_any()
        }
    };
    let add_at = pointer.clone();
    view! {
        <fieldset class="chat-card__list" data-list=pointer[1..].to_owned()>
            <legend class="chat-card__field-label">
                {label}
                {required.then(|| view! { <span class="chat-card__required" aria-hidden="true">{move || i18n.t("chat-action-required")}</span> })}
            </legend>
            {items}
            <button type="button" class="chat-card__link chat-card__item-add"
                disabled=move || !can_add.get()
                on:click=move |_| draft.update(|d| d.add_item(&add_at))>
                {move || i18n.t("chat-action-item-add")}
            </button>
            {field_problems(form, pointer.clone())}
        </fieldset>
    }
    .into_any()
}

/// One control: text, number, checkbox, select, or a fixed value shown.
fn control_view(form: Form, field: FormField, pointer: String, label: String) -> AnyView {
    let (i18n, draft, broken) = (form.i18n, form.draft, form.broken);
    let name = pointer[1..].to_owned();
    let required = field.required;
    // A `const` or `readOnly` value is shown, never edited here.
    let fixed = field.read_only || matches!(field.kind, FieldKind::Fixed(_));
    let disabled = move || broken.get() || fixed;
    let hint = field
        .default
        .as_ref()
        .map(|d| crate::core::field_text(Some(d)));
    let invalid = {
        let pointer = pointer.clone();
        Memo::new(move |_| {
            form.problems
                .with(|ps| ps.iter().any(|p| p.path == pointer))
        })
    };
    let invalid = move || invalid.get().then_some("true");
    let current = {
        let pointer = pointer.clone();
        move || draft.with(|d| d.field_text_at(&pointer))
    };
    let write = {
        let pointer = pointer.clone();
        move |raw: String| draft.update(|d| d.set_field_at(&pointer, &raw))
    };
    let control = match field.kind.clone() {
        FieldKind::Boolean => {
            let current = current.clone();
            view! {
                <input type="checkbox" class="chat-card__field-input" data-field=name.clone()
                    disabled=disabled
                    aria-required=required.then_some("true")
                    aria-invalid=invalid
                    prop:checked=move || current() == "true"
                    on:change=move |ev| write(event_target_checked(&ev).to_string())/>
            }
            .into_any()
        }
        FieldKind::Choice(values) => {
            let options = values
                .iter()
                .map(|v| {
                    let t = crate::core::field_text(Some(v));
                    view! { <option value=t.clone()>{t.clone()}</option> }
                })
                .collect_view();
            view! {
                <select class="chat-card__field-input" data-field=name.clone()
                    disabled=disabled
                    aria-required=required.then_some("true")
                    aria-invalid=invalid
                    prop:value=current.clone()
                    on:change=move |ev| write(event_target_value(&ev))>
                    <option value="">{move || i18n.t("chat-action-field-unset")}</option>
                    {options}
                </select>
            }
            .into_any()
        }
        FieldKind::Fixed(value) => {
            let text = crate::core::field_text(Some(&value));
            view! {
                <input type="text" class="chat-card__field-input" data-field=name.clone()
                    readonly=true aria-readonly="true" prop:value=text/>
            }
            .into_any()
        }
        kind => {
            let input_type = match kind {
                FieldKind::Number | FieldKind::Integer => "number",
                _ => "text",
            };
            let step = (kind == FieldKind::Integer).then_some("1");
            view! {
                <input type=input_type step=step class="chat-card__field-input" data-field=name.clone()
                    disabled=move || broken.get()
                    readonly=fixed aria-readonly=fixed.then_some("true")
                    placeholder=hint.clone()
                    aria-required=required.then_some("true")
                    aria-invalid=invalid
                    prop:value=current.clone()
                    on:input=move |ev| write(event_target_value(&ev))/>
            }
            .into_any()
        }
    };
    view! {
        <label class="chat-card__field">
            <span class="chat-card__field-label">
                {label}
                {required.then(|| view! { <span class="chat-card__required" aria-hidden="true">{move || i18n.t("chat-action-required")}</span> })}
            </span>
            {control}
            {field.description.clone().map(|d| view! { <span class="chat-card__field-description">{d}</span> })}
            {field_problems(form, pointer)}
        </label>
    }
    .into_any()
}
