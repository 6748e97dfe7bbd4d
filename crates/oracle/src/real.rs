//! The driver over the `oracle` crate (ODPI-C). The Oracle Client library is loaded at run
//! time; without it every call fails with DPI-1047, which `init_client` reports up front.

use super::connect::Privilege;
use super::driver::{Conn, Driver, LoginSpec, Row};
use super::errors::{ErrCode, OraError};
use std::path::Path;

/// Sets the client library location (before the first call) and loads it. Idempotent: the
/// second call reports the first call's outcome for a successful load.
pub fn init_client(lib_dir: Option<&Path>) -> Result<(), OraError> {
    let mut params = ::oracle::InitParams::new();
    if let Some(dir) = lib_dir {
        params
            .oracle_client_lib_dir(dir.as_os_str())
            .map_err(|e| to_ora(&e))?;
    }
    params
        .default_driver_name(format!("dgscope : {}", env!("CARGO_PKG_VERSION")))
        .map_err(|e| to_ora(&e))?;
    params.init().map(|_| ()).map_err(|e| to_ora(&e))
}

/// An `::oracle::Error` → our code + Oracle's text.
pub(crate) fn to_ora(e: &::oracle::Error) -> OraError {
    let message = e.to_string();
    let code = match e.db_error() {
        Some(db) if e.kind() == ::oracle::ErrorKind::OciError && db.code() != 0 => {
            ErrCode::Ora(db.code().unsigned_abs())
        }
        _ => super::errors::code_in(&message),
    };
    OraError::new(code, message)
}

/// The real driver.
#[derive(Debug, Clone, Copy, Default)]
pub struct OracleDriver;

impl Driver for OracleDriver {
    fn connect(&self, login: &LoginSpec) -> Result<Box<dyn Conn>, OraError> {
        let (user, password) = match (&login.conn.user, &login.password) {
            (Some(u), Some(p)) => (u.as_str(), p.expose()),
            (Some(u), None) => (u.as_str(), ""),
            (None, _) => ("", ""),
        };
        let mut c = ::oracle::Connector::new(user, password, login.conn.connect.as_str());
        if login.conn.external_auth() {
            c.external_auth(true);
        }
        match login.privilege {
            Privilege::Sysdg => {
                c.privilege(::oracle::Privilege::Sysdg);
            }
            Privilege::Sysdba => {
                c.privilege(::oracle::Privilege::Sysdba);
            }
            Privilege::Normal => {}
        }
        c.driver_name(format!("dgscope : {}", env!("CARGO_PKG_VERSION")));
        let conn = c.connect().map_err(|e| to_ora(&e))?;
        conn.set_call_timeout(Some(login.call_timeout))
            .map_err(|e| to_ora(&e))?;
        // Shows in V$SESSION: a DBA can tell dgscope's sessions apart from applications'.
        conn.set_module("dgscope").map_err(|e| to_ora(&e))?;
        conn.set_action("dgscope").map_err(|e| to_ora(&e))?;
        Ok(Box::new(OracleConn { conn }))
    }
}

struct OracleConn {
    conn: ::oracle::Connection,
}

impl Conn for OracleConn {
    fn query(&mut self, sql: &str) -> Result<Vec<Row>, OraError> {
        let mut stmt = self
            .conn
            .statement(sql)
            .fetch_array_size(500)
            .prefetch_rows(500)
            .build()
            .map_err(|e| to_ora(&e))?;
        let rs = stmt.query(&[]).map_err(|e| to_ora(&e))?;
        let mut out = Vec::new();
        for row in rs {
            let row = row.map_err(|e| to_ora(&e))?;
            let n = row.sql_values().len();
            let mut cols = Vec::with_capacity(n);
            for i in 0..n {
                cols.push(
                    row.get::<usize, Option<String>>(i)
                        .map_err(|e| to_ora(&e))?,
                );
            }
            out.push(cols);
        }
        Ok(out)
    }
}
