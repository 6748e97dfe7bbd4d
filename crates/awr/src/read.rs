//! From the report's blocks to its figures: identity, window, wait events (foreground and
//! background parts, histograms), statistics, OS statistics and log switches. Sections are
//! found by their title and header cells; a section that is missing is named in `warnings`.

use crate::cell::{self, Fig};
use crate::html::{Block, Table};
use crate::{AwrError, AwrReport, EventFigures, Kind};
use dgscope_model::sample::names::event;
use std::collections::BTreeMap;

/// The bound the core reads as "open" (no upper edge): `>= 2 s` style last columns.
pub(crate) const OPEN_BOUND_US: u64 = 1 << 32;

/// What the wait tables printed for one side (foreground or background) of one event.
#[derive(Debug, Default, Clone)]
struct Side {
    waits: Vec<Fig>,
    total_s: Vec<Fig>,
    avg_ms: Vec<Fig>,
}

impl Side {
    fn is_empty(&self) -> bool {
        self.waits.is_empty()
    }

    /// The most precisely printed wait count.
    fn waits(&self) -> Option<Fig> {
        self.waits
            .iter()
            .copied()
            .min_by(|a, b| a.half.total_cmp(&b.half))
    }

    /// The average in ms and whether it is only known to a whole printed millisecond: the
    /// printed average or total time ÷ waits, whichever is less rounded.
    fn avg_ms(&self) -> Option<(f64, bool)> {
        let w = self.waits()?;
        if w.v <= 0.0 {
            return None;
        }
        let mut best: Option<(f64, f64)> = None; // (value, relative rounding)
        let mut consider = |v: f64, rel: f64| {
            if best.is_none_or(|(_, r)| rel < r) {
                best = Some((v, rel));
            }
        };
        for a in &self.avg_ms {
            consider(a.v, a.rel());
        }
        for t in &self.total_s {
            consider(t.v * 1000.0 / w.v, t.rel() + w.rel());
        }
        // Rounded: the best figure still carries more than 5 % of rounding.
        best.map(|(v, rel)| (v, rel > 0.05))
    }
}

/// A histogram interval of one table: `[lo, hi)` in µs (`hi` = [`OPEN_BOUND_US`] when open)
/// and its share of the event's waits in percent.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Interval {
    lo: u64,
    hi: u64,
    pct: f64,
    /// The exact count where the report prints one: global reports write a share that
    /// rounds to nothing as `0.0(8)`, 8 waits.
    count: Option<f64>,
}

#[derive(Default)]
struct EventAcc {
    fg: Side,
    bg: Side,
    /// 10g's "Wait Events": every session's waits, foreground and background together.
    all: Side,
    /// Global reports' cluster rows that do not split fg/bg ("Top Timed Events").
    hist_total: Option<Fig>,
    intervals: Vec<Interval>,
    /// The wait class a "Top … Events" table prints for it.
    class: Option<String>,
}

/// The events the rules read whose names a text report may cut short.
const KNOWN_EVENTS: &[&str] = &[
    event::LOG_FILE_SYNC,
    event::LOG_FILE_PARALLEL_WRITE,
    event::SYNC_REMOTE_WRITE,
    event::ASYNC_REMOTE_WRITE,
    event::LOG_FILE_SWITCH_COMPLETION,
    event::LOG_FILE_SWITCH_ARCHIVING_NEEDED,
    event::LOG_FILE_SWITCH_CHECKPOINT_INCOMPLETE,
    event::LOG_BUFFER_SPACE,
    event::DB_FILE_SEQUENTIAL_READ,
    event::FREE_BUFFER_WAITS,
    event::DB_FILE_PARALLEL_WRITE,
    event::LNS_WAIT_ON_SENDREQ,
    "LGWR-LNS wait on channel",
    "log file switch (private strand flush incomplete)",
];

/// An event's name as the rules know it: text reports cut names at 26 characters (AWR) or
/// 28 (Statspack), so `log file switch (checkpoin` is taken for the one event the rules read
/// that it begins. Other names stay as printed.
fn full_event_name(name: &str) -> String {
    if name.len() >= 20 && !KNOWN_EVENTS.contains(&name) {
        let mut begun = KNOWN_EVENTS.iter().filter(|k| k.starts_with(name));
        if let (Some(k), None) = (begun.next(), begun.next()) {
            return k.to_string();
        }
    }
    name.to_string()
}

fn lower(s: &str) -> String {
    s.to_ascii_lowercase()
}

