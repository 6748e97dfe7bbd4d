//! `dgscope bugreport [-o FILE]`: what a maintainer needs to understand a first contact that
//! went wrong, in one text to read before sending: version and platform, the config file with
//! every password redacted, the log's last lines, and what the connect-time probe says of
//! each configured profile's databases (one line per database; "unreachable: …" when it
//! cannot be reached). It never prompts: a profile without a password source or wallet is
//! skipped with a line saying so.

use super::live::{self, Passwords};
use super::{print, Failure};
use crate::cli::BugreportArgs;
use crate::config::Config;
use crate::log::LogSettings;
use crate::source::oracle::driver::{Driver, LoginSpec};
use crate::source::oracle::errors::OraError;
use crate::source::oracle::{connect, probe, OracleDriver};
use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

/// Everything outside the report's own logic: a seam for tests (the fake driver).
pub struct Probing<'a> {
    pub init: &'a dyn Fn(Option<&Path>) -> Result<(), OraError>,
    pub driver: Arc<dyn Driver>,
    pub passwords: &'a dyn Passwords,
}

/// Environment passwords only: a bug report never prompts.
struct EnvOnly;

impl Passwords for EnvOnly {
    fn env(&self, var: &str) -> Option<String> {
        std::env::var(var).ok()
    }
    fn stdin_is_tty(&self) -> bool {
        false
    }
    fn prompt(&self, _text: &str) -> std::io::Result<String> {
        Err(std::io::Error::other("a bug report never prompts"))
    }
}

