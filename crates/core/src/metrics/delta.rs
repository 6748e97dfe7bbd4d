//! Deltas between two samples of one slot, and the rates derived from them. This is the only
//! place cumulative counters become per-second figures.

use super::histogram::Histogram;
use dgscope_model::sample::names::{event, os, stat};
use dgscope_model::sample::{FlatMap, IoStat, Name, Sample};
use dgscope_model::timestamp::Timestamp;
use dgscope_model::units::{Millis, KIB, MIB};
use std::collections::BTreeMap;

/// The cumulative figures of a sample or of one of its instances: stats, events, `os`.
type Counters<'a> = (
    &'a FlatMap<Name, u64>,
    &'a FlatMap<Name, dgscope_model::sample::Event>,
    &'a FlatMap<Name, f64>,
);

/// Change of one wait event over an interval.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EventDelta {
    pub waits: u64,
    pub us: u64,
    pub hist: Histogram,
    /// The foreground part (`TOTAL_WAITS_FG`, `TIME_WAITED_MICRO_FG`) when both ends had
    /// it: on an Active Data Guard standby the queries' waits, not apply's.
    pub waits_fg: Option<u64>,
    pub us_fg: Option<u64>,
}

impl EventDelta {
    pub fn avg(&self) -> Option<Millis> {
        (self.waits > 0).then(|| Millis::from_micros_f64(self.us as f64 / self.waits as f64))
    }

    /// Waits and µs of background processes only (total − foreground): on a standby,
    /// what redo apply and RFS waited, without Active Data Guard queries. The totals when
    /// the foreground part is unknown (older releases, older recordings).
    pub fn background(&self) -> (u64, u64) {
        (
            self.waits.saturating_sub(self.waits_fg.unwrap_or(0)),
            self.us.saturating_sub(self.us_fg.unwrap_or(0)),
        )
    }
}

/// Counter changes over one or more contiguous intervals of one slot (several when the window
/// spans an instance restart: the interval across the restart is left out, never negative).
/// Its maps are sorted `Vec`s ([`FlatMap`]), built in key order from the samples' own:
/// `check` computes two at every instant of a run, 172,800 for a recorded day.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Delta {
    pub from: Timestamp,
    pub to: Timestamp,
    /// Seconds covered by the summed intervals.
    pub secs: f64,
    pub stats: FlatMap<Name, u64>,
    /// `V$SYS_TIME_MODEL` changes, µs.
    pub time_model: FlatMap<Name, u64>,
    pub events: FlatMap<Name, EventDelta>,
    /// The wait class of the events read as the top of the database's waits.
    pub classes: FlatMap<Name, Name>,
    pub os: FlatMap<Name, f64>,
    pub iostat: FlatMap<Name, IoStat>,
    /// RAC: each instance's own delta (events, stats, host `os`), matched by `inst_id` so
    /// the order GV$ returned the rows in never matters. Empty on a single instance.
    pub instances: BTreeMap<u32, Delta>,
    /// On an instance's delta: the host it runs on (`None` at the cluster level).
    pub host: Option<Name>,
    /// The later sample had a SYNC destination ([`Sample::has_sync_dest`]): 11.2's `LNS
    /// wait on SENDREQ` then stands for the SYNC remote write.
    pub sync_dest: bool,
}

/// What of a delta is computed: all of it, or the file I/O alone (a rule asking only a
/// standby's `V$IOSTAT_FILE` at every instant needs no statistic or wait event of it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Parts {
    All,
    Io,
}

/// Were both samples taken in the same incarnation of the instance? Unknown startup on either
/// side is trusted as the same; counters going down are caught per counter below.
pub(crate) fn same_incarnation(a: &Sample, b: &Sample) -> bool {
    match (a.startup(), b.startup()) {
        (Some(x), Some(y)) => x == y,
        _ => true,
    }
}

impl Delta {
    /// `later − earlier`. `None` when either failed, they straddle a restart, or no time passed.
    pub fn between(earlier: &Sample, later: &Sample) -> Option<Delta> {
        Delta::between_parts(earlier, later, Parts::All)
    }

