//! Shared by the CLI tests: recordings written by hand through plain JSON, as a user or a
//! vendor would, independent of dgscope's own writer.

use serde_json::{json, Value};

/// What the pair does during one second.
#[derive(Debug, Clone, Copy)]
pub struct Second {
    pub remote_ms: f64,
    pub rfs_ms: f64,
    pub standby_down: bool,
}

/// A 1 s recording of a SYNC primary/standby pair with fixed averages.
pub fn recording(
    secs: u64,
    remote_ms: f64,
    rfs_ms: f64,
    standby_down_after: Option<u64>,
) -> tempfile::NamedTempFile {
    recording_with(
        secs,
        |i| Second {
            remote_ms,
            rfs_ms,
            standby_down: standby_down_after.is_some_and(|d| i >= d),
        },
        &[],
    )
}

fn bucket(ms: f64) -> u64 {
    ((ms * 1000.0) as u64).next_power_of_two()
}

/// Cumulative wait counters of one event, histogram by bucket bound.
#[derive(Default)]
struct Ev {
    waits: f64,
    us: f64,
    hist: std::collections::BTreeMap<u64, f64>,
}

impl Ev {
    fn add(&mut self, waits: f64, ms: f64) {
        self.waits += waits;
        self.us += waits * ms * 1000.0;
        *self.hist.entry(bucket(ms)).or_default() += waits;
    }
    fn json(&self) -> Value {
        let hist: Vec<Value> = self
            .hist
            .iter()
            .map(|(b, c)| json!([b, *c as u64]))
            .collect();
        json!({"waits": self.waits as u64, "us": self.us as u64, "hist": hist})
    }
}

/// A 1 s recording whose behaviour per second comes from `at`, with marks `(second, text)`.
pub fn recording_with(
    secs: u64,
    at: impl Fn(u64) -> Second,
    marks: &[(u64, &str)],
) -> tempfile::NamedTempFile {
    crate::common::temp_file_written(|f| {
        writeln!(
            f,
            "{}",
            json!({"format":"dgscope-recording","version":1,"interval_ms":1000,"source":"test pair"})
        )
        .unwrap();
        let (tps, writes, lfpw) = (7000.0, 2000.0, 0.55);
        let (mut lfs, mut lw, mut rw, mut rfs) =
            (Ev::default(), Ev::default(), Ev::default(), Ev::default());
        for i in 0..secs {
            let s = at(i);
            let n = (i + 100) as f64;
            lfs.add(tps, s.remote_ms.max(lfpw) + 0.5);
            lw.add(writes, lfpw);
            rw.add(writes, s.remote_ms);
            rfs.add(writes, s.rfs_ms);
            let t = format!("2026-11-30T05:{:02}:{:02}.000Z", i / 60, i % 60);
            let primary = json!({
                "t": t, "slot": "primary",
                "db": {"name":"prod_a","role":"PRIMARY","open_mode":"READ WRITE","protection_mode":"MAXIMUM AVAILABILITY","version":"19.21.0.0.0","startup":"2026-11-20T00:00:00Z"},
                "events": {
                    "log file sync": lfs.json(),
                    "log file parallel write": lw.json(),
                    "SYNC Remote Write": rw.json(),
                },
                "stats": {"user commits": (n * tps) as u64, "redo size": (n * 25.0 * 1048576.0) as u64, "redo writes": (n * writes) as u64},
                "os": {"BUSY_TIME": (n * 40.0) as u64, "IDLE_TIME": (n * 60.0) as u64, "NUM_CPUS": 16, "LOAD": 3.0},
                "dests": [{"id":2,"name":"prod_b","status":"VALID","mode":"SYNC","affirm":true,"gap":"NO GAP","error":null}],
            });
            writeln!(f, "{primary}").unwrap();
            let standby = if s.standby_down {
                json!({"t": t, "slot": "standby", "error": {"kind":"connection_lost","message":"ORA-03113: end-of-file on communication channel"}})
            } else {
                json!({
                    "t": t, "slot": "standby",
                    "db": {"name":"prod_b","role":"PHYSICAL STANDBY","open_mode":"MOUNTED","version":"19.21.0.0.0","startup":"2026-11-21T00:00:00Z"},
                    "events": {"RFS random i/o": rfs.json()},
                    "dg": {"transport_lag_s": 0, "apply_lag_s": 1, "computed": t, "datum": t},
                })
            };
            writeln!(f, "{standby}").unwrap();
            for (_, text) in marks.iter().filter(|m| m.0 == i) {
                writeln!(f, "{}", json!({"t": t, "kind": "mark", "text": text})).unwrap();
            }
        }
    })
}
