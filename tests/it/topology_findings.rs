//! Real topologies through the rules (issue 13): samples mapped from the fake driver's rows
//! (scenarios.rs, shaped like the documented GV$ views), fed to the metrics engine and the
//! causes engine as a live source would. The fake's rows are static, so each sample scales
//! every cumulative counter column by its step number: the deltas between two samples are
//! then the fixture's own figures per second, and gauges (LOAD, NUM_CPUS) stay as they are.

use crate::common;

use common::*;
use dgscope::causes::{CauseEngine, Finding};
use dgscope::metrics::{Delta, Engine, Window};
use dgscope::sample::{Sample, Slot};
use dgscope::source::oracle::connect::Privilege;
use dgscope::source::oracle::driver::Driver;
use dgscope::source::oracle::fake::{FakeDb, FakeDriver};
use dgscope::source::oracle::map::{self, MapInput};
use dgscope::source::oracle::scenarios::{
    far_sync, primary, primary_two_standbys, rac_primary_saturated, standby_named, Release,
};
use dgscope::source::oracle::{probe, sql};
use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

const P: &str = "//dbhost1:1521/prod_a";
const MIN: Window = Window::Last(Duration::from_secs(60));

/// Counter columns of the views the fixtures fill (gauges are left alone).
const COUNTERS: &[&str] = &[
    "TOTAL_WAITS",
    "TIME_WAITED_MICRO",
    "TOTAL_WAITS_FG",
    "TIME_WAITED_MICRO_FG",
    "WAIT_COUNT",
    "FREQUENCY",
];

/// The fixture `base` as it reads after `k` seconds of the same activity.
fn at_step(base: &FakeDb, k: u64) -> FakeDb {
    let mut db = base.clone();
    for (view, rows) in db.views.iter_mut() {
        for r in rows.iter_mut() {
            let gauge = r
                .get("STAT_NAME")
                .is_some_and(|n| n == "LOAD" || n == "NUM_CPUS");
            let cols: Vec<String> = r
                .keys()
                .filter(|c| {
                    COUNTERS.contains(&c.as_str())
                        || (c.as_str() == "VALUE" && view == "V$SYSSTAT")
                        || (c.as_str() == "VALUE" && view == "V$OSSTAT" && !gauge)
                        || (view == "V$IOSTAT_FILE"
                            && (c.starts_with("SMALL_") || c.starts_with("LARGE_")))
                })
                .cloned()
                .collect();
            for c in cols {
                if let Some(v) = r.get(&c).and_then(|v| v.parse::<u64>().ok()) {
                    r.insert(c, (v * k).to_string());
                }
            }
        }
    }
    db
}

/// One sample of `slot` at second `k`, mapped from the fake's answer to the sampling
/// statement (the collector's own path: probe, parts, one statement, map).
fn sample(d: &FakeDriver, url: &str, slot: Slot, privilege: Privilege, k: u64) -> Sample {
    let t = target(slot.clone(), &format!("mon@{url}"), privilege);
    let mut conn = d.connect(&t.login).unwrap();
    let pr = probe(conn.as_mut()).unwrap();
    let parts = sql::parts(pr.kind(), pr.features);
    let rows = conn.query(&sql::statement(&parts)).unwrap();
    let included: BTreeSet<&'static str> = parts.iter().map(|p| p.name).collect();
    map::to_sample(
        &rows,
        MapInput {
            t: start().add_millis(k as i64 * 1000),
            slot,
            query_us: None,
            probe: &pr,
            included: &included,
            errors: Vec::new(),
        },
    )
}

struct Member {
    url: &'static str,
    slot: Slot,
    privilege: Privilege,
    db: FakeDb,
}

fn member(url: &'static str, slot: Slot, db: FakeDb) -> Member {
    let privilege = if slot == Slot::primary() {
        Privilege::Normal
    } else {
        Privilege::Sysdg
    };
    Member {
        url,
        slot,
        privilege,
        db,
    }
}

