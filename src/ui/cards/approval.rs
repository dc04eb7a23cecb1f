//! `<ApprovalCard/>`: lets the person approve or deny one tool call, optionally with edited
//! arguments checked against the tool's JSON Schema: the form beside the
//! raw JSON (`super::form`), and a readable diff of the edit against the proposal.

use leptos::html::{Button, Input, Textarea};
use leptos::prelude::*;

use crate::core::{ApprovalDraft, Arg, ArgChange, CardState, FormField, Outcome, Problem};
use crate::store::ChatStore;
use crate::ui::cards::form::{ArgumentFields, VariantChoice};
use crate::ui::cards::{CardFrame, CardProps};
use crate::ui::focus_later;
use crate::ui::i18n::I18n;
use crate::ui::icons::ShieldIcon;

/// One tool approval: title, Details (or the editor), Approve / Deny with an optional reason
/// and "don't ask again", a countdown, then how it ended.
///
/// A binding of [`ApprovalDraft`]: every rule (what is an edit, its problems, when Approve and
/// Deny are offered, what they send) is the draft's; this component draws it and forwards
/// input. Escape closes the editor or the reason field without deciding and puts focus back on
/// what opened it; so does "Remove reason" next to Deny, and a closed reason field is not sent.
#[component]
pub fn ApprovalCard(
    /// The card.
    card: CardProps,
) -> impl IntoView {
    let store = ChatStore::expect();
    let i18n = I18n::get();
    // A server that says card by card whether the arguments may be edited is followed.
    let per_card = match &card.action.kind {
        crate::core::ActionKind::ToolApproval(a) => a.args_editable,
        _ => None,
    };
    let edit_allowed = per_card.unwrap_or_else(|| {
        store.status.with_untracked(|s| {
            crate::core::edit_allowed(s.agent_argument_edit, card.allow_edit, s.argument_edit)
        })
    });
    // A backend that cannot remember a tool for the chat does not offer it (§11.1).
    let remember_allowed = store.status.with_untracked(|s| s.remember_allowed);
    let Some(initial) = ApprovalDraft::new(&card.action, edit_allowed) else {
        return ().into_any();
    };
    let draft = RwSignal::new(initial.clone());
    let state = card.state;
    let read_only = card.read_only;
    let now = store.server_now();
    let busy = card.busy;
    let can_approve = Memo::new(move |_| {
        draft.with(|d| state.with(|s| d.can_approve(now.get(), s, read_only.get(), busy.get())))
    });
    // The fields take input while a reply streams; only the deciding buttons wait for it.
    let open = Memo::new(move |_| {
        draft.with(|d| state.with(|s| d.can_deny(now.get(), s, read_only.get(), false)))
    });
    let can_deny = Memo::new(move |_| {
        draft.with(|d| state.with(|s| d.can_deny(now.get(), s, read_only.get(), busy.get())))
    });
    let sending = card.sending();
    let editing = Memo::new(move |_| draft.with(ApprovalDraft::editing));
    let edited = Memo::new(move |_| draft.with(ApprovalDraft::is_edited));
    let problems = Memo::new(move |_| draft.with(|d| d.problems().to_vec()));
    let unjudged = Memo::new(move |_| draft.with(|d| d.unjudged().to_vec()));
    let changes = Memo::new(move |_| draft.with(|d| d.changes().to_vec()));
    let remember = Memo::new(move |_| draft.with(ApprovalDraft::remember));
    let reason_open = Memo::new(move |_| draft.with(ApprovalDraft::reason_open));
    // The request's own rule for declining (a LangGraph interrupt's config): Deny only when
    // it can be declined, the reason's links only when a reason is optional, and Deny waits
    // for a reason the request requires.
    let deny_offered = initial.deny_offered();
    let reason_optional = initial.reason_optional();
    let deny_ready = Memo::new(move |_| draft.with(ApprovalDraft::deny_ready));
    let edit_button = NodeRef::<Button>::new();
    let reason_button = NodeRef::<Button>::new();
    let reason_input = NodeRef::<Input>::new();
    let editor = NodeRef::<Textarea>::new();
    // Escape in the field and "Remove reason" both close it and give focus back to "Add a
    // reason".
    let close_reason = move || {
        draft.update(|d| d.set_reason_open(false));
        focus_later(reason_button);
    };

    let resolve = card.resolve;
    let approve = move || {
        if let Some(resolution) = draft.with_untracked(ApprovalDraft::approve) {
            resolve.run(resolution);
        }
    };
    let deny = move || resolve.run(draft.with_untracked(ApprovalDraft::deny));
    // Once approved with an edit, Details show what was approved (seed 000).
    let proposal = initial.proposal_text().to_owned();
    let details_text = move || match state.get() {
        CardState::Settled(Outcome::ApprovedEdited { args, .. }) => {
            serde_json::to_string_pretty(&args).unwrap_or_default()
        }
        _ => proposal.clone(),
    };
    // A memo, so the fields are drawn again only when the variant (and so the list) changes,
    // not on every keystroke (which would take the focus away).
    let fields = Memo::new(move |_| draft.with(|d| d.fields().map(<[FormField]>::to_vec)));
    let variant_names = initial.variant_names();
    // What the call would touch (Cogitator `sideEffects`, §11.1), shown as chips; text only.
    let side_effects: Vec<String> = card
        .action
        .side_effects
        .as_ref()
        .and_then(serde_json::Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|v| match v {
            serde_json::Value::String(s) => Some(s.trim().to_owned()),
            serde_json::Value::Number(n) => Some(n.to_string()),
            _ => None,
        })
        .filter(|s| !s.is_empty())
        .collect();

    // The heading keeps the tool's own name (`send_email`, as the announcement says) unless
    // the server gave a title; then the name is the line under it, after the summary.
    let approval = initial.approval().clone();
    // What will happen, to whom (seed 004), in words the core chose from the server's own.
    let operation = crate::core::Operation::of(&approval, &approval.args);
    let mut subtitles = Vec::new();
    if approval
        .title
        .as_deref()
        .is_none_or(|t| t.trim().is_empty())
    {
        let sentence = match &operation.statement {
            crate::core::Statement::Given(text) => text.clone(),
            crate::core::Statement::Derived {
                operation,
                target: Some(target),
            } => i18n.t_args(
                target.role.fluent_id(),
                &[
                    ("operation", operation.clone().into()),
                    ("target", target.value.clone().into()),
                ],
            ),
            crate::core::Statement::Derived { operation, .. } => operation.clone(),
        };
        subtitles.push(("chat-card__operation", sentence));
    }
    if let Some(s) = operation.summary.clone() {
        subtitles.push(("chat-card__summary", s));
    }
    let heading = initial.heading().to_owned();
    let has_title = heading != approval.tool_name;
    if has_title && !approval.tool_name.is_empty() {
        subtitles.push(("chat-card__tool", approval.tool_name.clone()));
    }
    let title = Signal::derive(move || {
        if heading.trim().is_empty() {
            i18n.t("chat-tool-call-unknown-tool")
        } else {
            heading.clone()
        }
    });
    let approval_for_params = approval.clone();
    let changed = card.changed;
    let first_changes = card.first_args.clone().map(|first| {
        let now = approval.args.clone();
        Memo::new(move |_| crate::core::diff_args(&first, &now))
    });

    let controls = move || {
        view! {
            <div class="chat-card__controls">
                {edit_allowed.then(|| view! {
                    <div class="chat-card__edit-row">
                        <button type="button" class="chat-card__link chat-card__edit" node_ref=edit_button
                            disabled=move || !open.get()
                            aria-expanded=move || editing.get().to_string()
                            on:click=move |_| {
                                draft.update(|d| { let on = !d.editing(); d.set_editing(on) });
                                if editing.get_untracked() {
                                    focus_later(editor);
                                }
                            }>
                            {move || i18n.t("chat-action-edit-arguments")}
                        </button>
                        <Show when=move || edited.get()>
                            <span class="chat-card__edited">{move || i18n.t("chat-action-arguments-edited")}</span>
                            <button type="button" class="chat-card__link chat-card__reset"
                                disabled=move || !open.get()
                                on:click=move |_| draft.update(ApprovalDraft::reset)>
                                {move || i18n.t("chat-action-reset-arguments")}
                            </button>
                        </Show>
                    </div>
                })}
                {remember_allowed.then(|| view! {
                    <label class="chat-card__check">
                        <input type="checkbox" disabled=move || !open.get()
                            prop:checked=move || remember.get()
                            on:change=move |ev| { let on = event_target_checked(&ev); draft.update(|d| d.set_remember(on)) }/>
                        <span>{move || i18n.t("chat-action-remember")}</span>
                    </label>
                })}
                // The reason belongs to Deny: the field, then Deny, then the way back, in
                // that order in the DOM and on screen, so Tab from the field reaches Deny
                // and never jumps back to Approve (which stays first, above them).
                <div class="chat-card__buttons" part="card-actions">
                    <button type="button" class="chat-button chat-button--primary chat-card__approve"
                        disabled=move || !can_approve.get()
                        on:click=move |_| approve()>
                        {move || if sending.get() { i18n.t("chat-action-sending") } else { i18n.t("chat-action-approve") }}
                    </button>
                    {deny_offered.then(|| view! {
                    <div class="chat-card__deny-group"
                        data-reason=move || if reason_open.get() { "open" } else { "closed" }>
                        <Show when=move || reason_open.get()>
                            <label class="chat-card__reason">
                                <span>{move || i18n.t("chat-action-reason-label")}</span>
                                <input type="text" class="chat-card__input" node_ref=reason_input dir="auto"
                                    disabled=move || !open.get()
                                    prop:value=move || draft.with(|d| d.reason().to_owned())
                                    on:input=move |ev| { let v = event_target_value(&ev); draft.update(|d| d.set_reason(v)) }
                                    on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                                        if ev.key() == "Escape" {
                                            ev.prevent_default();
                                            close_reason();
                                        }
                                    }/>
                            </label>
                        </Show>
                        <button type="button" class="chat-button chat-card__deny"
                            disabled=move || !can_deny.get() || !deny_ready.get()
                            on:click=move |_| deny()>
                            {move || i18n.t("chat-action-deny")}
                        </button>
                        <Show when=move || reason_optional>
                        <Show
                            when=move || !reason_open.get()
                            fallback=move || view! {
                                <button type="button" class="chat-card__link chat-card__cancel-reason"
                                    disabled=move || !open.get()
                                    on:click=move |_| close_reason()>
                                    {move || i18n.t("chat-action-remove-reason")}
                                </button>
                            }
                        >
                            <button type="button" class="chat-card__link chat-card__add-reason" node_ref=reason_button
                                disabled=move || !open.get()
                                on:click=move |_| {
                                    draft.update(|d| d.set_reason_open(true));
                                    focus_later(reason_input);
                                }>
                                {move || i18n.t("chat-action-add-reason")}
                            </button>
                        </Show>
                        </Show>
                    </div>
                    })}
                </div>
            </div>
        }
    };

    view! {
        <CardFrame
            card=card.clone()
            kind="tool_approval"
            title=title
            subtitles=subtitles
            icon=view! { <ShieldIcon/> }.into_any()
            controls=ViewFn::from(controls)
        >
            {(!side_effects.is_empty()).then(|| view! {
                <ul class="chat-card__side-effects" aria-label=move || i18n.t("chat-action-side-effects")>
                    {side_effects.into_iter().map(|s| view! { <li class="chat-card__chip" dir="auto">{s}</li> }).collect_view()}
                </ul>
            })}
            <Show
                when=move || editing.get() && open.get()
                fallback=move || view! {
                    // A request that changed while on screen opens its Details, so the new
                    // arguments are in view before anything is decided (issue 13).
                    {let a = approval_for_params.clone(); move || parameters(&a, &state.get(), i18n)}
                    <details class="chat-card__details" open=changed && state.with_untracked(CardState::is_open)>
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
                            draft.update(|d| d.set_editing(false));
                            focus_later(edit_button);
                        }
                    }
                >
                    {(!variant_names.is_empty()).then(|| view! { <VariantChoice names=variant_names.clone() draft=draft/> })}
                    {move || fields.get().map(|fields| view! { <ArgumentFields fields=fields draft=draft/> })}
                    <label class="chat-card__editor-label">
                        <span>{move || i18n.t("chat-action-editor-label")}</span>
                        <textarea
                            class="chat-card__editor"
                            node_ref=editor
                            spellcheck="false"
                            rows="8"
                            prop:value=move || draft.with(|d| d.text().to_owned())
                            on:input=move |ev| { let v = event_target_value(&ev); draft.update(|d| d.set_text(v)) }
                        ></textarea>
                    </label>
                </div>
            </Show>
            // A new version of the request (e.g. after an edit): what moved since the
            // original proposal, before it is approved again (seed 004, issue 14).
            {first_changes.map(|first| view! {
                <Show when=move || state.with(CardState::is_open)>
                    <div class="chat-card__version-diff">
                        <ArgumentDiff changes=first label="chat-action-diff-version-label"/>
                    </div>
                </Show>
            })}
            <Show when=move || edited.get() && state.with(CardState::is_open)>
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
            // The checker could not judge the edit: said plainly, never a silent pass. Approve
            // stays possible (the server checks again), so this is a status, not an alert.
            <Show when=move || unjudged.with(|p| !p.is_empty()) && state.with(CardState::is_open)>
                <div class="chat-card__unjudged" role="status">
                    <p>{move || i18n.t("chat-action-schema-unjudged")}</p>
                    <ul>
                        {move || unjudged.get().into_iter().map(|p| view! { <li>{problem_text(&i18n, &p)}</li> }).collect_view()}
                    </ul>
                </div>
            </Show>
        </CardFrame>
    }
    .into_any()
}

