//! What a settled card records under its outcome (who approved,
//! which version of the draft they saw, when execution started, and the final provider
//! result): who decided, when (relative, the full time on hover and focus), the version, the
//! arguments that ran with a diff against the proposal, and the tool's result or error.

use leptos::prelude::*;

use crate::core::{format_iso, DecidedBy, Receipt};
use crate::ui::cards::approval::ArgumentDiff;
use crate::ui::i18n::I18n;

/// The receipt of a settled card. Server text (names, results, errors) is shown as text.
#[component]
pub fn CardReceipt(
    /// What to show.
    receipt: Receipt,
) -> impl IntoView {
    let i18n = I18n::get();
    let by = receipt.by.clone().map(|by| {
        let who = match by {
            DecidedBy::You => i18n.t("chat-action-receipt-you"),
            DecidedBy::Named(name) => name,
        };
        view! {
            <dt>{move || i18n.t("chat-action-receipt-by")}</dt>
            <dd class="chat-card__receipt-by" dir="auto">{who}</dd>
        }
    });
    let at = receipt.at.map(|at| {
        let full = format_iso(at);
        view! {
            <dt>{move || i18n.t("chat-action-receipt-at")}</dt>
            <dd>
                <time class="chat-card__receipt-at" datetime=full.clone() title=full tabindex="0">
                    {move || crate::ui::format::relative_time(&i18n, at)}
                </time>
            </dd>
        }
    });
    let version = receipt.version.map(|v| {
        view! {
            <dt>{move || i18n.t("chat-action-receipt-version")}</dt>
            <dd class="chat-card__receipt-version">{v.to_string()}</dd>
        }
    });
    let error = receipt.error.clone().map(|e| {
        view! {
            <dt>{move || i18n.t("chat-action-receipt-error")}</dt>
            <dd class="chat-card__receipt-error" dir="auto">{e}</dd>
        }
    });
    let result = receipt.result.clone().map(|r| {
        let text = match r {
            serde_json::Value::String(s) => s,
            other => serde_json::to_string_pretty(&other).unwrap_or_default(),
        };
        view! {
            <dt>{move || i18n.t("chat-action-receipt-result")}</dt>
            <dd><pre class="chat-card__receipt-result">{text}</pre></dd>
        }
    });
    let diff = receipt.changed_args.clone().map(|(proposal, ran)| {
        let changes = Memo::new(move |_| crate::core::diff_args(&proposal, &ran));
        view! { <ArgumentDiff changes=changes label="chat-action-receipt-ran"/> }
    });
    let history = (!receipt.steps.is_empty()).then(|| {
        let rows = receipt
            .steps
            .iter()
            .map(|step| {
                let kind = step.kind;
                let at = step.at.map(|at| {
                    let full = format_iso(at);
                    view! {
                        " "
                        <time class="chat-card__step-at" datetime=full.clone() title=full>
                            {crate::ui::format::local_date_time(at)}
                        </time>
                    }
                });
                let by = step.by.clone().map(|by| {
                    let who = match by {
                        DecidedBy::You => i18n.t("chat-action-receipt-you"),
                        DecidedBy::Named(name) => name,
                    };
                    view! { " " <span class="chat-card__step-by" dir="auto">{move || i18n.t_args("chat-action-step-by", &[("name", who.clone().into())])}</span> }
                });
                let version = step.version.map(|v| {
                    view! { " " <span class="chat-card__step-version">{move || i18n.t_args("chat-action-step-version", &[("n", v.into())])}</span> }
                });
                view! {
                    <li class="chat-card__step" data-step=kind.as_str()>
                        <span class="chat-card__step-what">{move || i18n.t(kind.fluent_id())}</span>
                        {at}{by}{version}
                    </li>
                }
            })
            .collect_view();
        view! {
            <div class="chat-card__history">
                <p class="chat-card__history-title">{move || i18n.t("chat-action-history")}</p>
                <ol class="chat-card__steps">{rows}</ol>
            </div>
        }
    });
    view! {
        <div class="chat-card__receipt">
            <dl class="chat-card__receipt-list">{by}{at}{version}{error}{result}</dl>
            {diff}
            {history}
        </div>
    }
}
