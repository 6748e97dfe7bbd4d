//! `serve`'s HTTP side on 127.0.0.1: it answers while every source hangs, negotiates the
//! format from `Accept`, refuses what it does not serve, and a pair that cannot connect is
//! `dgscope_up 0` with its error kind until it comes back on its own.

use crate::common;

use common::target;
use dgscope::causes::Thresholds;
use dgscope::exposition::parse::parse;
use dgscope::exposition::{Format, PairSnapshot};
use dgscope::pipeline::DriverConfig;
use dgscope::sample::Slot;
use dgscope::serve::http::{serve, Site};
use dgscope::serve::{spawn_driver, Board, PairSource};
use dgscope::source::oracle::clock::VirtualClock;
use dgscope::source::oracle::collector::{
    spawn_collector, spawn_collector_with_clock, CollectorConfig,
};
use dgscope::source::oracle::connect::Privilege;
use dgscope::source::oracle::errors::OraError;
use dgscope::source::oracle::fake::FakeDriver;
use dgscope::source::oracle::scenarios::{primary, standby, Release};
use dgscope::source::oracle::{Conn, Driver, LoginSpec};
use dgscope::source::SourceEvent;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Sends `request` and returns (status line, headers, body). Bounded so a broken server fails
/// the test instead of hanging it.
async fn http(addr: std::net::SocketAddr, request: &str) -> (String, String, String) {
    let work = async {
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        s.write_all(request.as_bytes()).await.unwrap();
        let mut buf = Vec::new();
        s.read_to_end(&mut buf).await.unwrap();
        let text = String::from_utf8(buf).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        let (status, headers) = head.split_once("\r\n").unwrap_or((head, ""));
        (status.to_string(), headers.to_string(), body.to_string())
    };
    tokio::time::timeout(Duration::from_secs(20), work)
        .await
        .expect("the server answers")
}

fn get(path: &str, accept: Option<&str>) -> String {
    let accept = accept
        .map(|a| format!("Accept: {a}\r\n"))
        .unwrap_or_default();
    format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{accept}\r\n")
}

fn header<'a>(headers: &'a str, name: &str) -> Option<&'a str> {
    headers
        .split("\r\n")
        .filter_map(|l| l.split_once(':'))
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.trim())
}

async fn listen(board: Arc<Board>, path: &str) -> std::net::SocketAddr {
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = l.local_addr().unwrap();
    tokio::spawn(serve(l, Site::new(board, path)));
    addr
}

/// A database whose connect never returns until released.
#[derive(Default)]
struct Hung {
    released: Mutex<bool>,
    cv: Condvar,
    entered: AtomicUsize,
    returned: AtomicBool,
}

struct HungDriver(Arc<Hung>);

impl Driver for HungDriver {
    fn connect(&self, _: &LoginSpec) -> Result<Box<dyn Conn>, OraError> {
        self.0.entered.fetch_add(1, Ordering::SeqCst);
        let mut r = self.0.released.lock().unwrap();
        while !*r {
            r = self.0.cv.wait(r).unwrap();
        }
        self.0.returned.store(true, Ordering::SeqCst);
        Err(OraError::ora(12541, "TNS:no listener"))
    }
}

