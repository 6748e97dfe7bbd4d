//! Issue 2's target: load a 24-hour recording of two slots at 1 s (172,800 samples) and compute
//! a 1 m window at its end in < 1 s and < 200 MB resident.
//!
//! `cargo bench --bench recording_load` prints the figures. The recording is synthesised first
//! (primary and standby samples shaped like the twin's: events with µs histograms, sysstat,
//! osstat, iostat, dests, dg lags), written with the product's own writer.

use dgscope::metrics::{load_tail, Engine, EngineConfig, Window};
use dgscope::sample::index::RecordingIndex;
use dgscope::sample::names::{event, filetype, os, stat};
use dgscope::sample::recording::{Header, RecordingReader, RecordingWriter};
use dgscope::sample::{
    Bucket, DbInfo, Dest, DestStatus, DgStats, Event, IoStat, OpenMode, Recovery, Role, Sample,
    Slot, TransmitMode,
};
use dgscope::timestamp::Timestamp;
use dgscope::units::{Micros, Secs};
use std::io::BufWriter;
use std::time::{Duration, Instant};

const SECONDS: i64 = 24 * 3600;

fn event_at(i: u64, per_s: u64, mean_us: u64, buckets: usize) -> Event {
    let waits = i * per_s;
    // Spread the waits over `buckets` power-of-two µs buckets around the mean.
    let mut hist = Vec::new();
    let mut left = waits;
    for b in 0..buckets {
        let share = if b + 1 == buckets { left } else { left / 2 };
        left -= share;
        if share > 0 {
            hist.push(Bucket(Micros(256 << b), share));
        }
    }
    Event {
        waits,
        us: Micros(waits * mean_us),
        hist,
        ..Default::default()
    }
}

