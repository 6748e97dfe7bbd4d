//! Uniform rows (sql.rs) → one `Sample`. RAC: GV$ rows of all instances are summed into one
//! value per counter (what the contract holds); per-instance detail survives where the
//! contract has room for it (threads of logs, switches and processes; hosts joined).

use super::driver::Row;
use super::messages::{MessageCursor, RawMessage};
use super::parse;
use super::probe::Probe;
use dgscope_model::sample::{
    Bucket, DbInfo, Dest, DestStatus, DgMember, DgMessage, DgStats, Event, FlatMap, Fra, Gap,
    InstanceSample, IoStat, LagHistRow, Log, LogStatus, LogSwitch, Name, OpenMode, PartError,
    Process, Recovery, Role, Sample, Slot, TransmitMode, Unrecoverable, WaitNow, WAITS_NOW_MAX,
};
use dgscope_model::timestamp::Timestamp;
use dgscope_model::units::{Micros, Secs};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// What the mapper needs besides the rows.
#[derive(Debug, Clone)]
pub struct MapInput<'a> {
    /// Client time when the round trip completed.
    pub t: Timestamp,
    pub slot: Slot,
    pub query_us: Option<Micros>,
    pub probe: &'a Probe,
    /// Parts that ran this tick: a slow part not fetched now leaves its field `None`.
    pub included: &'a BTreeSet<&'static str>,
    /// Parts that failed (missing grant …), carried on every sample.
    pub errors: Vec<PartError>,
}

const SRC: usize = 0;
const INST: usize = 1;
const K1: usize = 2;
const K2: usize = 3;
const N1: usize = 4;
const S1: usize = 10;
const SEP: char = '\u{1f}';

fn text(r: &Row, i: usize) -> Option<&str> {
    r.get(i)
        .and_then(|c| c.as_deref())
        .map(str::trim)
        .filter(|s| !s.is_empty())
}
fn num(r: &Row, n: usize) -> Option<f64> {
    text(r, N1 + n - 1).and_then(parse::number)
}
fn cnt(r: &Row, n: usize) -> Option<u64> {
    text(r, N1 + n - 1).and_then(parse::counter)
}
fn inst(r: &Row) -> u32 {
    opt_inst(r).unwrap_or(0)
}
fn opt_inst(r: &Row) -> Option<u32> {
    text(r, INST).and_then(|s| s.parse().ok())
}
fn small(r: &Row, n: usize) -> Option<u32> {
    cnt(r, n).and_then(|v| u32::try_from(v).ok())
}
/// Fields joined with CHR(31); a NULL concatenates as empty, so positions hold.
fn fields(r: &Row) -> Vec<&str> {
    r.get(S1)
        .and_then(|c| c.as_deref())
        .map(|s| s.split(SEP).map(str::trim).collect())
        .unwrap_or_default()
}
fn nonempty(s: Option<&&str>) -> Option<Name> {
    s.filter(|v| !v.is_empty()).map(|v| Name::new(v))
}
/// `YES`/`NO` as Oracle spells it; NULL or anything else is not known.
fn yes_no(s: Option<&&str>) -> Option<bool> {
    match s.map(|v| v.to_ascii_uppercase()) {
        Some(v) if v == "YES" => Some(true),
        Some(v) if v == "NO" => Some(false),
        _ => None,
    }
}
/// A whole number carried as text in s1 (`TO_CHAR` of an integer column); NULL is absent.
fn text_counter(s: Option<&&str>) -> Option<u64> {
    s.filter(|v| !v.is_empty()).and_then(|v| parse::counter(v))
}

/// The database clock: naive (local) epoch seconds → UTC `Timestamp`.
#[derive(Debug, Clone, Copy)]
struct DbClock {
    offset_s: i64,
}

impl DbClock {
    /// From SYSDATE (local) and SYS_EXTRACT_UTC(SYSTIMESTAMP) of the same row; time zones
    /// are whole quarter hours, which also absorbs the instant between the two calls.
    fn from_rows(rows: &[&Row]) -> DbClock {
        let offset_s = rows
            .iter()
            .find_map(|r| {
                let quarters = ((num(r, 2)? - num(r, 3)?) / 900.0).round();
                // Real zones lie within ±14 h; anything else is not a clock reading.
                (quarters.abs() <= 18.0 * 4.0).then(|| quarters as i64 * 900)
            })
            .unwrap_or(0);
        DbClock { offset_s }
    }
    /// Only instants between 1970 and 2200 are believed: anything else is garbage that would
    /// only break a recording.
    fn ts(self, naive_s: f64) -> Option<Timestamp> {
        let utc = naive_s - self.offset_s as f64;
        (utc.is_finite() && (0.0..7_258_118_400.0).contains(&utc))
            .then(|| Timestamp::from_millis((utc * 1000.0).round() as i64))
    }
    fn parse(self, s: &str) -> Option<Timestamp> {
        parse::oracle_datetime_naive(s).and_then(|n| self.ts(n as f64))
    }
}

