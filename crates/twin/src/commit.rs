//! The commit path as a discrete-event simulation: closed-loop sessions, one LGWR per redo
//! thread with greedy group commit, local and SYNC remote writes, post/wait or polling (with
//! the adaptive switching rule), scheduling delays, storage spikes and log switches.
//!
//! Events are `(time ns, id)` in a calendar queue; a session costs one queued event per
//! commit and a write one or two, because a write's completion wakes its whole batch in one
//! step.

use super::hist::EventAcc;
use super::link::{Link, LinkState, Ns, NS_PER_S};
use super::params::{Params, SyncStalls, Topology, Transport};
use super::queue::EventQueue;
use super::rng::Rng;

const KIND_SHIFT: u32 = 28;
const KIND_SESSION: u32 = 0;
const KIND_DISPATCH: u32 = 1;
const KIND_WRITE_DONE: u32 = 2;
const ID_MASK: u32 = (1 << KIND_SHIFT) - 1;
/// The adaptive rule looks at 20 s windows, so it can switch at most 3 times a minute.
const ADAPTIVE_WINDOW_NS: Ns = 20_000_000_000;

#[derive(Debug, Clone)]
struct Session {
    thread: u32,
    commit_t: Ns,
    bytes: u32,
    retired: bool,
    /// Has a scheduled commit or sits in a batch.
    alive: bool,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum LgwrState {
    Idle,
    Waking,
    Writing,
}

/// One redo thread's LGWR and its current online log.
#[derive(Debug, Clone)]
pub(crate) struct Lgwr {
    state: LgwrState,
    pending: Vec<u32>,
    pending_bytes: u64,
    inflight: Vec<u32>,
    inflight_bytes: u64,
    write_start: Ns,
    pub busy_ns: Ns,
    pub log_used: u64,
    pub sequence: u64,
    /// Bytes whose write completed, since the fluid model last took them.
    pub written_step: u64,
    /// When the thread's recent log switches completed, newest last (the logs DBWR may
    /// still be checkpointing).
    switched: std::collections::VecDeque<Ns>,
    /// Until when the current write waits for the checkpoint of the log it switches into
    /// (`log file switch (checkpoint incomplete)` for the sessions behind it).
    ckpt_until: Ns,
}

/// Sessions waiting on one event at an instant, and since when the longest has waited.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct InFlight {
    pub sessions: u32,
    pub oldest: Ns,
}

impl InFlight {
    fn add(&mut self, since: Ns) {
        self.oldest = if self.sessions == 0 {
            since
        } else {
            self.oldest.min(since)
        };
        self.sessions += 1;
    }
}

/// What the primary's sessions wait on now (`V$SESSION`), by event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct WaitsNow {
    pub log_file_sync: InFlight,
    pub archiving_needed: InFlight,
    pub checkpoint_incomplete: InFlight,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PostMode {
    PostWait,
    Polling { interval_us: f64 },
}

/// A log switch on the primary (and, with it, on the standby's SRLs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Switch {
    pub thread: u32,
    pub sequence: u64,
    pub t: Ns,
}

/// One redo thread's (one RAC instance's) own share of the counters below.
#[derive(Debug, Clone, Default)]
pub(crate) struct ThreadCounters {
    pub log_file_sync: EventAcc,
    pub log_file_parallel_write: EventAcc,
    pub sync_remote_write: EventAcc,
    pub user_commits: u64,
    pub redo_size: u64,
    pub redo_writes: u64,
    pub redo_synch_writes: u64,
    pub redo_synch_poll_writes: u64,
    /// This thread's share of the DB time besides the commit path, µs.
    pub db_work_us: f64,
}

/// What a second SYNC standby's RFS does for each of LGWR's writes, and the responses the
/// primary's destination to it sees.
#[derive(Debug, Clone, Default)]
pub(crate) struct SecondSync {
    pub rfs_random_io: EventAcc,
    pub srl_write_reqs: u64,
    pub srl_write_us: u64,
    pub srl_write_bytes: u64,
    pub resp_hist: Vec<(u64, u64)>,
}

fn count_resp(hist: &mut Vec<(u64, u64)>, us: f64) {
    let secs = ceil_u64(us / 1e6).max(1);
    match hist.iter_mut().find(|b| b.0 == secs) {
        Some(b) => b.1 += 1,
        None => {
            hist.push((secs, 1));
            hist.sort_unstable();
        }
    }
}

