//! `dgscope serve`: one process samples every configured pair (profiles, one live pair from
//! flags, twins) and serves their metrics to Prometheus. It validates everything first, binds
//! the listener before connecting to anything, and serves from snapshots, so a database that
//! hangs or refuses never delays a scrape: its pair shows `dgscope_up 0` until it answers.

use super::live::{self, Passwords, Terminal};
use super::{Failure, EXIT_BAD_INPUT};
use crate::cli::oracle::ConnArgs;
use crate::cli::serve::ServeArgs;
use crate::config::Config;
use crate::exposition::PairSnapshot;
use crate::pipeline::DriverConfig;
use crate::sample::Slot;
use crate::serve::web_config::WebConfig;
use crate::serve::{http, spawn_driver, Board, PairSource};
use crate::source::oracle::clock::SystemClock;
use crate::source::oracle::{connect, init_client, OracleDriver, Secret};
use crate::source::twin::{spawn_paced, Scenario, Twin, TwinControl};
use crate::source::PullSource;
use crate::timestamp::Timestamp;
use std::net::{SocketAddr, ToSocketAddrs};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

/// One pair to serve.
enum Spec {
    Twin {
        pair: String,
        scenario: Scenario,
    },
    Live {
        pair: String,
        conn: ConnArgs,
        /// A profile's own password (from a mode-0600 config file).
        password: Option<Secret>,
    },
}

impl Spec {
    fn pair(&self) -> &str {
        match self {
            Spec::Twin { pair, .. } | Spec::Live { pair, .. } => pair,
        }
    }
}

/// The terminal's passwords, plus a profile's own password under the variable name
/// `watch::apply_profile` gives it.
struct ProfilePasswords<'a> {
    var: Option<&'a str>,
    password: Option<&'a Secret>,
}

impl Passwords for ProfilePasswords<'_> {
    fn env(&self, var: &str) -> Option<String> {
        match (self.var, self.password) {
            (Some(v), Some(p)) if v == var => Some(p.expose().to_string()),
            _ => Terminal.env(var),
        }
    }
    fn stdin_is_tty(&self) -> bool {
        Terminal.stdin_is_tty()
    }
    fn prompt(&self, text: &str) -> std::io::Result<String> {
        Terminal.prompt(text)
    }
}

fn bad(msg: impl Into<String>) -> Failure {
    Failure {
        message: msg.into(),
        code: EXIT_BAD_INPUT,
    }
}

/// `:PORT` (every interface) or `HOST:PORT`.
pub fn parse_listen(addr: &str) -> Result<SocketAddr, String> {
    let full = if let Some(port) = addr.strip_prefix(':') {
        format!("0.0.0.0:{port}")
    } else {
        addr.to_string()
    };
    full.to_socket_addrs()
        .ok()
        .and_then(|mut a| a.next())
        .ok_or_else(|| {
            format!("--web.listen-address {addr:?}: not HOST:PORT or :PORT (e.g. 127.0.0.1:9731)")
        })
}

fn profile_spec(name: &str, config: &Config, base: &ConnArgs) -> Result<Spec, Failure> {
    let p = config.require_profile(name).map_err(Failure::bad_input)?;
    if p.primary.is_none() {
        if let Some(sc) = &p.scenario {
            let scenario: Scenario = sc
                .parse()
                .map_err(|e| bad(format!("profile {name:?}: {e}")))?;
            return Ok(Spec::Twin {
                pair: name.to_string(),
                scenario,
            });
        }
    }
    // The profile's databases and settings, as `watch PROFILE` reads them.
    let mut args = crate::cli::oracle::WatchArgs {
        profile: Some(name.to_string()),
        conn: ConnArgs {
            primary: None,
            standby: Vec::new(),
            ..base.clone()
        },
        record: None,
        ui: crate::cli::UiArgs {
            theme: None,
            no_color: false,
            ascii: false,
            no_mouse: false,
        },
    };
    let profile = super::watch::apply_profile(&mut args, name, config)?;
    if args.conn.primary.is_none() && args.conn.standby.is_empty() {
        return Err(bad(format!(
            "profile {name:?} names no database (primary/standby) and no scenario"
        )));
    }
    Ok(Spec::Live {
        pair: name.to_string(),
        conn: args.conn,
        password: profile.password,
    })
}

