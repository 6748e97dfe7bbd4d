//! `check` cost against its length and its number of standbys: wall time, CPU time and peak
//! resident memory of `check --twin healthy-sync` (the same pipeline: twin → driver → causes,
//! twin what-ifs at the end) for 1 h and 24 h of virtual time, the twin alone for the same
//! time (what the pipeline adds is the difference), and a check of a pair with 10,000
//! standby slots; and `check --replay` of a 1 h and a 4 h twin recording, judged whole (a
//! sliding hour assessed every second: its time per hour must not grow with the file), and a
//! 24 h recording judged the way `check --replay` judges it, stage by stage (`day-read`:
//! reading and parsing; `day-metrics`: + the metrics engine; `day-check`: + the causes at
//! every instant, target < 2 s), and the real binary's `report impact` and `check --replay`
//! over the same day side by side (`day-report-cli`, `day-check-cli`: target check < 1.5×
//! the report). Run with `cargo bench --bench check` (or `-- day` for the
//! cases whose name holds `day`); prints measured figures, asserts none. The first run writes the recordings
//! into `target/bench-cache/` (the day takes about a minute and a half).
//!
//! Peak memory is per process: each case runs in a child process (this binary again, with
//! `DGSCOPE_BENCH_CASE` set) and reports its own `VmHWM` from `/proc/self/status`.

use dgscope::causes::Thresholds;
use dgscope::pipeline::TwinWhatIf;
use dgscope::pipeline::{pull_entries, run_check, with_entries_ahead};
use dgscope::sample::recording::Entry;
use dgscope::sample::Slot;
use dgscope::source::twin::{Scenario, Twin};
use dgscope::source::PullSource;
use std::convert::Infallible;
use std::process::Command;
use std::time::{Duration, Instant};

// The binary's allocator, so the figures are the product's.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

const CASE_ENV: &str = "DGSCOPE_BENCH_CASE";

