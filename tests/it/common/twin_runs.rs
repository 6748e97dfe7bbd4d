//! The catalog's twin runs, simulated once per test binary. The accuracy matrix judges every
//! scenario on seeds 1–5 for five simulated minutes; the evidence tests judge the first four
//! minutes of seeds 1 and 2 and the first three of seed 3, the same runs: simulating the
//! commits of each again was a fifth of the integration tests' time.
//!
//! A run is kept as the recorder writes it (changes lines, zstd), some tens of KB where its
//! samples take MB, and read back through the recording reader, whose round trip is exact
//! (`sample_formats::changes::every_scenario_reads_back_what_was_written_in_either_form`).

use super::once::Memo;
use super::recordings::{recording_reader, write_tick};
use dgscope::sample::recording::{Entry, Header, RecordingReader, RecordingWriter};
use dgscope::source::twin::{Scenario, Twin, EPOCH};
use dgscope::source::{PullSource, Tick};
use dgscope::timestamp::Timestamp;
use std::io::BufRead;
use std::sync::Arc;
use std::time::Duration;

/// The seeds several tests read, and the longest any of them reads (five minutes at 1 s).
const SHARED_SEEDS: std::ops::RangeInclusive<u64> = 1..=5;
const HORIZON_TICKS: usize = 300;

pub struct Run {
    /// The recording of the run's first `HORIZON_TICKS` instants.
    bytes: Vec<u8>,
    /// Each instant's time and how many samples and marks it wrote, in order.
    ticks: Vec<(Timestamp, usize, usize)>,
    describe: String,
    interval: Duration,
}

fn run(scenario: Scenario, seed: u64) -> Arc<Run> {
    static RUNS: Memo<(Scenario, u64), Arc<Run>> = Memo::new();
    RUNS.get((scenario, seed), || {
        let mut twin = Twin::new(scenario, seed);
        let header = Header::new(EPOCH, 1000, &twin.describe());
        let mut w = RecordingWriter::with_form(Vec::new(), &header, true).unwrap();
        let mut ticks = Vec::with_capacity(HORIZON_TICKS);
        for _ in 0..HORIZON_TICKS {
            let tick = twin.next_tick().expect("the twin never ends");
            write_tick(&mut w, &tick);
            ticks.push((tick.t, tick.samples.len(), tick.marks.len()));
        }
        Arc::new(Run {
            bytes: w.finish().unwrap(),
            ticks,
            describe: twin.describe(),
            interval: twin.interval(),
        })
    })
}

/// `Twin::new(scenario, seed)` for a test that reads at most `ticks` instants of it: the
/// shared run where one is kept, else the twin itself.
pub fn twin(scenario: Scenario, seed: u64, ticks: usize) -> CatalogTwin {
    if !SHARED_SEEDS.contains(&seed) || ticks > HORIZON_TICKS {
        return CatalogTwin::Live(Box::new(Twin::new(scenario, seed)));
    }
    let run = run(scenario, seed);
    let reader = recording_reader(&run.bytes);
    CatalogTwin::Shared {
        run,
        reader: Box::new(reader),
        next: 0,
    }
}

pub enum CatalogTwin {
    Shared {
        run: Arc<Run>,
        reader: Box<RecordingReader<Box<dyn BufRead + Send>>>,
        next: usize,
    },
    Live(Box<Twin>),
}

impl PullSource for CatalogTwin {
    fn describe(&self) -> String {
        match self {
            CatalogTwin::Shared { run, .. } => run.describe.clone(),
            CatalogTwin::Live(t) => t.describe(),
        }
    }

    fn interval(&self) -> Duration {
        match self {
            CatalogTwin::Shared { run, .. } => run.interval,
            CatalogTwin::Live(t) => t.interval(),
        }
    }

    fn next_tick(&mut self) -> Option<Tick> {
        let (run, reader, next) = match self {
            CatalogTwin::Live(t) => return t.next_tick(),
            CatalogTwin::Shared { run, reader, next } => (run, reader, next),
        };
        // Past the kept run is a test reading more than it said: loud, not a silent end.
        let &(t, samples, marks) = run
            .ticks
            .get(*next)
            .expect("read past the shared twin run (ask for more ticks)");
        *next += 1;
        let mut tick = Tick {
            t,
            samples: Vec::with_capacity(samples),
            marks: Vec::with_capacity(marks),
        };
        for _ in 0..samples + marks {
            match reader
                .next()
                .expect("an entry")
                .expect("the run reads back")
            {
                Entry::Sample(s) => tick.samples.push(*s),
                Entry::Mark(m) => tick.marks.push(m),
            }
        }
        assert_eq!(
            (tick.samples.len(), tick.marks.len()),
            (samples, marks),
            "the shared run's entries out of step with its instants"
        );
        Some(tick)
    }
}
