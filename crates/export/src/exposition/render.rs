//! Snapshots → exposition text. Every family is written once with its `# HELP`/`# TYPE` and
//! then the series of every pair (both formats require a family's lines to be contiguous).
//! Raw cumulative counters and Oracle's own histogram buckets: rates and quantiles are
//! PromQL's job. A slot whose newest sample failed exports `dgscope_up 0` and its last
//! sample's timestamp only: no figure of it is presented as now.

use super::negotiate::Format;
use super::snapshot::{database_of, PairSnapshot, SlotSnapshot};
use dgscope_model::sample::{Bucket, DestStatus, Sample};
use dgscope_model::timestamp::Timestamp;
use std::fmt::Write;
use std::sync::{Arc, OnceLock};

/// Kinds of families dgscope writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Gauge,
    Counter,
    Histogram,
}

/// One metric family: its exposed name (counters with `_total`), help and label names (in
/// the order written; optional ones are left out while unknown).
pub struct Family {
    pub name: &'static str,
    pub kind: Kind,
    pub help: &'static str,
    pub labels: &'static [&'static str],
    emit: fn(&mut Out<'_>, &PairSnapshot),
}

impl Family {
    /// The OpenMetrics family name (a counter's without `_total`).
    pub fn om_name(&self) -> &'static str {
        match self.kind {
            Kind::Counter => self.name.trim_end_matches("_total"),
            _ => self.name,
        }
    }
}

const SLOT: &[&str] = &["pair", "database", "slot"];

