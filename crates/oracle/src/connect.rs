//! Connect strings as a DBA types them, checked before anything touches the network:
//! `user@//host:port/service`, `user@host:port/service`, `user@TNS_ALIAS`,
//! `user@(DESCRIPTION=…)`, and `/@alias` (wallet or other external authentication).
//! A password in the string (`scott/tiger@db`) is refused: argv is visible in `ps` and in
//! shell history, so the error never repeats what was typed after the user name.

use std::fmt;

/// How to log in. A MOUNTED standby accepts only administrative connections.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Privilege {
    /// AS SYSDG (12c+), the least privilege that can read a mounted standby.
    Sysdg,
    /// AS SYSDBA: 11.2 has no SYSDG.
    Sysdba,
    /// A normal session: enough for a primary or an Active Data Guard (open) standby.
    Normal,
}

impl Privilege {
    pub fn as_str(self) -> &'static str {
        match self {
            Privilege::Sysdg => "sysdg",
            Privilege::Sysdba => "sysdba",
            Privilege::Normal => "normal",
        }
    }
}

impl fmt::Display for Privilege {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A parsed connect string without any secret in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConnSpec {
    /// `None` for external authentication (`/@alias`: wallet, OS).
    pub user: Option<String>,
    /// What Oracle Net resolves: EZConnect, a TNS alias or a full descriptor.
    pub connect: String,
    /// A short name for the slot (`standby:<name>`): explicit `name=`, else service or alias.
    pub name: String,
}

impl ConnSpec {
    pub fn external_auth(&self) -> bool {
        self.user.is_none()
    }

    /// Host and port when the string is EZConnect, for error messages (`ORA-12541`).
    pub fn host_port(&self) -> Option<String> {
        let s = self.connect.trim_start_matches("//");
        if s.starts_with('(') {
            return None;
        }
        let end = s.find('/').unwrap_or(s.len());
        let hp = &s[..end];
        (s.contains('/') || hp.contains(':')).then(|| hp.to_string())
    }

    /// The service name of an EZConnect string, or the alias.
    pub fn service(&self) -> Option<String> {
        let s = self.connect.trim_start_matches("//");
        if s.starts_with('(') {
            return None;
        }
        match s.find('/') {
            Some(i) => Some(
                s[i + 1..]
                    .split([':', '?'])
                    .next()
                    .unwrap_or("")
                    .to_string(),
            ),
            None => Some(s.to_string()),
        }
    }
}

impl fmt::Display for ConnSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}@{}",
            self.user.as_deref().unwrap_or("/"),
            self.connect
        )
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ConnSpecError(pub String);

/// True when the argument carries a password (`user/password@…`, `/password@…`,
/// `user/password`). Used by the CLI to redact its `Debug` output too.
pub fn holds_password(arg: &str) -> bool {
    let body = strip_name(arg).map_or(arg, |(_, rest)| rest);
    let user_part = match body.find('@') {
        Some(i) => &body[..i],
        // `//dbhost:1521/prod` is an Easy Connect string that forgot its `USER@`, not a
        // `user/password`: the message should say what is missing, not accuse a password.
        None if body.starts_with("//") => return false,
        None => body,
    };
    user_part.contains('/') && user_part != "/"
}

/// `name=CONN` (only a plain word counts as a name: descriptors contain `=` too).
fn strip_name(arg: &str) -> Option<(&str, &str)> {
    let (name, rest) = arg.split_once('=')?;
    let plain = !name.is_empty()
        && name.len() <= 30
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.');
    plain.then_some((name, rest))
}