/// Reads the report's blocks.
pub(crate) fn read(blocks: &[Block]) -> Result<AwrReport, AwrError> {
    let texts: Vec<&str> = blocks
        .iter()
        .filter_map(|b| match b {
            Block::Text(t) => Some(t.as_str()),
            Block::Table(_) => None,
        })
        .take(40)
        .collect();
    let tables = crate::html::tables(blocks);
    let head = texts.join(" ").to_ascii_lowercase();
    let has_db_table = tables
        .iter()
        .any(|t| t.has_header("DB Name") || t.has_header("DB Id") || is_db_summary(t));
    let has_snaps = tables
        .iter()
        .any(|t| snap_table(t).is_some() || is_db_summary(t));
    let titled = head.contains("workload repository") || head.contains("statspack report");
    if !(titled || has_db_table && has_snaps) {
        return Err(AwrError::NotAReport(
            "no \"WORKLOAD REPOSITORY report\" title and no DB Name / Snap Id tables".into(),
        ));
    }
    let global = head.contains("report (rac)")
        || head.contains("global report")
        || tables.iter().any(|t| is_db_summary(t));
    let pdb = head.contains("pdb report") || head.contains("pluggable database report");
    let kind = if head.contains("statspack report") {
        Kind::Statspack
    } else if head.contains("awr text report") {
        Kind::Text
    } else if global {
        Kind::GlobalHtml
    } else if pdb {
        Kind::PdbHtml
    } else {
        Kind::Html
    };
    let mut r = AwrReport::empty(kind);
    if global {
        identity_global(&tables, &mut r);
    } else {
        identity_instance(&tables, &mut r);
    }
    if r.window.begin_snap.is_none() || r.window.end_snap.is_none() {
        return Err(AwrError::NotAReport(
            "no snapshot table (Begin Snap / End Snap rows with a Snap Id column)".into(),
        ));
    }
    let micro = tables.iter().any(|t| {
        t.title.starts_with("Wait Event Histogram") && t.columns().iter().any(|c| c.ends_with("us"))
    });
    let mut acc: BTreeMap<String, EventAcc> = BTreeMap::new();
    let mut seen_fg = false;
    let mut seen_bg = false;
    let mut seen_all = false;
    let mut seen_hist = false;
    for t in &tables {
        let title = lower(&t.title);
        if title.starts_with("wait event histogram") {
            seen_hist |= histogram(t, micro, &mut acc);
        } else if is_fg_table(&title) {
            seen_fg |= waits(t, &mut acc, Sessions::Fg, global, &mut r);
            instances_sum(t, &mut r.warnings);
        } else if is_bg_table(&title) {
            seen_bg |= waits(t, &mut acc, Sessions::Bg, global, &mut r);
            instances_sum(t, &mut r.warnings);
        } else if is_all_table(&title) {
            seen_all |= waits(t, &mut acc, Sessions::All, global, &mut r);
            instances_sum(t, &mut r.warnings);
        }
    }
    if !seen_fg && seen_all && seen_bg {
        r.warnings.push(
            "no Foreground Wait Events section (a 10g report lists all sessions' waits together): foreground figures are all sessions' less the background's".into(),
        );
    } else if !seen_fg {
        r.warnings
            .push("no Foreground Wait Events section: foreground figures unknown".into());
    }
    if !seen_bg {
        r.warnings.push(match kind {
            Kind::PdbHtml => {
                "no Background Wait Events section (a PDB report has none): LGWR figures unknown"
                    .into()
            }
            _ => "no Background Wait Events section: LGWR figures unknown".into(),
        });
    }
    if !seen_hist {
        r.warnings
            .push("no Wait Event Histogram section: latency distributions unknown".into());
    }
    for (name, a) in acc {
        if let Some(e) = resolve(&a, seen_bg, seen_fg) {
            r.histogram_estimated |= !e.hist.is_empty();
            r.events.insert(name, e);
        }
    }
    time_model(&tables, &mut r);
    if global {
        stats_global(&tables, &mut r);
        os_global(&tables, &mut r);
    } else {
        stats_instance(&tables, &mut r);
        os_instance(&tables, &mut r);
        switches(&tables, &mut r);
    }
    Ok(r)
}

fn is_fg_table(title: &str) -> bool {
    title.starts_with("foreground wait events")
        || (title.starts_with("top") && title.contains("foreground") && title.contains("event"))
}

/// 10g's "Wait Events" (Statspack's too): every session's waits in one table.
fn is_all_table(title: &str) -> bool {
    title.starts_with("wait events")
        && !title.starts_with("wait events statistics")
        && !title.contains("histogram")
}

/// Whose waits a wait table lists.
#[derive(Clone, Copy, PartialEq)]
enum Sessions {
    Fg,
    Bg,
    All,
}

fn is_bg_table(title: &str) -> bool {
    title.starts_with("background wait events")
        || (title.starts_with("top") && title.contains("background") && title.contains("event"))
}

/// The header table's values by column name (first data row), e.g. "DB Name" → "PROD".
fn header_values(t: &Table) -> BTreeMap<String, String> {
    let cols = t.columns();
    let mut m = BTreeMap::new();
    if let Some(row) = t.body().first() {
        for (c, v) in cols.iter().zip(row) {
            m.entry(lower(c)).or_insert_with(|| v.clone());
        }
    }
    m
}

fn non_empty(s: Option<&String>) -> Option<String> {
    s.map(|x| x.trim().to_string()).filter(|x| !x.is_empty())
}

fn yes_no(s: Option<&String>) -> Option<bool> {
    match s.map(|x| x.trim().to_ascii_uppercase()).as_deref() {
        Some("YES") | Some("Y") | Some("TRUE") => Some(true),
        Some("NO") | Some("N") | Some("FALSE") => Some(false),
        _ => None,
    }
}

/// The snapshot table: rows labelled `Begin Snap:` / `End Snap:` and a "Snap Id" column.
fn snap_table(t: &Table) -> Option<(usize, usize)> {
    let id = t.col("Snap Id")?;
    let time = t.col("Snap Time")?;
    Some((id, time))
}