/// Cumulative counters the primary's sample is built from.
#[derive(Debug, Clone, Default)]
pub(crate) struct CommitCounters {
    /// Per redo thread (per instance), indexed by thread.
    pub per_thread: Vec<ThreadCounters>,
    pub log_file_sync: EventAcc,
    pub log_file_parallel_write: EventAcc,
    pub sync_remote_write: EventAcc,
    pub log_file_switch_completion: EventAcc,
    /// Sessions stopped because ARCn cannot archive (one wait per second: Oracle's wait
    /// times out and starts again).
    pub log_file_switch_archiving_needed: EventAcc,
    pub log_file_switch_checkpoint_incomplete: EventAcc,
    /// The standby's SRL writes under SYNC (`RFS random i/o`), recorded where they happen.
    pub rfs_random_io: EventAcc,
    pub user_commits: u64,
    pub redo_size: u64,
    pub redo_writes: u64,
    pub redo_blocks_written: u64,
    pub redo_synch_writes: u64,
    pub redo_synch_time_us: u64,
    pub redo_synch_poll_writes: u64,
    pub redo_synch_polls: u64,
    /// Primary `Log File` write requests (one per member) and their µs.
    pub log_write_reqs: u64,
    pub log_write_us: u64,
    /// The second SYNC standby's SRL writes and responses (`two-sync-one-slow`).
    pub second: SecondSync,
    /// Standby SRL write requests (one per member) and their µs.
    pub srl_write_reqs: u64,
    pub srl_write_us: u64,
    pub srl_write_bytes: u64,
    /// Payload bytes whose LGWR write completed.
    pub redo_written: u64,
    /// `V$REDO_DEST_RESP_HISTOGRAM`: response seconds (rounded up) → count.
    pub resp_hist: Vec<(u64, u64)>,
    /// Sum of completed think times, for Little's law.
    pub think_ns: u128,
    /// DB time besides the commit path, µs: CPU and each workload wait, accumulated as time
    /// passes (so a scenario switch changes the mix from then on, never the past).
    pub db_cpu_us: f64,
    pub work_waits: std::collections::BTreeMap<&'static str, WorkWait>,
    /// `log buffer space`: sessions waiting for LGWR to free room for their redo.
    pub log_buffer_space: EventAcc,
    /// `LGWR wait for redo copy`: LGWR's stalls before a write (background).
    pub lgwr_wait_for_redo_copy: EventAcc,
    pub post_mode_switches: u64,
}

/// One workload wait's cumulative figures.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct WorkWait {
    pub class: &'static str,
    pub waits: f64,
    pub us: f64,
}

/// Where the workload's DB time accrual last stopped.
#[derive(Debug, Clone, Copy, Default)]
struct WorkMark {
    t: Ns,
    think_ns: u128,
}

#[derive(Debug, Clone, Default)]
struct AdaptiveWindow {
    start: Ns,
    commits: u64,
    overhead_us: f64,
    write_us: f64,
    writes: u64,
    /// Post/wait overhead when polling began: the yardstick to switch back.
    overhead_at_switch_us: f64,
}

pub(crate) struct CommitPath {
    pub now: Ns,
    heap: EventQueue,
    sessions: Vec<Session>,
    pub lgwr: Vec<Lgwr>,
    rng: Rng,
    pub c: CommitCounters,
    pub post_mode: PostMode,
    window: AdaptiveWindow,
    pub link: Link,
    /// Virtual time the current scenario began (profiles, spikes and outages count from it).
    pub scenario_start: Ns,
    last_ckpt: Option<Ns>,
    pub new_switches: Vec<Switch>,
    /// Simulated events: commit requests, LGWR dispatches, write completions and foreground
    /// wake-ups (the prototype's count, TWIN-MODEL.md §5).
    pub events: u64,
    /// The standby refuses redo (no SRL, no archive space): a SYNC remote write fails as if
    /// the standby were down. Set by the fluid side every step.
    pub standby_rejects: bool,
    /// Seed of the SYNC stall windows, so they are fixed per `(scenario, seed)`.
    stall_seed: u64,
    /// Sessions stopped on a stuck archiver, waiting for a switch that never comes.
    stuck: Vec<u32>,
    /// Their waiting so far (ns summed over sessions), and the waits counted of it.
    stuck_ns: u128,
    stuck_waits: u64,
    /// `redo_written` when the current scenario began: the primary's recovery area grows
    /// from its start value by what was archived since.
    fra_base: u64,
    /// Where the workload's DB time was accrued to.
    work_mark: WorkMark,
    /// Per thread: when its current write completes (a session finding the log buffer
    /// full waits until then).
    write_done_at: Vec<Ns>,
    p: Params,
}

