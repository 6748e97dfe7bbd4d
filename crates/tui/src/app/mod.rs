//! The app: a pure state machine between the metrics/causes and the screen. Keys become
//! [`Action`]s through the [`Keymap`]; [`update`] changes the [`App`] and queues [`Effect`]s
//! for the event loop.

pub(crate) mod action;
pub(crate) mod control;
pub(crate) mod keymap;
pub(crate) mod state;
pub(crate) mod update;

pub use action::Action;
pub use control::{Control, Pace};
pub use keymap::{KeyChord, Keymap};
pub use state::{
    App, AppConfig, Assessor, Effect, Mode, Overlay, Pane, Screen, ThemeName, WARMUP_SAMPLES,
};
pub use update::{default_pace, paste, update, NOTE_MAX_CHARS};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// The action a key press means right now: text input while the note box is open, the keymap
/// otherwise.
pub fn action_for_key<T>(app: &App<T>, key: &KeyEvent) -> Option<Action> {
    if matches!(app.overlay, Some(Overlay::MarkInput { .. })) {
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