/// The meaningful parameters without a click: every top-level argument of the
/// proposal, or of what was approved, a long value folded with its whole text one click away.
fn parameters(approval: &crate::core::ToolApproval, state: &CardState, i18n: I18n) -> AnyView {
    let args = match state {
        CardState::Settled(Outcome::ApprovedEdited { args, .. }) => args.clone(),
        _ => approval.args.clone(),
    };
    let params = crate::core::Operation::of(approval, &args).parameters;
    if params.is_empty() {
        return ().into_any();
    }
    let rows = params
        .into_iter()
        .map(|p| {
            let value = if p.folded {
                let preview = p.preview();
                view! {
                    <details class="chat-card__param-fold">
                        <summary>
                            <span class="chat-card__param-preview" dir="auto">{preview}"…"</span>
                            " "
                            <span class="chat-card__link">{move || i18n.t("chat-action-param-show-all")}</span>
                        </summary>
                        <pre class="chat-card__param-full" dir="auto">{p.value.clone()}</pre>
                    </details>
                }
                .into_any()
            } else {
                view! { <span dir="auto">{p.value.clone()}</span> }.into_any()
            };
            view! {
                <div class="chat-card__param" data-param=p.name.clone()>
                    <dt dir="auto">{p.label.clone()}</dt>
                    <dd>{value}</dd>
                </div>
            }
        })
        .collect_view();
    view! {
        <dl class="chat-card__params" aria-label=move || i18n.t("chat-action-parameters")>{rows}</dl>
    }
    .into_any()
}