impl CommitPath {
    pub(crate) fn new(p: &Params, seed: u64, first_sequence: u64) -> Self {
        let mut rng = Rng::new(seed);
        let lgwr = (0..p.threads)
            .map(|t| Lgwr {
                state: LgwrState::Idle,
                pending: Vec::with_capacity(256),
                pending_bytes: 0,
                inflight: Vec::with_capacity(256),
                inflight_bytes: 0,
                write_start: 0,
                busy_ns: 0,
                // Threads start part-way into their logs so their switches do not align.
                log_used: p.orl_bytes * u64::from(t + 1) / (u64::from(p.threads) + 1),
                sequence: first_sequence + u64::from(t) * 7,
                written_step: 0,
                switched: std::collections::VecDeque::new(),
                ckpt_until: 0,
            })
            .collect();
        let post_mode = match p.post.start_polling_us {
            Some(q) => PostMode::Polling { interval_us: q },
            None => PostMode::PostWait,
        };
        let mut cp = CommitPath {
            now: 0,
            heap: EventQueue::default(),
            sessions: Vec::new(),
            lgwr,
            rng: rng.fork(1),
            c: CommitCounters {
                per_thread: vec![ThreadCounters::default(); p.threads as usize],
                ..CommitCounters::default()
            },
            post_mode,
            window: AdaptiveWindow::default(),
            link: Link::default(),
            scenario_start: 0,
            last_ckpt: None,
            new_switches: Vec::new(),
            events: 0,
            standby_rejects: false,
            stall_seed: seed,
            stuck: Vec::new(),
            stuck_ns: 0,
            stuck_waits: 0,
            fra_base: 0,
            work_mark: WorkMark::default(),
            write_done_at: vec![0; p.threads as usize],
            p: p.clone(),
        };
        cp.set_sessions(p.sessions);
        cp
    }

    pub(crate) fn params(&self) -> &Params {
        &self.p
    }

    /// Applies new parameters from `now` on (a scenario switch): counters stay cumulative,
    /// sessions are added or retired, the post mode restarts from the new scenario's setting.
    pub(crate) fn set_params(&mut self, p: &Params) {
        self.p = p.clone();
        self.p.threads = self.lgwr.len() as u32;
        self.scenario_start = self.now;
        self.post_mode = match p.post.start_polling_us {
            Some(q) => PostMode::Polling { interval_us: q },
            None => PostMode::PostWait,
        };
        self.window = AdaptiveWindow {
            start: self.now,
            ..AdaptiveWindow::default()
        };
        self.link = Link::default();
        self.fra_base = self.c.redo_written;
        // A new scenario brings its own recovery area: stopped sessions resume.
        for sid in std::mem::take(&mut self.stuck) {
            let think = self.think_ns(self.now);
            self.heap.push(self.now + think, sid);
        }
        self.set_sessions(p.sessions);
    }

    /// The primary's recovery area in use (bytes): its start value, plus what was archived
    /// since when it `fills`, at most its limit.
    pub(crate) fn primary_fra_used(&self) -> f64 {
        let f = &self.p.primary_fra;
        let grown = if f.fills {
            self.c.redo_written.saturating_sub(self.fra_base) as f64
        } else {
            0.0
        };
        (f.used_bytes as f64 + grown).min(f.limit_bytes as f64)
    }

    /// ARCn cannot archive: the recovery area that fills is full.
    pub(crate) fn archiving_stuck(&self) -> bool {
        let f = &self.p.primary_fra;
        f.fills && self.primary_fra_used() >= f.limit_bytes as f64
    }

    /// Sessions stopped on the stuck archiver.
    pub(crate) fn stuck_sessions(&self) -> usize {
        self.stuck.len()
    }

    /// The sessions in a wait now: stopped on the stuck archiver, behind a switch that waits
    /// for a checkpoint, or committed and waiting for LGWR (queued or in its write).
    pub(crate) fn waits_now(&self) -> WaitsNow {
        let mut w = WaitsNow::default();
        let since = |sid: &u32| self.sessions[*sid as usize].commit_t;
        for sid in &self.stuck {
            w.archiving_needed.add(since(sid));
        }
        for lg in &self.lgwr {
            let ckpt = lg.ckpt_until > self.now;
            for sid in lg.inflight.iter().chain(&lg.pending) {
                if ckpt {
                    w.checkpoint_incomplete.add(since(sid));
                } else {
                    w.log_file_sync.add(since(sid));
                }
            }
        }
        w
    }

    fn set_sessions(&mut self, n: u32) {
        let n = n as usize;
        let k = self.lgwr.len() as u32;
        for i in 0..self.sessions.len() {
            let s = &mut self.sessions[i];
            let want = i < n;
            if want && s.retired {
                s.retired = false;
                if !s.alive {
                    s.alive = true;
                    let think = self.think_ns(self.now);
                    self.heap.push(self.now + think, i as u32);
                }
            } else if !want {
                s.retired = true;
            }
        }
        while self.sessions.len() < n {
            let i = self.sessions.len() as u32;
            self.sessions.push(Session {
                thread: i % k,
                commit_t: 0,
                bytes: 0,
                retired: false,
                alive: true,
            });
            let think = self.think_ns(self.now);
            self.heap.push(self.now + think, i);
        }
    }

