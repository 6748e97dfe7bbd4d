//! Suggested causes: rules over metrics → ranked findings with evidence and advice. The
//! catalog is ../shared/design/CAUSES.md; each rule lives in `rules/`.

pub mod context;
pub mod engine;
pub mod finding;
pub mod live;
pub mod rules;
pub mod thresholds;
pub mod whatif;

pub use engine::{rank, CauseEngine, Transition};
pub use finding::{Assessment, Evidence, Finding, Severity, Status, WhatIf};
pub use thresholds::Thresholds;
#[cfg(test)]
pub(crate) mod testkit;
#[cfg(test)]
mod tests;