    /// As [`Delta::between`] with `parts` of it: [`Parts::Io`] leaves the statistics, events,
    /// OS figures and instances empty (the rest is the same).
    pub(crate) fn between_parts(earlier: &Sample, later: &Sample, parts: Parts) -> Option<Delta> {
        if earlier.is_error() || later.is_error() || !same_incarnation(earlier, later) {
            return None;
        }
        let secs = later.t.secs_since(earlier.t);
        if secs <= 0.0 {
            return None;
        }
        let mut d = Delta {
            from: earlier.t,
            to: later.t,
            secs,
            sync_dest: later.has_sync_dest(),
            ..Delta::default()
        };
        if parts == Parts::All {
            d.add_counters(
                (&earlier.stats, &earlier.events, &earlier.os),
                (&later.stats, &later.events, &later.os),
            );
            for (name, &v) in &later.time_model {
                if let Some(&before) = earlier.time_model.get(name) {
                    if v >= before {
                        d.time_model.insert(name.clone(), v - before);
                    }
                }
            }
        }
        for (ft, io) in &later.iostat {
            if let Some(b) = earlier.iostat.get(ft) {
                if let Some(x) = io_sub(io, b) {
                    d.iostat.insert(ft.clone(), x);
                }
            }
        }
        // Matched by inst_id: an instance present in one sample only has no delta.
        if let (Parts::All, Some(a), Some(b)) = (parts, &earlier.instances, &later.instances) {
            for li in b {
                let Some(ei) = a.iter().find(|e| e.inst_id == li.inst_id) else {
                    continue;
                };
                let mut id = Delta {
                    from: earlier.t,
                    to: later.t,
                    secs,
                    host: li.host.clone(),
                    ..Delta::default()
                };
                id.add_counters(
                    (&ei.stats, &ei.events, &ei.os),
                    (&li.stats, &li.events, &li.os),
                );
                d.instances.insert(li.inst_id, id);
            }
        }
        Some(d)
    }

    /// `later − earlier` of the stats, events and OS figures (top level or one instance).
    fn add_counters(&mut self, earlier: Counters<'_>, later: Counters<'_>) {
        let (e_stats, e_events, e_os) = earlier;
        let (l_stats, l_events, l_os) = later;
        let d = self;
        for (name, &v) in l_stats {
            if let Some(&before) = e_stats.get(name) {
                if v >= before {
                    d.stats.insert(name.clone(), v - before);
                }
            }
        }
        for (name, e) in l_events {
            // A V$SYSTEM_EVENT row appears with the first wait: absent before means zero.
            let before = e_events.get(name);
            let (w0, us0, h0): (u64, u64, &[dgscope_model::sample::Bucket]) = match before {
                Some(b) => (b.waits, b.us.0, &b.hist),
                None if e_events.is_empty() => continue,
                // Read as one of the top waits: absent before, it was not among them then,
                // and its whole count since startup is not this interval's.
                None if e.class.is_some() => continue,
                None => (0, 0, &[]),
            };
            if e.waits < w0 || e.us.0 < us0 {
                continue;
            }
            // The foreground part, when both ends have it (absent before: from zero).
            let fg0 = match before {
                Some(b) => b.waits_fg.zip(b.us_fg.map(|u| u.0)),
                None => Some((0, 0)),
            };
            let fg = e
                .waits_fg
                .zip(e.us_fg.map(|u| u.0))
                .zip(fg0)
                .and_then(|((w, u), (w0, u0))| Some((w.checked_sub(w0)?, u.checked_sub(u0)?)));
            if let Some(c) = &e.class {
                d.classes.insert(name.clone(), c.clone());
            }
            d.events.insert(
                name.clone(),
                EventDelta {
                    waits: e.waits - w0,
                    us: e.us.0 - us0,
                    hist: Histogram::delta(h0, &e.hist),
                    waits_fg: fg.map(|f| f.0),
                    us_fg: fg.map(|f| f.1),
                },
            );
        }
        for (name, &v) in l_os {
            if let Some(&before) = e_os.get(name) {
                // LOAD and NUM_CPUS are gauges: keep the latest value, not a difference.
                if name == os::LOAD || name == os::NUM_CPUS {
                    d.os.insert(name.clone(), v);
                } else if v >= before {
                    d.os.insert(name.clone(), v - before);
                }
            } else if name == os::LOAD || name == os::NUM_CPUS {
                d.os.insert(name.clone(), v);
            }
        }
    }

