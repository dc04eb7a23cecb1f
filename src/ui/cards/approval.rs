//! `<ApprovalCard/>`: lets the person approve or deny one tool call, optionally with edited
//! arguments checked against the tool's JSON Schema (seed 000, seed 004): form fields for flat
//! schemas beside the raw JSON, and a readable diff of the edit against the proposal.

use leptos::html::{Button, Input, Textarea};
use leptos::prelude::*;
use serde_json::Value;

use crate::core::{
    apply_field, approval_resolution, check_args_text, diff_args, field_text, field_value,
    form_fields, ActionKind, Arg, ArgChange, CardState, FieldKind, FormField, Outcome, Problem,
};
use crate::store::ChatStore;
use crate::ui::cards::{CardFrame, CardProps};
use crate::ui::focus_later;
use crate::ui::format::title_case_tool;
use crate::ui::i18n::I18n;
use crate::ui::icons::ShieldIcon;

/// One tool approval: title, Details (or the editor), Approve / Deny with an optional reason
/// and "don't ask again", a countdown, then how it ended.
///
/// Only an edit is checked: the proposal is the agent's, and the server checks again. Approve
/// is disabled while the edit has problems; Deny ignores the edit (F207). Escape closes the
/// editor or the reason field without deciding and puts focus back on what opened it; so does
/// "Remove reason" next to Deny, and a closed reason field is not sent.
#[component]
pub fn ApprovalCard(
    /// The card.
    card: CardProps,
) -> impl IntoView {
    let store = ChatStore::expect();
    let i18n = I18n::get();
    let ActionKind::ToolApproval(approval) = card.action.kind.clone() else {
        return ().into_any();
    };
    let state = card.state;
    let open = card.open();
    let sending = card.sending();
    let proposed = approval.args.clone();
    let schema = approval.args_schema.clone();
    let edit_allowed = store.status.with_untracked(|s| {
        s.agent_argument_edit
            .or(card.allow_edit)
            .unwrap_or(s.argument_edit)
    });

    // The editor's text is the single source of truth; fields and the diff derive from it.
    let pretty = serde_json::to_string_pretty(&proposed).unwrap_or_else(|_| "{}".into());
    let text = RwSignal::new(pretty.clone());
    let editing = RwSignal::new(false);
    let checked = {
        let schema = schema.clone();
        Memo::new(move |_| text.with(|t| check_args_text(t, schema.as_ref())))
    };
    let untouched = {
        let pretty = pretty.clone();
        Memo::new(move |_| text.with(|t| *t == pretty))
    };
    let problems = Memo::new(move |_| {
        if untouched.get() {
            return Vec::new();
        }
        checked.with(|c| c.as_ref().err().cloned().unwrap_or_default())
    });
    let changes = {
        let proposed = proposed.clone();
        Memo::new(move |_| {
            checked.with(|c| match c {
                Ok(v) => diff_args(&proposed, v),
                Err(_) => Vec::new(),
            })
        })
    };
    let edited = move || changes.with(|c| !c.is_empty());
    let remember = RwSignal::new(false);
    let reason_open = RwSignal::new(false);
    let reason = RwSignal::new(String::new());
    let edit_button = NodeRef::<Button>::new();
    let reason_button = NodeRef::<Button>::new();
    let reason_input = NodeRef::<Input>::new();
    let editor = NodeRef::<Textarea>::new();
    // Escape in the field and "Remove reason" both close it and give focus back to "Add a
    // reason".
    let close_reason = move || {
        reason_open.set(false);
        focus_later(reason_button);
    };

    let resolve = card.resolve;
    let decide = {
        let proposed = proposed.clone();
        move |approve: bool| {
            let edit: Option<Value> = checked.with_untracked(|c| c.as_ref().ok().cloned());
            let resolution = approval_resolution(
                approve,
                &proposed,
                edit.as_ref(),
                remember.get_untracked(),
                // A reason is sent only while its field is on screen: closing it takes it back.
                reason_open.get_untracked().then(|| reason.get_untracked()),
            );
            resolve.run(resolution);
        }
    };
    let approve_disabled = move || sending.get() || problems.with(|p| !p.is_empty());
    // Once approved with an edit, Details show what was approved (seed 000).
    let details_text = {
        let pretty = pretty.clone();
        move || match state.get() {
            CardState::Settled(Outcome::ApprovedEdited { args, .. }) => {
                serde_json::to_string_pretty(&args).unwrap_or_default()
            }
            _ => pretty.clone(),
        }
    };
    let fields = form_fields(schema.as_ref());

    let mut subtitles = Vec::new();
    if let Some(s) = approval.summary.clone() {
        subtitles.push(("chat-card__summary", s));
    }
    let tool_label = title_case_tool(&approval.tool_name);
    let title = approval.title.clone().unwrap_or_else(|| tool_label.clone());
    if approval.title.is_some() {
        subtitles.push(("chat-card__tool", tool_label));
    }

    let controls = {
        let decide = decide.clone();
        let pretty = pretty.clone();
        move || {
            let decide_allow = decide.clone();
            let decide_deny = decide.clone();
            let pretty = pretty.clone();
            view! {
                <div class="chat-card__controls">
                    {edit_allowed.then(|| view! {
                        <div class="chat-card__edit-row">
                            <button type="button" class="chat-card__link chat-card__edit" node_ref=edit_button
                                disabled=move || !open.get()
                                aria-expanded=move || editing.get().to_string()
                                on:click=move |_| {
                                    editing.update(|e| *e = !*e);
                                    if editing.get_untracked() {
                                        focus_later(editor);
                                    }
                                }>
                                {move || i18n.t("chat-action-edit-arguments")}
                            </button>
                            <Show when=edited>
                                <span class="chat-card__edited">{move || i18n.t("chat-action-arguments-edited")}</span>
                                <button type="button" class="chat-card__link chat-card__reset"
                                    disabled=move || !open.get()
                                    on:click={
                                        let pretty = pretty.clone();
                                        move |_| text.set(pretty.clone())
                                    }>
                                    {move || i18n.t("chat-action-reset-arguments")}
                                </button>
                            </Show>
                        </div>
                    })}
                    <label class="chat-card__check">
                        <input type="checkbox" disabled=move || !open.get()
                            prop:checked=move || remember.get()
                            on:change=move |ev| remember.set(event_target_checked(&ev))/>
                        <span>{move || i18n.t("chat-action-remember")}</span>
                    </label>
                    // The reason belongs to Deny: the field, then Deny, then the way back, in
                    // that order in the DOM and on screen, so Tab from the field reaches Deny
                    // and never jumps back to Approve (which stays first, above them).
                    <div class="chat-card__buttons">
                        <button type="button" class="chat-button chat-button--primary chat-card__approve"
                            disabled=approve_disabled
                            on:click=move |_| decide_allow(true)>
                            {move || if sending.get() { i18n.t("chat-action-sending") } else { i18n.t("chat-action-approve") }}
                        </button>
                        <div class="chat-card__deny-group"
                            data-reason=move || if reason_open.get() { "open" } else { "closed" }>
                            <Show when=move || reason_open.get()>
                                <label class="chat-card__reason">
                                    <span>{move || i18n.t("chat-action-reason-label")}</span>
                                    <input type="text" class="chat-card__input" node_ref=reason_input dir="auto"
                                        disabled=move || !open.get()
                                        prop:value=move || reason.get()
                                        on:input=move |ev| reason.set(event_target_value(&ev))
                                        on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                                            if ev.key() == "Escape" {
                                                ev.prevent_default();
                                                close_reason();
                                            }
                                        }/>
                                </label>
                            </Show>
                            <button type="button" class="chat-button chat-card__deny" disabled=move || sending.get()
                                on:click=move |_| decide_deny(false)>
                                {move || i18n.t("chat-action-deny")}
                            </button>
                            <Show
                                when=move || !reason_open.get()
                                fallback=move || view! {
                                    <button type="button" class="chat-card__link chat-card__cancel-reason"
                                        disabled=move || sending.get()
                                        on:click=move |_| close_reason()>
                                        {move || i18n.t("chat-action-remove-reason")}
                                    </button>
                                }
                            >
                                <button type="button" class="chat-card__link chat-card__add-reason" node_ref=reason_button
                                    disabled=move || sending.get()
                                    on:click=move |_| {
                                        reason_open.set(true);
                                        focus_later(reason_input);
                                    }>
                                    {move || i18n.t("chat-action-add-reason")}
                                </button>
                            </Show>
                        </div>
                    </div>
                </div>
            }
        }
    };

    view! {
        <CardFrame
            card=card.clone()
            kind="tool_approval"
            title=Signal::derive(move || title.clone())
            subtitles=subtitles
            icon=view! { <ShieldIcon/> }.into_any()
            controls=ViewFn::from(controls)
        >
            <Show
                when=move || editing.get() && open.get()
                fallback=move || view! {
                    <details class="chat-card__details">
                        <summary>{move || i18n.t("chat-action-details")}</summary>
                        <pre class="chat-card__args">{details_text.clone()}</pre>
                    </details>
                }
            >
                <div
                    class="chat-card__editing"
                    on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                        if ev.key() == "Escape" {
                            ev.prevent_default();
                            editing.set(false);
                            focus_later(edit_button);
                        }
                    }
                >
                    {fields.clone().map(|fields| view! { <ArgumentFields fields=fields text=text/> })}
                    <label class="chat-card__editor-label">
                        <span>{move || i18n.t("chat-action-editor-label")}</span>
                        <textarea
                            class="chat-card__editor"
                            node_ref=editor
                            spellcheck="false"
                            rows="8"
                            prop:value=move || text.get()
                            on:input=move |ev| text.set(event_target_value(&ev))
                        ></textarea>
                    </label>
                </div>
            </Show>
            <Show when=move || edited() && state.with(CardState::is_open)>
                <ArgumentDiff changes=changes/>
            </Show>
            <Show when=move || problems.with(|p| !p.is_empty()) && state.with(CardState::is_open)>
                // The alert is a wrapper: `role` on the list itself would drop its list semantics.
                <div class="chat-card__problems-alert" role="alert">
                    <ul class="chat-card__problems">
                        {move || problems.get().into_iter().map(|p| view! { <li>{problem_text(&i18n, &p)}</li> }).collect_view()}
                    </ul>
                </div>
            </Show>
        </CardFrame>
    }
    .into_any()
}

