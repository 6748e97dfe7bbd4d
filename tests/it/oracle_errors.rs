//! Every error class reaches the right message and behaviour: backoff with countdown,
//! error samples for the gap, partial failures that keep the rest of the sample.

use crate::common;

use common::*;
use dgscope::sample::{SampleErrorKind, Slot};
use dgscope::source::oracle::connect::Privilege;
use dgscope::source::oracle::errors::{
    client_library_help, explain, ErrCode, ErrContext, OraError,
};
use dgscope::source::oracle::fake::FakeDriver;
use dgscope::source::oracle::scenarios::{primary, standby, unreachable, Release};
use dgscope::source::ConnState;
use std::time::Duration;

const P: &str = "//dbhost1:1521/prod_a";
const S: &str = "//dbhost2:1521/prod_b";

fn cx(privilege: &str) -> ErrContext {
    ErrContext {
        target: "mon@//dbhost2:1521/prod_b".into(),
        user: Some("mon".into()),
        host_port: Some("dbhost2:1521".into()),
        service: Some("prod_b".into()),
        privilege: privilege.into(),
        views: vec![],
        call_timeout_s: Some(10),
    }
}

#[test]
fn each_error_class_has_its_message_and_fix() {
    use SampleErrorKind as K;
    let cases: Vec<(OraError, &str, K, &[&str], bool)> = vec![
        (OraError::dpi(1047, "Cannot locate a 64-bit Oracle Client library: \"libclntsh.so: cannot open shared object file\""), "normal", K::NoClientLibrary, &["DPI-1047", "Instant Client", "--oracle-client-dir", "LD_LIBRARY_PATH"], false),
        (OraError::ora(12541, "TNS:no listener"), "normal", K::NoListener, &["ORA-12541", "dbhost2:1521", "lsnrctl status"], false),
        (OraError::ora(12514, "TNS:listener does not currently know of service"), "normal", K::Other("unknown_service".into()), &["ORA-12514", "prod_b", "lsnrctl services", "db_unique_name"], false),
        (OraError::ora(1017, "invalid username/password; logon denied"), "normal", K::BadCredentials, &["ORA-01017", "mon", "--password-env", "not locked"], true),
        (OraError::ora(1017, "invalid username/password; logon denied"), "sysdg", K::BadCredentials, &["AS SYSDG", "password file", "orapw"], true),
        (OraError::ora(28000, "the account is locked"), "normal", K::BadCredentials, &["ORA-28000", "ALTER USER mon ACCOUNT UNLOCK"], true),
        (OraError::ora(1031, "insufficient privileges"), "sysdg", K::MissingGrant, &["ORA-01031", "AS SYSDG", "GRANT SYSDG TO mon", "password", "--standby-as sysdba"], false),
        (OraError::ora(1034, "ORACLE not available"), "normal", K::InstanceDown, &["ORA-01034", "down", "retrying"], false),
        (OraError::ora(1033, "ORACLE initialization or shutdown in progress"), "normal", K::InstanceDown, &["ORA-01033", "MOUNTED", "--standby-as sysdg"], false),
        (OraError::ora(3113, "end-of-file on communication channel"), "normal", K::ConnectionLost, &["ORA-03113", "lost", "reconnects"], false),
        (OraError::ora(3114, "not connected to ORACLE"), "normal", K::ConnectionLost, &["ORA-03114"], false),
        (OraError::ora(3135, "connection lost contact"), "normal", K::ConnectionLost, &["ORA-03135"], false),
        (OraError::dpi(1067, "call timeout of 10000 ms exceeded with ORA-3156"), "normal", K::Timeout, &["DPI-1067", "10 s", "--call-timeout"], false),
        (OraError::dpi(1080, "connection was closed by ORA-3113"), "normal", K::ConnectionLost, &["DPI-1080"], false),
    ];
    for (e, privilege, kind, needles, give_up) in cases {
        let ex = explain(&e, &cx(privilege));
        let text = ex.one_line();
        assert_eq!(ex.kind, kind, "{text}");
        assert_eq!(ex.give_up, give_up, "{text}");
        for n in needles {
            assert!(text.contains(n), "{:?}: missing {n:?} in {text}", e.code);
        }
        assert!(!text.contains('\n'), "{text}");
    }
}

