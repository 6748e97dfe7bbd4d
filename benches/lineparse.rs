//! The line parser alone, on lines held in memory: serde_json against `sample::lineparse` on
//! 20,000 whole sample lines (10,000 s of the twin's `healthy-sync`, seed 1), and the reader's
//! chains (`sample::changes`, which merge each changes line into its slot's previous sample
//! and hand out a copy) on the first 20,000 sample lines of the cached twin day, when
//! `cargo bench --bench recording_load` has written it. Timed in thread CPU time, so a busy
//! machine changes the figures less.

use dgscope::sample::Sample;
use std::path::Path;

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn cpu_s() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec we own.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 / 1e9
}

fn main() {
    use dgscope::source::PullSource;
    let mut twin =
        dgscope::source::twin::Twin::new(dgscope::source::twin::Scenario::HealthySync, 1);
    let mut whole = Vec::new();
    while whole.len() < 20_000 {
        for s in twin.next_tick().unwrap().samples {
            whole.push(serde_json::to_vec(&s).unwrap());
        }
    }
    let lines: Vec<&[u8]> = whole.iter().map(Vec::as_slice).collect();
    let bytes: usize = lines.iter().map(|l| l.len()).sum();
    for (name, f) in [
        (
            "serde_json",
            (|l: &[u8]| serde_json::from_slice::<Sample>(l).unwrap()) as fn(&[u8]) -> Sample,
        ),
        ("lineparse", |l: &[u8]| {
            dgscope::sample::lineparse::parse(l).unwrap()
        }),
    ] {
        // `cargo bench --bench lineparse -- lineparse` runs one (for a profiler).
        if !wanted(name) {
            continue;
        }
        let best = best_of_5(|| {
            let mut n = 0usize;
            for l in &lines {
                n += f(l).events.len();
            }
            assert!(n > 0);
        });
        println!(
            "{name}: whole lines {:.2} µs per line, {:.0} MB/s ({} lines of {:.0} B on average, best of 5, CPU time)",
            best * 1e6 / lines.len() as f64,
            bytes as f64 / best / 1e6,
            lines.len(),
            bytes as f64 / lines.len() as f64
        );
    }
    if !wanted("chains") {
        return;
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-cache/twin-day-v3.jsonl");
    let Ok(text) = std::fs::read(&path) else {
        println!(
            "chains: no {} yet: run `cargo bench --bench recording_load` first",
            path.display()
        );
        return;
    };
    let lines: Vec<&[u8]> = text
        .split(|&b| b == b'\n')
        .skip(1)
        .filter(|l| !l.is_empty() && memchr::memmem::find(l, b"\"kind\"").is_none())
        .take(20_000)
        .collect();
    let bytes: usize = lines.iter().map(|l| l.len()).sum();
    let best = best_of_5(|| {
        let mut chains = dgscope::sample::changes::Chains::new(2);
        let mut n = 0usize;
        for l in &lines {
            if let dgscope::sample::recording::Entry::Sample(s) = chains.entry(l).unwrap() {
                n += s.events.len();
            }
        }
        assert!(n > 0);
    });
    println!(
        "chains: recording version 2 lines {:.2} µs per line ({} lines of {:.0} B on average, most of them changes lines; best of 5, CPU time)",
        best * 1e6 / lines.len() as f64,
        lines.len(),
        bytes as f64 / lines.len() as f64
    );
}

/// Whether the command line asks for `name` (no name: all).
fn wanted(name: &str) -> bool {
    !std::env::args()
        .skip(1)
        .any(|a| a != "--bench" && a != name)
}

fn best_of_5(mut f: impl FnMut()) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..5 {
        let start = cpu_s();
        f();
        best = best.min(cpu_s() - start);
    }
    best
}
