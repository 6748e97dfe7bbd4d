//! dgscope's fourth source: AWR and Statspack reports. A report is a window of cumulative counters between
//! two snapshots; [`read_file`] reads its figures ([`AwrReport`]) and [`AwrReport::samples`]
//! turns them into one pair of [`Sample`]s — at the begin snapshot with every counter at 0,
//! at the end snapshot with the report's totals — so the metrics and causes run on a report
//! exactly as on a recording. What a report cannot know stays absent, never zero.

// What is not named public here is `pub(crate)`; this lint keeps it so.
#![warn(unreachable_pub)]

mod cell;
mod compare;
mod html;
mod read;
mod text;

use dgscope_model::sample::{Bucket, DbInfo, Event, LogSwitch, Name, Role, Sample, Slot};
use dgscope_model::timestamp::Timestamp;
use dgscope_model::units::Micros;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// Reports larger than this are refused before reading (a global report of many instances
/// over days is a few MB).
pub const MAX_REPORT_BYTES: u64 = 64 << 20;

#[derive(Debug, thiserror::Error)]
pub enum AwrError {
    // The path is in every message of the caller (`FILE: …`), not repeated here.
    #[error("cannot read: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("more than {} MiB ({size} bytes or more), more than any AWR report; is it the right file?", max >> 20)]
    TooLarge { path: String, size: u64, max: u64 },
    #[error("cannot decompress (gzip): {source}")]
    Gzip {
        path: String,
        source: std::io::Error,
    },
    /// Not an AWR report: what was looked for and not found.
    #[error("not an AWR report: {0}")]
    NotAReport(String),
    /// A report kind this version does not read (a text Compare Periods report), or not
    /// for this command (a Compare Periods report where one window is needed).
    #[error("{0}")]
    Unsupported(String),
    /// A Compare Periods report that cannot be read: what is wrong with it.
    #[error("an AWR Compare Periods report, but {0}")]
    BadCompare(String),
}

/// The report's section that a sample's source view stands for, in evidence that cites
/// where a figure came from (`V$SYSTEM_EVENT` is the report's wait event tables).
pub fn cite(source: &str) -> String {
    source
        .replace("V$EVENT_HISTOGRAM_MICRO", "Wait Event Histogram")
        .replace("V$EVENT_HISTOGRAM", "Wait Event Histogram")
        .replace("V$SYSTEM_EVENT", "Foreground/Background Wait Events")
        .replace("V$SYSSTAT", "Instance Activity Stats")
        .replace("V$OSSTAT", "Operating System Statistics")
        .replace("V$LOG_HISTORY", "Instance Activity Stats - Thread Activity")
}

/// Which layout the report was written in (the JSON's `kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An instance report (`awrrpt`, HTML), of a single instance or of one RAC instance.
    Html,
    /// A RAC global report (`awrgrpt`, HTML): the cluster rows.
    GlobalHtml,
    /// A PDB-level report (12.2+): no background events.
    PdbHtml,
    /// A Statspack text report (`spreport.lst`).
    Statspack,
    /// An instance report as text (`awrrpt`, `report_type = text`, or `AWR_REPORT_TEXT`
    /// spooled).
    Text,
    /// One period of a Compare Periods report (`awrddrpt`, HTML).
    CompareHtml,
    /// One period of a Compare Periods report of PDB snapshots.
    ComparePdbHtml,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Html => "awr-html",
            Kind::GlobalHtml => "awr-global-html",
            Kind::PdbHtml => "awr-pdb-html",
            Kind::Statspack => "statspack",
            Kind::Text => "awr-text",
            Kind::CompareHtml => "awr-compare-html",
            Kind::ComparePdbHtml => "awr-compare-pdb-html",
        }
    }
}

/// Who the report is about. Blank cells stay `None`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Identity {
    pub db_name: Option<String>,
    pub dbid: Option<u64>,
    pub unique_name: Option<String>,
    pub role: Option<String>,
    pub instance: Option<String>,
    pub inst_num: Option<u32>,
    pub release: Option<String>,
    pub rac: Option<bool>,
    pub cdb: Option<bool>,
    pub host: Option<String>,
    pub platform: Option<String>,
    pub cpus: Option<u32>,
    pub cores: Option<u32>,
    /// Instance startup, ms since the epoch (the report's clock read as UTC).
    pub startup_ms: Option<i64>,
    /// How many instances' figures the report holds (1 for an instance report).
    pub instances: u32,
}

