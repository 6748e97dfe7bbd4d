//! dgscope-export: what leaves dgscope for a person or a monitoring system, all of it written
//! from what the core's Driver judged. Two layers:
//!
//! 1. `report` (text, JSON and Markdown reports; `check`'s verdict, performance data and
//!    ranges) and `exposition` (the Prometheus and OpenMetrics text, the textfile);
//! 2. `serve`: the exporter's engine room and its HTTP side.
//!
//! The screen writes its incident report through `report` too, so the screen's crate depends
//! on this one, not the other way.

// The API is what the modules' `pub use` lists and public report modules name; everything
// else is `pub(crate)`, and this lint keeps it so.
#![warn(unreachable_pub)]

pub mod exposition;
pub mod report;
pub mod serve;