fn specs(a: &ServeArgs, config: &Config) -> Result<Vec<Spec>, Failure> {
    let mut out = Vec::new();
    let mut names: Vec<String> = a.profiles.clone();
    if a.all_profiles {
        if config.profiles.is_empty() {
            return Err(bad(
                "--all-profiles: the config file has no profiles (see `dgscope config path`)",
            ));
        }
        for n in config.profiles.keys() {
            if !names.contains(n) {
                names.push(n.clone());
            }
        }
    }
    for n in &names {
        out.push(profile_spec(n, config, &a.conn)?);
    }
    if let Some(p) = &a.conn.primary {
        let spec = connect::parse("--primary", &p.0).map_err(|e| bad(e.0))?;
        let mut conn = a.conn.clone();
        super::settings::fill_conn(&mut conn, None, config)?;
        out.push(Spec::Live {
            pair: spec.name,
            conn,
            password: None,
        });
    } else if !a.conn.standby.is_empty() {
        return Err(bad("--standby needs --primary (one live pair from flags)"));
    }
    for t in &a.twins {
        let scenario: Scenario = t.parse().map_err(Failure::bad_input)?;
        out.push(Spec::Twin {
            pair: format!("twin-{}", scenario.name()),
            scenario,
        });
    }
    if out.is_empty() {
        return Err(bad(
            "serve needs pairs: PROFILE names, --all-profiles, --primary CONN [--standby CONN …] or --twin SCENARIO",
        ));
    }
    for (i, s) in out.iter().enumerate() {
        if out[..i].iter().any(|o| o.pair() == s.pair()) {
            return Err(bad(format!(
                "pair {:?} is given twice; each pair is served once",
                s.pair()
            )));
        }
    }
    Ok(out)
}

/// Everything that can be wrong with the input, before the listener is bound.
fn validate(specs: &[Spec]) -> Result<(), Failure> {
    for s in specs {
        if let Spec::Live {
            conn,
            password,
            pair,
            ..
        } = s
        {
            let plan = live::plan(conn).map_err(|f| bad(format!("pair {pair}: {}", f.message)))?;
            let pw = ProfilePasswords {
                var: conn.password_env.as_deref(),
                password: password.as_ref(),
            };
            live::check_password_source(&plan, &pw)
                .map_err(|f| bad(format!("pair {pair}: {}", f.message)))?;
        }
    }
    Ok(())
}

/// What keeps the sources running; dropped on exit.
#[derive(Default)]
struct Running {
    twins: Vec<std::sync::mpsc::Sender<TwinControl>>,
    collectors: Vec<crate::source::oracle::CollectorHandle>,
}

fn start(
    spec: Spec,
    index: usize,
    seed: u64,
    board: &Arc<Board>,
    cfg: &DriverConfig,
    running: &mut Running,
) {
    let src = match spec {
        Spec::Twin { pair, scenario } => {
            let twin = Twin::starting_at(scenario, seed, Timestamp::now());
            let describe = twin.describe();
            let (tx, rx) = tokio::sync::mpsc::channel(256);
            let (ctl, ctl_rx) = std::sync::mpsc::channel();
            if let Err(e) = spawn_paced(twin, 1.0, tx, ctl_rx) {
                eprintln!("dgscope serve: pair {pair}: cannot start the twin: {e}");
                return;
            }
            running.twins.push(ctl);
            PairSource {
                pair,
                describe,
                slots: crate::source::twin::slots_of(scenario),
                rx,
            }
        }
        Spec::Live {
            pair,
            conn,
            password,
        } => {
            let pw = ProfilePasswords {
                var: conn.password_env.as_deref(),
                password: password.as_ref(),
            };
            match live::start_with(
                &conn,
                &pw,
                init_client,
                Arc::new(OracleDriver),
                Arc::new(SystemClock),
            ) {
                Ok(ls) => {
                    running.collectors.push(ls.collector);
                    PairSource {
                        pair,
                        describe: ls.describe,
                        slots: ls.slots,
                        rx: ls.rx,
                    }
                }
                Err(f) => {
                    // Reported on stderr once and as `dgscope_up 0` for as long as we run.
                    eprintln!("dgscope serve: pair {pair}: {}", f.message);
                    let kind = if f.code == live::EXIT_UNKNOWN {
                        "no_client_library"
                    } else {
                        "start_failed"
                    };
                    let slots = live::plan(&conn)
                        .map(|p| p.targets.into_iter().map(|t| t.0).collect())
                        .unwrap_or_else(|_| vec![Slot::primary()]);
                    board.publish(index, PairSnapshot::pending(&pair, "oracle", &slots, kind));
                    return;
                }
            }
        }
    };
    if let Err(e) = spawn_driver(board.clone(), index, src, cfg.clone()) {
        eprintln!("dgscope serve: cannot start a pipeline thread: {e}");
    }
}

/// The listening socket, with a backlog for crowds: at std's 128, 2,000 scrapes opened at
/// once waited 1-3 s in SYN retries before the server could see them.
fn listen(addr: SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    // As std's bind does on Unix: a restart may rebind while old connections linger.
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(http::LISTEN_BACKLOG)
}

/// Why a telemetry path could never be requested as written, if it could not. The responder
/// compares the request's path (its query cut off) byte for byte, so a path with a query, a
/// fragment, percent-encoding, non-ASCII or an empty segment would be 404 at every scrape.
fn telemetry_path_problem(path: &str) -> Option<&'static str> {
    // RFC 3986 pchar without percent-encoding: unreserved, sub-delims, ':' and '@'.
    let allowed = |c: char| c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=:@/".contains(c);
    if !path.starts_with('/') || path == "/" {
        Some("must start with / and not be / itself (the landing page)")
    } else if path.contains(['?', '#']) {
        Some("a query or fragment is cut from each request before it is compared, so no scrape would match")
    } else if path.contains("//") {
        Some("an empty segment (//) would never match a scraper's request")
    } else if !path.chars().all(allowed) {
        Some("only letters, digits and - . _ ~ ! $ & ' ( ) * + , ; = : @ / can be matched as written (requests arrive percent-encoded)")
    } else {
        None
    }
}

