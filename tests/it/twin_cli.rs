//! `dgscope record --twin` and `dgscope twin list` end to end: reproducible files, a readable
//! recording that `report` accepts, and one-line errors with exit code 2.

use assert_cmd::Command;
use dgscope::sample::recording::{read_all, Entry};
use dgscope::source::twin::Scenario;

fn dgscope() -> Command {
    Command::cargo_bin("dgscope").unwrap()
}

fn record(dir: &std::path::Path, name: &str, args: &[&str]) -> std::path::PathBuf {
    let path = dir.join(name);
    let out = dgscope()
        .args(["record", "--duration", "20s", "-o"])
        .arg(&path)
        .args(args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    // It says what it wrote, once it is complete.
    let size = std::fs::metadata(&path).unwrap().len();
    assert!(size > 0);
    assert!(
        err.lines()
            .last()
            .is_some_and(|l| l.starts_with("dgscope: recorded ")
                && l.contains(" samples of ")
                && l.contains("20s of simulated time")
                && l.contains(&format!("to {}", path.display()))),
        "{err}"
    );
    path
}

#[test]
fn same_scenario_seed_and_duration_give_a_byte_identical_recording() {
    let dir = tempfile::tempdir().unwrap();
    let a = record(
        dir.path(),
        "a.jsonl",
        &["--twin", "slow-srl", "--seed", "7"],
    );
    let b = record(
        dir.path(),
        "b.jsonl",
        &["--twin", "slow-srl", "--seed", "7"],
    );
    let c = record(
        dir.path(),
        "c.jsonl",
        &["--twin", "slow-srl", "--seed", "8"],
    );
    let (a, b, c) = (
        std::fs::read(a).unwrap(),
        std::fs::read(b).unwrap(),
        std::fs::read(c).unwrap(),
    );
    assert!(a == b, "same seed, different bytes");
    assert!(a != c, "another seed should change the samples");
}

/// The standby-state scenarios (CAUSES.md part 2) through the same CLI: `record --twin` is
/// byte-identical for a seed and carries the new keys; `check --twin` accepts each name.
#[test]
fn part_two_scenarios_record_reproducibly_and_check_accepts_them() {
    let dir = tempfile::tempdir().unwrap();
    for name in [
        "apply-stopped",
        "gap-fra-full",
        "delayed-apply",
        "dest-deferred",
        "protection-resync",
        "mira-apply",
        "sync-stall",
    ] {
        let a = record(dir.path(), &format!("{name}-a.jsonl"), &["--twin", name]);
        let b = record(dir.path(), &format!("{name}-b.jsonl"), &["--twin", name]);
        let (a_bytes, b_bytes) = (std::fs::read(&a).unwrap(), std::fs::read(b).unwrap());
        assert!(a_bytes == b_bytes, "{name}: same seed, different bytes");
        let text = String::from_utf8(a_bytes).unwrap();
        for key in [
            "\"fra\":",
            "\"gaps\":",
            "\"dg_messages\":",
            "\"recovery_mode\":",
        ] {
            assert!(text.contains(key), "{name}: no {key} in the recording");
        }
        let out = dgscope()
            .args(["check", "--twin", name, "--duration", "20s"])
            .output()
            .unwrap();
        // 0/1/2 = OK/WARN/CRIT; an unknown name is 3 (UNKNOWN) with an error line.
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            matches!(out.status.code(), Some(0..=2)) && !err.contains("unknown twin scenario"),
            "{name}: {:?} {err}",
            out.status.code()
        );
    }
}

