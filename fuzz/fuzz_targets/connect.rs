//! Connect strings (`--primary`, `--standby`, profiles): no panic; a string holding a
//! password is never accepted, and its password never shapes the error (the same string with
//! another password gives the same message, so nothing of it can be echoed).
#![no_main]

use dgscope::source::oracle::connect;
use libfuzzer_sys::fuzz_target;

/// `arg` with its password (between the user part's first `/` and the `@`) replaced.
fn with_other_password(arg: &str) -> Option<String> {
    let body_at = match arg.split_once('=') {
        Some((name, _)) if !name.is_empty() && !name.contains('/') && !name.contains('@') => {
            name.len() + 1
        }
        _ => 0,
    };
    let body = &arg[body_at..];
    let user_end = body.find('@').unwrap_or(body.len());
    let slash = body[..user_end].find('/')?;
    let (from, to) = (body_at + slash + 1, body_at + user_end);
    let canary = "Q".repeat((to - from).max(1));
    Some(format!("{}{}{}", &arg[..from], canary, &arg[to..]))
}

fuzz_target!(|data: &[u8]| {
    let Ok(arg) = std::str::from_utf8(data) else {
        return;
    };
    let holds = connect::holds_password(arg);
    match connect::parse("--primary", arg) {
        Ok(_) => assert!(!holds, "a password was accepted: {arg:?}"),
        Err(e) if holds => {
            let Some(other) = with_other_password(arg) else {
                return;
            };
            if !connect::holds_password(&other) {
                return;
            }
            if let Err(e2) = connect::parse("--primary", &other) {
                assert_eq!(e.to_string(), e2.to_string(), "the password shaped the error");
            }
        }
        Err(_) => {}
    }
});
