//! Real topologies at the source (issue 13): a RAC primary's per-instance evidence, several
//! standbys each naming itself, a far sync instance sampled as transport only, a cascaded
//! terminal standby naming the member it receives from, and a CDB whose monitoring user
//! sees the root's rows only. Fake rows shaped like the documented views (scenarios.rs).

use crate::common;

use common::*;
use dgscope::sample::{Role, Sample, Slot, TransmitMode};
use dgscope::source::oracle::connect::Privilege;
use dgscope::source::oracle::driver::Driver;
use dgscope::source::oracle::fake::{FakeDb, FakeDriver};
use dgscope::source::oracle::map::{self, MapInput};
use dgscope::source::oracle::scenarios::{
    cascaded_standby, cdb_primary, far_sync, primary, primary_two_standbys, rac_primary_saturated,
    standby_named, Release,
};
use dgscope::source::oracle::{probe, sql};
use dgscope::timestamp::Timestamp;
use dgscope::units::Micros;
use std::collections::BTreeSet;
use std::time::Duration;

const P: &str = "//dbhost1:1521/prod_a";

fn first_good(db: FakeDb, slot: Slot, privilege: Privilege) -> (FakeDriver, Sample) {
    let d = FakeDriver::new();
    d.add(P, db);
    let name = slot.to_string();
    let ev = collect(
        &d,
        vec![target(slot, &format!("mon@{P}"), privilege)],
        |_| {},
        |ev| !good_samples(ev, &name).is_empty(),
    );
    let s = good_samples(&ev, &name)[0].clone();
    (d, s)
}

#[test]
fn a_rac_primary_keeps_each_instance_with_its_own_host_figures() {
    let (_, s) = first_good(
        rac_primary_saturated(Release::R19),
        Slot::primary(),
        Privilege::Normal,
    );
    let inst = s.instances.as_ref().expect("a RAC primary has instances");
    assert_eq!(
        inst.iter().map(|i| i.inst_id).collect::<Vec<_>>(),
        vec![1, 2]
    );
    let (one, two) = (&inst[0], &inst[1]);
    assert_eq!(one.host.as_deref(), Some("dbhost1"));
    assert_eq!(two.host.as_deref(), Some("dbhost2"));
    // Each host's own CPUs and load: the saturated node is visible as such.
    assert_eq!((one.os["NUM_CPUS"], one.os["LOAD"]), (32.0, 40.0));
    assert_eq!((two.os["NUM_CPUS"], two.os["LOAD"]), (32.0, 0.3));
    // The top level stays the documented cluster figures: CPUs summed, the busiest load.
    assert_eq!((s.os["NUM_CPUS"], s.os["LOAD"]), (64.0, 40.0));
    // Each instance's own LGWR: 9 ms a commit on node 1, 3 ms on node 2.
    let lfs = |i: &dgscope::sample::InstanceSample| {
        let e = &i.events["log file sync"];
        (e.waits, e.us)
    };
    assert_eq!(lfs(one), (1_000_000, Micros(9_000_000_000)));
    assert_eq!(lfs(two), (1_000_000, Micros(3_000_000_000)));
    // The broadcast-on-commit statistic per instance and summed.
    assert_eq!(one.stats["redo write broadcast ack time"], 400_000_000);
    assert_eq!(two.stats["redo write broadcast ack count"], 88_000);
    assert_eq!(s.stat("redo write broadcast ack time"), Some(780_000_000));
    // The parts add up to the whole, histograms included.
    // (The top waits are read for the cluster as a whole: they carry their class.)
    for (name, e) in s.events.iter().filter(|(_, e)| e.class.is_none()) {
        let waits: u64 = inst.iter().map(|i| i.events[name].waits).sum();
        assert_eq!(waits, e.waits, "{name}");
        for (k, b) in e.hist.iter().enumerate() {
            let sum: u64 = inst
                .iter()
                .filter_map(|i| i.events[name].hist.iter().find(|x| x.0 == b.0))
                .map(|x| x.1)
                .sum();
            assert_eq!(sum, b.1, "{name} bucket {k}");
        }
    }
    for (name, v) in &s.stats {
        let sum: u64 = inst.iter().filter_map(|i| i.stats.get(name)).sum();
        assert_eq!(sum, *v, "{name}");
    }
    // A recording line carries it in the documented shape.
    let line = serde_json::to_value(&s).unwrap();
    let i0 = &line["instances"][0];
    assert_eq!(i0["inst_id"], 1);
    assert_eq!(i0["host"], "dbhost1");
    assert_eq!(i0["os"]["LOAD"], 40);
    assert_eq!(i0["events"]["log file sync"]["waits"], 1_000_000);
    // … and reads back as the same sample.
    let back: Sample = serde_json::from_value(line).unwrap();
    assert_eq!(back, s);
}

