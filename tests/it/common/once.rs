//! Work done once per test binary however many tests read it: a command whose output depends
//! on its arguments alone (the twin with its fixed seed, a fixture recording), and the twin
//! runs of `twin_runs`. The perfdata grammar, the CRIT-with-OK check and the JSON schema each
//! read `check --twin` of every scenario, and each run simulates its minutes again.

use std::collections::HashMap;
use std::hash::Hash;
use std::process::{Command, Output};
use std::sync::{Arc, Mutex, OnceLock};

type Cells<K, V> = Mutex<HashMap<K, Arc<OnceLock<V>>>>;

/// Values by key, each computed by its first caller; a caller asking while it is computed
/// waits for it, and every caller gets a copy.
pub struct Memo<K, V>(OnceLock<Cells<K, V>>);

impl<K: Eq + Hash, V: Clone> Memo<K, V> {
    pub const fn new() -> Self {
        Memo(OnceLock::new())
    }

    pub fn get(&self, key: K, compute: impl FnOnce() -> V) -> V {
        let cell = self
            .0
            .get_or_init(Default::default)
            .lock()
            .unwrap()
            .entry(key)
            .or_default()
            .clone();
        cell.get_or_init(compute).clone()
    }
}

impl<K: Eq + Hash, V: Clone> Default for Memo<K, V> {
    fn default() -> Self {
        Memo::new()
    }
}

/// `dgscope ARGS` with no user configuration, run the first time it is asked for.
pub fn dgscope_once(args: &[&str]) -> Output {
    static RUNS: Memo<Vec<String>, Output> = Memo::new();
    RUNS.get(args.iter().map(|a| a.to_string()).collect(), || {
        Command::new(env!("CARGO_BIN_EXE_dgscope"))
            .args(args)
            .env_remove("DGSCOPE_CONFIG")
            .env("XDG_CONFIG_HOME", "/nonexistent")
            .output()
            .unwrap()
    })
}
