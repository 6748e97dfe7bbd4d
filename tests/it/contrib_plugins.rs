//! The monitoring examples in contrib/ run as written: the NRPE command, the Icinga 2
//! CheckCommand with its Service's vars, and the Zabbix UserParameter, each with the binary
//! under test in place of /usr/bin/dgscope and a config whose profile `prod` is a twin
//! scenario (a live profile would need a database). What each prints is what its monitoring
//! system reads: one status line with performance data, or one JSON document.

use std::path::Path;
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap()
}

/// A config file with profile `prod` running `scenario`.
fn config(scenario: &str) -> tempfile::NamedTempFile {
    let f = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(
        f.path(),
        format!("[profiles.prod]\nscenario = \"{scenario}\"\n"),
    )
    .unwrap();
    f
}

fn run(argv: &[String], cfg: &Path) -> (i32, String) {
    assert_eq!(argv[0], "/usr/bin/dgscope", "{argv:?}");
    let out = Command::new(env!("CARGO_BIN_EXE_dgscope"))
        .args(&argv[1..])
        .env("DGSCOPE_CONFIG", cfg)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn the_nrpe_command_runs_as_written() {
    let text = read("contrib/nagios/dgscope.cfg");
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("command[check_dgscope_prod]="))
        .expect("the NRPE command");
    let argv: Vec<String> = line.split_whitespace().map(String::from).collect();
    assert!(
        argv.windows(2).any(|w| w == ["-t", "9"]),
        "fits check_nrpe's 10 s"
    );
    let (code, out) = run(&argv, config("healthy-sync").path());
    assert_eq!(code, 0, "{out}");
    let first = out.lines().next().unwrap();
    assert!(first.starts_with("dgscope check: OK — "), "{out}");
    assert!(
        first.contains(" | ") && first.contains("transport_lag_prod_b="),
        "{out}"
    );
    // The -w/-c ranges are the perfdata's warn/crit.
    assert!(first.contains(";30;120;0"), "{first}");
    let (code, out) = run(&argv, config("gap-fra-full").path());
    assert_eq!(code, 2, "{out}");
    assert!(out.starts_with("dgscope check: CRIT — "), "{out}");
}

/// The Icinga 2 DSL as far as the example uses it: `command = [ … ]`, each argument `"KEY"
/// = "$var$"` or `{ value = "$var$" skip_key = true order = N }`, and `vars.NAME = VALUE`
/// on the command (defaults) and the Service (which wins).
fn icinga_argv(text: &str) -> Vec<String> {
    let command = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("command = ["))
        .expect("command = [ … ]");
    let mut argv: Vec<String> = command
        .trim_end_matches(']')
        .split(',')
        .map(|s| s.trim().trim_matches('"').to_string())
        .collect();
    let mut vars = std::collections::BTreeMap::new();
    for l in text.lines().map(str::trim) {
        if let Some((k, v)) = l.strip_prefix("vars.").and_then(|r| r.split_once(" = ")) {
            vars.insert(k.to_string(), v.trim().trim_matches('"').to_string());
        }
    }
    let body = &text[text.find("arguments = {").unwrap()..];
    let body = &body[..body.find("\n  }\n").unwrap()];
    let mut args: Vec<(i32, Option<String>, String)> = Vec::new();
    let lines: Vec<&str> = body.lines().skip(1).map(str::trim).collect();
    let mut i = 0;
    while i < lines.len() {
        let (key, rest) = lines[i].split_once(" = ").unwrap();
        let key = key.trim_matches('"').to_string();
        if rest == "{" {
            let (mut value, mut skip, mut order) = (String::new(), false, 0);
            i += 1;
            while lines[i] != "}" {
                let (k, v) = lines[i].split_once(" = ").unwrap();
                match k {
                    "value" => value = v.trim_matches('"').to_string(),
                    "skip_key" => skip = v == "true",
                    "order" => order = v.parse().unwrap(),
                    _ => panic!("unexpected {k}"),
                }
                i += 1;
            }
            args.push((order, (!skip).then_some(key), value));
        } else {
            args.push((0, Some(key), rest.trim_matches('"').to_string()));
        }
        i += 1;
    }
    args.sort_by_key(|a| a.0);
    for (_, key, value) in args {
        let var = value.trim_matches('$');
        let Some(v) = vars.get(var) else { continue };
        argv.extend(key);
        argv.push(v.clone());
    }
    argv
}

