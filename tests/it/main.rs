//! dgscope's integration tests, one test binary (`cargo test --test it`): each file of
//! tests/it/ is a module of it, named as its file (`cargo test --test it pty_replay::` runs
//! one file's tests), and the helpers are compiled once (one binary per file compiled them
//! again in each and linked the crate ~60 times).
//!
//! All tests share this process and run in parallel. None may change what the process shares
//! (environment, working directory, a global subscriber …): a child process gets its
//! environment and directory on its `Command`. A test that measures the whole process
//! (threads, file handles, resident memory) or installs something for all of it opens with
//! `if !common::alone() { return; }` and runs in a process of its own.
//!
//! insta keeps the snapshots in tests/it/snapshots/, named `it__<module>__<name>.snap`.
//!
//! A new test file goes here, with its `mod` line below: a file directly in tests/ would be
//! a test binary of its own again.

// Helpers shared by the test modules.
mod common;
mod handmade;
mod hardening;
mod twin_support;

mod accuracy_matrix;
mod build_profiles;
mod check_cli;
mod check_live;
mod check_perfdata;
mod completions_man;
mod contrib_plugins;
mod dist;
mod evidence_agrees;
mod exposition_contract;
mod exposition_render;
mod faults;
mod fleet_cli;
mod fuzz;
mod hardening_escapes;
mod hardening_headless;
mod hardening_inputs;
mod hardening_order;
mod hardening_outputs;
mod hardening_scale;
mod impact;
mod incident_cli;
mod incident_session;
mod json_schema;
mod layers;
mod lineparse;
mod module_cycles;
mod oracle_cli;
mod oracle_contract;
mod oracle_errors;
mod oracle_grants;
mod oracle_log;
mod oracle_mapping;
mod oracle_real;
mod oracle_record;
mod oracle_resources;
mod oracle_secrets;
mod oracle_standby_state;
mod oracle_topology;
mod oracle_waits_now;
mod precedence;
mod profiles_cli;
mod pty_awr;
mod pty_config;
mod pty_faults;
mod pty_fleet;
mod pty_input_bursts;
mod pty_recorders;
mod pty_replay;
mod pty_suspend;
mod pty_topology;
mod pty_truth;
mod pty_waits;
mod readme;
mod recording_slow_parts;
mod recording_zstd;
mod report_awr;
mod report_cli;
mod sample_formats;
mod serve_cli;
mod serve_http;
mod soak;
mod topology_findings;
mod twin_calibration;
mod twin_cli;
mod twin_invariants;
mod twin_part3;
mod twin_primary_outages;
mod twin_scenarios;
mod twin_standby_state;
mod twin_topology;
mod twin_waits_now;
mod tz_cli;
mod ui_board;
mod ui_fixture;
mod ui_members;
mod ui_snapshots;
mod ui_topology;
mod ui_twin;
mod ui_update;
mod ui_waits;
