//! What a driver has seen over its whole run, kept beside the rolling window: every finding
//! raised and cleared, and every mark, in order, with each finding's evidence as it last
//! stood while raised. The incident report reads it whether it comes from a recording
//! (`report incident`) or from the screen (`e`): one history, so a finding that cleared before
//! `e` was pressed is still in the report.

use crate::causes::{Finding, Transition};
use dgscope_model::sample::Mark;
use dgscope_model::timestamp::Timestamp;
use std::collections::{BTreeMap, VecDeque};

/// At most this many events are kept (a flapping finding on a week-long `serve` must not
/// grow without bound); the oldest go first and are counted.
pub(crate) const MAX_EVENTS: usize = 5_000;

/// One entry of the history.
#[derive(Debug, Clone, PartialEq)]
// Few and short-lived: boxing the finding would cost an allocation per raised finding for
// nothing.
#[allow(clippy::large_enum_variant)]
pub enum Event {
    Raised(Finding),
    Cleared {
        id: &'static str,
        at: Timestamp,
        standby: Option<String>,
    },
    Mark(Mark),
}

impl Event {
    pub fn t(&self) -> Timestamp {
        match self {
            Event::Raised(f) => f.since,
            Event::Cleared { at, .. } => *at,
            Event::Mark(m) => m.t,
        }
    }
}

/// A finding is one per id and standby (the first standby's findings have none).
type Key = (&'static str, Option<String>);

#[derive(Debug, Clone, Default)]
pub struct SessionLog {
    events: VecDeque<Event>,
    dropped: usize,
    findings: BTreeMap<Key, Finding>,
}

impl SessionLog {
    /// An assessment's transitions and the findings raised at it (their newest evidence).
    pub(crate) fn assessed(&mut self, transitions: &[Transition], raised: &[Finding]) {
        for tr in transitions {
            self.push(match tr {
                Transition::Raised(f) => Event::Raised(f.clone()),
                Transition::Cleared { id, at, standby } => Event::Cleared {
                    id,
                    at: *at,
                    standby: standby.clone(),
                },
            });
        }
        for f in raised {
            self.findings.insert((f.id, f.standby.clone()), f.clone());
        }
    }

    pub(crate) fn mark(&mut self, m: &Mark) {
        self.push(Event::Mark(m.clone()));
    }

    fn push(&mut self, e: Event) {
        if self.events.len() >= MAX_EVENTS {
            self.events.pop_front();
            self.dropped += 1;
        }
        self.events.push_back(e);
    }

    /// The events in the order they happened.
    pub fn events(&self) -> impl Iterator<Item = &Event> {
        self.events.iter()
    }

    /// Events dropped because the history was full (the oldest).
    pub fn dropped(&self) -> usize {
        self.dropped
    }

    /// Every finding raised during the run, cleared or not, with its evidence as it last
    /// stood while raised.
    pub fn findings(&self) -> impl Iterator<Item = &Finding> {
        self.findings.values()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::causes::Severity;

    fn finding(id: &'static str, t: i64, standby: Option<&str>) -> Finding {
        Finding {
            id,
            severity: Severity::Warn,
            title: format!("{id} at {t}"),
            evidence: vec![],
            meaning: String::new(),
            verify: vec![],
            advice: vec![],
            what_if: vec![],
            kind: crate::causes::FindingKind::Problem,
            impact: crate::causes::Impact::risk(),
            since: Timestamp { ms: t },
            caused_by: None,
            standby: standby.map(String::from),
        }
    }

    #[test]
    fn keeps_cleared_findings_and_marks_in_order_per_standby() {
        let mut log = SessionLog::default();
        let a = finding("lag-high", 1_000, None);
        let b = finding("lag-high", 1_000, Some("standby:prod_c"));
        log.assessed(&[Transition::Raised(a.clone())], std::slice::from_ref(&a));
        log.mark(&Mark {
            t: Timestamp { ms: 1_500 },
            text: "failover drill".into(),
        });
        let a2 = finding("lag-high", 2_000, None);
        log.assessed(&[Transition::Raised(b.clone())], &[a2.clone(), b.clone()]);
        log.assessed(
            &[Transition::Cleared {
                id: "lag-high",
                at: Timestamp { ms: 3_000 },
                standby: None,
            }],
            std::slice::from_ref(&b),
        );
        let t: Vec<i64> = log.events().map(|e| e.t().ms).collect();
        assert_eq!(t, [1_000, 1_500, 1_000, 3_000]);
        // Both standbys' findings stay, the first with its newest evidence while raised.
        let f: Vec<&Finding> = log.findings().collect();
        assert_eq!(f.len(), 2);
        assert_eq!(f[0].title, a2.title);
        assert_eq!(f[1].standby.as_deref(), Some("standby:prod_c"));
    }

    #[test]
    fn the_history_is_bounded_and_says_what_it_dropped() {
        let mut log = SessionLog::default();
        for i in 0..MAX_EVENTS + 3 {
            log.mark(&Mark {
                t: Timestamp { ms: i as i64 },
                text: String::new(),
            });
        }
        assert_eq!(log.events().count(), MAX_EVENTS);
        assert_eq!(log.dropped(), 3);
        assert_eq!(log.events().next().map(|e| e.t().ms), Some(3));
    }
}
