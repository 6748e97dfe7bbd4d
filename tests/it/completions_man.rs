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

/// The man page's KEYS, ENVIRONMENT, FILES and EXIT STATUS come from the tables the program
/// uses: every bindable action with its default keys (the `?` help's table), every variable
/// clap reads, and the exit codes of the commands and of `check`.
#[test]
fn man_page_has_keys_environment_files_and_exit_status() {
    use dgscope::app::{Action, Keymap};
    let page = dgscope::commands::man_page();
    let at = |section: &str| {
        page.find(&format!(".SH {section}\n"))
            .unwrap_or_else(|| panic!("no {section} section"))
    };
    let (keys, env, files, exit) = (
        at("KEYS"),
        at("ENVIRONMENT"),
        at("FILES"),
        at("EXIT STATUS"),
    );
    assert!(keys < env && env < files && files < exit && exit < at("SEE ALSO"));
    let roff = |s: &str| s.replace('-', "\\-");
    let keys_text = &page[keys..env];
    let km = Keymap::default();
    for a in Action::BINDABLE {
        assert!(
            keys_text.contains(&format!("({})\n{}\n", roff(a.name()), roff(a.describe()))),
            "KEYS lacks {}",
            a.name()
        );
        for k in km.keys_for(a) {
            assert!(keys_text.contains(&roff(&k.to_string())), "KEYS lacks {k}");
        }
    }
    // Every variable the command line reads, and nothing clap does not know.
    let env_text = &page[env..files];
    let mut vars = Vec::new();
    fn walk(c: &clap::Command, vars: &mut Vec<String>) {
        for a in c.get_arguments() {
            if let Some(e) = a.get_env() {
                vars.push(e.to_string_lossy().into_owned());
            }
        }
        for s in c.get_subcommands() {
            walk(s, vars);
        }
    }
    walk(&dgscope::commands::cli_command(), &mut vars);
    assert!(vars.len() > 20, "{vars:?}");
    for v in &vars {
        assert!(
            env_text.contains(&format!("\\fB{}\\fR", roff(v))),
            "ENVIRONMENT lacks {v}"
        );
    }
    assert!(!env_text.contains("DGSCOPE_FORCE"));
    assert!(page[files..exit].contains("config.toml"));
    let exit_text = &page[exit..];
    for code in ["\\fB0\\fR", "\\fB1\\fR", "\\fB2\\fR", "\\fB3\\fR UNKNOWN"] {
        assert!(exit_text.contains(code), "EXIT STATUS lacks {code}");
    }
}

