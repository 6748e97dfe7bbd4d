//! Completion scripts and the man page come from the CLI definitions; snapshots show any change
//! to the command surface in review.

#[test]
fn bash_completions() {
    let s = dgscope::commands::completions(clap_complete::Shell::Bash);
    assert!(s.contains("report") && s.contains("--baseline") && s.contains("check"));
    insta::assert_snapshot!("bash_completions", s);
}

#[test]
fn zsh_and_fish_completions_name_every_command() {
    for shell in [clap_complete::Shell::Zsh, clap_complete::Shell::Fish] {
        let s = dgscope::commands::completions(shell);
        for cmd in ["report", "check", "config", "completions", "man"] {
            assert!(s.contains(cmd), "{shell:?} lacks {cmd}");
        }
    }
}

#[test]
fn man_page() {
    let s = dgscope::commands::man_page();
    assert!(s.starts_with(".ie \\n(.g .ds Aq"), "{}", &s[..40]);
    assert!(s.contains(".TH dgscope 1"));
    assert!(s.contains("Data Guard"));
    insta::assert_snapshot!("man_page", s);
}

/// The completion scripts offer the twin's scenarios and the built-in themes by name, not
/// file names (newcomer 3.3); the flags still take any spelling the commands accept.
#[test]
fn completions_offer_scenarios_and_themes() {
    let script = |shell: &str| {
        let out = assert_cmd::Command::cargo_bin("dgscope")
            .unwrap()
            .args(["completions", shell])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let bash = script("bash");
    let words: Vec<&str> = bash
        .lines()
        .filter_map(|l| l.split_once("compgen -W \""))
        .map(|(_, rest)| rest.split('"').next().unwrap_or(""))
        .flat_map(str::split_whitespace)
        .collect();
    for name in dgscope::source::twin::Scenario::names() {
        assert!(words.contains(&name), "{name} is not completed");
    }
    for theme in ["dark", "light", "high-contrast", "mono"] {
        assert!(words.contains(&theme), "{theme} is not completed");
    }
    let fish = script("fish");
    assert!(
        fish.contains("slow-srl\\t'SYNC to 2-member SRLs"),
        "fish lists scenarios with their help"
    );
}
