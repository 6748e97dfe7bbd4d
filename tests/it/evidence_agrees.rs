//! Principle 3 (a finding's evidence agrees with its finding): every twin scenario on a few
//! fixed seeds, and the repo's fixture recordings, driven through the one pipeline driver;
//! at every assessed instant every rule whose condition holds is judged against its own
//! evidence and the state it was raised in. A finding whose own evidence fails its
//! condition is a bug: CPU starvation at a CPU below its threshold, a headroom or apply
//! rate from an unknown input (Oracle's 0 under Multi-Instance Redo Apply, MRP0 waiting for
//! a gap), a missing log that MRP0 is applying, bandwidth blamed with nothing shipped or on
//! a SYNC destination, a lag below the threshold the finding names. The screen's lag pane
//! and the exporter's apply rate are held to the same rule.

use crate::common::twin_runs;
use dgscope::app::Mode;
use dgscope::causes::rules::{self, Kind, Scope};
use dgscope::causes::Context;
use dgscope::causes::{Evidence, Finding, Thresholds};
use dgscope::exposition::{self, Format, PairSnapshot};
use dgscope::metrics::{Engine, Window};
use dgscope::pipeline::ScreenAssessor;
use dgscope::pipeline::{Driver, DriverConfig};
use dgscope::sample::recording::Entry;
use dgscope::sample::Slot;
use dgscope::source::twin::Scenario;
use dgscope::source::{PullSource, SourceEvent};
use dgscope::tui::{self, TuiOptions};
use dgscope::ui::{self, theme::Theme};
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// The evidence item whose metric `pick` accepts.
fn item(f: &Finding, pick: impl Fn(&str) -> bool) -> Option<&Evidence> {
    f.evidence.iter().find(|e| pick(&e.metric))
}

fn value(f: &Finding, pick: impl Fn(&str) -> bool) -> Option<f64> {
    item(f, pick).filter(|e| e.has_value()).map(|e| e.value)
}

/// A threshold of one clause (`≥ 90 %`, `< 10 s`, `> 0`, `≥ 1.00 ms`) read as a comparison;
/// anything richer (`≥ 2 × lfpw (1.24 ms)`, `WARN ≥ …, CRIT ≥ …`) is not read here.
fn simple_bound(e: &Evidence) -> Option<(&'static str, f64)> {
    let t = e.threshold.as_deref()?.trim();
    let (op, rest) = ["≥", "≤", ">", "<"]
        .iter()
        .find_map(|op| t.strip_prefix(op).map(|r| (*op, r.trim())))?;
    let mut words = rest.split_whitespace();
    let n: f64 = words.next()?.parse().ok()?;
    let unit = words.next().unwrap_or("");
    if words.next().is_some() || (unit != e.unit && !unit.is_empty()) {
        return None;
    }
    Some((op, n))
}

