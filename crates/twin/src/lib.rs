//! The digital twin: an Oracle primary (RAC, one LGWR per redo thread) with a Data Guard
//! standby, emitting the same raw cumulative `Sample`s a real pair would. The commit path is a
//! discrete-event simulation ([`commit`]); transport and apply are fluids ([`fluid`]); the
//! samples are assembled in [`emit`]. Deterministic for a given `(scenario, seed)`.
//!
//! Two clocks: [`Twin`] implements [`PullSource`] (each `next_tick` advances one sampling
//! interval of virtual time, as fast as the CPU allows), and [`paced`] runs it paced to
//! wall-clock × speed, as a task or ([`spawn_paced`]) on a thread of its own.

// What is not named public here is `pub(crate)`; this lint keeps it so.
#![warn(unreachable_pub)]

mod cadence;
mod commit;
mod emit;
mod fluid;
mod hist;
mod link;
mod members;
mod messages;
pub mod mirror;
mod paced;
pub mod params;
mod put;
mod queue;
mod rng;
mod scenario;

pub use cadence::SlowParts;
pub use commit::PostMode;
pub use paced::{paced, spawn_paced, spawn_paced_after, TwinControl};
pub use params::Params;
pub use scenario::{Scenario, UnknownScenario};

use commit::CommitPath;
use dgscope_model::sample::{Mark, Sample, Slot};
use dgscope_model::source::{PullSource, Tick};
use dgscope_model::timestamp::Timestamp;
use fluid::{Standby, StepInput};
use link::{Ns, NS_PER_S};
use std::collections::{BTreeMap, VecDeque};
use std::time::Duration;

/// Virtual time zero of headless runs, so recordings are reproducible.
pub const EPOCH: Timestamp = Timestamp::from_millis(1_796_014_800_000); // 2026-11-30T05:00:00Z

const STEP_NS: Ns = 100_000_000;
const FIRST_SEQUENCE: u64 = 812;

/// Figures that are not in any V$ view but let tests check the model's bookkeeping.
#[derive(Debug, Clone, PartialEq)]
pub struct Internals {
    pub elapsed_s: f64,
    pub sessions: usize,
    pub think_s_total: f64,
    pub redo_generated: u64,
    pub redo_written: u64,
    pub redo_unwritten: u64,
    pub shipped_backlog: f64,
    pub received: f64,
    pub applied: f64,
    pub apply_backlog: f64,
    pub lgwr_busy_share: Vec<f64>,
    pub events: u64,
    pub post_mode: PostMode,
    pub transport_lag_s: f64,
    pub apply_lag_s: f64,
    /// Unapplied redo the standby held before the run (a DELAY's backlog).
    pub preloaded: f64,
    /// Sessions stopped on the primary's stuck archiver.
    pub stuck_sessions: usize,
}

pub struct Twin {
    scenario: Scenario,
    seed: u64,
    epoch: Timestamp,
    interval_ns: Ns,
    cp: CommitPath,
    sb: Standby,
    emit_rng: rng::Rng,
    /// Log switches per thread, with times (ms since the Unix epoch), last hour only.
    switches: Vec<VecDeque<(u64, Timestamp)>>,
    /// Host CPU centiseconds: (busy, idle) for primary and standby.
    cpu_primary: (f64, f64),
    cpu_standby: (f64, f64),
    /// `V$STANDBY_EVENT_HISTOGRAM`: (name, bucket seconds) → count.
    lag_hist: BTreeMap<(&'static str, u64), u64>,
    marks: Vec<Mark>,
    /// `V$DATAGUARD_STATUS` rows not yet sampled.
    msgs: messages::StatusLog,
    /// Each thread's sequence when RFS could no longer write: where `V$ARCHIVE_GAP` starts.
    blocked_seq: Option<Vec<u64>>,
    /// The topology's extra member (a far standby, a terminal standby), if it has one.
    extra: Option<members::Extra>,
    /// Slow parts on the Oracle source's cadence.
    cadence: cadence::Cadence,
}

/// The sampling interval a twin starts with (`--interval` changes it).
pub const INTERVAL: Duration = Duration::from_secs(1);

impl Twin {
    /// A headless twin: virtual time starts at [`EPOCH`].
    pub fn new(scenario: Scenario, seed: u64) -> Self {
        Twin::with_params(scenario, scenario.params(), seed, EPOCH)
    }