/// Runs the members for `secs` seconds and returns what is raised at the end.
fn judge(members: &[Member], secs: u64) -> Vec<Finding> {
    let d = FakeDriver::new();
    for m in members {
        d.add(m.url, at_step(&m.db, 1));
    }
    let mut engine = Engine::default();
    let mut causes = CauseEngine::default();
    let mut last = Vec::new();
    for k in 1..=secs {
        for m in members {
            d.update(m.url, |db| *db = at_step(&m.db, k));
            engine.push_sample(Arc::new(sample(&d, m.url, m.slot.clone(), m.privilege, k)));
        }
        last = causes.assess(&engine, MIN).findings;
    }
    last
}

fn ids(f: &[Finding]) -> Vec<&'static str> {
    f.iter().map(|f| f.id).collect()
}

#[test]
fn a_saturated_rac_node_is_lgwr_cpu_starved_by_name() {
    let found = judge(
        &[member(
            P,
            Slot::primary(),
            rac_primary_saturated(Release::R19),
        )],
        30,
    );
    let f = found
        .iter()
        .find(|f| f.id == "lgwr-cpu-starved")
        .unwrap_or_else(|| panic!("not raised: {:?}", ids(&found)));
    // Node 1: LOAD 40 on its own 32 CPUs, 9 ms a commit; node 2 idle at 3 ms.
    assert!(f.title.starts_with("inst 1 on dbhost1: "), "{}", f.title);
    assert!(f.title.contains("log file sync 9.00 ms"), "{}", f.title);
    let load = f
        .evidence
        .iter()
        .find(|e| e.metric.contains("load average"))
        .unwrap();
    assert_eq!(load.value, 40.0);
    // The load is context only (it counts processes in I/O wait): the CPU busy decides.
    assert_eq!(load.threshold, None);
    assert!(load.metric.contains("NUM_CPUS 32"), "{}", load.metric);
    let busy = f
        .evidence
        .iter()
        .find(|e| e.metric.contains("CPU busy"))
        .unwrap();
    assert!(busy.value >= 90.0, "{busy:?}");
    assert_eq!(load.source, "GV$OSSTAT");
    // The broadcast-on-commit ack (0.4 ms a commit) is its own part, not CPU starvation.
    let ack = f
        .evidence
        .iter()
        .find(|e| e.metric.starts_with("redo write broadcast ack time"))
        .unwrap();
    assert!((ack.value - 0.4).abs() < 1e-9, "{}", ack.value);
    let extra = f
        .evidence
        .iter()
        .find(|e| {
            e.metric
                .starts_with("log file sync not explained by writes")
        })
        .unwrap();
    // Net of the 1.5 ms write and the group-commit queueing (half a write).
    assert!(
        (extra.value - (9.0 - 0.4 - 1.5 - 0.75)).abs() < 1e-9,
        "{}",
        extra.value
    );
}

#[test]
fn the_same_cluster_with_both_nodes_idle_is_not_cpu_starved() {
    // The control: only the saturated node's OS figures make the finding.
    let mut db = rac_primary_saturated(Release::R19);
    for r in db.view("V$OSSTAT") {
        if r.get("INST_ID").map(String::as_str) == Some("1") {
            match r.get("STAT_NAME").map(String::as_str) {
                Some("LOAD") => {
                    r.insert("VALUE".into(), "0.3".into());
                }
                Some("BUSY_TIME") => {
                    r.insert("VALUE".into(), "2000000".into());
                }
                Some("IDLE_TIME") => {
                    r.insert("VALUE".into(), "98000000".into());
                }
                _ => {}
            }
        }
    }
    let found = judge(&[member(P, Slot::primary(), db)], 30);
    assert!(
        !ids(&found).contains(&"lgwr-cpu-starved"),
        "{:?}",
        ids(&found)
    );
}

