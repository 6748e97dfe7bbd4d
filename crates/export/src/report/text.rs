//! The report's sections as a small document model, written two ways: Markdown for the
//! incident report (`e`, `dgscope report incident`) and plain text for `y` (the clipboard).
//! One builder per section decides what it says, so a finding pasted into a ticket and the
//! same finding in the report carry the same words, figures and order.

use super::commit_path::CommitRow;
use super::format::markdown_table;
use dgscope_core::causes::Finding;
use dgscope_model::sanitize::{field, md_text};
use dgscope_oracle::verify::{self, Releases};

/// One part of a section.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// A heading (`###` in Markdown, a bare line in text).
    Heading(String),
    /// A paragraph on one line.
    Para(String),
    /// A table: first column left-aligned, the others right-aligned.
    Table {
        head: Vec<String>,
        rows: Vec<Vec<String>>,
    },
    /// A bullet list.
    Bullets(Vec<String>),
    /// SQL: fenced in Markdown, indented by two in text.
    Sql(String),
}

/// The Markdown form (the report). Every text is escaped; tables through `markdown_table`.
pub fn markdown(blocks: &[Block]) -> String {
    let mut out = String::new();
    for b in blocks {
        match b {
            Block::Heading(h) => out.push_str(&format!("### {}\n\n", md_text(h))),
            Block::Para(p) => out.push_str(&format!("{}\n\n", md_text(p))),
            Block::Table { head, rows } => {
                let head: Vec<&str> = head.iter().map(String::as_str).collect();
                out.push_str(&markdown_table(&head, rows));
                out.push('\n');
            }
            Block::Bullets(items) => {
                for i in items {
                    out.push_str(&format!("- {}\n", md_text(i)));
                }
                out.push('\n');
            }
            Block::Sql(s) => out.push_str(&format!("```sql\n{s}\n```\n")),
        }
    }
    out
}

/// The plain-text form (`y`): no markup, no borders, lines as long as they are, trailing
/// blanks trimmed, one blank line between blocks, one `\n` at the end.
pub fn plain(blocks: &[Block]) -> String {
    let mut parts: Vec<String> = Vec::new();
    for b in blocks {
        parts.push(match b {
            Block::Heading(h) | Block::Para(h) => field(h),
            Block::Table { head, rows } => plain_table(head, rows),
            Block::Bullets(items) => items
                .iter()
                .map(|i| format!("- {}", field(i)))
                .collect::<Vec<_>>()
                .join("\n"),
            Block::Sql(s) => s
                .lines()
                .map(|l| format!("  {l}"))
                .collect::<Vec<_>>()
                .join("\n"),
        });
    }
    let text = parts.join("\n\n");
    let mut lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    let mut out = dgscope_model::sanitize::output(&lines.join("\n"));
    out.push('\n');
    out
}

/// A table as aligned columns two spaces apart: a column of figures (every cell starts
/// with a digit, a sign, `≤` or `–`) is right-aligned, any other left-aligned.
fn plain_table(head: &[String], rows: &[Vec<String>]) -> String {
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|r| r.iter().map(|c| field(c)).collect())
        .collect();
    let figure = |c: &str| {
        c.chars()
            .next()
            .is_none_or(|ch| ch.is_ascii_digit() || "+-–≤.".contains(ch))
    };
    let cols = head.len();
    let right: Vec<bool> = (0..cols)
        .map(|i| i > 0 && rows.iter().all(|r| r.get(i).is_none_or(|c| figure(c))))
        .collect();
    let mut width: Vec<usize> = head.iter().map(|h| h.chars().count()).collect();
    for r in &rows {
        for (i, c) in r.iter().enumerate().take(cols) {
            width[i] = width[i].max(c.chars().count());
        }
    }
    let line = |r: &[String]| {
        let cells: Vec<String> = (0..cols)
            .map(|i| {
                let c = r.get(i).map(String::as_str).unwrap_or("");
                let pad = " ".repeat(width[i] - c.chars().count());
                if right[i] {
                    format!("{pad}{c}")
                } else {
                    format!("{c}{pad}")
                }
            })
            .collect();
        cells.join("  ").trim_end().to_string()
    };
    let mut out = vec![line(head)];
    out.extend(rows.iter().map(|r| line(r)));
    out.join("\n")
}

