//! Entries in time order as a source's clock gave them: a lone sample stamped far ahead
//! taken out, and a step back of the whole source's clock followed on. Every reader of a
//! recording that judges it (`check`, the reports, `replay`) reads through [`Steady`], so a
//! clock step means the same in each.

use super::recording::Entry;
use super::Slot;
use crate::timestamp::Timestamp;

/// Slots watched for "behind": as many as a driver feeds.
const MAX_SLOTS: usize = super::MAX_SLOTS;

/// How far a sample may be stamped ahead of everything before it without a second entry
/// agreeing: a clock that stepped forward for one sample (NTP, a wrong host clock) is not a
/// new time for the whole recording.
pub const AHEAD_MS: i64 = 300_000;

/// Entries with lone samples stamped far ahead taken out, and a step back of the whole
/// source's clock followed on.
///
/// Ahead: an entry more than [`AHEAD_MS`] beyond every entry before it is held until the next
/// one: when the next one is near it, time really moved (a gap in the recording, a standby
/// back after an outage) and both go on; when the next one is back where the stream was, the
/// held one stood alone and is dropped and counted. Without this, every later sample of its
/// slot would read as "earlier than the one before" and be skipped: a standby judged healthy
/// on 3 samples of 600.
///
/// Behind: a sample earlier than its slot's last is held until the next entry. When that one
/// is behind its own slot's last too, and near the held one, the source's clock stepped back
/// (an NTP step on the sampling host): from there every entry is judged as following on, its
/// time moved by the step, instead of hundreds of samples skipped as out of order. Otherwise
/// the held sample stood alone and goes on to the engine, which skips it and says so.
pub struct Steady<I> {
    inner: I,
    held: Option<Entry>,
    ready: std::collections::VecDeque<Entry>,
    frontier: Option<Timestamp>,
    dropped: usize,
    first: Option<(Option<Slot>, Timestamp)>,
    /// Each slot's latest time (after the shift), for "behind".
    last: std::collections::BTreeMap<Slot, Timestamp>,
    /// What is added to every entry's time since the clock stepped back.
    shift_ms: i64,
    /// The smallest step between two instants seen: where a followed-on stretch starts.
    interval_ms: Option<i64>,
    /// Each step of the clock: where it was (the time before it) and by how much the times
    /// after it were moved (later for a step back, earlier, negative, for one forward).
    steps: Vec<(Timestamp, i64)>,
    /// Each slot's host clock at its latest sample: `V$OSSTAT`'s BUSY_TIME + IDLE_TIME in
    /// centiseconds, per CPU. It counts the host's time whatever the sampler's wall clock
    /// does, so a gap it did not see is the sampler's clock stepping forward.
    host_cs: std::collections::BTreeMap<Slot, HostClock>,
    /// Whether marks are judged like samples (held when far ahead, and moving the frontier);
    /// replay places a mark by its time and never waits on it, so it passes them as they are.
    judge_marks: bool,
    /// The earliest and latest sample times passed, for a clock set wrong (year 9999).
    span: Option<(Timestamp, Timestamp)>,
}

/// Sample times before this (2000-01-01) or from this on (2100-01-01) are no clock's now: a
/// source whose clock was set wrong, said once.
const PLAUSIBLE_MS: std::ops::Range<i64> = 946_684_800_000..4_102_444_800_000;

impl<I> Steady<I> {
    pub fn new(inner: I) -> Self {
        Steady {
            inner,
            held: None,
            ready: std::collections::VecDeque::new(),
            frontier: None,
            dropped: 0,
            first: None,
            last: std::collections::BTreeMap::new(),
            shift_ms: 0,
            interval_ms: None,
            steps: Vec::new(),
            host_cs: std::collections::BTreeMap::new(),
            judge_marks: true,
            span: None,
        }
    }

    /// As [`Steady::new`], marks passed as they are: neither held when far ahead nor
    /// moving the stream's time (an old recording's notes took the wall clock).
    pub fn passing_marks(inner: I) -> Self {
        Steady {
            judge_marks: false,
            ..Steady::new(inner)
        }
    }

    /// The iterator read through.
    pub fn get_ref(&self) -> &I {
        &self.inner
    }

    /// How many steps back of the clock were followed on so far.
    pub fn step_count(&self) -> usize {
        self.steps.len()
    }

