//! The man page and `config actions`, generated from the definitions they describe: the
//! command line (clap), the screen's keymap and actions (the table the `?` help draws), the
//! environment variables clap reads, the files and the exit codes. Nothing here is typed
//! twice, so the page cannot drift from the program.

use super::{check, cli_command, EXIT_BAD_INPUT};
use crate::app::{Action, Keymap};
use std::collections::BTreeMap;

/// The man page: clap's, with one page for every command, and the sections clap does not
/// know (KEYS, ENVIRONMENT, FILES, EXIT STATUS).
pub fn man_page() -> String {
    let mut out = Vec::new();
    // Rendering into a Vec cannot fail.
    let _ = clap_mangen::Man::new(cli_command()).render(&mut out);
    // One page is installed: subcommands are named as commands, not as `dgscope-watch(1)`
    // pages that do not exist.
    let page = String::from_utf8_lossy(&out).into_owned();
    let mut fixed = String::with_capacity(page.len() + 8192);
    for line in page.lines() {
        match line
            .strip_prefix("dgscope\\-")
            .and_then(|rest| rest.strip_suffix("(1)"))
        {
            Some(cmd) => fixed.push_str(&format!("\\fBdgscope {cmd}\\fR")),
            None => fixed.push_str(line),
        }
        fixed.push('\n');
    }
    keys(&mut fixed);
    environment(&mut fixed);
    files(&mut fixed);
    exit_status(&mut fixed);
    fixed.push_str(".SH SEE ALSO\n\\fBdgscope help\\fR \\fICOMMAND\\fR, \\fBdgscope config actions\\fR, and README.md and docs/ in the source distribution.\n");
    fixed
}

/// Each bindable action of the screen: its config name, its keys (the defaults with the
/// config's `[bindings]` applied) and what it does, in the help's order.
pub fn actions(keymap: &Keymap) -> Vec<(&'static str, String, &'static str)> {
    Action::BINDABLE
        .iter()
        .map(|a| {
            let keys: Vec<String> = keymap.keys_for(*a).iter().map(|k| k.to_string()).collect();
            (a.name(), keys.join(" "), a.describe())
        })
        .collect()
}

/// `dgscope config actions`: one action a line, aligned, for `[bindings]`.
pub fn actions_table(keymap: &Keymap) -> String {
    let rows = actions(keymap);
    let name_w = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    let keys_w = rows
        .iter()
        .map(|r| r.1.chars().count())
        .max()
        .unwrap_or(0)
        .max(4);
    let mut out = format!("{:name_w$}  {:keys_w$}  WHAT IT DOES\n", "ACTION", "KEYS");
    for (name, keys, what) in rows {
        let keys = if keys.is_empty() { "-".into() } else { keys };
        out.push_str(&format!("{name:name_w$}  {keys:keys_w$}  {what}\n"));
    }
    out.push_str("\nRebind in the config file (dgscope config path): [bindings] ACTION = \"KEY\", e.g. quit = \"ctrl-q\".\n");
    out
}

/// Text for roff: backslashes and a leading dot or quote would be read as requests.
fn roff(s: &str) -> String {
    let s = s.replace('\\', "\\e").replace('-', "\\-");
    match s.chars().next() {
        Some('.') | Some('\'') => format!("\\&{s}"),
        _ => s,
    }
}

fn keys(out: &mut String) {
    out.push_str(".SH KEYS\nOn the screen (\\fBdgscope demo\\fR, \\fBwatch\\fR, \\fBreplay\\fR); \\fB?\\fR shows the same list, with the keys the config file rebinds. Each action's name is what \\fB[bindings]\\fR in the config file takes.\n");
    for (name, keys, what) in actions(&Keymap::default()) {
        let keys = if keys.is_empty() {
            "(no key)".to_string()
        } else {
            keys
        };
        out.push_str(&format!(
            ".TP\n\\fB{}\\fR ({})\n{}\n",
            roff(&keys),
            roff(name),
            roff(what)
        ));
    }
    out.push_str(".TP\n\\fBCtrl\\-z\\fR\nsuspend the screen (\\fBfg\\fR resumes)\n");
}