pub fn run(
    a: BugreportArgs,
    config_flag: Option<&Path>,
    log: &LogSettings,
) -> Result<ExitCode, Failure> {
    let init = |dir: Option<&Path>| crate::source::oracle::init_client(dir);
    let probing = Probing {
        init: &init,
        driver: Arc::new(OracleDriver),
        passwords: &EnvOnly,
    };
    let text = report(
        config_flag,
        log,
        a.log_lines,
        (!a.no_probe).then_some(&probing),
    );
    match &a.output {
        Some(path) if !crate::output::is_stdout(path) => {
            crate::output::write_file(path, text.as_bytes(), a.force)
                .map_err(Failure::bad_input)?;
            eprintln!("dgscope: wrote {}", path.display());
        }
        _ => print(&crate::sanitize::output(&text))?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The whole report as text.
pub fn report(
    config_flag: Option<&Path>,
    log: &LogSettings,
    log_lines: usize,
    probing: Option<&Probing<'_>>,
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# dgscope bug report (read it before sending: it names hosts, services and users; never a password)");
    let _ = writeln!(out, "version: dgscope {}", env!("CARGO_PKG_VERSION"));
    let _ = writeln!(out, "platform: {}", platform());
    let _ = writeln!(
        out,
        "terminal: TERM={} COLORTERM={} NO_COLOR={}",
        var("TERM"),
        var("COLORTERM"),
        var("NO_COLOR")
    );
    let _ = writeln!(
        out,
        "oracle client: DGSCOPE_ORACLE_CLIENT_DIR={} LD_LIBRARY_PATH={}",
        var("DGSCOPE_ORACLE_CLIENT_DIR"),
        var("LD_LIBRARY_PATH")
    );

    let path = crate::config::config_path(config_flag);
    let _ = writeln!(
        out,
        "\n## config: {}",
        path.as_ref()
            .map_or("none (no config directory)".into(), |p| p
                .display()
                .to_string())
    );
    let config = match &path {
        Some(p) => match crate::output::read_bounded(p, crate::config::MAX_CONFIG_BYTES) {
            Ok(text) => {
                out.push_str(&redact(&text));
                if !text.ends_with('\n') {
                    out.push('\n');
                }
                match super::load_config(config_flag) {
                    Ok(c) => Some(c),
                    Err(e) => {
                        let _ = writeln!(out, "(does not load: {e})");
                        None
                    }
                }
            }
            Err(e) => {
                let _ = writeln!(out, "(not read: {e})");
                super::load_config(config_flag).ok()
            }
        },
        None => None,
    };

    match &log.file {
        Some(file) => {
            let _ = writeln!(out, "\n## log: {} (last {log_lines} lines)", file.display());
            match crate::log::tail(file, log_lines) {
                Ok(lines) => lines.iter().for_each(|l| {
                    out.push_str(&redact_quoted(l, false));
                    out.push('\n');
                }),
                Err(e) => {
                    let _ = writeln!(out, "(not read: {e})");
                }
            }
        }
        None => {
            let _ = writeln!(out, "\n## log: none (run the failing command with --log-file FILE, then bugreport --log-file FILE)");
        }
    }

    let _ = writeln!(out, "\n## probe");
    match (probing, config) {
        (None, _) => {
            let _ = writeln!(out, "(skipped: --no-probe)");
        }
        (Some(_), None) => {
            let _ = writeln!(out, "(no config: no profiles to probe)");
        }
        (Some(p), Some(c)) => probe_profiles(&mut out, &c, p),
    }
    out
}

fn var(name: &str) -> String {
    std::env::var(name).map_or_else(|_| "-".into(), |v| crate::sanitize::field(&v))
}

fn platform() -> String {
    let os = std::fs::read_to_string("/etc/os-release")
        .ok()
        .and_then(|t| {
            t.lines().find_map(|l| {
                l.strip_prefix("PRETTY_NAME=")
                    .map(|v| v.trim_matches('"').to_string())
            })
        })
        .unwrap_or_else(|| "unknown release".into());
    format!("{} {} ({os})", std::env::consts::OS, std::env::consts::ARCH)
}

/// The config text with every password value replaced: `password = …` keys, and any string
/// that holds one (`primary = "scott/tiger@…"`, refused by the loader but maybe in the file).
pub fn redact(text: &str) -> String {
    text.lines().map(|l| redact_line(l) + "\n").collect()
}

fn redact_line(line: &str) -> String {
    let key = line
        .split('=')
        .next()
        .unwrap_or("")
        .trim()
        .trim_matches('"');
    if key == "password" || (key.contains("password") && key != "password_env") {
        return format!("{key} = \"<redacted>\"");
    }
    // Connect strings: `primary`, `standby` and the lines of a standby list (no key). Any
    // other value (a path, a time zone) keeps its `/`: a maintainer needs it, and only a
    // string with an `@` after a `user/…` can be a connect string with a password.
    let item = line.trim_start().starts_with('"');
    let conn = item || matches!(key, "primary" | "standby");
    redact_quoted(line, conn)
}

/// Quoted strings holding USER/PASSWORD@… (the log never writes one; belt and braces).
/// `conn`: the line holds connect strings, so `user/password` without `@` counts too.
fn redact_quoted(line: &str, conn: bool) -> String {
    let mut out = String::with_capacity(line.len());
    for (i, part) in line.split('"').enumerate() {
        if i > 0 {
            out.push('"');
        }
        let password = connect::holds_password(part) && (conn || part.contains('@'));
        if i % 2 == 1 && password {
            out.push_str("<redacted: holds a password>");
        } else {
            out.push_str(part);
        }
    }
    out
}

fn probe_profiles(out: &mut String, config: &Config, p: &Probing<'_>) {
    if config.profiles.is_empty() {
        let _ = writeln!(out, "(the config has no profiles)");
        return;
    }
    let mut client: Option<Result<(), String>> = None;
    for (name, profile) in &config.profiles {
        if profile.primary.is_none() {
            let _ = writeln!(
                out,
                "{name}: twin scenario {} (no database)",
                profile.scenario.as_deref().unwrap_or("?")
            );
            continue;
        }
        let mut conn = crate::cli::oracle::ConnArgs {
            primary: None,
            standby: Vec::new(),
            standby_as: None,
            password_env: None,
            oracle_client_dir: None,
            interval: None,
            call_timeout: Duration::from_secs(10),
            connect_timeout: Duration::from_secs(15),
        };
        let plan = super::profile::apply_profile_conn(&mut conn, name, config)
            .and_then(|_| live::plan(&conn));
        let plan = match plan {
            Ok(plan) => plan,
            Err(f) => {
                let _ = writeln!(out, "{name}: not probed: {}", f.message);
                continue;
            }
        };
        let pw = super::profile::WithProfile {
            inner: p.passwords,
            password: profile.password.as_ref(),
        };
        if let Err(f) = live::check_password_source(&plan, &pw) {
            let _ = writeln!(out, "{name}: not probed: {}", f.message);
            continue;
        }
        let loaded = client.get_or_insert_with(|| {
            (p.init)(plan.client_dir.as_deref())
                .map_err(|e| live::client_failure(&e, plan.client_dir.as_deref()).message)
        });
        if let Err(why) = loaded {
            let first = why.lines().next().unwrap_or("");
            let _ = writeln!(out, "{name}: unreachable: {first}");
            continue;
        }
        let passwords = match live::read_passwords(&plan, &pw) {
            Ok(p) => p,
            Err(f) => {
                let _ = writeln!(out, "{name}: not probed: {}", f.message);
                continue;
            }
        };
        for (slot, spec, privilege) in &plan.targets {
            let login = LoginSpec {
                conn: spec.clone(),
                privilege: *privilege,
                password: spec.user.as_ref().and_then(|u| passwords.get(u).cloned()),
                call_timeout: plan.call_timeout,
            };
            let line = probe_one(p.driver.clone(), login, plan.connect_timeout);
            let _ = writeln!(out, "{name} {slot} {spec}: {line}");
        }
    }
}

/// Connects (on a helper thread, abandoned after the connect timeout) and probes.
fn probe_one(driver: Arc<dyn Driver>, login: LoginSpec, timeout: Duration) -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let r = driver.connect(&login).and_then(|mut c| probe(c.as_mut()));
        let _ = tx.send(r);
    });
    match rx.recv_timeout(timeout) {
        Ok(Ok(pr)) => format!(
            "{} {} {}, {} instance(s), db_unique_name {}, SQL variant {}",
            pr.version_full.as_deref().unwrap_or(&pr.version),
            pr.role.as_str(),
            pr.open_mode.as_str(),
            pr.instances,
            pr.db_unique_name.as_deref().unwrap_or("?"),
            crate::source::oracle::log::variant_label(pr.features)
        ),
        Ok(Err(e)) => format!(
            "unreachable: {} {}",
            e.code,
            crate::sanitize::field(e.message.lines().next().unwrap_or(""))
        ),
        Err(_) => format!("unreachable: no answer within {} s", timeout.as_secs()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_redacted_in_any_form() {
        let text = "[profiles.p]\nprimary = \"scott/tiger42@//h/S\"\npassword = \"hunter2\"\npassword_env = \"PW\"\n";
        let r = redact(text);
        assert!(!r.contains("tiger42") && !r.contains("hunter2"), "{r}");
        assert!(r.contains("password_env = \"PW\""), "{r}");
        assert!(r.contains("password = \"<redacted>\""), "{r}");
        let list = "standby = [\n  \"b=sys/tiger43\",\n  \"mon@//h2/s\",\n]\n";
        let r = redact(list);
        assert!(!r.contains("tiger43") && r.contains("mon@//h2/s"), "{r}");
    }

    /// Paths and zones keep their `/`: what a maintainer needs from a first-contact report.
    #[test]
    fn paths_and_time_zones_are_not_taken_for_passwords() {
        let text = "log_file = \"/var/tmp/dgscope.log\"\ntz = \"Europe/Berlin\"\n[profiles.p]\nprimary = \"dgmon@//h:1521/s\"\noracle_client_dir = \"/opt/oracle/ic\"\ntz = \"Asia/Tokyo\"\n";
        assert_eq!(redact(text), text);
    }
}