/// As [`to_sample_with`] for a database seen for the first time (no message seen yet).
pub fn to_sample(rows: &[Row], m: MapInput<'_>) -> Sample {
    to_sample_with(rows, m, &mut MessageCursor::default())
}

/// One sample; `messages` remembers which `V$DATAGUARD_STATUS` rows earlier samples of the
/// same database already carried.
pub fn to_sample_with(rows: &[Row], m: MapInput<'_>, messages: &mut MessageCursor) -> Sample {
    let mut by: BTreeMap<&str, Vec<&Row>> = BTreeMap::new();
    for r in rows {
        if let Some(tag) = text(r, SRC) {
            by.entry(tag).or_default().push(r);
        }
    }
    let get = |tag: &str| by.get(tag).cloned().unwrap_or_default();
    let clock = DbClock::from_rows(&get("CLK"));
    let mut s = Sample::new(m.t, m.slot.clone());
    s.query_us = m.query_us;
    let mut db = db_info(&get("CLK"), &get("DB"), m.probe, clock);
    if m.included.contains("fsfo_lag_limit") {
        db.fs_failover_lag_limit_s = get("FSL")
            .iter()
            .filter(|r| {
                text(r, K1).is_some_and(|p| p.eq_ignore_ascii_case("FastStartFailoverLagLimit"))
            })
            .find_map(|r| text(r, S1).and_then(parse::counter));
    }
    s.db = Some(db.into());
    s.events = events(&get("EVT"), &get("HIST"));
    top_waits(&mut s.events, &get("TOPW"));
    s.stats = sum_counters(&get("STAT"));
    s.time_model = sum_counters(&get("TM"));
    s.os = os(&get("OS"));
    s.instances = instances(
        &get("CLK"),
        &get("EVT"),
        &get("HIST"),
        &get("STAT"),
        &get("OS"),
    );
    s.iostat = iostat(&get("IOF"));
    s.cdb = m.probe.cdb;
    s.dests = dests(&get("DEST"), &get("RESP"), clock);
    let inc = |p: &str| m.included.contains(p);
    // A far sync instance is not a primary either: it has a transport lag, gaps and
    // messages, but never applies (its sample has no apply lag, whatever a view says).
    let is_standby = m.probe.role != Role::Primary;
    let far_sync = m.probe.kind() == super::sql::DbKind::FarSync;
    s.processes = processes(&get("PROC")).into();
    if inc("dg") && is_standby {
        // RAC: the figures of the instance running MRP0, else of the session's own.
        let mrp = s
            .processes
            .iter()
            .find(|p| p.name.to_ascii_uppercase().starts_with("MRP"))
            .and_then(|p| p.inst_id);
        let mut d = dg(&get("DGS"), clock, [mrp, m.probe.instance_number]);
        if far_sync {
            d.apply_lag_s = None;
            d.apply_finish_s = None;
        }
        s.dg = Some(d);
    }
    s.recovery = recovery(&get("RP"), clock);
    if inc("gaps") && is_standby {
        s.gaps = Some(gaps(&get("GAP")));
    }
    if inc("fra") {
        s.fra = fra(&get("FRA"));
    }
    if inc("dg_messages") {
        let startups: BTreeMap<u32, Timestamp> = get("CLK")
            .iter()
            .filter_map(|r| Some((opt_inst(r)?, clock.ts(num(r, 1)?)?)))
            .collect();
        s.dg_messages = Some(messages.take(dg_messages(&get("DGM"), clock), &startups));
    }
    let open_mode = s.db.as_ref().and_then(|d| d.open_mode.clone());
    let real_time_query = matches!(
        open_mode,
        Some(OpenMode::ReadOnlyWithApply | OpenMode::ReadOnly)
    );
    // Rows only exist with real-time query (ADG); a mounted standby has no such data at all.
    if inc("lag_hist") && real_time_query {
        s.lag_hist = Some(lag_hist(&get("SEH")));
    }
    if inc("params") {
        s.params = Some(Arc::new(
            get("PAR")
                .iter()
                .filter_map(|r| Some((Name::new(text(r, K1)?), Name::new(fields(r).first()?))))
                .collect(),
        ));
    }
    if inc("logs") || inc("standby_logs") {
        s.logs = Some(Arc::new(dgscope_model::sample::Logs {
            online: logs(&get("LOG")),
            standby: logs(&get("SRL")),
        }));
    }
    if inc("switches") {
        let mut sw: Vec<LogSwitch> = get("SW")
            .iter()
            .filter_map(|r| {
                Some(LogSwitch {
                    thread: inst(r),
                    sequence: cnt(r, 1)?,
                    time: clock.ts(num(r, 2)?)?,
                })
            })
            .collect();
        sw.sort_by_key(|x| (x.time, x.thread, x.sequence));
        s.switches = Some(Arc::new(sw));
    }
    if inc("dg_config") {
        s.dg_config = Some(Arc::new(dg_config(&get("DGC"))));
    }
    if inc("unrecoverable") {
        s.unrecoverable = Some(Arc::new(unrecoverable(&get("UNR"), clock)));
    }
    if inc("waits_now") {
        s.waits_now = Some(waits_now(&get("WAIT")));
    }
    s.errors = m.errors;
    if m.probe.cdb == Some(true) && inc("iostat") {
        if let Some(w) = root_only_warning(&get("IOF")) {
            s.errors.push(w);
        }
    }
    s
}