#[test]
fn instance_order_flipping_between_samples_gives_identical_per_instance_deltas() {
    // 11.2 reads GV$EVENT_HISTOGRAM (milliseconds), 19c GV$EVENT_HISTOGRAM_MICRO.
    for rel in [Release::R11_2, Release::R19] {
        let base = rac_primary_saturated(rel);
        let d = FakeDriver::new();
        d.add(P, at_step(&base, 1));
        let a = sample(&d, P, Slot::primary(), Privilege::Normal, 1);
        d.update(P, |db| *db = at_step(&base, 2));
        let b = sample(&d, P, Slot::primary(), Privilege::Normal, 2);
        // The same second read again, GV$ rows now in the other instance order.
        d.update(P, |db| {
            for rows in db.views.values_mut() {
                rows.sort_by_key(|r| std::cmp::Reverse(r.get("INST_ID").cloned()));
            }
        });
        let flipped = sample(&d, P, Slot::primary(), Privilege::Normal, 2);
        let view = if rel == Release::R11_2 {
            "V$EVENT_HISTOGRAM"
        } else {
            "V$EVENT_HISTOGRAM_MICRO"
        };
        let first_inst = |db: &FakeDb| {
            db.views[view]
                .iter()
                .find_map(|r| r.get("INST_ID").cloned())
        };
        let mut check = FakeDb::default();
        d.update(P, |db| check = db.clone());
        assert_eq!(first_inst(&check).as_deref(), Some("2"), "{rel:?}");
        let straight = Delta::between(&a, &b).unwrap();
        let other = Delta::between(&a, &flipped).unwrap();
        assert_eq!(straight.instances.len(), 2, "{rel:?}");
        assert_eq!(straight.instances, other.instances, "{rel:?}");
        // Each instance's own delta: node 1 waits 9 ms a commit, node 2 3 ms.
        let lfs = |id: u32| {
            straight.instances[&id]
                .event_avg("log file sync")
                .unwrap()
                .0
        };
        assert_eq!((lfs(1), lfs(2)), (9.0, 3.0), "{rel:?}");
        let h1 = &straight.instances[&1].events["log file sync"].hist;
        assert_eq!(h1.total(), 1_000_000, "{rel:?}");
        assert_eq!(straight.instances[&1].host.as_deref(), Some("dbhost1"));
        assert_eq!(straight.instances[&2].os["LOAD"], 0.3);
    }
}

/// The standby `name` with its RFS writes into the SRLs at `rfs_ms` a write.
fn standby_with_rfs(name: &str, rfs_ms: f64) -> FakeDb {
    let mut db = standby_named(Release::R19, "MOUNTED", name);
    for r in db.view("V$SYSTEM_EVENT") {
        if r.get("EVENT").map(String::as_str) == Some("RFS random i/o") {
            let us = (1_100_000.0 * rfs_ms * 1000.0) as u64;
            r.insert("TIME_WAITED_MICRO".into(), us.to_string());
        }
    }
    db
}

#[test]
fn an_async_standby_monitored_alone_is_never_blamed_for_sync_commits() {
    // SYNC AFFIRM to prod_b, ASYNC to prod_c; only prod_c is monitored and its SRL disk
    // is slow (1.2 ms, ≥ half of the 1.5 ms SYNC Remote Write).
    let found = judge(
        &[
            member(P, Slot::primary(), primary_two_standbys(Release::R19)),
            member(
                "//dbhost3:1521/prod_c",
                Slot::named_standby("prod_c"),
                standby_with_rfs("prod_c", 1.2),
            ),
        ],
        30,
    );
    for f in &found {
        assert_ne!(f.id, "standby-redo-write-slow", "{}", f.title);
        if f.id == "network-latency" {
            assert!(!f.title.contains("prod_c"), "{}", f.title);
        }
    }
    // The control: the same slow disk on the SYNC standby prod_b is its finding.
    let found = judge(
        &[
            member(P, Slot::primary(), primary_two_standbys(Release::R19)),
            member(
                "//dbhost2:1521/prod_b",
                Slot::named_standby("prod_b"),
                standby_with_rfs("prod_b", 1.2),
            ),
        ],
        30,
    );
    let f = found
        .iter()
        .find(|f| f.id == "standby-redo-write-slow")
        .unwrap_or_else(|| panic!("not raised: {:?}", ids(&found)));
    assert!(f.title.ends_with("(prod_b)"), "{}", f.title);
}

