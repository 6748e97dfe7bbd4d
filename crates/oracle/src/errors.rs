//! Oracle and ODPI-C errors, classified: each class gets a kind for the `Sample` contract, a
//! one-line summary and the fix a DBA can act on mid-incident.

use dgscope_model::sample::SampleErrorKind;
use std::fmt;

/// The code of an error: `ORA-nnnnn`, `DPI-nnnn`, or something else (our own timeouts,
/// conversion errors).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrCode {
    Ora(u32),
    Dpi(u32),
    /// dgscope gave up waiting for a connect (the client call may still be running).
    ConnectTimeout,
    Other,
}

impl fmt::Display for ErrCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrCode::Ora(n) => write!(f, "ORA-{n:05}"),
            ErrCode::Dpi(n) => write!(f, "DPI-{n:04}"),
            ErrCode::ConnectTimeout => f.write_str("connect-timeout"),
            ErrCode::Other => f.write_str("error"),
        }
    }
}

/// An error from the driver seam: its code and Oracle's own text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct OraError {
    pub code: ErrCode,
    pub message: String,
}

impl OraError {
    pub fn new(code: ErrCode, message: impl Into<String>) -> Self {
        OraError {
            code,
            message: message.into(),
        }
    }

    pub fn ora(n: u32, message: &str) -> Self {
        OraError::new(ErrCode::Ora(n), format!("ORA-{n:05}: {message}"))
    }

    pub fn dpi(n: u32, message: &str) -> Self {
        OraError::new(ErrCode::Dpi(n), format!("DPI-{n:04}: {message}"))
    }

    /// Builds an error from a message that carries its code (`ORA-12541: …`, `DPI-1047: …`).
    /// The first code found wins; the message is kept verbatim.
    pub fn from_message(message: &str) -> Self {
        OraError::new(code_in(message), message.trim())
    }

    /// Errors after which the session is unusable: reconnect. Everything else that a query
    /// raises (ORA-00942 no grant, ORA-00904 column not in this release, ORA-01031, ORA-01219,
    /// or an error nobody expected, e.g. ORA-04031) concerns that statement only: the
    /// collector then reads part by part and keeps what works.
    pub fn is_connection_level(&self) -> bool {
        matches!(
            self.code,
            ErrCode::Ora(
                28 | 1012
                    | 1034
                    | 1089
                    | 1092
                    | 3113
                    | 3114
                    | 3135
                    | 12152
                    | 12537
                    | 12547
                    | 12571
                    | 27101
            ) | ErrCode::Dpi(1010 | 1067 | 1080)
                | ErrCode::ConnectTimeout
        )
    }

    pub fn is_part_level(&self) -> bool {
        !self.is_connection_level()
    }
}

/// Finds the first `ORA-nnnnn` or `DPI-nnnn` in a message.
pub fn code_in(message: &str) -> ErrCode {
    let b = message.as_bytes();
    let mut i = 0;
    while i + 4 < b.len() {
        let prefix = &b[i..i + 4];
        if prefix == b"ORA-" || prefix == b"DPI-" {
            let digits: String = message[i + 4..]
                .chars()
                .take_while(char::is_ascii_digit)
                .take(6)
                .collect();
            if let Ok(n) = digits.parse::<u32>() {
                return if prefix == b"ORA-" {
                    ErrCode::Ora(n)
                } else {
                    ErrCode::Dpi(n)
                };
            }
        }
        i += 1;
    }
    ErrCode::Other
}

/// What the error means for the user: the `Sample` kind, a summary and a fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    pub kind: SampleErrorKind,
    /// One line: what happened, with the code.
    pub summary: String,
    /// What to do about it.
    pub fix: String,
    /// Retrying cannot help and may hurt (a wrong password retried locks the account).
    pub give_up: bool,
}

impl Explanation {
    /// `summary — fix`, for one-line places (status lines, `Sample.error.message`).
    pub fn one_line(&self) -> String {
        format!("{} — {}", self.summary, self.fix)
    }
}

/// Facts about the attempt that make the message concrete.
#[derive(Debug, Clone, Default)]
pub struct ErrContext {
    /// `user@connect` as typed (never with a password: those are refused earlier).
    pub target: String,
    pub user: Option<String>,
    pub host_port: Option<String>,
    pub service: Option<String>,
    /// `sysdg`, `sysdba` or `normal`.
    pub privilege: String,
    /// Views of the failing statement part, for ORA-00942.
    pub views: Vec<String>,
    pub call_timeout_s: Option<u64>,
}

