//! `check` against live databases through the driver seam: what a DBA reads when the first
//! contact fails. Each error prints as lines: what happened (with the ORA- code), where (the
//! member and its connect string, never a password), and how to fix it. The fake answers as
//! the documented errors do (the messages are Oracle's own texts: ORA-01017 "invalid
//! username/password; logon denied", ORA-12541 "TNS:no listener", ORA-00942 "table or view
//! does not exist").

use crate::common;

use common::*;
use dgscope::commands::check::judge_live;
use dgscope::commands::failure_text;
use dgscope::commands::live::{self, Passwords};
use dgscope::sample::Slot;
use dgscope::source::oracle::clock::VirtualClock;
use dgscope::source::oracle::errors::OraError;
use dgscope::source::oracle::fake::FakeDriver;
use dgscope::source::oracle::scenarios::{primary, standby, unreachable, Release};
use std::sync::Arc;
use std::time::Duration;

const P: &str = "//dbhost1:1521/prod_a";
const S: &str = "//dbhost2:1521/prod_b";

struct Env;

impl Passwords for Env {
    fn env(&self, var: &str) -> Option<String> {
        (var == "DG_PW").then(|| PASSWORD.to_string())
    }
    fn stdin_is_tty(&self) -> bool {
        false
    }
    fn prompt(&self, _: &str) -> std::io::Result<String> {
        unreachable!("the password comes from the environment")
    }
}

/// Runs `check` for 40 s of (virtual) time against the fake databases.
fn check(d: &FakeDriver, argv: &[&str]) -> Result<dgscope::pipeline::Checked, String> {
    use clap::Parser;
    let mut full = vec!["dgscope", "check"];
    full.extend_from_slice(argv);
    full.extend_from_slice(&["--password-env", "DG_PW"]);
    let dgscope::cli::Command::Check(args) =
        dgscope::cli::Cli::try_parse_from(full).unwrap().command
    else {
        unreachable!()
    };
    let plan = live::plan(&args.conn).unwrap();
    let targets: Vec<(Slot, String)> = plan
        .targets
        .iter()
        .map(|(slot, spec, _)| (slot.clone(), spec.to_string()))
        .collect();
    let src = live::start_with(
        &args.conn,
        &Env,
        |_| Ok(()),
        Arc::new(d.clone()),
        Arc::new(VirtualClock { start: start() }),
    )
    .unwrap();
    judge_live(
        src,
        &targets,
        Duration::from_secs(40),
        dgscope::causes::Thresholds::default(),
    )
    .map_err(|f| {
        assert_eq!(f.code, 3, "a check that cannot judge is UNKNOWN");
        failure_text(&f.message)
    })
}

fn lines(s: &str) -> Vec<&str> {
    s.lines().collect()
}

#[test]
fn a_wrong_password_on_the_primary_says_what_where_and_how_to_fix() {
    let d = FakeDriver::new();
    let mut p = primary(Release::R19, 1);
    p.password = Some("something else".into());
    d.add(P, p);
    let err = check(&d, &["--primary", &format!("mon@{P}")]).unwrap_err();
    assert_eq!(
        lines(&err),
        [
            "dgscope: cannot check: the primary (mon@//dbhost1:1521/prod_a) did not answer",
            "  invalid username/password for mon (ORA-01017)",
            "  fix: check the password (--password-env VAR or the prompt); dgscope does not retry, so the account is not locked",
        ]
    );
    assert_eq!(
        d.log().logins.len(),
        1,
        "not retried: the account is not locked"
    );
    assert!(!err.contains(PASSWORD));
}

#[test]
fn a_wrong_sysdg_password_on_the_standby_points_at_the_password_file() {
    let d = FakeDriver::new();
    d.add(P, primary(Release::R19, 1));
    let mut s = standby(Release::R19, "MOUNTED");
    s.password = Some("something else".into());
    d.add(S, s);
    let err = check(
        &d,
        &[
            "--primary",
            &format!("mon@{P}"),
            "--standby",
            &format!("mon@{S}"),
        ],
    )
    .unwrap_err();
    assert_eq!(
        lines(&err),
        [
            "dgscope: cannot check: the standby (mon@//dbhost2:1521/prod_b) did not answer",
            "  invalid username/password for mon (ORA-01017)",
            "  fix: AS SYSDG checks the standby's password file: copy orapw<SID> from the primary (automatic with COMPATIBLE >= 12.2); 11.2 has no SYSDG: use --standby-as sysdba there; dgscope does not retry, so the account is not locked",
        ]
    );
}

#[test]
fn no_listener_names_the_host_and_port_to_check() {
    let d = FakeDriver::new();
    d.add(
        P,
        unreachable(OraError::from_message("ORA-12541: TNS:no listener")),
    );
    let err = check(&d, &["--primary", &format!("mon@{P}")]).unwrap_err();
    assert_eq!(
        lines(&err),
        [
            "dgscope: cannot check: the primary (mon@//dbhost1:1521/prod_a) did not answer",
            "  no listener at dbhost1:1521 (ORA-12541)",
            "  fix: check host and port in the connect string, and that the listener runs there (lsnrctl status on the database host)",
        ]
    );
}

#[test]
fn a_missing_grant_is_judged_without_that_view_and_says_which_grant() {
    let d = FakeDriver::new();
    let mut p = primary(Release::R19, 1);
    p.denied.insert("V$IOSTAT_FILE".into());
    d.add(P, p);
    let r = check(&d, &["--primary", &format!("mon@{P}")]).expect("judged");
    assert!(r.samples > 0);
    assert_eq!(
        r.warnings,
        ["primary (mon@//dbhost1:1521/prod_a): iostat not read: no access to GV$IOSTAT_FILE (ORA-00942) — on the primary: GRANT SELECT ON SYS.GV_$IOSTAT_FILE TO mon; or GRANT SELECT_CATALOG_ROLE TO mon; (see dgscope grants)"],
    );
}

#[test]
fn a_multi_line_failure_prints_as_lines_each_made_safe() {
    let text = failure_text("first\n  second \u{1b}]0;title\u{7}\nthird\n");
    assert_eq!(
        lines(&text),
        ["dgscope: first", "  second ␛]0;title␇", "third"]
    );
    // One line stays one line.
    assert_eq!(failure_text("bad input"), "dgscope: bad input\n");
}
