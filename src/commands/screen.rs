//! What every command that opens the triage screen shares: the config file's theme, key
//! bindings and thresholds, and the causes engine with twin what-ifs.

use super::{load_config, Failure};
use crate::app::{Assessor, Keymap};
use crate::cli::UiArgs;
use crate::config::Config;
use crate::pipeline::ScreenAssessor;
use crate::pipeline::TwinWhatIf;
use crate::tui::TuiOptions;
use std::path::Path;
use std::sync::Arc;

/// The config file, or a one-line error pointing at it.
pub fn config(flag: Option<&Path>) -> Result<Config, Failure> {
    load_config(flag).map_err(Failure::bad_input)
}

/// Applies `--theme`, `--no-color`, `--ascii` and `--no-mouse`.
fn with_ui(mut opts: TuiOptions, ui: &UiArgs) -> TuiOptions {
    opts.theme = ui.theme.clone();
    opts.no_color = ui.no_color;
    opts.ascii = ui.ascii;
    if ui.no_mouse {
        opts.mouse = false;
    }
    opts
}

/// Applies the config (theme, bindings) under the command-line UI flags, which win.
pub fn options(
    mut opts: TuiOptions,
    ui: &UiArgs,
    config: &Config,
    profile_theme: Option<&str>,
) -> Result<TuiOptions, Failure> {
    opts = with_ui(opts, ui);
    if opts.theme.is_none() {
        opts.theme =
            super::settings::theme(None, profile_theme, config).map(|(t, _)| t.to_string());
        // A theme from the config file is blamed on the config file and its line, not on a
        // --theme flag nobody gave.
        let unknown = opts
            .theme
            .as_deref()
            .is_some_and(|t| !crate::config::theme_exists(t));
        if unknown {
            if let Some(path) = &config.path {
                let text = crate::output::read_bounded(path, crate::config::MAX_CONFIG_BYTES)
                    .unwrap_or_default();
                config
                    .check_themes(&path.display().to_string(), &text)
                    .map_err(Failure::bad_input)?;
            }
        }
    }
    opts.thresholds = config.thresholds.clone();
    opts.record_zstd = config.record_compress == Some(true);
    if config.mouse == Some(false) {
        opts.mouse = false;
    }
    if let Some(h) = config.history {
        opts.history = h;
    }
    opts.keymap = Keymap::default()
        .with_overrides(
            config
                .bindings
                .iter()
                .map(|(a, k)| (a.as_str(), k.as_str())),
        )
        .map_err(|e| Failure::bad_input(format!("config: {e}")))?;
    Ok(opts)
}

/// The screen asks its driver for the causes; the drill-down gets what-ifs from the twin.
pub fn assessor() -> Assessor {
    ScreenAssessor::new(Some(Arc::new(TwinWhatIf::default()))).into_assessor()
}
