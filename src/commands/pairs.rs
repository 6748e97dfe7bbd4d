//! The pairs a fleet command runs (`serve`, the fleet board of `watch` and `demo --fleet`):
//! which pairs the profiles and flags name, what can be wrong with them before anything
//! starts, and starting one pair's source. Each pair samples on its own threads with its own
//! timeouts, so one that hangs never holds up the others.

use super::live::{self, Terminal};
use super::profile::WithProfile;
use super::{Failure, EXIT_BAD_INPUT};
use crate::cli::oracle::ConnArgs;
use crate::config::Config;
use crate::sample::Slot;
use crate::source::oracle::clock::SystemClock;
use crate::source::oracle::{connect, init_client, CollectorHandle, OracleDriver, Secret};
use crate::source::twin::{paced, Scenario, Twin, TwinControl};
use crate::source::{PullSource, SourceEvent};
use crate::timestamp::Timestamp;
use std::sync::Arc;
use tokio::sync::mpsc;

/// One pair to run.
pub enum Spec {
    Twin {
        pair: String,
        scenario: Scenario,
        seed: u64,
    },
    Live {
        pair: String,
        conn: ConnArgs,
        /// A profile's own password (from a mode-0600 config file).
        password: Option<Secret>,
    },
}

impl Spec {
    pub fn pair(&self) -> &str {
        match self {
            Spec::Twin { pair, .. } | Spec::Live { pair, .. } => pair,
        }
    }

    /// The slots the pair is configured with, primary first (before any sample).
    pub fn slots(&self) -> Vec<Slot> {
        match self {
            Spec::Twin { scenario, .. } => crate::source::twin::slots_of(*scenario),
            Spec::Live { conn, .. } => live::plan(conn)
                .map(|p| p.targets.into_iter().map(|t| t.0).collect())
                .unwrap_or_else(|_| vec![Slot::primary()]),
        }
    }
}

pub fn bad(msg: impl Into<String>) -> Failure {
    Failure {
        message: msg.into(),
        code: EXIT_BAD_INPUT,
    }
}

fn profile_spec(name: &str, config: &Config, base: &ConnArgs, seed: u64) -> Result<Spec, Failure> {
    let p = config.require_profile(name).map_err(Failure::bad_input)?;
    if p.primary.is_none() {
        if let Some(sc) = &p.scenario {
            let scenario: Scenario = sc
                .parse()
                .map_err(|e| bad(format!("profile {name:?}: {e}")))?;
            return Ok(Spec::Twin {
                pair: name.to_string(),
                scenario,
                seed,
            });
        }
    }
    // The profile's databases and settings, as `watch PROFILE` reads them.
    let mut conn = ConnArgs {
        primary: None,
        standby: Vec::new(),
        ..base.clone()
    };
    let profile = super::profile::apply_profile_conn(&mut conn, name, config)?;
    if conn.primary.is_none() && conn.standby.is_empty() {
        return Err(bad(format!(
            "profile {name:?} names no database (primary/standby) and no scenario"
        )));
    }
    Ok(Spec::Live {
        pair: name.to_string(),
        conn,
        password: profile.password,
    })
}

/// What names the pairs on the command line.
pub struct Named<'a> {
    pub profiles: &'a [String],
    pub all_profiles: bool,
    /// One live pair from `--primary`/`--standby`.
    pub conn: &'a ConnArgs,
    /// `--twin SCENARIO` (serve), each labelled `twin-SCENARIO`.
    pub twins: &'a [String],
    /// The twins' seed.
    pub seed: u64,
    /// Profile twins take `seed`, `seed + 1` … in order (the board: two profiles with one
    /// scenario still differ); otherwise every twin takes `seed` (serve, as `check --twin`).
    pub distinct_seeds: bool,
}

