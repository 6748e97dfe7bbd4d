//! What the rules look at: the primary's and standby's deltas over the window, their newest
//! samples and their point histories, with the catalog's notation (`lfs`, `lfpw`, `remote`,
//! `rfs`) as methods.
//!
//! Stale is not now: when the standby's newest sample failed, its last good figures (lags,
//! apply rate, I/O, processes, recovery area) are stale, so the standby side of the context
//! is empty and no rule judges from them; only `standby-down` speaks about the standby then.

use super::decomposition::{CommitDecomposition, LagDecomposition, RemoteSide};
use super::severity::Severity;
use super::text::starts_with_ignore_case;
use super::thresholds::Thresholds;
use crate::metrics::{Delta, Engine, Parts, Point, SlotSeries, Window};
use dgscope_model::sample::names::{event, filetype};
use dgscope_model::sample::{Dest, DestStatus, DgMessage, Process, Role, Sample, Slot};
use dgscope_model::timestamp::Timestamp;
use std::borrow::Cow;
use std::cell::OnceCell;
use std::sync::Arc;

pub struct Context<'a> {
    /// Every slot's history: members other than the panes' standby (the SYNC target, the
    /// far sync a terminal standby receives from) are found here by name.
    pub engine: &'a Engine,
    pub now: Timestamp,
    pub window: Window,
    pub primary: Option<&'a SlotSeries>,
    pub standby_slot: Option<Slot>,
    pub standby: Option<&'a SlotSeries>,
    /// The standby's newest sample has data (see the module's stale rule).
    pub standby_current: bool,
    /// Primary delta over the window, computed when a rule first asks (see [`Self::p`]).
    p: OnceCell<Option<Delta>>,
    /// Standby delta over the window, computed when a rule first asks (see [`Self::s`]).
    s: OnceCell<Option<Delta>>,
    /// The standby's file I/O over the window, when a rule asks for that alone first (see
    /// [`Self::s_io`]).
    s_io: OnceCell<Option<Delta>>,
    /// The newest recovery-area message of the standby's window and its severity: six rules
    /// ask at every instant (`standby_state::fra_full`), the window's messages are read once.
    pub(crate) standby_fra_message: OnceCell<Option<(DgMessage, Severity)>>,
    /// The window's commit decomposition, computed once ([`Self::commit`]).
    commit: OnceCell<Option<CommitDecomposition>>,
    /// The standby's lag decomposition, computed once by `causes::state` (`state::lags`).
    pub(crate) lags: OnceCell<LagDecomposition>,
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
            engine,
            now: engine.latest().unwrap_or_default(),
            window,
            primary,
            standby_slot,
            standby,
            standby_current,
            p: OnceCell::new(),
            s: OnceCell::new(),
            s_io: OnceCell::new(),
            standby_fra_message: OnceCell::new(),
            commit: OnceCell::new(),
            lags: OnceCell::new(),
        }
    }

    /// The window's commit decomposition (docs/FINDINGS.md, "Impact"), computed on first use
    /// and shared by every rule: `None` without commits.
    pub fn commit(&self, th: &Thresholds) -> Option<&CommitDecomposition> {
        self.commit
            .get_or_init(|| CommitDecomposition::of(self.p()?, self.remote_side(), th))
            .as_ref()
    }

    /// What is known of the SYNC leg besides the primary's figures: the RFS write of the
    /// slowest SYNC AFFIRM member the commits wait for (matched by name), and whether every
    /// SYNC destination acknowledges on receipt. Asked only when the leg exists.
    pub fn remote_side(&self) -> RemoteSide {
        let sync = self.sync_dests();
        let affirm: Vec<&&Dest> = sync.iter().filter(|d| d.affirm).collect();
        let leg = match (self.remote(), self.lfpw()) {
            (Some(r), l) => r > l.unwrap_or(0.0),
            (None, _) => false,
        };
        RemoteSide {
            rfs_ms: if leg {
                affirm
                    .iter()
                    .filter_map(|d| self.rfs_of(d))
                    .max_by(f64::total_cmp)
            } else {
                None
            },
            noaffirm: !sync.is_empty() && affirm.is_empty(),
            sync_stalls: sync
                .iter()
                .any(|d| self.dest_resp(d.id).is_some_and(|r| r.1 > 0)),
        }
    }

    /// The primary's delta over the window. Computed once, on first use: a context built
    /// only for a member's state (the overview) never pays for the window's deltas.
    pub fn p(&self) -> Option<&Delta> {
        self.p
            .get_or_init(|| self.primary.and_then(|s| s.window(self.window)))
            .as_ref()
    }

    /// The standby's delta over the window while its samples are current (the stale rule).
    pub fn s(&self) -> Option<&Delta> {
        self.s
            .get_or_init(|| {
                self.standby
                    .filter(|_| self.standby_current)
                    .and_then(|s| s.window(self.window))
            })
            .as_ref()
    }

    /// The standby's window for its file I/O (`iostat`, `secs`): the whole delta when a rule
    /// has asked for it already, else the I/O part alone, the same figures at a fraction of
    /// the cost (standby-io-saturated asks at every instant; no other rule of a healthy pair
    /// needs the standby's window).
    pub fn s_io(&self) -> Option<&Delta> {
        if let Some(s) = self.s.get() {
            return s.as_ref();
        }
        self.s_io
            .get_or_init(|| {
                self.standby
                    .filter(|_| self.standby_current)
                    .and_then(|s| s.window_parts(self.window, Parts::Io))
            })
            .as_ref()
    }

    pub fn window_len_s(&self) -> Option<f64> {
        self.p().map(|d| d.secs)
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

    /// The average foreground `log file sync` (the total where a source has no split): the
    /// commit symptom.
    pub fn lfs(&self) -> Option<f64> {
        self.p()?.lfs_fg().map(|x| x.0)
    }

    pub fn lfs_waits(&self) -> u64 {
        self.p()
            .and_then(|d| d.event(event::LOG_FILE_SYNC))
            .map_or(0, |e| e.waits)
    }

    pub fn lfpw(&self) -> Option<f64> {
        self.p()?
            .event_avg(event::LOG_FILE_PARALLEL_WRITE)
            .map(|m| m.0)
    }

    /// The SYNC remote write average. On 11.2 it is `LNS wait on SENDREQ`, which the ASYNC
    /// shipping process waits on too: it is in the commit path only with a SYNC destination.
    pub fn remote(&self) -> Option<f64> {
        let p = self.p()?;
        if let Some(m) = p.event_avg(event::SYNC_REMOTE_WRITE) {
            return Some(m.0);
        }
        self.sync_dest()?;
        p.event_avg(event::LNS_WAIT_ON_SENDREQ).map(|m| m.0)
    }

    pub fn rfs(&self) -> Option<f64> {
        self.s()?.rfs_avg().map(|m| m.0)
    }

    /// `redo write broadcast ack time` per commit (RAC broadcast on commit), in ms: the part
    /// of `log file sync` spent waiting for the other instances' acknowledgement, beyond
    /// the log write. `None` without the statistic or commits.
    pub fn broadcast_ms(&self) -> Option<f64> {
        broadcast_ms(self.p()?)
    }

    /// The standby's role as it reports it (`db.role`), never guessed from the slot name.
    pub fn standby_role(&self) -> Option<&Role> {
        self.standby?.last_good()?.role()
    }

    /// The panes' standby is a far sync instance: transport only, nothing to apply.
    pub fn standby_is_far_sync(&self) -> bool {
        self.standby_role().is_some_and(Role::is_far_sync)
    }

    /// Remote SYNC destinations of the primary. `SYNC Remote Write` is one event summed
    /// over all of them, so with more than one it mixes their round trips.
    pub fn sync_dests(&self) -> Vec<&Dest> {
        self.dests()
            .iter()
            .filter(|d| d.mode.is_sync() && d.status != DestStatus::Inactive)
            .collect()
    }

    /// The monitored member a destination ships to, matched by `DB_UNIQUE_NAME` (never by
    /// position). Only when no member reports a name at all is the one receiving slot
    /// taken as the target (recordings from before names were read).
    pub fn member_for(&self, d: &Dest) -> Option<&'a SlotSeries> {
        let primary = self.engine.primary_slot();
        let members: Vec<(&Slot, &'a SlotSeries)> = self
            .engine
            .slots()
            .filter(|(k, _)| Some(*k) != primary)
            .collect();
        let name_of = |s: &SlotSeries| -> Option<String> {
            s.last_good()?
                .db
                .as_ref()?
                .name
                .as_deref()
                .map(String::from)
        };
        if let Some(target) = d.db_unique_name.as_deref().or(d.name.as_deref()) {
            if let Some((_, s)) = members
                .iter()
                .find(|(_, s)| name_of(s).is_some_and(|n| n.eq_ignore_ascii_case(target)))
            {
                return Some(s);
            }
        }
        let unnamed = members.iter().all(|(_, s)| name_of(s).is_none());
        match members.as_slice() {
            [(_, only)] if unnamed => Some(only),
            _ => None,
        }
    }

    /// A member's delta over the window while its samples are current (the stale rule).
    /// The panes' standby's is the context's own, borrowed (a rule asks at every instant).
    pub fn member_delta(&self, m: &SlotSeries) -> Option<Cow<'_, Delta>> {
        if self.standby.is_some_and(|s| std::ptr::eq(s, m)) {
            return self.s().map(Cow::Borrowed);
        }
        m.current()?;
        m.window(self.window).map(Cow::Owned)
    }

    /// The RFS write latency of the member a destination ships to (ms).
    pub fn rfs_of(&self, d: &Dest) -> Option<f64> {
        let m = self.member_for(d)?;
        self.member_delta(m)?.rfs_avg().map(|x| x.0)
    }

    /// The member a destination ships to is a far sync instance.
    pub fn dest_is_far_sync(&self, d: &Dest) -> bool {
        d.dest_type
            .as_deref()
            .is_some_and(|t| t.eq_ignore_ascii_case("FAR SYNC"))
            || self
                .member_for(d)
                .and_then(|m| m.last_good()?.role().cloned())
                .is_some_and(|r| r.is_far_sync())
    }

    /// `V$REDO_DEST_RESP_HISTOGRAM` of one destination over the window: (responses,
    /// responses of 2 s and more). Each SYNC destination is judged from its own buckets.
    pub fn dest_resp(&self, dest_id: u32) -> Option<(u64, u64)> {
        let last = self.p_last()?;
        let from = self.p()?.from;
        let first = self
            .primary?
            .raw_samples_from(from)
            .next()
            .filter(|s| s.t < last.t)?;
        let hist = |s: &Sample| -> Option<Vec<(u64, u64)>> {
            Some(s.dests.iter().find(|d| d.id == dest_id)?.resp_hist.clone())
        };
        let (a, b) = (hist(first)?, hist(last)?);
        let mut total = 0;
        let mut slow = 0;
        for (secs, n) in &b {
            let before = a.iter().find(|x| x.0 == *secs).map_or(0, |x| x.1);
            let d = n.checked_sub(before)?;
            total += d;
            if *secs >= 2 {
                slow += d;
            }
        }
        Some((total, slow))
    }

    /// The member the panes' standby receives redo from when it is not the primary (a far
    /// sync or a cascading standby): from its own `V$DATAGUARD_CONFIG` row, else the
    /// monitored member whose destinations name it.
    pub fn upstream(&self) -> Option<&'a SlotSeries> {
        let me = self.standby?;
        let last = me.last_good()?;
        let my_name = last.db.as_ref()?.name.as_deref()?;
        let primary = self.engine.primary_slot();
        let parent = last
            .dg_config
            .as_ref()
            .and_then(|c| c.first())
            .filter(|m| m.name.eq_ignore_ascii_case(my_name))
            .and_then(|m| m.parent.clone());
        self.engine
            .slots()
            .filter(|(k, s)| Some(*k) != primary && !std::ptr::eq(*s, me))
            .map(|(_, s)| s)
            .find(|s| {
                let Some(l) = s.last_good() else { return false };
                let name = l.db.as_ref().and_then(|d| d.name.as_deref());
                match &parent {
                    Some(p) => name.is_some_and(|n| n.eq_ignore_ascii_case(p)),
                    None => l.dests.iter().any(|d| {
                        d.db_unique_name
                            .as_deref()
                            .is_some_and(|n| n.eq_ignore_ascii_case(my_name))
                    }),
                }
            })
    }

    /// The lag of the panes' standby behind the member it receives from (its own hop of
    /// the chain): its transport lag less the upstream member's, both current.
    pub fn hop_transport_lag(&self) -> Option<(String, f64)> {
        let up = self.upstream()?;
        let up_last = up.current()?;
        let up_lag = up_last.dg.as_ref()?.transport_lag_s?.0;
        let name = String::from(up_last.db.as_ref()?.name.clone()?);
        Some((name, (self.transport_lag()? - up_lag).max(0.0)))
    }

    /// Remote destinations as the primary's newest sample lists them.
    pub fn dests(&self) -> &[Dest] {
        self.p_last().map_or(&[], |s| s.dests.as_slice())
    }

    /// Destinations that forward redo between standbys, with the member that sends on
    /// them: the far sync or cascading standby the panes' standby receives from, and the
    /// panes' standby itself when it is a far sync. Only from current samples (the stale
    /// rule): an old ERROR is not shown as now.
    pub fn forwarding_dests(&self) -> Vec<(&'a str, &'a Dest)> {
        let mut senders: Vec<&'a SlotSeries> = self.upstream().into_iter().collect();
        if self.standby_is_far_sync() {
            senders.extend(self.standby);
        }
        senders
            .into_iter()
            .filter_map(|m| {
                let s = m.current()?;
                let name = s.db.as_ref()?.name.as_deref()?;
                Some(s.dests.iter().map(move |d| (name, d)))
            })
            .flatten()
            .collect()
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

    /// The primary's points of the last `secs` seconds, oldest first.
    pub fn primary_points(&self, secs: f64) -> Vec<&Point> {
        self.primary
            .map_or(Vec::new(), |p| points_since(p, self.now, secs))
    }

    /// The standby's points of the last `secs` seconds, oldest first; empty while its samples
    /// fail: a trend that ends in stale figures is not a trend now.
    pub fn standby_points(&self, secs: f64) -> Vec<&Point> {
        self.standby
            .filter(|_| self.standby_current)
            .map_or(Vec::new(), |p| points_since(p, self.now, secs))
    }

    /// Good standby samples of the last `secs` seconds, newest first; empty while stale.
    pub fn standby_recent(&self, secs: f64) -> Vec<&Arc<Sample>> {
        match self.standby.filter(|_| self.standby_current) {
            Some(st) => recent_samples(st, self.now, secs),
            None => Vec::new(),
        }
    }

    /// The newest good standby sample, if it is within the last `secs` seconds (the first of
    /// [`Self::standby_recent`]); `None` while stale.
    pub fn standby_newest(&self, secs: f64) -> Option<&Arc<Sample>> {
        let st = self.standby.filter(|_| self.standby_current)?;
        let from = secs_before(self.now, secs);
        st.raw_samples().next_back().filter(|s| s.t >= from)
    }

    /// Good standby samples of the last `secs` seconds that carry Data Guard messages, newest
    /// first; empty while stale.
    pub fn standby_with_messages(&self, secs: f64) -> Vec<&Arc<Sample>> {
        let from = secs_before(self.now, secs);
        match self.standby.filter(|_| self.standby_current) {
            Some(st) => st.samples_with_messages_from(from).rev().collect(),
            None => Vec::new(),
        }
    }

    /// Good primary samples of the last `secs` seconds that carry Data Guard messages,
    /// newest first.
    pub fn primary_with_messages(&self, secs: f64) -> Vec<&Arc<Sample>> {
        let from = secs_before(self.now, secs);
        self.primary.map_or(Vec::new(), |st| {
            st.samples_with_messages_from(from).rev().collect()
        })
    }

    /// The newest good primary sample, if it is within the last `secs` seconds.
    pub fn primary_newest(&self, secs: f64) -> Option<&Arc<Sample>> {
        let from = secs_before(self.now, secs);
        self.primary?
            .raw_samples()
            .next_back()
            .filter(|s| s.t >= from)
    }

    /// The oldest good primary sample of the last `secs` seconds that `pred` accepts, found
    /// from the window's start (a binary search), not by collecting the window.
    pub fn primary_oldest(
        &self,
        secs: f64,
        pred: impl Fn(&Arc<Sample>) -> bool,
    ) -> Option<&Arc<Sample>> {
        let from = secs_before(self.now, secs);
        self.primary?.raw_samples_from(from).find(|s| pred(s))
    }

    /// Since when the primary's good samples have shown destination `d`'s current gap status
    /// without a break (kept by the engine as samples arrive, however long ago).
    pub fn primary_gap_since(&self, d: &Dest) -> Option<Timestamp> {
        self.primary?.dest_gap_since(d.id, d.gap.as_deref())
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

    /// The destination that ships to this standby: the primary's, or for a cascaded
    /// terminal standby the one of the member it receives from (a far sync), matched by
    /// `DB_UNIQUE_NAME` (never by order); else the only remote destination there is, when
    /// it names nobody else.
    pub fn standby_dest(&self) -> Option<&Dest> {
        let dests = self.dests();
        let dest_name = |d: &Dest| d.db_unique_name.clone().or(d.name.clone());
        if let Some(name) = self.standby_name() {
            let named = |d: &&Dest| dest_name(d).is_some_and(|n| n.eq_ignore_ascii_case(name));
            if let Some(d) = dests.iter().find(named) {
                return Some(d);
            }
            if let Some(d) = self
                .upstream()
                .and_then(|u| u.last_good())
                .and_then(|l| l.dests.iter().find(named))
            {
                return Some(d);
            }
        }
        match dests {
            [only] if self.standby_name().is_none() || dest_name(only).is_none() => Some(only),
            [only] if self.upstream().is_none() => Some(only),
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

    /// w_await (ms) of a file type on the primary and on the standby over the window.
    pub fn w_await(&self, ft: &str) -> (Option<f64>, Option<f64>) {
        let get = |d: Option<&Delta>| d?.io(ft)?.w_await.map(|m| m.0);
        (get(self.p()), get(self.s_io()))
    }

    pub fn log_file_w_await(&self) -> (Option<f64>, Option<f64>) {
        self.w_await(filetype::LOG_FILE)
    }
}

/// `redo write broadcast ack time` per commit in ms (see [`Delta::broadcast_ack_ms`]).
pub(crate) fn broadcast_ms(d: &Delta) -> Option<f64> {
    d.broadcast_ack_ms()
}

fn is_mrp(p: &Process) -> bool {
    starts_with_ignore_case(&p.name, "MRP")
        || p.name.eq_ignore_ascii_case("MR(FG)")
        || p.role
            .as_deref()
            .is_some_and(|r| r.eq_ignore_ascii_case("managed recovery"))
}

fn is_recovery_slave(p: &Process) -> bool {
    starts_with_ignore_case(&p.name, "PR")
        || p.role
            .as_deref()
            .is_some_and(|r| starts_with_ignore_case(r, "recovery"))
}

/// The start of the last `secs` seconds before `now` (any `secs`: the conversion saturates).
fn secs_before(now: Timestamp, secs: f64) -> Timestamp {
    now.add_millis(-(secs * 1000.0) as i64)
}

/// A series' points from `secs` before `now`: points are in time order (the engine drops a
/// sample older than its slot's last), so the window's start is a binary search, not a walk
/// of the whole history at every instant.
fn points_since(st: &SlotSeries, now: Timestamp, secs: f64) -> Vec<&Point> {
    let from = secs_before(now, secs);
    let first = st.points().partition_point(|p| p.t < from);
    st.points().iter_from(first).collect()
}

/// Good samples of `st` within `secs` of `now`, newest first.
fn recent_samples(st: &SlotSeries, now: Timestamp, secs: f64) -> Vec<&Arc<Sample>> {
    let from = secs_before(now, secs);
    st.raw_samples().rev().take_while(|s| s.t >= from).collect()
}

/// True when `pred` holds for every sample of `samples` (newest first) and they span at
/// least 90 % of `secs`: a condition that has lasted, not one sample's word.
pub(crate) fn held_for(
    samples: &[&Arc<Sample>],
    secs: f64,
    pred: impl Fn(&Sample) -> bool,
) -> bool {
    if secs <= 0.0 {
        return samples.first().is_some_and(|s| pred(s));
    }
    let (Some(newest), Some(oldest)) = (samples.first(), samples.last()) else {
        return false;
    };
    newest.t.secs_since(oldest.t) >= secs * 0.9 && samples.iter().all(|s| pred(s))
}