    /// Sums another interval into this one (windows that span a restart).
    pub fn absorb(&mut self, other: &Delta) {
        if self.secs == 0.0 {
            *self = other.clone();
            return;
        }
        self.from = self.from.min(other.from);
        self.to = self.to.max(other.to);
        self.secs += other.secs;
        self.sync_dest |= other.sync_dest;
        for (k, v) in &other.stats {
            *self.stats.get_or_insert_with(k.clone(), Default::default) += v;
        }
        for (k, v) in &other.time_model {
            *self
                .time_model
                .get_or_insert_with(k.clone(), Default::default) += v;
        }
        for (k, c) in &other.classes {
            self.classes.insert(k.clone(), c.clone());
        }
        for (k, e) in &other.events {
            let mine = self.events.get_or_insert_with(k.clone(), Default::default);
            // The foreground part stays known only while every interval has it.
            let fresh = mine.waits == 0 && mine.us == 0 && mine.waits_fg.is_none();
            (mine.waits_fg, mine.us_fg) = if fresh {
                (e.waits_fg, e.us_fg)
            } else {
                (
                    mine.waits_fg.zip(e.waits_fg).map(|(a, b)| a + b),
                    mine.us_fg.zip(e.us_fg).map(|(a, b)| a + b),
                )
            };
            mine.waits += e.waits;
            mine.us += e.us;
            mine.hist.add(&e.hist);
        }
        for (k, v) in &other.os {
            if k == os::LOAD || k == os::NUM_CPUS {
                self.os.insert(k.clone(), *v);
            } else {
                *self.os.get_or_insert_with(k.clone(), Default::default) += v;
            }
        }
        for (k, io) in &other.iostat {
            let m = self.iostat.get_or_insert_with(k.clone(), Default::default);
            m.rreq += io.rreq;
            m.wreq += io.wreq;
            m.rmb += io.rmb;
            m.wmb += io.wmb;
            m.rms += io.rms;
            m.wms += io.wms;
        }
        for (id, i) in &other.instances {
            match self.instances.get_mut(id) {
                Some(mine) => mine.absorb(i),
                None => {
                    self.instances.insert(*id, i.clone());
                }
            }
        }
    }

    pub fn stat(&self, name: &str) -> Option<u64> {
        self.stats.get(name).copied()
    }

    /// The commit symptom: average foreground `log file sync` in ms, its waits and its µs.
    /// The total where a source does not split foreground from background (background
    /// processes' log file sync waits are no commits).
    pub fn lfs_fg(&self) -> Option<(f64, u64, f64)> {
        let e = self.event(event::LOG_FILE_SYNC)?;
        let (waits, us) = match (e.waits_fg, e.us_fg) {
            (Some(w), Some(u)) if w > 0 => (w, u),
            _ => (e.waits, e.us),
        };
        (waits > 0).then(|| (us as f64 / waits as f64 / 1000.0, waits, us as f64))
    }

    /// DB time in seconds: `V$SYS_TIME_MODEL`'s where read (µs), else `V$SYSSTAT`'s
    /// (centiseconds); `None` when neither was read or it is 0.
    pub fn db_time_s(&self) -> Option<f64> {
        self.time_model_s(stat::DB_TIME)
            .or_else(|| self.stat(stat::DB_TIME).map(|cs| cs as f64 / 100.0))
            .filter(|s| *s > 0.0)
    }

    /// A `V$SYS_TIME_MODEL` statistic's change in seconds.
    pub fn time_model_s(&self, name: &str) -> Option<f64> {
        self.time_model.get(name).map(|us| *us as f64 / 1e6)
    }

    pub fn per_sec(&self, name: &str) -> Option<f64> {
        (self.secs > 0.0)
            .then_some(())
            .and(self.stat(name))
            .map(|v| v as f64 / self.secs)
    }

    pub fn event(&self, name: &str) -> Option<&EventDelta> {
        self.events.get(name)
    }

    /// Average latency of an event over the interval; `None` when it had no waits.
    pub fn event_avg(&self, name: &str) -> Option<Millis> {
        self.event(name).and_then(EventDelta::avg)
    }

    /// Seconds per second that background processes waited on `name` (total − foreground;
    /// the total when the foreground part is unknown): on a standby, apply's own waits.
    pub fn background_s_per_s(&self, name: &str) -> Option<f64> {
        let e = self.event(name)?;
        (self.secs > 0.0).then(|| e.background().1 as f64 / 1e6 / self.secs)
    }

    pub fn event_per_sec(&self, name: &str) -> Option<f64> {
        (self.secs > 0.0)
            .then_some(())
            .and(self.event(name))
            .map(|e| e.waits as f64 / self.secs)
    }

