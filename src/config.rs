//! The config file: named profiles, cause thresholds, key bindings, the default theme and the
//! history length. Found in the platform config directory (`directories`), overridden by
//! `--config FILE` or `DGSCOPE_CONFIG`. Errors name `file:line:col`.

use crate::causes::Thresholds;
use crate::source::oracle::Secret;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub const ENV_CONFIG: &str = "DGSCOPE_CONFIG";

/// The largest config file read: a config with a hundred profiles is a few KiB. A bigger
/// "config" (`--config /dev/zero`) is refused after this many bytes, never read whole.
pub const MAX_CONFIG_BYTES: u64 = 1024 * 1024;
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
    /// `check`: lowest status with a non-zero exit code (warn, crit), as `--fail-on`.
    pub fail_on: Option<String>,
    /// `check` and `record`: how long to sample, e.g. "5m", as `--duration`.
    pub duration: Option<String>,
    /// Append a log here (as `--log-file`); `log_level` as `--log-level`.
    pub log_file: Option<PathBuf>,
    pub log_level: Option<String>,
    /// Time zone of times in text output (as `--tz`): utc, local or Area/City.
    pub tz: Option<String>,
    /// `true`: recordings started with `r` on the screen are zstd-compressed (`.jsonl.zst`).
    pub record_compress: Option<bool>,
    pub thresholds: Thresholds,
    /// `action = "key"`, e.g. `quit = "ctrl-q"`, in file order (later ones see earlier ones).
    #[serde(deserialize_with = "in_file_order")]
    pub bindings: Vec<(String, String)>,
    pub profiles: BTreeMap<String, Profile>,
    /// The file this came from (set by [`Config::load`]), to blame it in later errors.
    #[serde(skip)]
    pub path: Option<PathBuf>,
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
    /// As the top-level `fail_on` and `duration`, for this profile only.
    pub fail_on: Option<String>,
    pub duration: Option<String>,
    /// Name of the environment variable holding the password.
    pub password_env: Option<String>,
    /// The password itself: allowed only in a file nobody else can read (mode 0600).
    #[serde(deserialize_with = "secret")]
    pub password: Option<Secret>,
    pub oracle_client_dir: Option<PathBuf>,
    /// For `dgscope demo`-style profiles: a twin scenario instead of databases.
    pub scenario: Option<String>,
    /// As the top-level `tz`, for this profile only: the zone its databases' DBAs read.
    pub tz: Option<String>,
}

/// A password that is not a string (`password = 12345`) is refused without the value: serde's
/// own message would quote it.
fn secret<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Secret>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        Text(String),
        Other(serde::de::IgnoredAny),
    }
    match Raw::deserialize(d)? {
        Raw::Text(s) => Ok(Some(Secret::new(s))),
        Raw::Other(_) => Err(serde::de::Error::custom(
            "password must be a quoted string (the value is not shown); better, use password_env",
        )),
    }
}

