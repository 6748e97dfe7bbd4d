//! Suggested causes: rules over metrics → ranked findings with evidence and advice. Each
//! rule lives in `rules/`; docs/FINDINGS.md explains every finding to a DBA.

pub mod context;
pub mod engine;
pub mod finding;
pub mod live;
pub mod rates;
pub mod rules;
pub mod thresholds;
pub mod verify;
pub mod whatif;

pub use engine::{rank, CauseEngine, Transition};
pub use finding::{Assessment, Evidence, Finding, Severity, Status, WhatIf};
pub use thresholds::Thresholds;
pub use verify::VerifyKey;
#[cfg(test)]
pub(crate) mod testkit;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_state;
