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

/// One field of the header: dropped (or shortened to `short`) when the line is too long,
/// lowest priority first. Rank 0 is never dropped: mode, clock, speed, databases, REC,
/// baseline and the injected fault.
struct Field<'a> {
    rank: u8,
    spans: Vec<Span<'a>>,
    short: Option<Vec<Span<'a>>>,
}

fn width(spans: &[Span]) -> usize {
    spans.iter().map(|s| s.width()).sum()
}

/// The fields that fit in `room` columns: the lowest-priority ones go first (shortened when
/// they have a short form), whole fields only.
fn fit_fields<'a>(mut fields: Vec<Field<'a>>, room: usize) -> Vec<Span<'a>> {
    let total = |f: &[Field]| f.iter().map(|x| width(&x.spans)).sum::<usize>();
    for rank in (1..=u8::MAX).rev() {
        if total(&fields) <= room {
            break;
        }
        for f in fields.iter_mut().filter(|f| f.rank == rank) {
            f.spans = f.short.take().unwrap_or_default();
        }
        if rank == 1 {
            break;
        }
    }
    fields.into_iter().flat_map(|f| f.spans).collect()
}

pub fn render(frame: &mut Frame, area: Rect, cx: &Ctx, wide: bool) {
    let line = line(cx, wide, area.width as usize);
    frame.render_widget(Paragraph::new(line).style(cx.theme.header()), area);
}

/// The header line for `room` columns.
pub fn line(cx: &Ctx, wide: bool, room: usize) -> Line<'static> {
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
    let mut fields: Vec<Field<'static>> = Vec::new();
    let mut push = |rank: u8, spans: Vec<Span<'static>>, short: Option<Vec<Span<'static>>>| {
        fields.push(Field { rank, spans, short })
    };
    push(7, vec![Span::styled(" dgscope ", bold)], None);

    // Mode, clock and pace: the clock is the source's (virtual in the demo, the recording's
    // in replay), and the header says so with the speed.
    let mode = match (app.paused_at, app.cfg.mode) {
        (Some(_), _) => "PAUSED".to_string(),
        (None, m) => m.label().to_string(),
    };
    let mode_style = if app.paused_at.is_some() {
        t.style(Role::Warn).bg(t.color(Role::HeaderBg))
    } else {
        bold
    };
    let mut mode_spans = vec![Span::styled(format!(" {mode} "), mode_style)];
    if app.cfg.mode == Mode::Replay && app.ended && app.paused_at.is_none() {
        mode_spans.push(Span::styled("END ", h));
    }
    push(0, mode_spans, None);
    let mut clock = app.clock().clock();
    if let Some(zone) = crate::timestamp::zone_label(app.clock()) {
        clock = format!("{clock} {zone}"); // --tz other than UTC: say which zone
    }
    if let (Some(p), Some(latest)) = (app.paused_at, e.latest()) {
        let back = latest.secs_since(p);
        if back > 0.0 {
            clock.push_str(&format!(" (-{})", fmt::dur(back)));
        }
    }
    push(0, vec![Span::styled(clock, h)], None);
    let x = if cx.ascii { "x" } else { "×" };
    let speed = match app.pace {
        Pace::Speed(s) => format!("{x}{}", trim(s)),
        Pace::Interval(i) => format!("every {} s", i.as_secs().max(1)),
        Pace::Fixed => format!("every {} s", app.cfg.interval.as_secs().max(1)),
    };
    let (pace, short) = match app.cfg.mode {
        Mode::Demo => (format!(" simulated {speed}"), Some(format!(" sim {speed}"))),
        Mode::Replay => (format!(" recorded {speed}"), Some(format!(" rec {speed}"))),
        Mode::Live => (format!(" {speed}"), None),
    };
    push(
        if app.cfg.mode == Mode::Live { 2 } else { 4 },
        vec![Span::styled(pace, h)],
        short.map(|s| vec![Span::styled(s, h)]),
    );

    // Topology: primary ══ SYNC AFFIRM ══▶ standby (open mode).
    let pname = db_name(primary, "primary");
    let sname = db_name(
        standby,
        standby_slot.map(|s| s.as_str()).unwrap_or("no standby"),
    );
    let pdb = primary.and_then(|s| s.db.as_ref());
    push(0, vec![Span::styled(format!("  {pname}"), bold)], None);
    if wide {
        let role = pdb.and_then(|d| d.role.as_ref()).map(|r| r.to_string());
        let version = pdb.and_then(|d| d.version.clone());
        let extra: Vec<String> = [role, version].into_iter().flatten().collect();
        if !extra.is_empty() {
            push(
                6,
                vec![Span::styled(format!(" {}", extra.join(" ")), h)],
                None,
            );
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
    let bare = if cx.ascii { " => " } else { " ▶ " };
    push(
        3,
        vec![Span::styled(arrow, arrow_style)],
        Some(vec![Span::styled(bare, arrow_style)]),
    );

    // Standbys: all of them, the one panes 3–4 show in bold.
    let standbys = e.standby_slots();
    if standbys.len() <= 1 {
        push(0, vec![Span::styled(sname.clone(), bold)], None);
    } else {
        let mut spans = vec![];
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
        push(0, spans, None);
    }
    if wide {
        let sdb = standby.and_then(|s| s.db.as_ref());
        let role = sdb.and_then(|d| d.role.as_ref()).map(|r| r.to_string());
        let open = sdb
            .and_then(|d| d.open_mode.as_ref())
            .map(|o| format!("({o})"));
        let extra: Vec<String> = [role, open].into_iter().flatten().collect();
        if !extra.is_empty() {
            push(
                6,
                vec![Span::styled(format!(" {}", extra.join(" ")), h)],
                None,
            );
        }
    }
    if let Some(p) = pdb.and_then(|d| d.protection_mode.as_deref()) {
        push(
            5,
            vec![Span::styled(format!("  {}", protection(p)), h)],
            None,
        );
    }

    // Window, recording, baseline, fault.
    push(
        2,
        vec![Span::styled(format!("  win {}", app.window), h)],
        None,
    );
    let alarm = t.style(Role::Crit).bg(t.color(Role::HeaderBg));
    if let Some(rec) = &app.recording {
        let dot = if cx.ascii { "*" } else { "●" };
        let name = std::path::Path::new(rec)
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_else(|| rec.clone());
        push(0, vec![Span::styled(format!("  {dot}REC"), alarm)], None);
        push(5, vec![Span::styled(format!(" {name}"), alarm)], None);
    }
    if let Some(b) = e.baseline() {
        push(
            0,
            vec![Span::styled(format!("  base@{}", b.clock()), h)],
            None,
        );
    }
    if let Some(s) = &app.active_scenario {
        push(0, vec![Span::styled(format!("  fault {s}"), h)], None);
    }
    Line::from(fit_fields(fields, room))
}

fn trim(v: f64) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}
