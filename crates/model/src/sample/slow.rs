//! Slow parts: what a source reads on a slower cadence than the sample (the Oracle source
//! reads them once a minute). A sample carries a slow part only when it was read; consumers
//! use the latest value read, with its age. Recordings of version 1 that repeat the parts in
//! every line give the same results, since repeating the latest value is what carrying does.

use super::{Sample, Slot};
use crate::timestamp::Timestamp;
use std::collections::BTreeMap;

/// The slow parts, by their recording key.
pub const SLOW_PARTS: [&str; 6] = [
    "logs",
    "switches",
    "params",
    "fra",
    "dg_config",
    "unrecoverable",
];

/// The slow part a finding's evidence comes from, by the view its source names
/// (`"V$STANDBY_LOG"`, `"V$SYSSTAT, V$LOG_HISTORY"` …): the first slow one named.
pub fn part_of_source(source: &str) -> Option<&'static str> {
    source.split(", ").find_map(|view| match view.trim() {
        "V$LOG" | "V$STANDBY_LOG" | "V$LOGFILE" => Some("logs"),
        "V$LOG_HISTORY" => Some("switches"),
        "V$PARAMETER" | "V$SYSTEM_PARAMETER" => Some("params"),
        "V$RECOVERY_FILE_DEST" | "V$RECOVERY_AREA_USAGE" => Some("fra"),
        "V$DATAGUARD_CONFIG" => Some("dg_config"),
        "V$DATAFILE" => Some("unrecoverable"),
        _ => None,
    })
}

/// How often the Oracle source reads the slow parts (and the twin, which follows it).
pub const SLOW_EVERY_MS: i64 = 60_000;

/// Whether `s` carries the slow part `part`.
pub fn has(s: &Sample, part: &str) -> bool {
    match part {
        "logs" => s.logs.is_some(),
        "switches" => s.switches.is_some(),
        "params" => s.params.is_some(),
        "fra" => s.fra.is_some(),
        "dg_config" => s.dg_config.is_some(),
        "unrecoverable" => s.unrecoverable.is_some(),
        _ => false,
    }
}

/// Drops the slow part `part` from `s`.
pub fn clear(s: &mut Sample, part: &str) {
    match part {
        "logs" => s.logs = None,
        "switches" => s.switches = None,
        "params" => s.params = None,
        "fra" => s.fra = None,
        "dg_config" => s.dg_config = None,
        "unrecoverable" => s.unrecoverable = None,
        _ => {}
    }
}

/// Whether `a` and `b` hold the same value of `part` (both absent counts as the same).
pub fn same(a: &Sample, b: &Sample, part: &str) -> bool {
    match part {
        "logs" => a.logs == b.logs,
        "switches" => a.switches == b.switches,
        "params" => a.params == b.params,
        "fra" => a.fra == b.fra,
        "dg_config" => a.dg_config == b.dg_config,
        "unrecoverable" => a.unrecoverable == b.unrecoverable,
        _ => true,
    }
}

/// Copies `part` from `from` into `to`.
fn copy(to: &mut Sample, from: &Sample, part: &str) {
    match part {
        "logs" => to.logs.clone_from(&from.logs),
        "switches" => to.switches.clone_from(&from.switches),
        "params" => to.params.clone_from(&from.params),
        "fra" => to.fra = from.fra,
        "dg_config" => to.dg_config.clone_from(&from.dg_config),
        "unrecoverable" => to.unrecoverable.clone_from(&from.unrecoverable),
        _ => {}
    }
}

/// Whether a good sample lacks a slow part that `prev` has, i.e. [`fill`] would change it.
pub fn needs_fill(s: &Sample, prev: &Sample) -> bool {
    !s.is_error() && SLOW_PARTS.iter().any(|p| !has(s, p) && has(prev, p))
}

/// Fills the slow parts `s` lacks from `prev` (the slot's previous good sample, itself filled).
pub fn fill(s: &mut Sample, prev: &Sample) {
    for p in SLOW_PARTS {
        if !has(s, p) && has(prev, p) {
            copy(s, prev, p);
        }
    }
}

/// When one slot's slow parts were last read: the age consumers show next to them.
#[derive(Debug, Clone, Default)]
pub struct ReadTimes {
    at: BTreeMap<&'static str, Timestamp>,
}

impl ReadTimes {
    /// Notes the parts `s` carries (before any filling) as read at `s.t`.
    pub fn observe(&mut self, s: &Sample) {
        if s.is_error() {
            return;
        }
        for p in SLOW_PARTS {
            if has(s, p) {
                self.at.insert(p, s.t);
            }
        }
    }

    /// When `part` was last read.
    pub fn read_at(&self, part: &str) -> Option<Timestamp> {
        self.at.get(part).copied()
    }

    /// Seconds between the last read of `part` and `now` (never negative).
    pub fn age_s(&self, part: &str, now: Timestamp) -> Option<f64> {
        self.read_at(part).map(|t| now.secs_since(t).max(0.0))
    }
}

/// The latest slow parts seen per slot: fills the samples of a stream that starts in the
/// middle of a recording (a seek) with what was read before the seek point.
#[derive(Debug, Clone, Default)]
pub struct Carry {
    latest: BTreeMap<Slot, Sample>,
}

impl Carry {
    /// Remembers the slow parts `s` carries.
    pub fn observe(&mut self, s: &Sample) {
        if s.is_error() || !SLOW_PARTS.iter().any(|p| has(s, p)) {
            return;
        }
        let e = self
            .latest
            .entry(s.slot.clone())
            .or_insert_with(|| Sample::new(s.t, s.slot.clone()));
        for p in SLOW_PARTS {
            if has(s, p) {
                copy(e, s, p);
            }
        }
    }

