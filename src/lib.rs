//! dgscope: Oracle Data Guard lag triage.
//!
//! One pipeline: source → [`sample::Sample`] → [`pipeline::Driver`] (metrics → causes) →
//! the screen, `check`, `serve` and the reports.
//!
//! The crates below this one (docs/ARCHITECTURE.md draws the graph) are re-exported under
//! their old names: `dgscope-model` (base modules, `sample`, the source contract and the
//! replay), `dgscope-twin` and `dgscope-oracle` (as `source::twin`, `source::oracle`) and
//! `dgscope-core` (`metrics`, `causes`, `pipeline`), `dgscope-export` (`report`,
//! `exposition`, `serve`) and `dgscope-tui` (`app`, `ui`, `tui`). This crate's own modules
//! are layered,
//! bottom to top; a module imports only its own layer and those below (`tests/it/layers.rs`
//! checks it, and that no imports go round in a cycle):
//!
//! 1. `log` (its `LogLevel` is a command-line value, so it stays with the command line)
//! 2. `cli` (every clap type), `config`, `commands`

pub use dgscope_core::{causes, metrics, pipeline};
pub use dgscope_export::{exposition, report, serve};
pub use dgscope_model::{display, output, sample, sanitize, timestamp, units};
pub use dgscope_tui::{app, tui, ui};

pub mod cli;
pub mod commands;
pub mod config;
pub mod log;
/// The sources: the contract and the replay ([`dgscope_model::source`]), the twin
/// ([`dgscope_twin`]) and the Oracle source ([`dgscope_oracle`]), each a crate of its own.
pub mod source {
    pub use dgscope_model::source::*;
    pub use dgscope_oracle as oracle;
    pub use dgscope_twin as twin;
}
