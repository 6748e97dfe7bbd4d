//! The Oracle value parsers (`crates/oracle/src/parse.rs`): interval strings of
//! `V$DATAGUARD_STATS`, `V$DATAGUARD_STATS.TIME_COMPUTED`-style dates, NUMBER and counter text.
#![no_main]

use dgscope::source::oracle::parse;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    if let Some(v) = parse::interval_secs(s) {
        // Negative intervals are real (`-00 00:00:02`: clock skew); never NaN or infinite.
        assert!(v.is_finite(), "{s:?} -> {v}");
    }
    let _ = parse::oracle_datetime_naive(s);
    if let Some(v) = parse::number(s) {
        assert!(v.is_finite(), "{s:?} -> {v}");
    }
    let _ = parse::counter(s);
});