    /// A twin whose virtual clock starts at `epoch` (the paced demo uses wall-clock now).
    pub fn starting_at(scenario: Scenario, seed: u64, epoch: Timestamp) -> Self {
        Twin::with_params(scenario, scenario.params(), seed, epoch)
    }

    /// Any parameters (tests and what-ifs); `scenario` only names the run.
    pub fn with_params(scenario: Scenario, p: Params, seed: u64, epoch: Timestamp) -> Self {
        let mut root = rng::Rng::new(seed);
        let cp = CommitPath::new(&p, root.next_u64(), FIRST_SEQUENCE);
        let mut twin = Twin {
            scenario,
            seed,
            epoch,
            interval_ns: INTERVAL.as_nanos() as Ns,
            sb: Standby::new(&p),
            cp,
            emit_rng: root.fork(2),
            switches: Vec::new(),
            cpu_primary: (0.0, 0.0),
            cpu_standby: (0.0, 0.0),
            lag_hist: BTreeMap::new(),
            marks: Vec::new(),
            msgs: messages::StatusLog::default(),
            blocked_seq: None,
            extra: members::Extra::new(&p),
            cadence: cadence::Cadence::default(),
        };
        twin.backdate_switches();
        twin
    }

    /// Sampling interval (default 1 s); whole milliseconds, at least 100 ms. Takes effect
    /// from the next tick.
    pub fn set_interval(&mut self, interval: Duration) {
        let ms = interval.as_millis().max(100) as u64;
        self.interval_ns = ms * 1_000_000;
    }

    /// Slow parts only when read (the default, as the Oracle source) or in every sample.
    pub fn set_slow_parts(&mut self, mode: SlowParts) {
        self.cadence.mode = mode;
    }

    pub fn scenario(&self) -> Scenario {
        self.scenario
    }

    pub fn params(&self) -> &Params {
        self.cp.params()
    }

    /// Virtual time now.
    pub fn now(&self) -> Timestamp {
        self.at(self.cp.now)
    }

    fn at(&self, t: Ns) -> Timestamp {
        self.epoch.add_millis((t / 1_000_000) as i64)
    }

    /// Switches to another scenario from the current virtual time on. Counters stay
    /// cumulative (same instance incarnation); the timeline gets a mark.
    pub fn set_scenario(&mut self, scenario: Scenario) {
        self.set_params(scenario, scenario.params());
    }

    pub fn set_params(&mut self, scenario: Scenario, p: Params) {
        self.scenario = scenario;
        self.cp.set_params(&p);
        self.extra = members::Extra::switch(self.extra.take(), &p);
        // The new scenario brings its own recovery area (a switch is a new incident).
        self.sb.fra_used = p.standby_fra.used_bytes as f64;
        self.sb.fra_full_s = None;
        self.blocked_seq = None;
        if !self.sb.send.is_empty() {
            self.cp.link.resolving_gap = true;
        }
        self.marks.push(Mark {
            t: self.now(),
            text: format!("twin scenario: {}", scenario.name()),
        });
    }

    /// The log switches of the hour before the run, at the nominal redo rate, so "switches
    /// per hour" is meaningful from the first sample.
    fn backdate_switches(&mut self) {
        let p = self.cp.params().clone();
        let k = p.threads.max(1);
        let per_thread = p.nominal_redo_bps() / f64::from(k);
        let log_s = p.orl_bytes as f64 / per_thread.max(1.0);
        self.switches = (0..k as usize)
            .map(|th| {
                let lg = &self.cp.lgwr[th];
                let into_log = lg.log_used as f64 / p.orl_bytes as f64 * log_s;
                let mut v = VecDeque::new();
                let mut j = 0u64;
                while j < 400 && j < lg.sequence {
                    let ago = into_log + j as f64 * log_s;
                    if ago > 3600.0 {
                        break;
                    }
                    v.push_front((
                        lg.sequence - j,
                        self.epoch.add_millis(-(ago * 1000.0) as i64),
                    ));
                    j += 1;
                }
                v
            })
            .collect();
    }

