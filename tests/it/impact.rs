//! Impact before blame (docs/FINDINGS.md, "Impact"): the invariants of the decompositions and
//! of every finding's impact, held over every twin scenario on several seeds (at many
//! instants of each run), every recording fixture and AWR reports the tests write; the 11g
//! whole-millisecond figures; an unreadable cell; a snapshot standby over its threshold.

use crate::common::awr_writer::{ev, AwrFixture, HistTable, Layout};
use crate::common::twin_runs;
use dgscope::causes::{Assessment, FindingKind, Severity, Symptom, Thresholds};
use dgscope::metrics::Delta;
use dgscope::pipeline::{pull_entries, Driver, DriverConfig};
use dgscope::sample::recording::Entry;
use dgscope::sample::{Sample, Slot};
use dgscope::source::twin::{Scenario, Twin};
use serde_json::Value;
use std::collections::BTreeMap;
use std::process::Command;
use std::time::Duration;

/// What the invariants looked at, for the failure message and the closing count.
#[derive(Default, Debug)]
struct Counted {
    assessments: usize,
    findings: usize,
    decompositions: usize,
}

/// The invariants of one assessment; each violation as a line.
fn violations(a: &Assessment, th: &Thresholds, at: &str) -> Vec<String> {
    let mut out = Vec::new();
    let near = |sum: f64, of: f64| (sum - of).abs() <= 0.01 * of.abs() + 1e-9;
    let mut commits = Vec::new();
    if let Some(c) = &a.decomposition.commit {
        commits.push(("", c));
        commits.extend(c.instances.values().map(|i| ("instance ", i)));
    }
    for (what, c) in commits {
        let sum: f64 = c.components.iter().map(|p| p.amount).sum();
        if c.components
            .iter()
            .any(|p| p.amount.is_nan() || p.amount < 0.0)
            || !near(sum, c.amount)
        {
            out.push(format!(
                "{at}: {what}commit parts {:?} do not sum to {}",
                c.components, c.amount
            ));
        }
    }
    for (slot, l) in &a.decomposition.lag {
        let parts = [
            l.transport.as_ref().map(|s| {
                (
                    s.amount,
                    s.components.iter().map(|c| c.amount).collect::<Vec<_>>(),
                )
            }),
            l.apply
                .as_ref()
                .map(|s| (s.amount, s.components.iter().map(|c| c.amount).collect())),
        ];
        for (amount, p) in parts.into_iter().flatten() {
            if p.iter().any(|x| x.is_nan() || *x < 0.0) || !near(p.iter().sum(), amount) {
                out.push(format!(
                    "{at}: {slot} lag parts {p:?} do not sum to {amount}"
                ));
            }
        }
    }
    // Shares per symptom (standby, instance): what the causes explain of one symptom never
    // adds up to more than all of it.
    let mut sums: BTreeMap<(Symptom, Option<String>, Option<u32>), f64> = BTreeMap::new();
    for f in &a.findings {
        let i = &f.impact;
        let unit_ok = i.unit == i.symptom.unit();
        let in_range = |x: Option<f64>| x.is_none_or(|v| (0.0..=1.0).contains(&v));
        if !unit_ok
            || !in_range(i.share)
            || !in_range(i.db_time_share)
            || i.amount.is_some_and(|v| v < 0.0)
        {
            out.push(format!("{at}: {} has an impossible impact {i:?}", f.id));
        }
        if f.kind != FindingKind::Symptom {
            *sums
                .entry((i.symptom, i.standby.clone(), i.instance))
                .or_default() += i.share.unwrap_or(0.0);
        }
        // Nothing pages for a small share of a symptom that does not matter.
        let weighed = dgscope::causes::rules::spec(f.id).is_some_and(|r| r.weighed);
        if weighed && f.severity >= Severity::Warn {
            let small = i.share.is_some_and(|s| s < th.impact_min_share)
                || i.db_time_share
                    .is_some_and(|d| d * 100.0 < th.impact_min_db_time_pct);
            if small {
                out.push(format!(
                    "{at}: {} is {} but explains {i:?}",
                    f.id, f.severity
                ));
            }
        }
    }
    for (k, s) in sums {
        if s > 1.0 + 1e-6 {
            out.push(format!("{at}: the causes of {k:?} explain {s} of it"));
        }
    }
    // The first weighed commit finding of the worst severity among them explains the most.
    let commit: Vec<_> = a
        .findings
        .iter()
        .filter(|f| f.impact.symptom == Symptom::Commit && f.kind == FindingKind::Problem)
        .filter(|f| dgscope::causes::rules::spec(f.id).is_some_and(|r| r.weighed))
        .collect();
    if let Some(worst) = commit.iter().map(|f| f.severity).max() {
        let same: Vec<_> = commit.iter().filter(|f| f.severity == worst).collect();
        let best = same.iter().map(|f| f.impact.weight()).fold(0.0, f64::max);
        if same[0].impact.weight() + 1e-12 < best {
            let ids: Vec<_> = same.iter().map(|f| (f.id, f.impact.weight())).collect();
            out.push(format!(
                "{at}: the first commit finding does not explain the most: {ids:?}"
            ));
        }
    }
    out
}

