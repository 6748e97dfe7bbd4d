//! What the rules look at: the primary's and standby's deltas over the window, their newest
//! samples and their point histories, with the catalog's notation (`lfs`, `lfpw`, `remote`,
//! `rfs`) as methods.
//!
//! Stale is not now: when the standby's newest sample failed, its last good figures (lags,
//! apply rate, I/O, processes, recovery area) are stale, so the standby side of the context
//! is empty and no rule judges from them; only `standby-down` speaks about the standby then.

use crate::metrics::{Delta, Engine, Point, SlotSeries, Window};
use crate::sample::names::{event, filetype};
use crate::sample::{Dest, DestStatus, Process, Sample, Slot};
use crate::timestamp::Timestamp;
use std::sync::Arc;

pub struct Context<'a> {
    pub now: Timestamp,
    pub window: Window,
    pub primary: Option<&'a SlotSeries>,
    pub standby_slot: Option<Slot>,
    pub standby: Option<&'a SlotSeries>,
    /// The standby's newest sample has data (see the module's stale rule).
    pub standby_current: bool,
    /// Primary delta over the window.
    pub p: Option<Delta>,
    /// Standby delta over the window.
    pub s: Option<Delta>,
}

impl<'a> Context<'a> {
    pub fn new(engine: &'a Engine, window: Window, standby: Option<&Slot>) -> Self {
        let primary = engine.primary_slot().and_then(|s| engine.slot(s));
        let standby_slot = standby
            .cloned()
            .or_else(|| engine.standby_slots().first().map(|s| (*s).clone()));
        let standby = standby_slot.as_ref().and_then(|s| engine.slot(s));
        let standby_current = standby.is_some_and(|s| s.current().is_some());
        Context {
            now: engine.latest().unwrap_or_default(),
            window,
            primary,
            standby_slot,
            standby,
            standby_current,
            p: primary.and_then(|s| s.window(window)),
            s: standby
                .filter(|_| standby_current)
                .and_then(|s| s.window(window)),
        }
    }

    pub fn window_len_s(&self) -> Option<f64> {
        self.p.as_ref().map(|d| d.secs)
    }

    pub fn p_last(&self) -> Option<&Arc<Sample>> {
        self.primary?.last_good()
    }

    /// The standby's newest sample when it describes now; `None` while the standby's
    /// samples fail (its last good figures are stale).
    pub fn s_last(&self) -> Option<&Arc<Sample>> {
        self.standby?.current()
    }

    /// Good primary samples in the window (for "warming up").
    pub fn primary_samples(&self) -> usize {
        let len = match self.window {
            Window::Last(d) => d,
            _ => std::time::Duration::from_secs(u64::MAX / 4),
        };
        self.primary.map_or(0, |p| p.samples_in(len))
    }

    pub fn lfs(&self) -> Option<f64> {
        self.p
            .as_ref()?
            .event_avg(event::LOG_FILE_SYNC)
            .map(|m| m.0)
    }

    pub fn lfs_waits(&self) -> u64 {
        self.p
            .as_ref()
            .and_then(|d| d.event(event::LOG_FILE_SYNC))
            .map_or(0, |e| e.waits)
    }

    pub fn lfpw(&self) -> Option<f64> {
        self.p
            .as_ref()?
            .event_avg(event::LOG_FILE_PARALLEL_WRITE)
            .map(|m| m.0)
    }

    /// The SYNC remote write average. On 11.2 it is `LNS wait on SENDREQ`, which the ASYNC
    /// shipping process waits on too: it is in the commit path only with a SYNC destination.
    pub fn remote(&self) -> Option<f64> {
        let p = self.p.as_ref()?;
        if let Some(m) = p.event_avg(event::SYNC_REMOTE_WRITE) {
            return Some(m.0);
        }
        self.sync_dest()?;
        p.event_avg(event::LNS_WAIT_ON_SENDREQ).map(|m| m.0)
    }

