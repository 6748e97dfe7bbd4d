//! The driver seam: everything the collector needs from a database, as two small traits. The
//! real implementation wraps the `oracle` crate (`real.rs`); tests use `fake.rs`, which
//! answers with rows shaped like the documented views.

use super::connect::{ConnSpec, Privilege};
use super::errors::OraError;
use super::secret::Secret;
use std::time::Duration;

/// One fetched row, every column as text (`None` = SQL NULL). NUMBER columns arrive as their
/// decimal text so big counters stay exact.
pub type Row = Vec<Option<String>>;

/// Everything needed to open one session.
#[derive(Debug, Clone)]
pub struct LoginSpec {
    pub conn: ConnSpec,
    pub privilege: Privilege,
    /// `None` with external authentication (wallet).
    pub password: Option<Secret>,
    /// Bound on every round trip after connecting.
    pub call_timeout: Duration,
}

/// Opens sessions. Shared by all collector threads.
pub trait Driver: Send + Sync + 'static {
    /// Connects, sets module/action and the call timeout. Blocking.
    fn connect(&self, login: &LoginSpec) -> Result<Box<dyn Conn>, OraError>;
}

/// One session, owned by one collector thread.
pub trait Conn: Send {
    /// Runs one SELECT and fetches all rows. Blocking, bounded by the call timeout.
    fn query(&mut self, sql: &str) -> Result<Vec<Row>, OraError>;
}
