//! Metrics: the one place where cumulative counters become rates, averages, histogram deltas
//! and percentiles, over windows and bounded histories.

pub mod delta;
pub mod engine;
pub mod freshness;
pub mod histogram;
pub mod impact;
pub mod ring;
pub mod window;

pub use delta::{Delta, EventDelta, IoRates};
pub use engine::{is_recovery_cancel, Engine, EngineConfig, Point, SlotSeries};
pub use freshness::Freshness;
pub use histogram::{Histogram, Percentile};
pub use impact::{impact_table, ImpactMetric, ImpactRow, WindowDeltas};
pub use ring::Ring;
pub use window::{Window, WindowAcc, WindowBound, WindowSpec, WindowSpecError};
