//! dgscope: Oracle Data Guard lag triage.
//!
//! One pipeline: source → [`sample::Sample`] → [`metrics`] → causes → app → ui / report.
//!
//! The modules are layered, bottom to top; a module imports only its own layer and those
//! below (`tests/it/layers.rs` checks it, and that no imports go round in a cycle):
//!
//! 1. base: `units`, `timestamp`, `sanitize`, `output`, `display`, `log`
//! 2. `sample` (with `sample::vocab`, the words causes and sources share)
//!
//! 3. `source` (Oracle, the twin, replay)
//! 4. `metrics`
//! 5. `causes`
//! 6. `pipeline` (where sources, metrics and causes meet: the driver, check, the screen's
//!    assessor, the twin's what-ifs)
//! 7. `app`
//! 8. `ui`, `report`, `exposition`
//! 9. `tui`, `serve`
//! 10. `cli` (every clap type), `config`, `commands`
//!
//! Layers 1 and 2 but `log` are the `dgscope-model` crate (`crates/model`), re-exported here
//! under their names, so the compiler keeps them from importing anything above. `log` stays
//! here: its `LogLevel` is a clap `ValueEnum`, and the model crate does without clap.

pub use dgscope_model::{display, output, sample, sanitize, timestamp, units};

pub mod app;
pub mod causes;
pub mod cli;
pub mod commands;
pub mod config;
pub mod exposition;
pub mod log;
pub mod metrics;
pub mod pipeline;
pub mod report;
pub mod serve;
/// The sources: the contract and the replay ([`dgscope_model::source`]), the twin
/// ([`dgscope_twin`]) and the Oracle source ([`dgscope_oracle`]), each a crate of its own.
pub mod source {
    pub use dgscope_model::source::*;
    pub use dgscope_oracle as oracle;
    pub use dgscope_twin as twin;
}
pub mod tui;
pub mod ui;

#[cfg(test)]
mod sample_tests;
