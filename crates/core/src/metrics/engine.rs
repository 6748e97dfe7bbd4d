//! The live metrics engine: fed every entry in order (from any source), it keeps bounded
//! history per slot and answers window queries for the causes, the screens and the reports.

use super::delta::{same_incarnation, Delta, Parts};
use super::freshness::Freshness;
use super::impact::{impact_table, ImpactRow, WindowDeltas};
use super::ring::Ring;
use super::window::{Window, WindowAcc};
use dgscope_model::sample::names::{event, os, stat};
use dgscope_model::sample::recording::Entry;
use dgscope_model::sample::{slow, Mark, Name, Sample, Slot};
use dgscope_model::timestamp::Timestamp;
use dgscope_model::units::{KIB, MIB};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

/// Derived figures between two consecutive good samples of a slot: one point of a sparkline.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Point {
    pub t: Timestamp,
    pub tps: Option<f64>,
    pub redo_mb_s: Option<f64>,
    pub redo_writes_s: Option<f64>,
    pub redo_write_kb: Option<f64>,
    pub lfs_ms: Option<f64>,
    pub lfpw_ms: Option<f64>,
    pub remote_ms: Option<f64>,
    pub rfs_ms: Option<f64>,
    pub cpu_pct: Option<f64>,
    pub transport_lag_s: Option<f64>,
    pub apply_lag_s: Option<f64>,
    pub apply_mb_s: Option<f64>,
    /// The sample failed as a whole (disconnected, timed out …).
    pub failed: bool,
}

impl Point {
    /// Computed straight from the two samples (no `Delta`, no histogram work): this runs for
    /// every sample of a 24-hour replay.
    pub(crate) fn between(prev: Option<&Sample>, s: &Sample) -> Point {
        let dg = s.dg.as_ref();
        let mut p = Point {
            t: s.t,
            transport_lag_s: dg.and_then(|g| g.transport_lag_s).map(|x| x.0),
            apply_lag_s: dg.and_then(|g| g.apply_lag_s).map(|x| x.0),
            apply_mb_s: s
                .recovery
                .as_ref()
                .and_then(|r| r.active_apply_kbps)
                .map(|k| k / 1024.0),
            failed: s.is_error(),
            ..Point::default()
        };
        let Some(prev) = prev else { return p };
        if s.is_error() || prev.is_error() || !same_incarnation(prev, s) {
            return p;
        }
        let secs = s.t.secs_since(prev.t);
        if secs <= 0.0 {
            return p;
        }
        let stat = |name: &str| -> Option<f64> {
            let (a, b) = (prev.stats.get(name)?, s.stats.get(name)?);
            (b >= a).then(|| (b - a) as f64)
        };
        let avg = |name: &str| -> Option<f64> {
            let b = s.events.get(name)?;
            let (w0, u0) = prev.events.get(name).map_or((0, 0), |a| (a.waits, a.us.0));
            let (dw, du) = (b.waits.checked_sub(w0)?, b.us.0.checked_sub(u0)?);
            (dw > 0).then(|| du as f64 / dw as f64 / 1000.0)
        };
        let os_delta = |name: &str| -> Option<f64> {
            let (a, b) = (prev.os.get(name)?, s.os.get(name)?);
            (b >= a).then(|| b - a)
        };
        // As `Delta::tps`: commits and rollbacks, commits alone where rollbacks are unread.
        p.tps = stat(stat::USER_COMMITS)
            .map(|c| (c + stat(stat::USER_ROLLBACKS).unwrap_or(0.0)) / secs);
        p.redo_mb_s = stat(stat::REDO_SIZE).map(|v| v / secs / MIB);
        p.redo_writes_s = stat(stat::REDO_WRITES).map(|v| v / secs);
        p.redo_write_kb = match (stat(stat::REDO_SIZE), stat(stat::REDO_WRITES)) {
            (Some(size), Some(w)) if w > 0.0 => Some(size / w / KIB),
            _ => None,
        };
        p.lfs_ms = avg(event::LOG_FILE_SYNC);
        p.lfpw_ms = avg(event::LOG_FILE_PARALLEL_WRITE);
        // 11.2's `LNS wait on SENDREQ` is the SYNC remote write only with a SYNC
        // destination: under ASYNC it is the shipping process's wait, not a commit's.
        p.remote_ms = avg(event::SYNC_REMOTE_WRITE).or_else(|| {
            s.has_sync_dest()
                .then(|| avg(event::LNS_WAIT_ON_SENDREQ))
                .flatten()
        });
        p.rfs_ms = avg(event::RFS_RANDOM_IO).or_else(|| avg(event::RFS_WRITE));
        p.cpu_pct = match (os_delta(os::BUSY_TIME), os_delta(os::IDLE_TIME)) {
            (Some(b), Some(i)) if b + i > 0.0 => Some(b * 100.0 / (b + i)),
            _ => None,
        };
        p
    }
}

/// A good sample kept raw, with the number of breaks (restarts, repeated instants) seen up
/// to it: a window whose ends have the same count is one stretch, answered by its two ends
/// instead of a walk over every sample between them (`check --replay` assesses a sliding
/// hour each second).
#[derive(Debug)]
struct Raw {
    s: Arc<Sample>,
    /// The sample's time, kept beside it: the window's binary searches (several per
    /// instant) read the ring's own memory, not every probed sample's.
    t: Timestamp,
    breaks: u64,
}

