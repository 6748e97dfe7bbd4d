//! The rules engine: evaluates every rule on each new sample, applies hysteresis (a condition
//! must hold 15 s to raise a finding and be false 30 s to clear it) and ranks what is raised.

use super::context::Context;
use super::finding::Severity;
use super::finding::{Assessment, Finding};
use super::rules::{self, Hold, Kind, Tier};
use super::thresholds::Thresholds;
use crate::metrics::{Engine, Window};
use dgscope_model::sample::Slot;
use dgscope_model::timestamp::Timestamp;
use std::collections::BTreeMap;

#[derive(Debug, Default, Clone)]
struct RuleState {
    /// When the condition started to hold without interruption.
    true_since: Option<Timestamp>,
    /// When a raised finding's condition stopped holding.
    false_since: Option<Timestamp>,
    raised: Option<Finding>,
}

/// A change in what is raised, for incident timelines.
#[derive(Debug, Clone, PartialEq)]
pub enum Transition {
    Raised(Finding),
    /// `standby`: as [`Finding::standby`] of the finding that cleared.
    Cleared {
        id: &'static str,
        at: Timestamp,
        standby: Option<String>,
    },
}

#[derive(Debug, Clone)]
pub struct CauseEngine {
    thresholds: Thresholds,
    /// Each registered rule's state, in the registry's order (`rules::all()`): found by
    /// position at every instant, not looked up by id.
    states: Vec<RuleState>,
    /// Positions in `states` ordered by rule id: findings are gathered in id order before
    /// ranking, so equal ranks come out the same way at every run.
    by_id: Vec<usize>,
    last_eval: Option<Timestamp>,
}

impl Default for CauseEngine {
    fn default() -> Self {
        CauseEngine::new(Thresholds::default())
    }
}

impl CauseEngine {
    pub fn new(thresholds: Thresholds) -> Self {
        let ids: Vec<&str> = rules::all().map(|r| r.id).collect();
        let mut by_id: Vec<usize> = (0..ids.len()).collect();
        by_id.sort_by_key(|&i| ids[i]);
        CauseEngine {
            thresholds,
            states: vec![RuleState::default(); ids.len()],
            by_id,
            last_eval: None,
        }
    }

    pub fn thresholds(&self) -> &Thresholds {
        &self.thresholds
    }

    /// Evaluates the rules at the metrics' newest instant over `window` and returns the ranked
    /// findings. Calling it twice for the same instant does not advance hysteresis.
    pub fn assess(&mut self, metrics: &Engine, window: Window) -> Assessment {
        self.assess_for(metrics, window, None).0
    }