/// Every family, in the order written. `dgscope_build_info` comes first, outside any pair.
pub const FAMILIES: &[Family] = &[
    Family {
        name: "dgscope_build_info",
        kind: Kind::Gauge,
        help: "dgscope build information (always 1).",
        labels: &["version"],
        emit: |_, _| {},
    },
    Family {
        name: "dgscope_up",
        kind: Kind::Gauge,
        help: "1 when the slot's newest sample has data, 0 while it fails (error: why) or before the first one.",
        labels: &["pair", "database", "slot", "error"],
        emit: up,
    },
    Family {
        name: "dgscope_last_sample_timestamp_seconds",
        kind: Kind::Gauge,
        help: "Unix time of the slot's newest sample with data (however old: compare with time()).",
        labels: SLOT,
        emit: last_sample,
    },
    Family {
        name: "dgscope_sample_duration_seconds",
        kind: Kind::Gauge,
        help: "Round trip of the slot's newest sample (all views, one round trip).",
        labels: SLOT,
        emit: sample_duration,
    },
    Family {
        name: "dgscope_database_info",
        kind: Kind::Gauge,
        help: "Identity of the database behind a slot (always 1): role, open mode, version (V$DATABASE, V$INSTANCE).",
        labels: &["pair", "database", "slot", "role", "open_mode", "version"],
        emit: database_info,
    },
    Family {
        name: "dgscope_instances",
        kind: Kind::Gauge,
        help: "Open instances of the database (GV$INSTANCE; more than 1 on RAC).",
        labels: SLOT,
        emit: instances,
    },
    Family {
        name: "dgscope_protection_info",
        kind: Kind::Gauge,
        help: "Data Guard protection mode and level (V$DATABASE; always 1).",
        labels: &["pair", "database", "slot", "mode", "level"],
        emit: protection_info,
    },
    Family {
        name: "dgscope_protection_degraded",
        kind: Kind::Gauge,
        help: "1 when the primary's protection level is below its protection mode (V$DATABASE), else 0.",
        labels: SLOT,
        emit: protection_degraded,
    },
    Family {
        name: "dgscope_user_commits_total",
        kind: Kind::Counter,
        help: "Cumulative user commits (V$SYSSTAT 'user commits'; summed over RAC instances).",
        labels: SLOT,
        emit: |o, p| stat_counter(o, p, dgscope_model::sample::names::stat::USER_COMMITS, 1),
    },
    Family {
        name: "dgscope_redo_size_bytes_total",
        kind: Kind::Counter,
        help: "Cumulative redo generated in bytes (V$SYSSTAT 'redo size').",
        labels: SLOT,
        emit: |o, p| stat_counter(o, p, dgscope_model::sample::names::stat::REDO_SIZE, 1),
    },
    Family {
        name: "dgscope_redo_writes_total",
        kind: Kind::Counter,
        help: "Cumulative LGWR redo writes (V$SYSSTAT 'redo writes').",
        labels: SLOT,
        emit: |o, p| stat_counter(o, p, dgscope_model::sample::names::stat::REDO_WRITES, 1),
    },
    Family {
        name: "dgscope_iostat_requests_total",
        kind: Kind::Counter,
        help: "Cumulative I/O requests per file type (V$IOSTAT_FILE, small + large).",
        labels: &["pair", "database", "slot", "filetype", "op"],
        emit: |o, p| iostat(o, p, IoField::Requests),
    },
    Family {
        name: "dgscope_iostat_bytes_total",
        kind: Kind::Counter,
        help: "Cumulative bytes transferred per file type (V$IOSTAT_FILE megabytes x 1048576).",
        labels: &["pair", "database", "slot", "filetype", "op"],
        emit: |o, p| iostat(o, p, IoField::Bytes),
    },
    Family {
        name: "dgscope_iostat_service_time_seconds_total",
        kind: Kind::Counter,
        help: "Cumulative I/O service time per file type (V$IOSTAT_FILE service time, ms / 1000).",
        labels: &["pair", "database", "slot", "filetype", "op"],
        emit: |o, p| iostat(o, p, IoField::ServiceTime),
    },
    Family {
        name: "dgscope_wait_event_duration_seconds",
        kind: Kind::Histogram,
        help: "Wait event latency (V$EVENT_HISTOGRAM_MICRO buckets; le=b counts waits shorter than b; _sum is V$SYSTEM_EVENT.TIME_WAITED_MICRO).",
        labels: &["pair", "database", "slot", "event"],
        emit: wait_events,
    },
    Family {
        name: "dgscope_sessions_waiting",
        kind: Kind::Gauge,
        help: "Sessions waiting now on each event (V$SESSION, STATE = 'WAITING', idle class left out, background processes included; the 8 longest events); absent while not read or stale.",
        labels: &["pair", "database", "slot", "event"],
        emit: |o, p| waits_now(o, p, "dgscope_sessions_waiting", |w| f64::from(w.sessions)),
    },
    Family {
        name: "dgscope_session_wait_longest_seconds",
        kind: Kind::Gauge,
        help: "The longest of those waits so far (V$SESSION.WAIT_TIME_MICRO / 1e6), per event; absent while not read or stale.",
        labels: &["pair", "database", "slot", "event"],
        emit: |o, p| waits_now(o, p, "dgscope_session_wait_longest_seconds", |w| w.longest_s),
    },
    Family {
        name: "dgscope_recovery_area_limit_bytes",
        kind: Kind::Gauge,
        help: "Size limit of the recovery area (V$RECOVERY_FILE_DEST.SPACE_LIMIT; read once a minute), on every member; absent while not read, not configured or stale.",
        labels: SLOT,
        emit: |o, p| recovery_area(o, p, "dgscope_recovery_area_limit_bytes", |f| f.limit_bytes),
    },
    Family {
        name: "dgscope_recovery_area_used_bytes",
        kind: Kind::Gauge,
        help: "Space used in the recovery area (V$RECOVERY_FILE_DEST.SPACE_USED); absent while not read, not configured or stale.",
        labels: SLOT,
        emit: |o, p| recovery_area(o, p, "dgscope_recovery_area_used_bytes", |f| f.used_bytes),
    },
    Family {
        name: "dgscope_recovery_area_reclaimable_bytes",
        kind: Kind::Gauge,
        help: "Space the recovery area can free by itself (V$RECOVERY_FILE_DEST.SPACE_RECLAIMABLE): used minus this is what fills it; absent while not read, not configured or stale.",
        labels: SLOT,
        emit: |o, p| recovery_area(o, p, "dgscope_recovery_area_reclaimable_bytes", |f| f.reclaimable_bytes),
    },
    Family {
        name: "dgscope_transport_lag_seconds",
        kind: Kind::Gauge,
        help: "Transport lag of the standby (V$DATAGUARD_STATS); absent while unknown or stale.",
        labels: SLOT,
        emit: |o, p| lag(o, p, "dgscope_transport_lag_seconds", |s| s.dg.as_ref()?.transport_lag_s.map(|x| x.0)),
    },
    Family {
        name: "dgscope_apply_lag_seconds",
        kind: Kind::Gauge,
        help: "Apply lag of the standby (V$DATAGUARD_STATS); absent while unknown or stale.",
        labels: SLOT,
        emit: |o, p| lag(o, p, "dgscope_apply_lag_seconds", |s| s.dg.as_ref()?.apply_lag_s.map(|x| x.0)),
    },
    Family {
        name: "dgscope_apply_delay_seconds",
        kind: Kind::Gauge,
        help: "Deliberate apply delay of the standby (DELAY_MINS x 60 of its destination or MRP0; 0 when none); absent while unknown or stale. dgscope_apply_lag_seconds minus this is the lag not on purpose.",
        labels: SLOT,
        emit: apply_delay,
    },
    Family {
        name: "dgscope_apply_rate_bytes_per_second",
        kind: Kind::Gauge,
        help: "Active apply rate of media recovery (V$RECOVERY_PROGRESS 'Active Apply Rate', KB/s x 1024); absent while unknown or stale, and a 0 under Multi-Instance Redo Apply or on a RAC standby (unknown, not zero).",
        labels: SLOT,
        emit: |o, p| {
            lag(o, p, "dgscope_apply_rate_bytes_per_second", |s| {
                let kbps = s.recovery.as_ref()?.active_apply_kbps?;
                // Under Multi-Instance Redo Apply (and on a RAC standby's other instances)
                // Oracle reports 0: unknown, not zero (review M5).
                if kbps == 0.0 && apply_rate_zero_means_unknown(s) {
                    return None;
                }
                Some(kbps * 1024.0)
            })
        },
    },
    Family {
        name: "dgscope_apply_finish_seconds",
        kind: Kind::Gauge,
        help: "Estimated time for the standby to apply the redo it has received (V$DATAGUARD_STATS 'apply finish time'); absent while unknown or stale.",
        labels: SLOT,
        emit: |o, p| lag(o, p, "dgscope_apply_finish_seconds", |s| s.dg.as_ref()?.apply_finish_s.map(|x| x.0)),
    },
    Family {
        name: "dgscope_apply_state",
        kind: Kind::Gauge,
        help: "Redo apply on each standby as dgscope judges it: 1 for the current state (running, waiting-for-gap, stopped, off by design, not-applicable on a far sync), 0 for the others; absent while unknown or stale.",
        labels: &["pair", "database", "slot", "state"],
        emit: apply_state,
    },
    Family {
        name: "dgscope_transport_state",
        kind: Kind::Gauge,
        help: "Redo transport to each standby as its destination says: 1 for the current state (shipping, gap, error, not-shipping), 0 for the others; absent while unknown or stale.",
        labels: &["pair", "database", "slot", "state"],
        emit: transport_state,
    },
    Family {
        name: "dgscope_switchover_status",
        kind: Kind::Gauge,
        help: "V$DATABASE.SWITCHOVER_STATUS of each database: 1 for the current status, 0 for the others; absent while unknown or stale.",
        labels: &["pair", "database", "slot", "status"],
        emit: switchover_status,
    },
    Family {
        name: "dgscope_switchover_ready",
        kind: Kind::Gauge,
        help: "1 when the primary's SWITCHOVER_STATUS is TO STANDBY or SESSIONS ACTIVE (a switchover can start), else 0; absent while unknown.",
        labels: SLOT,
        emit: switchover_ready,
    },
    Family {
        name: "dgscope_fsfo_status",
        kind: Kind::Gauge,
        help: "Fast-start failover as the primary reports it (V$DATABASE.FS_FAILOVER_STATUS): 1 for the current status, 0 for the others; absent while unknown.",
        labels: &["pair", "database", "slot", "status"],
        emit: fsfo_status,
    },
    Family {
        name: "dgscope_fsfo_ready",
        kind: Kind::Gauge,
        help: "1 when fast-start failover is enabled and its status is SYNCHRONIZED or TARGET UNDER LAG LIMIT, 0 when enabled and not; absent when disabled or unknown.",
        labels: SLOT,
        emit: fsfo_ready,
    },
    Family {
        name: "dgscope_fsfo_observer_present",
        kind: Kind::Gauge,
        help: "1 when the fast-start failover observer is present (V$DATABASE.FS_FAILOVER_OBSERVER_PRESENT), 0 when not; absent when FSFO is disabled or unknown.",
        labels: SLOT,
        emit: fsfo_observer,
    },
    Family {
        name: "dgscope_fsfo_target_info",
        kind: Kind::Gauge,
        help: "The fast-start failover target and observer host (V$DATABASE.FS_FAILOVER_CURRENT_TARGET, _OBSERVER_HOST; always 1); absent when FSFO is disabled or unknown.",
        labels: &["pair", "database", "slot", "target", "observer_host"],
        emit: fsfo_target,
    },
    Family {
        name: "dgscope_dataguard_stats_instance_info",
        kind: Kind::Gauge,
        help: "The instance the standby's lag figures were read from (GV$DATAGUARD_STATS; on RAC the one running MRP0; always 1).",
        labels: &["pair", "database", "slot", "inst_id"],
        emit: dg_instance,
    },
    Family {
        name: "dgscope_destination_status",
        kind: Kind::Gauge,
        help: "Status of each remote redo destination of the primary (V$ARCHIVE_DEST.STATUS): 1 for the current status, 0 for the others.",
        labels: &["pair", "database", "dest_id", "standby", "status"],
        emit: destinations,
    },
    Family {
        name: "dgscope_finding",
        kind: Kind::Gauge,
        help: "1 for each suggested cause raised now for the pair (same hysteresis as the screen).",
        labels: &["pair", "database", "id", "severity", "standby"],
        emit: findings,
    },
    Family {
        name: "dgscope_finding_impact_ratio",
        kind: Kind::Gauge,
        help: "Share (0..1) of its symptom a finding raised now explains (commit: log file sync; transport-lag, apply-lag: the standby's lag; db-time; redo-stall), where known.",
        labels: &["pair", "database", "id", "symptom", "standby"],
        emit: finding_impacts,
    },
    Family {
        name: "dgscope_finding_db_time_ratio",
        kind: Kind::Gauge,
        help: "Share (0..1) of DB time a finding raised now explains, where DB time is known.",
        labels: &["pair", "database", "id", "symptom", "standby"],
        emit: finding_db_time,
    },
    Family {
        name: "dgscope_commit_component_milliseconds",
        kind: Kind::Gauge,
        help: "The causes window's average foreground log file sync split into its parts (local-write, remote-network, remote-rfs, remote-leg, rac-broadcast, tail, adaptive-polling, cpu-scheduling, unexplained), ms; they sum to the average. Per RAC instance with `inst_id`.",
        labels: &["pair", "database", "component", "inst_id"],
        emit: commit_components,
    },
    Family {
        name: "dgscope_warming_up",
        kind: Kind::Gauge,
        help: "1 while the pair has too few samples or commits for the causes to judge, else 0.",
        labels: &["pair"],
        emit: warming_up,
    },
];

