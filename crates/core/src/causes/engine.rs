//! The rules engine: evaluates every rule on each new sample, applies hysteresis (a condition
//! must hold 15 s to raise a finding and be false 30 s to clear it) and ranks what is raised.

use super::assessment::Assessment;
use super::context::Context;
use super::finding::{Finding, Severity};
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
// Few and short-lived: boxing the finding would cost an allocation per raised finding for
// nothing.
#[allow(clippy::large_enum_variant)]
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
                match current.map(|f| gate(f, spec, th)) {
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
                decomposition: crate::causes::decomposition::Decomposition {
                    commit: ctx.commit(th).cloned(),
                    lag: Default::default(),
                },
            },
            transitions,
        )
    }
}

/// Weigh before you blame (docs/FINDINGS.md, "Impact"): a commit-path or rate finding is
/// WARN or CRIT only when it explains at least `impact_min_share` of its symptom and, where
/// DB time is known, at least `impact_min_db_time_pct` of DB time. Below, it is INFO and says
/// what it explains. An unknown share or DB time counts as mattering.
fn gate(mut f: Finding, spec: &rules::RuleSpec, th: &Thresholds) -> Finding {
    if !spec.weighed || f.severity == Severity::Info {
        return f;
    }
    let i = &f.impact;
    let small = i.share.is_some_and(|s| s < th.impact_min_share)
        || i.db_time_share
            .is_some_and(|d| d * 100.0 < th.impact_min_db_time_pct);
    if small {
        f.severity = Severity::Info;
    }
    f
}

/// Severity first; a finding that another explains (`caused_by`) right after that cause; the
/// standby's own state (catalog part 2) before measured symptoms; then by impact, the share
/// of DB time explained (or of its symptom where DB time is unknown); then id for stability.
/// A root cause ranks at the severity of the worst finding it causes (a recovery area 90 %
/// full is WARN, but the archive gap it causes is CRIT: the root still comes first).
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
    // Each finding's chain up to its root, root first (bounded against a cycle).
    let chain = |k: &Key| -> Vec<Key> {
        let mut out = vec![k.clone()];
        let mut at = k;
        while let Some(up) = parents.get(at) {
            if out.len() > present.len() {
                break;
            }
            out.push(up.clone());
            at = up;
        }
        out.reverse();
        out
    };
    let tier = |id: &str| usize::from(rules::spec(id).is_none_or(|r| r.tier != Tier::Root));
    let weight: BTreeMap<Key, f64> = findings
        .iter()
        .map(|f| (key(f), f.impact.weight()))
        .collect();
    // One node of a chain compared with another: severity, tier, weight, id, standby.
    let node = |a: &Key, b: &Key| {
        severity[b]
            .cmp(&severity[a])
            .then(tier(a.0).cmp(&tier(b.0)))
            .then(weight[b].total_cmp(&weight[a]))
            .then(a.0.cmp(b.0))
            .then(a.1.cmp(&b.1))
    };
    // Chains compare from their roots down: every finding sits right after the cause it
    // names, the cause's own group before the next root's.
    findings.sort_by(|a, b| {
        let (ca, cb) = (chain(&key(a)), chain(&key(b)));
        for (x, y) in ca.iter().zip(cb.iter()) {
            let o = node(x, y);
            if o != std::cmp::Ordering::Equal {
                return o;
            }
        }
        ca.len().cmp(&cb.len())
    });
}
