//! Samples a slot delivered out of time order or twice: the engine and the reports' window
//! accumulators skip them, and every reader of a stream (check, report impact, report
//! histogram) tells the user with this one check.

use dgscope_model::sample::recording::Entry;
use dgscope_model::sample::Slot;
use dgscope_model::timestamp::Timestamp;

/// Samples a slot delivered out of time order or twice; the engine skips them, the user is told.
#[derive(Debug, Default)]
pub struct OrderCheck {
    last: std::collections::BTreeMap<Slot, Timestamp>,
    earlier: usize,
    repeated: usize,
    first_bad: Option<(Slot, Timestamp)>,
}

impl OrderCheck {
    pub fn see(&mut self, slot: &Slot, t: Timestamp) {
        match self.last.get(slot) {
            Some(&prev) if t <= prev => {
                if t == prev {
                    self.repeated += 1;
                } else {
                    self.earlier += 1;
                }
                self.first_bad.get_or_insert((slot.clone(), t));
            }
            // The driver feeds at most MAX_SLOTS slots: so many are watched here too.
            None if self.last.len() >= super::MAX_SLOTS => {}
            _ => {
                self.last.insert(slot.clone(), t);
            }
        }
    }

    /// When the first skipped sample was stamped, if any was.
    pub fn first_at(&self) -> Option<Timestamp> {
        self.first_bad.as_ref().map(|f| f.1)
    }

    /// One line for stderr and the JSON `warnings` (`user`: who uses the rest, e.g.
    /// "the judgement", "the report"), when anything was skipped.
    pub fn warning(&self, user: &str) -> Option<String> {
        let (slot, t) = self.first_bad.as_ref()?;
        Some(format!(
            "{} sample(s) earlier than the one before and {} repeated sample(s) were skipped (first: slot {slot} at {t}); {user} uses the rest",
            self.earlier, self.repeated
        ))
    }
}

/// How far a sample may be stamped ahead of everything before it without a second entry
/// agreeing: a clock that stepped forward for one sample (NTP, a wrong host clock) is not a
/// new time for the whole recording.
pub(crate) const AHEAD_MS: i64 = 300_000;

/// Entries with lone samples stamped far ahead taken out. An entry more than [`AHEAD_MS`]
/// beyond every entry before it is held until the next one: when the next one is near it,
/// time really moved (a gap in the recording, a standby back after an outage) and both go
/// on; when the next one is back where the stream was, the held one stood alone and is
/// dropped and counted. Without this, every later sample of its slot would read as "earlier
/// than the one before" and be skipped: a standby judged healthy on 3 samples of 600.
pub struct Steady<I> {
    inner: I,
    held: Option<Entry>,
    ready: std::collections::VecDeque<Entry>,
    frontier: Option<Timestamp>,
    dropped: usize,
    first: Option<(Option<Slot>, Timestamp)>,
}

impl<I> Steady<I> {
    pub fn new(inner: I) -> Self {
        Steady {
            inner,
            held: None,
            ready: std::collections::VecDeque::new(),
            frontier: None,
            dropped: 0,
            first: None,
        }
    }

    fn pass(&mut self, e: Entry) {
        let t = e.t();
        self.frontier = Some(self.frontier.map_or(t, |f| f.max(t)));
        self.ready.push_back(e);
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
                Some(Ok(e)) => e,
            };
            let t = e.t();
            if let Some(h) = self.held.take() {
                if t.ms >= h.t().ms - AHEAD_MS {
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
            if self.frontier.is_some_and(|f| t.ms > f.ms + AHEAD_MS) {
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
    use dgscope_model::sample::Sample;

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
}
