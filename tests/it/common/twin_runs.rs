//! The catalog's twin runs, simulated once per test binary. The accuracy matrix judges every
//! scenario on seeds 1–5 for five simulated minutes; the evidence tests judge the first four
//! minutes of seeds 1 and 2 and the first three of seed 3, the same runs; the recording
//! formats' tests write and read back eleven minutes of seed 3 (across a segment start).
//! Simulating the commits of each again was a fifth of the integration tests' time.
//!
//! A run is kept as the recorder writes it (changes lines, zstd), some tens of KB where its
//! samples take MB, and read back through the recording reader. Its builder holds what it
//! kept to what the twin made, entry by entry, before any test reads it: a test reading a
//! kept run reads the twin's own samples, even the round-trip test of the recording formats
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

/// The seeds several tests read.
const SHARED_SEEDS: std::ops::RangeInclusive<u64> = 1..=5;

/// The instants kept of a seed's runs (1 s each): the longest any test reads of it. Five
/// minutes; eleven of seed 3, which the recording formats' tests read across a segment start.
fn horizon(seed: u64) -> usize {
    if seed == 3 {
        660
    } else {
        300
    }
}

pub struct Run {
    /// The recording of the run's first `horizon(seed)` instants.
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
        let (bytes, live) = record(&mut twin, horizon(seed));
        reads_back_as_made(&bytes, &live, &format!("{scenario} seed {seed}"));
        Arc::new(Run {
            bytes,
            ticks: live
                .iter()
                .map(|t| (t.t, t.samples.len(), t.marks.len()))
                .collect(),
            describe: twin.describe(),
            interval: twin.interval(),
        })
    })
}

/// The first `ticks` instants of `twin`, recorded as a run is kept, and as they were made.
pub fn record(twin: &mut Twin, ticks: usize) -> (Vec<u8>, Vec<Tick>) {
    let header = Header::new(EPOCH, 1000, &twin.describe());
    let mut w = RecordingWriter::with_form(Vec::new(), &header, true).unwrap();
    let mut live = Vec::with_capacity(ticks);
    for _ in 0..ticks {
        let tick = twin.next_tick().expect("the twin never ends");
        write_tick(&mut w, &tick);
        live.push(tick);
    }
    (w.finish().unwrap(), live)
}

/// The kept recording reads back as the twin made it: every sample and mark, in order.
pub fn reads_back_as_made(bytes: &[u8], live: &[Tick], what: &str) {
    let made = live.iter().flat_map(|t| {
        let samples = t.samples.iter().map(|s| Entry::Sample(Box::new(s.clone())));
        samples.chain(t.marks.iter().cloned().map(Entry::Mark))
    });
    let mut read = recording_reader(bytes);
    for (i, made) in made.enumerate() {
        let back = read.next().expect("an entry").expect("the run reads back");
        assert!(back == made, "{what}: entry {i} reads back otherwise");
    }
    assert!(read.next().is_none(), "{what}: more read back than made");
}

/// `Twin::new(scenario, seed)` for a test that reads at most `ticks` instants of it: the
/// shared run where one is kept, else the twin itself.
pub fn twin(scenario: Scenario, seed: u64, ticks: usize) -> CatalogTwin {
    if !SHARED_SEEDS.contains(&seed) || ticks > horizon(seed) {
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
