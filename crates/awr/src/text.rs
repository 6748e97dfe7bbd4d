//! Statspack's text report (`spreport.lst`) and AWR's (`awrrpt` as text) as the same blocks
//! the HTML reader gives: each section (a title line with `DB/Inst:`) becomes tables whose
//! columns are cut where the section's dashed underline puts them, so the sections are then
//! read by the same code as an AWR HTML report's.

use crate::html::{Block, Table};

/// Column extents `[start, end)` of an underline such as `------ ----- ~~~~`.
fn extents(underline: &str) -> Vec<(usize, usize)> {
    let b = underline.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'-' || b[i] == b'~' {
            let s = i;
            while i < b.len() && (b[i] == b'-' || b[i] == b'~') {
                i += 1;
            }
            out.push((s, i));
        } else {
            i += 1;
        }
    }
    out
}

fn is_underline(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty()
        && t.contains("--")
        && t.bytes().all(|c| c == b'-' || c == b'~' || c == b' ')
        && extents(line).len() >= 2
}

/// The cells of a line cut at the columns: the first from the line's start to its run's
/// end, each next one from the previous run's end to its own (numbers are right-aligned
/// and may spill left into the gap).
fn cut(line: &str, cols: &[(usize, usize)]) -> Vec<String> {
    let chars: Vec<char> = line.chars().collect();
    let slice = |a: usize, b: usize| -> String {
        let b = b.min(chars.len());
        if a >= b {
            String::new()
        } else {
            chars[a..b].iter().collect::<String>().trim().to_string()
        }
    };
    let n = cols.len();
    (0..n)
        .map(|i| {
            let start = if i == 0 { 0 } else { cols[i - 1].1 };
            // The last column takes the rest of the line.
            let end = if i + 1 == n { chars.len() } else { cols[i].1 };
            slice(start, end)
        })
        .collect()
}

/// The title block a Statspack report's blocks start with (the reader's kind is told by it).
pub(crate) const STATSPACK: &str = "STATSPACK report";
/// The title block of an AWR text report's blocks.
pub(crate) const AWR_TEXT: &str = "WORKLOAD REPOSITORY report (awr text report)";

/// Reads a text report into blocks, the first of them `title`.
pub(crate) fn blocks(src: &str, title: &str) -> Vec<Block> {
    let lines: Vec<&str> = src.lines().map(|l| l.trim_end_matches('\r')).collect();
    let mut out = vec![Block::Text(title.into())];
    // The header: the identity, host and snapshot tables.
    let mut i = 0;
    while i < lines.len() && !lines[i].contains("DB/Inst:") {
        let l = lines[i];
        // Statspack: `Database  DB Id …`; AWR: `DB Name  DB Id …`, and from 12c the
        // instance on a table of its own (`Instance  Inst Num  Startup Time`).
        let identity =
            (l.starts_with("Database") || l.starts_with("DB Name")) && l.contains("DB Id");
        let instance = l.starts_with("Instance") && l.contains("Inst Num");
        let host = l.starts_with("Host Name") || l.starts_with("Host  Name");
        if identity || instance || host {
            if let Some(t) = header_table(&lines, i) {
                out.push(Block::Table(t));
            }
        } else if l.starts_with("Top ") && l.contains("Events") {
            // AWR's summary: "Top 10 Foreground Events by Total Wait Time" (11g: "Top 5
            // Timed Foreground Events"), ended by a blank line or the next block.
            let rows_end = (i + 1..lines.len())
                .skip_while(|&j| !is_underline(lines[j]))
                .skip(1)
                .find(|&j| {
                    lines[j].trim().is_empty()
                        || lines[j].starts_with("Host CPU")
                        || lines[j].contains("DB/Inst:")
                })
                .unwrap_or(lines.len());
            let title = l.trim().to_string();
            if let Some(t) = section_table(&title, &lines[i + 1..rows_end]) {
                out.push(Block::Text(title));
                out.push(Block::Table(t));
            }
        } else if l.starts_with("Host CPU") {
            if let Some(t) = host_cpu(&lines[i..]) {
                out.push(Block::Table(t));
            }
        } else if l.trim_start().starts_with("Begin Snap:") {
            out.push(Block::Table(snapshots(&lines[i..])));
        }
        i += 1;
    }
    // The sections.
    while i < lines.len() {
        let Some(pos) = lines[i].find("DB/Inst:") else {
            i += 1;
            continue;
        };
        let title = lines[i][..pos].trim().to_string();
        let start = i + 1;
        let mut end = start;
        while end < lines.len() && !lines[end].contains("DB/Inst:") {
            end += 1;
        }
        out.push(Block::Text(title.clone()));
        if let Some(t) = section_table(&title, &lines[start..end]) {
            out.push(Block::Table(t));
        }
        i = end;
    }
    out
}

/// A header table: the names line at `at`, its underline, one line of values.
fn header_table(lines: &[&str], at: usize) -> Option<Table> {
    let under = lines.get(at + 1)?;
    let values = lines.get(at + 2)?;
    // A `~~~~` run underlines a label of the block ("Database", "Host"), not a column.
    let cols: Vec<(usize, usize)> = extents(under)
        .into_iter()
        .filter(|(a, _)| under.as_bytes().get(*a) == Some(&b'-'))
        .collect();
    if cols.len() < 2 {
        return None;
    }
    // Names are left-aligned over their underline: cut them at the runs' starts.
    let names: Vec<String> = {
        let chars: Vec<char> = lines[at].chars().collect();
        (0..cols.len())
            .map(|k| {
                let a = cols[k].0.min(chars.len());
                let b = if k + 1 < cols.len() {
                    cols[k + 1].0.min(chars.len())
                } else {
                    chars.len()
                };
                chars[a..b].iter().collect::<String>().trim().to_string()
            })
            .collect()
    };
    let mut names = names;
    // "Host Name" stands over the label's run and the host's.
    if let Some(n) = names.first_mut().filter(|n| n.as_str() == "Name") {
        *n = "Host Name".into();
    }
    Some(Table {
        title: String::new(),
        rows: vec![names, cut(values, &cols)],
        header_rows: 1,
    })
}

