//! dgscope-tui: the triage screen. Three layers, bottom to top:
//!
//! 1. `app`: the screen's state machine (`update(state, Action)`), which holds a
//!    [`Driver`](dgscope_core::pipeline::Driver) like every other consumer;
//! 2. `ui`: drawing the panes from that state;
//! 3. `tui`: the event loop, the terminal and what the screen writes (the incident report
//!    through `dgscope-export`, so it is the same text as `report incident`).

// The API is what the three modules' `pub use` lists name (and the themes, `ui::theme`);
// everything else is `pub(crate)`, and this lint keeps it so.
#![warn(unreachable_pub)]

pub mod app;
pub mod tui;
pub mod ui;
