//! Inline SVG icons (F173). `aria-hidden`: every button that shows one has its own label.

use leptos::prelude::*;

macro_rules! icon {
    ($(#[$doc:meta])* $name:ident, $($path:literal),+) => {
        $(#[$doc])*
        #[component]
        pub fn $name() -> impl IntoView {
            view! {
                <svg class="chat-icon" viewBox="0 0 24 24" width="18" height="18" fill="none"
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
