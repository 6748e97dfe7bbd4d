//! `dgscope grants [--user NAME]`: prints the monitoring user's SQL (generated in
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
    print(&grants::script(&args.user))?;
    Ok(ExitCode::SUCCESS)
}