#[test]
fn a_single_instance_database_has_no_instances_list() {
    let (_, s) = first_good(primary(Release::R19, 1), Slot::primary(), Privilege::Normal);
    assert!(s.instances.is_none());
    assert!(serde_json::to_value(&s).unwrap().get("instances").is_none());
}

/// Maps one sample straight from the fake's answer to the sampling statement.
fn sample_now(d: &FakeDriver) -> Sample {
    let t = target(Slot::primary(), &format!("mon@{P}"), Privilege::Normal);
    let mut conn = d.connect(&t.login).unwrap();
    let pr = probe(conn.as_mut()).unwrap();
    let parts = sql::parts(pr.kind(), pr.features);
    let rows = conn.query(&sql::statement(&parts)).unwrap();
    let included: BTreeSet<&'static str> = parts.iter().map(|p| p.name).collect();
    map::to_sample(
        &rows,
        MapInput {
            t: Timestamp::from_millis(0),
            slot: Slot::primary(),
            query_us: None,
            probe: &pr,
            included: &included,
            errors: Vec::new(),
        },
    )
}

#[test]
fn instance_order_flipping_between_samples_changes_nothing() {
    let d = FakeDriver::new();
    d.add(P, rac_primary_saturated(Release::R19));
    let before = sample_now(&d);
    // GV$ gives no order: the next answer lists instance 2's rows first, in every view.
    d.update(P, |db| {
        for rows in db.views.values_mut() {
            rows.reverse();
            rows.sort_by_key(|r| std::cmp::Reverse(r.get("INST_ID").cloned()));
        }
    });
    let after = sample_now(&d);
    let hist_first = |s: &Sample| {
        s.instances.as_ref().unwrap()[0].events["log file sync"]
            .hist
            .clone()
    };
    assert!(!hist_first(&before).is_empty());
    assert_eq!(before.instances, after.instances);
    assert_eq!(before.events, after.events);
    assert_eq!(before.stats, after.stats);
    assert_eq!(before.os, after.os);
}