/// Judges `entries` with a check's driver, holding the invariants at every `every`-th
/// instant and at the end.
fn judged(
    entries: impl Iterator<Item = Entry>,
    secs: u64,
    every: usize,
    what: &str,
    n: &mut Counted,
) -> Vec<String> {
    let th = Thresholds::default();
    let mut d = Driver::new(DriverConfig::for_check(
        Some(Duration::from_secs(secs)),
        th.clone(),
    ));
    let mut out = Vec::new();
    let mut last = 0;
    let mut look = |a: &Assessment, at: String, n: &mut Counted| {
        n.assessments += 1;
        n.findings += a.findings.len();
        n.decompositions +=
            usize::from(a.decomposition.commit.is_some()) + a.decomposition.lag.len();
        out.extend(violations(a, &th, &at));
    };
    for e in entries {
        d.push(e);
        if d.assessments() > last {
            last = d.assessments();
            if last % every as u64 == 0 {
                look(d.assessment(), format!("{what} at {last} s"), n);
            }
        }
    }
    d.finish();
    look(d.assessment(), format!("{what} at the end"), n);
    out
}

/// Every scenario on seeds 1–3 (the runs the accuracy matrix keeps), five simulated minutes,
/// judged at every tenth instant.
#[test]
fn the_invariants_hold_over_every_scenario_and_seed() {
    let mut n = Counted::default();
    let mut failures = Vec::new();
    for s in Scenario::ALL {
        for seed in 1..=3 {
            let mut twin = twin_runs::twin(s, seed, 300);
            let entries = pull_entries(&mut twin, Duration::from_secs(300)).map(|e| e.unwrap());
            failures.extend(judged(
                entries,
                300,
                10,
                &format!("{s} seed {seed}"),
                &mut n,
            ));
        }
    }
    assert!(failures.is_empty(), "{n:?}\n{}", failures.join("\n"));
    // Enough was looked at to mean something: every run, many instants, most with findings.
    assert!(n.assessments >= Scenario::ALL.len() * 3 * 30, "{n:?}");
    assert!(n.findings > n.assessments / 2, "{n:?}");
    eprintln!("impact invariants: {n:?}");
}

fn dgscope(args: &[&str]) -> (i32, Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_dgscope"))
        .args(args)
        .env_remove("DGSCOPE_CONFIG")
        .env("XDG_CONFIG_HOME", "/nonexistent")
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&out.stdout)));
    (
        out.status.code().unwrap_or(-1),
        v,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The invariants as the JSON outputs write them: every finding has an impact (never a
/// missing key), the parts sum, the causes' shares of one symptom add up to at most 1.
fn json_violations(v: &Value, what: &str) -> Vec<String> {
    let mut out = Vec::new();
    let text = v.to_string();
    if text.contains("NaN") || text.contains("inf") && text.contains("\"infinity\"") {
        out.push(format!("{what}: a non-number in the JSON"));
    }
    let mut sums: BTreeMap<String, f64> = BTreeMap::new();
    for f in v["findings"].as_array().unwrap() {
        let i = &f["impact"];
        if !i.is_object() || !i["symptom"].is_string() {
            out.push(format!("{what}: {} has no impact", f["id"]));
            continue;
        }
        if f["kind"] != "symptom" {
            let k = format!("{} {} {}", i["symptom"], i["standby"], i["instance"]);
            *sums.entry(k).or_default() += i["share"].as_f64().unwrap_or(0.0);
        }
    }
    for (k, s) in sums {
        if s > 1.0 + 1e-3 {
            out.push(format!("{what}: the causes of {k} explain {s} of it"));
        }
    }
    if let Some(c) = v["decomposition"]["commit"].as_object() {
        let sum: f64 = c["components"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["amount"].as_f64().unwrap())
            .sum();
        let amount = c["amount"].as_f64().unwrap();
        if (sum - amount).abs() > 0.01 * amount + 1e-3 {
            out.push(format!("{what}: commit parts sum to {sum}, not {amount}"));
        }
    }
    out
}

#[test]
fn the_invariants_hold_on_every_recording_fixture() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut checked = 0;
    let mut failures = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "jsonl") {
            let (_, v, _) =
                dgscope(&["check", "--replay", p.to_str().unwrap(), "--format", "json"]);
            failures.extend(json_violations(&v, &p.display().to_string()));
            checked += 1;
        }
    }
    assert!(checked >= 3, "{checked} fixtures");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A static string for the writer's fields.
fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// An 11.2 AWR report of the window between two twin samples, written as 11.2 prints it:
/// averages in whole milliseconds, totals in whole seconds (the Top 10 to a tenth), the
/// millisecond histogram, the top events with their wait classes and the time model.
fn eleven_g_report(a: &Sample, b: &Sample) -> String {
    let d = Delta::between(a, b).unwrap();
    let secs = d.secs;
    let fg = |name: &str| {
        let e = d.event(name)?;
        let (w, us) = (e.waits_fg.unwrap_or(e.waits), e.us_fg.unwrap_or(e.us));
        (w > 0).then_some((w, us as f64 / 1e6))
    };
    let bgw = |name: &str| {
        let e = d.event(name)?;
        let (w, us) = e.background();
        (w > 0).then_some((w, us as f64 / 1e6))
    };
    // 11g prints the average to the whole millisecond: the reader must use total ÷ waits.
    let row = |name: &'static str, (w, s): (u64, f64), dec: usize| {
        ev(
            name,
            leak(w.to_string()),
            leak(format!("{s:.dec$}")),
            leak(format!("{:.0}", s * 1000.0 / w as f64)),
        )
    };
    let lfs = fg("log file sync").unwrap();
    let mut top = vec![row("log file sync", lfs, 1)];
    for (name, class) in &d.classes {
        if let Some(x) = fg(name) {
            top.push(row(leak(name.to_string()), x, 1).class(leak(class.to_string())));
        }
    }
    let mut bg = vec![];
    for name in ["log file parallel write", "SYNC Remote Write"] {
        if let Some(x) = bgw(name) {
            bg.push(row(name, x, 0));
        }
    }
    let stat = |n: &str| leak(d.stat(n).unwrap_or(0).to_string());
    let os = |n: &str| leak(format!("{:.0}", d.os.get(n).copied().unwrap_or(0.0)));
    let db_time_s = d.db_time_s().unwrap();
    // The histogram in 11.2's millisecond columns, as shares of the waits.
    let h = &d.event("log file sync").unwrap().hist;
    let edges_ms = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 1024.0, f64::INFINITY];
    let mut counts = [0u64; 8];
    for (b, n) in h.buckets() {
        let ms = b.0 as f64 / 1000.0;
        let i = edges_ms.iter().position(|e| ms <= *e + 1e-9).unwrap_or(7);
        counts[i] += n;
    }
    let total: u64 = counts.iter().sum();
    let pcts: Vec<&'static str> = counts
        .iter()
        .map(|c| match c {
            0 => "",
            c => leak(format!("{:.1}", *c as f64 * 100.0 / total as f64)),
        })
        .collect();
    AwrFixture {
        layout: Layout::V112,
        release: "11.2.0.4.0",
        rac: "NO",
        elapsed_min: leak(format!("{:.2}", secs / 60.0)),
        db_time_min: leak(format!("{:.2}", db_time_s / 60.0)),
        top_fg: top.clone(),
        fg: top,
        bg,
        stats: vec![
            ("user commits", stat("user commits")),
            ("user rollbacks", "0"),
            ("redo size", stat("redo size")),
            ("redo writes", stat("redo writes")),
            ("redo synch poll writes", stat("redo synch poll writes")),
        ],
        os: vec![
            ("BUSY_TIME", os("BUSY_TIME")),
            ("IDLE_TIME", os("IDLE_TIME")),
            ("NUM_CPUS", os("NUM_CPUS")),
        ],
        load: (os("LOAD"), os("LOAD")),
        cpus: os("NUM_CPUS"),
        // The window's own log switches, as Thread Activity counts them.
        switches: Some(leak(
            b.switches
                .as_ref()
                .map_or(0, |w| {
                    w.iter().filter(|x| x.time > a.t && x.time <= b.t).count()
                })
                .to_string(),
        )),
        time_model: vec![
            ("DB time", leak(format!("{db_time_s:.1}"))),
            (
                "DB CPU",
                leak(format!("{:.1}", d.time_model_s("DB CPU").unwrap_or(0.0))),
            ),
        ],
        hists: vec![HistTable {
            title: "Wait Event Histogram",
            count_header: "Total Waits",
            labels: vec![
                "<1ms", "<2ms", "<4ms", "<8ms", "<16ms", "<32ms", "<=1s", ">1s",
            ],
            rows: vec![("log file sync", leak(total.to_string()), pcts)],
        }],
        ..AwrFixture::v112()
    }
    .render()
}