    /// Advances virtual time by one sampling interval.
    fn advance(&mut self) {
        // From the current virtual time, so the interval may change between ticks.
        let mut t = self.cp.now;
        let end = t + self.interval_ns;
        while t < end {
            let step_end = (t + STEP_NS).min(end);
            self.cp.run_until(step_end);
            let written = self.cp.take_written() as f64;
            let p = self.cp.params().clone();
            let since = (step_end - self.cp.scenario_start.min(step_end)) as f64 / NS_PER_S;
            let blocked = self.sb.rfs_blocked();
            if !p.transport.is_sync() {
                let up = p.link_up(since) && !blocked;
                self.cp
                    .link
                    .observe(step_end, up, false, p.net_timeout_s, p.reopen_s);
            }
            self.cp.standby_rejects = blocked;
            let apply_running = p.apply_running(since);
            let inp = StepInput {
                t_s: step_end as f64 / NS_PER_S,
                dt_s: (step_end - t) as f64 / NS_PER_S,
                written,
                receiving: self.cp.link.is_connected() && !p.deferred(since) && !blocked,
                apply_running,
            };
            self.sb.step(&p, &inp);
            if let Some(x) = self.extra.as_mut().filter(|x| !x.retired) {
                // Fed the same redo over its own ASYNC link, applying all along.
                let own = StepInput {
                    receiving: true,
                    apply_running: true,
                    ..inp
                };
                x.sb.step(&x.params, &own);
            }
            if self.cp.link.resolving_gap && self.sb.send.is_empty() {
                self.cp.link.resolving_gap = false;
            }
            if self.sb.rfs_blocked() && self.blocked_seq.is_none() {
                self.blocked_seq = Some(self.cp.lgwr.iter().map(|l| l.sequence).collect());
            }
            let sequences: Vec<u64> = self.cp.lgwr.iter().map(|l| l.sequence).collect();
            self.msgs.observe(&messages::View {
                t: self.at(step_end),
                t_s: step_end as f64 / NS_PER_S,
                sync: p.transport.is_sync(),
                link_down: self.cp.link.is_error(),
                net_timeout: p.net_stall.is_some(),
                resolving_gap: self.cp.link.resolving_gap,
                mrp_died: p.mrp_died(since),
                apply_cancelled: p.apply_off_now(since).is_some(),
                fra_limit: p.standby_fra.limit_bytes,
                fra_used: self.sb.fra_used,
                fra_full: self.sb.rfs_blocked(),
                orl_bytes: p.orl_bytes,
                sequences: &sequences,
                primary_arch_stuck: self.cp.archiving_stuck(),
                primary_fra_limit: p.primary_fra.limit_bytes,
            });
            t = step_end;
        }
        let receiving = self.receiving();
        let groups = self.cp.params().srl.groups.max(1);
        let orl_total = self.cp.lgwr.len() as u32 * self.cp.params().orl_groups.max(2);
        for s in std::mem::take(&mut self.cp.new_switches) {
            let ts = self.at(s.t);
            if receiving {
                let group =
                    orl_total + s.thread * groups + (s.sequence % u64::from(groups)) as u32 + 1;
                self.msgs
                    .standby_switch(ts, s.thread + 1, s.sequence, group);
            }
            if let Some(v) = self.switches.get_mut(s.thread as usize) {
                v.push_back((s.sequence, ts));
            }
        }
        let now = self.now();
        for v in &mut self.switches {
            while v.front().is_some_and(|x| now.secs_since(x.1) > 3600.0) {
                v.pop_front();
            }
        }
    }

    /// Seconds since the current scenario began.
    fn since_scenario_s(&self) -> f64 {
        (self.cp.now - self.cp.scenario_start.min(self.cp.now)) as f64 / NS_PER_S
    }

    /// The standby takes redo right now.
    fn receiving(&self) -> bool {
        let p = self.cp.params();
        !matches!(p.transport, params::Transport::Defer)
            && self.cp.link.is_connected()
            && !p.deferred(self.since_scenario_s())
            && !self.sb.rfs_blocked()
    }