/// Renders every family for `pairs` in `format` (OpenMetrics ends with `# EOF`).
pub fn render(pairs: &[Arc<PairSnapshot>], format: Format) -> String {
    let mut s = String::with_capacity(4096 + pairs.len() * 48 * 1024);
    render_into(&mut s, pairs, format);
    s
}

/// As [`render`], appending to `buf`.
pub fn render_into(buf: &mut String, pairs: &[Arc<PairSnapshot>], format: Format) {
    let rendered: Vec<Rendered> = pairs.iter().map(|p| Rendered::of(p, format)).collect();
    let refs: Vec<&Rendered> = rendered.iter().collect();
    assemble_into(buf, &refs, format);
}

/// One pair's lines of every family in one format (empty where it has none), rendered once
/// when its snapshot is published: a scrape joins them under the families' headers
/// ([`assemble_into`]) instead of rendering every pair again.
#[derive(Debug, Clone, Default)]
pub struct Rendered {
    families: Vec<String>,
}

impl Rendered {
    pub fn of(pair: &PairSnapshot, format: Format) -> Self {
        let om = format == Format::OpenMetrics;
        let families = FAMILIES
            .iter()
            .map(|fam| {
                let mut buf = String::new();
                (fam.emit)(&mut Out { buf: &mut buf, om }, pair);
                buf
            })
            .collect();
        Rendered { families }
    }

