//! Inline SVG icons. `aria-hidden`: every button that shows one has its own label.
//!
//! Each takes a `class` (added after `chat-icon`), like the React library's icons, so a host can
//! reuse them in its own slots: `<CopyIcon class="my-icon"/>`.

use leptos::prelude::*;

macro_rules! icon {
    ($(#[$doc:meta])* $name:ident, $($path:literal),+) => {
        $(#[$doc])*
        #[component]
        pub fn $name(
            /// Extra classes after `chat-icon`.
            #[prop(optional, into)]
            class: MaybeProp<String>,
        ) -> impl IntoView {
            view! {
                <svg class=move || crate::utils::cn(["chat-icon".to_owned(), class.get().unwrap_or_default()])
                    viewBox="0 0 24 24" width="18" height="18" fill="none"
                    stroke="currentColor" stroke-width="2" stroke-linecap="round"
                    stroke-linejoin="round" aria-hidden="true" focusable="false">
                    $(<path d=$path></path>)+
                </svg>
            }
        }
    };
}

icon!(/// Paper plane.
    SendIcon, "M22 2 11 13", "M22 2 15 22 11 13 2 9 22 2z");
icon!(/// Square.
    StopIcon, "M6 6h12v12H6z");
icon!(/// Plus sign.
    PlusIcon, "M12 5v14", "M5 12h14");
icon!(/// Cross.
    XIcon, "M18 6 6 18", "M6 6l12 12");
icon!(/// Bin.
    TrashIcon, "M3 6h18", "M8 6V4h8v2", "M19 6l-1 14H6L5 6");
icon!(/// Three lines.
    MenuIcon, "M3 6h18", "M3 12h18", "M3 18h18");
icon!(/// Chevron pointing down.
    ChevronDownIcon, "m6 9 6 6 6-6");
icon!(/// Tick.
    CheckIcon, "M20 6 9 17l-5-5");
icon!(/// Speech bubble.
    ChatIcon, "M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z");
icon!(/// Exclamation in a circle.
    AlertIcon, "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20z", "M12 8v4", "M12 16h.01");
icon!(/// Clock.
    ClockIcon, "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20z", "M12 6v6l4 2");
icon!(/// Shield with a tick: an approval.
    ShieldIcon, "M12 22s8-4 8-10V5l-8-3-8 3v7c0 6 8 10 8 10z", "m9 12 2 2 4-4");
icon!(/// Paperclip: attach files.
    PaperclipIcon, "m21.44 11.05-9.19 9.19a6 6 0 0 1-8.49-8.49l8.57-8.57A4 4 0 1 1 18 8.84l-8.59 8.57a2 2 0 0 1-2.83-2.83l8.49-8.48");
icon!(/// Sheet of paper with a folded corner: a file.
    FileIcon, "M14.5 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V7.5L14.5 2z", "M14 2v6h6");
icon!(/// Question mark in a circle.
    QuestionIcon, "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20z", "M9.1 9a3 3 0 0 1 5.8 1c0 2-3 3-3 3", "M12 17h.01");
icon!(/// Three sliders: settings.
    SlidersIcon, "M21 4h-7", "M10 4H3", "M21 12h-9", "M8 12H3", "M21 20h-5", "M12 20H3",
    "M14 2v4", "M8 10v4", "M16 18v4");
icon!(/// Chevron pointing right (a collapsed group).
    ChevronRightIcon, "m9 18 6-6-6-6");
icon!(/// Wrench: a tool call.
    ToolIcon, "M14.7 6.3a1 1 0 0 0 0 1.4l1.6 1.6a1 1 0 0 0 1.4 0l3.77-3.77a6 6 0 0 1-7.94 7.94l-6.91 6.91a2.12 2.12 0 0 1-3-3l6.91-6.91a6 6 0 0 1 7.94-7.94l-3.76 3.76z");
icon!(/// Open circle that spins under `.chat-icon--spin` (work in progress).
    LoadingIcon, "M21 12a9 9 0 1 1-6.22-8.56");
icon!(/// Two circling arrows: regenerate.
    RefreshIcon, "M3 12a9 9 0 0 1 15.5-6.2L21 8", "M21 3v5h-5", "M21 12a9 9 0 0 1-15.5 6.2L3 16", "M8 16H3v5");
icon!(/// Magnifying glass.
    SearchIcon, "M11 4a7 7 0 1 0 0 14 7 7 0 0 0 0-14z", "m21 21-4.35-4.35");
icon!(/// Two overlapping sheets: copy.
    CopyIcon, "M10 8h10a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H10a2 2 0 0 1-2-2V10a2 2 0 0 1 2-2z", "M4 16a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h10a2 2 0 0 1 2 2");
icon!(/// Thumb up: a good response.
    ThumbsUpIcon, "M7 10v12", "M15 5.88 14 10h5.83a2 2 0 0 1 1.92 2.56l-2.33 8A2 2 0 0 1 17.5 22H4a2 2 0 0 1-2-2v-8a2 2 0 0 1 2-2h2.76a2 2 0 0 0 1.79-1.11L12 2a3.13 3.13 0 0 1 3 3.88z");
icon!(/// Thumb down: a bad response.
    ThumbsDownIcon, "M17 14V2", "M9 18.12 10 14H4.17a2 2 0 0 1-1.92-2.56l2.33-8A2 2 0 0 1 6.5 2H20a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2h-2.76a2 2 0 0 0-1.79 1.11L12 22a3.13 3.13 0 0 1-3-3.88z");
icon!(/// Check mark in a circle: a finished step.
    CheckCircleIcon, "M22 11.08V12a10 10 0 1 1-5.93-9.14", "M22 4 12 14.01l-3-3");
