use super::{limits, print_untrusted as print, settings, Failure};
use crate::cli::{CheckArgs, CheckFormat};
use crate::exposition;
use crate::pipeline::TwinWhatIf;
use crate::pipeline::{run_check, with_entries_ahead, Checked};
use crate::report::check::{CheckReport, FailOn};
use crate::report::Limits;
use crate::sample::recording::Entry;
use crate::sample::recording::RecordingReader;
use crate::sample::Slot;
use crate::source::twin::{Scenario, Twin};
use crate::source::{ConnState, SourceEvent};
use std::convert::Infallible;
use std::process::ExitCode;
use std::time::Duration;

/// Nagios UNKNOWN: `check` could not judge (bad flags, unreadable recording, no source).
pub const EXIT_UNKNOWN: u8 = 3;

fn unknown(e: impl std::fmt::Display) -> Failure {
    Failure {
        message: e.to_string(),
        code: EXIT_UNKNOWN,
    }
}

/// Samples live databases for the duration (default 60 s) and judges them.
fn live(
    args: &CheckArgs,
    thresholds: crate::causes::Thresholds,
    profile_password: Option<&crate::source::oracle::Secret>,
) -> Result<Checked, Failure> {
    // Anything that stops a check from judging is UNKNOWN, whatever `start` would exit with.
    let src =
        super::profile::start_live(&args.conn, profile_password).map_err(|f| unknown(f.message))?;
    let targets: Vec<(Slot, String)> = super::live::plan(&args.conn)
        .map(|p| {
            p.targets
                .into_iter()
                .map(|(slot, spec, _)| (slot, spec.to_string()))
                .collect()
        })
        .unwrap_or_default();
    let (duration, thresholds) = match args.duration {
        Some(d) => (d, thresholds),
        None => (
            DEFAULT_LIVE_DURATION,
            held_within(thresholds, DEFAULT_LIVE_DURATION, args.conn.interval()),
        ),
    };
    judge_live(src, &targets, duration, thresholds)
}

/// The default live run is shorter than a finding's usual hold (15 s, 30 s for a state):
/// within it, a condition must hold through the run but the first and last samples instead.
/// `--duration` keeps the usual holds.
pub fn held_within(
    mut th: crate::causes::Thresholds,
    run: Duration,
    interval: Duration,
) -> crate::causes::Thresholds {
    let span = (run.as_secs_f64() - 2.0 * interval.as_secs_f64()).max(interval.as_secs_f64());
    th.raise_after_s = th.raise_after_s.min(span);
    th.state_hold_s = th.state_hold_s.min(span);
    th
}

/// What each member's connection said, for the lines a failed check prints.
#[derive(Default)]
struct Contact {
    answered: bool,
    /// `summary — fix` of the last error, and whether the collector gave up on it.
    last_error: Option<(String, bool)>,
    /// Parts of a sample the database refused (a missing grant): the rest was judged.
    part_errors: std::collections::BTreeSet<String>,
}

/// Judges what a live source delivers for `duration`. A member that never answered is not
/// judged as a database in trouble: when the primary never answered, or a member's login was
/// refused for good (a wrong password is not retried), the check is UNKNOWN with the
/// connection error as lines — what, where (the member and its connect string, never a
/// password), and how to fix it. A member that answered and then went away is judged
/// (`standby-down`), with its last error on stderr.
pub fn judge_live(
    mut src: super::live::LiveSource,
    targets: &[(Slot, String)],
    duration: Duration,
    thresholds: crate::causes::Thresholds,
) -> Result<Checked, Failure> {
    use std::cell::RefCell;
    use std::collections::BTreeMap;
    let contacts: RefCell<BTreeMap<Slot, Contact>> = RefCell::new(BTreeMap::new());
    let entries = std::iter::from_fn(|| loop {
        match src.rx.blocking_recv()? {
            SourceEvent::Sample(s) => {
                let mut c = contacts.borrow_mut();
                let c = c.entry(s.slot.clone()).or_default();
                match &s.error {
                    Some(e) => {
                        let gave_up = c.last_error.as_ref().is_some_and(|l| l.1);
                        c.last_error = Some((e.message.clone(), gave_up));
                    }
                    None => c.answered = true,
                }
                for pe in &s.errors {
                    c.part_errors
                        .insert(format!("{} not read: {}", pe.part, pe.message));
                }
                return Some(Ok::<_, Infallible>(Entry::Sample(s)));
            }
            SourceEvent::Mark(m) => return Some(Ok(Entry::Mark(m))),
            SourceEvent::Status {
                slot,
                state: ConnState::Failed { reason },
            } => {
                contacts.borrow_mut().entry(slot).or_default().last_error = Some((reason, true));
                continue;
            }
            SourceEvent::Status { .. } | SourceEvent::Checking(_) | SourceEvent::CaughtUp => {
                continue
            }
            SourceEvent::End => return None,
        }
    });
    let Ok(mut r) = run_check(
        entries,
        Some(duration),
        thresholds,
        Some(&TwinWhatIf::default()),
    );
    src.collector.stop();
    let contacts = contacts.into_inner();
    let where_ = |slot: &Slot| {
        let conn = targets
            .iter()
            .find(|(s, _)| s == slot)
            .map(|(_, c)| format!(" ({c})"))
            .unwrap_or_default();
        format!("{slot}{conn}")
    };
    let primary = Slot::primary();
    let refused = contacts.iter().find(|(slot, c)| {
        (**slot == primary && !c.answered) || c.last_error.as_ref().is_some_and(|e| e.1)
    });
    if let Some((slot, c)) = refused {
        let what = if c.answered {
            format!(
                "cannot check: dgscope stopped connecting to the {}",
                where_(slot)
            )
        } else {
            format!("cannot check: the {} did not answer", where_(slot))
        };
        let mut lines = vec![what];
        match &c.last_error {
            Some((reason, _)) => lines.extend(reason_lines(reason)),
            None => lines.push(format!(
                "  no sample within {} s; raise --duration or check the connect string",
                duration.as_secs()
            )),
        }
        return Err(unknown(lines.join("\n")));
    }
    for (slot, c) in &contacts {
        let last = c.last_error.iter().map(|(reason, _)| reason);
        for e in last.chain(&c.part_errors) {
            r.result.warnings.push(format!("{}: {e}", where_(slot)));
        }
    }
    Ok(r)
}