    /// Bytes held (a scrape sizes its buffer from them).
    pub fn len(&self) -> usize {
        self.families.iter().map(String::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The exposition of pairs rendered in `format` (each [`Rendered::of`] in that format):
/// every family's header, then each pair's lines of it, in order (OpenMetrics ends with
/// `# EOF`). The one place the document is put together, for a scrape and for [`render`].
pub fn assemble_into(buf: &mut String, pairs: &[&Rendered], format: Format) {
    let mut len = 0;
    pieces(pairs, format, |p| len += p.len());
    buf.reserve(len);
    pieces(pairs, format, |p| buf.push_str(p));
}

/// The exposition as [`assemble_into`] joins it, piece by piece and in order, without
/// copying: a scrape writes the pieces to its socket as they are (`writev`), 12 MB for 200
/// pairs that a joined body copied once more and faulted in fresh at every scrape.
pub fn pieces<'a>(pairs: &[&'a Rendered], format: Format, mut piece: impl FnMut(&'a str)) {
    let om = format == Format::OpenMetrics;
    for (i, head) in headers(format).iter().enumerate() {
        piece(head);
        if i == 0 {
            piece(BUILD_INFO);
            continue;
        }
        for p in pairs {
            match p.families.get(i) {
                Some(lines) if !lines.is_empty() => piece(lines),
                _ => {}
            }
        }
    }
    if om {
        piece("# EOF\n");
    }
}

const BUILD_INFO: &str = concat!(
    "dgscope_build_info{version=\"",
    env!("CARGO_PKG_VERSION"),
    "\"} 1\n"
);

/// Every family's `# HELP` and `# TYPE` lines in `format`, written once.
fn headers(format: Format) -> &'static [String] {
    static TEXT: OnceLock<Vec<String>> = OnceLock::new();
    static OPEN_METRICS: OnceLock<Vec<String>> = OnceLock::new();
    let om = format == Format::OpenMetrics;
    let cell = if om { &OPEN_METRICS } else { &TEXT };
    cell.get_or_init(|| {
        FAMILIES
            .iter()
            .map(|fam| {
                let mut buf = String::new();
                let name = if om { fam.om_name() } else { fam.name };
                Out { buf: &mut buf, om }.header(name, fam.kind, fam.help);
                buf
            })
            .collect()
    })
}

pub(crate) struct Out<'a> {
    buf: &'a mut String,
    om: bool,
}

type Labels<'l> = [(&'static str, Option<&'l str>)];

impl Out<'_> {
    fn header(&mut self, name: &str, kind: Kind, help: &str) {
        let kind = match kind {
            Kind::Gauge => "gauge",
            Kind::Counter => "counter",
            Kind::Histogram => "histogram",
        };
        let _ = write!(self.buf, "# HELP {name} {help}\n# TYPE {name} {kind}\n");
    }

    /// `name{labels} ` — the value follows.
    fn start(
        &mut self,
        name: &str,
        suffix: &str,
        labels: &Labels<'_>,
        le: Option<&dyn Fn(&mut String)>,
    ) {
        self.buf.push_str(name);
        self.buf.push_str(suffix);
        let mut first = true;
        for (k, v) in labels {
            let Some(v) = v else { continue };
            self.buf.push(if first { '{' } else { ',' });
            first = false;
            self.buf.push_str(k);
            self.buf.push_str("=\"");
            escape_into(self.buf, v);
            self.buf.push('"');
        }
        if let Some(le) = le {
            self.buf.push(if first { '{' } else { ',' });
            first = false;
            self.buf.push_str("le=\"");
            le(self.buf);
            self.buf.push('"');
        }
        if !first {
            self.buf.push('}');
        }
        self.buf.push(' ');
    }

    fn int(&mut self, name: &str, suffix: &str, labels: &Labels<'_>, v: u64) {
        self.start(name, suffix, labels, None);
        let _ = writeln!(self.buf, "{v}");
    }

    fn float(&mut self, name: &str, suffix: &str, labels: &Labels<'_>, v: f64) {
        self.start(name, suffix, labels, None);
        float_into(self.buf, v);
        self.buf.push('\n');
    }

    /// `_created` of a counter or histogram: OpenMetrics only, from the instance startup.
    fn created(&mut self, name: &str, labels: &Labels<'_>, startup: Option<Timestamp>) {
        if let (true, Some(t)) = (self.om, startup) {
            self.float(name, "_created", labels, secs(t));
        }
    }
}

/// Label value escaping of both formats: backslash, double quote and line feed.
pub(crate) fn escape_into(buf: &mut String, v: &str) {
    if !v.contains(['\\', '"', '\n']) {
        buf.push_str(v);
        return;
    }
    for c in v.chars() {
        match c {
            '\\' => buf.push_str("\\\\"),
            '"' => buf.push_str("\\\""),
            '\n' => buf.push_str("\\n"),
            c => buf.push(c),
        }
    }
}

fn float_into(buf: &mut String, v: f64) {
    if v.is_nan() {
        buf.push_str("NaN");
    } else if v == f64::INFINITY {
        buf.push_str("+Inf");
    } else if v == f64::NEG_INFINITY {
        buf.push_str("-Inf");
    } else {
        let _ = write!(buf, "{v}");
    }
}

fn secs(t: Timestamp) -> f64 {
    t.ms as f64 / 1000.0
}

/// `pair`, `database`, `slot` of a slot.
fn base<'a>(p: &'a PairSnapshot, s: &'a SlotSnapshot) -> [(&'static str, Option<&'a str>); 3] {
    [
        ("pair", Some(p.pair.as_str())),
        ("database", s.database()),
        ("slot", Some(s.slot.as_str())),
    ]
}

/// The slots whose newest sample has data, with that sample.
fn current(p: &PairSnapshot) -> impl Iterator<Item = (&SlotSnapshot, &Sample)> {
    p.slots
        .iter()
        .filter_map(|s| s.current.as_deref().map(|c| (s, c)))
}

fn up(o: &mut Out<'_>, p: &PairSnapshot) {
    for s in &p.slots {
        let [a, b, c] = base(p, s);
        let labels = [a, b, c, ("error", s.error.as_deref())];
        o.int("dgscope_up", "", &labels, u64::from(s.is_up()));
    }
}