/// The pairs named, in order: the profiles given, then every other profile with
/// `--all-profiles`, the pair from flags, the twins. Empty when nothing names one (the
/// caller says what it needs).
pub fn specs(n: &Named, config: &Config) -> Result<Vec<Spec>, Failure> {
    let mut out = Vec::new();
    let mut names: Vec<String> = n.profiles.to_vec();
    if n.all_profiles {
        if config.profiles.is_empty() {
            return Err(bad(
                "--all-profiles: the config file has no profiles (see `dgscope config path`)",
            ));
        }
        for p in config.profiles.keys() {
            if !names.contains(p) {
                names.push(p.clone());
            }
        }
    }
    for (i, name) in names.iter().enumerate() {
        let seed = if n.distinct_seeds {
            n.seed + i as u64
        } else {
            n.seed
        };
        out.push(profile_spec(name, config, n.conn, seed)?);
    }
    if let Some(p) = &n.conn.primary {
        let spec = connect::parse("--primary", &p.0).map_err(|e| bad(e.0))?;
        let mut conn = n.conn.clone();
        super::settings::fill_conn(&mut conn, None, config)?;
        out.push(Spec::Live {
            pair: spec.name,
            conn,
            password: None,
        });
    } else if !n.conn.standby.is_empty() {
        return Err(bad("--standby needs --primary (one live pair from flags)"));
    }
    for t in n.twins {
        let scenario: Scenario = t.parse().map_err(Failure::bad_input)?;
        out.push(Spec::Twin {
            pair: format!("twin-{}", scenario.name()),
            scenario,
            seed: n.seed,
        });
    }
    for (i, s) in out.iter().enumerate() {
        if out[..i].iter().any(|o| o.pair() == s.pair()) {
            return Err(bad(format!(
                "pair {:?} is given twice; each pair is run once",
                s.pair()
            )));
        }
    }
    Ok(out)
}

/// Everything that can be wrong with the live pairs' flags and password sources, before
/// anything is started.
pub fn validate(specs: &[Spec]) -> Result<(), Failure> {
    for s in specs {
        if let Spec::Live {
            conn,
            password,
            pair,
        } = s
        {
            let plan = live::plan(conn).map_err(|f| bad(format!("pair {pair}: {}", f.message)))?;
            let pw = WithProfile {
                inner: &Terminal,
                password: password.as_ref(),
            };
            live::check_password_source(&plan, &pw)
                .map_err(|f| bad(format!("pair {pair}: {}", f.message)))?;
        }
    }
    Ok(())
}

/// What keeps a started pair's source running; dropping it ends the source.
pub enum Keep {
    Twin(mpsc::UnboundedSender<TwinControl>),
    Collector(CollectorHandle),
}

impl Keep {
    pub fn stop(&self) {
        match self {
            Keep::Twin(t) => {
                let _ = t.send(TwinControl::Stop);
            }
            Keep::Collector(c) => c.stop(),
        }
    }
}

/// A pair's source, started.
pub struct Opened {
    pub pair: String,
    /// What is sampled, without secrets.
    pub describe: String,
    pub slots: Vec<Slot>,
    pub interval: std::time::Duration,
    pub rx: mpsc::Receiver<SourceEvent>,
    pub keep: Keep,
}

/// A pair whose source could not start: why, in the source's words, and a short kind for
/// the exporter (`no_client_library`, `start_failed`).
pub struct NotOpened {
    pub pair: String,
    pub slots: Vec<Slot>,
    /// `twin` or `oracle`.
    pub source: &'static str,
    pub kind: &'static str,
    pub message: String,
}

