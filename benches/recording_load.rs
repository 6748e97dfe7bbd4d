//! Issue 16's targets, on a 24-hour recording of the twin (primary and standby at 1 s,
//! `healthy-sync`, seed 1, slow parts when read): size on disk plain and `.zst`; the indexed
//! load of the tail plus a 1 m window (< 0.3 s, both forms); a full pass through the engine
//! (< 0.6 s plain, < 1 s `.zst`); resident memory (< 200 MB).
//!
//! `cargo bench --bench recording_load` prints the figures. Generating the day takes a while,
//! so both files are cached under `target/bench-cache/` (delete them to regenerate).

use dgscope::metrics::{Engine, EngineConfig, Window};
use dgscope::sample::index::RecordingIndex;
use dgscope::sample::recording::{Header, RecordingError, RecordingReader, RecordingWriter};
use dgscope::sample::Slot;
use dgscope::source::twin::{Scenario, Twin, EPOCH};
use dgscope::source::PullSource;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

// The binary's allocator, so the figures are the product's.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

const SECONDS: usize = 24 * 3600;

/// Builds an engine from the tail of an indexed recording: as much as the raw span and the
/// points history can hold, so opening a 24-hour file costs what its last hour costs.
/// "Since startup" then starts at the loaded tail.
fn load_tail(index: &RecordingIndex, config: EngineConfig) -> Result<Engine, RecordingError> {
    let mut engine = Engine::new(config);
    let Some(last) = index.last_t() else {
        return Ok(engine);
    };
    let interval_ms = index.header().interval_ms.unwrap_or(1000).max(1);
    let history_ms = config.history_len as u64 * interval_ms;
    let span_ms = history_ms.max(config.raw_span.as_millis() as u64) + interval_ms;
    for entry in index.entries_from(last.add_millis(-(span_ms as i64)))? {
        engine.push(entry?);
    }
    Ok(engine)
}

/// CPU seconds of `clock` (this thread, or the whole process).
fn cpu_s(clock: libc::clockid_t) -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec we own.
    unsafe { libc::clock_gettime(clock, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 / 1e9
}

fn rss_mb(field: &str) -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

/// The cached day in both forms, written by the product's own writers.
fn day() -> (PathBuf, PathBuf) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-cache");
    std::fs::create_dir_all(&dir).unwrap();
    let plain = dir.join("twin-day-v3.jsonl");
    let zst = dir.join("twin-day-v3.jsonl.zst");
    if plain.exists() && zst.exists() {
        return (plain, zst);
    }
    let start = Instant::now();
    let header = Header::new(EPOCH, 1000, "twin:healthy-sync seed=1");
    let tmp = |p: &Path| p.with_extension("tmp");
    let mut a = RecordingWriter::new(
        BufWriter::new(std::fs::File::create(tmp(&plain)).unwrap()),
        &header,
    )
    .unwrap();
    let mut b =
        RecordingWriter::new_zstd(std::fs::File::create(tmp(&zst)).unwrap(), &header).unwrap();
    let mut twin = Twin::new(Scenario::HealthySync, 1);
    for _ in 0..SECONDS {
        let tick = twin.next_tick().unwrap();
        for s in &tick.samples {
            a.write_sample(s).unwrap();
            b.write_sample(s).unwrap();
        }
        for m in &tick.marks {
            a.write_mark(m).unwrap();
            b.write_mark(m).unwrap();
        }
    }
    a.finish().unwrap();
    b.finish().unwrap();
    std::fs::rename(tmp(&plain), &plain).unwrap();
    // The .zst form is renamed last: both exist only when both are complete.
    std::fs::rename(tmp(&zst), &zst).unwrap();
    println!(
        "generated the 24 h twin day in {:.0} s",
        start.elapsed().as_secs_f64()
    );
    (plain, zst)
}

/// The parser alone on every sample line of the plain day (no reader, no engine): whole
/// lines through the hand parser the reader uses (`sample::lineparse`), changes lines merged
/// into their slot's previous sample (`sample::changes`), as the reader does.
fn parse_only(plain: &Path) {
    use dgscope::sample::changes::Chains;
    use std::io::BufRead;
    let mut best = Duration::MAX;
    let mut cpu_best = f64::MAX;
    for _ in 0..2 {
        let cpu0 = cpu_s(libc::CLOCK_THREAD_CPUTIME_ID);
        let start = Instant::now();
        let mut r = std::io::BufReader::with_capacity(1 << 20, std::fs::File::open(plain).unwrap());
        let mut line = Vec::new();
        r.read_until(b'\n', &mut line).unwrap(); // the header
        let version = if line.windows(11).any(|w| w == b"\"version\":2") {
            2
        } else {
            1
        };
        let mut chains = Chains::new(version);
        let mut n = 0usize;
        loop {
            line.clear();
            if r.read_until(b'\n', &mut line).unwrap() == 0 {
                break;
            }
            if memchr_kind(&line) {
                continue;
            }
            if let dgscope::sample::recording::Entry::Sample(s) = chains.entry(&line).unwrap() {
                n += s.events.len();
            }
        }
        assert!(n > 0);
        best = best.min(start.elapsed());
        cpu_best = cpu_best.min(cpu_s(libc::CLOCK_THREAD_CPUTIME_ID) - cpu0);
    }
    println!(
        "plain: sample lines to samples, no engine: {:.3} s ({cpu_best:.3} s CPU, best of 2)",
        best.as_secs_f64()
    );
}