fn identity_instance(tables: &[&Table], r: &mut AwrReport) {
    let id = &mut r.identity;
    for t in tables {
        if t.has_header("DB Name")
            || t.has_header("DB Id")
            || t.has_header("Instance")
            || t.has_header("Host Name")
        {
            let v = header_values(t);
            let get = |k: &str| v.get(k);
            // Statspack's header has no database name column, only the DB Id.
            if t.has_header("DB Name") || t.has_header("DB Id") {
                id.db_name = id.db_name.take().or(non_empty(get("db name")));
                id.dbid = id
                    .dbid
                    .or_else(|| get("db id").and_then(|x| x.trim().parse().ok()));
                id.unique_name = id.unique_name.take().or(non_empty(get("unique name")));
                id.role = id
                    .role
                    .take()
                    .or(non_empty(get("role")))
                    .or(non_empty(get("db role")));
                if id.release.is_none() {
                    id.release = non_empty(get("release"));
                }
                id.rac = id.rac.or(yes_no(get("rac")));
                id.cdb = id.cdb.or(yes_no(get("cdb")));
                // 10.2 writes the host in this table (later releases in a table of its own).
                id.host = id.host.take().or(non_empty(get("host")));
            }
            if t.has_header("Instance") && (t.has_header("Inst num") || t.has_header("Inst Num")) {
                id.instance = id.instance.take().or(non_empty(get("instance")));
                id.inst_num = id
                    .inst_num
                    .or_else(|| get("inst num").and_then(|x| x.trim().parse().ok()));
                id.startup_ms = id
                    .startup_ms
                    .or_else(|| get("startup time").and_then(|x| cell::snap_time(x)));
            }
            if t.has_header("Host Name") && t.has_header("CPUs") {
                id.host = id.host.take().or(non_empty(get("host name")));
                id.platform = id.platform.take().or(non_empty(get("platform")));
                id.cpus = id
                    .cpus
                    .or_else(|| get("cpus").and_then(|x| cell::num(x)).map(|f| f.v as u32));
                id.cores = id
                    .cores
                    .or_else(|| get("cores").and_then(|x| cell::num(x)).map(|f| f.v as u32));
            }
        }
        if let Some((idc, timec)) = snap_table(t) {
            if r.window.begin_snap.is_some() {
                continue;
            }
            for row in t.body() {
                let label = lower(row.first().map_or("", String::as_str));
                let cell_at = |i: usize| row.get(i).map_or("", String::as_str);
                // The figure of Elapsed/DB Time rows stands in the first non-empty cell.
                let first_value = || row.iter().skip(1).find(|c| !c.trim().is_empty());
                if label.starts_with("begin snap") {
                    r.window.begin_snap = cell_at(idc).trim().parse().ok();
                    r.window.begin_ms = cell::snap_time(cell_at(timec));
                } else if label.starts_with("end snap") {
                    r.window.end_snap = cell_at(idc).trim().parse().ok();
                    r.window.end_ms = cell::snap_time(cell_at(timec));
                } else if label.starts_with("elapsed") {
                    r.window.elapsed_s = first_value()
                        .and_then(|c| cell::minutes(c))
                        .map(|f| f.v * 60.0);
                } else if label.starts_with("db time") {
                    r.window.db_time_s = first_value()
                        .and_then(|c| cell::minutes(c))
                        .map(|f| f.v * 60.0);
                }
            }
        }
    }
    r.identity.instances = 1;
    if r.identity.db_name.is_none() {
        r.warnings
            .push("the DB Name table is missing or blank: database identity unknown".into());
    }
}

/// The global report's "Database Summary" (titled by a paragraph, not a heading): the
/// snapshot ids and the report's DB time and elapsed minutes, under two header rows.
fn is_db_summary(t: &Table) -> bool {
    t.has_header("Snapshot Ids") && t.has_header("Elapsed time")
}

fn identity_global(tables: &[&Table], r: &mut AwrReport) {
    for t in tables {
        if is_db_summary(t) && r.window.begin_snap.is_none() {
            let cols = t.columns();
            let Some(row) = t.body().first() else {
                continue;
            };
            let at = |name: &str, nth: usize| {
                cols.iter()
                    .enumerate()
                    .filter(|(_, c)| c.eq_ignore_ascii_case(name))
                    .nth(nth)
                    .and_then(|(i, _)| row.get(i))
            };
            let id = &mut r.identity;
            id.dbid = at("Id", 0).and_then(|x| x.trim().parse().ok());
            id.db_name = non_empty(at("Name", 0));
            id.unique_name = non_empty(at("Unique Name", 0));
            id.role = non_empty(at("Role", 0));
            id.rac = yes_no(at("RAC", 0));
            id.cdb = yes_no(at("CDB", 0));
            r.window.begin_snap = at("Begin", 0).and_then(|x| x.trim().parse().ok());
            r.window.end_snap = at("End", 0).and_then(|x| x.trim().parse().ok());
            r.window.db_time_s = at("DB time", 0)
                .and_then(|x| cell::num(x))
                .map(|f| f.v * 60.0);
            r.window.elapsed_s = at("Elapsed time", 0)
                .and_then(|x| cell::num(x))
                .map(|f| f.v * 60.0);
        }
        // Titled by a paragraph, not a heading: found by its columns.
        if t.has_header("I#")
            && t.has_header("Startup")
            && t.has_header("Begin Snap Time")
            && r.identity.instances == 0
        {
            let body = t.body();
            r.identity.instances = body.len() as u32;
            let v = header_values(t);
            r.identity.release = non_empty(v.get("release"));
            r.identity.host = non_empty(v.get("host"));
            r.identity.startup_ms = v.get("startup").and_then(|x| cell::snap_time(x));
            r.window.begin_ms = v.get("begin snap time").and_then(|x| cell::snap_time(x));
            r.window.end_ms = v.get("end snap time").and_then(|x| cell::snap_time(x));
        }
    }
    if r.identity.instances == 0 {
        r.identity.instances = 1;
        r.warnings
            .push("no Database Instances Included table: instances unknown".into());
    }
}

