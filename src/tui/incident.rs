//! `e`: an incident report as Markdown — what the screen knows now (who, when, the impact
//! table when a baseline exists, the findings). One call, so a fuller report can replace the
//! body without touching the loop.

use crate::app::App;
use crate::metrics::Delta;
use crate::sample::names::event;
use crate::ui::fmt;
use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};

/// Writes the report into `dir` and returns its path.
pub fn write_report(app: &App, dir: &Path) -> io::Result<PathBuf> {
    let stamp = file_stamp(app.clock());
    let path = dir.join(format!("dgscope-incident-{stamp}.md"));
    std::fs::write(&path, markdown(app))?;
    Ok(path)
}

/// `2026-11-30T05:03:12.000Z` → `20261130-050312`, safe in any file system.
pub fn file_stamp(t: crate::timestamp::Timestamp) -> String {
    let s = t.to_string();
    let digits: String = s.chars().filter(|c| c.is_ascii_digit()).collect();
    if digits.len() >= 14 {
        format!("{}-{}", &digits[..8], &digits[8..14])
    } else {
        digits
    }
}

fn event_row(out: &mut String, name: &str, d: Option<&Delta>) {
    let e = d.and_then(|d| d.event(name));
    let avg = e.and_then(|e| e.avg()).map(|m| m.0);
    let p = |q| e.and_then(|e| e.hist.percentile_ms(q));
    let _ = writeln!(
        out,
        "| {name} | {} | {} | {} | {} |",
        fmt::opt(avg, 2),
        fmt::bound(p(0.5), true),
        fmt::bound(p(0.9), true),
        fmt::bound(p(0.99), true)
    );
}

pub fn markdown(app: &App) -> String {
    let mut s = String::new();
    let e = &app.engine;
    let _ = writeln!(s, "# dgscope incident report\n");
    let _ = writeln!(s, "- time: {}", app.clock());
    let _ = writeln!(s, "- source: {} ({})", app.cfg.source, app.cfg.mode.label());
    let name = |slot: Option<&crate::sample::Slot>| {
        slot.and_then(|x| e.slot(x))
            .and_then(|x| x.last_good())
            .and_then(|x| x.db.as_ref())
            .and_then(|d| d.name.clone())
            .unwrap_or_else(|| "?".into())
    };
    let _ = writeln!(s, "- primary: {}", name(app.primary()));
    for sb in e.standby_slots() {
        let _ = writeln!(s, "- standby: {} ({sb})", name(Some(sb)));
    }
    let _ = writeln!(s, "- window: {}", app.window);
    if let Some(b) = e.baseline() {
        let _ = writeln!(s, "- baseline set at: {b}");
    }
    let d = app.deltas();
    let _ = writeln!(s, "\n## Commit path (primary, window {})\n", app.window);
    let _ = writeln!(
        s,
        "| wait | avg ms | p50 | p90 | p99 |\n|---|---:|---:|---:|---:|"
    );
    for n in [
        event::LOG_FILE_SYNC,
        event::LOG_FILE_PARALLEL_WRITE,
        event::SYNC_REMOTE_WRITE,
    ] {
        event_row(&mut s, n, d.primary.as_ref());
    }
    if let Some(rows) = e.impact(app.window) {
        let _ = writeln!(s, "\n## Impact: baseline vs now\n");
        let _ = writeln!(
            s,
            "| metric | unit | baseline | now | change |\n|---|---|---:|---:|---:|"
        );
        for r in rows {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} |",
                r.metric.label(),
                r.metric.unit(),
                fmt::opt_auto(r.baseline),
                fmt::opt_auto(r.compare),
                r.change_pct
                    .map_or_else(|| fmt::NONE.to_string(), fmt::pct_change)
            );
        }
    }
    let _ = writeln!(s, "\n## Suggested causes\n");
    if app.assessment.findings.is_empty() {
        let _ = writeln!(
            s,
            "{}",
            if !app.cfg.causes_available {
                "Not available in this build."
            } else if app.warming_up() {
                "Not enough data yet (warming up)."
            } else {
                "No cause above INFO — primary and standby look healthy."
            }
        );
    }
    for f in &app.assessment.findings {
        let _ = writeln!(s, "### {} {} (`{}`)\n", f.severity, f.title, f.id);
        for ev in &f.evidence {
            let _ = writeln!(s, "- {}", crate::ui::causes::evidence_text(ev));
        }
        if !f.meaning.is_empty() {
            let _ = writeln!(s, "\n{}", f.meaning);
        }
        if !f.check_sql.is_empty() {
            let _ = writeln!(s, "\nCheck:\n");
            for q in &f.check_sql {
                let _ = writeln!(s, "```sql\n{q}\n```");
            }
        }
        if !f.advice.is_empty() {
            let _ = writeln!(s, "\nWhat to do:\n");
        }
        for a in &f.advice {
            let _ = writeln!(s, "- {a}");
        }
        let _ = writeln!(s);
    }
    let marks: Vec<_> = app.marks().collect();
    if !marks.is_empty() {
        let _ = writeln!(s, "\n## Notes\n");
        for m in marks {
            let _ = writeln!(s, "- {} {}", m.t, m.text);
        }
    }
    s
}
