//! Suggested causes: rules over metrics → ranked findings with evidence and advice. Each
//! rule lives in `rules/`; docs/FINDINGS.md explains every finding to a DBA.

pub(crate) mod assessment;
pub(crate) mod context;
pub(crate) mod decomposition;
pub(crate) mod engine;
pub(crate) mod finding;
pub(crate) mod impact;
pub(crate) mod rates;
pub mod rules;
pub(crate) mod severity;
pub(crate) mod standby_facts;
pub(crate) mod state;
pub(crate) mod text;
pub(crate) mod thresholds;
pub(crate) mod whatif;

pub use assessment::Assessment;
pub use context::Context;
pub use decomposition::{
    ApplyPart, CommitDecomposition, CommitPart, Component, Decomposition, LagDecomposition, Part,
    Split, Tail, TailCause, TransportPart,
};
/// The rules name their verification queries as `causes::verify::VerifyKey`; the key is
/// plain data the Oracle source resolves too, so it lives below both.
pub use dgscope_model::sample::vocab::verify;
pub use dgscope_model::sample::vocab::whatif::{Observed, WhatIfModel};
pub use dgscope_model::sample::vocab::{VerifyKey, WhatIf};
pub use engine::{rank, CauseEngine, Transition};
pub use finding::{Evidence, Finding, Severity, Status};
pub use impact::{FindingKind, Impact, Symptom};
pub use rates::{switch_rates, total_per_hour};
pub use state::{ApplyOff, ApplyState, Fsfo, MemberState, Overview, PrimaryState, TransportState};
pub use thresholds::Thresholds;
pub use whatif::{annotate, observed_from};
#[cfg(test)]
pub(crate) mod testkit;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_part3;
#[cfg(test)]
mod tests_primary;
#[cfg(test)]
mod tests_state;
#[cfg(test)]
mod tests_waits_now;