/// The primary's first and last samples of `minutes` of a scenario.
fn window_of(s: Scenario, seed: u64, minutes: u64) -> (Sample, Sample) {
    let mut twin = Twin::new(s, seed);
    let primary: Vec<Sample> = pull_entries(&mut twin, Duration::from_secs(minutes * 60))
        .filter_map(|e| match e.unwrap() {
            Entry::Sample(x) if x.slot == Slot::primary() && !x.is_error() => Some((*x).clone()),
            _ => None,
        })
        .collect();
    (primary[0].clone(), primary.last().unwrap().clone())
}

fn report_awr(html: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("awrrpt_1_100_101.html");
    std::fs::write(&path, html).unwrap();
    let (code, v, err) = dgscope(&["report", "awr", path.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    v
}

fn top_warn(v: &Value) -> Option<String> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["severity"] != "INFO")
        .map(|f| f["id"].as_str().unwrap().to_string())
}

/// 11g and 12.1 print averages in whole milliseconds: a twin window written that way is read
/// from total ÷ waits, decomposed like the samples themselves, and judged the same.
#[test]
fn an_11g_report_of_a_twin_window_is_weighed_as_the_window_itself() {
    for (s, expected) in [
        (Scenario::LgwrStorage, Some("lgwr-write-slow")),
        (Scenario::CommitTail, Some("commit-tail")),
        (Scenario::MutexStorm, None),
    ] {
        let (a, b) = window_of(s, 11, 5);
        let d = Delta::between(&a, &b).unwrap();
        let v = report_awr(&eleven_g_report(&a, &b));
        let want = d.lfs_fg().unwrap().0;
        let got = v["metrics"]["log_file_sync_ms"].as_f64().unwrap();
        // Whole seconds of total over thousands of waits: far finer than the printed ms.
        assert!((got - want).abs() <= 0.01 * want, "{s}: {got} vs {want}");
        let printed: f64 = format!("{want:.0}").parse().unwrap();
        assert!(
            (got - printed).abs() > 1e-9 || (want - printed).abs() < 1e-3,
            "{s}: the whole-ms average was used"
        );
        // The totals are finer than the printed average: not reported as rounded.
        assert!(
            !v["rounded"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e == "log file sync"),
            "{s}: {}",
            v["rounded"]
        );
        assert_eq!(top_warn(&v).as_deref(), expected, "{s}: {}", v["findings"]);
        assert!(
            json_violations(&v, &s.to_string()).is_empty(),
            "{:?}",
            json_violations(&v, &s.to_string())
        );
        let c = &v["decomposition"]["commit"];
        assert!((c["amount"].as_f64().unwrap() - got).abs() < 1e-3, "{c}");
        if s == Scenario::MutexStorm {
            let f = v["findings"].as_array().unwrap();
            let elsewhere = f
                .iter()
                .find(|f| f["id"] == "db-time-elsewhere")
                .expect("db-time-elsewhere");
            assert!(
                elsewhere["title"]
                    .as_str()
                    .unwrap()
                    .contains("library cache: mutex X"),
                "{elsewhere}"
            );
        }
    }
}

