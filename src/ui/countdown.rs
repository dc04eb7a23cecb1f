//! `<Countdown/>`: "Expires in 3 hours" → minutes → seconds, amber when little time is left.

use leptos::prelude::*;

use crate::core::{countdown, CountdownUnit, Millis};
use crate::ui::i18n::I18n;

/// Counts down to `deadline`, re-rendering once a second. `data-warning="true"` (amber) when
/// fewer than `warning_seconds` remain.
#[component]
pub fn Countdown(
    /// The deadline (epoch ms).
    deadline: Millis,
    /// Below this many seconds the countdown turns amber; a signal moves the threshold live.
    #[prop(into, default = Signal::stored(600))]
    warning_seconds: Signal<u64>,
) -> impl IntoView {
    let i18n = I18n::get();
    // One clock per chat drives every countdown (the store ticks while a deadline is open);
    // outside a chat the countdown keeps its own.
    let now = match use_context::<crate::store::ChatStore>() {
        Some(store) => store.server_now(),
        None => {
            let now = RwSignal::new(crate::io::clock::now());
            if let Ok(handle) = set_interval_with_handle(
                move || {
                    let _ = now.try_set(crate::io::clock::now());
                },
                std::time::Duration::from_secs(1),
            ) {
                on_cleanup(move || handle.clear());
            }
            now.read_only().into()
        }
    };
    let remaining = move || deadline.0.saturating_sub(now.get().0);
    let text = move || {
        let (unit, n) = countdown(remaining());
        let id = match unit {
            CountdownUnit::Hours => "chat-action-expires-hours",
            CountdownUnit::Minutes => "chat-action-expires-minutes",
            CountdownUnit::Seconds => "chat-action-expires-seconds",
        };
        i18n.t_args(id, &[("n", n.into())])
    };
    let warning = move || (remaining() < warning_seconds.get().saturating_mul(1000)).to_string();
    view! {
        <p class="chat-countdown" data-warning=warning>
            <crate::ui::icons::ClockIcon/>
            <span>{text}</span>
        </p>
    }
}
