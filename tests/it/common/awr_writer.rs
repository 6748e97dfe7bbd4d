//! Writes AWR instance reports (HTML) with given figures, in the layouts the reader must
//! know: 19c (units in every time cell, µs histograms with their detail tables) and 11.2
//! (whole-millisecond averages, a millisecond histogram). Only the sections `report awr`
//! reads are written, each as awrrpt.sql lays it out: an `h3` title, then a table whose
//! first row(s) hold `th` header cells.

#![allow(dead_code)]

use std::fmt::Write;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    V19,
    V112,
    /// 10.2: one "Wait Events" table of every session's waits (no foreground table), "Top 5
    /// Timed Events", upper-case markup. Only the HTML form is written.
    V102,
}

/// A wait event row as printed: waits, total time in seconds, average with its unit (19c:
/// `2.67ms`, `476.28us`; 11.2: whole milliseconds `76`).
#[derive(Debug, Clone)]
pub struct Ev {
    pub name: &'static str,
    pub waits: &'static str,
    pub total_s: &'static str,
    pub avg: &'static str,
    /// The wait class the Top table prints.
    pub class: &'static str,
}

pub fn ev(name: &'static str, waits: &'static str, total_s: &'static str, avg: &'static str) -> Ev {
    Ev {
        name,
        waits,
        total_s,
        avg,
        class: "Commit",
    }
}

impl Ev {
    pub fn class(self, class: &'static str) -> Ev {
        Ev { class, ..self }
    }
}

/// One histogram table: its title, the header of its count column, the bucket labels and
/// the rows (event, count, one percentage per label, "" for none).
#[derive(Debug, Clone)]
pub struct HistTable {
    pub title: &'static str,
    pub count_header: &'static str,
    pub labels: Vec<&'static str>,
    pub rows: Vec<(&'static str, &'static str, Vec<&'static str>)>,
}

impl HistTable {
    /// Its columns and rows, each event's name as `name` prints it (the text report cuts it).
    fn table(
        &self,
        name: fn(&'static str) -> &'static str,
    ) -> (Vec<&'static str>, Vec<Vec<&'static str>>) {
        let mut cols = vec!["Event", self.count_header];
        cols.extend(self.labels.iter().copied());
        let rows = self
            .rows
            .iter()
            .map(|(e, n, p)| {
                let mut r = vec![name(e), *n];
                r.extend(p.iter().copied());
                r
            })
            .collect();
        (cols, rows)
    }
}

#[derive(Debug, Clone)]
pub struct AwrFixture {
    pub layout: Layout,
    pub db_name: &'static str,
    pub dbid: &'static str,
    pub instance: &'static str,
    pub inst_num: &'static str,
    pub release: &'static str,
    pub rac: &'static str,
    pub cdb: &'static str,
    pub host: &'static str,
    pub cpus: &'static str,
    pub begin_snap: &'static str,
    pub end_snap: &'static str,
    pub begin_time: &'static str,
    pub end_time: &'static str,
    pub elapsed_min: &'static str,
    pub db_time_min: &'static str,
    pub load: (&'static str, &'static str),
    pub top_fg: Vec<Ev>,
    pub fg: Vec<Ev>,
    pub bg: Vec<Ev>,
    pub stats: Vec<(&'static str, &'static str)>,
    pub os: Vec<(&'static str, &'static str)>,
    pub switches: Option<&'static str>,
    pub hists: Vec<HistTable>,
    /// Time Model Statistics rows: `(statistic, seconds)`; none written when empty.
    pub time_model: Vec<(&'static str, &'static str)>,
    /// Sections left out, by title (a report cut short, a section a release lacks).
    pub omit: Vec<&'static str>,
}

const STYLE: &str = "body.awr {font:bold 10pt Arial,Helvetica,sans-serif;}\n\
h3.awr {font:bold 16pt Arial;color:#336699;}\n\
th.awrbg {font:bold 8pt Arial;color:White;background:#0066CC;}\n\
td.awrc {font:8pt Arial;background:#FFFFCC;}\n\
td.awrnc {font:8pt Arial;background:White;}\n";

impl AwrFixture {
    /// A 19c single-instance report of an hour with the given commit path.
    pub fn v19() -> Self {
        AwrFixture {
            layout: Layout::V19,
            db_name: "TESTDB",
            dbid: "1234567890",
            instance: "testdb1",
            inst_num: "1",
            release: "19.0.0.0.0",
            rac: "YES",
            cdb: "NO",
            host: "dbhost01",
            cpus: "16",
            begin_snap: "1200",
            end_snap: "1201",
            begin_time: "17-Feb-23 08:00:05",
            end_time: "17-Feb-23 09:00:05",
            elapsed_min: "60.00",
            db_time_min: "120.50",
            load: ("1.20", "2.40"),
            top_fg: vec![ev("log file sync", "36,000", "96.1", "2.67ms")],
            fg: vec![ev("log file sync", "36,000", "96", "2.67ms")],
            bg: vec![
                ev("log file parallel write", "72,000", "34", "476.28us"),
                ev("SYNC Remote Write", "72,000", "58", "805.50us"),
                ev("log file sync", "100", "0", "1.00ms"),
            ],
            stats: vec![
                ("user commits", "36,000"),
                ("user rollbacks", "3,600"),
                ("redo size", "1,887,436,800"),
                ("redo writes", "72,000"),
            ],
            os: vec![
                ("BUSY_TIME", "36,000"),
                ("IDLE_TIME", "324,000"),
                ("NUM_CPUS", "16"),
            ],
            switches: Some("30"),
            hists: vec![
                HistTable {
                    title: "Wait Event Histogram",
                    count_header: "Total Waits",
                    labels: vec![
                        "<8us", "<16us", "<32us", "<64us", "<128us", "<256us", "<512us", ">=512us",
                    ],
                    rows: vec![(
                        "log file parallel write",
                        "72K",
                        vec!["", "", "", "", "", "10.0", "40.0", "50.0"],
                    )],
                },
                HistTable {
                    title: "Wait Event Histogram (up to 32 ms)",
                    count_header: "Waits 1ms to 32ms",
                    labels: vec![
                        "<512us", "<1ms", "<2ms", "<4ms", "<8ms", "<16ms", "<32ms", ">=32ms",
                    ],
                    rows: vec![(
                        "log file parallel write",
                        "3600",
                        vec!["50.0", "45.0", "5.0", "", "", "", "", ""],
                    )],
                },
            ],
            time_model: Vec::new(),
            omit: Vec::new(),
        }
    }