/// Reads one foreground or background wait table. Global tables: only the cluster rows
/// (`*` in the I# column) or, without an I# column, every row. A "Top … Events" table also
/// gives each event's wait class, and its `DB CPU` row the CPU time (`time_model`). A cell
/// that holds something but cannot be read (`#####` of an overflowed column, a garbled or
/// impossible number) leaves its figure out and says so in `warnings`, never a 0.
fn waits(
    t: &Table,
    acc: &mut BTreeMap<String, EventAcc>,
    who: Sessions,
    global: bool,
    r: &mut AwrReport,
) -> bool {
    let cols = t.columns();
    let Some(ev) = t.col("Event") else {
        return false;
    };
    let Some(wc) = cols.iter().position(|c| {
        let c = lower(c);
        c == "waits" || c == "total waits"
    }) else {
        return false;
    };
    let tc = cols.iter().position(|c| {
        let c = lower(c);
        c.starts_with("total wait time")
            || c.starts_with("time(s)")
            || c == "total(s)"
            || c.starts_with("time (s)")
    });
    let ac = cols.iter().position(|c| {
        let c = lower(c);
        c.starts_with("avg wait") || c.starts_with("wait avg")
    });
    let class_col = cols.iter().position(|c| lower(c) == "wait class");
    let total_unit_ms = 1000.0;
    let avg_unit_ms = 1.0;
    let inst = t.col("I#");
    if global && inst.is_none() && t.title.starts_with("Top") {
        return false;
    }
    let mut any = false;
    for row in t.body() {
        if let Some(i) = inst {
            if row.get(i).map(|x| x.trim()) != Some("*") {
                continue;
            }
        }
        let Some(name) = row.get(ev).map(|x| x.trim()).filter(|x| !x.is_empty()) else {
            continue;
        };
        let cell_of = |i: Option<usize>| i.and_then(|i| row.get(i)).map(|x| x.trim());
        let Some(w) = cell_of(Some(wc)).and_then(cell::count) else {
            // DB CPU and the like have no waits: their time is the time model's.
            if name.eq_ignore_ascii_case("DB CPU") {
                if let Some(t) = cell_of(tc).and_then(|x| cell::millis(x, total_unit_ms)) {
                    r.time_model.entry("DB CPU".into()).or_insert(t.v / 1000.0);
                }
            } else if cell_of(Some(wc)).is_some_and(|c| !c.is_empty()) {
                unreadable(r, t, name, "waits", cell_of(Some(wc)).unwrap_or(""));
            }
            continue;
        };
        let e = acc.entry(full_event_name(name)).or_default();
        if let Some(c) = cell_of(class_col).filter(|c| !c.is_empty()) {
            e.class.get_or_insert_with(|| c.to_string());
        }
        let side = match who {
            Sessions::Fg => &mut e.fg,
            Sessions::Bg => &mut e.bg,
            Sessions::All => &mut e.all,
        };
        side.waits.push(w);
        if let Some(c) = cell_of(tc).filter(|c| !c.is_empty()) {
            match cell::millis(c, total_unit_ms).filter(|f| cell::plausible_s(f.v / 1000.0)) {
                Some(total) => side.total_s.push(Fig {
                    v: total.v / 1000.0,
                    half: total.half / 1000.0,
                }),
                None => unreadable(r, t, name, "total wait time", c),
            }
        }
        if let Some(c) = cell_of(ac).filter(|c| !c.is_empty()) {
            match cell::millis(c, avg_unit_ms).filter(|f| cell::plausible_s(f.v / 1000.0)) {
                Some(a) => side.avg_ms.push(a),
                None => unreadable(r, t, name, "average wait", c),
            }
        }
        any = true;
    }
    any
}

/// Time Model Statistics: `DB time` and `DB CPU` in seconds (`Statistic Name | Time (s) | %
/// of DB Time`). Its figures win over the Top events' `DB CPU` row, which rounds more.
fn time_model(tables: &[&Table], r: &mut AwrReport) {
    for t in tables
        .iter()
        .filter(|t| lower(&t.title).starts_with("time model statistics"))
    {
        let (Some(n), Some(v)) = (t.col("Statistic Name"), t.col("Time (s)")) else {
            continue;
        };
        for row in t.body() {
            let name = row.get(n).map(|x| x.trim()).unwrap_or("");
            if !matches!(name, "DB time" | "DB CPU") {
                continue;
            }
            match row
                .get(v)
                .and_then(|x| cell::num(x))
                .filter(|f| cell::plausible_s(f.v))
            {
                Some(f) => {
                    r.time_model.insert(name.to_string(), f.v);
                }
                None => unreadable(r, t, name, "time", row.get(v).map_or("", |x| x.as_str())),
            }
        }
    }
}

/// A cell that holds something that cannot be read: named in the warnings, left out.
fn unreadable(r: &mut AwrReport, t: &Table, event: &str, what: &str, cell: &str) {
    let shown: String = dgscope_model::sanitize::field(cell)
        .chars()
        .take(24)
        .collect();
    let w = format!(
        "{}: {event}: the {what} cell {shown:?} cannot be read (an overflowed or garbled figure): left out",
        t.title
    );
    if !r.warnings.contains(&w) {
        r.warnings.push(w);
    }
}