/// `Begin Snap: 6693 31-Jan-16 00:00:03 …`, `End Snap:`, `Elapsed: 1,439.98 (mins)`,
/// `DB time: 10.30 (mins)` as AWR's snapshot table.
fn snapshots(lines: &[&str]) -> Table {
    let mut rows = vec![vec![
        String::new(),
        "Snap Id".to_string(),
        "Snap Time".to_string(),
    ]];
    for l in lines.iter().take(6) {
        let t = l.trim();
        for (label, name) in [("Begin Snap:", "Begin Snap:"), ("End Snap:", "End Snap:")] {
            if let Some(rest) = t.strip_prefix(label) {
                let w: Vec<&str> = rest.split_whitespace().collect();
                let time = match (w.get(1), w.get(2)) {
                    (Some(d), Some(h)) => format!("{d} {h}"),
                    _ => String::new(),
                };
                rows.push(vec![
                    name.to_string(),
                    w.first().map_or(String::new(), |s| s.to_string()),
                    time,
                ]);
            }
        }
        // Statspack writes `DB time:`, AWR `DB Time:`.
        let folded = t.to_ascii_lowercase();
        for (label, name) in [("elapsed:", "Elapsed:"), ("db time:", "DB Time:")] {
            if let Some(p) = folded.find(label) {
                let rest = &t[p + label.len()..];
                if let Some(m) = rest.find("(mins)") {
                    rows.push(vec![
                        name.to_string(),
                        String::new(),
                        format!("{} (mins)", rest[..m].trim()),
                    ]);
                }
            }
        }
    }
    Table {
        title: String::new(),
        rows,
        header_rows: 1,
    }
}

/// AWR's `Host CPU` block: the load average at the snapshots and the CPU split, as the
/// HTML report's "Host CPU" table.
fn host_cpu(lines: &[&str]) -> Option<Table> {
    let u = lines.iter().take(6).position(|l| is_underline(l))?;
    let cols = extents(lines[u]);
    let values = cut(lines.get(u + 1)?, &cols);
    let names = [
        "Load Average Begin",
        "Load Average End",
        "%User",
        "%System",
        "%WIO",
        "%Idle",
    ];
    (values.len() == names.len()).then(|| Table {
        title: "Host CPU".into(),
        rows: vec![names.iter().map(|n| n.to_string()).collect(), values],
        header_rows: 1,
    })
}

/// A section's table: columns from its first underline, names from the lines above it
/// (several lines joined, group captions such as `--- % of Waits ---` left out), and every
/// later line of the section that is not a note, a rule or blank as a row (a page break
/// continues the rows without repeating the header).
fn section_table(title: &str, lines: &[&str]) -> Option<Table> {
    let u = lines.iter().position(|l| is_underline(l))?;
    let cols = extents(lines[u]);
    let mut names = vec![String::new(); cols.len()];
    let first_header = lines[..u]
        .iter()
        .rposition(|l| l.trim().is_empty() || l.trim_start().starts_with("->"))
        .map_or(0, |p| p + 1);
    let header = &lines[first_header..u];
    // A group caption (`% of Waits`) stands over a single dashed run: neither is a name.
    let rule = |l: &str| {
        let t = l.trim();
        !t.is_empty() && (t.bytes().all(|c| c == b'-') || t.bytes().all(|c| c == b'~'))
    };
    for (n, l) in header.iter().enumerate() {
        if rule(l) || header.get(n + 1).is_some_and(|next| rule(next)) {
            continue;
        }
        for (k, piece) in cut(l, &cols).into_iter().enumerate() {
            if piece.is_empty() || piece.contains("--") || piece.contains("% of") {
                continue;
            }
            if !names[k].is_empty() {
                names[k].push(' ');
            }
            names[k].push_str(&piece);
        }
    }
    let mut rows = vec![names];
    for l in &lines[u + 1..] {
        let t = l.trim();
        if t.is_empty() || t.starts_with("->") || t.starts_with("--") || is_underline(l) {
            continue;
        }
        let cells = cut(l, &cols);
        if cells.first().is_none_or(|c| c.is_empty()) {
            continue;
        }
        rows.push(cells);
    }
    Some(Table {
        title: title.to_string(),
        rows,
        header_rows: 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_cut_at_the_underline() {
        let row = |a: &str, b: &str, c: &str, d: &str| format!("{a:<18} {b:>8} {c:>13} {d:>6}");
        let lines = [
            String::new(),
            row("", "", "Total Wait", "wait"),
            row("Event", "Waits", "Time (s)", "(ms)"),
            "------------------ -------- ------------- ------".to_string(),
            row("log file sync", "27,042", "6", "0"),
            String::new(),
            row("db file scattered r", "120", "0.5", "4"),
            "          ------------------------------------".to_string(),
        ];
        let sec: Vec<&str> = lines.iter().map(String::as_str).collect();
        let t = section_table("Foreground Wait Events", &sec).unwrap();
        assert_eq!(
            t.rows[0],
            vec!["Event", "Waits", "Total Wait Time (s)", "wait (ms)"]
        );
        assert_eq!(t.rows[1], vec!["log file sync", "27,042", "6", "0"]);
        assert_eq!(t.rows.len(), 3);
    }
}
