//! The debug build's per-crate optimisation (Cargo.toml, `[profile.dev.package.*]`). Crates the
//! tests hardly run are built at opt-level 0 to build faster; none of them may be one the
//! twin, the metrics and causes or the model are built on. At opt-level 0 and 1 rustc shares
//! generic code across crates: a crate below those three at opt-level 0 would hand the twin's
//! hot loop its unoptimised copies (measured with every dependency at 0: the tests ran 40 %
//! longer).

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// The dependencies Cargo.toml builds at opt-level 0 in a debug build (`*` if all of them).
/// The workspace's own crates are left out: the test profile raises the hot ones to 1.
fn at_opt_level_0(manifest: &str) -> BTreeSet<String> {
    let doc: toml::Table = toml::from_str(manifest).expect("Cargo.toml parses");
    let packages = doc["profile"]["dev"]["package"]
        .as_table()
        .expect("[profile.dev.package.*] tables");
    packages
        .iter()
        .filter(|(name, _)| !name.starts_with("dgscope"))
        .filter(|(_, p)| p.get("opt-level").and_then(toml::Value::as_integer) == Some(0))
        .map(|(name, _)| name.clone())
        .collect()
}

/// Every package the hot crates are built on (normal dependencies, transitively).
fn below_the_hot_crates(repo: &Path) -> BTreeSet<String> {
    let out = Command::new(env!("CARGO"))
        .current_dir(repo)
        .args([
            "tree",
            "--offline",
            "--locked",
            "-e",
            "normal",
            "--prefix",
            "none",
        ])
        .args([
            "-p",
            "dgscope-twin",
            "-p",
            "dgscope-core",
            "-p",
            "dgscope-model",
        ])
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo tree: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

#[test]
fn no_crate_at_opt_level_0_is_one_the_hot_crates_are_built_on() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cold = at_opt_level_0(&std::fs::read_to_string(repo.join("Cargo.toml")).unwrap());
    let hot = below_the_hot_crates(repo);
    // The tree is read: the hot crates and what they stand on (serde_json, zstd …).
    for known in ["dgscope-twin", "dgscope-model", "serde_json", "zstd"] {
        assert!(hot.contains(known), "{known} missing from {hot:?}");
    }
    assert!(cold.contains("ratatui"), "the list is read: {cold:?}");
    assert!(!cold.contains("*"), "every dependency at opt-level 0");
    let both: Vec<&String> = cold.intersection(&hot).collect();
    assert!(
        both.is_empty(),
        "built at opt-level 0 but below the twin, core or model: {both:?}"
    );
}

#[test]
fn the_list_reads_opt_level_0_entries_only() {
    let manifest = r#"
[profile.dev.package."*"]
debug = false
[profile.dev.package.dgscope-tui]
opt-level = 0
[profile.dev.package.ratatui]
opt-level = 0
[profile.dev.package.vt100]
opt-level = 1
"#;
    assert_eq!(
        at_opt_level_0(manifest),
        BTreeSet::from(["ratatui".to_string()])
    );
}