/// A global wait table's instance rows must add up to its cluster row (`*` in I#): where an
/// event's waits do not, beyond the cells' rounding, the report's sections disagree and a
/// warning says which event, by how much. The cluster row is what the figures use.
fn instances_sum(t: &Table, warnings: &mut Vec<String>) {
    // A "Top …" table lists each instance's own top events: an event in the cluster's top
    // ten may be missing from an instance's, so its rows need not add up.
    if t.title.starts_with("Top") {
        return;
    }
    let (Some(inst), Some(ev)) = (t.col("I#"), t.col("Event")) else {
        return;
    };
    let Some(wc) = t.columns().iter().position(|c| {
        let c = lower(c);
        c == "waits" || c == "total waits"
    }) else {
        return;
    };
    // Event → (sum of the instances' waits, its rounding, the cluster's figure).
    let mut sums: BTreeMap<&str, (Fig, Option<Fig>)> = BTreeMap::new();
    for row in t.body() {
        let Some(name) = row.get(ev).map(|x| x.trim()).filter(|x| !x.is_empty()) else {
            continue;
        };
        let Some(w) = row.get(wc).and_then(|x| cell::num(x)) else {
            continue;
        };
        let e = sums
            .entry(name)
            .or_insert((Fig { v: 0.0, half: 0.0 }, None));
        match row.get(inst).map(|x| x.trim()) {
            Some("*") => e.1 = Some(w),
            Some(i) if i.parse::<u32>().is_ok() => {
                e.0.v += w.v;
                e.0.half += w.half;
            }
            _ => {}
        }
    }
    for (name, (sum, cluster)) in sums {
        let Some(c) = cluster else { continue };
        if sum.v > 0.0 && (sum.v - c.v).abs() > sum.half + c.half + 0.5 {
            warnings.push(format!(
                "{}: the instances' {name} waits add up to {}, the cluster row says {}: the report's figures disagree (the cluster row is used)",
                t.title, sum.v, c.v
            ));
        }
    }
}

/// A histogram column label as an edge in µs: `<8us`, `<1ms`, `<=1s`, `>=2s`, `<1/8s`, `< 1m`,
/// `<1/4h`; `(is_lower_bound, nominal µs)`.
fn edge(label: &str) -> Option<(bool, f64)> {
    let s: String = label.chars().filter(|c| !c.is_whitespace()).collect();
    let (ge, rest) = if let Some(x) = s.strip_prefix(">=") {
        (true, x)
    } else if let Some(x) = s.strip_prefix('>') {
        (true, x)
    } else if let Some(x) = s.strip_prefix("<=") {
        (false, x)
    } else if let Some(x) = s.strip_prefix('<') {
        (false, x)
    } else {
        return None;
    };
    let split = rest.find(|c: char| c.is_ascii_alphabetic())?;
    let (n, unit) = rest.split_at(split);
    let v = match n.split_once('/') {
        Some((a, b)) => a.parse::<f64>().ok()? / b.parse::<f64>().ok()?,
        None => n.parse::<f64>().ok()?,
    };
    let k = match unit {
        "us" => 1.0,
        "ms" => 1e3,
        "s" | "sec" => 1e6,
        "m" | "min" => 60e6,
        "h" | "hr" => 3600e6,
        _ => return None,
    };
    Some((ge, v * k))
}

/// Oracle's histogram buckets double: an edge is snapped to its power of two. Below a
/// millisecond they are µs (`V$EVENT_HISTOGRAM_MICRO`); from a millisecond up, powers of two
/// of milliseconds, stored as `m × 1024` µs when the report's tables are in µs (12.2+) and
/// as `m × 1000` µs (the contract's millisecond histogram) when they are in ms.
fn snap_edge(us: f64, micro: bool) -> u64 {
    if us < 1000.0 {
        let p = us.max(1.0).log2().round() as u32;
        return 1u64 << p.min(9);
    }
    let ms = us / 1000.0;
    let m = 1u64 << (ms.log2().round().clamp(0.0, 40.0) as u32);
    if micro {
        m.saturating_mul(1024)
    } else {
        m.saturating_mul(1000)
    }
}

fn histogram(t: &Table, micro: bool, acc: &mut BTreeMap<String, EventAcc>) -> bool {
    let cols = t.columns();
    let Some(ev) = t.col("Event") else {
        return false;
    };
    // Bucket columns: those whose header parses as an edge, in order.
    let mut buckets: Vec<(usize, Interval)> = Vec::new();
    let mut prev: u64 = 0;
    for (i, c) in cols.iter().enumerate() {
        let Some((ge, us)) = edge(c) else { continue };
        let e = snap_edge(us, micro);
        let iv = if ge {
            Interval {
                lo: e,
                hi: OPEN_BOUND_US,
                pct: 0.0,
                count: None,
            }
        } else {
            let iv = Interval {
                lo: prev,
                hi: e,
                pct: 0.0,
                count: None,
            };
            prev = e;
            iv
        };
        buckets.push((i, iv));
    }
    if buckets.is_empty() {
        return false;
    }
    // The main table's second column is the event's total waits; the detail tables' is the
    // count within their range only.
    let total_col = cols
        .iter()
        .position(|c| c.eq_ignore_ascii_case("Total Waits") || c.eq_ignore_ascii_case("Waits"));
    for row in t.body() {
        let Some(name) = row.get(ev).map(|x| x.trim()).filter(|x| !x.is_empty()) else {
            continue;
        };
        let e = acc.entry(full_event_name(name)).or_default();
        if let Some(total) = total_col
            .and_then(|i| row.get(i))
            .and_then(|x| cell::num(x))
        {
            e.hist_total = Some(total);
        }
        for (i, iv) in &buckets {
            let c = row.get(*i).map_or("", String::as_str);
            let (pct, count) = match c.split_once('(') {
                Some((p, n)) => (
                    cell::num(p).map_or(0.0, |f| f.v),
                    cell::num(n.trim_end_matches(')')).map(|f| f.v),
                ),
                None => (cell::num(c).map_or(0.0, |f| f.v), None),
            };
            e.intervals.push(Interval { pct, count, ..*iv });
        }
    }
    true
}