/// RAC: each instance's events, statistics and OS figures as read, keyed by `INST_ID` so
/// the order rows arrive in does not matter. `None` unless more than one instance answered.
fn instances(
    clk: &[&Row],
    evt: &[&Row],
    hist: &[&Row],
    stat: &[&Row],
    osr: &[&Row],
) -> Option<Vec<InstanceSample>> {
    let mut ids: BTreeSet<u32> = clk.iter().filter_map(|r| opt_inst(r)).collect();
    for rows in [evt, hist, stat, osr] {
        ids.extend(rows.iter().filter_map(|r| opt_inst(r)));
    }
    if ids.len() < 2 {
        return None;
    }
    fn of<'a>(rows: &[&'a Row], id: u32) -> Vec<&'a Row> {
        rows.iter()
            .copied()
            .filter(|r| opt_inst(r) == Some(id))
            .collect()
    }
    Some(
        ids.into_iter()
            .map(|id| InstanceSample {
                inst_id: id,
                host: of(clk, id).first().and_then(|r| text(r, S1)).map(Name::new),
                events: events(&of(evt, id), &of(hist, id)),
                stats: sum_counters(&of(stat, id)),
                os: os(&of(osr, id)),
            })
            .collect(),
    )
}

/// In a CDB every database has PDB$SEED (CON_ID 2) besides the root, so data files with a
/// CON_ID above 1 are always there: when none is, the user sees the root's rows only (a
/// common user without `CONTAINER_DATA`) and the I/O figures leave out the PDBs' files.
fn root_only_warning(iof: &[&Row]) -> Option<PartError> {
    let data: Vec<u64> = iof
        .iter()
        .filter(|r| text(r, K1).is_some_and(|k| k.eq_ignore_ascii_case("Data File")))
        .filter_map(|r| text(r, S1).and_then(parse::counter))
        .collect();
    (!data.is_empty() && data.iter().all(|&c| c <= 1)).then(|| PartError {
        part: "iostat".into(),
        code: "CONTAINER_DATA".into(),
        message: "V$IOSTAT_FILE shows only CDB$ROOT's data files: the PDBs' I/O is missing. \
                  Give the common user CONTAINER_DATA=ALL (see dgscope grants --cdb)"
            .into(),
    })
}

/// `V$DATAGUARD_CONFIG` rows in the view's order (the first is this database).
fn dg_config(rows: &[&Row]) -> Vec<DgMember> {
    let mut out: Vec<DgMember> = Vec::new();
    for r in rows {
        let Some(name) = text(r, K1) else { continue };
        if out.iter().any(|m| m.name == name) {
            continue;
        }
        out.push(DgMember {
            name: Name::new(name),
            parent: text(r, S1)
                .filter(|p| !p.eq_ignore_ascii_case("NONE"))
                .map(Name::new),
            role: text(r, K2).map(Name::new),
        });
    }
    out
}

fn db_info(clk: &[&Row], db: &[&Row], probe: &Probe, clock: DbClock) -> DbInfo {
    let dbr = db.first();
    let f = dbr.map(|r| fields(r)).unwrap_or_default();
    let mut hosts: Vec<(u32, &str)> = clk
        .iter()
        .filter_map(|r| Some((inst(r), text(r, S1)?)))
        .collect();
    hosts.sort();
    hosts.dedup_by(|a, b| a.1 == b.1);
    // Any instance restarting resets its share of the summed counters: the latest startup
    // is what tells metrics not to take a delta across it.
    let startup = clk.iter().filter_map(|r| clock.ts(num(r, 1)?)).max();
    DbInfo {
        name: nonempty(f.first()).or_else(|| probe.db_unique_name.as_deref().map(Name::new)),
        role: Some(
            dbr.and_then(|r| text(r, K1))
                .map(Role::from)
                .unwrap_or_else(|| probe.role.clone()),
        ),
        open_mode: Some(
            dbr.and_then(|r| text(r, K2))
                .map(OpenMode::from)
                .unwrap_or_else(|| probe.open_mode.clone()),
        ),
        protection_mode: nonempty(f.get(1))
            .or_else(|| probe.protection_mode.as_deref().map(Name::new)),
        protection_level: nonempty(f.get(2))
            .or_else(|| probe.protection_level.as_deref().map(Name::new)),
        version: Some(Name::new(probe.release())),
        startup,
        host: (!hosts.is_empty()).then(|| {
            hosts
                .iter()
                .map(|h| h.1)
                .collect::<Vec<_>>()
                .join(",")
                .into()
        }),
        instances: Some(if clk.is_empty() {
            probe.instances
        } else {
            clk.len() as u32
        }),
        switchover_status: nonempty(f.get(3)),
        dataguard_broker: nonempty(f.get(4)),
        fs_failover_status: nonempty(f.get(5)),
        fs_failover_target: nonempty(f.get(6)),
        fs_failover_threshold_s: dbr.and_then(|r| cnt(r, 1)),
        fs_failover_observer_present: yes_no(f.get(7)),
        fs_failover_observer_host: nonempty(f.get(8)),
        force_logging: nonempty(f.get(9)),
        flashback_on: nonempty(f.get(10)),
        // FastStartFailoverLagLimit comes from its own part (21c+, see to_sample_with);
        // no fixed view exposes the broker's intended state (docs/ORACLE.md).
        ..DbInfo::default()
    }
}

