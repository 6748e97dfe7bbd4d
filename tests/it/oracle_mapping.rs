//! Fake rows shaped like the documented views → the right `Sample`s, per release and role.

use crate::common;

use common::*;
use dgscope::sample::{Bucket, DestStatus, OpenMode, Role, Slot, TransmitMode};
use dgscope::source::oracle::connect::Privilege;
use dgscope::source::oracle::fake::FakeDriver;
use dgscope::source::oracle::scenarios::{primary, standby, Release};
use dgscope::timestamp::Timestamp;
use dgscope::units::{Micros, Secs};

const P: &str = "//dbhost1:1521/prod_a";
const S: &str = "//dbhost2:1521/prod_b";

fn ts(s: &str) -> Timestamp {
    Timestamp::parse(s).unwrap()
}

fn run_primary(
    rel: Release,
    instances: u32,
    n: usize,
) -> (FakeDriver, Vec<dgscope::source::SourceEvent>) {
    let d = FakeDriver::new();
    d.add(P, primary(rel, instances));
    let ev = collect(
        &d,
        vec![target(
            Slot::primary(),
            &format!("mon@{P}"),
            Privilege::Normal,
        )],
        |_| {},
        until_good("primary", n),
    );
    (d, ev)
}

fn run_standby(
    rel: Release,
    open_mode: &str,
    privilege: Privilege,
    n: usize,
) -> (FakeDriver, Vec<dgscope::source::SourceEvent>) {
    let d = FakeDriver::new();
    d.add(S, standby(rel, open_mode));
    let ev = collect(
        &d,
        vec![target(Slot::standby(), &format!("mon@{S}"), privilege)],
        |_| {},
        until_good("standby", n),
    );
    (d, ev)
}