    /// As [`assess`], for a chosen standby, also returning what was raised or cleared now.
    pub fn assess_for(
        &mut self,
        metrics: &Engine,
        window: Window,
        standby: Option<&Slot>,
    ) -> (Assessment, Vec<Transition>) {
        let th = &self.thresholds;
        let ctx = Context::new(metrics, window, standby);
        let now = ctx.now;
        // Rates need commits to average; a primary with none is idle or frozen. A frozen one
        // (stall waits on the commit path) is judged by the state rules, never "warming up".
        let rates_ready = ctx.primary_samples() >= th.min_samples && ctx.lfs_waits() > 0;
        let warming_up = !rules::primary_stalled(&ctx)
            && (ctx.primary_samples() < th.min_samples || ctx.lfs_waits() == 0);
        let standby_stale = ctx.standby.is_some() && !ctx.standby_current;
        // The member's role decides (a far sync passed as --standby has a standby slot).
        let transport_only = ctx.standby_is_far_sync();
        let fresh = self.last_eval.is_none_or(|t| now > t);
        let mut transitions = Vec::new();
        if fresh {
            self.last_eval = Some(now);
            for (spec, st) in rules::all().zip(self.states.iter_mut()) {
                let id = spec.id;
                let current = if (!rates_ready && spec.kind != Kind::State)
                    || (transport_only && spec.apply)
                {
                    None
                } else {
                    (spec.eval)(&ctx, th)
                };
                match current {
                    Some(mut f) => {
                        st.false_since = None;
                        let since = *st.true_since.get_or_insert(now);
                        f.since = since;
                        let was_raised = st.raised.is_some();
                        if was_raised
                            || spec.hold == Hold::Evidence
                            || now.secs_since(since) >= th.raise_after_s
                        {
                            if !was_raised {
                                transitions.push(Transition::Raised(f.clone()));
                            } else if let Some(old) = &st.raised {
                                f.since = old.since;
                            }
                            st.raised = Some(f);
                        }
                    }
                    None => {
                        st.true_since = None;
                        // Judged from the standby's figures, which are stale now: no longer
                        // shown as if current (the stale rule), so no clear delay.
                        if standby_stale && spec.standby_judged && st.raised.is_some() {
                            st.raised = None;
                            st.false_since = None;
                            transitions.push(Transition::Cleared {
                                id,
                                at: now,
                                standby: None,
                            });
                        } else if st.raised.is_some() {
                            let off = *st.false_since.get_or_insert(now);
                            if now.secs_since(off) >= th.clear_after_s {
                                st.raised = None;
                                st.false_since = None;
                                transitions.push(Transition::Cleared {
                                    id,
                                    at: now,
                                    standby: None,
                                });
                            }
                        }
                    }
                }
            }
        }
        let mut findings: Vec<Finding> = self
            .by_id
            .iter()
            .filter_map(|&i| self.states[i].raised.clone())
            .collect();
        rank(&mut findings);
        (
            Assessment {
                findings,
                warming_up,
                overview: Default::default(),
            },
            transitions,
        )
    }
}

/// Severity first, then the share of commit latency or lag explained, then id for stability;
/// with two refinements for chains of causes. A root cause ranks at the severity of the worst
/// finding it causes (a recovery area 90 % full is WARN, but the archive gap it causes is
/// CRIT: the root still comes first), and ahead of the findings that name it (`caused_by`).
/// Among equals, the standby's own state (catalog part 2) comes before the part-1 findings it
/// usually explains.
pub fn rank(findings: &mut [Finding]) {
    // A finding is one rule about one member: the first standby's (and the primary's) have
    // no `standby`, another standby's name it. A cause and what it explains are about the
    // same member.
    type Key = (&'static str, Option<String>);
    let key = |f: &Finding| -> Key { (f.id, f.standby.clone()) };
    let present: Vec<Key> = findings.iter().map(key).collect();
    let parent = |f: &Finding| -> Option<Key> {
        let up = (f.caused_by.filter(|c| *c != f.id)?, f.standby.clone());
        present.contains(&up).then_some(up)
    };
    let parents: BTreeMap<Key, Key> = findings
        .iter()
        .filter_map(|f| parent(f).map(|c| (key(f), c)))
        .collect();
    let mut severity: BTreeMap<Key, Severity> =
        findings.iter().map(|f| (key(f), f.severity)).collect();
    // Each finding lifts every ancestor; the hop bound guards against a cycle of links.
    for f in findings.iter() {
        let me = key(f);
        let mut at = me.clone();
        for _ in 0..findings.len() {
            let Some(up) = parents.get(&at).cloned() else {
                break;
            };
            let s = severity[&me].max(severity[&up]);
            severity.insert(up.clone(), s);
            at = up;
        }
    }
    let depth = |k: &Key| {
        let mut d = 0;
        let mut at = k;
        while let Some(up) = parents.get(at) {
            d += 1;
            at = up;
            if d > present.len() {
                break;
            }
        }
        d
    };
    let tier = |id: &str| usize::from(rules::spec(id).is_none_or(|r| r.tier != Tier::Root));
    findings.sort_by(|a, b| {
        let (ka, kb) = (key(a), key(b));
        severity[&kb]
            .cmp(&severity[&ka])
            .then(depth(&ka).cmp(&depth(&kb)))
            .then(tier(a.id).cmp(&tier(b.id)))
            .then(b.explains.total_cmp(&a.explains))
            .then(a.id.cmp(b.id))
            .then(a.standby.cmp(&b.standby))
    });
}
