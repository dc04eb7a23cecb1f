//! The first draw of a chat behind an instant shell, spread over tasks (issue 37, D96): shown
//! only when drawn whole, never hidden again; a chat without a shell draws at once.
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::first_draw::{FirstDraw, Stage};

/// Every stage a chat goes through, from its first.
fn stages(draw: FirstDraw) -> Vec<Stage> {
    let mut all = vec![Stage::first(draw)];
    while let Some(next) = all.last().and_then(|s| s.next()) {
        all.push(next);
    }
    all
}

#[test]
fn i37_a_chat_without_a_shell_draws_everything_in_its_first_task() {
    assert_eq!(stages(FirstDraw::AtOnce), vec![Stage::Shown]);
    assert!(Stage::first(FirstDraw::AtOnce).draws_composer());
    assert!(Stage::first(FirstDraw::AtOnce).draws_parts());
    assert!(!Stage::first(FirstDraw::AtOnce).hidden(false));
    assert_eq!(FirstDraw::default(), FirstDraw::AtOnce);
}

#[test]
fn i37_a_staged_chat_draws_its_frame_then_its_composer_then_its_parts_then_shows() {
    assert_eq!(
        stages(FirstDraw::Staged),
        vec![Stage::Frame, Stage::Composer, Stage::Parts, Stage::Shown]
    );
    assert!(!Stage::Frame.draws_composer() && !Stage::Frame.draws_parts());
    assert!(Stage::Composer.draws_composer() && !Stage::Composer.draws_parts());
    assert!(Stage::Parts.draws_composer() && Stage::Parts.draws_parts());
}

#[test]
fn i37_a_staged_chat_shows_only_once_drawn_whole_and_never_hides_again() {
    for stage in stages(FirstDraw::Staged) {
        if !stage.hidden(false) {
            assert!(
                stage.draws_composer() && stage.draws_parts(),
                "{stage:?} shown with parts missing"
            );
            assert!(
                stages(FirstDraw::Staged)
                    .into_iter()
                    .filter(|s| *s > stage)
                    .all(|s| !s.hidden(false)),
                "hidden again after {stage:?}"
            );
        }
    }
    for stage in [Stage::Frame, Stage::Composer, Stage::Parts] {
        assert!(stage.hidden(false), "{stage:?}");
    }
}

#[test]
fn i37_waiting_for_the_language_keeps_any_stage_hidden() {
    for stage in [Stage::Frame, Stage::Composer, Stage::Parts, Stage::Shown] {
        assert!(stage.hidden(true), "{stage:?}");
    }
}