#[test]
fn with_both_standbys_monitored_the_sync_one_is_judged_whatever_the_panes_show() {
    // prod_c sorts after prod_b; make the ASYNC one first in slot order to be sure the
    // match is by name: slot "standby:a" is prod_c.
    let found = judge(
        &[
            member(P, Slot::primary(), primary_two_standbys(Release::R19)),
            member(
                "//dbhost3:1521/prod_c",
                Slot::named_standby("a"),
                standby_with_rfs("prod_c", 0.3),
            ),
            member(
                "//dbhost2:1521/prod_b",
                Slot::named_standby("b"),
                standby_with_rfs("prod_b", 1.2),
            ),
        ],
        30,
    );
    let f = found
        .iter()
        .find(|f| f.id == "standby-redo-write-slow")
        .unwrap_or_else(|| panic!("not raised: {:?}", ids(&found)));
    assert!(f.title.ends_with("(prod_b)"), "{}", f.title);
    let rfs = f
        .evidence
        .iter()
        .find(|e| e.metric.starts_with("RFS random i/o avg"))
        .unwrap();
    assert!((rfs.value - 1.2).abs() < 1e-6, "{}", rfs.value);
}

/// A primary shipping SYNC AFFIRM to the far sync `prod_fs` (dest 2).
fn primary_to_far_sync() -> FakeDb {
    let mut db = primary(Release::R19, 1);
    for v in ["V$ARCHIVE_DEST", "V$ARCHIVE_DEST_STATUS"] {
        for r in db.view(v) {
            if r.get("DEST_ID").map(String::as_str) == Some("2") {
                if v == "V$ARCHIVE_DEST" {
                    r.insert("DB_UNIQUE_NAME".into(), "prod_fs".into());
                    r.insert("DESTINATION".into(), "prod_fs".into());
                } else {
                    r.insert("TYPE".into(), "FAR SYNC".into());
                }
            }
        }
    }
    db
}

#[test]
fn a_far_sync_member_gets_no_apply_findings_but_its_slow_srl_is_named() {
    let mut fs = far_sync(Release::R19);
    // Its SRL disk is slow: RFS writes 1.2 ms.
    fs.view("V$SYSTEM_EVENT")
        .push(dgscope::source::oracle::fake::vrow(&[
            ("INST_ID", "1"),
            ("EVENT", "RFS random i/o"),
            ("TOTAL_WAITS", "1100000"),
            ("TIME_WAITED_MICRO", "1320000000"),
            ("TOTAL_WAITS_FG", "0"),
            ("TIME_WAITED_MICRO_FG", "0"),
            ("WAIT_CLASS", "System I/O"),
        ]));
    let run = |fs: FakeDb| {
        judge(
            &[
                member(P, Slot::primary(), primary_to_far_sync()),
                // Passed as --standby: a standby slot, a far sync by its role.
                member("//fshost1:1521/prod_fs", Slot::named_standby("prod_fs"), fs),
            ],
            40,
        )
    };
    let found = run(fs.clone());
    for apply in [
        "apply-stopped",
        "apply-bound",
        "apply-waiting-for-gap",
        "apply-delayed",
    ] {
        assert!(!ids(&found).contains(&apply), "{apply}: {:?}", ids(&found));
    }
    let f = found
        .iter()
        .find(|f| f.id == "standby-redo-write-slow")
        .unwrap_or_else(|| panic!("not raised: {:?}", ids(&found)));
    assert!(f.title.ends_with("(far sync prod_fs)"), "{}", f.title);
    // The control: the same member reporting PHYSICAL STANDBY without MRP0 is apply-stopped.
    for r in fs.view("V$DATABASE") {
        r.insert("DATABASE_ROLE".into(), "PHYSICAL STANDBY".into());
    }
    let found = run(fs);
    assert!(ids(&found).contains(&"apply-stopped"), "{:?}", ids(&found));
}