/// Every contradiction of one rule's output `f` with its own evidence and with the state
/// it was judged in (`ctx`).
fn contradictions(f: &Finding, ctx: &Context, th: &Thresholds) -> Vec<String> {
    let mut out = Vec::new();
    let mut bad = |why: String| out.push(format!("{}: {why} [{}]", f.id, f.title));

    // Any one-clause threshold an evidence item names, it meets.
    for e in f.evidence.iter().filter(|e| e.has_value()) {
        if let Some((op, n)) = simple_bound(e) {
            // Thresholds are printed rounded: half a unit of the last digit is tolerated.
            let tol = 0.005 * n.abs().max(1.0);
            let ok = match op {
                "≥" => e.value >= n - tol,
                ">" => e.value > n - tol,
                "≤" => e.value <= n + tol,
                _ => e.value < n + tol,
            };
            if !ok {
                bad(format!(
                    "evidence '{}' = {} fails its own threshold '{}'",
                    e.metric,
                    e.value,
                    e.threshold.as_deref().unwrap_or("")
                ));
            }
        }
    }

    // An apply rate (or a ratio of it) from an unknown input.
    let mrp_action = ctx
        .mrp()
        .and_then(|p| p.action.as_deref())
        .map(str::to_ascii_uppercase);
    let waits_for_gap = mrp_action.as_deref() == Some("WAIT_FOR_GAP");
    for e in &f.evidence {
        let m = e.metric.to_ascii_lowercase();
        if !(m.contains("apply rate") || m.contains("headroom")) {
            continue;
        }
        if ctx.mira() && e.value == 0.0 {
            bad(format!("'{}' = 0 under MIRA (unknown, not zero)", e.metric));
        }
        if waits_for_gap {
            bad(format!("'{}' while MRP0 is WAIT_FOR_GAP", e.metric));
        }
    }

    match f.id {
        "lgwr-cpu-starved" => {
            match value(f, |m| m.contains("CPU busy")) {
                Some(cpu) if cpu >= th.cpu_busy_pct => {}
                Some(cpu) => bad(format!(
                    "CPU busy {cpu:.1} % below its threshold {} %",
                    th.cpu_busy_pct
                )),
                None => bad("no CPU busy evidence".into()),
            }
            match value(f, |m| m.contains("not explained by writes")) {
                Some(x) if x >= th.lfs_unexplained_ms => {}
                x => bad(format!(
                    "log file sync not explained by writes {x:?} below {} ms",
                    th.lfs_unexplained_ms
                )),
            }
        }
        "apply-waiting-for-gap" => {
            let mrp = ctx.mrp();
            let applying = mrp_action.as_deref() == Some("APPLYING_LOG");
            let gaps = ctx.s_last().and_then(|s| s.gaps.as_ref());
            if let (true, Some(p), Some(gaps)) = (applying, mrp, gaps) {
                if let (Some(t), Some(seq)) = (p.thread, p.sequence) {
                    if gaps
                        .iter()
                        .any(|g| g.thread == t && (g.low..=g.high).contains(&seq))
                    {
                        bad(format!(
                            "MRP0 is APPLYING_LOG thread {t} sequence {seq}, inside the gap"
                        ));
                    }
                }
            }
        }
        "transport-bandwidth" => {
            match value(f, |m| m.starts_with("shipped rate")) {
                Some(r) if r > 0.0 => {}
                r => bad(format!("shipped rate {r:?}: nothing measured ships")),
            }
            let sync = match ctx.standby_dest() {
                Some(d) => d.mode.is_sync(),
                None => ctx.sync_dest().is_some(),
            };
            if sync {
                bad("raised on a SYNC destination".into());
            }
            let lag = value(f, |m| {
                m.starts_with("transport lag") && !m.contains("trend")
            });
            let trend = value(f, |m| m == "transport lag trend");
            let lagging = lag.is_some_and(|l| l >= th.transport_lag_s)
                || trend.is_some_and(|r| r >= th.transport_lag_rise_s_per_s);
            if !lagging {
                bad(format!(
                    "transport lag {lag:?} below {} s and trend {trend:?} below {} s/s",
                    th.transport_lag_s, th.transport_lag_rise_s_per_s
                ));
            }
        }
        "apply-bound" => {
            let gap = value(f, |m| m == "apply lag − transport lag");
            let trend = value(f, |m| m == "apply lag trend");
            let lagging = gap.is_some_and(|g| g >= th.apply_gap_s)
                || trend.is_some_and(|t| t >= th.apply_lag_rise_s_per_s);
            if !lagging {
                bad(format!(
                    "apply lag beyond transport {gap:?} below {} s and trend {trend:?} below {} s/s",
                    th.apply_gap_s, th.apply_lag_rise_s_per_s
                ));
            }
        }
        "lag-high" => {
            let (tw, _) = th.transport_lag_levels();
            let (aw, _) = th.apply_lag_levels();
            let lags: Vec<&Evidence> = f
                .evidence
                .iter()
                .filter(|e| {
                    e.metric.starts_with("transport lag") || e.metric.starts_with("apply lag")
                })
                .collect();
            if lags.is_empty() {
                bad("no lag in its evidence".into());
            }
            for e in lags {
                let warn = if e.metric.starts_with("apply") {
                    aw
                } else {
                    tw
                };
                if e.value < warn {
                    bad(format!(
                        "'{}' {} s below its threshold {warn} s",
                        e.metric, e.value
                    ));
                }
            }
        }
        _ => {}
    }
    out
}