    /// An 11.2 RAC instance report: whole-millisecond averages, a Top 10 table with finer
    /// totals, the millisecond histogram.
    pub fn v112() -> Self {
        AwrFixture {
            layout: Layout::V112,
            release: "11.2.0.4.0",
            begin_snap: "24703",
            end_snap: "24704",
            begin_time: "28-Feb-21 12:26:45",
            end_time: "28-Feb-21 13:03:45",
            elapsed_min: "37.00",
            db_time_min: "37,825.75",
            top_fg: vec![ev("log file sync", "10,020", "3414.4", "341")],
            fg: vec![ev("log file sync", "10,020", "3,414", "341")],
            bg: vec![ev("log file parallel write", "26,990", "2,044", "76")],
            stats: vec![
                ("user commits", "7,400"),
                ("user rollbacks", "12,800"),
                ("redo size", "191,479,200"),
                ("redo writes", "26,990"),
            ],
            os: vec![("BUSY_TIME", "985,022"), ("IDLE_TIME", "2,571,139")],
            switches: Some("1"),
            hists: vec![HistTable {
                title: "Wait Event Histogram",
                count_header: "Total Waits",
                labels: vec![
                    "<1ms", "<2ms", "<4ms", "<8ms", "<16ms", "<32ms", "<=1s", ">1s",
                ],
                rows: vec![(
                    "log file parallel write",
                    "26.99K",
                    vec!["10.0", "", "", "", "", "30.0", "60.0", ""],
                )],
            }],
            ..AwrFixture::v19()
        }
    }

    /// A 10.2 report: `fg` holds the "Wait Events" rows, every session's waits (log file
    /// sync's include 100 waits of background processes, 1 s, which the background table
    /// lists too).
    pub fn v102() -> Self {
        AwrFixture {
            layout: Layout::V102,
            release: "10.2.0.4.0",
            top_fg: vec![ev("log file sync", "10,120", "3,415", "337")],
            fg: vec![
                ev("log file sync", "10,120", "3,415", "337"),
                ev("log file parallel write", "26,990", "2,044", "76"),
            ],
            bg: vec![
                ev("log file parallel write", "26,990", "2,044", "76"),
                ev("log file sync", "100", "1", "10"),
            ],
            ..AwrFixture::v112()
        }
    }

    /// The wait event tables' columns, as awrrpt writes them in this layout.
    fn wait_columns(&self, share: &'static str) -> [&'static str; 7] {
        let avg = match self.layout {
            Layout::V19 => "Avg wait",
            Layout::V112 | Layout::V102 => "Avg wait (ms)",
        };
        [
            "Event",
            "Waits",
            "%Time -outs",
            "Total Wait Time (s)",
            avg,
            "Waits /txn",
            share,
        ]
    }

    fn has(&self, title: &str) -> bool {
        !self.omit.contains(&title)
    }

