//! dgscope: Oracle Data Guard lag triage.
//!
//! One pipeline: source → [`sample::Sample`] → [`metrics`] → causes → app → ui / report.
//!
//! The modules are layered, bottom to top; a module imports only its own layer and those
//! below (`tests/layers.rs` checks it, and that no imports go round in a cycle):
//!
//! 1. base: `units`, `timestamp`, `sanitize`, `output`, `display`, `log`
//! 2. `sample` (with `sample::vocab`, the words causes and sources share)
//! 3. `source` (Oracle, the twin, replay)
//! 4. `metrics`
//! 5. `causes`
//! 6. `pipeline` (where sources, metrics and causes meet: the driver, check, the screen's
//!    assessor, the twin's what-ifs)
//! 7. `app`
//! 8. `ui`, `report`, `exposition`
//! 9. `tui`, `serve`
//! 10. `cli` (every clap type), `config`, `commands`

pub mod app;
pub mod causes;
pub mod cli;
pub mod commands;
pub mod config;
pub mod display;
pub mod exposition;
pub mod log;
pub mod metrics;
pub mod output;
pub mod pipeline;
pub mod report;
pub mod sample;
pub mod sanitize;
pub mod serve;
pub mod source;
pub mod timestamp;
pub mod tui;
pub mod ui;
pub mod units;

#[cfg(test)]
mod sample_tests;
