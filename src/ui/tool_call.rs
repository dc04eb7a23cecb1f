//! `<ToolCalls/>` and `<ToolCall/>`: the steps an assistant took, latest on top.
//!
//! Like the React library, the latest call is shown prominently and the older ones sit behind
//! a "{n} previous steps" toggle that opens a compact, bordered list. Beyond the React library,
//! the latest call's arguments and result can be opened ("View details"): a person who is
//! asked to trust an answer can see what the tool was given and what it returned.

use leptos::prelude::*;
use serde_json::Value;

use crate::ui::i18n::I18n;
use crate::ui::icons::{CheckCircleIcon, ChevronDownIcon, ChevronRightIcon, ToolIcon};

/// One tool call as the list renders it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ToolCallView {
    /// Call id.
    pub id: String,
    /// Tool name (formatted for display; empty reads "Unknown Tool").
    pub name: String,
    /// Arguments.
    pub args: Value,
    /// Result, once known.
    pub result: Option<Value>,
    /// Why the agent called it: the label, when given.
    pub reasoning: Option<String>,
    /// A friendly name: the label when there is no reasoning.
    pub display_name: Option<String>,
}

impl From<crate::core::ToolCallDetail> for ToolCallView {
    fn from(d: crate::core::ToolCallDetail) -> Self {
        ToolCallView {
            id: d.id,
            name: d.name,
            args: d.args,
            result: d.result,
            reasoning: d.reasoning,
            display_name: d.display_name,
        }
    }
}

impl From<&crate::core::ActiveToolCall> for ToolCallView {
    fn from(c: &crate::core::ActiveToolCall) -> Self {
        ToolCallView {
            id: c.id.clone(),
            name: c.name.clone(),
            args: c.args.clone(),
            result: c.result.clone(),
            reasoning: c.reasoning.clone(),
            display_name: c.display_name.clone(),
        }
    }
}

/// Tool steps: the latest call on top, older ones behind a toggle. Nothing is
/// drawn for an empty list.
#[component]
pub fn ToolCalls(
    /// Calls in the order they happened.
    tool_calls: Vec<ToolCallView>,
    /// Whether the calls are still running: spinners instead of checks (default false).
    #[prop(optional)]
    is_executing: bool,
    /// Total duration in seconds, appended as " · Ns" to the older-steps toggle when not
    /// executing.
    #[prop(default = None)]
    duration_seconds: Option<u64>,
    /// Older steps open initially (default false).
    #[prop(optional)]
    default_expanded: bool,
    /// Extra classes for the root element.
    #[prop(optional, into)]
    class: MaybeProp<String>,
) -> impl IntoView {
    // Its rules come with it (D79).
    crate::ui::style::use_part_style(crate::ui::style::MARKDOWN_CSS);
    let i18n = I18n::get();
    let mut calls = tool_calls;
    let Some(latest) = calls.pop() else {
        return ().into_any();
    };
    let older = calls;
    let expanded = RwSignal::new(default_expanded);
    let state = if is_executing {
        "executing"
    } else {
        "completed"
    };
    let (label, subtitle) = labels(&latest, &i18n);
    let args = pretty(&latest.args);
    let result = latest.result.as_ref().map(pretty);
    let list_id = format!("chat-tool-calls-{}", unique());
    let count = older.len();
    let secs = duration_seconds.filter(|s| *s > 0 && !is_executing);
    let older_view = (count > 0).then(|| {
        let items = older
            .iter()
            .map(|call| {
                let (label, subtitle) = labels(call, &i18n);
                view! {
                    <li class="chat-tool-calls__item">
                        <StepIcon executing=is_executing/>
                        <span class="chat-tool-calls__text">
                            <span class="chat-tool-calls__label" dir="auto">{label}</span>
                            {subtitle.map(|s| view! { <span class="chat-tool-calls__name" dir="auto">{s}</span> })}
                        </span>
                    </li>
                }
            })
            .collect_view();
        let list_id2 = list_id.clone();
        view! {
            <div class="chat-tool-calls__older">
                <button
                    type="button"
                    class="chat-tool-calls__toggle"
                    aria-expanded=move || expanded.get().to_string()
                    aria-controls=list_id.clone()
                    on:click=move |_| expanded.update(|e| *e = !*e)
                >
                    {move || if expanded.get() {
                        view! { <ChevronDownIcon/> }.into_any()
                    } else {
                        view! { <ChevronRightIcon/> }.into_any()
                    }}
                    <ToolIcon/>
                    <span>
                        {move || {
                            let steps = i18n.t_args("chat-tool-call-previous-steps", &[("count", count.into())]);
                            match secs {
                                Some(s) => format!(
                                    "{steps} · {}",
                                    i18n.t_args("chat-tool-call-duration", &[("seconds", s.into())])
                                ),
                                None => steps,
                            }
                        }}
                    </span>
                </button>
                <ul class="chat-tool-calls__list" id=list_id2 hidden=move || !expanded.get()>
                    {items}
                </ul>
            </div>
        }
    });
    view! {
        <div
            class=move || crate::utils::cn(["chat-tool-calls".to_owned(), class.get().unwrap_or_default()])
            data-state=state
        >
            <div class="chat-tool-calls__latest">
                <StepIcon executing=is_executing/>
                <div class="chat-tool-calls__text">
                    <span class="chat-tool-calls__label chat-tool-calls__label--latest" dir="auto">{label}</span>
                    {subtitle.map(|s| view! { <span class="chat-tool-calls__name" dir="auto">{s}</span> })}
                    <details class="chat-tool-call__details">
                        <summary class="chat-tool-call__summary">
                            {move || i18n.t("chat-tool-call-view-details")}
                        </summary>
                        <p class="chat-tool-call__label">{move || i18n.t("chat-tool-call-input")}</p>
                        <pre class="chat-tool-call__code">{args}</pre>
                        {result.map(|r| view! {
                            <p class="chat-tool-call__label">{move || i18n.t("chat-tool-call-output")}</p>
                            <pre class="chat-tool-call__code">{r}</pre>
                        })}
                    </details>
                </div>
                <span class="chat-visually-hidden">
                    {move || if is_executing { i18n.t("chat-tool-call-executing") } else { i18n.t("chat-tool-call-completed") }}
                </span>
            </div>
            {older_view}
        </div>
    }
    .into_any()
}

