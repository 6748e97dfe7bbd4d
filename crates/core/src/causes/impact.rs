//! What a finding explains (docs/FINDINGS.md, "Impact"): how much of which symptom the user
//! feels would go away if its cause were fixed to its healthy reference. One unit per
//! symptom, so two findings can be weighed against each other; `None` where a figure is not
//! known, never 0.

use serde::Serialize;
use std::fmt;

/// What a user feels, each with its own unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Symptom {
    /// The average foreground `log file sync` of the window, ms.
    Commit,
    /// A standby's transport lag, s.
    TransportLag,
    /// A standby's apply lag net of a configured DELAY, s.
    ApplyLag,
    /// DB time of the window, s.
    DbTime,
    /// Foreground time in `log buffer space` and `log file switch …` waits, s.
    RedoStall,
    /// Nothing that takes time now: what the finding puts at risk (zero data loss, a
    /// failover, a full recovery area, the standby's capacity after a role change).
    Risk,
}

impl Symptom {
    pub const ALL: [Symptom; 6] = [
        Symptom::Commit,
        Symptom::TransportLag,
        Symptom::ApplyLag,
        Symptom::DbTime,
        Symptom::RedoStall,
        Symptom::Risk,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Symptom::Commit => "commit",
            Symptom::TransportLag => "transport-lag",
            Symptom::ApplyLag => "apply-lag",
            Symptom::DbTime => "db-time",
            Symptom::RedoStall => "redo-stall",
            Symptom::Risk => "risk",
        }
    }

    /// The one unit its amounts are in (`None` for a risk: no amount).
    pub fn unit(self) -> Option<&'static str> {
        match self {
            Symptom::Commit => Some("ms"),
            Symptom::TransportLag | Symptom::ApplyLag | Symptom::DbTime | Symptom::RedoStall => {
                Some("s")
            }
            Symptom::Risk => None,
        }
    }

    /// As a DBA reads it in a sentence.
    pub fn label(self) -> &'static str {
        match self {
            Symptom::Commit => "log file sync",
            Symptom::TransportLag => "the transport lag",
            Symptom::ApplyLag => "the apply lag",
            Symptom::DbTime => "DB time",
            Symptom::RedoStall => "the redo stalls",
            Symptom::Risk => "risk",
        }
    }
}

impl fmt::Display for Symptom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a finding relates to the symptom, as ADDM types its findings (PROBLEM, SYMPTOM,
/// INFORMATION).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FindingKind {
    /// A cause: it owns a part of a symptom.
    Problem,
    /// The symptom itself, or a consequence of another finding (`caused_by`): it restates
    /// what a cause explains and owns none of it.
    Symptom,
    /// Context for the user; it owns nothing and never pages.
    Info,
}

impl FindingKind {
    pub fn as_str(self) -> &'static str {
        match self {
            FindingKind::Problem => "problem",
            FindingKind::Symptom => "symptom",
            FindingKind::Info => "info",
        }
    }
}

/// How much of one symptom a finding explains.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Impact {
    pub symptom: Symptom,
    /// What would go away if the cause were fixed to its healthy reference, in `unit`.
    pub amount: Option<f64>,
    pub unit: Option<&'static str>,
    /// The symptom's own amount, in `unit`.
    pub of: Option<f64>,
    /// `amount / of`, in [0, 1].
    pub share: Option<f64>,
    /// `share` × the symptom's share of DB time, where DB time is known.
    pub db_time_share: Option<f64>,
    /// The standby a lag symptom belongs to (its slot).
    pub standby: Option<String>,
    /// The RAC instance whose commits these are, when judged per instance.
    pub instance: Option<u32>,
}

impl Impact {
    /// `amount` of a symptom `of` large whose own share of DB time is `symptom_db_share`
    /// (both where known). Amounts are clamped to `[0, of]`: a finding never explains more
    /// than the symptom, nor less than nothing.
    pub fn of(
        symptom: Symptom,
        amount: Option<f64>,
        of: Option<f64>,
        symptom_db_share: Option<f64>,
    ) -> Impact {
        let of = of.filter(|x| x.is_finite() && *x >= 0.0);
        let amount = amount.filter(|x| x.is_finite()).map(|a| match of {
            Some(o) => a.clamp(0.0, o),
            None => a.max(0.0),
        });
        let share = match (amount, of) {
            (Some(a), Some(o)) if o > 0.0 => Some((a / o).clamp(0.0, 1.0)),
            _ => None,
        };
        let db_time_share = share
            .zip(symptom_db_share.filter(|s| s.is_finite()))
            .map(|(s, d)| (s * d.clamp(0.0, 1.0)).clamp(0.0, 1.0));
        Impact {
            symptom,
            amount,
            unit: symptom.unit(),
            of,
            share,
            db_time_share,
            standby: None,
            instance: None,
        }
    }

