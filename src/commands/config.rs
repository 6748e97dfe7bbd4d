use super::{print, Failure};
use crate::cli::ConfigCommand;
use crate::config::{config_path, Config, TEMPLATE};
use std::path::Path;
use std::process::ExitCode;

pub fn run(cmd: ConfigCommand, flag: Option<&Path>) -> Result<ExitCode, Failure> {
    // Needs no config file: the targets are the exporters, not the pairs.
    if let ConfigCommand::Sd { shards, listen } = &cmd {
        print(&file_sd(*shards, listen)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let path = config_path(flag).ok_or_else(|| {
        Failure::bad_input("no config directory on this system (no HOME?); pass --config FILE")
    })?;
    match cmd {
        ConfigCommand::Path => {
            let state = if path.exists() {
                "exists"
            } else {
                "not created yet: dgscope config init"
            };
            print(&format!("{}\t({state})\n", path.display()))?;
        }
        ConfigCommand::Init { force } => {
            if path.exists() && !force {
                return Err(Failure::bad_input(format!(
                    "{}: already exists; use --force to replace it",
                    path.display()
                )));
            }
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(|e| {
                    Failure::bad_input(format!("{}: cannot create: {e}", dir.display()))
                })?;
            }
            // Created new (never through a planted link) or, with --force, replaced by a
            // rename of a complete file.
            crate::output::write_file(&path, TEMPLATE.as_bytes(), force)
                .map_err(Failure::bad_input)?;
            print(&format!("wrote {}\n", path.display()))?;
        }
        ConfigCommand::Actions => {
            // The keys as the screen would have them: the config's bindings applied when
            // there is a config file, the defaults when there is none.
            let c = if path.exists() {
                Config::load(&path, true).map_err(Failure::bad_input)?
            } else {
                Config::default()
            };
            let keymap = crate::app::Keymap::default()
                .with_overrides(c.bindings.iter().map(|(a, k)| (a.as_str(), k.as_str())))
                .map_err(|e| Failure::bad_input(format!("{}: {e}", path.display())))?;
            print(&super::actions_table(&keymap))?;
        }
        ConfigCommand::Profiles => {
            // No config yet: no profiles, and nothing to say (the shell asks at every Tab).
            let c = Config::load(&path, false).map_err(Failure::bad_input)?;
            let names: String = c.profiles.keys().map(|n| format!("{n}\n")).collect();
            super::print_untrusted(&names)?;
        }
        ConfigCommand::Sd { .. } => {}
        ConfigCommand::Check => {
            let c = Config::load(&path, true).map_err(Failure::bad_input)?;
            // What the screen would trip over later: unknown theme names (blamed on their
            // line here), and user theme files that do not parse.
            let text = crate::output::read_bounded(&path, crate::config::MAX_CONFIG_BYTES)
                .unwrap_or_default();
            c.check_themes(&path.display().to_string(), &text)
                .map_err(Failure::bad_input)?;
            if let Some(dir) = crate::tui::user_theme_dir() {
                crate::ui::theme::load_user_themes(&dir, false).map_err(Failure::bad_input)?;
            }
            print(&format!(
                "{}: ok ({} profile(s), {} binding(s), {} threshold override(s))\n",
                path.display(),
                c.profiles.len(),
                c.bindings.len(),
                overridden_thresholds(&c)
            ))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn overridden_thresholds(c: &Config) -> usize {
    let defaults = serde_json::to_value(crate::causes::Thresholds::default()).unwrap_or_default();
    let mine = serde_json::to_value(&c.thresholds).unwrap_or_default();
    match (defaults.as_object(), mine.as_object()) {
        (Some(d), Some(m)) => m.iter().filter(|(k, v)| d.get(*k) != Some(*v)).count(),
        _ => 0,
    }
}

/// Prometheus `file_sd` JSON for `shards` exporters at `listen` (the Kth address serves
/// `--shard K/N`): one target group each, labelled `dgscope_shard="K/N"`.
fn file_sd(shards: u32, listen: &[String]) -> Result<String, Failure> {
    let max = crate::serve::shard::MAX_SHARDS;
    if shards == 0 || shards > max {
        return Err(Failure::bad_input(format!(
            "--shards {shards}: between 1 and {max}"
        )));
    }
    if listen.len() != shards as usize {
        return Err(Failure::bad_input(format!(
            "--shards {shards} needs {shards} --listen addresses, one per shard in shard order (got {}); for high availability run a second Prometheus on the same targets (docs/FLEET.md)",
            listen.len()
        )));
    }
    for (i, a) in listen.iter().enumerate() {
        if listen[..i].contains(a) {
            return Err(Failure::bad_input(format!(
                "--listen {a:?} is given twice: each shard is its own exporter"
            )));
        }
        let port_ok = a.rsplit_once(':').is_some_and(|(host, port)| {
            !host.is_empty() && port.parse::<u16>().is_ok_and(|p| p > 0)
        });
        if !port_ok {
            return Err(Failure::bad_input(format!(
                "--listen {a:?}: not HOST:PORT (e.g. mon1.example.com:9731)"
            )));
        }
    }
    let groups: Vec<serde_json::Value> = listen
        .iter()
        .enumerate()
        .map(|(i, a)| {
            serde_json::json!({
                "targets": [a],
                "labels": { "dgscope_shard": format!("{}/{shards}", i + 1) },
            })
        })
        .collect();
    let mut out = serde_json::to_string_pretty(&groups).unwrap_or_default();
    out.push('\n');
    Ok(out)
}