#[test]
fn primary_19c_single_instance() {
    let (d, ev) = run_primary(Release::R19, 1, 3);
    let s = good_samples(&ev, "primary");
    let first = s[0];
    let db = first.db.as_ref().unwrap();
    assert_eq!(db.name.as_deref(), Some("prod_a"));
    assert_eq!(db.role, Some(Role::Primary));
    assert_eq!(db.open_mode, Some(OpenMode::ReadWrite));
    assert_eq!(db.protection_mode.as_deref(), Some("MAXIMUM AVAILABILITY"));
    assert_eq!(db.version.as_deref(), Some("19.21.0.0.0"));
    // The database runs at UTC+1: 01:02:03 local is 00:02:03Z.
    assert_eq!(db.startup, Some(ts("2026-11-20T00:02:03Z")));
    assert_eq!(db.host.as_deref(), Some("dbhost1"));
    assert_eq!(db.instances, Some(1));

    let lfs = &first.events["log file sync"];
    assert_eq!((lfs.waits, lfs.us), (1_000_000, Micros(2_500_000_000)));
    assert_eq!(
        lfs.hist,
        vec![
            Bucket(Micros(1024), 10),
            Bucket(Micros(2048), 600_000),
            Bucket(Micros(4096), 399_990)
        ]
    );
    assert!(first.events.contains_key("SYNC Remote Write"));
    // Not read by name, but among the top waits (with its class): idle waits never are.
    let reads = &first.events["db file sequential read"];
    assert_eq!(reads.class.as_deref(), Some("User I/O"));
    assert_eq!(reads.us_fg, Some(Micros(9_000_000_000)));
    assert!(
        first.events["log file sync"].class.is_none(),
        "read by name"
    );
    assert!(!first.events.contains_key("SQL*Net message from client"));
    assert_eq!(first.time_model["DB time"], 20_000_000_000);
    assert_eq!(first.time_model["DB CPU"], 7_000_000_000);
    assert_eq!(first.stat("redo size"), Some(50_000_000_000));
    assert_eq!(first.stat("redo write size count (   4KB)"), Some(700_000));
    assert_eq!(first.stat("session logical reads"), None);
    assert_eq!(first.os["NUM_CPUS"], 16.0);
    assert_eq!(first.os["LOAD"], 2.5);
    assert!(!first.os.contains_key("PHYSICAL_MEMORY_BYTES"));
    let data = first.iostat["Data File"];
    assert_eq!((data.rreq, data.wreq, data.wms), (750_000, 30_000, 15_000));

    assert_eq!(
        first.dests.len(),
        1,
        "local and inactive dests are left out"
    );
    let dest = &first.dests[0];
    assert_eq!(dest.id, 2);
    assert_eq!(dest.mode, TransmitMode::Sync);
    assert!(dest.affirm);
    assert_eq!(dest.status, DestStatus::Valid);
    assert_eq!(dest.name.as_deref(), Some("prod_b"));
    assert_eq!(dest.net_timeout_s, Some(30));
    assert_eq!(
        (dest.archived_seq, dest.applied_seq),
        (Some(811), Some(810))
    );
    assert!(!dest.has_gap());
    assert_eq!(dest.resp_hist, vec![(1, 123_456), (2, 3)]);

    // The first sample carries the slow parts; the next ones do not (60 s cadence).
    let params = first.params.as_ref().unwrap();
    assert!(params["log_archive_dest_2"].contains("SYNC AFFIRM"));
    assert_eq!(params["log_buffer"], "268435456");
    assert!(!params.contains_key("log_archive_dest_3"), "unset dest");
    assert!(!params.contains_key("log_archive_dest_state_4"), "default");
    assert!(!params.contains_key("db_block_size"));
    let logs = first.logs.as_ref().unwrap();
    assert_eq!(logs.online.len(), 3);
    assert!(logs
        .online
        .iter()
        .all(|l| l.members == 2 && l.bytes == 1 << 30 && l.blocksize == Some(512)));
    assert_eq!(logs.standby.len(), 4);
    assert!(logs
        .standby
        .iter()
        .all(|l| l.members == 1 && l.blocksize == Some(512)));
    let sw = first.switches.as_ref().unwrap();
    assert_eq!(
        sw.iter().map(|x| (x.sequence, x.time)).collect::<Vec<_>>(),
        vec![
            (809, ts("2026-11-30T04:20:00Z")),
            (810, ts("2026-11-30T04:40:00Z")),
            (811, ts("2026-11-30T04:55:00Z"))
        ]
    );
    assert!(first.dg.is_none() && first.lag_hist.is_none() && first.recovery.is_none());
    assert!(first.errors.is_empty() && first.query_us.is_some());
    assert!(s[1].params.is_none() && s[1].logs.is_none() && s[1].switches.is_none());
    assert!(!s[1].events.is_empty());

    // Aligned instants, one second apart.
    assert_eq!(s[0].t, ts("2026-11-30T05:00:01Z"));
    assert_eq!(s[1].t.ms - s[0].t.ms, 1000);

    // Three probe statements, then exactly one statement per sample.
    let log = d.log();
    let stmts: Vec<&String> = log.statements.iter().map(|(_, s)| s).collect();
    assert!(stmts.len() >= 3 + s.len());
    assert!(stmts[0].contains("FROM v$instance i, v$database d"));
    assert!(stmts[1].contains("v$fixed_table"));
    assert!(stmts[2].contains("version_full"));
    assert!(stmts[3].contains("UNION ALL") && stmts[3].contains("v$log_history"));
    assert!(stmts[4].contains("UNION ALL") && !stmts[4].contains("v$log_history"));
    assert!(stmts.iter().all(|s| !s.contains("gv$managed_standby")));
}

#[test]
fn primary_11_2_uses_the_millisecond_histogram_and_lns_events() {
    let (d, ev) = run_primary(Release::R11_2, 1, 2);
    let first = good_samples(&ev, "primary")[0];
    assert_eq!(
        first.db.as_ref().unwrap().version.as_deref(),
        Some("11.2.0.4.0")
    );
    assert!(first.events.contains_key("LNS wait on SENDREQ"));
    assert!(!first.events.contains_key("SYNC Remote Write"));
    // WAIT_TIME_MILLI = m is stored as m*1000 µs.
    assert_eq!(
        first.events["log file sync"].hist,
        vec![
            Bucket(Micros(1000), 10),
            Bucket(Micros(2000), 600_000),
            Bucket(Micros(4000), 399_990)
        ]
    );
    let log = d.log();
    assert!(log
        .statements
        .iter()
        .all(|(_, s)| !s.contains("FROM gv$event_histogram_micro") && !s.contains("version_full")));
}

#[test]
fn primary_12_2_reads_micro_histograms_without_version_full() {
    let (d, ev) = run_primary(Release::R12_2, 1, 2);
    let first = good_samples(&ev, "primary")[0];
    assert_eq!(
        first.db.as_ref().unwrap().version.as_deref(),
        Some("12.2.0.1.0")
    );
    assert_eq!(
        first.events["log file parallel write"].hist[0],
        Bucket(Micros(512), 1_000_000)
    );
    assert!(d
        .log()
        .statements
        .iter()
        .all(|(_, s)| !s.contains("version_full")));
}