fn pair_targets() -> Vec<dgscope::source::oracle::TargetConfig> {
    vec![
        target(
            Slot::primary(),
            "mon@//dbhost1:1521/prod_a",
            Privilege::Normal,
        ),
        target(
            Slot::standby(),
            "mon@//dbhost2:1521/prod_b",
            Privilege::Sysdg,
        ),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_listener_answers_while_every_source_hangs() {
    let hung = Arc::new(Hung::default());
    let names = ["prod_a", "prod_b", "prod_c"];
    let slots = vec![Slot::primary(), Slot::standby()];
    let board = Board::new(
        names
            .iter()
            .map(|n| PairSnapshot::pending(n, "oracle", &slots, "connecting"))
            .collect(),
    );
    let mut collectors = Vec::new();
    for (i, n) in names.iter().enumerate() {
        let (tx, rx) = tokio::sync::mpsc::channel(64);
        collectors.push(spawn_collector(
            CollectorConfig::new(pair_targets(), Duration::from_secs(1)),
            Arc::new(HungDriver(hung.clone())),
            tx,
        ));
        let src = PairSource {
            pair: n.to_string(),
            describe: "oracle".into(),
            slots: slots.clone(),
            rx,
        };
        spawn_driver(
            &tokio::runtime::Handle::current(),
            board.clone(),
            i,
            src,
            DriverConfig::last_minute(Thresholds::default()),
        );
    }
    let addr = listen(board, "/metrics").await;
    // Every collector thread is inside connect before we scrape.
    for _ in 0..2000 {
        if hung.entered.load(Ordering::SeqCst) >= 6 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(hung.entered.load(Ordering::SeqCst), 6);
    for _ in 0..3 {
        let (status, headers, body) = http(addr, &get("/metrics", None)).await;
        assert_eq!(status, "HTTP/1.1 200 OK");
        assert_eq!(
            header(&headers, "content-type"),
            Some("text/plain; version=0.0.4; charset=utf-8")
        );
        let e = parse(&body, Format::Text).unwrap();
        let up = e.series("dgscope_up");
        assert_eq!(up.len(), 6);
        assert!(up
            .iter()
            .all(|s| s.value == 0.0 && s.label("error") == Some("connecting")));
        let (status, _, page) = http(addr, &get("/", None)).await;
        assert_eq!(status, "HTTP/1.1 200 OK");
        assert!(
            page.contains("prod_c") && page.contains("connecting"),
            "{page}"
        );
    }
    // The answers came while no connect had returned.
    assert!(!hung.returned.load(Ordering::SeqCst));
    *hung.released.lock().unwrap() = true;
    hung.cv.notify_all();
    for c in collectors {
        c.stop();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accept_negotiates_the_format_and_other_requests_are_refused() {
    let slots = vec![Slot::primary(), Slot::standby()];
    let board = Board::new(vec![PairSnapshot::pending("p", "x", &slots, "no_data")]);
    let addr = listen(board, "/probe/dg").await;
    let prom = "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";
    let (status, headers, body) = http(addr, &get("/probe/dg?x=1", Some(prom))).await;
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert_eq!(
        header(&headers, "content-type"),
        Some("application/openmetrics-text; version=1.0.0; charset=utf-8")
    );
    assert_eq!(
        header(&headers, "content-length").map(|l| l.parse::<usize>().unwrap()),
        Some(body.len())
    );
    assert!(body.ends_with("# EOF\n"));
    parse(&body, Format::OpenMetrics).unwrap();
    for accept in ["text/plain", "*/*", "application/json"] {
        let (_, headers, body) = http(addr, &get("/probe/dg", Some(accept))).await;
        assert_eq!(
            header(&headers, "content-type"),
            Some("text/plain; version=0.0.4; charset=utf-8")
        );
        assert!(!body.contains("# EOF"));
        parse(&body, Format::Text).unwrap();
    }
    let (status, _, _) = http(addr, &get("/metrics", None)).await;
    assert_eq!(
        status, "HTTP/1.1 404 Not Found",
        "only the telemetry path serves metrics"
    );
    let (status, headers, _) =
        http(addr, "POST /probe/dg HTTP/1.1\r\nContent-Length: 0\r\n\r\n").await;
    assert_eq!(status, "HTTP/1.1 405 Method Not Allowed");
    assert_eq!(header(&headers, "allow"), Some("GET, HEAD"));
    let (status, headers, body) = http(addr, "HEAD /probe/dg HTTP/1.1\r\n\r\n").await;
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert!(body.is_empty());
    assert!(
        header(&headers, "content-length")
            .unwrap()
            .parse::<usize>()
            .unwrap()
            > 0
    );
    let (status, _, _) = http(addr, "garbage\r\n\r\n").await;
    assert_eq!(status, "HTTP/1.1 400 Bad Request");
    let huge = format!(
        "GET /probe/dg HTTP/1.1\r\nX: {}\r\n\r\n",
        "a".repeat(40_000)
    );
    let (status, _, _) = http(addr, &huge).await;
    assert_eq!(status, "HTTP/1.1 431 Request Header Fields Too Large");
    // Reliability review m4: versions that are not HTTP/1.0 or 1.1 were answered 200; a head
    // ended by bare LFs waited for its 408; a head a few bytes past the limit that arrived in
    // one read was answered.
    for version in ["HTTP/1.9", "HTTP/1.1x", "HTTP/2.0"] {
        let (status, _, _) = http(addr, &format!("GET /probe/dg {version}\r\n\r\n")).await;
        assert_eq!(
            status, "HTTP/1.1 505 HTTP Version Not Supported",
            "{version}"
        );
    }
    let (status, _, body) = http(addr, "GET /probe/dg HTTP/1.0\n\n").await;
    assert_eq!(
        status, "HTTP/1.1 200 OK",
        "a head in bare LFs is answered at once"
    );
    assert!(body.contains("dgscope_up"));
    let limit = dgscope::serve::http::MAX_REQUEST;
    let line = "GET /probe/dg HTTP/1.1\r\nX: ";
    for (pad, want) in [
        (limit - line.len(), "200 OK"),
        (limit - line.len() + 13, "431"),
    ] {
        let head = format!("{line}{}\r\n\r\n", "a".repeat(pad));
        let (status, _, _) = http(addr, &head).await;
        assert!(status.contains(want), "{} bytes: {status}", head.len() - 4);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pair_that_cannot_connect_is_down_with_its_error_and_comes_back() {
    const P: &str = "//dbhost1:1521/prod_a";
    const S: &str = "//dbhost2:1521/prod_b";
    let d = FakeDriver::new();
    d.add(P, primary(Release::R19, 1));
    let mut sb = standby(Release::R19, "MOUNTED");
    // The standby's listener is down for the first two attempts.
    sb.connect_errors = vec![
        OraError::ora(12541, "TNS:no listener"),
        OraError::ora(12541, "TNS:no listener"),
    ]
    .into();
    d.add(S, sb);
    let (tx, mut from_collector) = tokio::sync::mpsc::channel(64);
    let collector = spawn_collector_with_clock(
        CollectorConfig::new(pair_targets(), Duration::from_secs(1)),
        Arc::new(d),
        Arc::new(VirtualClock {
            start: common::start(),
        }),
        tx,
    );
    // A relay between collector and driver lets the test look at the board between events.
    let (relay, rx) = tokio::sync::mpsc::channel(1);
    let slots = vec![Slot::primary(), Slot::standby()];
    let board = Board::new(vec![PairSnapshot::pending(
        "prod",
        "oracle",
        &slots,
        "connecting",
    )]);
    let src = PairSource {
        pair: "prod".into(),
        describe: "oracle".into(),
        slots,
        rx,
    };
    spawn_driver(
        &tokio::runtime::Handle::current(),
        board.clone(),
        0,
        src,
        DriverConfig::last_minute(Thresholds::default()),
    );
    let addr = listen(board.clone(), "/metrics").await;
    let mut forwarded = 0;
    let mut next = async |until: &dyn Fn(&SourceEvent) -> bool| loop {
        let ev = tokio::time::timeout(Duration::from_secs(20), from_collector.recv())
            .await
            .expect("the collector goes on")
            .expect("the collector runs");
        let stop = until(&ev);
        relay.send(ev).await.unwrap();
        forwarded += 1;
        if stop {
            return;
        }
    };
    let is_failed_standby = |ev: &SourceEvent| matches!(ev, SourceEvent::Sample(s) if s.slot == Slot::standby() && s.is_error());
    next(&is_failed_standby).await;
    // Published once the driver thread took the event.
    let scrape = async |addr| {
        let (_, _, body) = http(addr, &get("/metrics", None)).await;
        parse(&body, Format::Text).unwrap()
    };
    let mut seen = None;
    for _ in 0..400 {
        let e = scrape(addr).await;
        if let Some(s) = e.matching("dgscope_up", &[("slot", "standby")]).first() {
            if s.label("error") == Some("no_listener") {
                seen = Some((s.value, e.matching("dgscope_apply_lag_seconds", &[]).len()));
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(
        seen,
        Some((0.0, 0)),
        "down with its error kind, no lag gauge"
    );
    let is_good_standby = |ev: &SourceEvent| matches!(ev, SourceEvent::Sample(s) if s.slot == Slot::standby() && !s.is_error());
    next(&is_good_standby).await;
    let mut back = false;
    for _ in 0..400 {
        let e = scrape(addr).await;
        if e.value("dgscope_up", &[("slot", "standby")]) == Some(1.0) {
            let up = e.matching("dgscope_up", &[("slot", "standby")]);
            assert_eq!(up[0].label("error"), None);
            assert_eq!(up[0].label("database"), Some("prod_b"));
            back = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!(
        back,
        "the standby came back on its own after {forwarded} events"
    );
    collector.stop();
}

/// Slowloris (reliability review C3): a hundred connections from one other address that
/// trickle their request heads hold no scrape up. That address gets `MAX_PER_PEER`
/// connections, the rest are closed at once; an honest scrape from another address is
/// answered while the slow ones are still open, and the slow ones are cut off with a 408.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_clients_from_one_address_hold_no_scrape_up() {
    use dgscope::serve::http::MAX_PER_PEER;
    let slots = vec![Slot::primary(), Slot::standby()];
    let board = Board::new(vec![PairSnapshot::pending("p", "x", &slots, "no_data")]);
    let addr = listen(board, "/metrics").await;
    let mut slow = Vec::new();
    for _ in 0..100 {
        let sock = tokio::net::TcpSocket::new_v4().unwrap();
        // Another loopback address: the attacker is not the scraper.
        sock.bind("127.0.0.2:0".parse().unwrap()).unwrap();
        let mut s = sock.connect(addr).await.unwrap();
        let _ = s.write_all(b"GET /metrics HTTP/1.1\r\n").await;
        slow.push(s);
    }
    // The scraper from another address is answered while they trickle.
    let (status, _, body) = http(addr, &get("/metrics", None)).await;
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert!(body.contains("dgscope_up"), "{body}");
    // The address's share waited for its head and was cut off with a 408; the rest were
    // closed without a word. None is held open.
    let readers: Vec<_> = slow
        .into_iter()
        .map(|mut s| {
            tokio::spawn(async move {
                let mut buf = Vec::new();
                let read =
                    tokio::time::timeout(Duration::from_secs(20), s.read_to_end(&mut buf)).await;
                assert!(read.is_ok(), "a slow client is held open");
                String::from_utf8_lossy(&buf).into_owned()
            })
        })
        .collect();
    let (mut timed_out, mut refused) = (0, 0);
    for r in readers {
        let got = r.await.unwrap();
        if got.is_empty() {
            refused += 1;
        } else {
            assert!(got.starts_with("HTTP/1.1 408 Request Timeout"), "{got}");
            timed_out += 1;
        }
    }
    assert_eq!((timed_out, refused), (MAX_PER_PEER, 100 - MAX_PER_PEER));
}
