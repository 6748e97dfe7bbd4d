//! The one pipeline driver: source entries → metrics engine → causes engine, in order.
//! Every consumer that judges a stream of samples (the screen, `check`, `serve`, reports)
//! feeds a [`Driver`]; the slot cap and the history the rules need live in it once.

pub mod check;
pub mod driver;
pub mod order;
pub mod recorder;
pub mod screen;
pub mod session;
pub mod whatif;

pub use driver::{Driver, DriverConfig, Skipped, MAX_SLOTS};
pub use recorder::Recorder;
pub use session::SessionLog;