/// A database's identity and state and its Data Guard processes rarely change between
/// samples: the raw ring shares one copy of each with the sample before rather than holding
/// one a sample (`serve` keeps two minutes of every pair of a fleet; the two were a quarter
/// of a twin pair's memory, benches/serve.rs).
fn share_unchanged(s: &mut Sample, prev: &Sample) {
    if let (Some(was), Some(db)) = (&prev.db, &s.db) {
        if !Arc::ptr_eq(was, db) && was == db {
            s.db = Some(was.clone());
        }
    }
    if !Arc::ptr_eq(&prev.processes, &s.processes) && prev.processes == s.processes {
        s.processes = prev.processes.clone();
    }
}

/// Everything the engine keeps about one slot.
#[derive(Debug)]
pub struct SlotSeries {
    raw: Ring<Raw>,
    raw_span: Duration,
    since_startup: WindowAcc,
    since_baseline: Option<WindowAcc>,
    /// Every good sample since the first, across restarts: a window that reaches back past
    /// the first sample is this (O(1) memory), however long it is, so `check --duration 24h`
    /// keeps raw samples for its recent rules only, not for the whole run.
    since_first: WindowAcc,
    first_good: Option<Timestamp>,
    points: Ring<Point>,
    /// The raw samples that carry Data Guard messages (most carry none), so the rules that
    /// read the window's messages do not walk every sample of it.
    with_messages: std::collections::VecDeque<Arc<Sample>>,
    last_good: Option<Arc<Sample>>,
    last: Option<Arc<Sample>>,
    /// When the slow parts (logs, switches, params …) were last read.
    slow_read: slow::ReadTimes,
    /// Per destination id: its gap status (`V$ARCHIVE_DEST_STATUS.GAP_STATUS`) and since when
    /// the good samples have shown it without a break. Kept as samples arrive, so how long a
    /// status has lasted needs no raw history however long that is (`dest-error` ages a LOG
    /// SWITCH GAP by it).
    dest_gap_since: Vec<(u32, Option<Name>, Timestamp)>,
    /// The newest Data Guard message about managed recovery (a cancel, ORA-16037, or an
    /// error naming recovery or MRP), however long ago: whether apply was switched off on
    /// purpose or died of an error outlives any window.
    last_recovery_message: Option<dgscope_model::sample::DgMessage>,
    /// The recovery area as read (`V$RECOVERY_FILE_DEST`, a slow part): a new entry when
    /// its figures change or a minute after the last, the newest [`FRA_READS`] only, so its
    /// growth over minutes needs no raw history.
    fra_reads: std::collections::VecDeque<(Timestamp, dgscope_model::sample::Fra)>,
    /// Samples whose cumulative statistics went down without the startup time changing, and
    /// the first (when, which statistic): counters no V$SYSSTAT gives, or a RAC instance that
    /// restarted under the sum. Rates over such intervals mean little; said, not hidden.
    counters_down: (u64, Option<(Timestamp, String)>),
}

/// How many recovery-area reads a slot keeps ([`SlotSeries::fra_reads`]).
pub(crate) const FRA_READS: usize = 12;

/// `ORA-16037: user requested cancel of managed recovery operation`.
pub(crate) const ORA_RECOVERY_CANCEL: i64 = 16037;

/// A message that says why managed recovery stopped: a deliberate cancel, or an error.
pub(crate) fn is_recovery_message(m: &dgscope_model::sample::DgMessage) -> bool {
    let t = m.message.to_ascii_lowercase();
    is_recovery_cancel(m) || (m.is_error() && (t.contains("recovery") || t.contains("mrp")))
}

/// The cancel Oracle logs when an operator or the broker (APPLY-OFF) stops redo apply.
pub fn is_recovery_cancel(m: &dgscope_model::sample::DgMessage) -> bool {
    m.error_code.is_some_and(|c| c.abs() == ORA_RECOVERY_CANCEL)
        || m.message.to_ascii_uppercase().contains("ORA-16037")
        || m.message.contains("with status 16037")
}

impl SlotSeries {
    fn new(raw_span: Duration, history_len: usize) -> Self {
        SlotSeries {
            // Enough raw samples for the longest fixed window at 1 s, plus slack for jitter.
            raw: Ring::new(raw_span.as_secs() as usize + 16),
            raw_span,
            since_startup: WindowAcc::new(),
            since_baseline: None,
            since_first: WindowAcc::new(),
            first_good: None,
            points: Ring::new(history_len),
            with_messages: std::collections::VecDeque::new(),
            last_good: None,
            last: None,
            slow_read: slow::ReadTimes::default(),
            dest_gap_since: Vec::new(),
            last_recovery_message: None,
            fra_reads: std::collections::VecDeque::new(),
            counters_down: (0, None),
        }
    }

    /// How many samples had a statistic lower than the sample before with the same startup
    /// time, and the first such (its time and the statistic).
    pub fn counters_down(&self) -> (u64, Option<&(Timestamp, String)>) {
        (self.counters_down.0, self.counters_down.1.as_ref())
    }