/// A finding as the report writes it and `y` copies it from its drill-down: heading, since,
/// what it means, the evidence, what-if figures, what to do and the SQL to verify, spelled
/// for `releases`.
pub fn finding(f: &Finding, releases: &Releases) -> Vec<Block> {
    let mut out = vec![
        Block::Heading(format!("{} {} — {}", f.severity, f.id, f.title)),
        Block::Para(format!("Since {}.", f.since.text())),
        Block::Para(format!("Impact: {}.", f.impact.describe(f.kind))),
        Block::Para(f.meaning.clone()),
    ];
    if !f.evidence.is_empty() {
        out.push(Block::Table {
            head: ["evidence", "value", "threshold", "source"]
                .map(String::from)
                .to_vec(),
            rows: f
                .evidence
                .iter()
                .map(|e| {
                    vec![
                        e.metric.clone(),
                        // The screen's format for each quantity (one format everywhere).
                        dgscope_model::display::evidence_value(e.value, &e.unit),
                        e.threshold.clone().unwrap_or_else(|| "–".into()),
                        e.source.clone(),
                    ]
                })
                .collect(),
        });
    }
    if !f.what_if.is_empty() {
        out.push(Block::Para("What if:".into()));
        out.push(Block::Bullets(
            f.what_if
                .iter()
                .map(|w| format!("{}: {}", w.change, w.outcome))
                .collect(),
        ));
    }
    out.push(Block::Para("What to do:".into()));
    out.push(Block::Bullets(f.advice.clone()));
    out.push(Block::Para("To verify:".into()));
    for s in verify::texts(&f.verify, releases) {
        out.push(Block::Sql(s));
    }
    out
}

/// What the Findings section says when there is none.
pub const NO_FINDINGS: &str = "No cause above INFO was found: primary and standby looked healthy.";

/// Every finding, most severe first as ranked: the report's Findings section and what `y`
/// copies from the causes pane.
pub fn findings(fs: &[Finding], releases: &Releases) -> Vec<Block> {
    if fs.is_empty() {
        return vec![Block::Para(NO_FINDINGS.into())];
    }
    fs.iter().flat_map(|f| finding(f, releases)).collect()
}

/// The commit path over a window: each wait's average and histogram bounds (the report's
/// section and the first part of what `y` copies from the commit pane). Empty when no wait
/// has an average.
pub fn commit_path(rows: &[CommitRow]) -> Vec<Block> {
    // "≤ 8", or "> 2097152" in the open-ended last bucket (no upper bound is known).
    let bound = |v: Option<dgscope_core::metrics::Percentile>| {
        v.map_or_else(
            || "–".to_string(),
            |b| format!("{} {}", b.relation(), b.ms()),
        )
    };
    let rows: Vec<Vec<String>> = rows
        .iter()
        .filter(|r| r.avg_ms.is_some())
        .map(|r| {
            vec![
                r.event.to_string(),
                super::format::cell(r.avg_ms, 2),
                bound(r.p50),
                bound(r.p90),
                bound(r.p99),
            ]
        })
        .collect();
    if rows.is_empty() {
        return Vec::new();
    }
    vec![Block::Table {
        head: ["wait", "avg ms", "p50 ms", "p90 ms", "p99 ms"]
            .map(String::from)
            .to_vec(),
        rows,
    }]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_has_no_markup_and_markdown_escapes() {
        let b = vec![
            Block::Heading("WARN x — a <b> | c".into()),
            Block::Table {
                head: vec!["k".into(), "v".into()],
                rows: vec![vec!["long key".into(), "1".into()]],
            },
            Block::Bullets(vec!["do it".into()]),
            Block::Sql("SELECT 1\nUNION ALL SELECT 2;".into()),
        ];
        let p = plain(&b);
        assert_eq!(
            p,
            "WARN x — a <b> | c\n\nk         v\nlong key  1\n\n- do it\n\n  SELECT 1\n  UNION ALL SELECT 2;\n"
        );
        let m = markdown(&b);
        assert!(m.starts_with("### WARN x — a &lt;b> \\| c\n\n"), "{m}");
        assert!(m.contains("| long key | 1 |"), "{m}");
        assert!(
            m.contains("```sql\nSELECT 1\nUNION ALL SELECT 2;\n```\n"),
            "{m}"
        );
    }
}