#[test]
fn each_standby_names_itself_and_a_hung_one_delays_no_other() {
    let d = FakeDriver::new();
    d.add(P, primary_two_standbys(Release::R19));
    d.add(
        "//dbhost2:1521/prod_b",
        standby_named(Release::R19, "MOUNTED", "prod_b"),
    );
    let mut hung = standby_named(Release::R19, "MOUNTED", "prod_c");
    // The probe (3 statements) answers; the first sample's statement then hangs.
    hung.query_delay = Some((3, Duration::from_secs(2)));
    d.add("//dbhost3:1521/prod_c", hung);
    d.add(
        "//dbhost4:1521/prod_d",
        standby_named(Release::R19, "READ ONLY WITH APPLY", "prod_d"),
    );
    let slots = ["primary", "standby:prod_b", "standby:prod_d"];
    let ev = collect(
        &d,
        vec![
            target(Slot::primary(), &format!("mon@{P}"), Privilege::Normal),
            target(
                Slot::named_standby("prod_b"),
                "mon@//dbhost2:1521/prod_b",
                Privilege::Sysdg,
            ),
            target(
                Slot::named_standby("prod_c"),
                "mon@//dbhost3:1521/prod_c",
                Privilege::Sysdg,
            ),
            target(
                Slot::named_standby("prod_d"),
                "mon@//dbhost4:1521/prod_d",
                Privilege::Sysdg,
            ),
        ],
        |_| {},
        |ev| slots.iter().all(|s| good_samples(ev, s).len() >= 5),
    );
    // Everyone else reached five samples while prod_c's first statement still hung.
    assert!(samples(&ev, "standby:prod_c").is_empty());
    for slot in slots {
        assert!(good_samples(&ev, slot).len() >= 5, "{slot}");
    }
    // Each standby's sample names its own DB_UNIQUE_NAME; the primary's destinations
    // carry the same names, so a consumer matches them by name, not by position.
    let name = |slot: &str| {
        good_samples(&ev, slot)[0]
            .db
            .as_ref()
            .and_then(|db| db.name.clone())
    };
    assert_eq!(name("standby:prod_b").as_deref(), Some("prod_b"));
    assert_eq!(name("standby:prod_d").as_deref(), Some("prod_d"));
    let p = good_samples(&ev, "primary")[0];
    let dests: Vec<(Option<&str>, TransmitMode)> = p
        .dests
        .iter()
        .map(|d| (d.db_unique_name.as_deref(), d.mode.clone()))
        .collect();
    assert_eq!(
        dests,
        vec![
            (Some("prod_b"), TransmitMode::Sync),
            (Some("prod_c"), TransmitMode::Async)
        ]
    );
    // Only the SYNC destination has response-time buckets.
    assert!(!p.dests[0].resp_hist.is_empty() && p.dests[1].resp_hist.is_empty());
    let cfg = p.dg_config.as_ref().unwrap();
    assert_eq!(cfg[0].name, "prod_a");
    assert!(cfg[0].parent.is_none());
    assert!(cfg[1..]
        .iter()
        .all(|m| m.parent.as_deref() == Some("prod_a")));
}

/// Views a statement reads, as the tokens after FROM/JOIN.
fn views_read(q: &str) -> BTreeSet<String> {
    let toks: Vec<&str> = q.split_whitespace().collect();
    toks.windows(2)
        .filter(|w| w[0].eq_ignore_ascii_case("from") || w[0].eq_ignore_ascii_case("join"))
        .map(|w| {
            w[1].trim_matches(|c| c == '(' || c == ')')
                .to_ascii_lowercase()
        })
        .collect()
}

#[test]
fn a_far_sync_instance_is_sampled_as_transport_only() {
    for rel in [Release::R12_1, Release::R19] {
        let (d, s) = first_good(
            far_sync(rel),
            Slot::named_standby("prod_fs"),
            Privilege::Sysdg,
        );
        let db = s.db.as_ref().unwrap();
        assert_eq!(db.role, Some(Role::FarSync), "{rel:?}");
        assert_eq!(db.name.as_deref(), Some("prod_fs"));
        // No apply: V$RECOVERY_PROGRESS has rows in the fake, but is never read.
        assert!(s.recovery.is_none() && s.lag_hist.is_none(), "{rel:?}");
        let dg = s.dg.as_ref().unwrap();
        assert_eq!(dg.transport_lag_s.map(|x| x.0), Some(1.0), "{rel:?}");
        assert!(dg.apply_lag_s.is_none() && dg.apply_finish_s.is_none());
        assert!(s.processes.iter().all(|p| !p.name.starts_with("MRP")));
        assert!(s.processes.iter().any(|p| p.name == "RFS"));
        // Its own hop: RFS writes into its SRLs, its destination to the terminal standby.
        assert!(s.events.contains_key("RFS write"));
        assert_eq!(s.dests.len(), 1);
        assert_eq!(s.dests[0].db_unique_name.as_deref(), Some("prod_c"));
        assert_eq!(s.dests[0].mode, TransmitMode::Async);
        assert!(!s.logs.as_ref().unwrap().standby.is_empty());
        assert!(s.gaps.as_ref().is_some_and(|g| g.is_empty()));
        assert!(s.errors.is_empty(), "{rel:?}: {:?}", s.errors);
        for (_, q) in d
            .log()
            .statements
            .iter()
            .filter(|(_, q)| q.contains("UNION ALL"))
        {
            let v = views_read(q);
            for apply in [
                "gv$recovery_progress",
                "v$standby_event_histogram",
                "v$log_history",
            ] {
                assert!(!v.contains(apply), "{rel:?} reads {apply}");
            }
        }
        if rel == Release::R19 {
            let cfg = s.dg_config.as_ref().unwrap();
            assert_eq!(cfg[0].name, "prod_fs");
            assert_eq!(cfg[0].parent.as_deref(), Some("prod_a"));
            assert_eq!(cfg[0].role.as_deref(), Some("FAR SYNC STANDBY"));
        } else {
            // 12.1: the columns are not in the contract there, so the view is not read.
            assert!(s.dg_config.is_none());
        }
    }
}