fn status_kb(key: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// User + system CPU seconds of this process (Linux `/proc/self/stat`).
fn cpu_secs() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// `check --twin healthy-sync --duration SECS` through the library, as the command runs it
/// (the twin reading ahead on its own thread).
fn twin_check(secs: u64) -> String {
    let d = Duration::from_secs(secs);
    let mut twin = Twin::new(Scenario::HealthySync, 1);
    let r = with_entries_ahead(&mut twin, d, |entries| {
        run_check(
            entries,
            Some(d),
            Thresholds::default(),
            Some(&TwinWhatIf::default()),
        )
    })
    .unwrap_or_else(|e: Infallible| match e {});
    format!(
        "{} samples, {} findings raised/cleared, status {:?}",
        r.samples,
        r.transitions.len(),
        r.worst
    )
}

/// The twin alone for the same virtual time: what the pipeline's share is measured against.
fn twin_only(secs: u64) -> String {
    let mut twin = Twin::new(Scenario::HealthySync, 1);
    let n: usize = pull_entries(&mut twin, Duration::from_secs(secs)).count();
    format!("{n} samples")
}

/// A pair with `standbys` standby slots for `secs` seconds: each tick's standby sample is
/// given to every slot (as a recording of that many standbys would carry them).
fn many_standbys(standbys: usize, secs: u64) -> String {
    let d = Duration::from_secs(secs);
    let mut twin = Twin::new(Scenario::HealthySync, 1);
    let names: Vec<Slot> = (0..standbys)
        .map(|i| Slot::named_standby(&format!("sb{i:05}")))
        .collect();
    let mut ticks = 0u64;
    let entries = std::iter::from_fn(|| {
        if ticks >= secs {
            return None;
        }
        ticks += 1;
        twin.next_tick()
    })
    .flat_map(|tick| {
        let mut out = Vec::with_capacity(names.len() + 1);
        for s in tick.samples {
            if s.slot == Slot::primary() {
                out.push(s);
            } else {
                for name in &names {
                    let mut c = s.clone();
                    c.slot = name.clone();
                    out.push(c);
                }
            }
        }
        out.into_iter()
            .map(|s| Ok::<_, Infallible>(Entry::Sample(Box::new(s))))
    });
    let r = run_check(entries, Some(d), Thresholds::default(), None)
        .unwrap_or_else(|e: Infallible| match e {});
    format!("{} samples, status {:?}", r.samples, r.worst)
}

/// A `secs`-long twin recording (healthy-sync, seed 1, primary and standby at 1 s), written
/// once into target/bench-cache by the product's writer.
fn twin_recording(secs: u64) -> std::path::PathBuf {
    use dgscope::sample::recording::{Header, RecordingWriter};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-cache");
    std::fs::create_dir_all(&dir).expect("bench cache");
    let path = dir.join(format!("check-replay-{secs}s.jsonl"));
    if !path.exists() {
        let tmp = path.with_extension("tmp");
        let header = Header::new(
            dgscope::source::twin::EPOCH,
            1000,
            "twin:healthy-sync seed=1",
        );
        let file = std::io::BufWriter::new(std::fs::File::create(&tmp).expect("cache file"));
        let mut w = RecordingWriter::new(file, &header).expect("header");
        let mut twin = Twin::new(Scenario::HealthySync, 1);
        for _ in 0..secs {
            for s in &twin.next_tick().expect("the twin never ends").samples {
                w.write_sample(s).expect("write");
            }
        }
        w.finish().expect("flush");
        std::fs::rename(&tmp, &path).expect("rename");
    }
    path
}

/// `check --replay` of a `secs`-long twin recording, judged whole: no `--duration`, so the
/// last hour slides.
fn replay_check(secs: u64) -> String {
    use dgscope::sample::recording::RecordingReader;
    let path = twin_recording(secs);
    let cpu0 = cpu_secs();
    let reader = RecordingReader::open(&path).expect("open");
    let r = run_check(
        reader,
        None,
        Thresholds::default(),
        Some(&TwinWhatIf::default()),
    )
    .expect("a readable recording");
    let cpu = cpu0.zip(cpu_secs()).map_or(f64::NAN, |(a, b)| b - a);
    format!(
        "{} samples, status {:?}, {:.2} s CPU per recorded hour",
        r.samples,
        r.worst,
        cpu / (secs as f64 / 3600.0)
    )
}

/// Issue 29's day, stage by stage: each stage runs in a process of its own and adds one
/// layer to the one before, as `check --replay` runs them (the reading thread parsing every
/// line, the engine and the causes on this one). What a stage costs is its difference from
/// the one before.
fn day_stage(stage: &str) -> String {
    use dgscope::sample::ahead::recording_ahead_judged;
    use dgscope::sample::recording::RecordingReader;
    let path = twin_recording(24 * 3600);
    let reader = || recording_ahead_judged(RecordingReader::open(&path).expect("open"));
    match stage {
        "read" => {
            let mut n = 0;
            for e in reader() {
                e.expect("a readable recording");
                n += 1;
            }
            format!("{n} entries read and parsed")
        }
        "metrics" => {
            let mut engine = dgscope::metrics::Engine::default();
            for e in reader() {
                engine.push(e.expect("a readable recording"));
            }
            format!(
                "{} slots through the metrics engine",
                engine.slots().count()
            )
        }
        _ => {
            let mut entries = reader();
            let r = run_check(
                entries.by_ref(),
                None,
                Thresholds::default(),
                Some(&TwinWhatIf::default()),
            )
            .expect("a readable recording");
            format!(
                "{} samples judged at every instant, status {:?}; target < 2 s",
                r.samples, r.worst
            )
        }
    }
}

/// The day's file through the real binary, as a user runs it (`report impact` over its two
/// halves, or `check --replay`): issue 43 asks the check to cost < 1.5× the report pass; the
/// two `-cli` cases print their wall times side by side.
fn day_cli(args: &[&str]) -> String {
    let path = twin_recording(24 * 3600);
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_dgscope"))
        .args(args)
        .arg(&path)
        .env_remove("DGSCOPE_CONFIG")
        .env("XDG_CONFIG_HOME", "/nonexistent")
        .output()
        .expect("run dgscope");
    format!(
        "`dgscope {} FILE` exited {:?} after {:.2} s in its own process",
        args.join(" "),
        out.status.code(),
        started.elapsed().as_secs_f64()
    )
}

fn child(case: &str) {
    let cpu0 = cpu_secs();
    let start = Instant::now();
    let what = match case {
        "check-1h" => twin_check(3600),
        "check-24h" => twin_check(24 * 3600),
        "twin-1h" => twin_only(3600),
        "twin-24h" => twin_only(24 * 3600),
        "standbys-10000-60s" => many_standbys(10_000, 60),
        "standbys-30-20m" => many_standbys(30, 1200),
        "replay-1h" => replay_check(3600),
        "replay-4h" => replay_check(4 * 3600),
        "day-read" => day_stage("read"),
        "day-metrics" => day_stage("metrics"),
        "day-check" => day_stage("check"),
        "day-report-cli" => day_cli(&[
            "report",
            "impact",
            "--baseline",
            "0s..12h",
            "--compare",
            "12h..24h",
        ]),
        "day-check-cli" => day_cli(&["check", "--replay"]),
        other => panic!("unknown case {other}"),
    };
    let wall = start.elapsed().as_secs_f64();
    let cpu = cpu0.zip(cpu_secs()).map_or(f64::NAN, |(a, b)| b - a);
    let hwm = status_kb("VmHWM:").unwrap_or(0) as f64 / 1024.0;
    println!("{case}: {wall:.2} s wall, {cpu:.2} s CPU, peak RSS {hwm:.0} MB ({what})");
}

fn main() {
    if let Ok(case) = std::env::var(CASE_ENV) {
        child(&case);
        return;
    }
    // `cargo bench --bench check -- day` runs every case whose name holds "day".
    let only = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let cases: Vec<&str> = [
        "twin-1h",
        "check-1h",
        "twin-24h",
        "check-24h",
        "standbys-10000-60s",
        "standbys-30-20m",
        "replay-1h",
        "replay-4h",
        "day-read",
        "day-metrics",
        "day-check",
        "day-report-cli",
        "day-check-cli",
    ]
    .into_iter()
    .filter(|c| only.as_deref().is_none_or(|o| c.contains(o)))
    .collect();
    let exe = std::env::current_exe().expect("own path");
    for case in cases {
        let out = Command::new(&exe)
            .env(CASE_ENV, case)
            .output()
            .expect("run a case");
        print!("{}", String::from_utf8_lossy(&out.stdout));
        if !out.status.success() {
            eprintln!("{case} failed: {}", String::from_utf8_lossy(&out.stderr));
        }
    }
}
