//! What one pair looks like at an instant, as the exposition needs it: cheap to build (the
//! samples are shared `Arc`s), immutable once published, no reference to the engine.

use dgscope_core::causes::{Assessment, CommitDecomposition, Impact, Overview, Severity};
use dgscope_core::metrics::Engine;
use dgscope_model::sample::{Name, Sample, Slot};
use dgscope_model::timestamp::Timestamp;
use std::sync::Arc;

/// One slot (connection) of a pair.
#[derive(Debug, Clone)]
pub struct SlotSnapshot {
    pub slot: Slot,
    /// The newest sample when it has data: the figures that describe now (the stale rule:
    /// `None` while the slot's samples fail).
    pub current: Option<Arc<Sample>>,
    /// The newest sample with data, however old (identity and the last-sample timestamp).
    pub last_good: Option<Arc<Sample>>,
    /// Why the slot is down (`SampleErrorKind` spelling, `no_data` before any sample, or the
    /// pair's start error); `None` when current.
    pub error: Option<String>,
    /// The recovery area as last read (a slow part, once a minute), while the slot is
    /// current: a stale slot's figures are not shown as now.
    pub fra: Option<dgscope_model::sample::Fra>,
}

impl SlotSnapshot {
    pub fn is_up(&self) -> bool {
        self.current.is_some()
    }

    /// The `database` label ([`database_of`]) from the newest good sample.
    pub fn database(&self) -> Option<&str> {
        database_of(self.last_good.as_deref()?)
    }
}

/// A finding raised now.
#[derive(Debug, Clone, PartialEq)]
pub struct FindingState {
    pub id: &'static str,
    pub severity: Severity,
    pub title: String,
    /// The standby it is about, when not the first (`Finding::standby`).
    pub standby: Option<String>,
    /// What it explains of which symptom.
    pub impact: Impact,
}

/// The latest state of one pair.
#[derive(Debug, Clone)]
pub struct PairSnapshot {
    /// The `pair` label: the profile name, `twin-<scenario>`, or the primary's service.
    pub pair: String,
    /// What is sampled, without secrets (the landing page).
    pub source: String,
    /// In display order: primary first.
    pub slots: Vec<SlotSnapshot>,
    /// The primary slot (by role when known).
    pub primary: Option<Slot>,
    pub findings: Vec<FindingState>,
    pub warming_up: bool,
    /// The engine's newest instant.
    pub latest: Option<Timestamp>,
    /// Every member's state at the assessment's instant (apply and transport states).
    pub overview: Overview,
    /// The causes window's commit decomposition (per RAC instance inside), while the
    /// primary's figures are current.
    pub commit: Option<CommitDecomposition>,
}

/// The database's name for the `database` label: `DbInfo::name`, which the Oracle source
/// reads from `V$DATABASE.DB_UNIQUE_NAME` (as Oracle's own exporter labels databases), else the
/// `db_unique_name` parameter. `DbInfo` comes with every sample (parameters only every
/// minute), so the label does not flip between samples.
pub(crate) fn database_of(s: &Sample) -> Option<&str> {
    s.db.as_ref()
        .and_then(|d| d.name.as_deref())
        .filter(|n| !n.is_empty())
        .or_else(|| {
            s.params
                .as_ref()
                .and_then(|p| p.get("db_unique_name"))
                .map(Name::as_str)
                .filter(|n| !n.is_empty())
        })
}

impl PairSnapshot {
    /// A pair that has produced nothing yet: every expected slot down with `error`.
    pub fn pending(pair: &str, source: &str, slots: &[Slot], error: &str) -> Self {
        PairSnapshot {
            pair: pair.to_string(),
            source: source.to_string(),
            slots: slots
                .iter()
                .map(|s| SlotSnapshot {
                    slot: s.clone(),
                    current: None,
                    last_good: None,
                    error: Some(error.to_string()),
                    fra: None,
                })
                .collect(),
            primary: slots.first().cloned(),
            findings: Vec::new(),
            warming_up: true,
            latest: None,
            overview: Overview::default(),
            commit: None,
        }
    }

    /// The engine's and the causes' state now. `expected` are the slots the source was
    /// configured with (a slot that never answered is still reported, down); slots the
    /// engine knows beyond them follow.
    pub fn from_engine(
        pair: &str,
        source: &str,
        expected: &[Slot],
        engine: &Engine,
        assessment: &Assessment,
    ) -> Self {
        let mut order: Vec<Slot> = expected.to_vec();
        for (slot, _) in engine.slots() {
            if !order.contains(slot) {
                order.push(slot.clone());
            }
        }
        let slots = order
            .into_iter()
            .map(|slot| {
                let series = engine.slot(&slot);
                let current = series.and_then(|s| s.current().cloned());
                let last_good = series.and_then(|s| s.last_good().cloned());
                let error = if current.is_some() {
                    None
                } else {
                    Some(
                        series
                            .and_then(|s| s.last())
                            .and_then(|s| s.error.as_ref())
                            .map_or_else(|| "no_data".to_string(), |e| e.kind.to_string()),
                    )
                };
                let fra = series
                    .filter(|_| current.is_some())
                    .and_then(|s| s.fra_reads().next_back())
                    .map(|(_, f)| *f);
                SlotSnapshot {
                    slot,
                    current,
                    last_good,
                    error,
                    fra,
                }
            })
            .collect();
        PairSnapshot {
            pair: pair.to_string(),
            source: source.to_string(),
            slots,
            primary: engine.primary_slot().cloned(),
            findings: assessment
                .findings
                .iter()
                .map(|f| FindingState {
                    id: f.id,
                    severity: f.severity,
                    title: f.title.clone(),
                    standby: f.standby.clone(),
                    impact: f.impact.clone(),
                })
                .collect(),
            warming_up: assessment.warming_up,
            latest: engine.latest(),
            overview: assessment.overview.clone(),
            // Stale is not now: a primary whose newest sample failed has no current parts.
            commit: engine
                .primary_slot()
                .and_then(|p| engine.slot(p))
                .filter(|s| s.current().is_some())
                .and(assessment.decomposition.commit.clone()),
        }
    }

    pub fn slot(&self, slot: &Slot) -> Option<&SlotSnapshot> {
        self.slots.iter().find(|s| &s.slot == slot)
    }

    /// The primary's database name, for pair-level series (findings).
    pub fn primary_database(&self) -> Option<&str> {
        let p = self.primary.as_ref()?;
        self.slot(p)?.database()
    }
}