    pub fn rfs(&self) -> Option<f64> {
        self.s.as_ref()?.rfs_avg().map(|m| m.0)
    }

    /// The slowest write the commit waits for: local, or remote under SYNC.
    pub fn write_path(&self) -> Option<f64> {
        match (self.lfpw(), self.remote()) {
            (Some(l), Some(r)) => Some(l.max(r)),
            (l, r) => l.or(r),
        }
    }

    /// Remote destinations as the primary's newest sample lists them.
    pub fn dests(&self) -> &[Dest] {
        self.p_last().map_or(&[], |s| s.dests.as_slice())
    }

    pub fn sync_dest(&self) -> Option<&Dest> {
        self.dests().iter().find(|d| d.mode.is_sync())
    }

    /// The standby's newest sample failed as a whole (down, unreachable).
    pub fn standby_failed_since(&self) -> Option<Timestamp> {
        let st = self.standby?;
        let last = st.last()?;
        if !last.is_error() {
            return None;
        }
        // The failure started after the last good sample (or at the first point we saw).
        let since = st
            .points()
            .iter()
            .rev()
            .take_while(|p| p.failed)
            .last()
            .map(|p| p.t);
        since.or(Some(last.t))
    }

    pub fn primary_points(&self) -> Vec<&Point> {
        self.primary
            .map_or(Vec::new(), |p| p.points().iter().collect())
    }

    /// The standby's point history, empty while its samples fail: a trend that ends in
    /// stale figures is not a trend now.
    pub fn standby_points(&self) -> Vec<&Point> {
        self.standby
            .filter(|_| self.standby_current)
            .map_or(Vec::new(), |p| p.points().iter().collect())
    }

    /// Good standby samples of the last `secs` seconds, newest first; empty while stale.
    pub fn standby_recent(&self, secs: f64) -> Vec<&Arc<Sample>> {
        match self.standby.filter(|_| self.standby_current) {
            Some(st) => recent_samples(st, self.now, secs),
            None => Vec::new(),
        }
    }

    /// Good primary samples of the last `secs` seconds, newest first.
    pub fn primary_recent(&self, secs: f64) -> Vec<&Arc<Sample>> {
        self.primary
            .map_or(Vec::new(), |st| recent_samples(st, self.now, secs))
    }

    /// The standby's transport lag now, judged on its own: `None` when Oracle reports none
    /// (NULL) or the standby's figures are stale.
    pub fn transport_lag(&self) -> Option<f64> {
        Some(self.s_last()?.dg.as_ref()?.transport_lag_s?.0)
    }

    /// The standby's apply lag now, judged on its own (a NULL transport lag never hides it).
    pub fn apply_lag(&self) -> Option<f64> {
        Some(self.s_last()?.dg.as_ref()?.apply_lag_s?.0)
    }

    /// The standby's database name as it reports it.
    pub fn standby_name(&self) -> Option<&str> {
        self.standby?.last_good()?.db.as_ref()?.name.as_deref()
    }

    /// The primary's destination that ships to this standby: matched by
    /// `DB_UNIQUE_NAME` (never by order), else the only remote destination there is.
    pub fn standby_dest(&self) -> Option<&Dest> {
        let dests = self.dests();
        if let Some(name) = self.standby_name() {
            let named = |d: &&Dest| {
                d.db_unique_name
                    .as_deref()
                    .or(d.name.as_deref())
                    .is_some_and(|n| n.eq_ignore_ascii_case(name))
            };
            if let Some(d) = dests.iter().find(named) {
                return Some(d);
            }
        }
        match dests {
            [only] => Some(only),
            _ => None,
        }
    }

    /// The standby's Data Guard processes now (empty while stale or not read).
    pub fn processes(&self) -> &[Process] {
        self.s_last().map_or(&[], |s| s.processes.as_slice())
    }

