//! The one pipeline driver: source entries → metrics engine → causes engine, in order.
//! Every consumer that judges a stream of samples (serve today; check and the screen after
//! their migration) feeds a [`Driver`] instead of writing the loop out again.

pub mod check;
pub mod driver;
pub mod order;
pub mod screen;
pub mod whatif;

pub use driver::{Driver, DriverConfig, Judge, Skipped, MAX_SLOTS};
