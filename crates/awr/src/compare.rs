//! AWR Compare Periods reports (`awrddrpt`, HTML): two snapshot windows side by side in one
//! file, each read into its own [`AwrReport`] so that `report impact` sets them against each
//! other as it does two reports.
//!
//! The layout (19c and 23ai as published; `awrddrpt.sql` writes it): rows labelled `1st` /
//! `2nd` (`First (1st)` / `Second (2nd)` in the identity tables) in the summary tables, and in
//! the detail tables two header rows, groups (`% of DB time`, `Total Wait Time (sec)`,
//! `Value`, …) over `1st | 2nd | Diff` (or `%Diff`) columns. Unlike an instance report, the one
//! "Wait Events" table holds foreground and background events together, with waits per
//! second instead of counts (the exact counts of the top events are in "Top Timed Events"),
//! and there are no histograms.

use crate::cell;
use crate::html::{Block, Table};
use crate::{AwrError, AwrReport, EventFigures, Kind};
use std::collections::BTreeMap;

/// The two periods, first then second.
pub(crate) fn read(blocks: &[Block]) -> Result<[AwrReport; 2], AwrError> {
    let tables = crate::html::tables(blocks);
    let pdb = blocks.iter().any(|b| match b {
        Block::Text(t) => t.to_ascii_lowercase().contains("(pdb snapshots)"),
        Block::Table(_) => false,
    });
    let mut periods = [period(pdb), period(pdb)];
    windows(&tables, &mut periods);
    if periods.iter().any(|p| p.window.secs().is_none()) {
        return Err(AwrError::BadCompare(
            "its snapshot table (Begin Snap Id / End Snap Id / Elapsed Time rows 1st and 2nd) was not found: a file cut short, or a layout this version does not read (it reads 19c's and 23ai's)".into(),
        ));
    }
    identity(&tables, &mut periods);
    host(&tables, &mut periods);
    let mut seen_waits = false;
    let mut seen_stats = false;
    let mut seen_os = false;
    for t in &tables {
        if let Some(g) = Grouped::of(t, &["Event", "Wait Class"]) {
            seen_waits |= wait_events(t, &g, &mut periods);
        } else if let Some(g) = Grouped::of(t, &["Statistic"]) {
            seen_stats |= values(t, &g, &mut periods, |r| &mut r.stats);
        } else if let Some(g) = Grouped::of(t, &["Statistic Name"]) {
            seen_os |= values(t, &g, &mut periods, |r| &mut r.os);
        }
    }
    // The exact counts of the events on the top lists (the Wait Events table gives waits per
    // second, rounded to two decimals).
    for t in &tables {
        top_timed(t, &mut periods);
    }
    for p in &mut periods {
        if !seen_waits {
            p.warnings
                .push("no Wait Events section: wait event figures unknown".into());
        }
        if !seen_stats {
            p.warnings.push(
                "no Instance Activity Stats sections: commits, redo size and redo writes unknown"
                    .into(),
            );
        }
        if !seen_os {
            p.warnings
                .push("no Operating System Statistics section: host CPU busy unknown".into());
        }
        p.warnings.push(
            "a Compare Periods report has no Wait Event Histogram: latency distributions unknown"
                .into(),
        );
        p.warnings.push(
            "a Compare Periods report lists foreground and background waits in one table: foreground figures unknown"
                .into(),
        );
    }
    Ok(periods)
}

fn period(pdb: bool) -> AwrReport {
    let mut r = AwrReport::empty(if pdb {
        Kind::ComparePdbHtml
    } else {
        Kind::CompareHtml
    });
    r.identity.instances = 1;
    r
}

/// Which period a summary row's label names: `1st`, `First (1st)` → 0; `2nd`,
/// `Second (2nd)` → 1.
fn which(label: &str) -> Option<usize> {
    let l = label.trim().to_ascii_lowercase();
    if l == "1st" || l.starts_with("first") {
        Some(0)
    } else if l == "2nd" || l.starts_with("second") {
        Some(1)
    } else {
        None
    }
}