/// Turns transparent huge pages off for this process. `serve` runs two threads a pair, and
/// the allocator gives each thread its own pages in memory it asks the kernel to back with
/// 2 MiB pages where it can: fifty twin pairs held 340 MB, 299 MB of it in huge pages mostly
/// empty; without them 79 MB (benches/serve.rs). A long-running exporter wants the small
/// footprint more than the fewer TLB misses.
fn no_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl(PR_SET_THP_DISABLE) takes integers only and sets a flag of this process;
    // a kernel without it returns an error, which changes nothing.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

pub fn run(a: ServeArgs, config_flag: Option<&Path>) -> Result<ExitCode, Failure> {
    no_huge_pages();
    let config = super::load_config(config_flag).map_err(Failure::bad_input)?;
    let path = a.telemetry_path.clone();
    if let Some(why) = telemetry_path_problem(&path) {
        return Err(bad(format!(
            "--web.telemetry-path {path:?}: {why}; choose a path such as /metrics"
        )));
    }
    let addr = parse_listen(&a.listen_address).map_err(bad)?;
    let web = match &a.web_config_file {
        Some(f) => WebConfig::load(f).map_err(|e| {
            bad(format!(
                "--web.config.file {e} (the file is the Prometheus exporter toolkit's web configuration: tls_server_config, basic_auth_users)"
            ))
        })?,
        None => WebConfig::none(),
    };
    let specs = specs(&a, &config)?;
    validate(&specs)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .map_err(|e| Failure {
            message: format!("cannot start the runtime: {e}"),
            code: 1,
        })?;
    // Bind first: Prometheus sees the target up (with every pair down) before any connect.
    let listener = {
        let _rt = runtime.enter();
        listen(addr).map_err(|e| {
            bad(format!(
                "cannot listen on {addr}: {e}; choose another --web.listen-address"
            ))
        })?
    };
    let local = listener.local_addr().unwrap_or(addr);
    let pending: Vec<PairSnapshot> = specs
        .iter()
        .map(|s| {
            let slots = match s {
                Spec::Twin { scenario, .. } => crate::source::twin::slots_of(*scenario),
                Spec::Live { conn, .. } => live::plan(conn)
                    .map(|p| p.targets.into_iter().map(|t| t.0).collect())
                    .unwrap_or_default(),
            };
            PairSnapshot::pending(s.pair(), "", &slots, "connecting")
        })
        .collect();
    let names: Vec<String> = specs.iter().map(|s| s.pair().to_string()).collect();
    let board = Board::new(pending);
    let scheme = if web.tls.is_some() { "https" } else { "http" };
    let guards: Vec<String> = [
        web.tls.is_some().then(|| "TLS".to_string()),
        (web.users() > 0).then(|| format!("basic auth for {} user(s)", web.users())),
    ]
    .into_iter()
    .flatten()
    .collect();
    let auth = if guards.is_empty() {
        String::new()
    } else {
        format!(" ({})", guards.join(", "))
    };
    let site = http::Site::with_web(board.clone(), &path, web);
    let cfg = DriverConfig::last_minute(config.thresholds.clone());
    let seed = a.seed;
    let result = runtime.block_on(async move {
        let server = tokio::spawn(http::serve(listener, site));
        eprintln!(
            "dgscope serve: listening on {scheme}://{local}{path}{auth} — {} pair(s): {}",
            names.len(),
            names.join(", ")
        );
        let mut running = Running::default();
        // Sources start off the runtime's thread: a password prompt or a slow client library
        // load must not hold up scrapes.
        let board2 = board.clone();
        let starter = tokio::task::spawn_blocking(move || {
            for (i, s) in specs.into_iter().enumerate() {
                start(s, i, seed, &board2, &cfg, &mut running);
            }
            running
        });
        let running = starter.await.ok();
        wait_for_signal().await;
        server.abort();
        if let Some(r) = running {
            for t in &r.twins {
                let _ = t.send(TwinControl::Stop);
            }
            for c in &r.collectors {
                c.stop();
            }
        }
        Ok::<_, Failure>(())
    });
    runtime.shutdown_timeout(std::time::Duration::from_millis(200));
    result.map(|_| ExitCode::SUCCESS)
}

async fn wait_for_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listen_addresses_in_the_exporter_convention() {
        assert_eq!(parse_listen(":9731").unwrap().port(), 9731);
        assert!(parse_listen(":9731").unwrap().ip().is_unspecified());
        assert_eq!(
            parse_listen("127.0.0.1:9000").unwrap(),
            "127.0.0.1:9000".parse().unwrap()
        );
        assert!(parse_listen("9731").is_err());
        assert!(parse_listen("host:port").is_err());
    }
}
