//! How long an on-call DBA looks at a blank screen: `dgscope demo`, and `dgscope replay` of a
//! 24-hour recording (plain and `.zst`, from its start and `--from end`), in a pseudo-terminal
//! (120×40), from spawn to the
//! first frame and to the first frame with data (the commit pane's `log file sync` row with a
//! figure, and the causes judged). Five runs each; prints the median and the worst against
//! the target (first frame with data < 200 ms).
//!
//! `cargo bench --bench first_frame`. The day is the one `cargo bench --bench check` writes
//! (`target/bench-cache/check-replay-86400s.jsonl`), compressed here once with `dgscope
//! recording compact`; without it, replay is skipped with a line saying how to make it.

// The PTY tests' child-on-a-terminal, shared rather than written twice.
#[path = "../tests/it/common/pty_process.rs"]
#[allow(dead_code)]
mod pty_process;

use pty_process::PtyProcess;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const RUNS: usize = 5;

/// Whether the screen shows figures: a `log file sync` row with a number, and the causes
/// pane past warming up.
fn has_data(screen: &vt100::Screen) -> bool {
    let text = screen.contents();
    let figure = text.lines().any(|l| {
        l.split_once("log file sync")
            .is_some_and(|(_, rest)| rest.trim_start().starts_with(|c: char| c.is_ascii_digit()))
    });
    figure && !text.contains("warming up")
}

fn one(args: &[&str]) -> (f64, f64) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_dgscope"));
    cmd.args(args).env("TERM", "xterm-256color");
    let start = Instant::now();
    let mut s = PtyProcess::spawn(cmd, 120, 40).expect("spawn dgscope in a pty");
    let mut parser = vt100::Parser::new(40, 120, 0);
    let mut first = None;
    let mut buf = [0u8; 65536];
    loop {
        if let Ok(n) = s.try_read(&mut buf) {
            if n > 0 {
                parser.process(&buf[..n]);
                if first.is_none() && parser.screen().alternate_screen() {
                    first = Some(start.elapsed());
                }
                if has_data(parser.screen()) {
                    break;
                }
            }
        }
        assert!(start.elapsed() < Duration::from_secs(30), "no data in 30 s");
        std::thread::sleep(Duration::from_micros(500));
    }
    let data = start.elapsed();
    let _ = s.send("q");
    let _ = s.wait();
    (
        first.unwrap_or(data).as_secs_f64() * 1e3,
        data.as_secs_f64() * 1e3,
    )
}

/// Five runs of `args`, one line of figures.
fn measure(what: &str, args: &[&str]) {
    let mut firsts = Vec::new();
    let mut datas = Vec::new();
    for _ in 0..RUNS {
        let (f, d) = one(args);
        firsts.push(f);
        datas.push(d);
    }
    firsts.sort_by(f64::total_cmp);
    datas.sort_by(f64::total_cmp);
    println!(
        "{what}, 120x40: first frame median {:.0} ms (worst {:.0}); first frame with data median {:.0} ms (worst {:.0}), target < 200 ms; {RUNS} runs",
        firsts[RUNS / 2],
        firsts[RUNS - 1],
        datas[RUNS / 2],
        datas[RUNS - 1],
    );
}

fn main() {
    measure("demo", &["demo"]);
    let cache = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-cache");
    let plain = cache.join("check-replay-86400s.jsonl");
    if !plain.exists() {
        println!(
            "replay of a day: skipped, {} is missing (cargo bench --bench check -- day writes it)",
            plain.display()
        );
        return;
    }
    let zst = cache.join("check-replay-86400s.jsonl.zst");
    if !zst.exists() {
        let ok = Command::new(env!("CARGO_BIN_EXE_dgscope"))
            .args(["recording", "compact"])
            .arg(&plain)
            .arg("-o")
            .arg(&zst)
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "dgscope recording compact {}", plain.display());
    }
    let (plain, zst) = (plain.to_str().unwrap(), zst.to_str().unwrap());
    measure("replay of a 24 h recording, plain", &["replay", plain]);
    measure("replay of a 24 h recording, .zst", &["replay", zst]);
    // The last window first: the index finds it, the quarter hour before is loaded at once.
    measure(
        "replay --from end of a 24 h recording, plain",
        &["replay", plain, "--from", "end"],
    );
    measure(
        "replay --from end of a 24 h recording, .zst",
        &["replay", zst, "--from", "end"],
    );
}