/// The snapshot interval.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Window {
    pub begin_snap: Option<u64>,
    pub end_snap: Option<u64>,
    /// Snapshot times, ms since the epoch (the report's clock read as UTC).
    pub begin_ms: Option<i64>,
    pub end_ms: Option<i64>,
    /// As printed (minutes × 60).
    pub elapsed_s: Option<f64>,
    pub db_time_s: Option<f64>,
}

impl Window {
    /// The window's length in seconds: the printed elapsed minutes (to 0.6 s; global
    /// reports print snapshot times to the minute only), else the snapshot times' difference.
    pub fn secs(&self) -> Option<f64> {
        self.elapsed_s
            .filter(|s| *s > 0.0)
            .or(match (self.begin_ms, self.end_ms) {
                (Some(b), Some(e)) if e > b => Some((e - b) as f64 / 1000.0),
                _ => None,
            })
    }
}

/// One wait event over the window.
#[derive(Debug, Clone, PartialEq)]
pub struct EventFigures {
    /// Foreground + background waits and µs.
    pub waits: u64,
    pub us: u64,
    /// The foreground part, when a foreground table lists the event.
    pub waits_fg: Option<u64>,
    pub us_fg: Option<u64>,
    /// Whether a wait table gave its time (an event seen in the histograms only has none).
    pub timed: bool,
    /// The average is only known to a whole printed millisecond (11g/12.1 tables without a
    /// finer total).
    pub rounded: bool,
    /// Buckets `(exclusive upper bound µs, count in the bucket)`, counts estimated from the
    /// printed percentages × waits.
    pub hist: Vec<(u64, u64)>,
    /// The wait class a "Top … Events" table gives it (`User I/O`, `Concurrency` …): set on
    /// the report's top events only, which exclude idle waits.
    pub class: Option<String>,
}

/// Everything read from one report.
#[derive(Debug, Clone, PartialEq)]
pub struct AwrReport {
    pub kind: Kind,
    pub identity: Identity,
    pub window: Window,
    pub events: BTreeMap<String, EventFigures>,
    /// Statistics' totals over the window (Instance Activity Stats), names as Oracle spells
    /// them.
    pub stats: BTreeMap<String, f64>,
    /// Time Model Statistics over the window in seconds (`DB time`, `DB CPU`), or the Top
    /// events' DB CPU row where the report has no such section.
    pub time_model: BTreeMap<String, f64>,
    /// OS statistics over the window (BUSY_TIME, IDLE_TIME in centiseconds; NUM_CPUS).
    pub os: BTreeMap<String, f64>,
    pub load_begin: Option<f64>,
    pub load_end: Option<f64>,
    /// Log switches in the window (Thread Activity's `log switches (derived)`).
    pub log_switches: Option<f64>,
    /// Some histogram counts were estimated from percentages.
    pub histogram_estimated: bool,
    /// Sections missing or unreadable: the rest of the report is used.
    pub warnings: Vec<String>,
}

/// What a report file holds: one window, or the two of a Compare Periods report.
#[derive(Debug, Clone, PartialEq)]
pub enum Periods {
    One(Box<AwrReport>),
    /// A Compare Periods report: the first period, then the second.
    Two(Box<[AwrReport; 2]>),
}

/// Why a command that reads one window refuses a Compare Periods report.
const TWO_WINDOWS: &str = "an AWR Compare Periods report (awrddrpt) holds two windows: `dgscope report impact FILE` sets them side by side; report awr, replay and check --replay read a report of one window (awrrpt)";

impl Periods {
    fn one(self) -> Result<AwrReport, AwrError> {
        match self {
            Periods::One(r) => Ok(*r),
            Periods::Two(_) => Err(AwrError::Unsupported(TWO_WINDOWS.into())),
        }
    }
}

/// Reads an AWR (HTML) or Statspack (text) report file of one window, gzip'd or not.
pub fn read_file(path: &Path) -> Result<AwrReport, AwrError> {
    read_src(&file_text(path)?, Want::OneWindow)?.one()
}