#[test]
fn rac_primary_sums_instances_and_keeps_threads() {
    let (_, ev) = run_primary(Release::R19, 2, 2);
    let first = good_samples(&ev, "primary")[0];
    let db = first.db.as_ref().unwrap();
    assert_eq!(db.instances, Some(2));
    assert_eq!(db.host.as_deref(), Some("dbhost1,dbhost2"));
    let lfs = &first.events["log file sync"];
    assert_eq!((lfs.waits, lfs.us), (3_000_000, Micros(7_500_000_000)));
    assert_eq!(lfs.hist[1], Bucket(Micros(2048), 1_800_000));
    assert_eq!(first.stat("redo size"), Some(150_000_000_000));
    assert_eq!(first.os["NUM_CPUS"], 32.0);
    assert_eq!(first.os["LOAD"], 4.25, "the busiest host, not a sum");
    assert_eq!(first.iostat["Log File"].wreq, 1_800_000);
    assert_eq!(first.dests.len(), 1);
    let dest = &first.dests[0];
    assert_eq!(
        dest.error.as_deref(),
        Some("ORA-16198: Timeout incurred on internal channel")
    );
    assert_eq!(dest.archived_seq, Some(812));
    assert_eq!(dest.resp_hist, vec![(1, 370_368), (2, 6)]);
    let logs = first.logs.as_ref().unwrap();
    assert_eq!(logs.online.iter().filter(|l| l.thread == 2).count(), 3);
    let sw = first.switches.as_ref().unwrap();
    assert_eq!(sw.len(), 6);
    assert_eq!(sw.iter().filter(|x| x.thread == 2).count(), 3);
}

#[test]
fn mounted_standby_19c_as_sysdg() {
    let (d, ev) = run_standby(Release::R19, "MOUNTED", Privilege::Sysdg, 2);
    let first = good_samples(&ev, "standby")[0];
    let db = first.db.as_ref().unwrap();
    assert_eq!(db.role, Some(Role::PhysicalStandby));
    assert_eq!(db.open_mode, Some(OpenMode::Mounted));
    let dg = first.dg.as_ref().unwrap();
    assert_eq!(dg.transport_lag_s, Some(Secs(1.0)));
    assert_eq!(
        dg.apply_lag_s,
        Some(Secs(3.0)),
        "upper-case NAME compared case-insensitively"
    );
    assert_eq!(dg.apply_finish_s, Some(Secs(0.5)));
    assert_eq!(dg.computed, Some(ts("2026-11-30T05:00:00Z")));
    assert_eq!(dg.datum, Some(ts("2026-11-30T04:59:59Z")));
    assert!(
        first.lag_hist.is_none(),
        "a mounted standby has no real-time query"
    );
    let rec = first.recovery.as_ref().unwrap();
    assert_eq!(
        rec.active_apply_kbps,
        Some(48_000.0),
        "latest media recovery only"
    );
    assert_eq!(rec.average_apply_kbps, Some(9_100.0));
    assert_eq!(rec.redo_applied_mb, Some(812_000.0));
    assert_eq!(rec.last_applied, Some(ts("2026-11-30T04:59:58Z")));
    assert_eq!(rec.apply_time_per_log_s, Some(12.0));
    let mrp = first.processes.iter().find(|p| p.name == "MRP0").unwrap();
    assert_eq!(mrp.role.as_deref(), Some("managed recovery"));
    assert_eq!(mrp.action.as_deref(), Some("APPLYING_LOG"));
    assert_eq!((mrp.thread, mrp.sequence), (Some(1), Some(813)));
    assert_eq!(first.events["RFS random i/o"].hist.len(), 2);
    assert!(
        !first.events.contains_key("log file sync"),
        "not in the standby list"
    );
    assert!(first.stats.is_empty() && first.dests.is_empty());
    let srl = &first.logs.as_ref().unwrap().standby;
    assert_eq!(srl[0].used, Some(52_428_800));
    assert_eq!(
        first.params.as_ref().unwrap()["standby_file_management"],
        "AUTO"
    );
    assert!(first.switches.is_none(), "switches are read on the primary");
    assert!(d.log().logins.iter().all(|(_, p)| *p == Privilege::Sysdg));
    assert!(d
        .log()
        .statements
        .iter()
        .any(|(_, s)| s.contains("gv$dataguard_process")));
}

