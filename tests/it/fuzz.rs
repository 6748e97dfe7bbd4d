//! Bad-input fuzzing (issue 7): every parser that reads what a user or a database hands us,
//! fed random and mutated input. The properties: no panic, and errors that say where.
//! Case counts are fixed so docs/RELIABILITY.md can state how many executions ran.

use dgscope::config::Config;
use dgscope::metrics::WindowSpec;
use dgscope::sample::recording::RecordingReader;
use dgscope::source::oracle::{connect, parse};
use dgscope::timestamp::Timestamp;
use proptest::prelude::*;
use proptest::test_runner::{Config as PtConfig, RngSeed};
use std::io::Cursor;

/// Cases per property; the total is in docs/RELIABILITY.md.
const CASES: u32 = 20_000;

fn config() -> PtConfig {
    PtConfig {
        cases: CASES,
        rng_seed: RngSeed::Fixed(0x6473_636f_7065),
        failure_persistence: None,
        ..PtConfig::default()
    }
}

/// Byte-level mutations of a valid input: replace, insert or delete at random spots.
fn mutate(seed_text: &'static str) -> impl Strategy<Value = Vec<u8>> {
    let len = seed_text.len();
    proptest::collection::vec((0..len.max(1), 0u8..3, any::<u8>()), 1..8).prop_map(move |edits| {
        let mut b = seed_text.as_bytes().to_vec();
        for (pos, op, byte) in edits {
            let pos = pos.min(b.len());
            match op {
                0 if pos < b.len() => b[pos] = byte,
                1 => b.insert(pos, byte),
                _ if pos < b.len() => {
                    b.remove(pos);
                }
                _ => {}
            }
        }
        b
    })
}

const RECORDING: &str = concat!(
    "{\"format\":\"dgscope-recording\",\"version\":1,\"interval_ms\":1000}\n",
    "{\"t\":\"2026-11-30T05:00:01.000Z\",\"slot\":\"primary\",\"db\":{\"role\":\"PRIMARY\",\"startup\":\"2026-11-20T01:02:03Z\"},",
    "\"events\":{\"log file sync\":{\"waits\":10,\"us\":5000,\"hist\":[[1024,7],[2048,3]]}},\"stats\":{\"user commits\":5},",
    "\"dests\":[{\"id\":2,\"status\":\"VALID\",\"mode\":\"SYNC\",\"affirm\":true}]}\n",
    "{\"t\":\"2026-11-30T05:00:01.000Z\",\"kind\":\"mark\",\"text\":\"baseline\"}\n",
    "{\"t\":\"2026-11-30T05:00:02.000Z\",\"slot\":\"standby\",\"error\":{\"kind\":\"timeout\",\"message\":\"DPI-1067\"}}\n",
);

const TEMPLATE_CONFIG: &str = "theme = \"dark\"\nhistory = 600\n[profiles.prod]\nprimary = \"dgmon@//a:1521/P\"\nstandby = [\"dgmon@//b:1521/S\"]\nstandby_as = \"sysdg\"\n[thresholds]\nlfpw_warn_ms = 2.5\n[bindings]\nquit = \"ctrl-q\"\n";