/// `summary — fix` as two indented lines, each made safe (the summary quotes the database).
fn reason_lines(reason: &str) -> Vec<String> {
    let safe = crate::sanitize::field;
    match reason.split_once(" — ") {
        Some((what, fix)) => vec![format!("  {}", safe(what)), format!("  fix: {}", safe(fix))],
        None => vec![format!("  {}", safe(reason))],
    }
}

/// The `pair` label of a check run: `twin-<scenario>`, `replay-<file stem>`, or the live
/// primary's service or alias.
fn pair_of(args: &CheckArgs) -> String {
    if let Some(t) = &args.twin {
        return format!("twin-{t}");
    }
    if let Some(p) = &args.replay {
        let stem = p.file_stem().map(|s| s.to_string_lossy().into_owned());
        return format!("replay-{}", stem.unwrap_or_default());
    }
    args.conn
        .primary
        .as_ref()
        .and_then(|p| crate::source::oracle::connect::parse("--primary", &p.0).ok())
        .map_or_else(|| "live".to_string(), |c| c.name)
}

/// A check shorter than a finding's raise time cannot raise anything: saying OK would be a
/// guess, so it is UNKNOWN with what it needs.
fn too_short(judged_s: f64, raise_after_s: f64) -> Option<Failure> {
    (judged_s + 1e-9 < raise_after_s).then(|| {
        unknown(format!(
            "too short to judge: need ≥ {raise_after_s:.0} s (a finding is raised after {raise_after_s:.0} s), got {judged_s:.0} s; use --duration {:.0}s or more",
            raise_after_s.ceil()
        ))
    })
}

/// Prints what a check that could not judge owes stdout: one status line, or in JSON mode
/// one document (stderr carries the whole message).
pub fn print_unknown(json: bool, message: &str) {
    use std::io::Write;
    let doc = if json {
        crate::report::check::unknown_json(message)
    } else {
        crate::report::check::unknown_text(message)
    };
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(doc.as_bytes()).and_then(|_| out.flush());
}

/// The default live run: short enough that connecting and sampling fit check_nrpe's 10 s
/// timeout.
pub const DEFAULT_LIVE_DURATION: Duration = Duration::from_secs(7);

pub fn run(args: CheckArgs, config_flag: Option<&std::path::Path>) -> Result<ExitCode, Failure> {
    let json = args.format == CheckFormat::Json;
    let text = args.format == CheckFormat::Text;
    if let Some(limit) = args.timeout {
        // Plugins answer within their timeout whatever they wait on (a hung listener, a
        // slow disk): past it, UNKNOWN with its one status line, as the guidelines ask.
        std::thread::spawn(move || {
            std::thread::sleep(limit);
            let message = format!(
                "timed out after {} (-t); raise -t or shorten --duration",
                humantime::format_duration(limit)
            );
            if json || text {
                print_unknown(json, &message);
            }
            eprint!("{}", super::failure_text(&message));
            std::process::exit(i32::from(EXIT_UNKNOWN));
        });
    }
    let r = judge(args, config_flag);
    if let Err(f) = &r {
        if json || text {
            print_unknown(json, &f.message);
        }
    }
    r
}