    fn since_scenario_s(&self, t: Ns) -> f64 {
        (t - self.scenario_start.min(t)) as f64 / NS_PER_S
    }

    #[inline]
    fn think_ns(&mut self, t: Ns) -> Ns {
        let mean = self.think_mean_us(t);
        self.think_with_mean(mean)
    }

    fn think_mean_us(&self, t: Ns) -> f64 {
        self.p.think_us * self.p.think_factor(self.since_scenario_s(t))
    }

    #[inline]
    fn think_with_mean(&mut self, mean_us: f64) -> Ns {
        let us = self.rng.gamma(mean_us, self.p.think_cv);
        (us * 1000.0) as Ns
    }

    /// Scheduling delay of a wake-up: usually none, sometimes whole OS quanta.
    #[inline]
    fn cpu_delay_ns(&mut self, th: usize) -> Ns {
        let cpu = self.p.cpu_of(th as u32);
        if !self.rng.chance(cpu.p_delay) {
            return 0;
        }
        let quanta = f64::from(self.rng.geometric(0.5));
        let us = cpu.quantum_us * (quanta - 0.15 * self.rng.uniform());
        (us * 1000.0) as Ns
    }

    /// Runs every event up to and including `t_end`.
    pub(crate) fn run_until(&mut self, t_end: Ns) {
        // Stopped sessions wait all along; each wait ends on its one-second timeout.
        if !self.stuck.is_empty() {
            self.stuck_ns += self.stuck.len() as u128 * u128::from(t_end - self.now.min(t_end));
            let waits = (self.stuck_ns / u128::from(NS_PER_S as u64)) as u64;
            if waits > self.stuck_waits {
                self.c.log_file_switch_archiving_needed.add_bulk(
                    waits - self.stuck_waits,
                    1e6,
                    0.02,
                );
                self.stuck_waits = waits;
            }
        }
        while let Some((t, id)) = self.heap.pop_until(t_end) {
            self.now = t;
            self.events += 1;
            match id >> KIND_SHIFT {
                KIND_SESSION => self.on_commit(t, id & ID_MASK),
                KIND_DISPATCH => self.on_dispatch(t, id & ID_MASK),
                _ => self.on_write_done(t, id & ID_MASK),
            }
        }
        self.now = t_end;
        self.accrue_work();
    }

    /// The DB time sessions spent besides the commit path since the last accrual: their
    /// think time's in-database share, and the sessions that never commit; split into the
    /// workload's waits and DB CPU, and over the threads by their commits.
    fn accrue_work(&mut self) {
        let w = self.p.workload;
        let dt_us = self.now.saturating_sub(self.work_mark.t) as f64 / 1000.0;
        let think_us = self.c.think_ns.saturating_sub(self.work_mark.think_ns) as f64 / 1000.0;
        self.work_mark = WorkMark {
            t: self.now,
            think_ns: self.c.think_ns,
        };
        let us = think_us * w.in_db.clamp(0.0, 1.0) + w.other_aas.max(0.0) * dt_us;
        if us <= 0.0 {
            return;
        }
        let mut cpu = us;
        for &(name, class, share, avg_us) in w.waits {
            let part = us * share.clamp(0.0, 1.0);
            cpu -= part;
            let e = self.c.work_waits.entry(name).or_default();
            e.class = class;
            e.us += part;
            e.waits += part / avg_us.max(1.0);
        }
        self.c.db_cpu_us += cpu.max(0.0);
        let commits: u64 = self.c.per_thread.iter().map(|t| t.user_commits).sum();
        let n = self.c.per_thread.len().max(1) as f64;
        for t in &mut self.c.per_thread {
            let share = if commits > 0 {
                t.user_commits as f64 / commits as f64
            } else {
                1.0 / n
            };
            t.db_work_us += us * share;
        }
    }