proptest! {
    #![proptest_config(config())]

    #[test]
    fn recording_reader_on_mutated_recordings(bytes in mutate(RECORDING)) {
        match RecordingReader::new("f.jsonl".into(), Cursor::new(bytes)) {
            Ok(reader) => {
                for entry in reader {
                    if let Err(e) = entry {
                        let msg = e.to_string();
                        prop_assert!(msg.starts_with("f.jsonl:"), "{msg}");
                        prop_assert!(!msg.contains('\n'));
                    }
                }
            }
            Err(e) => prop_assert!(e.to_string().starts_with("f.jsonl"), "{e}"),
        }
    }

    #[test]
    fn config_parser_on_mutated_configs(bytes in mutate(TEMPLATE_CONFIG)) {
        let text = String::from_utf8_lossy(&bytes);
        if let Err(e) = Config::parse("c.toml", &text) {
            let msg = e.to_string();
            // FILE:LINE:COL, one line.
            let mut parts = msg.splitn(4, ':');
            prop_assert_eq!(parts.next(), Some("c.toml"));
            prop_assert!(parts.next().unwrap().parse::<usize>().is_ok(), "{}", msg);
            prop_assert!(parts.next().unwrap().parse::<usize>().is_ok(), "{}", msg);
            prop_assert!(!msg.contains('\n'), "{}", msg);
        }
    }

    #[test]
    fn config_parser_on_random_text(text in "\\PC{0,200}") {
        let _ = Config::parse("c.toml", &text);
    }

    #[test]
    fn connect_string_parser(arg in "\\PC{0,80}") {
        if let Err(e) = connect::parse("--primary", &arg) {
            let msg = e.0;
            prop_assert!(msg.starts_with("--primary"), "{}", msg);
            // A refused password is never repeated back.
            if connect::holds_password(&arg) {
                if let Some(pw) = arg.split('/').nth(1).map(|s| s.split('@').next().unwrap_or("")) {
                    if pw.len() >= 4 {
                        prop_assert!(!msg.contains(pw), "{} echoes {}", msg, pw);
                    }
                }
            }
        }
    }

    #[test]
    fn connect_string_parser_on_mutated_forms(bytes in mutate("dgmon@//prod-a-scan.example.com:1521/PROD_SVC")) {
        let _ = connect::parse("--standby", &String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn lag_string_parser(s in "[+-]?[0-9 :.]{0,20}") {
        if let Some(v) = parse::interval_secs(&s) {
            prop_assert!(v.is_finite());
        }
    }

    #[test]
    fn lag_string_parser_on_mutated_values(bytes in mutate("+00 00:04:11")) {
        let s = String::from_utf8_lossy(&bytes);
        if let Some(v) = parse::interval_secs(&s) {
            prop_assert!(v.is_finite(), "{s} → {v}");
        }
    }

    #[test]
    fn window_specs(spec in "\\PC{0,40}") {
        let _ = WindowSpec::parse(&spec);
    }

    #[test]
    fn window_specs_on_mutated_forms(bytes in mutate("2026-11-30T05:00:00Z..15m")) {
        let _ = WindowSpec::parse(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn timestamps_on_mutated_forms(bytes in mutate("2026-11-30T05:00:01.000+02:00")) {
        let _ = Timestamp::parse(&String::from_utf8_lossy(&bytes));
    }
}

#[test]
fn the_documented_lag_strings_parse() {
    assert_eq!(parse::interval_secs("+00 00:04:11"), Some(251.0));
    assert_eq!(parse::interval_secs("+00 00:00:00.000"), Some(0.0));
    assert_eq!(parse::interval_secs(""), None);
    assert_eq!(parse::interval_secs("+00 99:99"), None);
}

/// Found by `cargo fuzz run whatif_input`: a subnormal TPS passed the plausibility check and
/// the twin was given infinite redo per commit and think time. Below one commit per 100 s
/// there is nothing to mirror; above it every mapped parameter is finite.
#[test]
fn the_what_if_mapping_refuses_a_subnormal_tps() {
    use dgscope::causes::Observed;
    use dgscope::source::twin::mirror::{mirror, MIN_MIRROR_TPS};
    let crafted = |tps: f64| Observed {
        tps: Some(tps),
        redo_mb_s: Some(8.4e-13),
        lfs_ms: Some(1.0),
        ..Observed::default()
    };
    let subnormal = crafted(f64::from_bits(0x0000_0000_0055_ffff));
    assert!(subnormal.check_plausible().is_ok());
    assert!(mirror(&subnormal).is_none());
    let slow = mirror(&crafted(MIN_MIRROR_TPS)).expect("one commit per 100 s is mirrored");
    assert!(slow.redo_per_commit.is_finite() && slow.think_us.is_finite());
}