/// Parses one `--primary`/`--standby` value. `flag` names the flag in messages.
pub fn parse(flag: &str, arg: &str) -> Result<ConnSpec, ConnSpecError> {
    let (explicit, body) = match strip_name(arg) {
        Some((n, rest)) => (Some(n.to_string()), rest),
        None => (None, arg),
    };
    if holds_password(arg) {
        let user = body.split('/').next().unwrap_or("").trim();
        let who = if user.is_empty() || user.contains('@') {
            "USER".to_string()
        } else {
            user.to_string()
        };
        return Err(ConnSpecError(format!(
            "{flag}: the connect string contains a password (USER/PASSWORD@…), which would be \
             visible in ps and shell history; give {who}@… and supply the password with \
             --password-env VAR, at the prompt, or use a wallet (/@alias)"
        )));
    }
    let body = body.trim();
    let Some((user, connect)) = body.split_once('@') else {
        return Err(ConnSpecError(format!(
            "{flag}: {body:?} has no '@'; expected USER@//HOST:PORT/SERVICE, USER@TNS_ALIAS \
             or /@ALIAS (wallet)"
        )));
    };
    let connect = connect.trim();
    if connect.is_empty() {
        return Err(ConnSpecError(format!(
            "{flag}: nothing after '@' in {body:?}; expected e.g. {user}@//dbhost:1521/prod"
        )));
    }
    let user = match user.trim() {
        "/" => None,
        "" => {
            return Err(ConnSpecError(format!(
                "{flag}: no user before '@' in {body:?}; use USER@{connect}, or /@{connect} for \
                 a wallet"
            )))
        }
        u if u.chars().any(char::is_whitespace) && !u.starts_with('"') => {
            return Err(ConnSpecError(format!(
                "{flag}: the user name {u:?} contains a space; quote it as \"{u}\" if it is \
                 really part of the name"
            )))
        }
        u => Some(u.to_string()),
    };
    if connect.starts_with("//") && connect.len() <= 2 {
        return Err(ConnSpecError(format!(
            "{flag}: no host after '//' in {body:?}; expected //HOST:PORT/SERVICE"
        )));
    }
    let mut spec = ConnSpec {
        user,
        connect: connect.to_string(),
        name: String::new(),
    };
    spec.name = match explicit {
        Some(n) => n,
        None => default_name(&spec),
    };
    Ok(spec)
}

fn default_name(spec: &ConnSpec) -> String {
    let raw = spec.service().unwrap_or_default();
    let clean: String = raw
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        .collect();
    if clean.is_empty() {
        "db".to_string()
    } else {
        clean
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_the_documented_forms() {
        let a = parse("--primary", "mon@//dbhost:1521/prod_a").unwrap();
        assert_eq!(a.user.as_deref(), Some("mon"));
        assert_eq!(a.connect, "//dbhost:1521/prod_a");
        assert_eq!(a.name, "prod_a");
        assert_eq!(a.host_port().as_deref(), Some("dbhost:1521"));
        let b = parse("--standby", "mon@PRODB").unwrap();
        assert_eq!(b.name, "PRODB");
        assert_eq!(b.host_port(), None);
        let w = parse("--standby", "/@prod_b_wallet").unwrap();
        assert!(w.external_auth());
        assert_eq!(w.to_string(), "/@prod_b_wallet");
        let n = parse("--standby", "far=mon@//h2/prod_c").unwrap();
        assert_eq!(n.name, "far");
        let d = parse(
            "--standby",
            "mon@(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=h)(PORT=1521))(CONNECT_DATA=(SERVICE_NAME=s)))",
        )
        .unwrap();
        assert!(d.connect.starts_with("(DESCRIPTION"));
        assert_eq!(d.host_port(), None);
    }

    #[test]
    fn refuses_a_password_without_repeating_it() {
        for arg in [
            "scott/tiger@//h:1521/s",
            "scott/tiger",
            "/tiger@db",
            "x=scott/tiger@db",
            "scott/ti@ger@db",
        ] {
            let e = parse("--primary", arg).unwrap_err().0;
            assert!(!e.contains("tiger") && !e.contains("ger@"), "{e}");
            assert!(e.contains("--password-env"), "{e}");
            assert!(holds_password(arg));
        }
        assert!(!holds_password("/@wallet"));
        assert!(!holds_password("mon@//h:1/s"));
    }

    #[test]
    fn other_mistakes_get_one_clear_line() {
        for arg in ["mon", "mon@", "@db", "mon@//"] {
            let e = parse("--standby", arg).unwrap_err().0;
            assert!(e.starts_with("--standby: "), "{e}");
            assert!(!e.contains('\n'));
        }
        // A forgotten USER@ is said as such, not taken for a password.
        let e = parse("--primary", "//dbhost:1521/prod").unwrap_err().0;
        assert!(e.contains("has no '@'"), "{e}");
        assert!(e.contains("USER@//HOST:PORT/SERVICE"), "{e}");
        assert!(!holds_password("//dbhost:1521/prod"));
    }
}
