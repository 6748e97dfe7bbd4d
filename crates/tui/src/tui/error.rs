//! What can stop the screen before or while it runs. The commands turn it into one line and
//! an exit code at the edge (`commands::Failure`); the screen knows nothing of them.

use crate::ui::theme::ThemeError;

#[derive(Debug, thiserror::Error)]
pub enum TuiError {
    /// Scripts and pipes get pointed at the headless commands.
    #[error("the triage screen needs a terminal on stdout; for scripts and pipes use `dgscope check`, `dgscope report` or `dgscope record`")]
    NoTerminal,
    #[error("--theme {name:?}: unknown theme; built-in themes: dark, light, high-contrast, mono (user themes: {user_dir})")]
    UnknownTheme { name: String, user_dir: String },
    /// A built-in or user theme file that does not load.
    #[error(transparent)]
    Theme(#[from] ThemeError),
    #[error("cannot start the runtime: {0}")]
    Runtime(std::io::Error),
    #[error("terminal error: {0}")]
    Terminal(std::io::Error),
}

impl TuiError {
    /// Bad input (no terminal, a theme that does not exist or load), as opposed to a
    /// failure of the machine: the commands exit 2 for these, 1 for the others.
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            TuiError::NoTerminal | TuiError::UnknownTheme { .. } | TuiError::Theme(_)
        )
    }
}
