//! The Oracle source: connects to a primary and its standbys through the `oracle` crate and
//! turns the documented fixed views into `Sample`s. All SQL text of dgscope lives in this
//! module (`sql.rs`, plus the printed script in `grants.rs`) and is SELECT only.
//!
//! Verified against Oracle's documentation of the fixed views and fake rows shaped like the
//! documented views, not against a live database.
//!
//! The fake database (`fake`, `scenarios`) is test support: it is compiled for this crate's
//! tests and, through the `test-support` feature that the crate's dev-dependency on itself turns on,
//! for the integration tests and benches — never into the release binary.

// The API is the public modules below and the `pub use` list; the message text, the probe's
// internals, the real driver and the secret's plumbing are `pub(crate)`, kept so by this lint.
#![warn(unreachable_pub)]

pub mod clock;
pub mod collector;
pub mod connect;
pub mod driver;
pub mod errors;
#[cfg(any(test, feature = "test-support"))]
pub mod fake;
pub mod grants;
pub mod log;
pub mod map;
pub(crate) mod messages;
pub mod parse;
pub(crate) mod probe;
pub(crate) mod real;
#[cfg(any(test, feature = "test-support"))]
pub mod scenarios;
pub(crate) mod secret;
pub mod sql;
pub mod verify;

pub use collector::{spawn_collector, CollectorConfig, CollectorHandle, TargetConfig};
pub use connect::{ConnSpec, Privilege};
pub use driver::{Conn, Driver, LoginSpec, Row};
pub use errors::{ErrCode, OraError};
pub use probe::{run as probe, Probe};
pub use real::{init_client, OracleDriver};
pub use secret::Secret;