/// `dgscope config actions` lists every bindable action with its keys, the config's
/// `[bindings]` applied; a binding the keymap refuses is bad input (exit 2).
#[test]
fn config_actions_lists_every_action_with_the_config_s_keys() {
    use dgscope::app::Action;
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("config.toml");
    std::fs::write(&cfg, "[bindings]\nquit = \"ctrl-q\"\n").unwrap();
    let run = |cfg: &std::path::Path| {
        assert_cmd::Command::cargo_bin("dgscope")
            .unwrap()
            .env_remove("DGSCOPE_CONFIG")
            .args(["--config", cfg.to_str().unwrap(), "config", "actions"])
            .output()
            .unwrap()
    };
    let out = run(&cfg);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    for a in Action::BINDABLE {
        assert!(
            text.lines()
                .any(|l| l.split_whitespace().next() == Some(a.name())
                    && l.trim_end().ends_with(a.describe())),
            "no line for {}:\n{text}",
            a.name()
        );
    }
    let quit = text
        .lines()
        .find(|l| l.starts_with("quit "))
        .unwrap_or_else(|| panic!("no quit line:\n{text}"));
    assert!(quit.contains("Ctrl-q"), "{quit}");
    std::fs::write(&cfg, "[bindings]\nquit = \"hyper-q\"\n").unwrap();
    let out = run(&cfg);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// `report histogram --event` completes the events a recording holds histograms of, whole
/// names with their spaces, in a real bash running the script dgscope writes (clap alone
/// would offer `log`, `file`, `sync` as separate words).
#[test]
fn bash_completes_event_names_with_their_spaces() {
    let lines = bash_completes(
        &[
            r"dgscope report histogram f.jsonl --event 'log'",
            r"dgscope report histogram f.jsonl --event 'log\ file\ s'",
            r"dgscope report histogram f.jsonl --event 'SYNC'",
        ],
        &[],
    );
    assert_eq!(
        lines,
        [
            r"[log\ file\ sync][log\ file\ parallel\ write]",
            r"[log\ file\ sync]",
            r"[SYNC\ Remote\ Write]",
        ]
    );
    // zsh and fish quote by themselves; they list the names whole.
    for shell in ["zsh", "fish"] {
        let out = assert_cmd::Command::cargo_bin("dgscope")
            .unwrap()
            .args(["completions", shell])
            .output()
            .unwrap();
        let s = String::from_utf8_lossy(&out.stdout);
        assert!(
            s.contains("log\\ file\\ parallel\\ write") || s.contains("log file parallel write"),
            "{shell}"
        );
    }
}

/// Profiles come from the user's config: `dgscope config profiles` prints their names, and
/// the bash script asks it at each Tab after a subcommand that takes one, in a real bash with
/// the built binary on PATH.
#[test]
fn bash_completes_profile_names_from_the_config() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        "[profiles.prod]\nscenario = \"slow-srl\"\n\n[profiles.dr_site]\nscenario = \"healthy-sync\"\n",
    )
    .unwrap();
    let profiles = assert_cmd::Command::cargo_bin("dgscope")
        .unwrap()
        .env("DGSCOPE_CONFIG", &config)
        .args(["config", "profiles"])
        .output()
        .unwrap();
    assert!(profiles.status.success());
    assert_eq!(String::from_utf8_lossy(&profiles.stdout), "dr_site\nprod\n");
    // No config file yet: nothing, and no error (the shell asks at every Tab).
    let none = assert_cmd::Command::cargo_bin("dgscope")
        .unwrap()
        .env_remove("DGSCOPE_CONFIG")
        .env("XDG_CONFIG_HOME", dir.path().join("nowhere"))
        .args(["config", "profiles"])
        .output()
        .unwrap();
    assert!(none.status.success(), "{none:?}");
    assert!(none.stdout.is_empty());

    let lines = bash_completes(
        &["dgscope watch p", "dgscope serve d", "dgscope record ''"],
        &[("DGSCOPE_CONFIG", config.to_str().unwrap())],
    );
    let text = lines.join("\n");
    assert_eq!(lines[0], "[prod]", "{text}");
    assert_eq!(lines[1], "[dr_site]", "{text}");
    assert!(
        lines[2].contains("[prod]")
            && lines[2].contains("[dr_site]")
            && lines[2].contains("[--duration]"),
        "{text}"
    );
}

/// Each `line` completed at its last word by the bash script dgscope writes, in a real bash
/// (environment `env`, the built binary first on PATH): one `[candidate]…` line each.
fn bash_completes(lines: &[&str], env: &[(&str, &str)]) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("dgscope.bash");
    let out = assert_cmd::Command::cargo_bin("dgscope")
        .unwrap()
        .args(["completions", "bash"])
        .output()
        .unwrap();
    std::fs::write(&script, &out.stdout).unwrap();
    let mut probe = format!(
        r#"source '{}'
try() {{ COMP_WORDS=("$@"); COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 )); COMPREPLY=();
  _dgscope dgscope "${{COMP_WORDS[-1]}}" "${{COMP_WORDS[-2]}}"; printf '[%s]' "${{COMPREPLY[@]}}"; echo; }}
"#,
        script.display()
    );
    for l in lines {
        probe.push_str(&format!("try {l}\n"));
    }
    let bin_dir = std::path::Path::new(env!("CARGO_BIN_EXE_dgscope"))
        .parent()
        .unwrap();
    let out = std::process::Command::new("bash")
        .args(["--norc", "-c", &probe])
        .env(
            "PATH",
            format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap()),
        )
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(String::from)
        .collect()
}
