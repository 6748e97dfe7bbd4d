//! dgscope-tui: the triage screen. Three layers, bottom to top:
//!
//! 1. `app`: the screen's state machine (`update(state, Action)`), which holds a
//!    [`Driver`](dgscope_core::pipeline::Driver) like every other consumer;
//! 2. `ui`: drawing the panes from that state;
//! 3. `tui`: the event loop, the terminal and what the screen writes (the incident report
//!    through `dgscope-export`, so it is the same text as `report incident`).

pub mod app;
pub mod tui;
pub mod ui;