    fn pass(&mut self, e: Entry) {
        if !self.judge_marks && matches!(e, Entry::Mark(_)) {
            self.ready.push_back(e);
            return;
        }
        let t = e.t();
        if let Some(f) = self.frontier.filter(|f| t > *f) {
            let d = t.ms - f.ms;
            self.interval_ms = Some(self.interval_ms.map_or(d, |m| m.min(d)));
        }
        self.frontier = Some(self.frontier.map_or(t, |f| f.max(t)));
        if let Entry::Sample(s) = &e {
            self.span = Some(self.span.map_or((t, t), |(a, b)| (a.min(t), b.max(t))));
            // No clone of the slot's name per sample: only its first.
            let room = self.last.len() < MAX_SLOTS;
            match self.last.get_mut(&s.slot) {
                Some(l) => *l = (*l).max(t),
                None if room => {
                    self.last.insert(s.slot.clone(), t);
                }
                None => {}
            }
            if let Some(cs) = host_clock(s) {
                let room = self.host_cs.len() < MAX_SLOTS;
                match self.host_cs.get_mut(&s.slot) {
                    Some(c) => *c = cs,
                    None if room => {
                        self.host_cs.insert(s.slot.clone(), cs);
                    }
                    None => {}
                }
            }
        }
        self.ready.push_back(e);
    }

    /// Whether `e` is a sample earlier than its slot's latest.
    fn behind(&self, e: &Entry) -> bool {
        match e {
            Entry::Sample(s) => self.last.get(&s.slot).is_some_and(|&l| s.t < l),
            Entry::Mark(_) => false,
        }
    }

    /// When the first entry taken out was stamped, if any was.
    pub fn first_at(&self) -> Option<Timestamp> {
        self.first.as_ref().map(|f| f.1)
    }

    /// One line for stderr and the JSON `warnings` when a sample was taken out.
    pub fn warning(&self, user: &str) -> Option<String> {
        let (slot, t) = self.first.as_ref()?;
        let slot = slot
            .as_ref()
            .map_or_else(|| "a mark".to_string(), |s| format!("slot {s}"));
        Some(format!(
            "{} entr{} stamped more than {} min ahead of the rest and not followed by any other were skipped (first: {slot} at {t}); {user} uses the rest",
            self.dropped,
            if self.dropped == 1 { "y" } else { "ies" },
            AHEAD_MS / 60_000
        ))
    }

    /// Every line for stderr and the JSON `warnings`: each step followed on, then the entries
    /// taken out.
    pub fn warnings(&self, user: &str) -> Vec<String> {
        let mut out: Vec<String> = self.steps(user).into_iter().map(|(_, l)| l).collect();
        out.extend(self.warning(user));
        out.extend(self.implausible(user));
        out
    }

    /// One line when samples are stamped before 2000 or from 2100 on: the times are taken as
    /// they are (the judgement does not depend on the date), but no clock was right.
    pub fn implausible(&self, user: &str) -> Option<String> {
        self.implausible_at(user).map(|(_, line)| line)
    }

    /// As [`Steady::implausible`], with the first such time (where a timeline says it).
    pub fn implausible_at(&self, user: &str) -> Option<(Timestamp, String)> {
        let (a, b) = self.span?;
        let odd = [a, b].into_iter().find(|t| !PLAUSIBLE_MS.contains(&t.ms))?;
        Some((
            a,
            format!(
                "samples are stamped {odd}, outside 2000..2100: the source's clock was set wrong? {user} takes the times as they are"
            ),
        ))
    }

    /// Each step of the source's clock followed on: where (the last time before it, as
    /// judged) and one line for stderr, the JSON `warnings` and a report's timeline.
    pub fn steps(&self, user: &str) -> Vec<(Timestamp, String)> {
        self.steps
            .iter()
            .map(|&(at, ms)| {
                let by = crate::display::dur(ms.unsigned_abs() as f64 / 1000.0);
                let line = if ms >= 0 {
                    format!(
                        "the source's clock stepped back {by} after {at} (an NTP step?): {user} takes the samples after it as following on, {by} later than stamped"
                    )
                } else {
                    format!(
                        "the source's clock stepped forward {by} after {at} (an NTP step? the databases' hosts counted less time): {user} takes the samples after it as following on, {by} earlier than stamped"
                    )
                };
                (at, line)
            })
            .collect()
    }