    /// Transactions per second as AWR's Load Profile counts them: commits and rollbacks
    /// (commits alone where a source does not read rollbacks).
    pub fn tps(&self) -> Option<f64> {
        let commits = self.stat(stat::USER_COMMITS)?;
        let rollbacks = self.stat(stat::USER_ROLLBACKS).unwrap_or(0);
        (self.secs > 0.0).then(|| (commits + rollbacks) as f64 / self.secs)
    }

    /// User commits per second: the commits that wait on `log file sync`.
    pub fn commits_per_s(&self) -> Option<f64> {
        self.per_sec(stat::USER_COMMITS)
    }

    pub fn redo_mb_s(&self) -> Option<f64> {
        self.per_sec(stat::REDO_SIZE).map(|b| b / MIB)
    }

    pub fn redo_writes_per_s(&self) -> Option<f64> {
        self.per_sec(stat::REDO_WRITES)
    }

    pub fn redo_write_kb(&self) -> Option<f64> {
        let writes = self.stat(stat::REDO_WRITES)?;
        let size = self.stat(stat::REDO_SIZE)?;
        (writes > 0).then(|| size as f64 / writes as f64 / KIB)
    }

    /// Standby RFS write latency: `RFS random i/o`, or `RFS write` where that is absent.
    pub fn rfs_avg(&self) -> Option<Millis> {
        self.event_avg(event::RFS_RANDOM_IO)
            .or_else(|| self.event_avg(event::RFS_WRITE))
    }

    /// SYNC remote write latency: `SYNC Remote Write` (12c+) or, with a SYNC destination,
    /// 11.2's `LNS wait on SENDREQ` (which an ASYNC shipping process waits on too).
    pub fn sync_remote_avg(&self) -> Option<Millis> {
        self.event_avg(event::SYNC_REMOTE_WRITE).or_else(|| {
            self.sync_dest
                .then(|| self.event_avg(event::LNS_WAIT_ON_SENDREQ))
                .flatten()
        })
    }

    /// RAC broadcast on commit: `redo write broadcast ack time` (µs from 11.2) per `log file
    /// sync` wait, in ms, never more than the wait itself: the part of a commit spent
    /// waiting for the other instances' acknowledgement beyond the log write. `None`
    /// without the statistic or without commits.
    pub fn broadcast_ack_ms(&self) -> Option<f64> {
        let ack_us = self.stat(stat::REDO_WRITE_BROADCAST_ACK_TIME)?;
        let lfs = self.event(event::LOG_FILE_SYNC)?;
        (lfs.waits > 0).then(|| {
            let per = ack_us as f64 / lfs.waits as f64 / 1000.0;
            per.min(lfs.us as f64 / lfs.waits as f64 / 1000.0)
        })
    }

    /// Host CPU busy in percent from `V$OSSTAT` busy and idle centiseconds.
    pub fn cpu_busy_pct(&self) -> Option<f64> {
        let busy = *self.os.get(os::BUSY_TIME)?;
        let idle = *self.os.get(os::IDLE_TIME)?;
        (busy + idle > 0.0).then(|| busy * 100.0 / (busy + idle))
    }

    /// Share (0..=1) of synchronous redo writes that polled instead of being posted.
    pub fn polling_share(&self) -> Option<f64> {
        let polled = self.stat(stat::REDO_SYNCH_POLL_WRITES)?;
        let total = self.stat(stat::REDO_SYNCH_WRITES)?;
        (total > 0).then(|| polled as f64 / total as f64)
    }

    pub fn io(&self, filetype: &str) -> Option<IoRates> {
        let io = self.iostat.get(filetype)?;
        (self.secs > 0.0).then(|| IoRates::from_delta(io, self.secs))
    }
}

/// iostat-style rates of one file type over an interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IoRates {
    pub r_s: f64,
    pub w_s: f64,
    pub r_mb_s: f64,
    pub w_mb_s: f64,
    pub r_await: Option<Millis>,
    pub w_await: Option<Millis>,
}

impl IoRates {
    fn from_delta(io: &IoStat, secs: f64) -> Self {
        IoRates {
            r_s: io.rreq as f64 / secs,
            w_s: io.wreq as f64 / secs,
            r_mb_s: io.rmb as f64 / secs,
            w_mb_s: io.wmb as f64 / secs,
            r_await: (io.rreq > 0).then(|| Millis(io.rms as f64 / io.rreq as f64)),
            w_await: (io.wreq > 0).then(|| Millis(io.wms as f64 / io.wreq as f64)),
        }
    }
}