fn last_sample(o: &mut Out<'_>, p: &PairSnapshot) {
    for s in &p.slots {
        if let Some(g) = &s.last_good {
            o.float(
                "dgscope_last_sample_timestamp_seconds",
                "",
                &base(p, s),
                secs(g.t),
            );
        }
    }
}

fn sample_duration(o: &mut Out<'_>, p: &PairSnapshot) {
    for (s, c) in current(p) {
        if let Some(us) = c.query_us {
            o.float(
                "dgscope_sample_duration_seconds",
                "",
                &base(p, s),
                us.0 as f64 / 1e6,
            );
        }
    }
}

fn database_info(o: &mut Out<'_>, p: &PairSnapshot) {
    for (s, c) in current(p) {
        let Some(db) = &c.db else { continue };
        let [a, b, d] = base(p, s);
        let labels = [
            a,
            b,
            d,
            ("role", db.role.as_ref().map(|r| r.as_str())),
            ("open_mode", db.open_mode.as_ref().map(|m| m.as_str())),
            ("version", db.version.as_deref()),
        ];
        o.int("dgscope_database_info", "", &labels, 1);
    }
}

fn instances(o: &mut Out<'_>, p: &PairSnapshot) {
    for (s, c) in current(p) {
        if let Some(n) = c.db.as_ref().and_then(|d| d.instances) {
            o.int("dgscope_instances", "", &base(p, s), u64::from(n));
        }
    }
}

fn protection_info(o: &mut Out<'_>, p: &PairSnapshot) {
    for (s, c) in current(p) {
        let Some(db) = &c.db else { continue };
        if db.protection_mode.is_none() && db.protection_level.is_none() {
            continue;
        }
        let [a, b, d] = base(p, s);
        let labels = [
            a,
            b,
            d,
            ("mode", db.protection_mode.as_deref()),
            ("level", db.protection_level.as_deref()),
        ];
        o.int("dgscope_protection_info", "", &labels, 1);
    }
}

fn protection_degraded(o: &mut Out<'_>, p: &PairSnapshot) {
    for (s, c) in current(p) {
        let Some(db) = &c.db else { continue };
        if db.role != Some(dgscope_model::sample::Role::Primary) {
            continue;
        }
        if let (Some(m), Some(l)) = (&db.protection_mode, &db.protection_level) {
            let degraded = !m.trim().eq_ignore_ascii_case(l.trim());
            o.int(
                "dgscope_protection_degraded",
                "",
                &base(p, s),
                u64::from(degraded),
            );
        }
    }
}

fn counter_name(o: &Out<'_>, total: &'static str) -> (&'static str, &'static str) {
    // Text format: the sample is the family name; OpenMetrics: family + `_total`.
    if o.om {
        (total.trim_end_matches("_total"), "_total")
    } else {
        (total, "")
    }
}

fn stat_name(stat: &str) -> &'static str {
    use dgscope_model::sample::names::stat;
    match stat {
        stat::USER_COMMITS => "dgscope_user_commits_total",
        stat::REDO_SIZE => "dgscope_redo_size_bytes_total",
        _ => "dgscope_redo_writes_total",
    }
}

fn stat_counter(o: &mut Out<'_>, p: &PairSnapshot, stat: &str, scale: u64) {
    let (name, suffix) = counter_name(o, stat_name(stat));
    for (s, c) in current(p) {
        if let Some(v) = c.stat(stat) {
            let labels = base(p, s);
            o.int(name, suffix, &labels, v.saturating_mul(scale));
            o.created(name, &labels, c.startup());
        }
    }
}

#[derive(Clone, Copy)]
enum IoField {
    Requests,
    Bytes,
    ServiceTime,
}

fn iostat(o: &mut Out<'_>, p: &PairSnapshot, field: IoField) {
    let total = match field {
        IoField::Requests => "dgscope_iostat_requests_total",
        IoField::Bytes => "dgscope_iostat_bytes_total",
        IoField::ServiceTime => "dgscope_iostat_service_time_seconds_total",
    };
    let (name, suffix) = counter_name(o, total);
    for (s, c) in current(p) {
        for (ft, io) in &c.iostat {
            let [a, b, d] = base(p, s);
            for (op, v) in [
                ("read", (io.rreq, io.rmb, io.rms)),
                ("write", (io.wreq, io.wmb, io.wms)),
            ] {
                let labels = [a, b, d, ("filetype", Some(ft.as_str())), ("op", Some(op))];
                match field {
                    IoField::Requests => o.int(name, suffix, &labels, v.0),
                    IoField::Bytes => o.int(name, suffix, &labels, v.1.saturating_mul(1 << 20)),
                    IoField::ServiceTime => o.float(name, suffix, &labels, v.2 as f64 / 1000.0),
                }
                o.created(name, &labels, c.startup());
            }
        }
    }
}

/// The `le` ladder of an event: Oracle's power-of-two buckets as one fixed ladder (so every
/// scrape has the same series whatever buckets have filled yet), from 1 µs up to 4.19 s or
/// the highest bucket seen. 11.2's millisecond buckets (1000 µs × 2^k) get their own ladder;
/// any other bounds are written as they are.
pub(crate) fn ladder(hist: &[Bucket]) -> Vec<u64> {
    let max = hist.iter().map(|b| b.upper().0).max().unwrap_or(0);
    let pow2 = |b: u64| b.is_power_of_two();
    let (base, floor) = if hist.iter().all(|b| pow2(b.upper().0)) {
        (1u64, 1u64 << 22)
    } else if hist
        .iter()
        .all(|b| b.upper().0.is_multiple_of(1000) && pow2(b.upper().0 / 1000))
    {
        (1000, 1000 << 12)
    } else {
        let mut v: Vec<u64> = hist.iter().map(|b| b.upper().0).collect();
        v.sort_unstable();
        v.dedup();
        return v;
    };
    let top = max.max(floor);
    let mut v = Vec::with_capacity(24);
    let mut b = base;
    while b <= top {
        v.push(b);
        match b.checked_mul(2) {
            Some(n) => b = n,
            None => break,
        }
    }
    v
}