    /// What `e`'s host clock says of the gap before it, against its slot's last sample:
    /// the sampler's clock stepped forward (by its stamp less its slot's last one less the
    /// time the host counted, in whole intervals, at least one), time really passed, or
    /// nothing (no counters to compare).
    fn host_says(&self, e: &Entry) -> HostSays {
        let Entry::Sample(s) = e else {
            return HostSays::Nothing;
        };
        let (Some(now), Some(then), Some(before)) = (
            host_clock(s),
            self.host_cs.get(&s.slot),
            self.last.get(&s.slot),
        ) else {
            return HostSays::Nothing;
        };
        let stamped_ms = s.t.ms - before.ms;
        let counted_s = (now.cs_per_cpu - then.cs_per_cpu) / 100.0;
        // Another CPU count, counters back (a restart), or more counted than stamped: not
        // the same host's clock (a switchover or failover, a RAC instance gone or back), so
        // nothing says the sampler's clock jumped.
        if now.cpus != then.cpus || !(0.0..=stamped_ms as f64 / 1000.0 + 1.0).contains(&counted_s) {
            return HostSays::TimePassed;
        }
        let interval = self.interval_ms.unwrap_or(1000).max(1);
        let counted_ms = ((counted_s * 1000.0 / interval as f64).round() as i64).max(1) * interval;
        let step = stamped_ms - counted_ms;
        // Hosts count a little less than the time that passed (a virtual machine's stolen
        // time is neither busy nor idle): only a host that saw less than half the gap says
        // the sampler's clock jumped.
        if step > AHEAD_MS && counted_ms * 2 < stamped_ms {
            HostSays::Stepped(step)
        } else {
            HostSays::TimePassed
        }
    }

    /// How far the sampler's clock stepped forward at `h`, stamped far ahead of everything
    /// before it with `e`, the next entry, agreeing: `h`'s host must say so, and `e`'s, when
    /// it is another database's sample with counters, too (two hosts that both counted too
    /// little are no switchover: one of them would have counted too much).
    fn step_forward(&self, h: &Entry, e: &Entry) -> Option<i64> {
        let HostSays::Stepped(step) = self.host_says(h) else {
            return None;
        };
        match (h, e) {
            (Entry::Sample(a), Entry::Sample(b)) if a.slot != b.slot => match self.host_says(e) {
                HostSays::TimePassed => None,
                HostSays::Stepped(_) | HostSays::Nothing => Some(step),
            },
            _ => Some(step),
        }
    }
}

/// A sample's host clock: `V$OSSTAT`'s BUSY_TIME + IDLE_TIME (centiseconds, all CPUs) per
/// CPU, and the CPU count it was divided by.
#[derive(Debug, Clone, Copy, PartialEq)]
struct HostClock {
    cs_per_cpu: f64,
    cpus: f64,
}

/// What a host's clock says of a gap in the sampler's stamps.
enum HostSays {
    /// The sampler's clock stepped forward by this many ms.
    Stepped(i64),
    /// The host counted the gap (sampling really stopped), or is not the same host.
    TimePassed,
    /// No counters to compare.
    Nothing,
}

/// A sample's host clock; `None` without BUSY_TIME, IDLE_TIME and NUM_CPUS.
fn host_clock(s: &super::Sample) -> Option<HostClock> {
    use super::names::os;
    let cpus = *s.os.get(os::NUM_CPUS)?;
    let ticks = s.os.get(os::BUSY_TIME)? + s.os.get(os::IDLE_TIME)?;
    (cpus >= 1.0 && ticks.is_finite()).then(|| HostClock {
        cs_per_cpu: ticks / cpus,
        cpus,
    })
}

fn shifted(mut e: Entry, ms: i64) -> Entry {
    if ms != 0 {
        match &mut e {
            Entry::Sample(s) => s.t.ms += ms,
            Entry::Mark(m) => m.t.ms += ms,
        }
    }
    e
}

