//! A command whose output depends on its arguments alone (the twin with its fixed seed, a
//! fixture recording), run once per test binary however many tests judge it: the perfdata
//! grammar, the CRIT-with-OK check and the JSON schema each read `check --twin` of every
//! scenario, and each run simulates its minutes again.

use std::collections::HashMap;
use std::process::{Command, Output};
use std::sync::{Arc, Mutex, OnceLock};

/// Each command's one run, by its arguments.
type Runs = Mutex<HashMap<Vec<String>, Arc<OnceLock<Output>>>>;

/// `dgscope ARGS` with no user configuration, run the first time it is asked for; a test
/// asking while it runs waits for that run.
pub fn dgscope_once(args: &[&str]) -> Output {
    static RUNS: OnceLock<Runs> = OnceLock::new();
    let key: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let run = RUNS
        .get_or_init(Default::default)
        .lock()
        .unwrap()
        .entry(key)
        .or_default()
        .clone();
    run.get_or_init(|| {
        Command::new(env!("CARGO_BIN_EXE_dgscope"))
            .args(args)
            .env_remove("DGSCOPE_CONFIG")
            .env("XDG_CONFIG_HOME", "/nonexistent")
            .output()
            .unwrap()
    })
    .clone()
}
