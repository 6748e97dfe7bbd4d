//! Render cost of the triage screen, and what the running screen costs a terminal and a CPU.
//!
//! `cargo bench --bench render` prints:
//! - full-frame draw time (all widgets + diff) on a TestBackend at 160×48 and 80×24
//!   (target < 1 ms each in release),
//! - the same with 1 000, 10 000 and 100 000 histogram buckets in the commit path: the pane
//!   merges buckets to what it can draw, so the cost must not grow with the square of the
//!   bucket count (compare the three figures),
//! - full-frame draw time of the zoomed commit pane at 80×24 (taller than the view: scrolled)
//!   and 160×48, and the worst of every pane zoomed at five sizes from the smallest screen
//!   to 240×70 (target < 5 ms each),
//! - bytes written per second to a pty by `dgscope replay` at ×1 (1 s samples),
//! - CPU used by an idle `dgscope replay` (recording ended, nothing changing) over 30 s
//!   (target < 2 % of one core).
//!
//! - the fleet board with 200 twin pairs (90 s of data each) at 160×48 and 80×24: full
//!   frame p50/p99 (target p99 < 5 ms at 160×48),
//!
//! Set `DGSCOPE_BENCH_QUICK=1` to skip the two pty measurements (they take about a minute).

// The integration tests' helpers (each of them used there), of which the bench needs a part.
#[path = "../tests/it/common/mod.rs"]
#[allow(dead_code)]
mod common;

use common::screen::{app, Setup};
use dgscope::ui;
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use std::time::{Duration, Instant};

/// Full-frame draws of the fleet board over `n` twin pairs.
fn board_time(n: usize) -> Vec<(u16, u16, f64, f64)> {
    let (b, now) = common::board::board(n, 90);
    [(160u16, 48u16), (80, 24)]
        .into_iter()
        .map(|(w, h)| {
            let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
            let mut times = Vec::with_capacity(500);
            for _ in 0..500 {
                t.clear().unwrap();
                let s = Instant::now();
                t.draw(|f| {
                    let area = f.area();
                    ui::board_draw(f, area, &b, now)
                })
                .unwrap();
                times.push(s.elapsed().as_secs_f64() * 1e3);
            }
            times.sort_by(|a, b| a.total_cmp(b));
            (w, h, times[times.len() / 2], times[times.len() * 99 / 100])
        })
        .collect()
}

/// A redraw after new data: only changed cells reach the terminal (the usual case).
fn redraw_time(w: u16, h: u16) -> f64 {
    let a = app(Setup::default());
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| ui::draw(f, &a)).unwrap();
    let s = Instant::now();
    for _ in 0..500 {
        t.draw(|f| ui::draw(f, &a)).unwrap();
    }
    s.elapsed().as_secs_f64() * 1e3 / 500.0
}

fn draw_time(w: u16, h: u16, secs: usize) -> (f64, f64) {
    let a = app(Setup {
        secs,
        ..Setup::default()
    });
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    for _ in 0..50 {
        t.draw(|f| ui::draw(f, &a)).unwrap();
    }
    let mut times = Vec::with_capacity(500);
    for _ in 0..500 {
        // Force a full repaint each time: the worst case, as after a resize.
        t.clear().unwrap();
        let s = Instant::now();
        t.draw(|f| ui::draw(f, &a)).unwrap();
        times.push(s.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(|a, b| a.total_cmp(b));
    (times[times.len() / 2], times[times.len() * 99 / 100])
}

/// Full-frame draws of pane `pane` (1-5: commit path, throughput, lag, standby I/O,
/// causes) zoomed at `w`×`h`. Where its text is taller than the view, each frame measures
/// the pane's height (a few off-screen draws) before copying the rows in view.
fn zoom_time(pane: u8, w: u16, h: u16, buckets: Option<usize>) -> f64 {
    let mut a = app(Setup {
        buckets,
        ..Setup::default()
    });
    common::screen::act(
        &mut a,
        &[
            dgscope::app::Action::Focus(pane),
            dgscope::app::Action::Enter,
        ],
    );
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| ui::draw(f, &a)).unwrap();
    let n = 100;
    let s = Instant::now();
    for _ in 0..n {
        t.clear().unwrap();
        t.draw(|f| ui::draw(f, &a)).unwrap();
    }
    s.elapsed().as_secs_f64() * 1e3 / n as f64
}

/// Full-frame draws with a histogram of `buckets` buckets in the commit-path window.
fn many_bucket_time(w: u16, h: u16, buckets: usize) -> f64 {
    let a = app(Setup {
        buckets: Some(buckets),
        ..Setup::default()
    });
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| ui::draw(f, &a)).unwrap();
    let n = 20;
    let s = Instant::now();
    for _ in 0..n {
        t.clear().unwrap();
        t.draw(|f| ui::draw(f, &a)).unwrap();
    }
    s.elapsed().as_secs_f64() * 1e3 / n as f64
}

