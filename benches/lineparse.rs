//! The line parser alone: serde_json against `sample::lineparse` on the first 20,000 sample
//! lines of the cached twin day (`cargo bench --bench recording_load` writes it), held in
//! memory. Timed in thread CPU time, so a busy machine changes the figures less.

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
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-cache/twin-day-v2.jsonl");
    let Ok(text) = std::fs::read(&path) else {
        println!(
            "no {} yet: run `cargo bench --bench recording_load` first",
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
        if std::env::args()
            .skip(1)
            .any(|a| a != "--bench" && a != name)
        {
            continue;
        }
        let mut best = f64::MAX;
        for _ in 0..5 {
            let start = cpu_s();
            let mut n = 0usize;
            for l in &lines {
                n += f(l).events.len();
            }
            assert!(n > 0);
            best = best.min(cpu_s() - start);
        }
        println!(
            "{name}: {:.2} µs per line, {:.0} MB/s ({} lines of {:.0} B on average, best of 5, CPU time)",
            best * 1e6 / lines.len() as f64,
            bytes as f64 / best / 1e6,
            lines.len(),
            bytes as f64 / lines.len() as f64
        );
    }
}
