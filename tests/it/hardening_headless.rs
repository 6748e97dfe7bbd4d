//! Headless commands that cannot mislead (issue 12 item 7) and `config check` that catches
//! what the loader would misuse (issue 17 item 8).

use crate::handmade;
use crate::hardening;

use hardening::{run, run_env};

#[test]
fn a_check_shorter_than_the_raise_time_is_unknown() {
    run(&["check", "--twin", "slow-srl", "--duration", "10s"])
        .one_line(3, "too short to judge: need ≥ 15 s");
    let rec = handmade::recording(8, 3.45, 2.89, None);
    run(&["check", "--replay", rec.path().to_str().unwrap()]).one_line(
        3,
        "too short to judge: need ≥ 15 s (a finding is raised after 15 s), got 8 s",
    );
    // Long enough: judged (slow SRL writes are found).
    let ok = run(&["check", "--twin", "slow-srl", "--duration", "60s"]);
    assert!(matches!(ok.code, 1 | 2), "{} {}", ok.code, ok.err);
}

#[cfg(target_os = "linux")]
#[test]
fn a_verdict_that_cannot_be_written_is_unknown() {
    let rec = handmade::recording(60, 0.8, 0.45, None);
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let o = std::process::Command::new(assert_cmd::cargo::cargo_bin("dgscope"))
        .args(["check", "--replay", rec.path().to_str().unwrap()])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot write output"));
}

