//! No file is ever lost (issue 17 item 3, issue 12 item 7): the input is never an output, an
//! existing target needs --force, `-o -` is standard output, replacements are atomic.

use crate::handmade;
use crate::hardening;

use hardening::run;

#[test]
fn an_incident_report_never_replaces_its_recording() {
    let rec = handmade::recording(60, 3.45, 2.89, None);
    let before = std::fs::read(rec.path()).unwrap();
    let path = rec.path().to_str().unwrap();
    for force in [false, true] {
        let mut args = vec!["report", "incident", path, "-o", path];
        if force {
            args.push("--force");
        }
        run(&args).one_line(2, "is the input recording; writing there would destroy it");
    }
    // Through another spelling of the same file, too.
    let dir = rec.path().parent().unwrap();
    let alias = dir.join(".").join(rec.path().file_name().unwrap());
    run(&["report", "incident", path, "-o", alias.to_str().unwrap()])
        .one_line(2, "is the input recording");
    assert_eq!(std::fs::read(rec.path()).unwrap(), before);
}

#[test]
fn an_existing_report_is_replaced_only_with_force() {
    let rec = handmade::recording(60, 3.45, 2.89, None);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("incident.md");
    std::fs::write(&out, "my notes").unwrap();
    let (r, o) = (rec.path().to_str().unwrap(), out.to_str().unwrap());
    run(&["report", "incident", r, "-o", o]).one_line(
        2,
        "incident.md: already exists; choose another name or pass --force",
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "my notes");
    let ok = run(&["report", "incident", r, "-o", o, "--force"]);
    assert_eq!(ok.code, 0, "{}", ok.err);
    assert!(std::fs::read_to_string(&out)
        .unwrap()
        .starts_with("# Data Guard incident report"));
    // Nothing but the report is left in the directory (no temporary file).
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    let stdout = run(&["report", "incident", r, "-o", "-"]);
    assert_eq!(stdout.code, 0);
    assert!(stdout.out.starts_with("# Data Guard incident report"));
    assert!(!std::path::Path::new("-").exists());
}

#[cfg(unix)]
#[test]
fn a_symlink_at_the_report_name_is_not_followed() {
    let rec = handmade::recording(60, 3.45, 2.89, None);
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim");
    std::fs::write(&victim, "precious").unwrap();
    let link = dir.path().join("r.md");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    let r = rec.path().to_str().unwrap();
    run(&["report", "incident", r, "-o", link.to_str().unwrap()]).one_line(2, "already exists");
    let forced = run(&[
        "report",
        "incident",
        r,
        "-o",
        link.to_str().unwrap(),
        "--force",
    ]);
    assert_eq!(forced.code, 0, "{}", forced.err);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert!(!std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
}

#[test]
fn recordings_refuse_an_existing_file_and_go_to_stdout_with_dash() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.jsonl");
    let o = out.to_str().unwrap();
    std::fs::write(&out, "an earlier recording").unwrap();
    let args = ["record", "--twin", "slow-srl", "--duration", "20s", "-o", o];
    run(&args).one_line(
        2,
        "r.jsonl: already exists; choose another name or pass --force",
    );
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "an earlier recording"
    );
    let mut forced = args.to_vec();
    forced.push("--force");
    assert_eq!(run(&forced).code, 0);
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("{\"format\":\"dgscope-recording\""));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    let stdout = run(&[
        "record",
        "--twin",
        "slow-srl",
        "--duration",
        "20s",
        "-o",
        "-",
    ]);
    assert_eq!(stdout.code, 0, "{}", stdout.err);
    assert_eq!(stdout.out, text, "the same bytes to stdout as to a file");
    assert!(!std::path::Path::new("-").exists());
}

#[test]
fn a_twin_longer_than_a_day_is_refused_with_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let o = dir.path().join("r.jsonl");
    run(&[
        "record",
        "--twin",
        "slow-srl",
        "--duration",
        "100d",
        "-o",
        o.to_str().unwrap(),
    ])
    .one_line(2, "is longer than the twin's limit of 1day (24h)");
    assert!(!o.exists());
    run(&["check", "--twin", "slow-srl", "--duration", "25h"]).one_line(3, "limit of 1day (24h)");
}

/// Reliability review m4: `-o /dev/null` was refused ("already exists", then "is not a
/// regular file"), so output could not be discarded that way. It discards, and the device
/// stays a device.
#[cfg(target_os = "linux")]
#[test]
fn dev_null_discards_a_report_or_a_recording() {
    use std::os::unix::fs::FileTypeExt;
    let rec = handmade::recording(60, 3.45, 2.89, None);
    let path = rec.path().to_str().unwrap();
    for args in [
        &["report", "incident", path, "-o", "/dev/null"][..],
        &[
            "record",
            "--twin",
            "healthy-sync",
            "--duration",
            "20s",
            "-o",
            "/dev/null",
        ],
    ] {
        let r = run(args);
        assert_eq!(r.code, 0, "{args:?}: {}", r.err);
        assert!(r.err.contains("/dev/null"), "{args:?}: {}", r.err);
    }
    let m = std::fs::metadata("/dev/null").unwrap();
    assert!(m.file_type().is_char_device());
}