/// The snapshot table: `Snapshot Set | Begin Snap Id | Begin Snap Time | End Snap Id |
/// End Snap Time | Avg Active Users | Elapsed Time (min) | DB time (min)`.
fn windows(tables: &[&Table], periods: &mut [AwrReport; 2]) {
    for t in tables {
        let (Some(b_id), Some(b_t), Some(e_id), Some(e_t)) = (
            t.col("Begin Snap Id"),
            t.col("Begin Snap Time"),
            t.col("End Snap Id"),
            t.col("End Snap Time"),
        ) else {
            continue;
        };
        let elapsed = t.col("Elapsed Time");
        let db_time = t.col("DB time");
        for row in t.body() {
            let Some(i) = row.first().and_then(|l| which(l)) else {
                continue;
            };
            let cell = |c: usize| row.get(c).map(String::as_str).unwrap_or("");
            let minutes = |c: Option<usize>| c.and_then(|c| cell::num(cell(c))).map(|f| f.v * 60.0);
            let w = &mut periods[i].window;
            w.begin_snap = cell(b_id).trim().parse().ok();
            w.end_snap = cell(e_id).trim().parse().ok();
            w.begin_ms = cell::snap_time(cell(b_t));
            w.end_ms = cell::snap_time(cell(e_t));
            w.elapsed_s = minutes(elapsed);
            w.db_time_s = minutes(db_time);
        }
        return;
    }
}

/// The identity tables: `Snapshot Set | DB Name | DB Id | Unique Name | DB Role | Edition |
/// Release | Cluster | CDB | Host | …` and `Snapshot Set | Instance | Inst num`.
fn identity(tables: &[&Table], periods: &mut [AwrReport; 2]) {
    for t in tables {
        if !t.has_header("Snapshot Set") || t.col("Begin Snap Id").is_some() {
            continue;
        }
        for row in t.body() {
            let Some(i) = row.first().and_then(|l| which(l)) else {
                continue;
            };
            let get = |h: &str| {
                t.col(h)
                    .and_then(|c| row.get(c))
                    .map(|v| v.trim().to_string())
                    .filter(|v| !v.is_empty())
            };
            let yes = |h: &str| get(h).map(|v| v.eq_ignore_ascii_case("YES"));
            let id = &mut periods[i].identity;
            id.db_name = id.db_name.take().or(get("DB Name"));
            id.dbid = id.dbid.or(get("DB Id").and_then(|v| v.parse().ok()));
            id.unique_name = id.unique_name.take().or(get("Unique Name"));
            id.role = id.role.take().or(get("DB Role"));
            id.release = id.release.take().or(get("Release"));
            id.rac = id.rac.or(yes("Cluster"));
            id.cdb = id.cdb.or(yes("CDB"));
            id.host = id.host.take().or(get("Host"));
            id.instance = id.instance.take().or(get("Instance"));
            id.inst_num = id.inst_num.or(get("Inst num").and_then(|v| v.parse().ok()));
        }
    }
}

/// Host Configuration Comparison: `Number of CPUs:`, `Number of CPU Cores:`, `Load at Start
/// Snapshot:`, `Load at End Snapshot:` in the `1st` and `2nd` columns.
fn host(tables: &[&Table], periods: &mut [AwrReport; 2]) {
    for t in tables {
        let (Some(a), Some(b)) = (t.col("1st"), t.col("2nd")) else {
            continue;
        };
        if !t
            .body()
            .iter()
            .any(|r| r.first().is_some_and(|l| l.starts_with("Number of CPUs")))
        {
            continue;
        }
        for row in t.body() {
            let label = row
                .first()
                .map(|l| l.trim_end_matches(':').trim())
                .unwrap_or("");
            for (i, c) in [(0, a), (1, b)] {
                let Some(v) = row.get(c).and_then(|v| cell::num(v)).map(|f| f.v) else {
                    continue;
                };
                let p = &mut periods[i];
                match label {
                    "Number of CPUs" => {
                        p.identity.cpus = Some(v as u32);
                        p.os.insert("NUM_CPUS".into(), v);
                    }
                    "Number of CPU Cores" => p.identity.cores = Some(v as u32),
                    "Load at Start Snapshot" => p.load_begin = Some(v),
                    "Load at End Snapshot" => p.load_end = Some(v),
                    _ => {}
                }
            }
        }
        return;
    }
}

