//! The twin's topologies (issue 13): what the samples of `rac-node-saturated`,
//! `two-standbys` and `far-sync` hold, with fixed seeds.

use dgscope::metrics::Delta;
use dgscope::sample::{Role, Sample, TransmitMode};
use dgscope::source::twin::{run_headless, Scenario};
use std::time::Duration;

fn of<'a>(all: &'a [Sample], slot: &str) -> Vec<&'a Sample> {
    all.iter().filter(|s| s.slot.as_str() == slot).collect()
}

/// The last sample of `slot` that read the configuration: a slow part, read once a minute as
/// the Oracle source reads it.
fn last_with_config<'a>(all: &'a [Sample], slot: &str) -> &'a Sample {
    of(all, slot)
        .into_iter()
        .rev()
        .find(|s| s.dg_config.is_some())
        .unwrap_or_else(|| panic!("{slot} never read V$DATAGUARD_CONFIG"))
}

/// Delta of `slot` between its 60th and its last sample.
fn delta(all: &[Sample], slot: &str) -> Delta {
    let v = of(all, slot);
    Delta::between(v[59], v[v.len() - 1]).unwrap()
}

#[test]
fn rac_node_saturated_reports_three_instances_and_one_hot_host() {
    let all = run_headless(Scenario::RacNodeSaturated, 3, Duration::from_secs(180));
    let last = of(&all, "primary").pop().unwrap();
    let inst = last
        .instances
        .as_ref()
        .expect("a RAC primary has instances");
    assert_eq!(
        inst.iter().map(|i| i.inst_id).collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
    assert_eq!(inst[1].host.as_deref(), Some("dbhost2"));
    // Each host its own CPUs and load; the top level is the cluster's (CPUs summed, the
    // busiest host's load), so only instance 2's own figures show it saturated.
    for i in inst {
        assert_eq!(i.os["NUM_CPUS"], 32.0);
    }
    assert!(inst[1].os["LOAD"] >= 32.0, "{}", inst[1].os["LOAD"]);
    assert!(inst[0].os["LOAD"] < 32.0);
    assert_eq!(last.os["NUM_CPUS"], 96.0);
    assert_eq!(last.os["LOAD"], inst[1].os["LOAD"]);
    // The parts add up to the whole.
    for name in ["log file sync", "log file parallel write"] {
        let sum: u64 = inst.iter().map(|i| i.events[name].waits).sum();
        assert_eq!(sum, last.events[name].waits, "{name}");
    }
    let commits: u64 = inst.iter().map(|i| i.stats["user commits"]).sum();
    assert_eq!(commits, last.stats["user commits"]);
    // The hot node's commits wait about three times as long as the others'.
    let d = delta(&all, "primary");
    let lfs = |id: u32| d.instances[&id].event_avg("log file sync").unwrap().0;
    for other in [1, 3] {
        let ratio = lfs(2) / lfs(other);
        assert!(
            (2.3..=4.0).contains(&ratio),
            "inst 2 / inst {other}: {ratio:.2}"
        );
    }
    let busy = d.instances[&2].cpu_busy_pct().unwrap();
    assert!(busy >= 99.0, "{busy}");
    assert!(
        d.cpu_busy_pct().unwrap() < 90.0,
        "the cluster average hides it"
    );
}

#[test]
fn a_plain_pair_has_no_instances_list_and_two_slots() {
    let all = run_headless(Scenario::HealthySync, 3, Duration::from_secs(3));
    assert_eq!(all.len(), 6);
    assert!(all
        .iter()
        .all(|s| s.instances.is_none() && s.dg_config.is_none()));
}

#[test]
fn two_standbys_ship_sync_to_the_near_one_and_async_to_the_far_one() {
    let all = run_headless(Scenario::TwoStandbys, 4, Duration::from_secs(120));
    assert_eq!(all.len(), 3 * 120);
    let p = of(&all, "primary").pop().unwrap();
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
    let far = last_with_config(&all, "standby:prod_c");
    assert_eq!(far.db.as_ref().unwrap().name.as_deref(), Some("prod_c"));
    let cfg = far.dg_config.as_ref().unwrap();
    assert_eq!(
        (cfg[0].name.as_str(), cfg[0].parent.as_deref()),
        ("prod_c", Some("prod_a"))
    );
    // The far standby's SRL disk is slow, the near one's fast.
    let far_rfs = delta(&all, "standby:prod_c").rfs_avg().unwrap().0;
    let near_rfs = delta(&all, "standby").rfs_avg().unwrap().0;
    assert!(far_rfs >= 3.0, "{far_rfs}");
    assert!(near_rfs < 1.0, "{near_rfs}");
    assert!(far.dg.as_ref().unwrap().transport_lag_s.unwrap().0 <= 2.0);
}

#[test]
fn far_sync_is_transport_only_and_the_terminal_standby_names_it() {
    let all = run_headless(Scenario::FarSync, 5, Duration::from_secs(120));
    let p = of(&all, "primary").pop().unwrap();
    assert_eq!(p.dests.len(), 1);
    assert_eq!(p.dests[0].db_unique_name.as_deref(), Some("prod_fs"));
    assert_eq!(p.dests[0].dest_type.as_deref(), Some("FAR SYNC"));
    assert!(p.dests[0].mode.is_sync());
    let fs = of(&all, "standby").pop().unwrap();
    let db = fs.db.as_ref().unwrap();
    assert_eq!(
        (db.name.as_deref(), db.role.clone()),
        (Some("prod_fs"), Some(Role::FarSync))
    );
    assert!(fs.recovery.is_none() && fs.lag_hist.is_none());
    assert!(fs.dg.as_ref().unwrap().apply_lag_s.is_none());
    assert!(fs.processes.iter().all(|x| !x.name.starts_with("MRP")));
    assert!(!fs.iostat.contains_key("Data File"));
    assert_eq!(fs.dests.len(), 1);
    assert_eq!(fs.dests[0].db_unique_name.as_deref(), Some("prod_c"));
    assert_eq!(fs.dests[0].mode, TransmitMode::Async);
    let term = last_with_config(&all, "standby:prod_c");
    let me = &term.dg_config.as_ref().unwrap()[0];
    assert_eq!(
        (me.name.as_str(), me.parent.as_deref()),
        ("prod_c", Some("prod_fs"))
    );
    assert!(term.recovery.is_some());
    // The far sync's SRL disk is the slow one.
    let fs_rfs = delta(&all, "standby").rfs_avg().unwrap().0;
    let term_rfs = delta(&all, "standby:prod_c").rfs_avg().unwrap().0;
    assert!(fs_rfs >= 2.0 && term_rfs < 1.0, "{fs_rfs} {term_rfs}");
}

#[test]
fn slots_of_lists_what_a_tick_returns() {
    use dgscope::source::twin::{slots_of, Twin};
    use dgscope::source::PullSource;
    for s in Scenario::ALL {
        let tick = Twin::new(s, 1).next_tick().unwrap();
        let got: Vec<_> = tick.samples.iter().map(|x| x.slot.clone()).collect();
        assert_eq!(got, slots_of(s), "{s}");
    }
}

#[test]
fn topology_runs_are_reproducible_for_a_seed() {
    for s in [
        Scenario::RacNodeSaturated,
        Scenario::TwoStandbys,
        Scenario::FarSync,
    ] {
        let a = run_headless(s, 9, Duration::from_secs(20));
        let b = run_headless(s, 9, Duration::from_secs(20));
        assert_eq!(a, b, "{s}");
    }
}

#[test]
fn switching_to_a_pair_leaves_the_extra_member_stale_not_current() {
    use dgscope::source::twin::Twin;
    use dgscope::source::PullSource;
    let mut twin = Twin::new(Scenario::TwoStandbys, 2);
    let tick = twin.next_tick().unwrap();
    let far = tick
        .samples
        .iter()
        .find(|s| s.slot.as_str() == "standby:prod_c");
    assert!(far.is_some_and(|s| !s.is_error()));
    twin.set_scenario(Scenario::HealthySync);
    let tick = twin.next_tick().unwrap();
    let far = tick
        .samples
        .iter()
        .find(|s| s.slot.as_str() == "standby:prod_c")
        .expect("the slot keeps reporting");
    assert!(far.is_error(), "{far:?}");
    assert!(tick.samples[0].dests.len() == 1);
}