/// Every environment variable clap reads, with the help of the first option that takes it.
fn environment(out: &mut String) {
    let mut vars: BTreeMap<String, String> = BTreeMap::new();
    fn walk(cmd: &clap::Command, vars: &mut BTreeMap<String, String>) {
        for a in cmd.get_arguments() {
            if let (Some(env), Some(long)) = (a.get_env(), a.get_long()) {
                let help = a.get_help().map(|h| h.to_string()).unwrap_or_default();
                vars.entry(env.to_string_lossy().into_owned())
                    .or_insert_with(|| format!("--{long}: {help}"));
            }
        }
        for sub in cmd.get_subcommands() {
            walk(sub, vars);
        }
    }
    walk(&cli_command(), &mut vars);
    out.push_str(".SH ENVIRONMENT\nEvery option can also be set by a variable, named after it (an option on the command line wins). None sets \\fB\\-\\-force\\fR: a variable left set must never permit overwriting. A password is read from the variable that \\fB\\-\\-password\\-env\\fR names, never from the command line.\n");
    for (var, help) in vars {
        out.push_str(&format!(".TP\n\\fB{}\\fR\n{}\n", roff(&var), roff(&help)));
    }
    out.push_str(".TP\n\\fBNO_COLOR\\fR\nWhen set and not empty, no colours (the mono theme).\n");
    out.push_str(".TP\n\\fBCOLORTERM\\fR\n\\fBtruecolor\\fR or \\fB24bit\\fR: the themes' exact colours; otherwise the nearest of 256.\n");
    out.push_str(".TP\n\\fBCOLORFGBG\\fR\nThe terminal's colours as \\fIfg\\fR;\\fIbg\\fR (set by rxvt, Konsole, iTerm2): \\fBt\\fR skips the themes unreadable on that background.\n");
}

fn files(out: &mut String) {
    out.push_str(".SH FILES\n");
    out.push_str(".TP\n\\fI~/.config/dgscope/config.toml\\fR\nThe config file (\\fB$XDG_CONFIG_HOME\\fR is honoured; \\fB\\-\\-config\\fR or \\fBDGSCOPE_CONFIG\\fR name another): profiles, thresholds, key bindings, the theme. \\fBdgscope config path\\fR prints where it is looked for, \\fBconfig init\\fR writes a commented template, \\fBconfig check\\fR validates it.\n");
    out.push_str(".TP\n\\fI~/.config/dgscope/themes/*.toml\\fR\nThemes of your own, beside the built\\-in ones (dark, light, high\\-contrast, mono).\n");
    out.push_str(".TP\n\\fI/usr/share/dgscope/themes/*.toml\\fR\nThe built\\-in themes as files, to copy and change (packages install them).\n");
    out.push_str(".TP\n\\fI*.jsonl\\fR, \\fI*.jsonl.zst\\fR\nRecordings (\\fBrecord\\fR, the screen's \\fBr\\fR key); \\fBreplay\\fR, \\fBcheck \\-\\-replay\\fR and \\fBreport\\fR read them.\n");
}

fn exit_status(out: &mut String) {
    out.push_str(&format!(
        ".SH EXIT STATUS\n.TP\n\\fB0\\fR\nSuccess.\n.TP\n\\fB1\\fR\nA failure that is not the input's: a terminal that cannot be set up, a thread or runtime that cannot start.\n.TP\n\\fB{EXIT_BAD_INPUT}\\fR\nBad input: an option, a file, a window or a config file that cannot be used, an address \\fBserve\\fR cannot listen on, an output or a recording that cannot be written, a full disk included (a pipe closed early, as by head, is not an error). One line on standard error says what, where and how to fix it.\n"
    ));
    out.push_str(&format!(
        ".PP\n\\fBdgscope check\\fR speaks the monitoring plugins' codes instead: \\fB0\\fR OK, \\fB1\\fR WARNING, \\fB2\\fR CRITICAL, \\fB{}\\fR UNKNOWN (anything that stops it from judging, bad input included), with one status line on standard output.\n",
        check::EXIT_UNKNOWN
    ));
}
