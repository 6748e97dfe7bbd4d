//! `dgscope grants [--user NAME] [--release VERSION] [--cdb]`: prints the monitoring user's SQL (generated in
//! `source::oracle::grants` from the views the sampling SQL reads).

use super::{print, Failure};
use crate::cli::oracle::GrantsArgs;
use crate::source::oracle::{connect, grants};
use std::path::Path;
use std::process::ExitCode;

/// The user when neither `--user` nor a profile names one.
const DEFAULT_USER: &str = "DGSCOPE";

/// The user name of a profile's primary (else its first standby) connect string; `None` for
/// a wallet (`/@alias`) or a twin profile.
fn profile_user(name: &str, config: &crate::config::Config) -> Result<Option<String>, Failure> {
    let p = config.require_profile(name).map_err(Failure::bad_input)?;
    let conn = p.primary.iter().chain(p.standby.iter()).next();
    Ok(conn
        .and_then(|c| connect::parse("primary", c).ok())
        .and_then(|spec| spec.user))
}

pub fn run(args: GrantsArgs, config_flag: Option<&Path>) -> Result<ExitCode, Failure> {
    let from_profile = match &args.profile {
        Some(name) if args.user.is_none() => {
            let config = super::load_config(config_flag).map_err(Failure::bad_input)?;
            let user = profile_user(name, &config)?;
            if user.is_none() {
                return Err(Failure::bad_input(format!(
                    "profile {name:?} names no database user (a wallet or a twin profile); give --user NAME"
                )));
            }
            user
        }
        _ => None,
    };
    let user = args
        .user
        .clone()
        .or(from_profile)
        .unwrap_or_else(|| DEFAULT_USER.to_string());
    if !grants::valid_user(&user) {
        return Err(Failure::bad_input(format!(
            "--user {user:?} is not a plain Oracle user name: letters, digits, _ $ #, starting with a letter (C##NAME for a CDB common user)"
        )));
    }
    let release = args
        .release
        .as_deref()
        .map(grants::parse_release)
        .transpose()
        .map_err(Failure::bad_input)?;
    let script = grants::script_for(&grants::GrantOptions {
        user,
        release,
        cdb: args.cdb,
    })
    .map_err(Failure::bad_input)?;
    print(&script)?;
    Ok(ExitCode::SUCCESS)
}