/// `le` of a bound in µs, in seconds: Oracle's ladders come from a table, anything else is
/// formatted.
fn le_into(buf: &mut String, bound_us: u64) {
    static POW2: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    static MS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let table = |base: u64| -> Vec<String> {
        (0..40)
            .map(|k| {
                let mut s = String::new();
                float_into(&mut s, (base << k) as f64 / 1e6);
                s
            })
            .collect()
    };
    if bound_us.is_power_of_two() && bound_us.trailing_zeros() < 40 {
        buf.push_str(&POW2.get_or_init(|| table(1))[bound_us.trailing_zeros() as usize]);
    } else if bound_us.is_multiple_of(1000)
        && (bound_us / 1000).is_power_of_two()
        && (bound_us / 1000).trailing_zeros() < 40
    {
        buf.push_str(&MS.get_or_init(|| table(1000))[(bound_us / 1000).trailing_zeros() as usize]);
    } else {
        float_into(buf, bound_us as f64 / 1e6);
    }
}

fn wait_events(o: &mut Out<'_>, p: &PairSnapshot) {
    let name = "dgscope_wait_event_duration_seconds";
    let mut sorted: Vec<(u64, u64)> = Vec::new();
    for (s, c) in current(p) {
        for (event, ev) in &c.events {
            let [a, b, d] = base(p, s);
            let labels = [a, b, d, ("event", Some(event.as_str()))];
            sorted.clear();
            sorted.extend(ev.hist.iter().map(|b| (b.upper().0, b.count())));
            sorted.sort_unstable();
            let hist_total: u64 = sorted.iter().map(|b| b.1).sum();
            // The histogram and the totals are separate views read moments apart: the count
            // is the larger, so buckets never exceed +Inf.
            let count = ev.waits.max(hist_total);
            // The labels are escaped once per histogram, not once per bucket.
            let mut prefix = String::with_capacity(160);
            prefix.push_str(name);
            prefix.push_str("_bucket{");
            for (k, v) in &labels {
                let Some(v) = v else { continue };
                prefix.push_str(k);
                prefix.push_str("=\"");
                escape_into(&mut prefix, v);
                prefix.push_str("\",");
            }
            prefix.push_str("le=\"");
            let mut cum = 0u64;
            let mut i = 0;
            for bound in ladder(&ev.hist) {
                while i < sorted.len() && sorted[i].0 <= bound {
                    cum += sorted[i].1;
                    i += 1;
                }
                o.buf.push_str(&prefix);
                le_into(o.buf, bound);
                let _ = writeln!(o.buf, "\"}} {cum}");
            }
            o.buf.push_str(&prefix);
            o.buf.push_str("+Inf\"} ");
            let _ = writeln!(o.buf, "{count}");
            o.int(name, "_count", &labels, count);
            o.float(name, "_sum", &labels, ev.us.0 as f64 / 1e6);
            o.created(name, &labels, c.startup());
        }
    }
}

/// A standby gauge: written only from a current sample that has the figure.
fn lag(o: &mut Out<'_>, p: &PairSnapshot, name: &str, get: fn(&Sample) -> Option<f64>) {
    for (s, c) in current(p) {
        if let Some(v) = get(c).filter(|v| v.is_finite()) {
            o.float(name, "", &base(p, s), v);
        }
    }
}

/// One series per event in flight of every current slot's `waits_now`.
fn waits_now(
    o: &mut Out<'_>,
    p: &PairSnapshot,
    name: &str,
    get: fn(&dgscope_model::sample::WaitNow) -> f64,
) {
    for (s, c) in current(p) {
        for w in c.waits_now.iter().flatten() {
            let [a, b, d] = base(p, s);
            let labels = [a, b, d, ("event", Some(w.event.as_str()))];
            o.float(name, "", &labels, get(w));
        }
    }
}

fn dg_instance(o: &mut Out<'_>, p: &PairSnapshot) {
    for (s, c) in current(p) {
        if let Some(id) = c.dg.as_ref().and_then(|d| d.inst_id) {
            let [a, b, d] = base(p, s);
            let id = id.to_string();
            let labels = [a, b, d, ("inst_id", Some(id.as_str()))];
            o.int("dgscope_dataguard_stats_instance_info", "", &labels, 1);
        }
    }
}

const DEST_STATES: [DestStatus; 8] = [
    DestStatus::Valid,
    DestStatus::Inactive,
    DestStatus::Deferred,
    DestStatus::Error,
    DestStatus::Disabled,
    DestStatus::BadParam,
    DestStatus::Alternate,
    DestStatus::Full,
];

fn destinations(o: &mut Out<'_>, p: &PairSnapshot) {
    for (_, c) in current(p) {
        if c.role() != Some(&dgscope_model::sample::Role::Primary) {
            continue;
        }
        let db = database_of(c);
        for d in &c.dests {
            let id = d.id.to_string();
            let standby = d.db_unique_name.as_deref().or(d.name.as_deref());
            let mut emit = |state: &str, v: u64| {
                let labels = [
                    ("pair", Some(p.pair.as_str())),
                    ("database", db),
                    ("dest_id", Some(id.as_str())),
                    ("standby", standby),
                    ("status", Some(state)),
                ];
                o.int("dgscope_destination_status", "", &labels, v);
            };
            for st in &DEST_STATES {
                emit(st.as_str(), u64::from(*st == d.status));
            }
            if let DestStatus::Other(x) = &d.status {
                emit(x, 1);
            }
        }
    }
}