/// A 19c far sync `prod_fs` whose transport lag is `fs_lag` (`+00 00:00:SS`).
fn far_sync_lagging(lag: &str) -> FakeDb {
    let mut fs = far_sync(Release::R19);
    for r in fs.view("V$DATAGUARD_STATS") {
        r.insert("VALUE".into(), lag.into());
    }
    fs
}

#[test]
fn a_cascaded_standby_is_judged_by_its_own_hop_behind_the_far_sync() {
    use dgscope::source::oracle::scenarios::cascaded_standby;
    // The terminal standby is 45 s behind the primary, the far sync 40 s of that: the hop
    // from the far sync to it lags 5 s, under the 10 s MAA line.
    let terminal = |lag: &str| {
        let mut db = cascaded_standby(Release::R19);
        for r in db.view("V$DATAGUARD_STATS") {
            let name = r
                .get("NAME")
                .cloned()
                .unwrap_or_default()
                .to_ascii_lowercase();
            if name == "transport lag" || name == "apply lag" {
                r.insert("VALUE".into(), lag.into());
            }
        }
        db
    };
    let run = |fs: &str, term: &str| {
        judge(
            &[
                member(P, Slot::primary(), primary_to_far_sync()),
                member(
                    "//fshost1:1521/prod_fs",
                    Slot::named_standby("prod_fs"),
                    far_sync_lagging(fs),
                ),
                // Sorts first: the panes (and the rules) show the terminal standby.
                member(
                    "//dbhost3:1521/prod_c",
                    Slot::named_standby("prod_c"),
                    terminal(term),
                ),
            ],
            // Past the 30 s rise window: bandwidth needs a measured shipped rate.
            45,
        )
    };
    let found = run("+00 00:00:40", "+00 00:00:45");
    assert!(
        !ids(&found).contains(&"transport-bandwidth"),
        "{:?}",
        found.iter().map(|f| &f.title).collect::<Vec<_>>()
    );
    // The control: the far sync keeps up (1 s) and the hop to the terminal lags 44 s.
    let found = run("+00 00:00:01", "+00 00:00:45");
    let f = found
        .iter()
        .find(|f| f.id == "transport-bandwidth")
        .unwrap_or_else(|| panic!("not raised: {:?}", ids(&found)));
    assert!(
        f.title.contains("transport lag 44 s behind prod_fs"),
        "{}",
        f.title
    );
    let total = f
        .evidence
        .iter()
        .find(|e| e.metric == "transport lag behind the primary")
        .unwrap();
    assert_eq!(total.value, 45.0);
}

/// The far sync `prod_fs` with its own destination to the terminal standby `prod_c`
/// (dest 2) in ERROR, as `V$ARCHIVE_DEST` shows a destination that cannot be reached.
fn far_sync_failing_to_forward() -> FakeDb {
    let mut fs = far_sync(Release::R19);
    for v in ["V$ARCHIVE_DEST", "V$ARCHIVE_DEST_STATUS"] {
        for r in fs.view(v) {
            if r.get("DEST_ID").map(String::as_str) == Some("2") {
                r.insert("STATUS".into(), "ERROR".into());
                if v == "V$ARCHIVE_DEST" {
                    r.insert("ERROR".into(), "ORA-12541: TNS:no listener".into());
                }
            }
        }
    }
    fs
}

