//! What `dgscope serve` costs at fleet size.
//!
//! `cargo bench --bench serve` prints:
//! - `/metrics` rendering for 200 pairs (`DGSCOPE_BENCH_PAIRS` to change) (twin pairs of every scenario, 90 s of data each, so
//!   every family and histogram is filled): p50/p99 per scrape in both formats, and the size
//!   (target p99 < 5 ms per scrape in release),
//! - the same scrape over HTTP on 127.0.0.1 (responder included),
//! - the resident memory of a `dgscope serve` process sampling the same number of twin pairs
//!   paced to the wall clock, after its engines have filled their raw spans (target for 200
//!   pairs: < 300 MB, scrape p99 < 25 ms), and its scrape latency meanwhile: a scrape a
//!   second by a client on the same machine, time to the last byte.
//!
//! Set `DGSCOPE_BENCH_QUICK=1` to skip the process measurement (it takes about 150 s).

use dgscope::causes::Thresholds;
use dgscope::exposition::parse::parse;
use dgscope::exposition::{Format, PairSnapshot};
use dgscope::pipeline::{Driver, DriverConfig};
use dgscope::sample::recording::Entry;
use dgscope::sample::Slot;
use dgscope::serve::http::Site;
use dgscope::serve::Board;
use dgscope::source::twin::{Scenario, Twin};
use dgscope::source::PullSource;
use std::io::{Read, Write};

// The tests' reading of serve's announced address.
#[path = "../tests/it/common/serve.rs"]
#[allow(dead_code)]
mod common_serve;
use std::time::{Duration, Instant};

/// How long the process runs before its memory is read: past the raw span the drivers keep
/// (the rules' longest raw read plus a minute, about 120 s), so the figure is the steady
/// state, not the filling (at 75 s it was 15 % lower).
const FILL_S: u64 = 140;

/// Pairs in the fleet: 200 (issue 42's scale), or `DGSCOPE_BENCH_PAIRS`.
fn pairs() -> usize {
    std::env::var("DGSCOPE_BENCH_PAIRS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200)
}

fn fleet() -> Vec<PairSnapshot> {
    let scenarios = Scenario::names();
    (0..pairs())
        .map(|i| {
            let name = scenarios[i % scenarios.len()];
            let scenario: Scenario = name.parse().unwrap();
            let mut d = Driver::new(DriverConfig::last_minute(Thresholds::default()));
            let mut twin = Twin::new(scenario, i as u64 + 1);
            for _ in 0..90 {
                for s in twin.next_tick().unwrap().samples {
                    d.push(Entry::Sample(Box::new(s)));
                }
            }
            d.finish();
            PairSnapshot::from_engine(
                &format!("pair{i:02}-{name}"),
                &twin.describe(),
                &[Slot::primary(), Slot::standby()],
                d.engine(),
                d.assessment(),
            )
        })
        .collect()
}

fn percentiles(mut v: Vec<f64>) -> (f64, f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[v.len() * 99 / 100], v[v.len() - 1])
}

fn http_get(addr: &str, accept: &str) -> String {
    let mut buf = Vec::new();
    http_get_into(addr, accept, &mut buf);
    String::from_utf8(buf).unwrap()
}

/// One scrape, read into `buf` (cleared first). A scraper keeps its buffers between scrapes
/// (Prometheus pools them), so the time is the server's answer and the transfer, not this
/// client growing a fresh 12 MB buffer.
fn http_get_into(addr: &str, accept: &str, buf: &mut Vec<u8>) {
    buf.clear();
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        s,
        "GET /metrics HTTP/1.1\r\nHost: b\r\nAccept: {accept}\r\n\r\n"
    )
    .unwrap();
    s.read_to_end(buf).unwrap();
}

const PROM_ACCEPT: &str =
    "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5";

fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// utime + stime of a process, in clock ticks (100 per second on Linux).
fn cpu_ticks(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let f: Vec<&str> = stat[stat.rfind(')')? + 2..].split_whitespace().collect();
    Some(f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?)
}

