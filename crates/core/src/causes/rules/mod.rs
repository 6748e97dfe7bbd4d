//! One file per cause family. A rule looks at the context and, when its condition holds now,
//! returns the finding it would raise; hysteresis and ranking happen in the engine.

mod commit_path;
mod commit_tail;
mod config;
mod db_time;
mod ids;
mod lag;
mod member_state;
mod primary;
mod spec;
mod standby_state;
pub mod waits_now;
pub(crate) mod weigh;

pub use spec::{Chart, Hold, Kind, Needs, Reads, RuleSpec, Scope, Tier};

pub(crate) use config::{srl_layout, switches_per_hour};
pub(crate) use primary::primary_stalled;

use super::context::Context;
use super::finding::{Evidence, Finding, Severity};
use super::impact::Impact;
use super::thresholds::Thresholds;

pub type Rule = fn(&Context, &Thresholds) -> Option<Finding>;

/// Every registered rule, family by family: a rule is its record in its family's `RULES`
/// ([`RuleSpec`]); nothing else lists it.
const FAMILIES: &[&[RuleSpec]] = &[
    commit_path::RULES,
    commit_tail::RULES,
    db_time::RULES,
    config::RULES,
    lag::RULES,
    standby_state::RULES,
    member_state::RULES,
    primary::RULES,
];

/// Every registered rule.
pub fn all() -> impl Iterator<Item = &'static RuleSpec> {
    FAMILIES.iter().flat_map(|f| f.iter())
}

/// The record of the rule `id`.
pub fn spec(id: &str) -> Option<&'static RuleSpec> {
    all().find(|r| r.id == id)
}

/// How far back the registered rules read under `th`: what a driver must keep.
pub fn needs(th: &Thresholds) -> Needs {
    spec::needs(all(), th)
}

pub(crate) use standby_state::STANDBY_FRA_FULL;

pub(crate) fn ev(
    metric: &str,
    value: f64,
    unit: &str,
    threshold: Option<String>,
    source: &str,
) -> Evidence {
    Evidence {
        metric: metric.to_string(),
        value,
        unit: unit.to_string(),
        threshold,
        source: source.to_string(),
    }
}

/// The parts every finding has; rules fill in the rest.
pub(crate) struct Draft {
    pub id: &'static str,
    pub severity: Severity,
    pub title: String,
    pub evidence: Vec<Evidence>,
    pub meaning: &'static str,
    pub advice: &'static [&'static str],
    /// How much of which symptom it explains (see `rules::weigh`).
    pub impact: Impact,
}

impl Draft {
    pub(crate) fn finish(self, ctx: &Context) -> Finding {
        let mut evidence = self.evidence;
        // A rule that reads the waits in flight and did not cite them itself: a commit
        // waiting now for longer than the window's average says the path stalls now.
        let reads_now =
            spec(self.id).is_some_and(|r| r.reads.iter().any(|x| matches!(x, Reads::WaitsNow)));
        if reads_now && !evidence.iter().any(|e| e.source == waits_now::SESSION_VIEW) {
            evidence.extend(waits_now::lfs_beyond_average(ctx));
        }
        Finding {
            id: self.id,
            severity: self.severity,
            title: self.title,
            evidence,
            meaning: self.meaning.to_string(),
            // The record's keys: one list per rule, whatever the finding says.
            verify: spec(self.id).map_or_else(Vec::new, |r| r.verify.to_vec()),
            advice: self.advice.iter().map(|s| s.to_string()).collect(),
            what_if: Vec::new(),
            kind: spec(self.id).map_or(super::impact::FindingKind::Problem, |r| r.finding),
            impact: self.impact,
            since: ctx.now,
            caused_by: None,
            standby: None,
        }
    }
}

impl Draft {
    /// As [`Draft::finish`], with advice built from the finding's own evidence instead of
    /// the static list (advice must never contradict what the evidence shows).
    pub(crate) fn finish_advising(self, ctx: &Context, advice: Vec<String>) -> Finding {
        let mut f = self.finish(ctx);
        f.advice = advice;
        f
    }
}