fn findings(o: &mut Out<'_>, p: &PairSnapshot) {
    let db = p.primary_database();
    for f in &p.findings {
        let labels = [
            ("pair", Some(p.pair.as_str())),
            ("database", db),
            ("id", Some(f.id)),
            ("severity", Some(f.severity.as_str())),
            // Another standby's finding of the same rule is its own series.
            ("standby", f.standby.as_deref()),
        ];
        o.int("dgscope_finding", "", &labels, 1);
    }
}

fn finding_impacts(o: &mut Out<'_>, p: &PairSnapshot) {
    impact_series(o, p, "dgscope_finding_impact_ratio", |i| i.share);
}

fn finding_db_time(o: &mut Out<'_>, p: &PairSnapshot) {
    impact_series(o, p, "dgscope_finding_db_time_ratio", |i| i.db_time_share);
}

/// One series per finding raised now whose figure is known (an unknown share is no series,
/// never 0).
fn impact_series(
    o: &mut Out<'_>,
    p: &PairSnapshot,
    name: &str,
    figure: fn(&dgscope_core::causes::Impact) -> Option<f64>,
) {
    let db = p.primary_database();
    for f in &p.findings {
        let Some(v) = figure(&f.impact) else { continue };
        let labels = [
            ("pair", Some(p.pair.as_str())),
            ("database", db),
            ("id", Some(f.id)),
            ("symptom", Some(f.impact.symptom.as_str())),
            ("standby", f.standby.as_deref()),
        ];
        o.float(name, "", &labels, v);
    }
}

fn commit_components(o: &mut Out<'_>, p: &PairSnapshot) {
    let Some(c) = &p.commit else { return };
    let db = p.primary_database();
    let insts: Vec<(Option<String>, &dgscope_core::causes::CommitDecomposition)> =
        std::iter::once((None, c))
            .chain(c.instances.iter().map(|(id, i)| (Some(id.to_string()), i)))
            .collect();
    for (inst, d) in insts {
        for part in &d.components {
            let labels = [
                ("pair", Some(p.pair.as_str())),
                ("database", db),
                ("component", Some(part.part.as_str())),
                ("inst_id", inst.as_deref()),
            ];
            o.float(
                "dgscope_commit_component_milliseconds",
                "",
                &labels,
                part.amount,
            );
        }
    }
}

fn warming_up(o: &mut Out<'_>, p: &PairSnapshot) {
    o.int(
        "dgscope_warming_up",
        "",
        &[("pair", Some(p.pair.as_str()))],
        u64::from(p.warming_up),
    );
}

/// `Active Apply Rate` 0 means unknown: recovery processes on more than one instance
/// (Multi-Instance Redo Apply), or a standby with more than one open instance.
fn apply_rate_zero_means_unknown(s: &Sample) -> bool {
    let recovery = |p: &dgscope_model::sample::Process| {
        let n = p.name.to_ascii_uppercase();
        let role = p.role.as_deref().unwrap_or("").to_ascii_lowercase();
        n.starts_with("MRP")
            || n.starts_with("PR")
            || n == "MR(FG)"
            || role == "managed recovery"
            || role.starts_with("recovery")
    };
    let insts: std::collections::BTreeSet<u32> = s
        .processes
        .iter()
        .filter(|p| recovery(p))
        .filter_map(|p| p.inst_id)
        .collect();
    insts.len() > 1
        || s.db
            .as_ref()
            .and_then(|d| d.instances)
            .is_some_and(|n| n > 1)
}