fn clock_ticks(pid: i32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = after.split_whitespace().collect();
    Some(f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?)
}

fn pty_figures() {
    use common::pty::{fixture, Tui};
    let f = fixture("synthetic_slow_srl.jsonl");
    // Bytes per second at 1 s samples, 160×48.
    let mut t = Tui::spawn(&["replay", f.to_str().unwrap()], 160, 48);
    t.wait_text("5 Suggested causes");
    let start_bytes = t.raw.len();
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(20) {
        t.pump();
        std::thread::sleep(Duration::from_millis(50));
    }
    let bytes = t.raw.len() - start_bytes;
    println!(
        "pty output, replay ×1 at 160×48: {:.0} bytes/s over 20 s",
        bytes as f64 / start.elapsed().as_secs_f64()
    );
    t.send("q");
    t.wait_exit();

    // Idle CPU: a replay that has ended redraws nothing.
    let mut t = Tui::spawn(&["replay", f.to_str().unwrap(), "--speed", "64"], 160, 48);
    t.wait_replay_end();
    let pid = t.pid();
    let before = clock_ticks(pid).unwrap_or(0);
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(30) {
        t.pump();
        std::thread::sleep(Duration::from_millis(100));
    }
    let after = clock_ticks(pid).unwrap_or(0);
    // Linux reports clock ticks at 100 per second.
    let cpu = (after - before) as f64 / 100.0 / start.elapsed().as_secs_f64() * 100.0;
    println!("idle CPU, replay ended, 30 s: {cpu:.2} % of one core");
    t.send("q");
    t.wait_exit();
}

fn main() {
    for (w, h, p50, p99) in board_time(200) {
        println!(
            "fleet board, 200 twin pairs, full frame {w}x{h}: p50 {p50:.3} ms, p99 {p99:.3} ms (target p99 < 5 ms at 160x48)"
        );
    }
    if std::env::var_os("DGSCOPE_BENCH_BOARD_ONLY").is_some() {
        return;
    }
    for (w, h, secs) in [(160, 48, 180), (80, 24, 180), (160, 48, 3600)] {
        let (p50, p99) = draw_time(w, h, secs);
        println!(
            "full-frame draw {w}x{h}, {secs} s of history: p50 {p50:.3} ms, p99 {p99:.3} ms (500 frames)"
        );
    }
    println!(
        "redraw with nothing to send, 160x48: {:.3} ms (widgets + diff)",
        redraw_time(160, 48)
    );
    for (w, h) in [(80, 24), (160, 48)] {
        println!(
            "full-frame draw {w}x{h}, commit pane zoomed: {:.3} ms (target < 5 ms)",
            zoom_time(1, w, h, None)
        );
    }
    // Every pane zoomed, from the smallest screen to a large one: the worst of them.
    let mut worst = (0.0, 0, 0, 0);
    for (w, h) in [
        (ui::MIN_WIDTH, ui::MIN_HEIGHT),
        (80, 24),
        (120, 40),
        (160, 48),
        (240, 70),
    ] {
        for pane in 1..=5 {
            let ms = zoom_time(pane, w, h, None);
            if ms > worst.0 {
                worst = (ms, pane, w, h);
            }
        }
    }
    println!(
        "full-frame draw, any pane zoomed at any of 5 sizes: worst {:.3} ms (pane {} at {}x{}; target < 5 ms)",
        worst.0, worst.1, worst.2, worst.3
    );
    println!(
        "full-frame draw 80x24, commit pane zoomed, 100000 histogram buckets: {:.3} ms (target < 5 ms)",
        zoom_time(1, 80, 24, Some(100_000))
    );
    for buckets in [1_000, 10_000, 100_000] {
        println!(
            "full-frame draw 160x48 with {buckets} histogram buckets: {:.3} ms",
            many_bucket_time(160, 48, buckets)
        );
    }
    if std::env::var_os("DGSCOPE_BENCH_QUICK").is_none() {
        pty_figures();
    }
}