    fn on_commit(&mut self, t: Ns, sid: u32) {
        let bytes = self.p.redo_per_commit as u32;
        let stuck = self.archiving_stuck();
        let s = &mut self.sessions[sid as usize];
        if s.retired {
            s.alive = false;
            return;
        }
        s.commit_t = t;
        if stuck {
            // No online log to switch into: the session's redo waits for ARCn.
            self.stuck.push(sid);
            return;
        }
        s.bytes = bytes;
        let th = s.thread as usize;
        // No room in the log buffer for this session's redo while LGWR writes: it waits
        // `log buffer space` until the write in flight frees its part, then commits.
        let lg = &self.lgwr[th];
        if lg.state == LgwrState::Writing
            && lg.pending_bytes + lg.inflight_bytes + u64::from(bytes) > self.p.log_buffer
            && self.write_done_at[th] > t
        {
            let until = self.write_done_at[th];
            self.c.log_buffer_space.add((until - t) / 1000);
            self.heap.push(until, sid);
            return;
        }
        self.c.user_commits += 1;
        self.c.redo_size += u64::from(bytes);
        let tc = &mut self.c.per_thread[th];
        tc.user_commits += 1;
        tc.redo_size += u64::from(bytes);
        let lg = &mut self.lgwr[th];
        lg.pending.push(sid);
        lg.pending_bytes += u64::from(bytes);
        if lg.state == LgwrState::Idle {
            lg.state = LgwrState::Waking;
            let wake = (self.p.post.lgwr_wake_us * 1000.0) as Ns + self.cpu_delay_ns(th);
            self.heap
                .push(t + wake, (KIND_DISPATCH << KIND_SHIFT) | th as u32);
        }
    }

    fn local_write_us(&mut self, t: Ns, size: f64) -> f64 {
        let d = self.p.log;
        let mut l = self.rng.lognormal(d.l0_us + size / d.bw_bps * 1e6, d.sigma);
        if let Some(sp) = self.p.spikes {
            if self.since_scenario_s(t).rem_euclid(sp.every_s) < sp.len_s {
                l *= sp.factor;
            }
        }
        if let Some(st) = self.p.stalls {
            if self.rng.chance(st.p_per_write) {
                l += self.rng.lognormal(st.mean_us, st.sigma);
            }
        }
        l
    }

    /// The SRL write on the standby: the slowest member, slowed by a recent checkpoint.
    fn srl_write_us(&mut self, t: Ns, size: f64) -> f64 {
        let srl = self.p.srl;
        let mean = srl.s0_us + size / srl.bw_bps * 1e6;
        let mut worst: f64 = 0.0;
        for _ in 0..srl.members {
            let w = self.rng.lognormal(mean, srl.sigma);
            self.c.srl_write_us += w as u64;
            worst = worst.max(w);
        }
        self.c.srl_write_reqs += u64::from(srl.members);
        self.c.srl_write_bytes += size as u64 * u64::from(srl.members);
        let ck = self.p.ckpt;
        if let Some(c0) = self.last_ckpt {
            let dt = (t - c0.min(t)) as f64 / NS_PER_S;
            if dt < ck.dur_s {
                let f = 1.0 + (ck.factor - 1.0) * (-3.0 * dt / ck.dur_s).exp();
                let extra = worst * (f - 1.0);
                worst += extra;
                if self.rng.chance(ck.tail_p) {
                    worst += self.rng.exp(20.0 * mean);
                }
            }
        }
        worst
    }

    /// Remote write time for a SYNC write of `size` bytes at `t`, or `None` when no remote
    /// write happens (not SYNC, or the destination is down).
    fn remote_write_us(&mut self, t: Ns, size: f64) -> Option<f64> {
        let Transport::Sync { affirm } = self.p.transport else {
            return None;
        };
        let since = self.since_scenario_s(t);
        if self.p.deferred(since) {
            return None;
        }
        let up = self.p.link_up(since) && !self.standby_rejects;
        let p = &self.p;
        self.link.observe(t, up, true, p.net_timeout_s, p.reopen_s);
        match self.link.state {
            LinkState::Connected => {
                let rfs = self.srl_write_us(t, size);
                self.c.rfs_random_io.add(rfs as u64);
                let net = self.p.net0_us + size / self.p.net_bw_bps * 1e6;
                let hang = self.stall_left_us(since);
                let mut r = if affirm { net + rfs } else { net };
                if let Topology::TwoSync { second } = self.p.topology {
                    // Sent to both at once (12c+): LGWR waits for the slower response.
                    let r2 = net + self.second_srl_write_us(&second, size);
                    count_resp(&mut self.c.second.resp_hist, r2);
                    r = r.max(r2);
                }
                Some(hang + r)
            }
            LinkState::Stalled { until } => Some((until - t) as f64 / 1000.0),
            LinkState::Down { .. } => None,
        }
    }

