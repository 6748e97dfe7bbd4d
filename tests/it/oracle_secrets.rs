//! The password never shows: not in parsed arguments, configs, events, recordings or errors.

use crate::common;

use clap::Parser;
use common::*;
use dgscope::cli::{Cli, Command};
use dgscope::commands::live::{self, Passwords};
use dgscope::commands::record_live::Recorder;
use dgscope::sample::recording::read_all;
use dgscope::source::oracle::clock::VirtualClock;
use dgscope::source::oracle::fake::FakeDriver;
use dgscope::source::oracle::scenarios::{primary, standby, Release};
use dgscope::source::oracle::Secret;
use std::cell::RefCell;
use std::sync::Arc;

struct FakeTerminal {
    env: Option<String>,
    tty: bool,
    prompts: RefCell<Vec<String>>,
}

impl Passwords for FakeTerminal {
    fn env(&self, var: &str) -> Option<String> {
        (var == "DG_PW").then(|| self.env.clone()).flatten()
    }
    fn stdin_is_tty(&self) -> bool {
        self.tty
    }
    fn prompt(&self, text: &str) -> std::io::Result<String> {
        self.prompts.borrow_mut().push(text.to_string());
        Ok(PASSWORD.to_string())
    }
}

fn watch_args(argv: &[&str]) -> dgscope::cli::oracle::WatchArgs {
    let mut full = vec!["dgscope", "watch"];
    full.extend_from_slice(argv);
    match Cli::try_parse_from(full).unwrap().command {
        Command::Watch(a) => a,
        _ => unreachable!(),
    }
}

#[test]
fn a_password_typed_into_argv_is_redacted_and_refused() {
    let argv = [
        "dgscope",
        "watch",
        "--primary",
        "scott/tiger@//h:1521/p",
        "--standby",
        "b=sys/tiger@//h2/s",
    ];
    let cli = Cli::try_parse_from(argv).unwrap();
    let dbg = format!("{cli:?}");
    assert!(!dbg.contains("tiger"), "{dbg}");
    assert!(dbg.contains("redacted"));
    let Command::Watch(a) = cli.command else {
        unreachable!()
    };
    let e = live::plan(&a.conn).unwrap_err();
    assert_eq!(e.code, 2);
    assert!(!e.message.contains("tiger"), "{}", e.message);
    assert!(e.message.contains("--password-env"));
}

#[test]
fn the_password_from_the_environment_reaches_the_driver_and_nothing_else() {
    let d = FakeDriver::new();
    let mut p = primary(Release::R19, 1);
    p.password = Some(PASSWORD.into());
    d.add("//dbhost1:1521/prod_a", p);
    let mut s = standby(Release::R19, "MOUNTED");
    s.password = Some(PASSWORD.into());
    d.add("//dbhost2:1521/prod_b", s);
    let args = watch_args(&[
        "--primary",
        "mon@//dbhost1:1521/prod_a",
        "--standby",
        "mon@//dbhost2:1521/prod_b",
        "--password-env",
        "DG_PW",
    ]);
    let term = FakeTerminal {
        env: Some(PASSWORD.into()),
        tty: false,
        prompts: RefCell::new(vec![]),
    };
    let plan = live::plan(&args.conn).unwrap();
    let mut src = live::start_with(
        &args.conn,
        &term,
        |_| Ok(()),
        Arc::new(d.clone()),
        Arc::new(VirtualClock { start: start() }),
    )
    .unwrap();
    assert!(term.prompts.borrow().is_empty(), "env given: no prompt");

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rec.jsonl");
    let file = Recorder::open(&path).unwrap();
    let mut rec = Recorder::start(file, &path, &src).unwrap();
    let mut seen = Vec::new();
    while rec.counts().0 < 6 {
        let ev = src.rx.blocking_recv().unwrap();
        if let Some(line) = rec.on_event(&ev).unwrap() {
            seen.push(line);
        }
        seen.push(format!("{ev:?}"));
    }
    src.collector.stop();
    assert_eq!(
        rec.counts().1,
        0,
        "the fake accepted the password: it was passed through"
    );

    let text = std::fs::read_to_string(&path).unwrap();
    let (header, entries) = read_all(&path).unwrap();
    assert_eq!(entries.len(), 6);
    let config =
        live::collector_config(&plan, &[("mon".to_string(), Secret::new(PASSWORD))].into());
    for (what, s) in [
        ("recording", text),
        ("header", format!("{header:?}")),
        ("args", format!("{args:?}")),
        ("plan", format!("{plan:?}")),
        ("config", format!("{config:?}")),
        ("describe", src.describe.clone()),
        ("events and status lines", seen.join("\n")),
        ("fake driver log", format!("{:?}", d.log())),
    ] {
        assert!(!s.contains(PASSWORD), "password in {what}");
    }
    assert!(format!("{config:?}").contains("***"));
}

#[test]
fn prompting_asks_once_per_user_and_only_on_a_terminal() {
    let args = watch_args(&[
        "--primary",
        "mon@//h1/p",
        "--standby",
        "sysdgmon@//h2/s",
        "--standby",
        "/@wallet",
    ]);
    let plan = live::plan(&args.conn).unwrap();
    let term = FakeTerminal {
        env: None,
        tty: true,
        prompts: RefCell::new(vec![]),
    };
    live::check_password_source(&plan, &term).unwrap();
    let pw = live::read_passwords(&plan, &term).unwrap();
    assert_eq!(
        term.prompts.borrow().as_slice(),
        ["Password for mon: ", "Password for sysdgmon: "]
    );
    assert_eq!(pw.len(), 2);
    assert!(!format!("{pw:?}").contains(PASSWORD));

    let no_tty = FakeTerminal {
        env: None,
        tty: false,
        prompts: RefCell::new(vec![]),
    };
    let e = live::check_password_source(&plan, &no_tty).unwrap_err();
    assert_eq!(e.code, 2);
    assert!(e.message.contains("not a terminal"), "{}", e.message);

    let wallet_only = live::plan(&watch_args(&["--primary", "/@prod_a"]).conn).unwrap();
    live::check_password_source(&wallet_only, &no_tty).unwrap();
}

#[test]
fn slots_are_named_when_there_are_several_standbys() {
    let one = live::plan(&watch_args(&["--primary", "m@//h/p", "--standby", "m@//h2/prod_b"]).conn)
        .unwrap();
    let slots: Vec<String> = one.targets.iter().map(|t| t.0.to_string()).collect();
    assert_eq!(slots, ["primary", "standby"]);
    let two = live::plan(
        &watch_args(&[
            "--standby",
            "m@//h2/prod_b",
            "--standby",
            "far=m@//h3/prod_c",
            "--standby",
            "m@//h4/prod_b",
        ])
        .conn,
    )
    .unwrap();
    let slots: Vec<String> = two.targets.iter().map(|t| t.0.to_string()).collect();
    assert_eq!(slots, ["standby:prod_b", "standby:far", "standby:prod_b-2"]);
}