/// A TOML table as `(key, value)` pairs in the order the file has them: the spans say where
/// each key was (the table itself is sorted by name).
fn in_file_order<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Vec<(String, String)>, D::Error> {
    let map = BTreeMap::<toml::Spanned<String>, String>::deserialize(d)?;
    let mut pairs: Vec<_> = map.into_iter().collect();
    pairs.sort_by_key(|(k, _)| k.span().start);
    Ok(pairs
        .into_iter()
        .map(|(k, v)| (k.into_inner(), v))
        .collect())
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
        match crate::output::read_bounded(path, MAX_CONFIG_BYTES) {
            Ok(text) => {
                let mut config = Config::parse(&display, &text)?;
                config.path = Some(path.to_path_buf());
                if config.profiles.values().any(|p| p.password.is_some()) {
                    check_private(path, &display)?;
                }
                Ok(config)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !must_exist => {
                Ok(Config::default())
            }
            // The default place cannot even be looked at (a service user whose HOME is
            // another user's, or not a directory): there is no config to read, which is
            // allowed there; said once, since one may have been meant.
            Err(e)
                if !must_exist
                    && matches!(
                        e.kind(),
                        std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::NotADirectory
                    )
                    && std::fs::symlink_metadata(path).is_err() =>
            {
                static SAID: std::sync::Once = std::sync::Once::new();
                SAID.call_once(|| {
                    eprintln!(
                        "dgscope: note: cannot look for a config file at {} ({e}); going on without one (--config FILE names one)",
                        crate::sanitize::field(&display)
                    )
                });
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
        check_run_keys(self.fail_on.as_deref(), self.duration.as_deref())
            .map_err(|(key, m)| at(key, m))?;
        if let Some(z) = &self.tz {
            crate::timestamp::parse_zone(z).map_err(|m| at("tz", m.replacen("--tz", "tz =", 1)))?;
        }
        if let Some(l) = &self.log_level {
            if <crate::log::LogLevel as clap::ValueEnum>::from_str(l, true).is_err() {
                return Err(at(
                    "log_level",
                    format!("log_level = {l:?} must be error, warn, info, debug or trace"),
                ));
            }
        }
        if self.history == Some(0) {
            return Err(at("history", "history must be at least 1 point".into()));
        }
        if let Some(h) = self.history.filter(|h| *h > MAX_HISTORY) {
            return Err(at(
                "history",
                format!("history = {h} is more than {MAX_HISTORY} points (24 h at 1 s); use less"),
            ));
        }
        check_thresholds(&self.thresholds).map_err(|(key, m)| at(&format!("{key} ="), m))?;
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
            check_run_keys(p.fail_on.as_deref(), p.duration.as_deref())
                .map_err(|(_, m)| at(&here, format!("profile {name:?}: {m}")))?;
            if let Some(z) = &p.tz {
                crate::timestamp::parse_zone(z).map_err(|m| {
                    at(
                        &here,
                        format!("profile {name:?}: {}", m.replacen("--tz", "tz =", 1)),
                    )
                })?;
            }
            // A password in a connect string sits in the file whatever its mode, and would
            // reach argv-like places (headers, messages): refused everywhere, never echoed.
            let conns = p.primary.iter().map(|c| ("primary", c));
            let conns = conns.chain(p.standby.iter().map(|c| ("standby", c)));
            for (key, conn) in conns {
                if crate::source::oracle::connect::holds_password(conn) {
                    return Err(at(
                        &here,
                        format!("profile {name:?}: {key} holds a password (USER/PASSWORD@…; not shown); write USER@… and use password_env, the prompt or a wallet"),
                    ));
                }
            }
            if let Some(sc) = &p.scenario {
                if let Err(e) = sc.parse::<crate::source::twin::Scenario>() {
                    return Err(at(&here, format!("profile {name:?}: {e}")));
                }
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

/// Most points of history a config may ask for: a day at one sample a second.
pub const MAX_HISTORY: usize = 86_400;

/// Every threshold finite (TOML has `nan` and `inf`, and NaN silently disables a rule), not
/// negative, shares at most 1, percentages at most 100 and times at most a day.
fn check_thresholds(t: &Thresholds) -> Result<(), (String, String)> {
    let v = serde_json::to_value(t).unwrap_or_default();
    let Some(fields) = v.as_object() else {
        return Ok(());
    };
    for (key, value) in fields {
        let bad = |why: &str| Err((key.clone(), format!("[thresholds] {key}: {why}")));
        // serde_json writes NaN and ±infinity as null.
        let Some(x) = value.as_f64() else {
            return bad("must be a finite number (not nan or inf)");
        };
        if x < 0.0 {
            return bad(&format!("{x} is negative; thresholds are ≥ 0"));
        }
        let max = if key.contains("share") {
            1.0
        } else if key.ends_with("_pct") {
            100.0
        } else if key.ends_with("_s") || key.ends_with("_s_per_s") {
            86_400.0
        } else {
            1e9
        };
        if x > max {
            return bad(&format!("{x} is above the largest sensible value {max}"));
        }
    }
    if t.min_samples == 0 {
        return Err((
            "min_samples".into(),
            "[thresholds] min_samples: must be at least 1".into(),
        ));
    }
    Ok(())
}

/// Names a theme can have: a built-in, or a `*.toml` file in the user theme directory.
pub fn theme_exists(name: &str) -> bool {
    crate::ui::theme::Theme::builtin(name, false).is_ok()
        || crate::tui::user_theme_dir().is_some_and(|d| d.join(format!("{name}.toml")).is_file())
}

impl Config {
    /// What only `config check` (and the screen, before it starts) asks: do the themes the
    /// file names exist? Errors name the file and the line of the name.
    pub fn check_themes(&self, path: &str, text: &str) -> Result<(), ConfigError> {
        let mut named: Vec<(String, &str)> = Vec::new();
        if let Some(t) = &self.theme {
            named.push(("theme".into(), t));
        }
        for (name, p) in &self.profiles {
            if let Some(t) = &p.theme {
                named.push((format!("[profiles.{name}]"), t));
            }
        }
        for (needle, theme) in named {
            if !theme_exists(theme) {
                let offset = text.find(&needle).unwrap_or(0);
                let (line, col) = line_col(text, offset);
                return Err(ConfigError::At {
                    path: path.to_string(),
                    line,
                    col,
                    message: format!(
                        "unknown theme {theme:?}; built-in themes: dark, light, high-contrast, mono (user themes: {})",
                        crate::tui::user_theme_dir()
                            .map_or_else(|| "none".into(), |d| d.display().to_string())
                    ),
                });
            }
        }
        Ok(())
    }
}

/// `fail_on` is warn or crit; `duration` a duration above zero (the commands check ranges).
fn check_run_keys(
    fail_on: Option<&str>,
    duration: Option<&str>,
) -> Result<(), (&'static str, String)> {
    if let Some(f) = fail_on {
        if !matches!(f, "warn" | "crit") {
            return Err(("fail_on", format!("fail_on = {f:?} must be warn or crit")));
        }
    }
    if let Some(d) = duration {
        match humantime::parse_duration(d) {
            Ok(x) if !x.is_zero() => {}
            _ => {
                return Err((
                    "duration",
                    format!("duration = {d:?} is not a duration above zero like 60s or 10m"),
                ))
            }
        }
    }
    Ok(())
}

fn check_duration(s: &str) -> Result<(), String> {
    match humantime::parse_duration(s) {
        Ok(d) if d.as_millis() >= 100 && d.as_secs() <= 3600 => Ok(()),
        Ok(d) if d.as_secs() > 3600 => Err(format!("interval {s:?} is too long; use 1h or less")),
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

# `check`: the lowest status that exits non-zero (warn or crit), and how long `check`
# samples and `record` records (defaults: 7s for a live check, which fits check_nrpe's
# 10 s with findings holding through the run; 60s for check on the twin; 10m for record).
# fail_on = "warn"
# duration = "30s"

# A log for the first contact with a database and for bug reports (as --log-file and
# --log-level): connects, the probe's SQL variant, every ORA-/DPI- code. Never a password.
# log_file = "/var/tmp/dgscope.log"
# log_level = "info"

# Time zone of times in text (screen, check text, reports), as --tz: utc, local or an IANA
# name such as "Europe/Berlin". JSON and recordings are always UTC.
# tz = "utc"

# Recordings started with `r` on the screen are zstd-compressed (.jsonl.zst), about a
# fifth of the plain size; every command reads both forms.
# record_compress = false

# A named pair of databases: `dgscope watch prod`. Passwords never go here: use
# password_env (the name of an environment variable), the prompt, or an Oracle wallet.
# [profiles.prod]
# primary = "dgmon@//prod-a-scan:1521/PROD"
# standby = ["dgmon@//prod-b-scan:1521/PROD_SB"]
# standby_as = "sysdg"          # sysdg (default), sysdba (11.2) or normal (Active Data Guard)
# interval = "1s"
# theme = "dark"
# fail_on = "crit"              # also duration: any top-level key of check/record
# tz = "Asia/Tokyo"             # times in text for this profile (the top-level tz otherwise)
# password_env = "DGSCOPE_PROD_PASSWORD"
# oracle_client_dir = "/opt/oracle/instantclient_23_6"

# A twin profile for practice: `dgscope demo practice`, also `check practice` and
# `record practice -o FILE` (on the twin).
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
# impact_min_share = 0.25       # a commit-path or rate finding pages only when it explains
# impact_min_db_time_pct = 2.0  # this share of its symptom and this % of DB time
# healthy_local_write_ms = 0.5  # what "fixed" means: a 0.5 ms local redo write

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
        assert_eq!(c.bindings, vec![("quit".to_string(), "ctrl-q".to_string())]);
    }

    #[test]
    fn bindings_apply_in_file_order_and_conflicts_name_both() {
        let text = "[bindings]\nquit = \"ctrl-q\"\nhelp = \"q\"\n";
        let c = Config::parse("c.toml", text).unwrap();
        assert_eq!(c.bindings[0].0, "quit", "file order, not alphabetical");
        let e = Config::parse("c.toml", "[bindings]\nhelp = \"q\"\nquit = \"ctrl-q\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("c.toml:2:1: [bindings] help = \"q\" takes q, which quit needs"),
            "{e}"
        );
        let e = Config::parse("c.toml", "[bindings]\nmark = \"?\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("takes ?, which help needs"), "{e}");
    }

    #[test]
    fn thresholds_must_be_finite_and_in_range() {
        for (value, want) in [
            ("nan", "must be a finite number"),
            ("inf", "must be a finite number"),
            ("-inf", "must be a finite number"),
            ("-1.0", "is negative"),
        ] {
            let text = format!("[thresholds]\nlfpw_warn_ms = {value}\n");
            let e = Config::parse("c.toml", &text).unwrap_err().to_string();
            assert!(
                e.starts_with("c.toml:2:1: [thresholds] lfpw_warn_ms: "),
                "{e}"
            );
            assert!(e.contains(want), "{value}: {e}");
        }
        let e = Config::parse("c.toml", "[thresholds]\noutlier_max_wait_share = 2.0\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("above the largest sensible value 1"), "{e}");
        let e = Config::parse("c.toml", "history = 100000000\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("more than 86400 points"), "{e}");
    }

    #[test]
    fn passwords_are_never_echoed_and_never_in_connect_strings() {
        let text = "[profiles.p]\nprimary = \"dgmon@P\"\npassword = 424242\n";
        let e = Config::parse("c.toml", text).unwrap_err().to_string();
        assert!(e.contains("password must be a quoted string"), "{e}");
        assert!(!e.contains("424242"), "{e}");
        for conn in [
            "primary = \"scott/tiger42@//h/S\"",
            "primary = \"p@P\"\nstandby = [\"scott/tiger42@S\"]",
        ] {
            let text = format!("[profiles.p]\n{conn}\n");
            let e = Config::parse("c.toml", &text).unwrap_err().to_string();
            assert!(e.contains("holds a password"), "{e}");
            assert!(!e.contains("tiger42"), "{e}");
        }
    }

    #[test]
    fn unknown_scenarios_and_themes_are_named_with_their_line() {
        let e = Config::parse("c.toml", "[profiles.x]\nscenario = \"slow-sr\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("c.toml:1:1: profile \"x\": "), "{e}");
        let text = "history = 60\ntheme = \"no-such-theme\"\n";
        let c = Config::parse("c.toml", text).unwrap();
        let e = c.check_themes("c.toml", text).unwrap_err().to_string();
        assert!(
            e.starts_with("c.toml:2:1: unknown theme \"no-such-theme\""),
            "{e}"
        );
        assert!(Config::parse("c.toml", "theme = \"light\"\n")
            .unwrap()
            .check_themes("c.toml", "theme = \"light\"\n")
            .is_ok());
    }

    #[cfg(unix)]
    #[test]
    fn a_huge_or_endless_config_is_refused_after_the_limit() {
        let e = Config::load(Path::new("/dev/zero"), true)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("/dev/zero: cannot read the config file: larger than 1024 KiB"),
            "{e}"
        );
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