pub(crate) fn ms(v: f64) -> String {
    format!("{v:.2} ms")
}

#[cfg(test)]
mod registry_tests {
    use super::*;
    use std::collections::BTreeSet;

    const FINDINGS_MD: &str = include_str!("../../../../../docs/FINDINGS.md");

    /// The ids quoted in the docs paragraph that starts with `lead`.
    fn quoted_in_paragraph(lead: &str) -> BTreeSet<String> {
        let start = FINDINGS_MD
            .find(lead)
            .unwrap_or_else(|| panic!("FINDINGS.md has no paragraph starting {lead:?}"));
        let para = &FINDINGS_MD[start..];
        let para = &para[..para.find("\n- ").unwrap_or(para.len())];
        para.split('`')
            .skip(1)
            .step_by(2)
            .filter(|w| spec(w).is_some())
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn every_rule_is_registered_once_with_what_it_reads_and_verifies() {
        let mut ids = BTreeSet::new();
        for r in all() {
            assert!(ids.insert(r.id), "{} registered twice", r.id);
            assert!(!r.reads.is_empty(), "{} declares nothing it reads", r.id);
            assert!(!r.verify.is_empty(), "{} names nothing to verify", r.id);
            assert!(
                !r.severity.is_empty(),
                "{} has no documented severity",
                r.id
            );
        }
        assert_eq!(ids.len(), 37);
    }

    #[test]
    fn findings_md_documents_exactly_the_registered_rules_with_their_severities() {
        let headings: BTreeSet<(String, String)> = FINDINGS_MD
            .lines()
            .filter_map(|l| l.strip_prefix("### `"))
            .filter_map(|l| l.split_once("` — "))
            .map(|(id, sev)| (id.to_string(), sev.trim().to_string()))
            .collect();
        let registered: BTreeSet<(String, String)> = all()
            .map(|r| (r.id.to_string(), r.severity.to_string()))
            .collect();
        assert_eq!(
            headings, registered,
            "docs/FINDINGS.md headings vs the registry"
        );
    }

    /// Every finding's section cites where its advice comes from (an Oracle document, a MOS
    /// note): a command or parameter in the advice is checkable.
    #[test]
    fn every_finding_in_findings_md_names_its_sources() {
        for section in FINDINGS_MD.split("\n### `").skip(1) {
            let id = section.split('`').next().unwrap_or("");
            let body = section.split("\n## ").next().unwrap_or("");
            assert!(
                body.contains("\n**Sources:** "),
                "docs/FINDINGS.md: {id} has no **Sources:** line"
            );
        }
    }

    #[test]
    fn findings_md_lists_the_scope_and_hold_the_records_declare() {
        let each: BTreeSet<String> = all()
            .filter(|r| r.scope == Scope::EachStandby)
            .map(|r| r.id.to_string())
            .collect();
        assert_eq!(quoted_in_paragraph("- **Every standby.**"), each);
        let state_hold: BTreeSet<String> = all()
            .filter(|r| r.hold == Hold::State)
            .map(|r| r.id.to_string())
            .collect();
        assert_eq!(quoted_in_paragraph("- **Hysteresis.**"), state_hold);
    }

    #[test]
    fn needs_take_the_longest_span_and_ignore_nonsense() {
        let th = Thresholds::default();
        let n = needs(&th);
        assert_eq!(
            n.raw_s,
            th.stale_datum_s.max(th.state_hold_s - th.raise_after_s)
        );
        assert_eq!(
            n.trend_s,
            th.apply_rate_window_s.max(th.transport_rise_window_s)
        );
        let odd = Thresholds {
            stale_datum_s: f64::NAN,
            state_hold_s: 60.0,
            ..Thresholds::default()
        };
        assert_eq!(needs(&odd).raw_s, 60.0 - odd.raise_after_s);
    }
}
