//! The README cannot drift from the product: every `$ dgscope …` example runs on the built
//! binary and must print the lines the README shows (`...` stands for lines left out), every
//! `dgscope SUBCOMMAND` it mentions exists, and its first lines are the two set-up commands.

use std::path::Path;
use std::process::Command;

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap()
}

/// Fenced code blocks, as lists of lines.
fn blocks(text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut cur: Option<Vec<String>> = None;
    for line in text.lines() {
        if line.starts_with("```") {
            match cur.take() {
                Some(b) => out.push(b),
                None => cur = Some(Vec::new()),
            }
        } else if let Some(b) = cur.as_mut() {
            b.push(line.to_string());
        }
    }
    out
}

#[test]
fn the_first_lines_are_the_two_set_up_commands() {
    let text = readme();
    let first = &blocks(&text)[0];
    assert!(
        first[0].starts_with("cargo run --release -- demo"),
        "{first:?}"
    );
    assert!(first[1].starts_with("cargo test"), "{first:?}");
    let before: String = text.lines().take(8).collect::<Vec<_>>().join("\n");
    assert!(before.contains("cargo run --release -- demo"));
}

#[test]
fn every_example_prints_what_the_readme_shows() {
    let dir = tempfile::tempdir().unwrap();
    // Examples name tests/fixtures/…; new files land in the temporary directory.
    #[cfg(unix)]
    std::os::unix::fs::symlink(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests"),
        dir.path().join("tests"),
    )
    .unwrap();
    let bin = env!("CARGO_BIN_EXE_dgscope");
    let mut ran = 0;
    for block in blocks(&readme()) {
        if !block.first().is_some_and(|l| l.starts_with("$ dgscope")) {
            continue;
        }
        let mut i = 0;
        while i < block.len() {
            let cmd = block[i].strip_prefix("$ ").expect("a command line");
            let mut expected = Vec::new();
            i += 1;
            while i < block.len() && !block[i].starts_with("$ ") {
                expected.push(block[i].clone());
                i += 1;
            }
            let out = Command::new("sh")
                .arg("-c")
                .arg(format!("dgscope() {{ \"$DGSCOPE_BIN\" \"$@\"; }}; {cmd}"))
                .env("DGSCOPE_BIN", bin)
                .current_dir(dir.path())
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(
                matches!(out.status.code(), Some(0 | 1)),
                "`{cmd}` failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            // The shown lines appear, in order.
            let actual: Vec<&str> = stdout.lines().map(str::trim_end).collect();
            let mut at = 0;
            for want in expected
                .iter()
                .map(|l| l.trim_end())
                .filter(|l| *l != "...")
            {
                match actual[at..].iter().position(|l| *l == want) {
                    Some(p) => at += p + 1,
                    None => panic!("`{cmd}` no longer prints\n{want}\nit printed:\n{stdout}"),
                }
            }
            ran += 1;
        }
    }
    assert!(ran >= 5, "only {ran} examples found");
}

#[test]
fn every_subcommand_the_readme_names_exists() {
    let cmd = dgscope::commands::cli_command();
    let known: Vec<&str> = cmd.get_subcommands().map(|s| s.get_name()).collect();
    let text = readme();
    // Commands as the README writes them: in backticks, after a prompt, or opening a line
    // of a code block (prose like "dgscope runs one SELECT" is not a command).
    let mut named = Vec::new();
    let mut word_after = |rest: &str| {
        let word: String = rest
            .chars()
            .take_while(|c| c.is_ascii_lowercase())
            .collect();
        if !word.is_empty() {
            named.push(word);
        }
    };
    for marker in ["`dgscope ", "$ dgscope "] {
        for (i, _) in text.match_indices(marker) {
            word_after(&text[i + marker.len()..]);
        }
    }
    for block in blocks(&text) {
        for line in block {
            if let Some(rest) = line.strip_prefix("dgscope ") {
                word_after(rest);
            }
        }
    }
    assert!(named.len() >= 10, "{named:?}");
    for w in named {
        assert!(
            known.contains(&w.as_str()),
            "README names `dgscope {w}`, which does not exist"
        );
    }
}

/// What users have: README, docs/, the config template, the man page and every `--help`.
fn user_texts() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = vec![("README.md".to_string(), readme())];
    for e in std::fs::read_dir(root.join("docs")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") {
            let name = format!("docs/{}", p.file_name().unwrap().to_string_lossy());
            out.push((name, std::fs::read_to_string(&p).unwrap()));
        }
    }
    out.push((
        "config template".into(),
        dgscope::config::TEMPLATE.to_string(),
    ));
    out.push(("man page".into(), dgscope::commands::man_page()));
    let mut cmd = dgscope::commands::cli_command();
    out.push(("dgscope --help".into(), cmd.render_long_help().to_string()));
    for sub in cmd.get_subcommands_mut() {
        let name = format!("dgscope {} --help", sub.get_name());
        out.push((name, sub.render_long_help().to_string()));
    }
    out
}

/// The internal design lives outside the repository: nothing users read may point at it.
#[test]
fn nothing_users_read_points_outside_the_repository() {
    for (name, text) in user_texts() {
        assert!(
            !text.contains("../shared") && !text.contains("shared/design"),
            "{name} points at the internal design"
        );
    }
}

/// Every Markdown link and every `docs/…` or `themes/…` path in README and docs/ names a
/// file of the repository.
#[test]
fn every_link_and_path_in_the_docs_resolves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (name, text) in user_texts().into_iter().filter(|(n, _)| n.ends_with(".md")) {
        let base = if name.starts_with("docs/") {
            root.join("docs")
        } else {
            root.to_path_buf()
        };
        let mut rest = text.as_str();
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let end = after.find(')').unwrap_or(after.len());
            let target = after[..end].split('#').next().unwrap();
            rest = &after[end..];
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            assert!(
                base.join(target).exists(),
                "{name}: link {target:?} does not resolve"
            );
        }
        for word in text.split(|c: char| c.is_whitespace() || "`()[],;".contains(c)) {
            let w = word.trim_end_matches(['.', ':']);
            if (w.starts_with("docs/") || w.starts_with("themes/")) && !w.contains('…') {
                assert!(root.join(w).exists(), "{name}: path {w:?} does not exist");
            }
        }
    }
    // The man page names only pages that exist: itself (one page is installed).
    let man = dgscope::commands::man_page();
    assert!(!man.contains("dgscope\\-watch(1)"), "{man}");
    assert!(man.contains(".SH SEE ALSO"), "{man}");
}