/// `V$DATAFILE` rows with an unrecoverable change, by file; a row without its file number or
/// change is left out, a NULL time stays absent.
fn unrecoverable(rows: &[&Row], clock: DbClock) -> Vec<Unrecoverable> {
    let mut out: Vec<Unrecoverable> = rows
        .iter()
        .filter_map(|r| {
            Some(Unrecoverable {
                file: small(r, 1)?,
                change: cnt(r, 2).filter(|&c| c > 0)?,
                time: num(r, 3).and_then(|n| clock.ts(n)),
            })
        })
        .collect();
    out.sort_by_key(|u| (u.file, u.change));
    out
}

/// `V$SESSION`'s in-flight waits by event, longest first. A row without its event or count
/// is left out; a NULL or negative wait time is no duration (a row is dropped rather than
/// shown as a 0 s wait). At most [`WAITS_NOW_MAX`], whatever came back.
fn waits_now(rows: &[&Row]) -> Vec<WaitNow> {
    let mut out: Vec<WaitNow> = rows
        .iter()
        .filter_map(|r| {
            Some(WaitNow {
                event: Name::new(text(r, K1)?),
                class: text(r, K2).map(Name::new),
                sessions: small(r, 1).filter(|&n| n > 0)?,
                longest_s: num(r, 2).filter(|v| *v >= 0.0)? / 1e6,
                blocker: fields(r).first().copied().and_then(|b| nonempty(Some(&b))),
            })
        })
        .collect();
    out.sort_by(|a, b| {
        b.longest_s
            .total_cmp(&a.longest_s)
            .then_with(|| a.event.cmp(&b.event))
    });
    out.truncate(WAITS_NOW_MAX);
    out
}

fn events(evt: &[&Row], hist: &[&Row]) -> FlatMap<Name, Event> {
    let mut out: FlatMap<Name, Event> = FlatMap::new();
    for r in evt {
        let (Some(name), Some(waits), Some(us)) = (text(r, K1), cnt(r, 1), cnt(r, 2)) else {
            continue;
        };
        let e = out.get_or_insert_with(Name::new(name), Event::default);
        e.waits = e.waits.saturating_add(waits);
        e.us = Micros(e.us.0.saturating_add(us));
        // Summed over the instances that report them; NULL stays absent, never 0.
        if let Some(w) = cnt(r, 3) {
            e.waits_fg = Some(e.waits_fg.unwrap_or(0).saturating_add(w));
        }
        if let Some(u) = cnt(r, 4) {
            e.us_fg = Some(Micros(e.us_fg.map_or(0, |x| x.0).saturating_add(u)));
        }
    }
    let mut buckets: BTreeMap<&str, BTreeMap<u64, u64>> = BTreeMap::new();
    for r in hist {
        let (Some(name), Some(bound), Some(count)) = (text(r, K1), cnt(r, 1), cnt(r, 2)) else {
            continue;
        };
        let bound_us = if text(r, K2) == Some("ms") {
            bound.saturating_mul(1000)
        } else {
            bound
        };
        if count > 0 {
            let c = buckets
                .entry(name)
                .or_default()
                .entry(bound_us)
                .or_default();
            *c = c.saturating_add(count);
        }
    }
    for (name, b) in buckets {
        // A histogram without its event row (grant missing on one view) has no home in the
        // contract: an Event needs waits and time.
        if let Some(e) = out.get_mut(name) {
            e.hist = b.into_iter().map(|(u, c)| Bucket(Micros(u), c)).collect();
        }
    }
    out
}

/// The database's top waits (`TOPW`), each with its wait class: added to the events read by
/// name, never over one of them (the commit path's events keep their own rows, per instance).
fn top_waits(events: &mut FlatMap<Name, Event>, rows: &[&Row]) {
    for r in rows {
        let (Some(name), Some(waits), Some(us)) = (text(r, K1), cnt(r, 1), cnt(r, 2)) else {
            continue;
        };
        if events.contains_key(name) {
            continue;
        }
        events.insert(
            Name::new(name),
            Event {
                waits,
                us: Micros(us),
                hist: Vec::new(),
                waits_fg: cnt(r, 3),
                us_fg: cnt(r, 4).map(Micros),
                class: Some(Name::new(text(r, K2).unwrap_or("Other"))),
            },
        );
    }
}