fn process() {
    let dir = tempfile::tempdir().unwrap();
    let names = Scenario::names();
    let mut config = String::new();
    for i in 0..pairs() {
        config.push_str(&format!(
            "[profiles.pair{i:02}]\nscenario = \"{}\"\n\n",
            names[i % names.len()]
        ));
    }
    let path = dir.path().join("config.toml");
    std::fs::write(&path, config).unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_dgscope"))
        .args([
            "--config",
            path.to_str().unwrap(),
            "serve",
            "--all-profiles",
        ])
        .args(["--web.listen-address", "127.0.0.1:0"])
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let (addr, _) = common_serve::listening(&mut child);
    // Fill the one-minute windows, scraping every second like Prometheus.
    let mut times = Vec::new();
    let mut buf = Vec::new();
    let mut peak = 0;
    let start = Instant::now();
    let mut cpu0 = None;
    while start.elapsed() < Duration::from_secs(FILL_S) {
        if cpu0.is_none() && start.elapsed() > Duration::from_secs(15) {
            cpu0 = cpu_ticks(child.id()).map(|t| (t, Instant::now()));
        }
        let s = Instant::now();
        http_get_into(&addr, PROM_ACCEPT, &mut buf);
        times.push(s.elapsed().as_secs_f64() * 1e3);
        assert!(buf.ends_with(b"# EOF\n"));
        peak = peak.max(rss_kib(child.id()).unwrap_or(0));
        std::thread::sleep(Duration::from_secs(1));
    }
    let body = http_get(&addr, PROM_ACCEPT);
    let text = body.split_once("\r\n\r\n").unwrap().1;
    let e = parse(text, Format::OpenMetrics).unwrap();
    let up = e
        .series("dgscope_up")
        .iter()
        .filter(|s| s.value == 1.0)
        .count();
    let rss = rss_kib(child.id()).unwrap_or(0);
    let peak = peak.max(rss);
    let cpu = match (cpu0, cpu_ticks(child.id())) {
        (Some((t0, i0)), Some(t1)) => (t1 - t0) as f64 / 100.0 / i0.elapsed().as_secs_f64() * 100.0,
        _ => f64::NAN,
    };
    let (p50, p99, max) = percentiles(times[10..].to_vec());
    println!(
        "serve process, {} twin pairs paced x1 after {FILL_S} s: RSS {:.1} MB (peak {:.1} MB, target < 300 MB for 200); CPU {cpu:.0} % of one core (twins, drivers, causes and 1 scrape/s); {up} slots up; HTTP scrape p50 {p50:.2} ms, p99 {p99:.2} ms (target < 25 ms), max {max:.2} ms",
        pairs(),
        rss as f64 / 1024.0,
        peak as f64 / 1024.0,
    );
    let _ = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let _ = child.wait();
}

fn main() {
    let board = Board::new(fleet());
    let site = Site::new(board.clone(), "/metrics");
    for (format, accept) in [
        (Format::OpenMetrics, Some(PROM_ACCEPT)),
        (Format::Text, None),
    ] {
        let (f, body) = site.metrics(accept);
        assert_eq!(f, format);
        let e = parse(&body, format).unwrap();
        let series: usize = e.families.iter().map(|f| f.series.len()).sum();
        for _ in 0..20 {
            site.metrics(accept);
        }
        let times: Vec<f64> = (0..500)
            .map(|_| {
                let s = Instant::now();
                let (_, b) = site.metrics(accept);
                std::hint::black_box(b.len());
                s.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        let (p50, p99, max) = percentiles(times);
        println!(
            "/metrics render, {} pairs, {format:?}: p50 {p50:.3} ms, p99 {p99:.3} ms, max {max:.3} ms per scrape (target p99 < 5 ms); {series} series, {} KiB",
            pairs(),
            body.len() / 1024
        );
    }
    // Over HTTP, responder included.
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let listener = rt
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    rt.spawn(dgscope::serve::http::serve(listener, site));
    let mut buf = Vec::new();
    let times: Vec<f64> = (0..300)
        .map(|_| {
            let s = Instant::now();
            http_get_into(&addr, PROM_ACCEPT, &mut buf);
            std::hint::black_box(buf.len());
            s.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    let (p50, p99, max) = percentiles(times);
    println!(
        "/metrics over HTTP on 127.0.0.1, {} pairs, OpenMetrics: p50 {p50:.3} ms, p99 {p99:.3} ms, max {max:.3} ms",
        pairs()
    );
    drop(rt);
    if std::env::var_os("DGSCOPE_BENCH_QUICK").is_none() {
        process();
    }
}
