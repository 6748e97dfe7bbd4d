//! The one pipeline driver: source entries → metrics engine → causes engine, in order.
//! Every consumer that judges a stream of samples (the screen, `check`, `serve`, reports)
//! feeds a [`Driver`]; the slot cap and the history the rules need live in it once.

pub(crate) mod check;
pub(crate) mod driver;
pub(crate) mod order;
pub(crate) mod recorder;
pub(crate) mod screen;
pub(crate) mod session;
pub(crate) mod whatif;

pub use check::{
    pull_entries, releases, run_check, with_entries_ahead, CheckMetrics, CheckResult, Checked,
    StandbyMetrics,
};
pub use driver::{Driver, DriverConfig, Skipped, MAX_SLOTS};
pub use order::{OrderCheck, Steady};
pub use recorder::Recorder;
pub use screen::ScreenAssessor;
pub use session::{Event, SessionLog};
pub use whatif::TwinWhatIf;