fn sum_counters(rows: &[&Row]) -> FlatMap<Name, u64> {
    let mut out: FlatMap<Name, u64> = FlatMap::new();
    for r in rows {
        if let (Some(name), Some(v)) = (text(r, K1), cnt(r, 1)) {
            let e = out.get_or_insert_with(Name::new(name), || 0);
            *e = e.saturating_add(v);
        }
    }
    out
}

fn os(rows: &[&Row]) -> FlatMap<Name, f64> {
    let mut out: FlatMap<Name, f64> = FlatMap::new();
    for r in rows {
        let (Some(name), Some(v)) = (text(r, K1), num(r, 1)) else {
            continue;
        };
        let e = out.get_or_insert_with(Name::new(name), || 0.0);
        // LOAD is a host's run queue, not a counter: the busiest host is the one that matters.
        if name == dgscope_model::sample::names::os::LOAD {
            *e = e.max(v);
        } else {
            *e += v;
        }
    }
    // A sum that overflowed is not a reading; a recording cannot hold it either.
    out.retain(|_, v| v.is_finite());
    out
}

fn iostat(rows: &[&Row]) -> FlatMap<Name, IoStat> {
    let mut out: FlatMap<Name, IoStat> = FlatMap::new();
    for r in rows {
        let Some(ft) = text(r, K1) else { continue };
        let e = out.get_or_insert_with(Name::new(ft), IoStat::default);
        let add = |a: &mut u64, n: usize| *a = a.saturating_add(cnt(r, n).unwrap_or(0));
        add(&mut e.rreq, 1);
        add(&mut e.wreq, 2);
        add(&mut e.rmb, 3);
        add(&mut e.wmb, 4);
        add(&mut e.rms, 5);
        add(&mut e.wms, 6);
    }
    out
}

fn dests(dest: &[&Row], resp: &[&Row], clock: DbClock) -> Vec<Dest> {
    let mut out: BTreeMap<u32, Dest> = BTreeMap::new();
    for r in dest {
        let Some(id) = text(r, K1).and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let f = fields(r);
        let status = DestStatus::from(f.first().copied().unwrap_or(""));
        let mode = TransmitMode::from(transmit_mode(text(r, K2).unwrap_or("")));
        let db_unique_name = nonempty(f.get(3)).filter(|n| !n.eq_ignore_ascii_case("NONE"));
        let name = db_unique_name.clone().or_else(|| nonempty(f.get(4)));
        let row = Dest {
            id,
            name,
            status,
            mode,
            affirm: f.get(1).is_some_and(|a| a.eq_ignore_ascii_case("YES")),
            compression: nonempty(f.get(2)),
            net_timeout_s: cnt(r, 1),
            gap: nonempty(f.get(5)),
            error: nonempty(f.get(6)),
            archived_seq: cnt(r, 2),
            applied_seq: cnt(r, 3),
            resp_hist: Vec::new(),
            db_unique_name,
            dest_type: nonempty(f.get(7)),
            delay_mins: small(r, 4),
            recovery_mode: nonempty(f.get(8)),
            database_mode: nonempty(f.get(9)),
            synchronization_status: nonempty(f.get(10)),
            srl_count: small(r, 5),
            srl_active: small(r, 6),
            reopen_secs: text_counter(f.get(11)),
            max_failure: text_counter(f.get(12)).and_then(|v| u32::try_from(v).ok()),
            failure_count: text_counter(f.get(13)).and_then(|v| u32::try_from(v).ok()),
            fail_date: f
                .get(14)
                .filter(|v| !v.is_empty())
                .and_then(|v| parse::number(v))
                .and_then(|n| clock.ts(n)),
            binding: nonempty(f.get(15)),
        };
        match out.get_mut(&id) {
            None => {
                out.insert(id, row);
            }
            // RAC: one row per instance. A problem on any instance is the dest's problem.
            Some(d) => {
                if !d.has_gap() && row.has_gap() {
                    d.gap = row.gap.clone();
                }
                if d.status == DestStatus::Valid && row.status != DestStatus::Valid {
                    d.status = row.status;
                }
                if d.error.is_none() {
                    d.error = row.error;
                }
                d.archived_seq = d.archived_seq.max(row.archived_seq);
                d.applied_seq = d.applied_seq.max(row.applied_seq);
                // The destination's settings and its standby's state are the same whichever
                // instance reports them; an instance that could not say leaves the others'.
                d.db_unique_name = d.db_unique_name.take().or(row.db_unique_name);
                d.dest_type = d.dest_type.take().or(row.dest_type);
                d.delay_mins = d.delay_mins.max(row.delay_mins);
                d.recovery_mode = d.recovery_mode.take().or(row.recovery_mode);
                d.database_mode = d.database_mode.take().or(row.database_mode);
                d.synchronization_status = d
                    .synchronization_status
                    .take()
                    .or(row.synchronization_status);
                d.srl_count = d.srl_count.or(row.srl_count);
                d.srl_active = d.srl_active.or(row.srl_active);
                d.reopen_secs = d.reopen_secs.or(row.reopen_secs);
                d.max_failure = d.max_failure.or(row.max_failure);
                // Each instance ships its own redo: the worst instance's failures and the
                // latest failure are the destination's.
                d.failure_count = d.failure_count.max(row.failure_count);
                d.fail_date = d.fail_date.max(row.fail_date);
                d.binding = d.binding.take().or(row.binding);
            }
        }
    }
    let mut hist: BTreeMap<(u32, u64), u64> = BTreeMap::new();
    for r in resp {
        let (Some(id), Some(dur), Some(freq)) = (
            text(r, K1).and_then(|s| s.parse::<u32>().ok()),
            cnt(r, 1),
            cnt(r, 2),
        ) else {
            continue;
        };
        let c = hist.entry((id, dur)).or_default();
        *c = c.saturating_add(freq);
    }
    for ((id, dur), freq) in hist {
        if let Some(d) = out.get_mut(&id) {
            d.resp_hist.push((dur, freq));
        }
    }
    out.into_values().collect()
}

