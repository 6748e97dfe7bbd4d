//! The config file: named profiles, cause thresholds, key bindings, the default theme and the
//! history length. Found in the platform config directory (`directories`), overridden by
//! `--config FILE` or `DGSCOPE_CONFIG`. Errors name `file:line:col`.

use crate::causes::Thresholds;
use crate::source::oracle::Secret;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub const ENV_CONFIG: &str = "DGSCOPE_CONFIG";

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Default theme name (built-in or from `<config dir>/themes/`).
    pub theme: Option<String>,
    /// Points of history kept per database (1 per sample).
    pub history: Option<usize>,
    /// Default sampling interval for live databases, e.g. "1s".
    pub interval: Option<String>,
    /// `false`: never capture the mouse (as `--no-mouse`), so the terminal selects text.
    pub mouse: Option<bool>,
    pub thresholds: Thresholds,
    /// `action = "key"`, e.g. `quit = "ctrl-q"`.
    pub bindings: BTreeMap<String, String>,
    pub profiles: BTreeMap<String, Profile>,
}

/// A named pair (or set) of databases: `dgscope watch prod`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Profile {
    pub primary: Option<String>,
    #[serde(deserialize_with = "one_or_many")]
    pub standby: Vec<String>,
    /// sysdg (default), sysdba or normal.
    pub standby_as: Option<String>,
    pub interval: Option<String>,
    pub theme: Option<String>,
    /// Name of the environment variable holding the password.
    pub password_env: Option<String>,
    /// The password itself: allowed only in a file nobody else can read (mode 0600).
    #[serde(deserialize_with = "secret")]
    pub password: Option<Secret>,
    pub oracle_client_dir: Option<PathBuf>,
    /// For `dgscope demo`-style profiles: a twin scenario instead of databases.
    pub scenario: Option<String>,
}

fn secret<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Secret>, D::Error> {
    Ok(Some(Secret::new(String::deserialize(d)?)))
}

fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    Ok(match OneOrMany::deserialize(d)? {
        OneOrMany::One(s) => vec![s],
        OneOrMany::Many(v) => v,
    })
}

/// A config problem, pointing at the spot: `FILE:LINE:COL: what; how to fix`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("{path}: cannot read the config file: {reason}")]
    Read { path: String, reason: String },
    #[error("{path}: holds a password but other users can read it (mode {mode:o}); run: chmod 600 {path}")]
    Exposed { path: String, mode: u32 },
    #[error("{path}:{line}:{col}: {message}")]
    At {
        path: String,
        line: usize,
        col: usize,
        message: String,
    },
}

/// Where the config file is: `--config`, then `DGSCOPE_CONFIG`, then the platform directory.
pub fn config_path(flag: Option<&Path>) -> Option<PathBuf> {
    if let Some(p) = flag {
        return Some(p.to_path_buf());
    }
    if let Some(p) = std::env::var_os(ENV_CONFIG).filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    config_dir().map(|d| d.join("config.toml"))
}

/// The platform config directory (`~/.config/dgscope` on Linux).
pub fn config_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "dgscope").map(|d| d.config_dir().to_path_buf())
}

/// 1-based line and column of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rfind('\n').map_or(offset, |i| offset - i - 1) + 1;
    (line, col)
}

impl Config {
    /// Parses config text; `path` only names the file in errors.
    pub fn parse(path: &str, text: &str) -> Result<Config, ConfigError> {
        let config: Config = toml::from_str(text).map_err(|e| {
            let (line, col) = e.span().map_or((1, 1), |s| line_col(text, s.start));
            ConfigError::At {
                path: path.to_string(),
                line,
                col,
                message: shorten_expected(e.message().trim()),
            }
        })?;
        config.validate(path, text)?;
        Ok(config)
    }

