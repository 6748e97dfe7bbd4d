//! One precedence rule (issue 14.2): flag > DGSCOPE_* variable > profile > top-level config >
//! built-in default. Each setting is run at every level with every lower level also set to
//! something else, so a level that loses (or is ignored) shows in the output.

use assert_cmd::Command;
use serde_json::Value;

fn dgscope(cfg: &std::path::Path) -> Command {
    let mut c = Command::cargo_bin("dgscope").unwrap();
    c.arg("--config").arg(cfg);
    for var in [
        "DGSCOPE_INTERVAL",
        "DGSCOPE_FAIL_ON",
        "DGSCOPE_DURATION",
        "DGSCOPE_THEME",
        "DGSCOPE_STANDBY_AS",
    ] {
        c.env_remove(var);
    }
    c
}

fn config(text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

/// Seconds after 05:00:00 of "2026-11-30T05:MM:SS.000Z" (the twin starts at 05:00:00 UTC).
fn secs(rfc3339: &str) -> i64 {
    assert!(rfc3339.starts_with("2026-11-30T05:"), "{rfc3339}");
    let m: i64 = rfc3339[14..16].parse().unwrap();
    let s: i64 = rfc3339[17..19].parse().unwrap();
    m * 60 + s
}

/// Runs `check … --format json` and returns (first sample offset = interval, last sample
/// offset = duration, exit code).
fn check(cfg: &std::path::Path, args: &[&str], env: &[(&str, &str)]) -> (i64, i64, i32) {
    let mut c = dgscope(cfg);
    c.arg("check").args(args).args(["--format", "json"]);
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.output().unwrap();
    let code = out.status.code().unwrap();
    assert!(
        code == 0 || code == 1,
        "{args:?} {env:?}: exit {code}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let from = secs(v["window"]["from"].as_str().unwrap());
    let to = secs(v["window"]["to"].as_str().unwrap());
    (from, to, code)
}

const ALL_LEVELS: &str = "interval = \"4s\"\nduration = \"48s\"\nfail_on = \"crit\"\n\
[profiles.t]\nscenario = \"slow-srl\"\ninterval = \"2s\"\nduration = \"40s\"\nfail_on = \"warn\"\n";

#[test]
fn interval_flag_env_profile_config_default() {
    let (_d, plain) = config("");
    let (_d2, cfg) = config(ALL_LEVELS);
    let d = ["--duration", "60s"];
    let twin = ["--twin", "slow-srl", "--duration", "60s"];
    assert_eq!(check(&plain, &twin, &[]).0, 1, "default 1s");
    assert_eq!(
        check(&cfg, &twin, &[]).0,
        4,
        "top-level config without a profile"
    );
    let with = |extra: &[&'static str]| [&["t"][..], &d[..], extra].concat();
    assert_eq!(check(&cfg, &with(&[]), &[]).0, 2, "profile over config");
    let env = [("DGSCOPE_INTERVAL", "3s")];
    assert_eq!(check(&cfg, &with(&[]), &env).0, 3, "variable over profile");
    assert_eq!(
        check(&cfg, &with(&["--interval", "5s"]), &env).0,
        5,
        "flag over variable"
    );
}

#[test]
fn duration_flag_env_profile_config_default() {
    let (_d, plain) = config("");
    let (_d2, cfg) = config(ALL_LEVELS);
    let i = ["--interval", "1s"];
    assert_eq!(
        check(&plain, &["--twin", "slow-srl"], &[]).1,
        60,
        "default 60s"
    );
    assert_eq!(
        check(&cfg, &[&["--twin", "slow-srl"][..], &i[..]].concat(), &[]).1,
        48,
        "top-level config"
    );
    let with = |extra: &[&'static str]| [&["t"][..], &i[..], extra].concat();
    assert_eq!(check(&cfg, &with(&[]), &[]).1, 40, "profile over config");
    let env = [("DGSCOPE_DURATION", "30s")];
    assert_eq!(check(&cfg, &with(&[]), &env).1, 30, "variable over profile");
    assert_eq!(
        check(&cfg, &with(&["--duration", "20s"]), &env).1,
        20,
        "flag over variable"
    );
}

#[test]
fn fail_on_flag_env_profile_config_default() {
    // slow-srl is WARN: exit 1 under fail_on warn, 0 under crit. Each level flips the one
    // below it.
    let (_d, plain) = config("");
    let (_d2, cfg) = config(ALL_LEVELS);
    let twin = ["--twin", "slow-srl", "--duration", "30s"];
    assert_eq!(check(&plain, &twin, &[]).2, 1, "default warn");
    assert_eq!(check(&cfg, &twin, &[]).2, 0, "top-level config crit");
    let with = |extra: &[&'static str]| [&["t", "--duration", "30s"][..], extra].concat();
    assert_eq!(
        check(&cfg, &with(&[]), &[]).2,
        1,
        "profile warn over config crit"
    );
    let env = [("DGSCOPE_FAIL_ON", "crit")];
    assert_eq!(
        check(&cfg, &with(&[]), &env).2,
        0,
        "variable crit over profile"
    );
    assert_eq!(
        check(&cfg, &with(&["--fail-on", "warn"]), &env).2,
        1,
        "flag warn over variable"
    );
}

#[test]
fn record_duration_follows_the_rule_too() {
    let (_d, cfg) = config(ALL_LEVELS);
    let dir = tempfile::tempdir().unwrap();
    let lines = |args: &[&str], env: &[(&str, &str)]| {
        let path = dir
            .path()
            .join(format!("r{}.jsonl", args.len() + env.len()));
        let mut c = dgscope(&cfg);
        c.arg("record").args(args).arg("-o").arg(&path);
        for (k, v) in env {
            c.env(k, v);
        }
        c.assert().success();
        let n = std::fs::read_to_string(&path).unwrap().lines().count();
        std::fs::remove_file(&path).unwrap();
        (n - 1) / 2 // the header; a primary and a standby sample per instant
    };
    // Profile t: 40 s at 2 s = 20 samples; the variable's 30 s at 2 s = 15.
    assert_eq!(lines(&["t"], &[]), 20);
    assert_eq!(lines(&["t"], &[("DGSCOPE_DURATION", "30s")]), 15);
    assert_eq!(
        lines(&["t", "--interval", "1s"], &[("DGSCOPE_DURATION", "30s")]),
        30
    );
}

/// `watch` writes the settings it resolved to the log before it connects (here it stops at
/// the missing client library, DPI-1047): standby_as and theme at every level they exist.
fn watch_settings(cfg: &std::path::Path, args: &[&str], env: &[(&str, &str)]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("w.log");
    let mut c = dgscope(cfg);
    c.env_remove("LD_LIBRARY_PATH")
        .env("DGSCOPE_TEST_PW", "pw")
        .arg("--log-file")
        .arg(&log)
        .arg("watch")
        .args(args);
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&log).unwrap();
    text.lines()
        .find(|l| l.contains("watch settings"))
        .unwrap_or_else(|| panic!("no settings line:\n{text}"))
        .to_string()
}

#[test]
fn standby_as_and_theme_flag_env_profile_config_default() {
    let (_d, plain) = config("");
    let (_d2, cfg) = config(
        "theme = \"light\"\n[profiles.p]\nprimary = \"m@//h1/a\"\nstandby = \"m@//h2/b\"\n\
password_env = \"DGSCOPE_TEST_PW\"\nstandby_as = \"normal\"\ntheme = \"mono\"\n",
    );
    let flags = [
        "--primary",
        "m@//h1/a",
        "--standby",
        "m@//h2/b",
        "--password-env",
        "DGSCOPE_TEST_PW",
    ];
    let l = watch_settings(&plain, &flags, &[]);
    assert!(l.contains("standby_as=Sysdg theme=default"), "default: {l}");
    let l = watch_settings(&cfg, &flags, &[]);
    assert!(
        l.contains("theme=light theme_from=\"config file\""),
        "config: {l}"
    );
    let l = watch_settings(&cfg, &["p"], &[]);
    assert!(
        l.contains("standby_as=Normal theme=mono theme_from=profile"),
        "profile: {l}"
    );
    let env = [("DGSCOPE_STANDBY_AS", "sysdba"), ("DGSCOPE_THEME", "dark")];
    let l = watch_settings(&cfg, &["p"], &env);
    assert!(
        l.contains("standby_as=Sysdba theme=dark theme_from=\"flag or variable\""),
        "env: {l}"
    );
    let l = watch_settings(
        &cfg,
        &["p", "--standby-as", "sysdg", "--theme", "high-contrast"],
        &env,
    );
    assert!(
        l.contains("standby_as=Sysdg theme=high-contrast"),
        "flag: {l}"
    );
}