    /// Bookkeeping for invariant tests.
    pub fn internals(&self) -> Internals {
        let elapsed = self.cp.now as f64 / NS_PER_S;
        Internals {
            elapsed_s: elapsed,
            sessions: self.cp.active_sessions(),
            think_s_total: self.cp.c.think_ns as f64 / NS_PER_S,
            redo_generated: self.cp.c.redo_size,
            redo_written: self.cp.c.redo_written,
            redo_unwritten: self.cp.unwritten_bytes(),
            shipped_backlog: self.sb.send.bytes,
            received: self.sb.c.received,
            applied: self.sb.c.applied,
            apply_backlog: self.sb.apply.bytes,
            lgwr_busy_share: self
                .cp
                .lgwr
                .iter()
                .map(|l| l.busy_ns as f64 / NS_PER_S / elapsed.max(1e-9))
                .collect(),
            events: self.cp.events,
            post_mode: self.cp.post_mode,
            transport_lag_s: self.sb.transport_lag_s,
            apply_lag_s: self.sb.apply_lag_s,
            preloaded: self.sb.c.preloaded,
            stuck_sessions: self.cp.stuck_sessions(),
        }
    }

    /// Simulated events so far (commit requests, LGWR dispatches, write completions,
    /// foreground wake-ups), for the benchmark.
    pub fn events(&self) -> u64 {
        self.cp.events
    }
}

impl PullSource for Twin {
    fn describe(&self) -> String {
        format!("twin:{} seed={}", self.scenario.name(), self.seed)
    }

    fn interval(&self) -> Duration {
        Duration::from_nanos(self.interval_ns)
    }

    fn next_tick(&mut self) -> Option<Tick> {
        self.advance();
        let t = self.now();
        let mut samples = vec![emit::primary(self, t), emit::standby(self, t)];
        samples.extend(members::extra_sample(self, t));
        for s in &mut samples {
            self.cadence.apply(s);
        }
        Some(Tick {
            t,
            samples,
            marks: std::mem::take(&mut self.marks),
        })
    }
}

/// Slots the twin fills, in the order `next_tick` returns them.
pub fn slots() -> [Slot; 2] {
    [Slot::primary(), Slot::standby()]
}

/// Slots a scenario fills, in the order `next_tick` returns them: the pair, and the extra
/// member of a topology that has one (`standby:prod_c`).
pub fn slots_of(scenario: Scenario) -> Vec<Slot> {
    let mut v = slots().to_vec();
    if members::extra_member(&scenario.params()).is_some() {
        v.push(Slot::named_standby(members::FAR));
    }
    v
}

/// Runs a twin headless for `duration` and returns every sample (tests, `check --twin`).
pub fn run_headless(scenario: Scenario, seed: u64, duration: Duration) -> Vec<Sample> {
    let mut twin = Twin::new(scenario, seed);
    let ticks = (duration.as_nanos() / u128::from(twin.interval_ns)) as usize;
    let mut out = Vec::with_capacity(ticks * 2);
    for _ in 0..ticks {
        if let Some(tick) = twin.next_tick() {
            out.extend(tick.samples);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_follow_the_interval_from_the_fixed_epoch() {
        assert_eq!(EPOCH.to_string(), "2026-11-30T05:00:00.000Z");
        let mut twin = Twin::new(Scenario::HealthyAsync, 1);
        let t1 = twin.next_tick().unwrap();
        assert_eq!(t1.t.to_string(), "2026-11-30T05:00:01.000Z");
        assert_eq!(t1.samples.len(), 2);
        assert_eq!(t1.samples[0].slot, Slot::primary());
        assert_eq!(t1.samples[1].slot, Slot::standby());
        twin.set_interval(Duration::from_millis(500));
        let times: Vec<String> = (0..3)
            .map(|_| twin.next_tick().unwrap().t.clock())
            .collect();
        assert_eq!(times, ["05:00:01", "05:00:02", "05:00:02"]);
        assert_eq!(twin.now().to_string(), "2026-11-30T05:00:02.500Z");
        assert_eq!(twin.describe(), "twin:healthy-async seed=1");
        assert_eq!(twin.interval(), Duration::from_millis(500));
    }

    #[test]
    fn run_headless_returns_both_slots_per_interval() {
        let s = run_headless(Scenario::Fastsync, 2, Duration::from_secs(3));
        assert_eq!(s.len(), 6);
        assert!(s.iter().all(|x| !x.is_error()));
        assert_eq!(slots(), [s[0].slot.clone(), s[1].slot.clone()]);
    }
}
