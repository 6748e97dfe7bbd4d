//! What the causes engine tells the rest of the program: ranked findings with evidence and
//! advice. docs/FINDINGS.md explains each one.

use super::impact::{FindingKind, Impact};
use dgscope_model::sample::vocab::{VerifyKey, WhatIf};
use dgscope_model::timestamp::Timestamp;
use serde::Serialize;
use std::fmt;

pub use super::severity::Severity;

/// One measured fact behind a finding: metric, value, the threshold it crossed, and the view
/// it came from, so a DBA can verify it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Evidence {
    pub metric: String,
    /// NaN for a fact that is text only (a status, an error message): JSON `null`.
    pub value: f64,
    pub unit: String,
    /// The rule's threshold as text ("≥ 2 × lfpw (1.24 ms)"), when the item has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threshold: Option<String>,
    /// Where the number comes from: `V$SYSTEM_EVENT`, `V$IOSTAT_FILE` …
    pub source: String,
}

impl Evidence {
    /// False for a fact that is text only (a status, an error message).
    pub fn has_value(&self) -> bool {
        !self.value.is_nan()
    }
}

/// A cause the evidence supports right now.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// Stable id from the catalog (`standby-redo-write-slow` …).
    pub id: &'static str,
    pub severity: Severity,
    /// One line with the key numbers, for the causes pane.
    pub title: String,
    pub evidence: Vec<Evidence>,
    /// What it means, grounded in the seeds / MAA.
    pub meaning: String,
    /// What a DBA can query to verify it; the Oracle source spells each for the database's
    /// release (`source::oracle::verify::resolve`).
    pub verify: Vec<VerifyKey>,
    /// What to do, with caveats.
    pub advice: Vec<String>,
    pub what_if: Vec<WhatIf>,
    /// Problem, symptom or information, as ADDM types its findings.
    pub kind: FindingKind,
    /// How much of which symptom it explains (docs/FINDINGS.md, "Impact"): its severity and
    /// rank follow from it.
    pub impact: Impact,
    /// When the condition started to hold.
    pub since: Timestamp,
    /// The finding that explains this one when both hold (the recovery area is full → the
    /// archive gap → the lag): its id. Ranking puts the root cause first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub caused_by: Option<&'static str>,
    /// The standby slot the finding is about when it is not the first standby (the one the
    /// rules read by default): every other monitored standby is judged for its own state
    /// too, and its findings name it. `None` for the first standby and the primary.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub standby: Option<String>,
}

/// Overall status in the Nagios convention (`check` exit codes 0..3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Status {
    Ok,
    Warn,
    Crit,
    Unknown,
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Status::Ok => "OK",
            Status::Warn => "WARN",
            Status::Crit => "CRIT",
            Status::Unknown => "UNKNOWN",
        })
    }
}

impl Status {
    pub fn exit_code(self) -> u8 {
        match self {
            Status::Ok => 0,
            Status::Warn => 1,
            Status::Crit => 2,
            Status::Unknown => 3,
        }
    }
}