#[test]
fn missing_grant_names_the_view_and_the_grant() {
    let mut c = cx("normal");
    c.views = vec!["GV$IOSTAT_FILE".into()];
    let ex = explain(&OraError::ora(942, "table or view does not exist"), &c);
    assert_eq!(ex.kind, SampleErrorKind::MissingGrant);
    let t = ex.one_line();
    assert!(t.contains("GV$IOSTAT_FILE (ORA-00942)"), "{t}");
    assert!(
        t.contains("GRANT SELECT ON SYS.GV_$IOSTAT_FILE TO mon;"),
        "{t}"
    );
    assert!(t.contains("SELECT_CATALOG_ROLE"), "{t}");
}

#[test]
fn client_library_help_fits_a_screen() {
    let e = OraError::dpi(1047, "Cannot locate a 64-bit Oracle Client library: \"libclntsh.so: cannot open shared object file: No such file or directory\". See https://oracle.github.io/odpi/doc/installation.html#linux for help");
    let h = client_library_help(&e, None);
    assert!(h.lines().count() <= 23, "{h}");
    assert!(h.contains("libclntsh.so: cannot open shared object file"));
    assert!(h.lines().all(|l| l.chars().count() <= 100), "{h}");
}

fn reconnects(states: &[&ConnState]) -> Vec<(u32, i64)> {
    states
        .iter()
        .filter_map(|s| match s {
            ConnState::Reconnecting {
                next_try, attempt, ..
            } => Some((*attempt, next_try.ms)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_dead_standby_backs_off_while_the_primary_keeps_sampling() {
    let d = FakeDriver::new();
    d.add(P, primary(Release::R19, 1));
    d.add(S, unreachable(OraError::ora(12541, "TNS:no listener")));
    let ev = collect(
        &d,
        vec![
            target(Slot::primary(), &format!("mon@{P}"), Privilege::Normal),
            target(Slot::standby(), &format!("mon@{S}"), Privilege::Sysdg),
        ],
        |_| {},
        |ev| {
            good_samples(ev, "primary").len() >= 5 && reconnects(&states(ev, "standby")).len() >= 8
        },
    );
    assert!(good_samples(&ev, "primary").len() >= 5);
    let failed = samples(&ev, "standby");
    assert!(failed.len() >= 8);
    for s in &failed {
        let e = s.error.as_ref().unwrap();
        assert_eq!(e.kind, SampleErrorKind::NoListener);
        assert!(
            e.message.contains("no listener at dbhost2:1521"),
            "{}",
            e.message
        );
        assert!(
            s.db.is_none() && s.events.is_empty(),
            "an error sample holds nothing else"
        );
    }
    // Countdown: each next try lies 1, 2, 4, 8, 16, 30, 30 … seconds after the failure.
    let r = reconnects(&states(&ev, "standby"));
    let gaps: Vec<i64> = r.windows(2).map(|w| w[1].1 - w[0].1).take(7).collect();
    assert_eq!(
        r.iter().take(8).map(|x| x.0).collect::<Vec<_>>(),
        (1..=8).collect::<Vec<_>>()
    );
    assert_eq!(gaps, vec![2000, 4000, 8000, 16000, 30000, 30000, 30000]);
}

#[test]
fn a_lost_connection_becomes_an_error_sample_and_reconnects() {
    let d = FakeDriver::new();
    let mut db = primary(Release::R19, 1);
    // 3 probe statements + 2 samples, then the session dies.
    db.lose_after = Some((
        5,
        OraError::ora(3113, "end-of-file on communication channel"),
    ));
    d.add(P, db);
    let ev = collect(
        &d,
        vec![target(
            Slot::primary(),
            &format!("mon@{P}"),
            Privilege::Normal,
        )],
        |_| {},
        until_good("primary", 5),
    );
    let all = samples(&ev, "primary");
    let lost = all.iter().position(|s| s.error.is_some()).unwrap();
    assert_eq!(lost, 2);
    assert_eq!(
        all[lost].error.as_ref().unwrap().kind,
        SampleErrorKind::ConnectionLost
    );
    assert!(
        all[lost + 1].error.is_none(),
        "reconnected and sampling again"
    );
    let st = states(&ev, "primary");
    assert!(
        st.iter()
            .filter(|s| matches!(s, ConnState::Connected))
            .count()
            >= 2
    );
    assert!(matches!(
        st.iter()
            .find(|s| matches!(s, ConnState::Reconnecting { .. })),
        Some(ConnState::Reconnecting { attempt: 1, .. })
    ));
}

#[test]
fn a_call_timeout_is_classified_and_reconnects() {
    let d = FakeDriver::new();
    let mut db = standby(Release::R19, "MOUNTED");
    db.lose_after = Some((
        4,
        OraError::dpi(1067, "call timeout of 10000 ms exceeded with ORA-3156"),
    ));
    d.add(S, db);
    let ev = collect(
        &d,
        vec![target(
            Slot::standby(),
            &format!("mon@{S}"),
            Privilege::Sysdg,
        )],
        |_| {},
        until_good("standby", 3),
    );
    let t = samples(&ev, "standby")
        .into_iter()
        .find(|s| s.error.is_some())
        .unwrap();
    let e = t.error.as_ref().unwrap();
    assert_eq!(e.kind, SampleErrorKind::Timeout);
    assert!(e.message.contains("call timeout of 10 s"), "{}", e.message);
}

#[test]
fn bad_credentials_are_not_retried_so_the_account_is_not_locked() {
    let d = FakeDriver::new();
    let mut db = standby(Release::R19, "MOUNTED");
    db.password = Some("something else".into());
    d.add(S, db);
    let ev = collect(
        &d,
        vec![target(
            Slot::standby(),
            &format!("mon@{S}"),
            Privilege::Sysdg,
        )],
        |_| {},
        |ev| {
            states(ev, "standby")
                .iter()
                .any(|s| matches!(s, ConnState::Failed { .. }))
        },
    );
    let s = samples(&ev, "standby");
    assert_eq!(s.len(), 1);
    assert_eq!(
        s[0].error.as_ref().unwrap().kind,
        SampleErrorKind::BadCredentials
    );
    assert_eq!(d.log().logins.len(), 1, "exactly one attempt");
    assert!(!ev.iter().any(|e| format!("{e:?}").contains(PASSWORD)));
}

#[test]
fn a_normal_login_to_a_mounted_standby_says_to_use_sysdg() {
    let d = FakeDriver::new();
    d.add(S, standby(Release::R19, "MOUNTED"));
    let ev = collect(
        &d,
        vec![target(
            Slot::standby(),
            &format!("mon@{S}"),
            Privilege::Normal,
        )],
        |_| {},
        |ev| !samples(ev, "standby").is_empty(),
    );
    let e = samples(&ev, "standby")[0].error.clone().unwrap();
    assert_eq!(e.kind, SampleErrorKind::InstanceDown);
    assert!(e.message.contains("--standby-as sysdg"), "{}", e.message);
}

#[test]
fn missing_sysdg_in_the_password_file_is_explained() {
    let d = FakeDriver::new();
    let mut db = standby(Release::R19, "MOUNTED");
    db.admin_privileges.insert("sysdba");
    d.add(S, db);
    let ev = collect(
        &d,
        vec![target(
            Slot::standby(),
            &format!("mon@{S}"),
            Privilege::Sysdg,
        )],
        |_| {},
        |ev| !samples(ev, "standby").is_empty(),
    );
    let e = samples(&ev, "standby")[0].error.clone().unwrap();
    assert_eq!(e.kind, SampleErrorKind::MissingGrant);
    assert!(
        e.message.contains("GRANT SYSDG TO mon") && e.message.contains("password file"),
        "{}",
        e.message
    );
}

#[test]
fn one_denied_view_keeps_the_rest_and_recovers_after_the_grant() {
    let d = FakeDriver::new();
    let mut db = primary(Release::R19, 1);
    db.denied.insert("V$IOSTAT_FILE".into());
    d.add(P, db);
    let ev = collect(
        &d,
        vec![target(
            Slot::primary(),
            &format!("mon@{P}"),
            Privilege::Normal,
        )],
        |_| {},
        until_good("primary", 3),
    );
    let s = good_samples(&ev, "primary");
    for x in &s {
        assert!(x.iostat.is_empty());
        assert!(!x.events.is_empty() && !x.stats.is_empty() && !x.dests.is_empty());
        assert_eq!(x.errors.len(), 1);
        let pe = &x.errors[0];
        assert_eq!(
            (pe.part.as_str(), pe.code.as_str()),
            ("iostat", "ORA-00942")
        );
        assert!(
            pe.message
                .contains("GRANT SELECT ON SYS.GV_$IOSTAT_FILE TO mon;"),
            "{}",
            pe.message
        );
    }
    assert!(s[0].logs.is_some(), "the slow parts still came");
    // After the fallback, later ticks send one statement without the denied view.
    let log = d.log();
    let last = &log.statements.last().unwrap().1;
    assert!(last.contains("UNION ALL") && !last.contains("gv$iostat_file"));

    // The DBA grants it mid-incident: the next slow tick (60 s) picks it up again.
    let d2 = FakeDriver::new();
    let mut db = primary(Release::R19, 1);
    db.denied.insert("V$IOSTAT_FILE".into());
    d2.add(P, db);
    let granted = std::sync::atomic::AtomicBool::new(false);
    let ev = collect(
        &d2,
        vec![target(
            Slot::primary(),
            &format!("mon@{P}"),
            Privilege::Normal,
        )],
        |_| {},
        |ev| {
            let good = good_samples(ev, "primary");
            if good.len() == 5 && !granted.swap(true, std::sync::atomic::Ordering::SeqCst) {
                d2.update(P, |db| {
                    db.denied.clear();
                });
            }
            good.last().is_some_and(|s| !s.iostat.is_empty())
        },
    );
    let good = good_samples(&ev, "primary");
    let back = good.iter().position(|s| !s.iostat.is_empty()).unwrap();
    assert!(back >= 5, "not before the grant");
    assert!(good[back].errors.is_empty());
    assert_eq!(
        good[back].t.ms - good[0].t.ms,
        60_000,
        "on the next 60 s tick"
    );
}

#[test]
fn an_unanswered_connect_times_out_without_holding_up_the_primary() {
    let d = FakeDriver::new();
    d.add(P, primary(Release::R19, 1));
    let mut db = standby(Release::R19, "MOUNTED");
    db.connect_delay = Some(Duration::from_millis(300));
    d.add(S, db);
    let ev = collect(
        &d,
        vec![
            target(Slot::primary(), &format!("mon@{P}"), Privilege::Normal),
            target(Slot::standby(), &format!("mon@{S}"), Privilege::Sysdg),
        ],
        |c| c.connect_timeout = Duration::from_millis(20),
        |ev| samples(ev, "standby").len() >= 2 && good_samples(ev, "primary").len() >= 3,
    );
    let e = samples(&ev, "standby")[0].error.clone().unwrap();
    assert_eq!(e.kind, SampleErrorKind::Timeout);
    assert!(e.message.contains("timed out"), "{}", e.message);
    assert!(good_samples(&ev, "primary").len() >= 3);
}

#[test]
fn codes_survive_the_trip_from_message_to_error() {
    assert_eq!(
        OraError::from_message("ORA-12514: TNS:listener does not currently know").code,
        ErrCode::Ora(12514)
    );
    assert_eq!(
        OraError::from_message("DPI-1047: Cannot locate").code,
        ErrCode::Dpi(1047)
    );
    assert!(OraError::ora(942, "x").is_part_level());
    assert!(!OraError::ora(3113, "x").is_part_level());
}

#[test]
fn a_denied_probe_view_names_the_probe_grants() {
    let d = FakeDriver::new();
    let mut db = primary(Release::R19, 1);
    db.denied.insert("V$FIXED_TABLE".into());
    d.add(P, db);
    let ev = collect(
        &d,
        vec![target(
            Slot::primary(),
            &format!("mon@{P}"),
            Privilege::Normal,
        )],
        |_| {},
        |ev| samples(ev, "primary").len() >= 2,
    );
    let e = samples(&ev, "primary")[0].error.clone().unwrap();
    assert_eq!(e.kind, SampleErrorKind::MissingGrant);
    assert!(
        e.message
            .contains("GRANT SELECT ON SYS.V_$FIXED_TABLE TO mon;"),
        "{}",
        e.message
    );
    // Not a credentials problem: it keeps retrying (the DBA may grant it).
    assert!(states(&ev, "primary")
        .iter()
        .any(|s| matches!(s, ConnState::Reconnecting { .. })));
}

#[test]
fn a_switchover_is_followed_by_the_other_role_s_sql() {
    let d = FakeDriver::new();
    d.add(P, primary(Release::R19, 1));
    let switched = std::sync::atomic::AtomicBool::new(false);
    let ev = collect(
        &d,
        vec![target(
            Slot::primary(),
            &format!("mon@{P}"),
            Privilege::Normal,
        )],
        |_| {},
        |ev| {
            let good = good_samples(ev, "primary");
            if good.len() == 2 && !switched.swap(true, std::sync::atomic::Ordering::SeqCst) {
                d.update(P, |db| {
                    let row = &mut db.view("V$DATABASE")[0];
                    row.insert("DATABASE_ROLE".into(), "PHYSICAL STANDBY".into());
                    row.insert("OPEN_MODE".into(), "MOUNTED".into());
                });
            }
            // The collector runs ahead in virtual time: wait for a sample taken after the
            // switch rather than for a count (it may have sampled more before we flipped).
            switched.load(std::sync::atomic::Ordering::SeqCst)
                && good.last().is_some_and(|s| {
                    s.role() == Some(&dgscope::sample::Role::PhysicalStandby) && s.dg.is_some()
                })
        },
    );
    let good = good_samples(&ev, "primary");
    assert!(good[0].dg.is_none() && !good[0].stats.is_empty());
    let last = good.last().unwrap();
    assert_eq!(last.role(), Some(&dgscope::sample::Role::PhysicalStandby));
    assert!(last.dg.is_some(), "standby parts after the re-probe");
    assert!(d
        .log()
        .statements
        .iter()
        .any(|(_, s)| s.contains("v$dataguard_stats")));
}

#[test]
fn a_release_without_a_column_falls_back_to_the_alternative_text() {
    let d = FakeDriver::new();
    let mut db = primary(Release::R11_2, 1);
    db.missing_columns.insert("d.compression".into());
    d.add(P, db);
    let ev = collect(
        &d,
        vec![target(
            Slot::primary(),
            &format!("mon@{P}"),
            Privilege::Normal,
        )],
        |_| {},
        until_good("primary", 3),
    );
    for s in good_samples(&ev, "primary") {
        assert!(s.errors.is_empty(), "{:?}", s.errors);
        assert_eq!(s.dests.len(), 1);
        assert_eq!(s.dests[0].compression, None);
        assert_eq!(s.dests[0].mode, dgscope::sample::TransmitMode::Sync);
    }
    let log = d.log();
    let last = &log.statements.last().unwrap().1;
    assert!(last.contains("gv$archive_dest d") && !last.contains("d.compression"));
}

#[test]
fn an_unexpected_error_on_one_view_is_a_part_error_not_a_reconnect() {
    let d = FakeDriver::new();
    let mut db = standby(Release::R19, "MOUNTED");
    db.failing.insert(
        "V$RECOVERY_PROGRESS".into(),
        OraError::ora(4031, "unable to allocate 4160 bytes of shared memory"),
    );
    d.add(S, db);
    let ev = collect(
        &d,
        vec![target(
            Slot::standby(),
            &format!("mon@{S}"),
            Privilege::Sysdg,
        )],
        |_| {},
        until_good("standby", 3),
    );
    let good = good_samples(&ev, "standby");
    assert_eq!(
        good.len(),
        samples(&ev, "standby").len(),
        "no failed samples"
    );
    for s in good {
        assert!(s.recovery.is_none() && s.dg.is_some());
        assert_eq!(s.errors.len(), 1);
        assert_eq!(s.errors[0].part, "recovery");
        assert_eq!(s.errors[0].code, "ORA-04031");
        assert!(
            s.errors[0].message.contains("shared memory"),
            "{}",
            s.errors[0].message
        );
    }
    assert_eq!(d.log().logins.len(), 1, "the session was kept");
}
