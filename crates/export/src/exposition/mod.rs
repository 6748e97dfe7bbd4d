//! Prometheus exposition: the latest state of each pair ([`PairSnapshot`], immutable) rendered
//! as the Prometheus text format 0.0.4 or OpenMetrics 1.0.0 ([`render`]). Pure functions of
//! snapshots, shared by `serve`, `check --format openmetrics` and `check --textfile`.
//! The metric names and labels are a public contract: docs/METRICS.md lists every one.

pub(crate) mod check;
pub(crate) mod negotiate;
/// A strict OpenMetrics/Prometheus text parser, to check what `serve` and `check` write:
/// test support, not compiled into the release binary (the `test-support` feature).
#[cfg(any(test, feature = "test-support"))]
pub mod parse;
pub(crate) mod render;
pub(crate) mod snapshot;
pub(crate) mod textfile;

pub use check::{exposition, write_textfile};
pub use negotiate::Format;
pub use render::{assemble_into, pieces, render, render_into, Family, Kind, Rendered, FAMILIES};
pub use snapshot::{FindingState, PairSnapshot, SlotSnapshot};