/// `SYNCHRONOUS`/`ASYNCHRONOUS` as scripts print them, or `SYNC`/`ASYNC`; PARALLELSYNC kept.
fn transmit_mode(s: &str) -> &str {
    let u = s.trim();
    if u.eq_ignore_ascii_case("SYNCHRONOUS") {
        "SYNC"
    } else if u.eq_ignore_ascii_case("ASYNCHRONOUS") {
        "ASYNC"
    } else {
        u
    }
}

/// `prefer`: instances to read the figures from, in order (MRP0's, then the session's); the
/// lowest instance that has rows otherwise.
fn dg(rows: &[&Row], clock: DbClock, prefer: [Option<u32>; 2]) -> DgStats {
    let has = |i: u32| rows.iter().any(|r| opt_inst(r) == Some(i));
    let pick = prefer
        .into_iter()
        .flatten()
        .find(|&i| has(i))
        .or_else(|| rows.iter().filter_map(|r| opt_inst(r)).min());
    let mut out = DgStats {
        inst_id: pick,
        ..DgStats::default()
    };
    let mut times: BTreeMap<String, (Option<Timestamp>, Option<Timestamp>)> = BTreeMap::new();
    for r in rows {
        if pick.is_some() && opt_inst(r) != pick {
            continue;
        }
        let Some(name) = text(r, K1) else { continue };
        let f = fields(r);
        let value = f.first().and_then(|v| parse::interval_secs(v)).map(Secs);
        let computed = f.get(1).and_then(|v| clock.parse(v));
        let datum = f.get(2).and_then(|v| clock.parse(v));
        let name = name.to_ascii_lowercase();
        match name.as_str() {
            "transport lag" => out.transport_lag_s = value,
            "apply lag" => out.apply_lag_s = value,
            "apply finish time" => out.apply_finish_s = value,
            _ => {}
        }
        times.insert(name, (computed, datum));
    }
    // DATUM_TIME says when data last arrived: the apply lag row's is the one the docs use.
    let pick = times
        .get("apply lag")
        .or_else(|| times.get("transport lag"))
        .copied()
        .unwrap_or((None, None));
    out.computed = pick.0;
    out.datum = pick.1;
    out
}

/// `V$ARCHIVE_GAP` rows (THREAD# travels in the instance slot).
fn gaps(rows: &[&Row]) -> Vec<Gap> {
    let mut out: Vec<Gap> = rows
        .iter()
        .filter_map(|r| {
            Some(Gap {
                thread: opt_inst(r)?,
                low: cnt(r, 1)?,
                high: cnt(r, 2)?,
            })
        })
        .collect();
    out.sort_by_key(|g| (g.thread, g.low, g.high));
    out.dedup();
    out
}

/// The first row with a limit and a use; no row (or only unreadable ones) is "not known".
fn fra(rows: &[&Row]) -> Option<Fra> {
    rows.iter().find_map(|r| {
        Some(Fra {
            limit_bytes: cnt(r, 1)?,
            used_bytes: cnt(r, 2)?,
            reclaimable_bytes: cnt(r, 3).unwrap_or(0),
            files: cnt(r, 4),
        })
    })
}

/// `V$DATAGUARD_STATUS` rows as read; which are new is the cursor's business.
fn dg_messages(rows: &[&Row], clock: DbClock) -> Vec<RawMessage> {
    rows.iter()
        .filter_map(|r| {
            Some(RawMessage {
                inst: inst(r),
                num: cnt(r, 1)?,
                msg: DgMessage {
                    // A message without a readable time is left out rather than misdated.
                    time: clock.ts(num(r, 4)?)?,
                    severity: text(r, K1)?.to_string(),
                    facility: text(r, K2).map(str::to_string),
                    error_code: num(r, 2)
                        .filter(|v| v.fract() == 0.0 && v.abs() < 1e15)
                        .map(|v| v as i64),
                    dest_id: small(r, 3),
                    message: text(r, S1).unwrap_or("").to_string(),
                },
            })
        })
        .collect()
}