/// The hand-written 11.2 report: log file sync 3,414.4 s over 10,020 waits (printed 341 ms),
/// log file parallel write 2,044 s over 26,990 (printed 76 ms). What lgwr-write-slow explains
/// is computed from the totals, and so is its share.
#[test]
fn whole_millisecond_averages_are_replaced_by_total_over_waits() {
    let v = report_awr(&AwrFixture::v112().render());
    let lfs = v["metrics"]["log_file_sync_ms"].as_f64().unwrap();
    let lfpw = v["metrics"]["log_file_parallel_write_ms"].as_f64().unwrap();
    assert!((lfs - 3414.4 / 10.020).abs() < 0.01, "{lfs}");
    assert!((lfpw - 2044.0 / 26.990).abs() < 0.01, "{lfpw}");
    let f = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == "lgwr-write-slow")
        .expect("lgwr-write-slow");
    let i = &f["impact"];
    assert_eq!(i["symptom"], "commit");
    // Above the healthy 0.5 ms and the allowance for its 6.9 KB writes (0.014 ms).
    let healthy = 0.5 + 191_479_200.0 / 26_990.0 / 1024.0 / 1024.0 * 2.0;
    assert!(
        (i["amount"].as_f64().unwrap() - (lfpw - healthy)).abs() < 0.001,
        "{i}"
    );
    assert!(
        (i["share"].as_f64().unwrap() - (lfpw - healthy) / lfs).abs() < 0.001,
        "{i}"
    );
    // 22 % of log file sync is under the 25 % that may page: INFO, saying so.
    assert_eq!(f["severity"], "INFO");
}

/// An overflowed cell (`#####`) and an impossible count are unreadable: named in the warnings,
/// left out of the figures, never NaN or a huge number in text or JSON.
#[test]
fn an_unreadable_figure_is_named_never_a_number() {
    let mut r = AwrFixture::v19();
    r.fg = vec![ev("log file sync", "##########", "96", "2.67ms")];
    r.top_fg = vec![ev("log file sync", "##########", "96.1", "2.67ms")];
    r.stats
        .push(("execute count", "99999999999999999999999999"));
    let v = report_awr(&r.render());
    let w: Vec<&str> = v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    assert!(
        w.iter()
            .any(|x| x.contains("log file sync") && x.contains("cannot be read")),
        "{w:?}"
    );
    assert!(
        w.iter()
            .any(|x| x.contains("execute count") && x.contains("cannot be read")),
        "{w:?}"
    );
    assert_eq!(v["metrics"]["log_file_sync_ms"], Value::Null);
    let text = v.to_string();
    assert!(!text.contains("NaN") && !text.contains("e+"), "{text}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("awrrpt_1_1200_1201.html");
    std::fs::write(&path, r.render()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_dgscope"))
        .args(["report", "awr", path.to_str().unwrap()])
        .env_remove("DGSCOPE_CONFIG")
        .output()
        .unwrap();
    let t = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && !t.contains("NaN") && t.contains("cannot be read"),
        "{t}"
    );
}

/// Broker semantics: a snapshot standby's apply lag grows without limit by design. Over its
/// threshold it pages nobody: apply-off says how much redo waits and that a role change needs
/// the conversion first; its apply finish time is not shown as a recovery time.
#[test]
fn a_snapshot_standbys_apply_lag_is_no_page() {
    let (code, v, _) = dgscope(&[
        "check",
        "--twin",
        "snapshot-standby",
        "--duration",
        "8m",
        "--format",
        "json",
    ]);
    assert_eq!(v["status"], "OK", "{}", v["findings"]);
    assert_eq!(code, 0);
    let f = v["findings"].as_array().unwrap();
    assert!(!f.iter().any(|f| f["id"] == "lag-high"), "{f:?}");
    let off = f
        .iter()
        .find(|f| f["id"] == "apply-off")
        .expect("apply-off");
    let advice = off["advice"].to_string();
    assert!(
        advice.contains("CONVERT") && !advice.contains("APPLY-ON"),
        "{advice}"
    );
    assert!(
        off["title"]
            .as_str()
            .unwrap()
            .contains("redo waits to be applied"),
        "{off}"
    );
    assert_eq!(off["impact"]["symptom"], "apply-lag");
    let sb = &v["overview"]["standbys"][0];
    assert!(sb["apply_lag_s"].as_f64().unwrap() > 300.0, "{sb}");
    assert_eq!(sb["apply_finish_s"], Value::Null, "{sb}");
    assert_eq!(
        v["decomposition"]["lag"]["standby"]["apply"]["components"][1]["name"],
        "off-by-design"
    );
}