    pub fn render(&self) -> String {
        let mut h = String::new();
        let _ = write!(
            h,
            "<html lang=\"en\"><head><title>AWR Report for DB: {}, Inst: {}, Snaps: {}-{}</title>\n\
             <style type=\"text/css\">\n{STYLE}</style></head><body class=\"awr\">\n\
             <h1 class=\"awr\">\nWORKLOAD REPOSITORY report for\n\n</h1>\n",
            self.db_name, self.instance, self.begin_snap, self.end_snap
        );
        match self.layout {
            Layout::V19 => {
                table(
                    &mut h,
                    None,
                    &[
                        "DB Name",
                        "DB Id",
                        "Unique Name",
                        "Role",
                        "Edition",
                        "Release",
                        "RAC",
                        "CDB",
                    ],
                    &[vec![
                        self.db_name,
                        self.dbid,
                        "testdb",
                        "PRIMARY",
                        "EE",
                        self.release,
                        self.rac,
                        self.cdb,
                    ]],
                );
                table(
                    &mut h,
                    None,
                    &["Instance", "Inst Num", "Startup Time"],
                    &[vec![self.instance, self.inst_num, "12-Dec-22 11:58"]],
                );
            }
            // 10.2's header as it was written: upper-case tags, single-quoted classes, one
            // table with the host in it.
            Layout::V102 => {
                let _ = write!(
                    h,
                    "<TABLE BORDER=1 WIDTH=500>\n<TR><TH class='awrbg'>DB Name</TH><TH class='awrbg'>DB Id</TH>\
                     <TH class='awrbg'>Instance</TH><TH class='awrbg'>Inst num</TH><TH class='awrbg'>Release</TH>\
                     <TH class='awrbg'>RAC</TH><TH class='awrbg'>Host</TH></TR>\n\
                     <TR><TD class='awrnc'>{}</TD><TD ALIGN='right' class='awrnc'>{}</TD><TD class='awrnc'>{}</TD>\
                     <TD ALIGN='right' class='awrnc'>{}</TD><TD class='awrnc'>{}</TD><TD class='awrnc'>{}</TD>\
                     <TD class='awrnc'>{}</TD></TR>\n</TABLE><P>\n",
                    self.db_name, self.dbid, self.instance, self.inst_num, self.release, self.rac, self.host
                );
            }
            Layout::V112 => table(
                &mut h,
                None,
                &[
                    "DB Name",
                    "DB Id",
                    "Instance",
                    "Inst num",
                    "Startup Time",
                    "Release",
                    "RAC",
                ],
                &[vec![
                    self.db_name,
                    self.dbid,
                    self.instance,
                    self.inst_num,
                    "04-Dec-20 18:12",
                    self.release,
                    self.rac,
                ]],
            ),
        }
        if self.layout != Layout::V102 {
            table(
                &mut h,
                None,
                &[
                    "Host Name",
                    "Platform",
                    "CPUs",
                    "Cores",
                    "Sockets",
                    "Memory (GB)",
                ],
                &[vec![
                    self.host,
                    "Linux x86 64-bit",
                    self.cpus,
                    "8",
                    "2",
                    "62.79",
                ]],
            );
        }
        let elapsed = format!("{} (mins)", self.elapsed_min);
        let db_time = format!("{} (mins)", self.db_time_min);
        table(
            &mut h,
            None,
            &["", "Snap Id", "Snap Time", "Sessions", "Cursors/Session"],
            &[
                vec![
                    "Begin Snap:",
                    self.begin_snap,
                    self.begin_time,
                    "236",
                    "1.6",
                ],
                vec!["End Snap:", self.end_snap, self.end_time, "375", "1.8"],
                vec!["Elapsed:", "", elapsed.as_str(), "", ""],
                vec!["DB Time:", "", db_time.as_str(), "", ""],
            ],
        );
        let (tw, ta) = match self.layout {
            Layout::V19 => ("Total Wait Time (sec)", "Avg Wait"),
            Layout::V112 => ("Total Wait Time (sec)", "Wait Avg(ms)"),
            Layout::V102 => ("Time(s)", "Avg Wait(ms)"),
        };
        // The top table: 10.2's "Top 5 Timed Events" (a share of call time), later releases'
        // top foreground events (a share of DB time).
        let top = match self.layout {
            Layout::V102 => Some(("Top 5 Timed Events", "% Total Call Time", "45.1")),
            _ if self.has("Top 10 Foreground Events by Total Wait Time") => Some((
                "Top 10 Foreground Events by Total Wait Time",
                "% DB time",
                "1.6",
            )),
            _ => None,
        };
        if let Some((title, share_col, share)) = top {
            let rows: Vec<Vec<&str>> = self
                .top_fg
                .iter()
                .map(|e| vec![e.name, e.waits, e.total_s, e.avg, share, e.class])
                .collect();
            table(
                &mut h,
                Some(title),
                &["Event", "Waits", tw, ta, share_col, "Wait Class"],
                &rows,
            );
        }
        if !self.time_model.is_empty() {
            let rows: Vec<Vec<&str>> = self
                .time_model
                .iter()
                .map(|(n, v)| vec![*n, *v, ""])
                .collect();
            table(
                &mut h,
                Some("Time Model Statistics"),
                &["Statistic Name", "Time (s)", "% of DB Time"],
                &rows,
            );
        }
        if self.has("Host CPU") && self.layout != Layout::V102 {
            table(
                &mut h,
                Some("Host CPU"),
                &[
                    "CPUs",
                    "Cores",
                    "Sockets",
                    "Load Average Begin",
                    "Load Average End",
                    "%User",
                    "%System",
                    "%WIO",
                    "%Idle",
                ],
                &[vec![
                    self.cpus,
                    "8",
                    "2",
                    self.load.0,
                    self.load.1,
                    "7.0",
                    "3.0",
                    "0.1",
                    "90.0",
                ]],
            );
        }
        if self.has("Operating System Statistics") {
            let rows: Vec<Vec<&str>> = self.os.iter().map(|(n, v)| vec![*n, *v, ""]).collect();
            table(
                &mut h,
                Some("Operating System Statistics"),
                &["Statistic", "Value", "End Value"],
                &rows,
            );
        }
        let fg_title = match self.layout {
            Layout::V102 => "Wait Events",
            _ => "Foreground Wait Events",
        };
        for (title, evs, share) in [
            (fg_title, &self.fg, "% DB time"),
            ("Background Wait Events", &self.bg, "% bg time"),
        ] {
            if !self.has(title) {
                continue;
            }
            let mut rows: Vec<Vec<&str>> = evs
                .iter()
                .map(|e| vec![e.name, e.waits, "0", e.total_s, e.avg, "1.00", "1.2"])
                .collect();
            let mut cols = self.wait_columns(share).to_vec();
            if self.layout == Layout::V102 {
                // No share column before 11g.
                cols.pop();
                rows.iter_mut().for_each(|r| {
                    r.pop();
                });
            }
            table(&mut h, Some(title), &cols, &rows);
        }
        for t in &self.hists {
            if !self.has(t.title) {
                continue;
            }
            let (cols, rows) = t.table(|e| e);
            // Two header rows, as awrrpt writes them: the share's caption over the buckets.
            let _ = write!(
                h,
                "<h3 class=\"awr\">{}</h3>\n<table border=\"0\" class=\"tdiff\">\n\
                 <tr><th class=\"awrbg\"></th><th class=\"awrbg\"></th>\
                 <th class=\"awrbg\" colspan=\"{}\">% of Total Waits</th></tr>\n",
                t.title,
                t.labels.len()
            );
            rows_html(&mut h, &cols, &rows);
        }
        if self.has("Instance Activity Stats") {
            let rows: Vec<Vec<&str>> = self
                .stats
                .iter()
                .map(|(n, v)| vec![*n, *v, "10.00", "1.00"])
                .collect();
            table(
                &mut h,
                Some("Instance Activity Stats"),
                &["Statistic", "Total", "per Second", "per Trans"],
                &rows,
            );
        }
        if let Some(n) = self
            .switches
            .filter(|_| self.has("Instance Activity Stats - Thread Activity"))
        {
            table(
                &mut h,
                Some("Instance Activity Stats - Thread Activity"),
                &["Statistic", "Total", "per Hour"],
                &[vec!["log switches (derived)", n, "1.00"]],
            );
        }
        h.push_str("<p />\nEnd of Report\n</body></html>\n");
        h
    }
}

impl AwrFixture {
    /// The same report as awrrpt.sql's text form (`report_type = text`): the header's
    /// tables under dashed underlines, each section titled with `DB/Inst: … Snaps: …`, event
    /// names cut to 26 characters as the text report cuts them, figures as in [`render`].
    pub fn render_text(&self) -> String {
        let mut s = String::from("\nWORKLOAD REPOSITORY report for\n\n");
        let header = |s: &mut String, cols: &[&str], vals: &[&str]| {
            let w: Vec<usize> = cols
                .iter()
                .zip(vals)
                .map(|(c, v)| c.len().max(v.len()))
                .collect();
            let line = |cells: &[&str], left: bool| {
                cells
                    .iter()
                    .zip(&w)
                    .map(|(c, w)| {
                        if left {
                            format!("{c:<w$}")
                        } else {
                            format!("{c:>w$}")
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            s.push_str(line(cols, true).trim_end());
            s.push('\n');
            let dashes: Vec<String> = w.iter().map(|w| "-".repeat(*w)).collect();
            let dashes: Vec<&str> = dashes.iter().map(String::as_str).collect();
            s.push_str(&line(&dashes, true));
            s.push('\n');
            s.push_str(line(vals, false).trim_end());
            s.push_str("\n\n");
        };
        match self.layout {
            Layout::V19 => {
                header(
                    &mut s,
                    &[
                        "DB Name",
                        "DB Id",
                        "Unique Name",
                        "DB Role",
                        "Edition",
                        "Release",
                        "RAC",
                        "CDB",
                    ],
                    &[
                        self.db_name,
                        self.dbid,
                        "testdb",
                        "PRIMARY",
                        "EE",
                        self.release,
                        self.rac,
                        self.cdb,
                    ],
                );
                header(
                    &mut s,
                    &["Instance", "Inst Num", "Startup Time"],
                    &[self.instance, self.inst_num, "12-Dec-22 11:58"],
                );
            }
            Layout::V112 | Layout::V102 => header(
                &mut s,
                &[
                    "DB Name",
                    "DB Id",
                    "Instance",
                    "Inst Num",
                    "Startup Time",
                    "Release",
                    "RAC",
                ],
                &[
                    self.db_name,
                    self.dbid,
                    self.instance,
                    self.inst_num,
                    "04-Dec-20 18:12",
                    self.release,
                    self.rac,
                ],
            ),
        }
        header(
            &mut s,
            &[
                "Host Name",
                "Platform",
                "CPUs",
                "Cores",
                "Sockets",
                "Memory(GB)",
            ],
            &[self.host, "Linux x86 64-bit", self.cpus, "8", "2", "62.79"],
        );
        let _ = write!(
            s,
            "              Snap Id      Snap Time      Sessions Curs/Sess\n\
             \x20           --------- ------------------- -------- ---------\n\
             Begin Snap:{:>10} {}{:>10}{:>10}\n\
             \x20 End Snap:{:>10} {}{:>10}{:>10}\n\
             \x20  Elapsed:{:>20} (mins)\n\
             \x20  DB Time:{:>20} (mins)\n\n",
            self.begin_snap,
            self.begin_time,
            "236",
            "1.6",
            self.end_snap,
            self.end_time,
            "375",
            "1.8",
            self.elapsed_min,
            self.db_time_min
        );
        if self.has("Top 10 Foreground Events by Total Wait Time") {
            let (tw, ta) = match self.layout {
                Layout::V19 => ("Total Wait Time (sec)", "Avg Wait"),
                Layout::V112 | Layout::V102 => ("Total Wait Time (sec)", "Wait Avg(ms)"),
            };
            let rows: Vec<Vec<&str>> = self
                .top_fg
                .iter()
                .map(|e| vec![cut26(e.name), e.waits, e.total_s, e.avg, "1.6", "Commit"])
                .collect();
            s.push_str("Top 10 Foreground Events by Total Wait Time\n");
            s.push_str("~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n");
            s.push_str(&text_table(
                &["Event", "Waits", tw, ta, "% DB time", "Wait Class"],
                &rows,
            ));
            s.push('\n');
        }
        if self.has("Host CPU") {
            let _ = write!(
                s,
                "Host CPU (CPUs:{:>5} Cores:    8 Sockets:    2)\n\
                 ~~~~~~~~         Load Average\n\
                 \x20              Begin       End     %User   %System      %WIO     %Idle\n\
                 \x20          --------- --------- --------- --------- --------- ---------\n\
                 \x20          {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}\n\n",
                self.cpus, self.load.0, self.load.1, "7.0", "3.0", "0.1", "90.0"
            );
        }
        let title = |t: &str| {
            format!(
                "{t:<45}DB/Inst: {}/{}  Snaps: {}-{}\n",
                self.db_name, self.instance, self.begin_snap, self.end_snap
            )
        };
        let end = "          -------------------------------------------------------------\n\n";
        let section = |s: &mut String, t: &str, note: &str, cols: &[&str], rows: &[Vec<&str>]| {
            s.push_str(&title(t));
            s.push_str(note);
            s.push('\n');
            s.push_str(&text_table(cols, rows));
            s.push_str(end);
        };
        if self.has("Operating System Statistics") {
            let rows: Vec<Vec<&str>> = self.os.iter().map(|(n, v)| vec![*n, *v, ""]).collect();
            section(
                &mut s,
                "Operating System Statistics",
                "-> *TIME statistic values are diffed.\n",
                &["Statistic", "Value", "End Value"],
                &rows,
            );
        }
        for (t, evs, share) in [
            ("Foreground Wait Events", &self.fg, "% DB time"),
            ("Background Wait Events", &self.bg, "% bg time"),
        ] {
            if !self.has(t) {
                continue;
            }
            let rows: Vec<Vec<&str>> = evs
                .iter()
                .map(|e| vec![cut26(e.name), e.waits, "0", e.total_s, e.avg, "1.00", "1.2"])
                .collect();
            section(
                &mut s,
                t,
                "-> s  - second, ms - millisecond -    1000th of a second\n",
                &self.wait_columns(share),
                &rows,
            );
        }
        for h in &self.hists {
            if !self.has(h.title) {
                continue;
            }
            let (cols, rows) = h.table(cut26);
            s.push_str(&title(h.title));
            s.push_str("-> % of Waits: value of .0 indicates value was <.05%\n\n");
            // The caption over the buckets, underlined with one run, as awrrpt writes it.
            s.push_str("                                      % of Waits\n");
            s.push_str(
                "                                 ---------------------------------------\n",
            );
            s.push_str(&text_table(&cols, &rows));
            s.push_str(end);
        }
        if self.has("Instance Activity Stats") {
            let rows: Vec<Vec<&str>> = self
                .stats
                .iter()
                .map(|(n, v)| vec![*n, *v, "10.00", "1.00"])
                .collect();
            section(
                &mut s,
                "Instance Activity Stats",
                "-> Ordered by statistic name\n",
                &["Statistic", "Total", "per Second", "per Trans"],
                &rows,
            );
        }
        if let Some(n) = self
            .switches
            .filter(|_| self.has("Instance Activity Stats - Thread Activity"))
        {
            section(
                &mut s,
                "Instance Activity Stats - Thread Activity",
                "-> Statistics identified by '(derived)' come from sources other than SYSSTAT\n",
                &["Statistic", "Total", "per Hour"],
                &[vec!["log switches (derived)", n, "1.00"]],
            );
        }
        s.push_str("\nEnd of Report\n");
        s
    }
}

/// An event name as the text report prints it: at most 26 characters.
fn cut26(name: &str) -> &str {
    match name.char_indices().nth(26) {
        Some((i, _)) => &name[..i],
        None => name,
    }
}

/// A text table: the names (the last line of a multi-word name's words on one line), a
/// dashed underline per column, the rows (first column left-aligned, the rest right).
fn text_table(cols: &[&str], rows: &[Vec<&str>]) -> String {
    let mut w: Vec<usize> = cols.iter().map(|c| c.len()).collect();
    for r in rows {
        for (k, c) in r.iter().enumerate() {
            w[k] = w[k].max(c.len());
        }
    }
    let line = |cells: &[&str]| {
        let mut l = String::new();
        for (k, c) in cells.iter().enumerate() {
            if k > 0 {
                l.push(' ');
            }
            if k == 0 {
                let _ = write!(l, "{c:<width$}", width = w[k]);
            } else {
                let _ = write!(l, "{c:>width$}", width = w[k]);
            }
        }
        l.trim_end().to_string() + "\n"
    };
    let mut t = line(cols);
    let dashes: Vec<String> = w.iter().map(|w| "-".repeat(*w)).collect();
    t.push_str(&dashes.join(" "));
    t.push('\n');
    for r in rows {
        t.push_str(&line(r));
    }
    t
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn rows_html(h: &mut String, cols: &[&str], rows: &[Vec<&str>]) {
    h.push_str("<tr>");
    for c in cols {
        let _ = write!(h, "<th class=\"awrbg\" scope=\"col\">{}</th>", esc(c));
    }
    h.push_str("</tr>\n");
    for (i, r) in rows.iter().enumerate() {
        let class = if i % 2 == 0 { "awrc" } else { "awrnc" };
        h.push_str("<tr>");
        for (j, c) in r.iter().enumerate() {
            let align = if j == 0 { "" } else { " align=\"right\"" };
            let v = if c.is_empty() {
                "&#160;".to_string()
            } else {
                esc(c)
            };
            let _ = write!(h, "<td{align} class=\"{class}\">{v}</td>");
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</table><p />\n");
}

fn table(h: &mut String, title: Option<&str>, cols: &[&str], rows: &[Vec<&str>]) {
    if let Some(t) = title {
        let _ = write!(h, "<h3 class=\"awr\">{t}</h3>\n<ul></ul>\n");
    }
    h.push_str("<table border=\"0\" width=\"600\" class=\"tdiff\">\n");
    rows_html(h, cols, rows);
}

/// A Statspack text report (11.2 `spreport.lst`) of a quiet day: averages printed as whole
/// milliseconds (0 ms), so only total ÷ waits tells them; CRLF line ends as such files often
/// have, and a page break that continues a table without its header.
pub fn statspack() -> String {
    let mut s = String::new();
    let wait_row = |name: &str, waits: &str, total: &str, avg: &str| {
        format!(
            "{name:<28} {waits:>12} {:>4} {total:>10} {avg:>6} {:>8} {:>6}\n",
            "0", "0.5", "1.1"
        )
    };
    let wait_header = "                                                             Avg          %Total\n\
                       \x20                                         %Tim Total Wait   wait    Waits   Call\n\
                       Event                               Waits  out   Time (s)   (ms)     /txn   Time\n\
                       ---------------------------- ------------ ---- ---------- ------ -------- ------\n";
    let stat_row =
        |name: &str, total: &str| format!("{name:<33} {total:>18} {:>14} {:>12}\n", "0.7", "1.2");
    let title = |t: &str| format!("{t}  DB/Inst: QUIET/quiet1  Snaps: 6693-6723\n");
    s.push_str("STATSPACK report for\n\n");
    s.push_str("Database    DB Id    Instance     Inst Num  Startup Time   Release     RAC\n");
    s.push_str("~~~~~~~~ ----------- ------------ -------- --------------- ----------- ---\n");
    s.push_str("          1066102538 quiet1              1 15-Sep-15 08:45 11.2.0.4.0  NO\n\n");
    s.push_str("Host Name             Platform                CPUs Cores Sockets   Memory (G)\n");
    s.push_str("~~~~ ---------------- ---------------------- ----- ----- ------- ------------\n");
    s.push_str("     dbhost02         Linux x86 64-bit          12     6       1         31.3\n\n");
    s.push_str("Snapshot       Snap Id     Snap Time      Sessions Curs/Sess Comment\n");
    s.push_str("~~~~~~~~    ---------- ------------------ -------- --------- ------------------\n");
    s.push_str("Begin Snap:       6693 31-Jan-16 00:00:00      153       5.5\n");
    s.push_str("  End Snap:       6723 01-Feb-16 00:00:00      153       5.5\n");
    s.push_str("   Elapsed:   1,440.00 (mins) Av Act Sess:       0.0\n");
    s.push_str("   DB time:      10.30 (mins)      DB CPU:      19.78 (mins)\n\n");
    s.push_str(&title("Foreground Wait Events"));
    s.push_str("-> Only events with Total Wait Time (s) >= .001 are shown\n\n");
    s.push_str(wait_header);
    s.push_str(&wait_row("log file sync", "27,000", "6", "0"));
    s.push_str("          -------------------------------------------------------------\n\n");
    s.push_str(&title("Background Wait Events"));
    s.push_str("-> ordered by Total Wait Time desc, Waits desc (idle events last)\n\n");
    s.push_str(wait_header);
    s.push_str(&wait_row(
        "control file parallel write",
        "74,258",
        "24",
        "0",
    ));
    // A page break: the rows go on without the header.
    s.push_str("\n\x0c\n");
    s.push_str(&wait_row("log file parallel write", "60,000", "10", "0"));
    s.push_str("          -------------------------------------------------------------\n\n");
    s.push_str(&title("Instance Activity Stats"));
    s.push_str(
        "\nStatistic                                      Total     per Second    per Trans\n",
    );
    s.push_str(
        "--------------------------------- ------------------ -------------- ------------\n",
    );
    s.push_str(&stat_row("redo size", "983,040,000"));
    s.push_str(&stat_row("redo writes", "60,000"));
    s.push_str(&stat_row("user commits", "51,840"));
    s.push_str(&stat_row("user rollbacks", "0"));
    s.push_str(&title("Instance Activity Stats"));
    s.push_str("-> Statistics identified by '(derived)' come from sources other than SYSSTAT\n\n");
    s.push_str("Statistic                                      Total  per Hour\n");
    s.push_str("--------------------------------- ------------------ ---------\n");
    s.push_str("log switches (derived)                            48      2.00\n\n");
    s.push_str(&title("OS Statistics"));
    s.push_str("\nStatistic                                  Total\n");
    s.push_str("------------------------- ----------------------\n");
    s.push_str("BUSY_TIME                              1,500,000\n");
    s.push_str("IDLE_TIME                            102,000,000\n");
    s.push_str("NUM_CPUS                                      12\n");
    s.replace('\n', "\r\n")
}

/// One period of a Compare Periods report: its snapshots, elapsed minutes, and the figures
/// the report prints for it (Wait Events: waits/s and total seconds; the Value column of the
/// Instance Activity Stats).
#[derive(Debug, Clone)]
pub struct ComparePeriod {
    pub begin_snap: &'static str,
    pub begin_time: &'static str,
    pub end_snap: &'static str,
    pub end_time: &'static str,
    pub elapsed_min: &'static str,
    pub db_time_min: &'static str,
    /// (event, wait class, waits/s, total wait time s, avg as printed, exact waits for Top
    /// Timed Events or "" when it is not on the top list)
    pub events: Vec<(
        &'static str,
        &'static str,
        &'static str,
        &'static str,
        &'static str,
        &'static str,
    )>,
    pub stats: Vec<(&'static str, &'static str)>,
}

/// An AWR Compare Periods report (`awrddrpt`, HTML) as 19c lays it out: identity and
/// snapshot tables with `First (1st)`/`Second (2nd)` and `1st`/`2nd` rows, Host Configuration
/// Comparison, Top Timed Events side by side, and detail tables with two header rows (groups
/// over `1st | 2nd | Diff` columns). `sections` leaves out the detail sections not named
/// ("waits", "stats").
pub fn compare_periods(first: &ComparePeriod, second: &ComparePeriod, sections: &[&str]) -> String {
    let mut h = String::new();
    let _ = write!(
        h,
        "<html lang=\"en\"><head><title>AWR Compare Period Report for (1) DB: TESTDB, Inst: testdb1, Snaps: {}-{} (2) DB: TESTDB, Inst: testdb1, Snaps: {}-{}</title>\n\
         <style type=\"text/css\">\n{STYLE}</style></head><body class=\"awr\">\n\
         <h1 class=\"awr\">\nWORKLOAD REPOSITORY COMPARE PERIOD REPORT\n</h1>\n<h3 class=\"awr\">Report Summary</h3>\n",
        first.begin_snap, first.end_snap, second.begin_snap, second.end_snap
    );
    // A table as awrddrpt opens it (a `summary`), with the groups' upper header row over
    // the columns where it has one: `blank` empty cells, then each group over `span` columns.
    let tdiff = |h: &mut String,
                 what: &str,
                 groups: Option<(usize, &[&str], usize)>,
                 cols: &[&str],
                 rows: &[Vec<&str>]| {
        let _ = writeln!(
            h,
            "<table border=\"0\" class=\"tdiff\" summary=\"This table displays {what}\">"
        );
        if let Some((blank, names, span)) = groups {
            h.push_str("<tr>");
            h.push_str(&"<td>&nbsp;</td>".repeat(blank));
            for g in names {
                let _ = write!(h, "<th class=\"awrbg\" colspan=\" {span}\">{g}</th>");
            }
            h.push_str("</tr>\n");
        }
        rows_html(h, cols, rows);
    };
    let identity = |label| {
        vec![
            label,
            "TESTDB",
            "1234567890",
            "testdb_a",
            "PRIMARY",
            "EE",
            "19.0.0.0.0",
            "NO",
            "NO",
            "dbhost01",
            "8192",
        ]
    };
    tdiff(
        &mut h,
        "database and instance information",
        None,
        &[
            "Snapshot Set",
            "DB Name",
            "DB Id",
            "Unique Name",
            "DB Role",
            "Edition",
            "Release",
            "Cluster",
            "CDB",
            "Host",
            "Std Block Size",
        ],
        &[identity("First (1st)"), identity("Second (2nd)")],
    );
    tdiff(
        &mut h,
        "database and instance information",
        None,
        &["Snapshot Set", "Instance", "Inst num"],
        &[
            vec!["First (1st)", "testdb1", "1"],
            vec!["Second (2nd)", "testdb1", "1"],
        ],
    );
    let mut snaps: Vec<Vec<&str>> = [("1st", first), ("2nd", second)]
        .iter()
        .map(|(label, p)| {
            vec![
                *label,
                p.begin_snap,
                p.begin_time,
                p.end_snap,
                p.end_time,
                "1.0",
                p.elapsed_min,
                p.db_time_min,
            ]
        })
        .collect();
    snaps.push(vec!["%Diff", "", "", "", "", "0.0", "0.0", "0.0"]);
    tdiff(
        &mut h,
        "snapshot information",
        None,
        &[
            "Snapshot Set",
            "Begin Snap Id",
            "Begin Snap Time",
            "End Snap Id",
            "End Snap Time",
            "Avg Active Users",
            "Elapsed Time (min)",
            "DB time (min)",
        ],
        &snaps,
    );
    h.push_str("<p>Host Configuration Comparison</p>\n<ul>\n</ul>\n");
    tdiff(
        &mut h,
        "host configuration comparisons",
        None,
        &["", "1st", "2nd", "Diff", "%Diff"],
        &[
            vec!["Number of CPUs:", "16", "16", "0", "0.0"],
            vec!["Load at Start Snapshot:", "2.1", "2.3", "0.2", "9.5"],
            vec!["Load at End Snapshot:", "2.2", "2.4", "0.2", "9.1"],
        ],
    );
    h.push_str("<h3 class=\"awr\">Top Timed Events</h3>\n<ul>\n<li class=\"awr\"> Events with a \"-\" did not make the Top list in this set of snapshots, but are displayed for comparison purposes</li>\n</ul>\n");
    let six = [
        "Event",
        "Wait Class",
        "Waits",
        "Time(s)",
        "Avg Time",
        "%DB time",
    ];
    let top = |p: &ComparePeriod| -> Vec<[&'static str; 6]> {
        p.events
            .iter()
            .filter(|e| !e.5.is_empty())
            .map(|e| [e.0, e.1, e.5, e.3, e.4, "10.0"])
            .collect()
    };
    let (t1, t2) = (top(first), top(second));
    let blank = ["-", "", "", "", "", ""];
    let rows: Vec<Vec<&str>> = (0..t1.len().max(t2.len()))
        .map(|i| [*t1.get(i).unwrap_or(&blank), *t2.get(i).unwrap_or(&blank)].concat())
        .collect();
    tdiff(
        &mut h,
        "top timed events in comparing data",
        Some((0, &["1st", "2nd"], 6)),
        &[six, six].concat(),
        &rows,
    );
    if sections.contains(&"waits") {
        h.push_str("<h2 class=\"awr\">Wait Events</h2>\n<ul><li class=\"awr\"><a class=\"awr\" href=\"#1\">Wait Classes</a></li></ul>\n<h3 class=\"awr\">Wait Events</h3>\n<ul>\n<li class=\"awr\"> Ordered by absolute value of  'Diff' column of '% of DB time' descending (idle events last)</li>\n</ul>\n");
        let mut rows: Vec<Vec<&str>> = first
            .events
            .iter()
            .map(|e| {
                let other = second.events.iter().find(|o| o.0 == e.0);
                let (r2, t2, a2) = other.map_or(("", "", ""), |o| (o.2, o.3, o.4));
                vec![
                    e.0, e.1, "1.00", "1.00", "0.00", e.2, r2, "0.00", e.3, t2, "0.00", e.4, a2,
                    "0.00",
                ]
            })
            .collect();
        rows.push(vec![
            "SQL*Net message from client",
            "Idle",
            "50.00",
            "50.00",
            "0.00",
            "900.00",
            "900.00",
            "0.00",
            "9,000.00",
            "9,000.00",
            "0.00",
            "11.11ms",
            "11.11ms",
            "0.00",
        ]);
        tdiff(
            &mut h,
            "comparisons of wait events statistics",
            Some((
                2,
                &[
                    "% of DB time",
                    "# Waits/sec (Elapsed Time)",
                    "Total Wait Time (sec)",
                    "Avg Wait Time",
                ],
                3,
            )),
            &[
                "Event",
                "Wait Class",
                "1st",
                "2nd",
                "Diff",
                "1st",
                "2nd",
                "%Diff",
                "1st",
                "2nd",
                "%Diff",
                "1st",
                "2nd",
                "%Diff",
            ],
            &rows,
        );
    }
    if sections.contains(&"stats") {
        h.push_str("<h2 class=\"awr\">Instance Activity Statistics</h2>\n<h3 class=\"awr\">Key Instance Activity Stats</h3>\n<ul>\n<li class=\"awr\"> Ordered by statistic name</li>\n</ul>\n");
        let rows: Vec<Vec<&str>> = first
            .stats
            .iter()
            .map(|(name, v)| {
                let v2 = second
                    .stats
                    .iter()
                    .find(|o| o.0 == *name)
                    .map_or("", |o| o.1);
                vec![name, v, v2, "0.00", "", "", "", "", "", "", "", "", ""]
            })
            .collect();
        tdiff(
            &mut h,
            "comparisons of key instance activity statistics",
            Some((
                1,
                &[
                    "Value",
                    "per Second (DB time)",
                    "per Second (Elapsed Time)",
                    "per Trans",
                ],
                3,
            )),
            &[
                "Statistic",
                "1st",
                "2nd",
                "%Diff",
                "1st",
                "2nd",
                "%Diff",
                "1st",
                "2nd",
                "%Diff",
                "1st",
                "2nd",
                "%Diff",
            ],
            &rows,
        );
    }
    h.push_str("</body></html>\n");
    h
}
