//! The engine's answer at one instant: the ranked findings with the configuration's state
//! and the decomposition they weigh against, taken at the same instant.

use super::decomposition::Decomposition;
use super::finding::{Finding, Severity, Status};
use serde::Serialize;

/// The engine's answer at one instant.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Assessment {
    /// Ranked: severity first, then the share of DB time (or of the symptom) explained.
    pub findings: Vec<Finding>,
    /// Not enough data yet to judge (fewer than 5 samples, or no waits in the window).
    pub warming_up: bool,
    /// Every member's state at the same instant (the configuration overview).
    pub overview: super::state::Overview,
    /// Where the window's commit time goes and why each lag is what it is: what every
    /// finding's impact is a part of.
    pub decomposition: Decomposition,
}

impl Assessment {
    pub fn status(&self) -> Status {
        match self.findings.iter().map(|f| f.severity).max() {
            Some(Severity::Crit) => Status::Crit,
            Some(Severity::Warn) => Status::Warn,
            _ if self.warming_up => Status::Unknown,
            _ => Status::Ok,
        }
    }
}