fn recovery(rows: &[&Row], clock: DbClock) -> Option<Recovery> {
    if rows.is_empty() {
        return None;
    }
    let mut rec = Recovery::default();
    for r in rows {
        let Some(item) = text(r, K1) else { continue };
        let sofar = num(r, 1);
        match item.to_ascii_lowercase().as_str() {
            "active apply rate" => rec.active_apply_kbps = sofar,
            "average apply rate" => rec.average_apply_kbps = sofar,
            "maximum apply rate" => rec.max_apply_kbps = sofar,
            "redo applied" => rec.redo_applied_mb = sofar,
            "last applied redo" => rec.last_applied = num(r, 3).and_then(|n| clock.ts(n)),
            "apply time per log" => rec.apply_time_per_log_s = sofar,
            "checkpoint time per log" => rec.checkpoint_time_per_log_s = sofar,
            _ => {}
        }
    }
    Some(rec)
}

fn processes(rows: &[&Row]) -> Vec<Process> {
    let mut out: Vec<Process> = rows
        .iter()
        .filter_map(|r| {
            Some(Process {
                name: Name::new(text(r, K1)?),
                role: text(r, K2).map(Name::new),
                action: fields(r)
                    .first()
                    .filter(|s| !s.is_empty())
                    .map(|s| Name::new(s)),
                thread: small(r, 1),
                sequence: cnt(r, 2),
                delay_mins: small(r, 3),
                inst_id: opt_inst(r),
            })
        })
        .collect();
    out.sort_by(|a, b| (&a.name, a.thread, a.sequence).cmp(&(&b.name, b.thread, b.sequence)));
    out
}

fn lag_hist(rows: &[&Row]) -> Vec<LagHistRow> {
    let mut out: Vec<LagHistRow> = rows
        .iter()
        .filter_map(|r| {
            let factor = match text(r, K2)?.to_ascii_lowercase().trim_end_matches('s') {
                "second" => 1,
                "minute" => 60,
                "hour" => 3600,
                "day" => 86_400,
                // An unknown unit would make a wrong number; leave the row out.
                _ => return None,
            };
            Some(LagHistRow {
                name: Name::new(text(r, K1)?),
                lag_s: cnt(r, 1)?.saturating_mul(factor),
                count: cnt(r, 2)?,
            })
        })
        .collect();
    out.sort_by(|a, b| (&a.name, a.lag_s).cmp(&(&b.name, b.lag_s)));
    out
}