#[test]
fn the_icinga2_check_command_runs_as_written() {
    let argv = icinga_argv(&read("contrib/icinga2/dgscope.conf"));
    assert_eq!(
        argv,
        [
            "/usr/bin/dgscope",
            "check",
            "prod",
            "--duration",
            "30s",
            "-w",
            "transport_lag=30,apply_lag=300",
            "-c",
            "transport_lag=120,apply_lag=1200",
            "-t",
            "50",
        ]
    );
    let (code, out) = run(&argv, config("slow-srl").path());
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("dgscope check: WARN — "), "{out}");
    assert!(out.contains("standby-redo-write-slow"), "{out}");
}

#[test]
fn the_zabbix_user_parameter_runs_as_written() {
    let text = read("contrib/zabbix/userparameter_dgscope.conf");
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("UserParameter=dgscope.check[*],"))
        .expect("the UserParameter");
    // The agent runs it through sh with $1 replaced by the key's first parameter.
    let shell = line
        .replace("$1", "prod")
        .replace("/usr/bin/dgscope", env!("CARGO_BIN_EXE_dgscope"));
    let cfg = config("healthy-async");
    let out = Command::new("sh")
        .args(["-c", &shell])
        .env("DGSCOPE_CONFIG", cfg.path())
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    assert_eq!(v["schema"], "dgscope.check/3");
    assert_eq!(v["status"], "OK");
    assert!(v["overview"]["standbys"][0]["transport_lag_s"].is_number());
    // The JSONPaths the comment suggests exist in the document.
    assert!(v["overview"]["standbys"][0]
        .as_object()
        .unwrap()
        .contains_key("apply_lag_net_s"));
    // Unknown profile: still one document, with the error.
    let out = Command::new("sh")
        .args(["-c", &shell.replace(" \"prod\"", " \"nope\"")])
        .env("DGSCOPE_CONFIG", cfg.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    assert_eq!(v["status"], "UNKNOWN");
    assert!(v["error"].as_str().unwrap().contains("nope"), "{v}");
}

/// The systemd unit: `systemd-analyze verify` finds nothing to say about it (where systemd is
/// installed), and its ExecStart, run as written with the binary under test, a twin profile
/// `prod` and a free port for the listener, serves /metrics on 127.0.0.1.
#[test]
fn the_systemd_unit_verifies_and_its_command_serves() {
    use crate::common::serve;
    use std::process::Stdio;

    let unit = read("contrib/systemd/dgscope.service");
    let exec = unit
        .lines()
        .find_map(|l| l.strip_prefix("ExecStart="))
        .expect("ExecStart");
    let mut argv: Vec<String> = exec.split_whitespace().map(String::from).collect();
    assert_eq!(argv[0], "/usr/bin/dgscope", "{exec}");
    // Secrets by name only, and a listener on this host only.
    assert!(!exec.contains("password ") && !exec.contains("@"), "{exec}");
    let at = argv
        .iter()
        .position(|a| a == "--web.listen-address")
        .expect("a listen address");
    assert!(argv[at + 1].starts_with("127.0.0.1:"), "{exec}");

    let bin = env!("CARGO_BIN_EXE_dgscope");
    if Path::new("/usr/bin/systemd-analyze").exists() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("dgscope.service");
        std::fs::write(&path, unit.replace("/usr/bin/dgscope", bin)).unwrap();
        let out = Command::new("/usr/bin/systemd-analyze")
            .args(["verify", "--man=no"])
            .arg(&path)
            .output()
            .unwrap();
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.status.success(), "{said}");
        // Unknown keys are only warnings: none is allowed.
        assert!(said.trim().is_empty(), "{said}");
    }

    argv[at + 1] = "127.0.0.1:0".to_string();
    let cfg = config("healthy-sync");
    let mut child = Command::new(bin)
        .args(&argv[1..])
        .env("DGSCOPE_CONFIG", cfg.path())
        .env("DGSCOPE_PW", "not-used-by-a-twin")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (hostport, line) = serve::listening(&mut child);
    assert!(hostport.starts_with("127.0.0.1:"), "{line}");
    let body = serve::get_metrics(&hostport);
    let _ = child.kill();
    let _ = child.wait();
    assert!(body.starts_with("HTTP/1.1 200"), "{body}");
    assert!(body.contains("dgscope_build_info{version="), "{body}");
}
