//! D46: `core::markdown::line_runs`, the direction of each line of a person's own message.
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::markdown::{line_runs, Direction};
use Direction::{Ltr, Rtl};

/// The runs of `text`, after checking that they join back to it exactly.
fn runs(text: &str) -> Vec<(Option<Direction>, &str)> {
    let runs = line_runs(text);
    assert_eq!(runs.iter().map(|(_, s)| *s).collect::<String>(), text);
    runs
}

/// D46: each line reads in its first letter's direction; consecutive lines of one direction are
/// one run.
#[test]
fn d46_each_line_takes_its_own_first_letter() {
    assert_eq!(
        runs("Hello there\nمرحبا\nكيف حالك؟"),
        [
            (Some(Ltr), "Hello there\n"),
            (Some(Rtl), "مرحبا\nكيف حالك؟")
        ]
    );
    assert_eq!(
        runs("שלום\nHi\nעוד"),
        [
            (Some(Rtl), "שלום\n"),
            (Some(Ltr), "Hi\n"),
            (Some(Rtl), "עוד")
        ]
    );
    assert_eq!(
        runs("one line"),
        [(Some(Ltr), "one line")],
        "one direction, one run"
    );
    assert_eq!(runs("a\nb\nc\n"), [(Some(Ltr), "a\nb\nc\n")]);
}

/// D46: lines without a letter (empty, spaces, digits, punctuation, emoji) stay with the line
/// before; those before the first letter read like it; text without any letter has no
/// direction of its own. Whitespace, empty lines and `\r` are kept.
#[test]
fn d46_lines_without_a_letter_follow_the_line_before() {
    assert_eq!(
        runs("Hello\n\n  42 !\n\nمرحبا\n\n🙂\n"),
        [
            (Some(Ltr), "Hello\n\n  42 !\n\n"),
            (Some(Rtl), "مرحبا\n\n🙂\n")
        ]
    );
    assert_eq!(
        runs("\n1)\n   مرحبا\nEnglish"),
        [(Some(Rtl), "\n1)\n   مرحبا\n"), (Some(Ltr), "English")],
        "leading lines without a letter read like the first letter"
    );
    assert_eq!(runs("123\n\n!?"), [(None, "123\n\n!?")]);
    assert_eq!(
        runs("Hi\r\nمرحبا\r\n"),
        [(Some(Ltr), "Hi\r\n"), (Some(Rtl), "مرحبا\r\n")]
    );
    assert_eq!(runs(""), []);
    assert_eq!(runs("\n\n"), [(None, "\n\n")]);
}

/// D46: markup is only text here: `<`, `*`, `#` lines are letters like any other.
#[test]
fn d46_markup_is_plain_text() {
    assert_eq!(
        runs("<img src=x onerror=alert(1)>\n# عنوان"),
        [
            (Some(Ltr), "<img src=x onerror=alert(1)>\n"),
            (Some(Rtl), "# عنوان")
        ]
    );
}