#[test]
fn a_far_sync_that_cannot_forward_is_a_transport_error_named_by_both_members() {
    use dgscope::source::oracle::scenarios::cascaded_standby;
    let fs_url = "//fshost1:1521/prod_fs";
    let c_url = "//dbhost3:1521/prod_c";
    let pair = |fs: FakeDb| {
        [
            member(P, Slot::primary(), primary_to_far_sync()),
            member(fs_url, Slot::named_standby("prod_fs"), fs),
        ]
    };
    let title = |found: &[Finding]| {
        found
            .iter()
            .find(|f| f.id == "dest-error")
            .map(|f| (f.severity, f.title.clone(), f.evidence.clone()))
    };
    // Panes on the terminal standby: the member it receives from cannot forward.
    let [p, fs] = pair(far_sync_failing_to_forward());
    let c = member(
        c_url,
        Slot::named_standby("prod_c"),
        cascaded_standby(Release::R19),
    );
    let found = judge(&[p, fs, c], 30);
    let (severity, t, evidence) =
        title(&found).unwrap_or_else(|| panic!("not raised: {:?}", ids(&found)));
    assert_eq!(severity, dgscope::causes::Severity::Crit);
    assert_eq!(
        t,
        "Redo transport is failing from prod_fs to prod_c: status ERROR, ORA-12541: TNS:no listener"
    );
    assert!(
        evidence
            .iter()
            .any(|e| e.metric == "prod_fs dest 2 error: ORA-12541: TNS:no listener"),
        "{evidence:?}"
    );
    // Panes on the far sync itself: its own destination.
    let found = judge(&pair(far_sync_failing_to_forward()), 30);
    let (_, t, _) = title(&found).unwrap_or_else(|| panic!("not raised: {:?}", ids(&found)));
    assert!(
        t.starts_with("Redo transport is failing from prod_fs to prod_c"),
        "{t}"
    );
    // The control: the far sync forwards (dest 2 VALID): no transport error anywhere.
    let [p, fs] = pair(far_sync(Release::R19));
    let c = member(
        c_url,
        Slot::named_standby("prod_c"),
        cascaded_standby(Release::R19),
    );
    let found = judge(&[p, fs, c], 30);
    assert_eq!(title(&found), None, "{:?}", ids(&found));
}

/// `primary_two_standbys` with both destinations SYNC AFFIRM, each with its own response
/// histogram (dest 3: 40 responses of 2 s on top of dest 2's shape).
fn primary_two_sync() -> FakeDb {
    let mut db = primary_two_standbys(Release::R19);
    for r in db.view("V$ARCHIVE_DEST") {
        if r.get("DEST_ID").map(String::as_str) == Some("3") {
            r.insert("TRANSMIT_MODE".into(), "SYNCHRONOUS".into());
            r.insert("AFFIRM".into(), "YES".into());
        }
    }
    for (dur, freq) in [("1", "123456"), ("2", "40"), ("3", "0")] {
        db.view("V$REDO_DEST_RESP_HISTOGRAM")
            .push(dgscope::source::oracle::fake::vrow(&[
                ("INST_ID", "1"),
                ("DEST_ID", "3"),
                ("DURATION", dur),
                ("FREQUENCY", freq),
            ]));
    }
    db
}

#[test]
fn two_sync_destinations_are_said_to_mix_and_the_slow_member_is_named() {
    let found = judge(
        &[
            member(P, Slot::primary(), primary_two_sync()),
            member(
                "//dbhost2:1521/prod_b",
                Slot::named_standby("prod_b"),
                standby_with_rfs("prod_b", 0.3),
            ),
            member(
                "//dbhost3:1521/prod_c",
                Slot::named_standby("prod_c"),
                standby_with_rfs("prod_c", 1.2),
            ),
        ],
        30,
    );
    let f = found
        .iter()
        .find(|f| f.id == "standby-redo-write-slow")
        .unwrap_or_else(|| panic!("not raised: {:?}", ids(&found)));
    assert!(f.title.ends_with("(prod_c)"), "{}", f.title);
    let metrics: Vec<&str> = f.evidence.iter().map(|e| e.metric.as_str()).collect();
    assert!(
        metrics.contains(&"SYNC Remote Write mixes 2 SYNC destinations (prod_b, prod_c)"),
        "{metrics:?}"
    );
    // Each destination from its own histogram: the fixture's counters grow each second by
    // 3 responses of 2 s for dest 2 (prod_b) and 40 for dest 3 (prod_c).
    let slow = |name: &str| {
        f.evidence
            .iter()
            .find(|e| {
                e.metric
                    .starts_with(&format!("{name} SYNC responses of 2 s"))
            })
            .map(|e| e.value)
    };
    let (b, c) = (slow("prod_b").unwrap(), slow("prod_c").unwrap());
    assert!(b > 0.0 && (c / b - 40.0 / 3.0).abs() < 1e-9, "{b} {c}");
}