/// Merges one event's intervals from every histogram table: an interval that contains a
/// finer one is dropped (the finer tables split it), so each wait is counted once.
fn merge(intervals: &[Interval]) -> Vec<Interval> {
    let mut keep: Vec<Interval> = Vec::new();
    for (i, a) in intervals.iter().enumerate() {
        let split = intervals
            .iter()
            .enumerate()
            .any(|(j, b)| j != i && b.lo >= a.lo && b.hi <= a.hi && (b.lo, b.hi) != (a.lo, a.hi));
        if split || keep.iter().any(|k| (k.lo, k.hi) == (a.lo, a.hi)) {
            continue;
        }
        keep.push(*a);
    }
    keep.sort_by_key(|k| (k.lo, k.hi));
    // Partial overlaps (none in known layouts): the earlier interval wins.
    let mut out: Vec<Interval> = Vec::new();
    for k in keep {
        if out.last().is_some_and(|l| k.lo < l.hi) {
            continue;
        }
        out.push(k);
    }
    out
}

/// An event's figures from its tables. `bg_listed`: the report has a background table, so an
/// event it does not list had no background waits. `fg_listed`: it has a foreground table,
/// so every session's table (10g's, which later reports do not have) is not needed.
fn resolve(a: &EventAcc, bg_listed: bool, fg_listed: bool) -> Option<EventFigures> {
    let side = |s: &Side| -> Option<(u64, u64, bool)> {
        let w = s.waits()?;
        let waits = w.v.round().max(0.0) as u64;
        let (avg, rounded) = s.avg_ms().unwrap_or((0.0, false));
        Some((waits, (avg * 1000.0 * w.v).round().max(0.0) as u64, rounded))
    };
    let fg = (!a.fg.is_empty()).then(|| side(&a.fg)).flatten();
    let bg = (!a.bg.is_empty()).then(|| side(&a.bg)).flatten();
    let all = (!fg_listed && !a.all.is_empty())
        .then(|| side(&a.all))
        .flatten();
    let (total, fg) = match (fg, all) {
        // 10g: every session's waits are the total; the foreground is that less the
        // background (all of it when the background table does not list the event; unknown
        // without that table).
        (None, Some(all)) => {
            let fg = match (bg, bg_listed) {
                (Some(b), _) => Some((
                    all.0.saturating_sub(b.0),
                    all.1.saturating_sub(b.1),
                    all.2 || b.2,
                )),
                (None, true) => Some(all),
                (None, false) => None,
            };
            (Some(all), fg)
        }
        _ => (
            match (fg, bg) {
                (Some(f), Some(b)) => Some((f.0 + b.0, f.1 + b.1, f.2 || b.2)),
                (f, b) => f.or(b),
            },
            fg,
        ),
    };
    let (waits, us, rounded) = match total {
        Some(t) => t,
        None => {
            // Only in the histogram: its total waits, no time.
            let t = a.hist_total?;
            (t.v.round().max(0.0) as u64, 0, false)
        }
    };
    let from_tables = total.is_some();
    // Histogram counts: shares of the event's waits (the exact total of the wait tables
    // when it agrees with the histogram's printed total, else the histogram's).
    let hist_waits = match a.hist_total {
        Some(t) if !(from_tables && (t.v - waits as f64).abs() <= t.half + 0.5) => t.v,
        _ => waits as f64,
    };
    let mut buckets: Vec<(Interval, u64)> = Vec::new();
    for iv in merge(&a.intervals) {
        let n = iv
            .count
            .unwrap_or(iv.pct / 100.0 * hist_waits)
            .round()
            .max(0.0) as u64;
        if n == 0 {
            continue;
        }
        buckets.push((iv, n));
    }
    // Each bucket's own count (the Sample's counts are per bucket, cumulative over time
    // only), at its upper bound: a bucket of the contract holds [bound/2, bound).
    let mut hist: Vec<(u64, u64)> = buckets.iter().map(|(iv, n)| (iv.hi, *n)).collect();
    if from_tables {
        place_wide_bucket(&buckets, us as f64, &mut hist);
    }
    Some(EventFigures {
        waits,
        us,
        waits_fg: fg.map(|f| f.0),
        us_fg: fg.map(|f| f.1),
        timed: from_tables,
        rounded,
        hist,
        class: a.class.clone(),
    })
}

/// A column wider than one doubling (11.2's `<=1s` spans 32 ms to 1 s) is no bucket of the
/// contract, whose bucket of bound `b` holds `[b/2, b)`: at its upper bound its waits would
/// read as half a second each. When it is the only such column, its waits go to the doubling
/// where their mean falls, the mean being the event's total time less what the other
/// buckets hold (at their midpoints), over its count; the histogram is an estimate either way.
fn place_wide_bucket(buckets: &[(Interval, u64)], total_us: f64, hist: &mut [(u64, u64)]) {
    let wide = |iv: &Interval| iv.lo > 0 && iv.hi != OPEN_BOUND_US && iv.hi > iv.lo * 2;
    let mut wides = buckets.iter().enumerate().filter(|(_, (iv, _))| wide(iv));
    let (Some((i, (iv, n))), None) = (wides.next(), wides.next()) else {
        return;
    };
    let others: f64 = buckets
        .iter()
        .enumerate()
        .filter(|(j, _)| *j != i)
        .map(|(_, (b, n))| {
            let at = if b.hi == OPEN_BOUND_US {
                b.lo as f64
            } else {
                (b.lo as f64 + b.hi as f64) / 2.0
            };
            at * *n as f64
        })
        .sum();
    let mean = (total_us - others) / *n as f64;
    if !mean.is_finite() {
        return;
    }
    let mean = mean.clamp(iv.lo as f64, iv.hi as f64);
    // The doublings of the column, from its lower edge up: the first whose bound is above
    // the mean.
    let mut b = iv.lo.saturating_mul(2);
    while (b as f64) <= mean && b < iv.hi {
        b = b.saturating_mul(2);
    }
    hist[i].0 = b.min(iv.hi);
}

