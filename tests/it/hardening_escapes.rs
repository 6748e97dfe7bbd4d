//! No escape reaches a terminal or a report unescaped (issue 17 item 4): every string field a
//! recording carries, with terminal escapes and Markdown structure in it.

use crate::handmade;
use crate::hardening;

use hardening::{rewrite, run};
use serde_json::json;

const ESC_TITLE: &str = "\u{1b}]0;pwned\u{7}";
const CLEAR: &str = "\u{1b}[2J";
const OSC52: &str = "\u{1b}]52;c;cm0gLXJmIH4=\u{7}";
const FORGE: &str = "x |\n## All healthy, no action needed\n| y";

fn hostile() -> tempfile::NamedTempFile {
    let rec = handmade::recording_with(
        240,
        |i| handmade::Second {
            remote_ms: if i < 60 { 0.8 } else { 3.45 },
            rfs_ms: if i < 60 { 0.45 } else { 2.89 },
            standby_down: false,
        },
        &[(59, "baseline \u{1b}[2J\n# Forged heading")],
    );
    rewrite(rec.path(), |_, v| {
        let evil = format!("{ESC_TITLE}{CLEAR}{OSC52}{FORGE}");
        if let Some(db) = v.get_mut("db") {
            db["name"] = json!(format!("prod{evil}"));
            db["host"] = json!(format!("host{evil}"));
            db["version"] = json!(format!("19{evil}"));
            db["protection_mode"] = json!(format!("MAX{evil}"));
        }
        if let Some(d) = v.get_mut("dests").and_then(|d| d.get_mut(0)) {
            d["name"] = json!(format!("dest{evil}"));
            d["error"] = json!(format!("ORA-16198{evil}"));
            d["gap"] = json!(format!("gap{evil}"));
            d["compression"] = json!(format!("ZLIB{evil}"));
        }
    })
}

fn assert_clean(what: &str, text: &str) {
    for c in text.chars() {
        assert!(
            !c.is_control() || c == '\n' || c == '\t',
            "{what}: raw control {c:?} in {text}"
        );
    }
}

#[test]
fn check_text_and_json_carry_no_raw_escapes() {
    let rec = hostile();
    let r = run(&["check", "--replay", rec.path().to_str().unwrap()]);
    assert!(r.code <= 2, "{}", r.err);
    assert_clean("check text", &r.out);
    assert_clean("check stderr", &r.err);
    let j = run(&[
        "check",
        "--replay",
        rec.path().to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_clean("check json", &j.out);
}

#[test]
fn the_incident_report_escapes_terminal_and_markdown_injection() {
    let rec = hostile();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("i.md");
    let r = run(&[
        "report",
        "incident",
        rec.path().to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    let md = std::fs::read_to_string(&out).unwrap();
    assert_clean("incident file", &md);
    // ESC is shown, not sent.
    assert!(md.contains("prod␛]0;pwned␇"), "{md}");
    // No forged section or heading: the injected text stays inside its cell or line.
    assert!(!md.lines().any(|l| l.starts_with("## All healthy")), "{md}");
    assert!(!md.lines().any(|l| l.starts_with("# Forged")), "{md}");
    assert!(md.contains("x \\|␊## All healthy"), "{md}");
    // Every table row keeps its column count: the configuration table has 7 columns.
    for l in md
        .lines()
        .filter(|l| l.starts_with("| primary") || l.starts_with("| standby"))
    {
        let cells = l.replace("\\|", "").matches('|').count();
        assert_eq!(cells, 8, "{l}");
    }
    let stdout = run(&["report", "incident", rec.path().to_str().unwrap()]);
    assert_clean("incident stdout", &stdout.out);
}

#[test]
fn error_messages_quoting_the_file_carry_no_raw_escapes() {
    let rec = handmade::recording(30, 0.8, 0.45, None);
    let bad = rewrite(rec.path(), |i, v| {
        if i == 5 {
            v["slot"] = json!(format!("primary{ESC_TITLE}"));
            v["stats"] = json!({"redo size": format!("{CLEAR}not a number")});
        }
    });
    let r = run(&["report", "incident", bad.path().to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert_clean("error", &r.err);
    assert_eq!(r.err.lines().count(), 1, "{}", r.err);
    let r = run(&[
        "report",
        "histogram",
        rec.path().to_str().unwrap(),
        "--event",
        "no such\u{1b}[2J",
        "--slot",
        "primary",
    ]);
    assert_eq!(r.code, 2);
    assert_clean("unknown event", &r.err);
    assert!(r.err.contains("no event \"no such"), "{}", r.err);
}