/// A detail table with two header rows: its name columns and, per group, where its `1st`
/// and `2nd` columns are.
struct Grouped {
    /// The first data row.
    body: usize,
    /// Per group (in the order of the upper header row): its name and its 1st/2nd columns.
    groups: Vec<(String, usize, usize)>,
}

impl Grouped {
    /// `t` when its lower header row starts with `names` and holds `1st`/`2nd` columns.
    fn of(t: &Table, names: &[&str]) -> Option<Self> {
        let (lower, cols) = t.rows.iter().enumerate().take(4).find(|(_, r)| {
            r.len() > names.len()
                && r.iter()
                    .zip(names)
                    .all(|(c, n)| c.trim().eq_ignore_ascii_case(n))
        })?;
        let upper: Vec<&String> = match lower {
            0 => Vec::new(),
            n => t.rows[n - 1].iter().filter(|c| !c.is_empty()).collect(),
        };
        let mut groups = Vec::new();
        for (i, c) in cols.iter().enumerate() {
            if c.trim() == "1st" && cols.get(i + 1).is_some_and(|n| n.trim() == "2nd") {
                let name = upper
                    .get(groups.len())
                    .map_or_else(String::new, |s| s.to_string());
                groups.push((name, i, i + 1));
            }
        }
        (!groups.is_empty()).then_some(Grouped {
            body: lower + 1,
            groups,
        })
    }

    /// The `1st` and `2nd` columns of the group whose name starts with `prefix` (the
    /// upper header row names them; a table without it is not read).
    fn cols(&self, prefix: &str) -> Option<(usize, usize)> {
        let p = prefix.to_ascii_lowercase();
        self.groups
            .iter()
            .find(|(n, _, _)| n.to_ascii_lowercase().starts_with(&p))
            .map(|(_, a, b)| (*a, *b))
    }
}

/// Wait Events: `Event | Wait Class`, then `% of DB time`, `# Waits/sec (Elapsed Time)`,
/// `Total Wait Time (sec)`, `Avg Wait Time`, each `1st | 2nd | Diff`. The time is the total;
/// the waits are the rate × the window or the total ÷ the average, whichever the printed
/// digits tell more precisely (a rate of `0.01` over an hour is 18 to 54 waits). Idle events
/// are left out, as the instance reports' readers leave them.
fn wait_events(t: &Table, g: &Grouped, periods: &mut [AwrReport; 2]) -> bool {
    let (Some(rate), Some(total)) = (g.cols("# Waits/sec"), g.cols("Total Wait Time")) else {
        return false;
    };
    let avg = g.cols("Avg Wait Time");
    let class = 1;
    let mut any = false;
    for row in &t.rows[g.body.min(t.rows.len())..] {
        let Some(name) = row.first().map(|n| n.trim()).filter(|n| !n.is_empty()) else {
            continue;
        };
        if row
            .get(class)
            .is_some_and(|c| c.trim().eq_ignore_ascii_case("Idle"))
        {
            continue;
        }
        for (i, (rc, tc)) in [(0, (rate.0, total.0)), (1, (rate.1, total.1))] {
            let secs = periods[i].window.secs().unwrap_or(0.0);
            let per_s = row.get(rc).and_then(|c| cell::num(c));
            let time_s = row.get(tc).and_then(|c| cell::num(c));
            let (Some(per_s), Some(time_s)) = (per_s, time_s) else {
                continue;
            };
            let avg_ms = avg
                .map(|a| if i == 0 { a.0 } else { a.1 })
                .and_then(|c| row.get(c))
                .and_then(|c| cell::millis(c, 1.0));
            let waits = waits_of(per_s, secs, time_s, avg_ms).round();
            if waits < 0.0 || time_s.v < 0.0 {
                continue;
            }
            any = true;
            periods[i].events.insert(
                name.to_string(),
                EventFigures {
                    waits: waits as u64,
                    us: (time_s.v * 1e6).round() as u64,
                    waits_fg: None,
                    us_fg: None,
                    timed: true,
                    rounded: false,
                    hist: Vec::new(),
                    class: None,
                },
            );
        }
    }
    any
}

