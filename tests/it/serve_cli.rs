//! The `serve` and `check --format openmetrics / --textfile` commands as a user runs them.

use crate::common::serve;
use assert_cmd::Command;
use dgscope::exposition::parse::parse;
use dgscope::exposition::Format;
use std::process::Stdio;

fn dgscope(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::cargo_bin("dgscope")
        .unwrap()
        .env_remove("DGSCOPE_CONFIG")
        .env("HOME", "/nonexistent-dgscope-test")
        .env("XDG_CONFIG_HOME", "/nonexistent-dgscope-test")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn bad_serve_input_is_one_line_and_exit_2() {
    for (args, needle) in [
        (vec!["serve"], "serve needs pairs"),
        (vec!["serve", "--twin", "no-such"], "no-such"),
        (
            vec!["serve", "--twin", "slow-srl", "--twin", "slow-srl"],
            "twice",
        ),
        (
            vec![
                "serve",
                "--twin",
                "slow-srl",
                "--web.listen-address",
                "nonsense",
            ],
            "--web.listen-address",
        ),
        (
            vec![
                "serve",
                "--twin",
                "slow-srl",
                "--web.telemetry-path",
                "metrics",
            ],
            "--web.telemetry-path",
        ),
        // Paths no request could ever match (reliability review m4).
        (
            vec![
                "serve",
                "--twin",
                "slow-srl",
                "--web.telemetry-path",
                "/metrics?x",
            ],
            "a query or fragment",
        ),
        (
            vec![
                "serve",
                "--twin",
                "slow-srl",
                "--web.telemetry-path",
                "/métriques",
            ],
            "percent-encoded",
        ),
        (
            vec!["serve", "--twin", "slow-srl", "--web.telemetry-path", "//"],
            "empty segment",
        ),
        (
            vec![
                "serve",
                "--twin",
                "slow-srl",
                "--web.telemetry-path",
                "/a b",
            ],
            "percent-encoded",
        ),
        (
            vec!["serve", "--standby", "mon@//h/s"],
            "--standby needs --primary",
        ),
        (vec!["serve", "nosuchprofile"], "nosuchprofile"),
    ] {
        let (code, out, err) = dgscope(&args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(out.is_empty());
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn serve_binds_then_serves_twins_and_stops_on_sigterm() {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_dgscope"))
        .args([
            "serve",
            "--twin",
            "healthy-sync",
            "--web.listen-address",
            "127.0.0.1:0",
        ])
        .env("HOME", "/nonexistent-dgscope-test")
        .env("XDG_CONFIG_HOME", "/nonexistent-dgscope-test")
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let (hostport, line) = serve::listening(&mut child);
    assert!(line.contains("twin-healthy-sync"), "{line}");
    let fetch = || {
        serve::get_metrics(&hostport)
            .split_once("\r\n\r\n")
            .unwrap()
            .1
            .to_string()
    };
    // Up once the paced twin (wall clock x1) has sampled: bounded by 100 tries.
    let mut up = false;
    for _ in 0..100 {
        let e = parse(&fetch(), Format::Text).unwrap();
        if e.value(
            "dgscope_up",
            &[("pair", "twin-healthy-sync"), ("slot", "standby")],
        ) == Some(1.0)
        {
            up = true;
            assert!(!e
                .matching(
                    "dgscope_wait_event_duration_seconds_count",
                    &[("event", "log file sync")]
                )
                .is_empty());
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(up, "the twin pair came up");
    // Transparent huge pages off for the exporter (its footprint: benches/serve.rs), where
    // the kernel says.
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
    if let Some(thp) = status.lines().find(|l| l.starts_with("THP_enabled:")) {
        assert!(thp.ends_with('0'), "{thp}");
    }
    let pid = child.id().to_string();
    std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
}

#[test]
fn check_writes_openmetrics_and_an_atomic_textfile() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let (code, out, err) = dgscope(&[
        "check",
        "--twin",
        "slow-srl",
        "--duration",
        "90s",
        "--format",
        "openmetrics",
        "--textfile",
        d,
    ]);
    assert_eq!(code, Some(1), "slow-srl is WARN: {err}");
    let om = parse(&out, Format::OpenMetrics).unwrap();
    let pair = ("pair", "twin-slow-srl");
    assert_eq!(
        om.value(
            "dgscope_finding",
            &[pair, ("id", "standby-redo-write-slow")]
        ),
        Some(1.0)
    );
    assert!(om
        .value("dgscope_user_commits_created", &[pair, ("slot", "primary")])
        .is_some());
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, vec!["dgscope_twin-slow-srl.prom".to_string()]);
    let text = std::fs::read_to_string(dir.path().join(&names[0])).unwrap();
    let t = parse(&text, Format::Text).unwrap();
    assert_eq!(
        t.value(
            "dgscope_finding",
            &[pair, ("id", "standby-redo-write-slow")]
        ),
        Some(1.0)
    );
    // The same run as text keeps its usual output and still writes the file.
    let (code, out, err) = dgscope(&["check", "--twin", "healthy-sync", "--textfile", d]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("dgscope check: OK"), "{out}");
    assert!(dir.path().join("dgscope_twin-healthy-sync.prom").exists());
    // A directory that does not exist: UNKNOWN, one line, nothing written.
    let missing = dir.path().join("missing");
    let (code, _, err) = dgscope(&[
        "check",
        "--twin",
        "healthy-sync",
        "--textfile",
        missing.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(3));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("--textfile"), "{err}");
    assert!(!missing.exists());
}

/// A `--web.config.file` that cannot be honoured is one line naming the file and the key,
/// exit 2, before anything listens.
#[test]
fn a_bad_web_config_is_one_line_naming_the_key() {
    let dir = tempfile::tempdir().unwrap();
    for (yaml, needle) in [
        (
            "basic_auth_users:\n  prom: plaintext\n",
            "basic_auth_users.prom: not a bcrypt hash",
        ),
        (
            "tls_server_config:\n  cert_file: nope.pem\n  key_file: nope.key\n",
            "tls_server_config.cert_file",
        ),
        (
            "tls_server_config:\n  client_auth_type: Sometimes\n  cert_file: a\n  key_file: b\n",
            "tls_server_config.cert_file",
        ),
        ("basic_auth_user: {}\n", "unknown field `basic_auth_user`"),
        ("- just\n- a list\n", "not a web configuration"),
    ] {
        let path = dir.path().join("web.yml");
        std::fs::write(&path, yaml).unwrap();
        let (code, out, err) = dgscope(&[
            "serve",
            "--twin",
            "healthy-sync",
            "--web.listen-address",
            "127.0.0.1:0",
            "--web.config.file",
            path.to_str().unwrap(),
        ]);
        assert_eq!(code, Some(2), "{yaml}: {err}");
        assert!(out.is_empty());
        assert_eq!(err.lines().count(), 1, "{yaml}: {err}");
        assert!(err.contains("--web.config.file"), "{err}");
        assert!(err.contains(path.to_str().unwrap()), "{err}");
        assert!(err.contains(needle), "{yaml}: {err}");
    }
    let (code, _, err) = dgscope(&[
        "serve",
        "--twin",
        "healthy-sync",
        "--web.config.file",
        "/nonexistent/web.yml",
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("cannot read"), "{err}");
}

/// Basic auth without TLS (behind a TLS-terminating proxy, say): every path asks for the
/// user; the hash's password lets a scrape in, any other does not. (Over real TLS, with curl
/// and Prometheus: tests/tls_e2e.sh, run by CI.)
#[test]
fn basic_auth_lets_in_the_users_password_only() {
    use std::io::{Read, Write};
    let dir = tempfile::tempdir().unwrap();
    let hash = bcrypt::hash("s3cret pass", 4).unwrap();
    let path = dir.path().join("web.yml");
    std::fs::write(&path, format!("basic_auth_users:\n  prom: '{hash}'\n")).unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_dgscope"))
        .args([
            "serve",
            "--twin",
            "healthy-sync",
            "--web.listen-address",
            "127.0.0.1:0",
            "--web.config.file",
        ])
        .arg(&path)
        .env("HOME", "/nonexistent-dgscope-test")
        .env("XDG_CONFIG_HOME", "/nonexistent-dgscope-test")
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let (hostport, line) = serve::listening(&mut child);
    assert!(line.contains("(basic auth for 1 user(s))"), "{line}");
    let get = |path: &str, auth: Option<&str>| {
        let mut s = std::net::TcpStream::connect(&hostport).unwrap();
        s.set_read_timeout(Some(std::time::Duration::from_secs(10)))
            .unwrap();
        let auth = auth
            .map(|a| format!("Authorization: Basic {a}\r\n"))
            .unwrap_or_default();
        write!(s, "GET {path} HTTP/1.1\r\nHost: x\r\n{auth}\r\n").unwrap();
        let mut r = String::new();
        s.read_to_string(&mut r).unwrap();
        r
    };
    // base64("prom:s3cret pass"), ("prom:wrong"), ("other:s3cret pass").
    let good = "cHJvbTpzM2NyZXQgcGFzcw==";
    for (path, auth, status) in [
        ("/metrics", None, "401"),
        ("/", None, "401"),
        ("/metrics", Some("cHJvbTp3cm9uZw=="), "401"),
        ("/metrics", Some("b3RoZXI6czNjcmV0IHBhc3M="), "401"),
        ("/metrics", Some(good), "200"),
        ("/", Some(good), "200"),
    ] {
        let r = get(path, auth);
        assert!(
            r.starts_with(&format!("HTTP/1.1 {status} ")),
            "{path} {auth:?}: {r}"
        );
        if status == "401" {
            assert!(
                r.contains("WWW-Authenticate: Basic realm=\"dgscope\""),
                "{r}"
            );
            assert!(!r.contains("dgscope_up"), "{r}");
        }
    }
    assert!(get("/metrics", Some(good)).contains("dgscope_build_info"));
    let _ = child.kill();
    let _ = child.wait();
}