/// Every command that writes to stdout says a full disk the same way and exits 2 (reliability
/// review m4: reports, `recording info`, `grants` and `man` exited 1, `--help` 0).
#[cfg(target_os = "linux")]
#[test]
fn every_output_that_cannot_be_written_exits_2() {
    let rec = handmade::recording(60, 0.8, 0.45, None);
    let r = rec.path().to_str().unwrap();
    for args in [
        &["report", "incident", r, "-o", "-"][..],
        &["report", "histogram", r, "--event", "log file sync"],
        &["recording", "info", r],
        &["grants"],
        &["man"],
        &["completions", "bash"],
        &["config", "init", "--help"],
        &["--version"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let o = std::process::Command::new(assert_cmd::cargo::cargo_bin("dgscope"))
            .args(args)
            .env_remove("DGSCOPE_CONFIG")
            .stdout(full)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.contains("cannot write output: No space left"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn progress_stays_off_a_stderr_that_is_not_a_terminal() {
    let r = run(&["check", "--twin", "healthy-sync", "--duration", "2m"]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(r.err, "", "cron mail must stay clean");
}

fn config(text: &str) -> tempfile::NamedTempFile {
    let f = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(f.path(), text).unwrap();
    f
}

fn config_check(f: &tempfile::NamedTempFile, home: &std::path::Path) -> hardening::Ran {
    run_env(
        &["--config", f.path().to_str().unwrap(), "config", "check"],
        &[
            ("XDG_CONFIG_HOME", home.to_str().unwrap()),
            ("HOME", home.to_str().unwrap()),
        ],
    )
}

#[test]
fn config_check_names_unknown_themes_scenarios_and_stolen_keys() {
    let home = tempfile::tempdir().unwrap();
    let cases = [
        (
            "history = 60\ntheme = \"solarised\"\n",
            ":2:1: unknown theme \"solarised\"",
        ),
        (
            "[profiles.p]\nscenario = \"slow-sr\"\n",
            ":1:1: profile \"p\": ",
        ),
        (
            "[bindings]\nmark = \"?\"\n",
            ":2:1: [bindings] mark = \"?\" takes ?, which help needs",
        ),
        (
            "[bindings]\nhelp = \"q\"\nquit = \"ctrl-q\"\n",
            "takes q, which quit needs",
        ),
        ("[bindings]\nhelp = \"ctrl-c\"\n", "Ctrl-C always quits"),
        (
            "[thresholds]\napply_gap_s = nan\n",
            ":2:1: [thresholds] apply_gap_s: must be a finite number",
        ),
        (
            "[profiles.p]\nprimary = \"scott/tiger99@//h/S\"\n",
            "holds a password",
        ),
        (
            "[profiles.p]\nprimary = \"p@P\"\npassword = 31337\n",
            "password must be a quoted string",
        ),
    ];
    for (text, want) in cases {
        let f = config(text);
        let r = config_check(&f, home.path());
        r.one_line(2, want);
        assert!(
            !r.err.contains("tiger99") && !r.err.contains("31337"),
            "{}",
            r.err
        );
    }
    let good = config("[bindings]\nquit = \"ctrl-q\"\nhelp = \"q\"\n");
    let r = config_check(&good, home.path());
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.out.contains("ok (0 profile(s), 2 binding(s)"),
        "{}",
        r.out
    );
}

#[cfg(unix)]
#[test]
fn endless_config_and_theme_files_are_one_line() {
    let home = tempfile::tempdir().unwrap();
    run(&["--config", "/dev/zero", "config", "check"]).one_line(
        2,
        "/dev/zero: cannot read the config file: larger than 1024 KiB",
    );
    run(&["--config", "/dev/zero", "check", "--twin", "slow-srl"])
        .one_line(3, "larger than 1024 KiB");
    let themes = home.path().join("dgscope").join("themes");
    std::fs::create_dir_all(&themes).unwrap();
    std::os::unix::fs::symlink("/dev/zero", themes.join("zero.toml")).unwrap();
    let f = config("history = 60\n");
    config_check(&f, home.path()).one_line(2, "zero.toml: cannot read: larger than 64 KiB");
}

#[test]
fn check_replay_judges_the_whole_recording() {
    // 30 min of slow standby log writes, then 90 min of health.
    let rec = handmade::recording_with(
        7200,
        |i| handmade::Second {
            remote_ms: if i < 1800 { 3.45 } else { 0.8 },
            rfs_ms: if i < 1800 { 2.89 } else { 0.45 },
            standby_down: false,
        },
        &[],
    );
    // The hand-made writer counts minutes only up to 59: restamp each line (two per second).
    let rec = hardening::rewrite(rec.path(), |line, v| {
        let i = (line - 1) / 2;
        let t = format!(
            "2026-11-30T{:02}:{:02}:{:02}.000Z",
            5 + i / 3600,
            i / 60 % 60,
            i % 60
        );
        v["t"] = serde_json::json!(t);
        if let Some(dg) = v.get_mut("dg") {
            dg["computed"] = serde_json::json!(t);
            dg["datum"] = serde_json::json!(t);
        }
    });
    let path = rec.path().to_str().unwrap();
    let whole = run(&["check", "--replay", path, "--format", "json"]);
    assert!(matches!(whole.code, 1 | 2), "{} {}", whole.code, whole.err);
    let v: serde_json::Value = serde_json::from_str(&whole.out).unwrap();
    assert_eq!(v["judged"], "whole run");
    let h = v["history"].as_array().unwrap();
    let srl = h
        .iter()
        .find(|x| x["id"] == "standby-redo-write-slow")
        .unwrap_or_else(|| panic!("{}", whole.out));
    assert!(
        srl["raised"]
            .as_str()
            .unwrap()
            .starts_with("2026-11-30T05:00:"),
        "{srl}"
    );
    let cleared = srl["cleared"].as_str().unwrap();
    // Cleared after the slow half ended (the causes window of a replay is an hour long, so
    // the clear comes once the slow half leaves it) and before the end.
    assert!(
        cleared > "2026-11-30T05:30:00" && cleared < "2026-11-30T07:00:00",
        "{srl}"
    );
    let text = run(&["check", "--replay", path]);
    assert!(text.out.contains("history (whole run):"), "{}", text.out);
    assert!(
        text.out
            .contains("standby-redo-write-slow raised 2026-11-30T05:00:"),
        "{}",
        text.out
    );
    // --at-end keeps the old verdict: the state at the end looked healthy.
    let at_end = run(&["check", "--replay", path, "--at-end"]);
    assert_eq!(at_end.code, 0, "{}", at_end.out);
}

/// A service user whose HOME cannot be looked into (another user's, or not a directory at
/// all) has no config there: the commands run on the defaults and say once where they could
/// not look (reliability review: every command failed with "cannot read the config file").
/// A config named on purpose (`--config`) that cannot be read is still an error.
#[test]
fn a_home_that_cannot_be_looked_into_is_no_config() {
    let file = tempfile::NamedTempFile::new().unwrap();
    let home = file.path().to_str().unwrap();
    let ran = run_env(
        &["check", "--twin", "healthy-sync", "--duration", "15s"],
        &[("HOME", home), ("XDG_CONFIG_HOME", "")],
    );
    assert_eq!(ran.code, 0, "{}", ran.err);
    assert!(ran.out.starts_with("dgscope check: OK"), "{}", ran.out);
    ran.one_line(0, "cannot look for a config file at");
    assert!(ran.err.contains("going on without one"), "{}", ran.err);
    let named = format!("{home}/config.toml");
    run(&["--config", &named, "check", "--twin", "healthy-sync"])
        .one_line(3, "cannot read the config file");
}