fn logs(rows: &[&Row]) -> Vec<Log> {
    let mut out: Vec<Log> = rows
        .iter()
        .filter_map(|r| {
            Some(Log {
                group: text(r, K1)?.parse().ok()?,
                thread: inst(r),
                sequence: cnt(r, 2).unwrap_or(0),
                bytes: cnt(r, 1)?,
                members: cnt(r, 3).and_then(|m| u32::try_from(m).ok()).unwrap_or(0),
                status: LogStatus::from(text(r, K2).unwrap_or("")),
                used: cnt(r, 4),
                blocksize: cnt(r, 5).and_then(|b| u32::try_from(b).ok()),
            })
        })
        .collect();
    out.sort_by_key(|l| (l.thread, l.group));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::Features;
    use proptest::prelude::*;

    fn probe() -> Probe {
        Probe {
            version: "19.0.0.0.0".into(),
            version_full: None,
            instance_number: Some(1),
            instance_status: None,
            role: Role::PhysicalStandby,
            open_mode: OpenMode::ReadOnlyWithApply,
            db_unique_name: None,
            protection_mode: None,
            protection_level: None,
            instances: 1,
            cdb: None,
            fixed_views: BTreeSet::new(),
            features: Features::default(),
        }
    }

    const TAGS: &[&str] = &[
        "CLK", "DB", "EVT", "HIST", "STAT", "RESP", "DEST", "OS", "IOF", "DGS", "RP", "PROC",
        "SEH", "PAR", "LOG", "SRL", "SW", "GAP", "FRA", "DGM", "DGC", "UNR", "FSL", "WAIT", "TOPW",
        "TM", "XYZ",
    ];

    fn cell() -> impl Strategy<Value = Option<String>> {
        prop_oneof![
            Just(None),
            "-?[0-9]{0,22}(\\.[0-9]{0,4})?".prop_map(Some),
            "\\PC{0,12}".prop_map(Some),
            "[+-]?[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}".prop_map(Some),
            Just(Some("1e308".to_string())),
            Just(Some("\u{1f}\u{1f}".to_string())),
        ]
    }

    fn row() -> impl Strategy<Value = Row> {
        (0..TAGS.len(), prop::collection::vec(cell(), 0..13)).prop_map(|(t, mut cells)| {
            cells.insert(0, Some(TAGS[t].to_string()));
            cells
        })
    }

    fn one(rows: &[Row], included: &[&'static str]) -> Sample {
        let p = probe();
        let included: BTreeSet<&'static str> = included.iter().copied().collect();
        to_sample(
            rows,
            MapInput {
                t: Timestamp::from_millis(0),
                slot: Slot::standby(),
                query_us: None,
                probe: &p,
                included: &included,
                errors: Vec::new(),
            },
        )
    }

    fn cells(cells: &[Option<&str>]) -> Row {
        cells.iter().map(|c| c.map(str::to_string)).collect()
    }

    #[test]
    fn null_readiness_columns_stay_absent_and_yes_no_is_a_bool() {
        let n = None;
        // DB_UNIQUE_NAME … FLASHBACK_ON with every new column NULL (empty between CHR(31)s).
        let nulls = "b\u{1f}MAXIMUM PERFORMANCE\u{1f}MAXIMUM PERFORMANCE\u{1f}\u{1f}\u{1f}\u{1f}\u{1f}\u{1f}\u{1f}\u{1f}";
        let s = one(
            &[cells(&[
                Some("DB"),
                n,
                Some("PHYSICAL STANDBY"),
                Some("MOUNTED"),
                n,
                n,
                n,
                n,
                n,
                n,
                Some(nulls),
            ])],
            &[],
        );
        let db = std::sync::Arc::unwrap_or_clone(s.db.unwrap());
        assert_eq!(db.name.as_deref(), Some("b"));
        assert_eq!(
            (
                db.switchover_status,
                db.dataguard_broker,
                db.fs_failover_status
            ),
            (None, None, None)
        );
        assert_eq!(
            (db.fs_failover_threshold_s, db.fs_failover_observer_present),
            (None, None)
        );
        assert_eq!(
            (
                db.force_logging,
                db.flashback_on,
                db.fs_failover_lag_limit_s
            ),
            (None, None, None)
        );

        let full = "b\u{1f}x\u{1f}y\u{1f}TO PRIMARY\u{1f}ENABLED\u{1f}TARGET OVER LAG LIMIT\u{1f}b\u{1f}no\u{1f}obs\u{1f}STANDBY NOLOGGING FOR DATA AVAILABILITY\u{1f}RESTORE POINT ONLY";
        let s = one(
            &[
                cells(&[
                    Some("DB"),
                    n,
                    Some("PHYSICAL STANDBY"),
                    Some("MOUNTED"),
                    Some("45"),
                    n,
                    n,
                    n,
                    n,
                    n,
                    Some(full),
                ]),
                // A row of another property, then the lag limit.
                cells(&[
                    Some("FSL"),
                    n,
                    Some("FastStartFailoverThreshold"),
                    n,
                    n,
                    n,
                    n,
                    n,
                    n,
                    n,
                    Some("45"),
                ]),
                cells(&[
                    Some("FSL"),
                    n,
                    Some("FastStartFailoverLagLimit"),
                    n,
                    n,
                    n,
                    n,
                    n,
                    n,
                    n,
                    Some("60"),
                ]),
            ],
            &["fsfo_lag_limit"],
        );
        let db = s.db.unwrap();
        assert_eq!(
            db.fs_failover_observer_present,
            Some(false),
            "lower-case no"
        );
        assert_eq!(db.fs_failover_threshold_s, Some(45));
        assert_eq!(db.fs_failover_lag_limit_s, Some(60));
        assert_eq!(
            db.fs_failover_status.as_deref(),
            Some("TARGET OVER LAG LIMIT")
        );
        assert_eq!(
            db.force_logging.as_deref(),
            Some("STANDBY NOLOGGING FOR DATA AVAILABILITY")
        );
        assert_eq!(db.flashback_on.as_deref(), Some("RESTORE POINT ONLY"));
    }

    #[test]
    fn unrecoverable_read_and_empty_is_some_empty_not_read_is_none() {
        let n = None;
        assert_eq!(
            one(&[], &["unrecoverable"]).unrecoverable.as_deref(),
            Some(&vec![])
        );
        assert_eq!(one(&[], &[]).unrecoverable, None);
        let s = one(
            &[
                cells(&[Some("UNR"), n, n, n, Some("7"), Some("123"), n, n, n, n, n]),
                // No change number: not a row to believe.
                cells(&[Some("UNR"), n, n, n, Some("8"), n, n, n, n, n, n]),
            ],
            &["unrecoverable"],
        );
        let u = s.unrecoverable.unwrap();
        assert_eq!(u.len(), 1);
        assert_eq!((u[0].file, u[0].change, u[0].time), (7, 123, None));
    }

    proptest! {
        #[test]
        fn any_rows_map_without_panicking(rows in prop::collection::vec(row(), 0..40)) {
            let p = probe();
            let included: BTreeSet<&'static str> =
                ["dg", "lag_hist", "params", "logs", "standby_logs", "switches", "gaps", "fra",
                 "dg_messages", "dg_config", "iostat", "unrecoverable", "fsfo_lag_limit", "waits_now"]
                    .into_iter().collect();
            let s = to_sample(&rows, MapInput {
                t: Timestamp::from_millis(0),
                slot: Slot::standby(),
                query_us: None,
                probe: &p,
                included: &included,
                errors: Vec::new(),
            });
            // Whatever came in, what goes out is a valid recording line that reads back.
            let line = serde_json::to_string(&s).unwrap();
            let back: Sample = serde_json::from_str(&line).unwrap();
            prop_assert_eq!(back.slot, s.slot);
        }
    }
}