    /// MRP0, the managed recovery coordinator (`MR(fg)` for foreground recovery).
    pub fn mrp(&self) -> Option<&Process> {
        self.processes().iter().find(|p| is_mrp(p))
    }

    /// Multi-Instance Redo Apply: recovery processes on more than one standby instance.
    /// `V$RECOVERY_PROGRESS` then reports 0 for the Active Apply Rate: unknown, not zero.
    pub fn mira(&self) -> bool {
        let insts: std::collections::BTreeSet<u32> = self
            .processes()
            .iter()
            .filter(|p| is_mrp(p) || is_recovery_slave(p))
            .filter_map(|p| p.inst_id)
            .collect();
        insts.len() > 1
    }

    /// A deliberate apply delay in seconds: `DELAY_MINS` of the standby's destination or of
    /// MRP0, whichever is larger.
    pub fn delay_s(&self) -> f64 {
        let dest = self.standby_dest().and_then(|d| d.delay_mins);
        let mrp = self.mrp().and_then(|p| p.delay_mins);
        f64::from(dest.max(mrp).unwrap_or(0)) * 60.0
    }

    /// Remote destinations that do not ship: not `VALID` and not `ERROR` (`DEFERRED`,
    /// `DISABLED`, `BAD PARAM`, `FULL`, `INACTIVE` …). `ALTERNATE` is a standby-by
    /// destination, idle on purpose.
    pub fn not_shipping(&self) -> Vec<&Dest> {
        self.dests()
            .iter()
            .filter(|d| {
                !matches!(
                    d.status,
                    DestStatus::Valid | DestStatus::Error | DestStatus::Alternate
                )
            })
            .collect()
    }

    /// Points of `series` within the last `secs` seconds.
    pub fn recent<'p>(points: &[&'p Point], now: Timestamp, secs: f64) -> Vec<&'p Point> {
        let from = now.add_millis(-(secs * 1000.0) as i64);
        points.iter().copied().filter(|p| p.t >= from).collect()
    }

    /// w_await (ms) of a file type on the primary and on the standby over the window.
    pub fn w_await(&self, ft: &str) -> (Option<f64>, Option<f64>) {
        let get = |d: &Option<Delta>| d.as_ref()?.io(ft)?.w_await.map(|m| m.0);
        (get(&self.p), get(&self.s))
    }

    pub fn log_file_w_await(&self) -> (Option<f64>, Option<f64>) {
        self.w_await(filetype::LOG_FILE)
    }
}

fn is_mrp(p: &Process) -> bool {
    let n = p.name.to_ascii_uppercase();
    n.starts_with("MRP")
        || n == "MR(FG)"
        || p.role
            .as_deref()
            .is_some_and(|r| r.eq_ignore_ascii_case("managed recovery"))
}

fn is_recovery_slave(p: &Process) -> bool {
    p.name.to_ascii_uppercase().starts_with("PR")
        || p.role
            .as_deref()
            .is_some_and(|r| r.to_ascii_lowercase().starts_with("recovery"))
}

/// Good samples of `st` within `secs` of `now`, newest first.
fn recent_samples(st: &SlotSeries, now: Timestamp, secs: f64) -> Vec<&Arc<Sample>> {
    let from = now.add_millis(-(secs * 1000.0) as i64);
    st.raw_samples().rev().take_while(|s| s.t >= from).collect()
}

/// True when `pred` holds for every sample of `samples` (newest first) and they span at
/// least 90 % of `secs`: a condition that has lasted, not one sample's word.
pub fn held_for(samples: &[&Arc<Sample>], secs: f64, pred: impl Fn(&Sample) -> bool) -> bool {
    if secs <= 0.0 {
        return samples.first().is_some_and(|s| pred(s));
    }
    let (Some(newest), Some(oldest)) = (samples.first(), samples.last()) else {
        return false;
    };
    newest.t.secs_since(oldest.t) >= secs * 0.9 && samples.iter().all(|s| pred(s))
}