/// Instance Activity Stats (or Statspack's "Instance Activity Stats"), not their absolute or
/// per-thread tables.
fn stats_instance(tables: &[&Table], r: &mut AwrReport) {
    let is_section = |title: &str| {
        let title = lower(title);
        (title.contains("instance activity stats") || title.starts_with("key instance activity"))
            && !title.contains("absolute")
            && !title.contains("thread activity")
    };
    stats(tables, r, is_section, "Instance Activity Stats");
}

fn stats_global(tables: &[&Table], r: &mut AwrReport) {
    let is_section = |title: &str| title.starts_with("System Statistics (Global)");
    stats(tables, r, is_section, "System Statistics (Global)");
}

/// The Statistic → Total rows of the sections `is_section` picks (the first value of a name
/// wins), or a warning naming the `section` that was not there.
fn stats(tables: &[&Table], r: &mut AwrReport, is_section: impl Fn(&str) -> bool, section: &str) {
    let mut found = false;
    for t in tables.iter().filter(|t| is_section(&t.title)) {
        let (Some(sc), Some(tc)) = (t.col("Statistic"), t.col("Total")) else {
            continue;
        };
        for row in t.body() {
            let Some(name) = row.get(sc).map(|x| x.trim()).filter(|n| !n.is_empty()) else {
                continue;
            };
            let cell = row.get(tc).map_or("", |x| x.trim());
            // A statistic is a count of something (bytes, calls, centiseconds): an
            // overflowed or impossible figure is left out and named, never read as huge.
            let Some(v) = cell::count(cell).or_else(|| cell::num(cell).filter(|f| f.v == 0.0))
            else {
                if !cell.is_empty() {
                    unreadable(r, t, name, "total", cell);
                }
                continue;
            };
            found = true;
            r.stats.entry(name.to_string()).or_insert(v.v);
        }
    }
    if !found {
        r.warnings
            .push(format!("no {section} section: commits and redo unknown"));
    }
}

fn os_instance(tables: &[&Table], r: &mut AwrReport) {
    let mut found = false;
    for t in tables {
        // AWR: "Operating System Statistics" (Statistic, Value); Statspack: "OS Statistics"
        // (Statistic, Total). Not their "- Detail" tables.
        let title = lower(&t.title);
        if (title == "operating system statistics" || title == "os statistics")
            && !title.contains("detail")
        {
            let (Some(sc), Some(vc)) = (t.col("Statistic"), t.col("Value").or(t.col("Total")))
            else {
                continue;
            };
            for row in t.body() {
                let (Some(name), Some(v)) = (
                    row.get(sc).map(|x| x.trim()),
                    row.get(vc).and_then(|x| cell::num(x)),
                ) else {
                    continue;
                };
                if matches!(name, "BUSY_TIME" | "IDLE_TIME" | "NUM_CPUS" | "IOWAIT_TIME") {
                    found = true;
                    r.os.entry(name.to_string()).or_insert(v.v);
                }
            }
        }
        if t.title == "Host CPU" || t.has_header("Load Average Begin") {
            let v = header_values(t);
            r.load_begin = r.load_begin.or_else(|| {
                v.get("load average begin")
                    .and_then(|x| cell::num(x))
                    .map(|f| f.v)
            });
            r.load_end = r.load_end.or_else(|| {
                v.get("load average end")
                    .and_then(|x| cell::num(x))
                    .map(|f| f.v)
            });
        }
    }
    if !found {
        r.warnings
            .push("no Operating System Statistics section: host CPU unknown".into());
    }
}

fn os_global(tables: &[&Table], r: &mut AwrReport) {
    for t in tables {
        if !t.title.starts_with("OS Statistics By Instance") {
            continue;
        }
        let cols = t.columns();
        let (Some(bc), Some(ic)) = (
            cols.iter().position(|c| c == "Busy"),
            cols.iter().position(|c| c == "Idle"),
        ) else {
            continue;
        };
        // The Sum row; a report of one instance has none, its instance rows are summed.
        let mut sum: Option<(f64, f64)> = None;
        let mut instances = (0.0, 0.0, 0usize);
        // How far the instance rows' rounding lets their sum stray.
        let mut slack = 0.0;
        for row in t.body() {
            let (Some(b), Some(i)) = (
                row.get(bc).and_then(|x| cell::num(x)),
                row.get(ic).and_then(|x| cell::num(x)),
            ) else {
                continue;
            };
            match row.first().map(|x| x.trim()) {
                Some("Sum") => {
                    sum = Some((b.v, i.v));
                    slack += b.half.max(i.half);
                }
                Some(n) if n.parse::<u32>().is_ok() => {
                    instances = (instances.0 + b.v, instances.1 + i.v, instances.2 + 1);
                    slack += b.half.max(i.half);
                }
                _ => {}
            }
        }
        if let (Some((b, i)), true) = (sum, instances.2 > 0) {
            for (what, total, parts) in [("Busy", b, instances.0), ("Idle", i, instances.1)] {
                if (total - parts).abs() > slack + 0.5 {
                    r.warnings.push(format!(
                        "{}: the {} instances' {what} add up to {parts}, the Sum row says {total}: the report's figures disagree (the Sum row is used)",
                        t.title, instances.2
                    ));
                }
            }
        }
        let total = sum.or((instances.2 > 0).then_some((instances.0, instances.1)));
        if let Some((b, i)) = total {
            // Seconds here; V$OSSTAT (and the Sample) count centiseconds.
            r.os.insert("BUSY_TIME".into(), b * 100.0);
            r.os.insert("IDLE_TIME".into(), i * 100.0);
            return;
        }
    }
    r.warnings
        .push("no OS Statistics By Instance section: host CPU unknown".into());
}