    fn push(&mut self, mut s: Arc<Sample>) {
        if let Some(prev) = &self.last {
            if s.t < prev.t {
                return; // out of order (clock skew on a reconnect): drop rather than rewind
            }
        }
        // A slow part not read this time is the latest one read: every consumer sees it.
        self.slow_read.observe(&s);
        if let Some(f) = s.fra.filter(|_| !s.is_error()) {
            let new = self
                .fra_reads
                .back()
                .is_none_or(|(t, last)| *last != f || s.t.secs_since(*t) >= 60.0);
            if new {
                self.fra_reads.push_back((s.t, f));
                if self.fra_reads.len() > FRA_READS {
                    self.fra_reads.pop_front();
                }
            }
        }
        if let (Some(prev), Some(own)) = (self.last_good.as_deref(), Arc::get_mut(&mut s)) {
            share_unchanged(own, prev);
        }
        if let Some(prev) = self.last_good.as_deref() {
            if slow::needs_fill(&s, prev) {
                slow::fill(Arc::make_mut(&mut s), prev);
            }
        }
        self.points
            .push(Point::between(self.last_good.as_deref(), &s));
        if !s.is_error() {
            let restarted = self
                .last_good
                .as_ref()
                .is_some_and(|p| !same_incarnation(p, &s));
            if restarted {
                self.since_startup = WindowAcc::new();
            } else if let Some(p) = self.last_good.as_deref() {
                // Both maps in name order, walked side by side: a comparison per statistic
                // at every sample, not a lookup.
                let mut before = p.stats.iter().peekable();
                let down = s.stats.iter().find(|(name, v)| {
                    while before.next_if(|(k, _)| k < name).is_some() {}
                    before
                        .next_if(|(k, _)| k == name)
                        .is_some_and(|(_, b)| *v < b)
                });
                if let Some((name, _)) = down {
                    self.counters_down.0 += 1;
                    self.counters_down
                        .1
                        .get_or_insert_with(|| (s.t, name.to_string()));
                }
            }
            self.since_startup.push(&s);
            if let Some(b) = &mut self.since_baseline {
                b.push(&s);
            }
            self.since_first.push(&s);
            self.first_good.get_or_insert(s.t);
            let repeated = self.last_good.as_ref().is_some_and(|p| p.t == s.t);
            let breaks = self.raw.last().map_or(0, |r| r.breaks) + u64::from(restarted || repeated);
            self.raw.push(Raw {
                s: s.clone(),
                t: s.t,
                breaks,
            });
            if let Some(msgs) = s.dg_messages.as_ref().filter(|m| !m.is_empty()) {
                self.with_messages.push_back(s.clone());
                if let Some(m) = msgs
                    .iter()
                    .filter(|m| is_recovery_message(m))
                    .max_by_key(|m| m.time)
                {
                    self.last_recovery_message = Some(m.clone());
                }
            }
            // Rebuilt only when a destination or its gap status changed (rarely): most samples
            // cost a comparison, not an allocation.
            let unchanged = self.dest_gap_since.len() == s.dests.len()
                && self
                    .dest_gap_since
                    .iter()
                    .zip(&s.dests)
                    .all(|((id, gap, _), d)| *id == d.id && *gap == d.gap);
            if !unchanged {
                let since: Vec<_> = s
                    .dests
                    .iter()
                    .map(|d| {
                        let kept = self
                            .dest_gap_since
                            .iter()
                            .find(|(id, gap, _)| *id == d.id && *gap == d.gap)
                            .map_or(s.t, |x| x.2);
                        (d.id, d.gap.clone(), kept)
                    })
                    .collect();
                self.dest_gap_since = since;
            }
            let oldest = self.raw.get(0).map(|r| r.t);
            while let (Some(m), Some(o)) = (self.with_messages.front(), oldest) {
                if m.t >= o {
                    break;
                }
                self.with_messages.pop_front();
            }
            self.last_good = Some(s.clone());
        }
        self.last = Some(s);
    }

    /// The recovery area's recent reads, oldest first: `(time read, figures)`.
    pub fn fra_reads(
        &self,
    ) -> impl DoubleEndedIterator<Item = &(Timestamp, dgscope_model::sample::Fra)> {
        self.fra_reads.iter()
    }

    /// The newest sample, good or failed.
    pub fn last(&self) -> Option<&Arc<Sample>> {
        self.last.as_ref()
    }

    /// Since when this slot's good samples have shown destination `dest` with the gap status
    /// `gap`, without a break; `None` when its newest good sample shows another.
    pub fn dest_gap_since(&self, dest: u32, gap: Option<&str>) -> Option<Timestamp> {
        self.dest_gap_since
            .iter()
            .find(|(id, g, _)| *id == dest && g.as_deref() == gap)
            .map(|x| x.2)
    }

    /// The newest message about managed recovery this slot has shown (see the field).
    pub fn last_recovery_message(&self) -> Option<&dgscope_model::sample::DgMessage> {
        self.last_recovery_message.as_ref()
    }

    /// When the slow part `part` (`logs`, `switches` …) was last read, if ever.
    pub fn slow_read_at(&self, part: &str) -> Option<Timestamp> {
        self.slow_read.read_at(part)
    }

    /// The newest sample with data.
    pub fn last_good(&self) -> Option<&Arc<Sample>> {
        self.last_good.as_ref()
    }

    /// The newest sample when it has data, i.e. figures that describe now; `None` while the
    /// slot's samples fail (the stale rule: its last good figures are not current).
    pub fn current(&self) -> Option<&Arc<Sample>> {
        match (&self.last, &self.last_good) {
            (Some(last), Some(good)) if Arc::ptr_eq(last, good) => Some(good),
            _ => None,
        }
    }

