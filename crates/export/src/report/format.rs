//! Output formats shared by every report.

/// How a report is written (the binary maps its `--format` onto this).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    Markdown,
}

/// Rounds for JSON output: enough digits for any comparison a DBA makes, none of the noise.
pub(crate) fn round(x: f64, digits: i32) -> f64 {
    let f = 10f64.powi(digits);
    (x * f).round() / f
}

/// A number for a table cell: "–" when absent.
pub(crate) fn cell(v: Option<f64>, decimals: usize) -> String {
    v.map_or_else(|| "–".to_string(), |x| format!("{x:.decimals$}"))
}

/// A signed percentage for a table cell: "+576.5 %", "–" when absent.
pub(crate) fn pct_cell(v: Option<f64>) -> String {
    v.map_or_else(|| "–".to_string(), |x| format!("{x:+.1} %"))
}

/// Left-aligns the first column and right-aligns the rest.
pub(crate) fn text_table(header: &[&str], rows: &[Vec<String>]) -> String {
    let cols = header.len();
    let mut width = vec![0usize; cols];
    for r in std::iter::once(&header.iter().map(|s| s.to_string()).collect::<Vec<_>>()).chain(rows)
    {
        for (i, c) in r.iter().enumerate().take(cols) {
            width[i] = width[i].max(c.chars().count());
        }
    }
    let line = |r: &[String]| {
        let mut out = String::new();
        for (i, c) in r.iter().enumerate().take(cols) {
            let pad = width[i] - c.chars().count();
            if i == 0 {
                out.push_str(c);
                out.push_str(&" ".repeat(pad));
            } else {
                out.push_str("  ");
                out.push_str(&" ".repeat(pad));
                out.push_str(c);
            }
        }
        out.trim_end().to_string()
    };
    let mut out = line(&header.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    out.push('\n');
    for r in rows {
        out.push_str(&line(r));
        out.push('\n');
    }
    out
}

/// A Markdown table (GitHub flavour), numbers right-aligned.
/// Every cell is escaped ([`dgscope_model::sanitize::md_cell`]): a `|` or a newline in a database or
/// destination name must not split a cell or end the table and forge what follows.
pub(crate) fn markdown_table(header: &[&str], rows: &[Vec<String>]) -> String {
    use dgscope_model::sanitize::md_cell;
    let join =
        |cells: &mut dyn Iterator<Item = &str>| cells.map(md_cell).collect::<Vec<_>>().join(" | ");
    let mut out = format!("| {} |\n", join(&mut header.iter().copied()));
    out.push('|');
    // Figures align right, words left: a column is right-aligned when every cell it has is
    // a figure ("4.58", "≤ 8", "+8.8 %", "–" for unknown).
    let figure = |c: &str| {
        let c = c
            .trim()
            .trim_start_matches(['≤', '<', '>', '+', '-', '~', ' ']);
        c.is_empty() || c == "–" || c.starts_with(|ch: char| ch.is_ascii_digit())
    };
    for i in 0..header.len() {
        let numeric = i > 0
            && rows
                .iter()
                .any(|r| r.get(i).is_some_and(|c| c.trim() != "–"))
            && rows.iter().all(|r| r.get(i).is_none_or(|c| figure(c)));
        out.push_str(if numeric { "---:|" } else { "---|" });
    }
    out.push('\n');
    for r in rows {
        out.push_str(&format!(
            "| {} |\n",
            join(&mut r.iter().map(String::as_str))
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_align() {
        let t = text_table(
            &["metric", "value"],
            &[
                vec!["tps".into(), "7814.9".into()],
                vec!["lfs".into(), "0.7".into()],
            ],
        );
        assert_eq!(t, "metric   value\ntps     7814.9\nlfs        0.7\n");
        let m = markdown_table(&["a", "b"], &[vec!["x".into(), "1".into()]]);
        assert_eq!(m, "| a | b |\n|---|---:|\n| x | 1 |\n");
        // Words align left, figures (with bounds, signs, units and unknowns) right.
        let m = markdown_table(
            &["slot", "role", "p50 ms", "change"],
            &[
                vec![
                    "primary".into(),
                    "PRIMARY".into(),
                    "≤ 8".into(),
                    "+8.8 %".into(),
                ],
                vec![
                    "standby".into(),
                    "PHYSICAL STANDBY".into(),
                    "0.62".into(),
                    "–".into(),
                ],
            ],
        );
        assert!(m.contains("\n|---|---|---:|---:|\n"), "{m}");
        let m = markdown_table(&["a", "b"], &[vec!["x".into(), "–".into()]]);
        assert!(
            m.contains("\n|---|---|\n"),
            "a column of unknowns only: {m}"
        );
        assert_eq!(pct_cell(Some(576.47)), "+576.5 %");
        assert_eq!(cell(None, 2), "–");
        assert_eq!(round(2.34567, 2), 2.35);
    }

    #[test]
    fn markdown_cells_cannot_forge_rows() {
        let m = markdown_table(
            &["db"],
            &[vec!["x |\n## All healthy, no action needed\n| y".into()]],
        );
        assert_eq!(m.lines().count(), 3, "{m}");
        assert!(m.contains("x \\|␊## All healthy"), "{m}");
    }
}
