//! One precedence rule for every setting of every command: command-line flag > `DGSCOPE_*`
//! variable > profile > top-level config > built-in default. clap already settles the first
//! two (the flag, else the variable: `with_env_fallbacks`), so a setting that a profile or the
//! config can hold is an `Option` without a clap default, and these functions fill only what
//! is still unset.

use super::Failure;
use crate::cli::choices::FailOnArg;
use crate::cli::oracle::{ConnArgs, StandbyAs};
use crate::config::{Config, Profile};
use crate::report::check::FailOn;
use clap::ValueEnum;
use std::time::Duration;

/// The first value set, in precedence order after the command line: profile, then config.
fn layered<'a>(
    profile: Option<&'a str>,
    config: Option<&'a str>,
) -> Option<(&'a str, &'static str)> {
    profile
        .map(|v| (v, "profile"))
        .or(config.map(|v| (v, "config file")))
}

fn parse_duration(key: &str, text: &str, whence: &str) -> Result<Duration, Failure> {
    humantime::parse_duration(text)
        .map_err(|e| Failure::bad_input(format!("{key} = {text:?} in the {whence}: {e}")))
}

/// `interval` and `standby_as` of the live commands (and the twin's interval) from the
/// profile, then the config file, where the command line left them unset.
pub fn fill_conn(
    conn: &mut ConnArgs,
    profile: Option<&Profile>,
    config: &Config,
) -> Result<(), Failure> {
    if conn.interval.is_none() {
        let p = profile.and_then(|p| p.interval.as_deref());
        if let Some((text, whence)) = layered(p, config.interval.as_deref()) {
            conn.interval = Some(parse_duration("interval", text, whence)?);
        }
    }
    if conn.standby_as.is_none() {
        if let Some(a) = profile.and_then(|p| p.standby_as.as_deref()) {
            conn.standby_as = Some(StandbyAs::from_str(a, true).map_err(Failure::bad_input)?);
        }
    }
    Ok(())
}

/// The screen's theme: `--theme`/`DGSCOPE_THEME`, profile, config; `None` is the default
/// (dark, or mono under NO_COLOR). The second value says where it came from, so a bad name
/// from the config file is blamed on the file.
pub fn theme<'a>(
    flag: Option<&'a str>,
    profile: Option<&'a str>,
    config: &'a Config,
) -> Option<(&'a str, &'static str)> {
    flag.map(|t| (t, "flag or variable"))
        .or_else(|| layered(profile, config.theme.as_deref()))
}

/// `check --fail-on`: flag/variable, profile, config, then warn.
pub fn fail_on(
    flag: Option<FailOnArg>,
    profile: Option<&Profile>,
    config: &Config,
) -> Result<FailOn, Failure> {
    if let Some(f) = flag {
        return Ok(f.into());
    }
    let p = profile.and_then(|p| p.fail_on.as_deref());
    match layered(p, config.fail_on.as_deref()) {
        Some((text, whence)) => FailOnArg::from_str(text, true)
            .map(FailOn::from)
            .map_err(|_| {
                Failure::bad_input(format!(
                    "fail_on = {text:?} in the {whence} must be warn or crit"
                ))
            }),
        None => Ok(FailOn::Warn),
    }
}

/// `check`/`record --duration`: flag/variable, profile, config; `None` leaves the command's
/// own default (60 s for check, the whole recording for `check --replay`, 10 m for record).
pub fn duration(
    flag: Option<Duration>,
    profile: Option<&Profile>,
    config: &Config,
) -> Result<Option<Duration>, Failure> {
    if flag.is_some() {
        return Ok(flag);
    }
    let p = profile.and_then(|p| p.duration.as_deref());
    layered(p, config.duration.as_deref())
        .map(|(text, whence)| parse_duration("duration", text, whence))
        .transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(text: &str) -> Config {
        Config::parse("c.toml", text).unwrap()
    }

    #[test]
    fn the_profile_fills_only_what_the_command_line_left_unset() {
        let c = config(
            "interval = \"4s\"\n[profiles.p]\nprimary = \"m@P\"\ninterval = \"2s\"\nstandby_as = \"normal\"\n",
        );
        let p = c.profile("p");
        let mut flags = ConnArgs {
            interval: Some(Duration::from_secs(5)),
            standby_as: Some(StandbyAs::Sysdba),
            ..blank()
        };
        fill_conn(&mut flags, p, &c).unwrap();
        assert_eq!(flags.interval(), Duration::from_secs(5));
        assert_eq!(flags.standby_as(), StandbyAs::Sysdba);
        let mut none = blank();
        fill_conn(&mut none, p, &c).unwrap();
        assert_eq!(none.interval(), Duration::from_secs(2));
        assert_eq!(none.standby_as(), StandbyAs::Normal);
        let mut no_profile = blank();
        fill_conn(&mut no_profile, None, &c).unwrap();
        assert_eq!(
            no_profile.interval(),
            Duration::from_secs(4),
            "top-level interval"
        );
        assert_eq!(no_profile.standby_as(), StandbyAs::Sysdg, "default");
        let mut nothing = blank();
        fill_conn(&mut nothing, None, &Config::default()).unwrap();
        assert_eq!(nothing.interval(), Duration::from_secs(1));
    }

    #[test]
    fn the_theme_follows_the_same_rule() {
        let c = config("theme = \"light\"\n");
        assert_eq!(
            theme(Some("mono"), Some("dark"), &c),
            Some(("mono", "flag or variable"))
        );
        assert_eq!(theme(None, Some("dark"), &c), Some(("dark", "profile")));
        assert_eq!(theme(None, None, &c), Some(("light", "config file")));
        assert_eq!(theme(None, None, &Config::default()), None);
    }

    #[test]
    fn fail_on_and_duration_layer_profile_over_config() {
        let c = config(
            "fail_on = \"crit\"\nduration = \"50s\"\n[profiles.p]\nscenario = \"slow-srl\"\nfail_on = \"warn\"\nduration = \"40s\"\n",
        );
        let p = c.profile("p");
        assert_eq!(fail_on(Some(FailOnArg::Crit), p, &c).unwrap(), FailOn::Crit);
        assert_eq!(fail_on(None, p, &c).unwrap(), FailOn::Warn);
        assert_eq!(fail_on(None, None, &c).unwrap(), FailOn::Crit);
        assert_eq!(
            fail_on(None, None, &Config::default()).unwrap(),
            FailOn::Warn
        );
        let s = Duration::from_secs;
        assert_eq!(duration(Some(s(20)), p, &c).unwrap(), Some(s(20)));
        assert_eq!(duration(None, p, &c).unwrap(), Some(s(40)));
        assert_eq!(duration(None, None, &c).unwrap(), Some(s(50)));
        assert_eq!(duration(None, None, &Config::default()).unwrap(), None);
    }

    fn blank() -> ConnArgs {
        ConnArgs {
            primary: None,
            standby: Vec::new(),
            standby_as: None,
            password_env: None,
            oracle_client_dir: None,
            interval: None,
            call_timeout: Duration::from_secs(10),
            connect_timeout: Duration::from_secs(15),
        }
    }
}