#[test]
fn a_twin_recording_reads_back_and_reports() {
    let dir = tempfile::tempdir().unwrap();
    let path = record(
        dir.path(),
        "r.jsonl",
        &["--twin", "healthy-sync", "--seed", "3"],
    );
    let (header, entries) = read_all(&path).unwrap();
    assert_eq!(header.source.as_deref(), Some("twin:healthy-sync seed=3"));
    assert_eq!(header.interval_ms, Some(1000));
    assert_eq!(
        header.created.unwrap().to_string(),
        "2026-11-30T05:00:00.000Z"
    );
    let samples: Vec<_> = entries
        .iter()
        .filter_map(|e| match e {
            Entry::Sample(s) => Some(s),
            Entry::Mark(_) => None,
        })
        .collect();
    assert_eq!(samples.len(), 40, "20 s × primary + standby");
    assert_eq!(samples[0].t.to_string(), "2026-11-30T05:00:01.000Z");
    assert_eq!(samples[0].slot.as_str(), "primary");
    assert_eq!(samples[1].slot.as_str(), "standby");
    let out = dgscope()
        .args(["report", "histogram"])
        .arg(&path)
        .args(["--event", "log file sync", "--format", "json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["total"].as_u64().unwrap() > 100_000, "{v}");
}

#[test]
fn twin_list_prints_every_scenario_with_a_description() {
    let out = dgscope().args(["twin", "list"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), Scenario::ALL.len());
    assert_eq!(lines.len(), 39);
    for (line, name) in lines.iter().zip(Scenario::names()) {
        assert!(line.starts_with(name), "{line}");
        assert!(line.len() > name.len() + 10, "{line}");
    }
}

#[test]
fn bad_input_is_one_line_and_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("x.jsonl");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["--twin", "nope"],
            "valid scenarios: healthy-sync, fastsync",
        ),
        (vec![], "record needs a source: --twin SCENARIO"),
        (
            vec!["--twin", "slow-srl", "--duration", "ten"],
            "--duration \"ten\"",
        ),
        (
            vec!["--twin", "slow-srl", "--interval", "10ms"],
            "out of range: use 100ms to 1h",
        ),
    ];
    for (args, want) in cases {
        let out = dgscope()
            .arg("record")
            .args(&args)
            .arg("-o")
            .arg(&out_file)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
    let out = dgscope()
        .args(["record", "--twin", "healthy-sync", "--duration", "2s", "-o"])
        .arg(dir.path().join("no/such/dir/x.jsonl"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("cannot write the recording") && err.lines().count() == 1,
        "{err}"
    );
}

/// The topology scenarios (issue 13) through the CLI: `record --twin` writes the topology's
/// keys and extra member, and `check --twin` names what the catalog expects.
#[test]
fn topology_scenarios_record_their_members_and_check_names_the_cause() {
    let dir = tempfile::tempdir().unwrap();
    for (name, keys, check) in [
        (
            "rac-node-saturated",
            &["\"instances\":", "\"host\":\"dbhost2\""][..],
            Some((1, "inst 2 on dbhost2: LGWR and committers wait for CPU")),
        ),
        (
            "two-standbys",
            &["\"slot\":\"standby:prod_c\"", "\"dg_config\":"][..],
            Some((0, "")),
        ),
        (
            "far-sync",
            &[
                "\"role\":\"FAR SYNC\"",
                "\"type\":\"FAR SYNC\"",
                "\"parent\":\"prod_fs\"",
            ][..],
            Some((1, "(far sync prod_fs)")),
        ),
    ] {
        let a = record(dir.path(), &format!("{name}-a.jsonl"), &["--twin", name]);
        let b = record(dir.path(), &format!("{name}-b.jsonl"), &["--twin", name]);
        let (a_bytes, b_bytes) = (std::fs::read(&a).unwrap(), std::fs::read(b).unwrap());
        assert!(a_bytes == b_bytes, "{name}: same seed, different bytes");
        let text = String::from_utf8(a_bytes).unwrap();
        for key in keys {
            assert!(text.contains(key), "{name}: no {key} in the recording");
        }
        if let Some((code, title)) = check {
            let out = dgscope()
                .args(["check", "--twin", name, "--duration", "2m"])
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert_eq!(out.status.code(), Some(code), "{name}: {stdout}");
            assert!(stdout.contains(title), "{name}: {stdout}");
        }
    }
}