    /// The stale rule for this slot, ages measured at `now` (the source's newest instant).
    pub fn freshness(&self, now: Timestamp) -> Freshness {
        let Some(last) = &self.last else {
            return Freshness::NoData;
        };
        if !last.is_error() {
            return Freshness::Current;
        }
        let good_t = self.last_good.as_ref().map(|s| s.t);
        // The failures started with the first failed point after the last good sample.
        let failing_since = self
            .points
            .iter()
            .rev()
            .take_while(|p| p.failed)
            .last()
            .map_or(last.t, |p| p.t);
        Freshness::Stale {
            last_good: good_t,
            age_s: good_t.map(|t| now.secs_since(t).max(0.0)),
            failing_since,
        }
    }

    /// Good raw samples kept for the fixed windows, oldest first.
    pub fn raw_samples(&self) -> impl DoubleEndedIterator<Item = &Arc<Sample>> {
        self.raw.iter().map(|r| &r.s)
    }

    /// Good raw samples from `t` on that carry Data Guard messages, oldest first.
    pub fn samples_with_messages_from(
        &self,
        t: Timestamp,
    ) -> impl DoubleEndedIterator<Item = &Arc<Sample>> {
        let i = self.with_messages.partition_point(|s| s.t < t);
        self.with_messages.range(i..)
    }

    /// Good raw samples from `t` on, oldest first (a binary search, not a walk).
    pub fn raw_samples_from(&self, t: Timestamp) -> impl Iterator<Item = &Arc<Sample>> {
        let i = self.raw.partition_point(|r| r.t < t);
        self.raw.iter().skip(i).map(|r| &r.s)
    }

    pub fn points(&self) -> &Ring<Point> {
        &self.points
    }

    /// Delta over the window ending at the newest sample.
    pub fn window(&self, w: Window) -> Option<Delta> {
        self.window_parts(w, Parts::All)
    }

    /// As [`SlotSeries::window`], with `parts` of it (the same figures in what is computed).
    pub(crate) fn window_parts(&self, w: Window, parts: Parts) -> Option<Delta> {
        match w {
            Window::Last(len) => self.window_ending_parts(len, None, parts),
            Window::SinceBaseline => self.since_baseline.as_ref()?.delta_parts(parts),
            Window::SinceStartup => self.since_startup.delta_parts(parts),
        }
    }

    /// Delta over `len` ending at `end` (default: the newest sample), from the raw history.
    pub fn window_ending(&self, len: Duration, end: Option<Timestamp>) -> Option<Delta> {
        self.window_ending_parts(len, end, Parts::All)
    }

    fn window_ending_parts(
        &self,
        len: Duration,
        end: Option<Timestamp>,
        parts: Parts,
    ) -> Option<Delta> {
        let newest = self.last_good.as_ref().map(|s| s.t);
        let end = end.or(newest)?;
        // A window from before the first sample to the newest one is everything seen: the
        // running accumulator answers it exactly, at any length. Longer than the raw span
        // otherwise, it is capped to the raw span (below).
        let covers_all = Some(end) == newest
            && self.first_good.is_some_and(|f| {
                let len_ms = len.as_millis().min(i64::MAX as u128) as i64;
                end.ms.saturating_sub(len_ms) <= f.ms
            })
            && (len > self.raw_span || self.raw.len() < self.raw.capacity());
        if covers_all {
            return self.since_first.delta_parts(parts);
        }
        let start = end.add_millis(-(len.min(self.raw_span).as_millis() as i64));
        // Raw samples are in time order: the window is [i, j).
        let i = self.raw.partition_point(|r| r.t < start);
        let j = self.raw.partition_point(|r| r.t <= end);
        let mut acc = WindowAcc::new();
        match (
            self.raw.get(i),
            j.checked_sub(1).and_then(|k| self.raw.get(k)),
        ) {
            // One stretch with no repeated instant: every sample between would only move
            // the accumulator's last sample, so its two ends give the same delta.
            (Some(a), Some(b)) if i < j && a.breaks == b.breaks => {
                acc.push(&a.s);
                acc.push(&b.s);
            }
            _ => {
                for r in self.raw.iter().skip(i).take(j.saturating_sub(i)) {
                    acc.push(&r.s);
                }
            }
        }
        acc.delta_parts(parts)
    }

    /// Good samples available in the window (for "warming up").
    pub fn samples_in(&self, len: Duration) -> usize {
        let Some(end) = self.last_good.as_ref().map(|s| s.t) else {
            return 0;
        };
        let start = end.add_millis(-(len.as_millis() as i64));
        self.raw.len() - self.raw.partition_point(|r| r.t < start)
    }
}

/// Tuning of the engine's memory.
#[derive(Debug, Clone, Copy)]
pub struct EngineConfig {
    /// How far back raw samples are kept (the longest fixed window).
    pub raw_span: Duration,
    /// Points kept per slot for charts and scrubbing.
    pub history_len: usize,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            raw_span: Duration::from_secs(15 * 60),
            history_len: 3600,
        }
    }
}

#[derive(Debug)]
pub struct Engine {
    config: EngineConfig,
    slots: BTreeMap<Slot, SlotSeries>,
    baseline: Option<Timestamp>,
    baseline_deltas: Option<WindowDeltas>,
    marks: Ring<Mark>,
    latest: Option<Timestamp>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(EngineConfig::default())
    }
}