/// Every rule whose condition holds now, judged as the driver judges it: the first
/// standby's rules with the engine's gating, and every other standby's own rules.
fn judge_instant(engine: &Engine, window: Window, th: &Thresholds) -> Vec<String> {
    let mut out = Vec::new();
    let mut slots: Vec<Option<Slot>> = vec![None];
    slots.extend(
        engine
            .standby_slots()
            .iter()
            .skip(1)
            .map(|s| Some((*s).clone())),
    );
    for slot in slots {
        let ctx = Context::new(engine, window, slot.as_ref());
        let rates_ready = ctx.primary_samples() >= th.min_samples && ctx.lfs_waits() > 0;
        let transport_only = ctx.standby_is_far_sync();
        for spec in rules::all() {
            if (!rates_ready && spec.kind != Kind::State)
                || (transport_only && spec.apply)
                || (slot.is_some() && spec.scope != Scope::EachStandby)
            {
                continue;
            }
            if let Some(f) = (spec.eval)(&ctx, th) {
                out.extend(contradictions(&f, &ctx, th).into_iter().map(|c| {
                    format!(
                        "{} {} || {c}",
                        ctx.now,
                        slot.as_ref().map_or("".into(), |s| format!("standby {s}"))
                    )
                }));
            }
        }
    }
    out
}

/// The exporter's apply rate: absent, never 0, where Oracle's 0 means unknown (MIRA).
fn judge_exporter(engine: &Engine, window: Window, d: &Driver) -> Vec<String> {
    let mut out = Vec::new();
    let snap = PairSnapshot::from_engine("p", "check", &[], engine, d.assessment());
    let text = exposition::render(&[Arc::new(snap)], Format::Text);
    let parsed = exposition::parse::parse(&text, Format::Text).expect("the exposition parses");
    for slot in engine.standby_slots() {
        let ctx = Context::new(engine, window, Some(slot));
        if !ctx.mira() {
            continue;
        }
        let name = slot.to_string();
        if let Some(v) = parsed.value(
            "dgscope_apply_rate_bytes_per_second",
            &[("slot", name.as_str())],
        ) {
            if v == 0.0 {
                out.push(format!(
                    "{} || exporter: apply rate 0 for {name} under MIRA (unknown, not zero)",
                    ctx.now
                ));
            }
        }
    }
    out
}

/// Fails with every contradiction found.
fn assert_none(what: &str, found: Vec<String>) {
    // One line per kind of contradiction is enough to read; the count says how many.
    let mut kinds: Vec<String> = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for f in &found {
        // The kind: the contradiction without its figures, times and seeds.
        let key: String = f
            .split(" || ")
            .nth(1)
            .unwrap_or(f)
            .chars()
            .filter(|c| !c.is_ascii_digit())
            .take(90)
            .collect();
        if seen.insert(key) {
            kinds.push(f.clone());
        }
    }
    assert!(
        found.is_empty(),
        "{what}: {} contradiction(s) of a finding with its own evidence, e.g.:\n{}",
        found.len(),
        kinds.join("\n")
    );
}

/// `secs` of a scenario through `check`'s driver (the run's window), judged at every
/// assessed instant.
fn check_run(s: Scenario, seed: u64, secs: u64) -> Vec<String> {
    let th = Thresholds::default();
    // The accuracy matrix's run of this seed (common::twin_runs), simulated once.
    let mut twin = twin_runs::twin(s, seed, secs as usize);
    let mut d = Driver::new(DriverConfig::for_check(
        Some(Duration::from_secs(secs)),
        th.clone(),
    ));
    let mut out = Vec::new();
    for i in 0..secs {
        let Some(tick) = twin.next_tick() else { break };
        for (k, sample) in tick.samples.into_iter().enumerate() {
            let entry = Entry::Sample(Box::new(sample));
            if k == 0 {
                // The previous instant is assessed now, with the engine as it was then.
                d.begin(&entry);
                if d.assessments() > 0 {
                    out.extend(judge_instant(d.engine(), d.window(), &th));
                    if i % 15 == 0 {
                        out.extend(judge_exporter(d.engine(), d.window(), &d));
                    }
                }
            }
            d.push(entry);
        }
    }
    d.finish();
    out.extend(judge_instant(d.engine(), d.window(), &th));
    out.extend(judge_exporter(d.engine(), d.window(), &d));
    out.into_iter()
        .map(|c| format!("{s} seed {seed}: {c}"))
        .collect()
}

