//! One record per rule ([`RuleSpec`]): everything the engine, the driver, the screen and the
//! documentation need to know about a rule besides its condition. The engine reads when a
//! rule speaks and for whom from here, the driver derives how much raw history it keeps from
//! the records' [`Reads`], the drill-down picks its chart and the what-if figures their
//! changes here. A rule's record sits beside its condition in its family's file and is
//! registered by being in that file's `RULES` list.

use super::Rule;
use crate::causes::impact::FindingKind;
use crate::causes::thresholds::Thresholds;
use crate::causes::verify::VerifyKey;
use dgscope_model::sample::vocab::whatif::{Change, Observed};

/// When a rule may speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Judges rates and averages over the window: silent while the metrics warm up.
    Rate,
    /// Judges a state (a process, a status, an error): speaks from the first samples on.
    State,
}

/// Which members a rule is judged for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The primary's side of the pair (commit path, log switches, its destinations, the
    /// storage comparison with the standby the commit path waits on): judged once, with the
    /// first standby.
    Pair,
    /// A standby's own state and lag: judged for every monitored standby, each with its own
    /// hysteresis; a finding about a standby after the first names it.
    EachStandby,
}

/// Where a finding ranks among findings of equal severity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tier {
    /// The standby's own state (catalog part 2): usually the root cause of the lag that the
    /// rate rules measure, so it ranks first.
    Root,
    /// A measured symptom or its immediate cause.
    Measured,
}

/// How long a condition must hold before the finding is raised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hold {
    /// The engine's `raise_after_s`.
    Engine,
    /// `state_hold_s` in all: the rule checks the state over the raw samples of the last
    /// `state_hold_s − raise_after_s` seconds, the engine holds it for `raise_after_s` more.
    State,
    /// None in the engine: the condition carries its own duration (a wait in flight for
    /// 10 s has held 10 s), so the finding is raised the first time it holds.
    Evidence,
}

/// What a rule reads besides the latest sample of each member. The driver keeps at least
/// the longest raw and trend span any registered rule reads, whatever the command.
#[derive(Debug, Clone, Copy)]
pub enum Reads {
    /// The deltas of the causes window (rates, averages, histograms, messages).
    Window,
    /// The newest sample's state and the parts read once a minute.
    Latest,
    /// Raw primary samples of the last `f(thresholds)` seconds.
    PrimaryRaw(fn(&Thresholds) -> f64),
    /// Raw standby samples of the last `f(thresholds)` seconds.
    StandbyRaw(fn(&Thresholds) -> f64),
    /// The per-sample history points (lags, rates) of the last `f(thresholds)` seconds.
    Trend(fn(&Thresholds) -> f64),
    /// The primary's in-flight waits now (`V$SESSION`, its newest sample when current).
    WaitsNow,
}

/// The chart a finding's drill-down shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chart {
    /// The commit path's latencies (log file sync, log file parallel write, remote write).
    Commit,
    /// Transport and apply lag.
    Lag,
}

/// One rule: its id, its condition and how it is judged, kept, shown and documented.
#[derive(Clone, Copy)]
pub struct RuleSpec {
    /// The catalog id (docs/FINDINGS.md has a section of this name).
    pub id: &'static str,
    /// The condition: the finding it would raise now, or none.
    pub eval: Rule,
    /// The severities it raises, as docs/FINDINGS.md's heading gives them.
    pub severity: &'static str,
    pub kind: Kind,
    /// What its findings are, as ADDM types them: a cause (problem), a symptom of one, or
    /// information. A rule may say more of one finding (a symptom once its cause is known).
    pub finding: FindingKind,
    /// A commit-path or rate finding: WARN or CRIT only when it explains enough of a symptom
    /// that matters (`impact_min_share`, `impact_min_db_time_pct`), INFO below.
    pub weighed: bool,
    pub scope: Scope,
    /// A rule about redo apply: not judged for a far sync, which applies nothing.
    pub apply: bool,
    /// Judged from the standby's figures alone: when they go stale the finding clears at
    /// once instead of lingering through the clear delay as if it described now.
    pub standby_judged: bool,
    pub tier: Tier,
    pub hold: Hold,
    pub reads: &'static [Reads],
    pub chart: Chart,
    /// The changes worth a what-if figure for this finding, given what was observed.
    pub what_ifs: fn(&Observed) -> Vec<Change>,
    /// The views to query to check the finding by hand (resolved to SQL per release).
    pub verify: &'static [VerifyKey],
}

impl std::fmt::Debug for RuleSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RuleSpec").field("id", &self.id).finish()
    }
}

fn no_finding(_: &crate::causes::context::Context, _: &Thresholds) -> Option<super::Finding> {
    None
}

/// No what-if applies.
pub(super) fn no_what_ifs(_: &Observed) -> Vec<Change> {
    Vec::new()
}

/// The common settings a record starts from (`..BASE`): a rate rule about the pair, judged
/// after the engine's hold, read over the window, shown with the commit chart.
pub(super) const BASE: RuleSpec = RuleSpec {
    id: "",
    eval: no_finding,
    severity: "",
    kind: Kind::Rate,
    finding: FindingKind::Problem,
    weighed: false,
    scope: Scope::Pair,
    apply: false,
    standby_judged: false,
    tier: Tier::Measured,
    hold: Hold::Engine,
    reads: &[Reads::Window],
    chart: Chart::Commit,
    what_ifs: no_what_ifs,
    verify: &[],
};

/// How far back the registered rules read, in seconds: raw samples and trend points.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Needs {
    pub raw_s: f64,
    pub trend_s: f64,
}

/// The longest spans `rules` read under `th` (non-finite or negative spans count as 0).
pub(super) fn needs<'a>(rules: impl IntoIterator<Item = &'a RuleSpec>, th: &Thresholds) -> Needs {
    let finite = |s: f64| if s.is_finite() { s.max(0.0) } else { 0.0 };
    let mut n = Needs::default();
    for r in rules {
        for read in r.reads {
            match read {
                Reads::PrimaryRaw(f) | Reads::StandbyRaw(f) => {
                    n.raw_s = n.raw_s.max(finite(f(th)));
                }
                Reads::Trend(f) => n.trend_s = n.trend_s.max(finite(f(th))),
                Reads::Window | Reads::Latest | Reads::WaitsNow => {}
            }
        }
    }
    n
}
