//! dgscope-core: where samples become findings. Three layers, bottom to top:
//!
//! 1. `metrics`: the one place cumulative counters become rates, histograms and percentiles;
//! 2. `causes`: the rules, each one record, and the engine that ranks their findings;
//! 3. `pipeline`: the [`Driver`](pipeline::Driver), the one way from a source's entries to
//!    findings for every consumer (the screen, `check`, `serve`, `record`, reports), with the
//!    recorder, the session's history and the twin's what-ifs.
//!
//! It reads the model (`dgscope-model`) and runs the twin (`dgscope-twin`) for what-ifs;
//! nothing of the Oracle source, the screen or the exports.

// The API is what the three modules' `pub use` lists name (and the rule registry,
// `causes::rules`); everything else is `pub(crate)`, and this lint keeps it so.
#![warn(unreachable_pub)]

pub mod causes;
pub mod metrics;
pub mod pipeline;