/// An event's waits over a window of `secs`: its rate × the window, or its total ÷ its
/// average, whichever carries less of the printed digits' rounding.
fn waits_of(per_s: cell::Fig, secs: f64, time_s: cell::Fig, avg_ms: Option<cell::Fig>) -> f64 {
    let by_rate = (per_s.v * secs, per_s.half * secs);
    let by_avg = avg_ms.filter(|a| a.v > 0.0).map(|a| {
        let w = time_s.v * 1000.0 / a.v;
        (w, w * (time_s.rel() + a.rel()))
    });
    match by_avg {
        Some(a) if a.1 < by_rate.1 => a.0,
        _ => by_rate.0,
    }
}

/// Key and Other Instance Activity Stats (`Statistic`) and Operating System Statistics
/// (`Statistic Name`): the `Value` group's 1st and 2nd columns, totals over each window.
fn values(
    t: &Table,
    g: &Grouped,
    periods: &mut [AwrReport; 2],
    into: fn(&mut AwrReport) -> &mut BTreeMap<String, f64>,
) -> bool {
    let Some((a, b)) = g.cols("Value") else {
        return false;
    };
    let mut any = false;
    for row in &t.rows[g.body.min(t.rows.len())..] {
        let Some(name) = row.first().map(|n| n.trim()).filter(|n| !n.is_empty()) else {
            continue;
        };
        for (i, c) in [(0, a), (1, b)] {
            if let Some(v) = row.get(c).and_then(|c| cell::num(c)) {
                any = true;
                into(&mut periods[i]).insert(name.to_string(), v.v);
            }
        }
    }
    any
}

/// Top Timed Events: two ranked lists side by side, `Event | Wait Class | Waits | Time(s) |
/// Avg Time | %DB time` for the 1st and then the 2nd period. An event listed only for the
/// other period's sake starts with `-`. Its waits are the exact count: they replace the
/// count estimated from the rate.
fn top_timed(t: &Table, periods: &mut [AwrReport; 2]) {
    let cols = t.columns();
    let starts: Vec<usize> = cols
        .iter()
        .enumerate()
        .filter(|(_, c)| c.trim() == "Event")
        .map(|(i, _)| i)
        .collect();
    if starts.len() != 2 || !cols.iter().any(|c| c.trim() == "Waits") {
        return;
    }
    for row in t.body() {
        for (i, &s) in starts.iter().enumerate() {
            let rel = |h: &str| {
                cols[s..]
                    .iter()
                    .position(|c| c.trim() == h)
                    .map(|k| s + k)
                    .filter(|k| i == 1 || *k < starts[1])
            };
            let Some(name) = row
                .get(s)
                .map(|n| n.trim().trim_start_matches('-').trim())
                .filter(|n| !n.is_empty())
            else {
                continue;
            };
            let Some(waits) = rel("Waits")
                .and_then(|c| row.get(c))
                .and_then(|c| cell::num(c))
            else {
                continue;
            };
            if let Some(e) = periods[i].events.get_mut(name) {
                e.waits = waits.v.round().max(0.0) as u64;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fig(s: &str) -> cell::Fig {
        cell::num(s).unwrap()
    }

    /// A rare event's rate (`0.01` a second over an hour: 18 to 54 waits) tells its count
    /// less well than its total over its average; a busy one's rate tells it best.
    #[test]
    fn waits_come_from_the_more_precise_of_rate_and_average() {
        let rare = waits_of(
            fig("0.01"),
            3600.0,
            fig("0.50"),
            cell::millis("13.89ms", 1.0),
        );
        assert!((rare - 36.0).abs() < 0.1, "{rare}");
        let busy = waits_of(
            fig("5,514.94"),
            900.0,
            fig("3,673.00"),
            cell::millis("740.00us", 1.0),
        );
        assert!((busy - 4_963_446.0).abs() < 0.5, "{busy}");
        // Not waited: `.00ns` is no average to divide by.
        let none = waits_of(fig("0.00"), 900.0, fig("0.00"), cell::millis(".00ns", 1.0));
        assert_eq!(none, 0.0);
    }
}