/// `secs` of a scenario on the triage screen (the last minute's window), its rules judged
/// each second and its lag pane read every 10 s: no headroom from an unknown apply rate.
fn screen_run(s: Scenario, seed: u64, secs: u64) -> Vec<String> {
    let th = Thresholds::default();
    let mut twin = twin_runs::twin(s, seed, secs as usize);
    let mut opts = TuiOptions::new(Mode::Demo, twin.describe(), twin.interval());
    opts.scenarios = Scenario::names().into_iter().map(String::from).collect();
    let assessor = ScreenAssessor::new(None).into_assessor();
    let mut app = tui::build_app(&opts, Theme::all_builtin(true), assessor);
    let window = Window::Last(Duration::from_secs(60));
    let mut term = Terminal::new(TestBackend::new(160, 48)).unwrap();
    let mut out = Vec::new();
    for i in 0..secs {
        let Some(tick) = twin.next_tick() else { break };
        for sample in tick.samples {
            app.ingest(SourceEvent::Sample(Box::new(sample)));
        }
        app.refresh();
        out.extend(judge_instant(app.engine(), window, &th));
        if i % 10 == 9 {
            app.now = app.engine().latest().unwrap_or_default();
            term.draw(|f| ui::draw(f, &app)).unwrap();
            let screen = ui::buffer_text(term.backend().buffer());
            let ctx = Context::new(app.engine(), window, app.standby());
            let action = ctx
                .mrp()
                .and_then(|p| p.action.as_deref())
                .map(str::to_ascii_uppercase);
            let unknown = if ctx.mira() {
                Some("under MIRA")
            } else if action.as_deref() == Some("WAIT_FOR_GAP") {
                Some("while MRP0 is WAIT_FOR_GAP")
            } else {
                None
            };
            if let (Some(why), Some(line)) =
                (unknown, screen.lines().find(|l| l.contains("headroom")))
            {
                out.push(format!(
                    "{} || lag pane shows a headroom {why}: {}",
                    ctx.now,
                    line.trim()
                ));
            }
        }
    }
    out.into_iter()
        .map(|c| format!("{s} seed {seed} (screen): {c}"))
        .collect()
}

/// Two threads (the machine has two cores), each a half of the scenarios.
fn in_two_halves(f: impl Fn(Scenario) -> Vec<String> + Sync) -> Vec<String> {
    let all: Vec<Scenario> = Scenario::ALL.to_vec();
    std::thread::scope(|scope| {
        let f = &f;
        let handles: Vec<_> = [0, 1]
            .map(|h| {
                let mine: Vec<Scenario> = all.iter().copied().skip(h).step_by(2).collect();
                scope.spawn(move || mine.into_iter().flat_map(f).collect::<Vec<_>>())
            })
            .into_iter()
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    })
}

/// Every scenario, seeds 1 and 2, four simulated minutes of `check` (each scenario's
/// incident begins within its first two minutes; the hold and hysteresis need one more).
#[test]
fn every_scenario_in_check_has_findings_that_agree_with_their_evidence() {
    let found = in_two_halves(|s| (1..=2).flat_map(|seed| check_run(s, seed, 240)).collect());
    assert_none("check", found);
}

/// Every scenario, seed 3, three minutes on the screen: its rules over the last minute
/// and its lag pane.
#[test]
fn every_scenario_on_the_screen_has_findings_and_rates_that_agree() {
    let found = in_two_halves(|s| screen_run(s, 3, 180));
    assert_none("screen", found);
}

