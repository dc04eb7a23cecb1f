//! `<ToolCalls/>`: the steps an assistant took (tool name, arguments, result), collapsible.

use leptos::prelude::*;
use serde_json::Value;

use crate::ui::i18n::I18n;

/// One tool call as the list renders it.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolCallView {
    /// Call id.
    pub id: String,
    /// Tool name (or display name).
    pub name: String,
    /// Arguments.
    pub args: Value,
    /// Result, once known.
    pub result: Option<Value>,
}

/// Tool steps, latest first (F111–F117).
#[component]
pub fn ToolCalls(
    /// Calls in the order they happened.
    calls: Vec<ToolCallView>,
    /// Whether the latest call is still running (spinner instead of a check).
    executing: bool,
    /// Total duration in seconds, shown when done.
    duration: Option<u64>,
) -> impl IntoView {
    let i18n = I18n::get();
    let count = calls.len();
    let rows = calls
        .into_iter()
        .rev()
        .map(|call| {
            let name = format_tool_name(&call.name, &i18n);
            let args = pretty(&call.args);
            let result = call.result.as_ref().map(pretty);
            let done = call.result.is_some() || !executing;
            view! {
                <details class="chat-tool-call" data-state=if done { "completed" } else { "executing" }>
                    <summary class="chat-tool-call__summary">
                        <span class="chat-tool-call__icon" aria-hidden="true">
                            {if done { view! { <crate::ui::icons::CheckIcon/> }.into_any() } else { view! { <span class="chat-spinner"></span> }.into_any() }}
                        </span>
                        <span class="chat-tool-call__name">{name}</span>
                        <span class="chat-tool-call__status">
                            {move || if done { i18n.t("chat-tool-call-completed") } else { i18n.t("chat-tool-call-executing") }}
                        </span>
                    </summary>
                    <div class="chat-tool-call__details">
                        <p class="chat-tool-call__label">{move || i18n.t("chat-tool-call-input")}</p>
                        <pre class="chat-tool-call__code">{args}</pre>
                        {result.map(|r| view! {
                            <p class="chat-tool-call__label">{move || i18n.t("chat-tool-call-output")}</p>
                            <pre class="chat-tool-call__code">{r}</pre>
                        })}
                    </div>
                </details>
            }
        })
        .collect_view();
    // F113/F117: "{n} previous steps · Ns" under the latest step; nothing to say for a single
    // instant step.
    let older = count.saturating_sub(1);
    let secs = duration.filter(|_| !executing).unwrap_or(0);
    let footer = (older > 0 || secs > 0).then(|| {
        view! {
            <p class="chat-tool-calls__duration">
                {move || {
                    let mut parts = Vec::new();
                    if older > 0 {
                        parts.push(i18n.t_args("chat-tool-call-previous-steps", &[("count", older.into())]));
                    }
                    if secs > 0 {
                        parts.push(i18n.t_args("chat-tool-call-duration", &[("seconds", secs.into())]));
                    }
                    parts.join(" · ")
                }}
            </p>
        }
    });
    view! { <div class="chat-tool-calls">{rows}{footer}</div> }
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

/// F116: `_` → space, camelCase split, Title Case; empty → "Unknown Tool".
pub fn format_tool_name(name: &str, i18n: &I18n) -> String {
    if name.trim().is_empty() {
        return i18n.t("chat-tool-call-unknown-tool");
    }
    crate::ui::format::title_case_tool(name)
}