/// Form fields for a flat schema, reading from and writing into the JSON text. Disabled while
/// the text is not a JSON object (fix the JSON first).
#[component]
fn ArgumentFields(fields: Vec<FormField>, text: RwSignal<String>) -> impl IntoView {
    let i18n = I18n::get();
    let parsed = Memo::new(move |_| {
        text.with(|t| match serde_json::from_str::<Value>(t) {
            Ok(Value::Object(map)) => Some(map),
            _ => None,
        })
    });
    let broken = move || parsed.with(Option::is_none);
    let rows = fields
        .into_iter()
        .map(|field| {
            let name = field.name.clone();
            let label = field.title.clone().unwrap_or_else(|| field.name.clone());
            let current = {
                let name = name.clone();
                move || parsed.with(|p| field_text(p.as_ref().and_then(|m| m.get(&name))))
            };
            let write = {
                let name = name.clone();
                let kind = field.kind.clone();
                move |raw: String| {
                    let value = field_value(&kind, &raw);
                    let next = text.with_untracked(|t| apply_field(t, &name, value));
                    if let Some(next) = next {
                        text.set(next);
                    }
                }
            };
            let control = match field.kind.clone() {
                FieldKind::Boolean => {
                    let current = current.clone();
                    view! {
                        <input type="checkbox" class="chat-card__field-input" data-field=name.clone()
                            disabled=broken
                            prop:checked=move || current() == "true"
                            on:change=move |ev| write(event_target_checked(&ev).to_string())/>
                    }
                    .into_any()
                }
                FieldKind::Choice(values) => {
                    let options = values
                        .iter()
                        .map(|v| {
                            let t = field_text(Some(v));
                            view! { <option value=t.clone()>{t.clone()}</option> }
                        })
                        .collect_view();
                    view! {
                        <select class="chat-card__field-input" data-field=name.clone()
                            disabled=broken
                            prop:value=current.clone()
                            on:change=move |ev| write(event_target_value(&ev))>
                            <option value="">{move || i18n.t("chat-action-field-unset")}</option>
                            {options}
                        </select>
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
                            disabled=broken
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
                        {field.required.then(|| view! { <span class="chat-card__required" aria-hidden="true">{move || i18n.t("chat-action-required")}</span> })}
                    </span>
                    {control}
                    {field.description.clone().map(|d| view! { <span class="chat-card__field-description">{d}</span> })}
                </label>
            }
        })
        .collect_view();
    view! {
        <fieldset class="chat-card__fields">
            <legend>{move || i18n.t("chat-action-fields-label")}</legend>
            {rows}
        </fieldset>
    }
}

/// What the edit changes, line by line: `path: before → after` (seed 004: show the person
/// exactly what will run instead of what was proposed).
#[component]
fn ArgumentDiff(changes: Memo<Vec<ArgChange>>) -> impl IntoView {
    let i18n = I18n::get();
    let unset = move || i18n.t("chat-action-diff-unset");
    view! {
        <div class="chat-card__diff">
            <p class="chat-card__diff-title">{move || i18n.t("chat-action-diff-label")}</p>
            <ul>
                {move || changes.get().into_iter().map(|c| view! {
                    <li class="chat-card__diff-row">
                        <code class="chat-card__diff-path">{if c.path.is_empty() { "{}".to_owned() } else { c.path.clone() }}</code>
                        <del class="chat-card__diff-before">
                            <span class="chat-visually-hidden">{move || i18n.t("chat-action-diff-before")}" "</span>
                            {c.before.clone().unwrap_or_else(unset)}
                        </del>
                        <span class="chat-card__diff-arrow" aria-hidden="true">"→"</span>
                        <ins class="chat-card__diff-after">
                            <span class="chat-visually-hidden">{move || i18n.t("chat-action-diff-after")}" "</span>
                            {c.after.clone().unwrap_or_else(unset)}
                        </ins>
                    </li>
                }).collect_view()}
            </ul>
        </div>
    }
}

/// Localized text of one argsSchema problem. The whole object is called "Arguments" rather
/// than `/`, and counts are passed as numbers so locales can pick plural forms.
pub fn problem_text(i18n: &I18n, p: &Problem) -> String {
    let args: Vec<(&str, Arg)> = p
        .fluent_args()
        .into_iter()
        .map(|(k, v)| {
            let arg = match k {
                "path" if p.path.is_empty() => Arg::from(i18n.t("chat-action-schema-root")),
                "limit" | "line" | "column" | "matched" | "count" => match v.parse::<f64>() {
                    Ok(n) => Arg::Num(n),
                    Err(_) => Arg::from(v),
                },
                _ => Arg::from(v),
            };
            (k, arg)
        })
        .collect();
    i18n.t_args(p.kind.fluent_id(), &args)
}

/// Action ids are server strings: keep only characters safe in an HTML id.
pub fn sanitize_id(id: &str) -> String {
    id.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}
