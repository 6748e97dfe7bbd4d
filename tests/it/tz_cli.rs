//! `--tz` (issue 14.4): text output in the zone asked for, RFC 3339 with its offset; JSON and
//! recordings stay UTC. The twin starts at 2026-11-30T05:00:00Z, 06:00 in Berlin (CET, +01:00).

use assert_cmd::Command;

fn dgscope_with(config: &std::path::Path) -> Command {
    let mut c = Command::cargo_bin("dgscope").unwrap();
    c.env_remove("DGSCOPE_TZ").arg("--config").arg(config);
    c
}

fn dgscope() -> Command {
    dgscope_with(std::path::Path::new("/dev/null"))
}

fn stdout(c: &mut Command) -> String {
    let out = c.output().unwrap();
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn check_text_is_in_the_zone_and_json_in_utc() {
    let check = ["check", "--twin", "slow-srl", "--duration", "30s"];
    let text = stdout(dgscope().args(check).args(["--tz", "Europe/Berlin"]));
    let first = text.lines().next().unwrap();
    assert!(
        first.contains("(2026-11-30T06:00:01.000+01:00 .. 2026-11-30T06:00:30.000+01:00)"),
        "{first}"
    );
    let utc = stdout(dgscope().args(check));
    assert!(
        utc.contains("(2026-11-30T05:00:01.000Z .. 2026-11-30T05:00:30.000Z)"),
        "{utc}"
    );
    let json = stdout(
        dgscope()
            .args(check)
            .args(["--tz", "Europe/Berlin", "--format", "json"]),
    );
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["window"]["from"], "2026-11-30T05:00:01.000Z");
    assert!(!json.contains("+01:00"), "{json}");
    // The variable and the config key say the same.
    let env = stdout(dgscope().args(check).env("DGSCOPE_TZ", "Europe/Berlin"));
    assert!(env.contains("06:00:01.000+01:00"), "{env}");
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("c.toml");
    std::fs::write(&cfg, "tz = \"Asia/Tokyo\"\n").unwrap();
    let from_config = stdout(dgscope_with(&cfg).args(check));
    assert!(
        from_config.contains("2026-11-30T14:00:01.000+09:00"),
        "{from_config}"
    );
}

#[test]
fn an_incident_report_is_in_the_zone_and_the_recording_in_utc() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("inc.jsonl");
    dgscope()
        .args([
            "--tz",
            "Europe/Berlin",
            "record",
            "--twin",
            "slow-srl",
            "--duration",
            "90s",
            "-o",
        ])
        .arg(&rec)
        .assert()
        .success();
    let recording = std::fs::read_to_string(&rec).unwrap();
    assert!(recording
        .lines()
        .next()
        .unwrap()
        .contains("\"created\":\"2026-11-30T05:00:00.000Z\""));
    assert!(!recording.contains("+01:00"));
    let md = stdout(
        dgscope()
            .args(["report", "incident"])
            .arg(&rec)
            .args(["--tz", "Europe/Berlin"]),
    );
    assert!(
        md.contains("- Window: 2026-11-30T06:00:01.000+01:00 .. 2026-11-30T06:01:30.000+01:00"),
        "{md}"
    );
    assert!(md.contains("Since 2026-11-30T06:00:"), "{md}");
    assert!(
        !md.contains("05:00:05.000Z"),
        "no UTC time left in the text: {md}"
    );
}

#[test]
fn a_bad_zone_is_one_line() {
    let out = dgscope()
        .args(["--tz", "Mars/Base", "twin", "list"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("--tz \"Mars/Base\": not a time zone"), "{err}");
    let out = dgscope()
        .args(["check", "--twin", "slow-srl", "--tz", "Mars/Base"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "check: UNKNOWN");
}

#[test]
fn a_profile_s_zone_applies_to_its_runs_below_the_flag_and_above_the_top_level_key() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("c.toml");
    std::fs::write(
        &cfg,
        concat!(
            "tz = \"Europe/Berlin\"\n",
            "[profiles.tokyo]\nscenario = \"slow-srl\"\ntz = \"Asia/Tokyo\"\n",
            "[profiles.plain]\nscenario = \"slow-srl\"\n",
        ),
    )
    .unwrap();
    let check = |profile: &str| ["check", profile, "--duration", "30s"].map(String::from);
    let tokyo = stdout(dgscope_with(&cfg).args(check("tokyo")));
    assert!(tokyo.contains("2026-11-30T14:00:01.000+09:00"), "{tokyo}");
    // A profile without one: the top-level key.
    let plain = stdout(dgscope_with(&cfg).args(check("plain")));
    assert!(plain.contains("2026-11-30T06:00:01.000+01:00"), "{plain}");
    // The flag and the variable over the profile.
    let flag = stdout(
        dgscope_with(&cfg)
            .args(check("tokyo"))
            .args(["--tz", "utc"]),
    );
    assert!(flag.contains("2026-11-30T05:00:01.000Z"), "{flag}");
    let env = stdout(
        dgscope_with(&cfg)
            .args(check("tokyo"))
            .env("DGSCOPE_TZ", "utc"),
    );
    assert!(env.contains("2026-11-30T05:00:01.000Z"), "{env}");
    // A zone that is none: one line naming the profile and the file, check's UNKNOWN.
    std::fs::write(
        &cfg,
        "[profiles.tokyo]\nscenario = \"slow-srl\"\ntz = \"Mars/Base\"\n",
    )
    .unwrap();
    let out = dgscope_with(&cfg).args(check("tokyo")).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains("profile \"tokyo\": tz = \"Mars/Base\": not a time zone"),
        "{err}"
    );
}