fn judge(mut args: CheckArgs, config_flag: Option<&std::path::Path>) -> Result<ExitCode, Failure> {
    let limits = args.limits();
    let config = super::load_config(config_flag).map_err(unknown)?;
    let profile = match args.profile.clone() {
        Some(name) => {
            let (p, what) =
                super::profile::headless_profile(&mut args.conn, &name, &config, "check")
                    .map_err(|f| unknown(f.message))?;
            if let super::profile::ProfileSource::Twin(scenario) = what {
                args.twin = Some(scenario);
            }
            Some(p)
        }
        None => {
            settings::fill_conn(&mut args.conn, None, &config).map_err(|f| unknown(f.message))?;
            None
        }
    };
    let fail_on = settings::fail_on(args.fail_on, profile.as_ref(), &config)
        .map_err(|f| unknown(f.message))?;
    args.duration = settings::duration(args.duration, profile.as_ref(), &config)
        .map_err(|f| unknown(f.message))?;
    let raise_after_s = config.thresholds.raise_after_s;
    if let Some(d) = args.duration {
        if let Some(f) = too_short(d.as_secs_f64(), raise_after_s) {
            return Err(f);
        }
    }
    let result = if let Some(name) = &args.twin {
        let scenario: Scenario = name.parse().map_err(unknown)?;
        let duration = args.duration.unwrap_or(Duration::from_secs(60));
        limits::twin_duration(duration).map_err(unknown)?;
        limits::interval(args.conn.interval()).map_err(unknown)?;
        let mut twin = Twin::new(scenario, args.seed);
        twin.set_interval(args.conn.interval());
        let progress = super::progress::Progress::new("check", duration);
        let start = twin.now();
        // The twin simulates on its own thread while the driver judges what it produced.
        let Ok(r) = with_entries_ahead(&mut twin, duration, |entries| {
            let entries = entries.inspect(|e| {
                if let Ok(e) = e {
                    let done = e.t().secs_since(start).max(0.0);
                    progress.tick(Duration::from_secs_f64(done));
                }
            });
            run_check(
                entries,
                Some(duration),
                config.thresholds,
                Some(&TwinWhatIf::default()),
            )
        });
        progress.done();
        r
    } else if let Some(path) = &args.replay {
        let reader = match RecordingReader::open(path) {
            Ok(reader) => reader,
            // Not a recording from its first line: an AWR or Statspack report is one window,
            // judged as `report awr` judges it. A file that is not a report either keeps the
            // recording's message; a report that cannot be judged says why.
            Err(e) if e.not_a_recording() => {
                return match crate::report::awr::judged(path, config.thresholds) {
                    Ok((_, checked)) => finish(&args, checked, fail_on, &limits),
                    Err(report) => Err(unknown(crate::report::awr::neither(&e, &report))),
                };
            }
            Err(e) => return Err(unknown(e)),
        };
        // A whole pass: parse on a second core while this one runs the checks.
        let mut reader = crate::sample::ahead::recording_ahead_judged(reader);
        let mut r = run_check(
            reader.by_ref(),
            args.duration,
            config.thresholds,
            Some(&TwinWhatIf::default()),
        )
        .map_err(unknown)?;
        if reader.truncated_tail() {
            r.result.warnings.push(format!(
                "{}: {}; read up to it",
                path.display(),
                crate::sample::recording::TRUNCATED_TAIL
            ));
        }
        // A recording is judged whole: the worst moment counts (issue 17.6), unless
        // --at-end asks for the state at its end.
        r.result.whole = !args.at_end;
        if r.samples == 0 {
            return Err(unknown(format!(
                "{}: the recording holds no samples",
                path.display()
            )));
        }
        // The recording itself may be shorter than a finding needs.
        if let (Some(a), Some(b), None) = (r.from, r.to, args.duration) {
            let interval_s = r.interval_s.unwrap_or(1.0);
            if let Some(f) = too_short(b.secs_since(a) + interval_s, raise_after_s) {
                return Err(unknown(format!("{}: {}", path.display(), f.message)));
            }
        }
        r
    } else if args.conn.primary.is_some() {
        live(
            &args,
            config.thresholds,
            profile.as_ref().and_then(|p| p.password.as_ref()),
        )?
    } else {
        return Err(unknown(
            "check needs a source: --primary CONN (live), --twin SCENARIO (the simulator), --replay FILE (a recording or an AWR/Statspack report) or a profile name from the config file",
        ));
    };
    finish(&args, result, fail_on, &limits)
}

/// Warnings on stderr, the textfile, then the verdict on stdout and its exit code.
fn finish(
    args: &CheckArgs,
    result: Checked,
    fail_on: FailOn,
    limits: &Limits,
) -> Result<ExitCode, Failure> {
    for w in &result.warnings {
        eprintln!("dgscope: warning: {}", crate::sanitize::field(w));
    }
    let pair = pair_of(args);
    // Nagios reads stdout: a check whose verdict cannot be written did not report, UNKNOWN.
    // The textfile first: a failure there is UNKNOWN with its one status line, never a
    // second line after the verdict.
    if let Some(dir) = &args.textfile {
        exposition::write_textfile(&result, dir, &pair).map_err(unknown)?;
    }
    print(&match args.format {
        CheckFormat::Json => result.json_within(limits),
        CheckFormat::Text => result.text_within(limits),
        CheckFormat::OpenMetrics => {
            exposition::exposition(&result, &pair, exposition::Format::OpenMetrics)
        }
    })
    .map_err(|f| unknown(f.message))?;
    Ok(ExitCode::from(result.exit_code_within(fail_on, limits)))
}
