//! The log (issue 14.1): a run on the fake driver with a password, an unreachable standby and a
//! refused view writes a log that names the probe's SQL variant, the ORA- codes with their
//! classification and the backoff, and never the password; `bugreport` probes the profiles
//! through the same driver. The log is installed once per process, for all of it: the test
//! runs alone in one (`common::alone`).

use crate::common;

use clap::Parser;
use common::*;
use dgscope::cli::{Cli, Command};
use dgscope::commands::bugreport::{self, Probing};
use dgscope::commands::live::{self, Passwords};
use dgscope::log::{LogLevel, LogSettings};
use dgscope::source::oracle::clock::VirtualClock;
use dgscope::source::oracle::fake::FakeDriver;
use dgscope::source::oracle::scenarios::{primary, standby, unreachable, Release};
use dgscope::source::oracle::{ErrCode, OraError};
use dgscope::source::{ConnState, SourceEvent};
use std::sync::Arc;

struct Env;

impl Passwords for Env {
    fn env(&self, var: &str) -> Option<String> {
        (var == "DG_PW").then(|| PASSWORD.to_string())
    }
    fn stdin_is_tty(&self) -> bool {
        false
    }
    fn prompt(&self, _: &str) -> std::io::Result<String> {
        panic!("no prompt expected")
    }
}

fn driver() -> FakeDriver {
    let d = FakeDriver::new();
    let mut p = primary(Release::R19, 1);
    p.password = Some(PASSWORD.into());
    d.add("//dbhost1:1521/prod_a", p);
    let mut s = standby(Release::R12_2, "MOUNTED");
    s.password = Some(PASSWORD.into());
    s.denied.insert("V$IOSTAT_FILE".into());
    d.add("//dbhost2:1521/prod_b", s);
    d.add(
        "//dbhost3:1521/prod_c",
        unreachable(OraError::new(ErrCode::Ora(12541), "TNS:no listener")),
    );
    d
}

#[test]
fn the_log_names_the_variant_and_the_codes_and_never_the_password() {
    if !alone() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("dgscope.log");
    let settings = LogSettings {
        file: Some(log.clone()),
        level: Some(LogLevel::Debug),
    };
    dgscope::log::init(&settings).unwrap();

    let d = driver();
    let argv = [
        "dgscope",
        "watch",
        "--primary",
        "mon@//dbhost1:1521/prod_a",
        "--standby",
        "b=mon@//dbhost2:1521/prod_b",
        "--standby",
        "c=mon@//dbhost3:1521/prod_c",
        "--password-env",
        "DG_PW",
    ];
    let Command::Watch(args) = Cli::try_parse_from(argv).unwrap().command else {
        unreachable!()
    };
    let mut src = live::start_with(
        &args.conn,
        &Env,
        |_| Ok(()),
        Arc::new(d.clone()),
        Arc::new(VirtualClock { start: start() }),
    )
    .unwrap();
    // Every database answers at its own pace: wait for good samples from both reachable
    // ones and a retry of the unreachable one.
    let (mut primary_ok, mut standby_ok, mut retries) = (0, 0, 0);
    while primary_ok < 3 || standby_ok < 3 || retries < 1 {
        match src.rx.blocking_recv().unwrap() {
            SourceEvent::Sample(s) if s.error.is_none() => match s.slot.to_string().as_str() {
                "primary" => primary_ok += 1,
                _ => standby_ok += 1,
            },
            SourceEvent::Status {
                state: ConnState::Reconnecting { .. },
                ..
            } => retries += 1,
            _ => {}
        }
    }
    src.collector.stop();

    // bugreport: the same profile from a config file, probed through the fake driver.
    let cfg = dir.path().join("config.toml");
    std::fs::write(
        &cfg,
        "[profiles.prod]\nprimary = \"mon@//dbhost1:1521/prod_a\"\nstandby = [\"b=mon@//dbhost2:1521/prod_b\", \"c=mon@//dbhost3:1521/prod_c\"]\npassword_env = \"DG_PW\"\n",
    )
    .unwrap();
    let init = |_: Option<&std::path::Path>| Ok(());
    let probing = Probing {
        init: &init,
        driver: Arc::new(d.clone()),
        passwords: &Env,
    };
    let report = bugreport::report(Some(&cfg), &settings, 500, Some(&probing));

    let text = std::fs::read_to_string(&log).unwrap();
    assert!(!text.contains(PASSWORD), "password in the log");
    assert!(!report.contains(PASSWORD), "password in the bug report");
    for want in [
        "slot=primary target=mon@//dbhost1:1521/prod_a privilege=normal",
        "connected; probe chose SQL variant 19c",
        "slot=standby:b",
        "probe chose SQL variant 12.2",
        "code=ORA-12541 class=no_listener",
        "reconnecting after backoff slot=standby:c attempt=1",
        "part dropped:",
        "code=ORA-00942 class=missing_grant",
    ] {
        assert!(text.contains(want), "log lacks {want:?}:\n{text}");
    }
    assert!(
        text.lines()
            .all(|l| l.len() > 25 && l.as_bytes()[4] == b'-'),
        "one timestamped line per event:\n{text}"
    );
    for want in [
        "prod primary mon@//dbhost1:1521/prod_a: 19.",
        "SQL variant 19c",
        "SQL variant 12.2",
        "prod standby:c mon@//dbhost3:1521/prod_c: unreachable: ORA-12541",
        "## log:",
        "code=ORA-12541",
    ] {
        assert!(report.contains(want), "report lacks {want:?}:\n{report}");
    }
}