#[test]
fn a_cascaded_terminal_standby_names_the_member_it_receives_from() {
    let (_, s) = first_good(
        cascaded_standby(Release::R19),
        Slot::named_standby("prod_c"),
        Privilege::Sysdg,
    );
    assert_eq!(s.db.as_ref().unwrap().name.as_deref(), Some("prod_c"));
    assert_eq!(s.role(), Some(&Role::PhysicalStandby));
    let me = &s.dg_config.as_ref().unwrap()[0];
    assert_eq!(
        (me.name.as_str(), me.parent.as_deref()),
        ("prod_c", Some("prod_fs"))
    );
    // A standby is still sampled with its apply parts.
    assert!(s.recovery.is_some());
}

#[test]
fn a_cdb_user_without_container_data_is_flagged_on_the_iostat_part() {
    let (_, root_only) = first_good(
        cdb_primary(Release::R19, false),
        Slot::primary(),
        Privilege::Normal,
    );
    assert_eq!(root_only.cdb, Some(true));
    let w: Vec<_> = root_only
        .errors
        .iter()
        .filter(|e| e.part == "iostat")
        .collect();
    assert_eq!(w.len(), 1, "{:?}", root_only.errors);
    assert_eq!(w[0].code, "CONTAINER_DATA");
    assert!(
        w[0].message.contains("CONTAINER_DATA=ALL"),
        "{}",
        w[0].message
    );
    // The figures read are still there (the root's data files only).
    assert_eq!(root_only.iostat["Data File"].rreq, 300_000);

    let (_, all) = first_good(
        cdb_primary(Release::R19, true),
        Slot::primary(),
        Privilege::Normal,
    );
    assert_eq!(all.cdb, Some(true));
    assert!(all.errors.is_empty(), "{:?}", all.errors);
    assert_eq!(all.iostat["Data File"].rreq, 751_000);

    let (_, non_cdb) = first_good(primary(Release::R19, 1), Slot::primary(), Privilege::Normal);
    assert_eq!(non_cdb.cdb, Some(false));
    let (_, old) = first_good(
        primary(Release::R11_2, 1),
        Slot::primary(),
        Privilege::Normal,
    );
    assert_eq!(old.cdb, None, "11.2 has no CDB column: unknown, not NO");
}

#[test]
fn the_cdb_flag_is_probed_once_per_connection_on_12_1_and_with_version_full_on_18c() {
    let (d12, s12) = first_good(
        primary(Release::R12_1, 1),
        Slot::primary(),
        Privilege::Normal,
    );
    assert_eq!(s12.cdb, Some(false));
    let probes: Vec<String> = d12
        .log()
        .statements
        .iter()
        .map(|(_, q)| q.clone())
        .take_while(|q| !q.contains("UNION ALL"))
        .collect();
    assert_eq!(probes.len(), 3, "{probes:?}");
    assert_eq!(probes[2], sql::PROBE_CDB);
    let (d19, _) = first_good(primary(Release::R19, 1), Slot::primary(), Privilege::Normal);
    let n19 = d19
        .log()
        .statements
        .iter()
        .take_while(|(_, q)| !q.contains("UNION ALL"))
        .count();
    assert_eq!(n19, 3, "VERSION_FULL and CDB travel together");
}