fn sample(i: i64, slot: Slot) -> Sample {
    let t = Timestamp::parse("2026-11-30T00:00:00Z")
        .unwrap()
        .add_millis(i * 1000);
    let mut s = Sample::new(t, slot.clone());
    let n = i as u64;
    s.query_us = Some(Micros(1800));
    let primary = slot == Slot::primary();
    s.db = Some(DbInfo {
        name: Some(if primary { "prod_a" } else { "prod_b" }.into()),
        role: Some(if primary {
            Role::Primary
        } else {
            Role::PhysicalStandby
        }),
        open_mode: Some(if primary {
            OpenMode::ReadWrite
        } else {
            OpenMode::Mounted
        }),
        protection_mode: Some("MAXIMUM AVAILABILITY".into()),
        protection_level: Some("MAXIMUM AVAILABILITY".into()),
        version: Some("19.21.0.0.0".into()),
        startup: Some(Timestamp::parse("2026-11-20T01:02:03Z").unwrap()),
        host: Some("dbhost1".into()),
        instances: Some(1),
    });
    s.os.insert(os::BUSY_TIME.into(), (n * 250) as f64);
    s.os.insert(os::IDLE_TIME.into(), (n * 550) as f64);
    s.os.insert(os::NUM_CPUS.into(), 8.0);
    s.os.insert(os::LOAD.into(), 2.5);
    for (ft, w) in [(filetype::LOG_FILE, 2360), (filetype::DATA_FILE, 410)] {
        s.iostat.insert(
            ft.into(),
            IoStat {
                rreq: n * 12,
                wreq: n * w,
                rmb: n / 10,
                wmb: n * 25,
                rms: n * 10,
                wms: n * w * 6 / 10,
            },
        );
    }
    if primary {
        s.events
            .insert(event::LOG_FILE_SYNC.into(), event_at(n, 7800, 1600, 10));
        s.events.insert(
            event::LOG_FILE_PARALLEL_WRITE.into(),
            event_at(n, 2360, 570, 8),
        );
        s.events
            .insert(event::SYNC_REMOTE_WRITE.into(), event_at(n, 2360, 1450, 8));
        for (name, per_s) in [
            (stat::USER_COMMITS, 7800),
            (stat::REDO_SIZE, 26_214_400),
            (stat::REDO_WRITES, 2360),
            (stat::REDO_SYNCH_WRITES, 7800),
            (stat::REDO_SYNCH_TIME_US, 12_480_000),
            (stat::REDO_SYNCH_POLL_WRITES, 0),
            (stat::REDO_BLOCKS_WRITTEN, 51_200),
        ] {
            s.stats.insert(name.into(), n * per_s);
        }
        s.dests.push(Dest {
            id: 2,
            name: Some("prod_b".into()),
            status: DestStatus::Valid,
            mode: TransmitMode::Sync,
            affirm: true,
            compression: Some("DISABLE".into()),
            net_timeout_s: Some(30),
            gap: Some("NO GAP".into()),
            error: None,
            archived_seq: Some(812),
            applied_seq: Some(811),
            resp_hist: vec![(1, n * 2360)],
            ..Default::default()
        });
    } else {
        s.events
            .insert(event::RFS_RANDOM_IO.into(), event_at(n, 2360, 890, 8));
        s.events.insert(
            event::CHECKPOINT_COMPLETED.into(),
            event_at(n / 60, 1, 900_000, 4),
        );
        s.dg = Some(DgStats {
            transport_lag_s: Some(Secs(0.0)),
            apply_lag_s: Some(Secs(1.0)),
            apply_finish_s: Some(Secs(0.5)),
            computed: Some(t),
            datum: Some(t.add_millis(-1000)),
            ..Default::default()
        });
        s.recovery = Some(Recovery {
            active_apply_kbps: Some(31_948.0),
            average_apply_kbps: Some(30_100.0),
            ..Recovery::default()
        });
    }
    s
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

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("day.jsonl");
    {
        let file = BufWriter::new(std::fs::File::create(&path).unwrap());
        let mut w =
            RecordingWriter::new(file, &Header::new(Timestamp::from_millis(0), 1000, "bench"))
                .unwrap();
        for i in 0..SECONDS {
            w.write_sample(&sample(i, Slot::primary())).unwrap();
            w.write_sample(&sample(i, Slot::standby())).unwrap();
        }
    }
    let size_mb = std::fs::metadata(&path).unwrap().len() as f64 / 1048576.0;
    let before = rss_mb("VmRSS:");

    // 1. Open the file as replay and the TUI do: index every line, parse the tail the engine
    //    keeps (15 min raw, 1 h of points), compute the 1 m window at the end.
    let mut best = Duration::MAX;
    let mut after: f64 = 0.0;
    for _ in 0..5 {
        let start = Instant::now();
        let index = RecordingIndex::build(&path).unwrap();
        let engine = load_tail(&index, EngineConfig::default()).unwrap();
        let d = engine
            .slot(&Slot::primary())
            .unwrap()
            .window(Window::Last(Duration::from_secs(60)))
            .unwrap();
        best = best.min(start.elapsed());
        assert_eq!(index.lines().len() as i64, 2 * SECONDS);
        assert!((d.tps().unwrap() - 7800.0).abs() < 1e-6);
        assert_eq!(d.secs, 60.0);
        after = after.max(rss_mb("VmRSS:"));
    }
    println!(
        "indexed load: {} samples ({size_mb:.0} MB file) indexed + tail parsed + 1m window in {:.3} s (best of 5); RSS before {before:.1} MB, after {after:.1} MB",
        2 * SECONDS,
        best.as_secs_f64(),
    );

    // 2. Every sample parsed and pushed through the engine (what `report` does in one pass).
    let mut best = Duration::MAX;
    for _ in 0..3 {
        let start = Instant::now();
        let reader = RecordingReader::open(&path).unwrap();
        let mut engine = Engine::default();
        let mut n = 0usize;
        for entry in reader {
            engine.push(entry.unwrap());
            n += 1;
        }
        let d = engine
            .slot(&Slot::primary())
            .unwrap()
            .window(Window::Last(Duration::from_secs(60)))
            .unwrap();
        let elapsed = start.elapsed();
        assert_eq!(n as i64, 2 * SECONDS);
        assert!((d.tps().unwrap() - 7800.0).abs() < 1e-6);
        best = best.min(elapsed);
        after = after.max(rss_mb("VmRSS:"));
    }
    println!(
        "full pass: every sample parsed and pushed through the engine in {:.3} s (best of 3); RSS after {after:.1} MB; peak (VmHWM, includes writing the file) {:.1} MB",
        best.as_secs_f64(),
        rss_mb("VmHWM:")
    );
}
