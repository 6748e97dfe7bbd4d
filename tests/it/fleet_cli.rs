//! The fleet's commands on bad input (issue 42): one clear message and exit 2 for an unknown
//! profile, a pair named twice, a shard that does not exist, a config without profiles and
//! `config sd` without an address per shard; and `serve --shard` splitting a config's pairs
//! with nothing lost or doubled.

use crate::common;

use std::process::{Command, Stdio};

fn config(dir: &std::path::Path, text: &str) -> std::path::PathBuf {
    let p = dir.join("config.toml");
    std::fs::write(&p, text).unwrap();
    p
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_dgscope"))
        .args(args)
        .env_remove("DGSCOPE_CONFIG")
        .env("XDG_CONFIG_HOME", "/nonexistent")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const SIX: &str =
    "[profiles.east]\nscenario = \"slow-srl\"\n[profiles.west]\nscenario = \"healthy-sync\"\n\
[profiles.north]\nscenario = \"healthy-async\"\n[profiles.south]\nscenario = \"fastsync\"\n\
[profiles.dr1]\nscenario = \"healthy-sync\"\n[profiles.dr2]\nscenario = \"two-standbys\"\n";

#[test]
fn bad_input_is_one_message_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let six = config(dir.path(), SIX);
    let six = six.to_str().unwrap();
    let empty_dir = tempfile::tempdir().unwrap();
    let empty = config(empty_dir.path(), "theme = \"dark\"\n");
    let empty = empty.to_str().unwrap();
    for (args, says) in [
        (vec!["--config", six, "watch", "east", "nosuch"], "nosuch"),
        (
            vec!["--config", six, "watch", "east", "east"],
            "given twice",
        ),
        (
            vec!["--config", empty, "watch", "--all-profiles"],
            "no profiles",
        ),
        (
            vec!["--config", empty, "serve", "--all-profiles"],
            "no profiles",
        ),
        (
            vec!["--config", six, "serve", "--all-profiles", "--shard", "0/2"],
            "counted from 1",
        ),
        (
            vec!["--config", six, "serve", "--all-profiles", "--shard", "3/2"],
            "between 1 and N=2",
        ),
        (
            vec![
                "--config",
                six,
                "serve",
                "--all-profiles",
                "--shard",
                "half",
            ],
            "K/N",
        ),
        (
            vec![
                "--config", six, "watch", "east", "west", "--record", "x.jsonl",
            ],
            "--record writes one pair",
        ),
        (vec!["demo", "--fleet", "0"], "between 1 and 500"),
        (
            vec!["demo", "--fleet", "3", "--scenario", "slow-srl"],
            "--fleet draws",
        ),
        (
            vec!["config", "sd", "--shards", "2", "--listen", "mon1:9731"],
            "needs 2 --listen",
        ),
        (
            vec!["config", "sd", "--shards", "1", "--listen", "mon1"],
            "not HOST:PORT",
        ),
        (
            vec![
                "config", "sd", "--shards", "2", "--listen", "m:1", "--listen", "m:1",
            ],
            "given twice",
        ),
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(
            err.trim_end().lines().count(),
            1,
            "{args:?}: one line: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
        assert!(out.is_empty(), "{args:?}: {out}");
    }
}

#[test]
fn config_sd_prints_one_target_group_per_shard() {
    let (code, out, err) = run(&[
        "config",
        "sd",
        "--shards",
        "3",
        "--listen",
        "mon1:9731",
        "--listen",
        "mon2:9731",
        "--listen",
        "[::1]:9732",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let groups = v.as_array().unwrap();
    assert_eq!(groups.len(), 3);
    for (i, (g, addr)) in groups
        .iter()
        .zip(["mon1:9731", "mon2:9731", "[::1]:9732"])
        .enumerate()
    {
        assert_eq!(g["targets"], serde_json::json!([addr]));
        assert_eq!(g["labels"]["dgscope_shard"], format!("{}/3", i + 1));
    }
}

/// Two shards of one config serve every pair exactly once, each as its exporter says and
/// as its scrape shows.
#[test]
fn two_shards_split_the_pairs_with_nothing_lost_or_doubled() {
    let dir = tempfile::tempdir().unwrap();
    let six = config(dir.path(), SIX);
    let mut seen: Vec<String> = Vec::new();
    for k in 1..=2 {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dgscope"))
            .args(["--config", six.to_str().unwrap(), "serve", "--all-profiles"])
            .args([
                "--shard",
                &format!("{k}/2"),
                "--web.listen-address",
                "127.0.0.1:0",
            ])
            .env_remove("DGSCOPE_CONFIG")
            .stderr(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let (addr, line) = common::serve::listening(&mut child);
        assert!(line.contains(&format!("shard {k}/2 of 6 named")), "{line}");
        let body = common::serve::get_metrics(&addr);
        let _ = child.kill();
        let _ = child.wait();
        let mut pairs: Vec<String> = body
            .lines()
            .filter(|l| l.starts_with("dgscope_up{"))
            .filter_map(|l| l.split("pair=\"").nth(1))
            .filter_map(|r| r.split('"').next())
            .map(String::from)
            .collect();
        pairs.sort();
        pairs.dedup();
        assert!(!pairs.is_empty(), "shard {k}/2 serves nothing: {line}");
        seen.extend(pairs);
    }
    seen.sort();
    let mut want = vec!["dr1", "dr2", "east", "north", "south", "west"];
    want.sort();
    assert_eq!(seen, want);
}