    /// Fills what `s` lacks from the latest parts of its slot.
    pub fn fill(&self, s: &mut Sample) {
        if let Some(prev) = self.latest.get(&s.slot) {
            if needs_fill(s, prev) {
                fill(s, prev);
            }
        }
    }

    /// Fills `s` once for its slot, then forgets the slot: past the first sample of a slot
    /// the consumer (the metrics engine) carries the parts itself.
    pub fn fill_once(&mut self, s: &mut Sample) {
        if s.is_error() {
            return;
        }
        if let Some(prev) = self.latest.remove(&s.slot) {
            if needs_fill(s, &prev) {
                fill(s, &prev);
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.latest.is_empty()
    }
}

/// Whether a recording line may carry a slow part (a skim for the keys, no parse).
pub fn line_may_carry(line: &[u8]) -> bool {
    const KEYS: [&[u8]; 6] = [
        b"\"logs\":",
        b"\"switches\":",
        b"\"params\":",
        b"\"fra\":",
        b"\"dg_config\":",
        b"\"unrecoverable\":",
    ];
    KEYS.iter().any(|k| line.windows(k.len()).any(|w| w == *k))
}

/// Turns a stream of samples that repeat their slow parts into one that carries each part
/// only when it changed or when `every_ms` passed since it was last written (so a part's age
/// stays within the source's cadence). Filling the output gives back the input.
#[derive(Debug, Clone, Default)]
pub struct Compactor {
    every_ms: i64,
    written: BTreeMap<Slot, (Sample, BTreeMap<&'static str, Timestamp>)>,
}

impl Compactor {
    pub fn new(every_ms: i64) -> Self {
        Compactor {
            every_ms,
            written: BTreeMap::new(),
        }
    }

    /// Drops from `s` the slow parts a reader would carry forward unchanged anyway.
    pub fn compact(&mut self, s: &mut Sample) {
        if s.is_error() {
            return;
        }
        let (last, at) = self
            .written
            .entry(s.slot.clone())
            .or_insert_with(|| (Sample::new(s.t, s.slot.clone()), BTreeMap::new()));
        for p in SLOW_PARTS {
            if !has(s, p) {
                continue;
            }
            let due = at
                .get(p)
                .is_none_or(|t| s.t.ms - t.ms >= self.every_ms || s.t.ms < t.ms);
            if !due && has(last, p) && same(s, last, p) {
                clear(s, p);
            } else {
                copy(last, s, p);
                at.insert(p, s.t);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::Fra;

    fn s(t: i64, fra: Option<u64>) -> Sample {
        let mut s = Sample::new(Timestamp::from_millis(t * 1000), Slot::primary());
        s.fra = fra.map(|u| Fra {
            limit_bytes: 100,
            used_bytes: u,
            reclaimable_bytes: 0,
            files: None,
        });
        s
    }

    #[test]
    fn compacting_then_filling_gives_back_the_input() {
        let input: Vec<Sample> = (0..200).map(|i| s(i, Some(10 + (i / 90) as u64))).collect();
        let mut c = Compactor::new(SLOW_EVERY_MS);
        let compacted: Vec<Sample> = input
            .iter()
            .map(|x| {
                let mut x = x.clone();
                c.compact(&mut x);
                x
            })
            .collect();
        // Written at 0 s, 60 s, on the change at 90 s, then 150 s; nowhere else.
        let kept: Vec<i64> = compacted
            .iter()
            .filter(|x| x.fra.is_some())
            .map(|x| x.t.ms / 1000)
            .collect();
        assert_eq!(kept, [0, 60, 90, 150, 180]);
        let mut prev: Option<Sample> = None;
        for (got, want) in compacted.into_iter().zip(&input) {
            let mut got = got;
            if let Some(p) = &prev {
                fill(&mut got, p);
            }
            assert_eq!(&got, want);
            prev = Some(got);
        }
    }

    #[test]
    fn read_times_age_the_parts_a_sample_carried() {
        let mut r = ReadTimes::default();
        r.observe(&s(5, Some(1)));
        r.observe(&s(30, None));
        assert_eq!(r.age_s("fra", Timestamp::from_millis(35_000)), Some(30.0));
        assert_eq!(r.age_s("logs", Timestamp::from_millis(35_000)), None);
    }

    #[test]
    fn carry_fills_only_what_is_missing() {
        let mut c = Carry::default();
        c.observe(&s(1, Some(7)));
        let mut later = s(2, None);
        c.fill(&mut later);
        assert_eq!(later.fra.unwrap().used_bytes, 7);
        let mut fresh = s(3, Some(9));
        c.fill(&mut fresh);
        assert_eq!(fresh.fra.unwrap().used_bytes, 9);
    }
}

#[cfg(test)]
mod source_tests {
    use super::part_of_source;

    #[test]
    fn a_source_names_its_slow_part_by_whole_view_names() {
        assert_eq!(part_of_source("V$STANDBY_LOG"), Some("logs"));
        assert_eq!(part_of_source("V$SYSSTAT, V$LOG_HISTORY"), Some("switches"));
        assert_eq!(part_of_source("V$RECOVERY_FILE_DEST"), Some("fra"));
        // V$LOG is a prefix of V$LOG_HISTORY, not the same view; fast views have no age.
        assert_eq!(part_of_source("V$LOGMNR_LOGS"), None);
        assert_eq!(part_of_source("V$SYSTEM_EVENT"), None);
        assert_eq!(part_of_source("V$DATAGUARD_STATS"), None);
    }
}
