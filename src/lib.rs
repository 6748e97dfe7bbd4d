//! dgscope: Oracle Data Guard lag triage.
//!
//! One pipeline: source → [`sample::Sample`] → [`metrics`] → causes → app → ui / report.

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