/// One tool call: a one-entry [`ToolCalls`], as in the React library.
#[component]
pub fn ToolCall(
    /// The tool's name.
    #[prop(into)]
    tool_name: String,
    /// The call's id.
    #[prop(optional, into)]
    tool_call_id: String,
    /// Its arguments.
    #[prop(optional)]
    args: Value,
    /// Its result, once known.
    #[prop(default = None)]
    result: Option<Value>,
    /// Extra classes for the root element.
    #[prop(optional, into)]
    class: MaybeProp<String>,
    /// Passed on to [`ToolCalls`] (a single call has no older steps to open).
    #[prop(optional)]
    default_expanded: bool,
    /// Still running: a spinner instead of a check.
    #[prop(optional)]
    is_executing: bool,
) -> impl IntoView {
    // Its rules come with it (D79).
    crate::ui::style::use_part_style(crate::ui::style::MARKDOWN_CSS);
    let call = ToolCallView {
        id: tool_call_id,
        name: tool_name,
        args,
        result,
        ..ToolCallView::default()
    };
    view! {
        <ToolCalls
            tool_calls=vec![call]
            is_executing=is_executing
            default_expanded=default_expanded
            class=class
        />
    }
}

/// Spinner while running, a check in a circle once done.
#[component]
fn StepIcon(executing: bool) -> impl IntoView {
    view! {
        <span class="chat-tool-calls__icon" aria-hidden="true">
            {if executing {
                view! { <span class="chat-spinner"></span> }.into_any()
            } else {
                view! { <CheckCircleIcon/> }.into_any()
            }}
        </span>
    }
}

/// A tool call's heading: the label (reasoning → display name → formatted name) and, when the label
/// is not the formatted name, the formatted name as a subtitle.
fn labels(call: &ToolCallView, i18n: &I18n) -> (String, Option<String>) {
    let formatted = format_tool_name(&call.name, i18n);
    let given = call
        .reasoning
        .as_deref()
        .or(call.display_name.as_deref())
        .map(str::trim)
        .filter(|s| !s.is_empty());
    match given {
        Some(label) => (label.to_owned(), Some(formatted)),
        None => (formatted, None),
    }
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

/// A number for element ids, unique within the page.
fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// A tool's name for people, as the React library writes it: `_` → space, camelCase split, Title
/// Case; empty → "Unknown Tool".
pub fn format_tool_name(name: &str, i18n: &I18n) -> String {
    if name.trim().is_empty() {
        return i18n.t("chat-tool-call-unknown-tool");
    }
    crate::ui::format::title_case_tool(name)
}
