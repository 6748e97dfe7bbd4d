//! The twin reads its slow parts (logs, switches, params, recovery area, configuration) on the
//! Oracle source's cadence: in the first sample of each slot and then once a minute. Between
//! reads a sample carries none of them, as a live sample does, so recordings of the twin are
//! as small as recordings of a database.
//!
//! [`SlowParts::Repeated`] writes the last value read in every sample instead: the version 1
//! shape, which consumers must read to the same results.

use dgscope_model::sample::slow::{self, SLOW_EVERY_MS};
use dgscope_model::sample::{Sample, Slot};
use std::collections::BTreeMap;

/// How the twin writes its slow parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SlowParts {
    /// Only in the samples that read them (what the Oracle source does).
    #[default]
    WhenRead,
    /// The latest value read in every sample (recordings of version 1).
    Repeated,
}

#[derive(Debug, Default)]
pub(crate) struct Cadence {
    pub mode: SlowParts,
    /// Per slot: the sample time of the last read and what was read then.
    last: BTreeMap<Slot, (i64, Sample)>,
}

impl Cadence {
    /// Applies the cadence to a freshly assembled sample (which has every part, read now).
    pub(crate) fn apply(&mut self, s: &mut Sample) {
        let due = self
            .last
            .get(&s.slot)
            .is_none_or(|(t, _)| s.t.ms - t >= SLOW_EVERY_MS || s.t.ms < *t);
        if due {
            let mut keep = Sample::new(s.t, s.slot.clone());
            slow::fill(&mut keep, s);
            self.last.insert(s.slot.clone(), (s.t.ms, keep));
            return;
        }
        for p in slow::SLOW_PARTS {
            slow::clear(s, p);
        }
        if self.mode == SlowParts::Repeated {
            if let Some((_, read)) = self.last.get(&s.slot) {
                slow::fill(s, read);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Scenario, Twin};
    use dgscope_model::source::PullSource;

    #[test]
    fn slow_parts_come_once_a_minute_or_repeated() {
        let mut twin = Twin::new(Scenario::HealthySync, 4);
        let mut rep = Twin::new(Scenario::HealthySync, 4);
        rep.set_slow_parts(SlowParts::Repeated);
        let mut read_at = Vec::new();
        for _ in 0..130 {
            let (a, b) = (twin.next_tick().unwrap(), rep.next_tick().unwrap());
            for (x, y) in a.samples.iter().zip(&b.samples) {
                assert!(y.logs.is_some() && y.params.is_some() && y.fra.is_some());
                if x.logs.is_some() {
                    assert!(x.params.is_some() && x.fra.is_some());
                    assert_eq!(x.switches.is_some(), x.slot == Slot::primary());
                    assert_eq!((&x.logs, &x.fra), (&y.logs, &y.fra));
                    read_at.push((x.slot.to_string(), x.t.ms / 1000 % 3600));
                } else {
                    assert!(x.params.is_none() && x.fra.is_none() && x.switches.is_none());
                }
                // Everything else is the same in both forms.
                assert_eq!(
                    (&x.events, &x.stats, &x.dests),
                    (&y.events, &y.stats, &y.dests)
                );
            }
        }
        let at = |slot: &str| -> Vec<i64> {
            read_at
                .iter()
                .filter(|(s, _)| s == slot)
                .map(|x| x.1)
                .collect()
        };
        assert_eq!(at("primary"), [1, 61, 121]);
        assert_eq!(at("standby"), [1, 61, 121]);
    }
}
