//! The live commands as a user runs them on a machine without Oracle Instant Client.

use assert_cmd::Command;

fn dgscope() -> Command {
    let mut c = Command::cargo_bin("dgscope").unwrap();
    c.env_remove("DGSCOPE_ORACLE_CLIENT_DIR");
    c
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn watch_without_instant_client_explains_dpi_1047_in_one_screen() {
    let o = dgscope()
        .args([
            "watch",
            "--primary",
            "u@//127.0.0.1:1/x",
            "--password-env",
            "X",
        ])
        .env("X", "not-a-real-password")
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(o.stdout.is_empty());
    assert!(
        err.lines().count() <= 24,
        "{} lines:\n{err}",
        err.lines().count()
    );
    for needle in [
        "DPI-1047",
        "Instant Client",
        "--oracle-client-dir",
        "LD_LIBRARY_PATH",
        "libaio",
    ] {
        assert!(err.contains(needle), "missing {needle}:\n{err}");
    }
    assert!(!err.contains("not-a-real-password"));
    // Lines, not one line joined by ␊: what, where it looked, and the steps to fix it.
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        lines[..2],
        [
            "dgscope: cannot load the Oracle Client library (DPI-1047).",
            "dgscope talks to Oracle through Instant Client, which is missing or not found.",
        ],
        "{err}"
    );
    assert!(lines[2].starts_with("  loader said: "), "{err}");
    assert_eq!(
        lines[3..],
        [
            "  looked in LD_LIBRARY_PATH and the system library path",
            "To fix it (Linux x86-64):",
            "  1. Download Instant Client Basic or Basic Light, 19c or later:",
            "     https://www.oracle.com/database/technologies/instant-client/downloads.html",
            "     (or install the oracle-instantclient-basic RPM)",
            "  2. Unzip it, e.g. to /opt/oracle/instantclient_23_7",
            "  3. Install libaio: apt-get install libaio1 (libaio1t64 on Ubuntu 24.04)",
            "     or dnf install libaio",
            "  4. Then one of:",
            "     --oracle-client-dir /opt/oracle/instantclient_23_7",
            "     DGSCOPE_ORACLE_CLIENT_DIR=/opt/oracle/instantclient_23_7",
            "     export LD_LIBRARY_PATH=/opt/oracle/instantclient_23_7",
            "Wallets and tnsnames.ora are read from TNS_ADMIN.",
            "Recordings need no client: dgscope report works without it.",
            "See docs/ORACLE.md.",
        ],
        "{err}"
    );
    assert!(!err.contains('␊'), "{err}");
}

#[test]
fn an_empty_client_dir_also_gives_dpi_1047() {
    let dir = tempfile::tempdir().unwrap();
    let o = dgscope()
        .args(["watch", "--standby", "/@prod_b", "--oracle-client-dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(
        err.contains("DPI-1047") && err.contains("--oracle-client-dir"),
        "{err}"
    );
}

#[test]
fn a_password_in_the_connect_string_is_refused_without_echo() {
    for cmd in ["watch", "record"] {
        let mut c = dgscope();
        c.args([cmd, "--primary", "scott/tiger@//h:1521/p"]);
        if cmd == "record" {
            c.args(["--duration", "1m", "-o", "/tmp/never-written.jsonl"]);
        }
        let o = c.output().unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(!err.contains("tiger"), "{err}");
        assert!(
            err.contains("--password-env") && err.lines().count() == 1,
            "{err}"
        );
    }
}

#[test]
fn flag_mistakes_get_one_line_and_exit_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["watch"], "watch needs databases"),
        (
            &[
                "watch",
                "--primary",
                "mon@//h/p",
                "--password-env",
                "DGSCOPE_TEST_UNSET_VAR",
            ],
            "DGSCOPE_TEST_UNSET_VAR",
        ),
        (&["watch", "--primary", "mon@//h/p"], "not a terminal"),
        // A forgotten USER@ is said as such, not taken for a password.
        (
            &["watch", "--primary", "//dbhost:1521/prod"],
            "has no '@'; expected USER@//HOST:PORT/SERVICE",
        ),
        (&["watch", "--primary", "mon"], "has no '@'"),
        (
            &["watch", "--primary", "/@p", "--interval", "0s"],
            "--interval",
        ),
        (
            &["watch", "--primary", "/@p", "--interval", "soon"],
            "--interval",
        ),
        (
            &["watch", "--primary", "/@p", "--standby-as", "sysoper"],
            "sysoper",
        ),
        (&["grants", "--user", "x; drop user y"], "--user"),
    ];
    for (argv, needle) in cases {
        let o = dgscope()
            .args(*argv)
            .env_remove("DGSCOPE_TEST_UNSET_VAR")
            .output()
            .unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{argv:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{argv:?}: {err}");
        assert!(err.contains(needle), "{argv:?}: {err}");
    }
}