/// Classifies an error. Every branch names the code so the DBA can look it up.
pub fn explain(e: &OraError, cx: &ErrContext) -> Explanation {
    use SampleErrorKind as K;
    let code = e.code;
    let user = cx.user.as_deref().unwrap_or("the monitoring user");
    let target = if cx.target.is_empty() {
        "the database".to_string()
    } else {
        cx.target.clone()
    };
    let mk = |kind: K, summary: String, fix: String| Explanation {
        kind,
        summary,
        fix,
        give_up: false,
    };
    match code {
        ErrCode::Dpi(1047) => mk(
            K::NoClientLibrary,
            format!("Oracle Client library not found ({code})"),
            "install Oracle Instant Client (Basic or Basic Light, 19c or later) and point \
             dgscope at it with --oracle-client-dir DIR or LD_LIBRARY_PATH=DIR"
                .into(),
        ),
        ErrCode::Dpi(1067) => mk(
            K::Timeout,
            format!(
                "{target} did not answer within the call timeout{} ({code})",
                cx.call_timeout_s
                    .map(|s| format!(" of {s} s"))
                    .unwrap_or_default()
            ),
            "the instance may be hung or its host overloaded; dgscope reconnects — raise \
             --call-timeout if the database is only slow"
                .into(),
        ),
        ErrCode::ConnectTimeout => mk(
            K::Timeout,
            format!("connecting to {target} timed out"),
            "check that the host is reachable (firewall, DNS, VIP); dgscope keeps retrying — \
             --connect-timeout sets the limit"
                .into(),
        ),
        ErrCode::Ora(12541) => mk(
            K::NoListener,
            format!(
                "no listener at {} ({code})",
                cx.host_port.as_deref().unwrap_or(&target)
            ),
            "check host and port in the connect string, and that the listener runs there \
             (lsnrctl status on the database host)"
                .into(),
        ),
        ErrCode::Ora(12514) => mk(
            K::Other("unknown_service".into()),
            format!(
                "the listener does not know service {} ({code})",
                cx.service.as_deref().unwrap_or("in the connect string")
            ),
            "check the service name with lsnrctl services on the database host; role-based \
             services do not start on a standby — use its db_unique_name service or a static \
             SID_LIST_LISTENER entry"
                .into(),
        ),
        ErrCode::Ora(12154) | ErrCode::Ora(12262) => mk(
            K::Other("unresolved_alias".into()),
            format!("Oracle Net cannot resolve {target} ({code})"),
            "check the alias in tnsnames.ora (TNS_ADMIN, or network/admin under \
             --oracle-client-dir), or use //HOST:PORT/SERVICE"
                .into(),
        ),
        ErrCode::Ora(12170) | ErrCode::Ora(12535) => mk(
            K::Timeout,
            format!("connecting to {target} timed out ({code})"),
            "check routing and firewalls between this host and the listener; dgscope keeps \
             retrying"
                .into(),
        ),
        ErrCode::Ora(1017) => Explanation {
            give_up: true,
            ..mk(
                K::BadCredentials,
                format!("invalid username/password for {user} ({code})"),
                if cx.privilege == "normal" {
                    "check the password (--password-env VAR or the prompt); dgscope does not \
                     retry, so the account is not locked"
                        .into()
                } else {
                    format!(
                        "AS {} checks the standby's password file: copy orapw<SID> from the \
                         primary (automatic with COMPATIBLE >= 12.2); 11.2 has no SYSDG: use \
                         --standby-as sysdba there; dgscope does not retry, so the account is \
                         not locked",
                        cx.privilege.to_uppercase()
                    )
                },
            )
        },
        ErrCode::Ora(28000) => Explanation {
            give_up: true,
            ..mk(
                K::BadCredentials,
                format!("account {user} is locked ({code})"),
                format!(
                    "on the primary: ALTER USER {user} ACCOUNT UNLOCK; (the standby gets it \
                     through redo); check why it locked (failed logins)"
                ),
            )
        },
        ErrCode::Ora(28001) => Explanation {
            give_up: true,
            ..mk(
                K::BadCredentials,
                format!("the password of {user} has expired ({code})"),
                format!("on the primary: ALTER USER {user} IDENTIFIED BY <new password>;"),
            )
        },
        ErrCode::Ora(1005) => Explanation {
            give_up: true,
            ..mk(
                K::BadCredentials,
                format!("no password given for {user} ({code})"),
                "set --password-env VAR, run dgscope in a terminal to be prompted, or use a \
                 wallet (/@alias)"
                    .into(),
            )
        },
        ErrCode::Ora(1031) if !cx.views.is_empty() => missing_grant(code, cx),
        ErrCode::Ora(1031) => mk(
            K::MissingGrant,
            format!(
                "{user} may not connect AS {} ({code})",
                cx.privilege.to_uppercase()
            ),
            format!(
                "on the primary: GRANT SYSDG TO {user}; then make sure the standby's password \
                 file has it (copy orapw<SID>; automatic with COMPATIBLE >= 12.2). On 11.2 use \
                 --standby-as sysdba; an open (Active Data Guard) standby works with \
                 --standby-as normal"
            ),
        ),
        ErrCode::Ora(1033) => mk(
            K::InstanceDown,
            format!("{target} is starting, stopping or only MOUNTED ({code})"),
            "a mounted standby accepts only administrative logins: use --standby-as sysdg \
             (sysdba on 11.2); otherwise wait for startup to finish"
                .into(),
        ),
        ErrCode::Ora(942) | ErrCode::Ora(904) => missing_grant(code, cx),
        ErrCode::Ora(1219) => mk(
            K::MissingGrant,
            format!("the database is not open, so this view cannot be read ({code})"),
            "only fixed (V$) views work on a mounted database; this part is skipped".into(),
        ),
        ErrCode::Ora(1034) | ErrCode::Ora(1089) | ErrCode::Ora(27101) => mk(
            K::InstanceDown,
            format!("the instance behind {target} is down ({code})"),
            "start it (srvctl start database / STARTUP MOUNT) or check which instance the \
             service points to; dgscope keeps retrying"
                .into(),
        ),
        ErrCode::Ora(3113)
        | ErrCode::Ora(3114)
        | ErrCode::Ora(3135)
        | ErrCode::Ora(1012)
        | ErrCode::Ora(12537)
        | ErrCode::Ora(12547)
        | ErrCode::Ora(12571)
        | ErrCode::Dpi(1080)
        | ErrCode::Dpi(1010) => mk(
            K::ConnectionLost,
            format!("connection to {target} lost ({code})"),
            "the instance restarted or the network dropped the session (check the alert log \
             and the network); dgscope reconnects with backoff"
                .into(),
        ),
        _ => mk(
            K::Other("oracle_error".into()),
            first_line(&e.message).to_string(),
            "look the code up in Oracle's error documentation; dgscope keeps retrying".into(),
        ),
    }
}

