//! The window's decompositions, computed once per assessment in the core: where the commit
//! time goes ([`commit`]) and why each standby's lags are what they are ([`lag`]). Every
//! finding's impact is a part of one of them, and the screen, the reports and the exporter
//! read these same figures.

pub(crate) mod commit;
pub(crate) mod lag;

use serde::Serialize;
use std::collections::BTreeMap;

pub(crate) use commit::RemoteSide;
pub use commit::{CommitDecomposition, CommitPart, Component, Tail, TailCause};
pub(crate) use lag::{ApplyCause, LagInputs, TransportCause};
pub use lag::{ApplyPart, LagDecomposition, Part, Split, TransportPart};

/// Both decompositions of one assessment.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Decomposition {
    /// The primary's commits over the causes window; `None` without `log file sync` waits.
    pub commit: Option<CommitDecomposition>,
    /// Each monitored standby's lags, by slot.
    pub lag: BTreeMap<String, LagDecomposition>,
}