/// What the edit changes, line by line: `path: before → after` (so the person sees
/// exactly what will run instead of what was proposed).
#[component]
pub(crate) fn ArgumentDiff(
    /// The changes, path by path.
    changes: Memo<Vec<ArgChange>>,
    /// The Fluent id of the heading.
    #[prop(default = "chat-action-diff-label")]
    label: &'static str,
) -> impl IntoView {
    let i18n = I18n::get();
    let unset = move || i18n.t("chat-action-diff-unset");
    view! {
        <div class="chat-card__diff">
            <p class="chat-card__diff-title">{move || i18n.t(label)}</p>
            <ul>
                {move || changes.get().into_iter().map(|c| view! {
                    <li class="chat-card__diff-row">
                        <code class="chat-card__diff-path">{if c.path.is_empty() { "{}".to_owned() } else { c.path.clone() }}</code>
                        <del class="chat-card__diff-before">
                            <span class="chat-visually-hidden">{move || i18n.t("chat-action-diff-before")}" "</span>
                            {c.before.clone().unwrap_or_else(unset)}
                        </del>
                        <span class={"chat-card__diff-arrow"} aria-hidden="true">"→"</span>
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

/// Action ids are server strings: an HTML id of letters, digits and `-` only, where every
/// other character (`_` included) is written `_<hex code>_`. Two action ids never share a DOM
/// id (`a.b` is `a_2e_b`, `a_b` is `a_5f_b`), so a card's label can never point at another
/// card.
pub fn sanitize_id(id: &str) -> String {
    let mut out = String::with_capacity(id.len());
    for c in id.chars() {
        if c.is_ascii_alphanumeric() || c == '-' {
            out.push(c);
        } else {
            out.push_str(&format!("_{:x}_", u32::from(c)));
        }
    }
    out
}
