//! `dgscope grants [--user NAME] [--release VERSION] [--cdb]`: prints the monitoring user's SQL (generated in
//! `source::oracle::grants` from the views the sampling SQL reads).

use super::{print, Failure};
use crate::cli_oracle::GrantsArgs;
use crate::source::oracle::grants;
use std::process::ExitCode;

pub fn run(args: GrantsArgs) -> Result<ExitCode, Failure> {
    if !grants::valid_user(&args.user) {
        return Err(Failure::bad_input(format!(
            "--user {:?} is not a plain Oracle user name: letters, digits, _ $ #, starting with a letter (C##NAME for a CDB common user)",
            args.user
        )));
    }
    let release = args
        .release
        .as_deref()
        .map(grants::parse_release)
        .transpose()
        .map_err(Failure::bad_input)?;
    let script = grants::script_for(&grants::GrantOptions {
        user: args.user.clone(),
        release,
        cdb: args.cdb,
    })
    .map_err(Failure::bad_input)?;
    print(&script)?;
    Ok(ExitCode::SUCCESS)
}