fn missing_grant(code: ErrCode, cx: &ErrContext) -> Explanation {
    let user = cx.user.as_deref().unwrap_or("<user>");
    let views = if cx.views.is_empty() {
        "a view".to_string()
    } else {
        cx.views.join(", ")
    };
    let grants: Vec<String> = cx
        .views
        .iter()
        .map(|v| format!("GRANT SELECT ON {} TO {user};", super::sql::grant_object(v)))
        .collect();
    let what = if code == ErrCode::Ora(904) {
        "a column of"
    } else {
        "no access to"
    };
    Explanation {
        kind: SampleErrorKind::MissingGrant,
        summary: format!("{what} {views} ({code})"),
        fix: if grants.is_empty() {
            format!("GRANT SELECT_CATALOG_ROLE TO {user}; (see dgscope grants)")
        } else {
            format!(
                "on the primary: {} or GRANT SELECT_CATALOG_ROLE TO {user}; (see dgscope grants)",
                grants.join(" ")
            )
        },
        give_up: false,
    }
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("").trim()
}

/// The DPI-1047 explanation printed before any screen starts: what is missing and how to
/// install it. At most a screenful (the loader's own reason is kept on one line).
pub fn client_library_help(e: &OraError, dir: Option<&std::path::Path>) -> String {
    let reason = e
        .message
        .split('"')
        .nth(1)
        .map(str::to_string)
        .unwrap_or_else(|| first_line(&e.message).to_string());
    // The loader's words are untrusted: one line, no escapes.
    let reason: String = dgscope_model::sanitize::field(&reason)
        .chars()
        .take(150)
        .collect();
    let looked = match dir {
        Some(d) => format!("looked in --oracle-client-dir {}", d.display()),
        None => "looked in LD_LIBRARY_PATH and the system library path".into(),
    };
    format!(
        "cannot load the Oracle Client library (DPI-1047).
dgscope talks to Oracle through Instant Client, which is missing or not found.
  loader said: {reason}
  {looked}
To fix it (Linux x86-64):
  1. Download Instant Client Basic or Basic Light, 19c or later:
     https://www.oracle.com/database/technologies/instant-client/downloads.html
     (or install the oracle-instantclient-basic RPM)
  2. Unzip it, e.g. to /opt/oracle/instantclient_23_7
  3. Install libaio: apt-get install libaio1 (libaio1t64 on Ubuntu 24.04)
     or dnf install libaio
  4. Then one of:
     --oracle-client-dir /opt/oracle/instantclient_23_7
     DGSCOPE_ORACLE_CLIENT_DIR=/opt/oracle/instantclient_23_7
     export LD_LIBRARY_PATH=/opt/oracle/instantclient_23_7
Wallets and tnsnames.ora are read from TNS_ADMIN.
Recordings need no client: dgscope report works without it.
See docs/ORACLE.md."
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_found_in_messages() {
        assert_eq!(code_in("ORA-12541: TNS:no listener"), ErrCode::Ora(12541));
        assert_eq!(
            code_in("DPI-1067: call timeout of 5000 ms exceeded with ORA-3156"),
            ErrCode::Dpi(1067)
        );
        assert_eq!(code_in("ORA-"), ErrCode::Other);
        assert_eq!(code_in(""), ErrCode::Other);
        assert_eq!(ErrCode::Ora(942).to_string(), "ORA-00942");
    }
}
