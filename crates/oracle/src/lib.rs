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
pub mod messages;
pub mod parse;
pub mod probe;
pub mod real;
#[cfg(any(test, feature = "test-support"))]
pub mod scenarios;
pub mod secret;
pub mod sql;
pub mod verify;

pub use collector::{spawn_collector, CollectorConfig, CollectorHandle, TargetConfig};
pub use connect::{ConnSpec, Privilege};
pub use driver::{Conn, Driver, LoginSpec, Row};
pub use errors::{ErrCode, OraError};
pub use real::{init_client, OracleDriver};
pub use secret::Secret;
