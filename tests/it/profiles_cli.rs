//! Config profiles drive `watch` and `demo` (issue 8): a profile's databases reach the live
//! source, a twin profile opens the demo, and mistakes get one line.

use assert_cmd::Command;

fn dgscope(cfg: &std::path::Path) -> Command {
    let mut c = Command::cargo_bin("dgscope").unwrap();
    c.arg("--config").arg(cfg).env_remove("LD_LIBRARY_PATH");
    c
}

fn config(text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

#[test]
fn a_profile_names_the_databases_for_watch() {
    let (_d, cfg) = config(
        "[profiles.prod]\nprimary = \"dgmon@//dbhost1:1521/prod_a\"\nstandby = \"dgmon@//dbhost2:1521/prod_b\"\npassword_env = \"DGSCOPE_TEST_PW\"\n",
    );
    let out = dgscope(&cfg)
        .args(["watch", "prod"])
        .env("DGSCOPE_TEST_PW", "pw-from-env")
        .output()
        .unwrap();
    // The profile's primary reached the client-library stage: DPI-1047 on this machine.
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("DPI-1047"), "{err}");
    assert!(!err.contains("pw-from-env"));
}

#[test]
fn profile_mistakes_get_one_line() {
    let (_d, cfg) = config("[profiles.practice]\nscenario = \"slow-srl\"\n");
    let out = dgscope(&cfg).args(["watch", "prod"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no profile \"prod\" in the config file; it has: practice"),
        "{err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1);
    let out = dgscope(&cfg).args(["watch", "practice"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("run it with `dgscope demo practice`"));
    let out = dgscope(&cfg).args(["demo", "nosuch"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no profile \"nosuch\""));
}

#[test]
fn a_bad_config_stops_every_command_with_file_line_col() {
    let (_d, cfg) = config("theme = \"dark\"\n[bindings]\nquit = 42\n");
    for args in [vec!["demo"], vec!["watch", "prod"], vec!["config", "check"]] {
        let out = dgscope(&cfg).args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("config.toml:3:8: invalid type"),
            "{args:?}: {err}"
        );
    }
}

#[cfg(unix)]
#[test]
fn a_password_in_a_readable_config_is_refused_with_the_chmod() {
    use std::os::unix::fs::PermissionsExt;
    let (_d, cfg) =
        config("[profiles.prod]\nprimary = \"dgmon@P\"\npassword = \"hunter2-secret\"\n");
    std::fs::set_permissions(&cfg, std::fs::Permissions::from_mode(0o644)).unwrap();
    let out = dgscope(&cfg).args(["watch", "prod"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("run: chmod 600 {}", cfg.display())),
        "{err}"
    );
    assert!(!err.contains("hunter2-secret"));
    // Private: accepted, and the password is used without any prompt (stdin is not a TTY).
    std::fs::set_permissions(&cfg, std::fs::Permissions::from_mode(0o600)).unwrap();
    let out = dgscope(&cfg).args(["watch", "prod"]).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("DPI-1047"));
}

/// `check PROFILE` and `record PROFILE` (issue 14.3): a twin profile runs on the twin, a
/// database profile reaches the client library with the profile's databases, and a private
/// profile password is used (no "variable not set", no prompt).
#[test]
fn check_and_record_take_a_profile() {
    let (_d, cfg) = config(
        "[profiles.practice]\nscenario = \"slow-srl\"\n\
[profiles.prod]\nprimary = \"dgmon@//dbhost1:1521/prod_a\"\nstandby = \"dgmon@//dbhost2:1521/prod_b\"\npassword = \"pw-in-file\"\n",
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&cfg, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let out = dgscope(&cfg)
        .args(["check", "practice", "--duration", "30s"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("standby-redo-write-slow"), "{text}");

    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("practice.jsonl");
    dgscope(&cfg)
        .args(["record", "practice", "--duration", "20s", "-o"])
        .arg(&rec)
        .assert()
        .success();
    let head = std::fs::read_to_string(&rec).unwrap();
    assert!(
        head.lines().next().unwrap().contains("twin:slow-srl"),
        "{head}"
    );

    for (args, code) in [(vec!["check", "prod"], 3), (vec!["record", "prod"], 3)] {
        let mut c = dgscope(&cfg);
        c.args(&args);
        if args[0] == "record" {
            c.arg("-o").arg(dir.path().join("prod.jsonl"));
        }
        let out = c.output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
        assert!(err.contains("DPI-1047"), "{args:?}: {err}");
        assert!(!err.contains("pw-in-file"), "{args:?}: {err}");
    }
    assert!(
        !dir.path().join("prod.jsonl").exists(),
        "no file left behind"
    );

    let out = dgscope(&cfg).args(["check", "nosuch"]).output().unwrap();
    assert_eq!(out.status.code(), Some(3), "check speaks Nagios: UNKNOWN");
    assert!(String::from_utf8_lossy(&out.stderr).contains("no profile \"nosuch\""));
}

#[test]
fn grants_takes_the_user_from_a_profile() {
    let (_d, cfg) = config(
        "[profiles.prod]\nprimary = \"dgmon@//dbhost1:1521/prod_a\"\n[profiles.w]\nprimary = \"/@prod_a\"\n",
    );
    let out = dgscope(&cfg).args(["grants", "prod"]).output().unwrap();
    assert!(out.status.success());
    let sql = String::from_utf8_lossy(&out.stdout);
    assert!(sql.to_uppercase().contains("CREATE USER DGMON"), "{sql}");
    let out = dgscope(&cfg)
        .args(["grants", "prod", "--user", "other"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout)
        .to_uppercase()
        .contains("CREATE USER OTHER"));
    let out = dgscope(&cfg).args(["grants", "w"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("give --user NAME"));
}