    /// Loads the file at `path`; a missing file at the default location is an empty config.
    pub fn load(path: &Path, must_exist: bool) -> Result<Config, ConfigError> {
        let display = path.display().to_string();
        match std::fs::read_to_string(path) {
            Ok(text) => {
                let config = Config::parse(&display, &text)?;
                if config.profiles.values().any(|p| p.password.is_some()) {
                    check_private(path, &display)?;
                }
                Ok(config)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !must_exist => {
                Ok(Config::default())
            }
            Err(e) => Err(ConfigError::Read {
                path: display,
                reason: e.to_string(),
            }),
        }
    }

    /// Checks what TOML cannot: values in range, names that exist.
    fn validate(&self, path: &str, text: &str) -> Result<(), ConfigError> {
        let at = |needle: &str, message: String| {
            let offset = text.find(needle).unwrap_or(0);
            let (line, col) = line_col(text, offset);
            ConfigError::At {
                path: path.to_string(),
                line,
                col,
                message,
            }
        };
        if let Some(i) = &self.interval {
            check_duration(i).map_err(|m| at("interval", m))?;
        }
        if self.history == Some(0) {
            return Err(at("history", "history must be at least 1 point".into()));
        }
        let mut keymap = crate::app::Keymap::default();
        for (action, key) in &self.bindings {
            keymap
                .bind(action, key)
                .map_err(|m| at(&format!("{action} ="), m))?;
        }
        for (name, p) in &self.profiles {
            let here = format!("[profiles.{name}]");
            if p.primary.is_none() && p.scenario.is_none() {
                return Err(at(
                    &here,
                    format!("profile {name:?} needs primary = \"user@//host:port/service\" (or scenario = \"…\" for the twin)"),
                ));
            }
            if let Some(i) = &p.interval {
                check_duration(i).map_err(|m| at(&here, format!("profile {name:?}: {m}")))?;
            }
            if let Some(a) = &p.standby_as {
                if !matches!(a.as_str(), "sysdg" | "sysdba" | "normal") {
                    return Err(at(
                        &here,
                        format!(
                            "profile {name:?}: standby_as = {a:?} must be sysdg, sysdba or normal"
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    pub fn profile(&self, name: &str) -> Option<&Profile> {
        self.profiles.get(name)
    }

    /// The named profile, or the one line a user needs: which profiles exist instead.
    pub fn require_profile(&self, name: &str) -> Result<&Profile, String> {
        self.profile(name).ok_or_else(|| {
            format!(
                "no profile {name:?} in the config file; it has: {} (dgscope config path shows where it is)",
                if self.profiles.is_empty() {
                    "none (dgscope config init writes a template)".to_string()
                } else {
                    self.profiles.keys().cloned().collect::<Vec<_>>().join(", ")
                }
            )
        })
    }
}

/// serde lists every field it expected; past a handful that hides the point of the line.
fn shorten_expected(message: &str) -> String {
    let one_line = message.replace('\n', " ");
    match one_line.split_once(", expected one of ") {
        Some((head, list)) if list.matches('`').count() > 16 => {
            format!(
                "{head}; the known keys are listed by `dgscope config init` and in docs/CONFIG.md"
            )
        }
        _ => one_line,
    }
}

/// A file holding a password must be readable by its owner only.
#[cfg(unix)]
fn check_private(path: &Path, display: &str) -> Result<(), ConfigError> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path)
        .map_err(|e| ConfigError::Read {
            path: display.to_string(),
            reason: e.to_string(),
        })?
        .permissions()
        .mode()
        & 0o777;
    if mode & 0o077 != 0 {
        return Err(ConfigError::Exposed {
            path: display.to_string(),
            mode,
        });
    }
    Ok(())
}

#[cfg(not(unix))]
fn check_private(_path: &Path, _display: &str) -> Result<(), ConfigError> {
    Ok(())
}

fn check_duration(s: &str) -> Result<(), String> {
    match humantime::parse_duration(s) {
        Ok(d) if d.as_millis() >= 100 => Ok(()),
        Ok(_) => Err(format!("interval {s:?} is too short; use 100ms or more")),
        Err(e) => Err(format!(
            "interval {s:?} is not a duration like 1s or 500ms ({e})"
        )),
    }
}

/// The commented template `dgscope config init` writes.
pub const TEMPLATE: &str = r#"# dgscope configuration — see docs/CONFIG.md for every key.
# Found at the platform config directory; override with --config FILE or DGSCOPE_CONFIG.

# Default theme: dark, light, high-contrast, mono, or a file in the themes/ folder here.
# theme = "dark"

# Points of history kept per database (one per sample; 3600 = one hour at 1 s).
# history = 3600

# Default sampling interval for live databases.
# interval = "1s"

# Capture the mouse (click a pane, scroll with the wheel); false leaves it to the terminal
# for selecting text, as --no-mouse does.
# mouse = true

# A named pair of databases: `dgscope watch prod`. Passwords never go here: use
# password_env (the name of an environment variable), the prompt, or an Oracle wallet.
# [profiles.prod]
# primary = "dgmon@//prod-a-scan:1521/PROD"
# standby = ["dgmon@//prod-b-scan:1521/PROD_SB"]
# standby_as = "sysdg"          # sysdg (default), sysdba (11.2) or normal (Active Data Guard)
# interval = "1s"
# theme = "dark"
# password_env = "DGSCOPE_PROD_PASSWORD"
# oracle_client_dir = "/opt/oracle/instantclient_23_6"

# A twin profile for practice: `dgscope demo` with a scenario.
# [profiles.practice]
# scenario = "slow-srl"

# Cause thresholds (defaults shown). Every key is listed in docs/CONFIG.md; docs/FINDINGS.md
# explains the findings.
# [thresholds]
# remote_min_ms = 1.0           # standby-redo-write-slow: SYNC Remote Write at least this
# lfpw_warn_ms = 1.0            # lgwr-write-slow
# switches_per_hour = 6.0       # log-switch-frequent
# transport_lag_s = 10.0        # transport-bandwidth
# apply_gap_s = 10.0            # apply-bound
# raise_after_s = 15.0          # a condition must hold this long to raise a finding
# clear_after_s = 30.0          # and be false this long to clear it

# Key bindings: action = "key" (modifiers: ctrl-, alt-, shift-).
# [bindings]
# quit = "q"
# help = "?"
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_parses_and_a_full_config_round_trips() {
        assert_eq!(Config::parse("t", TEMPLATE).unwrap(), Config::default());
        let text = r#"
theme = "light"
history = 600
[profiles.prod]
primary = "dgmon@//a:1521/P"
standby = "dgmon@//b:1521/S"
standby_as = "sysdba"
[profiles.multi]
primary = "dgmon@P"
standby = ["dgmon@S1", "dgmon@S2"]
[thresholds]
lfpw_warn_ms = 2.5
[bindings]
quit = "ctrl-q"
"#;
        let c = Config::parse("c.toml", text).unwrap();
        assert_eq!(c.theme.as_deref(), Some("light"));
        assert_eq!(c.profile("prod").unwrap().standby, vec!["dgmon@//b:1521/S"]);
        assert_eq!(c.profile("multi").unwrap().standby.len(), 2);
        assert_eq!(c.thresholds.lfpw_warn_ms, 2.5);
        assert_eq!(c.thresholds.remote_min_ms, 1.0);
        assert_eq!(c.bindings["quit"], "ctrl-q");
    }

    #[test]
    fn errors_point_at_file_line_col() {
        let bad = "theme = \"dark\"\n[thresholds]\nlfpw_warn_mz = 2\n";
        let e = Config::parse("c.toml", bad).unwrap_err().to_string();
        assert!(
            e.starts_with("c.toml:3:1: unknown field `lfpw_warn_mz`"),
            "{e}"
        );
        let syntax = "theme = \"dark\n";
        let e = Config::parse("c.toml", syntax).unwrap_err().to_string();
        assert!(e.starts_with("c.toml:1:"), "{e}");
        let typ = "history = \"long\"\n";
        let e = Config::parse("c.toml", typ).unwrap_err().to_string();
        assert!(e.starts_with("c.toml:1:11: invalid type"), "{e}");
        let no_primary = "[profiles.x]\nstandby = \"s\"\n";
        let e = Config::parse("c.toml", no_primary).unwrap_err().to_string();
        assert!(
            e.starts_with("c.toml:1:1: profile \"x\" needs primary"),
            "{e}"
        );
        let bad_as = "[profiles.x]\nprimary = \"p\"\nstandby_as = \"root\"\n";
        let e = Config::parse("c.toml", bad_as).unwrap_err().to_string();
        assert!(e.contains("must be sysdg, sysdba or normal"), "{e}");
        let bad_interval = "interval = \"fast\"\n";
        let e = Config::parse("c.toml", bad_interval)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("c.toml:1:1: interval \"fast\" is not a duration"),
            "{e}"
        );
    }

    #[test]
    fn bindings_are_checked_against_the_screen_s_actions() {
        let e = Config::parse("c.toml", "[bindings]\nquit = \"q\"\nfly = \"f\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("c.toml:3:1: unknown action \"fly\""), "{e}");
        let e = Config::parse("c.toml", "[bindings]\nquit = \"ctrl-\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("c.toml:2:1: [bindings] quit:"), "{e}");
        assert!(Config::parse("c.toml", "[bindings]\nquit = \"ctrl-q\"\n").is_ok());
    }

    #[test]
    fn missing_default_file_is_empty_but_named_file_must_exist() {
        let p = Path::new("/nonexistent/dgscope/config.toml");
        assert_eq!(Config::load(p, false).unwrap(), Config::default());
        assert!(Config::load(p, true)
            .unwrap_err()
            .to_string()
            .starts_with("/nonexistent/dgscope/config.toml: cannot read"));
    }

    #[cfg(unix)]
    #[test]
    fn a_password_needs_a_private_file() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(
            &path,
            "[profiles.prod]\nprimary = \"dgmon@P\"\npassword = \"s3cret-pw\"\n",
        )
        .unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let e = Config::load(&path, true).unwrap_err().to_string();
        assert!(e.contains("mode 644); run: chmod 600"), "{e}");
        assert!(!e.contains("s3cret-pw"));
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        let c = Config::load(&path, true).unwrap();
        let p = c.profile("prod").unwrap();
        assert_eq!(p.password.as_ref().unwrap().expose(), "s3cret-pw");
        assert!(!format!("{c:?}").contains("s3cret-pw"));
        // Without a password any mode is fine.
        std::fs::write(&path, "[profiles.prod]\nprimary = \"dgmon@P\"\n").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert!(Config::load(&path, true).is_ok());
    }

    #[test]
    fn line_col_counts_from_one() {
        assert_eq!(line_col("ab\ncd", 0), (1, 1));
        assert_eq!(line_col("ab\ncd", 4), (2, 2));
    }
}