#[test]
fn record_checks_its_output_before_connecting_and_cleans_up() {
    let o = dgscope()
        .args([
            "record",
            "--primary",
            "/@p",
            "--duration",
            "1m",
            "-o",
            "/nonexistent-dir/x.jsonl",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("cannot create the recording"));

    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.jsonl");
    let o = dgscope()
        .args(["record", "--primary", "/@p", "--duration", "1m", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(!out.exists(), "no empty recording left behind");
}

#[test]
fn grants_prints_every_view_and_sysdg() {
    let o = dgscope()
        .args(["grants", "--user", "dg_mon"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8(o.stdout).unwrap();
    for needle in [
        "CREATE USER DG_MON",
        "GRANT CREATE SESSION TO DG_MON;",
        "SELECT_CATALOG_ROLE",
        "GRANT SELECT ON SYS.GV_$SYSTEM_EVENT TO DG_MON;",
        "GRANT SELECT ON SYS.GV_$DATAGUARD_STATS TO DG_MON;",
        "GRANT SELECT ON SYS.V_$ARCHIVE_GAP TO DG_MON;",
        "GRANT SELECT ON SYS.V_$RECOVERY_FILE_DEST TO DG_MON;",
        "GRANT SELECT ON SYS.GV_$DATAGUARD_STATUS TO DG_MON;",
        "GRANT SELECT ON SYS.V_$FIXED_TABLE TO DG_MON;",
        "GRANT SYSDG TO DG_MON;",
        "password file",
    ] {
        assert!(out.contains(needle), "missing {needle}");
    }
    // Generated from the same list the SQL uses: every view read gets a grant.
    for (view, _) in dgscope::source::oracle::sql::all_views() {
        let obj = dgscope::source::oracle::sql::grant_object(view);
        assert!(
            out.contains(&format!("GRANT SELECT ON {obj} TO DG_MON;")),
            "{obj}"
        );
    }
}

#[test]
fn grants_takes_a_release_and_a_cdb_and_refuses_what_oracle_lacks() {
    let run = |args: &[&str]| dgscope().args(args).output().unwrap();
    let o = run(&["grants", "--user", "c##mon", "--release", "19c", "--cdb"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.contains("ALTER USER C##MON SET CONTAINER_DATA=ALL CONTAINER=CURRENT;"));
    assert!(out.contains("GRANT SYSDG TO C##MON CONTAINER=ALL;"));
    let o = run(&["grants", "--release", "11.2"]);
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.contains("GRANT SYSDBA TO DGSCOPE;") && !out.contains("SYSDG TO"));
    for bad in [
        &["grants", "--release", "11.2", "--cdb"][..],
        &["grants", "--release", "10.2"][..],
    ] {
        let o = run(bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        assert!(o.stdout.is_empty(), "{bad:?}: no half script");
    }
}

#[test]
fn watch_checks_its_recording_path_first_and_leaves_no_file_on_failure() {
    let o = dgscope()
        .args([
            "watch",
            "--primary",
            "/@p",
            "--record",
            "/nonexistent-dir/w.jsonl",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("cannot create the recording"));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("w.jsonl");
    let o = dgscope()
        .args(["watch", "--primary", "/@p", "--record"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(!out.exists());
}