fn io_sub(a: &IoStat, b: &IoStat) -> Option<IoStat> {
    Some(IoStat {
        rreq: a.rreq.checked_sub(b.rreq)?,
        wreq: a.wreq.checked_sub(b.wreq)?,
        rmb: a.rmb.checked_sub(b.rmb)?,
        wmb: a.wmb.checked_sub(b.wmb)?,
        rms: a.rms.checked_sub(b.rms)?,
        wms: a.wms.checked_sub(b.wms)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use dgscope_model::sample::{Bucket, DbInfo, Event, Slot};
    use dgscope_model::units::Micros;
    use proptest::prelude::*;

    fn sample(t_s: i64, startup: i64, commits: u64, waits: u64, us: u64) -> Sample {
        let mut s = Sample::new(Timestamp::from_millis(t_s * 1000), Slot::primary());
        s.db = Some(
            DbInfo {
                startup: Some(Timestamp::from_millis(startup)),
                ..DbInfo::default()
            }
            .into(),
        );
        s.stats.insert(stat::USER_COMMITS.into(), commits);
        s.events.insert(
            event::LOG_FILE_SYNC.into(),
            Event {
                waits,
                us: Micros(us),
                hist: vec![Bucket(Micros(1024), waits)],
                ..Default::default()
            },
        );
        s
    }

    /// Review #13: 11.2's `LNS wait on SENDREQ` is the SYNC remote write only with a SYNC
    /// destination; on an ASYNC primary it is the shipping process's wait, never "SYNC
    /// remote" on the screen, in perfdata or the exporter.
    #[test]
    fn lns_wait_is_sync_remote_only_with_a_sync_destination() {
        use crate::metrics::Point;
        use dgscope_model::sample::{Dest, TransmitMode};
        let lns = |s: &mut Sample, waits: u64| {
            s.events.insert(
                event::LNS_WAIT_ON_SENDREQ.into(),
                Event {
                    waits,
                    us: Micros(waits * 3000),
                    ..Default::default()
                },
            );
        };
        let with_dest = |mode: TransmitMode| {
            let mut a = sample(0, 1, 1000, 100, 50_000);
            let mut b = sample(10, 1, 6000, 300, 250_000);
            lns(&mut a, 10);
            lns(&mut b, 110);
            for s in [&mut a, &mut b] {
                s.dests.push(Dest {
                    id: 2,
                    mode: mode.clone(),
                    ..Dest::default()
                });
            }
            (a, b)
        };
        let (a, b) = with_dest(TransmitMode::Async);
        let d = Delta::between(&a, &b).unwrap();
        assert!(!d.sync_dest);
        assert_eq!(d.sync_remote_avg(), None);
        assert_eq!(Point::between(Some(&a), &b).remote_ms, None);
        let (a, b) = with_dest(TransmitMode::Sync);
        let d = Delta::between(&a, &b).unwrap();
        assert_eq!(d.sync_remote_avg(), Some(Millis(3.0)));
        assert_eq!(Point::between(Some(&a), &b).remote_ms, Some(3.0));
    }

    /// Review #11: the foreground part of a wait (Active Data Guard queries on a standby)
    /// is kept, so apply's evidence can be background-only; through a window of several
    /// intervals too.
    #[test]
    fn foreground_part_is_kept_and_background_is_the_rest() {
        let with = |t: i64, waits: u64, us: u64, fg: Option<(u64, u64)>| {
            let mut s = sample(t, 1, 1000, 1, 1);
            s.events.insert(
                event::DB_FILE_SEQUENTIAL_READ.into(),
                Event {
                    waits,
                    us: Micros(us),
                    waits_fg: fg.map(|f| f.0),
                    us_fg: fg.map(|f| Micros(f.1)),
                    ..Default::default()
                },
            );
            s
        };
        let a = with(0, 1000, 9_000_000, Some((900, 8_000_000)));
        let b = with(10, 2000, 19_000_000, Some((1800, 17_000_000)));
        let c = with(20, 3000, 29_000_000, Some((2700, 26_000_000)));
        let mut d = Delta::between(&a, &b).unwrap();
        let e = d.event(event::DB_FILE_SEQUENTIAL_READ).unwrap();
        assert_eq!((e.waits_fg, e.us_fg), (Some(900), Some(9_000_000)));
        assert_eq!(e.background(), (100, 1_000_000));
        assert_eq!(
            d.background_s_per_s(event::DB_FILE_SEQUENTIAL_READ),
            Some(0.1)
        );
        d.absorb(&Delta::between(&b, &c).unwrap());
        let e = d.event(event::DB_FILE_SEQUENTIAL_READ).unwrap();
        assert_eq!(e.background(), (200, 2_000_000));
        // Without the foreground columns (an older release), the totals.
        let a = with(0, 1000, 9_000_000, None);
        let b = with(10, 2000, 19_000_000, None);
        let d = Delta::between(&a, &b).unwrap();
        let e = d.event(event::DB_FILE_SEQUENTIAL_READ).unwrap();
        assert_eq!(e.waits_fg, None);
        assert_eq!(e.background(), (1000, 10_000_000));
    }

    #[test]
    fn rates_and_averages() {
        let a = sample(0, 1, 1000, 100, 50_000);
        let b = sample(10, 1, 6000, 300, 250_000);
        let d = Delta::between(&a, &b).unwrap();
        assert_eq!(d.tps(), Some(500.0));
        assert_eq!(d.event_avg(event::LOG_FILE_SYNC), Some(Millis(1.0)));
        assert_eq!(d.event(event::LOG_FILE_SYNC).unwrap().hist.total(), 200);
    }

    /// TPS is AWR's Load Profile "Transactions": commits and rollbacks; the commits that
    /// wait on `log file sync` are their own figure.
    #[test]
    fn tps_counts_rollbacks_where_read() {
        let mut a = sample(0, 1, 1000, 100, 50_000);
        let mut b = sample(10, 1, 6000, 300, 250_000);
        assert_eq!(Delta::between(&a, &b).unwrap().tps(), Some(500.0));
        a.stats.insert(stat::USER_ROLLBACKS.into(), 40);
        b.stats.insert(stat::USER_ROLLBACKS.into(), 1040);
        let d = Delta::between(&a, &b).unwrap();
        assert_eq!(d.tps(), Some(600.0));
        assert_eq!(d.commits_per_s(), Some(500.0));
    }

    #[test]
    fn no_delta_across_a_restart_or_backwards_in_time() {
        let a = sample(0, 1, 1000, 100, 50_000);
        let b = sample(10, 2, 10, 1, 500);
        assert!(Delta::between(&a, &b).is_none());
        assert!(Delta::between(&b, &a).is_none());
    }

    #[test]
    fn counters_that_go_down_are_dropped_not_negative() {
        let a = sample(0, 1, 1000, 100, 50_000);
        let mut b = sample(10, 1, 900, 300, 250_000);
        b.db.as_mut().map(std::sync::Arc::make_mut).unwrap().startup = None;
        let d = Delta::between(&a, &b).unwrap();
        assert_eq!(d.tps(), None);
        assert!(d.event_avg(event::LOG_FILE_SYNC).is_some());
    }

    #[test]
    fn event_absent_before_counts_from_zero() {
        let a = sample(0, 1, 1000, 100, 50_000);
        let mut b = sample(10, 1, 2000, 100, 50_000);
        b.events.insert(
            event::SYNC_REMOTE_WRITE.into(),
            Event {
                waits: 4,
                us: Micros(8000),
                hist: vec![],
                ..Default::default()
            },
        );
        let d = Delta::between(&a, &b).unwrap();
        assert_eq!(d.sync_remote_avg(), Some(Millis(2.0)));
    }

    proptest! {
        #[test]
        fn deltas_are_never_negative_whatever_the_counters_do(
            c0 in 0u64..1_000_000, c1 in 0u64..1_000_000,
            w0 in 0u64..1_000_000, w1 in 0u64..1_000_000,
            u0 in 0u64..1_000_000_000, u1 in 0u64..1_000_000_000,
            restart in any::<bool>(),
        ) {
            let a = sample(0, 1, c0, w0, u0);
            let b = sample(5, if restart { 2 } else { 1 }, c1, w1, u1);
            match Delta::between(&a, &b) {
                None => prop_assert!(restart),
                Some(d) => {
                    prop_assert!(!restart);
                    if let Some(tps) = d.tps() { prop_assert!(tps >= 0.0); }
                    if let Some(avg) = d.event_avg(event::LOG_FILE_SYNC) { prop_assert!(avg.0 >= 0.0); }
                }
            }
        }
    }
}