    /// The second SYNC standby's SRL write: the slowest of its members (its own disk, no
    /// checkpoint burst modelled).
    fn second_srl_write_us(&mut self, m: &super::params::Member, size: f64) -> f64 {
        let mean = m.srl_us + size / self.p.srl.bw_bps * 1e6;
        let members = m.srl_members.max(1);
        let mut worst: f64 = 0.0;
        for _ in 0..members {
            let w = self.rng.lognormal(mean, m.srl_sigma);
            self.c.second.srl_write_us += w as u64;
            worst = worst.max(w);
        }
        self.c.second.srl_write_reqs += u64::from(members);
        self.c.second.srl_write_bytes += size as u64 * u64::from(members);
        self.c.second.rfs_random_io.add(worst as u64);
        worst
    }

    /// Inside a SYNC stall window: µs until it ends (the response arrives after it).
    fn stall_left_us(&self, since_s: f64) -> f64 {
        let Some(st) = self.p.sync_stalls else {
            return 0.0;
        };
        let (start, len) = stall_window(self.stall_seed, st, since_s);
        if since_s >= start && since_s < start + len {
            (start + len - since_s) * 1e6
        } else {
            0.0
        }
    }

    fn on_dispatch(&mut self, t: Ns, th: u32) {
        let thi = th as usize;
        {
            let lg = &mut self.lgwr[thi];
            std::mem::swap(&mut lg.pending, &mut lg.inflight);
            lg.inflight_bytes = lg.pending_bytes;
            lg.pending_bytes = 0;
            lg.state = LgwrState::Writing;
            lg.write_start = t;
        }
        let bytes = self.lgwr[thi].inflight_bytes;
        let size = bytes.div_ceil(512) * 512;
        let l = self.local_write_us(t, size as f64);
        let r = self.remote_write_us(t, size as f64);
        let members = u64::from(self.p.log.members);
        self.c.log_file_parallel_write.add(l as u64);
        let tc = &mut self.c.per_thread[thi];
        tc.log_file_parallel_write.add(l as u64);
        tc.redo_writes += 1;
        if let Some(r) = r {
            tc.sync_remote_write.add(r as u64);
        }
        self.c.log_write_reqs += members;
        self.c.log_write_us += l as u64 * members;
        self.c.redo_writes += 1;
        self.c.redo_blocks_written += size / 512;
        // LGWR stalled before this write (waiting for redo copy): the write waits it out.
        let since = self.since_scenario_s(t);
        let stalled = self.lgwr_stall_left_us(since);
        if stalled > 0.0 {
            self.c.lgwr_wait_for_redo_copy.add(stalled as u64);
        }
        let mut service = l + stalled;
        if let Some(r) = r {
            self.c.sync_remote_write.add(r as u64);
            let secs = ceil_u64(r / 1e6).max(1);
            match self.c.resp_hist.iter_mut().find(|b| b.0 == secs) {
                Some(b) => b.1 += 1,
                None => {
                    self.c.resp_hist.push((secs, 1));
                    self.c.resp_hist.sort_unstable();
                }
            }
            service = service.max(r + stalled);
        }
        self.window.write_us += service;
        self.window.writes += 1;
        // Log switch: the write that fills the log also pays for opening the next one.
        let lg = &mut self.lgwr[thi];
        lg.log_used += size;
        if lg.log_used >= self.p.orl_bytes {
            lg.log_used -= self.p.orl_bytes.min(lg.log_used);
            lg.sequence += 1;
            self.new_switches.push(Switch {
                thread: th,
                sequence: lg.sequence,
                t,
            });
            let sw = self.rng.lognormal(self.p.switch_us, 0.4);
            for _ in 0..self.lgwr[thi].inflight.len() {
                self.c.log_file_switch_completion.add(sw as u64);
            }
            service += sw;
            // The log LGWR enters now was left `orl_groups − 1` switches ago; its checkpoint
            // must be complete before it is reused.
            let reuse = self.p.orl_groups.max(2) as usize - 1;
            let lg = &mut self.lgwr[thi];
            let mut ckpt_us = 0.0;
            if let Some(c) = self.p.primary_ckpt_s {
                if lg.switched.len() >= reuse {
                    let left = lg.switched[lg.switched.len() - reuse];
                    let done = left + (c * NS_PER_S) as Ns;
                    ckpt_us = done.saturating_sub(t) as f64 / 1000.0;
                }
            }
            lg.switched
                .push_back(t + ((service + ckpt_us) * 1000.0) as Ns);
            while lg.switched.len() > reuse {
                lg.switched.pop_front();
            }
            if ckpt_us > 0.0 {
                self.lgwr[thi].ckpt_until = t + ((service + ckpt_us) * 1000.0) as Ns;
                for _ in 0..self.lgwr[thi].inflight.len() {
                    self.c
                        .log_file_switch_checkpoint_incomplete
                        .add(ckpt_us as u64);
                }
                service += ckpt_us;
            }
            self.last_ckpt = Some(t);
        }
        let done = t + (service * 1000.0) as Ns;
        self.write_done_at[thi] = done;
        self.heap.push(done, (KIND_WRITE_DONE << KIND_SHIFT) | th);
    }