fn memchr_kind(line: &[u8]) -> bool {
    memchr::memmem::find(line, b"\"kind\":\"mark\"").is_some()
}

fn main() {
    let (plain, zst) = day();
    // `RECORDING_LOAD_ONLY=plain|zst` runs only the two-thread full pass of that form, five
    // times, for a profiler (`perf record`) to see that pass alone.
    if let Ok(only) = std::env::var("RECORDING_LOAD_ONLY") {
        let path = if only == "zst" { &zst } else { &plain };
        for _ in 0..5 {
            let start = Instant::now();
            let mut engine = Engine::default();
            for entry in
                dgscope::sample::ahead::recording_ahead(RecordingReader::open(path).unwrap())
            {
                engine.push(entry.unwrap());
            }
            assert!(engine.slot(&Slot::primary()).is_some());
            println!("{only}: {:.3} s", start.elapsed().as_secs_f64());
        }
        return;
    }
    let size = |p: &Path| std::fs::metadata(p).unwrap().len() as f64 / 1e6;
    println!(
        "on disk, 24 h of primary + standby at 1 s: {:.0} MB plain, {:.1} MB .zst ({:.1} MB/h, {:.2} MB/h)",
        size(&plain),
        size(&zst),
        size(&plain) / 24.0,
        size(&zst) / 24.0
    );
    parse_only(&plain);
    let before = rss_mb("VmRSS:");
    let mut after: f64 = 0.0;
    for (name, path) in [("plain", &plain), (".zst", &zst)] {
        // 1. Open as replay and the screen do: index, parse the tail the engine keeps
        //    (15 min raw, 1 h of points), compute the 1 m window at the end.
        let mut best = Duration::MAX;
        for _ in 0..3 {
            let start = Instant::now();
            let index = RecordingIndex::build(path).unwrap();
            let engine = load_tail(&index, EngineConfig::default()).unwrap();
            let d = engine
                .slot(&Slot::primary())
                .unwrap()
                .window(Window::Last(Duration::from_secs(60)))
                .unwrap();
            best = best.min(start.elapsed());
            assert_eq!(d.secs, 60.0);
            assert!(d.tps().unwrap() > 1000.0);
            // The slow parts read before the tail reach it.
            assert!(engine
                .slot(&Slot::primary())
                .unwrap()
                .last_good()
                .unwrap()
                .logs
                .is_some());
            after = after.max(rss_mb("VmRSS:"));
        }
        println!(
            "{name}: indexed load (index + tail + 1m window) {:.3} s (best of 3)",
            best.as_secs_f64()
        );
        // 2. Every entry parsed and pushed through the engine, on one thread.
        let mut best = Duration::MAX;
        let mut cpu_best = f64::MAX;
        for _ in 0..2 {
            let cpu0 = cpu_s(libc::CLOCK_THREAD_CPUTIME_ID);
            let start = Instant::now();
            let mut engine = Engine::default();
            let mut n = 0usize;
            for entry in RecordingReader::open(path).unwrap() {
                engine.push(entry.unwrap());
                n += 1;
            }
            let d = engine
                .slot(&Slot::primary())
                .unwrap()
                .window(Window::Last(Duration::from_secs(60)))
                .unwrap();
            best = best.min(start.elapsed());
            cpu_best = cpu_best.min(cpu_s(libc::CLOCK_THREAD_CPUTIME_ID) - cpu0);
            assert!(n >= 2 * SECONDS);
            assert_eq!(d.secs, 60.0);
            after = after.max(rss_mb("VmRSS:"));
        }
        println!(
            "{name}: full pass through the engine {:.3} s (best of 2, one thread; {cpu_best:.3} s CPU)",
            best.as_secs_f64()
        );
        // 3. The same with a reading thread that parses where there is time (`report`,
        //    `check --replay`, `recording info`). On a busy machine the wall time says little;
        //    the CPU time of the busier thread is what an idle pair of cores would take.
        let mut best = Duration::MAX;
        let (mut here_best, mut there_best) = (f64::MAX, f64::MAX);
        for _ in 0..2 {
            let (here0, all0) = (
                cpu_s(libc::CLOCK_THREAD_CPUTIME_ID),
                cpu_s(libc::CLOCK_PROCESS_CPUTIME_ID),
            );
            let start = Instant::now();
            let mut engine = Engine::default();
            let reader = RecordingReader::open(path).unwrap();
            for entry in dgscope::sample::ahead::recording_ahead(reader) {
                engine.push(entry.unwrap());
            }
            assert!(engine.slot(&Slot::primary()).is_some());
            let wall = start.elapsed();
            let here = cpu_s(libc::CLOCK_THREAD_CPUTIME_ID) - here0;
            let there = cpu_s(libc::CLOCK_PROCESS_CPUTIME_ID) - all0 - here;
            if wall < best {
                (best, here_best, there_best) = (wall, here, there);
            }
            after = after.max(rss_mb("VmRSS:"));
        }
        println!(
            "{name}: full pass through the engine {:.3} s (best of 2, reading thread + engine thread; CPU {here_best:.3} s engine thread, {there_best:.3} s reading thread)",
            best.as_secs_f64()
        );
    }
    println!(
        "RSS before {before:.1} MB, max after a load {after:.1} MB, peak (VmHWM) {:.1} MB",
        rss_mb("VmHWM:")
    );
}
