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