    /// Inside an LGWR stall window: µs until it ends. The windows are the SYNC stalls'
    /// placement with a seed of their own.
    fn lgwr_stall_left_us(&self, since_s: f64) -> f64 {
        let Some(st) = self.p.lgwr_stalls else {
            return 0.0;
        };
        let (start, len) = stall_window(self.stall_seed ^ 0x4C47_5752, st, since_s);
        if since_s >= start && since_s < start + len {
            (start + len - since_s) * 1e6
        } else {
            0.0
        }
    }

    fn on_write_done(&mut self, t: Ns, th: u32) {
        let thi = th as usize;
        let post_ns = (self.p.post.post_us * 1000.0) as Ns;
        let fg_wake_ns = (self.p.post.fg_wake_us * 1000.0) as Ns;
        let mut batch = std::mem::take(&mut self.lgwr[thi].inflight);
        let n = batch.len() as Ns;
        // Each foreground wake-up is an event too, handled here in one pass per batch.
        self.events += n;
        // The load profile changes on a scale of minutes: one think-time mean per batch.
        let think_mean = self.think_mean_us(t);
        for (k, &sid) in batch.iter().enumerate() {
            let commit_t = self.sessions[sid as usize].commit_t;
            let wake = match self.post_mode {
                PostMode::PostWait => {
                    t + (k as Ns + 1) * post_ns + fg_wake_ns + self.cpu_delay_ns(thi)
                }
                PostMode::Polling { interval_us } => {
                    let q = (interval_us * 1000.0) as Ns;
                    let polls = (t - commit_t).div_ceil(q).max(1);
                    self.c.redo_synch_poll_writes += 1;
                    self.c.per_thread[thi].redo_synch_poll_writes += 1;
                    self.c.redo_synch_polls += polls;
                    commit_t + polls * q + self.cpu_delay_ns(thi)
                }
            };
            let lfs_us = (wake - commit_t) / 1000;
            self.c.log_file_sync.add(lfs_us);
            self.c.redo_synch_writes += 1;
            let tc = &mut self.c.per_thread[thi];
            tc.log_file_sync.add(lfs_us);
            tc.redo_synch_writes += 1;
            self.c.redo_synch_time_us += lfs_us;
            self.window.commits += 1;
            self.window.overhead_us += (wake - t) as f64 / 1000.0;
            let s = &mut self.sessions[sid as usize];
            if s.retired {
                s.alive = false;
                continue;
            }
            let think = self.think_with_mean(think_mean);
            self.c.think_ns += u128::from(think);
            self.heap.push(wake + think, sid);
        }
        batch.clear();
        let lg = &mut self.lgwr[thi];
        lg.inflight = batch;
        lg.busy_ns += t - lg.write_start + n * post_ns;
        lg.written_step += lg.inflight_bytes;
        self.c.redo_written += lg.inflight_bytes;
        lg.inflight_bytes = 0;
        if lg.pending.is_empty() {
            lg.state = LgwrState::Idle;
        } else {
            // Still running: the next batch starts once the posts are done.
            lg.state = LgwrState::Waking;
            self.heap
                .push(t + n * post_ns, (KIND_DISPATCH << KIND_SHIFT) | th);
        }
        if t - self.window.start.min(t) >= ADAPTIVE_WINDOW_NS {
            self.adapt(t);
        }
    }

    /// MOS 1541136.1, simplified: poll when post/wait overhead exceeds 110 % of the expected
    /// poll overshoot (half an interval sized on the write time); go back when the scheduling
    /// delay seen while polling falls under half of what it was at the switch.
    fn adapt(&mut self, t: Ns) {
        let w = std::mem::take(&mut self.window);
        self.window = AdaptiveWindow {
            start: t,
            overhead_at_switch_us: w.overhead_at_switch_us,
            ..AdaptiveWindow::default()
        };
        if !self.p.post.adaptive || w.commits == 0 || w.writes == 0 {
            return;
        }
        let overhead = w.overhead_us / w.commits as f64;
        let write = w.write_us / w.writes as f64;
        match self.post_mode {
            PostMode::PostWait => {
                let q = write.clamp(1000.0, 10_000.0);
                if overhead > 1.1 * q / 2.0 {
                    self.post_mode = PostMode::Polling { interval_us: q };
                    self.window.overhead_at_switch_us = overhead;
                    self.c.post_mode_switches += 1;
                }
            }
            PostMode::Polling { interval_us } => {
                if self.p.post.polling_stuck {
                    return;
                }
                let sched = (overhead - interval_us / 2.0).max(0.0);
                if sched < 0.5 * w.overhead_at_switch_us {
                    self.post_mode = PostMode::PostWait;
                    self.c.post_mode_switches += 1;
                }
            }
        }
    }

