//! Transport and apply as fluids, stepped every 100 ms: FIFO byte queues tagged with the time
//! the redo was generated, so lags are "now − generation time of the oldest byte not yet
//! received / applied", as `V$DATAGUARD_STATS` defines them.

use super::hist::EventAcc;
use super::params::{Params, Transport, MB};
use std::collections::VecDeque;

/// Held redo waits this much longer than the hold itself: MRP picks it up on its next pass,
/// so a DELAY of 30 min reads as an apply lag of 1800 s, never 1799.
const HOLD_MARGIN_S: f64 = 0.5;

/// Redo generated at or before `t − this` may be applied (0 without a hold).
fn hold_limit_s(p: &Params) -> f64 {
    let hold = p.apply_hold_s();
    if hold > 0.0 {
        hold + HOLD_MARGIN_S
    } else {
        0.0
    }
}

/// A FIFO of redo chunks: (bytes, generation time in seconds).
#[derive(Debug, Clone, Default)]
pub(crate) struct RedoQueue {
    chunks: VecDeque<(f64, f64)>,
    pub bytes: f64,
}

impl RedoQueue {
    pub(crate) fn push(&mut self, bytes: f64, gen_s: f64) {
        if bytes <= 0.0 {
            return;
        }
        self.bytes += bytes;
        match self.chunks.back_mut() {
            // Merge chunks of the same instant to keep the queue short.
            Some(last) if (last.1 - gen_s).abs() < 1e-9 => last.0 += bytes,
            _ => self.chunks.push_back((bytes, gen_s)),
        }
    }

    /// Takes up to `max` bytes from the front; calls `each(bytes, gen_s)` per piece taken.
    pub(crate) fn take(&mut self, max: f64, each: impl FnMut(f64, f64)) -> f64 {
        self.take_older(max, f64::INFINITY, each)
    }

    /// As [`take`](Self::take), but only redo generated at or before `gen_limit_s`.
    pub(crate) fn take_older(
        &mut self,
        max: f64,
        gen_limit_s: f64,
        mut each: impl FnMut(f64, f64),
    ) -> f64 {
        let mut left = max;
        while left > 0.0 {
            let Some(front) = self.chunks.front_mut() else {
                break;
            };
            if front.1 > gen_limit_s {
                break;
            }
            let n = front.0.min(left);
            each(n, front.1);
            front.0 -= n;
            left -= n;
            self.bytes -= n;
            if front.0 <= 1e-6 {
                self.chunks.pop_front();
            }
        }
        if self.chunks.is_empty() {
            self.bytes = 0.0;
        }
        max - left
    }

    /// Bytes generated at or before `gen_s`.
    pub(crate) fn bytes_older(&self, gen_s: f64) -> f64 {
        self.chunks
            .iter()
            .take_while(|c| c.1 <= gen_s)
            .map(|c| c.0)
            .sum()
    }

    pub(crate) fn oldest_gen_s(&self) -> Option<f64> {
        self.chunks.front().map(|c| c.1)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.chunks.is_empty()
    }
}