/// A stateset: one series per known state, 1 for `current` (and one more for a spelling
/// outside the list).
fn stateset(
    o: &mut Out<'_>,
    name: &str,
    base: [(&'static str, Option<&str>); 3],
    key: &'static str,
    states: &[&str],
    current: &str,
) {
    let [a, b, c] = base;
    let mut known = false;
    for st in states {
        let on = st.eq_ignore_ascii_case(current.trim());
        known |= on;
        o.int(name, "", &[a, b, c, (key, Some(st))], u64::from(on));
    }
    if !known {
        o.int(name, "", &[a, b, c, (key, Some(current.trim()))], 1);
    }
}

const APPLY_STATES: [&str; 5] = [
    "running",
    "waiting-for-gap",
    "stopped",
    "off",
    "not-applicable",
];
const TRANSPORT_STATES: [&str; 4] = ["shipping", "gap", "error", "not-shipping"];

/// The overview's row of a current standby slot.
fn members(
    p: &PairSnapshot,
) -> impl Iterator<Item = (&SlotSnapshot, &dgscope_core::causes::MemberState)> {
    current(p).filter_map(|(s, _)| {
        let m = p
            .overview
            .standbys
            .iter()
            .find(|m| m.slot == s.slot.as_str())?;
        (!m.stale).then_some((s, m))
    })
}

fn recovery_area(
    o: &mut Out<'_>,
    p: &PairSnapshot,
    name: &str,
    get: fn(&dgscope_model::sample::Fra) -> u64,
) {
    for s in &p.slots {
        // A limit of 0: no recovery area is configured, nothing to fill.
        if let Some(f) = s.fra.as_ref().filter(|f| f.limit_bytes > 0) {
            o.float(name, "", &base(p, s), get(f) as f64);
        }
    }
}

fn apply_delay(o: &mut Out<'_>, p: &PairSnapshot) {
    for (s, m) in members(p) {
        if let Some(d) = m.delay_s.filter(|d| d.is_finite()) {
            o.float("dgscope_apply_delay_seconds", "", &base(p, s), d);
        }
    }
}

fn apply_state(o: &mut Out<'_>, p: &PairSnapshot) {
    use crate::report::overview::apply_code;
    for (s, m) in members(p) {
        if m.apply == dgscope_core::causes::ApplyState::Unknown {
            continue;
        }
        let code = apply_code(&m.apply);
        stateset(
            o,
            "dgscope_apply_state",
            base(p, s),
            "state",
            &APPLY_STATES,
            code,
        );
    }
}

fn transport_state(o: &mut Out<'_>, p: &PairSnapshot) {
    use crate::report::overview::transport_code;
    use dgscope_core::causes::TransportState;
    for (s, m) in members(p) {
        if matches!(
            m.transport,
            TransportState::Unknown | TransportState::StandbyDown
        ) {
            continue;
        }
        let code = transport_code(&m.transport);
        stateset(
            o,
            "dgscope_transport_state",
            base(p, s),
            "state",
            &TRANSPORT_STATES,
            code,
        );
    }
}

/// `V$DATABASE.SWITCHOVER_STATUS` values (Oracle Database Reference).
const SWITCHOVER_STATES: [&str; 13] = [
    "NOT ALLOWED",
    "SESSIONS ACTIVE",
    "SWITCHOVER PENDING",
    "SWITCHOVER LATENT",
    "TO PRIMARY",
    "TO STANDBY",
    "TO LOGICAL STANDBY",
    "RECOVERY NEEDED",
    "PREPARING SWITCHOVER",
    "PREPARING DICTIONARY",
    "FAILED DESTINATION",
    "RESOLVABLE GAP",
    "UNRESOLVABLE GAP",
];

fn switchover_status(o: &mut Out<'_>, p: &PairSnapshot) {
    for (s, c) in current(p) {
        let Some(st) = c.db.as_ref().and_then(|d| d.switchover_status.as_deref()) else {
            continue;
        };
        if st.trim().is_empty() {
            continue;
        }
        stateset(
            o,
            "dgscope_switchover_status",
            base(p, s),
            "status",
            &SWITCHOVER_STATES,
            st,
        );
    }
}

/// The current primary's sample (by role).
fn primary_now(p: &PairSnapshot) -> Option<(&SlotSnapshot, &Sample)> {
    current(p).find(|(_, c)| c.role() == Some(&dgscope_model::sample::Role::Primary))
}

fn switchover_ready(o: &mut Out<'_>, p: &PairSnapshot) {
    let Some((s, c)) = primary_now(p) else { return };
    let Some(st) = c.db.as_ref().and_then(|d| d.switchover_status.as_deref()) else {
        return;
    };
    if st.trim().is_empty() {
        return;
    }
    let st = st.trim().to_ascii_uppercase();
    let ready = st == "TO STANDBY" || st == "SESSIONS ACTIVE";
    o.int(
        "dgscope_switchover_ready",
        "",
        &base(p, s),
        u64::from(ready),
    );
}

/// `V$DATABASE.FS_FAILOVER_STATUS` values (Oracle Database Reference).
const FSFO_STATES: [&str; 11] = [
    "DISABLED",
    "BYSTANDER",
    "SYNCHRONIZED",
    "UNSYNCHRONIZED",
    "SUSPENDED",
    "STALLED",
    "LOADING DICTIONARY",
    "PRIMARY UNOBSERVED",
    "REINSTATE REQUIRED",
    "TARGET OVER LAG LIMIT",
    "TARGET UNDER LAG LIMIT",
];

/// The primary's fast-start failover fields, when its newest sample is current and has them.
fn fsfo_now(p: &PairSnapshot) -> Option<(&SlotSnapshot, dgscope_core::causes::Fsfo)> {
    let (s, c) = primary_now(p)?;
    let d = c.db.as_ref()?;
    let status = d.fs_failover_status.as_deref()?.trim();
    if status.is_empty() {
        return None;
    }
    Some((
        s,
        dgscope_core::causes::Fsfo {
            status: status.to_string(),
            target: d.fs_failover_target.as_ref().map(|n| n.to_string()),
            threshold_s: d.fs_failover_threshold_s,
            observer_present: d.fs_failover_observer_present,
            observer_host: d.fs_failover_observer_host.as_ref().map(|n| n.to_string()),
            lag_limit_s: d.fs_failover_lag_limit_s,
        },
    ))
}

fn fsfo_status(o: &mut Out<'_>, p: &PairSnapshot) {
    if let Some((s, f)) = fsfo_now(p) {
        stateset(
            o,
            "dgscope_fsfo_status",
            base(p, s),
            "status",
            &FSFO_STATES,
            &f.status,
        );
    }
}

fn fsfo_ready(o: &mut Out<'_>, p: &PairSnapshot) {
    if let Some((s, f)) = fsfo_now(p).filter(|(_, f)| f.enabled()) {
        o.int("dgscope_fsfo_ready", "", &base(p, s), u64::from(f.ready()));
    }
}

fn fsfo_observer(o: &mut Out<'_>, p: &PairSnapshot) {
    if let Some((s, f)) = fsfo_now(p).filter(|(_, f)| f.enabled()) {
        if let Some(present) = f.observer_present {
            o.int(
                "dgscope_fsfo_observer_present",
                "",
                &base(p, s),
                u64::from(present),
            );
        }
    }
}

fn fsfo_target(o: &mut Out<'_>, p: &PairSnapshot) {
    if let Some((s, f)) = fsfo_now(p).filter(|(_, f)| f.enabled()) {
        if f.target.is_none() && f.observer_host.is_none() {
            return;
        }
        let [a, b, c] = base(p, s);
        let labels = [
            a,
            b,
            c,
            ("target", f.target.as_deref()),
            ("observer_host", f.observer_host.as_deref()),
        ];
        o.int("dgscope_fsfo_target_info", "", &labels, 1);
    }
}