impl Engine {
    pub fn new(config: EngineConfig) -> Self {
        Engine {
            config,
            slots: BTreeMap::new(),
            baseline: None,
            baseline_deltas: None,
            marks: Ring::new(1000),
            latest: None,
        }
    }

    /// What the engine keeps (raw span, history points).
    pub fn config(&self) -> EngineConfig {
        self.config
    }

    pub fn push(&mut self, entry: Entry) {
        match entry {
            Entry::Sample(mut s) => {
                s.shrink_to_fit();
                self.push_sample(Arc::from(s))
            }
            Entry::Mark(m) => self.marks.push(m),
        }
    }

    pub fn push_sample(&mut self, s: Arc<Sample>) {
        self.latest = Some(self.latest.map_or(s.t, |t| t.max(s.t)));
        // Looked up before inserting: a known slot costs no copy of its name per sample.
        if let Some(series) = self.slots.get_mut(&s.slot) {
            series.push(s);
            return;
        }
        let cfg = self.config;
        let mut series = SlotSeries::new(cfg.raw_span, cfg.history_len);
        let slot = s.slot.clone();
        series.push(s);
        self.slots.insert(slot, series);
    }

    pub fn slot(&self, slot: &Slot) -> Option<&SlotSeries> {
        self.slots.get(slot)
    }

    pub fn slots(&self) -> impl Iterator<Item = (&Slot, &SlotSeries)> {
        self.slots.iter()
    }

    /// The slot whose newest good sample says it is the primary (roles move on switchover),
    /// falling back to the slot named `primary`.
    pub fn primary_slot(&self) -> Option<&Slot> {
        self.slots
            .iter()
            .find(|(_, s)| {
                s.last_good()
                    .and_then(|x| x.role())
                    .is_some_and(|r| *r == dgscope_model::sample::Role::Primary)
            })
            .map(|(k, _)| k)
            .or_else(|| self.slots.keys().find(|k| k.as_str() == "primary"))
    }

    /// Slots that receive redo (standbys and far syncs) in a stable order, chosen by role
    /// when known: a far sync passed as `--standby` is a member of the chain, not a primary.
    pub fn standby_slots(&self) -> Vec<&Slot> {
        let primary = self.primary_slot();
        let mut members: Vec<(bool, &Slot)> = self
            .slots
            .iter()
            .filter_map(|(k, s)| {
                if Some(k) == primary {
                    return None;
                }
                match s.last_good().and_then(|x| x.role()) {
                    Some(r) if r.receives_redo() => Some((r.is_far_sync(), k)),
                    Some(_) => None,
                    None => k.is_standby().then_some((false, k)),
                }
            })
            .collect();
        // Standbys before far syncs: the panes open on a standby that applies redo, and
        // `]` reaches the far sync after them (a stable sort keeps the slot order within).
        members.sort_by_key(|(far_sync, _)| *far_sync);
        members.into_iter().map(|(_, k)| k).collect()
    }

    pub fn marks(&self) -> &Ring<Mark> {
        &self.marks
    }

    pub fn latest(&self) -> Option<Timestamp> {
        self.latest
    }

    /// The stale rule for `slot` at the engine's newest instant (the source's clock).
    pub fn freshness(&self, slot: &Slot) -> Freshness {
        match (self.slots.get(slot), self.latest) {
            (Some(s), Some(now)) => s.freshness(now),
            _ => Freshness::NoData,
        }
    }

    pub fn baseline(&self) -> Option<Timestamp> {
        self.baseline
    }

    /// Starts "since baseline" windows at the newest sample of every slot, and keeps the
    /// deltas of window `w` as they are now for the impact table.
    pub fn set_baseline(&mut self, w: Window) {
        self.baseline = self.latest;
        self.baseline_deltas = Some(self.window_deltas(w, None));
        for s in self.slots.values_mut() {
            let mut acc = WindowAcc::new();
            if let Some(last) = &s.last_good {
                acc.push(last);
            }
            s.since_baseline = Some(acc);
        }
    }

    pub fn clear_baseline(&mut self) {
        self.baseline = None;
        self.baseline_deltas = None;
        for s in self.slots.values_mut() {
            s.since_baseline = None;
        }
    }

    /// Deltas of the primary and the given standby over a window.
    pub fn window_deltas(&self, w: Window, standby: Option<&Slot>) -> WindowDeltas {
        let get = |slot: Option<&Slot>| slot.and_then(|s| self.slots.get(s)?.window(w));
        let standby = standby.or_else(|| self.standby_slots().first().copied());
        WindowDeltas {
            primary: get(self.primary_slot()),
            standby: get(standby),
        }
    }