    /// A risk: nothing measured takes time now.
    pub fn risk() -> Impact {
        Impact::of(Symptom::Risk, None, None, None)
    }

    /// The same symptom with another amount explained (`share` and `db_time_share`
    /// follow).
    pub fn with_amount(self, amount: Option<f64>) -> Impact {
        let db = self.symptom_db_share();
        Impact {
            standby: self.standby,
            instance: self.instance,
            ..Impact::of(self.symptom, amount, self.of, db)
        }
    }

    pub fn for_standby(mut self, slot: Option<String>) -> Impact {
        self.standby = slot;
        self
    }

    pub fn for_instance(mut self, inst: Option<u32>) -> Impact {
        self.instance = inst;
        self
    }

    /// The weight it ranks by: its share of DB time, else its share of the symptom.
    pub fn weight(&self) -> f64 {
        self.db_time_share.or(self.share).unwrap_or(0.0)
    }

    /// The symptom's own share of DB time (`db_time_share ÷ share`), where both are known.
    pub fn symptom_db_share(&self) -> Option<f64> {
        match (self.db_time_share, self.share) {
            (Some(d), Some(s)) if s > 0.0 => Some(d / s),
            _ => None,
        }
    }

    /// One sentence: "explains 72 % of log file sync: 2.1 of 2.9 ms; log file sync is 12 %
    /// of DB time".
    pub fn describe(&self, kind: FindingKind) -> String {
        if self.symptom == Symptom::Risk {
            return "a risk, not a share of a symptom: nothing it names takes time now".into();
        }
        let what = self.symptom.label();
        let unit = self.unit.unwrap_or("");
        let amount = |v: f64| dgscope_model::display::evidence_value(v, unit);
        let verb = match kind {
            FindingKind::Symptom => "is",
            FindingKind::Problem | FindingKind::Info => "explains",
        };
        let mut s = match (self.share, self.amount, self.of) {
            (Some(sh), Some(a), Some(o)) => format!(
                "{verb} {} of {what}: {} of {}",
                pct(sh),
                amount(a),
                amount(o)
            ),
            (None, Some(a), _) => format!("{verb} {} of {what}", amount(a)),
            (_, None, Some(o)) => format!(
                "{what} is {}; how much of it this explains is not known",
                amount(o)
            ),
            _ => format!("{what}: not measured"),
        };
        if let Some(d) = self.symptom_db_share() {
            if self.symptom != Symptom::DbTime {
                s.push_str(&format!("; {what} is {} of DB time", pct(d)));
            }
        }
        s
    }
}

/// A share as a percentage, as every share is written (`72.4 %`, `0.018 %`; never rounded
/// onto 100 %).
pub(crate) fn pct(share: f64) -> String {
    dgscope_model::display::evidence_value(share * 100.0, "%")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_are_clamped_and_unknown_stays_unknown() {
        let i = Impact::of(Symptom::Commit, Some(2.1), Some(2.9), Some(0.12));
        assert!((i.share.unwrap() - 2.1 / 2.9).abs() < 1e-12);
        assert!((i.db_time_share.unwrap() - 2.1 / 2.9 * 0.12).abs() < 1e-12);
        assert_eq!(i.unit, Some("ms"));
        // More than the symptom is the symptom; less than nothing is nothing.
        assert_eq!(
            Impact::of(Symptom::Commit, Some(9.0), Some(3.0), None).share,
            Some(1.0)
        );
        assert_eq!(
            Impact::of(Symptom::Commit, Some(-1.0), Some(3.0), None).share,
            Some(0.0)
        );
        // Unknown amounts and symptoms are null, never 0.
        let u = Impact::of(Symptom::TransportLag, None, Some(40.0), None);
        assert_eq!((u.amount, u.share, u.db_time_share), (None, None, None));
        let n = Impact::of(Symptom::Commit, Some(f64::NAN), None, Some(f64::NAN));
        assert_eq!(
            (n.amount, n.of, n.share, n.db_time_share),
            (None, None, None, None)
        );
        assert_eq!(Impact::risk().unit, None);
    }

    #[test]
    fn it_reads_as_the_sentence_of_the_spec() {
        let i = Impact::of(Symptom::Commit, Some(2.1), Some(2.9), Some(0.12));
        assert_eq!(
            i.describe(FindingKind::Problem),
            "explains 72.4 % of log file sync: 2.10 ms of 2.90 ms; log file sync is 12.0 % of DB time"
        );
        let lag = Impact::of(Symptom::ApplyLag, Some(1800.0), Some(1800.0), None);
        assert!(lag
            .describe(FindingKind::Symptom)
            .starts_with("is 100.0 % of the apply lag"));
        assert!(Impact::risk()
            .describe(FindingKind::Problem)
            .contains("risk"));
    }
}
