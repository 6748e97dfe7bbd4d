//! The header line: mode and clock, who is primary and who is standby, how redo travels,
//! protection mode, window, pace, recording and baseline.

use super::theme::Role;
use super::{fmt, Ctx};
use crate::app::{Mode, Pace};
use crate::sample::{Dest, Sample};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

fn db_name(s: Option<&Sample>, fallback: &str) -> String {
    s.and_then(|s| s.db.as_ref())
        .and_then(|d| d.name.clone())
        .unwrap_or_else(|| fallback.to_string())
}

fn protection(p: &str) -> &str {
    match p {
        "MAXIMUM AVAILABILITY" => "MaxAvail",
        "MAXIMUM PERFORMANCE" => "MaxPerf",
        "MAXIMUM PROTECTION" => "MaxProt",
        "RESYNCHRONIZATION" => "RESYNC",
        "UNPROTECTED" => "UNPROTECTED",
        other => other,
    }
}

/// The destination on the primary that ships to `standby_name` (by DB_UNIQUE_NAME), or the
/// first remote one.
pub fn dest_for<'a>(primary: Option<&'a Sample>, standby_name: Option<&str>) -> Option<&'a Dest> {
    let dests = &primary?.dests;
    standby_name
        .and_then(|n| {
            dests
                .iter()
                .find(|d| d.name.as_deref().is_some_and(|x| x.eq_ignore_ascii_case(n)))
        })
        .or_else(|| dests.first())
}

pub fn render(frame: &mut Frame, area: Rect, cx: &Ctx, wide: bool) {
    let app = cx.app;
    let t = cx.theme;
    let h = t.header();
    let bold = h.add_modifier(ratatui::style::Modifier::BOLD);
    let e = &app.engine;
    let primary = app
        .primary()
        .and_then(|s| e.slot(s))
        .and_then(|s| s.last_good())
        .map(|a| &**a);
    let standby_slot = app.standby();
    let standby = standby_slot
        .and_then(|s| e.slot(s))
        .and_then(|s| s.last_good())
        .map(|a| &**a);
    let mut spans: Vec<Span> = vec![Span::styled(" dgscope ", bold)];

    // Mode, pace and clock; paused shows the cursor and how far back it is.
    let mode = match (app.paused_at, app.cfg.mode) {
        (Some(_), _) => "PAUSED".to_string(),
        (None, m) => m.label().to_string(),
    };
    let mode_style = if app.paused_at.is_some() {
        t.style(Role::Warn).bg(t.color(Role::HeaderBg))
    } else {
        bold
    };
    spans.push(Span::styled(format!(" {mode} "), mode_style));
    if app.cfg.mode == Mode::Replay && app.ended && app.paused_at.is_none() {
        spans.push(Span::styled("END ", h));
    }
    let mut clock = app.clock().clock();
    if let (Some(p), Some(latest)) = (app.paused_at, e.latest()) {
        let back = latest.secs_since(p);
        if back > 0.0 {
            clock.push_str(&format!(" (-{})", fmt::age(back)));
        }
    }
    spans.push(Span::styled(format!("{clock}  "), h));

    // Topology: primary ══ SYNC AFFIRM ══▶ standby (open mode).
    let pname = db_name(primary, "primary");
    let sname = db_name(
        standby,
        standby_slot.map(|s| s.as_str()).unwrap_or("no standby"),
    );
    let pdb = primary.and_then(|s| s.db.as_ref());
    spans.push(Span::styled(pname, bold));
    if wide {
        let role = pdb.and_then(|d| d.role.as_ref()).map(|r| r.to_string());
        let version = pdb.and_then(|d| d.version.clone());
        let extra: Vec<String> = [role, version].into_iter().flatten().collect();
        if !extra.is_empty() {
            spans.push(Span::styled(format!(" {}", extra.join(" ")), h));
        }
    }
    let dest = dest_for(primary, Some(&sname));
    let transport = dest
        .map(|d| {
            let mut s = d.mode.to_string();
            if d.mode.is_sync() {
                s.push_str(if d.affirm { " AFFIRM" } else { " NOAFFIRM" });
            }
            s
        })
        .unwrap_or_else(|| "?".into());
    let arrow = match (cx.ascii, wide) {
        (true, true) => format!(" == {transport} ==> "),
        (true, false) => format!(" ={transport}=> "),
        (false, true) => format!(" ══ {transport} ══▶ "),
        (false, false) => format!(" ═{transport}═▶ "),
    };
    let arrow_style = match dest {
        Some(d) if d.has_gap() || d.error.as_deref().is_some_and(|e| !e.is_empty()) => {
            t.style(Role::Crit).bg(t.color(Role::HeaderBg))
        }
        _ => h,
    };
    spans.push(Span::styled(arrow, arrow_style));

    // Standbys: all of them, the one panes 3–4 show in bold.
    let standbys = e.standby_slots();
    if standbys.len() <= 1 {
        spans.push(Span::styled(sname.clone(), bold));
    } else {
        for (i, s) in standbys.iter().enumerate() {
            let n = db_name(
                e.slot(s).and_then(|x| x.last_good()).map(|a| &**a),
                s.as_str(),
            );
            let chosen = Some(*s) == standby_slot;
            let txt = if chosen { format!("[{n}]") } else { n };
            spans.push(Span::styled(txt, if chosen { bold } else { h }));
            if i + 1 < standbys.len() {
                spans.push(Span::styled(" ", h));
            }
        }
    }
    if wide {
        let sdb = standby.and_then(|s| s.db.as_ref());
        let role = sdb.and_then(|d| d.role.as_ref()).map(|r| r.to_string());
        let open = sdb
            .and_then(|d| d.open_mode.as_ref())
            .map(|o| format!("({o})"));
        let extra: Vec<String> = [role, open].into_iter().flatten().collect();
        if !extra.is_empty() {
            spans.push(Span::styled(format!(" {}", extra.join(" ")), h));
        }
        if let Some(p) = pdb.and_then(|d| d.protection_mode.as_deref()) {
            spans.push(Span::styled(format!("  {}", protection(p)), h));
        }
    }

    // Window, pace, recording, baseline.
    spans.push(Span::styled(format!("  win {}", app.window), h));
    let pace = match app.pace {
        Pace::Speed(s) if app.cfg.mode == Mode::Replay || s != 1.0 => {
            if cx.ascii {
                format!("  x{}", trim(s))
            } else {
                format!("  ×{}", trim(s))
            }
        }
        Pace::Interval(i) => format!("  {}s", i.as_secs()),
        _ => format!("  {}s", app.cfg.interval.as_secs().max(1)),
    };
    spans.push(Span::styled(pace, h));
    if let Some(rec) = &app.recording {
        let dot = if cx.ascii { "*" } else { "●" };
        let name = std::path::Path::new(rec)
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_else(|| rec.clone());
        let txt = if wide {
            format!("  {dot}REC {name}")
        } else {
            format!("  {dot}REC")
        };
        spans.push(Span::styled(
            txt,
            t.style(Role::Crit).bg(t.color(Role::HeaderBg)),
        ));
    }
    if let Some(b) = e.baseline() {
        let c = b.clock();
        spans.push(Span::styled(format!("  base@{}", &c[..5]), h));
    }
    if let Some(s) = &app.active_scenario {
        spans.push(Span::styled(format!("  fault {s}"), h));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)).style(h), area);
}

fn trim(v: f64) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}