/// Starts a pair's source: a twin paced to the wall clock at `speed` (after `preroll`
/// ticks sent at once, the last stamped now), a task on `twins`, or the collector of a live
/// pair (its passwords read first) on threads of its own, for its blocking calls and
/// timeouts.
pub fn open(
    spec: Spec,
    preroll: u64,
    speed: f64,
    twins: &tokio::runtime::Handle,
) -> Result<Opened, NotOpened> {
    match spec {
        Spec::Twin {
            pair,
            scenario,
            seed,
        } => {
            let interval = crate::source::twin::INTERVAL;
            let start = Timestamp::from_millis(
                Timestamp::now().ms - (preroll as i64) * interval.as_millis() as i64,
            );
            let twin = Twin::starting_at(scenario, seed, start);
            let describe = twin.describe();
            let (tx, rx) = mpsc::channel(256);
            let (ctl, ctl_rx) = mpsc::unbounded_channel();
            let slots = crate::source::twin::slots_of(scenario);
            twins.spawn(paced(twin, preroll, speed, tx, ctl_rx));
            Ok(Opened {
                pair,
                describe,
                slots,
                interval,
                rx,
                keep: Keep::Twin(ctl),
            })
        }
        Spec::Live {
            pair,
            conn,
            password,
        } => {
            let pw = WithProfile {
                inner: &Terminal,
                password: password.as_ref(),
            };
            match live::start_with(
                &conn,
                &pw,
                init_client,
                Arc::new(OracleDriver),
                Arc::new(SystemClock),
            ) {
                Ok(ls) => Ok(Opened {
                    pair,
                    describe: ls.describe,
                    slots: ls.slots,
                    interval: ls.interval,
                    rx: ls.rx,
                    keep: Keep::Collector(ls.collector),
                }),
                Err(f) => {
                    let kind = if f.code == live::EXIT_UNKNOWN {
                        "no_client_library"
                    } else {
                        "start_failed"
                    };
                    let slots = live::plan(&conn)
                        .map(|p| p.targets.into_iter().map(|t| t.0).collect())
                        .unwrap_or_else(|_| vec![Slot::primary()]);
                    Err(NotOpened {
                        pair,
                        slots,
                        source: "oracle",
                        kind,
                        message: f.message,
                    })
                }
            }
        }
    }
}

/// A runtime for many pairs' tasks: their twins (and in `serve` their pipelines). Two threads
/// per pair cost `serve` with 200 pairs 165 of its 645 MB (benches/serve.rs). It has a thread
/// per core but one (at least one, at most 4), at a lower priority: the screen or the scrapes
/// come first when every pair judges the same second at once (a scrape that lands then waits
/// for nobody's judgement; a judgement a few milliseconds late changes nothing). Live pairs'
/// collectors keep threads of their own for their blocking calls and timeouts.
pub fn pool(name: &str) -> Result<tokio::runtime::Runtime, Failure> {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(cores.saturating_sub(1).clamp(1, 4))
        .on_thread_start(yield_to_the_front)
        .thread_name(name)
        .enable_time()
        .build()
        .map_err(|e| Failure {
            message: format!("cannot start the runtime of the pairs' tasks: {e}"),
            code: 1,
        })
}

/// Lowers the calling thread's priority (nice +10) so the screen's and the scrapes' threads
/// run first.
fn yield_to_the_front() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority takes integers only; on Linux `who` 0 with PRIO_PROCESS is the
    // calling thread (nice is per thread there). A refusal changes nothing.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 10);
    }
}

/// Forwards the screen's controls to a paced twin until the screen is done, then stops it:
/// the fault menu switches its scenario, `+`/`-` its speed. Pausing the display does not
/// stop the twin (collection continues), and the interval is the twin's own.
pub async fn forward_to_twin(
    mut ctl: mpsc::Receiver<crate::app::Control>,
    twin: mpsc::UnboundedSender<TwinControl>,
) {
    use crate::app::Control;
    while let Some(c) = ctl.recv().await {
        let msg = match c {
            Control::SetScenario(name) => match name.parse::<Scenario>() {
                Ok(s) => TwinControl::SetScenario(s),
                Err(_) => continue,
            },
            Control::Speed(x) => TwinControl::SetSpeed(x),
            Control::Pause(_) | Control::Interval(_) => continue,
        };
        if twin.send(msg).is_err() {
            break;
        }
    }
    let _ = twin.send(TwinControl::Stop);
}