impl<I, E> Iterator for Steady<I>
where
    I: Iterator<Item = Result<Entry, E>>,
{
    type Item = Result<Entry, E>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(e) = self.ready.pop_front() {
                return Some(Ok(e));
            }
            let e = match self.inner.next() {
                None => {
                    // Nothing contradicts a held entry at the end: it stands.
                    let h = self.held.take()?;
                    self.pass(h);
                    continue;
                }
                Some(Err(e)) => return Some(Err(e)),
                Some(Ok(e)) => shifted(e, self.shift_ms),
            };
            let t = e.t();
            if let Some(h) = self.held.take() {
                // A mark passed as it is says nothing about the held sample's time.
                if !self.judge_marks && matches!(e, Entry::Mark(_)) {
                    self.held = Some(h);
                    self.ready.push_back(e);
                    continue;
                }
                if self.behind(&h) {
                    // Held as behind: the clock stepped back if this one agrees.
                    let near = t.ms >= h.t().ms - AHEAD_MS && t.ms <= h.t().ms + AHEAD_MS;
                    if near && (self.behind(&e) || matches!(e, Entry::Mark(_))) {
                        let frontier = self.frontier.unwrap_or(h.t());
                        let step = frontier.ms - h.t().ms + self.interval_ms.unwrap_or(1000);
                        self.shift_ms += step;
                        self.steps.push((frontier, step));
                        let (h, e) = (shifted(h, step), shifted(e, step));
                        self.pass(h);
                        self.pass(e);
                    } else {
                        self.pass(h);
                        self.pass(e);
                    }
                    continue;
                }
                if t.ms >= h.t().ms - AHEAD_MS {
                    // Time moved for the sampler; if not for the databases' hosts, its
                    // clock stepped forward: the stretch from here follows on.
                    if let Some(step) = self.step_forward(&h, &e) {
                        let at = self.frontier.unwrap_or(h.t());
                        self.shift_ms -= step;
                        self.steps.push((at, -step));
                        let (h, e) = (shifted(h, -step), shifted(e, -step));
                        self.pass(h);
                        self.pass(e);
                        continue;
                    }
                    self.pass(h);
                } else {
                    self.dropped += 1;
                    let slot = match &h {
                        Entry::Sample(s) => Some(s.slot.clone()),
                        Entry::Mark(_) => None,
                    };
                    self.first.get_or_insert((slot, h.t()));
                }
                self.pass(e);
                continue;
            }
            let judged = self.judge_marks || matches!(e, Entry::Sample(_));
            if judged && self.frontier.is_some_and(|f| t.ms > f.ms + AHEAD_MS) || self.behind(&e) {
                self.held = Some(e);
                continue;
            }
            self.pass(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::Sample;

    fn s(slot: &str, ms: i64) -> Result<Entry, ()> {
        Ok(Entry::Sample(Box::new(Sample::new(
            Timestamp { ms },
            Slot(slot.into()),
        ))))
    }

    fn times(v: Vec<Result<Entry, ()>>) -> (Vec<(String, i64)>, Option<String>) {
        let mut st = Steady::new(v.into_iter());
        let out = st
            .by_ref()
            .map(|e| match e.unwrap() {
                Entry::Sample(s) => (s.slot.to_string(), s.t.ms),
                Entry::Mark(m) => ("mark".into(), m.t.ms),
            })
            .collect();
        (out, st.warning("the judgement"))
    }

    /// Year 9999 and year 0000 are taken as they are, and said once; 2026 says nothing.
    #[test]
    fn a_clock_set_to_another_century_is_said() {
        let at = |ms: i64| {
            let mut st = Steady::new(vec![s("primary", ms), s("primary", ms + 1000)].into_iter());
            assert_eq!(st.by_ref().count(), 2);
            st.warnings("check")
        };
        assert!(at(1_764_478_800_000).is_empty(), "2025-11-30");
        // 9999-12-31 and 0000-01-01.
        for ms in [253_402_214_400_000, -62_167_219_200_000] {
            let w = at(ms);
            assert_eq!(w.len(), 1, "{w:?}");
            assert!(w[0].contains("outside 2000..2100"), "{w:?}");
            assert!(w[0].contains("check takes the times as they are"), "{w:?}");
        }
    }

    #[test]
    fn a_lone_sample_stamped_an_hour_ahead_is_dropped_and_said() {
        let hour = 3_600_000;
        let (out, w) = times(vec![
            s("primary", 1000),
            s("standby", 1000),
            s("primary", 2000),
            s("standby", 2000 + hour),
            s("primary", 3000),
            s("standby", 3000),
        ]);
        assert_eq!(
            out,
            [
                ("primary".into(), 1000),
                ("standby".into(), 1000),
                ("primary".into(), 2000),
                ("primary".into(), 3000),
                ("standby".into(), 3000),
            ]
        );
        let w = w.unwrap();
        assert!(
            w.starts_with("1 entry stamped more than 5 min ahead"),
            "{w}"
        );
        assert!(w.contains("slot standby at"), "{w}");
    }

    #[test]
    fn a_real_gap_keeps_every_entry() {
        let hour = 3_600_000;
        let v = vec![
            s("primary", 1000),
            s("standby", 1000),
            s("primary", 1000 + hour),
            s("standby", 1000 + hour),
            s("primary", 2000 + hour),
        ];
        let (out, w) = times(v);
        assert_eq!(out.len(), 5);
        assert_eq!(w, None);
        // A single slot back after a gap, and a jump that is the last entry, stand too.
        let (out, _) = times(vec![s("p", 0), s("p", hour), s("p", hour + 1000)]);
        assert_eq!(out.len(), 3);
        let (out, _) = times(vec![s("p", 0), s("p", hour)]);
        assert_eq!(out.len(), 2);
    }
    #[test]
    fn a_step_back_of_the_whole_source_is_followed_on_not_dropped() {
        let minute = 60_000;
        let mut v = Vec::new();
        for i in 0..5 {
            v.push(s("primary", i * 1000));
            v.push(s("standby", i * 1000));
        }
        // The host's clock steps back two minutes after 4 s.
        for i in 5..8 {
            v.push(s("primary", i * 1000 - 2 * minute));
            v.push(s("standby", i * 1000 - 2 * minute));
        }
        let mut st = Steady::new(v.into_iter());
        let out: Vec<(String, i64)> = st
            .by_ref()
            .map(|e| match e.unwrap() {
                Entry::Sample(s) => (s.slot.to_string(), s.t.ms),
                Entry::Mark(m) => ("mark".into(), m.t.ms),
            })
            .collect();
        // Every sample kept, the stretch after the step following on one interval later.
        let times: Vec<i64> = out.iter().map(|o| o.1).collect();
        assert_eq!(
            times,
            [
                0, 0, 1000, 1000, 2000, 2000, 3000, 3000, 4000, 4000, 5000, 5000, 6000, 6000, 7000,
                7000
            ]
        );
        assert_eq!(st.warning("x"), None);
        let steps = st.steps("the judgement");
        assert_eq!(steps.len(), 1);
        assert_eq!(steps[0].0.ms, 4000);
        assert!(
            steps[0]
                .1
                .starts_with("the source's clock stepped back 2m00s after"),
            "{}",
            steps[0].1
        );
    }

    #[test]
    fn a_lone_sample_behind_goes_on_to_be_skipped_and_a_single_slot_steps_too() {
        // Lone: the next entry is where the stream was; the engine skips and says it.
        let (out, w) = times(vec![s("p", 1000), s("p", 2000), s("p", 500), s("p", 3000)]);
        assert_eq!(
            out.iter().map(|o| o.1).collect::<Vec<_>>(),
            [1000, 2000, 500, 3000]
        );
        assert_eq!(w, None);
        // One slot whose clock stepped back: followed on.
        let mut st = Steady::new(
            vec![s("p", 10_000), s("p", 11_000), s("p", 1000), s("p", 2000)].into_iter(),
        );
        let out: Vec<i64> = st.by_ref().map(|e| e.unwrap().t().ms).collect();
        assert_eq!(out, [10_000, 11_000, 12_000, 13_000]);
        assert_eq!(st.steps("x").len(), 1);
    }

    /// A sample of `slot` at `ms` whose host has counted `host_s` seconds (4 CPUs).
    fn timed(slot: &str, ms: i64, host_s: f64) -> Result<Entry, ()> {
        timed_on(slot, ms, host_s, 4.0)
    }

    fn timed_on(slot: &str, ms: i64, host_s: f64, cpus: f64) -> Result<Entry, ()> {
        use crate::sample::names::os;
        let mut x = Sample::new(Timestamp { ms }, Slot(slot.into()));
        x.os.insert(os::NUM_CPUS.into(), cpus);
        x.os.insert(os::BUSY_TIME.into(), host_s * 25.0 * cpus);
        x.os.insert(os::IDLE_TIME.into(), host_s * 75.0 * cpus);
        Ok(Entry::Sample(Box::new(x)))
    }

    /// A switchover during a 40-minute outage: the primary's slot now reads the host that
    /// was the standby's (up 30 min less), and the other way round. One host seems to have
    /// counted too little, the other too much: a gap, as stamped, not a step. The same with
    /// one slot whose host came back with another CPU count.
    #[test]
    fn a_host_change_across_a_gap_is_no_step_forward() {
        let gap = 2_400_000;
        let (a, b) = (100_000.0, 100_000.0 - 1800.0);
        let mut v = Vec::new();
        for i in 0..3i64 {
            v.push(timed("primary", 1000 * i, a + i as f64));
            v.push(timed("standby", 1000 * i, b + i as f64));
        }
        for i in 3..6i64 {
            let host_s = 2400.0 + i as f64;
            v.push(timed("primary", 1000 * i + gap, b + host_s));
            v.push(timed("standby", 1000 * i + gap, a + host_s));
        }
        let mut st = Steady::new(v.into_iter());
        let out: Vec<i64> = st.by_ref().map(|e| e.unwrap().t().ms).collect();
        assert_eq!(out[6], 3000 + gap);
        assert!(st.steps("x").is_empty(), "{:?}", st.steps("x"));

        let v = vec![
            timed_on("primary", 0, 10.0, 4.0),
            timed_on("primary", 1000, 11.0, 4.0),
            timed_on("primary", 2000 + gap, 12.0, 8.0),
            timed_on("primary", 3000 + gap, 13.0, 8.0),
        ];
        let mut st = Steady::new(v.into_iter());
        let out: Vec<i64> = st.by_ref().map(|e| e.unwrap().t().ms).collect();
        assert_eq!(out[2], 2000 + gap);
        assert!(st.steps("x").is_empty());
    }

    /// Issue 28.4: the sampler's clock stepped forward an hour after 3 s while the
    /// databases' hosts counted one second: the stretch after it follows on, one interval
    /// after the last sample before it, and the step is said. Had the hosts counted the hour
    /// too, sampling really stopped: a gap, as stamped. Without the hosts' counters nothing
    /// tells them apart: a gap.
    #[test]
    fn a_step_forward_is_told_from_a_gap_by_the_hosts_own_counters() {
        let hour = 3_600_000;
        let stamped = |host_gap_s: f64, with_os: bool| {
            let mut v = Vec::new();
            for i in 0..6i64 {
                let (ms, host) = if i < 3 {
                    (1000 * (i + 1), (i + 1) as f64)
                } else {
                    (1000 * (i + 1) + hour, (i + 1) as f64 + host_gap_s)
                };
                for slot in ["primary", "standby"] {
                    v.push(if with_os {
                        timed(slot, ms, 1000.0 + host)
                    } else {
                        s(slot, ms)
                    });
                }
            }
            let mut st = Steady::new(v.into_iter());
            let out: Vec<i64> = st.by_ref().map(|e| e.unwrap().t().ms).collect();
            (out, st.steps("check"))
        };
        let (out, steps) = stamped(0.0, true);
        assert_eq!(
            out,
            [1000, 1000, 2000, 2000, 3000, 3000, 4000, 4000, 5000, 5000, 6000, 6000]
        );
        assert_eq!(steps.len(), 1, "{steps:?}");
        assert_eq!(steps[0].0.ms, 3000);
        assert!(
            steps[0]
                .1
                .starts_with("the source's clock stepped forward 1h00m after"),
            "{}",
            steps[0].1
        );
        // A host that lost a fifth of the hour (stolen time on a virtual machine) still saw
        // it: a gap.
        for (gap, with_os) in [(3600.0, true), (2880.0, true), (0.0, false)] {
            let (out, steps) = stamped(gap, with_os);
            assert_eq!(out[6], 4000 + hour, "host gap {gap}, os {with_os}");
            assert!(steps.is_empty(), "{steps:?}");
        }
    }
}
