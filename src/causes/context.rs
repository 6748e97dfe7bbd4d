//! What the rules look at: the primary's and standby's deltas over the window, their newest
//! samples and their point histories, with the catalog's notation (`lfs`, `lfpw`, `remote`,
//! `rfs`) as methods.

use crate::metrics::{Delta, Engine, Point, SlotSeries, Window};
use crate::sample::names::{event, filetype};
use crate::sample::{Dest, Sample, Slot};
use crate::timestamp::Timestamp;
use std::sync::Arc;

pub struct Context<'a> {
    pub now: Timestamp,
    pub window: Window,
    pub primary: Option<&'a SlotSeries>,
    pub standby_slot: Option<Slot>,
    pub standby: Option<&'a SlotSeries>,
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
        Context {
            now: engine.latest().unwrap_or_default(),
            window,
            primary,
            standby_slot,
            standby,
            p: primary.and_then(|s| s.window(window)),
            s: standby.and_then(|s| s.window(window)),
        }
    }

    pub fn window_len_s(&self) -> Option<f64> {
        self.p.as_ref().map(|d| d.secs)
    }

    pub fn p_last(&self) -> Option<&Arc<Sample>> {
        self.primary?.last_good()
    }

    pub fn s_last(&self) -> Option<&Arc<Sample>> {
        self.standby?.last_good()
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

    pub fn remote(&self) -> Option<f64> {
        self.p.as_ref()?.sync_remote_avg().map(|m| m.0)
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

    pub fn standby_points(&self) -> Vec<&Point> {
        self.standby
            .map_or(Vec::new(), |p| p.points().iter().collect())
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
