//! Shared helpers for the twin tests: run a twin, and summarise a window of its samples the
//! way the product sees them (through `metrics::Delta`).

use dgscope::metrics::Delta;
use dgscope::sample::names::{event, filetype};
use dgscope::sample::Sample;
use dgscope::source::twin::{Params, Scenario, SlowParts, Twin, EPOCH};
use dgscope::source::PullSource;

pub struct Run {
    pub primary: Vec<Sample>,
    pub standby: Vec<Sample>,
    pub twin: Twin,
}

pub fn run_params(scenario: Scenario, p: Params, seed: u64, secs: usize) -> Run {
    let mut twin = Twin::with_params(scenario, p, seed, EPOCH);
    // The samples as consumers see them: each slow part is the latest one read.
    twin.set_slow_parts(SlowParts::Repeated);
    let mut primary = Vec::with_capacity(secs);
    let mut standby = Vec::with_capacity(secs);
    for _ in 0..secs {
        let tick = twin.next_tick().expect("the twin never ends");
        let mut it = tick.samples.into_iter();
        primary.push(it.next().unwrap());
        standby.push(it.next().unwrap());
    }
    Run {
        primary,
        standby,
        twin,
    }
}

pub fn run(scenario: Scenario, seed: u64, secs: usize) -> Run {
    run_params(scenario, scenario.params(), seed, secs)
}

/// What the cause rules look at over a window `[from, to]` (sample indexes).
#[derive(Debug, Clone)]
pub struct Window {
    pub tps: f64,
    pub redo_mb_s: f64,
    pub writes_per_s: f64,
    pub write_kb: f64,
    pub lfs: f64,
    pub lfpw: f64,
    pub remote: Option<f64>,
    pub rfs: Option<f64>,
    pub poll_writes: u64,
    pub cpu_pct: f64,
    pub load_over_cpus: f64,
    pub p_log_w: f64,
    pub p_data_w: f64,
    pub s_log_w: Option<f64>,
    pub s_data_w: Option<f64>,
    pub lfpw_p99_ms: f64,
    pub delta: Delta,
}

pub fn window(r: &Run, from: usize, to: usize) -> Window {
    let d = Delta::between(&r.primary[from], &r.primary[to]).expect("primary delta");
    let sd = Delta::between(&r.standby[from], &r.standby[to]);
    let ms = |o: Option<dgscope::units::Millis>| o.map(|m| m.0);
    let lfpw_hist = &d.event(event::LOG_FILE_PARALLEL_WRITE).unwrap().hist;
    let lfpw_p99_ms = lfpw_hist.percentile(0.99).map_or(0.0, |p| p.ms());
    Window {
        tps: d.tps().unwrap(),
        redo_mb_s: d.redo_mb_s().unwrap(),
        writes_per_s: d.redo_writes_per_s().unwrap(),
        write_kb: d.redo_write_kb().unwrap(),
        lfs: ms(d.event_avg(event::LOG_FILE_SYNC)).unwrap(),
        lfpw: ms(d.event_avg(event::LOG_FILE_PARALLEL_WRITE)).unwrap(),
        remote: ms(d.sync_remote_avg()),
        rfs: sd.as_ref().and_then(|s| ms(s.rfs_avg())),
        poll_writes: d.stat("redo synch poll writes").unwrap(),
        cpu_pct: d.cpu_busy_pct().unwrap(),
        load_over_cpus: d.os["LOAD"] / d.os["NUM_CPUS"],
        p_log_w: ms(d.io(filetype::LOG_FILE).unwrap().w_await).unwrap(),
        p_data_w: ms(d.io(filetype::DATA_FILE).unwrap().w_await).unwrap(),
        s_log_w: sd
            .as_ref()
            .and_then(|s| s.io(filetype::LOG_FILE))
            .and_then(|x| ms(x.w_await)),
        s_data_w: sd
            .as_ref()
            .and_then(|s| s.io(filetype::DATA_FILE))
            .and_then(|x| ms(x.w_await)),
        lfpw_p99_ms,
        delta: d,
    }
}

/// `log file sync` histogram of a window in per-mille over ms buckets <1, <2, <4 … <128
/// (the micro view's 1024 µs bound is Oracle's "1 ms").
pub fn lfs_permille(w: &Window) -> [f64; 8] {
    let e = w.delta.event(event::LOG_FILE_SYNC).unwrap();
    let mut out = [0.0; 8];
    for &(ub, c) in e.hist.buckets() {
        let i = ((ub.0 as f64 / 1024.0).log2().max(0.0) as usize).min(7);
        out[i] += c as f64;
    }
    let total: f64 = out.iter().sum();
    out.map(|c| c * 1000.0 / total)
}

/// Largest transport and apply lag the standby reported.
pub fn peak_lags(r: &Run) -> (f64, f64) {
    r.standby
        .iter()
        .filter_map(|s| s.dg.as_ref())
        .fold((0.0, 0.0), |(t, a), dg| {
            (
                f64::max(t, dg.transport_lag_s.unwrap().0),
                f64::max(a, dg.apply_lag_s.unwrap().0),
            )
        })
}

/// Log switches in the last hour of a sample, per thread (max over threads).
pub fn switches_per_hour(s: &Sample) -> usize {
    let sw = s.switches.as_ref().unwrap();
    (1..=3)
        .map(|th| sw.iter().filter(|x| x.thread == th).count())
        .max()
        .unwrap()
}