/// Standby-side cumulative counters and the current lags.
#[derive(Debug, Clone, Default)]
pub(crate) struct StandbyCounters {
    pub rfs_write: EventAcc,
    pub checkpoint_completed: EventAcc,
    pub recovery_read: EventAcc,
    pub db_file_sequential_read: EventAcc,
    pub db_file_parallel_write: EventAcc,
    /// Bytes that left the primary on the wire (after compression).
    pub shipped_wire: f64,
    /// Redo bytes (uncompressed) the standby received.
    pub received: f64,
    pub applied: f64,
    pub apply_busy_s: f64,
    pub log_wreq: u64,
    pub log_wus: f64,
    pub log_wbytes: f64,
    pub log_rreq: u64,
    pub log_rus: f64,
    pub log_rbytes: f64,
    pub data_rreq: u64,
    pub data_rus: f64,
    pub data_rbytes: f64,
    pub data_wreq: u64,
    pub data_wus: f64,
    pub data_wbytes: f64,
    pub arch_wreq: u64,
    pub arch_wus: f64,
    pub arch_wbytes: f64,
    pub logs_applied: u64,
    /// Redo already on the standby, unapplied, when the run began (a DELAY's backlog).
    pub preloaded: f64,
    pub last_received_s: f64,
    pub last_applied_gen_s: f64,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Standby {
    pub send: RedoQueue,
    pub apply: RedoQueue,
    pub c: StandbyCounters,
    pub transport_lag_s: f64,
    pub apply_lag_s: f64,
    apply_stall_until_s: f64,
    applied_in_log: f64,
    pub last_ckpt_s: f64,
    /// Recovery area in use (bytes); grows with archived redo only when it `fills`.
    pub fra_used: f64,
    /// When the recovery area filled up: ARCn stopped archiving, RFS has nowhere to write.
    pub fra_full_s: Option<f64>,
}

/// What happened on the primary during one fluid step.
pub(crate) struct StepInput {
    pub t_s: f64,
    pub dt_s: f64,
    /// Redo bytes whose LGWR write completed in the step.
    pub written: f64,
    /// The standby takes redo now: the link is up, the destination enabled, RFS can write.
    pub receiving: bool,
    /// MRP is running.
    pub apply_running: bool,
}

impl Standby {
    /// A standby whose recovery area starts as `p` says, and which already holds the
    /// redo a DELAY (or MIRA's merge) keeps unapplied, so lags are steady from the start.
    pub(crate) fn new(p: &Params) -> Self {
        let mut sb = Standby {
            fra_used: p.standby_fra.used_bytes as f64,
            ..Standby::default()
        };
        let hold = p.apply_hold_s();
        if hold > 0.0 {
            let rate = p.nominal_redo_bps();
            let secs = (hold + HOLD_MARGIN_S).ceil() as i64 + 1;
            for i in (1..=secs).rev() {
                sb.apply.push(rate, -(i as f64));
            }
        }
        if p.catch_up_s > 0.0 {
            // A returning standby's fetched gap: 10 s chunks at the nominal redo rate.
            let rate = p.nominal_redo_bps();
            let chunks = (p.catch_up_s / 10.0).ceil() as i64;
            for i in (1..=chunks).rev() {
                sb.apply.push(rate * 10.0, -(i as f64) * 10.0);
            }
        }
        sb.c.preloaded = sb.apply.bytes;
        sb
    }

    /// RFS cannot write: every SRL is full and the recovery area has no room to archive.
    pub(crate) fn rfs_blocked(&self) -> bool {
        self.fra_full_s.is_some()
    }

    pub(crate) fn step(&mut self, p: &Params, inp: &StepInput) {
        let gen_s = inp.t_s - inp.dt_s / 2.0;
        let shipping = !matches!(p.transport, Transport::Defer);
        if shipping {
            let direct = p.transport.is_sync() && inp.receiving && self.send.is_empty();
            if direct {
                // SYNC: the remote write already put this redo in the SRL.
                self.receive(p, inp.written, gen_s, inp.t_s, true);
            } else {
                self.send.push(inp.written, gen_s);
                if inp.receiving {
                    let cap = if p.transport.is_sync() {
                        p.ship_bw_bps
                    } else {
                        p.ship_capacity_bps()
                    } * inp.dt_s;
                    let mut got: Vec<(f64, f64)> = Vec::new();
                    self.send.take(cap, |b, g| got.push((b, g)));
                    for (b, g) in got {
                        self.receive(p, b, g, inp.t_s, false);
                    }
                }
            }
        }
        self.transport_lag_s = match self.send.oldest_gen_s() {
            Some(g) => (inp.t_s - g).max(0.0),
            None => 0.0,
        };
        self.apply_step(p, inp);
        self.apply_lag_s = match self.apply.oldest_gen_s() {
            Some(g) => (inp.t_s - g).max(self.transport_lag_s),
            None => self.transport_lag_s,
        };
    }

    fn receive(&mut self, p: &Params, bytes: f64, gen_s: f64, t_s: f64, via_sync: bool) {
        if bytes <= 0.0 {
            return;
        }
        let ratio = p.compression.map_or(1.0, |c| c.ratio);
        self.c.shipped_wire += bytes / ratio;
        self.c.received += bytes;
        self.c.last_received_s = t_s;
        self.apply.push(bytes, gen_s);
        if !via_sync {
            // RFS writes what arrives in ~128 KB pieces, one request per SRL member.
            let n = (bytes / (128.0 * 1024.0)).ceil() as u64;
            let mean = p.srl.s0_us + 128.0 * 1024.0 / (4.0 * p.srl.bw_bps) * 1e6;
            self.c.rfs_write.add_bulk(n, mean, p.srl.sigma);
            let m = u64::from(p.srl.members);
            self.c.log_wreq += n * m;
            self.c.log_wus += n as f64 * m as f64 * mean;
            self.c.log_wbytes += bytes * m as f64;
        }
        // Each filled SRL is archived: read back and written as an archived log, 1 MB I/Os.
        let ios = bytes / MB;
        self.c.log_rbytes += bytes;
        self.c.log_rus += ios * 1500.0;
        self.c.arch_wbytes += bytes;
        self.c.arch_wus += ios * p.standby_io.archive_write_us;
        self.c.log_rreq = (self.c.log_rbytes / MB) as u64;
        self.c.arch_wreq = (self.c.arch_wbytes / MB) as u64;
        if p.standby_fra.fills && self.fra_full_s.is_none() {
            let limit = p.standby_fra.limit_bytes as f64;
            self.fra_used = (self.fra_used + bytes).min(limit);
            if self.fra_used >= limit {
                self.fra_full_s = Some(t_s);
            }
        }
    }