/// The repo's fixture recordings, replayed through the driver and judged the same way.
#[test]
fn fixture_recordings_have_findings_that_agree_with_their_evidence() {
    let th = Thresholds::default();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut found = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    assert!(files.len() >= 3, "{files:?}");
    // Recordings written by hand: a slow SRL, then the standby going down.
    let handmade = crate::handmade::recording(200, 3.4, 2.9, Some(150));
    files.push(handmade.path().to_path_buf());
    for path in &files {
        let (_, entries) = dgscope::sample::recording::read_all(path).unwrap();
        let mut d = Driver::new(DriverConfig::for_check(None, th.clone()));
        for entry in entries {
            let before = d.assessments();
            d.begin(&entry);
            if d.assessments() > before {
                found.extend(
                    judge_instant(d.engine(), d.window(), &th)
                        .into_iter()
                        .map(|c| format!("{}: {c}", path.display())),
                );
            }
            d.push(entry);
        }
        d.finish();
        found.extend(judge_instant(d.engine(), d.window(), &th));
    }
    assert_none("fixtures", found);
}

/// `apply-io-bound` (seed 1, five minutes of `check`), with `f` applied to every standby
/// sample: the apply-bound finding's evidence for `db file sequential read`.
fn apply_read_evidence(f: impl Fn(&mut dgscope::sample::Sample, u64)) -> f64 {
    let th = Thresholds::default();
    let secs = 300;
    let mut twin = twin_runs::twin(Scenario::ApplyIoBound, 1, secs as usize);
    let mut d = Driver::new(DriverConfig::for_check(Some(Duration::from_secs(secs)), th));
    for k in 0..secs {
        let Some(tick) = twin.next_tick() else { break };
        for mut s in tick.samples {
            if s.slot != Slot::primary() {
                f(&mut s, k);
            }
            d.push(Entry::Sample(Box::new(s)));
        }
    }
    d.finish();
    let found = d
        .assessment()
        .findings
        .iter()
        .find(|f| f.id == "apply-bound")
        .cloned()
        .expect("apply-bound");
    value(&found, |m| m.contains("'db file sequential read'"))
        .unwrap_or_else(|| panic!("{:?}", found.evidence))
}

/// Review #11: on an Active Data Guard standby the queries' own single-block reads are
/// foreground waits (`TOTAL_WAITS_FG`, `TIME_WAITED_MICRO_FG`): apply's evidence counts
/// background waits only, so 40 s/s of query reads do not show as apply's.
#[test]
fn adg_query_waits_are_not_apply_evidence() {
    use dgscope::sample::names::event;
    use dgscope::units::Micros;
    let plain = apply_read_evidence(|_, _| {});
    let with_queries = apply_read_evidence(|s, k| {
        let e = s
            .events
            .get_or_insert_with(event::DB_FILE_SEQUENTIAL_READ.into(), Default::default);
        // Queries: 4 000 reads a second of 10 ms each, all foreground.
        let (waits, us) = (4_000 * k, 40_000_000 * k);
        e.waits += waits;
        e.us = Micros(e.us.0 + us);
        e.waits_fg = Some(e.waits_fg.unwrap_or(0) + waits);
        e.us_fg = Some(Micros(e.us_fg.map_or(0, |u| u.0) + us));
    });
    assert!(plain > 0.0, "{plain}");
    assert!(
        (with_queries - plain).abs() < 0.01 * plain.max(1.0),
        "apply's reads {plain} s/s, with ADG queries {with_queries} s/s"
    );
}

/// Text-only evidence (a destination's error, a status) is printed as its words by the
/// report and the screen alike, never as a number (its value is NaN: JSON `null`).
#[test]
fn text_only_evidence_never_prints_a_number() {
    let e = Evidence {
        metric: "dest ERROR: ORA-12541: TNS:no listener".into(),
        value: f64::NAN,
        unit: String::new(),
        threshold: None,
        source: "V$ARCHIVE_DEST_STATUS".into(),
    };
    assert!(!e.has_value());
    for text in [
        dgscope::report::check::evidence_text(&e),
        dgscope::ui::evidence_text(&e, |s| s.to_string()),
    ] {
        assert!(!text.contains("NaN"), "{text}");
        assert!(text.contains("ORA-12541"), "{text}");
    }
}