#[test]
fn active_data_guard_standby_has_the_lag_histogram() {
    let (_, ev) = run_standby(Release::R19, "READ ONLY WITH APPLY", Privilege::Normal, 2);
    let first = good_samples(&ev, "standby")[0];
    assert_eq!(
        first.db.as_ref().unwrap().open_mode,
        Some(OpenMode::ReadOnlyWithApply)
    );
    let h = first.lag_hist.as_ref().unwrap();
    let rows: Vec<(&str, u64, u64)> = h
        .iter()
        .map(|r| (r.name.as_str(), r.lag_s, r.count))
        .collect();
    assert_eq!(
        rows,
        vec![
            ("apply lag", 0, 3500),
            ("apply lag", 1, 40),
            ("apply lag", 3, 7),
            ("apply lag", 120, 1)
        ]
    );
}

#[test]
fn standby_11_2_as_sysdba_reads_managed_standby() {
    let (d, ev) = run_standby(Release::R11_2, "MOUNTED", Privilege::Sysdba, 2);
    let first = good_samples(&ev, "standby")[0];
    let mrp = first.processes.iter().find(|p| p.name == "MRP0").unwrap();
    assert_eq!(mrp.action.as_deref(), Some("APPLYING_LOG"));
    assert_eq!(mrp.role, None);
    // 256 µs and 512 µs waits both fall in 11.2's first bucket (< 1 ms).
    assert_eq!(
        first.events["RFS random i/o"].hist,
        vec![Bucket(Micros(1000), 1_100_000)]
    );
    assert!(first.dg.as_ref().unwrap().apply_lag_s.is_some());
    let log = d.log();
    assert!(log
        .statements
        .iter()
        .any(|(_, s)| s.contains("gv$managed_standby")));
    assert!(log
        .statements
        .iter()
        .all(|(_, s)| !s.contains("gv$dataguard_process")));
}

#[test]
fn standby_12_1_has_micro_histograms_but_managed_standby() {
    let (d, ev) = run_standby(Release::R12_1, "MOUNTED", Privilege::Sysdg, 1);
    let first = good_samples(&ev, "standby")[0];
    assert_eq!(
        first.events["RFS random i/o"].hist[0],
        Bucket(Micros(256), 700_000)
    );
    assert!(first.processes.iter().any(|p| p.name == "MRP0"));
    assert!(d
        .log()
        .statements
        .iter()
        .any(|(_, s)| s.contains("gv$managed_standby")));
}

#[test]
fn primary_and_two_standbys_sample_the_same_instants() {
    let d = FakeDriver::new();
    d.add(P, primary(Release::R19, 1));
    d.add(S, standby(Release::R19, "MOUNTED"));
    d.add(
        "//dbhost3:1521/prod_c",
        standby(Release::R19, "READ ONLY WITH APPLY"),
    );
    let ev = collect(
        &d,
        vec![
            target(Slot::primary(), &format!("mon@{P}"), Privilege::Normal),
            target(
                Slot::named_standby("prod_b"),
                &format!("mon@{S}"),
                Privilege::Sysdg,
            ),
            target(
                Slot::named_standby("prod_c"),
                "mon@//dbhost3:1521/prod_c",
                Privilege::Sysdg,
            ),
        ],
        |_| {},
        |ev| {
            ["primary", "standby:prod_b", "standby:prod_c"]
                .iter()
                .all(|s| good_samples(ev, s).len() >= 3)
        },
    );
    let times = |slot| {
        good_samples(&ev, slot)
            .iter()
            .take(3)
            .map(|s| s.t)
            .collect::<Vec<_>>()
    };
    assert_eq!(times("primary"), times("standby:prod_b"));
    assert_eq!(times("primary"), times("standby:prod_c"));
}

#[test]
fn primary_12_1_0_1_has_12c_event_names_but_millisecond_histograms() {
    let (d, ev) = run_primary(Release::R12_1_0_1, 1, 1);
    let first = good_samples(&ev, "primary")[0];
    assert!(first.events.contains_key("SYNC Remote Write"));
    assert_eq!(first.events["SYNC Remote Write"].waits, 1_100_000);
    assert_eq!(
        first.events["log file sync"].hist[0],
        Bucket(Micros(1000), 10)
    );
    assert!(d
        .log()
        .statements
        .iter()
        .any(|(_, s)| s.contains("FROM gv$event_histogram WHERE")));
}