    fn apply_step(&mut self, p: &Params, inp: &StepInput) {
        let t = inp.t_s;
        if !inp.apply_running || t < self.apply_stall_until_s {
            return;
        }
        let avail = inp.dt_s - (self.apply_stall_until_s - (t - inp.dt_s)).max(0.0);
        let rate = p.apply.effective_bps(&p.standby_io);
        let cap = rate * avail;
        let mut last_gen = None;
        let done = self
            .apply
            .take_older(cap, t - hold_limit_s(p), |_, g| last_gen = Some(g));
        if let Some(g) = last_gen {
            self.c.last_applied_gen_s = g;
        }
        if done <= 0.0 {
            return;
        }
        self.c.applied += done;
        self.c.apply_busy_s += done / rate;
        let io = p.standby_io;
        // Redo read back from the SRLs in 1 MB pieces; data blocks read for the change vectors
        // (one miss per 8 KB of redo) and written back by DBWR (one write per 16 KB).
        let reads = (done / MB).ceil() as u64;
        self.c
            .recovery_read
            .add_bulk(reads, io.data_read_us * 0.4, 0.5);
        let blocks = (done / 8192.0) as u64;
        self.c
            .db_file_sequential_read
            .add_bulk(blocks, io.data_read_us, 0.6);
        self.c.data_rreq += blocks;
        self.c.data_rus += blocks as f64 * io.data_read_us;
        self.c.data_rbytes += blocks as f64 * 8192.0;
        let writes = (done / 16384.0) as u64;
        self.c.data_wreq += writes;
        self.c.data_wus += writes as f64 * io.data_write_us;
        self.c.data_wbytes += writes as f64 * 8192.0;
        self.c
            .db_file_parallel_write
            .add_bulk(writes.div_ceil(32), io.data_write_us * 2.0, 0.5);
        // A standby log switch every ORL's worth of applied redo: full checkpoint, apply waits.
        self.applied_in_log += done;
        while self.applied_in_log >= p.orl_bytes as f64 {
            self.applied_in_log -= p.orl_bytes as f64;
            self.c.logs_applied += 1;
            self.apply_stall_until_s = t + p.apply.ckpt_s_per_log;
            self.last_ckpt_s = t;
            self.c
                .checkpoint_completed
                .add((p.apply.ckpt_s_per_log * 1e6) as u64);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Compression;

    fn burst(p: &Params, rate: f64, secs: f64, after: f64) -> (Standby, f64) {
        let mut sb = Standby::default();
        let dt = 0.1;
        let mut peak: f64 = 0.0;
        let steps = ((secs + after) / dt) as usize;
        for i in 1..=steps {
            let t = i as f64 * dt;
            let written = if t <= secs { rate * dt } else { 0.0 };
            sb.step(
                p,
                &StepInput {
                    t_s: t,
                    dt_s: dt,
                    written,
                    receiving: true,
                    apply_running: true,
                },
            );
            peak = peak.max(sb.transport_lag_s);
        }
        (sb, peak)
    }

    #[test]
    fn async_peak_lag_follows_the_burst_formula() {
        let mut p = Params::calibrated();
        p.transport = Transport::Async;
        p.ship_bw_bps = 108.9 * MB;
        let (sb, peak) = burst(&p, 140.0 * MB, 1183.0, 600.0);
        let expect = 1183.0 * (140.0 / 108.9 - 1.0);
        assert!((peak - expect).abs() < 3.0, "{peak} vs {expect}");
        assert!(sb.send.is_empty());
        assert!((sb.c.received - 140.0 * MB * 1183.0).abs() < 1.0);
        p.compression = Some(Compression {
            ratio: 2.7,
            compressor_bps: 137.7 * MB,
        });
        let (sb, peak) = burst(&p, 140.0 * MB, 1183.0, 60.0);
        assert!((peak - 19.76).abs() < 1.0, "{peak}");
        assert!(sb.c.shipped_wire < sb.c.received / 2.0);
    }

    #[test]
    fn slow_apply_lags_while_transport_keeps_up() {
        let mut p = Params::calibrated();
        p.apply.rate_bps = 47.0 * MB;
        let (sb, peak) = burst(&p, 60.0 * MB, 300.0, 0.0);
        assert!(peak < 0.5);
        assert!(sb.apply_lag_s > 60.0, "{}", sb.apply_lag_s);
    }
}
