//! Metrics: the one place where cumulative counters become rates, averages, histogram deltas
//! and percentiles, over windows and bounded histories.

pub(crate) mod delta;
pub(crate) mod engine;
pub(crate) mod freshness;
pub(crate) mod histogram;
pub(crate) mod impact;
pub(crate) mod ring;
pub(crate) mod window;

pub(crate) use delta::Parts;
pub use delta::{Delta, EventDelta, IoRates};
pub use engine::{is_recovery_cancel, Engine, EngineConfig, Point, SlotSeries};
pub use freshness::Freshness;
pub use histogram::{Histogram, Percentile, OPEN_BOUND_US};
pub use impact::{impact_table, ImpactMetric, ImpactRow, WindowDeltas};
pub use ring::Ring;
pub use window::{Window, WindowAcc, WindowBound, WindowSpec, WindowSpecError};
