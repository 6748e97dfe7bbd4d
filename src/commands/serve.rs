//! `dgscope serve`: one process samples every configured pair (profiles, one live pair from
//! flags, twins) and serves their metrics to Prometheus. It validates everything first, binds
//! the listener before connecting to anything, and serves from snapshots, so a database that
//! hangs or refuses never delays a scrape: its pair shows `dgscope_up 0` until it answers.

use super::pairs::{self, bad, Keep, Named, Spec};
use super::Failure;
use crate::cli::serve::ServeArgs;
use crate::exposition::PairSnapshot;
use crate::pipeline::DriverConfig;
use crate::serve::web_config::WebConfig;
use crate::serve::{http, spawn_driver, Board, PairSource};
use std::net::{SocketAddr, ToSocketAddrs};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

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

/// Starts a pair's source and its driver task on `pipelines`; a pair that cannot start says
/// why on stderr once and as `dgscope_up 0` for as long as we run.
fn start(
    spec: Spec,
    index: usize,
    board: &Arc<Board>,
    cfg: &DriverConfig,
    pipelines: &tokio::runtime::Handle,
    running: &mut Vec<Keep>,
) {
    let src = match pairs::open(spec, 0, 1.0, pipelines) {
        Ok(o) => {
            running.push(o.keep);
            PairSource {
                pair: o.pair,
                describe: o.describe,
                slots: o.slots,
                rx: o.rx,
            }
        }
        Err(n) => {
            eprintln!("dgscope serve: pair {}: {}", n.pair, n.message);
            board.publish(
                index,
                PairSnapshot::pending(&n.pair, n.source, &n.slots, n.kind),
            );
            return;
        }
    };
    spawn_driver(pipelines, board.clone(), index, src, cfg.clone());
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
    let named = Named {
        profiles: &a.profiles,
        all_profiles: a.all_profiles,
        conn: &a.conn,
        twins: &a.twins,
        seed: a.seed,
        distinct_seeds: false,
    };
    let mut specs = pairs::specs(&named, &config)?;
    if specs.is_empty() {
        return Err(bad(
            "serve needs pairs: PROFILE names, --all-profiles, --primary CONN [--standby CONN …] or --twin SCENARIO",
        ));
    }
    // Said on the listening line: which share of the fleet this exporter has.
    let mut shard_note = String::new();
    if let Some(shard) = &a.shard {
        let all = specs.len();
        specs.retain(|s| shard.owns(s.pair()));
        shard_note = format!("shard {shard} of {all} named, ");
    }
    pairs::validate(&specs)?;
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
        .map(|s| PairSnapshot::pending(s.pair(), "", &s.slots(), "connecting"))
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
    // Every pair's twin and pipeline: sampling, judging and rendering are CPU work. The
    // scrapes have the runtime above to themselves, and the pool's lower priority makes a
    // busy second yield to them.
    let pipelines = pairs::pool("dgscope-pipeline")?;
    let on = pipelines.handle().clone();
    let result = runtime.block_on(async move {
        let server = tokio::spawn(http::serve(listener, site));
        eprintln!(
            "dgscope serve: listening on {scheme}://{local}{path}{auth} — {shard_note}{} pair(s): {}",
            names.len(),
            names.join(", ")
        );
        let mut running: Vec<Keep> = Vec::new();
        // Sources start off the runtime's thread: a password prompt or a slow client library
        // load must not hold up scrapes.
        let board2 = board.clone();
        let starter = tokio::task::spawn_blocking(move || {
            for (i, s) in specs.into_iter().enumerate() {
                start(s, i, &board2, &cfg, &on, &mut running);
            }
            running
        });
        let running = starter.await.ok();
        wait_for_signal().await;
        server.abort();
        for k in running.iter().flatten() {
            k.stop();
        }
        Ok::<_, Failure>(())
    });
    runtime.shutdown_timeout(std::time::Duration::from_millis(200));
    pipelines.shutdown_timeout(std::time::Duration::from_millis(200));
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
