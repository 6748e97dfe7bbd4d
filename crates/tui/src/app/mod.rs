//! The app: a pure state machine between the metrics/causes and the screen. Keys become
//! [`Action`]s through the [`Keymap`]; [`update`] changes the [`App`] and queues [`Effect`]s
//! for the event loop.

pub(crate) mod action;
pub(crate) mod control;
pub(crate) mod fleet;
pub(crate) mod keymap;
pub(crate) mod search;
pub(crate) mod state;
pub(crate) mod update;

pub use action::Action;
pub use control::{Control, Pace};
pub use fleet::{BoardOutcome, Fleet, FleetPair, Row, SortKey, SPARK_POINTS};
pub use keymap::{KeyChord, Keymap};
pub use search::{match_spans, Search};
pub use state::{
    App, AppConfig, Assessor, Effect, Mode, Overlay, Pane, Screen, ThemeName, WARMUP_SAMPLES,
};
pub use update::{default_pace, paste, update, NOTE_MAX_CHARS};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// The action a key press means right now: text input while the note box is open, the keymap
/// otherwise.
pub fn action_for_key<T>(app: &App<T>, key: &KeyEvent) -> Option<Action> {
    let typing_search = app.search.as_ref().is_some_and(|s| s.editing);
    let in_drill = app.overlay.is_none() && search::in_document(app);
    if let (Some(_), false, true) = (&app.search, typing_search, in_drill) {
        // A search made: n and N move between its matches, as in less.
        match key.code {
            KeyCode::Char('n') if key.modifiers.difference(KeyModifiers::SHIFT).is_empty() => {
                return Some(Action::SearchNext)
            }
            KeyCode::Char('N') => return Some(Action::SearchPrev),
            _ => {}
        }
    }
    if typing_search || matches!(app.overlay, Some(Overlay::MarkInput { .. })) {
        return match key.code {
            KeyCode::Enter => Some(Action::Enter),
            KeyCode::Esc => Some(Action::Back),
            KeyCode::Backspace => Some(Action::DeleteChar),
            KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => {
                Some(Action::Back)
            }
            KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => {
                Some(Action::Char(c))
            }
            _ => None,
        };
    }
    app.cfg.keymap.action(KeyChord::from_event(key))
}
