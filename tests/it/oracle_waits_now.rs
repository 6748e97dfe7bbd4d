//! "What is waiting now" through the fake driver: `V$SESSION`'s in-flight, non-idle waits by
//! event (sessions, longest wait, the blocker's program), read in the one statement of every
//! sample on every role and release; a denied view costs this part only.

use crate::common;

use common::*;
use dgscope::sample::{Sample, Slot, WAITS_NOW_MAX};
use dgscope::source::oracle::connect::Privilege;
use dgscope::source::oracle::fake::{FakeDb, FakeDriver};
use dgscope::source::oracle::scenarios::{primary, primary_archiver_hung, standby, Release};
use dgscope::source::oracle::sql;
use dgscope::source::SourceEvent;

const P: &str = "//dbhost1:1521/prod_a";
const S: &str = "//dbhost2:1521/prod_b";

const ALL: [Release; 6] = [
    Release::R11_2,
    Release::R12_1_0_1,
    Release::R12_1,
    Release::R12_2,
    Release::R19,
    Release::R21,
];

fn run(slot: &'static str, db: FakeDb, n: usize) -> (FakeDriver, Vec<SourceEvent>) {
    let d = FakeDriver::new();
    let (conn, privilege, s) = if slot == "primary" {
        (P, Privilege::Normal, Slot::primary())
    } else {
        (S, Privilege::Sysdg, Slot::standby())
    };
    d.add(conn, db);
    let ev = collect(
        &d,
        vec![target(s, &format!("mon@{conn}"), privilege)],
        |_| {},
        until_good(slot, n),
    );
    (d, ev)
}

fn summary(s: &Sample) -> Vec<(String, u32, f64, Option<String>)> {
    s.waits_now
        .as_deref()
        .expect("waits_now read")
        .iter()
        .map(|w| {
            (
                w.event.to_string(),
                w.sessions,
                w.longest_s,
                w.blocker.as_deref().map(str::to_string),
            )
        })
        .collect()
}

#[test]
fn a_quiet_primary_shows_one_short_commit_in_flight_and_nothing_idle() {
    for rel in ALL {
        let (_, ev) = run("primary", primary(rel, 1), 2);
        for s in good_samples(&ev, "primary") {
            // PMON, LGWR, ARC0 and the SQL*Net client wait on Idle events; the session on
            // CPU after a read (WAITED SHORT TIME) is not waiting now.
            assert_eq!(
                summary(s),
                vec![(
                    "log file sync".into(),
                    1,
                    0.00185,
                    Some("oracle@dbhost1 (LGWR)".into())
                )],
                "{rel:?}"
            );
            assert_eq!(
                s.waits_now.as_deref().unwrap()[0].class.as_deref(),
                Some("Commit")
            );
        }
    }
}

#[test]
fn a_hung_archiver_shows_sessions_piled_on_the_switch_blocked_by_lgwr() {
    for rel in [Release::R11_2, Release::R19] {
        let (_, ev) = run("primary", primary_archiver_hung(rel), 1);
        let s = good_samples(&ev, "primary")[0];
        assert_eq!(
            summary(s),
            vec![
                (
                    "log file switch (archiving needed)".into(),
                    5,
                    47.12,
                    Some("oracle@dbhost1 (LGWR)".into())
                ),
                (
                    "log file sync".into(),
                    1,
                    44.7,
                    Some("oracle@dbhost1 (LGWR)".into())
                ),
                ("Log archive I/O".into(), 1, 0.31, None),
            ],
            "{rel:?}"
        );
        let w = &s.waits_now.as_deref().unwrap()[0];
        assert_eq!(w.class.as_deref(), Some("Configuration"));
        assert_eq!(w.blocker_short(), Some("LGWR"));
    }
}

#[test]
fn a_mounted_standby_reads_it_too_in_the_same_round_trip() {
    for rel in [Release::R11_2, Release::R19] {
        let (d, ev) = run("standby", standby(rel, "MOUNTED"), 2);
        let s = good_samples(&ev, "standby");
        assert!(s.iter().all(|x| x.waits_now.is_some()), "{rel:?}");
        assert!(s.iter().all(|x| x.errors.is_empty()), "{rel:?}");
        // One statement a sample: the part rides in the UNION ALL.
        let log = d.log();
        let ticks: Vec<&String> = log
            .statements
            .iter()
            .map(|(_, q)| q)
            .filter(|q| q.contains("UNION ALL"))
            .collect();
        assert!(ticks.iter().all(|q| q.contains("FROM gv$session w")));
        assert_eq!(
            log.statements
                .iter()
                .filter(|(_, q)| q.contains("gv$session") && !q.contains("UNION ALL"))
                .count(),
            0
        );
    }
}

#[test]
fn at_most_eight_events_longest_first_whatever_the_sessions() {
    let mut db = primary(Release::R19, 1);
    let v = db.view("V$SESSION");
    for i in 0..40u32 {
        let mut r = v[4].clone();
        r.insert("SID".into(), (1000 + i).to_string());
        r.insert("EVENT".into(), format!("enq: TX - e{}", i % 12));
        r.insert("WAIT_CLASS".into(), "Application".into());
        r.insert("WAIT_TIME_MICRO".into(), (1_000_000 * (i + 1)).to_string());
        v.push(r);
    }
    let (_, ev) = run("primary", db, 1);
    let w = summary(good_samples(&ev, "primary")[0]);
    assert_eq!(w.len(), WAITS_NOW_MAX);
    assert!(w.windows(2).all(|p| p[0].2 >= p[1].2));
    assert_eq!((w[0].0.as_str(), w[0].1, w[0].2), ("enq: TX - e3", 4, 40.0));
}

/// A monitor without SELECT on V$SESSION keeps every other part; the field stays absent
/// ("not read", never "nobody waits") and the part is named in the errors.
#[test]
fn a_denied_session_view_costs_this_part_only() {
    let mut db = primary(Release::R19, 1);
    db.denied.insert("V$SESSION".into());
    let (_, ev) = run("primary", db, 2);
    let s = good_samples(&ev, "primary");
    assert!(s.iter().all(|x| x.waits_now.is_none()));
    assert!(s[0].errors.iter().any(|e| e.part == "waits_now"));
    assert!(!s[1].events.is_empty() && s[0].fra.is_some());
}

/// What the part adds to a sample's statement, for the record: one branch, bounded rows.
#[test]
fn the_part_is_small_and_bounded() {
    for v in sql::variants() {
        for kind in sql::kinds(&v) {
            let parts = sql::parts(kind, v.features);
            let p = parts.iter().find(|p| p.name == "waits_now").unwrap();
            assert!(!p.slow);
            assert!(p.sql.len() < 700, "{}", p.sql.len());
            assert!(p.sql.contains(&format!("ROWNUM <= {WAITS_NOW_MAX}")));
            assert!(p.sql.contains("w.state = 'WAITING'"));
            assert!(p.sql.contains("w.wait_class <> 'Idle'"));
        }
    }
}
