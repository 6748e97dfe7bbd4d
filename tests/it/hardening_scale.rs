//! `check` memory does not grow with the number of standby slots a recording claims
//! (issue 17.7): slots beyond the driver's limit are skipped, counted and reported, and
//! the judgement of the pair is the same as without them.

use crate::handmade;
use crate::hardening;

use hardening::run;
use serde_json::Value;

/// The handmade recording with every standby line repeated for `copies` more standby slots.
fn with_standbys(src: &std::path::Path, copies: usize) -> tempfile::NamedTempFile {
    let text = std::fs::read_to_string(src).unwrap();
    crate::common::temp_file_written(|out| {
        for line in text.lines() {
            writeln!(out, "{line}").unwrap();
            let v: Value = serde_json::from_str(line).unwrap();
            if v.get("slot").and_then(Value::as_str) == Some("standby") {
                for i in 0..copies {
                    let mut c = v.clone();
                    c["slot"] = Value::from(format!("standby:sb{i:04}"));
                    writeln!(out, "{c}").unwrap();
                }
            }
        }
    })
}

#[test]
fn a_recording_of_hundreds_of_standbys_is_judged_on_the_first_slots_and_says_so() {
    let rec = handmade::recording(60, 3.45, 2.89, None);
    let many = with_standbys(rec.path(), 200);
    let plain = run(&[
        "check",
        "--replay",
        rec.path().to_str().unwrap(),
        "--format",
        "json",
    ]);
    let wide = run(&[
        "check",
        "--replay",
        many.path().to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(plain.code, wide.code, "{}", wide.err);
    let (p, w): (Value, Value) = (
        serde_json::from_str(&plain.out).unwrap(),
        serde_json::from_str(&wide.out).unwrap(),
    );
    // The pair is judged the same: primary and the first standby are within the limit.
    assert!(p["status"].is_string(), "{}", plain.out);
    assert_eq!(p["status"], w["status"]);
    assert_eq!(p["findings"][0]["id"], w["findings"][0]["id"]);
    // 1 primary + 1 standby + 200 copies = 202 slots; 64 are kept, 138 skipped at 60 instants.
    let warning = w["warnings"][0].as_str().unwrap();
    assert!(
        warning.starts_with("8280 sample(s) of 138 slot(s) beyond the first 64 were skipped"),
        "{warning}"
    );
    assert!(wide.err.contains("warning: 8280 sample(s)"), "{}", wide.err);
    assert!(p["warnings"].as_array().is_none_or(|a| a.is_empty()));
}