/// Reads a report file of one window or a Compare Periods report (HTML), gzip'd or not.
pub fn read_periods_file(path: &Path) -> Result<Periods, AwrError> {
    read_periods_str(&file_text(path)?)
}

/// The report's first 200,000 characters in lower case: where the titles are.
fn head(src: &str) -> String {
    src.chars()
        .take(200_000)
        .collect::<String>()
        .to_ascii_lowercase()
}

/// awrddrpt's title (awrgdrpt's, the RAC global form, says "Compare Periods").
fn is_compare(lower_head: &str) -> bool {
    lower_head.contains("compare period report") || lower_head.contains("compare periods report")
}

/// The RAC global Compare Periods report (awrgdrpt): per-instance rows and "% of Global DB
/// time" columns, a layout not read.
fn is_global_compare(lower_head: &str) -> bool {
    lower_head.contains("global compare period")
        || lower_head.contains("rac compare period")
        || lower_head.contains("% of global db time")
}

/// A report file's text, gunzipped, within [`MAX_REPORT_BYTES`].
fn file_text(path: &Path) -> Result<String, AwrError> {
    let shown = path.display().to_string();
    let io = |source| AwrError::Io {
        path: shown.clone(),
        source,
    };
    let size = std::fs::metadata(path).map_err(io)?.len();
    if size > MAX_REPORT_BYTES {
        return Err(AwrError::TooLarge {
            path: shown,
            size,
            max: MAX_REPORT_BYTES,
        });
    }
    // The size above is 0 for a pipe or a device (/dev/zero): the read itself is bounded.
    let mut bytes = Vec::new();
    {
        use std::io::Read;
        std::fs::File::open(path)
            .and_then(|f| f.take(MAX_REPORT_BYTES + 1).read_to_end(&mut bytes))
            .map_err(io)?;
    }
    if bytes.len() as u64 > MAX_REPORT_BYTES {
        return Err(AwrError::TooLarge {
            path: shown,
            size: bytes.len() as u64,
            max: MAX_REPORT_BYTES,
        });
    }
    if bytes.starts_with(&[0x1f, 0x8b]) {
        bytes = gunzip(&bytes, MAX_REPORT_BYTES).map_err(|e| match e {
            Gunzip::TooLarge => AwrError::TooLarge {
                path: shown.clone(),
                size: MAX_REPORT_BYTES + 1,
                max: MAX_REPORT_BYTES,
            },
            Gunzip::Io(source) => AwrError::Gzip {
                path: shown.clone(),
                source,
            },
        })?;
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

enum Gunzip {
    TooLarge,
    Io(std::io::Error),
}

/// Decompresses a gzip file (all its members), refusing more than `max` bytes of output: a
/// small file must not unpack into memory without bound.
fn gunzip(bytes: &[u8], max: u64) -> Result<Vec<u8>, Gunzip> {
    use std::io::Read;
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(bytes)
        .take(max + 1)
        .read_to_end(&mut out)
        .map_err(Gunzip::Io)?;
    if out.len() as u64 > max {
        return Err(Gunzip::TooLarge);
    }
    Ok(out)
}

/// Reads an AWR report of one window from its text.
pub fn read_str(src: &str) -> Result<AwrReport, AwrError> {
    read_src(src, Want::OneWindow)?.one()
}

/// Reads an AWR report from its text: one window, or a Compare Periods report's two.
pub fn read_periods_str(src: &str) -> Result<Periods, AwrError> {
    read_src(src, Want::Either)
}

/// What the caller reads: a report of one window only, or a Compare Periods report too.
#[derive(PartialEq)]
enum Want {
    OneWindow,
    Either,
}

fn read_src(src: &str, want: Want) -> Result<Periods, AwrError> {
    let lower_head = head(src);
    // awrddrpt: two periods side by side, which the readers of one window would mix up;
    // refused before it is read where one window is wanted.
    if is_compare(&lower_head) {
        if want == Want::OneWindow {
            return Err(AwrError::Unsupported(TWO_WINDOWS.into()));
        }
        if is_global_compare(&lower_head) {
            return Err(AwrError::Unsupported(
                "a RAC global AWR Compare Periods report (awrgdrpt): not read; give report impact --baseline the two periods' global reports (awrgrpt), or run awrddrpt for one instance".into(),
            ));
        }
        if !lower_head.contains("<table") {
            return Err(AwrError::Unsupported(
                "a text AWR Compare Periods report: only the HTML form is read (awrddrpt.sql, report type html), or give report impact --baseline the two periods' own reports".into(),
            ));
        }
        let [first, second] = compare::read(&html::blocks(src))?;
        return Ok(Periods::Two(Box::new([first, second])));
    }
    if lower_head.contains("statspack report for") && !lower_head.contains("<table") {
        return read::read(&text::blocks(src, text::STATSPACK)).map(|r| Periods::One(Box::new(r)));
    }
    if !lower_head.contains("<table") {
        if lower_head.contains("workload repository report for") {
            return read::read(&text::blocks(src, text::AWR_TEXT))
                .map(|r| Periods::One(Box::new(r)));
        }
        return Err(AwrError::NotAReport(
            "no HTML tables and no \"WORKLOAD REPOSITORY report\" title".into(),
        ));
    }
    read::read(&html::blocks(src)).map(|r| Periods::One(Box::new(r)))
}

impl AwrReport {
    /// A report of `kind` with nothing read yet: what each reader fills.
    pub(crate) fn empty(kind: Kind) -> Self {
        AwrReport {
            kind,
            identity: Identity::default(),
            window: Window::default(),
            events: BTreeMap::new(),
            stats: BTreeMap::new(),
            time_model: BTreeMap::new(),
            os: BTreeMap::new(),
            load_begin: None,
            load_end: None,
            log_switches: None,
            histogram_estimated: false,
            warnings: Vec::new(),
        }
    }

    /// The report as samples of the `primary` slot: the begin snapshot with every counter at
    /// 0, the end snapshot with the report's totals. `None` when the window's times are
    /// unknown.
    pub fn samples(&self) -> Option<[Sample; 2]> {
        let secs = self.window.secs()?;
        let begin_ms = self.window.begin_ms.or_else(|| {
            self.window
                .end_ms
                .map(|e| e - (secs * 1000.0).round() as i64)
        })?;
        let begin = Timestamp::from_millis(begin_ms);
        let end = begin.add_millis((secs * 1000.0).round() as i64);
        let mut a = Sample::new(begin, Slot::primary());
        let mut b = Sample::new(end, Slot::primary());
        let db = std::sync::Arc::new(self.db_info());
        a.db = Some(db.clone());
        b.db = Some(db);
        a.cdb = self.identity.cdb;
        b.cdb = self.identity.cdb;
        // An event seen only in the histograms has waits but no time: it is left out rather
        // than given a time of 0 (its average would read as 0 ms).
        for (name, e) in self.events.iter().filter(|(_, e)| e.timed) {
            let name = Name::from(name.as_str());
            a.events.insert(
                name.clone(),
                Event {
                    waits: 0,
                    us: Micros(0),
                    hist: Vec::new(),
                    waits_fg: e.waits_fg.map(|_| 0),
                    us_fg: e.us_fg.map(|_| Micros(0)),
                    class: e.class.as_deref().map(Name::from),
                },
            );
            b.events.insert(
                name,
                Event {
                    waits: e.waits,
                    us: Micros(e.us),
                    hist: e
                        .hist
                        .iter()
                        .map(|(ub, n)| Bucket(Micros(*ub), *n))
                        .collect(),
                    waits_fg: e.waits_fg,
                    us_fg: e.us_fg.map(Micros),
                    class: e.class.as_deref().map(Name::from),
                },
            );
        }
        for (name, v) in &self.stats {
            if *v < 0.0 || !v.is_finite() {
                continue;
            }
            a.stats.insert(Name::from(name.as_str()), 0);
            b.stats.insert(Name::from(name.as_str()), v.round() as u64);
        }
        // DB time from the header where the activity statistics do not list it (cs, as
        // V$SYSSTAT counts it): what the commits' share of the window is judged against.
        if let (false, Some(t)) = (
            self.stats
                .contains_key(dgscope_model::sample::names::stat::DB_TIME),
            self.window.db_time_s,
        ) {
            let name = Name::from(dgscope_model::sample::names::stat::DB_TIME);
            a.stats.insert(name.clone(), 0);
            b.stats.insert(name, (t * 100.0).round() as u64);
        }
        for (name, v) in self
            .time_model
            .iter()
            .filter(|(_, v)| v.is_finite() && **v >= 0.0)
        {
            a.time_model.insert(Name::from(name.as_str()), 0);
            b.time_model
                .insert(Name::from(name.as_str()), (v * 1e6).round() as u64);
        }
        for (name, v) in &self.os {
            // Counters start at 0; the CPU count is a gauge, the same at both ends.
            let start = if name == "NUM_CPUS" { *v } else { 0.0 };
            a.os.insert(Name::from(name.as_str()), start);
            b.os.insert(Name::from(name.as_str()), *v);
        }
        if let Some(l) = self.load_begin {
            a.os.insert(Name::from("LOAD"), l);
        }
        if let Some(l) = self.load_end {
            b.os.insert(Name::from("LOAD"), l);
        }
        if let Some(n) = self.log_switches {
            b.switches = Some(Arc::new(self.switch_history(end, secs, n)));
        }
        Some([a, b])
    }

    /// The report gives the number of switches, not their times: they are laid out at the
    /// window's average pace, ending at the end snapshot, over the hour the switch rules read
    /// (so the rules see the report's switches per hour).
    fn switch_history(&self, end: Timestamp, secs: f64, n: f64) -> Vec<LogSwitch> {
        let thread = self.identity.inst_num.unwrap_or(1);
        if n <= 0.0 || secs <= 0.0 {
            return Vec::new();
        }
        let spacing_ms = secs * 1000.0 / n;
        let mut out = Vec::new();
        let mut i = 0u64;
        // At most one switch a second (a bound for absurd figures).
        while (i as f64) * spacing_ms < 3_600_000.0 && i < 3600 {
            let t = end.add_millis(-((i as f64 * spacing_ms).round() as i64));
            out.push(LogSwitch {
                thread,
                sequence: i,
                time: t,
            });
            i += 1;
        }
        out.reverse();
        for (k, s) in out.iter_mut().enumerate() {
            s.sequence = k as u64 + 1;
        }
        out
    }

    fn db_info(&self) -> DbInfo {
        let id = &self.identity;
        DbInfo {
            name: id.db_name.as_deref().map(Name::from),
            role: Some(id.role.as_deref().map(Role::from).unwrap_or(Role::Primary)),
            version: id.release.as_deref().map(Name::from),
            startup: id.startup_ms.map(Timestamp::from_millis),
            host: id.host.as_deref().map(Name::from),
            ..DbInfo::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    const MINI: &str = "<html><body><h1>WORKLOAD REPOSITORY report for</h1>\
        <table><tr><th>DB Name</th><th>DB Id</th><th>Release</th><th>RAC</th></tr>\
        <tr><td>T</td><td>1</td><td>19.0.0.0.0</td><td>NO</td></tr></table>\
        <table><tr><th></th><th>Snap Id</th><th>Snap Time</th></tr>\
        <tr><td>Begin Snap:</td><td>5</td><td>01-Jan-24 00:00:00</td></tr>\
        <tr><td>End Snap:</td><td>6</td><td>01-Jan-24 01:00:00</td></tr>\
        <tr><td>Elapsed:</td><td></td><td>60.00 (mins)</td></tr></table></body></html>";

    #[test]
    fn a_gzip_report_reads_as_the_plain_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("awrrpt_1_5_6.html.gz");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(MINI.as_bytes()).unwrap();
        std::fs::write(&path, gz.finish().unwrap()).unwrap();
        let r = read_file(&path).unwrap();
        assert_eq!(r, read_str(MINI).unwrap());
        assert_eq!(r.window.begin_snap, Some(5));
        assert_eq!(r.window.secs(), Some(3600.0));
    }

    #[test]
    fn a_gzip_bomb_is_refused_and_a_broken_one_is_an_error() {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&[b' '; 4096]).unwrap();
        let packed = gz.finish().unwrap();
        assert!(matches!(gunzip(&packed, 1000), Err(Gunzip::TooLarge)));
        assert!(matches!(
            gunzip(&packed[..packed.len() / 2], 1 << 20),
            Err(Gunzip::Io(_))
        ));
    }
}