/// `log switches (derived)`: AWR's "Instance Activity Stats - Thread Activity", one of
/// Statspack's "Instance Activity Stats" tables.
fn switches(tables: &[&Table], r: &mut AwrReport) {
    for t in tables {
        if !lower(&t.title).contains("instance activity stats") {
            continue;
        }
        let (Some(sc), Some(tc)) = (t.col("Statistic"), t.col("Total")) else {
            continue;
        };
        for row in t.body() {
            if row
                .get(sc)
                .is_some_and(|x| x.trim().starts_with("log switches"))
            {
                r.log_switches = row.get(tc).and_then(|x| cell::num(x)).map(|f| f.v);
                return;
            }
        }
    }
    r.warnings.push(
        "no log switches (derived) in the Instance Activity Stats: log switches unknown".into(),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges_snap_to_oracle_buckets() {
        assert_eq!(edge("<8us"), Some((false, 8.0)));
        assert_eq!(edge(">=2s"), Some((true, 2e6)));
        assert_eq!(edge("< 1m"), Some((false, 60e6)));
        assert_eq!(snap_edge(125_000.0, false), 128_000);
        assert_eq!(snap_edge(1_000.0, true), 1024);
        assert_eq!(snap_edge(512.0, true), 512);
        assert_eq!(snap_edge(1e6, false), 1_024_000);
    }

    #[test]
    fn finer_tables_split_coarse_buckets() {
        let iv = |lo, hi, pct| Interval {
            lo,
            hi,
            pct,
            count: None,
        };
        let m = merge(&[
            iv(0, 1000, 50.0),
            iv(1000, 2000, 50.0),
            iv(2000, OPEN_BOUND_US, 0.0),
            iv(0, 512, 20.0),
            iv(512, 1000, 30.0),
        ]);
        let bounds: Vec<u64> = m.iter().map(|i| i.hi).collect();
        assert_eq!(bounds, vec![512, 1000, 2000, OPEN_BOUND_US]);
    }

    #[test]
    fn a_whole_millisecond_average_gives_way_to_total_over_waits() {
        let s = Side {
            waits: vec![Fig::exact(26_990.0)],
            total_s: vec![Fig {
                v: 2044.0,
                half: 0.5,
            }],
            avg_ms: vec![Fig { v: 76.0, half: 0.5 }],
        };
        let (avg, rounded) = s.avg_ms().unwrap();
        assert!((avg - 2044.0 * 1000.0 / 26_990.0).abs() < 1e-9);
        assert!(!rounded);
    }

    /// A global report whose sections do not add up: said in the warnings, the totals used.
    fn global(os_sum: &str, lfs_cluster: &str) -> AwrReport {
        let html = format!(
            "<html><head><title>AWR Report</title></head><body>\n\
             <h1>WORKLOAD REPOSITORY REPORT (RAC)</h1>\n\
             <table><tr><th>Id</th><th>Snapshot Ids</th><th>Begin</th><th>End</th><th>Elapsed time</th></tr>\n\
             <tr><td>1</td><td></td><td>10</td><td>11</td><td>60.0</td></tr></table>\n\
             <h3 class=\"awr\">OS Statistics By Instance</h3>\n\
             <table><tr><th>I#</th><th>Busy</th><th>Idle</th></tr>\n\
             <tr><td>1</td><td>1,000.0</td><td>9,000.0</td></tr>\n\
             <tr><td>2</td><td>2,000.0</td><td>8,000.0</td></tr>\n\
             <tr><td>Sum</td><td>{os_sum}</td><td>17,000.0</td></tr></table>\n\
             <h3 class=\"awr\">Foreground Wait Events (Global)</h3>\n\
             <table><tr><th>I#</th><th>Class</th><th>Event</th><th>Waits</th><th>Total(s)</th></tr>\n\
             <tr><td>*</td><td>Commit</td><td>log file sync</td><td>{lfs_cluster}</td><td>30.0</td></tr>\n\
             <tr><td>1</td><td>Commit</td><td>log file sync</td><td>10,000</td><td>10.0</td></tr>\n\
             <tr><td>2</td><td>Commit</td><td>log file sync</td><td>20,000</td><td>20.0</td></tr>\n\
             </table></body></html>\n"
        );
        crate::read_str(&html).unwrap()
    }

    #[test]
    fn a_global_reports_instances_that_do_not_add_up_are_said() {
        let agrees = global("3,000.0", "30,000");
        let said = |r: &AwrReport| -> Vec<String> {
            r.warnings
                .iter()
                .filter(|w| w.contains("figures disagree"))
                .cloned()
                .collect()
        };
        assert!(said(&agrees).is_empty(), "{:?}", agrees.warnings);
        let off = global("3,500.0", "31,000");
        let w = said(&off);
        assert_eq!(w.len(), 2, "{w:?}");
        let has = |text: &str| w.iter().any(|x| x.contains(text));
        assert!(has("Busy add up to 3000, the Sum row says 3500"), "{w:?}");
        assert!(
            has("log file sync waits add up to 30000, the cluster row says 31000"),
            "{w:?}"
        );
        // The totals are what the figures use.
        assert_eq!(off.os.get("BUSY_TIME"), Some(&350_000.0));
    }
}