/// Runs the members through the pipeline's driver, which judges every standby, for `secs`
/// seconds: what is raised at the end and every transition on the way.
fn drive(members: &[Member], secs: u64) -> (Vec<Finding>, Vec<dgscope::causes::Transition>) {
    use dgscope::pipeline::{Driver as Pipeline, DriverConfig};
    use dgscope::sample::recording::Entry;
    let d = FakeDriver::new();
    for m in members {
        d.add(m.url, at_step(&m.db, 1));
    }
    let mut driver = Pipeline::new(DriverConfig::last_minute(Default::default()));
    let mut transitions = Vec::new();
    for k in 1..=secs {
        for m in members {
            d.update(m.url, |db| *db = at_step(&m.db, k));
            let s = sample(&d, m.url, m.slot.clone(), m.privilege, k);
            transitions.extend(driver.push(Entry::Sample(Box::new(s))));
        }
    }
    transitions.extend(driver.finish());
    (driver.assessment().findings.clone(), transitions)
}

/// `standby_named` with no MRP0 in its process views: redo arrives, nothing applies it.
fn standby_apply_stopped(name: &str) -> FakeDb {
    let mut db = standby_named(Release::R19, "MOUNTED", name);
    for (view, col) in [
        ("V$DATAGUARD_PROCESS", "NAME"),
        ("V$MANAGED_STANDBY", "PROCESS"),
    ] {
        if let Some(rows) = db.views.get_mut(view) {
            rows.retain(|r| r.get(col).map(String::as_str) != Some("MRP0"));
        }
    }
    db
}

#[test]
fn a_second_standby_is_judged_for_its_own_state_and_its_findings_name_it() {
    let run = |second: FakeDb| {
        drive(
            &[
                member(P, Slot::primary(), primary_two_standbys(Release::R19)),
                member(
                    "//dbhost2:1521/prod_b",
                    Slot::named_standby("b"),
                    standby_named(Release::R19, "MOUNTED", "prod_b"),
                ),
                member("//dbhost3:1521/prod_c", Slot::named_standby("c"), second),
            ],
            40,
        )
    };
    // prod_c, the second standby, applies nothing.
    let (found, transitions) = run(standby_apply_stopped("prod_c"));
    let f = found
        .iter()
        .find(|f| f.id == "apply-stopped")
        .unwrap_or_else(|| panic!("not raised: {:?}", ids(&found)));
    assert_eq!(f.standby.as_deref(), Some("standby:c"));
    assert!(f.title.starts_with("standby:c: "), "{}", f.title);
    // The first standby applies: nothing of its own is raised about it.
    assert!(
        !found
            .iter()
            .any(|f| f.id == "apply-stopped" && f.standby.is_none()),
        "{:?}",
        found.iter().map(|f| &f.title).collect::<Vec<_>>()
    );
    // The primary's side is judged once, not again for the second standby.
    for f in &found {
        assert!(
            f.standby.is_none()
                || dgscope::causes::rules::spec(f.id)
                    .is_some_and(|r| r.scope == dgscope::causes::rules::Scope::EachStandby),
            "{} judged again for {:?}",
            f.id,
            f.standby
        );
    }
    assert!(transitions.iter().any(|t| matches!(t,
        dgscope::causes::Transition::Raised(f) if f.id == "apply-stopped" && f.standby.as_deref() == Some("standby:c"))));
    // The control: both standbys apply.
    let (found, _) = run(standby_named(Release::R19, "MOUNTED", "prod_c"));
    assert!(
        !found.iter().any(|f| f.id == "apply-stopped"),
        "{:?}",
        ids(&found)
    );
}
