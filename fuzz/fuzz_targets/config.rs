//! The config parser (TOML: theme, history, profiles, thresholds, bindings) on arbitrary
//! text: no panic, and an error is one line that never echoes a password.
#![no_main]

use dgscope::config::Config;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Err(e) = Config::parse("fuzz.toml", text) {
        let msg = e.to_string();
        assert!(msg.starts_with("fuzz.toml"), "{msg}");
    }
});
