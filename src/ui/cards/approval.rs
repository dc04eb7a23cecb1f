//! `<ApprovalCard/>`: lets the person approve or deny one tool call, optionally with edited
//! arguments checked against the tool's JSON Schema (seed 000, seed 004).

use leptos::prelude::*;
use serde_json::Value;

use crate::core::{
    approval_resolution, check_args_text, ActionKind, Arg, CardState, Command, Problem,
};
use crate::store::{CardView, ChatStore};
use crate::ui::cards::CardOutcome;
use crate::ui::countdown::Countdown;
use crate::ui::format::title_case_tool;
use crate::ui::i18n::I18n;
use crate::ui::icons::ShieldIcon;

/// One tool approval: title, Details (or the JSON editor), Approve / Deny with an optional
/// reason and "don't ask again", a countdown, then how it ended.
///
/// Reads from [`ChatStore`]; changes state only through `dispatch`.
#[component]
pub fn ApprovalCard(
    /// The card and whether it can be answered here.
    view: CardView,
) -> impl IntoView {
    let store = ChatStore::expect();
    let i18n = I18n::get();
    let ActionKind::ToolApproval(approval) = view.card.action.kind.clone() else {
        return ().into_any();
    };
    let action_id = view.card.action.id.clone();
    let (dom_id, title_id) = super::card_ids(&action_id);
    let tool_label = title_case_tool(&approval.tool_name);
    let title = approval.title.clone().unwrap_or_else(|| tool_label.clone());
    let state = view.card.state.clone();
    let open = state == CardState::Waiting && view.can_resolve;
    let sending = state == CardState::Sending;
    let proposed = approval.args.clone();
    let schema = approval.args_schema.clone();
    let edit_allowed = store.status.with_untracked(|s| s.argument_edit);

    // Editor state: the text, its check result, and whether it differs from the proposal.
    let pretty = serde_json::to_string_pretty(&proposed).unwrap_or_else(|_| "{}".into());
    let text = RwSignal::new(pretty.clone());
    let editing = RwSignal::new(false);
    let checked = {
        let schema = schema.clone();
        Memo::new(move |_| text.with(|t| check_args_text(t, schema.as_ref())))
    };
    // Only an edit is checked: the proposal itself is the agent's, and the server checks again.
    let untouched = {
        let pretty = pretty.clone();
        move || text.with(|t| *t == pretty)
    };
    let problems = Memo::new(move |_| {
        if untouched() {
            return Vec::new();
        }
        checked.with(|c| c.as_ref().err().cloned().unwrap_or_default())
    });
    let edited = {
        let proposed = proposed.clone();
        move || checked.with(|c| matches!(c, Ok(v) if !crate::core::args_equal(v, &proposed)))
    };
    let remember = RwSignal::new(false);
    let reason_open = RwSignal::new(false);
    let reason = RwSignal::new(String::new());

    let decide = {
        let action_id = action_id.clone();
        let proposed = proposed.clone();
        move |approve: bool| {
            let edit: Option<Value> = checked.with_untracked(|c| c.as_ref().ok().cloned());
            let comment = Some(reason.get_untracked());
            let resolution = approval_resolution(
                approve,
                &proposed,
                edit.as_ref(),
                remember.get_untracked(),
                comment,
            );
            store.dispatch(Command::Resolve {
                action_id: action_id.clone(),
                resolution,
            });
        }
    };
    let decide_allow = decide.clone();
    let approve_disabled = move || sending || problems.with(|p| !p.is_empty());

    // Once approved with an edit, Details show what was approved (seed 000).
    let details_text = match &state {
        CardState::Settled(crate::core::Outcome::ApprovedEdited { args, .. }) => {
            serde_json::to_string_pretty(args).unwrap_or_default()
        }
        _ => pretty.clone(),
    };

    let labelledby = title_id.clone();
    view! {
        <section
            class="chat-card chat-card--approval"
            id=dom_id
            role="group"
            tabindex="-1"
            aria-labelledby=labelledby
            data-kind="tool_approval"
            data-action-id=action_id.clone()
            data-state=view.card.state.as_str()
        >
            <header class="chat-card__header">
                <span class="chat-card__icon"><ShieldIcon/></span>
                <div class="chat-card__heading">
                    <h3 class="chat-card__title" id=title_id>{title}</h3>
                    {approval.summary.clone().map(|s| view! { <p class="chat-card__summary">{s}</p> })}
                    {approval.title.is_some().then(|| view! { <p class="chat-card__tool">{tool_label.clone()}</p> })}
                </div>
            </header>
            {(view.card.state.is_open()).then(|| view.card.action.expires_at.map(|t| view! { <Countdown deadline=t/> }))}
            <Show
                when=move || editing.get()
                fallback={
                    let details_text = details_text.clone();
                    move || view! {
                        <details class="chat-card__details">
                            <summary>{move || i18n.t("chat-action-details")}</summary>
                            <pre class="chat-card__args">{details_text.clone()}</pre>
                        </details>
                    }
                }
            >
                <label class="chat-card__editor-label">
                    <span>{move || i18n.t("chat-action-editor-label")}</span>
                    <textarea
                        class="chat-card__editor"
                        spellcheck="false"
                        rows="8"
                        prop:value=move || text.get()
                        on:input=move |ev| text.set(event_target_value(&ev))
                    ></textarea>
                </label>
            </Show>
            <Show when=move || problems.with(|p| !p.is_empty())>
                <ul class="chat-card__problems" role="alert">
                    {move || problems.get().into_iter().map(|p| view! { <li>{problem_text(&i18n, &p)}</li> }).collect_view()}
                </ul>
            </Show>
            {match state.clone() {
                CardState::Settled(outcome) => view! { <CardOutcome outcome=outcome/> }.into_any(),
                _ if !view.can_resolve => view! {
                    <p class="chat-card__elsewhere" role="status">{move || i18n.t("chat-action-status-waiting-elsewhere")}</p>
                }.into_any(),
                _ => view! {
                    <div class="chat-card__controls">
                        {edit_allowed.then(|| view! {
                            <div class="chat-card__edit-row">
                                <button type="button" class="chat-card__link" disabled=!open
                                    on:click=move |_| editing.update(|e| *e = !*e)>
                                    {move || i18n.t("chat-action-edit-arguments")}
                                </button>
                                <Show when=edited>
                                    <span class="chat-card__edited">{move || i18n.t("chat-action-arguments-edited")}</span>
                                    <button type="button" class="chat-card__link"
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
                            <input type="checkbox" disabled=!open
                                prop:checked=move || remember.get()
                                on:change=move |ev| remember.set(event_target_checked(&ev))/>
                            <span>{move || i18n.t("chat-action-remember")}</span>
                        </label>
                        <Show when=move || reason_open.get()>
                            <label class="chat-card__reason">
                                <span>{move || i18n.t("chat-action-reason-label")}</span>
                                <input type="text" class="chat-card__input" disabled=!open
                                    prop:value=move || reason.get()
                                    on:input=move |ev| reason.set(event_target_value(&ev))/>
                            </label>
                        </Show>
                        <div class="chat-card__buttons">
                            <button type="button" class="chat-button chat-button--primary chat-card__approve"
                                disabled=approve_disabled
                                on:click=move |_| decide_allow(true)>
                                {move || if sending { i18n.t("chat-action-sending") } else { i18n.t("chat-action-approve") }}
                            </button>
                            <button type="button" class="chat-button chat-card__deny" disabled=sending
                                on:click=move |_| decide(false)>
                                {move || i18n.t("chat-action-deny")}
                            </button>
                            <Show when=move || !reason_open.get()>
                                <button type="button" class="chat-card__link chat-card__add-reason" disabled=sending
                                    on:click=move |_| reason_open.set(true)>
                                    {move || i18n.t("chat-action-add-reason")}
                                </button>
                            </Show>
                        </div>
                    </div>
                }.into_any(),
            }}
        </section>
    }
    .into_any()
}

/// Localized text of one argsSchema problem.
pub fn problem_text(i18n: &I18n, p: &Problem) -> String {
    let args: Vec<(&str, Arg)> = p
        .fluent_args()
        .into_iter()
        .map(|(k, v)| (k, Arg::from(v)))
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
