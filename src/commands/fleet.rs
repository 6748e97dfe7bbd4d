//! The fleet board: `watch --all-profiles`, `watch P1 P2 …` and `demo --fleet [N]`. Each pair
//! is started as `serve` starts it (`pairs`): a live pair's collector on threads of its own
//! with its own timeouts, a twin as a task on a shared runtime. Each gets a screen of its own
//! (its own Driver); the board lists them, `Enter` opens one.

use super::pairs::{self, Keep, Named, NotOpened, Opened, Spec};
use super::{screen, Failure};
use crate::app::{Control, Mode};
use crate::cli::oracle::WatchArgs;
use crate::cli::{DemoArgs, UiArgs};
use crate::config::Config;
use crate::source::twin::Scenario;
use crate::source::{ConnState, SourceEvent};
use crate::tui::{self, PairFeed, TuiOptions};
use std::future::Future;
use std::pin::Pin;
use std::process::ExitCode;

/// Simulated time each twin runs before the first frame (as `demo` does): the board opens on
/// judged pairs, not a minute of warming up.
const PREROLL_TICKS: u64 = 61;

/// The most pairs `demo --fleet` simulates.
pub const MAX_FLEET: usize = 500;

type Task = Pin<Box<dyn Future<Output = ()> + Send>>;

/// What the board runs: each pair's feed, the tasks behind them, the collectors to stop.
struct Running {
    feeds: Vec<PairFeed>,
    tasks: Vec<Task>,
    collectors: Vec<Keep>,
    /// The twins' virtual seconds per wall second (`demo --speed`).
    speed: f64,
    /// Where the twins run, off the screen's own runtime.
    twins: tokio::runtime::Runtime,
}

impl Running {
    fn new(speed: f64) -> Result<Self, Failure> {
        Ok(Running {
            feeds: Vec::new(),
            tasks: Vec::new(),
            collectors: Vec::new(),
            speed,
            twins: pairs::pool("dgscope-twin")?,
        })
    }

    fn add(&mut self, spec: Spec, ui: &UiArgs, config: &Config) -> Result<(), Failure> {
        let twin = matches!(spec, Spec::Twin { .. });
        let preroll = if twin { PREROLL_TICKS } else { 0 };
        let (name, mode, describe, interval, events, control) =
            match pairs::open(spec, preroll, self.speed, self.twins.handle()) {
                Ok(Opened {
                    pair,
                    describe,
                    interval,
                    rx,
                    keep,
                    ..
                }) => match keep {
                    Keep::Twin(ctl) => {
                        // The screen's controls (fault menu, speed) reach the twin through this
                        // task, which holds the twin's control: the twin ends when it is dropped.
                        let (tx, ctl_rx) = tokio::sync::mpsc::channel::<Control>(16);
                        self.tasks
                            .push(Box::pin(pairs::forward_to_twin(ctl_rx, ctl)));
                        (pair, Mode::Demo, describe, interval, rx, Some(tx))
                    }
                    k @ Keep::Collector(_) => {
                        self.collectors.push(k);
                        (pair, Mode::Live, describe, interval, rx, None)
                    }
                },
                Err(NotOpened {
                    pair,
                    slots,
                    source,
                    message,
                    ..
                }) => {
                    // The pair stays on the board as UNKNOWN with its error; the others go on.
                    let (tx, rx) = tokio::sync::mpsc::channel(slots.len().max(1) + 1);
                    let reason = message.lines().next().unwrap_or("cannot start").to_string();
                    for slot in slots {
                        let state = ConnState::Failed {
                            reason: reason.clone(),
                        };
                        let _ = tx.try_send(SourceEvent::Status { slot, state });
                    }
                    // Held open: a closed source would read as "ended", not as unreachable.
                    self.tasks.push(Box::pin(async move {
                        std::future::pending::<()>().await;
                        drop(tx);
                    }));
                    let mode = if source == "twin" {
                        Mode::Demo
                    } else {
                        Mode::Live
                    };
                    (
                        pair,
                        mode,
                        format!("{source}: {reason}"),
                        crate::source::twin::INTERVAL,
                        rx,
                        None,
                    )
                }
            };
        let mut opts =
            screen::options(TuiOptions::new(mode, describe, interval), ui, config, None)?;
        if mode == Mode::Demo {
            opts.scenarios = Scenario::names().into_iter().map(String::from).collect();
        }
        self.feeds.push(PairFeed {
            name,
            opts,
            events,
            control,
            assessor: screen::assessor(),
        });
        Ok(())
    }

    fn launch(self, label: String) -> Result<ExitCode, Failure> {
        let Running {
            feeds,
            tasks,
            collectors,
            twins,
            ..
        } = self;
        let r = tui::launch_pairs(feeds, Some(label), tasks);
        for c in &collectors {
            c.stop();
        }
        twins.shutdown_timeout(std::time::Duration::from_millis(200));
        Ok(r?)
    }
}

/// `watch --all-profiles` and `watch P1 P2 …`.
pub fn watch(args: &WatchArgs, config: &Config) -> Result<ExitCode, Failure> {
    if args.record.is_some() {
        return Err(pairs::bad(
            "--record writes one pair: on the fleet board open the pair (Enter) and press r, or run `dgscope watch PROFILE --record FILE`",
        ));
    }
    let named = Named {
        profiles: &args.profiles,
        all_profiles: args.all_profiles,
        conn: &args.conn,
        twins: &[],
        seed: 1,
        distinct_seeds: true,
    };
    let specs = pairs::specs(&named, config)?;
    pairs::validate(&specs)?;
    tui::require_tty()?;
    let live = specs.iter().any(|s| matches!(s, Spec::Live { .. }));
    let twins = specs.iter().any(|s| matches!(s, Spec::Twin { .. }));
    let label = match (live, twins) {
        (true, true) => "LIVE and simulated",
        (true, false) => "LIVE",
        _ => "DEMO, simulated",
    };
    let mut running = Running::new(1.0)?;
    for s in specs {
        running.add(s, &args.ui, config)?;
    }
    running.launch(label.to_string())
}

/// `demo --fleet [N]`.
pub fn demo(a: &DemoArgs, n: usize, config: &Config) -> Result<ExitCode, Failure> {
    if !(1..=MAX_FLEET).contains(&n) {
        return Err(pairs::bad(format!(
            "--fleet {n}: between 1 and {MAX_FLEET} twin pairs"
        )));
    }
    if a.scenario.is_some() || a.profile.is_some() {
        return Err(pairs::bad(
            "--fleet draws its pairs from the scenario catalog: drop --scenario and the profile (or run `dgscope watch --all-profiles` for a config's twins)",
        ));
    }
    tui::require_tty()?;
    let mut running = Running::new(a.speed)?;
    for i in 0..n {
        let scenario = Scenario::for_fleet(i);
        running.add(
            Spec::Twin {
                pair: format!("{:02} {}", i + 1, scenario.name()),
                scenario,
                seed: a.seed + i as u64,
            },
            &a.ui,
            config,
        )?;
    }
    running.launch(format!("DEMO, {n} simulated pairs"))
}