    /// Redo generated but not yet written (pending + in flight), for conservation checks.
    pub(crate) fn unwritten_bytes(&self) -> u64 {
        self.lgwr
            .iter()
            .map(|l| l.pending_bytes + l.inflight_bytes)
            .sum()
    }

    pub(crate) fn take_written(&mut self) -> u64 {
        self.lgwr
            .iter_mut()
            .map(|l| std::mem::take(&mut l.written_step))
            .sum()
    }

    pub(crate) fn active_sessions(&self) -> usize {
        self.sessions.iter().filter(|s| !s.retired).count()
    }
}

/// `x.ceil() as u64`, bit for bit (NaN and negatives 0, saturating), without the library call
/// `ceil` is on baseline x86-64 (no SSE4.1 `roundsd`): once per SYNC write.
#[inline]
fn ceil_u64(x: f64) -> u64 {
    let t = x as u64;
    if (t as f64) < x {
        t.saturating_add(1)
    } else {
        t
    }
}

/// The stall window of the period that holds `since_s`: (start, length) in seconds after
/// the scenario start. Each period of `every_s` has one stall, placed and sized by a hash of
/// the seed and the period's index, so no random stream is consumed.
pub(crate) fn stall_window(seed: u64, st: SyncStalls, since_s: f64) -> (f64, f64) {
    let k = (since_s / st.every_s).floor().max(0.0) as u64;
    let mut x = seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let u1 = super::rng::Rng::new(x).uniform();
    x = x.wrapping_add(0xD1B5_4A32_D192_ED03);
    let u2 = super::rng::Rng::new(x).uniform();
    let start = (k as f64 + 0.4 + 0.2 * u1) * st.every_s;
    (start, st.min_s + (st.max_s - st.min_s) * u2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Params;

    fn run(p: &Params, secs: u64) -> CommitPath {
        let mut cp = CommitPath::new(p, 42, 100);
        cp.run_until(secs * 1_000_000_000);
        cp
    }

    #[test]
    fn group_commit_batches_and_every_commit_waits() {
        let mut p = Params::calibrated();
        p.transport = Transport::Defer;
        let cp = run(&p, 5);
        assert!(cp.c.user_commits > 20_000, "{}", cp.c.user_commits);
        // More than one commit per write: greedy group commit.
        assert!(cp.c.redo_writes * 3 < cp.c.user_commits * 2);
        assert_eq!(cp.c.log_file_sync.waits, cp.c.redo_synch_writes);
        assert!(cp.c.sync_remote_write.is_empty());
    }

    #[test]
    fn cpu_starvation_with_adaptive_sync_switches_to_polling_at_most_3_times_a_minute() {
        let mut p = Params::calibrated();
        p.cpu.p_delay = 0.08;
        let cp = run(&p, 60);
        assert!(matches!(cp.post_mode, PostMode::Polling { .. }));
        assert!(cp.c.redo_synch_poll_writes > 0);
        assert!(cp.c.post_mode_switches >= 1 && cp.c.post_mode_switches <= 3);
    }

    #[test]
    fn polling_returns_to_post_wait_when_starvation_ends() {
        let mut p = Params::calibrated();
        p.cpu.p_delay = 0.08;
        let mut cp = CommitPath::new(&p, 5, 1);
        cp.run_until(45_000_000_000);
        assert!(matches!(cp.post_mode, PostMode::Polling { .. }));
        let mut healthy = Params::calibrated();
        healthy.post.start_polling_us = match cp.post_mode {
            PostMode::Polling { interval_us } => Some(interval_us),
            PostMode::PostWait => None,
        };
        cp.set_params(&healthy);
        cp.window.overhead_at_switch_us = 1500.0;
        cp.run_until(90_000_000_000);
        assert_eq!(cp.post_mode, PostMode::PostWait);
    }

    #[test]
    fn ceil_u64_is_ceil_then_cast() {
        let xs = [
            0.0,
            -0.0,
            0.2,
            1.0,
            1.000_000_1,
            2.5,
            -0.5,
            -3.0,
            4.0e15 + 0.5,
            9.0e15,
            1.8e19,
            2.0e19,
            1e300,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            0.999_999_999_999_9,
        ];
        for x in xs {
            assert_eq!(ceil_u64(x), x.ceil() as u64, "{x}");
        }
        let mut r = Rng::new(11);
        for _ in 0..100_000 {
            let x = r.exp(3.0);
            assert_eq!(ceil_u64(x), x.ceil() as u64, "{x}");
        }
    }
}