    /// The impact table: the window that was current when the baseline was set, against the
    /// same window now. `None` without a baseline.
    pub fn impact(&self, current: Window) -> Option<Vec<ImpactRow>> {
        let base = self.baseline_deltas.as_ref()?;
        Some(impact_table(base, &self.window_deltas(current, None)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dgscope_model::sample::names::stat;
    use dgscope_model::sample::{DbInfo, Role, SampleErrorKind};

    fn sample(slot: &str, t: i64, commits: u64, role: Role) -> Entry {
        let mut s = Sample::new(Timestamp::from_millis(t * 1000), Slot::from(slot));
        s.db = Some(
            DbInfo {
                role: Some(role),
                startup: Some(Timestamp::from_millis(0)),
                ..DbInfo::default()
            }
            .into(),
        );
        s.stats.insert(stat::USER_COMMITS.into(), commits);
        Entry::Sample(Box::new(s))
    }

    #[test]
    fn samples_with_the_same_database_state_share_one_copy_of_it() {
        let mut e = Engine::new(EngineConfig::default());
        e.push(sample("primary", 0, 0, Role::Primary));
        let first = e.slot(&Slot::primary()).unwrap().last().unwrap().clone();
        e.push(sample("primary", 1, 10, Role::Primary));
        let same = e.slot(&Slot::primary()).unwrap().last().unwrap().clone();
        assert!(Arc::ptr_eq(
            first.db.as_ref().unwrap(),
            same.db.as_ref().unwrap()
        ));
        // A change (a switchover) is its own copy, and the next samples share that one.
        e.push(sample("primary", 2, 20, Role::PhysicalStandby));
        let changed = e.slot(&Slot::primary()).unwrap().last().unwrap().clone();
        assert_eq!(changed.role(), Some(&Role::PhysicalStandby));
        assert!(!Arc::ptr_eq(
            same.db.as_ref().unwrap(),
            changed.db.as_ref().unwrap()
        ));
        e.push(sample("primary", 3, 30, Role::PhysicalStandby));
        let after = e.slot(&Slot::primary()).unwrap().last().unwrap().clone();
        assert!(Arc::ptr_eq(
            changed.db.as_ref().unwrap(),
            after.db.as_ref().unwrap()
        ));
        assert_eq!(first.role(), Some(&Role::Primary));
    }

    #[test]
    fn samples_with_the_same_processes_share_one_list_of_them() {
        let with = |i: i64, seq: u64| {
            let Entry::Sample(mut s) = sample("standby", i, i as u64 * 10, Role::PhysicalStandby)
            else {
                unreachable!("sample() builds samples")
            };
            s.processes = vec![dgscope_model::sample::Process {
                name: "MRP0".into(),
                sequence: Some(seq),
                ..Default::default()
            }]
            .into();
            Entry::Sample(s)
        };
        let mut e = Engine::new(EngineConfig::default());
        let last = |e: &Engine| {
            let slot = Slot::standby();
            e.slot(&slot).unwrap().last().unwrap().clone()
        };
        e.push(with(0, 7));
        let first = last(&e);
        e.push(with(1, 7));
        assert!(Arc::ptr_eq(&first.processes, &last(&e).processes));
        // MRP0 moves to the next log: a list of its own, with the new sequence.
        e.push(with(2, 8));
        let moved = last(&e);
        assert!(!Arc::ptr_eq(&first.processes, &moved.processes));
        assert_eq!(moved.processes[0].sequence, Some(8));
        assert_eq!(first.processes[0].sequence, Some(7));
    }

    #[test]
    fn windows_points_and_baseline() {
        let mut e = Engine::new(EngineConfig {
            raw_span: Duration::from_secs(60),
            history_len: 50,
        });
        for i in 0..200 {
            e.push(sample("primary", i, i as u64 * 10, Role::Primary));
            if i == 100 {
                e.set_baseline(Window::Last(Duration::from_secs(10)));
            }
        }
        let p = e.slot(&Slot::primary()).unwrap();
        assert_eq!(p.points().len(), 50);
        assert_eq!(p.points().last().unwrap().tps, Some(10.0));
        let d = p.window(Window::Last(Duration::from_secs(10))).unwrap();
        assert_eq!(d.secs, 10.0);
        let b = p.window(Window::SinceBaseline).unwrap();
        assert_eq!(b.secs, 99.0);
        let s = p.window(Window::SinceStartup).unwrap();
        assert_eq!(s.secs, 199.0);
        let impact = e.impact(Window::Last(Duration::from_secs(10))).unwrap();
        let tps = impact.iter().find(|r| r.metric.id() == "tps").unwrap();
        assert_eq!((tps.baseline, tps.compare), (Some(10.0), Some(10.0)));
        // Windows longer than the raw span are capped to it, unless they reach back past
        // the first sample: then they are everything seen.
        let long = p.window(Window::Last(Duration::from_secs(150))).unwrap();
        assert_eq!(long.secs, 60.0);
        let all = p.window(Window::Last(Duration::from_secs(900))).unwrap();
        assert_eq!(all.secs, 199.0);
        assert_eq!(all.tps(), Some(10.0));
    }

    #[test]
    fn the_file_io_window_alone_has_the_whole_window_s_io_figures() {
        // Log file writes growing unevenly, a restart at 100 s and a failed sample: every
        // window's I/O part (and its length) is the whole delta's.
        use dgscope_model::sample::names::filetype;
        use dgscope_model::sample::IoStat;
        let mk = |t: i64| {
            let mut e = sample("standby", t, t as u64 * 3, Role::PhysicalStandby);
            if let Entry::Sample(s) = &mut e {
                let startup = if t >= 100 { 100_000 } else { 0 };
                s.db.as_mut().map(std::sync::Arc::make_mut).unwrap().startup =
                    Some(Timestamp::from_millis(startup));
                let n = (t % 100) as u64;
                s.iostat.insert(
                    filetype::LOG_FILE.into(),
                    IoStat {
                        wreq: n * n,
                        wms: n * n * 3 + n,
                        wmb: n,
                        ..IoStat::default()
                    },
                );
                if t == 130 {
                    s.error = Some(dgscope_model::sample::SampleError {
                        kind: SampleErrorKind::ConnectionLost,
                        message: "ORA-03113".into(),
                    });
                }
            }
            e
        };
        let mut e = Engine::new(EngineConfig {
            raw_span: Duration::from_secs(120),
            history_len: 10,
        });
        let mut checked = 0;
        for t in 0..180 {
            e.push(mk(t));
            let slot = e.slot(&Slot::from("standby")).unwrap();
            for w in [10, 45, 100, 900].map(|s| Window::Last(Duration::from_secs(s))) {
                let (all, io) = (slot.window(w), slot.window_parts(w, Parts::Io));
                assert_eq!(all.is_some(), io.is_some(), "t={t} {w:?}");
                if let (Some(all), Some(io)) = (all, io) {
                    assert_eq!(
                        (all.secs, &all.iostat),
                        (io.secs, &io.iostat),
                        "t={t} {w:?}"
                    );
                    checked += usize::from(!all.iostat.is_empty());
                }
            }
        }
        assert!(checked > 500, "{checked}");
    }

    #[test]
    fn a_window_past_the_first_sample_is_exact_whatever_the_raw_span() {
        // A run with a restart at 100 s: the short raw span answers the long window from the
        // running accumulator, the long one from its raw samples; both must agree.
        let mk = |t: i64| {
            let mut e = sample("primary", t, (t as u64 % 100) * 7, Role::Primary);
            if let Entry::Sample(s) = &mut e {
                let startup = if t >= 100 { 100_000 } else { 0 };
                s.db.as_mut().map(std::sync::Arc::make_mut).unwrap().startup =
                    Some(Timestamp::from_millis(startup));
            }
            e
        };
        let cfg = |raw| EngineConfig {
            raw_span: Duration::from_secs(raw),
            history_len: 10,
        };
        let (mut short, mut long) = (Engine::new(cfg(30)), Engine::new(cfg(3600)));
        for t in 0..250 {
            short.push(mk(t));
            long.push(mk(t));
        }
        let w = Window::Last(Duration::from_secs(1000));
        let (a, b) = (
            short.slot(&Slot::primary()).unwrap().window(w).unwrap(),
            long.slot(&Slot::primary()).unwrap().window(w).unwrap(),
        );
        assert_eq!(a.secs, b.secs);
        assert_eq!(a.secs, 248.0, "two stretches of 99 s and 149 s");
        assert_eq!(a.tps(), b.tps());
        assert_eq!(
            short.slot(&Slot::primary()).unwrap().raw_samples().count(),
            46
        );
    }

    #[test]
    fn a_sliding_window_answered_by_its_ends_equals_the_walk_over_every_sample() {
        // Restarts (startup changes, and samples with no startup, which match either side)
        // and repeated instants break a window into stretches; one stretch is answered by
        // its two ends. Every window must equal the walk over each of its raw samples.
        let mk = |t: i64, ms: i64| {
            let mut e = sample("primary", 0, (t as u64 % 37) * 11 + t as u64, Role::Primary);
            if let Entry::Sample(s) = &mut e {
                s.t = Timestamp::from_millis(ms);
                s.db.as_mut().map(std::sync::Arc::make_mut).unwrap().startup = match t {
                    0..=39 => Some(Timestamp::from_millis(0)),
                    40..=44 => None,
                    _ if t % 60 < 30 => Some(Timestamp::from_millis(1)),
                    _ => Some(Timestamp::from_millis(2)),
                };
            }
            e
        };
        let mut e = Engine::new(EngineConfig {
            raw_span: Duration::from_secs(50),
            history_len: 10,
        });
        let mut ms = 0;
        for t in 0..200 {
            // Every 17th instant repeats the one before (a duplicated line).
            if t % 17 != 0 {
                ms += 1000;
            }
            e.push(mk(t, ms));
            let st = e.slot(&Slot::primary()).unwrap();
            for len in [1, 2, 5, 10, 29, 49, 50, 51] {
                for back in [0, 3, 20] {
                    let end = st.last_good().unwrap().t.add_millis(-back * 1000);
                    let len = Duration::from_secs(len);
                    let start = end.add_millis(-(len.min(st.raw_span).as_millis() as i64));
                    let mut walk = WindowAcc::new();
                    for s in st.raw_samples().filter(|s| s.t >= start && s.t <= end) {
                        walk.push(s);
                    }
                    let got = st.window_ending(len, Some(end));
                    let want = walk.delta();
                    assert_eq!(
                        got.as_ref().map(|d| (d.secs, d.tps())),
                        want.as_ref().map(|d| (d.secs, d.tps())),
                        "t {t} len {len:?} back {back}"
                    );
                }
            }
        }
    }

    #[test]
    fn points_agree_with_deltas() {
        use dgscope_model::sample::{Event, IoStat};
        use dgscope_model::units::Micros;
        let mk = |t: i64, k: u64| {
            let mut s = Sample::new(Timestamp::from_millis(t * 1000), Slot::primary());
            s.stats.insert(stat::USER_COMMITS.into(), 100 * k);
            s.stats.insert(stat::REDO_SIZE.into(), 1_000_000 * k);
            s.stats.insert(stat::REDO_WRITES.into(), 40 * k);
            s.os.insert(os::BUSY_TIME.into(), 30.0 * k as f64);
            s.os.insert(os::IDLE_TIME.into(), 70.0 * k as f64);
            s.iostat.insert("Log File".into(), IoStat::default());
            s.events.insert(
                event::LOG_FILE_SYNC.into(),
                Event {
                    waits: 100 * k,
                    us: Micros(150_000 * k * k),
                    hist: vec![],
                    ..Default::default()
                },
            );
            s
        };
        let (a, b) = (mk(0, 1), mk(2, 3));
        let p = Point::between(Some(&a), &b);
        let d = Delta::between(&a, &b).unwrap();
        assert_eq!(p.tps, d.tps());
        assert_eq!(p.redo_mb_s, d.redo_mb_s());
        assert_eq!(p.redo_write_kb, d.redo_write_kb());
        assert_eq!(p.lfs_ms, d.event_avg(event::LOG_FILE_SYNC).map(|m| m.0));
        assert_eq!(p.cpu_pct, d.cpu_busy_pct());
        assert_eq!(p.tps, Some(100.0));
    }

    #[test]
    fn roles_not_slot_names_pick_the_primary() {
        let mut e = Engine::default();
        e.push(sample("primary", 0, 0, Role::PhysicalStandby));
        e.push(sample("standby", 0, 0, Role::Primary));
        assert_eq!(e.primary_slot(), Some(&Slot::standby()));
        assert_eq!(e.standby_slots(), vec![&Slot::primary()]);
    }

    #[test]
    fn a_far_sync_is_a_member_the_standby_panes_reach_after_the_standbys() {
        // `[`/`]` reach the far sync as a hop of the chain (its RFS writes, its SRL disk);
        // the rules tell it from a standby by its role, not by this list.
        let mut e = Engine::default();
        e.push(sample("primary", 0, 0, Role::Primary));
        e.push(sample("standby:fs", 0, 0, Role::FarSync));
        assert_eq!(e.standby_slots(), vec![&Slot::named_standby("fs")]);
        e.push(sample("standby:c", 0, 0, Role::PhysicalStandby));
        // The standby first (the panes open on it), the far sync after it for `]`.
        assert_eq!(
            e.standby_slots(),
            vec![&Slot::named_standby("c"), &Slot::named_standby("fs")]
        );
    }

    #[test]
    fn stale_rule_ages_the_last_good_figures_on_the_source_clock() {
        let mut e = Engine::default();
        let failed = |t: i64| {
            Entry::Sample(Box::new(Sample::failed(
                Timestamp::from_millis(t * 1000),
                Slot::standby(),
                SampleErrorKind::ConnectionLost,
                "ORA-03113".into(),
            )))
        };
        assert_eq!(e.freshness(&Slot::standby()), Freshness::NoData);
        e.push(sample("standby", 10, 0, Role::PhysicalStandby));
        assert!(e.freshness(&Slot::standby()).is_current());
        assert!(e.slot(&Slot::standby()).unwrap().current().is_some());
        for t in 11..=130 {
            e.push(sample("primary", t, 0, Role::Primary));
            e.push(failed(t));
        }
        let f = e.freshness(&Slot::standby());
        assert_eq!(
            f,
            Freshness::Stale {
                last_good: Some(Timestamp::from_millis(10_000)),
                age_s: Some(120.0),
                failing_since: Timestamp::from_millis(11_000),
            }
        );
        assert!(e.slot(&Slot::standby()).unwrap().current().is_none());
        // Back: current again, immediately.
        e.push(sample("standby", 131, 0, Role::PhysicalStandby));
        assert!(e.freshness(&Slot::standby()).is_current());
        // A slot that never succeeded is stale without an age.
        e.push(Entry::Sample(Box::new(Sample::failed(
            Timestamp::from_millis(131_000),
            Slot::named_standby("b"),
            SampleErrorKind::Timeout,
            "timed out".into(),
        ))));
        assert_eq!(e.freshness(&Slot::named_standby("b")).age_s(), None);
    }

    #[test]
    fn failed_samples_make_failed_points_and_keep_last_good() {
        let mut e = Engine::default();
        e.push(sample("standby", 0, 0, Role::PhysicalStandby));
        e.push(Entry::Sample(Box::new(Sample::failed(
            Timestamp::from_millis(1000),
            Slot::standby(),
            SampleErrorKind::ConnectionLost,
            "ORA-03113".into(),
        ))));
        let s = e.slot(&Slot::standby()).unwrap();
        assert!(s.points().last().unwrap().failed);
        assert!(s.last().unwrap().is_error());
        assert_eq!(s.last_good().unwrap().t, Timestamp::from_millis(0));
    }

    #[test]
    fn a_slow_part_not_read_this_time_is_the_latest_read_with_its_age() {
        let mut e = Engine::default();
        let mut first = Sample::new(Timestamp::from_millis(1000), Slot::primary());
        first.params = Some(Arc::new([("log_buffer".into(), "1".into())].into()));
        e.push(Entry::Sample(Box::new(first)));
        e.push(Entry::Sample(Box::new(Sample::new(
            Timestamp::from_millis(31_000),
            Slot::primary(),
        ))));
        let slot = e.slot(&Slot::primary()).unwrap();
        let last = slot.last_good().unwrap();
        assert_eq!(last.t, Timestamp::from_millis(31_000));
        assert_eq!(last.params.as_ref().unwrap()["log_buffer"], "1");
        assert_eq!(
            slot.slow_read_at("params"),
            Some(Timestamp::from_millis(1000))
        );
        assert_eq!(slot.slow_read_at("logs"), None);
    }
}
